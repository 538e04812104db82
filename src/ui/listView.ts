/**
 * The common part of every list view over the mirror node (Schedules, Contract Results): a tree view on a
 * PagedList, filters kept per workspace and shown in the view's description, progress in the view, reload on a
 * network change, nothing loaded until the view is shown, refresh / retry / load more, and a snapshot of the
 * rows for tests. A view adds its query, its row kind and its filter editing.
 */
import vscode = require('vscode');
import type { Page } from '../api/mirror';
import type { ExtensionLog } from '../core/log';
import type { SelectedNetwork } from '../core/selectedNetwork';
import { NodeTreeProvider, TreeNode } from './nodes';
import { PagedList } from './pagedList';

export interface ListViewOptions<F> {
  /** The view's id, also the prefix of its commands (`<id>.retry`, `<id>.loadMore`) and context keys (`<id>.filtered`). */
  viewId: string;
  defaults: () => F;
}

export interface RowSnapshot {
  label: string;
  description?: string;
  contextValue?: string;
}

export abstract class ListView<T, F extends object> implements vscode.Disposable {
  protected filters: F;
  protected readonly list: PagedList<T>;
  protected readonly provider: NodeTreeProvider;
  readonly treeView: vscode.TreeView<TreeNode>;
  protected readonly disposables: vscode.Disposable[] = [];
  private readonly stateKey: string;

  constructor(
    protected readonly context: vscode.ExtensionContext,
    protected readonly network: SelectedNetwork,
    protected readonly log: ExtensionLog,
    protected readonly options: ListViewOptions<F>,
  ) {
    this.stateKey = `${options.viewId}.filters`;
    this.filters = { ...options.defaults(), ...context.workspaceState.get<F>(this.stateKey) };
    this.list = new PagedList<T>({
      first: (signal) => this.fetchFirst(signal),
      next: (page, signal) => this.network.clients.mirror.next(page, { signal }),
    });
    this.provider = new NodeTreeProvider(() => this.roots());
    this.treeView = vscode.window.createTreeView(options.viewId, { treeDataProvider: this.provider, showCollapseAll: true });
    this.disposables.push(
      this.list,
      this.provider,
      this.treeView,
      this.list.onDidChange(() => this.provider.refresh()),
      network.onDidChange(() => {
        this.networkChanged();
        this.list.reset(); // loads again as soon as the view is shown (now, if it is visible)
        this.updateDescription();
      }),
    );
  }

  /** The first page for the current filters. */
  protected abstract fetchFirst(signal: AbortSignal): Promise<Page<T>>;
  /** The tree row of one item. */
  protected abstract node(item: T, network: string): TreeNode;
  /** The row shown when nothing matches. */
  protected abstract emptyText(): string;
  /** Whether any filter differs from the defaults. */
  abstract isFiltered(): boolean;
  /** The active filters as text ("account.id=gte:0.0.5 · desc"). */
  abstract describeFilters(): string;

  /** Rows shown above the list (a pinned item). */
  protected extraRoots(): TreeNode[] {
    return [];
  }

  /** Words added to the description after the filters ("following"). */
  protected extraDescription(): string[] {
    return [];
  }

  /** Called before the list resets for a new network. */
  protected networkChanged(): void {}

  protected roots(): TreeNode[] {
    if (!this.list.isStarted) void this.withProgress(this.list.ensureLoaded());
    const network = this.network.profile.name;
    const rows = this.list.rows((t) => this.node(t, network), {
      empty: this.emptyText(),
      retry: { command: `${this.options.viewId}.retry`, title: vscode.l10n.t('Retry') },
      more: { command: `${this.options.viewId}.loadMore`, title: vscode.l10n.t('Load more') },
    });
    return [...this.extraRoots(), ...rows];
  }

  /** Shows the view's progress bar while `p` runs. */
  protected withProgress<R>(p: Promise<R>): Promise<R> {
    void vscode.window.withProgress({ location: { viewId: this.options.viewId } }, () => p);
    return p;
  }

  protected updateDescription(): void {
    this.treeView.description = [this.network.profile.label, this.describeFilters(), ...this.extraDescription()].filter(Boolean).join(' · ');
    void vscode.commands.executeCommand('setContext', `${this.options.viewId}.filtered`, this.isFiltered());
  }

  /** Keeps the filters, shows them, and reloads when the view is visible (else when it is next shown). */
  protected filtersChanged(): void {
    void this.context.workspaceState.update(this.stateKey, this.filters);
    this.updateDescription();
    this.list.reset();
    if (this.treeView.visible) void this.withProgress(this.list.reload());
  }

  clearFilters(): void {
    this.filters = this.options.defaults();
    this.filtersChanged();
  }

  refresh(): Promise<void> {
    return this.withProgress(this.list.reload());
  }

  retry(): Promise<void> {
    return this.withProgress(this.list.retry());
  }

  loadMore(): Promise<void> {
    return this.withProgress(this.list.loadMore());
  }

  get loaded(): T[] {
    return this.list.items;
  }

  get loading(): boolean {
    return this.list.isLoading;
  }

  /** What the view shows, for tests: the root rows' labels, descriptions and kinds. */
  snapshot(): { description: string | undefined; rows: RowSnapshot[] } {
    const rows = this.roots().map((n) => {
      const it = n.getTreeItem();
      return { label: typeof it.label === 'string' ? it.label : it.label?.label ?? '', description: typeof it.description === 'string' ? it.description : undefined, contextValue: it.contextValue };
    });
    return { description: this.treeView.description, rows };
  }

  dispose(): void {
    for (const d of this.disposables) d.dispose();
  }
}
