/**
 * The build that was deployed: one resolver for verification, revert to source, storage layouts and the Deployments
 * view. The workspace's builds are read once by `buildInfo.ts` (Hardhat 2 and 3, Hardhat Ignition's copies, Foundry,
 * hardhat-deploy's inputs); of the builds holding a contract, `chooseBuild` takes, in this order:
 *
 * 1. the build Hardhat Ignition recorded for the deployment (its `ignition/deployments/<id>/artifacts/<futureId>.json`
 *    names it): a rebuild after the deployment, or another build profile, changes the workspace's artifact, never
 *    the deployment's own record;
 * 2. the build the workspace's artifact of the contract names (`artifacts/<source>/<Name>.json`);
 * 3. the others, in the order they were listed.
 *
 * With the code on chain (the mirror node's `runtime_bytecode`), every one is held against it (metadata,
 * immutables and linked libraries masked where the compiler says they are): a build with the same metadata wins,
 * then the first in the order above whose code is the same; a build of which the workspace has only the input is
 * taken (unchecked) only when no compiled build is the code on chain. What was checked travels with the choice, and
 * `explainBuild` says it in one sentence. Plain TypeScript over `WorkspaceFs`.
 */
import * as l10n from '@vscode/l10n';
import type { DeployedContract } from '../api/decode/derivation';
import { userSourceName } from '../api/decode/solcOutput';
import { type BytecodeMatch, isCreationOf } from '../api/source/bytecodeMatch';
import { type CodeDifference, codeDifference, codeDifferenceText } from '../api/source/codeDifference';
import type { SolcBuildLike, SolcContractLike } from '../api/source/sourceMap';
import {
  type BuildInfo,
  type BuildMatch,
  buildIdOfArtifact,
  compareCode,
  findBuilds,
  matchContracts,
} from './buildInfo';
import { joinPath, type WorkspaceFs } from './workspaceFs';

/** Why a build was taken. */
export type BuildReason = 'ignition' | 'artifact' | 'record' | 'bytecode' | 'only' | 'sources';

export interface BuildChoice {
  match: BuildMatch;
  by: BuildReason;
  /**
   * The build's runtime code held against the code on chain: undefined when it was not (no code given, or the build
   * has no compiler output); `match: false` when it differs (no build of the contract is the code deployed).
   */
  code?: BytecodeMatch;
  /** When `code` differs: what differs, as far as the two codes tell (codeDifference.ts). */
  differs?: CodeDifference;
  /**
   * The contract the deployment records put at the address, when the build taken is of another one: no build of
   * that contract is the code on chain, and this build's is.
   */
  recorded?: string;
}

export interface ChooseOptions {
  /** The folder a build was read from (to read the artifacts that name it). */
  fsOf: (m: BuildMatch) => WorkspaceFs | undefined;
  /** Hardhat Ignition's artifact of the deployment, in the folder of the record. */
  deploymentArtifact?: { fs: WorkspaceFs; path: string };
  /** The code on chain (hex). */
  runtimeBytecode?: string;
  /** Of builds that nothing else tells apart, the one whose sources match the workspace best. */
  bySources?: (m: BuildMatch[]) => Promise<BuildMatch | undefined>;
}

// hex (a compiled code's library placeholders `__$…$__` allowed)
const hasCode = (hex: string | undefined): hex is string =>
  !!hex && /^(0x)?[0-9a-fA-F_$]+$/.test(hex) && hex.replace(/^0x/, '').length > 0;

/** Of the builds holding a contract, the one that was deployed (see the module comment). Undefined for none. */
export async function chooseBuild(
  matches: readonly BuildMatch[],
  opts: ChooseOptions,
): Promise<BuildChoice | undefined> {
  if (!matches.length) return undefined;
  const ranked: Array<{ m: BuildMatch; by: BuildReason }> = [];
  const take = (list: BuildMatch[], by: BuildReason) => {
    for (const m of list) if (!ranked.some((r) => r.m === m)) ranked.push({ m, by });
  };
  const named = async (fs: WorkspaceFs | undefined, path: string): Promise<BuildMatch[]> => {
    const id = fs ? await buildIdOfArtifact(fs, path).catch(() => undefined) : undefined;
    return id ? matches.filter((m) => m.build.id === id && opts.fsOf(m) === fs) : [];
  };
  if (opts.deploymentArtifact) take(await named(opts.deploymentArtifact.fs, opts.deploymentArtifact.path), 'ignition');
  for (const name of new Set(matches.map((m) => `${userSourceName(m.contract.sourcePath)}/${m.contract.name}`))) {
    for (const fs of new Set(matches.map((m) => opts.fsOf(m))))
      take(await named(fs, joinPath('artifacts', `${name}.json`)), 'artifact');
  }
  take([...matches], matches.length === 1 ? 'only' : 'record');

  const onChain = hasCode(opts.runtimeBytecode) ? opts.runtimeBytecode : undefined;
  if (onChain) {
    const compared = ranked.map((r) => ({ ...r, code: compareCode(r.m.contract, onChain) }));
    const same = compared.find((x) => x.code?.match && x.code.kind === 'exact') ?? compared.find((x) => x.code?.match);
    if (same) return { match: same.m, by: same.by === 'record' ? 'bytecode' : same.by, code: same.code };
    // no compiled build is the code on chain: a build the workspace has the input of only may be the one deployed
    const inputOnly = ranked.find((r) => !r.m.contract.deployedBytecode);
    if (inputOnly) return { match: inputOnly.m, by: inputOnly.by };
    const first = compared.find((x) => x.code) ?? compared[0];
    return {
      match: first.m,
      by: first.by,
      code: first.code,
      ...(first.code && first.m.contract.deployedBytecode
        ? {
            differs: codeDifference(
              onChain,
              first.m.contract.deployedBytecode,
              first.m.build.compilerVersion,
              first.code.mismatch?.offset,
            ),
          }
        : {}),
    };
  }
  const top = ranked[0];
  if (top.by !== 'record' || !opts.bySources) return { match: top.m, by: top.by };
  const best = await opts.bySources([...matches]);
  return { match: best ?? top.m, by: 'sources' };
}

/** The choice for the log, in English: the build's file, why it was taken, what was checked. */
export function buildChoiceForLog(c: BuildChoice): string {
  const checked = !c.code
    ? 'not compared with the code on chain'
    : c.code.match
      ? `code ${c.code.kind}`
      : 'code differs';
  return `${c.match.build.file} (by ${c.by}; ${checked})`;
}

/** One sentence: which build, why, and what was checked. */
export function explainBuild(c: BuildChoice): string {
  const file = c.match.build.file;
  const name = c.match.contract.name;
  const which =
    c.by === 'ignition'
      ? l10n.t('the build Hardhat Ignition recorded for the deployment ({0})', file)
      : c.by === 'artifact'
        ? l10n.t("the build the workspace's artifact of {0} names ({1})", name, file)
        : c.by === 'bytecode'
          ? l10n.t('the build whose runtime code is the code on chain ({0})', file)
          : c.by === 'sources'
            ? l10n.t('the build whose sources match the workspace best ({0})', file)
            : l10n.t("the workspace's only build of {0} ({1})", name, file);
  const checked = !c.code
    ? c.match.contract.deployedBytecode
      ? l10n.t('not compared with the code on chain (the mirror node did not give it)')
      : l10n.t('it holds the compiler input only, so its code could not be compared with the code on chain')
    : !c.code.match
      ? c.differs
        ? l10n.t('its code is not the code on chain: {0}', codeDifferenceText(c.differs))
        : l10n.t('its code is not the code on chain ({0})', c.code.reason)
      : c.code.kind === 'exact'
        ? l10n.t('its runtime code is the code on chain, metadata included')
        : l10n.t('its runtime code is the code on chain ({0})', c.code.reason);
  return c.recorded
    ? l10n.t(
        'No build of {0}, which the deployment records put there, is the code on chain; {1} of {2}, another build of the workspace, is: {3}.',
        c.recorded,
        c.match.contract.identifier,
        file,
        checked,
      )
    : l10n.t('{0}: {1}.', which, checked);
}

/* ------------------------------------------------------------ the workspace's builds */

/** One contract of one build with its compiler output (what revert to source reads). */
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
  /** The workspace folder (its index in the folders given; -1: not the workspace's, e.g. Sourcify's) and the file. */
  folder: number;
  file: string;
}

/** A deployment record as the resolver reads it (the decoders' record, with Ignition's artifact when known). */
export type DeploymentRecord = DeployedContract;

/** What `resolve` found for a deployed contract. */
export interface DeployedBuild extends BuildChoice {
  folder: number;
  /** The contract with its compiler output; undefined when the build holds the input only (compile it, or say so). */
  built?: BuiltContract;
}

/** Contracts compared by runtime code alone, at most (a monorepo's thousands of contracts are not all compared). */
const MAX_COMPARED = 2000;

const sameSource = (a: string, b: string) => userSourceName(a) === userSourceName(b);

export class DeployedBuilds {
  private constructor(
    private readonly folders: readonly WorkspaceFs[],
    /** Every build of every folder, in folder order, then listing order. */
    readonly builds: ReadonlyArray<BuildInfo & { folder: number }>,
    readonly problems: readonly string[],
  ) {}

  /** Reads every build of the folders (buildInfo.ts `findBuilds`; unreadable files go to `problems`). */
  static async read(folders: readonly WorkspaceFs[]): Promise<DeployedBuilds> {
    const builds: Array<BuildInfo & { folder: number }> = [];
    const problems: string[] = [];
    for (let folder = 0; folder < folders.length; folder++) {
      try {
        const scan = await findBuilds(folders[folder]);
        for (const b of scan.builds) builds.push(Object.assign(b, { folder }));
        for (const p of scan.problems) problems.push(`${folders[folder].name}/${p}`);
      } catch (e) {
        problems.push(`${folders[folder].name}: ${e instanceof Error ? e.message : String(e)}`);
      }
    }
    return new DeployedBuilds(folders, builds, problems);
  }

  /** Builds of which the workspace holds the compiler input only. */
  get inputOnly(): ReadonlyArray<BuildInfo & { folder: number }> {
    return this.builds.filter((b) => !b.output);
  }

  private folderOf(m: BuildMatch): number {
    return (m.build as BuildInfo & { folder?: number }).folder ?? -1;
  }

  /**
   * The build of the contract deployed at `address` (any of its forms: EVM address, long-zero address): the records
   * of that address on `chainId` name the contract (and Ignition's artifact its build); without a record, the
   * contract whose runtime code is `runtimeBytecode`. Undefined when nothing fits.
   */
  async resolve(
    addresses: readonly string[],
    opts: { chainId?: number; deployments?: readonly DeploymentRecord[]; runtimeBytecode?: string } = {},
  ): Promise<DeployedBuild | undefined> {
    const forms = new Set(addresses.map((a) => a.toLowerCase()));
    const records = (opts.deployments ?? []).filter(
      (d) =>
        forms.has(d.address) && (opts.chainId === undefined || d.chainId === undefined || d.chainId === opts.chainId),
    );
    const fsOf = (m: BuildMatch) => this.folders[this.folderOf(m)];
    for (const r of records) {
      const matches = matchContracts([...this.builds], { name: r.contractName, sourcePath: r.sourceName }).filter(
        (m) => m.contract.name === r.contractName && (!r.sourceName || sameSource(m.contract.sourcePath, r.sourceName)),
      );
      if (!matches.length) continue;
      const folderFs = r.folder !== undefined ? this.folders.find((f) => f.name === r.folder) : undefined;
      const choice = await chooseBuild(matches, {
        fsOf,
        runtimeBytecode: opts.runtimeBytecode,
        ...(r.deploymentArtifact && folderFs
          ? { deploymentArtifact: { fs: folderFs, path: r.deploymentArtifact } }
          : {}),
      });
      if (!choice) continue;
      // no build of the recorded contract is the code on chain: another build of the workspace may be
      const other =
        choice.code && !choice.code.match && hasCode(opts.runtimeBytecode)
          ? this.byCode(opts.runtimeBytecode, (c) => c.name === r.contractName)
          : undefined;
      return this.withOutput(other ? { ...other, recorded: r.contractName } : choice);
    }
    if (!hasCode(opts.runtimeBytecode)) return undefined;
    return this.byCode(opts.runtimeBytecode);
  }

  /** The first compiled contract (but `skip`'s) whose runtime code is `onChain`, among the first MAX_COMPARED. */
  private byCode(onChain: string, skip?: (c: BuildMatch['contract']) => boolean): DeployedBuild | undefined {
    let n = 0;
    for (const b of this.builds) {
      for (const contract of b.contracts) {
        if (!contract.deployedBytecode || skip?.(contract)) continue;
        if (++n > MAX_COMPARED) return undefined;
        const code = compareCode(contract, onChain);
        if (code?.match) return this.withOutput({ match: { build: b, contract }, by: 'bytecode', code });
      }
    }
    return undefined;
  }

  private withOutput(c: BuildChoice): DeployedBuild {
    const folder = this.folderOf(c.match);
    const output = c.match.build.output;
    const contract = output
      ? (output.contracts as Record<string, Record<string, SolcContractLike>> | undefined)?.[
          c.match.contract.sourcePath
        ]?.[c.match.contract.name]
      : undefined;
    const built: BuiltContract | undefined =
      output && contract
        ? {
            identifier: c.match.contract.identifier,
            sourceName: c.match.contract.sourcePath,
            contractName: c.match.contract.name,
            contract,
            build: { build: solcBuildOf(c.match.build), folder, file: c.match.build.file },
          }
        : undefined;
    return { ...c, folder, ...(built ? { built } : {}) };
  }

  /**
   * The contract a deployment's init code was built from (its creation code is the init code's prefix, library
   * links and metadata masked): for a failed deployment, where there is no code on chain. The longest creation code
   * wins (a contract whose code embeds another's starts with the other's only if it is that one).
   */
  findCreation(initCode: string): BuiltContract | undefined {
    let best:
      | { b: BuildInfo & { folder: number }; sourceName: string; name: string; c: SolcContractLike; length: number }
      | undefined;
    for (const b of this.builds) {
      for (const [sourceName, byName] of Object.entries(
        (b.output?.contracts ?? {}) as Record<string, Record<string, SolcContractLike>>,
      )) {
        for (const [name, c] of Object.entries(byName ?? {})) {
          const code = c?.evm?.bytecode?.object;
          if (!code || !isCreationOf(initCode, code)) continue;
          if (!best || code.length > best.length) best = { b, sourceName, name, c, length: code.length };
        }
      }
    }
    return best
      ? {
          identifier: `${best.sourceName}:${best.name}`,
          sourceName: best.sourceName,
          contractName: best.name,
          contract: best.c,
          build: { build: solcBuildOf(best.b), folder: best.b.folder, file: best.b.file },
        }
      : undefined;
  }
}

const builds = new WeakMap<BuildInfo, SolcBuildLike>();

/** A build as the source maps read it (input sources and output), one object per build. */
function solcBuildOf(b: BuildInfo): SolcBuildLike {
  let s = builds.get(b);
  if (!s) {
    s = {
      input: { sources: (b.input.sources ?? {}) as NonNullable<SolcBuildLike['input']>['sources'] },
      output: (b.output ?? {}) as SolcBuildLike['output'],
    };
    builds.set(b, s);
  }
  return s;
}

/* ------------------------------------------------------------ "Decoded with", checked */

/** What the resolver found for the contract deployed at a called address ("Decoded with": src/features/decoding). */
export interface AddressBuildCheck {
  /** The contract the records put at the address. */
  contractName: string;
  /** `confirmed`: the build resolved is the code on chain; `unchecked`: not compared; `mismatch`: it is not; `none`: no build holds it. */
  kind: 'confirmed' | 'unchecked' | 'mismatch' | 'none';
  /** The resolver's sentence (`explainBuild`), or why nothing was resolved. */
  sentence: string;
  /** The signatures (`name(types)`) of the resolved build's ABI, when the workspace holds its output. */
  signatures?: readonly string[];
}

/** The check of an address from what `DeployedBuilds.resolve` found for the contract the records put there. */
export function addressBuildCheck(
  found: DeployedBuild | undefined,
  contractName: string,
  address: string,
): AddressBuildCheck {
  if (!found)
    return {
      contractName,
      kind: 'none',
      sentence: l10n.t(
        'No build of the workspace holds {0}, and none has the code deployed at {1}.',
        contractName,
        address,
      ),
    };
  const abi = found.built?.contract.abi;
  const signatures = Array.isArray(abi)
    ? abi.flatMap((i) => (isNamedItem(i) ? [`${i.name}(${i.inputs.map(typeOf).join(',')})`] : []))
    : undefined;
  return {
    contractName: found.match.contract.name,
    kind: !found.code ? 'unchecked' : found.code.match ? 'confirmed' : 'mismatch',
    sentence: explainBuild(found),
    ...(signatures ? { signatures } : {}),
  };
}

interface NamedItem {
  name: string;
  inputs: Array<{ type: string; components?: unknown }>;
}
const isNamedItem = (i: unknown): i is NamedItem =>
  !!i &&
  typeof i === 'object' &&
  typeof (i as NamedItem).name === 'string' &&
  Array.isArray((i as NamedItem).inputs) &&
  (i as NamedItem).inputs.every((p) => !!p && typeof p.type === 'string');
/** A parameter's canonical type (tuples spelled out), as a signature holds it. */
function typeOf(p: { type: string; components?: unknown }): string {
  if (!p.type.startsWith('tuple')) return p.type;
  const parts = Array.isArray(p.components)
    ? p.components.filter((c): c is { type: string } => !!c && typeof (c as { type?: unknown }).type === 'string')
    : [];
  return `(${parts.map(typeOf).join(',')})${p.type.slice(5)}`;
}

/**
 * What "Decoded with <artifact>" adds for an item (a call, an error) decoded with the workspace's ABI of
 * `contractName`: `the code on chain` only when the resolver confirmed that the build of that very contract is the
 * code at the address and (when its ABI is known) holds the item; otherwise `likely (why)`. Undefined when nothing
 * was asked (no record of the address, or the answer is not there yet).
 */
export function decodedWith(
  check: AddressBuildCheck | undefined,
  item: { contractName?: string; signature?: string },
): { confirmed: boolean; note: string; tooltip: string } | undefined {
  if (!check) return undefined;
  const likely = (why: string) => ({ confirmed: false, note: l10n.t('likely ({0})', why), tooltip: check.sentence });
  if (item.contractName && item.contractName !== check.contractName)
    return likely(l10n.t('{0} is deployed there', check.contractName));
  if (check.kind === 'none') return likely(l10n.t('no build of {0} in the workspace', check.contractName));
  if (check.kind === 'unchecked') return likely(l10n.t('not compared with the code on chain'));
  if (check.kind === 'mismatch') return likely(l10n.t('the code on chain is another build'));
  if (item.signature && check.signatures && !check.signatures.includes(item.signature))
    return likely(l10n.t('not in the ABI of the build deployed'));
  return { confirmed: true, note: l10n.t('the code on chain'), tooltip: check.sentence };
}
