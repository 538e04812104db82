// The extension in another display language, in the browser: a code-server of its own started with
// --locale=qps-ploc (an empty language pack registered in its profile, as VS Code needs one for any language but
// English: profile.mjs languagePack()), the run's .vsix installed there with the pseudo-localized bundle and
// package.nls of `npm run l10n -- --pseudo` added to it. The container's and views' titles, a command in the palette,
// the status bar, a view's rows and the inspector's page show the translation.
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { root } from '../harness/paths.mjs';
import { languagePack } from '../harness/profile.mjs';
import {
  openContainer,
  ownCodeServer,
  runCommand,
  sandbox,
  screenshot,
  soloView,
  statusBarTexts,
  treeRows,
  until,
  waitForWorkbench,
} from './driver.mjs';
import { test } from './runner.mjs';

const LOCALE = 'qps-ploc';
const escapeRegExp = (s) => s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

/** A matcher for text that holds one of the translated messages (any text in place of a `{n}`). */
function translatedText(bundle) {
  const patterns = Object.entries(bundle)
    .filter(([english, translated]) => translated !== english && english.replace(/\{\d+\}/g, '').trim().length >= 6)
    .map(
      ([, translated]) =>
        new RegExp(
          translated
            .split(/\{\d+\}/)
            .map(escapeRegExp)
            .join('.*'),
        ),
    );
  return (text) => patterns.some((p) => p.test(text));
}

test.blank(); // its own code-server
test('Pseudo-locale: the translation reaches the side bar, the palette, the status bar, a view and the inspector page', async ({
  page,
  ctx,
}) => {
  assert.ok(ctx.sandboxUrl, 'the sandbox runs');
  let t, nls;
  const { server } = await ownCodeServer(ctx, 'hedera-e2e-pseudo', {
    install: (dir, profile) => {
      languagePack(profile.userDataDir, LOCALE);
      execFileSync(process.execPath, [path.join(root, 'test', 'harness', 'l10n.mjs'), `--pseudo=${dir}`], {
        stdio: 'ignore',
      });
      t = JSON.parse(fs.readFileSync(path.join(dir, 'l10n', `bundle.l10n.${LOCALE}.json`), 'utf8'));
      nls = JSON.parse(fs.readFileSync(path.join(dir, `package.nls.${LOCALE}.json`), 'utf8'));
    },
    locale: LOCALE,
  });
  const translated = translatedText(t);
  try {
    await page.goto(server.url);
    await waitForWorkbench(page);
    // the container and the views are named from package.nls.qps-ploc.json
    await openContainer(page, nls['container.title']);
    await soloView(page, nls['view.contractResults']);
    await until(
      page,
      async () => (await treeRows(page, nls['view.contractResults'])).some((r) => /^\d{4}-\d\d-\d\d /.test(r.label)),
      'contract result rows',
    );
    // the network status: the status bar item and the view's rows say it in the translation
    await until(page, async () => (await statusBarTexts(page)).some(translated), 'a translated status bar item');
    await soloView(page, nls['view.status']);
    await until(
      page,
      async () =>
        (await treeRows(page, nls['view.status'])).some((r) => translated(`${r.label} ${r.description ?? ''}`)),
      'a translated row in the Network Status view',
    );
    await page.mouse.move(1200, 800);
    await screenshot(page, 'pseudo-locale-views');
    await soloView(page);

    // a command by its translated title; the inspector's page in the translation
    const health = await sandbox(ctx, '/__sandbox/health');
    const id = health.notable.inspector.inspectorDeepRevert.transactionId;
    await runCommand(page, `${nls['category.hedera']}: ${nls['command.inspectTransaction']}`);
    const input = page.locator('.quick-input-widget .quick-input-box input');
    await input.waitFor();
    await input.fill(id);
    await page.keyboard.press('Enter');
    await page.locator('.quick-input-widget').waitFor({ state: 'hidden' });
    const frames = page.locator('iframe.webview.ready');
    let heads = [];
    await until(
      page,
      async () => {
        for (let i = 0; i < (await frames.count()); i++) {
          const inner = frames.nth(i).contentFrame().locator('iframe#active-frame').contentFrame();
          heads = await inner
            .locator('#app[data-ready="true"] h2.section-head')
            .allTextContents()
            .catch(() => []);
          if (heads.length) return true;
        }
        return false;
      },
      'the inspector page drawn',
      60000,
    );
    for (const m of ['Overview', 'Call trace', 'Events']) {
      assert.ok(t[m] && t[m] !== m, `"${m}" is translated`);
      assert.ok(
        heads.some((h) => h.trim() === t[m] || h.trim().startsWith(`${t[m]} `)), // a count may follow
        `the section "${m}" is headed "${t[m]}": ${JSON.stringify(heads)}`,
      );
    }
    assert.ok(!heads.some((h) => /^(Overview|Call trace|Events)\b/.test(h.trim())), 'no English heading');
    await page.mouse.move(1200, 800);
    await screenshot(page, 'pseudo-locale-inspector');
  } finally {
    await server.stop();
  }
});
