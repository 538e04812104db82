// Hovers and Ctrl+click links on Hedera references in the browser workbench (the packaged extension in code-server,
// against the sandbox): a TypeScript file of the workspace holding the sandbox's ids (GET /__sandbox/health notable);
// the mouse on a contract id shows the hover widget (kind, results, verification, links), on a transaction id its
// result and decoded call, whose "Inspect Transaction" link opens the inspector; Ctrl+click on a contract id filters
// Contract Results to it, on a transaction id opens the inspector. That text which is no reference gets no hover of
// ours is the integration suite's to check (ledgerLinks.test.ts: the providers' settled answer, no clock).
import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import {
  closeEditors,
  extensionReady,
  openFile,
  outputChannel,
  runCommand,
  sandbox,
  screenshot,
  until,
  viewDescription,
} from './driver.mjs';
import { test } from './runner.mjs';

const T = 20000;
const FILE = 'ledger-ids.ts';

async function writeDemo(ctx) {
  const n = (await sandbox(ctx, '/__sandbox/health')).notable;
  const deep = n.inspector.inspectorDeepRevert;
  const lines = [
    '// Deployed on the sandbox: hover an id, Ctrl+click to follow it',
    `export const VAULT = "${deep.contractId}";`,
    `export const FAILED_DEPOSIT = "${deep.transactionId}";`,
    `export const SUCCESS_HASH = "${n.inspector.inspectorSuccess.hash}";`,
    `export const VAULT_ADDRESS = "${n.inspector.contracts.vault.evm}";`,
    'export const VERSION = "1.0.0.5";',
    '',
  ];
  fs.writeFileSync(path.join(ctx.workspace, FILE), lines.join('\n'));
  return { deep, success: n.inspector.inspectorSuccess };
}

/** The screen point in the middle of `text` in the active editor (measured on its text node: tokens and link decorations split lines into spans). */
async function pointOf(page, text) {
  const line = page.locator('.editor-instance .monaco-editor .view-line', { hasText: text }).first();
  return until(
    page,
    async () =>
      line
        .evaluate((el, t) => {
          const walker = document.createTreeWalker(el, 4 /* NodeFilter.SHOW_TEXT */);
          for (let node = walker.nextNode(); node; node = walker.nextNode()) {
            const i = (node.textContent ?? '').indexOf(t);
            if (i < 0) continue;
            const range = document.createRange();
            range.setStart(node, i);
            range.setEnd(node, i + t.length);
            const b = range.getBoundingClientRect();
            return b.width > 0 ? { x: b.x + b.width / 2, y: b.y + b.height / 2 } : undefined;
          }
          return undefined;
        }, text)
        .catch(() => undefined),
    `${text} on screen`,
  );
}

/** Holds Ctrl over `text` until the editor shows it as a link, then clicks it. */
async function ctrlClick(page, text, shot) {
  // the document's links are there (computed a moment after the file opened)
  await page.locator('.monaco-editor .view-line .detected-link', { hasText: text }).first().waitFor({ timeout: T });
  const p = await pointOf(page, text);
  await page.mouse.move(p.x, p.y);
  await page.keyboard.down('Control');
  try {
    let dx = 0;
    await until(
      page,
      async () => {
        dx = dx ? 0 : 1; // the editor shows a link under Ctrl on a mouse move
        await page.mouse.move(p.x + dx, p.y);
        return (await page.locator('.monaco-editor .view-line .detected-link-active').count()) > 0;
      },
      `${text} shown as a link under Ctrl`,
    );
    if (shot) await screenshot(page, shot);
    await page.mouse.click(p.x, p.y);
  } finally {
    await page.keyboard.up('Control');
  }
}

/** Our hover's rendered Markdown (the row that names the network), once the look-up answered. */
function ourHover(page) {
  return page.locator('.monaco-editor .monaco-hover .rendered-markdown', { hasText: /· Sandbox/ }).first();
}

async function hover(page, text) {
  await page.mouse.move(5, 5);
  await page
    .locator('.monaco-editor .monaco-hover')
    .first()
    .waitFor({ state: 'hidden', timeout: T })
    .catch(() => {});
  // the document's links are there: they arrive a moment after the file opened and redraw the line, which would
  // end a hover begun before them
  await page.locator('.monaco-editor .view-line .detected-link', { hasText: text }).first().waitFor({ timeout: T });
  const p = await pointOf(page, text);
  const h = ourHover(page);
  // as a hand moves: a few steps onto the reference
  await page.mouse.move(p.x - 30, p.y + 8);
  await page.mouse.move(p.x, p.y, { steps: 4 });
  await h.waitFor({ timeout: T }).catch(async (e) => {
    await screenshot(page, `ledger-debug-hover-${text.slice(0, 12)}`);
    const all = await page
      .locator('.monaco-hover')
      .evaluateAll((els) =>
        els.map((el) => `${el.className}|${el.getClientRects().length}|${(el.textContent ?? '').slice(0, 120)}`),
      );
    throw new Error(`${e.message.split('\n')[0]} at ${JSON.stringify(p)}; hovers: ${JSON.stringify(all)}`);
  });
  return h;
}

// a new page: quick open of a reused page may answer from a file list read before the file was written
test.fresh();
test('Ledger hovers: a contract id, a transaction id, an EVM address and a hash in a TypeScript file show what they are on the sandbox; Inspect Transaction from the hover', async ({
  page,
  ctx,
}) => {
  const { deep } = await writeDemo(ctx);
  try {
    await extensionReady(page);
    await closeEditors(page);
    await openFile(page, FILE);

    const contract = await hover(page, deep.contractId);
    const text = (await contract.innerText()).replace(/\u00a0/g, ' ');
    assert.match(text, new RegExp(`^Contract ${deep.contractId.replace(/\./g, '\\.')} · Sandbox`));
    assert.match(text, /EVM address: 0x[0-9a-f]{40}/);
    assert.match(text, /Verification: (✓ verified on Sourcify|not verified on Sourcify)/);
    assert.match(text, /Latest results: \d+ ✓ · \d+ ✗ in the latest \d+/);
    const links = (await contract.locator('a').allInnerTexts()).map((t) => t.trim());
    assert.deepEqual(links, ['Inspect', 'Debug', 'Open in HashScan', 'Show Contract Results', 'Call Contract', 'Copy']);
    // the command links point at our commands only (VS Code keeps the command in data-href)
    const hrefs = await contract
      .locator('a')
      .evaluateAll((as) => as.map((a) => a.getAttribute('data-href') ?? a.getAttribute('href') ?? ''));
    for (const h of hrefs)
      assert.match(
        h,
        /^command:hederaExplorer\.(inspectTransaction|debugTransaction|callContract|ledger\.(openInHashScan|copy)|contractResults\.showContract)\?/,
        h,
      );
    await screenshot(page, 'ledger-hover-contract', { readme: true });

    const tx = await hover(page, deep.transactionId);
    const txText = (await tx.innerText()).replace(/\u00a0/g, ' ');
    assert.match(txText, new RegExp(`^Transaction ${deep.transactionId.replace(/\./g, '\\.')} · Sandbox`));
    assert.match(txText, new RegExp(`✗ ${deep.result}`));
    assert.match(txText, /Revert reason: \S/);
    await screenshot(page, 'ledger-hover-transaction');

    // an EVM address and a transaction hash (the editor draws a long token in pieces: the hash's first 40 characters
    // are where the mouse goes)
    const notable = (await sandbox(ctx, '/__sandbox/health')).notable.inspector;
    const address = (await (await hover(page, notable.contracts.vault.evm)).innerText()).replace(/\u00a0/g, ' ');
    assert.match(address, new RegExp(`^Contract ${deep.contractId.replace(/\./g, '\\.')} · Sandbox`), address);
    const hashText = (await (await hover(page, notable.inspectorSuccess.hash.slice(0, 40))).innerText()).replace(
      /\u00a0/g,
      ' ',
    );
    assert.match(hashText, /SUCCESS/, hashText);
    assert.match(hashText, /Inspect Transaction/, hashText);

    const tx2 = await hover(page, deep.transactionId);
    await tx2.locator('a', { hasText: 'Inspect Transaction' }).click();
    await page
      .locator('.tabs-container .tab', { hasText: /^\s*Transaction .+ · Sandbox/ })
      .first()
      .waitFor({ timeout: T });

    // no hover of ours on a version string: the integration suite checks it with the providers' settled answer
    // (ledgerLinks.test.ts), which a screen can only show by waiting a while
  } finally {
    fs.rmSync(path.join(ctx.workspace, FILE), { force: true });
  }
});

// a new page: quick open of a reused page may answer from a file list read before the file was written
test.fresh();
test('Ledger links: Ctrl+click on a contract id filters Contract Results to it; on a transaction id opens the inspector', async ({
  page,
  ctx,
}) => {
  const { deep } = await writeDemo(ctx);
  try {
    await extensionReady(page);
    await closeEditors(page);
    await openFile(page, FILE);
    // the id shows as a link while Ctrl is held
    await ctrlClick(page, deep.contractId, 'ledger-link-ctrl');
    let seen = '';
    await until(
      page,
      async () =>
        (seen = await viewDescription(page, 'Contract Results').catch((e) => `(${e.message.split('\n')[0]})`)) ===
        `Sandbox · contract ${deep.contractId}`,
      'Contract Results filtered to the contract',
    ).catch(async (e) => {
      await screenshot(page, 'ledger-debug-after-click');
      await runCommand(page, 'Hedera: Show Log').catch(() => {});
      const log = await outputChannel(page).catch(() => ({ text: '' }));
      throw new Error(`${e.message}; the view says "${seen}"; log: ${log.text.slice(-600)}`);
    });
    await screenshot(page, 'ledger-link-contract-results');

    await page.locator('.tabs-container .tab', { hasText: FILE }).click();
    await ctrlClick(page, deep.transactionId);
    await page
      .locator('.tabs-container .tab', { hasText: /^\s*Transaction .+ · Sandbox/ })
      .first()
      .waitFor({ timeout: T });
    await until(
      page,
      async () => {
        for (const f of await page.locator('iframe.webview.ready').all()) {
          const title = await f
            .contentFrame()
            .locator('iframe#active-frame')
            .contentFrame()
            .locator('#app[data-ready="true"] h1.title')
            .textContent({ timeout: 300 })
            .catch(() => '');
          if (title.includes(deep.transactionId)) return true;
        }
        return false;
      },
      `the inspector page of ${deep.transactionId}`,
    );
  } finally {
    fs.rmSync(path.join(ctx.workspace, FILE), { force: true });
    await runCommand(page, 'View: Close All Editors').catch(() => {});
  }
});
