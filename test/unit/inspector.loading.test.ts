// The inspector's loading (src/features/inspector/inspection.ts) and the client methods it uses, against the
// sandbox over real HTTP: which requests go out for each kind of reference, in parallel where the reference allows;
// 404s as "missing"; a failing endpoint failing only its source, and Retry; then the view model built from the
// answers (src/api/inspect/build.ts) for the deep revert scenario.
import * as assert from 'assert';
import { HttpClient } from '../../src/api/http';
import { buildEvents, buildOverview, buildStateChanges, buildTrace } from '../../src/api/inspect/build';
import { MirrorClient } from '../../src/api/mirror';
import { parseTxRef, type TxRef } from '../../src/api/txRef';
import { InspectionLoader, type SourceId } from '../../src/features/inspector/inspection';
import { type Sandbox, startSandbox } from '../../sandbox/src/server';

interface Scenario {
  timestamp: string;
  transactionId: string;
  hash: string;
  transactionHash: string;
  contractId: string;
  result: string;
  actions: number;
  failingAction: number | null;
  children: Array<{ nonce: number; timestamp: string }>;
}

describe('inspector: loading a transaction from the mirror node', function () {
  this.timeout(30000);
  let sb: Sandbox;
  let mirror: MirrorClient;
  let scenarios: Record<string, Scenario>;

  before(async () => {
    sb = await startSandbox({ port: 0 });
    mirror = new MirrorClient(sb.url, new HttpClient({ timeoutMs: 10000, backoffBaseMs: 1, backoffMaxMs: 2 }));
    const health = (await (await fetch(`${sb.url}/__sandbox/health`)).json()) as {
      notable: { inspector: Record<string, Scenario> };
    };
    scenarios = health.notable.inspector;
    assert.ok(scenarios.inspectorDeepRevert, 'the sandbox names its inspector scenarios');
  });
  after(() => sb.close());
  afterEach(() => sb.clearFaults());

  async function load(ref: TxRef): Promise<{ loader: InspectionLoader; paths: string[]; changes: SourceId[] }> {
    const before = sb.requests().length;
    const changes: SourceId[] = [];
    const loader = new InspectionLoader(
      ref,
      () => mirror,
      (s) => changes.push(s),
    );
    await loader.start();
    const paths = sb
      .requests()
      .slice(before)
      .map((r) => r.url.replace(/\?.*$/, ''));
    return { loader, paths, changes };
  }

  const ref = (text: string): TxRef => {
    const r = parseTxRef(text);
    assert.ok(r.ok, text);
    return r.value;
  };

  it('a transaction id: the result, every call frame and the transactions of the id', async () => {
    const s = scenarios.inspectorDeepRevert;
    const { loader, paths } = await load(ref(s.transactionId));
    const { result, actions, transactions } = loader.sources;
    assert.strictEqual(result.state, 'ready');
    assert.strictEqual(actions.state, 'ready');
    assert.strictEqual(transactions.state, 'ready');
    if (result.state !== 'ready' || actions.state !== 'ready' || transactions.state !== 'ready') return;
    assert.strictEqual(result.value.value.timestamp, s.timestamp);
    assert.strictEqual(result.value.value.result, s.result);
    assert.strictEqual(actions.value.actions.length, s.actions);
    assert.strictEqual(transactions.value.self?.consensus_timestamp, s.timestamp);
    assert.deepStrictEqual(
      paths.sort(),
      [
        `/api/v1/contracts/results/${s.transactionId}`,
        `/api/v1/contracts/results/${s.transactionId}/actions`,
        `/api/v1/transactions/${s.transactionId}`,
      ].sort(),
    );
  });

  it('a hash: the result and actions at once, then the transaction of its timestamp, then its id', async () => {
    const s = scenarios.inspectorSuccess;
    const { loader, paths } = await load(ref(s.hash));
    assert.strictEqual(loader.transactionId, s.transactionId);
    assert.strictEqual(loader.sources.transactions.state, 'ready');
    assert.deepStrictEqual(
      paths.slice(0, 2).sort(),
      [`/api/v1/contracts/results/${s.hash}`, `/api/v1/contracts/results/${s.hash}/actions`].sort(),
    );
    assert.deepStrictEqual(paths.slice(2), ['/api/v1/transactions', `/api/v1/transactions/${s.transactionId}`]);
  });

  it('a consensus timestamp (a HashScan link): the transaction of the timestamp first, then the rest by its id', async () => {
    const s = scenarios.inspectorSuccess;
    const { loader, paths } = await load(ref(`https://hashscan.io/testnet/transaction/${s.timestamp}`));
    assert.strictEqual(loader.transactionId, s.transactionId);
    assert.strictEqual(paths[0], '/api/v1/transactions');
    assert.deepStrictEqual(
      paths.slice(1).sort(),
      [
        `/api/v1/contracts/results/${s.transactionId}`,
        `/api/v1/contracts/results/${s.transactionId}/actions`,
        `/api/v1/transactions/${s.transactionId}`,
      ].sort(),
    );
    for (const source of ['result', 'actions', 'transactions'] as const)
      assert.strictEqual(loader.sources[source].state, 'ready', source);
  });

  it('a child (nonce > 0): its actions by its own hash', async () => {
    const s = scenarios.inspectorPrecompile;
    assert.ok(s.children.length > 0, 'the precompile scenario has a child');
    const child = s.children[0];
    const { loader, paths } = await load({ kind: 'transactionId', id: s.transactionId, nonce: child.nonce });
    assert.strictEqual(loader.sources.transactions.state, 'ready');
    const t = loader.sources.transactions;
    if (t.state === 'ready') assert.strictEqual(t.value.self?.consensus_timestamp, child.timestamp);
    assert.ok(
      !paths.includes(`/api/v1/contracts/results/${s.transactionId}/actions`),
      `no actions by the parent's id: ${paths.join(', ')}`,
    );
  });

  it('an older transaction recorded without actions: an empty list (as the real server, spec actions/empty-result), the rest shows', async () => {
    const s = scenarios.inspectorNoActions;
    assert.strictEqual(s.actions, 0);
    const { loader } = await load(ref(s.transactionId));
    const a = loader.sources.actions;
    assert.strictEqual(a.state, 'ready');
    if (a.state === 'ready') assert.strictEqual(a.value.actions.length, 0);
    assert.strictEqual(loader.sources.result.state, 'ready');
    assert.strictEqual(loader.sources.transactions.state, 'ready');
  });

  it('an unknown transaction: every source missing, no error', async () => {
    const { loader } = await load(ref('0.0.98765-1600000000-000000001'));
    for (const source of ['result', 'actions', 'transactions'] as const)
      assert.strictEqual(loader.sources[source].state, 'missing', source);
  });

  it('a failing endpoint fails only its source; Retry loads it again', async () => {
    const s = scenarios.inspectorDeepRevert;
    sb.addFault({ path: `/api/v1/contracts/results/${s.transactionId}/actions`, times: 3, fault: { status: 503 } });
    const { loader } = await load(ref(s.transactionId));
    const a = loader.sources.actions;
    assert.strictEqual(a.state, 'error');
    if (a.state === 'error') {
      assert.strictEqual(a.error.status, 503);
      assert.deepStrictEqual(a.error.serverMessages, ['Service unavailable']);
    }
    assert.strictEqual(loader.sources.result.state, 'ready');
    assert.strictEqual(loader.sources.transactions.state, 'ready');
    await loader.retry('actions');
    assert.strictEqual(loader.sources.actions.state, 'ready');
  });

  it('the deep revert decodes: the failing frames marked down to the deepest, the top-level error equal to the deep one', async () => {
    const s = scenarios.inspectorDeepRevert;
    const { loader } = await load(ref(s.transactionId));
    const { result, actions, transactions } = loader.sources;
    assert.ok(result.state === 'ready' && actions.state === 'ready' && transactions.state === 'ready');
    const trace = buildTrace(actions.value.actions, {});
    assert.ok(trace.deepestFailure >= 0);
    const deepest = trace.rows[trace.deepestFailure];
    assert.ok(deepest.failed && deepest.onFailurePath);
    assert.strictEqual(deepest.index, s.failingAction);
    assert.ok(deepest.depth >= 2, `the revert is deep in the trace (depth ${deepest.depth})`);
    assert.ok(
      trace.rows.some((r) => r.operation === 'DELEGATECALL'),
      'a delegate call',
    );
    assert.ok(
      trace.rows.some((r) => r.operation === 'STATICCALL'),
      'a static call',
    );
    assert.ok(
      trace.rows.some((r) => r.callType === 'PRECOMPILE'),
      'a precompile call',
    );
    // the top frame fails with the data the deepest frame reverted with
    assert.strictEqual(deepest.resultRaw, result.value.value.error_message);
    const overview = buildOverview(result.value.value, transactions.value.all, {});
    assert.strictEqual(overview.outcome, 'failure');
    assert.ok(overview.error, 'a decoded revert reason');
    assert.ok(Array.isArray(buildEvents(result.value.value.logs, {})));
    assert.ok(Array.isArray(buildStateChanges(result.value.value.state_changes, {})));
  });
});
