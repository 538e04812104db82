/**
 * Client of the Hedera (Hiero) mirror node REST API v1: contract results, schedules, one schedule, and the
 * transaction history of one NFT. Queries are typed and validated here; they produce exactly the real
 * parameter names. Pages expose their items and their `next` link; following `next` stays on the configured
 * host.
 */
import * as l10n from '@vscode/l10n';
import { ApiError, httpErrorSentence, invalidInput, serverMessagesOf } from './errors';
import { type ContractCallAnswer, type ContractCallParams, contractCallBody, firstStatusMessage } from './contractCall';
import { timestampToDate } from './format';
import { type HttpClient, type HttpResponse, type RequestOptions } from './http';
import { Pager } from './pager';
import { oneLine } from './text';
import { hostOf } from './url';
import type {
  ContractAction,
  ContractResult,
  ContractResultDetails,
  NftTransaction,
  OpcodesResponse,
  Schedule,
  ScheduleState,
  TransactionDetail,
} from './mirrorTypes';
import {
  checkAccountOrAddress,
  checkBlockHash,
  checkBlockNumber,
  checkEntityId,
  checkEntityIdFilter,
  checkLimit,
  checkSerial,
  type Check,
  checkTimestamp,
  checkTransactionIndex,
  type Filter,
  filterToParam,
  OPERATORS,
  unwrap,
} from './validation';

export type Order = 'asc' | 'desc';

export interface ContractResultsQuery {
  /** One contract (entity id or EVM address): uses `/contracts/{contract}/results` instead of `/contracts/results`. */
  contract?: string;
  /** Senders: entity ids or EVM addresses (repeatable `from`). */
  from?: string[];
  /** `block.hash`: 64 or 96 hex digits, optional 0x. Not with blockNumber. */
  blockHash?: string;
  /** `block.number`: decimal or 0x hex. Not with blockHash. */
  blockNumber?: string;
  /** `internal=true` includes child (internal) results. */
  internal?: boolean;
  limit?: number;
  order?: Order;
  /** Repeatable `timestamp` with operators. */
  timestamp?: Filter[];
  /** `transaction.index`: needs blockNumber or blockHash. */
  transactionIndex?: number;
}

export interface SchedulesQuery {
  /** `account.id`: the creator account, with an operator. */
  accountId?: Filter;
  /** `schedule.id`, with an operator. */
  scheduleId?: Filter;
  limit?: number;
  order?: Order;
}

export interface NftHistoryQuery {
  limit?: number;
  order?: Order;
  timestamp?: Filter[];
}

export type PageKey = 'results' | 'schedules' | 'transactions' | 'actions';

export interface Page<T> {
  items: T[];
  /** Absolute URL of the next page, or null on the last one. */
  next: string | null;
  /** HTTP 206: the mirror node has only part of the history (e.g. an NFT whose mint is missing). */
  partial: boolean;
  /** The URL this page came from. */
  url: string;
  key: PageKey;
  /** A note about an empty page that is not simply "nothing matches". */
  notice?: string;
  /** Tries the request took (1 unless retried). */
  tries: number;
  /**
   * The server sent a `links.next` that is not followed (another host, outside the API, not a URL): the sentence
   * why. The page's items are good and kept; `next` is null, so paging ends here (a retry would fail the same way).
   */
  nextRefused?: string;
}

function encodeValue(v: string): string {
  return encodeURIComponent(v).replace(/%3A/gi, ':');
}

/** Builds `a=1&b=2` from pairs, keeping repeated names and readable `op:value` forms. */
export function buildQuery(pairs: Array<[string, string]>): string {
  return pairs.map(([k, v]) => `${k}=${encodeValue(v)}`).join('&');
}

function checkFilterOp(f: Filter, what: string): void {
  if (f.op !== undefined && !OPERATORS.includes(f.op))
    throw invalidInput(l10n.t('"{0}" is not an operator for {1}: use eq, ne, lt, lte, gt or gte.', String(f.op), what));
}

function limitAndOrder(pairs: Array<[string, string]>, q: { limit?: number; order?: Order }): void {
  if (q.limit !== undefined) pairs.push(['limit', String(unwrap(checkLimit(q.limit)))]);
  if (q.order !== undefined) {
    if (q.order !== 'asc' && q.order !== 'desc')
      throw invalidInput(l10n.t('"{0}" is not an order: use asc or desc.', String(q.order)));
    pairs.push(['order', q.order]);
  }
}

function timestampPairs(pairs: Array<[string, string]>, filters: Filter[] | undefined): void {
  for (const f of filters ?? []) {
    checkFilterOp(f, 'timestamp');
    pairs.push(['timestamp', filterToParam({ op: f.op, value: unwrap(checkTimestamp(f.value)) })]);
  }
}

/** Query string of GET /contracts/results, validated. Throws ApiError(invalidInput). */
export function contractResultsParams(q: ContractResultsQuery): string {
  const pairs: Array<[string, string]> = [];
  for (const f of q.from ?? []) pairs.push(['from', unwrap(checkAccountOrAddress(f))]);
  if (q.blockHash !== undefined && q.blockNumber !== undefined) {
    throw invalidInput(
      l10n.t('Filter by block hash or by block number, not both: the mirror node cannot combine them.'),
    );
  }
  if (q.blockHash !== undefined) pairs.push(['block.hash', unwrap(checkBlockHash(q.blockHash))]);
  if (q.blockNumber !== undefined) pairs.push(['block.number', unwrap(checkBlockNumber(q.blockNumber))]);
  if (q.transactionIndex !== undefined) {
    if (q.blockHash === undefined && q.blockNumber === undefined) {
      throw invalidInput(l10n.t('A transaction index needs a block number or block hash filter as well.'));
    }
    pairs.push(['transaction.index', String(unwrap(checkTransactionIndex(String(q.transactionIndex))))]);
  }
  if (q.internal !== undefined) pairs.push(['internal', q.internal ? 'true' : 'false']);
  timestampPairs(pairs, q.timestamp);
  limitAndOrder(pairs, q);
  return buildQuery(pairs);
}

/** Query string of GET /schedules, validated. */
export function schedulesParams(q: SchedulesQuery): string {
  const pairs: Array<[string, string]> = [];
  if (q.accountId) {
    checkFilterOp(q.accountId, 'account.id');
    const c = unwrap(checkEntityIdFilter(q.accountId.value, l10n.t('an account id')));
    pairs.push(['account.id', filterToParam({ op: q.accountId.op, value: c.value })]);
  }
  if (q.scheduleId) {
    checkFilterOp(q.scheduleId, 'schedule.id');
    const c = unwrap(checkEntityIdFilter(q.scheduleId.value, l10n.t('a schedule id')));
    pairs.push(['schedule.id', filterToParam({ op: q.scheduleId.op, value: c.value })]);
  }
  limitAndOrder(pairs, q);
  return buildQuery(pairs);
}

/** Query string of GET /tokens/{id}/nfts/{serial}/transactions, validated. */
export function nftHistoryParams(q: NftHistoryQuery): string {
  const pairs: Array<[string, string]> = [];
  timestampPairs(pairs, q.timestamp);
  limitAndOrder(pairs, q);
  return buildQuery(pairs);
}

/**
 * A schedule without `expiration_time` lives at most 30 minutes on the network; the real mirror node treats it as
 * done (long cache) 31 minutes after its creation (`getScheduleCacheControlHeader`, THIRTY_ONE_MINUTES).
 */
export const SCHEDULE_AUTO_EXPIRY_SECONDS = 31 * 60;

/**
 * State a user cares about: executed, deleted, expired (expiration in the past and not executed; without an
 * expiration_time, more than 31 minutes after its creation), else pending.
 */
export function scheduleState(
  s: Pick<Schedule, 'executed_timestamp' | 'deleted' | 'expiration_time'> & { consensus_timestamp?: string | null },
  nowMs = Date.now(),
): ScheduleState {
  if (s.executed_timestamp) return 'executed';
  if (s.deleted) return 'deleted';
  if (s.expiration_time) {
    const at = timestampToDate(String(s.expiration_time));
    if (at && at.getTime() < nowMs) return 'expired';
  } else if (s.consensus_timestamp) {
    const created = timestampToDate(String(s.consensus_timestamp));
    if (created && created.getTime() + SCHEDULE_AUTO_EXPIRY_SECONDS * 1000 < nowMs) return 'expired';
  }
  return 'pending';
}

export class MirrorClient {
  readonly baseUrl: string;
  private readonly base: URL;
  private readonly prefix: string;

  /** `baseUrl`: the mirror node without `/api/v1`, e.g. https://testnet.mirrornode.hedera.com */
  constructor(
    baseUrl: string,
    private readonly http: HttpClient,
  ) {
    this.baseUrl = baseUrl.replace(/\/+$/, '');
    this.base = new URL(`${this.baseUrl}/`);
    this.prefix = this.base.pathname.replace(/\/+$/, '');
  }

  /** Absolute URL of an API path (`/contracts/results`). */
  apiUrl(path: string, query = ''): string {
    return `${this.baseUrl}/api/v1${path}${query ? `?${query}` : ''}`;
  }

  /**
   * Resolves a `links.next` value against the configured base. The real server sends a path relative to the
   * host (`/api/v1/...`); a base with a path prefix (behind a proxy) keeps its prefix. A link to another host,
   * or outside the API, is refused.
   */
  resolveLink(link: string): string {
    let target: URL;
    try {
      if (link.startsWith('/') && !link.startsWith('//')) {
        const withPrefix = this.prefix && !link.startsWith(`${this.prefix}/`) ? `${this.prefix}${link}` : link;
        target = new URL(withPrefix, this.base.origin);
      } else {
        target = new URL(link, this.base);
      }
    } catch {
      throw new ApiError({
        kind: 'foreignLink',
        message: l10n.t('The mirror node sent a next-page link that is not a URL: "{0}".', oneLine(link, 100)),
      });
    }
    if (target.origin !== this.base.origin || !target.pathname.startsWith(`${this.prefix}/api/v1/`)) {
      throw new ApiError({
        kind: 'foreignLink',
        message: l10n.t(
          'The mirror node sent a next-page link to {0}, outside {1}; it was not followed.',
          oneLine(`${target.origin}${target.pathname.slice(0, 60)}`, 160),
          `${this.base.origin}${this.prefix}/api/v1`,
        ),
        url: oneLine(target.origin, 160),
      });
    }
    return target.toString();
  }

  /**
   * `explainEmpty`: when the page of an EVM-address contract is empty, ask once whether any contract has that
   * address (the real server answers 200 with an empty list either way). Follow polls, which are mostly empty,
   * turn it off.
   */
  async contractResults(
    q: ContractResultsQuery = {},
    options?: RequestOptions,
    { explainEmpty = true }: { explainEmpty?: boolean } = {},
  ): Promise<Page<ContractResult>> {
    const contract = q.contract !== undefined ? unwrap(checkAccountOrAddress(q.contract)) : undefined;
    const path = contract !== undefined ? `/contracts/${encodeURIComponent(contract)}/results` : '/contracts/results';
    const url = this.apiUrl(path, contractResultsParams(q));
    // Older servers answer 404 for an EVM address (in `from`, or as the contract) they cannot resolve:
    // that is an empty result with a reason, not a failure.
    const hasAddress = (q.from ?? []).some((f) => /^(0x)?[0-9a-fA-F]{40}$/.test(f.trim()));
    const unknownContract =
      q.contract !== undefined ? l10n.t('The mirror node knows no contract {0}.', q.contract.trim()) : undefined;
    const notice =
      unknownContract ?? (hasAddress ? l10n.t('The mirror node knows no account with that EVM address.') : undefined);
    const page = await this.fetchPage<ContractResult>(url, 'results', options, notice);
    // The real server (0.160) answers 200 with an empty list for an EVM address no contract has: one look-up of
    // the contract tells that apart from a contract without (matching) results.
    if (
      explainEmpty &&
      contract !== undefined &&
      unknownContract &&
      page.notice === undefined &&
      page.items.length === 0 &&
      /^0x[0-9a-f]{40}$/.test(contract)
    ) {
      if (await this.contractMissing(contract, options)) page.notice = unknownContract;
    }
    return page;
  }

  /**
   * Whether GET /contracts/{address} answers 404 (no contract has it). Any other answer, or a failure of the
   * look-up, is "not known to be missing": the page it completes stays as it is. A cancellation is thrown.
   */
  private async contractMissing(address: string, options?: RequestOptions): Promise<boolean> {
    try {
      return (await this.contract(address, options)) === null;
    } catch (e) {
      if (e instanceof ApiError && e.kind === 'cancelled') throw e;
      return false;
    }
  }

  /** One contract (`GET /contracts/{entity id or EVM address}`), or null when the mirror node has none (404). */
  async contract(idOrAddress: string, options?: RequestOptions): Promise<Record<string, unknown> | null> {
    const id = unwrap(checkAccountOrAddress(idOrAddress));
    const res = await this.http.get<unknown>(this.apiUrl(`/contracts/${encodeURIComponent(id)}`), {
      ...options,
      acceptStatus: [404],
    });
    if (res.status === 404) return null;
    if (!res.data || typeof res.data !== 'object' || Array.isArray(res.data))
      throw malformed(res.url, l10n.t('a contract object'));
    return res.data as Record<string, unknown>;
  }

  /**
   * One account (`GET /accounts/{entity id or EVM address}`, without its transactions list: `limit=1`), or null when
   * the mirror node has none (404).
   */
  async account(idOrAddress: string, options?: RequestOptions): Promise<Record<string, unknown> | null> {
    const id = unwrap(checkAccountOrAddress(idOrAddress));
    const res = await this.http.get<unknown>(this.apiUrl(`/accounts/${encodeURIComponent(id)}`, 'limit=1'), {
      ...options,
      acceptStatus: [404],
    });
    if (res.status === 404) return null;
    if (!isObject(res.data)) throw malformed(res.url, l10n.t('an account object'));
    return res.data;
  }

  async schedules(q: SchedulesQuery = {}, options?: RequestOptions): Promise<Page<Schedule>> {
    return this.fetchPage<Schedule>(this.apiUrl('/schedules', schedulesParams(q)), 'schedules', options);
  }

  /** One schedule, or null when the mirror node has none with that id (404). */
  async schedule(id: string, options?: RequestOptions): Promise<Schedule | null> {
    const sid = unwrap(checkEntityId(id, l10n.t('a schedule id')));
    const res = await this.http.get<unknown>(this.apiUrl(`/schedules/${sid}`), { ...options, acceptStatus: [404] });
    if (res.status === 404) return null;
    if (
      !res.data ||
      typeof res.data !== 'object' ||
      Array.isArray(res.data) ||
      typeof (res.data as Schedule).schedule_id !== 'string'
    ) {
      throw malformed(res.url, l10n.t('a schedule object'));
    }
    return res.data as Schedule;
  }

  /** The transaction history of one NFT. A 206 answer is returned with `partial: true`. */
  async nftHistory(
    tokenId: string,
    serial: string | bigint,
    q: NftHistoryQuery = {},
    options?: RequestOptions,
  ): Promise<Page<NftTransaction>> {
    const token = unwrap(checkEntityId(tokenId, l10n.t('a token id')));
    const sn = unwrap(checkSerial(serial));
    return this.fetchPage<NftTransaction>(
      this.apiUrl(`/tokens/${token}/nfts/${sn}/transactions`, nftHistoryParams(q)),
      'transactions',
      options,
    );
  }

  /**
   * One contract result with its logs and state changes (`GET /contracts/results/{transactionIdOrHash}`), by
   * transaction id (`nonce` picks a child) or 32-byte hash; null when the mirror node has none (404). A 206 answer
   * (the record is incomplete) is returned with `partial: true`.
   */
  async contractResultDetails(
    ref: string,
    q: { nonce?: number } = {},
    options?: RequestOptions,
    notFound?: NotFoundInfo,
  ): Promise<Answer<ContractResultDetails> | null> {
    const id = unwrap(checkTransactionRef(ref));
    const query = q.nonce !== undefined ? `nonce=${unwrap(checkNonce(q.nonce))}` : '';
    const res = await this.http.get<unknown>(this.apiUrl(`/contracts/results/${id}`, query), {
      ...options,
      acceptStatus: [404],
    });
    if (res.status === 404) return notFoundAnswer(res.data, notFound);
    if (!isObject(res.data) || typeof res.data.timestamp !== 'string')
      throw malformed(res.url, l10n.t('a contract result'));
    return { value: res.data as ContractResultDetails, partial: res.status === 206, url: res.url, tries: res.tries };
  }

  /**
   * Every call frame of a transaction (`GET /contracts/results/{transactionIdOrHash}/actions`, all pages, in index
   * order), at most `max` (then `truncated`); null when the mirror node has none (404: an unknown transaction; a
   * transaction recorded without actions is an empty list). Paged by the one paging model (./pager.ts): a next link
   * that is refused, leads back to a page already read, repeats frames already read or follows an empty page ends
   * paging, as does a page beyond those `max` needs (`stopped` says why); what was read is kept. `limit`: frames
   * per page (1 to 100).
   */
  async contractActions(
    ref: string,
    options?: RequestOptions,
    { max = 20_000, limit = 100 }: { max?: number; limit?: number } = {},
    notFound?: NotFoundInfo,
  ): Promise<ActionsAnswer | null> {
    const id = unwrap(checkTransactionRef(ref));
    const size = unwrap(checkLimit(limit));
    const first = await this.http.get<unknown>(
      this.apiUrl(`/contracts/results/${id}/actions`, `limit=${size}&order=asc`),
      { ...options, acceptStatus: [404] },
    );
    if (first.status === 404) return notFoundAnswer(first.data, notFound);
    const firstPage = this.pageOf<ContractAction>(first, first.url, 'actions');
    let pages = 0;
    // the caller's cancellation: the pager takes a cancelled fetch as "stopped", this call throws it
    let cancelled: unknown;
    const pager = new Pager<ContractAction>(
      {
        first: () => {
          pages++;
          return Promise.resolve(firstPage);
        },
        next: async (page) => {
          try {
            const p = await this.next(page, options);
            if (p) pages++;
            return p;
          } catch (e) {
            if (e instanceof ApiError && e.kind === 'cancelled') cancelled = e;
            throw e;
          }
        },
      },
      undefined,
      { maxEntries: max, maxEmptyPages: 1 },
    );
    await pager.reload();
    // a server that keeps sending links must not keep us paging: as many pages as `max` needs, and one more
    const maxPages = Math.ceil(max / size) + 1;
    let tooMany = false;
    while (pager.hasMore && pager.status === 'idle' && cancelled === undefined) {
      if (pages >= maxPages) {
        tooMany = true;
        break;
      }
      await pager.loadMore();
    }
    if (cancelled !== undefined) throw cancelled;
    if (pager.status === 'error') throw pager.error;
    const stop = pager.stopped;
    const stopped =
      stop?.kind === 'refused'
        ? stop.message
        : stop?.kind === 'emptyRun'
          ? l10n.t(
              'The mirror node sent an empty page of call frames with a link to more; the call trace may be incomplete.',
            )
          : stop?.kind === 'repeat'
            ? l10n.t('The mirror node sent a page of call frames already read; the call trace may be incomplete.')
            : stop?.kind === 'loop' || tooMany
              ? l10n.t(
                  'The mirror node sent a next-page link back to a page already read, or more pages than {0} call frames need ({1}); the call trace may be incomplete.',
                  `${max}`,
                  oneLine(stop?.url ?? pager.page?.next ?? '', 120),
                )
              : undefined;
    return { actions: pager.items, pages, truncated: pager.capped, partial: pager.partial, stopped };
  }

  /**
   * The executed opcodes of a transaction (`GET /contracts/results/{transactionIdOrHash}/opcodes`), without stack,
   * memory or storage unless asked. Many mirror nodes disable or rate-limit this endpoint: a 404, 429, 501 or 503
   * answer is returned as `unavailable` with the server's words (never retried here; the caller says so once and
   * falls back; accepted statuses are not retried), as is a 400 for a transaction the node cannot re-execute.
   */
  async contractOpcodes(
    ref: string,
    q: { stack?: boolean; memory?: boolean; storage?: boolean } = {},
    options?: RequestOptions,
  ): Promise<OpcodesAnswer> {
    const id = unwrap(checkTransactionRef(ref));
    const query = `stack=${q.stack === true}&memory=${q.memory === true}&storage=${q.storage === true}`;
    const res = await this.http.get<unknown>(this.apiUrl(`/contracts/results/${id}/opcodes`, query), {
      ...options,
      acceptStatus: [400, 404, 429, 501, 503],
    });
    if (res.status !== 200) {
      return { kind: 'unavailable', status: res.status, serverMessages: serverMessagesOf(res.data), url: res.url };
    }
    if (!isObject(res.data) || !Array.isArray(res.data.opcodes))
      throw malformed(res.url, l10n.t('a "{0}" list', 'opcodes'));
    return { kind: 'trace', value: res.data as unknown as OpcodesResponse, url: res.url };
  }

  /**
   * Every transaction with an id (`GET /transactions/{transactionId}`): the one submitted (nonce 0) and its
   * children (nonce > 0), or only the one of `nonce`; null when the mirror node has none (404).
   */
  async transactionsById(
    transactionId: string,
    q: { nonce?: number; scheduled?: boolean } = {},
    options?: RequestOptions,
    notFound?: NotFoundInfo,
  ): Promise<TransactionDetail[] | null> {
    const id = unwrap(checkTransactionRef(transactionId));
    if (!/-/.test(id))
      throw invalidInput(
        `"${oneLine(transactionId, 80)}" is not a transaction id such as 0.0.1234-1700000000-000000000.`,
      );
    const pairs: Array<[string, string]> = [];
    if (q.nonce !== undefined) pairs.push(['nonce', String(unwrap(checkNonce(q.nonce)))]);
    if (q.scheduled !== undefined) pairs.push(['scheduled', String(q.scheduled)]);
    const res = await this.http.get<unknown>(this.apiUrl(`/transactions/${id}`, buildQuery(pairs)), {
      ...options,
      acceptStatus: [404],
    });
    if (res.status === 404) return notFoundAnswer(res.data, notFound);
    return transactionList(res.data, res.url);
  }

  /** The transaction of a consensus timestamp (`GET /transactions?timestamp=…`), or null when there is none. */
  async transactionAt(timestamp: string, options?: RequestOptions): Promise<TransactionDetail | null> {
    const ts = unwrap(checkTimestamp(timestamp));
    const res = await this.http.get<unknown>(this.apiUrl('/transactions', `timestamp=${ts}&limit=1`), options);
    const list = transactionList(res.data, res.url);
    return list.find((t) => t.consensus_timestamp === ts) ?? null;
  }

  /**
   * `POST /contracts/call`: runs `data` against `to` on the mirror node's EVM at `block` (default `latest`), nothing
   * signed or sent to the network; with `estimate`, the gas it needs. Idempotent, so a 429 or 503 is tried again as
   * a GET is (Retry-After honoured). An execution that fails (a revert: 400 `CONTRACT_REVERT_EXECUTED` with its data,
   * or another result name) is the answer `failed`; 501 (the endpoint off on that mirror node) is `unavailable`;
   * a refused request (400 `Bad Request`, 404, 415, a 429 that outlasts the tries) throws ApiError with the server's
   * words. Inputs are checked before any request (ApiError `invalidInput`).
   */
  async contractCall(params: ContractCallParams, options?: RequestOptions): Promise<ContractCallAnswer> {
    const body = contractCallBody(params);
    const url = this.apiUrl('/contracts/call');
    const res = await this.http.post<unknown>(url, body, { ...options, acceptStatus: [400, 501] }, true);
    if (res.status === 501)
      return { kind: 'unavailable', status: 501, serverMessages: serverMessagesOf(res.data), url: res.url };
    if (res.status === 400) {
      const first = firstStatusMessage(res.data);
      if (first && first.message !== 'Bad Request' && /^[A-Z][A-Z0-9_]+$/.test(first.message)) {
        return {
          kind: 'failed',
          name: first.message,
          detail: first.detail,
          data: /^0x([0-9a-fA-F]{2})*$/.test(first.data) ? first.data.toLowerCase() : '0x',
          url: res.url,
        };
      }
      const serverMessages = serverMessagesOf(res.data);
      throw new ApiError({
        kind: 'http',
        status: 400,
        serverMessages,
        url: res.url,
        message: httpErrorSentence(400, res.url, serverMessages),
      });
    }
    const result = isObject(res.data) ? res.data.result : undefined;
    if (typeof result !== 'string' || !/^0x[0-9a-fA-F]*$/.test(result))
      throw malformed(res.url, l10n.t('a hex "{0}"', 'result'));
    const hex = result.toLowerCase();
    if (params.estimate) return { kind: 'estimate', gas: BigInt(hex === '0x' ? 0 : hex), result: hex, url: res.url };
    return { kind: 'result', result: hex, url: res.url, tries: res.tries };
  }

  /**
   * The last block that ended at or before a time (`GET /blocks?timestamp=lte:…&order=desc&limit=1`): the block
   * whose state a call "at that time" reads. `timestamp`: seconds.nanoseconds or an ISO date. Null when no block
   * ended by then.
   */
  async blockAt(
    timestamp: string,
    options?: RequestOptions,
  ): Promise<{ number: bigint; hash: string; timestamp: { from: string; to: string } } | null> {
    const ts = unwrap(checkTimestamp(timestamp));
    const res = await this.http.get<unknown>(
      this.apiUrl(
        '/blocks',
        buildQuery([
          ['timestamp', `lte:${ts}`],
          ['order', 'desc'],
          ['limit', '1'],
        ]),
      ),
      options,
    );
    const blocks = isObject(res.data) ? res.data.blocks : undefined;
    if (!Array.isArray(blocks)) throw malformed(res.url, l10n.t('a "{0}" list', 'blocks'));
    const b = blocks[0] as Record<string, unknown> | undefined;
    if (!b) return null;
    const n = b.number;
    const t = b.timestamp as { from?: unknown; to?: unknown } | undefined;
    if ((typeof n !== 'number' && typeof n !== 'bigint') || !isObject(t) || typeof b.hash !== 'string')
      throw malformed(res.url, l10n.t('a block with a number, hash and timestamp'));
    return { number: BigInt(n), hash: b.hash, timestamp: { from: String(t.from), to: String(t.to) } };
  }

  /** The page after `page`, or null when there is none. */
  async next<T>(page: Page<T>, options?: RequestOptions): Promise<Page<T> | null> {
    if (!page.next) return null;
    return this.fetchPage<T>(page.next, page.key, options);
  }

  /** Fetches a page from any URL of the API (used for `next` links and restored views). */
  async fetchPage<T>(url: string, key: PageKey, options?: RequestOptions, notFoundNotice?: string): Promise<Page<T>> {
    const res = await this.http.get<unknown>(
      url,
      notFoundNotice !== undefined ? { ...options, acceptStatus: [404] } : options,
    );
    if (res.status === 404) {
      return { items: [], next: null, partial: false, url, key, tries: res.tries, notice: notFoundNotice };
    }
    return this.pageOf<T>(res, url, key);
  }

  /** A page from an answer of a list endpoint (its items, its next link resolved on the configured base). */
  private pageOf<T>(res: HttpResponse<unknown>, url: string, key: PageKey): Page<T> {
    const body = res.data as Record<string, unknown> | undefined;
    if (!body || typeof body !== 'object' || !Array.isArray(body[key]))
      throw malformed(res.url, l10n.t('a "{0}" list', key));
    const items = (body[key] as unknown[]).filter((x): x is T => !!x && typeof x === 'object' && !Array.isArray(x));
    const links = body.links as { next?: unknown } | undefined;
    const rawNext = links && typeof links.next === 'string' && links.next ? links.next : null;
    const page: Page<T> = { items, next: null, partial: res.status === 206, url, key, tries: res.tries };
    if (rawNext) {
      // a link that is refused ends paging with its reason; the items of this page stay good
      try {
        page.next = this.resolveLink(rawNext);
      } catch (e) {
        if (!(e instanceof ApiError)) throw e;
        page.nextRefused = e.message;
      }
    }
    return page;
  }
}

/** Filled with what the server said when a look-up answers 404 (the methods return null then). */
export interface NotFoundInfo {
  serverMessages: string[];
}

function notFoundAnswer(body: unknown, info: NotFoundInfo | undefined): null {
  if (info) info.serverMessages = serverMessagesOf(body);
  return null;
}

/** One answer of the API that is not a list. */
export interface Answer<T> {
  value: T;
  /** HTTP 206: the mirror node has only part of the record. */
  partial: boolean;
  url: string;
  tries: number;
}

/** The opcodes endpoint's answer: the trace, or why there is none. */
export type OpcodesAnswer =
  | { kind: 'trace'; value: OpcodesResponse; url: string }
  | { kind: 'unavailable'; status: number; serverMessages: string[]; url: string };

/** The call frames of a transaction, read page by page. */
export interface ActionsAnswer {
  actions: ContractAction[];
  pages: number;
  /** More than `max` actions: the rest were not read. */
  truncated: boolean;
  /** A page was a 206. */
  partial: boolean;
  /** Why paging ended before the last page (a refused or looping next link). */
  stopped?: string;
}

const isObject = (v: unknown): v is Record<string, unknown> => !!v && typeof v === 'object' && !Array.isArray(v);

/** A transaction id (`0.0.x-sss-nnn`) or a 32-byte hash (0x optional), as the mirror node's paths take them. */
function checkTransactionRef(ref: string): Check<string> {
  const s = ref.trim();
  const m = /^(\d{1,10}\.\d{1,10}\.\d{1,10})-(\d{1,19})-(\d{1,9})$/.exec(s);
  if (m) return { ok: true, value: s };
  if (/^(0x)?[0-9a-fA-F]{64}$/.test(s)) return { ok: true, value: `0x${s.replace(/^0x/i, '').toLowerCase()}` };
  return {
    ok: false,
    message: l10n.t(
      '"{0}" is neither a transaction id (0.0.1234-1700000000-000000000) nor a 32-byte transaction hash.',
      oneLine(s, 80),
    ),
  };
}

function checkNonce(n: number): Check<number> {
  return Number.isInteger(n) && n >= 0 && n <= 2147483647
    ? { ok: true, value: n }
    : {
        ok: false,
        message: l10n.t('{0} is not a nonce: use a whole number from 0 to 2147483647.', oneLine(String(n), 40)),
      };
}

function transactionList(data: unknown, url: string): TransactionDetail[] {
  if (!isObject(data) || !Array.isArray(data.transactions))
    throw malformed(url, l10n.t('a "{0}" list', 'transactions'));
  return data.transactions.filter(
    (t): t is TransactionDetail =>
      isObject(t) && typeof t.transaction_id === 'string' && typeof t.consensus_timestamp === 'string',
  );
}

function malformed(url: string, what: string): ApiError {
  const host = hostOf(url) ?? l10n.t('The mirror node');
  return new ApiError({
    kind: 'malformed',
    message: l10n.t('{0} sent an answer without {1}; it may not be a mirror node.', host, what),
    url,
  });
}
