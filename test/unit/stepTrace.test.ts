/**
 * A transaction's step trace from the opcode endpoint or a checked local replay (src/api/source/stepTrace.ts),
 * against the sandbox over real HTTP: the order each mode asks in, a replay used only when it matches the record,
 * a diverging replay returned but not used, and a fault (cancelled, a 5xx) returned as a fault, never thrown.
 */
import * as assert from 'assert';
import * as fs from 'fs';
import * as path from 'path';
import compiled from '../../sandbox/src/compiled/inspector.json';
import { type Sandbox, startSandbox } from '../../sandbox/src/server';
import { HttpClient } from '../../src/api/http';
import { MirrorClient } from '../../src/api/mirror';
import type { OpcodesResponse } from '../../src/api/mirrorTypes';
import { callStackOf } from '../../src/api/source/callStack';
import { placeFailure } from '../../src/api/source/place';
import type { SolcBuildLike } from '../../src/api/source/sourceMap';
import { replayModeOf, stepTraceOf, type StepTraceRequest } from '../../src/api/source/stepTrace';

const BUILD_INFO = path.join(
  __dirname,
  '../../..',
  'test/workspace/artifacts/build-info',
  `${compiled.buildInfoId}.json`,
);
const NAMES: Record<string, string> = {
  Vault: 'contracts/inspector/Vault.sol:Vault',
  Ledger: 'contracts/inspector/Ledger.sol:Ledger',
  Accounting: 'contracts/inspector/Accounting.sol:Accounting',
};

describe('step trace: the opcode endpoint or a checked local replay (src/api/source/stepTrace)', function () {
  this.timeout(60_000);
  let sb: Sandbox;
  let mirror: MirrorClient;
  let http: HttpClient;
  let deep: { transactionId: string; timestamp: string; actions: number };
  let build: SolcBuildLike;

  const opcodeRequests = () => sb.requests().filter((r) => r.url.includes('/opcodes')).length;
  const replayRequests = () => sb.requests().filter((r) => /\/api\/v1\/(blocks|accounts)\//.test(r.url)).length;
  const ask = (mode: StepTraceRequest['mode'], more: Partial<StepTraceRequest> = {}) =>
    stepTraceOf({ mirror, http, ref: deep.transactionId, mode, ...more });

  before(async () => {
    build = JSON.parse(fs.readFileSync(BUILD_INFO, 'utf8')) as SolcBuildLike;
    sb = await startSandbox({ port: 0 });
    http = new HttpClient({ tries: 1, backoffBaseMs: 1 });
    mirror = new MirrorClient(sb.url, http);
    const health = (await (await fetch(`${sb.url}/__sandbox/health`)).json()) as {
      notable: { inspector: Record<string, typeof deep> };
    };
    deep = health.notable.inspector.inspectorDeepRevert;
  });

  beforeEach(() => {
    sb.setOpcodes(true);
    sb.clearFaults();
    sb.clearRequests();
  });

  after(async () => {
    await sb?.close();
  });

  it('the setting: its three values, anything else the default', () => {
    assert.strictEqual(replayModeOf('replayFirst'), 'replayFirst');
    assert.strictEqual(replayModeOf('never'), 'never');
    assert.strictEqual(replayModeOf('endpointFirst'), 'endpointFirst');
    assert.strictEqual(replayModeOf('always'), 'endpointFirst');
    assert.strictEqual(replayModeOf(undefined), 'endpointFirst');
  });

  it('endpoint first, the endpoint on: its trace, no replay', async () => {
    const o = await ask('endpointFirst');
    assert.strictEqual(o.use?.by, 'mirror');
    assert.ok(o.use.trace.opcodes.length > 0);
    assert.strictEqual(o.replay, undefined);
    assert.strictEqual(replayRequests(), 0, 'nothing read for a replay');
  });

  it("endpoint first, the endpoint off: the refusal, then a replay that matches the record, with the endpoint's trace", async () => {
    const traced = await ask('never');
    assert.strictEqual(traced.use?.by, 'mirror');
    sb.setOpcodes(false);
    const o = await ask('endpointFirst');
    assert.deepStrictEqual(
      { status: o.refusal?.status, kind: o.refusal?.kind },
      { status: 404, kind: 'off' },
      JSON.stringify(o.refusal),
    );
    assert.strictEqual(o.use?.by, 'replay', JSON.stringify(o.fault ?? o.replay?.verdict));
    if (o.use?.by !== 'replay') return;
    assert.strictEqual(o.use.verdict.matches, true);
    assert.strictEqual(o.use.verdict.calls, deep.actions);
    const shape = (x: { depth: unknown; op: unknown; pc: unknown }) =>
      `${String(x.depth)}|${String(x.op)}|${String(x.pc)}`;
    assert.deepStrictEqual(o.use.trace.opcodes.map(shape), traced.use?.trace.opcodes.map(shape));
    assert.strictEqual(opcodeRequests(), 2, 'the endpoint asked once per call');
    // placed with the recorded call frames (as revert to source does): the same exact lines from either trace
    const actions = (await mirror.contractActions(deep.transactionId))?.actions ?? [];
    const where = (trace: OpcodesResponse): string => {
      const stack = callStackOf(trace, actions);
      const p = placeFailure(stack, trace.opcodes, (f) => {
        const c = compiled.contracts.find((x) => x.address.toLowerCase() === f.address || x.entityId === f.entity);
        return c ? { build, contract: NAMES[c.name] } : undefined;
      });
      return `${p.exact ? 'exact' : 'likely'} ${p.frames.map((f) => `${f.location?.sourceName}:${f.location?.line}`).join(' < ')}`;
    };
    const fromEndpoint = where(traced.use!.trace);
    assert.match(fromEndpoint, /^exact contracts\/inspector\/Ledger\.sol:\d+ < /);
    assert.strictEqual(where(o.use.trace), fromEndpoint);
  });

  it('endpoint first, the endpoint refused before (the caller remembers): straight to the replay', async () => {
    const o = await ask('endpointFirst', { skipEndpoint: true });
    assert.strictEqual(o.use?.by, 'replay');
    assert.strictEqual(o.refusal, undefined);
    assert.strictEqual(opcodeRequests(), 0);
  });

  it('replay first: the replay, the endpoint not asked', async () => {
    const o = await ask('replayFirst');
    assert.strictEqual(o.use?.by, 'replay');
    assert.strictEqual(opcodeRequests(), 0);
  });

  it('never: the endpoint alone; off, nothing to use and no replay', async () => {
    sb.setOpcodes(false);
    const o = await ask('never');
    assert.strictEqual(o.use, undefined);
    assert.strictEqual(o.refusal?.kind, 'off');
    assert.strictEqual(o.replay, undefined);
    assert.strictEqual(replayRequests(), 0);
  });

  it('a replay the mirror node cannot feed (a 500 on the block): a fault, the endpoint then asked (replay first)', async () => {
    sb.addFault({ path: '/api/v1/blocks/', times: 5, fault: { status: 500 } });
    const o = await ask('replayFirst');
    assert.strictEqual(o.fault?.kind, 'mirror', JSON.stringify(o));
    assert.match(o.fault.message, /block/);
    assert.strictEqual(o.use?.by, 'mirror', 'the endpoint after the replay stopped');
  });

  it('a 5xx from the opcode endpoint itself (after the retries): said as the endpoint not answering, then a replay', async () => {
    sb.addFault({ path: '/api/v1/contracts/results/', times: 1, fault: { status: 502 } });
    const o = await ask('endpointFirst');
    assert.deepStrictEqual({ status: o.refusal?.status, kind: o.refusal?.kind }, { status: 502, kind: 'busy' });
    assert.strictEqual(o.use?.by, 'replay', JSON.stringify(o.fault ?? o.replay?.verdict));
    // never replay: the same failure is a refusal too (the likely analysis still shown), not a throw
    sb.clearFaults();
    sb.addFault({ path: '/api/v1/contracts/results/', times: 1, fault: { status: 500 } });
    const n = await ask('never');
    assert.strictEqual(n.refusal?.kind, 'busy');
    assert.strictEqual(n.use, undefined);
  });

  it('a trace over the size cap (too large a transaction for the endpoint): replayed; other failures still throw', async () => {
    const small = new MirrorClient(sb.url, new HttpClient({ tries: 1, backoffBaseMs: 1, maxResponseBytes: 2_000 }));
    const o = await stepTraceOf({ mirror: small, http, ref: deep.transactionId, mode: 'never' });
    assert.strictEqual(o.refusal?.kind, 'transaction', JSON.stringify(o.refusal));
    assert.strictEqual(o.refusal.status, 0);
    assert.match(o.refusal.sentence ?? '', /\S/);
    // an id the client refuses before any request: thrown, as before
    await assert.rejects(ask('endpointFirst', { ref: 'not a transaction' }));
  });

  it('a cancelled replay: a fault said as cancelled, nothing used, the endpoint not asked behind the user', async () => {
    const controller = new AbortController();
    sb.addFault({ path: '/api/v1/blocks/', times: 5, fault: { delayMs: 30_000 } });
    const o = await ask('replayFirst', {
      aroundReplay: (run) => {
        const p = run(controller.signal);
        // cancelled once the replay waits on the (delayed) block
        const poll = setInterval(() => {
          if (sb.requests().some((r) => r.url.startsWith('/api/v1/blocks/'))) {
            clearInterval(poll);
            controller.abort();
          }
        }, 5);
        return p.finally(() => clearInterval(poll));
      },
    });
    assert.strictEqual(o.fault?.kind, 'cancelled', JSON.stringify(o));
    assert.strictEqual(o.use, undefined);
    assert.strictEqual(opcodeRequests(), 0);
  });

  it('a replay that diverges (a contract the mirror node does not have): returned with its verdict, not used', async () => {
    sb.setOpcodes(false);
    // the Ledger missing from the mirror node: its call returns nothing instead of reverting
    const ledger = compiled.contracts.find((c) => c.name === 'Ledger')!;
    for (const id of [ledger.entityId, ledger.address.toLowerCase()])
      for (const route of ['accounts', 'contracts'])
        sb.addFault({ path: `/api/v1/${route}/${id}`, times: 5, fault: { status: 404 } });
    const o = await ask('endpointFirst');
    assert.strictEqual(o.use, undefined, JSON.stringify(o.use?.by));
    assert.ok(o.replay, `a replay ran to its end: ${JSON.stringify(o.fault)}`);
    assert.strictEqual(o.replay.verdict.matches, false);
    assert.ok(o.replay.verdict.divergence, o.replay.verdict.summary);
    assert.ok(o.replay.verdict.exactSteps < o.replay.trace.opcodes.length, 'the steps after it are not exact');
  });
});
