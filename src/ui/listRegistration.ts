/**
 * Every list view over the mirror node (Schedules, Contract Results), the eager part: registers the tree view
 * (a LazyTreeView: the view's code is loaded with its first rows) and, once for every list, the commands every
 * list has: `<id>.refresh`, `<id>.retry`, `<id>.loadMore`, `<id>.filter`, `<id>.clearFilters`. They work before the
 * view was ever shown (they load it). The loaded part is a ListView (./listView.ts); a feature adds only its
 * query, its row kind, its filter fields and its own commands.
 */
import type * as vscode from 'vscode';
import { ListCommand, type ListViewId } from '../api/commands';
import { registerCommand } from '../core/commands';
import { LazyTreeView, type LoadedTree } from './lazyTree';
import type { ListView } from './listView';
import type { TreeNode } from './nodes';

/** What the loaded part does for the commands every list has. */
export type ListCommands = Pick<
  ListView<unknown, object, object>,
  'refresh' | 'retry' | 'loadMore' | 'editFilters' | 'clearFilters'
>;

export interface ListViewHandle<V> {
  readonly treeView: vscode.TreeView<TreeNode>;
  /** The loaded part, created now (its code loaded) if it was not. */
  view(): V;
}

/**
 * Registers the list view `viewId` and its common commands. `load` creates the loaded part on the first rows or
 * the first command that needs it (typically by `require`-ing the feature's view module, a lazy entry of the build).
 */
export function registerListView<V extends ListCommands & LoadedTree<TreeNode>>(
  context: vscode.ExtensionContext,
  viewId: ListViewId,
  load: (treeView: vscode.TreeView<TreeNode>) => V,
): ListViewHandle<V> {
  const lazy = new LazyTreeView<TreeNode, V>(viewId, load);
  const view = () => lazy.implementation();
  const ids = ListCommand[viewId];
  const subs = context.subscriptions;
  subs.push(lazy);
  registerCommand(subs, ids.refresh, () => view().refresh());
  registerCommand(subs, ids.retry, () => view().retry());
  registerCommand(subs, ids.loadMore, () => view().loadMore());
  registerCommand(subs, ids.filter, () => view().editFilters());
  registerCommand(subs, ids.clearFilters, () => view().clearFilters());
  return { treeView: lazy.treeView, view };
}

/** A root row as the tests see it. */
export interface RowSnapshot {
  label: string;
  description?: string;
  contextValue?: string;
}

export interface ListSnapshot {
  description: string | undefined;
  rows: RowSnapshot[];
}

/** What the integration tests read and drive in every list view (the test seam; test mode only). */
export interface ListSeam<T> {
  /** What the view shows: its description and the root rows' labels, descriptions and kinds (loads the first page). */
  snapshot(): ListSnapshot;
  readonly loaded: T[];
  readonly loading: boolean;
  /** Whether the first page was asked for since the last reset (a hidden view asks nothing: stays false). */
  readonly started: boolean;
  /** Whether VS Code shows the view. */
  readonly visible: boolean;
  refresh(): Promise<void>;
  retry(): Promise<void>;
  loadMore(): Promise<void>;
  clearFilters(): void;
  describeFilters(): string;
}

/**
 * The seam of a list view with the view's own methods (`extras`, getters kept as getters); the view's code is
 * loaded by the first use.
 */
export function listSeam<T, X extends object>(
  handle: ListViewHandle<ListView<T, object, object>>,
  extras: X,
): ListSeam<T> & X {
  const v = () => handle.view();
  const seam: ListSeam<T> = {
    snapshot: () => {
      const rows = v()
        .rows()
        .map((n) => {
          const it = n.getTreeItem();
          return {
            label: typeof it.label === 'string' ? it.label : (it.label?.label ?? ''),
            description: typeof it.description === 'string' ? it.description : undefined,
            contextValue: it.contextValue,
          };
        });
      return { description: handle.treeView.description, rows };
    },
    get loaded() {
      return v().loaded;
    },
    get loading() {
      return v().loading;
    },
    get started() {
      return v().started;
    },
    get visible() {
      return handle.treeView.visible;
    },
    refresh: () => v().refresh(),
    retry: () => v().retry(),
    loadMore: () => v().loadMore(),
    clearFilters: () => v().clearFilters(),
    describeFilters: () => v().describeFilters(),
  };
  return Object.defineProperties(seam, Object.getOwnPropertyDescriptors(extras)) as ListSeam<T> & X;
}
