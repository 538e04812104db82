// The Deployments view and the CodeLens on Solidity contracts in the browser workbench, against the sandbox and the
// sample workspace's Ignition records (chain 296): the five contracts, Vault's failing results marked in its row and
// shown when it is expanded (the Contract Results row kind, with its context menu); CodeLens above `contract Vault`
// in Vault.sol (entity id, calls, verification, the failure count, Verify); clicking the failure count opens the
// latest failure in the inspector, clicking the main lens filters Contract Results to Vault.
// README screenshots: deployments-view.png, codelens-vault.png.
import assert from 'node:assert/strict';
import {
  closeEditors,
  collapseRow,
  contextMenu,
  expandRow,
  extensionReady,
  lensTexts,
  openFile,
  openContainer,
  sandbox,
  screenshot,
  soloView,
  treeRow,
  treeRows,
  until,
  view,
  viewAction,
  viewDescription,
} from './driver.mjs';
import { test } from './runner.mjs';

const T = 20000;
const VIEW = 'Deployments';
const RESULTS = 'Contract Results';

/** The rows under the row at `index` (deeper levels). */
function childrenOf(rows, index) {
  const out = [];
  for (const r of rows.slice(index + 1)) {
    if (r.level <= rows[index].level) break;
    out.push(r);
  }
  return out;
}

/** Vault's latest results as the mirror node answers them (newest first). */
const vaultResults = async (ctx) =>
  (await sandbox(ctx, '/api/v1/contracts/0.0.7001/results?limit=25&order=desc')).results;

test("Deployments: the records' contracts on the sandbox, Vault's failing results marked; expanded, its results as Contract Results rows", async ({
  page,
  ctx,
}) => {
  const vault = await vaultResults(ctx);
  const failed = vault.filter((r) => r.error_message).length;
  assert.ok(vault.length >= 6 && vault.length < 25 && failed >= 2, "the sandbox's Vault scenarios, some failed");
  const VAULT_ROW = new RegExp(`^0\\.0\\.7001 · ${vault.length} calls · ${failed} failed · last .+ · not verified$`);
  await openContainer(page, 'Hedera');
  await soloView(page, VIEW);
  await treeRow(page, VIEW, 'Vault').waitFor({ timeout: T });
  if ((await viewDescription(page, VIEW)) === 'all networks')
    await viewAction(page, VIEW, 'Show the Selected Network Only');
  assert.equal(await viewDescription(page, VIEW), 'Sandbox · chain 296');
  const rows = await until(
    page,
    async () => {
      const r = (await treeRows(page, VIEW)).filter((x) => x.level === 1);
      return r.length === 5 &&
        VAULT_ROW.test(r.find((x) => x.label === 'Vault')?.description ?? '') &&
        r.every((x) => !/loading/.test(x.description))
        ? r
        : undefined;
    },
    'the five contracts with their answers',
  );
  assert.deepEqual(
    rows.map((r) => r.label),
    ['Token', 'Counter', 'Vault', 'Ledger', 'Accounting'],
  );
  const row = (label) => rows.find((r) => r.label === label);
  assert.equal(row('Vault').icon, 'codicon-error', 'failures marked');
  assert.equal(row('Ledger').description, '0.0.7002 · no calls · not verified');
  assert.equal(row('Token').description, '0x100000…0002 · not found on Sandbox · verified (match)');
  assert.equal(row('Token').icon, 'codicon-warning');
  assert.match(
    row('Vault').ariaLabel,
    new RegExp(`^Deployed contract Vault, 0\\.0\\.7001 · ${vault.length} calls · ${failed} failed`),
  );

  await expandRow(page, VIEW, 'Vault');
  await treeRow(page, VIEW, 'Deployment').waitFor({ timeout: T });
  let all = await treeRows(page, VIEW);
  const children = childrenOf(
    all,
    all.findIndex((r) => r.label === 'Vault'),
  );
  assert.equal(children[0].label, 'Deployment');
  assert.equal(children[0].description, 'ignition/deployments/chain-296/deployed_addresses.json');
  const results = children.slice(1);
  assert.equal(results.length, vault.length);
  assert.deepEqual(
    results.map((r) => r.icon),
    vault.map((r) => (r.error_message ? 'codicon-error' : 'codicon-pass')),
  );
  assert.ok(
    results.every((r) => r.description.startsWith('0.0.7001')),
    results.map((r) => r.description).join(' | '),
  );
  await page.mouse.move(1100, 850);
  await screenshot(page, 'deployments-view', { readme: true });
  await expandRow(page, VIEW, 'Deployment');
  await treeRow(page, VIEW, 'Found in').waitFor({ timeout: T });
  all = await treeRows(page, VIEW);
  assert.equal(
    all.find((r) => r.label === 'Found in').description,
    'ignition/deployments/chain-296/deployed_addresses.json › InspectorModule#Vault',
  );
  assert.equal(all.find((r) => r.label === 'Entity id').description, '0.0.7001');
  assert.equal(all.find((r) => r.label === 'Verification').description, 'not verified');
  await screenshot(page, 'deployments-view-details');
  await collapseRow(page, VIEW, 'Deployment');

  // a result row has the Contract Results row's actions
  const failedRow = view(page, VIEW)
    .locator('.pane-body .monaco-list-row[aria-level="2"]', { has: page.locator('.codicon-error') })
    .first();
  const menu = await contextMenu(page, VIEW, failedRow);
  for (const entry of ['Inspect Transaction', 'Open Transaction in HashScan', 'Copy Transaction Hash', 'Show Raw JSON'])
    assert.ok(menu.includes(entry), `${entry} in ${menu.join(', ')}`);
  await page.keyboard.press('Escape');
  await collapseRow(page, VIEW, 'Vault');
  await soloView(page);
});

// a new page: the debugger's test before it leaves a debug session, its side bar and Vault.sol scrolled down
test.fresh();
test('CodeLens: Vault.sol shows id, calls, verification, failures and Verify; the failure count opens the inspector, the main lens filters Contract Results', async ({
  page,
  ctx,
}) => {
  const vault = await vaultResults(ctx);
  const failed = vault.filter((r) => r.error_message);
  const scenario = Object.values((await sandbox(ctx, '/__sandbox/health')).notable.inspector).find(
    (s) => s.timestamp === failed[0].timestamp,
  );
  assert.ok(scenario, "the newest failure is one of the sandbox's inspector scenarios");
  await extensionReady(page);
  await closeEditors(page);
  // the Hedera side bar: an earlier test may have left another container open (the debugger's Run and Debug)
  await openContainer(page, 'Hedera');
  await openFile(page, 'Vault.sol');
  // to the top: the file may open where an earlier test left it (the debugger's tests stop far below the declaration)
  await page.keyboard.press('Control+Home');
  const texts = await lensTexts(page, (t) => t.length === 5 && /calls/.test(t[0]));
  assert.match(texts[0], new RegExp(`^0\\.0\\.7001 · ${vault.length} calls, last .+ · not verified$`));
  assert.deepEqual(texts.slice(1), [`${failed.length} failed`, 'Debug', 'Verify', 'Call']);
  // above `contract Vault` (line 11); the functions' lenses are other decorations, in the order they were drawn
  const deco = page
    .locator('.editor-instance .monaco-editor .codelens-decoration', { has: page.locator('a', { hasText: /calls/ }) })
    .first();
  const line = page
    .locator('.editor-instance .monaco-editor .view-line', { hasText: /^\s*contract\s+Vault\s+\{\s*$/ })
    .first(); // spaces are U+00A0 there
  const [d, l] = [await deco.boundingBox(), await line.boundingBox()];
  assert.ok(d && l && d.y < l.y && l.y - d.y < 40, `the lens just above the declaration (${d?.y}, ${l?.y})`);
  await page.mouse.move(1100, 850);
  await screenshot(page, 'codelens-vault', { readme: true });

  // the failure count: the latest failure in the inspector
  await deco.locator('a', { hasText: new RegExp(`^\\s*${failed.length} failed\\s*$`) }).click();
  const tab = page.locator('.tabs-container .tab', { hasText: /^\s*Transaction .+ · Sandbox/ }).first();
  await tab.waitFor({ timeout: T });
  await until(
    page,
    async () => {
      for (const f of await page.locator('iframe.webview.ready').all()) {
        const title = await f
          .contentFrame()
          .locator('iframe#active-frame')
          .contentFrame()
          .locator('#app[data-ready="true"] h1.title')
          .textContent({ timeout: 300 })
          .catch(() => '');
        if (title.includes(scenario.transactionId) || title.includes(scenario.timestamp)) return true;
      }
      return false;
    },
    `the inspector page of the latest failure ${scenario.timestamp}`,
  );
  await screenshot(page, 'codelens-vault-inspector');

  // the main lens: Contract Results filtered to Vault
  await page.locator('.tabs-container .tab', { hasText: 'Vault.sol' }).click();
  const main = page
    .locator('.editor-instance .monaco-editor .codelens-decoration a', { hasText: /^0\.0\.7001 · \d+ calls/ })
    .first();
  await main.click({ timeout: T });
  await until(
    page,
    async () => (await viewDescription(page, RESULTS)) === 'Sandbox · contract 0.0.7001',
    `Contract Results filtered (${await viewDescription(page, RESULTS).catch(() => '')})`,
  );
  await soloView(page, RESULTS);
  const rows = await until(
    page,
    async () => {
      const r = (await treeRows(page, RESULTS)).filter((x) => x.level === 1);
      return r.length === vault.length ? r : undefined;
    },
    "Vault's results",
  );
  assert.ok(
    rows.every((r) => r.description.startsWith('0.0.7001')),
    rows.map((r) => r.description).join(' | '),
  );
  await screenshot(page, 'codelens-vault-results');
  await viewAction(page, RESULTS, 'Clear Filters');
  await until(page, async () => (await viewDescription(page, RESULTS)) === 'Sandbox', 'Contract Results unfiltered');
  await soloView(page);
  await closeEditors(page);
});
