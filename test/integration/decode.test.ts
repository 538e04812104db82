// Decoding in the real extension host: the ABI index over the sample workspace's artifacts (and its
// watcher), contract result rows labelled with their function and details with decoded arguments, return values
// and custom errors, a Sourcify ABI fetched once for the contract being expanded, schedule rows labelled with
// their decoded transaction.
import * as assert from 'assert';
import * as http from 'http';
import * as vscode from 'vscode';
import type { ContractResult, Schedule } from '../../src/api/mirrorTypes';
import { resetSettings, sandboxUrl, waitUntil, SANDBOX_KEYS, selectSandbox } from './helpers';
import { clearRequests, requests, settled, useSandbox, type ViewsApi } from './views.helpers';

type Result = ContractResult;

const ARTIFACTS = [
  'artifacts/abi/SaucerRouter.abi',
  'artifacts/contracts/inspector/Accounting.sol/Accounting.json',
  'artifacts/contracts/inspector/Ledger.sol/Ledger.json',
  'artifacts/contracts/inspector/Vault.sol/Vault.json',
  'artifacts/contracts/inspector/VaultProxy.sol/VaultProxy.json',
  'artifacts/contracts/inspector/VaultRules.sol/VaultRules.json',
  'artifacts/contracts/sandbox/SandToken.sol/SandToken.json',
  'artifacts/contracts/sandbox/SandboxPunks.sol/SandboxPunks.json',
  'artifacts/contracts/sandbox/StakingVault.sol/StakingVault.json',
  'artifacts/contracts/sandbox/TreasuryDAO.sol/TreasuryDAO.json',
];

describe('Decoding with ABIs and Hedera protobufs', function () {
  this.timeout(90000);
  let api: ViewsApi;
  const folder = () => vscode.workspace.workspaceFolders![0].uri;
  const loaded = () => api.contractResults.loaded as Result[];

  before(async () => {
    ({ api } = await useSandbox());
    api.abis.ensureStarted();
    await api.abis.ready();
    api.contractResults.clearFilters();
    await vscode.commands.executeCommand('hederaExplorer.contractResults.focus');
    await api.contractResults.refresh();
    await settled(api.contractResults);
  });
  after(async () => {
    api.contractResults.clearFilters();
    await resetSettings(SANDBOX_KEYS);
  });

  it("indexes the workspace's Hardhat artifacts and plain .abi files, not build info or .dbg.json", () => {
    assert.deepStrictEqual(api.abis.sources, ARTIFACTS);
  });

  it('labels contract result rows with the called function and decodes arguments, return values and reverts', async () => {
    const rows = api.contractResults
      .snapshot()
      .rows.filter((r) => /^contractResult(\.failed)?$/.test(r.contextValue ?? ''));
    const named = rows.filter((r) => / · \w+\((…)?\)$/.test(r.label));
    assert.ok(
      named.length >= rows.length - 2,
      `most rows show their function: ${rows.map((r) => r.label).join(' | ')}`,
    );
    for (const r of rows)
      assert.match(
        r.description ?? '',
        /^\d+\.\d+\.\d+ · (.+ · )?[\d,]+ gas · from 0x/,
        'contract, result, gas and sender kept',
      );

    // a revert with Error(string) (other suites may have added newer results than the sandbox's newest revert)
    const revert = loaded().find(
      (r) =>
        r.error_message?.startsWith('0x08c379a0') &&
        r.function_parameters &&
        !r.function_parameters.startsWith('0x6080'),
    );
    assert.ok(revert, 'an Error(string) revert on the first page');
    const lines = api.contractResults.detailLines(revert);
    assert.ok(
      lines.some((l) => /^Transaction \/ Revert reason: (?!0x|custom error ).+$/u.test(l)),
      lines.join('\n'),
    );
    const fn = lines.find((l) => l.startsWith('Transaction / Function: '));
    assert.match(fn ?? '', /^Transaction \/ Function: \w+\(/);
    assert.match(
      lines.find((l) => l.startsWith('Transaction / Decoded with: ')) ?? '',
      /^Transaction \/ Decoded with: artifacts\/(contracts\/sandbox\/\w+\.sol\/\w+\.json|abi\/SaucerRouter\.abi)$/,
    );

    // a successful call with return values, every digit
    let withReturn: string[] | undefined;
    let custom: string[] | undefined;
    for (let page = 0; page < 12 && (!withReturn || !custom); page++) {
      for (const r of loaded()) {
        const l = api.contractResults.detailLines(r);
        if (!withReturn && r.result === 'SUCCESS' && r.function_parameters?.startsWith('0x70a08231')) withReturn = l;
        if (!custom && r.error_message?.startsWith('0xe450d38c')) custom = l;
      }
      if (!withReturn || !custom) await api.contractResults.loadMore();
    }
    assert.ok(withReturn && custom, 'a balanceOf result and an ERC20InsufficientBalance revert within the first pages');
    assert.ok(
      withReturn.some((l) => /^Transaction \/ Function: balanceOf\(account=0x[0-9a-fA-F]{40}\)$/.test(l)),
      withReturn.join('\n'),
    );
    assert.ok(
      withReturn.some((l) => /^Transaction \/ Returned: value=\d+$/.test(l)),
      withReturn.join('\n'),
    );
    assert.ok(
      withReturn.some((l) => /^Transaction \/ Returned \/ value \(uint256\): \d{7,}$/.test(l)),
      'the uint256 with every digit',
    );
    assert.ok(
      custom.some((l) =>
        /^Transaction \/ Revert reason: ERC20InsufficientBalance\(sender=0x[0-9a-fA-F]{40}, balance=\d+, needed=\d+\)$/.test(
          l,
        ),
      ),
      custom.join('\n'),
    );
    assert.ok(
      custom.some(
        (l) =>
          l === 'Transaction / Revert reason / Decoded with: artifacts/contracts/sandbox/SandToken.sol/SandToken.json',
      ),
      custom.join('\n'),
    );
    assert.ok(
      custom.some((l) => /^Data \/ Function parameters: \d+ B · 0x/.test(l)),
      'the hex stays in Data',
    );
  });

  it('follows the workspace: a removed artifact stops decoding its calls, a new one decodes them again; node_modules is ignored', async () => {
    const dao = vscode.Uri.joinPath(folder(), 'artifacts/contracts/sandbox/TreasuryDAO.sol/TreasuryDAO.json');
    const text = await vscode.workspace.fs.readFile(dao);
    const castVote = () => loaded().find((r) => r.function_parameters?.startsWith('0x56781388'));
    assert.ok(castVote(), 'a castVote call among the loaded results');
    assert.ok(
      api.contractResults
        .detailLines(castVote())
        .some((l) => l.startsWith('Transaction / Function: castVote(proposalId=')),
    );
    // the same function in node_modules (ignored) and removed from artifacts
    const ignored = vscode.Uri.joinPath(folder(), 'node_modules/dao/Governor.abi');
    await vscode.workspace.fs.writeFile(ignored, text);
    await vscode.workspace.fs.delete(dao);
    try {
      await waitUntil(
        'the DAO artifact leaves the index',
        () => !api.abis.sources.some((s) => s.includes('TreasuryDAO')),
        15000,
      );
      await api.abis.ready();
      assert.ok(!api.abis.sources.some((s) => s.includes('node_modules')), api.abis.sources.join(', '));
      const lines = api.contractResults.detailLines(castVote());
      assert.ok(lines.includes('Transaction / Function: selector 0x56781388 (no ABI knows it)'), lines.join('\n'));
      assert.ok(
        lines.some((l) => /^Data \/ Function parameters: 68 B · 0x56781388/.test(l)),
        'still hex',
      );
      // a plain ABI array in another folder brings it back
      const plain = vscode.Uri.joinPath(folder(), 'abis/Governor.json');
      await vscode.workspace.fs.writeFile(
        plain,
        Buffer.from(JSON.stringify(JSON.parse(Buffer.from(text).toString('utf8')).abi)),
      );
      await waitUntil('abis/Governor.json in the index', () => api.abis.sources.includes('abis/Governor.json'), 15000);
      assert.ok(api.contractResults.detailLines(castVote()).includes('Transaction / Decoded with: abis/Governor.json'));
      await vscode.workspace.fs.delete(plain);
    } finally {
      await vscode.workspace.fs.writeFile(dao, text);
      await vscode.workspace.fs.delete(vscode.Uri.joinPath(folder(), 'node_modules'), { recursive: true });
    }
    await waitUntil('the DAO artifact is back', () => api.abis.sources.join() === ARTIFACTS.join(), 15000);
  });

  it('asks Sourcify for the ABI of an expanded contract that no workspace ABI knows, once, and decodes with it', async () => {
    // the sandbox's contracts are not verified; a tiny Sourcify stands in, the mirror node stays the sandbox
    const dao = vscode.Uri.joinPath(folder(), 'artifacts/contracts/sandbox/TreasuryDAO.sol/TreasuryDAO.json');
    const artifact = await vscode.workspace.fs.readFile(dao);
    const abi = (JSON.parse(Buffer.from(artifact).toString('utf8')) as { abi: Array<Record<string, unknown>> }).abi.map(
      (i) =>
        i.name === 'castVote'
          ? {
              ...i,
              inputs: [
                { name: 'proposal', type: 'uint256' },
                { name: 'vote', type: 'uint8' },
              ],
            }
          : i,
    );
    const hits: string[] = [];
    const server = http.createServer((req, res) => {
      hits.push(req.url ?? '');
      const ok = /^\/v2\/contract\/296\/0x[0-9a-f]{40}\?fields=abi$/.test(req.url ?? '');
      res.writeHead(ok ? 200 : 404, { 'content-type': 'application/json' });
      res.end(JSON.stringify(ok ? { abi, match: 'match' } : { match: null }));
    });
    await new Promise<void>((r) => server.listen(0, '127.0.0.1', () => r()));
    const url = `http://127.0.0.1:${(server.address() as { port: number }).port}`;
    await vscode.workspace.fs.delete(dao);
    try {
      await waitUntil(
        'the DAO artifact leaves the index',
        () => !api.abis.sources.some((s) => s.includes('TreasuryDAO')),
        15000,
      );
      const cfg = vscode.workspace.getConfiguration('hederaExplorer');
      // the sandbox's mirror node with this Sourcify server
      await cfg.update('custom.verifyUrl', url, vscode.ConfigurationTarget.Global);
      await waitUntil(
        'custom profile',
        () => api.profile().name === 'custom' && api.profile().verifyUrl.startsWith(url),
      );
      await api.contractResults.refresh();
      await settled(api.contractResults);
      for (let i = 0; i < 12 && !loaded().some((r) => r.function_parameters?.startsWith('0x56781388')); i++)
        await api.contractResults.loadMore();
      const r = loaded().find((x) => x.function_parameters?.startsWith('0x56781388'))!;
      const success = r.result === 'SUCCESS';
      const address = (r.address ?? r.to)!.toLowerCase();
      // the requests for the ABIs (other features, such as Deployments, may ask this Sourcify of other things)
      const abiHits = (a: string) => hits.filter((h) => h.startsWith(`/v2/contract/296/${a}?fields=abi`));
      // no request before the row is expanded
      assert.deepStrictEqual(abiHits(address), []);
      api.abis.lookUpContract(r, !success); // what expanding the row does
      api.abis.lookUpContract(r, !success); // expanding again: no second request
      await api.abis.ready();
      assert.deepStrictEqual(abiHits(address), [`/v2/contract/296/${address}?fields=abi`]);
      const lines = api.contractResults.detailLines(r);
      assert.ok(
        lines.some((l) => /^Transaction \/ Function: castVote\(proposal=\d+, vote=\d+\)$/.test(l)),
        lines.join('\n'),
      );
      assert.ok(lines.includes('Transaction / Decoded with: Sourcify'), lines.join('\n'));
      const row = api.contractResults.snapshot().rows.find((x) => x.label.endsWith(' · castVote(…)'));
      assert.ok(row, 'the row label shows the function now');
      // a contract Sourcify does not know: one 404, remembered
      const other = loaded().find((x) => x.function_parameters?.startsWith('0x6080') && (x.address ?? x.to));
      if (other) {
        api.abis.lookUpContract(other, false);
        await api.abis.ready();
        api.abis.lookUpContract(other, false);
        await api.abis.ready();
        const otherAddress = (other.address ?? other.to)!.toLowerCase();
        assert.strictEqual(abiHits(otherAddress).length, 1, hits.join(' '));
      }
    } finally {
      await vscode.workspace.fs.writeFile(dao, artifact);
      await selectSandbox(sandboxUrl!);
      await new Promise<void>((r) => server.close(() => r()));
    }
    await waitUntil('the DAO artifact is back', () => api.abis.sources.join() === ARTIFACTS.join(), 15000);
  });

  it('labels schedule rows with their decoded transaction and shows its fields in the details', async () => {
    await vscode.commands.executeCommand('hederaExplorer.schedules.focus');
    api.schedules.clearFilters();
    await clearRequests();
    await api.schedules.refresh();
    const snap = await settled(api.schedules);
    const rows = snap.rows.filter((r) => r.contextValue === 'schedule');
    assert.strictEqual(rows.length, 25);
    for (const r of rows)
      assert.match(
        r.label,
        /^0\.0\.\d+ · (0\.0\.\d+ → 0\.0\.\d+ .+|Contract call 0\.0\.\d+ transfer\(…\)|Token (mint|burn|associate) 0\.0\.\d+.*|Consensus message 0\.0\.\d+)$/,
      );
    const executed = rows.find((r) => r.label.startsWith('0.0.5104897 · '));
    assert.match(
      executed?.label ?? '',
      /^0\.0\.5104897 · 0\.0\.2061517 → 0\.0\.\d+ [\d.]+ ℏ$/,
      'the executed schedule: an hbar transfer',
    );
    assert.strictEqual(
      executed?.description,
      'executed · Quarterly treasury payout · by 0.0.2061517',
      'state · memo · by creator kept',
    );
    const all = api.schedules.loaded as Schedule[];
    const call = all.find((s) => rows.some((r) => r.label.startsWith(`${s.schedule_id} · Contract call`)))!;
    assert.ok(call, 'a contract call among the first schedules');
    const lines = api.schedules.detailLines(call);
    assert.ok(
      lines.some((l) => /^Scheduled transaction: Contract call 0\.0\.\d+ transfer\(…\)$/.test(l)),
      lines.join('\n'),
    );
    assert.ok(
      lines.some((l) => /^Scheduled transaction \/ Function: transfer\(to=0x[0-9a-fA-F]{40}, value=\d+\)$/.test(l)),
      lines.join('\n'),
    );
    assert.ok(
      lines.includes('Scheduled transaction / Decoded with: artifacts/contracts/sandbox/SandToken.sol/SandToken.json'),
      lines.join('\n'),
    );
    assert.ok(
      lines.some((l) => /^Transaction body: \d+ bytes · [A-Za-z0-9+/=]+$/.test(l)),
      'the base64 stays',
    );
    const transfer = api.schedules.detailLines(all.find((s) => s.schedule_id === '0.0.5104897'));
    assert.ok(
      transfer.some((l) => /^Scheduled transaction \/ Hbar transfers \/ 0\.0\.2061517: -[\d.]+ ℏ$/.test(l)),
      transfer.join('\n'),
    );
    assert.deepStrictEqual(await requests('/v2/contract'), [], 'schedules never ask Sourcify');
  });
});
