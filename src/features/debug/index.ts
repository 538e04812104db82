/**
 * The `hedera` debug type, the eager part: the inline adapter's factory, the configuration provider (F5 without a
 * launch.json, a configuration without a transaction asks for one) and "Hedera: Debug Transaction…" (palette, a
 * failed Contract Results row). The adapter and its model (`lazy.ts`, a lazy entry of the build, with
 * @vscode/debugadapter) load on the first debug session, not at activation.
 */
import * as vscode from 'vscode';
import { Command, registerCommand } from '../../core/commands';
import type { FeatureContext } from '../context';
import type * as Lazy from './lazy';

export const DEBUG_TYPE = 'hedera';

let lazy: typeof Lazy | undefined;
// eslint-disable-next-line @typescript-eslint/no-require-imports -- a lazy entry (LAZY_ENTRIES): the adapter loads on first use
const load = () => (lazy ??= require('./lazy') as typeof Lazy);

export function registerDebug(ctx: FeatureContext): void {
  const subs = ctx.extension.subscriptions;
  subs.push(
    vscode.debug.registerDebugAdapterDescriptorFactory(DEBUG_TYPE, {
      createDebugAdapterDescriptor: () => new vscode.DebugAdapterInlineImplementation(load().createSession(ctx)),
    }),
    vscode.debug.registerDebugConfigurationProvider(DEBUG_TYPE, {
      resolveDebugConfiguration: async (_folder, config) => {
        if (!config.type && !config.request && !config.name) {
          config.type = DEBUG_TYPE;
          config.request = 'launch';
          config.name = vscode.l10n.t('Debug Transaction');
        }
        if (typeof config.transaction !== 'string' || !config.transaction.trim()) {
          const typed = await askTransaction();
          if (!typed) return undefined;
          config.transaction = typed;
        }
        return config;
      },
    }),
  );
  registerCommand(subs, Command.debugTransaction, (transaction) => debugTransaction(transaction));
  registerCommand(subs, Command.contractResultsDebug, (row) => debugTransaction(row));
}

async function askTransaction(): Promise<string | undefined> {
  const typed = await vscode.window.showInputBox({
    title: vscode.l10n.t('Debug Transaction'),
    prompt: vscode.l10n.t('A transaction id, transaction hash, consensus timestamp or HashScan link'),
    placeHolder: '0.0.1234-1700000000-123456789 · 0x… · 1700000000.123456789 · https://hashscan.io/…',
    ignoreFocusOut: true,
  });
  return typed?.trim() || undefined;
}

/** The transaction of a command's argument: a reference string, or a row's (or object's) id, hash and network. */
function transactionOf(arg: unknown): { transaction?: string; network?: string } {
  if (typeof arg === 'string') return { transaction: arg };
  if (!arg || typeof arg !== 'object' || arg instanceof vscode.Uri) return {};
  const o = (
    typeof (arg as { getTreeItem?: unknown }).getTreeItem === 'function' ? (arg as { result?: unknown }).result : arg
  ) as Record<string, unknown> | undefined;
  const pick = (v: unknown): string | undefined => (typeof v === 'string' && v.length <= 200 ? v : undefined);
  const transaction = pick(o?.hash) ?? pick(o?.transactionId) ?? pick(o?.transaction_id) ?? pick(o?.timestamp);
  return { transaction, network: pick(o?.network) };
}

/** Starts a `hedera` session without a launch.json. */
export async function debugTransaction(arg?: unknown): Promise<boolean> {
  const given = transactionOf(arg);
  // an argument from a link (a hover, a page) is checked as if typed before anything starts (the check, with the
  // validation it needs, loads with the adapter: not at activation)
  const checked = given.transaction !== undefined ? load().parseTxRef(given.transaction) : undefined;
  if (checked && !checked.ok) {
    void vscode.window.showErrorMessage(checked.message);
    return false;
  }
  const transaction = given.transaction ?? (await askTransaction());
  if (!transaction) return false;
  return vscode.debug.startDebugging(vscode.workspace.workspaceFolders?.[0], {
    type: DEBUG_TYPE,
    request: 'launch',
    name: vscode.l10n.t('Debug {0}', transaction.length > 40 ? `${transaction.slice(0, 39)}…` : transaction),
    transaction,
    ...(given.network ? { network: given.network } : {}),
  });
}
