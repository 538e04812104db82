/**
 * How HttpClient's requests reach the network: the axios adapter and what is particular to it. The client
 * (src/api/http.ts) keeps everything else (retries, redirects, time limit, cancellation, size cap, JSON) the same
 * for both. The build picks the transport (src/api/platform/node.ts or browser.ts), never a test at run time.
 */
import type { AxiosError, CreateAxiosDefaults } from 'axios';
import * as l10n from '@vscode/l10n';
import { ApiError, type ApiErrorKind, redactUrl } from './errors';
import { hostOf } from './url';

export interface TransportFailure {
  kind: ApiErrorKind;
  code?: string;
  /** Words for the error's sentence (transportSentence's detail). */
  detail?: string;
}

export interface HttpTransport {
  /** The axios adapter: Node's http module, or fetch. */
  readonly adapter: 'http' | 'fetch';
  /** Settings of this adapter on top of the shared ones (src/api/http.ts). */
  readonly settings: CreateAxiosDefaults;
  /**
   * Whether the adapter reads settings a request's config inherits from its prototype (axios's http adapter
   * does; the fetch adapter reads own properties only, so each request gets a copy of the shared config).
   */
  readonly readsInherited: boolean;
  /** Whether this request may leave axios's `proxy` unset (see proxyFreeEnv in httpNode.ts). */
  proxyFree(): boolean;
  /** What a failed try was (neither the time limit nor a cancellation: the client tells those itself). */
  failure(err: AxiosError): TransportFailure;
  /** An answer the transport cannot hand over as one (a browser's opaque redirect): the error to throw instead. */
  refuse(status: number, url: string): ApiError | undefined;
}

/** The error kind of a low-level error code or message (Node's sockets, undici's fetch). */
export function classify(code: string | undefined, message: string): ApiErrorKind {
  const c = code ?? '';
  if (c === 'ECONNREFUSED') return 'refused';
  if (c === 'ENOTFOUND') return 'dns';
  if (c === 'EAI_AGAIN' || c === 'ENETUNREACH' || c === 'ENETDOWN' || c === 'EHOSTUNREACH' || c === 'EHOSTDOWN')
    return 'offline';
  if (c === 'ETIMEDOUT' || c === 'ESOCKETTIMEDOUT') return 'timeout';
  if (
    /CERT|SSL|TLS|EPROTO|DEPTH_ZERO|SELF_SIGNED|UNABLE_TO_VERIFY|ERR_OSSL/i.test(c) ||
    /certificate|ssl|tls/i.test(message)
  )
    return 'tls';
  if (
    c === 'ECONNRESET' ||
    c === 'EPIPE' ||
    c === 'ERR_STREAM_PREMATURE_CLOSE' ||
    c === 'UND_ERR_SOCKET' ||
    /socket hang up|aborted|premature|terminated|other side closed/i.test(message)
  )
    return 'reset';
  if (/maxContentLength|content length exceeded/i.test(message)) return 'tooLarge';
  return 'network';
}

/** The innermost error code and message of an error and its causes. */
function rootCause(err: unknown): { code?: string; message: string } {
  let e = err as { code?: unknown; message?: unknown; cause?: unknown } | undefined;
  let code: string | undefined;
  let message = String(e?.message ?? err);
  for (let depth = 0; e && depth < 4; depth++, e = e.cause as typeof e) {
    if (typeof e.code === 'string' && e.code && !e.code.startsWith('ERR_NETWORK') && !/^ERR_BAD/.test(e.code))
      code = e.code;
    if (typeof e.message === 'string' && e.message) message = e.message;
  }
  return { code, message };
}

/**
 * axios's fetch adapter: what a browser (VS Code for the web's worker extension host) offers. The adapter enforces
 * the size cap while it reads the body and, with `maxRedirects: 0`, asks fetch for `redirect: 'manual'`. Where
 * fetch tells less than Node, the sentences say so: a browser hands back a redirect as an opaque answer (status 0,
 * no Location), and a refused or unreachable request as a bare TypeError, a CORS refusal included.
 */
export const fetchTransport: HttpTransport = {
  adapter: 'fetch',
  // A browser sends its own User-Agent (a header of ours would make every request a CORS preflight); `false`
  // also keeps axios from adding one of its own.
  // `no-store`: every request reaches the server, as with the Node transport; the browser's HTTP cache would answer
  // a Refresh from its copy for as long as the mirror node's `max-age` says.
  settings: {
    headers: { 'User-Agent': false as unknown as string },
    withCredentials: false,
    fetchOptions: { cache: 'no-store' },
  },
  readsInherited: false,
  proxyFree: () => true,
  failure(err) {
    if (/maxContentLength/i.test(String(err.message))) return { kind: 'tooLarge', code: err.code };
    const { code, message } = rootCause(err);
    const kind = classify(code, message);
    // A bare TypeError ("Failed to fetch", "Load failed", "NetworkError when attempting to fetch resource"): the
    // browser does not tell a CORS refusal from an unreachable server.
    if (kind === 'network' && !code && /fetch|load failed|network ?error/i.test(message))
      return {
        kind,
        detail: l10n.t(
          'the browser gave no reason: the server may be unreachable, or it may not allow requests from this page (CORS)',
        ),
      };
    return { kind, code, detail: kind === 'tls' || kind === 'network' ? message : undefined };
  },
  refuse(status, url) {
    if (status !== 0) return undefined;
    // `redirect: 'manual'` in a browser: an opaque redirect, whose target the page may not read
    return new ApiError({
      kind: 'foreignRedirect',
      url: redactUrl(url),
      message: l10n.t(
        "{0} redirected the request, and the browser does not tell where to; requests go only to the selected network's URLs, so it was not followed.",
        hostOf(url) ?? url,
      ),
    });
  },
};
