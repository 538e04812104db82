// Revert to source on the sandbox's placement ledger: the placement matrix's contracts (test/placement/contracts),
// compiled with real solc in each setting, deployed and every failing case executed on the sandbox's EVM, served as
// the mirror node serves them (HEDERA_PLACEMENT_URL, `--placement`); the Hardhat 2 project of those deployments that
// the sandbox wrote (HEDERA_PLACEMENT_WORKSPACE: one Ignition deployment per setting) added as a workspace folder.
// For a handful of cases the inspector's Source section must show the line the source marks (`// @fails <case>`):
// exact on it, or "likely" with it among the candidates; never an exact line that is not the marked one.
import * as assert from 'assert';
import * as fs from 'fs';
import * as path from 'path';
import * as vscode from 'vscode';
import type { InspectorPanel } from '../../src/features/inspector/panel';
import { activateApi, type HederaTestApi, resetSettings, SANDBOX_KEYS, selectSandbox, waitUntil } from './helpers';

interface PlacementCase {
  transactionId: string;
  result: string;
  creation: boolean;
}

interface PlacementSetting {
  deploymentId: string;
  contracts: Record<string, { id: string; address: string }>;
  cases: Record<string, PlacementCase>;
}

/** The cases looked at, by setting: a require, a custom error, a Panic, a modifier, a library, a constructor, viaIR. */
const CASES: Array<[setting: string, name: string]> = [
  ['default', 'requireMsg'],
  ['default', 'customErr'],
  ['default', 'panic12'],
  ['default', 'modifier'],
  ['default', 'linkedLib'],
  ['default', 'ctorRequire'],
  ['optimizer', 'libInternalRequire'],
  ['viaIR', 'requireMsg'],
  ['viaIR-optimizer', 'customErr'],
];

/** Every `// @fails <case>` marker of the project's sources: case → `contracts/File.sol:line` (read here, not asked of the sandbox). */
function markers(dir: string): Map<string, string[]> {
  const out = new Map<string, string[]>();
  for (const f of fs.readdirSync(path.join(dir, 'contracts')).filter((n) => n.endsWith('.sol'))) {
    const lines = fs.readFileSync(path.join(dir, 'contracts', f), 'utf8').split('\n');
    lines.forEach((line, i) => {
      const m = /\/\/ @fails (.+)$/.exec(line);
      for (const c of m ? m[1].trim().split(/\s+/) : []) out.set(c, [...(out.get(c) ?? []), `contracts/${f}:${i + 1}`]);
    });
  }
  return out;
}

describe("Revert to source on the sandbox's placement ledger", function () {
  this.timeout(300000);
  const url = process.env.HEDERA_PLACEMENT_URL;
  const dir = process.env.HEDERA_PLACEMENT_WORKSPACE;
  let api: HederaTestApi;
  let ledger: Record<string, PlacementSetting>;
  let marks: Map<string, string[]>;
  const copied: string[] = [];

  before(async () => {
    if (!url || !dir)
      throw new Error(
        'the runner started no sandbox with the placement ledger (HEDERA_PLACEMENT_URL; a HEDERA_TEST_GREP must match "placement ledger")',
      );
    api = await activateApi();
    await selectSandbox(url);
    const health = (await (await fetch(`${url}/__sandbox/health`)).json()) as {
      notable: { placement?: Record<string, PlacementSetting> };
    };
    assert.ok(health.notable.placement, 'the sandbox serves the placement ledger');
    ledger = health.notable.placement;
    marks = markers(dir);
    // the project the sandbox wrote, into the window's folder (adding a folder would reload a web workbench): its
    // sources, builds and Ignition deployments, none of them a file the demo workspace has
    const root = vscode.workspace.workspaceFolders![0].uri.fsPath;
    const entries = [
      ...fs.readdirSync(path.join(dir, 'contracts')).map((n) => `contracts/${n}`),
      ...fs.readdirSync(path.join(dir, 'artifacts/build-info')).map((n) => `artifacts/build-info/${n}`),
      ...fs.readdirSync(path.join(dir, 'artifacts/contracts')).map((n) => `artifacts/contracts/${n}`),
      ...fs.readdirSync(path.join(dir, 'ignition/deployments')).map((n) => `ignition/deployments/${n}`),
    ];
    for (const e of entries) {
      assert.ok(!fs.existsSync(path.join(root, e)), `the demo workspace has no ${e}`);
      fs.cpSync(path.join(dir, e), path.join(root, e), { recursive: true });
      copied.push(path.join(root, e));
    }
    api.inspector.forgetBuilds();
    const targets = Object.values(ledger).map((l) => l.contracts.Target.address);
    await waitUntil(
      "the placement deployments in the ABI index's records",
      () => {
        const records = api.abis.workspace().deployments.map((d) => d.address.toLowerCase());
        return targets.every((t) => records.includes(t));
      },
      120000,
    );
    await api.abis.ready();
  });

  after(async () => {
    await vscode.commands.executeCommand('workbench.action.closeAllEditors');
    for (const p of copied) fs.rmSync(p, { recursive: true, force: true });
    api?.inspector.forgetBuilds();
    await resetSettings(SANDBOX_KEYS);
  });

  for (const [setting, name] of CASES) {
    it(`${setting}: ${name} is shown on its marked line (exact, or likely among the candidates)`, async () => {
      const c = ledger[setting]?.cases[name];
      assert.ok(c, `the ledger has ${setting} ${name}`);
      assert.notStrictEqual(c.result, 'SUCCESS', 'the case failed on chain');
      const expected = marks.get(name)?.[0];
      assert.ok(expected, `${name} is marked in the sources`);
      await vscode.commands.executeCommand('workbench.action.closeAllEditors');
      const p = (await vscode.commands.executeCommand(
        'hederaExplorer.inspectTransaction',
        c.transactionId,
      )) as InspectorPanel;
      await api.inspector.settled(p);
      const src = api.inspector.snapshot(p).sections.source;
      assert.strictEqual(src.state, 'ready', JSON.stringify(src));
      if (src.state !== 'ready') return;
      const shown = src.data.frames.map((f) => `${f.sourceName}:${f.line}`);
      const why = `${src.data.mode} ${JSON.stringify(shown)} (${src.data.notes.join(' ')})`;
      console.log(`      (${setting} ${name}: ${src.data.mode}, ${shown.slice(0, 3).join(', ')})`);
      if (src.data.mode === 'exact') {
        assert.strictEqual(shown[0], expected, `an exact line that is not the marked one: ${why}`);
        assert.ok(src.data.frames[0].target >= 0, 'the exact place opens');
      } else {
        assert.strictEqual(src.data.mode, 'likely', `placed nowhere: ${why}`);
        assert.ok(shown.includes(expected), `likely, without the marked line ${expected}: ${why}`);
      }
      // the frame came from the build of that setting's deployment, not from another setting's
      assert.ok(
        !src.data.notes.some((n) => /changed since|does not match|no build/i.test(n)),
        `the deployed build was found: ${why}`,
      );
    });
  }
});
