/**
 * NFT history, the plain parts: row model, CSV/JSON export, selection parsing, validation of the webview's
 * messages and saved state, and the page-by-page loader against the in-process sandbox.
 */
import * as assert from 'assert';
import { HttpClient } from '../../src/api/http';
import { parseJson } from '../../src/api/json';
import { MirrorClient } from '../../src/api/mirror';
import type { NftTransaction } from '../../src/api/mirrorTypes';
import { csvCell, exportFileName, toCsv, toJson } from '../../src/features/nftHistory/export';
import { NftHistory, queryFilters } from '../../src/features/nftHistory/history';
import {
  checkQueryShape,
  type NftQuery,
  parsePanelState,
  parseWebviewMessage,
} from '../../src/features/nftHistory/protocol';
import { localTime, rowLabel, summarize, toRow, typeIcon, utcTime } from '../../src/features/nftHistory/rows';
import { parseNftSelection } from '../../src/features/nftHistory/selection';
import { isEntityId, isTransactionId } from '../../src/api/validation';
import { type Sandbox, startSandbox } from '../../sandbox/src/server';
import { serveCanned } from './helpers';

const tx = (o: Partial<Record<keyof NftTransaction, unknown>>): NftTransaction =>
  ({
    consensus_timestamp: '1790000000.123456789',
    is_approval: false,
    nonce: 0,
    receiver_account_id: '0.0.2',
    sender_account_id: '0.0.1',
    transaction_id: '0.0.1-1789999990-000000001',
    type: 'CRYPTOTRANSFER',
    ...o,
  }) as NftTransaction;

/** Every page up to the cap, a stop or an error: the first page, then "Load more" while there is more. */
async function loadEverything(h: NftHistory): Promise<void> {
  if (!h.loadedOnce) await h.reload();
  while (h.hasMore && h.status === 'idle') await h.loadMore();
}

describe('NFT history: row model', () => {
  it('keeps every value as text, big nonces with every digit, unknown types as they are', () => {
    const r = toRow(tx({ nonce: 9007199254740997n, type: 'TOKENTELEPORT' }) as unknown as Record<string, unknown>);
    assert.deepStrictEqual(r, {
      ts: '1790000000.123456789',
      type: 'TOKENTELEPORT',
      sender: '0.0.1',
      receiver: '0.0.2',
      approval: false,
      nonce: '9007199254740997',
      transactionId: '0.0.1-1789999990-000000001',
    });
    assert.strictEqual(typeIcon('TOKENTELEPORT'), 'question');
    assert.strictEqual(summarize(r), undefined);
  });

  it('tolerates odd shapes: objects become empty text, long strings are cut, approval only when true', () => {
    const r = toRow({
      consensus_timestamp: { x: 1 },
      type: 'x'.repeat(500),
      is_approval: 'true',
      nonce: null,
      sender_account_id: null,
      transaction_id: 5,
    });
    assert.strictEqual(r.ts, '');
    assert.strictEqual(r.type.length, 200);
    assert.strictEqual(r.approval, false);
    assert.strictEqual(r.nonce, '');
    assert.strictEqual(r.sender, null);
    assert.strictEqual(r.receiver, null);
    assert.strictEqual(r.transactionId, '5');
  });

  it('mint says "minted to X", burn "burned from X", wipe "wiped from X"', () => {
    const mint = toRow(tx({ type: 'TOKENMINT', sender_account_id: null, receiver_account_id: '0.0.4815001' }) as never);
    assert.deepStrictEqual(summarize(mint), { text: 'minted to', account: '0.0.4815001', icon: 'sparkle' });
    const burn = toRow(tx({ type: 'TOKENBURN', sender_account_id: '0.0.4815001', receiver_account_id: null }) as never);
    assert.deepStrictEqual(summarize(burn), { text: 'burned from', account: '0.0.4815001', icon: 'flame' });
    const wipe = toRow(tx({ type: 'TOKENWIPE', sender_account_id: '0.0.7', receiver_account_id: null }) as never);
    assert.strictEqual(summarize(wipe)?.text, 'wiped from');
    assert.match(rowLabel(mint), /TOKENMINT, minted to 0\.0\.4815001, transaction 0\.0\.1-/);
    assert.match(rowLabel(toRow(tx({ is_approval: true }) as never)), /from 0\.0\.1, to 0\.0\.2, approved transfer/);
  });

  it('formats consensus timestamps in local time and UTC with nanoseconds', () => {
    const d = new Date(1790000000123);
    const pad = (n: number) => String(n).padStart(2, '0');
    assert.strictEqual(
      localTime('1790000000.123456789'),
      `${d.getFullYear()}-${pad(d.getMonth() + 1)}-${pad(d.getDate())} ${pad(d.getHours())}:${pad(d.getMinutes())}:${pad(d.getSeconds())}`,
    );
    assert.strictEqual(utcTime('1790000000.123456789'), '2026-09-21T14:13:20.123456789Z');
    assert.strictEqual(utcTime('1790000000'), '2026-09-21T14:13:20.000000000Z');
    assert.strictEqual(localTime('<img src=x>'), '');
    assert.strictEqual(localTime('2026-10-01'), '', 'only consensus timestamps, no date strings');
    assert.strictEqual(utcTime('2026-10-01T00:00:00Z'), '');
  });
});

describe('NFT history: export', () => {
  it('CSV cells: quotes doubled, commas and line breaks quoted, formulas neutralised', () => {
    assert.strictEqual(csvCell('plain'), 'plain');
    assert.strictEqual(csvCell('say "hi"'), '"say ""hi"""');
    assert.strictEqual(csvCell('a,b'), '"a,b"');
    assert.strictEqual(csvCell('a\nb'), '"a\nb"');
    assert.strictEqual(csvCell('=HYPERLINK("http://x")'), `"'=HYPERLINK(""http://x"")"`);
    assert.strictEqual(csvCell('+1'), "'+1");
    assert.strictEqual(csvCell('-1+2'), "'-1+2");
    assert.strictEqual(csvCell('@SUM(A1)'), "'@SUM(A1)");
    assert.strictEqual(csvCell('\tcmd'), "'\tcmd");
    assert.strictEqual(csvCell(''), '');
  });

  it('CSV file: header, one line per entry, CRLF, hostile values guarded', () => {
    const csv = toCsv([
      tx({ nonce: 9007199254740997n }),
      tx({ type: '=cmd|" /C calc"!A0', sender_account_id: null, receiver_account_id: '@evil', is_approval: true }),
    ]);
    const lines = csv.split('\r\n');
    assert.strictEqual(
      lines[0],
      'consensus_timestamp,time_utc,type,sender_account_id,receiver_account_id,is_approval,nonce,transaction_id',
    );
    assert.strictEqual(
      lines[1],
      '1790000000.123456789,2026-09-21T14:13:20.123456789Z,CRYPTOTRANSFER,0.0.1,0.0.2,false,9007199254740997,0.0.1-1789999990-000000001',
    );
    assert.strictEqual(
      lines[2],
      `1790000000.123456789,2026-09-21T14:13:20.123456789Z,"'=cmd|"" /C calc""!A0",,'@evil,true,0,0.0.1-1789999990-000000001`,
    );
    assert.strictEqual(lines.length, 4);
    assert.strictEqual(lines[3], '');
  });

  it('JSON keeps the entries as sent, big integers with every digit, and where they came from', () => {
    const text = toJson([tx({ nonce: 9007199254740997n })], {
      tokenId: '0.0.4815162',
      serial: '9223372036854775807',
      network: 'custom',
      mirrorUrl: 'http://127.0.0.1:1',
      query: { order: 'desc', limit: 100 },
      partial: true,
      complete: false,
      exportedAt: '2026-11-01T00:00:00.000Z',
    });
    assert.match(text, /"serial_number": 9223372036854775807,/);
    assert.match(text, /"nonce": 9007199254740997/);
    const doc = parseJson(text) as Record<string, unknown>;
    assert.strictEqual(doc.count, 1);
    assert.strictEqual(doc.partial, true);
    assert.strictEqual(doc.complete, false);
    assert.strictEqual(doc.token_id, '0.0.4815162');
    assert.strictEqual(exportFileName('0.0.5', '7', 'csv'), 'nft-0.0.5-7.csv');
  });
});

describe('NFT history: selection parsing', () => {
  it('reads a token id alone or with a serial after / or #', () => {
    assert.deepStrictEqual(parseNftSelection('0.0.4815162'), { tokenId: '0.0.4815162' });
    assert.deepStrictEqual(parseNftSelection('0.0.4815162/7'), { tokenId: '0.0.4815162', serial: '7' });
    assert.deepStrictEqual(parseNftSelection('0.0.4815162#7'), { tokenId: '0.0.4815162', serial: '7' });
    assert.deepStrictEqual(parseNftSelection(' "0.0.4815162 #13" '), { tokenId: '0.0.4815162', serial: '13' });
    assert.deepStrictEqual(parseNftSelection('`0.0.4815162 / 9223372036854775807`'), {
      tokenId: '0.0.4815162',
      serial: '9223372036854775807',
    });
    assert.deepStrictEqual(parseNftSelection('0.0.0010/007'), { tokenId: '0.0.10', serial: '7' });
  });

  it("takes ids in the mirror node's ranges (num up to 2^38-1, realm up to 65535, shard up to 1023), no more", () => {
    assert.deepStrictEqual(parseNftSelection('0.0.274877906943/1'), { tokenId: '0.0.274877906943', serial: '1' });
    assert.deepStrictEqual(parseNftSelection('1023.65535.5'), { tokenId: '1023.65535.5' });
    for (const s of ['0.0.274877906944', '0.70000.1', '1024.0.1'])
      assert.strictEqual(parseNftSelection(s), undefined, s);
    const state = (tokenId: string) =>
      parsePanelState({ v: 1, tokenId, serial: '1', query: { order: 'desc', limit: 25 } });
    assert.ok(state('0.0.274877906943').ok, 'a restored panel of a big token id');
    assert.ok(!state('0.70000.1').ok);
    assert.ok(
      isEntityId('0.0.274877906943') && !isEntityId('0.0.274877906944') && !isEntityId('0.0.7 ') && !isEntityId('7'),
    );
    assert.ok(isTransactionId('0.0.274877906943-1700000000-123456789') && !isTransactionId('0.70000.1-1700000000-1'));
  });

  it('refuses other text, serial 0 and serials past 2^63-1', () => {
    for (const s of [
      '',
      'hello',
      '4815162',
      '0.0.4815162/0',
      '0.0.4815162/9223372036854775808',
      '0.0.4815162/-1',
      '0.0.1/2/3',
      '0.0.x',
      'a 0.0.5',
    ]) {
      assert.strictEqual(parseNftSelection(s), undefined, s);
    }
  });
});

describe('NFT history: messages from the webview', () => {
  const okMsg = (m: unknown) => {
    const r = parseWebviewMessage(m);
    assert.ok(r.ok, r.ok ? '' : r.reason);
    return r.ok ? r.value : undefined;
  };
  const badMsg = (m: unknown, re?: RegExp) => {
    const r = parseWebviewMessage(m);
    assert.ok(!r.ok, `accepted ${JSON.stringify(m)}`);
    if (re && !r.ok) assert.match(r.reason, re);
  };

  it('accepts the known messages with their exact shapes', () => {
    assert.deepStrictEqual(okMsg({ type: 'ready' }), { type: 'ready' });
    assert.deepStrictEqual(okMsg({ type: 'loadMore' }), { type: 'loadMore' });
    assert.deepStrictEqual(okMsg({ type: 'open', target: 'account', id: '0.0.5' }), {
      type: 'open',
      target: 'account',
      id: '0.0.5',
    });
    assert.deepStrictEqual(okMsg({ type: 'export', format: 'json' }), { type: 'export', format: 'json' });
    assert.deepStrictEqual(
      okMsg({ type: 'setQuery', query: { order: 'asc', limit: 25, from: { op: 'gt', value: '1' } } }),
      { type: 'setQuery', query: { order: 'asc', limit: 25, from: { op: 'gt', value: '1' } } },
    );
    assert.deepStrictEqual(okMsg({ type: 'rendered', total: 3, domRows: 3, first: 0, last: 2 }), {
      type: 'rendered',
      total: 3,
      domRows: 3,
      first: 0,
      last: 2,
    });
  });

  it('refuses unknown types, extra fields, wrong types and values', () => {
    badMsg(null, /not an object/);
    badMsg('ready', /not an object/);
    badMsg([{ type: 'ready' }]);
    badMsg({ type: 'navigate', url: 'https://evil.example' }, /unknown type/);
    badMsg({ type: 'ready', extra: 1 }, /unexpected field extra/);
    badMsg({ type: 'open', target: 'url', id: 'https://evil.example' }, /target/);
    badMsg({ type: 'open', target: 'account', id: 5 });
    badMsg({ type: 'open', target: 'account', id: 'x'.repeat(201) });
    badMsg({ type: 'export', format: 'xlsx' });
    badMsg({ type: 'setQuery', query: { order: 'up', limit: 25 } }, /order/);
    badMsg({ type: 'setQuery', query: { order: 'asc', limit: 101 } }, /limit/);
    badMsg({ type: 'setQuery', query: { order: 'asc', limit: 2.5 } }, /limit/);
    badMsg({ type: 'setQuery', query: { order: 'asc', limit: 25, from: { op: 'lt', value: '1' } } }, /from\.op/);
    badMsg({ type: 'setQuery', query: { order: 'asc', limit: 25, to: { op: 'lte', value: 1 } } }, /to\.value/);
    badMsg({ type: 'setQuery', query: { order: 'asc', limit: 25, constructor: 1 } }, /unexpected field/);
    badMsg({ type: 'rendered', total: -1, domRows: 0, first: 0, last: 0 });
    assert.ok(!checkQueryShape(undefined).ok);
  });

  it('a saved panel state is checked before a restore: ids, serial range, normalised timestamps', () => {
    const good = {
      v: 1,
      tokenId: '0.0.4815162',
      serial: '9223372036854775807',
      query: { order: 'desc', limit: 100, to: { op: 'lt', value: '1790000000.5' } },
      loaded: 300,
      scrollTop: 2400,
      activeRow: 100,
      activeCol: 9,
    };
    const r = parsePanelState(good);
    assert.ok(r.ok);
    if (r.ok) {
      assert.strictEqual(r.value.activeCol, 6, 'clamped to the last column');
      assert.strictEqual(r.value.loaded, 300);
    }
    for (const bad of [
      undefined,
      { ...good, v: 2 },
      { ...good, tokenId: '<img>' },
      { ...good, serial: '0' },
      { ...good, serial: '9223372036854775808' },
      { ...good, query: { order: 'desc', limit: 100, from: { op: 'gte', value: '2026-10-01' } } },
      { ...good, query: null },
    ])
      assert.ok(!parsePanelState(bad).ok, JSON.stringify(bad));
    const odd = parsePanelState({ ...good, scrollTop: -5, loaded: 'x' });
    assert.ok(odd.ok && odd.value.scrollTop === 0 && odd.value.loaded === 0);
  });
});

describe('NFT history: loading page by page (sandbox)', function () {
  this.timeout(30000);
  let sb: Sandbox;
  let mirror: MirrorClient;
  before(async () => {
    sb = await startSandbox({ port: 0 });
    mirror = new MirrorClient(sb.url, new HttpClient({ tries: 1 }));
  });
  after(() => sb.close());

  const make = (
    serial: string,
    query: NftQuery = { order: 'desc', limit: 100 },
    max = 100_000,
    changes: Array<number | undefined> = [],
  ) =>
    new NftHistory(
      () => mirror,
      '0.0.4815162',
      serial,
      query,
      max,
      (c) => changes.push(c.from),
    );

  it('first page, then Load more follows links.next and appends in order', async () => {
    const changes: Array<number | undefined> = [];
    const h = make('7', { order: 'desc', limit: 100 }, 100_000, changes);
    await h.reload();
    assert.strictEqual(h.items.length, 100);
    assert.ok(h.hasMore);
    assert.strictEqual(h.status, 'idle');
    await h.loadMore();
    assert.strictEqual(h.items.length, 200);
    const ts = h.items.map((i) => i.consensus_timestamp);
    assert.deepStrictEqual(ts, [...ts].sort().reverse(), 'newest first across pages');
    assert.strictEqual(new Set(ts).size, 200);
    assert.deepStrictEqual(changes, [0, 0, undefined, 100], 'reset, first rows, loading more, rows appended at 100');
  });

  it('loads all 12,345 entries of the long history, and stops at the memory cap', async () => {
    const all = make('7');
    await loadEverything(all);
    assert.strictEqual(all.items.length, 12_345);
    assert.ok(!all.hasMore && !all.capped);
    const capped = make('7', { order: 'asc', limit: 100 }, 1050);
    await loadEverything(capped);
    assert.strictEqual(capped.items.length, 1050);
    assert.ok(capped.capped && !capped.hasMore);
    assert.strictEqual(capped.items[0].type, 'TOKENMINT');
  });

  it('206 sets partial; an unknown NFT is an empty list; filters go out as timestamp=op:value', async () => {
    const p = make('13');
    await p.reload();
    assert.ok(p.partial && p.items.length > 0);
    const none = make('39999');
    await none.reload();
    assert.strictEqual(none.items.length, 0);
    assert.ok(none.loadedOnce && !none.hasMore && none.status === 'idle');
    const all = make('2');
    await all.reload();
    const mid = all.items[4].consensus_timestamp;
    const q = { order: 'asc' as const, limit: 25, from: { op: 'gt' as const, value: mid } };
    assert.deepStrictEqual(queryFilters(q), [{ op: 'gt', value: mid }]);
    const f = make('2', q);
    await f.reload();
    assert.strictEqual(f.items.length, 4);
    assert.ok(f.items.every((i) => i.consensus_timestamp > mid));
  });

  it('an error keeps what is loaded; retry fetches the failed page again; an older answer is dropped', async () => {
    const h = make('7');
    await h.reload();
    sb.addFault({ path: '/api/v1/tokens/', times: 1, fault: { status: 503 } });
    await h.loadMore();
    assert.strictEqual(h.status, 'error');
    assert.match((h.error as Error | undefined)?.message ?? '', /503/);
    assert.strictEqual(h.items.length, 100);
    await h.retry();
    assert.strictEqual(h.status, 'idle');
    assert.strictEqual(h.items.length, 200);

    sb.addFault({ path: '/api/v1/tokens/', times: 1, fault: { delayMs: 300 } });
    const slow = h.reload();
    h.query = { order: 'asc', limit: 25 };
    await h.reload();
    await slow;
    assert.strictEqual(h.items.length, 25);
    assert.strictEqual(h.items[0].type, 'TOKENMINT', 'the newer (asc) query won');
  });
});

describe('NFT history: a hostile mirror node cannot make the list grow forever', function () {
  this.timeout(20000);
  const PATH = '/api/v1/tokens/0.0.4815162/nfts/1/transactions';
  const entry = (n: number) =>
    tx({
      consensus_timestamp: `17900000${String(n).padStart(2, '0')}.000000001`,
      transaction_id: `0.0.1-17899999${String(n).padStart(2, '0')}-000000001`,
    });
  const body = (entries: NftTransaction[], next: string | null) => ({
    body: JSON.stringify({ transactions: entries, links: { next } }),
  });

  async function history(routes: (url: string) => { body: string } | undefined, max = 1000) {
    const srv = await serveCanned(routes);
    const mirror = new MirrorClient(srv.url, new HttpClient({ tries: 1 }));
    const h = new NftHistory(
      () => mirror,
      '0.0.4815162',
      '1',
      { order: 'desc', limit: 2 },
      max,
      () => undefined,
    );
    return { srv, h };
  }

  it('a next link to the page itself: rows once, paging stopped with a reason', async () => {
    const { srv, h } = await history((url) =>
      url.startsWith(PATH) ? body([entry(1), entry(2)], `${PATH}?order=desc&limit=2`) : undefined,
    );
    try {
      await loadEverything(h);
      assert.strictEqual(h.items.length, 2);
      assert.ok(!h.hasMore);
      assert.strictEqual(h.stopped?.kind, 'loop');
      assert.strictEqual(h.status, 'idle');
      assert.deepStrictEqual(srv.hits, [`${PATH}?limit=2&order=desc`], 'the link back was never requested');
    } finally {
      await srv.close();
    }
  });

  it('a cycle A -> B -> A, and the same rows under a new URL each time: rows once', async () => {
    const { srv, h } = await history((url) => {
      if (url === `${PATH}?limit=2&order=desc`)
        return body([entry(1), entry(2)], `${PATH}?limit=2&order=desc&timestamp=lt:1`);
      if (url === `${PATH}?limit=2&order=desc&timestamp=lt:1`)
        return body([entry(3), entry(4)], `${PATH}?limit=2&order=desc`);
      return undefined;
    });
    const again = await history((url) =>
      body([entry(1), entry(2)], `${PATH}?limit=2&order=desc&n=${Number(/n=(\d+)/.exec(url)?.[1] ?? 0) + 1}`),
    );
    try {
      await loadEverything(h);
      assert.deepStrictEqual(
        h.items.map((i) => i.consensus_timestamp),
        [entry(1), entry(2), entry(3), entry(4)].map((e) => e.consensus_timestamp),
      );
      assert.ok(!h.hasMore && h.stopped?.kind === 'loop');
      await loadEverything(again.h);
      assert.strictEqual(again.h.items.length, 2);
      assert.strictEqual(again.h.stopped?.kind, 'repeat');
      assert.ok(again.srv.hits.length <= 3, `stopped after the repeat (${again.srv.hits.length} requests)`);
    } finally {
      await srv.close();
      await again.srv.close();
    }
  });

  it('a next link to another host keeps the page: rows shown, the reason given, no error and no retry loop', async () => {
    const { srv, h } = await history((url) =>
      url === `${PATH}?limit=2&order=desc`
        ? body([entry(1), entry(2)], 'https://evil.example/api/v1/tokens/0.0.4815162/nfts/1/transactions?limit=2')
        : undefined,
    );
    try {
      await h.reload();
      assert.strictEqual(h.items.length, 2);
      assert.strictEqual(h.status, 'idle');
      assert.strictEqual(h.error, undefined);
      assert.ok(!h.hasMore);
      assert.strictEqual(h.stopped?.kind, 'refused');
      assert.match(h.stopped?.message ?? '', /evil\.example.*not followed/);
      await h.retry();
      assert.strictEqual(h.items.length, 2);
      assert.strictEqual(srv.hits.length, 1, 'nothing fetched from the refused link, and no read-ahead');
    } finally {
      await srv.close();
    }
  });

  it('an empty first page with a next link says more may follow', async () => {
    const { srv, h } = await history((url) =>
      url === `${PATH}?limit=2&order=desc`
        ? body([], `${PATH}?limit=2&order=desc&timestamp=lt:5`)
        : url.includes('lt:5')
          ? body([entry(1)], null)
          : undefined,
    );
    try {
      await h.reload();
      assert.strictEqual(h.items.length, 0);
      assert.ok(h.hasMore && h.emptyPage);
      await h.loadMore();
      assert.strictEqual(h.items.length, 1);
      assert.ok(!h.hasMore && !h.emptyPage);
    } finally {
      await srv.close();
    }
  });
});
