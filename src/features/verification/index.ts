/**
 * "Hedera: Verify Contract", the Verification view and the explorer API key commands, as registered at
 * activation. Eager and small: the command ids, the kept results (results.ts) and the view created through
 * LazyTreeView. Two parts load lazily, with a synchronous `require` (lazy entries of the build):
 * - view.ts, the view's rows, with the first rows VS Code asks for (kept results show as soon as the view does);
 * - verifyContract.ts, the run itself (discovery, build info, Sourcify clients, local check), with the first run.
 */
import * as vscode from 'vscode';
import { Command } from '../../api/commands';
import { registerCommand } from '../../core/commands';
import { ContextKey, setContext } from '../../core/contextKeys';
import { soon } from '../../core/disposables';
import { API_KEY_SECRET } from '../../core/secrets';
import type { FeatureContext } from '../context';
import { hashscanUrl } from '../../api/networks';
import { copyText, openUrl } from '../../ui/actions';
import { LazyTreeView } from '../../ui/lazyTree';
import type { TreeNode } from '../../ui/nodes';
import { clearApiKey, setApiKey } from './apiKey';
import { recordingPrompts, vscodePrompts, type PromptInfo } from './prompts';
import type { VerificationChange, VerificationRecord } from './record';
import { VerificationResults } from './results';
import type { VerificationRunner, VerifyArgs } from './verifyContract';
import type { VerificationTree, ViewSnapshot } from './view';
import type { AddressCandidate } from '../../workspace/discovery';

const VERIFICATION_VIEW = 'hederaExplorer.verification';

export type { VerificationChange } from './record';

/**
 * Every finished verification run (a Verify from the palette, a view or a lens, a Retry, an upgrade), for the
 * features that show verification states (the Deployments view, the CodeLens): one event on the FeatureContext
 * (`ctx.verifications`), created by the composition root. Only the verification feature fires it.
 */
export class VerificationEvents implements vscode.Disposable {
  private readonly emitter = new vscode.EventEmitter<VerificationChange>();
  /** Fires after a run's result was kept and shown. */
  readonly onDidVerify = this.emitter.event;

  /** The verification feature only: a run finished (record.ts `verificationChange` of its result). */
  fire(change: VerificationChange): void {
    this.emitter.fire(change);
  }

  dispose(): void {
    this.emitter.dispose();
  }
}

/** The commands of the feature (package.json contributes them). */
export const COMMANDS = {
  verify: Command.verifyContract,
  setApiKey: Command.setApiKey,
  clearApiKey: Command.clearApiKey,
  rerun: Command.verificationRerun,
  clear: Command.verificationClear,
  showKept: Command.verificationShowKept,
  copyAddress: Command.verificationCopyAddress,
  copyPath: Command.verificationCopyPath,
  copyResult: Command.verificationCopyResult,
  openFile: Command.verificationOpenFile,
  openInHashScan: Command.verificationOpenInHashScan,
} as const;
export type VerificationCommands = typeof COMMANDS;

/** What the integration tests drive and read (`api.testing.verification`); built in test mode only. */
export interface VerificationSeam {
  run(args?: VerifyArgs): Promise<VerificationRecord | undefined>;
  cancel(): void;
  readonly isRunning: boolean;
  current(): VerificationRecord | undefined;
  kept(): VerificationRecord[];
  clearAll(): Promise<void>;
  /** Re-reads the kept results from workspaceState. */
  reload(): void;
  /** The view's rows as VS Code gets them (loads the view's code). */
  snapshot(): Promise<ViewSnapshot>;
  /** The workspace's candidates, as the address pick offers them. */
  discover(): Promise<{ candidates: AddressCandidate[]; rejected: Array<{ source: string; message: string }> }>;
  /** The last question asked (the tests answer it with workbench commands). */
  lastPrompt(): PromptInfo | undefined;
}

/** "Hedera: Set Explorer API Key" and "Hedera: Clear Explorer API Key" (the key verification may send). */
export function registerApiKeyCommands(ctx: FeatureContext): void {
  const subs = ctx.extension.subscriptions;
  // "Clear Explorer API Key" in the palette only while a key is stored (also when another window changes it)
  const announce = async () => setContext(ContextKey.hasApiKey, await ctx.apiKeys.has());
  subs.push(
    soon(() => void announce()), // the secret store is asked right after activation, not during it
    ctx.extension.secrets.onDidChange((e) => {
      if (e.key === API_KEY_SECRET) void announce();
    }),
  );
  registerCommand(subs, COMMANDS.setApiKey, (preset) => setApiKey(ctx.apiKeys, preset).finally(announce));
  registerCommand(subs, COMMANDS.clearApiKey, () => clearApiKey(ctx.apiKeys).finally(announce));
}

/** "Verify Contract" and the Verification view. Returns the test seam in test mode, otherwise undefined. */
export function registerVerification(ctx: FeatureContext): VerificationSeam | undefined {
  const { extension: context, network, log, apiKeys } = ctx;
  const results = new VerificationResults(context.workspaceState);
  const tree = new LazyTreeView<TreeNode, VerificationTree>(VERIFICATION_VIEW, (treeView) => {
    // eslint-disable-next-line @typescript-eslint/no-require-imports -- lazy entry: the view's code, with its first rows
    const { VerificationTree } = require('./view') as typeof import('./view');
    return new VerificationTree(results, treeView, COMMANDS);
  });
  // in test mode, every question is recorded for the seam's lastPrompt() before it is shown
  const recorded = ctx.testMode ? recordingPrompts(vscodePrompts(apiKeys)) : undefined;
  const prompts = recorded ?? vscodePrompts(apiKeys);
  let created: VerificationRunner | undefined;
  const runner = (): VerificationRunner => {
    if (!created) {
      // eslint-disable-next-line @typescript-eslint/no-require-imports -- lazy entry: the run's code, with the first run
      const { VerificationRunner } = require('./verifyContract') as typeof import('./verifyContract');
      const reveal = () =>
        void vscode.commands.executeCommand(`${VERIFICATION_VIEW}.focus`).then(undefined, () => undefined);
      created = new VerificationRunner(
        network,
        log,
        apiKeys,
        results,
        prompts,
        reveal,
        (change) => ctx.verifications.fire(change),
        ctx.builds,
        ctx.chainCode,
      );
      context.subscriptions.push(created);
    }
    return created;
  };
  // rows come from the loaded view: a command given a row finds the view loaded
  const addressOf = (n: unknown): string | undefined => tree.ifLoaded?.contractAddress(n) ?? results.current?.address;
  context.subscriptions.push(results, tree);
  const subs = context.subscriptions;
  registerCommand(subs, COMMANDS.verify, (args) =>
    runner().run(args && typeof args === 'object' && !(args instanceof vscode.Uri) ? (args as VerifyArgs) : {}),
  );
  registerCommand(subs, COMMANDS.rerun, () => runner().rerun());
  registerCommand(subs, COMMANDS.clear, () => results.clear());
  registerCommand(subs, COMMANDS.showKept, async () => {
    const kept = results.kept();
    if (!kept.length) return;
    const clearAll = vscode.l10n.t('$(clear-all) Clear all kept results');
    const pick = await vscode.window.showQuickPick(
      [
        ...kept.map((r) => ({
          label: `${r.address}`,
          description: `${r.networkLabel} · ${r.chainId} · ${r.api === 'session' ? 'session' : 'Sourcify v2'}`,
          detail: `${r.error ? `error: ${r.error.message}` : r.contracts.map((c) => `${c.name}: ${c.status}`).join(', ')} · ${r.finishedAt}`,
          key: r.key,
        })),
        { label: '', kind: vscode.QuickPickItemKind.Separator, key: '' },
        { label: clearAll, key: '*' },
      ],
      { title: vscode.l10n.t('Kept verification results') },
    );
    if (pick?.key === '*') await results.clearAll();
    else if (pick?.key) await results.select(pick.key);
  });
  registerCommand(subs, COMMANDS.copyAddress, (n) => {
    const a = addressOf(n);
    if (a) void copyText(a, vscode.l10n.t('address'));
  });
  registerCommand(subs, COMMANDS.copyPath, (n) => {
    const f = tree.ifLoaded?.file(n);
    if (f) void copyText(f.path, vscode.l10n.t('path'));
  });
  // the text comes from the view's code (loaded now if it was not): summaries stay out of activation
  registerCommand(subs, COMMANDS.copyResult, () => {
    const text = results.current && tree.implementation().resultText();
    if (text) void copyText(text, vscode.l10n.t('verification result'));
  });
  registerCommand(subs, COMMANDS.openFile, async (n) => {
    const target = tree.ifLoaded?.file(n)?.target;
    if (target) await vscode.window.showTextDocument(target, { preview: true });
  });
  registerCommand(subs, COMMANDS.openInHashScan, (n) => {
    const address = addressOf(n);
    if (!address) return;
    const id = results.current?.entityId ?? address;
    void openUrl(hashscanUrl(network.profile, 'contract', id));
  });
  if (!recorded) return undefined;
  return {
    run: (args) => runner().run(args ?? {}),
    cancel: () => created?.cancel(),
    get isRunning() {
      return created?.isRunning ?? false;
    },
    current: () => results.current,
    kept: () => results.kept(),
    clearAll: () => results.clearAll(),
    reload: () => results.reload(),
    snapshot: () => tree.implementation().snapshot(),
    discover: () => runner().discover(),
    lastPrompt: () => recorded.last(),
  };
}
