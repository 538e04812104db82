/**
 * "Hedera: Set Explorer API Key" (masked input) and "Hedera: Clear Explorer API Key".
 */
import * as vscode from 'vscode';
import { type ApiKeyStore, checkApiKey } from '../../core/secrets';

/** Asks for the key (or takes `preset`, for automation) and stores it. Returns whether a key was stored. */
export async function setApiKey(store: ApiKeyStore, preset?: unknown): Promise<boolean> {
  let key: string | undefined;
  if (typeof preset === 'string') {
    const problem = checkApiKey(preset);
    if (problem) {
      void vscode.window.showErrorMessage(problem);
      return false;
    }
    key = preset.trim();
  } else {
    key = await vscode.window.showInputBox({
      title: vscode.l10n.t('Explorer API Key'),
      prompt: vscode.l10n.t("The key is kept in VS Code's secret storage and sent only to the verification server."),
      password: true,
      ignoreFocusOut: true,
      validateInput: checkApiKey,
    });
    key = key?.trim();
  }
  if (!key) return false;
  await store.set(key);
  void vscode.window.setStatusBarMessage(vscode.l10n.t('$(key) Explorer API key saved'), 4000);
  return true;
}

export async function clearApiKey(store: ApiKeyStore): Promise<void> {
  await store.clear();
  void vscode.window.setStatusBarMessage(vscode.l10n.t('$(key) Explorer API key cleared'), 4000);
}
