// The NFT history panel in the real browser: opened from the palette, rows in a virtualized grid, links that go
// through the extension, auto-load on scroll with a bounded DOM, the 206 banner, keyboard navigation, restore
// after a reload, and hostile text from a crafted mirror node that never runs.
import assert from 'node:assert/strict';
import fs from 'node:fs';
import http from 'node:http';
import path from 'node:path';
import {
  extensionReady,
  openNftHistory,
  runCommand,
  screenshot,
  until,
  waitForWorkbench,
  webview,
  writeSettings,
} from './driver.mjs';
import { test } from './runner.mjs';

const TOKEN = '0.0.4815162';
const T = 20000;

const bodyRows = (frame) => frame.locator('#body [role=row]');
const rowCount = async (frame) => Number(await frame.locator('#grid').getAttribute('aria-rowcount')) - 1;

async function waitRowCount(page, frame, predicate, what) {
  let n;
  await until(
    page,
    async () => predicate((n = await rowCount(frame))),
    () => `${what} (rows: ${n})`,
  );
  return n;
}

/**
 * The states the panel's page saves (`setState`), read where the webview's host frame passes them to the workbench
 * (its MessagePort): `waitFor(check, what)` waits until the last one saved passes `check`.
 */
async function savedStates(page) {
  const host = await (await page.locator('iframe.webview.ready').first().elementHandle()).contentFrame();
  await host.evaluate(() => {
    const post = globalThis.MessagePort.prototype.postMessage;
    globalThis.MessagePort.prototype.postMessage = function (message, ...rest) {
      if (message?.channel === 'do-update-state') globalThis.e2eSavedState = JSON.parse(message.data);
      return post.call(this, message, ...rest);
    };
  });
  return {
    waitFor: (check, what) =>
      until(page, () => host.evaluate(() => globalThis.e2eSavedState ?? null).then((s) => s && check(s)), what),
  };
}

async function sandboxRequests(ctx, prefix) {
  const res = await fetch(`${ctx.sandboxUrl}/__sandbox/requests`);
  return (await res.json()).map((r) => r.url).filter((u) => u.startsWith(prefix));
}

test('NFT history: opens from the palette and shows the whole life of an NFT (README screenshot)', async ({ page }) => {
  const frame = await openNftHistory(page, TOKEN, '2');
  await bodyRows(frame).first().waitFor({ timeout: T });
  assert.equal(await rowCount(frame), 9);
  assert.equal(await bodyRows(frame).count(), 9);
  const text = await frame.locator('#grid').innerText();
  assert.match(text, /TOKENBURN burned from 0\.0\.\d+/);
  assert.match(text, /TOKENMINT minted to 0\.0\.\d+/);
  assert.match(text, /approved/);
  assert.match(await frame.locator('#count').innerText(), /9 transactions loaded · all loaded/);
  assert.equal(await frame.locator('#network').innerText(), 'Sandbox');
  const time = bodyRows(frame).first().locator('[aria-colindex="1"]');
  assert.match(await time.getAttribute('title'), /^Consensus timestamp \d{10}\.\d{9} \(\d{4}-\d\d-\d\dT/);
  assert.match(await time.innerText(), /^\d{4}-\d\d-\d\d \d\d:\d\d:\d\d$/);
  // codicons loaded from the extension (font from the webview's own origin)
  const iconFont = await frame
    .locator('.codicon')
    .first()
    .evaluate((el) => getComputedStyle(el, '::before').fontFamily);
  assert.match(iconFont, /codicon/);
  await page.mouse.move(700, 850);
  await screenshot(page, 'nft-history', { readme: true });
});

test('NFT history: a HashScan link click goes through the extension (no navigation in the webview)', async ({
  page,
  ctx,
}) => {
  const frame = await openNftHistory(page, TOKEN, '2');
  const link = bodyRows(frame).first().locator('.link[data-target=account]').first();
  await link.waitFor({ timeout: T });
  const id = await link.getAttribute('data-id');
  assert.equal(await link.getAttribute('href'), null, 'no href: the page cannot navigate');
  const popup = page
    .context()
    .waitForEvent('page', { timeout: T })
    .catch(() => null);
  await link.click();
  const opened = await popup;
  const expected = `/hashscan/testnet/account/${id}`;
  if (opened) {
    await opened.waitForLoadState('domcontentloaded').catch(() => {});
    assert.ok(opened.url().endsWith(expected), opened.url());
  } else {
    // the browser may have been kept from opening a tab: the explorer page was still requested by the extension's opener
    const seen = await sandboxRequests(ctx, '/hashscan/');
    assert.ok(
      seen.some((u) => u.endsWith(expected)),
      JSON.stringify(seen),
    );
  }
  assert.ok((await frame.locator('#app').count()) === 1, 'the webview is still the NFT page');
});

test('NFT history: scrolling to the end loads more pages while the DOM keeps only visible rows', async ({ page }) => {
  const frame = await openNftHistory(page, TOKEN, '7');
  await waitRowCount(page, frame, (n) => n === 100, '100 rows');
  const grid = frame.locator('#grid');
  let maxDom = 0;
  for (let i = 0; i < 6; i++) {
    const before = await rowCount(frame);
    await grid.evaluate((el) => {
      el.scrollTop = el.scrollHeight;
    });
    await waitRowCount(page, frame, (n) => n > before, `more than ${before} rows`);
    maxDom = Math.max(maxDom, await bodyRows(frame).count());
  }
  const total = await rowCount(frame);
  assert.ok(total >= 700, `rows after scrolling: ${total}`);
  assert.ok(maxDom > 10 && maxDom < 80, `DOM rows stay bounded: ${maxDom}`);
  // at the bottom, the DOM holds the last rows with their absolute index (aria-rowindex: header = 1), once drawn (a
  // page arriving meanwhile makes the grid longer: to its new bottom then)
  let atEnd;
  await until(
    page,
    async () => {
      atEnd = await grid.evaluate((el) => {
        el.scrollTop = el.scrollHeight;
        const idx = [...el.querySelectorAll('#body [role=row]')].map((e) => Number(e.getAttribute('aria-rowindex')));
        return { max: Math.max(...idx), rowcount: Number(el.getAttribute('aria-rowcount')), dom: idx.length };
      });
      return atEnd.max === atEnd.rowcount;
    },
    () => `last row rendered: ${JSON.stringify(atEnd)}`,
    // each look at the bottom loads the next page: on a slow machine the last row is drawn once every page is in
    // (12,345 rows; 2,600 after 20 s in one CI run), so the bound is that of loading them all
    120000,
  );
  assert.ok(atEnd.dom < 80);
  // the Load more button does the same
  await grid.evaluate((el) => {
    el.scrollTop = 0;
  });
  const before = await rowCount(frame);
  await frame.locator('#loadMore').click();
  await waitRowCount(page, frame, (n) => n === before + 100, 'one more page');
  assert.match(await frame.locator('#count').innerText(), /more available/);
});

test('NFT history: a partial history (206) shows the banner', async ({ page }) => {
  const frame = await openNftHistory(page, TOKEN, '13');
  await bodyRows(frame).first().waitFor({ timeout: T });
  const banner = frame.locator('#partial');
  await banner.waitFor({ state: 'visible', timeout: T });
  assert.match(
    await banner.innerText(),
    /Partial history \(HTTP 206\)\. The mirror node has no mint record for this NFT: the list may be incomplete\./,
  );
  await screenshot(page, 'nft-history-partial');
});

test('NFT history: an unknown NFT shows the empty state', async ({ page }) => {
  const frame = await openNftHistory(page, TOKEN, '9999');
  const empty = frame.locator('#empty');
  await empty.waitFor({ state: 'visible', timeout: T });
  assert.equal((await empty.innerText()).trim(), `No transactions for ${TOKEN} #9999 on Sandbox.`);
  assert.ok(await frame.locator('#grid').isHidden());
});

test('NFT history: the time range applies with the Apply button and with Enter in its field', async ({ page }) => {
  const frame = await openNftHistory(page, TOKEN, '2');
  await waitRowCount(page, frame, (n) => n === 9, '9 rows');
  // a range after every transfer: nothing left
  await frame.locator('#fromValue').fill('2099-01-01T00:00Z');
  await frame.locator('#apply').click();
  await frame.locator('#empty').waitFor({ state: 'visible', timeout: T });
  assert.ok(await frame.locator('#grid').isHidden());
  // the range cleared, then Enter in the field
  await frame.locator('#fromValue').fill('');
  await frame.locator('#fromValue').press('Enter');
  await waitRowCount(page, frame, (n) => n === 9, '9 rows again');
});

test("NFT history: a 429 shows the server's message and Retry loads the history", async ({ page, ctx }) => {
  await extensionReady(page);
  const rule = { path: `/api/v1/tokens/${TOKEN}/nfts/5/`, times: 3, fault: { status: 429, retryAfter: '0' } };
  const res = await fetch(`${ctx.sandboxUrl}/__sandbox/faults`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify(rule),
  });
  assert.equal(res.status, 201);
  try {
    const frame = await openNftHistory(page, TOKEN, '5');
    const error = frame.locator('#error');
    await error.waitFor({ state: 'visible', timeout: T });
    assert.match(await error.innerText(), /429 Too Many Requests.*Too many requests/s);
    await screenshot(page, 'nft-history-error');
    await frame.locator('#retry').click();
    await bodyRows(frame).first().waitFor({ timeout: T });
    assert.ok(await error.isHidden());
  } finally {
    await fetch(`${ctx.sandboxUrl}/__sandbox/faults`, { method: 'DELETE' });
  }
});

test('NFT history: keyboard navigation of the grid (arrows, Home/End, Ctrl+End, Enter opens a link)', async ({
  page,
  ctx,
}) => {
  const frame = await openNftHistory(page, TOKEN, '2');
  await bodyRows(frame).first().waitFor({ timeout: T });
  const grid = frame.locator('#grid');
  await grid.focus();
  const active = () => grid.getAttribute('aria-activedescendant');
  assert.equal(await active(), 'c0-0');
  await grid.press('ArrowDown');
  await grid.press('ArrowDown');
  await grid.press('ArrowRight');
  assert.equal(await active(), 'c2-1');
  await grid.press('End');
  assert.equal(await active(), 'c2-6');
  await grid.press('Control+End');
  assert.equal(await active(), 'c8-6');
  await grid.press('Home');
  assert.equal(await active(), 'c8-0');
  await grid.press('Control+Home');
  await grid.press('ArrowUp');
  assert.equal(await active(), 'c0-0', 'stays in the grid');
  const cell = frame.locator('#c0-0');
  assert.ok(await cell.evaluate((el) => el.classList.contains('active')));
  assert.equal(await cell.getAttribute('role'), 'gridcell');
  assert.equal(await bodyRows(frame).first().getAttribute('aria-rowindex'), '2');
  assert.match(
    await bodyRows(frame).first().getAttribute('aria-label'),
    /TOKENBURN, burned from 0\.0\.\d+, transaction /,
  );
  // Enter on the transaction id cell opens it in HashScan through the extension
  await grid.press('End');
  const txTs = await frame.locator('#c0-6 .link').getAttribute('data-id');
  const popup = page
    .context()
    .waitForEvent('page', { timeout: T })
    .catch(() => null);
  await grid.press('Enter');
  const opened = await popup;
  const expected = `/hashscan/testnet/transaction/${txTs}`;
  if (opened) assert.ok(opened.url().endsWith(expected), opened.url());
  else assert.ok((await sandboxRequests(ctx, '/hashscan/')).some((u) => u.endsWith(expected)));
});

test('NFT history: the panel, its rows and scroll position come back after a reload (serializer)', async ({ page }) => {
  const frame = await openNftHistory(page, TOKEN, '7');
  await waitRowCount(page, frame, (n) => n === 100, '100 rows');
  const grid = frame.locator('#grid');
  await grid.evaluate((el) => {
    el.scrollTop = el.scrollHeight;
  });
  await waitRowCount(page, frame, (n) => n === 200, '200 rows');
  const saved = await savedStates(page);
  const scrolled = await grid.evaluate((el) => {
    el.scrollTop = 3000;
    return el.scrollTop;
  });
  // the page saves its state throttled, and a reload restores only what was saved
  await saved.waitFor((s) => s.scrollTop === scrolled && s.loaded >= 200, `the state saved at ${scrolled}`);
  await runCommand(page, 'Developer: Reload Window'); // a real reload: the workbench saves its editors first
  await page.waitForLoadState('domcontentloaded');
  await waitForWorkbench(page);
  const again = await webview(page, `NFT ${TOKEN} #7`);
  await again.locator('#app[data-ready="true"]').waitFor({ timeout: T, state: 'attached' });
  await waitRowCount(page, again, (n) => n >= 200, '200 rows again');
  let top = 0;
  await until(
    page,
    async () => Math.abs((top = await again.locator('#grid').evaluate((el) => el.scrollTop)) - 3000) < 30,
    () => `scroll position restored (${top})`,
  );
  const first = await bodyRows(again).first().getAttribute('aria-rowindex');
  assert.ok(Number(first) > 100, `rows near the saved position are rendered (${first})`);
});

test('NFT history: hostile text from the mirror node is shown as text and never runs', async ({ page, ctx }) => {
  const img = '<img src=x onerror="window.__nftPwned=1">';
  const script = '<script>window.__nftPwned=2</script>';
  const server = http.createServer((req, res) => {
    res.writeHead(200, { 'content-type': 'application/json', 'access-control-allow-origin': '*' });
    res.end(
      JSON.stringify({
        transactions: [
          {
            consensus_timestamp: '1790000000.000000001',
            is_approval: false,
            nonce: 0,
            receiver_account_id: img,
            sender_account_id: script,
            transaction_id: script,
            type: img,
          },
          {
            consensus_timestamp: img,
            is_approval: true,
            nonce: script,
            receiver_account_id: '0.0.5',
            sender_account_id: null,
            transaction_id: img,
            type: 'TOKENMINT',
          },
        ],
        links: { next: null },
      }),
    );
  });
  await new Promise((r) => server.listen(0, '127.0.0.1', r));
  const url = `http://127.0.0.1:${server.address().port}`;
  const settingsFile = path.join(ctx.workspace, '.vscode', 'settings.json');
  const original = fs.readFileSync(settingsFile, 'utf8');
  try {
    // the workbench has applied the file (and handed it to the extension host) once the title shows its marker
    await writeSettings(page, settingsFile, {
      ...JSON.parse(original),
      'hederaExplorer.network': 'custom',
      'hederaExplorer.custom.mirrorUrl': url,
    });
    const frame = await openNftHistory(page, '0.0.666', '1');
    await bodyRows(frame).nth(1).waitFor({ timeout: T });
    const text = await frame.locator('#grid').innerText();
    assert.ok(text.includes(img), 'the img markup is shown as text');
    assert.ok(text.includes(script), 'the script markup is shown as text');
    assert.equal(await frame.locator('#grid img, #grid script, #app img').count(), 0); // nothing that could run later
    assert.equal(await frame.locator('body').evaluate(() => window.__nftPwned), undefined);
    // a click on the hostile "account" does nothing: it is not a link
    const linked = await frame
      .locator('.link[data-target=account]')
      .evaluateAll((els) => els.map((e) => e.getAttribute('data-id')));
    assert.deepEqual([...new Set(linked)], ['0.0.5'], 'only the real account id 0.0.5 is a link');
    await screenshot(page, 'nft-history-hostile');
  } finally {
    server.close();
    // back on the sandbox (the runner puts the file back as it was anyway)
    await writeSettings(page, settingsFile, JSON.parse(original)).catch(() => {});
  }
});
