/**
 * Does a build's runtime bytecode match the code on chain (src/api/source/bytecodeMatch)? The committed build of the
 * inspector's contracts against their code as deployed (sandbox/src/compiled/inspector.json, byte for byte what the
 * sandbox's EVM deploys): immutables, library links and a library's own address masked; and the Ledger recompiled
 * here (solc 0.8.28) with a comment changed (same code, another metadata hash) and with a constant changed (another
 * instruction).
 */
import * as assert from 'assert';
import * as fs from 'fs';
import * as path from 'path';
import { createRequire } from 'module';
import compiled from '../../sandbox/src/compiled/inspector.json';
import { metadataTailLength } from '../../src/api/decode/solcOutput';
import { matchBytecode } from '../../src/api/source/bytecodeMatch';
import type { LinkRef } from '../../src/api/source/sourceMap';

const ROOT = path.join(__dirname, '../../..');
interface Rt {
  object: string;
  immutableReferences: Record<string, LinkRef[]>;
  linkReferences: Record<string, Record<string, LinkRef[]>>;
}
type Output = { contracts: Record<string, Record<string, { evm: { deployedBytecode: Rt } }>> };
let output: Output;
let sources: Record<string, { content: string }>;
const onChain = (name: string): string =>
  (compiled.contracts.find((c) => c.name === name) as { deployedBytecode: string }).deployedBytecode;
const rt = (o: Output, file: string, name: string): Rt =>
  o.contracts[`contracts/inspector/${file}`][name].evm.deployedBytecode;

/** The inspector's sources compiled as the committed build was, with `edit` applied to Ledger.sol. */
function compileLedger(edit: (s: string) => string): Output {
  const input = {
    language: 'Solidity',
    sources: {
      ...sources,
      'contracts/inspector/Ledger.sol': { content: edit(sources['contracts/inspector/Ledger.sol'].content) },
    },
    settings: {
      optimizer: { enabled: true, runs: 200 },
      evmVersion: 'cancun',
      outputSelection: {
        '*': {
          '*': [
            'evm.deployedBytecode.object',
            'evm.deployedBytecode.immutableReferences',
            'evm.deployedBytecode.linkReferences',
          ],
        },
      },
    },
  };
  const solc = createRequire(path.join(ROOT, 'package.json'))('solc') as { compile(s: string): string };
  return JSON.parse(solc.compile(JSON.stringify(input))) as Output;
}

describe('source: bytecode matching', function () {
  this.timeout(60000);
  before(() => {
    const b = JSON.parse(
      fs.readFileSync(path.join(ROOT, 'test/workspace/artifacts/build-info', `${compiled.buildInfoId}.json`), 'utf8'),
    );
    output = b.output;
    sources = b.input.sources;
  });

  it('the Vault: immutables (zeros in the build) and the library link (a placeholder) masked, same metadata: exact', () => {
    const v = rt(output, 'Vault.sol', 'Vault');
    assert.ok(v.object.includes('__$'), "the build leaves the library's placeholder in");
    const m = matchBytecode({
      onChain: onChain('Vault'),
      compiled: v.object,
      immutableReferences: v.immutableReferences,
      linkReferences: v.linkReferences,
    });
    assert.deepStrictEqual(
      [m.match, m.kind, m.masked],
      [true, 'exact', { metadata: true, immutables: 2, links: 1, libraryGuard: false }],
    );
    // an output without linkReferences: the placeholder itself is masked
    const bare = matchBytecode({
      onChain: onChain('Vault'),
      compiled: v.object,
      immutableReferences: v.immutableReferences,
    });
    assert.deepStrictEqual([bare.match, bare.masked.links], [true, 1]);
    // the linked address checked when the libraries are known
    const ok = matchBytecode({
      onChain: onChain('Vault'),
      compiled: v.object,
      linkReferences: v.linkReferences,
      immutableReferences: v.immutableReferences,
      libraries: compiled.libraries,
    });
    assert.strictEqual(ok.libraryAddressMismatches, undefined);
    const wrong = matchBytecode({
      onChain: onChain('Vault'),
      compiled: v.object,
      linkReferences: v.linkReferences,
      immutableReferences: v.immutableReferences,
      libraries: { 'contracts/inspector/Accounting.sol:Accounting': '0x00000000000000000000000000000000000004d2' },
    });
    assert.strictEqual(wrong.match, true);
    assert.deepStrictEqual(
      wrong.libraryAddressMismatches?.map((x) => [x.library, x.onChain]),
      [['contracts/inspector/Accounting.sol:Accounting', '0x9fe46736679d2d9a65f0992f2272de9f3c7fa6e0']],
    );
  });

  it("without the immutable references the immutables' values are a difference, reported at their instruction", () => {
    const v = rt(output, 'Vault.sol', 'Vault');
    const m = matchBytecode({ onChain: onChain('Vault'), compiled: v.object, linkReferences: v.linkReferences });
    assert.deepStrictEqual([m.match, m.kind], [false, 'mismatch']);
    const first = Math.min(
      ...Object.values(v.immutableReferences)
        .flat()
        .map((r) => r.start),
    );
    assert.ok(
      m.mismatch && m.mismatch.offset >= first && m.mismatch.offset < first + 32,
      `first difference ${m.mismatch?.offset} in the immutable at ${first}`,
    );
    assert.strictEqual(m.mismatch?.instructionPc, first - 1, 'inside the PUSH32 that carries it');
    assert.match(m.reason, /: it is not the code of this build\./);
  });

  it('the library: its own address in its call guard (PUSH20 at byte 1) masked', () => {
    const a = rt(output, 'Accounting.sol', 'Accounting');
    assert.ok(/^73[0]{40}3014/.test(a.object), 'zeros in the build');
    const m = matchBytecode({ onChain: onChain('Accounting'), compiled: a.object });
    assert.deepStrictEqual([m.match, m.kind, m.masked.libraryGuard], [true, 'exact', true]);
  });

  it('the same code with another metadata hash (a comment changed) matches, as partial', () => {
    const other = rt(
      compileLedger((s) =>
        s.replace('/// @title Ledger', '/// @title Ledger (a comment that changes only the metadata)'),
      ),
      'Ledger.sol',
      'Ledger',
    );
    assert.notStrictEqual(other.object, rt(output, 'Ledger.sol', 'Ledger').object, 'the metadata differs');
    const strip = (h: string): string => h.slice(0, h.length - metadataTailLength(h));
    assert.strictEqual(strip(other.object), strip(rt(output, 'Ledger.sol', 'Ledger').object), 'the code does not');
    const m = matchBytecode({ onChain: onChain('Ledger'), compiled: other.object });
    assert.deepStrictEqual([m.match, m.kind], [true, 'partial']);
    assert.match(m.reason, /metadata hash differs/);
  });

  it('a changed instruction (another constant) does not match: the first difference and its instruction', () => {
    const other = rt(
      compileLedger((s) => s.replace('amount <= 1e24', 'amount <= 1e23')),
      'Ledger.sol',
      'Ledger',
    );
    const m = matchBytecode({ onChain: onChain('Ledger'), compiled: other.object });
    assert.deepStrictEqual([m.match, m.kind], [false, 'mismatch']);
    const code = onChain('Ledger').slice(2);
    const pc = m.mismatch?.instructionPc as number;
    const op = parseInt(code.slice(pc * 2, pc * 2 + 2), 16);
    assert.ok(op >= 0x60 && op <= 0x7f, "the difference is in a PUSH's data (the constant)");
    assert.strictEqual(
      m.mismatch?.compiledByte,
      parseInt(other.object.slice((m.mismatch?.offset as number) * 2, (m.mismatch?.offset as number) * 2 + 2), 16),
    );
    // a single flipped opcode in the code on chain
    const flipped = `0x${code.slice(0, 20)}${code.slice(20, 22) === '01' ? '02' : '01'}${code.slice(22)}`;
    const f = matchBytecode({ onChain: flipped, compiled: rt(output, 'Ledger.sol', 'Ledger').object });
    assert.deepStrictEqual([f.match, f.mismatch?.offset], [false, 10]);
  });

  it('another contract, and no code at all', () => {
    const m = matchBytecode({ onChain: onChain('Ledger'), compiled: rt(output, 'Vault.sol', 'Vault').object });
    assert.deepStrictEqual([m.match, m.kind], [false, 'mismatch']);
    assert.match(m.reason, /bytes/);
    assert.deepStrictEqual(
      [
        matchBytecode({ onChain: '0x', compiled: rt(output, 'Ledger.sol', 'Ledger').object }).kind,
        matchBytecode({ onChain: onChain('Ledger'), compiled: '' }).kind,
      ],
      ['empty', 'empty'],
    );
  });
});
