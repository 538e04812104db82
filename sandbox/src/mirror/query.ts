/**
 * The query machinery every mirror endpoint shares, as hiero-mirror-node `rest/utils.js` has it: filters and their
 * validation (messages as the real server's), ranges on an ordered key, paged scans, `links.next`, list answers with
 * the hostile paging traps, and the errors a route throws (400, 404, 503).
 */
import { type Reply, jsonReply, jsonTextReply } from '../http';
import { MAX_LONG, entityIdPieces, isEntityIdForm, parseEntityId, parseTimestamp } from './ids';
import { type HostileCtx, type ListEndpoint, applyPaging, pagingTrap } from '../hostile';

export const MAX_LIMIT = 100;
export const DEFAULT_LIMIT = 25;

export const mirrorError = (status: number, ...messages: string[]): Reply =>
  jsonReply(status, { _status: { messages: messages.map((message) => ({ message })) } });
export const notFound = (): Reply => mirrorError(404, 'Not found');

export class BadRequest {
  constructor(readonly messages: string[]) {}
}

/**
 * A query the real server sends to PostgreSQL with a timestamp above int64 (e.g. `timestamp=gt:9999999999.999999999`
 * is 9999999999999999999 ns): the database refuses it, queryQuietly throws a DbError and httpErrorHandler answers
 * 503 with the status code's own message, `Service unavailable` (rest/constants.js httpStatusCodes).
 */
export class DbError {}

/* ------------------------------------------------------------------ filters */

export type Op = 'eq' | 'ne' | 'lt' | 'lte' | 'gt' | 'gte';
export interface Filter {
  key: string;
  op: Op;
  value: string;
}

export function splitOp(v: string): { op: Op; value: string } | null {
  const m = /^([a-z]+):(.*)$/.exec(v);
  if (!m) return { op: 'eq', value: v };
  if (!['eq', 'ne', 'lt', 'lte', 'gt', 'gte'].includes(m[1])) return null;
  return { op: m[1] as Op, value: m[2] };
}

export type Validator = (op: Op, value: string) => boolean;
export const eqOnly =
  (check: (v: string) => boolean): Validator =>
  (op, v) =>
    op === 'eq' && check(v);
export const anyOp =
  (check: (v: string) => boolean): Validator =>
  (_op, v) =>
    check(v);

export const isLimit = (v: string): boolean => /^\d{1,19}$/.test(v) && BigInt(v) > 0n && BigInt(v) <= MAX_LONG;
export const isOrder = (v: string): boolean => /^(asc|desc)$/i.test(v);
export const isBool = (v: string): boolean => /^(true|false)$/i.test(v);
export const isTimestamp = (v: string): boolean => parseTimestamp(v) !== null;
/** Form only (the real validation); the ranges are checked when the filter is parsed (FORMATS). */
export const isEntity = (v: string): boolean => isEntityIdForm(v);
export const isEvm = (v: string): boolean => /^(0x)?[0-9a-fA-F]{40}$/.test(v);

export const COMMON: Record<string, Validator> = { limit: eqOnly(isLimit), order: eqOnly(isOrder) };

/**
 * Parses a validated filter value as the real formatComparator does; returns the error message when it cannot
 * (an entity id of the right form but out of range), else null.
 */
export type Format = (value: string) => string | null;

/**
 * account.id, schedule.id (and spender.id, token.id): EntityId.parseString without a parameter name, so the
 * message quotes the id as parsed, e.g. `account.id=70000.1` gives `Invalid entity ID "0.70000.1"`.
 */
export const entityFormat: Format = (v) =>
  parseEntityId(v) === null ? `Invalid entity ID "${entityIdPieces(v)}"` : null;

/**
 * Validates every pair: invalid values first (in order), then unknown names (in order), as the real server.
 * When all are valid, parses them (`format`) in the order of the real query object (names in first-seen order,
 * each name's values in order); the first that fails is the only message (validateAndParseFilters).
 */
export function buildFilters(
  pairs: [string, string][],
  accepted: Record<string, Validator>,
  format: Record<string, Format> = {},
): Filter[] {
  const invalid: string[] = [];
  const unknown: string[] = [];
  const filters: Filter[] = [];
  for (const [key, raw] of pairs) {
    const validator = accepted[key];
    if (!validator) {
      const m = `Unknown query parameter: ${key}`;
      if (!unknown.includes(m)) unknown.push(m);
      continue;
    }
    const parsed = splitOp(raw);
    if (!parsed || !validator(parsed.op, parsed.value)) {
      const m = `Invalid parameter: ${key}`;
      if (!invalid.includes(m)) invalid.push(m);
      continue;
    }
    filters.push({ key, op: parsed.op, value: parsed.value });
  }
  if (invalid.length || unknown.length) throw new BadRequest([...invalid, ...unknown]);
  const keys = [...new Set(filters.map((f) => f.key))];
  for (const key of keys) {
    const fmt = format[key];
    if (!fmt) continue;
    for (const f of filters) {
      const message = f.key === key ? fmt(f.value) : null;
      if (message !== null) throw new BadRequest([message]);
    }
  }
  return filters;
}

/**
 * Validation as the real server does it for the newer routes, message for message (no merging of repeats): each
 * parameter in first-seen order, each of its values in order. `buildAndValidateFilters` (`inline` false): every
 * invalid value, then every value of an unknown parameter; `validateReq` (`inline` true): in parameter order, an
 * unknown parameter once. Then the values are parsed (`format`), the first failure its only message.
 */
export function strictFilters(
  pairs: [string, string][],
  accepted: Record<string, Validator>,
  opts: { inline?: boolean; format?: Record<string, Format> } = {},
): Filter[] {
  const byKey = new Map<string, string[]>();
  for (const [k, v] of pairs) {
    const list = byKey.get(k);
    if (list) list.push(v);
    else byKey.set(k, [v]);
  }
  const invalid: string[] = [];
  const unknown: string[] = [];
  const filters: Filter[] = [];
  for (const [key, values] of byKey) {
    const validator = accepted[key];
    if (!validator) {
      if (opts.inline) invalid.push(`Unknown query parameter: ${key}`);
      else for (let i = 0; i < values.length; i++) unknown.push(`Unknown query parameter: ${key}`);
      continue;
    }
    for (const raw of values) {
      const parsed = splitOp(raw);
      if (!parsed || !validator(parsed.op, parsed.value)) invalid.push(`Invalid parameter: ${key}`);
      else filters.push({ key, op: parsed.op, value: parsed.value });
    }
  }
  if (invalid.length || unknown.length) throw new BadRequest([...invalid, ...unknown]);
  for (const f of filters) {
    const message = opts.format?.[f.key]?.(f.value) ?? null;
    if (message !== null) throw new BadRequest([message]);
  }
  return filters;
}

export const last = (filters: Filter[], key: string): Filter | undefined => {
  for (let i = filters.length - 1; i >= 0; i--) if (filters[i].key === key) return filters[i];
  return undefined;
};

export function limitOf(filters: Filter[]): number {
  const f = last(filters, 'limit');
  if (!f) return DEFAULT_LIMIT;
  const n = BigInt(f.value);
  return n > BigInt(MAX_LIMIT) ? MAX_LIMIT : Number(n);
}

export function orderOf(filters: Filter[], dflt: 'asc' | 'desc'): 'asc' | 'desc' {
  const f = last(filters, 'order');
  return f ? (f.value.toLowerCase() as 'asc' | 'desc') : dflt;
}

/** A range on an ordered bigint key: inclusive bounds, eq set (IN) and ne set. */
export interface Range {
  lower: bigint | null;
  upper: bigint | null;
  eqs: bigint[];
  nes: bigint[];
}

export function rangeOf(filters: Filter[], key: string, parse: (v: string) => bigint): Range {
  const r: Range = { lower: null, upper: null, eqs: [], nes: [] };
  for (const f of filters) {
    if (f.key !== key) continue;
    const v = parse(f.value);
    switch (f.op) {
      case 'eq':
        r.eqs.push(v);
        break;
      case 'ne':
        r.nes.push(v);
        break;
      case 'gt':
      case 'gte': {
        const lo = f.op === 'gt' ? v + 1n : v;
        r.lower = r.lower === null || lo > r.lower ? lo : r.lower;
        break;
      }
      default: {
        const hi = f.op === 'lt' ? v - 1n : v;
        r.upper = r.upper === null || hi < r.upper ? hi : r.upper;
      }
    }
  }
  return r;
}

export const inRange = (r: Range, v: bigint): boolean =>
  (r.lower === null || v >= r.lower) &&
  (r.upper === null || v <= r.upper) &&
  (r.eqs.length === 0 || r.eqs.includes(v)) &&
  !r.nes.includes(v);

/** First index whose key >= target in an ascending array. */
export function lowerBound(length: number, key: (i: number) => bigint, target: bigint): number {
  let lo = 0;
  let hi = length;
  while (lo < hi) {
    const mid = (lo + hi) >>> 1;
    if (key(mid) < target) lo = mid + 1;
    else hi = mid;
  }
  return lo;
}

/**
 * Scans indexes [lo, hi) of an ascending sequence in `order`, collecting up to `limit` matches.
 * Binary search gives lo/hi from the range bounds, so a page costs O(log N + page) when filters are sparse-free.
 */
export function scan<T>(
  length: number,
  key: (i: number) => bigint,
  get: (i: number) => T,
  range: Range,
  order: 'asc' | 'desc',
  limit: number,
  accept: (t: T) => boolean,
): T[] {
  let lo = range.lower === null ? 0 : lowerBound(length, key, range.lower);
  let hi = range.upper === null ? length : lowerBound(length, key, range.upper + 1n);
  const out: T[] = [];
  if (range.eqs.length) {
    const idx = [...new Set(range.eqs)]
      .map((v) => lowerBound(length, key, v))
      .filter((i, k, all) => i < length && all.indexOf(i) === k)
      .filter((i) => range.eqs.includes(key(i)))
      .sort((a, b) => a - b);
    if (order === 'desc') idx.reverse();
    for (const i of idx) {
      if (i < lo || i >= hi || !inRange(range, key(i))) continue;
      const t = get(i);
      if (accept(t)) out.push(t);
      if (out.length >= limit) break;
    }
    return out;
  }
  if (order === 'asc') {
    for (; lo < hi && out.length < limit; lo++) {
      if (range.nes.length && range.nes.includes(key(lo))) continue;
      const t = get(lo);
      if (accept(t)) out.push(t);
    }
  } else {
    for (hi--; hi >= lo && out.length < limit; hi--) {
      if (range.nes.length && range.nes.includes(key(hi))) continue;
      const t = get(hi);
      if (accept(t)) out.push(t);
    }
  }
  return out;
}

/* ------------------------------------------------------------------ next links (rest/utils.js) */

export const GT_LT = /[gl]t[e]?:/;

/** Builds `links.next` like getPaginationLink/getNextParamQueries/updateReqQuery/isEmptyRange of the mirror node. */
export function nextLink(
  path: string,
  pairs: [string, string][],
  field: string,
  lastValue: string,
  order: 'asc' | 'desc',
  parse: (v: string) => bigint | null,
): string | null {
  // the request query as the server sees it: names in first-seen order, repeated names become arrays
  const query = new Map<string, string | string[]>();
  for (const [k, v] of pairs) {
    const prev = query.get(k);
    if (prev === undefined) query.set(k, v);
    else query.set(k, Array.isArray(prev) ? [...prev, v] : [prev, v]);
  }
  const pattern = order === 'asc' ? /gt[e]?:/ : /lt[e]?:/;
  const insert = `${order === 'asc' ? 'gt' : 'lt'}:${lastValue}`;
  const original = query.get(field);
  if (Array.isArray(original))
    query.set(
      field,
      original.filter((v) => !pattern.test(v)),
    );
  else if (original !== undefined && pattern.test(original)) query.delete(field);
  if (query.has(field)) {
    if (GT_LT.test(String(original)))
      query.set(field, ([] as string[]).concat(query.get(field) as string | string[]).concat(insert));
  } else {
    query.set(field, insert);
  }
  // isEmptyRange on the cursor field
  const current = query.get(field);
  let lower: bigint | null = null;
  let upper: bigint | null = null;
  for (const v of Array.isArray(current) ? current : [current as string]) {
    if (!GT_LT.test(v)) continue;
    const p = splitOp(v);
    const parsed = p ? parse(p.value) : null;
    if (!p || parsed === null) continue;
    if (p.op === 'gt' || p.op === 'gte') {
      const lo = p.op === 'gt' ? parsed + 1n : parsed;
      lower = lower === null || lo > lower ? lo : lower;
    } else if (p.op === 'lt' || p.op === 'lte') {
      const hi = p.op === 'lt' ? parsed - 1n : parsed;
      upper = upper === null || hi < upper ? hi : upper;
    }
  }
  if (lower !== null && upper !== null && upper < lower) return null;
  let qs = '';
  for (const [k, v] of query) {
    for (const vv of Array.isArray(v) ? v : [v]) qs += `${qs === '' ? '?' : '&'}${k}=${vv}`;
  }
  return path + qs;
}

export function listReply(
  status: number,
  listKey: string,
  items: string[],
  next: string | null,
  cacheControl: string,
): Reply {
  const body = `{"${listKey}":[${items.join(',')}],"links":{"next":${next === null ? 'null' : JSON.stringify(next)}}}`;
  const headers: Record<string, string> = { 'cache-control': cacheControl };
  if (next !== null) headers.Link = `<${next}>; rel="next"`;
  return jsonTextReply(status, body, headers);
}

export interface Cursor {
  field: string;
  order: 'asc' | 'desc';
  parse: (v: string) => bigint | null;
  /** Cursor value of the page's last item, null on an empty page. */
  lastValue: string | null;
}

/** Cursor values past every item: an empty first page links there, so the link holds the first page's items. */
export const OUTER_BOUNDARY: Record<string, { asc: string; desc: string }> = {
  // the largest int64 nanoseconds: a bigger value answers 503 on the real NFT history and /contracts/{id}/results
  timestamp: { asc: '0.0', desc: '9223372036.854775807' },
  'schedule.id': { asc: '0.0.0', desc: '0.0.274877906943' },
  // actions: no paging-empty trap (hostile.ts); the largest int32 index for a fallback link
  index: { asc: '0', desc: '2147483647' },
};

/** A list page, with the hostile paging trap of this endpoint when one is on. */
export function pagedReply(
  h: HostileCtx | undefined,
  endpoint: ListEndpoint,
  status: number,
  listKey: string,
  path: string,
  pairs: [string, string][],
  items: string[],
  next: string | null,
  cursor: Cursor,
  cacheControl: string,
): Reply {
  const direction = cursor.order === 'asc' ? /^gte?:/ : /^lte?:/;
  const firstPage = !pairs.some(([k, v]) => k === cursor.field && direction.test(v));
  const trap = h && pagingTrap(h, endpoint, firstPage);
  if (!h || !trap) return listReply(status, listKey, items, next, cacheControl);
  let qs = '';
  for (const [k, v] of pairs) if (!(k === cursor.field && direction.test(v))) qs += `${qs === '' ? '?' : '&'}${k}=${v}`;
  const boundary = OUTER_BOUNDARY[cursor.field][cursor.order];
  const emptyNext = nextLink(path, pairs, cursor.field, boundary, cursor.order, cursor.parse);
  const forcedNext =
    next ??
    (cursor.lastValue !== null
      ? nextLink(path, pairs, cursor.field, cursor.lastValue, cursor.order, cursor.parse)
      : null) ??
    emptyNext;
  const page = applyPaging(h, trap, firstPage, { items, next }, { forcedNext, firstUrl: path + qs, emptyNext });
  return listReply(status, listKey, page.items, page.next, cacheControl);
}
export class NotFoundError {
  constructor(readonly message = 'Not found') {}
}
