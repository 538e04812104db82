/**
 * The loaded part of every list view over the mirror node (Schedules, Contract Results), created with the view's
 * first rows (src/ui/listRegistration.ts registers the view and the commands every list has): a tree on the one paging
 * model (PagedList over api/pager.ts), filters kept per workspace and shown in the view's description, edited in
 * one way (ui/filterPicker.ts) and set in one way (`setFilters`), progress in the view, reload on a network change,
 * refresh / retry / load more / clear filters. A view adds its query, its row kind and its filter fields.
 */
import * as vscode from 'vscode';
import { ListCommand, ListFilteredKey, type ListViewId } from '../api/commands';
import { commandOf } from '../core/commands';
import { setContext } from '../core/contextKeys';
import type { MirrorClient, Page } from '../api/mirror';
import type { NetworkProfile } from '../api/networks';
import { isUnreachable } from '../api/reach';
import { DisposableStore } from '../core/disposables';
import { editFilters, type FilterField } from './filterPicker';
import type { LoadedTree } from './lazyTree';
import { NodeTreeProvider, type TreeNode } from './nodes';
import { PagedList } from './pagedList';

/** The selected network as a list needs it: its profile, its mirror client, its changes. */
export interface ListNetwork {
  readonly profile: NetworkProfile;
  readonly clients: { readonly mirror: MirrorClient };
  readonly onDidChange: vscode.Event<unknown>;
  /** The failure that showed the mirror node cannot be reached, while that lasts (the view shows the welcome then). */
  readonly unreachable: unknown;
  readonly onDidChangeReachability: vscode.Event<void>;
  readonly onDidRequestRetry: vscode.Event<void>;
  reportFailure(error: unknown): boolean;
  reportReachable(): void;
}

export interface ListViewOptions<F> {
  /** The view's id, also the prefix of its commands (`<id>.retry`, `<id>.loadMore`) and context keys (`<id>.filtered`). */
  viewId: ListViewId;
  /** The filters when none is set. */
  defaults: () => F;
  /** The title of the filter picker. */
  filterTitle: string;
}

/**
 * A list of items of type T with filters F, set from input I (what a user types or a command passes: one key
 * per filter field, '' clears a field).
 */
export abstract class ListView<T, F extends object, I extends object> implements LoadedTree<TreeNode> {
  protected filters: F;
  protected readonly list: PagedList<T>;
  protected readonly provider: NodeTreeProvider;
  readonly onDidChangeTreeData: vscode.Event<TreeNode | TreeNode[] | undefined | void>;
  protected readonly disposables = new DisposableStore();
  private readonly stateKey: string;

  constructor(
    protected readonly extension: vscode.ExtensionContext,
    protected readonly network: ListNetwork,
    readonly treeView: vscode.TreeView<TreeNode>,
    protected readonly options: ListViewOptions<F>,
  ) {
    this.stateKey = `${options.viewId}.filters`;
    this.filters = { ...options.defaults(), ...extension.workspaceState.get<F>(this.stateKey) };
    this.list = new PagedList<T>({
      first: (signal) => this.fetchFirst(signal),
      next: (page, signal) => this.network.clients.mirror.next(page, { signal }),
    });
    this.provider = new NodeTreeProvider(() => this.rows());
    this.onDidChangeTreeData = this.provider.onDidChangeTreeData;
    this.disposables.add(
      this.list,
      this.provider,
      this.list.onDidChange(() => {
        this.reportReachability();
        this.provider.refresh();
      }),
      network.onDidChangeReachability(() => {
        // another view reached the network again: this one tries again; else its rows become the welcome
        if (this.network.unreachable === undefined && this.failedEmpty()) void this.retryOrReset();
        else this.provider.refresh();
      }),
      network.onDidRequestRetry(() => {
        if (this.failedEmpty()) void this.retryOrReset();
      }),
      network.onDidChange(() => {
        this.networkChanged();
        this.list.pager.reset(); // loads again as soon as the view is shown (now, if it is visible)
        this.updateDescription();
      }),
    );
    this.updateDescription();
  }

  /** The first page for the current filters (the row load: the place to start what the rows need). */
  protected abstract fetchFirst(signal: AbortSignal): Promise<Page<T>>;
  /** The tree row of one item. */
  protected abstract node(item: T, network: string): TreeNode;
  /** The row shown when nothing matches. */
  protected abstract emptyText(): string;
  /** The active filters as text ("account.id=gte:0.0.5 · desc"); '' when they are the defaults. */
  abstract describeFilters(): string;
  /** The filters after `input` (validated); throws ApiError(invalidInput) with its sentence, changing nothing. */
  protected abstract parseFilters(input: Partial<I>, current: F): F;
  /** The fields of the filter picker. */
  protected abstract filterFields(): FilterField[];

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

  getTreeItem(node: TreeNode): vscode.TreeItem {
    return node.getTreeItem();
  }

  getChildren(node?: TreeNode): Promise<TreeNode[]> {
    return this.provider.getChildren(node);
  }

  /** Whether the last load failed with nothing shown. */
  private failedEmpty(): boolean {
    const m = this.list.pager;
    return !m.loading && m.error !== undefined && m.items.length === 0;
  }

  /** Tells the network whether its mirror node answered (the unreachable state and its welcome are the network's). */
  private reportReachability(): void {
    const m = this.list.pager;
    if (m.loading || !m.started) return;
    if (m.error === undefined) this.network.reportReachable();
    else if (m.items.length === 0) this.network.reportFailure(m.error);
  }

  /** Loads again now when the view is shown, else when it is next shown. */
  private retryOrReset(): Promise<void> {
    if (this.treeView.visible) return this.retry();
    this.list.pager.reset();
    this.provider.refresh();
    return Promise.resolve();
  }

  /** The root rows; the first call loads the first page (the view is being shown). */
  rows(): TreeNode[] {
    const pager = this.list.pager;
    if (!pager.started) void this.withProgress(pager.ensureLoaded());
    // the network cannot be reached: no rows, so that the view shows that state's welcome (Select Network, Retry…)
    if (
      this.failedEmpty() &&
      this.network.unreachable !== undefined &&
      isUnreachable(pager.error, this.network.profile.mirrorUrl)
    )
      return [];
    const network = this.network.profile.name;
    const rows = this.list.rows((t) => this.node(t, network), {
      empty: this.emptyText(),
      retry: commandOf(ListCommand[this.options.viewId].retry, vscode.l10n.t('Retry')),
      more: commandOf(ListCommand[this.options.viewId].loadMore, vscode.l10n.t('Load more')),
    });
    return [...this.extraRoots(), ...rows];
  }

  /** Shows the view's progress bar while `p` runs. */
  protected withProgress<R>(p: Promise<R>): Promise<R> {
    void vscode.window.withProgress({ location: { viewId: this.options.viewId } }, () => p);
    return p;
  }

  protected updateDescription(): void {
    this.treeView.description = [this.network.profile.label, this.describeFilters(), ...this.extraDescription()]
      .filter(Boolean)
      .join(' · ');
    setContext(ListFilteredKey[this.options.viewId], this.isFiltered());
  }

  /** Whether any filter differs from the defaults. */
  isFiltered(): boolean {
    return this.describeFilters() !== '';
  }

  /** Keeps the filters, shows them, and reloads when the view is visible (else when it is next shown). */
  protected filtersChanged(): void {
    void this.extension.workspaceState.update(this.stateKey, this.filters);
    this.updateDescription();
    this.list.pager.reset();
    if (this.treeView.visible) void this.withProgress(this.list.pager.reload());
  }

  /** Sets filters from input (commands and tests), validated: a bad value throws its sentence and nothing changes. */
  setFilters(input: Partial<I>): void {
    this.filters = this.parseFilters(input, this.filters);
    this.filtersChanged();
  }

  /** The filter picker (the view's title bar). */
  editFilters(): Promise<void> {
    return editFilters(this.options.filterTitle, this.filterFields(), {
      apply: (patch) => {
        this.filters = this.parseFilters(patch as Partial<I>, this.filters);
      },
      clearAll: () => {
        this.filters = this.options.defaults();
      },
      changed: () => this.filtersChanged(),
    });
  }

  clearFilters(): void {
    this.filters = this.options.defaults();
    this.filtersChanged();
  }

  refresh(): Promise<void> {
    return this.withProgress(this.list.pager.reload());
  }

  retry(): Promise<void> {
    return this.withProgress(this.list.pager.retry());
  }

  loadMore(): Promise<void> {
    return this.withProgress(this.list.pager.loadMore());
  }

  /** The items loaded so far. */
  get loaded(): T[] {
    return this.list.pager.items;
  }

  get loading(): boolean {
    return this.list.pager.loading;
  }

  /** Whether the first page was asked for since the last reset. */
  get started(): boolean {
    return this.list.pager.started;
  }

  dispose(): void {
    this.disposables.dispose();
  }
}
