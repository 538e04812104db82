/**
 * JSON without losing digits.
 *
 * The mirror node writes amounts, gas, block numbers, nonces and serial numbers as bare JSON numbers, some of
 * them above 2^53. `JSON.parse` silently rounds those. Here every integer that a JS number cannot hold exactly
 * becomes a `bigint`; everything else is an ordinary `number`.
 *
 * Speed: the lossless parser is several times slower than `JSON.parse`, so it only runs when the text holds a
 * bare number of 16 or more digits outside any string (see performance notes); everything else takes the
 * native path.
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

/** True when `text` holds a bare (unquoted) number with 16 or more digits, which `JSON.parse` may round. */
export function hasLongBareNumber(text: string): boolean {
  const n = text.length;
  let run = 0;
  for (let i = 0; i < n; i++) {
    const c = text.charCodeAt(i);
    if (c === 34 /* " */) {
      run = 0;
      // skip the string, honouring escapes
      for (i++; i < n; i++) {
        const d = text.charCodeAt(i);
        if (d === 92 /* \ */) i++;
        else if (d === 34) break;
      }
    } else if (c >= 48 && c <= 57) {
      if (++run >= 16) return true;
    } else {
      run = 0;
    }
  }
  return false;
}

/**
 * Cheap pre-check: is there a run of 16+ digits whose previous non-blank character is `:`, `,`, `[` or `-`?
 * A bare number has that; a run inside a hex string (blooms, hashes) has a hex digit or `x` before it.
 * Runs are found with one native regex (greedy, so a long run is one match); false positives only cost the
 * exact scan, never a wrong result.
 */
function mayHoldLongNumber(text: string): boolean {
  const re = /\d{16,}/g;
  for (let m = re.exec(text); m; m = re.exec(text)) {
    let i = m.index - 1;
    while (i >= 0 && (text.charCodeAt(i) === 32 || text.charCodeAt(i) === 10 || text.charCodeAt(i) === 13 || text.charCodeAt(i) === 9)) i--;
    const c = i >= 0 ? text.charCodeAt(i) : 0;
    if (c === 58 /* : */ || c === 44 /* , */ || c === 91 /* [ */ || c === 45 /* - */) return true;
  }
  return false;
}

/** Parses JSON text; integers above 2^53 come back as `bigint` with every digit. Throws SyntaxError. */
export function parseJson(text: string): unknown {
  if (!mayHoldLongNumber(text) || !hasLongBareNumber(text)) return JSON.parse(text);
  return parse(text, null, parseNumber);
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
