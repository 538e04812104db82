/**
 * `GET /api/v1/blocks/{hashOrNumber}` (openapi `Block`), over the blocks the contract results name: a block number
 * (decimal) or a hash (64 hex, a prefix of the 48-byte hash, or all 96; `0x` optional); anything else is 400
 * `Invalid parameter: hashOrNumber`, a block no result names 404 `Not found` unless it is one of the 256 below a
 * block that one names (by number: an empty block, so that what BLOCKHASH reads there is served, `blockHashAt`). The block: `count` its transactions
 * (parents and children), `gas_used` their sum, `hash` and `number` as the results have them, `logs_bloom` the OR of
 * their blooms, `timestamp` from its first transaction to its last, `previous_hash` the block before's (when no
 * result names it, the SHA-384 of its number), `name` the record file's (`<from as ISO time>.rcd`), `hapi_version`
 * and `size` as a network of today sends them. An emulation: the sandbox has no record files, only the results.
 * A replay takes `block.timestamp` and `block.number` from here.
 */
import { createHash } from 'node:crypto';
import { type Reply, jsonReply } from '../http';
import type { MirrorData } from './api';
import { type ContractResultRow, blockNumberAt } from './contracts';
import { toJson } from '../json';
import { NS, nsToTs, parseTimestamp } from './ids';
import {
  BadRequest,
  COMMON,
  type Validator,
  anyOp,
  inRange,
  isTimestamp,
  limitOf,
  listReply,
  orderOf,
  rangeOf,
  strictFilters,
} from './query';

const blockIndexes = new WeakMap<MirrorData, Map<bigint, ContractResultRow[]>>();

function indexOf(data: MirrorData): Map<bigint, ContractResultRow[]> {
  let idx = blockIndexes.get(data);
  if (!idx || [...idx.values()].reduce((n, l) => n + l.length, 0) < data.contracts.all.length) {
    idx = new Map();
    for (const r of data.contracts.all) {
      for (const row of [r, ...(r.children ?? [])]) {
        const list = idx.get(row.blockNumber);
        if (list) {
          if (!list.includes(row)) list.push(row);
        } else idx.set(row.blockNumber, [row]);
      }
    }
    blockIndexes.set(data, idx);
  }
  return idx;
}

const hashOfNumber = (n: bigint): string => createHash('sha384').update(`block ${n}`).digest('hex');

/** The nearest block above `n` the results name, if it is at most 256 above (BLOCKHASH's window). */
function namedAbove(idx: Map<bigint, ContractResultRow[]>, n: bigint): bigint | undefined {
  for (let m = n + 1n; m <= n + 256n; m++) if (idx.has(m)) return m;
  return undefined;
}

/**
 * The hash the sandbox's mirror node gives block `n` (96 hex, no 0x): the results' when they name it, else the
 * emulated one its neighbours' `previous_hash` already use. The sandbox's EVM reads BLOCKHASH from here.
 */
export function blockHashAt(data: MirrorData, n: bigint): string {
  return indexOf(data).get(n)?.[0]?.blockHash ?? hashOfNumber(n);
}

/**
 * A block no result names, within the 256 below one that does (what a BLOCKHASH there can read): no transactions,
 * its 2-second period counted back from that block's (blocks are 2 seconds), the emulated hash.
 */
function emptyBlock(idx: Map<bigint, ContractResultRow[]>, n: bigint, above: bigint): Record<string, unknown> {
  const first = [...(idx.get(above) as ContractResultRow[])].sort((a, b) => (a.tsNs < b.tsNs ? -1 : 1))[0];
  let sec = first.tsNs / NS;
  if (blockNumberAt(Number(sec) - 1) === above) sec -= 1n;
  const from = (sec - 2n * (above - n)) * NS;
  const iso = new Date(Number(from / 1_000_000n))
    .toISOString()
    .replace(/:/g, '_')
    .replace(/\.\d+Z$/, '');
  return {
    count: 0,
    gas_used: 0,
    hapi_version: '0.67.0',
    hash: `0x${hashOfNumber(n)}`,
    logs_bloom: `0x${'0'.repeat(512)}`,
    name: `${iso}.000000000Z.rcd`,
    number: Number(n),
    previous_hash: `0x${idx.get(n - 1n)?.[0]?.blockHash ?? hashOfNumber(n - 1n)}`,
    size: 2048,
    timestamp: { from: nsToTs(from), to: nsToTs(from + 2n * NS - 1n) },
  };
}

export function blockByHashOrNumber(data: MirrorData, raw: string, pairs: [string, string][]): Reply {
  if (pairs.length) throw new BadRequest(pairs.map(([k]) => `Unknown query parameter: ${k}`));
  const idx = indexOf(data);
  let rows: ContractResultRow[] | undefined;
  if (/^\d{1,19}$/.test(raw)) {
    const n = BigInt(raw);
    rows = idx.get(n);
    const above = rows ? undefined : namedAbove(idx, n);
    if (above !== undefined) return jsonReply(200, emptyBlock(idx, n, above), { 'Cache-Control': 'public, max-age=1' });
  } else {
    const m = /^(?:0x)?([0-9a-fA-F]{64}|[0-9a-fA-F]{96})$/.exec(raw);
    if (!m) throw new BadRequest(['Invalid parameter: hashOrNumber']);
    const h = m[1].toLowerCase();
    for (const list of idx.values())
      if (list[0].blockHash.startsWith(h)) {
        rows = list;
        break;
      }
  }
  if (!rows?.length) return jsonReply(404, { _status: { messages: [{ message: 'Not found' }] } });
  return jsonReply(200, blockObject(idx, rows), { 'Cache-Control': 'public, max-age=1' });
}

/** The `Block` object of a block's results. */
function blockObject(idx: Map<bigint, ContractResultRow[]>, rows: ContractResultRow[]): Record<string, unknown> {
  const sorted = [...rows].sort((a, b) => (a.tsNs < b.tsNs ? -1 : a.tsNs > b.tsNs ? 1 : 0));
  const n = sorted[0].blockNumber;
  const bloom = Buffer.alloc(256);
  let gas = 0n;
  for (const r of sorted) {
    const b = r.obj.bloom;
    if (typeof b === 'string' && /^0x[0-9a-f]{512}$/i.test(b)) {
      const bytes = Buffer.from(b.slice(2), 'hex');
      for (let i = 0; i < 256; i++) bloom[i] |= bytes[i];
    }
    const g = r.obj.gas_used;
    if (typeof g === 'number' || typeof g === 'bigint') gas += BigInt(g);
  }
  const from = sorted[0].tsNs;
  const previous = idx.get(n - 1n)?.[0]?.blockHash ?? hashOfNumber(n - 1n);
  const iso = new Date(Number(from / 1_000_000n))
    .toISOString()
    .replace(/:/g, '_')
    .replace(/\.\d+Z$/, '');
  return {
    count: sorted.length,
    gas_used: gas,
    hapi_version: '0.67.0',
    hash: `0x${sorted[0].blockHash}`,
    logs_bloom: `0x${bloom.toString('hex')}`,
    name: `${iso}.${(from % NS).toString().padStart(9, '0')}Z.rcd`,
    number: Number(n),
    previous_hash: `0x${previous}`,
    size: 2048 + 512 * sorted.length,
    timestamp: { from: nsToTs(from), to: nsToTs(sorted[sorted.length - 1].tsNs) },
  };
}

const BLOCK_PARAMS: Record<string, Validator> = {
  ...COMMON,
  'block.number': anyOp((v) => /^(0x)?\d{1,19}$/.test(v)),
  timestamp: anyOp(isTimestamp),
};

/**
 * `GET /api/v1/blocks` (openapi `getBlocks`): `block.number` and `timestamp` (any operator; `timestamp` is the
 * block's end, `consensus_end`), `limit`, `order` (desc by default); a full page links to the next by block number.
 * The list answer a "block at a time" look-up uses (`timestamp=lte:T&order=desc&limit=1`).
 */
export function blocksList(data: MirrorData, pairs: [string, string][]): Reply {
  const filters = strictFilters(pairs, BLOCK_PARAMS);
  const idx = indexOf(data);
  const numbers = rangeOf(filters, 'block.number', (v) => BigInt(v));
  const ends = rangeOf(filters, 'timestamp', (v) => parseTimestamp(v) as bigint);
  const order = orderOf(filters, 'desc');
  const limit = limitOf(filters);
  const keys = [...idx.keys()].sort((a, b) => (a < b ? -1 : a > b ? 1 : 0));
  if (order === 'desc') keys.reverse();
  const items: string[] = [];
  let lastNumber: bigint | undefined;
  for (const n of keys) {
    if (!inRange(numbers, n)) continue;
    const rows = idx.get(n) as ContractResultRow[];
    let end = rows[0].tsNs;
    for (const r of rows) if (r.tsNs > end) end = r.tsNs;
    if (!inRange(ends, end)) continue;
    items.push(toJson(blockObject(idx, rows)));
    lastNumber = n;
    if (items.length === limit) break;
  }
  const next =
    items.length === limit && lastNumber !== undefined
      ? `/api/v1/blocks?limit=${limit}&order=${order}&block.number=${order === 'desc' ? 'lt' : 'gt'}:${lastNumber}`
      : null;
  return listReply(200, 'blocks', items, next, 'public, max-age=1');
}
