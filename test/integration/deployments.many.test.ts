// The Deployments view with many records (workspaces can hold thousands of deployment records): 10,000 records
// of a Hardhat Ignition deployment; it lists the first 100 contracts and a Show More row, and asks the servers about
// the contracts it lists, not about the others. Its figures (records, listed, looked up, requests, looked up but not
// listed) go to `npm run bench` (test/bench/records.mjs) through HEDERA_BENCH_FIGURES.
import * as assert from 'assert';
import * as fs from 'fs';
import * as path from 'path';
import * as vscode from 'vscode';
import { resetSettings, waitUntil, SANDBOX_KEYS } from './helpers';
import { clearRequests, requests, useSandbox, type ViewsApi } from './views.helpers';

const COUNT = 10_000;
/** Not long-zero addresses (looked up by address, not as entity ids). */
const addressOf = (i: number) => `0xab${i.toString(16).padStart(38, '0')}`;
/** Future 0 has a custom id (`m.contract("Ship0", [], { id: "Flagship" })`): its name comes from the journal. */
const futureIdOf = (i: number) => (i === 0 ? 'FleetModule#Flagship' : `FleetModule#Ship${i}`);

/** A count for the bench (test/bench/records.mjs reads HEDERA_BENCH_FIGURES), also in the test's output. */
function requestFigure(figure: {
  records: number;
  listed: number;
  lookedUp: number;
  requests: number;
  notListed: number;
}): void {
  console.log(
    `      (deployments: ${figure.records} records, ${figure.listed} listed, ${figure.lookedUp} looked up in ${figure.requests} requests, ${figure.notListed} looked up but not listed)`,
  );
  const file = process.env.HEDERA_BENCH_FIGURES;
  if (file)
    fs.appendFileSync(file, `${JSON.stringify({ name: 'deploymentsLookedUp', value: figure.lookedUp, ...figure })}\n`);
}

describe('Deployments view with many records', function () {
  this.timeout(120000);
  let api: ViewsApi;
  const dir = () =>
    path.join(vscode.workspace.workspaceFolders![0].uri.fsPath, 'ignition', 'deployments', 'many-contracts');

  before(async () => {
    ({ api } = await useSandbox());
    api.deployments.setAllNetworks(false);
    await vscode.commands.executeCommand('hederaExplorer.deployments.focus');
  });
  after(async () => {
    fs.rmSync(dir(), { recursive: true, force: true });
    await waitUntil('the records gone', async () => (await api.deployments.entries()).length === 5, 15000);
    await resetSettings(SANDBOX_KEYS);
  });

  it('lists 100 contracts and Show More; only the listed contracts are looked up', async () => {
    const before = (await api.deployments.entries()).length;
    await clearRequests();
    // a custom deployment id: its chain comes from the journal, as Ignition writes it (each message after a newline),
    // and so do the contracts' names (the messages of the futures' transactions left out here)
    fs.mkdirSync(dir(), { recursive: true });
    const init = (i: number) =>
      JSON.stringify({
        artifactId: futureIdOf(i),
        constructorArgs: [],
        contractName: `Ship${i}`,
        dependencies: [],
        from: '0xf39fd6e51aad88f6f4ce6ab8827279cfffb92266',
        futureId: futureIdOf(i),
        futureType: 'NAMED_ARTIFACT_CONTRACT_DEPLOYMENT',
        libraries: {},
        strategy: 'basic',
        strategyConfig: {},
        type: 'DEPLOYMENT_EXECUTION_STATE_INITIALIZE',
        value: { _kind: 'bigint', value: '0' },
      });
    fs.writeFileSync(
      path.join(dir(), 'journal.jsonl'),
      [
        JSON.stringify({ chainId: 296, type: 'DEPLOYMENT_INITIALIZE' }),
        ...Array.from({ length: COUNT }, (_, i) => init(i)),
      ]
        .map((l) => `\n${l}`)
        .join(''),
    );
    fs.writeFileSync(
      path.join(dir(), 'deployed_addresses.json'),
      JSON.stringify(
        Object.fromEntries(Array.from({ length: COUNT }, (_, i) => [futureIdOf(i), addressOf(i)])),
        null,
        2,
      ),
    );
    await waitUntil('the records read', async () => (await api.deployments.entries()).length === before + COUNT, 30000);
    assert.strictEqual(
      (await api.deployments.entries()).find((e) => e.address === addressOf(0))?.name,
      'Ship0',
      "the journal's name, not the custom future id's",
    );

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
    const lookedUp = Array.from({ length: shown }, (_, i) => i).filter(askedFor).length;
    requestFigure({ records: COUNT, listed: shown, lookedUp, requests: asked.length, notListed: beyond.length });
    assert.deepStrictEqual(beyond, [], 'no contract that is not listed is looked up');

    await vscode.commands.executeCommand('hederaExplorer.deployments.showMore');
    rows = await api.deployments.rows();
    assert.strictEqual(rows.length, 201);
    assert.strictEqual(rows[200].label, `Show 100 more (200 of ${before + COUNT} shown)`);
    await api.deployments.settled();
    assert.ok(
      (await requests('/')).some((u) => u.toLowerCase().includes(addressOf(shown + 50))),
      'the contracts listed now are looked up',
    );
  });
});
