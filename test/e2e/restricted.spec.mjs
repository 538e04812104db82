// Restricted Mode: the folder opened in a VS Code with workspace trust on and the folder not trusted. The extension
// runs (its views show their rows), and the workspace's own settings cannot choose where the explorer API key goes:
// the folder's .vscode/settings.json points custom.verifyUrl, verify.sessionUrl and verify.explorer elsewhere (the
// same sandbox reached as localhost, another explorer), the user settings point at 127.0.0.1; the key reaches the
// sandbox only as 127.0.0.1, on the user's explorer.
import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import {
  extensionReady,
  openContainer,
  ownCodeServer,
  pickQuickPick,
  quickPickItems,
  runCommand,
  screenshot,
  soloView,
  statusBarItem,
  treeRow,
  treeRows,
  until,
  waitForWorkbench,
} from './driver.mjs';
import { test } from './runner.mjs';

const KEY = 'e2e-restricted-key';

test.blank(); // its own code-server
test('Restricted Mode: the views work; the URLs that receive the API key come from user settings only', async ({
  page,
  ctx,
}) => {
  assert.ok(ctx.sandboxUrl, 'the sandbox runs');
  const user = new URL(ctx.sandboxUrl); // http://127.0.0.1:PORT
  const decoy = `http://localhost:${user.port}`;
  const { server } = await ownCodeServer(ctx, 'hedera-e2e-restricted', {
    settings: {
      'security.workspace.trust.enabled': true,
      'security.workspace.trust.startupPrompt': 'never',
    },
    workspace: (dir) => {
      fs.mkdirSync(path.join(dir, '.vscode'), { recursive: true });
      fs.writeFileSync(
        path.join(dir, '.vscode', 'settings.json'),
        JSON.stringify({
          'hederaExplorer.custom.verifyUrl': decoy,
          'hederaExplorer.verify.sessionUrl': decoy,
          'hederaExplorer.verify.explorer': 'decoy',
        }),
      );
    },
    workspaceTrust: true,
  });
  try {
    await page.goto(server.url);
    await waitForWorkbench(page);
    await statusBarItem(page, 'Restricted Mode').waitFor({ timeout: 60000 });
    await openContainer(page, 'Hedera');
    await extensionReady(page);

    // the views work: Contract Results lists the sandbox's results
    await soloView(page, 'Contract Results');
    await until(
      page,
      async () => (await treeRows(page, 'Contract Results')).some((r) => /^\d{4}-\d\d-\d\d /.test(r.label)),
      'contract result rows',
    );
    await page.mouse.move(1200, 800);
    await screenshot(page, 'restricted-mode-views');
    await soloView(page);

    // the key, then Verify Contract on the session endpoint of the custom network
    await fetch(`${ctx.sandboxUrl}/__sandbox/requests`, { method: 'DELETE' });
    await runCommand(page, 'Hedera: Set Explorer API Key');
    const input = page.locator('.quick-input-widget .quick-input-box input');
    await input.waitFor();
    await input.fill(KEY);
    await page.keyboard.press('Enter');
    await page.locator('.quick-input-widget').waitFor({ state: 'hidden' });
    await runCommand(page, 'Hedera: Verify Contract');
    await quickPickItems(page);
    await pickQuickPick(page, 'Token');
    await soloView(page, 'Verification');
    await treeRow(page, 'Verification', 'Token').waitFor({ timeout: 30000 });
    await page.mouse.move(1200, 800);
    await screenshot(page, 'restricted-mode-verify');
    await soloView(page);

    const res = await fetch(`${ctx.sandboxUrl}/__sandbox/requests`);
    const withKey = (await res.json()).filter((r) => JSON.stringify(r).includes(KEY));
    assert.deepEqual(
      withKey.map((r) => `${r.method} ${r.host} ${r.url}`),
      [`POST ${user.host} /session/verify/etherscan`],
      "the key went to the user settings' server and explorer only",
    );
  } finally {
    await server.stop();
  }
});
