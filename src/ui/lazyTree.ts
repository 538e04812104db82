/**
 * A tree view whose code is loaded when VS Code first asks it for rows, not at activation. The eager part of a
 * feature creates it (the view exists, its title, welcome content and commands work at once); the heavy part
 * (the provider and everything it needs) is created by `create` on the first `getChildren` or when a command
 * asks for it through `implementation()`. `create` typically `require`s the feature's lazily loaded module, which
 * the build declares as a lazy entry (LAZY_ENTRIES in esbuild.js).
 */
import * as vscode from 'vscode';
import { DisposableStore } from '../core/disposables';

/** What the loaded part of a view provides: its rows, and disposal. */
export interface LoadedTree<T> extends vscode.TreeDataProvider<T>, vscode.Disposable {}

export class LazyTreeView<T, I extends LoadedTree<T>> implements vscode.TreeDataProvider<T>, vscode.Disposable {
  private loaded: I | undefined;
  private failure: unknown;
  private readonly changed = new vscode.EventEmitter<T | T[] | null | undefined | void>();
  readonly onDidChangeTreeData = this.changed.event;
  readonly treeView: vscode.TreeView<T>;
  private readonly subscriptions = new DisposableStore();

  constructor(
    viewId: string,
    private readonly create: (treeView: vscode.TreeView<T>) => I,
    options: { showCollapseAll?: boolean } = {},
  ) {
    this.treeView = vscode.window.createTreeView(viewId, {
      treeDataProvider: this,
      showCollapseAll: options.showCollapseAll ?? true,
    });
  }

  /** The loaded part, created now if it was not (loads its code). Throws when the code cannot be loaded. */
  implementation(): I {
    if (!this.loaded) {
      if (this.failure) throw this.failure;
      try {
        this.loaded = this.create(this.treeView);
      } catch (e) {
        this.failure = e;
        throw e;
      }
      const onChange = this.loaded.onDidChangeTreeData;
      if (onChange) this.subscriptions.add(onChange((e) => this.changed.fire(e)));
    }
    return this.loaded;
  }

  /** The loaded part if it has been created, without creating it. */
  get ifLoaded(): I | undefined {
    return this.loaded;
  }

  getTreeItem(element: T): vscode.TreeItem | Thenable<vscode.TreeItem> {
    return this.implementation().getTreeItem(element);
  }

  getChildren(element?: T): vscode.ProviderResult<T[]> {
    return this.implementation().getChildren(element);
  }

  getParent(element: T): vscode.ProviderResult<T> {
    return this.implementation().getParent?.(element);
  }

  resolveTreeItem(
    item: vscode.TreeItem,
    element: T,
    token: vscode.CancellationToken,
  ): vscode.ProviderResult<vscode.TreeItem> {
    const impl = this.implementation();
    return impl.resolveTreeItem ? impl.resolveTreeItem(item, element, token) : item;
  }

  dispose(): void {
    this.subscriptions.dispose();
    this.loaded?.dispose();
    this.changed.dispose();
    this.treeView.dispose();
  }
}
