/**
 * The storage layouts of the workspace's contracts (solc's `storageLayout` output: which state variable is at which
 * slot and offset, and its type), for naming a transaction's state changes. Read from the build info the workspace
 * already has (src/workspace/buildInfo.ts `listBuildInfo`: Hardhat 2 output inside the file, Hardhat 3
 * `<id>.output.json`, Foundry `out/build-info`, Hardhat Ignition's copies) and from Foundry's `out/<File>.sol/<Name>.json`
 * artifacts (with `extra_output = ["storageLayout"]`). A contract is found by its fully qualified name
 * (`contracts/Vault.sol:Vault`; Hardhat 3's `project/` prefix aside) or by the address a deployment record gives
 * (src/workspace/derivation.ts `deploymentsFromWorkspace`). Of several builds holding the same contract with different
 * layouts, the one `chooseBuild` (deployedBuild.ts) picks (the artifact's build, then the code on chain); when nothing tells them apart
 * the answer is undefined rather than a guess. Files are untrusted: every layout is checked whole (types present,
 * offsets inside their slot, sizes bounded) and a malformed one is left out, never thrown on. Plain TypeScript over
 * `WorkspaceFs`.
 *
 * The types below are structural: src/api cannot import src/workspace, so the decoder of state changes
 * (src/api/inspect) declares the same shape on its own; a `StorageLayout` from here is assignable to it.
 */
import type { DeployedContract } from '../api/decode/derivation';
import { userSourceName } from '../api/decode/solcOutput';
import { type BuildInfo, type BuildMatch, listBuildInfo } from './buildInfo';
import { chooseBuild } from './deployedBuild';
import { deploymentsFromWorkspace } from './derivation';
import { readJson, readText, walk, type WorkspaceFs } from './workspaceFs';

/** A state variable (or a struct member): `slot` is a decimal string (it can pass 2^53), `offset` the byte in it. */
export interface StorageVariable {
  astId: number;
  /** `path:Name` of the contract that declares it (as the compiler named the source). */
  contract: string;
  label: string;
  offset: number;
  slot: string;
  /** A key of `StorageLayout.types`. */
  type: string;
}

export type StorageEncoding = 'inplace' | 'mapping' | 'dynamic_array' | 'bytes';

export interface StorageType {
  encoding: StorageEncoding;
  /** The type as written: `uint96`, `mapping(address => uint256)`, `string`, `struct Vault.Entry`. */
  label: string;
  /** Decimal string. */
  numberOfBytes: string;
  /** Mappings: the key and value types. */
  key?: string;
  value?: string;
  /** Arrays (dynamic and static): the element type. */
  base?: string;
  /** Structs: the members, slots relative to the struct's first slot. */
  members?: StorageVariable[];
}

export interface StorageLayout {
  storage: StorageVariable[];
  /** Every type `storage` and the types themselves refer to; `{}` when the contract has no storage. */
  types: Record<string, StorageType>;
}

/** Where a layout was read: a build info (by its format), or a Foundry artifact. */
export type StorageLayoutFormat = BuildInfo['format'] | 'foundry-artifact';

export interface ContractStorageLayout {
  /** `userSourceName:Name`: `contracts/inspector/Vault.sol:Vault` (Hardhat 3's `project/` prefix removed). */
  identifier: string;
  /** The compiler's source unit name (`project/contracts/Vault.sol` in Hardhat 3). */
  sourceName: string;
  contractName: string;
  layout: StorageLayout;
  /** The workspace folder's name and the file (relative to it) the layout came from. */
  folder: string;
  file: string;
  format: StorageLayoutFormat;
  /** The build's id (build info files only). */
  buildId?: string;
  /** Runtime bytecode of that build (hex without 0x), when the file has it: chooses between builds. */
  deployedBytecode?: string;
}

export interface StorageLayoutIndex {
  /** Every usable layout found, folder by folder, build info first (in listing order), then Foundry artifacts. */
  readonly layouts: readonly ContractStorageLayout[];
  /** Files or layouts that could not be used, with why (for the log). */
  readonly problems: readonly string[];
  /**
   * The layout of a contract by fully qualified name (`contracts/Vault.sol:Vault`, also `project/…`) or by its bare
   * name when only one contract has it. `runtimeBytecode` (the code on chain) chooses between builds.
   */
  byName(name: string, opts?: { runtimeBytecode?: string }): Promise<ContractStorageLayout | undefined>;
  /** The layout of the contract a deployment record places at `address` (on `chainId` when the record says). */
  byAddress(
    address: string,
    opts?: { chainId?: number; runtimeBytecode?: string },
  ): Promise<ContractStorageLayout | undefined>;
}

/* ------------------------------------------------------------ validation */

const MAX_ENTRIES = 10_000;
const MAX_TEXT = 2_000;
const DECIMAL = /^(0|[1-9]\d{0,77})$/;
const TYPE_ID = /^t_[A-Za-z0-9_$(),[\]@.-]+$/;
const ENCODINGS: ReadonlySet<string> = new Set<StorageEncoding>(['inplace', 'mapping', 'dynamic_array', 'bytes']);
const MAX_UINT256 = (1n << 256n) - 1n;

const isObj = (v: unknown): v is Record<string, unknown> => !!v && typeof v === 'object' && !Array.isArray(v);
const obj = (v: unknown): Record<string, unknown> => (isObj(v) ? v : {});
const str = (v: unknown): string | undefined => (typeof v === 'string' && v.trim() ? v.trim() : undefined);
const text = (v: unknown): v is string => typeof v === 'string' && v.length > 0 && v.length <= MAX_TEXT;
const decimal = (v: unknown): v is string => typeof v === 'string' && DECIMAL.test(v) && BigInt(v) <= MAX_UINT256;
const typeId = (v: unknown): v is string => typeof v === 'string' && v.length <= MAX_TEXT && TYPE_ID.test(v);

function variable(v: unknown): StorageVariable | undefined {
  if (!isObj(v)) return undefined;
  const { astId, contract, label, offset, slot, type } = v;
  if (typeof astId !== 'number' || !Number.isSafeInteger(astId) || astId < 0) return undefined;
  if (!text(contract) || !text(label) || !decimal(slot) || !typeId(type)) return undefined;
  if (typeof offset !== 'number' || !Number.isInteger(offset) || offset < 0 || offset > 31) return undefined;
  return { astId, contract, label, offset, slot, type };
}

function variables(v: unknown): StorageVariable[] | undefined {
  if (!Array.isArray(v) || v.length > MAX_ENTRIES) return undefined;
  const out: StorageVariable[] = [];
  for (const x of v) {
    const ok = variable(x);
    if (!ok) return undefined;
    out.push(ok);
  }
  return out;
}

function storageType(v: unknown): StorageType | undefined {
  if (!isObj(v)) return undefined;
  const { encoding, label, numberOfBytes, key, value, base, members } = v;
  if (typeof encoding !== 'string' || !ENCODINGS.has(encoding) || !text(label) || !decimal(numberOfBytes))
    return undefined;
  const t: StorageType = { encoding: encoding as StorageEncoding, label, numberOfBytes };
  for (const [k, x] of [
    ['key', key],
    ['value', value],
    ['base', base],
  ] as const) {
    if (x === undefined) continue;
    if (!typeId(x)) return undefined;
    t[k] = x;
  }
  if (members !== undefined) {
    const m = variables(members);
    if (!m) return undefined;
    t.members = m;
  }
  if (encoding === 'mapping' && (!t.key || !t.value)) return undefined;
  if (encoding === 'dynamic_array' && !t.base) return undefined;
  return t;
}

/** Whether a variable fits its slot: a packed value inside 32 bytes, anything larger starting at offset 0. */
function fits(v: StorageVariable, types: Record<string, StorageType>): boolean {
  const t = types[v.type];
  if (!t) return false;
  const size = BigInt(t.numberOfBytes);
  return size > 32n ? v.offset === 0 : BigInt(v.offset) + size <= 32n;
}

/**
 * solc's `storageLayout` checked whole: every variable and member well formed and fitting its slot, every type
 * reference (variables', mapping keys and values, array bases) present in `types`. Undefined for anything else;
 * `types: null` (solc's value for a contract without storage) reads as `{}`. Never throws.
 */
export function parseStorageLayout(v: unknown): StorageLayout | undefined {
  if (!isObj(v)) return undefined;
  const storage = variables(v.storage);
  if (!storage) return undefined;
  const rawTypes = v.types === null || v.types === undefined ? {} : v.types;
  if (!isObj(rawTypes)) return undefined;
  const entries = Object.entries(rawTypes);
  if (entries.length > MAX_ENTRIES) return undefined;
  const types: Record<string, StorageType> = {};
  for (const [id, t] of entries) {
    const ok = typeId(id) ? storageType(t) : undefined;
    if (!ok) return undefined;
    types[id] = ok;
  }
  const known = (id: string | undefined) => id === undefined || Object.prototype.hasOwnProperty.call(types, id);
  for (const t of Object.values(types)) {
    if (!known(t.key) || !known(t.value) || !known(t.base)) return undefined;
    if (t.members && !t.members.every((m) => fits(m, types))) return undefined;
  }
  if (!storage.every((s) => fits(s, types))) return undefined;
  return { storage, types };
}

/* ------------------------------------------------------------ reading */

/** `output.contracts[source][Name].storageLayout` of a compiler output, with the contract's runtime bytecode. */
function layoutsOfOutput(
  output: unknown,
  where: Omit<ContractStorageLayout, 'identifier' | 'sourceName' | 'contractName' | 'layout' | 'deployedBytecode'>,
  problems: string[],
): ContractStorageLayout[] {
  const out: ContractStorageLayout[] = [];
  for (const [sourceName, byName] of Object.entries(obj(obj(output).contracts))) {
    for (const [contractName, c] of Object.entries(obj(byName))) {
      const o = obj(c);
      if (o.storageLayout === undefined) continue;
      const identifier = `${userSourceName(sourceName)}:${contractName}`;
      const layout = parseStorageLayout(o.storageLayout);
      if (!layout) {
        problems.push(`${where.folder}/${where.file}: the storage layout of ${identifier} is not usable`);
        continue;
      }
      const runtime = str(obj(obj(o.evm).deployedBytecode).object);
      out.push({
        identifier,
        sourceName,
        contractName,
        layout,
        ...where,
        ...(runtime ? { deployedBytecode: runtime.replace(/^0x/, '').toLowerCase() } : {}),
      });
    }
  }
  return out;
}

/** Layouts of every build info of the folder (its own file, else Hardhat Ignition's copy of it). */
async function fromBuildInfo(fs: WorkspaceFs, problems: string[]): Promise<ContractStorageLayout[]> {
  const out: ContractStorageLayout[] = [];
  for (const entry of await listBuildInfo(fs)) {
    let read = false;
    for (const f of [entry, ...entry.copies]) {
      const file = f.outputFile ?? f.file;
      let json: Record<string, unknown>;
      try {
        json = obj(await readJson(fs, file));
      } catch (e) {
        problems.push(`${fs.name}/${file}: ${e instanceof Error ? e.message : String(e)}`);
        continue;
      }
      if (!isObj(json.output)) continue;
      const format = String(json._format ?? '').startsWith('hh3') ? 'hardhat3' : f.format;
      out.push(...layoutsOfOutput(json.output, { folder: fs.name, file, format, buildId: f.id }, problems));
      read = true;
      break;
    }
    if (!read) problems.push(`${fs.name}/${entry.file}: no compiler output in it`);
  }
  return out;
}

/** `path` and `Name` of a Foundry artifact: its metadata's compilation target, else its AST's path and the file name. */
function foundryTarget(a: Record<string, unknown>, file: string): [string, string] | undefined {
  let meta = a.metadata;
  if (typeof meta === 'string') {
    try {
      meta = JSON.parse(meta) as unknown;
    } catch {
      meta = undefined;
    }
  }
  const target = Object.entries(obj(obj(obj(meta).settings).compilationTarget));
  if (target.length === 1 && typeof target[0][1] === 'string' && str(target[0][0])) return [target[0][0], target[0][1]];
  const path = str(obj(a.ast).absolutePath);
  const name = /([^/]+?)(?:\.\d+\.\d+\.\d+)?\.json$/.exec(file)?.[1];
  return path && name ? [path, name] : undefined;
}

/** Foundry's `out/<File>.sol/<Name>.json` artifacts that carry a `storageLayout`. */
async function fromFoundryArtifacts(fs: WorkspaceFs, problems: string[]): Promise<ContractStorageLayout[]> {
  const out: ContractStorageLayout[] = [];
  const files = await walk(fs, 'out', {
    maxDepth: 6,
    maxFiles: 5000,
    accept: (p) => /\.sol\/[^/]+\.json$/.test(p) && !p.startsWith('out/build-info/'),
  });
  for (const file of files) {
    let t: string | undefined;
    try {
      t = await readText(fs, file);
    } catch (e) {
      problems.push(`${fs.name}/${file}: ${e instanceof Error ? e.message : String(e)}`);
      continue;
    }
    if (!t || !t.includes('"storageLayout"')) continue;
    let a: Record<string, unknown>;
    try {
      a = obj(JSON.parse(t));
    } catch {
      problems.push(`${fs.name}/${file}: not readable JSON`);
      continue;
    }
    if (a.storageLayout === undefined) continue;
    const target = foundryTarget(a, file);
    const layout = parseStorageLayout(a.storageLayout);
    if (!target || !layout) {
      problems.push(`${fs.name}/${file}: ${target ? 'the storage layout is not usable' : 'no source path in it'}`);
      continue;
    }
    const [sourceName, contractName] = target;
    const runtime = str(obj(a.deployedBytecode).object);
    out.push({
      identifier: `${userSourceName(sourceName)}:${contractName}`,
      sourceName,
      contractName,
      layout,
      folder: fs.name,
      file,
      format: 'foundry-artifact',
      ...(runtime ? { deployedBytecode: runtime.replace(/^0x/, '').toLowerCase() } : {}),
    });
  }
  return out;
}

/* ------------------------------------------------------------ choosing */

const sameLayout = (a: StorageLayout, b: StorageLayout) => JSON.stringify(a) === JSON.stringify(b);

/**
 * One layout of the candidates of one folder (same contract): the only one when they agree; else the build
 * `chooseBuild` (deployedBuild.ts) names from the artifact or the code on chain; else the one Foundry artifact (the latest compile);
 * else undefined.
 */
async function choose(
  fs: WorkspaceFs,
  list: ContractStorageLayout[],
  runtimeBytecode: string | undefined,
): Promise<ContractStorageLayout | undefined> {
  if (!list.length) return undefined;
  if (list.every((l) => sameLayout(l.layout, list[0].layout))) return list[0];
  if (new Set(list.map((l) => l.identifier)).size > 1) return undefined; // same name in different files
  // chooseBuild reads the build's id and file, the contract's source path, name and runtime bytecode
  const matches: BuildMatch[] = list.map((l) => ({
    build: {
      file: l.file,
      format: l.format === 'foundry-artifact' ? 'foundry' : l.format,
      id: l.buildId,
      compilerVersion: '',
      input: {},
      contracts: [],
    },
    contract: {
      sourcePath: l.sourceName,
      name: l.contractName,
      identifier: l.identifier,
      deployable: true,
      ...(l.deployedBytecode ? { deployedBytecode: l.deployedBytecode } : {}),
    },
  }));
  const pick = await chooseBuild(matches, { fsOf: () => fs, runtimeBytecode });
  // named by an artifact, or the code on chain: not the listing order alone
  if (
    pick &&
    (pick.by === 'artifact' || pick.by === 'ignition' || pick.by === 'bytecode') &&
    pick.code?.match !== false
  )
    return list[matches.indexOf(pick.match)];
  const artifacts = list.filter((l) => l.format === 'foundry-artifact');
  return artifacts.length === 1 ? artifacts[0] : undefined;
}

/** `path:Name` or `Name` → what to look for. */
function parseName(name: string): { sourceName?: string; contractName: string } {
  const i = name.lastIndexOf(':');
  return i < 0
    ? { contractName: name.trim() }
    : { sourceName: userSourceName(name.slice(0, i).trim()), contractName: name.slice(i + 1).trim() };
}

/**
 * Reads the storage layouts of some workspace folders once, for lookups by name or address. `deployments`: the
 * deployment records when the caller has them (the ABI index's), else each folder's are read
 * (`deploymentsFromWorkspace`). Never throws: unreadable files and malformed layouts go to `problems`.
 */
export async function findStorageLayouts(
  folders: WorkspaceFs[],
  opts: { deployments?: DeployedContract[] } = {},
): Promise<StorageLayoutIndex> {
  const problems: string[] = [];
  const perFolder: Array<{ fs: WorkspaceFs; layouts: ContractStorageLayout[]; deployments: DeployedContract[] }> = [];
  for (const fs of folders) {
    const layouts: ContractStorageLayout[] = [];
    for (const read of [fromBuildInfo, fromFoundryArtifacts]) {
      try {
        layouts.push(...(await read(fs, problems)));
      } catch (e) {
        problems.push(`${fs.name}: ${e instanceof Error ? e.message : String(e)}`);
      }
    }
    let deployments = opts.deployments;
    if (!deployments) {
      try {
        deployments = await deploymentsFromWorkspace([fs]);
      } catch (e) {
        problems.push(`${fs.name}: deployment records: ${e instanceof Error ? e.message : String(e)}`);
      }
    }
    perFolder.push({ fs, layouts, deployments: deployments ?? [] });
  }

  const lookup = async (
    want: { sourceName?: string; contractName: string },
    runtimeBytecode: string | undefined,
    only?: (typeof perFolder)[number],
  ) => {
    for (const f of only ? [only] : perFolder) {
      const list = f.layouts.filter(
        (l) =>
          l.contractName === want.contractName &&
          (!want.sourceName || userSourceName(l.sourceName) === want.sourceName),
      );
      if (!list.length) continue;
      try {
        return await choose(f.fs, list, runtimeBytecode);
      } catch (e) {
        problems.push(`${f.fs.name}: ${e instanceof Error ? e.message : String(e)}`);
        return undefined;
      }
    }
    return undefined;
  };

  return {
    layouts: perFolder.flatMap((f) => f.layouts),
    problems,
    byName: async (name, o = {}) => {
      const want = parseName(name);
      return want.contractName ? lookup(want, o.runtimeBytecode) : undefined;
    },
    byAddress: async (address, o = {}) => {
      const a = address.trim().toLowerCase();
      for (const f of perFolder) {
        for (const d of f.deployments) {
          if (d.address !== a || (o.chainId !== undefined && d.chainId !== undefined && d.chainId !== o.chainId))
            continue;
          const hit = await lookup(
            { contractName: d.contractName, ...(d.sourceName ? { sourceName: userSourceName(d.sourceName) } : {}) },
            o.runtimeBytecode,
            f,
          );
          if (hit) return hit;
        }
      }
      return undefined;
    },
  };
}
