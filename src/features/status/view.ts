/**
 * The "Network Status" tree (`hederaExplorer.status`): the overall status, open incidents with their updates,
 * maintenances (in progress from the shared summary; upcoming from `scheduled-maintenances/upcoming.json`,
 * fetched only while the view is visible) and the component groups. The summary comes from the StatusModel
 * that the status bar shares: the view never asks for it on its own.
 * Server text is plain text in labels and plain-string tooltips; Markdown tooltips escape it (mdEscape).
 */
import vscode = require('vscode');
import type { Incident, IncidentUpdate, Maintenance, StatusComponent, StatusSummary } from '../../api/status';
import { visibleComponents } from '../../api/status';
import type { StatusModel, StatusState } from './model';
import type { SelectedNetwork } from '../../core/selectedNetwork';
import type { ExtensionLog } from '../../core/log';
import { DetailNode, errorNode, GroupNode, inert, loadingNode, mdEscape, MessageNode, NodeTreeProvider, oneLine, TreeNode } from '../../ui/nodes';
import {
  activeMaintenances, componentStatusView, IconView, impactView, incidentStatusLabel, indicatorIcon, localTime, localWindow, relativeTime,
  safeExternalUrl, shortComponentName, TimeOptions, upcomingMaintenances,
} from './format';

export const STATUS_VIEW_ID = 'hederaExplorer.status';
export const CMD_REFRESH = 'hederaExplorer.status.refresh';
export const CMD_OPEN_LINK = 'hederaExplorer.status.openLink';
export const CMD_COPY_LINK = 'hederaExplorer.status.copyLink';

const icon = (v: IconView): vscode.ThemeIcon => new vscode.ThemeIcon(v.icon, v.color ? new vscode.ThemeColor(v.color) : undefined);

/** A data row of this view: label, description, icon, tooltip, children and, for incidents, their link. */
export class StatusRow implements TreeNode {
  constructor(
    readonly label: string,
    private readonly opts: {
      id?: string;
      description?: string;
      icon?: vscode.ThemeIcon;
      tooltip?: string | vscode.MarkdownString;
      contextValue: string;
      children?: TreeNode[];
      expanded?: boolean;
      /** http(s) link opened by a click and by "Open in Browser". */
      link?: string;
    },
  ) {}

  get id(): string | undefined {
    return this.opts.id;
  }

  get link(): string | undefined {
    return this.opts.link;
  }

  getTreeItem(): vscode.TreeItem {
    const state = this.opts.children?.length
      ? this.opts.expanded ? vscode.TreeItemCollapsibleState.Expanded : vscode.TreeItemCollapsibleState.Collapsed
      : vscode.TreeItemCollapsibleState.None;
    const item = new vscode.TreeItem(oneLine(this.label, 400), state);
    if (this.opts.id) item.id = this.opts.id;
    item.description = this.opts.description === undefined ? undefined : oneLine(this.opts.description, 400);
    item.iconPath = this.opts.icon;
    item.tooltip = typeof this.opts.tooltip === 'string' ? inert(this.opts.tooltip, 'text') : this.opts.tooltip;
    item.contextValue = this.opts.contextValue;
    if (this.opts.link) {
      item.command = { command: CMD_OPEN_LINK, title: vscode.l10n.t('Open in Browser'), arguments: [this.opts.link] };
    }
    return item;
  }

  getChildren(): TreeNode[] {
    return this.opts.children ?? [];
  }
}

/** Unique tree ids per render, whatever duplicates the server sends (a duplicate id would break the view). */
class Ids {
  private readonly used = new Set<string>();
  constructor(private readonly prefix: string) {}
  make(...parts: string[]): string {
    const base = `${this.prefix}/${parts.join('/')}`;
    let id = base;
    for (let n = 2; this.used.has(id); n++) id = `${base}#${n}`;
    this.used.add(id);
    return id;
  }
}

interface UpcomingState {
  key: string;
  data?: Maintenance[];
  error?: unknown;
  loading: boolean;
}

export class StatusView implements vscode.Disposable {
  readonly provider: NodeTreeProvider;
  readonly treeView: vscode.TreeView<TreeNode>;
  private upcoming: UpcomingState = { key: '', loading: false };
  private upcomingAbort: AbortController | undefined;
  private readonly disposables: vscode.Disposable[] = [];

  constructor(
    private readonly model: StatusModel,
    private readonly network: SelectedNetwork,
    private readonly log: ExtensionLog,
    private readonly time: () => TimeOptions,
  ) {
    this.provider = new NodeTreeProvider(() => this.roots());
    this.treeView = vscode.window.createTreeView(STATUS_VIEW_ID, { treeDataProvider: this.provider, showCollapseAll: true });
    this.disposables.push(this.provider, this.treeView);
    this.updateDescription();
    const sub = model.onDidChange((s) => {
      if (s.generation.toString() !== this.upcoming.key.split(':')[0]) this.resetUpcoming();
      this.provider.refresh();
      if (s.loading && this.treeView.visible) this.showProgress();
    });
    this.disposables.push({ dispose: () => sub.dispose() });
    this.disposables.push(
      this.treeView.onDidChangeVisibility((e) => { if (e.visible) { this.provider.refresh(); } }),
      network.onDidChange(() => this.updateDescription()),
    );
  }

  /** "Refresh" and "Retry": one poll of the summary (shared with the status bar) and, when shown, the upcoming list. */
  async refresh(): Promise<void> {
    this.resetUpcoming();
    this.provider.refresh();
    await this.model.refresh();
    await this.ensureUpcoming();
  }

  private showProgress(): void {
    void vscode.window.withProgress({ location: { viewId: STATUS_VIEW_ID } }, () => new Promise<void>((resolve) => {
      const sub = this.model.onDidChange((s) => { if (!s.loading) { sub.dispose(); resolve(); } });
      if (!this.model.state.loading) { sub.dispose(); resolve(); }
    }));
  }

  private updateDescription(): void {
    try {
      this.treeView.description = new URL(this.network.profile.statusUrl).host;
    } catch {
      this.treeView.description = undefined;
    }
  }

  private resetUpcoming(): void {
    this.upcomingAbort?.abort();
    this.upcomingAbort = undefined;
    this.upcoming = { key: '', loading: false };
  }

  private upcomingKey(s: StatusState): string {
    return `${s.generation}:${s.polls}`;
  }

  /** Reads upcoming.json once per poll, only while the view is visible and the summary was read. */
  private async ensureUpcoming(): Promise<void> {
    const s = this.model.state;
    if (!this.treeView.visible || !s.summary || s.loading) return;
    const key = this.upcomingKey(s);
    if (this.upcoming.key === key || this.upcoming.loading) return;
    const abort = new AbortController();
    this.upcomingAbort = abort;
    this.upcoming = { key, loading: true, data: this.upcoming.data };
    try {
      const res = await this.network.clients.status.upcomingMaintenances({ signal: abort.signal });
      if (abort.signal.aborted) return;
      this.upcoming = { key, loading: false, data: res.scheduled_maintenances };
    } catch (error) {
      if (abort.signal.aborted) return;
      this.log.warn(`Network status: upcoming maintenances: ${error instanceof Error ? error.message : String(error)}`);
      this.upcoming = { key, loading: false, error };
    } finally {
      if (this.upcomingAbort === abort) this.upcomingAbort = undefined;
    }
    this.provider.refresh();
  }

  /** The root rows (also read by the test hook). Never throws: a failure is an error row. */
  roots(): TreeNode[] {
    try {
      return this.build();
    } catch (e) {
      this.log.error(`Network status view: ${e instanceof Error ? e.stack ?? e.message : String(e)}`);
      return [errorNode(e, this.retryCommand())];
    }
  }

  private retryCommand(): vscode.Command {
    return { command: CMD_REFRESH, title: vscode.l10n.t('Retry') };
  }

  private build(): TreeNode[] {
    const s = this.model.state;
    const ids = new Ids(`status/${s.generation}`);
    const rows: TreeNode[] = [];
    if (s.error !== undefined) rows.push(errorNode(s.error, this.retryCommand(), ids.make('error')));
    if (!s.summary) {
      if (s.error === undefined) rows.push(loadingNode(vscode.l10n.t('Reading the status page…')));
      return rows;
    }
    if (this.treeView.visible) void this.ensureUpcoming();
    const summary = s.summary;
    rows.push(this.overallRow(summary, s, ids));
    rows.push(this.incidentsSection(summary.incidents, ids));
    rows.push(this.maintenanceSection(summary, ids));
    rows.push(this.componentsSection(summary.components, ids));
    return rows;
  }

  private overallRow(summary: StatusSummary, s: StatusState, ids: Ids): TreeNode {
    const t = this.time();
    const v = indicatorIcon(summary.status.indicator);
    const label = oneLine(summary.status.description, 120) || v.label;
    const checked = s.checkedAt !== undefined ? localTime(new Date(s.checkedAt).toISOString(), t) : '';
    const page = oneLine(summary.page.name, 60);
    const description = s.error !== undefined ? vscode.l10n.t('last known, {0}', checked) : page ? `${page} · ${v.label}` : v.label;
    const md = new vscode.MarkdownString(undefined, false);
    md.appendMarkdown(`**${mdEscape(label)}**\n\n`);
    md.appendMarkdown(`${mdEscape(vscode.l10n.t('Indicator: {0}', v.label))}\n\n`);
    if (summary.page.url) md.appendMarkdown(`${mdEscape(vscode.l10n.t('Status page: {0}', oneLine(summary.page.url, 200)))}\n\n`);
    if (summary.page.updated_at) md.appendMarkdown(`${mdEscape(vscode.l10n.t('Page updated: {0}', localTime(summary.page.updated_at, t)))}\n\n`);
    if (checked) md.appendMarkdown(mdEscape(vscode.l10n.t('Checked: {0}', checked)));
    return new StatusRow(label, { id: ids.make('overall'), description, icon: icon(v), tooltip: md, contextValue: 'status.overall' });
  }

  private incidentsSection(incidents: Incident[], ids: Ids): TreeNode {
    if (!incidents.length) {
      return new MessageNode(vscode.l10n.t('No open incidents'), { icon: new vscode.ThemeIcon('pass', new vscode.ThemeColor('testing.iconPassed')), contextValue: 'status.noIncidents', id: ids.make('incidents') });
    }
    const children = incidents.map((i) => this.incidentRow(i, ids, 'incident'));
    return new GroupNode(vscode.l10n.t('Open incidents'), children, {
      icon: new vscode.ThemeIcon('flame', new vscode.ThemeColor('errorForeground')), description: String(incidents.length), expanded: true, contextValue: 'status.incidents',
    });
  }

  private maintenanceSection(summary: StatusSummary, ids: Ids): TreeNode {
    const active = activeMaintenances(summary.scheduled_maintenances);
    const children: TreeNode[] = active.map((m) => this.incidentRow(m, ids, 'maintenance'));
    const activeIds = new Set(active.map((m) => m.id));
    const u = this.upcoming;
    let upcomingCount = 0;
    if (u.data) {
      const list = upcomingMaintenances(u.data, Date.now()).filter((m) => !activeIds.has(m.id));
      upcomingCount = list.length;
      children.push(...list.map((m) => this.incidentRow(m, ids, 'maintenance')));
    }
    if (u.error !== undefined) {
      children.push(errorNode(u.error, this.retryCommand(), ids.make('upcoming-error')));
    } else if (!u.data) {
      children.push(loadingNode(vscode.l10n.t('Reading upcoming maintenances…')));
    } else if (!children.length) {
      return new MessageNode(vscode.l10n.t('No scheduled maintenance'), { icon: new vscode.ThemeIcon('calendar'), contextValue: 'status.noMaintenance', id: ids.make('maintenance') });
    }
    const parts: string[] = [];
    if (active.length) parts.push(vscode.l10n.t('{0} in progress', active.length));
    if (upcomingCount) parts.push(vscode.l10n.t('{0} upcoming', upcomingCount));
    return new GroupNode(vscode.l10n.t('Maintenance'), children, {
      icon: new vscode.ThemeIcon('tools', active.length ? new vscode.ThemeColor('charts.blue') : undefined), description: parts.join(' · '), expanded: true, contextValue: 'status.maintenances',
    });
  }

  private incidentRow(i: Incident | Maintenance, ids: Ids, kind: 'incident' | 'maintenance'): TreeNode {
    const t = this.time();
    const now = Date.now();
    const m = kind === 'maintenance' ? (i as Maintenance) : undefined;
    const status = incidentStatusLabel(i.status);
    const impact = impactView(i.impact);
    const when = m ? localWindow(m.scheduled_for, m.scheduled_until, t) : relativeTime(i.updated_at ?? i.created_at, now, t);
    const description = m ? `${status} · ${when}` : `${impact.label} · ${status}${when ? ` · ${when}` : ''}`;
    const link = safeExternalUrl(i.shortlink);
    const children: TreeNode[] = [];
    if (m) children.push(new DetailNode(vscode.l10n.t('Window'), localWindow(m.scheduled_for, m.scheduled_until, t) || '—', { icon: new vscode.ThemeIcon('calendar'), contextValue: 'status.window' }));
    if (i.components.length) {
      const comps = i.components.map((c) => this.componentRow(c, undefined, ids, `${kind}/${i.id}/c`));
      children.push(new GroupNode(vscode.l10n.t('Affected components'), comps, { icon: new vscode.ThemeIcon('layers'), description: String(comps.length), expanded: kind === 'maintenance', contextValue: 'status.affected' }));
    }
    children.push(...i.incident_updates.map((u) => this.updateRow(u, ids, `${kind}/${i.id}`)));
    const md = new vscode.MarkdownString(undefined, false);
    md.appendMarkdown(`**${mdEscape(oneLine(i.name, 200))}**\n\n`);
    md.appendMarkdown(`${mdEscape(m ? vscode.l10n.t('Maintenance · {0}', status) : vscode.l10n.t('Impact: {0} · {1}', impact.label, status))}\n\n`);
    if (m) md.appendMarkdown(`${mdEscape(vscode.l10n.t('Window: {0}', localWindow(m.scheduled_for, m.scheduled_until, t) || '—'))}\n\n`);
    else if (i.started_at || i.created_at) md.appendMarkdown(`${mdEscape(vscode.l10n.t('Started: {0}', localTime(i.started_at || i.created_at, t)))}\n\n`);
    if (i.updated_at) md.appendMarkdown(`${mdEscape(vscode.l10n.t('Last update: {0}', localTime(i.updated_at, t)))}\n\n`);
    if (i.components.length) md.appendMarkdown(`${mdEscape(vscode.l10n.t('Components: {0}', i.components.map((c) => oneLine(c.name, 80)).join(', ')))}\n\n`);
    md.appendMarkdown(mdEscape(link ? vscode.l10n.t('Click to open {0}', oneLine(link, 200)) : vscode.l10n.t('No link to open.')));
    const v = m ? { ...impact, icon: m.status === 'scheduled' ? 'calendar' : 'tools' } : impact;
    return new StatusRow(oneLine(i.name, 200) || vscode.l10n.t('(unnamed)'), {
      id: ids.make(kind, i.id),
      description,
      icon: icon(v),
      tooltip: md,
      contextValue: link ? `status.${kind}.link` : `status.${kind}`,
      children,
      expanded: kind === 'incident',
      link,
    });
  }

  private updateRow(u: IncidentUpdate, ids: Ids, parent: string): TreeNode {
    const t = this.time();
    const at = u.display_at || u.created_at;
    const status = incidentStatusLabel(u.status);
    const body = oneLine(u.body, 300) || vscode.l10n.t('(no text)');
    const time = localTime(at, t);
    // a plain-string tooltip is shown as text: the body (untrusted, often HTML) is never rendered
    const tooltip = `${status} · ${time}${at ? ` (${relativeTime(at, Date.now(), t)})` : ''}\n\n${u.body.slice(0, 4000)}`;
    return new StatusRow(body, { id: ids.make(parent, 'u', u.id), description: `${status} · ${time}`, icon: new vscode.ThemeIcon('comment'), tooltip, contextValue: 'status.update' });
  }

  private componentRow(c: Pick<StatusComponent, 'id' | 'name' | 'status'> & Partial<StatusComponent>, group: string | undefined, ids: Ids, parent: string, children?: TreeNode[], affected = 0): TreeNode {
    const t = this.time();
    const v = componentStatusView(c.status);
    const name = oneLine(shortComponentName(c.name, group), 200);
    const md = new vscode.MarkdownString(undefined, false);
    md.appendMarkdown(`**${mdEscape(oneLine(c.name, 200))}**\n\n${mdEscape(v.label)}`);
    if (c.description) md.appendMarkdown(`\n\n${mdEscape(oneLine(c.description, 400))}`);
    if (c.updated_at) md.appendMarkdown(`\n\n${mdEscape(vscode.l10n.t('Updated: {0}', localTime(c.updated_at, t)))}`);
    return new StatusRow(name || vscode.l10n.t('(unnamed component)'), {
      // a group's id changes with its state: VS Code then applies `expanded` again (opens when it becomes affected)
      id: children ? ids.make(parent, c.id, affected ? 'affected' : 'ok') : ids.make(parent, c.id),
      description: affected ? vscode.l10n.t('{0} · {1} affected', v.label, affected) : v.label,
      icon: icon(v),
      tooltip: md,
      contextValue: children ? 'status.componentGroup' : 'status.component',
      children,
      expanded: !!affected,
    });
  }

  private componentsSection(components: StatusComponent[], ids: Ids): TreeNode {
    const shown = visibleComponents(components);
    if (!shown.length) {
      return new MessageNode(vscode.l10n.t('No components on this status page'), { icon: new vscode.ThemeIcon('info'), contextValue: 'status.noComponents', id: ids.make('components') });
    }
    const rows = shown.map((c) => (c.group
      ? this.componentRow(c, undefined, ids, 'component', c.children.map((x) => this.componentRow(x, c.name, ids, `component/${c.id}`)), c.children.filter((x) => x.status !== 'operational').length)
      : this.componentRow(c, undefined, ids, 'component')));
    const affected = components.filter((c) => !c.group && c.status !== 'operational').length;
    return new GroupNode(vscode.l10n.t('Components'), rows, {
      icon: new vscode.ThemeIcon('server-environment'),
      description: affected ? vscode.l10n.t('{0} affected', affected) : vscode.l10n.t('all operational'),
      expanded: true,
      contextValue: 'status.components',
    });
  }

  dispose(): void {
    this.resetUpcoming();
    for (const d of this.disposables) d.dispose();
  }
}
