/**
 * The debugging model of a past transaction: its recorded step trace (the mirror node's opcode log, or the local
 * replay's, same shape) indexed once so that a debugger can move through it in both directions.
 *
 * - External frames: one per message (call, delegatecall, create, system contract), from the log's depth changes,
 *   matched to the call trace's actions in execution order as src/api/source/callStack.ts matches them.
 * - Internal frames: within a frame, the jumps the source map marks as into (`i`) and out of (`o`) a function.
 * - A step has a source line only where the source map confirms it, by the rules revert to source uses
 *   (src/api/source/confirm.ts): a range that is one statement or expression of a function the frame could run. A
 *   range that covers a whole contract, function or block, code the compiler generated, a frame without a build or a
 *   pc outside the build's code: no line (the debugger shows that step in the disassembly).
 * - Statements: a step that enters a line of its frame (the previous placed step of the same function call was on
 *   another line) is where Step Over / Into / Out, Step Back, Continue and breakpoints stop.
 *
 * Typed arrays, one pass over the log, no allocation per step beyond them: a 20,000-step log indexes in milliseconds
 * (test/bench/debug.mjs). Plain TypeScript, no `vscode`.
 */
import { type ActionEntry, type OpcodeEntry, callStackOf, entersFrame, pcModeOf } from '../source/callStack';
import { confirmLocation } from '../source/confirm';
import { ContractLocator, type FrameBuild, type SourceLocation } from '../source/locate';
import { placeFailure } from '../source/place';
import { contractOf } from '../source/sourceMap';
import { inParameterList } from './ast';

/** One step of the log, with what the endpoint sends when asked (`stack`, `memory`, `storage`). */
export interface TraceStep extends OpcodeEntry {
  stack?: readonly string[] | null;
  memory?: readonly string[] | null;
  storage?: Readonly<Record<string, string>> | null;
}

/** One action of the call trace, with the fields the debugger shows. */
export interface TraceAction extends ActionEntry {
  from?: string | null;
  caller?: string | null;
  value?: number | bigint | string | null;
  gas?: number | bigint | string | null;
}

/** What a frame's contract is, for the resolver. */
export interface FrameIdentity {
  address?: string;
  entity?: string;
  creation?: { initCode: string };
}

export interface TraceInput {
  opcodes: ArrayLike<TraceStep>;
  actions?: readonly TraceAction[] | null;
  /** The top-level call's recipient when there are no actions. */
  top?: { address?: string | null; entity?: string | null };
  /** The build of a frame's contract (already resolved: the debugger resolves every frame before it indexes). */
  resolve: (frame: FrameIdentity) => FrameBuild | undefined;
  pcMode?: 'post' | 'pre';
  /**
   * How many steps from the start are exact (a local replay that diverged from the network's record: the steps
   * before the divergence); the later ones are given no line, only the disassembly. Default: all.
   */
  exactSteps?: number;
}

/** One message of the execution. */
export interface ExternalFrame {
  id: number;
  depth: number;
  /** First and last step of the frame (its children's steps in between). */
  first: number;
  last: number;
  parent?: ExternalFrame;
  /** The parent's step that entered this frame (-1: the top-level call). */
  callSite: number;
  address?: string;
  entity?: string;
  /** The action's operation: CALL, DELEGATECALL, STATICCALL, CREATE, … */
  operation?: string;
  selector?: string;
  input?: string;
  from?: string;
  value?: bigint;
  /** The action's result data (return data, revert data or a halt reason). */
  result?: string;
  resultType?: string;
  creation?: { initCode: string };
  precompile: boolean;
  build?: FrameBuild;
  locator?: ContractLocator;
  /** Why its steps have no lines (no build, a bytecode mismatch, no source map). */
  problem?: string;
  /** The frame's root call (its steps outside any internal function call). */
  root: CallNode;
}

/** A function call within an external frame (the frame's root, or an internal call). */
export interface CallNode {
  id: number;
  frame: ExternalFrame;
  parent?: CallNode;
  /** The first step inside the call. */
  entry: number;
  /** The step of the JUMP that entered it (-1 for a frame's root). */
  callStep: number;
  /** Nesting: 0 for the top-level call's root, +1 per external frame or internal call. */
  level: number;
  /** The function's name, from the source at its entry, when the source map gives it. */
  name?: string;
}

/** A confirmed source line. */
export interface Place {
  id: number;
  location: SourceLocation;
  /** The line's key (one per source and line). */
  line: number;
}

const CALL_OPS = new Set(['CALL', 'CALLCODE', 'DELEGATECALL', 'STATICCALL', 'CREATE', 'CREATE2']);
const JUMP = 0x56;

const num = (v: unknown): number =>
  typeof v === 'number' ? v : typeof v === 'bigint' ? Number(v) : typeof v === 'string' && v.trim() ? Number(v) : NaN;
const big = (v: unknown): bigint | undefined => {
  try {
    if (typeof v === 'bigint') return v;
    if (typeof v === 'number' && Number.isFinite(v)) return BigInt(Math.trunc(v));
    if (typeof v === 'string' && /^(0x[0-9a-f]+|\d+)$/i.test(v.trim())) return BigInt(v.trim());
  } catch {
    // not a number
  }
  return undefined;
};

export type StepKind = 'over' | 'into' | 'out';

/** The indexed trace (see the module comment). */
export class DebugTrace {
  readonly count: number;
  readonly pcMode: 'post' | 'pre';
  readonly frames: ExternalFrame[] = [];
  readonly calls: CallNode[] = [];
  readonly places: Place[] = [];
  /** Per step: its external frame, its call (CallNode id), the operation's own pc, its place (-1: none). */
  readonly frameOf: Int32Array;
  readonly callOf: Int32Array;
  readonly pcOf: Int32Array;
  readonly placeOf: Int32Array;
  /** Per step: the previous step of the same frame (-1: the frame's first). */
  readonly prevInFrame: Int32Array;
  /** Per step: 1 where a statement starts (see the module comment). */
  readonly entry: Uint8Array;
  /** The failing step (the innermost failing frame's last operation), when the call failed. */
  readonly failing: number;
  /** The call stack of the failure, as revert to source reads it. */
  readonly failed: boolean;
  readonly notes: string[] = [];
  /** `sourceName:line` → line key. */
  private readonly lineKeys = new Map<string, number>();
  private readonly lineNames: string[] = [];
  /** Line key → the entry steps on that line, in order. */
  private readonly entriesByLine = new Map<number, number[]>();

  constructor(readonly input: TraceInput) {
    const ops = input.opcodes;
    const n = ops.length;
    this.count = n;
    this.pcMode = input.pcMode ?? pcModeOf(ops);
    this.frameOf = new Int32Array(n);
    this.callOf = new Int32Array(n);
    this.pcOf = new Int32Array(n);
    this.placeOf = new Int32Array(n).fill(-1);
    this.prevInFrame = new Int32Array(n).fill(-1);
    this.entry = new Uint8Array(n);
    this.index();
    const stack = n ? callStackOf(ops, input.actions, { top: input.top, pcMode: this.pcMode }) : undefined;
    this.failed = !!stack?.failed;
    this.failing = stack?.failed && stack.frames.length ? stack.frames[0].opcodeIndex : -1;
    if (stack?.failed && this.failing >= (input.exactSteps ?? n))
      this.failurePlace = {
        exact: false,
        why: "the local replay diverged from the network's record before this step, so no line after it is exact",
      };
    else if (stack?.failed && this.failing >= 0) {
      // the failing operation: placed as revert to source places it (confirmed against the AST, else not a line)
      const placed = placeFailure(stack, ops, (sf) => {
        const f = this.frames[this.frameOf[sf.opcodeIndex]];
        return f?.build;
      });
      const first = placed.frames[0];
      if (placed.exact && first?.location) {
        const location = first.location;
        const id = this.places.length;
        this.places.push({ id, location, line: this.lineKey(location.sourceName, location.line) });
        this.placeOf[this.failing] = id;
        this.failurePlace = { exact: true };
      } else
        this.failurePlace = {
          exact: false,
          why: placed.likely?.why ?? first?.problem ?? 'the source map does not confirm the failing operation',
        };
    }
  }

  /** Whether the failing operation has a confirmed line, and why not. */
  failurePlace?: { exact: true } | { exact: false; why: string };

  private index(): void {
    const { opcodes: ops, actions, top } = this.input;
    const n = this.count;
    const exactSteps = this.input.exactSteps ?? n;
    if (!n) {
      this.notes.push('The step trace is empty.');
      return;
    }
    // actions in execution order
    const acts: TraceAction[] = Array.isArray(actions)
      ? actions
          .filter((a) => a && typeof a === 'object')
          .map((a, i) => [a, i] as const)
          .sort((x, y) => (num(x[0].index) || 0) - (num(y[0].index) || 0) || x[1] - y[1])
          .map(([a]) => a)
      : [];
    const baseDepth = acts.length ? num(acts[0].call_depth) || 0 : 0;
    const logBase = num(ops[0].depth) || 0;
    let cursor = 0;
    const nextAction = (rel: number, pseudo: boolean): TraceAction | undefined => {
      while (cursor < acts.length) {
        const ad = (num(acts[cursor].call_depth) || 0) - baseDepth;
        if (ad < rel) return undefined;
        const a = acts[cursor++];
        if (ad === rel && entersFrame(a, pseudo)) return a;
      }
      return undefined;
    };
    const buildCache = new Map<string, FrameBuild | undefined>();
    const newFrame = (
      depth: number,
      first: number,
      parent: ExternalFrame | undefined,
      site: number,
      pseudo: boolean,
    ) => {
      const a = acts.length ? nextAction(depth - logBase, pseudo) : undefined;
      const f: ExternalFrame = {
        id: this.frames.length,
        depth,
        first,
        last: first,
        parent,
        callSite: site,
        precompile: pseudo,
        root: undefined as unknown as CallNode,
      };
      if (a) {
        if (typeof a.to === 'string' && a.to) f.address = a.to.toLowerCase();
        if (typeof a.recipient === 'string' && a.recipient) f.entity = a.recipient;
        if (a.call_operation_type) f.operation = a.call_operation_type;
        const input = typeof a.input === 'string' ? a.input.toLowerCase() : '';
        const create =
          a.call_operation_type === 'CREATE' || a.call_operation_type === 'CREATE2' || a.call_type === 'CREATE';
        if (create && /^0x[0-9a-f]+$/.test(input)) f.creation = { initCode: input };
        else if (/^0x[0-9a-f]{8}/.test(input)) f.selector = input.slice(0, 10);
        if (input) f.input = input;
        if (typeof a.from === 'string' && a.from) f.from = a.from.toLowerCase();
        const v = big(a.value);
        if (v !== undefined) f.value = v;
        if (typeof a.result_data === 'string') f.result = a.result_data;
        if (typeof a.result_data_type === 'string') f.resultType = a.result_data_type;
      } else if (!parent && top) {
        if (top.address) f.address = top.address.toLowerCase();
        if (top.entity) f.entity = top.entity;
      }
      // a DELEGATECALL runs in its caller's context: msg.sender and msg.value are the caller's
      if (f.operation === 'DELEGATECALL' && parent) {
        if (parent.from) f.from = parent.from;
        if (parent.value !== undefined) f.value = parent.value;
      }
      if (pseudo) f.problem = 'A system contract or precompile: no code of a build ran there.';
      else {
        const key = f.creation ? `create:${f.creation.initCode}` : `${f.address ?? ''}|${f.entity ?? ''}`;
        let fb = buildCache.get(key);
        if (!buildCache.has(key)) {
          fb = this.input.resolve({ address: f.address, entity: f.entity, creation: f.creation });
          buildCache.set(key, fb);
        }
        if (!fb)
          f.problem = f.address
            ? `No build matches the contract at ${f.address}.`
            : 'The contract of this frame is not known.';
        else if (fb.match && !fb.match.match) {
          f.build = fb;
          f.problem = fb.match.reason;
        } else {
          f.build = fb;
          const part = fb.part ?? (f.creation ? 'creation' : 'runtime');
          f.locator = ContractLocator.of(fb.build, fb.contract, part);
          if (!f.locator) f.problem = `The build has no ${part} source map for ${fb.contract}.`;
        }
      }
      const parentCall = parent && site >= 0 ? this.calls[this.callOf[site]] : undefined;
      f.root = this.newCall(f, undefined, first, -1, parentCall ? parentCall.level + 1 : 0);
      this.frames.push(f);
      return f;
    };

    let cur = newFrame(num(ops[0].depth) || 0, 0, undefined, -1, false);
    let call = cur.root;
    /** Per frame: its current call, the last reported pc and whether that op suspended it for a call. */
    const callIn = new Map<ExternalFrame, CallNode>();
    const lastPc = new Map<ExternalFrame, { pc: number; step: number; call: boolean }>();
    /** Per call: the line key of its last placed step. */
    const lastLine = new Map<CallNode, number>();
    const pendingJump = new Map<ExternalFrame, 'i' | 'o'>();
    const pre = this.pcMode === 'pre';

    for (let i = 0; i < n; i++) {
      const e = ops[i];
      const d = typeof e.depth === 'number' ? e.depth : num(e.depth);
      if (i > 0 && d !== cur.depth) {
        if (d > cur.depth) {
          callIn.set(cur, call);
          cur = newFrame(d, i, cur, i - 1, e.op === '');
          call = cur.root;
        } else {
          let f: ExternalFrame | undefined = cur;
          while (f && f.depth > d) f = f.parent;
          if (!f || f.depth !== d) {
            this.notes.push(`The log goes from depth ${cur.depth} to ${d} at step ${i}: it does not start at the top.`);
            cur = newFrame(d, i, undefined, -1, false);
            call = cur.root;
          } else {
            cur = f;
            call = callIn.get(cur) ?? cur.root;
          }
        }
      }
      cur.last = i;
      for (let p = cur.parent; p; p = p.parent) p.last = i;
      // the operation's own pc
      const reported = typeof e.pc === 'number' ? e.pc : num(e.pc);
      const prev = lastPc.get(cur);
      const own = pre ? reported : !prev ? 0 : prev.call ? prev.pc + 1 : prev.pc;
      this.pcOf[i] = own;
      this.prevInFrame[i] = prev ? prev.step : -1;
      lastPc.set(cur, { pc: reported, step: i, call: e.op !== null && CALL_OPS.has(e.op) });
      // a jump into or out of a function took effect: this step is in the new call
      const jump = pendingJump.get(cur);
      if (jump) {
        pendingJump.delete(cur);
        if (jump === 'i') call = this.newCall(cur, call, i, prev?.step ?? -1, call.level + 1);
        else if (call.parent) call = call.parent;
      }
      this.frameOf[i] = cur.id;
      this.callOf[i] = call.id;
      const loc = cur.locator;
      if (!loc) continue;
      const exact = i < exactSteps;
      const range = loc.rangeAt(own);
      if (e.op === 'JUMP' && loc.opcodeAt(own) === JUMP && (range?.jump === 'i' || range?.jump === 'o'))
        pendingJump.set(cur, range.jump);
      if (exact && call.entry === i && call.callStep >= 0 && call.name === undefined)
        call.name = functionName(loc, own);
      const place = exact ? this.placeAt(cur, own) : -1;
      if (place < 0) continue;
      this.placeOf[i] = place;
      const line = this.places[place].line;
      if (lastLine.get(call) !== line) {
        this.entry[i] = 1;
        lastLine.set(call, line);
        let list = this.entriesByLine.get(line);
        if (!list) this.entriesByLine.set(line, (list = []));
        list.push(i);
      }
    }
  }

  private newCall(frame: ExternalFrame, parent: CallNode | undefined, entry: number, callStep: number, level: number) {
    const c: CallNode = { id: this.calls.length, frame, parent, entry, callStep, level };
    this.calls.push(c);
    return c;
  }

  /** Place cache: `frame build|part|range` → place id (-1: not a line). */
  private readonly placeCache = new Map<string, number>();

  private placeAt(f: ExternalFrame, pc: number): number {
    const loc = f.locator as ContractLocator;
    const fb = f.build as FrameBuild;
    const r = loc.rangeAt(pc);
    if (!r || r.file < 0 || r.start < 0) return -1;
    const key = `${fb.contract}|${loc.part}|${f.selector ?? ''}|${r.file}:${r.start}:${r.length}`;
    const hit = this.placeCache.get(key);
    if (hit !== undefined) return hit;
    let id = -1;
    const location = loc.locateRange(r);
    // a function's header (its return variables zeroed) is not a statement
    if (location && !location.generated && !inParameterList(fb.build, r.file, r.start, r.length)) {
      // any statement or expression of a function the frame could run: what revert to source confirms for a halt
      const c = confirmLocation({
        build: fb.build,
        contract: fb.contract,
        location,
        kind: 'halt',
        selector: f.selector,
        creation: loc.part === 'creation',
      });
      if (c.confirmed) {
        id = this.places.length;
        this.places.push({ id, location, line: this.lineKey(location.sourceName, location.line) });
      }
    }
    this.placeCache.set(key, id);
    return id;
  }

  private lineKey(sourceName: string, line: number): number {
    const k = `${sourceName}:${line}`;
    let id = this.lineKeys.get(k);
    if (id === undefined) {
      id = this.lineNames.length;
      this.lineKeys.set(k, id);
      this.lineNames.push(k);
    }
    return id;
  }

  /** The line key of a source and line, when a step of the trace is on it. */
  lineOf(sourceName: string, line: number): number | undefined {
    return this.lineKeys.get(`${sourceName}:${line}`);
  }

  /** The steps where a statement on that line starts (empty: the execution never reached it). */
  entriesOn(sourceName: string, line: number): readonly number[] {
    const k = this.lineOf(sourceName, line);
    return k === undefined ? [] : (this.entriesByLine.get(k) ?? []);
  }

  /** The place of a step (its confirmed line), or undefined (shown in the disassembly). */
  place(step: number): Place | undefined {
    const p = step >= 0 && step < this.count ? this.placeOf[step] : -1;
    return p >= 0 ? this.places[p] : undefined;
  }

  level(step: number): number {
    return this.calls[this.callOf[step]].level;
  }

  /**
   * Where Restart Frame puts a call: its first statement on a confirmed line, as Step Into stops there; the call's
   * first step when none is (the disassembly).
   */
  firstStatement(call: CallNode): number {
    for (let j = call.entry; j >= 0 && j < this.count; j++) {
      if (this.calls[this.callOf[j]].level < call.level) break; // the call returned
      if (this.callOf[j] === call.id && this.entry[j] && this.placeOf[j] >= 0) return j;
    }
    return call.entry;
  }

  /** The call stack at a step: innermost call first (internal calls and external frames' roots). */
  stackAt(step: number): { call: CallNode; step: number }[] {
    const out: { call: CallNode; step: number }[] = [];
    let c: CallNode | undefined = this.calls[this.callOf[step]];
    let at = step;
    while (c) {
      out.push({ call: c, step: at });
      if (c.parent) {
        at = c.callStep >= 0 ? c.callStep : at;
        c = c.parent;
      } else {
        const f = c.frame;
        if (!f.parent || f.callSite < 0) break;
        at = f.callSite;
        c = this.calls[this.callOf[at]];
      }
    }
    return out;
  }

  /**
   * Where a step command moves from `step`: forward (or backward with `back`) to the next statement start at the same
   * call level or above (`over`), at any level (`into`), or above (`out`). At the end of the trace, its last step;
   * at the start, step 0. `instruction`: one step (the disassembly's granularity).
   */
  move(step: number, kind: StepKind, back = false, instruction = false): number {
    const n = this.count;
    if (!n) return 0;
    if (instruction) return Math.max(0, Math.min(n - 1, step + (back ? -1 : 1)));
    const level = this.level(step);
    const call = this.callOf[step];
    const line = this.placeOf[step] >= 0 ? this.places[this.placeOf[step]].line : -1;
    const dir = back ? -1 : 1;
    for (let j = step + dir; j >= 0 && j < n; j += dir) {
      if (this.placeOf[j] < 0) continue;
      const lj = this.calls[this.callOf[j]].level;
      // back in a caller (the function returned, or before it was called): its line, statement start or not
      if (lj < level) return j;
      if (kind === 'out' || (kind === 'over' && lj > level)) continue;
      // back: a statement start on the line it is on now (in the same call) is not a move
      if (back && this.callOf[j] === call && this.places[this.placeOf[j]].line === line) continue;
      if (this.entry[j]) return j;
    }
    // none: forward, the failing step or the end; backward, the start
    if (back) return 0;
    return this.failing > step ? this.failing : n - 1;
  }

  /**
   * The next (or, with `back`, previous) statement start on one of the lines, at which `accept` agrees (a
   * condition); undefined when there is none.
   */
  findBreak(
    step: number,
    lines: ReadonlySet<number>,
    back = false,
    accept: (step: number) => boolean = () => true,
  ): number | undefined {
    const dir = back ? -1 : 1;
    for (let j = step + dir; j >= 0 && j < this.count; j += dir) {
      if (!this.entry[j]) continue;
      const p = this.placeOf[j];
      if (p >= 0 && lines.has(this.places[p].line) && accept(j)) return j;
    }
    return undefined;
  }

  /** Every source of the builds the trace ran through, by name (the debugger opens the compiled text read-only). */
  sources(): Map<string, { content?: string; generated: boolean }> {
    const out = new Map<string, { content?: string; generated: boolean }>();
    for (const f of this.frames)
      for (const u of f.locator?.units.values() ?? [])
        if (!out.has(u.name)) out.set(u.name, { content: u.content, generated: u.generated });
    return out;
  }

  /** The ABI of a frame's contract (from its build), when there is one. */
  abiOf(f: ExternalFrame): unknown[] | undefined {
    const c = f.build ? contractOf(f.build.build, f.build.contract) : undefined;
    return Array.isArray(c?.abi) ? c.abi : undefined;
  }

  /** The frame whose storage a frame uses (a DELEGATECALL's caller's). */
  storageFrame(f: ExternalFrame): ExternalFrame {
    return storageFrameOf(f);
  }
}

/**
 * The frame whose storage and address a frame runs with: a DELEGATECALL (or CALLCODE) runs its code in its caller's
 * context, so a proxy's implementation and a library run as the proxy and the library's caller.
 */
export function storageFrameOf(f: ExternalFrame): ExternalFrame {
  let s = f;
  while ((s.operation === 'DELEGATECALL' || s.operation === 'CALLCODE') && s.parent) s = s.parent;
  return s;
}

/** The function a jump entered: its name, from the source text at the entry (the function's definition). */
function functionName(loc: ContractLocator, pc: number): string | undefined {
  const l = loc.locate(pc);
  if (!l) return undefined;
  const m = /^\s*(?:function|modifier)\s+([A-Za-z_$][\w$]*)/.exec(l.text);
  return m ? m[1] : undefined;
}
