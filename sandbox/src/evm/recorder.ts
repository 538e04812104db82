/**
 * Records one execution of @ethereumjs/evm as the mirror node shows it:
 *
 * - the opcode log of `GET /api/v1/contracts/results/{id}/opcodes` (openapi `Opcode`), written as hiero-mirror-node's
 *   web3 `OpcodeActionTracer` writes it on Besu: `depth` from 0 (Besu's `MessageFrame.getDepth()`), one entry per
 *   executed operation in execution order, written after the operation (`tracePostExecution`): `pc` and `gas` as the
 *   frame has them then (the next instruction's pc and the gas left when the frame goes on; the operation's own pc
 *   when it ended the frame or suspended it for a call or create), `gas_cost` the operation's cost (for a call, with
 *   the gas it gave the callee, less a value call's stipend), `op` Besu's operation name, `reason` the revert data (hex)
 *   on a REVERT and null elsewhere; a system contract or precompile call writes one entry of its own at the callee's
 *   depth with an empty `op` and pc 0 (`tracePrecompileResult`), its cost and the gas left; `stack`, `memory` and
 *   `storage` are empty (`[]`, `{}`: Java's empty lists) unless asked for, then 32-byte words as hex, the memory in
 *   32-byte words, the transaction's storage slots read or written so far (written value, else the value read);
 * - the call frames of `…/actions` (ContractActionViewModel, its key order): one per message in pre-order, `call_depth`
 *   from 0, the operation that made it, PRECOMPILE for system contracts and precompiles, caller and recipient as
 *   entity ids, the callee's code address as recipient (a DELEGATECALL's library), result data and its type (OUTPUT,
 *   REVERT_REASON with the revert data, ERROR with the halt reason's name in UTF-8).
 *
 * Step events carry the state before an operation; what Besu shows after it is filled in from the frame's next step
 * (or from the message's end). Deterministic: nothing here depends on time or randomness.
 */
import type { ContractAction, Opcode } from '../../../src/api/mirrorTypes';

/** An @ethereumjs/evm step event (the fields read). */
export interface StepLike {
  pc: number;
  depth: number;
  gasLeft: bigint;
  opcode: { name: string; fee: number; dynamicFee?: bigint };
  stack: bigint[];
  memory: Uint8Array;
  error?: Uint8Array;
  address: { toString(): string };
}

/** An @ethereumjs/evm message (the fields read). */
export interface MessageLike {
  depth: number;
  to?: { toString(): string };
  codeAddress: { toString(): string };
  caller: { toString(): string };
  value: bigint;
  data: Uint8Array;
  gasLimit: bigint;
  delegatecall: boolean;
  isStatic: boolean;
  code?: Uint8Array | unknown;
  salt?: Uint8Array;
}

/** An @ethereumjs/evm message result (the fields read). */
export interface ResultLike {
  createdAddress?: { toString(): string };
  execResult: { exceptionError?: { error: string }; returnValue: Uint8Array; executionGasUsed: bigint };
}

export interface TraceOptions {
  stack?: boolean;
  memory?: boolean;
  storage?: boolean;
  /** What stack, memory and storage are when not asked for: `empty` (`[]`, `{}`, the real server's) or `null`. */
  absent?: 'empty' | 'null';
}

/** Besu's ExceptionalHaltReason names for @ethereumjs/evm's errors. */
const HALT_NAMES: Record<string, string> = {
  'out of gas': 'INSUFFICIENT_GAS',
  'code store out of gas': 'INSUFFICIENT_GAS',
  'invalid opcode': 'INVALID_OPERATION',
  'invalid JUMP': 'INVALID_JUMP_DESTINATION',
  'stack underflow': 'INSUFFICIENT_STACK_ITEMS',
  'stack overflow': 'TOO_MANY_STACK_ITEMS',
  'static state change': 'ILLEGAL_STATE_CHANGE',
  'return data out of bounds': 'INVALID_RETURN_DATA_BUFFER_ACCESS',
  'code size to deposit exceeds maximum code size': 'CODE_TOO_LARGE',
  'initcode exceeds max initcode size': 'CODE_TOO_LARGE',
  'invalid bytecode deployed': 'INVALID_CODE',
  'create collision': 'ILLEGAL_STATE_CHANGE',
  'value overflow': 'ILLEGAL_STATE_CHANGE',
};

/** The halt reason's name of an @ethereumjs/evm error (REVERT for a revert). */
export function haltName(error: string): string {
  if (error === 'revert') return 'REVERT';
  return (
    HALT_NAMES[error] ??
    error
      .toUpperCase()
      .replace(/[^A-Z0-9]+/g, '_')
      .replace(/^_|_$/g, '')
  );
}

const CALL_OPS = new Set(['CALL', 'CALLCODE', 'DELEGATECALL', 'STATICCALL']);
const STIPEND = 2300n;
const SSTORE_SENTRY = 2300n;

const hex = (b: Uint8Array): string => '0x' + Buffer.from(b.buffer, b.byteOffset, b.byteLength).toString('hex');
const word = (v: bigint): string => '0x' + v.toString(16).padStart(64, '0');
/** A JSON integer: a number when exact, else a bigint (the project's lossless JSON writes every digit). */
export const int = (v: bigint): number | bigint =>
  v >= BigInt(Number.MIN_SAFE_INTEGER) && v <= BigInt(Number.MAX_SAFE_INTEGER) ? Number(v) : v;

interface Frame {
  depth: number;
  /** The address whose storage and balance the frame uses (a DELEGATECALL's caller). */
  context: string;
  msg: MessageLike;
  action: ContractAction;
  precompile: boolean;
  create: boolean;
  /** The frame's last opcode entry whose pc and state may still change (-1: none yet). */
  pending: number;
  /** That entry suspended the frame for a child frame (its pc stays its own). */
  enteredChild: boolean;
  /** Gas left before the pending entry's operation. */
  gasBefore: bigint;
  /** A storage slot read by the pending SLOAD (its value is on the next step's stack). */
  sload?: string;
  /** Token-service journal mark and storage write log length at the frame's start. */
  mark: number;
  writes: number;
}

export interface StorageAccess {
  /** The contract (0x + 40 hex) and slot (0x + 64 hex). */
  address: string;
  slot: string;
  /** The value written last in this transaction by a frame that did not fail, if any (0x + 64 hex). */
  written?: string;
  /** The value the first SLOAD read, if it came before any write. */
  read?: string;
}

/** Records one transaction's execution (attach with `attach`, read after the call). */
export class ExecutionRecorder {
  readonly opcodes: Opcode[] = [];
  readonly actions: ContractAction[] = [];
  /** Storage slots in the order first touched, by `address|slot`. */
  readonly storage = new Map<string, StorageAccess>();
  /** Every SSTORE with the value it replaced in `written`, to undo a failed frame's writes. */
  private readonly writeLog: Array<{ access: StorageAccess; prev: string | undefined }> = [];
  private readonly frames: Frame[] = [];
  private readonly withStack: boolean;
  private readonly withMemory: boolean;
  private readonly withStorage: boolean;
  private readonly empty: boolean;

  constructor(
    options: TraceOptions,
    private readonly env: {
      sender: string;
      timestamp: string | null;
      entityOf: (address: string) => string | null;
      isPrecompile: (address: string) => boolean;
      mark: () => number;
      frameFailed: (mark: number) => void;
    },
  ) {
    this.withStack = options.stack === true;
    this.withMemory = options.memory === true;
    this.withStorage = options.storage === true;
    this.empty = options.absent !== 'null';
  }

  private absentList(): string[] | null {
    return this.empty ? [] : null;
  }

  private absentMap(): Record<string, string> | null {
    return this.empty ? {} : null;
  }

  private stackOf(s: StepLike): string[] {
    const out = new Array<string>(s.stack.length);
    for (let i = 0; i < s.stack.length; i++) out[i] = word(s.stack[i]);
    return out;
  }

  private memoryOf(s: StepLike): string[] {
    const out: string[] = [];
    for (let i = 0; i + 32 <= s.memory.length; i += 32) out.push(hex(s.memory.subarray(i, i + 32)));
    return out;
  }

  private storageSnapshot(): Record<string, string> {
    // the transaction's slots so far, by slot (the first contract's wins on a shared slot), sorted
    const bySlot = new Map<string, string>();
    for (const a of this.storage.values()) {
      const v = a.written ?? a.read;
      if (v !== undefined && !bySlot.has(a.slot)) bySlot.set(a.slot, v);
    }
    const out: Record<string, string> = {};
    for (const k of [...bySlot.keys()].sort()) out[k] = bySlot.get(k) as string;
    return out;
  }

  private touch(address: string, slot: string): StorageAccess {
    const key = `${address}|${slot}`;
    let a = this.storage.get(key);
    if (!a) this.storage.set(key, (a = { address, slot }));
    return a;
  }

  /** A step: finish the frame's previous entry (what Besu shows after it), then write this one. */
  step(s: StepLike): void {
    const f = this.frames[this.frames.length - 1];
    if (!f) return;
    if (f.pending >= 0) {
      const prev = this.opcodes[f.pending];
      if (f.sload !== undefined) {
        const a = this.touch(f.context, f.sload);
        if (a.read === undefined && a.written === undefined) a.read = word(s.stack[s.stack.length - 1] ?? 0n);
        f.sload = undefined;
      }
      if (!f.enteredChild) prev.pc = s.pc;
      if (this.withStack) prev.stack = this.stackOf(s);
      if (this.withMemory) prev.memory = this.memoryOf(s);
      if (this.withStorage) prev.storage = this.storageSnapshot();
    }
    const fee = s.opcode.dynamicFee ?? BigInt(s.opcode.fee);
    const name = s.opcode.name;
    const entry: Opcode = {
      depth: s.depth,
      gas: int(s.gasLeft - fee),
      gas_cost: int(fee),
      memory: this.withMemory ? this.memoryOf(s) : this.absentList(),
      op: name,
      pc: s.pc,
      reason: name === 'REVERT' ? hex(s.error ?? new Uint8Array(0)) : null,
      stack: this.withStack ? this.stackOf(s) : this.absentList(),
      storage: this.absentMap(),
    };
    if (name === 'SLOAD' && s.stack.length) f.sload = word(s.stack[s.stack.length - 1]);
    else if (name === 'SSTORE' && s.stack.length >= 2) {
      const access = this.touch(f.context, word(s.stack[s.stack.length - 1]));
      this.writeLog.push({ access, prev: access.written });
      access.written = word(s.stack[s.stack.length - 2]);
    }
    if (this.withStorage) entry.storage = this.storageSnapshot();
    f.pending = this.opcodes.length;
    f.enteredChild = false;
    f.gasBefore = s.gasLeft;
    this.opcodes.push(entry);
  }

  /** A message starts (the top-level call, or a call or create of the running frame). */
  beforeMessage(msg: MessageLike): void {
    const parent = this.frames[this.frames.length - 1];
    let op = msg.to ? 'CALL' : 'CREATE';
    if (parent && parent.pending >= 0) {
      const e = this.opcodes[parent.pending];
      op = e.op ?? op;
      parent.enteredChild = true;
      // Besu: a call's cost includes the gas it gives the callee (not a value call's stipend); a create deducts it
      const given = CALL_OPS.has(op)
        ? msg.gasLimit - (msg.value > 0n && (op === 'CALL' || op === 'CALLCODE') ? STIPEND : 0n)
        : msg.gasLimit;
      if (CALL_OPS.has(op)) e.gas_cost = int(BigInt(e.gas_cost as number | bigint) + given);
      e.gas = int(BigInt(e.gas as number | bigint) - given);
    }
    const create = !msg.to;
    const code = create ? '' : msg.codeAddress.toString().toLowerCase();
    const context = create ? '' : msg.to!.toString().toLowerCase();
    const caller = parent ? parent.context : this.env.sender;
    const precompile = !create && this.env.isPrecompile(code);
    const value = msg.value;
    const action: ContractAction = {
      call_depth: msg.depth,
      call_operation_type: op,
      call_type: create ? 'CREATE' : precompile ? 'PRECOMPILE' : 'CALL',
      caller: this.env.entityOf(caller),
      caller_type: parent ? 'CONTRACT' : 'ACCOUNT',
      from: caller,
      gas: int(msg.gasLimit),
      gas_used: 0,
      index: this.actions.length,
      input: hex(msg.data),
      recipient: create ? null : this.env.entityOf(code),
      recipient_type: create ? null : 'CONTRACT',
      result_data: '0x',
      result_data_type: 'OUTPUT',
      timestamp: this.env.timestamp,
      to: create ? null : code,
      value: int(value),
    };
    this.actions.push(action);
    this.frames.push({
      depth: msg.depth,
      context,
      msg,
      action,
      precompile,
      create,
      pending: -1,
      enteredChild: false,
      gasBefore: msg.gasLimit,
      mark: this.env.mark(),
      writes: this.writeLog.length,
    });
  }

  /** A message ends: its action's result, a precompile's entry, a halted operation's gas. */
  afterMessage(result: ResultLike): void {
    const f = this.frames.pop();
    if (!f) return;
    const r = result.execResult;
    const err = r.exceptionError?.error;
    const a = f.action;
    a.gas_used = int(r.executionGasUsed);
    if (err === undefined) {
      a.result_data = hex(r.returnValue);
      a.result_data_type = 'OUTPUT';
    } else if (err === 'revert') {
      a.result_data = hex(r.returnValue);
      a.result_data_type = 'REVERT_REASON';
    } else {
      a.result_data = hex(new TextEncoder().encode(haltName(err)));
      a.result_data_type = 'ERROR';
    }
    if (f.create) {
      const created = err === undefined ? result.createdAddress?.toString().toLowerCase() : undefined;
      a.recipient = created ? this.env.entityOf(created) : null;
      a.recipient_type = created ? 'CONTRACT' : null;
      a.to = created ?? null;
      // the parent's later entries run with the created contract known; a failed create has none
      f.context = created ?? '';
    } else if (!f.precompile) {
      const code = f.msg.code;
      a.recipient_type = code instanceof Uint8Array && code.length > 0 ? 'CONTRACT' : 'ACCOUNT';
    }
    if (f.precompile) {
      // OpcodeActionTracer.tracePrecompileResult: the callee's frame, no operation, its cost and the gas left
      this.opcodes.push({
        depth: f.depth,
        gas: int(f.msg.gasLimit - r.executionGasUsed),
        gas_cost: int(r.executionGasUsed),
        memory: this.absentList(),
        op: '',
        pc: 0,
        reason: err === 'revert' ? hex(r.returnValue) : null,
        stack: this.absentList(),
        storage: this.absentMap(),
      });
    } else if (f.pending >= 0 && err !== undefined && err !== 'revert') {
      // an exceptional halt: Besu does not take the operation's cost from the gas left; an SSTORE with no more than
      // the 2,300 gas of EIP-2200's sentry left costs that much (SStoreOperation's minimumGasRemaining)
      const e = this.opcodes[f.pending];
      e.gas = int(f.gasBefore);
      if (
        err === 'out of gas' &&
        e.op === 'SSTORE' &&
        f.gasBefore <= SSTORE_SENTRY &&
        BigInt(e.gas_cost as number | bigint) < SSTORE_SENTRY
      )
        e.gas_cost = int(SSTORE_SENTRY);
    }
    f.sload = undefined;
    if (err !== undefined) {
      // a failed frame's effects (and its children's) are undone: the token service's, the storage writes
      this.env.frameFailed(f.mark);
      while (this.writeLog.length > f.writes) {
        const w = this.writeLog.pop() as { access: StorageAccess; prev: string | undefined };
        w.access.written = w.prev;
      }
    }
  }
}
