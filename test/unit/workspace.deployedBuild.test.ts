// The one resolver of the build deployed (src/workspace/deployedBuild.ts): Hardhat 2, Hardhat 3 (input and
// `.output.json`, `project/` source names) and Foundry `out/build-info` read from the real solc output of the test
// workspace; which build a deployed contract came from (Ignition's record, the artifact, the code on chain, the same
// metadata first), a mismatch said as one, a build of which only the input is there, and a pc placed through the
// chosen build.
import * as assert from 'assert';
import * as fs from 'fs';
import * as os from 'os';
import * as path from 'path';
import { locatePc } from '../../src/api/source/locate';
import { codeBytes, instructionSize } from '../../src/api/source/sourceMap';
import { addressBuildCheck, DeployedBuilds, decodedWith, explainBuild } from '../../src/workspace/deployedBuild';
import { nodeWorkspaceFs } from '../support/nodeFs';

const ROOT = path.join(__dirname, '../../..');
const ARTIFACTS = path.join(ROOT, 'test/workspace/artifacts');
const VAULT = 'contracts/inspector/Vault.sol:Vault';
const VAULT_ADDRESS = '0x5fbdb2315678afecb367f032d93f642f64180aa3';

interface BuildInfo {
  id: string;
  input: { sources: Record<string, { content: string }> };
  output: { contracts: Record<string, Record<string, { evm: { deployedBytecode: { object: string } } }>> };
}

describe('workspace: the build deployed (one resolver)', () => {
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
  /** The Vault's code as deployed (library linked, immutables set: sandbox/src/compiled/inspector.json, the compile script's copy). */
  const runtime = () => {
    const compiled = JSON.parse(fs.readFileSync(path.join(ROOT, 'sandbox/src/compiled/inspector.json'), 'utf8')) as {
      contracts: Array<{ name: string; deployedBytecode: string }>;
    };
    return compiled.contracts.find((c) => c.name === 'Vault')!.deployedBytecode;
  };
  const firstRevertPc = (code: string) => {
    const b = codeBytes(code);
    for (let pc = 0; pc < b.length; pc += instructionSize(b[pc])) if (b[pc] === 0xfd) return pc;
    throw new Error('no REVERT');
  };

  before(() => {
    tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'solc-builds-'));
    const dbg = JSON.parse(
      fs.readFileSync(path.join(ARTIFACTS, 'contracts/inspector/Vault.sol/Vault.dbg.json'), 'utf8'),
    ) as { buildInfo: string };
    info = JSON.parse(
      fs.readFileSync(path.join(ARTIFACTS, 'contracts/inspector/Vault.sol', dbg.buildInfo), 'utf8'),
    ) as BuildInfo;
  });
  after(() => fs.rmSync(tmp, { recursive: true, force: true }));

  it('Hardhat 2: the contract a deployment record names, matched against the code on chain, placed at the same line', async () => {
    const builds = await DeployedBuilds.read([folder('hh2', { [`artifacts/build-info/${info.id}.json`]: info })]);
    const found = await builds.resolve([VAULT_ADDRESS], {
      chainId: 296,
      deployments: [{ address: VAULT_ADDRESS, contractName: 'Vault', chainId: 296 }],
      runtimeBytecode: runtime(),
    });
    assert.ok(found?.built && found.code?.match, JSON.stringify(found?.code));
    assert.strictEqual(found.by, 'only');
    assert.strictEqual(found.built.identifier, VAULT);
    const pc = firstRevertPc(runtime());
    assert.deepStrictEqual(locatePc(found.built.build.build, VAULT, pc), locatePc(info as never, VAULT, pc));
    assert.match(
      explainBuild(found),
      /^the workspace's only build of Vault \(artifacts\/build-info\/[0-9a-f]+\.json\): its runtime code is the code on chain/,
    );
  });

  it('Hardhat 3: the input in <id>.json, the output in <id>.output.json, `project/` source names', async () => {
    const p = (o: unknown) =>
      JSON.parse(JSON.stringify(o).replaceAll('"contracts/inspector/', '"project/contracts/inspector/')) as Record<
        string,
        unknown
      >;
    const id = 'solc-0_8_28-abc';
    const builds = await DeployedBuilds.read([
      folder('hh3', {
        [`artifacts/build-info/${id}.json`]: {
          _format: 'hh3-sol-build-info-1',
          id,
          solcVersion: '0.8.28',
          solcLongVersion: '0.8.28+commit.7893614a',
          input: p(info.input),
        },
        [`artifacts/build-info/${id}.output.json`]: {
          _format: 'hh3-sol-build-info-output-1',
          id,
          output: p(info.output),
        },
      }),
    ]);
    assert.deepStrictEqual(builds.problems, []);
    // a record without the prefix finds the prefixed source; the code on chain confirms it
    const found = await builds.resolve([VAULT_ADDRESS], {
      deployments: [{ address: VAULT_ADDRESS, contractName: 'Vault', sourceName: 'contracts/inspector/Vault.sol' }],
      runtimeBytecode: runtime(),
    });
    assert.ok(found?.built && found.code?.match);
    assert.strictEqual(found.built.identifier, `project/${VAULT}`);
    const pc = firstRevertPc(runtime());
    const loc = locatePc(found.built.build.build, found.built.identifier, pc);
    assert.strictEqual(loc?.sourceName, 'project/contracts/inspector/Vault.sol');
    assert.strictEqual(loc?.line, locatePc(info as never, VAULT, pc)?.line);
  });

  it('Foundry: out/build-info holds input and output; without a record the code on chain alone finds the contract', async () => {
    const builds = await DeployedBuilds.read([
      folder('foundry', {
        [`out/build-info/${info.id}.json`]: { id: info.id, input: info.input, output: info.output },
      }),
    ]);
    const found = await builds.resolve(['0x00000000000000000000000000000000000f0000'], { runtimeBytecode: runtime() });
    assert.ok(found?.built && found.code?.match);
    assert.strictEqual(found.by, 'bytecode');
    assert.strictEqual(found.built.identifier, VAULT);
  });

  it('a record naming a contract whose code on chain differs: a mismatch, never a line', async () => {
    const builds = await DeployedBuilds.read([folder('changed', { [`artifacts/build-info/${info.id}.json`]: info })]);
    const code = runtime();
    // one instruction changed early in the code (not in the metadata, not an immutable)
    const hex = code.replace(/^0x/, '');
    const changed = `0x${hex.slice(0, 10)}${hex.slice(10, 12) === '00' ? '01' : '00'}${hex.slice(12)}`;
    const found = await builds.resolve([VAULT_ADDRESS], {
      deployments: [{ address: VAULT_ADDRESS, contractName: 'Vault' }],
      runtimeBytecode: changed,
    });
    assert.strictEqual(found?.code?.match, false, JSON.stringify(found?.code));
    assert.match(explainBuild(found), /its code is not the code on chain/);
    // the same metadata (sources and settings): what differs was written at deployment, not a changed source
    assert.strictEqual(found?.differs?.kind, 'deployTime');
    assert.match(explainBuild(found), /has the metadata of this build but differs from byte 5: values written/);
    assert.doesNotMatch(explainBuild(found), /source/);
    // nothing named it and nothing matches: nothing
    assert.strictEqual(
      await builds.resolve(['0x00000000000000000000000000000000000f0001'], { runtimeBytecode: changed }),
      undefined,
    );
  });

  it("a record naming a contract whose builds are not the code on chain, another build's being it: that build, named", async () => {
    const builds = await DeployedBuilds.read([folder('renamed', { [`artifacts/build-info/${info.id}.json`]: info })]);
    const found = await builds.resolve([VAULT_ADDRESS], {
      deployments: [{ address: VAULT_ADDRESS, contractName: 'Ledger' }],
      runtimeBytecode: runtime(),
    });
    assert.strictEqual(found?.built?.identifier, VAULT);
    assert.strictEqual(found.code?.match, true);
    assert.strictEqual(found.recorded, 'Ledger');
    assert.match(
      explainBuild(found),
      /^No build of Ledger, which the deployment records put there, is the code on chain; contracts\/inspector\/Vault\.sol:Vault of artifacts\/build-info\/[0-9a-f]+\.json, another build of the workspace, is: /,
    );
    // "Decoded with": Vault is deployed there, so a call decoded with Ledger's ABI is likely only
    const check = addressBuildCheck(found, 'Ledger', VAULT_ADDRESS);
    assert.strictEqual(check.contractName, 'Vault');
    assert.deepStrictEqual(decodedWith(check, { contractName: 'Ledger' })?.note, 'likely (Vault is deployed there)');
  });

  it('unreadable and output-less build files are problems, not throws', async () => {
    const builds = await DeployedBuilds.read([
      folder('broken', { 'artifacts/build-info/a.json': { input: {} }, 'out/build-info/b.json': 'not json' }),
    ]);
    assert.strictEqual(builds.builds.length, 0);
    assert.strictEqual(builds.problems.length, 2, builds.problems.join('; '));
    assert.deepStrictEqual(builds.inputOnly, [], 'a build with no sources in its input is not a build to compile');
  });

  it("a build of which only the input is there (Hardhat Ignition's copy of a Hardhat 3 build-profile build) is listed as such", async () => {
    const input = {
      language: 'Solidity',
      sources: { 'project/contracts/Counter.sol': { content: 'contract Counter {}' } },
      settings: {},
    };
    const builds = await DeployedBuilds.read([
      folder('hh3-input-only', {
        'ignition/deployments/chain-296/build-info/solc-0_8_28-abc.json': {
          _format: 'hh3-sol-build-info-1',
          id: 'solc-0_8_28-abc',
          solcVersion: '0.8.28',
          solcLongVersion: '0.8.28+commit.7893614a',
          input,
        },
      }),
    ]);
    assert.deepStrictEqual(
      builds.inputOnly.map((b) => [b.file, b.id, Object.keys(b.input.sources as object)]),
      [
        [
          'ignition/deployments/chain-296/build-info/solc-0_8_28-abc.json',
          'solc-0_8_28-abc',
          ['project/contracts/Counter.sol'],
        ],
      ],
    );
  });

  it('of two builds whose code is the code on chain, the one with the same metadata, whatever the listing order', async () => {
    const vault = info.output.contracts['contracts/inspector/Vault.sol'].Vault.evm.deployedBytecode.object;
    // the same code with another metadata hash (another source text that compiles alike): listed first
    const hex = vault.replace(/^0x/, '');
    const otherMeta = hex.replace(
      /a264697066735822([0-9a-f]{68})/,
      (_m, h: string) => `a264697066735822${h.slice(0, 4)}${'ab'.repeat(32)}`,
    );
    assert.notStrictEqual(otherMeta, hex, 'the build has an IPFS metadata hash to change');
    const withOther = JSON.parse(JSON.stringify(info)) as BuildInfo;
    withOther.output.contracts['contracts/inspector/Vault.sol'].Vault.evm.deployedBytecode.object = otherMeta;
    const builds = await DeployedBuilds.read([
      folder('two-metadata', {
        'artifacts/build-info/a.json': { ...withOther, id: 'a' },
        'artifacts/build-info/b.json': { ...info, id: 'b' },
      }),
    ]);
    const found = await builds.resolve([VAULT_ADDRESS], {
      deployments: [{ address: VAULT_ADDRESS, contractName: 'Vault' }],
      runtimeBytecode: runtime(),
    });
    assert.deepStrictEqual([found?.match.build.file, found?.code?.kind], ['artifacts/build-info/b.json', 'exact']);
  });

  it("Hardhat 2 rebuilt after an Ignition deployment: the deployment's own build, checked against the chain, not the artifact's", async () => {
    // the artifact names build "rebuilt" (one instruction changed); Ignition's record names the build deployed
    const code = info.output.contracts['contracts/inspector/Vault.sol'].Vault.evm.deployedBytecode.object.replace(
      /^0x/,
      '',
    );
    const rebuilt = JSON.parse(JSON.stringify(info)) as BuildInfo;
    rebuilt.output.contracts['contracts/inspector/Vault.sol'].Vault.evm.deployedBytecode.object =
      `${code.slice(0, 10)}${code.slice(10, 12) === '00' ? '01' : '00'}${code.slice(12)}`;
    const fsys = folder('hh2-rebuilt', {
      'artifacts/build-info/rebuilt.json': { ...rebuilt, id: 'rebuilt' },
      'artifacts/contracts/inspector/Vault.sol/Vault.dbg.json': {
        _format: 'hh-sol-dbg-1',
        buildInfo: '../../../build-info/rebuilt.json',
      },
      [`ignition/deployments/chain-296/build-info/${info.id}.json`]: info,
      'ignition/deployments/chain-296/artifacts/InspectorModule#Vault.dbg.json': {
        _format: 'hh-sol-dbg-1',
        buildInfo: `../build-info/${info.id}.json`,
      },
    });
    const builds = await DeployedBuilds.read([fsys]);
    const record = {
      address: VAULT_ADDRESS,
      contractName: 'Vault',
      chainId: 296,
      deploymentArtifact: 'ignition/deployments/chain-296/artifacts/InspectorModule#Vault.json',
      folder: fsys.name,
    };
    const withCode = await builds.resolve([VAULT_ADDRESS], {
      chainId: 296,
      deployments: [record],
      runtimeBytecode: runtime(),
    });
    assert.deepStrictEqual(
      [withCode?.match.build.id, withCode?.by, withCode?.code?.match],
      [info.id, 'ignition', true],
    );
    assert.match(explainBuild(withCode!), /^the build Hardhat Ignition recorded for the deployment/);
    // without the code on chain: still the deployment's own build, said to be unchecked
    const noCode = await builds.resolve([VAULT_ADDRESS], { chainId: 296, deployments: [record] });
    assert.deepStrictEqual([noCode?.match.build.id, noCode?.by, noCode?.code], [info.id, 'ignition', undefined]);
    assert.match(explainBuild(noCode!), /not compared with the code on chain/);
  });

  it('the build deployed held as input only (Hardhat 3 production profile): chosen, without output, said so', async () => {
    const p = (o: unknown) =>
      JSON.parse(JSON.stringify(o).replaceAll('"contracts/inspector/', '"project/contracts/inspector/')) as Record<
        string,
        unknown
      >;
    // the default profile's build, compiled and different from the code on chain; the production build as Ignition's copy without output
    const code = info.output.contracts['contracts/inspector/Vault.sol'].Vault.evm.deployedBytecode.object.replace(
      /^0x/,
      '',
    );
    const dflt = JSON.parse(JSON.stringify(info)) as BuildInfo;
    dflt.output.contracts['contracts/inspector/Vault.sol'].Vault.evm.deployedBytecode.object =
      `${code.slice(0, 10)}${code.slice(10, 12) === '00' ? '01' : '00'}${code.slice(12)}`;
    const head = (id: string) => ({
      _format: 'hh3-sol-build-info-1',
      id,
      solcVersion: '0.8.28',
      solcLongVersion: '0.8.28+commit.7893614a',
    });
    const fsys = folder('hh3-production', {
      'artifacts/build-info/solc-0_8_28-dflt.json': { ...head('solc-0_8_28-dflt'), input: p(dflt.input) },
      'artifacts/build-info/solc-0_8_28-dflt.output.json': {
        _format: 'hh3-sol-build-info-output-1',
        id: 'solc-0_8_28-dflt',
        output: p(dflt.output),
      },
      'artifacts/contracts/inspector/Vault.sol/Vault.json': {
        contractName: 'Vault',
        sourceName: 'contracts/inspector/Vault.sol',
        buildInfoId: 'solc-0_8_28-dflt',
      },
      'ignition/deployments/chain-296/build-info/solc-0_8_28-prod.json': {
        ...head('solc-0_8_28-prod'),
        input: p(info.input),
      },
      'ignition/deployments/chain-296/artifacts/InspectorModule#Vault.json': {
        contractName: 'Vault',
        sourceName: 'project/contracts/inspector/Vault.sol',
        buildInfoId: 'solc-0_8_28-prod',
      },
      'ignition/deployments/chain-296/deployed_addresses.json': { 'InspectorModule#Vault': VAULT_ADDRESS },
    });
    const builds = await DeployedBuilds.read([fsys]);
    const record = {
      address: VAULT_ADDRESS,
      contractName: 'Vault',
      chainId: 296,
      deploymentArtifact: 'ignition/deployments/chain-296/artifacts/InspectorModule#Vault.json',
      folder: fsys.name,
    };
    for (const runtimeBytecode of [runtime(), undefined]) {
      const found = await builds.resolve([VAULT_ADDRESS], { chainId: 296, deployments: [record], runtimeBytecode });
      assert.deepStrictEqual(
        [found?.match.build.id, found?.by, found?.built, found?.code],
        ['solc-0_8_28-prod', 'ignition', undefined, undefined],
        String(runtimeBytecode?.length),
      );
      assert.match(explainBuild(found!), /holds the compiler input only/);
    }
  });

  it('a failed deployment: the contract whose creation code starts its init code (constructor arguments after it)', async () => {
    const compiled = JSON.parse(fs.readFileSync(path.join(ROOT, 'sandbox/src/compiled/inspector.json'), 'utf8')) as {
      contracts: Array<{ name: string; bytecode: string; constructorArguments: string }>;
    };
    const v = compiled.contracts.find((c) => c.name === 'Vault')!;
    const builds = await DeployedBuilds.read([folder('creation', { [`artifacts/build-info/${info.id}.json`]: info })]);
    assert.strictEqual(
      builds.findCreation(`${v.bytecode}${v.constructorArguments.replace(/^0x/, '')}`)?.identifier,
      VAULT,
    );
    assert.strictEqual(builds.findCreation('0x6080604052deadbeef'), undefined);
  });

  it('"Decoded with": the code on chain only for a confirmed build of that contract holding the item; otherwise likely, and why', async () => {
    const builds = await DeployedBuilds.read([
      folder('decoded-with', { [`artifacts/build-info/${info.id}.json`]: info }),
    ]);
    const record = { address: VAULT_ADDRESS, contractName: 'Vault', chainId: 296 };
    const check = async (runtimeBytecode: string | undefined, contractName = 'Vault') =>
      addressBuildCheck(
        await builds.resolve([VAULT_ADDRESS], {
          chainId: 296,
          deployments: [{ ...record, contractName }],
          runtimeBytecode,
        }),
        contractName,
        VAULT_ADDRESS,
      );
    const confirmed = await check(runtime());
    assert.strictEqual(confirmed.kind, 'confirmed');
    assert.ok(confirmed.signatures?.includes('withdraw(uint256)'), confirmed.signatures?.join(' '));
    const vault = { contractName: 'Vault', signature: 'withdraw(uint256)' };
    assert.deepStrictEqual(decodedWith(confirmed, vault), {
      confirmed: true,
      note: 'the code on chain',
      tooltip: confirmed.sentence,
    });
    assert.strictEqual(
      decodedWith(confirmed, { contractName: 'Vault', signature: 'nope()' })?.note,
      'likely (not in the ABI of the build deployed)',
    );
    assert.strictEqual(
      decodedWith(confirmed, { contractName: 'Ledger', signature: 'withdraw(uint256)' })?.note,
      'likely (Vault is deployed there)',
    );
    const unchecked = await check(undefined);
    assert.strictEqual(decodedWith(unchecked, vault)?.note, 'likely (not compared with the code on chain)');
    assert.match(
      decodedWith(unchecked, vault)?.tooltip ?? '',
      /not compared with the code on chain \(the mirror node did not give it\)/,
    );
    const other = await check(
      '0x6080604052600080fdfea2646970667358221220' + '5e'.repeat(32) + '64736f6c634300081c0033',
    );
    assert.strictEqual(other.kind, 'mismatch');
    assert.strictEqual(decodedWith(other, vault)?.note, 'likely (the code on chain is another build)');
    const none = await check(undefined, 'Nowhere');
    assert.deepStrictEqual(
      [none.kind, decodedWith(none, { contractName: 'Nowhere' })?.note],
      ['none', 'likely (no build of Nowhere in the workspace)'],
    );
    assert.strictEqual(decodedWith(undefined, vault), undefined, 'nothing asked: nothing said');
  });
});
