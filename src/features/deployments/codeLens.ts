/**
 * CodeLens above each `contract X` / `library X` of a Solidity file that the workspace's deployment records deploy
 * on the selected network's chain:
 *   `0.0.1234 · 12 calls, last 5 min. ago · verified (exact match)`  → Contract Results filtered to it
 *   (`… · not the build deployed` when the workspace's build of it is not the code on chain: src/workspace/deployedBuild.ts)
 *   `2 failed`                                                       → the latest failure in the transaction inspector
 *   `Debug`                                                          → the latest failure in VS Code's debugger
 *   `Verify`                                                         → Verify Contract for that address
 *   `Call`                                                           → its call panel (once the mirror node knows it)
 * and, with `Call`, `Read` or `Simulate` above each public or external function of the contract's own body (its call
 * panel at that function; `hederaExplorer.codeLens.functions`).
 * Nothing is asked while lenses are provided: `resolveCodeLens` (called by VS Code for the lenses on screen) asks
 * the model, which keeps the answers (results LENS_MAX_AGE_MS); when they arrive the lenses are provided again from
 * what is kept, now with the failure and Verify lenses their answers call for. An undeployed contract gets nothing,
 * or with `hederaExplorer.codeLens.showUndeployed` one quiet `not deployed on <network>`. Part of the lazy entry.
 */
import * as vscode from 'vscode';
import { shortAddress } from '../../api/format';
import { oneLine } from '../../api/text';
import { config } from '../../core/settings';
import type { FeatureContext } from '../context';
import { COMMANDS, OTHER_COMMANDS } from './ids';
import type { BuildState, DeploymentsModel, EntryState } from './model';
import { type DeploymentEntry, deploymentsOf } from './records';
import { findDeclarations, findFunctions, type SolidityFunction } from './solidity';
import { canVerify, failedText, lensTitle, type VerificationState } from './summary';

/** Results shown by a lens are asked again when older than this (when the lens is on screen again). */
export const LENS_MAX_AGE_MS = 60_000;

type LensKind = 'main' | 'failures' | 'debug' | 'verify' | 'call' | 'function' | 'undeployed';

/** A lens and what it is about (the entry's key, resolved again by key: the records may have changed). */
export class DeploymentLens extends vscode.CodeLens {
  constructor(
    range: vscode.Range,
    readonly kind: LensKind,
    readonly entry: DeploymentEntry | undefined,
    command?: vscode.Command,
  ) {
    super(range, command);
  }
}

const verificationOf = (s: EntryState): VerificationState | undefined =>
  s.verification?.error !== undefined
    ? {
        kind: 'error',
        message: s.verification.error instanceof Error ? s.verification.error.message : String(s.verification.error),
      }
    : s.verification?.value;

export class DeploymentLenses {
  constructor(
    private readonly ctx: FeatureContext,
    private readonly model: DeploymentsModel,
  ) {}

  /** The lenses of a document: per deployed declaration, the main lens (resolved later) and those its kept answers call for. */
  async provide(document: vscode.TextDocument, token: vscode.CancellationToken): Promise<DeploymentLens[]> {
    await this.model.ensureScanned();
    if (token.isCancellationRequested) return [];
    const profile = this.ctx.network.profile;
    const folder = vscode.workspace.getWorkspaceFolder(document.uri);
    const docPath = folder ? vscode.workspace.asRelativePath(document.uri, false) : undefined;
    const showUndeployed = config().get<boolean>('codeLens.showUndeployed', false) === true;
    const withFunctions = config().get<boolean>('codeLens.functions', true) !== false;
    const lenses: DeploymentLens[] = [];
    const text = document.getText();
    let functions: SolidityFunction[] | undefined;
    for (const d of findDeclarations(text)) {
      const start = document.positionAt(d.offset);
      const range = new vscode.Range(start, start);
      const deployed = deploymentsOf(this.model.entries, d.name, docPath, profile.chainId, folder?.uri.toString());
      if (!deployed.length) {
        if (showUndeployed) {
          lenses.push(
            new DeploymentLens(range, 'undeployed', undefined, {
              title: vscode.l10n.t('not deployed on {0}', profile.label),
              command: '',
              tooltip: vscode.l10n.t(
                'No deployment record of the workspace (Hardhat Ignition, hardhat-deploy, Foundry broadcast) deploys {0} on chain {1}.',
                d.name,
                profile.chainId,
              ),
            }),
          );
        }
        continue;
      }
      for (const e of deployed) {
        lenses.push(new DeploymentLens(range, 'main', e));
        const s = this.model.state(e);
        const failures = this.failuresCommand(e, s);
        if (failures) {
          lenses.push(new DeploymentLens(range, 'failures', e, failures));
          lenses.push(new DeploymentLens(range, 'debug', e, this.debugCommand(e, failures)));
        }
        const verify = this.verifyCommand(e, s);
        if (verify) lenses.push(new DeploymentLens(range, 'verify', e, verify));
        const call = this.callCommand(e, s);
        if (call) lenses.push(new DeploymentLens(range, 'call', e, call));
        if (call && withFunctions && d.kind === 'contract') {
          const id = s.contract?.value?.id ?? e.address;
          for (const f of (functions ??= findFunctions(text, d))) {
            const at = new vscode.Range(document.positionAt(f.offset), document.positionAt(f.offset));
            lenses.push(new DeploymentLens(at, 'function', e, this.functionCommand(e, id, f, deployed.length > 1)));
          }
        }
      }
      functions = undefined;
    }
    return lenses;
  }

  /** The main lens, once the contract's answers are there (asked now if they are missing or older than LENS_MAX_AGE_MS). */
  async resolve(lens: DeploymentLens, token: vscode.CancellationToken): Promise<DeploymentLens> {
    if (lens.command || !lens.entry) return lens;
    const e = this.model.entries.find((x) => x.key === lens.entry?.key) ?? lens.entry;
    // the build deployed is resolved with the answers (the window's one read of the builds; no request of its own)
    const [s, build] = await Promise.all([this.model.load(e, LENS_MAX_AGE_MS), this.model.build(e)]);
    if (token.isCancellationRequested) return lens;
    lens.command = this.mainCommand(e, s, build);
    return lens;
  }

  /**
   * The main lens's title and what a click does. A build that is not the code on chain is said (the file above the
   * lens is not what runs there); a confirmed one, or one that could not be compared, adds nothing.
   */
  mainCommand(e: DeploymentEntry, s: EntryState, build?: BuildState): vscode.Command {
    const profile = this.ctx.network.profile;
    const retry = (what: string, error: unknown): vscode.Command => ({
      title: `${shortAddress(e.address)} · ${what}`,
      command: COMMANDS.retry,
      arguments: [e.key],
      tooltip: `${oneLine(error instanceof Error ? error.message : String(error), 300)}\n${vscode.l10n.t('Click to try again.')}`,
    });
    if (s.contract?.error !== undefined)
      return retry(vscode.l10n.t('lookup failed on {0}', profile.label), s.contract.error);
    if (s.contract?.value?.id === null) {
      return {
        title: [
          shortAddress(e.address),
          vscode.l10n.t('not found on {0}', profile.label),
          lensTitle('', undefined, verificationOf(s), Date.now(), vscode.env.language),
        ]
          .filter(Boolean)
          .join(' · '),
        command: COMMANDS.openRecord,
        arguments: [e.key],
        tooltip: vscode.l10n.t(
          "{0}'s record ({1}) says it is at {2}; the mirror node of {3} knows no contract there. Click to open the record.",
          e.name,
          e.where,
          e.address,
          profile.label,
        ),
      };
    }
    const id = s.contract?.value?.id;
    if (!id) return { title: `${shortAddress(e.address)} · ${vscode.l10n.t('loading…')}`, command: '' };
    if (s.results?.error !== undefined) return retry(vscode.l10n.t('{0}: results failed to load', id), s.results.error);
    const summary = s.results?.value?.summary;
    const differs = build?.kind === 'mismatch';
    const title = lensTitle(id, summary, verificationOf(s), Date.now(), vscode.env.language);
    const tooltip = vscode.l10n.t(
      '{0} at {1} ({2}), from {3}. Click to show its results in Contract Results.',
      e.name,
      e.address,
      profile.label,
      e.where,
    );
    return {
      title: differs ? `${title} · ${vscode.l10n.t('not the build deployed')}` : title,
      command: OTHER_COMMANDS.showContractResults,
      arguments: [id],
      // the build's sentence is the workspace's and the resolver's text: a plain tooltip, never Markdown
      tooltip: differs
        ? `${vscode.l10n.t("The workspace's build of {0} is not the code deployed at {1}: {2}", e.name, e.address, oneLine(build.sentence, 600))}\n${tooltip}`
        : tooltip,
    };
  }

  /** `2 failed` → the newest failed result in the inspector; undefined when the kept results have no failure. */
  failuresCommand(e: DeploymentEntry, s: EntryState): vscode.Command | undefined {
    const summary = s.results?.value?.summary;
    if (!summary?.failed || !summary.latestFailure || s.results?.error !== undefined) return undefined;
    return {
      title: failedText(summary),
      command: OTHER_COMMANDS.inspect,
      arguments: [{ timestamp: summary.latestFailure, network: this.ctx.network.profile.name }],
      tooltip: vscode.l10n.t(
        '{0} of the latest {1} calls of {2} failed. Click to inspect the latest failure ({3}).',
        summary.failed,
        summary.calls,
        e.name,
        summary.latestFailure,
      ),
    };
  }

  /** `Debug` beside the failure count: the same latest failure in VS Code's debugger. */
  debugCommand(e: DeploymentEntry, failures: vscode.Command): vscode.Command {
    return {
      title: vscode.l10n.t('Debug'),
      command: OTHER_COMMANDS.debug,
      arguments: failures.arguments,
      tooltip: vscode.l10n.t('Step through the latest failed call of {0} in the debugger.', e.name),
    };
  }

  /**
   * `Call` once the mirror node knows the contract and its results were read (as the failure lens, from what is kept:
   * nothing kept, only the main lens): its call panel, to read and simulate its functions.
   */
  callCommand(e: DeploymentEntry, s: EntryState): vscode.Command | undefined {
    const id = s.contract?.value?.id;
    if (!id || !s.results?.value) return undefined;
    return {
      title: vscode.l10n.t('Call'),
      command: OTHER_COMMANDS.callContract,
      arguments: [{ address: e.address }],
      tooltip: vscode.l10n.t(
        "Read or simulate {0}'s functions at {1} on {2}: nothing is signed or sent to the network.",
        e.name || e.address,
        id,
        this.ctx.network.profile.label,
      ),
    };
  }

  /**
   * `Read` or `Simulate` above a public or external function (or `Read` above a public state variable, its getter) of
   * a contract that has the `Call` lens: its call panel at that function (by name and number of inputs: the panel
   * picks the ABI's function; none, and it opens as `Call`).
   */
  functionCommand(e: DeploymentEntry, id: string, f: SolidityFunction, several: boolean): vscode.Command {
    const read = f.mutability === 'view' || f.mutability === 'pure';
    const title = read ? vscode.l10n.t('Read') : vscode.l10n.t('Simulate');
    const network = this.ctx.network.profile.label;
    return {
      title: several ? `${title} · ${id}` : title,
      command: OTHER_COMMANDS.callContract,
      arguments: [{ address: e.address, function: f.name, ...(f.inputs === undefined ? {} : { inputs: f.inputs }) }],
      tooltip: read
        ? vscode.l10n.t(
            'Read {0} of {1} at {2} on {3}: nothing is signed or sent to the network.',
            f.name,
            e.name,
            id,
            network,
          )
        : vscode.l10n.t(
            'Simulate {0} of {1} at {2} on {3} (the mirror node runs it; nothing is signed or sent to the network).',
            f.name,
            e.name,
            id,
            network,
          ),
    };
  }

  /** `Verify` when Sourcify has no (or only a partial) match; for a partial one it submits the build again for an exact match. */
  verifyCommand(e: DeploymentEntry, s: EntryState): vscode.Command | undefined {
    const v = s.verification?.value;
    if (!canVerify(v)) return undefined;
    return {
      title: vscode.l10n.t('Verify'),
      command: COMMANDS.verify,
      arguments: [{ address: e.address, chainId: this.ctx.network.profile.chainId, contractName: e.name }],
      tooltip:
        v?.kind === 'match'
          ? vscode.l10n.t(
              "{0} at {1} is only partially verified on Sourcify: submit the workspace's build again for an exact match.",
              e.name,
              e.address,
            )
          : vscode.l10n.t("Verify {0} at {1} on Sourcify with the workspace's build.", e.name, e.address),
    };
  }
}
