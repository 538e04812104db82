// What the Deployments view's descriptions and the CodeLens titles say (src/features/deployments/summary.ts):
// counts of a page of results (failures by the one-contract endpoint's error_message, the list endpoint's result and
// status), the newest result and failure by exact timestamps (past 2^53 nanoseconds), "25+ calls" when the page has a
// next link, big counts with separators, the verification state, and the lens's title.
import * as assert from 'assert';
import {
  callsText,
  canVerify,
  failedText,
  groupDigits,
  lastText,
  lensTitle,
  resultsLine,
  summarize,
  verificationText,
  type ResultsSummary,
} from '../../src/features/deployments/summary';

const NOW = Date.UTC(2026, 10, 20, 10, 0, 0);
const secondsAgo = (s: number, nanos = '000000000') => `${Math.floor(NOW / 1000) - s}.${nanos}`;

describe('deployments: results summary and lens text', () => {
  it('counts calls and failures of a page, whatever the endpoint says about outcomes', () => {
    const page = [
      { timestamp: secondsAgo(300, '000000001'), error_message: null }, // one-contract endpoint: success
      { timestamp: secondsAgo(300, '000000002'), error_message: '0x08c379a0' }, // one-contract endpoint: failure
      { timestamp: secondsAgo(600), result: 'CONTRACT_REVERT_EXECUTED', status: '0x0', error_message: null },
      { timestamp: secondsAgo(900), result: 'SUCCESS', status: '0x1', error_message: null },
      { timestamp: secondsAgo(1200), status: '0x0' },
    ];
    const s = summarize(page, false);
    assert.deepStrictEqual(s, {
      calls: 5,
      more: false,
      failed: 3,
      latest: secondsAgo(300, '000000002'),
      latestFailure: secondsAgo(300, '000000002'),
    });
    assert.strictEqual(resultsLine(s, NOW, 'en'), '5 calls · 3 failed · last 5 min. ago');
  });

  it('orders timestamps exactly (nanoseconds past 2^53), whatever the page order', () => {
    const s = summarize(
      [
        { timestamp: '1793316600.746428555', error_message: '0x' },
        { timestamp: '1793316600.746428556', error_message: null },
        { timestamp: '1793316600.746428554', error_message: 'CONTRACT_REVERT_EXECUTED' },
      ],
      true,
    );
    assert.strictEqual(s.latest, '1793316600.746428556');
    assert.strictEqual(s.latestFailure, '1793316600.746428555');
    assert.strictEqual(s.failed, 2);
    assert.strictEqual(callsText(s), '3+ calls', 'a next link: more than this page');
  });

  it('words: no calls, 1 call, big counts with separators, failures only when there are some', () => {
    const base: ResultsSummary = { calls: 0, more: false, failed: 0 };
    assert.strictEqual(callsText(base), 'no calls');
    assert.strictEqual(resultsLine(base, NOW, 'en'), 'no calls');
    assert.strictEqual(callsText({ ...base, calls: 1 }), '1 call');
    assert.strictEqual(callsText({ ...base, calls: 1, more: true }), '1+ calls');
    assert.strictEqual(callsText({ ...base, calls: 1234567 }), '1,234,567 calls');
    assert.strictEqual(failedText({ ...base, calls: 1234567, failed: 1000 }), '1,000 failed');
    assert.strictEqual(failedText({ ...base, calls: 3 }), '');
    assert.strictEqual(groupDigits(9007199254740993n), '9,007,199,254,740,993', 'every digit of a bigint');
    assert.strictEqual(groupDigits(999), '999');
  });

  it('says when the last call was, relative to now', () => {
    const s = (latest: string): ResultsSummary => ({ calls: 1, more: false, failed: 0, latest });
    assert.strictEqual(lastText(s(secondsAgo(20)), NOW, 'en'), 'last under a minute ago');
    assert.strictEqual(lastText(s(secondsAgo(3 * 86400)), NOW, 'en'), 'last 3 days ago');
    assert.strictEqual(lastText(s(secondsAgo(2 * 3600)), NOW, 'en'), 'last 2 hr. ago');
    assert.strictEqual(lastText(s('not a timestamp'), NOW, 'en'), '');
    assert.strictEqual(lastText({ calls: 0, more: false, failed: 0 }, NOW, 'en'), '');
  });

  it('verification: exact match, match, not verified, unknown; Verify offered unless exact', () => {
    assert.strictEqual(verificationText({ kind: 'match', match: 'exact_match' }), 'verified (exact match)');
    assert.strictEqual(verificationText({ kind: 'match', match: 'match' }), 'verified (match)');
    assert.strictEqual(
      verificationText({ kind: 'match', match: 'future_kind\u202e' }),
      'verified (future_kind\u202e)'.replace('\u202e', '<U+202E>'),
    );
    assert.strictEqual(verificationText({ kind: 'none' }), 'not verified');
    assert.strictEqual(verificationText({ kind: 'error', message: 'HTTP 503' }), 'verification unknown');
    assert.strictEqual(verificationText(undefined), '');
    assert.deepStrictEqual(
      [
        { kind: 'none' as const },
        { kind: 'match' as const, match: 'match' },
        { kind: 'match' as const, match: 'exact_match' },
        { kind: 'error' as const, message: '' },
        undefined,
      ].map(canVerify),
      [true, true, false, false, false],
    );
  });

  it('the lens title: entity id, calls and when, verification (failures have their own lens)', () => {
    const s = summarize(
      [
        { timestamp: secondsAgo(300), error_message: null },
        ...Array.from({ length: 11 }, (_, i) => ({
          timestamp: secondsAgo(400 + i),
          error_message: i < 2 ? '0x' : null,
        })),
      ],
      false,
    );
    assert.strictEqual(
      lensTitle('0.0.1234', s, { kind: 'match', match: 'exact_match' }, NOW, 'en'),
      '0.0.1234 · 12 calls, last 5 min. ago · verified (exact match)',
    );
    assert.strictEqual(failedText(s), '2 failed');
    assert.strictEqual(
      lensTitle('0.0.9223372036854775807', { calls: 0, more: false, failed: 0 }, { kind: 'none' }, NOW, 'en'),
      '0.0.9223372036854775807 · no calls · not verified',
      'a big entity id as sent',
    );
    assert.strictEqual(lensTitle('0.0.5', undefined, undefined, NOW, 'en'), '0.0.5');
    assert.strictEqual(
      lensTitle(
        '0.0.5\n\u202evil',
        { calls: 25, more: true, failed: 0, latest: secondsAgo(86400 * 40) },
        undefined,
        NOW,
        'en',
      ),
      '0.0.5 <U+202E>vil · 25+ calls, last 40 days ago',
      'server text on one line, invisible characters shown',
    );
  });
});
