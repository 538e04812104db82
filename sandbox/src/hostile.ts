/**
 * Hostile mode: traps a test turns on per run or per request (README.md, "Hostile mode"). Each family is a
 * mechanism applied wherever it fits, never one crafted answer: hostile text in every free-text field, paging
 * loops and foreign links, cross-origin redirects, big integers and unknown fields, lying Sourcify answers.
 * Answers keep the real servers' shape: ids, timestamps and the fields clients validate stay valid.
 */
import { errorString, stringResult } from './abi';
import { type Reply, jsonReply } from './http';
import { toJson } from './json';

export const HOSTILE_FAMILIES = [
  'text',
  'paging-self',
  'paging-cycle',
  'paging-foreign',
  'paging-remote',
  'paging-empty',
  'redirect',
  'bigint',
  'unknown-fields',
  'sourcify',
] as const;
export type HostileFamily = (typeof HOSTILE_FAMILIES)[number];
export type HostileSet = ReadonlySet<HostileFamily>;
/** `true`: every family; `false`: none; a list of families; or `{family: true}`. */
export type HostileOption = boolean | readonly HostileFamily[] | Partial<Record<HostileFamily, boolean>>;

export const PAGING_FAMILIES: readonly HostileFamily[] = [
  'paging-self',
  'paging-cycle',
  'paging-foreign',
  'paging-remote',
  'paging-empty',
];
const ANSWER_FAMILIES: readonly HostileFamily[] = HOSTILE_FAMILIES.filter((f) => f !== 'redirect');

const isFamily = (s: string): s is HostileFamily => (HOSTILE_FAMILIES as readonly string[]).includes(s);

/** Reads a HostileOption (startSandbox, control route); returns the set or an error text. */
export function parseHostileOption(v: unknown): { families: Set<HostileFamily> } | { error: string } {
  if (v === true) return { families: new Set(HOSTILE_FAMILIES) };
  if (v === false || v === undefined || v === null) return { families: new Set() };
  if (Array.isArray(v)) {
    const out = new Set<HostileFamily>();
    for (const x of v) {
      if (typeof x !== 'string' || !isFamily(x))
        return { error: `unknown hostile family ${JSON.stringify(x)} (expected ${HOSTILE_FAMILIES.join(', ')})` };
      out.add(x);
    }
    return { families: out };
  }
  if (typeof v === 'object') {
    const out = new Set<HostileFamily>();
    for (const [k, on] of Object.entries(v as Record<string, unknown>)) {
      if (!isFamily(k))
        return { error: `unknown hostile family ${JSON.stringify(k)} (expected ${HOSTILE_FAMILIES.join(', ')})` };
      if (typeof on !== 'boolean') return { error: `hostile.${k} must be a boolean` };
      if (on) out.add(k);
    }
    return { families: out };
  }
  return { error: 'hostile must be true, false, a list of families or an object {family: boolean}' };
}

/**
 * The `x-sandbox-hostile` header: `1`/`true`/`all`/`on` (every family), `0`/`false`/`none`/`off` (none, also on a
 * hostile run), or family names separated by commas or spaces. The header replaces the run's set for that request.
 */
export function parseHostileHeader(v: string): { families: Set<HostileFamily> } | { error: string } {
  const s = v.trim().toLowerCase();
  if (['1', 'true', 'all', 'on', 'yes'].includes(s)) return { families: new Set(HOSTILE_FAMILIES) };
  if (['0', 'false', 'none', 'off', 'no', ''].includes(s)) return { families: new Set() };
  return parseHostileOption(s.split(/[\s,]+/).filter(Boolean));
}

/* ------------------------------------------------------------------ payloads */

export const COMMAND_LINK = '[Open a terminal](command:workbench.action.terminal.new)';
export const BEACON_URL = 'http://127.0.0.1/__beacon?x=1';
export const BIDI_NAME = 'Other\u202Elos.exe\u202C';

/** The rotating payloads of the `text` family (index = payload number). */
export const HOSTILE_TEXTS: readonly { id: string; text: string }[] = [
  { id: 'md-command', text: `${COMMAND_LINK} to fix this` },
  { id: 'md-https', text: '[Verify your wallet](https://evil.example/phish?session=1 "Hedera support") now' },
  { id: 'icon', text: '$(terminal) $(alert) Click $(link-external) to continue $(sync~spin)' },
  {
    id: 'html',
    text: '<script>alert(1)</script><img src=x onerror=alert(2)><a href="command:workbench.action.terminal.new">open</a>',
  },
  { id: 'markdown', text: '**URGENT** _please_ `rm -rf ~` ~~safe~~\n# Heading\n> quoted\n\n| a | b |\n|---|---|' },
  { id: 'bare-url', text: `Details at ${BEACON_URL} or https://evil.example/__beacon?x=2 or www.evil.example` },
  { id: 'bidi', text: BIDI_NAME },
  {
    id: 'bidi-isolate',
    text: 'Pay \u2066\u2067lairotcejbo\u2069\u2069 \u202Bembedded\u202C \u202Doverride\u202C \u200Fmark\u200E \u2068first\u2069',
  },
  { id: 'zero-width', text: 'pay\u200Bment\u200C to\u200D 0.0.\uFEFF1234' },
  { id: 'control', text: 'bell\u0007 nul\u0000 esc\u001b[31mred\u001b[0m del\u007f c1\u0085\u009b\u0090 cr\rlf\nend' },
  { id: 'long', text: `Long text start ${'0123456789ABCDEF'.repeat(312)} long text end` },
  { id: 'surrogate', text: 'lone \uD800 high, lone \uDFFF low, reversed \uDC00\uD800, kept 😀' },
];

/** Every mechanism in one string: used for error messages (mirror `detail`, status page `error`, Sourcify `message`). */
export const MIX_TEXT = `${COMMAND_LINK} $(alert) <img src=x onerror=alert(1)> \`code\` **bold** ${BEACON_URL} ${BIDI_NAME} zero\u200Bwidth\uFEFF ctrl\u0007\u001b[0m\u009b lone\uD800`;

export const payloadCount = HOSTILE_TEXTS.length;
export const payload = (i: number | bigint): string => HOSTILE_TEXTS[Number(BigInt(i) % BigInt(payloadCount))].text;
export const payloadIndex = (i: number | bigint): number =>
  Number(((BigInt(i) % BigInt(payloadCount)) + BigInt(payloadCount)) % BigInt(payloadCount));

/** Source paths for Sourcify answers (`text`): traversal, markdown, bidi, html, zero-width, control. */
export const HOSTILE_PATHS: readonly string[] = [
  `contracts/${BIDI_NAME}.sol`,
  '../../../.vscode/settings.json',
  'contracts/[Open a terminal](command:workbench.action.terminal.new).sol',
  'contracts/<img src=x onerror=alert(1)>.sol',
  'contracts/Tok\u200Ben.sol',
  'contracts/$(alert)Ctrl\u0007\u001b[31m.sol',
];

/* ------------------------------------------------------------------ request context */

export interface HostileCtx {
  families: HostileSet;
  /** Path and query exactly as requested. */
  rawUrl: string;
  /** Host header as received (may be missing). */
  host: string | undefined;
  port: number;
}

export const has = (h: HostileCtx | undefined, f: HostileFamily): boolean => !!h && h.families.has(f);

/** Another origin that still reaches this sandbox: `localhost` when reached as 127.0.0.1 or [::1], else 127.0.0.1. */
export function otherOrigin(host: string | undefined, port: number): string {
  const m = /^(\[[^\]]*\]|[^:]*)(?::(\d+))?$/.exec(host ?? '');
  const name = (m?.[1] ?? '').toLowerCase();
  const p = m?.[2] ?? String(port);
  return name === 'localhost' ? `http://127.0.0.1:${p}` : `http://localhost:${p}`;
}
export const REMOTE_ORIGIN = 'https://evil.example';

/* ------------------------------------------------------------------ redirect */

/**
 * Whether this request gets the `redirect` trap: alone, every service GET/HEAD; combined with other families
 * (so their answers stay reachable), only `GET /api/v1/schedules/{id}`.
 */
export function redirectApplies(h: HostileCtx, method: string, path: string): boolean {
  if (!h.families.has('redirect') || (method !== 'GET' && method !== 'HEAD')) return false;
  const alone = ANSWER_FAMILIES.every((f) => !h.families.has(f));
  if (alone) return path.startsWith('/api/') || /^(\/server)?\/v2\//.test(path) || path.startsWith('/hashscan');
  return /^\/api\/v1\/schedules\/[^/]+\/?$/.test(path);
}

/** A 302 to the same path on another origin that reaches this sandbox (nginx-like body). */
export function redirectReply(h: HostileCtx): Reply {
  const location = otherOrigin(h.host, h.port) + h.rawUrl;
  const body =
    '<html>\r\n<head><title>302 Found</title></head>\r\n<body>\r\n<center><h1>302 Found</h1></center>\r\n<hr><center>nginx</center>\r\n</body>\r\n</html>\r\n';
  return {
    status: 302,
    headers: { 'Content-Type': 'text/html; charset=utf-8', Location: location, 'cache-control': 'no-store' },
    body,
  };
}

/* ------------------------------------------------------------------ error bodies (text) */

/** Adds the MIX text to a JSON error answer of any service (status >= 400): mirror `detail`, else `error`/`message`. */
export function hostileErrorReply(path: string, reply: Reply): Reply {
  if (reply.status < 400 || !/json/.test(reply.headers['Content-Type'] ?? '')) return reply;
  let v: unknown;
  try {
    v = JSON.parse(reply.body);
  } catch {
    return reply;
  }
  if (typeof v !== 'object' || v === null || Array.isArray(v)) return reply;
  const o = v as Record<string, unknown>;
  const st = o._status as { messages?: unknown } | undefined;
  if (path.startsWith('/api/v1') && st && Array.isArray(st.messages)) {
    st.messages = st.messages.map((m) =>
      typeof m === 'object' && m !== null ? { ...(m as object), detail: MIX_TEXT } : m,
    );
  } else {
    if (typeof o.message === 'string') o.message = `${o.message} ${MIX_TEXT}`;
    if (typeof o.error === 'string') o.error = `${o.error} ${MIX_TEXT}`;
    if (o.message === undefined && o.error === undefined) o.message = MIX_TEXT;
  }
  const { ETag: _etag, ...headers } = reply.headers;
  return jsonReply(reply.status, o, headers);
}

/* ------------------------------------------------------------------ mirror items */

const U64_MAX = 18446744073709551615n;
const I64_MAX = 9223372036854775807n;
const U128_MAX = (1n << 128n) - 1n;

/** Big values put in a rotating known integer field, one per item (`bigint`). */
const BIG_ROTATION: readonly [string, bigint][] = [
  ['gas_used', U64_MAX],
  ['gas_consumed', I64_MAX],
  ['block_gas_used', 10n ** 30n],
  ['transaction_index', 4294967296n],
  ['gas_limit', 1n << 64n],
  ['v', I64_MAX],
  ['nonce', U64_MAX],
];

/** Unknown future values of enum fields (`unknown-fields`). */
export const UNKNOWN_ENUMS = {
  contractResult: 'CONTRACT_EXECUTION_PAUSED_FOR_UPGRADE',
  ethereumType: 5,
  keyType: 'ML_DSA_65',
  signatureType: 'ML_DSA_65',
  nftType: 'TOKENQUANTUMSWAP',
} as const;

function deep(depth: number, leafArray: boolean): string {
  return leafArray
    ? '['.repeat(depth) + '"bottom"' + ']'.repeat(depth)
    : '{"a":'.repeat(depth) + '"bottom"' + '}'.repeat(depth);
}

/**
 * Unknown fields of every JSON type, nesting and awkward name, as raw JSON members (`__proto__` cannot be
 * written from an object literal). Appended to every mirror item.
 */
export const UNKNOWN_FIELDS_JSON = [
  `"zz_future_string":${JSON.stringify('a value of a field added in a later mirror node release')}`,
  '"zz_future_empty_string":""',
  '"zz_future_int":42',
  '"zz_future_negative":-9223372036854775808',
  '"zz_future_float":3.141592653589793',
  '"zz_future_exponent":1.5e+300',
  '"zz_future_overflow":1e400',
  '"zz_future_negative_zero":-0',
  '"zz_future_true":true',
  '"zz_future_false":false',
  '"zz_future_null":null',
  '"zz_future_array":[1,"two",null,true,{"three":[3,3.5,18446744073709551615]},[]]',
  '"zz_future_empty_array":[]',
  '"zz_future_object":{"nested":{"deeper":{"deepest":"value","big":9223372036854775807,"list":[{"x":null}]}}}',
  '"zz_future_empty_object":{}',
  `"zz_future_deep_array":${deep(40, true)}`,
  `"zz_future_deep_object":${deep(40, false)}`,
  '"__proto__":{"polluted":true,"toString":"not a function"}',
  '"constructor":{"prototype":{"polluted":true}}',
  '"toString":"not a function"',
  '"hasOwnProperty":1',
  '"valueOf":{}',
  '"":"empty name"',
  '"0":"numeric name"',
  '"a.b[0]":"dotted name"',
  `${JSON.stringify('<img src=x onerror=alert(1)>')}:"html name"`,
  `${JSON.stringify(COMMAND_LINK)}:"markdown name"`,
  `${JSON.stringify('\u202Eeman idib\u202C')}:"bidi name"`,
  `${JSON.stringify('zero\u200Bwidth')}:"zero-width name"`,
  `${JSON.stringify('x'.repeat(300))}:"long name"`,
].join(',');

/** Appends raw JSON members to a JSON object text. */
export function spliceMembers(objJson: string, members: string): string {
  if (!members) return objJson;
  return objJson === '{}' ? `{${members}}` : `${objJson.slice(0, -1)},${members}}`;
}

const hex = (seed: bigint, bytes: number): string => {
  let out = '';
  let x = seed;
  while (out.length < bytes * 2) {
    x = (x * 6364136223846793005n + 1442695040888963407n) & ((1n << 64n) - 1n);
    out += (x >> 32n).toString(16).padStart(8, '0');
  }
  return out.slice(0, bytes * 2);
};

/** `text` payload number of a contract result, or undefined when it has no text to replace. */
export type TextIndexOf = (tsNs: bigint) => number | undefined;

/**
 * A contract result (object of `/contracts/results` or the smaller one of `/contracts/{id}/results`) with the
 * traps on: `text` (Error(string) reason, textual error_message, name() string result), `bigint`
 * (amount, the nonces of an authorization_list where there is one, a future field, one rotating known field),
 * `unknown-fields`.
 */
export function hostileContractResult(
  h: HostileCtx,
  obj: Record<string, unknown>,
  tsNs: bigint,
  textIndex: number | undefined,
  byId: boolean,
  weibar = false,
): string {
  const o: Record<string, unknown> = { ...obj };
  if (h.families.has('text') && textIndex !== undefined) {
    const t = payload(textIndex);
    const em = o.error_message;
    if (typeof em === 'string' && em.startsWith('0x08c379a0')) {
      o.error_message = errorString(t);
      if (typeof o.call_result === 'string' && o.call_result.startsWith('0x08c379a0')) o.call_result = o.error_message;
    } else if (typeof em === 'string' && em !== '' && !em.startsWith('0x')) {
      o.error_message = t;
    } else if (o.function_parameters === '0x06fdde03' && (o.result === undefined || o.result === 'SUCCESS')) {
      o.call_result = stringResult(t);
    }
  }
  if (h.families.has('bigint')) {
    o.amount = weibar ? I64_MAX * 10_000_000_000n : I64_MAX; // hbar=false: weibars
    // only where the result has a list (an EIP-7702 transaction's: the real server sends none on the others)
    if (Array.isArray(o.authorization_list)) {
      o.authorization_list = [
        ...(o.authorization_list as unknown[]),
        {
          chain_id: '0x128',
          address: '0x' + hex(tsNs, 20),
          nonce: U64_MAX,
          y_parity: '0x1',
          r: '0x' + hex(tsNs + 1n, 32),
          s: '0x' + hex(tsNs + 2n, 32),
        },
        {
          chain_id: '0x' + U64_MAX.toString(16),
          address: '0x' + hex(tsNs + 3n, 20),
          nonce: U128_MAX,
          y_parity: '0x0',
          r: '0x' + hex(tsNs + 4n, 32),
          s: '0x' + hex(tsNs + 5n, 32),
        },
      ];
    }
    const [field, value] = BIG_ROTATION[Number(tsNs % BigInt(BIG_ROTATION.length))];
    if (field in o) o[field] = value;
    o.blob_gas_used = I64_MAX; // a field a later release might add
  }
  if (h.families.has('unknown-fields') && !byId && tsNs % 4n === 0n && o.result === 'SUCCESS') {
    o.result = UNKNOWN_ENUMS.contractResult;
    // only an Ethereum transaction's type (a native result has type 0 and no signature)
    if (o.r !== null && o.r !== undefined) o.type = UNKNOWN_ENUMS.ethereumType;
  }
  const json = toJson(o);
  return h.families.has('unknown-fields') ? spliceMembers(json, UNKNOWN_FIELDS_JSON) : json;
}

/**
 * A schedule with the traps on: `text` (memo = payload i, the memo inside transaction_body = payload i+1, where
 * i is the schedule's position in the generated list), `bigint` (future fee fields), `unknown-fields` (fields, and
 * an unknown key and signature type on every 4th schedule by number).
 */
export function hostileSchedule(h: HostileCtx, obj: Record<string, unknown>, position: number, num: number): string {
  const o: Record<string, unknown> = { ...obj };
  if (h.families.has('text')) {
    o.memo = payload(position);
    if (typeof o.transaction_body === 'string')
      o.transaction_body = replaceBodyMemo(o.transaction_body, payload(position + 1));
  }
  if (h.families.has('bigint')) {
    o.max_transaction_fee = U64_MAX;
    o.gas_limit_total = I64_MAX;
  }
  if (h.families.has('unknown-fields') && num % 4 === 0) {
    if (o.admin_key && typeof o.admin_key === 'object')
      o.admin_key = { ...(o.admin_key as object), _type: UNKNOWN_ENUMS.keyType };
    if (Array.isArray(o.signatures))
      o.signatures = (o.signatures as Record<string, unknown>[]).map((s) => ({
        ...s,
        type: UNKNOWN_ENUMS.signatureType,
      }));
  }
  const json = toJson(o);
  return h.families.has('unknown-fields') ? spliceMembers(json, UNKNOWN_FIELDS_JSON) : json;
}

/** An NFT history entry with the traps on: `bigint` (nonce on every 3rd by timestamp, a future field), `unknown-fields`. */
export function hostileNft(h: HostileCtx, obj: Record<string, unknown>, tsNs: bigint): string {
  const o: Record<string, unknown> = { ...obj };
  if (h.families.has('bigint')) {
    if (tsNs % 3n === 0n) o.nonce = U64_MAX;
    o.serial_number = I64_MAX;
    o.fee_tinybars = U64_MAX;
  }
  if (h.families.has('unknown-fields') && tsNs % 4n === 0n) o.type = UNKNOWN_ENUMS.nftType;
  const json = toJson(o);
  return h.families.has('unknown-fields') ? spliceMembers(json, UNKNOWN_FIELDS_JSON) : json;
}

/* ------------------------------------------------------------------ protobuf memo */

function readVarint(b: Uint8Array, at: number): { value: bigint; next: number } {
  let value = 0n;
  let shift = 0n;
  let i = at;
  for (;;) {
    if (i >= b.length) throw new Error('truncated varint');
    const byte = b[i++];
    value |= BigInt(byte & 0x7f) << shift;
    if (byte < 0x80) return { value, next: i };
    shift += 7n;
  }
}

function varint(v: bigint): number[] {
  const out: number[] = [];
  let x = v;
  while (x >= 0x80n) {
    out.push(Number(x & 0x7fn) | 0x80);
    x >>= 7n;
  }
  out.push(Number(x));
  return out;
}

/** Replaces field 2 (`memo`) of a base64 SchedulableTransactionBody, keeping every other field as it is. */
export function replaceBodyMemo(base64: string, memo: string): string {
  const b = Uint8Array.from(Buffer.from(base64, 'base64'));
  const fields: { field: number; bytes: number[] }[] = [];
  let i = 0;
  while (i < b.length) {
    const start = i;
    const tag = readVarint(b, i);
    i = tag.next;
    const wire = Number(tag.value & 7n);
    if (wire === 0) i = readVarint(b, i).next;
    else if (wire === 2) {
      const len = readVarint(b, i);
      i = len.next + Number(len.value);
    } else if (wire === 1) i += 8;
    else if (wire === 5) i += 4;
    else return base64; // groups: leave the body alone
    fields.push({ field: Number(tag.value >> 3n), bytes: Array.from(b.subarray(start, i)) });
  }
  const text = Array.from(new TextEncoder().encode(memo));
  const memoField = [...varint(BigInt((2 << 3) | 2)), ...varint(BigInt(text.length)), ...text];
  const kept = fields.filter((f) => f.field !== 2);
  const at = kept.findIndex((f) => f.field > 2);
  const out =
    at < 0
      ? [...kept.flatMap((f) => f.bytes), ...memoField]
      : [...kept.slice(0, at).flatMap((f) => f.bytes), ...memoField, ...kept.slice(at).flatMap((f) => f.bytes)];
  return Buffer.from(out).toString('base64');
}

/* ------------------------------------------------------------------ paging */

export type ListEndpoint =
  'contractResults' | 'contractResultsById' | 'schedules' | 'nftHistory' | 'contractActions' | 'transactions';

/** Which paging family answers when several are on: the endpoint's own first, then the general order. */
const PAGING_PREFERENCE: Record<ListEndpoint, { first: HostileFamily[]; later: HostileFamily[] }> = {
  contractResults: { first: ['paging-cycle'], later: ['paging-cycle'] },
  contractResultsById: { first: ['paging-foreign'], later: ['paging-foreign'] },
  schedules: { first: ['paging-self'], later: ['paging-self'] },
  nftHistory: { first: ['paging-empty'], later: ['paging-remote'] },
  contractActions: { first: [], later: [] },
  transactions: { first: [], later: [] },
};
/** Lists whose cursor has no outer boundary a valid link can name (`index=gt:` below 0): no `paging-empty`. */
const NO_EMPTY_TRAP: ReadonlySet<ListEndpoint> = new Set(['contractActions']);

export function pagingTrap(
  h: HostileCtx | undefined,
  endpoint: ListEndpoint,
  firstPage: boolean,
): HostileFamily | undefined {
  if (!h) return undefined;
  const pref = PAGING_PREFERENCE[endpoint][firstPage ? 'first' : 'later'];
  for (const f of [...pref, ...PAGING_FAMILIES]) {
    if (!h.families.has(f)) continue;
    if (f === 'paging-empty' && (!firstPage || NO_EMPTY_TRAP.has(endpoint))) continue;
    return f;
  }
  return undefined;
}

export interface PageParts {
  items: string[];
  next: string | null;
}

/**
 * Applies the paging trap to a page. `realNext` is the server's own link; `forcedNext` a link past this page
 * even when it is short (`nextLink` from its last item); `firstUrl` the page without the cursor; `emptyNext` the
 * link an empty first page points to (cursor at the outer boundary, so it holds this page's items).
 */
export function applyPaging(
  h: HostileCtx,
  trap: HostileFamily,
  firstPage: boolean,
  page: PageParts,
  links: { forcedNext: string | null; firstUrl: string; emptyNext: string | null },
): PageParts {
  const anyNext = links.forcedNext ?? h.rawUrl;
  switch (trap) {
    case 'paging-self':
      return { items: page.items, next: h.rawUrl };
    case 'paging-cycle':
      return { items: page.items, next: firstPage ? anyNext : links.firstUrl };
    case 'paging-foreign':
      return { items: page.items, next: otherOrigin(h.host, h.port) + anyNext };
    case 'paging-remote':
      return { items: page.items, next: REMOTE_ORIGIN + anyNext };
    case 'paging-empty':
      return firstPage && links.emptyNext ? { items: [], next: links.emptyNext } : page;
    default:
      return page;
  }
}
