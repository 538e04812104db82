// The declarations CodeLens is shown above (src/features/deployments/solidity.ts): `contract X` and `library X`,
// never `interface X` nor `abstract contract X`, nor anything inside comments or strings; names across lines and
// comments; several per file; positions right with unicode before them and any line ending.
import * as assert from 'assert';
import * as fs from 'fs';
import * as path from 'path';
import { findDeclarations, findFunctions } from '../../src/features/deployments/solidity';

const ROOT = path.join(__dirname, '../../..');
const short = (src: string) => findDeclarations(src).map((d) => `${d.kind} ${d.name} @${d.line}:${d.character}`);

describe('deployments: Solidity declarations', () => {
  it('finds contracts and libraries, not interfaces nor abstract contracts', () => {
    const src = [
      '// SPDX-License-Identifier: MIT',
      'pragma solidity ^0.8.24;',
      'interface IThing { function f() external; }',
      'abstract contract Base { function g() internal virtual; }',
      'library Math { function add(uint a, uint b) internal pure returns (uint) { return a + b; } }',
      'contract Token is Base, IThing {',
      '  function f() external {}',
      '}',
      '  contract   Vault{}',
    ].join('\n');
    assert.deepStrictEqual(short(src), ['library Math @4:0', 'contract Token @5:0', 'contract Vault @8:2']);
  });

  it('skips comments and strings of every kind', () => {
    const src = [
      '// contract LineComment {}',
      '/// contract NatSpec',
      '/* contract Block {} */ /** contract Doc',
      '   library DocLib */',
      'contract Real {',
      '  string s = "contract InString {";',
      "  string t = 'library InSingle';",
      '  string u = "escaped \\" contract Escaped \\\\";',
      '  bytes h = hex"00ff"; string w = unicode"contract Uni 🚀";',
      '  // a "string" in a comment: contract Nope',
      '}',
      'library RealLib {}',
    ].join('\n');
    assert.deepStrictEqual(short(src), ['contract Real @4:0', 'library RealLib @11:0']);
  });

  it('reads the name across lines and comments (contract X is A, B { over several lines)', () => {
    const src =
      'contract /* the vault */\n  Vault // name\n  is\n    Ownable,\n    IThing\n{\n}\nabstract /* still abstract */ contract NotMe {}\n';
    const [d, ...rest] = findDeclarations(src);
    assert.deepStrictEqual(rest, []);
    assert.strictEqual(d.name, 'Vault');
    assert.deepStrictEqual([d.line, d.character, d.offset], [0, 0, 0]);
    assert.strictEqual(src.slice(d.nameOffset, d.nameOffset + 5), 'Vault');
  });

  it('keeps identifiers whole: mycontract, contract_, $contract, Contract are not the keyword', () => {
    const src =
      'contract C { uint mycontract; uint contract_ = 1; uint $contract; Contract x; function library_() {} }\ncontract D {}';
    assert.deepStrictEqual(short(src), ['contract C @0:0', 'contract D @1:0']);
  });

  it('positions count UTF-16 units (as VS Code does) after unicode, with \\r\\n and \\r line ends', () => {
    const src = '// café 🚀 ünïcödé\r\n/* 日本語 */ contract Ü {}\r\ncontract Vault {}\rlibrary L {}';
    const found = findDeclarations(src);
    // `Ü` is not an identifier character in Solidity: no name is read for it
    assert.deepStrictEqual(
      found.map((d) => `${d.kind} ${d.name} @${d.line}:${d.character}`),
      ['contract Vault @2:0', 'library L @3:0'],
    );
    assert.strictEqual(src.slice(found[0].offset, found[0].offset + 8), 'contract');
    assert.strictEqual(src.slice(found[1].offset, found[1].offset + 7), 'library');
    const emoji = '/* 🚀🚀 */ contract Rocket {}';
    const [r] = findDeclarations(emoji);
    assert.strictEqual(r.character, emoji.indexOf('contract'), 'two UTF-16 units per emoji');
  });

  it('numbers are not identifiers, and an unterminated comment or string ends the scan quietly', () => {
    assert.deepStrictEqual(
      short('uint x = 0xcontract; contract A {}'),
      ['contract A @0:21'],
      'hex digits then letters: one number token',
    );
    assert.deepStrictEqual(short('contract A {}\n/* contract B {}'), ['contract A @0:0']);
    assert.deepStrictEqual(
      short('contract A { string s = "never closed\ncontract B {}'),
      ['contract A @0:0', 'contract B @1:0'],
      'a string ends at the line end',
    );
    assert.deepStrictEqual(short('contract'), [], 'no name at all');
    assert.deepStrictEqual(short('contract contract X'), ['contract X @0:9'], 'a keyword is not a name');
  });

  it("the sample workspace's sources", () => {
    const of = (rel: string) =>
      short(fs.readFileSync(path.join(ROOT, 'test/workspace/contracts', rel), 'utf8')).map((s) =>
        s.replace(/ @.*/, ''),
      );
    assert.deepStrictEqual(of('inspector/Vault.sol'), ['contract Vault']);
    assert.deepStrictEqual(of('inspector/Accounting.sol'), ['library Accounting']);
    assert.deepStrictEqual(of('IThing.sol'), []);
    assert.deepStrictEqual(of('access/Ownable.sol'), []);
    assert.deepStrictEqual(of('Token.sol'), ['contract Token']);
  });

  // its time (target < 2 s) is a figure of `npm run bench` (test/bench/scale.mjs)
  it('scans a large source: all 20,000 contracts, none of the names in its comments and strings', () => {
    const block = '/* contract NotThis */ contract C%d { string s = "library NotThat"; }\n';
    const src = Array.from({ length: 20000 }, (_, i) => block.replace('%d', String(i))).join('');
    const found = findDeclarations(src);
    assert.strictEqual(found.length, 20000);
    assert.ok(
      found.every((d, i) => d.kind === 'contract' && d.name === `C${i}` && d.line === i),
      'each contract on its line',
    );
    assert.strictEqual(found[19999].name, 'C19999');
    assert.strictEqual(found[19999].line, 19999);
  });
});

describe('deployments: Solidity functions a contract can be called by', () => {
  const fns = (src: string, name: string) => {
    const d = findDeclarations(src).find((x) => x.name === name);
    assert.ok(d, name);
    return findFunctions(src, d).map(
      (f) => `${f.name}/${f.getter ? 'getter' : f.inputs} ${f.mutability} @${f.line}:${f.character}`,
    );
  };

  it('public and external functions of its own body, with their inputs and mutability, in source order', () => {
    const src = [
      'contract Base { function inherited() external {} }',
      'contract C is Base(1, 2), Other {',
      '  struct S { uint a; uint b; }',
      '  event E(uint a, uint b);',
      '  error Bad(uint a);',
      '  modifier only(uint a) { _; }',
      '  constructor(uint a) {}',
      '  fallback() external {}',
      '  receive() external payable {}',
      '  function none() external {}',
      '  function one(uint a) public view returns (uint) { if (a > 0) { return 1; } return 2; }',
      '  function two(uint[] calldata xs, S memory s) external pure returns (uint, uint) { return (1, 2); }',
      '  function callback(function (uint, uint) external returns (uint) f, bytes memory b) external payable only(1) {}',
      '  function hidden(uint a) internal {}',
      '  function secret() private view {}',
      '  function one(uint a, uint b) external {}',
      '  function (uint) external returns (uint) public stored;',
      '  function old() constant returns (uint) { return 1; }',
      '  function abstractOne(uint a) external virtual;',
      '}',
      'contract After { function later() external {} }',
    ].join('\n');
    assert.deepStrictEqual(fns(src, 'C'), [
      'none/0 nonpayable @9:2',
      'one/1 view @10:2',
      'two/2 pure @11:2',
      'callback/2 payable @12:2',
      'one/2 nonpayable @15:2',
      'old/0 view @17:2',
      'abstractOne/1 nonpayable @18:2',
    ]);
    assert.deepStrictEqual(fns(src, 'Base'), ['inherited/0 nonpayable @0:16']);
    assert.deepStrictEqual(fns(src, 'After'), ['later/0 nonpayable @20:17']);
  });

  it('the getters of public state variables: mappings, arrays, constants, immutables, initializers', () => {
    const src = [
      'contract C {',
      '  uint96 public feeBps;',
      '  uint256 private hidden;',
      '  uint256 internal inner = 1;',
      '  uint256 counter;',
      '  mapping(address => mapping(uint256 => bool)) public allowed;',
      '  address[] public holders;',
      '  uint256 public constant MAX = 10 ** 18;',
      '  bytes32 public immutable salt;',
      '  uint256 public total = a + b == c ? d : e;',
      '  uint256 public override(A, B) shadowed;',
      '  struct S { uint public notAGetter; }',
      '  event E(uint public notOne);',
      '  using L for uint;',
      '  enum K { A, B }',
      '  function f() external {}',
      '  string public name;',
      '}',
    ].join('\n');
    assert.deepStrictEqual(fns(src, 'C'), [
      'feeBps/getter view @1:2',
      'allowed/getter view @5:2',
      'holders/getter view @6:2',
      'MAX/getter view @7:2',
      'salt/getter view @8:2',
      'total/getter view @9:2',
      'shadowed/getter view @10:2',
      'f/0 nonpayable @15:2',
      'name/getter view @16:2',
    ]);
  });

  it('braces, parentheses and the word function in comments and strings do not count', () => {
    const src = [
      'contract C {',
      '  // function commented() external {}',
      '  /* } function block() external { */',
      '  string s = "} function inString() external {";',
      "  function real(string calldata t) external pure returns (bytes32) { return keccak256(bytes('{(')); }",
      '}',
    ].join('\n');
    assert.deepStrictEqual(fns(src, 'C'), ['real/1 pure @4:2']);
  });

  it('a body that does not close ends the scan with what was found', () => {
    assert.deepStrictEqual(fns('contract C { function a() external {} function b( uint x', 'C'), [
      'a/0 nonpayable @0:13',
    ]);
    assert.deepStrictEqual(fns('contract C { function a() external { if (x) {', 'C'), ['a/0 nonpayable @0:13']);
    assert.deepStrictEqual(fns('contract C', 'C'), []);
  });

  it("the sample workspace's Vault: its external functions, not its private ones", () => {
    const src = fs.readFileSync(path.join(ROOT, 'test/workspace/contracts/inspector/Vault.sol'), 'utf8');
    const names = fns(src, 'Vault').map((f) => f.replace(/ @.*/, ''));
    assert.ok(names.includes('compute/1 view'), names.join(', '));
    assert.ok(names.includes('move/2 nonpayable'), names.join(', '));
    assert.ok(names.includes('deposit/0 payable'), names.join(', '));
    assert.ok(!names.some((n) => n.startsWith('_')), names.join(', '));
    assert.ok(names.includes('feeBps/getter view'), names.join(', '));
  });
});
