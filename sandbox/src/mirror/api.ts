/**
 * The mirror node REST API v1 over the generated data: routing, the real validation and messages,
 * filters, ordering, and `links.next` built the way the real server builds it (rest/utils.js).
 */
import { Prng } from '../prng';
import { toJson } from '../json';
import { type Reply, jsonTextReply } from '../http';
import { type ContractData, type ContractResultRow, generateContracts, weibarObject } from './contracts';
import { contractById } from './contract';
import { accountById, tokenById, topicById } from './lookups';
import { tokenBalances } from './tokenBalances';
import {
  builtOf,
  contractActions,
  contractOpcodes,
  contractResultDetails,
  transactions,
  transactionsById,
} from './inspector';
import { SCENARIO_TOP_COUNT, addInspectorScenarios } from './scenarios';
import type { RealKey, RealRun } from './executions';
import { type ScheduleData, type ScheduleRow, generateSchedules } from './schedules';
import { type NftData, type NftHistory, generateNfts, nftKey } from './nfts';
import { contractState } from './state';
import { blockByHashOrNumber, blocksList } from './blocks';
import { MAX_LONG, entityId, longZero, nsToTs, parseEntityId, parseTimestamp } from './ids';
import {
  HOSTILE_TEXTS,
  type HostileCtx,
  has,
  hostileContractResult,
  hostileNft,
  hostileSchedule,
  payloadIndex,
} from '../hostile';
import {
  BadRequest,
  COMMON,
  type Cursor,
  DbError,
  type Filter,
  type Format,
  NotFoundError,
  type Op,
  type Validator,
  anyOp,
  buildFilters,
  entityFormat,
  eqOnly,
  type Range,
  inRange,
  isBool,
  isEntity,
  isEvm,
  isTimestamp,
  last,
  limitOf,
  mirrorError,
  nextLink,
  notFound,
  orderOf,
  pagedReply,
  rangeOf,
  scan,
} from './query';

export { mirrorError, notFound } from './query';

export interface MirrorData {
  contracts: ContractData;
  schedules: ScheduleData;
  nfts: NftData;
  /** Hostile mode: payload numbers of generated contract results with text, and schedule positions (built on first use). */
  hostile?: { textIndex: WeakMap<ContractResultRow, number>; schedulePosition: WeakMap<ScheduleRow, number> };
  /** How many rows `contracts.all` had when generated (live rows come after). */
  generatedAll: number;
  /** The placement ledger's ids (mirror/placement.ts), when it is loaded. */
  placement?: Record<string, unknown>;
}

/** `runs`: the inspector scenarios' real executions (mirror/executions.ts inspectorRuns, awaited by the server). */
export function generateMirrorData(nowMs: number, runs: ReadonlyMap<RealKey, RealRun>): MirrorData {
  const contracts = generateContracts(new Prng(0x48454441), SCENARIO_TOP_COUNT);
  addInspectorScenarios(contracts, (row) => builtOf(contracts, row), runs);
  return {
    contracts,
    schedules: generateSchedules(
      new Prng(0x5343484c),
      nowMs,
      contracts.contracts.map((c) => c.num),
    ),
    nfts: generateNfts(new Prng(0x4e465448)),
    generatedAll: contracts.all.length,
  };
}

/** Whether the `text` trap has something to replace in a contract result (see hostileContractResult). */
export function hasHostileText(obj: Record<string, unknown>): boolean {
  const em = obj.error_message;
  if (typeof em === 'string' && (em.startsWith('0x08c379a0') || (em !== '' && !em.startsWith('0x')))) return true;
  return obj.function_parameters === '0x06fdde03' && obj.result === 'SUCCESS';
}

/**
 * Tables of hostile mode, built once: generated contract results with text get payloads 0, 1, 2, ... counted
 * from the newest (so the first page shows them in order); schedules are numbered by position (ascending id).
 */
export function hostileTables(data: MirrorData): NonNullable<MirrorData['hostile']> {
  if (!data.hostile) {
    const textIndex = new WeakMap<ContractResultRow, number>();
    let k = 0;
    for (let i = data.generatedAll - 1; i >= 0; i--) {
      const r = data.contracts.all[i];
      // the inspector's scenarios take the payload of their timestamp, as live results (the numbering is the generator's)
      if (hasHostileText(r.obj) && !r.scenario) textIndex.set(r, payloadIndex(k++));
    }
    const schedulePosition = new WeakMap<ScheduleRow, number>();
    data.schedules.rows.forEach((r, i) => schedulePosition.set(r, i));
    data.hostile = { textIndex, schedulePosition };
  }
  return data.hostile;
}

/** Where the `text` payloads land (GET /__sandbox/hostile): newest contract results with text, first schedules. */
export function hostileNotable(data: MirrorData): Record<string, unknown> {
  hostileTables(data);
  const contractResults: Record<string, unknown>[] = [];
  for (let i = data.generatedAll - 1; i >= 0 && contractResults.length < HOSTILE_TEXTS.length; i--) {
    const r = data.contracts.all[i];
    if (!hasHostileText(r.obj) || r.scenario) continue;
    const em = r.obj.error_message;
    const field =
      typeof em === 'string' && em.startsWith('0x08c379a0')
        ? 'error_message (Error(string))'
        : typeof em === 'string' && em !== '' && !em.startsWith('0x')
          ? 'error_message'
          : 'call_result (name())';
    const k = data.hostile?.textIndex.get(r) ?? 0;
    contractResults.push({
      timestamp: r.obj.timestamp,
      contract_id: r.obj.contract_id,
      top: r.top,
      field,
      payload: HOSTILE_TEXTS[k].id,
    });
  }
  const schedules = data.schedules.rows.slice(0, HOSTILE_TEXTS.length).map((r, i) => ({
    schedule_id: entityId(r.num),
    memo: HOSTILE_TEXTS[payloadIndex(i)].id,
    bodyMemo: HOSTILE_TEXTS[payloadIndex(i + 1)].id,
  }));
  // the lookups (mirror/lookups.ts): an entity's memo (and a token's name and symbol) is the payload of its num
  const lookups = [
    '0.0.7000',
    '0.0.7001',
    '0.0.7004',
    '0.0.7005',
    '0.0.7100',
    '0.0.4815162',
    '0.0.4001001',
    '0.0.4004004',
  ].map((id) => ({ id, payload: HOSTILE_TEXTS[payloadIndex(Number(id.split('.')[2]))].id }));
  return { contractResults, schedules, lookups };
}

/** Payload number of a contract result: from the table, or (live results, scenarios) its timestamp's nanoseconds. */
function textIndexOf(data: MirrorData, row: ContractResultRow): number | undefined {
  const t = hostileTables(data).textIndex.get(row);
  if (t !== undefined) return t;
  return hasHostileText(row.obj) ? payloadIndex(row.tsNs) : undefined;
}

/* ------------------------------------------------------------------ routes */

/** What a mirror request carries besides its path and query, and the run's settings. */
export interface MirrorContext {
  /** The Accept-Encoding header (the opcodes endpoint requires gzip), undefined when absent. */
  acceptEncoding?: string;
  /** Whether `/contracts/results/{id}/opcodes` is served (`hiero.mirror.web3.opcode.tracer.enabled`); default true. */
  opcodes?: boolean;
}

export function handleMirror(
  data: MirrorData,
  method: string,
  path: string,
  pairs: [string, string][],
  nowMs: number,
  h?: HostileCtx,
  ctx: MirrorContext = {},
): Reply | Promise<Reply> {
  if (method !== 'GET' && method !== 'HEAD') return notFound();
  const p = path.length > 1 && path.endsWith('/') ? path.slice(0, -1) : path;
  try {
    if (p === '/api/v1/contracts/results') return contractResults(data, p, pairs, h);
    const textOf = (row: ContractResultRow): number | undefined => textIndexOf(data, row);
    let m = /^\/api\/v1\/contracts\/results\/([^/]+)\/opcodes$/.exec(p);
    if (m)
      return contractOpcodes(
        data.contracts,
        { path: p, rawId: decode(m[1]), pairs, acceptEncoding: ctx.acceptEncoding, enabled: ctx.opcodes !== false },
        textOf,
        h,
      );
    m = /^\/api\/v1\/contracts\/results\/([^/]+)\/actions$/.exec(p);
    if (m) return contractActions(data.contracts, p, decode(m[1]), pairs, textOf, h);
    m = /^\/api\/v1\/contracts\/results\/([^/]+)$/.exec(p);
    if (m && m[1] !== 'logs') return contractResultDetails(data.contracts, decode(m[1]), pairs, textOf, h);
    if (p === '/api/v1/transactions') return transactions(data.contracts, p, pairs, h);
    m = /^\/api\/v1\/transactions\/([^/]+)$/.exec(p);
    if (m) return transactionsById(data.contracts, decode(m[1]), pairs, h);
    m = /^\/api\/v1\/contracts\/([^/]+)\/results$/.exec(p);
    if (m) return contractResultsById(data, p, decode(m[1]), pairs, h);
    if ((m = /^\/api\/v1\/contracts\/([^/]+)\/state$/.exec(p)))
      return contractState(data, p, parseContractRef(decode(m[1])), pairs).catch(mirrorErrorOf);
    if ((m = /^\/api\/v1\/contracts\/([^/]+)$/.exec(p)))
      return contractById(data, parseContractRef(decode(m[1])), pairs, h);
    if ((m = /^\/api\/v1\/blocks\/([^/]+)$/.exec(p))) return blockByHashOrNumber(data, decode(m[1]), pairs);
    if (p === '/api/v1/blocks') return blocksList(data, pairs);
    if ((m = /^\/api\/v1\/accounts\/([^/]+)$/.exec(p))) return accountById(data, p, decode(m[1]), pairs, h);
    if ((m = /^\/api\/v1\/tokens\/([^/]+)$/.exec(p))) return tokenById(data, decode(m[1]), pairs, h);
    if ((m = /^\/api\/v1\/tokens\/([^/]+)\/balances$/.exec(p))) return tokenBalances(data, p, decode(m[1]), pairs);
    if ((m = /^\/api\/v1\/topics\/([^/]+)$/.exec(p))) return topicById(data, decode(m[1]), h);
    if (p === '/api/v1/schedules') return schedules(data, p, pairs, h);
    m = /^\/api\/v1\/schedules\/([^/]+)$/.exec(p);
    if (m) return schedule(data, decode(m[1]), pairs, nowMs, h);
    m = /^\/api\/v1\/tokens\/([^/]+)\/nfts\/([^/]+)\/transactions$/.exec(p);
    if (m) return nftHistory(data.nfts, p, decode(m[1]), decode(m[2]), pairs, h);
    return notFound();
  } catch (e) {
    return mirrorErrorOf(e);
  }
}

/** The answer of an error a route threw (400, 404, 503); anything else is thrown on. */
function mirrorErrorOf(e: unknown): Reply {
  if (e instanceof BadRequest) return mirrorError(400, ...e.messages);
  if (e instanceof NotFoundError) return mirrorError(404, e.message);
  if (e instanceof DbError) return mirrorError(503, 'Service unavailable');
  throw e;
}

function decode(s: string): string {
  try {
    return decodeURIComponent(s);
  } catch {
    return s;
  }
}

/* contracts/results */

const CONTRACT_PARAMS: Record<string, Validator> = {
  ...COMMON,
  // every operator, as filterValidityChecks (FROM: EntityId.isValidEntityId, no operator check): eq, ne, lt, lte, gt, gte
  from: anyOp((v) => isEntity(v) || isEvm(v)),
  'block.hash': eqOnly((v) => /^(0x)?([0-9a-fA-F]{64}|[0-9a-fA-F]{96})$/.test(v)),
  'block.number': eqOnly((v) => (/^\d{1,19}$/.test(v) && BigInt(v) <= MAX_LONG) || /^0x[0-9a-fA-F]{1,16}$/.test(v)),
  internal: eqOnly(isBool),
  timestamp: anyOp(isTimestamp),
  'transaction.index': eqOnly((v) => /^\d{1,10}$/.test(v) && Number(v) <= 2147483647),
  hbar: eqOnly(isBool),
};

function rowJson(row: ContractResultRow, weibar: boolean): string {
  if (weibar) return toJson(weibarObject(row.obj));
  if (row.json === undefined) row.json = toJson(row.obj);
  return row.json;
}

/** `from`: parseString with the parameter name (EVM addresses are resolved later), so `Invalid parameter: from`. */
const CONTRACT_FORMATS: Record<string, Format> = {
  from: (v) => (isEvm(v) || parseEntityId(v) !== null ? null : 'Invalid parameter: from'),
};

/**
 * Validates the query of both contract results lists (values, names, parsing, then dependencies), as
 * buildAndValidateFilters.
 */
function contractFilters(pairs: [string, string][]): Filter[] {
  const filters = buildFilters(pairs, CONTRACT_PARAMS, CONTRACT_FORMATS);
  const has = (k: string): boolean => filters.some((f) => f.key === k);
  if (has('block.hash') && has('block.number'))
    throw new BadRequest(['Invalid parameter usage: block.hash - cannot combine block.number and block.hash']);
  if (has('transaction.index') && !has('block.hash') && !has('block.number'))
    throw new BadRequest([
      'Invalid parameter usage: transaction.index - transaction.index requires block.number or block.hash filter to be specified',
    ]);
  return filters;
}

interface ContractQuery {
  limit: number;
  order: 'asc' | 'desc';
  range: Range;
  internal: boolean;
  weibar: boolean;
  accept: (r: ContractResultRow) => boolean;
}

/** Whether a `from` filter is a range (`gt`, `gte`, `lt`, `lte`): see checkListFromRange. */
const isFromRange = (f: Filter): boolean => f.key === 'from' && f.op !== 'eq' && f.op !== 'ne';

/**
 * Turns validated filters into a scan: `from` EVM aliases resolved (404 when unknown, as the real EntityService);
 * its eq values are one `sender_id in (...)`, every other operator its own condition on the encoded id
 * (extractContractResultsByIdQuery, updateConditionsAndParamsWithInValues).
 */
function contractQuery(data: ContractData, filters: Filter[]): ContractQuery {
  const senders = new Set<number>();
  const senderConditions: { op: Op; id: bigint }[] = [];
  let anyEq = false;
  for (const f of filters) {
    if (f.key !== 'from') continue;
    let id: bigint;
    if (isEvm(f.value)) {
      const hex = f.value.replace(/^0x/i, '').toLowerCase();
      if (/^0{24}/.test(hex)) id = BigInt('0x' + hex.slice(24));
      else {
        // any entity with that EVM address (an account's alias or a contract's own address), as EntityService
        const num = data.aliases.get(hex) ?? data.contractsByEvm.get(hex);
        if (num === undefined) throw new NotFoundError(); // the real server cannot resolve the address: 404
        id = BigInt(num);
      }
    } else {
      id = parseEntityId(f.value) as bigint;
    }
    if (f.op === 'eq') {
      anyEq = true;
      if (id < 1n << 38n) senders.add(Number(id));
    } else senderConditions.push({ op: f.op, id });
  }
  const senderMatches = (num: number): boolean =>
    (!anyEq || senders.has(num)) && senderConditions.every(({ op, id }) => compare(BigInt(num), op, id));
  const bn = last(filters, 'block.number');
  const blockNumber = bn ? BigInt(bn.value) : null; // BigInt parses 0x hex too
  const bh = last(filters, 'block.hash');
  const blockHash = bh ? bh.value.replace(/^0x/i, '').toLowerCase() : null;
  const ti = last(filters, 'transaction.index');
  const txIndex = ti ? Number(ti.value) : null;
  return {
    limit: limitOf(filters),
    order: orderOf(filters, 'desc'),
    range: rangeOf(filters, 'timestamp', (v) => parseTimestamp(v) as bigint),
    internal: last(filters, 'internal')?.value.toLowerCase() === 'true',
    weibar: last(filters, 'hbar')?.value.toLowerCase() === 'false',
    accept: (r) => {
      if (!senderMatches(r.senderNum)) return false;
      if (blockNumber !== null && r.blockNumber !== blockNumber) return false;
      if (
        blockHash !== null &&
        (blockHash.length === 96 ? r.blockHash !== blockHash : !r.blockHash.startsWith(blockHash))
      )
        return false;
      if (txIndex !== null && r.txIndex !== txIndex) return false;
      return true;
    },
  };
}

function compare(a: bigint, op: Op, b: bigint): boolean {
  switch (op) {
    case 'eq':
      return a === b;
    case 'ne':
      return a !== b;
    case 'lt':
      return a < b;
    case 'lte':
      return a <= b;
    case 'gt':
      return a > b;
    case 'gte':
      return a >= b;
  }
}

/** Timestamp filter values in nanoseconds, with their operators. */
const timestampsOf = (filters: Filter[]): { op: Op; ns: bigint }[] =>
  filters.filter((f) => f.key === 'timestamp').map((f) => ({ op: f.op, ns: parseTimestamp(f.value) as bigint }));

/**
 * The block a `block.number` / `block.hash` filter names, as its first and last timestamps (the real server reads
 * the record file's consensus start and end); null when no result is in it (the real server then answers an empty
 * list without a query); undefined without such a filter.
 */
function blockRange(data: ContractData, filters: Filter[]): [bigint, bigint] | null | undefined {
  const bn = last(filters, 'block.number');
  const bh = last(filters, 'block.hash');
  if (!bn && !bh) return undefined;
  const number = bn ? BigInt(bn.value) : null;
  const hash = bh ? bh.value.replace(/^0x/i, '').toLowerCase() : '';
  let lo: bigint | null = null;
  let hi: bigint | null = null;
  for (const r of data.all) {
    if (
      number !== null
        ? r.blockNumber !== number
        : hash.length === 96
          ? r.blockHash !== hash
          : !r.blockHash.startsWith(hash)
    )
      continue;
    if (lo === null || r.tsNs < lo) lo = r.tsNs;
    if (hi === null || r.tsNs > hi) hi = r.tsNs;
  }
  return lo === null || hi === null ? null : [lo, hi];
}

/**
 * getContractResults with a timestamp above int64: 503 when the query the real server builds still carries one.
 * Its block filter (when found) adds gte/lte bounds; optimizeTimestampFilters then folds gt/gte into one lower
 * bound and lt/lte into one upper bound clamped to int64 (so `lt:9999999999.999999999` is harmless), and an empty
 * range (upper < lower) or an unknown block is an empty list without a query. A lower bound, eq or ne value above
 * int64 reaches PostgreSQL: DbError.
 */
function checkListTimestamps(data: ContractData, filters: Filter[]): void {
  if (!timestampsOf(filters).some((t) => t.ns > MAX_LONG)) return;
  const q = listTimestampQuery(data, filters);
  if (q === null) return;
  const sent = [q.lower, ...q.ts.filter((t) => t.op === 'eq' || t.op === 'ne').map((t) => t.ns)];
  if (sent.some((v) => v !== null && v > MAX_LONG)) throw new DbError();
}

/**
 * The timestamps getContractResults sends to its query: its own, the bounds of the block a block filter names, gt/gte
 * folded into one lower bound and lt/lte into one upper bound clamped to int64 (optimizeTimestampFilters); null when
 * no query runs (`skip`: the block filter names no block, or the range is empty), the answer an empty list.
 */
function listTimestampQuery(
  data: ContractData,
  filters: Filter[],
): { ts: { op: Op; ns: bigint }[]; lower: bigint | null; upper: bigint | null } | null {
  const ts = timestampsOf(filters);
  const block = blockRange(data, filters);
  if (block === null) return null;
  if (block) ts.push({ op: 'gte', ns: block[0] }, { op: 'lte', ns: block[1] });
  let lower: bigint | null = null;
  let upper: bigint | null = null;
  for (const { op, ns } of ts) {
    if (op === 'gt' || op === 'gte') {
      const v = op === 'gt' ? ns + 1n : ns;
      lower = lower === null || v > lower ? v : lower;
    } else if (op === 'lt' || op === 'lte') {
      const v = op === 'lt' ? ns - 1n : ns;
      upper = upper === null ? (v < MAX_LONG ? v : MAX_LONG) : v < upper ? v : upper;
    }
  }
  if (lower !== null && upper !== null && upper < lower) return null;
  return { ts, lower, upper };
}

/**
 * getContractResults with a range on `from` (`from=gte:0.0.x`, also gt, lt, lte): the real server accepts it
 * (filterValidityChecks lets FROM take any operator) and sends `cr.sender_id >= $1 ... order by consensus_timestamp
 * desc limit $n` over every contract result of the network. A real mirror node answers **503
 * `{"_status":{"messages":[{"message":"Service unavailable"}]}}`** (as a real Hiero mirror node answers): the
 * query fails in PostgreSQL (its statement timeout), queryQuietly throws a DbError and httpErrorHandler answers
 * SERVICE_UNAVAILABLE with the status code's own message (rest/constants.js; `simpleErrors = /statement timeout/`
 * in rest/middleware/httpErrorHandler.js is that case). Only when the query runs: errors before it win (400s, an
 * unknown `from` alias 404), and an unknown block or an empty timestamp range is an empty list without a query.
 * `ne` is a filter (`sender_id != $1`, answered like the rest), and /contracts/{id}/results filters by the range
 * (its query is bounded by the contract).
 */
function checkListFromRange(data: ContractData, filters: Filter[]): void {
  if (!filters.some(isFromRange)) return;
  if (listTimestampQuery(data, filters) === null) return;
  throw new DbError();
}

/**
 * getContractResultsById: its timestamp filters go to the query as given (no optimization), so any value above
 * int64 is a DbError, once the query runs (a block filter naming no block: an empty list without a query).
 */
function checkByIdTimestamps(data: ContractData, filters: Filter[]): void {
  if (!timestampsOf(filters).some((t) => t.ns > MAX_LONG)) return;
  if (blockRange(data, filters) === null) return;
  throw new DbError();
}

/** A contract result as served, with hostile traps when on (`byId`: the smaller object of /contracts/{id}/results). */
function hostileRow(mirror: MirrorData, h: HostileCtx, row: ContractResultRow, byId: boolean, weibar: boolean): string {
  let obj = byId ? byIdObject(row) : row.obj;
  if (weibar)
    obj = byId ? { ...obj, amount: BigInt(obj.amount as number | bigint) * 10_000_000_000n } : weibarObject(obj);
  return hostileContractResult(h, obj, row.tsNs, textIndexOf(mirror, row), byId, weibar);
}

const HOSTILE_ITEM_FAMILIES = ['text', 'bigint', 'unknown-fields'] as const;
const itemsHostile = (h: HostileCtx | undefined): h is HostileCtx => HOSTILE_ITEM_FAMILIES.some((f) => has(h, f));

function contractResults(mirror: MirrorData, path: string, pairs: [string, string][], h?: HostileCtx): Reply {
  const data = mirror.contracts;
  const filters = contractFilters(pairs);
  const q = contractQuery(data, filters);
  checkListTimestamps(data, filters);
  checkListFromRange(data, filters);
  const rows = q.internal ? data.all : data.top;
  const page = scan(
    rows.length,
    (i) => rows[i].tsNs,
    (i) => rows[i],
    q.range,
    q.order,
    q.limit,
    q.accept,
  );
  const next =
    page.length === q.limit
      ? nextLink(path, pairs, 'timestamp', page[page.length - 1].obj.timestamp as string, q.order, parseTimestamp)
      : null;
  const items = itemsHostile(h)
    ? page.map((r) => hostileRow(mirror, h, r, false, q.weibar))
    : page.map((r) => rowJson(r, q.weibar));
  const lastValue = page.length ? (page[page.length - 1].obj.timestamp as string) : null;
  return pagedReply(
    h,
    'contractResults',
    200,
    'results',
    path,
    pairs,
    items,
    next,
    { field: 'timestamp', order: q.order, parse: parseTimestamp, lastValue },
    'public, max-age=10',
  );
}

/* contracts/{id}/results */

const MAX_NUM = (1n << 38n) - 1n;

/** The contract a path parameter names: an entity id (encoded) or a non long-zero EVM address (hex as given, no 0x). */
type ContractRef = { kind: 'id'; encoded: bigint } | { kind: 'evm'; hex: string };

/** validateContractIdParam: the form only (the ranges are checked by parseContractRef, after the query). */
const isContractRefForm = (raw: string): boolean =>
  /^(0x)?[0-9a-fA-F]{40}$/.test(raw) ||
  /^(\d{1,4}\.)?(\d{1,5}\.)?[0-9a-fA-F]{40}$/.test(raw) ||
  /^(\d{1,4}\.)?\d{1,5}\.\d{1,12}$/.test(raw) ||
  /^-?\d{1,19}$/.test(raw);

/**
 * Reads `{contractIdOrAddress}` as the real server does (validateContractIdParam, then
 * EntityId.computeContractIdPartsFromContractIdValue / parseString): `num` (up to 2^38-1), `realm.num`,
 * `shard.realm.num`, or an EVM address (40 hex, optional 0x, or with a `shard.` / `shard.realm.` prefix);
 * a long-zero address is the entity id it encodes. Anything else: 400 `Invalid parameter: contractid`.
 */
function parseContractRef(raw: string): ContractRef {
  const invalid = (): BadRequest => new BadRequest(['Invalid parameter: contractid']);
  if (!isContractRefForm(raw)) throw invalid();
  const parts = raw.replace(/^0x/, '').split('.');
  const tail = parts[parts.length - 1];
  const prefix = parts.slice(0, -1).map((x) => BigInt(x));
  if (tail.length === 40) {
    const num = BigInt('0x' + tail.slice(24));
    if (!/^0{24}/.test(tail) || num > MAX_NUM) return { kind: 'evm', hex: tail }; // looked up by evm_address
    if (prefix.some((x) => x !== 0n)) throw invalid(); // "Invalid shard or realm for EVM address"
    return { kind: 'id', encoded: num };
  }
  // `num`, `realm.num`, `shard.realm.num` (a bare number is a num in shard 0 realm 0, not an encoded id)
  const num = BigInt(tail);
  const realm = prefix.length ? prefix[prefix.length - 1] : 0n;
  const shard = prefix.length === 2 ? prefix[0] : 0n;
  if (num < 0n || num > MAX_NUM || realm > 65535n || shard > 1023n) throw invalid();
  return { kind: 'id', encoded: (shard << 54n) | (realm << 38n) | num };
}

/**
 * The smaller object of ContractResultViewModel (no block, result, status, `failed_initcode` or Ethereum fields), in
 * its key order; `authorization_list` after `amount` only when the row's Ethereum transaction carries one (the view
 * model's `!isEmpty(contractResult.authorizationList)`: withAuthorizationList; 0.160 sent none on this endpoint).
 */
function rowJsonById(row: ContractResultRow): string {
  if (row.jsonById === undefined) row.jsonById = toJson(byIdObject(row));
  return row.jsonById;
}

function byIdObject(row: ContractResultRow): Record<string, unknown> {
  const o = row.obj;
  return {
    address: o.address,
    amount: o.amount,
    ...('authorization_list' in o ? { authorization_list: o.authorization_list } : {}),
    bloom: o.bloom,
    call_result: o.call_result,
    contract_id: o.contract_id,
    created_contract_ids: o.created_contract_ids,
    error_message: o.error_message,
    from: o.from,
    function_parameters: o.function_parameters,
    gas_consumed: o.gas_consumed,
    gas_limit: o.gas_limit,
    gas_used: o.gas_used,
    timestamp: o.timestamp,
    to: longZero(row.contractNum),
    hash: o.hash,
  };
}

/**
 * getContractResultsById: path param first (400), then the query (400), then `from` aliases (404). Neither an
 * entity id nor an EVM address no entity has is an error: an unknown contract (or an account) is 200 with an empty
 * list, as the real server answers (0.160). `hbar` is accepted and ignored.
 */
function contractResultsById(
  mirror: MirrorData,
  path: string,
  rawId: string,
  pairs: [string, string][],
  h?: HostileCtx,
): Reply {
  const data = mirror.contracts;
  // the form first (validateContractIdParam), then the query, then the id's ranges (computeContractIdFromString):
  // `/contracts/0.70000.1/results?limit=0` is `Invalid parameter: limit`
  if (!isContractRefForm(rawId)) throw new BadRequest(['Invalid parameter: contractid']);
  const filters = contractFilters(pairs);
  const ref = parseContractRef(rawId);
  let num: number | undefined;
  if (ref.kind === 'evm') {
    // any entity with that address (a contract's own, or an account's alias: spec account-opaque-evm-contracts-path);
    // an address no entity has is 200 with an empty list on the real server (spec not-found.json), not 404
    const hex = ref.hex.toLowerCase();
    num = data.contractsByEvm.get(hex) ?? data.aliases.get(hex);
  } else if (ref.encoded <= MAX_NUM) {
    num = Number(ref.encoded);
  }
  if (ref.kind === 'evm' && num === undefined) {
    // no entity has the address: an empty list before the rest of the query is looked at (no `from` 404, no 503)
    const order = orderOf(filters, 'desc');
    return pagedReply(
      h,
      'contractResultsById',
      200,
      'results',
      path,
      pairs,
      [],
      null,
      { field: 'timestamp', order, parse: parseTimestamp, lastValue: null },
      'public, max-age=10',
    );
  }
  const q = contractQuery(data, filters);
  checkByIdTimestamps(data, filters);
  const idx = num === undefined ? undefined : data.byContract.get(num);
  const rows = idx ? (q.internal ? idx.all : idx.top) : [];
  const page = scan(
    rows.length,
    (i) => rows[i].tsNs,
    (i) => rows[i],
    q.range,
    q.order,
    q.limit,
    q.accept,
  );
  const next =
    page.length === q.limit
      ? nextLink(path, pairs, 'timestamp', page[page.length - 1].obj.timestamp as string, q.order, parseTimestamp)
      : null;
  const items = itemsHostile(h) ? page.map((r) => hostileRow(mirror, h, r, true, false)) : page.map(rowJsonById);
  const lastValue = page.length ? (page[page.length - 1].obj.timestamp as string) : null;
  return pagedReply(
    h,
    'contractResultsById',
    200,
    'results',
    path,
    pairs,
    items,
    next,
    { field: 'timestamp', order: q.order, parse: parseTimestamp, lastValue },
    'public, max-age=10',
  );
}

/* schedules */

const SCHEDULE_PARAMS: Record<string, Validator> = {
  ...COMMON,
  'account.id': anyOp(isEntity),
  'schedule.id': anyOp(isEntity),
};
const SCHEDULE_FORMATS: Record<string, Format> = { 'account.id': entityFormat, 'schedule.id': entityFormat };

/**
 * As rest/schedules.js getScheduleCacheControlHeader: executed or deleted; without expiration_time, 31 minutes
 * after its consensus timestamp (the network expires it); with one, 60 seconds after it.
 */
export function scheduleIsFinal(row: ScheduleRow, nowMs: number): boolean {
  if (row.executed || row.deleted) return true;
  const nowNs = BigInt(nowMs) * 1_000_000n;
  if (row.expirationNs !== null) return nowNs >= row.expirationNs + 60n * 1_000_000_000n;
  const created = parseTimestamp(String(row.obj.consensus_timestamp));
  return typeof created === 'bigint' && nowNs >= created + 31n * 60n * 1_000_000_000n;
}

function scheduleJson(row: ScheduleRow): string {
  if (row.json === undefined) row.json = toJson(row.obj);
  return row.json;
}

function hostileScheduleJson(mirror: MirrorData, h: HostileCtx, row: ScheduleRow): string {
  return hostileSchedule(h, row.obj, hostileTables(mirror).schedulePosition.get(row) ?? 0, row.num);
}

function schedules(mirror: MirrorData, path: string, pairs: [string, string][], h?: HostileCtx): Reply {
  const data = mirror.schedules;
  const filters = buildFilters(pairs, SCHEDULE_PARAMS, SCHEDULE_FORMATS);
  const limit = limitOf(filters);
  const order = orderOf(filters, 'asc');
  const idRange = rangeOf(filters, 'schedule.id', (v) => parseEntityId(v) as bigint);
  const acct = rangeOf(filters, 'account.id', (v) => parseEntityId(v) as bigint);
  const rows = data.rows;
  const page = scan(
    rows.length,
    (i) => BigInt(rows[i].num),
    (i) => rows[i],
    idRange,
    order,
    limit,
    (r) => inRange(acct, BigInt(r.creatorNum)),
  );
  const next =
    page.length === limit
      ? nextLink(path, pairs, 'schedule.id', entityId(page[page.length - 1].num), order, parseEntityId)
      : null;
  const items = itemsHostile(h) ? page.map((r) => hostileScheduleJson(mirror, h, r)) : page.map(scheduleJson);
  const lastValue = page.length ? entityId(page[page.length - 1].num) : null;
  return pagedReply(
    h,
    'schedules',
    200,
    'schedules',
    path,
    pairs,
    items,
    next,
    { field: 'schedule.id', order, parse: parseEntityId, lastValue },
    'public, max-age=10',
  );
}

function schedule(mirror: MirrorData, id: string, pairs: [string, string][], nowMs: number, h?: HostileCtx): Reply {
  const data = mirror.schedules;
  if (pairs.length) throw new BadRequest([...new Set(pairs.map(([k]) => `Unknown query parameter: ${k}`))]);
  const encoded = parseEntityId(id);
  if (encoded === null) throw new BadRequest(['Invalid parameter: scheduleid']);
  const row = encoded < 1n << 38n ? data.byNum.get(Number(encoded)) : undefined;
  if (!row) throw new NotFoundError();
  return jsonTextReply(200, itemsHostile(h) ? hostileScheduleJson(mirror, h, row) : scheduleJson(row), {
    'cache-control': scheduleIsFinal(row, nowMs) ? 'public, max-age=3600' : 'public, max-age=1',
  });
}

/* tokens/{id}/nfts/{serial}/transactions */

const NFT_PARAMS: Record<string, Validator> = { ...COMMON, timestamp: anyOp(isTimestamp) };

function nftHistory(
  data: NftData,
  path: string,
  tokenRaw: string,
  serialRaw: string,
  pairs: [string, string][],
  h?: HostileCtx,
): Reply {
  const token = parseEntityId(tokenRaw);
  if (token === null) throw new BadRequest(['Invalid parameter: tokenid']);
  if (!/^\d{1,19}$/.test(serialRaw) || BigInt(serialRaw) < 1n || BigInt(serialRaw) > MAX_LONG)
    throw new BadRequest(['Invalid parameter: serialnumber']);
  const serial = BigInt(serialRaw);
  const filters = buildFilters(pairs, NFT_PARAMS);
  // the timestamps go to the query as given, for any token (known or not): one above int64 is a DbError
  if (timestampsOf(filters).some((t) => t.ns > MAX_LONG)) throw new DbError();
  const limit = limitOf(filters);
  const order = orderOf(filters, 'desc');
  const range = rangeOf(filters, 'timestamp', (v) => parseTimestamp(v) as bigint);
  const hist: NftHistory | undefined = token < 1n << 38n ? data.histories.get(nftKey(token, serial)) : undefined;
  const cursor = (lastValue: string | null): Cursor => ({
    field: 'timestamp',
    order,
    parse: parseTimestamp,
    lastValue,
  });
  if (!hist)
    return pagedReply(h, 'nftHistory', 200, 'transactions', path, pairs, [], null, cursor(null), 'public, max-age=1');
  const page = scan(
    hist.length,
    hist.tsAt,
    (i) => hist.entry(i),
    range,
    order,
    limit,
    () => true,
  );
  const next =
    page.length === limit
      ? nextLink(path, pairs, 'timestamp', nsToTs(page[page.length - 1].tsNs), order, parseTimestamp)
      : null;
  const items = itemsHostile(h) ? page.map((e) => hostileNft(h, e.obj, e.tsNs)) : page.map((e) => toJson(e.obj));
  const lastValue = page.length ? nsToTs(page[page.length - 1].tsNs) : null;
  return pagedReply(
    h,
    'nftHistory',
    hist.missingMint ? 206 : 200,
    'transactions',
    path,
    pairs,
    items,
    next,
    cursor(lastValue),
    'public, max-age=1',
  );
}
