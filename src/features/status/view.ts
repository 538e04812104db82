/**
 * The "Network Status" tree (`hederaExplorer.status`), loaded with its first rows (LazyTreeView, see index.ts): the overall status, open incidents with their updates,
 * maintenances (in progress from the shared summary; upcoming from `scheduled-maintenances/upcoming.json`,
 * fetched only while the view is visible) and the component groups. The summary comes from the StatusModel
 * that the status bar shares: the view never asks for it on its own.
 * Server text is plain text in labels and plain-string tooltips; Markdown tooltips escape it (mdEscape).
 */
import * as vscode from 'vscode';
import { isUnreachable } from '../../api/reach';
import { DisposableStore } from '../../core/disposables';
import { relativeTime } from '../../api/format';
import { LatestRequest } from '../../api/latest';
import type { Incident, IncidentUpdate, Maintenance, StatusComponent, StatusSummary } from '../../api/status';
import { visibleComponents } from '../../api/status';
import { httpUrl } from '../../api/url';
import type { StatusModel, StatusState } from './model';
import type { SelectedNetwork } from '../../core/selectedNetwork';
import type { ExtensionLog } from '../../core/log';
import type { LoadedTree } from '../../ui/lazyTree';
import {
  DetailNode,
  errorNode,
  GroupNode,
  loadingNode,
  mdEscape,
  MessageNode,
  NodeTreeProvider,
  oneLine,
  type TreeNode,
} from '../../ui/nodes';
import {
  activeMaintenances,
  componentStatusView,
  type IconView,
  impactView,
  incidentStatusLabel,
  indicatorIcon,
  localTime,
  localWindow,
  shortComponentName,
  type TimeOptions,
  upcomingMaintenances,
} from './format';
import { CMD_OPEN_LINK, CMD_REFRESH, STATUS_VIEW_ID } from './ids';
import type { StatusRowSnapshot } from './seam';
import { pageDescription } from './indicator';

const icon = (v: IconView): vscode.ThemeIcon =>
  new vscode.ThemeIcon(v.icon, v.color ? new vscode.ThemeColor(v.color) : undefined);

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

/** The loaded part of the view (created by the LazyTreeView of index.ts on the first rows VS Code asks for). */
export class StatusView implements LoadedTree<TreeNode> {
  private readonly provider: NodeTreeProvider;
  readonly onDidChangeTreeData: vscode.Event<TreeNode | TreeNode[] | undefined | void>;
  private upcoming: UpcomingState = { key: '', loading: false };
  /** The upcoming-maintenances request: a reset cancels it, a late answer of a cancelled one is dropped. */
  private readonly upcomingRequest = new LatestRequest();
  private readonly disposables = new DisposableStore();

  constructor(
    private readonly model: StatusModel,
    private readonly network: SelectedNetwork,
    private readonly log: ExtensionLog,
    private readonly time: () => TimeOptions,
    private readonly treeView: vscode.TreeView<TreeNode>,
  ) {
    this.provider = new NodeTreeProvider(() => this.roots());
    this.onDidChangeTreeData = this.provider.onDidChangeTreeData;
    this.disposables.add(this.provider);
    const sub = model.onDidChange((s) => {
      if (s.generation.toString() !== this.upcoming.key.split(':')[0]) this.resetUpcoming();
      this.provider.refresh();
      if (s.loading && this.treeView.visible) this.showProgress();
    });
    this.disposables.add(sub);
    this.disposables.add(
      this.treeView.onDidChangeVisibility((e) => {
        if (e.visible) {
          this.provider.refresh();
        }
      }),
    );
    if (model.state.loading && treeView.visible) this.showProgress(); // loaded while a poll runs
  }

  getTreeItem(node: TreeNode): vscode.TreeItem {
    return this.provider.getTreeItem(node);
  }

  getChildren(node?: TreeNode): Promise<TreeNode[]> {
    return this.provider.getChildren(node);
  }

  /** "Refresh" and "Retry": one poll of the summary (shared with the status bar) and, when shown, the upcoming list. */
  async refresh(): Promise<void> {
    this.resetUpcoming();
    this.provider.refresh();
    await this.model.refresh();
    await this.ensureUpcoming();
  }

  /** The link of a row of this view ("Open in Browser" and "Copy Link" from its context menu). */
  linkOf(node: unknown): string | undefined {
    return node instanceof MessageNode ? node.link : undefined;
  }

  /** The root rows as VS Code gets them, children down to `depth` (the test seam). */
  snapshotRows(depth: number): Promise<StatusRowSnapshot[]> {
    return Promise.all(this.roots().map((r) => rowSnapshot(r, depth)));
  }

  private showProgress(): void {
    void vscode.window.withProgress(
      { location: { viewId: STATUS_VIEW_ID } },
      () =>
        new Promise<void>((resolve) => {
          const sub = this.model.onDidChange((s) => {
            if (!s.loading) {
              sub.dispose();
              resolve();
            }
          });
          if (!this.model.state.loading) {
            sub.dispose();
            resolve();
          }
        }),
    );
  }

  private resetUpcoming(): void {
    this.upcomingRequest.cancel();
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
    const signal = this.upcomingRequest.start();
    this.upcoming = { key, loading: true, data: this.upcoming.data };
    try {
      const res = await this.network.clients.status.upcomingMaintenances({ signal });
      if (!this.upcomingRequest.isCurrent(signal)) return;
      this.upcoming = { key, loading: false, data: res.scheduled_maintenances };
    } catch (error) {
      if (!this.upcomingRequest.isCurrent(signal)) return;
      this.log.warn(`Network status: upcoming maintenances: ${error instanceof Error ? error.message : String(error)}`);
      this.upcoming = { key, loading: false, error };
    } finally {
      this.upcomingRequest.done(signal);
    }
    this.provider.refresh();
  }

  /** The root rows. Never throws: a failure is an error row. */
  roots(): TreeNode[] {
    try {
      return this.build();
    } catch (e) {
      this.log.error(`Network status view: ${e instanceof Error ? (e.stack ?? e.message) : String(e)}`);
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
    // the status page cannot be reached and nothing is known: no rows, the view shows that state's welcome
    if (s.error !== undefined && !s.summary && isUnreachable(s.error)) return rows;
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
    const label = oneLine(pageDescription(summary.status.description), 120) || v.label;
    const checked = s.checkedAt !== undefined ? localTime(new Date(s.checkedAt).toISOString(), t) : '';
    const page = oneLine(summary.page.name, 60);
    const description =
      s.error !== undefined ? vscode.l10n.t('last known, {0}', checked) : page ? `${page} · ${v.label}` : v.label;
    const md = new vscode.MarkdownString(undefined, false);
    md.appendMarkdown(`**${mdEscape(label)}**\n\n`);
    md.appendMarkdown(`${mdEscape(vscode.l10n.t('Indicator: {0}', v.label))}\n\n`);
    if (summary.page.url)
      md.appendMarkdown(`${mdEscape(vscode.l10n.t('Status page: {0}', oneLine(summary.page.url, 200)))}\n\n`);
    if (summary.page.updated_at)
      md.appendMarkdown(`${mdEscape(vscode.l10n.t('Page updated: {0}', localTime(summary.page.updated_at, t)))}\n\n`);
    if (checked) md.appendMarkdown(mdEscape(vscode.l10n.t('Checked: {0}', checked)));
    return new MessageNode(label, {
      id: ids.make('overall'),
      description,
      icon: icon(v),
      tooltip: md,
      contextValue: 'status.overall',
    });
  }

  private incidentsSection(incidents: Incident[], ids: Ids): TreeNode {
    if (!incidents.length) {
      return new MessageNode(vscode.l10n.t('No open incidents'), {
        icon: new vscode.ThemeIcon('pass', new vscode.ThemeColor('testing.iconPassed')),
        contextValue: 'status.noIncidents',
        id: ids.make('incidents'),
      });
    }
    const children = incidents.map((i) => this.incidentRow(i, ids, 'incident'));
    return new GroupNode(vscode.l10n.t('Open incidents'), children, {
      icon: new vscode.ThemeIcon('flame', new vscode.ThemeColor('errorForeground')),
      description: String(incidents.length),
      expanded: true,
      contextValue: 'status.incidents',
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
      return new MessageNode(vscode.l10n.t('No scheduled maintenance'), {
        icon: new vscode.ThemeIcon('calendar'),
        contextValue: 'status.noMaintenance',
        id: ids.make('maintenance'),
      });
    }
    const parts: string[] = [];
    if (active.length) parts.push(vscode.l10n.t('{0} in progress', active.length));
    if (upcomingCount) parts.push(vscode.l10n.t('{0} upcoming', upcomingCount));
    return new GroupNode(vscode.l10n.t('Maintenance'), children, {
      icon: new vscode.ThemeIcon('tools', active.length ? new vscode.ThemeColor('charts.blue') : undefined),
      description: parts.join(' · '),
      expanded: true,
      contextValue: 'status.maintenances',
    });
  }

  private incidentRow(i: Incident | Maintenance, ids: Ids, kind: 'incident' | 'maintenance'): TreeNode {
    const t = this.time();
    const now = Date.now();
    const m = kind === 'maintenance' ? (i as Maintenance) : undefined;
    const status = incidentStatusLabel(i.status);
    const impact = impactView(i.impact);
    const when = m
      ? localWindow(m.scheduled_for, m.scheduled_until, t)
      : relativeTime(i.updated_at ?? i.created_at, now, t.locale);
    const description = m ? `${status} · ${when}` : `${impact.label} · ${status}${when ? ` · ${when}` : ''}`;
    const link = httpUrl(i.shortlink);
    const children: TreeNode[] = [];
    if (m)
      children.push(
        new DetailNode(vscode.l10n.t('Window'), localWindow(m.scheduled_for, m.scheduled_until, t) || '—', {
          icon: new vscode.ThemeIcon('calendar'),
          contextValue: 'status.window',
        }),
      );
    if (i.components.length) {
      const comps = i.components.map((c) => this.componentRow(c, undefined, ids, `${kind}/${i.id}/c`));
      children.push(
        new GroupNode(vscode.l10n.t('Affected components'), comps, {
          icon: new vscode.ThemeIcon('layers'),
          description: String(comps.length),
          expanded: kind === 'maintenance',
          contextValue: 'status.affected',
        }),
      );
    }
    children.push(...i.incident_updates.map((u) => this.updateRow(u, ids, `${kind}/${i.id}`)));
    const md = new vscode.MarkdownString(undefined, false);
    md.appendMarkdown(`**${mdEscape(oneLine(i.name, 200))}**\n\n`);
    md.appendMarkdown(
      `${mdEscape(m ? vscode.l10n.t('Maintenance · {0}', status) : vscode.l10n.t('Impact: {0} · {1}', impact.label, status))}\n\n`,
    );
    if (m)
      md.appendMarkdown(
        `${mdEscape(vscode.l10n.t('Window: {0}', localWindow(m.scheduled_for, m.scheduled_until, t) || '—'))}\n\n`,
      );
    else if (i.started_at || i.created_at)
      md.appendMarkdown(`${mdEscape(vscode.l10n.t('Started: {0}', localTime(i.started_at || i.created_at, t)))}\n\n`);
    if (i.updated_at)
      md.appendMarkdown(`${mdEscape(vscode.l10n.t('Last update: {0}', localTime(i.updated_at, t)))}\n\n`);
    if (i.components.length)
      md.appendMarkdown(
        `${mdEscape(vscode.l10n.t('Components: {0}', i.components.map((c) => oneLine(c.name, 80)).join(', ')))}\n\n`,
      );
    md.appendMarkdown(
      mdEscape(link ? vscode.l10n.t('Click to open {0}', oneLine(link, 200)) : vscode.l10n.t('No link to open.')),
    );
    const v = m ? { ...impact, icon: m.status === 'scheduled' ? 'calendar' : 'tools' } : impact;
    return new MessageNode(oneLine(i.name, 200) || vscode.l10n.t('(unnamed)'), {
      id: ids.make(kind, i.id),
      description,
      icon: icon(v),
      tooltip: md,
      contextValue: link ? `status.${kind}.link` : `status.${kind}`,
      children,
      expanded: kind === 'incident',
      link: link ? { url: link, command: CMD_OPEN_LINK } : undefined,
    });
  }

  private updateRow(u: IncidentUpdate, ids: Ids, parent: string): TreeNode {
    const t = this.time();
    const at = u.display_at || u.created_at;
    const status = incidentStatusLabel(u.status);
    const body = oneLine(u.body, 300) || vscode.l10n.t('(no text)');
    const time = localTime(at, t);
    // a plain-string tooltip is shown as text: the body (untrusted, often HTML) is never rendered
    const tooltip = `${status} · ${time}${at ? ` (${relativeTime(at, Date.now(), t.locale)})` : ''}\n\n${u.body.slice(0, 4000)}`;
    return new MessageNode(body, {
      id: ids.make(parent, 'u', u.id),
      description: `${status} · ${time}`,
      icon: new vscode.ThemeIcon('comment'),
      tooltip,
      contextValue: 'status.update',
    });
  }

  private componentRow(
    c: Pick<StatusComponent, 'id' | 'name' | 'status'> & Partial<StatusComponent>,
    group: string | undefined,
    ids: Ids,
    parent: string,
    children?: TreeNode[],
    affected = 0,
  ): TreeNode {
    const t = this.time();
    const v = componentStatusView(c.status);
    const name = oneLine(shortComponentName(c.name, group), 200);
    const md = new vscode.MarkdownString(undefined, false);
    md.appendMarkdown(`**${mdEscape(oneLine(c.name, 200))}**\n\n${mdEscape(v.label)}`);
    if (c.description) md.appendMarkdown(`\n\n${mdEscape(oneLine(c.description, 400))}`);
    if (c.updated_at) md.appendMarkdown(`\n\n${mdEscape(vscode.l10n.t('Updated: {0}', localTime(c.updated_at, t)))}`);
    return new MessageNode(name || vscode.l10n.t('(unnamed component)'), {
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
      return new MessageNode(vscode.l10n.t('No components on this status page'), {
        icon: new vscode.ThemeIcon('info'),
        contextValue: 'status.noComponents',
        id: ids.make('components'),
      });
    }
    const rows = shown.map((c) =>
      c.group
        ? this.componentRow(
            c,
            undefined,
            ids,
            'component',
            c.children.map((x) => this.componentRow(x, c.name, ids, `component/${c.id}`)),
            c.children.filter((x) => x.status !== 'operational').length,
          )
        : this.componentRow(c, undefined, ids, 'component'),
    );
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
    this.disposables.dispose();
  }
}

function labelText(label: string | vscode.TreeItemLabel | undefined): string {
  return typeof label === 'string' ? label : (label?.label ?? '');
}

/** A row as VS Code gets it (its TreeItem), with its children down to `depth`. */
async function rowSnapshot(node: TreeNode, depth: number): Promise<StatusRowSnapshot> {
  const item = node.getTreeItem();
  const themeIcon = item.iconPath instanceof vscode.ThemeIcon ? item.iconPath : undefined;
  const tooltip = typeof item.tooltip === 'string' ? item.tooltip : item.tooltip?.value;
  const out: StatusRowSnapshot = {
    label: labelText(item.label),
    description: typeof item.description === 'string' ? item.description : undefined,
    icon: themeIcon?.id,
    color: themeIcon?.color?.id,
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
