// SPDX-License-Identifier: MIT
pragma solidity ^0.8.28;

import {Unauthorized, TooLarge, Empty} from "./Errors.sol";
import {MathLib, LinkedLib} from "./Libraries.sol";

// Every way a call can fail, one per function. "@ fails <case>" comments mark the line each case must be placed on,
// "@ via <case>" the internal calls that lead there.
contract Target {
    enum Color {
        Red,
        Green
    }

    uint256[] public items;
    uint256 public stored;
    address public owner;

    constructor() {
        owner = msg.sender;
        items.push(1);
    }

    modifier onlyOwner() {
        if (msg.sender != owner) revert Unauthorized(msg.sender); // @fails modifier
        _;
    }

    function requireMsg(uint256 x) external pure returns (uint256) {
        require(x < 10, "Target: x too big"); // @fails requireMsg bubble proxy twinCallB
        return x;
    }

    function requireNoMsg(uint256 x) external pure returns (uint256) {
        require(x < 10); // @fails requireNoMsg
        return x;
    }

    function revertMsg(uint256 x) external pure returns (uint256) {
        if (x > 3) {
            revert("Target: revert with a message"); // @fails revertMsg
        }
        return x;
    }

    function customErr(uint256 x) external pure returns (uint256) {
        if (x > 5) {
            revert TooLarge(x, 5); // @fails customErr
        }
        return x;
    }

    function sharedTail(uint256 x) external pure returns (uint256) {
        if (x == 0) revert Empty(); // @fails sharedTailA
        if (x > 100) revert Empty(); // @fails sharedTailB
        return x;
    }

    function otherEmpty(uint256 x) external pure returns (uint256) {
        if (x == 1) revert Empty(); // @fails sharedTailOther
        return x + 1;
    }

    function requireCustom(uint256 x) external pure returns (uint256) {
        require(x < 3, TooLarge(x, 3)); // @fails requireCustom
        return x;
    }

    function assertFail(uint256 x) external pure returns (uint256) {
        assert(x != 7); // @fails panic01
        return x;
    }

    function overflow(uint256 x) external pure returns (uint256) {
        uint256 y = x + 1; // @fails panic11
        return y;
    }

    function underflow(uint8 a, uint8 b) external pure returns (uint8) {
        uint8 c = a - b; // @fails panic11sub
        return c;
    }

    function divide(uint256 a, uint256 b) external pure returns (uint256) {
        return a / b; // @fails panic12
    }

    function toColor(uint256 v) external pure returns (Color) {
        return Color(v); // @fails panic21
    }

    function popEmpty() external {
        delete items;
        items.pop(); // @fails panic31
    }

    function at(uint256 i) external view returns (uint256) {
        return items[i]; // @fails panic32
    }

    function allocate(uint256 n) external pure returns (uint256) {
        uint256[] memory a = new uint256[](n); // @fails panic41
        return a.length;
    }

    function callZero() external pure returns (uint256) {
        function() internal pure returns (uint256) f;
        return f(); // @fails panic51
    }

    function setStored(uint256 v) external onlyOwner {
        stored = v;
    }

    function viaInternal(uint256 x) external pure returns (uint256) {
        return square(x); // @via libInternalRequire libInternalOverflow
    }

    function square(uint256 x) internal pure returns (uint256) {
        MathLib.requirePositive(x); // @via libInternalRequire
        return MathLib.checkedMul(x, x); // @via libInternalOverflow
    }

    function viaLinked(uint256 x) external pure returns (uint256) {
        return LinkedLib.check(x, 50);
    }
}
