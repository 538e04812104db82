/**
 * The `hedera` debug adapter: a DebugSession (@vscode/debugadapter) over a recorded transaction (src/api/debug),
 * run inline in the extension host (no separate process). It answers the Debug Adapter Protocol as VS Code sends it:
 * launch (the trace is loaded by the `load` function it is given), breakpoints by file and line (with conditions on
 * argument, storage and message names), one thread, a call stack of external frames and internal function calls,
 * scopes and variables, evaluate, the steps forward and back (Step Back, Reverse Continue), Restart Frame, the
 * disassembly of a frame's code, and the read-only text of compiled sources. It stops on the revert (an exception,
 * with the decoded reason) or on entry, and writes the events emitted so far to the Debug Console.
 *
 * No `vscode` here (the unit tests drive it in plain Node through the protocol); what it needs of the host comes in
 * `DebugHost`.
 */
import {
  Breakpoint,
  DebugSession,
  Handles,
  InitializedEvent,
  OutputEvent,
  Scope,
  Source,
  StackFrame,
  StoppedEvent,
  TerminatedEvent,
  Thread,
} from '@vscode/debugadapter';
import type { DebugProtocol } from '@vscode/debugprotocol';
import * as l10n from '@vscode/l10n';
import {
  type Variable,
  argumentsOf,
  eventsUntil,
  evmVariables,
  functionOf,
  memoryBytes,
  messageOf,
  returnValuesOf,
  revertReason,
  stackAt,
  stepOfMemoryRef,
  storageVariables,
} from '../../api/debug/state';
import type { CallNode, DebugTrace, ExternalFrame } from '../../api/debug/trace';
import { instructionSize } from '../../api/source/sourceMap';
import { opcodeName } from '../../api/debug/opcodes';
import { localsOf } from '../../api/debug/locals';

/** The launch configuration of a `hedera` debug session. */
export interface HederaLaunchArguments extends DebugProtocol.LaunchRequestArguments {
  /** The transaction: an id in either form, a hash, a consensus timestamp or a HashScan link. */
  transaction?: string;
  /** The network (a profile name); the selected one when absent. */
  network?: string;
  /** Stop on the first step instead of on the revert. */
  stopOnEntry?: boolean;
}

/** A loaded transaction: its indexed trace and where its sources are. */
export interface LoadedTransaction {
  trace: DebugTrace;
  /** The transaction's name for the thread (its id). */
  title: string;
  /** Notes on how it was loaded (the trace's source, what could not be resolved). */
  notes?: string[];
  /** The workspace file of a compiled source when it holds that very text; undefined: shown read-only. */
  pathOf?(sourceName: string): string | undefined;
  /** The compiled source a workspace file is (for breakpoints set in it). */
  sourceNameOf?(path: string): string | undefined;
}

/** What the session needs of the host. */
export interface DebugHost {
  load(args: HederaLaunchArguments): Promise<LoadedTransaction>;
}

const THREAD = 1;
/** Instruction addresses: the frame in the high bits, the pc in the low 32 (one address space per frame's code). */
const FRAME_SHIFT = 32n;
const address = (frame: number, pc: number): string =>
  `0x${((BigInt(frame) << FRAME_SHIFT) | BigInt(pc)).toString(16)}`;

interface ShownFrame {
  call: CallNode;
  step: number;
}

const CONDITION = /^\s*([A-Za-z_$][\w$.]*(?:\[[^\]]*\])*)\s*(==|!=|>=|<=|>|<)\s*(.+?)\s*$/;

export class HederaDebugSession extends DebugSession {
  private tx?: LoadedTransaction;
  private step = 0;
  private configured?: () => void;
  private readonly configurationDone = new Promise<void>((r) => (this.configured = r));
  private readonly handles = new Handles<Variable[]>();
  /** Per stop: the frames shown (id = index). */
  private shown: ShownFrame[] = [];
  /** Breakpoints: source name → line → condition. */
  private readonly breakpoints = new Map<string, Map<number, string | undefined>>();
  private readonly sourceRefs = new Map<string, number>();
  private readonly sourceByRef = new Map<number, string>();
  private eventsShown = 0;
  private revertShown = false;

  constructor(private readonly host: DebugHost) {
    super();
    this.setDebuggerLinesStartAt1(true);
    this.setDebuggerColumnsStartAt1(true);
  }

  protected initializeRequest(response: DebugProtocol.InitializeResponse): void {
    response.body = {
      ...response.body,
      supportsConfigurationDoneRequest: true,
      supportsStepBack: true,
      supportsRestartFrame: true,
      supportsConditionalBreakpoints: true,
      supportsEvaluateForHovers: true,
      supportsDisassembleRequest: true,
      supportsReadMemoryRequest: true,
      supportsSteppingGranularity: true,
      supportsInstructionBreakpoints: false,
      supportsExceptionInfoRequest: true,
      supportsLoadedSourcesRequest: true,
      supportsTerminateRequest: true,
    };
    this.sendResponse(response);
  }

  protected configurationDoneRequest(response: DebugProtocol.ConfigurationDoneResponse): void {
    this.configured?.();
    this.sendResponse(response);
  }

  protected async launchRequest(response: DebugProtocol.LaunchResponse, args: HederaLaunchArguments): Promise<void> {
    try {
      this.tx = await this.host.load(args);
    } catch (e) {
      this.sendErrorResponse(response, {
        id: 1,
        format: e instanceof Error ? e.message : String(e),
        showUser: true,
      });
      this.sendEvent(new TerminatedEvent());
      return;
    }
    const t = this.tx.trace;
    // breakpoints come after `initialized`, before configurationDone
    this.sendEvent(new InitializedEvent());
    this.sendResponse(response);
    await this.configurationDone;
    const frames = t.frames.length;
    this.output(
      l10n.t(
        'Debugging {0}: {1} steps in {2} call frames (recorded; stepping moves through the record).',
        this.tx.title,
        String(t.count),
        String(frames),
      ),
    );
    for (const n of [...(this.tx.notes ?? []), ...t.notes]) this.output(n);
    if (t.failurePlace && !t.failurePlace.exact)
      this.output(l10n.t('The failing operation is shown in the disassembly: {0}.', t.failurePlace.why));
    if (args.stopOnEntry || t.failing < 0) {
      const first = args.stopOnEntry ? 0 : (t.findBreak(-1, this.breakLines()) ?? t.count - 1);
      this.stopAt(first, args.stopOnEntry ? 'entry' : first === t.count - 1 ? 'step' : 'breakpoint');
    } else {
      const bp = t.findBreak(-1, this.breakLines(), false, (s) => s < t.failing && this.conditionHolds(s));
      if (bp !== undefined) this.stopAt(bp, 'breakpoint');
      else this.stopAt(t.failing, 'exception');
    }
  }

  protected threadsRequest(response: DebugProtocol.ThreadsResponse): void {
    response.body = { threads: [new Thread(THREAD, this.tx?.title ?? 'transaction')] };
    this.sendResponse(response);
  }

  // ------------------------------------------------------------------ breakpoints

  protected setBreakPointsRequest(
    response: DebugProtocol.SetBreakpointsResponse,
    args: DebugProtocol.SetBreakpointsArguments,
  ): void {
    const name = this.sourceNameOfSource(args.source);
    const lines = new Map<number, string | undefined>();
    const out: DebugProtocol.Breakpoint[] = [];
    for (const b of args.breakpoints ?? []) {
      const bp = new Breakpoint(false, b.line) as DebugProtocol.Breakpoint;
      if (!name) bp.message = l10n.t('This file is not a source of the contracts this transaction ran.');
      else if (b.condition && !CONDITION.test(b.condition))
        bp.message = l10n.t('Conditions compare a name with a value: amount > 100, msg.sender == 0x…');
      else if (!this.tx || this.tx.trace.entriesOn(name, b.line).length) {
        bp.verified = !!this.tx;
        lines.set(b.line, b.condition);
      } else bp.message = l10n.t('No statement on this line ran in this transaction.');
      out.push(bp);
    }
    if (name) this.breakpoints.set(name, lines);
    response.body = { breakpoints: out };
    this.sendResponse(response);
  }

  protected setExceptionBreakPointsRequest(response: DebugProtocol.SetExceptionBreakpointsResponse): void {
    this.sendResponse(response);
  }

  private breakLines(): Set<number> {
    const out = new Set<number>();
    const t = this.tx?.trace;
    if (!t) return out;
    for (const [name, lines] of this.breakpoints)
      for (const line of lines.keys()) {
        const k = t.lineOf(name, line);
        if (k !== undefined) out.add(k);
      }
    return out;
  }

  private conditionHolds(step: number): boolean {
    const t = this.tx?.trace;
    const p = t?.place(step);
    if (!t || !p) return true;
    const cond = this.breakpoints.get(p.location.sourceName)?.get(p.location.line);
    if (!cond) return true;
    const m = CONDITION.exec(cond);
    if (!m) return false;
    const left = this.lookup(m[1], step);
    if (!left) return false;
    const a = numeric(left.value);
    const b = numeric(m[3].replace(/^["']|["']$/g, ''));
    if (a !== undefined && b !== undefined) {
      switch (m[2]) {
        case '==':
          return a === b;
        case '!=':
          return a !== b;
        case '>':
          return a > b;
        case '<':
          return a < b;
        case '>=':
          return a >= b;
        default:
          return a <= b;
      }
    }
    const x = left.value.toLowerCase();
    const y = m[3].replace(/^["']|["']$/g, '').toLowerCase();
    return m[2] === '==' ? x === y : m[2] === '!=' ? x !== y : false;
  }

  // ------------------------------------------------------------------ moving

  private stopAt(step: number, reason: string, text?: string): void {
    const t = this.tx?.trace;
    if (!t) return;
    this.step = Math.max(0, Math.min(step, t.count - 1));
    this.handles.reset();
    this.shown = [];
    this.writeEvents();
    const failing = this.step === t.failing;
    if (failing && !this.revertShown) {
      this.revertShown = true;
      this.output(l10n.t('Reverted: {0}', revertReason(t) ?? l10n.t('no reason')), 'stderr');
    }
    const ev = new StoppedEvent(failing ? 'exception' : reason, THREAD, failing ? revertReason(t) : text);
    if (failing) (ev as DebugProtocol.StoppedEvent).body.description = l10n.t('Reverted');
    this.sendEvent(ev);
  }

  /** Forward moves stop at the failing operation when they would pass it. */
  private forward(target: number, reason: string): void {
    const t = this.tx?.trace;
    if (!t) return;
    if (t.failing > this.step && t.failing < target) this.stopAt(t.failing, 'exception');
    else if (target <= this.step && this.step === t.count - 1)
      this.stopAt(this.step, 'step', l10n.t('End of the transaction'));
    else this.stopAt(target, reason);
  }

  private moveRequest(
    response: DebugProtocol.Response,
    kind: 'over' | 'into' | 'out',
    back: boolean,
    args?: { granularity?: string },
  ): void {
    const t = this.tx?.trace;
    if (!t) return this.sendResponse(response);
    this.sendResponse(response);
    const instruction = args?.granularity === 'instruction';
    const target = t.move(this.step, kind, back, instruction);
    if (back) this.stopAt(target, 'step');
    else this.forward(target, 'step');
  }

  protected nextRequest(response: DebugProtocol.NextResponse, args: DebugProtocol.NextArguments): void {
    this.moveRequest(response, 'over', false, args);
  }
  protected stepInRequest(response: DebugProtocol.StepInResponse, args: DebugProtocol.StepInArguments): void {
    this.moveRequest(response, 'into', false, args);
  }
  protected stepOutRequest(response: DebugProtocol.StepOutResponse, args: DebugProtocol.StepOutArguments): void {
    this.moveRequest(response, 'out', false, args);
  }
  protected stepBackRequest(response: DebugProtocol.StepBackResponse, args: DebugProtocol.StepBackArguments): void {
    this.moveRequest(response, 'over', true, args);
  }

  protected continueRequest(response: DebugProtocol.ContinueResponse): void {
    const t = this.tx?.trace;
    response.body = { allThreadsContinued: true };
    this.sendResponse(response);
    if (!t) return;
    const bp = t.findBreak(this.step, this.breakLines(), false, (s) => this.conditionHolds(s));
    if (bp !== undefined) this.forward(bp, 'breakpoint');
    else if (t.failing > this.step) this.stopAt(t.failing, 'exception');
    else this.stopAt(t.count - 1, 'step', l10n.t('End of the transaction'));
  }

  protected reverseContinueRequest(response: DebugProtocol.ReverseContinueResponse): void {
    const t = this.tx?.trace;
    this.sendResponse(response);
    if (!t) return;
    const bp = t.findBreak(this.step, this.breakLines(), true, (s) => this.conditionHolds(s));
    this.stopAt(bp ?? 0, bp !== undefined ? 'breakpoint' : 'entry');
  }

  protected restartFrameRequest(
    response: DebugProtocol.RestartFrameResponse,
    args: DebugProtocol.RestartFrameArguments,
  ): void {
    const f = this.shown[args.frameId];
    this.sendResponse(response);
    const t = this.tx?.trace;
    if (f && t) this.stopAt(t.firstStatement(f.call), 'restart');
  }

  // ------------------------------------------------------------------ stack, scopes, variables

  private frames(): ShownFrame[] {
    const t = this.tx?.trace;
    if (!t) return [];
    if (this.shown.length) return this.shown;
    const all = t.stackAt(this.step);
    // a frame's root (the dispatcher) is left out under the external function it jumped into, which stands for it;
    // where no jump into it is marked (the function's body laid out in the dispatcher's code), the root is that function
    this.shown = all.filter(
      (s, i) =>
        s.call.parent ||
        i === 0 ||
        all[i - 1].call.frame !== s.call.frame ||
        all[i - 1].call.name !== functionOf(t, s.call.frame),
    );
    return this.shown;
  }

  protected stackTraceRequest(
    response: DebugProtocol.StackTraceResponse,
    args: DebugProtocol.StackTraceArguments,
  ): void {
    const t = this.tx?.trace;
    const frames = this.frames();
    const start = args.startFrame ?? 0;
    const end = args.levels ? start + args.levels : frames.length;
    response.body = {
      stackFrames: t ? frames.slice(start, end).map((s, k) => this.stackFrame(t, s, start + k, start + k === 0)) : [],
      totalFrames: frames.length,
    };
    this.sendResponse(response);
  }

  private stackFrame(t: DebugTrace, s: ShownFrame, id: number, top: boolean): DebugProtocol.StackFrame {
    const f = s.call.frame;
    const contract = f.build ? f.build.contract.split(':').pop() : (f.entity ?? f.address ?? '?');
    const fn = s.call.parent
      ? (s.call.name ?? l10n.t('internal function'))
      : (functionOf(t, f) ?? l10n.t('dispatcher'));
    const name = f.precompile ? l10n.t('system contract {0}', f.address ?? '') : `${contract}.${fn}`;
    // the step's own line; a caller's frame: its last confirmed line before the call it is in
    let step = s.step;
    if (!top && !t.place(step))
      for (let j = step; j >= s.call.entry; j--)
        if (t.callOf[j] === s.call.id && t.place(j)) {
          step = j;
          break;
        }
    const p = t.place(step);
    const sf = new StackFrame(
      id,
      name,
      p ? (this.source(p.location.sourceName) as Source) : undefined,
      p ? p.location.line : 0,
      p ? p.location.column : 0,
    ) as DebugProtocol.StackFrame;
    if (p) {
      sf.endLine = p.location.endLine;
      sf.endColumn = p.location.endColumn;
    } else sf.presentationHint = 'subtle';
    sf.instructionPointerReference = address(f.id, t.pcOf[s.step]);
    sf.canRestart = true;
    return sf;
  }

  private source(sourceName: string): DebugProtocol.Source {
    const base = sourceName.split('/').pop() ?? sourceName;
    const path = this.tx?.pathOf?.(sourceName);
    if (path) return new Source(base, this.convertDebuggerPathToClient(path));
    let ref = this.sourceRefs.get(sourceName);
    if (ref === undefined) {
      ref = this.sourceRefs.size + 1;
      this.sourceRefs.set(sourceName, ref);
      this.sourceByRef.set(ref, sourceName);
    }
    const src = new Source(base, undefined, ref) as DebugProtocol.Source;
    src.presentationHint = 'deemphasize';
    src.origin = l10n.t('compiled source (read-only)');
    // the source name, so a breakpoint set in it comes back named
    src.adapterData = { sourceName };
    return src;
  }

  private sourceNameOfSource(s: DebugProtocol.Source): string | undefined {
    const data = s.adapterData as { sourceName?: unknown } | undefined;
    if (typeof data?.sourceName === 'string') return data.sourceName;
    if (s.sourceReference) return this.sourceByRef.get(s.sourceReference);
    if (!s.path) return undefined;
    const fromHost = this.tx?.sourceNameOf?.(s.path);
    if (fromHost) return fromHost;
    // a path that ends with a source name of the trace's builds
    const norm = s.path.replace(/\\/g, '/');
    for (const name of this.tx?.trace.sources().keys() ?? [])
      if (norm === name || norm.endsWith(`/${name.replace(/^project\//, '')}`)) return name;
    return undefined;
  }

  protected sourceRequest(response: DebugProtocol.SourceResponse, args: DebugProtocol.SourceArguments): void {
    const name = this.sourceByRef.get(args.source?.sourceReference ?? args.sourceReference);
    const content = name ? this.tx?.trace.sources().get(name)?.content : undefined;
    if (content === undefined) {
      this.sendErrorResponse(response, { id: 2, format: l10n.t('This source is not available.'), showUser: false });
      return;
    }
    response.body = { content, mimeType: 'text/x-solidity' };
    this.sendResponse(response);
  }

  protected loadedSourcesRequest(response: DebugProtocol.LoadedSourcesResponse): void {
    const names = [...(this.tx?.trace.sources() ?? new Map()).entries()]
      .filter(([, s]) => !s.generated)
      .map(([n]) => n);
    response.body = { sources: names.map((n) => this.source(n)) };
    this.sendResponse(response);
  }

  protected scopesRequest(response: DebugProtocol.ScopesResponse, args: DebugProtocol.ScopesArguments): void {
    const t = this.tx?.trace;
    const s = this.frames()[args.frameId];
    if (!t || !s) {
      response.body = { scopes: [] };
      return this.sendResponse(response);
    }
    const f = s.call.frame;
    const locals: Variable[] = [];
    // the frame's root, or the external function's body the dispatcher jumped into: the call's arguments
    const external = runsExternalBody(t, s.call);
    if (external) {
      const args = argumentsOf(t, f);
      if (args) locals.push(...args);
      else if (f.input && !f.creation) locals.push({ name: l10n.t('input'), value: f.input, type: 'bytes' });
    }
    locals.push(...messageOf(f));
    const scopes: DebugProtocol.Scope[] = [
      new Scope(external ? l10n.t('Arguments') : l10n.t('Message'), this.handles.create(locals), false),
    ];
    const inferred = inferredOf(t, s.call, s.step, external);
    if (inferred.length)
      scopes.push(new Scope(l10n.t('Locals (likely: read from the stack)'), this.handles.create(inferred), false));
    // at the step that ends the frame: what it returned, by its function's outputs
    const returned = returnValuesOf(t, f, s.step);
    if (returned?.length) scopes.push(new Scope(l10n.t('Return values'), this.handles.create(returned), false));
    const storage = storageVariables(t, s.step);
    scopes.push(
      new Scope(
        l10n.t('Storage (read and written so far)'),
        this.handles.create(
          storage ?? [
            {
              name: l10n.t('storage'),
              value: l10n.t('not in the step trace (ask the opcode endpoint with storage=true)'),
            },
          ],
        ),
        false,
      ),
    );
    scopes.push(new Scope(l10n.t('EVM'), this.handles.create(evmVariables(t, s.step)), false));
    response.body = { scopes };
    this.sendResponse(response);
  }

  protected variablesRequest(response: DebugProtocol.VariablesResponse, args: DebugProtocol.VariablesArguments): void {
    const vars = this.handles.get(args.variablesReference) ?? [];
    response.body = { variables: vars.map((v) => this.variable(v)) };
    this.sendResponse(response);
  }

  private variable(v: Variable): DebugProtocol.Variable {
    return {
      name: v.name,
      value: v.value,
      ...(v.type ? { type: v.type } : {}),
      variablesReference: v.children?.length ? this.handles.create(v.children) : 0,
      evaluateName: v.name,
      ...(v.memoryReference ? { memoryReference: v.memoryReference } : {}),
    };
  }

  /** A step's memory for VS Code's memory (hex) view: the reference names the step (`memoryRef`). */
  protected readMemoryRequest(
    response: DebugProtocol.ReadMemoryResponse,
    args: DebugProtocol.ReadMemoryArguments,
  ): void {
    const t = this.tx?.trace;
    const step = stepOfMemoryRef(args.memoryReference);
    const offset = Number(args.offset ?? 0);
    const bytes =
      t && step !== undefined && step < t.pcOf.length && offset >= 0
        ? memoryBytes(t, step, offset, args.count)
        : undefined;
    if (!bytes) {
      response.body = { address: `0x${Math.max(0, offset).toString(16)}`, unreadableBytes: args.count };
      return this.sendResponse(response);
    }
    let binary = '';
    for (const b of bytes) binary += String.fromCharCode(b);
    response.body = {
      address: `0x${offset.toString(16)}`,
      data: btoa(binary),
      unreadableBytes: args.count - bytes.length,
    };
    this.sendResponse(response);
  }

  /** A name of the current scope, storage or EVM state at a step. */
  private lookup(expression: string, step: number, frame?: ShownFrame): Variable | undefined {
    const t = this.tx?.trace;
    if (!t) return undefined;
    const e = expression.trim();
    const call = frame?.call ?? t.calls[t.callOf[step]];
    const f = call.frame;
    const at = frame?.step ?? step;
    const m = /^stack\[(\d+)\]$/.exec(e);
    if (m) {
      const st = stackAt(t, at);
      const v = st?.[Number(m[1])];
      return v === undefined ? undefined : { name: e, value: v };
    }
    const pools: Variable[][] = [
      argumentsOf(t, f) ?? [],
      inferredOf(t, call, at, runsExternalBody(t, call)),
      returnValuesOf(t, f, at) ?? [],
      messageOf(f),
      storageVariables(t, at) ?? [],
      evmVariables(t, at),
    ];
    for (const pool of pools) {
      const hit = pool.find((v) => v.name === e || (e === 'gas' && v.name === 'gas left'));
      if (hit) return hit;
    }
    return undefined;
  }

  protected evaluateRequest(response: DebugProtocol.EvaluateResponse, args: DebugProtocol.EvaluateArguments): void {
    const frame = args.frameId !== undefined ? this.frames()[args.frameId] : undefined;
    const v = this.lookup(args.expression, this.step, frame);
    if (!v) {
      this.sendErrorResponse(response, {
        id: 3,
        format: l10n.t(
          '"{0}" is not a name of this frame, its storage read so far, msg or the EVM state.',
          args.expression.slice(0, 80),
        ),
        showUser: false,
      });
      return;
    }
    response.body = {
      result: v.value,
      ...(v.type ? { type: v.type } : {}),
      variablesReference: v.children?.length ? this.handles.create(v.children) : 0,
    };
    this.sendResponse(response);
  }

  protected exceptionInfoRequest(response: DebugProtocol.ExceptionInfoResponse): void {
    const t = this.tx?.trace;
    response.body = {
      exceptionId: 'revert',
      description: t ? revertReason(t) : undefined,
      breakMode: 'always',
    };
    this.sendResponse(response);
  }

  // ------------------------------------------------------------------ disassembly

  protected disassembleRequest(
    response: DebugProtocol.DisassembleResponse,
    args: DebugProtocol.DisassembleArguments,
  ): void {
    const t = this.tx?.trace;
    let ref: bigint;
    try {
      ref = BigInt(args.memoryReference);
    } catch {
      ref = -1n;
    }
    const f = t && ref >= 0n ? t.frames[Number(ref >> FRAME_SHIFT)] : undefined;
    if (!t || !f) {
      response.body = { instructions: [] };
      return this.sendResponse(response);
    }
    const list = instructionsOf(t, f);
    const pc = Number(ref & 0xffffffffn) + (args.offset ?? 0);
    let at = list.findIndex((i) => i.pc >= pc);
    if (at < 0) at = list.length;
    const from = at + (args.instructionOffset ?? 0);
    const instructions: DebugProtocol.DisassembledInstruction[] = [];
    for (let k = from; k < from + args.instructionCount; k++) {
      const i = list[k];
      if (k < 0 || !i) {
        instructions.push({
          address: address(f.id, Math.max(0, (list[list.length - 1]?.pc ?? 0) + k)),
          instruction: '',
          presentationHint: 'invalid',
        });
        continue;
      }
      const d: DebugProtocol.DisassembledInstruction = {
        address: address(f.id, i.pc),
        instruction: i.text,
        ...(i.bytes ? { instructionBytes: i.bytes } : {}),
      };
      const loc = f.locator?.locate(i.pc);
      if (loc && !loc.generated && args.resolveSymbols !== false) {
        d.location = this.source(loc.sourceName);
        d.line = loc.line;
        d.column = loc.column;
        d.endLine = loc.endLine;
        d.endColumn = loc.endColumn;
      }
      instructions.push(d);
    }
    response.body = { instructions };
    this.sendResponse(response);
  }

  // ------------------------------------------------------------------ output

  private output(text: string, category: 'console' | 'stdout' | 'stderr' = 'console'): void {
    this.sendEvent(new OutputEvent(`${text}\n`, category));
  }

  /** The events emitted up to the current step not written yet. */
  private writeEvents(): void {
    const t = this.tx?.trace;
    if (!t) return;
    const events = eventsUntil(t, this.step);
    for (let k = this.eventsShown; k < events.length; k++)
      this.output(l10n.t('Event emitted by {0}: {1}', events[k].address ?? '?', events[k].text), 'stdout');
    this.eventsShown = Math.max(this.eventsShown, events.length);
  }

  protected terminateRequest(response: DebugProtocol.TerminateResponse): void {
    this.sendResponse(response);
    this.sendEvent(new TerminatedEvent());
  }
}

/** The frame's root, or the external function's body the dispatcher jumped into: its arguments are the call data's. */
function runsExternalBody(t: DebugTrace, call: CallNode): boolean {
  return !call.parent || (call.parent === call.frame.root && call.name === functionOf(t, call.frame));
}

/**
 * A call's variables read from the stack (src/api/debug/locals.ts): an internal function's parameters, the return
 * variables and the locals in scope, all likely; and why not, when they could not be read.
 */
function inferredOf(t: DebugTrace, call: CallNode, step: number, external: boolean): Variable[] {
  const r = localsOf(t, call, step, external ? argumentsOf(t, call.frame) : undefined);
  if (!r) return [];
  const vars = [...r.params, ...r.returns, ...r.locals];
  if (r.note) vars.push({ name: l10n.t('(not inferred)'), value: r.note });
  return vars;
}

const numeric = (s: string): bigint | undefined => {
  const v = s.trim().replace(/ tinybars$/, '');
  try {
    return /^(0x[0-9a-f]+|-?\d+)$/i.test(v) ? BigInt(v) : undefined;
  } catch {
    return undefined;
  }
};

interface Instruction {
  pc: number;
  text: string;
  bytes?: string;
}

const instructionCache = new WeakMap<ExternalFrame, Instruction[]>();

/** A frame's code as instructions: the build's code, else the operations the trace ran, by pc. */
function instructionsOf(t: DebugTrace, f: ExternalFrame): Instruction[] {
  let list = instructionCache.get(f);
  if (list) return list;
  list = [];
  const code = f.locator?.code;
  if (code) {
    for (let pc = 0; pc < code.length;) {
      const op = code[pc];
      const size = instructionSize(op);
      const data = code.subarray(pc + 1, pc + size);
      const hexData = [...data].map((b) => b.toString(16).padStart(2, '0')).join('');
      list.push({
        pc,
        text: size > 1 ? `${opcodeName(op)} 0x${hexData}` : opcodeName(op),
        bytes: [...code.subarray(pc, pc + size)].map((b) => b.toString(16).padStart(2, '0')).join(''),
      });
      pc += size;
    }
  } else {
    const seen = new Map<number, string>();
    for (let i = f.first; i <= f.last; i++)
      if (t.frameOf[i] === f.id && !seen.has(t.pcOf[i]))
        seen.set(t.pcOf[i], t.input.opcodes[i].op || '(system contract)');
    list = [...seen].sort((a, b) => a[0] - b[0]).map(([pc, text]) => ({ pc, text }));
  }
  instructionCache.set(f, list);
  return list;
}
