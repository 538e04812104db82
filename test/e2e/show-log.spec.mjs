// "Hedera: Show Log" opens the Output panel on the extension's log channel.
import assert from 'node:assert/strict';
import { openContainer, outputChannel, runCommand, screenshot } from './driver.mjs';
import { test } from './runner.mjs';

test('Show Log opens the Hedera Explorer output', async ({ page }) => {
  await openContainer(page, 'Hedera');
  const outputTab = page.locator('.part.panel .composite.title .action-item.checked', { hasText: 'Output' });
  // On a loaded machine the palette's list can re-render under the click, which then runs nothing; the command
  // itself is covered by the integration suite, so one more try here tests the UI path, not the timing.
  for (let attempt = 1; ; attempt++) {
    await runCommand(page, 'Hedera: Show Log');
    try {
      await outputTab.waitFor({ timeout: 15000 });
      break;
    } catch (e) {
      if (attempt === 2) throw e;
    }
  }
  const { name } = await outputChannel(page);
  assert.equal(name, 'Hedera Explorer');
  await screenshot(page, 'show-log', { readme: true });
});
