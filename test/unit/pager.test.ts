/**
 * The paging model under Node: first page, load more, loops (self link, A -> B -> A, the same rows under another
 * URL, empty runs), a refused next link, stale answers after a reload or a cancel, retry (of the first page and of
 * a later one), 206, the memory cap, read-ahead (its failure, a reload dropping it, the cap), reset.
 */
import * as assert from 'assert';
import { ApiError } from '../../src/api/errors';
import { HttpClient } from '../../src/api/http';
import { MirrorClient, type Page, type PageKey } from '../../src/api/mirror';
import type { Schedule } from '../../src/api/mirrorTypes';
import { itemKey, normalizeUrl, Pager, type PagerSource, stopSentence } from '../../src/api/pager';
import { serveCanned } from './helpers';

type Row = { schedule_id: string };
const BASE = 'https://mirror.example/api/v1/schedules';
const rows = (...ids: number[]): Row[] => ids.map((n) => ({ schedule_id: `0.0.${n}` }));
const ids = (p: Pager<Row>) => p.items.map((r) => Number(r.schedule_id.split('.')[2]));

interface Served {
  items: Row[];
  next?: string | null;
  partial?: boolean;
  nextRefused?: string;
}

/** A source over a map of URL -> page; counts the fetches; `gate` holds a URL's answer until released. */
function source(
  pages: Record<string, Served>,
  firstUrl = `${BASE}?limit=2`,
  key: PageKey = 'schedules',
  ignoreAbort = false,
) {
  const fetched: string[] = [];
  const gates = new Map<string, Array<() => void>>();
  const get = async (url: string, signal: AbortSignal): Promise<Page<Row>> => {
    fetched.push(url);
    const held = gates.get(url);
    if (held) await new Promise<void>((resolve) => held.push(resolve));
    if (signal.aborted && !ignoreAbort)
      throw new ApiError({ kind: 'cancelled', message: 'The request was cancelled.' });
    const s = pages[url];
    if (!s)
      throw new ApiError({
        kind: 'http',
        status: 503,
        message: `${url} could not answer (HTTP 503). Try again later.`,
      });
    return {
      items: s.items,
      next: s.next ?? null,
      partial: !!s.partial,
      url,
      key,
      tries: 1,
      ...(s.nextRefused ? { nextRefused: s.nextRefused } : {}),
    };
  };
  const src: PagerSource<Row> = {
    first: (signal) => get(firstUrl, signal),
    next: async (page, signal) => (page.next ? get(page.next, signal) : null),
  };
  return {
    src,
    fetched,
    hold: (url: string) => gates.set(url, []),
    release: (url: string) => {
      const g = gates.get(url) ?? [];
      gates.delete(url);
      g.forEach((r) => r());
    },
  };
}

describe('pager: the paging model', () => {
  it('first page, load more in order, the end', async () => {
    const s = source({
      [`${BASE}?limit=2`]: { items: rows(1, 2), next: `${BASE}?limit=2&schedule.id=gt:0.0.2` },
      [`${BASE}?limit=2&schedule.id=gt:0.0.2`]: { items: rows(3) },
    });
    const changes: Array<number | undefined> = [];
    const p = new Pager(s.src, (c) => changes.push(c.from));
    await p.reload();
    assert.deepStrictEqual([ids(p), p.hasMore, p.status], [[1, 2], true, 'idle']);
    await p.loadMore();
    assert.deepStrictEqual([ids(p), p.hasMore, p.stopped], [[1, 2, 3], false, undefined]);
    await p.loadMore();
    assert.strictEqual(s.fetched.length, 2, 'nothing after the last page');
    assert.deepStrictEqual(changes, [0, 0, undefined, 2]);
  });

  it('a next link to the page itself (parameters in another order) stops with a notice, rows never doubled', async () => {
    const self = `${BASE}?limit=2`;
    const s = source({ [self]: { items: rows(1, 2), next: 'https://MIRROR.example:443/api/v1/schedules/?limit=2#x' } });
    const p = new Pager(s.src);
    await p.reload();
    assert.deepStrictEqual(ids(p), [1, 2]);
    assert.strictEqual(p.hasMore, false);
    assert.strictEqual(p.stopped?.kind, 'loop');
    assert.match(
      stopSentence(p.stopped!),
      /leads back to a page already loaded \(https:\/\/MIRROR\.example:443\/api\/v1\/schedules\/\?limit=2#x\); paging stopped here\./,
    );
    await p.loadMore();
    await p.loadUntil(1000);
    assert.deepStrictEqual(ids(p), [1, 2]);
    assert.deepStrictEqual(s.fetched, [self], 'the loop link was never requested');
  });

  it('a cycle A -> B -> A stops after B; loadUntil ends', async () => {
    const a = `${BASE}?limit=2&order=asc`;
    const b = `${BASE}?limit=2&schedule.id=gt:0.0.2&order=asc`;
    const s = source(
      { [a]: { items: rows(1, 2), next: b }, [b]: { items: rows(3, 4), next: `${BASE}?order=asc&limit=2` } },
      a,
    );
    const p = new Pager(s.src);
    await p.loadUntil(Number.MAX_SAFE_INTEGER);
    assert.deepStrictEqual(ids(p), [1, 2, 3, 4]);
    assert.deepStrictEqual([p.hasMore, p.stopped?.kind, p.status], [false, 'loop', 'idle']);
    assert.deepStrictEqual(s.fetched, [a, b]);
  });

  it('the same rows under another URL: repeated rows dropped, a page of only repeats stops paging', async () => {
    const u = (n: number) => `${BASE}?limit=3&n=${n}`;
    const s = source(
      {
        [u(1)]: { items: rows(1, 2, 2, 3), next: u(2) }, // a duplicate inside a page too
        [u(2)]: { items: rows(3, 4, 5), next: u(3) }, // overlaps by one
        [u(3)]: { items: rows(4, 5), next: u(4) }, // nothing new
        [u(4)]: { items: rows(6) },
      },
      u(1),
    );
    const p = new Pager(s.src);
    await p.loadUntil(1000);
    assert.deepStrictEqual(ids(p), [1, 2, 3, 4, 5]);
    assert.deepStrictEqual([p.hasMore, p.stopped?.kind], [false, 'repeat']);
    assert.match(stopSentence(p.stopped!), /rows that are already shown/);
    assert.deepStrictEqual(s.fetched, [u(1), u(2), u(3)]);
  });

  it('an empty first page with a next says so; a long run of empty pages stops', async () => {
    const u = (n: number) => `${BASE}?limit=2&n=${n}`;
    const pages: Record<string, Served> = {};
    for (let i = 0; i < 50; i++) pages[u(i)] = { items: [], next: u(i + 1) };
    const s = source(pages, u(0));
    const p = new Pager(s.src, undefined, { maxEmptyPages: 5 });
    await p.reload();
    assert.deepStrictEqual([p.items.length, p.hasMore, p.emptyPage, p.loadedOnce], [0, true, true, true]);
    await p.loadUntil(1);
    assert.deepStrictEqual([p.hasMore, p.stopped?.kind, p.stopped?.count], [false, 'emptyRun', 5]);
    assert.strictEqual(s.fetched.length, 5);
    assert.strictEqual(p.emptyPage, false, 'no "more may follow" once stopped');
  });

  it('a refused next link keeps the rows and is the reason paging stopped (no retry loop)', async () => {
    const s = source({
      [`${BASE}?limit=2`]: {
        items: rows(1, 2),
        nextRefused:
          'The mirror node sent a next-page link to https://evil.example/api/v1/x, outside https://mirror.example/api/v1; it was not followed.',
      },
    });
    const p = new Pager(s.src);
    await p.reload();
    assert.deepStrictEqual(
      [ids(p), p.status, p.error, p.hasMore, p.stopped?.kind],
      [[1, 2], 'idle', undefined, false, 'refused'],
    );
    assert.match(stopSentence(p.stopped!), /evil\.example.*not followed\./);
    await p.retry();
    assert.deepStrictEqual(
      [ids(p), s.fetched],
      [[1, 2], [`${BASE}?limit=2`]],
      'retry has no failed page to fetch: nothing is requested',
    );
  });

  it('a reload cancels the request in flight and drops its late answer, even when the source ignores the abort', async () => {
    const first = `${BASE}?limit=2`;
    const s = source(
      { [first]: { items: rows(1, 2), next: `${BASE}?n=2` }, [`${BASE}?n=2`]: { items: rows(3) } },
      first,
      'schedules',
      true,
    );
    const p = new Pager(s.src);
    await p.reload();
    s.hold(`${BASE}?n=2`);
    const more = p.loadMore();
    assert.strictEqual(p.status, 'loadingMore');
    const again = p.reload();
    s.release(`${BASE}?n=2`);
    await Promise.all([more, again]);
    assert.deepStrictEqual([ids(p), p.status], [[1, 2], 'idle'], 'the old load more did not append to the new list');
    // an answer to an older reload is dropped
    s.hold(first);
    const slow = p.reload();
    const fast = p.reload();
    s.release(first);
    await Promise.all([slow, fast]);
    assert.deepStrictEqual(ids(p), [1, 2]);
  });

  it('an error keeps what was loaded; retry fetches the failed page again', async () => {
    const pages: Record<string, Served> = { [`${BASE}?limit=2`]: { items: rows(1, 2), next: `${BASE}?n=2` } };
    const s = source(pages);
    const p = new Pager(s.src);
    await p.retry(); // nothing loaded: the first page
    await p.loadMore();
    assert.deepStrictEqual([ids(p), p.status], [[1, 2], 'error']);
    assert.match(String((p.error as Error).message), /503/);
    assert.strictEqual(p.hasMore, true);
    pages[`${BASE}?n=2`] = { items: rows(3) };
    await p.retry();
    assert.deepStrictEqual([ids(p), p.status, p.error], [[1, 2, 3], 'idle', undefined]);
    assert.deepStrictEqual(s.fetched, [`${BASE}?limit=2`, `${BASE}?n=2`, `${BASE}?n=2`]);
  });

  it('206 marks the list partial; the memory cap stops loading', async () => {
    const u = (n: number) => `${BASE}?n=${n}`;
    const pages: Record<string, Served> = {};
    for (let i = 0; i < 10; i++)
      pages[u(i)] = { items: rows(i * 3 + 1, i * 3 + 2, i * 3 + 3), next: u(i + 1), partial: i === 1 };
    const s = source(pages, u(0));
    const p = new Pager(s.src, undefined, { maxEntries: 7 });
    await p.reload();
    assert.strictEqual(p.partial, false);
    while (p.hasMore && p.status === 'idle') await p.loadMore();
    assert.deepStrictEqual(ids(p), [1, 2, 3, 4, 5, 6, 7]);
    assert.deepStrictEqual([p.capped, p.hasMore, p.partial], [true, false, true]);
    assert.strictEqual(s.fetched.length, 3);
  });

  it('read-ahead fetches the next page once and hands it to load more', async () => {
    const u = (n: number) => `${BASE}?n=${n}`;
    const s = source(
      { [u(0)]: { items: rows(1), next: u(1) }, [u(1)]: { items: rows(2), next: u(2) }, [u(2)]: { items: rows(3) } },
      u(0),
    );
    const p = new Pager(s.src, undefined, { readAhead: true });
    await p.reload();
    assert.deepStrictEqual(s.fetched, [u(0), u(1)], 'page 2 asked for ahead');
    await p.loadMore();
    assert.deepStrictEqual(ids(p), [1, 2]);
    assert.deepStrictEqual(s.fetched, [u(0), u(1), u(2)], 'page 2 not fetched twice; page 3 ahead');
    await p.loadMore();
    assert.deepStrictEqual([ids(p), p.hasMore, s.fetched.length], [[1, 2, 3], false, 3]);
  });

  it('a failed read-ahead is the error of the load more that wanted it; retry fetches that page again', async () => {
    const u = (n: number) => `${BASE}?n=${n}`;
    const pages: Record<string, Served> = { [u(0)]: { items: rows(1), next: u(1) } };
    const s = source(pages, u(0));
    const p = new Pager(s.src, undefined, { readAhead: true });
    await p.reload();
    assert.deepStrictEqual(s.fetched, [u(0), u(1)], 'page 2 asked for ahead (and failed)');
    assert.strictEqual(p.status, 'idle', 'a failed read-ahead shows nothing by itself');
    await p.loadMore();
    assert.deepStrictEqual(
      [ids(p), p.status, s.fetched.length],
      [[1], 'error', 2],
      'its failure, without a second request',
    );
    pages[u(1)] = { items: rows(2) };
    await p.retry();
    assert.deepStrictEqual([ids(p), p.status, p.hasMore], [[1, 2], 'idle', false]);
    assert.deepStrictEqual(s.fetched, [u(0), u(1), u(1)]);
  });

  it('a reload drops the read-ahead page of the old list', async () => {
    const u = (n: number) => `${BASE}?n=${n}`;
    const s = source({ [u(0)]: { items: rows(1), next: u(1) }, [u(1)]: { items: rows(2) } }, u(0));
    const p = new Pager(s.src, undefined, { readAhead: true });
    s.hold(u(1));
    await p.reload();
    const again = p.reload(); // page 2 of the first list is still on its way
    s.release(u(1));
    await again;
    await p.loadMore();
    assert.deepStrictEqual(ids(p), [1, 2]);
    assert.deepStrictEqual(s.fetched, [u(0), u(1), u(0), u(1)], 'page 2 asked for again for the new list');
  });

  it('read-ahead stops at the memory bound', async () => {
    const u = (n: number) => `${BASE}?n=${n}`;
    const s = source({ [u(0)]: { items: rows(1, 2), next: u(1) }, [u(1)]: { items: rows(3, 4), next: u(2) } }, u(0));
    const p = new Pager(s.src, undefined, { readAhead: true, maxEntries: 2 });
    await p.reload();
    assert.deepStrictEqual([ids(p), p.capped, p.hasMore], [[1, 2], true, false]);
    assert.deepStrictEqual(s.fetched, [u(0)], 'nothing read ahead past the bound');
  });

  it('ensureLoaded loads once; reset forgets the rows and the next ensureLoaded fetches again', async () => {
    const s = source({ [`${BASE}?limit=2`]: { items: rows(1, 2) } });
    const changes: Array<number | undefined> = [];
    const p = new Pager(s.src, (c) => changes.push(c.from));
    assert.strictEqual(p.started, false);
    await p.ensureLoaded();
    await p.ensureLoaded();
    assert.deepStrictEqual([ids(p), s.fetched.length, p.started, p.loadedOnce], [[1, 2], 1, true, true]);
    p.reset();
    assert.deepStrictEqual([p.items, p.started, p.loadedOnce, changes.at(-1)], [[], false, false, 0]);
    await p.ensureLoaded();
    assert.deepStrictEqual([ids(p), s.fetched.length], [[1, 2], 2]);
  });

  it('cancel drops the answer in flight and leaves the list idle; load more while loading asks once', async () => {
    const first = `${BASE}?limit=2`;
    const s = source(
      { [first]: { items: rows(1, 2), next: `${BASE}?n=2` }, [`${BASE}?n=2`]: { items: rows(3) } },
      first,
      'schedules',
      true,
    );
    const p = new Pager(s.src);
    await p.reload();
    s.hold(`${BASE}?n=2`);
    const a = p.loadMore();
    const b = p.loadMore();
    assert.strictEqual(p.loading, true);
    p.cancel();
    assert.strictEqual(p.status, 'idle');
    s.release(`${BASE}?n=2`);
    await Promise.all([a, b]);
    assert.deepStrictEqual([ids(p), p.status, p.error], [[1, 2], 'idle', undefined], 'the late page was dropped');
    assert.strictEqual(s.fetched.filter((u) => u.endsWith('n=2')).length, 1, 'the second load more did not ask again');
    await p.loadMore();
    assert.deepStrictEqual(ids(p), [1, 2, 3], 'load more works after a cancel');
  });

  it('a failed first page is an error with nothing loaded; retry asks for the first page again', async () => {
    const first = `${BASE}?limit=2`;
    const pages: Record<string, Served> = {};
    const s = source(pages, first);
    const p = new Pager(s.src);
    await p.reload();
    assert.deepStrictEqual([p.items, p.status, p.loadedOnce, p.hasMore], [[], 'error', false, false]);
    pages[first] = { items: rows(1) };
    await p.retry();
    assert.deepStrictEqual([ids(p), p.status], [[1], 'idle']);
    assert.deepStrictEqual(s.fetched, [first, first]);
  });

  it('prepend adds new rows on top, and a later page does not bring them again', async () => {
    const s = source({
      [`${BASE}?limit=2`]: { items: rows(5, 4), next: `${BASE}?n=2` },
      [`${BASE}?n=2`]: { items: rows(6, 3) },
    });
    const p = new Pager(s.src);
    await p.reload();
    p.prepend(rows(6, 5));
    assert.deepStrictEqual(ids(p), [6, 5, 4]);
    await p.loadMore();
    assert.deepStrictEqual(ids(p), [6, 5, 4, 3]);
  });

  it('normalises URLs and keys items by kind', () => {
    assert.strictEqual(
      normalizeUrl('https://H.example:443/api/v1/x/?b=2&a=1&a=0#f'),
      normalizeUrl('https://h.example/api/v1/x?a=0&a=1&b=2'),
    );
    assert.strictEqual(
      normalizeUrl('/api/v1/x?timestamp=lt%3A1.2', 'https://h.example'),
      normalizeUrl('https://h.example/api/v1/x?timestamp=lt:1.2'),
    );
    assert.notStrictEqual(
      normalizeUrl('https://h.example/api/v1/x?a=1'),
      normalizeUrl('https://h.example/api/v1/x?a=2'),
    );
    assert.notStrictEqual(normalizeUrl('http://h.example/api/v1/x'), normalizeUrl('https://h.example/api/v1/x'));
    assert.strictEqual(itemKey('results', { timestamp: '1.5', nonce: 2n, hash: '0xab' }), '1.5|2|0xab');
    assert.strictEqual(itemKey('schedules', { schedule_id: '0.0.9' }), '0.0.9');
    assert.strictEqual(
      itemKey('transactions', { consensus_timestamp: '1.5', transaction_id: '0.0.1-1-1' }),
      '1.5|0.0.1-1-1',
    );
    assert.strictEqual(itemKey('transactions', { foo: 1 }), undefined, 'no key: never merged');
  });
});

describe('pager: against a mirror over HTTP', () => {
  it('a server whose next link points at the same page (and one that cycles) is paged once', async () => {
    const sched = (n: number) => ({ schedule_id: `0.0.${n}` });
    const srv = await serveCanned((url) => {
      if (url === '/api/v1/schedules?limit=2')
        return {
          body: JSON.stringify({ schedules: [sched(1), sched(2)], links: { next: '/api/v1/schedules?limit=2' } }),
        };
      if (url === '/api/v1/schedules?limit=3')
        return {
          body: JSON.stringify({
            schedules: [sched(1)],
            links: { next: '/api/v1/schedules?limit=3&schedule.id=gt:0.0.1' },
          }),
        };
      if (url === '/api/v1/schedules?limit=3&schedule.id=gt:0.0.1')
        return { body: JSON.stringify({ schedules: [sched(2)], links: { next: '/api/v1/schedules?limit=3' } }) };
      return undefined;
    });
    try {
      const mirror = new MirrorClient(srv.url, new HttpClient({ tries: 1 }));
      for (const limit of [2, 3]) {
        const p = new Pager<Schedule>(
          {
            first: (signal) => mirror.schedules({ limit }, { signal }),
            next: (page, signal) => mirror.next(page, { signal }),
          },
          undefined,
          { readAhead: true },
        );
        await p.loadUntil(10_000);
        assert.deepStrictEqual(
          p.items.map((x) => x.schedule_id),
          ['0.0.1', '0.0.2'],
          `limit ${limit}`,
        );
        assert.strictEqual(p.stopped?.kind, 'loop');
      }
      assert.deepStrictEqual(srv.hits, [
        '/api/v1/schedules?limit=2',
        '/api/v1/schedules?limit=3',
        '/api/v1/schedules?limit=3&schedule.id=gt:0.0.1',
      ]);
    } finally {
      await srv.close();
    }
  });
});
