/**
 * The rows of the Deployments view (`hederaExplorer.deployments`): the contracts of the workspace's deployment
 * records on the selected network's chain (or every chain, grouped, with "Show All Networks"), each with its entity
 * id, its latest results (failures marked) and its Sourcify state; expanded, where it was found and its recent
 * results as the Contract Results view shows them (the same row kind and actions). Errors are rows with the
 * server's message and Retry. Part of the feature's lazy entry (lazy.ts).
 */
import * as vscode from 'vscode';
import { DisposableStore } from '../../core/disposables';
import { ContextKey, setContext } from '../../core/contextKeys';
import { shortAddress } from '../../api/format';
import type { NetworkProfile } from '../../api/networks';
import type { LoadedTree } from '../../ui/lazyTree';
import {
  DetailNode,
  emptyNode,
  errorNode,
  GroupNode,
  loadingNode,
  mdEscape,
  MessageNode,
  NodeTreeProvider,
  oneLine,
  type TreeNode,
} from '../../ui/nodes';
import { contractResultRow } from '../contractResults';
import type { FeatureContext } from '../context';
import { COMMANDS, DEPLOYMENTS_PAGE, DEPLOYMENTS_VIEW, OTHER_COMMANDS } from './ids';
import type { DeploymentsModel, EntryState } from './model';
import { chainLabel, type DeploymentEntry, entriesOnChain, groupByChain } from './records';
import { canVerify, resultsLine, verificationText } from './summary';

const ALL_NETWORKS_STATE = 'hederaExplorer.deployments.allNetworks';

const sourceName = (e: DeploymentEntry): string =>
  e.source === 'ignition' ? 'Hardhat Ignition' : e.source === 'hardhat-deploy' ? 'hardhat-deploy' : 'Foundry broadcast';

/** The entity id, or the short address while it is not known. */
export function displayId(entry: DeploymentEntry, state: EntryState): string {
  return state.contract?.value?.id ?? entry.entityId ?? shortAddress(entry.address);
}

/** A row of the view as the tests read it. */
export interface DeploymentRow {
  label: string;
  description?: string;
  contextValue?: string;
  icon?: string;
  tooltip?: string;
  /** The row's command and its first argument as text. */
  command?: string;
  collapsible: boolean;
}

/** A deployed contract. `online`: on the selected network's chain (looked up); else only what the record says. */
export class DeploymentNode implements TreeNode {
  constructor(
    readonly entry: DeploymentEntry,
    private readonly tree: DeploymentsTree,
    private readonly online: boolean,
  ) {}

  get id(): string {
    return `deployment:${this.tree.profile.name}:${this.online ? 'online' : 'record'}:${this.entry.key}`;
  }

  getTreeItem(): vscode.TreeItem {
    const e = this.entry;
    const item = new vscode.TreeItem(
      oneLine(e.name, 200) || vscode.l10n.t('(unnamed contract)'),
      this.online ? vscode.TreeItemCollapsibleState.Collapsed : vscode.TreeItemCollapsibleState.None,
    );
    item.id = this.id;
    const profile = this.tree.profile;
    const md = new vscode.MarkdownString();
    md.appendMarkdown(
      `**${mdEscape(e.name || vscode.l10n.t('(unnamed contract)'))}** · ${mdEscape(sourceName(e))}\n\n`,
    );
    const lines: Array<[string, string | undefined]> = [[vscode.l10n.t('Address'), e.address]];
    if (!this.online) {
      item.description = oneLine(`${shortAddress(e.address)} · ${vscode.l10n.t('not on {0}', profile.label)}`, 300);
      item.iconPath = new vscode.ThemeIcon('circle-outline', new vscode.ThemeColor('disabledForeground'));
      item.contextValue = 'deployment.record';
      item.command = {
        command: COMMANDS.openRecord,
        title: vscode.l10n.t('Open Deployment Record'),
        arguments: [e.key],
      };
      lines.push(
        [vscode.l10n.t('Chain'), chainLabel(e.chainId)],
        [vscode.l10n.t('Found in'), e.where],
        [vscode.l10n.t('Source'), e.sourcePath],
      );
      for (const [k, v] of lines) if (v) md.appendMarkdown(`${mdEscape(k)}: ${mdEscape(oneLine(v, 300))}  \n`);
      md.appendMarkdown(`\n${mdEscape(vscode.l10n.t('Select a network on this chain to see its results.'))}`);
      item.tooltip = md;
      return item;
    }
    const s = this.tree.model.state(e);
    const parts = [displayId(e, s)];
    let icon: vscode.ThemeIcon;
    const c = s.contract;
    const r = s.results;
    if (c?.error !== undefined) {
      parts.push(vscode.l10n.t('lookup failed'));
      icon = new vscode.ThemeIcon('warning', new vscode.ThemeColor('problemsWarningIcon.foreground'));
    } else if (c?.value?.id === null) {
      parts.push(vscode.l10n.t('not found on {0}', profile.label));
      icon = new vscode.ThemeIcon('warning', new vscode.ThemeColor('problemsWarningIcon.foreground'));
    } else if (r?.error !== undefined) {
      parts.push(vscode.l10n.t('results failed to load'));
      icon = new vscode.ThemeIcon('warning', new vscode.ThemeColor('problemsWarningIcon.foreground'));
    } else if (r?.value) {
      parts.push(resultsLine(r.value.summary, Date.now(), vscode.env.language));
      const sum = r.value.summary;
      icon = sum.failed
        ? new vscode.ThemeIcon('error', new vscode.ThemeColor('testing.iconFailed'))
        : sum.calls
          ? new vscode.ThemeIcon('pass', new vscode.ThemeColor('testing.iconPassed'))
          : new vscode.ThemeIcon('circle-outline');
    } else {
      parts.push(vscode.l10n.t('loading…'));
      icon = new vscode.ThemeIcon('loading~spin');
    }
    const verification = verificationText(
      s.verification?.error !== undefined ? { kind: 'error', message: '' } : s.verification?.value,
    );
    if (verification) parts.push(verification);
    item.description = oneLine(parts.join(' · '), 400);
    item.iconPath = icon;
    item.contextValue = `deployment${c?.value?.id ? '.found' : ''}${canVerify(s.verification?.value) ? '.verifiable' : ''}`;
    lines.push(
      [vscode.l10n.t('Entity id'), c?.value?.id ?? undefined],
      [vscode.l10n.t('Chain'), chainLabel(e.chainId)],
      [vscode.l10n.t('Found in'), e.where],
      [vscode.l10n.t('Also in'), e.alsoIn.length ? e.alsoIn.join('; ') : undefined],
      [vscode.l10n.t('Source'), e.sourcePath],
      [vscode.l10n.t('Verification'), verification || undefined],
    );
    if (r?.value?.summary.latestFailure) lines.push([vscode.l10n.t('Latest failure'), r.value.summary.latestFailure]);
    for (const [k, v] of lines) if (v) md.appendMarkdown(`${mdEscape(k)}: ${mdEscape(oneLine(v, 300))}  \n`);
    const problem = c?.error ?? r?.error;
    if (problem !== undefined)
      md.appendMarkdown(`\n${mdEscape(oneLine(problem instanceof Error ? problem.message : String(problem), 300))}`);
    item.tooltip = md;
    item.accessibilityInformation = {
      label: oneLine(`${vscode.l10n.t('Deployed contract')} ${item.label}, ${item.description}`, 600),
    };
    return item;
  }

  async getChildren(): Promise<TreeNode[]> {
    if (!this.online) return [];
    const e = this.entry;
    const state = await this.tree.model.load(e);
    const profile = this.tree.profile;
    const retry: vscode.Command = { command: COMMANDS.retry, title: vscode.l10n.t('Retry'), arguments: [e.key] };
    const rows: TreeNode[] = [this.details(state)];
    const c = state.contract;
    const r = state.results;
    if (c?.error !== undefined) rows.push(errorNode(c.error, retry));
    else if (c?.value?.id === null) {
      rows.push(
        new MessageNode(
          vscode.l10n.t('Not found on {0}: its mirror node knows no contract at {1}.', profile.label, e.address),
          {
            icon: new vscode.ThemeIcon('warning', new vscode.ThemeColor('problemsWarningIcon.foreground')),
            contextValue: 'notFound',
            tooltip: vscode.l10n.t(
              'The record says {0} is at {1} on chain {2}; {3} answered 404. Was it deployed to another network, or reset?',
              e.name,
              e.address,
              String(e.chainId ?? ''),
              profile.mirrorUrl,
            ),
          },
        ),
      );
    } else if (r?.error !== undefined) rows.push(errorNode(r.error, retry));
    else if (r?.value) {
      const items = r.value.items;
      if (!items.length) rows.push(emptyNode(vscode.l10n.t('No contract results on {0}.', profile.label)));
      for (const result of items) rows.push(contractResultRow(this.tree.ctx, result, profile.name));
      if (r.value.more && c?.value?.id) {
        rows.push(
          new MessageNode(vscode.l10n.t('More in Contract Results…'), {
            icon: new vscode.ThemeIcon('list-filter'),
            contextValue: 'showMore',
            command: {
              command: OTHER_COMMANDS.showContractResults,
              title: vscode.l10n.t('Show Contract Results'),
              arguments: [c.value.id],
            },
            description: vscode.l10n.t('the latest {0} are shown', items.length),
          }),
        );
      }
    } else rows.push(loadingNode());
    return rows;
  }

  /** Where the contract was found and what is known of it (collapsed). */
  private details(state: EntryState): TreeNode {
    const e = this.entry;
    const v =
      state.verification?.error !== undefined ? { kind: 'error' as const, message: '' } : state.verification?.value;
    // not verified or partial: Verify; a look-up that failed: Retry (asked again; a Verify run's result is followed too)
    const verify = canVerify(v)
      ? { command: COMMANDS.verify, title: vscode.l10n.t('Verify Contract'), arguments: [e.key] }
      : v?.kind === 'error'
        ? { command: COMMANDS.retry, title: vscode.l10n.t('Retry'), arguments: [e.key] }
        : undefined;
    const rows: TreeNode[] = [
      new DetailNode(vscode.l10n.t('Address'), e.address),
      new DetailNode(
        vscode.l10n.t('Entity id'),
        state.contract?.value?.id ??
          (state.contract?.value ? vscode.l10n.t('not found on {0}', this.tree.profile.label) : ''),
      ),
      new DetailNode(vscode.l10n.t('Chain'), chainLabel(e.chainId)),
      new DetailNode(vscode.l10n.t('Found in'), e.where, {
        icon: new vscode.ThemeIcon('go-to-file'),
        command: { command: COMMANDS.openRecord, title: vscode.l10n.t('Open Deployment Record'), arguments: [e.key] },
      }),
      ...e.alsoIn.map((w) => new DetailNode(vscode.l10n.t('Also in'), w)),
      ...(e.sourcePath ? [new DetailNode(vscode.l10n.t('Source'), e.sourcePath)] : []),
      new DetailNode(vscode.l10n.t('Verification'), verificationText(v) || vscode.l10n.t('not looked up'), {
        icon: new vscode.ThemeIcon('verified'),
        command: verify,
        ...(state.verification?.error !== undefined
          ? {
              tooltip:
                state.verification.error instanceof Error
                  ? state.verification.error.message
                  : String(state.verification.error),
            }
          : {}),
      }),
    ];
    return new DetailsNode(vscode.l10n.t('Deployment'), rows, () => this.buildRow(), {
      icon: new vscode.ThemeIcon('rocket'),
      description: e.file,
      id: `${this.id}:details`,
      tooltip: e.where,
    });
  }

  /**
   * Which build was deployed, and why (src/workspace/deployedBuild.ts), asked when the details are opened: the
   * workspace's build info is read then, not for every row listed.
   */
  private async buildRow(): Promise<TreeNode> {
    const b = await this.tree.model.build(this.entry).catch(() => undefined);
    if (!b)
      return new DetailNode(vscode.l10n.t('Build'), vscode.l10n.t("not known (the contract's look-up failed)"), {
        icon: new vscode.ThemeIcon('package'),
      });
    const short =
      b.kind === 'confirmed'
        ? vscode.l10n.t('{0} · the code on chain', b.file ?? '')
        : b.kind === 'unchecked'
          ? vscode.l10n.t('{0} · likely: not compared with the code on chain', b.file ?? '')
          : b.kind === 'mismatch'
            ? vscode.l10n.t('{0} · not the code on chain', b.file ?? '')
            : vscode.l10n.t('none in the workspace');
    const icon =
      b.kind === 'confirmed'
        ? new vscode.ThemeIcon('pass', new vscode.ThemeColor('testing.iconPassed'))
        : b.kind === 'mismatch'
          ? new vscode.ThemeIcon('warning', new vscode.ThemeColor('problemsWarningIcon.foreground'))
          : new vscode.ThemeIcon('package');
    return new DetailNode(vscode.l10n.t('Build'), short, { icon, tooltip: b.sentence });
  }
}

/** The details group: its rows, then one that is known only once asked (the build deployed). */
class DetailsNode implements TreeNode {
  private readonly group: GroupNode;
  constructor(
    label: string,
    private readonly rows: TreeNode[],
    private readonly last: () => Promise<TreeNode>,
    opts: ConstructorParameters<typeof GroupNode>[2],
  ) {
    this.group = new GroupNode(label, rows, opts);
  }

  get id(): string | undefined {
    return this.group.id;
  }

  getTreeItem(): vscode.TreeItem {
    return this.group.getTreeItem();
  }

  async getChildren(): Promise<TreeNode[]> {
    return [...this.rows, await this.last()];
  }
}

export class DeploymentsTree implements LoadedTree<TreeNode> {
  private readonly provider: NodeTreeProvider;
  readonly onDidChangeTreeData: vscode.Event<TreeNode | TreeNode[] | undefined | void>;
  private readonly disposables = new DisposableStore();
  private all: boolean;
  private refreshTimer: ReturnType<typeof setTimeout> | undefined;
  /** How many contracts (of each chain) are listed. */
  private shown = DEPLOYMENTS_PAGE;

  constructor(
    readonly ctx: FeatureContext,
    readonly model: DeploymentsModel,
    readonly treeView: vscode.TreeView<TreeNode>,
  ) {
    this.all = ctx.extension.workspaceState.get<boolean>(ALL_NETWORKS_STATE) === true;
    this.provider = new NodeTreeProvider(() => this.roots());
    this.onDidChangeTreeData = this.provider.onDidChangeTreeData;
    this.disposables.add(
      this.provider,
      model.onDidChange(() => this.scheduleRefresh()),
      ctx.network.onDidChange(() => {
        this.updateDescription();
        this.scheduleRefresh();
      }),
      // the result rows name the functions the workspace's ABIs (and Sourcify's) know
      ctx.abis.onDidChange(() => this.scheduleRefresh()),
    );
    this.updateDescription();
    setContext(ContextKey.deploymentsAllNetworks, this.all);
  }

  get profile(): NetworkProfile {
    return this.ctx.network.profile;
  }

  get allNetworks(): boolean {
    return this.all;
  }

  setAllNetworks(on: boolean): void {
    this.all = on;
    void this.ctx.extension.workspaceState.update(ALL_NETWORKS_STATE, on);
    setContext(ContextKey.deploymentsAllNetworks, on);
    this.updateDescription();
    this.provider.refresh();
  }

  private updateDescription(): void {
    const p = this.profile;
    this.treeView.description = this.all
      ? vscode.l10n.t('all networks')
      : `${p.label} · ${vscode.l10n.t('chain {0}', p.chainId)}`;
  }

  /** Many answers arrive together: one refresh for them. */
  private scheduleRefresh(): void {
    if (this.refreshTimer) return;
    this.refreshTimer = setTimeout(() => {
      this.refreshTimer = undefined;
      this.provider.refresh();
    }, 50);
  }

  /** Shows the view's progress bar while `p` runs. */
  withProgress<R>(p: Promise<R>): Promise<R> {
    void vscode.window.withProgress({ location: { viewId: DEPLOYMENTS_VIEW } }, () =>
      p.then(
        () => undefined,
        () => undefined,
      ),
    );
    return p;
  }

  /**
   * Lists more contracts: the view shows DEPLOYMENTS_PAGE at first, since each row shown asks the mirror node and
   * Sourcify about its contract (a workspace with thousands of records would otherwise send thousands of requests).
   */
  showMore(): void {
    this.shown += DEPLOYMENTS_PAGE;
    this.provider.refresh();
  }

  /** The first `shown` of a list, and a Show More row when there are more. */
  private page(entries: readonly DeploymentEntry[], online: boolean): TreeNode[] {
    const rows: TreeNode[] = entries.slice(0, this.shown).map((e) => this.node(e, online));
    if (entries.length > this.shown) {
      const more = Math.min(DEPLOYMENTS_PAGE, entries.length - this.shown);
      rows.push(
        new MessageNode(
          vscode.l10n.t('Show {0} more ({1} of {2} shown)', String(more), String(this.shown), String(entries.length)),
          {
            icon: new vscode.ThemeIcon('ellipsis'),
            contextValue: 'showMore',
            command: { command: COMMANDS.showMore, title: vscode.l10n.t('Show More') },
            tooltip: vscode.l10n.t(
              'Each contract shown is looked up on the selected network; the rest are listed on demand.',
            ),
          },
        ),
      );
    }
    return rows;
  }

  private node(e: DeploymentEntry, online: boolean): DeploymentNode {
    if (online && !this.model.isLoaded(e)) void this.withProgress(this.model.load(e)); // the row's description shows what it brings
    return new DeploymentNode(e, this, online);
  }

  roots(): TreeNode[] {
    const m = this.model;
    if (!m.ready) {
      void this.withProgress(m.ensureScanned());
      return [loadingNode(vscode.l10n.t('Reading the deployment records…'))];
    }
    if (m.error !== undefined)
      return [errorNode(m.error, { command: COMMANDS.refresh, title: vscode.l10n.t('Retry') })];
    const entries = m.entries;
    if (!entries.length) return []; // the welcome content explains where records come from
    const chainId = this.profile.chainId;
    if (this.all) {
      return groupByChain(entries).map(
        (g) =>
          new GroupNode(chainLabel(g.chainId), this.page(g.entries, g.chainId === chainId), {
            expanded: true,
            icon: new vscode.ThemeIcon(g.chainId === chainId ? 'globe' : 'circle-outline'),
            description: [
              g.entries.length === 1 ? vscode.l10n.t('1 contract') : vscode.l10n.t('{0} contracts', g.entries.length),
              g.chainId === chainId ? this.profile.label : '',
            ]
              .filter(Boolean)
              .join(' · '),
            id: `deployments:chain:${g.chainId ?? '?'}`,
            contextValue: 'deploymentChain',
          }),
      );
    }
    const here = entriesOnChain(entries, chainId);
    if (!here.length) {
      return [
        new MessageNode(vscode.l10n.t('No deployment record for {0} (chain {1}).', this.profile.label, chainId), {
          icon: new vscode.ThemeIcon('info'),
          contextValue: 'empty',
          description: vscode.l10n.t('{0} on other chains: show all networks', entries.length),
          command: { command: COMMANDS.showAllNetworks, title: vscode.l10n.t('Show All Networks') },
        }),
      ];
    }
    return this.page(here, true);
  }

  getTreeItem(node: TreeNode): vscode.TreeItem {
    return node.getTreeItem();
  }

  getChildren(node?: TreeNode): Promise<TreeNode[]> {
    return this.provider.getChildren(node);
  }

  /** Reads the records again and asks the servers afresh (the title bar's Refresh). */
  refresh(): Promise<void> {
    return this.withProgress(this.model.refresh());
  }

  /** A node given to a command, as an entry (a row of this view), or undefined. */
  static entryOf(n: unknown): DeploymentEntry | undefined {
    return n instanceof DeploymentNode ? n.entry : undefined;
  }

  /** The rows as the tests read them: root rows, or the children of the row at `path` (labels from the root). */
  async snapshot(path: string[] = []): Promise<DeploymentRow[]> {
    let nodes = await this.getChildren();
    for (const label of path) {
      const n = nodes.find((x) => rowOf(x).label === label);
      if (!n) throw new Error(`no row "${label}" among ${nodes.map((x) => rowOf(x).label).join(' | ')}`);
      nodes = await this.getChildren(n);
    }
    return nodes.map(rowOf);
  }

  dispose(): void {
    if (this.refreshTimer) clearTimeout(this.refreshTimer);
    this.disposables.dispose();
  }
}

function rowOf(n: TreeNode): DeploymentRow {
  const it = n.getTreeItem();
  const tooltip = typeof it.tooltip === 'string' ? it.tooltip : it.tooltip?.value;
  return {
    label: typeof it.label === 'string' ? it.label : (it.label?.label ?? ''),
    description: typeof it.description === 'string' ? it.description : undefined,
    contextValue: it.contextValue,
    icon: it.iconPath instanceof vscode.ThemeIcon ? it.iconPath.id : undefined,
    tooltip,
    command: it.command
      ? [
          it.command.command,
          ...(it.command.arguments ?? []).slice(0, 1).map((a) => (typeof a === 'string' ? a : typeof a)),
        ].join(' ')
      : undefined,
    collapsible: it.collapsibleState !== undefined && it.collapsibleState !== vscode.TreeItemCollapsibleState.None,
  };
}
