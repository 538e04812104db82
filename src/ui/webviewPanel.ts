/**
 * The one host of the extension's webview panels (the transaction inspector, the NFT history): one panel per key
 * (showing it again focuses it), restored after a window reload from a validated saved state (the serializer's
 * half; `panelRegistration.ts` is the eager half), the HTML shell with its strict Content Security Policy and a
 * fresh nonce, and the typed messaging: a ready handshake (nothing is posted before the page listens, nor while it
 * is hidden and its context gone), every message from the page validated before a feature sees it.
 *
 * A feature keeps what is its own: its protocol (`protocol.ts`: the message and state types and their parsers),
 * what a panel shows and does, and its effects.
 */
import * as vscode from 'vscode';
import { DisposableStore } from '../core/disposables';
import type { ExtensionLog } from '../core/log';

/** A parser's answer: the value, or why it was refused. */
export type Parsed<T> = { ok: true; value: T } | { ok: false; reason: string };

/** A random token for `script-src 'nonce-…'` (a new one for every page load). */
export function nonce(): string {
  const chars = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789';
  const bytes = crypto.getRandomValues(new Uint8Array(32));
  let s = '';
  // 62 letters: bytes of 248 and more are mapped again, so that every letter is equally likely
  for (let i = 0; s.length < 32; i++) {
    const b = i < bytes.length ? bytes[i] : crypto.getRandomValues(new Uint8Array(1))[0];
    if (b < 248) s += chars.charAt(b % 62);
  }
  return s;
}

/** The page's Content-Security-Policy value: nothing by default; scripts only with the nonce; styles and fonts only from the extension's own files. */
export function contentSecurityPolicy(webview: vscode.Webview, scriptNonce: string): string {
  return [
    "default-src 'none'",
    `style-src ${webview.cspSource}`,
    `font-src ${webview.cspSource}`,
    `script-src 'nonce-${scriptNonce}'`,
  ].join('; ');
}

/** What a page's HTML shell holds besides the CSP, the codicons and its bundle. */
export interface PageShell {
  /** The page's bundle in dist/webview: `<bundle>.js` and `<bundle>.css`. */
  bundle: string;
  /** The document's title (trusted text: no server text). */
  title: string;
  /** The static markup inside <body>, before the script (trusted: only validated ids, never server text). */
  body: string;
  /** The document's language (default: VS Code's). */
  lang?: string;
  /**
   * The page's first state, so that it draws before its `ready` goes to the extension and back: JSON in a data block
   * (`STATE_ELEMENT_ID`) that the page parses, never markup and never run; it may hold server text.
   */
  state?: unknown;
}

/** The HTML shell of a page. Only the CSP source, asset URIs, the nonce and the feature's trusted markup go in. */
export function pageHtml(webview: vscode.Webview, assetsUri: vscode.Uri, shell: PageShell): string {
  const asset = (f: string) => webview.asWebviewUri(vscode.Uri.joinPath(assetsUri, f)).toString();
  const n = nonce();
  const lang = (shell.lang ?? vscode.env.language).replace(/[^A-Za-z-]/g, '') || 'en';
  return `<!DOCTYPE html>
<html lang="${lang}">
<head>
<meta charset="UTF-8">
<meta http-equiv="Content-Security-Policy" content="${contentSecurityPolicy(webview, n)}">
<meta name="viewport" content="width=device-width, initial-scale=1.0">
<link rel="stylesheet" href="${asset('codicon.css')}">
<link rel="stylesheet" href="${asset(`${shell.bundle}.css`)}">
<title>${shell.title}</title>
</head>
<body>
${shell.body}
${l10nBundleScript()}${shell.state === undefined ? '' : dataBlock(STATE_ELEMENT_ID, shell.state)}<script nonce="${n}" src="${asset(`${shell.bundle}.js`)}"></script>
</body>
</html>`;
}

/** The element id of the translations a page reads (`pageL10n()` of the page's bundle). */
export const L10N_ELEMENT_ID = 'hedera-l10n';

/** The element id of a page's first state (`PageShell.state`). */
export const STATE_ELEMENT_ID = 'hedera-state';

/**
 * A value as a JSON data block: not a script that runs (the CSP allows only the nonce'd bundle), `<` escaped so that
 * no text in it ends the block.
 */
function dataBlock(id: string, value: unknown): string {
  const json = JSON.stringify(value).replace(/</g, '\\u003c');
  return `<script type="application/json" id="${id}">${json}</script>\n`;
}

/** VS Code's translations of the extension's messages (undefined in English), which the page gives to @vscode/l10n. */
function l10nBundleScript(): string {
  const bundle = vscode.l10n.bundle;
  return bundle ? dataBlock(L10N_ELEMENT_ID, bundle) : '';
}

/** What the host keeps of a feature's panel. */
export interface HostedPanel extends vscode.Disposable {
  readonly key: string;
  /** Brings the panel to the front (its channel's `reveal`). */
  reveal(): void;
}

/** What a channel needs of its host. */
export interface PageHost {
  readonly extensionUri: vscode.Uri;
  readonly assetsUri: vscode.Uri;
  readonly log: ExtensionLog;
  webviewOptions(): vscode.WebviewOptions;
}

/** What a channel tells its panel. */
export interface ChannelHandlers<In> {
  /** A message from the page that passed `parse` (after `ready`, the channel posts). */
  handle(message: In): Promise<void> | void;
  /** A message that did not pass: `what` is its type (or kind), capped. The channel logs it. */
  refused?(reason: string, what: string): void;
}

/**
 * One panel's page: the webview set up (options, icon, title, shell), its messages validated and handed over, the
 * posts held back until the page said it is ready, and the panel's disposal when the user closes it.
 */
export class PanelChannel<In extends { type: string }, Out> implements vscode.Disposable {
  private isReady = false;
  private disposed = false;
  private readonly disposables = new DisposableStore();

  constructor(
    readonly panel: vscode.WebviewPanel,
    private readonly host: PageHost,
    private readonly logName: string,
    private readonly parse: (raw: unknown) => Parsed<In>,
    private readonly handlers: ChannelHandlers<In>,
  ) {}

  /** Sets the page up; `owner` is disposed when the user closes the panel. */
  open(owner: vscode.Disposable, title: string, shell: PageShell): void {
    const { panel } = this;
    panel.title = title;
    panel.iconPath = vscode.Uri.joinPath(this.host.extensionUri, 'media', 'explorer.svg');
    panel.webview.options = this.host.webviewOptions();
    panel.webview.html = pageHtml(panel.webview, this.host.assetsUri, shell);
    this.disposables.add(
      panel.onDidDispose(() => owner.dispose()),
      panel.webview.onDidReceiveMessage((m: unknown) => {
        void this.receive(m);
      }),
      // a hidden page loses its context (retainContextWhenHidden is off): it says `ready` again when shown
      panel.onDidChangeViewState((e) => {
        if (!e.webviewPanel.visible) this.isReady = false;
      }),
    );
  }

  get ready(): boolean {
    return this.isReady && !this.disposed;
  }

  /** Posts to the page when it listens; false when it does not (the page asks for everything on `ready`). */
  post(message: Out): boolean {
    if (!this.ready) return false;
    void this.panel.webview.postMessage(message);
    return true;
  }

  /** A message from the page: validated first; anything unexpected is refused and logged. */
  async receive(raw: unknown): Promise<void> {
    const parsed = this.parse(raw);
    if (!parsed.ok) {
      const what =
        typeof raw === 'object' && raw !== null && typeof (raw as { type?: unknown }).type === 'string'
          ? String((raw as { type: string }).type).slice(0, 40)
          : typeof raw;
      this.handlers.refused?.(parsed.reason, what);
      this.host.log.warn(`${this.logName}: ignored a message from the webview (${what}): ${parsed.reason}`);
      return;
    }
    if (parsed.value.type === 'ready') this.isReady = true;
    await this.handlers.handle(parsed.value);
  }

  reveal(): void {
    this.panel.reveal(undefined, false);
  }

  dispose(): void {
    if (this.disposed) return;
    this.disposed = true;
    this.disposables.dispose();
    this.panel.dispose();
  }
}

/** Which kind of panel a host holds. */
export interface PanelKind {
  /** The webview type (package.json's `onWebviewPanel:` activation event names it too). */
  viewType: string;
  /** The panels' name in the log ("Inspector", "NFT history"). */
  label: string;
}

/** All panels of one kind: open or focus one per key (and its aliases), restore after a reload. */
export class PanelHost<P extends HostedPanel> implements PageHost, vscode.Disposable {
  private readonly panels = new Map<string, P>();
  /** Open panels by other keys of the same thing (a transaction opened by hash, later known by its id). */
  private readonly aliases = new Map<string, P>();
  readonly assetsUri: vscode.Uri;

  constructor(
    readonly extensionUri: vscode.Uri,
    readonly log: ExtensionLog,
    readonly kind: PanelKind,
  ) {
    this.assetsUri = vscode.Uri.joinPath(extensionUri, 'dist', 'webview');
  }

  webviewOptions(): vscode.WebviewOptions {
    return { enableScripts: true, enableCommandUris: false, enableForms: false, localResourceRoots: [this.assetsUri] };
  }

  /** A channel for a panel of this host (the panel's constructor opens it). */
  channel<In extends { type: string }, Out>(
    panel: vscode.WebviewPanel,
    logName: string,
    parse: (raw: unknown) => Parsed<In>,
    handlers: ChannelHandlers<In>,
  ): PanelChannel<In, Out> {
    return new PanelChannel<In, Out>(panel, this, logName, parse, handlers);
  }

  /** The open panel of a key (or alias). */
  get(key: string): P | undefined {
    return this.panels.get(key) ?? this.aliases.get(key);
  }

  /** Focuses the open panel of `key`, or creates a webview panel and the feature's panel on it. */
  show(
    key: string,
    title: string,
    create: (panel: vscode.WebviewPanel) => P,
    detail = '',
  ): { panel: P; created: boolean } {
    const existing = this.get(key);
    if (existing) {
      existing.reveal();
      return { panel: existing, created: false };
    }
    const panel = vscode.window.createWebviewPanel(
      this.kind.viewType,
      title,
      { viewColumn: vscode.ViewColumn.Active, preserveFocus: false },
      {
        ...this.webviewOptions(),
        retainContextWhenHidden: false,
      },
    );
    return { panel: this.add(create(panel), 'opened', detail), created: true };
  }

  /**
   * The serializer's half: a panel VS Code restored after a reload. `state` is the saved state as the feature
   * validated it; a refused state, or one of a panel already open, closes the restored panel.
   */
  revive<S>(
    panel: vscode.WebviewPanel,
    state: Parsed<S>,
    keyOf: (s: S) => string,
    create: (panel: vscode.WebviewPanel, s: S) => P,
    detail = '',
  ): P | undefined {
    const refuse = (reason: string) => {
      this.log.warn(`${this.kind.label}: a restored panel was closed (${reason})`);
      panel.dispose();
      return undefined;
    };
    if (!state.ok) return refuse(state.reason);
    if (this.get(keyOf(state.value))) return refuse('already open');
    return this.add(create(panel, state.value), 'restored', detail);
  }

  private add(p: P, how: 'opened' | 'restored', detail: string): P {
    this.panels.set(p.key, p);
    this.log.info(`${this.kind.label} ${p.key}: ${how}${detail}`);
    return p;
  }

  /** Another key of an open panel's subject. */
  alias(p: P, key: string): void {
    if (key !== p.key && !this.panels.has(key) && !this.aliases.has(key)) this.aliases.set(key, p);
  }

  /** A panel closed: its keys are free again. */
  forget(p: P): void {
    if (this.panels.get(p.key) === p) this.panels.delete(p.key);
    for (const [k, v] of this.aliases) if (v === p) this.aliases.delete(k);
  }

  list(): P[] {
    return [...this.panels.values()];
  }

  dispose(): void {
    for (const p of this.list()) p.dispose();
  }
}
