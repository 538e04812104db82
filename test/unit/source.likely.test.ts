/**
 * The likely location of a revert when the opcode log is not available (src/api/source/likely): from the innermost
 * failing frame of the actions (real executions of the inspector's contracts in the sandbox's EVM) and its selector,
 * the function in the committed build's AST and the statements whose reason fits. Lines are found by searching the
 * source text for the statement. A contract compiled here (solc 0.8.28) has several statements with one message.
 */
import * as assert from 'assert';
import * as fs from 'fs';
import * as path from 'path';
import { createRequire } from 'module';
import compiled from '../../sandbox/src/compiled/inspector.json';
import { failingAction, likelyLocations, type LikelyResult } from '../../src/api/source/likely';
import type { SolcBuildLike } from '../../src/api/source/sourceMap';
import { createInspectorChain, type EvmChain } from '../../sandbox/src/evm';

const ROOT = path.join(__dirname, '../../..');
const VAULT = 'contracts/inspector/Vault.sol:Vault';
const LEDGER = 'contracts/inspector/Ledger.sol:Ledger';
const ACCOUNTING = 'contracts/inspector/Accounting.sol:Accounting';
const OTHER = '0x70997970c51812dc3a010c7d01b50e0d17dc79c8';
const w = (v: bigint | number): string => BigInt(v).toString(16).padStart(64, '0');
const errorString = (m: string): string =>
  `0x08c379a0${w(32)}${w(Buffer.byteLength(m))}${Buffer.from(m).toString('hex').padEnd(64, '0')}`;

type Build = SolcBuildLike & { input: { sources: Record<string, { content: string }> } };
let build: Build;
let chain: EvmChain;
let vault: string;

function lineOf(b: Build, sourceName: string, needle: string): number {
  const lines = b.input.sources[sourceName].content.split('\n');
  const hits = lines.map((l, i) => (l.includes(needle) ? i + 1 : 0)).filter(Boolean);
  assert.strictEqual(hits.length, 1, `"${needle}" is on exactly one line of ${sourceName}`);
  return hits[0];
}
const lines = (r: LikelyResult): Array<[string, number]> =>
  r.candidates.map((c) => [c.location.sourceName, c.location.line]);

describe('source: the likely location without an opcode log', function () {
  this.timeout(60000);

  before(async () => {
    build = JSON.parse(
      fs.readFileSync(path.join(ROOT, 'test/workspace/artifacts/build-info', `${compiled.buildInfoId}.json`), 'utf8'),
    );
    const deployed = await createInspectorChain(compiled);
    chain = deployed.chain;
    vault = deployed.contracts.Vault.address;
    await chain.addAccount({ address: OTHER, entityId: '0.0.7005', balance: 10n ** 26n });
  });

  /** Runs a call and returns the likely locations of its failure, read from the actions only. */
  async function fromActions(data: string, value?: bigint): Promise<{ result: LikelyResult; contract: string }> {
    const ex = await chain.call({ from: OTHER, to: vault, data, value, gas: 3_000_000 });
    const f = failingAction(ex.actions);
    assert.ok(f, 'the call failed');
    const contract = compiled.contracts.find((c) => c.address === f.address);
    assert.ok(contract, `a contract of the build at ${f.address}`);
    const id = `${contract.sourceName}:${contract.name}`;
    return { result: likelyLocations(build, id, f.selector, f.revertData), contract: id };
  }

  it('a custom error: `revert InsufficientBalance(...)` of withdraw, flagged likely', async () => {
    const { result, contract } = await fromActions(`0x2e1a7d4d${w(5)}`);
    assert.strictEqual(contract, VAULT);
    assert.strictEqual(result.likely, true);
    assert.strictEqual(result.function?.name, 'withdraw');
    assert.deepStrictEqual(lines(result), [
      ['contracts/inspector/Vault.sol', lineOf(build, 'contracts/inspector/Vault.sol', 'revert InsufficientBalance(')],
    ]);
    assert.deepStrictEqual(
      [result.candidates[0].kind, result.candidates[0].error, result.candidates[0].in],
      ['revert', 'InsufficientBalance', 'withdraw'],
    );
  });

  it('a modifier: NotOwner in onlyOwner, reached through setFee', async () => {
    const { result } = await fromActions(`0xae275dce${w(30)}`);
    assert.deepStrictEqual(lines(result), [
      ['contracts/inspector/Vault.sol', lineOf(build, 'contracts/inspector/Vault.sol', 'revert NotOwner(msg.sender)')],
    ]);
    assert.deepStrictEqual(result.candidates[0].via, ['setFee', 'onlyOwner']);
  });

  it('Error(string): the require whose message is the text', () => {
    const r = likelyLocations(build, VAULT, '0xae275dce', errorString('Vault: fee too high'));
    assert.deepStrictEqual(lines(r), [
      ['contracts/inspector/Vault.sol', lineOf(build, 'contracts/inspector/Vault.sol', '"Vault: fee too high"')],
    ]);
    assert.strictEqual(r.candidates[0].kind, 'require');
  });

  it('a cross-contract revert: the innermost failing action is Ledger.record, its require', async () => {
    const { result, contract } = await fromActions('0xd0e30db0', 2n * 10n ** 24n);
    assert.strictEqual(contract, LEDGER);
    assert.strictEqual(result.function?.name, 'record');
    assert.deepStrictEqual(lines(result), [
      ['contracts/inspector/Ledger.sol', lineOf(build, 'contracts/inspector/Ledger.sol', '"Ledger: amount too large"')],
    ]);
  });

  it("a library: the DELEGATECALL's frame, the function found by its selector (and by methodIdentifiers without one in the AST)", async () => {
    const { result, contract } = await fromActions(`0x15afd409${w(0)}${w(5)}`);
    assert.strictEqual(contract, ACCOUNTING);
    assert.deepStrictEqual(lines(result), [
      [
        'contracts/inspector/Accounting.sol',
        lineOf(build, 'contracts/inspector/Accounting.sol', '"Accounting: zero recipient"'),
      ],
    ]);
    const bare = JSON.parse(JSON.stringify(build)) as Build;
    const strip = (n: unknown): void => {
      if (Array.isArray(n)) n.forEach(strip);
      else if (n && typeof n === 'object') {
        delete (n as Record<string, unknown>).functionSelector;
        Object.values(n).forEach(strip);
      }
    };
    strip((bare.output.sources as Record<string, { ast: unknown }>)['contracts/inspector/Accounting.sol'].ast);
    const ids = (
      build.output.contracts as Record<string, Record<string, { evm: { methodIdentifiers: Record<string, string> } }>>
    )['contracts/inspector/Accounting.sol'].Accounting.evm.methodIdentifiers;
    const again = likelyLocations(
      bare,
      ACCOUNTING,
      `0x${ids['settle(mapping(address => uint256) storage,Ledger,address,address,uint256)']}`,
      errorString('Accounting: zero recipient'),
    );
    assert.strictEqual(again.function?.name, 'settle');
    assert.deepStrictEqual(lines(again), lines(result));
    // from the Vault's settle: the library function it calls is searched too
    const fromVault = likelyLocations(build, VAULT, '0x15afd409', `0xff328ae4${w(1)}${w(2)}${w(3)}`);
    assert.deepStrictEqual(lines(fromVault), [
      [
        'contracts/inspector/Accounting.sol',
        lineOf(build, 'contracts/inspector/Accounting.sol', 'revert SettlementExceedsBalance('),
      ],
    ]);
    assert.deepStrictEqual(fromVault.candidates[0].via, ['settle', 'settle']);
  });

  it('an arithmetic panic: every checked operation of compute is a candidate, and the note says which one is not known', async () => {
    const { result } = await fromActions(`0x5ed86d5c${w(1n << 200n)}`);
    assert.strictEqual(result.reason?.kind, 'panic');
    const line = lineOf(build, 'contracts/inspector/Vault.sol', 'return (x * x * feeBps) / 10_000;');
    assert.deepStrictEqual(
      result.candidates.map((c) => [c.kind, c.location.line, c.location.text]),
      [
        ['arithmetic', line, 'x * x * feeBps'],
        ['arithmetic', line, 'x * x'],
      ],
    );
    assert.ok(result.notes.some((n) => /not known without the opcode log/.test(n)));
    // division by zero: the `/ 10_000`
    assert.deepStrictEqual(
      likelyLocations(build, VAULT, '0x5ed86d5c', `0x4e487b71${w(0x12)}`).candidates.map((c) => c.location.text),
      ['(x * x * feeBps) / 10_000'],
    );
  });

  it('none when nothing fits; a panic code no statement shows is said so', () => {
    const none = likelyLocations(build, VAULT, '0x2e1a7d4d', errorString('not a message of withdraw'));
    assert.deepStrictEqual(none.candidates, []);
    assert.ok(none.notes.some((n) => /No statement of withdraw/.test(n)));
    const enumPanic = likelyLocations(build, VAULT, '0x2e1a7d4d', `0x4e487b71${w(0x21)}`);
    assert.deepStrictEqual(enumPanic.candidates, []);
    assert.ok(enumPanic.notes.some((n) => /No statement of withdraw/.test(n)));
    const storagePanic = likelyLocations(build, VAULT, '0x2e1a7d4d', `0x4e487b71${w(0x22)}`);
    assert.deepStrictEqual(storagePanic.candidates, []);
    assert.ok(storagePanic.notes.some((n) => /does not show/.test(n)));
    const unknown = likelyLocations(build, VAULT, '0xdeadbeef', '0x');
    assert.deepStrictEqual([unknown.function, unknown.candidates.length], [undefined, 0]);
    assert.ok(unknown.notes.some((n) => /no function with selector 0xdeadbeef/.test(n)));
  });

  it('several candidates when several statements fit (a contract compiled here)', () => {
    const content = [
      '// SPDX-License-Identifier: MIT',
      'pragma solidity ^0.8.24;',
      'contract Twice {',
      '    uint256 public n;',
      '    function bump(uint256 x) external {',
      '        require(x != 1, "Twice: no");',
      '        n += x;',
      '        require(n < 100, "Twice: no");',
      '        _check(x);',
      '    }',
      '    function _check(uint256 x) internal pure {',
      '        require(x != 7, "Twice: no");',
      '        assert(x != 8);',
      '    }',
      '}',
    ].join('\n');
    const input = {
      language: 'Solidity',
      sources: { 'Twice.sol': { content } },
      settings: {
        optimizer: { enabled: true, runs: 200 },
        evmVersion: 'cancun',
        outputSelection: { '*': { '*': ['evm.methodIdentifiers'], '': ['ast'] } },
      },
    };
    const solc = createRequire(path.join(ROOT, 'package.json'))('solc') as { compile(s: string): string };
    const twice = { input, output: JSON.parse(solc.compile(JSON.stringify(input))) } as Build;
    const selector = `0x${(twice.output.contracts as Record<string, Record<string, { evm: { methodIdentifiers: Record<string, string> } }>>)['Twice.sol'].Twice.evm.methodIdentifiers['bump(uint256)']}`;
    const r = likelyLocations(twice, 'Twice.sol:Twice', selector, errorString('Twice: no'));
    const at = (needle: string): number[] => content.split('\n').flatMap((l, i) => (l.includes(needle) ? [i + 1] : []));
    const [first, second, inner] = at('"Twice: no"');
    assert.deepStrictEqual(
      r.candidates.map((c) => [c.location.line, c.in]),
      [
        [first, 'bump'],
        [second, 'bump'],
        [inner, '_check'],
      ],
    );
    assert.deepStrictEqual(r.candidates[2].via, ['bump', '_check']);
    assert.deepStrictEqual(
      likelyLocations(twice, 'Twice.sol:Twice', selector, `0x4e487b71${w(1)}`).candidates.map((c) => [
        c.kind,
        c.location.line,
      ]),
      [['assert', ...at('assert(x != 8)')]],
    );
  });

  it('failingAction: none for a call that succeeded; the top frame when it failed on its own account', async () => {
    const ok = await chain.call({ from: OTHER, to: vault, data: '0xd0e30db0', value: 5n, gas: 3_000_000 });
    assert.strictEqual(failingAction(ok.actions), undefined);
    const seedless = await chain.call({ from: OTHER, to: vault, data: `0x2e1a7d4d${w(5)}`, gas: 3_000_000 });
    const f = failingAction(seedless.actions);
    assert.deepStrictEqual([f?.position, f?.entity, f?.selector], [0, '0.0.7001', '0x2e1a7d4d']);
  });

  // last: it keeps deposits on the chain
  it('a revert deep in the trace: the Ledger called by the library (depth 2) is the innermost failing frame, its require', async () => {
    for (let i = 0; i < 2; i++) {
      const d = await chain.call({
        from: OTHER,
        to: vault,
        data: '0xd0e30db0',
        value: 10n ** 24n,
        gas: 3_000_000,
        commit: true,
      });
      assert.strictEqual(d.result, 'SUCCESS', 'a deposit the Ledger accepts');
    }
    const { result, contract } = await fromActions(`0x15afd409${w(7006)}${w(15n * 10n ** 23n)}`);
    assert.strictEqual(contract, LEDGER);
    assert.strictEqual(result.function?.name, 'record');
    assert.deepStrictEqual(lines(result), [
      ['contracts/inspector/Ledger.sol', lineOf(build, 'contracts/inspector/Ledger.sol', '"Ledger: amount too large"')],
    ]);
  });
});
