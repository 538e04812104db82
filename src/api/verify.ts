/**
 * Contract verification on a Sourcify server:
 * - the session import endpoint `POST {verifyUrl}/session/verify/{explorer}` with `{address, chainId, apiKey}`
 *   (as specified; self-hosted and older servers). The API key travels only in this request's body; it is never
 *   logged (the HTTP layer logs no bodies);
 * - Sourcify API v2 (today's sourcify.dev): `GET /v2/contract/{chainId}/{address}` (already verified?),
 *   `POST /v2/verify/{chainId}/{address}` with the standard JSON input, then `GET /v2/verify/{verificationId}`
 *   polled with backoff until the job ends (cancellable through the AbortSignal).
 */
import * as l10n from '@vscode/l10n';
import { ApiError, cancelledError, invalidInput, isApiError } from './errors';
import { type HttpClient, type HttpResponse, type RequestOptions } from './http';
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

const obj = (v: unknown): Record<string, unknown> =>
  v && typeof v === 'object' && !Array.isArray(v) ? (v as Record<string, unknown>) : {};
const strings = (v: unknown): string[] => (Array.isArray(v) ? v.filter((x): x is string => typeof x === 'string') : []);
const optStr = (v: unknown): string | undefined =>
  typeof v === 'string' && v ? v : typeof v === 'number' || typeof v === 'bigint' ? String(v) : undefined;

/** `missing` as an array of paths (original description) or an object keyed by path (real server). */
export function parseMissing(v: unknown): MissingFile[] {
  if (Array.isArray(v)) {
    return v.map((m) => {
      if (typeof m === 'string') return { path: m };
      const o = obj(m);
      return {
        path: optStr(o.path) ?? optStr(o.name) ?? '(unnamed file)',
        keccak256: optStr(o.keccak256),
        urls: strings(o.urls),
      };
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
  if (o.expectedHash || o.calculatedHash)
    return `expected hash ${optStr(o.expectedHash) ?? '?'}, got ${optStr(o.calculatedHash) ?? '?'}`;
  return 'invalid';
}

export function parseInvalid(v: unknown): InvalidFile[] {
  if (Array.isArray(v))
    return v.map((x) =>
      typeof x === 'string'
        ? { path: x, reason: 'invalid' }
        : { path: optStr(obj(x).path) ?? '(unnamed file)', reason: reasonOf(x) },
    );
  return Object.entries(obj(v)).map(([path, r]) => ({ path, reason: reasonOf(r) }));
}

/** Normalises the 200 body of the session endpoint. */
export function parseSessionResult(body: unknown, url = ''): SessionVerifyResult {
  const b = obj(body);
  if (!Array.isArray(b.contracts)) {
    throw new ApiError({
      kind: 'malformed',
      message: l10n.t('The verification server answered without a list of contracts.'),
      url,
    });
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
  constructor(
    baseUrl: string,
    private readonly http: HttpClient,
  ) {
    this.baseUrl = baseUrl.replace(/\/+$/, '');
  }

  /** Imports and verifies a contract from an explorer through the session endpoint. */
  async sessionVerify(req: SessionVerifyRequest, options?: RequestOptions): Promise<SessionVerifyResult> {
    const address = unwrap(checkEvmAddress(req.address));
    const chainId = String(req.chainId).trim();
    if (!/^\d{1,10}$/.test(chainId)) throw invalidInput(l10n.t('"{0}" is not a chain id.', chainId.slice(0, 40)));
    const explorer = (req.explorer ?? 'etherscan').trim();
    if (!/^[a-z0-9][a-z0-9-]{0,40}$/i.test(explorer))
      throw invalidInput(l10n.t('"{0}" is not an explorer name (letters, digits and dashes).', explorer.slice(0, 40)));
    const body: Record<string, string> = { address, chainId };
    if (req.apiKey) body.apiKey = req.apiKey;
    const url = `${this.baseUrl}/session/verify/${encodeURIComponent(explorer)}`;
    const res = await this.http.post<unknown>(url, body, options);
    return parseSessionResult(res.data, res.url);
  }
}

/* ------------------------------------------------------------------ Sourcify API v2 */

/** `exact_match`, `match`, or null (not verified); other values are kept as they are. */
export type MatchKind = Open<'exact_match' | 'match'> | null;

export interface ContractMatch {
  match: MatchKind;
  creationMatch: MatchKind;
  runtimeMatch: MatchKind;
  chainId: string;
  address: string;
  verifiedAt?: string;
  matchId?: string;
}

export interface JobError {
  customCode?: string;
  message: string;
  errorId?: string;
  /** Compiler errors and other detail lines. */
  details: string[];
  /**
   * Byte lengths of the codes a matching error carries (`no_match`, `bytecode_length_mismatch`,
   * `extra_file_input_bug`...: the real server sends `onchainRuntimeCode`, `recompiledRuntimeCode`,
   * `onchainCreationCode`, `recompiledCreationCode` next to `customCode`); only those it sent.
   */
  codeLengths?: CodeLengths;
  /** The deployed runtime code the error carries (hex with 0x): for comparing builds, not kept in results. */
  onchainRuntimeCode?: string;
}

export interface CodeLengths {
  onchainRuntime?: number;
  recompiledRuntime?: number;
  onchainCreation?: number;
  recompiledCreation?: number;
}

export interface VerificationJob {
  verificationId: string;
  isJobCompleted: boolean;
  jobStartTime?: string;
  jobFinishTime?: string;
  compilationTime?: string;
  contract: ContractMatch;
  error?: JobError;
}

export interface StdJsonVerifyRequest {
  chainId: number | string;
  address: string;
  /** The compiler's standard JSON input, with `language`. */
  stdJsonInput: Record<string, unknown>;
  /** `0.8.28+commit.7893614a` */
  compilerVersion: string;
  /** `path/to/File.sol:ContractName` */
  contractIdentifier: string;
  creationTransactionHash?: string;
}

export interface PollOptions {
  signal?: AbortSignal;
  /** First wait between polls (default 1 000 ms), multiplied by `factor` (default 1.5) up to `maxPollMs` (default 8 000). */
  pollMs?: number;
  factor?: number;
  maxPollMs?: number;
  /** Give up after this long (default 10 minutes). */
  timeoutMs?: number;
  /** Called after every poll (progress). */
  onPoll?: (job: VerificationJob, polls: number) => void;
}

const matchOf = (v: unknown): MatchKind => (typeof v === 'string' && v ? v : null);

export function parseContractMatch(body: unknown, fallback: { chainId: string; address: string }): ContractMatch {
  const o = obj(body);
  return {
    match: matchOf(o.match),
    creationMatch: matchOf(o.creationMatch),
    runtimeMatch: matchOf(o.runtimeMatch),
    chainId: optStr(o.chainId) ?? fallback.chainId,
    address: optStr(o.address) ?? fallback.address,
    verifiedAt: optStr(o.verifiedAt),
    matchId: optStr(o.matchId),
  };
}

export function parseJobError(v: unknown): JobError | undefined {
  if (v === undefined || v === null) return undefined;
  const o = obj(v);
  const details: string[] = [];
  const data = obj(o.errorData);
  for (const ce of Array.isArray(data.compilerErrors) ? data.compilerErrors : []) {
    const e = obj(ce);
    const text =
      optStr(e.formattedMessage)?.split('\n')[0] ?? [optStr(e.type), optStr(e.message)].filter(Boolean).join(': ');
    if (text) details.push(text);
  }
  if (typeof o.creationTransactionHash === 'string') details.push(`creation transaction ${o.creationTransactionHash}`);
  // the codes: next to customCode (the real server), or inside errorData
  const code = (name: string): string | undefined => hexCode(o[name]) ?? hexCode(data[name]);
  const lengths: CodeLengths = {};
  for (const [key, name] of [
    ['onchainRuntime', 'onchainRuntimeCode'],
    ['recompiledRuntime', 'recompiledRuntimeCode'],
    ['onchainCreation', 'onchainCreationCode'],
    ['recompiledCreation', 'recompiledCreationCode'],
  ] as const) {
    const c = code(name);
    if (c !== undefined) lengths[key] = (c.length - 2) / 2;
  }
  const onchainRuntimeCode = code('onchainRuntimeCode');
  return {
    customCode: optStr(o.customCode),
    message: optStr(o.message) ?? optStr(o.customCode) ?? 'The verification failed.',
    errorId: optStr(o.errorId),
    details,
    ...(Object.keys(lengths).length ? { codeLengths: lengths } : {}),
    ...(onchainRuntimeCode ? { onchainRuntimeCode } : {}),
  };
}

/** A bytecode as the server sends it (`0x` and an even number of hex digits), lowercase; undefined otherwise. */
function hexCode(v: unknown): string | undefined {
  return typeof v === 'string' && /^0x(?:[0-9a-fA-F]{2})*$/.test(v) ? v.toLowerCase() : undefined;
}

/** Normalises `GET /v2/verify/{verificationId}`. */
export function parseJob(body: unknown, url = ''): VerificationJob {
  const o = obj(body);
  const id = optStr(o.verificationId);
  if (!id || typeof o.isJobCompleted !== 'boolean') {
    throw new ApiError({
      kind: 'malformed',
      message: l10n.t('The verification server answered without a job status.'),
      url,
    });
  }
  const c = obj(o.contract);
  const contract = parseContractMatch(c, { chainId: optStr(c.chainId) ?? '', address: optStr(c.address) ?? '' });
  const error = parseJobError(o.error);
  // the real server's completed job has contract.match (verified) or error (failed); neither is no answer at all
  if (o.isJobCompleted && contract.match === null && !error) {
    throw new ApiError({
      kind: 'malformed',
      message: l10n.t(
        'The verification server says job {0} is completed but gives neither a match nor an error.',
        id.slice(0, 100),
      ),
      url,
    });
  }
  return {
    verificationId: id,
    isJobCompleted: o.isJobCompleted,
    jobStartTime: optStr(o.jobStartTime),
    jobFinishTime: optStr(o.jobFinishTime),
    compilationTime: optStr(o.compilationTime),
    contract,
    error,
  };
}

/** The `customCode` of a Sourcify v2 error answer (`already_verified`, `duplicate_verification_request`, ...). */
export function sourcifyCode(e: unknown): string | undefined {
  return isApiError(e) ? e.serverCode : undefined;
}

/** 404 codes that are not "this contract is not verified": an unknown chain (servers before 2026-01), no such route (no API v2). */
const LOOKUP_404_ERRORS = new Set(['unsupported_chain', 'route_not_found', 'invalid_parameter']);

function checkChain(chainId: number | string): string {
  const c = String(chainId).trim();
  if (!/^\d{1,10}$/.test(c)) throw invalidInput(l10n.t('"{0}" is not a chain id.', c.slice(0, 40)));
  return c;
}

function abortableSleep(ms: number, signal?: AbortSignal): Promise<void> {
  return new Promise((resolve, reject) => {
    const stop = () => reject(cancelledError());
    if (signal?.aborted) return stop();
    const t = setTimeout(() => {
      signal?.removeEventListener('abort', onAbort);
      resolve();
    }, ms);
    const onAbort = () => {
      clearTimeout(t);
      stop();
    };
    signal?.addEventListener('abort', onAbort, { once: true });
  });
}

export class SourcifyV2Client {
  readonly baseUrl: string;

  constructor(
    baseUrl: string,
    private readonly http: HttpClient,
  ) {
    this.baseUrl = baseUrl.replace(/\/+$/, '');
  }

  /** `GET /v2/contract/{chainId}/{address}`: the match, or `match: null` when the contract is not verified (404). */
  async lookup(chainId: number | string, address: string, options: RequestOptions = {}): Promise<ContractMatch> {
    const a = unwrap(checkEvmAddress(address));
    const c = checkChain(chainId);
    try {
      const res = await this.http.get<unknown>(`${this.baseUrl}/v2/contract/${c}/${a}`, options);
      return parseContractMatch(res.data, { chainId: c, address: a });
    } catch (e) {
      // 404 {match: null, ...} (no customCode) is "not verified"; a 404 naming an error code is an error
      if (isApiError(e) && e.status === 404 && !LOOKUP_404_ERRORS.has(e.serverCode ?? ''))
        return parseContractMatch({ match: null }, { chainId: c, address: a });
      throw e;
    }
  }

  /**
   * `POST /v2/verify/{chainId}/{address}`: starts a job and returns its verificationId (202). A partial match is
   * accepted too: the job upgrades it to `exact_match` or ends in `already_verified`. Errors are ApiErrors with the
   * server's `customCode`: 409 `already_verified`, 429 `duplicate_verification_request` (a job is running: not a rate
   * limit) or `too_many_requests`, 400 `unsupported_chain` / `invalid_parameter`.
   */
  async submit(req: StdJsonVerifyRequest, options: RequestOptions = {}): Promise<string> {
    const a = unwrap(checkEvmAddress(req.address));
    const c = checkChain(req.chainId);
    if (!/^v?\d+\.\d+\.\d+/.test(req.compilerVersion))
      throw invalidInput(
        l10n.t('"{0}" is not a compiler version such as 0.8.28+commit.7893614a.', req.compilerVersion.slice(0, 40)),
      );
    if (!/^.+:[A-Za-z_$][\w$]*$/.test(req.contractIdentifier))
      throw invalidInput(
        l10n.t(
          '"{0}" is not a contract identifier of the form path/to/File.sol:Name.',
          req.contractIdentifier.slice(0, 80),
        ),
      );
    const body: Record<string, unknown> = {
      stdJsonInput: req.stdJsonInput,
      compilerVersion: req.compilerVersion,
      contractIdentifier: req.contractIdentifier,
    };
    if (req.creationTransactionHash) body.creationTransactionHash = req.creationTransactionHash;
    const url = `${this.baseUrl}/v2/verify/${c}/${a}`;
    let res: HttpResponse<unknown>;
    try {
      res = await this.http.post<unknown>(url, body, options);
    } catch (e) {
      if (isApiError(e) && e.status === 429 && e.serverCode === 'duplicate_verification_request') {
        throw new ApiError({
          kind: 'http',
          status: e.status,
          url: e.url,
          serverMessages: e.serverMessages,
          serverCode: e.serverCode,
          retryAfterMs: e.retryAfterMs,
          message: l10n.t(
            'Sourcify is already running a verification job for {0} on chain {1} (HTTP 429 duplicate_verification_request): wait until it has finished, then verify again to see its result.',
            a,
            c,
          ),
        });
      }
      throw e;
    }
    const id = optStr(obj(res.data).verificationId);
    if (!id)
      throw new ApiError({
        kind: 'malformed',
        message: l10n.t('The verification server accepted the job but sent no verificationId.'),
        url: res.url,
      });
    return id;
  }

  /** `GET /v2/verify/{verificationId}` once. */
  async job(verificationId: string, options: RequestOptions = {}): Promise<VerificationJob> {
    if (!/^[\w-]{1,100}$/.test(verificationId))
      throw invalidInput(l10n.t('"{0}" is not a verification id.', verificationId.slice(0, 40)));
    const res = await this.http.get<unknown>(
      `${this.baseUrl}/v2/verify/${encodeURIComponent(verificationId)}`,
      options,
    );
    return parseJob(res.data, res.url);
  }

  /** Polls the job until it is completed, waiting longer each time; cancelled through `signal`. */
  async waitForJob(verificationId: string, opts: PollOptions = {}): Promise<VerificationJob> {
    const factor = opts.factor ?? 1.5;
    const maxPoll = opts.maxPollMs ?? 8000;
    const deadline = Date.now() + (opts.timeoutMs ?? 10 * 60_000);
    let wait = opts.pollMs ?? 1000;
    for (let polls = 1; ; polls++) {
      const job = await this.job(verificationId, { signal: opts.signal });
      opts.onPoll?.(job, polls);
      if (job.isJobCompleted) return job;
      if (Date.now() + wait > deadline) {
        throw new ApiError({
          kind: 'timeout',
          message: l10n.t(
            'The verification job {0} did not finish within {1} s. Its result may still appear later.',
            verificationId,
            Math.round((opts.timeoutMs ?? 600_000) / 1000),
          ),
        });
      }
      await abortableSleep(wait, opts.signal);
      wait = Math.min(maxPoll, Math.round(wait * factor));
    }
  }
}
