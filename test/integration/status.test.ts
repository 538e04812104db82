// Network status in the real extension host, against the sandbox's status page: the status bar item and the
// Network Status view for each scenario, the "worse" notification, upcoming maintenances only while the view is
// visible, one shared poll, a 429 and a malformed answer ("status unknown", an error row, recovery on Retry),
// and a network change that polls again at once.
import * as assert from 'assert';
import * as vscode from 'vscode';
import type { StatusRowSnapshot as Row, StatusSnapshot as Snapshot } from '../../src/features/status';
import { renderMarkdown } from '../unit/markdown';

import { resetSettings, SANDBOX_KEYS, selectSandbox, waitUntil } from './helpers';
import {
  addFault,
  clearFaults,
  clearRequests,
  requests,
  sandboxPost,
  useSandbox,
  type ViewsApi,
} from './views.helpers';

/** What the Markdown tooltip shows (rendered as VS Code renders it): the text a user reads. */
const readTip = (md: string) => renderMarkdown(md).text;

type Api = ViewsApi;

const REFRESH = 'hederaExplorer.status.refresh';
const find = (rows: Row[] | undefined, label: string | RegExp): Row | undefined =>
  rows?.find((r) => (typeof label === 'string' ? r.label === label : label.test(r.label)));
const must = (rows: Row[] | undefined, label: string | RegExp): Row => {
  const r = find(rows, label);
  assert.ok(r, `row ${label} in [${(rows ?? []).map((x) => x.label).join(' | ')}]`);
  return r;
};

describe('Network status', function () {
  this.timeout(60000);
  let api: Api;
  let url: string;

  const scenario = (s: string) => sandboxPost('/__sandbox/status', { scenario: s });
  /** Refresh (as the view's title action does) and read what VS Code shows. */
  const refreshed = async (): Promise<Snapshot> => {
    await vscode.commands.executeCommand(REFRESH);
    return api.statusSnapshot();
  };

  before(async () => {
    ({ api, url } = (await useSandbox()) as { api: Api; url: string });
    await clearFaults();
    await scenario('operational');
    await vscode.commands.executeCommand(REFRESH);
  });
  afterEach(() => clearFaults());
  after(async () => {
    await scenario('operational');
    await resetSettings([...SANDBOX_KEYS, 'status.notify']);
  });

  it('contributes its settings, commands and the refresh action', () => {
    const pkg = vscode.extensions.getExtension('hedera-explorer.hedera-explorer')!.packageJSON as any;
    const props = pkg.contributes.configuration.properties;
    assert.strictEqual(props['hederaExplorer.status.pollMinutes'].default, 5);
    assert.strictEqual(props['hederaExplorer.status.pollMinutes'].minimum, 1);
    assert.strictEqual(props['hederaExplorer.status.notify'].default, true);
    assert.strictEqual(vscode.workspace.getConfiguration('hederaExplorer').get('status.pollMinutes'), 5);
    const title = pkg.contributes.menus['view/title'].find((m: { command: string }) => m.command === REFRESH);
    assert.strictEqual(title.when, 'view == hederaExplorer.status');
  });

  it('operational: "$(pass) Hedera", no background, and the tree with components and no incidents', async () => {
    const snap = await refreshed();
    assert.strictEqual(snap.statusBar.text, '$(pass) Hedera');
    assert.strictEqual(snap.statusBar.background, undefined);
    assert.strictEqual(snap.statusBar.name, 'Hedera Network Status');
    assert.strictEqual(snap.statusBar.command, 'hederaExplorer.status.focus');
    assert.strictEqual(
      snap.statusBar.accessibilityLabel,
      'Hedera network status: Operational. All Systems Operational',
    );
    assert.match(snap.statusBar.tooltip, /\*\*Hedera\*\*: All Systems Operational/);
    assert.match(readTip(snap.statusBar.tooltip), /Next maintenance\n+Hedera Mainnet upgrade to v0\.69: /);
    assert.match(readTip(snap.statusBar.tooltip), /Network: Sandbox/);

    const rows = snap.view.rows;
    assert.deepStrictEqual(
      rows.map((r) => r.label),
      ['All Systems Operational', 'No open incidents', 'Maintenance', 'Components'],
    );
    assert.strictEqual(rows[0].icon, 'pass');
    assert.strictEqual(rows[0].color, 'testing.iconPassed');
    const comps = must(rows, 'Components');
    assert.strictEqual(comps.description, 'all operational');
    assert.deepStrictEqual(
      comps.children?.map((c) => c.label),
      [
        'Hedera Mainnet (v0.68.2)',
        'Hedera Testnet (v0.69.0)',
        'Mirror Node REST API Public Mainnet',
        'JSON-RPC Relay (Hashio)',
        'HashScan Explorer',
      ],
      'previewnet (only_show_if_degraded) is hidden while operational',
    );
    const mainnet = must(comps.children, 'Hedera Mainnet (v0.68.2)');
    assert.deepStrictEqual(
      mainnet.children?.map((c) => [c.label, c.description, c.icon, c.color]),
      [
        ['Network Uptime', 'Operational', 'pass', 'testing.iconPassed'],
        ['Consensus Service (HCS)', 'Operational', 'pass', 'testing.iconPassed'],
        ['Token Service (HTS)', 'Operational', 'pass', 'testing.iconPassed'],
        ['Smart Contract Service', 'Operational', 'pass', 'testing.iconPassed'],
        ['Cryptocurrency Service', 'Operational', 'pass', 'testing.iconPassed'],
      ],
    );
  });

  it('degraded: "$(warning) Minor outage" on the warning background, the incident with its updates newest first, and a notification', async () => {
    await refreshed(); // the baseline: operational
    await scenario('degraded');
    const s = await refreshed();
    assert.strictEqual(s.statusBar.text, '$(warning) Minor outage');
    assert.strictEqual(s.statusBar.background, 'statusBarItem.warningBackground');
    assert.ok(s.statusBar.tooltip.includes('**Affected components**'), s.statusBar.tooltip);
    assert.ok(
      readTip(s.statusBar.tooltip).includes('Mirror Node REST API Public Mainnet | Contracts: Degraded performance'),
      s.statusBar.tooltip,
    );
    assert.ok(s.statusBar.tooltip.includes('**Open incidents**\n- '), s.statusBar.tooltip);
    assert.match(
      readTip(s.statusBar.tooltip),
      /Open incidents\n+Elevated latency on Mirror Node REST API \(contracts\) \(Minor · Investigating\)/,
    );

    const incidents = must(s.view.rows, 'Open incidents');
    assert.strictEqual(incidents.description, '1');
    const inc = must(incidents.children, 'Elevated latency on Mirror Node REST API (contracts)');
    assert.match(inc.description ?? '', /^Minor · Investigating · /);
    assert.strictEqual(inc.icon, 'warning');
    assert.strictEqual(inc.color, 'problemsWarningIcon.foreground');
    assert.strictEqual(inc.command, 'hederaExplorer.status.openLink');
    assert.strictEqual(inc.contextValue, 'status.incident.link');
    const updates = (inc.children ?? []).filter((c) => c.contextValue === 'status.update');
    assert.deepStrictEqual(
      updates.map((u) => u.label),
      [
        'Latency remains elevated (p95 around 4 s). Requests still succeed; some clients may time out.',
        'We are investigating elevated response times on /api/v1/contracts/results.',
      ],
    );
    assert.match(updates[0].description ?? '', /^Investigating · \w{3}, \w{3} \d+, \d\d:\d\d /);
    const mirror = must(must(s.view.rows, 'Components').children, 'Mirror Node REST API Public Mainnet');
    assert.strictEqual(mirror.description, 'Degraded performance · 1 affected');
    assert.deepStrictEqual(
      [must(mirror.children, 'Contracts').icon, must(mirror.children, 'Contracts').color],
      ['warning', 'problemsWarningIcon.foreground'],
    );

    await waitUntil('notification', async () => (await api.statusSnapshot()).notifications.length > 0);
    assert.match(
      (await api.statusSnapshot()).notifications.at(-1) ?? '',
      /^Hedera network status: Minor outage \(was Operational\)\. Partially Degraded Service/,
    );
  });

  it('major: "$(error) Major outage" on the error background; unknown incident states as they are; HTML in bodies stays text', async () => {
    await scenario('major');
    const s = await refreshed();
    assert.strictEqual(s.statusBar.text, '$(error) Major outage');
    assert.strictEqual(s.statusBar.background, 'statusBarItem.errorBackground');
    assert.ok(!s.statusBar.tooltip.includes('<'), 'no raw HTML in the tooltip');
    const incidents = must(s.view.rows, 'Open incidents');
    assert.strictEqual(incidents.children?.length, 2);
    const outage = must(incidents.children, 'Smart contract execution failing on mainnet');
    assert.match(outage.description ?? '', /^Major · escalated · /);
    assert.strictEqual(outage.color, 'errorForeground');
    const updates = (outage.children ?? []).filter((c) => c.contextValue === 'status.update');
    assert.deepStrictEqual(
      updates.map((u) => u.description?.split(' · ')[0]),
      ['escalated', 'Identified', 'Investigating'],
    );
    const html = updates[1];
    assert.ok(html.label.includes('<script>alert("status")</script>'), 'the body is shown as text, as it is');
    assert.strictEqual(typeof html.tooltip, 'string');
    const affected = must(outage.children, 'Affected components');
    assert.deepStrictEqual(
      affected.children?.map((c) => [c.label, c.description]),
      [
        ['Hedera Mainnet (v0.68.2) | Token Service (HTS)', 'Partial outage'],
        ['Hedera Mainnet (v0.68.2) | Smart Contract Service', 'Major outage'],
        ['JSON-RPC Relay Mainnet', 'Partial outage'],
      ],
    );
    const comps = must(s.view.rows, 'Components');
    assert.ok(
      find(comps.children, 'Hedera Previewnet | Network Uptime'),
      'only_show_if_degraded component shown while degraded',
    );
    const contract = must(must(comps.children, 'Hedera Mainnet (v0.68.2)').children, 'Smart Contract Service');
    assert.deepStrictEqual(
      [contract.description, contract.icon, contract.color],
      ['Major outage', 'error', 'errorForeground'],
    );
    await waitUntil('second notification', async () => (await api.statusSnapshot()).notifications.length > 1);
    assert.match(
      (await api.statusSnapshot()).notifications.at(-1) ?? '',
      /^Hedera network status: Major outage \(was Minor outage\)\. Partial System Outage\. Open incidents: Smart contract execution failing on mainnet; JSON-RPC Relay returning 502 errors/,
    );
  });

  it('maintenance: "$(tools) Maintenance"; in-progress from the summary, upcoming only once the view is visible', async () => {
    await vscode.commands.executeCommand('workbench.action.closeSidebar');
    await waitUntil('view hidden', async () => !(await api.statusSnapshot()).view.visible);
    await scenario('maintenance');
    await clearRequests();
    const s = await refreshed();
    assert.strictEqual(s.statusBar.text, '$(tools) Maintenance');
    assert.strictEqual(s.statusBar.background, undefined);
    assert.ok(s.statusBar.tooltip.includes('**Maintenance in progress**\n- '), s.statusBar.tooltip);
    assert.match(readTip(s.statusBar.tooltip), /Maintenance in progress\n+Mirror Node database migration: /);
    const maint = must(s.view.rows, 'Maintenance');
    const active = must(maint.children, 'Mirror Node database migration');
    assert.match(active.description ?? '', /^In progress · /);
    assert.strictEqual(active.icon, 'tools');
    const window = must(active.children, 'Window');
    assert.match(window.description ?? '', /\d\d:\d\d/);
    assert.deepStrictEqual(
      must(active.children, 'Affected components').children?.map((c) => [c.label, c.description]),
      [
        ['Mirror Node REST API Public Mainnet | Schedules', 'Under maintenance'],
        ['Mirror Node REST API Public Mainnet | Tokens and NFTs', 'Under maintenance'],
      ],
    );
    assert.ok(!find(maint.children, 'Hedera Mainnet upgrade to v0.69'), 'upcoming not read while hidden');
    let sent = await requests('/api/');
    assert.deepStrictEqual(sent, ['/api/v2/summary.json'], 'while hidden, the status poll is the only request');

    await vscode.commands.executeCommand('hederaExplorer.status.focus');
    await waitUntil(
      'upcoming maintenance row',
      async () => {
        const m = find((await api.statusSnapshot()).view.rows, 'Maintenance');
        return !!find(m?.children, 'Hedera Mainnet upgrade to v0.69');
      },
      10000,
    );
    const shown = await api.statusSnapshot();
    assert.strictEqual(shown.view.visible, true);
    const upcoming = must(must(shown.view.rows, 'Maintenance').children, 'Hedera Mainnet upgrade to v0.69');
    assert.match(upcoming.description ?? '', /^Scheduled · \w{3}, \w{3} \d+, \d\d:\d\d/);
    assert.strictEqual(upcoming.icon, 'calendar');
    assert.deepStrictEqual(
      must(upcoming.children, 'Affected components').children?.map((c) => c.label),
      ['Hedera Mainnet (v0.68.2) | Network Uptime', 'Hedera Mainnet (v0.68.2) | Smart Contract Service'],
    );
    sent = await requests('/api/v2/');
    assert.strictEqual(
      sent.filter((u) => u === '/api/v2/summary.json').length,
      1,
      "the view shares the status bar's summary: no second request",
    );
    assert.strictEqual(sent.filter((u) => u === '/api/v2/scheduled-maintenances/upcoming.json').length, 1);
    assert.match(shown.view.description ?? '', /^127\.0\.0\.1:\d+$/);
  });

  it('a 429 gives "status unknown" with the reason and an error row with Retry; Retry recovers', async () => {
    await scenario('operational');
    await vscode.commands.executeCommand(REFRESH);
    await addFault({ path: '/api/v2/summary.json', times: 3, fault: { status: 429, retryAfter: '1' } });
    const s = await refreshed();
    assert.strictEqual(s.statusBar.text, '$(question) Hedera: status unknown');
    assert.strictEqual(s.statusBar.background, undefined);
    assert.match(s.statusBar.tooltip, /Hedera network status unknown/);
    assert.match(readTip(s.statusBar.tooltip), /limiting requests \(HTTP 429 Too Many Requests\)/);
    assert.match(readTip(s.statusBar.tooltip), /Last known: Operational/);
    const err = s.view.rows[0];
    assert.strictEqual(err.contextValue, 'error');
    assert.strictEqual(err.command, REFRESH, 'a click retries');
    assert.match(err.label, /limiting requests \(HTTP 429 Too Many Requests\)/);
    assert.match(s.view.rows[1].description ?? '', /^last known, /, 'the last answer stays, marked as last known');
    // Retry (the error row's command)
    const back = await refreshed();
    assert.strictEqual(back.statusBar.text, '$(pass) Hedera');
    assert.strictEqual(back.view.rows[0].label, 'All Systems Operational');
    assert.ok(!back.view.rows.some((r) => r.contextValue === 'error'));
  });

  it('a malformed answer gives "status unknown" and an error row; Retry recovers', async () => {
    await addFault({ path: '/api/v2/summary.json', times: 1, fault: { body: 'malformed' } });
    const s = await refreshed();
    assert.strictEqual(s.statusBar.text, '$(question) Hedera: status unknown');
    assert.match(s.statusBar.tooltip, /could not be read/);
    assert.strictEqual(s.view.rows[0].contextValue, 'error');
    assert.match(s.view.rows[0].label, /sent an answer that could not be read/);
    const back = await refreshed();
    assert.strictEqual(back.statusBar.text, '$(pass) Hedera');
    assert.strictEqual(back.state.failures, 0);
  });

  it('a failing upcoming list is an error row inside Maintenance; the rest of the view stays', async () => {
    await vscode.commands.executeCommand('hederaExplorer.status.focus');
    await addFault({ path: '/api/v2/scheduled-maintenances/upcoming.json', times: 3, fault: { status: 503 } });
    await vscode.commands.executeCommand(REFRESH);
    await waitUntil(
      'upcoming error row',
      async () => {
        const m = find((await api.statusSnapshot()).view.rows, 'Maintenance');
        return !!m?.children?.some((c) => c.contextValue === 'error');
      },
      15000,
    );
    const s = await api.statusSnapshot();
    assert.strictEqual(s.statusBar.text, '$(pass) Hedera');
    assert.ok(find(s.view.rows, 'Components'));
    assert.match(
      must(s.view.rows, 'Maintenance').children?.find((c) => c.contextValue === 'error')?.label ?? '',
      /HTTP 503/,
    );
  });

  it('opens only http and https links', async () => {
    assert.strictEqual(
      await vscode.commands.executeCommand('hederaExplorer.status.openLink', 'command:workbench.action.quit'),
      false,
    );
    assert.strictEqual(
      await vscode.commands.executeCommand('hederaExplorer.status.openLink', 'javascript:alert(1)'),
      false,
    );
  });

  it('a network change polls at once; a different page is not compared with the old one (no notification)', async () => {
    const cfg = vscode.workspace.getConfiguration('hederaExplorer');
    await vscode.commands.executeCommand(REFRESH);
    const before = await api.statusSnapshot();
    assert.strictEqual(before.state.indicator, 'none');
    const notes = before.notifications.length;
    await scenario('major');
    // another network: the same sandbox under another host name (another status page URL), unnamed
    await cfg.update(
      'custom.statusUrl',
      `${url.replace('127.0.0.1', 'localhost')}/api/v2`,
      vscode.ConfigurationTarget.Global,
    );
    await cfg.update('custom.name', undefined, vscode.ConfigurationTarget.Global);
    // unnamed, the network goes by its mirror node's host
    const unnamed = `Network: ${new URL(url).host}`;
    await waitUntil(
      're-polled after the network change',
      async () => {
        const s = await api.statusSnapshot();
        return (
          s.state.generation > before.state.generation &&
          s.state.indicator === 'major' &&
          !s.state.loading &&
          readTip(s.statusBar.tooltip).includes(unnamed)
        );
      },
      8000,
    );
    const s = await api.statusSnapshot();
    assert.strictEqual(s.statusBar.text, '$(error) Major outage');
    assert.strictEqual(s.notifications.length, notes, 'no "worse" notification across status pages');
    assert.ok(readTip(s.statusBar.tooltip).includes(unnamed), readTip(s.statusBar.tooltip));
    await selectSandbox(url);
    await scenario('operational');
    await waitUntil(
      'back on the sandbox',
      async () => readTip((await api.statusSnapshot()).statusBar.tooltip).includes('Network: Sandbox'),
      8000,
    );
  });

  it('hederaExplorer.status.notify = false silences the notification', async () => {
    await resetSettings(['network']);
    await useSandbox();
    await scenario('operational');
    await vscode.commands.executeCommand(REFRESH);
    await vscode.workspace
      .getConfiguration('hederaExplorer')
      .update('status.notify', false, vscode.ConfigurationTarget.Global);
    const n = (await api.statusSnapshot()).notifications.length;
    await scenario('major');
    const s = await refreshed();
    assert.strictEqual(s.statusBar.text, '$(error) Major outage');
    assert.strictEqual(s.notifications.length, n);
    await scenario('operational');
    await vscode.commands.executeCommand(REFRESH);
  });
});
