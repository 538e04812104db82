// How network status is shown (src/features/status/indicator.ts and format.ts): status bar text, icons,
// backgrounds, labels, local times, the tooltip's Markdown (escaped server text, no links) and the notification
// sentence; the shared helpers they use for relative times (src/api/format.ts) and links (src/api/url.ts).
import * as assert from 'assert';
import * as l10n from '@vscode/l10n';
import { ApiError } from '../../src/api/errors';
import { relativeTime } from '../../src/api/format';
import { parseSummary, type StatusSummary } from '../../src/api/status';
import { httpUrl } from '../../src/api/url';
import {
  activeMaintenances,
  affectedComponents,
  componentStatusView,
  impactView,
  incidentStatusLabel,
  indicatorIcon,
  localTime,
  localWindow,
  shortComponentName,
  statusTooltipMarkdown,
  upcomingMaintenances,
  worseningMessage,
} from '../../src/features/status/format';
import {
  indicatorView,
  offlineView,
  statusAccessibleLabel,
  statusBarSafe,
  unknownView,
} from '../../src/features/status/indicator';
import { mdEscape, notificationSafe } from '../../src/api/text';
import { fixtureText } from './helpers';
import { renderMarkdown } from './markdown';

const UTC = { locale: 'en-US', timeZone: 'UTC' };
const NOW = Date.parse('2026-11-24T12:00:00Z');

function summary(over: Record<string, unknown> = {}): StatusSummary {
  return parseSummary({
    page: { id: 'p', name: 'Hedera', url: 'https://status.hedera.com', updated_at: '2026-11-24T11:53:00Z' },
    status: { indicator: 'none', description: 'All Systems Operational' },
    components: [
      { id: 'g', name: 'Hedera Mainnet', status: 'operational', group: true, components: ['a', 'b'], position: 1 },
      { id: 'a', name: 'Hedera Mainnet | Network Uptime', status: 'operational', group_id: 'g', position: 1 },
      { id: 'b', name: 'Hedera Mainnet | Smart Contract Service', status: 'operational', group_id: 'g', position: 2 },
    ],
    incidents: [],
    scheduled_maintenances: [],
    ...over,
  });
}

describe('status view: indicator in the status bar', () => {
  it('maps each documented indicator to its text, icon and background', () => {
    const rows = (['none', 'minor', 'major', 'critical', 'maintenance'] as const).map((i) => {
      const v = indicatorView(i);
      return [i, v.text, v.icon, v.background];
    });
    assert.deepStrictEqual(rows, [
      ['none', '$(pass) Hedera', 'pass', undefined],
      ['minor', '$(warning) Minor outage', 'warning', 'warning'],
      ['major', '$(error) Major outage', 'error', 'error'],
      ['critical', '$(error) Major outage', 'error', 'error'],
      ['maintenance', '$(tools) Maintenance', 'tools', undefined],
    ]);
    assert.strictEqual(indicatorView('critical').label, 'Critical outage');
  });

  it('shows an unknown indicator as it is, without a background and without icons from the data', () => {
    const v = indicatorView('catastrophic');
    assert.strictEqual(v.text, '$(info) Hedera: catastrophic');
    assert.strictEqual(v.background, undefined);
    assert.strictEqual(v.known, false);
    const sneaky = indicatorView('$(rocket) launch\nnow');
    assert.ok(!sneaky.text.includes('$(rocket)'), sneaky.text);
    assert.ok(!sneaky.text.includes('\n'));
    assert.strictEqual(statusBarSafe('a $(x) b'), 'a $\u200b(x) b');
  });

  it('has the unknown and loading states', () => {
    assert.strictEqual(unknownView().text, '$(question) Hedera: status unknown');
    assert.strictEqual(unknownView().background, undefined);
  });

  it('translates with the bundle @vscode/l10n is configured with', () => {
    l10n.config({ contents: { 'Minor outage': 'MINOR OUTAGE', 'Hedera: {0}': 'HEDERA: {0}!' } });
    try {
      assert.strictEqual(indicatorView('minor').text, '$(warning) MINOR OUTAGE');
      assert.strictEqual(indicatorView('weird').text, '$(info) HEDERA: weird!');
    } finally {
      l10n.config({ contents: {} });
    }
    assert.strictEqual(indicatorView('minor').text, '$(warning) Minor outage');
  });

  it("translates Statuspage's own overall sentences in the tooltip, the accessible name and the notification; a page's other text stays as it is", () => {
    l10n.config({
      contents: { 'All Systems Operational': 'ALL GOOD', 'Partial System Outage': 'PART DOWN' },
    });
    try {
      const s = summary();
      const md = statusTooltipMarkdown({ summary: s, checkedAt: NOW, network: 'Mainnet', now: NOW, time: UTC });
      assert.match(md, /\*\*Hedera\*\*: ALL GOOD/);
      assert.doesNotMatch(md, /All Systems Operational/);
      assert.match(statusAccessibleLabel({ summary: s }), /ALL GOOD/);
      const worse = summary({ status: { indicator: 'minor', description: 'Partial System Outage' } });
      assert.match(worseningMessage('none', worse), /PART DOWN/);
      const own = summary({ status: { indicator: 'minor', description: 'Our own words' } });
      assert.match(statusAccessibleLabel({ summary: own }), /Our own words/);
    } finally {
      l10n.config({ contents: {} });
    }
  });
});

describe('status view: icons and labels of the tree', () => {
  it('colours component states with the theme colours', () => {
    assert.deepStrictEqual(componentStatusView('operational'), {
      icon: 'pass',
      color: 'testing.iconPassed',
      label: 'Operational',
    });
    assert.deepStrictEqual(componentStatusView('degraded_performance'), {
      icon: 'warning',
      color: 'problemsWarningIcon.foreground',
      label: 'Degraded performance',
    });
    assert.deepStrictEqual(componentStatusView('partial_outage'), {
      icon: 'warning',
      color: 'problemsWarningIcon.foreground',
      label: 'Partial outage',
    });
    assert.deepStrictEqual(componentStatusView('major_outage'), {
      icon: 'error',
      color: 'errorForeground',
      label: 'Major outage',
    });
    assert.deepStrictEqual(componentStatusView('under_maintenance'), {
      icon: 'tools',
      color: 'charts.blue',
      label: 'Under maintenance',
    });
    assert.deepStrictEqual(componentStatusView('melting'), { icon: 'question', label: 'melting' });
  });

  it('labels impacts and incident states, unknown values as they are', () => {
    assert.deepStrictEqual(
      ['none', 'minor', 'major', 'critical', 'maintenance', 'galactic'].map((i) => impactView(i).label),
      ['No impact', 'Minor', 'Major', 'Critical', 'Maintenance', 'galactic'],
    );
    assert.deepStrictEqual(
      ['investigating', 'identified', 'monitoring', 'in_progress', 'escalated'].map((s) => incidentStatusLabel(s)),
      ['Investigating', 'Identified', 'Monitoring', 'In progress', 'escalated'],
    );
    assert.strictEqual(indicatorIcon('none').color, 'testing.iconPassed');
    assert.strictEqual(indicatorIcon('major').color, 'errorForeground');
    assert.strictEqual(indicatorIcon('maintenance').color, 'charts.blue');
    assert.strictEqual(indicatorIcon('odd').color, undefined);
  });

  it('shortens a child component name that repeats its group', () => {
    assert.strictEqual(
      shortComponentName('Hedera Mainnet (v0.68.2) | Network Uptime', 'Hedera Mainnet (v0.68.2)'),
      'Network Uptime',
    );
    assert.strictEqual(
      shortComponentName('JSON-RPC Relay Mainnet', 'JSON-RPC Relay (Hashio)'),
      'JSON-RPC Relay Mainnet',
    );
    assert.strictEqual(shortComponentName('Solo', undefined), 'Solo');
  });
});

describe('status view: times', () => {
  it('shows times in the given zone, with the zone, and keeps text that is not a time', () => {
    assert.strictEqual(localTime('2026-11-26T09:00:00.000-05:00', UTC), 'Thu, Nov 26, 14:00 UTC');
    assert.strictEqual(
      localTime('2026-11-26T09:00:00.000-05:00', { locale: 'en-US', timeZone: 'Asia/Tokyo' }),
      'Thu, Nov 26, 23:00 GMT+9',
    );
    assert.strictEqual(localTime('soon', UTC), 'soon');
    assert.strictEqual(localTime(null, UTC), '');
  });

  it('shows a window as a range', () => {
    const w = localWindow('2026-11-26T09:00:00.000-05:00', '2026-11-26T10:30:00.000-05:00', UTC);
    assert.match(w, /^Thu, Nov 26, 14:00\s*[–-]\s*15:30 UTC$/);
    assert.strictEqual(localWindow('2026-11-26T14:00:00Z', null, UTC), 'Thu, Nov 26, 14:00 UTC');
    assert.strictEqual(localWindow(null, null, UTC), '');
  });

  it('says how long ago', () => {
    assert.strictEqual(relativeTime('2026-11-24T11:48:00Z', NOW, 'en-US'), '12 min. ago');
    assert.strictEqual(relativeTime('2026-11-26T12:00:00Z', NOW, 'en-US'), 'in 2 days');
    assert.strictEqual(relativeTime('x', NOW), '');
  });
});

describe('status view: tooltip', () => {
  it('lists the page, affected components, open incidents and the next maintenance in local time', () => {
    const s = parseSummary(JSON.parse(fixtureText('statuspage/statuspage-docs-example-summary-major.json')));
    const md = statusTooltipMarkdown({
      summary: s,
      checkedAt: NOW,
      network: 'Testnet',
      now: Date.parse('2014-05-10T00:00:00Z'),
      time: UTC,
    });
    // the Markdown's structure is ours; what it shows is checked as rendered (marked, as VS Code renders it)
    assert.match(md, /^\$\(error\) \*\*GitHub\*\*: Partial System Outage/);
    assert.match(md, /\*\*Affected components\*\*\n- API: Partial outage\n- Management Portal: Major outage/);
    assert.match(md, /\*\*Open incidents\*\*\n- Unplanned Database Outage \(Critical · Identified\)/);
    const shown = renderMarkdown(md);
    assert.match(shown.text, /Maintenance in progress\n+Web Tier Recycle: Wed, May 14, 20:30\s*[–-]\s*22:30 UTC/);
    assert.ok(shown.text.includes('Network Maintenance (No Interruption Expected): Sun, May 18'), shown.text);
    assert.match(shown.text, /Next maintenance\n+.*: Sun, May 18, 04:00\s*[–-]\s*05:30 UTC/);
    assert.match(shown.text, /Network: Testnet · Checked Tue, Nov 24, 12:00 UTC/);
    assert.ok(!/\]\(/.test(md), 'no Markdown link');
    assert.deepStrictEqual(shown.links, [], 'no link, automatic ones included');
  });

  it('escapes every piece of server text', () => {
    const s = summary({
      page: { name: '[click](command:workbench.action.quit) **page**', url: 'https://status.example.com' },
      status: { indicator: 'major', description: '<img src=x onerror=alert(1)> $(zap) _oops_' },
      components: [{ id: 'c', name: 'Evil [x](https://evil.example) `code`', status: 'major_outage' }],
      incidents: [
        {
          id: 'i',
          name: '# Heading <script>alert(1)</script>',
          status: 'investigating',
          impact: 'major',
          shortlink: 'command:evil',
        },
      ],
      scheduled_maintenances: [
        {
          id: 'm',
          name: '![img](http://x/y.png)',
          status: 'scheduled',
          impact: 'maintenance',
          scheduled_for: '2026-11-26T14:00:00Z',
          scheduled_until: '2026-11-26T15:00:00Z',
        },
      ],
    });
    const md = statusTooltipMarkdown({ summary: s, checkedAt: NOW, network: 'Mainnet', now: NOW, time: UTC });
    for (const raw of [
      '[click](command:',
      '<img',
      '<script>',
      '[x](https://',
      '![img]',
      '$(zap)',
      '`code`',
      '**page**',
      '_oops_',
    ]) {
      assert.ok(!md.includes(raw), `unescaped ${raw} in\n${md}`);
    }
    assert.ok(md.includes(mdEscape('[click](command:workbench.action.quit) **page**')));
    const shown = renderMarkdown(md);
    assert.deepStrictEqual(shown.links, [], shown.html);
    assert.ok(!/<(img|script|em|code|h1)\b/.test(shown.html), shown.html);
    // the server's text reads as it was sent
    assert.ok(shown.text.includes('<img src=x onerror=alert(1)> $(zap) _oops_'), shown.text);
    assert.ok(shown.text.includes('# Heading <script>'), shown.text);
    assert.ok(shown.text.includes('[click](command:workbench.action.quit) **page**'), shown.text);
    assert.ok(!md.includes('command:evil'), 'incident links are not in the tooltip');
  });

  it('says "unknown" with the reason and the last known state', () => {
    const err = new ApiError({
      kind: 'http',
      status: 429,
      message: 'status.hedera.com is limiting requests (HTTP 429 Too Many Requests). Try again in 1 s.',
    });
    const md = statusTooltipMarkdown({
      summary: summary(),
      checkedAt: NOW - 600_000,
      error: err,
      failedAt: NOW,
      nextPollAt: NOW + 600_000,
      network: 'Sandbox',
      now: NOW,
      time: UTC,
    });
    assert.match(md, /^\$\(question\) \*\*Hedera network status unknown\*\*/);
    assert.ok(md.includes(mdEscape(err.message)), md);
    const shown = renderMarkdown(md).text;
    assert.ok(shown.includes('Last known: Operational (All Systems Operational, Tue, Nov 24, 11:50 UTC)'), shown);
    assert.ok(shown.includes('Next try: Tue, Nov 24, 12:10 UTC'), shown);
    const first = statusTooltipMarkdown({
      error: new Error('getaddrinfo ENOTFOUND'),
      network: 'Sandbox',
      now: NOW,
      time: UTC,
    });
    assert.match(first, /Hedera network status unknown\*\*\n\ngetaddrinfo ENOTFOUND/);
  });

  it('says so when nothing is wrong', () => {
    const md = statusTooltipMarkdown({ summary: summary(), checkedAt: NOW, network: 'Testnet', now: NOW, time: UTC });
    assert.match(md, /^\$\(pass\) \*\*Hedera\*\*: All Systems Operational/);
    const shown = renderMarkdown(md);
    assert.ok(shown.text.includes('No affected components, open incidents or scheduled maintenances.'), shown.text);
    assert.ok(shown.text.includes('Status page: status.hedera.com'), shown.text);
    assert.deepStrictEqual(shown.links, [], 'the host is text, not an automatic link');
  });

  it('gives the item an accessible label without icons', () => {
    assert.strictEqual(
      statusAccessibleLabel({ summary: summary() }),
      'Hedera network status: Operational. All Systems Operational',
    );
    assert.strictEqual(statusAccessibleLabel({ error: new Error('x') }), 'Hedera network status unknown');
  });
});

describe('status view: components, maintenances, links, notification', () => {
  it('lists non-operational components (not groups)', () => {
    const s = summary();
    s.components[2].status = 'major_outage';
    s.components[0].status = 'major_outage';
    assert.deepStrictEqual(
      affectedComponents(s).map((c) => c.id),
      ['b'],
    );
  });

  it("lists affected components in the page's order: groups by position, then their children", () => {
    const s = parseSummary({
      page: { name: 'P' },
      status: { indicator: 'major' },
      components: [
        { id: 'a', name: 'G | A', status: 'major_outage', group_id: 'g', position: 1 },
        { id: 'b', name: 'G | B', status: 'partial_outage', group_id: 'g', position: 2 },
        { id: 'g', name: 'G', status: 'major_outage', group: true, components: ['b', 'a'], position: 2 },
        { id: 'z', name: 'Z', status: 'degraded_performance', position: 1 },
        { id: 'h', name: 'Hidden', status: 'major_outage', only_show_if_degraded: true, position: 3 },
      ],
    });
    assert.deepStrictEqual(
      affectedComponents(s).map((c) => c.id),
      ['z', 'a', 'b', 'h'],
    );
  });

  it('splits maintenances into in progress and upcoming (earliest first, finished ones out)', () => {
    const m = (id: string, status: string, from: string, until: string) => ({
      id,
      name: id,
      status,
      impact: 'maintenance',
      scheduled_for: from,
      scheduled_until: until,
    });
    const s = summary({
      scheduled_maintenances: [
        m('late', 'scheduled', '2026-12-01T00:00:00Z', '2026-12-01T01:00:00Z'),
        m('now', 'in_progress', '2026-11-24T11:00:00Z', '2026-11-24T13:00:00Z'),
        m('soon', 'scheduled', '2026-11-25T00:00:00Z', '2026-11-25T01:00:00Z'),
        m('past', 'scheduled', '2026-11-20T00:00:00Z', '2026-11-20T01:00:00Z'),
        m('check', 'verifying', '2026-11-24T10:00:00Z', '2026-11-24T11:00:00Z'),
      ],
    });
    assert.deepStrictEqual(
      activeMaintenances(s.scheduled_maintenances).map((x) => x.id),
      ['now', 'check'],
    );
    assert.deepStrictEqual(
      upcomingMaintenances(s.scheduled_maintenances, NOW).map((x) => x.id),
      ['soon', 'late'],
    );
  });

  it('opens only http and https links', () => {
    assert.strictEqual(httpUrl('https://stspg.io/abc'), 'https://stspg.io/abc');
    assert.strictEqual(httpUrl('http://stspg.co:5000/Q0E'), 'http://stspg.co:5000/Q0E');
    for (const bad of [
      'command:workbench.action.quit',
      'javascript:alert(1)',
      'file:///etc/passwd',
      'vscode://x',
      '',
      'not a url',
      42,
      undefined,
    ]) {
      assert.strictEqual(httpUrl(bad), undefined, String(bad));
    }
  });

  it('words the notification without links or icons from the data', () => {
    const s = summary({
      status: { indicator: 'major', description: 'Partial [System](command:x) Outage $(flame)' },
      incidents: [{ id: 'i', name: 'Contracts failing', status: 'identified', impact: 'major' }],
    });
    const msg = worseningMessage('none', s);
    assert.strictEqual(
      msg,
      'Hedera network status: Major outage (was Operational). Partial [System] (command:x) Outage $ (flame). Open incidents: Contracts failing',
    );
    assert.strictEqual(notificationSafe('a\n[b]'), 'a [b]');
  });
});

describe('status bar offline', () => {
  const offline = new ApiError({
    kind: 'dns',
    message:
      'The host name status.hedera.com could not be found (DNS lookup failed). Check your internet connection, then try again.',
    url: 'https://status.hedera.com/api/v2/summary.json',
  });

  it('says offline, plainly: no error or warning background, its own icon', () => {
    const v = offlineView();
    assert.strictEqual(v.text, '$(debug-disconnect) Hedera: offline');
    assert.strictEqual(v.background, undefined);
    assert.notStrictEqual(v.text, unknownView().text);
    assert.match(statusAccessibleLabel({ error: offline, offline: true }), /offline/);
  });

  it('the tooltip says the page could not be reached, why, and that a click tries again', () => {
    const md = renderMarkdown(
      statusTooltipMarkdown({ error: offline, failedAt: NOW, network: 'Testnet', now: NOW, time: UTC }),
    ).text;
    assert.match(md, /Offline: the Hedera status page could not be reached/);
    assert.match(md, /DNS lookup failed/);
    assert.match(md, /Click to try again/);
    const other = renderMarkdown(
      statusTooltipMarkdown({
        error: new ApiError({ kind: 'http', status: 503, message: 'status.hedera.com could not answer' }),
        failedAt: NOW,
        network: 'Testnet',
        now: NOW,
        time: UTC,
      }),
    ).text;
    assert.match(other, /status unknown/);
    assert.match(other, /Click to open the Network Status view/);
  });
});
