/**
 * The workspace's deployment records as the Deployments view and the CodeLens use them: which contract (by name,
 * and by source file when the record says it) is at which address on which chain, and in which record file. Built
 * from the address discovery of src/workspace/discovery.ts (Hardhat Ignition, hardhat-deploy, Foundry broadcast;
 * `.env` values and settings are not deployment records and are left out). Plain TypeScript, no vscode.
 */
import { CHAIN_NAMES, isChainId } from '../../api/networks';
import type { AddressCandidate, CandidateSource } from '../../workspace/discovery';

export type RecordSource = Extract<CandidateSource, 'ignition' | 'hardhat-deploy' | 'foundry'>;
export const RECORD_SOURCES: readonly RecordSource[] = ['ignition', 'hardhat-deploy', 'foundry'];

/**
 * The record files, as a glob relative to a workspace folder (the file watcher's): Ignition's addresses, the journal
 * it names contracts by and the artifacts it kept (listed, not read), hardhat-deploy's records and `.chainId`, Foundry's latest broadcasts.
 */
export const RECORD_GLOB =
  '{ignition/deployments/*/deployed_addresses.json,ignition/deployments/*/artifacts/*.json,ignition/deployments/*/journal.jsonl,deployments/*/*.json,deployments/*/.chainId,broadcast/**/run-latest.json}';

/** The folders records are written in (their creation or removal is watched: a new folder's file events can be missed). */
export const RECORD_DIRS_GLOB =
  '{ignition,ignition/deployments,ignition/deployments/*,deployments,deployments/*,broadcast,broadcast/**}';

/** One deployed contract of the records. */
export interface DeploymentEntry {
  /** `<chain>:<address>` (`?` for a record without a chain): one entry per contract and chain, whatever the folders. */
  key: string;
  /** The contract's name (Ignition: the journal's contractName, else the future id's; hardhat-deploy: the compilation target's, else the file's; Foundry: the transaction's). '' when no record names it. */
  name: string;
  /** 0x and 40 lowercase hex digits. */
  address: string;
  /** The entity id, when the record held one (rare: records hold EVM addresses). */
  entityId?: string;
  chainId?: number;
  /** The chain was read from a hardhat-deploy network folder's name (`hedera_testnet`), the record having no `.chainId`. */
  chainFromFolderName?: boolean;
  source: RecordSource;
  /** For people: `ignition/deployments/chain-296/deployed_addresses.json › InspectorModule#Vault`. */
  where: string;
  /** The record file, relative to its workspace folder. */
  file: string;
  /** The workspace folder the record is in (its URI as text). */
  folderKey: string;
  folderName?: string;
  /** `contracts/Vault.sol`, when the record names the source (an Ignition journal's fully qualified name, hardhat-deploy metadata). */
  sourcePath?: string;
  /** Hardhat Ignition's artifact of the deployment (it names the build deployed), relative to the folder. */
  deploymentArtifact?: string;
  /** Other records of the same contract on the same chain. */
  alsoIn: string[];
}

/** The candidates discovery found in one workspace folder. */
export interface FolderCandidates {
  key: string;
  name?: string;
  candidates: AddressCandidate[];
}

const isRecordSource = (s: CandidateSource): s is RecordSource => (RECORD_SOURCES as readonly string[]).includes(s);

/**
 * The Hedera chain a hardhat-deploy network folder's name stands for (`hedera_testnet`, `hederaMainnet`,
 * `previewnet`), or undefined (`localhost`, `hardhat`, anything else).
 */
export function chainFromNetworkName(name: string): number | undefined {
  const n = name.toLowerCase();
  if (/previewnet/.test(n)) return 297;
  if (/testnet/.test(n)) return 296;
  if (/mainnet/.test(n)) return 295;
  return undefined;
}

/** The key of a contract on a chain: `296:0x…`, `?:0x…`. */
export const entryKey = (chainId: number | undefined, address: string): string =>
  `${chainId ?? '?'}:${address.toLowerCase()}`;

/**
 * The deployed contracts of every folder's records, in the records' order (Ignition, hardhat-deploy, Foundry; files
 * in name order), one entry per chain and address: the same contract found in several records or folders is one
 * entry listing the others in `alsoIn`.
 */
export function deploymentEntries(folders: FolderCandidates[]): DeploymentEntry[] {
  const out: DeploymentEntry[] = [];
  const byKey = new Map<string, DeploymentEntry>();
  for (const folder of folders) {
    for (const c of folder.candidates) {
      if (!isRecordSource(c.source) || !c.file) continue;
      let chainId = c.chainId;
      let chainFromFolderName: boolean | undefined;
      if (chainId === undefined && c.source === 'hardhat-deploy') {
        chainId = chainFromNetworkName(c.file.split('/')[1] ?? '');
        if (chainId !== undefined) chainFromFolderName = true;
      }
      const address = c.address.toLowerCase();
      const key = entryKey(chainId, address);
      const same = byKey.get(key);
      if (same) {
        same.alsoIn.push(c.where, ...c.alsoIn);
        if (!same.name) same.name = c.build?.contractName ?? c.contractName ?? '';
        same.sourcePath ??= c.build?.sourcePath;
        same.entityId ??= c.entityId;
        continue;
      }
      const entry: DeploymentEntry = {
        key,
        name: c.build?.contractName ?? c.contractName ?? '',
        address,
        chainId,
        source: c.source,
        where: c.where,
        file: c.file,
        folderKey: folder.key,
        alsoIn: [...c.alsoIn],
        ...(c.entityId ? { entityId: c.entityId } : {}),
        ...(chainFromFolderName ? { chainFromFolderName } : {}),
        ...((folder.name ?? c.folder) ? { folderName: folder.name ?? c.folder } : {}),
        ...(c.build?.sourcePath ? { sourcePath: c.build.sourcePath } : {}),
        ...(c.build?.deploymentArtifact ? { deploymentArtifact: c.build.deploymentArtifact } : {}),
      };
      byKey.set(key, entry);
      out.push(entry);
    }
  }
  return out;
}

/** The entries of one chain. */
export function entriesOnChain(entries: DeploymentEntry[], chainId: number): DeploymentEntry[] {
  return entries.filter((e) => e.chainId === chainId);
}

/** Entries grouped by chain: Hedera's chains in order (295, 296, 297, 298), then records without a chain. */
export function groupByChain(
  entries: DeploymentEntry[],
): Array<{ chainId: number | undefined; entries: DeploymentEntry[] }> {
  const groups = new Map<number | undefined, DeploymentEntry[]>();
  for (const e of entries) {
    const list = groups.get(e.chainId) ?? [];
    list.push(e);
    groups.set(e.chainId, list);
  }
  const rank = (c: number | undefined) => (c === undefined ? Number.MAX_SAFE_INTEGER : c);
  return [...groups.entries()]
    .sort((a, b) => rank(a[0]) - rank(b[0]))
    .map(([chainId, list]) => ({ chainId, entries: list }));
}

/** "Hedera testnet (chain 296)", "chain 12345", "no chain in the record". */
export function chainLabel(chainId: number | undefined): string {
  if (chainId === undefined) return 'no chain in the record';
  return isChainId(chainId) ? `${CHAIN_NAMES[chainId]} (chain ${chainId})` : `chain ${chainId}`;
}

const norm = (p: string): string => p.replace(/\\/g, '/').replace(/^\.\//, '').replace(/^\/+/, '');

/**
 * Whether a record's source (`contracts/Vault.sol`; Hardhat 3 writes `project/contracts/Vault.sol`) is the file at
 * `docPath` (relative to its workspace folder): the same path, or the path of a project in a subfolder.
 */
export function sameSource(recordSource: string, docPath: string): boolean {
  const d = norm(docPath);
  const candidates = [norm(recordSource), norm(recordSource).replace(/^project\//, '')];
  return candidates.some((s) => s !== '' && (d === s || d.endsWith(`/${s}`)));
}

/**
 * The deployments of the contract `name` declared in the file at `docPath` (relative to its workspace folder;
 * undefined for a file outside the workspace) on chain `chainId`: the records that name it, on that chain, and whose
 * source (when the record gives one) is that file.
 */
export function deploymentsOf(
  entries: DeploymentEntry[],
  name: string,
  docPath: string | undefined,
  chainId: number,
  folderKey?: string,
): DeploymentEntry[] {
  // with several workspace folders, a record speaks for the contracts of its own folder only
  return entries.filter(
    (e) =>
      e.name === name &&
      e.chainId === chainId &&
      (folderKey === undefined || e.folderKey === folderKey) &&
      (!e.sourcePath || docPath === undefined || sameSource(e.sourcePath, docPath)),
  );
}
