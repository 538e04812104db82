/**
 * The placement matrix laid out as users' projects: one setting's compiler output, and the addresses its contracts
 * were deployed at on chain 296, written as a real project folder the way each tool writes it. The matrix
 * (test/placement) writes them under os.tmpdir() and reads them back with the extension's workspace readers; the
 * sandbox's placement ledger (`--placement`, ../mirror/placement.ts) writes a Hardhat 2 project of its deployments
 * for the extension to be opened on (`writeHardhat2Project`).
 *
 * - `hardhat2`: `artifacts/build-info/<id>.json` (`hh-sol-build-info-1`: id, solcVersion, solcLongVersion, input,
 *   output), `artifacts/<source>/<Name>.json` + `<Name>.dbg.json`, and the Hardhat Ignition deployment
 *   `ignition/deployments/chain-296/{deployed_addresses.json, journal.jsonl, artifacts/<Module#Name>.json + .dbg.json,
 *   build-info/<id>.json}` (Ignition's FileDeploymentLoader, Hardhat 2).
 * - `hardhat3`: source names `project/contracts/…`; the DEFAULT build profile (another compiler setting) in
 *   `artifacts/build-info/<id>.json` (`hh3-sol-build-info-1`, input) + `<id>.output.json`
 *   (`hh3-sol-build-info-output-1`, output), the artifacts (`hh3-artifact-1`, `buildInfoId`) of that build; the
 *   DEPLOYED build (the setting under test: the production profile Ignition deploys with) only as Ignition's copy
 *   `ignition/deployments/chain-296/build-info/<id>.json`, with its `<id>.output.json` here.
 * - `hardhat3 (Ignition copy without output)`: the same without that `<id>.output.json`: what Hardhat 3's Ignition
 *   writes (its FileDeploymentLoader.storeBuildInfo keeps the build info, which holds the input only). The readers
 *   have no compiler output of the deployed build: its frames must end unplaced, never on a wrong line.
 * - `foundry`: `src/…` sources, `out/build-info/<id>.json` (foundry-compilers' RawBuildInfo: id, source_id_to_path,
 *   language, `_format: ethers-rs-sol-build-info-1`, compilerVersion, inputVersion, inputVersionLong, input with
 *   version and the CLI paths, output), `out/<File>.sol/<Name>.json`, and
 *   `broadcast/Deploy.s.sol/296/run-latest.json` with the CREATE transactions (contractName, contractAddress).
 */
import { createHash } from 'crypto';
import * as fs from 'fs';
import * as os from 'os';
import * as path from 'path';
import { getAddress } from 'viem';
import type { SolcBuildLike } from '../../../src/api/source/sourceMap';

/** How a project gives its build. `direct`: the matrix hands the compiler output to placeFailure (no files). */
export type Layout = 'direct' | 'hardhat2' | 'hardhat3' | 'hardhat3 (Ignition copy without output)' | 'foundry';
export type ProjectLayout = Exclude<Layout, 'direct'>;

export const LAYOUTS: readonly Layout[] = [
  'direct',
  'hardhat2',
  'hardhat3',
  'hardhat3 (Ignition copy without output)',
  'foundry',
];

/** The folder the matrix's contracts are in, as each tool names its sources (the compiler's source unit names). */
export function sourceRoot(layout: Layout): string {
  switch (layout) {
    case 'direct':
    case 'hardhat2':
      return 'contracts/';
    case 'hardhat3':
    case 'hardhat3 (Ignition copy without output)':
      return 'project/contracts/';
    case 'foundry':
      return 'src/';
  }
}

/** A source unit name of a layout as the matrix marks it (`contracts/Target.sol`). */
export function canonicalSource(layout: Layout, sourceName: string): string {
  const root = sourceRoot(layout);
  return sourceName.startsWith(root) ? `contracts/${sourceName.slice(root.length)}` : sourceName;
}

export const CHAIN_ID = 296;

type Json = Record<string, unknown>;
type LinkRefs = Record<string, Record<string, Array<{ start: number; length: number }>>>;
interface OutContract {
  abi?: unknown[];
  evm?: {
    bytecode?: { object?: string; sourceMap?: string; linkReferences?: LinkRefs };
    deployedBytecode?: { object?: string; sourceMap?: string; linkReferences?: LinkRefs; immutableReferences?: Json };
    methodIdentifiers?: Record<string, string>;
  };
}

/** One compiler run: the standard JSON input (as compiled) and the output. */
export interface CompiledBuild {
  input: Json & { sources: Record<string, { content: string }> };
  output: SolcBuildLike['output'];
}

/** A contract the matrix deployed (a CREATE from the deployer, in this order). */
export interface DeployedRecord {
  /** `path:Name` in the build's own source names. */
  id: string;
  address: string;
  /** The transaction's data: creation code, libraries linked, and the constructor's arguments (hex, 0x). */
  initCode: string;
  /** The constructor's arguments alone (hex, no 0x). */
  args: string;
  /** The deployer's nonce of the CREATE. */
  nonce: number;
}

export interface Deployment {
  deployer: string;
  contracts: DeployedRecord[];
  /** Linked libraries: `path:Name` → address. */
  libraries: Record<string, string>;
}

export interface SolcVersion {
  /** `0.8.28` */
  short: string;
  /** `0.8.28+commit.7893614a` */
  long: string;
}

export interface WrittenLayout {
  layout: ProjectLayout;
  dir: string;
  /** The files that hold the deployed build (relative): the build a frame of a deployed contract must come from. */
  deployedBuildFiles: string[];
  /** Other builds the project holds (Hardhat 3's default profile). */
  otherBuildFiles: string[];
}

const toJson = (v: unknown, pretty = true): string => (pretty ? `${JSON.stringify(v, null, 2)}\n` : JSON.stringify(v));

function write(dir: string, rel: string, content: unknown, pretty = true): void {
  const file = path.join(dir, rel);
  fs.mkdirSync(path.dirname(file), { recursive: true });
  fs.writeFileSync(file, typeof content === 'string' ? content : toJson(content, pretty));
}

const splitId = (id: string): [string, string] => {
  const i = id.lastIndexOf(':');
  return [id.slice(0, i), id.slice(i + 1)];
};
const hex0x = (h: string | undefined): string => `0x${(h ?? '').replace(/^0x/, '')}`;
const contractsOf = (b: CompiledBuild): Record<string, Record<string, OutContract>> =>
  (b.output.contracts ?? {}) as Record<string, Record<string, OutContract>>;
const txHash = (seed: string): string => `0x${createHash('sha256').update(seed).digest('hex')}`;
const MODULE = 'PlacementModule';
const futureId = (id: string): string => `${MODULE}#${splitId(id)[1]}`;

/** The sources themselves, where the project keeps them (`contracts/…`, `src/…`; Hardhat 3: without `project/`). */
function writeSources(dir: string, b: CompiledBuild): void {
  for (const [name, s] of Object.entries(b.input.sources)) write(dir, name.replace(/^project\//, ''), s.content);
}

/** The constructor's arguments as the tools record them (the matrix's constructors take one address). */
const ctorArgs = (c: DeployedRecord): string[] => (c.args ? [getAddress(`0x${c.args.slice(24, 64)}`)] : []);

/**
 * A minimal Ignition journal (`journal.jsonl`): the deployment's chain, then each future initialized (its contract's
 * name, arguments, libraries) and completed at its address.
 */
function journal(b: CompiledBuild, d: Deployment): string {
  const lines: unknown[] = [{ chainId: CHAIN_ID, type: 'DEPLOYMENT_INITIALIZE' }];
  for (const c of d.contracts) {
    const [sourceName, name] = splitId(c.id);
    // the libraries its creation code links, by name, and their futures as dependencies
    const linkedIds = Object.entries(contractsOf(b)[sourceName]?.[name]?.evm?.bytecode?.linkReferences ?? {}).flatMap(
      ([file, byName]) => Object.keys(byName).map((n) => `${file}:${n}`),
    );
    lines.push({
      artifactId: futureId(c.id),
      constructorArgs: ctorArgs(c),
      contractName: name,
      dependencies: linkedIds.map(futureId),
      from: d.deployer.toLowerCase(),
      futureId: futureId(c.id),
      futureType: c.id in d.libraries ? 'NAMED_ARTIFACT_LIBRARY_DEPLOYMENT' : 'NAMED_ARTIFACT_CONTRACT_DEPLOYMENT',
      libraries: Object.fromEntries(linkedIds.map((l) => [splitId(l)[1], getAddress(d.libraries[l])])),
      strategy: 'basic',
      strategyConfig: {},
      type: 'DEPLOYMENT_EXECUTION_STATE_INITIALIZE',
      value: { _kind: 'bigint', value: '0' },
    });
    lines.push({
      futureId: futureId(c.id),
      result: { address: getAddress(c.address), type: 'SUCCESS' },
      type: 'DEPLOYMENT_EXECUTION_STATE_COMPLETE',
    });
  }
  // Ignition's FileJournal appends `\n` and the message, its keys sorted: the file starts with an empty line
  return lines.map((l) => `\n${JSON.stringify(l, sortedKeys)}`).join('');
}

function sortedKeys(_key: string, v: unknown): unknown {
  return v && typeof v === 'object' && !Array.isArray(v)
    ? Object.fromEntries(Object.entries(v as Json).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)))
    : v;
}

/* ------------------------------------------------------------ Hardhat 2 */

function hardhat2Artifact(sourceName: string, name: string, c: OutContract): Json {
  return {
    _format: 'hh-sol-artifact-1',
    contractName: name,
    sourceName,
    abi: c.abi ?? [],
    bytecode: hex0x(c.evm?.bytecode?.object),
    deployedBytecode: hex0x(c.evm?.deployedBytecode?.object),
    linkReferences: c.evm?.bytecode?.linkReferences ?? {},
    deployedLinkReferences: c.evm?.deployedBytecode?.linkReferences ?? {},
  };
}

/** A Hardhat 2 build info (`hh-sol-build-info-1`) of a build, and its id. */
function hardhat2BuildInfo(b: CompiledBuild, v: SolcVersion): { id: string; buildInfo: Json } {
  const _format = 'hh-sol-build-info-1';
  // Hardhat 2's build id: the md5 of {_format, solcVersion, solcLongVersion, input}
  const id = createHash('md5')
    .update(JSON.stringify({ _format, solcVersion: v.short, solcLongVersion: v.long, input: b.input }))
    .digest('hex');
  return {
    id,
    buildInfo: { id, _format, solcVersion: v.short, solcLongVersion: v.long, input: b.input, output: b.output },
  };
}

/** `npx hardhat compile`: the build info and an artifact (+ `.dbg.json`) per contract; the build info's file. */
function writeHardhat2Artifacts(dir: string, b: CompiledBuild, v: SolcVersion): string {
  const { id, buildInfo } = hardhat2BuildInfo(b, v);
  const file = `artifacts/build-info/${id}.json`;
  write(dir, file, buildInfo, false);
  for (const [sourceName, byName] of Object.entries(contractsOf(b))) {
    for (const [name, c] of Object.entries(byName)) {
      const base = `artifacts/${sourceName}/${name}`;
      write(dir, `${base}.json`, hardhat2Artifact(sourceName, name, c));
      write(dir, `${base}.dbg.json`, {
        _format: 'hh-sol-dbg-1',
        buildInfo: path.posix.relative(path.posix.dirname(base), file),
      });
    }
  }
  return file;
}

/**
 * Hardhat Ignition (v0.15, Hardhat 2): `ignition/deployments/<deploymentId>/`, the addresses, the journal, the
 * artifact it deployed and a copy of its build info, per future. Returns the copy's file.
 */
function writeIgnitionHardhat2(
  dir: string,
  b: CompiledBuild,
  d: Deployment,
  v: SolcVersion,
  deploymentId = `chain-${CHAIN_ID}`,
): string {
  const { id, buildInfo } = hardhat2BuildInfo(b, v);
  const dep = `ignition/deployments/${deploymentId}`;
  write(
    dir,
    `${dep}/deployed_addresses.json`,
    Object.fromEntries(d.contracts.map((c) => [futureId(c.id), getAddress(c.address)])),
  );
  write(dir, `${dep}/journal.jsonl`, journal(b, d));
  const copy = `${dep}/build-info/${id}.json`;
  write(dir, copy, buildInfo);
  for (const c of d.contracts) {
    const [sourceName, name] = splitId(c.id);
    write(
      dir,
      `${dep}/artifacts/${futureId(c.id)}.json`,
      hardhat2Artifact(sourceName, name, contractsOf(b)[sourceName][name]),
    );
    write(dir, `${dep}/artifacts/${futureId(c.id)}.dbg.json`, {
      _format: 'hh-sol-dbg-1',
      buildInfo: `../build-info/${id}.json`,
    });
  }
  return copy;
}

function writeHardhat2(dir: string, b: CompiledBuild, d: Deployment, v: SolcVersion): WrittenLayout {
  const file = writeHardhat2Artifacts(dir, b, v);
  const copy = writeIgnitionHardhat2(dir, b, d, v);
  write(
    dir,
    'hardhat.config.ts',
    `export default { solidity: ${toJson(solidityConfig(v, b.input.settings), false)} };\n`,
  );
  writeSources(dir, b);
  return { layout: 'hardhat2', dir, deployedBuildFiles: [file, copy], otherBuildFiles: [] };
}

/**
 * A Hardhat 2 project in `dir` (created when missing) that deployed the same contracts with several compiler
 * settings, one Ignition deployment each (`ignition/deployments/<id>/`, each with its own build info copy, as
 * `npx hardhat ignition deploy --deployment-id <id>` after a change of the settings leaves them); `artifacts/`
 * holds the first build (the last `npx hardhat compile`). The sources are the first build's. Returns, per
 * deployment id, the files that hold its build.
 */
export function writeHardhat2Project(
  dir: string,
  deployments: ReadonlyArray<{ id: string; build: CompiledBuild; deployment: Deployment }>,
  v: SolcVersion,
): Record<string, string[]> {
  if (!deployments.length) throw new Error('no deployment to write');
  fs.mkdirSync(dir, { recursive: true });
  const first = deployments[0].build;
  const artifacts = writeHardhat2Artifacts(dir, first, v);
  const out: Record<string, string[]> = {};
  for (const { id, build, deployment } of deployments) {
    const copy = writeIgnitionHardhat2(dir, build, deployment, v, id);
    out[id] = build === first ? [artifacts, copy] : [copy];
  }
  write(
    dir,
    'hardhat.config.ts',
    `export default { solidity: ${toJson(solidityConfig(v, first.input.settings), false)} };\n`,
  );
  writeSources(dir, first);
  return out;
}

function solidityConfig(v: SolcVersion, settings: unknown): Json {
  const s = (settings ?? {}) as Json;
  return {
    version: v.short,
    settings: { optimizer: s.optimizer, ...(s.viaIR ? { viaIR: true } : {}), evmVersion: s.evmVersion },
  };
}

/* ------------------------------------------------------------ Hardhat 3 */

interface Hh3Build {
  id: string;
  info: Json;
  output: Json;
}

function hardhat3Build(b: CompiledBuild, v: SolcVersion): Hh3Build {
  // Hardhat 3's build id: `solc-<version with _>-<hash of the build>`
  const id = `solc-${v.short.replace(/\./g, '_')}-${createHash('sha256')
    .update(JSON.stringify({ solcLongVersion: v.long, input: b.input }))
    .digest('hex')
    .slice(0, 40)}`;
  const userSourceNameMap = Object.fromEntries(
    Object.keys(b.input.sources)
      .filter((p) => p.startsWith('project/'))
      .map((p) => [p.slice('project/'.length), p]),
  );
  return {
    id,
    info: {
      _format: 'hh3-sol-build-info-1',
      id,
      solcVersion: v.short,
      solcLongVersion: v.long,
      userSourceNameMap,
      input: b.input,
    },
    output: { _format: 'hh3-sol-build-info-output-1', id, output: b.output },
  };
}

function hardhat3Artifact(build: Hh3Build, inputSourceName: string, name: string, c: OutContract): Json {
  return {
    _format: 'hh3-artifact-1',
    contractName: name,
    sourceName: inputSourceName.replace(/^project\//, ''),
    abi: c.abi ?? [],
    bytecode: hex0x(c.evm?.bytecode?.object),
    deployedBytecode: hex0x(c.evm?.deployedBytecode?.object),
    linkReferences: c.evm?.bytecode?.linkReferences ?? {},
    deployedLinkReferences: c.evm?.deployedBytecode?.linkReferences ?? {},
    immutableReferences: c.evm?.deployedBytecode?.immutableReferences ?? {},
    inputSourceName,
    buildInfoId: build.id,
  };
}

function writeHardhat3(
  dir: string,
  deployed: CompiledBuild,
  defaultProfile: CompiledBuild,
  d: Deployment,
  v: SolcVersion,
  withOutput: boolean,
): WrittenLayout {
  const def = hardhat3Build(defaultProfile, v);
  const prod = hardhat3Build(deployed, v);
  if (def.id === prod.id)
    throw new Error('the default profile must be compiled with another setting than the deployed build');
  // `npx hardhat build`: the default profile's build info (input, output next to it) and its artifacts
  const defFile = `artifacts/build-info/${def.id}.json`;
  write(dir, defFile, def.info, false);
  write(dir, `artifacts/build-info/${def.id}.output.json`, def.output, false);
  for (const [inputSourceName, byName] of Object.entries(contractsOf(defaultProfile))) {
    for (const [name, c] of Object.entries(byName))
      write(
        dir,
        `artifacts/${inputSourceName.replace(/^project\//, '')}/${name}.json`,
        hardhat3Artifact(def, inputSourceName, name, c),
      );
  }
  // `npx hardhat ignition deploy` (production profile): the artifacts it deployed and its build info; Hardhat 3's
  // Ignition keeps no output of it (the `with output` variant adds the `.output.json` the readers need)
  const dep = `ignition/deployments/chain-${CHAIN_ID}`;
  write(
    dir,
    `${dep}/deployed_addresses.json`,
    Object.fromEntries(d.contracts.map((c) => [futureId(c.id), getAddress(c.address)])),
  );
  write(dir, `${dep}/journal.jsonl`, journal(deployed, d));
  const copy = `${dep}/build-info/${prod.id}.json`;
  write(dir, copy, prod.info);
  if (withOutput) write(dir, `${dep}/build-info/${prod.id}.output.json`, prod.output);
  for (const c of d.contracts) {
    const [inputSourceName, name] = splitId(c.id);
    write(
      dir,
      `${dep}/artifacts/${futureId(c.id)}.json`,
      hardhat3Artifact(prod, inputSourceName, name, contractsOf(deployed)[inputSourceName][name]),
    );
  }
  const settings = (s: unknown) => solidityConfig(v, s).settings;
  write(
    dir,
    'hardhat.config.ts',
    `export default { solidity: { profiles: { default: ${toJson({ version: v.short, settings: settings(defaultProfile.input.settings) }, false)}, production: ${toJson({ version: v.short, settings: settings(deployed.input.settings) }, false)} } } };\n`,
  );
  write(dir, 'package.json', {
    name: 'placement',
    type: 'module',
    devDependencies: { hardhat: '^3.0.0', '@nomicfoundation/hardhat-ignition': '^3.0.0' },
  });
  writeSources(dir, deployed);
  return {
    layout: withOutput ? 'hardhat3' : 'hardhat3 (Ignition copy without output)',
    dir,
    deployedBuildFiles: [copy],
    otherBuildFiles: [defFile],
  };
}

/* ------------------------------------------------------------ Foundry */

function writeFoundry(dir: string, b: CompiledBuild, d: Deployment, v: SolcVersion): WrittenLayout {
  const _format = 'ethers-rs-sol-build-info-1';
  const root = path.resolve(dir);
  // foundry-compilers' SolcVersionedInput: the standard JSON input, its version and the CLI paths, flattened
  const input = { ...b.input, version: v.short, allowPaths: [root], basePath: root, includePaths: [root] };
  // RawBuildInfo::new: md5 over the format, the versions and the input
  const id = createHash('md5')
    .update(_format)
    .update(v.short)
    .update(v.long)
    .update(v.short)
    .update(JSON.stringify(input))
    .digest('hex');
  const sources = (b.output.sources ?? {}) as Record<string, { id?: number }>;
  const sourceIdToPath = Object.fromEntries(
    Object.entries(sources)
      .filter(([p]) => p in b.input.sources)
      .map(([p, s]) => [String(s.id), p])
      .sort((x, y) => Number(x[0]) - Number(y[0])),
  );
  const file = `out/build-info/${id}.json`;
  write(
    dir,
    file,
    {
      id,
      source_id_to_path: sourceIdToPath,
      language: 'Solidity',
      _format,
      compilerVersion: v.long,
      input,
      inputVersion: v.short,
      inputVersionLong: v.long,
      output: { errors: [], ...b.output },
    },
    false,
  );
  for (const [sourceName, byName] of Object.entries(contractsOf(b))) {
    for (const [name, c] of Object.entries(byName)) {
      write(dir, `out/${path.posix.basename(sourceName)}/${name}.json`, {
        abi: c.abi ?? [],
        bytecode: {
          object: hex0x(c.evm?.bytecode?.object),
          sourceMap: c.evm?.bytecode?.sourceMap ?? '',
          linkReferences: c.evm?.bytecode?.linkReferences ?? {},
        },
        deployedBytecode: {
          object: hex0x(c.evm?.deployedBytecode?.object),
          sourceMap: c.evm?.deployedBytecode?.sourceMap ?? '',
          linkReferences: c.evm?.deployedBytecode?.linkReferences ?? {},
          immutableReferences: c.evm?.deployedBytecode?.immutableReferences ?? {},
        },
        methodIdentifiers: c.evm?.methodIdentifiers ?? {},
        id: sources[sourceName]?.id,
      });
    }
  }
  // `forge script script/Deploy.s.sol --broadcast`: one CREATE per contract, the library first
  const transactions = d.contracts.map((c) => ({
    hash: txHash(`${c.id}@${c.address}`),
    transactionType: 'CREATE',
    contractName: splitId(c.id)[1],
    contractAddress: getAddress(c.address),
    function: null,
    arguments: c.args ? ctorArgs(c) : null,
    transaction: {
      from: getAddress(d.deployer),
      gas: '0x2dc6c0',
      value: '0x0',
      input: c.initCode,
      nonce: `0x${c.nonce.toString(16)}`,
      chainId: `0x${CHAIN_ID.toString(16)}`,
    },
    additionalContracts: [],
    isFixedGasLimit: false,
  }));
  write(dir, `broadcast/Deploy.s.sol/${CHAIN_ID}/run-latest.json`, {
    transactions,
    receipts: d.contracts.map((c, i) => ({
      status: '0x1',
      transactionHash: transactions[i].hash,
      contractAddress: c.address,
      from: d.deployer,
      to: null,
      blockNumber: `0x${(i + 1).toString(16)}`,
    })),
    libraries: Object.entries(d.libraries).map(([lib, a]) => `${lib}:${getAddress(a)}`),
    pending: [],
    returns: {},
    timestamp: 1793400000,
    chain: CHAIN_ID,
    commit: 'abcdef0',
  });
  const s = (b.input.settings ?? {}) as {
    optimizer?: { enabled?: boolean; runs?: number };
    viaIR?: boolean;
    evmVersion?: string;
  };
  write(
    dir,
    'foundry.toml',
    `[profile.default]\nsrc = "src"\nout = "out"\nlibs = ["lib"]\nbuild_info = true\nsolc = "${v.short}"\nevm_version = "${s.evmVersion ?? 'cancun'}"\noptimizer = ${!!s.optimizer?.enabled}\noptimizer_runs = ${s.optimizer?.runs ?? 200}\nvia_ir = ${!!s.viaIR}\n`,
  );
  writeSources(dir, b);
  return { layout: 'foundry', dir, deployedBuildFiles: [file], otherBuildFiles: [] };
}

/* ------------------------------------------------------------ writing */

/**
 * Writes `layout` into a new folder under os.tmpdir(): `deployed` is the build the contracts on chain came from (its
 * source names those of the layout: `sourceRoot`); `defaultProfile` (Hardhat 3 only) the build of the default profile,
 * compiled with another setting. The caller removes the folder (`removeLayout`).
 */
export function writeLayout(
  layout: ProjectLayout,
  deployed: CompiledBuild,
  d: Deployment,
  v: SolcVersion,
  defaultProfile?: CompiledBuild,
): WrittenLayout {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), `placement-${layout.replace(/[^a-z0-9]+/gi, '-')}-`));
  switch (layout) {
    case 'hardhat2':
      return writeHardhat2(dir, deployed, d, v);
    case 'hardhat3':
    case 'hardhat3 (Ignition copy without output)':
      if (!defaultProfile) throw new Error("Hardhat 3 needs the default profile's build");
      return writeHardhat3(dir, deployed, defaultProfile, d, v, layout === 'hardhat3');
    case 'foundry':
      return writeFoundry(dir, deployed, d, v);
  }
}

export function removeLayout(w: WrittenLayout): void {
  fs.rmSync(w.dir, { recursive: true, force: true });
}
