/**
 * Network status, wired: one StatusModel (the only poll of summary.json, also while every view is hidden),
 * the status bar item and the Network Status view on top of it, the "worse than before" notification and the
 * commands (refresh, open / copy an incident's link). `registerStatusFeature` is the one call from extension.ts;
 * what it returns feeds the extension API's test hook `statusSnapshot()`.
 */
import vscode = require('vscode');
import type { FeatureContext } from '../context';
import { SECTION } from '../../core/settings';
import { clampPollMinutes, MINUTE, StatusModel } from './model';
import type { TreeNode } from '../../ui/nodes';
import { CMD_FOCUS_VIEW, StatusBarIndicator } from './statusBar';
import { indicatorView, safeExternalUrl, TimeOptions, worseningMessage } from './format';
import { CMD_COPY_LINK, CMD_OPEN_LINK, CMD_REFRESH, StatusRow, StatusView } from './view';

export interface StatusRowSnapshot {
  label: string;
  description?: string;
  icon?: string;
  color?: string;
  contextValue?: string;
  tooltip?: string;
  command?: string;
  collapsible: boolean;
  children?: StatusRowSnapshot[];
}

/** What the tests read: the status bar item and the view's rows as VS Code gets them. */
export interface StatusSnapshot {
  statusBar: { text: string; tooltip: string; background?: string; name?: string; accessibilityLabel?: string; command?: string; visible: boolean };
  view: { visible: boolean; description?: string; rows: StatusRowSnapshot[] };
  state: { loading: boolean; failures: number; polls: number; generation: number; indicator?: string; error?: string; nextPollAt?: number; checkedAt?: number };
  /** Notifications shown by the status feature, oldest first. */
  notifications: string[];
}

export interface StatusFeature {
  snapshot(depth?: number): Promise<StatusSnapshot>;
}

const setting = <T>(key: string, fallback: T): T => vscode.workspace.getConfiguration(SECTION).get<T>(key, fallback);

function labelText(label: string | vscode.TreeItemLabel | undefined): string {
  return typeof label === 'string' ? label : label?.label ?? '';
}

async function rowSnapshot(node: TreeNode, depth: number): Promise<StatusRowSnapshot> {
  const item = node.getTreeItem();
  const icon = item.iconPath instanceof vscode.ThemeIcon ? item.iconPath : undefined;
  const tooltip = typeof item.tooltip === 'string' ? item.tooltip : item.tooltip?.value;
  const out: StatusRowSnapshot = {
    label: labelText(item.label),
    description: typeof item.description === 'string' ? item.description : undefined,
    icon: icon?.id,
    color: icon?.color?.id,
    contextValue: item.contextValue,
    tooltip,
    command: item.command?.command,
    collapsible: item.collapsibleState !== undefined && item.collapsibleState !== vscode.TreeItemCollapsibleState.None,
  };
  if (depth > 0 && node.getChildren) {
    const kids = await node.getChildren();
    if (kids.length) out.children = await Promise.all(kids.map((k) => rowSnapshot(k, depth - 1)));
  }
  return out;
}

export function registerStatusFeature(ctx: FeatureContext): StatusFeature {
  const { extension: context, network, log } = ctx;
  const time = (): TimeOptions => ({ locale: vscode.env.language });
  const notifications: string[] = [];
  const model = new StatusModel({
    fetch: (signal) => network.clients.status.summary({ signal }),
    intervalMs: () => clampPollMinutes(setting<unknown>('status.pollMinutes', 5)) * MINUTE,
    log,
  });
  const bar = new StatusBarIndicator(model, network, time);
  let view: StatusView | undefined;
  try {
    view = new StatusView(model, network, log, time);
  } catch (e) {
    // the status bar keeps working even if the view cannot be created
    log.error(`Network Status view could not be created: ${e instanceof Error ? e.message : String(e)}`);
  }

  let statusUrl: string | undefined;
  const worsened = model.onDidWorsen(({ previous, summary }) => {
    if (!setting<boolean>('status.notify', true)) return;
    const message = worseningMessage(previous, summary, vscode.l10n);
    notifications.push(message);
    log.info(`Network status got worse: ${previous} -> ${summary.status.indicator}`);
    const show = vscode.l10n.t('Show Status');
    const mute = vscode.l10n.t('Don\'t Notify Again');
    const severe = indicatorView(summary.status.indicator).background === 'error';
    const shown = severe ? vscode.window.showErrorMessage(message, show, mute) : vscode.window.showWarningMessage(message, show, mute);
    void shown.then(async (choice) => {
      if (choice === show) await vscode.commands.executeCommand(CMD_FOCUS_VIEW);
      else if (choice === mute) await vscode.workspace.getConfiguration(SECTION).update('status.notify', false, vscode.ConfigurationTarget.Global);
    });
  });

  context.subscriptions.push(
    bar,
    ...(view ? [view] : []),
    { dispose: () => { worsened.dispose(); model.dispose(); } },
    vscode.commands.registerCommand(CMD_REFRESH, () => (view ? view.refresh() : model.refresh())),
    vscode.commands.registerCommand(CMD_OPEN_LINK, async (arg?: unknown) => {
      const raw = typeof arg === 'string' ? arg : arg instanceof StatusRow ? arg.link : undefined;
      const url = safeExternalUrl(raw);
      if (!url) {
        void vscode.window.showWarningMessage(vscode.l10n.t('Only http and https links are opened.'));
        return false;
      }
      return vscode.env.openExternal(vscode.Uri.parse(url, true));
    }),
    vscode.commands.registerCommand(CMD_COPY_LINK, async (arg?: unknown) => {
      const url = safeExternalUrl(arg instanceof StatusRow ? arg.link : arg);
      if (url) await vscode.env.clipboard.writeText(url);
    }),
    network.onDidChange((clients) => {
      const same = clients.profile.statusUrl === statusUrl;
      statusUrl = clients.profile.statusUrl;
      log.info(`Network status: ${same ? 're-reading' : 'switching to'} ${clients.profile.statusUrl}`);
      void model.reset(same);
    }),
    vscode.workspace.onDidChangeConfiguration((e) => {
      if (e.affectsConfiguration(`${SECTION}.status.pollMinutes`)) model.reschedule();
    }),
  );

  statusUrl = network.profile.statusUrl;
  // The first poll starts right after activation, not inside it: activate() makes no network call.
  const first = setTimeout(() => model.start(), 0);
  context.subscriptions.push({ dispose: () => clearTimeout(first) });

  return {
    async snapshot(depth = 4): Promise<StatusSnapshot> {
      const s = model.state;
      const tooltip = bar.item.tooltip;
      const bg = bar.item.backgroundColor;
      const roots = view ? view.roots() : [];
      return {
        statusBar: {
          text: bar.item.text,
          tooltip: typeof tooltip === 'string' ? tooltip : tooltip?.value ?? '',
          background: bg?.id,
          name: bar.item.name,
          accessibilityLabel: bar.item.accessibilityInformation?.label,
          command: typeof bar.item.command === 'string' ? bar.item.command : bar.item.command?.command,
          visible: true,
        },
        view: { visible: !!view?.treeView.visible, description: view?.treeView.description, rows: await Promise.all(roots.map((r) => rowSnapshot(r, depth))) },
        state: {
          loading: s.loading, failures: s.failures, polls: s.polls, generation: s.generation, indicator: s.summary?.status.indicator,
          error: s.error === undefined ? undefined : s.error instanceof Error ? s.error.message : String(s.error), nextPollAt: s.nextPollAt, checkedAt: s.checkedAt,
        },
        notifications: [...notifications],
      };
    },
  };
}
