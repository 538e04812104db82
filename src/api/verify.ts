/**
 * Contract verification on a Sourcify server: the session import endpoint
 * `POST {verifyUrl}/session/verify/{explorer}` with `{address, chainId, apiKey}`.
 * The API key travels only in this request's body; it is never logged (the HTTP layer logs no bodies).
 */
import { ApiError, invalidInput } from './errors';
import { HttpClient, RequestOptions } from './http';
import type { Open } from './mirrorTypes';
import { checkEvmAddress, unwrap } from './validation';

export type VerificationStatus = Open<'perfect' | 'partial' | 'extra-file-input-bug' | 'error'>;

export interface MissingFile {
  path: string;
  keccak256?: string;
  urls?: string[];
}

export interface InvalidFile {
  path: string;
  reason: string;
}

export interface VerifiedContract {
  name: string;
  address: string;
  chainId: string;
  status: VerificationStatus;
  statusMessage?: string;
  compiledPath?: string;
  compilerVersion?: string;
  verificationId?: string;
  storageTimestamp?: string;
  found: string[];
  missing: MissingFile[];
  invalid: InvalidFile[];
}

export interface SessionVerifyResult {
  contracts: VerifiedContract[];
  /** Files the server received that no contract uses. */
  unused: string[];
  /** Every file in the session. */
  files: string[];
}

export interface SessionVerifyRequest {
  address: string;
  chainId: number | string;
  apiKey?: string;
  /** Last path segment: which explorer to import from (default `etherscan`). */
  explorer?: string;
}

const obj = (v: unknown): Record<string, unknown> => (v && typeof v === 'object' && !Array.isArray(v) ? (v as Record<string, unknown>) : {});
const strings = (v: unknown): string[] => (Array.isArray(v) ? v.filter((x): x is string => typeof x === 'string') : []);
const optStr = (v: unknown): string | undefined => (typeof v === 'string' && v ? v : typeof v === 'number' || typeof v === 'bigint' ? String(v) : undefined);

/** `missing` as an array of paths (original description) or an object keyed by path (real server). */
export function parseMissing(v: unknown): MissingFile[] {
  if (Array.isArray(v)) {
    return v.map((m) => {
      if (typeof m === 'string') return { path: m };
      const o = obj(m);
      return { path: optStr(o.path) ?? optStr(o.name) ?? '(unnamed file)', keccak256: optStr(o.keccak256), urls: strings(o.urls) };
    });
  }
  return Object.entries(obj(v)).map(([path, m]) => {
    const o = obj(m);
    return { path, keccak256: optStr(o.keccak256), urls: strings(o.urls) };
  });
}

function reasonOf(v: unknown): string {
  if (typeof v === 'string') return v;
  const o = obj(v);
  const msg = optStr(o.msg) ?? optStr(o.message) ?? optStr(o.reason);
  if (msg) return msg;
  if (o.expectedHash || o.calculatedHash) return `expected hash ${optStr(o.expectedHash) ?? '?'}, got ${optStr(o.calculatedHash) ?? '?'}`;
  return 'invalid';
}

export function parseInvalid(v: unknown): InvalidFile[] {
  if (Array.isArray(v)) return v.map((x) => (typeof x === 'string' ? { path: x, reason: 'invalid' } : { path: optStr(obj(x).path) ?? '(unnamed file)', reason: reasonOf(x) }));
  return Object.entries(obj(v)).map(([path, r]) => ({ path, reason: reasonOf(r) }));
}

/** Normalises the 200 body of the session endpoint. */
export function parseSessionResult(body: unknown, url = ''): SessionVerifyResult {
  const b = obj(body);
  if (!Array.isArray(b.contracts)) {
    throw new ApiError({ kind: 'malformed', message: 'The verification server answered without a list of contracts.', url });
  }
  const contracts = b.contracts.map((c): VerifiedContract => {
    const o = obj(c);
    const files = obj(o.files);
    return {
      name: optStr(o.name) ?? '(unnamed contract)',
      address: optStr(o.address) ?? '',
      chainId: optStr(o.chainId) ?? optStr(o.chain) ?? '',
      status: optStr(o.status) ?? 'unknown',
      statusMessage: optStr(o.statusMessage),
      compiledPath: optStr(o.compiledPath),
      compilerVersion: optStr(o.compilerVersion),
      verificationId: optStr(o.verificationId),
      storageTimestamp: optStr(o.storageTimestamp),
      found: strings(files.found),
      missing: parseMissing(files.missing),
      invalid: parseInvalid(files.invalid),
    };
  });
  return { contracts, unused: strings(b.unused), files: strings(b.files) };
}

export class VerifyClient {
  readonly baseUrl: string;

  /** `baseUrl`: the Sourcify server, e.g. https://sourcify.dev/server */
  constructor(baseUrl: string, private readonly http: HttpClient) {
    this.baseUrl = baseUrl.replace(/\/+$/, '');
  }

  /** Imports and verifies a contract from an explorer through the session endpoint. */
  async sessionVerify(req: SessionVerifyRequest, options?: RequestOptions): Promise<SessionVerifyResult> {
    const address = unwrap(checkEvmAddress(req.address));
    const chainId = String(req.chainId).trim();
    if (!/^\d{1,10}$/.test(chainId)) throw invalidInput(`"${chainId.slice(0, 40)}" is not a chain id.`);
    const explorer = (req.explorer ?? 'etherscan').trim();
    if (!/^[a-z0-9][a-z0-9-]{0,40}$/i.test(explorer)) throw invalidInput(`"${explorer.slice(0, 40)}" is not an explorer name (letters, digits and dashes).`);
    const body: Record<string, string> = { address, chainId };
    if (req.apiKey) body.apiKey = req.apiKey;
    const url = `${this.baseUrl}/session/verify/${encodeURIComponent(explorer)}`;
    const res = await this.http.post<unknown>(url, body, options);
    return parseSessionResult(res.data, res.url);
  }
}
