/**
 * One error type for every failure of the API layer. `message` is one sentence a person understands;
 * the rest (kind, HTTP status, the server's own messages, the URL without secrets) is there for the UI
 * to show details and pick a way forward.
 */

import * as l10n from '@vscode/l10n';
import { hostOf } from './url';

export type ApiErrorKind =
  | 'http' // the server answered with an error status
  | 'timeout' // no complete answer in time
  | 'offline' // no route to the network
  | 'dns' // host name not found
  | 'refused' // nothing listening
  | 'reset' // connection closed mid-answer
  | 'tls' // certificate or TLS handshake problem
  | 'network' // any other transport failure
  | 'cancelled' // the caller aborted
  | 'malformed' // the answer is not the JSON we expect
  | 'tooLarge' // the answer is over the size cap
  | 'invalidInput' // refused before any request went out
  | 'foreignLink' // a pagination link to another host
  | 'foreignRedirect'; // a redirect to another origin (scheme, host, port), not followed

export interface ApiErrorInit {
  kind: ApiErrorKind;
  message: string;
  status?: number;
  serverMessages?: string[];
  url?: string;
  code?: string;
  serverCode?: string;
  retryAfterMs?: number;
  cause?: unknown;
}

export class ApiError extends Error {
  readonly kind: ApiErrorKind;
  /** HTTP status, when the server answered. */
  readonly status?: number;
  /** What the server said, as plain text (never HTML): mirror `_status.messages`, Sourcify `error`/`message`/`errors`. */
  readonly serverMessages: string[];
  /** The request URL with credentials and secret query values removed. */
  readonly url?: string;
  /** Low-level error code (ECONNREFUSED, ENOTFOUND, ...), when there is one. */
  readonly code?: string;
  /** The error code the server's body names, when it names one (Sourcify v2 `customCode`: `already_verified`, ...). */
  readonly serverCode?: string;
  /** How long the server asked us to wait (Retry-After), in ms. */
  readonly retryAfterMs?: number;

  constructor(init: ApiErrorInit) {
    super(init.message);
    this.name = 'ApiError';
    this.kind = init.kind;
    this.status = init.status;
    this.serverMessages = init.serverMessages ?? [];
    this.url = init.url;
    this.code = init.code;
    this.serverCode = init.serverCode;
    this.retryAfterMs = init.retryAfterMs;
    if (init.cause !== undefined) (this as { cause?: unknown }).cause = init.cause;
  }

  /** True for failures that may pass if tried again later (rate limits, gateways, the network). */
  get transient(): boolean {
    if (this.kind === 'http') return this.status === 429 || (this.status !== undefined && this.status >= 500);
    return ['timeout', 'offline', 'dns', 'refused', 'reset', 'network', 'malformed'].includes(this.kind);
  }

  /** The sentence plus the server's messages, for a detail line or the log. */
  get detail(): string {
    const extra = this.serverMessages.filter((m) => !this.message.includes(m));
    return extra.length ? `${this.message} ${extra.join('; ')}` : this.message;
  }
}

export function isApiError(e: unknown): e is ApiError {
  return e instanceof ApiError;
}

export function invalidInput(message: string): ApiError {
  return new ApiError({ kind: 'invalidInput', message });
}

const SECRET_PARAM = /(api[-_.]?key|apikey|key|token|secret|password|passwd|auth|signature|sig|credential)/i;

/** A URL safe to show and log: no user:password, secret-looking query values hidden. */
export function redactUrl(url: string): string {
  try {
    const u = new URL(url);
    u.username = '';
    u.password = '';
    const entries = [...u.searchParams.entries()];
    if (entries.some(([name]) => SECRET_PARAM.test(name))) {
      u.search = entries
        .map(([k, v]) => `${encodeURIComponent(k)}=${SECRET_PARAM.test(k) ? '[hidden]' : encodeURIComponent(v)}`)
        .join('&');
    }
    return u.toString().replace(/%5Bhidden%5D/gi, '[hidden]');
  } catch {
    return url.replace(/\/\/[^/@]*@/, '//');
  }
}

const MAX_MESSAGE = 500;

function clip(s: string): string {
  const t = s.replace(/\s+/g, ' ').trim();
  return t.length > MAX_MESSAGE ? `${t.slice(0, MAX_MESSAGE - 1)}…` : t;
}

function textOf(v: unknown): string | undefined {
  if (typeof v === 'string') return /[^.\s]/.test(v) ? clip(v) : undefined; // "", "...": nothing said
  if (typeof v === 'number' || typeof v === 'bigint' || typeof v === 'boolean') return String(v);
  return undefined;
}

/**
 * The server's own messages from an error body, as plain text:
 * mirror `{_status:{messages:[{message, detail?}]}}`, Sourcify `{error, message}` or `{message, errors[]}`,
 * Statuspage `{error}`, or a non-JSON body such as a gateway's HTML page (its title or first text).
 */
export function serverMessagesOf(body: unknown, rawText?: string): string[] {
  const out: string[] = [];
  const push = (s: string | undefined) => {
    if (s && !out.includes(s)) out.push(s);
  };
  if (body && typeof body === 'object' && !Array.isArray(body)) {
    const b = body as Record<string, unknown>;
    const status = b._status as { messages?: unknown } | undefined;
    if (status && Array.isArray(status.messages)) {
      for (const m of status.messages) {
        if (m && typeof m === 'object') {
          const item = m as Record<string, unknown>;
          const msg = textOf(item.message);
          const detail = textOf(item.detail);
          push(msg && detail ? `${msg} (${detail})` : (msg ?? detail));
        } else push(textOf(m));
      }
    }
    push(textOf(b.message));
    push(textOf(b.error));
    if (Array.isArray(b.errors)) {
      for (const e of b.errors) {
        if (e && typeof e === 'object') {
          const item = e as Record<string, unknown>;
          const msg = textOf(item.message);
          const path = textOf(item.path);
          push(msg && path ? `${path}: ${msg}` : msg);
        } else if (e !== '...') push(textOf(e));
      }
    }
    if (b.error && typeof b.error === 'object') push(textOf((b.error as Record<string, unknown>).message));
  } else if (typeof body === 'string') {
    push(textOf(body));
  }
  if (!out.length && rawText) push(textFromNonJson(rawText));
  // a body often says the same thing twice ({error, message}, a message and its detail): each sentence once
  const words = (t: string) =>
    t
      .toLowerCase()
      .replace(/[^\p{L}\p{N}]+/gu, ' ')
      .trim();
  return out.filter(
    (m, i) =>
      !out.some((other, j) => j !== i && words(other).includes(words(m)) && (words(other) !== words(m) || j < i)),
  );
}

/** A short plain-text summary of a non-JSON body (an HTML error page's title, or its first words). */
export function textFromNonJson(raw: string): string | undefined {
  const title = /<title[^>]*>([\s\S]*?)<\/title>/i.exec(raw);
  const h1 = /<h1[^>]*>([\s\S]*?)<\/h1>/i.exec(raw);
  const picked = title?.[1] || h1?.[1];
  const text = (picked ?? raw)
    .replace(/<script[\s\S]*?<\/script>/gi, ' ')
    .replace(/<style[\s\S]*?<\/style>/gi, ' ')
    .replace(/<[^>]*>/g, ' ')
    .replace(/&nbsp;/g, ' ')
    .replace(/&lt;/g, '<')
    .replace(/&gt;/g, '>')
    .replace(/&quot;/g, '"')
    .replace(/&#39;/g, "'")
    .replace(/&amp;/g, '&');
  const t = clip(text);
  return t ? (t.length > 200 ? `${t.slice(0, 199)}…` : t) : undefined;
}

/** Parses a Retry-After header (seconds or an HTTP date) into milliseconds from now. */
export function parseRetryAfter(value: string | undefined | null, now = Date.now()): number | undefined {
  if (!value) return undefined;
  const v = value.trim();
  if (/^\d+(\.\d+)?$/.test(v)) return Math.round(Number(v) * 1000);
  const t = Date.parse(v);
  if (!Number.isNaN(t)) return Math.max(0, t - now);
  return undefined;
}

function serverOf(url: string | undefined): string {
  return hostOf(url) ?? l10n.t('the server');
}

const STATUS_TEXT: Record<number, string> = {
  400: 'Bad Request',
  401: 'Unauthorized',
  403: 'Forbidden',
  404: 'Not Found',
  405: 'Method Not Allowed',
  408: 'Request Timeout',
  409: 'Conflict',
  413: 'Payload Too Large',
  415: 'Unsupported Media Type',
  422: 'Unprocessable Entity',
  429: 'Too Many Requests',
  500: 'Internal Server Error',
  501: 'Not Implemented',
  502: 'Bad Gateway',
  503: 'Service Unavailable',
  504: 'Gateway Timeout',
};

/** The sentence for an error status, with what the server said. */
export function httpErrorSentence(
  status: number,
  url: string | undefined,
  serverMessages: string[],
  retryAfterMs?: number,
): string {
  const host = serverOf(url);
  const label = `HTTP ${status}${STATUS_TEXT[status] ? ` ${STATUS_TEXT[status]}` : ''}`;
  // the server's words, without a doubled full stop before ours
  const said = serverMessages.length ? `: ${serverMessages.join('; ').replace(/[.!?。]+\s*$/, '')}` : '';
  if (status === 429) {
    const wait =
      retryAfterMs !== undefined
        ? l10n.t('Try again in {0} s.', Math.max(1, Math.ceil(retryAfterMs / 1000)))
        : l10n.t('Try again in a moment.');
    return `${l10n.t('{0} is limiting requests ({1}){2}.', host, label, said)} ${wait}`.replace('..', '.');
  }
  if (status === 404) return l10n.t('{0} has no such resource ({1}){2}.', host, label, said);
  if (status === 401 || status === 403) return l10n.t('{0} refused access ({1}){2}.', host, label, said);
  if (status >= 500) return l10n.t('{0} could not answer ({1}){2}. Try again later.', host, label, said);
  if (status >= 400) return l10n.t('{0} rejected the request ({1}){2}.', host, label, said);
  return l10n.t('{0} answered with an unexpected status ({1}){2}.', host, label, said);
}

/** `host:port` of a URL, the port always written (https://evil.example -> evil.example:443), at most `max` characters. */
export function hostPort(url: URL, max = 120): string {
  const port = url.port || (url.protocol === 'https:' ? '443' : url.protocol === 'http:' ? '80' : '');
  const h = `${url.hostname}${port ? `:${port}` : ''}`;
  return h.length > max ? `${h.slice(0, max - 1)}…` : h;
}

/**
 * The sentence for a redirect that leaves the origin the request started with: names both ends and says why it
 * was not followed (no "check the URL": the configured URL is fine, the server sent the request elsewhere).
 */
export function foreignRedirectSentence(from: URL, to: URL): string {
  const what =
    from.hostname !== to.hostname
      ? l10n.t('another host')
      : from.protocol !== to.protocol
        ? l10n.t('another scheme')
        : l10n.t('another port');
  return l10n.t(
    "{0} redirected the request to {1}, {2}; requests go only to the selected network's URLs, so it was not followed.",
    hostPort(from),
    hostPort(to),
    what,
  );
}

/** The error of a request given up because its caller cancelled it. */
export function cancelledError(url?: string): ApiError {
  return new ApiError({ kind: 'cancelled', message: transportSentence('cancelled', url), url: url && redactUrl(url) });
}

/** The sentence for a transport failure (no HTTP status). */
export function transportSentence(
  kind: ApiErrorKind,
  url: string | undefined,
  detail?: string,
  timeoutMs?: number,
): string {
  const host = serverOf(url);
  switch (kind) {
    case 'timeout':
      return l10n.t(
        '{0} did not answer within {1}. Check your internet connection, or raise the timeout (setting hederaExplorer.http.timeoutSeconds).',
        host,
        timeoutMs !== undefined ? l10n.t('{0} s', Math.round(timeoutMs / 100) / 10) : l10n.t('the time limit'),
      );
    case 'offline':
      return l10n.t(
        'No network connection: {0} cannot be reached from this computer. Check that you are online.',
        host,
      );
    case 'dns':
      return l10n.t(
        'The host name {0} could not be found (DNS lookup failed). Check your internet connection, then try again.',
        host,
      );
    case 'refused':
      return l10n.t(
        'Nothing is listening at {0} (connection refused). Check that the server is running, then try again.',
        host,
      );
    case 'reset':
      return l10n.t('{0} closed the connection before the answer was complete. Try again.', host);
    case 'tls':
      return l10n.t(
        'A secure connection to {0} could not be made{1}. If a proxy or firewall sits between you and the server, check it, then try again.',
        host,
        detail ? ` (${detail})` : '',
      );
    case 'cancelled':
      return l10n.t('The request was cancelled.');
    case 'tooLarge':
      return l10n.t('The answer from {0} is larger than the allowed size{1}.', host, detail ? ` (${detail})` : '');
    case 'malformed':
      return l10n.t('{0} sent an answer that could not be read{1}.', host, detail ? ` (${detail})` : '');
    default:
      return l10n.t(
        'The request to {0} failed{1}. Check your internet connection, then try again.',
        host,
        detail ? ` (${detail})` : '',
      );
  }
}
