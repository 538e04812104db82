/**
 * What the call panel's fields take (src/features/contractCall), checked as typed: a value in ℏ turned into
 * tinybars with every digit (1 ℏ = 100,000,000 tinybars; more than 8 decimals is refused, never rounded), and the
 * block to read at: `latest`, a block number (decimal or 0x hex), or a past time (`seconds.nanoseconds` or an ISO
 * date) that the mirror node turns into its block. Plain TypeScript (the panel's page checks with it too).
 */
import * as l10n from '@vscode/l10n';
import { oneLine } from './text';
import { checkTimestamp } from './validation';

export type Checked<T> = { ok: true; value: T } | { ok: false; message: string };

const INT64_MAX = 9223372036854775807n;
export const TINYBARS_PER_HBAR = 100_000_000n;

/** `1.5` ℏ → 150000000n tinybars; empty is 0. Separators `_` and `,` are allowed between digits. */
export function hbarToTinybars(text: string): Checked<bigint> {
  const s = text
    .trim()
    .replace(/\s*(ℏ|hbars?)$/i, '')
    .replace(/[_,]/g, '');
  if (!s) return { ok: true, value: 0n };
  const m = /^(\d{0,19})(?:\.(\d*))?$/.exec(s);
  if (!m || (!m[1] && !m[2]))
    return {
      ok: false,
      message: l10n.t('"{0}" is not an amount of ℏ: write it as 1, 0.5 or 0.00000001.', oneLine(text, 40)),
    };
  const frac = m[2] ?? '';
  if (frac.replace(/0+$/, '').length > 8)
    return { ok: false, message: l10n.t('ℏ has 8 decimals (1 tinybar is 0.00000001 ℏ): "{0}" has more.', s) };
  const tinybars = BigInt(m[1] || '0') * TINYBARS_PER_HBAR + BigInt((frac.slice(0, 8) || '0').padEnd(8, '0'));
  if (tinybars > INT64_MAX) return { ok: false, message: l10n.t('{0} ℏ is more than the most a call can send.', s) };
  return { ok: true, value: tinybars };
}

/** The block a call reads at, as typed. */
export type BlockChoice =
  | { kind: 'latest' }
  | { kind: 'number'; number: string }
  /** A consensus timestamp (`seconds.nanos`): the block holding it is asked for (`GET /blocks`). */
  | { kind: 'time'; timestamp: string };

/** `latest` (or empty), a block number, or a past time; `now` (ms) to refuse a time to come. */
export function checkBlockChoice(text: string, now = Date.now()): Checked<BlockChoice> {
  const s = text.trim();
  if (!s || s.toLowerCase() === 'latest') return { ok: true, value: { kind: 'latest' } };
  if (/^\d{1,19}$/.test(s) || /^0x[0-9a-fA-F]{1,16}$/.test(s)) {
    const n = BigInt(s);
    if (n > INT64_MAX) return { ok: false, message: l10n.t('The block number is too large.') };
    return { ok: true, value: { kind: 'number', number: n.toString() } };
  }
  if (/^\d+\.\d+$/.test(s) || /^\d{4}-\d{2}-\d{2}/.test(s)) {
    const t = checkTimestamp(s);
    if (!t.ok) return { ok: false, message: t.message };
    if (Number(t.value.split('.')[0]) * 1000 > now)
      return { ok: false, message: l10n.t('{0} is still to come: choose a past time.', s) };
    return { ok: true, value: { kind: 'time', timestamp: t.value } };
  }
  return {
    ok: false,
    message: l10n.t(
      '"{0}" is not a block: enter latest, a block number, or a past time (1700000000.000000000 or 2026-11-20T10:00:00Z).',
      oneLine(s, 40),
    ),
  };
}
