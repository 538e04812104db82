// The declarations CodeLens is shown above (src/features/deployments/solidity.ts): `contract X` and `library X`,
// never `interface X` nor `abstract contract X`, nor anything inside comments or strings; names across lines and
// comments; several per file; positions right with unicode before them and any line ending.
import * as assert from 'assert';
import * as fs from 'fs';
import * as path from 'path';
import { findDeclarations } from '../../src/features/deployments/solidity';

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
