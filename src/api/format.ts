/**
 * Formatting of wire values for people: consensus timestamps, hex sizes, tinybars. Plain TS, no vscode.
 */
import { type Int, intToString, stringifyJson } from './json';
import { evmAddressToEntityId } from './validation';

/** A consensus timestamp `seconds.nanos` as a Date (millisecond precision), or undefined. */
export function timestampToDate(ts: string | null | undefined): Date | undefined {
  if (!ts) return undefined;
  const m = /^(\d{1,12})(?:\.(\d{1,9}))?$/.exec(String(ts).trim());
  if (!m) {
    const t = Date.parse(String(ts));
    return Number.isNaN(t) ? undefined : new Date(t);
  }
  const ms = Number(m[1]) * 1000 + Number((m[2] ?? '0').padEnd(9, '0').slice(0, 3));
  return new Date(ms);
}

const pad = (n: number, w = 2) => String(n).padStart(w, '0');

/** Local date and time with seconds: 2026-11-20 10:00:05. */
export function formatLocal(d: Date | undefined): string {
  if (!d || Number.isNaN(d.getTime())) return '';
  return `${d.getFullYear()}-${pad(d.getMonth() + 1)}-${pad(d.getDate())} ${pad(d.getHours())}:${pad(d.getMinutes())}:${pad(d.getSeconds())}`;
}

/** A consensus timestamp for people: local time, with the raw value kept: "2026-11-20 10:00:05 (1795168805.123456789)". */
export function formatTimestamp(ts: string | null | undefined, withRaw = true): string {
  if (!ts) return '';
  const d = timestampToDate(ts);
  const local = formatLocal(d);
  if (!local) return String(ts);
  return withRaw ? `${local} (${ts})` : local;
}

/**
 * "5 min. ago", "in 2 days": a time relative to `now`, in the user's language (`locale`, e.g. vscode.env.language;
 * the runtime's default when absent or unknown). Takes a Date or anything Date.parse reads; '' when there is none.
 */
export function relativeTime(when: Date | string | null | undefined, now = Date.now(), locale?: string): string {
  const t = when instanceof Date ? when.getTime() : when ? Date.parse(when) : NaN;
  if (Number.isNaN(t)) return '';
  const diff = t - now;
  const abs = Math.abs(diff);
  let rtf: Intl.RelativeTimeFormat;
  try {
    rtf = new Intl.RelativeTimeFormat(locale, { numeric: 'auto', style: 'short' });
  } catch {
    rtf = new Intl.RelativeTimeFormat(undefined, { numeric: 'auto', style: 'short' });
  }
  if (abs < 60_000) return rtf.format(0, 'minute');
  if (abs < 3_600_000) return rtf.format(Math.round(diff / 60_000), 'minute');
  if (abs < 86_400_000) return rtf.format(Math.round(diff / 3_600_000), 'hour');
  return rtf.format(Math.round(diff / 86_400_000), 'day');
}

/** Compares two `seconds.nanos` consensus timestamps exactly (as BigInt nanoseconds); text order for other values. */
export function compareTimestamps(a: string, b: string): number {
  const nanos = (t: string): bigint | undefined => {
    const m = /^(\d{1,19})(?:\.(\d{1,9}))?$/.exec(t);
    return m ? BigInt(m[1]) * 1_000_000_000n + BigInt((m[2] ?? '').padEnd(9, '0')) : undefined;
  };
  const x = nanos(a);
  const y = nanos(b);
  if (x === undefined || y === undefined) return a < b ? -1 : a > b ? 1 : 0;
  return x < y ? -1 : x > y ? 1 : 0;
}

/** 0x1234ab…cdef: an address (or any long id) shortened for a label; unchanged when short. */
export function shortAddress(address: string): string {
  return address.length > 14 ? `${address.slice(0, 8)}…${address.slice(-4)}` : address;
}

/** Bytes in a 0x hex string. */
export function hexByteLength(hex: string | null | undefined): number {
  if (!hex) return 0;
  const h = hex.replace(/^0x/i, '');
  return Math.ceil(h.length / 2);
}

/** 0x1234…cdef for long hex, unchanged when short. */
export function shortHex(hex: string | null | undefined, keep = 6): string {
  if (!hex) return '';
  const h = String(hex);
  return h.length <= keep * 2 + 3 ? h : `${h.slice(0, keep + 2)}…${h.slice(-keep)}`;
}

/** "1.2 KB"-style size. */
export function formatBytes(n: number): string {
  if (n < 1024) return `${n} B`;
  if (n < 1024 * 1024) return `${(n / 1024).toFixed(1)} KB`;
  return `${(n / 1024 / 1024).toFixed(1)} MB`;
}

/** Tinybars as hbar with every digit: 150000000 → "1.5 ℏ", 9007199254740993 → "90071992.54740993 ℏ". */
export function tinybarsToHbar(v: Int | string | null | undefined): string {
  const s = intToString(v);
  if (!/^-?\d+$/.test(s)) return s;
  const neg = s.startsWith('-');
  const digits = (neg ? s.slice(1) : s).padStart(9, '0');
  const whole = digits.slice(0, -8).replace(/^0+(?=\d)/, '');
  const frac = digits.slice(-8).replace(/0+$/, '');
  return `${neg ? '-' : ''}${whole}${frac ? `.${frac}` : ''} ℏ`;
}

/** A hex quantity ("0x4a817c80") as a decimal string, every digit kept; other text unchanged. */
export function hexToDecimal(v: string | null | undefined): string {
  if (!v) return '';
  if (/^0x[0-9a-fA-F]+$/.test(v)) return BigInt(v).toString();
  return v;
}

/**
 * Any value from the wire as text, losslessly: `bigint`s with every digit, strings as they are, objects and arrays
 * as JSON (bigints as bare digits, as the server sent them). Never throws, whatever the value holds.
 */
export function formatValue(v: unknown): string {
  if (v === null) return 'null';
  if (v === undefined) return '';
  switch (typeof v) {
    case 'string':
      return v;
    case 'bigint':
      return v.toString();
    case 'number':
    case 'boolean':
      return String(v);
    case 'object':
      try {
        return stringifyJson(v);
      } catch {
        return Object.prototype.toString.call(v);
      }
    default:
      return String(v);
  }
}

/**
 * A hex quantity with its decimal value: "0x4a817c80 (1250000000)", "0x0 (0)". The empty quantity the mirror node
 * sends for native (non-Ethereum) results, "0x", is "0x (none)"; null/undefined/"" give ""; other text is kept.
 */
export function formatHexQuantity(v: string | null | undefined): string {
  if (v === null || v === undefined || v === '') return '';
  const t = String(v);
  if (/^0x$/i.test(t)) return `${t} (none)`;
  return /^0x[0-9a-fA-F]+$/.test(t) ? `${t} (${hexToDecimal(t)})` : t;
}

/**
 * An EVM address for people: a long-zero address (`0x0000000000000000000000000000000000001775`) as its entity id
 * with the address beside, "0.0.6005 (0x0000000000000000000000000000000000001775)"; any other address, or text, as it is.
 */
export function formatEvmAddress(v: string | null | undefined): string {
  if (v === null || v === undefined) return '';
  const t = String(v);
  const id = evmAddressToEntityId(t);
  return id ? `${id} (${t})` : t;
}
