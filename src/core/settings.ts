/**
 * Reads the `hederaExplorer.*` settings into the API layer's shapes.
 */
import * as vscode from 'vscode';
import { type NetworkName, type NetworkProfile, resolveProfile } from '../api/networks';
import { hostOf } from '../api/url';

export const SECTION = 'hederaExplorer';

/** The settings read once for a synchronous stretch of code (withSettings), else undefined. */
let held: vscode.WorkspaceConfiguration | undefined;

export function config(scope?: vscode.ConfigurationScope): vscode.WorkspaceConfiguration {
  return (scope === undefined ? held : undefined) ?? vscode.workspace.getConfiguration(SECTION, scope);
}

/**
 * Runs `f` with the settings read once: `config()` gives the same object until `f` returns. Each
 * `getConfiguration` copies the whole `hederaExplorer` section, and activation reads a dozen settings; nothing can
 * change them while synchronous code runs.
 */
export function withSettings<T>(f: () => T): T {
  const outer = held;
  held ??= vscode.workspace.getConfiguration(SECTION);
  try {
    return f();
  } finally {
    held = outer;
  }
}

export function currentProfile(): NetworkProfile {
  const c = config();
  return profileOf(c.get<string>('network'), c);
}

/** The profile of a network by name, with the settings that shape it (the custom network's name and URLs). */
export function profileOf(network: string | undefined, c = config()): NetworkProfile {
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

/** The settings that hold a URL requests go to; every other URL is a built-in default. */
const URL_SETTINGS = ['custom.mirrorUrl', 'custom.statusUrl', 'custom.verifyUrl', 'verify.sessionUrl'] as const;

/**
 * The full name of the URL setting the user set (in any scope) whose host is the host of `url`, or undefined when
 * no setting of the user's points there (the URL is a built-in default): an error may send the user to a setting
 * only when the user set it.
 */
export function userUrlSettingFor(url: string | undefined): string | undefined {
  const host = hostOf(url);
  if (!host) return undefined;
  const c = config();
  for (const key of URL_SETTINGS) {
    const i = c.inspect<string>(key);
    const values = [i?.workspaceFolderValue, i?.workspaceValue, i?.globalValue];
    if (values.some((v) => typeof v === 'string' && v.trim() && hostOf(v.trim()) === host)) return `${SECTION}.${key}`;
  }
  return undefined;
}
