// The Deployments view and the CodeLens follow every verification result, in the real extension
// host against the sandbox. A Storage contract deployed (a record written for the test) at an address the sandbox's
// Sourcify holds as an exact match: first read as "not verified" (the look-up answers 404) or "verification
// unknown" (503); then Verify from the palette, or its Retry after the failure, or the view's own Retry, and the row
// and the lens say "verified (exact match)" without a refresh.
import * as assert from 'assert';
import * as fs from 'fs';
import * as path from 'path';
import * as vscode from 'vscode';
import { resetSettings, waitUntil } from './helpers';
import { addFault, clearFaults, useSandbox, type ViewsApi } from './views.helpers';

const STORAGE = '0x1000000000000000000000000000000000000001';
const LOOKUP = `/v2/contract/296/${STORAGE}`;
const RECORD_DIR = 'ignition/deployments/storage-follow';
const SOURCE = 'contracts/Storage.sol';

interface Kept {
  error?: { status?: number };
  contracts: Array<{ status: string }>;
}

describe('Deployments view and CodeLens follow verification results', function () {
  this.timeout(120000);
  let api: ViewsApi;
  const folder = () => vscode.workspace.workspaceFolders![0].uri;
  const abs = (rel: string) => path.join(folder().fsPath, ...rel.split('/'));
  const storageRow = async () => (await api.deployments.rows()).find((r) => r.label === 'Storage');
  /** Storage.sol's lenses once resolved, as VS Code gets them. */
  const lenses = async () => {
    const uri = vscode.Uri.joinPath(folder(), ...SOURCE.split('/'));
    await vscode.workspace.openTextDocument(uri);
    return (
      (await vscode.commands.executeCommand<vscode.CodeLens[]>('vscode.executeCodeLensProvider', uri, 20)) ?? []
    ).map((l) => l.command?.title ?? '(unresolved)');
  };
  /** Waits until the row's description and the lenses' titles say `state` (the lenses: `state` alone or with Verify). */
  async function shows(state: RegExp, verifyLens: boolean): Promise<void> {
    let description = '';
    await waitUntil(
      `the Storage row says ${state} (${description})`,
      async () => state.test((description = (await storageRow())?.description ?? '')),
      20000,
    );
    let titles: string[] = [];
    await waitUntil(
      `Storage.sol's lenses say ${state}${verifyLens ? ' and Verify' : ', no Verify'} (${titles.join(' | ')})`,
      async () => {
        titles = await lenses();
        return (
          titles.some((t) => state.test(t)) &&
          titles.includes('Verify') === verifyLens &&
          !titles.includes('(unresolved)')
        );
      },
      20000,
    );
  }
  const verifyFromPalette = () =>
    vscode.commands.executeCommand<Kept | undefined>('hederaExplorer.verifyContract', {
      address: STORAGE,
      api: 'sourcify-v2',
    });

  before(async () => {
    ({ api } = await useSandbox());
    fs.mkdirSync(abs(RECORD_DIR), { recursive: true });
    fs.writeFileSync(
      path.join(abs(RECORD_DIR), 'deployed_addresses.json'),
      JSON.stringify({ 'StorageModule#Storage': STORAGE }),
    );
    fs.writeFileSync(path.join(abs(RECORD_DIR), 'journal.jsonl'), '{"chainId":296,"type":"DEPLOYMENT_INITIALIZE"}\n');
    fs.writeFileSync(
      abs(SOURCE),
      '// SPDX-License-Identifier: MIT\npragma solidity ^0.8.24;\n\ncontract Storage {\n  uint256 public value;\n}\n',
    );
    api.deployments.setAllNetworks(false);
    await vscode.commands.executeCommand('hederaExplorer.deployments.focus');
    await api.deployments.refresh();
    await waitUntil(
      'the Storage record read',
      async () => (await api.deployments.entries()).some((e) => e.address === STORAGE),
      10000,
    );
  });
  afterEach(() => clearFaults());
  after(async () => {
    fs.rmSync(abs(RECORD_DIR), { recursive: true, force: true });
    fs.rmSync(abs(SOURCE), { force: true });
    await vscode.commands.executeCommand('workbench.action.closeAllEditors');
    await api.deployments.refresh();
    await waitUntil(
      'the Storage record gone',
      async () => !(await api.deployments.entries()).some((e) => e.address === STORAGE),
      10000,
    );
    await resetSettings(['verify.api']);
  });

  it('"not verified | Verify" becomes "verified (exact match)" after Verify from the palette, without a refresh', async () => {
    await addFault({ path: LOOKUP, times: 1000, fault: { status: 404 } });
    await api.deployments.refresh();
    await shows(/not verified$/, true);
    await clearFaults();
    const r = await verifyFromPalette();
    assert.strictEqual(r?.contracts[0]?.status, 'exact_match', JSON.stringify(r));
    await shows(/verified \(exact match\)$/, false);
    const details = await api.deployments.rows(['Storage', 'Deployment']);
    assert.strictEqual(details.find((d) => d.label === 'Verification')?.description, 'verified (exact match)');
  });

  it('"verification unknown" (Sourcify down) is replaced after Verify\'s Retry succeeds', async () => {
    await addFault({ path: LOOKUP, times: 1000, fault: { status: 503 } });
    await api.deployments.refresh();
    await shows(/verification unknown$/, false);
    const failed = await verifyFromPalette();
    assert.strictEqual(failed?.error?.status, 503, JSON.stringify(failed));
    await shows(/verification unknown$/, false);
    await clearFaults();
    // what the failure notification's Retry and the Verification view's error row run
    const r = await vscode.commands.executeCommand<Kept | undefined>('hederaExplorer.verification.rerun');
    assert.strictEqual(r?.contracts[0]?.status, 'exact_match', JSON.stringify(r));
    await shows(/verified \(exact match\)$/, false);
  });

  it('"verification unknown": the view\'s Verification row retries the look-up', async () => {
    await addFault({ path: LOOKUP, times: 1000, fault: { status: 503 } });
    await api.deployments.refresh();
    await shows(/verification unknown$/, false);
    const row = (await api.deployments.rows(['Storage', 'Deployment'])).find((d) => d.label === 'Verification');
    assert.deepStrictEqual(
      [row?.description, row?.command],
      ['verification unknown', `hederaExplorer.deployments.retry 296:${STORAGE}`],
    );
    await clearFaults();
    await vscode.commands.executeCommand('hederaExplorer.deployments.retry', `296:${STORAGE}`);
    await shows(/verified \(exact match\)$/, false);
  });
});
