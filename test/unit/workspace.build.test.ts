// Build info (Hardhat artifacts/build-info, Foundry out/build-info, hardhat-deploy solcInputs), the Keccak-256 wrapper, and
// the local check of a contract's metadata sources against the workspace (found, missing or different, unused).
import * as assert from 'assert';
import * as path from 'path';
import { buildFromHint, findBuilds, identifiers, matchContracts } from '../../src/workspace/buildInfo';
import { chooseBuild } from '../../src/workspace/deployedBuild';
import compiled from '../../sandbox/src/compiled/inspector.json';
import { discoverAddresses } from '../../src/workspace/discovery';
import { keccak256 } from '../../src/api/keccak';
import { checkSources, locateFiles, pathCandidates, readRemappings } from '../../src/features/verification/localCheck';
import { nodeWorkspaceFs } from '../support/nodeFs';
import { readText } from '../../src/workspace/workspaceFs';
import { FIXTURES } from './helpers';

const ws = (kind: string) => nodeWorkspaceFs(path.join(FIXTURES, 'workspaces', kind));

describe('workspace: keccak256', () => {
  it("text (as UTF-8) and bytes, as 0x hex: the known vectors and the compiler's metadata hashes", async () => {
    assert.strictEqual(keccak256(''), '0xc5d2460186f7233c927e7db2dcc703c0e500b653ca82273b7bfad8045d85a470');
    assert.strictEqual(keccak256('abc'), '0x4e03657aea45a94fc7d47ba826c8d667c0d1e6e33a64a036ec44f58fa12d6c45');
    assert.strictEqual(keccak256(new TextEncoder().encode('abc')), keccak256('abc'));
    assert.strictEqual(keccak256('é'), keccak256(Uint8Array.of(0xc3, 0xa9)));
    // every source of a real build: the hash solc put in the metadata equals ours
    const { builds } = await findBuilds(ws('foundry'));
    const input = builds[0].input.sources as Record<string, { content: string }>;
    let checked = 0;
    for (const c of builds[0].contracts) {
      for (const [p, s] of Object.entries(c.sources ?? {})) {
        assert.strictEqual(keccak256(input[p].content), s.keccak256, p);
        checked++;
      }
    }
    assert.ok(checked >= 4, `${checked} sources checked`);
  });
});

describe('workspace: build info', () => {
  it('Hardhat artifacts/build-info: standard JSON input, long compiler version, path:Name, interfaces not deployable', async () => {
    const { builds, problems } = await findBuilds(ws('hardhat-ignition'));
    assert.deepStrictEqual(problems, []);
    assert.strictEqual(builds.length, 1);
    const b = builds[0];
    assert.deepStrictEqual(
      [b.format, b.compilerVersion, b.input.language],
      ['hardhat', '0.8.28+commit.7893614a', 'Solidity'],
    );
    assert.match(b.file, /^artifacts\/build-info\/[0-9a-f]+\.json$/);
    assert.deepStrictEqual(
      identifiers(matchContracts(builds, {})),
      ['contracts/Counter.sol:Counter', 'contracts/Token.sol:Token', 'contracts/lib/Math.sol:Math'],
      'libraries have bytecode too',
    );
    assert.ok(
      !b.contracts.find((c) => c.name === 'IThing')?.deployable &&
        !b.contracts.find((c) => c.name === 'Ownable')?.deployable,
    );
    const token = matchContracts(builds, { name: 'Token' })[0].contract;
    assert.deepStrictEqual(Object.keys(token.sources ?? {}).sort(), [
      'contracts/IThing.sol',
      'contracts/Token.sol',
      'contracts/access/Ownable.sol',
    ]);
  });

  it('Foundry out/build-info with remapped library sources', async () => {
    const { builds } = await findBuilds(ws('foundry'));
    assert.deepStrictEqual(
      [builds.length, builds[0].format, builds[0].compilerVersion],
      [1, 'foundry', '0.8.28+commit.7893614a'],
    );
    assert.deepStrictEqual(identifiers(matchContracts(builds, {})), [
      'src/Counter.sol:Counter',
      'src/Vault.sol:Vault',
      'src/lib/Math.sol:Math',
    ]);
    assert.deepStrictEqual((builds[0].input.settings as { remappings: string[] }).remappings, ['@oz/=lib/oz/']);
    assert.deepStrictEqual(await readRemappings(ws('foundry')), [['@oz/', 'lib/oz/']]);
  });

  it("hardhat-deploy: the record's solcInputs file, compiler version and target are enough to submit", async () => {
    const d = await discoverAddresses({ folders: [ws('hardhat-deploy')] });
    const b = await buildFromHint(ws('hardhat-deploy'), d.candidates[0].build);
    assert.ok(b);
    assert.deepStrictEqual(
      [b.format, b.compilerVersion, b.contracts[0].identifier],
      ['hardhat-deploy', '0.8.28+commit.7893614a', 'contracts/Counter.sol:Counter'],
    );
    assert.deepStrictEqual((await findBuilds(ws('hardhat-deploy'))).builds, [], 'no artifacts in that workspace');
  });

  it('matches by name, and by source path when the record knows it', async () => {
    const { builds } = await findBuilds(ws('hardhat-ignition'));
    assert.deepStrictEqual(matchContracts(builds, { name: 'Nope' }), []);
    assert.strictEqual(
      matchContracts(builds, { name: 'Counter', sourcePath: 'project/contracts/Counter.sol' })[0].contract.identifier,
      'contracts/Counter.sol:Counter',
    );
    assert.deepStrictEqual(pathCandidates('npm/@openzeppelin/contracts@5.0.2/access/Ownable.sol').slice(0, 1), [
      'node_modules/@openzeppelin/contracts/access/Ownable.sol',
    ]);
    assert.deepStrictEqual(pathCandidates('@oz/Ownable.sol', [['@oz/', 'lib/oz/']])[0], 'lib/oz/Ownable.sol');
  });
});

describe('workspace: local check of the metadata sources', () => {
  it('found, missing with the same file elsewhere, different content, and unused sources', async () => {
    const fs = ws('hardhat-ignition');
    const { builds } = await findBuilds(fs);
    const counter = matchContracts(builds, { name: 'Counter' })[0].contract;
    const c = await checkSources(fs, counter.sources ?? {});
    assert.deepStrictEqual(
      c.found.map((f) => [f.path, f.workspacePath]),
      [['contracts/Counter.sol', 'contracts/Counter.sol']],
    );
    assert.deepStrictEqual(c.missing, [
      { path: 'contracts/lib/Math.sol', reason: 'not in the workspace', elsewhere: ['contracts/utils/Math.sol'] },
    ]);
    assert.deepStrictEqual(c.unused, [
      'contracts/IThing.sol',
      'contracts/Token.sol',
      'contracts/Unused.sol',
      'contracts/access/Ownable.sol',
      'contracts/utils/Math.sol',
    ]);
    const token = await checkSources(fs, matchContracts(builds, { name: 'Token' })[0].contract.sources ?? {});
    assert.deepStrictEqual(token.found.map((f) => f.path).sort(), [
      'contracts/IThing.sol',
      'contracts/access/Ownable.sol',
    ]);
    assert.deepStrictEqual(
      token.missing.map((f) => [f.path, f.workspacePath, f.reason]),
      [['contracts/Token.sol', 'contracts/Token.sol', 'different content (keccak256 differs from the metadata)']],
    );
    assert.deepStrictEqual(token.sourceDirs, ['contracts']);
  });

  it('Foundry: remapped library found under lib/, project sources under src/', async () => {
    const fs = ws('foundry');
    const { builds } = await findBuilds(fs);
    const vault = await checkSources(fs, matchContracts(builds, { name: 'Vault' })[0].contract.sources ?? {});
    assert.deepStrictEqual(vault.found.map((f) => [f.path, f.workspacePath]).sort(), [
      ['lib/oz/Ownable.sol', 'lib/oz/Ownable.sol'],
      ['src/Vault.sol', 'src/Vault.sol'],
    ]);
    assert.deepStrictEqual(vault.missing, []);
    assert.deepStrictEqual(vault.unused, ['src/Counter.sol', 'src/lib/Math.sol']);
  });

  it("maps a server's paths to the workspace, pointing out a file that is elsewhere", async () => {
    const fs = ws('hardhat-ignition');
    const math = await readText(fs, 'contracts/utils/Math.sol');
    const r = await locateFiles(fs, [
      { path: 'contracts/Counter.sol' },
      { path: 'contracts/lib/Math.sol', keccak256: keccak256(math ?? '') },
      { path: '@openzeppelin/contracts/access/Ownable.sol' },
      { path: 'metadata.json' },
    ]);
    assert.deepStrictEqual(r, [
      { path: 'contracts/Counter.sol', workspacePath: 'contracts/Counter.sol' },
      { path: 'contracts/lib/Math.sol', elsewhere: ['contracts/utils/Math.sol'] },
      { path: '@openzeppelin/contracts/access/Ownable.sol', elsewhere: ['contracts/access/Ownable.sol'] },
      { path: 'metadata.json', elsewhere: undefined },
    ]);
  });
});

describe('workspace: the build whose code is on chain', () => {
  it('a contract with an immutable that does not start a 32-byte word is recognised (masked where the compiler says)', async () => {
    const fs = nodeWorkspaceFs(path.join(__dirname, '../../../test/workspace'));
    const { builds } = await findBuilds(fs);
    const [real] = matchContracts(builds, { name: 'Vault' });
    assert.ok(real?.contract.immutableReferences, 'the build says where the immutable is');
    const offsets = Object.values(real.contract.immutableReferences ?? {})
      .flat()
      .map((r) => r.start);
    assert.ok(
      offsets.some((o) => o % 32 !== 0),
      `an immutable off a word boundary (${offsets.join(', ')})`,
    );
    // another build of Vault whose code differs (one byte): listed first, so that neither the order nor a guess picks the real one
    const code = real.contract.deployedBytecode ?? '';
    const other = {
      build: { ...real.build, id: 'other', file: 'artifacts/build-info/other.json' },
      contract: {
        ...real.contract,
        deployedBytecode: `${code.slice(0, 20)}${code.slice(20, 22) === 'ff' ? '00' : 'ff'}${code.slice(22)}`,
      },
    };
    const vault = compiled.contracts.find((c) => c.name === 'Vault');
    // the artifact names the real build, and its code is checked against the chain's (it was passed over before)
    const choice = await chooseBuild([other, real], { fsOf: () => fs, runtimeBytecode: vault?.deployedBytecode });
    assert.deepStrictEqual([choice?.match.build.file, choice?.by], [real.build.file, 'artifact']);
    // without the artifact to name it, the code on chain alone
    const noArtifact = {
      name: fs.name,
      list: (d: string) => fs.list(d),
      read: (p: string) => (p.startsWith('artifacts/contracts/') ? Promise.resolve(undefined) : fs.read(p)),
    };
    const byCode = await chooseBuild([other, real], {
      fsOf: () => noArtifact,
      runtimeBytecode: vault?.deployedBytecode,
    });
    assert.deepStrictEqual([byCode?.match.build.file, byCode?.by], [real.build.file, 'bytecode']);
  });
});
