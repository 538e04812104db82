/**
 * How network status is shown once the page was read: component, impact and incident states as labels and icons,
 * local times, the status bar tooltip's Markdown, the tree's helpers and the notification sentence (the indicator
 * itself, needed at activation, is in indicator.ts). Loaded with the first answer or the first rows of the view.
 * Plain TypeScript (no `vscode`), so it is unit tested under Node: strings go through the `l10n` object it is
 * given (`vscode.l10n` in the extension), icons and colours are codicon and theme colour ids.
 * Every piece of server text in Markdown goes through `mdEscape`; nothing here makes a link from data.
 */
import { isUnreachable } from '../../api/reach';
import type {
  ComponentStatus,
  Impact,
  Incident,
  Indicator,
  Maintenance,
  StatusComponent,
  StatusSummary,
} from '../../api/status';
import { visibleComponents } from '../../api/status';
import * as l10n from '@vscode/l10n';
import { mdEscape, notificationSafe, oneLine } from '../../api/text';
import { hostOf } from '../../api/url';
import { checkingTooltipMarkdown, indicatorView, pageDescription } from './indicator';

export interface IconView {
  icon: string;
  /** Theme colour id, or undefined for the default foreground. */
  color?: string;
  label: string;
}

export const COLOR_OK = 'testing.iconPassed';
export const COLOR_WARNING = 'problemsWarningIcon.foreground';
export const COLOR_ERROR = 'errorForeground';
export const COLOR_MAINTENANCE = 'charts.blue';

const humanize = (v: string): string => oneLine(v, 60) || '?';

export function componentStatusView(status: ComponentStatus): IconView {
  switch (status) {
    case 'operational':
      return { icon: 'pass', color: COLOR_OK, label: l10n.t('Operational') };
    case 'degraded_performance':
      return { icon: 'warning', color: COLOR_WARNING, label: l10n.t('Degraded performance') };
    case 'partial_outage':
      return { icon: 'warning', color: COLOR_WARNING, label: l10n.t('Partial outage') };
    case 'major_outage':
      return { icon: 'error', color: COLOR_ERROR, label: l10n.t('Major outage') };
    case 'under_maintenance':
      return { icon: 'tools', color: COLOR_MAINTENANCE, label: l10n.t('Under maintenance') };
    default:
      return { icon: 'question', label: humanize(status) };
  }
}

/** The overall indicator as a tree icon. */
export function indicatorIcon(indicator: Indicator): IconView {
  const v = indicatorView(indicator);
  const color =
    indicator === 'none'
      ? COLOR_OK
      : v.background === 'warning'
        ? COLOR_WARNING
        : v.background === 'error'
          ? COLOR_ERROR
          : indicator === 'maintenance'
            ? COLOR_MAINTENANCE
            : undefined;
  return { icon: v.icon, color, label: v.label };
}

export function impactView(impact: Impact): IconView {
  switch (impact) {
    case 'none':
      return { icon: 'info', label: l10n.t('No impact') };
    case 'minor':
      return { icon: 'warning', color: COLOR_WARNING, label: l10n.t('Minor') };
    case 'major':
      return { icon: 'error', color: COLOR_ERROR, label: l10n.t('Major') };
    case 'critical':
      return { icon: 'error', color: COLOR_ERROR, label: l10n.t('Critical') };
    case 'maintenance':
      return { icon: 'tools', color: COLOR_MAINTENANCE, label: l10n.t('Maintenance') };
    default:
      return { icon: 'question', label: humanize(impact) };
  }
}

/** Incident and maintenance states, and their updates' states. Unknown values as they are. */
export function incidentStatusLabel(status: string): string {
  switch (status) {
    case 'investigating':
      return l10n.t('Investigating');
    case 'identified':
      return l10n.t('Identified');
    case 'monitoring':
      return l10n.t('Monitoring');
    case 'resolved':
      return l10n.t('Resolved');
    case 'postmortem':
      return l10n.t('Postmortem');
    case 'scheduled':
      return l10n.t('Scheduled');
    case 'in_progress':
      return l10n.t('In progress');
    case 'verifying':
      return l10n.t('Verifying');
    case 'completed':
      return l10n.t('Completed');
    default:
      return humanize(status);
  }
}

export interface TimeOptions {
  /** BCP 47 locale (vscode.env.language); undefined = the runtime's. */
  locale?: string;
  /** IANA zone; undefined = this computer's (the point: local times). */
  timeZone?: string;
}

function dateFormat(opts: TimeOptions, withZone: boolean): Intl.DateTimeFormat {
  const o: Intl.DateTimeFormatOptions = {
    weekday: 'short',
    month: 'short',
    day: 'numeric',
    hour: '2-digit',
    minute: '2-digit',
    hourCycle: 'h23',
    timeZone: opts.timeZone,
    ...(withZone ? { timeZoneName: 'short' as const } : {}),
  };
  try {
    return new Intl.DateTimeFormat(opts.locale, o);
  } catch {
    return new Intl.DateTimeFormat(undefined, o); // unknown locale or zone: the runtime's
  }
}

/** An ISO time as local time ("Wed, Nov 26, 14:00 GMT+1"); text that is not a time is shown as it is. */
export function localTime(iso: string | null | undefined, opts: TimeOptions = {}): string {
  if (!iso) return '';
  const t = Date.parse(iso);
  return Number.isNaN(t) ? oneLine(iso, 60) : dateFormat(opts, true).format(new Date(t));
}

/** A maintenance window in local time ("Wed, Nov 26, 14:00 – 15:30 GMT+1"). */
export function localWindow(
  from: string | null | undefined,
  until: string | null | undefined,
  opts: TimeOptions = {},
): string {
  const a = from ? Date.parse(from) : NaN;
  const b = until ? Date.parse(until) : NaN;
  if (Number.isNaN(a)) return localTime(from, opts) || localTime(until, opts);
  if (Number.isNaN(b) || b < a) return localTime(from, opts);
  const f = dateFormat(opts, true) as Intl.DateTimeFormat & { formatRange?: (x: Date, y: Date) => string };
  return typeof f.formatRange === 'function'
    ? f.formatRange(new Date(a), new Date(b))
    : `${f.format(new Date(a))} – ${f.format(new Date(b))}`;
}

/** "Hedera Mainnet (v0.68.2) | Network Uptime" under its group "Hedera Mainnet (v0.68.2)" reads "Network Uptime". */
export function shortComponentName(name: string, groupName?: string): string {
  if (groupName) {
    for (const sep of [' | ', ' - ', ': ']) {
      const prefix = `${groupName}${sep}`;
      if (name.startsWith(prefix) && name.length > prefix.length) return name.slice(prefix.length);
    }
  }
  return name;
}

/** Components that are not operational, in the page's order (groups left out: their children are listed). */
export function affectedComponents(summary: StatusSummary): StatusComponent[] {
  const ordered = visibleComponents(summary.components).flatMap((c) => (c.group ? c.children : [c]));
  return ordered.filter((c) => !c.group && c.status !== 'operational');
}

const isActive = (m: Maintenance): boolean => m.status === 'in_progress' || m.status === 'verifying';

/** In-progress (or verifying) maintenances of the summary. */
export function activeMaintenances(list: Maintenance[]): Maintenance[] {
  return list.filter(isActive);
}

/** Scheduled maintenances not yet over, earliest first. */
export function upcomingMaintenances(list: Maintenance[], now: number): Maintenance[] {
  const start = (m: Maintenance) => Date.parse(m.scheduled_for ?? '') || Number.MAX_SAFE_INTEGER;
  return list
    .filter((m) => m.status === 'scheduled' && !(Date.parse(m.scheduled_until ?? '') < now))
    .sort((a, b) => start(a) - start(b));
}

export interface TooltipInput {
  summary?: StatusSummary;
  checkedAt?: number;
  error?: unknown;
  failedAt?: number;
  nextPollAt?: number;
  /** The selected network's label ("Testnet"). */
  network: string;
  now: number;
  time?: TimeOptions;
}

const MAX_LIST = 8;

function list<T>(items: T[], line: (x: T) => string): string[] {
  const out = items.slice(0, MAX_LIST).map((x) => `- ${line(x)}`);
  if (items.length > MAX_LIST) out.push(`- ${mdEscape(l10n.t('… and {0} more', items.length - MAX_LIST))}`);
  return out;
}

function incidentLine(i: Incident): string {
  const meta = `${impactView(i.impact).label} · ${incidentStatusLabel(i.status)}`;
  return `${mdEscape(oneLine(i.name, 120))} (${mdEscape(meta)})`;
}

/**
 * The status bar tooltip (Markdown source). All server text escaped; the only markup is ours (bold, lists,
 * `$(icon)`s); no links. With an error: "status unknown", the reason and the last known status.
 */
export function statusTooltipMarkdown(input: TooltipInput): string {
  const { summary, now } = input;
  const t = input.time ?? {};
  const parts: string[] = [];
  if (input.error === undefined && !summary) return checkingTooltipMarkdown(input.network);
  if (input.error !== undefined || !summary) {
    const reason = input.error instanceof Error ? input.error.message : String(input.error);
    const offline = isUnreachable(input.error);
    parts.push(
      offline
        ? `$(debug-disconnect) **${mdEscape(l10n.t('Offline: the Hedera status page could not be reached'))}**`
        : `$(question) **${mdEscape(l10n.t('Hedera network status unknown'))}**`,
      mdEscape(oneLine(reason, 400)),
    );
    if (summary && input.checkedAt !== undefined) {
      parts.push(
        mdEscape(
          l10n.t(
            'Last known: {0} ({1}, {2})',
            indicatorView(summary.status.indicator).label,
            oneLine(pageDescription(summary.status.description), 120),
            localTime(new Date(input.checkedAt).toISOString(), t),
          ),
        ),
      );
    }
    if (input.nextPollAt !== undefined)
      parts.push(mdEscape(l10n.t('Next try: {0}', localTime(new Date(input.nextPollAt).toISOString(), t))));
    parts.push(
      '---',
      mdEscape(
        offline
          ? l10n.t('Network: {0} · Click to try again', input.network)
          : l10n.t('Network: {0} · Click to open the Network Status view', input.network),
      ),
    );
    return parts.join('\n\n');
  }
  const v = indicatorView(summary.status.indicator);
  const page = oneLine(summary.page.name, 80) || l10n.t('Status page');
  const pageHost = hostOf(summary.page.url);
  parts.push(
    `$(${v.icon}) **${mdEscape(page)}**: ${mdEscape(oneLine(pageDescription(summary.status.description), 160) || v.label)}`,
  );
  if (pageHost) parts.push(mdEscape(l10n.t('Status page: {0}', pageHost)));

  const affected = affectedComponents(summary);
  if (affected.length) {
    parts.push(
      `**${mdEscape(l10n.t('Affected components'))}**\n${list(affected, (c) => `${mdEscape(oneLine(c.name, 120))}: ${mdEscape(componentStatusView(c.status).label)}`).join('\n')}`,
    );
  }
  if (summary.incidents.length) {
    parts.push(
      `**${mdEscape(l10n.t('Open incidents'))}**\n${list(summary.incidents, (i) => incidentLine(i)).join('\n')}`,
    );
  }
  const active = activeMaintenances(summary.scheduled_maintenances);
  if (active.length) {
    parts.push(
      `**${mdEscape(l10n.t('Maintenance in progress'))}**\n${list(active, (m) => `${mdEscape(oneLine(m.name, 120))}: ${mdEscape(localWindow(m.scheduled_for, m.scheduled_until, t))}`).join('\n')}`,
    );
  }
  const next = upcomingMaintenances(summary.scheduled_maintenances, now)[0];
  if (next) {
    parts.push(
      `**${mdEscape(l10n.t('Next maintenance'))}**\n- ${mdEscape(oneLine(next.name, 120))}: ${mdEscape(localWindow(next.scheduled_for, next.scheduled_until, t))}`,
    );
  }
  if (!affected.length && !summary.incidents.length && !active.length && !next)
    parts.push(mdEscape(l10n.t('No affected components, open incidents or scheduled maintenances.')));
  const checked = input.checkedAt !== undefined ? localTime(new Date(input.checkedAt).toISOString(), t) : '';
  parts.push(
    '---',
    mdEscape(l10n.t('Network: {0} · Checked {1} · Click to open the Network Status view', input.network, checked)),
  );
  return parts.join('\n\n');
}

/** The sentence of the "worse than before" notification. */
export function worseningMessage(previous: Indicator, summary: StatusSummary): string {
  const now = indicatorView(summary.status.indicator).label;
  const was = indicatorView(previous).label;
  const desc = notificationSafe(pageDescription(summary.status.description), 160);
  const names = summary.incidents
    .slice(0, 2)
    .map((i) => notificationSafe(i.name, 160))
    .filter(Boolean);
  const base = desc
    ? l10n.t('Hedera network status: {0} (was {1}). {2}', now, was, desc)
    : l10n.t('Hedera network status: {0} (was {1}).', now, was);
  return names.length
    ? `${base}${/[.!?]$/.test(base) ? '' : '.'} ${l10n.t('Open incidents: {0}', names.join('; '))}`
    : base;
}
