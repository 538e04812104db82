/**
 * Export of the loaded NFT history to CSV and JSON. CSV cells are quoted when needed (quotes doubled) and a
 * cell that a spreadsheet would run as a formula (starting with = + - @, tab or carriage return) gets a
 * leading apostrophe. JSON keeps big integers with every digit. Plain TypeScript, no `vscode`.
 */
import { stringifyJson } from '../../api/json';
import type { NftTransaction } from '../../api/mirrorTypes';
import type { NftQuery } from './protocol';
import { toRow, utcTime } from './rows';

/** One CSV cell: formula guard, then RFC 4180 quoting. */
export function csvCell(value: string): string {
  let v = value;
  if (/^[=+\-@\t\r]/.test(v)) v = `'${v}`;
  return /[",\r\n]/.test(v) || v !== v.trim() ? `"${v.replace(/"/g, '""')}"` : v;
}

export const CSV_HEADER = [
  'consensus_timestamp',
  'time_utc',
  'type',
  'sender_account_id',
  'receiver_account_id',
  'is_approval',
  'nonce',
  'transaction_id',
];

/** CSV with a header line, CRLF line ends (as RFC 4180 and spreadsheets expect). */
export function toCsv(items: readonly NftTransaction[]): string {
  const lines = [CSV_HEADER.join(',')];
  for (const tx of items) {
    const r = toRow(tx as Record<string, unknown>);
    lines.push(
      [
        r.ts,
        utcTime(r.ts),
        r.type,
        r.sender ?? '',
        r.receiver ?? '',
        r.approval ? 'true' : 'false',
        r.nonce,
        r.transactionId,
      ]
        .map(csvCell)
        .join(','),
    );
  }
  return `${lines.join('\r\n')}\r\n`;
}

export interface JsonExportInfo {
  tokenId: string;
  serial: string;
  network: string;
  mirrorUrl: string;
  query: NftQuery;
  partial: boolean;
  complete: boolean;
  exportedAt?: string;
}

/** The loaded entries as the mirror node sent them, with where they came from. */
export function toJson(items: readonly NftTransaction[], info: JsonExportInfo): string {
  const doc = {
    token_id: info.tokenId,
    serial_number: BigInt(info.serial),
    network: info.network,
    mirror_node: info.mirrorUrl,
    query: info.query,
    partial: info.partial,
    complete: info.complete,
    exported_at: info.exportedAt ?? new Date().toISOString(),
    count: items.length,
    transactions: items,
  };
  return `${stringifyJson(doc, 2)}\n`;
}

/** A file name for the export: nft-0.0.1234-7.csv */
export function exportFileName(tokenId: string, serial: string, format: 'csv' | 'json'): string {
  return `nft-${tokenId}-${serial}.${format}`;
}
