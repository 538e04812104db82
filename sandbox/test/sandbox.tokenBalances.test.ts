/**
 * Token balances at a time (mirror/balances.ts, mirror/tokenBalances.ts): `GET /api/v1/tokens/{id}/balances` against
 * the real server's spec files (`../shared/fixtures/mirror/specs/tokens/{id}/balances`: its 400s exactly, its
 * answers' shape), and `balance.tokens` of `/accounts/{id}?timestamp=` consistent with the transactions the sandbox
 * serves: before and at a transaction, an account's balance of a token differs by its transfers of that token in it,
 * and both endpoints give the same balance.
 */
import * as assert from 'assert';
import * as path from 'path';
import { type Sandbox, startSandbox } from '../src/server';
import { type Obj, assertSpecErrors, getJson, readSpecRequests } from './helpers';

const SPECS = path.join(__dirname, '../../../../shared/fixtures/mirror/specs/tokens/{id}/balances');

interface Transfer {
  token_id: string;
  account: string;
  amount: number | bigint;
}

describe('sandbox: token balances at a time', function () {
  this.timeout(60_000);
  let sb: Sandbox;
  before(async () => {
    sb = await startSandbox({ port: 0 });
  });
  after(async () => sb?.close());

  const specs = readSpecRequests(SPECS);

  it('the spec files are there', () => {
    assert.ok(specs.length >= 20, `${specs.length} spec requests`);
  });

  it("validation errors: the real server's status and body, exactly", async () => {
    await assertSpecErrors(sb.url, specs, 5);
  });

  it("answers: the spec's keys in its order, on a token the sandbox has; an unknown token: an empty list", async () => {
    const oks = specs.filter((s) => s.status === 200);
    assert.ok(oks.length >= 10);
    for (const s of oks) {
      const a = await getJson(sb.url, s.url);
      assert.strictEqual(a.status, 200, `${s.file}: ${s.url}`);
      assert.deepStrictEqual(Object.keys(a.json), Object.keys(s.json), s.url);
    }
    const a = await getJson(sb.url, '/api/v1/tokens/0.0.7101/balances?limit=2&order=asc');
    assert.deepStrictEqual(Object.keys(a.json), ['timestamp', 'balances', 'links']);
    const items = a.json.balances as Obj[];
    assert.strictEqual(items.length, 2);
    for (const item of items) assert.deepStrictEqual(Object.keys(item), ['account', 'balance', 'decimals']);
    assert.match(a.json.timestamp as string, /^\d{10}\.\d{9}$/);
    const next = (a.json.links as { next: string }).next;
    assert.strictEqual(
      next,
      `/api/v1/tokens/0.0.7101/balances?limit=2&order=asc&account.id=gt:${items[1].account as string}`,
    );
    const page2 = await getJson(sb.url, next);
    const num = (x: unknown): number => Number(String(x).split('.')[2]);
    assert.ok(num((page2.json.balances as Obj[])[0].account) > num(items[1].account));
    const none = await getJson(sb.url, '/api/v1/tokens/0.0.2/balances');
    assert.deepStrictEqual(none.json, { timestamp: null, balances: [], links: { next: null } });
  });

  it('before and at a transaction: the balances differ by its token transfers, the same by either endpoint', async () => {
    // transactions with fungible token transfers, from the newest
    let url: string | null = '/api/v1/transactions?limit=100';
    const found: Array<{ ts: string; transfers: Transfer[] }> = [];
    for (let i = 0; url && found.length < 3 && i < 30; i++) {
      const page = await getJson(sb.url, url);
      for (const t of page.json.transactions as Obj[]) {
        const transfers = (t.token_transfers as Transfer[] | undefined) ?? [];
        if (transfers.length && found.length < 3) found.push({ ts: t.consensus_timestamp as string, transfers });
      }
      url = (page.json.links as { next: string | null }).next;
    }
    assert.strictEqual(found.length, 3, 'transactions with token transfers');
    let checked = 0;
    for (const { ts, transfers } of found) {
      for (const tr of transfers) {
        const moved = transfers
          .filter((x) => x.account === tr.account && x.token_id === tr.token_id)
          .reduce((s, x) => s + BigInt(x.amount), 0n);
        const viaAccount = async (q: string): Promise<bigint> => {
          const a = await getJson(sb.url, `/api/v1/accounts/${tr.account}?transactions=false&timestamp=${q}`);
          const tokens = (a.json.balance as { tokens: Array<{ token_id: string; balance: number | bigint }> }).tokens;
          const row = tokens.find((x) => x.token_id === tr.token_id);
          assert.ok(row, `${tr.account} holds ${tr.token_id} at ${q}`);
          return BigInt(row.balance);
        };
        const viaToken = async (q: string): Promise<bigint> => {
          const a = await getJson(
            sb.url,
            `/api/v1/tokens/${tr.token_id}/balances?account.id=${tr.account}&timestamp=${q}`,
          );
          return BigInt(((a.json.balances as Obj[])[0].balance as number | bigint) ?? -1);
        };
        const before = await viaAccount(`lt:${ts}`);
        const after = await viaAccount(ts);
        assert.strictEqual(after - before, moved, `${ts}: ${tr.account} ${tr.token_id}`);
        assert.strictEqual(await viaToken(ts), after);
        assert.strictEqual(await viaToken(`lt:${ts}`), before);
        checked++;
      }
    }
    assert.ok(checked >= 4, `${checked} balances checked`);
  });
});
