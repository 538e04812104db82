// The verification results kept in workspaceState (src/features/verification/results.ts) and the prompts the
// tests observe (prompts.ts): under Node with a small stand-in for the `vscode` module, loaded before them.
import * as assert from 'assert';
import Module = require('module');
import type * as Results from '../../src/features/verification/results';
import type * as Prompts from '../../src/features/verification/prompts';
import type { VerificationRecord } from '../../src/features/verification/record';

const contextKeys: Array<[string, unknown]> = [];
const shown: Array<{ what: string; arg: unknown }> = [];
const vscodeStub = {
  EventEmitter: class {
    private listeners: Array<() => void> = [];
    event = (l: () => void) => { this.listeners.push(l); return { dispose() {} }; };
    fire() { for (const l of this.listeners) l(); }
    dispose() { this.listeners = []; }
  },
  commands: {
    executeCommand: async (id: string, ...args: unknown[]) => {
      if (id === 'setContext') contextKeys.push([String(args[0]), args[1]]);
    },
  },
  window: {
    showQuickPick: async (items: unknown) => { shown.push({ what: 'pick', arg: items }); return undefined; },
    showInputBox: async (options: unknown) => { shown.push({ what: 'input', arg: options }); return 'typed'; },
  },
  QuickPickItemKind: { Separator: -1, Default: 0 },
  l10n: { t: (s: string) => s },
};

type Loader = (request: string, ...rest: unknown[]) => unknown;
const moduleWithLoad = Module as unknown as { _load: Loader };

class Memento {
  readonly values = new Map<string, unknown>();
  get<T>(key: string): T | undefined {
    return structuredClone(this.values.get(key)) as T | undefined;
  }
  async update(key: string, value: unknown): Promise<void> {
    this.values.set(key, structuredClone(value));
  }
  keys(): readonly string[] {
    return [...this.values.keys()];
  }
}

const record = (n: number, finished = n): VerificationRecord => ({
  version: 1, key: `sandbox|296|0x${String(n).padStart(40, '0')}`, api: 'session', network: 'sandbox', networkLabel: 'Sandbox', chainId: 296,
  address: `0x${String(n).padStart(40, '0')}`, source: 'typed in', server: 'http://127.0.0.1', startedAt: new Date(finished * 1000).toISOString(),
  finishedAt: new Date(finished * 1000).toISOString(), contracts: [], unused: [],
} as unknown as VerificationRecord);

describe('verify: kept results and prompts (results.ts, prompts.ts)', () => {
  let results: typeof Results;
  let prompts: typeof Prompts;
  const original = moduleWithLoad._load;
  before(() => {
    moduleWithLoad._load = function (this: unknown, request: string, ...rest: unknown[]) {
      return request === 'vscode' ? vscodeStub : original.call(this, request, ...rest);
    };
    // eslint-disable-next-line @typescript-eslint/no-require-imports -- loaded after the vscode stand-in is in place
    results = require('../../src/features/verification/results') as typeof Results;
    // eslint-disable-next-line @typescript-eslint/no-require-imports -- loaded after the vscode stand-in is in place
    prompts = require('../../src/features/verification/prompts') as typeof Prompts;
  });
  after(() => { moduleWithLoad._load = original; });
  beforeEach(() => { contextKeys.length = 0; shown.length = 0; });

  const hasResult = () => contextKeys.filter(([k]) => k === 'hederaExplorer.verification.hasResult').map(([, v]) => v).at(-1);

  it('keeps the newest 50, shows the newest, replaces a result for the same address and network', async () => {
    const state = new Memento();
    const kept = new results.VerificationResults(state as never);
    assert.deepStrictEqual([kept.current, kept.kept()], [undefined, []]);
    assert.strictEqual(hasResult(), false);
    let changes = 0;
    kept.onDidChange(() => changes++);
    for (let n = 1; n <= 52; n++) await kept.show(record(n));
    assert.strictEqual(kept.kept().length, 50);
    assert.strictEqual(kept.kept()[0].key, record(52).key, 'newest first');
    assert.ok(!kept.kept().some((r) => r.key === record(1).key || r.key === record(2).key), 'the oldest are dropped');
    assert.strictEqual(kept.current?.key, record(52).key);
    assert.strictEqual(changes, 52);
    assert.strictEqual(hasResult(), true);
    await kept.show(record(30, 100));
    assert.strictEqual(kept.kept().length, 50, 'same address and network: replaced');
    assert.strictEqual(kept.kept()[0].key, record(30).key);
  });

  it('select, clear (then the newest remaining), clearAll; reload reads workspaceState again', async () => {
    const state = new Memento();
    const kept = new results.VerificationResults(state as never);
    for (const n of [1, 2, 3]) await kept.show(record(n));
    await kept.select(record(1).key);
    assert.strictEqual(kept.current?.key, record(1).key);
    await kept.select('unknown');
    assert.strictEqual(kept.current?.key, record(1).key, 'an unknown key changes nothing');
    const again = new results.VerificationResults(state as never);
    assert.strictEqual(again.current?.key, record(1).key, 'the shown result is kept too');
    await kept.clear();
    assert.deepStrictEqual(kept.kept().map((r) => r.key), [record(3).key, record(2).key]);
    assert.strictEqual(kept.current?.key, record(3).key);
    await kept.clear(record(2).key);
    assert.strictEqual(kept.current?.key, record(3).key);
    await state.update('hederaExplorer.verification.records', { [record(7).key]: record(7) });
    kept.reload();
    assert.deepStrictEqual(kept.kept().map((r) => r.key), [record(7).key]);
    assert.strictEqual(kept.current?.key, record(7).key, 'the stored current key is gone: the newest');
    await kept.clearAll();
    assert.deepStrictEqual([kept.kept(), kept.current, hasResult()], [[], undefined, false]);
    assert.deepStrictEqual(new results.VerificationResults(state as never).kept(), []);
  });

  it('the running text shows until a result is shown', async () => {
    const kept = new results.VerificationResults(new Memento() as never);
    kept.setRunning('Verifying…');
    assert.strictEqual(kept.running, 'Verifying…');
    await kept.show(record(1));
    assert.strictEqual(kept.running, undefined);
  });

  it('prompts: VS Code\'s normally; in test mode each recorded (kind, title, labels without codicons or separators) before it is shown', async () => {
    let asked = 0;
    const plain = prompts.vscodePrompts({} as never);
    const real: Prompts.VerificationPrompts = { ...plain, apiKey: async () => { asked++; return false; } };
    const recording = prompts.recordingPrompts(real);
    assert.strictEqual(recording.last(), undefined);
    const items = [{ label: '$(symbol-class) Token' }, { label: '', kind: vscodeStub.QuickPickItemKind.Separator }, { label: '$(edit) Enter an address…' }];
    assert.strictEqual(await recording.pick('address', items, { title: 'Verify Contract' }), undefined);
    assert.deepStrictEqual(recording.last(), { seq: 1, kind: 'address', title: 'Verify Contract', items: ['Token', 'Enter an address…'] });
    assert.deepStrictEqual(shown, [{ what: 'pick', arg: items }], 'shown as given');
    assert.strictEqual(await recording.input('addressInput', { title: 'Contract to verify' }), 'typed');
    assert.deepStrictEqual(recording.last(), { seq: 2, kind: 'addressInput', title: 'Contract to verify', items: [] });
    assert.strictEqual(await recording.apiKey(), false);
    assert.deepStrictEqual([recording.last()?.seq, recording.last()?.kind, asked], [3, 'apiKey', 1]);
    assert.ok(!('last' in plain), 'the normal prompts record nothing');
  });
});
