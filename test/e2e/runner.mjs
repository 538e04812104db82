// A tiny test runner for the e2e specs: `test(name, fn)` registers, runE2e(ctx) runs them in order.
//
//   import { test } from './runner.mjs';
//   test('the container opens', async ({ page, ctx }) => { ... });   // test.skip(name, fn) to skip
//   test.fresh();   // before a test: it runs on a page of its own (test.blank(): an empty one), see below
//
// The tests share one page (1400x900) with the workbench loaded (ctx.url): loading it and starting the extension
// host takes most of a test's time. Between two tests the runner puts back what a test may change: sandbox faults,
// hostile families, status scenario and opcodes endpoint; open quick inputs, menus, editors, the panel and
// notifications; the workspace settings file (waited for until the workbench applied it); the Hedera views expanded,
// no filter, Follow off, no result or schedule expanded. A test gets a new page, with empty browser storage, when
//   - it is the first, or the one before failed (a failure does not cascade), or changed the user settings file,
//   - test.fresh() came before it: a new extension host, for state that no reset undoes (its page is dropped after it),
//   - test.blank() came before it: an empty page, for a test that opens its own server (dropped after it),
//   - E2E_FRESH=1 is set (every test on a new page, as a check that a test does not depend on the ones before).
// Each test has a time limit (E2E_TEST_TIMEOUT_MS, default 90 s); a failing test leaves
// test-results/screenshots/FAILED-<name>.png. E2E_GREP=<regex> runs only matching tests.
// Returns { suite, passed, failed, skipped, failures }.
import fs from 'node:fs';
import path from 'node:path';
import {
  closeEditors,
  runCommand,
  sandbox,
  screenshot,
  soloView,
  until,
  view,
  viewAction,
  waitForWorkbench,
} from './driver.mjs';

const tests = [];
let next = {};
export function test(name, fn) {
  tests.push({ name, fn, ...next });
  next = {};
}
test.skip = (name, fn) => {
  next.skip = true;
  test(name, fn);
};
/** The next test registered runs on a new page of its own (a new extension host). */
test.fresh = () => (next = { fresh: true });
/** The next test registered gets an empty page of its own (it opens its own server). */
test.blank = () => (next = { blank: true });

/**
 * The settings files a test may change. Only the workspace's shows in the page when the workbench read it again (its
 * `window.title`); the server's user settings file does not set the title, so a change there takes a new page.
 */
function settingsFiles(ctx) {
  const files = [];
  if (ctx.workspace) files.push({ file: path.join(ctx.workspace, '.vscode', 'settings.json'), title: true });
  if (ctx.profile?.userDataDir)
    files.push({ file: path.join(ctx.profile.userDataDir, 'User', 'settings.json'), title: false });
  return files;
}

const readOrNull = (f) => {
  try {
    return fs.readFileSync(f, 'utf8');
  } catch {
    return null;
  }
};

function write(file, text) {
  if (text === null) fs.rmSync(file, { force: true });
  else {
    fs.mkdirSync(path.dirname(file), { recursive: true });
    fs.writeFileSync(file, text);
  }
}

let resets = 0;

/**
 * Puts every settings file back to its snapshot; returns the files that had changed. With a page, waits until its
 * workbench read each file again: the file is first written with a `window.title` marker (shown once applied), then
 * as it was (the marker gone once applied); a change made through the workbench (Settings editor, a quick pick)
 * leaves no other sign. With a page, a changed file that cannot show a marker is an error (a new page reads it).
 */
async function restoreSettings(snapshot, page) {
  const unmarked = snapshot.find((f) => !f.title && readOrNull(f.file) !== f.text);
  if (page && unmarked) throw new Error(`${path.basename(unmarked.file)} of the user changed: a new page reads it`);
  const changed = [];
  for (const { file, text } of snapshot) {
    const now = readOrNull(file);
    if (now === text) continue;
    changed.push(`${path.basename(path.dirname(file))}/${path.basename(file)}`);
    if (process.env.E2E_DEBUG) console.log(`--- ${file} was:\n${text}\n--- is:\n${now}`);
    if (page) {
      const marker = `[reset ${process.pid}.${++resets}]`;
      const base = text === null ? {} : JSON.parse(text);
      write(file, JSON.stringify({ ...base, 'window.title': `\${rootName} ${marker}` }, null, 2));
      let title = '';
      const shows = async () => (title = await page.title()).includes(marker);
      await until(page, shows, () => `${marker} in the title (is "${title}")`);
      write(file, text);
      await until(
        page,
        async () => !(await shows()),
        () => `${marker} gone from the title (is "${title}")`,
      );
    } else write(file, text);
  }
  return changed;
}

/** Deletes the workbench's IndexedDB databases and local storage (UI state of the last page), keeping the HTTP cache. */
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

/** The sandbox's switchable state as the run found it, to put back after each test. */
async function sandboxState(ctx) {
  if (!ctx.sandboxUrl) return null;
  const { scenario } = await sandbox(ctx, '/__sandbox/status');
  const { enabled } = await sandbox(ctx, '/__sandbox/opcodes');
  return { scenario, opcodes: enabled };
}

async function resetSandbox(ctx, state) {
  if (!state) return;
  await sandbox(ctx, '/__sandbox/faults', undefined, 'DELETE');
  await sandbox(ctx, '/__sandbox/hostile', undefined, 'DELETE');
  await sandbox(ctx, '/__sandbox/status', { scenario: state.scenario });
  await sandbox(ctx, '/__sandbox/opcodes', { enabled: state.opcodes });
}

/** The shared page as a test finds a new one, but for the extension host's state and the side bar's width. */
async function resetPage(page, snapshot) {
  const changed = await restoreSettings(snapshot, page);
  if (changed.length) console.log(`    (${changed.join(', ')} put back as before the tests)`);
  const quickInput = page.locator('.quick-input-widget');
  const menu = page.locator('.context-view .monaco-menu');
  await until(
    page,
    async () => {
      if (!(await quickInput.isVisible()) && !(await menu.isVisible())) return true;
      await page.keyboard.press('Escape');
      return false;
    },
    'no quick input or menu open',
  );
  await page.mouse.move(1100, 600);
  if ((await page.locator('.tabs-container .tab, .modal-editor-resizable').count()) > 0) await closeEditors(page);
  if (await page.locator('.part.panel').isVisible()) {
    await runCommand(page, 'View: Hide Panel');
    await page.locator('.part.panel').waitFor({ state: 'hidden', timeout: 20000 });
  }
  const toasts = page
    .locator('.notifications-toasts .notification-toast, .notifications-center .notification-list-item')
    .filter({ visible: true });
  if (await toasts.count()) {
    await runCommand(page, 'Notifications: Clear All Notifications');
    await until(page, async () => (await toasts.count()) === 0, 'no notification');
  }
  const sidebarTitle = page.locator('.part.sidebar .composite.title');
  if (!(await sidebarTitle.isVisible()) || !/hedera/i.test(await sidebarTitle.innerText())) return;
  await soloView(page);
  // no filter and no Follow left on (their actions show only while set)
  for (const action of ['Clear Filters', 'Stop Following New Results']) {
    const shown = `.pane-header .actions .action-label[aria-label^="${action}"]`;
    const names = await page
      .locator('.part.sidebar .pane')
      .filter({ has: page.locator(shown) })
      .locator('.pane-header h3.title')
      .allInnerTexts();
    for (const name of names.map((n) => n.trim())) {
      await viewAction(page, name, action);
      await until(page, async () => (await view(page, name).locator(shown).count()) === 0, `${name}: ${action} done`);
    }
  }
  // no result or schedule expanded, as on a new page (rows a test expanded push the others out of the rendered part of
  // the list); the other views open some rows by default
  for (const name of ['Contract Results', 'Schedules']) {
    const expanded = view(page, name).locator('.monaco-list-row[aria-expanded="true"]');
    if (!(await expanded.count())) continue;
    await viewAction(page, name, 'Collapse All');
    await until(page, async () => (await expanded.count()) === 0, `${name} collapsed`);
  }
}

/** `p`, or an error once `ms` passed: a bound on waiting (a busy machine is slower), not a speed target. */
async function withLimit(p, ms, what = '') {
  let timer;
  try {
    return await Promise.race([
      p,
      new Promise((_, reject) => {
        timer = setTimeout(() => reject(new Error(`${what ? `${what} ` : ''}timed out after ${ms} ms`)), ms);
      }),
    ]);
  } finally {
    clearTimeout(timer);
  }
}

const slug = (s) =>
  s
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, '-')
    .replace(/^-|-$/g, '')
    .slice(0, 60);

const secs = (ms) => `${(ms / 1000).toFixed(1)}s`;

/** Runs the tests of one lane: of the tests selected, every `lanes`-th from the `lane`-th (each lane its own server). */
export async function runE2e(browser, ctx, { lane = 0, lanes = 1 } = {}) {
  const result = { suite: 'e2e', passed: 0, failed: 0, skipped: 0, failures: [] };
  const grep = process.env.E2E_GREP ? new RegExp(process.env.E2E_GREP) : null;
  const limit = Number(process.env.E2E_TEST_TIMEOUT_MS || 90000);
  const snapshot = settingsFiles(ctx).map((f) => ({ ...f, text: readOrNull(f.file) }));
  const sandboxDefaults = await sandboxState(ctx);
  // One browser context for all pages keeps the HTTP cache (the workbench's scripts are not fetched and compiled
  // again for a new page); a new page starts from empty browser storage, as a new context would.
  const context = await browser.newContext({ viewport: { width: 1400, height: 900 } });
  let page = null; // the shared page, while it can be reused
  const drop = async () => {
    await page?.close().catch(() => {});
    page = null;
  };
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
    const own = t.fresh || t.blank || process.env.E2E_FRESH;
    if (own) await drop();
    const t0 = Date.now();
    if (page) {
      try {
        await resetSandbox(ctx, sandboxDefaults);
        await withLimit(resetPage(page, snapshot), 60000, 'reset');
      } catch (e) {
        console.log(`    (the page could not be reset, a new one: ${String(e?.message ?? e).split('\n')[0]})`);
        await drop();
      }
    }
    let current = page;
    let loaded = 0;
    try {
      await withLimit(
        (async () => {
          if (!current) {
            await resetSandbox(ctx, sandboxDefaults);
            const changed = await restoreSettings(snapshot);
            if (changed.length) console.log(`    (${changed.join(', ')} put back as before the tests)`);
            await clearStorage(context, ctx.url);
            current = await context.newPage();
            if (!t.blank) {
              await current.goto(ctx.url);
              await waitForWorkbench(current);
              // a new page reads the settings files as they are now: the title shows no settings marker
              await current.waitForFunction(() => !/\[(settings|reset) /.test(document.title), null, {
                timeout: 20000,
              });
            }
            loaded = Date.now() - t0;
          }
          await t.fn({ page: current, ctx });
        })(),
        limit,
      );
      result.passed++;
      console.log(`  ✔ ${t.name} (${secs(Date.now() - t0)}${loaded ? `, of which ${secs(loaded)} a new page` : ''})`);
      page = own ? null : current;
      if (own) await current.close().catch(() => {});
    } catch (e) {
      result.failed++;
      const message = String(e?.message ?? e).split('\n')[0];
      result.failures.push(`${t.name}: ${message}`);
      console.log(`  ✗ ${t.name}: ${message}`);
      if (current) await screenshot(current, `FAILED-${slug(t.name)}`).catch(() => {});
      await current?.close().catch(() => {});
      page = null;
    }
  }
  await drop();
  await context.close().catch(() => {});
  return result;
}
