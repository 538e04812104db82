// Debug Transaction in the real browser (the packaged extension in code-server, driven by Chromium), against the
// sandbox's revert two internal calls deep (GET /__sandbox/health -> notable.inspector.inspectorInternalRevert): a
// breakpoint set in Vault.sol with F9, the session started from the palette with the transaction id typed, the stop
// at the breakpoint with its call stack (Vault._debit ← Vault._move ← Vault.move) and Variables, Step Over onto the
// require, Continue to the revert (the exception widget), Step Back to the breakpoint's line. Screenshots debug-*.png.
import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import { closeEditors, extensionReady, openFile, runCommand, sandbox, screenshot, until } from './driver.mjs';
import { test } from './runner.mjs';

const T = 20000;
const VAULT = path.join('contracts', 'inspector', 'Vault.sol');

/** The 1-based line of the workspace's Vault.sol that holds `needle` (exactly one). */
function lineOf(ctx, needle) {
  const lines = fs.readFileSync(path.join(ctx.workspace, VAULT), 'utf8').split('\n');
  const hits = lines.map((l, i) => (l.includes(needle) ? i + 1 : 0)).filter(Boolean);
  assert.equal(hits.length, 1, needle);
  return hits[0];
}

/** The Call Stack view's frames: each row's function, file and `line:column`. */
async function callStack(page) {
  return page.locator('.debug-call-stack .monaco-list-row .stack-frame').evaluateAll((els) =>
    els.map((e) => ({
      name: (e.querySelector('.label')?.textContent ?? '').trim(),
      file: (e.querySelector('.file-name')?.textContent ?? '').trim(),
      line: (e.querySelector('.line-number')?.textContent ?? '').trim(),
    })),
  );
}

/** Waits until the top frame of the Call Stack is `name` on `line` of Vault.sol. */
async function stoppedAt(page, name, line, what) {
  let seen = [];
  await until(
    page,
    async () => {
      seen = await callStack(page);
      const top = seen[0];
      return !!top && top.name === name && top.file === 'Vault.sol' && top.line.startsWith(`${line}:`);
    },
    () => `${what}: the top frame ${name} on line ${line} (the Call Stack shows ${JSON.stringify(seen)})`,
    60000,
  );
  return seen;
}

async function goToLine(page, line) {
  await page.keyboard.press('Control+G');
  const input = page.locator('.quick-input-widget .quick-input-box input');
  await input.waitFor({ timeout: T });
  await input.fill(`:${line}`);
  await page.keyboard.press('Enter');
  await page.locator('.quick-input-widget').waitFor({ state: 'hidden', timeout: T });
}

test('Debug Transaction: a breakpoint in Vault.sol hit, the Call Stack and Variables, Step Over, Continue to the revert, Step Back', async ({
  page,
  ctx,
}) => {
  const s = (await sandbox(ctx, '/__sandbox/health')).notable.inspector.inspectorInternalRevert;
  const held = lineOf(ctx, 'uint256 held = balances[from];');
  const require = lineOf(ctx, 'require(amount <= held');
  await extensionReady(page);
  await closeEditors(page);
  await openFile(page, 'Vault.sol');
  await goToLine(page, held);
  await page.keyboard.press('F9');
  await page
    .locator(
      '.editor-instance .monaco-editor .codicon-debug-breakpoint, .editor-instance .monaco-editor .codicon-debug-breakpoint-unverified',
    )
    .first()
    .waitFor({ timeout: T });

  await runCommand(page, 'Hedera: Debug Transaction…');
  const input = page.locator('.quick-input-widget .quick-input-box input');
  await input.waitFor({ timeout: T });
  await input.fill(s.transactionId);
  await page.keyboard.press('Enter');

  // stopped at the breakpoint, before the revert: one external frame and the two internal calls that led there
  const stack = await stoppedAt(page, 'Vault._debit', held, 'the breakpoint');
  assert.deepEqual(
    stack.map((f) => f.name),
    ['Vault._debit', 'Vault._move', 'Vault.move'],
  );
  const variables = page.locator('.debug-variables .monaco-list-row');
  await until(
    page,
    async () => {
      const rows = await variables.evaluateAll((els) => els.map((e) => (e.textContent ?? '').trim()));
      return rows.some((r) => /^Storage/.test(r)) && rows.some((r) => /^EVM/.test(r));
    },
    'the Variables view: the frame, storage and EVM scopes',
  );
  await page.mouse.move(1100, 850);
  await screenshot(page, 'debug-breakpoint');

  // Step Over: the next statement, the require (its condition not evaluated yet)
  await page.keyboard.press('F10');
  await stoppedAt(page, 'Vault._debit', require, 'Step Over');
  await screenshot(page, 'debug-step-over');

  // Continue: no other breakpoint, so the revert, with its reason in the exception widget
  await page.keyboard.press('F5');
  await until(
    page,
    async () =>
      (await page.locator('.monaco-editor .zone-widget').allTextContents()).join(' ').includes('move exceeds balance'),
    'the exception widget with the revert reason',
  );
  await stoppedAt(page, 'Vault._debit', require, 'the revert');
  await screenshot(page, 'debug-revert');
  await screenshot(page, 'debugger', { readme: true });

  // Step Back: the breakpoint's line again, recorded, not re-run
  await page.locator('.debug-toolbar .action-label[aria-label^="Step Back"]').click({ timeout: T });
  await stoppedAt(page, 'Vault._debit', held, 'Step Back');
  await screenshot(page, 'debug-step-back');

  await page.keyboard.press('Shift+F5');
  await page.locator('.debug-toolbar').waitFor({ state: 'hidden', timeout: T });
  // the breakpoint goes with the test
  await goToLine(page, held);
  await page.keyboard.press('F9');
  await closeEditors(page);
});
