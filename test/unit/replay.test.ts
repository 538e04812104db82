/**
 * Replay (src/api/replay) against the sandbox over real HTTP: every inspector scenario the sandbox executes on its EVM
 * is replayed through the mirror API with the opcode endpoint off, and must give the recorded execution's step trace
 * opcode for opcode (the endpoint's answer, read while it was on), the recorded call frames, and the same revert
 * location through src/api/source placement. Divergence is caught and said (a slot the record lacks, a recorded
 * result that differs, a gas-dependent branch), and hostile answers end in a sentence, never a wrong exact line.
 */
import * as assert from 'assert';
import * as fs from 'fs';
import * as httpServer from 'http';
import * as path from 'path';
import compiled from '../../sandbox/src/compiled/inspector.json';
import type { Sandbox } from '../../sandbox/src/server';
import type { HttpClient } from '../../src/api/http';
import { MirrorClient } from '../../src/api/mirror';
import type { ContractAction, OpcodesResponse } from '../../src/api/mirrorTypes';
import {
  type Replayed,
  ReplayError,
  checkReplay,
  readRecord,
  replayRecord,
  replayTransaction,
} from '../../src/api/replay';
import { callStackOf } from '../../src/api/source/callStack';
import { type FrameBuild } from '../../src/api/source/locate';
import { placeFailure } from '../../src/api/source/place';
import type { SolcBuildLike } from '../../src/api/source/sourceMap';
import { type Notable, assertSameTrace, replaySandbox, shape } from './replaySandbox';

const ROOT = path.join(__dirname, '../../..');
const BUILD_INFO = path.join(ROOT, 'test/workspace/artifacts/build-info', `${compiled.buildInfoId}.json`);
const NAMES: Record<string, string> = {
  Vault: 'contracts/inspector/Vault.sol:Vault',
  Ledger: 'contracts/inspector/Ledger.sol:Ledger',
  Accounting: 'contracts/inspector/Accounting.sol:Accounting',
};

/** The scenarios the sandbox executes on its EVM (their `/opcodes` trace is a real execution). */
const EXECUTED = [
  'inspectorNoActions',
  'inspectorSuccess',
  'inspectorEthereum',
  'inspectorLedgerRevert',
  'inspectorLibraryRevert',
  'inspectorDeepRevert',
  'inspectorPrecompile',
  'inspectorCreateRevert',
  'inspectorInternalRevert',
] as const;

let sb: Sandbox;
let mirror: MirrorClient;
let http: HttpClient;
let notable: Record<string, Notable>;
let build: SolcBuildLike;
let recorded: Map<string, OpcodesResponse>;

const resolve = (f: { address?: string; entity?: string; creation?: unknown }): FrameBuild | undefined => {
  if (f.creation) return { build, contract: NAMES.Ledger, part: 'creation' };
  const c = compiled.contracts.find((x) => x.address.toLowerCase() === f.address || x.entityId === f.entity);
  return c ? { build, contract: NAMES[c.name] } : undefined;
};

/** The revert's place as src/api/source puts it: exact or not, and each frame's line. */
function placed(opcodes: OpcodesResponse, actions: readonly ContractAction[]): string {
  const stack = callStackOf(opcodes, actions);
  if (!stack.failed) return 'not failed';
  const p = placeFailure(stack, opcodes.opcodes, resolve);
  const lines = p.frames.map((f) =>
    f.location ? `${f.location.sourceName}:${f.location.line}` : `- ${f.problem ?? ''}`,
  );
  return `${p.exact ? 'exact' : 'likely'} ${lines.join(' < ')}`;
}

async function replay(key: string, options = {}): Promise<Replayed> {
  return replayTransaction(mirror, http, notable[key].transactionId, options);
}

describe('replay: past transactions re-executed from the mirror node (src/api/replay)', function () {
  this.timeout(60_000);

  before(async () => {
    build = JSON.parse(fs.readFileSync(BUILD_INFO, 'utf8')) as SolcBuildLike;
    // the recorded executions, read while the endpoint is on; then it is switched off for the replays
    ({ sb, http, mirror, notable, recorded } = await replaySandbox([...EXECUTED, 'inspectorPartial']));
  });

  after(async () => {
    await sb?.close();
  });

  it('the opcode endpoint is off, as on public networks', async () => {
    const a = await mirror.contractOpcodes(notable.inspectorDeepRevert.transactionId);
    assert.strictEqual(a.kind, 'unavailable');
  });

  for (const key of EXECUTED) {
    it(`${key}: the replay's trace, calls and revert place are the recorded execution's, and match the record`, async () => {
      const r = await replay(key);
      const rec = recorded.get(key) as OpcodesResponse;
      const mine = r.execution.opcodes.opcodes;
      assertSameTrace(key, mine, rec.opcodes);
      const verdict = checkReplay(r.execution, r.input.record, r.input.actions, r.input.partial);
      assert.strictEqual(
        verdict.summary.startsWith("Replayed locally · matches the network's record"),
        true,
        verdict.summary,
      );
      assert.strictEqual(verdict.matches, true);
      assert.strictEqual(verdict.exactSteps, mine.length);
      if (notable[key].actions > 0) {
        assert.strictEqual(verdict.calls, notable[key].actions);
        assert.ok(verdict.summary.includes(`(${verdict.calls} of ${verdict.calls} calls)`), verdict.summary);
      }
      // the revert's place through the same placement code, from either trace
      const recActions = r.input.actions;
      assert.strictEqual(placed(r.execution.opcodes as OpcodesResponse, r.execution.actions), placed(rec, recActions));
      if (notable[key].result !== 'SUCCESS')
        assert.match(placed(rec, recActions), /^exact /, `${key} is placed exactly`);
      // no slot was asked for: the record's state changes held every slot the execution read
      assert.strictEqual(r.stats.slotRequests, 0);
    });
  }

  it('the incomplete record (206): the replay runs, its trace is the execution, but nothing is said to match', async () => {
    const r = await replay('inspectorPartial');
    const rec = recorded.get('inspectorPartial') as OpcodesResponse;
    assert.deepStrictEqual(r.execution.opcodes.opcodes.map(shape), rec.opcodes.map(shape));
    const verdict = checkReplay(r.execution, r.input.record, r.input.actions, r.input.partial);
    assert.strictEqual(verdict.matches, false);
    assert.strictEqual(verdict.checked, false);
    assert.strictEqual(verdict.exactSteps, 0);
    assert.match(verdict.summary, /incomplete/);
  });

  it('requests: at most the distinct accounts and slots touched, plus 5; none repeated', async () => {
    sb.clearRequests();
    const r = await replay('inspectorDeepRevert');
    const urls = sb.requests().map((q) => q.url);
    assert.strictEqual(new Set(urls).size, urls.length, `repeated: ${urls.join(', ')}`);
    const touched = new Set([
      ...r.execution.actions.flatMap((a) => [a.caller, a.recipient]).filter((x) => x && x !== '0.0.361'),
    ]);
    assert.ok(urls.length <= touched.size * 2 + r.execution.stateChanges.length + 5, urls.join('\n'));
    assert.strictEqual(r.stats.requests, urls.length);
    assert.strictEqual(urls.filter((u) => u.startsWith('/api/v1/blocks/')).length, 1, 'the block is read once');
  });

  describe('divergence is caught and said', () => {
    it('a slot the record does not list: read from /contracts/{id}/state, and the replay is not exact from that read on', async () => {
      const input = await readRecord(mirror, notable.inspectorLibraryRevert.transactionId);
      const changes = input.record.state_changes ?? [];
      const dropped = changes[1];
      input.record.state_changes = changes.filter((c) => c !== dropped);
      sb.clearRequests();
      const r = await replayRecord(mirror, http, input);
      // the state endpoint gave the same value the record had: the trace is still the execution's…
      assert.deepStrictEqual(
        r.execution.opcodes.opcodes.map(shape),
        (recorded.get('inspectorLibraryRevert') as OpcodesResponse).opcodes.map(shape),
      );
      assert.ok(sb.requests().some((q) => q.url.includes('/state?') && q.url.includes(`slot=${dropped.slot}`)));
      assert.strictEqual(r.stats.slotRequests, 1);
      // …but the record did not list it, so it is not taken as exact
      const verdict = checkReplay(r.execution, input.record, input.actions, false);
      assert.strictEqual(verdict.matches, false);
      assert.match(verdict.summary, /diverges/);
      assert.ok(verdict.summary.includes(dropped.slot as string), verdict.summary);
      assert.ok(verdict.exactSteps < r.execution.opcodes.opcodes.length);
    });

    it('a recorded result that differs: the first diverging call is named, nothing after it exact', async () => {
      const input = await readRecord(mirror, notable.inspectorDeepRevert.transactionId);
      // the record says Ledger.entries answered another amount
      const entries = input.actions.find((a) => a.call_operation_type === 'STATICCALL') as ContractAction;
      entries.result_data = `0x${'0'.repeat(63)}1`;
      const r = await replayRecord(mirror, http, input);
      const verdict = checkReplay(r.execution, input.record, input.actions, false);
      assert.strictEqual(verdict.matches, false);
      assert.strictEqual(verdict.divergence?.action, Number(entries.index));
      assert.match(verdict.summary, /call 2 \(STATICCALL to 0\.0\.7002\): its result data differs/);
      assert.strictEqual(verdict.matchedCalls, 1);
      assert.strictEqual(verdict.exactSteps, r.execution.actionStart[Number(entries.index)]);
    });

    it('a system contract answer the record has differently is used, and a different outcome is caught', async () => {
      const input = await readRecord(mirror, notable.inspectorPrecompile.transactionId);
      const hts = input.actions.find((a) => a.call_type === 'PRECOMPILE') as ContractAction;
      // the token service answered INSUFFICIENT_TOKEN_BALANCE (178): the Vault reverts on it, the record says success
      hts.result_data = `0x${(178).toString(16).padStart(64, '0')}`;
      const r = await replayRecord(mirror, http, input);
      assert.strictEqual(r.execution.success, false);
      const verdict = checkReplay(r.execution, input.record, input.actions, false);
      assert.strictEqual(verdict.matches, false);
      assert.match(verdict.summary, /diverges/);
    });

    it('a gas-dependent branch: less gas than recorded makes the replay run out, and that is said', async () => {
      const input = await readRecord(mirror, notable.inspectorSuccess.transactionId);
      const top = input.actions[0];
      top.gas = Number(top.gas_used) - 1000;
      const r = await replayRecord(mirror, http, input);
      const verdict = checkReplay(r.execution, input.record, input.actions, false);
      assert.strictEqual(verdict.matches, false);
      assert.match(verdict.summary, /diverges from the network's record at call \d/);
      assert.match(verdict.summary, /its result is (REVERT_REASON|ERROR) in the replay, OUTPUT in the record/);
    });
  });

  describe('hostile and broken answers end in a sentence, never a wrong result', () => {
    afterEach(() => sb.clearFaults());

    const failsWith = async (key: string, pattern: RegExp, options = {}): Promise<void> => {
      await assert.rejects(replay(key, options), (e: unknown) => {
        assert.ok(e instanceof ReplayError, String(e));
        assert.match(e.message, pattern);
        return true;
      });
    };

    it('a 429 or a 5xx of the account look-up', async () => {
      sb.addFault({ path: '/api/v1/accounts/', times: 5, fault: { status: 429, retryAfter: '0' } });
      await failsWith('inspectorDeepRevert', /could not give the account/);
      sb.clearFaults();
      sb.addFault({ path: '/api/v1/contracts/0.0.7001', times: 5, fault: { status: 503 } });
      await failsWith('inspectorDeepRevert', /could not give the contract 0\.0\.7001/);
    });

    it('a slot the state endpoint cannot give (a 5xx, a body that is not JSON)', async () => {
      const input = await readRecord(mirror, notable.inspectorLibraryRevert.transactionId);
      input.record.state_changes = [];
      const vault = compiled.contracts[0].address.toLowerCase();
      sb.addFault({ path: `/api/v1/contracts/${vault}/state`, times: 5, fault: { status: 500 } });
      await assert.rejects(replayRecord(mirror, http, input), (e: unknown) => {
        assert.ok(e instanceof ReplayError);
        assert.match(e.message, new RegExp(`could not give slot 0x[0-9a-f]{64} of ${vault} before`));
        return true;
      });
      sb.clearFaults();
      sb.addFault({ path: `/api/v1/contracts/${vault}/state`, times: 5, fault: { body: 'html' } });
      await assert.rejects(replayRecord(mirror, http, input), ReplayError);
    });

    /** A mirror node that answers the paths `rules` match with their bodies, and forwards the rest to the sandbox. */
    async function hostileMirror(
      rules: Array<[RegExp, unknown]>,
    ): Promise<{ url: string; close: () => Promise<void> }> {
      const server = httpServer.createServer((req, res) => {
        void (async () => {
          const rule = rules.find(([re]) => re.test(req.url ?? ''));
          if (rule) {
            res.writeHead(200, { 'content-type': 'application/json' });
            res.end(typeof rule[1] === 'string' ? rule[1] : JSON.stringify(rule[1]));
            return;
          }
          const r = await fetch(`${sb.url}${req.url}`);
          res.writeHead(r.status, { 'content-type': 'application/json' });
          res.end(await r.text());
        })();
      });
      await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
      const port = (server.address() as { port: number }).port;
      return {
        url: `http://127.0.0.1:${port}`,
        close: () =>
          new Promise<void>((r) => {
            server.closeAllConnections();
            server.close(() => r());
          }),
      };
    }

    const hostileCases: Array<[string, RegExp, unknown, RegExp]> = [
      [
        'a slot value of the wrong type',
        /\/state\?/,
        { state: [{ slot: '0x05', value: 12 }], links: { next: null } },
        /is not a 32-byte word/,
      ],
      [
        'a huge slot value',
        /\/state\?/,
        { state: [{ slot: '0x05', value: `0x${'f'.repeat(100)}` }], links: { next: null } },
        /is not a 32-byte word/,
      ],
      [
        'other slots than the one asked',
        /\/state\?/,
        { state: [{ slot: '0x1234', value: '0x01' }], links: { next: null } },
        /other slots than the one asked/,
      ],
      ['no state list', /\/state\?/, { state: 'none' }, /has no "state" list/],
      [
        'a balance that is not a number',
        /\/accounts\//,
        { account: '0.0.7005', balance: { balance: 'lots' } },
        /not a whole number of tinybars/,
      ],
      [
        'code that is not bytecode',
        /\/contracts\/0\.0\.7001$/,
        { contract_id: '0.0.7001', runtime_bytecode: '<html>' },
        /is not bytecode/,
      ],
    ];
    for (const [name, path, body, message] of hostileCases) {
      it(`a hostile mirror node: ${name}`, async () => {
        const input = await readRecord(mirror, notable.inspectorLibraryRevert.transactionId);
        input.record.state_changes = [];
        const h = await hostileMirror([[path, body]]);
        try {
          await assert.rejects(replayRecord(new MirrorClient(h.url, http), http, input), (e: unknown) => {
            assert.ok(e instanceof ReplayError, String(e));
            assert.match(e.message, message);
            return true;
          });
        } finally {
          await h.close();
        }
      });
    }

    it("a block whose hash is not the record's: said, and nothing is exact", async () => {
      const h = await hostileMirror([
        [
          /\/blocks\//,
          { hash: `0x${'ab'.repeat(48)}`, number: 1, timestamp: { from: '1793316900.000000000', to: null } },
        ],
      ]);
      try {
        const r = await replayTransaction(
          new MirrorClient(h.url, http),
          http,
          notable.inspectorDeepRevert.transactionId,
        );
        const verdict = checkReplay(r.execution, r.input.record, r.input.actions, r.input.partial);
        assert.strictEqual(verdict.matches, false);
        assert.match(verdict.summary, /block \d+ has another hash than the record names/);
        assert.strictEqual(verdict.exactSteps, 0);
      } finally {
        await h.close();
      }
    });

    it('a loop of next links in the call frames ends the replay with the reason', async () => {
      const tx = notable.inspectorDeepRevert.transactionId;
      const first = (await (
        await fetch(`${sb.url}/api/v1/contracts/results/${tx}/actions?limit=100&order=asc`)
      ).json()) as {
        actions: unknown[];
      };
      const h = await hostileMirror([
        [
          /\/actions/,
          { actions: first.actions, links: { next: `/api/v1/contracts/results/${tx}/actions?limit=100&order=asc` } },
        ],
      ]);
      try {
        await assert.rejects(
          replayTransaction(new MirrorClient(h.url, http), http, tx),
          (e: unknown) => e instanceof ReplayError && /call frames|page/.test(e.message),
        );
      } finally {
        await h.close();
      }
    });

    it('malformed records: a state change with a huge value, an absurd gas limit', async () => {
      const input = await readRecord(mirror, notable.inspectorLibraryRevert.transactionId);
      (input.record.state_changes ?? [])[0].value_read = `0x${'f'.repeat(200)}`;
      await assert.rejects(replayRecord(mirror, http, input), /malformed address, slot or value/);
      const again = await readRecord(mirror, notable.inspectorLibraryRevert.transactionId);
      again.actions[0].gas = 10n ** 30n;
      await assert.rejects(replayRecord(mirror, http, again), /more gas than any network allows/);
    });

    it('budgets: steps, requests, and cancellation', async () => {
      await failsWith('inspectorDeepRevert', /budget of 100 steps/, { maxSteps: 100 });
      await failsWith('inspectorDeepRevert', /more than 2 requests/, { maxRequests: 2 });
      const ac = new AbortController();
      ac.abort();
      await failsWith('inspectorDeepRevert', /cancelled/, { signal: ac.signal });
    });
  });
});
