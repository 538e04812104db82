// The extension in the browser workbench against a server that misbehaves on purpose (the sandbox's hostile mode,
// sandbox/README.md): what a person sees. Server text in a notification is never a live link (nothing in it
// carries a link), tooltips show server URLs and Markdown as plain text, reordering and invisible characters are
// shown escaped (memos, contract names in the Verification view), a paging loop stops with a notice and no repeated
// rows, a next link to another host keeps the rows and says why paging stopped, an empty first page says more may
// follow, a redirect to another host is an error naming it (and nothing reaches that host), a 409 shows what the
// server's lookup says, and big integers in unknown fields are shown with every digit.
import assert from 'node:assert/strict';
import {
  expandRow,
  noHover,
  notifications,
  openContainer,
  openNftHistory,
  pickQuickPick,
  quickPickItems,
  runCommand,
  sandbox,
  screenshot,
  soloView,
  treeRow,
  treeRows,
  typeInQuickInput,
  until,
  view,
  viewAction,
  viewDescription,
  waitForViewIdle,
  writeSettings,
} from './driver.mjs';
import { test } from './runner.mjs';
import fs from 'node:fs';
import path from 'node:path';

const T = 20000;

async function withHostile(ctx, families, fn) {
  await sandbox(ctx, '/__sandbox/hostile', { families });
  try {
    return await fn();
  } finally {
    await sandbox(ctx, '/__sandbox/hostile', undefined, 'DELETE');
  }
}

async function openView(page, name, firstRow) {
  await openContainer(page, 'Hedera');
  await soloView(page, name);
  await treeRow(page, name, firstRow).waitFor({ timeout: T });
  if (!/^Sandbox/.test(await viewDescription(page, name))) await viewAction(page, name, 'Clear Filters');
  await page.mouse.move(1100, 600);
}

/** Sourcify API v2 for this test: the workspace settings file is watched (the runner puts it back afterwards). */
async function useSourcifyV2(page, ctx) {
  const settingsFile = path.join(ctx.workspace, '.vscode', 'settings.json');
  const original = fs.readFileSync(settingsFile, 'utf8');
  await writeSettings(page, settingsFile, {
    ...JSON.parse(original || '{}'),
    'hederaExplorer.verify.api': 'sourcify-v2',
  });
}

/** "Verify Contract" on `address`, typed in the input box, with the workspace contract Counter picked. */
async function verifyCounterAt(page, address) {
  await openContainer(page, 'Hedera');
  await runCommand(page, 'Hedera: Verify Contract');
  await quickPickItems(page);
  await page
    .locator('.quick-input-widget .quick-input-list .monaco-list-row', { hasText: 'Enter an address or entity id…' })
    .first()
    .click();
  await page
    .locator('.quick-input-widget .quick-input-title', { hasText: 'Contract to verify on Sandbox (chain 296)' })
    .waitFor();
  await typeInQuickInput(page, address, { expect: '' });
  await page.keyboard.press('Enter');
  await until(page, async () => (await quickPickItems(page)).some((i) => i.label === 'Counter'), 'the contract pick');
  await pickQuickPick(page, 'Counter');
}

test('Hostile server: a Sourcify job error with a command link is plain text in the notification; nothing runs', async ({
  page,
  ctx,
}) => {
  await useSourcifyV2(page, ctx);
  await withHostile(ctx, ['sourcify'], async () => {
    await verifyCounterAt(page, '0x1000000000000000000000000000000000000005');
    const toast = page
      .locator('.notifications-toasts .notification-toast', { hasText: 'Sourcify could not verify' })
      .first();
    await toast.waitFor({ timeout: 40000 });
    const text = await toast.locator('.notification-list-item-message').innerText();
    assert.match(text, /\[Open a terminal\] \(command:workbench\.action\.terminal\.new\)/, text);
    // nothing in the message can run a command: no link, no element that carries one
    assert.equal(
      await toast.locator('.notification-list-item-message :is(a, [href], [data-href])').count(),
      0,
      'no link in the message',
    );
    await screenshot(page, 'hostile-notification');
    assert.ok((await notifications(page)).some((n) => n.includes('Sourcify could not verify')));
  });
});

test('Hostile server: memos in rows and tooltips read as sent: escaped reordering characters, URLs and Markdown links as plain text', async ({
  page,
  ctx,
}) => {
  await withHostile(ctx, ['text'], async () => {
    await openView(page, 'Schedules', /^0\.0\.\d+/);
    await viewAction(page, 'Schedules', 'Refresh');
    await until(
      page,
      async () =>
        /Other<U\+202E>los\.exe<U\+202C>/.test(
          (await treeRows(page, 'Schedules')).find((r) => r.label.startsWith('0.0.5117998'))?.description ?? '',
        ),
      'the spoofing memo shown escaped',
    );
    const rows = await treeRows(page, 'Schedules');
    for (const r of rows)
      assert.ok(
        !/[\u202a-\u202e\u2066-\u2069\u200b-\u200f\ufeff]/.test(`${r.label}${r.description}`),
        `raw invisible character in ${r.label}`,
      );
    await screenshot(page, 'hostile-memos');
    // the row tooltips: server URLs read as sent (no backslashes) and are not links; reordering characters escaped
    const tooltip = async (id) => {
      const label = treeRow(page, 'Schedules', new RegExp(`^0\\.0\\.${id}`)).locator('.label-name');
      const box = await label.boundingBox();
      // out of the side bar at the row's height, the former row's hover gone; then straight onto the row: a pointer
      // crossing other rows shows their hovers at once (the tree shows hovers instantly just after one closed), and
      // one of them can cover the row
      await page.mouse.move(1100, box.y + box.height / 2);
      await noHover(page);
      await page.mouse.move(box.x + Math.min(box.width / 2, 40), box.y + box.height / 2, { steps: 8 });
      await until(page, () => label.evaluate((el) => el.matches(':hover')), `the pointer on row 0.0.${id}`);
      const hover = page.locator('.monaco-hover, .workbench-hover', { hasText: `0.0.${id}` }).first();
      await hover.waitFor({ timeout: T });
      return hover;
    };
    const urls = await tooltip('5117059');
    assert.ok(
      (await urls.innerText()).includes(
        'Details at http://127.0.0.1/__beacon?x=1 or https://evil.example/__beacon?x=2 or www.evil.example',
      ),
      await urls.innerText(),
    );
    assert.equal(await urls.locator('a').count(), 0, 'no link in the tooltip');
    await screenshot(page, 'hostile-tooltip');
    const link = await tooltip('5104897');
    assert.ok(
      (await link.innerText()).includes('[Open a terminal](command:workbench.action.terminal.new) to fix this'),
    );
    assert.equal(await link.locator('a').count(), 0);
    const bidi = await tooltip('5117998');
    assert.ok((await bidi.innerText()).includes('Other<U+202E>los.exe<U+202C>'));
    await page.mouse.move(1100, 600);
  });
  await viewAction(page, 'Schedules', 'Refresh');
});

test('Hostile server: a next link back to the page just loaded stops paging with a notice, no row twice', async ({
  page,
  ctx,
}) => {
  await withHostile(ctx, ['paging-self'], async () => {
    await openView(page, 'Contract Results', /^\d{4}-/);
    await viewAction(page, 'Contract Results', 'Refresh');
    // the first page's next link is that page itself: paging stops at once (no Load more to click for ever)
    const stop = treeRow(page, 'Contract Results', /leads back to a page already loaded/);
    await stop.waitFor({ timeout: T });
    // the first page's rows (the list may still be drawing them when the notice shows): 25, never more
    let rows = [];
    await until(
      page,
      async () => {
        rows = (await treeRows(page, 'Contract Results')).filter((r) => r.level === 1 && /^\d{4}-/.test(r.label));
        return rows.length >= 25;
      },
      "the first page's 25 rows",
      5000,
    ).catch(() => {});
    assert.equal(
      rows.length,
      25,
      `the first page only, nothing appended twice: ${rows.length} rows (${rows.map((r) => r.label.slice(0, 24)).join(' | ')})`,
    );
    assert.equal(await view(page, 'Contract Results').locator('.monaco-list-row', { hasText: 'Load more' }).count(), 0);
    await screenshot(page, 'hostile-paging-loop');
  });
  await viewAction(page, 'Contract Results', 'Refresh');
});

test('Hostile server: big integers in unknown fields are shown with every digit', async ({ page, ctx }) => {
  await withHostile(ctx, ['bigint'], async () => {
    await openView(page, 'Contract Results', /^\d{4}-/);
    await sandbox(ctx, '/__sandbox/requests', undefined, 'DELETE');
    await viewAction(page, 'Contract Results', 'Refresh');
    // the rows of the refreshed page: asked for since the click, then the view done loading
    await until(
      page,
      async () =>
        (await sandbox(ctx, '/__sandbox/requests', undefined, 'GET')).some((r) =>
          r.url.startsWith('/api/v1/contracts/results'),
        ),
      'the results asked again',
    );
    await waitForViewIdle(page, 'Contract Results');
    // the sandbox's newest result of its own (results other tests added may be above it), by its time and contract
    const { newestRevert } = (await sandbox(ctx, '/__sandbox/health')).notable.contractResults;
    const [result] = (await sandbox(ctx, `/api/v1/contracts/results?timestamp=${newestRevert}`)).results;
    const row = view(page, 'Contract Results')
      .locator('.pane-body .monaco-list-row[aria-level="1"]')
      .filter({
        has: page.locator('.label-name', { hasText: new RegExp(`^\\s*${localTime(newestRevert)}( · |\\s*$)`) }),
      })
      .filter({ has: page.locator('.label-description', { hasText: `${result.contract_id} · ` }) })
      .first();
    await row.waitFor({ timeout: T });
    await expandRow(page, 'Contract Results', row);
    const other = treeRow(page, 'Contract Results', 'Other fields');
    await other.waitFor({ timeout: T });
    await expandRow(page, 'Contract Results', other);
    await treeRow(page, 'Contract Results', 'blob_gas_used').waitFor({ timeout: T });
    const rows = await treeRows(page, 'Contract Results');
    assert.equal(rows.find((r) => r.label === 'blob_gas_used')?.description, '9223372036854775807');
    assert.ok(
      !(await notifications(page)).some((n) => /BigInt/i.test(n)),
      'no "Do not know how to serialize a BigInt"',
    );
    await screenshot(page, 'hostile-bigint');
  });
  await viewAction(page, 'Contract Results', 'Refresh');
});

/** A consensus timestamp as the views show it: local time to the second (src/api/format.ts formatLocal). */
function localTime(ts) {
  const d = new Date(Number(ts.split('.')[0]) * 1000);
  const pad = (n) => String(n).padStart(2, '0');
  return `${d.getFullYear()}-${pad(d.getMonth() + 1)}-${pad(d.getDate())} ${pad(d.getHours())}:${pad(d.getMinutes())}:${pad(d.getSeconds())}`;
}

/** Hosts of the mirror requests the sandbox received under `prefix`. */
const hostsOf = async (ctx, prefix) =>
  (await sandbox(ctx, '/__sandbox/requests', undefined, 'GET'))
    .filter((r) => r.url.startsWith(prefix))
    .map((r) => r.host);

test('Hostile server: a next link to another host keeps the rows and says why paging stopped; nothing is sent there', async ({
  page,
  ctx,
}) => {
  await withHostile(ctx, ['paging-foreign'], async () => {
    await openView(page, 'Contract Results', /^\d{4}-/);
    await sandbox(ctx, '/__sandbox/requests', undefined, 'DELETE');
    await viewAction(page, 'Contract Results', 'Refresh');
    const stop = treeRow(page, 'Contract Results', /next-page link to http:\/\/localhost:\d+/);
    await stop.waitFor({ timeout: T });
    const rows = await treeRows(page, 'Contract Results');
    assert.equal(rows.filter((r) => r.level === 1 && /^\d{4}-/.test(r.label)).length, 25, 'the page is kept');
    // the last row says why paging stopped, as a warning (not an error row whose Retry would fail for ever)
    assert.match(rows.at(-1).label, /next-page link to http:\/\/localhost:\d+/);
    assert.equal(rows.at(-1).icon, 'codicon-warning');
    const host = new URL(ctx.sandboxUrl).host;
    // the Refresh's request (the view may show the rows of the previous load meanwhile)
    await until(
      page,
      async () => (await hostsOf(ctx, '/api/v1/contracts/results')).length >= 1,
      'the refresh reached the sandbox',
    );
    await stop.waitFor({ timeout: T });
    const hosts = await hostsOf(ctx, '/api/v1/contracts/results');
    assert.ok(hosts.length >= 1 && hosts.every((h) => h === host), hosts.join(', '));
    await screenshot(page, 'hostile-foreign-next');
  });
  await viewAction(page, 'Contract Results', 'Refresh');
});

test('Hostile server: an empty first page with a next link says more may follow; Load more brings the rows', async ({
  page,
  ctx,
}) => {
  await openView(page, 'Schedules', /^0\.0\.\d+/); // with its rows, before the server turns hostile
  await withHostile(ctx, ['paging-empty'], async () => {
    await viewAction(page, 'Schedules', 'Refresh');
    await treeRow(page, 'Schedules', 'The server returned an empty page; more may follow.').waitFor({ timeout: T });
    const rows = await treeRows(page, 'Schedules');
    assert.deepEqual(
      rows.map((r) => r.label),
      ['The server returned an empty page; more may follow.', 'Load more…'],
    );
    await treeRow(page, 'Schedules', 'Load more…').locator('.label-name').click();
    await until(
      page,
      async () => (await treeRows(page, 'Schedules')).some((r) => /^0\.0\.\d+/.test(r.label)),
      'the rows of the next page',
    );
  });
  await viewAction(page, 'Schedules', 'Refresh');
});

test('Hostile server: a redirect to another host is an error row naming it, and nothing reaches that host', async ({
  page,
  ctx,
}) => {
  await openView(page, 'Schedules', /^0\.0\.\d+/); // with its rows, before the server turns hostile
  await withHostile(ctx, ['redirect'], async () => {
    await sandbox(ctx, '/__sandbox/requests', undefined, 'DELETE');
    await viewAction(page, 'Schedules', 'Refresh');
    await until(
      page,
      async () =>
        (await treeRows(page, 'Schedules')).some((r) =>
          /redirected the request to localhost:\d+, another host/.test(r.label),
        ),
      'the redirect error row',
    );
    const rows = await treeRows(page, 'Schedules');
    assert.equal(rows[0].icon, 'codicon-error');
    assert.doesNotMatch(rows[0].label, /check the URL/i);
    const host = new URL(ctx.sandboxUrl).host;
    const hosts = await hostsOf(ctx, '/api/v1/schedules');
    assert.ok(hosts.length >= 1 && hosts.every((h) => h === host), hosts.join(', '));
    await screenshot(page, 'hostile-redirect');
  });
  await viewAction(page, 'Schedules', 'Refresh');
  await until(
    page,
    async () => (await treeRows(page, 'Schedules')).some((r) => /^0\.0\.\d+/.test(r.label)),
    'the rows again once the server behaves',
  );
});

test('Hostile server: contract names and paths in the Verification view show their reordering characters escaped', async ({
  page,
  ctx,
}) => {
  await withHostile(ctx, ['text'], async () => {
    await openContainer(page, 'Hedera');
    await runCommand(page, 'Hedera: Verify Contract');
    await quickPickItems(page);
    await page
      .locator('.quick-input-widget .quick-input-list .monaco-list-row', {
        has: page.locator('.label-name', { hasText: /^\s*Counter\s*$/ }),
      })
      .first()
      .click();
    await page
      .locator('.quick-input-widget .quick-input-title', { hasText: 'Explorer API Key' })
      .waitFor({ timeout: T });
    await page.locator('.quick-input-widget .quick-input-box input').fill('e2e-explorer-key');
    await page.keyboard.press('Enter');
    await soloView(page, 'Verification');
    const name = treeRow(page, 'Verification', 'Other<U+202E>los.exe<U+202C>');
    await name.waitFor({ timeout: T });
    const rows = await treeRows(page, 'Verification');
    for (const r of rows)
      assert.ok(
        !/[\u202a-\u202e\u2066-\u2069\u200b-\u200f\ufeff\u0000-\u0008]/.test(`${r.label}${r.description ?? ''}`),
        `raw invisible character in ${r.label} ${r.description}`,
      );
    assert.ok(
      rows.some(
        (r) => r.label === 'contracts/Other<U+202E>los.exe<U+202C>.sol' || r.label === 'contracts/Tok<U+200B>en.sol',
      ),
      rows.map((r) => r.label).join(' | '),
    );
    await page.mouse.move(1100, 600);
    await screenshot(page, 'hostile-verification');
  });
});

test('Hostile server: after a 409 "already verified", the Verification view says what the lookup says', async ({
  page,
  ctx,
}) => {
  await useSourcifyV2(page, ctx);
  const address = '0x100000000000000000000000000000000000000c';
  // not found by the first lookup, 409 on submit, and the lookup again holds it as a runtime-only match
  await sandbox(ctx, '/__sandbox/faults', { path: `/v2/contract/296/${address}`, times: 1, fault: { status: 404 } });
  try {
    await withHostile(ctx, ['sourcify'], async () => {
      await verifyCounterAt(page, address);
      await soloView(page, 'Verification');
      const row = treeRow(page, 'Verification', 'Creation / runtime match');
      await row.waitFor({ timeout: T });
      const rows = await treeRows(page, 'Verification');
      assert.match(rows.find((r) => r.label === 'Counter')?.description ?? '', /^match/);
      assert.equal(rows.find((r) => r.label === 'Creation / runtime match')?.description, 'none / match');
      assert.ok(!rows.some((r) => /exact match/.test(r.description ?? '')), 'no "exact match" the server did not say');
      await screenshot(page, 'hostile-409');
    });
  } finally {
    await sandbox(ctx, '/__sandbox/faults', undefined, 'DELETE');
  }
});

test('Hostile server: the NFT panel stops at a next link back to the page just loaded, with a banner, and never repeats rows', async ({
  page,
  ctx,
}) => {
  await withHostile(ctx, ['paging-self'], async () => {
    // the 12,345-entry history: without the loop check the panel would append the same page until its cap
    const frame = await openNftHistory(page, '0.0.4815162', '7');
    const banner = frame.locator('#stopped');
    await banner.waitFor({ state: 'visible', timeout: T });
    assert.match(await frame.locator('#stoppedText').innerText(), /leads back to a page already loaded/);
    // paging stopped: the banner says so and the grid is no longer busy (nothing more is asked for, so nothing appended)
    await frame.locator('#grid[aria-busy="false"]').waitFor({ state: 'attached', timeout: T });
    const rows = Number(await frame.locator('#grid').getAttribute('aria-rowcount')) - 1;
    assert.ok(rows > 0 && rows <= 100, `one page, not the same page again and again: ${rows} rows`);
    await screenshot(page, 'hostile-nft-loop');
  });
});
