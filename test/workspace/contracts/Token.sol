// SPDX-License-Identifier: MIT
pragma solidity ^0.8.24;

import {Ownable} from "./access/Ownable.sol";
import {IThing} from "./IThing.sol";

contract Token is Ownable, IThing {
    mapping(address => uint256) public balanceOf;

    function mint(address to, uint256 amount) external onlyOwner {
        balanceOf[to] += amount;
    }

    function thing() external pure returns (uint256) {
        return 42;
    }
}
