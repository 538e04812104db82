// A scheduled contract call names its contract by entity id (0.0.x) where Contract Results have an EVM address: its
// "Decoded with" goes through the same resolver check, the id looked up to the contract's EVM address on the
// mirror node, and both forms reach one verdict. A record written for the test puts SandToken at the scheduled
// call's contract, whose code (the sandbox's generated one) is no workspace build: "· likely (why)", never "the
// code on chain".
import * as assert from 'assert';
import * as fs from 'fs';
import * as path from 'path';
import * as vscode from 'vscode';
import type { Schedule } from '../../src/api/mirrorTypes';
import { waitUntil } from './helpers';
import { settled, useSandbox, type ViewsApi } from './views.helpers';

const RECORD_DIR = 'ignition/deployments/schedule-build';
const SANDTOKEN = 'artifacts/contracts/sandbox/SandToken.sol/SandToken.json';

describe('Schedules: "Decoded with" of a scheduled call is checked as Contract Results are', function () {
  this.timeout(120000);
  let api: ViewsApi;
  let sandbox: string;
  let recorded = '';
  const folder = () => vscode.workspace.workspaceFolders![0].uri;
  const abs = (rel: string) => path.join(folder().fsPath, ...rel.split('/'));

  before(async () => {
    ({ api, url: sandbox } = await useSandbox());
  });
  after(async () => {
    // the files one by one (a watcher sees a file deleted, not always a folder), then the folder
    for (const f of ['deployed_addresses.json', 'journal.jsonl'])
      fs.rmSync(path.join(abs(RECORD_DIR), f), { force: true });
    api.abis.ensureStarted();
    await waitUntil(
      'the test record gone',
      async () => {
        await api.abis.ready();
        return api.abis.workspace().deployments.every((d) => d.address !== recorded);
      },
      15000,
    );
    fs.rmSync(abs(RECORD_DIR), { recursive: true, force: true });
  });

  it('the entity id of a scheduled call and the EVM address of its contract give one verdict, said in the row', async () => {
    await vscode.commands.executeCommand('hederaExplorer.schedules.focus');
    api.schedules.clearFilters();
    await api.schedules.refresh();
    await settled(api.schedules);
    const decodedWith = (s: Schedule) =>
      api.schedules.detailLines(s).find((l) => l.startsWith('Scheduled transaction / Decoded with: '));
    // the workspace's ABIs may reach the rows after they are drawn: wait until the scan is done and a row uses them
    api.abis.ensureStarted();
    let found: Schedule | undefined;
    let seen = '';
    const waited = waitUntil(
      'a scheduled call decoded with the workspace SandToken artifact',
      async () => {
        await api.abis.ready();
        const all = api.schedules.loaded as Schedule[];
        found = all.find((s) => decodedWith(s)?.startsWith(`Scheduled transaction / Decoded with: ${SANDTOKEN}`));
        if (!found) seen = [...new Set(all.map(decodedWith).filter((l) => l !== undefined))].join('; ');
        return found !== undefined;
      },
      30000,
    );
    await waited.catch((e: Error) => {
      throw new Error(`${e.message} (the rows' "Decoded with": ${seen || 'none'})`);
    });
    assert.ok(found, seen);
    const call: Schedule = found;
    const id = api.abis.decodeSchedule(call)?.contractId;
    assert.match(id ?? '', /^0\.0\.\d+$/);
    const contract = (await (await fetch(`${sandbox}/api/v1/contracts/${id}`)).json()) as { evm_address: string };
    assert.match(contract.evm_address, /^0x[0-9a-f]{40}$/);
    recorded = contract.evm_address;

    // the record holds the EVM address, the schedule the entity id
    fs.mkdirSync(abs(RECORD_DIR), { recursive: true });
    fs.writeFileSync(
      path.join(abs(RECORD_DIR), 'deployed_addresses.json'),
      JSON.stringify({ 'ScheduleModule#SandToken': contract.evm_address }),
    );
    fs.writeFileSync(path.join(abs(RECORD_DIR), 'journal.jsonl'), '{"chainId":296,"type":"DEPLOYMENT_INITIALIZE"}\n');
    api.abis.ensureStarted();
    let line: string | undefined;
    await waitUntil(
      `the scheduled call's "Decoded with" checked (${line})`,
      async () => {
        await api.abis.ready();
        line = decodedWith(call); // opening the details asks the resolver (once)
        return / · likely \(.+\)$/.test(line ?? '');
      },
      30000,
    );
    assert.ok(line?.startsWith(`Scheduled transaction / Decoded with: ${SANDTOKEN} · likely (`), line);
    assert.doesNotMatch(line ?? '', /the code on chain$/);

    // the same answer by the contract's EVM address (Contract Results' form) and its long-zero address
    const byId = api.abis.buildCheck(id);
    assert.ok(byId, 'an answer by entity id');
    assert.strictEqual(byId.contractName, 'SandToken');
    assert.notStrictEqual(byId.kind, 'confirmed');
    assert.deepStrictEqual(api.abis.buildCheck(contract.evm_address), byId);
    const longZero = `0x${'0'.repeat(24)}${BigInt(id!.split('.')[2]).toString(16).padStart(16, '0')}`;
    assert.deepStrictEqual(api.abis.buildCheck(longZero), byId);
  });
});
