/**
 * An account's HBAR balance at a time, as `GET /accounts/{id}?timestamp=…` answers it on the real server (the
 * balance as of the upper bound, with the time of its last change before it): what the account held before the
 * sandbox's history plus every HBAR transfer of the contract results' transactions up to that time. Built once per
 * data set (live results are added as they come): per account, its transfers' times and running totals, so a look-up
 * is a binary search. Token balances stay the current ones.
 */
import type { MirrorData } from './api';
import type { AccountEntity } from './entities';
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
