// A tiny test runner for the e2e specs: `test(name, fn)` registers, runE2e(ctx) runs them in order.
//
//   import { test } from './runner.mjs';
//   test('the container opens', async ({ page, ctx }) => { ... });   // test.skip(name, fn) to skip
//
// Each test gets a fresh page (1400x900) with the workbench loaded (ctx.url) and a per-test time limit
// (E2E_TEST_TIMEOUT_MS, default 60 s); a failing test leaves test-results/screenshots/FAILED-<name>.png.
// E2E_GREP=<regex> runs only matching tests. Returns { suite, passed, failed, skipped, failures }.
// Tests share one profile and workspace: the user and workspace settings files are put back as they were
// before each test, so a test that fails half way (say, on another network) does not fail the next ones.
import fs from 'node:fs';
import path from 'node:path';
import { screenshot, waitForWorkbench } from './driver.mjs';

const tests = [];
export function test(name, fn) {
  tests.push({ name, fn });
}
test.skip = (name, fn) => tests.push({ name, fn, skip: true });

function settingsFiles(ctx) {
  const files = [];
  if (ctx.profile?.userDataDir) files.push(path.join(ctx.profile.userDataDir, 'User', 'settings.json'));
  if (ctx.workspace) files.push(path.join(ctx.workspace, '.vscode', 'settings.json'));
  return files;
}

const readOrNull = (f) => {
  try {
    return fs.readFileSync(f, 'utf8');
  } catch {
    return null;
  }
};

/** Puts every settings file back to its snapshot; returns the files that had changed. */
function restoreSettings(snapshot) {
  const changed = [];
  for (const [file, text] of snapshot) {
    const now = readOrNull(file);
    if (now === text) continue;
    changed.push(`${path.basename(path.dirname(file))}/${path.basename(file)}`);
    if (process.env.E2E_DEBUG) console.log(`--- ${file} was:\n${text}\n--- is:\n${now}`);
    if (text === null) fs.rmSync(file, { force: true });
    else fs.writeFileSync(file, text);
  }
  return changed;
}

/** Deletes the workbench's IndexedDB databases and local storage (UI state of the last test), keeping the HTTP cache. */
async function clearStorage(context, url) {
  const page = await context.newPage();
  try {
    await page.goto(new URL('/healthz', url).href);
    await page.evaluate(async () => {
      globalThis.localStorage.clear();
      const dbs = await globalThis.indexedDB.databases();
      await Promise.all(
        dbs.map(
          (d) =>
            new Promise((resolve, reject) => {
              const r = globalThis.indexedDB.deleteDatabase(d.name);
              r.onsuccess = resolve;
              r.onerror = () => reject(r.error);
              r.onblocked = () => reject(new Error(`IndexedDB ${d.name} still open`));
            }),
        ),
      );
    });
  } finally {
    await page.close();
  }
}

const slug = (s) =>
  s
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, '-')
    .replace(/^-|-$/g, '')
    .slice(0, 60);

/** Runs the tests of one lane: of the tests selected, every `lanes`-th from the `lane`-th (each lane its own server). */
export async function runE2e(browser, ctx, { lane = 0, lanes = 1 } = {}) {
  const result = { suite: 'e2e', passed: 0, failed: 0, skipped: 0, failures: [] };
  const grep = process.env.E2E_GREP ? new RegExp(process.env.E2E_GREP) : null;
  const limit = Number(process.env.E2E_TEST_TIMEOUT_MS || 90000); // a bound on waiting (a busy machine is slower), not a speed target
  const snapshot = new Map(settingsFiles(ctx).map((f) => [f, readOrNull(f)]));
  // One browser context for all tests keeps the HTTP cache (the workbench's scripts are not fetched and compiled
  // again per test); each test starts from empty browser storage, as a new context would.
  const shared = process.env.E2E_FRESH_CONTEXT
    ? undefined
    : await browser.newContext({ viewport: { width: 1400, height: 900 } });
  let selected = 0;
  for (const t of tests) {
    if (t.skip || (grep && !grep.test(t.name))) {
      if (lane === 0) {
        result.skipped++;
        console.log(`  - ${t.name} (skipped)`);
      }
      continue;
    }
    if (selected++ % lanes !== lane) continue;
    const changed = restoreSettings(snapshot);
    if (changed.length) console.log(`    (${changed.join(', ')} put back as before the tests)`);
    const t0 = Date.now();
    const context = shared ?? (await browser.newContext({ viewport: { width: 1400, height: 900 } }));
    if (shared) await clearStorage(context, ctx.url);
    const page = await context.newPage();
    let timer;
    try {
      await Promise.race([
        (async () => {
          await page.goto(ctx.url);
          await waitForWorkbench(page);
          // a new page reads the settings files as they are now: the title shows no writeSettings() marker
          if (changed.length)
            await page.waitForFunction(() => !document.title.includes('[settings '), null, { timeout: 20000 });
          await t.fn({ page, ctx });
        })(),
        new Promise((_, reject) => {
          timer = setTimeout(() => reject(new Error(`timed out after ${limit} ms`)), limit);
        }),
      ]);
      result.passed++;
      console.log(`  ✔ ${t.name} (${((Date.now() - t0) / 1000).toFixed(1)}s)`);
    } catch (e) {
      result.failed++;
      const message = String(e?.message ?? e).split('\n')[0];
      result.failures.push(`${t.name}: ${message}`);
      console.log(`  ✗ ${t.name}: ${message}`);
      await screenshot(page, `FAILED-${slug(t.name)}`).catch(() => {});
    } finally {
      clearTimeout(timer);
      await (shared ? page : context).close().catch(() => {});
    }
  }
  await shared?.close().catch(() => {});
  return result;
}
