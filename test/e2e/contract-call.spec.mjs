// Call Contract in the browser workbench, from the CodeLens: the Call lens above `contract Vault` in Vault.sol opens
// its call panel (the ABI from the sample workspace's build) in a real webview (its sandboxed frame submits no form);
// feeBps read with its button, compute(x) read by pressing Enter in its field (a 50-digit result, every digit drawn),
// move simulated from a sender and its revert reason decoded; an input typed wrong is refused beside its field before
// anything is sent; Open in Inspector beside the revert shows the Simulation page with the exact revert line; the Read
// lens above `function compute` shows the panel at compute with its field focused (typed into, Enter reads).
// Screenshots: contract-call.png, contract-call-simulation.png, codelens-functions.png, contract-call-function-lens.png.
import assert from 'node:assert/strict';
import path from 'node:path';
import {
  closeEditors,
  extensionReady,
  goToLine,
  lensTexts,
  lineOf,
  noHover,
  openFile,
  screenshot,
  until,
  webview,
} from './driver.mjs';
import { test } from './runner.mjs';

const T = 20000;

test('Call Contract from the CodeLens: a read with its button and one with Enter decoded, a simulated revert decoded, a wrong input refused beside its field; Open in Inspector shows the exact revert line; a function Read lens focuses its field', async ({
  page,
  ctx,
}) => {
  // what the webview says in its console (a script refused by the CSP, an exception), for a failure's message
  const consoleLines = [];
  const onConsole = (m) => {
    if (m.type() === 'error' || m.type() === 'warning') consoleLines.push(`${m.type()}: ${m.text()}`.slice(0, 300));
  };
  page.on('console', onConsole);
  const seen = (what) => () => `${what} (the page's console: ${consoleLines.slice(-5).join(' | ') || 'nothing'})`;
  try {
    await extensionReady(page);
    await closeEditors(page);
    await openFile(page, 'Vault.sol');
    await page.keyboard.press('Control+Home');
    // the lenses settled (the deployment's calls counted): a click while they are drawn again may land on none
    await lensTexts(page, (t) => t.includes('Call') && t.some((x) => /calls/.test(x)));
    const lens = page
      .locator('.editor-instance .monaco-editor .codelens-decoration a', { hasText: /^\s*Call\s*$/ })
      .first();
    await lens.click({ timeout: T });
    const step = (what, p) => p.catch((e) => Promise.reject(new Error(`${what}: ${e.message.split('\n')[0]}`)));
    await step(
      'the Call Vault tab after a click on the Call lens',
      page
        .locator('.tabs-container .tab', { hasText: /Call Vault/ })
        .first()
        .waitFor({ timeout: T }),
    );
    const frame = await webview(page, 'Call Vault');
    await step(
      'the call page ready',
      frame.locator('#app[data-ready="true"]').waitFor({ timeout: T, state: 'attached' }),
    );
    await step('the read functions drawn', frame.locator('#read .fn').first().waitFor({ timeout: T }));
    assert.match(await frame.locator('header').innerText(), /nothing is signed, and nothing is sent to the network/);
    assert.match(await frame.locator('#source').innerText(), /workspace's build of Vault/);
    const fn = (section, name) =>
      frame.locator(`#${section} .fn`, { has: frame.locator('h3 .name', { hasText: new RegExp(`^${name}$`) }) });
    const outcome = (f, status) =>
      f
        .locator(`.outcome.${status}`)
        .innerText()
        .catch(() => '');

    // a read with its button
    const fee = fn('read', 'feeBps');
    await fee.locator('button').click();
    await until(page, async () => /\b30\b/.test(await outcome(fee, 'ok')), seen('feeBps read'));
    assert.match(await outcome(fee, 'ok'), /Result at the latest block/);

    // a read with Enter in its field: the uint256 result with every digit
    const compute = fn('read', 'compute');
    const x = 123456789012345678901234567n;
    await compute.locator('input').fill(x.toString());
    await compute.locator('input').press('Enter');
    const expected = ((x * x * 30n) / 10_000n).toString();
    assert.equal(expected.length, 50, expected);
    await until(page, async () => (await outcome(compute, 'ok')).includes(expected), seen('compute(x) read'));

    // a simulation that reverts, from a sender; a wrong amount refused beside its field first
    await frame.locator('#from').fill('0.0.7006');
    const move = fn('simulate', 'move');
    const fields = move.locator('input');
    await fields.nth(0).fill('0x70997970c51812dc3a010c7d01b50e0d17dc79c8');
    await fields.nth(1).fill('-1');
    assert.match(await move.locator('.field-error').nth(1).innerText(), /out of range for a uint256/);
    await move.locator('button').click();
    assert.equal(await move.locator('.outcome').isVisible(), false, 'nothing sent for a wrong input');
    await fields.nth(1).fill('30000000000');
    assert.equal(await move.locator('.field-error').nth(1).innerText(), '');
    await move.locator('button').click();
    await until(
      page,
      async () => /Vault: move exceeds balance/.test(await outcome(move, 'reverted')),
      seen('move reverted'),
    );
    assert.match(await outcome(move, 'reverted'), /CONTRACT_REVERT_EXECUTED/);
    await move.evaluate((e) => e.scrollIntoView({ block: 'center' }));
    await page.mouse.move(1100, 850);
    await screenshot(page, 'contract-call', { readme: true });

    // Open in Inspector: the simulation run locally, checked against the mirror node's answer, on a Simulation page
    // whose Source section places the revert on the require of Vault.sol, exact
    await move.locator('button', { hasText: 'Open in Inspector' }).click();
    await step(
      'the Simulation tab',
      page
        .locator('.tabs-container .tab', { hasText: /Simulation Vault\.move/ })
        .first()
        .waitFor({ timeout: T }),
    );
    const sim = await webview(page, 'Simulation Vault.move');
    const source = sim.locator('#s-source');
    await until(
      page,
      async () => (await source.locator('.badge.exact').count()) > 0,
      seen('the Source section of the Simulation page, exact'),
    );
    assert.match(await source.innerText(), /Simulated locally · matches the mirror node's answer/);
    const line = lineOf(path.join(ctx.workspace, 'contracts', 'inspector'), 'Vault.sol', 'require(amount <= held');
    assert.match(
      await source.locator('ol.source-frames > li .source-where').first().innerText(),
      new RegExp(`contracts/inspector/Vault\\.sol:${line}$`),
    );
    // a simulation has no transfers: the navigation says missing, not failed
    assert.equal(
      await sim.locator('nav.nav .nav-item', { hasText: 'Transfers' }).locator('.nav-icon.missing').count(),
      1,
    );
    await sim.locator('nav.nav .nav-item', { hasText: 'Source' }).click();
    await page.mouse.move(1100, 850);
    await screenshot(page, 'contract-call-simulation', { readme: true });

    // the lenses above the contract's functions: Read or Simulate
    await page.locator('.tabs-container .tab', { hasText: 'Vault.sol' }).first().click();
    await page.keyboard.press('Control+Home');
    // the functions from setFee down at the top (the public variables above have Read lenses too)
    const setFee = lineOf(path.join(ctx.workspace, 'contracts', 'inspector'), 'Vault.sol', 'function setFee(');
    for (let i = 1; i < setFee - 1; i++) await page.keyboard.press('Control+ArrowDown');
    const lensCount = (title) =>
      page
        .locator('.editor-instance .monaco-editor .codelens-decoration a', {
          hasText: new RegExp(`^\\s*${title}\\s*$`),
        })
        .count();
    await until(
      page,
      async () => (await lensCount('Read')) >= 1 && (await lensCount('Simulate')) >= 2,
      seen('the Read lens above compute and the Simulate lenses around it'),
    );
    await page.mouse.move(1100, 850);
    await noHover(page);
    await screenshot(page, 'codelens-functions', { readme: true });

    // the Read lens above `function compute`: the panel at compute, its field focused; typed into and Enter, as a user
    const computeLine = lineOf(path.join(ctx.workspace, 'contracts', 'inspector'), 'Vault.sol', 'function compute(');
    await goToLine(page, computeLine);
    const declared = page
      .locator('.editor-instance .monaco-editor .view-line', { hasText: /function\s+compute\(/ })
      .first();
    const readLens = await until(
      page,
      async () => {
        const at = await declared.boundingBox().catch(() => null);
        if (!at) return undefined;
        for (const a of await page
          .locator('.editor-instance .monaco-editor .codelens-decoration a', { hasText: /^\s*Read\s*$/ })
          .all()) {
          const b = await a.boundingBox().catch(() => null);
          if (b && b.y < at.y && at.y - b.y < 40) return a;
        }
        return undefined;
      },
      seen('the Read lens above function compute'),
    );
    await readLens.click();
    const again = await webview(page, 'Call Vault');
    const focusedIn = () =>
      again
        .locator('body')
        .evaluate(() => document.activeElement?.closest('.fn')?.querySelector('h3 .name')?.textContent ?? '')
        .catch(() => '');
    await until(page, async () => (await focusedIn()) === 'compute', seen("compute's field focused"));
    await page.keyboard.press('Control+A');
    await page.keyboard.type('1000');
    await page.keyboard.press('Enter');
    const form = again.locator('#read .fn', { has: again.locator('h3 .name', { hasText: /^compute$/ }) });
    await until(
      page,
      async () =>
        /\b3000\b/.test(
          await form
            .locator('.outcome.ok')
            .innerText()
            .catch(() => ''),
        ),
      seen('compute(1000) read after Enter in the focused field'),
    );
    await page.mouse.move(1100, 850);
    await screenshot(page, 'contract-call-function-lens');
  } finally {
    page.off('console', onConsole);
  }
  await closeEditors(page);
});
