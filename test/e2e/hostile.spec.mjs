// The extension in the browser workbench against a server that misbehaves on purpose (the sandbox's hostile mode,
// src/sandbox/README.md): what a person sees. Server text in a notification is never a live link (clicking it
// opens no terminal), reordering and invisible characters in memos are shown escaped, a paging loop stops with a
// notice and no repeated rows, and big integers in unknown fields are shown with every digit.
import assert from 'node:assert/strict';
import {
  expandRow, notifications, openContainer, pickQuickPick, quickPickItems, runCommand, sandbox, screenshot, soloView, treeRow, treeRows,
  typeInQuickInput, until, view, viewAction, viewDescription,
} from './driver.mjs';
import { test } from './runner.mjs';
import fs from 'node:fs';
import path from 'node:path';

const T = 20000;

async function withHostile(ctx, families, fn) {
  await sandbox(ctx, '/__sandbox/hostile', { families });
  try { return await fn(); } finally { await sandbox(ctx, '/__sandbox/hostile', undefined, 'DELETE'); }
}

async function openView(page, name, firstRow) {
  await openContainer(page, 'Hedera');
  await soloView(page, name);
  await treeRow(page, name, firstRow).waitFor({ timeout: T });
  if (!/^Sandbox/.test(await viewDescription(page, name))) await viewAction(page, name, 'Clear Filters');
  await page.mouse.move(1100, 600);
}

test('Hostile server: a Sourcify job error with a command link is plain text in the notification; nothing runs', async ({ page, ctx }) => {
  // Sourcify API v2 for this test (the workspace settings file is watched; the runner puts it back afterwards)
  const settingsFile = path.join(ctx.workspace, '.vscode', 'settings.json');
  const original = fs.readFileSync(settingsFile, 'utf8');
  fs.writeFileSync(settingsFile, JSON.stringify({ ...JSON.parse(original || '{}'), 'hederaExplorer.verify.api': 'sourcify-v2' }, null, 2));
  await page.waitForTimeout(1500);
  await withHostile(ctx, ['sourcify'], async () => {
    await openContainer(page, 'Hedera');
    await runCommand(page, 'Hedera: Verify Contract');
    await quickPickItems(page);
    await page.locator('.quick-input-widget .quick-input-list .monaco-list-row', { hasText: 'Enter an address or entity id…' }).first().click();
    await page.locator('.quick-input-widget .quick-input-title', { hasText: 'Contract to verify on Sandbox (chain 296)' }).waitFor();
    assert.equal(await typeInQuickInput(page, '0x1000000000000000000000000000000000000005'), '');
    await page.keyboard.press('Enter');
    // which workspace contract: Counter
    await until(page, async () => (await quickPickItems(page)).some((i) => i.label === 'Counter'), 'the contract pick');
    await pickQuickPick(page, 'Counter');
    const toast = page.locator('.notifications-toasts .notification-toast', { hasText: 'Sourcify could not verify' }).first();
    await toast.waitFor({ timeout: 40000 });
    const text = await toast.locator('.notification-list-item-message').innerText();
    assert.match(text, /\[Open a terminal\] \(command:workbench\.action\.terminal\.new\)/, text);
    assert.equal(await toast.locator('.notification-list-item-message a').count(), 0, 'no link in the message');
    await screenshot(page, 'hostile-notification');
    // clicking where the link would be does nothing: no terminal opens
    await toast.locator('.notification-list-item-message').click();
    await page.waitForTimeout(1000);
    assert.equal(await page.locator('.terminal-wrapper, .xterm').count(), 0, 'no terminal was opened');
    assert.ok((await notifications(page)).some((n) => n.includes('Sourcify could not verify')));
  });
});

test('Hostile server: reordering and invisible characters in memos are shown escaped in the rows', async ({ page, ctx }) => {
  await withHostile(ctx, ['text'], async () => {
    await openView(page, 'Schedules', /^0\.0\.\d+/);
    await viewAction(page, 'Schedules', 'Refresh');
    await until(page, async () => /Other<U\+202E>los\.exe<U\+202C>/.test((await treeRows(page, 'Schedules')).find((r) => r.label.startsWith('0.0.5117998'))?.description ?? ''), 'the spoofing memo shown escaped');
    const rows = await treeRows(page, 'Schedules');
    for (const r of rows) assert.ok(!/[\u202a-\u202e\u2066-\u2069\u200b-\u200f\ufeff]/.test(`${r.label}${r.description}`), `raw invisible character in ${r.label}`);
    await screenshot(page, 'hostile-memos');
  });
  await viewAction(page, 'Schedules', 'Refresh');
});

test('Hostile server: a next link back to the page just loaded stops paging with a notice, no row twice', async ({ page, ctx }) => {
  await withHostile(ctx, ['paging-self'], async () => {
    await openView(page, 'Contract Results', /^\d{4}-/);
    await viewAction(page, 'Contract Results', 'Refresh');
    // the first page's next link is that page itself: paging stops at once (no Load more to click for ever)
    const stop = treeRow(page, 'Contract Results', /leads back to a page already loaded/);
    await stop.waitFor({ timeout: T });
    const rows = (await treeRows(page, 'Contract Results')).filter((r) => r.level === 1 && /^\d{4}-/.test(r.label));
    assert.equal(rows.length, 25, 'the first page only, nothing appended twice');
    assert.equal(await view(page, 'Contract Results').locator('.monaco-list-row', { hasText: 'Load more' }).count(), 0);
    await screenshot(page, 'hostile-paging-loop');
  });
  await viewAction(page, 'Contract Results', 'Refresh');
});

test('Hostile server: big integers in unknown fields are shown with every digit', async ({ page, ctx }) => {
  await withHostile(ctx, ['bigint'], async () => {
    await openView(page, 'Contract Results', /^\d{4}-/);
    await viewAction(page, 'Contract Results', 'Refresh');
    await page.waitForTimeout(500);
    const first = view(page, 'Contract Results').locator('.pane-body .monaco-list-row[aria-level="1"]').first();
    await first.waitFor({ timeout: T });
    await expandRow(page, 'Contract Results', first);
    const other = treeRow(page, 'Contract Results', 'Other fields');
    await other.waitFor({ timeout: T });
    await expandRow(page, 'Contract Results', other);
    await treeRow(page, 'Contract Results', 'blob_gas_used').waitFor({ timeout: T });
    const rows = await treeRows(page, 'Contract Results');
    assert.equal(rows.find((r) => r.label === 'blob_gas_used')?.description, '9223372036854775807');
    assert.ok(!(await notifications(page)).some((n) => /BigInt/i.test(n)), 'no "Do not know how to serialize a BigInt"');
    await screenshot(page, 'hostile-bigint');
  });
  await viewAction(page, 'Contract Results', 'Refresh');
});
