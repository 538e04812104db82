/**
 * What a recognized reference (./recognize.ts) is on a network, looked up on its mirror node (plain TypeScript):
 *
 * - kind known: a transaction id → `GET /transactions/{id}` and `GET /contracts/results/{id}` (its call, if it made
 *   one) together; a hash → `GET /contracts/results/{hash}`; an NFT `token/serial` → `GET /tokens/{token}`;
 * - kind unknown: an entity id → `/contracts`, `/accounts`, `/tokens`, `/topics`, `/schedules` in parallel, the first
 *   to answer with the entity wins and the others are aborted. Contracts are accounts too (the real server answers
 *   `/accounts/{contract}` with the contract's balance), so an account answer waits for the contract answer, and a
 *   contract answer keeps the account request for its balance; a long-zero EVM address is its entity id; any other
 *   address → `/contracts/{address}` and `/accounts/{address}`;
 * - a contract also gets its latest results (`/contracts/{id}/results?limit=10`) and its verification state
 *   (Sourcify v2 `GET /v2/contract/{chainId}/{address}`), both at once.
 *
 * Answers (found or not found; never an error) are kept per network (its name and mirror URL) for TTL_MS, at most
 * MAX_ENTRIES (least recently used dropped). At most MAX_IN_FLIGHT requests are in flight; the rest wait in line.
 * Two hovers of the same reference share one look-up; its requests are aborted when every caller's signal has
 * aborted (the hover went away).
 */
import * as l10n from '@vscode/l10n';
import { ApiError, isApiError } from '../errors';
import type { HttpClient, RequestOptions } from '../http';
import { intToString } from '../json';
import { type MirrorClient, scheduleState } from '../mirror';
import type { ContractResult, ContractResultDetails, ScheduleState, TransactionDetail } from '../mirrorTypes';
import type { NetworkProfile } from '../networks';
import { outcome, type Outcome } from '../contractResult';
import { evmAddressToEntityId } from '../validation';
import { SourcifyV2Client } from '../verify';
import { LedgerMirror, type MirrorObject } from './client';
import type { LedgerRef } from './recognize';

/** How long an answer is kept: short, since balances and results change; long enough for hovering back and forth. */
export const TTL_MS = 30_000;
/** Answers kept (all networks together). */
export const MAX_ENTRIES = 200;
/** Requests in flight at once, over every look-up (a public mirror node allows about 50 a second per client). */
export const MAX_IN_FLIGHT = 4;
/** A contract's latest results shown. */
export const RESULTS_LIMIT = 10;
/** Time limit of one try of a look-up's request: a hover is not worth the default 15 s. */
export const REQUEST_TIMEOUT_MS = 8_000;

/** A key as the mirror node names its type (`ED25519`, `ECDSA_SECP256K1`, `ProtobufEncoded`), or 'none'. */
export type KeyType = string;

export interface AccountInfo {
  kind: 'account';
  id: string;
  evmAddress?: string;
  /** Tinybars, every digit. */
  balance?: string;
  /** Token balances the answer lists. */
  tokens?: number;
  keyType: KeyType;
  memo: string;
  deleted: boolean;
  created?: string;
}

export type Verification =
  | { state: 'verified'; /** `exact_match`, `match`, or another value as Sourcify sent it */ match: string }
  | { state: 'notVerified' }
  | { state: 'unknown'; message: string }
  | { state: 'noAddress' };

export interface ResultsSummary {
  /** Results read (the latest RESULTS_LIMIT at most). */
  read: number;
  successes: number;
  failures: number;
  /** More results exist before these. */
  more: boolean;
  latest?: { timestamp: string; outcome: Outcome };
  latestFailure?: ContractResult;
}

export interface ContractInfo {
  kind: 'contract';
  id: string;
  evmAddress?: string;
  balance?: string;
  adminKeyType: KeyType;
  memo: string;
  deleted: boolean;
  created?: string;
  verification: Verification;
  results: ResultsSummary | { error: string };
}

export interface TokenInfo {
  kind: 'token';
  id: string;
  name: string;
  symbol: string;
  /** FUNGIBLE_COMMON, NON_FUNGIBLE_UNIQUE. */
  type: string;
  decimals?: string;
  totalSupply?: string;
  treasury?: string;
  adminKeyType: KeyType;
  memo: string;
  deleted: boolean;
}

export interface TopicInfo {
  kind: 'topic';
  id: string;
  memo: string;
  adminKeyType: KeyType;
  submitKeyType: KeyType;
  deleted: boolean;
  created?: string;
}

export interface ScheduleInfo {
  kind: 'schedule';
  id: string;
  memo: string;
  state: ScheduleState;
  creator?: string;
  payer?: string;
  adminKeyType: KeyType;
  created?: string;
  executed?: string;
}

export interface TransactionInfo {
  kind: 'transaction';
  id: string;
  /** CONTRACTCALL, CRYPTOTRANSFER, … */
  name: string;
  result: string;
  timestamp: string;
  /** Tinybars. */
  fee?: string;
  memo: string;
  entity?: string;
  /** Child transactions (nonce > 0) of the id. */
  children: number;
  /** Its contract call, when it made one. */
  call?: ContractResult;
}

export interface ContractResultInfo {
  kind: 'contractResult';
  hash: string;
  result: ContractResult;
  /** The mirror node has only part of the record (206). */
  partial: boolean;
}

export interface NotFound {
  kind: 'notFound';
}

export interface LookupFailure {
  kind: 'error';
  message: string;
}

export type LedgerInfo =
  | AccountInfo
  | ContractInfo
  | TokenInfo
  | TopicInfo
  | ScheduleInfo
  | TransactionInfo
  | ContractResultInfo
  | NotFound
  | LookupFailure;

/** The network a look-up asks: its clients. `key` tells networks apart in the cache (name and mirror URL). */
export interface LookupSource {
  key: string;
  profile: Pick<NetworkProfile, 'chainId' | 'verifyUrl'>;
  mirror: MirrorClient;
  http: HttpClient;
}

export interface LookupOptions {
  ttlMs?: number;
  maxEntries?: number;
  maxInFlight?: number;
  now?: () => number;
}

export interface LookupStats {
  /** Calls of get(). */
  lookups: number;
  /** Answered from the cache. */
  cacheHits: number;
  /** Joined a look-up already in flight. */
  joined: number;
  /** Requests started (each counted once, whatever its tries). */
  requests: number;
  /** Requests aborted: lost a race, or every caller went away. */
  aborted: number;
  inFlight: number;
  /** The most requests ever in flight at once. */
  maxInFlight: number;
  /** Answers in the cache now. */
  cached: number;
}

function cancelled(): ApiError {
  return new ApiError({ kind: 'cancelled', message: l10n.t('The look-up was cancelled.') });
}

const isCancel = (e: unknown): boolean => isApiError(e) && e.kind === 'cancelled';
const str = (v: unknown): string | undefined => (typeof v === 'string' ? v : undefined);
const intStr = (v: unknown): string | undefined =>
  typeof v === 'number' || typeof v === 'bigint' || (typeof v === 'string' && /^-?\d+$/.test(v))
    ? intToString(v as number)
    : undefined;
const keyType = (k: unknown): KeyType =>
  k && typeof k === 'object' && typeof (k as { _type?: unknown })._type === 'string'
    ? (k as { _type: string })._type
    : 'none';
const evm = (v: unknown): string | undefined =>
  typeof v === 'string' && /^0x[0-9a-fA-F]{40}$/.test(v) ? v.toLowerCase() : undefined;

/** A memo sent as base64 (transactions), decoded as UTF-8 (invalid bytes replaced). */
export function memoFromBase64(b64: unknown): string {
  if (typeof b64 !== 'string' || !b64) return '';
  try {
    const bin = atob(b64.slice(0, 4096));
    const bytes = new Uint8Array(bin.length);
    for (let i = 0; i < bin.length; i++) bytes[i] = bin.charCodeAt(i);
    return new TextDecoder('utf-8').decode(bytes);
  } catch {
    return '';
  }
}

/** A contract result without its logs and state changes (what a hover shows needs neither). */
function trimmed(r: ContractResultDetails | ContractResult): ContractResult {
  const { logs: _l, state_changes: _s, ...rest } = r as ContractResultDetails;
  return rest as ContractResult;
}

/**
 * Runs at most `max` tasks at once; the others wait in line (leaving it when their signal aborts). A slot that frees
 * up passes to the next in line a moment later (a timer): a look-up that has just got its answer drops the asks it
 * no longer needs before one of them could start.
 */
class Limiter {
  active = 0;
  maxSeen = 0;
  private readonly queue: Array<{ start: () => void }> = [];

  constructor(private readonly max: number) {}

  async run<T>(signal: AbortSignal, task: () => Promise<T>): Promise<T> {
    await this.acquire(signal);
    try {
      return await task();
    } finally {
      this.release();
    }
  }

  private release(): void {
    const next = this.queue.shift();
    if (!next) {
      this.active--;
      return;
    }
    // the slot stays taken, reserved for `next`
    setTimeout(next.start, 0);
  }

  private acquire(signal: AbortSignal): Promise<void> {
    if (signal.aborted) return Promise.reject(cancelled());
    if (this.active < this.max) {
      this.active++;
      this.maxSeen = Math.max(this.maxSeen, this.active);
      return Promise.resolve();
    }
    return new Promise((resolve, reject) => {
      let left = false;
      const entry = {
        start: () => {
          signal.removeEventListener('abort', onAbort);
          // it left while the slot was on its way: the slot goes on to the next
          if (left) this.release();
          else resolve();
        },
      };
      const onAbort = () => {
        left = true;
        const i = this.queue.indexOf(entry);
        if (i >= 0) this.queue.splice(i, 1);
        reject(cancelled());
      };
      this.queue.push(entry);
      signal.addEventListener('abort', onAbort, { once: true });
    });
  }
}

/** An AbortController that aborts when `parent` does. */
function childOf(parent: AbortSignal): AbortController {
  const c = new AbortController();
  if (parent.aborted) c.abort();
  else parent.addEventListener('abort', () => c.abort(), { once: true });
  return c;
}

interface Flight {
  promise: Promise<LedgerInfo>;
  controller: AbortController;
  waiters: number;
}

type EntityKind = 'contract' | 'account' | 'token' | 'topic' | 'schedule';
type Answer =
  | { kind: EntityKind; value: MirrorObject | null; error?: undefined }
  | { kind: EntityKind; value?: undefined; error: unknown };

export class LedgerLookup {
  private readonly cache = new Map<string, { at: number; info: LedgerInfo }>();
  private readonly flights = new Map<string, Flight>();
  private readonly limiter: Limiter;
  private readonly ttlMs: number;
  private readonly maxEntries: number;
  private readonly now: () => number;
  private readonly counts = { lookups: 0, cacheHits: 0, joined: 0, requests: 0, aborted: 0 };

  constructor(
    private readonly source: () => LookupSource,
    options: LookupOptions = {},
  ) {
    this.ttlMs = options.ttlMs ?? TTL_MS;
    this.maxEntries = options.maxEntries ?? MAX_ENTRIES;
    this.limiter = new Limiter(options.maxInFlight ?? MAX_IN_FLIGHT);
    this.now = options.now ?? Date.now;
  }

  /** The cache key of a reference on a network. */
  static key(sourceKey: string, ref: Pick<LedgerRef, 'kind' | 'value' | 'nonce' | 'scheduled'>): string {
    // an NFT is looked up as its token
    const kind = ref.kind === 'nft' ? 'token' : ref.kind;
    return `${sourceKey}|${kind}|${ref.value}|${ref.nonce ?? ''}|${ref.scheduled ? 's' : ''}`;
  }

  /** The answer kept for `ref` on the current network, without asking (undefined: none, or expired). */
  peek(ref: LedgerRef): LedgerInfo | undefined {
    const key = LedgerLookup.key(this.source().key, ref);
    const hit = this.cache.get(key);
    return hit && this.now() - hit.at < this.ttlMs ? hit.info : undefined;
  }

  /**
   * What `ref` is on the current network. Rejects with an ApiError of kind `cancelled` when `signal` aborts; a
   * failure to read it resolves to `{ kind: 'error' }` (not cached).
   */
  get(ref: LedgerRef, signal?: AbortSignal): Promise<LedgerInfo> {
    this.counts.lookups++;
    if (signal?.aborted) return Promise.reject(cancelled());
    const source = this.source();
    const key = LedgerLookup.key(source.key, ref);
    const hit = this.cache.get(key);
    if (hit) {
      if (this.now() - hit.at < this.ttlMs) {
        this.counts.cacheHits++;
        // most recently used last
        this.cache.delete(key);
        this.cache.set(key, hit);
        return Promise.resolve(hit.info);
      }
      this.cache.delete(key);
    }
    let flight = this.flights.get(key);
    if (flight) this.counts.joined++;
    else {
      const controller = new AbortController();
      const started: Flight = { controller, waiters: 0, promise: Promise.resolve({ kind: 'notFound' }) };
      started.promise = this.resolve(source, ref, controller.signal).then(
        (info) => {
          if (this.flights.get(key) === started) this.flights.delete(key);
          if (info.kind !== 'error' && !controller.signal.aborted) this.store(key, info);
          return info;
        },
        (e: unknown) => {
          if (this.flights.get(key) === started) this.flights.delete(key);
          if (isCancel(e)) throw e;
          return { kind: 'error', message: e instanceof Error ? e.message : String(e) } as LedgerInfo;
        },
      );
      flight = started;
      this.flights.set(key, flight);
    }
    return this.wait(key, flight, signal);
  }

  /** One caller of a flight: it leaves when its signal aborts; the last one to leave aborts the flight. */
  private wait(key: string, flight: Flight, signal: AbortSignal | undefined): Promise<LedgerInfo> {
    flight.waiters++;
    if (!signal) return flight.promise;
    return new Promise((resolve, reject) => {
      const onAbort = () => {
        flight.waiters--;
        if (flight.waiters <= 0) {
          flight.controller.abort();
          if (this.flights.get(key) === flight) this.flights.delete(key);
        }
        reject(cancelled());
      };
      signal.addEventListener('abort', onAbort, { once: true });
      flight.promise.then(
        (v) => {
          signal.removeEventListener('abort', onAbort);
          resolve(v);
        },
        (e: unknown) => {
          signal.removeEventListener('abort', onAbort);
          reject(e);
        },
      );
    });
  }

  private store(key: string, info: LedgerInfo): void {
    this.cache.delete(key);
    this.cache.set(key, { at: this.now(), info });
    while (this.cache.size > this.maxEntries) {
      const oldest = this.cache.keys().next().value;
      if (oldest === undefined) break;
      this.cache.delete(oldest);
    }
  }

  clear(): void {
    this.cache.clear();
  }

  stats(): LookupStats {
    return {
      ...this.counts,
      inFlight: this.limiter.active,
      maxInFlight: this.limiter.maxSeen,
      cached: this.cache.size,
    };
  }

  /** One request through the limiter, counted; `signal` aborts it (also while it waits in line). */
  private async request<T>(signal: AbortSignal, send: (options: RequestOptions) => Promise<T>): Promise<T> {
    try {
      return await this.limiter.run(signal, () => {
        this.counts.requests++;
        return send({ signal, timeoutMs: REQUEST_TIMEOUT_MS });
      });
    } catch (e) {
      if (isCancel(e) || signal.aborted) {
        this.counts.aborted++;
        throw isCancel(e) ? e : cancelled();
      }
      throw e;
    }
  }

  private async resolve(source: LookupSource, ref: LedgerRef, signal: AbortSignal): Promise<LedgerInfo> {
    const ledger = new LedgerMirror(source.mirror, source.http);
    switch (ref.kind) {
      case 'transactionId':
        return this.transaction(source, ref, signal);
      case 'hash': {
        const r = await this.request(signal, (o) => source.mirror.contractResultDetails(ref.value, {}, o));
        return r
          ? { kind: 'contractResult', hash: ref.value, result: trimmed(r.value), partial: r.partial }
          : { kind: 'notFound' };
      }
      case 'nft': {
        const t = await this.request(signal, (o) => ledger.token(ref.value, o));
        return t ? tokenInfo(t) : { kind: 'notFound' };
      }
      case 'evmAddress': {
        const id = evmAddressToEntityId(ref.value);
        // a long-zero address is the entity id it encodes (any kind of entity)
        if (id) return this.entity(source, ledger, id, ['contract', 'account', 'token', 'topic', 'schedule'], signal);
        return this.entity(source, ledger, ref.value, ['contract', 'account'], signal);
      }
      case 'entity':
        return this.entity(source, ledger, ref.value, ['contract', 'account', 'token', 'topic', 'schedule'], signal);
    }
  }

  private async transaction(source: LookupSource, ref: LedgerRef, parent: AbortSignal): Promise<LedgerInfo> {
    // one failing aborts the other
    const both = childOf(parent);
    const signal = both.signal;
    const txs = this.request(signal, (o) =>
      source.mirror.transactionsById(ref.value, { nonce: ref.nonce, scheduled: ref.scheduled }, o),
    );
    // its call, if it made one (404 otherwise); a scheduled transaction's is not looked up by id
    const call = ref.scheduled
      ? Promise.resolve(null)
      : this.request(signal, (o) =>
          source.mirror.contractResultDetails(ref.value, ref.nonce ? { nonce: ref.nonce } : {}, o),
        ).catch((e: unknown) => {
          if (isCancel(e)) throw e;
          return null;
        });
    let list: TransactionDetail[] | null;
    let result: Awaited<typeof call>;
    try {
      [list, result] = await Promise.all([txs, call]);
    } finally {
      both.abort();
    }
    if (!list?.length) return { kind: 'notFound' };
    const nonceOf = (t: TransactionDetail) => Number(intToString(t.nonce ?? 0));
    const want = ref.nonce ?? 0;
    const t = list.find((x) => nonceOf(x) === want) ?? list[0];
    return {
      kind: 'transaction',
      id: str(t.transaction_id) ?? ref.value,
      name: str(t.name) ?? '',
      result: str(t.result) ?? '',
      timestamp: t.consensus_timestamp,
      fee: intStr(t.charged_tx_fee),
      memo: memoFromBase64(t.memo_base64),
      entity: str(t.entity_id),
      children: list.filter((x) => nonceOf(x) > 0).length,
      call: result ? trimmed(result.value) : undefined,
    };
  }

  /**
   * An entity id (or a non long-zero EVM address) whose kind is unknown: every kind asked at once; see the file
   * comment for who wins.
   */
  private async entity(
    source: LookupSource,
    ledger: LedgerMirror,
    id: string,
    kinds: EntityKind[],
    signal: AbortSignal,
  ): Promise<LedgerInfo> {
    const ask = (kind: EntityKind, o: RequestOptions): Promise<MirrorObject | null> => {
      switch (kind) {
        case 'contract':
          return source.mirror.contract(id, o);
        case 'account':
          return ledger.account(id, o);
        case 'token':
          return ledger.token(id, o);
        case 'topic':
          return ledger.topic(id, o);
        case 'schedule':
          return source.mirror.schedule(id, o) as Promise<MirrorObject | null>;
      }
    };
    const controllers = new Map<EntityKind, AbortController>();
    const pending = new Map<EntityKind, Promise<Answer>>();
    for (const kind of kinds) {
      const c = childOf(signal);
      controllers.set(kind, c);
      pending.set(
        kind,
        this.request(c.signal, (o) => ask(kind, o)).then(
          (value): Answer => ({ kind, value }),
          (error: unknown): Answer => ({ kind, error }),
        ),
      );
    }
    const drop = (keep: (k: EntityKind) => boolean) => {
      for (const k of [...pending.keys()]) {
        if (keep(k)) continue;
        controllers.get(k)?.abort();
        pending.delete(k);
      }
    };
    const errors: unknown[] = [];
    let account: MirrorObject | undefined;
    let contract: MirrorObject | undefined;
    while (pending.size) {
      const a = await Promise.race(pending.values());
      pending.delete(a.kind);
      if (signal.aborted) throw cancelled();
      if (a.error !== undefined) {
        if (!isCancel(a.error)) errors.push(a.error);
        continue;
      }
      if (!a.value) continue;
      if (a.kind === 'account') {
        account = a.value;
        // a contract is an account too: only the contract answer tells which
        drop((k) => k === 'contract');
      } else if (a.kind === 'contract') {
        contract = a.value;
        // the account answer has the contract's balance
        drop((k) => k === 'account');
      } else {
        drop(() => false);
        switch (a.kind) {
          case 'token':
            return tokenInfo(a.value);
          case 'topic':
            return topicInfo(a.value);
          case 'schedule':
            return scheduleInfo(a.value, this.now());
        }
      }
    }
    if (contract) return this.contract(source, contract, account, signal);
    if (account) return accountInfo(account);
    if (errors.length) {
      const e = errors[0];
      return { kind: 'error', message: e instanceof Error ? e.message : String(e) };
    }
    return { kind: 'notFound' };
  }

  private async contract(
    source: LookupSource,
    c: MirrorObject,
    account: MirrorObject | undefined,
    signal: AbortSignal,
  ): Promise<ContractInfo> {
    const id = str(c.contract_id) ?? '';
    const address = evm(c.evm_address);
    const results = this.request(signal, (o) =>
      source.mirror.contractResults({ contract: id, limit: RESULTS_LIMIT, order: 'desc' }, o, { explainEmpty: false }),
    ).then(
      (page): ResultsSummary => summarize(page.items, !!page.next),
      (e: unknown) => {
        if (isCancel(e)) throw e;
        return { error: e instanceof Error ? e.message : String(e) };
      },
    );
    const verification: Promise<Verification> = !address
      ? Promise.resolve({ state: 'noAddress' })
      : this.request(signal, (o) =>
          new SourcifyV2Client(source.profile.verifyUrl, source.http).lookup(source.profile.chainId, address, o),
        ).then(
          (m): Verification => (m.match ? { state: 'verified', match: m.match } : { state: 'notVerified' }),
          (e: unknown) => {
            if (isCancel(e)) throw e;
            return { state: 'unknown', message: e instanceof Error ? e.message : String(e) };
          },
        );
    const [r, v] = await Promise.all([results, verification]);
    const balance =
      account && account.balance && typeof account.balance === 'object'
        ? intStr((account.balance as { balance?: unknown }).balance)
        : undefined;
    return {
      kind: 'contract',
      id,
      evmAddress: address,
      balance,
      adminKeyType: keyType(c.admin_key),
      memo: str(c.memo) ?? '',
      deleted: c.deleted === true,
      created: str(c.created_timestamp),
      verification: v,
      results: r,
    };
  }
}

function summarize(items: ContractResult[], more: boolean): ResultsSummary {
  const s: ResultsSummary = { read: items.length, successes: 0, failures: 0, more };
  for (const r of items) {
    const o = outcome(r);
    if (o === 'success') s.successes++;
    else if (o === 'failure') {
      s.failures++;
      s.latestFailure ??= trimmed(r);
    }
  }
  const first = items[0];
  if (first) s.latest = { timestamp: first.timestamp, outcome: outcome(first) };
  return s;
}

function accountInfo(a: MirrorObject): AccountInfo {
  const bal =
    a.balance && typeof a.balance === 'object' ? (a.balance as { balance?: unknown; tokens?: unknown }) : undefined;
  return {
    kind: 'account',
    id: str(a.account) ?? '',
    evmAddress: evm(a.evm_address),
    balance: intStr(bal?.balance),
    tokens: Array.isArray(bal?.tokens) ? bal.tokens.length : undefined,
    keyType: keyType(a.key),
    memo: str(a.memo) ?? '',
    deleted: a.deleted === true,
    created: str(a.created_timestamp),
  };
}

function tokenInfo(t: MirrorObject): TokenInfo {
  return {
    kind: 'token',
    id: str(t.token_id) ?? '',
    name: str(t.name) ?? '',
    symbol: str(t.symbol) ?? '',
    type: str(t.type) ?? '',
    decimals: intStr(t.decimals),
    totalSupply: intStr(t.total_supply),
    treasury: str(t.treasury_account_id),
    adminKeyType: keyType(t.admin_key),
    memo: str(t.memo) ?? '',
    deleted: t.deleted === true,
  };
}

function topicInfo(t: MirrorObject): TopicInfo {
  return {
    kind: 'topic',
    id: str(t.topic_id) ?? '',
    memo: str(t.memo) ?? '',
    adminKeyType: keyType(t.admin_key),
    submitKeyType: keyType(t.submit_key),
    deleted: t.deleted === true,
    created: str(t.created_timestamp),
  };
}

function scheduleInfo(s: MirrorObject, now: number): ScheduleInfo {
  const state = scheduleState(
    {
      executed_timestamp: str(s.executed_timestamp) ?? null,
      deleted: s.deleted === true,
      expiration_time: str(s.expiration_time) ?? null,
      consensus_timestamp: str(s.consensus_timestamp) ?? null,
    },
    now,
  );
  return {
    kind: 'schedule',
    id: str(s.schedule_id) ?? '',
    memo: str(s.memo) ?? '',
    state,
    creator: str(s.creator_account_id),
    payer: str(s.payer_account_id),
    adminKeyType: keyType(s.admin_key),
    created: str(s.consensus_timestamp),
    executed: str(s.executed_timestamp),
  };
}
