#!/usr/bin/env node
// The browser build (VS Code for the web) next to the Node build: bundle sizes and VS Code's "Activation" figure for
// the extension in each extension host of the same code-server.
//   node test/bench/web.mjs    (BENCH_RUNS, default 5)
// The .vsix's production build is installed twice: in one profile as usual (the Node extension host), in another
// with `remote.extensionKind` ui, so that the workbench runs it from its browser entry in the web worker extension
// host (as vscode.dev does). Each run is a fresh page; the Hedera container is opened (the activation event) and
// "Developer: Show Running Extensions" read. The worker host fetches the bundle over HTTP before it runs it, so its
// figure holds the download from the local server as well. Figures only: no target is set for the web host.
import fs from 'node:fs';
import path from 'node:path';
import { packageVsix } from '../harness/package-vsix.mjs';
import { median, root, vscodeHarness } from './lib.mjs';

const runs = Number(process.env.BENCH_RUNS || 5);
const h = await vscodeHarness();
const pkg = JSON.parse(fs.readFileSync(path.join(root, 'package.json'), 'utf8'));
const id = `${pkg.publisher}.${pkg.name}`;
const kb = (f) => Math.round((fs.statSync(f).size / 1024) * 10) / 10;

/** VS Code's "Activation: N ms" for our extension in the Running Extensions editor, or undefined. */
async function activation(page) {
  await h.driver.runCommand(page, 'Developer: Show Running Extensions');
  const row = page.locator('.runtime-extensions-editor .monaco-list-row', { hasText: 'Hedera Explorer' }).first();
  const time = row.locator('.activation-time').filter({ hasText: /\d+ms/ });
  for (let scrolled = false; ; scrolled = true) {
    try {
      await time.waitFor({ timeout: 10000 });
      return Number((await time.innerText()).match(/(\d+)ms/)[1]);
    } catch {
      if (scrolled) return undefined;
      // the list draws only the rows in view: a fast extension sorts to the bottom
      await page.locator('.runtime-extensions-editor .monaco-list').first().focus();
      await page.keyboard.press('End');
    }
  }
}

try {
  const vsix = packageVsix({ quiet: true });
  const hosts = [];
  for (const [name, extra] of [
    ['Node extension host', {}],
    ['web worker extension host', { 'remote.extensionKind': { [id]: ['ui'] } }],
  ]) {
    const profile = h.makeProfile('hedera-bench-web', { ...h.sandboxSettings(), ...extra });
    h.installExtension(profile, { vsix });
    hosts.push({ name, server: await h.startCodeServer(profile), samples: [] });
  }
  const browser = await h.launchBrowser();
  for (let i = 0; i < runs; i++)
    for (const host of hosts) {
      const context = await browser.newContext({ viewport: { width: 1400, height: 900 } });
      const page = await context.newPage();
      await page.goto(host.server.url);
      await h.driver.waitForWorkbench(page);
      await h.driver.openContainer(page, 'Hedera');
      const ms = await activation(page);
      if (ms !== undefined) host.samples.push(ms);
      await context.close();
    }
  const dist = path.join(root, 'dist');
  console.log(
    `bundles (production): browser dist/web/extension.js ${kb(path.join(dist, 'web', 'extension.js'))} KB, one file; Node: dist/main.js ${kb(path.join(dist, 'main.js'))} KB at activation, the rest in lazy entries`,
  );
  for (const host of hosts)
    console.log(
      `VS Code's "Activation" figure, ${host.name}: ${median(host.samples) ?? '-'} ms (median of ${host.samples.join(', ')})`,
    );
} finally {
  await h.cleanup();
}
