/**
 * Network status, wired. The eager part, run at activation: one StatusModel (the only poll of summary.json, while
 * the status bar item (setting status.showInStatusBar) or the view shows it; the first poll starts right after
 * activate(), never inside it), the status bar item,
 * the "worse than before" notification and the commands (refresh, open / copy an incident's link). The Network
 * Status tree (view.ts) is loaded with its first rows (LazyTreeView); the full formatting (format.ts) with the
 * first answer. `registerStatus` is the one call from extension.ts; in test mode it returns the test seam.
 */
import * as vscode from 'vscode';
import type { FeatureContext } from '../context';
import { registerCommand } from '../../core/commands';
import { ContextKey, setContext } from '../../core/contextKeys';
import { config, SECTION } from '../../core/settings';
import { isUnreachable } from '../../api/reach';
import { hostOf, httpUrl } from '../../api/url';
import { copyText, openUrl } from '../../ui/actions';
import { LazyTreeView } from '../../ui/lazyTree';
import type { TreeNode } from '../../ui/nodes';
import { type TimeOptions, worseningMessage } from './format';
import { CMD_COPY_LINK, CMD_FOCUS_VIEW, CMD_OPEN_LINK, CMD_REFRESH, STATUS_VIEW_ID } from './ids';
import { indicatorView } from './indicator';
import { clampPollMinutes, MINUTE, StatusModel } from './model';
import type { StatusSeam, StatusSnapshot } from './seam';
import { StatusBarIndicator } from './statusBar';
import type { StatusView } from './view';

export type { StatusRowSnapshot, StatusSeam, StatusSnapshot } from './seam';

export function registerStatus(ctx: FeatureContext): StatusSeam | undefined {
  const { extension: context, network, log } = ctx;
  const time = (): TimeOptions => ({ locale: vscode.env.language });
  /** The notifications shown, for the test seam: recorded in test mode only. */
  const shown: string[] | undefined = ctx.testMode ? [] : undefined;
  const model = new StatusModel({
    fetch: (signal) => network.clients.status.summary({ signal }),
    intervalMs: () => clampPollMinutes(config().get<unknown>('status.pollMinutes', 5)) * MINUTE,
    log,
  });
  const bar = new StatusBarIndicator(model, network, time);
  let tree: LazyTreeView<TreeNode, StatusView> | undefined;
  try {
    tree = new LazyTreeView<TreeNode, StatusView>(STATUS_VIEW_ID, (treeView) => {
      // eslint-disable-next-line @typescript-eslint/no-require-imports -- lazy entry (LAZY_ENTRIES in esbuild.js): the tree's code loads with its first rows
      const { StatusView: View } = require('./view') as typeof import('./view');
      return new View(model, network, log, time, treeView);
    });
  } catch (e) {
    // the status bar keeps working even if the view cannot be created
    log.error(`Network Status view could not be created: ${e instanceof Error ? e.message : String(e)}`);
  }
  const describe = (): void => {
    if (tree) tree.treeView.description = hostOf(network.profile.statusUrl);
  };
  describe();

  let statusUrl: string | undefined;
  const worsened = model.onDidWorsen(({ previous, summary }) => {
    if (!config().get<boolean>('status.notify', true)) return;
    const message = worseningMessage(previous, summary);
    shown?.push(message);
    log.info(`Network status got worse: ${previous} -> ${summary.status.indicator}`);
    const show = vscode.l10n.t('Show Status');
    const mute = vscode.l10n.t("Don't Notify Again");
    const severe = indicatorView(summary.status.indicator).background === 'error';
    const choice = severe
      ? vscode.window.showErrorMessage(message, show, mute)
      : vscode.window.showWarningMessage(message, show, mute);
    void choice.then(async (c) => {
      if (c === show) await vscode.commands.executeCommand(CMD_FOCUS_VIEW);
      else if (c === mute) await config().update('status.notify', false, vscode.ConfigurationTarget.Global);
    });
  });
  /** A row's link: the argument itself (a URL), or the link of the row a context menu passes (the view is loaded then). */
  const linkOf = (arg: unknown): string | undefined => (typeof arg === 'string' ? arg : tree?.ifLoaded?.linkOf(arg));

  registerCommand(context.subscriptions, CMD_REFRESH, () =>
    tree?.ifLoaded ? tree.ifLoaded.refresh() : model.refresh(),
  );
  registerCommand(context.subscriptions, CMD_OPEN_LINK, (arg) => openUrl(linkOf(arg)));
  registerCommand(context.subscriptions, CMD_COPY_LINK, async (arg) => {
    const url = httpUrl(linkOf(arg));
    if (url) await copyText(url, vscode.l10n.t('link'));
  });
  context.subscriptions.push(
    bar,
    ...(tree ? [tree] : []),
    {
      dispose: () => {
        worsened.dispose();
        model.dispose();
      },
    },
    network.onDidChange((clients) => {
      const same = clients.profile.statusUrl === statusUrl;
      statusUrl = clients.profile.statusUrl;
      describe();
      log.info(`Network status: ${same ? 're-reading' : 'switching to'} ${clients.profile.statusUrl}`);
      void model.reset(same);
    }),
    vscode.workspace.onDidChangeConfiguration((e) => {
      if (e.affectsConfiguration(`${SECTION}.status.pollMinutes`)) model.reschedule();
    }),
  );

  // The page is polled only while the status is shown: the status bar item (a setting) or the view.
  const inBar = (): boolean => config().get<boolean>('status.showInStatusBar', true) !== false;
  const showBar = (): void => (inBar() ? bar.item.show() : bar.item.hide());
  const follow = (): void => {
    showBar();
    if (inBar() || tree?.treeView.visible) model.resume();
    else model.pause();
  };
  showBar();
  let unreachable = false;
  context.subscriptions.push(
    model.onDidChange((s) => {
      const now = s.error !== undefined && !s.summary && isUnreachable(s.error);
      if (now === unreachable) return;
      unreachable = now;
      setContext(ContextKey.statusUnreachable, now);
    }),
    vscode.workspace.onDidChangeConfiguration((e) => {
      if (e.affectsConfiguration(`${SECTION}.status.showInStatusBar`)) follow();
    }),
    ...(tree ? [tree.treeView.onDidChangeVisibility(() => follow())] : []),
  );

  statusUrl = network.profile.statusUrl;
  // The first poll starts right after activation, not inside it: activate() makes no network call.
  const first = setTimeout(() => follow(), 0);
  context.subscriptions.push({ dispose: () => clearTimeout(first) });

  if (!ctx.testMode) return undefined;
  return {
    async snapshot(depth = 4): Promise<StatusSnapshot> {
      const s = model.state;
      const tooltip = bar.item.tooltip;
      const bg = bar.item.backgroundColor;
      const rows = tree ? await tree.implementation().snapshotRows(depth) : [];
      return {
        statusBar: {
          text: bar.item.text,
          tooltip: typeof tooltip === 'string' ? tooltip : (tooltip?.value ?? ''),
          background: bg?.id,
          name: bar.item.name,
          accessibilityLabel: bar.item.accessibilityInformation?.label,
          command: typeof bar.item.command === 'string' ? bar.item.command : bar.item.command?.command,
          visible: inBar(),
        },
        view: { visible: !!tree?.treeView.visible, description: tree?.treeView.description, rows },
        state: {
          loading: s.loading,
          failures: s.failures,
          polls: s.polls,
          generation: s.generation,
          indicator: s.summary?.status.indicator,
          error: s.error === undefined ? undefined : s.error instanceof Error ? s.error.message : String(s.error),
          nextPollAt: s.nextPollAt,
          checkedAt: s.checkedAt,
        },
        notifications: [...(shown ?? [])],
      };
    },
  };
}
