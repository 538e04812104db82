/**
 * The sandbox's `GET /api/v1/contracts/results/{transactionIdOrHash}/opcodes` over real HTTP, and the inspector's
 * scenarios it traces: every trace comes from executing the scenario's call on the compiled Vault, Ledger and
 * Accounting in a real EVM (sandbox/src/mirror/executions.ts), so the opcode log, the actions, the revert data, the
 * gas and the state changes agree with each other and the failing REVERT sits where the compiler's source map puts
 * the revert statement (located with src/api/source on the workspace's committed build info). Then the web3
 * module's answers: the shape of openapi.yml's OpcodesResponse, the `stack`/`memory`/`storage` flags as Spring reads
 * them, the Accept-Encoding rule, the 400/404 messages, a result whose contract the sandbox cannot re-execute, the
 * endpoint off (option, control route, command line), faults, hostile text, determinism.
 */
import * as assert from 'assert';
import { spawn } from 'child_process';
import * as fs from 'fs';
import * as path from 'path';
import { decodeErrorResult, decodeFunctionData, type Abi } from 'viem';
import compiled from '../src/compiled/inspector.json';
import { getJson, type JsonAnswer } from './helpers';
import { HttpClient } from '../../src/api/http';
import { MirrorClient } from '../../src/api/mirror';
import type { ContractAction, Opcode, OpcodesResponse } from '../../src/api/mirrorTypes';
import { callStackOf } from '../../src/api/source/callStack';
import { type FrameBuild, locateCallStack } from '../../src/api/source/locate';
import type { SolcBuildLike } from '../../src/api/source/sourceMap';
import { decodeRevert } from '../../src/api/revert';
import { HOSTILE_TEXTS, type Sandbox, startSandbox } from '../src/server';

type Obj = Record<string, unknown>;
type Res = JsonAnswer;
interface Scenario {
  timestamp: string;
  transactionId: string;
  hash: string;
  contractId: string;
  from: string;
  result: string;
  actions: number;
  failingAction: number | null;
  opcodes: boolean;
}
type Inspector = Record<string, Scenario> & {
  accounts: Record<string, { id: string; evm: string }>;
  contracts: Record<string, { id: string; evm: string }>;
};

const ROOT = path.join(__dirname, '../../..');
const BUILD_INFO = path.join(ROOT, 'test/workspace/artifacts/build-info', `${compiled.buildInfoId}.json`);
const OPENAPI = path.join(__dirname, '../../../../shared/fixtures/mirror/openapi.yml');
const SOURCES = {
  vault: 'contracts/inspector/Vault.sol',
  ledger: 'contracts/inspector/Ledger.sol',
  accounting: 'contracts/inspector/Accounting.sol',
  proxy: 'contracts/inspector/VaultProxy.sol',
  rules: 'contracts/inspector/VaultRules.sol',
};
const GZIP = { 'Accept-Encoding': 'gzip' };
const REAL = [
  'inspectorNoActions',
  'inspectorSuccess',
  'inspectorEthereum',
  'inspectorLedgerRevert',
  'inspectorDeepRevert',
  'inspectorLibraryRevert',
  'inspectorPrecompile',
  'inspectorPartial',
  'inspectorProxyRevert',
];
const PRNG = '0x0000000000000000000000000000000000000169';
const CALLS = new Set(['CALL', 'CALLCODE', 'DELEGATECALL', 'STATICCALL', 'CREATE', 'CREATE2']);
const WORD = /^0x[0-9a-f]{64}$/;

const web3Error = (message: string, detail: string): Obj => ({
  _status: { messages: [{ message, detail, data: '' }] },
});
const abiOf = (name: string): Abi => (compiled.contracts.find((c) => c.name === name) as { abi: Abi }).abi;

let sb: Sandbox;
let ins: Inspector;
let build: SolcBuildLike & { input: { sources: Record<string, { content: string }> } };

const getFrom = (base: string, url: string, headers: Record<string, string> = GZIP): Promise<Res> =>
  getJson(base, url, headers);
const get = (url: string, headers: Record<string, string> = GZIP): Promise<Res> => getFrom(sb.url, url, headers);

async function opcodes(s: Scenario, query = ''): Promise<OpcodesResponse> {
  const r = await get(`/api/v1/contracts/results/${s.transactionId}/opcodes${query}`);
  assert.strictEqual(r.status, 200, r.text.slice(0, 300));
  return r.json as unknown as OpcodesResponse;
}

/** The 1-based line of the one line of a source that contains `needle`. */
function lineOf(sourceName: string, needle: string): number {
  const lines = build.input.sources[sourceName].content.split('\n');
  const hits = lines.map((l, i) => (l.includes(needle) ? i + 1 : 0)).filter(Boolean);
  assert.strictEqual(hits.length, 1, `"${needle}" is on exactly one line of ${sourceName}`);
  return hits[0];
}

/** The compiled contract whose code ran in a frame (the workspace build's `path:Name`), by its entity id or its address. */
function resolve(f: { address?: string; entity?: string }): FrameBuild | undefined {
  const c = compiled.contracts.find(
    (x) => x.entityId === f.entity || x.address.toLowerCase() === f.address?.toLowerCase(),
  );
  return c ? { build, contract: `${c.sourceName}:${c.name}` } : undefined;
}

/** openapi.yml's properties (in order) and required keys of a schema. */
function schema(name: string): { required: string[]; properties: string[] } {
  const yml = fs.readFileSync(OPENAPI, 'utf8');
  const start = yml.indexOf(`\n    ${name}:\n`);
  assert.ok(start > 0, `openapi.yml has ${name}`);
  const rest = yml.slice(start + name.length + 7);
  const block = rest.slice(0, rest.search(/\n {4}\S/));
  const req = /\n {6}required:\n((?: {8}- \w+\n)+)/.exec(block);
  const props = block.slice(block.indexOf('\n      properties:\n'));
  return {
    required: req
      ? req[1]
          .trim()
          .split('\n')
          .map((l) => l.replace(/^\s*- /, ''))
      : [],
    properties: [...props.matchAll(/\n {8}(\w+):/g)].map((m) => m[1]),
  };
}

describe('sandbox: GET /contracts/results/{id}/opcodes, traces of real executions', function () {
  this.timeout(120_000);

  before(async () => {
    build = JSON.parse(fs.readFileSync(BUILD_INFO, 'utf8'));
    sb = await startSandbox({ port: 0 });
    ins = ((await get('/__sandbox/health')).json.notable as Obj).inspector as Inspector;
  });
  after(() => sb.close());
  afterEach(() => sb.clearFaults());

  describe('the scenarios are executions of the compiled contracts', () => {
    it('every scenario on the compiled contracts is traced, the generated one is not; each is a result of its own', async () => {
      for (const k of REAL) assert.strictEqual(ins[k].opcodes, true, k);
      assert.strictEqual(ins.inspectorBigTrace.opcodes, false);
      const keys = [...REAL, 'inspectorBigTrace'];
      for (const f of ['timestamp', 'transactionId', 'hash'] as const)
        assert.strictEqual(new Set(keys.map((k) => ins[k][f])).size, keys.length, `a ${f} each`);
    });

    it('the trace, the actions and the result agree: gas, failure, revert data, frames entered in order, storage touched', async () => {
      for (const k of REAL) {
        const s = ins[k];
        const trace = await opcodes(s, '?storage=true');
        const detail = await get(`/api/v1/contracts/results/${s.transactionId}`);
        const d = detail.json;
        assert.strictEqual(trace.failed, s.result !== 'SUCCESS', `${k}: failed`);
        // the contract called: the Vault, but for the call through the proxy
        const called = k === 'inspectorProxyRevert' ? ins.contracts.vaultProxy : ins.contracts.vault;
        assert.strictEqual(trace.contract_id, called.id, k);
        assert.strictEqual(trace.address, called.evm, `${k}: the contract's own address`);
        const ops = trace.opcodes;
        assert.strictEqual(ops[0].depth, 0, `${k}: depth from 0`);
        assert.strictEqual(ops[0].op, 'PUSH1');
        const last = ops[ops.length - 1];
        if (k === 'inspectorPartial') {
          // an incomplete record: the result keeps only the result's name, the re-execution has it all
          assert.strictEqual(d.gas_consumed, null);
          assert.strictEqual(last.op, 'REVERT');
          assert.strictEqual(
            decodeRevert(trace.return_value)?.selector,
            '0xcf479181',
            'InsufficientBalance(uint256,uint256)',
          );
          continue;
        }
        assert.strictEqual(trace.gas, d.gas_consumed, `${k}: the gas the execution used is the result's gas_consumed`);
        assert.strictEqual(
          trace.return_value,
          s.result === 'SUCCESS' ? (d.call_result === '0x' ? '0x' : d.call_result) : d.error_message,
          `${k}: return value`,
        );
        assert.strictEqual(last.depth, 0, `${k}: ends in the top frame`);
        assert.strictEqual(
          last.op,
          s.result === 'SUCCESS' ? (d.call_result === '0x' ? 'STOP' : 'RETURN') : 'REVERT',
          `${k}: last op ${String(last.op)}`,
        );
        if (s.result !== 'SUCCESS') {
          assert.strictEqual(last.reason, d.error_message, `${k}: the REVERT's reason is the result's error_message`);
          for (const o of ops.filter((x) => x.op === 'REVERT'))
            assert.strictEqual(o.reason, d.error_message, `${k}: every REVERT carries it up`);
        }
        for (const o of ops) assert.strictEqual(o.reason !== null, o.op === 'REVERT', `${k}: reason only on a REVERT`);
        // every frame entered (a deeper entry after a call operation, or a system contract's empty-op entry) is an action, in order
        const actions = (await get(`/api/v1/contracts/results/${s.transactionId}/actions?limit=100`)).json
          .actions as unknown as ContractAction[];
        const entered: { op: string; depth: number }[] = [];
        for (let i = 1; i < ops.length; i++)
          if ((ops[i].depth as number) > (ops[i - 1].depth as number))
            entered.push({ op: ops[i - 1].op as string, depth: ops[i].depth as number });
        for (const e of entered) assert.ok(CALLS.has(e.op), `${k}: a frame entered by ${e.op}`);
        if (k === 'inspectorNoActions') assert.strictEqual(actions.length, 0, 'recorded without actions');
        else {
          assert.strictEqual(actions.length, s.actions);
          // an account's frame runs no code: no entry for it
          const running = actions
            .slice(1)
            .filter((a) => a.recipient_type === 'CONTRACT' || a.call_type === 'PRECOMPILE');
          assert.deepStrictEqual(
            entered.map((e) => [e.op, e.depth]),
            running.map((a) => [a.call_operation_type, a.call_depth]),
            `${k}: frames and actions`,
          );
          assert.strictEqual(
            actions[0].result_data,
            s.result === 'SUCCESS' ? d.call_result : d.error_message,
            `${k}: the top action's result`,
          );
        }
        // the slots the result lists as read or written are the ones the trace touched
        const touched = new Set(Object.keys(last.storage ?? {}));
        for (const c of d.state_changes as Obj[])
          assert.ok(touched.has(c.slot as string), `${k}: ${String(c.slot)} in the trace's storage`);
      }
    });

    it("the revert in a second contract (inspectorLedgerRevert): the REVERT in Ledger at its require, the Vault's call site above it", async () => {
      const s = ins.inspectorLedgerRevert;
      const trace = await opcodes(s, '?stack=false');
      const actions = (await get(`/api/v1/contracts/results/${s.transactionId}/actions`)).json
        .actions as unknown as ContractAction[];
      const d = (await get(`/api/v1/contracts/results/${s.transactionId}`)).json;
      assert.strictEqual(d.amount, 1_500_000_000_000_000_000_000_000n, 'the deposit, every digit');
      assert.deepStrictEqual(
        decodeFunctionData({ abi: abiOf('Vault'), data: d.function_parameters as `0x${string}` }).functionName,
        'deposit',
      );
      assert.strictEqual(decodeRevert(d.error_message as string)?.message, 'Ledger: amount too large');
      assert.deepStrictEqual(
        actions.map((a) => [a.call_depth, a.call_operation_type, a.recipient, a.result_data_type]),
        [
          [0, 'CALL', ins.contracts.vault.id, 'REVERT_REASON'],
          [1, 'CALL', ins.contracts.ledger.id, 'REVERT_REASON'],
        ],
      );
      assert.strictEqual(s.failingAction, 1);
      assert.strictEqual(
        decodeFunctionData({ abi: abiOf('Ledger'), data: actions[1].input as `0x${string}` }).functionName,
        'record',
      );
      // the deepest REVERT: in the Ledger (depth 1), at the pc of its require (source map of the committed build)
      const stack = callStackOf(trace, actions);
      assert.strictEqual(stack.failed, true);
      const located = locateCallStack(stack, trace.opcodes, resolve);
      assert.strictEqual(located.length, 2);
      const [inner, site] = located;
      assert.strictEqual(inner.problem, undefined, JSON.stringify(inner.frame));
      assert.deepStrictEqual(
        [inner.frame.kind, inner.frame.op, inner.frame.depth, inner.frame.entity],
        ['revert', 'REVERT', 1, ins.contracts.ledger.id],
      );
      assert.strictEqual(trace.opcodes[inner.frame.opcodeIndex].op, 'REVERT');
      assert.strictEqual(inner.location?.sourceName, SOURCES.ledger);
      assert.strictEqual(inner.location?.line, lineOf(SOURCES.ledger, '"Ledger: amount too large"'));
      assert.deepStrictEqual([site.frame.kind, site.frame.op, site.frame.depth], ['callSite', 'CALL', 0]);
      assert.strictEqual(site.location?.line, lineOf(SOURCES.vault, 'ledger.record(msg.sender, amount);'));
      assert.strictEqual(trace.opcodes[trace.opcodes.length - 1].op, 'REVERT', 'the Vault reverts with it last');
    });

    it('the revert in a library (inspectorLibraryRevert): DELEGATECALL into Accounting, its custom error at its line', async () => {
      const s = ins.inspectorLibraryRevert;
      const trace = await opcodes(s, '?stack=false');
      const actions = (await get(`/api/v1/contracts/results/${s.hash}/actions`)).json
        .actions as unknown as ContractAction[];
      const d = (await get(`/api/v1/contracts/results/${s.hash}`)).json;
      assert.strictEqual(s.from, ins.accounts.aliasSender.id);
      const call = decodeFunctionData({ abi: abiOf('Vault'), data: d.function_parameters as `0x${string}` });
      assert.strictEqual(call.functionName, 'settle');
      assert.deepStrictEqual(
        (call.args as unknown[]).map((a) => (typeof a === 'string' ? a.toLowerCase() : a)),
        ['0x' + '0'.repeat(24) + (7006).toString(16).padStart(16, '0'), 1_500_000_000_000_000_000_000_000n],
      );
      // settle's STATICCALL of Ledger.entries and its PRNG call, then the library, which refuses before it calls the Ledger
      assert.deepStrictEqual(
        actions.map((a) => [a.call_depth, a.call_operation_type, a.call_type, a.recipient, a.result_data_type]),
        [
          [0, 'CALL', 'CALL', ins.contracts.vault.id, 'REVERT_REASON'],
          [1, 'STATICCALL', 'CALL', ins.contracts.ledger.id, 'OUTPUT'],
          [1, 'CALL', 'PRECOMPILE', '0.0.361', 'OUTPUT'],
          [1, 'DELEGATECALL', 'CALL', ins.contracts.accounting.id, 'REVERT_REASON'],
        ],
      );
      assert.strictEqual(s.failingAction, 3);
      const err = decodeErrorResult({ abi: abiOf('Accounting'), data: d.error_message as `0x${string}` });
      assert.strictEqual(err.errorName, 'SettlementExceedsBalance');
      // what the alias sender holds in the Vault then: 50 ℏ deposited before, 10 ℏ withdrawn (inspectorEthereum)
      assert.deepStrictEqual(
        (err.args as unknown[]).map((a) => (typeof a === 'string' ? a.toLowerCase() : a)),
        [ins.accounts.aliasSender.evm, 4_000_000_000n, 1_500_000_000_000_000_000_000_000n],
      );
      const located = locateCallStack(callStackOf(trace, actions), trace.opcodes, resolve);
      assert.strictEqual(located.length, 2);
      assert.deepStrictEqual(
        [located[0].frame.depth, located[0].frame.entity, located[0].location?.sourceName],
        [1, ins.contracts.accounting.id, SOURCES.accounting],
      );
      assert.strictEqual(located[0].location?.line, lineOf(SOURCES.accounting, 'revert SettlementExceedsBalance('));
      assert.strictEqual(
        located[1].location?.line,
        lineOf(SOURCES.vault, 'left = Accounting.settle(balances, ledger, msg.sender, to, amount);'),
      );
      assert.deepStrictEqual(d.logs, [], 'a failed call keeps no logs');
      assert.ok(
        (d.state_changes as Obj[]).length > 0 && (d.state_changes as Obj[]).every((c) => c.value_written === null),
        'only reads',
      );
    });

    it('the revert behind a proxy (inspectorProxyRevert): the proxy DELEGATECALLs VaultRules, whose custom error is placed in VaultRules with the proxy as its caller', async () => {
      const s = ins.inspectorProxyRevert;
      const trace = await opcodes(s, '?stack=false&storage=true');
      const actions = (await get(`/api/v1/contracts/results/${s.hash}/actions`)).json
        .actions as unknown as ContractAction[];
      const d = (await get(`/api/v1/contracts/results/${s.hash}`)).json;
      assert.deepStrictEqual(
        [s.from, s.contractId, d.contract_id, d.to],
        [
          ins.accounts.depositor.id,
          ins.contracts.vaultProxy.id,
          ins.contracts.vaultProxy.id,
          `0x${(7011).toString(16).padStart(40, '0')}`,
        ],
      );
      // the implementation's function, called on the proxy (its own ABI has only its fallback)
      const call = decodeFunctionData({ abi: abiOf('VaultRules'), data: d.function_parameters as `0x${string}` });
      assert.deepStrictEqual([call.functionName, call.args], ['request', [200_000_000_000n]]);
      assert.deepStrictEqual(
        actions.map((a) => [a.call_depth, a.call_operation_type, a.recipient, a.result_data_type]),
        [
          [0, 'CALL', ins.contracts.vaultProxy.id, 'REVERT_REASON'],
          [1, 'DELEGATECALL', ins.contracts.vaultRules.id, 'REVERT_REASON'],
        ],
      );
      assert.strictEqual(s.failingAction, 1);
      const err = decodeErrorResult({ abi: abiOf('VaultRules'), data: d.error_message as `0x${string}` });
      assert.deepStrictEqual([err.errorName, err.args], ['LimitExceeded', [100_000_000_000n, 200_000_000_000n]]);
      // the implementation read the proxy's storage: its limit (slot 0) and the ERC-1967 implementation slot
      assert.deepStrictEqual(
        (d.state_changes as Obj[]).map((c) => [c.contract_id, c.slot, c.value_written]),
        [
          [ins.contracts.vaultProxy.id, `0x${'0'.repeat(64)}`, null],
          [ins.contracts.vaultProxy.id, '0x360894a13ba1a3210667c828492db98dca3e2076cc3735a920a3ca505d382bbc', null],
        ],
      );
      const located = locateCallStack(callStackOf(trace, actions), trace.opcodes, resolve);
      assert.deepStrictEqual(
        located.map((l) => [l.frame.entity, l.location?.sourceName, l.location?.line]),
        [
          [ins.contracts.vaultRules.id, SOURCES.rules, lineOf(SOURCES.rules, 'revert LimitExceeded(')],
          [ins.contracts.vaultProxy.id, SOURCES.proxy, lineOf(SOURCES.proxy, 'delegatecall(gas(), implementation')],
        ],
      );
      // the storage the implementation's code sees is the proxy's
      const hex = (v: string) => BigInt(`0x${v.replace(/^0x/, '') || '0'}`);
      const inImplementation = Number(trace.opcodes[0].depth) + 1;
      assert.ok(
        trace.opcodes.some(
          (o) =>
            o.depth === inImplementation &&
            Object.entries(o.storage ?? {}).some(([k, v]) => hex(k) === 0n && hex(v) === 100_000_000_000n),
        ),
        "the limit, read in the implementation's frame from the proxy's storage",
      );
    });

    it('the revert deep in the trace (inspectorDeepRevert): STATICCALL, PRNG, DELEGATECALL into Accounting, its CALL of Ledger.record reverting at depth 2', async () => {
      const s = ins.inspectorDeepRevert;
      const trace = await opcodes(s, '?stack=false');
      const actions = (await get(`/api/v1/contracts/results/${s.hash}/actions`)).json
        .actions as unknown as ContractAction[];
      const d = (await get(`/api/v1/contracts/results/${s.hash}`)).json;
      assert.strictEqual(s.from, ins.accounts.owner.id);
      const call = decodeFunctionData({ abi: abiOf('Vault'), data: d.function_parameters as `0x${string}` });
      assert.strictEqual(call.functionName, 'settle');
      assert.deepStrictEqual(
        (call.args as unknown[]).map((a) => (typeof a === 'string' ? a.toLowerCase() : a)),
        [ins.accounts.depositor.evm, 1_500_000_000_000_000_000_000_000n],
      );
      assert.deepStrictEqual(
        actions.map((a) => [a.call_depth, a.call_operation_type, a.call_type, a.recipient, a.result_data_type]),
        [
          [0, 'CALL', 'CALL', ins.contracts.vault.id, 'REVERT_REASON'],
          [1, 'STATICCALL', 'CALL', ins.contracts.ledger.id, 'OUTPUT'],
          [1, 'CALL', 'PRECOMPILE', '0.0.361', 'OUTPUT'],
          [1, 'DELEGATECALL', 'CALL', ins.contracts.accounting.id, 'REVERT_REASON'],
          [2, 'CALL', 'CALL', ins.contracts.ledger.id, 'REVERT_REASON'],
        ],
      );
      assert.strictEqual(s.failingAction, 4);
      assert.strictEqual(actions[2].to, PRNG);
      assert.strictEqual(
        decodeFunctionData({ abi: abiOf('Ledger'), data: actions[1].input as `0x${string}` }).functionName,
        'entries',
      );
      assert.strictEqual(
        decodeFunctionData({ abi: abiOf('Ledger'), data: actions[4].input as `0x${string}` }).functionName,
        'record',
      );
      // the Ledger is called from the library's code, in the Vault's context: its caller is the Vault
      assert.strictEqual(actions[4].caller, ins.contracts.vault.id);
      // the deepest frame's revert data, bubbled up unchanged through the library and the Vault
      assert.strictEqual(decodeRevert(actions[4].result_data as string)?.message, 'Ledger: amount too large');
      for (const i of [3, 0]) assert.strictEqual(actions[i].result_data, actions[4].result_data, `action ${i}`);
      assert.strictEqual(d.error_message, actions[4].result_data);
      const reverts = trace.opcodes.filter((o) => o.op === 'REVERT');
      assert.deepStrictEqual(
        reverts.map((o) => o.depth),
        [2, 1, 0],
        'a REVERT in each failing frame, deepest first',
      );
      assert.strictEqual(
        trace.opcodes.filter((o) => o.op === '').length,
        1,
        'the PRNG: one entry without an operation',
      );
      // the call stack: the Ledger's require, the library's call of the Ledger, the Vault's call of the library
      const located = locateCallStack(callStackOf(trace, actions), trace.opcodes, resolve);
      assert.deepStrictEqual(
        located.map((l) => [l.frame.kind, l.frame.op, l.frame.depth, l.frame.entity, l.location?.sourceName]),
        [
          ['revert', 'REVERT', 2, ins.contracts.ledger.id, SOURCES.ledger],
          ['callSite', 'CALL', 1, ins.contracts.accounting.id, SOURCES.accounting],
          ['callSite', 'DELEGATECALL', 0, ins.contracts.vault.id, SOURCES.vault],
        ],
      );
      assert.deepStrictEqual(
        located.map((l) => l.location?.line),
        [
          lineOf(SOURCES.ledger, '"Ledger: amount too large"'),
          lineOf(SOURCES.accounting, 'ledger.record(to, amount);'),
          lineOf(SOURCES.vault, 'left = Accounting.settle(balances, ledger, msg.sender, to, amount);'),
        ],
      );
      assert.deepStrictEqual(d.logs, [], 'a failed call keeps no logs');
      assert.ok(
        (d.state_changes as Obj[]).length > 0 && (d.state_changes as Obj[]).every((c) => c.value_written === null),
        'only reads',
      );
    });

    it('the partial record (inspectorPartial): its re-execution reverts in withdraw, at `revert InsufficientBalance(...)`', async () => {
      const s = ins.inspectorPartial;
      assert.strictEqual((await get(`/api/v1/contracts/results/${s.hash}`)).status, 206);
      const trace = await opcodes(s, '?stack=false');
      const located = locateCallStack(callStackOf(trace, null), trace.opcodes, resolve);
      assert.strictEqual(located.length, 1);
      assert.strictEqual(located[0].location?.line, lineOf(SOURCES.vault, 'revert InsufficientBalance('));
    });

    it("successes: deposit's events and state, withdraw's value call to the alias, payout's token service call with an empty-op entry", async () => {
      const success = ins.inspectorSuccess;
      const d = (await get(`/api/v1/contracts/results/${success.transactionId}`)).json;
      const changes = new Map((d.state_changes as Obj[]).map((c) => [c.slot, c]));
      const total = changes.get('0x' + (2).toString(16).padStart(64, '0')) as Obj;
      assert.strictEqual(
        BigInt(total.value_written as string) - BigInt(total.value_read as string),
        25_000_000_000n,
        'totalDeposits grew by the deposit',
      );
      const trace = await opcodes(success);
      assert.strictEqual(
        trace.opcodes.filter((o) => o.op?.startsWith('LOG')).length,
        (d.logs as Obj[]).length,
        'one LOG operation per event',
      );
      const eth = ins.inspectorEthereum;
      const ethTrace = await opcodes(eth, '?stack=false');
      const value = ethTrace.opcodes.findIndex((o) => o.op === 'CALL');
      assert.ok(value > 0, 'the value call');
      assert.strictEqual(
        ethTrace.opcodes[value + 1].depth,
        0,
        'an account has no code: no operation runs in the frame it enters',
      );
      const ethActions = (await get(`/api/v1/contracts/results/${eth.hash}/actions`)).json
        .actions as unknown as ContractAction[];
      assert.deepStrictEqual(
        [ethActions[1].call_operation_type, ethActions[1].recipient, ethActions[1].recipient_type, ethActions[1].value],
        ['CALL', ins.accounts.aliasSender.id, 'ACCOUNT', 1_000_000_000],
      );
      const pre = ins.inspectorPrecompile;
      const preTrace = await opcodes(pre, '?stack=false');
      const empty = preTrace.opcodes.filter((o) => o.op === '');
      assert.strictEqual(empty.length, 1, 'the token service: one entry without an operation');
      assert.deepStrictEqual([empty[0].depth, empty[0].pc, empty[0].gas_cost], [1, 0, 23_700]);
      const child = await get(`/api/v1/contracts/results/${pre.transactionId}?nonce=1`);
      assert.strictEqual(child.json.gas_used, 23_700, 'the child result used what the precompile entry cost');
    });
  });

  describe("the web3 module's answer", () => {
    it("openapi.yml's OpcodesResponse and Opcode: keys in order, types; stack by default, memory and storage when asked", async () => {
      const resp = schema('OpcodesResponse');
      const op = schema('Opcode');
      const s = ins.inspectorSuccess;
      const dflt = await opcodes(s);
      assert.deepStrictEqual(Object.keys(dflt), resp.properties);
      for (const k of resp.required) assert.ok(k in dflt, k);
      assert.strictEqual(typeof dflt.gas, 'number');
      for (const o of dflt.opcodes) {
        assert.deepStrictEqual(Object.keys(o), op.properties);
        for (const k of ['depth', 'gas', 'gas_cost', 'pc']) assert.strictEqual(typeof o[k], 'number', k);
        assert.ok((o.stack as string[]).every((x) => WORD.test(x)));
        assert.deepStrictEqual([o.memory, o.storage], [[], {}], 'memory and storage not asked: empty');
      }
      assert.ok(
        dflt.opcodes.some((o) => (o.stack as string[]).length > 0),
        'stack: true by default (openapi: default true)',
      );
      const bare = await opcodes(s, '?stack=false&memory=false&storage=false');
      assert.ok(
        bare.opcodes.every(
          (o) =>
            Array.isArray(o.stack) &&
            (o.stack as string[]).length === 0 &&
            (o.memory as string[]).length === 0 &&
            Object.keys(o.storage as Obj).length === 0,
        ),
      );
      assert.deepStrictEqual(
        bare.opcodes.map((o) => [o.op, o.pc, o.gas, o.depth]),
        dflt.opcodes.map((o) => [o.op, o.pc, o.gas, o.depth]),
        'the same execution whatever is shown',
      );
      const full = await opcodes(s, '?stack=0&memory=yes&storage=ON');
      assert.ok(
        full.opcodes.every((o) => (o.stack as string[]).length === 0),
        'stack=0: Spring reads it as false',
      );
      assert.ok(
        full.opcodes.some((o) => (o.memory as string[]).length >= 3) &&
          full.opcodes.every((o) => (o.memory as string[]).every((x) => WORD.test(x))),
      );
      const sstore = full.opcodes.find((o) => o.op === 'SSTORE') as Opcode;
      assert.ok(
        Object.entries(sstore.storage as Obj).every(([k, v]) => WORD.test(k) && WORD.test(v as string)) &&
          Object.keys(sstore.storage as Obj).length > 0,
      );
      assert.deepStrictEqual(
        (await opcodes(s, '?stack=&memory=')).opcodes.map(
          (o) => (o.stack as string[]).length > 0 || (o.memory as string[]).length > 0,
        ),
        dflt.opcodes.map((o) => (o.stack as string[]).length > 0),
        'empty values: the defaults',
      );
    });

    it('400 for what is no transaction id or hash, a boolean Spring cannot read, no Accept-Encoding; 406 without gzip; the path first', async () => {
      for (const bad of [
        'x',
        '0x',
        '0xghij',
        `0x${'ab'.repeat(31)}`,
        '0.0.1234-1234567890',
        '0.0.1234-1-123456789-',
        '0.0.1@1700000000.1',
        `0x${'ab'.repeat(48)}`,
      ]) {
        const r = await get(`/api/v1/contracts/results/${encodeURIComponent(bad)}/opcodes`);
        assert.deepStrictEqual(
          [r.status, r.json],
          [400, web3Error('Bad Request', `Unsupported ID format: '${bad}'`)],
          bad,
        );
      }
      const id = ins.inspectorSuccess.transactionId;
      assert.deepStrictEqual(
        (await get(`/api/v1/contracts/results/${id}/opcodes?memory=maybe`)).json,
        web3Error('Bad Request', "Invalid boolean value 'maybe'"),
      );
      assert.deepStrictEqual(
        (await get(`/api/v1/contracts/results/x/opcodes?memory=maybe`)).json,
        web3Error('Bad Request', "Unsupported ID format: 'x'"),
        'the path before the parameters',
      );
      for (const enc of ['deflate', 'identity', 'br']) {
        const r = await get(`/api/v1/contracts/results/${id}/opcodes`, { 'Accept-Encoding': enc });
        assert.deepStrictEqual(
          [r.status, r.json],
          [406, web3Error('Not Acceptable', 'Accept-Encoding: gzip header is required')],
          enc,
        );
      }
      assert.strictEqual(
        (await get(`/api/v1/contracts/results/${id}/opcodes`, { 'Accept-Encoding': 'br, GZIP;q=0.5' })).status,
        200,
      );
      // no header at all: Node's fetch always sends one, so raw HTTP
      const raw = await new Promise<{ status: number; body: string }>((done, fail) => {
        const url = new URL(`${sb.url}/api/v1/contracts/results/${id}/opcodes`);
        void import('http').then((http) => {
          const req = http.request({ host: url.hostname, port: url.port, path: url.pathname, method: 'GET' }, (res) => {
            let body = '';
            res.on('data', (c: Buffer) => (body += c.toString()));
            res.on('end', () => done({ status: res.statusCode as number, body }));
          });
          req.on('error', fail);
          req.end();
        });
      });
      assert.deepStrictEqual(
        [raw.status, JSON.parse(raw.body)],
        [
          400,
          web3Error(
            'Bad Request',
            "Required request header 'Accept-Encoding' for method parameter type String is not present",
          ),
        ],
      );
    });

    it('404: a transaction or hash the mirror node does not have (its own words), a result it cannot re-execute', async () => {
      const cases: [string, string][] = [
        [
          '0.0.1-1-1',
          'Transaction not found: TransactionIdParameter[payerAccountId=0.0.1, validStart=1970-01-01T00:00:01.000000001Z]',
        ],
        [
          '0.0.98765-1700000000-000000000',
          'Transaction not found: TransactionIdParameter[payerAccountId=0.0.98765, validStart=2023-11-14T22:13:20Z]',
        ],
        [
          '0.0.98765-1700000000-5000000',
          'Transaction not found: TransactionIdParameter[payerAccountId=0.0.98765, validStart=2023-11-14T22:13:20.005Z]',
        ],
        [
          '0.0.98765-1700000000-5000',
          'Transaction not found: TransactionIdParameter[payerAccountId=0.0.98765, validStart=2023-11-14T22:13:20.000005Z]',
        ],
        [
          `0x${'AB'.repeat(32)}`,
          `Contract transaction hash not found: TransactionHashParameter[hash=0x${'ab'.repeat(32)}]`,
        ],
        ['cd'.repeat(32), `Contract transaction hash not found: TransactionHashParameter[hash=0x${'cd'.repeat(32)}]`],
      ];
      for (const [id, detail] of cases) {
        const r = await get(`/api/v1/contracts/results/${id}/opcodes`);
        assert.deepStrictEqual([r.status, r.json], [404, web3Error('Not Found', detail)], id);
      }
      // generated contracts: no code the sandbox can run (as a web3 module without their contract results)
      const big = ins.inspectorBigTrace;
      const ns = (t: string): string => (BigInt(t.split('.')[0]) * 1_000_000_000n + BigInt(t.split('.')[1])).toString();
      for (const ref of [big.transactionId, big.hash]) {
        assert.deepStrictEqual(
          (await get(`/api/v1/contracts/results/${ref}/opcodes`)).json,
          web3Error('Not Found', `Contract result not found: ${ns(big.timestamp)}`),
        );
      }
      const some = ((await get('/api/v1/contracts/results?limit=5')).json.results as Obj[]).filter(
        (r) => !Object.values(ins).some((x) => (x as Scenario).timestamp === r.timestamp),
      );
      for (const r of some) {
        const res = await get(`/api/v1/contracts/results/${r.hash as string}/opcodes`);
        assert.deepStrictEqual(
          [res.status, res.json],
          [404, web3Error('Not Found', `Contract result not found: ${ns(r.timestamp as string)}`)],
        );
      }
      // by id, the transaction submitted (a child's id is its parent's)
      const pre = ins.inspectorPrecompile;
      assert.strictEqual(
        (await get(`/api/v1/contracts/results/${pre.transactionId}/opcodes?stack=false`)).text,
        (await get(`/api/v1/contracts/results/${pre.hash}/opcodes?stack=false`)).text,
      );
    });

    it("the extension's own client reads it: a trace, and the endpoint off as unavailable with the server's words", async () => {
      const client = new MirrorClient(sb.url, new HttpClient({ tries: 1 }));
      const s = ins.inspectorLedgerRevert;
      const a = await client.contractOpcodes(s.transactionId);
      assert.strictEqual(a.kind, 'trace');
      if (a.kind === 'trace') assert.strictEqual(a.value.opcodes[a.value.opcodes.length - 1].op, 'REVERT');
      sb.setOpcodes(false);
      try {
        const off = await client.contractOpcodes(s.transactionId);
        assert.strictEqual(off.kind, 'unavailable');
        if (off.kind === 'unavailable') assert.strictEqual(off.status, 404);
      } finally {
        sb.setOpcodes(true);
      }
    });
  });

  describe('the endpoint off, faults, hostile text, determinism', () => {
    const offBody = (id: string): Obj =>
      web3Error('Not Found', `No static resource api/v1/contracts/results/${id}/opcodes.`);

    it("off as an option, through the control route and in-process: Spring's 404 for a path nothing serves (hiero.mirror.web3.opcode.tracer.enabled: false)", async () => {
      const id = ins.inspectorSuccess.transactionId;
      const off = await startSandbox({ port: 0, opcodes: false });
      try {
        assert.strictEqual(off.opcodes(), false);
        for (const ref of [id, 'x', '0.0.1-1-1']) {
          const r = await getFrom(off.url, `/api/v1/contracts/results/${ref}/opcodes?stack=maybe`, {});
          assert.deepStrictEqual([r.status, r.json], [404, offBody(ref)], ref);
        }
        assert.strictEqual(
          (await getFrom(off.url, `/api/v1/contracts/results/${id}`)).status,
          200,
          'the rest is served',
        );
        assert.deepStrictEqual((await getFrom(off.url, '/__sandbox/opcodes')).json, { enabled: false });
        assert.strictEqual((await getFrom(off.url, '/__sandbox/health')).json.opcodes, false);
        const on = await fetch(`${off.url}/__sandbox/opcodes`, {
          method: 'POST',
          body: JSON.stringify({ enabled: true }),
        });
        assert.deepStrictEqual(await on.json(), { enabled: true });
        assert.strictEqual((await getFrom(off.url, `/api/v1/contracts/results/${id}/opcodes`)).status, 200);
        for (const bad of ['{"enabled":"no"}', '{}', '{"enabled":true,"x":1}', 'nope']) {
          assert.strictEqual(
            (await fetch(`${off.url}/__sandbox/opcodes`, { method: 'POST', body: bad })).status,
            400,
            bad,
          );
        }
        assert.strictEqual(off.setOpcodes(false), false);
        assert.strictEqual((await getFrom(off.url, `/api/v1/contracts/results/${id}/opcodes`)).status, 404);
      } finally {
        await off.close();
      }
      await assert.rejects(
        startSandbox({ port: 0, opcodes: 'off' as unknown as boolean }),
        /opcodes must be a boolean/,
      );
    });

    it('the command line takes --opcodes=off', async () => {
      const cli = path.join(__dirname, '../../sandbox/cli.js');
      const child = spawn(process.execPath, [cli, '--port', '0', '--opcodes=off', '--quiet'], {
        stdio: ['ignore', 'pipe', 'pipe'],
      });
      try {
        const url = await new Promise<string>((resolve, reject) => {
          let out = '';
          child.stdout.on('data', (c: Buffer) => {
            out += c.toString();
            const m = /listening on (\S+)\n/.exec(out);
            if (m) resolve(m[1]);
          });
          child.on('exit', (code) => reject(new Error(`exited ${String(code)}`)));
        });
        const id = ins.inspectorSuccess.transactionId;
        assert.deepStrictEqual((await getFrom(url, `/api/v1/contracts/results/${id}/opcodes`)).json, offBody(id));
        assert.deepStrictEqual((await getFrom(url, '/__sandbox/opcodes')).json, { enabled: false });
      } finally {
        child.kill('SIGTERM');
      }
    });

    it('faults by path prefix; hostile text in the revert reason as in error_message; unknown fields', async () => {
      const s = ins.inspectorLedgerRevert;
      sb.addFault({ path: `/api/v1/contracts/results/${s.transactionId}`, fault: { status: 429 } });
      const limited = await get(`/api/v1/contracts/results/${s.transactionId}/opcodes`);
      assert.deepStrictEqual(
        [limited.status, limited.json],
        [429, { _status: { messages: [{ message: 'Too many requests' }] } }],
      );
      sb.addFault({ path: `/api/v1/contracts/results/${s.transactionId}/opcodes`, fault: { status: 503 } });
      assert.strictEqual(
        (await get(`/api/v1/contracts/results/${s.transactionId}`)).status,
        200,
        'a rule on /opcodes leaves the result alone',
      );
      assert.strictEqual((await get(`/api/v1/contracts/results/${s.transactionId}/opcodes`)).status, 503);
      const h = { ...GZIP, 'x-sandbox-hostile': 'text,unknown-fields' };
      const d = (await get(`/api/v1/contracts/results/${s.transactionId}`, h)).json;
      const reason = decodeErrorResult({ abi: [], data: d.error_message as `0x${string}` }).args?.[0] as string;
      assert.ok(
        HOSTILE_TEXTS.some((p) => Buffer.from(p.text, 'utf8').toString('utf8') === reason),
        `a hostile payload: ${reason}`,
      );
      const trace = (await get(`/api/v1/contracts/results/${s.transactionId}/opcodes?stack=false`, h))
        .json as unknown as OpcodesResponse & Obj;
      const reverts = trace.opcodes.filter((o) => o.op === 'REVERT');
      assert.ok(
        reverts.length === 2 && reverts.every((o) => o.reason === d.error_message),
        'the REVERTs carry the same hostile reason',
      );
      assert.strictEqual(trace.return_value, d.error_message);
      assert.ok('zz_future_string' in trace, 'unknown fields');
      const plain = (await get(`/api/v1/contracts/results/${s.transactionId}/opcodes?stack=false`))
        .json as unknown as OpcodesResponse;
      assert.strictEqual(decodeRevert(plain.return_value as string)?.message, 'Ledger: amount too large');
    });

    it('the same traces and scenario results on every start', async () => {
      const other = await startSandbox({ port: 0 });
      try {
        for (const k of REAL) {
          for (const q of ['', '?stack=false', '?memory=true&storage=true']) {
            const u = `/api/v1/contracts/results/${ins[k].transactionId}/opcodes${q}`;
            assert.strictEqual((await getFrom(other.url, u)).text, (await get(u)).text, u);
          }
          for (const u of [
            `/api/v1/contracts/results/${ins[k].transactionId}`,
            `/api/v1/contracts/results/${ins[k].transactionId}/actions`,
          ])
            assert.strictEqual((await getFrom(other.url, u)).text, (await get(u)).text, u);
        }
      } finally {
        await other.close();
      }
    });
  });
});
