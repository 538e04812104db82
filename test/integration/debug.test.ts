// The `hedera` debug type in the real extension host, against the sandbox: a session started through the debug API
// on a failed transaction stops on the revert (seen by a DebugAdapterTracker), its stack read with
// customRequest('stackTrace') points at the workspace's Solidity line, and steps back and forward move through the
// record. Through a proxy, the implementation's lines.
import * as assert from 'assert';
import * as vscode from 'vscode';
import type { DebugProtocol } from '@vscode/debugprotocol';
import { resetSettings, waitUntil, SANDBOX_KEYS } from './helpers';
import { useSandbox, type ViewsApi } from './views.helpers';

interface Scenario {
  transactionId: string;
  timestamp: string;
  hash: string;
  contractId: string | null;
  actions: number;
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
  let api: ViewsApi;
  let sandbox: string;
  const stops: DebugProtocol.StoppedEvent[] = [];
  /** The session each stop came from (`stops[i]` from `stoppedIn[i]`). */
  const stoppedIn: vscode.DebugSession[] = [];
  /** What the adapter wrote to the Debug Console. */
  const console: string[] = [];
  /** The sessions that ended (their ids). */
  const ended = new Set<string>();
  let endings: vscode.Disposable;
  let tracker: vscode.Disposable;

  before(async () => {
    const s = await useSandbox();
    api = s.api;
    sandbox = s.url;
    const health = (await (await fetch(`${s.url}/__sandbox/health`)).json()) as {
      notable: { inspector: Record<string, Scenario> };
    };
    scenarios = health.notable.inspector;
    endings = vscode.debug.onDidTerminateDebugSession((session) => ended.add(session.id));
    tracker = vscode.debug.registerDebugAdapterTrackerFactory('hedera', {
      createDebugAdapterTracker: (session) => ({
        onDidSendMessage: (m: DebugProtocol.ProtocolMessage) => {
          if (m.type === 'event' && (m as DebugProtocol.Event).event === 'stopped') {
            stops.push(m as DebugProtocol.StoppedEvent);
            stoppedIn.push(session);
          }
          if (m.type === 'event' && (m as DebugProtocol.Event).event === 'output')
            console.push((m as DebugProtocol.OutputEvent).body.output);
        },
      }),
    });
  });
  after(async () => {
    tracker.dispose();
    endings.dispose();
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
    stoppedIn.length = 0;
    console.length = 0;
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
    assert.ok(console.includes('Traced by the mirror node\n'), console.join(''));
    const session = stoppedIn[0];
    assert.ok(session && session.type === 'hedera');
    let frames = await stackOf(session);
    assert.deepStrictEqual(
      frames.map((f) => f.name),
      ['Vault._debit', 'Vault._move', 'Vault.move'],
    );
    assert.strictEqual(frames[0].line, await lineOf('Vault.sol', 'require(amount <= held'));
    assert.match(frames[0].source?.path ?? '', /contracts[\\/]inspector[\\/]Vault\.sol$/);
    // the Variables view's requests, as VS Code sends them: an internal function's arguments and locals read from the
    // stack (likely), msg, the EVM state; and a watch expression: the require fails, so the amount is more than held
    const scopes = (
      (await session.customRequest('scopes', { frameId: frames[0].id })) as DebugProtocol.ScopesResponse['body']
    ).scopes;
    const variables = async (name: string): Promise<Map<string, string>> => {
      const scope = scopes.find((sc) => sc.name === name);
      assert.ok(scope, `${name} in ${scopes.map((sc) => sc.name).join(', ')}`);
      const r = (await session.customRequest('variables', {
        variablesReference: scope.variablesReference,
      })) as DebugProtocol.VariablesResponse['body'];
      return new Map(r.variables.map((v) => [v.name, v.value]));
    };
    const locals = await variables('Locals (likely: read from the stack)');
    assert.match(locals.get('amount') ?? '', /^\d+$/, [...locals.keys()].join(', '));
    assert.match(locals.get('from') ?? '', /^0x[0-9a-f]{40}$/i);
    assert.match((await variables('Message')).get('msg.sender') ?? '', /^0x[0-9a-f]{40}$/i);
    assert.match((await variables('EVM')).get('gas left') ?? '', /^\d+$/);
    const held = (await session.customRequest('evaluate', {
      expression: 'held',
      frameId: frames[0].id,
      context: 'watch',
    })) as DebugProtocol.EvaluateResponse['body'];
    assert.strictEqual(held.result, locals.get('held'));
    assert.ok(BigInt(locals.get('amount') ?? '0') > BigInt(held.result), `${locals.get('amount')} > ${held.result}`);
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

  it("through a proxy: the implementation's lines under the proxy's frame, and revert to source places the revert in the implementation", async () => {
    const s = scenarios.inspectorProxyRevert;
    const session = await launch('Debug the revert behind the proxy', s.transactionId);
    assert.strictEqual(stops[0].body.reason, 'exception');
    assert.strictEqual(stops[0].body.text, 'LimitExceeded(limit=100000000000, amount=200000000000)');
    const frames = await stackOf(session);
    assert.deepStrictEqual(
      frames.map((f) => [f.name, f.line]),
      [
        ['VaultRules._check', await lineOf('VaultRules.sol', 'revert LimitExceeded(')],
        ['VaultRules.request', await lineOf('VaultRules.sol', 'left = _check(amount);')],
        ['VaultProxy.fallback', await lineOf('VaultProxy.sol', 'delegatecall(gas(), implementation')],
      ],
    );
    // the workspace's files (the builds found by the code on chain: neither contract has a deployment record)
    assert.match(frames[0].source?.path ?? '', /contracts[\\/]inspector[\\/]VaultRules\.sol$/);
    assert.match(frames[2].source?.path ?? '', /contracts[\\/]inspector[\\/]VaultProxy\.sol$/);
    await vscode.debug.stopDebugging(session);
    await waitUntil('the session ended', () => ended.has(session.id), 20000);
    // the inspector's Source section: the same place, exact
    const panel = await api.inspector.inspect(s.transactionId);
    assert.ok(panel, 'a panel');
    await api.inspector.settled(panel);
    const src = api.inspector.snapshot(panel).sections.source;
    assert.strictEqual(src.state, 'ready', JSON.stringify(src));
    if (src.state !== 'ready') return;
    assert.strictEqual(src.data.mode, 'exact', JSON.stringify(src.data.notes));
    assert.deepStrictEqual(
      src.data.frames.map((f) => [f.kind, f.sourceName, f.line]),
      [
        ['revert', 'contracts/inspector/VaultRules.sol', await lineOf('VaultRules.sol', 'revert LimitExceeded(')],
        ['internal', 'contracts/inspector/VaultRules.sol', await lineOf('VaultRules.sol', 'left = _check(amount);')],
        [
          'callSite',
          'contracts/inspector/VaultProxy.sol',
          await lineOf('VaultProxy.sol', 'delegatecall(gas(), implementation'),
        ],
      ],
    );
    await vscode.commands.executeCommand('workbench.action.closeAllEditors');
  });

  const opcodes = async (enabled: boolean): Promise<void> => {
    const r = await fetch(`${sandbox}/__sandbox/opcodes`, { method: 'POST', body: JSON.stringify({ enabled }) });
    assert.deepStrictEqual(await r.json(), { enabled });
  };

  /** Starts a session with `start` and waits for its first stop; the session and its call stack. */
  async function firstStop(start: () => Thenable<unknown>): Promise<vscode.DebugSession> {
    stops.length = 0;
    stoppedIn.length = 0;
    console.length = 0;
    await start();
    await waitUntil('the first stop', () => stops.length > 0, 90000);
    // the session that stopped (the active one may still be the one a test before ended)
    const session = stoppedIn[0];
    assert.ok(session && session.type === 'hedera');
    return session;
  }

  /** Starts a session from a launch configuration naming `transaction` and waits for its first stop. */
  const launch = (name: string, transaction: string): Promise<vscode.DebugSession> =>
    firstStop(() =>
      vscode.debug.startDebugging(vscode.workspace.workspaceFolders?.[0], {
        type: 'hedera',
        request: 'launch',
        name,
        transaction,
      }),
    );

  it('named by consensus timestamp, on a mirror node without opcode traces: replayed locally, checked, said in the Debug Console', async () => {
    const s = scenarios.inspectorDeepRevert;
    await opcodes(false);
    try {
      const session = await launch('Debug the deep revert by timestamp', s.timestamp);
      assert.strictEqual(stops[0].body.reason, 'exception');
      const said = console.join('');
      assert.ok(
        said.includes(`Replayed locally · matches the network's record (${s.actions} of ${s.actions} calls)\n`),
        said,
      );
      const frames = await stackOf(session);
      assert.strictEqual(frames[0].line, await lineOf('Ledger.sol', '"Ledger: amount too large"'));
      await vscode.debug.stopDebugging(session);
    } finally {
      await opcodes(true);
    }
  });

  it("Debug Transaction from the inspector's page, a Contract Results row and a hover's link (an argument checked before anything starts)", async () => {
    const s = scenarios.inspectorInternalRevert;
    const panel = await api.inspector.inspect(s.transactionId);
    assert.ok(panel, 'a panel');
    await api.inspector.settled(panel);
    let session = await firstStop(() => panel.receive({ type: 'debug' }));
    assert.strictEqual(stops[0].body.text, 'Vault: move exceeds balance');
    await vscode.debug.stopDebugging(session);
    await waitUntil('the session ended', () => ended.has(session.id), 20000);
    // a Contract Results row's action passes the result (its hash and timestamp)
    session = await firstStop(() =>
      vscode.commands.executeCommand('hederaExplorer.contractResults.debug', {
        timestamp: s.timestamp,
        hash: s.hash,
        contract_id: s.contractId,
      }),
    );
    assert.strictEqual(stops[0].body.text, 'Vault: move exceeds balance');
    assert.strictEqual(session.configuration.transaction, s.hash, "named by the row's hash");
    await vscode.debug.stopDebugging(session);
    await waitUntil('the session ended', () => ended.has(session.id), 20000);
    // a hover's command link passes the reference as text
    session = await firstStop(() => vscode.commands.executeCommand('hederaExplorer.debugTransaction', s.timestamp));
    assert.strictEqual(stops[0].body.text, 'Vault: move exceeds balance');
    await vscode.debug.stopDebugging(session);
    await waitUntil('the session ended', () => ended.has(session.id), 20000);
    // text that is no transaction reference starts nothing
    // (the command returns after startDebugging would have resolved: a session started would be counted by then)
    let starts = 0;
    const counting = vscode.debug.onDidStartDebugSession(() => starts++);
    const started = await vscode.commands.executeCommand('hederaExplorer.debugTransaction', 'not a transaction');
    counting.dispose();
    assert.strictEqual(started, false);
    assert.strictEqual(starts, 0, 'no session started');
    await vscode.commands.executeCommand('workbench.action.closeAllEditors');
  });
});
