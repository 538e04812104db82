/** The reply a sandbox route produces; the server writes it (or a fault transforms it first). */
import { createHash } from 'node:crypto';
import { toJson } from './json';

export interface Reply {
  status: number;
  headers: Record<string, string>;
  body: string;
}

export const JSON_TYPE = 'application/json; charset=utf-8';

/** Express-style weak ETag: W/"<length hex>-<sha1 base64, 27 chars>". */
export function etag(body: string): string {
  const len = Buffer.byteLength(body);
  const hash = createHash('sha1').update(body, 'utf8').digest('base64').slice(0, 27);
  return `W/"${len.toString(16)}-${hash}"`;
}

export function jsonReply(status: number, value: unknown, headers: Record<string, string> = {}): Reply {
  return jsonTextReply(status, toJson(value), headers);
}

export function jsonTextReply(status: number, body: string, headers: Record<string, string> = {}): Reply {
  return { status, headers: { 'Content-Type': JSON_TYPE, ...headers, ETag: etag(body) }, body };
}

export function htmlEscape(s: string): string {
  return s.replace(
    /[&<>"']/g,
    (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[c] as string,
  );
}

/** Parses a query string into ordered [name, value] pairs (decoded; names lowercased like the mirror node). */
export function parseQuery(search: string): [string, string][] {
  const out: [string, string][] = [];
  const q = search.startsWith('?') ? search.slice(1) : search;
  if (!q) return out;
  for (const part of q.split('&')) {
    if (!part) continue;
    const eq = part.indexOf('=');
    const rawK = eq < 0 ? part : part.slice(0, eq);
    const rawV = eq < 0 ? '' : part.slice(eq + 1);
    out.push([safeDecode(rawK).toLowerCase(), safeDecode(rawV)]);
  }
  return out;
}

function safeDecode(s: string): string {
  try {
    return decodeURIComponent(s.replace(/\+/g, ' '));
  } catch {
    return s;
  }
}
