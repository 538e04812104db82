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

/** Encoded entity id (shard << 54 | realm << 38 | num), as the mirror node compares ids. */
export const encodeId = (shard: bigint, realm: bigint, num: bigint): bigint => (shard << 54n) | (realm << 38n) | num;

/** Parses `num`, `realm.num` or `shard.realm.num`; returns the encoded id or null when invalid. */
export function parseEntityId(v: string): bigint | null {
  const m = /^(?:(?:(\d{1,10})\.)?(\d{1,10})\.)?(\d{1,10})$/.exec(v);
  if (!m) return null;
  const shard = BigInt(m[1] ?? '0');
  const realm = BigInt(m[2] ?? '0');
  const num = BigInt(m[3]);
  if (shard > MAX_SHARD || realm > MAX_REALM || num > MAX_NUM) return null;
  return encodeId(shard, realm, num);
}

export function formatEncodedId(id: bigint): string {
  return `${id >> 54n}.${(id >> 38n) & MAX_REALM}.${id & MAX_NUM}`;
}
