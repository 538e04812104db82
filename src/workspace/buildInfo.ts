/**
 * The workspace's own build, for Sourcify API v2: Hardhat `artifacts/build-info/*.json` (Hardhat 2
 * `hh-sol-build-info-1` with its output inside; Hardhat 3 `hh3-sol-build-info-1` with its output in
 * `<id>.output.json` next to it), the copies Hardhat Ignition keeps in `ignition/deployments/<id>/build-info/`,
 * Foundry `out/build-info/*.json` and hardhat-deploy `deployments/<network>/solcInputs/*.json`. Each gives the
 * compiler's standard JSON input, the compiler version and the contracts it compiled (`path:Name`, with their
 * metadata for the local source check and their runtime bytecode). With several builds holding the contract,
 * `selectBuild` takes the one the deployment used.
 */
import { stripMetadata, userSourceName } from '../api/decode/solcOutput';
import { matchBytecode } from '../api/source/bytecodeMatch';
import type { LinkRef } from '../api/source/sourceMap';
import type { AddressCandidate, BuildHint } from './discovery';
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
        sourcePath, name, identifier: `${sourcePath}:${name}`,
        // no evm output selected: assume deployable; an empty object means interface/abstract
        deployable: o.evm === undefined ? true : !!bytecode && bytecode !== '0x',
        sources: metadataSources(meta),
        ...(runtime && runtime !== '0x' ? { deployedBytecode: runtime.replace(/^0x/, '').toLowerCase() } : {}),
        ...(Object.keys(obj(deployed.immutableReferences)).length ? { immutableReferences: deployed.immutableReferences as Record<string, LinkRef[]> } : {}),
        ...(Object.keys(obj(deployed.linkReferences)).length ? { linkReferences: deployed.linkReferences as Record<string, Record<string, LinkRef[]>> } : {}),
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
  const dirs: Array<[string, BuildFormat]> = [['artifacts/build-info', 'hardhat'], ['out/build-info', 'foundry']];
  for (const d of (await fs.list('ignition/deployments')).filter((e) => e.dir).map((e) => e.name).sort()) dirs.push([joinPath('ignition/deployments', d, 'build-info'), 'hardhat']);
  const out: BuildInfoEntry[] = [];
  for (const [dir, format] of dirs) {
    const names = new Set((await fs.list(dir)).filter((e) => !e.dir && e.name.endsWith('.json')).map((e) => e.name));
    for (const name of [...names].filter((n) => !n.endsWith('.output.json')).sort()) {
      const id = name.replace(/\.json$/, '');
      const output = `${id}.output.json`;
      const f: BuildInfoFile = { file: joinPath(dir, name), ...(names.has(output) ? { outputFile: joinPath(dir, output) } : {}), id, format };
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
  const version = versionOf(b);
  if (!version) return `${file}: no compiler version in it`;
  const stdInput: Record<string, unknown> = { language: str(input.language) ?? str(b.language) ?? 'Solidity', sources: input.sources, settings: input.settings ?? {} };
  const id = str(b.id) ?? f.id;
  return { file, format: fmt, id, compilerVersion: version, input: stdInput, contracts: contractsOfOutput(output) };
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
    for (const f of [entry, ...entry.copies]) {
      const b = await readBuild(fs, f);
      if (typeof b === 'string') {
        problems.push(b);
        continue;
      }
      if (!builds.some((x) => x.id !== undefined && x.id === b.id && x.format === b.format)) builds.push(b);
      break;
    }
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
    for (const e of (await fs.list(dir)).filter((x) => !x.dir && x.name.endsWith('.json') && !x.name.endsWith('.dbg.json'))) {
      const file = joinPath(dir, e.name);
      const id = await buildIdOfArtifact(fs, file);
      const b = id ? wanting.get(id) : undefined;
      if (!b) continue;
      const a = obj(await readJson(fs, file));
      const name = str(a.contractName);
      const source = str(a.sourceName);
      const key = source ? Object.keys(obj(b.input.sources)).find((k) => userSourceName(k) === userSourceName(source)) : undefined;
      if (!name || !key || b.contracts.some((c) => c.identifier === `${key}:${name}`)) continue;
      b.contracts.push({ sourcePath: key, name, identifier: `${key}:${name}`, deployable: true });
    }
  }
}

/** Why a build was chosen: the deployment's own, the artifact's, the bytecode on chain, the workspace's sources. */
export type BuildReason = 'only' | 'ignition' | 'artifact' | 'bytecode' | 'sources';

export interface BuildChoice {
  match: BuildMatch;
  reason: BuildReason;
}

/**
 * Whether a compiled contract's runtime code is the code on chain: metadata, immutables and library links masked
 * where the compiler says they are (../api/source/bytecodeMatch), not by guessing from zero words.
 */
function sameCode(c: CompiledContract, onChain: string): boolean {
  if (!c.deployedBytecode || !stripMetadata(onChain).length) return false;
  // library placeholders (`__$<hash>$__`) are where links go even when the build's link references were not kept
  const placeholders = (hex: string): LinkRef[] => [...hex.replace(/^0x/i, '').matchAll(/__\$[0-9a-fA-F]{34}\$__/g)].filter((m) => (m.index ?? 1) % 2 === 0).map((m) => ({ start: (m.index ?? 0) / 2, length: 20 }));
  const zeroed = (hex: string): string => hex.replace(/__\$[0-9a-fA-F]{34}\$__/g, '0'.repeat(40));
  const found = placeholders(c.deployedBytecode);
  const linkReferences = c.linkReferences ?? (found.length ? { '': { placeholders: found } } : undefined);
  if (matchBytecode({ onChain: zeroed(onChain), compiled: zeroed(c.deployedBytecode), immutableReferences: c.immutableReferences, linkReferences }).match) return true;
  if (c.immutableReferences) return false;
  // where the immutables are is not known (a storage layout's record keeps no references): 32-byte words of zeros
  // in the compiled code may hold them on chain
  const x = stripMetadata(zeroed(c.deployedBytecode));
  const y = stripMetadata(zeroed(onChain));
  if (x.length !== y.length || !x.length) return false;
  for (let i = 0; i < x.length; i += 64) {
    const cx = x.slice(i, i + 64);
    if (cx !== y.slice(i, i + 64) && !/^0+$/.test(cx)) return false;
  }
  return true;
}

/** The build id an artifact names: Hardhat 3 `buildInfoId`, Hardhat 2 `<Name>.dbg.json` `buildInfo` path. */
async function buildIdOfArtifact(fs: WorkspaceFs, artifactPath: string): Promise<string | undefined> {
  const a = obj(await readJson(fs, artifactPath));
  const id = str(a.buildInfoId);
  if (id) return id;
  const dbg = obj(await readJson(fs, artifactPath.replace(/\.json$/, '.dbg.json')));
  const p = str(dbg.buildInfo);
  return p ? p.slice(p.lastIndexOf('/') + 1).replace(/\.json$/, '') : undefined;
}

/**
 * Of several builds holding the contract, the one the deployment used: the build named by the deployment's own
 * artifact (Hardhat Ignition's `ignition/deployments/<id>/artifacts/<futureId>.json`) first, then by the workspace's
 * artifact (`artifacts/<source>/<Name>.json`: Hardhat 3 `buildInfoId`, Hardhat 2 `.dbg.json`), then the build
 * whose runtime bytecode is the one on chain (`runtimeBytecode`, when known), then the one whose sources match
 * the workspace best (`bySources`). Never the file-name order alone.
 */
export async function selectBuild(fs: WorkspaceFs, matches: BuildMatch[], opts: { candidate?: AddressCandidate; runtimeBytecode?: string; bySources?: (m: BuildMatch[]) => Promise<BuildMatch | undefined> } = {}): Promise<BuildChoice | undefined> {
  if (matches.length <= 1) return matches[0] ? { match: matches[0], reason: 'only' } : undefined;
  // a build whose compiled runtime code differs from the code on chain (when the mirror node gave it) is skipped:
  // after a rebuild the artifact names a build that was never deployed
  const onChain = opts.runtimeBytecode && stripMetadata(opts.runtimeBytecode).length ? opts.runtimeBytecode : undefined;
  const fits = (m: BuildMatch) => !onChain || !m.contract.deployedBytecode || sameCode(m.contract, onChain);
  const withId = async (id: string | undefined, reason: BuildReason): Promise<BuildChoice | undefined> => {
    const m = id ? matches.filter((x) => x.build.id === id) : [];
    return m.length === 1 && fits(m[0]) ? { match: m[0], reason } : undefined;
  };
  // 1. the build Hardhat Ignition recorded for the deployment: a rebuild after the deployment (an edit, another build
  // profile) changes the workspace's artifact, never the deployment's own record
  const art = opts.candidate?.build?.deploymentArtifact;
  if (art) {
    const hit = await withId(await buildIdOfArtifact(fs, art), 'ignition');
    if (hit) return hit;
  }
  // 2. the workspace's artifact of that contract (Hardhat 3 `buildInfoId`, Hardhat 2 `.dbg.json`)
  const names = [...new Set(matches.map((m) => `${userSourceName(m.contract.sourcePath)}/${m.contract.name}`))];
  if (names.length === 1) {
    const hit = await withId(await buildIdOfArtifact(fs, joinPath('artifacts', `${names[0]}.json`)), 'artifact');
    if (hit) return hit;
  }
  // 3. the code on chain
  if (onChain) {
    const same = matches.filter((m) => m.contract.deployedBytecode && sameCode(m.contract, onChain));
    if (same.length >= 1 && new Set(same.map((m) => m.build)).size === 1) return { match: same[0], reason: 'bytecode' };
  }
  const best = opts.bySources ? await opts.bySources(matches) : undefined;
  return best ? { match: best, reason: 'sources' } : { match: matches[0], reason: 'sources' };
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
  const norm = (p: string) => userSourceName(p);
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
