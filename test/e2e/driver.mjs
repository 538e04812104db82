// Small, reusable helpers that drive VS Code's web workbench (code-server) with playwright-core.
// Every helper takes the playwright `page` first. Selectors are scoped (to a view, the quick input, the
// status bar...) because the same labels also show up in notifications, hovers and the palette.
//
//   waitForWorkbench(page)              the workbench DOM is there
//   openContainer(page, 'Hedera')       clicks the activity bar entry, waits for its side bar
//   view(page, 'Schedules')             locator of that view's pane (header + body)
//   waitForView / welcomeText           a view is shown / the text of its welcome content
//   waitForViewIdle(page, view)         done loading: no progress bar, no Loading… row, content shown
//   treeRows(page, view)                the rows of a view's tree: [{ label, description, ariaLabel, level, expanded, icon }]
//   treeRow / expandRow / collapseRow   one row by its label (exact text or RegExp); open or close it by its twistie
//   clickNow(locator)                   a click dispatched to the element as it is now (no re-render can drop it)
//   pressInList(page, key, check)       a key pressed once the keyboard focus is in a list; waits for `check`
//   scrollTree(page, view, 'bottom')    scrolls a view's tree with the mouse wheel (rows are virtualized)
//   focusedRow(page, view)              label of the row with the keyboard focus
//   until(page, fn, what)               polls fn until truthy (conditions, never fixed sleeps)
//   noHover(page)                       no hover or tooltip shown
//   viewAction(page, view, 'Refresh')   clicks the view's title-bar action whose aria-label starts so
//   viewDescription(page, view)         the text next to the view's title
//   soloView(page, view)                wide side bar, only that view expanded (readable screenshots); soloView(page) undoes
//   contextMenu / pickContextMenu       right-click a row: the menu's entries / choose one
//   runCommand(page, "Hedera: Show Log")  F1, type, click the exact entry
//   outputChannel(page)                 { name, text } of the channel shown in the Output panel
//   quickPickItems / pickQuickPick      read the open quick pick / choose an entry by its label
//   typeInQuickInput(page, text, {expect}) types into the open quick input; waits for its validation message ('' if none)
//   statusBarTexts / statusBarItem      the status bar
//   notifications(page)                 texts of the visible notification toasts
//   webview(page, title)                FrameLocator of the webview panel's content (inner iframe)
//   screenshot(page, name, {readme})    test-results/screenshots/<name>.png; with SCREENSHOTS=<dir> set
//                                       (npm run screenshots), shots marked readme also go to <dir>
//   sandbox(ctx, path, body, method)    calls the sandbox's control API (faults, status scenarios, requests...)
//   rateLimitRowThenRetry(...)          a 429 on Refresh is the one error row; clicking it loads the rows again
//   writeSettings(page, file, obj)      writes a settings file, waits until the workbench applied it
//   extensionReady / openNftHistory     the extension's status bar item is there / "Show NFT History" answered, the panel's frame
//   ownCodeServer(ctx, prefix, opts)    a code-server of a test's own (after test.blank()): profile, workspace copy, .vsix
//   lineOf(dir, file, needle)           the 1-based line of a workspace file that holds needle (exactly one)
//   goToLine(page, line)                Go to Line (Ctrl+G) in the active editor
//   callStack / stoppedAt               the debugger's Call Stack view: its frames / waits until the top frame is there
import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import { installExtension, startCodeServer } from '../harness/code-server.mjs';
import { EXTENSION_ID, root, screenshotsDir, vsixPath, workspaceDir } from '../harness/paths.mjs';
import { tempDir } from '../harness/processes.mjs';
import { makeProfile } from '../harness/profile.mjs';
import { sandboxSettings } from '../harness/sandbox.mjs';

const T = 20000;

export async function waitForWorkbench(page) {
  await page.locator('.monaco-workbench').waitFor({ timeout: 60000 });
  await page.locator('.activitybar .action-item').first().waitFor({ timeout: 60000 });
}

export async function openContainer(page, title) {
  const sidebarTitle = page.locator('.part.sidebar .composite.title');
  const item = page.locator(`.activitybar .action-item [aria-label^="${title}"]`).first();
  await item.waitFor({ timeout: T });
  // Clicking an already open container closes the side bar: only click when it is not the active one.
  if (
    !(await sidebarTitle.isVisible()) ||
    !(await sidebarTitle.innerText()).toLowerCase().includes(title.toLowerCase())
  ) {
    await item.click();
    await page.mouse.move(900, 700); // off the activity bar: no "Hedera" hover in screenshots
  }
  await page.locator('.part.sidebar .composite.title', { hasText: new RegExp(title, 'i') }).waitFor({ timeout: T });
}

export function view(page, name) {
  return page
    .locator('.part.sidebar .pane, .part.panel .pane, .part.auxiliarybar .pane')
    .filter({
      has: page.locator('.pane-header h3.title', { hasText: exactly(name, 'i') }),
    })
    .first();
}

export async function waitForView(page, name) {
  const v = view(page, name);
  await v.waitFor({ timeout: T });
  const header = v.locator('.pane-header');
  if ((await header.getAttribute('aria-expanded')) === 'false') await header.click();
  return v;
}

/**
 * Waits until the view is done loading: no progress bar, no "Loading…" row of the paging model (its loading~spin
 * icon), and its welcome content or a row shown.
 */
export async function waitForViewIdle(page, name) {
  const pane = await waitForView(page, name);
  await until(
    page,
    async () =>
      (await pane.locator('.monaco-progress-container.active').count()) === 0 &&
      (await pane.locator('.pane-body .monaco-list-row [class*="codicon-loading"]').count()) === 0 &&
      ((await pane.locator('.welcome-view-content').isVisible()) ||
        (await pane.locator('.pane-body .monaco-list-row').count()) > 0),
    `view ${name} done loading`,
  );
  return pane;
}

export async function welcomeText(page, name) {
  const content = (await waitForView(page, name)).locator('.welcome-view-content');
  await content.waitFor({ timeout: T });
  return (await content.innerText()).trim();
}

export async function treeRows(page, name) {
  const rows = (await waitForView(page, name)).locator('.pane-body .monaco-list-row');
  return rows.evaluateAll((els) =>
    [...els]
      .sort((a, b) => Number(a.dataset.index ?? 0) - Number(b.dataset.index ?? 0))
      .map((el) => ({
        label: el.querySelector('.label-name')?.textContent?.trim() ?? '',
        description: el.querySelector('.label-description')?.textContent?.trim() ?? '',
        ariaLabel: el.getAttribute('aria-label') ?? '',
        level: Number(el.getAttribute('aria-level') ?? 0),
        expanded: el.getAttribute('aria-expanded') === null ? undefined : el.getAttribute('aria-expanded') === 'true',
        icon:
          [...(el.querySelector('.custom-view-tree-node-item-icon')?.classList ?? [])].find((c) =>
            c.startsWith('codicon-'),
          ) ?? '',
      })),
  ); // in list order: rows are positioned, their DOM order is not guaranteed
}

/** Locator of the first row of a view whose label is `label` (exact text) or matches it (RegExp). */
export function treeRow(page, name, label) {
  const text = label instanceof RegExp ? label : exactly(label);
  return view(page, name)
    .locator('.pane-body .monaco-list-row', { has: page.locator('.label-name', { hasText: text }) })
    .first();
}

/** Expands a row by its twistie (a click on the label would run the row's command, if it has one). */
export async function expandRow(page, name, label) {
  return toggleRow(page, name, label, true);
}

export async function collapseRow(page, name, label) {
  return toggleRow(page, name, label, false);
}

async function toggleRow(page, name, label, open) {
  const row = typeof label === 'string' || label instanceof RegExp ? treeRow(page, name, label) : label;
  await row.waitFor({ timeout: T });
  const isSo = async () => (await row.getAttribute('aria-expanded')) === String(open);
  if (!(await isSo())) await clickNow(row.locator('.monaco-tl-twistie'));
  await until(page, isSo, `row ${label} ${open ? 'expanded' : 'collapsed'}`);
  if (open) {
    // children come asynchronously: done when the next row is one level deeper
    // the row's place is read again each time: rows added above it (a decoded label arriving) move it down
    const childrenShown = async () => {
      const [index, level] = [await row.getAttribute('data-index'), Number(await row.getAttribute('aria-level'))];
      const next = view(page, name).locator(`.pane-body .monaco-list-row[data-index="${Number(index) + 1}"]`);
      if (!(await next.count())) {
        // the tree draws only the rows in view: a row at the bottom has its children drawn once it is scrolled up
        const list = view(page, name).locator('.pane-body .monaco-list').first();
        const [at, top] = [await row.boundingBox(), await list.boundingBox()];
        if (at && top && at.y - top.y > at.height) {
          await list.hover();
          await page.mouse.wheel(0, at.y - top.y);
        }
        return false;
      }
      return Number(await next.getAttribute('aria-level')) > level;
    };
    await until(page, childrenShown, `the children of row ${label}`);
  }
  return row;
}

/**
 * Clicks `target` where it is now. A tree, a list or an action bar acts on the DOM click event, which the browser
 * sends only when the mouse went down and up on the same element: a re-render between the two (rows redrawn as
 * decoded labels or ABIs arrive, a palette list filtered again, a row's actions hidden as its hover ends) drops it.
 * Dispatched to the element in the DOM at that moment, in one step, no re-render can split it.
 */
export async function clickNow(target) {
  await target.waitFor({ state: 'visible', timeout: T });
  await target.dispatchEvent('click');
}

/**
 * Presses `key` in the list that has the keyboard focus (waited for: a key pressed before the focus is in the list
 * goes elsewhere), then waits until `check` holds.
 */
export async function pressInList(page, key, check, what) {
  await page.waitForFunction(
    () => !!document.activeElement?.closest('.monaco-list')?.querySelector('.monaco-list-row.focused'),
    null,
    { timeout: T },
  );
  await page.keyboard.press(key);
  await until(page, check, what);
}

/**
 * Scrolls a view's tree to its top or bottom with the mouse wheel (only rendered rows are in the DOM); given a
 * locator, keeps scrolling until it is visible (rows may still be arriving).
 */
export async function scrollTree(page, name, to = 'bottom', untilVisible) {
  const body = (await waitForView(page, name)).locator('.pane-body .monaco-list').first();
  await body.hover();
  await page.mouse.wheel(0, to === 'bottom' ? 100000 : -100000);
  if (untilVisible) {
    await until(
      page,
      async () => {
        if (await untilVisible.isVisible()) return true;
        await page.mouse.wheel(0, to === 'bottom' ? 100000 : -100000);
        return false;
      },
      `${untilVisible} after scrolling ${name}`,
    );
  }
}

/** Label of the row that has the keyboard focus in a view's tree ('' if none). */
export async function focusedRow(page, name) {
  const row = (await waitForView(page, name)).locator('.pane-body .monaco-list-row.focused .label-name').first();
  return (await row.count()) ? (await row.innerText()).trim() : '';
}

/**
 * Polls `fn` until it returns something truthy (and returns that), or throws after `timeout`; `what` (a string or a
 * function giving one, read at the end) names the condition in the error.
 */
export async function until(page, fn, what = 'condition', timeout = T) {
  const end = Date.now() + timeout;
  for (;;) {
    const v = await fn();
    if (v) return v;
    if (Date.now() > end) throw new Error(`waited ${timeout} ms for ${typeof what === 'function' ? what() : what}`);
    await page.waitForTimeout(100); // the interval between two looks at the state (no event to wait on from Node)
  }
}

/** Waits until no hover or tooltip of the workbench is shown (screenshots without one). */
export async function noHover(page) {
  await page.waitForFunction(
    () =>
      [...document.querySelectorAll('.monaco-hover, .workbench-hover')].every(
        (el) => el.getClientRects().length === 0 || getComputedStyle(el).visibility === 'hidden',
      ),
    null,
    { timeout: T },
  );
}

/**
 * Moves the pointer onto `target` as a hand does, in several mousemove events ending at its centre: a workbench
 * hover starts on the pointer resting over an element, which a single synthetic move does not always give.
 */
export async function pointAt(page, target) {
  const box = await target.boundingBox();
  if (!box) throw new Error('nothing to point at: the element is not shown');
  await page.mouse.move(box.x + box.width / 2, box.y + box.height / 2, { steps: 8 });
}

/** Clicks a title-bar action of a view (they only show while the view is hovered or focused). */
export async function viewAction(page, name, label) {
  const pane = await waitForView(page, name);
  await pane.locator('.pane-header').hover();
  const action = pane.locator(`.pane-header .actions .action-label[aria-label^="${label}"]`).first();
  await action.click({ timeout: T });
}

export async function viewDescription(page, name) {
  const d = (await waitForView(page, name)).locator('.pane-header .description').first();
  return (await d.count()) ? (await d.innerText()).trim() : '';
}

/**
 * Only `name` expanded in its container and the side bar 560 px wide, for screenshots whose rows can be read;
 * without a name every view is expanded again.
 */
export async function soloView(page, name) {
  const box = await page.locator('.part.sidebar').boundingBox();
  if (name && box && box.width < 500) {
    await page.mouse.move(box.x + box.width + 1, box.y + box.height / 2);
    await page.mouse.down();
    await page.mouse.move(box.x + 560, box.y + box.height / 2, { steps: 8 });
    await page.mouse.up();
  }
  const headers = page.locator('.part.sidebar .pane .pane-header');
  for (let i = 0; i < (await headers.count()); i++) {
    const header = headers.nth(i);
    const title = (await header.locator('h3.title').innerText()).trim();
    const open = !name || title.toLowerCase() === name.toLowerCase();
    if ((await header.getAttribute('aria-expanded')) === String(!open)) await header.click();
  }
  if (name)
    await page.waitForFunction(
      (n) =>
        [...document.querySelectorAll('.part.sidebar .pane')].some(
          (p) =>
            p.querySelector('.pane-header h3.title')?.textContent?.trim().toLowerCase() === n.toLowerCase() &&
            p.querySelector('.pane-body')?.getBoundingClientRect().height > 300,
        ),
      name,
      { timeout: T },
    );
}

/**
 * Right-clicks a row (label or locator) and returns the labels of its context menu. The contextmenu event is
 * dispatched to the row where it is now, at its middle (a mouse press can land on the row's hover opening at that
 * moment, or on a row being re-rendered).
 */
export async function contextMenu(page, name, label) {
  const row = typeof label === 'string' || label instanceof RegExp ? treeRow(page, name, label) : label;
  const items = page.locator('.context-view .monaco-menu .action-item:not(.disabled) .action-label');
  await row.waitFor({ state: 'visible', timeout: T });
  const box = await row.boundingBox();
  await row.dispatchEvent('contextmenu', {
    button: 2,
    buttons: 2,
    clientX: box.x + box.width / 2,
    clientY: box.y + box.height / 2,
  });
  await items.first().waitFor({ timeout: T });
  return (await items.allInnerTexts()).map((t) => t.trim()).filter(Boolean);
}

/**
 * Chooses a context menu entry: hovered until the menu gives it the keyboard focus, then Enter. The menu ignores a
 * mouse up in its first 100 ms, so a click can be lost; Enter reaches the entry once it holds the focus.
 */
export async function pickContextMenu(page, label) {
  const menu = page.locator('.context-view .monaco-menu');
  const item = menu
    .locator('.action-item', { has: page.locator('.action-label', { hasText: exactly(label) }) })
    .first();
  await item.hover({ timeout: T });
  await until(
    page,
    async () =>
      /\bfocused\b/.test((await item.getAttribute('class')) ?? '') &&
      (await item
        .locator('.action-menu-item')
        .evaluate((el) => el.getRootNode().activeElement === el)
        .catch(() => false)),
    `menu entry ${label} focused`,
  );
  await page.keyboard.press('Enter');
  await menu.waitFor({ state: 'hidden', timeout: T });
}

export async function runCommand(page, title) {
  await page.keyboard.press('F1');
  const input = page.locator('.quick-input-widget input');
  await input.waitFor({ timeout: T });
  await input.fill(`>${title}`);
  // Click the exact entry (Enter would run whatever fuzzy match is on top, e.g. a recently used command).
  const row = page
    .locator('.quick-input-widget .monaco-list-row', { has: page.locator('.label-name', { hasText: exactly(title) }) })
    .first();
  await clickNow(row);
  // Done when the palette is gone or replaced by the command's own quick pick / input box.
  await page.waitForFunction(
    () => {
      const w = document.querySelector('.quick-input-widget');
      const i = w?.querySelector('input');
      return !w || getComputedStyle(w).display === 'none' || !i || !i.value.startsWith('>');
    },
    null,
    { timeout: T },
  );
}

const quickRows = (page) => page.locator('.quick-input-widget .quick-input-list .monaco-list-row');

export async function quickPickItems(page) {
  await quickRows(page).first().waitFor({ timeout: T });
  return quickRows(page).evaluateAll((els) =>
    els.map((el) => ({
      label: el.querySelector('.label-name')?.textContent?.trim() ?? '',
      description: el.querySelector('.label-description')?.textContent?.trim() ?? '',
      detail: el.querySelector('.quick-input-list-label-meta')?.textContent?.trim() ?? '',
    })),
  );
}

/** Chooses an entry; waits until the quick input closes or, with `{ replaced: true }`, until another one took its place. */
export async function pickQuickPick(page, label, { replaced = false } = {}) {
  const row = quickRows(page)
    .filter({ has: page.locator('.label-name', { hasText: exactly(label) }) })
    .first();
  await row.click({ timeout: T });
  await (replaced ? row : page.locator('.quick-input-widget')).waitFor({ state: 'hidden', timeout: T });
}

/**
 * Types `text` into the open quick input, key by key (replacing what is there), and returns the validation message
 * shown for it ('' when accepted). Validation answers come from the extension host as you type, the one for the
 * last key possibly late: waits until the message matches `expect` (a RegExp, or '' for accepted) and throws with
 * the message last seen if it never does.
 */
export async function typeInQuickInput(page, text, { expect }) {
  const input = page.locator('.quick-input-widget .quick-input-box input');
  await input.waitFor({ timeout: T });
  await input.fill('');
  await input.pressSequentially(text, { delay: 20 });
  const box = page.locator('.quick-input-widget .quick-input-box .monaco-inputbox');
  const message = async () =>
    /\berror\b/.test((await box.getAttribute('class')) ?? '') ? quickInputMessage(page) : '';
  let last = null;
  await until(
    page,
    async () => {
      last = await message();
      return expect instanceof RegExp ? expect.test(last) : last === expect;
    },
    () => `the quick input's answer to "${text}" (expected ${expect || 'accepted'}; last seen: "${last}")`,
  );
  return last;
}

async function quickInputMessage(page) {
  const m = page.locator('.quick-input-widget .quick-input-message');
  return (await m.count()) && (await m.isVisible()) ? (await m.innerText()).trim() : '';
}

export async function statusBarTexts(page) {
  await page.locator('.part.statusbar').waitFor({ timeout: T });
  return page
    .locator('.part.statusbar .statusbar-item')
    .evaluateAll((els) => els.map((e) => e.textContent.trim()).filter(Boolean));
}

export function statusBarItem(page, text) {
  return page.locator('.part.statusbar .statusbar-item', { hasText: text }).first();
}

export async function notifications(page) {
  return page
    .locator('.notifications-toasts .notification-toast')
    .evaluateAll((els) => els.map((e) => e.textContent.trim()));
}

/** The channel shown in the Output panel and its visible text. */
export async function outputChannel(page) {
  const select = page.locator('.part.panel select.monaco-select-box[aria-label="Switch Output"]').first();
  await select.waitFor({ timeout: T });
  const lines = page.locator('.part.panel .output-view .view-lines, .part.panel .view-lines').first();
  return { name: await select.inputValue(), text: await lines.innerText().catch(() => '') };
}

/** The content frame of a webview whose tab or view has the given title. */
export async function webview(page, title) {
  const frames = page.locator('iframe.webview.ready');
  await frames.first().waitFor({ timeout: T });
  const n = await frames.count();
  for (let i = 0; i < n; i++) {
    const f = frames.nth(i);
    const t = (await f.getAttribute('title')) ?? '';
    if (!title || t.includes(title) || n === 1) return f.contentFrame().locator('iframe#active-frame').contentFrame();
  }
  throw new Error(`no webview titled ${title}`);
}

export async function screenshot(page, name, { readme = false } = {}) {
  fs.mkdirSync(screenshotsDir, { recursive: true });
  const file = path.join(screenshotsDir, `${name}.png`);
  await page.screenshot({ path: file });
  if (readme && process.env.SCREENSHOTS) {
    const dir = path.resolve(root, process.env.SCREENSHOTS);
    fs.mkdirSync(dir, { recursive: true });
    fs.copyFileSync(file, path.join(dir, `${name}.png`));
  }
  return file;
}

/** Matches the whole text (icons such as $(check) render as empty spans, so only spaces may surround it). */
function exactly(text, flags = '') {
  return new RegExp(`^\\s*${text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}\\s*$`, flags);
}

/** Calls the sandbox's control API (`/__sandbox/...`): POST with a JSON body by default; the JSON answer, if any. */
export async function sandbox(ctx, p, body, method = body === undefined ? 'GET' : 'POST') {
  if (!ctx.sandboxUrl) throw new Error('the e2e run has no sandbox');
  const res = await fetch(`${ctx.sandboxUrl}${p}`, {
    method,
    headers: { 'content-type': 'application/json' },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  if (!res.ok) throw new Error(`${method} ${p}: ${res.status}`);
  return res.status === 204 ? undefined : res.json().catch(() => undefined);
}

/**
 * A list view after Refresh while the sandbox answers `apiPath` with 429 (three times: the client's tries): the
 * view shows one error row with the server's message, then clicking it loads the rows again (`okRow` appears).
 */
export async function rateLimitRowThenRetry(page, ctx, { viewName, apiPath, okRow, shot }) {
  await sandbox(ctx, '/__sandbox/faults', { path: apiPath, times: 3, fault: { status: 429, retryAfter: '0' } });
  try {
    await viewAction(page, viewName, 'Refresh');
    const error = treeRow(page, viewName, /limiting requests/);
    await error.waitFor({ timeout: T });
    const rows = await treeRows(page, viewName);
    if (rows.length !== 1) throw new Error(`only the error row expected: ${rows.map((r) => r.label).join(' | ')}`);
    if (
      !/^127\.0\.0\.1:\d+ is limiting requests \(HTTP 429 Too Many Requests\): Too many requests\. Try again in 1 s\.$/.test(
        rows[0].label,
      )
    )
      throw new Error(`error row: ${rows[0].label}`);
    if (rows[0].icon !== 'codicon-error') throw new Error(`error row icon: ${rows[0].icon}`);
    await screenshot(page, shot);
    await error.locator('.label-name').click();
    await treeRow(page, viewName, okRow).waitFor({ timeout: T });
    if (await view(page, viewName).locator('.monaco-list-row', { hasText: 'limiting requests' }).count())
      throw new Error('the error row is still there after the retry');
  } finally {
    await sandbox(ctx, '/__sandbox/faults', undefined, 'DELETE');
  }
}

let settingsWrites = 0;

/**
 * Writes `settings` to a settings file and waits until the workbench applied them: the file also sets `window.title`
 * with a marker, which the page's title shows once the workbench read the file. The extension host gets the change
 * from the workbench with that same update, before any command or click sent afterwards.
 */
export async function writeSettings(page, file, settings) {
  const marker = `[settings ${process.pid}.${++settingsWrites}]`;
  fs.writeFileSync(file, JSON.stringify({ ...settings, 'window.title': `\${rootName} ${marker}` }, null, 2));
  await page.waitForFunction((m) => document.title.includes(m), marker, { timeout: T });
}

/** Waits until the extension's contributions are known to the workbench (its network item in the status bar). */
export async function extensionReady(page) {
  await statusBarItem(page, 'Sandbox').waitFor({ timeout: 60000 });
}

/** Runs "Hedera: Show NFT History" and answers its two input boxes. */
export async function openNftHistory(page, token, serial) {
  await extensionReady(page);
  await runCommand(page, 'Hedera: Show NFT History');
  const input = page.locator('.quick-input-widget input');
  await input.waitFor({ timeout: T });
  await input.fill(token);
  await input.press('Enter');
  await page.locator('.quick-input-widget .quick-input-title', { hasText: '(2/2)' }).waitFor({ timeout: T });
  await input.fill(serial);
  await input.press('Enter');
  const frame = await webview(page, `NFT ${token} #${serial}`);
  await frame.locator('#app[data-ready="true"]').waitFor({ timeout: T, state: 'attached' });
  return frame;
}

/** Closes every editor (an editor another spec left modified is closed without saving), until no tab is left. */
export async function closeEditors(page) {
  await runCommand(page, 'View: Close All Editors');
  const dontSave = page.locator('.monaco-dialog-box .dialog-buttons a.monaco-button', { hasText: /Don't Save/ });
  await until(
    page,
    async () => {
      if (await dontSave.isVisible().catch(() => false)) await dontSave.click();
      return (await page.locator('.tabs-container .tab').count()) === 0;
    },
    'no editor open',
  );
}

/** Opens a workspace file with Go to File (Ctrl+P), by its exact name. */
export async function openFile(page, name) {
  await page.keyboard.press('Control+P');
  const input = page.locator('.quick-input-widget .quick-input-box input');
  await input.waitFor({ timeout: T });
  await input.fill(name);
  const row = page
    .locator('.quick-input-widget .quick-input-list .monaco-list-row', {
      has: page.locator('.label-name', { hasText: new RegExp(`^\\s*${name.replace(/\./g, '\\.')}\\s*$`) }),
    })
    .first();
  await row.click({ timeout: T });
  await page.locator('.tabs-container .tab.active', { hasText: name }).waitFor({ timeout: T });
}

/**
 * A code-server of a test's own (after test.blank(): for what the run's server cannot be, e.g. another display
 * language or extension host), serving a copy of test/workspace, its user settings selecting the run's sandbox with
 * `settings` beside them. The run's .vsix is the one installed there: the run's extensions dir is shared, unless
 * `install` is given, which installs it into the profile's own dir and is then called with the installed extension's
 * dir (to change its files). `workspace(dir)` may change the copy before the server starts; other options go to
 * startCodeServer (locale, workspaceTrust). Returns { server, profile, workspace }: stop the server when done.
 */
export async function ownCodeServer(ctx, prefix, { settings = {}, install, workspace: prepare, ...options } = {}) {
  if (!ctx.sandboxUrl) throw new Error('the e2e run has no sandbox');
  const profile = makeProfile(prefix, { ...sandboxSettings(ctx.sandboxUrl), ...settings });
  if (install) {
    installExtension(profile, { vsix: process.env.E2E_VSIX ? path.resolve(process.env.E2E_VSIX) : vsixPath });
    const installed = fs.readdirSync(profile.extensionsDir).find((d) => d.startsWith(`${EXTENSION_ID}-`));
    if (!installed) throw new Error('the .vsix did not install');
    await install(path.join(profile.extensionsDir, installed), profile);
  } else profile.extensionsDir = ctx.profile.extensionsDir; // the .vsix installed for the run
  const workspace = tempDir(`${prefix}-ws`);
  fs.cpSync(workspaceDir, workspace, { recursive: true });
  await prepare?.(workspace);
  const server = await startCodeServer(profile, { folder: workspace, ...options });
  return { server, profile, workspace };
}

/** The 1-based line of the file `file` (relative to `dir`) that holds `needle` (exactly one). */
export function lineOf(dir, file, needle) {
  const lines = fs.readFileSync(path.join(dir, file), 'utf8').split('\n');
  const hits = lines.map((l, i) => (l.includes(needle) ? i + 1 : 0)).filter(Boolean);
  assert.equal(hits.length, 1, needle);
  return hits[0];
}

/** Moves the cursor of the active editor to `line` with Go to Line (Ctrl+G). */
export async function goToLine(page, line) {
  await page.keyboard.press('Control+G');
  const input = page.locator('.quick-input-widget .quick-input-box input');
  await input.waitFor({ timeout: T });
  await input.fill(`:${line}`);
  await page.keyboard.press('Enter');
  await page.locator('.quick-input-widget').waitFor({ state: 'hidden', timeout: T });
}

/** The Call Stack view's frames: each row's function, file and `line:column`. */
export async function callStack(page) {
  return page.locator('.debug-call-stack .monaco-list-row .stack-frame').evaluateAll((els) =>
    els.map((e) => ({
      name: (e.querySelector('.label')?.textContent ?? '').trim(),
      file: (e.querySelector('.file-name')?.textContent ?? '').trim(),
      line: (e.querySelector('.line-number')?.textContent ?? '').trim(),
    })),
  );
}

/** Waits until the top frame of the Call Stack is `name` on `line` of `file`; returns the frames. */
export async function stoppedAt(page, { name, file, line }, what) {
  let seen = [];
  await until(
    page,
    async () => {
      seen = await callStack(page);
      const top = seen[0];
      return !!top && top.name === name && top.file === file && top.line.startsWith(`${line}:`);
    },
    () => `${what}: the top frame ${name} on ${file}:${line} (the Call Stack shows ${JSON.stringify(seen)})`,
    60000,
  );
  return seen;
}

/**
 * The CodeLens texts above one line of the active editor, once `done` says they are all there. Every line's lenses are
 * looked at: the editor's DOM holds them in the order they were drawn, not in line order.
 */
export async function lensTexts(page, done, what = 'the CodeLens of the declaration', timeout = T) {
  const decos = page.locator('.editor-instance .monaco-editor .codelens-decoration');
  let seen = [];
  return until(
    page,
    async () => {
      seen = [];
      for (const deco of await decos.all()) {
        const texts = (
          await deco
            .locator('a, span:not(:has(*))')
            .allInnerTexts()
            .catch(() => [])
        )
          .map((t) => t.trim())
          .filter((t) => t && t !== '|');
        seen.push(texts);
        if (done(texts)) return texts;
      }
      return undefined;
    },
    () => `${what} (shown: ${JSON.stringify(seen)})`,
    timeout,
  );
}

/** The active editor tab's text. */
const activeTabText = async (page) =>
  (await page
    .locator('.tabs-container .tab.active')
    .textContent()
    .catch(() => '')) ?? '';

/** Waits until the active editor tab is `name`. */
export async function activeTab(page, name) {
  await until(page, async () => (await activeTabText(page)).includes(name), `${name} opened`);
}

/** Waits until the active editor tab is `name` with the cursor on `line`. */
export async function cursorOn(page, name, line) {
  const status = page.locator('.statusbar-item[id="status.editor.selection"]');
  await until(
    page,
    async () =>
      (await activeTabText(page)).includes(name) &&
      new RegExp(`Ln ${line},`).test((await status.textContent().catch(() => '')) ?? ''),
    `${name} open with the cursor on line ${line}`,
  );
}
