/**
 * The sandbox's lookups of one entity over real HTTP, as hiero-mirror-node 0.160 answers them:
 * `/api/v1/accounts/{idOrAliasOrEvmAddress}` (rest/accounts.js getOneAccount), `/api/v1/tokens/{tokenId}`
 * (rest/tokens.js getTokenInfoRequest), `/api/v1/topics/{topicId}` (rest-java TopicController) and
 * `/api/v1/contracts/{contractIdOrAddress}` (getContractById): key order of the real view models, key sets of the spec
 * responses, every path form, the exact 400/404 bodies, the account's transactions and their paging, and consistency
 * with everything else the sandbox answers (every account, contract, token and topic another answer names resolves,
 * with the same ids, EVM addresses and aliases; balances move with the transactions; NFT collections' supply is the
 * serials the histories leave owned). Bodies are read losslessly (src/api/json.ts).
 */
import * as assert from 'assert';
import * as fs from 'fs';
import * as path from 'path';
import * as protobuf from 'protobufjs';
import { secp256k1 } from '@noble/curves/secp256k1';
import { keccak256 } from 'viem';
import { getJson, type JsonAnswer } from './helpers';
import { HOSTILE_TEXTS, type Sandbox, startSandbox } from '../src/server';
import { facadesOfRecord } from '../../src/api/replay/facade';

type Obj = Record<string, unknown>;
type Res = JsonAnswer;

const SHARED_SPECS = path.join(__dirname, '../../../../shared/fixtures/mirror/specs');
const PROTO_DIR = path.join(__dirname, '../../../node_modules/@hashgraph/proto/src/proto');

/** processRow's keys (rest/accounts.js), then getOneAccount's `transactions` and `links`. */
const ACCOUNT_KEYS = [
  'account',
  'alias',
  'auto_renew_period',
  'balance',
  'created_timestamp',
  'decline_reward',
  'delegation_address',
  'deleted',
  'ethereum_nonce',
  'evm_address',
  'expiry_timestamp',
  'key',
  'max_automatic_token_associations',
  'memo',
  'pending_reward',
  'receiver_sig_required',
  'staked_account_id',
  'staked_node_id',
  'stake_period_start',
  'transactions',
  'links',
];
/** formatTokenInfoRow's keys (rest/tokens.js). */
const TOKEN_KEYS = [
  'admin_key',
  'auto_renew_account',
  'auto_renew_period',
  'created_timestamp',
  'custom_fees',
  'decimals',
  'deleted',
  'expiry_timestamp',
  'fee_schedule_key',
  'freeze_default',
  'freeze_key',
  'initial_supply',
  'kyc_key',
  'max_supply',
  'memo',
  'metadata',
  'metadata_key',
  'modified_timestamp',
  'name',
  'pause_key',
  'pause_status',
  'supply_key',
  'supply_type',
  'symbol',
  'token_id',
  'total_supply',
  'treasury_account_id',
  'type',
  'wipe_key',
];
/** The OpenAPI Topic schema's properties, the order of the generated model rest-java serializes. */
const TOPIC_KEYS = [
  'admin_key',
  'auto_renew_account',
  'auto_renew_period',
  'created_timestamp',
  'custom_fees',
  'deleted',
  'fee_exempt_key_list',
  'fee_schedule_key',
  'memo',
  'submit_key',
  'timestamp',
  'topic_id',
];
/** ContractBytecodeViewModel's keys. */
const CONTRACT_KEYS = [
  'admin_key',
  'auto_renew_account',
  'auto_renew_period',
  'bytecode',
  'contract_id',
  'created_timestamp',
  'deleted',
  'evm_address',
  'expiration_timestamp',
  'file_id',
  'max_automatic_token_associations',
  'memo',
  'nonce',
  'obtainer_id',
  'permanent_removal',
  'proxy_account_id',
  'runtime_bytecode',
  'timestamp',
];

const errorOf = (...messages: string[]): Obj => ({ _status: { messages: messages.map((message) => ({ message })) } });
const NOT_FOUND = errorOf('Not found');
const ACCOUNT_400 = errorOf('Invalid parameter: idOrAliasOrEvmAddress');
const TS = /^\d{10}\.\d{9}$/;
const num = (id: string): number => Number(id.split('.')[2]);
const lz = (id: string | number): string =>
  '0x' +
  BigInt(String(id).split('.').pop() as string)
    .toString(16)
    .padStart(40, '0');
const big = (v: unknown): bigint => BigInt(v as number | bigint);

/** RFC 4648 base32, no padding (written here independently of the sandbox's). */
function base32(hex: string): string {
  const bits = [...Buffer.from(hex, 'hex')].map((b) => b.toString(2).padStart(8, '0')).join('');
  let out = '';
  for (let i = 0; i < bits.length; i += 5)
    out += 'ABCDEFGHIJKLMNOPQRSTUVWXYZ234567'[parseInt(bits.slice(i, i + 5).padEnd(5, '0'), 2)];
  return out;
}

function specResponses(file: string): { url: string; status: number; json: Obj }[] {
  const d = JSON.parse(fs.readFileSync(path.join(SHARED_SPECS, file), 'utf8')) as Obj;
  const tests = Array.isArray(d.tests) ? (d.tests as Obj[]) : [d];
  return tests.flatMap((t) =>
    ((Array.isArray(t.urls) ? t.urls : [t.url]) as string[]).map((url) => ({
      url,
      status: t.responseStatus as number,
      json: t.responseJson as Obj,
    })),
  );
}

let sb: Sandbox;
let notable: Obj;
let lookups: { accounts: Record<string, unknown>; tokens: Record<string, unknown>; topics: Record<string, string> };

const get = (url: string, headers: Record<string, string> = {}): Promise<Res> => getJson(sb.url, url, headers);

async function pages(first: string, key: string, max = 1000): Promise<Obj[]> {
  const out: Obj[] = [];
  let url: string | null = first;
  while (url && out.length < max) {
    const r = await get(url);
    assert.ok(r.status === 200 || r.status === 206, `${url}: ${r.status}`);
    out.push(...(r.json[key] as Obj[]));
    url = (r.json.links as Obj).next as string | null;
  }
  return out;
}

/** Ids of a decoded protobuf message: every AccountID, TokenID, ContractID and TopicID in it. */
function protoIds(
  v: unknown,
  into: { accounts: Set<string>; tokens: Set<string>; contracts: Set<string>; topics: Set<string> },
): void {
  if (Array.isArray(v)) for (const x of v) protoIds(x, into);
  else if (v && typeof v === 'object') {
    const o = v as Obj;
    const id = (n: unknown): string => `${Number(o.shardNum ?? 0)}.${Number(o.realmNum ?? 0)}.${Number(n)}`;
    if (o.accountNum !== undefined) into.accounts.add(id(o.accountNum));
    if (o.tokenNum !== undefined) into.tokens.add(id(o.tokenNum));
    if (o.contractNum !== undefined) into.contracts.add(id(o.contractNum));
    if (o.topicNum !== undefined) into.topics.add(id(o.topicNum));
    for (const x of Object.values(o)) protoIds(x, into);
  }
}

describe('sandbox: lookups of accounts, tokens, topics and contracts', function () {
  this.timeout(120_000);

  before(async () => {
    sb = await startSandbox({ port: 0 });
    notable = (await get('/__sandbox/health')).json.notable as Obj;
    lookups = notable.lookups as typeof lookups;
  });
  after(() => sb.close());

  describe('GET /api/v1/accounts/{idOrAliasOrEvmAddress}', () => {
    it("the real key order and the spec responses' key sets, values of the right types", async () => {
      const spec = specResponses('accounts/{id}/no-params.json')[0].json;
      const r = await get(`/api/v1/accounts/${lookups.accounts.owner as string}`);
      assert.strictEqual(r.status, 200);
      assert.deepStrictEqual(Object.keys(r.json), ACCOUNT_KEYS);
      assert.deepStrictEqual(
        Object.keys(r.json).sort(),
        Object.keys(spec).sort(),
        'the spec response has the same keys',
      );
      assert.deepStrictEqual(
        Object.keys(r.json.balance as Obj),
        ['balance', 'timestamp', 'tokens'],
        'processRow: balance, timestamp, tokens',
      );
      for (const t of (r.json.balance as Obj).tokens as Obj[])
        assert.deepStrictEqual(Object.keys(t), ['token_id', 'balance']);
      assert.strictEqual(r.headers.get('cache-control'), 'public, max-age=2', 'as accounts/{id}/responseHeaders.json');
      assert.match(r.headers.get('etag') as string, /^W\//);
      assert.strictEqual(
        (
          await get(`/api/v1/accounts/${lookups.accounts.owner as string}`, {
            'If-None-Match': r.headers.get('etag') as string,
          })
        ).status,
        304,
      );
      // the types the spec shows, key by key
      const specTypes = (o: Obj): Record<string, string> =>
        Object.fromEntries(
          Object.entries(o).map(([k, v]) => [k, v === null ? 'null' : Array.isArray(v) ? 'array' : typeof v]),
        );
      const ours = specTypes(r.json);
      for (const [k, t] of Object.entries(specTypes(spec))) {
        if (t === 'null' || ours[k] === 'null') continue;
        assert.strictEqual(ours[k] === 'bigint' ? 'number' : ours[k], t, k);
      }
      for (const a of [
        lookups.accounts.owner,
        lookups.accounts.relay,
        lookups.accounts.depositor,
        lookups.accounts.feeAccount,
        lookups.accounts.contract,
      ] as string[]) {
        const o = (await get(`/api/v1/accounts/${a}?transactions=false`)).json;
        assert.strictEqual(o.account, a);
        assert.match(o.evm_address as string, /^0x[0-9a-f]{40}$/);
        assert.ok(o.created_timestamp === null || TS.test(o.created_timestamp as string));
        assert.ok(
          o.key === null || ['ED25519', 'ECDSA_SECP256K1', 'ProtobufEncoded'].includes((o.key as Obj)._type as string),
        );
        assert.strictEqual(o.delegation_address, '0x', 'no delegation: 0x (processRow)');
        assert.deepStrictEqual(o.transactions, []);
        assert.deepStrictEqual(o.links, { next: null });
      }
    });

    it("the inspector's alias accounts: Hardhat's keys, their EVM addresses as aliases (base32), the same object by every path form", async () => {
      const ins = (notable.inspector as Obj).accounts as Record<string, { id: string; evm: string }>;
      for (const who of [ins.owner, ins.aliasSender]) {
        const byId = (await get(`/api/v1/accounts/${who.id}?transactions=false`)).json;
        const evm = who.evm.slice(2);
        assert.strictEqual(byId.evm_address, who.evm);
        assert.strictEqual(byId.alias, base32(evm), 'the alias is the 20-byte address, base32');
        const key = byId.key as Obj;
        assert.strictEqual(key._type, 'ECDSA_SECP256K1');
        // the key is the one of the address: keccak256 of the uncompressed point, last 20 bytes
        const point = secp256k1.ProjectivePoint.fromHex(key.key as string).toRawBytes(false);
        assert.strictEqual(keccak256(point.slice(1)).slice(-40), evm);
        const forms = [
          who.id.split('.')[2],
          `0.${who.id.split('.')[2]}`,
          lz(who.id),
          lz(who.id).slice(2),
          byId.alias,
          `0.${byId.alias as string}`,
          `0.0.${byId.alias as string}`,
          evm,
          `0x${evm}`,
          `0.0.${evm}`,
          evm.toUpperCase(),
        ];
        for (const f of forms)
          assert.deepStrictEqual(
            (await get(`/api/v1/accounts/${f as string}?transactions=false`)).json,
            byId,
            String(f),
          );
      }
      const owner = (await get(`/api/v1/accounts/${ins.owner.id}?transactions=false`)).json;
      assert.strictEqual(owner.ethereum_nonce, 3, "the three deployments of the inspector's contracts");
      assert.strictEqual(
        (await get(`/api/v1/accounts/${ins.aliasSender.id}?transactions=false`)).json.ethereum_nonce,
        10,
        'after its Ethereum transactions of nonce 7, 8 and 9 (a failed deployment takes its nonce too)',
      );
    });

    it('a contract is an account of type CONTRACT: its own EVM address, its key, the same creation as /contracts/{id}', async () => {
      const vault = ((notable.inspector as Obj).contracts as Obj).vault as { id: string; evm: string };
      const a = (await get(`/api/v1/accounts/${vault.evm}?transactions=false`)).json;
      const c = (await get(`/api/v1/contracts/${vault.id}`)).json;
      assert.strictEqual(a.account, vault.id);
      assert.strictEqual(a.evm_address, c.evm_address);
      assert.strictEqual(a.created_timestamp, c.created_timestamp);
      assert.deepStrictEqual(a.key, c.admin_key);
      assert.strictEqual(a.ethereum_nonce, c.nonce);
      assert.strictEqual(a.alias, null);
    });

    it('400 for what is no id, no EVM address and no alias; the query is checked first', async () => {
      for (const bad of [
        '0.5.6.7',
        'abc',
        'KGNABD5L3ZGSRVUCSPDR7TONZSRY3D5OMEBKQMVTD2AC6JL72000',
        '0.KGNABD5L3ZGSRVUCSPDR7TONZSRY3D5OMEBKQMVTD2AC6JL72000',
        '9.2.0000000000000000000000000000000000000013',
        '0.70000.1',
        '274877906944',
        '-1',
        '1.0.6OP5NZI2VWEPN5GONK4IE4TZZ773SITG',
        'A',
        '0.0.0x70997970c51812dc3a010c7d01b50e0d17dc79c8',
      ]) {
        const r = await get(`/api/v1/accounts/${bad}`);
        assert.strictEqual(r.status, 400, bad);
        assert.deepStrictEqual(r.json, ACCOUNT_400, bad);
      }
      // buildAndValidateFilters: every invalid value, then every unknown parameter (each value), before the path
      const r = await get(
        '/api/v1/accounts/0.5.6.7?transactionType=invalid&limit=0&foo=1&order=up&foo=2&transactions=maybe',
      );
      assert.deepStrictEqual(
        r.json,
        errorOf(
          'Invalid parameter: transactiontype',
          'Invalid parameter: limit',
          'Invalid parameter: order',
          'Invalid parameter: transactions',
          'Unknown query parameter: foo',
          'Unknown query parameter: foo',
        ),
      );
      assert.deepStrictEqual(
        (await get(`/api/v1/accounts/${lookups.accounts.owner as string}?transactions=eq:false&transactions=gt:true`))
          .json,
        errorOf('Invalid parameter: transactions'),
        'eq:false is valid',
      );
      // timestamps: parseTimestampFilters' strict checks, after the path
      const owner = lookups.accounts.owner as string;
      assert.deepStrictEqual(
        (await get(`/api/v1/accounts/${owner}?timestamp=gt:1&timestamp=gte:2`)).json,
        errorOf('Multiple gt or gte operators not permitted for timestamp param'),
      );
      assert.deepStrictEqual(
        (await get(`/api/v1/accounts/${owner}?timestamp=lt:1&timestamp=lte:2`)).json,
        errorOf('Multiple lt or lte operators not permitted for timestamp param'),
      );
      assert.deepStrictEqual(
        (await get(`/api/v1/accounts/${owner}?timestamp=1&timestamp=ne:2`)).json,
        errorOf('Cannot combine eq with ne, gt, gte, lt, or lte for timestamp param'),
      );
      assert.deepStrictEqual(
        (await get('/api/v1/accounts/0.5.6.7?timestamp=gt:1&timestamp=gte:2')).json,
        ACCOUNT_400,
        'the path before the timestamps',
      );
    });

    it('404: an unknown id, an alias no account has, an EVM address no entity has, an empty range, a time before the account existed', async () => {
      assert.deepStrictEqual((await get('/api/v1/accounts/0.0.1')).json, NOT_FOUND);
      assert.deepStrictEqual((await get('/api/v1/accounts/0.0.274877906943')).json, NOT_FOUND);
      assert.deepStrictEqual(
        (await get('/api/v1/accounts/0x5555555555555555555555555555555555555555')).json,
        NOT_FOUND,
      );
      assert.deepStrictEqual(
        (await get('/api/v1/accounts/AAAAAA5L3ZGSRVUCSPDR7TONZSRY3D5OMEBKQMVTD2AC6JL72HMQ')).json,
        errorOf('No account with a matching alias found'),
      );
      assert.deepStrictEqual(
        (
          await get(
            `/api/v1/accounts/${lookups.accounts.owner as string}?timestamp=gt:1566199013.000111222&timestamp=lte:1566199013.000111222`,
          )
        ).json,
        errorOf('Timestamp range is empty'),
      );
      assert.deepStrictEqual(
        (await get('/api/v1/accounts/0.0.1?timestamp=gt:5&timestamp=lt:5')).json,
        errorOf('Timestamp range is empty'),
        'the range before the entity',
      );
      const created = (await get(`/api/v1/accounts/${lookups.accounts.owner as string}?transactions=false`)).json
        .created_timestamp as string;
      assert.strictEqual(
        (await get(`/api/v1/accounts/${lookups.accounts.owner as string}?timestamp=lt:${created}`)).status,
        404,
      );
      assert.strictEqual(
        (await get(`/api/v1/accounts/${lookups.accounts.owner as string}?timestamp=lte:${created}`)).status,
        200,
      );
      const r = await get('/api/v1/accounts/0.0.1');
      assert.strictEqual(r.headers.get('cache-control'), null, 'errors carry no cache-control');
    });

    it("its transactions are GET /transactions?account.id= (limit, order, timestamp, transactiontype), links.next on the account's path", async () => {
      for (const who of [
        lookups.accounts.owner,
        lookups.accounts.relay,
        lookups.accounts.feeAccount,
        lookups.accounts.contract,
      ] as string[]) {
        for (const q of [
          '',
          'limit=3',
          'limit=4&order=asc',
          'transactiontype=cryptotransfer&limit=2',
          'transactionType=CONTRACTCALL&limit=5',
        ]) {
          const a = await get(`/api/v1/accounts/${who}${q ? '?' + q : ''}`);
          const t = await get(
            `/api/v1/transactions?account.id=${who}${q ? '&' + q.replace('transactionType', 'transactiontype') : ''}`,
          );
          assert.deepStrictEqual(a.json.transactions, t.json.transactions, `${who} ${q}`);
          const next = (a.json.links as Obj).next as string | null;
          const tNext = (t.json.links as Obj).next as string | null;
          assert.strictEqual(next === null, tNext === null, `${who} ${q}: next`);
          if (next) {
            assert.ok(next.startsWith(`/api/v1/accounts/${who}?`), next);
            assert.strictEqual(next.split('timestamp=').pop(), (tNext as string).split('timestamp=').pop());
            assert.strictEqual(a.headers.get('link'), `<${next}>; rel="next"`);
          }
        }
      }
      // the default page: 25, newest first; following the links walks the same list as /transactions
      const relay = lookups.accounts.relay as string;
      const first = await get(`/api/v1/accounts/${relay}`);
      assert.strictEqual((first.json.transactions as Obj[]).length, 25);
      const all = await pages(`/api/v1/transactions?account.id=${relay}&limit=100`, 'transactions', 200);
      const walked: Obj[] = [];
      let url: string | null = `/api/v1/accounts/${relay}?limit=40`;
      while (url && walked.length < 120) {
        const r = await get(url);
        walked.push(...(r.json.transactions as Obj[]));
        url = (r.json.links as Obj).next as string | null;
      }
      assert.deepStrictEqual(
        walked.slice(0, 120).map((x) => x.consensus_timestamp),
        all.slice(0, 120).map((x) => x.consensus_timestamp),
      );
      // transactions=false: none, and no link; the last value wins
      const none = await get(`/api/v1/accounts/${relay}?transactions=true&transactions=FALSE`);
      assert.deepStrictEqual(none.json.transactions, []);
      assert.deepStrictEqual(none.json.links, { next: null });
      // a timestamp range limits the transactions, not the account
      const ts = (first.json.transactions as Obj[])[3].consensus_timestamp as string;
      const ranged = await get(`/api/v1/accounts/${relay}?timestamp=lte:${ts}&limit=2`);
      assert.strictEqual((ranged.json.transactions as Obj[])[0].consensus_timestamp, ts);
      assert.strictEqual(ranged.json.account, relay);
    });

    it("balances follow the transactions: new results move the payer's HBAR by exactly their transfers, a fungible token's supply is its holders' balances", async () => {
      const before = (await get('/api/v1/contracts/results?limit=1')).json.results as Obj[];
      const since = before[0].timestamp as string;
      const sbLocal = await startSandbox({ port: 0 });
      try {
        const local = (u: string): Promise<Res> => getJson(sbLocal.url, u);
        const sender = (((await local('/__sandbox/health')).json.notable as Obj).contractResults as Obj)
          .nativeSender as string;
        const b0 = (await local(`/api/v1/accounts/${sender}?transactions=false`)).json.balance as Obj;
        sbLocal.addContractResults({ count: 200 });
        const added = await (async (): Promise<Obj[]> => {
          const out: Obj[] = [];
          let url: string | null = `/api/v1/transactions?timestamp=gt:${since}&limit=100&order=asc`;
          while (url) {
            const r = await local(url);
            out.push(...(r.json.transactions as Obj[]));
            url = (r.json.links as Obj).next as string | null;
          }
          return out;
        })();
        let moved = 0n;
        for (const t of added) for (const x of t.transfers as Obj[]) if (x.account === sender) moved += big(x.amount);
        assert.ok(moved !== 0n, 'the sender paid for some of the new transactions');
        const b1 = (await local(`/api/v1/accounts/${sender}?transactions=false`)).json.balance as Obj;
        assert.strictEqual(big(b1.balance) - big(b0.balance), moved);
        assert.ok(big(b1.balance) > 0n);
        const newest = added.filter((t) => (t.transfers as Obj[]).some((x) => x.account === sender)).pop() as Obj;
        assert.strictEqual(b1.timestamp, newest.consensus_timestamp, "the balance's timestamp is its last change");
      } finally {
        await sbLocal.close();
      }
      // the Vault's reward token: every holder (treasury, Vault, the alias sender it paid, the fee collector)
      const token = (await get(`/api/v1/tokens/${lookups.tokens.payout as string}`)).json;
      let sum = 0n;
      for (const holder of ['0.0.7000', '0.0.7001', '0.0.7005', '0.0.7009']) {
        const bal = (
          ((await get(`/api/v1/accounts/${holder}?transactions=false`)).json.balance as Obj).tokens as Obj[]
        ).find((t) => t.token_id === token.token_id);
        assert.ok(bal, `${holder} holds ${String(token.token_id)}`);
        sum += big(bal.balance);
      }
      assert.strictEqual(String(sum), token.total_supply);
      // what the precompile scenario moved, with every digit: the alias sender holds exactly what it received
      const aliasTokens = ((await get('/api/v1/accounts/0.0.7005?transactions=false')).json.balance as Obj)
        .tokens as Obj[];
      assert.strictEqual(big(aliasTokens.find((t) => t.token_id === '0.0.7004')?.balance), 8998192055486253n);
    });
  });

  describe('GET /api/v1/tokens/{tokenId}', () => {
    it("TokenInfo in formatTokenInfoRow's order, the spec's key sets, fungible and NFT custom fees", async () => {
      const fungibleSpec = specResponses('tokens/{id}/custom-fees.json')[0].json;
      const nftSpec = specResponses('tokens/{id}/nft-custom-fees.json')[0].json;
      for (const [id, spec] of [
        [lookups.tokens.payout, fungibleSpec],
        [lookups.tokens.withFractionalFee, fungibleSpec],
        [lookups.tokens.collection, nftSpec],
        [lookups.tokens.htsNft, nftSpec],
      ] as [string, Obj][]) {
        const r = await get(`/api/v1/tokens/${id}`);
        assert.strictEqual(r.status, 200, id);
        assert.deepStrictEqual(Object.keys(r.json), TOKEN_KEYS, id);
        assert.deepStrictEqual(Object.keys(r.json).sort(), Object.keys(spec).sort(), id);
        const fees = r.json.custom_fees as Obj;
        assert.deepStrictEqual(Object.keys(fees), Object.keys(spec.custom_fees as Obj), `${id}: custom_fees keys`);
        for (const kind of ['fixed_fees', 'fractional_fees', 'royalty_fees']) {
          const specItem = ((spec.custom_fees as Obj)[kind] as Obj[] | undefined)?.[0];
          for (const f of (fees[kind] as Obj[] | undefined) ?? []) {
            // key sets only: the spec files are compared with deep equality, not written in the view model's order
            assert.deepStrictEqual(Object.keys(f).sort(), Object.keys(specItem as Obj).sort(), `${id} ${kind}`);
            assert.deepStrictEqual(
              Object.keys(f.amount as Obj).sort(),
              Object.keys(specItem?.amount as Obj).sort(),
              `${id} ${kind} amount`,
            );
          }
        }
        for (const k of ['decimals', 'initial_supply', 'max_supply', 'total_supply'])
          assert.match(r.json[k] as string, /^\d+$/, `${id} ${k} as a string`);
        assert.strictEqual(
          typeof r.json.expiry_timestamp === 'bigint' || typeof r.json.expiry_timestamp === 'number',
          true,
          'expiry_timestamp in nanoseconds, a number',
        );
        assert.strictEqual(r.headers.get('cache-control'), 'public, max-age=5');
        // the treasury resolves, and holds the token
        const treasury = (await get(`/api/v1/accounts/${r.json.treasury_account_id as string}?transactions=false`))
          .json;
        assert.ok(
          ((treasury.balance as Obj).tokens as Obj[]).some((t) => t.token_id === id),
          `${id}'s treasury is associated`,
        );
      }
      const vrt = (await get(`/api/v1/tokens/${lookups.tokens.payout as string}`)).json;
      // CustomFeeViewModel's order: a fractional amount numerator first, a royalty amount denominator first
      assert.deepStrictEqual(Object.keys(((vrt.custom_fees as Obj).fractional_fees as Obj[])[0].amount as Obj), [
        'numerator',
        'denominator',
      ]);
      const heroFees = ((await get(`/api/v1/tokens/${lookups.tokens.collection as string}`)).json.custom_fees as Obj)
        .royalty_fees as Obj[];
      assert.deepStrictEqual(Object.keys(heroFees[0]), [
        'all_collectors_are_exempt',
        'amount',
        'collector_account_id',
        'fallback_fee',
      ]);
      assert.deepStrictEqual(Object.keys(heroFees[0].amount as Obj), ['denominator', 'numerator']);
      assert.deepStrictEqual(
        ((vrt.custom_fees as Obj).fractional_fees as Obj[])[0],
        {
          all_collectors_are_exempt: false,
          amount: { numerator: 1, denominator: 1000 },
          collector_account_id: '0.0.7009',
          denominating_token_id: '0.0.7004',
          maximum: null,
          minimum: 1,
          net_of_transfers: false,
        },
        'the fee the precompile scenario assesses',
      );
      assert.strictEqual(vrt.type, 'FUNGIBLE_COMMON');
      const hero = (await get(`/api/v1/tokens/${lookups.tokens.collection as string}`)).json;
      assert.strictEqual(hero.type, 'NON_FUNGIBLE_UNIQUE');
      assert.strictEqual(hero.decimals, '0');
    });

    it("an NFT collection's supply is the serials its histories leave owned, each owner's balance its count", async () => {
      const owners = new Map<string, number>();
      let alive = 0;
      const serials = [...Array.from({ length: 40 }, (_, i) => String(i + 1)), '9223372036854775807'];
      for (const s of serials) {
        const h = await get(`/api/v1/tokens/${lookups.tokens.collection as string}/nfts/${s}/transactions?limit=100`);
        const entries = h.json.transactions as Obj[];
        if (!entries.length) continue;
        let owner: string | null = null;
        for (const e of entries) {
          if (e.type === 'TOKENBURN' || e.type === 'TOKENWIPE') break;
          if (typeof e.receiver_account_id === 'string') {
            owner = e.receiver_account_id;
            break;
          }
        }
        if (owner === null) continue;
        alive++;
        owners.set(owner, (owners.get(owner) ?? 0) + 1);
      }
      const token = (await get(`/api/v1/tokens/${lookups.tokens.collection as string}`)).json;
      assert.strictEqual(token.total_supply, String(alive));
      for (const [owner, count] of owners) {
        const tokens = ((await get(`/api/v1/accounts/${owner}?transactions=false`)).json.balance as Obj)
          .tokens as Obj[];
        assert.strictEqual(big(tokens.find((t) => t.token_id === token.token_id)?.balance), BigInt(count), owner);
      }
    });

    it('path forms, 400 Invalid parameter: tokenid, timestamp validation as the spec, 404 before creation and for contracts', async () => {
      const id = lookups.tokens.payout as string;
      const body = (await get(`/api/v1/tokens/${id}`)).json;
      for (const f of [
        num(id),
        `0.${num(id)}`,
        lz(id),
        lz(id).slice(2),
        `0.0.${lz(id).slice(2)}`,
        lz(id).toUpperCase().replace('0X', '0x'),
      ])
        assert.deepStrictEqual((await get(`/api/v1/tokens/${f}`)).json, body, String(f));
      for (const bad of ['abc', `0.0.${lz(id)}`, '06bd279138d5918402fc8ad500526cb2ee0eb985', '1.2.3.4', '0.70000.1']) {
        const r = await get(`/api/v1/tokens/${bad}`);
        assert.strictEqual(r.status, 400, bad);
        assert.deepStrictEqual(r.json, errorOf('Invalid parameter: tokenid'), bad);
      }
      const spec = specResponses('tokens/{id}/invalid-param-values.json')[0];
      assert.deepStrictEqual(
        (await get(spec.url.replace('1135', id))).json,
        spec.json,
        "the spec's invalid parameters, message for message",
      );
      const created = body.created_timestamp as string;
      assert.deepStrictEqual((await get(`/api/v1/tokens/${id}?timestamp=lt:${created}`)).json, NOT_FOUND);
      assert.strictEqual((await get(`/api/v1/tokens/${id}?timestamp=${created}`)).status, 200);
      assert.strictEqual(
        (await get(`/api/v1/tokens/${id}?timestamp=lt:1&timestamp=lte:9999999999`)).status,
        200,
        'the last timestamp filter counts',
      );
      assert.deepStrictEqual((await get('/api/v1/tokens/0.0.1')).json, NOT_FOUND);
      // the generated ERC-20 and ERC-721 contracts are contracts, not HTS tokens
      const erc = ((await get('/api/v1/contracts/results?limit=100')).json.results as Obj[]).map(
        (x) => x.contract_id as string,
      );
      for (const c of [...new Set(erc)].slice(0, 5)) {
        assert.deepStrictEqual((await get(`/api/v1/tokens/${c}`)).json, NOT_FOUND, c);
        assert.strictEqual((await get(`/api/v1/contracts/${c}`)).status, 200, c);
      }
    });
  });

  describe('GET /api/v1/topics/{topicId}', () => {
    it("the Topic model's keys, keys and fees as set; 400 and 404 as rest-java writes them; the query is ignored", async () => {
      for (const [k, id] of Object.entries(lookups.topics)) {
        const r = await get(`/api/v1/topics/${id}`);
        assert.strictEqual(r.status, 200, k);
        assert.deepStrictEqual(Object.keys(r.json), TOPIC_KEYS, k);
        assert.strictEqual(r.json.topic_id, id);
        assert.match(r.json.created_timestamp as string, TS);
        assert.deepStrictEqual(r.json.timestamp, { from: r.json.created_timestamp, to: null });
        assert.deepStrictEqual(Object.keys(r.json.custom_fees as Obj), ['created_timestamp', 'fixed_fees']);
        assert.strictEqual(r.headers.get('cache-control'), 'public, max-age=1');
        assert.deepStrictEqual(
          (await get(`/api/v1/topics/${id.split('.')[2]}?foo=bar`)).json,
          r.json,
          `${k}: num form, query ignored`,
        );
        if (r.json.auto_renew_account !== null)
          assert.strictEqual(
            (await get(`/api/v1/accounts/${r.json.auto_renew_account as string}?transactions=false`)).status,
            200,
          );
      }
      const open = (await get(`/api/v1/topics/${lookups.topics.open}`)).json;
      assert.strictEqual(open.admin_key, null);
      assert.strictEqual(open.submit_key, null);
      assert.deepStrictEqual(open.custom_fees, { created_timestamp: '0.000000000', fixed_fees: [] });
      const paid = (await get(`/api/v1/topics/${lookups.topics.withFees}`)).json;
      const fees = (paid.custom_fees as Obj).fixed_fees as Obj[];
      assert.deepStrictEqual(
        fees.map((f) => Object.keys(f)),
        fees.map(() => ['amount', 'collector_account_id', 'denominating_token_id']),
      );
      for (const f of fees)
        if (f.denominating_token_id !== null)
          assert.strictEqual((await get(`/api/v1/tokens/${f.denominating_token_id as string}`)).status, 200);
      assert.strictEqual((paid.fee_exempt_key_list as Obj[]).length, 1);
      const notFound = await get('/api/v1/topics/0.0.1');
      assert.strictEqual(notFound.status, 404);
      assert.strictEqual(
        notFound.text,
        '{"_status":{"messages":[{"detail":"Topic not found","message":"Not Found"}]}}',
      );
      assert.strictEqual(
        (await get(`/api/v1/topics/${lookups.accounts.owner as string}`)).status,
        404,
        'an account is no topic',
      );
      for (const bad of ['abc', '0.0.274877906944', '1.2.3.4', '0x01']) {
        const r = await get(`/api/v1/topics/${bad}`);
        assert.strictEqual(r.status, 400, bad);
        assert.strictEqual(
          r.text,
          '{"_status":{"messages":[{"detail":"Failed to convert \'id\'","message":"Bad Request"}]}}',
          bad,
        );
      }
    });
  });

  describe('GET /api/v1/contracts/{contractIdOrAddress}', () => {
    it("every contract: the spec's keys in the view model's order, its EVM address as the results and /accounts have it, file_id and memo by how it was created", async () => {
      const spec = specResponses('contracts/{id}/specific-id.json')[0].json;
      const results = await pages('/api/v1/contracts/results?limit=100&internal=true', 'results', 1500);
      const addresses = new Map<string, string>();
      for (const x of results)
        if (typeof x.contract_id === 'string' && !/^0\.0\.3(59|6[0-2])$/.test(x.contract_id))
          addresses.set(x.contract_id, x.address as string);
      assert.ok(addresses.size >= 26, `${addresses.size} contracts`);
      for (const [id, address] of addresses) {
        const r = await get(`/api/v1/contracts/${id}`);
        assert.strictEqual(r.status, 200, id);
        assert.deepStrictEqual(Object.keys(r.json), CONTRACT_KEYS, id);
        assert.deepStrictEqual(Object.keys(r.json).sort(), Object.keys(spec).sort(), id);
        assert.strictEqual(r.json.evm_address, address, `${id}: the address its results show`);
        assert.match(r.json.runtime_bytecode as string, /^0x(60806040|608060405260)/);
        const own = address !== lz(id);
        assert.strictEqual(r.json.file_id === null, own, `${id}: a HAPI create has its bytecode file`);
        if (!own) assert.ok((r.json.memo as string).length > 0, `${id}: memo`);
        assert.strictEqual((r.json.admin_key as Obj)._type, own ? 'ProtobufEncoded' : 'ED25519');
        assert.strictEqual(r.headers.get('cache-control'), 'public, max-age=1');
        const acct = (await get(`/api/v1/accounts/${address}?transactions=false`)).json;
        assert.strictEqual(acct.account, id, `${address} is ${id} on /accounts too`);
        assert.strictEqual(acct.evm_address, address);
        assert.strictEqual(
          (await get(`/api/v1/contracts/${id}?timestamp=lt:${r.json.created_timestamp as string}`)).status,
          404,
        );
      }
      assert.deepStrictEqual(
        (await get('/api/v1/contracts/0.0.7001?timestamp=a&timestamp=el:10&timestamp=-1')).json,
        errorOf('Invalid parameter: timestamp', 'Invalid parameter: timestamp', 'Invalid parameter: timestamp'),
      );
      assert.deepStrictEqual(
        (await get('/api/v1/contracts/abc?timestamp=a')).json,
        errorOf('Invalid parameter: contractid'),
        'the path first',
      );
      assert.deepStrictEqual(
        (await get('/api/v1/contracts/0.0.7001?foo=1')).json,
        errorOf('Unknown query parameter: foo'),
      );
    });
  });

  describe('consistency with every other answer', () => {
    it('every account, contract, token and topic that results, transactions, actions, schedules and NFT histories name resolves, with the same EVM addresses', async () => {
      const ids = {
        accounts: new Set<string>(),
        tokens: new Set<string>(),
        contracts: new Set<string>(),
        topics: new Set<string>(),
      };
      const evmOf = new Map<string, string>();
      // contract results (internal too) and their senders
      for (const x of await pages('/api/v1/contracts/results?limit=100&internal=true', 'results', 800)) {
        // a failed deployment (inspectorCreateRevert) names no contract: contract_id null, as the real server
        if (x.contract_id !== null) ids.contracts.add(x.contract_id as string);
        ids.accounts.add(`0.0.${BigInt(x.from as string)}`);
      }
      // the senders with EVM aliases: the address they send from
      const alias = (notable.contractResults as Obj).aliasSender as { id: string; evm: string };
      evmOf.set(alias.id, alias.evm);
      // transactions: payers, nodes, transfers, token transfers, NFT transfers, entities
      for (const t of await pages('/api/v1/transactions?limit=100', 'transactions', 1500)) {
        ids.accounts.add((t.transaction_id as string).split('-')[0]);
        ids.accounts.add(t.node as string);
        for (const x of t.transfers as Obj[]) ids.accounts.add(x.account as string);
        for (const x of t.token_transfers as Obj[]) {
          ids.accounts.add(x.account as string);
          ids.tokens.add(x.token_id as string);
        }
        for (const x of t.nft_transfers as Obj[]) {
          ids.accounts.add(x.sender_account_id as string);
          ids.accounts.add(x.receiver_account_id as string);
          ids.tokens.add(x.token_id as string);
        }
        if (t.entity_id) ids.contracts.add(t.entity_id as string);
      }
      // the inspector's actions
      for (const [k, s] of Object.entries(notable.inspector as Obj)) {
        if (!k.startsWith('inspector') || k === 'inspectorBigTrace') continue;
        const actions = await pages(
          `/api/v1/contracts/results/${(s as Obj).transactionId as string}/actions?limit=100`,
          'actions',
        );
        // a token's facade is recorded as a CONTRACT party (it runs the redirect code), yet it is a token
        const facades = new Set(facadesOfRecord(actions).values());
        for (const a of actions) {
          for (const [id, type] of [
            [a.caller, a.caller_type],
            [a.recipient, a.recipient_type],
          ] as [string | null, string | null][]) {
            if (id === null) continue;
            (facades.has(id) ? ids.tokens : type === 'CONTRACT' ? ids.contracts : ids.accounts).add(id);
          }
        }
      }
      // schedules: creators, payers, and every id of their transaction bodies
      const root = new protobuf.Root();
      root.resolvePath = (_o, target) => path.join(PROTO_DIR, path.basename(target));
      root.loadSync(path.join(PROTO_DIR, 'services_schedulable_transaction_body.proto'), { keepCase: true });
      const Body = root.lookupType('proto.SchedulableTransactionBody');
      for (const s of await pages('/api/v1/schedules?limit=100', 'schedules')) {
        ids.accounts.add(s.creator_account_id as string);
        ids.accounts.add(s.payer_account_id as string);
        protoIds(
          Body.toObject(Body.decode(Buffer.from(s.transaction_body as string, 'base64')), { longs: String }),
          ids,
        );
      }
      // NFT histories: senders, receivers, payers
      const nfts = notable.nfts as Record<string, string>;
      for (const t of [nfts.token, nfts.token2]) ids.tokens.add(t);
      for (const key of ['approvalsAndBurn', 'madeUpType', 'maxSerial', 'partialHistory']) {
        const [token, serial] = nfts[key].split('/');
        for (const e of await pages(`/api/v1/tokens/${token}/nfts/${serial}/transactions?limit=100`, 'transactions')) {
          ids.accounts.add((e.transaction_id as string).split('-')[0]);
          for (const k of ['sender_account_id', 'receiver_account_id']) if (e[k]) ids.accounts.add(e[k] as string);
        }
      }
      // the system contracts (0x167 token service, 0x168 exchange rate, 0x169 PRNG, 0x16a account service) are no
      // entities: the real /accounts and /contracts answer 404 for them too
      const system = /^0\.0\.(359|36[0-2])$/;
      assert.ok(
        ids.accounts.size > 50 && ids.contracts.size >= 26 && ids.tokens.size >= 8 && ids.topics.size >= 2,
        `${ids.accounts.size} accounts, ${ids.contracts.size} contracts, ${ids.tokens.size} tokens, ${ids.topics.size} topics`,
      );
      const missing: string[] = [];
      for (const id of ids.accounts) {
        if (system.test(id)) continue;
        const r = await get(`/api/v1/accounts/${id}?transactions=false`);
        if (r.status !== 200 || r.json.account !== id) missing.push(`account ${id}: ${r.status}`);
        else if (evmOf.has(id) && r.json.evm_address !== evmOf.get(id))
          missing.push(`account ${id}: evm ${String(r.json.evm_address)}`);
        else if (
          evmOf.has(id) &&
          (await get(`/api/v1/accounts/${evmOf.get(id) as string}?transactions=false`)).json.account !== id
        )
          missing.push(`account ${id} by its address`);
      }
      for (const id of ids.contracts) {
        if (system.test(id)) {
          assert.strictEqual((await get(`/api/v1/contracts/${id}`)).status, 404, id);
          continue;
        }
        const r = await get(`/api/v1/contracts/${id}`);
        if (r.status !== 200) missing.push(`contract ${id}: ${r.status}`);
        if ((await get(`/api/v1/accounts/${id}?transactions=false`)).json.account !== id)
          missing.push(`contract ${id} as an account`);
      }
      for (const id of ids.tokens) if ((await get(`/api/v1/tokens/${id}`)).status !== 200) missing.push(`token ${id}`);
      for (const id of ids.topics) if ((await get(`/api/v1/topics/${id}`)).status !== 200) missing.push(`topic ${id}`);
      assert.deepStrictEqual(missing, []);
    });
  });

  describe('hostile mode, faults, determinism', () => {
    it("text: memos, token names and symbols are payloads (the entity's num modulo 12); unknown fields; the ids stay", async () => {
      const h = { 'x-sandbox-hostile': 'text,unknown-fields' };
      const payloadOf = (id: string): string => HOSTILE_TEXTS[num(id) % HOSTILE_TEXTS.length].text;
      for (const id of [lookups.accounts.owner, lookups.accounts.relay, lookups.accounts.contract] as string[]) {
        const r = await get(`/api/v1/accounts/${id}?transactions=false`, h);
        assert.strictEqual(r.json.memo, payloadOf(id), id);
        assert.strictEqual(r.json.account, id);
        assert.ok(Object.keys(r.json).length > ACCOUNT_KEYS.length, 'unknown fields');
      }
      const t = (await get(`/api/v1/tokens/${lookups.tokens.collection as string}`, h)).json;
      for (const k of ['name', 'symbol', 'memo'])
        assert.strictEqual(t[k], payloadOf(lookups.tokens.collection as string), k);
      assert.strictEqual(t.token_id, lookups.tokens.collection);
      assert.strictEqual(
        (await get(`/api/v1/topics/${lookups.topics.withKeys}`, h)).json.memo,
        payloadOf(lookups.topics.withKeys),
      );
      assert.strictEqual((await get('/api/v1/contracts/0.0.7001', h)).json.memo, payloadOf('0.0.7001'));
      // the account's transactions carry the hostile memos of /transactions
      const plain = await get(`/api/v1/accounts/${lookups.accounts.owner as string}?limit=3`, {
        'x-sandbox-hostile': 'text',
      });
      const list = await get(`/api/v1/transactions?account.id=${lookups.accounts.owner as string}&limit=3`, {
        'x-sandbox-hostile': 'text',
      });
      assert.deepStrictEqual(plain.json.transactions, list.json.transactions);
      // off: none of it
      assert.strictEqual(
        (await get(`/api/v1/tokens/${lookups.tokens.collection as string}`)).json.name,
        'Hashgraph Heroes',
      );
    });

    it('faults by path prefix; the same answers on every start', async () => {
      sb.addFault({ path: '/api/v1/accounts/', fault: { status: 503 } });
      assert.strictEqual((await get(`/api/v1/accounts/${lookups.accounts.owner as string}`)).status, 503);
      assert.strictEqual((await get(`/api/v1/accounts/${lookups.accounts.owner as string}`)).status, 200);
      sb.addFault({ path: `/api/v1/tokens/${lookups.tokens.payout as string}`, times: 2, fault: { status: 429 } });
      assert.deepStrictEqual(
        (await get(`/api/v1/tokens/${lookups.tokens.payout as string}`)).json,
        errorOf('Too many requests'),
      );
      assert.strictEqual(
        (await get(`/api/v1/tokens/${lookups.tokens.payout as string}/nfts/1/transactions`)).status,
        429,
        'a prefix rule',
      );
      sb.addFault({ path: '/api/v1/topics/', fault: { body: 'truncated' } });
      await assert.rejects(async () => (await fetch(`${sb.url}/api/v1/topics/${lookups.topics.open}`)).text());
      const other = await startSandbox({ port: 0 });
      try {
        for (const u of [
          `/api/v1/accounts/${lookups.accounts.owner as string}`,
          `/api/v1/accounts/${lookups.accounts.relay as string}?limit=5`,
          `/api/v1/tokens/${lookups.tokens.collection as string}`,
          `/api/v1/tokens/${lookups.tokens.withFractionalFee as string}`,
          `/api/v1/topics/${lookups.topics.withFees}`,
          '/api/v1/contracts/0.0.7002',
        ]) {
          assert.strictEqual((await getJson(other.url, u)).text, (await get(u)).text, u);
        }
      } finally {
        await other.close();
      }
    });
  });
});
