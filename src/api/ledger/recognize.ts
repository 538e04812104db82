/**
 * Hedera references in a line of text (plain TypeScript, no vscode): entity ids (`0.0.1234`), EVM addresses (40 hex,
 * with or without 0x, any case), transaction ids (`0.0.1234-1700000000-123456789`, the SDK's
 * `0.0.1234@1700000000.123456789` with an optional `?scheduled` and `/nonce`), Ethereum transaction hashes (0x + 64
 * hex) and NFTs as `tokenId/serial` (`0.0.1234/7`).
 *
 * Work is bounded: a hover looks at a window of HOVER_WINDOW characters either side of the position, the links of a
 * line at its first MAX_LINE_CHARS characters; no quantifier runs past a reference's longest form, so a line of a
 * megabyte of hex costs what its window costs.
 *
 * What is NOT a reference (each rule has its unit test, test/unit/ledger.recognize.test.ts):
 * - anything touching a letter, digit or `_` (`abc0.0.5`, `0.0.5x`, `v1.0.0`), or part of a longer dotted number
 *   (`1.0.0.5`, `127.0.0.1`, `0.0.0.0`), or followed by `-digit` / `@digit` / `/digit` that does not complete a form;
 * - an entity id out of the mirror node's ranges (shard <= 1023, realm <= 65535, num < 2^38), or after a version marker
 *   (`^0.8.20`, `~0.0.1`, `@0.0.1`, `>=0.0.1`, `pragma solidity 0.8.20`, `"version": "0.0.1"`, `solc 0.8.24`);
 * - a hex run of any other length than 40 or 0x + 64 (calldata, a 96-hex Hedera hash, a 64-hex hash without 0x, a
 *   bytes32 inside a longer word), a 40-digit decimal number, or a bare 40-hex run after `commit`/`sha`/`git`/`tree`…
 *   (a git commit id is 40 hex too);
 * - a 0x + 64 hex value whose line says it is a secret (`PRIVATE_KEY=0x…`, `operatorKey: "0x…"`, `mnemonic`, `seed`,
 *   `password`, `secret`, `pk`): a private key has the same shape as a hash, and hovering it must never send it to a
 *   server;
 * - inside a URL, anything but a whole path segment after a segment naming its kind
 *   (`https://hashscan.io/testnet/account/0.0.5`, `…/api/v1/contracts/0x…`, `…/token/0.0.5/7` are references;
 *   `https://x.io/0.0.1`, `https://cdn.example/lib/0.0.1/x.js`, `?id=0.0.5`, `…/commit/<40 hex>` are not).
 */
import { parseTxRef } from '../txRef';

export type LedgerRefKind = 'entity' | 'evmAddress' | 'transactionId' | 'hash' | 'nft';

export interface LedgerRef {
  kind: LedgerRefKind;
  /** Where it is in the line: [start, end). */
  start: number;
  end: number;
  /** As written. */
  text: string;
  /**
   * Normalised: an entity id `shard.realm.num` (also the token of an NFT), an EVM address or hash in lowercase with
   * 0x, a transaction id `shard.realm.num-seconds-nanos` (nanos 9 digits).
   */
  value: string;
  /** An NFT's serial number (decimal, 1 to 2^63-1). */
  serial?: string;
  /** The SDK form's `/nonce` (a child transaction). */
  nonce?: number;
  /** The SDK form's `?scheduled`. */
  scheduled?: boolean;
}

/** Characters either side of a hover's position that are read (a reference is at most 70 characters long). */
export const HOVER_WINDOW = 160;
/** Characters of a line searched for links; the rest of a longer line (minified code, data) is not. */
export const MAX_LINE_CHARS = 2_000;
/** Characters before a candidate read for its context (version markers, secrets, git, URLs). */
const CONTEXT_CHARS = 48;
/** How far back the start of a URL is looked for. */
const URL_LOOKBACK = 300;

const MAX_SHARD = 1023;
const MAX_REALM = 65535;
const MAX_NUM = 274877906943; // 2^38 - 1

// One pass: the dotted forms first (at a digit, `0.0.5` must not be read as the hex run "0"), then a hex run. Every
// quantifier is bounded; a run longer than a form is rejected by the boundary checks (the character after it).
// Groups: 1 shard, 2 realm, 3 num, 4 `-` seconds 5 nanos 6, 7 `@` seconds 8 nanos 9, 10 ?scheduled, 11 nonce,
// 12 serial, 13 0x, 14 hex digits.
const TOKEN =
  /(\d{1,19})\.(\d{1,19})\.(\d{1,19})(?:(-)(\d{1,19})-(\d{1,9})|(@)(\d{1,19})\.(\d{1,9})(\?scheduled)?(?:\/(\d{1,10}))?|\/(\d{1,19}))?|(0[xX])?([0-9a-fA-F]{1,100})/g;

const isWordChar = (c: number): boolean =>
  (c >= 48 && c <= 57) || (c >= 65 && c <= 90) || (c >= 97 && c <= 122) || c === 95;
const isDigit = (c: number): boolean => c >= 48 && c <= 57;
const isHexLetter = (c: number): boolean => (c >= 65 && c <= 70) || (c >= 97 && c <= 102);

/** Written right before a version number: `^`, `~`, `@`, `>=`, `version`, `pragma solidity`, `solc`… (`v0.0.1` touches a letter). */
const VERSION_BEFORE =
  /(?:[\^~@]|[<>]=|\bversions?|\bpragma\s+solidity|\bsolc|\bcompiler|\bnpm|\brelease)["']?\s*[:=-]?\s*["'`]?\s*$/i;
/** A line that names a secret before the value: a 0x + 64 hex there is a private key, not a hash. */
const SECRET_BEFORE = /priv|secret|passw|mnemonic|seed|key|(?:^|[^a-z])pk(?:[^a-z]|$)/i;
/**
 * A 0x + 64 hex value is taken for a transaction hash only where the text says so (`txHash`, `hash:`, `transaction`,
 * `receipt`, a `/tx/` link): the same form is a private key (`new Wallet("0x…")`, `accounts: ["0x…"]`, `KEY=0x…`), a
 * storage slot or a bytes32 value, and a private key must never reach a server.
 */
const TX_BEFORE = /(?:tx|hash|transaction|receipt)/i;
/** Right before a bare 40-hex run: a git object id, not an address. */
const GIT_BEFORE = /(?:commit|sha\d*|git|revision|\brev|tree|blob|merge|hash)\W{0,3}$/i;
/** Path segments after which a URL's next segment is a reference of that kind. */
const URL_KINDS = new Set([
  'account',
  'accounts',
  'contract',
  'contracts',
  'token',
  'tokens',
  'topic',
  'topics',
  'schedule',
  'schedules',
  'transaction',
  'transactions',
  'tx',
  'results',
  'address',
  'nft',
  'nfts',
]);
/** What ends a URL token (and starts one when looking back). */
const URL_STOP = ' \t"\'`<>()[]{}|\\';

/** An entity id in the mirror node's ranges (the digits are already 1-19 each). */
function inRange(shard: string, realm: string, num: string): boolean {
  // 0.0.0 is no entity (and is how versions start)
  if (Number(num) === 0) return false;
  return (
    shard.length <= 4 &&
    realm.length <= 5 &&
    num.length <= 12 &&
    Number(shard) <= MAX_SHARD &&
    Number(realm) <= MAX_REALM &&
    Number(num) <= MAX_NUM
  );
}

/** The segment before `/` at `slash` in a URL (lowercase), or undefined when the character there is not `/`. */
function segmentBefore(line: string, slash: number, tokenStart: number): string | undefined {
  if (line.charCodeAt(slash) !== 47) return undefined;
  let a = slash;
  while (a > tokenStart && line.charCodeAt(a - 1) !== 47) a--;
  return line.slice(a, slash).toLowerCase();
}

/**
 * Where the URL containing [start, end) begins, or -1 when the text there is not a URL. A URL is a token (up to a
 * space, quote or bracket) that starts with `scheme://` or `www.`.
 */
function urlStart(line: string, start: number): number {
  const limit = Math.max(0, start - URL_LOOKBACK);
  let a = start;
  while (a > limit && !URL_STOP.includes(line[a - 1])) a--;
  const token = line.slice(a, Math.min(start, a + 40));
  if (/^[a-z][a-z0-9+.-]*:\/\//i.test(token) || /^www\./i.test(token)) return a;
  // no start found within the look-back: a very long token; it is a URL if it holds `://` before the candidate
  if (a === limit && limit > 0 && line.slice(limit, start).includes('://')) return limit;
  return -1;
}

/** Whether a candidate inside a URL is a whole path segment after a segment naming its kind. */
function urlAllows(line: string, start: number, end: number, at: number): boolean {
  const seg = segmentBefore(line, start - 1, at);
  if (seg === undefined) return false;
  if (!URL_KINDS.has(seg)) return false;
  const after = line[end];
  return after === undefined || '/?#&'.includes(after) || URL_STOP.includes(after);
}

/** The context before `start`: at most CONTEXT_CHARS characters of the same line. */
const before = (line: string, start: number): string => line.slice(Math.max(0, start - CONTEXT_CHARS), start);

/**
 * The references in `line` that start in [from, to). Boundaries are checked against the whole line (a window's edge
 * is not a boundary). Never throws.
 */
export function refsInLine(line: string, from = 0, to = line.length, standalone = false): LedgerRef[] {
  const out: LedgerRef[] = [];
  const stop = Math.min(to, line.length);
  TOKEN.lastIndex = Math.max(0, from);
  let m: RegExpExecArray | null;
  while ((m = TOKEN.exec(line)) !== null && m.index < stop) {
    const ref = candidate(line, m, standalone);
    if (ref) out.push(ref);
  }
  TOKEN.lastIndex = 0;
  return out;
}

/** The reference under `character` (a hover's position), read from a window around it. */
export function refAt(line: string, character: number): LedgerRef | undefined {
  if (character < 0 || character > line.length) return undefined;
  const from = Math.max(0, character - HOVER_WINDOW);
  const to = Math.min(line.length, character + 1);
  let found: LedgerRef | undefined;
  for (const r of refsInLine(line, from, to)) if (r.start <= character && character < r.end) found = r;
  return found;
}

/**
 * Exactly one reference and nothing else (surrounding spaces ignored), or undefined: how a command checks the
 * argument it was given again before using it.
 */
export function parseRef(text: unknown): LedgerRef | undefined {
  if (typeof text !== 'string' || text.length > 200) return undefined;
  const t = text.trim();
  // a command's argument is a reference by itself (a hash needs no context saying so)
  const refs = refsInLine(t, 0, t.length, true);
  return refs.length === 1 && refs[0].start === 0 && refs[0].end === t.length ? refs[0] : undefined;
}

function candidate(line: string, m: RegExpExecArray, standalone: boolean): LedgerRef | undefined {
  const start = m.index;
  const end = start + m[0].length;
  const prev = start > 0 ? line.charCodeAt(start - 1) : -1;
  const next = end < line.length ? line.charCodeAt(end) : -1;
  if (prev >= 0 && isWordChar(prev)) return undefined;
  if (next >= 0 && isWordChar(next)) return undefined;
  const text = m[0];
  let ref: LedgerRef | undefined;
  if (m[1] !== undefined) ref = dotted(line, m, start, end, prev, next);
  else ref = hex(line, m, start, end, standalone);
  if (!ref) return undefined;
  const at = urlStart(line, start);
  if (at >= 0 && !urlAllows(line, start, end, at)) return undefined;
  ref.text = text;
  return ref;
}

function dotted(
  line: string,
  m: RegExpExecArray,
  start: number,
  end: number,
  prev: number,
  next: number,
): LedgerRef | undefined {
  // part of a longer dotted number (1.0.0.5, 127.0.0.1) or a form left incomplete (0.0.5-17, 0.0.5@1, 0.0.5/x.1)
  if (prev === 46) return undefined; // '.'
  // the second half of a range of numbers (1.2.3-0.0.5)
  if (prev === 45 && start >= 2 && isDigit(line.charCodeAt(start - 2))) return undefined;
  if ((next === 46 || next === 45 || next === 64 || next === 47) && isDigit(line.charCodeAt(end + 1))) return undefined;
  if (!inRange(m[1], m[2], m[3])) return undefined;
  if (VERSION_BEFORE.test(before(line, start))) return undefined;
  const id = `${Number(m[1])}.${Number(m[2])}.${Number(m[3])}`;
  const text = m[0];
  if (m[4] !== undefined || m[7] !== undefined) {
    const r = parseTxRef(text);
    if (!r.ok || r.value.kind !== 'transactionId') return undefined;
    const ref: LedgerRef = { kind: 'transactionId', start, end, text, value: r.value.id };
    if (r.value.nonce !== undefined) ref.nonce = r.value.nonce;
    if (r.value.scheduled) ref.scheduled = true;
    return ref;
  }
  if (m[12] !== undefined) {
    const serial = m[12];
    if (serial.length > 19 || /^0+$/.test(serial)) return undefined;
    const n = BigInt(serial);
    if (n < 1n || n > 9223372036854775807n) return undefined;
    return { kind: 'nft', start, end, text, value: id, serial: n.toString() };
  }
  return { kind: 'entity', start, end, text, value: id };
}

function hex(line: string, m: RegExpExecArray, start: number, end: number, standalone: boolean): LedgerRef | undefined {
  const prefixed = m[13] !== undefined;
  const digits = m[14];
  const text = m[0];
  if (digits.length === 40) {
    if (!prefixed) {
      // a 40-digit decimal number, or a git object id
      let letter = false;
      for (let i = 0; i < digits.length && !letter; i++) letter = isHexLetter(digits.charCodeAt(i));
      if (!letter || GIT_BEFORE.test(before(line, start))) return undefined;
    }
    return { kind: 'evmAddress', start, end, text, value: `0x${digits.toLowerCase()}` };
  }
  if (digits.length === 64 && prefixed) {
    const context = before(line, start);
    if (SECRET_BEFORE.test(context) || (!standalone && !TX_BEFORE.test(context))) return undefined;
    return { kind: 'hash', start, end, text, value: `0x${digits.toLowerCase()}` };
  }
  return undefined;
}

/**
 * Lines of a document searched for links, from its first: a longer document's later lines have hovers (one line
 * read each), not links. Measured by test/bench/hover.mjs: the provider's time after an edit of a 10,000-line file.
 */
export const MAX_LINK_LINES = 5_000;
/** Links of one document at most: VS Code draws and keeps each one. */
export const MAX_LINKS = 2_000;

export interface DocumentRef {
  line: number;
  ref: LedgerRef;
}

/**
 * The references of a document for its links: its first MAX_LINK_LINES lines, each up to MAX_LINE_CHARS, at most
 * MAX_LINKS. `lineAt` reads one line; `stop` is asked every 256 lines (a cancelled request ends early).
 */
export function refsInDocument(
  lineCount: number,
  lineAt: (line: number) => string,
  stop?: () => boolean,
): DocumentRef[] {
  const out: DocumentRef[] = [];
  const lines = Math.min(lineCount, MAX_LINK_LINES);
  for (let i = 0; i < lines; i++) {
    if ((i & 255) === 0 && i > 0 && stop?.()) break;
    const text = lineAt(i);
    for (const ref of refsInLine(text, 0, Math.min(text.length, MAX_LINE_CHARS))) {
      out.push({ line: i, ref });
      if (out.length >= MAX_LINKS) return out;
    }
  }
  return out;
}
