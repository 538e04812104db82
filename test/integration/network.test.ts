// Switching `hederaExplorer.network` (user settings) reaches the API layer: profile() follows.
import * as assert from 'assert';
import * as vscode from 'vscode';
import { type HederaTestApi, activateApi, resetSettings, sandboxUrl, selectSandbox, waitUntil } from './helpers';

const KEYS = [
  'network',
  'custom.name',
  'custom.mirrorUrl',
  'custom.statusUrl',
  'custom.verifyUrl',
  'custom.chainId',
  'custom.hashscanUrl',
];
const Global = vscode.ConfigurationTarget.Global;

describe('network setting', () => {
  let api: HederaTestApi;
  before(async () => {
    api = await activateApi();
  });
  afterEach(() => resetSettings(KEYS));

  it('defaults to testnet', async () => {
    await waitUntil('profile testnet', () => api.profile().name === 'testnet');
    assert.strictEqual(api.profile().chainId, 296);
  });

  it('the sandbox is reached as the custom network, named by hederaExplorer.custom.name', async () => {
    const url = sandboxUrl ?? 'http://127.0.0.1:5599';
    await selectSandbox(`${url}/`);
    assert.deepStrictEqual(api.profile(), {
      name: 'custom',
      label: 'Sandbox',
      mirrorUrl: url,
      statusUrl: `${url}/api/v2`,
      verifyUrl: url,
      chainId: 296,
      hashscanUrl: `${url}/hashscan/testnet`,
    });
  });

  it('a custom name is shown as plain words: no icon, link or control character survives, at most 32 characters', async () => {
    const cfg = vscode.workspace.getConfiguration('hederaExplorer');
    await cfg.update('network', 'custom', Global);
    await cfg.update('custom.name', '$(alert) [Open](command:workbench.action.quit) \u202Eevil\u0007', Global);
    await waitUntil('the name read', () => api.profile().label === 'alert Open command workbench.act');
    await cfg.update('custom.name', '  $()[]  ', Global);
    // nothing left of the name: the network goes by its mirror node's host
    const host = new URL(api.profile().mirrorUrl).host;
    await waitUntil('the host for a name', () => api.profile().label === host);
  });

  it('custom uses the hederaExplorer.custom.* URLs', async () => {
    const cfg = vscode.workspace.getConfiguration('hederaExplorer');
    await cfg.update('custom.mirrorUrl', 'http://127.0.0.1:1/mirror/', Global);
    await cfg.update('custom.statusUrl', 'http://127.0.0.1:1/status/api/v2', Global);
    await cfg.update('custom.verifyUrl', 'http://127.0.0.1:1/sourcify', Global);
    await cfg.update('custom.chainId', 297, Global);
    await cfg.update('custom.hashscanUrl', 'http://127.0.0.1:1/hashscan/previewnet', Global);
    await cfg.update('network', 'custom', Global);
    await waitUntil('profile custom', () => api.profile().name === 'custom' && api.profile().chainId === 297);
    assert.deepStrictEqual(api.profile(), {
      name: 'custom',
      label: '127.0.0.1:1',
      mirrorUrl: 'http://127.0.0.1:1/mirror',
      statusUrl: 'http://127.0.0.1:1/status/api/v2',
      verifyUrl: 'http://127.0.0.1:1/sourcify',
      chainId: 297,
      hashscanUrl: 'http://127.0.0.1:1/hashscan/previewnet',
    });
  });

  it('goes back to testnet when the setting is removed', async () => {
    const cfg = vscode.workspace.getConfiguration('hederaExplorer');
    await cfg.update('network', 'mainnet', Global);
    await waitUntil('profile mainnet', () => api.profile().name === 'mainnet');
    await resetSettings(['network']);
    await waitUntil('profile testnet again', () => api.profile().name === 'testnet');
  });
});
