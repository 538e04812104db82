/**
 * The workspace's compiler builds, whole (standard JSON input for the sources' contents, output for the runtime
 * code, source maps and ASTs), for revert-to-source: Hardhat 2 build info (input and output in one file), Hardhat 3
 * (`<id>.json` with the input, `<id>.output.json` with the output), Foundry `out/build-info` (both in one file), and
 * Hardhat Ignition's copies when the build's own file cannot be read. Which build a deployed contract came from:
 * the deployment records name it (then the build whose runtime code matches the chain's, masked for metadata,
 * immutables and libraries, wins when several hold it), else the chain's runtime code alone. Plain TypeScript.
 */
import type { DeployedContract } from '../api/decode/derivation';
import { isCreationOf, matchBytecode, type BytecodeMatch } from '../api/source/bytecodeMatch';
import type { SolcBuildLike, SolcContractLike } from '../api/source/sourceMap';
import { listBuildInfo } from './buildInfo';
import { readJson, type WorkspaceFs } from './workspaceFs';

/** One contract of one build. */
export interface BuiltContract {
  /** `contracts/Vault.sol:Vault` as the compiler names it (Hardhat 3: `project/contracts/Vault.sol:Vault`). */
  identifier: string;
  sourceName: string;
  contractName: string;
  contract: SolcContractLike;
  build: WorkspaceBuild;
}

export interface WorkspaceBuild {
  build: SolcBuildLike;
  /** The workspace folder (its index in the folders given) and the file it came from. */
  folder: number;
  file: string;
}

/** What a deployed contract was matched to. */
export interface BuildMatchResult {
  contract: BuiltContract;
  /** How: a deployment record named it, or its runtime code alone. */
  by: 'record' | 'bytecode';
  /** The comparison with the code on chain, when the caller gave that code. */
  match?: BytecodeMatch;
}

const obj = (v: unknown): Record<string, unknown> => (v && typeof v === 'object' && !Array.isArray(v) ? (v as Record<string, unknown>) : {});
/** Contracts compared by runtime code alone, at most (a monorepo's thousands of contracts are not all compared). */
const MAX_COMPARED = 2000;

/** A build of which the workspace has the compiler input only (Hardhat Ignition's copy, without an output). */
export interface InputOnlyBuild {
  file: string;
  id: string;
  /** Its source unit names. */
  sources: string[];
}

export class WorkspaceBuilds {
  private constructor(readonly builds: readonly WorkspaceBuild[], readonly contracts: readonly BuiltContract[], readonly problems: readonly string[], readonly inputOnly: readonly InputOnlyBuild[] = []) {}

  /** Reads every build of the folders (each file once; unreadable ones go to `problems`). */
  static async read(folders: readonly WorkspaceFs[]): Promise<WorkspaceBuilds> {
    const builds: WorkspaceBuild[] = [];
    const problems: string[] = [];
    const inputOnly: InputOnlyBuild[] = [];
    for (let folder = 0; folder < folders.length; folder++) {
      const fs = folders[folder];
      let entries: Awaited<ReturnType<typeof listBuildInfo>>;
      try {
        entries = await listBuildInfo(fs);
      } catch (e) {
        problems.push(`${fs.name}: ${e instanceof Error ? e.message : String(e)}`);
        continue;
      }
      for (const entry of entries) {
        let got: SolcBuildLike | undefined;
        let input: string[] | undefined;
        for (const f of [entry, ...entry.copies]) {
          const r = await readOne(fs, f.file, f.outputFile).catch(() => undefined);
          got = r?.build;
          input ??= r?.inputSources;
          if (got) {
            builds.push({ build: got, folder, file: f.file });
            break;
          }
        }
        if (!got) {
          problems.push(`${fs.name}/${entry.file}: no compiler output with runtime code in it`);
          if (input?.length) inputOnly.push({ file: entry.file, id: entry.id, sources: input });
        }
      }
    }
    const contracts: BuiltContract[] = [];
    for (const b of builds) {
      for (const [sourceName, byName] of Object.entries(obj(b.build.output.contracts))) {
        for (const [contractName, c] of Object.entries(obj(byName))) {
          const contract = obj(c) as SolcContractLike;
          if (!contract.evm?.deployedBytecode?.object) continue;
          contracts.push({ identifier: `${sourceName}:${contractName}`, sourceName, contractName, contract, build: b });
        }
      }
    }
    return new WorkspaceBuilds(builds, contracts, problems, inputOnly);
  }

  /**
   * The build of the contract deployed at `address` on `chainId`: the one a deployment record names (and, with the
   * chain's `runtimeBytecode`, whose code matches it: a rebuild after the deployment is passed over), else the
   * contract whose runtime code matches the chain's. Undefined when nothing fits; `mismatch` when a record named a
   * contract whose every build differs from the code on chain (the workspace's source is not what was deployed).
   */
  find(address: string, opts: { chainId?: number; deployments?: readonly DeployedContract[]; runtimeBytecode?: string } = {}): (BuildMatchResult & { mismatch?: undefined }) | { mismatch: BuildMatchResult } | undefined {
    const a = address.toLowerCase();
    const records = (opts.deployments ?? []).filter((d) => d.address === a && (opts.chainId === undefined || d.chainId === undefined || d.chainId === opts.chainId));
    const code = opts.runtimeBytecode && /^(0x)?[0-9a-fA-F]+$/.test(opts.runtimeBytecode) && opts.runtimeBytecode.replace(/^0x/, '').length > 0 ? opts.runtimeBytecode : undefined;
    const compare = (c: BuiltContract): BytecodeMatch | undefined => {
      if (!code) return undefined;
      const rt = c.contract.evm?.deployedBytecode;
      return matchBytecode({ onChain: code, compiled: rt?.object ?? '', immutableReferences: rt?.immutableReferences, linkReferences: rt?.linkReferences });
    };
    for (const r of records) {
      const named = this.contracts.filter((c) => c.contractName === r.contractName && (!r.sourceName || sameSource(c.sourceName, r.sourceName)));
      if (!named.length) continue;
      if (!code) return { contract: named[named.length - 1], by: 'record' };
      const compared = named.map((c) => ({ c, m: compare(c) }));
      // an exact match (same metadata) before one that matches with the metadata masked
      const hit = compared.find((x) => x.m?.match && x.m.kind === 'exact') ?? compared.find((x) => x.m?.match);
      if (hit) return { contract: hit.c, by: 'record', match: hit.m };
      return { mismatch: { contract: compared[compared.length - 1].c, by: 'record', match: compared[compared.length - 1].m } };
    }
    if (!code) return undefined;
    for (const c of this.contracts.slice(0, MAX_COMPARED)) {
      const m = compare(c);
      if (m?.match) return { contract: c, by: 'bytecode', match: m };
    }
    return undefined;
  }

  /**
   * The contract a deployment's init code was built from (its creation code is the init code's prefix, library
   * links and metadata masked): for a failed deployment, where there is no code on chain. The longest creation code
   * wins (a contract whose code embeds another's starts with the other's only if it is that one).
   */
  findCreation(initCode: string): BuiltContract | undefined {
    let best: BuiltContract | undefined;
    for (const c of this.contracts) {
      const code = c.contract.evm?.bytecode?.object;
      if (!code || !isCreationOf(initCode, code)) continue;
      if (!best || code.length > (best.contract.evm?.bytecode?.object?.length ?? 0)) best = c;
    }
    return best;
  }
}

/** Source names compared without Hardhat 3's `project/` prefix. */
function sameSource(a: string, b: string): boolean {
  const strip = (s: string) => s.replace(/^project\//, '');
  return strip(a) === strip(b);
}

async function readOne(fs: WorkspaceFs, file: string, outputFile: string | undefined): Promise<{ build?: SolcBuildLike; inputSources?: string[] }> {
  const b = obj(await readJson(fs, file));
  let output = b.output;
  if ((output === undefined || String(b._format ?? '').startsWith('hh3')) && outputFile) output = obj(await readJson(fs, outputFile)).output ?? output;
  const out = obj(output);
  const input = obj(b.input);
  const inputSources = Object.keys(obj(input.sources));
  if (!Object.keys(obj(out.contracts)).length) return { inputSources };
  return { build: { input: { sources: obj(input.sources) as NonNullable<SolcBuildLike['input']>['sources'] }, output: out as SolcBuildLike['output'] }, inputSources };
}
