/**
 * Wiring only: creates the log, the services and the secret store, registers commands and views.
 * Nothing here talks to the network: clients are built on first use, when a view is shown or a command runs.
 */
import vscode = require('vscode');
import type { NetworkProfile } from './api/networks';
import { clearApiKey, setApiKey } from './commands/apiKey';
import { copyText, RAW_SCHEME, RawJsonProvider } from './commands/common';
import { selectNetwork } from './commands/network';
import { registerVerification, VerificationApi } from './commands/verification';
import { AbiIndex, registerAbiIndex } from './core/abiIndex';
import { threadCpuMs } from './core/cpuTime';
import { ExtensionLog } from './core/log';
import { ApiKeyStore } from './core/secrets';
import { Services } from './core/services';
import { ContractResultsView, registerContractResultsView } from './views/contractResultsView';
import type { NftHistoryPanels } from './nft/panel';
import { registerNftHistory } from './nft/register';
import { registerNetworkStatusBar } from './views/networkStatusBar';
import { DetailNode } from './views/nodes';
import { registerSchedulesView, SchedulesView } from './views/schedulesView';
import { registerStatusFeature, StatusSnapshot } from './views/statusFeature';

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
  const services = new Services(log, `hedera-explorer-vscode/${version} (VS Code ${vscode.version})`);
  const apiKeys = new ApiKeyStore(context.secrets, log);
  const raw = new RawJsonProvider();

  context.subscriptions.push(
    log,
    services,
    vscode.commands.registerCommand('hederaExplorer.showLog', () => log.show()),
    vscode.commands.registerCommand('hederaExplorer.selectNetwork', (preset?: string) => selectNetwork(services, preset)),
    vscode.commands.registerCommand('hederaExplorer.setApiKey', (preset?: unknown) => setApiKey(apiKeys, preset)),
    vscode.commands.registerCommand('hederaExplorer.clearApiKey', () => clearApiKey(apiKeys)),
    vscode.commands.registerCommand('hederaExplorer.copyValue', (n?: unknown) => { if (n instanceof DetailNode) void copyText(n.value, n.label); }),
    raw,
    vscode.workspace.registerTextDocumentContentProvider(RAW_SCHEME, raw),
  );
  registerNetworkStatusBar(context, services);
  const abis = registerAbiIndex(context, services, log); // before the views: they decode with it
  const schedules = registerSchedulesView(context, services, log, raw);
  const contractResults = registerContractResultsView(context, services, log, raw);
  const status = registerStatusFeature(context, services, log);
  const verification = registerVerification(context, services, log, apiKeys);
  const nft = registerNftHistory(context, services, log);

  const activationMs = performance.now() - started;
  const cpuEnded = threadCpuMs();
  const activateCpu = cpuStarted === undefined || cpuEnded === undefined ? undefined : cpuEnded - cpuStarted;
  const cpu = load?.cpuMs !== undefined && activateCpu !== undefined ? `; main-thread CPU ${load.cpuMs.toFixed(1)} + ${activateCpu.toFixed(1)} ms` : '';
  log.info(`Activated in ${activationMs.toFixed(1)} ms${load ? ` (code loaded in ${load.wallMs.toFixed(1)} ms${cpu})` : ''}`);
  return {
    activationMs,
    load,
    profile: () => services.profile,
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
