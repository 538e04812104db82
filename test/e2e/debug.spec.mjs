// Debug Transaction in the real browser (the packaged extension in code-server, driven by Chromium), against the
// sandbox's revert two internal calls deep (GET /__sandbox/health -> notable.inspector.inspectorInternalRevert): a
// breakpoint set in Vault.sol with F9, the session started from the palette with the transaction id typed, the stop
// at the breakpoint with its call stack (Vault._debit ← Vault._move ← Vault.move) and Variables, Step Over onto the
// require, Continue to the revert (the exception widget), Step Back to the breakpoint's line. Screenshots debug-*.png.
import assert from 'node:assert/strict';
import path from 'node:path';
import {
  closeEditors,
  extensionReady,
  goToLine,
  lineOf,
  openFile,
  runCommand,
  sandbox,
  screenshot,
  stoppedAt as stoppedIn,
  until,
} from './driver.mjs';
import { test } from './runner.mjs';

const T = 20000;
const VAULT = path.join('contracts', 'inspector', 'Vault.sol');

/** Waits until the top frame of the Call Stack is `name` on `line` of Vault.sol. */
const stoppedAt = (page, name, line, what) => stoppedIn(page, { name, file: 'Vault.sol', line }, what);

test('Debug Transaction: a breakpoint in Vault.sol hit, the Call Stack and Variables, Step Over, Continue to the revert, Step Back', async ({
  page,
  ctx,
}) => {
  const s = (await sandbox(ctx, '/__sandbox/health')).notable.inspector.inspectorInternalRevert;
  const held = lineOf(ctx.workspace, VAULT, 'uint256 held = balances[from];');
  const require = lineOf(ctx.workspace, VAULT, 'require(amount <= held');
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
      return (
        rows.some((r) => /^Locals \(likely/.test(r)) &&
        rows.some((r) => /^Storage/.test(r)) &&
        rows.some((r) => /^EVM/.test(r))
      );
    },
    'the Variables view: the frame, likely locals, storage and EVM scopes',
  );
  // the likely locals, opened: the arguments of the internal function (`held` is not declared yet)
  await variables
    .filter({ hasText: /^Locals \(likely/ })
    .first()
    .click();
  const rowTexts = () => variables.evaluateAll((els) => els.map((e) => (e.textContent ?? '').trim()));
  await until(
    page,
    async () => (await rowTexts()).some((r) => /^amount\s*[=:]\s*30000000000$/.test(r)),
    'the internal function argument amount among the likely locals',
  );
  assert.ok(!(await rowTexts()).some((r) => /^held\s*[=:]/.test(r)), 'held is not on the stack before its line');
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
  await until(
    page,
    async () => (await rowTexts()).some((r) => /^held\s*[=:]\s*25000000000$/.test(r)),
    'the local held, read from the stack at the revert',
  );
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
