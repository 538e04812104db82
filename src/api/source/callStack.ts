/**
 * From the mirror node's opcode log (`/contracts/results/{id}/opcodes`) and call frames (`…/actions`) to the
 * Solidity call stack of a failed call: the deepest failing frame's last opcode (REVERT, INVALID, or the one where
 * gas ran out or another exceptional halt happened) and, for every frame above it, its call site (the CALL,
 * DELEGATECALL, STATICCALL, CALLCODE, CREATE or CREATE2 that entered the frame below).
 *
 * How the mirror node writes the log (hiero-mirror-node web3 `OpcodeActionTracer`, on Besu's `EVM.runToHalt`):
 * - `depth` is Besu's `MessageFrame.getDepth()`: 0 for the top-level call, +1 per nested frame.
 * - An entry is written AFTER its operation ran (`tracePostExecution`), when Besu has already moved the program
 *   counter to the next instruction if the frame goes on (`pc` of a PUSH1 at 0 reads 2, of a JUMP its target). The
 *   entries that end a frame (REVERT, RETURN, STOP, INVALID, an exceptional halt) and the calls and creates that
 *   suspend it for a child frame keep their own `pc`: exactly the ones this module reports. Logs written before the
 *   operation (geth-style, the first entry at pc 0) are read the same way (`pcMode` says which one it was).
 * - `reason` is the frame's revert reason: on the REVERT entry, the revert data as hex.
 * - A call to a system contract or precompile writes one entry of its own at the callee's depth, with an empty
 *   `op` (`tracePrecompileResult`); a call to an account without code writes none.
 *
 * Frames are matched to the actions (pre-order, `index` order) by execution order: each frame entered in the log takes
 * the next action at its depth that enters a frame (a PRECOMPILE/SYSTEM action for an empty-`op` entry; otherwise an
 * action whose recipient has code), skipping the actions that enter none. One pass over the log, no allocation per
 * opcode (one small record per frame): a 20,000-entry log maps in under a millisecond (test/bench/revert-map.mjs).
 * Plain TypeScript, no `vscode`. Never throws.
 */
import type { Int } from '../json';

/** One entry of the opcode log, as the mirror node writes it (only these fields are read). */
export interface OpcodeEntry {
  depth: Int | null;
  op: string | null;
  pc: Int | null;
  gas?: Int | null;
  gas_cost?: Int | null;
  reason?: string | null;
}

/** One action (call frame) of `/contracts/results/{id}/actions` (only these fields are read). */
export interface ActionEntry {
  call_depth?: Int | null;
  call_operation_type?: string | null;
  call_type?: string | null;
  index?: Int | null;
  recipient?: string | null;
  recipient_type?: string | null;
  to?: string | null;
  input?: string | null;
  result_data?: string | null;
  result_data_type?: string | null;
}

export type FrameKind = 'revert' | 'invalid' | 'outOfGas' | 'halt' | 'callSite';

/** A frame of the call stack, innermost first. */
export interface StackFrame {
  /** The opcode log's depth (0: the top-level call). */
  depth: number;
  /** The EVM address whose code ran in this frame (a DELEGATECALL's library, not its caller), when known. */
  address?: string;
  /** Its entity id (`0.0.x`), when known. */
  entity?: string;
  /** The program counter of the failing operation (innermost frame) or of the call site (the others). */
  pc: number;
  /** That operation (REVERT, INVALID, SSTORE, CALL, DELEGATECALL, …). */
  op: string;
  kind: FrameKind;
  /** The revert data (hex) of the innermost frame, when it reverted with some. */
  reason?: string;
  /** Index in the opcode log of that operation. */
  opcodeIndex: number;
  /** Index in the opcode log of the frame's first operation. */
  firstOpcodeIndex: number;
  /** The matched action: its `index`, and its position in the list given. */
  actionIndex?: number;
  actionPosition?: number;
  /** The frame's function selector (the action's input, 4 bytes), when known. */
  selector?: string;
  /** A system contract or precompile (an empty-`op` entry): no code of a build ran there. */
  precompile?: boolean;
  /** The frame ran creation code (a CREATE / CREATE2, or a contract-creating transaction): its init code (hex). */
  creation?: { initCode: string };
}

export interface CallStack {
  /** Whether the top-level call failed (false: nothing to map; `frames` is empty). */
  failed: boolean;
  /** Innermost (the failing operation) first, then each call site up to the top-level call. */
  frames: StackFrame[];
  /** How the log's `pc` values read: written after each operation (the mirror node) or before it. */
  pcMode: 'post' | 'pre';
  /** How many opcodes and frames the log has. */
  opcodeCount: number;
  frameCount: number;
  /** What could not be told for sure (an empty log, a descent guessed without revert data, unmatched actions). */
  notes: string[];
  /**
   * The chain went down into a failed call on empty or missing revert data: the caller may as well have caught that
   * failure and reverted on its own with no data, so the innermost frame is not certain.
   */
  descentUnsure?: boolean;
}

export interface CallStackOptions {
  /** The top-level call's recipient (the OpcodesResponse's `address` / `contract_id`) when there are no actions. */
  top?: { address?: string | null; entity?: string | null };
  /** Override the detected pc mode. */
  pcMode?: 'post' | 'pre';
}

const CALLS = new Set(['CALL', 'CALLCODE', 'DELEGATECALL', 'STATICCALL', 'CREATE', 'CREATE2']);
const SUCCESS_ENDS = new Set(['STOP', 'RETURN', 'SELFDESTRUCT']);
const PRECOMPILE_TYPES = new Set(['PRECOMPILE', 'SYSTEM']);

/** A whole number from the wire (number, bigint, digits), else NaN. */
function n(v: Int | string | null | undefined): number {
  if (typeof v === 'number') return v;
  if (typeof v === 'bigint') return Number(v);
  if (typeof v === 'string' && v.trim() !== '') return Number(v);
  return NaN;
}

interface FrameRec {
  depth: number;
  first: number;
  last: number;
  parent: FrameRec | undefined;
  /** The call site in the parent (log index). */
  callSite: number;
  lastChild: FrameRec | undefined;
  action: number;
  pseudo: boolean;
}

/**
 * How the log's `pc` values read: `pre` when the first entry is at pc 0 (written before the operation), `post` (the
 * mirror node's) otherwise.
 */
export function pcModeOf(opcodes: ArrayLike<OpcodeEntry>): 'post' | 'pre' {
  return opcodes.length > 0 && n(opcodes[0].pc) === 0 ? 'pre' : 'post';
}

/** How a frame ended, from its last entry. */
function endOf(e: OpcodeEntry | undefined, pseudo: boolean): { failed: boolean; kind: Exclude<FrameKind, 'callSite'> } {
  const op = e?.op ?? '';
  if (pseudo) return { failed: e?.reason != null, kind: 'revert' };
  if (op === 'REVERT') return { failed: true, kind: 'revert' };
  if (op === 'INVALID') return { failed: true, kind: 'invalid' };
  if (SUCCESS_ENDS.has(op)) return { failed: false, kind: 'revert' };
  // any other last operation halted the frame: out of gas when it cost more than was left (an SSTORE also with no
  // more than EIP-2200's 2,300 gas left)
  const gas = n(e?.gas);
  const cost = n(e?.gas_cost);
  const outOfGas = Number.isFinite(gas) && ((Number.isFinite(cost) && cost > gas) || (op === 'SSTORE' && gas <= 2300));
  return { failed: true, kind: outOfGas ? 'outOfGas' : 'halt' };
}

const normHex = (h: string | null | undefined): string => (h == null ? '' : h.toLowerCase().replace(/^0x/, ''));

/** Whether an action enters a frame of the kind met in the log (the debugger's trace index reads it the same way). */
export function entersFrame(a: ActionEntry, pseudo: boolean): boolean {
  const type = a.call_type ?? '';
  if (pseudo) return PRECOMPILE_TYPES.has(type);
  if (PRECOMPILE_TYPES.has(type)) return false;
  const op = a.call_operation_type ?? '';
  if (op === 'CREATE' || op === 'CREATE2' || type === 'CREATE') return true;
  return a.recipient_type !== 'ACCOUNT';
}

/**
 * The Solidity call stack of a failed call (see the module comment). `source` is the opcode log (an array) or the
 * whole OpcodesResponse (then its `address`/`contract_id` name the top frame); `actions` are the call frames.
 */
export function callStackOf(
  source:
    | ArrayLike<OpcodeEntry>
    | { opcodes?: ArrayLike<OpcodeEntry> | null; address?: string | null; contract_id?: string | null },
  actions?: readonly ActionEntry[] | null,
  options: CallStackOptions = {},
): CallStack {
  const isList = Array.isArray(source) || typeof (source as ArrayLike<OpcodeEntry>).length === 'number';
  const opcodes: ArrayLike<OpcodeEntry> = isList
    ? (source as ArrayLike<OpcodeEntry>)
    : ((source as { opcodes?: ArrayLike<OpcodeEntry> }).opcodes ?? []);
  const top =
    options.top ??
    (isList
      ? undefined
      : {
          address: (source as { address?: string | null }).address,
          entity: (source as { contract_id?: string | null }).contract_id,
        });
  const notes: string[] = [];
  const pcMode = options.pcMode ?? pcModeOf(opcodes);
  const count = opcodes.length;
  if (!count)
    return { failed: false, frames: [], pcMode, opcodeCount: 0, frameCount: 0, notes: ['The opcode log is empty.'] };

  // actions in execution order (index), relative depths
  const acts: ActionEntry[] = [];
  const positions: number[] = [];
  if (Array.isArray(actions)) {
    const order = actions.map((_, i) => i).filter((i) => actions[i] && typeof actions[i] === 'object');
    order.sort((x, y) => (n(actions[x].index) || 0) - (n(actions[y].index) || 0) || x - y);
    for (const i of order) {
      acts.push(actions[i]);
      positions.push(i);
    }
  }
  const baseDepth = acts.length ? n(acts[0].call_depth) || 0 : 0;
  const logBase = n(opcodes[0].depth) || 0;
  let cursor = 0;
  /** The next action at relative depth `rel` that enters a frame of this kind (-1: none). */
  const nextAction = (rel: number, pseudo: boolean): number => {
    while (cursor < acts.length) {
      const ad = (n(acts[cursor].call_depth) || 0) - baseDepth;
      if (ad < rel) return -1; // that action belongs to an ancestor's later call: leave it
      const i = cursor++;
      if (ad === rel && entersFrame(acts[i], pseudo)) return i;
    }
    return -1;
  };

  // one pass: frames by depth changes
  const root: FrameRec = {
    depth: n(opcodes[0].depth) || 0,
    first: 0,
    last: 0,
    parent: undefined,
    callSite: -1,
    lastChild: undefined,
    action: -1,
    pseudo: false,
  };
  root.action = acts.length ? nextAction(0, false) : -1;
  let cur = root;
  let frameCount = 1;
  for (let i = 1; i < count; i++) {
    const e = opcodes[i];
    const dv = e.depth;
    const d = typeof dv === 'number' ? dv : n(dv);
    if (d === cur.depth) {
      cur.last = i;
      continue;
    }
    if (d > cur.depth) {
      const pseudo = e.op === '';
      const child: FrameRec = {
        depth: d,
        first: i,
        last: i,
        parent: cur,
        callSite: cur.last,
        lastChild: undefined,
        action: -1,
        pseudo,
      };
      if (acts.length) child.action = nextAction(d - logBase, pseudo);
      cur.lastChild = child;
      cur = child;
      frameCount++;
      continue;
    }
    while (cur.parent && cur.depth > d) cur = cur.parent;
    if (cur.depth !== d) {
      // a log that starts deeper than it goes on (cut at the start): treat this entry as a new top-level frame
      notes.push(
        `The log goes from depth ${cur.depth} to ${d} at entry ${i}: it does not start at the top-level call.`,
      );
      cur = { depth: d, first: i, last: i, parent: undefined, callSite: -1, lastChild: cur, action: -1, pseudo: false };
      continue;
    }
    cur.last = i;
  }
  let topFrame = cur;
  while (topFrame.parent) topFrame = topFrame.parent;

  const topEnd = endOf(opcodes[topFrame.last], false);
  if (!topEnd.failed) return { failed: false, frames: [], pcMode, opcodeCount: count, frameCount, notes };

  // the failure chain: go down while the frame's last child failed and the frame passed its failure on
  const chain: FrameRec[] = [topFrame];
  let descentUnsure = false;
  for (let f = topFrame; ;) {
    const child = f.lastChild;
    if (!child) break;
    const fe = opcodes[f.last];
    const ce = opcodes[child.last];
    const childEnd = endOf(ce, child.pseudo);
    if (!childEnd.failed) break;
    const fEnd = endOf(fe, false);
    if (fEnd.kind !== 'revert') break; // the frame halted on its own account
    const fr = fe.reason;
    const cr = child.pseudo ? ce.reason : childEnd.kind === 'revert' ? ce.reason : '0x';
    if (fr == null || cr == null) {
      notes.push(
        `Frame at depth ${f.depth} reverted right after a failed call, with no revert data in the log to compare: taken as passing the failure on.`,
      );
      descentUnsure = true;
    } else if (normHex(fr) !== normHex(cr)) {
      break; // it reverted with its own reason (it caught the failure)
    } else if (!normHex(fr)) {
      descentUnsure = true; // both empty: passed on, or caught and reverted again without data
    }
    chain.push(child);
    f = child;
  }

  type Info = Pick<
    StackFrame,
    'address' | 'entity' | 'actionIndex' | 'actionPosition' | 'selector' | 'precompile' | 'creation'
  >;
  const frameInfo = (f: FrameRec): Info => {
    const out: Info = {};
    if (f.pseudo) out.precompile = true;
    if (f.action >= 0) {
      const a = acts[f.action];
      const to = typeof a.to === 'string' && a.to ? a.to.toLowerCase() : undefined;
      if (to) out.address = to;
      if (typeof a.recipient === 'string' && a.recipient) out.entity = a.recipient;
      const idx = n(a.index);
      if (Number.isFinite(idx)) out.actionIndex = idx;
      out.actionPosition = positions[f.action];
      const input = typeof a.input === 'string' ? a.input.toLowerCase() : '';
      const create =
        a.call_operation_type === 'CREATE' || a.call_operation_type === 'CREATE2' || a.call_type === 'CREATE';
      if (create && /^0x[0-9a-f]+$/.test(input)) out.creation = { initCode: input };
      else if (/^0x[0-9a-f]{8}/.test(input)) out.selector = input.slice(0, 10);
    } else if (f === topFrame && top) {
      if (top.address) out.address = top.address.toLowerCase();
      if (top.entity) out.entity = top.entity;
    }
    return out;
  };

  const frames: StackFrame[] = [];
  const inner = chain[chain.length - 1];
  const ie = opcodes[inner.last];
  const iEnd = endOf(ie, inner.pseudo);
  frames.push({
    depth: inner.depth,
    ...frameInfo(inner),
    pc: n(ie.pc),
    op: ie.op ?? '',
    kind: iEnd.kind,
    ...(typeof ie.reason === 'string' ? { reason: ie.reason } : {}),
    opcodeIndex: inner.last,
    firstOpcodeIndex: inner.first,
  });
  for (let k = chain.length - 2; k >= 0; k--) {
    const f = chain[k];
    const site = chain[k + 1].callSite;
    const se = opcodes[site];
    if (!CALLS.has(se?.op ?? ''))
      notes.push(
        `The operation before the frame at depth ${chain[k + 1].depth} is ${se?.op || 'nothing'}, not a call.`,
      );
    frames.push({
      depth: f.depth,
      ...frameInfo(f),
      pc: n(se?.pc),
      op: se?.op ?? '',
      kind: 'callSite',
      opcodeIndex: site,
      firstOpcodeIndex: f.first,
    });
  }
  if (acts.length && chain.some((f) => f.action < 0))
    notes.push('Some frames could not be matched to an action: their contract is not known.');
  return {
    failed: true,
    frames,
    pcMode,
    opcodeCount: count,
    frameCount,
    notes,
    ...(descentUnsure ? { descentUnsure } : {}),
  };
}
