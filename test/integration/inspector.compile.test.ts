// Revert to source when the workspace holds only the compiler input of the build deployed (Hardhat 3's `ignition
// deploy`: Ignition's copy of the production profile's build, no `.output.json`, and no compiled build of it in
// artifacts/): the extension compiles it with the solc of that version the machine has (here the workspace's
// node_modules/solc, the npm package the repository tests with), caches the output in its global storage, and places
// the deep revert exactly, as with the compiled build. The workspace's files are put back afterwards.
import * as assert from 'assert';
import * as fs from 'fs';
import * as vscode from 'vscode';
import type { InspectorPanel } from '../../src/features/inspector/panel';
import { resetSettings, SANDBOX_KEYS } from './helpers';
import { holdInspectorBuildAsInputOnly } from './inputOnly.helpers';
import { useSandbox, type ViewsApi } from './views.helpers';

interface Scenario {
  transactionId: string;
}

describe('Revert to source with the deployed build held as input only', function () {
  this.timeout(180000);
  let api: ViewsApi;
  let scenarios: Record<string, Scenario>;
  const root = () => vscode.workspace.workspaceFolders![0].uri.fsPath;
  let held: { restore: () => void } | undefined;

  before(async () => {
    const s = await useSandbox();
    api = s.api;
    const health = (await (await fetch(`${s.url}/__sandbox/health`)).json()) as {
      notable: { inspector: Record<string, Scenario> };
    };
    scenarios = health.notable.inspector;
    // the inspector's build, as Hardhat 3's Ignition keeps a build-profile build: its input only
    held = holdInspectorBuildAsInputOnly(root());
    api.inspector.forgetBuilds();
  });

  after(async () => {
    held?.restore();
    api.inspector.forgetBuilds();
    await vscode.commands.executeCommand('workbench.action.closeAllEditors');
    await resetSettings(SANDBOX_KEYS);
  });

  it("compiles the input with the workspace's solc of that version, caches the output and places the deep revert exactly", async () => {
    const cacheDir = api.inspector.compileCacheDir;
    const before = fs.existsSync(cacheDir) ? fs.readdirSync(cacheDir).length : 0;
    await vscode.commands.executeCommand('workbench.action.closeAllEditors');
    const p = (await vscode.commands.executeCommand(
      'hederaExplorer.inspectTransaction',
      scenarios.inspectorDeepRevert.transactionId,
    )) as InspectorPanel;
    await api.inspector.settled(p);
    const src = api.inspector.snapshot(p).sections.source;
    assert.strictEqual(src.state, 'ready', JSON.stringify(src));
    if (src.state !== 'ready') return;
    assert.strictEqual(src.data.mode, 'exact', JSON.stringify(src.data.notes));
    assert.deepStrictEqual(
      src.data.frames.map((f) => [f.kind, f.sourceName]),
      [
        ['revert', 'contracts/inspector/Ledger.sol'],
        ['callSite', 'contracts/inspector/Accounting.sol'],
        ['callSite', 'contracts/inspector/Vault.sol'],
      ],
    );
    assert.ok(
      src.data.frames.every((f) => f.target >= 0),
      'every frame opens',
    );
    // the output was kept: a second look-up reads it from the cache instead of compiling again
    assert.strictEqual(fs.readdirSync(cacheDir).filter((n) => n.endsWith('.json')).length, before + 1);
  });
});
