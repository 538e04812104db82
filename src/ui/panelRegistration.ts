/**
 * The eager half of a kind of webview panel (`webviewPanel.ts` is the other): the serializer VS Code calls to
 * restore a panel after a reload, registered at activation, and the panels' host created on first use (by the
 * feature's command or a restore), so that the panels' code, a lazy entry of the build, loads only then.
 */
import * as vscode from 'vscode';

/** A host that restores its panels from their saved state. */
export interface RevivingHost extends vscode.Disposable {
  revive(panel: vscode.WebviewPanel, state: unknown): Promise<unknown>;
}

/** Registers the serializer of `viewType`; returns the host, created on first use and disposed with the extension. */
export function registerPanels<H extends RevivingHost>(
  subscriptions: vscode.Disposable[],
  viewType: string,
  create: () => H,
): () => H {
  let host: H | undefined;
  const get = (): H => {
    if (!host) {
      host = create();
      subscriptions.push(host);
    }
    return host;
  };
  subscriptions.push(
    vscode.window.registerWebviewPanelSerializer(viewType, {
      deserializeWebviewPanel: async (panel, state) => {
        await get().revive(panel, state);
      },
    }),
  );
  return get;
}
