/**
 * Reads the `hederaExplorer.*` settings into the API layer's shapes.
 */
import * as vscode from 'vscode';
import { type NetworkName, type NetworkProfile, resolveProfile } from '../api/networks';

export const SECTION = 'hederaExplorer';

export function config(): vscode.WorkspaceConfiguration {
  return vscode.workspace.getConfiguration(SECTION);
}

export function currentProfile(): NetworkProfile {
  return profileOf(config().get<string>('network'));
}

/** The profile of a network by name, with the settings that shape it (the custom network's name and URLs). */
export function profileOf(network: string | undefined): NetworkProfile {
  const c = config();
  return resolveProfile({
    network,
    custom: {
      name: c.get<string>('custom.name'),
      mirrorUrl: c.get<string>('custom.mirrorUrl'),
      statusUrl: c.get<string>('custom.statusUrl'),
      verifyUrl: c.get<string>('custom.verifyUrl'),
      chainId: c.get<number>('custom.chainId'),
      hashscanUrl: c.get<string>('custom.hashscanUrl'),
    },
  });
}

export function timeoutMs(): number {
  const s = config().get<number>('http.timeoutSeconds', 15);
  return Math.min(300, Math.max(1, Number.isFinite(s) ? s : 15)) * 1000;
}

/** Writes the network where the user keeps it: the workspace if it sets one, else the user settings. */
export async function setNetwork(name: NetworkName): Promise<void> {
  const c = config();
  const inspect = c.inspect<string>('network');
  const target =
    inspect?.workspaceFolderValue !== undefined
      ? vscode.ConfigurationTarget.WorkspaceFolder
      : inspect?.workspaceValue !== undefined
        ? vscode.ConfigurationTarget.Workspace
        : vscode.ConfigurationTarget.Global;
  await c.update('network', name, target);
}
