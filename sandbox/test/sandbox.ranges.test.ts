/**
 * Out-of-range entity ids and timestamps above int64, answered as the real mirror node (0.160) does:
 * - rest/entityId.js: a query filter is validated by form only (`shard.realm.num` with 1-4, 1-5, 1-12 digits, or
 *   1-19 digits), then parsed (utils.formatComparator); account.id / schedule.id parse without a parameter name,
 *   so `Invalid entity ID "0.70000.1"` (the id with shard and realm filled in), `from` with one (`Invalid
 *   parameter: from`); path params name theirs (`scheduleid`, `tokenid`, `contractid`).
 * - a timestamp above int64 nanoseconds that reaches the database: DbError, 503 `Service unavailable`
 *   (rest/middleware/httpErrorHandler.js, rest/constants.js).
 * - a range on `from` (`from=gte:0.0.x`) on /contracts/results: every operator passes validation
 *   (utils.filterValidityChecks, FROM), the query `sender_id >= $1` over all contract results fails in the database
 *   on a real network: the same 503, as a real Hiero mirror node answers.
 */
import * as assert from 'assert';
import { ApiError } from '../../src/api/errors';
import { contractResultsParams } from '../../src/api/mirror';
import { type Sandbox, startSandbox } from '../src/server';

type Obj = Record<string, unknown>;
interface Res {
  status: number;
  json: Obj;
  headers: Headers;
}

const NFT = '/api/v1/tokens/0.0.4815162/nfts/7/transactions';
const BUSIEST = '0.0.6122781';
const BIG_BLOCK = '9007199254740999';
const OVER = '9999999999.999999999'; // 9999999999999999999 ns > 2^63-1
const JUST_OVER = '9223372036.854775808'; // 2^63 ns
const MAX = '9223372036.854775807'; // 2^63-1 ns
const UNAVAILABLE = { _status: { messages: [{ message: 'Service unavailable' }] } };

describe('sandbox: entity id ranges and int64 timestamps', function () {
  this.timeout(30_000);
  let sb: Sandbox;

  async function get(url: string, headers: Record<string, string> = {}): Promise<Res> {
    const res = await fetch(sb.url + url, { headers });
    return { status: res.status, json: JSON.parse(await res.text()) as Obj, headers: res.headers };
  }
  const messages = (r: Res): string[] => ((r.json._status as Obj).messages as Obj[]).map((m) => m.message as string);
  async function expect400(url: string, ...expected: string[]): Promise<void> {
    const r = await get(url);
    assert.strictEqual(r.status, 400, url);
    assert.deepStrictEqual(messages(r), expected, url);
  }
  async function expect503(url: string): Promise<void> {
    const r = await get(url);
    assert.strictEqual(r.status, 503, url);
    assert.deepStrictEqual(r.json, UNAVAILABLE, url);
    assert.strictEqual(r.headers.get('cache-control'), null, url);
  }
  const list = (r: Res, key: string): Obj[] => r.json[key] as Obj[];

  before(async () => {
    sb = await startSandbox({ port: 0 });
  });
  after(async () => {
    await sb.close();
  });

  describe('query filters', () => {
    it('schedules: account.id / schedule.id of the right form but out of range give Invalid entity ID "<shard.realm.num>"', async () => {
      await expect400('/api/v1/schedules?account.id=0.70000.1', 'Invalid entity ID "0.70000.1"');
      await expect400('/api/v1/schedules?account.id=70000.1', 'Invalid entity ID "0.70000.1"');
      await expect400('/api/v1/schedules?schedule.id=gt:1024.0.1', 'Invalid entity ID "1024.0.1"');
      await expect400('/api/v1/schedules?schedule.id=274877906944', 'Invalid entity ID "0.0.274877906944"');
      await expect400('/api/v1/schedules?account.id=0.0.274877906944', 'Invalid entity ID "0.0.274877906944"');
      // "encoded id" form (1-19 digits, signed) passes validation, then fails as a num
      await expect400('/api/v1/schedules?account.id=1234567890123', 'Invalid entity ID "0.0.1234567890123"');
      await expect400('/api/v1/schedules?account.id=-1', 'Invalid entity ID "0.0.-1"');
    });

    it('a wrong form is still Invalid parameter', async () => {
      for (const v of ['0.0.1234567890123', '0.123456.1', '12345.0.1', '1.2.3.4', 'abc', '0.0.']) {
        await expect400(`/api/v1/schedules?account.id=${v}`, 'Invalid parameter: account.id');
      }
    });

    it('the range error comes only when every parameter is valid, and only the first (names in first-seen order)', async () => {
      await expect400('/api/v1/schedules?account.id=0.70000.1&limit=0', 'Invalid parameter: limit');
      await expect400('/api/v1/schedules?account.id=0.70000.1&x=1', 'Unknown query parameter: x');
      await expect400('/api/v1/schedules?schedule.id=0.70000.2&account.id=0.70000.1', 'Invalid entity ID "0.70000.2"');
      // the query object groups a name's values: schedule.id (both values) before account.id
      await expect400(
        '/api/v1/schedules?schedule.id=1&account.id=0.70000.1&schedule.id=0.70001.1',
        'Invalid entity ID "0.70001.1"',
      );
    });

    it('nums of 11 and 12 digits below 2^38 are valid ids', async () => {
      const a = await get('/api/v1/schedules?schedule.id=0.0.274877906943');
      assert.strictEqual(a.status, 200);
      assert.deepStrictEqual(list(a, 'schedules'), []);
      const b = await get('/api/v1/schedules?account.id=12345678901');
      assert.strictEqual(b.status, 200);
      const c = await get('/api/v1/contracts/results?from=0.0.12345678901');
      assert.strictEqual(c.status, 200);
      assert.deepStrictEqual(list(c, 'results'), []);
    });

    it('contract results: from out of range is Invalid parameter: from, after validation, before dependencies', async () => {
      await expect400('/api/v1/contracts/results?from=0.70000.1', 'Invalid parameter: from');
      await expect400('/api/v1/contracts/results?from=274877906944', 'Invalid parameter: from');
      await expect400('/api/v1/contracts/results?from=0.70000.1&limit=0', 'Invalid parameter: limit');
      await expect400('/api/v1/contracts/results?from=0.70000.1&transaction.index=1', 'Invalid parameter: from');
      await expect400(`/api/v1/contracts/${BUSIEST}/results?from=1024.0.1`, 'Invalid parameter: from');
    });
  });

  describe('path params', () => {
    it('schedules/{id}: Invalid parameter: scheduleid; 12-digit nums are ids', async () => {
      await expect400('/api/v1/schedules/0.70000.1', 'Invalid parameter: scheduleid');
      await expect400('/api/v1/schedules/274877906944', 'Invalid parameter: scheduleid');
      await expect400('/api/v1/schedules/1024.0.1', 'Invalid parameter: scheduleid');
      const r = await get('/api/v1/schedules/0.0.12345678901');
      assert.strictEqual(r.status, 404);
      assert.deepStrictEqual(messages(r), ['Not found']);
    });

    it('contracts/{id}/results: form first, then the query, then the range (contractid)', async () => {
      await expect400('/api/v1/contracts/0.70000.1/results', 'Invalid parameter: contractid');
      await expect400('/api/v1/contracts/1024.0.1/results', 'Invalid parameter: contractid');
      await expect400('/api/v1/contracts/0.70000.1/results?limit=0', 'Invalid parameter: limit');
      await expect400('/api/v1/contracts/0.70000.1/results?from=0.70000.1', 'Invalid parameter: from');
      await expect400('/api/v1/contracts/0.0.x/results?limit=0', 'Invalid parameter: contractid');
    });

    it('tokens/{id}/nfts/{serial}/transactions: Invalid parameter: tokenid; 12-digit nums are ids', async () => {
      await expect400('/api/v1/tokens/0.70000.1/nfts/1/transactions', 'Invalid parameter: tokenid');
      await expect400('/api/v1/tokens/1024.0.1/nfts/1/transactions', 'Invalid parameter: tokenid');
      const r = await get('/api/v1/tokens/0.0.12345678901/nfts/1/transactions');
      assert.strictEqual(r.status, 200);
      assert.deepStrictEqual(list(r, 'transactions'), []);
    });
  });

  describe('a range on from', () => {
    it('contracts/results: from=gte:0.0.x (and gt, lt, lte, an EVM address too) is 503 Service unavailable, as the real server answers', async () => {
      const h = (await get('/__sandbox/health')).json.notable as Obj;
      const cr = h.contractResults as { nativeSender: string; aliasSender: { id: string; evm: string } };
      for (const v of [
        `gte:${cr.nativeSender}`,
        'gte:0.0.1',
        'gt:0.0.2',
        'lt:0.0.9999999',
        'lte:274877906943',
        `gte:${cr.aliasSender.evm}`,
        `lt:${cr.aliasSender.evm.slice(2)}`,
      ]) {
        await expect503(`/api/v1/contracts/results?from=${v}`);
      }
      await expect503(
        `/api/v1/contracts/results?from=${cr.nativeSender}&from=gte:0.0.1&limit=5&order=asc&internal=true`,
      );
      await expect503(`/api/v1/contracts/results?from=gte:0.0.1&timestamp=lt:1900000000`);
    });

    it('contracts/results: the errors before the query win; no query (unknown block, empty range) is 200 empty', async () => {
      await expect400('/api/v1/contracts/results?from=gte:0.0.1&limit=0', 'Invalid parameter: limit');
      await expect400('/api/v1/contracts/results?from=gte:0.70000.1', 'Invalid parameter: from');
      await expect400('/api/v1/contracts/results?from=foo:0.0.1', 'Invalid parameter: from');
      await expect400(
        '/api/v1/contracts/results?from=gte:0.0.1&transaction.index=1',
        'Invalid parameter usage: transaction.index - transaction.index requires block.number or block.hash filter to be specified',
      );
      const unknown = await get(`/api/v1/contracts/results?from=gte:0x${'ab'.repeat(20)}`);
      assert.deepStrictEqual([unknown.status, messages(unknown)], [404, ['Not found']]);
      for (const q of ['block.number=1', 'timestamp=gt:1800000000&timestamp=lt:1700000000']) {
        const r = await get(`/api/v1/contracts/results?from=gte:0.0.1&${q}`);
        assert.strictEqual(r.status, 200, q);
        assert.deepStrictEqual(r.json, { results: [], links: { next: null } }, q);
      }
    });

    it('ne is a filter (200); /contracts/{id}/results filters by the range (its query is bounded by the contract)', async () => {
      const h = (await get('/__sandbox/health')).json.notable as Obj;
      const sender = (h.contractResults as { nativeSender: string }).nativeSender;
      const num = (a: unknown): bigint => BigInt('0x' + String(a).slice(2));
      const senderNum = BigInt(sender.split('.')[2]);
      const ne = await get(`/api/v1/contracts/results?from=ne:${sender}&limit=100`);
      assert.strictEqual(ne.status, 200);
      assert.ok(list(ne, 'results').length === 100 && list(ne, 'results').every((i) => num(i.from) !== senderNum));
      const all = list(await get(`/api/v1/contracts/${BUSIEST}/results?limit=100`), 'results');
      const gte = await get(`/api/v1/contracts/${BUSIEST}/results?from=gte:${sender}&limit=100`);
      assert.strictEqual(gte.status, 200);
      const expected = all.filter((i) => num(i.from) >= senderNum).map((i) => i.timestamp);
      assert.ok(expected.length > 0 && expected.length < all.length);
      assert.deepStrictEqual(
        list(gte, 'results')
          .map((i) => i.timestamp)
          .slice(0, expected.length),
        expected,
      );
      const lt = await get(`/api/v1/contracts/${BUSIEST}/results?from=lt:${sender}&from=gt:0.0.1&limit=100`);
      assert.ok(list(lt, 'results').length > 0 && list(lt, 'results').every((i) => num(i.from) < senderNum));
    });

    it("the extension's client never sends a range on from: the sender filter takes ids and EVM addresses only", () => {
      for (const v of ['gte:0.0.1234', 'lt:0.0.1234', 'ne:0.0.1234', 'eq:0.0.1234']) {
        assert.throws(
          () => contractResultsParams({ from: [v] }),
          (e: unknown) => e instanceof ApiError && e.kind === 'invalidInput',
          v,
        );
      }
      assert.strictEqual(contractResultsParams({ from: ['0.0.1234'] }), 'from=0.0.1234');
    });
  });

  describe('timestamps above int64 nanoseconds', () => {
    it('contracts/results: 503 Service unavailable for a lower bound, eq or ne above int64', async () => {
      await expect503(`/api/v1/contracts/results?timestamp=gt:${OVER}`);
      await expect503(`/api/v1/contracts/results?timestamp=gte:${JUST_OVER}`);
      await expect503(`/api/v1/contracts/results?timestamp=${JUST_OVER}`);
      await expect503(`/api/v1/contracts/results?timestamp=ne:${OVER}&limit=1`);
      await expect503(`/api/v1/contracts/results?timestamp=gt:${OVER}&internal=true&from=0.0.3229282`);
    });

    it('contracts/results: an upper bound is clamped to int64 (200, the same items), an empty range or unknown block is 200 empty', async () => {
      const plain = await get('/api/v1/contracts/results?limit=3');
      const lt = await get(`/api/v1/contracts/results?limit=3&timestamp=lt:${OVER}`);
      assert.strictEqual(lt.status, 200);
      assert.deepStrictEqual(list(lt, 'results'), list(plain, 'results'));
      const gte = await get(`/api/v1/contracts/results?timestamp=gte:${MAX}`);
      assert.strictEqual(gte.status, 200);
      for (const q of [
        `timestamp=gt:${OVER}&timestamp=lt:1`,
        `timestamp=gt:${OVER}&timestamp=lte:${OVER}`,
        `timestamp=gt:${OVER}&block.number=1`,
        `timestamp=gt:${OVER}&block.number=${BIG_BLOCK}`,
      ]) {
        const r = await get(`/api/v1/contracts/results?${q}`);
        assert.strictEqual(r.status, 200, q);
        assert.deepStrictEqual(list(r, 'results'), [], q);
      }
      await expect503(`/api/v1/contracts/results?timestamp=${OVER}&block.number=${BIG_BLOCK}`);
    });

    it('contracts/results: an unknown from alias is 404 before the 503', async () => {
      const r = await get(`/api/v1/contracts/results?from=0x${'ab'.repeat(20)}&timestamp=gt:${OVER}`);
      assert.strictEqual(r.status, 404);
      assert.deepStrictEqual(messages(r), ['Not found']);
    });

    it('contracts/{id}/results: any timestamp above int64 is 503 (unoptimized), for known and unknown ids; an unknown EVM address is 200 empty', async () => {
      await expect503(`/api/v1/contracts/${BUSIEST}/results?timestamp=lt:${OVER}`);
      await expect503(`/api/v1/contracts/0.0.999999/results?timestamp=gt:${OVER}&timestamp=lt:1`);
      await expect503(`/api/v1/contracts/0.5.1/results?timestamp=${JUST_OVER}`);
      const ok = await get(`/api/v1/contracts/${BUSIEST}/results?timestamp=lt:${MAX}&limit=2`);
      assert.strictEqual(ok.status, 200);
      assert.strictEqual(list(ok, 'results').length, 2);
      const evm = await get(
        `/api/v1/contracts/0x${'ab'.repeat(20)}/results?timestamp=gt:${OVER}&from=0x${'cd'.repeat(20)}`,
      );
      assert.strictEqual(evm.status, 200);
      assert.deepStrictEqual(evm.json, { results: [], links: { next: null } });
      const noBlock = await get(`/api/v1/contracts/${BUSIEST}/results?timestamp=gt:${OVER}&block.number=1`);
      assert.strictEqual(noBlock.status, 200);
    });

    it('NFT history: any timestamp above int64 is 503, for known and unknown tokens; the 400s come first', async () => {
      await expect503(`${NFT}?timestamp=lt:${OVER}`);
      await expect503(`${NFT}?timestamp=gt:${JUST_OVER}&order=asc`);
      await expect503(`/api/v1/tokens/0.0.9999/nfts/1/transactions?timestamp=${OVER}`);
      await expect400(`${NFT}?timestamp=lt:${OVER}&limit=0`, 'Invalid parameter: limit');
      await expect400(
        `/api/v1/tokens/0.70000.1/nfts/1/transactions?timestamp=lt:${OVER}`,
        'Invalid parameter: tokenid',
      );
      const ok = await get(`${NFT}?timestamp=lt:${MAX}&limit=2`);
      assert.strictEqual(ok.status, 200);
      assert.strictEqual(list(ok, 'transactions').length, 2);
    });

    it('the 503 goes through the error paths: hostile text adds its detail to it', async () => {
      const r = await get(`${NFT}?timestamp=lt:${OVER}`, { 'x-sandbox-hostile': 'text' });
      assert.strictEqual(r.status, 503);
      const m = ((r.json._status as Obj).messages as Obj[])[0];
      assert.strictEqual(m.message, 'Service unavailable');
      assert.strictEqual(typeof m.detail, 'string');
    });

    it('hostile paging-empty links to lt:<int64 max>, which answers (no 503) with the first page', async () => {
      const first = await get(`${NFT}?limit=3`, { 'x-sandbox-hostile': 'paging-empty' });
      assert.deepStrictEqual(list(first, 'transactions'), []);
      const next = (first.json.links as Obj).next as string;
      assert.strictEqual(next, `${NFT}?limit=3&timestamp=lt:${MAX}`);
      const second = await get(next, { 'x-sandbox-hostile': 'paging-empty' });
      assert.strictEqual(second.status, 200);
      assert.deepStrictEqual(list(second, 'transactions'), list(await get(`${NFT}?limit=3`), 'transactions'));
    });
  });
});
