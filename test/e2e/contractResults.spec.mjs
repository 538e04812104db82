// The Contract Results view as a person uses it in the browser workbench, against the sandbox: rows with success
// or failure, contract, gas and sender; a result's grouped details with its revert reason decoded; the filter quick
// pick (transaction index only offered with a block filter, big block numbers with every digit, cleared in one
// click); the context menu (filter by this contract, raw JSON); Follow (interval set in the Settings editor) showing
// new results at the top; a 429 shown as an error row that retries on click; a malformed answer that breaks this
// view only, while Schedules keeps its rows.
import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import {
  collapseRow,
  contextMenu,
  expandRow,
  openContainer,
  pickContextMenu,
  pickQuickPick,
  quickPickItems,
  runCommand,
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
  rateLimitRowThenRetry,
  sandbox,
} from './driver.mjs';
import { test } from './runner.mjs';

const T = 20000;
const VIEW = 'Contract Results';
// a result row's label: its time, then the called function when an ABI knows it ("… · transfer(…)")
const TIME = /^\d{4}-\d\d-\d\d \d\d:\d\d:\d\d( · \w+\((…)?\))?$/;

const notable = async (ctx) => (await sandbox(ctx, '/__sandbox/health', undefined, 'GET')).notable.contractResults;
/** What the mirror node itself answers (the view's first page: newest first, 25). */
const mirror = async (ctx, query) =>
  (await sandbox(ctx, `/api/v1/contracts/results?${query}`, undefined, 'GET')).results;
const formatInt = (n) => String(n).replace(/\B(?=(\d{3})+(?!\d))/g, ',');

/** The Hedera container with only Contract Results expanded (wide side bar), its rows shown, no filters left over. */
async function openResults(page) {
  await openContainer(page, 'Hedera');
  await soloView(page, VIEW);
  await treeRow(page, VIEW, TIME).waitFor({ timeout: T });
  const d = await viewDescription(page, VIEW);
  if (d.includes('following')) await viewAction(page, VIEW, 'Stop Following New Results');
  if (d.replace(/ · following$/, '') !== 'Sandbox') await viewAction(page, VIEW, 'Clear Filters');
  await waitForDescription(page, 'Sandbox');
  await page.mouse.move(1100, 600);
}

async function waitForDescription(page, text) {
  await until(
    page,
    async () => (await viewDescription(page, VIEW)) === text,
    `description "${text}" (is "${await viewDescription(page, VIEW)}")`,
  );
}

/** The detail rows under the row at `index` (deeper levels), as label → description. */
function detailsOf(rows, index) {
  const out = [];
  for (const r of rows.slice(index + 1)) {
    if (r.level <= rows[index].level) break;
    out.push(r);
  }
  return out;
}

test('Contract results: rows show success or failure, contract, gas and sender; a reverted result shows its groups and the decoded reason', async ({
  page,
  ctx,
}) => {
  const { newestRevert } = await notable(ctx);
  const [top, second, third] = await mirror(ctx, 'limit=3');
  assert.equal(
    top.timestamp,
    newestRevert,
    "the sandbox's newest result is the Error(string) revert (run this before new results are added)",
  );
  await openResults(page);
  const rows = (await treeRows(page, VIEW)).filter((r) => r.level === 1);
  assert.ok(rows.length >= 25, `a page of results: ${rows.length}`);
  const from = (r) => `from ${r.from.slice(0, 6)}…${r.from.slice(-4)}`;
  assert.match(rows[0].label, TIME);
  assert.equal(rows[0].icon, 'codicon-error');
  assert.equal(
    rows[0].description,
    `${top.contract_id} · CONTRACT_REVERT_EXECUTED · ${formatInt(top.gas_used)} gas · ${from(top)}`,
  );
  assert.equal(rows[1].icon, 'codicon-pass');
  assert.equal(rows[1].description, `${second.contract_id} · ${formatInt(second.gas_used)} gas · ${from(second)}`);
  assert.equal(rows[2].icon, 'codicon-error');
  assert.equal(
    rows[2].description,
    `${third.contract_id} · ${third.result} · ${formatInt(third.gas_used)} gas · ${from(third)}`,
  );
  assert.match(
    rows[0].ariaLabel,
    new RegExp(
      `^Contract result ${rows[0].label.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}, ${top.contract_id.replace(/\./g, '\\.')}, CONTRACT_REVERT_EXECUTED, `,
    ),
  );

  // expand the revert: four groups, Transaction open, the reason decoded from Error(string)
  const first = view(page, VIEW).locator('.pane-body .monaco-list-row[aria-level="1"]').first();
  await expandRow(page, VIEW, first);
  await treeRow(page, VIEW, 'Revert reason').waitFor({ timeout: T });
  let all = await treeRows(page, VIEW);
  const groups = all.filter((r) => r.level === 2).map((r) => r.label);
  assert.deepEqual(groups, ['Transaction', 'Gas and fees', 'EVM envelope', 'Data']);
  const tx = detailsOf(
    all,
    all.findIndex((r) => r.label === 'Transaction'),
  );
  const d = (label, list = tx) => list.find((r) => r.label === label)?.description;
  assert.equal(d('Revert reason'), 'ERC20: transfer amount exceeds balance');
  assert.equal(d('Result'), 'CONTRACT_REVERT_EXECUTED');
  assert.equal(d('Consensus timestamp'), newestRevert);
  assert.equal(d('Contract'), top.contract_id);
  assert.equal(d('Hash'), top.hash);
  assert.equal(d('Block number'), formatInt(top.block_number));
  await expandRow(page, VIEW, 'Revert reason');
  await treeRow(page, VIEW, 'Raw error').waitFor({ timeout: T });
  assert.match((await treeRows(page, VIEW)).find((r) => r.label === 'Raw error').description, /^0x08c379a0/);
  await collapseRow(page, VIEW, 'Revert reason');

  await expandRow(page, VIEW, 'Gas and fees');
  all = await treeRows(page, VIEW);
  const gas = detailsOf(
    all,
    all.findIndex((r) => r.label === 'Gas and fees'),
  );
  assert.equal(d('Gas used', gas), formatInt(top.gas_used));
  assert.equal(d('Gas limit', gas), formatInt(top.gas_limit));
  await collapseRow(page, VIEW, 'Gas and fees');
  await expandRow(page, VIEW, 'EVM envelope');
  all = await treeRows(page, VIEW);
  const envelope = detailsOf(
    all,
    all.findIndex((r) => r.label === 'EVM envelope'),
  );
  assert.ok(
    envelope.some((r) => r.label === 'Type') && envelope.some((r) => r.label === 'Nonce'),
    envelope.map((r) => r.label).join(' | '),
  );
  await collapseRow(page, VIEW, 'EVM envelope');
  await expandRow(page, VIEW, 'Data');
  all = await treeRows(page, VIEW);
  const data = detailsOf(
    all,
    all.findIndex((r) => r.label === 'Data'),
  );
  assert.deepEqual(
    data.map((r) => r.label),
    ['Function parameters', 'Call result', 'Bloom'],
  );
  const params = (top.function_parameters.length - 2) / 2;
  assert.match(
    d('Function parameters', data),
    new RegExp(`^${params} B · ${top.function_parameters.slice(0, 12)}…`),
    'hex with its size',
  );
  assert.equal(d('Bloom', data), `256 B · ${top.bloom.slice(0, 12)}…${top.bloom.slice(-10)}`);
  await screenshot(page, 'contract-results-view', { readme: true });
  await collapseRow(page, VIEW, first);
});

test('Contract results: the transaction-index filter waits for a block filter; a big block number keeps every digit; Clear Filters in one click', async ({
  page,
}) => {
  await openResults(page);
  const block = '9007199254740999';
  await viewAction(page, VIEW, 'Filter…');
  let fields = await quickPickItems(page);
  assert.deepEqual(
    fields.map((f) => f.label),
    [
      'Sender (from)',
      'Contract',
      'Block number',
      'Block hash',
      'Transaction index',
      'Internal results',
      'Time range',
      'Order',
      'Page size',
      'Clear all filters',
    ],
  );
  const index = () =>
    page.locator('.quick-input-widget .quick-input-list .monaco-list-row', { hasText: 'Transaction index' });
  assert.match(fields.find((f) => f.label === 'Transaction index').detail, /^Set a block number or block hash first/);
  assert.equal(await index().locator('.codicon-circle-slash').count(), 1, 'shown disabled');
  await screenshot(page, 'contract-results-filter-disabled-index');

  // a block number: refused while invalid, then accepted; now the transaction index is offered
  await pickQuickPick(page, 'Block number', { replaced: true });
  assert.match(await typeInQuickInput(page, '12x', { expect: /^"12x" is not a block number/ }), /block number/);
  assert.equal(await typeInQuickInput(page, block, { expect: '' }), '');
  await page.keyboard.press('Enter');
  fields = await quickPickItems(page);
  assert.equal(fields.find((f) => f.label === 'Block number').description, block);
  assert.doesNotMatch(await index().innerText(), /Set a block number/);
  assert.equal(await index().locator('.codicon-circle-slash').count(), 0);
  assert.equal(await index().locator('.codicon-filter').count(), 1, 'offered now');
  await pickQuickPick(page, 'Transaction index', { replaced: true });
  assert.match(await typeInQuickInput(page, '-1', { expect: /^"-1" is not a transaction index/ }), /transaction index/);
  assert.equal(await typeInQuickInput(page, '0', { expect: '' }), '');
  await page.keyboard.press('Enter');
  await quickPickItems(page);
  await page.keyboard.press('Escape');
  await page.locator('.quick-input-widget').waitFor({ state: 'hidden', timeout: T });
  await waitForDescription(page, `Sandbox · block.number=${block} · transaction.index=0`);
  await until(
    page,
    async () => (await treeRows(page, VIEW)).filter((r) => r.level === 1).length === 1,
    'the one result of that block',
  );
  const row = view(page, VIEW).locator('.pane-body .monaco-list-row[aria-level="1"]').first();
  await expandRow(page, VIEW, row);
  await treeRow(page, VIEW, 'Block number').waitFor({ timeout: T });
  const rows = await treeRows(page, VIEW);
  assert.equal(rows.find((r) => r.label === 'Block number').description, '9,007,199,254,740,999', 'every digit');
  assert.equal(rows.find((r) => r.label === 'Transaction index').description, '0');
  await screenshot(page, 'contract-results-block-filter');

  await viewAction(page, VIEW, 'Clear Filters');
  await waitForDescription(page, 'Sandbox');
  await until(
    page,
    async () => (await treeRows(page, VIEW)).filter((r) => r.level === 1).length > 10,
    'all results again',
  );
});

test('Contract results: the context menu filters by this contract and shows the raw JSON', async ({ page, ctx }) => {
  await openResults(page);
  const [top] = await mirror(ctx, 'limit=1');
  const first = view(page, VIEW).locator('.pane-body .monaco-list-row[aria-level="1"]').first();
  // the row decoded first: a label that changes while the menu is open re-renders the row and closes the menu
  await until(
    page,
    async () => /^\S+ \S+ · \w+\(/.test((await treeRows(page, VIEW))[0]?.label ?? ''),
    'the top row decoded',
  );
  const items = await contextMenu(page, VIEW, first);
  for (const i of [
    'Copy Transaction Hash',
    'Open Transaction in HashScan',
    'Open Contract in HashScan',
    'Show Raw JSON',
    'Filter by This Contract',
    'Filter by This Sender',
  ]) {
    assert.ok(items.includes(i), `${i} in ${items.join(' | ')}`);
  }
  await screenshot(page, 'contract-results-context-menu');
  await pickContextMenu(page, 'Filter by This Contract');
  await waitForDescription(page, `Sandbox · contract ${top.contract_id}`);
  await until(
    page,
    async () => {
      const rows = (await treeRows(page, VIEW)).filter((r) => r.level === 1);
      return (
        rows.length > 1 &&
        rows.every((r) => r.description.startsWith(`${top.contract_id} ·`) || r.label === 'Load more…')
      );
    },
    `only results of ${top.contract_id}`,
  );

  await contextMenu(page, VIEW, first);
  await pickContextMenu(page, 'Show Raw JSON');
  await page.locator('.tabs-container .tab.active', { hasText: /^contract-result-.*\.json/ }).waitFor({ timeout: T });
  const editor = page.locator('.editor-instance .monaco-editor').first();
  await editor.locator('.view-lines', { hasText: `"contract_id": "${top.contract_id}"` }).waitFor({ timeout: T });
  await viewAction(page, VIEW, 'Clear Filters');
  await waitForDescription(page, 'Sandbox');
});

// how soon new results show and how far apart the polls are (targets: within 8 s, gaps of 1.5 to 4 s with 2 s set)
// are figures of `npm run bench` (test/bench/follow.mjs)
test('Contract results: Follow (its interval set in the Settings editor) puts new results at the top', async ({
  page,
  ctx,
}) => {
  // the interval, as a user sets it
  await runCommand(page, 'Preferences: Open User Settings');
  const search = page.locator('.settings-editor .settings-header .suggest-input-container');
  await search.waitFor({ timeout: T });
  await search.click();
  await page.keyboard.type('hederaExplorer.contractResults.followSeconds');
  await page
    .locator('.settings-editor .settings-count-widget', { hasText: /^\s*1 Setting Found\s*$/ })
    .waitFor({ timeout: T });
  const item = page.locator('.settings-editor .setting-item-number', {
    has: page.locator('.setting-item-title', { hasText: 'Follow Seconds' }),
  });
  await until(
    page,
    async () =>
      (await page.locator('.settings-editor .setting-item-number').count()) === 1 && (await item.count()) === 1,
    'only the Follow Seconds setting listed',
  );
  const input = item.locator('input');
  await input.click();
  await page.keyboard.press('ControlOrMeta+A');
  await page.keyboard.type('2');
  const settingsFile = path.join(ctx.profile.userDataDir, 'User', 'settings.json');
  await until(
    page,
    () => /"hederaExplorer\.contractResults\.followSeconds":\s*2\b/.test(fs.readFileSync(settingsFile, 'utf8')),
    'the setting saved',
  );
  // the Settings editor opens as a modal: its close button
  await page.locator('.modal-editor-resizable .action-label[aria-label^="Close Modal Editor"]').click({ timeout: T });
  await page.locator('.settings-editor').waitFor({ state: 'hidden', timeout: T });

  await openResults(page);
  const before = (await treeRows(page, VIEW)).filter((r) => r.level === 1);
  await viewAction(page, VIEW, 'Follow New Results');
  await waitForDescription(page, 'Sandbox · following');
  await view(page, VIEW).locator('.pane-header').hover();
  await view(page, VIEW)
    .locator('.pane-header .actions .action-label[aria-label^="Stop Following New Results"]')
    .waitFor({ timeout: T });
  // let a first poll happen, then add results
  await until(
    page,
    async () =>
      (await sandbox(ctx, '/__sandbox/requests', undefined, 'GET')).some((r) =>
        decodeURIComponent(r.url).includes('timestamp=gt:'),
      ),
    'a first follow poll',
  );
  const { added } = await sandbox(ctx, '/__sandbox/contracts/results', { count: 3 });
  const newest = [...added].reverse();
  await until(
    page,
    async () => {
      const rows = (await treeRows(page, VIEW)).filter((r) => r.level === 1);
      return (
        rows.length && rows[0].description.startsWith(`${newest[0].contract_id} ·`) && rows[0].label > before[0].label
      );
    },
    'the new results on top',
  );
  const rows = (await treeRows(page, VIEW)).filter((r) => r.level === 1);
  for (let i = 0; i < 3; i++) {
    assert.ok(rows[i].description.startsWith(`${newest[i].contract_id} ·`), `row ${i}: ${rows[i].description}`);
    assert.ok(rows[i].label > before[0].label, `row ${i} is newer: ${rows[i].label}`);
  }
  // by its time and contract: the function's name may have been decoded since `before` was read
  const key = (r) => [r.label.split(' · ')[0], r.description.split(' · ')[0]].join(' | ');
  assert.equal(key(rows[3]), key(before[0]), 'the former top result comes next');
  await screenshot(page, 'contract-results-follow');

  await viewAction(page, VIEW, 'Stop Following New Results');
  await waitForDescription(page, 'Sandbox');
});

test("Contract results: a 429 after Refresh is an error row with the server's message; clicking it retries", async ({
  page,
  ctx,
}) => {
  await openResults(page);
  await rateLimitRowThenRetry(page, ctx, {
    viewName: VIEW,
    apiPath: '/api/v1/contracts/results',
    okRow: TIME,
    shot: 'contract-results-429',
  });
});

test('Contract results: a malformed answer is an error row in this view only; Schedules keeps its rows', async ({
  page,
  ctx,
}) => {
  await openResults(page);
  await soloView(page); // every view open again
  await treeRow(page, 'Schedules', /^0\.0\.\d+( · .+)?$/).waitFor({ timeout: T }); // the id, then the decoded transaction
  await sandbox(ctx, '/__sandbox/faults', {
    path: '/api/v1/contracts/results',
    times: 1,
    fault: { body: 'malformed' },
  });
  try {
    await viewAction(page, VIEW, 'Refresh');
    const error = treeRow(page, VIEW, /sent an answer that could not be read/);
    const seen = async () =>
      `rows: ${(await treeRows(page, VIEW))
        .map((r) => r.label)
        .slice(0, 3)
        .join(
          ' | ',
        )}; requests: ${(await sandbox(ctx, '/__sandbox/requests', undefined, 'GET')).map((r) => r.url).filter((u) => u.startsWith('/api/v1/contracts')).length}`;
    await until(page, () => error.isVisible(), 'the error row').catch(async (e) => {
      throw new Error(`${e.message} (${await seen()})`);
    });
    assert.match(
      (await treeRows(page, VIEW))[0].label,
      /^127\.0\.0\.1:\d+ sent an answer that could not be read \(not valid JSON, perhaps cut short\)\.$/,
    );
    // the other view still works: refreshed, it shows its rows
    await sandbox(ctx, '/__sandbox/requests', undefined, 'DELETE');
    await viewAction(page, 'Schedules', 'Refresh');
    await until(
      page,
      async () =>
        (await sandbox(ctx, '/__sandbox/requests', undefined, 'GET')).some((r) =>
          r.url.startsWith('/api/v1/schedules'),
        ),
      'Schedules asked again',
    );
    await waitForViewIdle(page, 'Schedules');
    await until(page, () => treeRow(page, 'Schedules', /^0\.0\.5104897( · .+)?$/).isVisible(), 'the Schedules rows') // the id, then maybe the decoded transaction
      .catch(async (e) => {
        throw new Error(
          `${e.message} (${(await treeRows(page, 'Schedules'))
            .map((r) => r.label)
            .slice(0, 3)
            .join(' | ')})`,
        );
      });
    assert.ok((await treeRows(page, 'Schedules')).filter((r) => /^0\.0\.\d+( · .+)?$/.test(r.label)).length > 3);
    await page.mouse.move(1100, 600);
    await screenshot(page, 'contract-results-malformed');
    await error.locator('.label-name').click();
    await until(page, () => treeRow(page, VIEW, TIME).isVisible(), 'rows again after clicking the error row').catch(
      async (e) => {
        throw new Error(`${e.message} (${await seen()})`);
      },
    );
  } finally {
    await sandbox(ctx, '/__sandbox/faults', undefined, 'DELETE');
  }
});
