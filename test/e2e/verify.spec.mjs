// "Hedera: Verify Contract" from the command palette in the browser: set the explorer API key (masked input),
// pick the candidate the workspace's Hardhat Ignition record gives, see the Verification view's rows (contract
// with its status, found / missing / unused files with counts, the missing file pointed out in the workspace),
// open a file from its row; a wrong address is refused in the input box before any request.
// README screenshot: verification-view.png.
import assert from 'node:assert/strict';
import {
  openContainer,
  pickQuickPick,
  quickPickItems,
  runCommand,
  screenshot,
  soloView,
  treeRow,
  treeRows,
  typeInQuickInput,
  until,
  viewDescription,
} from './driver.mjs';
import { test } from './runner.mjs';

const VIEW = 'Verification';

/**
 * The verification submissions the sandbox received (the session endpoint, Sourcify v2 jobs). The Deployments view's
 * verification look-ups (GET /v2/contract/...) are not submissions; `withKey` lists every request carrying the key.
 */
async function sandboxRequests(ctx) {
  const res = await fetch(`${ctx.sandboxUrl}/__sandbox/requests`);
  return (await res.json()).filter((r) => /^\/(server\/)?(session|v2\/verify)\//.test(r.url));
}
async function withKey(ctx, key) {
  const res = await fetch(`${ctx.sandboxUrl}/__sandbox/requests`);
  return (await res.json()).filter((r) => JSON.stringify(r).includes(key));
}

test('Verify Contract: pick the Ignition candidate, see the contracts and files in the Verification view', async ({
  page,
  ctx,
}) => {
  assert.ok(ctx.sandboxUrl, 'the sandbox runs');
  await openContainer(page, 'Hedera');
  await fetch(`${ctx.sandboxUrl}/__sandbox/requests`, { method: 'DELETE' });

  // the key, typed into a masked input
  await runCommand(page, 'Hedera: Set Explorer API Key');
  const input = page.locator('.quick-input-widget .quick-input-box input');
  await input.waitFor();
  assert.equal(await input.getAttribute('type'), 'password', 'the key input is masked');
  await input.fill('e2e-explorer-key');
  await page.keyboard.press('Enter');
  await page.locator('.quick-input-widget').waitFor({ state: 'hidden' });

  await runCommand(page, 'Hedera: Verify Contract');
  const items = await quickPickItems(page);
  const labels = items.map((i) => i.label);
  assert.deepEqual(
    labels.slice(0, 6),
    ['Token', 'Counter', 'Vault', 'Ledger', 'Accounting', '0.0.5001'],
    labels.join(', '),
  );
  const token = items.find((i) => i.label === 'Token');
  assert.match(token.description, /0x1000000000000000000000000000000000000002/);
  assert.match(
    token.detail,
    /Hardhat Ignition · ignition\/deployments\/chain-296\/deployed_addresses\.json › TokenModule#Token/,
  );
  assert.match(items.find((i) => i.label === '0.0.5001')?.detail ?? '', /\.env:2 › CONTRACT_ID/);
  assert.ok(labels.includes('Change chain…') && labels.includes('Enter an address or entity id…'));
  await screenshot(page, 'verify-pick');
  await pickQuickPick(page, 'Token');

  await soloView(page, VIEW);
  await treeRow(page, VIEW, 'Token').waitFor({ timeout: 20000 });
  await until(
    page,
    async () => (await treeRows(page, VIEW)).some((r) => r.label === 'Unused files'),
    'Unused files row',
  );
  const rows = await treeRows(page, VIEW);
  const row = (label) => rows.find((r) => r.label === label);
  assert.equal(row('Token')?.description, 'partial · contracts/Token.sol');
  assert.equal(row('Found files')?.description, '2');
  assert.equal(row('Missing files')?.description, '1');
  assert.equal(row('Unused files')?.description, '2');
  assert.match(
    row('@openzeppelin/contracts/access/Ownable.sol')?.description ?? '',
    /in the workspace at contracts\/access\/Ownable\.sol/,
  );
  assert.match(await viewDescription(page, VIEW), /0x100000…0002 · Sandbox · 296 · session/);
  await page.mouse.move(1200, 800);
  await screenshot(page, 'verification-view', { readme: true });

  // the key went in the session POST body only
  const sent = await sandboxRequests(ctx);
  assert.deepEqual(
    sent.map((r) => `${r.method} ${r.url}`),
    ['POST /session/verify/etherscan'],
  );
  assert.deepEqual(JSON.parse(sent[0].body), {
    address: '0x1000000000000000000000000000000000000002',
    chainId: '296',
    apiKey: 'e2e-explorer-key',
  });
  // and in no other request (the views' look-ups included)
  assert.deepEqual(
    (await withKey(ctx, 'e2e-explorer-key')).map((r) => `${r.method} ${r.url}`),
    ['POST /session/verify/etherscan'],
  );

  // a row of a file in the workspace opens it
  await treeRow(page, VIEW, 'README.md').click();
  await page.locator('.tabs-container .tab', { hasText: 'README.md' }).first().waitFor({ timeout: 20000 });
  await soloView(page);
});

test('Verify Contract: a wrong address is refused in the input box, nothing is sent', async ({ page, ctx }) => {
  await openContainer(page, 'Hedera');
  await fetch(`${ctx.sandboxUrl}/__sandbox/requests`, { method: 'DELETE' });
  await runCommand(page, 'Hedera: Verify Contract');
  await quickPickItems(page);
  // the pick is replaced by an input box in the same widget (pickQuickPick waits for it to close)
  await page
    .locator('.quick-input-widget .quick-input-list .monaco-list-row', { hasText: 'Enter an address or entity id…' })
    .first()
    .click();
  await page
    .locator('.quick-input-widget .quick-input-title', { hasText: 'Contract to verify on Sandbox (chain 296)' })
    .waitFor();
  await typeInQuickInput(page, '0x1234', { expect: /has 4 hexadecimal digits after 0x, an address has 40/ });
  await typeInQuickInput(page, 'Token', { expect: /neither an EVM address .* nor a Hedera entity id/ });
  await typeInQuickInput(page, '0.0.5001', { expect: '' }); // an entity id is accepted
  await page.keyboard.press('Escape'); // back to the candidates
  await quickPickItems(page);
  await page.keyboard.press('Escape');
  await page.locator('.quick-input-widget').waitFor({ state: 'hidden' });
  assert.deepEqual(await sandboxRequests(ctx), []);
});

test.fresh(); // no key stored yet: web secret storage lives in the page's browser storage
test("Verify Contract: a missing key is asked for once; the progress notification's Cancel stops a slow verification", async ({
  page,
  ctx,
}) => {
  await openContainer(page, 'Hedera');
  const fault = await fetch(`${ctx.sandboxUrl}/__sandbox/faults`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ path: '/session/verify', fault: { delayMs: 15000 } }),
  });
  assert.equal(fault.status, 201);
  try {
    await runCommand(page, 'Hedera: Verify Contract');
    await quickPickItems(page);
    await page
      .locator('.quick-input-widget .quick-input-list .monaco-list-row', {
        has: page.locator('.label-name', { hasText: /^\s*Counter\s*$/ }),
      })
      .first()
      .click();
    // a fresh browser profile has no key yet (web secret storage lives in the browser): asked for once, masked
    await page.locator('.quick-input-widget .quick-input-title', { hasText: 'Explorer API Key' }).waitFor();
    const input = page.locator('.quick-input-widget .quick-input-box input');
    assert.equal(await input.getAttribute('type'), 'password');
    await input.fill('e2e-explorer-key');
    await page.keyboard.press('Enter');
    const toast = page
      .locator('.notifications-toasts .notification-toast', { hasText: 'Verifying 0x100000…0003 on chain 296' })
      .first();
    await toast.waitFor({ timeout: 20000 });
    await screenshot(page, 'verify-progress');
    await toast.hover();
    await toast.locator('.monaco-button', { hasText: 'Cancel' }).first().click();
    await page.locator('.part.statusbar', { hasText: 'Verification cancelled' }).waitFor({ timeout: 10000 });
    await toast.waitFor({ state: 'hidden', timeout: 10000 });
    assert.doesNotMatch(await viewDescription(page, VIEW), /0003/, 'the cancelled run left no result');
  } finally {
    await fetch(`${ctx.sandboxUrl}/__sandbox/faults`, { method: 'DELETE' });
  }
});
