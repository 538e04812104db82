/**
 * A transaction's EVM execution as the mirror node records it: a call tree (what each frame called, with what, what
 * it returned or why it failed, the events it emitted in order) turned into the real server's shapes: `actions`
 * (ContractActionViewModel: one per frame, pre-order, `call_depth` from 0), `logs` (ContractResultLogViewModel, with
 * each log's own bloom) and the failure semantics of the EVM: the first frame that fails ends the execution, its
 * revert data (or error) bubbles up through every ancestor, no frame after it runs, and a failed transaction keeps
 * no logs. Gas: the top frame has the limit less the intrinsic gas and uses the result's `gas_consumed` less it;
 * a child gets 63/64 of what its parent has left.
 */
import { uintWord } from '../abi';
import { keccakHex } from '../keccak';
import { entityId, longZero } from './ids';

export type CallOp = 'CALL' | 'CALLCODE' | 'DELEGATECALL' | 'STATICCALL' | 'CREATE' | 'CREATE2';
export type CallType = 'CALL' | 'CREATE' | 'PRECOMPILE' | 'SYSTEM';

/** An event as emitted: the emitter is the executing address (a library's events are its caller's). */
export interface LogSpec {
  log: true;
  /** Entity num of the emitter and its EVM address (40 hex, no 0x: its own address, or long-zero). */
  num: number;
  evm: string;
  topics: string[];
  data: string;
  /** Data that holds free text: re-encoded with hostile text (`text` family) by `encode`. */
  text?: { value: string; encode: (s: string) => string };
}

export type Failure = { kind: 'revert'; data: string } | { kind: 'error'; text: string };

export interface CallNode {
  op: CallOp;
  type: CallType;
  /** The entity called; null for an address no entity has (then `address`), or a failed create. */
  recipient: number | null;
  recipientType: 'ACCOUNT' | 'CONTRACT' | null;
  /** The address called when no entity has it (40 hex, no 0x). */
  address?: string;
  input: string;
  output: string;
  value?: number | bigint;
  /** Gas the frame spends itself (besides its children); a default by kind otherwise. */
  own?: number;
  /** Calls and events in execution order. */
  body?: (CallNode | LogSpec)[];
  /** This frame fails (after its body): revert data, or an error (out of gas, invalid address, ...). */
  fail?: Failure;
  /** Out of gas: the frame uses all the gas it was given. */
  outOfGas?: boolean;
}

export interface Frame {
  depth: number;
  op: CallOp;
  type: CallType;
  caller: number;
  callerType: 'ACCOUNT' | 'CONTRACT';
  recipient: number | null;
  recipientType: 'ACCOUNT' | 'CONTRACT' | null;
  address?: string;
  gas: number;
  gasUsed: number;
  input: string;
  result: string;
  resultType: 'OUTPUT' | 'REVERT_REASON' | 'ERROR';
  value: number | bigint;
  /** The failure this frame carries (its own or bubbled up), to re-encode hostile text. */
  failure?: Failure;
}

export interface Execution {
  frames: Frame[];
  logs: LogSpec[];
  /** Index of the frame where the execution failed (-1: it succeeded). */
  failedAt: number;
}

const isLog = (x: CallNode | LogSpec): x is LogSpec => (x as LogSpec).log === true;

/** Intrinsic gas of a call: 21,000 and 4 per zero byte, 16 per other byte of its call data. */
export function intrinsicGas(input: string): number {
  const hex = input.replace(/^0x/, '');
  let g = 21_000;
  for (let i = 0; i + 1 < hex.length; i += 2) g += hex[i] === '0' && hex[i + 1] === '0' ? 4 : 16;
  return g;
}

const defaultOwn = (n: CallNode): number =>
  n.type === 'PRECOMPILE'
    ? 15_000
    : n.op === 'STATICCALL'
      ? 2_600
      : n.op === 'CREATE' || n.op === 'CREATE2'
        ? 32_000
        : n.op === 'DELEGATECALL'
          ? 4_800
          : 9_000;

interface Work {
  node: CallNode;
  frame: Frame;
  parent: number;
  /** Execution context: the address whose storage the frame runs on (a DELEGATECALL keeps its caller's). */
  ctx: number;
  kids: number[];
  own: number;
}

/**
 * Runs a call tree: frames in pre-order, failure semantics, gas. `sender` is the account that sent the transaction
 * (caller of the top frame); `gasLimit`/`gasConsumed` are the result's.
 */
export function execute(root: CallNode, sender: number, gasLimit: number, gasConsumed: number): Execution {
  const work: Work[] = [];
  const logs: LogSpec[] = [];
  let failedAt = -1;
  const visit = (
    node: CallNode,
    depth: number,
    parent: number,
    caller: number,
    callerType: 'ACCOUNT' | 'CONTRACT',
  ): boolean => {
    const i = work.length;
    const ctx = node.op === 'DELEGATECALL' || node.op === 'CALLCODE' ? caller : (node.recipient ?? caller);
    const frame: Frame = {
      depth,
      op: node.op,
      type: node.type,
      caller,
      callerType,
      recipient: node.recipient,
      recipientType: node.recipientType,
      address: node.address,
      gas: 0,
      gasUsed: 0,
      input: node.input,
      result: node.output,
      resultType: 'OUTPUT',
      value: node.value ?? 0,
    };
    work.push({ node, frame, parent, ctx, kids: [], own: node.own ?? defaultOwn(node) });
    if (parent >= 0) work[parent].kids.push(i);
    for (const item of node.body ?? []) {
      if (isLog(item)) {
        logs.push(item);
        continue;
      }
      if (!visit(item, depth + 1, i, ctx, 'CONTRACT')) return false;
    }
    if (node.fail) {
      failedAt = i;
      return false;
    }
    return true;
  };
  visit(root, 0, -1, sender, 'ACCOUNT');

  // failure: the failing frame and every ancestor carry its revert data or error
  if (failedAt >= 0) {
    const failure = work[failedAt].node.fail as Failure;
    for (let j = failedAt; j >= 0; j = work[j].parent) {
      const f = work[j].frame;
      f.failure = failure;
      f.resultType = failure.kind === 'revert' ? 'REVERT_REASON' : 'ERROR';
      f.result = failure.kind === 'revert' ? failure.data : textHex(failure.text);
      if (work[j].node.op === 'CREATE' || work[j].node.op === 'CREATE2') f.recipient = null;
    }
  }

  // gas used, bottom-up (children after parents in pre-order: walk backwards)
  for (let j = work.length - 1; j >= 0; j--) {
    const w = work[j];
    w.frame.gasUsed = w.own + w.kids.reduce((s, k) => s + work[k].frame.gasUsed, 0);
  }
  const intrinsic = intrinsicGas(root.input);
  const available = Math.max(gasLimit - intrinsic, 1);
  const target = Math.min(Math.max(gasConsumed - intrinsic, 1), available);
  const raw = work[0].frame.gasUsed;
  if (raw > target) {
    // scale every frame's own gas down, then recompute
    const k = target / raw;
    for (const w of work) w.own = Math.max(1, Math.floor(w.own * k));
    for (let j = work.length - 1; j >= 0; j--) {
      const w = work[j];
      w.frame.gasUsed = w.own + w.kids.reduce((s, c) => s + work[c].frame.gasUsed, 0);
    }
  }
  work[0].own += Math.max(0, target - work[0].frame.gasUsed);
  work[0].frame.gasUsed = work[0].own + work[0].kids.reduce((s, c) => s + work[c].frame.gasUsed, 0);

  // gas given, top-down: a child gets 63/64 of what its parent has left when it calls
  work[0].frame.gas = available;
  for (const w of work) {
    let spent = Math.floor(w.own / 2);
    for (const c of w.kids) {
      const child = work[c].frame;
      const left = Math.max(w.frame.gas - spent, 0);
      child.gas = Math.max(Math.floor((left * 63) / 64), child.gasUsed);
      spent += child.gasUsed;
    }
  }
  // out of gas: the failing frame and its ancestors use all they were given
  if (failedAt >= 0 && work[failedAt].node.outOfGas)
    for (let j = failedAt; j >= 0; j = work[j].parent) work[j].frame.gasUsed = work[j].frame.gas;

  return { frames: work.map((w) => w.frame), logs: failedAt >= 0 ? [] : logs, failedAt };
}

/** An error text as result data: its UTF-8 bytes in hex. */
export const textHex = (text: string): string => '0x' + Buffer.from(text, 'utf8').toString('hex');

/** One action as ContractActionViewModel writes it, in its key order. */
export function actionObject(f: Frame, index: number, timestamp: string): Record<string, unknown> {
  const recipient = f.recipient === null ? null : entityId(f.recipient);
  return {
    call_depth: f.depth,
    call_operation_type: f.op,
    call_type: f.type,
    caller: entityId(f.caller),
    caller_type: f.callerType,
    from: longZero(f.caller),
    gas: f.gas,
    gas_used: f.gasUsed,
    index,
    input: f.input,
    recipient,
    recipient_type: recipient === null ? null : f.recipientType,
    result_data: f.result,
    result_data_type: f.resultType,
    timestamp,
    // the recorded address when the callee is no entity, else the entity's long-zero address
    to: f.recipient !== null ? longZero(f.recipient) : f.address ? `0x${f.address}` : null,
    value: f.value,
  };
}

/** The 2048-bit bloom of one log (its address and topics), as 0x + 512 hex. */
export function logBloom(address: string, topics: string[]): string {
  const bits = new Uint8Array(256);
  for (const item of [address, ...topics]) {
    const h = keccakHex(item);
    for (let i = 0; i < 6; i += 2) {
      const bit = parseInt(h.slice(i * 2, i * 2 + 4), 16) & 2047;
      bits[255 - (bit >> 3)] |= 1 << (bit & 7);
    }
  }
  return '0x' + Buffer.from(bits).toString('hex');
}

/** The bloom of several blooms (a result's: every log's). */
export function orBlooms(blooms: string[]): string {
  const out = new Uint8Array(256);
  for (const b of blooms) {
    const bytes = Buffer.from(b.slice(2), 'hex');
    for (let i = 0; i < 256; i++) out[i] |= bytes[i];
  }
  return '0x' + Buffer.from(out).toString('hex');
}

/** One log as ContractResultLogViewModel writes it, in its key order (`text`: hostile text for its string data). */
export function logObject(l: LogSpec, index: number, text?: string): Record<string, unknown> {
  const address = `0x${l.evm}`;
  return {
    address,
    bloom: logBloom(address, l.topics),
    contract_id: entityId(l.num),
    data: text !== undefined && l.text ? l.text.encode(text) : l.data,
    index,
    topics: l.topics,
  };
}

/** A 32-byte topic of an address. */
export const addrTopic = (evm: string): string => '0x' + uintWord(BigInt('0x' + evm.replace(/^0x/, '')));
/** A 32-byte topic of an integer. */
export const uintTopic = (v: number | bigint): string => '0x' + uintWord(v);

/** One state change as ContractResultStateChangeViewModel writes it (32-byte words; `written` null: only read). */
export interface SlotChange {
  num: number;
  evm: string;
  /** 64 hex, no 0x. */
  slot: string;
  read: bigint;
  written: bigint | null;
}

export function stateChangeObject(c: SlotChange): Record<string, unknown> {
  return {
    address: `0x${c.evm}`,
    contract_id: entityId(c.num),
    slot: `0x${c.slot}`,
    value_read: '0x' + uintWord(c.read),
    value_written: c.written === null ? null : '0x' + uintWord(c.written),
  };
}

/** As the real server orders them: by contract, then slot (bytes). */
export function sortStateChanges(changes: SlotChange[]): SlotChange[] {
  return changes.sort((a, b) => a.num - b.num || (a.slot < b.slot ? -1 : a.slot > b.slot ? 1 : 0));
}

/** The storage slot of `mapping[key]` at `slot`: keccak256(key . slot), 64 hex. */
export const mappingSlot = (key: string | bigint, slot: number | bigint | string): string =>
  keccakHex(
    (typeof key === 'bigint' ? uintWord(key) : uintWord(BigInt('0x' + key.replace(/^0x/, '')))) +
      (typeof slot === 'string' ? slot : uintWord(slot)),
  );

/** A slot number as 64 hex. */
export const slotHex = (slot: number | bigint): string => uintWord(slot);
