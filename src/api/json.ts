/**
 * JSON without losing digits.
 *
 * The mirror node writes amounts, gas, block numbers, nonces and serial numbers as bare JSON numbers, some of
 * them above 2^53. `JSON.parse` silently rounds those. Here every integer that a JS number cannot hold exactly
 * becomes a `bigint`; everything else is an ordinary `number`.
 *
 * Speed: a general lossless parser is several times slower than `JSON.parse`, so every text is parsed natively;
 * only a text whose native parse holds a number past 2^53 is looked at again (see parseLossless).
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

const MAX_SAFE = Number.MAX_SAFE_INTEGER;

/**
 * True when a parsed value holds a number that `JSON.parse` may have rounded (magnitude above 2^53 - 1).
 * One walk over the parsed page; numbers are checked where they are met, without a call each.
 */
export function hasUnsafeNumber(value: unknown): boolean {
  if (typeof value === 'number') return !(value <= MAX_SAFE && value >= -MAX_SAFE);
  if (value === null || typeof value !== 'object') return false;
  return walkUnsafe(value as object);
}

function walkUnsafe(value: object): boolean {
  if (Array.isArray(value)) {
    for (let i = 0; i < value.length; i++) {
      const x: unknown = value[i];
      if (typeof x === 'number') {
        if (!(x <= MAX_SAFE && x >= -MAX_SAFE)) return true;
      } else if (typeof x === 'object' && x !== null && walkUnsafe(x)) return true;
    }
    return false;
  }
  const o = value as Record<string, unknown>;
  for (const k in o) {
    const x = o[k];
    if (typeof x === 'number') {
      if (!(x <= MAX_SAFE && x >= -MAX_SAFE)) return true;
    } else if (typeof x === 'object' && x !== null && walkUnsafe(x)) return true;
  }
  return false;
}

/** A number token of the text that `JSON.parse` rounds: an integer (digits only) outside ±(2^53 - 1). */
export interface UnsafeToken {
  start: number;
  end: number;
}

/**
 * Integer tokens of a JSON text (already known to be valid JSON) whose value is past 2^53 - 1, in text order.
 * Strings are skipped whole, so digits inside them never count; decimals and exponents (`1.5e300`,
 * `0.1234567890123456789`) are not integers and stay numbers, as with the lossless parser.
 */
export function unsafeIntegerTokens(text: string): UnsafeToken[] {
  const found: UnsafeToken[] = [];
  const n = text.length;
  let i = 0;
  while (i < n) {
    const c = text.charCodeAt(i);
    if (c === 0x22 /* " */) {
      // to the closing quote: the first one not escaped (preceded by an even number of backslashes)
      let j = i + 1;
      for (;;) {
        j = text.indexOf('"', j);
        if (j < 0) return found; // not valid JSON: nothing more to find
        let k = j - 1;
        while (text.charCodeAt(k) === 0x5c /* \ */) k--;
        if ((j - 1 - k) % 2 === 0) break;
        j++;
      }
      i = j + 1;
    } else if (c === 0x2d /* - */ || (c >= 0x30 && c <= 0x39)) {
      const digitsStart = c === 0x2d ? i + 1 : i;
      let j = digitsStart;
      while (j < n && isDigit(text.charCodeAt(j))) j++;
      const intEnd = j;
      let integer = true;
      // a fraction or an exponent: not an integer; skip the rest of the token
      while (j < n) {
        const d = text.charCodeAt(j);
        if (d === 0x2e || d === 0x65 || d === 0x45 || d === 0x2b || d === 0x2d || isDigit(d)) {
          integer = false;
          j++;
        } else break;
      }
      if (integer && intEnd - digitsStart >= 16 && !Number.isSafeInteger(Number(text.slice(i, intEnd))))
        found.push({ start: i, end: intEnd });
      i = j > i ? j : i + 1;
    } else {
      i++;
    }
  }
  return found;
}

function isDigit(c: number): boolean {
  return c >= 0x30 && c <= 0x39;
}

/** A NUL first character marks a rewritten big integer; a decoded JSON string can only hold one via a \u0000 escape. */
const MARK = '\\u0000';

/** Replaces the marked strings of a parsed tree by their `bigint`s, in place; returns the (possibly replaced) root. */
function reviveMarked(value: unknown): unknown {
  if (typeof value === 'string') return value.charCodeAt(0) === 0 ? BigInt(value.slice(1)) : value;
  if (value === null || typeof value !== 'object') return value;
  if (Array.isArray(value)) {
    for (let i = 0; i < value.length; i++) {
      const x: unknown = value[i];
      if (typeof x === 'string') {
        if (x.charCodeAt(0) === 0) value[i] = BigInt(x.slice(1));
      } else if (typeof x === 'object' && x !== null) reviveMarked(x);
    }
    return value;
  }
  const o = value as Record<string, unknown>;
  for (const k in o) {
    const x = o[k];
    if (typeof x === 'string') {
      // defineProperty: an own "__proto__" key must stay a plain property
      if (x.charCodeAt(0) === 0)
        Object.defineProperty(o, k, {
          value: BigInt(x.slice(1)),
          writable: true,
          enumerable: true,
          configurable: true,
        });
    } else if (typeof x === 'object' && x !== null) reviveMarked(x);
  }
  return value;
}

/**
 * The lossless parse of a text whose native parse held a number past 2^53: the integer tokens that
 * `JSON.parse` rounds are rewritten as marked strings ("\u0000<digits>"), the text is parsed natively again and
 * the marked strings become `bigint`s. A text that already holds a \u0000 escape (so a marked string could be
 * the sender's own) takes the general lossless parser instead.
 */
function parseLossless(text: string): unknown {
  if (text.includes(MARK)) return parse(text, null, parseNumber);
  const tokens = unsafeIntegerTokens(text);
  if (tokens.length === 0) return JSON.parse(text);
  let rewritten = '';
  let last = 0;
  for (const t of tokens) {
    rewritten += `${text.slice(last, t.start)}"${MARK}${text.slice(t.start, t.end)}"`;
    last = t.end;
  }
  rewritten += text.slice(last);
  return reviveMarked(JSON.parse(rewritten));
}

/**
 * Parses JSON text; integers above 2^53 come back as `bigint` with every digit. Throws SyntaxError.
 * The native parser runs first; only when its result holds a number past 2^53 (which it may have rounded) is
 * the text looked at again, and only its rounded integers are rewritten (see parseLossless). A walk over the
 * parsed page costs far less than any scan of the text.
 */
export function parseJson(text: string): unknown {
  const fast: unknown = JSON.parse(text);
  return hasUnsafeNumber(fast) ? parseLossless(text) : fast;
}

/** JSON text of a value that may hold `bigint`s (written as bare digits, like the server sent them). */
export function stringifyJson(value: unknown, indent?: number): string {
  return stringify(value as JsonValue, null, indent) ?? 'null';
}

/** A value from the wire as an exact decimal string (`bigint`s with every digit). */
export function intToString(v: Int | string | null | undefined): string {
  if (v === null || v === undefined) return '';
  if (typeof v === 'object') return stringifyJson(v); // a server that sends an object where a number belongs
  return typeof v === 'bigint' ? v.toString() : String(v);
}

/** Groups the digits of an integer with thin separators, every digit kept: 9007199254740993 → 9,007,199,254,740,993. */
export function formatInt(v: Int | string | null | undefined, separator = ','): string {
  const s = intToString(v);
  const m = /^(-?)(\d+)$/.exec(s);
  if (!m) return s;
  return m[1] + m[2].replace(/\B(?=(\d{3})+(?!\d))/g, separator);
}
