/**
 * The debugger's host side, loaded on the first debug session (a lazy entry of the build): a `hedera` session's
 * transaction read from the selected network's mirror node (its contract result, call trace and opcode log with
 * stack, memory and storage), every frame's contract resolved to the workspace's build deployed (the one resolver,
 * src/workspace/deployedBuild.ts, held against the code on chain), and the sources the trace ran through mapped to
 * the workspace's files where they hold the very text compiled (else the adapter shows the compiled text read-only).
 */
import * as vscode from 'vscode';
import { DebugTrace, type FrameIdentity } from '../../api/debug/trace';
import type { FrameBuild } from '../../api/source/locate';
import { NETWORK_NAMES, type NetworkName } from '../../api/networks';
import { type Explorer, parseTxRef, txRefText } from '../../api/txRef';
import { entityIdToEvmAddress, evmAddressToEntityId } from '../../api/validation';
import { profileOf } from '../../core/settings';
import type { FeatureContext } from '../context';
import { HederaDebugSession, type HederaLaunchArguments, type LoadedTransaction } from './session';

export function createSession(ctx: FeatureContext): HederaDebugSession {
  return new HederaDebugSession({ load: (args) => loadTransaction(ctx, args) });
}

function explorers(selected: NetworkName): Explorer[] {
  const names = [selected, ...NETWORK_NAMES.filter((n) => n !== selected)];
  return names.map((name) => ({ name, hashscanUrl: profileOf(name).hashscanUrl }));
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
  if (ref.kind === 'timestamp')
    throw new Error(vscode.l10n.t('Debugging takes a transaction id or hash; a consensus timestamp is not enough.'));
  const pathRef = ref.kind === 'hash' ? ref.hash : txRefText(ref);
  const { mirror } = ctx.network.clients;
  const [details, actions, opcodes] = await Promise.all([
    mirror.contractResultDetails(pathRef, ref.kind === 'transactionId' && ref.nonce ? { nonce: ref.nonce } : {}),
    mirror.contractActions(pathRef),
    mirror.contractOpcodes(pathRef, { stack: true, memory: true, storage: true }),
  ]);
  if (!details) throw new Error(vscode.l10n.t('The mirror node has no contract call for {0}.', text));
  if (opcodes.kind === 'unavailable')
    throw new Error(
      vscode.l10n.t(
        'The mirror node gives no step trace for this transaction (HTTP {0}{1}).',
        String(opcodes.status),
        opcodes.serverMessages.length ? `: ${opcodes.serverMessages.join('; ').slice(0, 200)}` : '',
      ),
    );
  const trace = opcodes.value;
  const acts = actions?.actions ?? [];
  const top = { address: trace.address, entity: trace.contract_id };
  // every frame's contract, then its build (the workspace's build deployed, checked against the code on chain)
  const probe = new DebugTrace({ opcodes: trace.opcodes, actions: acts, top, resolve: () => undefined });
  const builds = await ctx.builds.get();
  await ctx.abis.scanned();
  const deployments = ctx.abis.workspace().deployments;
  const chainId = ctx.network.profile.chainId;
  const notes: string[] = [];
  const resolved = new Map<string, FrameBuild & { folder: number }>();
  const key = (f: FrameIdentity): string => (f.creation ? `create:${f.creation.initCode}` : `${f.address}|${f.entity}`);
  for (const f of probe.frames) {
    if (f.precompile || resolved.has(key(f))) continue;
    if (f.creation) {
      const built = builds.findCreation(f.creation.initCode);
      if (built)
        resolved.set(key(f), {
          build: built.build.build,
          contract: built.identifier,
          part: 'creation',
          folder: built.build.folder,
        });
      continue;
    }
    const id = f.entity ?? (f.address ? evmAddressToEntityId(f.address) : undefined);
    const info = id
      ? await ctx.chainCode
          .on(() => ({ key: ctx.network.profile.mirrorUrl, mirror }))
          .contract(id)
          .catch(() => undefined)
      : undefined;
    const long = id ? entityIdToEvmAddress(id) : undefined;
    const forms = [
      ...new Set(
        [
          typeof info?.evm_address === 'string' ? info.evm_address.toLowerCase() : undefined,
          f.address,
          long?.ok ? long.value : undefined,
        ].filter((x): x is string => !!x),
      ),
    ];
    const runtime = typeof info?.runtime_bytecode === 'string' ? info.runtime_bytecode : undefined;
    const found = forms.length
      ? await builds.resolve(forms, { chainId, deployments, runtimeBytecode: runtime })
      : undefined;
    if (found?.built && !(found.code && !found.code.match))
      resolved.set(key(f), {
        build: found.built.build.build,
        contract: found.built.identifier,
        match: found.code,
        folder: found.built.build.folder,
      });
    else if (found?.code && !found.code.match)
      notes.push(
        vscode.l10n.t(
          "The code deployed at {0} is not the workspace's build of {1}: its steps are shown in the disassembly.",
          f.entity ?? f.address ?? '?',
          found.match.contract.name,
        ),
      );
  }
  const debugTrace = new DebugTrace({
    opcodes: trace.opcodes,
    actions: acts,
    top,
    resolve: (f) => resolved.get(key(f)),
  });
  // sources: the workspace's file when it holds the very text compiled
  const paths = new Map<string, string>();
  const folders = vscode.workspace.workspaceFolders ?? [];
  for (const fb of resolved.values()) {
    const folder = folders[fb.folder];
    if (!folder) continue;
    for (const [name, s] of Object.entries(fb.build.input?.sources ?? {})) {
      if (paths.has(name) || typeof s?.content !== 'string') continue;
      const rel = name.replace(/^project\//, '');
      if (rel.startsWith('@') || rel.startsWith('/') || rel.includes('..') || /^(node_modules|lib)\//.test(rel))
        continue;
      const uri = vscode.Uri.joinPath(folder.uri, rel);
      try {
        const bytes = await vscode.workspace.fs.readFile(uri);
        if (new TextDecoder().decode(bytes) === s.content && uri.scheme === 'file') paths.set(name, uri.fsPath);
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
