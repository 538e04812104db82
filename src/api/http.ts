/**
 * HTTP on axios for the three clients: a time limit per request, cancellation through AbortSignal, retries of
 * GETs on connection errors, 429, 502, 503 and 504 (exponential backoff with jitter, Retry-After honoured up to a
 * cap, at most 3 tries), a cap on the answer's size, a User-Agent naming the extension, lossless JSON.
 *
 * Transports: the build picks one (src/api/platform): axios's http adapter in Node, its fetch adapter in the
 * browser (VS Code for the web). Both keep the promises above; httpTransport.ts says where a browser tells less.
 *
 * Keep-alive: Node's global agents keep connections alive (Node 19+), so all pages of a listing share one
 * connection; no agent is passed so that VS Code's proxy support still applies.
 *
 * Proxies: VS Code's proxy support is the only one that applies; axios never applies one of its own from the
 * environment. `proxy: false` is passed only where the environment names a proxy, because it adds a per-request
 * hook that costs about a tenth of a listing's time in garbage collection (see proxyFreeEnv in httpNode.ts).
 */
import * as l10n from '@vscode/l10n';
import type { AxiosAdapter, AxiosError, AxiosResponse, AxiosStatic, InternalAxiosRequestConfig } from 'axios';
import {
  ApiError,
  cancelledError,
  type ApiErrorKind,
  foreignRedirectSentence,
  httpErrorSentence,
  parseRetryAfter,
  redactUrl,
  serverMessagesOf,
  transportSentence,
} from './errors';
import type { HttpTransport } from './httpTransport';
import { parseJson, stringifyJson } from './json';
import { httpTransport } from './platform/node';
import { oneLine } from './text';
import { hostOf, httpUrl } from './url';

export interface Logger {
  debug(message: string): void;
  info(message: string): void;
  warn(message: string): void;
  error(message: string): void;
}

const silentLogger: Logger = { debug() {}, info() {}, warn() {}, error() {} };

export interface HttpClientOptions {
  /** Time limit for one try, in ms (default 15 000). */
  timeoutMs?: number;
  /** Tries for a GET, the first included (default 3). */
  tries?: number;
  /** Largest answer accepted, in bytes (default 32 MiB). */
  maxResponseBytes?: number;
  /** Value of the User-Agent header. */
  userAgent?: string;
  /** Longest Retry-After that is waited for before a retry (default 10 s); a longer one ends the tries. */
  retryAfterCapMs?: number;
  /** First backoff delay in ms (default 400), doubled each try, with ±50 % jitter. */
  backoffBaseMs?: number;
  /** Longest backoff delay in ms (default 5 000). */
  backoffMaxMs?: number;
  /** Source of jitter, 0..1 (tests pin it). */
  random?: () => number;
  log?: Logger;
  /** How requests reach the network; the build's own by default (src/api/platform: Node's http, or fetch). */
  transport?: HttpTransport;
}

export interface RequestOptions {
  signal?: AbortSignal;
  /** Overrides the client's time limit for this request. */
  timeoutMs?: number;
  headers?: Record<string, string>;
  /** Error statuses handed back as a response instead of thrown (e.g. 404 for "not found" lookups). */
  acceptStatus?: number[];
}

export interface HttpResponse<T = unknown> {
  status: number;
  headers: Record<string, string>;
  /** The parsed JSON body (integers past 2^53 as bigint); undefined for an empty body. */
  data: T;
  /** The URL that was requested (with secrets). */
  url: string;
  /** How many tries it took. */
  tries: number;
}

/**
 * axios is loaded on first use, not when the extension starts: its module code (and what it requires: http,
 * https, zlib, follow-redirects) then stays out of activation time. axios is a lazy entry of the extension build
 * (LAZY_ENTRIES in esbuild.js): this require loads dist/axios.js, next to dist/main.js; test builds keep it inline.
 */
let axiosModule: AxiosStatic | undefined;
function loadAxios(): AxiosStatic {
  if (!axiosModule) {
    // eslint-disable-next-line @typescript-eslint/no-require-imports
    const mod = require('axios') as { default?: AxiosStatic } & AxiosStatic;
    axiosModule = mod.default ?? mod;
  }
  return axiosModule;
}

const RETRY_STATUS = new Set([429, 502, 503, 504]);
const REDIRECTS = new Set([301, 302, 303, 307, 308]);
const RETRY_KINDS = new Set<ApiErrorKind>(['refused', 'reset', 'network', 'offline', 'dns']);
const TIMEOUT = 'timeout';
const CANCELLED = 'cancelled';
const FAILED = 'failed';

function sleep(ms: number, signal?: AbortSignal): Promise<void> {
  return new Promise((resolve, reject) => {
    if (signal?.aborted) return reject(cancelledError());
    const t = setTimeout(() => {
      signal?.removeEventListener('abort', onAbort);
      resolve();
    }, ms);
    const onAbort = () => {
      clearTimeout(t);
      reject(cancelledError());
    };
    signal?.addEventListener('abort', onAbort, { once: true });
  });
}

function plainHeaders(h: AxiosResponse['headers']): Record<string, string> {
  const out: Record<string, string> = {};
  if (!h) return out;
  const src = h as Record<string, unknown>;
  for (const k of Object.keys(src)) {
    const v = src[k];
    if (v === undefined || v === null) continue;
    out[k.toLowerCase()] = Array.isArray(v) ? v.join(', ') : String(v);
  }
  return out;
}

/** The time limit's timer callback: one function for every request (no closure per request). */
function abortOnTimeout(controller: AbortController): void {
  controller.abort(TIMEOUT);
}

/**
 * The `unsubscribe` of a try's signal (see once()): axios's fetch adapter lets go of the request's signal through
 * it as soon as the request fails, before once() has seen the failure; a failed try's abort would then no longer
 * reach the fetch, which reads on (the body of an answer over the size cap, for one). Keeping the link costs
 * nothing: the signal lives as long as the try, and the http adapter does not call it.
 */
function keepAdapterLink(): void {}

/**
 * What one request needs from axios: its adapter and the config every request shares, resolved once. Calling the
 * adapter directly skips axios.request()'s per-request config merge and transforms (about a tenth of a page's cost).
 */
// The http adapter normalises headers and method itself (the unit tests check it); axios is pinned to ~1.21 for that.
interface Prepared {
  transport: HttpTransport;
  adapter: AxiosAdapter;
  /** The shared request config, `proxy: false`: axios applies no proxy from the environment. */
  config: InternalAxiosRequestConfig;
  /** The same with `proxy` unset (axios looks at the environment), used only while the environment names no proxy. */
  configNoEnvProxy: InternalAxiosRequestConfig;
  /** Header object of a GET without extra headers (the adapter copies it; never changed). */
  headers: Record<string, string>;
}

export class HttpClient {
  private preparedCache: Prepared | undefined;
  private readonly opts: Required<Omit<HttpClientOptions, 'log'>> & { log: Logger };
  /**
   * The log's debug line, or undefined without a log: a debug line (its redacted URL, its timing) is then never
   * built, only to be dropped by the silent logger.
   */
  private readonly debug: ((message: string) => void) | undefined;

  constructor(options: HttpClientOptions = {}) {
    this.opts = {
      timeoutMs: options.timeoutMs ?? 15_000,
      tries: Math.max(1, options.tries ?? 3),
      maxResponseBytes: options.maxResponseBytes ?? 32 * 1024 * 1024,
      userAgent: options.userAgent ?? 'hedera-explorer',
      retryAfterCapMs: options.retryAfterCapMs ?? 10_000,
      backoffBaseMs: options.backoffBaseMs ?? 400,
      backoffMaxMs: options.backoffMaxMs ?? 5_000,
      random: options.random ?? Math.random,
      log: options.log ?? silentLogger,
      transport: options.transport ?? httpTransport,
    };
    const log = options.log;
    this.debug = log ? (message) => log.debug(message) : undefined;
  }

  private get prepared(): Prepared {
    if (this.preparedCache) return this.preparedCache;
    const axios = loadAxios();
    const transport = this.opts.transport;
    const headers = {
      'User-Agent': this.opts.userAgent,
      Accept: 'application/json',
      ...(transport.settings.headers as Record<string, string> | undefined),
    };
    // axios.create() resolves the defaults (adapter list, env, transitional options) with these settings
    const resolved = axios.create({
      ...transport.settings,
      adapter: transport.adapter,
      responseType: 'text',
      // the body is a JSON string already (set below); the text answer is parsed by parseJson
      transformRequest: [],
      transformResponse: [],
      // every status is an answer here (no AxiosError to build); once() sorts them out
      validateStatus: () => true,
      maxContentLength: this.opts.maxResponseBytes,
      maxBodyLength: 8 * 1024 * 1024,
      // Redirects are followed here (GET only), not by axios: its redirect layer (follow-redirects) costs about
      // 15 % per page, and a POST that carries an API key must never be re-sent to wherever a 3xx points.
      maxRedirects: 0,
      headers,
    }).defaults;
    const adapter = axios.getAdapter(resolved.adapter, resolved as unknown as InternalAxiosRequestConfig);
    const config = { ...resolved, headers: undefined } as unknown as InternalAxiosRequestConfig;
    this.preparedCache = {
      transport,
      adapter,
      config,
      configNoEnvProxy: { ...config, proxy: undefined } as InternalAxiosRequestConfig,
      headers,
    };
    return this.preparedCache;
  }

  get timeoutMs(): number {
    return this.opts.timeoutMs;
  }

  /**
   * GET with retries, following up to 5 redirects to http(s) URLs on the origin (scheme, host and port) the
   * request started with: a redirect anywhere else is refused (ApiError `foreignRedirect`), never requested, so
   * requests go only to the URLs of the selected network. Throws ApiError.
   */
  async get<T = unknown>(url: string, options: RequestOptions = {}): Promise<HttpResponse<T>> {
    let target = url;
    const start = new URL(url);
    for (let hops = 0; ; hops++) {
      const res = await this.withRetries<T>('GET', target, undefined, options, this.opts.tries, true);
      if (!REDIRECTS.has(res.status) || options.acceptStatus?.includes(res.status)) return res;
      const location = res.headers.location;
      let next: URL | undefined;
      try {
        next = location ? new URL(location, target) : undefined;
      } catch {
        next = undefined;
      }
      if (!next || !httpUrl(next.href) || hops >= 5) {
        throw new ApiError({
          kind: 'http',
          status: res.status,
          url: redactUrl(target),
          message: `${hostOf(target) ?? ''} redirected the request ${hops >= 5 ? 'too many times' : `to an address that cannot be followed (${oneLine(String(location ?? 'none'), 80)})`}.`,
        });
      }
      if (next.origin !== start.origin) {
        this.opts.log.warn(
          `GET ${redactUrl(target)} -> ${res.status} redirect to ${oneLine(redactUrl(next.toString()), 200)} refused (another origin)`,
        );
        throw new ApiError({
          kind: 'foreignRedirect',
          status: res.status,
          url: redactUrl(target),
          message: foreignRedirectSentence(start, next),
        });
      }
      this.debug?.(`GET ${redactUrl(target)} -> ${res.status} redirect to ${redactUrl(next.toString())}`);
      target = next.toString();
    }
  }

  /**
   * POST of a JSON body (a `bigint` written with every digit), tried once unless it is `idempotent` (a read-only
   * query), then tried as a GET is (Retry-After honoured). Throws ApiError. The body is never logged.
   */
  async post<T = unknown>(
    url: string,
    body: unknown,
    options: RequestOptions = {},
    idempotent = false,
  ): Promise<HttpResponse<T>> {
    return this.withRetries<T>('POST', url, body, options, idempotent ? this.opts.tries : 1);
  }

  /** Delay before try `attempt + 1`, or undefined when the error says not to try again. */
  backoffDelay(attempt: number, error: ApiError): number | undefined {
    if (error.retryAfterMs !== undefined) {
      return error.retryAfterMs <= this.opts.retryAfterCapMs ? error.retryAfterMs : undefined;
    }
    const exp = Math.min(this.opts.backoffMaxMs, this.opts.backoffBaseMs * 2 ** (attempt - 1));
    return Math.round(exp * (0.5 + this.opts.random()));
  }

  private isRetryable(e: ApiError): boolean {
    if (e.kind === 'http') return e.status !== undefined && RETRY_STATUS.has(e.status);
    return RETRY_KINDS.has(e.kind);
  }

  /** `redirects`: a 3xx answer is handed back (to get(), which follows it) instead of being an error. */
  private async withRetries<T>(
    method: string,
    url: string,
    body: unknown,
    options: RequestOptions,
    tries: number,
    redirects = false,
  ): Promise<HttpResponse<T>> {
    for (let attempt = 1; ; attempt++) {
      try {
        const res = await this.once<T>(method, url, body, options, redirects);
        res.tries = attempt;
        return res;
      } catch (err) {
        const e =
          err instanceof ApiError
            ? err
            : new ApiError({ kind: 'network', message: String(err), url: redactUrl(url), cause: err });
        const delay = attempt < tries && this.isRetryable(e) ? this.backoffDelay(attempt, e) : undefined;
        if (delay === undefined || options.signal?.aborted) throw e;
        this.opts.log.warn(
          `${method} ${redactUrl(url)} failed (${e.status ?? e.code ?? e.kind}), try ${attempt + 1} of ${tries} in ${delay} ms`,
        );
        await sleep(delay, options.signal);
      }
    }
  }

  /**
   * One try. The hot path of every page: nothing is computed for a log line or an error until one is written
   * (the redacted URL, the timing), the time limit's timer needs no closure, and the adapter's config inherits
   * the shared one instead of copying it.
   */
  private async once<T>(
    method: string,
    url: string,
    body: unknown,
    options: RequestOptions,
    redirects: boolean,
  ): Promise<HttpResponse<T>> {
    const signal = options.signal;
    if (signal?.aborted) throw cancelledError(url);
    const timeoutMs = options.timeoutMs ?? this.opts.timeoutMs;
    // One controller per try, aborted by the time limit, by the caller's signal or by the try's failure (which
    // closes the connection: the rest of an answer refused for its size is not downloaded); its reason says which.
    const controller = new AbortController();
    (controller.signal as AbortSignal & { unsubscribe?: () => void }).unsubscribe = keepAdapterLink;
    const timer = setTimeout(abortOnTimeout, timeoutMs, controller);
    const onAbort = signal ? () => controller.abort(CANCELLED) : undefined;
    if (signal && onAbort) signal.addEventListener('abort', onAbort, { once: true });
    const debug = this.debug;
    const started = debug ? Date.now() : 0;
    const prepared = this.prepared;
    const transport = prepared.transport;
    // The http adapter reads each setting with an own-or-inherited lookup (axios's getSafeProp), so the request's
    // own fields on an object whose prototype is the shared config are all it needs: no copy of the shared fields.
    const shared = transport.proxyFree() ? prepared.configNoEnvProxy : prepared.config;
    const config = (transport.readsInherited ? Object.create(shared) : { ...shared }) as InternalAxiosRequestConfig;
    config.url = url;
    config.method = method;
    config.data = body === undefined ? undefined : jsonBody(body);
    config.headers = (body === undefined && !options.headers
      ? prepared.headers
      : {
          ...prepared.headers,
          ...(body === undefined ? {} : { 'Content-Type': 'application/json' }),
          ...options.headers,
        }) as unknown as InternalAxiosRequestConfig['headers'];
    config.signal = controller.signal;
    let res: AxiosResponse<string>;
    try {
      res = (await prepared.adapter(config)) as AxiosResponse<string>;
    } catch (err) {
      if (controller.signal.reason === TIMEOUT) {
        throw new ApiError({
          kind: 'timeout',
          message: transportSentence('timeout', url, undefined, timeoutMs),
          url: redactUrl(url),
          code: 'ETIMEDOUT',
          cause: err,
        });
      }
      // only this controller cancels the adapter (the time limit and the caller's signal both go through it)
      if (controller.signal.aborted || signal?.aborted) throw cancelledError(url);
      const failure = transport.failure(err as AxiosError);
      const { kind, code } = failure;
      const detail = kind === 'tooLarge' ? `over ${sizeWords(this.opts.maxResponseBytes)}` : failure.detail;
      const safeUrl = redactUrl(url);
      debug?.(
        `${method} ${safeUrl} -> ${code ?? ''} ${String((err as Error)?.message ?? err)} (${Date.now() - started} ms)`,
      );
      // the adapter may still be reading the answer (refused for its size while it streamed): stop it
      controller.abort(FAILED);
      throw new ApiError({
        kind,
        message: transportSentence(kind, url, detail, timeoutMs),
        url: safeUrl,
        code,
        cause: err,
      });
    } finally {
      clearTimeout(timer);
      if (signal && onAbort) signal.removeEventListener('abort', onAbort);
    }
    try {
      return this.answer<T>(method, url, res, options, redirects, started);
    } catch (e) {
      // the answer was read whole, so nothing is left to stop; a failed try still ends its controller
      controller.abort(FAILED);
      throw e;
    }
  }

  /** What an answer read whole is: the response handed back, or the ApiError thrown (status, JSON, redirect). */
  private answer<T>(
    method: string,
    url: string,
    res: AxiosResponse<string>,
    options: RequestOptions,
    redirects: boolean,
    started: number,
  ): HttpResponse<T> {
    const debug = this.debug;
    const refused = this.prepared.transport.refuse(res.status, url);
    if (refused) {
      this.opts.log.warn(`${method} ${redactUrl(url)} -> opaque redirect refused`);
      throw refused;
    }
    const status = res.status;
    const headers = plainHeaders(res.headers);
    const raw = res.data as unknown;
    const text = typeof raw === 'string' ? raw : raw === undefined || raw === null ? '' : String(raw);
    debug?.(`${method} ${redactUrl(url)} -> ${status} (${text.length} B, ${Date.now() - started} ms)`);
    if (redirects && REDIRECTS.has(status)) return { status, headers, data: undefined as T, url, tries: 1 };
    const ok = (status >= 200 && status < 300) || options.acceptStatus?.includes(status);
    if (ok && REDIRECTS.has(status)) return { status, headers, data: undefined as T, url, tries: 1 };
    let data: unknown;
    let parseError: unknown;
    if (text.trim() !== '') {
      try {
        data = parseJson(text);
      } catch (e) {
        parseError = e;
      }
    }
    if (!ok) {
      const serverMessages = serverMessagesOf(data, parseError ? text : undefined);
      const retryAfterMs = parseRetryAfter(headers['retry-after']);
      const customCode = data && typeof data === 'object' ? (data as { customCode?: unknown }).customCode : undefined;
      throw new ApiError({
        kind: 'http',
        status,
        serverMessages,
        serverCode: typeof customCode === 'string' && customCode ? customCode.slice(0, 100) : undefined,
        url: redactUrl(url),
        retryAfterMs,
        message: httpErrorSentence(status, url, serverMessages, retryAfterMs),
      });
    }
    if (parseError !== undefined) {
      const type = headers['content-type'] ?? '';
      const what =
        /html/i.test(type) || /^\s*</.test(text)
          ? l10n.t('an HTML page instead of JSON')
          : l10n.t('not valid JSON, perhaps cut short');
      throw new ApiError({
        kind: 'malformed',
        message: transportSentence('malformed', url, what),
        url: redactUrl(url),
        status,
        cause: parseError,
      });
    }
    return { status, headers, data: data as T, url, tries: 1 };
  }
}

/** A size cap in words: "32 MiB", "97.7 KiB" or "500 bytes" (at most one decimal). */
function sizeWords(bytes: number): string {
  const round = (n: number) => Math.round(n * 10) / 10;
  if (bytes >= 1024 * 1024) return `${round(bytes / 1024 / 1024)} MiB`;
  if (bytes >= 1024) return `${round(bytes / 1024)} KiB`;
  return `${bytes} bytes`;
}

/** JSON text of a request body; one holding a `bigint` keeps every digit. */
function jsonBody(body: unknown): string {
  try {
    return JSON.stringify(body);
  } catch (e) {
    if (e instanceof TypeError) return stringifyJson(body);
    throw e;
  }
}
