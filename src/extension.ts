/**
 * Wiring only: creates the log, the network and the secret store, registers commands and views.
 * Nothing here talks to the network: clients are built on first use, when a view is shown or a command runs.
 */
import vscode = require('vscode');
import type { NetworkProfile } from './api/networks';
import { threadCpuMs } from './core/cpuTime';
import { ExtensionLog } from './core/log';
import { ApiKeyStore } from './core/secrets';
import { SelectedNetwork } from './core/selectedNetwork';
import type { FeatureContext } from './features/context';
import { registerContractResults } from './features/contractResults';
import { registerAbiIndex, type AbiIndex } from './features/decoding';
import { registerNetwork } from './features/network';
import { registerNftHistory } from './features/nftHistory';
import type { NftHistoryPanels } from './features/nftHistory/panel';
import { registerSchedules } from './features/schedules';
import type { SchedulesView } from './features/schedules/view';
import type { ContractResultsView } from './features/contractResults/view';
import { registerStatusFeature, type StatusSnapshot } from './features/status';
import { registerApiKeyCommands, registerVerification, type VerificationApi } from './features/verification';
import { copyText, RAW_SCHEME, RawJsonProvider } from './ui/actions';
import { DetailNode } from './ui/nodes';

/** What `activate` returns: used by the integration tests, and by other extensions that want the network. */
export interface HederaExplorerApi {
  /** How long activate() took, in ms (measured inside it; the bench also reads VS Code's own figure). */
  readonly activationMs: number;
  /** Loading this bundle (read, compile, module code) as the loader timed it: wall and main-thread CPU ms. */
  readonly load: LoadTime | undefined;
  /** The selected network's profile (URLs, chain id, explorer). */
  profile(): NetworkProfile;
  /** Whether an explorer API key is stored (the key itself is never handed out). */
  hasApiKey(): Promise<boolean>;
  /** The last lines written to the log, secrets already hidden. */
  recentLog(): string[];
  /** The Schedules view (tests read its rows and set filters). */
  readonly schedules: SchedulesView;
  /** The Contract Results view. */
  readonly contractResults: ContractResultsView;
  /** The NFT history panels (tests: open, read snapshots, post messages as the page, export target). */
  readonly nftHistory: NftHistoryPanels;
  /** The workspace's ABIs and the Sourcify ABI cache used to decode contract results and schedules (tests). */
  readonly abis: AbiIndex;
  /** The network status bar item and the Network Status view's rows, as VS Code gets them (tests). */
  statusSnapshot(): Promise<StatusSnapshot>;
  /** "Verify Contract" and the Verification view (tests run the flow, read rows and prompts). */
  readonly verification: VerificationApi;
}

/** How long the loader's `require` of this bundle took: wall time, and the main thread's CPU time where known. */
export interface LoadTime {
  readonly wallMs: number;
  readonly cpuMs: number | undefined;
}

/** `load`: given by the loader (src/loader.ts, dist/extension.js), which timed the `require` of this bundle. */
export function activate(context: vscode.ExtensionContext, load?: LoadTime): HederaExplorerApi {
  const started = performance.now();
  const cpuStarted = threadCpuMs();
  const log = new ExtensionLog();
  const version = String(context.extension.packageJSON.version ?? '0.0.0');
  const network = new SelectedNetwork(log, `hedera-explorer-vscode/${version} (VS Code ${vscode.version})`);
  const apiKeys = new ApiKeyStore(context.secrets, log);
  const raw = new RawJsonProvider();

  context.subscriptions.push(
    log,
    network,
    vscode.commands.registerCommand('hederaExplorer.showLog', () => log.show()),
    vscode.commands.registerCommand('hederaExplorer.copyValue', (n?: unknown) => { if (n instanceof DetailNode) void copyText(n.value, n.label); }),
    raw,
    vscode.workspace.registerTextDocumentContentProvider(RAW_SCHEME, raw),
  );
  const abis = registerAbiIndex(context, network, log); // before the views: they decode with it
  const ctx: FeatureContext = { extension: context, network, log, abis, apiKeys, raw, testMode: context.extensionMode === vscode.ExtensionMode.Test };
  registerNetwork(ctx);
  registerApiKeyCommands(ctx);
  const schedules = registerSchedules(ctx);
  const contractResults = registerContractResults(ctx);
  const status = registerStatusFeature(ctx);
  const verification = registerVerification(ctx);
  const nft = registerNftHistory(ctx);

  const activationMs = performance.now() - started;
  const cpuEnded = threadCpuMs();
  const activateCpu = cpuStarted === undefined || cpuEnded === undefined ? undefined : cpuEnded - cpuStarted;
  const cpu = load?.cpuMs !== undefined && activateCpu !== undefined ? `; main-thread CPU ${load.cpuMs.toFixed(1)} + ${activateCpu.toFixed(1)} ms` : '';
  log.info(`Activated in ${activationMs.toFixed(1)} ms${load ? ` (code loaded in ${load.wallMs.toFixed(1)} ms${cpu})` : ''}`);
  return {
    activationMs,
    load,
    profile: () => network.profile,
    hasApiKey: () => apiKeys.has(),
    recentLog: () => log.lines(),
    schedules,
    contractResults,
    get nftHistory() { return nft.panels; },
    abis,
    statusSnapshot: () => status.snapshot(),
    verification,
  };
}

export function deactivate(): void {}
