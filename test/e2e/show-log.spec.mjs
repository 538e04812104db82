// "Hedera: Show Log" opens the Output panel on the extension's log channel.
import assert from 'node:assert/strict';
import { openContainer, outputChannel, runCommand, screenshot } from './driver.mjs';
import { test } from './runner.mjs';

test('Show Log opens the Hedera Explorer output', async ({ page }) => {
  await openContainer(page, 'Hedera');
  const outputTab = page.locator('.part.panel .composite.title .action-item.checked', { hasText: 'Output' });
  await runCommand(page, 'Hedera: Show Log');
  await outputTab.waitFor({ timeout: 20000 });
  const { name } = await outputChannel(page);
  assert.equal(name, 'Hedera Explorer');
  await screenshot(page, 'show-log', { readme: true });
});
