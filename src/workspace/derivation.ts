/**
 * What the decoders' ranking ("Decoded with", src/api/decode/derivation.ts) knows about a workspace besides its
 * ABIs, read from its folders: the deployment records (Hardhat Ignition, hardhat-deploy, Foundry broadcast:
 * which contract is at an address) and the inheritance in its build info (solc's `linearizedBaseContracts`).
 * The ABI index (src/features/decoding/abiIndex.ts) reads them and sets the result on the registry as a plain context.
 * Build info can be tens of MB per file: `BuildInfoBases` keeps the inheritance per file and reads a file again
 * only after it changed. Plain TypeScript over `WorkspaceFs`.
 */
import { basesFromOutput } from '../api/decode/derivation';
import type { DeployedContract } from '../api/decode/derivation';
import { type BuildInfoEntry, listBuildInfo } from './buildInfo';
import { discoverAddresses } from './discovery';
import { readJson, type WorkspaceFs } from './workspaceFs';

const obj = (v: unknown): Record<string, unknown> =>
  v && typeof v === 'object' && !Array.isArray(v) ? (v as Record<string, unknown>) : {};

/** Which contract is at which address, from the deployment records of some folders (every chain; the ranking picks). */
export async function deploymentsFromWorkspace(folders: WorkspaceFs[]): Promise<DeployedContract[]> {
  const found = await discoverAddresses({ folders });
  const deployments: DeployedContract[] = [];
  for (const c of found.candidates) {
    const name = c.build?.contractName ?? c.contractName;
    if (name)
      deployments.push({
        address: c.address,
        contractName: name,
        sourceName: c.build?.sourcePath,
        chainId: c.chainId,
        ...(c.build?.deploymentArtifact ? { deploymentArtifact: c.build.deploymentArtifact } : {}),
        ...(c.folder ? { folder: c.folder } : {}),
      });
  }
  return deployments;
}

/**
 * The inheritance one build gives (its output's ASTs: Hardhat 2 output inside the file, Hardhat 3 `.output.json`
 * next to it, Foundry), from Ignition's copy when the build's own file cannot be read. Files over the WorkspaceFs
 * read limit (MAX_READ_BYTES) are not read: the ranking falls back to ABI supersets for their contracts.
 */
async function basesOfBuild(fs: WorkspaceFs, entry: BuildInfoEntry): Promise<Map<string, string[]>> {
  for (const f of [entry, ...entry.copies]) {
    const json = obj(await readJson(fs, f.outputFile ?? f.file));
    if (json.output !== undefined) return basesFromOutput(json.output);
  }
  return new Map();
}

/** Every path a build was read from or could be (its file, output and Ignition's copies). */
const pathsOf = (entry: BuildInfoEntry): string[] =>
  [entry, ...entry.copies].flatMap((f) => (f.outputFile ? [f.file, f.outputFile] : [f.file]));

/** A workspace folder: `key` tells folders apart (its URI), `fs` reads it. */
export interface DerivationFolder {
  key: string;
  fs: WorkspaceFs;
}

/**
 * Build info inheritance of some folders, kept per build info file: `read` lists the build info folders
 * (listBuildInfo) and parses only the files it has not read yet or that were `invalidate`d since; files no longer
 * listed are forgotten.
 */
export class BuildInfoBases {
  private readonly byBuild = new Map<string, { paths: string[]; bases: Map<string, string[]> }>();
  /** Counts invalidations: a build read while one happened is not kept (it may be the old content). */
  private generation = 0;

  /** `source:Name` → the contracts it inherits from, first build (in listing order) first. */
  async read(folders: DerivationFolder[]): Promise<Map<string, string[]>> {
    const out = new Map<string, string[]>();
    const listed = new Set<string>();
    for (const { key, fs } of folders) {
      for (const entry of await listBuildInfo(fs)) {
        const k = `${key}\n${entry.file}`;
        listed.add(k);
        let hit = this.byBuild.get(k);
        if (!hit) {
          const generation = this.generation;
          hit = { paths: pathsOf(entry), bases: await basesOfBuild(fs, entry) };
          if (generation === this.generation) this.byBuild.set(k, hit);
        }
        for (const [id, bases] of hit.bases) if (!out.has(id)) out.set(id, bases);
      }
    }
    for (const k of [...this.byBuild.keys()]) if (!listed.has(k)) this.byBuild.delete(k);
    return out;
  }

  /** A build info file of folder `key` was created, changed or deleted (`relPath` relative to the folder). */
  invalidate(key: string, relPath: string): void {
    this.generation++;
    for (const [k, v] of this.byBuild)
      if (k.startsWith(`${key}\n`) && v.paths.includes(relPath)) this.byBuild.delete(k);
  }

  /** Forgets every build (a full rescan reads them again). */
  clear(): void {
    this.generation++;
    this.byBuild.clear();
  }

  /** How many builds are kept: what this cache holds in memory (the unit tests check that unlisted builds go). */
  get size(): number {
    return this.byBuild.size;
  }
}
