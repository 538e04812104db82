/**
 * `GET /api/v1/tokens/{tokenId}/balances` (rest/tokens.js getTokenBalances), as the spec files show it: the path as
 * `/tokens/{id}` reads it (400 `Invalid parameter: tokenid`); `account.id` and `account.balance` (any operator),
 * `account.publickey` (eq; names read case-insensitively), `timestamp` (any operator), `limit`, `order` (desc by
 * account); every invalid value, then every unknown parameter, is a 400. The answer: `timestamp`, the snapshot the
 * balances are of (here the last change of the token's balances at or before the upper bound, its creation when
 * none; null when that is before the lower bound, or when no balance is listed), the associated accounts' balances
 * then (as `/accounts/{id}?timestamp=` gives them: mirror/balances.ts) with the token's `decimals`, and `links.next`
 * (`account.id=lt:` the last one, or `gt:` ascending). An unknown token: an empty list. `cache-control: public,
 * max-age=60`.
 */
import { type Reply, jsonTextReply } from '../http';
import { toJson } from '../json';
import type { MirrorData } from './api';
import { tokenBalancesAt, tokenChangedAt } from './balances';
import { entitiesOf } from './entities';
import { MAX_LONG, entityId, nsToTs, parseEntityId, parseTimestamp } from './ids';
import { parseTokenRef } from './lookups';
import {
  COMMON,
  type Validator,
  anyOp,
  eqOnly,
  inRange,
  isEntity,
  isTimestamp,
  last,
  limitOf,
  nextLink,
  orderOf,
  rangeOf,
  strictFilters,
} from './query';

const isBalance = (v: string): boolean => /^\d{1,19}$/.test(v) && BigInt(v) <= MAX_LONG;
const isPublicKey = (v: string): boolean =>
  /^(0x)?([0-9a-fA-F]{64}|[0-9a-fA-F]{66}|[0-9a-fA-F]{88}|[0-9a-fA-F]{94})$/.test(v);
/** DER prefixes of ED25519 and ECDSA(secp256k1) public keys: a key given in DER is compared by its raw bytes. */
const DER =
  /^(302a300506032b6570032100|3036301006072a8648ce3d020106052b8104000a032200|3056301006072a8648ce3d020106052b8104000a034200)/;

const PARAMS: Record<string, Validator> = {
  ...COMMON,
  'account.id': anyOp(isEntity),
  'account.balance': anyOp(isBalance),
  'account.publickey': eqOnly(isPublicKey),
  timestamp: anyOp(isTimestamp),
};

/** The answer: `timestamp`, `balances`, `links` in the real key order. */
function reply(timestamp: string | null, items: string[], next: string | null): Reply {
  const body = `{"timestamp":${JSON.stringify(timestamp)},"balances":[${items.join(',')}],"links":{"next":${JSON.stringify(next)}}}`;
  const headers: Record<string, string> = { 'cache-control': 'public, max-age=60' };
  if (next !== null) headers.Link = `<${next}>; rel="next"`;
  return jsonTextReply(200, body, headers);
}

const rawKey = (k: string): string => k.toLowerCase().replace(/^0x/, '').replace(DER, '');

export function tokenBalances(data: MirrorData, path: string, raw: string, query: [string, string][]): Reply {
  const token = parseTokenRef(raw);
  const pairs = query.map(([k, v]): [string, string] => [k.toLowerCase(), v]);
  const filters = strictFilters(pairs, PARAMS);
  const accounts = rangeOf(filters, 'account.id', (v) => parseEntityId(v) as bigint);
  const balances = rangeOf(filters, 'account.balance', (v) => BigInt(v));
  const times = rangeOf(filters, 'timestamp', (v) => parseTimestamp(v) as bigint);
  const key = last(filters, 'account.publickey')?.value;
  const order = orderOf(filters, 'desc');
  const limit = limitOf(filters);
  const reg = entitiesOf(data);
  const t = token <= BigInt(Number.MAX_SAFE_INTEGER) ? reg.tokens.get(Number(token)) : undefined;
  const empty = (): Reply => reply(null, [], null);
  if (!t) return empty();
  // the snapshot: the last change at or before the upper bound (the latest eq), within the lower bound
  const upper = times.eqs.length ? times.eqs.reduce((x, y) => (x > y ? x : y)) : (times.upper ?? MAX_LONG);
  const at = tokenChangedAt(data, t, upper);
  if (at === null || (times.lower !== null && at < times.lower)) return empty();
  const holders = [...reg.accounts.values()]
    .filter((a) => a.tokens.has(t.num) && inRange(accounts, BigInt(a.num)))
    .filter((a) => key === undefined || (a.key !== null && rawKey(a.key.key) === rawKey(key)))
    .sort((x, y) => (order === 'asc' ? x.num - y.num : y.num - x.num));
  const items: string[] = [];
  let lastNum: number | undefined;
  for (const a of holders) {
    const balance = tokenBalancesAt(data, a, at).find((b) => b.token === t.num)?.balance ?? 0n;
    if (!inRange(balances, balance)) continue;
    items.push(toJson({ account: entityId(a.num), balance, decimals: t.decimals }));
    lastNum = a.num;
    if (items.length === limit) break;
  }
  if (!items.length) return empty();
  const next =
    items.length === limit && lastNum !== undefined
      ? nextLink(path, query, 'account.id', entityId(lastNum), order, parseEntityId)
      : null;
  return reply(nsToTs(at), items, next);
}
