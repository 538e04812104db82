/** Entity ids, EVM addresses and timestamps as the mirror node writes and parses them. */

/** 2026-11-01T00:00:00Z: all generated history lies in the weeks before this instant. */
export const ANCHOR_SEC = 1793491200;
export const NS = 1_000_000_000n;

export const entityId = (num: number | bigint, shard = 0, realm = 0): string => `${shard}.${realm}.${num}`;

/** Long-zero EVM address of an entity (0x + 40 hex). */
export const longZero = (num: number | bigint): string => '0x' + BigInt(num).toString(16).padStart(40, '0');

export function tsString(sec: number | bigint, nanos: number): string {
  return `${sec}.${String(nanos).padStart(9, '0')}`;
}

export function tsNs(sec: number | bigint, nanos: number): bigint {
  return BigInt(sec) * NS + BigInt(nanos);
}

export function nsToTs(ns: bigint): string {
  return `${ns / NS}.${(ns % NS).toString().padStart(9, '0')}`;
}

/** `seconds.nanos` (^\d{1,10}(\.\d{1,9})?$) to nanoseconds; null when invalid. */
export function parseTimestamp(v: string): bigint | null {
  const m = /^(\d{1,10})(?:\.(\d{1,9}))?$/.exec(v);
  if (!m) return null;
  return BigInt(m[1]) * NS + BigInt((m[2] ?? '').padEnd(9, '0'));
}

const MAX_SHARD = 1023n;
const MAX_REALM = 65535n;
const MAX_NUM = 274877906943n; // 2^38 - 1
/** Largest int64: timestamps (nanoseconds) above it overflow PostgreSQL's bigint on the real server. */
export const MAX_LONG = 9223372036854775807n;

/** Encoded entity id (shard << 54 | realm << 38 | num), as the mirror node compares ids. */
export const encodeId = (shard: bigint, realm: bigint, num: bigint): bigint => (shard << 54n) | (realm << 38n) | num;

// rest/entityId.js: `shard.realm.num` / `realm.num` by digit counts, or an "encoded id" (any 1-19 digits, signed)
const ENTITY_FORM = /^(\d{1,4}\.)?\d{1,5}\.\d{1,12}$/;
const ENCODED_FORM = /^-?\d{1,19}$/;

/**
 * Whether a query filter value has an entity id's form (the real validation, isValidEntityId without EVM
 * addresses): the ranges are checked later, when the filter is parsed (see parseEntityId).
 */
export const isEntityIdForm = (v: string): boolean => ENTITY_FORM.test(v) || ENCODED_FORM.test(v);

/**
 * The id as the real EntityId.parseString reads it: a leading `0x` dropped, missing shard and realm filled with 0
 * (`70000.1` is `0.70000.1`, a bare number is a num: `274877906944` is `0.0.274877906944`). Its error message
 * quotes this form: `Invalid entity ID "0.70000.1"`.
 */
export function entityIdPieces(v: string): string {
  const pieces = (v.startsWith('0x') ? v.slice(2) : v).split('.');
  while (pieces.length < 3) pieces.unshift('0');
  return pieces.join('.');
}

/**
 * Parses `num`, `realm.num` or `shard.realm.num` (as parseString: 1-4, 1-5 and 1-12 digits, shard <= 1023,
 * realm <= 65535, num < 2^38); returns the encoded id, or null when the form or a range is wrong.
 */
export function parseEntityId(v: string): bigint | null {
  const full = entityIdPieces(v);
  if (!ENTITY_FORM.test(full)) return null;
  const [shard, realm, num] = full.split('.').map((x) => BigInt(x));
  if (shard > MAX_SHARD || realm > MAX_REALM || num > MAX_NUM) return null;
  return encodeId(shard, realm, num);
}

export function formatEncodedId(id: bigint): string {
  return `${id >> 54n}.${(id >> 38n) & MAX_REALM}.${id & MAX_NUM}`;
}
