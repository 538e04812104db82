/**
 * The loaded history of one NFT: pages fetched one at a time from the mirror node (following `links.next`),
 * with the loading / error / partial state the panel shows. Memory is bounded: loading stops at `maxEntries`.
 * A new query, a refresh or a network change starts over; answers to an older request are dropped.
 * The page after the last one shown is fetched ahead (one page, no more), so that "Load more" and scrolling
 * to the end show it without waiting; a failure of that fetch is only reported when the page is asked for.
 * The paging itself is the shared model (`api/pager.ts`): a next link back to a page already loaded, or a page
 * of rows already shown, stops paging with a reason instead of appending duplicates up to the cap.
 * Plain TypeScript (the mirror client comes from a function so that a network change is picked up).
 */
import type { ApiError } from '../../api/errors';
import type { MirrorClient } from '../../api/mirror';
import { Pager, PagerStop } from '../../api/pager';
import type { NftTransaction } from '../../api/mirrorTypes';
import type { Filter } from '../../api/validation';
import type { NftQuery, Status } from './protocol';

export interface HistoryChange {
  /** Rows changed from this index on (0: everything replaced). Undefined: only the state changed. */
  from?: number;
}

export function queryFilters(q: NftQuery): Filter[] {
  const out: Filter[] = [];
  if (q.from) out.push({ op: q.from.op, value: q.from.value });
  if (q.to) out.push({ op: q.to.op, value: q.to.value });
  return out;
}

export class NftHistory {
  /** The shared paging model (loops, stale answers, cap, read-ahead); this class adds the NFT's query. */
  private readonly pager: Pager<NftTransaction>;

  constructor(
    private readonly mirror: () => MirrorClient,
    readonly tokenId: string,
    readonly serial: string,
    public query: NftQuery,
    maxEntries: number,
    onChange: (c: HistoryChange) => void,
  ) {
    this.pager = new Pager<NftTransaction>({
      first: (signal) => this.mirror().nftHistory(this.tokenId, this.serial, { order: this.query.order, limit: this.query.limit, timestamp: queryFilters(this.query) }, { signal }),
      next: (page, signal) => this.mirror().next(page, { signal }),
    }, onChange, { maxEntries, readAhead: true });
  }

  get items(): NftTransaction[] {
    return this.pager.items;
  }

  get status(): Status {
    return this.pager.status;
  }

  get error(): ApiError | Error | undefined {
    const e = this.pager.error;
    return e === undefined ? undefined : e instanceof Error ? e : new Error(String(e));
  }

  get partial(): boolean {
    return this.pager.partial;
  }

  /** Loading stopped at `maxEntries`. */
  get capped(): boolean {
    return this.pager.capped;
  }

  /** True once a first page came back (so an empty list means "nothing"). */
  get loadedOnce(): boolean {
    return this.pager.loadedOnce;
  }

  get maxEntries(): number {
    return this.pager.maxEntries;
  }

  set maxEntries(n: number) {
    this.pager.maxEntries = n;
  }

  /** Why paging stopped before the server's last page (a loop, repeated rows, a refused next link). */
  get stopped(): PagerStop | undefined {
    return this.pager.stopped;
  }

  /** The last page came back empty with a next link: more may follow. */
  get emptyPage(): boolean {
    return this.pager.emptyPage;
  }

  get hasMore(): boolean {
    return this.pager.hasMore;
  }

  get loading(): boolean {
    return this.pager.loading;
  }

  /** Drops what is loaded and fetches the first page (a new query, refresh, network change). */
  reload(): Promise<void> {
    return this.pager.reload();
  }

  /** Fetches the next page, if there is one and nothing is loading. */
  loadMore(): Promise<void> {
    return this.pager.loadMore();
  }

  /** After an error: the first page again when nothing is loaded, else the page that failed. */
  retry(): Promise<void> {
    return this.pager.retry();
  }

  /** Loads pages until `count` rows are there (a restored panel), the end, the cap, a stop or an error. */
  loadUntil(count: number): Promise<void> {
    return this.pager.loadUntil(count);
  }

  /** Loads every page (up to the cap). */
  loadAll(): Promise<void> {
    return this.pager.loadAll();
  }

  cancel(): void {
    this.pager.cancel();
  }

  dispose(): void {
    this.pager.dispose();
  }
}
