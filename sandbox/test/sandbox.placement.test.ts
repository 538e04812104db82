// The placement ledger (`placement`, CLI --placement): the placement matrix's contracts deployed per compiler setting,
// every case a transaction recorded as the mirror node records it, and the Hardhat 2 project of those deployments.
import * as assert from 'assert';
import * as fs from 'fs';
import * as os from 'os';
import * as path from 'path';
import { type Sandbox, startSandbox } from '../src/server';
import { type Obj, getJson } from './helpers';

interface LedgerCase {
  timestamp: string;
  transactionId: string;
  hash: string;
  contractId: string | null;
  result: string;
  creation: boolean;
  expected: string[];
}
interface LedgerSetting {
  setting: string;
  deploymentId: string;
  contracts: Record<string, { id: string; address: string }>;
  cases: Record<string, LedgerCase>;
}

describe('sandbox: the placement ledger', function () {
  this.timeout(300000);
  let sb: Sandbox;
  let dir: string;
  let ledger: Record<string, LedgerSetting>;
  const gzip = { 'accept-encoding': 'gzip' };

  before(async () => {
    dir = fs.mkdtempSync(path.join(os.tmpdir(), 'sandbox-placement-'));
    sb = await startSandbox({ port: 0, placement: { workspace: dir } });
    const health = await getJson(sb.url, '/__sandbox/health');
    ledger = (health.json.notable as Obj).placement as Record<string, LedgerSetting>;
  });

  after(async () => {
    await sb?.close();
    fs.rmSync(dir, { recursive: true, force: true });
  });

  it('holds every setting, each deployed at addresses of its own, every case marked and failed but none', () => {
    assert.deepStrictEqual(Object.keys(ledger), ['default', 'optimizer', 'viaIR', 'viaIR-optimizer']);
    const targets = Object.values(ledger).map((l) => l.contracts.Target.address);
    assert.strictEqual(new Set(targets).size, 4, JSON.stringify(targets));
    for (const l of Object.values(ledger)) {
      assert.ok(Object.keys(l.cases).length >= 60, l.setting);
      for (const [name, c] of Object.entries(l.cases)) {
        assert.ok(c.expected.length, `${name} is marked`);
        assert.notStrictEqual(c.result, 'SUCCESS', `${l.setting} ${name}`);
      }
    }
  });

  it('records a failed call as the mirror node does: the result, its actions and its traced revert', async () => {
    const c = ledger.viaIR.cases.requireMsg;
    const r = await getJson(sb.url, `/api/v1/contracts/results/${c.transactionId}`);
    assert.strictEqual(r.status, 200);
    assert.strictEqual(r.json.contract_id, ledger.viaIR.contracts.Target.id);
    assert.strictEqual(r.json.address, ledger.viaIR.contracts.Target.address);
    assert.strictEqual(r.json.result, 'CONTRACT_REVERT_EXECUTED');
    const reason = r.json.error_message as string;
    assert.match(reason, /^0x08c379a0/);
    const a = await getJson(sb.url, `/api/v1/contracts/results/${c.transactionId}/actions`);
    const actions = a.json.actions as Obj[];
    assert.deepStrictEqual(
      actions.map((x) => [x.call_operation_type, x.recipient, x.result_data_type]),
      [['CALL', ledger.viaIR.contracts.Target.id, 'REVERT_REASON']],
    );
    const o = await getJson(sb.url, `/api/v1/contracts/results/${c.hash}/opcodes?stack=false`, gzip);
    assert.strictEqual(o.status, 200, o.text.slice(0, 200));
    const ops = o.json.opcodes as Obj[];
    const last = ops[ops.length - 1];
    assert.deepStrictEqual([last.op, last.depth, last.reason], ['REVERT', 0, reason]);
    assert.deepStrictEqual(last.stack, [], 'the stack not asked');
    // its contract, with the code deployed there
    const k = await getJson(sb.url, `/api/v1/contracts/${ledger.viaIR.contracts.Target.address}`);
    assert.strictEqual(k.json.contract_id, ledger.viaIR.contracts.Target.id);
    const runtime = k.json.runtime_bytecode as string;
    const other = await getJson(sb.url, `/api/v1/contracts/${ledger.default.contracts.Target.id}`);
    assert.ok(runtime.length > 1000 && runtime !== other.json.runtime_bytecode, 'each setting its own code');
  });

  it('records a failed constructor as a failed deployment: no contract, the init code kept', async () => {
    const c = ledger.default.cases.ctorRequire;
    assert.strictEqual(c.creation, true);
    const r = await getJson(sb.url, `/api/v1/contracts/results/${c.hash}`);
    assert.deepStrictEqual([r.json.contract_id, r.json.address, r.json.to], [null, null, null]);
    assert.match(r.json.failed_initcode as string, /^0x6080/);
    assert.deepStrictEqual(r.json.state_changes, []);
    const a = await getJson(sb.url, `/api/v1/contracts/results/${c.hash}/actions`);
    assert.deepStrictEqual(
      (a.json.actions as Obj[]).map((x) => [x.call_operation_type, x.recipient]),
      [['CREATE', null]],
    );
    const o = await getJson(sb.url, `/api/v1/contracts/results/${c.hash}/opcodes`, gzip);
    assert.deepStrictEqual([o.json.address, o.json.contract_id, o.json.failed], [`0x${'0'.repeat(40)}`, null, true]);
  });

  it('writes the Hardhat 2 project: one Ignition deployment per setting with its own build', () => {
    for (const l of Object.values(ledger)) {
      const dep = path.join(dir, 'ignition/deployments', l.deploymentId);
      const addresses = JSON.parse(fs.readFileSync(path.join(dep, 'deployed_addresses.json'), 'utf8')) as Record<
        string,
        string
      >;
      assert.strictEqual(addresses['PlacementModule#Target'].toLowerCase(), l.contracts.Target.address);
      const builds = fs.readdirSync(path.join(dep, 'build-info'));
      assert.strictEqual(builds.length, 1);
      const info = JSON.parse(fs.readFileSync(path.join(dep, 'build-info', builds[0]), 'utf8')) as {
        input: { settings: { viaIR?: boolean; optimizer: { enabled: boolean } } };
      };
      assert.deepStrictEqual(
        [!!info.input.settings.viaIR, info.input.settings.optimizer.enabled],
        [l.setting.startsWith('viaIR'), l.setting.includes('optimizer')],
        l.setting,
      );
    }
    assert.ok(fs.existsSync(path.join(dir, 'contracts/Target.sol')));
    assert.ok(fs.readdirSync(path.join(dir, 'artifacts/build-info')).length === 1);
  });

  it('is off by default', async () => {
    const plain = await startSandbox({ port: 0 });
    try {
      const health = await getJson(plain.url, '/__sandbox/health');
      assert.strictEqual((health.json.notable as Obj).placement, undefined);
      assert.strictEqual(
        (await getJson(plain.url, `/api/v1/contracts/${ledger.default.contracts.Target.id}`)).status,
        404,
      );
    } finally {
      await plain.close();
    }
  });
});
