// SPDX-License-Identifier: MIT
pragma solidity ^0.8.24;

import {Accounting} from "./Accounting.sol";
import {Ledger} from "./Ledger.sol";

/// @title Vault
/// @notice Holds HBAR deposits. Small, but every way a call fails on Hedera is in it: a custom error, a `require`
/// with a message, an arithmetic panic, running out of gas, a revert in a library (DELEGATECALL), in a second contract
/// (CALL) and two internal calls deep, a modifier, and calls to Hedera's system contracts (PRNG 0x169, token service 0x167).
contract Vault {
    /// Hedera's pseudorandom number system contract.
    address private constant PRNG = address(0x169);
    /// Hedera's token service system contract.
    address private constant HTS = address(0x167);
    /// The token service's response code for success.
    int64 private constant SUCCESS = 22;

    address public owner;
    uint96 public feeBps;
    bool public paused;
    uint256 public totalDeposits;
    mapping(address => uint256) public balances;
    string public name;
    Ledger public ledger;
    uint256 public spins;

    uint96 public immutable maxFeeBps;

    error InsufficientBalance(uint256 available, uint256 required);
    error NotOwner(address caller);
    error HtsFailed(int64 code);

    event Deposited(address indexed account, uint256 amount);
    event Withdrawn(address indexed account, uint256 amount);
    event Transfer(address indexed from, address indexed to, uint256 value);
    event Settlement(bytes32 indexed id, address indexed to, uint256 recorded);
    event Moved(address indexed from, address indexed to, uint256 amount);

    modifier onlyOwner() {
        if (msg.sender != owner) revert NotOwner(msg.sender);
        _;
    }

    constructor(Ledger ledger_, string memory name_, uint96 maxFeeBps_) {
        owner = msg.sender;
        feeBps = 25;
        ledger = ledger_;
        name = name_;
        maxFeeBps = maxFeeBps_;
    }

    function deposit() external payable {
        uint256 amount = msg.value;
        balances[msg.sender] += amount;
        totalDeposits += amount;
        emit Deposited(msg.sender, amount);
        emit Transfer(address(0), msg.sender, amount);
        ledger.record(msg.sender, amount);
    }

    function withdraw(uint256 amount) external {
        require(!paused, "Vault: paused");
        uint256 available = balances[msg.sender];
        if (amount > available) revert InsufficientBalance(available, amount);
        balances[msg.sender] = available - amount;
        totalDeposits -= amount;
        emit Withdrawn(msg.sender, amount);
        emit Transfer(msg.sender, address(0), amount);
        (bool sent, ) = payable(msg.sender).call{value: amount}("");
        require(sent, "Vault: send failed");
    }

    function setFee(uint96 newFeeBps) external onlyOwner {
        require(newFeeBps <= maxFeeBps, "Vault: fee too high");
        feeBps = newFeeBps;
    }

    function setPaused(bool paused_) external onlyOwner {
        paused = paused_;
    }

    /// The fee on `x` squared: checked arithmetic, so a large `x` fails with Panic(0x11).
    function compute(uint256 x) external view returns (uint256) {
        return (x * x * feeBps) / 10_000;
    }

    /// Writes storage `rounds` times: a large `rounds` runs out of gas.
    function spin(uint256 rounds) external {
        for (uint256 i = 0; i < rounds; i++) {
            spins += 1;
        }
    }

    /// Moves `amount` of the caller's balance to `to`: what the Ledger recorded for `to` (a STATICCALL) and a
    /// settlement id from the PRNG (0x169) first, then the Accounting library (a DELEGATECALL), which records the
    /// amount in the Ledger (a CALL made from the Vault's context).
    function settle(address to, uint256 amount) external returns (uint256 left) {
        uint256 recorded = ledger.entries(to);
        bytes32 id = _seed();
        left = Accounting.settle(balances, ledger, msg.sender, to, amount);
        emit Transfer(msg.sender, to, amount);
        emit Settlement(id, to, recorded + amount);
    }

    /// What the Ledger recorded for `who` (a STATICCALL) and what the Vault holds for it.
    function audit(address who) external view returns (uint256 recorded, uint256 held) {
        recorded = ledger.entries(who);
        held = balances[who];
    }

    /// A pseudorandom seed from Hedera's PRNG system contract (0x169).
    function seed() external returns (bytes32) {
        return _seed();
    }

    function _seed() private returns (bytes32) {
        (bool ok, bytes memory out) = PRNG.call(abi.encodeWithSignature("getPseudorandomSeed()"));
        require(ok && out.length == 32, "Vault: no seed");
        return abi.decode(out, (bytes32));
    }

    /// Sends `amount` of an HTS token held by the Vault to `to` through Hedera's token service (0x167).
    function payout(address token, address to, int64 amount) external onlyOwner {
        (bool ok, bytes memory out) = HTS.call(abi.encodeWithSignature("transferToken(address,address,address,int64)", token, address(this), to, amount));
        int64 code = ok && out.length == 32 ? abi.decode(out, (int64)) : int64(-1);
        if (code != SUCCESS) revert HtsFailed(code);
    }

    /// Moves `amount` of the caller's balance to `to` inside the Vault (no HBAR leaves it): `_move` debits the caller
    /// through `_debit`, which refuses more than the caller holds, two internal calls below this one.
    function move(address to, uint256 amount) external {
        _move(msg.sender, to, amount);
    }

    function _move(address from, address to, uint256 amount) private {
        _debit(from, amount);
        balances[to] += amount;
        emit Moved(from, to, amount);
    }

    function _debit(address from, uint256 amount) private {
        uint256 held = balances[from];
        require(amount <= held, "Vault: move exceeds balance");
        balances[from] = held - amount;
    }
}
