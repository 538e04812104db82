/**
 * What "Inspect Transaction…" accepts, checked as typed (nothing is requested for bad input): a transaction id
 * (`0.0.1234-1700000000-123456789`, or the SDK's `0.0.1234@1700000000.123456789` with an optional `?scheduled`
 * and `/nonce`), an Ethereum transaction hash (0x + 64 hex; a 48-byte Hedera transaction hash is reduced to its
 * first 32 bytes, which the mirror node looks contract results up by), a consensus timestamp
 * (`1700000000.123456789`), or a HashScan transaction URL pasted as it is (its network is kept). Plain TypeScript.
 */
import * as l10n from '@vscode/l10n';
import { type NetworkName } from './networks';
import { type Check, checkEntityId, INT64_MAX, MAX_TIMESTAMP } from './validation';

export type TxRef =
  | {
      kind: 'transactionId';
      /** `shard.realm.num-seconds-nanos`, nanos 9 digits */ id: string;
      nonce?: number;
      scheduled?: boolean;
      network?: NetworkName;
    }
  | { kind: 'hash'; /** 0x + 64 lowercase hex */ hash: string; network?: NetworkName }
  | { kind: 'timestamp'; /** `seconds.nanos`, nanos 9 digits */ timestamp: string; network?: NetworkName };

const ok = <T>(value: T): Check<T> => ({ ok: true, value });
const fail = <T>(message: string): Check<T> => ({ ok: false, message });

/** What can be entered, as the messages list it (a function: localized when called, not when loaded). */
const examples = (): string =>
  l10n.t(
    'a transaction id (0.0.1234-1700000000-123456789 or 0.0.1234@1700000000.123456789), a transaction hash (0x and 64 hexadecimal digits), a consensus timestamp (1700000000.123456789) or a HashScan transaction link',
  );
const INT32_MAX = 2147483647;
/** Network names HashScan uses in its paths. */
const HASHSCAN_NETWORKS: Readonly<Record<string, NetworkName>> = {
  mainnet: 'mainnet',
  testnet: 'testnet',
  previewnet: 'previewnet',
};

function clip(s: string): string {
  const one = s.replace(/\s+/g, ' ');
  return one.length > 80 ? `${one.slice(0, 79)}…` : one;
}

/** `seconds` and `nanos` (1-9 digits) within the mirror node's int64 nanoseconds. */
function validStart(seconds: string, nanos: string, padNanos: 'left' | 'right'): string | undefined {
  if (!/^\d{1,19}$/.test(seconds) || !/^\d{1,9}$/.test(nanos)) return undefined;
  const n = padNanos === 'left' ? nanos.padStart(9, '0') : nanos.padEnd(9, '0');
  const total = BigInt(seconds) * 1_000_000_000n + BigInt(n);
  if (total > INT64_MAX) return undefined;
  return `${BigInt(seconds).toString()}.${n}`;
}

function transactionId(account: string, seconds: string, nanos: string, what: string): Check<string> {
  const id = checkEntityId(account, l10n.t('an account id'));
  if (!id.ok || !/^\d{1,19}\.\d{1,19}\.\d{1,19}$|^\d{1,19}$/.test(account))
    return fail(
      l10n.t(
        '"{0}" is not a transaction id: its account {1} is not an account id such as 0.0.1234.',
        clip(what),
        clip(account),
      ),
    );
  // a transaction id's nanos are an integer (the SDK writes 0.0.1@1.5 for 5 ns): padded on the left
  const start = validStart(seconds, nanos, 'left');
  if (!start)
    return fail(
      l10n.t(
        '"{0}" is not a transaction id: its valid start {1} is not seconds and up to 9 digits of nanoseconds before {2}.',
        clip(what),
        clip(`${seconds}.${nanos}`),
        `${MAX_TIMESTAMP}`,
      ),
    );
  const [s, n] = start.split('.');
  return ok(`${id.value}-${s}-${n}`);
}

function parseNonce(v: string | undefined, what: string): Check<number | undefined> {
  if (v === undefined) return ok(undefined);
  if (!/^\d{1,10}$/.test(v) || Number(v) > INT32_MAX)
    return fail(
      l10n.t('"{0}" has a nonce {1} that is not a whole number from 0 to {2}.', clip(what), clip(v), `${INT32_MAX}`),
    );
  return ok(Number(v));
}

/** Parses one reference (not a URL). */
function parsePlain(s: string, original: string): Check<TxRef> {
  // 0.0.1234-1700000000-123456789 (the mirror node's and HashScan's form)
  let m = /^(\d{1,19}(?:\.\d{1,19}){0,2})-(\d{1,19})-(\d{1,9})$/.exec(s);
  if (m) {
    const id = transactionId(m[1], m[2], m[3], original);
    return id.ok ? ok({ kind: 'transactionId', id: id.value }) : id;
  }
  // 0.0.1234@1700000000.123456789[?scheduled][/nonce] (the SDK's TransactionId.toString())
  m = /^(\d{1,19}(?:\.\d{1,19}){0,2})@(\d{1,19})\.(\d{1,9})(\?scheduled)?(?:\/(\d+))?$/.exec(s);
  if (m) {
    const id = transactionId(m[1], m[2], m[3], original);
    if (!id.ok) return id;
    const nonce = parseNonce(m[5], original);
    if (!nonce.ok) return nonce;
    const ref: TxRef = { kind: 'transactionId', id: id.value };
    if (nonce.value !== undefined) ref.nonce = nonce.value;
    if (m[4]) ref.scheduled = true;
    return ok(ref);
  }
  // an Ethereum hash (32 bytes), or a Hedera transaction hash (48 bytes) reduced to the 32 the mirror node indexes
  m = /^(?:0x)?([0-9a-fA-F]{64}|[0-9a-fA-F]{96})$/.exec(s);
  if (m) return ok({ kind: 'hash', hash: `0x${m[1].slice(0, 64).toLowerCase()}` });
  if (/^(?:0x)?[0-9a-fA-F]+$/.test(s) && s.replace(/^0x/i, '').length >= 40) {
    const digits = s.replace(/^0x/i, '').length;
    return fail(
      l10n.t(
        '"{0}" is not a transaction hash: it has {1} hexadecimal digits, a hash has 64 (or 96 for a Hedera transaction hash).',
        clip(original),
        `${digits}`,
      ),
    );
  }
  // a consensus timestamp: seconds.nanos (a decimal fraction of a second: .5 is 500 ms)
  m = /^(\d{1,19})(?:\.(\d{1,9}))?$/.exec(s);
  if (m && m[1].length <= 10) {
    const ts = validStart(m[1], m[2] ?? '0', 'right');
    if (!ts)
      return fail(
        l10n.t(
          '"{0}" is too large for a timestamp: the latest the mirror node can search is {1}.',
          clip(original),
          `${MAX_TIMESTAMP}`,
        ),
      );
    return ok({ kind: 'timestamp', timestamp: ts });
  }
  return fail(l10n.t('"{0}" is not a transaction: enter {1}.', clip(original), examples()));
}

/** Whether `url` is under `base` (same origin, path below base's path). */
function startsWithUrl(url: string, base: string): boolean {
  const b = base.replace(/\/+$/, '');
  return !!b && (url === b || url.startsWith(`${b}/`));
}

/**
 * Parses a HashScan link (`https://hashscan.io/testnet/transaction/1700000000.123456789?tid=…`). The network is
 * the one whose explorer base the link starts with (`explorers`, e.g. a custom network's), else HashScan's path segment.
 */
function parseUrl(s: string, explorers: readonly Explorer[]): Check<TxRef> {
  let url: URL;
  try {
    url = new URL(s);
  } catch {
    return fail(l10n.t('"{0}" is not a link HashScan uses: enter {1}.', clip(s), examples()));
  }
  if (url.protocol !== 'https:' && url.protocol !== 'http:')
    return fail(l10n.t('"{0}" is not an http(s) link.', clip(s)));
  // HashScan's older links route in the fragment: https://hashscan.io/#/testnet/transaction/…
  const route =
    url.pathname.replace(/\/+$/, '') === '' && url.hash.startsWith('#/')
      ? url.hash.slice(1).replace(/\?.*$/, '')
      : url.pathname;
  const parts = route
    .split('/')
    .filter(Boolean)
    .map((p) => {
      try {
        return decodeURIComponent(p);
      } catch {
        return p;
      }
    });
  const at = parts.findIndex((p) => p === 'transaction' || p === 'tx');
  if (at < 0 || at + 1 >= parts.length)
    return fail(
      l10n.t(
        '"{0}" is not a transaction link: HashScan\'s are like https://hashscan.io/testnet/transaction/1700000000.123456789.',
        clip(s),
      ),
    );
  const network = at > 0 ? HASHSCAN_NETWORKS[parts[at - 1].toLowerCase()] : undefined;
  // the path names the transaction exactly (a timestamp names a child too); HashScan's `tid` query is the fallback
  let ref = parsePlain(parts[at + 1].trim(), s);
  const tid = url.searchParams.get('tid');
  if (!ref.ok && tid) {
    const byTid = parsePlain(tid.trim(), s);
    if (byTid.ok) ref = byTid;
  }
  if (!ref.ok) return ref;
  const value = ref.value;
  const byExplorer = explorers.find((e) => startsWithUrl(s, e.hashscanUrl))?.name;
  if (byExplorer ?? network) value.network = byExplorer ?? network;
  return ok(value);
}

/** A network's explorer base (NetworkProfile.hashscanUrl), to tell which network a pasted link is on. */
export interface Explorer {
  name: NetworkName;
  hashscanUrl: string;
}

/**
 * Parses what the user typed or pasted. Surrounding spaces, quotes and angle brackets are ignored. `explorers`:
 * the networks' explorer bases, to give a pasted link the network it is on.
 */
export function parseTxRef(input: string, explorers: readonly Explorer[] = []): Check<TxRef> {
  // the length first: nothing below runs on a pasted novel (validateInput calls this on every keystroke)
  if (input.length > 4096)
    return fail(l10n.t('That is too long to be a transaction id, hash, timestamp or HashScan link.'));
  const s = trimWrapping(input);
  if (!s) return fail(l10n.t('Enter {0}.', examples()));
  if (s.length > 2048)
    return fail(l10n.t('That is too long to be a transaction id, hash, timestamp or HashScan link.'));
  if (/^[a-z][a-z0-9+.-]*:\/\//i.test(s)) return parseUrl(s, explorers);
  if (/^(www\.)?hashscan\.io\//i.test(s)) return parseUrl(`https://${s}`, explorers);
  return parsePlain(s, s);
}

/** Spaces, quotes and brackets around a pasted reference removed (a loop: linear on any input). */
function trimWrapping(input: string): string {
  let a = 0;
  let b = input.length;
  const lead = ' \t\r\n"\'`<(';
  const trail = ' \t\r\n"\'`>),.;';
  while (a < b && lead.includes(input[a])) a++;
  while (b > a && trail.includes(input[b - 1])) b--;
  return input.slice(a, b);
}

/** The reference as the panel's title and the mirror node's path show it. */
export function txRefText(ref: TxRef): string {
  switch (ref.kind) {
    case 'transactionId':
      return ref.id;
    case 'hash':
      return ref.hash;
    case 'timestamp':
      return ref.timestamp;
  }
}
