// Small, reusable helpers that drive VS Code's web workbench (code-server) with playwright-core.
// Every helper takes the playwright `page` first. Selectors are scoped (to a view, the quick input, the
// status bar...) because the same labels also show up in notifications, hovers and the palette.
//
//   waitForWorkbench(page)              the workbench DOM is there
//   openContainer(page, 'Hedera')       clicks the activity bar entry, waits for its side bar
//   view(page, 'Schedules')             locator of that view's pane (header + body)
//   waitForView / welcomeText           a view is shown / the text of its welcome content
//   waitForViewIdle(page, view)         no progress bar and no change for 1 s (done loading)
//   treeRows(page, view)                the rows of a view's tree: [{ label, description, ariaLabel }]
//   runCommand(page, "Hedera: Show Log")  F1, type, click the exact entry
//   outputChannel(page)                 { name, text } of the channel shown in the Output panel
//   quickPickItems / pickQuickPick      read the open quick pick / choose an entry by its label
//   statusBarTexts / statusBarItem      the status bar
//   notifications(page)                 texts of the visible notification toasts
//   webview(page, title)                FrameLocator of the webview panel's content (inner iframe)
//   screenshot(page, name, {readme})    test-results/screenshots/<name>.png; with SCREENSHOTS=<dir> set
//                                       (npm run screenshots), shots marked readme also go to <dir>
import fs from 'node:fs';
import path from 'node:path';
import { root, screenshotsDir } from '../harness/paths.mjs';

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
  if (!(await sidebarTitle.isVisible()) || !(await sidebarTitle.innerText()).toLowerCase().includes(title.toLowerCase())) {
    await item.click();
    await page.mouse.move(900, 700); // off the activity bar: no "Hedera" hover in screenshots
  }
  await page.locator('.part.sidebar .composite.title', { hasText: new RegExp(title, 'i') }).waitFor({ timeout: T });
}

export function view(page, name) {
  return page.locator('.part.sidebar .pane, .part.panel .pane, .part.auxiliarybar .pane').filter({
    has: page.locator('.pane-header h3.title', { hasText: exactly(name, 'i') }),
  }).first();
}

export async function waitForView(page, name) {
  const v = view(page, name);
  await v.waitFor({ timeout: T });
  const header = v.locator('.pane-header');
  if ((await header.getAttribute('aria-expanded')) === 'false') await header.click();
  return v;
}

/** Waits until the view shows no progress bar and its text stayed the same for `quietMs` (loading done). */
export async function waitForViewIdle(page, name, quietMs = 1000) {
  const pane = await waitForView(page, name);
  const end = Date.now() + T;
  let last = null;
  let since = Date.now();
  for (;;) {
    const busy = await pane.locator('.monaco-progress-container.active').count();
    const text = await pane.innerText();
    if (busy || text !== last) { last = text; since = Date.now(); }
    if (!busy && Date.now() - since >= quietMs) return pane;
    if (Date.now() > end) throw new Error(`view ${name} still loading after ${T} ms`);
    await page.waitForTimeout(100);
  }
}

export async function welcomeText(page, name) {
  const content = (await waitForView(page, name)).locator('.welcome-view-content');
  await content.waitFor({ timeout: T });
  return (await content.innerText()).trim();
}

export async function treeRows(page, name) {
  const rows = (await waitForView(page, name)).locator('.pane-body .monaco-list-row');
  return rows.evaluateAll((els) => els.map((el) => ({
    label: el.querySelector('.label-name')?.textContent?.trim() ?? '',
    description: el.querySelector('.label-description')?.textContent?.trim() ?? '',
    ariaLabel: el.getAttribute('aria-label') ?? '',
  })));
}

export async function runCommand(page, title) {
  await page.keyboard.press('F1');
  const input = page.locator('.quick-input-widget input');
  await input.waitFor({ timeout: T });
  await input.fill(`>${title}`);
  // Click the exact entry (Enter would run whatever fuzzy match is on top, e.g. a recently used command).
  const row = page.locator('.quick-input-widget .monaco-list-row', { has: page.locator('.label-name', { hasText: exactly(title) }) }).first();
  await row.click({ timeout: T });
  // Done when the palette is gone or replaced by the command's own quick pick / input box.
  await page.waitForFunction(() => {
    const w = document.querySelector('.quick-input-widget');
    const i = w?.querySelector('input');
    return !w || getComputedStyle(w).display === 'none' || !i || !i.value.startsWith('>');
  }, null, { timeout: T });
}

const quickRows = (page) => page.locator('.quick-input-widget .quick-input-list .monaco-list-row');

export async function quickPickItems(page) {
  await quickRows(page).first().waitFor({ timeout: T });
  return quickRows(page).evaluateAll((els) => els.map((el) => ({
    label: el.querySelector('.label-name')?.textContent?.trim() ?? '',
    description: el.querySelector('.label-description')?.textContent?.trim() ?? '',
    detail: el.querySelector('.quick-input-list-label-meta')?.textContent?.trim() ?? '',
  })));
}

export async function pickQuickPick(page, label) {
  const row = quickRows(page).filter({ has: page.locator('.label-name', { hasText: exactly(label) }) }).first();
  await row.click({ timeout: T });
  await page.locator('.quick-input-widget').waitFor({ state: 'hidden', timeout: T });
}

export async function statusBarTexts(page) {
  await page.locator('.part.statusbar').waitFor({ timeout: T });
  return page.locator('.part.statusbar .statusbar-item').evaluateAll((els) => els.map((e) => e.textContent.trim()).filter(Boolean));
}

export function statusBarItem(page, text) {
  return page.locator('.part.statusbar .statusbar-item', { hasText: text }).first();
}

export async function notifications(page) {
  return page.locator('.notifications-toasts .notification-toast').evaluateAll((els) => els.map((e) => e.textContent.trim()));
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
