/**
 * Small shared actions: copy, open a URL outside (http/https only), show raw JSON in a read-only editor.
 */
import * as vscode from 'vscode';
import { stringifyJson } from '../api/json';
import { notificationSafe } from '../api/text';
import { httpUrl } from '../api/url';

export async function copyText(text: string, what: string): Promise<void> {
  await vscode.env.clipboard.writeText(text);
  void vscode.window.setStatusBarMessage(vscode.l10n.t('$(copy) Copied {0}', what), 3000);
}

/**
 * Opens an http(s) URL in the browser; anything else (no URL, `command:`, `file:`, `javascript:`…) is refused with a
 * warning (api/url.ts httpUrl). Resolves to whether the browser was asked to open it.
 */
export async function openUrl(url: string | undefined): Promise<boolean> {
  const web = httpUrl(url);
  if (!web) {
    void vscode.window.showWarningMessage(
      url?.trim()
        ? vscode.l10n.t('Not opened: {0} is not a web address.', notificationSafe(url, 100))
        : vscode.l10n.t('Not opened: there is no web address.'),
    );
    return false;
  }
  return vscode.env.openExternal(vscode.Uri.parse(web, true));
}

export const RAW_SCHEME = 'hedera-explorer';

/** Read-only documents with the raw JSON of an item (bigints written with every digit). */
export class RawJsonProvider implements vscode.TextDocumentContentProvider, vscode.Disposable {
  private readonly docs = new Map<string, string>();
  private readonly changed = new vscode.EventEmitter<vscode.Uri>();
  readonly onDidChange = this.changed.event;
  private counter = 0;

  provideTextDocumentContent(uri: vscode.Uri): string {
    return this.docs.get(uri.toString()) ?? '';
  }

  /** Opens `value` as JSON in a read-only editor titled `name`. */
  async show(name: string, value: unknown): Promise<vscode.TextEditor> {
    const safe = name.replace(/[^\w.-]+/g, '_').slice(0, 80) || 'item';
    const uri = vscode.Uri.from({ scheme: RAW_SCHEME, path: `/${safe}.json`, query: String(++this.counter) });
    this.docs.set(uri.toString(), `${stringifyJson(value, 2)}\n`);
    if (this.docs.size > 50) this.docs.delete(this.docs.keys().next().value as string);
    const doc = await vscode.workspace.openTextDocument(uri);
    const lang = await vscode.languages.setTextDocumentLanguage(doc, 'json');
    return vscode.window.showTextDocument(lang, { preview: true });
  }

  dispose(): void {
    this.changed.dispose();
    this.docs.clear();
  }
}
