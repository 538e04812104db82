/**
 * The loaded history of one NFT: pages fetched one at a time from the mirror node (following `links.next`),
 * with the loading / error / partial state the panel shows. Memory is bounded: loading stops at `maxEntries`.
 * A new query, a refresh or a network change starts over; answers to an older request are dropped.
 * The page after the last one shown is fetched ahead (one page, no more), so that "Load more" and scrolling
 * to the end show it without waiting; a failure of that fetch is only reported when the page is asked for.
 * Plain TypeScript (the mirror client comes from a function so that a network change is picked up).
 */
import { ApiError, isApiError } from '../api/errors';
import type { MirrorClient, Page } from '../api/mirror';
import type { NftTransaction } from '../api/mirrorTypes';
import type { Filter } from '../api/validation';
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
  items: NftTransaction[] = [];
  status: Status = 'idle';
  partial = false;
  capped = false;
  error: ApiError | Error | undefined;
  /** True once a first page came back (so an empty list means "nothing"). */
  loadedOnce = false;
  private nextUrl: string | null = null;
  private generation = 0;
  private abort: AbortController | undefined;
  private inflight: Promise<void> | undefined;
  private ahead: { url: string; result: Promise<{ page?: Page<NftTransaction>; error?: unknown }>; abort: AbortController } | undefined;

  constructor(
    private readonly mirror: () => MirrorClient,
    readonly tokenId: string,
    readonly serial: string,
    public query: NftQuery,
    public maxEntries: number,
    private readonly onChange: (c: HistoryChange) => void,
  ) {}

  get hasMore(): boolean {
    return !!this.nextUrl && !this.capped;
  }

  get loading(): boolean {
    return this.status === 'loading' || this.status === 'loadingMore';
  }

  /** Drops what is loaded and fetches the first page (a new query, refresh, network change). */
  reload(): Promise<void> {
    this.cancel();
    const gen = ++this.generation;
    this.items = [];
    this.nextUrl = null;
    this.partial = false;
    this.capped = false;
    this.error = undefined;
    this.loadedOnce = false;
    this.status = 'loading';
    this.onChange({ from: 0 });
    return this.track(gen, (signal) => this.mirror().nftHistory(this.tokenId, this.serial, { order: this.query.order, limit: this.query.limit, timestamp: queryFilters(this.query) }, { signal }));
  }

  /** Fetches the next page, if there is one and nothing is loading. */
  loadMore(): Promise<void> {
    if (this.inflight && this.loading) return this.inflight;
    if (!this.nextUrl || this.capped) return Promise.resolve();
    const gen = this.generation;
    const url = this.nextUrl;
    this.status = 'loadingMore';
    this.error = undefined;
    this.onChange({});
    const ahead = this.ahead && this.ahead.url === url ? this.ahead : undefined;
    this.ahead = undefined;
    return this.track(gen, async (signal) => {
      if (!ahead) return this.mirror().fetchPage<NftTransaction>(url, 'transactions', { signal });
      const r = await ahead.result;
      if (r.error !== undefined) throw r.error;
      return r.page!;
    });
  }

  /** Runs one page fetch as the one in flight (cancellable); its page or error counts only for generation `gen`. */
  private track(gen: number, fetch: (signal: AbortSignal) => Promise<Page<NftTransaction>>): Promise<void> {
    const ctrl = new AbortController();
    this.abort = ctrl;
    const run = (async () => {
      try {
        const page = await fetch(ctrl.signal);
        if (gen !== this.generation) return;
        this.accept(page, gen);
      } catch (e) {
        this.fail(e, gen);
      }
    })();
    this.inflight = run;
    return run;
  }

  /** After an error: the first page again when nothing is loaded, else the page that failed. */
  retry(): Promise<void> {
    if (!this.loadedOnce) return this.reload();
    return this.loadMore();
  }

  /** Loads pages until `count` rows are there (a restored panel), the end, the cap or an error. */
  async loadUntil(count: number): Promise<void> {
    if (!this.loadedOnce && !this.loading) await this.reload();
    else if (this.inflight) await this.inflight;
    while (this.items.length < Math.min(count, this.maxEntries) && this.hasMore && this.status === 'idle') {
      await this.loadMore();
    }
  }

  /** Loads every page (up to the cap). */
  loadAll(): Promise<void> {
    return this.loadUntil(Number.MAX_SAFE_INTEGER);
  }

  cancel(): void {
    this.abort?.abort();
    this.abort = undefined;
    this.ahead?.abort.abort();
    this.ahead = undefined;
  }

  /** Starts fetching the page after the last one accepted (kept aside until it is asked for). */
  private fetchAhead(): void {
    const url = this.nextUrl;
    if (!url || this.capped || this.items.length >= this.maxEntries) return;
    const abort = new AbortController();
    const result = this.mirror().fetchPage<NftTransaction>(url, 'transactions', { signal: abort.signal })
      .then((page) => ({ page }), (error: unknown) => ({ error }));
    this.ahead = { url, result, abort };
  }

  dispose(): void {
    this.generation++;
    this.cancel();
  }

  private accept(page: Page<NftTransaction>, gen: number): void {
    if (gen !== this.generation) return;
    const from = this.items.length;
    let add = page.items;
    if (from + add.length >= this.maxEntries) {
      add = add.slice(0, Math.max(0, this.maxEntries - from));
      this.capped = !!page.next || page.items.length > add.length;
    }
    for (const it of add) this.items.push(it);
    this.nextUrl = page.next;
    this.partial = this.partial || page.partial;
    this.loadedOnce = true;
    this.status = 'idle';
    this.error = undefined;
    this.onChange({ from: from === 0 ? 0 : from });
    this.fetchAhead();
  }

  private fail(e: unknown, gen: number): void {
    if (gen !== this.generation) return;
    if (isApiError(e) && e.kind === 'cancelled') return;
    this.status = 'error';
    this.error = e instanceof Error ? e : new Error(String(e));
    this.onChange({});
  }
}
