// The transaction inspector in the real browser (the packaged extension in code-server, driven by Chromium), against
// the sandbox's inspector scenarios (GET /__sandbox/health -> notable.inspector): opened from a Contract Results row's
// inline action, from the palette with a pasted HashScan link and with a hash; the deep revert's failing frames in the
// call trace, Go to failure, the tree's keyboard, Expand all / Collapse all; a 404 actions section with the other
// sections shown; hostile text in a revert reason and an event shown as text (nothing runs); big integers with every
// digit; once in a light theme; the Source section of a failed deployment (its constructor) and of a revert two
// internal calls deep, each in a dark and a light theme.
import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import {
  activeTab,
  clickNow,
  closeEditors,
  cursorOn,
  extensionReady,
  openContainer,
  pickQuickPick,
  runCommand,
  sandbox,
  screenshot,
  soloView,
  treeRow,
  typeInQuickInput,
  until,
  noHover,
  viewAction,
  viewDescription,
  waitForViewIdle,
  writeSettings,
} from './driver.mjs';
import { test } from './runner.mjs';

const T = 20000;
const CMD = 'Hedera: Inspect Transaction…';
const VIEW = 'Contract Results';
const SECTIONS = ['Overview', 'Source', 'Call trace', 'Events', 'State changes', 'Transfers'];
const READY = SECTIONS.map(() => 'ready');

const scenarios = async (ctx) => (await sandbox(ctx, '/__sandbox/health')).notable.inspector;

/** No editor left from an earlier test (the workbench restores panels): a reference opens a fresh panel. */
async function noEditors(page) {
  await extensionReady(page);
  await closeEditors(page);
}

/**
 * The inspector page showing `ref` (its header names what was asked), once its script ran. The webviews' frames have
 * no title, and another panel's may still be in the DOM: the frame is told by its header.
 */
async function inspectorFrame(page, ref, timeout = T) {
  const frames = page.locator('iframe.webview.ready');
  let seen = [];
  const frame = await until(
    page,
    async () => {
      seen = [];
      for (let i = 0; i < (await frames.count()); i++) {
        const inner = frames.nth(i).contentFrame().locator('iframe#active-frame').contentFrame();
        const title = await inner
          .locator('#app[data-ready="true"] h1.title')
          .textContent({ timeout: 300 })
          .catch(() => '');
        seen.push(title);
        if (title.includes(ref)) return inner;
      }
      return undefined;
    },
    `the inspector page of ${ref}`,
    timeout,
  ).catch((e) => {
    throw new Error(`${e.message} (pages: ${JSON.stringify(seen)})`);
  });
  return frame;
}

/** Runs "Inspect Transaction…" and submits `text` (pasted at once, or typed key by key); the page of the new panel. */
async function inspectByCommand(page, text, ref, { paste = false } = {}) {
  await runCommand(page, CMD);
  const input = page.locator('.quick-input-widget .quick-input-box input');
  await input.waitFor({ timeout: T });
  if (paste) {
    await input.fill(text);
    // Enter has the value validated before it is taken: the input box closes only when it is accepted
    await page.keyboard.press('Enter');
    await page
      .locator('.quick-input-widget')
      .waitFor({ state: 'hidden', timeout: T })
      .catch(async (e) => {
        throw new Error(
          `"${text}" not accepted: ${await page
            .locator('.quick-input-widget .quick-input-message')
            .innerText()
            .catch(() => '')} (${e.message})`,
        );
      });
  } else {
    assert.equal(await typeInQuickInput(page, text, { expect: '' }), '');
    await page.keyboard.press('Enter');
  }
  return inspectorFrame(page, ref);
}

/** Each section in the navigation: its state (ready, notice, error, missing, loading) and count. */
async function nav(frame) {
  return frame.locator('nav.nav .nav-item').evaluateAll((els) =>
    els.map((el) => {
      const icon = el.querySelector('.nav-icon');
      const state = ['loading', 'error', 'missing', 'notice', 'ready'].find((c) => icon?.classList.contains(c)) ?? '';
      return {
        label: el.querySelector('span:not(.nav-icon):not(.nav-count)')?.textContent ?? '',
        state,
        count: el.querySelector('.nav-count')?.textContent?.trim() ?? '',
      };
    }),
  );
}

/**
 * Waits until no section is loading (each drew its content, its error or its notice) and the page stayed the same
 * for `quietMs`: a drawn section may be drawn again when more names arrive (deployment records, Sourcify, layouts).
 */
async function settled(page, frame, quietMs = 1000) {
  let last = '';
  let since = Date.now();
  await until(
    page,
    async () => {
      const busy =
        SECTIONS.length - (await frame.locator('main.sections > section.section[aria-busy="false"]').count());
      const now = await frame
        .locator('main.sections')
        .evaluate((el) => `${el.textContent.length}:${el.getElementsByTagName('*').length}`);
      if (busy || now !== last) {
        last = now;
        since = Date.now();
      }
      return !busy && Date.now() - since >= quietMs;
    },
    'every section settled',
  );
  return nav(frame);
}

const text = (frame, sel) => frame.locator(sel).first().innerText();
/** The Overview's field `label` (a dt) and its value (the dd after it). */
const field = (frame, label) =>
  frame
    .locator('#s-overview dl.fields > dt', { hasText: new RegExp(`^${label}$`) })
    .locator('xpath=following-sibling::dd[1]');

/** The trace rows in the DOM, in row order: { row, level, failed, onpath, selected, expanded, text }. */
async function traceRows(frame) {
  return frame.locator('[role=tree] [role=treeitem]').evaluateAll((els) =>
    els
      .map((el) => ({
        row: Number(el.dataset.row),
        level: Number(el.getAttribute('aria-level')),
        failed: el.classList.contains('failed'),
        onpath: el.classList.contains('onpath'),
        selected: el.getAttribute('aria-selected') === 'true',
        expanded: el.getAttribute('aria-expanded'),
        label: el.getAttribute('aria-label') ?? '',
        text: el.textContent ?? '',
      }))
      .sort((a, b) => a.row - b.row),
  );
}

/** The mouse on the status bar's empty middle, and no tooltip left for the screenshot. */
async function calm(page) {
  await page.mouse.move(1000, 880);
  await noHover(page);
}

/** The Overview section shown by its navigation entry: scrolled to, its heading focused. */
async function overviewShown(page, frame) {
  await until(
    page,
    () => frame.locator('body').evaluate(() => !!document.activeElement?.closest('#s-overview')),
    'the Overview section focused',
  );
}

const activeRow = async (frame) => frame.locator('[role=tree]').getAttribute('aria-activedescendant');

test("Inspector: opened from a Contract Results row's inline action, every section with the deep revert's overview decoded (README screenshot)", async ({
  page,
  ctx,
}) => {
  const { inspectorDeepRevert: s, accounts } = await scenarios(ctx);
  await noEditors(page);
  await openContainer(page, 'Hedera');
  await soloView(page, VIEW);
  // the inspector's contract (0.0.7001), through the filter quick pick as a user sets it
  await treeRow(page, VIEW, /^\d{4}-/).waitFor({ timeout: T });
  if ((await viewDescription(page, VIEW)) !== 'Sandbox') await viewAction(page, VIEW, 'Clear Filters');
  try {
    await viewAction(page, VIEW, 'Filter…');
    await pickQuickPick(page, 'Contract', { replaced: true });
    assert.equal(await typeInQuickInput(page, s.contractId, { expect: '' }), '');
    await page.keyboard.press('Enter');
    await page.locator('.quick-input-widget .quick-input-list .monaco-list-row').first().waitFor({ timeout: T });
    await page.keyboard.press('Escape');
    await until(
      page,
      async () => (await viewDescription(page, VIEW)) === `Sandbox · contract ${s.contractId}`,
      'the contract filter',
    );
    // the newest settle(…) call is the deep revert (the Vault's ABI from the workspace names it); the view done
    // loading first (its rows are not drawn again under the click)
    const row = treeRow(page, VIEW, /· settle\(/);
    await row.waitFor({ timeout: T });
    await waitForViewIdle(page, VIEW);
    // the inline action shows while the row is hovered; the click is dispatched to it as it is shown (a mouse click
    // landing as the hover ends would open nothing)
    const action = row.locator('.actions .action-label[aria-label="Inspect Transaction"]');
    await row.hover();
    await clickNow(action);
    const frame = await inspectorFrame(page, s.timestamp, T);
    const sections = await settled(page, frame);
    assert.deepEqual(
      sections.map((x) => x.label),
      SECTIONS,
    );
    assert.deepEqual(
      sections.map((x) => x.state),
      READY,
      JSON.stringify(sections),
    );
    assert.equal(sections[SECTIONS.indexOf('Call trace')].count, String(s.actions));
    // the header: what was asked (the row's consensus timestamp), on which network
    assert.equal((await text(frame, 'h1.title')).trim(), `Transaction at ${s.timestamp}`);
    assert.equal((await text(frame, '.badge.network')).trim(), 'Sandbox');
    const headings = await frame
      .locator('main.sections > section > h2.section-head')
      .evaluateAll((els) => els.map((e) => e.firstChild?.textContent));
    assert.deepEqual(headings, SECTIONS);
    // the overview: the failure, its reason decoded, the call decoded with the workspace ABI, every digit
    assert.match(await field(frame, 'Result').innerText(), new RegExp(`^${s.result}`));
    assert.equal(await frame.locator('#s-overview .outcome.failure').count(), 1);
    assert.match(await text(frame, '#s-overview .error-text'), /Ledger: amount too large/);
    assert.equal((await field(frame, 'Transaction ID').innerText()).trim(), s.transactionId);
    const fn = field(frame, 'Function');
    assert.match(await fn.locator('.call-head .fn').innerText(), /^settle$/);
    assert.match(await fn.innerText(), /decoded with workspace: /);
    const args = await fn
      .locator('table.values tbody tr')
      .evaluateAll((trs) => trs.map((tr) => [...tr.cells].map((c) => c.textContent.trim())));
    assert.ok(
      args.some(([, type, value]) => type === 'uint256' && value === '1500000000000000000000000'),
      `1.5e24 with every digit: ${JSON.stringify(args)}`,
    );
    assert.ok(
      args.some(([, type, value]) => type === 'address' && value.toLowerCase() === accounts.depositor.evm),
      JSON.stringify(args),
    );
    assert.match(await field(frame, 'From').innerText(), /0\.0\.7000/);
    assert.match(
      await field(frame, 'To').innerText(),
      new RegExp(`Vault[\\s\\S]*${s.contractId.replace(/\./g, '\\.')}`),
    );
    // the page sets everything as text: no element from the model is a link out of the webview
    assert.equal(await frame.locator('#app a[href]').count(), 0);
    await calm(page);
    await screenshot(page, 'inspector-overview', { readme: true });
  } finally {
    await viewAction(page, VIEW, 'Clear Filters').catch(() => {});
  }
});

test('Inspector: from the palette with a pasted HashScan link and with a hash; events, state changes and transfers decoded', async ({
  page,
  ctx,
}) => {
  const s = (await scenarios(ctx)).inspectorSuccess;
  await noEditors(page);
  // nothing is accepted that is not a transaction (validated as typed)
  await runCommand(page, CMD);
  assert.match(await typeInQuickInput(page, '0.0.1234', { expect: /./ }), /./);
  await page.keyboard.press('Escape');
  await page.locator('.quick-input-widget').waitFor({ state: 'hidden', timeout: T });

  const link = `${ctx.sandboxUrl}/hashscan/testnet/transaction/${s.timestamp}`;
  let frame = await inspectByCommand(page, link, s.timestamp, { paste: true });
  let sections = await settled(page, frame);
  assert.deepEqual(
    sections.map((x) => x.state),
    READY,
    JSON.stringify(sections),
  );
  assert.equal((await field(frame, 'Transaction ID').innerText()).trim(), s.transactionId);
  assert.equal(await frame.locator('#s-overview .outcome.success').count(), 1);
  // events: every log decoded with the workspace's ABIs
  const events = await frame
    .locator('#s-events article.card.event')
    .evaluateAll((els) => els.map((e) => e.querySelector('.card-head .fn')?.textContent ?? '(not decoded)'));
  assert.deepEqual(events, ['Deposited', 'Transfer', 'Recorded']);
  // state changes: named with the workspace build's storage layout
  const stateText = await text(frame, '#s-state');
  assert.match(stateText, /totalDeposits/);
  assert.match(stateText, /Named with the storage layout in \S/);
  assert.ok(
    (await frame.locator('#s-transfers table.grid-table tbody tr').count()) >= 2,
    'the HBAR transfers of the record',
  );
  assert.match(await text(frame, '#s-transfers'), /Charged fee/);
  await frame.locator('#s-events').scrollIntoViewIfNeeded();
  await frame.locator('nav.nav .nav-item', { hasText: 'Events' }).click();
  await calm(page);
  await screenshot(page, 'inspector-events-state', { readme: true });

  // the hash: its own panel, the same transaction
  frame = await inspectByCommand(page, s.hash, s.hash);
  sections = await settled(page, frame);
  assert.equal((await text(frame, 'h1.title')).trim(), `Transaction ${s.hash}`);
  assert.deepEqual(
    sections.map((x) => x.state),
    READY,
    JSON.stringify(sections),
  );
  assert.equal((await field(frame, 'Transaction ID').innerText()).trim(), s.transactionId);
  assert.equal((await field(frame, 'Hash').innerText()).trim(), s.hash);
  assert.equal(
    await page
      .locator('.tabs-container .tab')
      .filter({ hasText: /^Transaction / })
      .count(),
    2,
    'a panel per reference',
  );
});

test("Inspector: the deep revert's failing frames are marked; Collapse all, Go to failure, keyboard, Expand all", async ({
  page,
  ctx,
}) => {
  const s = (await scenarios(ctx)).inspectorDeepRevert;
  await noEditors(page);
  const frame = await inspectByCommand(page, s.transactionId, s.transactionId, { paste: true });
  await settled(page, frame);
  const tree = frame.locator('[role=tree]');
  assert.equal(await tree.getAttribute('aria-label'), 'Call trace');
  let rows = await traceRows(frame);
  assert.equal(rows.length, s.actions);
  // the failure: the deepest failing frame (action 4, depth 2) and the frames it bubbled up through
  assert.deepEqual(
    rows.filter((r) => r.failed).map((r) => r.row),
    [0, 3, s.failingAction],
  );
  assert.deepEqual(
    rows.filter((r) => r.onpath).map((r) => r.row),
    [0, 3, s.failingAction],
  );
  assert.deepEqual(
    rows.map((r) => r.level),
    [1, 2, 2, 2, 3],
  );
  for (const r of rows.filter((x) => x.failed)) assert.match(r.label, /, failed/);
  assert.equal(await frame.locator(`#tr-${s.failingAction} .codicon-error`).count(), 1);
  assert.match(rows[s.failingAction].text, /Ledger: amount too large/);
  assert.match(rows[3].text, /DELEGATECALL/);
  assert.match(rows[2].label, /PRNG|0x0*169|0\.0\.361/, 'the PRNG system contract');
  // a failed transaction opens on its failure, selected
  assert.ok(rows[s.failingAction].selected, 'the deepest failure selected at open');
  const details = frame.locator('.tdetails');
  // the heading's parts are flex items (innerText would put line breaks between them)
  const head = async () => (await details.locator('.details-head').textContent()).replace(/\s+/g, ' ').trim();
  assert.match(
    await head(),
    new RegExp(`Frame ${s.failingAction + 1} of ${s.actions} · action ${s.failingAction} · depth 2`),
  );
  // big integers in the failing frame's decoded call: every digit
  assert.match(await details.innerText(), /1500000000000000000000000/);
  // the reason's colour is the theme's error colour, not the text colour
  const [bad, normal] = await frame
    .locator(`#tr-${s.failingAction} .tresult`)
    .evaluate((el) => [getComputedStyle(el).color, getComputedStyle(document.body).color]);
  assert.notEqual(bad, normal, 'the failing result in the error colour');
  await frame.locator('#s-trace').scrollIntoViewIfNeeded();
  await frame.locator('nav.nav .nav-item', { hasText: 'Call trace' }).click();
  await calm(page);
  await screenshot(page, 'inspector-trace-deep-revert', { readme: true });

  // Collapse all: the root alone
  await frame.locator('.trace-toolbar button', { hasText: 'Collapse all' }).click();
  await until(page, async () => (await traceRows(frame)).length === 1, 'only the root frame');
  assert.equal(await tree.getAttribute('aria-rowcount'), '1');
  assert.equal((await traceRows(frame))[0].expanded, 'false');
  // Go to failure: revealed, selected, active, the tree focused
  await frame.locator('.trace-toolbar button', { hasText: 'Go to failure' }).click();
  await until(page, async () => (await traceRows(frame)).length === s.actions, 'the failure revealed');
  assert.equal(await activeRow(frame), `tr-${s.failingAction}`);
  assert.ok((await traceRows(frame))[s.failingAction].selected);
  assert.ok(await tree.evaluate((el) => document.activeElement === el), 'the tree has the focus');
  // keyboard: Home, Down, End; Left moves to the parent, Left again collapses it, Right expands, Right goes to the child
  await tree.press('Home');
  assert.equal(await activeRow(frame), 'tr-0');
  await tree.press('ArrowDown');
  assert.equal(await activeRow(frame), 'tr-1');
  await tree.press('Enter');
  await until(page, async () => /Frame 2 of /.test(await head()), 'frame 2 selected');
  await tree.press('End');
  assert.equal(await activeRow(frame), `tr-${s.failingAction}`);
  await tree.press('ArrowLeft');
  assert.equal(await activeRow(frame), 'tr-3');
  await tree.press('ArrowLeft');
  await until(
    page,
    async () => (await tree.getAttribute('aria-rowcount')) === String(s.actions - 1),
    'the DELEGATECALL collapsed',
  );
  assert.equal((await traceRows(frame)).find((r) => r.row === 3).expanded, 'false');
  await tree.press('ArrowRight');
  await until(page, async () => (await tree.getAttribute('aria-rowcount')) === String(s.actions), 'expanded again');
  await tree.press('ArrowRight');
  assert.equal(await activeRow(frame), `tr-${s.failingAction}`);
  await tree.press('Enter');
  await until(
    page,
    async () => new RegExp(`Frame ${s.failingAction + 1} of `).test(await head()),
    'the failure selected by keyboard',
  );
  // Collapse all, then Expand all: every frame again
  await frame.locator('.trace-toolbar button', { hasText: 'Collapse all' }).click();
  await until(page, async () => (await traceRows(frame)).length === 1, 'collapsed');
  await frame.locator('.trace-toolbar button', { hasText: 'Expand all' }).click();
  await until(page, async () => (await traceRows(frame)).length === s.actions, 'expanded');
  rows = await traceRows(frame);
  assert.ok(rows.filter((r) => r.expanded !== null).every((r) => r.expanded === 'true'));
});

/** The 1-based line of the one line of the test workspace's contracts/inspector/<file> that contains `needle`. */
function lineOf(ctx, file, needle) {
  const lines = fs.readFileSync(path.join(ctx.workspace, 'contracts', 'inspector', file), 'utf8').split('\n');
  const hits = lines.map((l, i) => (l.includes(needle) ? i + 1 : 0)).filter(Boolean);
  assert.equal(hits.length, 1, `"${needle}" is on exactly one line of ${file}`);
  return hits[0];
}

/**
 * What the active editor draws on a line (1-based; on screen): the classes and background of the whole-line
 * decorations behind it (`.view-overlays`), its text and the text drawn after it (the decorations' `::after`).
 */
/** Waits until `line` of the active editor is marked as a revert (and `also` holds of its drawing); its drawing. */
async function markedLine(page, line, also = () => true) {
  let drawn;
  await until(
    page,
    async () => {
      drawn = await editorLine(page, line);
      return !!drawn && drawn.backgrounds.some((b) => /\bced-/.test(b.cls)) && also(drawn);
    },
    () => `line ${line} marked (${JSON.stringify(drawn)})`,
  );
  return drawn;
}

async function editorLine(page, line) {
  return page.evaluate((n) => {
    const editor = document.querySelector('.editor-group-container.active .editor-instance .monaco-editor');
    if (!editor) return undefined;
    const number = [...editor.querySelectorAll('.margin-view-overlays > div')].find(
      (d) => d.querySelector('.line-numbers')?.textContent.trim() === String(n),
    );
    if (!number) return undefined;
    const top = number.style.top;
    const overlay = [...editor.querySelectorAll('.view-overlays > div')].find((d) => d.style.top === top);
    const view = [...editor.querySelectorAll('.view-lines > .view-line')].find((d) => d.style.top === top);
    const transparent = (c) => c === 'rgba(0, 0, 0, 0)' || c === 'transparent';
    return {
      backgrounds: [...(overlay?.children ?? [])]
        .map((c) => ({ cls: c.className, bg: getComputedStyle(c).backgroundColor }))
        .filter((c) => !transparent(c.bg)),
      text: (view?.textContent ?? '').replace(/\u00a0/g, ' '), // the editor draws spaces as no-break spaces
      after: [...(view?.querySelectorAll('span') ?? [])]
        .map((sp) => getComputedStyle(sp, '::after').content)
        .filter((c) => c && c !== 'none' && c !== 'normal')
        .join(''),
      others: [...editor.querySelectorAll('.view-overlays > div')].filter(
        (d) => d !== overlay && [...d.children].some((c) => /\bced-/.test(c.className)),
      ).length,
    };
  }, line);
}

test('Inspector: Go to revert from the Source section opens Ledger.sol at its require, the line marked with the reason (README screenshot)', async ({
  page,
  ctx,
}) => {
  const s = (await scenarios(ctx)).inspectorDeepRevert;
  await noEditors(page);
  const frame = await inspectByCommand(page, s.transactionId, s.transactionId, { paste: true });
  await settled(page, frame);
  // the exact call stack: the Ledger's require, the library's call of the Ledger, the Vault's call of the library
  const source = frame.locator('#s-source');
  assert.equal((await source.locator('.badge.exact').innerText()).trim(), 'Exact');
  const require = lineOf(ctx, 'Ledger.sol', '"Ledger: amount too large"');
  const places = await source
    .locator('ol.source-frames > li .source-where')
    .evaluateAll((els) => els.map((e) => e.textContent.replace(/\s+/g, ' ').trim()));
  assert.equal(places.length, 3, JSON.stringify(places));
  assert.match(places[0], new RegExp(`reverted in Ledger contracts/inspector/Ledger\\.sol:${require}$`));
  assert.match(
    places[1],
    new RegExp(
      `called from Accounting contracts/inspector/Accounting\\.sol:${lineOf(ctx, 'Accounting.sol', 'ledger.record(to, amount);')}$`,
    ),
  );
  assert.match(
    places[2],
    new RegExp(
      `called from Vault contracts/inspector/Vault\\.sol:${lineOf(ctx, 'Vault.sol', 'left = Accounting.settle(')}$`,
    ),
  );
  await source.scrollIntoViewIfNeeded();
  await source.locator('button', { hasText: 'Go to revert' }).click();
  // Ledger.sol opens beside nothing else: its tab active, the cursor on the require
  await cursorOn(page, 'Ledger.sol', require);
  const drawn = await markedLine(page, require, (d) => d.after.includes('Ledger: amount too large'));
  assert.match(drawn.text, /require\(amount <= 1e24, "Ledger: amount too large"\);/);
  assert.match(drawn.after, /⟵ Ledger: amount too large/);
  assert.equal(drawn.others, 0, 'no other line marked');
  const before = await editorLine(page, require - 1);
  assert.ok(before && !before.backgrounds.some((b) => /\bced-/.test(b.cls)), 'the line above is not marked');
  // the mouse on the editor's empty lower half (the status bar's middle is the cursor position here: its tooltip)
  await page.mouse.move(900, 700);
  await noHover(page);
  const file = await screenshot(page, 'revert-to-source', { readme: true });
  assert.ok(fs.statSync(file).size > 10_000);
  await runCommand(page, 'Hedera: Clear Revert Marks');
  await until(
    page,
    async () => {
      const now = await editorLine(page, require);
      return now && !now.backgrounds.some((b) => /\bced-/.test(b.cls)) && !now.after.includes('Ledger');
    },
    'the mark cleared',
  );
});

/** The Source section's places as drawn: what each says (kind, contract, file:line), its snippet and its detail. */
async function sourcePlaces(frame) {
  return frame.locator('#s-source ol.source-frames > li').evaluateAll((els) =>
    els.map((li) => ({
      where: li.querySelector('.source-where')?.textContent.replace(/\s+/g, ' ').trim() ?? '',
      snippet: li.querySelector('.source-snippet')?.textContent.trim() ?? '',
      detail: li.querySelector(':scope > .muted')?.textContent.trim() ?? '',
      link: !!li.querySelector('.source-where button.link'),
    })),
  );
}

/** The color theme picked from "Preferences: Color Theme" (`label` exactly; undefined: the one active now, kept). */
async function pickTheme(page, label) {
  await runCommand(page, 'Preferences: Color Theme');
  const rows = page.locator('.quick-input-widget .quick-input-list .monaco-list-row');
  await rows.first().waitFor({ timeout: T });
  const current = (
    await page
      .locator('.quick-input-widget .quick-input-list .monaco-list-row.focused .label-name')
      .first()
      .textContent({ timeout: T })
  ).trim();
  if (label === undefined || label === current) await page.keyboard.press(label === undefined ? 'Escape' : 'Enter');
  else
    await rows
      .filter({ has: page.locator('.label-name', { hasText: new RegExp(`^\\s*${label}\\s*$`) }) })
      .first()
      .click({ timeout: T });
  await page.locator('.quick-input-widget').waitFor({ state: 'hidden', timeout: T });
  return current;
}

/**
 * Screenshots of the page in a dark and a light theme (picked as a user does; the theme active before is picked
 * again at the end, so the next tests look as before).
 */
async function darkAndLight(page, frame, name) {
  const before = await pickTheme(page, undefined);
  try {
    for (const [kind, label] of [
      ['dark', 'Dark Modern'],
      ['light', 'Light Modern'],
    ]) {
      await pickTheme(page, label);
      await frame.locator(`body.vscode-${kind}`).waitFor({ state: 'attached', timeout: T });
      await calm(page);
      // a theme picked may activate extensions for a moment: their progress gone from the status bar for a second first
      let quiet = 0;
      await until(
        page,
        async () => {
          const busy = /Activating Extensions/.test(
            await page
              .locator('.part.statusbar')
              .innerText()
              .catch(() => ''),
          );
          quiet = busy ? 0 : quiet || Date.now();
          return quiet > 0 && Date.now() - quiet >= 1000;
        },
        'no extension activating',
      );
      await screenshot(page, `${name}-${kind}`);
    }
  } finally {
    await pickTheme(page, before);
  }
}

/** The Source section on screen: its navigation entry clicked, the mouse out of the way. */
async function showSource(page, frame) {
  await frame.locator('nav.nav .nav-item', { hasText: 'Source' }).click();
  await frame.locator('#s-source').scrollIntoViewIfNeeded();
  await calm(page);
}

test("Inspector: a failed deployment's Source section places the revert in the Ledger's constructor, exact; its link opens the line (dark and light)", async ({
  page,
  ctx,
}) => {
  const s = (await scenarios(ctx)).inspectorCreateRevert;
  await noEditors(page);
  const frame = await inspectByCommand(page, s.transactionId, s.transactionId, { paste: true });
  const sections = await settled(page, frame);
  assert.deepEqual(
    sections.map((x) => x.state),
    READY,
    JSON.stringify(sections),
  );
  const source = frame.locator('#s-source');
  assert.equal((await source.locator('.badge.exact').innerText()).trim(), 'Exact');
  assert.match(await source.locator('.source-head').innerText(), /NotAContract\(/);
  const line = lineOf(ctx, 'Ledger.sol', 'revert NotAContract(vault_);');
  const places = await sourcePlaces(frame);
  assert.equal(places.length, 1, JSON.stringify(places));
  // the place is in the constructor: the deployment's code, not the Ledger's (it never ran)
  assert.match(
    places[0].where,
    new RegExp(`^reverted in the constructor of Ledger contracts/inspector/Ledger\\.sol:${line}$`),
    JSON.stringify(places),
  );
  assert.match(places[0].detail, /^a failed deployment: in its constructor · NotAContract\(/, JSON.stringify(places));
  assert.match(places[0].snippet, /NotAContract\(vault_\)/);
  assert.ok(places[0].link, 'the place opens');
  await showSource(page, frame);
  await darkAndLight(page, frame, 'inspector-source-failed-deployment');
  // the place opens Ledger.sol at the constructor's revert
  await source.locator('ol.source-frames > li .source-where button.link').first().click();
  await cursorOn(page, 'Ledger.sol', line);
  const drawn = await markedLine(page, line);
  assert.match(drawn.text, /revert NotAContract\(vault_\);/);
  await runCommand(page, 'Hedera: Clear Revert Marks');
});

test('Inspector: a revert two internal calls deep: the Source section names the internal calls that led to the require, each opening its line (dark and light)', async ({
  page,
  ctx,
}) => {
  const s = (await scenarios(ctx)).inspectorInternalRevert;
  await noEditors(page);
  const frame = await inspectByCommand(page, s.transactionId, s.transactionId, { paste: true });
  const sections = await settled(page, frame);
  assert.deepEqual(
    sections.map((x) => x.state),
    READY,
    JSON.stringify(sections),
  );
  const source = frame.locator('#s-source');
  assert.equal((await source.locator('.badge.exact').innerText()).trim(), 'Exact');
  assert.match(await source.locator('.source-head').innerText(), /Vault: move exceeds balance/);
  const lines = [
    lineOf(ctx, 'Vault.sol', '"Vault: move exceeds balance"'),
    lineOf(ctx, 'Vault.sol', '_debit(from, amount);'),
    lineOf(ctx, 'Vault.sol', '_move(msg.sender, to, amount);'),
  ];
  const places = await sourcePlaces(frame);
  assert.equal(places.length, 3, JSON.stringify(places));
  // the require, then the internal calls that led there, innermost first (one frame of the call trace: the Vault's)
  assert.deepEqual(
    places.map((p) => p.where),
    [
      `reverted in Vault contracts/inspector/Vault.sol:${lines[0]}`,
      `called from Vault contracts/inspector/Vault.sol:${lines[1]}`,
      `called from Vault contracts/inspector/Vault.sol:${lines[2]}`,
    ],
  );
  assert.deepEqual(
    places.map((p) => p.detail),
    ['Vault: move exceeds balance', 'internal call', 'internal call'],
  );
  assert.deepEqual(
    places.map((p) => p.snippet),
    ['require(amount <= held, "Vault: move exceeds balance")', '_debit(from, amount)', '_move(msg.sender, to, amount)'],
  );
  assert.ok(
    places.every((p) => p.link),
    'every place opens',
  );
  await showSource(page, frame);
  await darkAndLight(page, frame, 'inspector-source-internal-calls');
  // each place opens its line of Vault.sol, marked
  for (const [i, line] of lines.entries()) {
    await source.locator('ol.source-frames > li').nth(i).locator('.source-where button.link').click();
    await cursorOn(page, 'Vault.sol', line);
    const drawn = await markedLine(page, line);
    assert.ok(drawn.text.includes(places[i].snippet), `${drawn.text} holds ${places[i].snippet}`);
    // back to the inspector's tab for the next place
    await page.locator('.tabs-container .tab', { hasText: s.transactionId }).click();
    await frame.locator('#s-source').waitFor({ timeout: T });
  }
  await runCommand(page, 'Hedera: Clear Revert Marks');
});

test('Inspector: a 404 on the actions says there is no call trace, the other sections still show; once in a light theme', async ({
  page,
  ctx,
}) => {
  const s = (await scenarios(ctx)).inspectorEthereum;
  await noEditors(page);
  await sandbox(ctx, '/__sandbox/faults', {
    path: `/api/v1/contracts/results/${s.transactionId}/actions`,
    times: 1,
    fault: { status: 404 },
  });
  try {
    const frame = await inspectByCommand(page, s.transactionId, s.transactionId, { paste: true });
    const sections = await settled(page, frame);
    assert.deepEqual(
      sections.map((x) => x.state),
      ['ready', 'ready', 'missing', 'ready', 'ready', 'ready'],
      JSON.stringify(sections),
    );
    const trace = frame.locator('#s-trace .banner');
    assert.match(await trace.innerText(), /no call trace/i);
    assert.equal(await frame.locator('#s-trace [role=tree] [role=treeitem]').count(), 0);
    assert.equal((await field(frame, 'Transaction ID').innerText()).trim(), s.transactionId);
    assert.ok((await frame.locator('#s-events article.card.event').count()) >= 1);
    await frame.locator('nav.nav .nav-item', { hasText: 'Call trace' }).click();
    await calm(page);
    await screenshot(page, 'inspector-actions-404');

    // the same page in a light theme (the user settings file; the runner puts it back)
    const settingsFile = path.join(ctx.profile.userDataDir, 'User', 'settings.json');
    const settings = JSON.parse(fs.readFileSync(settingsFile, 'utf8') || '{}');
    // (the theme ids of VS Code 1.139's theme-defaults: "Light Modern", "Dark Modern", "Light 2026", "Dark 2026")
    fs.writeFileSync(settingsFile, JSON.stringify({ ...settings, 'workbench.colorTheme': 'Light Modern' }, null, 2));
    await frame.locator('body.vscode-light').waitFor({ state: 'attached', timeout: T });
    const bg = await frame.locator('body').evaluate((el) => getComputedStyle(el).backgroundColor);
    const rgb = bg.match(/\d+/g).slice(0, 3).map(Number);
    assert.ok(
      rgb.every((c) => c > 200),
      `a light background: ${bg}`,
    );
    await frame.locator('nav.nav .nav-item', { hasText: 'Overview' }).click();
    await overviewShown(page, frame);
    await screenshot(page, 'inspector-overview-light');
  } finally {
    await sandbox(ctx, '/__sandbox/faults', undefined, 'DELETE');
  }
});

/** The newest DAO vote (Vote­Cast with a reason string) whose hostile text is the `html` payload (index 3 of 12). */
async function htmlVote(ctx) {
  let next = '/api/v1/contracts/results?limit=100';
  for (let i = 0; i < 10 && next; i++) {
    const page = await sandbox(ctx, next);
    const hit = page.results.find(
      (r) =>
        r.function_parameters.startsWith('0x56781388') &&
        r.error_message === null &&
        BigInt(r.timestamp.replace('.', '')) % 12n === 3n,
    );
    if (hit) return hit;
    next = page.links.next;
  }
  throw new Error('no DAO vote with the html payload in the first pages');
}

test('Inspector: hostile text in a revert reason and an event is shown as text and never runs; big integers keep every digit', async ({
  page,
  ctx,
}) => {
  await noEditors(page);
  const dialogs = [];
  page.on('dialog', (d) => {
    dialogs.push(d.message());
    d.dismiss().catch(() => {});
  });
  const html = '<script>alert(1)</script><img src=x onerror=alert(2)>';
  await sandbox(ctx, '/__sandbox/hostile', { families: ['text', 'bigint'] });
  try {
    const notable = (await sandbox(ctx, '/__sandbox/hostile')).notable.contractResults;
    const revert = notable.find((r) => r.payload === 'html' && r.field === 'error_message (Error(string))');
    assert.ok(revert, JSON.stringify(notable));
    let frame = await inspectByCommand(page, revert.timestamp, revert.timestamp, { paste: true });
    await settled(page, frame);
    const reason = frame.locator('#s-overview .error-text');
    assert.ok((await reason.innerText()).includes(html), await reason.innerText());
    assert.ok((await reason.innerText()).includes('<a href='), 'the link markup as text');
    // the trace's failing frame carries the same text, as text
    assert.ok((await frame.locator('.tdetails').innerText()).includes(html));
    // a value past 2^63 - 1 tinybars in the amount (bigint family): every digit
    assert.match(await field(frame, 'Value').innerText(), /9223372036854775807/);
    assert.equal(
      await frame.locator('#app img, #app script, #app a, #app iframe').count(),
      0,
      'no element from the text',
    );
    await frame.locator('nav.nav .nav-item', { hasText: 'Overview' }).click();
    await calm(page);
    await screenshot(page, 'inspector-hostile-revert');

    // a vote whose reason string (an event argument, decoded with the workspace's TreasuryDAO ABI) is the same text
    const vote = await htmlVote(ctx);
    frame = await inspectByCommand(page, vote.timestamp, vote.timestamp, { paste: true });
    await settled(page, frame);
    const card = frame.locator('#s-events article.card.event', {
      has: frame.locator('.card-head .fn', { hasText: /^VoteCast$/ }),
    });
    await card.waitFor({ timeout: T });
    const reasonRow = card.locator('table.values tbody tr', { has: frame.locator('td.vtype', { hasText: /^string/ }) });
    assert.ok((await reasonRow.innerText()).includes(html), await card.innerText());
    assert.equal(await frame.locator('#app img, #app script, #app a, #app iframe').count(), 0);
    await card.scrollIntoViewIfNeeded();
    await calm(page);
    await screenshot(page, 'inspector-hostile-event');
    assert.deepEqual(dialogs, [], 'no alert ran'); // and none can come: no element was made from the text (above)
  } finally {
    await sandbox(ctx, '/__sandbox/hostile', undefined, 'DELETE');
  }
});

test.fresh(); // the extension remembers the opcodes endpoint's refusal: a new page before and after
test('Go to Revert from the palette when the mirror node gives no opcode trace: the likely line of the library, marked, said to be likely', async ({
  page,
  ctx,
}) => {
  const s = (await scenarios(ctx)).inspectorLibraryRevert;
  await noEditors(page);
  // a mirror node with the opcodes endpoint off, and no local replay
  await sandbox(ctx, '/__sandbox/opcodes', { enabled: false });
  const settingsFile = path.join(ctx.workspace, '.vscode', 'settings.json');
  const original = fs.readFileSync(settingsFile, 'utf8');
  await writeSettings(page, settingsFile, { ...JSON.parse(original), 'hederaExplorer.replay.mode': 'never' });
  try {
    await runCommand(page, 'Hedera: Go to Revert…');
    const input = page.locator('.quick-input-widget .quick-input-box input');
    await input.waitFor({ timeout: T });
    await input.fill(s.transactionId);
    await page.keyboard.press('Enter'); // the value is validated before it is taken
    const revert = lineOf(ctx, 'Accounting.sol', 'revert SettlementExceedsBalance(');
    await activeTab(page, 'Accounting.sol');
    const drawn = await markedLine(page, revert);
    assert.match(drawn.text, /revert SettlementExceedsBalance\(/);
    assert.equal(drawn.others, 0, 'no other line marked');
    // said to be likely, not exact
    await until(
      page,
      async () =>
        (await page.locator('.notifications-toasts .notification-toast').allInnerTexts()).some((t) =>
          /Likely location/.test(t),
        ),
      'the "likely" notification',
    );
    await screenshot(page, 'revert-to-source-likely');
    await runCommand(page, 'Hedera: Clear Revert Marks');
  } finally {
    await sandbox(ctx, '/__sandbox/opcodes', { enabled: true });
    await writeSettings(page, settingsFile, JSON.parse(original)).catch(() => {});
  }
});

test.fresh();
test("Inspector on a mirror node without opcode traces: the deep revert replayed locally, 'matches the network's record', exact; Go to revert opens the Ledger's require", async ({
  page,
  ctx,
}) => {
  const s = (await scenarios(ctx)).inspectorDeepRevert;
  await noEditors(page);
  await sandbox(ctx, '/__sandbox/opcodes', { enabled: false });
  try {
    const frame = await inspectByCommand(page, s.transactionId, s.transactionId, { paste: true });
    await settled(page, frame);
    const source = frame.locator('#s-source');
    await source.locator('.source-trace').waitFor({ timeout: T });
    assert.equal(
      (await source.locator('.source-trace').innerText()).trim(),
      `Replayed locally · matches the network's record (${s.actions} of ${s.actions} calls)`,
    );
    assert.equal((await source.locator('.badge.exact').innerText()).trim(), 'Exact');
    assert.match(
      await source.locator('.badge.exact').getAttribute('title'),
      /local replay checked against the network's record/,
    );
    const require = lineOf(ctx, 'Ledger.sol', '"Ledger: amount too large"');
    const places = await sourcePlaces(frame);
    assert.equal(places.length, 3, JSON.stringify(places));
    assert.match(places[0].where, new RegExp(`reverted in Ledger contracts/inspector/Ledger\\.sol:${require}$`));
    assert.match(
      await source.innerText(),
      /does not give opcode traces \(HTTP 404.*\); the transaction was replayed locally instead/,
    );
    await source.scrollIntoViewIfNeeded();
    await noHover(page);
    await screenshot(page, 'inspector-source-replayed');
    const go = source.locator('button', { hasText: 'Go to revert' });
    assert.match(await go.getAttribute('title'), /Replayed locally · matches/);
    await go.click();
    await cursorOn(page, 'Ledger.sol', require);
    const drawn = await markedLine(page, require);
    assert.match(drawn.text, /require\(amount <= 1e24, "Ledger: amount too large"\);/);
    await page.mouse.move(900, 700);
    await noHover(page);
    await screenshot(page, 'revert-to-source-replayed');
    await runCommand(page, 'Hedera: Clear Revert Marks');
  } finally {
    await sandbox(ctx, '/__sandbox/opcodes', { enabled: true });
  }
});
