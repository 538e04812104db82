/**
 * The workspace's own build, for Sourcify API v2: Hardhat `artifacts/build-info/*.json` (Hardhat 2, and
 * Hardhat 3 with its `*.output.json` next to it), Foundry `out/build-info/*.json` and hardhat-deploy
 * `deployments/<network>/solcInputs/*.json`. Each gives the compiler's standard JSON input, the compiler version
 * and the contracts it compiled (`path:Name`, with their metadata for the local source check).
 */
import type { BuildHint } from './discovery';
import { joinPath, readJson, WorkspaceFs } from './workspaceFs';

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
}

export type BuildFormat = 'hardhat' | 'hardhat3' | 'foundry' | 'hardhat-deploy';

export interface BuildInfo {
  /** Relative path of the file. */
  file: string;
  format: BuildFormat;
  /** Full version as Sourcify wants it: `0.8.28+commit.7893614a`. */
  compilerVersion: string;
  /** The standard JSON input (with `language`). */
  input: Record<string, unknown>;
  contracts: CompiledContract[];
}

export interface BuildScan {
  builds: BuildInfo[];
  /** Files that could not be used, with why. */
  problems: string[];
}

const obj = (v: unknown): Record<string, unknown> => (v && typeof v === 'object' && !Array.isArray(v) ? (v as Record<string, unknown>) : {});
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
    out[path] = { keccak256: str(o.keccak256), urls: Array.isArray(o.urls) ? o.urls.filter((u): u is string => typeof u === 'string') : undefined, license: str(o.license) };
  }
  return out;
}

/** The contracts of a compiler output (`output.contracts[path][Name]`). */
export function contractsOfOutput(output: unknown): CompiledContract[] {
  const out: CompiledContract[] = [];
  for (const [sourcePath, byName] of Object.entries(obj(obj(output).contracts))) {
    for (const [name, c] of Object.entries(obj(byName))) {
      const o = obj(c);
      const bytecode = str(obj(obj(o.evm).bytecode).object);
      const meta = parseMetadata(o.metadata);
      out.push({
        sourcePath, name, identifier: `${sourcePath}:${name}`,
        // no evm output selected: assume deployable; an empty object means interface/abstract
        deployable: o.evm === undefined ? true : !!bytecode && bytecode !== '0x',
        sources: metadataSources(meta),
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

async function readBuild(fs: WorkspaceFs, file: string, format: BuildFormat): Promise<BuildInfo | string> {
  const b = obj(await readJson(fs, file));
  if (!Object.keys(b).length) return `${file}: not readable JSON`;
  const input = obj(b.input);
  if (!Object.keys(obj(input.sources)).length) return `${file}: no standard JSON input in it`;
  let output: unknown = b.output;
  let fmt = format;
  if (output === undefined || String(b._format ?? '').startsWith('hh3')) {
    // Hardhat 3 keeps the output in <id>.output.json next to the input
    const o = obj(await readJson(fs, file.replace(/\.json$/, '.output.json')));
    output = o.output ?? output;
    if (String(b._format ?? '').startsWith('hh3')) fmt = 'hardhat3';
  }
  const version = versionOf(b);
  if (!version) return `${file}: no compiler version in it`;
  const stdInput: Record<string, unknown> = { language: str(input.language) ?? str(b.language) ?? 'Solidity', sources: input.sources, settings: input.settings ?? {} };
  return { file, format: fmt, compilerVersion: version, input: stdInput, contracts: contractsOfOutput(output) };
}

async function jsonFiles(fs: WorkspaceFs, dir: string): Promise<string[]> {
  return (await fs.list(dir)).filter((e) => !e.dir && e.name.endsWith('.json') && !e.name.endsWith('.output.json')).map((e) => joinPath(dir, e.name)).sort();
}

/** Every build info of the folder: Hardhat `artifacts/build-info`, Foundry `out/build-info`. */
export async function findBuilds(fs: WorkspaceFs): Promise<BuildScan> {
  const builds: BuildInfo[] = [];
  const problems: string[] = [];
  for (const [dir, format] of [['artifacts/build-info', 'hardhat'], ['out/build-info', 'foundry']] as const) {
    for (const file of await jsonFiles(fs, dir)) {
      const b = await readBuild(fs, file, format);
      if (typeof b === 'string') problems.push(b);
      else builds.push(b);
    }
  }
  return { builds, problems };
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
    contracts: [{ sourcePath: hint.sourcePath, name: hint.contractName, identifier: `${hint.sourcePath}:${hint.contractName}`, deployable: true }],
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
  for (const build of builds) for (const contract of build.contracts) if (contract.deployable) all.push({ build, contract });
  const norm = (p: string) => p.replace(/^project\//, '');
  if (want.name) {
    const byName = all.filter((m) => m.contract.name === want.name);
    const byPath = want.sourcePath ? byName.filter((m) => norm(m.contract.sourcePath) === norm(want.sourcePath ?? '')) : [];
    return byPath.length ? byPath : byName;
  }
  return all.filter((m) => !/^(npm\/|@|node_modules\/|lib\/)/.test(m.contract.sourcePath));
}

/** Distinct `path:Name` identifiers of a match list, in order. */
export function identifiers(matches: BuildMatch[]): string[] {
  return [...new Set(matches.map((m) => m.contract.identifier))];
}
