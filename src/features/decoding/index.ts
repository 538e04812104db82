/**
 * Decoding with the workspace's ABIs and Sourcify. The eager part: a small handle, created once by the
 * composition root (src/extension.ts) and handed to the views as `ctx.abis`. The index itself
 * (./abiIndex.ts: workspace scan, file watchers, Sourcify cache) is a lazy entry of the build, loaded by the first
 * decode or start. Reading (decodes, lookups) never starts the scan or the watchers: `ensureStarted()` does, and
 * the views call it when they load their rows.
 */
import * as vscode from 'vscode';
import { DisposableStore } from '../../core/disposables';
import type { AbiRegistry, DecodedBody, DecodedResult, DeployedContract } from '../../api/decode';
import type { ContractResult, Schedule } from '../../api/mirrorTypes';
import type { ExtensionLog } from '../../core/log';
import type { SelectedNetwork } from '../../core/selectedNetwork';
import type { ChainCodeCache } from '../../workspace/chainCode';
import type { AddressBuildCheck, DeployedBuilds } from '../../workspace/deployedBuild';
import type { WorkspaceAbiIndex } from './abiIndex';

/**
 * What the integration tests read of the index (the test seam `abis`, src/testSeams.ts); the views do not use it.
 * Reading it loads and starts nothing.
 */
export interface AbiIndexSeam {
  /** The ABI files found, by workspace-relative path (empty before the first scan). */
  readonly sources: string[];
  /** Resolves when the scan, queued file changes, build info reading and Sourcify lookups in flight are done. */
  ready(): Promise<void>;
  /** How many times the workspace's builds were read in this window (`WorkspaceBuilds`). */
  readonly buildReads: number;
}

/**
 * The workspace's builds (src/workspace/deployedBuild.ts), one read per window for every feature that asks which
 * build was deployed (revert to source, the Deployments view and CodeLens, verification, "Decoded with"): read on
 * the first ask, forgotten when a file of the workspace's build output, records or Ignition folders changes (the
 * ABI index's watchers; asking starts them). Handed to the features as `ctx.builds`.
 */
export interface WorkspaceBuilds {
  get(): Promise<DeployedBuilds>;
  /** Reads them again on the next `get` (a build written where no watcher sees it). */
  forget(): void;
  /** Fires when the builds read were forgotten: what was resolved with them may differ now. */
  readonly onDidChange: vscode.Event<void>;
}

/** The workspace's ABIs and the Sourcify ABI cache of the selected network, as the views use them. */
export interface AbiIndex {
  /** Fires when ABIs were added, changed or removed (workspace or Sourcify): decoded labels may change. */
  readonly onDidChange: vscode.Event<void>;
  /** Fires when the workspace's files changed (ABIs, build info, deployment records), not for a Sourcify ABI. */
  readonly onDidChangeWorkspace: vscode.Event<void>;
  /** Starts the workspace scan and the file watchers (once). Nothing else starts them. */
  ensureStarted(): void;
  /** A contract result decoded with the workspace's ABIs and the contract's Sourcify ABI (if fetched). Cached. */
  decodeResult(r: ContractResult, failed: boolean): DecodedResult | undefined;
  /** A schedule's transaction body decoded (a contract call's function from the workspace's ABIs). Cached. */
  decodeSchedule(s: Schedule): DecodedBody | undefined;
  /**
   * For a result being expanded: when its call or custom error is not known from the workspace, asks Sourcify
   * for the contract's ABI (once per contract and network); onDidChange fires when it brings one. Resolves when
   * this lookup is done (never rejects).
   */
  lookUpContract(r: ContractResult, failed: boolean): Promise<void>;
  /**
   * For a result whose details are opened: when the records put a contract at the called address, asks the resolver
   * (once per address and network) whether the workspace's build is the code on chain; onDidChange fires with it.
   * Resolves when the answer is in (never rejects).
   */
  checkBuild(r: ContractResult): Promise<void>;
  /** The same for a contract named by entity id or EVM address (a scheduled call); both forms share one answer. */
  checkContract(idOrAddress: string): Promise<void>;
  /**
   * The resolver's answer for a contract by EVM address or entity id (`checkBuild`, `checkContract`), undefined
   * when not asked or not answered yet.
   */
  buildCheck(idOrAddress: string | null | undefined): AddressBuildCheck | undefined;
  /**
   * For decoding beyond a result's own call (the transaction inspector): the workspace's selector index and
   * deployment records as they are now (empty before the first scan). Starts the scan (once).
   */
  workspace(): WorkspaceAbis;
  /** Resolves when the first scan (and changes queued) are read: what `workspace()` holds then is complete. */
  scanned(): Promise<void>;
}

/** The workspace's ABIs and deployment records, as the inspector decodes with them. */
export interface WorkspaceAbis {
  registry: AbiRegistry | undefined;
  deployments: readonly DeployedContract[];
}

/** The handle: the index is created (its module loaded) on first use. */
class LazyAbiIndex implements AbiIndex, vscode.Disposable {
  private index: WorkspaceAbiIndex | undefined;
  private readonly changed = new vscode.EventEmitter<void>();
  readonly onDidChange = this.changed.event;
  private readonly workspaceChanged = new vscode.EventEmitter<void>();
  readonly onDidChangeWorkspace = this.workspaceChanged.event;
  private readonly buildsChanged = new vscode.EventEmitter<void>();
  private readonly subscriptions = new DisposableStore();
  readonly builds: WorkspaceBuilds = {
    get: () => this.loaded.builds(),
    forget: () => this.index?.forgetBuilds(),
    onDidChange: this.buildsChanged.event,
  };

  constructor(
    private readonly network: SelectedNetwork,
    private readonly log: ExtensionLog,
    private readonly chainCode: ChainCodeCache,
  ) {
    this.subscriptions.add(
      this.changed,
      this.workspaceChanged,
      this.buildsChanged,
      network.onDidChange(() => this.index?.networkChanged()),
    );
  }

  private get loaded(): WorkspaceAbiIndex {
    if (!this.index) {
      // eslint-disable-next-line @typescript-eslint/no-require-imports
      const { WorkspaceAbiIndex } = require('./abiIndex') as typeof import('./abiIndex');
      const index = new WorkspaceAbiIndex(this.network, this.log, this.chainCode);
      this.subscriptions.add(
        index,
        index.onDidChange(() => this.changed.fire()),
        index.onDidChangeWorkspace(() => this.workspaceChanged.fire()),
        index.onDidChangeBuilds(() => this.buildsChanged.fire()),
      );
      this.index = index;
    }
    return this.index;
  }

  ensureStarted(): void {
    this.loaded.ensureStarted();
  }

  decodeResult(r: ContractResult, failed: boolean): DecodedResult | undefined {
    return this.loaded.decodeResult(r, failed);
  }

  decodeSchedule(s: Schedule): DecodedBody | undefined {
    return this.loaded.decodeSchedule(s);
  }

  lookUpContract(r: ContractResult, failed: boolean): Promise<void> {
    return this.loaded.lookUpContract(r, failed);
  }

  checkBuild(r: ContractResult): Promise<void> {
    return this.loaded.checkBuild(r);
  }

  checkContract(idOrAddress: string): Promise<void> {
    return this.loaded.checkContract(idOrAddress);
  }

  buildCheck(idOrAddress: string | null | undefined): AddressBuildCheck | undefined {
    return this.index?.buildCheck(idOrAddress);
  }

  workspace(): WorkspaceAbis {
    return this.loaded.workspace();
  }

  scanned(): Promise<void> {
    return this.loaded.scanned();
  }

  get sources(): string[] {
    return this.index?.sources ?? [];
  }

  ready(): Promise<void> {
    return this.index?.ready() ?? Promise.resolve();
  }

  get buildReads(): number {
    return this.index?.buildReads ?? 0;
  }

  dispose(): void {
    this.subscriptions.dispose();
    this.index = undefined;
  }
}

/** Creates the handle (nothing is loaded or scanned until a view needs it). One line in extension.ts. */
export function registerAbiIndex(
  context: vscode.ExtensionContext,
  network: SelectedNetwork,
  log: ExtensionLog,
  chainCode: ChainCodeCache,
): AbiIndex & AbiIndexSeam & { readonly builds: WorkspaceBuilds } {
  const index = new LazyAbiIndex(network, log, chainCode);
  context.subscriptions.push(index);
  return index;
}
