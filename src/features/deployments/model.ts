/**
 * What the Deployments view and the CodeLens know about the workspace's deployed contracts: the deployment records
 * (read from every workspace folder, read again when a record file changes), and per network what the servers say
 * about each contract: its entity id (`GET /contracts/{address}`, once), its latest results (the first page of
 * `/contracts/{id}/results`, kept `maxAgeMs` by whoever asks) and its Sourcify v2 verification state (once per
 * network until Refresh, and as every verification run finished says: `ctx.verifications`). Failed answers are kept
 * as errors until a retry; answers still being asked when another network is selected are cancelled; at most 4
 * requests are in flight.
 * Part of the feature's lazy entry (lazy.ts).
 */
import * as vscode from 'vscode';
import { DisposableStore } from '../../core/disposables';
import { ApiError, isApiError } from '../../api/errors';
import type { ContractResult } from '../../api/mirrorTypes';
import { trimBase } from '../../api/networks';
import { SourcifyV2Client } from '../../api/verify';
import type { ChainCodeCache } from '../../workspace/chainCode';
import { explainBuild } from '../../workspace/deployedBuild';
import { discoverAddresses } from '../../workspace/discovery';
import type { ExtensionLog } from '../../core/log';
import type { SelectedNetwork } from '../../core/selectedNetwork';
import { vscodeWorkspaceFs } from '../../core/vscodeWorkspaceFs';
import type { AbiIndex, WorkspaceBuilds } from '../decoding';
import type { VerificationChange } from '../verification';
import {
  type DeploymentEntry,
  deploymentEntries,
  type FolderCandidates,
  RECORD_DIRS_GLOB,
  RECORD_GLOB,
} from './records';
import { summarize, type ResultsSummary, type VerificationState } from './summary';

/** How many results a contract's page holds (the Contract Results view's default page). */
export const RESULTS_LIMIT = 25;
/** How many requests the model sends at once. */
const CONCURRENCY = 4;
/** Record file changes are read once they stop for this long. */
const RESCAN_DELAY_MS = 300;

export interface ContractInfo {
  /** The entity id, or null when the mirror node knows no contract at the address (404). */
  id: string | null;
  /** The code on chain (`runtime_bytecode`), when the mirror node gave it. */
  runtime?: string;
}

/** The build deployed at a contract, as the resolver (src/workspace/deployedBuild.ts) found it, in one sentence. */
export interface BuildState {
  /** The build file, when one was found. */
  file?: string;
  /** `confirmed`: its runtime code is the code on chain; `unchecked`: not compared; `mismatch`: it differs; `none`: no build. */
  kind: 'confirmed' | 'unchecked' | 'mismatch' | 'none';
  sentence: string;
}

export interface ContractResults {
  items: ContractResult[];
  more: boolean;
  summary: ResultsSummary;
}

/** One cached answer: its value or error once settled, the request while in flight, and when it settled. */
interface Slot<T> {
  value?: T;
  error?: unknown;
  at?: number;
  pending?: Promise<T>;
}

/** What is known of one contract on the selected network, now (the rows and lenses render from this). */
export interface EntryState {
  contract?: Slot<ContractInfo>;
  results?: Slot<ContractResults>;
  verification?: Slot<VerificationState>;
}

/** A small semaphore: at most `limit` tasks run at once, the others wait in order. */
class Limiter {
  private running = 0;
  private readonly queue: Array<() => void> = [];
  constructor(private readonly limit: number) {}

  async run<T>(task: () => Promise<T>): Promise<T> {
    if (this.running >= this.limit) await new Promise<void>((resolve) => this.queue.push(resolve));
    this.running++;
    try {
      return await task();
    } finally {
      this.running--;
      this.queue.shift()?.();
    }
  }
}

export class DeploymentsModel implements vscode.Disposable {
  private entriesValue: DeploymentEntry[] = [];
  private scanned = false;
  private scanError: unknown;
  private scanning: Promise<void> | undefined;
  private rescanTimer: ReturnType<typeof setTimeout> | undefined;
  private generation = 0;
  private readonly contracts = new Map<string, Slot<ContractInfo>>();
  private readonly results = new Map<string, Slot<ContractResults>>();
  private readonly verifications = new Map<string, Slot<VerificationState>>();
  private readonly builds = new Map<string, Slot<BuildState>>();
  private readonly limiter = new Limiter(CONCURRENCY);
  /**
   * Cancels the answers being asked (and waiting for their turn) for the network that is selected: when another
   * network is selected, and when the view goes. A cancelled answer is not kept as a failure: it is asked again
   * when the contract is next shown on that network.
   */
  private requests = new AbortController();
  /** The network `requests` asks on (networkKey). */
  private askedOn: string;
  private readonly changed = new vscode.EventEmitter<void>();
  /** Fires when the records or anything known about a contract changed (rows and lenses render again). */
  readonly onDidChange = this.changed.event;
  private readonly watchers = new DisposableStore();
  private readonly subscriptions = new DisposableStore();

  /** `workspaceBuilds`: the window's one read of the workspace's builds (ctx.builds), asked when a build is resolved. */
  constructor(
    private readonly network: SelectedNetwork,
    private readonly log: ExtensionLog,
    private readonly abis: AbiIndex,
    private readonly workspaceBuilds: WorkspaceBuilds,
    /** The window's one cache of `/contracts/{id}` (ctx.chainCode). */
    private readonly chainCode: ChainCodeCache,
    onDidVerify?: vscode.Event<VerificationChange>,
  ) {
    this.askedOn = this.networkKey();
    this.subscriptions.add(
      this.changed,
      network.onDidChange(() => {
        // a settings change that leaves the selected network as it was (another network's URL edited) cancels nothing
        const now = this.networkKey();
        if (now !== this.askedOn) this.cancelRequests();
        this.askedOn = now;
        this.changed.fire();
      }),
      vscode.workspace.onDidChangeWorkspaceFolders(() => {
        this.watch();
        this.scheduleRescan(0);
      }),
      ...(onDidVerify ? [onDidVerify((c) => this.followVerification(c))] : []),
      workspaceBuilds.onDidChange(() => this.forgetBuilds()),
    );
    this.watch();
  }

  /** The records' contracts (every chain), as last read; [] before the first read. */
  get entries(): DeploymentEntry[] {
    return this.entriesValue;
  }

  /** Whether the records were read at least once. */
  get ready(): boolean {
    return this.scanned;
  }

  /** Why the last read of the records failed, if it did. */
  get error(): unknown {
    return this.scanError;
  }

  /** Reads the records if they were never read; resolves when the read in progress (if any) is done. */
  ensureScanned(): Promise<void> {
    if (!this.scanned && !this.scanning) return this.scan();
    return this.scanning ?? Promise.resolve();
  }

  /** Reads the records of every workspace folder again. */
  scan(): Promise<void> {
    const generation = ++this.generation;
    const run = (async () => {
      const folders = vscode.workspace.workspaceFolders ?? [];
      const found: FolderCandidates[] = [];
      try {
        for (const f of folders) {
          const d = await discoverAddresses({ folders: [vscodeWorkspaceFs(f.uri, f.name)] });
          found.push({ key: f.uri.toString(), name: f.name, candidates: d.candidates });
        }
        if (generation !== this.generation) return; // a newer read started meanwhile: its answer counts
        this.entriesValue = deploymentEntries(found);
        this.scanError = undefined;
        this.builds.clear();
        this.log.debug(
          `Deployments: ${this.entriesValue.length} deployed contract(s) in the records of ${folders.length} folder(s)`,
        );
      } catch (e) {
        if (generation !== this.generation) return;
        this.scanError = e;
        this.log.warn(
          `Deployments: reading the deployment records failed: ${e instanceof Error ? e.message : String(e)}`,
        );
      } finally {
        if (generation === this.generation) {
          this.scanned = true;
          this.scanning = undefined;
          this.changed.fire();
        }
      }
    })();
    this.scanning = run;
    return run;
  }

  /** A record file was created, changed or deleted: read the records again once the changes stop. */
  private scheduleRescan(delay = RESCAN_DELAY_MS): void {
    if (this.rescanTimer) clearTimeout(this.rescanTimer);
    this.rescanTimer = setTimeout(() => {
      this.rescanTimer = undefined;
      void this.scan();
    }, delay);
  }

  /** One watcher per workspace folder on its record files. */
  private watch(): void {
    this.watchers.clear();
    for (const f of vscode.workspace.workspaceFolders ?? []) {
      const changed = (uri: vscode.Uri) => {
        this.log.debug(`Deployments: ${vscode.workspace.asRelativePath(uri)} changed`);
        this.scheduleRescan();
      };
      const w = vscode.workspace.createFileSystemWatcher(new vscode.RelativePattern(f, RECORD_GLOB));
      // a deployment writing a new folder with its records at once (or removing one): the files' events can be missed
      const dirs = vscode.workspace.createFileSystemWatcher(
        new vscode.RelativePattern(f, RECORD_DIRS_GLOB),
        false,
        true,
        false,
      );
      this.watchers.add(
        w,
        w.onDidCreate(changed),
        w.onDidChange(changed),
        w.onDidDelete(changed),
        dirs,
        dirs.onDidCreate(changed),
        dirs.onDidDelete(changed),
      );
    }
  }

  private cancelRequests(): void {
    this.requests.abort();
    this.requests = new AbortController();
  }

  /** The selected network as the answers are kept: its name, servers and chain. */
  private networkKey(): string {
    const p = this.network.profile;
    return `${p.name}|${p.mirrorUrl}|${p.verifyUrl}|${p.chainId}`;
  }

  /** The key of a contract's answers on the selected network. */
  private key(entry: DeploymentEntry): string {
    return `${this.networkKey()}|${entry.address}`;
  }

  /** What is known of a contract on the selected network, without asking. */
  state(entry: DeploymentEntry): EntryState {
    const k = this.key(entry);
    return { contract: this.contracts.get(k), results: this.results.get(k), verification: this.verifications.get(k) };
  }

  /**
   * Asks what is missing about a contract on the selected network: its entity id (once), then its latest results
   * (again when older than `maxAgeMs`), and its verification state (once), in parallel with the first two.
   * Errors are kept in the state (and not asked again until `retry`); resolves when every answer settled.
   */
  async load(entry: DeploymentEntry, maxAgeMs = Number.POSITIVE_INFINITY): Promise<EntryState> {
    const k = this.key(entry);
    const chainId = this.network.profile.chainId;
    const verification = this.settle(this.verifications, k, Number.POSITIVE_INFINITY, (signal) =>
      this.lookUpVerification(entry.address, chainId, signal),
    );
    const results = (async () => {
      const info = await this.settle(this.contracts, k, Number.POSITIVE_INFINITY, (signal) =>
        this.lookUpContract(entry, signal),
      );
      if (!info || info.id === null) return;
      await this.settle(this.results, k, maxAgeMs, (signal) => this.lookUpResults(info.id as string, signal));
    })();
    await Promise.all([verification, results]);
    return this.state(entry);
  }

  /**
   * The slot's value, asked with `fetch` unless it is fresh (younger than `maxAgeMs`) or being asked; a failure is
   * kept (undefined is returned) and asked again only after `retry`; a cancelled one leaves the slot as it was.
   * Fires onDidChange when the answer arrives.
   */
  private async settle<T>(
    map: Map<string, Slot<T>>,
    key: string,
    maxAgeMs: number,
    fetch: (signal: AbortSignal) => Promise<T>,
  ): Promise<T | undefined> {
    const slot = map.get(key);
    if (slot?.pending)
      return slot.pending.then(
        (v) => v,
        () => undefined,
      );
    if (slot && slot.at !== undefined && (slot.error !== undefined || Date.now() - slot.at <= maxAgeMs))
      return slot.value;
    const next: Slot<T> = { ...slot };
    const signal = this.requests.signal;
    const pending = this.limiter.run(() => fetch(signal));
    next.pending = pending;
    map.set(key, next);
    try {
      const value = await pending;
      if (map.get(key) === next) map.set(key, { value, at: Date.now() });
      return value;
    } catch (e) {
      const cancelled = isApiError(e) && e.kind === 'cancelled';
      if (map.get(key) === next) {
        if (!cancelled)
          map.set(key, { ...(slot?.value !== undefined ? { value: slot.value } : {}), error: e, at: Date.now() });
        else if (slot) map.set(key, slot);
        else map.delete(key);
      }
      if (!cancelled) this.log.warn(`Deployments: ${e instanceof Error ? e.message : String(e)}`);
      return undefined;
    } finally {
      this.changed.fire();
    }
  }

  private async lookUpContract(entry: DeploymentEntry, signal: AbortSignal): Promise<ContractInfo> {
    const found = await this.chainCode.contract(entry.entityId ?? entry.address, { signal });
    if (!found) return { id: null };
    const id = typeof found.contract_id === 'string' ? found.contract_id : undefined;
    if (!id || !/^\d{1,10}\.\d{1,10}\.\d{1,19}$/.test(id))
      throw new ApiError({
        kind: 'malformed',
        message: vscode.l10n.t(
          "The mirror node's answer for {0} has no contract_id of the form 0.0.1234.",
          entry.address,
        ),
      });
    const runtime =
      typeof found.runtime_bytecode === 'string' && /^0x[0-9a-fA-F]{2,}$/.test(found.runtime_bytecode)
        ? found.runtime_bytecode
        : undefined;
    return { id, ...(runtime ? { runtime } : {}) };
  }

  /**
   * The build deployed at a contract on the selected network (asked when its details are opened: the workspace's
   * build info is read then, not with the rows): the resolver's choice held against the code on chain, said in one
   * sentence. Undefined while the contract's look-up failed.
   */
  async build(entry: DeploymentEntry): Promise<BuildState | undefined> {
    const k = this.key(entry);
    const info = await this.settle(this.contracts, k, Number.POSITIVE_INFINITY, (signal) =>
      this.lookUpContract(entry, signal),
    );
    return this.settle(this.builds, k, Number.POSITIVE_INFINITY, () => this.resolveBuild(entry, info?.runtime));
  }

  /** The build slot of a contract, without asking. */
  buildState(entry: DeploymentEntry): Slot<BuildState> | undefined {
    return this.builds.get(this.key(entry));
  }

  private forgetBuilds(): void {
    if (!this.builds.size) return;
    this.builds.clear();
    this.changed.fire();
  }

  private async resolveBuild(entry: DeploymentEntry, runtimeBytecode: string | undefined): Promise<BuildState> {
    const builds = await this.workspaceBuilds.get();
    const record = {
      address: entry.address,
      contractName: entry.name,
      chainId: entry.chainId,
      ...(entry.sourcePath ? { sourceName: entry.sourcePath } : {}),
      ...(entry.deploymentArtifact ? { deploymentArtifact: entry.deploymentArtifact } : {}),
      ...(entry.folderName ? { folder: entry.folderName } : {}),
    };
    const found = await builds.resolve([entry.address], {
      chainId: entry.chainId,
      deployments: entry.name ? [record] : [],
      runtimeBytecode,
    });
    if (!found)
      return {
        kind: 'none',
        sentence: vscode.l10n.t(
          'No build of the workspace holds {0}, and none has the code deployed at {1}.',
          entry.name || entry.address,
          entry.address,
        ),
      };
    // another contract's build being the code on chain (`recorded`) is not the record's contract deployed
    const kind = !found.code ? 'unchecked' : found.code.match && !found.recorded ? 'confirmed' : 'mismatch';
    return { file: found.match.build.file, kind, sentence: explainBuild(found) };
  }

  private async lookUpResults(id: string, signal: AbortSignal): Promise<ContractResults> {
    this.abis.ensureStarted(); // the result rows name the functions the workspace's ABIs know
    const page = await this.network.clients.mirror.contractResults(
      { contract: id, limit: RESULTS_LIMIT, order: 'desc' },
      { signal },
      { explainEmpty: false },
    );
    const more = page.next !== null;
    return { items: page.items, more, summary: summarize(page.items, more) };
  }

  private async lookUpVerification(address: string, chainId: number, signal: AbortSignal): Promise<VerificationState> {
    const client = new SourcifyV2Client(this.network.profile.verifyUrl, this.network.clients.http);
    const m = await client.lookup(chainId, address, { signal });
    return m.match === null ? { kind: 'none' } : { kind: 'match', match: m.match };
  }

  /** Whether every answer `load` would ask for is there (or failed): nothing to ask now. */
  isLoaded(entry: DeploymentEntry): boolean {
    const s = this.state(entry);
    const settled = <T>(slot: Slot<T> | undefined) => slot !== undefined && !slot.pending && slot.at !== undefined;
    if (!settled(s.verification) || !settled(s.contract)) return false;
    return s.contract?.error !== undefined || s.contract?.value?.id === null || settled(s.results);
  }

  /** Forgets the failed answers of a contract (all contracts without `entry`) and fires a change: they are asked again. */
  retry(entry?: DeploymentEntry): void {
    const k = entry ? this.key(entry) : undefined;
    for (const map of [this.contracts, this.results, this.verifications, this.builds] as Array<
      Map<string, Slot<unknown>>
    >) {
      for (const [key, slot] of map)
        if ((k === undefined || key === k) && slot.error !== undefined && !slot.pending) map.delete(key);
    }
    this.changed.fire();
  }

  /**
   * A verification run finished (Verify from the palette, a row or a lens, its Retry, an upgrade): the contract's
   * verification state on that chain follows it at once. What the run learnt from the selected network's Sourcify
   * (its look-up or its job) is kept as if asked; otherwise (a failed run, the session endpoint, another network) the
   * state is forgotten and asked again when the contract is next shown. A session import counts when its server is
   * the network's Sourcify (the same store). An answer still being asked is dropped.
   */
  followVerification(c: VerificationChange): void {
    const address = c.address.toLowerCase();
    for (const key of [...this.verifications.keys()])
      if (key.endsWith(`|${c.chainId}|${address}`)) this.verifications.delete(key);
    const p = this.network.profile;
    if (
      c.match !== undefined &&
      c.network === p.name &&
      trimBase(c.server) === trimBase(p.verifyUrl) &&
      c.chainId === p.chainId
    ) {
      const value: VerificationState = c.match === null ? { kind: 'none' } : { kind: 'match', match: c.match };
      this.verifications.set(`${this.networkKey()}|${address}`, { value, at: Date.now() });
    }
    this.log.debug(
      `Deployments: ${address} on chain ${c.chainId} verified: ${c.match === undefined ? 'asked again when shown' : (c.match ?? 'not verified')}`,
    );
    this.changed.fire();
  }

  /**
   * Refresh: reads the records again and forgets the selected network's results, verification states and
   * contracts it could not find or look up (entity ids found stay: an address keeps its contract).
   */
  refresh(): Promise<void> {
    const p = this.network.profile;
    const prefix = `${p.name}|${p.mirrorUrl}|`;
    for (const map of [this.results, this.verifications] as Array<Map<string, Slot<unknown>>>) {
      for (const key of [...map.keys()]) if (key.startsWith(prefix)) map.delete(key);
    }
    for (const [key, slot] of this.contracts)
      if (
        key.startsWith(prefix) &&
        (slot.error !== undefined || slot.value === undefined || (slot.value as ContractInfo).id === null)
      )
        this.contracts.delete(key);
    return this.scan();
  }

  /** Resolves when the records were read and no answer is in flight (tests, progress). */
  async settled(): Promise<void> {
    for (let i = 0; i < 50; i++) {
      await this.ensureScanned();
      const pending = [this.contracts, this.results, this.verifications, this.builds].flatMap((m) =>
        [...(m as Map<string, Slot<unknown>>).values()].map((s) => s.pending).filter((p) => p !== undefined),
      );
      if (!pending.length && !this.scanning && !this.rescanTimer) return;
      await Promise.allSettled([...pending, this.scanning]);
      if (this.rescanTimer) await new Promise((r) => setTimeout(r, RESCAN_DELAY_MS));
    }
  }

  dispose(): void {
    this.requests.abort();
    if (this.rescanTimer) clearTimeout(this.rescanTimer);
    this.watchers.dispose();
    this.subscriptions.dispose();
  }
}
