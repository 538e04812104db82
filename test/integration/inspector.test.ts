// The transaction inspector in the real extension host, against the sandbox: opened from a Contract Results row,
// a pasted HashScan link, a hash, the editor selection; one panel per transaction; sections reaching the page
// (rendered reports); a deep revert with its failure path; a 404 actions section with the rest shown and Retry;
// big integers with every digit; the page's messages validated; links and copies done by the extension; the
// serializer's restore on the network the panel was opened on; the Source section of a deep revert, of a failed
// deployment (the constructor's line) and of a revert two internal calls deep (the internal calls that led there);
// on a mirror node without opcode traces, the local replay: matching (the same exact lines), diverging, cancelled.
import * as assert from 'assert';
import * as vscode from 'vscode';
import type { InspectorSnapshot } from '../../src/features/inspector';
import type { InspectorPanel } from '../../src/features/inspector/panel';
import { resetSettings, waitUntil, SANDBOX_KEYS } from './helpers';
import { addFault, clearFaults, clearRequests, requests, useSandbox, type ViewsApi } from './views.helpers';

interface Scenario {
  timestamp: string;
  transactionId: string;
  hash: string;
  contractId: string | null;
  result: string;
  actions: number;
  failingAction: number | null;
  children: Array<{ nonce: number; timestamp: string }>;
}

const CMD = 'hederaExplorer.inspectTransaction';

async function closeAll(): Promise<void> {
  await vscode.commands.executeCommand('workbench.action.closeAllEditors');
}

/** The 1-based line of the one line of the workspace's contracts/inspector/<file> that contains `needle`. */
async function lineOf(file: string, needle: string): Promise<number> {
  const found = await vscode.workspace.findFiles(`**/contracts/inspector/${file}`, '**/node_modules/**');
  assert.strictEqual(found.length, 1, `one ${file} in the workspace`);
  const lines = Buffer.from(await vscode.workspace.fs.readFile(found[0]))
    .toString('utf8')
    .split('\n');
  const hits = lines.map((l, i) => (l.includes(needle) ? i + 1 : 0)).filter(Boolean);
  assert.strictEqual(hits.length, 1, `"${needle}" is on exactly one line of ${file}`);
  return hits[0];
}

describe('Transaction inspector', function () {
  this.timeout(90000);
  let api: ViewsApi;
  let sandbox: string;
  let scenarios: Record<string, Scenario>;
  const snap = (p: InspectorPanel): InspectorSnapshot => api.inspector.snapshot(p);

  /** Opens through the command and waits until every section settled and the page drew it. */
  async function open(...args: unknown[]): Promise<InspectorPanel> {
    const p = (await vscode.commands.executeCommand(CMD, ...args)) as InspectorPanel | undefined;
    assert.ok(p, `a panel for ${JSON.stringify(args)}`);
    await api.inspector.settled(p);
    return p;
  }

  /** Waits until the page reported `ready` sections (proves the webview drew what the panel holds). */
  async function drawn(
    p: InspectorPanel,
    ready: string[],
    ms = 20000,
  ): Promise<NonNullable<InspectorSnapshot['rendered']>> {
    await waitUntil(
      `page of ${p.key} drew ${ready.join(', ')} (last report ${JSON.stringify(snap(p).rendered)})`,
      () => {
        const r = snap(p).rendered;
        return !!r && ready.every((s) => r.ready.includes(s as never));
      },
      ms,
    );
    return snap(p).rendered!;
  }

  before(async () => {
    const s = await useSandbox();
    api = s.api;
    sandbox = s.url;
    api.inspector.openExternal = async () => true; // record only: no browser tab from the test host
    const health = (await (await fetch(`${sandbox}/__sandbox/health`)).json()) as {
      notable: { inspector: Record<string, Scenario> };
    };
    scenarios = health.notable.inspector;
    await closeAll();
  });
  afterEach(() => clearFaults());
  after(async () => {
    api.inspector.openExternal = undefined;
    await closeAll();
    await resetSettings(SANDBOX_KEYS);
  });

  it('refuses what is not a transaction, with a sentence, and requests nothing', async () => {
    await clearRequests();
    const before = api.inspector.list().length;
    for (const bad of [
      '0.0.1234',
      'hello',
      `0x${'a'.repeat(63)}`,
      '0.0.1-99999999999-1',
      'https://hashscan.io/testnet/account/0.0.5',
    ]) {
      assert.strictEqual(await vscode.commands.executeCommand(CMD, bad), undefined, bad);
    }
    assert.strictEqual(api.inspector.list().length, before);
    assert.deepStrictEqual(await requests('/api/v1/contracts/results/'), []);
    assert.deepStrictEqual(await requests('/api/v1/transactions'), []);
  });

  it('a deep revert opened by its transaction id: every section drawn, the failure path marked, a strict CSP', async () => {
    const s = scenarios.inspectorDeepRevert;
    const p = await open(s.transactionId);
    assert.match(p.panel.title, /Sandbox/);
    const r = await drawn(p, ['overview', 'trace', 'events', 'state', 'transfers']);
    const sections = snap(p).sections;
    assert.strictEqual(sections.overview.state, 'ready');
    if (sections.overview.state === 'ready') {
      assert.strictEqual(sections.overview.data.outcome, 'failure');
      assert.strictEqual(sections.overview.data.result, s.result);
      assert.strictEqual(sections.overview.data.transactionId, s.transactionId);
      assert.ok(sections.overview.data.call, 'the called function decoded with the workspace ABI');
      assert.ok(sections.overview.data.error?.text, 'the revert reason decoded');
    }
    assert.strictEqual(sections.trace.state, 'ready');
    if (sections.trace.state === 'ready') {
      const t = sections.trace.data;
      assert.strictEqual(t.rows.length, s.actions);
      assert.strictEqual(r.traceRows, s.actions);
      const deepest = t.rows[t.deepestFailure];
      assert.strictEqual(deepest.index, s.failingAction);
      assert.ok(deepest.failed && deepest.error, 'the deepest frame failed with a decoded reason');
      // a real deep trace: settle's STATICCALL of the Ledger, the PRNG precompile, the library's DELEGATECALL, and
      // the library's CALL of the Ledger failing at depth 2
      assert.deepStrictEqual(
        t.rows.map((x) => [x.depth, x.operation]),
        [
          [0, 'CALL'],
          [1, 'STATICCALL'],
          [1, 'CALL'],
          [1, 'DELEGATECALL'],
          [2, 'CALL'],
        ],
      );
      assert.strictEqual(t.rows[2].callType, 'PRECOMPILE');
      assert.strictEqual(deepest.depth, 2);
      assert.strictEqual(deepest.recipient.name, 'Ledger');
      const path = t.rows.filter((x) => x.onFailurePath);
      assert.ok(path.length >= 3, `the failure path goes down ${path.length} frames`);
      // the top-level error is the deepest frame's revert data
      const raw = (await (await fetch(`${sandbox}/api/v1/contracts/results/${s.transactionId}`)).json()) as {
        error_message: string;
      };
      assert.strictEqual(deepest.resultRaw, raw.error_message);
      // workspace ABIs decode the frames of the inspector's contracts (deployment records name them)
      assert.ok(
        t.rows.some((x) => x.recipient.name === 'Vault'),
        'Vault named from the deployment records',
      );
      assert.ok(
        t.rows.some((x) => x.operation === 'DELEGATECALL' && x.recipient.name === 'Accounting'),
        'the library named from the deployment records',
      );
    }
    const html = snap(p).html;
    assert.match(
      html,
      /<meta http-equiv="Content-Security-Policy" content="default-src 'none'; style-src [^;]+; font-src [^;]+; script-src 'nonce-[A-Za-z0-9]{32}'">/,
    );
    assert.ok(!/unsafe-inline|unsafe-eval/.test(html));
    // showing it again focuses the same panel
    const again = (await vscode.commands.executeCommand(CMD, s.transactionId)) as InspectorPanel;
    assert.strictEqual(again, p);
  });

  it('from a Contract Results row (its inline action), a pasted HashScan link and a hash: the same transaction', async () => {
    const s = scenarios.inspectorSuccess;
    await closeAll();
    await vscode.commands.executeCommand('hederaExplorer.contractResults.inspect', {
      timestamp: s.timestamp,
      hash: s.hash,
      contract_id: s.contractId,
    });
    await waitUntil('a panel from the row', () => api.inspector.list().length === 1);
    const fromRow = api.inspector.list()[0];
    await api.inspector.settled(fromRow);
    const check = async (p: InspectorPanel) => {
      await drawn(p, ['overview', 'events', 'state', 'transfers', 'trace']);
      const o = snap(p).sections.overview;
      assert.ok(
        o.state === 'ready' && o.data.transactionId === s.transactionId && o.data.outcome === 'success',
        JSON.stringify(o),
      );
      const ev = snap(p).sections.events;
      assert.ok(ev.state === 'ready' && ev.data.length >= 2 && ev.data.every((e) => e.name), 'every event decoded');
      const st = snap(p).sections.state;
      assert.ok(
        st.state === 'ready' && st.data.some((c) => c.variable?.label === 'totalDeposits'),
        `storage named with the workspace's layout: ${JSON.stringify(st.state === 'ready' && st.data.map((c) => c.variable?.label))}`,
      );
    };
    await check(fromRow);
    const fromLink = await open(`${sandbox}/hashscan/testnet/transaction/${s.timestamp}`);
    assert.strictEqual(fromLink, fromRow, 'a HashScan link of the sandbox (timestamp) is the same panel');
    // the same transaction by its hash, then by its id: the panel that learned its id is focused, not a second one
    const byHash = await open(s.hash);
    await check(byHash);
    const byId = await open(s.transactionId);
    assert.ok(byId === fromRow || byId === byHash, 'the id focuses a panel already showing the transaction');
    assert.strictEqual(api.inspector.list().length, fromRow === byHash ? 1 : 2);
  });

  it('the editor selection: a transaction id selected in a file opens without a question', async () => {
    const s = scenarios.inspectorEthereum;
    await closeAll();
    const doc = await vscode.workspace.openTextDocument({ content: `// tx\nconst id = "${s.transactionId}";\n` });
    const editor = await vscode.window.showTextDocument(doc);
    const line = doc.lineAt(1).text;
    const start = line.indexOf(s.transactionId);
    editor.selection = new vscode.Selection(1, start, 1, start + s.transactionId.length);
    // as the editor's context menu calls it: with the document's Uri
    const p = await open(doc.uri);
    const o = snap(p).sections.overview;
    assert.ok(o.state === 'ready');
    assert.strictEqual(p.loader.transactionId, s.transactionId);
    // an Ethereum transaction from an EVM account: its alias beside the entity id
    const alias = (scenarios as unknown as Record<string, { aliasSender: { id: string; evm: string } }>).accounts
      .aliasSender;
    assert.deepStrictEqual(o.state === 'ready' && [o.data.from?.id, o.data.from?.evm], [alias.id, alias.evm]);
  });

  it('a 404 actions section says so, the others still show; Retry brings the trace', async () => {
    const s = scenarios.inspectorSuccess;
    await closeAll();
    await addFault({ path: `/api/v1/contracts/results/${s.transactionId}/actions`, times: 1, fault: { status: 404 } });
    const p = await open(s.transactionId);
    const before = snap(p).sections;
    assert.strictEqual(before.trace.state, 'error');
    if (before.trace.state === 'error') {
      assert.ok(before.trace.missing && /no call trace/.test(before.trace.message), before.trace.message);
      // the server's words and a Retry, as for any failing section
      assert.deepStrictEqual(before.trace.serverMessages, ['Not found']);
      assert.strictEqual(before.trace.retry, true);
    }
    for (const id of ['overview', 'events', 'state', 'transfers'] as const)
      assert.strictEqual(before[id].state, 'ready', id);
    await drawn(p, ['overview', 'events', 'state', 'transfers']);
    // a 503 three times (every try): an error with a Retry, and Retry then loads it
    await addFault({ path: `/api/v1/contracts/results/${s.transactionId}/actions`, times: 3, fault: { status: 503 } });
    await p.receive({ type: 'retry', section: 'trace' });
    await api.inspector.settled(p);
    const failed = snap(p).sections.trace;
    assert.ok(failed.state === 'error' && failed.retry && !failed.missing, JSON.stringify(failed));
    await p.receive({ type: 'retry', section: 'trace' });
    await api.inspector.settled(p);
    assert.strictEqual(snap(p).sections.trace.state, 'ready');
    await drawn(p, ['trace']);
  });

  it('a 1,200-action trace: every row in the model, few in the DOM', async () => {
    const s = scenarios.inspectorBigTrace;
    const p = await open(s.transactionId);
    const r = await drawn(p, ['trace']);
    assert.strictEqual(r.traceRows, s.actions);
    assert.ok(s.actions >= 1000);
    assert.ok(r.traceDomRows > 5 && r.traceDomRows < 200, `DOM rows ${r.traceDomRows}`);
  });

  it("the page's messages are validated; links, copies and raw JSON go through the extension", async () => {
    const s = scenarios.inspectorPrecompile;
    const p = await open(s.transactionId);
    const refusedBefore = snap(p).refused.length;
    for (const m of [
      { type: 'retry', section: 'everything' },
      { type: 'hashscan', kind: 'account', id: 'javascript:alert(1)' },
      { type: 'copy', text: 'x'.repeat(1_000_001) },
      { type: 'inspect', transactionId: 'x', nonce: -1 },
      'nope',
      { type: 'raw', source: 'file:///etc/passwd' },
    ]) {
      await p.receive(m);
    }
    assert.strictEqual(snap(p).refused.length, refusedBefore + 6);
    await p.receive({ type: 'hashscan', kind: 'contract', id: s.contractId });
    assert.deepStrictEqual(snap(p).opened.slice(-1), [`${sandbox}/hashscan/testnet/contract/${s.contractId}`]);
    await p.receive({ type: 'copy', text: s.transactionId });
    assert.strictEqual(await vscode.env.clipboard.readText(), s.transactionId);
    await p.receive({ type: 'raw', source: 'actions' });
    assert.ok(snap(p).raw.some((n) => n.startsWith('actions-')));
    // a child of the same id, opened from the Overview's related transactions
    const child = s.children[0];
    assert.ok(child, 'the precompile call made a child transaction');
    const o = snap(p).sections.overview;
    assert.ok(
      o.state === 'ready' && o.data.related.some((r) => r.relation === 'child' && r.nonce === String(child.nonce)),
      JSON.stringify(o.state === 'ready' && o.data.related),
    );
    // the token transfer happened in the child's record: the parent's Transfers show it, with every digit
    const tr = snap(p).sections.transfers;
    assert.ok(
      tr.state === 'ready' &&
        tr.data.children?.some(
          (c) =>
            c.nonce === String(child.nonce) &&
            c.transfers.transfers.some((t) => t.kind === 'token' && t.amount === '-9007199254740993'),
        ),
      JSON.stringify(tr.state === 'ready' && tr.data.children),
    );
    await p.receive({ type: 'inspect', transactionId: s.transactionId, nonce: child.nonce });
    await waitUntil('the child panel', () => api.inspector.list().some((x) => x.key.endsWith(`|${child.nonce}`)));
  });

  it('big integers keep every digit', async () => {
    const s = scenarios.inspectorBigTrace;
    const p = await open(s.transactionId);
    const t = snap(p).sections.trace;
    assert.ok(t.state === 'ready');
    const ints: string[] = [];
    const walk = (vals: Array<{ type: string; value: string; children?: unknown[] }> | undefined) => {
      for (const v of vals ?? []) {
        if (/^u?int\d*$/.test(v.type)) ints.push(v.value);
        walk(v.children as typeof vals);
      }
    };
    for (const r of t.data.rows) {
      ints.push(r.value.tinybars, r.gas, r.gasUsed);
      walk(r.call?.args);
      walk(r.output);
    }
    assert.ok(ints.length > 3000, `${ints.length} integers`);
    // every integer a decimal string with every digit: no exponent, no rounding to a float
    const bad = ints.filter((v) => !/^-?\d+$/.test(v));
    assert.deepStrictEqual(bad.slice(0, 5), []);
    assert.ok(
      ints.some((v) => v.length > 16),
      'some integers are past 2^53',
    );
  });

  it('a restored panel (serializer) comes back on the network it was opened on', async () => {
    const s = scenarios.inspectorSuccess;
    await closeAll();
    const panel = vscode.window.createWebviewPanel('hederaExplorer.inspector', 'restoring', vscode.ViewColumn.Active, {
      enableScripts: true,
    });
    await api.inspector.revive(panel, {
      v: 1,
      ref: s.transactionId,
      nonce: 0,
      network: 'custom',
      collapsed: [1, 2],
      scrollTop: 40,
    });
    const p = api.inspector.list().find((x) => x.panel === panel);
    assert.ok(p, 'revived');
    await api.inspector.settled(p);
    assert.strictEqual(p.network, 'custom');
    assert.strictEqual(snap(p).sections.overview.state, 'ready');
    // a saved state that is not valid closes the panel instead of guessing
    const bad = vscode.window.createWebviewPanel('hederaExplorer.inspector', 'bad', vscode.ViewColumn.Active, {
      enableScripts: true,
    });
    let closed = false;
    bad.onDidDispose(() => {
      closed = true;
    });
    await api.inspector.revive(bad, { v: 1, ref: '<img src=x>', nonce: 0, network: 'custom' });
    assert.ok(closed);
  });

  it("Go to Revert: the reverting line of the workspace's Solidity opened and marked, with a hover back to the inspector; an edit of the line clears the mark", async () => {
    const s = scenarios.inspectorDeepRevert;
    await closeAll();
    await vscode.commands.executeCommand('hederaExplorer.clearRevertMarks');
    const editor = await api.inspector.goToRevert({ transactionId: s.transactionId, network: 'custom' });
    assert.ok(editor, 'an editor');
    const doc = editor.document;
    // the sandbox traces opcodes: the exact place, the Ledger's require three frames down
    assert.match(doc.uri.path, /\/contracts\/inspector\/Ledger\.sol$/);
    assert.strictEqual(doc.uri.scheme, 'file', "the workspace's own file (its text is the compiled one)");
    const line = editor.selection.active.line;
    assert.strictEqual(line + 1, await lineOf('Ledger.sol', '"Ledger: amount too large"'), doc.lineAt(line).text);
    const marks = api.inspector.marks();
    assert.strictEqual(marks.length, 1);
    assert.strictEqual(api.contextKey('hederaExplorer.inspector.hasRevertMarks'), true, 'Clear Revert Marks offered');
    assert.strictEqual(marks[0].range.start.line, line);
    assert.strictEqual(marks[0].reason, 'Ledger: amount too large');
    const hovers = (await vscode.commands.executeCommand(
      'vscode.executeHoverProvider',
      doc.uri,
      new vscode.Position(line, 2),
    )) as vscode.Hover[];
    const text = hovers
      .flatMap((h) => h.contents.map((c) => (typeof c === 'string' ? c : (c as vscode.MarkdownString).value)))
      .join('\n');
    assert.match(text, /Reverted here/, JSON.stringify(text));
    // the reason as escaped Markdown (nothing in it is read as markup)
    assert.match(
      text.replace(/&#(\d+);/g, (_, c: string) => String.fromCharCode(Number(c))),
      /Ledger: amount too large/,
      JSON.stringify(text),
    );
    assert.ok(text.includes(`\`${s.transactionId}\``), 'the transaction id as code');
    assert.match(text, /command:hederaExplorer\.inspectTransaction\?/);
    // editing the marked line clears the mark (the line may no longer be the one that reverted)
    const edit = new vscode.WorkspaceEdit();
    edit.insert(doc.uri, new vscode.Position(line, 0), ' ');
    await vscode.workspace.applyEdit(edit);
    await waitUntil('the mark cleared by the edit', () => api.inspector.marks().length === 0);
    assert.strictEqual(api.contextKey('hederaExplorer.inspector.hasRevertMarks'), false, 'nothing left to clear');
    await vscode.commands.executeCommand('workbench.action.files.revert');
  });

  it('the Source section (opcodes traced): the exact call stack of the deep revert, each frame opening its line', async () => {
    const s = scenarios.inspectorDeepRevert;
    await closeAll();
    const p = await open(s.transactionId);
    const src = snap(p).sections.source;
    assert.strictEqual(src.state, 'ready', JSON.stringify(src));
    if (src.state !== 'ready') return;
    assert.strictEqual(src.data.mode, 'exact', JSON.stringify(src.data.notes));
    assert.strictEqual(src.data.reason, 'Ledger: amount too large');
    // the reverting frame first (the Ledger's require), then the call sites above it: the library's call of the
    // Ledger, the Vault's call of the library
    const frames = src.data.frames;
    assert.deepStrictEqual(
      frames.map((f) => [f.kind, f.sourceName]),
      [
        ['revert', 'contracts/inspector/Ledger.sol'],
        ['callSite', 'contracts/inspector/Accounting.sol'],
        ['callSite', 'contracts/inspector/Vault.sol'],
      ],
    );
    assert.deepStrictEqual(
      frames.map((f) => f.line),
      [
        await lineOf('Ledger.sol', '"Ledger: amount too large"'),
        await lineOf('Accounting.sol', 'ledger.record(to, amount);'),
        await lineOf('Vault.sol', 'left = Accounting.settle(balances, ledger, msg.sender, to, amount);'),
      ],
    );
    assert.ok(
      frames.every((f) => f.target >= 0),
      'every frame opens',
    );
    await drawn(p, ['source']);
    await p.receive({ type: 'openSource', target: src.data.frames[0].target });
    await waitUntil('a mark', () => api.inspector.marks().length === 1);
    assert.strictEqual(api.contextKey('hederaExplorer.inspector.hasRevertMarks'), true);
    await vscode.commands.executeCommand('hederaExplorer.clearRevertMarks');
    assert.strictEqual(api.inspector.marks().length, 0);
    assert.strictEqual(api.contextKey('hederaExplorer.inspector.hasRevertMarks'), false);
  });

  /** Opens a place of the Source section as the page asks it: the editor that shows it, the line (1-based) and its mark. */
  async function openPlace(p: InspectorPanel, target: number, file: string, line: number): Promise<void> {
    await p.receive({ type: 'openSource', target });
    await waitUntil(
      `${file}:${line} opened (${vscode.window.activeTextEditor?.document.uri.path}:${(vscode.window.activeTextEditor?.selection.active.line ?? -2) + 1})`,
      () => {
        const e = vscode.window.activeTextEditor;
        return (
          !!e && e.document.uri.path.endsWith(`/contracts/inspector/${file}`) && e.selection.active.line + 1 === line
        );
      },
    );
    assert.strictEqual(
      vscode.window.activeTextEditor?.document.uri.scheme,
      'file',
      "the workspace's own file (its text is the compiled one)",
    );
    const marks = api.inspector.marks().filter((m) => m.uri.path.endsWith(`/contracts/inspector/${file}`));
    assert.deepStrictEqual(
      marks.map((m) => m.range.start.line + 1),
      [line],
      `${file}: the line marked`,
    );
  }

  it("the Source section of a failed deployment: the constructor's revert, exact, marked as a creation, opening Ledger.sol at it", async () => {
    const s = scenarios.inspectorCreateRevert;
    await closeAll();
    await vscode.commands.executeCommand('hederaExplorer.clearRevertMarks');
    // an Ethereum transaction without `to` that created nothing: no contract in its result
    assert.strictEqual(s.contractId, null);
    const p = await open(s.transactionId);
    const o = snap(p).sections.overview;
    assert.ok(
      o.state === 'ready' &&
        o.data.outcome === 'failure' &&
        o.data.created.length === 0 &&
        o.data.result === 'CONTRACT_REVERT_EXECUTED',
      JSON.stringify(o),
    );
    const src = snap(p).sections.source;
    assert.strictEqual(src.state, 'ready', JSON.stringify(src));
    if (src.state !== 'ready') return;
    assert.strictEqual(src.data.mode, 'exact', JSON.stringify(src.data));
    // the reason decoded with the workspace's ABI: the Ledger's custom error, with the address it was given
    const alias = (scenarios as unknown as Record<string, { aliasSender: { id: string; evm: string } }>).accounts
      .aliasSender;
    assert.match(src.data.reason ?? '', /^NotAContract\(/, JSON.stringify(src.data.reason));
    assert.ok((src.data.reason ?? '').toLowerCase().includes(alias.evm), JSON.stringify(src.data.reason));
    // one frame: the revert in the Ledger's creation code, named as its constructor and said to be a deployment's
    const revert = await lineOf('Ledger.sol', 'revert NotAContract(vault_);');
    assert.deepStrictEqual(
      src.data.frames.map((f) => [f.kind, f.contract, f.sourceName, f.line]),
      [['revert', 'the constructor of Ledger', 'contracts/inspector/Ledger.sol', revert]],
    );
    const [frame] = src.data.frames;
    assert.match(
      frame.detail ?? '',
      /^a failed deployment: in its constructor · NotAContract\(/,
      JSON.stringify(frame),
    );
    assert.match(frame.snippet, /NotAContract\(vault_\)/);
    assert.strictEqual(frame.address, undefined, 'no contract: the deployment created none');
    assert.ok(frame.target >= 0, 'it opens');
    await drawn(p, ['source']);
    await openPlace(p, frame.target, 'Ledger.sol', revert);
    await vscode.commands.executeCommand('hederaExplorer.clearRevertMarks');
  });

  it('the Source section of a revert two internal calls deep: the require, then the internal calls that led there, each opening its line', async () => {
    const s = scenarios.inspectorInternalRevert;
    await closeAll();
    await vscode.commands.executeCommand('hederaExplorer.clearRevertMarks');
    const p = await open(s.transactionId);
    const src = snap(p).sections.source;
    assert.strictEqual(src.state, 'ready', JSON.stringify(src));
    if (src.state !== 'ready') return;
    assert.strictEqual(src.data.mode, 'exact', JSON.stringify(src.data));
    assert.strictEqual(src.data.reason, 'Vault: move exceeds balance');
    // one frame of the call trace (the Vault), three places in it: the require in _debit, the call of _debit in _move,
    // the call of _move in move (innermost first, as a stack trace)
    assert.strictEqual(s.actions, 1);
    const lines = [
      await lineOf('Vault.sol', '"Vault: move exceeds balance"'),
      await lineOf('Vault.sol', '_debit(from, amount);'),
      await lineOf('Vault.sol', '_move(msg.sender, to, amount);'),
    ];
    const frames = src.data.frames;
    assert.deepStrictEqual(
      frames.map((f) => [f.kind, f.contract, f.sourceName, f.line]),
      [
        ['revert', 'Vault', 'contracts/inspector/Vault.sol', lines[0]],
        ['internal', 'Vault', 'contracts/inspector/Vault.sol', lines[1]],
        ['internal', 'Vault', 'contracts/inspector/Vault.sol', lines[2]],
      ],
    );
    assert.deepStrictEqual(
      frames.map((f) => f.snippet),
      [
        'require(amount <= held, "Vault: move exceeds balance")',
        '_debit(from, amount)',
        '_move(msg.sender, to, amount)',
      ],
    );
    assert.ok(
      frames.slice(1).every((f) => /internal call/.test(f.detail ?? '')),
      JSON.stringify(frames.map((f) => f.detail)),
    );
    assert.ok(
      frames.every((f) => f.address?.id === s.contractId),
      "every place in the Vault's frame",
    );
    assert.ok(
      new Set(frames.map((f) => f.target)).size === 3 && frames.every((f) => f.target >= 0),
      'each opens its own place',
    );
    await drawn(p, ['source']);
    for (const [i, f] of frames.entries()) await openPlace(p, f.target, 'Vault.sol', lines[i]);
    await vscode.commands.executeCommand('hederaExplorer.clearRevertMarks');
    assert.strictEqual(api.inspector.marks().length, 0);
  });

  it('a successful call: nothing to place, said so', async () => {
    const s = scenarios.inspectorSuccess;
    const p = await open(s.transactionId);
    const src = snap(p).sections.source;
    assert.ok(
      src.state === 'ready' && src.data.mode === 'none' && /succeeded/.test(src.data.notes.join(' ')),
      JSON.stringify(src),
    );
  });

  const opcodes = async (enabled: boolean): Promise<void> => {
    const r = await fetch(`${sandbox}/__sandbox/opcodes`, { method: 'POST', body: JSON.stringify({ enabled }) });
    assert.deepStrictEqual(await r.json(), { enabled });
  };
  const replayMode = (mode: string | undefined) =>
    vscode.workspace.getConfiguration('hederaExplorer').update('replay.mode', mode, vscode.ConfigurationTarget.Global);

  // last but the replays: the extension remembers for the session that this mirror node refused opcode traces
  it('the Source section with the opcode endpoint off and replay off: the likely place from the call trace, said so', async () => {
    const s = scenarios.inspectorDeepRevert;
    await closeAll();
    const off = opcodes;
    await off(false);
    await replayMode('never');
    try {
      await clearRequests();
      const p = await open(s.transactionId);
      const src = snap(p).sections.source;
      assert.strictEqual(src.state, 'ready', JSON.stringify(src));
      if (src.state !== 'ready') return;
      assert.strictEqual(src.data.mode, 'likely', JSON.stringify(src.data));
      assert.ok(
        src.data.notes.some((n) => /opcode/.test(n) && /404/.test(n)),
        `says why it is only likely: ${JSON.stringify(src.data.notes)}`,
      );
      // the innermost failing frame of the call trace (the Ledger, depth 2): its require with the message
      assert.deepStrictEqual(
        src.data.frames.map((f) => [f.kind, f.sourceName, f.line]),
        [['candidate', 'contracts/inspector/Ledger.sol', await lineOf('Ledger.sol', '"Ledger: amount too large"')]],
      );
      assert.strictEqual(
        (await requests('/api/v1/contracts/results/')).filter((u) => u.includes('/opcodes')).length,
        1,
        'asked once',
      );
      assert.strictEqual(src.data.trace, undefined, 'no step trace used');
      assert.deepStrictEqual(await requests('/api/v1/blocks/'), [], 'nothing replayed');
    } finally {
      await off(true);
      await replayMode(undefined);
    }
  });

  describe('replayed locally, on a network whose mirror node gives no opcode trace', () => {
    before(() => opcodes(false));
    after(async () => {
      await opcodes(true);
      await closeAll();
    });

    it("the deep revert: 'Replayed locally · matches', the same exact call stack as the opcode trace's; Go to Revert opens the same line, saying so", async () => {
      const s = scenarios.inspectorDeepRevert;
      await closeAll();
      await clearRequests();
      const p = await open(s.transactionId);
      const src = snap(p).sections.source;
      assert.strictEqual(src.state, 'ready', JSON.stringify(src));
      if (src.state !== 'ready') return;
      assert.strictEqual(src.data.mode, 'exact', JSON.stringify(src.data));
      assert.deepStrictEqual(src.data.trace, {
        by: 'replay',
        matches: true,
        text: `Replayed locally · matches the network's record (${s.actions} of ${s.actions} calls)`,
      });
      assert.ok(
        src.data.notes.some((n) => /does not give opcode traces \(HTTP 404.*replayed locally instead/.test(n)),
        JSON.stringify(src.data.notes),
      );
      assert.deepStrictEqual(
        src.data.frames.map((f) => [f.kind, f.sourceName, f.line]),
        [
          ['revert', 'contracts/inspector/Ledger.sol', await lineOf('Ledger.sol', '"Ledger: amount too large"')],
          [
            'callSite',
            'contracts/inspector/Accounting.sol',
            await lineOf('Accounting.sol', 'ledger.record(to, amount);'),
          ],
          [
            'callSite',
            'contracts/inspector/Vault.sol',
            await lineOf('Vault.sol', 'left = Accounting.settle(balances, ledger, msg.sender, to, amount);'),
          ],
        ],
      );
      assert.strictEqual((await requests('/api/v1/blocks/')).length, 1, 'the replay read the block');
      // Go to Revert without a panel: located again (a replay), the same line opened and marked, its hover says how
      await closeAll();
      await vscode.commands.executeCommand('hederaExplorer.clearRevertMarks');
      const editor = await api.inspector.goToRevert({ transactionId: s.transactionId, network: 'custom' });
      assert.ok(editor, 'an editor');
      assert.match(editor.document.uri.path, /\/contracts\/inspector\/Ledger\.sol$/);
      assert.strictEqual(editor.selection.active.line + 1, await lineOf('Ledger.sol', '"Ledger: amount too large"'));
      const line = editor.selection.active.line;
      const hovers = (await vscode.commands.executeCommand(
        'vscode.executeHoverProvider',
        editor.document.uri,
        new vscode.Position(line, 2),
      )) as vscode.Hover[];
      const text = hovers
        .flatMap((h) => h.contents.map((c) => (typeof c === 'string' ? c : (c as vscode.MarkdownString).value)))
        .join('\n')
        .replace(/&#(\d+);/g, (_, c: string) => String.fromCharCode(Number(c)))
        .replace(/\\(.)/g, '$1');
      assert.match(text, /Replayed locally · matches the network's record \(5 of 5 calls\)/, text);
      await vscode.commands.executeCommand('hederaExplorer.clearRevertMarks');
    });

    it("calls to a token's own address (its ERC-20 facade): 'Replayed locally · matches', the token service's answers from the record", async () => {
      const s = scenarios.inspectorTokenFacadeRevert;
      await closeAll();
      const p = await open(s.transactionId);
      const src = snap(p).sections.source;
      assert.strictEqual(src.state, 'ready', JSON.stringify(src));
      if (src.state !== 'ready') return;
      assert.deepStrictEqual(src.data.trace, {
        by: 'replay',
        matches: true,
        text: `Replayed locally · matches the network's record (${s.actions} of ${s.actions} calls)`,
      });
      assert.strictEqual(s.actions, 5);
    });

    it('a replay that diverges (the Ledger missing from the mirror node): said with the call, no exact line, the likely place shown', async () => {
      const s = scenarios.inspectorDeepRevert;
      await closeAll();
      for (const id of ['0.0.7002', '0xe7f1725e7734ce288f8367e1bb143e90bb3f0512'])
        for (const route of ['accounts', 'contracts'])
          await addFault({ path: `/api/v1/${route}/${id}`, times: 20, fault: { status: 404 } });
      const p = await open(s.transactionId);
      const src = snap(p).sections.source;
      assert.strictEqual(src.state, 'ready', JSON.stringify(src));
      if (src.state !== 'ready') return;
      assert.notStrictEqual(src.data.mode, 'exact', JSON.stringify(src.data));
      assert.strictEqual(src.data.trace?.by, 'replay', JSON.stringify(src.data));
      assert.strictEqual(src.data.trace?.matches, false);
      assert.match(src.data.trace?.text ?? '', /^Replayed locally · diverged at call \d+: /);
      assert.ok(
        src.data.notes.some((n) => /diverged from the network's record, so nothing from there on is exact/.test(n)),
        JSON.stringify(src.data.notes),
      );
      assert.ok(
        src.data.frames.every((f) => f.kind === 'candidate'),
        JSON.stringify(src.data.frames),
      );
      await drawn(p, ['source']);
    });

    it('Cancel during the replay: said so, and the likely place from the call trace is shown', async () => {
      const s = scenarios.inspectorDeepRevert;
      await closeAll();
      // the block held back: the replay waits on it until it is cancelled
      await addFault({ path: '/api/v1/blocks/', times: 1, fault: { delayMs: 60_000 } });
      const p = (await vscode.commands.executeCommand(CMD, s.transactionId)) as InspectorPanel;
      assert.ok(p);
      await waitUntil('a replay running', () => api.inspector.replays().running > 0, 30_000);
      api.inspector.replays().cancel();
      await api.inspector.settled(p);
      const src = snap(p).sections.source;
      assert.strictEqual(src.state, 'ready', JSON.stringify(src));
      if (src.state !== 'ready') return;
      assert.strictEqual(src.data.mode, 'likely', JSON.stringify(src.data));
      assert.ok(
        src.data.notes.some((n) => /replay was cancelled; the location below is the likely one/.test(n)),
        JSON.stringify(src.data.notes),
      );
      assert.deepStrictEqual(
        src.data.frames.map((f) => [f.kind, f.sourceName, f.line]),
        [['candidate', 'contracts/inspector/Ledger.sol', await lineOf('Ledger.sol', '"Ledger: amount too large"')]],
      );
      assert.strictEqual(api.inspector.replays().running, 0);
    });

    it('closing the page during the replay stops it (its requests and its progress)', async () => {
      const s = scenarios.inspectorDeepRevert;
      await closeAll();
      // the block held back for a minute: only an abort ends the replay before then
      await addFault({ path: '/api/v1/blocks/', times: 1, fault: { delayMs: 60_000 } });
      const p = (await vscode.commands.executeCommand(CMD, s.transactionId)) as InspectorPanel;
      assert.ok(p);
      await waitUntil('a replay running', () => api.inspector.replays().running > 0, 30_000);
      await closeAll();
      await waitUntil('no replay running after the page closed', () => api.inspector.replays().running === 0, 20_000);
    });
  });
});
