/**
 * Source maps as solc writes them (src/api/source/sourceMap, locate): the compressed `s:l:f:j:m` form, pc →
 * instruction index with PUSH data skipped, source indexes of the build's sources and of the contract's generated
 * Yul, UTF-8 byte offsets → lines and columns. Against the compiler's own output: the committed build of the
 * inspector's contracts, and a contract compiled here whose source has multi-byte characters before the line that
 * reverts (executed in the sandbox's EVM, located through the real source map).
 */
import * as assert from 'assert';
import * as fs from 'fs';
import * as path from 'path';
import { createRequire } from 'module';
import compiled from '../../sandbox/src/compiled/inspector.json';
import { stripMetadata } from '../../src/api/decode/solcOutput';
import { callStackOf } from '../../src/api/source/callStack';
import { ContractLocator, locateCallStack } from '../../src/api/source/locate';
import {
  type SolcBuildLike,
  SourceText,
  codeBytes,
  decodeSourceMap,
  instructionIndexes,
  sourceUnits,
} from '../../src/api/source/sourceMap';
import { EvmChain } from '../../sandbox/src/evm';

const ROOT = path.join(__dirname, '../../..');
const VAULT = 'contracts/inspector/Vault.sol:Vault';
type Build = SolcBuildLike & { input: { sources: Record<string, { content: string }> } };
interface Rt {
  object: string;
  sourceMap: string;
  generatedSources: Array<{ id: number; name: string; contents: string }>;
}
const runtimeOf = (b: Build, id: string): Rt => {
  const [p, n] = [id.slice(0, id.lastIndexOf(':')), id.slice(id.lastIndexOf(':') + 1)];
  return (b.output.contracts as Record<string, Record<string, { evm: { deployedBytecode: Rt } }>>)[p][n].evm
    .deployedBytecode;
};

let build: Build;

describe('source: source maps', function () {
  this.timeout(60000);
  before(() => {
    build = JSON.parse(
      fs.readFileSync(path.join(ROOT, 'test/workspace/artifacts/build-info', `${compiled.buildInfoId}.json`), 'utf8'),
    );
  });

  it("decodes the compressed form: empty and missing fields take the previous entry's, -1 is no source", () => {
    assert.deepStrictEqual(decodeSourceMap('10:5:0:-:0;;12;:7::i;-1:-1:-1:o;3:1:1::2;:'), [
      { start: 10, length: 5, file: 0, jump: '-', modifierDepth: 0 },
      { start: 10, length: 5, file: 0, jump: '-', modifierDepth: 0 },
      { start: 12, length: 5, file: 0, jump: '-', modifierDepth: 0 },
      { start: 12, length: 7, file: 0, jump: 'i', modifierDepth: 0 },
      { start: -1, length: -1, file: -1, jump: 'o', modifierDepth: 0 },
      { start: 3, length: 1, file: 1, jump: 'o', modifierDepth: 2 },
      { start: 3, length: 1, file: 1, jump: 'o', modifierDepth: 2 },
    ]);
    assert.deepStrictEqual(decodeSourceMap(''), []);
  });

  it("one entry per instruction of the compiler's runtime code (all but the INVALID before the metadata)", () => {
    for (const c of compiled.contracts) {
      const rt = runtimeOf(build, `${c.sourceName}:${c.name}`);
      const map = decodeSourceMap(rt.sourceMap);
      const code = stripMetadata(rt.object);
      const idx = instructionIndexes(code);
      const starts = [...idx.keys()].filter((pc) => idx[pc] >= 0);
      assert.strictEqual(map.length, starts.length - 1, c.name);
      assert.strictEqual(codeBytes(code)[starts[starts.length - 1]], 0xfe, `${c.name} ends with INVALID`);
      assert.ok(
        map.every((e) => e.file === -1 || [0, 1, 2, 3, 4, 5].includes(e.file)),
        "indexes of the build's sources or its generated one",
      );
    }
  });

  it('pc → instruction index skips PUSH1..PUSH32 data; PUSH0 has none', () => {
    const bytes = codeBytes(stripMetadata(runtimeOf(build, VAULT).object));
    const idx = instructionIndexes(bytes);
    const seen = new Set<number>();
    let expected = 0;
    for (let pc = 0; pc < bytes.length;) {
      const op = bytes[pc];
      assert.strictEqual(idx[pc], expected++, `instruction at ${pc}`);
      const data = op >= 0x60 && op <= 0x7f ? op - 0x5f : 0;
      for (let k = 1; k <= data; k++) assert.strictEqual(idx[pc + k], -1, `PUSH${data} data at ${pc + k}`);
      seen.add(op);
      pc += 1 + data;
    }
    for (const op of [0x5f, 0x60, 0x61, 0x63, 0x73, 0x7f])
      assert.ok(seen.has(op), `the Vault's code has opcode 0x${op.toString(16)}`);
    // a hand-written one: PUSH2 0x0102, PUSH0, PUSH32 <32 bytes>, STOP
    const mini = instructionIndexes(`0x610102${'5f'}7f${'ab'.repeat(32)}00`);
    assert.deepStrictEqual(
      [mini[0], mini[1], mini[2], mini[3], mini[4], mini[5], mini[36], mini[37]],
      [0, -1, -1, 1, 2, -1, -1, 3],
    );
  });

  it("source indexes: the build's sources by `output.sources[name].id`, the generated Yul by its own id with its contents", () => {
    const vault = (build.output.contracts as Record<string, Record<string, unknown>>)['contracts/inspector/Vault.sol']
      .Vault as Parameters<typeof sourceUnits>[1];
    const units = sourceUnits(build, vault);
    assert.deepStrictEqual(
      [...units.values()].map((u) => [u.id, u.name, u.generated]),
      [
        [0, 'contracts/inspector/Accounting.sol', false],
        [1, 'contracts/inspector/Ledger.sol', false],
        [2, 'contracts/inspector/Vault.sol', false],
        [3, 'contracts/inspector/VaultProxy.sol', false],
        [4, 'contracts/inspector/VaultRules.sol', false],
        [5, '#utility.yul', true],
      ],
    );
    assert.strictEqual(units.get(2)?.content, build.input.sources['contracts/inspector/Vault.sol'].content);
    assert.strictEqual(units.get(5)?.content, runtimeOf(build, VAULT).generatedSources[0].contents);
    // an instruction of the generated checked multiplication's panic: placed in #utility.yul, on the line of its code
    const loc = ContractLocator.of(build, VAULT) as ContractLocator;
    const yul = units.get(5)?.content as string;
    let found = 0;
    for (let pc = 0; pc < loc.code.length; pc++) {
      const l = loc.instructionIndex(pc) >= 0 ? loc.locate(pc) : undefined;
      if (l?.sourceName !== '#utility.yul' || l.text !== 'mstore(4, 0x11)') continue;
      found++;
      assert.strictEqual(l.generated, true);
      assert.strictEqual(l.lineText.trim(), 'mstore(4, 0x11)');
      assert.strictEqual(yul.split('\n')[l.line - 1].trim(), 'mstore(4, 0x11)');
    }
    assert.ok(found >= 1, 'the panic code 0x11 is stored by generated code');
  });

  it('SourceText: UTF-8 byte offsets to 1-based lines and UTF-16 columns; slices by bytes; CRLF lines', () => {
    const t = new SourceText('ab\nüñ🚀x\r\nlast');
    const at = (s: string): number => Buffer.byteLength(t.content.slice(0, t.content.indexOf(s)));
    assert.deepStrictEqual(t.position(at('x')), { line: 2, column: 5 }, 'ü, ñ: 1 unit each; 🚀: 2');
    assert.deepStrictEqual(t.position(at('last')), { line: 3, column: 1 });
    assert.strictEqual(t.slice(at('ñ'), Buffer.byteLength('ñ🚀')), 'ñ🚀');
    assert.strictEqual(t.lineText(2), 'üñ🚀x');
    assert.strictEqual(t.lineCount, 3);
    assert.deepStrictEqual(t.position(10_000), { line: 3, column: 5 }, 'clamped to the end');
  });

  describe('a source with multi-byte characters before the reverting line (compiled here, run in the EVM)', () => {
    const content = [
      '// SPDX-License-Identifier: MIT',
      'pragma solidity ^0.8.24;',
      '/// Grüße aus Zürich — naïve façade, 日本語, 🚀🚀 before the lines that revert.',
      'contract Umlaut {',
      '    string public greeting = unicode"héllo wörld ✓";',
      '    error Nope(uint256 code);',
      '    function check(uint256 x) external pure returns (uint256) {',
      '        // ça dépend: 🚀 ✓ ü',
      '        if (x == 3) revert Nope(x);',
      '        /* 🚀ü */ require(x != 1, unicode"Umlaut: eins ✗ — nein");',
      '        return x;',
      '    }',
      '}',
    ].join('\n');
    let umlaut: Build;
    let chain: EvmChain;
    let address: string;
    const from = '0x70997970c51812dc3a010c7d01b50e0d17dc79c8';

    before(async () => {
      const input = {
        language: 'Solidity',
        sources: { 'contracts/Umlaut.sol': { content } },
        settings: {
          optimizer: { enabled: false, runs: 200 },
          evmVersion: 'cancun',
          outputSelection: {
            '*': {
              '*': [
                'evm.bytecode.object',
                'evm.deployedBytecode.object',
                'evm.deployedBytecode.sourceMap',
                'evm.deployedBytecode.generatedSources',
                'evm.methodIdentifiers',
              ],
            },
          },
        },
      };
      const solc = createRequire(path.join(ROOT, 'package.json'))('solc') as { compile(s: string): string };
      umlaut = { input, output: JSON.parse(solc.compile(JSON.stringify(input))) } as Build;
      const errors = (
        (umlaut.output as { errors?: Array<{ severity: string; formattedMessage: string }> }).errors ?? []
      ).filter((e) => e.severity === 'error');
      assert.deepStrictEqual(
        errors.map((e) => e.formattedMessage),
        [],
      );
      chain = await EvmChain.create();
      await chain.addAccount({ address: from, entityId: '0.0.7005', balance: 10n ** 18n });
      const creation = (
        umlaut.output.contracts as Record<string, Record<string, { evm: { bytecode: { object: string } } }>>
      )['contracts/Umlaut.sol'].Umlaut.evm.bytecode.object;
      address = await chain.deploy(from, creation, { entityId: '0.0.8001' });
    });

    const locateCall = async (x: number) => {
      const ids = (
        umlaut.output.contracts as Record<
          string,
          Record<string, { evm: { methodIdentifiers: Record<string, string> } }>
        >
      )['contracts/Umlaut.sol'].Umlaut.evm.methodIdentifiers;
      const ex = await chain.call({
        from,
        to: address,
        data: `0x${ids['check(uint256)']}${x.toString(16).padStart(64, '0')}`,
        gas: 1_000_000,
      });
      const stack = callStackOf(ex.opcodes, ex.actions);
      return locateCallStack(stack, ex.opcodes.opcodes, () => ({
        build: umlaut,
        contract: 'contracts/Umlaut.sol:Umlaut',
      }))[0];
    };

    it('the require after multi-byte characters: its line, its column in UTF-16 units, its exact text', async () => {
      const f = await locateCall(1);
      const statement = 'require(x != 1, unicode"Umlaut: eins ✗ — nein")';
      const line = content.split('\n').findIndex((l) => l.includes(statement)) + 1;
      assert.strictEqual(f.location?.line, line);
      assert.strictEqual(f.location?.column, content.split('\n')[line - 1].indexOf(statement) + 1);
      assert.strictEqual(f.location?.text, statement);
      // what reading the byte offsets as string indexes would give instead
      const start = f.location?.start as number;
      assert.notStrictEqual(
        content.slice(start, start + statement.length),
        statement,
        'byte offsets are not string indexes here',
      );
      const naiveColumn = start - content.lastIndexOf('\n', start - 1);
      assert.notStrictEqual(naiveColumn, f.location?.column, 'nor their columns');
    });

    it('the custom error on the line before it', async () => {
      const f = await locateCall(3);
      assert.strictEqual(f.location?.line, content.split('\n').findIndex((l) => l.includes('revert Nope(x);')) + 1);
      assert.strictEqual(f.location?.text, 'Nope(x)');
    });
  });
});
