/**
 * `GET /api/v1/accounts/{id}?timestamp=…` balances (mirror/balances.ts), `GET /api/v1/blocks/{hashOrNumber}`
 * (mirror/blocks.ts), and `GET /api/v1/contracts/{id}/state` (mirror/state.ts) against the real server's spec files
 * (`../shared/fixtures/mirror/specs/contracts/{id}/state`) and against the sandbox's own executions: the state just
 * before each executed scenario (`timestamp=lt:T`) is the storage that execution read, slot for slot (its record's
 * `value_read`), which is what a replay of it needs.
 */
import * as assert from 'assert';
import * as path from 'path';
import { type Sandbox, startSandbox } from '../src/server';
import { type Obj, assertSpecErrors, getJson, readSpecRequests } from './helpers';

const SPECS = path.join(__dirname, '../../../../shared/fixtures/mirror/specs/contracts/{id}/state');
const VAULT = '0x5fbdb2315678afecb367f032d93f642f64180aa3';

const typeOf = (v: unknown): string => (v === null ? 'null' : Array.isArray(v) ? 'array' : typeof v);

describe('sandbox: GET /contracts/{id}/state, as the real server and as the executions saw it', function () {
  this.timeout(60_000);
  let sb: Sandbox;
  let notable: Record<string, { timestamp: string; transactionId: string; result: string }>;

  before(async () => {
    sb = await startSandbox({ port: 0 });
    notable = (await getJson(sb.url, '/__sandbox/health')).json.notable as never;
    notable = (notable as unknown as { inspector: typeof notable }).inspector;
  });
  after(async () => sb?.close());

  const specs = readSpecRequests(SPECS);

  it('the spec files are there', () => {
    assert.ok(specs.length >= 40, `${specs.length} spec requests`);
  });

  it("validation errors: the real server's status and body, exactly", async () => {
    await assertSpecErrors(sb.url, specs, 10);
  });

  it('answers: on the Vault, the same keys, value types, order and links form as the spec', async () => {
    const oks = specs.filter((s) => s.status === 200);
    for (const s of oks) {
      // every path form of the spec's contract maps to the Vault's; its query as written
      const url = s.url.replace(/^\/api\/v1\/contracts\/[^/]+\/state/, `/api/v1/contracts/${VAULT}/state`);
      const a = await getJson(sb.url, url);
      assert.strictEqual(a.status, 200, `${s.file}: ${url}`);
      assert.deepStrictEqual(Object.keys(a.json).sort(), Object.keys(s.json).sort(), `${s.file}: ${url}`);
      const want = (s.json.state as Obj[])[0];
      for (const item of a.json.state as Obj[]) {
        assert.deepStrictEqual(Object.keys(item).sort(), Object.keys(want ?? item).sort(), `${s.file}: ${url}`);
        for (const k of Object.keys(item))
          if (want) assert.strictEqual(typeOf(item[k]), typeOf(want[k]), `${s.file} ${k}`);
        assert.match(item.slot as string, /^0x[0-9a-f]{64}$/);
        assert.match(item.value as string, /^0x[0-9a-f]{64}$/);
        assert.match(item.timestamp as string, /^\d{10}\.\d{9}$/);
        assert.strictEqual(item.contract_id, '0.0.7001');
        assert.strictEqual(item.address, VAULT);
      }
      const slots = (a.json.state as Obj[]).map((x) => BigInt(x.slot as string));
      const desc = /order=desc/.test(url);
      for (let i = 1; i < slots.length; i++) assert.ok(desc ? slots[i - 1] > slots[i] : slots[i - 1] < slots[i], url);
    }
  });

  it('an unknown contract, an account and an EVM address no entity has: 200 with an empty list', async () => {
    for (const id of ['0.0.5005', '0.0.7000', '0x70f2b2914a2a4b783faefb75f459a580616fcb5e']) {
      const a = await getJson(sb.url, `/api/v1/contracts/${id}/state`);
      assert.strictEqual(a.status, 200, id);
      assert.deepStrictEqual(a.json, { state: [], links: { next: null } }, id);
    }
    assert.strictEqual((await getJson(sb.url, '/api/v1/contracts/0.70000.1/state')).status, 400);
  });

  it('paging: slot=gt:<last> links until the last page', async () => {
    const seen: string[] = [];
    let url: string | null = `/api/v1/contracts/${VAULT}/state?limit=2`;
    for (let i = 0; url && i < 20; i++) {
      const a = await getJson(sb.url, url);
      seen.push(...(a.json.state as Obj[]).map((x) => x.slot as string));
      url = (a.json.links as { next: string | null }).next;
    }
    assert.strictEqual(url, null);
    const all = (await getJson(sb.url, `/api/v1/contracts/${VAULT}/state?limit=100`)).json.state as Obj[];
    assert.deepStrictEqual(
      seen,
      all.map((x) => x.slot),
    );
    assert.ok(all.length >= 6, `${all.length} slots`);
  });

  it('the state before each executed scenario is the storage its execution read (its record: value_read)', async () => {
    let checked = 0;
    for (const [key, n] of Object.entries(notable)) {
      if (!key.startsWith('inspector') || key === 'inspectorBigTrace' || key === 'inspectorPartial') continue;
      const rec = await getJson(sb.url, `/api/v1/contracts/results/${n.transactionId}`);
      for (const c of rec.json.state_changes as Obj[]) {
        const a = await getJson(
          sb.url,
          `/api/v1/contracts/${c.contract_id as string}/state?timestamp=lt:${n.timestamp}&slot=${c.slot as string}`,
        );
        const row = (a.json.state as Obj[])[0];
        const before = row ? (row.value as string) : `0x${'0'.repeat(64)}`;
        assert.strictEqual(before, c.value_read, `${key}: slot ${c.slot as string} of ${c.contract_id as string}`);
        // and after it, what it wrote (a failed one wrote nothing)
        const after = await getJson(
          sb.url,
          `/api/v1/contracts/${c.contract_id as string}/state?timestamp=${n.timestamp}&slot=${c.slot as string}`,
        );
        const now = (after.json.state as Obj[])[0];
        assert.strictEqual(now ? now.value : `0x${'0'.repeat(64)}`, c.value_written ?? before, key);
        checked++;
      }
    }
    assert.ok(checked >= 15, `${checked} slots checked`);
  });
});

describe('sandbox: GET /blocks/{hashOrNumber}, the blocks the contract results name', function () {
  this.timeout(60_000);
  let sb: Sandbox;
  before(async () => {
    sb = await startSandbox({ port: 0 });
  });
  after(async () => sb?.close());

  it("each scenario's block: its number and hash as the record has them, its time around the transaction", async () => {
    const inspector = (await getJson(sb.url, '/__sandbox/health')).json.notable as { inspector: Record<string, Obj> };
    let checked = 0;
    for (const [key, n] of Object.entries(inspector.inspector)) {
      if (typeof n.transactionId !== 'string') continue;
      const rec = (await getJson(sb.url, `/api/v1/contracts/results/${n.transactionId}`)).json;
      for (const ref of [String(rec.block_number), rec.block_hash as string, (rec.block_hash as string).slice(0, 66)]) {
        const b = await getJson(sb.url, `/api/v1/blocks/${ref}`);
        assert.strictEqual(b.status, 200, `${key}: ${ref}`);
        assert.strictEqual(b.json.number, Number(rec.block_number));
        assert.strictEqual(b.json.hash, rec.block_hash);
        const t = b.json.timestamp as { from: string; to: string };
        assert.ok(t.from <= (rec.timestamp as string) && (rec.timestamp as string) <= t.to, key);
        assert.match(b.json.logs_bloom as string, /^0x[0-9a-f]{512}$/);
        assert.match(b.json.previous_hash as string, /^0x[0-9a-f]{96}$/);
        assert.deepStrictEqual(Object.keys(b.json), [
          'count',
          'gas_used',
          'hapi_version',
          'hash',
          'logs_bloom',
          'name',
          'number',
          'previous_hash',
          'size',
          'timestamp',
        ]);
      }
      checked++;
    }
    assert.ok(checked >= 10);
  });

  it('a path that is no number or hash: 400; a block no result names: 404', async () => {
    const bad = await getJson(sb.url, '/api/v1/blocks/xyz');
    assert.deepStrictEqual(
      [bad.status, bad.json],
      [400, { _status: { messages: [{ message: 'Invalid parameter: hashOrNumber' }] } }],
    );
    const none = await getJson(sb.url, '/api/v1/blocks/1');
    assert.deepStrictEqual([none.status, none.json], [404, { _status: { messages: [{ message: 'Not found' }] } }]);
  });
});

describe('sandbox: GET /accounts/{id}?timestamp=…, the HBAR balance at that time', function () {
  this.timeout(60_000);
  let sb: Sandbox;
  before(async () => {
    sb = await startSandbox({ port: 0 });
  });
  after(async () => sb?.close());

  it("before and at a transaction, the account's balances differ by its HBAR transfers in it", async () => {
    const inspector = (await getJson(sb.url, '/__sandbox/health')).json.notable as { inspector: Record<string, Obj> };
    let checked = 0;
    for (const key of ['inspectorSuccess', 'inspectorEthereum', 'inspectorDeepRevert']) {
      const n = inspector.inspector[key] as { transactionId: string; timestamp: string };
      const txs = (await getJson(sb.url, `/api/v1/transactions/${n.transactionId}`)).json.transactions as Obj[];
      const transfers = txs.flatMap((t) => (t.transfers as Array<{ account: string; amount: number | bigint }>) ?? []);
      for (const account of new Set(transfers.map((t) => t.account))) {
        const moved = transfers.filter((t) => t.account === account).reduce((x, t) => x + BigInt(t.amount), 0n);
        const at = async (q: string): Promise<{ balance: bigint; timestamp: string }> => {
          const a = await getJson(sb.url, `/api/v1/accounts/${account}?transactions=false&timestamp=${q}`);
          assert.strictEqual(a.status, 200, `${account} ${q}`);
          const b = a.json.balance as { balance: number | bigint; timestamp: string };
          return { balance: BigInt(b.balance), timestamp: b.timestamp };
        };
        const before = await at(`lt:${n.timestamp}`);
        const after = await at(n.timestamp);
        assert.strictEqual(after.balance - before.balance, moved, `${key}: ${account}`);
        assert.ok(before.timestamp < n.timestamp, `${key}: ${account} last changed before`);
        if (moved !== 0n) assert.strictEqual(after.timestamp, n.timestamp);
        checked++;
      }
    }
    assert.ok(checked >= 6, `${checked} accounts`);
  });
});
