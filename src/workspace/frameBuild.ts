/**
 * The build a frame of a traced transaction ran, for revert to source and the debugger alike: the workspace's build
 * deployed at the frame's address (the one resolver, ./deployedBuild.ts, held against the code on chain), a build the
 * workspace holds the input of only once its output is produced (the caller's `produce`: it compiles), else the
 * sources verified on Sourcify (read-only: not the workspace's). A failed deployment's frame is matched by the init
 * code it ran. Plain TypeScript; the mirror node's `/contracts/{id}` and the compiler come in through `FrameBuildHost`.
 */
import * as l10n from '@vscode/l10n';
import type { HttpClient } from '../api/http';
import type { FrameBuild } from '../api/source/locate';
import { codeDifferenceText } from '../api/source/codeDifference';
import { verifiedBuildOf } from '../api/source/sourcify';
import { entityIdToEvmAddress, evmAddressToEntityId } from '../api/validation';
import type { BuildInfo } from './buildInfo';
import type { ContractBody } from './chainCode';
import {
  buildChoiceForLog,
  type BuiltContract,
  type DeployedBuilds,
  type DeploymentRecord,
  explainBuild,
} from './deployedBuild';

/** A frame's build with the contract it holds. */
export type ResolvedFrameBuild = FrameBuild & { built: BuiltContract };

/** What the lookup needs of its caller. */
export interface FrameBuildHost {
  /** The network: its chain id, Sourcify's URL and the HTTP client that asks it. */
  network(): { chainId: number; verifyUrl: string; http: HttpClient };
  /** The mirror node's `/contracts/{id or address}` (the window's one cache). */
  contract(idOrAddress: string, signal?: AbortSignal): Promise<ContractBody>;
  /** Produces the compiler output of a build held as input only: true, or why it could not. */
  produce?(build: BuildInfo): Promise<true | { problem: string }>;
  /** Lines for the log channel (the build chosen and why, Sourcify's failures). */
  log?(level: 'debug' | 'warn', line: string): void;
}

/** The answers of `/contracts/{id}` the lookup read: the contract's own EVM address and runtime code. */
interface ContractInfo {
  evm?: string;
  runtime?: string;
}

export class FrameBuilds {
  private readonly contracts = new Map<string, Promise<ContractInfo>>();
  private readonly verified = new Map<string, Promise<ResolvedFrameBuild | undefined>>();

  constructor(private readonly host: FrameBuildHost) {}

  /** The build of a frame: by its creation code for a deployment, else by its address (`of`). */
  frame(
    f: { address?: string | null; entity?: string | null; creation?: { initCode: string } },
    builds: DeployedBuilds,
    deployments: readonly DeploymentRecord[],
    signal?: AbortSignal,
  ): Promise<ResolvedFrameBuild | { problem: string } | undefined> {
    return f.creation
      ? Promise.resolve(creationBuild(builds, f.creation.initCode))
      : this.of(f.address ?? undefined, f.entity ?? undefined, builds, deployments, signal);
  }

  /**
   * The build a contract came from (the deployment records, then the runtime code; a build held as input only
   * compiled; then Sourcify's verified sources), or why there is none.
   */
  async of(
    address: string | undefined,
    entity: string | undefined,
    builds: DeployedBuilds,
    deployments: readonly DeploymentRecord[],
    signal?: AbortSignal,
  ): Promise<ResolvedFrameBuild | { problem: string } | undefined> {
    const id = entity ?? (address ? evmAddressToEntityId(address) : undefined);
    // the code on chain, looked up by the entity or, for a contract known by its EVM address only, by that address
    // (the mirror node takes either): without it a rebuild since the deployment could not be told apart
    const info = await this.contract(
      id ?? (address && /^0x[0-9a-fA-F]{40}$/.test(address) ? address.toLowerCase() : undefined),
      signal,
    );
    const { chainId } = this.host.network();
    const long = id ? entityIdToEvmAddress(id) : undefined;
    const forms = [
      ...new Set([info.evm, address?.toLowerCase(), long?.ok ? long.value : undefined].filter((x): x is string => !!x)),
    ];
    const resolve = () =>
      forms.length
        ? builds.resolve(forms, { chainId, deployments, runtimeBytecode: info.runtime })
        : Promise.resolve(undefined);
    let found = await resolve();
    // the build deployed may be one the workspace holds the input of only (Hardhat 3: Ignition's copy of a
    // build-profile build): its output produced by the caller, then the build resolved again, held against the
    // code on chain like any other
    const inputOnlyOf = (f: NonNullable<typeof found>) =>
      !f.built && !f.code
        ? f.match.build
        : f.code && !f.code.match
          ? builds.inputOnly.find((b) => Object.keys(b.input.sources ?? {}).includes(f.match.contract.sourcePath))
          : undefined;
    const missing = found ? inputOnlyOf(found) : undefined;
    let produced: { problem: string } | undefined;
    if (missing && this.host.produce) {
      const r = await this.host.produce(missing);
      if (r === true) found = await resolve();
      else produced = r;
    }
    let mismatch: { problem: string } | undefined;
    if (found) {
      const name = found.match.contract.name;
      const where = id ?? forms[0] ?? l10n.t('the contract');
      if (found.code && !found.code.match) {
        mismatch = produced
          ? {
              problem: l10n.t(
                "the code deployed at {0} is not the workspace's compiled build of {1}; {2}",
                where,
                name,
                produced.problem,
              ),
            }
          : {
              problem: l10n.t(
                "the code deployed at {0} is not the workspace's build of {1}: {2}. No line is shown.",
                where,
                name,
                found.differs ? codeDifferenceText(found.differs) : found.code.reason.replace(/\.$/, ''),
              ),
            };
      } else if (!found.built) {
        mismatch = { problem: `${where}: ${explainBuild(found)} ${produced?.problem ?? ''}`.trim() };
      } else {
        this.host.log?.('debug', `${where}: ${buildChoiceForLog(found)}`);
        return {
          build: found.built.build.build,
          contract: found.built.identifier,
          match: found.code,
          built: found.built,
        };
      }
    }
    // not built by the workspace (or not the build that was deployed): Sourcify's verified sources, when it has them
    const verified = await this.sourcify(info.evm ?? forms[0], signal);
    return verified ?? mismatch;
  }

  /** `/contracts/{id}` of a contract: its own address and runtime code (once per contract and lookup). */
  private contract(idOrAddress: string | undefined, signal?: AbortSignal): Promise<ContractInfo> {
    if (!idOrAddress) return Promise.resolve({});
    let p = this.contracts.get(idOrAddress);
    if (!p) {
      p = this.host.contract(idOrAddress, signal).then(
        (c) => ({
          evm: typeof c?.evm_address === 'string' ? c.evm_address.toLowerCase() : undefined,
          runtime: typeof c?.runtime_bytecode === 'string' ? c.runtime_bytecode : undefined,
        }),
        () => ({}),
      );
      this.contracts.set(idOrAddress, p);
    }
    return p;
  }

  /**
   * A contract verified on Sourcify as a build: `GET /v2/contract/{chain}/{address}?fields=stdJsonInput,stdJsonOutput,compilation`
   * (the sources, the compiler's output with source ids and source maps, the contract's name). Once per address;
   * undefined when it is not verified or the answer lacks what a source map needs.
   */
  private sourcify(address: string | undefined, signal?: AbortSignal): Promise<ResolvedFrameBuild | undefined> {
    if (!address || !/^0x[0-9a-f]{40}$/.test(address)) return Promise.resolve(undefined);
    let p = this.verified.get(address);
    if (!p) {
      const n = this.host.network();
      const url = `${n.verifyUrl.replace(/\/+$/, '')}/v2/contract/${n.chainId}/${address}?fields=stdJsonInput,stdJsonOutput,compilation`;
      p = n.http.get<unknown>(url, { signal, acceptStatus: [404] }).then(
        (res) => (res.status === 404 ? undefined : sourcifyAsBuild(res.data, address)),
        (e: unknown) => {
          this.host.log?.(
            'warn',
            `Sourcify look-up of ${address} failed: ${e instanceof Error ? e.message : String(e)}`,
          );
          return undefined;
        },
      );
      this.verified.set(address, p);
    }
    return p;
  }
}

/** Sourcify v2's answer as a build of one contract (its sources read-only: they are not the workspace's). */
function sourcifyAsBuild(data: unknown, address: string): ResolvedFrameBuild | undefined {
  const v = verifiedBuildOf(data);
  if (!v) return undefined;
  // folder -1: no workspace folder (its places open as read-only documents of the verified sources)
  const built: BuiltContract = {
    identifier: v.identifier,
    sourceName: v.sourceName,
    contractName: v.contractName,
    contract: v.contract,
    build: { build: v.build, folder: -1, file: `Sourcify ${address}` },
  };
  return { build: v.build, contract: v.identifier, built };
}

/** The workspace's build of a failed deployment, found by its init code (nothing on chain to compare with). */
export function creationBuild(builds: DeployedBuilds, initCode: string): ResolvedFrameBuild | { problem: string } {
  const built = builds.findCreation(initCode);
  if (!built) return { problem: l10n.t('No build of the workspace has the creation code this deployment ran.') };
  return { build: built.build.build, contract: built.identifier, part: 'creation', built };
}
