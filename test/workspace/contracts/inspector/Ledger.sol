// SPDX-License-Identifier: MIT
pragma solidity ^0.8.24;

/// @title Ledger
/// @notice Records what the Vault received, per account. The Vault calls `record` on every deposit: a revert here
/// is a revert inside a call to a second contract. It is deployed for a Vault, which must be a contract: an account's
/// address (a deployment script that passes its own) fails the deployment in the constructor.
contract Ledger {
    mapping(address => uint256) public entries;
    uint256 public count;

    error NotAContract(address vault);

    event Opened(address indexed vault);
    event Recorded(address indexed account, uint256 amount, uint256 count);

    constructor(address vault_) {
        if (vault_.code.length == 0) revert NotAContract(vault_);
        emit Opened(vault_);
    }

    function record(address account, uint256 amount) external {
        require(amount <= 1e24, "Ledger: amount too large");
        entries[account] += amount;
        count += 1;
        emit Recorded(account, amount, count);
    }
}
