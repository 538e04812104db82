// The Deployments view and the CodeLens on Solidity contracts in the real extension host, against the sandbox: the
// sample workspace's Ignition records on chain 296 (Token, Counter, Vault, Ledger, Accounting); Vault's results with
// its failures marked; expanded, where it was found and its results as Contract Results rows; a 503 as an error row
// with Retry; all networks grouped by chain, and a new record file picked up by the watcher; requests made once;
// `vscode.executeCodeLensProvider` on Vault.sol: the lens texts and their commands, executed (Contract Results
// filtered, the inspector opened on the latest failure, the record opened at the address); nothing asked for lenses
// that are not resolved; the settings.
import * as assert from 'assert';
import * as fs from 'fs';
import * as path from 'path';
import * as vscode from 'vscode';
import {
  benchFigure,
  extension,
  resetSettings,
  settlesWithin,
  waitUntil,
  SANDBOX_KEYS,
  selectSandbox,
} from './helpers';
import { addFault, clearFaults, clearRequests, requests, settled, useSandbox, type ViewsApi } from './views.helpers';

interface Scenario {
  timestamp: string;
  contractId: string;
  result: string;
}
interface Result {
  timestamp: string;
  contract_id: string;
  error_message: string | null;
}

const VAULT = '0x5fbdb2315678afecb367f032d93f642f64180aa3';
const TOKEN = '0x1000000000000000000000000000000000000002';
const RECORD = 'ignition/deployments/chain-296/deployed_addresses.json';

describe('Deployments view and CodeLens', function () {
  this.timeout(90000);
  let api: ViewsApi;
  let sandbox: string;
  let scenarios: Record<string, Scenario>;
  let vaultResults: Result[];
  const folder = () => vscode.workspace.workspaceFolders![0].uri;
  const file = (rel: string) => vscode.Uri.joinPath(folder(), ...rel.split('/'));
  /**
   * The lenses of a file as VS Code gets them: with `resolve` a number, the resolved ones (those already resolved first,
   * then those it resolved); with 'none', every lens as provided, none resolved.
   */
  const lensesOf = async (rel: string, resolve: number | 'none' = 20) => {
    await vscode.workspace.openTextDocument(file(rel)); // the command reads open documents only
    const args = resolve === 'none' ? [file(rel)] : [file(rel), resolve];
    return (await vscode.commands.executeCommand<vscode.CodeLens[]>('vscode.executeCodeLensProvider', ...args)) ?? [];
  };
  /** The lens running `command`. */
  const lensOf = (lenses: vscode.CodeLens[], command: string) => {
    const l = lenses.find((x) => x.command?.command === command);
    assert.ok(l, `a lens running ${command} among ${titles(lenses).join(' | ')}`);
    return l;
  };
  /** Markdown escapes (&#46;) read back as text. */
  const unescape = (md: string | undefined) =>
    (md ?? '').replace(/&#(\d+);/g, (_, n: string) => String.fromCharCode(Number(n)));
  const titles = (lenses: vscode.CodeLens[]) => lenses.map((l) => l.command?.title ?? '(unresolved)');
  /**
   * The lenses above `contract Vault` (line 11) once the answers arrived and they were provided again with the failure
   * and Verify lenses (those above its functions are left out).
   */
  async function vaultLenses(): Promise<vscode.CodeLens[]> {
    let lenses: vscode.CodeLens[] = [];
    await waitUntil(
      `Vault.sol's five lenses (${titles(lenses).join(' | ')})`,
      async () =>
        (lenses = (await lensesOf('contracts/inspector/Vault.sol')).filter((l) => l.range.start.line === 10)).length ===
          5 && lenses.every((l) => l.command?.title),
      20000,
    );
    return lenses;
  }

  before(async () => {
    ({ api, url: sandbox } = await useSandbox());
    const health = (await (await fetch(`${sandbox}/__sandbox/health`)).json()) as {
      notable: { inspector: Record<string, Scenario> };
    };
    scenarios = health.notable.inspector;
    vaultResults = (
      (await (await fetch(`${sandbox}/api/v1/contracts/0.0.7001/results?limit=25&order=desc`)).json()) as {
        results: Result[];
      }
    ).results;
    api.inspector.openExternal = async () => true;
    api.deployments.setAllNetworks(false);
    await vscode.commands.executeCommand('hederaExplorer.deployments.focus');
  });
  afterEach(async () => {
    await clearFaults();
  });
  after(async () => {
    api.inspector.openExternal = undefined;
    api.deployments.setAllNetworks(false);
    api.contractResults.clearFilters();
    await vscode.commands.executeCommand('workbench.action.closeAllEditors');
    await resetSettings([...SANDBOX_KEYS, 'codeLens.enabled', 'codeLens.showUndeployed', 'codeLens.functions']);
  });

  it('lists the contracts of the records on chain 296 with entity ids, latest results (failures marked) and verification', async () => {
    await api.deployments.refresh();
    await api.deployments.settled();
    assert.strictEqual(api.deployments.description(), 'Sandbox · chain 296');
    const rows = await api.deployments.rows();
    assert.deepStrictEqual(
      rows.map((r) => r.label),
      ['Token', 'Counter', 'Vault', 'Ledger', 'Accounting'],
    );
    const row = (label: string) => rows.find((r) => r.label === label)!;
    const failures = vaultResults.filter((r) => r.error_message).length;
    assert.ok(
      vaultResults.length >= 6 && vaultResults.length < 25 && failures >= 2,
      "the sandbox's Vault scenarios, some failed",
    );
    assert.match(
      row('Vault').description ?? '',
      new RegExp(`^0\\.0\\.7001 · ${vaultResults.length} calls · ${failures} failed · last .+ · not verified$`),
    );
    assert.strictEqual(row('Vault').icon, 'error', 'failures marked');
    assert.strictEqual(row('Vault').contextValue, 'deployment.found.verifiable');
    assert.ok(row('Vault').collapsible);
    assert.ok(
      unescape(row('Vault').tooltip).includes(`Found in: ${RECORD} › InspectorModule#Vault`),
      row('Vault').tooltip,
    );
    assert.ok(
      unescape(row('Vault').tooltip).includes(
        `Latest failure: ${vaultResults.find((r) => r.error_message)?.timestamp}`,
      ),
      row('Vault').tooltip,
    );
    assert.strictEqual(row('Ledger').description, '0.0.7002 · no calls · not verified');
    assert.strictEqual(row('Ledger').icon, 'circle-outline');
    assert.strictEqual(row('Accounting').description, '0.0.7003 · no calls · not verified');
    // the sandbox's mirror node has no contract at the Token's record address; its Sourcify has a match
    assert.strictEqual(row('Token').description, '0x100000…0002 · not found on Sandbox · verified (match)');
    assert.strictEqual(row('Token').icon, 'warning');
    assert.strictEqual(row('Token').contextValue, 'deployment.verifiable');
  });

  it('expanding Vault shows where it was found and its recent results as Contract Results rows', async () => {
    const children = await api.deployments.rows(['Vault']);
    assert.strictEqual(children[0].label, 'Deployment');
    assert.strictEqual(children[0].description, RECORD);
    const results = children.slice(1);
    assert.strictEqual(results.length, vaultResults.length);
    assert.ok(
      results.every((r) => /^contractResult\b/.test(r.contextValue ?? '') && r.collapsible),
      'the Contract Results row kind',
    );
    assert.deepStrictEqual(
      results.map((r) => r.icon),
      vaultResults.map((r) => (r.error_message ? 'error' : 'pass')),
    );
    assert.ok(
      results.every((r) => (r.description ?? '').startsWith('0.0.7001')),
      results.map((r) => r.description).join(' | '),
    );
    const details = await api.deployments.rows(['Vault', 'Deployment']);
    const d = Object.fromEntries(details.map((x) => [x.label, x]));
    assert.strictEqual(d.Address.description, VAULT);
    assert.strictEqual(d['Entity id'].description, '0.0.7001');
    assert.strictEqual(d.Chain.description, 'Hedera testnet (chain 296)');
    assert.strictEqual(d['Found in'].description, `${RECORD} › InspectorModule#Vault`);
    assert.strictEqual(d['Found in'].command, `hederaExplorer.deployments.openRecord 296:${VAULT}`);
    assert.strictEqual(d.Verification.description, 'not verified');
    assert.strictEqual(d.Verification.command, `hederaExplorer.deployments.verify 296:${VAULT}`);
    // the build deployed (src/workspace/deployedBuild.ts): the one the records name, held against the code on chain
    assert.match(
      d.Build.description ?? '',
      /^artifacts\/build-info\/[0-9a-f]+\.json · the code on chain$/,
      d.Build.description,
    );
    assert.strictEqual(d.Build.icon, 'pass');
    assert.match(d.Build.tooltip ?? '', /its runtime code is the code on chain/, d.Build.tooltip);
    // a contract without results, and one the mirror node does not know
    const ledger = await api.deployments.rows(['Ledger']);
    assert.deepStrictEqual(
      ledger.slice(1).map((r) => [r.label, r.contextValue]),
      [['No contract results on Sandbox.', 'empty']],
    );
    const token = await api.deployments.rows(['Token']);
    assert.deepStrictEqual(
      token.slice(1).map((r) => [r.label, r.contextValue]),
      [[`Not found on Sandbox: its mirror node knows no contract at ${TOKEN}.`, 'notFound']],
    );
  });

  it('the result rows have the Contract Results actions in this view too', () => {
    const menus = extension().packageJSON.contributes.menus['view/item/context'] as Array<{
      command: string;
      when: string;
      group: string;
    }>;
    // every action of a result row (viewItem contractResult, or a kind of it), with its condition on the row
    const actions = (view: string) =>
      menus
        .filter(
          (m) =>
            m.when.startsWith(`view == ${view} && viewItem `) &&
            m.when.slice(`view == ${view} && `.length).includes('contractResult'),
        )
        .map((m) => `${m.command} ${m.group} ${m.when.slice(`view == ${view} && `.length)}`)
        .sort();
    const results = actions('hederaExplorer.contractResults');
    assert.ok(
      results.some((a) => a.startsWith('hederaExplorer.contractResults.inspect inline@0')) && results.length >= 8,
      results.join(', '),
    );
    assert.deepStrictEqual(actions('hederaExplorer.deployments'), results);
  });

  it('asks for each contract once; Refresh asks for the results again, not for entity ids already found', async () => {
    await clearRequests();
    await api.deployments.rows();
    await api.deployments.rows(['Vault']);
    await api.deployments.settled();
    // the view's requests: a contract by id or address, or its results; the list of every result
    // (/contracts/results) is the Contract Results view's, which may load in the same window
    const ours = async () =>
      (await requests('/api/v1/contracts')).filter((u) => !/^\/api\/v1\/contracts\/results(\?|$)/.test(u));
    assert.deepStrictEqual(await ours(), [], 'all answers kept');
    await api.deployments.refresh();
    await api.deployments.rows();
    await api.deployments.settled();
    const sent = (await ours()).map((u) => u.replace(/\?.*/, '')).sort();
    assert.deepStrictEqual(
      sent,
      [
        '/api/v1/contracts/0.0.7001/results',
        '/api/v1/contracts/0.0.7002/results',
        '/api/v1/contracts/0.0.7003/results',
        '/api/v1/contracts/0x1000000000000000000000000000000000000002',
        '/api/v1/contracts/0x1000000000000000000000000000000000000003',
      ],
      'results again; the two addresses the mirror node did not know asked again; found ids kept',
    );
    assert.ok(
      (await requests('/api/v1/contracts/0.0.7001/results')).every((u) => /limit=25/.test(u) && /order=desc/.test(u)),
    );
    assert.strictEqual((await requests(`/v2/contract/296/${VAULT}`)).length, 1, 'Sourcify asked again once');
  });

  it("a 503 on a contract's results is an error row with the server's message; Retry loads them", async () => {
    await addFault({ path: '/api/v1/contracts/0.0.7001/results', times: 3, fault: { status: 503 } });
    await api.deployments.refresh();
    await api.deployments.settled();
    let vault = (await api.deployments.rows()).find((r) => r.label === 'Vault')!;
    assert.match(vault.description ?? '', /^0\.0\.7001 · results failed to load · not verified$/);
    assert.strictEqual(vault.icon, 'warning');
    const children = await api.deployments.rows(['Vault']);
    const error = children[1];
    assert.strictEqual(error.contextValue, 'error');
    assert.match(error.label, /HTTP 503/);
    assert.match(error.label, /Service unavailable/);
    assert.strictEqual(error.command, `hederaExplorer.deployments.retry 296:${VAULT}`);
    assert.strictEqual(children.length, 2);
    await vscode.commands.executeCommand('hederaExplorer.deployments.retry', `296:${VAULT}`);
    await api.deployments.rows(['Vault']);
    await api.deployments.settled();
    vault = (await api.deployments.rows()).find((r) => r.label === 'Vault')!;
    assert.match(
      vault.description ?? '',
      new RegExp(
        `^0\\.0\\.7001 · ${vaultResults.length} calls · ${vaultResults.filter((r) => r.error_message).length} failed`,
      ),
    );
    assert.strictEqual((await api.deployments.rows(['Vault'])).length, 1 + vaultResults.length);
  });

  // how long the switch waits (target < 4 s) is a figure of `npm run bench` (test/bench/host.mjs)
  it('selecting another network cancels the answers still being asked for the previous one; they are asked again there', async () => {
    await api.deployments.rows();
    await api.deployments.settled();
    // Vault's results hang for 10 minutes on the sandbox network: a view that waited for that answer would show the
    // other network's rows only after the client's 15 s time limit at best (the bound below is under it)
    await addFault({ path: '/api/v1/contracts/0.0.7001/results', times: 1, fault: { delayMs: 600_000 } });
    await clearRequests();
    const cfg = vscode.workspace.getConfiguration('hederaExplorer');
    const vaultOf = async () => (await api.deployments.rows()).find((r) => r.label === 'Vault')!;
    try {
      await api.deployments.refresh();
      void api.deployments.rows(); // asks again (not awaited: it would wait for the answers)
      await waitUntil(
        "Vault's results asked",
        async () => (await requests('/api/v1/contracts/0.0.7001/results')).length === 1,
      );
      const switched = Date.now();
      // another network, whose answers come at once: the same sandbox under another host name (another mirror node
      // to the view: its answers are kept by network name and servers) and another name
      const other = sandbox.replace('127.0.0.1', 'localhost');
      await cfg.update('custom.mirrorUrl', other, vscode.ConfigurationTarget.Global);
      await cfg.update('custom.name', 'Other', vscode.ConfigurationTarget.Global);
      await waitUntil('the other network', () => api.profile().label === 'Other' && api.profile().mirrorUrl === other);
      const onCustom = await settlesWithin(
        "Vault's row on the other network while the sandbox's answer hangs (10 minutes)",
        vaultOf(),
        10_000,
      );
      benchFigure(
        'networkSwitchMs',
        Date.now() - switched,
        'from selecting another network to its Vault row, the previous answer hanging',
      );
      assert.match(onCustom.description ?? '', new RegExp(`^0\\.0\\.7001 · ${vaultResults.length} calls`));
      assert.strictEqual(
        (await requests('/api/v1/contracts/0.0.7001/results')).length,
        2,
        'asked on the other network',
      );
    } finally {
      await selectSandbox(sandbox);
    }
    // back on the sandbox: the cancelled answer was not kept as a failure; it is asked again
    const vault = await vaultOf();
    assert.match(vault.description ?? '', new RegExp(`^0\\.0\\.7001 · ${vaultResults.length} calls`));
    const asked = await requests('/api/v1/contracts/0.0.7001/results');
    assert.strictEqual(
      asked.length,
      3,
      `asked on the sandbox, on the other network, and again on the sandbox: ${asked.join(' ')}`,
    );
  });

  it('Show All Networks groups by chain; a new record file is read at once, on another chain without lookups', async () => {
    const rel = 'ignition/deployments/chain-295/deployed_addresses.json';
    const extra = path.join(folder().fsPath, ...rel.split('/'));
    try {
      await vscode.commands.executeCommand('hederaExplorer.deployments.showAllNetworks');
      assert.strictEqual(api.deployments.allNetworks, true);
      assert.strictEqual(api.deployments.description(), 'all networks');
      assert.deepStrictEqual(
        (await api.deployments.rows()).map((r) => `${r.label}: ${r.description}`),
        ['Hedera testnet (chain 296): 5 contracts · Sandbox'],
      );
      await clearRequests();
      fs.mkdirSync(path.dirname(extra), { recursive: true });
      fs.writeFileSync(extra, JSON.stringify({ 'MainModule#Vault': '0x00000000000000000000000000000000000C0FFE' }));
      await waitUntil('the new record read', async () => (await api.deployments.rows()).length === 2, 10000);
      const groups = await api.deployments.rows();
      assert.deepStrictEqual(
        groups.map((r) => `${r.label}: ${r.description}`),
        ['Hedera mainnet (chain 295): 1 contract', 'Hedera testnet (chain 296): 5 contracts · Sandbox'],
      );
      const [main] = await api.deployments.rows(['Hedera mainnet (chain 295)']);
      assert.deepStrictEqual(
        [main.label, main.description, main.contextValue, main.collapsible, main.command],
        [
          'Vault',
          '0x000000…0ffe · not on Sandbox',
          'deployment.record',
          false,
          'hederaExplorer.deployments.openRecord 295:0x00000000000000000000000000000000000c0ffe',
        ],
      );
      await api.deployments.settled();
      assert.deepStrictEqual(
        (await requests('/')).filter((u) => /c0ffe/i.test(u)),
        [],
        "another chain's contract is not looked up on this network",
      );
      // the selected network only again: chain 296's five
      await vscode.commands.executeCommand('hederaExplorer.deployments.showSelectedNetwork');
      assert.deepStrictEqual(
        (await api.deployments.rows()).map((r) => r.label),
        ['Token', 'Counter', 'Vault', 'Ledger', 'Accounting'],
      );
    } finally {
      fs.rmSync(path.dirname(extra), { recursive: true, force: true });
      api.deployments.setAllNetworks(false);
    }
    await waitUntil('the record gone', async () => (await api.deployments.entries()).length === 5, 10000);
  });

  it('without deployment records the view is empty: its welcome content says where records come from', async () => {
    const dir = path.join(folder().fsPath, 'ignition');
    const away = path.join(folder().fsPath, 'ignition.away');
    fs.renameSync(dir, away);
    try {
      await waitUntil('no records', async () => (await api.deployments.entries()).length === 0, 10000);
      assert.deepStrictEqual(await api.deployments.rows(), [], 'no rows: VS Code shows the welcome content');
      const welcome = (
        extension().packageJSON.contributes.viewsWelcome as Array<{ view: string; contents: string }>
      ).find((w) => w.view === 'hederaExplorer.deployments');
      const nls = JSON.parse(
        fs.readFileSync(path.join(extension().extensionPath, 'package.nls.json'), 'utf8'),
      ) as Record<string, string>;
      const text =
        welcome?.contents === '%welcome.deployments%' ? nls['welcome.deployments'] : (welcome?.contents ?? '');
      for (const words of [
        'Hardhat Ignition (ignition/deployments/',
        'hardhat-deploy (deployments/',
        'Foundry (broadcast/',
        '(command:hederaExplorer.deployments.refresh)',
      ])
        assert.ok(text.includes(words), words);
      assert.strictEqual((await lensesOf('contracts/inspector/Vault.sol')).length, 0, 'no lens either');
    } finally {
      fs.renameSync(away, dir);
    }
    await waitUntil('the records back', async () => (await api.deployments.entries()).length === 5, 10000);
  });

  it('CodeLens on Vault.sol: id, calls, verification; the failure count and Debug beside it; Verify', async () => {
    await api.deployments.settled();
    const lenses = await vaultLenses();
    const main = lensOf(lenses, 'hederaExplorer.contractResults.showContract');
    const failed = lensOf(lenses, 'hederaExplorer.inspectTransaction');
    const verify = lensOf(lenses, 'hederaExplorer.deployments.verify');
    assert.ok(
      lenses.every((l) => l.range.start.line === 10 && l.range.start.character === 0),
      'above `contract Vault`',
    );
    const failures = vaultResults.filter((r) => r.error_message).length;
    assert.match(
      main.command!.title,
      new RegExp(`^0\\.0\\.7001 · ${vaultResults.length} calls, last .+ · not verified$`),
    );
    assert.deepStrictEqual(
      [main.command!.command, main.command!.arguments],
      ['hederaExplorer.contractResults.showContract', ['0.0.7001']],
    );
    const newestFailure = vaultResults.find((r) => r.error_message)!.timestamp; // the page is newest first
    assert.ok(
      Object.values(scenarios).some((s) => s.timestamp === newestFailure),
      "one of the sandbox's scenarios",
    );
    assert.deepStrictEqual(
      [failed.command!.title, failed.command!.command, failed.command!.arguments],
      [`${failures} failed`, 'hederaExplorer.inspectTransaction', [{ timestamp: newestFailure, network: 'custom' }]],
    );
    const debug = lensOf(lenses, 'hederaExplorer.debugTransaction');
    assert.deepStrictEqual(
      [debug.command!.title, debug.command!.arguments],
      ['Debug', [{ timestamp: newestFailure, network: 'custom' }]],
    );
    assert.deepStrictEqual(
      [verify.command!.title, verify.command!.command, verify.command!.arguments],
      ['Verify', 'hederaExplorer.deployments.verify', [{ address: VAULT, chainId: 296, contractName: 'Vault' }]],
    );
    // a library is deployed too; an abstract contract and an interface get nothing
    let accounting: vscode.CodeLens[] = [];
    await waitUntil(
      "Accounting.sol's lenses",
      async () =>
        (accounting = await lensesOf('contracts/inspector/Accounting.sol')).length === 3 &&
        accounting.every((l) => l.command?.title),
    );
    assert.deepStrictEqual(titles(accounting).sort(), ['0.0.7003 · no calls · not verified', 'Call', 'Verify']);
    assert.strictEqual(accounting[0].range.start.line, 6);
    assert.deepStrictEqual(await lensesOf('contracts/access/Ownable.sol'), []);
    assert.deepStrictEqual(await lensesOf('contracts/IThing.sol'), []);
  });

  it('clicking the main lens filters Contract Results to the contract; the failure count opens the inspector on it', async () => {
    const lenses = await vaultLenses();
    const main = lensOf(lenses, 'hederaExplorer.contractResults.showContract');
    const failed = lensOf(lenses, 'hederaExplorer.inspectTransaction');
    await vscode.commands.executeCommand(main.command!.command, ...main.command!.arguments!);
    assert.strictEqual(api.contractResults.describeFilters(), 'contract 0.0.7001');
    const snap = await settled(api.contractResults);
    assert.strictEqual(
      snap.rows.filter((r) => /^contractResult\b/.test(r.contextValue ?? '')).length,
      vaultResults.length,
    );
    assert.ok((api.contractResults.loaded as Result[]).every((r) => r.contract_id === '0.0.7001'));
    api.contractResults.clearFilters();

    const before = api.inspector.list().length;
    await vscode.commands.executeCommand(failed.command!.command, ...failed.command!.arguments!);
    const newestFailure = vaultResults.find((r) => r.error_message)!.timestamp;
    await waitUntil(
      'an inspector panel on the latest failure',
      () => api.inspector.list().some((p) => p.key.includes(newestFailure)),
      20000,
    );
    assert.ok(api.inspector.list().length >= before);
    const panel = api.inspector.list().find((p) => p.key.includes(newestFailure))!;
    assert.strictEqual(panel.network, 'custom');
    await vscode.commands.executeCommand('workbench.action.closeAllEditors');
  });

  it('a contract the mirror node does not know: its lens says so and opens the record at the address', async () => {
    let lenses: vscode.CodeLens[] = [];
    await waitUntil(
      "Token.sol's lenses",
      async () =>
        (lenses = await lensesOf('contracts/Token.sol')).length === 2 && lenses.every((l) => l.command?.title),
    );
    assert.deepStrictEqual(
      titles(lenses).sort(),
      ['0x100000…0002 · not found on Sandbox · verified (match)', 'Verify'],
      'a partial match may still become exact',
    );
    const main = lensOf(lenses, 'hederaExplorer.deployments.openRecord');
    assert.deepStrictEqual(main.command!.arguments, [`296:${TOKEN}`]);
    await vscode.commands.executeCommand(main.command!.command, ...main.command!.arguments!);
    await waitUntil(
      'the record open',
      () => vscode.window.activeTextEditor?.document.uri.path.endsWith(RECORD) === true,
    );
    const editor = vscode.window.activeTextEditor!;
    assert.strictEqual(editor.document.getText(editor.selection), TOKEN);
    await vscode.commands.executeCommand('workbench.action.closeAllEditors');
  });

  it('nothing is asked for lenses that are not resolved (not on screen); resolving asks once', async () => {
    await vscode.commands.executeCommand('workbench.view.explorer'); // the view hidden: it asks nothing either
    await api.deployments.refresh();
    await api.deployments.settled(); // the records read again, every answer asked for in
    await clearRequests();
    const unresolved = await lensesOf('contracts/inspector/Vault.sol', 'none');
    assert.deepStrictEqual(
      titles(unresolved),
      ['(unresolved)'],
      'the main lens, to be resolved; nothing kept to show more',
    );
    await api.deployments.settled(); // anything providing the lenses asked for has come back
    assert.deepStrictEqual(await requests('/api/v1/contracts/0.0.7001'), [], 'no results asked');
    assert.deepStrictEqual(await requests(`/v2/contract/296/${VAULT}`), [], 'no Sourcify lookup');
    await vaultLenses();
    assert.strictEqual((await requests('/api/v1/contracts/0.0.7001/results')).length, 1);
    assert.strictEqual((await requests(`/v2/contract/296/${VAULT}`)).length, 1);
    await vaultLenses();
    assert.strictEqual((await requests('/api/v1/contracts/0.0.7001/results')).length, 1, 'kept for the next resolve');
    await vscode.commands.executeCommand('hederaExplorer.deployments.focus');
  });

  it('Read above each public view function and public variable of Vault, Simulate above the others, naming the function; none with codeLens.functions off', async () => {
    await api.deployments.settled();
    await vaultLenses();
    const doc = await vscode.workspace.openTextDocument(file('contracts/inspector/Vault.sol'));
    const lineOf = (needle: string) =>
      doc
        .getText()
        .split('\n')
        .findIndex((l) => l.includes(needle));
    const functionLenses = (await lensesOf('contracts/inspector/Vault.sol')).filter((l) => l.range.start.line !== 10);
    const named = (name: string) =>
      functionLenses.filter((l) => (l.command?.arguments?.[0] as { function?: string } | undefined)?.function === name);
    const one = (name: string) => {
      const found = named(name);
      assert.strictEqual(found.length, 1, `one lens above ${name} among ${titles(functionLenses).join(' | ')}`);
      return found[0];
    };
    const compute = one('compute');
    assert.deepStrictEqual(
      [compute.command?.title, compute.command?.command, compute.command?.arguments, compute.range.start.line],
      [
        'Read',
        'hederaExplorer.callContract',
        [{ address: VAULT, function: 'compute', inputs: 1 }],
        lineOf('function compute('),
      ],
    );
    assert.match(compute.command?.tooltip ?? '', /^Read compute of Vault at 0\.0\.7001 on Sandbox: nothing is signed/);
    const move = one('move');
    assert.deepStrictEqual(
      [move.command?.title, move.command?.arguments, move.range.start.line],
      ['Simulate', [{ address: VAULT, function: 'move', inputs: 2 }], lineOf('function move(')],
    );
    assert.strictEqual(one('deposit').command?.title, 'Simulate');
    // a public state variable: Read, its getter named without inputs
    const fee = one('feeBps');
    assert.deepStrictEqual(
      [fee.command?.title, fee.command?.arguments, fee.range.start.line],
      ['Read', [{ address: VAULT, function: 'feeBps' }], lineOf('uint96 public feeBps;')],
    );
    assert.strictEqual(one('audit').command?.title, 'Read');
    // private functions have none; every function lens opens the call panel
    assert.deepStrictEqual([...named('_move'), ...named('_debit'), ...named('_seed')], []);
    assert.ok(functionLenses.every((l) => l.command?.command === 'hederaExplorer.callContract'));
    const cfg = vscode.workspace.getConfiguration('hederaExplorer');
    try {
      await cfg.update('codeLens.functions', false, vscode.ConfigurationTarget.Global);
      const after = await lensesOf('contracts/inspector/Vault.sol');
      assert.deepStrictEqual(
        after.filter((l) => l.range.start.line !== 10).map((l) => l.command?.title),
        [],
      );
    } finally {
      await resetSettings(['codeLens.functions']);
    }
  });

  it('settings: codeLens.enabled off shows none; showUndeployed adds a quiet lens to a contract no record deploys', async () => {
    const cfg = vscode.workspace.getConfiguration('hederaExplorer');
    const rel = 'contracts/Undeployed.sol';
    fs.writeFileSync(
      path.join(folder().fsPath, ...rel.split('/')),
      '// SPDX-License-Identifier: MIT\npragma solidity ^0.8.24;\n\ncontract Undeployed {}\n',
    );
    try {
      assert.deepStrictEqual(await lensesOf(rel), [], 'nothing by default');
      await cfg.update('codeLens.showUndeployed', true, vscode.ConfigurationTarget.Global);
      const quiet = await lensesOf(rel);
      assert.deepStrictEqual(
        quiet.map((l) => [l.command?.title, l.command?.command, l.range.start.line]),
        [['not deployed on Sandbox', '', 3]],
      );
      await cfg.update('codeLens.enabled', false, vscode.ConfigurationTarget.Global);
      assert.deepStrictEqual(await lensesOf(rel), []);
      assert.deepStrictEqual(await lensesOf('contracts/inspector/Vault.sol'), []);
    } finally {
      fs.rmSync(path.join(folder().fsPath, ...rel.split('/')), { force: true });
      await resetSettings(['codeLens.enabled', 'codeLens.showUndeployed']);
    }
    assert.strictEqual((await vaultLenses()).length, 5);
  });
});
