/** The browser build's ./node.ts (esbuild.js, browserBuild): the same names, with no Node module or global. */
import type * as NodePlatform from './node';
import { fetchTransport } from '../httpTransport';

export const httpTransport: typeof NodePlatform.httpTransport = fetchTransport;

export const base64Bytes: typeof NodePlatform.base64Bytes = (b64) => {
  // as Node reads it: URL-safe letters too, other characters skipped, the text ends at the first '='
  let t = b64
    .split('=')[0]
    .replace(/-/g, '+')
    .replace(/_/g, '/')
    .replace(/[^A-Za-z0-9+/]/g, '');
  if (t.length % 4 === 1) t = t.slice(0, -1);
  const bin = atob(t + '='.repeat((4 - (t.length % 4)) % 4));
  const out = new Uint8Array(bin.length);
  for (let i = 0; i < bin.length; i++) out[i] = bin.charCodeAt(i);
  return out;
};

export const hexBytes: typeof NodePlatform.hexBytes = (hex) => {
  const out: number[] = [];
  for (let i = 0; i + 1 < hex.length; i += 2) {
    const pair = hex.slice(i, i + 2);
    if (!/^[0-9a-fA-F]{2}$/.test(pair)) break;
    out.push(parseInt(pair, 16));
  }
  return Uint8Array.from(out);
};

export const hexOf: typeof NodePlatform.hexOf = (bytes) => {
  let s = '';
  for (const b of bytes) s += b.toString(16).padStart(2, '0');
  return s;
};

const decoder = new TextDecoder('utf-8');
const encoder = new TextEncoder();
export const utf8Of: typeof NodePlatform.utf8Of = (bytes) => decoder.decode(bytes);
export const utf8Bytes: typeof NodePlatform.utf8Bytes = (text) => encoder.encode(text);

// A browser has no CPU clock for a page's code: the wall clock stands in (the figures are only logged).
export const cpuUsage: typeof NodePlatform.cpuUsage = (from) => ({
  user: performance.now() * 1000 - (from?.user ?? 0),
  system: 0,
});

export const threadCpuMs: typeof NodePlatform.threadCpuMs = () => undefined;
