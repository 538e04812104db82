/**
 * The debugger's host side, loaded on the first debug session (a lazy entry of the build): a `hedera` session's
 * transaction read from the selected network's mirror node (its contract result, call trace and opcode log with
 * stack, memory and storage), every frame's contract resolved to the workspace's build deployed (the one resolver,
 * src/workspace/deployedBuild.ts, held against the code on chain; a build held as input only compiled as revert to
 * source compiles it), and the sources the trace ran through mapped to the workspace's files where they hold the very
 * text compiled (else the adapter shows the compiled text read-only).
 */
import * as vscode from 'vscode';
import { DebugTrace, type FrameIdentity } from '../../api/debug/trace';
import { refusalWhy, replayModeOf, stepTraceOf, traceOf } from '../../api/source/stepTrace';
import { oneLine } from '../../api/text';
import { NETWORK_NAMES, type NetworkName } from '../../api/networks';
import { type Explorer, parseTxRef, type TxRef, txRefText } from '../../api/txRef';
import { MissingOutputs } from '../../core/missingOutputs';
import { config, profileOf } from '../../core/settings';
import { FrameBuilds, type ResolvedFrameBuild } from '../../workspace/frameBuild';
import type { FeatureContext } from '../context';
import { HederaDebugSession, type HederaLaunchArguments, type LoadedTransaction } from './session';

/** The command's check of a transaction reference, loaded with the adapter (see index.ts). */
export { parseTxRef } from '../../api/txRef';

export function createSession(ctx: FeatureContext): HederaDebugSession {
  return new HederaDebugSession({ load: (args) => loadTransaction(ctx, args) });
}

/** The outputs of deployed builds held as input only, produced for the debugger (one per window). */
let outputs: MissingOutputs | undefined;
function missingOutputs(ctx: FeatureContext): MissingOutputs {
  outputs ??= new MissingOutputs({
    globalStorageUri: ctx.extension.globalStorageUri,
    log: ctx.log,
    feature: 'Debugger',
    afterTrust: vscode.l10n.t('then start the debug session again'),
    toRetry: vscode.l10n.t('start the debug session again to compile it'),
  });
  return outputs;
}

function explorers(selected: NetworkName): Explorer[] {
  const names = [selected, ...NETWORK_NAMES.filter((n) => n !== selected)];
  return names.map((name) => ({ name, hashscanUrl: profileOf(name).hashscanUrl }));
}

/** The mirror node's paths for a reference: a timestamp named by its transaction id (and nonce) first. */
async function pathOf(
  ctx: FeatureContext,
  ref: TxRef,
  text: string,
): Promise<{ pathRef: string; nonce?: number; id?: string }> {
  if (ref.kind === 'hash') return { pathRef: ref.hash };
  if (ref.kind === 'transactionId') return { pathRef: txRefText(ref), nonce: ref.nonce, id: ref.id };
  const tx = await ctx.network.clients.mirror.transactionAt(ref.timestamp);
  if (!tx?.transaction_id)
    throw new Error(vscode.l10n.t('The mirror node has no transaction at the consensus timestamp {0}.', text));
  const nonce = Number(tx.nonce ?? 0);
  return { pathRef: tx.transaction_id, nonce: nonce > 0 ? nonce : undefined, id: tx.transaction_id };
}

async function loadTransaction(ctx: FeatureContext, args: HederaLaunchArguments): Promise<LoadedTransaction> {
  const selected = ctx.network.profile.name;
  const text = typeof args.transaction === 'string' ? args.transaction.trim() : '';
  if (!text) throw new Error(vscode.l10n.t('The launch configuration names no transaction.'));
  const parsed = parseTxRef(text, explorers(selected));
  if (!parsed.ok) throw new Error(parsed.message);
  const ref = parsed.value;
  const network = args.network ?? ref.network;
  if (network && network !== selected)
    throw new Error(
      vscode.l10n.t('This transaction is on {0}, the selected network is {1}: select {0} first.', network, selected),
    );
  const { mirror, http } = ctx.network.clients;
  const named = await pathOf(ctx, ref, text);
  const details = await mirror.contractResultDetails(named.pathRef, named.nonce ? { nonce: named.nonce } : {});
  if (!details) throw new Error(vscode.l10n.t('The mirror node has no contract call for {0}.', text));
  // a child transaction's (nonce > 0) actions and opcodes are asked for by its own hash
  const pathRef =
    named.nonce && typeof details.value.hash === 'string' && /^0x[0-9a-fA-F]{64}$/.test(details.value.hash)
      ? details.value.hash
      : named.pathRef;
  const [actions, outcome] = await Promise.all([
    mirror.contractActions(pathRef),
    stepTraceOf({
      mirror,
      http,
      ref: pathRef,
      mode: replayModeOf(config().get('replay.mode')),
      detail: { stack: true, memory: true, storage: true },
      aroundReplay: (run) => withReplayProgress(named.id ?? text, run),
    }),
  ]);
  const notes: string[] = [];
  if (outcome.replay)
    ctx.log.info(
      `Debugger: replayed ${pathRef}: ${outcome.replay.verdict.summary} (${outcome.replay.stats.steps} steps, ${outcome.replay.stats.requests} requests)`,
    );
  if (outcome.fault)
    ctx.log.warn(`Debugger: the replay of ${pathRef} stopped (${outcome.fault.kind}): ${outcome.fault.message}`);
  // the trace: the endpoint's, a replay that matches the record, else a diverging replay up to its divergence
  const diverged = !outcome.use && outcome.replay?.verdict.checked ? outcome.replay : undefined;
  const used = outcome.use ?? (diverged ? { by: 'replay' as const, ...diverged } : undefined);
  if (!used) {
    const why: string[] = [];
    if (outcome.refusal)
      why.push(vscode.l10n.t('the mirror node gives no step trace for it ({0})', refusalWhy(outcome.refusal)));
    if (outcome.fault) why.push(vscode.l10n.t('the local replay stopped: {0}', oneLine(outcome.fault.message, 300)));
    else if (outcome.replay) why.push(traceOf(outcome.replay.verdict).text);
    throw new Error(
      vscode.l10n.t('This transaction cannot be debugged: {0}.', why.join('; ') || vscode.l10n.t('no step trace')),
    );
  }
  notes.push(traceOf(used.by === 'mirror' ? undefined : used.verdict).text);
  if (diverged)
    notes.push(
      vscode.l10n.t(
        'The steps after the divergence ({0} of {1} are exact) are shown in the disassembly only, never on a line.',
        String(diverged.verdict.exactSteps),
        String(diverged.trace.opcodes.length),
      ),
    );
  const exactSteps = diverged ? diverged.verdict.exactSteps : undefined;
  const trace = used.trace;
  const acts = actions?.actions ?? [];
  const top = { address: trace.address, entity: trace.contract_id };
  // every frame's contract, then its build: the workspace's build deployed (checked against the code on chain),
  // else the sources verified on Sourcify (read-only)
  const probe = new DebugTrace({ opcodes: trace.opcodes, actions: acts, top, resolve: () => undefined });
  const builds = await ctx.builds.get();
  await ctx.abis.scanned();
  const deployments = ctx.abis.workspace().deployments;
  const lookup = new FrameBuilds({
    network: () => ({ chainId: ctx.network.profile.chainId, verifyUrl: ctx.network.profile.verifyUrl, http }),
    contract: (idOrAddress, signal) =>
      ctx.chainCode.on(() => ({ key: ctx.network.profile.mirrorUrl, mirror })).contract(idOrAddress, { signal }),
    // a build held as input only (Hardhat 3's Ignition copies): compiled with the user's compiler of its version
    produce: (build) =>
      missingOutputs(ctx).produce(
        build,
        (vscode.workspace.workspaceFolders ?? []).filter((f) => f.uri.scheme === 'file').map((f) => f.uri.fsPath),
      ),
    log: (level, line) => ctx.log[level](`Debugger: ${line}`),
  });
  const resolved = new Map<string, ResolvedFrameBuild>();
  const key = (f: FrameIdentity): string => (f.creation ? `create:${f.creation.initCode}` : `${f.address}|${f.entity}`);
  for (const f of probe.frames) {
    if (f.precompile || resolved.has(key(f))) continue;
    const fb = await lookup.frame(f, builds, deployments);
    if (fb && 'build' in fb) resolved.set(key(f), fb);
    else if (fb)
      notes.push(
        vscode.l10n.t('{0}: {1} Its steps are shown in the disassembly.', f.entity ?? f.address ?? '?', fb.problem),
      );
  }
  const debugTrace = new DebugTrace({
    opcodes: trace.opcodes,
    actions: acts,
    top,
    resolve: (f) => resolved.get(key(f)),
    exactSteps,
  });
  // sources: the workspace's file when it holds the very text compiled
  const paths = new Map<string, string>();
  const folders = vscode.workspace.workspaceFolders ?? [];
  for (const fb of resolved.values()) {
    const folder = folders[fb.built.build.folder];
    if (!folder) continue;
    for (const [name, s] of Object.entries(fb.build.input?.sources ?? {})) {
      if (paths.has(name) || typeof s?.content !== 'string') continue;
      const rel = name.replace(/^project\//, '');
      if (rel.startsWith('@') || rel.startsWith('/') || rel.includes('..') || /^(node_modules|lib)\//.test(rel))
        continue;
      const uri = vscode.Uri.joinPath(folder.uri, rel);
      try {
        const bytes = await vscode.workspace.fs.readFile(uri);
        // a file's path, another scheme's URI (a virtual or remote folder): VS Code reads a path with a scheme as a URI
        if (new TextDecoder().decode(bytes) === s.content)
          paths.set(name, uri.scheme === 'file' ? uri.fsPath : uri.toString());
      } catch {
        // not in the workspace: shown read-only
      }
    }
  }
  const byPath = new Map([...paths].map(([n, p]) => [p, n]));
  return {
    trace: debugTrace,
    title: text.length > 80 ? `${text.slice(0, 77)}…` : text,
    notes,
    pathOf: (name) => paths.get(name),
    sourceNameOf: (p) => byPath.get(p),
  };
}

/** Runs a replay inside a cancellable progress notification (its Cancel aborts the replay). */
function withReplayProgress<T>(name: string, run: (signal?: AbortSignal) => Promise<T>): Promise<T> {
  return Promise.resolve(
    vscode.window.withProgress(
      {
        location: vscode.ProgressLocation.Notification,
        title: vscode.l10n.t('Replaying {0} locally…', name),
        cancellable: true,
      },
      async (_progress, token) => {
        const controller = new AbortController();
        const sub = token.onCancellationRequested(() => controller.abort());
        try {
          return await run(controller.signal);
        } finally {
          sub.dispose();
        }
      },
    ),
  );
}
