/**
 * Whether a failure means "the server could not be reached at all" (offline, no such host, nothing listening, no
 * secure connection) rather than an answer the server gave or a slow one. Read by property, so that the status bar
 * and the selected network can ask without loading the errors module at activation.
 */
import { hostOf } from './url';

const UNREACHABLE_KINDS: readonly string[] = ['offline', 'dns', 'refused', 'tls', 'network'];

/** True when `error` is a transport failure that reached no server; with `url`, only for that URL's host. */
export function isUnreachable(error: unknown, url?: string): boolean {
  if (!error || typeof error !== 'object') return false;
  const e = error as { kind?: unknown; url?: unknown };
  if (typeof e.kind !== 'string' || !UNREACHABLE_KINDS.includes(e.kind)) return false;
  if (url === undefined) return true;
  const host = hostOf(url);
  return host !== undefined && typeof e.url === 'string' && hostOf(e.url) === host;
}
