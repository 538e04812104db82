// The extension as VS Code for the web runs it (vscode.dev, github.dev): in the browser's web worker extension host,
// from its `browser` entry (dist/web/extension.js), every request made by the browser itself. A code-server of its
// own with the run's .vsix, told to run the extension on the web side (`remote.extensionKind`: ui; an extension with
// a browser entry then runs in the worker host). The sandbox answers browsers with CORS, as the real mirror node and
// Sourcify do. What only the browser transport does is checked here: a redirect to another origin is refused with
// the browser's own sentence, and an answer past the size cap is refused while it is read. Then each feature in that
// host, on the server's own copy of the workspace (its files seen by the worker as vscode-remote: URIs, as github.dev's
// are vscode-vfs: ones): the inspector, Go to Revert, NFT history, hovers, CodeLens, Verify, the debugger, Call
// Contract, and the sentence that says a build held as input only cannot be compiled there; each test a new page (a
// new worker host) on the one server.
import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import { EXTENSION_ID } from '../harness/paths.mjs';
import {
  cursorOn,
  closeEditors,
  contextMenu,
  extensionReady,
  lensTexts,
  lineOf,
  openContainer,
  openFile,
  openNftHistory,
  ownCodeServer,
  pickContextMenu,
  runCommand,
  sandbox,
  screenshot,
  soloView,
  statusBarTexts,
  stoppedAt,
  treeRow,
  treeRows,
  until,
  viewAction,
  waitForWorkbench,
  webview,
} from './driver.mjs';
import { test } from './runner.mjs';

const T = 20000;
const LEDGER_FILE = 'ledger-ids.md';

/**
 * The code-server every test of this file opens (started by the first that runs, stopped with the run): the
 * extension told to run on the web side, Verify through the sandbox's Sourcify (no key), a Markdown file of the
 * sandbox's ids in the workspace before the server starts (quick open lists it).
 */
let shared;
function webServer(ctx) {
  shared ??= (async () => {
    const notable = (await sandbox(ctx, '/__sandbox/health')).notable;
    const deep = notable.inspector.inspectorDeepRevert;
    const own = await ownCodeServer(ctx, 'hedera-e2e-web', {
      settings: {
        'remote.extensionKind': { [EXTENSION_ID]: ['ui'] },
        'hederaExplorer.verify.api': 'sourcify-v2',
      },
      workspace: (dir) =>
        fs.writeFileSync(
          path.join(dir, LEDGER_FILE),
          `# Deployed on the sandbox\n\nThe vault ${deep.contractId} failed in ${deep.transactionId}.\n`,
        ),
    });
    return { ...own, origin: new URL(own.server.url).origin };
  })();
  return shared;
}

/**
 * A new page on the shared server with empty browser storage (no editor or panel of the last test restored), its
 * workbench loaded, the Hedera side bar opened and the extension started; the worker host is known by the web worker
 * the page started.
 */
async function openWebHost(page, ctx) {
  const web = await webServer(ctx);
  const workers = [];
  page.on('worker', (w) => workers.push(w.url()));
  await page.goto(new URL('/healthz', web.server.url).href);
  await page.evaluate(async () => {
    globalThis.localStorage.clear();
    for (const d of await globalThis.indexedDB.databases())
      await new Promise((resolve, reject) => {
        const r = globalThis.indexedDB.deleteDatabase(d.name);
        r.onsuccess = resolve;
        r.onerror = () => reject(r.error);
        r.onblocked = () => reject(new Error(`IndexedDB ${d.name} still open`));
      });
  });
  await page.goto(web.server.url);
  await waitForWorkbench(page);
  await openContainer(page, 'Hedera');
  await extensionReady(page);
  await until(page, async () => workers.length >= 1, 'a web worker (the worker extension host)');
  return web;
}

/** The sandbox requests whose path matches `re` sent by the page (its Origin: a Node extension host sends none). */
async function fromPage(ctx, web, re) {
  return (await sandbox(ctx, '/__sandbox/requests')).filter((r) => re.test(r.url) && r.headers.origin === web.origin);
}

/** The inspector page showing `ref` in its header, once its script ran. */
async function inspectorFrame(page, ref) {
  const frames = page.locator('iframe.webview.ready');
  return until(
    page,
    async () => {
      for (let i = 0; i < (await frames.count()); i++) {
        const inner = frames.nth(i).contentFrame().locator('iframe#active-frame').contentFrame();
        const title = await inner
          .locator('#app[data-ready="true"] h1.title')
          .textContent({ timeout: 300 })
          .catch(() => '');
        if (title.includes(ref)) return inner;
      }
      return undefined;
    },
    `the inspector page of ${ref}`,
    60000,
  );
}

/** Runs a palette command that asks for one value, and gives it. */
async function commandWith(page, title, value) {
  await runCommand(page, title);
  const input = page.locator('.quick-input-widget .quick-input-box input');
  await input.waitFor({ timeout: T });
  await input.fill(value);
  await page.keyboard.press('Enter'); // the value is validated before it is taken
  await page.locator('.quick-input-widget').waitFor({ state: 'hidden', timeout: T });
}

test.blank(); // its own code-server
test('Web host: the browser build runs in the web worker extension host; the browser makes every request; a foreign redirect and an oversized answer are refused', async ({
  page,
  ctx,
}) => {
  assert.ok(ctx.sandboxUrl, 'the sandbox runs');
  const { server } = await webServer(ctx);
  const workerHosts = [];
  page.on('worker', (w) => workerHosts.push(w.url()));
  await sandbox(ctx, '/__sandbox/requests', undefined, 'DELETE');
  await page.goto(server.url);
  await waitForWorkbench(page);
  await openContainer(page, 'Hedera');
  await soloView(page, 'Contract Results');
  await until(
    page,
    async () => (await treeRows(page, 'Contract Results')).some((r) => /^\d{4}-\d\d-\d\d /.test(r.label)),
    'contract result rows',
  );
  // the workspace's deployment records read through vscode.workspace.fs (no Node fs in the worker)
  await soloView(page, 'Deployments');
  await until(
    page,
    async () => (await treeRows(page, 'Deployments')).some((r) => /^Vault\b/.test(r.label)),
    'the Vault deployment row',
  );
  await until(page, async () => (await statusBarTexts(page)).some((t) => /Hedera/.test(t)), 'the status bar item');

  // who asked: the browser (its User-Agent, the page's Origin, as CORS sends it), not the extension's Node client
  const origin = new URL(server.url).origin;
  const asked = (await sandbox(ctx, '/__sandbox/requests', undefined, 'GET')).filter((r) =>
    r.url.startsWith('/api/v1/contracts/results'),
  );
  assert.ok(asked.length >= 1, 'Contract Results asked the sandbox');
  for (const r of asked) {
    assert.match(r.headers['user-agent'] ?? '', /Mozilla\/5\.0 .*Chrome/, JSON.stringify(r.headers));
    assert.equal(r.headers.origin, origin, JSON.stringify(r.headers));
  }
  assert.ok(workerHosts.length >= 1, 'a web worker was started (the worker extension host)');
  await screenshot(page, 'web-host');

  // a redirect to another origin: fetch gives an opaque answer; refused, never followed
  await soloView(page, 'Schedules');
  await until(
    page,
    async () => (await treeRows(page, 'Schedules')).some((r) => /^0\.0\.\d+/.test(r.label)),
    'schedule rows',
  );
  await sandbox(ctx, '/__sandbox/hostile', { families: ['redirect'] });
  try {
    await viewAction(page, 'Schedules', 'Refresh');
    await until(
      page,
      async () =>
        (await treeRows(page, 'Schedules')).some((r) =>
          /redirected the request, and the browser does not tell where to/.test(r.label),
        ),
      'the redirect error row',
    );
  } finally {
    await sandbox(ctx, '/__sandbox/hostile', undefined, 'DELETE');
  }
  // an answer past the 32 MiB cap: refused while it is read, said as too large
  await sandbox(ctx, '/__sandbox/faults', { path: '/api/v1/schedules', times: 3, fault: { body: 'oversize' } });
  try {
    await viewAction(page, 'Schedules', 'Refresh');
    await until(
      page,
      async () => (await treeRows(page, 'Schedules')).some((r) => /larger than the allowed size/.test(r.label)),
      'the too-large error row',
    );
    assert.equal(
      await treeRow(page, 'Schedules', /larger than the allowed size/)
        .locator('.codicon-error')
        .count(),
      1,
    );
    await screenshot(page, 'web-host-too-large');
  } finally {
    await sandbox(ctx, '/__sandbox/faults', undefined, 'DELETE');
  }
  await viewAction(page, 'Schedules', 'Refresh');
  await until(
    page,
    async () => (await treeRows(page, 'Schedules')).some((r) => /^0\.0\.\d+/.test(r.label)),
    'schedule rows again',
  );
});

test.blank();
test('Web host: the inspector opens a failed result with its Overview and decoded revert; Go to Revert opens the .sol line', async ({
  page,
  ctx,
}) => {
  const web = await openWebHost(page, ctx);
  const s = (await sandbox(ctx, '/__sandbox/health')).notable.inspector.inspectorDeepRevert;
  await sandbox(ctx, '/__sandbox/requests', undefined, 'DELETE');
  await commandWith(page, 'Hedera: Inspect Transaction…', s.transactionId);
  const frame = await inspectorFrame(page, s.transactionId);
  const overview = frame.locator('#s-overview');
  await overview.locator('.outcome.failure').waitFor({ timeout: T });
  await until(
    page,
    async () =>
      /Ledger: amount too large/.test(
        await overview
          .locator('.error-text')
          .innerText()
          .catch(() => ''),
      ),
    'the decoded revert reason in the Overview',
  );
  // the Source section places the revert in the workspace's Ledger.sol; its link opens the line
  const require = lineOf(web.workspace, 'contracts/inspector/Ledger.sol', '"Ledger: amount too large"');
  const source = frame.locator('#s-source');
  await until(
    page,
    async () => (await source.getAttribute('aria-busy')) === 'false',
    'the Source section drawn',
    60000,
  );
  await page.mouse.move(1000, 880);
  await screenshot(page, 'web-host-inspector');
  assert.match(
    (await source.innerText()).replace(/\s+/g, ' '),
    new RegExp(`reverted in Ledger contracts/inspector/Ledger\\.sol:${require}`),
  );
  assert.ok(
    (await fromPage(ctx, web, /^\/api\/v1\/contracts\/results\//)).length >= 1,
    'the page asked for the result',
  );
  await source.scrollIntoViewIfNeeded();
  await source.locator('button', { hasText: 'Go to revert' }).click();
  await cursorOn(page, 'Ledger.sol', require);

  // Go to Revert from the palette: the same line
  await closeEditors(page);
  await commandWith(page, 'Hedera: Go to Revert…', s.transactionId);
  await cursorOn(page, 'Ledger.sol', require);
  await page.mouse.move(900, 700);
  await screenshot(page, 'web-host-revert');
});

test.blank();
test('Web host: NFT history shows the rows of an NFT', async ({ page, ctx }) => {
  const web = await openWebHost(page, ctx);
  await sandbox(ctx, '/__sandbox/requests', undefined, 'DELETE');
  const frame = await openNftHistory(page, '0.0.4815162', '2');
  await frame.locator('#body [role=row]').first().waitFor({ timeout: T });
  assert.equal(await frame.locator('#body [role=row]').count(), 9);
  assert.match(await frame.locator('#grid').innerText(), /TOKENMINT minted to 0\.0\.\d+/);
  assert.ok((await fromPage(ctx, web, /^\/api\/v1\/tokens\/0\.0\.4815162\/nfts\/2/)).length >= 1);
  await page.mouse.move(700, 850);
  await screenshot(page, 'web-host-nft-history');
});

/** Our hover over `text` in the active editor, once its look-up answered. */
async function hoverOn(page, text) {
  await page.locator('.monaco-editor .view-line .detected-link', { hasText: text }).first().waitFor({ timeout: T });
  const line = page.locator('.editor-instance .monaco-editor .view-line', { hasText: text }).first();
  const p = await line.evaluate((el, t) => {
    const walker = document.createTreeWalker(el, 4 /* NodeFilter.SHOW_TEXT */);
    for (let node = walker.nextNode(); node; node = walker.nextNode()) {
      const i = (node.textContent ?? '').indexOf(t);
      if (i < 0) continue;
      const range = document.createRange();
      range.setStart(node, i);
      range.setEnd(node, i + t.length);
      const b = range.getBoundingClientRect();
      return { x: b.x + b.width / 2, y: b.y + b.height / 2 };
    }
    return undefined;
  }, text);
  assert.ok(p, `${text} on screen`);
  const hover = page.locator('.monaco-editor .monaco-hover .rendered-markdown', { hasText: /· Sandbox/ }).first();
  await page.mouse.move(p.x - 30, p.y + 8);
  await page.mouse.move(p.x, p.y, { steps: 4 });
  await hover.waitFor({ timeout: T });
  return hover;
}

test.blank();
test('Web host: hovers on a contract id and a transaction id in a Markdown file show our links', async ({
  page,
  ctx,
}) => {
  await openWebHost(page, ctx);
  const deep = (await sandbox(ctx, '/__sandbox/health')).notable.inspector.inspectorDeepRevert;
  await closeEditors(page);
  await openFile(page, LEDGER_FILE);
  const contract = await hoverOn(page, deep.contractId);
  assert.match(
    (await contract.innerText()).replace(/\u00a0/g, ' '),
    new RegExp(`^Contract ${deep.contractId.replace(/\./g, '\\.')} · Sandbox`),
  );
  const links = (await contract.locator('a').allInnerTexts()).map((t) => t.trim());
  assert.deepEqual(links, ['Inspect', 'Debug', 'Open in HashScan', 'Show Contract Results', 'Call Contract', 'Copy']);
  await screenshot(page, 'web-host-hover-contract');
  await page.mouse.move(5, 5);
  const tx = await hoverOn(page, deep.transactionId);
  const txText = (await tx.innerText()).replace(/\u00a0/g, ' ');
  assert.match(txText, new RegExp(`^Transaction ${deep.transactionId.replace(/\./g, '\\.')} · Sandbox`));
  assert.match(txText, /Inspect Transaction/);
});

test.blank();
test('Web host: CodeLens on Vault.sol names the contract, its calls and its actions', async ({ page, ctx }) => {
  await openWebHost(page, ctx);
  await closeEditors(page);
  await openFile(page, 'Vault.sol');
  await page.keyboard.press('Control+Home');
  const texts = await lensTexts(
    page,
    (t) => t.length === 5 && /calls/.test(t[0]),
    'the CodeLens of contract Vault',
    60000,
  );
  assert.match(texts[0], /^0\.0\.7001 · \d+ calls, last .+ · not verified$/);
  assert.deepEqual(texts.slice(2), ['Debug', 'Verify', 'Call']);
  await page.mouse.move(1100, 850);
  await screenshot(page, 'web-host-codelens');
});

test.blank();
test("Web host: Verify on a Deployments row verifies on the sandbox's Sourcify", async ({ page, ctx }) => {
  const web = await openWebHost(page, ctx);
  await sandbox(ctx, '/__sandbox/requests', undefined, 'DELETE');
  await openContainer(page, 'Hedera');
  await soloView(page, 'Deployments');
  const row = treeRow(page, 'Deployments', /^Counter\b/);
  await row.waitFor({ timeout: T });
  // the row is drawn before its lookups answer; Verify is offered once it says "not verified"
  await until(
    page,
    async () =>
      (await treeRows(page, 'Deployments')).some(
        (r) => /^Counter\b/.test(r.label) && /not verified/.test(r.description),
      ),
    () => 'the Counter row says it is not verified',
  );
  const menu = await contextMenu(page, 'Deployments', row);
  assert.ok(menu.includes('Verify Contract'), menu.join(', '));
  await pickContextMenu(page, 'Verify Contract');
  await soloView(page, 'Verification');
  await until(
    page,
    async () =>
      (await treeRows(page, 'Verification')).some(
        (r) => r.label === 'Counter' && /verified|match/i.test(r.description),
      ),
    () => 'the Counter row verified in the Verification view',
    60000,
  );
  await page.mouse.move(1200, 800);
  await screenshot(page, 'web-host-verify');
  assert.ok((await fromPage(ctx, web, /^\/v2\/verify\//)).length >= 1, 'the page sent the verification');
});

test.blank();
test('Web host: Debug Transaction starts a hedera session that stops at the revert in Vault.sol; Step Back and Step Over move through the recorded trace', async ({
  page,
  ctx,
}) => {
  const web = await openWebHost(page, ctx);
  const s = (await sandbox(ctx, '/__sandbox/health')).notable.inspector.inspectorInternalRevert;
  const VAULT = 'contracts/inspector/Vault.sol';
  const held = lineOf(web.workspace, VAULT, 'uint256 held = balances[from];');
  const require = lineOf(web.workspace, VAULT, 'require(amount <= held');
  await closeEditors(page);
  await commandWith(page, 'Hedera: Debug Transaction…', s.transactionId);
  await page.locator('.debug-toolbar').waitFor({ timeout: 60000 });
  // no breakpoint: the session stops at the revert, with its reason (the stop moves the focus to the editor: the
  // palette is opened after it, or the stop would close it)
  await until(
    page,
    async () =>
      (await page.locator('.monaco-editor .zone-widget').allTextContents()).join(' ').includes('move exceeds balance'),
    'the exception widget with the revert reason',
    60000,
  );
  // the palette's command shows the view and never toggles it closed (as its activity bar icon would)
  await runCommand(page, 'View: Show Run and Debug');
  await page.locator('.debug-call-stack').waitFor({ timeout: T });
  // two internal calls deep
  const at = (line) => ({ name: 'Vault._debit', file: 'Vault.sol', line });
  const stack = await stoppedAt(page, at(require), 'the revert');
  assert.deepEqual(
    stack.map((f) => f.name),
    ['Vault._debit', 'Vault._move', 'Vault.move'],
  );
  // the workspace's own file (its place in the folder), not the compiled source shown read-only
  assert.match(
    (await page.locator('.part.editor .title .breadcrumbs-control').first().innerText()).replace(/\s+/g, ' '),
    /contracts\W+inspector\W+Vault\.sol/,
  );
  const variables = page.locator('.debug-variables .monaco-list-row');
  let rows = [];
  await until(
    page,
    async () => {
      rows = await variables.evaluateAll((els) => els.map((e) => (e.textContent ?? '').trim()));
      return rows.some((r) => /^Storage/.test(r)) && rows.some((r) => /^EVM/.test(r));
    },
    () => `the Variables view: the frame, storage and EVM scopes (shown: ${JSON.stringify(rows)})`,
  );
  // the Message scope's values: the call's sender and the contract that ran
  const message = page.locator('.debug-variables .monaco-list-row[aria-expanded]', { hasText: /^\s*Message\s*$/ });
  if ((await message.getAttribute('aria-expanded')) !== 'true') await message.click();
  await until(
    page,
    async () => {
      rows = await variables.evaluateAll((els) => els.map((e) => (e.textContent ?? '').trim()));
      return (
        rows.some((r) => /^msg\.sender\s*=\s*0x[0-9a-f]{40}/.test(r)) &&
        rows.some((r) => /^contract\s*=\s*0\.0\.7001$/.test(r))
      );
    },
    () => `the Message scope's values (shown: ${JSON.stringify(rows)})`,
  );
  await page.mouse.move(1100, 850);
  await screenshot(page, 'web-host-debug');

  // Step Back: the statement before, recorded, not re-run; Step Over: the revert's line again
  await page.locator('.debug-toolbar .action-label[aria-label^="Step Back"]').click({ timeout: T });
  await stoppedAt(page, at(held), 'Step Back');
  await page.locator('.debug-toolbar .action-label[aria-label^="Step Over"]').click({ timeout: T });
  await stoppedAt(page, at(require), 'Step Over');
  await page.mouse.move(1100, 850);
  await screenshot(page, 'web-host-debug-step');

  await page.keyboard.press('Shift+F5');
  await page.locator('.debug-toolbar').waitFor({ state: 'hidden', timeout: T });
});

test.blank();
test("Web host: Call Contract opens the contract's panel with the read functions of its ABI, and a Read answers", async ({
  page,
  ctx,
}) => {
  await openWebHost(page, ctx);
  await commandWith(page, 'Hedera: Call Contract…', '0.0.7001');
  const frame = await webview(page, 'Vault');
  const form = frame.locator('section.fn', { has: frame.locator('h3 .name', { hasText: /^compute$/ }) });
  await form.waitFor({ timeout: T });
  assert.match(await frame.locator('body').innerText(), /Call Vault/);
  const read = form.locator('button.primary');
  assert.match(await read.innerText(), /Read/);
  await form.locator('input').first().fill('7');
  await read.click();
  const outcome = form.locator('.outcome.ok');
  await until(
    page,
    async () => (await outcome.count()) > 0 && /Result at the latest block/.test(await outcome.innerText()),
    'the outcome of the Read of compute(7)',
  );
  await page.mouse.move(1100, 850);
  await screenshot(page, 'web-host-call');
});

test.blank();
test('Web host: a deployed build held as its compiler input only is not compiled, and the Source section says why', async ({
  page,
  ctx,
}) => {
  const web = await webServer(ctx);
  const ws = web.workspace;
  // as Hardhat 3's Ignition keeps a build-profile build: its input only, and no compiled build in artifacts/
  const dbg = JSON.parse(
    fs.readFileSync(path.join(ws, 'artifacts/contracts/inspector/Vault.sol/Vault.dbg.json'), 'utf8'),
  );
  const info = JSON.parse(
    fs.readFileSync(path.join(ws, 'artifacts/contracts/inspector/Vault.sol', dbg.buildInfo), 'utf8'),
  );
  const dep = path.join(ws, 'ignition/deployments/chain-296');
  const written = [];
  const moved = [];
  const write = (rel, v) => {
    const f = path.join(dep, rel);
    fs.mkdirSync(path.dirname(f), { recursive: true });
    fs.writeFileSync(f, JSON.stringify(v));
    written.push(f);
  };
  try {
    write(`build-info/${info.id}.json`, {
      _format: 'hh3-sol-build-info-1',
      id: info.id,
      solcVersion: info.solcVersion,
      solcLongVersion: info.solcLongVersion,
      input: info.input,
    });
    for (const name of ['Vault', 'Ledger', 'Accounting'])
      write(`artifacts/InspectorModule#${name}.json`, {
        _format: 'hh3-artifact-1',
        contractName: name,
        sourceName: `contracts/inspector/${name}.sol`,
        abi: [],
        bytecode: '0x',
        deployedBytecode: '0x',
        linkReferences: {},
        deployedLinkReferences: {},
        buildInfoId: info.id,
      });
    for (const rel of ['artifacts/build-info', 'artifacts/contracts']) {
      const from = path.join(ws, rel);
      fs.renameSync(from, `${from}.hidden-by-test`);
      moved.push(from);
    }
    await openWebHost(page, ctx);
    const s = (await sandbox(ctx, '/__sandbox/health')).notable.inspector.inspectorDeepRevert;
    await commandWith(page, 'Hedera: Inspect Transaction…', s.transactionId);
    const frame = await inspectorFrame(page, s.transactionId);
    const source = frame.locator('#s-source');
    await until(
      page,
      async () => /VS Code for the web cannot run a compiler/.test(await source.innerText().catch(() => '')),
      'the sentence saying why the build is not compiled',
      60000,
    );
    assert.match(
      (await source.innerText()).replace(/\s+/g, ' '),
      /holds only the compiler input, and VS Code for the web cannot run a compiler: run npx hardhat build --build-profile production in a desktop VS Code or a terminal/,
    );
    await source.scrollIntoViewIfNeeded();
    await page.mouse.move(1000, 880);
    await screenshot(page, 'web-host-no-compiler');
  } finally {
    for (const f of written.reverse()) fs.rmSync(f, { recursive: true, force: true });
    for (const from of moved) fs.renameSync(`${from}.hidden-by-test`, from);
  }
});
