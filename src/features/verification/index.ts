/**
 * "Hedera: Verify Contract" and the Verification view, as registered at activation: the view (kept results are
 * shown from the start) and every command. The verification itself (src/commands/verifyContract.ts: discovery,
 * build info, Sourcify clients, local check) is the lazily loaded chunk dist/verify.js, loaded by the first run.
 */
import vscode = require('vscode');
import type { FeatureContext } from '../context';
import { clearApiKey, setApiKey } from './apiKey';
import { hashscanUrl } from '../../api/networks';
import type { AddressCandidate } from '../../workspace/discovery';
import { summarize, type VerificationRecord } from './record';
import { CMD, ContractNode, FileNode, VERIFY_COMMAND, VerificationView, ViewRow } from './view';
import { copyText, openUrl } from '../../ui/actions';
import type { PromptInfo, VerificationFeature, VerifyArgs } from './verifyContract';

/** What tests (and other extensions) get: `api.verification`. */
export interface VerificationApi {
  run(args?: VerifyArgs): Promise<VerificationRecord | undefined>;
  cancel(): void;
  readonly isRunning: boolean;
  current(): VerificationRecord | undefined;
  kept(): VerificationRecord[];
  clearAll(): Promise<void>;
  /** Re-reads the kept results from workspaceState. */
  reload(): void;
  snapshot(): Promise<{ description?: string; message?: string; rows: ViewRow[] }>;
  discover(): Promise<{ candidates: AddressCandidate[]; rejected: Array<{ source: string; message: string }> }>;
  lastPrompt(): PromptInfo | undefined;
}

/** "Hedera: Set Explorer API Key" and "Hedera: Clear Explorer API Key" (the key verification may send). */
export function registerApiKeyCommands(ctx: FeatureContext): void {
  ctx.extension.subscriptions.push(
    vscode.commands.registerCommand('hederaExplorer.setApiKey', (preset?: unknown) => setApiKey(ctx.apiKeys, preset)),
    vscode.commands.registerCommand('hederaExplorer.clearApiKey', () => clearApiKey(ctx.apiKeys)),
  );
}

export function registerVerification(ctx: FeatureContext): VerificationApi {
  const { extension: context, network, log, apiKeys } = ctx;
  const view = new VerificationView(context.workspaceState, { command: CMD.rerun, title: vscode.l10n.t('Re-run Verification') });
  // the feature's code (dist/verify.js) is loaded by the first run, not at activation
  let created: VerificationFeature | undefined;
  const feature = () => {
    if (!created) {
      created = new (require('./verifyContract') as typeof import('./verifyContract')).VerificationFeature(network, log, apiKeys, view);
      context.subscriptions.push(created);
    }
    return created;
  };
  const contractOf = (n: unknown) => (n instanceof ContractNode ? n : undefined);
  const addressOf = (n: unknown): string | undefined => contractOf(n)?.contract.address || view.current?.address;
  context.subscriptions.push(
    view,
    vscode.commands.registerCommand(VERIFY_COMMAND, (args?: unknown) => feature().run(args && typeof args === 'object' && !(args instanceof vscode.Uri) ? (args as VerifyArgs) : {})),
    vscode.commands.registerCommand(CMD.rerun, () => feature().rerun()),
    vscode.commands.registerCommand(CMD.clear, () => view.clear()),
    vscode.commands.registerCommand(CMD.showKept, async () => {
      const kept = view.kept();
      if (!kept.length) return;
      const clearAll = vscode.l10n.t('$(clear-all) Clear all kept results');
      const pick = await vscode.window.showQuickPick(
        [
          ...kept.map((r) => ({ label: `${r.address}`, description: `${r.networkLabel} · ${r.chainId} · ${r.api === 'session' ? 'session' : 'Sourcify v2'}`, detail: `${r.error ? `error: ${r.error.message}` : r.contracts.map((c) => `${c.name}: ${c.status}`).join(', ')} · ${r.finishedAt}`, key: r.key })),
          { label: '', kind: vscode.QuickPickItemKind.Separator, key: '' },
          { label: clearAll, key: '*' },
        ],
        { title: vscode.l10n.t('Kept verification results') },
      );
      if (pick?.key === '*') await view.clearAll();
      else if (pick?.key) await view.select(pick.key);
    }),
    vscode.commands.registerCommand(CMD.copyAddress, (n?: unknown) => { const a = addressOf(n); if (a) void copyText(a, vscode.l10n.t('address')); }),
    vscode.commands.registerCommand(CMD.copyPath, (n?: unknown) => { if (n instanceof FileNode) void copyText(n.file.path, vscode.l10n.t('path')); }),
    vscode.commands.registerCommand(CMD.copyResult, () => { const r = view.current; if (r) void copyText(summarize(r), vscode.l10n.t('verification result')); }),
    vscode.commands.registerCommand(CMD.openFile, async (n?: unknown) => {
      const target = n instanceof FileNode ? n.target : undefined;
      if (target) await vscode.window.showTextDocument(target, { preview: true });
    }),
    vscode.commands.registerCommand(CMD.openInHashScan, (n?: unknown) => {
      const r = view.current;
      const address = addressOf(n);
      if (!address) return;
      const id = r?.entityId ?? address;
      void openUrl(hashscanUrl(network.profile, 'contract', id));
    }),
  );
  return {
    run: (args) => feature().run(args ?? {}),
    cancel: () => created?.cancel(),
    get isRunning() { return created?.isRunning ?? false; },
    current: () => view.current,
    kept: () => view.kept(),
    clearAll: () => view.clearAll(),
    reload: () => view.reload(),
    snapshot: () => view.snapshot(),
    discover: () => feature().discover(),
    lastPrompt: () => created?.lastPrompt(),
  };
}
