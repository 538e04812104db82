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
import type { CodeCacheState, LoadedModule } from './core/codeCache';
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
  /** How the loader (src/loader.ts) loaded this bundle: time taken and the code cache's state (undefined without it). */
  readonly load: { readonly ms: number; readonly cache: CodeCacheState; readonly cacheDir: string | undefined } | undefined;
  /** Writes the code cache now instead of 10 s after activation (tests); false when there is nothing to write. */
  saveCodeCache(): Promise<boolean>;
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

/** How long after activation the code cache is written: by then the views' first rows have been compiled too. */
const SAVE_CODE_CACHE_AFTER_MS = 10_000;

/** `loaded`: given by src/loader.ts (dist/extension.js), which loaded this bundle (dist/main.js) with a code cache. */
export function activate(context: vscode.ExtensionContext, loaded?: LoadedModule): HederaExplorerApi {
  const started = performance.now();
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
  log.info(`Activated in ${activationMs.toFixed(1)} ms` + (loaded
    ? ` (code loaded in ${loaded.ms.toFixed(1)} ms, code cache: ${loaded.cache}${loaded.reason ? `, ${loaded.reason}` : ''})`
    : ''));
  let saving: Promise<boolean> | undefined;
  const saveCodeCache = () => (saving ??= (loaded?.saveCache() ?? Promise.resolve({ written: false, reason: 'no loader' })).then((r) => {
    if (r.written) log.info('Code cache written: the next activations compile less');
    else if (loaded?.cache !== 'hit') log.debug(`Code cache not written: ${r.reason}`);
    return r.written;
  }));
  if (loaded && loaded.cache !== 'hit') {
    const timer = setTimeout(() => void saveCodeCache(), SAVE_CODE_CACHE_AFTER_MS);
    context.subscriptions.push({ dispose: () => clearTimeout(timer) });
  }
  return {
    activationMs,
    load: loaded && { ms: loaded.ms, cache: loaded.cache, cacheDir: loaded.cacheDir },
    saveCodeCache,
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
