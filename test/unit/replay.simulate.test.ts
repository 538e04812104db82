/**
 * A simulated call run locally (src/api/replay/simulate.ts) against the sandbox over real HTTP: the state at the
 * block from the mirror API, the call as a message from the sender; checked against the sandbox's own
 * `POST /contracts/call` answer on its real EVM: the revert data, the output and the gas estimate, the call trace,
 * events and state changes; a system contract's call said at that call, never answered by a guess.
 */
import * as assert from 'assert';
import compiled from '../../sandbox/src/compiled/inspector.json';
import { type Sandbox, startSandbox } from '../../sandbox/src/server';
import type { AbiItem } from '../../src/api/decode/abiFiles';
import { encodeCallData } from '../../src/api/decode/callInputs';
import { HttpClient } from '../../src/api/http';
import { MirrorClient } from '../../src/api/mirror';
import { type SimulationAnswer, ReplayError, checkSimulation, simulateCall } from '../../src/api/replay';

interface Compiled {
  name: string;
  entityId: string;
  address: string;
  abi: AbiItem[];
}
const contracts = (compiled as unknown as { contracts: Compiled[] }).contracts;
const VAULT = contracts.find((c) => c.name === 'Vault') as Compiled;
const LEDGER = contracts.find((c) => c.name === 'Ledger') as Compiled;
const data = (name: string, args: string[] = []): string => {
  const item = VAULT.abi.find((i) => i.type === 'function' && i.name === name) as AbiItem;
  const r = encodeCallData(item, args);
  assert.ok(r.ok, r.ok ? '' : r.message);
  return r.value;
};
const SENDER = '0.0.7006';
const TO = '0x70997970c51812dc3a010c7d01b50e0d17dc79c8';

describe('replay: a simulated call against the sandbox', function () {
  this.timeout(60_000);
  let sb: Sandbox;
  let mirror: MirrorClient;
  let http: HttpClient;
  let vault: string;

  before(async () => {
    sb = await startSandbox({ port: 0 });
    http = new HttpClient({ timeoutMs: 10_000, backoffBaseMs: 1, backoffMaxMs: 2 });
    mirror = new MirrorClient(sb.url, http);
    vault = ((await mirror.contract(VAULT.entityId)) as { evm_address: string }).evm_address.toLowerCase();
  });
  after(() => sb.close());

  /** The sandbox's answer, as the panel reads it. */
  async function answer(d: string, more: { value?: bigint; estimate?: boolean } = {}): Promise<SimulationAnswer> {
    const a = await mirror.contractCall({ to: vault, from: SENDER, data: d, block: 'latest', ...more });
    if (a.kind === 'failed') return { kind: 'failed', data: a.data };
    if (a.kind !== 'result') throw new Error(`unexpected ${a.kind}`);
    const e = await mirror.contractCall({ to: vault, from: SENDER, data: d, block: 'latest', ...more, estimate: true });
    return { kind: 'result', result: a.result, ...(e.kind === 'estimate' ? { estimate: e.gas } : {}) };
  }

  it("a reverting call: the revert data is the sandbox's answer, the trace ends in the REVERT", async () => {
    const d = data('move', [TO, '30000000000']);
    const a = await answer(d);
    assert.strictEqual(a.kind, 'failed');
    const s = await simulateCall(mirror, http, {
      to: vault,
      contractId: VAULT.entityId,
      data: d,
      from: SENDER,
      block: 'latest',
    });
    const x = s.execution;
    assert.strictEqual(x.success, false);
    assert.strictEqual(x.output, a.kind === 'failed' ? a.data : '');
    assert.ok(x.output.startsWith('0x08c379a0'), 'an Error(string) revert');
    const v = checkSimulation(x, d, a);
    assert.ok(v.matches, v.summary);
    assert.strictEqual(x.opcodes.opcodes.at(-1)?.op, 'REVERT');
    assert.strictEqual(x.actions[0].result_data_type, 'REVERT_REASON');
    assert.strictEqual(s.result.result, 'CONTRACT_REVERT_EXECUTED');
    assert.strictEqual(s.result.error_message, x.output);
    assert.deepStrictEqual(x.logs, [], 'a revert keeps no events');
    assert.ok(s.block.number > 0n);
    // the sender as the mirror node names it: 0.0.7006's address
    assert.strictEqual(x.actions[0].caller, SENDER);
  });

  it('a call that succeeds: its output, its gas within the estimate, its events and state changes', async () => {
    const d = data('deposit');
    const value = 500n;
    const a = await answer(d, { value });
    assert.strictEqual(a.kind, 'result');
    const s = await simulateCall(mirror, http, { to: vault, data: d, from: SENDER, value, block: 'latest' });
    const x = s.execution;
    const v = checkSimulation(x, d, a);
    assert.ok(v.matches, v.summary);
    assert.strictEqual(x.success, true);
    // Deposited and Transfer by the Vault, then the Ledger's record (a CALL one frame down)
    assert.ok(x.logs.length >= 2, JSON.stringify(x.logs));
    assert.strictEqual(x.logs[0].address, vault);
    assert.ok(x.actions.length >= 2, 'the Ledger call is a frame of its own');
    assert.ok(x.actions.some((f) => f.recipient === LEDGER.entityId));
    const written = x.stateChanges.filter((c) => c.value_written !== null);
    assert.ok(written.length >= 2, 'balances and totalDeposits written');
    assert.deepStrictEqual(
      s.result.logs?.map((l) => l.contract_id),
      x.logs.map((l) => (l.address === vault ? VAULT.entityId : LEDGER.entityId)),
    );
    // a wrong estimate is not within the tolerance: the check fails, and says why
    const off = checkSimulation(x, d, { ...a, estimate: 21_000n } as SimulationAnswer);
    assert.strictEqual(off.matches, false);
    assert.match(off.divergence?.why ?? '', /gas/);
  });

  it('past blocks: the state at the end of each, as the sandbox answers at that block', async () => {
    // two blocks after the Vault's storage was first written: its first write, and its last
    const rows = (
      await http.get<{ state: { timestamp: string }[] }>(
        mirror.apiUrl(`/contracts/${VAULT.entityId}/state`, 'limit=100'),
      )
    ).data.state
      .map((r) => r.timestamp)
      .sort();
    const blockAfter = async (t: string): Promise<bigint> =>
      BigInt(
        (
          await http.get<{ blocks: { number: number }[] }>(
            mirror.apiUrl('/blocks', `timestamp=gt:${t}&order=asc&limit=1`),
          )
        ).data.blocks[0].number,
      );
    const d = data('totalDeposits');
    const seen: string[] = [];
    for (const n of [await blockAfter(rows[0]), await blockAfter(rows[rows.length - 1])]) {
      const there = await mirror.contractCall({ to: vault, data: d, block: n.toString() });
      assert.strictEqual(there.kind, 'result');
      const result = there.kind === 'result' ? there.result : '';
      const s = await simulateCall(mirror, http, { to: vault, data: d, block: n });
      assert.strictEqual(s.block.number, n);
      assert.strictEqual(s.execution.output, result, `block ${n}`);
      assert.ok(checkSimulation(s.execution, d, { kind: 'result', result }).matches);
      seen.push(result);
    }
    assert.notStrictEqual(seen[0], seen[1], 'the deposits changed between the two blocks');
  });

  it("a system contract's answer is not guessed: the run says so at that call and does not match", async () => {
    const d = data('seed');
    const a = await answer(d);
    const s = await simulateCall(mirror, http, { to: vault, data: d, from: SENDER, block: 'latest' });
    const v = checkSimulation(s.execution, d, a);
    assert.strictEqual(v.matches, false);
    assert.match(v.divergence?.why ?? '', /system contract 0\.0\.361/);
    const at = s.execution.actions[v.divergence?.action ?? -1];
    assert.strictEqual(at?.to, '0x0000000000000000000000000000000000000169');
    assert.ok(v.exactSteps < s.execution.opcodes.opcodes.length);
  });

  it('a contract the mirror node does not know, a block it does not have: a sentence, not a run', async () => {
    await assert.rejects(
      simulateCall(mirror, http, { to: `0x${'ab'.repeat(20)}`, data: '0x', block: 'latest' }),
      (e: unknown) => e instanceof ReplayError && /no contract/.test(e.message),
    );
    await assert.rejects(
      simulateCall(mirror, http, { to: vault, data: '0x', block: 999_999_999n }),
      (e: unknown) => e instanceof ReplayError && /block 999999999/.test(e.message),
    );
  });
});
