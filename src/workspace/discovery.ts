/**
 * Where the contract to verify comes from, in this order: the `hederaExplorer.contractAddress` setting, the
 * editor selection, then the workspace's deployment records: Hardhat Ignition
 * (`ignition/deployments/<id>/deployed_addresses.json`), hardhat-deploy (`deployments/<network>/*.json`),
 * Foundry (`broadcast/**\/<chainId>/run-latest.json`) and `.env` files (`CONTRACT_ADDRESS`, `CONTRACT_ID`,
 * `TOKEN_CONTRACT_ADDRESS`, ...). Each candidate says where it came from. Plain TypeScript over `WorkspaceFs`.
 */
import { isChainId } from '../api/networks';
import { addressFromSelection, parseContractAddress } from './address';
import { joinPath, readJson, readText, walk, type WorkspaceFs } from './workspaceFs';

export type CandidateSource = 'setting' | 'selection' | 'ignition' | 'hardhat-deploy' | 'foundry' | 'env' | 'input';

/** What a deployment record tells about the build, when it says it (hardhat-deploy records do). */
export interface BuildHint {
  /** `path/to/File.sol` of the compilation target. */
  sourcePath?: string;
  contractName?: string;
  compilerVersion?: string;
  /** A standard JSON input file in the workspace (hardhat-deploy `solcInputs/<hash>.json`). */
  stdJsonInputFile?: string;
  /** The artifact the deployment was made from (Hardhat Ignition `ignition/deployments/<id>/artifacts/<futureId>.json`): names its build. */
  deploymentArtifact?: string;
}

export interface AddressCandidate {
  /** 0x and 40 lowercase hex digits. */
  address: string;
  /** The entity id, when the record held one. */
  entityId?: string;
  source: CandidateSource;
  /** Where it was found, for people: `ignition/deployments/chain-296/deployed_addresses.json › CounterModule#Counter`. */
  where: string;
  /** The file it came from (relative to the folder). */
  file?: string;
  /** The workspace folder's name, when it came from a folder. */
  folder?: string;
  contractName?: string;
  /** The chain the record belongs to, when the record says. */
  chainId?: number;
  /** The creating transaction, when the record has it (helps Sourcify find the creation bytecode). */
  creationTxHash?: string;
  /** The runtime bytecode on chain, when the mirror node was asked (chooses between builds of the same contract). */
  runtimeBytecode?: string;
  build?: BuildHint;
  /** Other places the same address was found. */
  alsoIn: string[];
}

export interface DiscoveryInput {
  /** Value of `hederaExplorer.contractAddress`. */
  setting?: string;
  /** The editor's selected text (empty when nothing is selected). */
  selection?: string;
  /** Workspace folders to search for deployment records. */
  folders?: WorkspaceFs[];
  /** The chain of the selected network: candidates of this chain come first within each kind of record. */
  chainId?: number;
}

export interface Discovery {
  candidates: AddressCandidate[];
  /** Values that were given but are not addresses (setting, selection): one sentence each. Stops the command. */
  rejected: Array<{ source: 'setting' | 'selection'; message: string }>;
  /** Records that were skipped, with why (for the log): other chains, unreadable files, placeholder values. */
  skipped: string[];
}

const SOURCE_ORDER: CandidateSource[] = ['setting', 'selection', 'ignition', 'hardhat-deploy', 'foundry', 'env', 'input'];

const obj = (v: unknown): Record<string, unknown> => (v && typeof v === 'object' && !Array.isArray(v) ? (v as Record<string, unknown>) : {});
const str = (v: unknown): string | undefined => (typeof v === 'string' && v.trim() ? v.trim() : undefined);
const TX_HASH = /^0x[0-9a-fA-F]{64}$/;
const txHash = (v: unknown): string | undefined => (typeof v === 'string' && TX_HASH.test(v) ? v.toLowerCase() : undefined);

/** A chain id from a number or a decimal/hex string. */
function chainOf(v: unknown): number | undefined {
  if (typeof v === 'number' && Number.isSafeInteger(v) && v > 0) return v;
  if (typeof v === 'string' && /^\d{1,12}$/.test(v.trim())) return Number(v.trim());
  if (typeof v === 'string' && /^0x[0-9a-f]{1,12}$/i.test(v.trim())) return Number(v.trim());
  return undefined;
}

type Draft = Omit<AddressCandidate, 'alsoIn' | 'address' | 'entityId'> & { value: string };

class Collector {
  readonly drafts: AddressCandidate[] = [];
  readonly skipped: string[] = [];

  add(d: Draft): void {
    if (d.chainId !== undefined && !isChainId(d.chainId)) {
      this.skipped.push(`${d.where}: chain ${d.chainId} is not a Hedera network (295, 296, 297, 298).`);
      return;
    }
    const p = parseContractAddress(d.value);
    if (!p.ok) {
      this.skipped.push(`${d.where}: ${p.message}`);
      return;
    }
    const { value: _value, ...rest } = d;
    void _value;
    this.drafts.push({ ...rest, address: p.value.address, entityId: p.value.entityId, alsoIn: [] });
  }
}

/** How many record files are read at once. */
const READ_CONCURRENCY = 32;

/** `fn` over every item, at most `limit` at a time; the results in the items' order. A failure gives undefined. */
async function mapBounded<T, R>(items: readonly T[], limit: number, fn: (item: T) => Promise<R>): Promise<Array<R | undefined>> {
  const out: Array<R | undefined> = new Array(items.length);
  let next = 0;
  const worker = async (): Promise<void> => {
    while (next < items.length) {
      const i = next++;
      try {
        out[i] = await fn(items[i]);
      } catch {
        out[i] = undefined;
      }
    }
  };
  await Promise.all(Array.from({ length: Math.min(limit, items.length) }, worker));
  return out;
}

/* ------------------------------------------------------------ Hardhat Ignition */

async function ignition(fs: WorkspaceFs, c: Collector): Promise<void> {
  const base = 'ignition/deployments';
  for (const d of (await fs.list(base)).filter((e) => e.dir).sort((a, b) => a.name.localeCompare(b.name))) {
    const file = joinPath(base, d.name, 'deployed_addresses.json');
    const json = await readJson(fs, file);
    if (json === undefined) continue;
    let chainId = /^chain-(\d+)$/.exec(d.name) ? Number(/^chain-(\d+)$/.exec(d.name)?.[1]) : undefined;
    if (chainId === undefined) {
      // a custom --deployment-id: the journal's first line has {"chainId":296,"type":"DEPLOYMENT_INITIALIZE"}
      const journal = await readText(fs, joinPath(base, d.name, 'journal.jsonl'));
      const first = journal?.split('\n', 1)[0];
      try {
        chainId = chainOf(obj(first ? JSON.parse(first) : undefined).chainId);
      } catch {
        /* no chain */
      }
    }
    const entries = Object.entries(obj(json)).filter((e): e is [string, string] => typeof e[1] === 'string');
    // Ignition keeps the artifact it deployed (contractName, sourceName; Hardhat 3: buildInfoId): read in parallel,
    // a bounded number at a time (a deployment of thousands of contracts), added in the record's order
    const artifacts = await mapBounded(entries, READ_CONCURRENCY, ([futureId]) => readJson(fs, joinPath(base, d.name, 'artifacts', `${futureId}.json`)));
    for (const [k, [futureId, value]] of entries.entries()) {
      let name = futureId.includes('#') ? futureId.slice(futureId.lastIndexOf('#') + 1) : futureId;
      const artifactFile = joinPath(base, d.name, 'artifacts', `${futureId}.json`);
      const artifact = obj(artifacts[k]);
      const build: BuildHint = {};
      if (str(artifact.contractName)) {
        name = str(artifact.contractName) ?? name;
        build.contractName = name;
        build.sourcePath = str(artifact.sourceName);
        build.deploymentArtifact = artifactFile;
      }
      c.add({ value, source: 'ignition', where: `${file} › ${futureId}`, file, folder: fs.name, contractName: name || undefined, chainId, ...(Object.keys(build).length ? { build } : {}) });
    }
  }
}

/* ------------------------------------------------------------ hardhat-deploy */

async function hardhatDeploy(fs: WorkspaceFs, c: Collector): Promise<void> {
  const base = 'deployments';
  for (const d of (await fs.list(base)).filter((e) => e.dir).sort((a, b) => a.name.localeCompare(b.name))) {
    const dir = joinPath(base, d.name);
    const chainId = chainOf((await readText(fs, joinPath(dir, '.chainId')))?.trim());
    const files = (await fs.list(dir)).filter((e) => !e.dir && e.name.endsWith('.json') && !e.name.startsWith('.')).map((e) => e.name).sort();
    const records = await mapBounded(files, READ_CONCURRENCY, (name) => readJson(fs, joinPath(dir, name)));
    for (const [k, name] of files.entries()) {
      const file = joinPath(dir, name);
      const rec = obj(records[k]);
      const value = str(rec.address);
      if (!value) continue;
      const deployment = name.replace(/\.json$/, '');
      const build: BuildHint = {};
      try {
        const meta = obj(typeof rec.metadata === 'string' ? JSON.parse(rec.metadata) : rec.metadata);
        const target = Object.entries(obj(obj(meta.settings).compilationTarget))[0];
        if (target && typeof target[1] === 'string') {
          build.sourcePath = target[0];
          build.contractName = target[1];
        }
        build.compilerVersion = str(obj(meta.compiler).version);
      } catch {
        /* metadata is optional */
      }
      const inputHash = str(rec.solcInputHash);
      if (inputHash && /^[0-9a-zA-Z]+$/.test(inputHash)) build.stdJsonInputFile = joinPath(dir, 'solcInputs', `${inputHash}.json`);
      c.add({
        value, source: 'hardhat-deploy', where: `${file}${d.name ? ` (${d.name})` : ''}`, file, folder: fs.name,
        contractName: build.contractName ?? deployment, chainId, creationTxHash: txHash(rec.transactionHash), build,
      });
    }
  }
}

/* ------------------------------------------------------------ Foundry */

async function foundry(fs: WorkspaceFs, c: Collector): Promise<void> {
  const files = await walk(fs, 'broadcast', { maxDepth: 5, maxFiles: 500, accept: (p) => /\/\d+\/run-latest\.json$/.test(p) && !/\/dry-run\//.test(p) });
  for (const file of files) {
    const chainId = Number(/\/(\d+)\/run-latest\.json$/.exec(file)?.[1]);
    const script = file.split('/')[1] ?? '';
    const run = obj(await readJson(fs, file));
    const txs = Array.isArray(run.transactions) ? run.transactions.map(obj) : [];
    for (const tx of txs) {
      const type = str(tx.transactionType);
      if (type === 'CREATE' || type === 'CREATE2') {
        const value = str(tx.contractAddress);
        if (value) {
          const name = str(tx.contractName);
          c.add({ value, source: 'foundry', where: `${file} › ${name ?? type}${script ? ` (${script})` : ''}`, file, folder: fs.name, contractName: name, chainId, creationTxHash: txHash(tx.hash) });
        }
      }
      for (const extra of Array.isArray(tx.additionalContracts) ? tx.additionalContracts.map(obj) : []) {
        const value = str(extra.address);
        if (value) c.add({ value, source: 'foundry', where: `${file} › ${str(extra.contractName) ?? 'created contract'}`, file, folder: fs.name, contractName: str(extra.contractName), chainId });
      }
    }
  }
}

/* ------------------------------------------------------------ .env */

/** Keys that name a contract's address or id: CONTRACT_ADDRESS, CONTRACT_ID, TOKEN_CONTRACT_ADDRESS, CONTRACT_ADDRESS_TESTNET... */
export function isContractKey(key: string): boolean {
  const k = key.toUpperCase();
  return /(^|_)CONTRACT(_|$)/.test(k) && /(^|_)(ADDRESS|ADDR|ID)(_|$)/.test(k);
}

/** `KEY=value` lines of a dotenv file (export prefix, quotes and trailing comments handled). */
export function parseDotenv(text: string): Array<{ key: string; value: string; line: number }> {
  const out: Array<{ key: string; value: string; line: number }> = [];
  text.split(/\r?\n/).forEach((raw, i) => {
    const m = /^\s*(?:export\s+)?([A-Za-z_][A-Za-z0-9_.-]*)\s*[=:]\s*(.*?)\s*$/.exec(raw);
    if (!m) return;
    let v = m[2];
    const q = /^(['"`])(.*?)\1/.exec(v);
    if (q) v = q[2];
    else v = v.replace(/\s+#.*$/, '').trim();
    out.push({ key: m[1], value: v, line: i + 1 });
  });
  return out;
}

async function dotenv(fs: WorkspaceFs, c: Collector): Promise<void> {
  const names = (await fs.list('')).filter((e) => !e.dir && /^\.env(\..+)?$/.test(e.name) && !/\.(example|sample|template|dist)$/i.test(e.name)).map((e) => e.name);
  names.sort((a, b) => (a === '.env' ? -1 : b === '.env' ? 1 : a.localeCompare(b)));
  for (const name of names) {
    const text = await readText(fs, name);
    if (text === undefined) continue;
    for (const { key, value, line } of parseDotenv(text)) {
      if (!isContractKey(key) || !value) continue;
      c.add({ value, source: 'env', where: `${name}:${line} › ${key}`, file: name, folder: fs.name });
    }
  }
}

/* ------------------------------------------------------------ all together */

/** Merges duplicates (same address): the first keeps its place, later ones are listed in `alsoIn` and fill gaps. */
function merge(list: AddressCandidate[]): AddressCandidate[] {
  const out: AddressCandidate[] = [];
  // by address, so that thousands of records merge in linear time
  const byAddress = new Map<string, AddressCandidate[]>();
  for (const c of list) {
    const kept = byAddress.get(c.address) ?? [];
    const same = kept.find((o) => o.chainId === undefined || c.chainId === undefined || o.chainId === c.chainId);
    if (!same) {
      out.push(c);
      kept.push(c);
      byAddress.set(c.address, kept);
      continue;
    }
    same.alsoIn.push(c.where);
    same.chainId ??= c.chainId;
    same.contractName ??= c.contractName;
    same.creationTxHash ??= c.creationTxHash;
    same.entityId ??= c.entityId;
    if (!same.build || !Object.keys(same.build).length) same.build = c.build;
  }
  return out;
}

/** Runs every finder over every folder and returns the candidates in the documented order. */
export async function discoverAddresses(input: DiscoveryInput): Promise<Discovery> {
  const rejected: Discovery['rejected'] = [];
  const c = new Collector();
  const setting = input.setting?.trim();
  if (setting) {
    const p = parseContractAddress(setting);
    if (p.ok) c.drafts.push({ address: p.value.address, entityId: p.value.entityId, source: 'setting', where: 'Setting hederaExplorer.contractAddress', alsoIn: [] });
    else rejected.push({ source: 'setting', message: `The setting hederaExplorer.contractAddress is not usable: ${p.message}` });
  }
  const selection = input.selection?.trim();
  if (selection) {
    const p = addressFromSelection(selection);
    if (p.ok) c.drafts.push({ address: p.value.address, entityId: p.value.entityId, source: 'selection', where: 'Editor selection', alsoIn: [] });
    else rejected.push({ source: 'selection', message: p.message });
  }
  for (const fs of input.folders ?? []) {
    for (const finder of [ignition, hardhatDeploy, foundry, dotenv]) {
      try {
        await finder(fs, c);
      } catch (e) {
        c.skipped.push(`${fs.name}: ${e instanceof Error ? e.message : String(e)}`);
      }
    }
  }
  // documented order by kind; within a kind, the selected network's chain first (stable otherwise)
  const rank = (x: AddressCandidate) => SOURCE_ORDER.indexOf(x.source) * 10 + (input.chainId !== undefined && x.chainId !== undefined && x.chainId !== input.chainId ? 1 : 0);
  const sorted = c.drafts.map((d, i) => ({ d, i })).sort((a, b) => rank(a.d) - rank(b.d) || a.i - b.i).map((x) => x.d);
  return { candidates: merge(sorted), rejected, skipped: c.skipped };
}

/** Short label of a source for quick picks: "Hardhat Ignition", "Foundry broadcast"... */
export function sourceLabel(s: CandidateSource): string {
  switch (s) {
    case 'setting': return 'Setting';
    case 'selection': return 'Selection';
    case 'ignition': return 'Hardhat Ignition';
    case 'hardhat-deploy': return 'hardhat-deploy';
    case 'foundry': return 'Foundry broadcast';
    case 'env': return 'Environment file';
    case 'input': return 'Typed';
  }
}
