// A transaction's call frames (MirrorClient.contractActions) on the one paging model, against the sandbox over real
// HTTP: every page followed in index order, the `max` bound, the hostile next links (itself, A → B → A, another
// host), a failing later page, and the caller's cancellation in the middle of paging.
import * as assert from 'assert';
import { ApiError } from '../../src/api/errors';
import { HttpClient } from '../../src/api/http';
import { MirrorClient } from '../../src/api/mirror';
import { type Sandbox, startSandbox } from '../../sandbox/src/server';
import { serveCanned } from './helpers';

interface Scenario {
  transactionId: string;
  actions: number;
}

const PATH = (id: string) => `/api/v1/contracts/results/${id}/actions`;

describe('mirror client: call frames paged by the paging model', function () {
  this.timeout(30000);
  let sb: Sandbox;
  let mirror: MirrorClient;
  let s: Scenario;

  before(async () => {
    sb = await startSandbox({ port: 0 });
    mirror = new MirrorClient(sb.url, new HttpClient({ timeoutMs: 10000, backoffBaseMs: 1, backoffMaxMs: 2 }));
    const health = (await (await fetch(`${sb.url}/__sandbox/health`)).json()) as {
      notable: { inspector: Record<string, Scenario> };
    };
    s = health.notable.inspector.inspectorDeepRevert;
    assert.ok(s.actions >= 5, `the deep revert has several call frames (${s.actions})`);
  });
  after(() => sb.close());
  afterEach(() => {
    sb.clearFaults();
    sb.setHostile(false);
  });

  const requestsSince = (n: number) =>
    sb
      .requests()
      .slice(n)
      .filter((r) => r.url.startsWith(PATH(s.transactionId)));

  it('follows links.next across pages: the same frames, in index order, as one page of 100', async () => {
    const whole = await mirror.contractActions(s.transactionId);
    assert.ok(whole);
    assert.strictEqual(whole.actions.length, s.actions);
    assert.strictEqual(whole.pages, 1);
    const before = sb.requests().length;
    const paged = await mirror.contractActions(s.transactionId, undefined, { limit: 2 });
    assert.ok(paged);
    assert.deepStrictEqual(
      paged.actions.map((a) => a.index),
      whole.actions.map((a) => a.index),
    );
    assert.deepStrictEqual(
      paged.actions.map((a) => a.index),
      [...Array(s.actions).keys()],
    );
    const reqs = requestsSince(before);
    // a last full page has a next link to an empty page: one request more
    assert.strictEqual(paged.pages, reqs.length);
    assert.strictEqual(reqs.length, Math.floor(s.actions / 2) + 1);
    assert.ok(
      reqs.slice(1).every((r) => /index=gt(%3A|:)\d+/.test(r.url)),
      reqs.map((r) => r.url).join(', '),
    );
    assert.strictEqual(paged.truncated, false);
    assert.strictEqual(paged.stopped, undefined);
  });

  it('stops at max: the first frames, truncated, no page beyond the one that reached it', async () => {
    const before = sb.requests().length;
    const a = await mirror.contractActions(s.transactionId, undefined, { max: 3, limit: 2 });
    assert.ok(a);
    assert.deepStrictEqual(
      a.actions.map((x) => x.index),
      [0, 1, 2],
    );
    assert.strictEqual(a.truncated, true);
    assert.strictEqual(a.pages, 2);
    assert.strictEqual(requestsSince(before).length, 2);
  });

  it('a next link to the page itself, or back to a page already read (A → B → A), ends paging with the frames read once', async () => {
    for (const family of ['paging-self', 'paging-cycle'] as const) {
      sb.setHostile([family]);
      const before = sb.requests().length;
      const a = await mirror.contractActions(s.transactionId, undefined, { limit: 2 });
      assert.ok(a, family);
      const indexes = a.actions.map((x) => x.index);
      assert.deepStrictEqual(indexes, [...new Set(indexes)], `${family}: no frame twice`);
      assert.ok(a.actions.length >= 2 && a.actions.length < s.actions, `${family}: ${indexes.join(',')}`);
      assert.match(a.stopped ?? '', /call trace may be incomplete/, family);
      assert.ok(requestsSince(before).length <= 3, `${family}: ${requestsSince(before).length} requests`);
    }
  });

  it('a next link to another host is not followed: the first page kept, the reason said', async () => {
    sb.setHostile(['paging-remote']);
    const before = sb.requests().length;
    const a = await mirror.contractActions(s.transactionId, undefined, { limit: 2 });
    assert.ok(a);
    assert.deepStrictEqual(
      a.actions.map((x) => x.index),
      [0, 1],
    );
    assert.ok(a.stopped && /evil\.example|another|host/i.test(a.stopped), a.stopped);
    assert.strictEqual(requestsSince(before).length, 1);
  });

  it('a later page that keeps failing fails the call (nothing half read is returned as complete)', async () => {
    const first = await mirror.contractActions(s.transactionId, undefined, { limit: 2, max: 2 });
    assert.ok(first);
    // the rule matches by path prefix: let the first page through with a rule used up by it, then fail the rest
    sb.addFault({ path: PATH(s.transactionId), times: 1, fault: {} });
    sb.addFault({ path: PATH(s.transactionId), times: 3, fault: { status: 503 } });
    await assert.rejects(
      mirror.contractActions(s.transactionId, undefined, { limit: 2 }),
      (e: unknown) => e instanceof ApiError && e.kind !== 'cancelled',
    );
  });

  it('an unknown transaction is null (404), and a bad page size is refused before any request', async () => {
    assert.strictEqual(await mirror.contractActions('0.0.9-1700000000-000000001'), null);
    await assert.rejects(
      mirror.contractActions(s.transactionId, undefined, { limit: 0 }),
      (e: unknown) => e instanceof ApiError && e.kind === 'invalidInput',
    );
  });
});

describe('mirror client: call frames, cancelled while paging', () => {
  it('the caller\'s abort during the second page throws "cancelled" and fetches nothing more', async () => {
    const abort = new AbortController();
    const frame = (i: number) => ({
      call_depth: 0,
      call_type: 'CALL',
      index: i,
      from: '0.0.2',
      to: '0.0.3',
      result_data_type: 'OUTPUT',
      timestamp: '1700000000.000000001',
    });
    const tx = '0.0.2-1700000000-000000001';
    const base = `/api/v1/contracts/results/${tx}/actions`;
    const srv = await serveCanned((url) => {
      if (url === `${base}?limit=2&order=asc`)
        return {
          body: JSON.stringify({
            actions: [frame(0), frame(1)],
            links: { next: `${base}?limit=2&order=asc&index=gt:1` },
          }),
        };
      if (url.startsWith(`${base}?limit=2&order=asc&index=gt`)) {
        abort.abort();
        return {
          body: JSON.stringify({
            actions: [frame(2), frame(3)],
            links: { next: `${base}?limit=2&order=asc&index=gt:3` },
          }),
        };
      }
      return undefined;
    });
    try {
      const client = new MirrorClient(srv.url, new HttpClient({ timeoutMs: 10000, backoffBaseMs: 1, backoffMaxMs: 2 }));
      await assert.rejects(
        client.contractActions(tx, { signal: abort.signal }, { limit: 2 }),
        (e: unknown) => e instanceof ApiError && e.kind === 'cancelled',
      );
      assert.strictEqual(srv.hits.length, 2, srv.hits.join(', '));
    } finally {
      await srv.close();
    }
  });
});
