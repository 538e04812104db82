// "Hedera: Select Network" from the palette lists the networks; picking one writes the user setting.
import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import { openContainer, pickQuickPick, quickPickItems, runCommand, screenshot, until } from './driver.mjs';
import { test } from './runner.mjs';

/** hederaExplorer.network as stored in the profile's user settings.json (server side). */
/** The workbench rewrites the file in place: a read can see it empty or half written (undefined then). */
function userNetworkSetting(ctx) {
  const file = path.join(ctx.profile.userDataDir, 'User', 'settings.json');
  try {
    return JSON.parse(fs.readFileSync(file, 'utf8'))['hederaExplorer.network'];
  } catch {
    return undefined;
  }
}

async function waitForSetting(page, ctx, value) {
  await until(
    page,
    () => userNetworkSetting(ctx) === value,
    () => `hederaExplorer.network ${value} (it is ${userNetworkSetting(ctx)})`,
  );
}

test('Select Network lists the networks and picking one changes the setting', async ({ page, ctx }) => {
  await openContainer(page, 'Hedera');
  await runCommand(page, 'Hedera: Select Network');
  const labels = (await quickPickItems(page)).map((i) => i.label);
  // the custom network is listed by its name (hederaExplorer.custom.name): the sandbox is reached as the custom network
  for (const n of ['Mainnet', 'Testnet', 'Previewnet', 'Local', 'Sandbox']) {
    assert.ok(labels.includes(n), `quick pick lists ${n}: ${labels.join(', ')}`);
  }
  assert.equal(labels.length, 5, `five networks: ${labels.join(', ')}`);
  await screenshot(page, 'select-network', { readme: true });
  // The profile starts on the sandbox: go to testnet and back, checking the stored setting each time.
  await pickQuickPick(page, 'Testnet');
  await waitForSetting(page, ctx, 'testnet');
  await runCommand(page, 'Hedera: Select Network');
  await quickPickItems(page);
  await pickQuickPick(page, 'Sandbox');
  await waitForSetting(page, ctx, 'custom');
  await screenshot(page, 'select-network-sandbox');
});
