/**
 * The ABI of a contract verified on Sourcify: `GET {verifyUrl}/v2/contract/{chainId}/{address}?fields=abi`,
 * fetched on demand (only for the contract whose result is being expanded) and cached per server, chain and
 * address, also when the contract is not verified (404), so one contract costs at most one request a session.
 * A failed request (network, 5xx) is not cached: the next expansion may try again, once. Uses the shared
 * HttpClient (retries, time limits, logging). No `vscode` import.
 */
import type { HttpClient } from '../http';
import { normalizeAbi, type AbiItem } from './abiFiles';

export interface SourcifyAbi {
  address: string;
  chainId: string;
  /** `exact_match`, `match`, ... */
  match?: string;
  abi: AbiItem[];
}

/** The EVM address in a result's `to`/`address`, lowercase, or undefined. */
export function evmAddressOf(v: string | null | undefined): string | undefined {
  const t = (v ?? '').trim().toLowerCase();
  return /^0x[0-9a-f]{40}$/.test(t) ? t : undefined;
}

export class SourcifyAbiCache {
  private readonly cache = new Map<string, Promise<SourcifyAbi | null>>();
  private readonly done = new Map<string, SourcifyAbi | null>();

  constructor(
    private readonly http: () => HttpClient,
    private readonly baseUrl: () => string,
  ) {}

  private key(chainId: string | number, address: string): string {
    return `${this.baseUrl().replace(/\/+$/, '')}|${chainId}|${address.toLowerCase()}`;
  }

  /** The cached answer without asking: an ABI, `null` (not verified), or undefined (not asked yet / failed). */
  peek(chainId: string | number, address: string): SourcifyAbi | null | undefined {
    return this.done.get(this.key(chainId, address));
  }

  /** The ABI, or null when the contract is not verified there (or has no ABI). Throws on a transport failure. */
  get(chainId: string | number, address: string, signal?: AbortSignal): Promise<SourcifyAbi | null> {
    const a = evmAddressOf(address);
    const c = String(chainId).trim();
    if (!a || !/^\d{1,10}$/.test(c)) return Promise.resolve(null);
    const key = this.key(c, a);
    let p = this.cache.get(key);
    if (!p) {
      const url = `${this.baseUrl().replace(/\/+$/, '')}/v2/contract/${c}/${a}?fields=abi`;
      p = this.http()
        .get<unknown>(url, { signal, acceptStatus: [404] })
        .then((res) => {
          const body = res.data && typeof res.data === 'object' ? (res.data as Record<string, unknown>) : {};
          const abi = res.status === 404 ? [] : normalizeAbi(body.abi);
          const out: SourcifyAbi | null = abi.length
            ? { address: a, chainId: c, match: typeof body.match === 'string' ? body.match : undefined, abi }
            : null;
          this.done.set(key, out);
          return out;
        });
      this.cache.set(key, p);
      p.catch(() => {
        if (this.cache.get(key) === p) this.cache.delete(key);
      });
    }
    return p;
  }

  clear(): void {
    this.cache.clear();
    this.done.clear();
  }
}
