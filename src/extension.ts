/**
 * Wiring only: creates the log, the network and the secret store, registers commands and views.
 * Nothing here talks to the network: clients are built on first use, when a view is shown or a command runs.
 */
import * as l10n from '@vscode/l10n';
import * as vscode from 'vscode';
import { Command, registerCommand } from './core/commands';
import { recordContextKeys } from './core/contextKeys';
import { threadCpuMs } from './core/cpuTime';
import { ExtensionLog } from './core/log';
import { ApiKeyStore } from './core/secrets';
import { SelectedNetwork } from './core/selectedNetwork';
import { withSettings } from './core/settings';
import type { FeatureContext } from './features/context';
import { registerContractCall } from './features/contractCall';
import { registerContractResults } from './features/contractResults';
import { registerDebug } from './features/debug';
import { registerAbiIndex } from './features/decoding';
import { registerDeployments } from './features/deployments';
import { registerInspector } from './features/inspector';
import { registerLedgerLinks } from './features/ledgerLinks';
import { registerNetwork } from './features/network';
import { registerNftHistory } from './features/nftHistory';
import { registerSchedules } from './features/schedules';
import { registerStatus } from './features/status';
import { registerApiKeyCommands, registerVerification, VerificationEvents } from './features/verification';
import type { HederaExplorerApi, LoadTime, TestSeams } from './testSeams';
import { copyText, RAW_SCHEME, RawJsonProvider } from './ui/actions';
import { ChainCodeCache } from './workspace/chainCode';
import type { DetailNode } from './ui/nodes';

/** `load`: given by the loader (src/loader.ts, dist/extension.js), which timed the `require` of this bundle. */
export function activate(context: vscode.ExtensionContext, load?: LoadTime): HederaExplorerApi {
  const started = performance.now();
  const cpuStarted = threadCpuMs();
  // the settings read once for all the features' first reads
  return withSettings(() => wire(context, load, started, cpuStarted));
}

function wire(
  context: vscode.ExtensionContext,
  load: LoadTime | undefined,
  started: number,
  cpuStarted: number | undefined,
): HederaExplorerApi {
  // plain-TypeScript modules (src/api, the formatters) translate with @vscode/l10n: the same bundle as vscode.l10n
  l10n.config({ contents: vscode.l10n.bundle ?? {} });
  const testMode = context.extensionMode === vscode.ExtensionMode.Test;
  const log = new ExtensionLog({ keepLines: testMode }); // the last lines kept for the tests' recentLog() only
  const contextKeys = testMode ? recordContextKeys() : undefined; // the keys' values, for the tests only
  const version = String(context.extension.packageJSON.version ?? '0.0.0');
  const network = new SelectedNetwork(log, `hedera-explorer-vscode/${version} (VS Code ${vscode.version})`);
  const apiKeys = new ApiKeyStore(context.secrets, log);
  const raw = new RawJsonProvider();
  const verifications = new VerificationEvents();

  context.subscriptions.push(log, network);
  registerCommand(context.subscriptions, Command.showLog, () => log.show());
  registerCommand(context.subscriptions, Command.copyValue, (n) => {
    const d = detailOf(n);
    if (d) void copyText(d.value, d.label);
  });
  context.subscriptions.push(raw, verifications, vscode.workspace.registerTextDocumentContentProvider(RAW_SCHEME, raw));
  const chainCode = new ChainCodeCache(() => ({ key: network.profile.mirrorUrl, mirror: network.clients.mirror }));
  const abis = registerAbiIndex(context, network, log, chainCode); // a handle: the index loads and scans when a view loads its rows
  const ctx: FeatureContext = {
    extension: context,
    network,
    log,
    abis,
    builds: abis.builds,
    chainCode,
    apiKeys,
    raw,
    verifications,
    testMode,
  };
  registerNetwork(ctx);
  registerApiKeyCommands(ctx);
  const schedules = registerSchedules(ctx);
  const contractResults = registerContractResults(ctx);
  const status = registerStatus(ctx);
  const verification = registerVerification(ctx);
  const nft = registerNftHistory(ctx);
  const inspector = registerInspector(ctx);
  const ledgerLinks = registerLedgerLinks(ctx);
  const deployments = registerDeployments(ctx);
  const contractCall = registerContractCall(ctx);
  registerDebug(ctx);

  const activationMs = performance.now() - started;
  const cpuEnded = threadCpuMs();
  const activateCpu = cpuStarted === undefined || cpuEnded === undefined ? undefined : cpuEnded - cpuStarted;
  const cpu =
    load?.cpuMs !== undefined && activateCpu !== undefined
      ? `; main-thread CPU ${load.cpuMs.toFixed(1)} + ${activateCpu.toFixed(1)} ms`
      : '';
  log.info(
    `Activated in ${activationMs.toFixed(1)} ms${load ? ` (code loaded in ${load.wallMs.toFixed(1)} ms${cpu})` : ''}`,
  );
  const testing: TestSeams | undefined = ctx.testMode
    ? {
        activationMs,
        load,
        profile: () => network.profile,
        unreachable: () => (network.unreachable === undefined ? undefined : network.profile.name),
        hasApiKey: () => apiKeys.has(),
        recentLog: () => log.lines(),
        contextKey: (key) => contextKeys?.get(key),
        schedules: seam('schedules', schedules),
        contractResults: seam('contractResults', contractResults),
        nftHistory: seam('nftHistory', nft),
        inspector: seam('inspector', inspector),
        ledgerLinks: seam('ledgerLinks', ledgerLinks),
        deployments: seam('deployments', deployments),
        contractCall: seam('contractCall', contractCall),
        abis,
        statusSnapshot: () => seam('status', status).snapshot(),
        verification: seam('verification', verification),
      }
    : undefined;
  return {
    get network() {
      return network.profile;
    },
    onDidChangeNetwork: (listener, thisArg, disposables) =>
      network.onDidChange((c) => listener.call(thisArg, c.profile), undefined, disposables),
    ...(testing ? { testing } : {}),
  };
}

/** The detail row "Copy Value" was invoked on (a DetailNode: its label and value), or undefined. */
function detailOf(n: unknown): Pick<DetailNode, 'label' | 'value'> | undefined {
  const d = n as Partial<Pick<DetailNode, 'label' | 'value'>> | undefined;
  return typeof d?.value === 'string' && typeof d.label === 'string' ? { label: d.label, value: d.value } : undefined;
}

/** A feature's test seam, which it builds in test mode (ctx.testMode): missing there is a bug in the feature. */
function seam<T>(feature: string, value: T | undefined): T {
  if (value === undefined) throw new Error(`the ${feature} feature built no test seam in test mode`);
  return value;
}

export function deactivate(): void {}
