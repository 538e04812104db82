/**
 * What a deployed contract's latest results and Sourcify state say, as the Deployments view's descriptions and the
 * CodeLens titles show them: `0.0.1234 · 12 calls · 2 failed · last 5 min. ago`, `verified (exact match)`. The
 * counts are of the latest page of `/contracts/{id}/results` (the mirror node gives no totals): a page with a next
 * link reads `25+ calls`. Plain TypeScript, no vscode (the views pass `vscode.l10n`).
 */
import { outcome } from '../../api/contractResult';
import { compareTimestamps, relativeTime, timestampToDate } from '../../api/format';
import type { ContractResult } from '../../api/mirrorTypes';
import * as l10n from '@vscode/l10n';
import { oneLine } from '../../api/text';
import type { MatchKind } from '../../api/verify';

export interface ResultsSummary {
  /** Results in the latest page. */
  calls: number;
  /** The page had a next link: there are more than `calls`. */
  more: boolean;
  failed: number;
  /** The newest result's consensus timestamp. */
  latest?: string;
  /** The newest failed result's consensus timestamp (what the failure lens opens). */
  latestFailure?: string;
}

/** Counts of a page of results (any order), its newest result and its newest failure. */
export function summarize(
  results: Array<
    Pick<ContractResult, 'timestamp'> & Partial<Pick<ContractResult, 'result' | 'status' | 'error_message'>>
  >,
  more: boolean,
): ResultsSummary {
  let failed = 0;
  let latest: string | undefined;
  let latestFailure: string | undefined;
  for (const r of results) {
    if (typeof r.timestamp !== 'string') continue;
    if (!latest || compareTimestamps(r.timestamp, latest) > 0) latest = r.timestamp;
    if (outcome(r) === 'failure') {
      failed++;
      if (!latestFailure || compareTimestamps(r.timestamp, latestFailure) > 0) latestFailure = r.timestamp;
    }
  }
  return {
    calls: results.length,
    more,
    failed,
    ...(latest ? { latest } : {}),
    ...(latestFailure ? { latestFailure } : {}),
  };
}

/** 1234567 → "1,234,567" (counts; any size, exactly). */
export function groupDigits(n: number | bigint): string {
  return String(n).replace(/\B(?=(\d{3})+(?!\d))/g, ',');
}

/** "12 calls", "1 call", "25+ calls", "no calls". */
export function callsText(s: ResultsSummary): string {
  if (s.calls === 0) return l10n.t('no calls');
  const n = `${groupDigits(s.calls)}${s.more ? '+' : ''}`;
  return s.calls === 1 && !s.more ? l10n.t('1 call') : l10n.t('{0} calls', n);
}

/** "2 failed" ("2+ failed" is never said: the failures of the page are counted exactly), '' when none failed. */
export function failedText(s: ResultsSummary): string {
  return s.failed ? l10n.t('{0} failed', groupDigits(s.failed)) : '';
}

/** "last 5 min. ago" ('' without results or a readable timestamp). */
export function lastText(s: ResultsSummary, now: number, locale: string | undefined): string {
  const at = timestampToDate(s.latest);
  if (!at || Number.isNaN(at.getTime())) return '';
  if (Math.abs(now - at.getTime()) < 60_000) return l10n.t('last under a minute ago');
  const when = relativeTime(at, now, locale);
  return when ? l10n.t('last {0}', when) : '';
}

/** Sourcify's answer for a contract, as kept per network: a match kind, not verified, or the lookup's failure. */
export type VerificationState =
  { kind: 'match'; match: Exclude<MatchKind, null> } | { kind: 'none' } | { kind: 'error'; message: string };

/** "verified (exact match)", "verified (match)", "not verified", "verification unknown". */
export function verificationText(v: VerificationState | undefined): string {
  if (!v) return '';
  switch (v.kind) {
    case 'match':
      return v.match === 'exact_match'
        ? l10n.t('verified (exact match)')
        : v.match === 'match'
          ? l10n.t('verified (match)')
          : l10n.t('verified ({0})', oneLine(v.match, 40));
    case 'none':
      return l10n.t('not verified');
    case 'error':
      return l10n.t('verification unknown');
  }
}

/** Whether a Verify action makes sense: not verified, or only a partial match (an exact one may still be had). */
export function canVerify(v: VerificationState | undefined): boolean {
  return v?.kind === 'none' || (v?.kind === 'match' && v.match !== 'exact_match');
}

/** "12 calls · 2 failed · last 5 min. ago" (the parts that apply). */
export function resultsLine(s: ResultsSummary, now: number, locale: string | undefined, sep = ' · '): string {
  return [callsText(s), failedText(s), lastText(s, now, locale)].filter(Boolean).join(sep);
}

/**
 * The CodeLens's main title: `0.0.1234 · 12 calls, last 5 min. ago · verified (exact match)` (the failures have a
 * lens of their own, `failedText`). `id` is the entity id, or the short address when the mirror node has none.
 */
export function lensTitle(
  id: string,
  s: ResultsSummary | undefined,
  v: VerificationState | undefined,
  now: number,
  locale: string | undefined,
): string {
  const results = s ? [callsText(s), lastText(s, now, locale)].filter(Boolean).join(', ') : '';
  return [oneLine(id, 80), results, verificationText(v)].filter(Boolean).join(' · ');
}
