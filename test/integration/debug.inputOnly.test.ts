// The debugger on a deployed build the workspace holds as its compiler input only (Hardhat 3's Ignition copies): the
// session compiles it with the workspace's solc of that version, as revert to source does, and stops on the revert's
// line in the workspace's file. The compiler outputs it kept are removed afterwards, so that the inspector's compile
// test still compiles.
import * as assert from 'assert';
import * as fs from 'fs';
import * as path from 'path';
import * as vscode from 'vscode';
import type { DebugProtocol } from '@vscode/debugprotocol';
import { resetSettings, waitUntil, SANDBOX_KEYS } from './helpers';
import { holdInspectorBuildAsInputOnly } from './inputOnly.helpers';
import { useSandbox, type ViewsApi } from './views.helpers';

interface Scenario {
  transactionId: string;
}

describe('debug: the deployed build held as input only', function () {
  this.timeout(180000);
  let api: ViewsApi;
  let scenarios: Record<string, Scenario>;
  let held: { restore: () => void } | undefined;
  let cached: Set<string>;
  const stops: DebugProtocol.StoppedEvent[] = [];
  const stoppedIn: vscode.DebugSession[] = [];
  const output: string[] = [];
  let tracker: vscode.Disposable | undefined;
  const root = () => vscode.workspace.workspaceFolders![0].uri.fsPath;
  const cacheFiles = () =>
    fs.existsSync(api.inspector.compileCacheDir) ? fs.readdirSync(api.inspector.compileCacheDir) : [];

  before(async () => {
    const s = await useSandbox();
    api = s.api;
    const health = (await (await fetch(`${s.url}/__sandbox/health`)).json()) as {
      notable: { inspector: Record<string, Scenario> };
    };
    scenarios = health.notable.inspector;
    cached = new Set(cacheFiles());
    held = holdInspectorBuildAsInputOnly(root());
    api.inspector.forgetBuilds();
    tracker = vscode.debug.registerDebugAdapterTrackerFactory('hedera', {
      createDebugAdapterTracker: (session) => ({
        onDidSendMessage: (m: DebugProtocol.ProtocolMessage) => {
          if (m.type !== 'event') return;
          const e = m as DebugProtocol.Event;
          if (e.event === 'stopped') {
            stops.push(e as DebugProtocol.StoppedEvent);
            stoppedIn.push(session);
          }
          if (e.event === 'output') output.push((e as DebugProtocol.OutputEvent).body.output);
        },
      }),
    });
  });

  after(async () => {
    tracker?.dispose();
    await vscode.debug.stopDebugging();
    held?.restore();
    api.inspector.forgetBuilds();
    for (const f of cacheFiles())
      if (!cached.has(f)) fs.rmSync(path.join(api.inspector.compileCacheDir, f), { recursive: true, force: true });
    await resetSettings(SANDBOX_KEYS);
  });

  it("compiles the input with the workspace's solc and stops on the revert's line in the workspace's file", async () => {
    const started = await vscode.debug.startDebugging(vscode.workspace.workspaceFolders?.[0], {
      type: 'hedera',
      request: 'launch',
      name: 'Debug with the build held as input only',
      transaction: scenarios.inspectorInternalRevert.transactionId,
    });
    assert.ok(started, 'the session started');
    await waitUntil('the stop on the revert', () => stops.length > 0, 150000);
    assert.strictEqual(stops[0].body.reason, 'exception', output.join(''));
    // the session that stopped (the active one may still be one a suite before ended)
    const session = stoppedIn[0];
    assert.ok(session && session.type === 'hedera', 'the hedera session stopped');
    const { stackFrames } = (await session.customRequest('stackTrace', {
      threadId: 1,
    })) as DebugProtocol.StackTraceResponse['body'];
    const top = stackFrames[0];
    assert.strictEqual(top.name, 'Vault._debit', JSON.stringify(stackFrames.map((f) => f.name)));
    assert.match(top.source?.path ?? '', /contracts[\\/]inspector[\\/]Vault\.sol$/);
    const lines = fs.readFileSync(path.join(root(), 'contracts/inspector/Vault.sol'), 'utf8').split('\n');
    assert.match(lines[top.line - 1], /require\(amount <= held/);
    // the output was produced here and kept
    assert.ok(
      cacheFiles().some((f) => !cached.has(f) && f.endsWith('.json')),
      'a compiler output was kept',
    );
    await vscode.debug.stopDebugging(session);
  });
});
