/**
 * The state a replay reads, fetched from the network's mirror node as it was just before the transaction: storage
 * slots (`/contracts/{id}/state?timestamp=lt:T&slot=S`), accounts and their balances (`/accounts/{id}?timestamp=lt:T`),
 * contracts' code (`/contracts/{id}`) and the block (`/blocks/{number}`). Every answer is cached (nothing is asked twice), every request counted
 * against a cap, at most `parallel` in flight at once, and every answer checked for its shape: a value that is not
 * what the mirror node sends (a slot value that is not 32 bytes, a balance that is not a whole number, a code that
 * is not hex) ends the replay with a sentence, never a guess. Plain TypeScript, no `vscode`.
 */
import * as l10n from '@vscode/l10n';
import { ApiError } from '../errors';
import type { HttpClient } from '../http';
import type { MirrorClient } from '../mirror';

/** Why a replay stopped: a sentence for the user, and what kind of fault it was. */
export class ReplayError extends Error {
  constructor(
    message: string,
    readonly kind: 'budget' | 'cancelled' | 'mirror' | 'malformed' | 'unsupported',
    readonly cause?: unknown,
  ) {
    super(message);
    this.name = 'ReplayError';
  }
}

export interface AccountState {
  /** The EVM address the account acts with (its alias, its contract address, else its long-zero address). */
  evmAddress: string;
  /** Entity id (`0.0.x`). */
  entity: string | null;
  /** Tinybars. */
  balance: bigint;
  nonce: bigint;
  /** Runtime code (hex without 0x), empty for an account without code. */
  code: string;
  isContract: boolean;
}

export interface FetchStats {
  requests: number;
  /** Bytes of the answers' JSON bodies (as re-serialized: close to what came over the wire). */
  bytes: number;
  slotRequests: number;
  accountRequests: number;
  contractRequests: number;
  blockRequests: number;
}

export interface MirrorStateOptions {
  signal?: AbortSignal;
  /** Most requests for one replay (default 500). */
  maxRequests?: number;
  /** Requests in flight at once (default 4). */
  parallel?: number;
}

const HEX = /^0x[0-9a-fA-F]*$/;
const WORD = /^0x[0-9a-fA-F]{1,64}$/;
const ADDRESS = /^0x[0-9a-fA-F]{40}$/;
/** Hedera's block hash: 48 bytes (SHA-384); the EVM sees its first 32, so fewer is not a block hash. */
const BLOCK_HASH = /^0x(?:[0-9a-fA-F]{2}){32,48}$/;
const MAX_CODE_HEX = 2 * 64 * 1024; // far past the 24 KiB a contract can hold

const isObject = (v: unknown): v is Record<string, unknown> => !!v && typeof v === 'object' && !Array.isArray(v);

/** The long-zero address of `0.0.n`. */
export function longZeroOf(entity: string): string | null {
  const m = /^0\.0\.(\d{1,12})$/.exec(entity);
  return m ? `0x${BigInt(m[1]).toString(16).padStart(40, '0')}` : null;
}

/** `0.0.n` of a long-zero address, else null. */
export function entityOfLongZero(address: string): string | null {
  const h = address.toLowerCase().replace(/^0x/, '');
  return /^0{24}[0-9a-f]{16}$/.test(h) ? `0.0.${BigInt(`0x${h.slice(24)}`)}` : null;
}

/** A whole number from the wire (number, bigint or digits), else undefined. */
export function wholeOf(v: unknown): bigint | undefined {
  if (typeof v === 'bigint') return v;
  if (typeof v === 'number' && Number.isSafeInteger(v)) return BigInt(v);
  if (typeof v === 'string' && /^\d{1,78}$/.test(v)) return BigInt(v);
  return undefined;
}

/** A 32-byte word (0x + 64 hex, lower case) from a value of up to 32 bytes. */
export function word32(v: string): string {
  return `0x${v.toLowerCase().replace(/^0x/, '').padStart(64, '0')}`;
}

export class MirrorState {
  readonly stats: FetchStats = {
    requests: 0,
    bytes: 0,
    slotRequests: 0,
    accountRequests: 0,
    contractRequests: 0,
    blockRequests: 0,
  };
  private readonly slots = new Map<string, Promise<string>>();
  private readonly accounts = new Map<string, Promise<AccountState | null>>();
  private readonly contracts = new Map<string, Promise<Record<string, unknown> | null>>();
  private readonly blocks = new Map<bigint, Promise<{ hash: string; from: string } | null>>();
  private readonly maxRequests: number;
  private readonly parallel: number;
  private running = 0;
  private readonly waiting: Array<() => void> = [];
  /** Slots asked for although the record does not list them: `address|slot`. */
  readonly unlistedSlots: string[] = [];

  constructor(
    private readonly mirror: MirrorClient,
    private readonly http: HttpClient,
    /** The transaction's consensus timestamp (`sss.nnnnnnnnn`): the state is the one before it. */
    readonly timestamp: string,
    private readonly options: MirrorStateOptions = {},
  ) {
    this.maxRequests = options.maxRequests ?? 500;
    this.parallel = Math.max(1, options.parallel ?? 4);
  }

  /** One GET within the bounds (cap, parallelism, cancellation); 404 answers null. */
  async get(path: string, query: string, what: string): Promise<unknown> {
    if (this.options.signal?.aborted) throw new ReplayError(l10n.t('The replay was cancelled.'), 'cancelled');
    if (this.stats.requests >= this.maxRequests)
      throw new ReplayError(
        l10n.t(
          'The replay needed more than {0} requests to the mirror node ({1}); it was stopped there.',
          String(this.maxRequests),
          what,
        ),
        'budget',
      );
    this.stats.requests++;
    if (this.running >= this.parallel) await new Promise<void>((r) => this.waiting.push(r));
    this.running++;
    try {
      const res = await this.http.get<unknown>(this.mirror.apiUrl(path, query), {
        signal: this.options.signal,
        acceptStatus: [404],
      });
      this.stats.bytes += res.data === undefined ? 0 : jsonSize(res.data);
      return res.status === 404 ? null : res.data;
    } catch (e) {
      if (e instanceof ApiError && e.kind === 'cancelled')
        throw new ReplayError(l10n.t('The replay was cancelled.'), 'cancelled', e);
      const why = e instanceof Error ? e.message : String(e);
      throw new ReplayError(l10n.t('The mirror node could not give {0}: {1}', what, why), 'mirror', e);
    } finally {
      this.running--;
      this.waiting.shift()?.();
    }
  }

  /** Seeds a slot's value before the transaction (the record's `value_read`): no request for it. */
  seedSlot(address: string, slot: string, value: string): void {
    this.slots.set(`${address.toLowerCase()}|${word32(slot)}`, Promise.resolve(word32(value)));
  }

  hasSlot(address: string, slot: string): boolean {
    return this.slots.has(`${address.toLowerCase()}|${word32(slot)}`);
  }

  /** A slot's value before the transaction (0x + 64 hex). */
  slot(address: string, slot: string): Promise<string> {
    const key = `${address.toLowerCase()}|${word32(slot)}`;
    let p = this.slots.get(key);
    if (!p) {
      this.unlistedSlots.push(key);
      p = this.fetchSlot(address.toLowerCase(), word32(slot));
      this.slots.set(key, p);
    }
    return p;
  }

  private async fetchSlot(address: string, slot: string): Promise<string> {
    this.stats.slotRequests++;
    const what = l10n.t('slot {0} of {1} before {2}', slot, address, this.timestamp);
    const body = await this.get(
      `/contracts/${address}/state`,
      `timestamp=lt:${this.timestamp}&slot=${slot}&limit=1`,
      what,
    );
    if (body === null) return word32('0');
    if (!isObject(body) || !Array.isArray(body.state))
      throw new ReplayError(l10n.t('The mirror node\'s answer for {0} has no "state" list.', what), 'malformed');
    // no row: the slot was never written before that time, so it holds zero
    const row = body.state.find((r) => isObject(r) && typeof r.slot === 'string' && word32(r.slot) === slot);
    if (row === undefined) {
      if (body.state.length > 0)
        throw new ReplayError(
          l10n.t('The mirror node answered {0} with other slots than the one asked for.', what),
          'malformed',
        );
      return word32('0');
    }
    const v = (row as Record<string, unknown>).value;
    if (typeof v !== 'string' || !WORD.test(v))
      throw new ReplayError(l10n.t("The mirror node's value for {0} is not a 32-byte word.", what), 'malformed');
    return word32(v);
  }

  /**
   * A block (`/blocks/{number}`): its hash (Hedera's 48 bytes, or at least the 32 the EVM sees) and first timestamp;
   * null when the mirror node has none. Asked once per number.
   */
  block(number: bigint): Promise<{ hash: string; from: string } | null> {
    let p = this.blocks.get(number);
    if (!p) {
      this.stats.blockRequests++;
      p = this.fetchBlock(number);
      this.blocks.set(number, p);
    }
    return p;
  }

  private async fetchBlock(number: bigint): Promise<{ hash: string; from: string } | null> {
    const what = l10n.t('block {0}', String(number));
    const b = await this.get(`/blocks/${number}`, '', what);
    if (b === null) return null;
    const t = isObject(b) && isObject(b.timestamp) ? b.timestamp.from : undefined;
    if (
      !isObject(b) ||
      typeof b.hash !== 'string' ||
      !BLOCK_HASH.test(b.hash) ||
      typeof t !== 'string' ||
      !/^\d{1,12}\.\d{9}$/.test(t)
    )
      throw new ReplayError(l10n.t("The mirror node's answer for {0} has no hash or no timestamp.", what), 'malformed');
    return { hash: b.hash.toLowerCase(), from: t };
  }

  /** A contract (`/contracts/{id}`), null when the mirror node has none. */
  contract(idOrAddress: string): Promise<Record<string, unknown> | null> {
    const key = idOrAddress.toLowerCase();
    let p = this.contracts.get(key);
    if (!p) {
      this.stats.contractRequests++;
      p = this.get(`/contracts/${key}`, '', l10n.t('the contract {0}', key)).then((b) => {
        if (b !== null && !isObject(b))
          throw new ReplayError(
            l10n.t("The mirror node's answer for the contract {0} is not an object.", key),
            'malformed',
          );
        return b;
      });
      this.contracts.set(key, p);
    }
    return p;
  }

  /**
   * An account as it was before the transaction, with its code when it is a contract; null when the mirror node
   * knows none with that address.
   */
  account(idOrAddress: string, knownContract = false): Promise<AccountState | null> {
    const key = idOrAddress.toLowerCase();
    let p = this.accounts.get(key);
    if (!p) {
      p = this.fetchAccount(key, knownContract);
      this.accounts.set(key, p);
    }
    return p;
  }

  private async fetchAccount(key: string, knownContract: boolean): Promise<AccountState | null> {
    this.stats.accountRequests++;
    const what = l10n.t('the account {0} before {1}', key, this.timestamp);
    // a contract's code and its balance come from two endpoints: ask both at once when it is known to be one
    const [accountBody, contractBody] = await Promise.all([
      this.get(`/accounts/${key}`, `timestamp=lt:${this.timestamp}&transactions=false`, what),
      knownContract ? this.contract(key) : Promise.resolve(undefined),
    ]);
    if (accountBody === null && !contractBody) return null;
    if (accountBody !== null && !isObject(accountBody))
      throw new ReplayError(l10n.t("The mirror node's answer for {0} is not an object.", what), 'malformed');
    const a = (accountBody ?? {}) as Record<string, unknown>;
    const balanceObj = a.balance;
    let balance = 0n;
    if (accountBody !== null) {
      const b = isObject(balanceObj) ? wholeOf(balanceObj.balance) : undefined;
      if (b === undefined)
        throw new ReplayError(
          l10n.t("The mirror node's balance for {0} is not a whole number of tinybars.", what),
          'malformed',
        );
      balance = b;
    }
    let c = contractBody;
    if (c === undefined && accountBody !== null && a.type === 'CONTRACT') c = await this.contract(key);
    const evmRaw = typeof a.evm_address === 'string' ? a.evm_address : c && c.evm_address;
    const entityRaw = typeof a.account === 'string' ? a.account : c && c.contract_id;
    const evm = typeof evmRaw === 'string' && ADDRESS.test(evmRaw) ? evmRaw.toLowerCase() : null;
    const entity = typeof entityRaw === 'string' && /^\d+\.\d+\.\d+$/.test(entityRaw) ? entityRaw : null;
    let code = '';
    if (c) {
      const rc = c.runtime_bytecode;
      if (typeof rc !== 'string' || !HEX.test(rc) || rc.length % 2 !== 0 || rc.length > MAX_CODE_HEX)
        throw new ReplayError(
          l10n.t("The mirror node's runtime code of the contract {0} is not bytecode.", key),
          'malformed',
        );
      code = rc.slice(2).toLowerCase();
    }
    const nonceRaw = c ? c.nonce : a.ethereum_nonce;
    const nonce = wholeOf(nonceRaw) ?? 0n;
    return {
      evmAddress: evm ?? (entity ? (longZeroOf(entity) ?? key) : key),
      entity,
      balance,
      nonce,
      code,
      isContract: !!c,
    };
  }
}

/** The size of a parsed JSON body (its digits as written, bigints included). */
function jsonSize(v: unknown): number {
  try {
    return JSON.stringify(v, (_k, x: unknown) => (typeof x === 'bigint' ? Number(x) : x)).length;
  } catch {
    return 0;
  }
}
