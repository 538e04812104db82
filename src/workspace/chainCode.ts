/**
 * One cache of the mirror node's `GET /contracts/{id or address}` (a contract's EVM address and the code on chain),
 * shared by every feature that asks (verification, the Deployments view, revert to source, "Decoded with"): keyed
 * by network and by both forms of a contract, so a contract asked by entity id and then by EVM address (its
 * long-zero one or its own) is one request. An answer is filed under every form it names. A failed request is not
 * kept (the next ask tries again), nor by default is "no such contract" (a contract just created may not be on the
 * mirror node yet: Refresh asks again); at most `max` contracts are kept, the least recently asked dropped first.
 */
import { cancelledError } from '../api/errors';
import type { RequestOptions } from '../api/http';
import { evmAddressToEntityId, isEntityId } from '../api/entityAddress';

/** The mirror node's contract JSON, or null when it has none (404). */
export type ContractBody = Record<string, unknown> | null;

/** The request behind the cache (`MirrorClient.contract`). */
export interface ContractRequester {
  contract(idOrAddress: string, options?: RequestOptions): Promise<ContractBody>;
}

export interface ChainCodeOptions {
  /** Contracts kept at most (default 500). */
  max?: number;
  /** How long a "no such contract" answer is kept, ms (default 0: asked again on the next ask once answered). */
  missingMs?: number;
  now?: () => number;
}

interface Entry {
  value: Promise<ContractBody>;
  /** When the answer stops being used (a missing contract); undefined: kept while there is room. */
  until?: number;
}

/** The forms a contract is filed under: `0.0.1234` for an entity id or a long-zero address, else the EVM address. */
function formOf(idOrAddress: string): string {
  const s = idOrAddress.trim().toLowerCase();
  if (/^(0x)?[0-9a-f]{40}$/.test(s)) {
    const address = s.startsWith('0x') ? s : `0x${s}`;
    return evmAddressToEntityId(address) ?? address;
  }
  return s;
}

export class ChainCodeCache {
  private readonly entries = new Map<string, Entry>();
  private readonly max: number;
  private readonly missingMs: number;
  private readonly now: () => number;

  constructor(
    /** The selected network's key (its mirror node URL) and client, read on every ask (`contract`). */
    private readonly network: () => { key: string; mirror: ContractRequester },
    opts: ChainCodeOptions = {},
  ) {
    this.max = Math.max(1, opts.max ?? 500);
    this.missingMs = opts.missingMs ?? 0;
    this.now = opts.now ?? Date.now;
  }

  /**
   * The contract's JSON (one request per contract and network while it is kept). A caller's `signal` stops its own
   * wait (it rejects as cancelled) but not the request, which others may be waiting on too.
   */
  contract(idOrAddress: string, options: { signal?: AbortSignal } = {}): Promise<ContractBody> {
    return this.ask(this.network(), idOrAddress, options);
  }

  /** The same cache for another network than the selected one (a panel of the network a transaction was on). */
  on(network: () => { key: string; mirror: ContractRequester }): {
    contract(idOrAddress: string, options?: { signal?: AbortSignal }): Promise<ContractBody>;
  } {
    return { contract: (idOrAddress, options = {}) => this.ask(network(), idOrAddress, options) };
  }

  private ask(
    { key: network, mirror }: { key: string; mirror: ContractRequester },
    idOrAddress: string,
    options: { signal?: AbortSignal },
  ): Promise<ContractBody> {
    const key = `${network}|${formOf(idOrAddress)}`;
    let entry = this.entries.get(key);
    if (entry && entry.until !== undefined && entry.until <= this.now()) {
      this.entries.delete(key);
      entry = undefined;
    }
    if (entry) {
      // most recently asked last: the first in the map is dropped first
      this.entries.delete(key);
      this.entries.set(key, entry);
    } else {
      const value = mirror.contract(idOrAddress);
      const asked: Entry = { value };
      entry = asked;
      this.put(key, asked);
      value.then(
        (body) => {
          if (this.entries.get(key) !== asked) return;
          if (body === null) asked.until = this.now() + this.missingMs;
          else
            for (const form of formsIn(body)) if (`${network}|${form}` !== key) this.put(`${network}|${form}`, asked);
        },
        () => {
          if (this.entries.get(key) === asked) this.entries.delete(key);
        },
      );
    }
    return waitFor(entry.value, options.signal);
  }

  /** Forgets every answer (e.g. the user asked to look again). */
  clear(): void {
    this.entries.clear();
  }

  /** How many forms are filed (tests). */
  get size(): number {
    return this.entries.size;
  }

  private put(key: string, entry: Entry): void {
    this.entries.delete(key);
    this.entries.set(key, entry);
    while (this.entries.size > this.max) {
      const oldest = this.entries.keys().next().value as string;
      this.entries.delete(oldest);
    }
  }
}

/** The forms a contract's JSON names: its entity id (also its long-zero address) and its own EVM address. */
function formsIn(body: Record<string, unknown>): string[] {
  const forms: string[] = [];
  if (typeof body.contract_id === 'string' && isEntityId(body.contract_id)) forms.push(body.contract_id.toLowerCase());
  if (typeof body.evm_address === 'string' && /^0x[0-9a-fA-F]{40}$/.test(body.evm_address))
    forms.push(formOf(body.evm_address));
  return [...new Set(forms)];
}

function waitFor<T>(p: Promise<T>, signal: AbortSignal | undefined): Promise<T> {
  if (!signal) return p;
  const cancelled = () => cancelledError();
  if (signal.aborted) return Promise.reject(cancelled());
  return new Promise<T>((resolve, reject) => {
    const onAbort = () => reject(cancelled());
    signal.addEventListener('abort', onAbort, { once: true });
    p.then(
      (v) => {
        signal.removeEventListener('abort', onAbort);
        resolve(v);
      },
      (e: unknown) => {
        signal.removeEventListener('abort', onAbort);
        reject(e instanceof Error ? e : new Error(String(e)));
      },
    );
  });
}
