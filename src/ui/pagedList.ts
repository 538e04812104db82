/**
 * The tree adapter of the one paging model (`api/pager.ts`: first page, "load more" following `next`, a reload
 * that cancels the request in flight, retry, loop detection): it turns the pager's state into tree rows (data,
 * loading, error with Retry, load more, empty, a warning row when paging stopped early) and its changes into a
 * VS Code event. Everything else (what to fetch, when, retry) is the pager's. The list endpoints the trees read
 * never answer 206, so the pager's `partial` has no row here (the NFT history panel shows it).
 */
import * as vscode from 'vscode';
import { emptyPageSentence, Pager, type PagerOptions, type PagerSource, stopSentence } from '../api/pager';
import { emptyNode, errorNode, loadingNode, loadMoreNode, MessageNode, type TreeNode } from './nodes';

export interface PagedRowsTexts {
  /** The row shown when nothing matches. */
  empty: string;
  /** The command behind the error row (its click and inline action). */
  retry: vscode.Command;
  /** The command behind the "Load more" row. */
  more: vscode.Command;
}

export class PagedList<T> implements vscode.Disposable {
  /** The paging model: items, status, error, and the operations (reload, loadMore, retry, prepend). */
  readonly pager: Pager<T>;
  private readonly changed = new vscode.EventEmitter<void>();
  /** Fires when the pager's rows or state changed. */
  readonly onDidChange = this.changed.event;

  constructor(source: PagerSource<T>, options: PagerOptions<T> = {}) {
    this.pager = new Pager<T>(source, () => this.changed.fire(), options);
  }

  /**
   * The rows: data rows, then a loading, error, "paging stopped", "load more" (below a note when the last page
   * was empty) or empty row as the state says.
   */
  rows(toNode: (t: T, index: number) => TreeNode, texts: PagedRowsTexts): TreeNode[] {
    const m = this.pager;
    const warning = () => new vscode.ThemeIcon('warning', new vscode.ThemeColor('problemsWarningIcon.foreground'));
    const empty = () => emptyNode(m.notice ? `${texts.empty} ${m.notice}` : texts.empty);
    const rows: TreeNode[] = [];
    m.items.forEach((t, i) => rows.push(toNode(t, i)));
    if (m.loading) rows.push(loadingNode());
    else if (m.error !== undefined) rows.push(errorNode(m.error, texts.retry));
    else if (m.stopped) {
      if (m.items.length === 0) rows.push(empty());
      const text = stopSentence(m.stopped);
      rows.push(new MessageNode(text, { icon: warning(), tooltip: text, contextValue: 'pagingStopped' }));
    } else if (m.hasMore) {
      if (m.emptyPage)
        rows.push(
          new MessageNode(emptyPageSentence(), {
            icon: new vscode.ThemeIcon('info'),
            contextValue: 'emptyPage',
          }),
        );
      rows.push(loadMoreNode(texts.more, m.items.length));
    } else if (m.started && m.items.length === 0) rows.push(empty());
    return rows;
  }

  dispose(): void {
    this.pager.dispose();
    this.changed.dispose();
  }
}
