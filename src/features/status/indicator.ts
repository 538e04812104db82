/**
 * The status bar's part of the status formatting, loaded at activation: the page indicator as text, icon and
 * background, the "checking" tooltip shown before the first answer and the accessible name. Everything shown once
 * the page was read (the full tooltip, the tree's labels, the notification) is in format.ts, loaded with the first
 * answer. Plain TypeScript (no `vscode`): strings go through the `l10n` object it is given (`vscode.l10n` in the
 * extension); unit tested under Node.
 */
import type { Indicator, StatusSummary } from '../../api/status';
import * as l10n from '@vscode/l10n';
import { mdEscape, oneLine } from '../../api/text';

export type Background = 'warning' | 'error' | undefined;

export interface IndicatorView {
  /** Codicon id. */
  icon: string;
  /** Status bar text, with its `$(icon)`. */
  text: string;
  /** Short human label: "Operational", "Minor outage", or the unknown value as it is. */
  label: string;
  /** `statusBarItem.warningBackground` / `errorBackground`, for degraded states only. */
  background: Background;
  /** False for indicator values this version does not know (shown as they are). */
  known: boolean;
}

/** The page indicator in the status bar. Unknown values are shown as they are. */
export function indicatorView(indicator: Indicator): IndicatorView {
  switch (indicator) {
    case 'none':
      return {
        icon: 'pass',
        text: `$(pass) ${l10n.t('Hedera')}`,
        label: l10n.t('Operational'),
        background: undefined,
        known: true,
      };
    case 'minor':
      return {
        icon: 'warning',
        text: `$(warning) ${l10n.t('Minor outage')}`,
        label: l10n.t('Minor outage'),
        background: 'warning',
        known: true,
      };
    case 'major':
      return {
        icon: 'error',
        text: `$(error) ${l10n.t('Major outage')}`,
        label: l10n.t('Major outage'),
        background: 'error',
        known: true,
      };
    case 'critical':
      return {
        icon: 'error',
        text: `$(error) ${l10n.t('Major outage')}`,
        label: l10n.t('Critical outage'),
        background: 'error',
        known: true,
      };
    case 'maintenance':
      return {
        icon: 'tools',
        text: `$(tools) ${l10n.t('Maintenance')}`,
        label: l10n.t('Maintenance'),
        background: undefined,
        known: true,
      };
    default: {
      const value = statusBarSafe(oneLine(String(indicator), 40)) || '?';
      return {
        icon: 'info',
        text: `$(info) ${l10n.t('Hedera: {0}', value)}`,
        label: value,
        background: undefined,
        known: false,
      };
    }
  }
}

/** The status bar when the page could not be read. */
export function unknownView(): IndicatorView {
  return {
    icon: 'question',
    text: `$(question) ${l10n.t('Hedera: status unknown')}`,
    label: l10n.t('Status unknown'),
    background: undefined,
    known: false,
  };
}

/** The status bar when the status page could not be reached at all (offline): plain, not an alarm. */
export function offlineView(): IndicatorView {
  return {
    icon: 'debug-disconnect',
    text: `$(debug-disconnect) ${l10n.t('Hedera: offline')}`,
    label: l10n.t('Offline'),
    background: undefined,
    known: false,
  };
}

/** The status bar before the first answer. */
export function loadingView(): IndicatorView {
  return {
    icon: 'sync~spin',
    text: `$(sync~spin) ${l10n.t('Hedera')}`,
    label: l10n.t('Checking…'),
    background: undefined,
    known: false,
  };
}

/** Status bar text renders `$(name)` as icons: server text must not add any. */
export function statusBarSafe(text: string): string {
  return text.replace(/\$\(/g, '$\u200b(');
}

/** The status bar tooltip (Markdown source) before the first answer: "checking", and the network. */
export function checkingTooltipMarkdown(network: string): string {
  return [
    `**${mdEscape(l10n.t('Hedera network status'))}**`,
    mdEscape(l10n.t('Checking the status page…')),
    '---',
    mdEscape(l10n.t('Network: {0} · Click to open the Network Status view', network)),
  ].join('\n\n');
}

/**
 * The page's overall sentence ("All Systems Operational"), translated when it is one of the sentences Statuspage
 * writes for its indicators; any other text is the page's own, shown as it is.
 */
export function pageDescription(description: string): string {
  switch (description.trim()) {
    case 'All Systems Operational':
      return l10n.t('All Systems Operational');
    case 'Partially Degraded Service':
      return l10n.t('Partially Degraded Service');
    case 'Minor Service Outage':
      return l10n.t('Minor Service Outage');
    case 'Partial System Outage':
      return l10n.t('Partial System Outage');
    case 'Major Service Outage':
      return l10n.t('Major Service Outage');
    case 'Major System Outage':
      return l10n.t('Major System Outage');
    case 'Service Under Maintenance':
      return l10n.t('Service Under Maintenance');
    default:
      return description;
  }
}

/** The accessible name of the status bar item: plain text, no icons. */
export function statusAccessibleLabel(input: { summary?: StatusSummary; error?: unknown; offline?: boolean }): string {
  if (input.offline) return l10n.t('Hedera network status: offline, the status page could not be reached. Try again.');
  if (input.error !== undefined) return l10n.t('Hedera network status unknown');
  if (!input.summary) return l10n.t('Hedera network status: checking');
  const v = indicatorView(input.summary.status.indicator);
  const desc = oneLine(pageDescription(input.summary.status.description), 120);
  return desc
    ? l10n.t('Hedera network status: {0}. {1}', v.label, desc)
    : l10n.t('Hedera network status: {0}', v.label);
}
