// The one resolver of the build deployed, as the features show it, in the real extension host against the sandbox:
// the workspace's builds read once for the Deployments view's Build row, "Decoded with" and revert to source; the
// "Decoded with" row of a Vault call says its artifact is the code on chain once the resolver confirmed it; the
// CodeLens of a contract whose record puts it at an address holding other code (a record written for the test: the
// sandbox's generated contracts run a code no workspace build has) says it is not the build deployed.
import * as assert from 'assert';
import * as fs from 'fs';
import * as path from 'path';
import * as vscode from 'vscode';
import { waitUntil } from './helpers';
import type { ContractResult } from '../../src/api/mirrorTypes';
import { settled, useSandbox, type ViewsApi } from './views.helpers';

interface Scenario {
  transactionId: string;
}
interface MirrorContract {
  contract_id: string;
  evm_address: string;
}

const VAULT_ARTIFACT = 'artifacts/contracts/inspector/Vault.sol/Vault.json';
/** Vault's address in the workspace's Ignition record (test/workspace/ignition/deployments/chain-296). */
const VAULT_ADDRESS = '0x5fbdb2315678afecb367f032d93f642f64180aa3';
const RECORD_DIR = 'ignition/deployments/build-differs';

describe('Deployments, decoding and revert to source share the resolver of the build deployed', function () {
  this.timeout(120000);
  let api: ViewsApi;
  let sandbox: string;
  let scenarios: Record<string, Scenario>;
  const folder = () => vscode.workspace.workspaceFolders![0].uri;
  const abs = (rel: string) => path.join(folder().fsPath, ...rel.split('/'));

  before(async () => {
    ({ api, url: sandbox } = await useSandbox());
    const health = (await (await fetch(`${sandbox}/__sandbox/health`)).json()) as {
      notable: { inspector: Record<string, Scenario> };
    };
    scenarios = health.notable.inspector;
    api.deployments.setAllNetworks(false);
    await vscode.commands.executeCommand('hederaExplorer.deployments.focus');
    await api.deployments.refresh();
    await api.deployments.settled();
  });
  after(async () => {
    fs.rmSync(abs(RECORD_DIR), { recursive: true, force: true });
    await vscode.commands.executeCommand('workbench.action.closeAllEditors');
    await api.deployments.refresh();
    await waitUntil(
      'the test record gone',
      async () => (await api.deployments.entries()).every((e) => e.where.indexOf('build-differs') < 0),
      10000,
    );
  });

  it('reads the builds once for the Build row, "Decoded with" (the code on chain) and Go to Revert', async () => {
    api.abis.ensureStarted();
    await api.abis.ready(); // no file change queued: nothing will forget the builds meanwhile
    api.inspector.forgetBuilds();
    const before = api.abis.buildReads;

    const details = await api.deployments.rows(['Vault', 'Deployment']);
    const build = details.find((d) => d.label === 'Build');
    assert.ok(build, details.map((d) => d.label).join(' | '));
    let description = build.description ?? '';
    await waitUntil(
      `the Build row resolved (${description})`,
      async () =>
        / · the code on chain$/.test(
          (description =
            (await api.deployments.rows(['Vault', 'Deployment'])).find((d) => d.label === 'Build')?.description ?? ''),
        ),
      20000,
    );

    // a Vault call's details: "Decoded with" names the artifact, then says the resolver confirmed the build
    const results = (await api.deployments.rows(['Vault'])).slice(1);
    const call = results.find((r) => / · \w+\(/.test(r.label));
    assert.ok(call, `a decoded Vault call among ${results.map((r) => r.label).join(' | ')}`);
    let row: { description?: string; tooltip?: string; icon?: string } | undefined;
    await waitUntil(
      `"Decoded with" of ${call.label} confirmed (${row?.description})`,
      async () => {
        row = (await api.deployments.rows(['Vault', call.label, 'Transaction'])).find(
          (r) => r.label === 'Decoded with',
        );
        return / · the code on chain$/.test(row?.description ?? '');
      },
      20000,
    );
    assert.strictEqual(row?.description, `${VAULT_ARTIFACT} · the code on chain`);
    assert.strictEqual(row?.icon, 'pass');
    assert.match(row?.tooltip ?? '', /its runtime code is the code on chain/, row?.tooltip);

    const editor = await api.inspector.goToRevert({
      transactionId: scenarios.inspectorDeepRevert.transactionId,
      network: 'custom',
    });
    assert.match(editor?.document.uri.path ?? '', /\/contracts\/inspector\/Ledger\.sol$/);
    assert.strictEqual(api.abis.buildReads - before, 1, "one read of the workspace's builds for the three");
  });

  it("a result's details come whole when opened, and the answers they waited for redraw no row", async () => {
    // a redraw of a row while its groups are being opened closes them again (VS Code drops the children it fetches)
    api.contractResults.setFilters({ contract: VAULT_ADDRESS });
    try {
      await vscode.commands.executeCommand('hederaExplorer.contractResults.focus');
      await settled(api.contractResults);
      const call = (api.contractResults.loaded as ContractResult[]).find(
        (r) =>
          r.function_parameters && r.function_parameters.length >= 10 && !r.function_parameters.startsWith('0x6080'),
      );
      assert.ok(call, 'a call of Vault among its results');
      api.contractResults.snapshot(); // the rows drawn, as VS Code draws them
      api.inspector.forgetBuilds(); // the build check is asked again when a call's details are opened
      await api.abis.ready();
      api.contractResults.takeRedraws(); // counts from here
      const lines = await api.contractResults.openedDetails(call);
      assert.ok(
        lines.includes(`Transaction / Decoded with: ${VAULT_ARTIFACT} · the code on chain`),
        `the first details say the build was checked:\n${lines.join('\n')}`,
      );
      await api.abis.ready();
      assert.deepStrictEqual(api.contractResults.takeRedraws(), [], 'no row redrawn by answers already shown');
    } finally {
      api.contractResults.clearFilters();
    }
  });

  it('the CodeLens says "not the build deployed" when the record\'s address holds other code', async () => {
    // a contract of the sandbox that is none of the records': its code is the generated one, no build of the workspace
    const results = (await (await fetch(`${sandbox}/api/v1/contracts/results?limit=25`)).json()) as {
      results: Array<{ contract_id: string }>;
    };
    const id = results.results.map((r) => r.contract_id).find((c) => !/^0\.0\.700\d$/.test(c));
    assert.ok(id, results.results.map((r) => r.contract_id).join(', '));
    const other = (await (await fetch(`${sandbox}/api/v1/contracts/${id}`)).json()) as MirrorContract;
    assert.match(other.evm_address, /^0x[0-9a-f]{40}$/);
    fs.mkdirSync(abs(RECORD_DIR), { recursive: true });
    fs.writeFileSync(
      path.join(abs(RECORD_DIR), 'deployed_addresses.json'),
      JSON.stringify({ 'DiffersModule#Accounting': other.evm_address }),
    );
    fs.writeFileSync(path.join(abs(RECORD_DIR), 'journal.jsonl'), '{"chainId":296,"type":"DEPLOYMENT_INITIALIZE"}\n');
    await api.deployments.refresh();
    await waitUntil(
      'the test record read',
      async () => (await api.deployments.entries()).some((e) => e.address === other.evm_address),
      10000,
    );

    const uri = vscode.Uri.joinPath(folder(), 'contracts', 'inspector', 'Accounting.sol');
    await vscode.workspace.openTextDocument(uri);
    let lenses: vscode.CodeLens[] = [];
    const titles = () => lenses.map((l) => l.command?.title ?? '(unresolved)');
    await waitUntil(
      `Accounting.sol's lenses, one per record, resolved (${titles().join(' | ')})`,
      async () => {
        lenses =
          (await vscode.commands.executeCommand<vscode.CodeLens[]>('vscode.executeCodeLensProvider', uri, 20)) ?? [];
        const main = titles().filter((t) => /^0\.0\.\d+ · /.test(t));
        return (
          main.length === 2 &&
          main.some((t) => t.startsWith(`${other.contract_id} · `) && t.endsWith(' · not the build deployed'))
        );
      },
      20000,
    );
    const differs = lenses.find((l) => l.command?.title.startsWith(`${other.contract_id} · `));
    assert.match(
      differs?.command?.tooltip ?? '',
      /^The workspace's build of Accounting is not the code deployed at 0x[0-9a-f]{40}: .*its code is not the code on chain: the code deployed (is \d+ bytes and this build \d+ bytes|was compiled with solc)/,
      differs?.command?.tooltip,
    );
    // the record of the address that holds Accounting's build: confirmed, nothing added
    const own = lenses.find((l) => l.command?.title.startsWith('0.0.7003 · '));
    assert.ok(own && !/not the build deployed/.test(own.command?.title ?? ''), titles().join(' | '));
  });
});
