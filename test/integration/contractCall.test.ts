// Call Contract in the real extension host, against the sandbox's real EVM: the palette command finds Vault's ABI in
// the sample workspace's build; a view function read and its decoded value drawn by the page; a simulated call that
// reverts, its reason decoded; a past block; a field refused before anything is sent; the mirror node with its call
// endpoint off (501) said as a sentence with a way forward; the kept calls (copy as curl, pin); the Call lens.
import * as assert from 'assert';
import * as vscode from 'vscode';
import type { ContractCallSnapshot } from '../../src/features/contractCall/seam';
import type { ContractCallPanel } from '../../src/features/contractCall/panel';
import { encodeCallData } from '../../src/api/decode/callInputs';
import { benchFigure, resetSettings, SANDBOX_KEYS, sandboxUrl, waitUntil } from './helpers';
import { clearRequests, requests, sandboxPost, useSandbox, type ViewsApi } from './views.helpers';

const VAULT_ID = '0.0.7001';
const CMD = 'hederaExplorer.callContract';

describe('contract call panel', function () {
  this.timeout(90000);
  let api: ViewsApi;
  const snap = (p: ContractCallPanel): ContractCallSnapshot => api.contractCall.snapshot(p);
  /** Sends what the page sends for a click on Read or Simulate, and waits for the outcome the page drew. */
  async function call(
    p: ContractCallPanel,
    key: string,
    inputs: string[] = [],
    more: { block?: string; from?: string; value?: string } = {},
  ): Promise<ContractCallSnapshot> {
    const before = snap(p).rendered[key]?.text;
    await p.receive({
      type: 'call',
      key,
      inputs,
      block: more.block ?? 'latest',
      from: more.from ?? '',
      value: more.value ?? '',
    });
    await waitUntil(
      `the page drew the outcome of ${key} (${JSON.stringify(snap(p).state.outcomes[key])})`,
      () => {
        const r = snap(p).rendered[key];
        return !!r && r.status === snap(p).state.outcomes[key]?.status && (r.text !== before || before === undefined);
      },
      20000,
    );
    return snap(p);
  }

  before(async () => {
    ({ api } = await useSandbox());
    await api.contractCall.clearHistory();
    await vscode.commands.executeCommand('workbench.action.closeAllEditors');
  });
  after(async () => {
    await sandboxPost('/__sandbox/contract-call', { enabled: true });
    await api.contractCall.clearHistory();
    await vscode.commands.executeCommand('workbench.action.closeAllEditors');
    await resetSettings(SANDBOX_KEYS);
  });

  let panel: ContractCallPanel;

  it("the command finds Vault's ABI in the workspace's build; its read and simulate functions are listed", async () => {
    const p = (await vscode.commands.executeCommand(CMD, VAULT_ID)) as ContractCallPanel | undefined;
    assert.ok(p, 'a panel');
    panel = p;
    const s = snap(p);
    assert.strictEqual(s.state.status, 'ready', s.state.message);
    assert.strictEqual(s.title, 'Call Vault');
    assert.strictEqual(s.state.contract.id, VAULT_ID);
    assert.match(s.state.source ?? '', /workspace's build of Vault/);
    const fns = s.state.functions;
    assert.ok(fns.find((f) => f.key === 'feeBps()')?.read, 'feeBps is read');
    assert.strictEqual(fns.find((f) => f.key === 'move(address,uint256)')?.read, false, 'move is simulated');
    assert.match(s.html, /nothing is signed, and nothing is sent to the network/);
    // the first state is in the HTML (the forms drawn before the page's `ready` goes round), as data
    const block = /<script type="application\/json" id="hedera-state">([^<]*)<\/script>/.exec(s.html);
    assert.ok(block, 'the state block');
    const first = JSON.parse(block[1]) as ContractCallSnapshot['state'];
    assert.deepStrictEqual(
      first.functions.map((f) => f.key),
      fns.map((f) => f.key),
    );
    // the same contract again: the same panel
    assert.strictEqual(await vscode.commands.executeCommand(CMD, { address: s.state.contract.address }), p);
    assert.strictEqual(api.contractCall.list().length, 1);
  });

  it('reads a view function: the decoded value reaches the page, and the call is kept', async () => {
    await clearRequests();
    const s = await call(panel, 'feeBps()');
    const o = s.state.outcomes['feeBps()'];
    assert.strictEqual(o.status, 'ok', JSON.stringify(o));
    assert.strictEqual(o.values?.[0].value, '30');
    assert.match(s.rendered['feeBps()'].text, /30/);
    assert.match(s.rendered['feeBps()'].text, /latest block/);
    assert.strictEqual((await requests('/api/v1/contracts/call')).length, 1, 'a read asks no gas estimate');
    const kept = api.contractCall.kept();
    assert.strictEqual(kept[0].signature, 'feeBps()');
    assert.strictEqual(kept[0].outcome.summary, '30');
    assert.strictEqual(s.state.history[0].summary, '30');
  });

  it("from a click on Read to the decoded result, minus the server's time (a bench figure)", async () => {
    const fn = panel.functions.find((f) => f.name === 'feeBps')!;
    const data = encodeCallData(fn, []);
    assert.ok(data.ok);
    const body = JSON.stringify({
      to: snap(panel).state.contract.address,
      data: data.value,
      block: 'latest',
      estimate: false,
    });
    const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];
    const server: number[] = [];
    const total: number[] = [];
    for (let i = 0; i < 7; i++) {
      let t = performance.now();
      const res = await fetch(`${sandboxUrl}/api/v1/contracts/call`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body,
      });
      assert.strictEqual(res.status, 200);
      await res.json();
      server.push(performance.now() - t);
      t = performance.now();
      await panel.receive({ type: 'call', key: 'feeBps()', inputs: [], block: 'latest', from: '', value: '' });
      total.push(performance.now() - t);
      assert.strictEqual(snap(panel).state.outcomes['feeBps()'].values?.[0].value, '30');
    }
    benchFigure(
      'callToDecodedMs',
      Math.max(0, median(total) - median(server)),
      `median of 7: ${median(total).toFixed(1)} ms in all, the server ${median(server).toFixed(1)} ms`,
    );
  });

  it('at the earliest block: the state of then (25)', async () => {
    const s = await call(panel, 'feeBps()', [], { block: '0' });
    const o = s.state.outcomes['feeBps()'];
    assert.strictEqual(o.status, 'ok', JSON.stringify(o));
    assert.strictEqual(o.values?.[0].value, '25');
    assert.match(o.block ?? '', /block 0/);
  });

  it("simulates a call that reverts: Hedera's result and the decoded reason", async () => {
    const s = await call(
      panel,
      'move(address,uint256)',
      ['0x70997970c51812dc3a010c7d01b50e0d17dc79c8', '30000000000'],
      {
        from: '0.0.7006',
      },
    );
    const o = s.state.outcomes['move(address,uint256)'];
    assert.strictEqual(o.status, 'reverted', JSON.stringify(o));
    assert.strictEqual(o.revert?.status, 'CONTRACT_REVERT_EXECUTED');
    assert.strictEqual(o.revert?.message, 'Vault: move exceeds balance');
    assert.match(s.rendered['move(address,uint256)'].text, /Vault: move exceeds balance/);
    assert.strictEqual(api.contractCall.kept()[0].outcome.status, 'reverted');
  });

  it('an input that is not its type is refused beside the call, nothing is sent', async () => {
    await clearRequests();
    const s = await call(panel, 'move(address,uint256)', ['0.0.7006', '-1'], { from: '0.0.7006' });
    const o = s.state.outcomes['move(address,uint256)'];
    assert.strictEqual(o.status, 'error');
    assert.match(o.error?.message ?? '', /out of range for a uint256/);
    assert.deepStrictEqual(await requests('/api/v1/contracts/call'), []);
  });

  it('a mirror node without the call endpoint (501): a sentence and a way forward', async () => {
    await sandboxPost('/__sandbox/contract-call', { enabled: false });
    try {
      const s = await call(panel, 'feeBps()');
      const o = s.state.outcomes['feeBps()'];
      assert.strictEqual(o.status, 'error', JSON.stringify(o));
      assert.match(o.error?.message ?? '', /does not serve contract calls \(HTTP 501\)/);
      assert.match(o.error?.forward ?? '', /Select another network/);
      assert.match(s.rendered['feeBps()'].text, /does not serve contract calls.*Select another network/);
    } finally {
      await sandboxPost('/__sandbox/contract-call', { enabled: true });
    }
  });

  it('the kept calls: copy as curl, as a viem and an ethers snippet, pin; newest first', async () => {
    const kept = api.contractCall.kept();
    assert.deepStrictEqual(
      kept.map((c) => c.signature),
      ['feeBps()', 'move(address,uint256)', 'feeBps()', ...Array(8).fill('feeBps()')],
      'the refused input was not kept',
    );
    const read = kept[kept.length - 1];
    await panel.receive({ type: 'history', action: 'copyCurl', id: read.id });
    const curl = snap(panel).copied.at(-1) ?? '';
    assert.match(curl, /^curl -X POST '.+\/api\/v1\/contracts\/call' -H 'Content-Type: application\/json' -d '\{/);
    assert.match(curl, /"to":"0x[0-9a-f]{40}"/);
    assert.strictEqual(await vscode.env.clipboard.readText(), curl);
    // the snippets: the same call data; the sandbox is a custom mirror node, whose relay the snippet reads from the
    // environment
    const to = /"to":"(0x[0-9a-f]{40})"/.exec(curl)?.[1];
    for (const [action, library] of [
      ['copyViem', 'viem'],
      ['copyEthers', 'ethers'],
    ] as const) {
      await panel.receive({ type: 'history', action, id: read.id });
      const snippet = snap(panel).copied.at(-1) ?? '';
      assert.ok(snippet.startsWith('import {') && snippet.includes(`from '${library}';`), snippet);
      assert.ok(snippet.includes(`to: "${to}",`) && snippet.includes('process.env.HEDERA_JSON_RPC_URL'), snippet);
      assert.ok(snippet.includes('"feeBps"'), snippet);
      assert.strictEqual(await vscode.env.clipboard.readText(), snippet);
    }
    await panel.receive({ type: 'history', action: 'pin', id: read.id });
    await waitUntil('pinned', () => snap(panel).state.history.some((h) => h.id === read.id && h.pinned));
  });

  it('a 415 and a 429 that outlasts the tries, as the server words them: each a sentence and a way forward', async () => {
    try {
      await sandboxPost('/__sandbox/faults', { path: '/api/v1/contracts/call', times: 1, fault: { status: 415 } });
      let o = (await call(panel, 'feeBps()')).state.outcomes['feeBps()'];
      assert.strictEqual(o.status, 'error', JSON.stringify(o));
      assert.match(o.error?.message ?? '', /415/);
      assert.match(o.error?.forward ?? '', /sent as JSON: something between the extension and the mirror node/);
      await sandboxPost('/__sandbox/faults', { path: '/api/v1/contracts/call', times: 20, fault: { status: 429 } });
      o = (await call(panel, 'maxFeeBps()')).state.outcomes['maxFeeBps()'];
      assert.strictEqual(o.status, 'error', JSON.stringify(o));
      assert.match(o.error?.message ?? '', /is limiting requests \(HTTP 429 Too Many Requests\).*Try again/);
    } finally {
      await fetch(`${sandboxUrl}/__sandbox/faults`, { method: 'DELETE' });
    }
  });

  it('Open in Inspector of a call to a system contract: the local run differs, the panel says why, no page opens', async () => {
    const key = 'seed()';
    await call(panel, key);
    const before = api.inspector.list().length;
    await panel.receive({ type: 'inspect', key });
    const o = snap(panel).state.outcomes[key];
    assert.strictEqual(o.local?.status, 'differs', JSON.stringify(o));
    assert.match(o.local?.message ?? '', /differs from the mirror node's answer: .*system contract 0\.0\.361/);
    assert.match(o.local?.message ?? '', /No trace is shown as exact/);
    await waitUntil('the page drew it', () => /No trace is shown as exact/.test(snap(panel).rendered[key]?.text ?? ''));
    assert.strictEqual(api.inspector.list().length, before, 'no inspector page');
  });

  it("Open in Inspector: the reverting simulation run locally, checked, and the inspector's Simulation page with the exact revert line", async () => {
    const key = 'move(address,uint256)';
    const s = await call(panel, key, ['0x70997970c51812dc3a010c7d01b50e0d17dc79c8', '30000000000'], {
      from: '0.0.7006',
    });
    assert.strictEqual(s.state.outcomes[key].local?.status, 'idle');
    assert.match(s.rendered[key].text, /Open in Inspector/);
    const opened = () => api.inspector.list().filter((p) => p.simulation);
    const before = opened().length;
    await panel.receive({ type: 'inspect', key });
    const o = snap(panel).state.outcomes[key];
    assert.strictEqual(o.local?.status, 'opened', JSON.stringify(o.local));
    assert.match(o.local?.message ?? '', /matches the mirror node's answer/);
    assert.strictEqual(opened().length, before + 1, 'a Simulation page');
    const ip = opened()[opened().length - 1];
    await api.inspector.settled(ip);
    const page = api.inspector.snapshot(ip);
    assert.match(page.title, /^Simulation Vault\.move\(address,uint256\) at block \d+/);
    const src = page.sections.source;
    assert.strictEqual(src.state, 'ready', JSON.stringify(src));
    if (src.state !== 'ready') return;
    assert.strictEqual(src.data.mode, 'exact', JSON.stringify(src.data.notes));
    assert.strictEqual(src.data.reason, 'Vault: move exceeds balance');
    assert.match(src.data.trace?.text ?? '', /^Simulated locally · matches the mirror node's answer/);
    // the reverting require of the workspace's Vault.sol, then the internal calls that led there
    const [vaultSol] = await vscode.workspace.findFiles('**/contracts/inspector/Vault.sol', '**/node_modules/**');
    const lines = new TextDecoder().decode(await vscode.workspace.fs.readFile(vaultSol)).split('\n');
    const requireLine = lines.findIndex((l) => l.includes('require(amount <= held')) + 1;
    assert.deepStrictEqual(
      src.data.frames.slice(0, 1).map((f) => [f.kind, f.sourceName, f.line]),
      [['revert', 'contracts/inspector/Vault.sol', requireLine]],
    );
    const trace = page.sections.trace;
    assert.strictEqual(trace.state, 'ready', JSON.stringify(trace));
    // no transfers without a transaction record: said as missing, not as a failure
    const transfers = page.sections.transfers;
    assert.ok(transfers.state === 'error' && transfers.missing === true, JSON.stringify(transfers));
    // Go to Revert opens the workspace's own file at that line
    const editor = await ip.openSource(src.data.frames[0].target);
    assert.strictEqual(editor?.document.uri.scheme, 'file');
    assert.strictEqual((editor?.selection.active.line ?? -1) + 1, requireLine);
    await vscode.commands.executeCommand('hederaExplorer.clearRevertMarks');
  });

  it('the Call lens above `contract Vault` opens the same panel', async () => {
    const uri = vscode.Uri.joinPath(vscode.workspace.workspaceFolders![0].uri, 'contracts', 'inspector', 'Vault.sol');
    await vscode.workspace.openTextDocument(uri);
    let lens: vscode.CodeLens | undefined;
    await waitUntil(
      'the Call lens',
      async () =>
        !!(lens = (
          (await vscode.commands.executeCommand<vscode.CodeLens[]>('vscode.executeCodeLensProvider', uri, 20)) ?? []
        ).find((l) => l.command?.command === CMD)),
      20000,
    );
    assert.strictEqual(lens!.command!.title, 'Call');
    const p = await vscode.commands.executeCommand(lens!.command!.command, ...lens!.command!.arguments!);
    assert.strictEqual(p, panel);
  });

  it('the Read lens above `function compute` shows compute first: its field focused in the page', async () => {
    const uri = vscode.Uri.joinPath(vscode.workspace.workspaceFolders![0].uri, 'contracts', 'inspector', 'Vault.sol');
    let lens: vscode.CodeLens | undefined;
    await waitUntil(
      'the Read lens above compute',
      async () =>
        !!(lens = (
          (await vscode.commands.executeCommand<vscode.CodeLens[]>('vscode.executeCodeLensProvider', uri, 100)) ?? []
        ).find((l) => (l.command?.arguments?.[0] as { function?: string } | undefined)?.function === 'compute')),
      20000,
    );
    assert.strictEqual(lens!.command!.title, 'Read');
    // the open panel, shown at compute
    const p = await vscode.commands.executeCommand(lens!.command!.command, ...lens!.command!.arguments!);
    assert.strictEqual(p, panel);
    await waitUntil(
      `the page focused compute's field (${JSON.stringify(snap(panel).rendered['compute(uint256)'])})`,
      () =>
        /^f\d+-0$/.test(snap(panel).rendered['compute(uint256)']?.text ?? '') &&
        snap(panel).rendered['compute(uint256)']?.status === 'focused',
      20000,
    );
    // a new panel opened by a function lens has the function in its first state; a name the ABI lacks: none
    const address = snap(panel).state.contract.address;
    panel.dispose();
    const fresh = (await vscode.commands.executeCommand(CMD, {
      address,
      function: 'move',
      inputs: 2,
    })) as ContractCallPanel;
    const block = /<script type="application\/json" id="hedera-state">([^<]*)<\/script>/.exec(snap(fresh).html);
    assert.strictEqual((JSON.parse(block![1]) as { focus?: string }).focus, 'move(address,uint256)');
    fresh.dispose();
    const other = (await vscode.commands.executeCommand(CMD, {
      address,
      function: 'noSuchFunction',
    })) as ContractCallPanel;
    const none = /<script type="application\/json" id="hedera-state">([^<]*)<\/script>/.exec(snap(other).html);
    assert.strictEqual((JSON.parse(none![1]) as { focus?: string }).focus, undefined);
    assert.ok(snap(other).refused.includes('focus: no function noSuchFunction'), snap(other).refused.join(' | '));
    panel = other;
  });

  it('a restored panel shows the function a lens asks for, once its contract is found again', async () => {
    const address = snap(panel).state.contract.address;
    panel.dispose();
    const created = vscode.window.createWebviewPanel('hederaExplorer.contractCall', 'Call', vscode.ViewColumn.Active, {
      enableScripts: true,
    });
    await api.contractCall.revive(created, { v: 1, address });
    const restored = api.contractCall.list().find((p) => p.key === address);
    assert.ok(restored, 'restored');
    const p = await vscode.commands.executeCommand(CMD, { address, function: 'compute', inputs: 1 });
    assert.strictEqual(p, restored);
    await waitUntil(
      `the restored page focused compute's field (${JSON.stringify(snap(restored).rendered['compute(uint256)'])})`,
      () => snap(restored).rendered['compute(uint256)']?.status === 'focused',
      20000,
    );
    assert.deepStrictEqual(snap(restored).refused, []);
    panel = restored;
  });

  it("the page's own Read button and Enter in a field call (its sandboxed frame submits no form)", async () => {
    await clearRequests();
    panel.reveal();
    // posted once, as soon as the page listens
    await waitUntil('the page clicked Read on maxFeeBps', () => panel.press('maxFeeBps()', 'click'), 20000);
    await waitUntil(
      `the page drew maxFeeBps (refused: ${snap(panel).refused.join(' | ')})`,
      () => snap(panel).rendered['maxFeeBps()']?.status === 'ok',
      20000,
    );
    const x = 123456789012345678901234567n;
    const expected = ((x * x * 30n) / 10_000n).toString();
    await waitUntil('Enter in compute(x)', () => panel.press('compute(uint256)', 'enter', [x.toString()]), 20000);
    await waitUntil(
      'the page drew compute(x) with every digit',
      () => snap(panel).rendered['compute(uint256)']?.text.includes(expected) ?? false,
      20000,
    );
    assert.strictEqual(snap(panel).state.outcomes['compute(uint256)'].values?.[0].value, expected);
    assert.strictEqual((await requests('/api/v1/contracts/call')).length, 2);
  });

  it('no contract there, or not a contract: said plainly, no panel', async () => {
    const before = api.contractCall.list().length;
    assert.strictEqual(await vscode.commands.executeCommand(CMD, '0.0.999999'), undefined);
    assert.strictEqual(await vscode.commands.executeCommand(CMD, 'javascript:alert(1)'), undefined);
    assert.strictEqual(api.contractCall.list().length, before);
  });
});
