/**
 * An account's HBAR balance at a time, as `GET /accounts/{id}?timestamp=…` answers it on the real server (the
 * balance as of the upper bound, with the time of its last change before it): what the account held before the
 * sandbox's history plus every HBAR transfer of the contract results' transactions up to that time. Built once per
 * data set (live results are added as they come): per account, its transfers' times and running totals, so a look-up
 * is a binary search. Token balances at a time likewise, from the token transfers (`tokenBalancesAt`).
 */
import type { MirrorData } from './api';
import { type AccountEntity, type TokenEntity, entitiesOf } from './entities';
import { HTS_NFT_TOKEN } from './contracts';
import { txRecord } from './records';

interface Running {
  /** Every transfer: its time and amount, in the order read. */
  moves: Array<{ ns: bigint; amount: bigint }>;
  /** Built from `moves` when asked after a change: times in order and the running totals. */
  sorted?: { ns: bigint[]; total: bigint[] };
}

const caches = new WeakMap<MirrorData, { count: number; byAccount: Map<number, Running> }>();

function runningOf(data: MirrorData, num: number): { ns: bigint[]; total: bigint[] } | undefined {
  let c = caches.get(data);
  if (!c) caches.set(data, (c = { count: 0, byAccount: new Map() }));
  const all = data.contracts.all;
  for (; c.count < all.length; c.count++) {
    const row = all[c.count];
    for (const t of txRecord(data.contracts, row).transfers) {
      let r = c.byAccount.get(t.account);
      if (!r) c.byAccount.set(t.account, (r = { moves: [] }));
      r.moves.push({ ns: row.tsNs, amount: t.amount });
      r.sorted = undefined;
    }
  }
  const r = c.byAccount.get(num);
  if (!r) return undefined;
  if (!r.sorted) {
    const moves = [...r.moves].sort((x, y) => (x.ns < y.ns ? -1 : x.ns > y.ns ? 1 : 0));
    let sum = 0n;
    r.sorted = { ns: moves.map((m) => m.ns), total: moves.map((m) => (sum += m.amount)) };
  }
  return r.sorted;
}

/** The HBAR balance at `atNs` (inclusive) and the time of its last change then (its creation when none). */
export function hbarBalanceAt(
  data: MirrorData,
  a: AccountEntity,
  atNs: bigint,
): { balance: bigint; lastNs: bigint | null } {
  const r = runningOf(data, a.num);
  if (!r) return { balance: a.hbar, lastNs: a.createdNs };
  let lo = 0;
  let hi = r.ns.length;
  while (lo < hi) {
    const mid = (lo + hi) >> 1;
    if (r.ns[mid] <= atNs) lo = mid + 1;
    else hi = mid;
  }
  return lo === 0
    ? { balance: a.hbar, lastNs: a.createdNs }
    : { balance: a.hbar + r.total[lo - 1], lastNs: r.ns[lo - 1] };
}

/* ------------------------------------------------------------------ token balances at a time */

interface TokenRunning {
  count: number;
  /** `account/token` to its moves (fungible amounts; the generated NFT token moves one a serial). */
  moves: Map<string, Running>;
  /** Per token, the times its balances changed, sorted when asked after a change. */
  times: Map<number, { ns: bigint[]; sorted: boolean }>;
}

const tokenCaches = new WeakMap<MirrorData, TokenRunning>();

function tokenRunningOf(data: MirrorData): TokenRunning {
  let c = tokenCaches.get(data);
  if (!c) tokenCaches.set(data, (c = { count: 0, moves: new Map(), times: new Map() }));
  const all = data.contracts.all;
  const add = (account: number, token: number, ns: bigint, amount: bigint): void => {
    const key = `${account}/${token}`;
    let r = c.moves.get(key);
    if (!r) c.moves.set(key, (r = { moves: [] }));
    r.moves.push({ ns, amount });
    r.sorted = undefined;
    let t = c.times.get(token);
    if (!t) c.times.set(token, (t = { ns: [], sorted: true }));
    t.ns.push(ns);
    t.sorted = false;
  };
  for (; c.count < all.length; c.count++) {
    const row = all[c.count];
    const rec = txRecord(data.contracts, row);
    for (const t of rec.tokens) add(t.account, t.token, row.tsNs, t.amount);
    for (const n of rec.nfts) {
      add(n.sender, n.token, row.tsNs, -1n);
      add(n.receiver, n.token, row.tsNs, 1n);
    }
  }
  return c;
}

/** The sum of a running list's moves at or before `atNs` (0 when none). */
function movedBy(r: Running | undefined, atNs: bigint): bigint {
  if (!r) return 0n;
  if (!r.sorted) {
    const moves = [...r.moves].sort((x, y) => (x.ns < y.ns ? -1 : x.ns > y.ns ? 1 : 0));
    let sum = 0n;
    r.sorted = { ns: moves.map((m) => m.ns), total: moves.map((m) => (sum += m.amount)) };
  }
  const { ns, total } = r.sorted;
  let lo = 0;
  let hi = ns.length;
  while (lo < hi) {
    const mid = (lo + hi) >> 1;
    if (ns[mid] <= atNs) lo = mid + 1;
    else hi = mid;
  }
  return lo === 0 ? 0n : total[lo - 1];
}

/** How many serials of an NFT collection `account` owned at `atNs`, from the collection's histories. */
function nftsOwnedAt(data: MirrorData, token: number, account: number, atNs: bigint): bigint {
  let n = 0n;
  for (const h of data.nfts.histories.values()) {
    if (h.tokenNum !== token) continue;
    let owner: number | null = null;
    for (let i = 0; i < h.length && h.tsAt(i) <= atNs; i++) {
      const o = h.entry(i).obj;
      if (o.type === 'TOKENBURN' || o.type === 'TOKENWIPE') owner = null;
      else if (typeof o.receiver_account_id === 'string') owner = Number(o.receiver_account_id.split('.')[2]);
    }
    if (owner === account) n++;
  }
  return n;
}

/**
 * An account's token balances at `atNs` (inclusive), in token order, as `balance.tokens` of `/accounts/{id}?timestamp=`
 * gives them: what it held before the history plus its token transfers up to then; an NFT collection's, the serials
 * its histories leave it owning then.
 */
export function tokenBalancesAt(
  data: MirrorData,
  a: AccountEntity,
  atNs: bigint,
): { token: number; balance: bigint }[] {
  const c = tokenRunningOf(data);
  const reg = entitiesOf(data);
  return [...a.tokens]
    .sort(([x], [y]) => x - y)
    .map(([token, held]) => {
      const t = reg.tokens.get(token);
      const balance =
        t?.type === 'NON_FUNGIBLE_UNIQUE' && token !== HTS_NFT_TOKEN
          ? nftsOwnedAt(data, token, a.num, atNs)
          : held + movedBy(c.moves.get(`${a.num}/${token}`), atNs);
      return { token, balance };
    });
}

/** The last time at or before `atNs` a token's balances changed (its creation when none did), or null before that. */
export function tokenChangedAt(data: MirrorData, token: TokenEntity, atNs: bigint): bigint | null {
  const t = tokenRunningOf(data).times.get(token.num);
  if (t && !t.sorted) {
    t.ns.sort((x, y) => (x < y ? -1 : x > y ? 1 : 0));
    t.sorted = true;
  }
  let best: bigint | null = token.createdNs <= atNs ? token.createdNs : null;
  for (const ns of t?.ns ?? []) if (ns <= atNs && (best === null || ns > best)) best = ns;
  return best;
}
