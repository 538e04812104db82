// An explorer API key stored through the extension lands in SecretStorage and nowhere else:
// not in any hederaExplorer.* setting, not in the extension's log, not in the workspace's files.
import * as assert from 'assert';
import * as fs from 'fs';
import * as path from 'path';
import * as vscode from 'vscode';
import { type HederaTestApi, activateApi, extension } from './helpers';

function filesUnder(dir: string): string[] {
  return fs
    .readdirSync(dir, { withFileTypes: true, recursive: true })
    .filter((e) => e.isFile())
    .map((e) => path.join(e.parentPath, e.name));
}

describe('API key storage', () => {
  const key = `hx-itest-${Date.now().toString(36)}-s3cr3t`;
  let api: HederaTestApi;
  before(async () => {
    api = await activateApi();
    await vscode.commands.executeCommand('hederaExplorer.clearApiKey');
  });
  after(() => vscode.commands.executeCommand('hederaExplorer.clearApiKey'));

  it('setApiKey stores the key (hasApiKey becomes true)', async () => {
    assert.strictEqual(await api.hasApiKey(), false, 'no key before');
    await vscode.commands.executeCommand('hederaExplorer.setApiKey', key);
    assert.strictEqual(await api.hasApiKey(), true);
  });

  it('the key is in no hederaExplorer.* setting at any level', () => {
    const cfg = vscode.workspace.getConfiguration('hederaExplorer');
    const keys = Object.keys(extension().packageJSON.contributes.configuration.properties).map((k: string) =>
      k.replace(/^hederaExplorer\./, ''),
    );
    for (const k of keys) {
      const i = cfg.inspect(k);
      const values = JSON.stringify([i?.globalValue, i?.workspaceValue, i?.workspaceFolderValue, cfg.get(k)]);
      assert.ok(!values.includes(key), `setting hederaExplorer.${k} contains the key`);
    }
    assert.ok(!JSON.stringify(vscode.workspace.getConfiguration().get('hederaExplorer') ?? {}).includes(key));
  });

  it('the key is not in recentLog()', () => {
    assert.ok(!api.recentLog().join('\n').includes(key));
  });

  it('the key is not in any file of the workspace', () => {
    for (const folder of vscode.workspace.workspaceFolders ?? []) {
      for (const f of filesUnder(folder.uri.fsPath)) {
        assert.ok(!fs.readFileSync(f, 'utf8').includes(key), `${f} contains the key`);
      }
    }
  });

  it('clearApiKey removes it', async () => {
    await vscode.commands.executeCommand('hederaExplorer.clearApiKey');
    assert.strictEqual(await api.hasApiKey(), false);
  });
});
