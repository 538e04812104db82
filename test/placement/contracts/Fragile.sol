// SPDX-License-Identifier: MIT
pragma solidity ^0.8.28;

import {TooLarge} from "./Errors.sol";

// A base constructor that can fail.
abstract contract Bounded {
    uint256 public limit;

    constructor(uint256 l) {
        if (l > 1000) revert TooLarge(l, 1000); // @fails ctorBase
        limit = l;
    }
}

// Its deployment fails in the base constructor, in a modifier of its constructor, or in the constructor itself.
contract Fragile is Bounded {
    modifier notOne(uint256 v) {
        require(v != 1, "Fragile: one"); // @fails ctorModifier
        _;
    }

    constructor(uint256 v) Bounded(v) notOne(v) {
        require(v != 0, "Fragile: zero"); // @fails ctorRequire
    }
}
