/**
 * Where the contract to verify comes from, in this order: the `hederaExplorer.contractAddress` setting, the
 * editor selection, then the workspace's deployment records: Hardhat Ignition
 * (`ignition/deployments/<id>/deployed_addresses.json`), hardhat-deploy (`deployments/<network>/*.json`),
 * Foundry (`broadcast/**\/<chainId>/run-latest.json`) and `.env` files (`CONTRACT_ADDRESS`, `CONTRACT_ID`,
 * `TOKEN_CONTRACT_ADDRESS`, ...). Each candidate says where it came from. Plain TypeScript over `WorkspaceFs`.
 */
import * as l10n from '@vscode/l10n';
import { isChainId } from '../api/networks';
import { addressFromSelection, parseContractAddress } from './address';
import { joinPath, MAX_READ_BYTES, readJson, readText, walk, type WorkspaceFs } from './workspaceFs';

export type CandidateSource = 'setting' | 'selection' | 'ignition' | 'hardhat-deploy' | 'foundry' | 'env' | 'input';

/** What a deployment record tells about the build, when it says it (hardhat-deploy records do). */
export interface BuildHint {
  /** `path/to/File.sol` of the compilation target. */
  sourcePath?: string;
  contractName?: string;
  compilerVersion?: string;
  /** A standard JSON input file in the workspace (hardhat-deploy `solcInputs/<hash>.json`). */
  stdJsonInputFile?: string;
  /**
   * The artifact the deployment was made from (Hardhat Ignition `ignition/deployments/<id>/artifacts/<futureId>.json`,
   * when the folder has it): names its build. A path: discovery does not read it, whoever needs the build does.
   */
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

const SOURCE_ORDER: CandidateSource[] = [
  'setting',
  'selection',
  'ignition',
  'hardhat-deploy',
  'foundry',
  'env',
  'input',
];

const obj = (v: unknown): Record<string, unknown> =>
  v && typeof v === 'object' && !Array.isArray(v) ? (v as Record<string, unknown>) : {};
const str = (v: unknown): string | undefined => (typeof v === 'string' && v.trim() ? v.trim() : undefined);
const TX_HASH = /^0x[0-9a-fA-F]{64}$/;
const txHash = (v: unknown): string | undefined =>
  typeof v === 'string' && TX_HASH.test(v) ? v.toLowerCase() : undefined;

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
async function mapBounded<T, R>(
  items: readonly T[],
  limit: number,
  fn: (item: T) => Promise<R>,
): Promise<Array<R | undefined>> {
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

/** What a deployment's journal (`journal.jsonl`) says: its chain, and the contract of each future by future id. */
export interface IgnitionJournal {
  chainId?: number;
  /** futureId → the contract's name (`Token`) and, when the module named it fully qualified, its source (`contracts/Token.sol`). */
  contracts: Map<string, { contractName: string; sourcePath?: string }>;
}

const enc = new TextEncoder();
/** The journal lines read: the deployment's chain, and the futures that put a contract at an address (deployed or `contractAt`). */
const JOURNAL_TYPES = [
  'DEPLOYMENT_INITIALIZE',
  'DEPLOYMENT_EXECUTION_STATE_INITIALIZE',
  'CONTRACT_AT_EXECUTION_STATE_INITIALIZE',
];
const JOURNAL_MARKS = JOURNAL_TYPES.map((t) => enc.encode(`"${t}"`));
const [Z, E, QUOTE, NL] = [0x5a, 0x45, 0x22, 0x0a];
/** A Solidity identifier (Ignition checks a contract name's last part against the same rule). */
const SOLIDITY_ID = /^[A-Za-z$_][A-Za-z0-9$_]*$/;
const SOURCE_PATH = /^[^\u0000-\u001f\u007f]{1,1024}$/;
/** Read in pieces, a line longer than this is passed over (an initialize message is a few hundred bytes). */
const MAX_JOURNAL_LINE = 16 * 1024 * 1024;

/** Node's Buffer, where there is one (the extension host): its indexOf of a byte is memchr, ten times faster than a typed array's. */
const NodeBuffer = (globalThis as { Buffer?: { from(b: ArrayBufferLike, offset: number, length: number): Uint8Array } })
  .Buffer;
/** The same bytes, searched as fast as the platform can (no copy). */
const searchable = (b: Uint8Array): Uint8Array =>
  NodeBuffer
    ? NodeBuffer.from(b.buffer, b.byteOffset, b.byteLength)
    : new Uint8Array(b.buffer, b.byteOffset, b.byteLength);

/** Whether `bytes` holds `mark` ending just before `end`. */
function endsWith(bytes: Uint8Array, end: number, mark: Uint8Array): boolean {
  const start = end - mark.length;
  if (start < 0) return false;
  for (let i = 0; i < mark.length; i++) if (bytes[start + i] !== mark[i]) return false;
  return true;
}

/**
 * The messages of the lines in `b[start, end)` (whole lines) that matter: only the lines holding one of
 * JOURNAL_TYPES as a JSON string are decoded and parsed, found by their bytes (each type ends in `INITIALIZE"`, so
 * by its `Z`, a letter that bytecode, addresses and hashes never hold).
 */
function scanJournal(
  bytes: Uint8Array,
  start: number,
  end: number,
  out: IgnitionJournal,
  decoder: { decode(b: Uint8Array): string },
): void {
  const b = searchable(bytes);
  let from = start;
  while (from < end) {
    const z = b.indexOf(Z, from);
    if (z < 0 || z >= end) break;
    from = z + 1;
    if (z + 2 >= end || b[z + 1] !== E || b[z + 2] !== QUOTE || !JOURNAL_MARKS.some((m) => endsWith(b, z + 3, m)))
      continue;
    const lineStart = Math.max(start, b.lastIndexOf(NL, z) + 1);
    let lineEnd = b.indexOf(NL, z);
    if (lineEnd < 0 || lineEnd > end) lineEnd = end;
    from = lineEnd + 1;
    let msg: Record<string, unknown>;
    try {
      msg = obj(JSON.parse(decoder.decode(b.subarray(lineStart, lineEnd))));
    } catch {
      continue;
    }
    if (msg.type === 'DEPLOYMENT_INITIALIZE') {
      out.chainId ??= chainOf(msg.chainId);
      continue;
    }
    if (
      typeof msg.type !== 'string' ||
      !JOURNAL_TYPES.includes(msg.type) ||
      typeof msg.futureId !== 'string' ||
      !msg.futureId ||
      typeof msg.contractName !== 'string'
    )
      continue;
    // `Token`, or fully qualified `contracts/Token.sol:Token`
    const fq = msg.contractName.trim();
    const colon = fq.lastIndexOf(':');
    const contractName = fq.slice(colon + 1);
    const sourcePath = colon >= 0 ? fq.slice(0, colon) : undefined;
    if (!SOLIDITY_ID.test(contractName) || (sourcePath !== undefined && !SOURCE_PATH.test(sourcePath))) continue;
    // a future initialized again (after `ignition wipe`) takes its last name
    out.contracts.set(msg.futureId, sourcePath ? { contractName, sourcePath } : { contractName });
  }
}

/**
 * Reads a Hardhat Ignition journal (Hardhat 2 and 3 write the same: one JSON message a line, keys sorted, each
 * message after a newline so the file starts with an empty line) for the deployment's chain
 * (`{"chainId":296,"type":"DEPLOYMENT_INITIALIZE"}`) and each future's contract name
 * (`DEPLOYMENT_EXECUTION_STATE_INITIALIZE`: contracts and libraries; `CONTRACT_AT_EXECUTION_STATE_INITIALIZE`). The
 * journal of thousands of futures is tens to hundreds of MB, mostly the transactions' bytecode: see scanJournal.
 * Malformed lines and values are passed over.
 */
export function readIgnitionJournal(bytes: Uint8Array): IgnitionJournal {
  const out: IgnitionJournal = { contracts: new Map() };
  scanJournal(bytes, 0, bytes.length, out, new TextDecoder('utf-8'));
  return out;
}

/** readIgnitionJournal over a journal given in consecutive pieces (`push` each, then `end`); lines may span pieces. */
export class IgnitionJournalReader {
  private readonly out: IgnitionJournal = { contracts: new Map() };
  private readonly decoder = new TextDecoder('utf-8');
  /** The line the last piece ended in, copied (a piece's buffer may be reused); dropped when longer than maxLine. */
  private carry: Uint8Array[] = [];
  private carryLength = 0;
  private skipping = false;

  constructor(private readonly maxLine = MAX_JOURNAL_LINE) {}

  push(piece: Uint8Array): void {
    const b = searchable(piece);
    let start = 0;
    if (this.carryLength || this.skipping) {
      const nl = b.indexOf(NL);
      if (nl < 0) return this.keep(b);
      this.keep(b.subarray(0, nl));
      this.flush();
      start = nl + 1;
    }
    const last = b.lastIndexOf(NL);
    if (last >= start) scanJournal(b, start, last, this.out, this.decoder);
    this.keep(b.subarray(Math.max(start, last + 1)));
  }

  end(): IgnitionJournal {
    this.flush();
    return this.out;
  }

  private keep(part: Uint8Array): void {
    if (this.skipping || !part.length) return;
    if (this.carryLength + part.length > this.maxLine) {
      [this.carry, this.carryLength, this.skipping] = [[], 0, true];
      return;
    }
    this.carry.push(new Uint8Array(part)); // a copy (a Buffer's slice() would be a view)
    this.carryLength += part.length;
  }

  private flush(): void {
    if (this.carryLength && !this.skipping) {
      const line = new Uint8Array(this.carryLength);
      let at = 0;
      for (const p of this.carry) {
        line.set(p, at);
        at += p.length;
      }
      scanJournal(line, 0, line.length, this.out, this.decoder);
    }
    [this.carry, this.carryLength, this.skipping] = [[], 0, false];
  }
}

/** A deployment's journal: in pieces when the file system can (no size limit), else whole (within the read limit); undefined when not read. */
async function readJournal(fs: WorkspaceFs, file: string): Promise<IgnitionJournal | undefined> {
  try {
    const pieces = fs.readPieces?.(file);
    if (pieces) {
      const reader = new IgnitionJournalReader();
      for await (const piece of pieces) reader.push(piece);
      return reader.end();
    }
  } catch {
    /* read it whole */
  }
  const bytes = await fs.read(file).catch(() => undefined);
  return bytes ? readIgnitionJournal(bytes) : undefined;
}

/**
 * `ignition/deployments/<id>/deployed_addresses.json`: the chain from the folder's name (`chain-296`) or the journal,
 * each contract's name from the journal (the name the module deployed it by, whatever the future's id) or else
 * from the future id (`Module#Name`). The artifacts Ignition kept (ABI and bytecode, 10–500 KB each) are listed, not
 * read: a deployment of thousands of contracts is one journal read, and whoever needs an artifact (the build it
 * names) reads it from `build.deploymentArtifact`.
 */
async function ignition(fs: WorkspaceFs, c: Collector): Promise<void> {
  const base = 'ignition/deployments';
  for (const d of (await fs.list(base)).filter((e) => e.dir).sort((a, b) => a.name.localeCompare(b.name))) {
    const dir = joinPath(base, d.name);
    const file = joinPath(dir, 'deployed_addresses.json');
    const json = await readJson(fs, file);
    if (json === undefined) continue;
    const journalFile = joinPath(dir, 'journal.jsonl');
    const [read, hasJournal, artifactFiles] = await Promise.all([
      readJournal(fs, journalFile),
      fs.list(dir).then(
        (l) => l.some((e) => !e.dir && e.name === 'journal.jsonl'),
        () => false,
      ),
      fs.list(joinPath(dir, 'artifacts')).then(
        (l) => new Set(l.filter((e) => !e.dir).map((e) => e.name)),
        () => new Set<string>(),
      ),
    ]);
    if (!read && hasJournal)
      c.skipped.push(
        `${journalFile}: not read (larger than ${MAX_READ_BYTES / 1024 / 1024} MB, or unreadable): contract names from the future ids.`,
      );
    const journal: IgnitionJournal = read ?? { contracts: new Map() };
    const folderChain = /^chain-(\d+)$/.exec(d.name);
    const chainId = folderChain ? Number(folderChain[1]) : journal.chainId;
    const artifactsDir = joinPath(dir, 'artifacts');
    for (const [futureId, value] of Object.entries(obj(json))) {
      if (typeof value !== 'string') continue;
      const named = journal.contracts.get(futureId);
      const name = named?.contractName ?? futureId.slice(futureId.lastIndexOf('#') + 1);
      // a listed file's name has no path separator: the path needs no joinPath
      const artifact = artifactFiles.has(`${futureId}.json`) ? `${artifactsDir}/${futureId}.json` : undefined;
      const build: BuildHint | undefined =
        named || artifact
          ? {
              ...(named ? { contractName: named.contractName } : {}),
              ...(named?.sourcePath ? { sourcePath: named.sourcePath } : {}),
              ...(artifact ? { deploymentArtifact: artifact } : {}),
            }
          : undefined;
      c.add({
        value,
        source: 'ignition',
        where: `${file} › ${futureId}`,
        file,
        folder: fs.name,
        contractName: name || undefined,
        chainId,
        ...(build ? { build } : {}),
      });
    }
  }
}

/* ------------------------------------------------------------ hardhat-deploy */

async function hardhatDeploy(fs: WorkspaceFs, c: Collector): Promise<void> {
  const base = 'deployments';
  for (const d of (await fs.list(base)).filter((e) => e.dir).sort((a, b) => a.name.localeCompare(b.name))) {
    const dir = joinPath(base, d.name);
    const chainId = chainOf((await readText(fs, joinPath(dir, '.chainId')))?.trim());
    const files = (await fs.list(dir))
      .filter((e) => !e.dir && e.name.endsWith('.json') && !e.name.startsWith('.'))
      .map((e) => e.name)
      .sort();
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
      if (inputHash && /^[0-9a-zA-Z]+$/.test(inputHash))
        build.stdJsonInputFile = joinPath(dir, 'solcInputs', `${inputHash}.json`);
      c.add({
        value,
        source: 'hardhat-deploy',
        where: `${file}${d.name ? ` (${d.name})` : ''}`,
        file,
        folder: fs.name,
        contractName: build.contractName ?? deployment,
        chainId,
        creationTxHash: txHash(rec.transactionHash),
        build,
      });
    }
  }
}

/* ------------------------------------------------------------ Foundry */

async function foundry(fs: WorkspaceFs, c: Collector): Promise<void> {
  const files = await walk(fs, 'broadcast', {
    maxDepth: 5,
    maxFiles: 500,
    accept: (p) => /\/\d+\/run-latest\.json$/.test(p) && !/\/dry-run\//.test(p),
  });
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
          c.add({
            value,
            source: 'foundry',
            where: `${file} › ${name ?? type}${script ? ` (${script})` : ''}`,
            file,
            folder: fs.name,
            contractName: name,
            chainId,
            creationTxHash: txHash(tx.hash),
          });
        }
      }
      for (const extra of Array.isArray(tx.additionalContracts) ? tx.additionalContracts.map(obj) : []) {
        const value = str(extra.address);
        if (value)
          c.add({
            value,
            source: 'foundry',
            where: `${file} › ${str(extra.contractName) ?? 'created contract'}`,
            file,
            folder: fs.name,
            contractName: str(extra.contractName),
            chainId,
          });
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
  const names = (await fs.list(''))
    .filter((e) => !e.dir && /^\.env(\..+)?$/.test(e.name) && !/\.(example|sample|template|dist)$/i.test(e.name))
    .map((e) => e.name);
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
    if (p.ok)
      c.drafts.push({
        address: p.value.address,
        entityId: p.value.entityId,
        source: 'setting',
        where: 'Setting hederaExplorer.contractAddress',
        alsoIn: [],
      });
    else
      rejected.push({
        source: 'setting',
        message: l10n.t('The setting hederaExplorer.contractAddress is not usable: {0}', p.message),
      });
  }
  const selection = input.selection?.trim();
  if (selection) {
    const p = addressFromSelection(selection);
    if (p.ok)
      c.drafts.push({
        address: p.value.address,
        entityId: p.value.entityId,
        source: 'selection',
        where: 'Editor selection',
        alsoIn: [],
      });
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
  const rank = (x: AddressCandidate) =>
    SOURCE_ORDER.indexOf(x.source) * 10 +
    (input.chainId !== undefined && x.chainId !== undefined && x.chainId !== input.chainId ? 1 : 0);
  const sorted = c.drafts
    .map((d, i) => ({ d, i }))
    .sort((a, b) => rank(a.d) - rank(b.d) || a.i - b.i)
    .map((x) => x.d);
  return { candidates: merge(sorted), rejected, skipped: c.skipped };
}

/** Short label of a source for quick picks: "Hardhat Ignition", "Foundry broadcast"... */
export function sourceLabel(s: CandidateSource): string {
  switch (s) {
    case 'setting':
      return 'Setting';
    case 'selection':
      return 'Selection';
    case 'ignition':
      return 'Hardhat Ignition';
    case 'hardhat-deploy':
      return 'hardhat-deploy';
    case 'foundry':
      return 'Foundry broadcast';
    case 'env':
      return 'Environment file';
    case 'input':
      return 'Typed';
  }
}
