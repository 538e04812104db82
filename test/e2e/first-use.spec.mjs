// First use without a reachable network, as a new user meets it. The run's user settings select the sandbox; the
// workspace settings (which win over them, and which the runner puts back after each test) select the network here:
// the default network (Testnet) with this machine offline, or a custom mirror node nothing answers at. The list views
// show the unreachable state's welcome (which network, Retry, Select Network, Open Settings) in place of an error
// row, the status bar says "offline" plainly, and the Get Started walkthrough opens with its steps. Screenshots in
// the light, dark and High Contrast themes.
import assert from 'node:assert/strict';
import dns from 'node:dns/promises';
import fs from 'node:fs';
import path from 'node:path';
import {
  openContainer,
  quickPickItems,
  runCommand,
  screenshot,
  soloView,
  statusBarTexts,
  until,
  view,
  welcomeText,
  writeSettings,
} from './driver.mjs';
import { test } from './runner.mjs';

const THEMES = [
  ['light', 'Default Light Modern'],
  ['dark', 'Default Dark Modern'],
  ['hc', 'Default High Contrast'],
];
/** A port nothing listens on: every request is refused. */
const DEAD = 'http://127.0.0.1:1';

/** Writes the workspace settings (the test folder's .vscode/settings.json) over what it holds. */
async function workspaceSettings(page, ctx, settings) {
  const file = path.join(ctx.workspace, '.vscode', 'settings.json');
  fs.mkdirSync(path.dirname(file), { recursive: true });
  const original = fs.existsSync(file) ? JSON.parse(fs.readFileSync(file, 'utf8') || '{}') : {};
  const all = { ...original, ...settings };
  await writeSettings(page, file, all);
  return async (more) => writeSettings(page, file, { ...all, ...more });
}

/** Whether this machine can resolve the default network's mirror node (then Testnet is not "offline" here). */
const online = () =>
  dns.lookup('testnet.mirrornode.hedera.com').then(
    () => true,
    () => false,
  );

/** Waits for the unreachable welcome in Contract Results and returns its text and buttons. */
async function unreachableWelcome(page) {
  await openContainer(page, 'Hedera');
  await soloView(page, 'Contract Results');
  const pane = view(page, 'Contract Results');
  await until(
    page,
    async () =>
      (await pane.locator('.welcome-view-content').count()) > 0 && /could not be reached/.test(await pane.innerText()),
    'the unreachable welcome in Contract Results',
    60000,
  );
  const text = await welcomeText(page, 'Contract Results');
  const buttons = (await pane.locator('.welcome-view-content .monaco-button').allInnerTexts()).map((b) => b.trim());
  assert.equal(await pane.locator('.monaco-list-row .codicon-error').count(), 0, 'no red error row');
  return { pane, text, buttons };
}

async function themed(page, set, name, mouse = [1100, 600]) {
  for (const [theme, id] of THEMES) {
    await set({ 'workbench.colorTheme': id });
    await page.mouse.move(...mouse);
    await screenshot(page, `${name}-${theme}`);
  }
}

test('First use offline: the default network unreachable has its own welcome (Retry, Select Network, Open Settings), the status bar says offline', async ({
  page,
  ctx,
}) => {
  // online, the built-in Local network stands for an unreachable default: nothing listens at localhost:5551 here
  const isOnline = await online();
  const set = await workspaceSettings(page, ctx, { 'hederaExplorer.network': isOnline ? 'local' : 'testnet' });
  const { pane, text, buttons } = await unreachableWelcome(page);
  assert.match(text, isOnline ? /The Local network could not be reached/ : /Hedera Testnet could not be reached/, text);
  assert.doesNotMatch(text, /Check the URL/, 'no blame on a setting the user did not set');
  assert.deepEqual(buttons, ['Retry', 'Select Network', 'Open Settings']);
  if (!isOnline) {
    // the status page cannot be reached either: "offline", plain, not an alarm
    await until(
      page,
      async () => (await statusBarTexts(page)).some((t) => /Hedera: offline/.test(t)),
      'Hedera: offline in the status bar',
      60000,
    );
    const item = page.locator('.statusbar-item', { hasText: 'Hedera: offline' }).first();
    const bg = await item.evaluate((el) => getComputedStyle(el).backgroundColor);
    assert.ok(!/rgb\((1[5-9]\d|2\d\d), ([0-9]|[1-9]\d), ([0-9]|[1-9]\d)\)/.test(bg), `not red: ${bg}`);
  }
  await themed(page, set, 'first-use-offline');
  // Select Network in the welcome opens the network picker
  await pane.locator('.welcome-view-content .monaco-button', { hasText: 'Select Network' }).click();
  const labels = (await quickPickItems(page)).map((i) => i.label);
  assert.ok(labels.includes('Testnet') && labels.includes('Mainnet'), labels.join(', '));
  await page.keyboard.press('Escape');
});

test('First use: a custom mirror node nothing answers at has the custom network welcome, its name beside the title (Retry, Select Network, Open Settings)', async ({
  page,
  ctx,
}) => {
  await workspaceSettings(page, ctx, {
    'hederaExplorer.network': 'custom',
    'hederaExplorer.custom.name': 'My Node',
    'hederaExplorer.custom.mirrorUrl': DEAD,
    'hederaExplorer.custom.statusUrl': `${DEAD}/api/v2`,
  });
  const { pane, text, buttons } = await unreachableWelcome(page);
  // the welcome's text is fixed by VS Code; the user's name for the network is beside the view's title
  assert.match(text, /Your custom network, named beside this view's title, could not be reached/, text);
  assert.doesNotMatch(text, /The custom network/, text);
  assert.match(await pane.locator('.pane-header .description').innerText(), /^My Node\b/);
  assert.match(text, /Custom: Mirror Url/, 'the setting the user set is named');
  assert.deepEqual(buttons, ['Retry', 'Select Network', 'Open Settings']);
  await until(
    page,
    async () => (await statusBarTexts(page)).some((t) => /Hedera: offline/.test(t)),
    'Hedera: offline in the status bar',
    60000,
  );
  await screenshot(page, 'first-use-custom-unreachable');
  // Retry tries again: the welcome stays, the network still does not answer
  await view(page, 'Contract Results').locator('.welcome-view-content .monaco-button', { hasText: 'Retry' }).click();
  await unreachableWelcome(page);
});

test('Get Started walkthrough: opens from the palette with its five steps', async ({ page, ctx }) => {
  const set = await workspaceSettings(page, ctx, {});
  await runCommand(page, 'Welcome: Open Walkthrough...');
  await until(
    page,
    async () => (await quickPickItems(page)).some((i) => /Get Started with Hedera Explorer/.test(i.label)),
    'the walkthrough listed',
  );
  await page
    .locator('.quick-input-widget .quick-input-list .monaco-list-row', { hasText: 'Get Started with Hedera Explorer' })
    .first()
    .click();
  const container = page.locator('.gettingStartedContainer');
  await container.waitFor({ timeout: 20000 });
  for (const step of [
    'Pick a network',
    "Open a contract's results",
    'Inspect a transaction',
    'Verify a contract',
    'Debug a revert',
  ]) {
    await container.locator('.getting-started-step', { hasText: step }).first().waitFor({ timeout: 20000 });
  }
  await themed(page, set, 'walkthrough', [1100, 850]);
});
