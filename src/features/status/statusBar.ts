/**
 * The network status item in the status bar, on the LEFT: VS Code's guidelines put workspace-wide status
 * there (the right side is for the active editor's context: language, encoding, cursor). The page indicator
 * as an icon and short text, the theme's warning or error background for degraded states only, a Markdown
 * tooltip (server text escaped, no links), click = focus the Network Status view.
 * It renders the shared StatusModel; it never sends a request of its own.
 */
import * as vscode from 'vscode';
import type { StatusModel, StatusState } from './model';
import type { SelectedNetwork } from '../../core/selectedNetwork';
import { statusTooltipMarkdown, type TimeOptions } from './format';
import { CMD_FOCUS_VIEW, CMD_REFRESH, STATUS_BAR_ID } from './ids';
import { isUnreachable } from '../../api/reach';
import {
  checkingTooltipMarkdown,
  indicatorView,
  loadingView,
  offlineView,
  statusAccessibleLabel,
  unknownView,
} from './indicator';

export class StatusBarIndicator implements vscode.Disposable {
  readonly item: vscode.StatusBarItem;
  private readonly subscription: { dispose(): void };

  constructor(
    private readonly model: StatusModel,
    private readonly network: SelectedNetwork,
    private readonly time: () => TimeOptions,
  ) {
    this.item = vscode.window.createStatusBarItem(STATUS_BAR_ID, vscode.StatusBarAlignment.Left, -10);
    this.item.name = vscode.l10n.t('Hedera Network Status');
    this.item.command = { command: CMD_FOCUS_VIEW, title: vscode.l10n.t('Show Network Status') };
    this.subscription = model.onDidChange((s) => this.render(s));
    this.render(model.state);
    this.item.show();
  }

  render(s: StatusState = this.model.state): void {
    const failed = s.error !== undefined;
    const offline = failed && isUnreachable(s.error);
    // while a poll runs, keep showing the last answer (no flicker every few minutes)
    const v = offline
      ? offlineView()
      : failed
        ? unknownView()
        : s.summary
          ? indicatorView(s.summary.status.indicator)
          : loadingView();
    this.item.text = v.text;
    const background =
      v.background === 'error'
        ? 'statusBarItem.errorBackground'
        : v.background === 'warning'
          ? 'statusBarItem.warningBackground'
          : undefined;
    // each change of the item is sent to VS Code: the same colour is not set again
    if (background !== this.item.backgroundColor?.id)
      this.item.backgroundColor = background ? new vscode.ThemeColor(background) : undefined;
    const network = this.network.profile.label;
    const md = new vscode.MarkdownString(
      !failed && !s.summary
        ? checkingTooltipMarkdown(network)
        : statusTooltipMarkdown({
            summary: s.summary,
            checkedAt: s.checkedAt,
            error: s.error,
            failedAt: s.failedAt,
            nextPollAt: s.nextPollAt,
            network,
            now: Date.now(),
            time: this.time(),
          }),
      true,
    );
    md.isTrusted = false;
    md.supportHtml = false;
    this.item.tooltip = md;
    // offline, a click tries again (the view would show only that the page cannot be reached)
    this.item.command = offline
      ? { command: CMD_REFRESH, title: vscode.l10n.t('Check the Network Status Again') }
      : { command: CMD_FOCUS_VIEW, title: vscode.l10n.t('Show Network Status') };
    this.item.accessibilityInformation = {
      label: statusAccessibleLabel({ summary: s.summary, error: s.error, offline }),
      role: 'button',
    };
  }

  dispose(): void {
    this.subscription.dispose();
    this.item.dispose();
  }
}
