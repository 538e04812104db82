/**
 * Wiring only: creates the log, the services and the secret store, registers commands and views.
 * Nothing here talks to the network: clients are built on first use, when a view is shown or a command runs.
 */
import * as vscode from 'vscode';
import type { NetworkProfile } from './api/networks';
import { clearApiKey, setApiKey } from './commands/apiKey';
import { selectNetwork } from './commands/network';
import { ExtensionLog } from './core/log';
import { ApiKeyStore } from './core/secrets';
import { Services } from './core/services';

/** What `activate` returns: used by the integration tests, and by other extensions that want the network. */
export interface HederaExplorerApi {
  /** The selected network's profile (URLs, chain id, explorer). */
  profile(): NetworkProfile;
  /** Whether an explorer API key is stored (the key itself is never handed out). */
  hasApiKey(): Promise<boolean>;
  /** The last lines written to the log, secrets already hidden. */
  recentLog(): string[];
}

export function activate(context: vscode.ExtensionContext): HederaExplorerApi {
  const log = new ExtensionLog();
  const version = String(context.extension.packageJSON.version ?? '0.0.0');
  const services = new Services(log, `hedera-explorer-vscode/${version} (VS Code ${vscode.version})`);
  const apiKeys = new ApiKeyStore(context.secrets, log);

  context.subscriptions.push(
    log,
    services,
    vscode.commands.registerCommand('hederaExplorer.showLog', () => log.show()),
    vscode.commands.registerCommand('hederaExplorer.selectNetwork', (preset?: string) => selectNetwork(services, preset)),
    vscode.commands.registerCommand('hederaExplorer.setApiKey', (preset?: unknown) => setApiKey(apiKeys, preset)),
    vscode.commands.registerCommand('hederaExplorer.clearApiKey', () => clearApiKey(apiKeys)),
  );

  return {
    profile: () => services.profile,
    hasApiKey: () => apiKeys.has(),
    recentLog: () => log.lines(),
  };
}

export function deactivate(): void {}
