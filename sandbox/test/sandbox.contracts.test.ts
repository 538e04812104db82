/**
 * The sandbox's `/api/v1/contracts/{contractIdOrAddress}/results` (as the real getContractResultsById) and live
 * contract results added after start (`POST /__sandbox/contracts/results`, `addContractResults`, `liveSeconds`,
 * `--live`), which Follow mode polls with `timestamp=gt:<newest>&order=asc`.
 */
import * as assert from 'assert';
import { spawn } from 'child_process';
import * as path from 'path';
import { type Sandbox, startSandbox } from '../src/server';

type Obj = Record<string, unknown>;
interface Res {
  status: number;
  json: Obj;
  headers: Headers;
}

async function getFrom(base: string, url: string): Promise<Res> {
  const res = await fetch(base + url);
  const text = await res.text();
  return { status: res.status, json: JSON.parse(text) as Obj, headers: res.headers };
}

/** Follows links.next from `first`; every item and the number of requests. */
async function pageAll(base: string, first: string): Promise<{ items: Obj[]; requests: number }> {
  const items: Obj[] = [];
  let url: string | null = first;
  let requests = 0;
  while (url) {
    const r = await getFrom(base, url);
    assert.strictEqual(r.status, 200, url);
    requests++;
    items.push(...(r.json.results as Obj[]));
    url = (r.json.links as Obj).next as string | null;
    assert.ok(requests < 1000, 'runaway paging');
  }
  return { items, requests };
}

const longZero = (id: string): string =>
  BigInt(id.split('.').pop() as string)
    .toString(16)
    .padStart(40, '0');
const tsNs = (t: string): bigint => {
  const [s, n] = t.split('.');
  return BigInt(s) * 1_000_000_000n + BigInt(n.padEnd(9, '0'));
};
const results = (r: Res): Obj[] => r.json.results as Obj[];
const errorOf = (...messages: string[]): Obj => ({ _status: { messages: messages.map((message) => ({ message })) } });

/** The keys of ContractResultViewModel, in its order (the real by-id list serves this smaller object). */
const BY_ID_KEYS =
  'address amount bloom call_result contract_id created_contract_ids error_message from function_parameters gas_consumed gas_limit gas_used timestamp to hash'.split(
    ' ',
  );

describe('sandbox: /api/v1/contracts/{id}/results', function () {
  this.timeout(60_000);
  let sb: Sandbox;
  let notable: Record<string, unknown>;
  let all: Obj[]; // every top-level result, newest first, from /contracts/results
  const get = (url: string): Promise<Res> => getFrom(sb.url, url);

  before(async () => {
    sb = await startSandbox({ port: 0 });
    notable = ((await (await fetch(`${sb.url}/__sandbox/health`)).json()) as { notable: { contractResults: Obj } })
      .notable.contractResults;
    all = (await pageAll(sb.url, '/api/v1/contracts/results?limit=100')).items;
  });
  after(() => sb.close());

  it('names the same contract by num, realm.num, shard.realm.num and long-zero address (any case, 0x or shard.realm. prefix)', async () => {
    const id = notable.busiestContract as string;
    const num = id.split('.')[2];
    const first = await get(`/api/v1/contracts/${id}/results?limit=100`);
    assert.strictEqual(first.status, 200);
    assert.strictEqual(results(first).length, 100);
    const lz = longZero(id);
    for (const form of [num, `0.${num}`, `0x${lz}`, lz, `0x${lz.toUpperCase()}`, `0.0.${lz}`, `0.${lz}`]) {
      const r = await get(`/api/v1/contracts/${form}/results?limit=100`);
      assert.strictEqual(r.status, 200, form);
      assert.deepStrictEqual(r.json.results, first.json.results, form);
      assert.strictEqual(
        (r.json.links as Obj).next,
        `/api/v1/contracts/${form}/results?limit=100&timestamp=lt:${results(first)[99].timestamp as string}`,
        form,
      );
    }
  });

  it("answers for the contract's own EVM address (any case, optional 0x), like its entity id", async () => {
    const id = notable.evmContract as string;
    const evm = notable.evmContractAddress as string;
    assert.ok(!/^0x0{24}/.test(evm));
    const byId = await get(`/api/v1/contracts/${id}/results?limit=50`);
    assert.ok(results(byId).length > 0);
    assert.ok(results(byId).every((i) => i.address === evm && i.to === '0x' + longZero(id)));
    for (const form of [evm, evm.slice(2), evm.slice(2).toUpperCase(), `0.0.${evm.slice(2)}`]) {
      const r = await get(`/api/v1/contracts/${form}/results?limit=50`);
      assert.strictEqual(r.status, 200, form);
      assert.deepStrictEqual(r.json.results, byId.json.results, form);
    }
  });

  it('serves exactly the results whose contract_id is that contract, as the smaller ContractResultViewModel object', async () => {
    const id = notable.busiestContract as string;
    const expected = all.filter((r) => r.contract_id === id);
    const r = await get(`/api/v1/contracts/${id}/results?limit=100`);
    const items = results(r);
    assert.deepStrictEqual(
      items.map((i) => i.timestamp),
      expected.slice(0, 100).map((i) => i.timestamp),
    );
    let withList = 0;
    for (const [k, item] of items.entries()) {
      const full = expected[k];
      // authorization_list after amount only where the Ethereum transaction carries one (ContractResultViewModel:
      // `!isEmpty(contractResult.authorizationList)`), as on /contracts/results
      const keys =
        'authorization_list' in full
          ? [...BY_ID_KEYS.slice(0, 2), 'authorization_list', ...BY_ID_KEYS.slice(2)]
          : BY_ID_KEYS;
      assert.deepStrictEqual(Object.keys(item), keys, 'keys and order of the real view model');
      for (const key of keys.filter((x) => x !== 'to')) assert.deepStrictEqual(item[key], full[key], key);
      assert.strictEqual(item.to, '0x' + longZero(id)); // the contract's long-zero address, also on a create
      if ('authorization_list' in item) withList++;
    }
    assert.ok(withList > 0 && withList < items.length, `${withList} results with an authorization list`);
    // big integers stay bare JSON numbers here too
    const big = all.find((i) => i.timestamp === notable.bigGasLimit) as Obj;
    const one = await fetch(
      `${sb.url}/api/v1/contracts/${big.contract_id as string}/results?timestamp=${big.timestamp as string}`,
    ).then((x) => x.text());
    assert.match(one, /"gas_limit":9223372036854775807[,}]/);
  });

  it(`pages a busy contract completely: every result once, in order, in ceil(N/100) requests, both orders`, async () => {
    const id = notable.busiestContract as string;
    const expected = all.filter((r) => r.contract_id === id).map((r) => r.timestamp);
    assert.ok(expected.length > 200 && expected.length % 100 !== 0, `busiest contract has ${expected.length} results`);
    const desc = await pageAll(sb.url, `/api/v1/contracts/${id}/results?limit=100`);
    assert.strictEqual(desc.requests, Math.ceil(expected.length / 100));
    assert.deepStrictEqual(
      desc.items.map((i) => i.timestamp),
      expected,
    );
    const asc = await pageAll(sb.url, `/api/v1/contracts/${id}/results?limit=100&order=asc`);
    assert.strictEqual(asc.requests, Math.ceil(expected.length / 100));
    assert.deepStrictEqual(
      asc.items.map((i) => i.timestamp),
      [...expected].reverse(),
    );
    const r = await get(`/api/v1/contracts/${id}/results?limit=2&order=asc`);
    const next = (r.json.links as Obj).next as string;
    assert.strictEqual(
      next,
      `/api/v1/contracts/${id}/results?limit=2&order=asc&timestamp=gt:${results(r)[1].timestamp as string}`,
    );
    assert.strictEqual(r.headers.get('link'), `<${next}>; rel="next"`);
    assert.strictEqual(r.headers.get('cache-control'), 'public, max-age=10');
    assert.strictEqual(r.headers.get('content-type'), 'application/json; charset=utf-8');
    assert.match(r.headers.get('etag') as string, /^W\/"/);
    const capped = await get(`/api/v1/contracts/${id}/results?limit=500`);
    assert.strictEqual(results(capped).length, 100);
    assert.match((capped.json.links as Obj).next as string, /\?limit=500&timestamp=lt:/);
    const dflt = await get(`/api/v1/contracts/${id}/results`);
    assert.strictEqual(results(dflt).length, 25);
  });

  it('filters by from, timestamp, block.number, block.hash with transaction.index, and internal', async () => {
    const id = notable.busiestContract as string;
    const mine = all.filter((r) => r.contract_id === id);
    // from: entity id and EVM address of a sender of this contract
    const sender = mine[0].from as string;
    const viaEvm = await get(`/api/v1/contracts/${id}/results?from=${sender}&limit=100`);
    assert.deepStrictEqual(
      results(viaEvm).map((i) => i.timestamp),
      mine
        .filter((r) => r.from === sender)
        .slice(0, 100)
        .map((i) => i.timestamp),
    );
    assert.ok(results(viaEvm).length > 0);
    // timestamp range, eq and ne
    const [t0, t1, t4] = [mine[0].timestamp, mine[1].timestamp, mine[4].timestamp] as string[];
    const range = await get(
      `/api/v1/contracts/${id}/results?timestamp=gte:${t4}&timestamp=lte:${t0}&timestamp=ne:${t1}`,
    );
    assert.deepStrictEqual(
      results(range).map((i) => i.timestamp),
      mine
        .slice(0, 5)
        .map((i) => i.timestamp)
        .filter((t) => t !== t1),
    );
    assert.deepStrictEqual(
      results(await get(`/api/v1/contracts/${id}/results?timestamp=${t1}`)).map((i) => i.timestamp),
      [t1],
    );
    // block filters: only this contract's results of the block
    const b = mine[2];
    const inBlock = all.filter((r) => r.block_number === b.block_number && r.contract_id === id);
    const byNumber = await get(`/api/v1/contracts/${id}/results?block.number=${b.block_number as number}`);
    assert.deepStrictEqual(
      results(byNumber).map((i) => i.timestamp),
      inBlock.map((i) => i.timestamp),
    );
    const byHash = await get(
      `/api/v1/contracts/${id}/results?block.hash=${(b.block_hash as string).slice(0, 66)}&transaction.index=${b.transaction_index as number}`,
    );
    assert.deepStrictEqual(
      results(byHash).map((i) => i.timestamp),
      [b.timestamp],
    );
    assert.deepStrictEqual(results(await get(`/api/v1/contracts/${id}/results?block.number=1`)), []);
    // internal=true adds the internal results whose contract_id is this one: the HTS precompile has only those
    const hts = await get('/api/v1/contracts/0.0.359/results');
    assert.deepStrictEqual(hts.json, { results: [], links: { next: null } });
    const htsInternal = await get('/api/v1/contracts/0.0.359/results?internal=true&limit=100');
    assert.strictEqual(results(htsInternal).length, 100);
    assert.ok(results(htsInternal).every((i) => i.contract_id === '0.0.359' && i.to === '0x' + longZero('0.0.359')));
    // hbar=false is accepted (the real parameter list has it) and changes nothing here: amounts stay in tinybars
    const vault = all.find((r) => (r.amount as number) > 0) as Obj;
    const plain = await get(
      `/api/v1/contracts/${vault.contract_id as string}/results?timestamp=${vault.timestamp as string}`,
    );
    const hbar = await get(
      `/api/v1/contracts/${vault.contract_id as string}/results?timestamp=${vault.timestamp as string}&hbar=false`,
    );
    assert.strictEqual(hbar.status, 200);
    assert.deepStrictEqual(hbar.json, plain.json);
    assert.strictEqual(results(plain)[0].amount, vault.amount);
  });

  it('answers 400 `Invalid parameter: contractid` for a path value that is neither an entity id nor an EVM address', async () => {
    const lz = longZero('0.0.1234');
    const bad = [
      'abc',
      '0.0.abc',
      '1.2.3.4',
      '0x' + 'a'.repeat(39),
      'a'.repeat(41),
      '0X' + 'a'.repeat(40),
      '-1',
      '0.0.-1',
      '0.0.274877906944',
      '274877906944',
      '1024.0.1',
      '0.65536.1',
      '12345.0.1',
      `1.0.${lz}`,
      `0.1.${lz}`,
      '0.0.1.',
      '%20',
    ];
    for (const v of bad) {
      const r = await get(`/api/v1/contracts/${v}/results`);
      assert.strictEqual(r.status, 400, v);
      assert.deepStrictEqual(r.json, errorOf('Invalid parameter: contractid'), v);
      assert.strictEqual(r.headers.get('cache-control'), null);
    }
    // the path is checked before the query
    assert.deepStrictEqual(
      (await get('/api/v1/contracts/abc/results?limit=0&x=1')).json,
      errorOf('Invalid parameter: contractid'),
    );
  });

  it('validates the query like /contracts/results (several messages, then dependency errors)', async () => {
    const id = notable.busiestContract as string;
    const cases: [string, string[]][] = [
      ['limit=0', ['Invalid parameter: limit']],
      ['limit=abc&x=1', ['Invalid parameter: limit', 'Unknown query parameter: x']],
      [
        'order=up&timestamp=yesterday&internal=maybe',
        ['Invalid parameter: order', 'Invalid parameter: timestamp', 'Invalid parameter: internal'],
      ],
      ['from=0.0.1.2', ['Invalid parameter: from']],
      ['block.number=gte:10', ['Invalid parameter: block.number']],
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
      ['contract.id=1', ['Unknown query parameter: contract.id']],
    ];
    for (const [q, messages] of cases) {
      const r = await get(`/api/v1/contracts/${id}/results?${q}`);
      assert.strictEqual(r.status, 400, q);
      assert.deepStrictEqual(r.json, errorOf(...messages), q);
    }
  });

  it('an unknown entity id or an EVM address no entity has is 200 with an empty list (as the real server)', async () => {
    for (const v of [
      '0.0.1',
      '1',
      '0.0.99',
      '1.2.3',
      notable.nativeSender as string,
      '0x' + longZero('0.0.99'),
      '0.0.274877906943',
      '0x5555555555555555555555555555555555555555',
      '0.0.AbCdEf0000000000000000000000000000000001',
    ]) {
      const r = await get(`/api/v1/contracts/${v}/results?limit=5`);
      assert.strictEqual(r.status, 200, v);
      assert.deepStrictEqual(r.json, { results: [], links: { next: null } }, v);
      assert.strictEqual(r.headers.get('link'), null);
      assert.strictEqual(r.headers.get('cache-control'), 'public, max-age=10');
    }
    // an account's EVM alias resolves to the account, as its id would (spec account-opaque-evm-contracts-path.json)
    const alias = (notable.aliasSender as { evm: string; id?: string }).evm;
    const byAlias = await get(`/api/v1/contracts/${alias}/results`);
    assert.strictEqual(byAlias.status, 200);
    assert.deepStrictEqual(byAlias.json, { results: [], links: { next: null } });
    // the contract itself: GET /contracts/{address} is 404 for an address no contract has
    assert.strictEqual((await get('/api/v1/contracts/0x5555555555555555555555555555555555555555')).status, 404);
    // a query error still comes first
    assert.strictEqual(
      (await get('/api/v1/contracts/0x5555555555555555555555555555555555555555/results?limit=0')).status,
      400,
    );
  });

  it("`from` set to a contract's own EVM address is 200 (a contract sends nothing); an unknown `from` alias is 404 `Not found`", async () => {
    const busiest = notable.busiestContract as string;
    const own = notable.evmContractAddress as string;
    assert.ok(!/^0x0{24}/.test(own), own);
    for (const path of ['/api/v1/contracts/results', `/api/v1/contracts/${busiest}/results`]) {
      const r = await get(`${path}?from=${own}`);
      assert.strictEqual(r.status, 200, path);
      assert.deepStrictEqual(r.json, { results: [], links: { next: null } }, path);
    }
    const from = await get(`/api/v1/contracts/${busiest}/results?from=0xabcdefabcdefabcdefabcdefabcdefabcdefabcd`);
    assert.strictEqual(from.status, 404);
    assert.deepStrictEqual(from.json, errorOf('Not found'));
  });
});

describe('sandbox: live contract results', function () {
  this.timeout(60_000);
  let sb: Sandbox;
  const get = (url: string): Promise<Res> => getFrom(sb.url, url);
  const post = async (body: unknown): Promise<Res> => {
    const res = await fetch(`${sb.url}/__sandbox/contracts/results`, {
      method: 'POST',
      headers: { 'Content-Type': 'application/json' },
      body: typeof body === 'string' ? body : JSON.stringify(body),
    });
    return { status: res.status, json: (await res.json()) as Obj, headers: res.headers };
  };
  const newest = async (): Promise<Obj> => results(await get('/api/v1/contracts/results?limit=1'))[0];
  const health = async (): Promise<Obj> => (await get('/__sandbox/health')).json;

  beforeEach(async () => {
    sb = await startSandbox({ port: 0 });
  });
  afterEach(() => sb.close());

  it('a Follow poll (timestamp=gt:<newest>&order=asc) sees exactly the added results, in order', async () => {
    const before = await newest();
    const poll = `/api/v1/contracts/results?timestamp=gt:${before.timestamp as string}&order=asc&limit=100`;
    assert.deepStrictEqual((await get(poll)).json, { results: [], links: { next: null } });
    const t0 = Date.now();
    const r = await post({ count: 5 });
    const t1 = Date.now();
    assert.strictEqual(r.status, 201);
    const added = r.json.added as { timestamp: string; contract_id: string; hash: string }[];
    assert.strictEqual(added.length, 5);
    assert.deepStrictEqual(Object.keys(added[0]), ['timestamp', 'contract_id', 'hash']);
    const seen = results(await get(poll));
    assert.deepStrictEqual(
      seen.map((i) => [i.timestamp, i.contract_id, i.hash]),
      added.map((a) => [a.timestamp, a.contract_id, a.hash]),
    );
    // strictly increasing, after every existing result, at the current time
    let prev = tsNs(before.timestamp as string);
    for (const a of added) {
      const t = tsNs(a.timestamp);
      assert.ok(t > prev, a.timestamp);
      prev = t;
      const ms = Number(t / 1_000_000n);
      assert.ok(ms >= t0 - 1000 && ms <= t1 + 1000, `${a.timestamp} is not now (${t0}..${t1})`);
    }
    // the next poll from the new newest is empty again; a second add is seen by it alone
    const poll2 = `/api/v1/contracts/results?timestamp=gt:${added[4].timestamp}&order=asc`;
    assert.deepStrictEqual(results(await get(poll2)), []);
    const one = (await post({})).json.added as { timestamp: string }[];
    assert.strictEqual(one.length, 1);
    assert.deepStrictEqual(
      results(await get(poll2)).map((i) => i.timestamp),
      [one[0].timestamp],
    );
    assert.strictEqual((await newest()).timestamp, one[0].timestamp);
    const h = await health();
    assert.strictEqual((h.data as Obj).contractResults, 5239 + 6);
    assert.deepStrictEqual(h.live, { intervalSeconds: null, added: 6 });
  });

  it('adds realistic results: real selector and arguments, blocks continuing the chain, every field', async () => {
    const before = await newest();
    const added = (await post({ count: 40 })).json.added as { timestamp: string }[];
    const items = results(
      await get(`/api/v1/contracts/results?timestamp=gt:${before.timestamp as string}&order=asc&limit=100`),
    );
    assert.strictEqual(items.length, 40);
    // every field; authorization_list only on results whose Ethereum transaction carries one (type 4, EIP-7702), as
    // the real view model (ContractResultViewModel: `!isEmpty(contractResult.authorizationList)`)
    const keys = (o: Obj): string[] =>
      Object.keys(o)
        .filter((k) => k !== 'authorization_list')
        .sort();
    for (const i of items) {
      assert.deepStrictEqual(keys(i), keys(before));
      assert.strictEqual('authorization_list' in i, i.r !== null && i.type === 4, String(i.timestamp));
    }
    const known = new Set([
      'a9059cbb',
      '095ea7b3',
      '23b872dd',
      '40c10f19',
      '42842e0e',
      'a22cb465',
      'd0e30db0',
      '2e1a7d4d',
      '42966c68',
      '70a08231',
      '38ed1739',
      '06fdde03',
      '56781388',
    ]);
    let block = BigInt(before.block_number as number);
    let lastIndex = -1;
    const blocks = new Map<string, Obj[]>();
    for (const i of items) {
      assert.match(i.function_parameters as string, /^0x[0-9a-f]{8}([0-9a-f]{64})*$/);
      assert.ok(known.has((i.function_parameters as string).slice(2, 10)), i.function_parameters as string);
      assert.match(i.hash as string, /^0x[0-9a-f]{64}$/);
      assert.match(i.block_hash as string, /^0x[0-9a-f]{96}$/);
      const bn = BigInt(i.block_number as number);
      if (bn === block) assert.strictEqual(i.transaction_index, lastIndex + 1);
      else {
        assert.ok(bn > block, 'block numbers continue upward');
        assert.strictEqual(i.transaction_index, 0);
      }
      block = bn;
      lastIndex = i.transaction_index as number;
      assert.ok(
        (i.gas_used as number) >= (i.gas_limit as number) * 0.8 && (i.gas_used as number) <= (i.gas_limit as number),
      );
      assert.strictEqual(i.status === '0x1', i.result === 'SUCCESS');
      assert.ok(i.to !== null && i.created_contract_ids !== undefined);
      blocks.set(i.block_hash as string, [...(blocks.get(i.block_hash as string) ?? []), i]);
    }
    assert.ok(blocks.size > 1 && blocks.size < 40, `${blocks.size} blocks`);
    for (const [hash, rows] of blocks) {
      const sum = rows.reduce((s, r) => s + (r.gas_used as number), 0);
      assert.ok(
        rows.every((r) => r.block_gas_used === sum),
        `block_gas_used of ${hash}`,
      );
      assert.deepStrictEqual(
        results(await get(`/api/v1/contracts/results?block.hash=${hash}&order=asc`)).map((r) => r.timestamp),
        rows.map((r) => r.timestamp),
      );
    }
    assert.strictEqual(added[39].timestamp, items[39].timestamp);
  });

  it('revert: true adds reverts with revert data, false adds successes; contract picks the contract', async () => {
    const id = results(await get('/api/v1/contracts/results?limit=1'))[0].contract_id as string;
    const reverts = (await post({ count: 6, revert: true, contract: id })).json.added as {
      timestamp: string;
      contract_id: string;
    }[];
    assert.ok(reverts.every((a) => a.contract_id === id));
    const mine = results(await get(`/api/v1/contracts/results?timestamp=gte:${reverts[0].timestamp}&order=asc`));
    assert.strictEqual(mine.length, 6);
    for (const i of mine) {
      assert.strictEqual(i.result, 'CONTRACT_REVERT_EXECUTED');
      assert.strictEqual(i.status, '0x0');
      assert.match(i.error_message as string, /^0x([0-9a-f]{8}([0-9a-f]{64})*)?$/);
      // a reverted call (never a creation here): an Ethereum transaction's call data is in failed_initcode, as the
      // real ContractResultDetailsViewModel writes it; a native call's is null
      assert.deepStrictEqual(i.created_contract_ids, []);
      assert.strictEqual(i.failed_initcode, i.r !== null ? i.function_parameters : null, String(i.timestamp));
    }
    const oks = (await post({ count: 4, revert: false })).json.added as { timestamp: string }[];
    const okItems = results(await get(`/api/v1/contracts/results?timestamp=gte:${oks[0].timestamp}&order=asc`));
    assert.ok(
      okItems.length === 4 &&
        okItems.every((i) => i.result === 'SUCCESS' && i.status === '0x1' && i.error_message === null),
    );
    // other id forms of the same contract are accepted
    const lz = '0x' + longZero(id);
    const viaLz = (await post({ contract: lz })).json.added as { contract_id: string }[];
    assert.strictEqual(viaLz[0].contract_id, id);
  });

  it('everything derived from the data sees them: /contracts/{id}/results, from, block, internal, ETags', async () => {
    const id = results(await get('/api/v1/contracts/results?limit=1'))[0].contract_id as string;
    const listBefore = await fetch(`${sb.url}/api/v1/contracts/${id}/results`);
    const etag = listBefore.headers.get('etag') as string;
    await listBefore.text();
    const countBefore = (await pageAll(sb.url, `/api/v1/contracts/${id}/results?limit=100`)).items.length;
    const added = sb.addContractResults({ count: 3, contract: id }).added; // in-process equivalent
    assert.strictEqual(added.length, 3);
    // the by-id list (desc) starts with them, newest first; its ETag changed, so no stale 304
    const r = await fetch(`${sb.url}/api/v1/contracts/${id}/results`, { headers: { 'If-None-Match': etag } });
    assert.strictEqual(r.status, 200);
    const byId = ((await r.json()) as { results: Obj[] }).results;
    assert.deepStrictEqual(
      byId.slice(0, 3).map((i) => i.timestamp),
      added.map((a) => a.timestamp).reverse(),
    );
    const paged = await pageAll(sb.url, `/api/v1/contracts/${id}/results?limit=100`);
    assert.strictEqual(paged.items.length, countBefore + 3);
    // the Follow poll on the by-id endpoint
    const poll = results(
      await get(`/api/v1/contracts/${id}/results?timestamp=gt:${byId[3].timestamp as string}&order=asc`),
    );
    assert.deepStrictEqual(
      poll.map((i) => i.timestamp),
      added.map((a) => a.timestamp),
    );
    // from: the sender's entity id and EVM address both find the new result
    const full = results(await get(`/api/v1/contracts/results?timestamp=${added[0].timestamp}`))[0];
    const from = full.from as string;
    const viaFrom = results(await get(`/api/v1/contracts/results?from=${from}&limit=1`));
    assert.strictEqual(viaFrom[0].timestamp, (await newestFrom(from)).timestamp);
    assert.ok(
      results(await get(`/api/v1/contracts/${id}/results?from=${from}&limit=100`)).some(
        (i) => i.timestamp === added[0].timestamp,
      ),
    );
    // block.number and block.hash
    const inBlock = results(await get(`/api/v1/contracts/results?block.number=${full.block_number as number}`));
    assert.ok(inBlock.some((i) => i.timestamp === added[0].timestamp));
    // internal=true still ascending and complete
    const internal = await pageAll(
      sb.url,
      `/api/v1/contracts/results?internal=true&limit=100&timestamp=gte:${added[0].timestamp}&order=asc`,
    );
    assert.ok(internal.items.length >= 3);
    assert.ok(
      internal.items.every((x, k, a) => k === 0 || tsNs(a[k - 1].timestamp as string) < tsNs(x.timestamp as string)),
    );
    // paging the whole list still ends after ceil(N/100) requests and holds every result once
    const everything = await pageAll(sb.url, '/api/v1/contracts/results?limit=100');
    assert.strictEqual(everything.items.length, 5239 + 3);
    assert.strictEqual(everything.requests, Math.ceil((5239 + 3) / 100));
    assert.strictEqual(new Set(everything.items.map((i) => i.timestamp)).size, everything.items.length);

    async function newestFrom(f: string): Promise<Obj> {
      const items = results(await get(`/api/v1/contracts/results?from=${f}&limit=100`));
      return items[0];
    }
  });

  it('is deterministic apart from the timestamps', async () => {
    const other = await startSandbox({ port: 0 });
    try {
      const a = sb.addContractResults({ count: 12 }).added;
      const b = other.addContractResults({ count: 12 }).added;
      assert.deepStrictEqual(
        a.map((x) => [x.contract_id, x.hash]),
        b.map((x) => [x.contract_id, x.hash]),
      );
    } finally {
      await other.close();
    }
  });

  it('rejects invalid options with 400 (and throws in-process)', async () => {
    const cases: [unknown, RegExp][] = [
      [{ count: 0 }, /count must be an integer 1\.\.1000/],
      [{ count: 1001 }, /count/],
      [{ count: 1.5 }, /count/],
      [{ count: '2' }, /count/],
      [{ revert: 'yes' }, /revert must be a boolean/],
      [{ contract: '0.0.1' }, /contract must be the id or EVM address of a sandbox contract/],
      [{ contract: 12 }, /contract/],
      [{ cout: 2 }, /unknown field cout/],
      [[1], /JSON object/],
      ['{nope', /Invalid JSON/],
    ];
    for (const [body, message] of cases) {
      const r = await post(body);
      assert.strictEqual(r.status, 400, JSON.stringify(body));
      assert.match(r.json.error as string, message, JSON.stringify(body));
    }
    assert.throws(() => sb.addContractResults({ count: 0 }), /count/);
    assert.strictEqual(((await health()).data as Obj).contractResults, 5239);
    // an empty body is the default: one result
    const res = await fetch(`${sb.url}/__sandbox/contracts/results`, { method: 'POST' });
    assert.strictEqual(res.status, 201);
    assert.strictEqual(((await res.json()) as { added: unknown[] }).added.length, 1);
    // control routes are not recorded
    assert.ok(!sb.requests().some((q) => q.url.startsWith('/__sandbox')));
  });

  it('liveSeconds adds one result every N seconds (off by default); invalid values are refused', async () => {
    assert.deepStrictEqual((await health()).live, { intervalSeconds: null, added: 0 });
    const live = await startSandbox({ port: 0, liveSeconds: 0.1 });
    const started = performance.now();
    try {
      const first = results(await getFrom(live.url, '/api/v1/contracts/results?limit=1'))[0];
      // wait for two additions (a loaded machine may run timers late, never early)
      let h = (await getFrom(live.url, '/__sandbox/health')).json;
      for (let i = 0; i < 200 && ((h.live as Obj).added as number) < 2; i++) {
        await new Promise((r) => setTimeout(r, 50));
        h = (await getFrom(live.url, '/__sandbox/health')).json;
      }
      const elapsed = performance.now() - started;
      const n = (h.live as Obj).added as number;
      assert.ok(n >= 2 && n <= Math.floor(elapsed / 100) + 1, `added ${n} in ${elapsed.toFixed(0)} ms`);
      assert.strictEqual((h.live as Obj).intervalSeconds, 0.1);
      const seen = results(
        await getFrom(live.url, `/api/v1/contracts/results?timestamp=gt:${first.timestamp as string}&order=asc`),
      );
      assert.ok(seen.length >= n);
    } finally {
      await live.close();
    }
    for (const bad of [0, -1, Number.NaN, 86401])
      await assert.rejects(startSandbox({ port: 0, liveSeconds: bad }), /liveSeconds/);
  });

  it('the CLI takes --live <seconds>', async () => {
    const cli = path.join(__dirname, '../../sandbox/cli.js');
    const child = spawn(process.execPath, [cli, '--port', '0', '--live', '0.1', '--quiet'], {
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    try {
      const url = await new Promise<string>((resolve, reject) => {
        let out = '';
        child.stdout.on('data', (c: Buffer) => {
          out += c.toString();
          const m = /Sandbox listening on (\S+)/.exec(out);
          if (m) resolve(m[1]);
        });
        child.once('exit', (code) => reject(new Error(`exited ${code}`)));
        setTimeout(() => reject(new Error('no listening line')), 10_000);
      });
      await new Promise((r) => setTimeout(r, 400));
      const live = (await getFrom(url, '/__sandbox/health')).json.live as Obj;
      assert.strictEqual(live.intervalSeconds, 0.1);
      assert.ok((live.added as number) >= 1);
    } finally {
      const exited = new Promise((resolve) => child.once('exit', resolve));
      child.kill('SIGTERM');
      await exited;
    }
    const bad = spawn(process.execPath, [cli, '--port', '0', '--live', '0'], { stdio: ['ignore', 'ignore', 'pipe'] });
    let err = '';
    bad.stderr.on('data', (c: Buffer) => (err += c.toString()));
    const code = await new Promise<number | null>((resolve) => bad.once('exit', resolve));
    assert.strictEqual(code, 2);
    assert.match(err, /invalid --live seconds: 0/);
  });
});
