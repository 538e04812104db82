// The workspace's whole builds for revert-to-source (src/workspace/solcBuilds.ts): Hardhat 2, Hardhat 3 (input and
// `.output.json`, `project/` source names) and Foundry `out/build-info` read from the real solc output of the test
// workspace; which build a deployed contract came from (a record, the code on chain, the exact match first), a
// mismatch said as one, and a pc placed through the chosen build.
import * as assert from 'assert';
import * as fs from 'fs';
import * as os from 'os';
import * as path from 'path';
import { locatePc } from '../../src/api/source/locate';
import { codeBytes, instructionSize } from '../../src/api/source/sourceMap';
import { WorkspaceBuilds } from '../../src/workspace/solcBuilds';
import { nodeWorkspaceFs } from '../support/nodeFs';

const ROOT = path.join(__dirname, '../../..');
const ARTIFACTS = path.join(ROOT, 'test/workspace/artifacts');
const VAULT = 'contracts/inspector/Vault.sol:Vault';
const VAULT_ADDRESS = '0x5fbdb2315678afecb367f032d93f642f64180aa3';

interface BuildInfo { id: string; input: { sources: Record<string, { content: string }> }; output: { contracts: Record<string, Record<string, { evm: { deployedBytecode: { object: string } } }>> } }

describe('workspace: whole builds for revert to source', () => {
  let tmp = '';
  let info: BuildInfo;
  const folder = (name: string, files: Record<string, unknown>) => {
    const dir = path.join(tmp, name);
    for (const [rel, v] of Object.entries(files)) {
      fs.mkdirSync(path.dirname(path.join(dir, rel)), { recursive: true });
      fs.writeFileSync(path.join(dir, rel), JSON.stringify(v));
    }
    return nodeWorkspaceFs(dir);
  };
  /** The Vault's code as deployed (library linked, immutables set: src/sandbox/compiled/inspector.json, the compile script's copy). */
  const runtime = () => {
    const compiled = JSON.parse(fs.readFileSync(path.join(ROOT, 'src/sandbox/compiled/inspector.json'), 'utf8')) as { contracts: Array<{ name: string; deployedBytecode: string }> };
    return compiled.contracts.find((c) => c.name === 'Vault')!.deployedBytecode;
  };
  const firstRevertPc = (code: string) => {
    const b = codeBytes(code);
    for (let pc = 0; pc < b.length; pc += instructionSize(b[pc])) if (b[pc] === 0xfd) return pc;
    throw new Error('no REVERT');
  };

  before(() => {
    tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'solc-builds-'));
    const dbg = JSON.parse(fs.readFileSync(path.join(ARTIFACTS, 'contracts/inspector/Vault.sol/Vault.dbg.json'), 'utf8')) as { buildInfo: string };
    info = JSON.parse(fs.readFileSync(path.join(ARTIFACTS, 'contracts/inspector/Vault.sol', dbg.buildInfo), 'utf8')) as BuildInfo;
  });
  after(() => fs.rmSync(tmp, { recursive: true, force: true }));

  it('Hardhat 2: the contract a deployment record names, matched against the code on chain, placed at the same line', async () => {
    const builds = await WorkspaceBuilds.read([folder('hh2', { [`artifacts/build-info/${info.id}.json`]: info })]);
    const found = builds.find(VAULT_ADDRESS, { chainId: 296, deployments: [{ address: VAULT_ADDRESS, contractName: 'Vault', chainId: 296 }], runtimeBytecode: runtime() });
    assert.ok(found && !found.mismatch, JSON.stringify(found && 'mismatch' in found));
    assert.strictEqual(found.by, 'record');
    assert.strictEqual(found.contract.identifier, VAULT);
    assert.strictEqual(found.match?.match, true);
    const pc = firstRevertPc(runtime());
    assert.deepStrictEqual(locatePc(found.contract.build.build, VAULT, pc), locatePc(info as never, VAULT, pc));
  });

  it('Hardhat 3: the input in <id>.json, the output in <id>.output.json, `project/` source names', async () => {
    const p = (o: unknown) => JSON.parse(JSON.stringify(o).replaceAll('"contracts/inspector/', '"project/contracts/inspector/')) as Record<string, unknown>;
    const id = 'solc-0_8_28-abc';
    const builds = await WorkspaceBuilds.read([folder('hh3', {
      [`artifacts/build-info/${id}.json`]: { _format: 'hh3-sol-build-info-1', id, solcVersion: '0.8.28', solcLongVersion: '0.8.28+commit.7893614a', input: p(info.input) },
      [`artifacts/build-info/${id}.output.json`]: { _format: 'hh3-sol-build-info-output-1', id, output: p(info.output) },
    })]);
    assert.deepStrictEqual(builds.problems, []);
    // a record without the prefix finds the prefixed source; the code on chain confirms it
    const found = builds.find(VAULT_ADDRESS, { deployments: [{ address: VAULT_ADDRESS, contractName: 'Vault', sourceName: 'contracts/inspector/Vault.sol' }], runtimeBytecode: runtime() });
    assert.ok(found && !found.mismatch);
    assert.strictEqual(found.contract.identifier, `project/${VAULT}`);
    const pc = firstRevertPc(runtime());
    const loc = locatePc(found.contract.build.build, found.contract.identifier, pc);
    assert.strictEqual(loc?.sourceName, 'project/contracts/inspector/Vault.sol');
    assert.strictEqual(loc?.line, locatePc(info as never, VAULT, pc)?.line);
  });

  it('Foundry: out/build-info holds input and output; without a record the code on chain alone finds the contract', async () => {
    const builds = await WorkspaceBuilds.read([folder('foundry', { [`out/build-info/${info.id}.json`]: { id: info.id, input: info.input, output: info.output } })]);
    const found = builds.find('0x00000000000000000000000000000000000f0000', { runtimeBytecode: runtime() });
    assert.ok(found && !found.mismatch);
    assert.strictEqual(found.by, 'bytecode');
    assert.strictEqual(found.contract.identifier, VAULT);
  });

  it('a record naming a contract whose code on chain differs: a mismatch, never a line', async () => {
    const builds = await WorkspaceBuilds.read([folder('changed', { [`artifacts/build-info/${info.id}.json`]: info })]);
    const code = runtime();
    // one instruction changed early in the code (not in the metadata, not an immutable)
    const hex = code.replace(/^0x/, '');
    const changed = `0x${hex.slice(0, 10)}${hex.slice(10, 12) === '00' ? '01' : '00'}${hex.slice(12)}`;
    const found = builds.find(VAULT_ADDRESS, { deployments: [{ address: VAULT_ADDRESS, contractName: 'Vault' }], runtimeBytecode: changed });
    assert.ok(found && 'mismatch' in found && found.mismatch, JSON.stringify(found));
    assert.strictEqual(found.mismatch.match?.match, false);
    // nothing named it and nothing matches: nothing
    assert.strictEqual(builds.find('0x00000000000000000000000000000000000f0001', { runtimeBytecode: changed }), undefined);
  });

  it('unreadable and output-less build files are problems, not throws', async () => {
    const builds = await WorkspaceBuilds.read([folder('broken', { 'artifacts/build-info/a.json': { input: {} }, 'out/build-info/b.json': 'not json' })]);
    assert.strictEqual(builds.contracts.length, 0);
    assert.strictEqual(builds.problems.length, 2, builds.problems.join('; '));
    assert.deepStrictEqual(builds.inputOnly, [], 'a build with no sources in its input is not a build to compile');
  });

  it('a build of which only the input is there (Hardhat Ignition\'s copy of a Hardhat 3 build-profile build) is listed as such', async () => {
    const input = { language: 'Solidity', sources: { 'project/contracts/Counter.sol': { content: 'contract Counter {}' } }, settings: {} };
    const builds = await WorkspaceBuilds.read([folder('hh3-input-only', { 'ignition/deployments/chain-296/build-info/solc-0_8_28-abc.json': { _format: 'hh3-sol-build-info-1', id: 'solc-0_8_28-abc', solcVersion: '0.8.28', solcLongVersion: '0.8.28+commit.7893614a', input } })]);
    assert.strictEqual(builds.contracts.length, 0);
    assert.deepStrictEqual(builds.inputOnly, [{ file: 'ignition/deployments/chain-296/build-info/solc-0_8_28-abc.json', id: 'solc-0_8_28-abc', sources: ['project/contracts/Counter.sol'] }]);
  });
});
