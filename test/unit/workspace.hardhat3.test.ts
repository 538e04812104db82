// Hardhat 3 build info (hh3-sol-build-info-1 + .output.json, hh3-artifact-1 with buildInfoId, Ignition's copies) and
// which of several builds holding the same contract is sent to Sourcify. Fixture: test/fixtures/workspaces/hardhat3
// (generate-hh3.cjs, real solc output): RigToken in an old build (with Counter; its file name sorts first) and in
// the new build its artifact names and Ignition deployed.
import * as assert from 'assert';
import * as path from 'path';
import * as buildInfo from '../../src/workspace/buildInfo';
import { type BuildMatch, findBuilds, matchContracts } from '../../src/workspace/buildInfo';
import { chooseBuild } from '../../src/workspace/deployedBuild';
import type { AddressCandidate } from '../../src/workspace/discovery';
import { discoverAddresses } from '../../src/workspace/discovery';
import { nodeWorkspaceFs } from '../support/nodeFs';
import type { WorkspaceFs } from '../../src/workspace/workspaceFs';
import { BuildInfoBases, deploymentsFromWorkspace } from '../../src/workspace/derivation';
import { stripMetadata } from '../../src/api/decode/solcOutput';

const sameRuntime = (a: string, b: string) =>
  stripMetadata(a).toLowerCase().replace(/^0x/, '') === stripMetadata(b).toLowerCase().replace(/^0x/, '');
import { createRegistry, decodeContractResult } from '../../src/api/decode';
import { parseAbiFile } from '../../src/api/decode/abiFiles';
import { encodeErrorResult, encodeFunctionData } from 'viem';
import type { Abi } from 'viem';
import * as fs from 'fs';
import { FIXTURES } from './helpers';

const ROOT = path.join(FIXTURES, 'workspaces', 'hardhat3');
const hh3 = nodeWorkspaceFs(ROOT);
const ids = fs
  .readdirSync(path.join(ROOT, 'artifacts/build-info'))
  .filter((n) => !n.endsWith('.output.json'))
  .map((n) => n.replace(/\.json$/, ''))
  .sort();
const [OLD, NEW] = ids;
const artifactOf = (rel: string) =>
  JSON.parse(fs.readFileSync(path.join(ROOT, rel), 'utf8')) as {
    buildInfoId: string;
    deployedBytecode: string;
    abi: unknown;
  };
/** The folder without some paths (a workspace that never had them). */
const hiding = (inner: WorkspaceFs, hidden: RegExp): WorkspaceFs => ({
  name: inner.name,
  list: async (d) => (await inner.list(d)).filter((e) => !hidden.test(`${d}/${e.name}`)),
  read: async (p) => (hidden.test(p) ? undefined : inner.read(p)),
});

/** The resolver's choice for a deployment record of one folder (src/workspace/deployedBuild.ts). */
const choose = (
  fs: WorkspaceFs,
  matches: BuildMatch[],
  opts: { candidate?: AddressCandidate; runtimeBytecode?: string },
) =>
  chooseBuild(matches, {
    fsOf: () => fs,
    runtimeBytecode: opts.runtimeBytecode,
    ...(opts.candidate?.build?.deploymentArtifact
      ? { deploymentArtifact: { fs, path: opts.candidate.build.deploymentArtifact } }
      : {}),
  });

describe('workspace: Hardhat 3 builds', () => {
  it('the fixture is shaped as Hardhat 3 writes it, and the trap is set (old build first by name)', () => {
    assert.strictEqual(ids.length, 2);
    assert.match(OLD, /^solc-0_8_28-[0-9a-f]+$/);
    assert.strictEqual(artifactOf('artifacts/contracts/RigToken.sol/RigToken.json').buildInfoId, NEW);
    assert.strictEqual(artifactOf('artifacts/contracts/Counter.sol/Counter.json').buildInfoId, OLD);
  });

  it('reads hh3-sol-build-info-1 with its output file: ids, project/ and npm/ source names, both builds holding RigToken', async () => {
    const { builds, problems } = await findBuilds(hh3);
    assert.deepStrictEqual(problems, []);
    assert.deepStrictEqual(
      builds.map((b) => [b.format, b.id]),
      [
        ['hardhat3', OLD],
        ['hardhat3', NEW],
      ],
      "Ignition's copies of the same builds are not counted twice",
    );
    const rig = matchContracts(builds, { name: 'RigToken' });
    assert.deepStrictEqual(
      rig.map((m) => [m.build.id, m.contract.identifier]),
      [
        [OLD, 'project/contracts/RigToken.sol:RigToken'],
        [NEW, 'project/contracts/RigToken.sol:RigToken'],
      ],
    );
    assert.ok(
      Object.keys(rig[1].contract.sources ?? {}).includes('npm/@openzeppelin/contracts@5.1.0/token/ERC20/ERC20.sol'),
    );
    assert.deepStrictEqual((builds[1].input.settings as { remappings: string[] }).remappings, [
      'project/:@openzeppelin/contracts/=npm/@openzeppelin/contracts@5.1.0/',
    ]);
  });

  it("one listing of the build info: Hardhat 3 input and output as one build, Ignition's copies with the build of the same id", async () => {
    const list = await buildInfo.listBuildInfo(hh3);
    assert.deepStrictEqual(
      list.map((b) => [b.file, b.outputFile, b.format]),
      [OLD, NEW].map((id) => [`artifacts/build-info/${id}.json`, `artifacts/build-info/${id}.output.json`, 'hardhat']),
    );
    assert.deepStrictEqual(
      list.map((b) => b.copies.map((c) => c.file)),
      [OLD, NEW].map((id) => [`ignition/deployments/chain-296/build-info/${id}.json`]),
    );
    const cleaned = await buildInfo.listBuildInfo(hiding(hh3, /^artifacts\/build-info/));
    assert.deepStrictEqual(
      cleaned.map((b) => [b.file, b.copies.length]),
      [OLD, NEW].map((id) => [`ignition/deployments/chain-296/build-info/${id}.json`, 0]),
    );
  });

  it("a build Ignition kept without its output (a build profile's): its contracts come from the deployment's artifacts, and it is the one chosen", async () => {
    const inputOnly = hiding(
      hh3,
      /^artifacts\/build-info|^ignition\/deployments\/chain-296\/build-info\/.*\.output\.json$/,
    );
    const { builds } = await findBuilds(inputOnly);
    assert.deepStrictEqual(
      builds.map((b) => [b.id, b.contracts.map((c) => c.identifier)]),
      [
        [OLD, ['project/contracts/Counter.sol:Counter']],
        [NEW, ['project/contracts/RigToken.sol:RigToken']],
      ],
    );
    const d = await discoverAddresses({ folders: [inputOnly], chainId: 296 });
    const rigCand = d.candidates.find((c) => c.contractName === 'RigToken')!;
    const choice = await choose(inputOnly, matchContracts(builds, { name: 'RigToken' }), { candidate: rigCand });
    assert.deepStrictEqual(
      [choice?.match.build.id, choice?.match.build.file],
      [NEW, `ignition/deployments/chain-296/build-info/${NEW}.json`],
    );
  });

  it("Ignition's copies are used when artifacts/build-info was cleaned", async () => {
    const { builds } = await findBuilds(hiding(hh3, /^artifacts\/build-info/));
    assert.deepStrictEqual(
      builds.map((b) => b.id),
      [OLD, NEW],
    );
    assert.ok(builds.every((b) => b.file.startsWith('ignition/deployments/chain-296/build-info/')));
  });

  it("the deployment's own build (Ignition), then the artifact's buildInfoId, then the bytecode, never the file-name order", async () => {
    const d = await discoverAddresses({ folders: [hh3], chainId: 296 });
    const rigCand = d.candidates.find((c) => c.contractName === 'RigToken')!;
    const counterCand = d.candidates.find((c) => c.contractName === 'Counter')!;
    const { builds } = await findBuilds(hh3);
    const pick = async (f: WorkspaceFs, cand: typeof rigCand, runtime?: string) =>
      choose(f, matchContracts(builds, { name: cand.contractName }), { candidate: cand, runtimeBytecode: runtime });
    const viaIgnitionFirst = await pick(hh3, rigCand);
    assert.deepStrictEqual([viaIgnitionFirst?.match.build.id, viaIgnitionFirst?.by], [NEW, 'ignition']);
    // rebuilt after the deployment (the artifact now names the other build): the deployment's own build still wins
    const rebuilt: WorkspaceFs = {
      name: hh3.name,
      list: (d) => hh3.list(d),
      read: async (p) =>
        p === 'artifacts/contracts/RigToken.sol/RigToken.json'
          ? new TextEncoder().encode(JSON.stringify({ ...artifactOf(p), buildInfoId: OLD }))
          : hh3.read(p),
    };
    const afterRebuild = await pick(rebuilt, rigCand);
    assert.deepStrictEqual([afterRebuild?.match.build.id, afterRebuild?.by], [NEW, 'ignition']);
    assert.strictEqual((await pick(hh3, counterCand))?.match.build.id, OLD);
    // no artifact (artifacts/contracts cleaned): the build Ignition recorded for the deployment
    const viaIgnition = await pick(hiding(hh3, /^artifacts\/contracts/), rigCand);
    assert.deepStrictEqual([viaIgnition?.match.build.id, viaIgnition?.by], [NEW, 'ignition']);
    // an artifact whose build is not the code on chain (rebuilt after the deployment) is passed over
    const oldRuntime = builds.find((b) => b.id === OLD)?.contracts.find((c) => c.name === 'RigToken')?.deployedBytecode;
    assert.ok(
      oldRuntime &&
        !sameRuntime(oldRuntime, artifactOf('artifacts/contracts/RigToken.sol/RigToken.json').deployedBytecode),
      'the two builds of RigToken differ in code',
    );
    const onChainOld = await pick(hiding(hh3, /^ignition/), { ...rigCand, build: undefined }, oldRuntime);
    assert.deepStrictEqual([onChainOld?.match.build.id, onChainOld?.by], [OLD, 'bytecode']);
    // no deployment record (an address typed in): the artifact's buildInfoId
    const typed = { ...rigCand, source: 'input' as const, where: 'typed in', build: undefined, file: undefined };
    const viaArtifact = await pick(hiding(hh3, /^ignition/), typed);
    assert.deepStrictEqual([viaArtifact?.match.build.id, viaArtifact?.by], [NEW, 'artifact']);
    // neither: the build whose runtime bytecode is the one on chain (its metadata hash may differ)
    const noInfo = hiding(hh3, /^ignition|^artifacts\/contracts/);
    const runtime = artifactOf('artifacts/contracts/RigToken.sol/RigToken.json').deployedBytecode;
    const viaBytecode = await pick(noInfo, typed, runtime);
    assert.deepStrictEqual([viaBytecode?.match.build.id, viaBytecode?.by], [NEW, 'bytecode']);
    const otherHash = runtime.slice(0, -86) + 'ab'.repeat(34) + runtime.slice(-18);
    assert.strictEqual(
      (await pick(noInfo, typed, otherHash))?.match.build.id,
      NEW,
      'CBOR metadata left out of the comparison',
    );
  });

  it('the metadata tail is cut only when it is a CBOR map: code whose last 2 bytes merely look like a length stays whole', () => {
    const runtime = artifactOf('artifacts/contracts/RigToken.sol/RigToken.json').deployedBytecode.slice(2);
    assert.strictEqual(stripMetadata(`0x${runtime.toUpperCase()}`), runtime.slice(0, -(0x33 + 2) * 2));
    const code = `6080604052${'00'.repeat(40)}5b0010`; // ends in 0x0010: no CBOR map 16 bytes before
    assert.strictEqual(stripMetadata(code), code);
  });

  it('build info inheritance is read once per build info file, again only for a file that changed, forgotten when gone', async () => {
    const reads: string[] = [];
    let hidden = /^$/;
    const counting: WorkspaceFs = {
      name: hh3.name,
      list: async (d) => (await hh3.list(d)).filter((e) => !hidden.test(`${d}/${e.name}`)),
      read: async (p) => {
        reads.push(p);
        return hidden.test(p) ? undefined : hh3.read(p);
      },
    };
    const cache = new BuildInfoBases();
    const folders = [{ key: 'file:///hh3', fs: counting }];
    const first = await cache.read(folders);
    assert.deepStrictEqual(first.get('contracts/RigToken.sol:RigToken'), [
      '@openzeppelin/contracts/token/ERC20/ERC20.sol:ERC20',
    ]);
    assert.deepStrictEqual(
      reads,
      [OLD, NEW].map((id) => `artifacts/build-info/${id}.output.json`),
      "the outputs only, not the inputs or Ignition's copies",
    );
    reads.length = 0;
    assert.deepStrictEqual(await cache.read(folders), first);
    assert.deepStrictEqual(reads, [], 'nothing read again');
    cache.invalidate('file:///hh3', `artifacts/build-info/${NEW}.json`);
    cache.invalidate('file:///other', `artifacts/build-info/${OLD}.output.json`);
    assert.deepStrictEqual(await cache.read(folders), first);
    assert.deepStrictEqual(
      reads,
      [`artifacts/build-info/${NEW}.output.json`],
      'the changed build only (by its input or output file)',
    );
    hidden = new RegExp(`^artifacts/build-info/${NEW}`);
    reads.length = 0;
    const after = await cache.read(folders);
    assert.deepStrictEqual(
      reads,
      [`ignition/deployments/chain-296/build-info/${NEW}.output.json`],
      "the build is listed again from Ignition's copy",
    );
    assert.deepStrictEqual(after, first);
    assert.strictEqual(cache.size, 2);
    hidden = /^artifacts\/build-info|^ignition/;
    assert.deepStrictEqual((await cache.read(folders)).size, 0);
    assert.strictEqual(cache.size, 0, 'builds no longer listed are forgotten');
  });

  it('decoding reads Hardhat 3 output too: RigToken (deployed, most derived by the ASTs) names calls and errors, not ERC20', async () => {
    const files = [
      'artifacts/@openzeppelin/contracts/token/ERC20/ERC20.sol/ERC20.json',
      'artifacts/contracts/RigToken.sol/RigToken.json',
      'artifacts/contracts/Counter.sol/Counter.json',
    ].map((rel) => parseAbiFile(rel, fs.readFileSync(path.join(ROOT, rel), 'utf8'))!);
    // what the ABI index sets on its registry: deployment records, build info inheritance, the selected chain
    const ctx = {
      deployments: await deploymentsFromWorkspace([hh3]),
      bases: await new BuildInfoBases().read([{ key: 'hh3', fs: hh3 }]),
      chainId: 296,
    };
    assert.deepStrictEqual(ctx.bases?.get('contracts/RigToken.sol:RigToken'), [
      '@openzeppelin/contracts/token/ERC20/ERC20.sol:ERC20',
    ]);
    const abi = artifactOf('artifacts/contracts/RigToken.sol/RigToken.json').abi as Abi;
    const transfer = encodeFunctionData({
      abi,
      functionName: 'transfer',
      args: ['0x00000000000000000000000000000000000004d2', 1n],
    });
    for (const to of ['0x1000000000000000000000000000000000000006', '0x00000000000000000000000000000000000004d3']) {
      const r = decodeContractResult(
        {
          function_parameters: transfer,
          call_result: '0x',
          error_message: encodeErrorResult({ abi, errorName: 'OnlyAdmin' }),
          to,
        },
        true,
        createRegistry(files, ctx),
      );
      assert.deepStrictEqual(
        [r.call?.origin.label, r.error?.name, r.error?.origin?.label],
        [
          'artifacts/contracts/RigToken.sol/RigToken.json',
          'OnlyAdmin',
          'artifacts/contracts/RigToken.sol/RigToken.json',
        ],
        to,
      );
    }
    // with the ABI superset alone it holds too (no build info)
    const r = decodeContractResult(
      {
        function_parameters: transfer,
        call_result: '0x',
        error_message: null,
        to: '0x00000000000000000000000000000000000004d3',
      },
      false,
      createRegistry(files),
    );
    assert.strictEqual(r.call?.origin.label, 'artifacts/contracts/RigToken.sol/RigToken.json');
  });
});
