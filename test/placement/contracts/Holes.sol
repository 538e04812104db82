// SPDX-License-Identifier: MIT
pragma solidity ^0.8.28;

import {Unauthorized, TooLarge, Empty} from "./Errors.sol";
import {Target} from "./Target.sol";

// Found by a review: identical functions the optimizer merges, a failure caught before the caller fails on its own,
// shared messages and revert tails, loops, modifiers that run `_` twice, inline assembly.
contract Holes {
    Target public target;
    uint256 public s;

    constructor(Target t) {
        target = t;
    }

    function fallB(uint256 x) external pure {
        if (x == 0) revert Empty();
        revert Empty(); // @fails fallB
    }

    function fallMsg(uint256 x) external pure {
        if (x == 0) revert("same");
        revert("same"); // @fails fallMsg
    }

    function fallReq(uint256 x) external pure {
        if (x == 0) {
            require(x == 5, "same");
        }
        require(x == 7, "same"); // @fails fallReq
    }

    function _failA() internal pure {
        revert Empty();
    }

    function _failB() internal pure {
        revert Empty(); // @fails twinB
    }

    function twin(uint256 x) external pure {
        if (x == 1) _failA();
        if (x == 2) _failB();
    }

    function _tooA(uint256 x) internal pure {
        revert TooLarge(x, 5);
    }

    function _tooB(uint256 x) internal pure {
        revert TooLarge(x, 5); // @fails twinArgB
    }

    function twinArg(uint256 x) external pure {
        if (x == 1) _tooA(x);
        if (x == 2) _tooB(x);
    }

    function _msgA(uint256 x) internal pure returns (uint256) {
        require(x != 1, "twin");
        return x;
    }

    function _msgB(uint256 x) internal pure returns (uint256) {
        require(x != 2, "twin"); // @fails twinMsgB
        return x;
    }

    function twinMsg(uint256 x) external pure returns (uint256) {
        return _msgA(x) + _msgB(x);
    }

    function msgs(uint256 x) external pure {
        require(x != 1, "same");
        require(x != 2, "same"); // @fails msgs2
    }

    function nested(uint256 x) external pure {
        if (x > 10) {
            if (x == 11) revert Empty();
            revert Empty(); // @fails nestedB
        }
    }

    function g(uint256 a) internal pure returns (uint256) {
        require(a != 1, "bad");
        return a;
    }

    function crossRet(uint256 a) external pure returns (uint256) {
        uint256 b = g(a);
        require(b != 2, "bad"); // @fails crossRet
        return b;
    }

    function callTwice(uint256 x, uint256 b) external view returns (uint256) {
        if (b == 1) return target.requireMsg(x);
        return target.requireMsg(x);
    }

    function emptyAfter(uint256 x) external {
        try target.requireNoMsg(x) {} catch {}
        require(x < 5); // @fails emptyAfter
    }

    function overflow2(uint256 a, uint256 b) external pure returns (uint256) {
        uint256 c = a + 1;
        uint256 d = b + 1; // @fails overflow2
        return c + d;
    }

    function _inc(uint256 a) internal pure returns (uint256) {
        return a + 1;
    }

    function _inc2(uint256 a) internal pure returns (uint256) {
        return a + 1; // @fails twinInc
    }

    function twinInc(uint256 a, uint256 b) external pure returns (uint256) {
        return _inc(a) * _inc2(b);
    }

    modifier twice() {
        for (uint256 i = 0; i < 2; i++) {
            _;
        }
    }

    function loopMod(uint256 x) external twice {
        s += 1;
        require(s < 2 || x == 0, "loop"); // @fails loopMod
    }

    function idx(uint256 i, uint256 j) external view returns (uint256) {
        uint256[] memory a = new uint256[](3);
        uint256 v = a[i];
        return v + a[j]; // @fails idx2
    }

    function _sA(uint256 x) internal pure {
        if (x > 0) revert("same");
    }

    function _sB(uint256 x) internal pure {
        if (x > 0) revert("same"); // @fails twinStrB
    }

    function twinStr(uint256 x, uint256 y) external pure {
        _sA(x);
        _sB(y);
    }

    function _rA(uint256 x) internal pure {
        require(x == 0);
    }

    function _rB(uint256 x) internal pure {
        require(x == 0); // @fails twinReqB
    }

    function twinReq(uint256 x, uint256 y) external pure {
        _rA(x);
        _rB(y);
    }

    function _dA(uint256 a, uint256 b) internal pure returns (uint256) {
        return a / b;
    }

    function _dB(uint256 a, uint256 b) internal pure returns (uint256) {
        return a / b; // @fails twinDivB
    }

    function twinDiv(uint256 a, uint256 b) external pure returns (uint256) {
        return _dA(a, 1) + _dB(a, b);
    }

    function _eA(uint256 x) internal pure {
        if (x > 5) revert TooLarge(x, 5);
    }

    function _eB(uint256 x) internal pure {
        if (x > 5) revert TooLarge(x, 5); // @fails twinErrB
    }

    function twinErr(uint256 x, uint256 y) external pure {
        _eA(x);
        _eB(y);
    }

    function twinLib(uint256 x, uint256 y) external pure {
        LibA.check(x);
        LibB.check(y);
    }

    function check(uint256 x) internal pure {
        if (x > 5) revert TooLarge(x, 5);
    }

    function check(uint256 x, uint256 y) internal pure {
        if (x > y) revert TooLarge(x, y); // @fails overloadB
    }

    function overload(uint256 x, uint256 y) external pure {
        check(x);
        check(x, y);
    }

    function _cA(uint256 x) internal view returns (uint256) {
        return target.requireMsg(x);
    }

    function _cB(uint256 x) internal view returns (uint256) {
        return target.requireMsg(x);
    }

    function twinCall(uint256 x, uint256 y) external view returns (uint256) {
        return _cA(x) + _cB(y);
    }

    function burn(uint256 n) external returns (uint256 t) {
        for (uint256 i = 0; i < n; i++) {
            s += i;
        }
        t = s;
    }

    function gasCall(uint256 n) external returns (uint256) {
        return this.burn{gas: 60000}(n);
    }

    function _aA(uint256 x) internal pure {
        assembly {
            if gt(x, 5) { revert(0, 0) }
        }
    }

    function _aB(uint256 x) internal pure {
        assembly {
            if gt(x, 5) { revert(0, 0) } // @fails twinAsmB
        }
    }

    function twinAsm(uint256 x, uint256 y) external pure {
        _aA(x);
        _aB(y);
    }

    modifier mA(uint256 x) {
        if (x > 5) revert TooLarge(x, 5);
        _;
    }

    modifier mB(uint256 x) {
        if (x > 5) revert TooLarge(x, 5); // @fails twinModB
        _;
    }

    function twinMod(uint256 x, uint256 y) external mA(x) mB(y) {
        s = x + y;
    }

    fallback() external {
        _eB(msg.data.length);
    }

    function sumAll(uint256[] calldata xs) external pure returns (uint256 total) {
        for (uint256 i = 0; i < xs.length; ) {
            total += xs[i]; // @fails sumAll
            unchecked { ++i; }
        }
    }

    function sumOnes(uint256 start, uint256 n) external pure returns (uint256 total) {
        total = start;
        for (uint256 i = 0; i < n; ) {
            unchecked { ++i; }
            total = total + 1; // @fails sumOnes
        }
    }

    function reasonVar(uint256 x, string memory why) external pure {
        require(x != 1, why);
        if (x == 2) revert(why); // @fails reasonVar
    }

    function reasonVar2(uint256 x, string memory why) external pure {
        if (x == 1) revert(why);
        if (x == 2) revert(why); // @fails reasonVar2
    }

    function reasonVar3(uint256 x, string memory why) external pure {
        if (x == 1) revert(why);
        revert(why); // @fails reasonVar3
    }

    function reasonVar4(uint256 x, string memory why) external pure {
        require(x != 1, why);
        require(x != 2, why); // @fails reasonVar4
    }

    function nested2(uint256 x) external pure {
        if (x > 10) {
            if (x == 11) {
                revert TooLarge(x, 5);
            }
            revert TooLarge(x, 5); // @fails nested2
        }
    }

    function asm2(uint256 x, uint256 y) external pure {
        assembly {
            if gt(x, 5) { revert(0, 0) }
            if gt(y, 5) { revert(0, 0) } // @fails asm2
        }
    }

    function asm3(uint256 x, uint256 y) external pure {
        assembly {
            if gt(x, 5) { mstore(0, 7) revert(0, 32) }
            if gt(y, 5) { mstore(0, 7) revert(0, 32) } // @fails asm3
        }
    }

    function loop2(uint256[] memory a) external pure {
        for (uint256 i = 0; i < a.length; i++) {
            if (a[i] == 0) revert Empty();
            if (a[i] == 1) revert Empty(); // @fails loop2
        }
    }

    function while2(uint256 x) external pure {
        while (x < 100) {
            x += 7;
            require(x != 50, "w");
            require(x != 51, "w"); // @fails while2
        }
    }
}

library LibA {
    function check(uint256 x) internal pure {
        if (x > 5) revert TooLarge(x, 5);
    }
}

library LibB {
    function check(uint256 x) internal pure {
        if (x > 5) revert TooLarge(x, 5); // @fails twinLibB
    }
}
