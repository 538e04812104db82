/**
 * A failed or past transaction's step trace, from wherever it can be had: the mirror node's opcode endpoint
 * (`/contracts/results/{id}/opcodes`, often off, throttled or capped on public networks), or a local replay
 * (src/api/replay, loaded lazily: it brings @ethereumjs) checked against the network's record. The order is the
 * user's choice (`ReplayMode`). A replay's trace is returned with its verdict: only a replay that matches the record
 * may be used as exact. Revert to source and the debugger take their traces from here. Plain TypeScript, no `vscode`.
 */
import * as l10n from '@vscode/l10n';
import type { HttpClient } from '../http';
import type { SourceTrace } from '../inspect/model';
import type { MirrorClient } from '../mirror';
import { isApiError } from '../errors';
import type { OpcodesResponse } from '../mirrorTypes';
import type * as ReplayModule from '../replay';
import { oneLine } from '../text';
import { opcodeRefusal } from './refusal';

/** Which source of a step trace comes first: the opcode endpoint, the local replay, or the endpoint alone. */
export type ReplayMode = 'endpointFirst' | 'replayFirst' | 'never';
export const REPLAY_MODES: readonly ReplayMode[] = ['endpointFirst', 'replayFirst', 'never'];

/** The mode of a setting's value (anything else: the default, endpoint first). */
export function replayModeOf(v: unknown): ReplayMode {
  return REPLAY_MODES.includes(v as ReplayMode) ? (v as ReplayMode) : 'endpointFirst';
}

/**
 * Why the opcode endpoint gave no trace (see ./refusal.ts for `kind`). `status` is 0 when no status came back (a
 * timeout, a connection reset, a trace over the size cap); `sentence` then says what happened.
 */
export interface EndpointRefusal {
  status: number;
  serverMessages: string[];
  kind: 'off' | 'busy' | 'transaction';
  sentence?: string;
}

/** A replay that ran to its end, checked against the record. */
export interface ReplayedTrace {
  trace: OpcodesResponse;
  verdict: ReplayModule.Verdict;
  stats: ReplayModule.Replayed['stats'];
}

/** A replay that stopped: the fault's kind and its sentence (plain text). */
export interface ReplayFault {
  kind: 'budget' | 'cancelled' | 'mirror' | 'malformed' | 'unsupported' | 'internal';
  message: string;
}

export interface StepTraceOutcome {
  /** The trace to use: the endpoint's, or a replay that matches the record. */
  use?: { by: 'mirror'; trace: OpcodesResponse } | ({ by: 'replay' } & ReplayedTrace);
  /** The endpoint was asked and gave none. */
  refusal?: EndpointRefusal;
  /** A replay ran: its trace and verdict (also when it diverged). */
  replay?: ReplayedTrace;
  /** A replay was tried and stopped. */
  fault?: ReplayFault;
}

export interface StepTraceRequest {
  mirror: MirrorClient;
  http: HttpClient;
  /** The transaction id or 32-byte hash the mirror node's paths take. */
  ref: string;
  mode: ReplayMode;
  signal?: AbortSignal;
  /** The endpoint refused before (the caller remembers it): not asked again. */
  skipEndpoint?: boolean;
  /** What each step carries besides pc, op and gas, from either source (none by default: the smallest answer). */
  detail?: { stack?: boolean; memory?: boolean; storage?: boolean };
  /** Bounds of the replay (the engine's defaults otherwise). */
  replayOptions?: Omit<ReplayModule.ReplayOptions, 'signal'>;
  /**
   * Runs the replay, e.g. inside a progress notification whose Cancel aborts the signal it passes on; default: runs
   * it with the request's signal.
   */
  aroundReplay?: <T>(run: (signal?: AbortSignal) => Promise<T>) => Promise<T>;
  /** Loads the replay module (default: the lazy entry). */
  load?: () => typeof ReplayModule;
}

/** The replay module, required on first use (a lazy entry of the build: @ethereumjs stays out of activation). */
export function loadReplay(): typeof ReplayModule {
  // eslint-disable-next-line @typescript-eslint/no-require-imports -- a lazy entry (LAZY_ENTRIES in esbuild.js)
  return require('../replay') as typeof ReplayModule;
}

/**
 * Asks the endpoint; a refusal (off, busy, this transaction) is an answer. So is a failure of the endpoint alone
 * (a 5xx after the client's retries, a timeout or reset: the tracer is the mirror node's slowest route; a trace over
 * the size cap: too large a transaction), since the replay may still get there through the other routes. Anything
 * else (unreachable, cancelled, a refused id) throws.
 */
async function fromEndpoint(
  r: StepTraceRequest,
): Promise<{ trace: OpcodesResponse; refusal?: undefined } | { refusal: EndpointRefusal; trace?: undefined }> {
  let a: Awaited<ReturnType<MirrorClient['contractOpcodes']>>;
  try {
    a = await r.mirror.contractOpcodes(r.ref, r.detail ?? {}, { signal: r.signal });
  } catch (e) {
    const failed = endpointFailure(e);
    if (!failed || r.signal?.aborted) throw e;
    return { refusal: failed };
  }
  if (a.kind === 'trace') return { trace: a.value };
  return {
    refusal: { status: a.status, serverMessages: a.serverMessages, kind: opcodeRefusal(a.status, a.serverMessages) },
  };
}

/** Replays the transaction and checks it; a stop of the engine is a fault, never a throw. */
async function fromReplay(r: StepTraceRequest): Promise<{ replay?: ReplayedTrace; fault?: ReplayFault }> {
  const run = async (signal?: AbortSignal): Promise<{ replay?: ReplayedTrace; fault?: ReplayFault }> => {
    let mod: typeof ReplayModule;
    try {
      mod = (r.load ?? loadReplay)();
    } catch (e) {
      return { fault: { kind: 'internal', message: l10n.t('The replay could not be loaded: {0}', messageOf(e)) } };
    }
    try {
      const input = await mod.readRecord(r.mirror, r.ref, signal);
      const replayed = await mod.replayRecord(r.mirror, r.http, input, {
        ...r.replayOptions,
        ...(r.detail ? { trace: r.detail } : {}),
        signal,
      });
      replayed.stats.requests += input.requests;
      const verdict = mod.checkReplay(replayed.execution, input.record, input.actions, input.partial);
      return { replay: { trace: replayed.execution.opcodes as OpcodesResponse, verdict, stats: replayed.stats } };
    } catch (e) {
      if (e instanceof mod.ReplayError) return { fault: { kind: e.kind, message: e.message } };
      if (signal?.aborted) return { fault: { kind: 'cancelled', message: l10n.t('The replay was cancelled.') } };
      return { fault: { kind: 'internal', message: l10n.t('The replay stopped: {0}', messageOf(e)) } };
    }
  };
  return r.aroundReplay ? r.aroundReplay(run) : run(r.signal);
}

/** The step trace of a transaction, from the endpoint or a checked replay, in the order `mode` says. */
export async function stepTraceOf(r: StepTraceRequest): Promise<StepTraceOutcome> {
  const out: StepTraceOutcome = {};
  const endpoint = async (): Promise<boolean> => {
    if (r.skipEndpoint) return false;
    const e = await fromEndpoint(r);
    if (e.trace) {
      out.use = { by: 'mirror', trace: e.trace };
      return true;
    }
    out.refusal = e.refusal;
    return false;
  };
  const replay = async (): Promise<boolean> => {
    const p = await fromReplay(r);
    if (p.fault) out.fault = p.fault;
    if (p.replay) {
      out.replay = p.replay;
      if (p.replay.verdict.matches) {
        out.use = { by: 'replay', ...p.replay };
        return true;
      }
    }
    return false;
  };
  if (r.mode === 'never') {
    await endpoint();
    return out;
  }
  if (r.mode === 'replayFirst') {
    // a cancelled replay is the user's answer: the endpoint is not asked behind their back
    if ((await replay()) || out.fault?.kind === 'cancelled') return out;
    await endpoint();
    return out;
  }
  if (await endpoint()) return out;
  // a transaction the endpoint cannot trace for a reason of its own (a 400): replayed all the same
  await replay();
  return out;
}

/** What the endpoint answered, for a sentence: "HTTP 404: its messages", or what happened when no status came back. */
export function refusalWhy(r: EndpointRefusal): string {
  const said = r.serverMessages.length ? `: ${oneLine(r.serverMessages.join('; '), 200)}` : '';
  return r.status ? `HTTP ${r.status}${said}` : oneLine(r.sentence ?? '', 200);
}

/** A failure that is the opcode endpoint's own, as a refusal; undefined for any other error. */
export function endpointFailure(e: unknown): EndpointRefusal | undefined {
  if (!isApiError(e)) return undefined;
  const base = { status: e.status ?? 0, serverMessages: e.serverMessages, sentence: e.message };
  if (e.kind === 'http' && e.status !== undefined && e.status >= 500) return { ...base, kind: 'busy' };
  if (e.kind === 'timeout' || e.kind === 'reset') return { ...base, kind: 'busy' };
  if (e.kind === 'tooLarge') return { ...base, kind: 'transaction' };
  return undefined;
}

function messageOf(e: unknown): string {
  return e instanceof Error ? e.message : String(e);
}

/** The step trace's source as the user reads it: the mirror node, or a replay and its verdict. */
export function traceOf(v: ReplayModule.Verdict | undefined): SourceTrace {
  if (!v) return { by: 'mirror', matches: true, text: l10n.t('Traced by the mirror node') };
  if (v.matches)
    return {
      by: 'replay',
      matches: true,
      text:
        v.calls > 0
          ? l10n.t(
              "Replayed locally · matches the network's record ({0} of {1} calls)",
              String(v.matchedCalls),
              String(v.calls),
            )
          : l10n.t("Replayed locally · matches the network's record (result, logs and state changes)"),
    };
  if (!v.checked)
    return {
      by: 'replay',
      matches: false,
      text: l10n.t("Replayed locally · the network's record is incomplete"),
    };
  const why = oneLine(v.divergence?.why ?? '', 240);
  return {
    by: 'replay',
    matches: false,
    text:
      v.divergence && v.divergence.action >= 0
        ? l10n.t('Replayed locally · diverged at call {0}: {1}', String(v.divergence.action + 1), why)
        : l10n.t("Replayed locally · diverged from the network's record: {0}", why),
  };
}
