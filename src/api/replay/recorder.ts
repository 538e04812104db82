/**
 * The replay's step trace and call frames, written in the shapes the mirror node serves them so the same code reads
 * either: the opcode log of `/contracts/results/{id}/opcodes` (`Opcode`, as hiero-mirror-node's web3
 * `OpcodeActionTracer` writes it on Besu) and the actions of `…/actions` (`ContractAction`).
 *
 * Besu's log, as the placement code (../source/callStack) reads it: `depth` from 0; one entry per operation, written
 * after it ran: `pc` is the next instruction's when the frame goes on, the operation's own when it ended the frame or
 * suspended it for a call or create; `gas` what is left after it, `gas_cost` its cost (a call's with the gas it gave
 * the callee, less a value call's 2,300 stipend); `reason` the revert data on a REVERT; a system contract or
 * precompile writes one entry of its own at the callee's depth with an empty `op` and pc 0. Stack, memory and
 * storage are empty, as the endpoint sends them when not asked for, or filled when `TraceOptions` asks (the sandbox
 * serves them so).
 *
 * @ethereumjs/evm's step event carries the state before an operation, so each entry is completed at the frame's
 * next step (or at the end of its message). Nothing here depends on time or randomness.
 */
import type { ContractAction, Opcode } from '../mirrorTypes';

/** The block @ethereumjs/evm runs a call in: the fields it reads (`coinbase` is an @ethereumjs Address). */
export function evmBlock(number: bigint, timestamp: bigint, coinbase: unknown): unknown {
  return {
    header: {
      number,
      coinbase,
      timestamp,
      difficulty: 0n,
      prevRandao: new Uint8Array(32),
      gasLimit: 15_000_000n,
      baseFeePerGas: undefined,
      slotNumber: 0n,
      getBlobGasPrice: () => undefined,
    },
  };
}

/**
 * The `blockchain` @ethereumjs/evm asks BLOCKHASH's answers of. Under Cancun it asks only for the 256 blocks before
 * the current one (zero for that one, later ones and older ones), as Hedera's node keeps 256 trailing block hashes;
 * `hashOf` gives the 32 bytes the EVM sees (the first 32 of Hedera's 48-byte hash).
 */
export function blockHashSource(hashOf: (n: bigint) => Promise<Uint8Array>): {
  getBlock: (n: number) => Promise<{ hash: () => Uint8Array }>;
  putBlock: () => Promise<void>;
  shallowCopy: () => unknown;
} {
  const source = {
    getBlock: async (n: number) => {
      const h = await hashOf(BigInt(n));
      return { hash: () => h };
    },
    putBlock: async () => undefined,
    shallowCopy: () => source,
  };
  return source;
}

/** The fields of an @ethereumjs/evm step event that are read. */
export interface StepEvent {
  pc: number;
  depth: number;
  gasLeft: bigint;
  opcode: { name: string; fee: number; dynamicFee?: bigint };
  stack: bigint[];
  /** Read only when the trace asks for memory. */
  memory?: Uint8Array;
  error?: Uint8Array;
}

/** The fields of an @ethereumjs/evm message that are read. */
export interface MessageEvent {
  depth: number;
  to?: { toString(): string };
  codeAddress: { toString(): string };
  value: bigint;
  data: Uint8Array;
  gasLimit: bigint;
  code?: unknown;
}

/** The fields of an @ethereumjs/evm message result that are read. */
export interface ResultEvent {
  createdAddress?: { toString(): string };
  execResult: { exceptionError?: { error: string }; returnValue: Uint8Array; executionGasUsed: bigint };
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
const LOG_OPS = new Set(['LOG0', 'LOG1', 'LOG2', 'LOG3', 'LOG4']);
const STIPEND = 2300n;
const SSTORE_SENTRY = 2300n;

export const toHex = (b: Uint8Array): string => {
  let s = '0x';
  for (let i = 0; i < b.length; i++) s += (b[i] < 16 ? '0' : '') + b[i].toString(16);
  return s;
};
const word = (v: bigint): string => '0x' + v.toString(16).padStart(64, '0');
/** A JSON integer: a number when exact, else a bigint (as the project's lossless JSON reads them). */
export const int = (v: bigint): number | bigint =>
  v >= BigInt(Number.MIN_SAFE_INTEGER) && v <= BigInt(Number.MAX_SAFE_INTEGER) ? Number(v) : v;

interface Frame {
  depth: number;
  /** The address whose storage the frame uses (a DELEGATECALL's caller). */
  context: string;
  msg: MessageEvent;
  action: ContractAction;
  precompile: boolean;
  create: boolean;
  pending: number;
  enteredChild: boolean;
  gasBefore: bigint;
  /** The slot the pending SLOAD reads (its value is on the next step's stack). */
  sload?: string;
  writes: number;
  logs: number;
  mark: number;
  /** What the frame and its children charged that Hedera's older gas schedule did not (see ScheduleDiff). */
  older: ScheduleDiff;
}

/**
 * Gas an action charged (itself and the calls under it) that Hedera's EVM did not charge before its gas calculator
 * followed Ethereum's again (hiero-consensus-node's CustomGasCalculator, once LondonGasCalculator-based with a code
 * deposit waiver, now PragueGasCalculator-based without it): the code deposit (200 a byte of deployed code), EIP-3860's
 * init code words of CREATE / CREATE2 (2 a word), and TLOAD / TSTORE (Besu's default cost of 0 under London).
 */
export interface ScheduleDiff {
  deposit: bigint;
  initcode: bigint;
  transient: bigint;
}

const CODE_DEPOSIT_BYTE = 200n;
const INITCODE_WORD = 2n;
const noDiff = (): ScheduleDiff => ({ deposit: 0n, initcode: 0n, transient: 0n });

/** A storage slot the replay touched. */
export interface SlotAccess {
  address: string;
  slot: string;
  /** The last value written by a frame that did not fail. */
  written?: string;
  /** The value the first SLOAD read, if it came before any write. */
  read?: string;
}

/** What the opcode log carries besides the operations (the endpoint's query parameters). */
export interface TraceOptions {
  stack?: boolean;
  memory?: boolean;
  storage?: boolean;
  /** What stack, memory and storage are when not asked for: `empty` (`[]`, `{}`, the real server's) or `null`. */
  absent?: 'empty' | 'null';
}

export interface RecorderEnv {
  /** The transaction's sender (its EVM address). */
  sender: string;
  timestamp: string | null;
  entityOf: (address: string) => string | null;
  isPrecompile: (address: string) => boolean;
  /** The step budget: called on every step with the count so far; throw to stop. */
  onStep?: (count: number) => void;
  /** A mark of side effects kept outside the EVM (a token service's), taken as a frame starts... */
  mark?: () => number;
  /** ...and given back when that frame failed, to undo them. */
  frameFailed?: (mark: number) => void;
}

/** Records one execution (see the module comment). */
export class ReplayRecorder {
  readonly opcodes: Opcode[] = [];
  readonly actions: ContractAction[] = [];
  readonly storage = new Map<string, SlotAccess>();
  /** For each action, the index in `opcodes` of the first entry written after it began. */
  readonly actionStart: number[] = [];
  /** LOG operations of frames that did not fail, so far (where a system contract's logs go in the record). */
  logCount = 0;
  /** BALANCE / SELFBALANCE ran: the result depends on a balance. */
  readsBalance = false;
  /** For each action, what it charged that Hedera's older gas schedule did not. */
  readonly olderSchedule: ScheduleDiff[] = [];
  private readonly writeLog: Array<{ access: SlotAccess; prev: string | undefined }> = [];
  private readonly frames: Frame[] = [];
  private readonly withStack: boolean;
  private readonly withMemory: boolean;
  private readonly withStorage: boolean;
  private readonly absentList: string[] | null;
  private readonly absentMap: Record<string, string> | null;

  constructor(
    private readonly env: RecorderEnv,
    trace: TraceOptions = {},
  ) {
    this.withStack = trace.stack === true;
    this.withMemory = trace.memory === true;
    this.withStorage = trace.storage === true;
    this.absentList = trace.absent === 'null' ? null : [];
    this.absentMap = trace.absent === 'null' ? null : {};
  }

  /** The frame running now: its context (for a system contract's msg.sender, the one below). */
  contextAt(fromTop: number): string {
    return this.frames[this.frames.length - 1 - fromTop]?.context ?? '';
  }

  private stackOf(s: StepEvent): string[] {
    return s.stack.map(word);
  }

  private memoryOf(s: StepEvent): string[] {
    const out: string[] = [];
    const m = s.memory ?? new Uint8Array(0);
    for (let i = 0; i + 32 <= m.length; i += 32) out.push(toHex(m.subarray(i, i + 32)));
    return out;
  }

  /** The transaction's slots so far, by slot (the first contract's wins on a shared slot), sorted. */
  private storageSnapshot(): Record<string, string> {
    const bySlot = new Map<string, string>();
    for (const a of this.storage.values()) {
      const v = a.written ?? a.read;
      if (v !== undefined && !bySlot.has(a.slot)) bySlot.set(a.slot, v);
    }
    const out: Record<string, string> = {};
    for (const k of [...bySlot.keys()].sort()) out[k] = bySlot.get(k) as string;
    return out;
  }

  private touch(address: string, slot: string): SlotAccess {
    const key = `${address}|${slot}`;
    let a = this.storage.get(key);
    if (!a) this.storage.set(key, (a = { address, slot }));
    return a;
  }

  step(s: StepEvent): void {
    const f = this.frames[this.frames.length - 1];
    if (!f) return;
    this.env.onStep?.(this.opcodes.length);
    const top = s.stack.length ? s.stack[s.stack.length - 1] : 0n;
    if (f.pending >= 0) {
      // what Besu shows after the pending entry's operation: this step's state
      const prev = this.opcodes[f.pending];
      if (f.sload !== undefined) {
        const a = this.touch(f.context, f.sload);
        if (a.read === undefined && a.written === undefined) a.read = word(top);
        f.sload = undefined;
      }
      if (!f.enteredChild) prev.pc = s.pc;
      if (this.withStack) prev.stack = this.stackOf(s);
      if (this.withMemory) prev.memory = this.memoryOf(s);
      if (this.withStorage) prev.storage = this.storageSnapshot();
    }
    const fee = s.opcode.dynamicFee ?? BigInt(s.opcode.fee);
    const name = s.opcode.name;
    if (name === 'SLOAD') {
      this.touch(f.context, (f.sload = word(top)));
    } else if (name === 'SSTORE' && s.stack.length >= 2) {
      const access = this.touch(f.context, word(top));
      this.writeLog.push({ access, prev: access.written });
      access.written = word(s.stack[s.stack.length - 2]);
    } else if (LOG_OPS.has(name)) {
      this.logCount++;
    } else if (name === 'BALANCE' || name === 'SELFBALANCE') {
      this.readsBalance = true;
    } else if (name === 'TLOAD' || name === 'TSTORE') {
      f.older.transient += fee;
    } else if ((name === 'CREATE' || name === 'CREATE2') && s.stack.length >= 3) {
      const size = s.stack[s.stack.length - 3];
      if (size < 1n << 32n) f.older.initcode += ((size + 31n) / 32n) * INITCODE_WORD;
    }
    f.pending = this.opcodes.length;
    f.enteredChild = false;
    f.gasBefore = s.gasLeft;
    this.opcodes.push({
      depth: s.depth,
      gas: int(s.gasLeft - fee),
      gas_cost: int(fee),
      memory: this.withMemory ? this.memoryOf(s) : this.absentList,
      op: name,
      pc: s.pc,
      reason: name === 'REVERT' ? toHex(s.error ?? new Uint8Array(0)) : null,
      stack: this.withStack ? this.stackOf(s) : this.absentList,
      storage: this.withStorage ? this.storageSnapshot() : this.absentMap,
    });
  }

  beforeMessage(msg: MessageEvent): void {
    const parent = this.frames[this.frames.length - 1];
    let op = msg.to ? 'CALL' : 'CREATE';
    if (parent && parent.pending >= 0) {
      const e = this.opcodes[parent.pending];
      op = e.op ?? op;
      parent.enteredChild = true;
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
      input: toHex(msg.data),
      recipient: create ? null : this.env.entityOf(code),
      recipient_type: create ? null : 'CONTRACT',
      result_data: '0x',
      result_data_type: 'OUTPUT',
      timestamp: this.env.timestamp,
      to: create ? null : code,
      value: int(msg.value),
    };
    this.actions.push(action);
    this.actionStart.push(this.opcodes.length);
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
      writes: this.writeLog.length,
      logs: this.logCount,
      mark: this.env.mark?.() ?? 0,
      older: noDiff(),
    });
  }

  afterMessage(result: ResultEvent): void {
    const f = this.frames.pop();
    if (!f) return;
    const r = result.execResult;
    const err = r.exceptionError?.error;
    const a = f.action;
    a.gas_used = int(r.executionGasUsed);
    if (err === undefined || err === 'revert') {
      a.result_data = toHex(r.returnValue);
      a.result_data_type = err === undefined ? 'OUTPUT' : 'REVERT_REASON';
    } else {
      a.result_data = toHex(new TextEncoder().encode(haltName(err)));
      a.result_data_type = 'ERROR';
    }
    if (f.create) {
      const created = err === undefined ? result.createdAddress?.toString().toLowerCase() : undefined;
      a.recipient = created ? this.env.entityOf(created) : null;
      a.recipient_type = created ? 'CONTRACT' : null;
      a.to = created ?? null;
    } else if (!f.precompile) {
      const code = f.msg.code;
      a.recipient_type = code instanceof Uint8Array && code.length > 0 ? 'CONTRACT' : 'ACCOUNT';
    }
    if (f.precompile) {
      this.opcodes.push({
        depth: f.depth,
        gas: int(f.msg.gasLimit - r.executionGasUsed),
        gas_cost: int(r.executionGasUsed),
        memory: this.absentList,
        op: '',
        pc: 0,
        reason: err === 'revert' ? toHex(r.returnValue) : null,
        stack: this.absentList,
        storage: this.absentMap,
      });
    } else if (f.pending >= 0 && err !== undefined && err !== 'revert') {
      // an exceptional halt: Besu does not take the operation's cost from the gas left (an SSTORE with no more than
      // EIP-2200's 2,300 gas left costs that much)
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
    // an exceptional halt uses all the gas the frame had, on any schedule
    const older = err !== undefined && err !== 'revert' ? noDiff() : f.older;
    if (f.create && err === undefined) older.deposit += BigInt(r.returnValue.length) * CODE_DEPOSIT_BYTE;
    this.olderSchedule[Number(a.index)] = older;
    const parent = this.frames[this.frames.length - 1];
    if (parent) {
      parent.older.deposit += older.deposit;
      parent.older.initcode += older.initcode;
      parent.older.transient += older.transient;
    }
    if (err !== undefined) {
      // a failed frame's effects (and its children's) are undone
      this.env.frameFailed?.(f.mark);
      this.logCount = f.logs;
      while (this.writeLog.length > f.writes) {
        const w = this.writeLog.pop() as { access: SlotAccess; prev: string | undefined };
        w.access.written = w.prev;
      }
    }
  }
}
