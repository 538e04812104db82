/**
 * The paged list behind every tree list view (schedules, contract results): a thin adapter from the shared
 * paging model (`api/pager.ts`: first page, "load more" following `next`, a reload that cancels what is in
 * flight, retry, loop detection) to tree rows: data, loading, error with Retry, load more, empty, and a warning
 * row when paging stopped early (a next link back to a loaded page, repeated rows, a refused next link).
 */
import vscode = require('vscode');
import { emptyPageSentence, Pager, PagerOptions, PagerSource, PagerStop, stopSentence } from '../api/pager';
import { emptyNode, errorNode, loadingNode, loadMoreNode, MessageNode, TreeNode } from './nodes';

export type PagedSource<T> = PagerSource<T>;

export class PagedList<T> implements vscode.Disposable {
  private readonly model: Pager<T>;
  private readonly changed = new vscode.EventEmitter<void>();
  readonly onDidChange = this.changed.event;

  constructor(source: PagedSource<T>, options: PagerOptions<T> = {}) {
    this.model = new Pager<T>(source, () => this.changed.fire(), options);
  }

  get items(): T[] {
    return this.model.items;
  }

  get hasMore(): boolean {
    return this.model.hasMore;
  }

  get isLoading(): boolean {
    return this.model.loading;
  }

  get isStarted(): boolean {
    return this.model.started;
  }

  get lastError(): unknown {
    return this.model.error;
  }

  get partial(): boolean {
    return this.model.partial;
  }

  get notice(): string | undefined {
    return this.model.notice;
  }

  /** Why paging stopped before the server's last page, if it did. */
  get stopped(): PagerStop | undefined {
    return this.model.stopped;
  }

  /** Forgets the rows; the next `ensureLoaded` fetches again. */
  reset(): void {
    this.model.reset();
  }

  cancel(): void {
    this.model.cancel();
  }

  /** Loads the first page once (when the view first shows). */
  ensureLoaded(): Promise<void> {
    return this.model.ensureLoaded();
  }

  reload(): Promise<void> {
    return this.model.reload();
  }

  /** Follows `next`; a failure keeps what was loaded and shows the error below it. */
  loadMore(): Promise<void> {
    return this.model.loadMore();
  }

  /** Retry after an error: the failed "load more" if a page came back, else the first page. */
  retry(): Promise<void> {
    return this.model.retry();
  }

  /** Adds rows at the top (newer items found by a follow poll), skipping ones already shown. */
  prepend(items: T[]): void {
    this.model.prepend(items);
  }

  /**
   * The rows: data rows, then a loading, error, "paging stopped", "load more" (below a note when the last page
   * was empty) or empty row as the state says. `retry` and `more` are the commands behind the error and
   * load-more rows.
   */
  rows(toNode: (t: T, index: number) => TreeNode, texts: { empty: string; retry: vscode.Command; more: vscode.Command; partial?: string }): TreeNode[] {
    const m = this.model;
    const rows: TreeNode[] = [];
    if (m.partial && texts.partial) rows.push(new MessageNode(texts.partial, { icon: new vscode.ThemeIcon('warning', new vscode.ThemeColor('problemsWarningIcon.foreground')), contextValue: 'partial' }));
    m.items.forEach((t, i) => rows.push(toNode(t, i)));
    if (m.loading) rows.push(loadingNode());
    else if (m.error !== undefined) rows.push(errorNode(m.error, texts.retry));
    else if (m.stopped) {
      if (m.items.length === 0) rows.push(emptyNode(this.notice ? `${texts.empty} ${this.notice}` : texts.empty));
      const text = stopSentence(m.stopped, vscode.l10n);
      rows.push(new MessageNode(text, {
        icon: new vscode.ThemeIcon('warning', new vscode.ThemeColor('problemsWarningIcon.foreground')),
        tooltip: text,
        contextValue: 'pagingStopped',
      }));
    } else if (m.hasMore) {
      if (m.emptyPage) rows.push(new MessageNode(emptyPageSentence(vscode.l10n), { icon: new vscode.ThemeIcon('info'), contextValue: 'emptyPage' }));
      rows.push(loadMoreNode(texts.more, m.items.length));
    } else if (m.started && m.items.length === 0) rows.push(emptyNode(this.notice ? `${texts.empty} ${this.notice}` : texts.empty));
    return rows;
  }

  dispose(): void {
    this.model.dispose();
    this.changed.dispose();
  }
}
