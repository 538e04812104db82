// First use without a reachable network: the list views give way to the unreachable state's welcome (a context key
// naming the network), Retry Network tries again, a network that answers clears it; the status bar says "offline"
// plainly; the status page is polled only while the status is shown; hovers only in the languages of the setting.
import * as assert from 'assert';
import * as vscode from 'vscode';
import {
  type HederaTestApi,
  activateApi,
  extension,
  resetSettings,
  SANDBOX_KEYS,
  sandboxUrl,
  selectSandbox,
  waitUntil,
} from './helpers';

const Global = vscode.ConfigurationTarget.Global;
/** A port nothing listens on: every request is refused, as for a local node that is not running. */
const DEAD = 'http://127.0.0.1:1';

async function selectDeadNetwork(): Promise<void> {
  const cfg = vscode.workspace.getConfiguration('hederaExplorer');
  // unnamed: the network goes by its mirror node's host (the sandbox's settings name it)
  await cfg.update('custom.name', undefined, Global);
  await cfg.update('custom.mirrorUrl', DEAD, Global);
  await cfg.update('custom.statusUrl', `${DEAD}/api/v2`, Global);
  await cfg.update('network', 'custom', Global);
}

describe('first use: the unreachable network', function () {
  this.timeout(60000); // each refused load takes its retries with backoff
  let api: HederaTestApi;
  before(async () => {
    api = await activateApi();
  });
  afterEach(() => resetSettings([...SANDBOX_KEYS, 'status.showInStatusBar']));

  it('a refused mirror node empties the list views (the welcome shows) and names the network; a network that answers clears it', async () => {
    await selectDeadNetwork();
    await waitUntil('the custom network selected', () => api.profile().mirrorUrl === DEAD);
    assert.strictEqual(api.unreachable(), undefined, 'nothing tried yet');
    api.contractResults.snapshot(); // the first rows: loads
    await waitUntil('unreachable', () => api.unreachable() === 'custom', 15000);
    // another view may have found the network unreachable first: this one's own load ends too
    await waitUntil('contract results tried', () => !api.contractResults.loading && api.contractResults.started, 15000);
    assert.deepStrictEqual(api.contractResults.snapshot().rows, [], 'no error row: the welcome shows');
    // the other list view gives way too, once it tried
    api.schedules.snapshot();
    await waitUntil('schedules tried', () => !api.schedules.loading && api.schedules.started, 15000);
    assert.deepStrictEqual(api.schedules.snapshot().rows, []);
    // the welcome names the network by the context key: one entry per network, with the three buttons
    const welcome = extension().packageJSON.contributes.viewsWelcome as Array<{
      view: string;
      contents: string;
      when?: string;
    }>;
    const entry = welcome.find(
      (w) => w.view === 'hederaExplorer.contractResults' && w.when === 'hederaExplorer.unreachable == custom',
    );
    assert.ok(entry, 'a welcome for the unreachable custom network');
    const regular = welcome.find((w) => w.view === 'hederaExplorer.contractResults' && !/== /.test(w.when ?? ''));
    assert.strictEqual(regular?.when, '!hederaExplorer.unreachable', 'the regular welcome steps aside');
    // a welcome's text is fixed; the network's own name (here, unnamed, its mirror node's host) is beside the title
    assert.match(entry.contents, /^Your custom network, named beside this view's title, could not be reached/);
    assert.match(api.contractResults.snapshot().description ?? '', /^127\.0\.0\.1:1( · |$)/);

    if (sandboxUrl) {
      await selectSandbox(sandboxUrl);
      assert.strictEqual(api.unreachable(), undefined, 'another network: the state is forgotten');
      // the first rows of the new network (a hidden view loads when its rows are asked for)
      await waitUntil('rows from the sandbox', () => api.contractResults.snapshot().rows.length > 0, 15000);
      await waitUntil('loaded', () => !api.contractResults.loading && api.contractResults.loaded.length > 0, 15000);
      assert.strictEqual(api.unreachable(), undefined);
    }
  });

  it('Retry Network forgets the state and loads again; the failure brings it back', async () => {
    await selectDeadNetwork();
    await waitUntil('the custom network selected', () => api.profile().mirrorUrl === DEAD);
    api.contractResults.snapshot();
    await waitUntil('unreachable', () => api.unreachable() === 'custom', 15000);
    const before = api.recentLog();
    await vscode.commands.executeCommand('hederaExplorer.retryNetwork');
    assert.strictEqual(api.unreachable(), undefined, 'forgotten at once');
    api.contractResults.snapshot();
    await waitUntil('unreachable again', () => api.unreachable() === 'custom', 15000);
    assert.ok(
      linesAfter(before, api.recentLog()).some((l) => /unreachable/.test(l)),
      'a new failure, logged',
    );
  });

  it('the status bar says offline, without an error background, and a click tries again', async () => {
    await selectDeadNetwork();
    await waitUntil(
      'offline',
      async () => (await api.statusSnapshot()).statusBar.text === '$(debug-disconnect) Hedera: offline',
      15000,
    );
    const s = await api.statusSnapshot();
    assert.strictEqual(s.statusBar.background, undefined);
    assert.strictEqual(s.statusBar.command, 'hederaExplorer.status.refresh');
    assert.match(s.statusBar.tooltip, /could not be reached/);
    assert.match(s.statusBar.accessibilityLabel ?? '', /offline/);
  });

  it('the status page is polled only while the status is shown: the status bar item off and the view hidden, no poll is scheduled', async () => {
    const cfg = vscode.workspace.getConfiguration('hederaExplorer');
    await waitUntil('a poll scheduled', async () => (await api.statusSnapshot()).state.nextPollAt !== undefined, 15000);
    if ((await api.statusSnapshot()).view.visible) {
      // the view open keeps the poll: hide the side bar's view container
      await vscode.commands.executeCommand('workbench.action.closeSidebar');
      await waitUntil('view hidden', async () => !(await api.statusSnapshot()).view.visible);
    }
    await cfg.update('status.showInStatusBar', false, Global);
    await waitUntil('no poll scheduled', async () => (await api.statusSnapshot()).state.nextPollAt === undefined);
    assert.strictEqual((await api.statusSnapshot()).statusBar.visible, false);
    await cfg.update('status.showInStatusBar', undefined, Global);
    await waitUntil('polled again', async () => (await api.statusSnapshot()).state.nextPollAt !== undefined, 15000);
    assert.strictEqual((await api.statusSnapshot()).statusBar.visible, true);
    await vscode.commands.executeCommand('workbench.view.extension.hederaExplorer'); // the side bar back for the next suites
  });
});

describe('footprint: hover languages and activation', () => {
  it('hovers default to the languages where Hedera ids appear, not every language', async () => {
    const api = await activateApi();
    const inspected = vscode.workspace.getConfiguration('hederaExplorer').inspect<string[]>('hovers.languages');
    const languages = inspected?.defaultValue ?? [];
    assert.ok(!languages.includes('*'), `not every language: ${languages.join(', ')}`);
    for (const l of ['solidity', 'javascript', 'typescript', 'json', 'markdown', 'dotenv'])
      assert.ok(languages.includes(l), l);
    const selector = JSON.stringify(api.ledgerLinks.selector ?? []);
    assert.ok(selector.includes('"solidity"') && !selector.includes('"*"'), selector);
  });

  it('activates only where it serves: Hedera project files, its views, commands and panels (no startup activation)', () => {
    const events = extension().packageJSON.activationEvents as string[];
    assert.ok(!events.includes('*') && !events.includes('onStartupFinished'), events.join(', '));
    for (const e of ['workspaceContains:hardhat.config.ts', 'workspaceContains:foundry.toml'])
      assert.ok(events.includes(e), e);
    assert.ok(events.some((e) => e.startsWith('workspaceContains:ignition/')));
  });
});

/**
 * The lines logged since `before` was read. The log keeps its last 500 lines, so the older ones may be gone: the
 * smallest shift k for which `before` without its first k lines starts `after` tells how many were dropped.
 */
function linesAfter(before: string[], after: string[]): string[] {
  for (let k = 0; k <= before.length; k++) {
    const kept = before.slice(k);
    if (kept.every((line, i) => after[i] === line)) return after.slice(kept.length);
  }
  return after;
}
