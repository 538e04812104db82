/**
 * Validation of every value a user can type, with the patterns the mirror node and Sourcify use.
 * Each check returns the normalised value or one sentence that says what is wrong; no request goes out for
 * a value that fails here.
 */
import * as l10n from '@vscode/l10n';
import { MAX_NUM, MAX_REALM, MAX_SHARD } from './entityAddress';
import { invalidInput } from './errors';

export type Check<T> = { ok: true; value: T } | { ok: false; message: string };

export type Operator = 'eq' | 'ne' | 'lt' | 'lte' | 'gt' | 'gte';
export const OPERATORS: readonly Operator[] = ['eq', 'ne', 'lt', 'lte', 'gt', 'gte'];

/** A query filter: `value` alone means eq on the wire (`name=value`), else `name=op:value`. */
export interface Filter {
  op?: Operator;
  value: string;
}

const ok = <T>(value: T): Check<T> => ({ ok: true, value });
const fail = <T>(message: string): Check<T> => ({ ok: false, message });

export const INT64_MAX = 9223372036854775807n;
const INT32_MAX = 2147483647;

const ENTITY_ID = /^(?:(\d{1,19})\.)?(?:(\d{1,19})\.)?(\d{1,19})$/;
export { MAX_NUM, MAX_REALM, MAX_SHARD, evmAddressToEntityId } from './entityAddress';
/** The latest timestamp the mirror node can search: int64 nanoseconds (2262-04-11T23:47:16.854775807Z). */
export const MAX_TIMESTAMP = '9223372036.854775807';
const EVM_ADDRESS = /^(0x)?[0-9a-fA-F]{40}$/;
const TIMESTAMP = /^\d{1,10}(\.\d{1,9})?$/;
const BLOCK_HASH = /^(0x)?([0-9a-fA-F]{64}|[0-9a-fA-F]{96})$/;
const OP_PREFIX = /^(eq|ne|lt|lte|gt|gte):(.*)$/i;

/** Splits `op:value` (operator case-insensitive); a bare value has no operator. */
export function splitOperator(input: string): { op?: Operator; value: string } {
  const m = OP_PREFIX.exec(input.trim());
  if (m) return { op: m[1].toLowerCase() as Operator, value: m[2].trim() };
  return { value: input.trim() };
}

/** The wire form of a filter: `value` for a plain equality, else `op:value`. */
export function filterToParam(f: Filter): string {
  return f.op && f.op !== 'eq' ? `${f.op}:${f.value}` : f.value;
}

/** True for a full `shard.realm.num` id in the mirror node's ranges (no spaces, no short forms). */
export function isEntityId(s: string): boolean {
  return /^\d{1,19}\.\d{1,19}\.\d{1,19}$/.test(s) && checkEntityId(s).ok;
}

/** True for a transaction id `shard.realm.num-seconds-nanos` whose account is an entity id. */
export function isTransactionId(s: string): boolean {
  const m = /^(\d{1,19}\.\d{1,19}\.\d{1,19})-\d{1,19}-\d{1,9}$/.exec(s);
  return !!m && isEntityId(m[1]);
}

/** Hedera entity id: `shard.realm.num`, `realm.num` or `num`, in the real server's ranges (shard <= 1023, realm <= 65535, num < 2^38). Normalised to `shard.realm.num`. */
export function checkEntityId(input: string, what = l10n.t('an entity id')): Check<string> {
  const s = input.trim();
  if (!s) return fail(l10n.t('Enter {0} such as 0.0.1234.', what));
  const m = ENTITY_ID.exec(s);
  if (!m) return fail(l10n.t('"{0}" is not {1}: use the form shard.realm.num, for example 0.0.1234.', clip(s), what));
  const parts = s.split('.');
  while (parts.length < 3) parts.unshift('0');
  const [shard, realm, num] = parts.map((p) => BigInt(p));
  const range = l10n.t('shard up to {0}, realm up to {1}, num up to {2}', `${MAX_SHARD}`, `${MAX_REALM}`, `${MAX_NUM}`);
  if (shard > MAX_SHARD)
    return fail(l10n.t('"{0}" is not {1}: its shard is above {2} ({3}).', clip(s), what, `${MAX_SHARD}`, range));
  if (realm > MAX_REALM)
    return fail(l10n.t('"{0}" is not {1}: its realm is above {2} ({3}).', clip(s), what, `${MAX_REALM}`, range));
  if (num > MAX_NUM)
    return fail(l10n.t('"{0}" is not {1}: its number is above {2} ({3}).', clip(s), what, `${MAX_NUM}`, range));
  return ok(`${shard}.${realm}.${num}`);
}

/** An entity id filter with an optional operator (`gte:0.0.100`). */
export function checkEntityIdFilter(input: string, what = l10n.t('an entity id')): Check<Filter> {
  const { op, value } = splitOperator(input);
  const id = checkEntityId(value, what);
  if (!id.ok) return id;
  return ok({ op, value: id.value });
}

/** EVM address: 40 hex digits with an optional 0x. Normalised to lowercase with 0x. */
export function checkEvmAddress(input: string): Check<string> {
  const s = input.trim();
  if (!s) return fail(l10n.t('Enter an EVM address such as 0x00000000000000000000000000000000000004d2.'));
  if (!EVM_ADDRESS.test(s))
    return fail(l10n.t('"{0}" is not an EVM address: it needs 40 hexadecimal digits, optionally after 0x.', clip(s)));
  return ok(`0x${s.replace(/^0x/i, '').toLowerCase()}`);
}

/** An account for `from`: entity id or EVM address. */
export function checkAccountOrAddress(input: string): Check<string> {
  const s = input.trim();
  if (/^(0x)?[0-9a-fA-F]{40}$/.test(s)) return checkEvmAddress(s);
  if (/^0x/i.test(s) || /[a-fA-F]/.test(s))
    return fail(
      l10n.t('"{0}" is neither an account id (0.0.1234) nor an EVM address (0x and 40 hexadecimal digits).', clip(s)),
    );
  const id = checkEntityId(s, l10n.t('an account id or EVM address'));
  return id;
}

/** The long-zero EVM address of an entity id (0.0.1234 → 0x00000000000000000000000000000000000004d2). */
export function entityIdToEvmAddress(id: string): Check<string> {
  const c = checkEntityId(id);
  if (!c.ok) return c;
  const [shard, realm, num] = c.value.split('.').map((p) => BigInt(p));
  if (shard > 0xffffffffn || realm > 0xffffffffffffffffn || num > 0xffffffffffffffffn)
    return fail(l10n.t('{0} is too large for an EVM address.', c.value));
  const hex =
    shard.toString(16).padStart(8, '0') + realm.toString(16).padStart(16, '0') + num.toString(16).padStart(16, '0');
  return ok(`0x${hex}`);
}

/**
 * A consensus timestamp: `seconds.nanoseconds` (up to 10 and 9 digits). An ISO 8601 date
 * (`2026-11-20T10:00:00Z`, `2026-11-20`) is accepted too and converted to seconds.
 */
export function checkTimestamp(input: string): Check<string> {
  const s = input.trim();
  if (!s)
    return fail(
      l10n.t(
        'Enter a timestamp: seconds.nanoseconds such as 1700000000.000000000, or a date such as 2026-11-20T10:00:00Z.',
      ),
    );
  const tooLate = (): Check<string> =>
    fail(
      l10n.t(
        '"{0}" is too large for a timestamp: the latest the mirror node can search is {1} (2262-04-11T23:47:16Z).',
        clip(s),
        MAX_TIMESTAMP,
      ),
    );
  if (TIMESTAMP.test(s)) return timestampNanos(s) > INT64_MAX ? tooLate() : ok(s);
  if (/^\d{4}-\d{2}-\d{2}([T ]\d{2}:\d{2}(:\d{2}(\.\d{1,9})?)?)?(Z|[+-]\d{2}:?\d{2})?$/i.test(s)) {
    const fraction = /\.(\d{1,9})/.exec(s)?.[1];
    const ms = Date.parse(/^\d{4}-\d{2}-\d{2}$/.test(s) ? `${s}T00:00:00Z` : s);
    if (!Number.isNaN(ms) && ms >= 0) {
      const seconds = Math.floor(ms / 1000);
      const nanos = fraction ? fraction.padEnd(9, '0') : '000000000';
      const value = `${seconds}.${nanos}`;
      return timestampNanos(value) > INT64_MAX ? tooLate() : ok(value);
    }
  }
  return fail(
    l10n.t(
      '"{0}" is not a timestamp: use seconds.nanoseconds (1700000000.123456789) or an ISO date (2026-11-20T10:00:00Z).',
      clip(s),
    ),
  );
}

/** `seconds[.nanos]` as nanoseconds. */
function timestampNanos(ts: string): bigint {
  const [sec, frac = ''] = ts.split('.');
  return BigInt(sec) * 1_000_000_000n + BigInt(frac.padEnd(9, '0') || '0');
}

/** A timestamp filter with an optional operator (`gte:1700000000`). */
export function checkTimestampFilter(input: string): Check<Filter> {
  const { op, value } = splitOperator(input);
  const t = checkTimestamp(value);
  if (!t.ok) return t;
  return ok({ op, value: t.value });
}

/**
 * A timestamp range typed as one or two filters separated by spaces or commas
 * (`gte:1700000000 lt:1700003600`). At most two bounds, as the mirror node allows.
 */
export function checkTimestampFilters(input: string): Check<Filter[]> {
  const parts = input.split(/[\s,]+/).filter(Boolean);
  if (!parts.length) return ok([]);
  if (parts.length > 2)
    return fail(l10n.t('Give at most two timestamp bounds, for example gte:1700000000 lt:1700003600.'));
  const out: Filter[] = [];
  for (const p of parts) {
    const c = checkTimestampFilter(p);
    if (!c.ok) return c;
    out.push(c.value);
  }
  return ok(out);
}

/** Block hash: 64 or 96 hex digits with an optional 0x (and an optional `eq:`). Normalised to lowercase with 0x. */
export function checkBlockHash(input: string): Check<string> {
  const { op, value } = splitOperator(input);
  if (op && op !== 'eq') return fail(l10n.t('A block hash can only be matched exactly (no operator other than eq).'));
  if (!value) return fail(l10n.t('Enter a block hash: 64 or 96 hexadecimal digits, optionally after 0x.'));
  if (!BLOCK_HASH.test(value))
    return fail(
      l10n.t('"{0}" is not a block hash: it needs 64 or 96 hexadecimal digits, optionally after 0x.', clip(value)),
    );
  return ok(`0x${value.replace(/^0x/i, '').toLowerCase()}`);
}

/** Block number: a decimal (up to 19 digits, at most 2^63-1) or 0x hex (and an optional `eq:`). Normalised to decimal. */
export function checkBlockNumber(input: string): Check<string> {
  const { op, value } = splitOperator(input);
  if (op && op !== 'eq') return fail(l10n.t('A block number can only be matched exactly (no operator other than eq).'));
  if (!value) return fail(l10n.t('Enter a block number, for example 1234567 or 0x12d687.'));
  let n: bigint | undefined;
  if (/^\d{1,19}$/.test(value)) n = BigInt(value);
  else if (/^0x[0-9a-fA-F]{1,16}$/.test(value)) n = BigInt(value);
  if (n === undefined || n > INT64_MAX)
    return fail(
      l10n.t('"{0}" is not a block number: use a whole number from 0 to {1} or 0x hex.', clip(value), `${INT64_MAX}`),
    );
  return ok(n.toString());
}

/** Index of a transaction in its block: a whole number from 0. */
export function checkTransactionIndex(input: string): Check<number> {
  const { op, value } = splitOperator(input);
  if (op && op !== 'eq')
    return fail(l10n.t('A transaction index can only be matched exactly (no operator other than eq).'));
  if (!/^\d{1,10}$/.test(value) || Number(value) > INT32_MAX)
    return fail(
      l10n.t('"{0}" is not a transaction index: use a whole number from 0 to {1}.', clip(value), `${INT32_MAX}`),
    );
  return ok(Number(value));
}

/** Page size: 1..100. */
export function checkLimit(input: string | number): Check<number> {
  const s = String(input).trim();
  if (!/^\d{1,3}$/.test(s) || Number(s) < 1 || Number(s) > 100)
    return fail(l10n.t('"{0}" is not a page size: use a whole number from 1 to 100.', clip(s)));
  return ok(Number(s));
}

/** NFT serial number: 1..9223372036854775807, compared as BigInt. */
export function checkSerial(input: string | number | bigint): Check<string> {
  const s = String(input).trim().replace(/^#/, '');
  if (!/^\d{1,19}$/.test(s))
    return fail(l10n.t('"{0}" is not a serial number: use a whole number from 1 to {1}.', clip(s), `${INT64_MAX}`));
  const n = BigInt(s);
  if (n < 1n || n > INT64_MAX)
    return fail(l10n.t('{0} is out of range: a serial number is from 1 to {1}.', clip(s), `${INT64_MAX}`));
  return ok(n.toString());
}

/** A check's value, or an ApiError of kind `invalidInput` carrying its sentence (no request goes out). */
export function unwrap<T>(c: Check<T>): T {
  if (c.ok) return c.value;
  throw invalidInput(c.message);
}

function clip(s: string): string {
  const oneLine = s.replace(/\s+/g, ' ');
  return oneLine.length > 80 ? `${oneLine.slice(0, 79)}…` : oneLine;
}
