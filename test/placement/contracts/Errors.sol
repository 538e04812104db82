// SPDX-License-Identifier: MIT
pragma solidity ^0.8.28;

error Unauthorized(address caller);
error TooLarge(uint256 value, uint256 max);
error Empty();
