/**
 * The lookups of one entity, as hiero-mirror-node 0.160 answers them (entities: mirror/entities.ts):
 *
 * - `GET /api/v1/accounts/{idOrAliasOrEvmAddress}` (rest/accounts.js getOneAccount, processRow): the query first
 *   (buildAndValidateFilters: `limit`, `order`, `timestamp`, `transactiontype`, `transactions`), then the path
 *   (EntityService.getEncodedId: `num`, `realm.num`, `shard.realm.num`, an EVM address with optional `0x` or
 *   `shard.realm.` prefix, a base32 alias with optional `shard.realm.` prefix; else 400 `Invalid parameter:
 *   idOrAliasOrEvmAddress`; an alias no account has: 404 `No account with a matching alias found`; an EVM address
 *   no entity has: 404 `Not found`), then the timestamps (parseTimestampFilters, strict: `Multiple gt or gte
 *   operators not permitted for timestamp param`, ...; an empty range: 404 `Timestamp range is empty`), then the
 *   entity (404 `Not found`). The object in processRow's key order, then `transactions` (the account's, as
 *   GET /transactions?account.id= lists them, with `limit`, `order` (desc), `timestamp`, `transactiontype`; none
 *   with `transactions=false`) and `links.next` (`/api/v1/accounts/{as requested}?...&timestamp=lt:`).
 *   Contracts are accounts of type CONTRACT there. `cache-control: public, max-age=2`.
 * - `GET /api/v1/tokens/{tokenId}` (rest/tokens.js getTokenInfoRequest, formatTokenInfoRow): the path
 *   (`Invalid parameter: tokenid`; a long-zero EVM address is the token it encodes, any other address is 400), then
 *   `timestamp` (eq, lt, lte; every invalid value, then every unknown parameter); a timestamp before the token's
 *   creation: 404. `cache-control: public, max-age=5`.
 * - `GET /api/v1/topics/{topicId}` (rest-java TopicController, the generated Topic model's key order): a topic id
 *   `[shard.][realm.]num` (else 400 `{"detail":"Failed to convert 'id'","message":"Bad Request"}`), 404
 *   `{"detail":"Topic not found","message":"Not Found"}` (Spring's reason phrase and the exception's text);
 *   query parameters are ignored. `cache-control: public, max-age=1`.
 */
import { type Reply, jsonReply, jsonTextReply } from '../http';
import { RawJson, toJson } from '../json';
import { type HostileCtx, UNKNOWN_FIELDS_JSON, has, payload, spliceMembers } from '../hostile';
import type { MirrorData } from './api';
import {
  type AccountEntity,
  type KeyJson,
  type TokenEntity,
  type TopicEntity,
  base32,
  base32Decode,
  entitiesOf,
  ethereumNonce,
  hbarBalance,
  tokenBalances,
  totalSupply,
} from './entities';
import { MAX_LONG, NS, entityId, longZero, nsToTs, parseEntityId, parseTimestamp } from './ids';
import { TRANSACTION_TYPES, transactionListItem, transactionsPage } from './inspector';
import { hbarBalanceAt, tokenBalancesAt } from './balances';
import {
  BadRequest,
  COMMON,
  NotFoundError,
  type Filter,
  type Range,
  type Validator,
  anyOp,
  eqOnly,
  isBool,
  isTimestamp,
  last,
  limitOf,
  nextLink,
  orderOf,
  strictFilters,
} from './query';

const MAX_NUM = (1n << 38n) - 1n;
const int = (v: bigint): number | bigint =>
  v >= BigInt(Number.MIN_SAFE_INTEGER) && v <= BigInt(Number.MAX_SAFE_INTEGER) ? Number(v) : v;
const ts = (ns: bigint | null): string | null => (ns === null ? null : nsToTs(ns));
/** Hostile text of an entity (`text`): the payload of its number. */
const textOf = (h: HostileCtx | undefined, num: number): string | undefined =>
  has(h, 'text') ? payload(num) : undefined;
const withUnknown = (h: HostileCtx | undefined, json: string): string =>
  has(h, 'unknown-fields') ? spliceMembers(json, UNKNOWN_FIELDS_JSON) : json;

/* ------------------------------------------------------------------ accounts/{idOrAliasOrEvmAddress} */

const ACCOUNT_PATH = 'Invalid parameter: idOrAliasOrEvmAddress';
const ACCOUNT_PARAMS: Record<string, Validator> = {
  ...COMMON,
  timestamp: anyOp(isTimestamp),
  transactiontype: anyOp((v) => TRANSACTION_TYPES.has(v.toUpperCase())),
  transactions: eqOnly(isBool),
};

type AccountRef = { kind: 'num'; encoded: bigint } | { kind: 'evm'; hex: string } | { kind: 'alias'; hex: string };

/** EntityService.getEncodedId's reading of the path (400 for anything else). */
function parseAccountRef(raw: string): AccountRef {
  const bad = (): BadRequest => new BadRequest([ACCOUNT_PATH]);
  const entityForm = /^(\d{1,4}\.)?\d{1,5}\.\d{1,12}$/.test(raw) || /^-?\d{1,19}$/.test(raw);
  const evmForm = /^(0x)?[0-9A-Fa-f]{40}$/.test(raw) || /^(\d{1,4}\.)?(\d{1,5}\.)?[0-9A-Fa-f]{40}$/.test(raw);
  if (entityForm || evmForm) {
    const parts = (raw.startsWith('0x') ? raw.slice(2) : raw).split('.');
    const tail = parts[parts.length - 1];
    if (tail.length === 40) {
      // an EVM address: with a shard and realm, only the network's (0.0)
      if (parts.slice(0, -1).some((p) => BigInt(p) !== 0n)) throw bad();
      const hex = tail.toLowerCase();
      const num = BigInt('0x' + hex.slice(24));
      return /^0{24}/.test(hex) && num <= MAX_NUM ? { kind: 'num', encoded: num } : { kind: 'evm', hex };
    }
    const encoded = parseEntityId(raw);
    if (encoded === null) throw bad();
    return { kind: 'num', encoded };
  }
  const alias = /^(?:(\d{1,5})\.)?(?:(\d{1,5})\.)?([A-Z2-7]+)$/.exec(raw);
  if (alias) {
    if ((alias[1] !== undefined && BigInt(alias[1]) !== 0n) || (alias[2] !== undefined && BigInt(alias[2]) !== 0n))
      throw bad();
    const hex = base32Decode(alias[3]);
    if (hex === null) throw bad();
    return { kind: 'alias', hex };
  }
  throw bad();
}

/** parseTimestampFilters as getOneAccount calls it (ne allowed, open ranges allowed, strict checks, no range limit). */
function accountTimestamps(filters: Filter[]): Range & { empty: boolean } {
  const eqs = new Set<bigint>();
  const nes = new Set<bigint>();
  let lower: bigint | null = null;
  let upper: bigint | null = null;
  let lowers = 0;
  let uppers = 0;
  for (const f of filters) {
    if (f.key !== 'timestamp') continue;
    const v = parseTimestamp(f.value) as bigint;
    if (f.op === 'eq') eqs.add(v);
    else if (f.op === 'ne') nes.add(v);
    else if (f.op === 'gt' || f.op === 'gte') {
      const lo = f.op === 'gt' ? v + 1n : v;
      lower = lower === null || lo > lower ? lo : lower;
      lowers++;
    } else {
      const hi = f.op === 'lt' ? v - 1n : v;
      upper = upper === null || hi < upper ? hi : upper;
      uppers++;
    }
  }
  if (lowers > 1) throw new BadRequest(['Multiple gt or gte operators not permitted for timestamp param']);
  if (uppers > 1) throw new BadRequest(['Multiple lt or lte operators not permitted for timestamp param']);
  if (eqs.size > 0 && (lowers > 0 || uppers > 0 || nes.size > 0))
    throw new BadRequest(['Cannot combine eq with ne, gt, gte, lt, or lte for timestamp param']);
  const empty = lower !== null && upper !== null && upper - lower + 1n <= 0n;
  return { lower, upper: upper ?? (lower !== null ? MAX_LONG : null), eqs: [...eqs], nes: [...nes], empty };
}

const keyOf = (k: KeyJson | null): KeyJson | null => (k ? { _type: k._type, key: k.key } : null);

/** processRow: the account's object in the real key order. */
export function accountObject(
  data: MirrorData,
  a: AccountEntity,
  h?: HostileCtx,
  atNs?: bigint,
): Record<string, unknown> {
  const { balance, lastNs } = atNs === undefined ? hbarBalance(data, a) : hbarBalanceAt(data, a, atNs);
  return {
    account: entityId(a.num),
    alias: a.alias ? base32(a.alias) : null,
    auto_renew_period: a.autoRenewPeriod,
    balance: {
      balance: int(balance),
      timestamp: ts(lastNs),
      tokens: (atNs === undefined ? tokenBalances(data, a) : tokenBalancesAt(data, a, atNs)).map((t) => ({
        token_id: entityId(t.token),
        balance: int(t.balance),
      })),
    },
    created_timestamp: ts(a.createdNs),
    decline_reward: a.declineReward,
    delegation_address: '0x',
    deleted: false,
    ethereum_nonce: ethereumNonce(data, a),
    evm_address: '0x' + (a.evm ?? longZero(a.num).slice(2)),
    expiry_timestamp:
      a.createdNs !== null && a.autoRenewPeriod !== null ? nsToTs(a.createdNs + BigInt(a.autoRenewPeriod) * NS) : null,
    key: keyOf(a.key),
    max_automatic_token_associations: a.maxAutoAssociations,
    memo: textOf(h, a.num) ?? a.memo,
    pending_reward: a.pendingReward,
    receiver_sig_required: false,
    staked_account_id: null,
    staked_node_id: a.stakedNodeId,
    stake_period_start: a.stakePeriodDay === null ? null : nsToTs(BigInt(a.stakePeriodDay) * 86400n * NS),
  };
}

export function accountById(
  data: MirrorData,
  path: string,
  raw: string,
  pairs: [string, string][],
  h?: HostileCtx,
): Reply {
  const filters = strictFilters(pairs, ACCOUNT_PARAMS);
  const reg = entitiesOf(data);
  const ref = parseAccountRef(raw);
  let num: number | undefined;
  if (ref.kind === 'alias') {
    num = reg.byAlias.get(ref.hex);
    if (num === undefined) throw new NotFoundError('No account with a matching alias found');
  } else if (ref.kind === 'evm') {
    num = reg.byEvm.get(ref.hex);
    if (num === undefined) throw new NotFoundError();
  } else if (ref.encoded <= MAX_NUM) num = Number(ref.encoded);
  const range = accountTimestamps(filters);
  if (range.empty) throw new NotFoundError('Timestamp range is empty');
  const a = num === undefined ? undefined : reg.accounts.get(num);
  if (!a) throw new NotFoundError();
  // the entity as of the range: nothing before it was created
  const created = a.createdNs;
  const before = (v: bigint): boolean => created !== null && v < created;
  if ((range.upper !== null && before(range.upper)) || (range.eqs.length > 0 && range.eqs.every(before)))
    throw new NotFoundError();
  const includeTransactions = (last(filters, 'transactions')?.value.toLowerCase() ?? 'true') === 'true';
  const limit = limitOf(filters);
  const order = orderOf(filters, 'desc');
  let items: RawJson[] = [];
  let next: string | null = null;
  if (includeTransactions) {
    const page = transactionsPage(data.contracts, {
      limit,
      order,
      range,
      types: new Set(filters.filter((f) => f.key === 'transactiontype').map((f) => f.value.toUpperCase())),
      accounts: { lower: null, upper: null, eqs: [BigInt(a.num)], nes: [] },
      anyAccount: true,
      creditDebit: [],
    });
    items = page.map((r) => new RawJson(transactionListItem(data.contracts, r, h)));
    if (page.length === limit)
      next = nextLink(path, pairs, 'timestamp', nsToTs(page[page.length - 1].tsNs), order, parseTimestamp);
  }
  // with a timestamp, the balance as of its upper bound (an eq: the latest eq)
  const atNs = range.upper ?? (range.eqs.length ? range.eqs.reduce((x, y) => (x > y ? x : y)) : undefined);
  const body = toJson({ ...accountObject(data, a, h, atNs ?? undefined), transactions: items, links: { next } });
  const headers: Record<string, string> = { 'cache-control': 'public, max-age=2' };
  if (next !== null) headers.Link = `<${next}>; rel="next"`;
  return jsonTextReply(200, withUnknown(h, body), headers);
}

/* ------------------------------------------------------------------ tokens/{tokenId} */

const TOKEN_PARAMS: Record<string, Validator> = {
  timestamp: (op, v) => (op === 'eq' || op === 'lt' || op === 'lte') && isTimestamp(v),
};

/** The token a path names (as the spec tests show: an entity id, an encoded id, or a long-zero EVM address); 400 otherwise. */
export function parseTokenRef(raw: string): bigint {
  const bad = (): BadRequest => new BadRequest(['Invalid parameter: tokenid']);
  if (/^-?\d{1,19}$/.test(raw)) {
    // an encoded id (EntityId.parse of a bare number)
    const v = BigInt(raw);
    if (v < 0n || v > MAX_LONG) throw bad();
    return v;
  }
  const evm = /^(?:0x([0-9A-Fa-f]{40})|(?:(\d{1,4})\.)?(?:(\d{1,5})\.)?([0-9A-Fa-f]{40}))$/.exec(raw);
  if (evm) {
    const hex = (evm[1] ?? evm[4]).toLowerCase();
    const num = BigInt('0x' + hex.slice(24));
    if (!/^0{24}/.test(hex) || num > MAX_NUM || [evm[2], evm[3]].some((p) => p !== undefined && BigInt(p) !== 0n))
      throw bad();
    return num;
  }
  if (!/^(\d{1,4}\.)?\d{1,5}\.\d{1,12}$/.test(raw)) throw bad();
  const encoded = parseEntityId(raw);
  if (encoded === null) throw bad();
  return encoded;
}

function feesObject(t: TokenEntity): Record<string, unknown> {
  const o: Record<string, unknown> = {
    created_timestamp: nsToTs(t.createdNs),
    fixed_fees: t.fees.fixed.map((f) => ({
      all_collectors_are_exempt: false,
      amount: int(f.amount),
      collector_account_id: entityId(f.collector),
      denominating_token_id: f.token === null ? null : entityId(f.token),
    })),
  };
  if (t.type === 'FUNGIBLE_COMMON') {
    o.fractional_fees = t.fees.fractional.map((f) => ({
      all_collectors_are_exempt: false,
      amount: { numerator: f.numerator, denominator: f.denominator },
      collector_account_id: entityId(f.collector),
      denominating_token_id: entityId(t.num),
      maximum: f.maximum === null ? null : int(f.maximum),
      minimum: int(f.minimum),
      net_of_transfers: f.netOfTransfers,
    }));
  } else {
    o.royalty_fees = t.fees.royalty.map((f) => ({
      all_collectors_are_exempt: false,
      amount: { denominator: f.denominator, numerator: f.numerator },
      collector_account_id: entityId(f.collector),
      fallback_fee: f.fallback
        ? {
            amount: int(f.fallback.amount),
            denominating_token_id: f.fallback.token === null ? null : entityId(f.fallback.token),
          }
        : null,
    }));
  }
  return o;
}

/** formatTokenInfoRow: TokenInfo in the real key order. */
export function tokenObject(data: MirrorData, t: TokenEntity, h?: HostileCtx): Record<string, unknown> {
  const text = textOf(h, t.num);
  const supply = totalSupply(data, t);
  const period = 7_776_000n;
  return {
    admin_key: keyOf(t.adminKey),
    auto_renew_account: entityId(t.treasury),
    auto_renew_period: Number(period),
    created_timestamp: nsToTs(t.createdNs),
    custom_fees: feesObject(t),
    decimals: `${t.decimals}`,
    deleted: false,
    // calculateExpiryTimestamp: nanoseconds, not formatted
    expiry_timestamp: t.createdNs + period * NS,
    fee_schedule_key: keyOf(t.feeScheduleKey),
    freeze_default: false,
    freeze_key: keyOf(t.freezeKey),
    initial_supply: t.type === 'FUNGIBLE_COMMON' ? `${supply}` : '0',
    kyc_key: keyOf(t.kycKey),
    max_supply: t.supplyType === 'FINITE' ? `${t.maxSupply}` : '9223372036854775807',
    memo: text ?? t.memo,
    metadata: t.metadata,
    metadata_key: null,
    modified_timestamp: nsToTs(t.createdNs),
    name: text ?? t.name,
    pause_key: keyOf(t.pauseKey),
    pause_status: t.pauseKey ? 'UNPAUSED' : 'NOT_APPLICABLE',
    supply_key: keyOf(t.supplyKey),
    supply_type: t.supplyType,
    symbol: text ?? t.symbol,
    token_id: entityId(t.num),
    total_supply: `${supply}`,
    treasury_account_id: entityId(t.treasury),
    type: t.type,
    wipe_key: keyOf(t.wipeKey),
  };
}

export function tokenById(data: MirrorData, raw: string, pairs: [string, string][], h?: HostileCtx): Reply {
  const encoded = parseTokenRef(raw);
  const filters = strictFilters(pairs, TOKEN_PARAMS);
  const t = encoded <= MAX_NUM ? entitiesOf(data).tokens.get(Number(encoded)) : undefined;
  if (!t) throw new NotFoundError();
  // the last timestamp filter (eq read as lte): the token's custom fees as of then; none before its creation
  const f = filters.length ? filters[filters.length - 1] : undefined;
  if (f) {
    const v = parseTimestamp(f.value) as bigint;
    if ((f.op === 'lt' ? v - 1n : v) < t.createdNs) throw new NotFoundError();
  }
  return jsonTextReply(200, withUnknown(h, toJson(tokenObject(data, t, h))), { 'cache-control': 'public, max-age=5' });
}

/* ------------------------------------------------------------------ topics/{topicId} */

/** TopicMapper: the generated Topic model's key order (the OpenAPI schema's). */
export function topicObject(t: TopicEntity, h?: HostileCtx): Record<string, unknown> {
  return {
    admin_key: keyOf(t.adminKey),
    auto_renew_account: t.autoRenewAccount === null ? null : entityId(t.autoRenewAccount),
    auto_renew_period: 7_776_000,
    created_timestamp: nsToTs(t.createdNs),
    // a topic without custom fees has the placeholder of TopicController (timestamp range from 0)
    custom_fees: {
      created_timestamp: t.fixedFees.length ? nsToTs(t.createdNs) : '0.000000000',
      fixed_fees: t.fixedFees.map((f) => ({
        amount: int(f.amount),
        collector_account_id: entityId(f.collector),
        denominating_token_id: f.token === null ? null : entityId(f.token),
      })),
    },
    deleted: false,
    fee_exempt_key_list: t.feeExemptKeys.map(keyOf),
    fee_schedule_key: keyOf(t.feeScheduleKey),
    memo: textOf(h, t.num) ?? t.memo,
    submit_key: keyOf(t.submitKey),
    timestamp: { from: nsToTs(t.createdNs), to: null },
    topic_id: entityId(t.num),
  };
}

/** rest-java's error body: Spring's reason phrase as `message`, the exception's text as `detail` (first). */
const javaError = (status: number, message: string, detail: string): Reply =>
  jsonReply(status, { _status: { messages: [{ detail, message }] } });

export function topicById(data: MirrorData, raw: string, h?: HostileCtx): Reply {
  const m = /^(?:(\d{1,4})\.)?(?:(\d{1,5})\.)?(\d{1,12})$/.exec(raw);
  const num = m ? BigInt(m[3]) : -1n;
  if (!m || num > MAX_NUM) return javaError(400, 'Bad Request', "Failed to convert 'id'");
  // `a.b` is realm.num; `a.b.c` shard.realm.num
  const shard = m[1] !== undefined && m[2] !== undefined ? BigInt(m[1]) : 0n;
  const realm = m[2] !== undefined ? BigInt(m[2]) : m[1] !== undefined ? BigInt(m[1]) : 0n;
  const t = shard === 0n && realm === 0n ? entitiesOf(data).topics.get(Number(num)) : undefined;
  if (!t) return javaError(404, 'Not Found', 'Topic not found');
  return jsonTextReply(200, withUnknown(h, toJson(topicObject(t, h))), { 'cache-control': 'public, max-age=1' });
}
