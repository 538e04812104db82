/**
 * The one paging model behind every paged list (the Schedules and Contract Results trees through `PagedList`,
 * the NFT history panel through `NftHistory`, a transaction's call frames through `MirrorClient.contractActions`): the first page, "load more" following `next`, a reload that
 * cancels the request in flight and drops answers to older requests, retry, partial answers (HTTP 206), a memory
 * bound, an optional read-ahead of the next page, and why paging stopped.
 *
 * A hostile or broken server cannot make it append rows forever: every page URL it loaded is remembered
 * (normalised: query parameters sorted, no fragment, no trailing slash), and a `next` link back to one of them
 * stops paging with a notice; rows already shown are dropped (a key per item: contract results by timestamp,
 * nonce and hash, schedules by id, NFT transactions by timestamp and transaction id), and a page whose rows are
 * all already shown stops paging too; so does a run of empty pages. A refused `next` (another host) keeps the
 * page's rows and becomes the reason paging stopped.
 *
 * Plain TypeScript (no `vscode`): unit tested under Node.
 */
import { isApiError } from './errors';
import { LatestRequest } from './latest';
import type { Page, PageKey } from './mirror';
import * as l10n from '@vscode/l10n';
import { oneLine } from './text';

export interface PagerSource<T> {
  first(signal: AbortSignal): Promise<Page<T>>;
  /** The page after `page`, or null when there is none. */
  next(page: Page<T>, signal: AbortSignal): Promise<Page<T> | null>;
}

export type PagerStatus = 'idle' | 'loading' | 'loadingMore' | 'error';

/**
 * Why paging stopped before the server's last page:
 * - `loop`: the next link leads back to a page already loaded (itself, or A → B → A);
 * - `repeat`: a page held only rows already shown (the same page under another URL);
 * - `emptyRun`: too many empty pages in a row;
 * - `refused`: the next link was not followed (another host, outside the API): `message` says why.
 */
export interface PagerStop {
  kind: 'loop' | 'repeat' | 'emptyRun' | 'refused';
  /** The refused link's reason (refused); untrusted text from the server. Views show `stopSentence()`. */
  message?: string;
  /** The link that was not followed again (loop); untrusted text from the server, cap it before showing. */
  url?: string;
  /** Empty pages in a row (emptyRun). */
  count?: number;
}

/** Rows changed from index `from` on (0: all replaced); undefined: only the state changed. */
export interface PagerChange {
  from?: number;
}

export interface PagerOptions<T> {
  /** The key that makes two items the same row; default: by the page's kind (`itemKey`). */
  key?: (item: T) => string | undefined;
  /** Most rows kept; loading stops there (`capped`). Default: no bound. */
  maxEntries?: number;
  /** Fetch the page after the last one accepted ahead of time (one page, kept aside until asked for). */
  readAhead?: boolean;
  /** Empty pages with a next link in a row after which paging stops (default 10). */
  maxEmptyPages?: number;
}

/** The sentence for why paging stopped, in the language of `l10n` (`vscode.l10n` in the views). */
export function stopSentence(stop: PagerStop): string {
  switch (stop.kind) {
    case 'loop':
      return l10n.t(
        "The server's next-page link leads back to a page already loaded ({0}); paging stopped here.",
        oneLine(stop.url ?? '', 120),
      );
    case 'repeat':
      return l10n.t('The server sent a page of rows that are already shown; paging stopped here.');
    case 'emptyRun':
      return l10n.t('The server sent {0} empty pages in a row; paging stopped here.', stop.count ?? 0);
    case 'refused':
      return oneLine(stop.message ?? '', 300);
  }
}

/** The notice for an empty page with a next link. */
export function emptyPageSentence(): string {
  return l10n.t('The server returned an empty page; more may follow.');
}

/**
 * A URL in one canonical form, to compare links: resolved against `base`, query parameters decoded and sorted
 * (name, then value), no fragment, no trailing slash on the path. Not a URL: the text itself.
 */
export function normalizeUrl(url: string, base?: string): string {
  let u: URL;
  try {
    u = new URL(url, base);
  } catch {
    return url.trim();
  }
  const params = [...u.searchParams.entries()].sort(([a, x], [b, y]) =>
    a < b ? -1 : a > b ? 1 : x < y ? -1 : x > y ? 1 : 0,
  );
  const search = params.map(([k, v]) => `${encodeURIComponent(k)}=${encodeURIComponent(v)}`).join('&');
  let path = u.pathname;
  try {
    path = decodeURI(path);
  } catch {
    /* keep it encoded */
  }
  path = path.replace(/\/+$/, '') || '/';
  return `${u.protocol}//${u.host}${path}${search ? `?${search}` : ''}`;
}

function text(v: unknown): string {
  return typeof v === 'string' || typeof v === 'number' || typeof v === 'bigint' ? String(v) : '';
}

/**
 * The key of one item of a mirror page: contract results by timestamp (+ nonce and hash), schedules by id, NFT
 * transactions by timestamp and transaction id, call frames by index. Undefined when the item has no such field (never merged).
 */
export function itemKey(kind: PageKey, item: unknown): string | undefined {
  if (!item || typeof item !== 'object') return undefined;
  const o = item as Record<string, unknown>;
  switch (kind) {
    case 'results':
      return text(o.timestamp) ? `${text(o.timestamp)}|${text(o.nonce)}|${text(o.hash)}` : undefined;
    case 'schedules':
      return text(o.schedule_id) || undefined;
    case 'transactions':
      return text(o.consensus_timestamp) ? `${text(o.consensus_timestamp)}|${text(o.transaction_id)}` : undefined;
    case 'actions':
      return text(o.index) || undefined;
    default:
      return undefined;
  }
}

type AheadResult<T> = { page: Page<T> | null } | { error: unknown };

export class Pager<T> {
  items: T[] = [];
  status: PagerStatus = 'idle';
  /** The failure of the last fetch (status 'error'). */
  error: unknown;
  /** Some page came back as HTTP 206 (the mirror node has only part of the history). */
  partial = false;
  /** Loading stopped at `maxEntries`. */
  capped = false;
  /** reload() was called (since the last reset). */
  started = false;
  /** A first page came back (so no rows means "nothing"). */
  loadedOnce = false;
  /** Why paging stopped before the last page (loop, repeat, refused link, empty run). */
  stopped: PagerStop | undefined;
  /** Pages in a row that came back empty with a next link. */
  emptyPages = 0;
  maxEntries: number;
  private lastPage: Page<T> | undefined;
  /** The first page or "load more" in flight: a new one (or cancel) aborts it, and its late answer is dropped. */
  private readonly request = new LatestRequest();
  private inflight: Promise<void> | undefined;
  private ahead: { after: Page<T>; result: Promise<AheadResult<T>>; abort: AbortController } | undefined;
  private readonly seenUrls = new Set<string>();
  private readonly seenKeys = new Set<string>();
  private readonly maxEmptyPages: number;

  constructor(
    private readonly source: PagerSource<T>,
    private readonly onChange: (c: PagerChange) => void = () => {},
    private readonly options: PagerOptions<T> = {},
  ) {
    this.maxEntries = options.maxEntries ?? Number.POSITIVE_INFINITY;
    this.maxEmptyPages = Math.max(1, options.maxEmptyPages ?? 10);
  }

  /** The last page accepted. */
  get page(): Page<T> | undefined {
    return this.lastPage;
  }

  get hasMore(): boolean {
    return !!this.lastPage?.next && !this.capped && !this.stopped;
  }

  get loading(): boolean {
    return this.status === 'loading' || this.status === 'loadingMore';
  }

  /** The 404 notice of the last page ("the mirror node knows no contract ..."). */
  get notice(): string | undefined {
    return this.lastPage?.notice;
  }

  /** The last page was empty and more may follow: worth saying above "Load more". */
  get emptyPage(): boolean {
    return this.emptyPages > 0 && this.hasMore;
  }

  /** Forgets everything; the next `ensureLoaded` fetches again. */
  reset(): void {
    this.cancel();
    this.clear();
    this.started = false;
    this.onChange({ from: 0 });
  }

  /** Cancels the fetch in flight and the read-ahead; their answers are dropped. */
  cancel(): void {
    this.request.cancel();
    this.ahead?.abort.abort();
    this.ahead = undefined;
    if (this.loading) this.status = 'idle';
  }

  /** Loads the first page once. */
  ensureLoaded(): Promise<void> {
    return this.started ? Promise.resolve() : this.reload();
  }

  /** Drops what is loaded and fetches the first page. */
  reload(): Promise<void> {
    this.cancel();
    this.clear();
    this.started = true;
    this.status = 'loading';
    this.onChange({ from: 0 });
    return this.track((signal) => this.source.first(signal), true);
  }

  /** Fetches the next page, if there is one and nothing is loading; a failure keeps what was loaded. */
  loadMore(): Promise<void> {
    if (this.loading) return this.inflight ?? Promise.resolve();
    const after = this.lastPage;
    if (!after || !this.hasMore) return Promise.resolve();
    this.status = 'loadingMore';
    this.error = undefined;
    this.onChange({});
    const ahead = this.ahead?.after === after ? this.ahead : undefined;
    this.ahead = undefined;
    return this.track(async (signal) => {
      if (!ahead) return this.source.next(after, signal);
      signal.addEventListener('abort', () => ahead.abort.abort(), { once: true });
      const r = await ahead.result;
      if ('error' in r) throw r.error;
      return r.page;
    }, false);
  }

  /** After an error: the first page again when none came back, else the page that failed. */
  retry(): Promise<void> {
    return this.loadedOnce ? this.loadMore() : this.reload();
  }

  /** Loads pages until `count` rows are there, the end, the cap, a stop or an error. */
  async loadUntil(count: number): Promise<void> {
    if (!this.loadedOnce && !this.loading) await this.reload();
    else if (this.inflight) await this.inflight;
    while (this.items.length < Math.min(count, this.maxEntries) && this.hasMore && this.status === 'idle') {
      await this.loadMore();
    }
  }

  /** Adds rows at the top (newer items found by a poll), skipping ones already shown (the pager's own row keys). */
  prepend(items: T[]): void {
    const fresh = items.filter((it) => {
      const k = this.keyOf(it, this.lastPage?.key);
      if (k === undefined) return true;
      if (this.seenKeys.has(k)) return false;
      this.seenKeys.add(k);
      return true;
    });
    if (!fresh.length) return;
    this.items = [...fresh, ...this.items];
    this.onChange({ from: 0 });
  }

  dispose(): void {
    this.cancel();
  }

  private clear(): void {
    this.items = [];
    this.lastPage = undefined;
    this.error = undefined;
    this.partial = false;
    this.capped = false;
    this.loadedOnce = false;
    this.stopped = undefined;
    this.emptyPages = 0;
    this.seenUrls.clear();
    this.seenKeys.clear();
  }

  private keyOf(item: T, kind: PageKey | undefined): string | undefined {
    if (this.options.key) return this.options.key(item);
    return kind ? itemKey(kind, item) : undefined;
  }

  /** Runs one fetch as the one in flight (cancellable); its answer counts only if nothing newer started. */
  private track(fetch: (signal: AbortSignal) => Promise<Page<T> | null>, first: boolean): Promise<void> {
    const signal = this.request.start();
    const run = (async () => {
      try {
        const page = await fetch(signal);
        if (!this.request.isCurrent(signal)) return;
        this.request.done(signal);
        this.accept(page, first);
      } catch (e) {
        if (!this.request.isCurrent(signal)) return;
        this.request.done(signal);
        this.fail(e);
      }
    })();
    this.inflight = run;
    return run;
  }

  private accept(page: Page<T> | null, first: boolean): void {
    this.status = 'idle';
    this.error = undefined;
    if (!page) {
      // the source has nothing after the last page after all
      if (this.lastPage) this.lastPage = { ...this.lastPage, next: null };
      this.onChange({});
      return;
    }
    if (first) this.items = [];
    const from = this.items.length;
    this.seenUrls.add(normalizeUrl(page.url));
    const fresh: T[] = [];
    for (const it of page.items) {
      const k = this.keyOf(it, page.key);
      if (k !== undefined) {
        if (this.seenKeys.has(k)) continue;
        this.seenKeys.add(k);
      }
      fresh.push(it);
    }
    let add = fresh;
    if (from + add.length >= this.maxEntries) {
      add = add.slice(0, Math.max(0, this.maxEntries - from));
      this.capped = !!page.next || fresh.length > add.length;
    }
    for (const it of add) this.items.push(it);
    this.lastPage = page;
    this.partial = this.partial || page.partial;
    this.loadedOnce = true;
    this.emptyPages = page.next && page.items.length === 0 ? this.emptyPages + 1 : 0;
    this.stopped = this.stopReason(page, fresh.length, first);
    this.onChange({ from });
    if (this.options.readAhead) this.fetchAhead();
  }

  private stopReason(page: Page<T>, fresh: number, first: boolean): PagerStop | undefined {
    if (page.nextRefused) return { kind: 'refused', message: page.nextRefused };
    if (!page.next) return undefined;
    if (!first && page.items.length > 0 && fresh === 0) return { kind: 'repeat' };
    if (this.seenUrls.has(normalizeUrl(page.next))) return { kind: 'loop', url: page.next };
    if (this.emptyPages >= this.maxEmptyPages) return { kind: 'emptyRun', count: this.emptyPages };
    return undefined;
  }

  private fail(e: unknown): void {
    if (isApiError(e) && e.kind === 'cancelled') {
      this.status = 'idle';
      this.onChange({});
      return;
    }
    this.status = 'error';
    this.error = e;
    this.onChange({});
  }

  /** Starts fetching the page after the last one accepted (kept aside until it is asked for). */
  private fetchAhead(): void {
    const after = this.lastPage;
    if (!after || !this.hasMore || this.items.length >= this.maxEntries) return;
    const abort = new AbortController();
    const result = this.source.next(after, abort.signal).then(
      (page) => ({ page }),
      (error: unknown) => ({ error }),
    );
    this.ahead = { after, result, abort };
  }
}
