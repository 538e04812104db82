// The Schedules view as a person uses it in the browser workbench, against the sandbox: rows with state icon and
// label, memo and creator; details of a schedule; the filter quick pick from the title bar (validation as typed,
// a creator filter shown in the view's description, cleared in one click); "Load more"; "Open Schedule by Id"
// (pinned, and the message for an unknown id); the context menu (copy id, HashScan, raw JSON in a read-only
// editor); the keyboard; a 429 shown as an error row that retries on click.
import assert from 'node:assert/strict';
import {
  collapseRow,
  contextMenu,
  expandRow,
  focusedRow,
  notifications,
  openContainer,
  pickContextMenu,
  pickQuickPick,
  quickPickItems,
  runCommand,
  screenshot,
  scrollTree,
  soloView,
  treeRow,
  treeRows,
  typeInQuickInput,
  until,
  view,
  viewAction,
  viewDescription,
  pressInList,
  rateLimitRowThenRetry,
  sandbox,
} from './driver.mjs';
import { test } from './runner.mjs';

const T = 20000;
const VIEW = 'Schedules';
// a schedule row's label: its id, then the decoded transaction ("0.0.5104897 · 0.0.2061517 → 0.0.4001771 10 ℏ")
const ID = /^0\.0\.\d+( · .+)?$/;
const idOf = (label) => label.split(' · ')[0];
const byId = (id) => new RegExp(`^\\s*${id.replace(/\./g, '\\.')}( · .*)?\\s*$`);

const notable = async (ctx) => (await sandbox(ctx, '/__sandbox/health', undefined, 'GET')).notable.schedules;
/** Paths of the mirror node requests the sandbox received (control routes are never recorded). */
const mirrorRequests = async (ctx, prefix) =>
  (await sandbox(ctx, '/__sandbox/requests', undefined, 'GET'))
    .map((r) => decodeURIComponent(r.url))
    .filter((u) => u.startsWith(prefix));

/** The Hedera container with only Schedules expanded (wide side bar), its first page shown, no filters left over. */
async function openSchedules(page) {
  await openContainer(page, 'Hedera');
  await soloView(page, VIEW);
  await treeRow(page, VIEW, ID).waitFor({ timeout: T });
  if ((await viewDescription(page, VIEW)) !== 'Sandbox') {
    await viewAction(page, VIEW, 'Clear Filters');
    await waitForDescription(page, 'Sandbox');
  }
  // the rows are redrawn as their bodies are decoded and the workspace's ABIs arrive: acted on once that is over
  // (every row has its body's summary, a contract call its function's name rather than the selector)
  await until(
    page,
    async () =>
      (await treeRows(page, VIEW))
        .filter((r) => r.level === 1 && /^0\.0\.\d+/.test(r.label))
        .every((r) => r.label.includes(' · ') && !/ · Contract call 0\.0\.\d+ 0x[0-9a-f]{8}$/.test(r.label)),
    'every schedule row decoded',
  );
  await page.mouse.move(1100, 600); // no hover over the rows
}

async function waitForDescription(page, text) {
  const d = view(page, VIEW).locator('.pane-header .description', {
    hasText: new RegExp(`^\\s*${text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}\\s*$`),
  });
  await d.first().waitFor({ timeout: T });
}

const rowByLabel = (rows, id) => rows.find((r) => idOf(r.label) === id);

test('Schedules: rows show id, state icon and label, memo and creator; expanding shows every detail', async ({
  page,
  ctx,
}) => {
  const ids = await notable(ctx);
  await openSchedules(page);
  const rows = await treeRows(page, VIEW);
  const expect = {
    [ids.executed]: ['codicon-pass', 'executed'],
    [ids.deleted]: ['codicon-trash', 'deleted'],
    [ids.expired]: ['codicon-history', 'expired'],
    [ids.pending]: ['codicon-clock', 'pending'],
  };
  for (const [id, [icon, state]] of Object.entries(expect)) {
    const r = rowByLabel(rows, id);
    assert.ok(r, `row ${id} in ${rows.map((x) => x.label).join(' | ')}`);
    assert.equal(r.icon, icon, `icon of ${id}`);
    assert.match(r.description, new RegExp(`^${state} · .+ · by 0\\.0\\.\\d+$`), `description of ${id}`);
    assert.match(r.ariaLabel, new RegExp(`^Schedule ${id.replace(/\./g, '\\.')}, ${state}`));
  }
  assert.equal(rowByLabel(rows, ids.executed).description, 'executed · Quarterly treasury payout · by 0.0.2061517');
  assert.equal(
    rowByLabel(rows, ids.htmlMemo).description,
    'expired · <img src=x onerror=alert(1)> · by 0.0.3404044',
    'HTML-looking memo shown as text',
  );
  assert.equal(await page.locator('.part.sidebar img[src="x"]').count(), 0, 'no element from a memo');

  // expand the executed schedule: payer, creator, times, admin key, signatures, transaction body
  const schedule = await expandRow(page, VIEW, byId(ids.executed));
  await treeRow(page, VIEW, 'Transaction body').waitFor({ timeout: T });
  await expandRow(page, VIEW, 'Admin key');
  await expandRow(page, VIEW, 'Signatures');
  await treeRow(page, VIEW, 'RSA_3072').waitFor({ timeout: T });
  const all = await treeRows(page, VIEW);
  const start = all.findIndex((r) => idOf(r.label) === ids.executed);
  const details = [];
  for (const r of all.slice(start + 1)) {
    if (r.level <= 1) break;
    details.push(r);
  }
  const d = (label) => details.find((r) => r.label === label)?.description;
  assert.deepEqual(
    details.filter((r) => r.level === 2).map((r) => r.label),
    [
      'State',
      'Memo',
      'Payer',
      'Creator',
      'Created',
      'Executed',
      'Expires',
      'Wait for expiry',
      'Admin key',
      'Signatures',
      'Scheduled transaction',
      'Transaction body',
    ],
  );
  assert.equal(d('State'), 'executed');
  assert.equal(d('Memo'), 'Quarterly treasury payout');
  assert.equal(d('Payer'), '0.0.2061517');
  assert.equal(d('Creator'), '0.0.2061517');
  assert.match(d('Created'), /^2026-\d\d-\d\d \d\d:\d\d:\d\d · .+ ago$/);
  assert.match(d('Executed'), /^2026-\d\d-\d\d \d\d:\d\d:\d\d · .+ ago$/);
  assert.equal(d('Expires'), 'no expiration time set');
  assert.equal(d('Wait for expiry'), 'no');
  assert.equal(d('Admin key'), 'ED25519 d87dcbe14dbc55642240168706e3c335466debf04ce6e039b47ee5db61a1a3a5');
  assert.equal(d('Type'), 'ED25519');
  assert.equal(d('Key'), 'd87dcbe14dbc55642240168706e3c335466debf04ce6e039b47ee5db61a1a3a5');
  assert.equal(d('Signatures'), '4');
  const sigs = details.filter(
    (r) => r.level === 3 && ['ED25519', 'ECDSA_SECP256K1', 'CONTRACT', 'RSA_3072'].includes(r.label),
  );
  assert.deepEqual(
    sigs.map((r) => r.label),
    ['ED25519', 'ECDSA_SECP256K1', 'CONTRACT', 'RSA_3072'],
  );
  const prefix = Buffer.from('/K2jP7NDJSF+2CLzUDgSSzh9BlEK/PjLwRBvV9ru9wQ=', 'base64').toString('hex');
  assert.match(
    sigs[0].description,
    new RegExp(`^0x${prefix} · 2026-\\d\\d-\\d\\d \\d\\d:\\d\\d:\\d\\d$`),
    'type, public key prefix, time',
  );
  assert.equal(d('Transaction body'), '43 bytes · CIDKte4BSiMKIQoOCgQYzel9EP+7ndyprwIKDwoFGMDW+wEQgLyd3KmvAg==');
  assert.equal(await schedule.getAttribute('aria-expanded'), 'true');

  // the raw consensus time is in the Created row's hover
  await treeRow(page, VIEW, 'Created').locator('.label-name').hover();
  const hover = page.locator('.monaco-hover, .workbench-hover', { hasText: '1789690907.696711607' }).first();
  await hover.waitFor({ timeout: T });
  await page.mouse.move(1100, 600);
  await hover.waitFor({ state: 'hidden', timeout: T });
  await screenshot(page, 'schedules-view', { readme: true });
  await collapseRow(page, VIEW, byId(ids.executed));
});

test('Schedules: the filter action validates as typed, filters by creator (shown in the description), Clear Filters undoes it in one click', async ({
  page,
  ctx,
}) => {
  await openSchedules(page);
  const creator = '0.0.4800012';
  await sandbox(ctx, '/__sandbox/requests', undefined, 'DELETE');

  // an invalid creator: the input says why, and nothing is requested or changed
  await viewAction(page, VIEW, 'Filter…');
  const fields = await quickPickItems(page);
  assert.deepEqual(
    fields.map((f) => f.label),
    ['Creator account id', 'Schedule id', 'Order', 'Page size', 'Clear all filters'],
  );
  assert.equal(fields[0].description, '(any)');
  await pickQuickPick(page, 'Creator account id', { replaced: true }); // the field's input box
  const message = await typeInQuickInput(page, '0.0.abc', { expect: /^"0\.0\.abc" is not an account id/ });
  assert.match(message, /use the form shard\.realm\.num/);
  await screenshot(page, 'schedules-filter-invalid');
  await page.keyboard.press('Enter'); // refused while invalid
  assert.match(await typeInQuickInput(page, 'gte:0.0.x', { expect: /^"0\.0\.x" is not an account id/ }), /account id/);
  await page.keyboard.press('Escape'); // back to the list of fields
  await quickPickItems(page);
  await page.keyboard.press('Escape');
  await page.locator('.quick-input-widget').waitFor({ state: 'hidden', timeout: T });
  assert.equal(await viewDescription(page, VIEW), 'Sandbox');
  assert.deepEqual(
    (await mirrorRequests(ctx, '/api/v1/schedules')).filter((u) => u.includes('account.id')),
    [],
    'nothing requested for an invalid filter',
  );

  // a valid creator: the rows are filtered, the description says so
  await viewAction(page, VIEW, 'Filter…');
  await pickQuickPick(page, 'Creator account id', { replaced: true });
  assert.equal(await typeInQuickInput(page, creator, { expect: '' }), '');
  await page.keyboard.press('Enter');
  const again = await quickPickItems(page); // the fields again, with the new value
  assert.equal(again[0].description, creator);
  await page.keyboard.press('Escape');
  await waitForDescription(page, `Sandbox · account.id=${creator}`);
  await page.waitForFunction(
    ([c]) => {
      const rows = [...document.querySelectorAll('.part.sidebar .pane .monaco-list-row .label-description')].map(
        (e) => e.textContent,
      );
      return rows.length > 3 && rows.every((t) => t.endsWith(`by ${c}`) || /loaded/.test(t));
    },
    [creator],
    { timeout: T },
  );
  const filtered = (await treeRows(page, VIEW)).filter((r) => ID.test(r.label));
  assert.ok(
    filtered.length > 3 && filtered.every((r) => r.description.endsWith(`by ${creator}`)),
    filtered.map((r) => r.description).join(' | '),
  );
  assert.ok((await mirrorRequests(ctx, '/api/v1/schedules')).some((u) => u.includes(`account.id=${creator}`)));
  await screenshot(page, 'schedules-filtered');

  // one click on Clear Filters
  await viewAction(page, VIEW, 'Clear Filters');
  await waitForDescription(page, 'Sandbox');
  await treeRow(page, VIEW, byId('0.0.5104897')).waitFor({ timeout: T });
  const creators = new Set(
    (await treeRows(page, VIEW)).filter((r) => ID.test(r.label)).map((r) => r.description.split(' by ').at(-1)),
  );
  assert.ok(creators.size > 1, `several creators again: ${[...creators]}`);
  await view(page, VIEW).locator('.pane-header').hover();
  assert.equal(
    await view(page, VIEW).locator('.pane-header .actions .action-label[aria-label^="Clear Filters"]').count(),
    0,
    'Clear Filters only while filtered',
  );
});

test('Schedules: clicking "Load more" appends the next page', async ({ page }) => {
  await openSchedules(page);
  const more = treeRow(page, VIEW, 'Load more…');
  await scrollTree(page, VIEW, 'bottom', more);
  assert.equal((await more.locator('.label-description').innerText()).trim(), '25 loaded');
  const first = (await treeRows(page, VIEW)).filter((r) => ID.test(r.label)).map((r) => idOf(r.label));
  await more.locator('.label-name').click();
  await scrollTree(
    page,
    VIEW,
    'bottom',
    view(page, VIEW).locator('.monaco-list-row .label-description', { hasText: /^\s*50 loaded\s*$/ }),
  );
  const after = (await treeRows(page, VIEW)).filter((r) => ID.test(r.label)).map((r) => idOf(r.label));
  const num = (id) => Number(id.split('.')[2]);
  assert.ok(num(after.at(-1)) > num(first.at(-1)), `rows after ${first.at(-1)}: ${after.join(' ')}`);
  assert.deepEqual(
    after,
    [...after].sort((a, b) => num(a) - num(b)),
    'ascending across the pages',
  );
  await screenshot(page, 'schedules-load-more');
});

test.fresh(); // the pinned schedule stays until the network changes: no later test sees it
test('Schedules: "Open Schedule by Id" pins the schedule; an unknown id says there is none', async ({ page, ctx }) => {
  const ids = await notable(ctx);
  await openSchedules(page);
  await runCommand(page, 'Hedera Schedules: Open Schedule by Id…');
  assert.match(await typeInQuickInput(page, 'five', { expect: /^"five" is not a schedule id/ }), /schedule id/);
  assert.equal(await typeInQuickInput(page, ids.pending, { expect: '' }), '');
  await page.keyboard.press('Enter');
  await view(page, VIEW)
    .locator('.pane-body .monaco-list-row')
    .first()
    .locator('.codicon-pinned')
    .waitFor({ timeout: T });
  await treeRow(page, VIEW, 'Transaction body').waitFor({ timeout: T });
  const rows = await treeRows(page, VIEW);
  assert.equal(idOf(rows[0].label), ids.pending);
  assert.equal(rows[0].icon, 'codicon-pinned');
  assert.equal(rows[0].expanded, true, 'the pinned schedule opens expanded');
  assert.match(rows[0].description, /^pending · /);
  assert.equal(rows[1].label, 'State');
  assert.equal(rows[1].description, 'pending');
  const admin = rows.slice(1).find((r) => r.label === 'Admin key');
  assert.equal(admin?.description, 'none (the schedule cannot be deleted)');
  assert.equal(rows.slice(1).find((r) => r.label === 'Signatures')?.description, '0');
  await screenshot(page, 'schedules-open-by-id');

  await runCommand(page, 'Hedera Schedules: Open Schedule by Id…');
  assert.equal(await typeInQuickInput(page, '0.0.999999999', { expect: '' }), '');
  await page.keyboard.press('Enter');
  const toast = page.locator('.notifications-toasts .notification-toast', {
    hasText: 'No schedule 0.0.999999999 on Sandbox.',
  });
  await toast.waitFor({ timeout: T });
  await until(
    page,
    async () => (await toast.evaluate((e) => getComputedStyle(e).opacity)) === '1',
    'the toast faded in',
  );
  assert.ok((await notifications(page)).some((n) => n.includes('No schedule 0.0.999999999 on Sandbox.')));
  await screenshot(page, 'schedules-open-unknown');
});

test('Schedules: the context menu copies the id, opens HashScan and shows the raw JSON read-only', async ({
  page,
  ctx,
}) => {
  const ids = await notable(ctx);
  await page.context().grantPermissions(['clipboard-read', 'clipboard-write']);
  await openSchedules(page);
  const items = await contextMenu(page, VIEW, byId(ids.executed));
  for (const i of ['Copy Schedule Id', 'Open in HashScan', 'Show Raw JSON'])
    assert.ok(items.includes(i), `${i} in ${items.join(' | ')}`);
  await screenshot(page, 'schedules-context-menu');

  await pickContextMenu(page, 'Copy Schedule Id');
  await page.waitForFunction(async (id) => (await navigator.clipboard.readText()) === id, ids.executed, {
    timeout: T,
    polling: 250,
  });

  await contextMenu(page, VIEW, byId(ids.executed));
  const popup = page.context().waitForEvent('page', { timeout: T });
  await pickContextMenu(page, 'Open in HashScan');
  // a local address opens at once; VS Code asks first for any other (then: Open)
  const dialog = page.locator('.monaco-dialog-box');
  const opened = await Promise.race([popup, dialog.waitFor({ timeout: T }).then(() => undefined)]);
  if (!opened) await dialog.locator('.monaco-button', { hasText: /^\s*Open\s*$/ }).click();
  const tab = opened ?? (await popup);
  await tab.waitForLoadState();
  assert.match(tab.url(), new RegExp(`/hashscan/.*schedule/${ids.executed.replace(/\./g, '\\.')}$`));
  assert.match(await tab.locator('body').innerText(), /Sandbox explorer: \/hashscan\/.*schedule\/0\.0\.5104897/);
  await tab.close();

  await contextMenu(page, VIEW, byId(ids.executed));
  await pickContextMenu(page, 'Show Raw JSON');
  const tabTitle = page.locator('.tabs-container .tab.active', { hasText: `schedule-${ids.executed}.json` });
  await tabTitle.waitFor({ timeout: T });
  const editor = page.locator('.editor-instance .monaco-editor').first();
  await editor.locator('.view-lines', { hasText: `"schedule_id": "${ids.executed}"` }).waitFor({ timeout: T });
  const text = async () => (await editor.locator('.view-lines').innerText()).replace(/\u00a0/g, ' ');
  const before = await text();
  assert.ok(before.includes('"memo": "Quarterly treasury payout"'), before);
  // typing is refused: a read-only editor
  await editor.locator('.view-lines').click();
  await page.keyboard.type('xyz');
  await page
    .locator('.monaco-editor-overlaymessage, .monaco-editor .message', { hasText: /read-only/i })
    .first()
    .waitFor({ timeout: T });
  assert.equal(await text(), before, 'the raw JSON is unchanged');
  await page.mouse.move(1100, 850);
  await screenshot(page, 'schedules-raw-json');
});

test('Schedules: the tree works from the keyboard (arrows, Right/Left, Enter on "Load more")', async ({ page }) => {
  await openSchedules(page);
  await runCommand(page, 'Hedera: Focus on Schedules View');
  // schedule rows are matched by their id (the label goes on with the decoded transaction)
  const focusIs = async (label) =>
    until(
      page,
      async () => {
        const f = await focusedRow(page, VIEW);
        return f === label || (/^0\.0\.\d+$/.test(label) && idOf(f) === label);
      },
      `focus on ${label} (is on ${await focusedRow(page, VIEW)})`,
    );
  const focusedExpanded = async () =>
    view(page, VIEW).locator('.pane-body .monaco-list-row.focused').getAttribute('aria-expanded');
  await page.keyboard.press('Home');
  await focusIs('0.0.5104897');
  await page.keyboard.press('ArrowDown');
  await focusIs('0.0.5106802');
  assert.equal(await focusedExpanded(), 'false');
  await pressInList(page, 'ArrowRight', async () => (await focusedExpanded()) === 'true', 'expanded by ArrowRight'); // expands
  await treeRow(page, VIEW, 'State').waitFor({ timeout: T }); // the details arrive asynchronously
  await page.keyboard.press('ArrowDown'); // into the details
  await focusIs('State');
  assert.equal((await treeRows(page, VIEW)).find((r) => r.label === 'State')?.description, 'deleted');
  await page.keyboard.press('ArrowDown');
  await focusIs('Memo');
  await page.keyboard.press('ArrowLeft'); // to the parent
  await focusIs('0.0.5106802');
  await pressInList(page, 'ArrowLeft', async () => (await focusedExpanded()) === 'false', 'collapsed by ArrowLeft'); // collapses
  await pressInList(page, 'Enter', async () => (await focusedExpanded()) === 'true', 'expanded by Enter'); // Enter toggles a schedule too
  await page.keyboard.press('ArrowLeft');
  await page.keyboard.press('End');
  await focusIs('Load more…');
  await page.keyboard.press('Enter'); // runs the row's command
  await scrollTree(
    page,
    VIEW,
    'bottom',
    view(page, VIEW).locator('.monaco-list-row .label-description', { hasText: /^\s*50 loaded\s*$/ }),
  );
  await screenshot(page, 'schedules-keyboard');
});

test("Schedules: a 429 after Refresh is an error row with the server's message; clicking it retries", async ({
  page,
  ctx,
}) => {
  await openSchedules(page);
  await rateLimitRowThenRetry(page, ctx, {
    viewName: VIEW,
    apiPath: '/api/v1/schedules',
    okRow: byId('0.0.5104897'),
    shot: 'schedules-error',
  });
});
