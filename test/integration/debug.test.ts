// The `hedera` debug type in the real extension host, against the sandbox: a session started through the debug API
// on a failed transaction stops on the revert (seen by a DebugAdapterTracker), its stack read with
// customRequest('stackTrace') points at the workspace's Solidity line, and steps back and forward move through the
// record.
import * as assert from 'assert';
import * as vscode from 'vscode';
import type { DebugProtocol } from '@vscode/debugprotocol';
import { resetSettings, waitUntil, SANDBOX_KEYS } from './helpers';
import { useSandbox } from './views.helpers';

interface Scenario {
  transactionId: string;
}

async function lineOf(file: string, needle: string): Promise<number> {
  const [uri] = await vscode.workspace.findFiles(`**/contracts/inspector/${file}`, '**/node_modules/**', 1);
  const text = new TextDecoder().decode(await vscode.workspace.fs.readFile(uri));
  const hits = text
    .split('\n')
    .map((l, i) => (l.includes(needle) ? i + 1 : 0))
    .filter(Boolean);
  assert.strictEqual(hits.length, 1, needle);
  return hits[0];
}

describe('debug: a hedera session in the extension host', function () {
  this.timeout(120000);
  let scenarios: Record<string, Scenario>;
  const stops: DebugProtocol.StoppedEvent[] = [];
  let tracker: vscode.Disposable;

  before(async () => {
    const s = await useSandbox();
    const health = (await (await fetch(`${s.url}/__sandbox/health`)).json()) as {
      notable: { inspector: Record<string, Scenario> };
    };
    scenarios = health.notable.inspector;
    tracker = vscode.debug.registerDebugAdapterTrackerFactory('hedera', {
      createDebugAdapterTracker: () => ({
        onDidSendMessage: (m: DebugProtocol.ProtocolMessage) => {
          if (m.type === 'event' && (m as DebugProtocol.Event).event === 'stopped')
            stops.push(m as DebugProtocol.StoppedEvent);
        },
      }),
    });
  });
  after(async () => {
    tracker.dispose();
    await vscode.debug.stopDebugging();
    await resetSettings(SANDBOX_KEYS);
  });

  async function stackOf(session: vscode.DebugSession): Promise<DebugProtocol.StackFrame[]> {
    const r = (await session.customRequest('stackTrace', { threadId: 1 })) as DebugProtocol.StackTraceResponse['body'];
    return r.stackFrames;
  }

  it('stops on the revert of a revert two internal calls deep, then steps back and forward', async () => {
    const s = scenarios.inspectorInternalRevert;
    stops.length = 0;
    const started = await vscode.debug.startDebugging(vscode.workspace.workspaceFolders?.[0], {
      type: 'hedera',
      request: 'launch',
      name: 'Debug the internal revert',
      transaction: s.transactionId,
    });
    assert.ok(started, 'the session started');
    await waitUntil('the first stop', () => stops.length > 0, 60000);
    assert.strictEqual(stops[0].body.reason, 'exception');
    assert.strictEqual(stops[0].body.text, 'Vault: move exceeds balance');
    const session = vscode.debug.activeDebugSession;
    assert.ok(session && session.type === 'hedera');
    let frames = await stackOf(session);
    assert.deepStrictEqual(
      frames.map((f) => f.name),
      ['Vault._debit', 'Vault._move', 'Vault.move'],
    );
    assert.strictEqual(frames[0].line, await lineOf('Vault.sol', 'require(amount <= held'));
    assert.match(frames[0].source?.path ?? '', /contracts[\\/]inspector[\\/]Vault\.sol$/);
    // the active stack item follows the stop
    await waitUntil('an active stack frame', () => vscode.debug.activeStackItem !== undefined, 20000);
    await session.customRequest('stepBack', { threadId: 1 });
    await waitUntil('the stop after Step Back', () => stops.length > 1, 20000);
    frames = await stackOf(session);
    assert.strictEqual(frames[0].line, await lineOf('Vault.sol', 'uint256 held = balances[from];'));
    await session.customRequest('next', { threadId: 1 });
    await waitUntil('the stop after Step Over', () => stops.length > 2, 20000);
    frames = await stackOf(session);
    assert.strictEqual(frames[0].line, await lineOf('Vault.sol', 'require(amount <= held'));
    await vscode.debug.stopDebugging(session);
  });
});
