// The main views and the inspector in the light, dark and High Contrast themes (set in the workspace settings, which
// the runner puts back after the test): screenshots to look at, and the page follows the theme (its body class).
import fs from 'node:fs';
import path from 'node:path';
import {
  extensionReady,
  noHover,
  openContainer,
  runCommand,
  sandbox,
  screenshot,
  soloView,
  treeRows,
  until,
  waitForViewIdle,
  writeSettings,
} from './driver.mjs';
import { test } from './runner.mjs';

const THEMES = [
  ['light', 'Default Light Modern', 'vscode-light', 'vs'],
  ['dark', 'Default Dark Modern', 'vscode-dark', 'vs-dark'],
  ['hc', 'Default High Contrast', 'vscode-high-contrast', 'hc-black'],
];

/**
 * Waits until the workbench shows the theme: its class on the workbench, the side bar painted with the theme's
 * colour (the variable the theme sets), and two frames drawn since, so that no part is caught half switched.
 */
async function themeApplied(page, workbenchClass) {
  await page.waitForFunction(
    (cls) => {
      const wb = document.querySelector('.monaco-workbench');
      const bar = document.querySelector('.part.sidebar');
      if (!wb?.classList.contains(cls) || !bar) return false;
      const probe = document.createElement('div');
      probe.style.color = getComputedStyle(wb).getPropertyValue('--vscode-sideBar-background');
      wb.appendChild(probe);
      const want = getComputedStyle(probe).color;
      probe.remove();
      return getComputedStyle(bar).backgroundColor === want;
    },
    workbenchClass,
    { timeout: 20000 },
  );
  await page.evaluate(() => new Promise((done) => requestAnimationFrame(() => requestAnimationFrame(done))));
}

test('Themes: the Hedera views and the inspector in light, dark and High Contrast', async ({ page, ctx }) => {
  const file = path.join(ctx.workspace, '.vscode', 'settings.json');
  const original = JSON.parse(fs.readFileSync(file, 'utf8') || '{}');
  await openContainer(page, 'Hedera');
  await extensionReady(page);
  for (const name of ['Network Status', 'Schedules', 'Contract Results']) await waitForViewIdle(page, name);
  await soloView(page, 'Contract Results');
  await until(
    page,
    async () => (await treeRows(page, 'Contract Results')).some((r) => /^\d{4}-\d\d-\d\d /.test(r.label)),
    'contract result rows',
  );
  await soloView(page);
  for (const [name, theme, , workbenchClass] of THEMES) {
    await writeSettings(page, file, { ...original, 'workbench.colorTheme': theme });
    await themeApplied(page, workbenchClass);
    await page.mouse.move(1200, 800);
    await noHover(page);
    await screenshot(page, `theme-views-${name}`);
  }

  const health = await sandbox(ctx, '/__sandbox/health');
  const id = health.notable.inspector.inspectorDeepRevert.transactionId;
  await runCommand(page, 'Hedera: Inspect Transaction…');
  const input = page.locator('.quick-input-widget .quick-input-box input');
  await input.waitFor();
  await input.fill(id);
  await page.keyboard.press('Enter');
  await page.locator('.quick-input-widget').waitFor({ state: 'hidden' });
  const frames = page.locator('iframe.webview.ready');
  await frames.first().waitFor();
  const frame = frames.first().contentFrame().locator('iframe#active-frame').contentFrame();
  await frame.locator('#app[data-ready="true"] h2.section-head').first().waitFor({ timeout: 30000 });
  for (const [name, theme, bodyClass, workbenchClass] of THEMES) {
    await writeSettings(page, file, { ...original, 'workbench.colorTheme': theme });
    await themeApplied(page, workbenchClass);
    await frame.locator(`body.${bodyClass}`).waitFor({ state: 'attached' });
    await page.mouse.move(1200, 880);
    await screenshot(page, `theme-inspector-${name}`);
  }
});
