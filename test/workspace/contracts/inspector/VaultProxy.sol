// SPDX-License-Identifier: MIT
pragma solidity ^0.8.24;

/// @title VaultProxy
/// @notice An ERC-1967 proxy in front of VaultRules: every call runs the implementation's code in this contract's
/// storage (DELEGATECALL), and the implementation's revert data is passed on as it is. The implementation's address
/// is in the ERC-1967 slot, set once by the constructor.
contract VaultProxy {
    /// bytes32(uint256(keccak256("eip1967.proxy.implementation")) - 1)
    bytes32 internal constant IMPLEMENTATION_SLOT = 0x360894a13ba1a3210667c828492db98dca3e2076cc3735a920a3ca505d382bbc;

    error NotAContract(address implementation);

    event Upgraded(address indexed implementation);

    constructor(address implementation) {
        if (implementation.code.length == 0) revert NotAContract(implementation);
        assembly {
            sstore(IMPLEMENTATION_SLOT, implementation)
        }
        emit Upgraded(implementation);
    }

    fallback() external payable {
        assembly {
            let implementation := sload(IMPLEMENTATION_SLOT)
            calldatacopy(0, 0, calldatasize())
            let ok := delegatecall(gas(), implementation, 0, calldatasize(), 0, 0)
            returndatacopy(0, 0, returndatasize())
            switch ok
            case 0 {
                revert(0, returndatasize())
            }
            default {
                return(0, returndatasize())
            }
        }
    }
}
