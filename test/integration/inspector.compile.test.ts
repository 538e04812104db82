// Revert to source when the workspace holds only the compiler input of the build deployed (Hardhat 3's `ignition
// deploy`: Ignition's copy of the production profile's build, no `.output.json`, and no compiled build of it in
// artifacts/): the extension compiles it with the solc of that version the machine has (here the workspace's
// node_modules/solc, the npm package the repository tests with), caches the output in its global storage, and places
// the deep revert exactly, as with the compiled build. The workspace's files are put back afterwards.
import * as assert from 'assert';
import * as fs from 'fs';
import * as path from 'path';
import * as vscode from 'vscode';
import type { InspectorPanel } from '../../src/features/inspector/panel';
import { resetSettings, SANDBOX_KEYS } from './helpers';
import { useSandbox, type ViewsApi } from './views.helpers';

interface Scenario {
  transactionId: string;
}

describe('Revert to source with the deployed build held as input only', function () {
  this.timeout(180000);
  let api: ViewsApi;
  let scenarios: Record<string, Scenario>;
  const root = () => vscode.workspace.workspaceFolders![0].uri.fsPath;
  const moved: Array<[string, string]> = [];
  const written: string[] = [];

  before(async () => {
    const s = await useSandbox();
    api = s.api;
    const health = (await (await fetch(`${s.url}/__sandbox/health`)).json()) as {
      notable: { inspector: Record<string, Scenario> };
    };
    scenarios = health.notable.inspector;
    const ws = root();
    // the inspector's build, as Hardhat 3's Ignition keeps a build-profile build: its input only
    const dbg = JSON.parse(
      fs.readFileSync(path.join(ws, 'artifacts/contracts/inspector/Vault.sol/Vault.dbg.json'), 'utf8'),
    ) as { buildInfo: string };
    const info = JSON.parse(
      fs.readFileSync(path.join(ws, 'artifacts/contracts/inspector/Vault.sol', dbg.buildInfo), 'utf8'),
    ) as { id: string; solcVersion: string; solcLongVersion: string; input: unknown };
    const dep = path.join(ws, 'ignition/deployments/chain-296');
    const write = (rel: string, v: unknown) => {
      const f = path.join(dep, rel);
      fs.mkdirSync(path.dirname(f), { recursive: true });
      fs.writeFileSync(f, JSON.stringify(v));
      written.push(f);
    };
    write(`build-info/${info.id}.json`, {
      _format: 'hh3-sol-build-info-1',
      id: info.id,
      solcVersion: info.solcVersion,
      solcLongVersion: info.solcLongVersion,
      input: info.input,
    });
    for (const name of ['Vault', 'Ledger', 'Accounting'])
      write(`artifacts/InspectorModule#${name}.json`, {
        _format: 'hh3-artifact-1',
        contractName: name,
        sourceName: `contracts/inspector/${name}.sol`,
        abi: [],
        bytecode: '0x',
        deployedBytecode: '0x',
        linkReferences: {},
        deployedLinkReferences: {},
        buildInfoId: info.id,
      });
    // no compiled build of it in the workspace
    for (const rel of ['artifacts/build-info', 'artifacts/contracts']) {
      const from = path.join(ws, rel);
      moved.push([from, `${from}.hidden-by-test`]);
      fs.renameSync(from, `${from}.hidden-by-test`);
    }
    // the user's compiler: npm solc in the workspace's node_modules (the repository's)
    const solc = path.join(ws, 'node_modules/solc');
    fs.mkdirSync(path.dirname(solc), { recursive: true });
    fs.symlinkSync(path.resolve(__dirname, '../../../node_modules/solc'), solc, 'dir');
    written.push(solc);
    api.inspector.forgetBuilds();
  });

  after(async () => {
    for (const f of written.reverse()) fs.rmSync(f, { recursive: true, force: true });
    for (const [from, to] of moved) if (fs.existsSync(to)) fs.renameSync(to, from);
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
