// The command palette as a user meets it: "Refresh" typed, one entry per view, each told apart by its category
// ("Hedera Contract Results: Refresh", ...); the commands that have nothing to act on (Clear Filters with no filter,
// Clear Revert Marks with no mark, the row commands) are not offered.
import assert from 'node:assert/strict';
import { openContainer, screenshot, until } from './driver.mjs';
import { test } from './runner.mjs';

/** Opens the palette with `text` typed; the labels of the entries it lists once they stopped changing. */
async function paletteEntries(page, text) {
  await page.keyboard.press('F1');
  const input = page.locator('.quick-input-widget input');
  await input.waitFor();
  await input.fill(`>${text}`);
  const labels = page.locator('.quick-input-widget .quick-input-list .monaco-list-row .label-name');
  let last;
  await until(
    page,
    async () => {
      const now = (await labels.allTextContents()).map((l) => l.trim());
      const same = last !== undefined && JSON.stringify(now) === JSON.stringify(last);
      last = now;
      return same;
    },
    `palette entries for "${text}"`,
  );
  return last;
}

test('the palette: "Refresh" lists one entry per view, each with its own category', async ({ page }) => {
  await openContainer(page, 'Hedera');
  const refresh = (await paletteEntries(page, 'Refresh')).filter((l) => /^Hedera/.test(l));
  assert.deepEqual(
    [...refresh].sort(),
    [
      'Hedera Contract Results: Refresh',
      'Hedera Deployments: Refresh',
      'Hedera Network Status: Refresh',
      'Hedera Schedules: Refresh',
    ],
    refresh.join(' | '),
  );
  await page.mouse.move(1200, 800);
  await screenshot(page, 'palette-refresh');
  await page.keyboard.press('Escape');

  // nothing to clear (no filter, no revert mark): not offered; Filter… is, once per list view
  const filters = (await paletteEntries(page, 'Filter…')).filter((l) => /^Hedera/.test(l));
  assert.deepEqual([...filters].sort(), ['Hedera Contract Results: Filter…', 'Hedera Schedules: Filter…']);
  await page.keyboard.press('Escape');
  for (const title of ['Clear Filters', 'Clear Revert Marks', 'Stop Following New Results', 'Clear Explorer API Key']) {
    // the palette matches loosely ("Clear Revert Marks" also lists "Go to Revert…"): the title itself must not be there
    const offered = (await paletteEntries(page, title)).filter((l) => /^Hedera/.test(l) && l.endsWith(`: ${title}`));
    assert.deepEqual(offered, [], title);
    await page.keyboard.press('Escape');
  }
  // the commands of a row are not in the palette either
  const rows = (await paletteEntries(page, 'Copy Transaction Hash')).filter((l) =>
    l.endsWith(': Copy Transaction Hash'),
  );
  assert.deepEqual(rows, []);
  await page.keyboard.press('Escape');
});
