/**
 * Revert to source: where a failed call reverted in Solidity, and the call stack that led there.
 *
 * Exact, when the mirror node can trace: its opcode log (`/contracts/results/{id}/opcodes`, without stack, memory
 * or storage) gives the failing operation of the deepest failing frame and the call site of every frame above it
 * (src/api/source/callStack.ts); each frame's contract is matched to its compiled code (the workspace's build, named
 * by the deployment records and checked against the code on chain with metadata and immutables masked:
 * src/workspace/deployedBuild.ts, the one resolver of the build deployed), and its pc goes through the compiler's
 * source map to a file and line (src/api/source/locate.ts). Likely, when it cannot (many public mirror nodes disable the endpoint or answer 429 /
 * 404 / 501; said once, never retried in a loop): the innermost reverting frame from the call trace, its function
 * from the build's AST, and the revert / require / assert statements whose reason matches
 * (src/api/source/likely.ts). A contract whose code on chain differs from the workspace's build is said so, never
 * pointed at a wrong line.
 *
 * Where a place opens: the workspace's own file when it holds the very source that was compiled; otherwise (a
 * library in node_modules, a file edited since, sources of another folder) the compiled source, read-only
 * (`hedera-source:` documents, ./sourceDocuments.ts).
 */
import * as vscode from 'vscode';
import type { Clients } from '../../api/clients';
import { decodeRevert } from '../../api/revert';
import type { ContractAction, ContractResultDetails } from '../../api/mirrorTypes';
import { callStackOf } from '../../api/source/callStack';
import {
  type EndpointRefusal,
  type ReplayFault,
  replayModeOf,
  type StepTraceOutcome,
  refusalWhy,
  stepTraceOf,
  traceOf,
} from '../../api/source/stepTrace';
import { config } from '../../core/settings';
import { failingAction, likelyLocations } from '../../api/source/likely';
import type { FrameBuild, SourceLocation } from '../../api/source/locate';
import { type PlacedFrame, placeFailure } from '../../api/source/place';
import type { LikelyCandidate } from '../../api/source/likely';
import { oneLine } from '../../api/text';
import { evmAddressToEntityId } from '../../api/validation';
import type { BuiltContract, DeployedBuilds } from '../../workspace/deployedBuild';
import { creationBuild, FrameBuilds } from '../../workspace/frameBuild';
import { MissingOutputs } from '../../core/missingOutputs';
import type { EntityView, SourceFrameView, SourceModel, SourceTrace } from '../../api/inspect/model';
import type { FeatureContext } from '../context';
import type { SourceDocuments } from './sourceDocuments';
import type { SimulationPage } from './simulation';

/** A place the editor can open: a file (or a read-only document of the compiled source) and a range. */
export interface SourceTarget {
  uri: vscode.Uri;
  range: vscode.Range;
  readonly: boolean;
  /** The revert reason and the transaction, for the mark and its hover. */
  reason?: string;
  /** The compiled text of the source (a workspace file edited since opens as this instead). */
  compiled?: { sourceName: string; content: string };
  /** Where an exact place's step trace came from ("Traced by the mirror node", "Replayed locally · …"). */
  tracedBy?: string;
}

export interface LocatedRevert {
  model: SourceModel;
  targets: SourceTarget[];
}

/** What the locator needs of a transaction. */
export interface RevertInput {
  result: ContractResultDetails;
  actions: readonly ContractAction[] | undefined;
  /** The id or 32-byte hash the mirror node's paths take for this transaction. */
  pathRef: string;
  /** The transaction id (for the hover), when known. */
  transactionId?: string;
  /** A simulation's own step trace, checked against the mirror node's answer: used instead of asking for one. */
  simulated?: Pick<SimulationPage, 'trace' | 'tracedBy'>;
}

/** The workspace's builds (the window's one read, `ctx.builds`) and the outputs produced for those held as input only. */
export class WorkspaceBuildsCache implements vscode.Disposable {
  /** Outputs of deployed builds the workspace holds the input of only, produced with the user's compiler. */
  readonly outputs: MissingOutputs;

  constructor(private readonly ctx: FeatureContext) {
    this.outputs = new MissingOutputs({
      globalStorageUri: ctx.extension.globalStorageUri,
      log: ctx.log,
      feature: 'Revert to source',
      afterTrust: vscode.l10n.t('the Source section then looks again'),
      toRetry: vscode.l10n.t('open the Source section again to compile it'),
    });
  }

  get(): Promise<DeployedBuilds> {
    return this.ctx.builds.get();
  }

  /** Reads the builds again on the next `get`. */
  forget(): void {
    this.ctx.builds.forget();
  }

  dispose(): void {}
}

const folders = (): readonly vscode.WorkspaceFolder[] => vscode.workspace.workspaceFolders ?? [];

export class RevertLocator {
  /** Each frame's build (the workspace's deployed build, one held as input only once compiled, or Sourcify's). */
  private readonly frameBuilds: FrameBuilds;
  /**
   * The opcode endpoint is off (or rate-limited) on a mirror node: what was said, and until when it is not asked
   * again (said once; a Retry of the Source section asks again at once).
   */
  private static refused = new Map<string, { refusal: EndpointRefusal; until: number }>();
  /** The replays running now (their Cancel), for the test seam. */
  static readonly replaying = new Set<AbortController>();

  /** Forgets that a mirror node refused opcode traces (Retry). */
  static forgetRefusal(mirrorUrl: string): void {
    RevertLocator.refused.delete(mirrorUrl);
  }

  constructor(
    private readonly ctx: FeatureContext,
    private readonly clients: () => Clients,
    private readonly builds: WorkspaceBuildsCache,
    private readonly documents: SourceDocuments,
  ) {
    this.frameBuilds = new FrameBuilds({
      network: () => {
        const c = this.clients();
        return { chainId: c.profile.chainId, verifyUrl: c.profile.verifyUrl, http: c.http };
      },
      contract: (idOrAddress, signal) =>
        this.ctx.chainCode
          .on(() => ({ key: this.clients().profile.mirrorUrl, mirror: this.clients().mirror }))
          .contract(idOrAddress, { signal }),
      produce: (build) =>
        this.builds.outputs.produce(
          build,
          folders()
            .filter((f) => f.uri.scheme === 'file')
            .map((f) => f.uri.fsPath),
        ),
      log: (level, line) => this.ctx.log[level](`Revert to source: ${line}`),
    });
  }

  /** Where the call reverted; `mode: 'none'` with notes when it did not or nothing could be placed. */
  async locate(input: RevertInput, signal?: AbortSignal): Promise<LocatedRevert> {
    const { result } = input;
    const notes: string[] = [];
    const failed = (result.result !== null && result.result !== 'SUCCESS') || result.status === '0x0';
    if (!failed)
      return {
        model: { mode: 'none', frames: [], notes: [vscode.l10n.t('The call succeeded: nothing reverted.')] },
        targets: [],
      };
    const builds = await this.builds.get();
    // the reason decoded with the workspace's ABIs (a custom error by its name and arguments), else as data says:
    // after the workspace's ABIs are read, or the first revert of a window shows its error's selector only
    await this.ctx.abis.scanned();
    const decoded = this.ctx.abis.decodeResult(result, true)?.error;
    const reason = decoded?.message ? oneLine(decoded.message, 300) : reasonOf(result.error_message);
    const deployments = this.ctx.abis.workspace().deployments;
    const targets: SourceTarget[] = [];
    const profile = this.clients().profile;

    // exact: a step trace, from the opcode endpoint (unless this mirror node refused it before) or a local replay
    // checked against the network's record, in the order the setting says
    const refusedBefore = RevertLocator.refused.get(profile.mirrorUrl);
    const skipEndpoint = !!refusedBefore && refusedBefore.until > Date.now();
    const mode = replayModeOf(config().get('replay.mode'));
    const outcome =
      input.simulated?.trace ??
      (await stepTraceOf({
        mirror: this.clients().mirror,
        http: this.clients().http,
        ref: input.pathRef,
        mode,
        signal,
        skipEndpoint,
        aroundReplay: (run) => this.withReplayProgress(input, run, signal),
      }));
    const refusal = outcome.refusal ?? (skipEndpoint && !input.simulated ? refusedBefore?.refusal : undefined);
    if (outcome.refusal && outcome.refusal.kind !== 'transaction')
      // the endpoint is off: not asked again this session; rate-limited or unavailable: not for five minutes
      RevertLocator.refused.set(profile.mirrorUrl, {
        refusal: outcome.refusal,
        until: outcome.refusal.kind === 'off' ? Number.POSITIVE_INFINITY : Date.now() + 5 * 60_000,
      });
    if (outcome.replay || outcome.fault) this.logReplay(input.pathRef, outcome);
    const used = outcome.use;
    if (refusal) notes.push(refusalNote(refusal, !!outcome.replay && used?.by !== 'mirror'));
    if (outcome.fault) notes.push(faultNote(outcome.fault));
    const diverged = outcome.replay && !outcome.replay.verdict.matches ? outcome.replay.verdict : undefined;
    if (diverged && used?.by !== 'mirror')
      notes.push(
        diverged.checked
          ? vscode.l10n.t(
              "The local replay diverged from the network's record, so nothing from there on is exact; the location below is the likely one, from the call trace.",
            )
          : vscode.l10n.t(
              "The mirror node's record of this transaction is incomplete, so the local replay cannot be checked against it; the location below is the likely one, from the call trace.",
            ),
      );
    const traced: SourceTrace | undefined = input.simulated
      ? input.simulated.tracedBy
      : used
        ? traceOf(used.by === 'mirror' ? undefined : used.verdict)
        : diverged
          ? traceOf(diverged)
          : undefined;
    if (used) {
      const opcodes = { value: used.trace };
      {
        const stack = callStackOf(opcodes.value, input.actions);
        const frameBuilds = new Map<string, FrameBuild | { problem: string } | undefined>();
        for (const f of stack.frames) {
          const key = frameKey(f);
          if (frameBuilds.has(key)) continue;
          frameBuilds.set(key, await this.frameBuilds.frame(f, builds, deployments, signal));
        }
        const placed = placeFailure(stack, opcodes.value.opcodes, (f) => {
          const fb = frameBuilds.get(frameKey(f));
          return fb && 'build' in fb ? fb : undefined;
        });
        if (!placed.exact && placed.likely) {
          // the source map's place could not be confirmed: the likely places, said so, with why
          const fb = frameBuilds.get(frameKey(placed.likely.frame));
          const built = fb && 'build' in fb ? (fb as FrameBuild & { built: BuiltContract }).built : undefined;
          notes.push(
            vscode.l10n.t(
              "The opcode trace reaches a place the compiler's source map does not confirm ({0}): the places below are likely, not exact.",
              placed.likely.why,
            ),
          );
          notes.push(...placed.likely.result.notes, ...stack.notes);
          const frames = placed.likely.candidates.map((c) =>
            candidateView(
              c,
              this.target(c.location, built, targets, reason),
              placed.likely?.build.contract ?? '',
              placed.likely?.frame.entity,
              placed.likely?.frame.address,
            ),
          );
          if (frames.length) return { model: { mode: 'likely', reason, frames, notes, trace: traced }, targets };
          return {
            model: {
              mode: 'none',
              reason,
              trace: traced,
              frames: [],
              notes: [
                ...notes,
                vscode.l10n.t('No revert, require or assert statement of the called function matches the reason.'),
              ],
            },
            targets: [],
          };
        }
        const frames: SourceFrameView[] = [];
        if (!placed.exact) {
          // nothing of the failing frame can be placed: its call sites alone would be taken for the failing line
          for (const lf of placed.frames)
            if (!lf.location && lf.problem)
              notes.push(
                vscode.l10n.t(
                  'Frame {0} ({1}): {2}',
                  String(placed.frames.indexOf(lf) + 1),
                  entityText(lf.frame.entity, lf.frame.address),
                  lf.problem,
                ),
              );
        }
        if (placed.exact)
          placed.frames.forEach((lf, i) => {
            const fb = frameBuilds.get(frameKey(lf.frame));
            if (!lf.location) {
              const problem =
                fb && 'problem' in fb
                  ? fb.problem
                  : (lf.problem ?? vscode.l10n.t('no build of this contract in the workspace'));
              notes.push(
                vscode.l10n.t(
                  'Frame {0} ({1}): {2}',
                  String(i + 1),
                  entityText(lf.frame.entity, lf.frame.address),
                  problem,
                ),
              );
              return;
            }
            const built = fb && 'build' in fb ? (fb as FrameBuild & { built: BuiltContract }).built : undefined;
            // a failed deployment's build was matched by the creation code it ran (nothing on chain to compare)
            if (built && fb && 'build' in fb && !fb.match && fb.part !== 'creation' && built.build.folder >= 0) {
              notes.push(
                vscode.l10n.t(
                  "{0}: the workspace's build of {1} was not checked against the code on chain (the mirror node did not send it); if the source changed since the deployment, this line may be off.",
                  entityText(lf.frame.entity, lf.frame.address),
                  built.contractName,
                ),
              );
            }
            const target = this.target(lf.location, built, targets, i === 0 ? reason : undefined);
            frames.push(frameView(lf, target, built, i === 0 ? reason : undefined));
            // the internal function calls that led there, innermost first (their call sites, confirmed)
            for (const call of [...lf.confirmedInternal].reverse()) {
              frames.push({
                kind: 'internal',
                contract: built?.contractName ?? (lf.contract ? splitName(lf.contract) : undefined),
                sourceName: call.sourceName.replace(/^project\//, ''),
                line: call.line,
                column: call.column,
                snippet: oneLine(call.text, 160),
                detail: vscode.l10n.t('internal call'),
                target: this.target(call, built, targets, undefined),
                address: entityView(lf.frame.entity, lf.frame.address),
              });
            }
          });
        if (!placed.exact) notes.push(...stack.notes);
        if (placed.exact) notes.push(...stack.notes);
        if (frames.length) {
          for (const t of targets) t.tracedBy = traced?.text;
          return { model: { mode: 'exact', reason, frames, notes, trace: traced }, targets };
        }
      }
    }

    // likely: the innermost reverting frame of the call trace, and its function's revert statements
    const fa = failingAction(input.actions ?? []);
    const address = fa?.address ?? (typeof result.address === 'string' ? result.address : undefined);
    const entity = fa?.entity ?? result.contract_id ?? undefined;
    // a failed deployment: the build whose creation code the init code starts with, and its constructors
    const createOp = fa?.action.call_operation_type === 'CREATE' || fa?.action.call_operation_type === 'CREATE2';
    const initCode = createOp && typeof fa?.action.input === 'string' ? fa.action.input : undefined;
    const fb = initCode
      ? creationBuild(builds, initCode)
      : await this.frameBuilds.of(address, entity, builds, deployments, signal);
    if (!fb || 'problem' in fb) {
      notes.push(
        fb
          ? fb.problem
          : vscode.l10n.t(
              'No build of {0} in the workspace: the revert cannot be placed in source.',
              entityText(entity, address),
            ),
      );
      return { model: { mode: 'none', reason, frames: [], notes, trace: traced }, targets: [] };
    }
    const selector =
      fa?.selector ??
      (typeof result.function_parameters === 'string' ? result.function_parameters.slice(0, 10) : undefined);
    const likely = likelyLocations(
      fb.build,
      fb.contract,
      initCode ? undefined : selector,
      fa?.revertData ?? result.error_message ?? undefined,
      { creation: !!initCode },
    );
    notes.push(...likely.notes);
    const frames = likely.candidates.map((c) =>
      candidateView(
        c,
        this.target(c.location, (fb as FrameBuild & { built: BuiltContract }).built, targets, reason),
        fb.contract,
        entity,
        address,
      ),
    );
    if (!frames.length)
      notes.push(vscode.l10n.t('No revert, require or assert statement of the called function matches the reason.'));
    return { model: { mode: frames.length ? 'likely' : 'none', reason, frames, notes, trace: traced }, targets };
  }

  /**
   * Runs a replay with a cancellable progress notification: Cancel (or the caller's signal) aborts it; the
   * engine's step, time and request budgets bound it otherwise.
   */
  private withReplayProgress<T>(
    input: RevertInput,
    run: (signal?: AbortSignal) => Promise<T>,
    outer?: AbortSignal,
  ): Promise<T> {
    return Promise.resolve(
      vscode.window.withProgress(
        {
          location: vscode.ProgressLocation.Notification,
          title: vscode.l10n.t('Replaying {0} locally…', input.transactionId ?? input.pathRef),
          cancellable: true,
        },
        async (_progress, token) => {
          const controller = new AbortController();
          const abort = () => controller.abort();
          const sub = token.onCancellationRequested(abort);
          outer?.addEventListener('abort', abort);
          if (outer?.aborted) controller.abort();
          RevertLocator.replaying.add(controller);
          try {
            return await run(controller.signal);
          } finally {
            RevertLocator.replaying.delete(controller);
            outer?.removeEventListener('abort', abort);
            sub.dispose();
          }
        },
      ),
    );
  }

  /** What a replay did, in the log channel (ids, counts and the engine's sentences: nothing secret). */
  private logReplay(ref: string, outcome: StepTraceOutcome): void {
    const r = outcome.replay;
    if (r)
      this.ctx.log.info(
        `Revert to source: replayed ${ref}: ${r.verdict.summary} (${r.stats.steps} steps, ${r.stats.requests} requests, ${r.stats.bytes} bytes, ${Math.round(r.stats.cpuMs)} ms CPU)`,
      );
    if (outcome.fault)
      this.ctx.log.warn(
        `Revert to source: the replay of ${ref} stopped (${outcome.fault.kind}): ${outcome.fault.message}`,
      );
  }

  /** Registers a place to open; its index. */
  private target(
    loc: SourceLocation,
    built: BuiltContract | undefined,
    targets: SourceTarget[],
    reason: string | undefined,
  ): number {
    const uri = built ? this.uriOf(loc, built) : undefined;
    if (!uri) return -1;
    const range = new vscode.Range(
      loc.line - 1,
      Math.max(0, loc.column - 1),
      Math.max(loc.line, loc.endLine) - 1,
      loc.endLine > loc.line ? loc.endColumn - 1 : Math.max(loc.column - 1, loc.endColumn - 1),
    );
    const content = built?.build.build.input?.sources?.[loc.sourceName]?.content;
    targets.push({
      uri: uri.uri,
      range,
      readonly: uri.readonly,
      reason,
      ...(typeof content === 'string' ? { compiled: { sourceName: loc.sourceName, content } } : {}),
    });
    return targets.length - 1;
  }

  /**
   * The file of a source unit: the workspace folder's own file when its text is the compiled one (checked when the
   * place is opened), else a read-only document of the compiled source.
   */
  private uriOf(loc: SourceLocation, built: BuiltContract): { uri: vscode.Uri; readonly: boolean } | undefined {
    const content = built.build.build.input?.sources?.[loc.sourceName]?.content;
    const folder = folders()[built.build.folder];
    const rel = loc.sourceName.replace(/^project\//, '');
    const inProject =
      !!folder &&
      !loc.generated &&
      !/^(node_modules|lib)\//.test(rel) &&
      !rel.startsWith('@') &&
      !rel.startsWith('/') &&
      !rel.includes('..');
    if (inProject && folder) return { uri: vscode.Uri.joinPath(folder.uri, rel), readonly: false };
    if (typeof content !== 'string') return undefined;
    return { uri: this.documents.add(loc.sourceName, content), readonly: true };
  }
}

/** Why the opcode endpoint gave no trace, and what was used instead. */
function refusalNote(r: EndpointRefusal, replayed: boolean): string {
  const why = refusalWhy(r);
  if (r.kind === 'busy')
    return replayed
      ? vscode.l10n.t(
          "The mirror node's opcode endpoint did not answer ({0}); the transaction was replayed locally instead.",
          why,
        )
      : vscode.l10n.t(
          "The mirror node's opcode endpoint did not answer ({0}); the location below is the likely one, from the call trace.",
          why,
        );
  if (replayed)
    return r.kind === 'transaction'
      ? vscode.l10n.t('The mirror node could not trace this transaction ({0}); it was replayed locally instead.', why)
      : vscode.l10n.t(
          'This mirror node does not give opcode traces ({0}); the transaction was replayed locally instead.',
          why,
        );
  return r.kind === 'transaction'
    ? vscode.l10n.t(
        'The mirror node could not trace this transaction ({0}); the location below is the likely one, from the call trace.',
        why,
      )
    : vscode.l10n.t(
        'This mirror node does not give opcode traces ({0}); the location below is the likely one, from the call trace.',
        why,
      );
}

/** Why a replay stopped, in a sentence (the engine's own sentence inside, as plain text). */
function faultNote(f: ReplayFault): string {
  if (f.kind === 'cancelled')
    return vscode.l10n.t('The local replay was cancelled; the location below is the likely one, from the call trace.');
  return vscode.l10n.t(
    'The local replay stopped: {0} The location below is the likely one, from the call trace.',
    oneLine(f.message, 300).replace(/([^.])$/, '$1.'),
  );
}

/** The key of a frame's build: its contract (address and entity), or the init code of a creation. */
function frameKey(f: { address?: string; entity?: string; creation?: { initCode: string } }): string {
  return f.creation ? `create:${f.creation.initCode}` : `${f.address ?? ''}|${f.entity ?? ''}`;
}

function splitName(identifier: string): string {
  const i = identifier.lastIndexOf(':');
  return i < 0 ? identifier : identifier.slice(i + 1);
}

function reasonOf(errorMessage: string | null | undefined): string | undefined {
  const d = decodeRevert(errorMessage);
  return d ? oneLine(d.message, 300) : undefined;
}

function entityText(entity: string | null | undefined, address: string | null | undefined): string {
  return entity ?? address ?? vscode.l10n.t('the contract');
}

function entityView(entity: string | null | undefined, address: string | null | undefined): EntityView | undefined {
  if (!entity && !address) return undefined;
  const v: EntityView = { kind: 'contract' };
  if (entity) v.id = entity;
  if (address && !evmAddressToEntityId(address)) v.evm = address.toLowerCase();
  return v;
}

function candidateView(
  c: LikelyCandidate,
  target: number,
  contract: string,
  entity: string | null | undefined,
  address: string | null | undefined,
): SourceFrameView {
  return {
    kind: 'candidate',
    contract: splitName(contract),
    sourceName: c.location.sourceName.replace(/^project\//, ''),
    line: c.location.line,
    column: c.location.column,
    snippet: oneLine(c.location.text, 160),
    detail:
      c.via.length > 1 ? vscode.l10n.t('in {0}, via {1}', c.in, c.via.join(' → ')) : vscode.l10n.t('in {0}', c.in),
    target,
    address: entityView(entity, address),
  };
}

function frameView(
  lf: PlacedFrame,
  target: number,
  built: BuiltContract | undefined,
  reason: string | undefined,
): SourceFrameView {
  const loc = lf.location as SourceLocation;
  const details: string[] = [];
  // a call site the AST does not confirm is shown, but never as certain
  if (lf.confirmation && !lf.confirmation.confirmed)
    details.push(vscode.l10n.t('likely, not confirmed: {0}', lf.confirmation.why));
  if (lf.generated) details.push(vscode.l10n.t('in code the compiler generated ({0})', lf.generated.sourceName));
  if (lf.frame.kind === 'outOfGas') details.push(vscode.l10n.t('ran out of gas here'));
  if (lf.frame.creation) details.push(vscode.l10n.t('a failed deployment: in its constructor'));
  if (lf.frame.kind === 'callSite') details.push(vscode.l10n.t('called from here'));
  if (reason && lf.frame.kind !== 'callSite') details.push(reason);
  const name = built?.contractName ?? (lf.contract ? splitName(lf.contract) : undefined);
  return {
    // a failed deployment ran the constructor, not the contract (whose code never ran)
    kind: lf.frame.kind,
    contract: name && lf.frame.creation ? vscode.l10n.t('the constructor of {0}', name) : name,
    sourceName: loc.sourceName.replace(/^project\//, ''),
    line: loc.line,
    column: loc.column,
    snippet: oneLine(loc.text, 160),
    ...(details.length ? { detail: details.join(' · ') } : {}),
    target,
    address: entityView(lf.frame.entity, lf.frame.address),
  };
}
