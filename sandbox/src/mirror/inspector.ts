/**
 * The transaction inspector's mirror routes, as hiero-mirror-node 0.160 serves them:
 *
 * - `GET /api/v1/contracts/results/{transactionIdOrHash}` (contractController getContractResultsByTransactionIdOrHash):
 *   `hbar` and `nonce` checked as validateReq does (parameter order, each value; an unknown parameter once), then
 *   the path: a 32-byte hash (0x optional; an Ethereum hash, or for a HAPI call the first 32 bytes of its
 *   transaction hash, the contract_transaction_hash lookup; `nonce` ignored) or a transaction id
 *   `shard.realm.num-seconds-nanos` (TransactionId.fromString: else 400 with its sentence), whose transaction of
 *   that nonce (default 0) is looked up. ContractResultDetailsViewModel: the list's object with `logs` after
 *   `block_number` and `state_changes` after `transaction_index`. 404 `Not found`.
 * - `GET .../{transactionIdOrHash}/actions` (getContractActions): `index` (eq, gt, gte, lt, lte; `ne` is 400
 *   `Invalid parameter: index`), `limit`, `order` (asc by default), checked as buildAndValidateFilters does (invalid
 *   values, then unknown parameters), `links.next` on a full page (`index=gt:`/`lt:`). By id: the transaction
 *   submitted (nonce 0), whatever `nonce` the id had; 404 when there is no such transaction; 200 with an empty list
 *   when it has no actions (older records, spec `empty-result.json`).
 * - `GET /api/v1/transactions/{transactionIdOrHash}` (transactions.js getTransactionsByIdOrHash): `nonce`, `scheduled`;
 *   a transaction id, or its 48-byte hash (96 hex with or without 0x, or 64 base64url); every transaction with it
 *   (parent and children), assessed custom fees included; 404 when none.
 * - `GET /api/v1/transactions` (getTransactions): `account.id`, `limit`, `order`, `result`, `timestamp`,
 *   `transactiontype`, `type`, over the transactions of the contract results (parents and children).
 */
import { errorString } from '../abi';
import { type Reply, jsonReply, jsonTextReply } from '../http';
import { toJson } from '../json';
import {
  type HostileCtx,
  UNKNOWN_FIELDS_JSON,
  has,
  hostileContractResult,
  payload,
  payloadIndex,
  spliceMembers,
} from '../hostile';
import { type ContractData, type ContractResultRow, weibarObject } from './contracts';
import { type Built, genericExecution } from './details';
import { NS, formatEncodedId, nsToTs, parseEntityId, parseTimestamp, entityIdPieces } from './ids';
import { type RealKey, opcodesOf } from './executions';
import {
  BadRequest,
  COMMON,
  type Filter,
  type Format,
  NotFoundError,
  type Validator,
  anyOp,
  entityFormat,
  eqOnly,
  inRange,
  isBool,
  isEntity,
  isTimestamp,
  last,
  limitOf,
  nextLink,
  orderOf,
  pagedReply,
  type Range,
  rangeOf,
  scan,
  strictFilters,
} from './query';
import { type TxRecord, transactionObject, txIndex, txRecord } from './records';
import { isRealScenario, scenarioExecution } from './scenarios';
import { type Frame, actionObject, logObject, stateChangeObject, textHex } from './trace';

/* ------------------------------------------------------------------ executions, cached */

const CACHE_SIZE = 200;
const cache = new WeakMap<ContractData, Map<ContractResultRow, Built>>();

/** The execution of a result's transaction (a child's is its parent's), built on first use; at most CACHE_SIZE kept. */
export function builtOf(data: ContractData, row: ContractResultRow): Built {
  const parent = row.parent ?? row;
  let lru = cache.get(data);
  if (!lru) cache.set(data, (lru = new Map()));
  let b = lru.get(parent);
  if (b) {
    lru.delete(parent);
  } else {
    b = parent.scenario ? scenarioExecution(data, parent) : genericExecution(data, parent);
    if (lru.size >= CACHE_SIZE) lru.delete(lru.keys().next().value as ContractResultRow);
  }
  lru.set(parent, b);
  return b;
}

/* ------------------------------------------------------------------ path parameters */

const TX_ID_MESSAGE =
  'Invalid Transaction id. Please use "shard.realm.num-sss-nnn" format where sss are seconds and nnn are nanoseconds';
const INT64_MAX = 9223372036854775807n;

/** TransactionId.fromString: payer encoded id (shard 0 realm 0 as num, else null) and valid start in ns. */
function parseTransactionId(raw: string): { payer: number | null; validStartNs: bigint } {
  const m = /^(\d+)\.(\d+)\.(\d+)-(\d{1,19})-(\d{1,9})$/.exec(raw);
  if (!m) throw new BadRequest([TX_ID_MESSAGE]);
  const id = `${m[1]}.${m[2]}.${m[3]}`;
  const encoded = parseEntityId(id);
  if (encoded === null) throw new BadRequest([`Invalid entity ID "${entityIdPieces(id)}"`]);
  if (BigInt(m[4]) > INT64_MAX) throw new BadRequest([TX_ID_MESSAGE]);
  const validStartNs = BigInt(m[4]) * NS + BigInt(m[5]);
  return { payer: encoded < 1n << 38n ? Number(encoded) : null, validStartNs };
}

const ETH_HASH = /^(0x)?([0-9A-Fa-f]{64})$/;

/** The transaction's results (parent first) of a transaction id, or undefined. */
function byTransactionId(data: ContractData, raw: string): ContractResultRow[] | undefined {
  const { payer, validStartNs } = parseTransactionId(raw);
  return payer === null ? undefined : txIndex(data).byId.get(`${payer}-${validStartNs}`);
}

/* ------------------------------------------------------------------ hostile text */

/** The hostile payload number of a result (its parent's table entry, or its timestamp's), when `text` is on. */
type TextOf = (row: ContractResultRow) => number | undefined;

/** Result data of a frame with hostile text: a failure carrying the result's text gets the payload. */
function frameResult(f: Frame, row: ContractResultRow, text: string | undefined): string {
  if (text === undefined || !f.failure) return f.result;
  const em = row.obj.error_message;
  if (f.failure.kind === 'revert' && typeof em === 'string' && em.startsWith('0x08c379a0') && f.failure.data === em)
    return errorString(text);
  if (f.failure.kind === 'error' && f.failure.text === em) return textHex(text);
  return f.result;
}

/* ------------------------------------------------------------------ contracts/results/{transactionIdOrHash} */

const DETAIL_PARAMS: Record<string, Validator> = {
  hbar: eqOnly(isBool),
  nonce: eqOnly((v) => /^\d{1,10}$/.test(v) && Number(v) <= 2147483647),
};

/**
 * ContractResultDetailsViewModel of a result: the list object with its logs and state changes (`logText`: hostile
 * text for the logs' string data).
 */
function detailsObject(
  data: ContractData,
  row: ContractResultRow,
  weibar: boolean,
  logText: string | undefined,
): Record<string, unknown> {
  const b = builtOf(data, row);
  const parent = !row.parent;
  const logs = parent ? b.exec.logs.map((l, i) => logObject(l, i, logText)) : [];
  const changes = parent ? b.changes.map(stateChangeObject) : [];
  const o: Record<string, unknown> = {};
  for (const [k, v] of Object.entries(weibar ? weibarObject(row.obj) : row.obj)) {
    o[k] = v;
    if (k === 'block_number') o.logs = logs;
    if (k === 'transaction_index') o.state_changes = changes;
  }
  return o;
}

export function contractResultDetails(
  data: ContractData,
  rawId: string,
  pairs: [string, string][],
  textOf: TextOf,
  h?: HostileCtx,
): Reply {
  const filters = strictFilters(pairs, DETAIL_PARAMS, { inline: true });
  const weibar = last(filters, 'hbar')?.value.toLowerCase() === 'false';
  let row: ContractResultRow | undefined;
  const hash = ETH_HASH.exec(rawId);
  if (hash) row = txIndex(data).byHash32.get(hash[2].toLowerCase());
  else {
    const nonceFilter = last(filters, 'nonce');
    const nonce = nonceFilter ? Number(nonceFilter.value) : 0;
    row = byTransactionId(data, rawId)?.find((r) => r.nonce === nonce);
  }
  if (!row) throw new NotFoundError();
  const t = has(h, 'text') ? textOf(row) : undefined;
  // event strings: the result's payload, or its timestamp's when it has no other text
  const o = detailsObject(data, row, weibar, has(h, 'text') ? payload(t ?? payloadIndex(row.tsNs)) : undefined);
  const body =
    h && (['text', 'bigint', 'unknown-fields'] as const).some((f) => has(h, f))
      ? hostileContractResult(h, o, row.tsNs, t, false, weibar)
      : toJson(o);
  // an incomplete record: 206 Partial Content (the real server: call_result null)
  return jsonTextReply(row.partial ? 206 : 200, body, { 'cache-control': 'public, max-age=600' });
}

/* ------------------------------------------------------------------ .../actions */

const isIndex = (v: string): boolean => /^\d+(\.\d+)?$/.test(v);
const ACTION_PARAMS: Record<string, Validator> = { ...COMMON, index: anyOp(isIndex) };

export function contractActions(
  data: ContractData,
  path: string,
  rawId: string,
  pairs: [string, string][],
  textOf: TextOf,
  h?: HostileCtx,
): Reply {
  const filters = strictFilters(pairs, ACTION_PARAMS);
  if (filters.some((f) => f.key === 'index' && f.op === 'ne')) throw new BadRequest(['Invalid parameter: index']);
  const limit = limitOf(filters);
  const order = orderOf(filters, 'asc');
  let row: ContractResultRow | undefined;
  const hash = ETH_HASH.exec(rawId);
  if (hash) row = txIndex(data).byHash32.get(hash[2].toLowerCase());
  else row = byTransactionId(data, rawId)?.find((r) => r.nonce === 0);
  if (!row) throw new NotFoundError();
  const b = builtOf(data, row);
  const frames = b.noActions ? [] : b.exec.frames;
  const idx = (f: Filter): number => Number(f.value);
  const accept = (i: number): boolean =>
    filters.every(
      (f) =>
        f.key !== 'index' ||
        (f.op === 'eq'
          ? i === idx(f)
          : f.op === 'gt'
            ? i > idx(f)
            : f.op === 'gte'
              ? i >= idx(f)
              : f.op === 'lt'
                ? i < idx(f)
                : i <= idx(f)),
    );
  const page: number[] = [];
  for (let k = 0; k < frames.length && page.length < limit; k++) {
    const i = order === 'asc' ? k : frames.length - 1 - k;
    if (accept(i)) page.push(i);
  }
  const t = has(h, 'text') ? textOf(row) : undefined;
  const text = t === undefined ? undefined : payload(t);
  const ts = nsToTs(row.tsNs);
  const items = page.map((i) => {
    const o = actionObject(frames[i], i, ts);
    o.result_data = frameResult(frames[i], row as ContractResultRow, text);
    const json = toJson(o);
    return has(h, 'unknown-fields') ? spliceMembers(json, UNKNOWN_FIELDS_JSON) : json;
  });
  const parse = (v: string): bigint | null => (/^\d+$/.test(v) ? BigInt(v) : null);
  const lastValue = page.length ? String(page[page.length - 1]) : null;
  const next =
    page.length === limit && lastValue !== null ? nextLink(path, pairs, 'index', lastValue, order, parse) : null;
  return pagedReply(
    h,
    'contractActions',
    200,
    'actions',
    path,
    pairs,
    items,
    next,
    { field: 'index', order, parse, lastValue },
    'public, max-age=600',
  );
}

/* ------------------------------------------------------------------ transactions/{transactionIdOrHash} */

const BY_ID_PARAMS: Record<string, Validator> = {
  nonce: eqOnly((v) => /^\d{1,10}$/.test(v) && Number(v) <= 2147483647),
  scheduled: eqOnly(isBool),
};

/** A transaction (hostile: a memo of the payload of its timestamp on a parent, unknown fields). */
function transactionJson(data: ContractData, row: ContractResultRow, assessed: boolean, h?: HostileCtx): string {
  const memo = has(h, 'text') && !row.parent ? payload(payloadIndex(row.tsNs)) : undefined;
  const json = toJson(transactionObject(data, row, { assessed, memo }));
  return has(h, 'unknown-fields') ? spliceMembers(json, UNKNOWN_FIELDS_JSON) : json;
}

export function transactionsById(data: ContractData, rawId: string, pairs: [string, string][], h?: HostileCtx): Reply {
  const filters = strictFilters(pairs, BY_ID_PARAMS);
  let rows: ContractResultRow[] | undefined;
  const hex = /^(0x)?([0-9A-Fa-f]{96})$/.exec(rawId);
  if (hex) rows = txIndex(data).byHash48.get(hex[2].toLowerCase());
  else if (/^[A-Za-z0-9+/_-]{64}$/.test(rawId))
    rows = txIndex(data).byHash48.get(
      Buffer.from(rawId.replace(/\+/g, '-').replace(/\//g, '_'), 'base64url').toString('hex'),
    );
  else rows = byTransactionId(data, rawId);
  const nonce = last(filters, 'nonce');
  const scheduled = last(filters, 'scheduled');
  const found = (rows ?? []).filter(
    (r) => (!nonce || r.nonce === Number(nonce.value)) && (!scheduled || scheduled.value.toLowerCase() === 'false'),
  );
  if (!found.length) throw new NotFoundError();
  const body = `{"transactions":[${found.map((r) => transactionJson(data, r, true, h)).join(',')}]}`;
  return jsonTextReply(200, body, { 'cache-control': 'public, max-age=600' });
}

/* ------------------------------------------------------------------ transactions */

/** The transaction type names the real `transactiontype` parameter accepts (any case). */
export const TRANSACTION_TYPES: ReadonlySet<string> = new Set([
  'CONTRACTCALL',
  'CONTRACTCREATEINSTANCE',
  'CONTRACTUPDATEINSTANCE',
  'CRYPTOADDLIVEHASH',
  'CRYPTOCREATEACCOUNT',
  'CRYPTODELETE',
  'CRYPTODELETELIVEHASH',
  'CRYPTOTRANSFER',
  'CRYPTOUPDATEACCOUNT',
  'FILEAPPEND',
  'FILECREATE',
  'FILEDELETE',
  'FILEUPDATE',
  'SYSTEMDELETE',
  'SYSTEMUNDELETE',
  'CONTRACTDELETEINSTANCE',
  'FREEZE',
  'CONSENSUSCREATETOPIC',
  'CONSENSUSUPDATETOPIC',
  'CONSENSUSDELETETOPIC',
  'CONSENSUSSUBMITMESSAGE',
  'UNCHECKEDSUBMIT',
  'TOKENCREATION',
  'TOKENFREEZE',
  'TOKENUNFREEZE',
  'TOKENGRANTKYC',
  'TOKENREVOKEKYC',
  'TOKENDELETION',
  'TOKENUPDATE',
  'TOKENMINT',
  'TOKENBURN',
  'TOKENWIPE',
  'TOKENASSOCIATE',
  'TOKENDISSOCIATE',
  'SCHEDULECREATE',
  'SCHEDULEDELETE',
  'SCHEDULESIGN',
  'TOKENFEESCHEDULEUPDATE',
  'TOKENPAUSE',
  'TOKENUNPAUSE',
  'CRYPTOAPPROVEALLOWANCE',
  'CRYPTODELETEALLOWANCE',
  'ETHEREUMTRANSACTION',
  'NODESTAKEUPDATE',
  'UTILPRNG',
  'TOKENUPDATENFTS',
  'NODECREATE',
  'NODEUPDATE',
  'NODEDELETE',
  'TOKENREJECT',
  'TOKENAIRDROP',
  'TOKENCANCELAIRDROP',
  'TOKENCLAIMAIRDROP',
  'ATOMICBATCH',
  'LAMBDASSTORE',
]);
const SUCCESS_RESULTS = new Set([
  'SUCCESS',
  'FEE_SCHEDULE_FILE_PART_UPLOADED',
  'SUCCESS_BUT_MISSING_EXPECTED_OPERATION',
]);

const TRANSACTIONS_PARAMS: Record<string, Validator> = {
  ...COMMON,
  'account.id': anyOp(isEntity),
  result: anyOp((v) => /^(success|fail)$/i.test(v)),
  timestamp: anyOp(isTimestamp),
  transactiontype: anyOp((v) => TRANSACTION_TYPES.has(v.toUpperCase())),
  type: anyOp((v) => /^(credit|debit)$/i.test(v)),
};
const TRANSACTIONS_FORMATS: Record<string, Format> = { 'account.id': entityFormat };

/** The accounts a transaction's transfers credit (> 0) or debit (< 0), and its payer. */
function accountsOf(rec: TxRecord): { payer: number; moves: { account: number; amount: bigint }[] } {
  return { payer: rec.payer, moves: [...rec.transfers, ...rec.tokens] };
}

/** What a list of transactions asks (GET /transactions, and the transactions of GET /accounts/{id}). */
export interface TransactionsQuery {
  limit: number;
  order: 'asc' | 'desc';
  range: Range;
  /** Transaction type names (upper case); empty: any. */
  types: Set<string>;
  result?: string;
  accounts: Range;
  anyAccount: boolean;
  creditDebit: string[];
}

/** The page of transactions a query selects (parents and children, by consensus timestamp). */
export function transactionsPage(data: ContractData, q: TransactionsQuery): ContractResultRow[] {
  const { range, types, result, accounts, anyAccount, creditDebit } = q;
  const rows = data.all;
  // several eq timestamps, an empty range, or both credit and debit: nothing (as the real query builder)
  const emptyRange = range.lower !== null && range.upper !== null && range.upper < range.lower;
  if (new Set(range.eqs).size > 1 || emptyRange || creditDebit.length > 1) return [];
  const accept = (r: ContractResultRow): boolean => {
    const rec = txRecord(data, r);
    if (types.size && !types.has(rec.name)) return false;
    if (result && (result === 'success') !== SUCCESS_RESULTS.has(r.obj.result as string)) return false;
    if (!anyAccount && !creditDebit.length) return true;
    const { payer, moves } = accountsOf(rec);
    const wanted = (n: number): boolean => !anyAccount || inRange(accounts, BigInt(n));
    const sign = creditDebit[0];
    const moved = moves.some(
      (m) => wanted(m.account) && (!sign || (sign === 'credit' ? m.amount > 0n : m.amount < 0n)),
    );
    return moved || (!sign && wanted(payer));
  };
  return scan(
    rows.length,
    (i) => rows[i].tsNs,
    (i) => rows[i],
    range,
    q.order,
    q.limit,
    accept,
  );
}

/** A transaction as a list shows it (no assessed custom fees), with the hostile traps on. */
export const transactionListItem = (data: ContractData, row: ContractResultRow, h?: HostileCtx): string =>
  transactionJson(data, row, false, h);

export function transactions(data: ContractData, path: string, pairs: [string, string][], h?: HostileCtx): Reply {
  const filters = strictFilters(pairs, TRANSACTIONS_PARAMS, { format: TRANSACTIONS_FORMATS });
  const limit = limitOf(filters);
  const order = orderOf(filters, 'desc');
  const page = transactionsPage(data, {
    limit,
    order,
    range: rangeOf(filters, 'timestamp', (v) => parseTimestamp(v) as bigint),
    types: new Set(filters.filter((f) => f.key === 'transactiontype').map((f) => f.value.toUpperCase())),
    result: last(filters, 'result')?.value.toLowerCase(),
    accounts: rangeOf(filters, 'account.id', (v) => parseEntityId(v) as bigint),
    anyAccount: filters.some((f) => f.key === 'account.id'),
    creditDebit: [...new Set(filters.filter((f) => f.key === 'type').map((f) => f.value.toLowerCase()))],
  });
  const lastValue = page.length ? nsToTs(page[page.length - 1].tsNs) : null;
  const next =
    page.length === limit && lastValue !== null
      ? nextLink(path, pairs, 'timestamp', lastValue, order, parseTimestamp)
      : null;
  const items = page.map((r) => transactionJson(data, r, false, h));
  return pagedReply(
    h,
    'transactions',
    200,
    'transactions',
    path,
    pairs,
    items,
    next,
    { field: 'timestamp', order, parse: parseTimestamp, lastValue },
    'public, max-age=2',
  );
}

/* ------------------------------------------------------------------ contracts/results/{transactionIdOrHash}/opcodes */

/**
 * The web3 module's error body (GenericErrorResponse: `_status.messages[]` of `{message, detail, data}`): Spring's
 * reason phrase as `message`, the exception's text as `detail`, `data` empty.
 */
const web3Error = (status: number, message: string, detail: string): Reply =>
  jsonReply(status, { _status: { messages: [{ message, detail, data: '' }] } });

/** java.time.Instant#toString: seconds in ISO-8601 UTC, the fraction in groups of three digits as needed. */
export function javaInstant(ns: bigint): string {
  const sec = ns / NS;
  const nanos = Number(ns % NS);
  const base = new Date(Number(sec) * 1000).toISOString().slice(0, 19);
  if (nanos === 0) return `${base}Z`;
  const digits = String(nanos).padStart(9, '0');
  const frac = nanos % 1_000_000 === 0 ? digits.slice(0, 3) : nanos % 1000 === 0 ? digits.slice(0, 6) : digits;
  return `${base}.${frac}Z`;
}

/** Spring's StringToBooleanConverter: true/on/yes/1, false/off/no/0 (any case); empty: the default. */
function springBoolean(v: string | undefined, dflt: boolean): boolean | { error: string } {
  if (v === undefined || v === '') return dflt;
  const s = v.trim().toLowerCase();
  if (['true', 'on', 'yes', '1'].includes(s)) return true;
  if (['false', 'off', 'no', '0'].includes(s)) return false;
  return { error: `Invalid boolean value '${v}'` };
}

export interface OpcodesRequest {
  /** The request path (for the message of a disabled endpoint). */
  path: string;
  rawId: string;
  pairs: [string, string][];
  /** The Accept-Encoding header (undefined when absent). */
  acceptEncoding: string | undefined;
  /** `hiero.mirror.web3.opcode.tracer.enabled`. */
  enabled: boolean;
}

/**
 * `GET /api/v1/contracts/results/{transactionIdOrHash}/opcodes` as hiero-mirror-node's web3 module answers it
 * (OpcodesController, OpcodeServiceImpl, GenericControllerAdvice): off (`hiero.mirror.web3.opcode.tracer.enabled`
 * false: no controller, Spring's 404 for a path nothing serves); a transaction id or 32-byte hash, else 400
 * `Unsupported ID format: '<id>'`; `stack` (default true), `memory`, `storage` (default false) as Spring reads
 * booleans; the `Accept-Encoding` header (absent: 400; without gzip: 406); the transaction (404 `Transaction not
 * found: …`, `Contract transaction hash not found: …`); then the re-execution: a scenario on the compiled contracts
 * is executed for real (mirror/executions.ts), any other result's contract has no code the sandbox can run: 404
 * `Contract result not found: <consensus timestamp>`, as a web3 module without it answers.
 */
export async function contractOpcodes(
  data: ContractData,
  req: OpcodesRequest,
  textOf: TextOf,
  h?: HostileCtx,
): Promise<Reply> {
  if (!req.enabled) return web3Error(404, 'Not Found', `No static resource ${req.path.replace(/^\//, '')}.`);
  const { rawId } = req;
  const hash = /^(0x)?([0-9A-Fa-f]{64})$/.exec(rawId);
  const id = /^(\d+)\.(\d+)\.(\d+)-(\d{1,19})-(\d{1,9})$/.exec(rawId);
  const unsupported = (): Reply => web3Error(400, 'Bad Request', `Unsupported ID format: '${rawId}'`);
  if (!hash && !id) return unsupported();
  let payer: bigint | null = null;
  let validStartNs = 0n;
  if (id) {
    const [shard, realm, num, sec] = [id[1], id[2], id[3], id[4]].map((x) => BigInt(x));
    if (shard > 1023n || realm > 65535n || num >= 1n << 38n || sec > 31556889864403199n) return unsupported();
    payer = (shard << 54n) | (realm << 38n) | num;
    validStartNs = sec * NS + BigInt(id[5]);
  }
  // the request parameters in the controller's order, then the header
  const first = (k: string): string | undefined => req.pairs.find(([n]) => n === k)?.[1];
  const flags: Record<'stack' | 'memory' | 'storage', boolean> = { stack: true, memory: false, storage: false };
  for (const [k, dflt] of [
    ['stack', true],
    ['memory', false],
    ['storage', false],
  ] as const) {
    const v = springBoolean(first(k), dflt);
    if (typeof v === 'object') return web3Error(400, 'Bad Request', v.error);
    flags[k] = v;
  }
  if (req.acceptEncoding === undefined)
    return web3Error(
      400,
      'Bad Request',
      "Required request header 'Accept-Encoding' for method parameter type String is not present",
    );
  if (!req.acceptEncoding.toLowerCase().includes('gzip'))
    return web3Error(406, 'Not Acceptable', 'Accept-Encoding: gzip header is required');
  let row: ContractResultRow | undefined;
  if (hash) {
    row = txIndex(data).byHash32.get(hash[2].toLowerCase());
    if (!row)
      return web3Error(
        404,
        'Not Found',
        `Contract transaction hash not found: TransactionHashParameter[hash=0x${hash[2].toLowerCase()}]`,
      );
  } else {
    row =
      payer !== null && payer < 1n << 38n
        ? txIndex(data)
            .byId.get(`${payer}-${validStartNs}`)
            ?.find((r) => r.nonce === 0)
        : undefined;
    if (!row)
      return web3Error(
        404,
        'Not Found',
        `Transaction not found: TransactionIdParameter[payerAccountId=${formatEncodedId(payer as bigint)}, validStart=${javaInstant(validStartNs)}]`,
      );
  }
  if (!row.trace && !isRealScenario(row.scenario))
    return web3Error(404, 'Not Found', `Contract result not found: ${row.tsNs}`);
  const trace = row.trace ? await row.trace(flags) : await opcodesOf(row.scenario as RealKey, flags);
  let json = toJson(trace);
  // hostile text: the revert reason the result carries, in the trace too
  const t = has(h, 'text') ? textOf(row) : undefined;
  const em = row.obj.error_message;
  if (t !== undefined && typeof em === 'string' && em.startsWith('0x08c379a0')) {
    const hostile = errorString(payload(t));
    json = toJson({
      ...trace,
      opcodes: trace.opcodes.map((o) => (o.reason === em ? { ...o, reason: hostile } : o)),
      return_value: trace.return_value === em ? hostile : trace.return_value,
    });
  }
  return jsonTextReply(200, has(h, 'unknown-fields') ? spliceMembers(json, UNKNOWN_FIELDS_JSON) : json);
}
