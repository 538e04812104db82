/**
 * The workspace's own build, for Sourcify API v2: Hardhat `artifacts/build-info/*.json` (Hardhat 2
 * `hh-sol-build-info-1` with its output inside; Hardhat 3 `hh3-sol-build-info-1` with its output in
 * `<id>.output.json` next to it), the copies Hardhat Ignition keeps in `ignition/deployments/<id>/build-info/`,
 * Foundry `out/build-info/*.json` and hardhat-deploy `deployments/<network>/solcInputs/*.json`. Each gives the
 * compiler's standard JSON input, the compiler version and the contracts it compiled (`path:Name`, with their
 * metadata for the local source check and their runtime bytecode) and, when the workspace has it, the compiler's
 * output. Which of several builds was deployed: deployedBuild.ts.
 */
import { stripMetadata, userSourceName } from '../api/decode/solcOutput';
import { type BytecodeMatch, matchBytecode } from '../api/source/bytecodeMatch';
import type { LinkRef } from '../api/source/sourceMap';
import type { BuildHint } from './discovery';
import { joinPath, readJson, type WorkspaceFs } from './workspaceFs';

export interface MetadataSource {
  keccak256?: string;
  urls?: string[];
  license?: string;
}

export interface CompiledContract {
  /** The compiler's source unit name (`contracts/Counter.sol`, `project/contracts/Counter.sol`, `src/Counter.sol`). */
  sourcePath: string;
  name: string;
  /** `sourcePath:name`, Sourcify's contractIdentifier. */
  identifier: string;
  /** False for interfaces and abstract contracts (nothing to deploy). */
  deployable: boolean;
  /** The sources this contract's metadata lists, with their hashes. */
  sources?: Record<string, MetadataSource>;
  /** Runtime bytecode (`evm.deployedBytecode.object`, hex without 0x), when the output has it. */
  deployedBytecode?: string;
  /** Where its immutables and library links are (byte offsets), to compare it with the code on chain. */
  immutableReferences?: Record<string, LinkRef[]>;
  linkReferences?: Record<string, Record<string, LinkRef[]>>;
}

export type BuildFormat = 'hardhat' | 'hardhat3' | 'foundry' | 'hardhat-deploy';

export interface BuildInfo {
  /** Relative path of the file. */
  file: string;
  format: BuildFormat;
  /** The build's id (Hardhat: the file name without `.json`, `solc-0_8_28-<hash>` in Hardhat 3). */
  id?: string;
  /** Full version as Sourcify wants it: `0.8.28+commit.7893614a`; empty when the file does not say. */
  compilerVersion: string;
  /** The standard JSON input (with `language`). */
  input: Record<string, unknown>;
  /**
   * The compiler's whole output (source maps, ASTs, creation code), undefined when the workspace holds only the input
   * (Hardhat 3: Ignition's copy of a build-profile build; hardhat-deploy's `solcInputs`).
   */
  output?: Record<string, unknown>;
  contracts: CompiledContract[];
}

export interface BuildScan {
  builds: BuildInfo[];
  /** Files that could not be used, with why. */
  problems: string[];
}

const obj = (v: unknown): Record<string, unknown> =>
  v && typeof v === 'object' && !Array.isArray(v) ? (v as Record<string, unknown>) : {};
const str = (v: unknown): string | undefined => (typeof v === 'string' && v.trim() ? v.trim() : undefined);

function parseMetadata(v: unknown): Record<string, unknown> | undefined {
  if (typeof v === 'string') {
    try {
      return obj(JSON.parse(v));
    } catch {
      return undefined;
    }
  }
  return v && typeof v === 'object' ? obj(v) : undefined;
}

function metadataSources(meta: Record<string, unknown> | undefined): Record<string, MetadataSource> | undefined {
  if (!meta) return undefined;
  const out: Record<string, MetadataSource> = {};
  for (const [path, s] of Object.entries(obj(meta.sources))) {
    const o = obj(s);
    out[path] = {
      keccak256: str(o.keccak256),
      urls: Array.isArray(o.urls) ? o.urls.filter((u): u is string => typeof u === 'string') : undefined,
      license: str(o.license),
    };
  }
  return out;
}

/** The contracts of a compiler output (`output.contracts[path][Name]`). */
function contractsOfOutput(output: unknown): CompiledContract[] {
  const out: CompiledContract[] = [];
  for (const [sourcePath, byName] of Object.entries(obj(obj(output).contracts))) {
    for (const [name, c] of Object.entries(obj(byName))) {
      const o = obj(c);
      const bytecode = str(obj(obj(o.evm).bytecode).object);
      const deployed = obj(obj(o.evm).deployedBytecode);
      const runtime = str(deployed.object);
      const meta = parseMetadata(o.metadata);
      out.push({
        sourcePath,
        name,
        identifier: `${sourcePath}:${name}`,
        // no evm output selected: assume deployable; an empty object means interface/abstract
        deployable: o.evm === undefined ? true : !!bytecode && bytecode !== '0x',
        sources: metadataSources(meta),
        ...(runtime && runtime !== '0x' ? { deployedBytecode: runtime.replace(/^0x/, '').toLowerCase() } : {}),
        ...(Object.keys(obj(deployed.immutableReferences)).length
          ? { immutableReferences: deployed.immutableReferences as Record<string, LinkRef[]> }
          : {}),
        ...(Object.keys(obj(deployed.linkReferences)).length
          ? { linkReferences: deployed.linkReferences as Record<string, Record<string, LinkRef[]>> }
          : {}),
      });
    }
  }
  return out;
}

/** `0.8.28+commit.7893614a` from the build info's fields or the input's. */
function versionOf(b: Record<string, unknown>): string | undefined {
  const long = str(b.solcLongVersion) ?? str(b.compilerVersion);
  if (long) return long.replace(/^v/, '');
  return str(b.solcVersion) ?? str(obj(b.input).version);
}

/** One build info file of a folder, as listed (not read yet). */
export interface BuildInfoFile {
  /** Relative path: `artifacts/build-info/<id>.json`, `out/build-info/<id>.json`, `ignition/deployments/<d>/build-info/<id>.json`. */
  file: string;
  /** Hardhat 3: the compiler output next to it (`<id>.output.json`), when there is one. */
  outputFile?: string;
  /** The file name without `.json` (Hardhat's build id). */
  id: string;
  /** From the folder: `hardhat` (Hardhat 2 or 3: the file's `_format` tells) or `foundry`. */
  format: BuildFormat;
}

/** A build of the folder: its file, and Hardhat Ignition's copies of the same build (read when it cannot be). */
export interface BuildInfoEntry extends BuildInfoFile {
  copies: BuildInfoFile[];
}

/**
 * Every build info file of the folder, listed once (nothing read): Hardhat `artifacts/build-info`, Foundry
 * `out/build-info`, then Hardhat Ignition's copies (`ignition/deployments/<id>/build-info`), which go with the
 * build of the same id when one was listed already. Hardhat 3's `<id>.output.json` is the `outputFile` of its
 * `<id>.json`, not a build of its own. Paths in name order.
 */
export async function listBuildInfo(fs: WorkspaceFs): Promise<BuildInfoEntry[]> {
  const dirs: Array<[string, BuildFormat]> = [
    ['artifacts/build-info', 'hardhat'],
    ['out/build-info', 'foundry'],
  ];
  for (const d of (await fs.list('ignition/deployments'))
    .filter((e) => e.dir)
    .map((e) => e.name)
    .sort())
    dirs.push([joinPath('ignition/deployments', d, 'build-info'), 'hardhat']);
  const out: BuildInfoEntry[] = [];
  for (const [dir, format] of dirs) {
    const names = new Set((await fs.list(dir)).filter((e) => !e.dir && e.name.endsWith('.json')).map((e) => e.name));
    for (const name of [...names].filter((n) => !n.endsWith('.output.json')).sort()) {
      const id = name.replace(/\.json$/, '');
      const output = `${id}.output.json`;
      const f: BuildInfoFile = {
        file: joinPath(dir, name),
        ...(names.has(output) ? { outputFile: joinPath(dir, output) } : {}),
        id,
        format,
      };
      const same = dir.startsWith('ignition/') ? out.find((b) => b.id === id) : undefined;
      if (same) same.copies.push(f);
      else out.push({ ...f, copies: [] });
    }
  }
  return out;
}

async function readBuild(fs: WorkspaceFs, f: BuildInfoFile): Promise<BuildInfo | string> {
  const { file, format } = f;
  const b = obj(await readJson(fs, file));
  if (!Object.keys(b).length) return `${file}: not readable JSON`;
  const input = obj(b.input);
  if (!Object.keys(obj(input.sources)).length) return `${file}: no standard JSON input in it`;
  let output: unknown = b.output;
  let fmt = format;
  if ((output === undefined || String(b._format ?? '').startsWith('hh3')) && f.outputFile) {
    // Hardhat 3 keeps the output in <id>.output.json next to the input
    const o = obj(await readJson(fs, f.outputFile));
    output = o.output ?? output;
  }
  if (String(b._format ?? '').startsWith('hh3')) fmt = 'hardhat3';
  // without a compiler version the build still places failures, but cannot be submitted (verification says so)
  const version = versionOf(b) ?? '';
  const stdInput: Record<string, unknown> = {
    language: str(input.language) ?? str(b.language) ?? 'Solidity',
    sources: input.sources,
    settings: input.settings ?? {},
  };
  const id = str(b.id) ?? f.id;
  const contracts = contractsOfOutput(output);
  return {
    file,
    format: fmt,
    id,
    compilerVersion: version,
    input: stdInput,
    ...(contracts.length ? { output: obj(output) } : {}),
    contracts,
  };
}

/**
 * A build of which the workspace held the input only, with the output a compiler produced for that input: its
 * contracts are the output's (the ones Ignition's artifacts named are replaced). The build is changed in place, so
 * that every holder of it sees the output.
 */
export function attachOutput(build: BuildInfo, output: Record<string, unknown>): BuildInfo {
  const contracts = contractsOfOutput(output);
  if (!contracts.length) return build;
  build.output = output;
  build.contracts = contracts;
  return build;
}

/**
 * Every build info of the folder (listBuildInfo): Hardhat `artifacts/build-info`, Foundry `out/build-info`, then
 * the copies of Hardhat Ignition's deployments not found there (same id: read once; a copy is read when the
 * build's own file cannot be).
 */
export async function findBuilds(fs: WorkspaceFs): Promise<BuildScan> {
  const builds: BuildInfo[] = [];
  const problems: string[] = [];
  for (const entry of await listBuildInfo(fs)) {
    // the build's own file, else a copy of it; one with the compiler output before one with the input only
    let got: BuildInfo | undefined;
    for (const f of [entry, ...entry.copies]) {
      const b = await readBuild(fs, f);
      if (typeof b === 'string') {
        problems.push(b);
        continue;
      }
      if (!got || (!got.output && b.output)) got = b;
      if (got.output) break;
    }
    if (got && !builds.some((x) => x.id !== undefined && x.id === got.id && x.format === got.format)) builds.push(got);
  }
  await contractsOfInputOnly(fs, builds);
  return { builds, problems };
}

/**
 * A build the workspace has only the input of (Hardhat 3 keeps Ignition's copy of a build-profile build without its
 * output) names no contracts; the deployment's artifacts that name that build do (`buildInfoId`, or a Hardhat 2
 * `.dbg.json`): their contracts are added to it, so that the build that was deployed can be submitted (Sourcify
 * compiles it) rather than another profile's.
 */
async function contractsOfInputOnly(fs: WorkspaceFs, builds: BuildInfo[]): Promise<void> {
  const wanting = new Map(builds.filter((b) => !b.contracts.length && b.id).map((b) => [b.id as string, b]));
  if (!wanting.size) return;
  for (const d of (await fs.list('ignition/deployments')).filter((e) => e.dir)) {
    const dir = joinPath('ignition/deployments', d.name, 'artifacts');
    for (const e of (await fs.list(dir)).filter(
      (x) => !x.dir && x.name.endsWith('.json') && !x.name.endsWith('.dbg.json'),
    )) {
      const file = joinPath(dir, e.name);
      const id = await buildIdOfArtifact(fs, file);
      const b = id ? wanting.get(id) : undefined;
      if (!b) continue;
      const a = obj(await readJson(fs, file));
      const name = str(a.contractName);
      const source = str(a.sourceName);
      const key = source
        ? Object.keys(obj(b.input.sources)).find((k) => userSourceName(k) === userSourceName(source))
        : undefined;
      if (!name || !key || b.contracts.some((c) => c.identifier === `${key}:${name}`)) continue;
      b.contracts.push({ sourcePath: key, name, identifier: `${key}:${name}`, deployable: true });
    }
  }
}

/**
 * A compiled contract's runtime code held against the code on chain: metadata, immutables and library links masked
 * where the compiler says they are (../api/source/bytecodeMatch). Where the build kept no immutable references (a
 * storage layout's record), 32-byte words of zeros in the compiled code may hold them: then a `partial` match says
 * so in its reason. Undefined when there is nothing to compare.
 */
export function compareCode(c: CompiledContract, onChain: string): BytecodeMatch | undefined {
  if (!c.deployedBytecode || !stripMetadata(onChain).length) return undefined;
  // library placeholders (`__$<hash>$__`) are where links go even when the build's link references were not kept
  const placeholders = (hex: string): LinkRef[] =>
    [...hex.replace(/^0x/i, '').matchAll(/__\$[0-9a-fA-F]{34}\$__/g)]
      .filter((m) => (m.index ?? 1) % 2 === 0)
      .map((m) => ({ start: (m.index ?? 0) / 2, length: 20 }));
  const zeroed = (hex: string): string => hex.replace(/__\$[0-9a-fA-F]{34}\$__/g, '0'.repeat(40));
  const found = placeholders(c.deployedBytecode);
  const linkReferences = c.linkReferences ?? (found.length ? { '': { placeholders: found } } : undefined);
  const m = matchBytecode({
    onChain: zeroed(onChain),
    compiled: zeroed(c.deployedBytecode),
    immutableReferences: c.immutableReferences,
    linkReferences,
  });
  if (m.match || c.immutableReferences) return m;
  const x = stripMetadata(zeroed(c.deployedBytecode));
  const y = stripMetadata(zeroed(onChain));
  if (x.length !== y.length || !x.length) return m;
  for (let i = 0; i < x.length; i += 64) {
    const cx = x.slice(i, i + 64);
    if (cx !== y.slice(i, i + 64) && !/^0+$/.test(cx)) return m;
  }
  return {
    ...m,
    match: true,
    kind: 'partial',
    reason: 'the same code, words of zeros in the build (immutables whose places the build did not keep) aside',
  };
}

/** The build id an artifact names: Hardhat 3 `buildInfoId`, Hardhat 2 `<Name>.dbg.json` `buildInfo` path. */
export async function buildIdOfArtifact(fs: WorkspaceFs, artifactPath: string): Promise<string | undefined> {
  const a = obj(await readJson(fs, artifactPath));
  const id = str(a.buildInfoId);
  if (id) return id;
  const dbg = obj(await readJson(fs, artifactPath.replace(/\.json$/, '.dbg.json')));
  const p = str(dbg.buildInfo);
  return p ? p.slice(p.lastIndexOf('/') + 1).replace(/\.json$/, '') : undefined;
}

/**
 * A hardhat-deploy record's standard JSON input (`solcInputs/<hash>.json`) with the compiler version and target
 * from its metadata: enough for a v2 submission even without `artifacts/`.
 */
export async function buildFromHint(fs: WorkspaceFs, hint: BuildHint | undefined): Promise<BuildInfo | undefined> {
  if (!hint?.stdJsonInputFile || !hint.compilerVersion || !hint.sourcePath || !hint.contractName) return undefined;
  const input = obj(await readJson(fs, hint.stdJsonInputFile));
  if (!Object.keys(obj(input.sources)).length) return undefined;
  return {
    file: hint.stdJsonInputFile,
    format: 'hardhat-deploy',
    compilerVersion: hint.compilerVersion.replace(/^v/, ''),
    input: { language: str(input.language) ?? 'Solidity', sources: input.sources, settings: input.settings ?? {} },
    contracts: [
      {
        sourcePath: hint.sourcePath,
        name: hint.contractName,
        identifier: `${hint.sourcePath}:${hint.contractName}`,
        deployable: true,
      },
    ],
  };
}

export interface BuildMatch {
  build: BuildInfo;
  contract: CompiledContract;
}

/**
 * The compiled contracts that fit a name (and a source path when known), deployable ones only. Without a
 * name: every deployable contract of the workspace's sources (not of libraries under node_modules or lib/).
 */
export function matchContracts(builds: BuildInfo[], want: { name?: string; sourcePath?: string }): BuildMatch[] {
  const all: BuildMatch[] = [];
  for (const build of builds)
    for (const contract of build.contracts) if (contract.deployable) all.push({ build, contract });
  const norm = (p: string) => userSourceName(p);
  if (want.name) {
    const byName = all.filter((m) => m.contract.name === want.name);
    const byPath = want.sourcePath
      ? byName.filter((m) => norm(m.contract.sourcePath) === norm(want.sourcePath ?? ''))
      : [];
    return byPath.length ? byPath : byName;
  }
  return all.filter((m) => !/^(npm\/|@|node_modules\/|lib\/)/.test(m.contract.sourcePath));
}

/** Distinct `path:Name` identifiers of a match list, in order. */
export function identifiers(matches: BuildMatch[]): string[] {
  return [...new Set(matches.map((m) => m.contract.identifier))];
}
