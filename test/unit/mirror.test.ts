import * as assert from 'assert';
import * as fs from 'fs';
import * as path from 'path';
import { ApiError } from '../../src/api/errors';
import { HttpClient } from '../../src/api/http';
import {
  contractResultsParams,
  MirrorClient,
  nftHistoryParams,
  scheduleState,
  schedulesParams,
} from '../../src/api/mirror';
import type { ContractResult, NftTransaction, Schedule } from '../../src/api/mirrorTypes';
import { FIXTURES, fixtureText, serveCanned } from './helpers';

describe('mirror client: queries produce the real parameter names', () => {
  it('contract results: every filter', () => {
    assert.strictEqual(
      contractResultsParams({
        from: ['5999', '0xFBB9a1be370150759408cd7af48e9eda2b8ead57'],
        blockHash: 'eq:1eaf1abbd64bbcac7f473f0272671c66d3d1d64f584112b11cd4d2063e736305',
        transactionIndex: 1,
        internal: true,
        timestamp: [
          { op: 'gte', value: '1676540001.234390005' },
          { op: 'lt', value: '1676540002' },
        ],
        limit: 100,
        order: 'asc',
      }),
      'from=0.0.5999&from=0xfbb9a1be370150759408cd7af48e9eda2b8ead57&block.hash=0x1eaf1abbd64bbcac7f473f0272671c66d3d1d64f584112b11cd4d2063e736305&transaction.index=1&internal=true&timestamp=gte:1676540001.234390005&timestamp=lt:1676540002&limit=100&order=asc',
    );
    assert.strictEqual(
      contractResultsParams({ blockNumber: '0xa', timestamp: [{ value: '987654.000123456' }] }),
      'block.number=10&timestamp=987654.000123456',
    );
    assert.strictEqual(contractResultsParams({}), '');
  });

  it('contract results: refuses what the server would refuse, before any request', () => {
    const invalid = (q: Parameters<typeof contractResultsParams>[0], re: RegExp) =>
      assert.throws(
        () => contractResultsParams(q),
        (e: unknown) => e instanceof ApiError && e.kind === 'invalidInput' && re.test(e.message),
      );
    invalid({ transactionIndex: 2 }, /needs a block number or block hash/);
    invalid({ blockHash: '0x' + 'a'.repeat(64), blockNumber: '17' }, /not both/);
    invalid({ limit: 0 }, /page size/);
    invalid({ limit: 101 }, /page size/);
    invalid({ from: ['abc'] }, /EVM address/);
    invalid({ timestamp: [{ value: 'now' }] }, /not a timestamp/);
    invalid({ blockNumber: 'gte:10' }, /exactly/);
  });

  it('schedules and NFT history', () => {
    assert.strictEqual(
      schedulesParams({
        accountId: { value: '0.0.1024' },
        scheduleId: { op: 'gt', value: '4000' },
        order: 'desc',
        limit: 10,
      }),
      'account.id=0.0.1024&schedule.id=gt:0.0.4000&limit=10&order=desc',
    );
    assert.throws(() => schedulesParams({ accountId: { value: '-92233720368547758080' } }), /not an account id/);
    assert.strictEqual(
      nftHistoryParams({
        timestamp: [
          { op: 'gt', value: '1234567890.000000005' },
          { op: 'lt', value: '1234567890.000000010' },
        ],
        order: 'asc',
        limit: 3,
      }),
      'timestamp=gt:1234567890.000000005&timestamp=lt:1234567890.000000010&limit=3&order=asc',
    );
  });

  it('derives the schedule state', () => {
    const now = 1_700_000_000_000;
    assert.strictEqual(
      scheduleState({ executed_timestamp: '1.1', deleted: false, expiration_time: null }, now),
      'executed',
    );
    assert.strictEqual(
      scheduleState({ executed_timestamp: null, deleted: true, expiration_time: null }, now),
      'deleted',
    );
    assert.strictEqual(
      scheduleState({ executed_timestamp: null, deleted: false, expiration_time: '1600000000.000000000' }, now),
      'expired',
    );
    assert.strictEqual(
      scheduleState({ executed_timestamp: null, deleted: false, expiration_time: '1800000000.000000000' }, now),
      'pending',
    );
    assert.strictEqual(
      scheduleState({ executed_timestamp: null, deleted: false, expiration_time: null }, now),
      'pending',
    );
  });

  it('a schedule without expiration_time expires 31 minutes after its creation (as the network and the real server)', () => {
    const created = '1700000000.000000001';
    const at = (sec: number) => sec * 1000;
    const s = { executed_timestamp: null, deleted: false, expiration_time: null, consensus_timestamp: created };
    assert.strictEqual(scheduleState(s, at(1700000000 + 60)), 'pending');
    assert.strictEqual(scheduleState(s, at(1700000000 + 31 * 60 - 1)), 'pending');
    assert.strictEqual(scheduleState(s, at(1700000000 + 31 * 60 + 1)), 'expired');
    assert.strictEqual(scheduleState(s, at(1800000000)), 'expired');
    // executed or deleted still win; a set expiration_time still decides alone
    assert.strictEqual(scheduleState({ ...s, executed_timestamp: '1700000100.000000000' }, at(1800000000)), 'executed');
    assert.strictEqual(scheduleState({ ...s, deleted: true }, at(1800000000)), 'deleted');
    assert.strictEqual(scheduleState({ ...s, expiration_time: '1900000000.000000000' }, at(1800000000)), 'pending');
    // an unreadable consensus timestamp keeps the old answer
    assert.strictEqual(scheduleState({ ...s, consensus_timestamp: 'x' }, at(1800000000)), 'pending');
  });
});

describe('mirror client: next links', () => {
  const client = new MirrorClient('https://testnet.mirrornode.hedera.com', new HttpClient());
  it('resolves a host-relative link against the configured base', () => {
    assert.strictEqual(
      client.resolveLink('/api/v1/schedules?limit=2&schedule.id=gt:0.0.3000'),
      'https://testnet.mirrornode.hedera.com/api/v1/schedules?limit=2&schedule.id=gt:0.0.3000',
    );
  });
  it('keeps a path prefix of the base (a mirror node behind a proxy)', () => {
    const c = new MirrorClient('https://proxy.example/hedera/mirror/', new HttpClient());
    assert.strictEqual(
      c.resolveLink('/api/v1/contracts/results?limit=1&timestamp=lt:187655.000123456'),
      'https://proxy.example/hedera/mirror/api/v1/contracts/results?limit=1&timestamp=lt:187655.000123456',
    );
  });
  it('refuses a link to another host or outside the API', () => {
    for (const bad of [
      'https://evil.example/api/v1/schedules',
      '//evil.example/api/v1/schedules',
      'http://testnet.mirrornode.hedera.com/api/v1/schedules',
      '/admin/secrets',
    ]) {
      assert.throws(
        () => client.resolveLink(bad),
        (e: unknown) => e instanceof ApiError && e.kind === 'foreignLink',
        bad,
      );
    }
  });
});

describe('mirror client: a bad next link does not throw away a good page', () => {
  it('keeps the items, ends paging and says why, for a link to another host, outside the API or not a URL', async () => {
    const schedule = (n: number) => ({ schedule_id: `0.0.${n}`, consensus_timestamp: `${n}.000000001` });
    const links: Record<string, string> = {
      '/api/v1/schedules?limit=2': 'https://evil.example/api/v1/schedules?limit=2&schedule.id=gt:0.0.2',
      '/api/v1/schedules?limit=3': '/admin/secrets',
      '/api/v1/schedules?limit=4': 'http://[bad',
    };
    const srv = await serveCanned((url) =>
      links[url]
        ? { body: JSON.stringify({ schedules: [schedule(1), schedule(2)], links: { next: links[url] } }) }
        : undefined,
    );
    try {
      const client = new MirrorClient(srv.url, new HttpClient({ tries: 1 }));
      for (const [limit, re] of [
        [
          2,
          /next-page link to https:\/\/evil\.example\/api\/v1\/schedules, outside http:\/\/127\.0\.0\.1:\d+\/api\/v1; it was not followed\./,
        ],
        [3, /\/admin\/secrets, outside/],
        [4, /not a URL/],
      ] as const) {
        const page = await client.schedules({ limit });
        assert.deepStrictEqual(
          page.items.map((s) => s.schedule_id),
          ['0.0.1', '0.0.2'],
          `items kept (limit ${limit})`,
        );
        assert.strictEqual(page.next, null);
        assert.match(page.nextRefused ?? '', re);
        assert.strictEqual(await client.next(page), null, 'nothing more to fetch: no retry loop');
      }
      assert.deepStrictEqual(
        srv.hits,
        ['/api/v1/schedules?limit=2', '/api/v1/schedules?limit=3', '/api/v1/schedules?limit=4'],
        'the refused links were never requested',
      );
    } finally {
      await srv.close();
    }
  });
});

/** The recorded answers of a real mirror node, replayed over HTTP, read through the client. */
describe('mirror client: real recorded payloads', () => {
  const index = fs
    .readFileSync(path.join(FIXTURES, 'mirror/captured/_index.tsv'), 'utf8')
    .trim()
    .split('\n')
    .map((l) => l.split('\t'));
  let srv: Awaited<ReturnType<typeof serveCanned>>;
  let client: MirrorClient;
  before(async () => {
    const routes: Record<string, { status: number; body: string }> = {};
    for (const [status, file, url] of index)
      routes[url] = { status: Number(status), body: fixtureText(`mirror/captured/${file}`) };
    srv = await serveCanned(routes);
    client = new MirrorClient(srv.url, new HttpClient({ tries: 1 }));
  });
  after(() => srv.close());

  it('schedules: list, page links and every field', async () => {
    const page = await client.schedules();
    assert.ok(page.items.length >= 1);
    const first = page.items[0] as Schedule;
    for (const k of [
      'admin_key',
      'consensus_timestamp',
      'creator_account_id',
      'deleted',
      'executed_timestamp',
      'expiration_time',
      'memo',
      'payer_account_id',
      'schedule_id',
      'signatures',
      'transaction_body',
      'wait_for_expiry',
    ]) {
      assert.ok(k in first, k);
    }
    const two = await client.schedules({ limit: 2 });
    assert.strictEqual(two.items.length, 2);
    assert.strictEqual(two.next, `${srv.url}/api/v1/schedules?limit=2&schedule.id=gt:0.0.3000`);
    const desc = await client.schedules({ accountId: { value: '0.0.1024' }, order: 'desc' });
    assert.ok(desc.items.every((s) => s.creator_account_id === '0.0.1024'));
  });

  it('one schedule with its values; 404 is "not found"', async () => {
    const s = await client.schedule('0.0.2000');
    assert.ok(s);
    assert.strictEqual(s.schedule_id, '0.0.2000');
    assert.deepStrictEqual(s.admin_key, { _type: 'ProtobufEncoded', key: '010101' });
    assert.strictEqual(s.memo, 'Created per council decision dated 02/01/21');
    assert.strictEqual(s.signatures.length, 2);
    assert.strictEqual(s.signatures[0].type, 'ECDSA_SECP256K1');
    assert.strictEqual(s.signatures[0].public_key_prefix, 'AQEB');
    assert.strictEqual(s.executed_timestamp, '1234567890.000001100');
    assert.strictEqual(scheduleState(s), 'executed');
    assert.strictEqual(await client.schedule('0.0.999999'), null);
  });

  it('contract results: values and next link', async () => {
    const one = await client.contractResults({ limit: 1 });
    const r = one.items[0] as ContractResult;
    assert.strictEqual(r.contract_id, '0.0.6001');
    assert.strictEqual(r.status, '0x1');
    assert.strictEqual(r.result, 'SUCCESS');
    assert.strictEqual(r.gas_used, 123);
    assert.strictEqual(r.block_number, 10);
    assert.strictEqual(r.timestamp, '187655.000123456');
    assert.deepStrictEqual(r.created_contract_ids, ['0.0.7001']);
    assert.deepStrictEqual(r.access_list, [
      {
        address: '0xa02457e5dfd32bda5fc7e1f1b008aa5979568150',
        storage_keys: ['0x0000000000000000000000000000000000000000000000000000000000000081'],
      },
    ]);
    assert.strictEqual(one.next, `${srv.url}/api/v1/contracts/results?limit=1&timestamp=lt:187655.000123456`);
    const all = await client.contractResults();
    assert.ok(all.items.length >= 1);
  });

  it('NFT history: entries, empty list for an unknown token', async () => {
    const page = await client.nftHistory('0.0.1500', '2');
    assert.ok(page.items.length > 0);
    const t = page.items[0] as NftTransaction;
    for (const k of [
      'consensus_timestamp',
      'is_approval',
      'nonce',
      'receiver_account_id',
      'sender_account_id',
      'transaction_id',
      'type',
    ])
      assert.ok(k in t, k);
    assert.strictEqual(page.partial, false);
    const limited = await client.nftHistory('0.0.1500', 2n, { limit: 2 });
    assert.strictEqual(limited.items.length, 2);
    const unknown = await client.nftHistory('0.0.9999', '1');
    assert.deepStrictEqual([unknown.items, unknown.next], [[], null]);
  });

  it("errors carry the server's exact messages", async () => {
    const http = new HttpClient({ tries: 1 });
    for (const [status, file, url] of index.filter(([s]) => s !== '200')) {
      const expected = JSON.parse(fixtureText(`mirror/captured/${file}`))._status.messages.map(
        (m: { message: string }) => m.message,
      );
      await assert.rejects(http.get(srv.url + url), (e: unknown) => {
        assert.ok(e instanceof ApiError);
        assert.strictEqual(e.status, Number(status));
        assert.deepStrictEqual(e.serverMessages, expected);
        return true;
      });
    }
  });
});
