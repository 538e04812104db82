/**
 * The Contract Results view, the eager part: the view (its code, ./view.ts, is loaded with its first rows or the
 * first command that needs it), the commands every list has (src/ui/listRegistration.ts) and the view's own: follow,
 * filter by a row's contract or sender, copy the hash, open in HashScan, raw JSON. The row commands that only
 * read a row need no loaded code.
 */
import * as vscode from 'vscode';
import type { ContractResult } from '../../api/mirrorTypes';
import { hashscanUrl } from '../../api/networks';
import type { ListViewId } from '../../api/commands';
import { Command, executeCommand, registerCommand } from '../../core/commands';
import { notificationSafe } from '../../api/text';
import { copyText, openUrl } from '../../ui/actions';
import { type ListSeam, listSeam, registerListView } from '../../ui/listRegistration';
import type { FeatureContext } from '../context';
import type { TreeNode } from '../../ui/nodes';
import type { ContractResultFilterInput, ContractResultsView } from './view';

const CONTRACT_RESULTS_VIEW = 'hederaExplorer.contractResults' satisfies ListViewId;

/** What the integration tests drive in the Contract Results view (test mode only). */
export interface ContractResultsSeam extends ListSeam<ContractResult> {
  setFilters(f: Partial<ContractResultFilterInput>): void;
  filterBy(kind: 'contract' | 'from', r: unknown): void;
  setFollow(on: boolean): void;
  /** One follow poll now; the number of new results put on top. */
  pollOnce(): Promise<number>;
  readonly isFollowing: boolean;
  /** No Follow poll scheduled or in flight (hidden view, Follow off): the state in which nothing is asked. */
  readonly followIdle: boolean;
  /** The detail rows of a result, flattened as "Group / Label: value" lines. */
  detailLines(r: unknown): string[];
  /** The details of a result's row as VS Code gets them when the row is opened (what they waited for included). */
  openedDetails(r: unknown): Promise<string[]>;
  /** The redraws asked of VS Code since the last call (the first call starts counting): rows' ids, or 'all'. */
  takeRedraws(): string[];
}

/** A result from a command's argument: a row of the view, or a result object (tests, other callers). */
function resultOf(n: unknown): ContractResult | undefined {
  const r = isRow(n) ? (n as { result?: unknown }).result : n;
  return r && typeof r === 'object' && typeof (r as ContractResult).timestamp === 'string'
    ? (r as ContractResult)
    : undefined;
}

/** A tree row (ContractResultNode) rather than a result. */
const isRow = (n: unknown): boolean =>
  !!n && typeof n === 'object' && typeof (n as { getTreeItem?: unknown }).getTreeItem === 'function';

/**
 * A Contract Results row (the same row kind, details and context-menu actions: contextValue `contractResult`) for
 * another feature's tree, such as the Deployments view. Loads this view's code (a lazy entry) on first use.
 */
export function contractResultRow(ctx: FeatureContext, result: ContractResult, network: string): TreeNode {
  // eslint-disable-next-line @typescript-eslint/no-require-imports -- lazy entry (LAZY_ENTRIES in esbuild.js): the rows' code
  const { ContractResultNode } = require('./view') as typeof import('./view');
  return new ContractResultNode(result, network, ctx.abis);
}

export function registerContractResults(ctx: FeatureContext): ContractResultsSeam | undefined {
  const id = CONTRACT_RESULTS_VIEW;
  const list = registerListView<ContractResultsView>(ctx.extension, id, (treeView) => {
    // eslint-disable-next-line @typescript-eslint/no-require-imports
    const { ContractResultsView } = require('./view') as typeof import('./view');
    return new ContractResultsView(ctx, treeView, id);
  });
  const reportInvalid = (f: () => void) => {
    try {
      f();
    } catch (e) {
      void vscode.window.showErrorMessage(notificationSafe(e instanceof Error ? e.message : String(e)));
    }
  };
  const subs = ctx.extension.subscriptions;
  registerCommand(subs, Command.contractResultsFollow, () => list.view().setFollow(true));
  registerCommand(subs, Command.contractResultsUnfollow, () => list.view().setFollow(false));
  registerCommand(subs, Command.contractResultsCopyHash, (n) => {
    const r = resultOf(n);
    if (r?.hash) void copyText(r.hash, vscode.l10n.t('transaction hash'));
  });
  // the inspector is another feature: reached through its command, with the row's consensus timestamp (exact, children too)
  registerCommand(subs, Command.contractResultsInspect, (n) => {
    const r = resultOf(n);
    if (r)
      void executeCommand(Command.inspectTransaction, { timestamp: r.timestamp, network: ctx.network.profile.name });
  });
  registerCommand(subs, Command.contractResultsGoToRevert, (n) => {
    const r = resultOf(n);
    if (r) void executeCommand(Command.goToRevert, { timestamp: r.timestamp, network: ctx.network.profile.name });
  });
  registerCommand(subs, Command.contractResultsOpenTransaction, (n) => {
    const r = resultOf(n);
    if (r) void openUrl(hashscanUrl(ctx.network.profile, 'transaction', r.timestamp));
  });
  registerCommand(subs, Command.contractResultsOpenContract, (n) => {
    const r = resultOf(n);
    const c = r?.contract_id ?? r?.to;
    if (c) void openUrl(hashscanUrl(ctx.network.profile, 'contract', c));
  });
  registerCommand(subs, Command.contractResultsFilterByContract, (n) => {
    const r = resultOf(n);
    if (r) reportInvalid(() => list.view().filterBy('contract', r));
  });
  registerCommand(subs, Command.contractResultsFilterBySender, (n) => {
    const r = resultOf(n);
    if (r) reportInvalid(() => list.view().filterBy('from', r));
  });
  // another feature (the Deployments view, CodeLens on Solidity contracts) shows one contract's results: filtered by it, the view shown
  registerCommand(subs, Command.contractResultsShowContract, async (contract) => {
    if (typeof contract !== 'string' || !contract.trim()) return;
    reportInvalid(() => list.view().setFilters({ contract: contract.trim() }));
    await vscode.commands.executeCommand(`${id}.focus`);
  });
  registerCommand(subs, Command.contractResultsShowRaw, (n) => {
    const r = resultOf(n);
    if (r) void ctx.raw.show(`contract-result-${r.timestamp}`, r);
  });
  if (!ctx.testMode) return undefined;
  let redraws: string[] | undefined;
  const takeRedraws = () => {
    if (!redraws) {
      redraws = [];
      const into = redraws;
      subs.push(
        list.view().onDidChangeTreeData((e) => {
          for (const n of e === undefined || e === null ? [undefined] : Array.isArray(e) ? e : [e])
            into.push(n?.id ?? 'all');
        }),
      );
    }
    return redraws.splice(0);
  };
  return listSeam(list, {
    setFilters: (f: Partial<ContractResultFilterInput>) => list.view().setFilters(f),
    filterBy: (kind: 'contract' | 'from', r: unknown) => list.view().filterBy(kind, r as ContractResult),
    setFollow: (on: boolean) => list.view().setFollow(on),
    pollOnce: () => list.view().pollOnce(),
    get isFollowing() {
      return list.view().isFollowing;
    },
    get followIdle() {
      return list.view().followIdle;
    },
    detailLines: (r: unknown) => list.view().detailLines(r as ContractResult),
    openedDetails: (r: unknown) => list.view().openedDetails(r as ContractResult),
    takeRedraws,
  });
}
