// The Hedera activity bar container opens and shows its three views. Each shows either its welcome text
// (nothing to show yet) or rows loaded from the sandbox the e2e profile is set to.
import assert from 'node:assert/strict';
import { noHover, openContainer, screenshot, treeRows, view, waitForViewIdle } from './driver.mjs';
import { test } from './runner.mjs';

const VIEWS = {
  'Network Status': 'The network status of the selected Hedera network',
  Schedules: 'Scheduled transactions from the mirror node',
  'Contract Results': 'Contract call results from the mirror node',
};

/** Resolves once the view shows its welcome content or at least one tree row. */
async function viewContent(page, name) {
  const pane = await waitForViewIdle(page, name);
  const welcome = pane.locator('.welcome-view-content');
  const row = pane.locator('.pane-body .monaco-list-row').first();
  await welcome.or(row).first().waitFor({ timeout: 20000 });
  if (await welcome.isVisible()) return { welcome: (await welcome.innerText()).trim() };
  return { rows: await treeRows(page, name) };
}

test('the Hedera container shows the three views, each with its welcome text or its rows', async ({ page }) => {
  await openContainer(page, 'Hedera');
  for (const [name, text] of Object.entries(VIEWS)) {
    assert.ok(await view(page, name).isVisible(), `view ${name} is visible`);
    const content = await viewContent(page, name);
    if (content.welcome !== undefined) {
      assert.ok(content.welcome.includes(text), `welcome of ${name}: ${content.welcome}`);
      assert.ok(content.welcome.includes('Select Network'), `${name} offers "Select Network"`);
    } else {
      assert.ok(content.rows.length > 0 && content.rows[0].label, `${name} shows rows`);
    }
  }
  // the pointer off the views (over the empty editor area) and the hover it left gone: a clean picture
  await page.mouse.move(900, 500);
  await noHover(page);
  await screenshot(page, 'hedera-views', { readme: true });
});
