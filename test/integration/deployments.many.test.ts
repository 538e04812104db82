// The Deployments view with many records (issue 22: workspaces with thousands of deployment records): it lists the
// first 100 contracts and a Show More row, and asks the servers about the contracts it lists, not about the others.
import * as assert from 'assert';
import * as fs from 'fs';
import * as path from 'path';
import * as vscode from 'vscode';
import { resetSettings, waitUntil } from './helpers';
import { clearRequests, requests, useSandbox, type ViewsApi } from './views.helpers';

const COUNT = 250;
/** Not long-zero addresses (looked up by address, not as entity ids). */
const addressOf = (i: number) => `0xab${i.toString(16).padStart(38, '0')}`;

describe('Deployments view with many records', function () {
  this.timeout(120000);
  let api: ViewsApi;
  const dir = () => path.join(vscode.workspace.workspaceFolders![0].uri.fsPath, 'ignition', 'deployments', 'many-contracts');

  before(async () => {
    ({ api } = await useSandbox());
    api.deployments.setAllNetworks(false);
    await vscode.commands.executeCommand('hederaExplorer.deployments.focus');
  });
  after(async () => {
    fs.rmSync(dir(), { recursive: true, force: true });
    await waitUntil('the records gone', async () => (await api.deployments.entries()).length === 5, 15000);
    await resetSettings(['network', 'sandbox.url']);
  });

  it('lists 100 contracts and Show More; only the listed contracts are looked up', async () => {
    const before = (await api.deployments.entries()).length;
    await clearRequests();
    // a custom deployment id: its chain comes from the journal's first line, as Ignition writes it
    fs.mkdirSync(dir(), { recursive: true });
    fs.writeFileSync(path.join(dir(), 'journal.jsonl'), `${JSON.stringify({ chainId: 296, type: 'DEPLOYMENT_INITIALIZE' })}\n`);
    fs.writeFileSync(path.join(dir(), 'deployed_addresses.json'), JSON.stringify(Object.fromEntries(Array.from({ length: COUNT }, (_, i) => [`FleetModule#Ship${i}`, addressOf(i)]))));
    await waitUntil('the records read', async () => (await api.deployments.entries()).length === before + COUNT, 30000);

    let rows = await api.deployments.rows();
    assert.strictEqual(rows.length, 101, `100 contracts and Show More: ${rows.length} rows`);
    const more = rows[100];
    assert.strictEqual(more.label, `Show 100 more (100 of ${before + COUNT} shown)`);
    assert.strictEqual(more.command?.split(' ')[0], 'hederaExplorer.deployments.showMore');
    await api.deployments.settled();
    const asked = (await requests('/')).filter((u) => /0xab0{2,}/i.test(u));
    const shown = 100 - before;
    const askedFor = (i: number) => asked.some((u) => u.toLowerCase().includes(addressOf(i)));
    assert.ok(askedFor(0) && askedFor(shown - 1), 'the listed contracts are looked up');
    const beyond = Array.from({ length: COUNT - shown }, (_, k) => shown + k).filter(askedFor);
    assert.deepStrictEqual(beyond, [], 'no contract that is not listed is looked up');

    await vscode.commands.executeCommand('hederaExplorer.deployments.showMore');
    rows = await api.deployments.rows();
    assert.strictEqual(rows.length, 201);
    assert.strictEqual(rows[200].label, `Show 55 more (200 of ${before + COUNT} shown)`);
    await api.deployments.settled();
    assert.ok(((await requests('/')).some((u) => u.toLowerCase().includes(addressOf(shown + 50)))), 'the contracts listed now are looked up');
  });
});
