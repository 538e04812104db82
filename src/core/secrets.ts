/**
 * The explorer API key, kept in VS Code's SecretStorage only (never in settings, logs or other requests).
 */
import * as vscode from 'vscode';
import type { ExtensionLog } from './log';

export const API_KEY_SECRET = 'hederaExplorer.explorerApiKey';

export class ApiKeyStore {
  constructor(
    private readonly storage: vscode.SecretStorage,
    private readonly log: ExtensionLog,
  ) {}

  async get(): Promise<string | undefined> {
    const key = await this.storage.get(API_KEY_SECRET);
    this.log.addSecret(key);
    return key || undefined;
  }

  async set(key: string): Promise<void> {
    this.log.addSecret(key);
    await this.storage.store(API_KEY_SECRET, key);
    this.log.info('Explorer API key saved in the secret storage.');
  }

  async clear(): Promise<void> {
    await this.storage.delete(API_KEY_SECRET);
    this.log.info('Explorer API key removed from the secret storage.');
  }

  async has(): Promise<boolean> {
    return !!(await this.get());
  }
}

/** Why a typed key is not acceptable, or undefined when it is. */
export function checkApiKey(value: string): string | undefined {
  const v = value.trim();
  if (!v) return vscode.l10n.t("Enter the API key of the explorer (it is stored in VS Code's secret storage).");
  if (/\s/.test(v)) return vscode.l10n.t('An API key has no spaces.');
  if (v.length > 256) return vscode.l10n.t('That is too long for an API key.');
  return undefined;
}
