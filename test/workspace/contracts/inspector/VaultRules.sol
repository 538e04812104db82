// SPDX-License-Identifier: MIT
pragma solidity ^0.8.24;

/// @title VaultRules
/// @notice The implementation behind VaultProxy: a withdrawal limit per request, kept in the proxy's storage (the
/// proxy's slot 0 and 1, its ERC-1967 slot aside). `request` asks for an amount; above the limit, `_check` reverts
/// with `LimitExceeded`, one internal call deep inside a DELEGATECALL.
contract VaultRules {
    uint256 public limit;
    uint256 public requested;

    error LimitExceeded(uint256 limit, uint256 amount);

    event Requested(address indexed account, uint256 amount, uint256 left);

    function request(uint256 amount) external returns (uint256 left) {
        left = _check(amount);
        requested += amount;
        emit Requested(msg.sender, amount, left);
    }

    function _check(uint256 amount) internal view returns (uint256) {
        if (amount > limit) revert LimitExceeded(limit, amount);
        return limit - amount;
    }
}
