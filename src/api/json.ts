/**
 * JSON without losing digits.
 *
 * The mirror node writes amounts, gas, block numbers, nonces and serial numbers as bare JSON numbers, some of
 * them above 2^53. `JSON.parse` silently rounds those. Here every integer that a JS number cannot hold exactly
 * becomes a `bigint`; everything else is an ordinary `number`.
 *
 * Speed: the lossless parser is several times slower than `JSON.parse`, so it only runs for a text whose
 * native parse holds a number past 2^53 (see performance notes); everything else takes the native path.
 */
import { isInteger, isSafeNumber, parse, stringify } from 'lossless-json';

/** An integer from the wire: a `number` while it is exact, a `bigint` above 2^53. */
export type Int = number | bigint;

export type JsonValue = null | boolean | number | bigint | string | JsonValue[] | { [key: string]: JsonValue };

function parseNumber(text: string): number | bigint {
  if (isSafeNumber(text)) return Number(text);
  // Integers keep every digit; non-integers past double precision are not used by these APIs.
  return isInteger(text) ? BigInt(text) : Number(text);
}

/** True when a parsed value holds a number that `JSON.parse` may have rounded (magnitude above 2^53). */
export function hasUnsafeNumber(value: unknown): boolean {
  if (typeof value === 'number') return value > Number.MAX_SAFE_INTEGER || value < -Number.MAX_SAFE_INTEGER;
  if (value === null || typeof value !== 'object') return false;
  if (Array.isArray(value)) {
    for (let i = 0; i < value.length; i++) if (hasUnsafeNumber(value[i])) return true;
    return false;
  }
  for (const k in value as Record<string, unknown>) if (hasUnsafeNumber((value as Record<string, unknown>)[k])) return true;
  return false;
}

/**
 * Parses JSON text; integers above 2^53 come back as `bigint` with every digit. Throws SyntaxError.
 * The native parser runs first; only when its result holds a number past 2^53 (which it may have rounded) is
 * the text parsed again losslessly. A walk over the parsed page costs far less than any scan of the text.
 */
export function parseJson(text: string): unknown {
  const fast: unknown = JSON.parse(text);
  return hasUnsafeNumber(fast) ? parse(text, null, parseNumber) : fast;
}

/** JSON text of a value that may hold `bigint`s (written as bare digits, like the server sent them). */
export function stringifyJson(value: unknown, indent?: number): string {
  return stringify(value as JsonValue, null, indent) ?? 'null';
}

/** A value from the wire as an exact decimal string (`bigint`s with every digit). */
export function intToString(v: Int | string | null | undefined): string {
  if (v === null || v === undefined) return '';
  return typeof v === 'bigint' ? v.toString() : String(v);
}

/** Converts a wire value to `bigint` when it is an integer (number, bigint or digit string), else undefined. */
export function toBigInt(v: unknown): bigint | undefined {
  if (typeof v === 'bigint') return v;
  if (typeof v === 'number' && Number.isInteger(v)) return BigInt(v);
  if (typeof v === 'string' && /^-?\d+$/.test(v)) return BigInt(v);
  return undefined;
}

/** Groups the digits of an integer with thin separators, every digit kept: 9007199254740993 → 9,007,199,254,740,993. */
export function formatInt(v: Int | string | null | undefined, separator = ','): string {
  const s = intToString(v);
  const m = /^(-?)(\d+)$/.exec(s);
  if (!m) return s;
  return m[1] + m[2].replace(/\B(?=(\d{3})+(?!\d))/g, separator);
}
