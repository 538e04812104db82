// Network status as a user sees it in the browser workbench, against the sandbox's status page: the status bar
// item (text, background, tooltip, click opens the view), the Network Status view's rows per scenario, the
// "worse" notification, and a 429 shown as "status unknown" with an error row that retries on click.
import assert from 'node:assert/strict';
import {
  notifications,
  openContainer,
  runCommand,
  sandbox,
  screenshot,
  soloView,
  statusBarItem,
  statusBarTexts,
  treeRows,
  view,
  waitForView,
} from './driver.mjs';
import { test } from './runner.mjs';

const T = 20000;

const scenario = (ctx, s) => sandbox(ctx, '/__sandbox/status', { scenario: s });

/** Clicks the view's own Refresh action (title bar), as a user would. */
async function refreshView(page) {
  const pane = await waitForView(page, 'Network Status');
  await pane.locator('.pane-header').hover();
  await pane.locator('.pane-header .actions .action-label[aria-label^="Refresh"]').click({ timeout: T });
}

async function waitForStatusBar(page, text) {
  await statusBarItem(page, text).waitFor({ timeout: T });
}

/** Our item, whatever it shows (its accessible name starts the same way in every state). */
const ourItem = (page) => page.locator('.part.statusbar .statusbar-item [aria-label^="Hedera network status"]').first();

/** A wider side bar, only the Network Status pane expanded: for screenshots where the rows can be read. */
async function focusLayout(page, open) {
  const sash = page.locator('.part.sidebar').boundingBox();
  const box = await sash;
  if (box && box.width < 500) {
    await page.mouse.move(box.x + box.width + 1, box.y + box.height / 2);
    await page.mouse.down();
    await page.mouse.move(box.x + 560, box.y + box.height / 2, { steps: 8 });
    await page.mouse.up();
  }
  for (const name of ['Schedules', 'Contract Results', 'Verification']) {
    const header = view(page, name).locator('.pane-header');
    if ((await header.getAttribute('aria-expanded')) === (open ? 'false' : 'true')) await header.click();
  }
}

async function waitForRow(page, label) {
  const pane = view(page, 'Network Status');
  await pane.locator('.pane-body .monaco-list-row .label-name', { hasText: label }).first().waitFor({ timeout: T });
}

/** Expands a collapsed row by its twistie (a click on an incident or maintenance label opens its link). */
async function expand(page, label) {
  const row = view(page, 'Network Status')
    .locator('.pane-body .monaco-list-row', {
      has: page.locator('.label-name', {
        hasText: new RegExp(`^\\s*${label.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}\\s*$`),
      }),
    })
    .first();
  await row.waitFor({ timeout: T });
  if ((await row.getAttribute('aria-expanded')) === 'false')
    await row.locator('.monaco-tl-twistie').click({ timeout: T });
}

test('the status bar item and the Network Status view follow the status page', async ({ page, ctx }) => {
  await scenario(ctx, 'operational');
  await openContainer(page, 'Hedera');
  await waitForView(page, 'Network Status');
  // the container has five views: this one alone, so that its rows are in view (a tree draws only the rows it shows)
  await soloView(page, 'Network Status');
  await refreshView(page);
  await waitForStatusBar(page, 'Hedera');
  await waitForRow(page, 'All Systems Operational');
  const labels = (await treeRows(page, 'Network Status')).map((r) => r.label);
  for (const l of [
    'All Systems Operational',
    'No open incidents',
    'Maintenance',
    'Components',
    'Hedera Mainnet (v0.68.2)',
  ]) {
    assert.ok(labels.includes(l), `row ${l} in ${labels.join(' | ')}`);
  }
  assert.ok(
    !labels.includes('Hedera Previewnet | Network Uptime'),
    'only_show_if_degraded component hidden while operational',
  );
  assert.equal(
    await ourItem(page).getAttribute('aria-label'),
    'Hedera network status: Operational. All Systems Operational',
  );
  assert.equal((await ourItem(page).innerText()).trim(), 'Hedera');
  await screenshot(page, 'status-operational');

  // worse: a notification with "Show Status", the error background, the incidents in the tree
  await scenario(ctx, 'major');
  await refreshView(page);
  await waitForStatusBar(page, 'Major outage');
  await waitForRow(page, 'Open incidents');
  await waitForRow(page, 'Smart contract execution failing on mainnet');
  const texts = await statusBarTexts(page);
  assert.ok(
    texts.some((t) => t.includes('Major outage')),
    texts.join(' | '),
  );
  const item = page.locator('.part.statusbar .statusbar-item', { hasText: 'Major outage' }).first();
  const bg = await item.evaluate((el) => getComputedStyle(el).backgroundColor);
  assert.notEqual(bg, 'rgba(0, 0, 0, 0)', 'error background');
  await page
    .locator('.notifications-toasts .notification-toast', {
      hasText: 'Hedera network status: Major outage (was Operational)',
    })
    .waitFor({ timeout: T });
  const toast = (await notifications(page)).find((n) => n.includes('Major outage (was Operational)'));
  assert.ok(toast && toast.includes('Show Status'), `notification with Show Status: ${toast}`);
  const rows = await treeRows(page, 'Network Status');
  const incident = rows.find((r) => r.label === 'Smart contract execution failing on mainnet');
  assert.match(incident?.description ?? '', /^Major · escalated · /);
  assert.ok(
    rows.some((r) => r.label.startsWith('Escalated to the node operators')),
    'newest update first, as a row',
  );
  await focusLayout(page, false);
  await expand(page, 'Hedera Mainnet (v0.68.2)');
  await screenshot(page, 'status-view', { readme: true });

  // the tooltip: affected components, incidents, next maintenance
  await page
    .locator('.notifications-toasts .notification-toast .codicon-notifications-clear')
    .first()
    .click()
    .catch(() => {});
  await item.hover();
  const hover = page.locator('.monaco-hover, .workbench-hover', { hasText: 'Affected components' }).first();
  await hover.waitFor({ timeout: T });
  const tip = await hover.innerText();
  for (const s of [
    'Partial System Outage',
    'Open incidents',
    'Smart contract execution failing on mainnet',
    'Next maintenance',
    'Hedera Mainnet upgrade to v0.69',
  ]) {
    assert.ok(tip.includes(s), `tooltip has ${s}: ${tip}`);
  }
  assert.ok(!tip.includes('\\'), 'escapes are not visible');
  await screenshot(page, 'status-tooltip', { readme: true });
  await page.mouse.move(900, 300);
  await page.keyboard.press('Escape');
  await hover.waitFor({ state: 'hidden', timeout: T });
  await focusLayout(page, true);
  await scenario(ctx, 'operational');
});

test('clicking the status bar item opens the Network Status view', async ({ page }) => {
  await ourItem(page).waitFor({ timeout: T });
  await runCommand(page, 'View: Close Primary Side Bar');
  await page.locator('.part.sidebar').waitFor({ state: 'hidden', timeout: T });
  await ourItem(page).click();
  await waitForView(page, 'Network Status');
  assert.ok(await view(page, 'Network Status').isVisible());
});

test('a 429 shows "status unknown" and an error row; clicking the row retries', async ({ page, ctx }) => {
  await scenario(ctx, 'maintenance');
  await openContainer(page, 'Hedera');
  await refreshView(page);
  await waitForStatusBar(page, 'Maintenance');
  await waitForRow(page, 'Mirror Node database migration');
  await waitForRow(page, 'Hedera Mainnet upgrade to v0.69');
  await focusLayout(page, false);
  await expand(page, 'Mirror Node database migration');
  await waitForRow(page, 'Window');
  await screenshot(page, 'status-maintenance', { readme: true });

  await sandbox(ctx, '/__sandbox/faults', {
    path: '/api/v2/summary.json',
    times: 3,
    fault: { status: 429, retryAfter: '1' },
  });
  await refreshView(page);
  await waitForStatusBar(page, 'Hedera: status unknown');
  await waitForRow(page, 'limiting requests');
  const rows = await treeRows(page, 'Network Status');
  assert.match(rows[0].label, /limiting requests \(HTTP 429 Too Many Requests\)/);
  assert.match(rows[1].description, /^last known, /);
  await screenshot(page, 'status-error');
  await view(page, 'Network Status')
    .locator('.pane-body .monaco-list-row .label-name', { hasText: 'limiting requests' })
    .first()
    .click();
  await waitForStatusBar(page, 'Maintenance');
  await view(page, 'Network Status')
    .locator('.pane-body .monaco-list-row .label-name', { hasText: 'limiting requests' })
    .first()
    .waitFor({ state: 'detached', timeout: T });
  const after = (await treeRows(page, 'Network Status')).map((r) => r.label);
  assert.ok(!after.some((l) => l.includes('limiting requests')), after.join(' | '));
  await focusLayout(page, true);
  await scenario(ctx, 'operational');
  await sandbox(ctx, '/__sandbox/faults', undefined, 'DELETE');
});
