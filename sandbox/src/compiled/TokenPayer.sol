// SPDX-License-Identifier: MIT
pragma solidity ^0.8.24;

interface IERC20 {
    function balanceOf(address account) external view returns (uint256);

    function transfer(address to, uint256 amount) external returns (bool);
}

/// @title TokenPayer
/// @notice Pays out an HTS token through its ERC-20 facade (HIP-218): the token's own address, called as any ERC-20.
contract TokenPayer {
    error PayoutFailed(address token, address to, uint256 amount);

    event Paid(address indexed token, address indexed to, uint256 amount, uint256 left);

    /// What this contract holds (a STATICCALL of `balanceOf`), then `amount` to `to` (a CALL of `transfer`); a
    /// transfer the token refuses reverts, and its revert data is passed on.
    function pay(address token, address to, uint256 amount) external returns (uint256 left) {
        uint256 held = IERC20(token).balanceOf(address(this));
        if (!IERC20(token).transfer(to, amount)) revert PayoutFailed(token, to, amount);
        left = held - amount;
        emit Paid(token, to, amount, left);
    }
}
