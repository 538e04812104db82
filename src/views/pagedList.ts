/**
 * The paged-list model behind every list view: the first page, "load more" following `next`, a reload that
 * cancels what is in flight, and its rows (data, loading, empty, error with Retry, load more). One mechanism for
 * schedules, contract results and anything later.
 */
import vscode = require('vscode');
import type { Page } from '../api/mirror';
import { emptyNode, errorNode, loadingNode, loadMoreNode, MessageNode, TreeNode } from './nodes';

export interface PagedSource<T> {
  first(signal: AbortSignal): Promise<Page<T>>;
  next(page: Page<T>, signal: AbortSignal): Promise<Page<T> | null>;
}

export class PagedList<T> implements vscode.Disposable {
  items: T[] = [];
  private lastPage: Page<T> | undefined;
  private error: unknown;
  private loading = false;
  private started = false;
  private generation = 0;
  private abort: AbortController | undefined;
  private readonly changed = new vscode.EventEmitter<void>();
  readonly onDidChange = this.changed.event;

  constructor(private readonly source: PagedSource<T>) {}

  get hasMore(): boolean {
    return !!this.lastPage?.next;
  }

  get isLoading(): boolean {
    return this.loading;
  }

  get isStarted(): boolean {
    return this.started;
  }

  get lastError(): unknown {
    return this.error;
  }

  get partial(): boolean {
    return !!this.lastPage?.partial;
  }

  get notice(): string | undefined {
    return this.lastPage?.notice;
  }

  /** Forgets the rows; the next `ensureLoaded` fetches again. */
  reset(): void {
    this.cancel();
    this.items = [];
    this.lastPage = undefined;
    this.error = undefined;
    this.started = false;
    this.changed.fire();
  }

  cancel(): void {
    this.generation++;
    this.abort?.abort();
    this.abort = undefined;
    this.loading = false;
  }

  /** Loads the first page once (when the view first shows). */
  ensureLoaded(): Promise<void> {
    return this.started ? Promise.resolve() : this.reload();
  }

  async reload(): Promise<void> {
    this.cancel();
    this.started = true;
    this.items = [];
    this.lastPage = undefined;
    this.error = undefined;
    await this.run((signal) => this.source.first(signal), true);
  }

  /** Follows `next`; a failure keeps what was loaded and shows the error below it. */
  async loadMore(): Promise<void> {
    if (this.loading || !this.lastPage?.next) return;
    const page = this.lastPage;
    this.error = undefined;
    await this.run((signal) => this.source.next(page, signal), false);
  }

  /** Retry after an error: the failed "load more" if rows are loaded, else the first page. */
  retry(): Promise<void> {
    return this.items.length && this.lastPage?.next ? this.loadMore() : this.reload();
  }

  /** Adds rows at the top (newer items found by a follow poll), skipping ones already shown. */
  prepend(items: T[], key: (t: T) => string): void {
    const seen = new Set(this.items.map(key));
    const fresh = items.filter((i) => !seen.has(key(i)));
    if (fresh.length) {
      this.items = [...fresh, ...this.items];
      this.changed.fire();
    }
  }

  private async run(fetch: (signal: AbortSignal) => Promise<Page<T> | null>, first: boolean): Promise<void> {
    const gen = ++this.generation;
    const abort = new AbortController();
    this.abort = abort;
    this.loading = true;
    this.changed.fire();
    try {
      const page = await fetch(abort.signal);
      if (gen !== this.generation) return;
      if (page) {
        this.items = first ? page.items : [...this.items, ...page.items];
        this.lastPage = page;
      } else if (this.lastPage) {
        this.lastPage = { ...this.lastPage, next: null };
      }
    } catch (e) {
      if (gen !== this.generation) return;
      this.error = e;
    } finally {
      if (gen === this.generation) {
        this.loading = false;
        this.abort = undefined;
        this.changed.fire();
      }
    }
  }

  /**
   * The rows: data rows, then a loading, error, "load more" or empty row as the state says.
   * `retry` and `more` are the commands behind the error and load-more rows.
   */
  rows(toNode: (t: T, index: number) => TreeNode, texts: { empty: string; retry: vscode.Command; more: vscode.Command; partial?: string }): TreeNode[] {
    const rows: TreeNode[] = [];
    if (this.partial && texts.partial) rows.push(new MessageNode(texts.partial, { icon: new vscode.ThemeIcon('warning', new vscode.ThemeColor('problemsWarningIcon.foreground')), contextValue: 'partial' }));
    this.items.forEach((t, i) => rows.push(toNode(t, i)));
    if (this.loading) rows.push(loadingNode());
    else if (this.error !== undefined) rows.push(errorNode(this.error, texts.retry));
    else if (this.lastPage?.next) rows.push(loadMoreNode(texts.more, this.items.length));
    else if (this.started && this.items.length === 0) rows.push(emptyNode(this.notice ? `${texts.empty} ${this.notice}` : texts.empty));
    return rows;
  }

  dispose(): void {
    this.cancel();
    this.changed.dispose();
  }
}
