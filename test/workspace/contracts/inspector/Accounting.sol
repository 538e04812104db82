// SPDX-License-Identifier: MIT
pragma solidity ^0.8.24;
import {Ledger} from "./Ledger.sol";
/// @title Accounting
/// @notice Moves balances, records what the recipient got in the Ledger. `settle` is external: the Vault reaches it
/// with DELEGATECALL, so it runs on the Vault's storage and calls the Ledger as the Vault (a revert there: 3 frames).
library Accounting {
    error SettlementExceedsBalance(address account, uint256 balance, uint256 amount);

    event Settled(address indexed from, address indexed to, uint256 amount);

    function settle(mapping(address => uint256) storage balances, Ledger ledger, address from, address to, uint256 amount) external returns (uint256 left) {
        require(to != address(0), "Accounting: zero recipient");
        uint256 balance = balances[from];
        if (amount > balance) revert SettlementExceedsBalance(from, balance, amount);
        left = balance - amount;
        balances[from] = left;
        balances[to] += amount;
        ledger.record(to, amount);
        emit Settled(from, to, amount);
    }
}
