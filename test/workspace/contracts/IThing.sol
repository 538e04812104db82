// SPDX-License-Identifier: MIT
pragma solidity ^0.8.24;

interface IThing {
    function thing() external view returns (uint256);
}
