/**
 * The loaded history of one NFT: the shared paging model (`api/pager.ts`: first page, "load more" following
 * `links.next`, reload that cancels the request in flight and drops stale answers, retry, partial 206, the memory
 * bound `maxEntries`, why paging stopped) over `GET /tokens/{id}/nfts/{serial}/transactions` with the panel's
 * query. The page after the last one shown is fetched ahead (one page, no more), so that "Load more" and
 * scrolling to the end show it without waiting; a failure of that fetch is only reported when the page is asked
 * for. Plain TypeScript (the mirror client comes from a function so that a network change is picked up).
 */
import type { MirrorClient } from '../../api/mirror';
import { Pager, type PagerChange } from '../../api/pager';
import type { NftTransaction } from '../../api/mirrorTypes';
import type { Filter } from '../../api/validation';
import type { NftQuery } from './protocol';

export function queryFilters(q: NftQuery): Filter[] {
  const out: Filter[] = [];
  if (q.from) out.push({ op: q.from.op, value: q.from.value });
  if (q.to) out.push({ op: q.to.op, value: q.to.value });
  return out;
}

/** The pager of one NFT's history; `query` applies from the next `reload()`. */
export class NftHistory extends Pager<NftTransaction> {
  constructor(
    mirror: () => MirrorClient,
    readonly tokenId: string,
    readonly serial: string,
    public query: NftQuery,
    maxEntries: number,
    onChange: (c: PagerChange) => void,
  ) {
    super(
      {
        first: (signal) =>
          mirror().nftHistory(
            tokenId,
            serial,
            { order: this.query.order, limit: this.query.limit, timestamp: queryFilters(this.query) },
            { signal },
          ),
        next: (page, signal) => mirror().next(page, { signal }),
      },
      onChange,
      { maxEntries, readAhead: true },
    );
  }
}
