/**
 * The workspace's ABIs for decoding (the vscode side of src/api/decode), loaded lazily by the decoding feature's
 * handle (./index.ts) with the first view that decodes: Hardhat `artifacts/**\/*.json`, Foundry `out/**\/*.json`
 * and plain ABI files (`*.abi`, ABI-array `*.json`) found with `findFiles` (which applies `files.exclude`;
 * node_modules, .git, build-info and `*.dbg.json` are left out too), at most MAX_FILES files of at most MAX_BYTES
 * each, read a few at a time. A FileSystemWatcher keeps the index current (changes debounced). Nothing is scanned
 * or watched until `ensureStarted()` (a view loading its rows): reading (decodes, lookups) starts nothing. Also
 * holds the Sourcify ABI cache of the selected network, and the one derivation context of the registry ("Decoded
 * with": src/workspace/derivation.ts): deployment records, read with the files after a scan and again when a
 * record file changes; build info inheritance, read after the files are in use (decoding does not wait for it;
 * labels are refined when it arrives) and again per build info file that changed; the selected network's chain.
 */
import * as vscode from 'vscode';
import { DisposableStore } from '../../core/disposables';
import type {
  AbiFile,
  AbiRegistry,
  DecodedBody,
  DecodedResult,
  DeployedContract,
  DerivationContext,
  SourcifyAbiCache,
} from '../../api/decode';
import { isExcludedAbiPath } from '../../api/decode/abiFiles';
import { type DecodersModule, tryDecoders } from '../../api/decode/lazy';
import { evmAddressOf } from '../../api/decode/sourcifyAbi';
import { entityIdToEvmAddress, evmAddressToEntityId } from '../../api/validation';
import type { ContractResult, Schedule } from '../../api/mirrorTypes';
import { BuildInfoBases, type DerivationFolder, deploymentsFromWorkspace } from '../../workspace/derivation';
import { type AddressBuildCheck, addressBuildCheck, DeployedBuilds } from '../../workspace/deployedBuild';
import { lookUpContract } from '../../workspace/address';
import type { ChainCodeCache } from '../../workspace/chainCode';
import { vscodeWorkspaceFs } from '../../core/vscodeWorkspaceFs';
import type { ExtensionLog } from '../../core/log';
import type { SelectedNetwork } from '../../core/selectedNetwork';
import type { AbiIndex, WorkspaceAbis } from './index';

const MAX_FILES = 5000;
const MAX_BYTES = 8 * 1024 * 1024;
/** All files read in one scan, at most (large fixture folders must not make the host read gigabytes). */
const MAX_TOTAL_BYTES = 256 * 1024 * 1024;
const DEBOUNCE_MS = 400;
const INCLUDE = '**/*.{json,abi}';
/** Looked at first, so that a workspace with thousands of other JSON files still gets its build output indexed. */
const LIKELY =
  '{**/artifacts/**/*.json,**/out/**/*.json,**/*.abi,**/abi/**/*.json,**/abis/**/*.json,**/deployments/**/*.json}';
const ALWAYS_EXCLUDED = ['**/node_modules/**', '**/.git/**', '**/build-info/**', '**/*.dbg.json'];
/** Never looked at, not even for build info. */
const IGNORED_PATH = /(^|\/)(node_modules|\.git)(\/|$)/i;
/** A build info file (Hardhat, Foundry, Ignition's copies): not an ABI, read for inheritance (BuildInfoBases). */
const BUILD_INFO_PATH = /\/build-info\/[^/]+\.json$/i;
/** Deployment records (Ignition's deployed_addresses.json and artifacts, hardhat-deploy, Foundry's run-latest.json). */
const RECORD_PATH = /\/deployed_addresses\.json$|\/deployments\/|\/broadcast\/.*\/run-latest\.json$/;
/** Where the builds are read from (build output, Ignition's copies, hardhat-deploy's inputs, Foundry's broadcasts). */
const BUILDS_PATH = /\/(artifacts|out|ignition|deployments|broadcast)(\/|$)/;
/** A path in (or being) a build output or ABI folder, where new folders are looked into. */
const BUILD_FOLDER = /\/(artifacts|out|abi|abis|deployments)(\/|$)/;

function excludeGlob(): string {
  const fromSettings = Object.entries(
    vscode.workspace.getConfiguration('files').get<Record<string, unknown>>('exclude') ?? {},
  )
    // `{when: ...}` conditions are not applied here; nested braces do not fit in one glob
    .filter(([glob, on]) => on === true && !/[{}]/.test(glob))
    .flatMap(([glob]) => [glob, `${glob.replace(/\/+$/, '')}/**`]);
  return `{${[...ALWAYS_EXCLUDED, ...fromSettings].join(',')}}`;
}

export class WorkspaceAbiIndex implements AbiIndex, vscode.Disposable {
  private readonly files = new Map<string, AbiFile>();
  private readonly changed = new vscode.EventEmitter<void>();
  /** Fires when ABIs were added, changed or removed (workspace or Sourcify). */
  readonly onDidChange = this.changed.event;
  private readonly workspaceChanged = new vscode.EventEmitter<void>();
  /** Fires when the workspace's files changed (not for a Sourcify ABI). */
  readonly onDidChangeWorkspace = this.workspaceChanged.event;
  private readonly disposables = new DisposableStore();
  private started = false;
  private scan: Promise<void> = Promise.resolve();
  private pending = new Map<string, vscode.Uri | undefined>();
  /** Folders created under build output folders: their files are looked up (their own events may come first). */
  private pendingDirs = new Map<string, vscode.Uri>();
  private timer: ReturnType<typeof setTimeout> | undefined;
  private flushing: Promise<void> = Promise.resolve();
  private registryCache: AbiRegistry | undefined;
  /**
   * The registry's one context (which of several files with a selector names a call): deployment records,
   * build info inheritance, the selected network's chain. Set on the registry whenever one of them changes.
   */
  private context: DerivationContext = {};
  /** Build info inheritance per build info file (read again only when that file changed, or on a full rescan). */
  private basesCache: BuildInfoBases | undefined;
  private get bases(): BuildInfoBases {
    this.basesCache ??= new BuildInfoBases();
    return this.basesCache;
  }
  /** Build info changed (or a build folder appeared) since the inheritance was last read. */
  private basesDirty = false;
  private basesQueued = false;
  private basesTask: Promise<void> = Promise.resolve();
  private version = 0;
  private readonly decodedCache = new WeakMap<object, { version: number; failed: boolean; value: DecodedResult }>();
  private readonly bodyCache = new WeakMap<object, { version: number; body: DecodedBody | undefined }>();
  private readonly lookups = new Set<Promise<unknown>>();
  /** The lookups in flight by what they answer (a build check's key), for those who wait for the answer. */
  private readonly checking = new Map<string, Promise<void>>();
  private readonly sourcifyRegistries = new Map<string, AbiRegistry>();
  private sourcifyCache: SourcifyAbiCache | undefined;
  /**
   * The workspace's builds (src/workspace/deployedBuild.ts), read on the first ask of any feature (revert to source,
   * the Deployments view and CodeLens, verification, "Decoded with") and forgotten only when a workspace file changed.
   */
  private deployedBuilds: Promise<DeployedBuilds> | undefined;
  /** A file changed since the builds were read (set as events arrive; the builds are forgotten once they stop). */
  private buildsDirty = false;
  private readonly buildsChanged = new vscode.EventEmitter<void>();
  /** Fires when the builds read were forgotten: what was resolved with them may differ now. */
  readonly onDidChangeBuilds = this.buildsChanged.event;
  /** How many times the builds were read (the tests' seam: one read per window until a file changes). */
  buildReads = 0;
  /**
   * The resolver's answer for the contract at a called address, per mirror node, chain and address (undefined while
   * asked): asked for a result whose details are opened, forgotten with the builds.
   */
  private readonly buildChecks = new Map<string, AddressBuildCheck | undefined | null>();
  /** Files skipped because they were too big, or left out past MAX_FILES (shown in the log). */
  private skipped = 0;
  private bytesRead = 0;

  constructor(
    private readonly network: SelectedNetwork,
    private readonly log: ExtensionLog,
    private readonly chainCode: ChainCodeCache,
  ) {
    this.disposables.add(this.changed, this.workspaceChanged, this.buildsChanged);
  }

  /** The workspace's builds, read once (on the first ask) and again after a workspace file changed. Starts the watchers. */
  builds(): Promise<DeployedBuilds> {
    this.ensureStarted();
    if (!this.deployedBuilds) {
      this.buildReads++;
      const started = performance.now();
      const read = DeployedBuilds.read(
        (vscode.workspace.workspaceFolders ?? []).map((f) => vscodeWorkspaceFs(f.uri, f.name)),
      ).then((b) => {
        this.log.debug(
          `Builds: ${b.builds.length} build(s) of the workspace read in ${(performance.now() - started).toFixed(0)} ms${b.problems.length ? `; ${b.problems.slice(0, 5).join('; ')}` : ''}`,
        );
        return b;
      });
      // a failed read is not kept: the next ask reads again
      read.catch(() => {
        if (this.deployedBuilds === read) this.deployedBuilds = undefined;
      });
      this.deployedBuilds = read;
    }
    return this.deployedBuilds;
  }

  /** Forgets the builds read (the next ask reads them again) and says so when some were read. */
  forgetBuilds(): void {
    this.buildsDirty = false;
    const checked = this.buildChecks.size > 0;
    this.buildChecks.clear();
    if (this.deployedBuilds) {
      this.deployedBuilds = undefined;
      this.buildsChanged.fire();
    }
    if (checked) this.bump(false);
  }

  private buildCheckKey(address: string): string {
    return `${this.network.profile.mirrorUrl}|${this.network.profile.chainId}|${address}`;
  }

  /**
   * What the resolver said of a contract on the selected network, by its EVM address or its entity id (a scheduled
   * call names 0.0.x): both forms give the same answer. Undefined when not asked or not answered yet.
   */
  buildCheck(idOrAddress: string | null | undefined): AddressBuildCheck | undefined {
    const form = formOf(idOrAddress);
    return form ? (this.buildChecks.get(this.buildCheckKey(form)) ?? undefined) : undefined;
  }

  /**
   * For a result whose details are opened: when the records put a contract at the called address, asks the resolver
   * (once per address and network) whether the workspace's build of it is the code on chain: the builds (the
   * window's one read) and the contract's code (ctx.chainCode). onDidChange fires with the answer.
   */
  checkBuild(r: ContractResult): Promise<void> {
    return this.checkContract(r.address ?? r.to);
  }

  /**
   * The same for a contract named by EVM address or entity id (a schedule's call). An entity id is looked up first
   * (its own EVM address, if it has one, is what the records hold); the answer is kept under every form of the
   * contract, so a result calling its address and a schedule calling its id read one answer.
   */
  checkContract(idOrAddress: string | null | undefined): Promise<void> {
    const form = formOf(idOrAddress);
    if (!form) return Promise.resolve();
    const chainId = this.network.profile.chainId;
    const recordsAt = (forms: readonly string[]) =>
      (this.context.deployments ?? []).filter(
        (d) => forms.includes(d.address) && (d.chainId === undefined || d.chainId === chainId),
      );
    const key = this.buildCheckKey(form);
    if (this.buildChecks.has(key)) return this.checking.get(key) ?? Promise.resolve();
    const byId = /^\d+\.\d+\.\d+$/.test(idOrAddress?.trim() ?? '');
    const longZero = /^\d+\.\d+\.\d+$/.test(form) ? entityIdToEvmAddress(form) : undefined;
    const known = [longZero?.ok ? longZero.value : form].filter((a) => /^0x[0-9a-f]{40}$/.test(a));
    // an address without a record: nothing to check, and nothing asked of the network (an id is looked up: the
    // records may hold its own EVM address)
    if (!byId && !recordsAt(known).length) return Promise.resolve();
    this.buildChecks.set(key, undefined);
    const p = (async () => {
      let check: AddressBuildCheck | null = null;
      let forms = known;
      try {
        const code = await lookUpContract(this.chainCode, form);
        if (!code.ok) this.log.debug(`Builds: the code at ${form} was not looked up: ${code.message}`);
        if (code.ok) {
          const id = code.value.entityId ? entityIdToEvmAddress(code.value.entityId) : undefined;
          forms = [...new Set([...known, code.value.address, ...(id?.ok ? [id.value] : [])])];
        }
        const records = recordsAt(forms);
        if (records.length) {
          const builds = await this.builds();
          const address = code.ok ? code.value.address : forms[0];
          const found = await builds.resolve(forms, {
            chainId,
            deployments: records,
            runtimeBytecode: code.ok ? code.value.runtimeBytecode : undefined,
          });
          check = addressBuildCheck(found, records[0].contractName, address);
        }
      } catch (e) {
        const message = e instanceof Error ? e.message : String(e);
        this.log.warn(`Builds: the build at ${form} was not resolved: ${message}`);
        const records = recordsAt(forms);
        if (records.length)
          check = {
            contractName: records[0].contractName,
            kind: 'unchecked',
            sentence: vscode.l10n.t('The build deployed at {0} was not resolved: {1}', form, message),
          };
      }
      // an answer for a network no longer selected, or for builds forgotten meanwhile, is dropped
      if (!this.buildChecks.has(key) || this.buildChecks.get(key) !== undefined) return;
      this.buildChecks.set(key, check);
      const ids = [form, ...forms];
      if (check) for (const f of ids) this.buildChecks.set(this.buildCheckKey(formOf(f) ?? f), check);
      this.log.debug(`Builds: ${ids.join(' / ')}: ${check ? `${check.contractName}: ${check.kind}` : 'no record'}`);
      if (check) this.bump(false);
    })();
    return this.track(p, key);
  }

  /**
   * Keeps `p` among the lookups in flight (ready() waits for them) and, under a build check's `key`, as the answer
   * a later caller waits for. The promise returned settles with `p` and never rejects.
   */
  private track(p: Promise<void>, key?: string): Promise<void> {
    const done = p.then(
      () => undefined,
      () => undefined,
    );
    this.lookups.add(done);
    if (key) this.checking.set(key, done);
    void done.then(() => {
      this.lookups.delete(done);
      if (key && this.checking.get(key) === done) this.checking.delete(key);
    });
    return done;
  }

  /** The Sourcify ABI cache (undefined if the decoders cannot be loaded). */
  private get sourcify(): SourcifyAbiCache | undefined {
    if (!this.sourcifyCache) {
      const d = this.decoders();
      if (d)
        this.sourcifyCache = new d.SourcifyAbiCache(
          () => this.network.clients.http,
          () => this.network.profile.verifyUrl,
        );
    }
    return this.sourcifyCache;
  }

  /** Starts the first scan and the watcher (once). */
  ensureStarted(): void {
    if (this.started) return;
    this.started = true;
    const watcher = vscode.workspace.createFileSystemWatcher(INCLUDE);
    this.disposables.add(
      watcher,
      watcher.onDidCreate((u) => this.queue(u, u)),
      watcher.onDidChange((u) => this.queue(u, u)),
      watcher.onDidDelete((u) => this.queue(u, undefined)),
      // a compiler creating a new folder with its artifacts at once: the files' events can be missed
      ...this.folderWatcher(),
      vscode.workspace.onDidChangeWorkspaceFolders(() => {
        this.forgetBuilds();
        this.rescan();
      }),
      vscode.workspace.onDidChangeConfiguration((e) => {
        if (e.affectsConfiguration('files.exclude')) this.rescan();
      }),
    );
    this.rescan();
  }

  /** Resolves when the scan, queued file changes, build info inheritance and Sourcify lookups in flight are done (tests). */
  async ready(): Promise<void> {
    for (let i = 0; i < 50; i++) {
      await this.scan;
      await this.flushing;
      await this.basesTask;
      await Promise.allSettled([...this.lookups]);
      if (!this.timer && !this.lookups.size && !this.basesQueued) return;
      await new Promise((r) => setTimeout(r, DEBOUNCE_MS));
    }
  }

  /** The ABI files found, by workspace-relative path. */
  get sources(): string[] {
    return [...this.files.values()].map((f) => f.source).sort();
  }

  private rescan(): void {
    const run = async () => {
      const started = performance.now();
      const found = new Map<string, AbiFile>();
      this.skipped = 0;
      this.bytesRead = 0;
      const exclude = excludeGlob();
      const likely = await vscode.workspace.findFiles(LIKELY, exclude, MAX_FILES);
      const seen = new Set(likely.map((u) => u.toString()));
      const rest = (await vscode.workspace.findFiles(INCLUDE, exclude, MAX_FILES + 1)).filter(
        (u) => !seen.has(u.toString()),
      );
      const uris = [...likely, ...rest];
      if (uris.length > MAX_FILES) {
        this.skipped += uris.length - MAX_FILES;
        uris.length = MAX_FILES;
      }
      await forEachLimited(uris, 8, async (uri) => {
        const f = await this.read(uri);
        if (f) found.set(uri.toString(), f);
      });
      // files, records and registry change together: `sources` never shows a file the decoders do not use yet
      const deployments = await this.readDeployments();
      this.files.clear();
      for (const [k, v] of found) this.files.set(k, v);
      if (deployments) this.setContext({ deployments });
      this.bump();
      this.log.info(
        `ABIs: ${this.files.size} file(s) with ABIs among ${uris.length} JSON/ABI file(s) in ${(performance.now() - started).toFixed(0)} ms${this.skipped ? ` (${this.skipped} skipped: too big or past ${MAX_FILES} files)` : ''}`,
      );
      // build info is read again in full, after the files are in use (labels are refined when it arrives)
      this.bases.clear();
      this.refreshBases();
    };
    this.scan = this.scan
      .then(run, run)
      .catch((e) => this.log.warn(`ABIs: workspace scan failed: ${e instanceof Error ? e.message : String(e)}`));
  }

  /** One file as an ABI file; `budget`: counts against the scan's MAX_TOTAL_BYTES (a changed file does not). */
  private async read(uri: vscode.Uri, budget = true): Promise<AbiFile | undefined> {
    const rel = vscode.workspace.asRelativePath(uri, (vscode.workspace.workspaceFolders?.length ?? 0) > 1);
    const d = tryDecoders();
    if (!d || isExcludedAbiPath(rel)) return undefined;
    try {
      const stat = await vscode.workspace.fs.stat(uri);
      if (stat.size > MAX_BYTES || (budget && this.bytesRead + stat.size > MAX_TOTAL_BYTES)) {
        this.skipped++;
        return undefined;
      }
      if (budget) this.bytesRead += stat.size;
      const text = new TextDecoder().decode(await vscode.workspace.fs.readFile(uri));
      return d.mayHoldAbi(text) ? d.parseAbiFile(rel, text) : undefined;
    } catch {
      return undefined; // deleted meanwhile, unreadable: not an ABI
    }
  }

  private folderWatcher(): vscode.Disposable[] {
    const w = vscode.workspace.createFileSystemWatcher('**/*', false, true, false);
    return [
      w,
      w.onDidCreate((u) => {
        if (!BUILD_FOLDER.test(u.path) || isExcludedAbiPath(u.path) || /\.(json|abi)$/i.test(u.path)) return;
        this.pendingDirs.set(u.toString(), u);
        this.queue(u, undefined, false);
      }),
      // a folder deleted or renamed away (`hardhat clean`, a moved artifacts folder): only the folder's own event
      // may come, so the ABI files indexed under it are dropped with it
      w.onDidDelete((u) => {
        const prefix = `${u.toString()}/`;
        for (const key of this.files.keys()) if (key.startsWith(prefix)) this.queue(vscode.Uri.parse(key), undefined);
      }),
    ];
  }

  private queue(uri: vscode.Uri, present: vscode.Uri | undefined, file = true): void {
    if (IGNORED_PATH.test(uri.path)) return;
    // build info, artifacts, records, solc inputs (the builds read any of them): forgotten once the changes stop
    if (BUILDS_PATH.test(uri.path)) this.buildsDirty = true;
    if (BUILD_INFO_PATH.test(uri.path)) {
      // not an ABI: its inheritance is read again (that file only) after the files of the batch
      const folder = vscode.workspace.getWorkspaceFolder(uri);
      if (folder) this.bases.invalidate(folder.uri.toString(), vscode.workspace.asRelativePath(uri, false));
      this.basesDirty = true;
    } else if (isExcludedAbiPath(uri.path)) {
      return;
    } else if (file) {
      this.pending.set(uri.toString(), present);
    }
    if (this.timer) clearTimeout(this.timer);
    this.timer = setTimeout(() => {
      this.timer = undefined;
      if (this.buildsDirty) this.forgetBuilds();
      this.flushing = this.flushing.then(() => this.flush());
    }, DEBOUNCE_MS);
  }

  private async flush(): Promise<void> {
    await this.scan;
    const exclude = excludeGlob();
    const dirs = [...this.pendingDirs.values()];
    this.pendingDirs.clear();
    // a new build folder may hold build info whose own events were missed (listing it again is cheap)
    if (dirs.length) this.basesDirty = true;
    let basesDirty = this.basesDirty;
    this.basesDirty = false;
    for (const dir of dirs) {
      try {
        if ((await vscode.workspace.fs.stat(dir)).type !== vscode.FileType.Directory) continue;
        for (const u of await vscode.workspace.findFiles(new vscode.RelativePattern(dir, INCLUDE), exclude, 500)) {
          if (!this.pending.has(u.toString())) this.pending.set(u.toString(), u);
        }
      } catch {
        // gone again
      }
    }
    const batch = [...this.pending];
    this.pending.clear();
    // read first, applied below together with the deployment records when they changed (then one bump)
    const updates: Array<[string, AbiFile | undefined]> = [];
    let added = 0;
    await forEachLimited(batch, 8, async ([key, uri]) => {
      const had = this.files.has(key);
      let file: AbiFile | undefined;
      if (uri) {
        const folder = vscode.workspace.getWorkspaceFolder(uri);
        // the same include/exclude rules as the scan: ask findFiles about this one path
        const rel = folder ? vscode.workspace.asRelativePath(uri, false) : undefined;
        const allowed =
          folder && rel
            ? (await vscode.workspace.findFiles(new vscode.RelativePattern(folder, rel), exclude, 1)).length > 0
            : false;
        if (allowed && (had || this.files.size + added < MAX_FILES)) {
          if (!had) added++;
          file = await this.read(uri, false);
          if (!file && !had) added--;
        }
      }
      if (file || had) updates.push([key, file]);
    });
    // deployment records hold no ABI of their own (Ignition's deployed_addresses.json, Foundry's run-latest.json)
    const records = batch.some(([k]) => RECORD_PATH.test(k));
    if (updates.length || records) {
      // changed records are read before the files change, so that `sources` and the registry change at once: a
      // file listed in `sources` is one the decoders use (callers wait for `sources`, then decode)
      const deployments = records ? await this.readDeployments() : undefined;
      for (const [key, file] of updates) {
        if (file) this.files.set(key, file);
        else this.files.delete(key);
      }
      if (deployments) this.setContext({ deployments });
      if (updates.length) this.log.info(`ABIs: ${updates.length} file(s) changed, ${this.files.size} ABI file(s)`);
      this.bump(updates.length > 0);
    }
    // build output changed: the build info folders are listed again, in case events of their files were missed
    // (a deleted or recreated folder); only files not read yet are parsed
    if (updates.some(([k]) => /\/(artifacts|out)\//.test(k))) basesDirty = true;
    if (basesDirty) this.refreshBases();
  }

  /** The workspace folders as the readers of src/workspace/derivation.ts see them. */
  private folders(): DerivationFolder[] {
    return (vscode.workspace.workspaceFolders ?? []).map((f) => ({
      key: f.uri.toString(),
      fs: vscodeWorkspaceFs(f.uri, f.name),
    }));
  }

  /** The deployment records (after a scan, or when a record changed); undefined when they cannot be read (the previous ones are kept). */
  private async readDeployments(): Promise<DeployedContract[] | undefined> {
    if (!tryDecoders()) return undefined;
    try {
      const deployments = await deploymentsFromWorkspace(this.folders().map((f) => f.fs));
      this.log.debug(`ABIs: ${deployments.length} deployment record(s)`);
      return deployments;
    } catch (e) {
      this.log.warn(`ABIs: deployment records not read: ${e instanceof Error ? e.message : String(e)}`);
      return undefined;
    }
  }

  /**
   * Reads the build info inheritance again (only the build info files not read yet or changed since), one read
   * at a time, without holding up decoding: when it differs, the registry's context changes and onDidChange fires
   * (the "Decoded with" labels are refined). The previous inheritance is kept when it cannot be read.
   */
  private refreshBases(): void {
    if (this.basesQueued || !tryDecoders()) return;
    this.basesQueued = true;
    const run = async () => {
      this.basesQueued = false;
      const started = performance.now();
      try {
        const bases = await this.bases.read(this.folders());
        this.log.debug(
          `ABIs: inheritance of ${bases.size} contract(s) from build info (${this.bases.size} build(s)) in ${(performance.now() - started).toFixed(0)} ms`,
        );
        if (sameBases(bases, this.context.bases)) return;
        this.setContext({ bases });
        this.bump(false);
      } catch (e) {
        this.log.warn(`ABIs: build info not read: ${e instanceof Error ? e.message : String(e)}`);
      }
    };
    this.basesTask = this.basesTask.then(run, run);
  }

  /** Changes the registry's context (records, inheritance or chain); the caller bumps. */
  private setContext(patch: Partial<DerivationContext>): void {
    this.context = { ...this.context, ...patch };
    if (this.registryCache) this.registryCache.context = this.context;
  }

  /**
   * Follows the selected network's chain (records of other chains do not name calls). True when it changed:
   * decoded results cached before are stale then.
   */
  private syncChain(): boolean {
    const chainId = this.network.profile.chainId;
    if (this.context.chainId === chainId) return false;
    this.setContext({ chainId });
    this.version++;
    return true;
  }

  /** The network changed: Sourcify answers are forgotten, and the chain the records are matched on follows. */
  networkChanged(): void {
    // the Sourcify answers were for the previous network's server and chain
    this.sourcifyCache?.clear();
    if (this.started && this.syncChain()) this.changed.fire();
  }

  /**
   * Something to decode with changed: the workspace's files (`workspace`: the registry is rebuilt), or only a
   * Sourcify ABI or the registry's context.
   */
  private bump(workspace = true): void {
    if (workspace) this.registryCache = undefined;
    this.version++;
    this.changed.fire();
    if (workspace) this.workspaceChanged.fire();
  }

  /** The decoders, loaded on first use (undefined if their bundle cannot be loaded). Starts no scan. */
  private decoders(): DecodersModule | undefined {
    return tryDecoders();
  }

  /** The selector index of the workspace's ABIs (empty until the first scan ends). */
  private registry(): AbiRegistry | undefined {
    const d = this.decoders();
    if (!d) return undefined;
    this.syncChain();
    if (!this.registryCache) {
      const files = [...this.files.values()].sort((a, b) => (a.source < b.source ? -1 : a.source > b.source ? 1 : 0));
      this.registryCache = d.createRegistry(files, this.context);
    }
    return this.registryCache;
  }

  /** The Sourcify ABI of a contract on the selected network, when it was fetched already. */
  private contractRegistry(address: string | null | undefined): AbiRegistry | undefined {
    const a = evmAddressOf(address);
    const d = this.decoders();
    if (!a || !d) return undefined;
    const chainId = this.network.profile.chainId;
    const found = this.sourcify?.peek(chainId, a);
    if (!found) return undefined;
    const key = `${this.network.profile.verifyUrl}|${chainId}|${a}`;
    let reg = this.sourcifyRegistries.get(key);
    if (!reg) {
      reg = d.sourcifyRegistry(found.abi, a, chainId);
      this.sourcifyRegistries.set(key, reg);
    }
    return reg;
  }

  /** A contract result decoded with the workspace's ABIs and the contract's Sourcify ABI (if fetched). Cached. */
  decodeResult(r: ContractResult, failed: boolean): DecodedResult | undefined {
    const d = this.decoders();
    if (!d) return undefined;
    this.syncChain();
    const hit = this.decodedCache.get(r);
    if (hit && hit.version === this.version && hit.failed === failed) return hit.value;
    const value = d.decodeContractResult(r, failed, this.registry(), this.contractRegistry(r.address ?? r.to));
    this.decodedCache.set(r, { version: this.version, failed, value });
    return value;
  }

  /**
   * A schedule's `transaction_body` decoded (src/api/decode/schedulableBody.ts): kind, summary and fields, a
   * contract call's function from the workspace's ABIs. Undefined when it cannot be decoded (the base64 stays). Cached.
   */
  decodeSchedule(s: Schedule): DecodedBody | undefined {
    const d = this.decoders();
    if (!d || !s.transaction_body) return undefined;
    this.syncChain();
    const hit = this.bodyCache.get(s);
    if (hit && hit.version === this.version) return hit.body;
    let body: DecodedBody | undefined;
    try {
      body = d.decodeSchedulableBody(s.transaction_body, { decodeCall: (data) => d.decodeCall(data, this.registry()) });
    } catch {
      body = undefined;
    }
    this.bodyCache.set(s, { version: this.version, body });
    return body;
  }

  /**
   * For a result being expanded: when its call or custom error is not known from the workspace, asks Sourcify
   * for the contract's ABI (once per contract and network) and fires onDidChange when it brings one.
   */
  lookUpContract(r: ContractResult, failed: boolean): Promise<void> {
    const address = evmAddressOf(r.address ?? r.to);
    if (!address) return Promise.resolve();
    const chainId = this.network.profile.chainId;
    const cache = this.sourcify;
    if (!cache || cache.peek(chainId, address) !== undefined) return Promise.resolve(); // asked already
    const p = (async () => {
      await this.scan; // the workspace may know it: no request then
      const dec = this.decodeResult(r, failed);
      const needCall = !!r.function_parameters && r.function_parameters.length >= 10 && !dec?.call;
      // a custom error, or printable data that may be one (`text` with a selector), not known from the workspace
      const needError =
        failed &&
        (dec?.error?.kind === 'custom' || (dec?.error?.kind === 'text' && !!dec.error.selector)) &&
        !dec.error.name;
      if (!needCall && !needError) return;
      if (cache.peek(chainId, address) !== undefined || chainId !== this.network.profile.chainId) return;
      try {
        const abi = await cache.get(chainId, address);
        if (abi) {
          this.log.info(`ABIs: Sourcify ABI of ${address} on chain ${chainId} (${abi.abi.length} items)`);
          this.bump(false);
        }
      } catch (e) {
        this.log.warn(`ABIs: Sourcify lookup of ${address} failed: ${e instanceof Error ? e.message : String(e)}`);
      }
    })();
    return this.track(p);
  }

  workspace(): WorkspaceAbis {
    this.ensureStarted();
    return { registry: this.registry(), deployments: this.context.deployments ?? [] };
  }

  async scanned(): Promise<void> {
    this.ensureStarted();
    await this.scan;
    await this.flushing;
  }

  dispose(): void {
    if (this.timer) clearTimeout(this.timer);
    this.disposables.dispose();
  }
}

/** Whether two inheritance maps say the same (then nothing to refine). */
function sameBases(a: Map<string, string[]>, b: Map<string, string[]> | undefined): boolean {
  if (!b || a.size !== b.size) return false;
  for (const [k, v] of a) {
    const w = b.get(k);
    if (!w || w.length !== v.length || v.some((x, i) => x !== w[i])) return false;
  }
  return true;
}

async function forEachLimited<T>(items: T[], limit: number, fn: (t: T) => Promise<void>): Promise<void> {
  let next = 0;
  const worker = async () => {
    while (next < items.length) {
      const i = next++;
      await fn(items[i]);
    }
  };
  await Promise.all(Array.from({ length: Math.min(limit, items.length) }, worker));
}

/** A contract's one form for the checks' keys: its entity id for an id or a long-zero address, else its EVM address. */
function formOf(idOrAddress: string | null | undefined): string | undefined {
  const s = idOrAddress?.trim().toLowerCase();
  if (!s) return undefined;
  if (/^\d+\.\d+\.\d+$/.test(s)) return s;
  const a = evmAddressOf(s);
  return a ? (evmAddressToEntityId(a) ?? a) : undefined;
}
