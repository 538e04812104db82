/**
 * The sandbox's mirror node: real recorded requests replayed (same status, shapes and error messages), paging
 * through every page, big integers, filters, and the realism of the generated data (revert data, protobuf bodies).
 */
import * as assert from 'assert';
import * as fs from 'fs';
import * as path from 'path';
import { type Sandbox, startSandbox } from '../src/server';

const FIXTURES = path.join(__dirname, '../../../test/fixtures');

interface Triple {
  url: string;
  responseStatus: number;
  responseJson: unknown;
}
type Obj = Record<string, unknown>;

let sb: Sandbox;
let notable: { contractResults: Obj; schedules: Record<string, string>; nfts: Record<string, string> };
let counts: { contractResults: number; internalResults: number; schedules: number };

async function get(url: string): Promise<{ status: number; text: string; json: Obj; headers: Headers }> {
  const res = await fetch(sb.url + url);
  const text = await res.text();
  let json: Obj = {};
  try {
    json = JSON.parse(text) as Obj;
  } catch {
    /* not JSON */
  }
  return { status: res.status, text, json, headers: res.headers };
}

const listKey = (o: Obj): string | undefined =>
  'links' in o ? Object.keys(o).find((k) => k !== 'links' && Array.isArray(o[k])) : undefined;
const effectiveLimit = (url: string): number => {
  const values = new URL('http://x' + url).searchParams.getAll('limit');
  return values.length ? Math.min(Number(values[values.length - 1]), 100) : 25;
};

/** Every key of the real item (recursively for nested objects and arrays of objects) is present in ours. */
function assertKeysCovered(real: unknown, ours: unknown, where: string): void {
  if (real === null || typeof real !== 'object' || ours === null || typeof ours !== 'object') return;
  if (Array.isArray(real)) {
    if (Array.isArray(ours) && real.length && ours.length) assertKeysCovered(real[0], ours[0], `${where}[0]`);
    return;
  }
  for (const k of Object.keys(real as Obj)) {
    assert.ok(k in (ours as Obj), `${where}: missing key ${k}`);
    assertKeysCovered((real as Obj)[k], (ours as Obj)[k], `${where}.${k}`);
  }
}

/**
 * The item of `ours` to compare a real item with: of the same kind for contract results (a native result, `r`
 * null, or an Ethereum one; one with `authorization_list` with one that has it), else the first. The recorded real
 * answers are 0.160's, which sent `authorization_list: []` on every Ethereum result; the current real server sends it
 * only where the transaction carries a list (ContractResultViewModel `!isEmpty(contractResult.authorizationList)`),
 * as the sandbox does: its EIP-7702 (type 4) results have one.
 */
const sameKind = (real: unknown, ours: Obj[]): Obj | undefined => {
  if (!real || typeof real !== 'object' || !('r' in (real as Obj))) return ours[0];
  const native = (real as Obj).r === null;
  const list = 'authorization_list' in (real as Obj);
  return ours.find((o) => (o.r === null) === native && 'authorization_list' in o === list);
};

/** A URL of the same endpoint that the sandbox holds data for (fixture ids refer to the spec's seed data). */
function sandboxEquivalent(url: string): string {
  const u = new URL('http://x' + url);
  if (u.pathname.startsWith('/api/v1/tokens/'))
    return `/api/v1/tokens/${notable.nfts.approvalsAndBurn.replace('/', '/nfts/')}/transactions`;
  if (u.pathname.startsWith('/api/v1/schedules/')) return `/api/v1/schedules/${notable.schedules.executed}`;
  if (u.pathname.startsWith('/api/v1/schedules')) return '/api/v1/schedules';
  return '/api/v1/contracts/results?internal=true&limit=100';
}

async function checkReplay(t: Triple): Promise<void> {
  const r = await get(t.url);
  const what = `${t.url}`;
  if (t.responseStatus >= 400) {
    assert.strictEqual(r.status, t.responseStatus, what);
    assert.deepStrictEqual(r.json, t.responseJson, what);
    return;
  }
  const real = t.responseJson as Obj;
  if (r.status === 404) {
    // only where the fixture's id is not sandbox data: an unknown EVM address in `from`, or a schedule id
    assert.deepStrictEqual(r.json, { _status: { messages: [{ message: 'Not found' }] } }, what);
    const u = new URL('http://x' + t.url);
    const unknownFrom = u.searchParams
      .getAll('from')
      .some((f) => /^(0x)?[0-9a-f]{40}$/i.test(f) && !/^(0x)?0{24}/i.test(f));
    assert.ok(unknownFrom || /^\/api\/v1\/schedules\/[^/]+$/.test(u.pathname), `unexpected 404 for ${what}`);
  } else {
    assert.ok(r.status === 200 || r.status === 206, `${what}: status ${r.status}`);
    assert.deepStrictEqual(Object.keys(r.json).sort(), Object.keys(real).sort(), `${what}: top-level keys`);
    const key = listKey(real);
    if (key && Array.isArray(real[key])) {
      const items = r.json[key] as Obj[];
      assert.ok(Array.isArray(items), what);
      const next = (r.json.links as Obj).next as string | null;
      const limit = effectiveLimit(t.url);
      if (next !== null) {
        assert.strictEqual(items.length, limit, `${what}: next only on a full page`);
        assert.ok(next.startsWith(new URL('http://x' + t.url).pathname + '?'), `${what}: next is relative to the host`);
        assert.strictEqual(r.headers.get('link'), `<${next}>; rel="next"`);
      }
      if (items.length < limit) assert.strictEqual(next, null, `${what}: short page, no next`);
      const same = sameKind((real[key] as Obj[])[0], items);
      if ((real[key] as Obj[]).length && same) assertKeysCovered((real[key] as Obj[])[0], same, what);
    } else if (!key) {
      assertKeysCovered(real, r.json, what);
    }
  }
  // shapes against sandbox data for the same endpoint
  const realItem = listKey(real) ? ((real[listKey(real) as string] as Obj[])[0] ?? null) : real;
  if (realItem) {
    const eq = await get(sandboxEquivalent(t.url));
    assert.ok(eq.status === 200 || eq.status === 206, sandboxEquivalent(t.url));
    const k = listKey(eq.json);
    const ours = k && Array.isArray(eq.json[k]) ? sameKind(realItem, eq.json[k] as Obj[]) : eq.json;
    assert.ok(ours, `${what}: no sandbox item of the same kind`);
    assertKeysCovered(realItem, ours, `${what} (as ${sandboxEquivalent(t.url)})`);
  }
}

function readTriples(): { file: string; triple: Triple }[] {
  const dir = path.join(FIXTURES, 'mirror/replay');
  const out: { file: string; triple: Triple }[] = [];
  for (const f of fs.readdirSync(dir).sort()) {
    if (!f.endsWith('.json') || f.startsWith('_')) continue;
    const d = JSON.parse(fs.readFileSync(path.join(dir, f), 'utf8')) as { triples: Triple[] };
    for (const triple of d.triples) out.push({ file: f, triple });
  }
  return out;
}

function readCaptured(): { status: number; file: string; url: string }[] {
  const dir = path.join(FIXTURES, 'mirror/captured');
  return fs
    .readFileSync(path.join(dir, '_index.tsv'), 'utf8')
    .split('\n')
    .filter((l) => l.trim())
    .map((l) => {
      const [status, file, url] = l.split('\t');
      return { status: Number(status), file, url };
    });
}

/** Follows links.next from `first`, returning every item and the number of requests. */
async function pageAll(first: string, key: string): Promise<{ items: Obj[]; requests: number }> {
  const items: Obj[] = [];
  let url: string | null = first;
  let requests = 0;
  while (url) {
    const r = await get(url);
    assert.ok(r.status === 200 || r.status === 206, `${url}: ${r.status}`);
    requests++;
    items.push(...(r.json[key] as Obj[]));
    url = (r.json.links as Obj).next as string | null;
    assert.ok(requests < 1000, 'runaway paging');
  }
  return { items, requests };
}

describe('sandbox: mirror node', function () {
  this.timeout(60_000);

  before(async () => {
    sb = await startSandbox({ port: 0 });
    const health = (await (await fetch(`${sb.url}/__sandbox/health`)).json()) as Obj;
    notable = health.notable as typeof notable;
    counts = health.data as typeof counts;
  });
  after(() => sb.close());

  // Startup time is a benchmark figure (npm run bench prints it), not a timed test.

  it('is deterministic: a second sandbox serves the same data', async () => {
    const other = await startSandbox({ port: 0 });
    try {
      for (const p of [
        '/api/v1/contracts/results?limit=100&internal=true',
        '/api/v1/schedules?limit=100&order=desc',
        `/api/v1/tokens/0.0.4815162/nfts/2/transactions`,
      ]) {
        const [a, b] = await Promise.all([
          fetch(sb.url + p).then((r) => r.text()),
          fetch(other.url + p).then((r) => r.text()),
        ]);
        assert.strictEqual(a, b, p);
      }
    } finally {
      await other.close();
    }
  });

  describe('replay of real recorded requests', () => {
    it('every triple of fixtures/mirror/replay: same status, error messages, shapes and paging', async () => {
      const triples = readTriples();
      assert.ok(triples.length >= 100, `only ${triples.length} triples`);
      for (const { file, triple } of triples) {
        try {
          await checkReplay(triple);
        } catch (e) {
          (e as Error).message = `${file}: ${(e as Error).message}`;
          throw e;
        }
      }
    });

    it('every request of fixtures/mirror/captured/_index.tsv, with the real headers', async () => {
      for (const c of readCaptured()) {
        const real = JSON.parse(fs.readFileSync(path.join(FIXTURES, 'mirror/captured', c.file), 'utf8')) as unknown;
        await checkReplay({ url: c.url, responseStatus: c.status, responseJson: real });
        const r = await get(c.url);
        assert.strictEqual(r.headers.get('content-type'), 'application/json; charset=utf-8');
        assert.strictEqual(r.headers.get('access-control-allow-origin'), '*');
        assert.match(r.headers.get('etag') ?? '', /^W\/"[0-9a-f]+-[A-Za-z0-9+/]{27}"$/);
        const realHeaders = fs.readFileSync(
          path.join(FIXTURES, 'mirror/captured', c.file.replace(/\.json$/, '.headers')),
          'utf8',
        );
        const realCache = /^cache-control: (.*)$/im.exec(realHeaders)?.[1]?.trim() ?? null;
        if (c.status === 200 && !/\/schedules\/[^/?]+$/.test(c.url))
          assert.strictEqual(r.headers.get('cache-control'), realCache, c.url);
        if (c.status >= 400) assert.strictEqual(r.headers.get('cache-control'), null, c.url);
      }
    });

    it('answers 304 to a matching If-None-Match', async () => {
      const first = await fetch(`${sb.url}/api/v1/schedules?limit=3`);
      await first.text();
      const tag = first.headers.get('etag') as string;
      const again = await fetch(`${sb.url}/api/v1/schedules?limit=3`, { headers: { 'if-none-match': tag } });
      assert.strictEqual(again.status, 304);
    });
  });

  describe('paging', () => {
    it(`contract results: every result once, in order, in ceil(N/100) requests`, async () => {
      const t0 = performance.now();
      const { items, requests } = await pageAll('/api/v1/contracts/results?limit=100', 'results');
      const ms = performance.now() - t0;
      console.log(`      paged ${items.length} contract results in ${requests} requests, ${ms.toFixed(0)} ms`);
      assert.ok(counts.contractResults >= 5000);
      assert.strictEqual(items.length, counts.contractResults);
      assert.strictEqual(requests, Math.ceil(counts.contractResults / 100));
      const ts = items.map((r) => r.timestamp as string);
      assert.strictEqual(new Set(ts).size, ts.length, 'each result once');
      for (let i = 1; i < ts.length; i++) assert.ok(cmpTs(ts[i - 1], ts[i]) > 0, 'descending');
    });

    it('contract results ascending, and with internal=true (children included)', async () => {
      const asc = await pageAll('/api/v1/contracts/results?limit=100&order=ASC', 'results');
      assert.strictEqual(asc.items.length, counts.contractResults);
      for (let i = 1; i < asc.items.length; i++)
        assert.ok(cmpTs(asc.items[i - 1].timestamp as string, asc.items[i].timestamp as string) < 0);
      const all = await pageAll('/api/v1/contracts/results?limit=100&internal=true', 'results');
      assert.strictEqual(all.items.length, counts.contractResults + counts.internalResults);
      assert.ok(counts.internalResults > 0);
    });

    it('schedules: every schedule once, ascending by id, in ceil(N/100) requests', async () => {
      const { items, requests } = await pageAll('/api/v1/schedules?limit=100', 'schedules');
      assert.ok(counts.schedules >= 300);
      assert.strictEqual(items.length, counts.schedules);
      assert.strictEqual(requests, Math.ceil(counts.schedules / 100));
      const nums = items.map((s) => Number((s.schedule_id as string).split('.')[2]));
      for (let i = 1; i < nums.length; i++) assert.ok(nums[i] > nums[i - 1]);
      const desc = await pageAll('/api/v1/schedules?limit=100&order=desc', 'schedules');
      assert.deepStrictEqual(
        desc.items.map((s) => s.schedule_id),
        items.map((s) => s.schedule_id).reverse(),
      );
    });

    it('the long NFT history (>10,000 entries) pages completely', async () => {
      const [token, serial] = notable.nfts.longHistory.split('/');
      const t0 = performance.now();
      const { items, requests } = await pageAll(
        `/api/v1/tokens/${token}/nfts/${serial}/transactions?limit=100`,
        'transactions',
      );
      console.log(
        `      paged ${items.length} NFT history entries in ${requests} requests, ${(performance.now() - t0).toFixed(0)} ms`,
      );
      assert.ok(items.length > 10_000);
      assert.strictEqual(requests, Math.ceil(items.length / 100));
      const ts = items.map((e) => e.consensus_timestamp as string);
      for (let i = 1; i < ts.length; i++) assert.ok(cmpTs(ts[i - 1], ts[i]) > 0);
      assert.strictEqual(items[items.length - 1].type, 'TOKENMINT');
      // ownership chain: each transfer's sender is the previous transfer's receiver
      const transfers = items.filter((e) => e.type === 'CRYPTOTRANSFER' || e.type === 'TOKENMINT').reverse();
      for (let i = 1; i < transfers.length; i++)
        assert.strictEqual(transfers[i].sender_account_id, transfers[i - 1].receiver_account_id);
    });

    it('next links keep the query and replace the cursor like the real server', async () => {
      const r = await get('/api/v1/contracts/results?limit=2&timestamp=lt:1793000000&internal=false');
      // a single lt: value is removed and the new cursor appended at the end (updateReqQuery of the real server)
      assert.match(
        (r.json.links as Obj).next as string,
        /^\/api\/v1\/contracts\/results\?limit=2&internal=false&timestamp=lt:\d+\.\d{9}$/,
      );
      const eq = await get(`/api/v1/contracts/results?timestamp=lt:1793000000&timestamp=gt:1700000000&limit=1`);
      assert.match((eq.json.links as Obj).next as string, /\?timestamp=gt:1700000000&timestamp=lt:\d+\.\d{9}&limit=1$/);
      const s = await get('/api/v1/schedules?schedule.id=gte:0.0.1&limit=2&account.id=gte:1');
      assert.match(
        (s.json.links as Obj).next as string,
        /^\/api\/v1\/schedules\?limit=2&account\.id=gte:1&schedule\.id=gt:0\.0\.\d+$/,
      );
      const d = await get('/api/v1/schedules?order=desc&limit=2');
      assert.match(
        (d.json.links as Obj).next as string,
        /^\/api\/v1\/schedules\?order=desc&limit=2&schedule\.id=lt:0\.0\.\d+$/,
      );
      // a range that the cursor empties gives no link
      const newest = ((await get('/api/v1/contracts/results?limit=1')).json.results as Obj[])[0].timestamp as string;
      const e = await get(`/api/v1/contracts/results?limit=1&timestamp=gte:${newest}`);
      assert.strictEqual((e.json.results as Obj[]).length, 1);
      assert.strictEqual((e.json.links as Obj).next, null);
    });
  });

  describe('contract results', () => {
    it('writes big integers as bare JSON numbers', async () => {
      const r = await get('/api/v1/contracts/results?limit=25');
      assert.ok(r.text.includes('"amount":9007199254740993'), 'amount past 2^53');
      assert.ok(r.text.includes('"gas_limit":9223372036854775807'));
      assert.ok(r.text.includes('"nonce":9007199254740997'));
      assert.ok(r.text.includes('"block_number":9007199254740999'));
      assert.notStrictEqual(
        String(JSON.parse('9007199254740993')),
        '9007199254740993',
        'JSON.parse would lose the digit',
      );
      const byNumber = await get('/api/v1/contracts/results?block.number=9007199254740999');
      assert.strictEqual((byNumber.json.results as Obj[]).length, 1);
      const hex = await get(`/api/v1/contracts/results?block.number=0x${9007199254740999n.toString(16)}`);
      assert.strictEqual(hex.text.replace(/"links".*/, ''), byNumber.text.replace(/"links".*/, ''));
      const weibar = await get(
        `/api/v1/contracts/results?timestamp=${String(notable.contractResults.bigAmount)}&hbar=false`,
      );
      assert.ok(weibar.text.includes('"amount":90071992547409930000000000'));
    });

    it('has every field of the real result object, native calls as the real view model (type 0, access_list [], no authorization_list)', async () => {
      const r = await get('/api/v1/contracts/results?limit=100');
      const items = r.json.results as Obj[];
      const fields =
        'address amount block_gas_used block_hash block_number bloom call_result chain_id contract_id created_contract_ids error_message failed_initcode from function_parameters gas_consumed gas_limit gas_price gas_used hash max_fee_per_gas max_priority_fee_per_gas nonce r s result status timestamp to transaction_index type v access_list'.split(
          ' ',
        );
      for (const it of items) for (const f of fields) assert.ok(f in it, f);
      // native: no Ethereum transaction (r null); only results whose Ethereum transaction carries an EIP-7702 list have
      // authorization_list, after amount (ContractResultViewModel `!isEmpty(contractResult.authorizationList)`, spec
      // no-params.json of HIP-1340: a type 2 transaction has none; 0.160 sent [] on every Ethereum result)
      const native = items.find((i) => i.r === null);
      const eth = items.find((i) => i.type === 2);
      const eip7702 = items.find((i) => i.type === 4);
      assert.ok(native && eth && eip7702);
      for (const f of ['r', 's', 'v', 'nonce', 'max_fee_per_gas', 'gas_price']) assert.strictEqual(native[f], null, f);
      assert.strictEqual(native.type, 0);
      assert.strictEqual(native.chain_id, '0x128');
      assert.deepStrictEqual(native.access_list, []);
      assert.ok(!('authorization_list' in native) && !('authorization_list' in eth));
      assert.ok(Array.isArray(eip7702.authorization_list) && (eip7702.authorization_list as unknown[]).length > 0);
      assert.deepStrictEqual(Object.keys(eip7702).slice(0, 3), ['address', 'amount', 'authorization_list']);
      assert.ok(items.every((i) => 'authorization_list' in i === (i.type === 4)));
      assert.match(eth.r as string, /^0x[0-9a-f]{64}$/);
      assert.ok(items.every((i) => i.status === '0x1' || i.status === '0x0'));
      assert.ok(items.every((i) => /^\d{10}\.\d{9}$/.test(i.timestamp as string)));
      assert.ok(items.every((i) => /^0x[0-9a-f]{96}$/.test(i.block_hash as string)));
      // blocks hold several transactions
      const perBlock = new Map<string, Set<number>>();
      for (const i of items)
        perBlock.set(
          i.block_hash as string,
          (perBlock.get(i.block_hash as string) ?? new Set()).add(i.transaction_index as number),
        );
      assert.ok([...perBlock.values()].some((s) => s.size >= 3));
    });

    it('carries real revert data: Error(string), Panic(uint256), custom errors and text errors', async () => {
      const { items } = await pageAll('/api/v1/contracts/results?limit=100', 'results');
      const errors = items.map((i) => i.error_message as string | null).filter((e): e is string => e !== null);
      const errorString = errors.find((e) => e.startsWith('0x08c379a0'));
      assert.ok(errorString);
      const data = Buffer.from(errorString.slice(10), 'hex');
      assert.strictEqual(data.readBigUInt64BE(24), 32n, 'offset 32');
      const len = Number(data.readBigUInt64BE(56));
      assert.ok(data.subarray(64, 64 + len).toString('utf8').length > 3);
      assert.ok(
        errors.some((e) => /^0x4e487b710{62}(01|11|12|21|32|41|51)$/.test(e)),
        'Panic',
      );
      assert.ok(
        errors.some((e) => /^0x(118cdaa7|e450d38c|7e273289|3ee5aeb5)/.test(e)),
        'custom error',
      );
      assert.ok(errors.includes('INSUFFICIENT_GAS'));
      const results = new Set(items.map((i) => i.result));
      for (const r of ['SUCCESS', 'CONTRACT_REVERT_EXECUTED', 'INSUFFICIENT_GAS', 'MAX_GAS_LIMIT_EXCEEDED'])
        assert.ok(results.has(r), r);
      const selectors = new Set(items.map((i) => (i.function_parameters as string).slice(2, 10)));
      for (const s of ['a9059cbb', '095ea7b3', '40c10f19']) assert.ok(selectors.has(s), s);
      assert.ok(items.every((i) => (i.status === '0x1') === (i.result === 'SUCCESS')));
    });

    it('filters by from (entity id, EVM alias any case, long-zero) and 404s an unknown EVM address', async () => {
      const alias = notable.contractResults.aliasSender as { id: string; evm: string };
      const byId = await get(`/api/v1/contracts/results?from=${alias.id}&limit=100`);
      const items = byId.json.results as Obj[];
      // `from` is the sender's long-zero address, also for its Ethereum transactions (the real view model)
      const aliasLongZero = '0x' + BigInt(alias.id.split('.')[2]).toString(16).padStart(40, '0');
      assert.ok(items.length > 0 && items.every((i) => i.from === aliasLongZero));
      for (const form of [alias.evm, alias.evm.slice(2), alias.evm.toUpperCase().replace('0X', '0x')]) {
        const r = await get(`/api/v1/contracts/results?from=${form}&limit=100`);
        assert.deepStrictEqual(r.json.results, byId.json.results, form);
      }
      const native = notable.contractResults.nativeSender as string;
      const lz = '0x' + BigInt(native.split('.')[2]).toString(16).padStart(40, '0');
      const a = await get(`/api/v1/contracts/results?from=${native}&limit=50`);
      const b = await get(`/api/v1/contracts/results?from=${lz}&limit=50`);
      assert.ok((a.json.results as Obj[]).length > 0);
      assert.deepStrictEqual(a.json.results, b.json.results);
      const both = await get(`/api/v1/contracts/results?from=${native}&from=${alias.id}&limit=100`);
      assert.ok((both.json.results as Obj[]).length > Math.min(items.length, 100) - 1);
      const unknown = await get('/api/v1/contracts/results?from=0xabcdefabcdefabcdefabcdefabcdefabcdefabcd');
      assert.strictEqual(unknown.status, 404);
      assert.deepStrictEqual(unknown.json, { _status: { messages: [{ message: 'Not found' }] } });
      const unknownId = await get('/api/v1/contracts/results?from=0.0.99');
      assert.deepStrictEqual(unknownId.json, { results: [], links: { next: null } });
    });

    it('filters by block hash (64/96 hex, 0x, eq:, last wins), block number and transaction index', async () => {
      const r = await get('/api/v1/contracts/results?limit=100');
      const items = r.json.results as Obj[];
      const counts = new Map<string, number>();
      for (const i of items) counts.set(i.block_hash as string, (counts.get(i.block_hash as string) ?? 0) + 1);
      const [hash] = [...counts.entries()].sort((x, y) => y[1] - x[1])[0];
      const inBlock = items.filter((i) => i.block_hash === hash);
      const full = await get(`/api/v1/contracts/results?block.hash=${hash}`);
      assert.deepStrictEqual(
        (full.json.results as Obj[]).map((i) => i.timestamp),
        inBlock.map((i) => i.timestamp),
      );
      for (const form of [
        hash.slice(2),
        `eq:${hash}`,
        hash.slice(0, 66),
        hash.slice(2, 66).toUpperCase(),
        `${'0x' + 'ab'.repeat(32)}&block.hash=${hash}`,
      ]) {
        const x = await get(`/api/v1/contracts/results?block.hash=${form}`);
        assert.deepStrictEqual(x.json.results, full.json.results, form);
      }
      const number = inBlock[0].block_number as number;
      const byNumber = await get(`/api/v1/contracts/results?block.number=${number}`);
      assert.deepStrictEqual(byNumber.json.results, full.json.results);
      assert.deepStrictEqual(
        (await get(`/api/v1/contracts/results?block.number=0x${number.toString(16)}`)).json.results,
        full.json.results,
      );
      assert.deepStrictEqual(
        (await get(`/api/v1/contracts/results?block.number=1&block.number=eq:${number}`)).json.results,
        full.json.results,
      );
      const idx = inBlock[1].transaction_index as number;
      const one = await get(`/api/v1/contracts/results?block.number=${number}&transaction.index=${idx}`);
      assert.deepStrictEqual(
        (one.json.results as Obj[]).map((i) => i.transaction_index),
        [idx],
      );
    });

    it('timestamp operators, repeated', async () => {
      const items = (await get('/api/v1/contracts/results?limit=10')).json.results as Obj[];
      const [t0, t1, t5] = [items[0].timestamp, items[1].timestamp, items[5].timestamp] as string[];
      const eq = await get(`/api/v1/contracts/results?timestamp=${t1}`);
      assert.deepStrictEqual(
        (eq.json.results as Obj[]).map((i) => i.timestamp),
        [t1],
      );
      assert.deepStrictEqual((await get(`/api/v1/contracts/results?timestamp=eq:${t1}`)).json.results, eq.json.results);
      const range = await get(`/api/v1/contracts/results?timestamp=gt:${t5}&timestamp=lte:${t0}&timestamp=ne:${t1}`);
      assert.deepStrictEqual(
        (range.json.results as Obj[]).map((i) => i.timestamp),
        items
          .slice(0, 5)
          .map((i) => i.timestamp)
          .filter((t) => t !== t1),
      );
    });

    it('validates like the real server, several messages at once in parameter order', async () => {
      const cases: [string, string[]][] = [
        ['limit=0', ['Invalid parameter: limit']],
        ['limit=-3', ['Invalid parameter: limit']],
        ['limit=abc&x=1', ['Invalid parameter: limit', 'Unknown query parameter: x']],
        [
          'order=up&timestamp=yesterday&internal=maybe',
          ['Invalid parameter: order', 'Invalid parameter: timestamp', 'Invalid parameter: internal'],
        ],
        ['from=0.0.1.2&from=0x123', ['Invalid parameter: from']],
        [
          'block.number=12&block.hash=' + 'a'.repeat(64),
          ['Invalid parameter usage: block.hash - cannot combine block.number and block.hash'],
        ],
        [
          'transaction.index=1',
          [
            'Invalid parameter usage: transaction.index - transaction.index requires block.number or block.hash filter to be specified',
          ],
        ],
        ['block.hash=' + 'a'.repeat(63), ['Invalid parameter: block.hash']],
        ['block.number=0xzz', ['Invalid parameter: block.number']],
        ['timestamp=1234567890.1234567890', ['Invalid parameter: timestamp']],
      ];
      for (const [q, messages] of cases) {
        const r = await get(`/api/v1/contracts/results?${q}`);
        assert.strictEqual(r.status, 400, q);
        assert.deepStrictEqual(r.json, { _status: { messages: messages.map((message) => ({ message })) } }, q);
      }
      const capped = await get('/api/v1/contracts/results?limit=1000');
      assert.strictEqual((capped.json.results as Obj[]).length, 100);
      assert.match((capped.json.links as Obj).next as string, /limit=1000&timestamp=lt:/);
      assert.strictEqual((await get('/api/v1/nope')).status, 404);
      assert.deepStrictEqual((await get('/api/v1/contracts/results/x/y/z')).json, {
        _status: { messages: [{ message: 'Not found' }] },
      });
    });
  });

  describe('schedules', () => {
    it('has every state, signature type, admin key type and tricky memos', async () => {
      const { items } = await pageAll('/api/v1/schedules?limit=100', 'schedules');
      const now = Date.now() / 1000;
      const state = (s: Obj): string =>
        s.executed_timestamp
          ? 'executed'
          : s.deleted
            ? 'deleted'
            : s.expiration_time !== null && Number(s.expiration_time) < now
              ? 'expired'
              : 'pending';
      const states = new Set(items.map(state));
      for (const s of ['executed', 'deleted', 'expired', 'pending']) assert.ok(states.has(s), s);
      const sigTypes = new Set(items.flatMap((s) => (s.signatures as Obj[]).map((g) => g.type)));
      for (const t of ['CONTRACT', 'ED25519', 'RSA_3072', 'ECDSA_384', 'ECDSA_SECP256K1', 'UNKNOWN'])
        assert.ok(sigTypes.has(t), t);
      const keyTypes = new Set(items.map((s) => (s.admin_key === null ? null : (s.admin_key as Obj)._type)));
      for (const t of [null, 'ECDSA_SECP256K1', 'ED25519', 'ProtobufEncoded']) assert.ok(keyTypes.has(t), String(t));
      const memos = items.map((s) => s.memo as string);
      for (const m of ['<img src=x onerror=alert(1)>', '<script>alert(1)</script>']) assert.ok(memos.includes(m), m);
      assert.ok(
        memos.some((m) => /\p{Extended_Pictographic}/u.test(m)) &&
          memos.some((m) => /[\u4e00-\u9fff\u3040-\u30ff]/.test(m)) &&
          memos.some((m) => /[\u0590-\u06ff]/.test(m)),
      );
      assert.ok(new Set(items.map((s) => s.wait_for_expiry)).size === 2);
      assert.ok(new Set(items.map((s) => s.creator_account_id)).size >= 3);
      for (const s of items)
        for (const g of s.signatures as Obj[]) assert.match(g.public_key_prefix as string, /^[A-Za-z0-9+/]*=*$/);
    });

    it('transaction_body is a real SchedulableTransactionBody protobuf', async () => {
      const { items } = await pageAll('/api/v1/schedules?limit=100', 'schedules');
      const kinds = new Set<number>();
      for (const s of items) {
        const fields = readMessage(Buffer.from(s.transaction_body as string, 'base64'));
        const fee = fields.find((f) => f.no === 1);
        assert.ok(fee && typeof fee.value === 'bigint' && fee.value > 0n, 'transactionFee');
        const data = fields.filter((f) => f.no > 2);
        assert.strictEqual(data.length, 1, 'one oneof data field');
        kinds.add(data[0].no);
        const inner = readMessage(data[0].value as Buffer);
        if (data[0].no === 9 && inner[0].no === 1) {
          // TransferList: AccountAmount amounts (sint64, zigzag) sum to zero
          const amounts = readMessage(inner[0].value as Buffer).map((aa) =>
            unzigzag(readMessage(aa.value as Buffer).find((f) => f.no === 2)?.value as bigint),
          );
          assert.strictEqual(
            amounts.reduce((a, b) => a + b, 0n),
            0n,
          );
        }
        if (data[0].no === 3) {
          const params = inner.find((f) => f.no === 4)?.value as Buffer;
          assert.strictEqual(params.subarray(0, 4).toString('hex'), 'a9059cbb');
        }
      }
      for (const k of [3, 9, 21, 29, 30, 32]) assert.ok(kinds.has(k), `data field ${k}`);
    });

    it('single schedule: 200 with cache by state, 404 for unknown or account ids, 400 for bad ids or any query', async () => {
      for (const [state, maxAge] of [
        ['executed', 3600],
        ['deleted', 3600],
        ['expired', 3600],
        ['pending', 1],
      ] as const) {
        const r = await get(`/api/v1/schedules/${notable.schedules[state]}`);
        assert.strictEqual(r.status, 200);
        assert.strictEqual(r.json.schedule_id, notable.schedules[state]);
        assert.strictEqual(r.headers.get('cache-control'), `public, max-age=${maxAge}`, state);
      }
      const id = notable.schedules.executed;
      const num = id.split('.')[2];
      assert.strictEqual((await get(`/api/v1/schedules/${num}`)).text, (await get(`/api/v1/schedules/0.${num}`)).text);
      const list = (await get('/api/v1/schedules?limit=1')).json.schedules as Obj[];
      const creator = list[0].creator_account_id as string;
      assert.strictEqual((await get(`/api/v1/schedules/${creator}`)).status, 404);
      assert.strictEqual((await get('/api/v1/schedules/0.0.1')).status, 404);
      assert.deepStrictEqual((await get('/api/v1/schedules/abc')).json, {
        _status: { messages: [{ message: 'Invalid parameter: scheduleid' }] },
      });
      assert.deepStrictEqual((await get(`/api/v1/schedules/${id}?limit=1`)).json, {
        _status: { messages: [{ message: 'Unknown query parameter: limit' }] },
      });
    });

    it('filters by account.id and schedule.id with operators', async () => {
      const all = (await pageAll('/api/v1/schedules?limit=100', 'schedules')).items;
      const creator = all[0].creator_account_id as string;
      const mine = await pageAll(`/api/v1/schedules?account.id=${creator}&limit=100`, 'schedules');
      assert.deepStrictEqual(
        mine.items.map((s) => s.schedule_id),
        all.filter((s) => s.creator_account_id === creator).map((s) => s.schedule_id),
      );
      const a = all[10].schedule_id as string;
      const b = all[20].schedule_id as string;
      const range = await get(`/api/v1/schedules?schedule.id=gt:${a}&schedule.id=lte:${b.split('.')[2]}&limit=100`);
      assert.deepStrictEqual(
        (range.json.schedules as Obj[]).map((s) => s.schedule_id),
        all.slice(11, 21).map((s) => s.schedule_id),
      );
      const bad = await get('/api/v1/schedules?account.id=abc&schedule.id=1.2.3.4&limit=0&order=sideways&foo=1');
      assert.deepStrictEqual(bad.json, {
        _status: {
          messages: [
            'Invalid parameter: account.id',
            'Invalid parameter: schedule.id',
            'Invalid parameter: limit',
            'Invalid parameter: order',
            'Unknown query parameter: foo',
          ].map((message) => ({ message })),
        },
      });
    });
  });

  describe('NFT histories', () => {
    const nftUrl = (key: string, q = ''): string => {
      const [token, serial] = key.split('/');
      return `/api/v1/tokens/${token}/nfts/${serial}/transactions${q}`;
    };

    it('has every kind of entry, burns/wipes at the end of some, a made-up type, real transaction ids', async () => {
      const entries: Obj[] = [];
      const lastTypes = new Set<string>();
      for (let s = 1; s <= 40; s++) {
        const r = await get(nftUrl(`${notable.nfts.token}/${s}`, '?limit=100'));
        const items = r.json.transactions as Obj[];
        entries.push(...items);
        if (items.length) lastTypes.add(items[0].type as string);
      }
      const types = new Set(entries.map((e) => e.type));
      for (const t of [
        'TOKENMINT',
        'CRYPTOTRANSFER',
        'CRYPTOAPPROVEALLOWANCE',
        'CRYPTODELETEALLOWANCE',
        'TOKENBURN',
        'TOKENWIPE',
        'TOKENTELEPORT',
      ])
        assert.ok(types.has(t), t);
      assert.ok(lastTypes.has('TOKENBURN') || lastTypes.has('TOKENWIPE'));
      assert.ok(entries.some((e) => e.is_approval === true));
      assert.ok(entries.every((e) => /^0\.0\.\d+-\d{10}-\d{9}$/.test(e.transaction_id as string)));
      assert.ok(entries.filter((e) => e.nonce === 0).length > entries.length * 0.9);
      const mint = entries.find((e) => e.type === 'TOKENMINT') as Obj;
      assert.strictEqual(mint.sender_account_id, null);
      const burn = entries.find((e) => e.type === 'TOKENBURN') as Obj;
      assert.strictEqual(burn.receiver_account_id, null);
    });

    it('206 when the mint is missing, the max serial works, unknown NFTs are empty, bad serials are 400', async () => {
      const partial = await get(nftUrl(notable.nfts.partialHistory));
      assert.strictEqual(partial.status, 206);
      assert.ok((partial.json.transactions as Obj[]).length > 0);
      assert.ok((partial.json.transactions as Obj[]).every((e) => e.type !== 'TOKENMINT'));
      const max = await get(nftUrl(notable.nfts.maxSerial));
      assert.strictEqual(max.status, 200);
      assert.ok((max.json.transactions as Obj[]).length > 0);
      assert.ok(notable.nfts.maxSerial.endsWith('/9223372036854775807'));
      for (const unknown of [`${notable.nfts.token}/9223372036854775806`, `${notable.nfts.token}/999`, '0.0.1/1']) {
        const r = await get(nftUrl(unknown));
        assert.strictEqual(r.status, 200);
        assert.deepStrictEqual(r.json, { transactions: [], links: { next: null } });
      }
      for (const bad of ['0', '-1', '9223372036854775808', '99999999999999999999', 'abc', '1.5']) {
        const r = await get(nftUrl(`${notable.nfts.token}/${bad}`));
        assert.strictEqual(r.status, 400, bad);
        assert.deepStrictEqual(r.json, { _status: { messages: [{ message: 'Invalid parameter: serialnumber' }] } });
      }
      assert.deepStrictEqual((await get('/api/v1/tokens/x/nfts/1/transactions')).json, {
        _status: { messages: [{ message: 'Invalid parameter: tokenid' }] },
      });
    });

    it('orders desc by default, asc on request, with timestamp cursors', async () => {
      const desc = await get(nftUrl(notable.nfts.longHistory, '?limit=3'));
      assert.match((desc.json.links as Obj).next as string, /\?limit=3&timestamp=lt:\d{10}\.\d{9}$/);
      const asc = await get(nftUrl(notable.nfts.longHistory, '?limit=3&order=asc'));
      assert.strictEqual((asc.json.transactions as Obj[])[0].type, 'TOKENMINT');
      assert.match((asc.json.links as Obj).next as string, /\?limit=3&order=asc&timestamp=gt:\d{10}\.\d{9}$/);
    });
  });
});

function cmpTs(a: string, b: string): number {
  const [as, an] = a.split('.');
  const [bs, bn] = b.split('.');
  return as !== bs ? Number(as) - Number(bs) : Number(an) - Number(bn);
}

interface Field {
  no: number;
  value: bigint | Buffer;
}

/** A minimal protobuf reader (varint and length-delimited fields) to check the schedules' bodies. */
function readMessage(buf: Buffer): Field[] {
  const out: Field[] = [];
  let i = 0;
  const varint = (): bigint => {
    let v = 0n;
    let shift = 0n;
    for (;;) {
      const b = buf[i++];
      assert.ok(b !== undefined, 'truncated varint');
      v |= BigInt(b & 0x7f) << shift;
      if (!(b & 0x80)) return v;
      shift += 7n;
    }
  };
  while (i < buf.length) {
    const tag = Number(varint());
    const no = tag >> 3;
    const wt = tag & 7;
    if (wt === 0) out.push({ no, value: varint() });
    else if (wt === 2) {
      const len = Number(varint());
      assert.ok(i + len <= buf.length, 'length within the buffer');
      out.push({ no, value: buf.subarray(i, i + len) });
      i += len;
    } else assert.fail(`unexpected wire type ${wt}`);
  }
  return out;
}

const unzigzag = (v: bigint): bigint => (v & 1n ? -((v + 1n) >> 1n) : v >> 1n);
