/**
 * The transaction inspector's view model from the mirror node's answers (see ./model): the overview of a contract
 * result, its call trace (./trace), events, state changes and the transfers of its transaction record, decoded with
 * the workspace's ABIs, Sourcify's, Hedera's system contracts and the standard token interfaces (./decoder), storage
 * named with solc layouts (./storage). Every builder takes what real servers send (nulls, missing fields, new enum
 * values, integers past 2^53 as bigint) and never throws; numbers keep every digit; text from the network stays
 * plain strings. Plain TypeScript: no vscode.
 */
import { decodeCreation } from '../decode/creation';
import { isContractCreation, outcome } from '../contractResult';
import { formatLocal, hexByteLength, hexToDecimal, timestampToDate } from '../format';
import { type Int, intToString } from '../json';
import type {
  ContractAction,
  ContractLog,
  ContractResultDetails,
  StateChange,
  TransactionDetail,
} from '../mirrorTypes';
import { type Addr, addrOf, askForms, Decoder, inWorkspace, type InspectContext } from './decoder';
import type {
  CallView,
  EntityView,
  EventView,
  OverviewModel,
  RelatedView,
  StateChangeView,
  StateVariableView,
  TransfersModel,
  TransferView,
} from './model';
import { type KeyCandidates, nameSlots, slotNumber } from './storage';
import { systemContractAt } from './systemContracts';
import { amountOf, textOf } from './values';

export type { InspectContext, StorageLayoutRef } from './decoder';
export type { StorageLayout } from './storage';
export { buildTrace } from './trace';

const HEX = /^0x([0-9a-fA-F]{2})*$/;

const isObject = (v: unknown): v is Record<string, unknown> => !!v && typeof v === 'object' && !Array.isArray(v);
/** The objects of a list from the wire (null, a missing list, or entries that are not objects: left out). */
const arrayOf = <T>(v: readonly T[] | null | undefined): T[] =>
  Array.isArray(v) ? (v as T[]).filter((x) => isObject(x)) : [];

// ------------------------------------------------------------------ overview

export interface OverviewOptions {
  /** The nonce of the transaction opened (0 unless a child was): picks the transaction record when timestamps do not. */
  nonce?: number;
  /** The user's language (`vscode.env.language`) for the local time. */
  locale?: string;
  /** The result's actions (its call trace), when read: the top-level one says whether the transaction created a contract. */
  actions?: readonly ContractAction[] | null;
}

const CREATE_OPERATIONS = new Set(['CREATE', 'CREATE2']);

/** A whole number from the wire (number, bigint or digits), else undefined. */
const whole = (v: unknown): number | undefined => {
  if (typeof v === 'number' && Number.isFinite(v)) return v;
  if (typeof v === 'bigint') return Number(v);
  if (typeof v === 'string' && /^\d{1,16}$/.test(v.trim())) return Number(v.trim());
  return undefined;
};

/**
 * Whether the transaction created a contract, told by the transaction itself: its top-level action (the frame of the
 * smallest depth, then index) is a CREATE or CREATE2 (`call_operation_type`, or `call_type` CREATE without one), its
 * record is a ContractCreate, or the result names its contract among those it created / sends creation code as call
 * data (isContractCreation). A top-level CALL, or a ContractCall record, says it did not, whatever else.
 * Never `failed_initcode`: the mirror node fills it with the call data of any failed Ethereum transaction, a reverted
 * call too (hiero-mirror-node rest/viewmodel/contractResultDetailsViewModel.js).
 */
export function isCreationTransaction(
  r: Partial<ContractResultDetails>,
  self: TransactionDetail | undefined,
  actions: readonly ContractAction[] | null | undefined,
): boolean {
  let top: { a: ContractAction; depth: number; index: number } | undefined;
  (Array.isArray(actions) ? actions : []).forEach((a: unknown, pos) => {
    if (!isObject(a)) return;
    const action = a as ContractAction;
    const depth = whole(action.call_depth) ?? Number.MAX_SAFE_INTEGER;
    const index = whole(action.index) ?? pos;
    if (!top || depth < top.depth || (depth === top.depth && index < top.index)) top = { a: action, depth, index };
  });
  if (top) {
    const op = textOf(top.a.call_operation_type);
    if (op) return CREATE_OPERATIONS.has(op);
    if (textOf(top.a.call_type)) return textOf(top.a.call_type) === 'CREATE';
  }
  const name = textOf(self?.name);
  if (name === 'CONTRACTCREATEINSTANCE') return true;
  if (name === 'CONTRACTCALL') return false;
  return isContractCreation(r);
}

/** The local time as the views show it (2026-11-20 10:00:05), whatever the locale: one format across the extension. */
function localTime(ts: string): string {
  return formatLocal(timestampToDate(ts));
}

/** The transaction record of the result: same consensus timestamp, else the nonce asked for, else the parent. */
function selfOf(txs: TransactionDetail[], timestamp: string, nonce: number | undefined): TransactionDetail | undefined {
  return (
    txs.find((t) => t.consensus_timestamp === timestamp) ??
    (nonce !== undefined ? txs.find((t) => Number(t.nonce) === nonce) : undefined) ??
    (txs.length === 1 ? txs[0] : undefined)
  );
}

function relationOf(t: TransactionDetail, self: TransactionDetail): RelatedView['relation'] {
  if (t === self) return 'self';
  if (self.parent_consensus_timestamp && t.consensus_timestamp === self.parent_consensus_timestamp) return 'parent';
  if (t.parent_consensus_timestamp && t.parent_consensus_timestamp === self.consensus_timestamp) return 'child';
  if (t.transaction_id === self.transaction_id) {
    const n = intToString(t.nonce);
    const s = intToString(self.nonce);
    if (n === '0' && s !== '0') return 'parent';
    if (s === '0' && n !== '0') return 'child';
  }
  return 'sibling';
}

const gasRatio = (used: Int | null | undefined, limit: Int | null | undefined): number => {
  const u = Number(used ?? 0);
  const l = Number(limit ?? 0);
  return l > 0 && Number.isFinite(u) && u > 0 ? Math.min(1, u / l) : 0;
};

/**
 * The overview of a contract result: outcome and error, time, from and to, the call (or creation) decoded, value,
 * gas, fee, block, nonces and the transactions of the same id (`txs`: the answer of `/transactions/{id}`).
 */
export function buildOverview(
  result: ContractResultDetails,
  txs: readonly TransactionDetail[] | null | undefined,
  ctx: InspectContext,
  options: OverviewOptions = {},
): OverviewModel {
  const r: Partial<ContractResultDetails> = isObject(result) ? result : {};
  const dec = new Decoder(ctx);
  const notes: string[] = [];
  const timestamp = textOf(r.timestamp);
  const records = arrayOf(txs);
  const self = records.length ? selfOf(records, timestamp, options.nonce) : undefined;
  const out = outcome(r);
  const to = addrOf(r.address ?? r.to, r.contract_id);
  const input = textOf(r.function_parameters);

  const m: OverviewModel = {
    // the endpoint sends `result`; without it, the outcome in words
    result: textOf(r.result) || (out === 'success' ? 'SUCCESS' : out === 'failure' ? 'FAILED' : ''),
    outcome: out,
    timestamp,
    timeLocal: localTime(timestamp),
    created: (Array.isArray(r.created_contract_ids) ? r.created_contract_ids : [])
      .filter((id): id is string => typeof id === 'string')
      .map((id) => dec.entity(addrOf(undefined, id), 'contract')),
    value: amountOf(r.amount),
    gas: {
      limit: intToString(r.gas_limit),
      used: intToString(r.gas_used),
      ratio: gasRatio(r.gas_used, r.gas_limit),
      ...(r.gas_consumed !== null && r.gas_consumed !== undefined ? { consumed: intToString(r.gas_consumed) } : {}),
    },
    related: [],
    notes,
  };
  if (r.from) m.from = dec.entity(addrOf(r.from), 'account');
  if (r.address || r.to || r.contract_id) m.to = dec.entity(to, 'contract');
  if (typeof r.hash === 'string' && r.hash) m.hash = r.hash;
  if (self?.transaction_id) m.transactionId = self.transaction_id;
  if (self?.name) m.type = self.name;
  if (self && self.nonce !== null && self.nonce !== undefined) m.nonce = intToString(self.nonce);
  else if (options.nonce !== undefined) m.nonce = String(options.nonce);
  if (r.nonce !== null && r.nonce !== undefined) m.ethNonce = intToString(r.nonce);
  if (r.block_number !== null && r.block_number !== undefined)
    m.block = { number: intToString(r.block_number), ...(r.block_hash ? { hash: r.block_hash } : {}) };
  const quantity = (v: unknown): string | undefined =>
    typeof v === 'string' && /^0x[0-9a-fA-F]+$/.test(v) ? hexToDecimal(v) : undefined;
  const gasPrice = quantity(r.gas_price);
  const maxFee = quantity(r.max_fee_per_gas);
  const maxPriority = quantity(r.max_priority_fee_per_gas);
  if (gasPrice !== undefined) m.gasPrice = gasPrice;
  if (maxFee !== undefined) m.maxFeePerGas = maxFee;
  if (maxPriority !== undefined) m.maxPriorityFeePerGas = maxPriority;
  if (self && self.charged_tx_fee !== null && self.charged_tx_fee !== undefined) m.fee = amountOf(self.charged_tx_fee);

  // the call, or the creation (by the transaction, never by failed_initcode alone)
  const creation = isCreationTransaction(r, self, options.actions);
  const failedInitcode =
    typeof r.failed_initcode === 'string' && HEX.test(r.failed_initcode) && r.failed_initcode !== '0x'
      ? r.failed_initcode
      : undefined;
  if (creation) {
    // a failed ContractCreate keeps its whole init code there (its call data are the constructor's parameters)
    const initCode = failedInitcode ?? input;
    const decoded = decodeCreation(initCode, ctx.registry?.abiFiles ?? []);
    if (decoded?.contractName) {
      const call: CallView = {
        name: decoded.contractName,
        signature: `constructor(${(decoded.args ?? []).map((a) => a.type).join(',')})`,
        selector: '',
        args: decoded.args ?? [],
        source: inWorkspace(decoded.origin?.label ?? decoded.contractName),
      };
      m.call = call;
    }
    if (initCode) m.input = `init code, ${hexByteLength(initCode)} bytes`;
  } else {
    const call = dec.call(input, to);
    if (call) {
      m.call = call.view;
      if (out === 'success') {
        const values = dec.output(call, r.call_result);
        if (values) m.output = values;
      }
    }
    if (input) m.input = input;
    if (!input || input === '0x')
      notes.push(
        'No call data: a plain HBAR transfer to the contract, or call data in a file the mirror node could not read.',
      );
  }
  if (typeof r.call_result === 'string' && r.call_result && r.call_result !== '0x') m.outputRaw = r.call_result;
  if (out === 'failure') {
    // revert data is in error_message; some records keep it in call_result
    const err = dec.error(
      r.error_message ??
        (HEX.test(textOf(r.call_result)) && textOf(r.call_result) !== '0x' ? r.call_result : r.error_message),
      to,
    );
    if (err) m.error = err;
  }

  if (self && records.length > 1) {
    m.related = records.map((t) => ({
      transactionId: textOf(t.transaction_id),
      nonce: intToString(t.nonce),
      timestamp: textOf(t.consensus_timestamp),
      name: textOf(t.name),
      result: textOf(t.result),
      relation: relationOf(t, self),
    }));
  }

  if (out === 'unknown')
    notes.push('The mirror node did not say whether the call succeeded (no result, status or error message).');
  if (r.gas_used === null || r.gas_used === undefined) notes.push('The mirror node did not report the gas used.');
  // only a creation's: on a failed call the mirror node puts the call data there (shown as the input already)
  if (creation && failedInitcode && out !== 'success')
    notes.push(
      `The contract creation failed; its init code (${hexByteLength(failedInitcode)} bytes) is kept in failed_initcode.`,
    );
  if (records.length && !self)
    notes.push(
      "No transaction record has this result's timestamp: the fee and the related transactions are not known.",
    );
  if (!timestamp) notes.push('The result has no consensus timestamp.');
  return m;
}

// ------------------------------------------------------------------ mapping key candidates

/** Candidates kept at most (addresses, numbers, byte values and strings together). */
const MAX_KEYS = 1024;
/** Words read of one input, output or log data. */
const MAX_WORDS = 64;
const TWO_128 = 1n << 128n;

class Keys {
  readonly list: string[] = [];
  private readonly seen = new Set<string>();
  add(k: string): void {
    if (this.list.length >= MAX_KEYS || this.seen.has(k)) return;
    this.seen.add(k);
    this.list.push(k);
  }
  address(a: Addr): void {
    for (const f of a.forms) this.add(f);
  }
  /** A 32-byte word: an address when it looks like one, a number when small, else 32 bytes. */
  word(w: string): void {
    const v = BigInt(`0x${w}`);
    if (v === 0n) return;
    if (/^0{24}/.test(w)) this.add(`0x${w.slice(24)}`);
    if (v < TWO_128) this.add(v.toString());
    else this.add(`0x${w}`);
  }
  words(data: string | null | undefined, skip: number): void {
    if (typeof data !== 'string' || !HEX.test(data)) return;
    const body = data.slice(2 + skip * 2);
    for (let i = 0; i + 64 <= body.length && i < MAX_WORDS * 64; i += 64)
      this.word(body.slice(i, i + 64).toLowerCase());
  }
}

/**
 * Values seen in a transaction that may be keys of the mappings whose slots changed, as strings: an address
 * `0x` + 40 hex, a number in decimal, other bytes `0x` + hex, a string JSON-quoted. From the participants (from,
 * to, callers, recipients, created contracts, as EVM and long-zero addresses), the words of the call data, return
 * data and logs (topics and data), and with `ctx` the string arguments of the decoded calls. Bounded.
 */
export function candidateKeys(
  result?: ContractResultDetails | null,
  actions?: readonly ContractAction[] | null,
  ctx?: InspectContext,
): string[] {
  const keys = new Keys();
  const r: Partial<ContractResultDetails> = isObject(result) ? result : {};
  const acts = arrayOf(actions);
  keys.address(addrOf(r.from));
  keys.address(addrOf(r.address ?? r.to, r.contract_id));
  for (const id of Array.isArray(r.created_contract_ids) ? r.created_contract_ids : [])
    if (typeof id === 'string') keys.address(addrOf(undefined, id));
  for (const a of acts) {
    keys.address(addrOf(a.from, a.caller));
    keys.address(addrOf(a.to, a.recipient));
  }
  for (const log of arrayOf(r.logs)) {
    for (const t of Array.isArray(log.topics) ? log.topics.slice(1) : [])
      if (typeof t === 'string' && /^0x[0-9a-fA-F]{64}$/.test(t)) keys.word(t.slice(2).toLowerCase());
  }
  keys.words(r.function_parameters, 4);
  for (const a of acts) keys.words(a.input, 4);
  for (const log of arrayOf(r.logs)) keys.words(log.data, 0);
  keys.words(r.call_result, 0);
  for (const a of acts) keys.words(a.result_data, 0);
  if (ctx) {
    const dec = new Decoder(ctx);
    const strings = (vals: readonly { type: string; value: string; children?: unknown[] }[]): void => {
      for (const v of vals) {
        if (v.type === 'string' && v.value.startsWith('"')) keys.add(v.value);
        if (Array.isArray(v.children)) strings(v.children as typeof vals);
      }
    };
    strings(dec.call(r.function_parameters, addrOf(r.address ?? r.to, r.contract_id))?.view.args ?? []);
    for (const a of acts) strings(dec.call(a.input, addrOf(a.to, a.recipient))?.view.args ?? []);
  }
  return keys.list;
}

/** The candidates as storage.ts takes them, by their form (see candidateKeys). */
function keyCandidates(list: readonly string[] | null | undefined): KeyCandidates & { strings: string[] } {
  const out = { addresses: [] as string[], uints: [] as bigint[], bytes: [] as string[], strings: [] as string[] };
  for (const k of Array.isArray(list) ? list : []) {
    if (typeof k !== 'string') continue;
    if (/^0x[0-9a-fA-F]{40}$/.test(k)) out.addresses.push(k.toLowerCase());
    else if (/^\d{1,78}$/.test(k)) out.uints.push(BigInt(k));
    else if (/^0x([0-9a-fA-F]{2}){1,32}$/.test(k)) out.bytes.push(k.toLowerCase());
    else if (k.startsWith('"')) {
      try {
        const s: unknown = JSON.parse(k);
        if (typeof s === 'string') out.strings.push(s);
      } catch {
        // not a quoted string: not a candidate
      }
    }
  }
  return out;
}

// ------------------------------------------------------------------ events

/**
 * The logs of a result, in the order sent, each decoded by topic 0 (the workspace's ABIs, the emitter's first; the
 * emitter's Sourcify ABI; the standard events, told apart by the number of topics); undecodable logs keep their topics
 * and data only. `candidates` (candidateKeys): an indexed string argument whose hash one of them gives is shown.
 */
export function buildEvents(
  logs: readonly ContractLog[] | null | undefined,
  ctx: InspectContext,
  candidates?: readonly string[],
): EventView[] {
  const dec = new Decoder(ctx, keyCandidates(candidates).strings);
  return arrayOf(logs).map((log, pos) => {
    const emitter = addrOf(log.address, log.contract_id);
    const topics = (Array.isArray(log.topics) ? log.topics : []).filter((t): t is string => typeof t === 'string');
    const data = textOf(log.data);
    const index = Number(log.index ?? pos);
    const ev: EventView = {
      index: Number.isFinite(index) ? index : pos,
      emitter: dec.entity(emitter, 'contract'),
      topics,
      data,
    };
    const decoded = dec.event(emitter, topics, data || '0x');
    if (decoded) {
      ev.name = decoded.name;
      ev.signature = decoded.signature;
      ev.args = decoded.args;
      ev.source = decoded.source;
    }
    return ev;
  });
}

// ------------------------------------------------------------------ state changes

/**
 * The state changes, grouped per contract (contracts in the order they first appear, each one's changes in the
 * order sent), each slot named with the contract's storage layout when the context has one (`candidates`:
 * candidateKeys, the keys tried for mappings). Slots no variable explains have no `variable` (shown raw).
 */
export function buildStateChanges(
  changes: readonly StateChange[] | null | undefined,
  ctx: InspectContext,
  candidates?: readonly string[],
): StateChangeView[] {
  const dec = new Decoder(ctx);
  const groups = new Map<string, { addr: Addr; list: StateChange[] }>();
  for (const c of arrayOf(changes)) {
    const addr = addrOf(c.address, c.contract_id);
    const key = addr.id ?? addr.evm ?? '';
    const g = groups.get(key);
    if (g) g.list.push(c);
    else groups.set(key, { addr, list: [c] });
  }
  const keys = keyCandidates(candidates);
  const out: StateChangeView[] = [];
  for (const { addr, list } of groups.values()) {
    const contract = dec.entity(addr, 'contract');
    const storageLayout = ctx.storageLayout?.bind(ctx);
    const ref = storageLayout ? askForms(addr, storageLayout) : undefined;
    const named = ref
      ? nameSlots(
          ref.layout,
          list.map((c) => ({ slot: textOf(c.slot), read: c.value_read, written: c.value_written })),
          keys,
        )
      : undefined;
    for (const c of list) {
      const v: StateChangeView = { contract, slot: textOf(c.slot), read: textOf(c.value_read) };
      if (typeof c.value_written === 'string') v.written = c.value_written;
      const slot = slotNumber(c.slot);
      const vars = slot !== undefined ? named?.get(slot) : undefined;
      if (ref && vars?.length) {
        const views: StateVariableView[] = vars.map((x) => ({ ...x, layoutSource: ref.source }));
        v.variable = views.find((x) => x.after !== undefined && x.after !== x.before) ?? views[0];
        if (views.length > 1) v.variables = views;
      }
      out.push(v);
    }
  }
  return out;
}

// ------------------------------------------------------------------ transfers

const account = (id: unknown): EntityView | undefined =>
  typeof id === 'string' && id ? { id, kind: 'account' } : undefined;
const token = (id: unknown): EntityView | undefined =>
  typeof id === 'string' && id ? { id, kind: 'token' } : undefined;

/** The HBAR, token and NFT transfers of a transaction record, its charged fee, and its payer (the transaction id's account). */
export function buildTransfers(tx: TransactionDetail | null | undefined): TransfersModel {
  const t: Partial<TransactionDetail> = isObject(tx) ? tx : {};
  const transfers: TransferView[] = [];
  for (const h of arrayOf(t.transfers)) {
    const v: TransferView = {
      kind: 'hbar',
      amount: intToString(h.amount),
      hbar: amountOf(h.amount).hbar,
      isApproval: h.is_approval === true,
    };
    const a = account(h.account);
    if (a) v.account = a;
    transfers.push(v);
  }
  for (const x of arrayOf(t.token_transfers)) {
    const v: TransferView = { kind: 'token', amount: intToString(x.amount), isApproval: x.is_approval === true };
    const a = account(x.account);
    const k = token(x.token_id);
    if (a) v.account = a;
    if (k) v.token = k;
    transfers.push(v);
  }
  for (const n of arrayOf(t.nft_transfers)) {
    const v: TransferView = { kind: 'nft', serial: intToString(n.serial_number), isApproval: n.is_approval === true };
    const k = token(n.token_id);
    const s = account(n.sender_account_id);
    const r = account(n.receiver_account_id);
    if (k) v.token = k;
    if (s) v.sender = s;
    if (r) v.receiver = r;
    transfers.push(v);
  }
  const m: TransfersModel = { transfers };
  if (t.charged_tx_fee !== null && t.charged_tx_fee !== undefined) m.fee = amountOf(t.charged_tx_fee);
  const payer = /^(\d+\.\d+\.\d+)[-@]/.exec(textOf(t.transaction_id))?.[1];
  if (payer) m.payer = { id: payer, kind: 'account' };
  return m;
}

// ------------------------------------------------------------------ what Sourcify may decode

/**
 * The contracts whose Sourcify ABI would decode something not decoded now: recipients of calls (not creations, not
 * system contracts, not accounts) whose call data or revert data no ABI decodes, emitters of logs nothing decodes,
 * and (with `result`, when there is no trace) the called contract. Addresses whose Sourcify ABI the context already
 * has are left out. Lowercase EVM addresses (an alias when sent, else the long-zero address), each once.
 */
export function addressesToLookUp(
  actions: readonly ContractAction[] | null | undefined,
  logs: readonly ContractLog[] | null | undefined,
  ctx: InspectContext,
  result?: ContractResultDetails | null,
): string[] {
  const dec = new Decoder(ctx);
  const out: string[] = [];
  const want = (a: Addr): void => {
    const k = a.forms[0];
    if (!k || out.includes(k) || systemContractAt(k) || dec.sourcify(a)) return;
    out.push(k);
  };
  const undecoded = (
    input: string | null | undefined,
    error: string | null | undefined,
    failed: boolean,
    a: Addr,
  ): boolean => {
    const hasCall = typeof input === 'string' && input.length >= 10 && HEX.test(input);
    if (hasCall && !dec.call(input, a)) return true;
    if (failed && typeof error === 'string' && HEX.test(error) && error.length >= 10) {
      const e = dec.error(error, a);
      return !e || e.kind === 'raw';
    }
    return false;
  };
  const acts = arrayOf(actions);
  for (const a of acts) {
    const op = textOf(a.call_operation_type);
    if (op === 'CREATE' || op === 'CREATE2' || a.call_type === 'CREATE' || a.recipient_type === 'ACCOUNT') continue;
    const addr = addrOf(a.to, a.recipient);
    const failed = a.result_data_type === 'REVERT_REASON' || a.result_data_type === 'ERROR';
    if (undecoded(a.input, a.result_data, failed, addr)) want(addr);
  }
  if (!acts.length && isObject(result) && !isContractCreation(result)) {
    const addr = addrOf(result.address ?? result.to, result.contract_id);
    if (undecoded(result.function_parameters, result.error_message, outcome(result) === 'failure', addr)) want(addr);
  }
  for (const log of arrayOf(logs)) {
    const topics = (Array.isArray(log.topics) ? log.topics : []).filter((t): t is string => typeof t === 'string');
    const emitter = addrOf(log.address, log.contract_id);
    if (topics.length && !dec.event(emitter, topics, textOf(log.data) || '0x')) want(emitter);
  }
  return out;
}
