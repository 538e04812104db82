// SPDX-License-Identifier: MIT
pragma solidity ^0.8.28;

import {Target} from "./Target.sol";

/// Calls into Target: a revert bubbled across contracts, and one caught and reverted again.
contract Caller {
    Target public target;

    constructor(Target t) {
        target = t;
    }

    function bubble(uint256 x) external view returns (uint256) {
        return target.requireMsg(x);
    }

    function tryCatch(uint256 x) external view returns (uint256) {
        try target.requireMsg(x) returns (uint256 v) {
            return v;
        } catch Error(string memory reason) {
            revert(string.concat("Caller: ", reason)); // @fails tryCatch
        }
    }
}

/// A delegatecall proxy: its fallback forwards everything to the implementation and bubbles its reverts.
contract Proxy {
    address public immutable implementation;

    constructor(address impl) {
        implementation = impl;
    }

    fallback() external payable {
        address impl = implementation;
        assembly {
            calldatacopy(0, 0, calldatasize())
            let ok := delegatecall(gas(), impl, 0, calldatasize(), 0, 0)
            returndatacopy(0, 0, returndatasize())
            if iszero(ok) {
                revert(0, returndatasize())
            }
            return(0, returndatasize())
        }
    }
}
