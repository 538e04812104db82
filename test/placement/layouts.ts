/**
 * The placement matrix's projects as the extension's workspace readers see them. The projects themselves (one
 * setting's compiler output and the addresses its contracts were deployed at, written as Hardhat 2, Hardhat 3 or
 * Foundry writes them) are written by the sandbox's sandbox/src/placement/layouts.ts, which the sandbox's placement
 * ledger (`--placement`) writes its workspace with too; here they are read back: each failing frame's build FOUND by
 * the readers (files on disk → deployment records → the build of the deployed contract → placement) instead of
 * handed over.
 *
 * `resolveFrameBuild` is the one seam between the matrix and the readers (records from `discoverAddresses` through
 * `deploymentsFromWorkspace`, the one resolver of the build deployed: `DeployedBuilds.read`, `.resolve` / `.findCreation`), as
 * src/features/inspector/revertSource.ts resolves a frame: keep it the only place that knows how.
 */
import * as path from 'path';
import type { DeployedContract } from '../../src/api/decode/derivation';
import type { FrameBuild } from '../../src/api/source/locate';
import { deploymentsFromWorkspace } from '../../src/workspace/derivation';
import { attachOutput } from '../../src/workspace/buildInfo';
import { CompileCache, produceOutput } from '../../src/workspace/compiler';
import { DeployedBuilds, explainBuild } from '../../src/workspace/deployedBuild';
import type { WorkspaceFs } from '../../src/workspace/workspaceFs';
import { CHAIN_ID, type Deployment } from '../../sandbox/src/placement/layouts';
import { nodeWorkspaceFs } from '../support/nodeFs';

export {
  CHAIN_ID,
  type CompiledBuild,
  type DeployedRecord,
  type Deployment,
  LAYOUTS,
  type Layout,
  type ProjectLayout,
  type SolcVersion,
  type WrittenLayout,
  canonicalSource,
  removeLayout,
  sourceRoot,
  writeLayout,
} from '../../sandbox/src/placement/layouts';

/** The repository (its node_modules holds npm solc 0.8.28: the "user's compiler" of the layouts). */
const ROOT = path.join(__dirname, '../../..');

const contractName = (id: string): string => id.slice(id.lastIndexOf(':') + 1);

/** A project folder, as the readers see it (nodeWorkspaceFs over it). What they read from it is kept in `memo`. */
export interface LayoutWorkspace {
  fs: WorkspaceFs;
  chainId: number;
  /** What resolveFrameBuild read, once per project (its own business: the swap of the resolver changes only it). */
  memo: { readers?: Promise<{ deployments: DeployedContract[]; builds: DeployedBuilds }> };
}

export function openLayout(dir: string): LayoutWorkspace {
  return { fs: nodeWorkspaceFs(dir), chainId: CHAIN_ID, memo: {} };
}

/**
 * The deployed contracts whose deployment record the readers do not give (address, chain 296, contract name), as
 * `Name at address`: every frame's build must be found through its record, not by its code alone.
 */
export async function missingRecords(ws: LayoutWorkspace, d: Deployment): Promise<string[]> {
  // the records as the ABI index hands them to the inspector (discoverAddresses over the folder)
  const records = await deploymentsFromWorkspace([ws.fs]);
  return d.contracts
    .filter(
      (c) =>
        !records.some(
          (r) =>
            r.address === c.address.toLowerCase() && r.chainId === ws.chainId && r.contractName === contractName(c.id),
        ),
    )
    .map((c) => `${contractName(c.id)} at ${c.address}`);
}

/** The build found for a frame, and the file it came from. */
export type ResolvedFrameBuild = FrameBuild & { file: string };

/**
 * THE SEAM: the build of one frame of a failed call, found by the workspace readers as the inspector finds it
 * (src/features/inspector/revertSource.ts `buildOf` / `creationBuild`): a failed deployment by its init code
 * (`findCreation`); a called contract by its address on chain 296, the deployment records (`discoverAddresses`, through
 * `deploymentsFromWorkspace` as the ABI index gives them) and the runtime code on chain (what the mirror node's
 * `/contracts/{id}` gives), with `DeployedBuilds.resolve`; a deployed build held as input only is compiled with the
 * user's solc first (`produceOutput`). A `problem` says why there is none (a record naming a contract
 * whose builds all differ from the code on chain, or nothing at all). When the workspace's single "deployed build"
 * resolver changes, this function is the one to change.
 */
export async function resolveFrameBuild(
  ws: LayoutWorkspace,
  frame: { address?: string; creation?: { initCode: string } },
  runtimeBytecode: string | undefined,
): Promise<ResolvedFrameBuild | { problem: string }> {
  ws.memo.readers ??= (async () => ({
    deployments: await deploymentsFromWorkspace([ws.fs]),
    builds: await DeployedBuilds.read([ws.fs]),
  }))();
  const { deployments, builds } = await ws.memo.readers;
  if (frame.creation) {
    const built = builds.findCreation(frame.creation.initCode);
    if (!built) return { problem: 'no build of the workspace has the creation code this deployment ran' };
    return { build: built.build.build, contract: built.identifier, part: 'creation', file: built.build.file };
  }
  if (!frame.address) return { problem: 'the frame has no address' };
  const resolve = () =>
    builds.resolve([frame.address as string], { chainId: ws.chainId, deployments, runtimeBytecode });
  let found = await resolve();
  // the deployed build held as input only (Hardhat 3: Ignition's copy without output): its output produced with the
  // user's compiler, as the inspector does (src/core/missingOutputs.ts), here npm solc in the repository
  const missing = found && !found.built && !found.code ? found.match.build : undefined;
  if (missing) {
    const r = await produceOutput(missing.compilerVersion, missing.input, {
      workspaceRoots: [ROOT],
      cache: new CompileCache(path.join(ROOT, 'out/placement-cache/produced')),
    });
    if (!('output' in r))
      return {
        problem: `${missing.file} holds the input only and could not be compiled (${'missing' in r ? 'no solc of its version' : r.errors[0]})`,
      };
    attachOutput(missing, r.output);
    found = await resolve();
  }
  if (!found) return { problem: `no build of ${frame.address} in the workspace` };
  if (!found.built || (found.code && !found.code.match)) return { problem: `${frame.address}: ${explainBuild(found)}` };
  return {
    build: found.built.build.build,
    contract: found.built.identifier,
    match: found.code,
    file: found.built.build.file,
  };
}
