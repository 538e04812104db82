// SPDX-License-Identifier: MIT
pragma solidity ^0.8.28;

import {TooLarge} from "./Errors.sol";

/// Internal functions: compiled into the caller's code.
library MathLib {
    function checkedMul(uint256 a, uint256 b) internal pure returns (uint256) {
        return a * b; // @fails libInternalOverflow
    }

    function requirePositive(uint256 a) internal pure {
        require(a > 0, "MathLib: zero"); // @fails libInternalRequire
    }
}

/// A public function: deployed on its own, linked into its callers, entered by DELEGATECALL.
library LinkedLib {
    function check(uint256 a, uint256 max) public pure returns (uint256) {
        if (a > max) revert TooLarge(a, max); // @fails linkedLib
        return a;
    }
}
