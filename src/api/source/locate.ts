/**
 * Program counter → Solidity source: the compiled contract's runtime code gives the instruction index (PUSH data
 * skipped), its source map the source index, byte offset and length, the build's sources (and the contract's
 * generated ones) the file and its text, and `SourceText` the line and column.
 *
 * A whole call stack (./callStack) is located frame by frame. Within a frame, the log's jumps into and out of
 * functions (the source map's `i` / `o` marks) give the internal call stack: when the failing operation lies in code
 * the compiler generated (a checked-arithmetic helper that panics, an ABI decoder) or in no source at all, the frame's
 * location is the innermost Solidity call site of that helper (`x * x` for an overflow), and the generated place is
 * kept beside it. A frame whose code on chain is not the build's (./bytecodeMatch) gets no location, and says why.
 * Plain TypeScript, no `vscode`.
 */
import type { BytecodeMatch } from './bytecodeMatch';
import type { CallStack, OpcodeEntry, StackFrame } from './callStack';
import {
  type CodePart,
  type SolcBuildLike,
  type SolcContractLike,
  type SourceRange,
  SourceText,
  type SourceUnit,
  codeBytes,
  contractOf,
  decodeSourceMap,
  instructionIndexes,
  sourceUnits,
} from './sourceMap';

/** A place in a source. */
export interface SourceLocation {
  /** The source unit name (`contracts/inspector/Vault.sol`) or the generated source's (`#utility.yul`). */
  sourceName: string;
  /** The source map's source index. */
  fileIndex: number;
  /** Byte offset and length in the source (UTF-8). */
  start: number;
  length: number;
  /** 1-based; columns in UTF-16 code units. */
  line: number;
  column: number;
  endLine: number;
  endColumn: number;
  /** The source text of the range (at most SNIPPET characters, then `…`). */
  text: string;
  /** The whole first line of the range. */
  lineText: string;
  /** Code the compiler generated (not a file of the project). */
  generated: boolean;
  /** The instruction's jump mark. */
  jump: SourceRange['jump'];
}

export const SNIPPET = 240;

const JUMP = 0x56;

/** The source map of one contract's runtime code, with its sources; built once per contract (cached per build). */
export class ContractLocator {
  readonly code: Uint8Array;
  readonly entries: SourceRange[];
  readonly pcToIndex: Int32Array;
  readonly units: Map<number, SourceUnit>;
  private readonly texts = new Map<number, SourceText | null>();

  private constructor(
    readonly identifier: string,
    readonly contract: SolcContractLike,
    build: SolcBuildLike,
    readonly part: CodePart,
  ) {
    const code = part === 'creation' ? contract.evm?.bytecode : contract.evm?.deployedBytecode;
    this.code = codeBytes(code?.object ?? '');
    this.entries = decodeSourceMap(code?.sourceMap ?? '');
    this.pcToIndex = instructionIndexes(this.code);
    this.units = sourceUnits(build, contract, part);
  }

  private static cache = new WeakMap<SolcBuildLike, Map<string, ContractLocator | null>>();

  /**
   * The locator of `path:Name` in a build (its runtime code, or its creation code for a failed creation), or
   * undefined when the build has no such code or no source map for it.
   */
  static of(build: SolcBuildLike, identifier: string, part: CodePart = 'runtime'): ContractLocator | undefined {
    let byId = ContractLocator.cache.get(build);
    if (!byId) ContractLocator.cache.set(build, (byId = new Map()));
    const key = `${part}|${identifier}`;
    let hit = byId.get(key);
    if (hit === undefined) {
      const c = contractOf(build, identifier);
      const code = part === 'creation' ? c?.evm?.bytecode : c?.evm?.deployedBytecode;
      hit = c && code?.object && code.sourceMap ? new ContractLocator(identifier, c, build, part) : null;
      byId.set(key, hit);
    }
    return hit ?? undefined;
  }

  /** The instruction index at `pc` (-1: PUSH data, or past the code). */
  instructionIndex(pc: number): number {
    return Number.isInteger(pc) && pc >= 0 && pc < this.pcToIndex.length ? this.pcToIndex[pc] : -1;
  }

  /** The opcode at `pc` (-1 past the code). */
  opcodeAt(pc: number): number {
    return Number.isInteger(pc) && pc >= 0 && pc < this.code.length ? this.code[pc] : -1;
  }

  /** The source map entry of the instruction at `pc`. */
  rangeAt(pc: number): SourceRange | undefined {
    const i = this.instructionIndex(pc);
    return i >= 0 ? this.entries[i] : undefined;
  }

  private textOf(file: number): SourceText | undefined {
    let t = this.texts.get(file);
    if (t === undefined) {
      const content = this.units.get(file)?.content;
      t = typeof content === 'string' ? new SourceText(content) : null;
      this.texts.set(file, t);
    }
    return t ?? undefined;
  }

  /** A source map range as a place in its source, or undefined (no source, an unknown index, no text). */
  locateRange(r: SourceRange | undefined): SourceLocation | undefined {
    if (!r || r.file < 0 || r.start < 0) return undefined;
    const unit = this.units.get(r.file);
    const text = this.textOf(r.file);
    return unit && text ? placeOf(unit, text, r) : undefined;
  }

  /** The place of the instruction at `pc`, or undefined. */
  locate(pc: number): SourceLocation | undefined {
    return this.locateRange(this.rangeAt(pc));
  }
}

/** A range of a source as a place in it (see SourceLocation). */
export function placeOf(
  unit: SourceUnit,
  text: SourceText,
  r: Pick<SourceRange, 'start' | 'length' | 'file'> & { jump?: SourceRange['jump'] },
): SourceLocation {
  const from = text.position(r.start);
  const to = text.position(r.start + Math.max(r.length, 0));
  const snippet = text.slice(r.start, r.length);
  return {
    sourceName: unit.name,
    fileIndex: r.file,
    start: r.start,
    length: r.length,
    line: from.line,
    column: from.column,
    endLine: to.line,
    endColumn: to.column,
    text: snippet.length > SNIPPET ? `${snippet.slice(0, SNIPPET)}…` : snippet,
    lineText: text.lineText(from.line),
    generated: unit.generated,
    jump: r.jump ?? '-',
  };
}

/** The sources of a build (not a contract's generated ones), to place AST `src` ranges; cached per build. */
export class BuildSources {
  readonly units: Map<number, SourceUnit>;
  private readonly texts = new Map<number, SourceText | null>();
  private static cache = new WeakMap<SolcBuildLike, BuildSources>();

  private constructor(build: SolcBuildLike) {
    this.units = sourceUnits(build);
  }

  static of(build: SolcBuildLike): BuildSources {
    let s = BuildSources.cache.get(build);
    if (!s) BuildSources.cache.set(build, (s = new BuildSources(build)));
    return s;
  }

  /** An AST node's `src` (`start:length:index`) as a place, or undefined. */
  locateSrc(src: unknown): SourceLocation | undefined {
    const m = typeof src === 'string' ? /^(\d+):(\d+):(-?\d+)$/.exec(src) : null;
    if (!m) return undefined;
    const r = { start: Number(m[1]), length: Number(m[2]), file: Number(m[3]) };
    const unit = this.units.get(r.file);
    if (!unit || r.file < 0) return undefined;
    let t = this.texts.get(r.file);
    if (t === undefined)
      this.texts.set(r.file, (t = typeof unit.content === 'string' ? new SourceText(unit.content) : null));
    return t ? placeOf(unit, t, r) : undefined;
  }
}

/** `path:Name` in a build: the source map of one contract. */
export function locatePc(build: SolcBuildLike, identifier: string, pc: number): SourceLocation | undefined {
  return ContractLocator.of(build, identifier)?.locate(pc);
}

/** The build and contract a frame's code comes from, as the caller matched it (deployment records, bytecode). */
export interface FrameBuild {
  build: SolcBuildLike;
  /** `path:Name`. */
  contract: string;
  /** The result of comparing the build's runtime bytecode with the code on chain, when it was compared. */
  match?: BytecodeMatch;
  /** `creation`: the frame ran the contract's creation code (a failed deployment). */
  part?: CodePart;
}

export interface LocatedFrame {
  frame: StackFrame;
  /** `path:Name` of the build's contract, when one was matched. */
  contract?: string;
  /** Where in the Solidity source (the failing statement, or the call site). */
  location?: SourceLocation;
  /** The failing operation's own place when that is code the compiler generated (`location` is then its caller). */
  generated?: SourceLocation;
  /** The internal calls active in this frame at that operation: their call sites, outermost first. */
  internal: SourceLocation[];
  /** Why there is no location (no build, a bytecode mismatch, a pc outside the code, no source). */
  problem?: string;
  /** The failing frame: the program counters of the operations before the failing one (at most 256, oldest first). */
  path?: number[];
}

const isUser = (l: SourceLocation | undefined): boolean => !!l && !l.generated;
const n = (v: unknown): number => (typeof v === 'number' ? v : typeof v === 'bigint' ? Number(v) : Number(v ?? NaN));
const CALL_OPS = new Set(['CALL', 'CALLCODE', 'DELEGATECALL', 'STATICCALL', 'CREATE', 'CREATE2']);

/** How many operations before the failing one `walkFrame` keeps (for the shared-revert check). */
const RECENT = 256;

/**
 * Walks the frame's log entries from its first one to entry `target` (deeper entries skipped): the own program
 * counters of the JUMPs into functions still open there, and of the last RECENT operations before it. `post` logs
 * give each entry's pc after the operation: an operation's own pc is then the previous entry's (the previous
 * call's + 1, or 0 for the first).
 */
function walkFrame(
  opcodes: ArrayLike<OpcodeEntry>,
  first: number,
  target: number,
  depth: number,
  loc: ContractLocator,
  mode: 'post' | 'pre',
): { open: number[]; recent: number[] } {
  const open: number[] = [];
  const ring = new Int32Array(RECENT);
  let seen = 0;
  let prevPc = -1;
  let prevCall = false;
  for (let i = first; i < target; i++) {
    const e = opcodes[i];
    const d = typeof e.depth === 'number' ? e.depth : n(e.depth);
    if (d !== depth) continue;
    const reported = typeof e.pc === 'number' ? e.pc : n(e.pc);
    const own = mode === 'pre' ? reported : prevPc < 0 ? 0 : prevCall ? prevPc + 1 : prevPc;
    const op = e.op;
    prevCall = op !== null && CALL_OPS.has(op);
    prevPc = reported;
    ring[seen++ % RECENT] = own;
    if (op !== 'JUMP') continue;
    if (loc.opcodeAt(own) !== JUMP) continue; // the log and the code disagree here: ignore this entry
    const r = loc.rangeAt(own);
    if (r?.jump === 'i') open.push(own);
    else if (r?.jump === 'o') open.pop();
  }
  const count = Math.min(seen, RECENT);
  const recent: number[] = new Array(count);
  for (let k = 0; k < count; k++) recent[k] = ring[(seen - count + k) % RECENT];
  return { open, recent };
}

const sameRange = (a: SourceRange, b: SourceRange): boolean =>
  a.file === b.file && a.start === b.start && a.length === b.length;
const within = (a: SourceRange, b: SourceRange): boolean =>
  a.file === b.file && a.start >= b.start && a.start + a.length <= b.start + b.length;

/**
 * The optimizer shares the tail of reverts (the REVERT and the code before it) between statements: the source map
 * then names the first statement that had it, for all. Walking back from the failing operation past that shared
 * run (entries with the failing operation's range) and past generated code, the first Solidity range met tells: when
 * it is inside that range, or holds it (the `if` around a `revert`), the range stands; otherwise the revert came from
 * the statement met (it jumped into the shared tail).
 */
function sharedRevertSite(loc: ContractLocator, recent: number[], failing: SourceRange): SourceRange | undefined {
  for (let k = recent.length - 1; k >= 0; k--) {
    const r = loc.rangeAt(recent[k]);
    if (!r || r.file < 0 || r.start < 0) continue;
    if (sameRange(r, failing)) continue;
    // generated code, or a source the build does not list (a build without `generatedSources`): not a statement
    const unit = loc.units.get(r.file);
    if (!unit || unit.generated) continue;
    return within(r, failing) || within(failing, r) ? undefined : r;
  }
  return undefined;
}

/**
 * Locates every frame of a call stack. `resolve` names the build of a frame's code (by its address or entity), or
 * nothing when none is known; a match result that is not a match withholds the location (the source differs from
 * what was deployed). `opcodes` is the log the stack was read from (for the internal calls).
 */
export function locateCallStack(
  stack: CallStack,
  opcodes: ArrayLike<OpcodeEntry>,
  resolve: (frame: StackFrame) => FrameBuild | undefined,
): LocatedFrame[] {
  return stack.frames.map((frame) => locateFrame(frame, stack.pcMode, opcodes, resolve(frame)));
}

/** One frame of a call stack (see locateCallStack). */
export function locateFrame(
  frame: StackFrame,
  mode: 'post' | 'pre',
  opcodes: ArrayLike<OpcodeEntry>,
  fb: FrameBuild | undefined,
): LocatedFrame {
  if (frame.precompile) return { frame, internal: [], problem: 'A system contract or precompile: no source.' };
  if (!fb)
    return {
      frame,
      internal: [],
      problem: frame.address
        ? `No build of the workspace matches the contract at ${frame.address}.`
        : 'The contract of this frame is not known.',
    };
  if (fb.match && !fb.match.match) return { frame, contract: fb.contract, internal: [], problem: fb.match.reason };
  const part = fb.part ?? 'runtime';
  const loc = ContractLocator.of(fb.build, fb.contract, part);
  if (!loc)
    return {
      frame,
      contract: fb.contract,
      internal: [],
      problem: `The build has no ${part} source map for ${fb.contract}.`,
    };
  if (loc.instructionIndex(frame.pc) < 0) {
    return {
      frame,
      contract: fb.contract,
      internal: [],
      problem: `pc ${frame.pc} is not an instruction of ${fb.contract}'s ${part} code (${loc.code.length} bytes).`,
    };
  }
  let own = loc.locate(frame.pc);
  const walk = walkFrame(opcodes, frame.firstOpcodeIndex, frame.opcodeIndex, frame.depth, loc, mode);
  const internal: SourceLocation[] = [];
  for (const pc of walk.open) {
    const l = loc.locate(pc);
    if (l && isUser(l)) internal.push(l);
  }
  const failingRange = loc.rangeAt(frame.pc);
  if (own && isUser(own) && failingRange && (frame.kind === 'revert' || frame.kind === 'invalid')) {
    const site = loc.locateRange(sharedRevertSite(loc, walk.recent, failingRange));
    if (site) own = site;
  }
  const path = frame.kind === 'callSite' ? {} : { path: walk.recent };
  if (own && isUser(own)) return { frame, contract: fb.contract, location: own, internal, ...path };
  const caller = internal.length ? internal[internal.length - 1] : undefined;
  if (caller)
    return {
      frame,
      contract: fb.contract,
      location: caller,
      ...(own ? { generated: own } : {}),
      internal: internal.slice(0, -1),
      ...path,
    };
  return {
    frame,
    contract: fb.contract,
    ...(own ? { generated: own } : {}),
    internal,
    ...path,
    problem: own
      ? `pc ${frame.pc} is in code the compiler generated (${own.sourceName}), called from no Solidity line the log shows.`
      : `The source map gives no source for pc ${frame.pc}.`,
  };
}
