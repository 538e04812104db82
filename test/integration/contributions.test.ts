// The manifest contributes the container, views, commands and settings, and the commands are registered
// at run time (not only declared).
import * as assert from 'assert';
import * as vscode from 'vscode';
import { activateApi, extension } from './helpers';

const VIEWS = [
  'hederaExplorer.status',
  'hederaExplorer.schedules',
  'hederaExplorer.contractResults',
  'hederaExplorer.verification',
  'hederaExplorer.deployments',
];
const COMMANDS = [
  'hederaExplorer.selectNetwork',
  'hederaExplorer.showLog',
  'hederaExplorer.setApiKey',
  'hederaExplorer.clearApiKey',
];
const SETTINGS: Record<string, unknown> = {
  'hederaExplorer.network': 'testnet',
  'hederaExplorer.custom.name': '',
  'hederaExplorer.custom.mirrorUrl': '',
  'hederaExplorer.custom.statusUrl': 'https://status.hedera.com/api/v2',
  'hederaExplorer.custom.verifyUrl': 'https://sourcify.dev/server',
  'hederaExplorer.custom.chainId': 296,
  'hederaExplorer.custom.hashscanUrl': 'https://hashscan.io/testnet',
  'hederaExplorer.http.timeoutSeconds': 15,
};

describe('contributions', () => {
  const pkg = (): any => extension().packageJSON;

  it('contributes the Hedera activity bar container', () => {
    const containers = pkg().contributes.viewsContainers.activitybar;
    const hedera = containers.find((c: { id: string }) => c.id === 'hederaExplorer');
    assert.ok(hedera, 'container hederaExplorer');
    assert.ok(['Hedera', '%container.title%'].includes(hedera.title), `title ${hedera.title}`);
  });

  it('contributes the views (status, schedules, contract results, verification, deployments), each with a welcome text', () => {
    const views = pkg().contributes.views.hederaExplorer.map((v: { id: string }) => v.id);
    assert.deepStrictEqual(views, VIEWS);
    const welcome = pkg().contributes.viewsWelcome.map((w: { view: string }) => w.view);
    for (const v of VIEWS) assert.ok(welcome.includes(v), `viewsWelcome for ${v}`);
  });

  it('declares the commands in the manifest', () => {
    const declared = pkg().contributes.commands.map((c: { command: string }) => c.command);
    for (const c of COMMANDS) assert.ok(declared.includes(c), `contributes.commands has ${c}`);
  });

  it('registers the commands once activated', async () => {
    await activateApi();
    const registered = await vscode.commands.getCommands(true);
    for (const c of COMMANDS) assert.ok(registered.includes(c), `command ${c} is registered`);
  });

  it('contributes the settings with their defaults', () => {
    const props = pkg().contributes.configuration.properties;
    for (const [key, def] of Object.entries(SETTINGS)) {
      assert.ok(props[key], `setting ${key} is contributed`);
      assert.deepStrictEqual(props[key].default, def, `default of ${key}`);
      const [section, ...rest] = key.split('.');
      const inspected = vscode.workspace.getConfiguration(section).inspect(rest.join('.'));
      assert.deepStrictEqual(inspected?.defaultValue, def, `VS Code knows the default of ${key}`);
    }
    assert.deepStrictEqual(props['hederaExplorer.network'].enum, [
      'mainnet',
      'testnet',
      'previewnet',
      'local',
      'custom',
    ]);
    // the sandbox is a developer tool: the extension has no network and no setting of it
    assert.deepStrictEqual(
      Object.keys(props).filter((k) => /sandbox/i.test(k)),
      [],
    );
  });
});
