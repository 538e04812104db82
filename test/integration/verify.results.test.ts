// The verification results kept in workspaceState (src/features/verification/results.ts) and the prompts the
// tests observe (prompts.ts), in the real extension host with the real `vscode` module. This bundle has its own
// copy of both modules and inspects only the objects it creates. The store is an in-memory vscode.Memento (the
// extension's workspaceState is not reachable from here). The `hasResult` context key is set through the real
// `setContext` command, but VS Code cannot read a context key back, so the tests check what the code sets it from
// (`!!current`). The quick pick and the input box are VS Code's own, answered with workbench commands.
import * as assert from 'assert';
import * as vscode from 'vscode';
import { VerificationResults } from '../../src/features/verification/results';
import { type VerificationPrompts, recordingPrompts, vscodePrompts } from '../../src/features/verification/prompts';
import type { VerificationRecord } from '../../src/features/verification/record';
import { activateApi, waitUntil } from './helpers';

/** An in-memory workspaceState: values are copied in and out, as the real one keeps them as JSON. */
class InMemoryMemento implements vscode.Memento {
  private readonly values = new Map<string, unknown>();
  keys(): readonly string[] {
    return [...this.values.keys()];
  }
  get<T>(key: string): T | undefined;
  get<T>(key: string, defaultValue: T): T;
  get<T>(key: string, defaultValue?: T): T | undefined {
    return this.values.has(key) ? (structuredClone(this.values.get(key)) as T) : defaultValue;
  }
  async update(key: string, value: unknown): Promise<void> {
    if (value === undefined) this.values.delete(key);
    else this.values.set(key, structuredClone(value));
  }
}

const record = (n: number, finished = n): VerificationRecord =>
  ({
    version: 1,
    key: `custom|296|0x${String(n).padStart(40, '0')}`,
    api: 'session',
    network: 'custom',
    networkLabel: 'Sandbox',
    chainId: 296,
    address: `0x${String(n).padStart(40, '0')}`,
    source: 'typed in',
    server: 'http://127.0.0.1',
    startedAt: new Date(finished * 1000).toISOString(),
    finishedAt: new Date(finished * 1000).toISOString(),
    contracts: [],
    unused: [],
  }) as unknown as VerificationRecord;

/**
 * Answers the prompt `shown` with `command` (close or accept the quick input) once `ready` says it is open, and
 * returns its answer. VS Code shows an input box as it receives the request, before any command sent after it; a
 * pick gets its items a moment later, and accepting it before one of them is active accepts nothing.
 */
async function answer<T>(shown: Promise<T>, command: string, ready: () => boolean = () => true): Promise<T> {
  await waitUntil('the quick input open', ready);
  await vscode.commands.executeCommand(command);
  return shown;
}

describe('verify: kept results and prompts (results.ts, prompts.ts)', () => {
  const created: VerificationResults[] = [];
  const results = (state: vscode.Memento) => {
    const r = new VerificationResults(state);
    created.push(r);
    return r;
  };
  // what results.ts sets the hederaExplorer.verification.hasResult context key to
  const hasResult = (kept: VerificationResults) => !!kept.current;

  afterEach(() => {
    for (const r of created.splice(0)) r.dispose();
  });
  after(async () => {
    await vscode.commands.executeCommand('workbench.action.closeQuickOpen');
    // this copy of results.ts set the context key too: the extension's own results set it back
    (await activateApi()).verification.reload();
  });

  it('keeps the newest 50, shows the newest, replaces a result for the same address and network', async () => {
    const state = new InMemoryMemento();
    const kept = results(state);
    assert.deepStrictEqual([kept.current, kept.kept()], [undefined, []]);
    assert.strictEqual(hasResult(kept), false);
    let changes = 0;
    kept.onDidChange(() => changes++);
    for (let n = 1; n <= 52; n++) await kept.show(record(n));
    assert.strictEqual(kept.kept().length, 50);
    assert.strictEqual(kept.kept()[0].key, record(52).key, 'newest first');
    assert.ok(!kept.kept().some((r) => r.key === record(1).key || r.key === record(2).key), 'the oldest are dropped');
    assert.strictEqual(kept.current?.key, record(52).key);
    assert.strictEqual(changes, 52);
    assert.strictEqual(hasResult(kept), true);
    await kept.show(record(30, 100));
    assert.strictEqual(kept.kept().length, 50, 'same address and network: replaced');
    assert.strictEqual(kept.kept()[0].key, record(30).key);
  });

  it('select, clear (then the newest remaining), clearAll; reload reads workspaceState again', async () => {
    const state = new InMemoryMemento();
    const kept = results(state);
    for (const n of [1, 2, 3]) await kept.show(record(n));
    await kept.select(record(1).key);
    assert.strictEqual(kept.current?.key, record(1).key);
    await kept.select('unknown');
    assert.strictEqual(kept.current?.key, record(1).key, 'an unknown key changes nothing');
    const again = results(state);
    assert.strictEqual(again.current?.key, record(1).key, 'the shown result is kept too');
    await kept.clear();
    assert.deepStrictEqual(
      kept.kept().map((r) => r.key),
      [record(3).key, record(2).key],
    );
    assert.strictEqual(kept.current?.key, record(3).key);
    await kept.clear(record(2).key);
    assert.strictEqual(kept.current?.key, record(3).key);
    await state.update('hederaExplorer.verification.records', { [record(7).key]: record(7) });
    kept.reload();
    assert.deepStrictEqual(
      kept.kept().map((r) => r.key),
      [record(7).key],
    );
    assert.strictEqual(kept.current?.key, record(7).key, 'the stored current key is gone: the newest');
    await kept.clearAll();
    assert.deepStrictEqual([kept.kept(), kept.current, hasResult(kept)], [[], undefined, false]);
    assert.deepStrictEqual(results(state).kept(), []);
  });

  it('the running text shows until a result is shown', async () => {
    const kept = results(new InMemoryMemento());
    kept.setRunning('Verifying…');
    assert.strictEqual(kept.running, 'Verifying…');
    await kept.show(record(1));
    assert.strictEqual(kept.running, undefined);
  });

  it("prompts: VS Code's normally; in test mode each recorded (kind, title, labels without codicons or separators) before it is shown", async () => {
    let asked = 0;
    const plain = vscodePrompts({} as never);
    const real: VerificationPrompts = {
      ...plain,
      apiKey: async () => {
        asked++;
        return false;
      },
    };
    const recording = recordingPrompts(real);
    assert.strictEqual(recording.last(), undefined);
    const items = [
      { label: '$(symbol-class) Token' },
      { label: '', kind: vscode.QuickPickItemKind.Separator },
      { label: '$(edit) Enter an address…' },
    ];
    // VS Code's quick pick, open with its first item active (as VS Code told the extension), dismissed
    const pickShown = () => recording.last()?.active !== undefined;
    assert.strictEqual(
      await answer(
        recording.pick('address', items, { title: 'Verify Contract' }),
        'workbench.action.closeQuickOpen',
        pickShown,
      ),
      undefined,
    );
    assert.deepStrictEqual(recording.last(), {
      seq: 1,
      kind: 'address',
      title: 'Verify Contract',
      items: ['Token', 'Enter an address…'],
      active: 'Token',
    });
    // VS Code's input box, accepted with the value it was opened with
    assert.strictEqual(
      await answer(
        recording.input('addressInput', { title: 'Contract to verify', value: 'typed' }),
        'workbench.action.acceptSelectedQuickOpenItem',
      ),
      'typed',
    );
    assert.deepStrictEqual(recording.last(), { seq: 2, kind: 'addressInput', title: 'Contract to verify', items: [] });
    assert.strictEqual(await recording.apiKey(), false);
    assert.deepStrictEqual([recording.last()?.seq, recording.last()?.kind, asked], [3, 'apiKey', 1]);
    assert.ok(!('last' in plain), 'the normal prompts record nothing');
    // shown as given: accepting VS Code's quick pick returns the very item passed in, codicon and all
    const accepted = await answer(
      recording.pick('address', items, { title: 'Verify Contract' }),
      'workbench.action.acceptSelectedQuickOpenItem',
      pickShown,
    );
    assert.strictEqual(accepted, items[0], 'shown as given');
    assert.strictEqual(accepted?.label, '$(symbol-class) Token');
    assert.deepStrictEqual(recording.last(), {
      seq: 4,
      kind: 'address',
      title: 'Verify Contract',
      items: ['Token', 'Enter an address…'],
      active: 'Token',
    });
  });
});
