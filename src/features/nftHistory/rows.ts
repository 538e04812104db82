/**
 * The NFT history row model, shared by the extension (which builds rows from the mirror node's answers) and
 * the webview (which formats them). Plain TypeScript: no `vscode`, no DOM, no dependencies, so the webview
 * bundle stays small and everything here is unit-tested.
 */
import * as l10n from '@vscode/l10n';
import { formatLocal, timestampToDate } from '../../api/format';

/** One entry of an NFT's history as the webview gets it: every value a string, nothing to interpret as HTML. */
export interface NftRow {
  /** Consensus timestamp `seconds.nanoseconds`. */
  ts: string;
  /** Transaction type name as the mirror node sent it (unknown names kept as they are). */
  type: string;
  sender: string | null;
  receiver: string | null;
  approval: boolean;
  /** Every digit kept (nonces can pass 2^53). */
  nonce: string;
  transactionId: string;
}

/** A consensus timestamp as the mirror node accepts it in a filter or a link: `seconds[.nanoseconds]`. */
export const TIMESTAMP_RE = /^\d{1,10}(\.\d{1,9})?$/;

const MAX_TEXT = 200;

/** Any wire value as bounded plain text (strings as they are, numbers and bigints with every digit). */
function text(v: unknown): string {
  if (typeof v === 'string') return v.length > MAX_TEXT ? `${v.slice(0, MAX_TEXT - 1)}…` : v;
  if (typeof v === 'number' || typeof v === 'bigint' || typeof v === 'boolean') return String(v);
  return '';
}

function optionalText(v: unknown): string | null {
  return v === null || v === undefined ? null : text(v);
}

/** A row from one entry of `GET /tokens/{id}/nfts/{serial}/transactions` (any shape tolerated). */
export function toRow(tx: Record<string, unknown>): NftRow {
  return {
    ts: text(tx.consensus_timestamp),
    type: text(tx.type),
    sender: optionalText(tx.sender_account_id),
    receiver: optionalText(tx.receiver_account_id),
    approval: tx.is_approval === true,
    nonce: text(tx.nonce ?? ''),
    transactionId: text(tx.transaction_id),
  };
}

/**
 * A row's consensus timestamp (`seconds.nanos`) as a Date, or undefined for any other text: the row's time is
 * only ever the mirror node's timestamp, never a date string read by `Date.parse` (which `timestampToDate` also takes).
 */
function consensusDate(ts: string): Date | undefined {
  return /^\d{1,12}(?:\.\d{1,9})?$/.test(ts) ? timestampToDate(ts) : undefined;
}

/** Local date and time with seconds: 2026-11-20 10:00:05 (empty for a value that is not a timestamp). */
export function localTime(ts: string): string {
  return formatLocal(consensusDate(ts));
}

/** UTC ISO time with nanoseconds kept: 2026-10-01T12:00:05.123456789Z. */
export function utcTime(ts: string): string {
  const d = consensusDate(ts);
  if (!d || Number.isNaN(d.getTime())) return '';
  const nanos = (ts.split('.')[1] ?? '').padEnd(9, '0');
  return `${d.toISOString().slice(0, 19)}.${nanos}Z`;
}

/** What happened to the NFT in a few words, with the account it concerns ("minted to 0.0.5"). */
export interface RowSummary {
  text: string;
  account?: string;
  icon: string;
}

/** `text`: the words before the account, and alone (no account known); functions, so that they are translated when used. */
const KNOWN: Record<string, { icon: string; text?: () => [string, string]; who?: 'sender' | 'receiver' }> = {
  TOKENMINT: { icon: 'sparkle', text: () => [l10n.t('minted to'), l10n.t('minted')], who: 'receiver' },
  TOKENBURN: { icon: 'flame', text: () => [l10n.t('burned from'), l10n.t('burned')], who: 'sender' },
  TOKENWIPE: { icon: 'trash', text: () => [l10n.t('wiped from'), l10n.t('wiped')], who: 'sender' },
  CRYPTOTRANSFER: { icon: 'arrow-swap' },
  CRYPTOAPPROVEALLOWANCE: { icon: 'pass' },
  CRYPTODELETEALLOWANCE: { icon: 'circle-slash' },
  TOKENDELETION: { icon: 'close' },
};

/** The summary of a row: mint "minted to X", burn "burned from X", wipe "wiped from X"; other types none. */
export function summarize(row: NftRow): RowSummary | undefined {
  const k = KNOWN[row.type];
  if (!k?.text || !k.who) return undefined;
  const account = k.who === 'receiver' ? row.receiver : row.sender;
  const [withAccount, alone] = k.text();
  return account ? { text: withAccount, account, icon: k.icon } : { text: alone, icon: k.icon };
}

/** The codicon name for a type; unknown types get a question mark. */
export function typeIcon(type: string): string {
  return KNOWN[type]?.icon ?? 'question';
}

/** A spoken description of a row for screen readers (the grid's rows carry it as aria-label). */
export function rowLabel(row: NftRow): string {
  const s = summarize(row);
  const parts = [localTime(row.ts) || row.ts, row.type || l10n.t('unknown type')];
  if (s) parts.push(`${s.text}${s.account ? ` ${s.account}` : ''}`);
  else {
    if (row.sender) parts.push(l10n.t('from {0}', row.sender));
    if (row.receiver) parts.push(l10n.t('to {0}', row.receiver));
  }
  if (row.approval) parts.push(l10n.t('approved transfer'));
  parts.push(l10n.t('transaction {0}', row.transactionId));
  return parts.join(', ');
}
