/**
 * `GET /api/v1/contracts/{contractIdOrAddress}/state` as the real mirror node answers it (contractController
 * getContractStateById, its spec tests `contracts/{id}/state/*.json`), over the storage history of the inspector's
 * contracts as the sandbox's EVM executed them (mirror/executions.ts): the state the constructors and the history
 * left (at each contract's creation), then every write of every scenario that succeeded, at its consensus timestamp.
 * So the state at any time is the one the executions saw: `timestamp=lt:T` is the storage just before the
 * transaction at T, as a replay needs it.
 *
 * - Path: as `/contracts/{id}` (400 `Invalid parameter: contractid`); an unknown id, an account, or an EVM address no
 *   entity has: 200 with an empty list.
 * - Query: `limit` (25, at most 100), `order` (by slot, asc), `slot` (eq, gt, gte, lt, lte; hex of 1 to 64 digits
 *   with or without `0x`; several eq values are a list; else `Invalid parameter: slot`), `timestamp` (eq, gt, gte,
 *   lt, lte; `ne` is 400 `Not equals (ne) operator is not supported for timestamp`); every invalid value, then every
 *   unknown parameter. Seconds of fewer than ten digits are refused (`Invalid parameter: timestamp`), as the spec
 *   refuses `timestamp=123` and `gt:123`.
 * - Without a timestamp, the current state (each slot's last write, `timestamp` its time); with one, each slot's last
 *   write within the range (an `eq` is "at or before"), as the real server reads contract_state_change.
 * - `links.next` when more rows follow: the query with `slot=gt:<last slot>` (`lt:` descending).
 * Other contracts (the generated ones) have no storage history in the sandbox: an empty list.
 */
import { type Reply, jsonReply } from '../http';
import type { MirrorData } from './api';
import { entitiesOf } from './entities';
import { type RealKey, inspectorRuns, preparedStorage } from './executions';
import { entityId, nsToTs, parseTimestamp } from './ids';
import { BadRequest, type Filter, type Validator, isLimit, isOrder, strictFilters } from './query';
import { inspectorNotable } from './scenarios';

/** One write of a slot: its value from `ns` on. */
interface Write {
  ns: bigint;
  value: string;
}

/** By contract num: by slot (0x + 64 hex), the writes in time order. */
type History = Map<number, Map<string, Write[]>>;

const histories = new WeakMap<MirrorData, Promise<History>>();
const SLOT = /^(0x)?[0-9a-fA-F]{1,64}$/;
const word = (h: string): string => `0x${h.toLowerCase().replace(/^0x/, '').padStart(64, '0')}`;

const PARAMS: Record<string, Validator> = {
  limit: (op, v) => op === 'eq' && isLimit(v),
  order: (op, v) => op === 'eq' && isOrder(v),
  slot: (op, v) => op !== 'ne' && SLOT.test(v),
  // the spec refuses `timestamp=123` and `gt:123` but takes `lt:1677575108`: seconds of ten digits are taken
  timestamp: (_op, v) => /^\d{10}(\.\d{1,9})?$/.test(v),
};

/** The storage history of the inspector's contracts (built once per data set). */
function historyOf(data: MirrorData): Promise<History> {
  let h = histories.get(data);
  if (!h) {
    h = (async () => {
      const out: History = new Map();
      const add = (num: number, slot: string, ns: bigint, value: string): void => {
        let slots = out.get(num);
        if (!slots) out.set(num, (slots = new Map()));
        let list = slots.get(slot);
        if (!list) slots.set(slot, (list = []));
        list.push({ ns, value });
      };
      const numOf = (address: string): number | undefined =>
        data.contracts.contractsByEvm.get(address.toLowerCase().replace(/^0x/, ''));
      const reg = entitiesOf(data);
      for (const { address, slot, value } of await preparedStorage()) {
        const num = numOf(address);
        const created = num === undefined ? null : (reg.accounts.get(num)?.createdNs ?? null);
        if (num !== undefined && created !== null) add(num, word(slot), created, word(value));
      }
      const notable = inspectorNotable(data.contracts) as Record<string, { timestamp?: string }>;
      const runs = await inspectorRuns();
      for (const [key, run] of runs) {
        const ts = notable[key as RealKey]?.timestamp;
        const ns = ts ? parseTimestamp(ts) : null;
        if (!run.ex.success || ns === null) continue;
        for (const c of run.ex.stateChanges) {
          const num = numOf(c.address);
          if (num !== undefined && c.value_written !== null) add(num, word(c.slot), ns, word(c.value_written));
        }
      }
      for (const slots of out.values()) for (const list of slots.values()) list.sort((a, b) => (a.ns < b.ns ? -1 : 1));
      return out;
    })();
    histories.set(data, h);
  }
  return h;
}

/** The entity num the path names, or undefined (an unknown one: an empty list). */
function numOfRef(
  data: MirrorData,
  ref: { kind: 'id'; encoded: bigint } | { kind: 'evm'; hex: string },
): number | undefined {
  if (ref.kind === 'evm') {
    const hex = ref.hex.toLowerCase();
    return data.contracts.contractsByEvm.get(hex) ?? entitiesOf(data).byEvm.get(hex);
  }
  return ref.encoded < 1n << 38n ? Number(ref.encoded) : undefined;
}

export async function contractState(
  data: MirrorData,
  path: string,
  ref: { kind: 'id'; encoded: bigint } | { kind: 'evm'; hex: string },
  pairs: [string, string][],
): Promise<Reply> {
  const lowered = pairs.map(([k, v]): [string, string] => [k.toLowerCase(), v]);
  const filters = strictFilters(lowered, PARAMS);
  if (filters.some((f) => f.key === 'timestamp' && f.op === 'ne'))
    throw new BadRequest(['Not equals (ne) operator is not supported for timestamp']);
  const last = (key: string): Filter | undefined => [...filters].reverse().find((f) => f.key === key);
  const limit = Math.min(Number(last('limit')?.value ?? 25), 100);
  const order = (last('order')?.value ?? 'asc').toLowerCase() === 'desc' ? 'desc' : 'asc';

  // slots: eq values are a list, ranges a bound each
  const slotEq: bigint[] = [];
  let slotLo: bigint | null = null;
  let slotHi: bigint | null = null;
  for (const f of filters.filter((x) => x.key === 'slot')) {
    const v = BigInt(`0x${f.value.replace(/^0x/i, '')}`);
    if (f.op === 'eq') slotEq.push(v);
    else if (f.op === 'gt' || f.op === 'gte') {
      const lo = f.op === 'gt' ? v + 1n : v;
      slotLo = slotLo === null || lo > slotLo ? lo : slotLo;
    } else {
      const hi = f.op === 'lt' ? v - 1n : v;
      slotHi = slotHi === null || hi < slotHi ? hi : slotHi;
    }
  }
  // times: eq is "at or before", the others a range
  let tLo: bigint | null = null;
  let tHi: bigint | null = null;
  const timed = filters.some((f) => f.key === 'timestamp');
  for (const f of filters.filter((x) => x.key === 'timestamp')) {
    const v = parseTimestamp(f.value) as bigint;
    if (f.op === 'gt' || f.op === 'gte') {
      const lo = f.op === 'gt' ? v + 1n : v;
      tLo = tLo === null || lo > tLo ? lo : tLo;
    } else {
      const hi = f.op === 'lt' ? v - 1n : v;
      tHi = tHi === null || hi < tHi ? hi : tHi;
    }
  }

  const num = numOfRef(data, ref);
  const history = num === undefined ? undefined : (await historyOf(data)).get(num);
  const contract = num === undefined ? undefined : data.contracts.contractsByNum.get(num);
  const address = contract ? `0x${contract.evm}` : num !== undefined ? `0x${num.toString(16).padStart(40, '0')}` : '';
  const rows: Array<{ slot: string; n: bigint; ns: bigint; value: string }> = [];
  for (const [slot, writes] of history ?? []) {
    const n = BigInt(slot);
    if (slotEq.length && !slotEq.includes(n)) continue;
    if ((slotLo !== null && n < slotLo) || (slotHi !== null && n > slotHi)) continue;
    let w: Write | undefined;
    for (const x of writes) {
      if (timed && ((tLo !== null && x.ns < tLo) || (tHi !== null && x.ns > tHi))) continue;
      w = x;
    }
    if (w) rows.push({ slot, n, ns: w.ns, value: w.value });
  }
  rows.sort((a, b) => (a.n < b.n ? -1 : a.n > b.n ? 1 : 0) * (order === 'asc' ? 1 : -1));
  const page = rows.slice(0, limit);
  let next: string | null = null;
  if (rows.length > limit) {
    const kept = pairs.filter(([k, v]) => !(k.toLowerCase() === 'slot' && /^(gt|gte|lt|lte):/.test(v)));
    kept.push(['slot', `${order === 'asc' ? 'gt' : 'lt'}:${page[page.length - 1].slot}`]);
    next = `${path}?${kept.map(([k, v]) => `${k}=${v}`).join('&')}`;
  }
  return jsonReply(
    200,
    {
      state: page.map((r) => ({
        address,
        contract_id: num === undefined ? null : entityId(num),
        timestamp: nsToTs(r.ns),
        slot: r.slot,
        value: r.value,
      })),
      links: { next },
    },
    { 'Cache-Control': 'public, max-age=1' },
  );
}
