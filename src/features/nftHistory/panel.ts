/**
 * The "NFT History" webview panel: the full life of one NFT (mint, transfers, approvals, burn) in a virtualized
 * table. One panel per NFT (showing it again focuses it), restored after a window reload by a serializer.
 *
 * The webview is the one panel host's (src/ui/webviewPanel.ts: strict CSP, `localResourceRoots` = dist/webview, a
 * ready handshake, every message from the page validated by `protocol.ts`); links are opened by the extension
 * (never by the page). The extension keeps the loaded entries (for export); the page keeps rows.
 */
import * as vscode from 'vscode';
import { DisposableStore } from '../../core/disposables';
import { isApiError } from '../../api/errors';
import { compareTimestamps } from '../../api/format';
import { hashscanUrl } from '../../api/networks';
import { emptyPageSentence, stopSentence } from '../../api/pager';
import { checkEntityId, checkTimestamp, isEntityId, isTransactionId } from '../../api/validation';
import { openUrl } from '../../ui/actions';
import { type PageShell, type PanelChannel, PanelHost } from '../../ui/webviewPanel';
import type { ExtensionLog } from '../../core/log';
import type { SelectedNetwork } from '../../core/selectedNetwork';
import { config } from '../../core/settings';
import { exportFileName, toCsv, toJson } from './export';
import { NftHistory } from './history';
import {
  type FromWebview,
  type NftQuery,
  nftKey,
  PAGE_SIZES,
  parsePanelState,
  parseWebviewMessage,
  type PanelState,
  type QueryInput,
  type RenderedReport,
  type ToWebview,
  type ViewState,
} from './protocol';
import { type NftRow, TIMESTAMP_RE, toRow } from './rows';
import { VIEW_TYPE } from './viewType';

const DEFAULT_MAX_ENTRIES = 100_000;

/** Defaults for a new panel from the settings. */
export function defaultQuery(): NftQuery {
  const size = config().get<number>('nftHistory.pageSize', 100);
  const order = config().get<string>('nftHistory.order', 'desc');
  return {
    order: order === 'asc' ? 'asc' : 'desc',
    limit: (PAGE_SIZES as readonly number[]).includes(size) ? size : 100,
  };
}

function maxEntries(): number {
  const n = config().get<number>('nftHistory.maxEntries', DEFAULT_MAX_ENTRIES);
  return Number.isInteger(n) && n >= 1000 && n <= 1_000_000 ? n : DEFAULT_MAX_ENTRIES;
}

/** What a panel did, for an observer (the test seam, src/features/nftHistory/index.ts; none in normal use). */
export type NftPanelEvent =
  | { kind: 'opened'; url: string }
  | { kind: 'exported'; uri: string }
  | { kind: 'refused'; reason: string }
  | { kind: 'rendered'; report: RenderedReport };

/**
 * The panels' effects outside VS Code's editor area: a browser tab and the save dialog. `systemEffects` in normal
 * use; the test seam (built only in ExtensionMode.Test) replaces them and observes what the panels did.
 */
export interface NftPanelEffects {
  /** Opens an http(s) URL in the browser; false when it was not opened. */
  openExternal(url: string): Promise<boolean>;
  /** Asks where Export writes; undefined: cancelled. */
  askSaveTarget(format: 'csv' | 'json', options: vscode.SaveDialogOptions): Thenable<vscode.Uri | undefined>;
  /** Told what a panel did (test mode only). */
  observe?(panel: NftHistoryPanel, event: NftPanelEvent): void;
}

/** The real effects: the browser (http and https only) and VS Code's save dialog. */
export const systemEffects: NftPanelEffects = {
  openExternal: (url) => openUrl(url),
  askSaveTarget: (_format, options) => vscode.window.showSaveDialog(options),
};

export class NftHistoryPanel implements vscode.Disposable {
  readonly key: string;
  readonly history: NftHistory;
  private readonly channel: PanelChannel<FromWebview, ToWebview>;
  private note: string | undefined;
  private queryError: string | undefined;
  private restoreCount = 0;
  private readonly disposables = new DisposableStore();
  private disposed = false;
  private readonly onDisposeEmitter = new vscode.EventEmitter<void>();
  readonly onDidDispose = this.onDisposeEmitter.event;

  constructor(
    readonly panel: vscode.WebviewPanel,
    private readonly owner: NftHistoryPanels,
    readonly tokenId: string,
    readonly serial: string,
    query: NftQuery,
    restore?: PanelState,
  ) {
    this.key = nftKey(tokenId, serial);
    this.history = new NftHistory(
      () => owner.network.clients.mirror,
      tokenId,
      serial,
      query,
      maxEntries(),
      (c) => this.changed(c.from),
    );
    this.restoreCount = restore?.loaded ?? 0;
    this.channel = owner.host.channel<FromWebview, ToWebview>(panel, `NFT history ${this.key}`, parseWebviewMessage, {
      handle: (m) => this.handle(m),
      refused: (reason) => this.owner.effects.observe?.(this, { kind: 'refused', reason }),
    });
    this.channel.open(this, vscode.l10n.t('NFT {0} #{1}', tokenId, serial), this.shell());
    this.disposables.add(
      owner.network.onDidChange((clients) => {
        this.note = vscode.l10n.t(
          'Network changed to {0}: this is the history of the NFT on {0}.',
          clients.profile.label,
        );
        this.owner.log.info(`NFT history ${this.key}: network changed to ${clients.profile.label}, reloading`);
        void this.history.reload();
      }),
    );
  }

  get title(): string {
    return this.panel.title;
  }

  /** The first load, or the restore of as many rows as before a reload. */
  start(): Promise<void> {
    if (this.restoreCount > this.history.query.limit) return this.history.loadUntil(this.restoreCount);
    return this.history.reload();
  }

  viewState(): ViewState {
    const h = this.history;
    const profile = this.owner.network.profile;
    const e = h.error;
    const message = e === undefined ? undefined : e instanceof Error ? e.message : String(e);
    return {
      nft: { tokenId: this.tokenId, serial: this.serial },
      network: { name: profile.name, label: profile.label },
      query: h.query,
      status: h.status,
      total: h.items.length,
      hasMore: h.hasMore,
      partial: h.partial,
      capped: h.capped,
      maxEntries: h.maxEntries,
      ...(message !== undefined
        ? {
            error: {
              message,
              serverMessages: isApiError(e) ? e.serverMessages.filter((m) => !message.includes(m)) : [],
            },
          }
        : {}),
      ...(h.stopped ? { stopped: stopSentence(h.stopped) } : {}),
      ...(h.emptyPage ? { emptyPage: emptyPageSentence() } : {}),
      ...(this.note ? { note: this.note } : {}),
      ...(this.queryError ? { queryError: this.queryError } : {}),
    };
  }

  /** Rows of the loaded entries from `from` on. */
  rows(from = 0): NftRow[] {
    const out: NftRow[] = [];
    const items = this.history.items;
    for (let i = from; i < items.length; i++) out.push(toRow(items[i] as Record<string, unknown>));
    return out;
  }

  private post(msg: ToWebview): void {
    this.channel.post(msg);
  }

  private changed(from: number | undefined): void {
    this.post({
      type: 'update',
      state: this.viewState(),
      ...(from !== undefined ? { rows: { from, items: this.rows(from) } } : {}),
    });
  }

  /** A message from the page: validated first (the channel); anything unexpected is ignored and logged. */
  receive(raw: unknown): Promise<void> {
    return this.channel.receive(raw);
  }

  private async handle(m: FromWebview): Promise<void> {
    switch (m.type) {
      case 'ready':
        // the page reports what it drew only to an observer (the test seam; none in normal use)
        this.post({
          type: 'update',
          state: this.viewState(),
          rows: { from: 0, items: this.rows(0) },
          ...(this.owner.effects.observe ? { reportRendered: true as const } : {}),
        });
        return;
      case 'loadMore':
        return this.history.loadMore();
      case 'refresh':
        this.note = undefined;
        return this.history.reload();
      case 'retry':
        return this.history.retry();
      case 'setQuery':
        return this.setQuery(m.query);
      case 'open':
        await this.open(m.target, m.id);
        return;
      case 'export':
        await this.export(m.format);
        return;
      case 'rendered':
        this.owner.effects.observe?.(this, {
          kind: 'rendered',
          report: { total: m.total, domRows: m.domRows, first: m.first, last: m.last },
        });
        return;
    }
  }

  /** Applies a query typed in the page: timestamps checked (ISO dates converted); a problem is shown there. */
  setQuery(input: QueryInput): Promise<void> {
    const q: NftQuery = { order: input.order, limit: input.limit };
    for (const side of ['from', 'to'] as const) {
      const bound = input[side];
      if (!bound || !bound.value.trim()) continue;
      const t = checkTimestamp(bound.value);
      if (!t.ok) {
        this.queryError = `${side === 'from' ? vscode.l10n.t('From') : vscode.l10n.t('To')}: ${t.message}`;
        this.changed(undefined);
        return Promise.resolve();
      }
      if (side === 'from') q.from = { op: bound.op as 'gt' | 'gte', value: t.value };
      else q.to = { op: bound.op as 'lt' | 'lte', value: t.value };
    }
    if (q.from && q.to && compareTimestamps(q.from.value, q.to.value) > 0) {
      this.queryError = vscode.l10n.t('The start of the time range is after its end.');
      this.changed(undefined);
      return Promise.resolve();
    }
    this.queryError = undefined;
    this.note = undefined;
    this.history.query = q;
    return this.history.reload();
  }

  /** Opens HashScan for an id the page sent, after checking it is the kind of id it claims to be. */
  async open(target: 'account' | 'transaction' | 'token', id: string): Promise<boolean> {
    const profile = this.owner.network.profile;
    let url: string | undefined;
    if (target === 'account' && isEntityId(id)) url = hashscanUrl(profile, 'account', id);
    else if (target === 'token' && isEntityId(id)) url = hashscanUrl(profile, 'token', id, this.serial);
    else if (target === 'transaction' && (TIMESTAMP_RE.test(id) || isTransactionId(id)))
      url = hashscanUrl(profile, 'transaction', id);
    if (!url) {
      this.owner.effects.observe?.(this, { kind: 'refused', reason: `open: ${target} id is not valid` });
      this.owner.log.warn(`NFT history ${this.key}: ignored a link to ${target} "${id.slice(0, 60)}" (not a valid id)`);
      return false;
    }
    this.owner.effects.observe?.(this, { kind: 'opened', url });
    this.owner.log.info(`NFT history ${this.key}: opening ${url}`);
    return this.owner.effects.openExternal(url);
  }

  /** Writes what is loaded to a file the user picks (CSV or JSON). */
  async export(format: 'csv' | 'json'): Promise<vscode.Uri | undefined> {
    const items = this.history.items;
    if (!items.length) {
      void vscode.window.showInformationMessage(
        vscode.l10n.t('Nothing to export: no transactions are loaded for NFT {0} #{1}.', this.tokenId, this.serial),
      );
      return undefined;
    }
    const name = exportFileName(this.tokenId, this.serial, format);
    const folder = vscode.workspace.workspaceFolders?.[0]?.uri;
    const target = await this.owner.effects.askSaveTarget(format, {
      title: vscode.l10n.t('Export NFT history'),
      saveLabel: vscode.l10n.t('Export'),
      defaultUri: folder ? vscode.Uri.joinPath(folder, name) : undefined,
      filters: format === 'csv' ? { CSV: ['csv'] } : { JSON: ['json'] },
    });
    if (!target) return undefined;
    const profile = this.owner.network.profile;
    const text =
      format === 'csv'
        ? toCsv(items)
        : toJson(items, {
            tokenId: this.tokenId,
            serial: this.serial,
            network: profile.name,
            mirrorUrl: profile.mirrorUrl,
            query: this.history.query,
            partial: this.history.partial,
            complete: !this.history.hasMore && !this.history.capped && !this.history.stopped,
          });
    try {
      await vscode.workspace.fs.writeFile(target, new TextEncoder().encode(text));
    } catch (e) {
      this.owner.log.error(`NFT history ${this.key}: export to ${target.fsPath} failed: ${(e as Error).message}`);
      void vscode.window.showErrorMessage(
        vscode.l10n.t('Could not write {0}: {1}', target.fsPath, (e as Error).message),
      );
      return undefined;
    }
    this.owner.effects.observe?.(this, { kind: 'exported', uri: target.toString() });
    this.owner.log.info(
      `NFT history ${this.key}: exported ${items.length} entries as ${format.toUpperCase()} to ${target.fsPath}`,
    );
    void vscode.window.showInformationMessage(
      vscode.l10n.t(
        'Exported {0} transactions of NFT {1} #{2} to {3}.',
        items.length,
        this.tokenId,
        this.serial,
        vscode.workspace.asRelativePath(target),
      ),
    );
    return target;
  }

  /** The page's static markup. The only values in it are a token id and serial that passed validation. */
  private shell(): PageShell {
    // translations are the extension's own files, escaped anyway: an attribute or a tag cannot be ended by one
    const x = (text: string) =>
      text.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;');
    const title = x(vscode.l10n.t('NFT {0} #{1}', this.tokenId, this.serial));
    return {
      bundle: 'nftHistory.main',
      title,
      body: `<main id="app" data-token="${this.tokenId}" data-serial="${this.serial}">
  <header class="toolbar" role="toolbar" aria-label="${x(vscode.l10n.t('NFT history controls'))}">
    <h1 class="heading"><span class="codicon codicon-file-media" aria-hidden="true"></span> <span id="heading">${title}</span> <span id="network" class="badge"></span></h1>
    <form id="query" class="controls" autocomplete="off">
      <label>${x(vscode.l10n.t('Order'))} <select id="order" aria-label="${x(vscode.l10n.t('Order'))}"><option value="desc">${x(vscode.l10n.t('Newest first'))}</option><option value="asc">${x(vscode.l10n.t('Oldest first'))}</option></select></label>
      <label>${x(vscode.l10n.t('Page size'))} <select id="limit" aria-label="${x(vscode.l10n.t('Page size'))}"><option value="25">25</option><option value="50">50</option><option value="100">100</option></select></label>
      <span class="range" role="group" aria-label="${x(vscode.l10n.t('Time range'))}">
        <label for="fromValue">${x(vscode.l10n.t('From'))}</label>
        <select id="fromOp" aria-label="${x(vscode.l10n.t('From operator'))}"><option value="gte">≥ gte</option><option value="gt">&gt; gt</option></select>
        <input id="fromValue" type="text" spellcheck="false" placeholder="${x(vscode.l10n.t('1790000000.0 or 2026-10-01T00:00Z'))}" aria-label="${x(vscode.l10n.t('From timestamp'))}">
        <label for="toValue">${x(vscode.l10n.t('To'))}</label>
        <select id="toOp" aria-label="${x(vscode.l10n.t('To operator'))}"><option value="lte">≤ lte</option><option value="lt">&lt; lt</option></select>
        <input id="toValue" type="text" spellcheck="false" placeholder="${x(vscode.l10n.t('timestamp or date'))}" aria-label="${x(vscode.l10n.t('To timestamp'))}">
      </span>
      <button id="apply" type="button" class="primary">${x(vscode.l10n.t('Apply'))}</button>
    </form>
    <span class="actions">
      <button id="refresh" type="button" class="icon" title="${x(vscode.l10n.t('Refresh'))}" aria-label="${x(vscode.l10n.t('Refresh'))}"><span class="codicon codicon-refresh" aria-hidden="true"></span></button>
      <button id="exportCsv" type="button" title="${x(vscode.l10n.t('Export what is loaded to CSV'))}"><span class="codicon codicon-export" aria-hidden="true"></span> CSV</button>
      <button id="exportJson" type="button" title="${x(vscode.l10n.t('Export what is loaded to JSON'))}"><span class="codicon codicon-json" aria-hidden="true"></span> JSON</button>
    </span>
  </header>
  <div id="note" class="banner info" role="status" hidden><span class="codicon codicon-info" aria-hidden="true"></span> <span id="noteText"></span></div>
  <div id="queryError" class="banner error" role="alert" hidden><span class="codicon codicon-error" aria-hidden="true"></span> <span id="queryErrorText"></span></div>
  <div id="partial" class="banner warning" role="status" hidden><span class="codicon codicon-warning" aria-hidden="true"></span> <span><strong>${x(vscode.l10n.t('Partial history (HTTP 206).'))}</strong> ${x(vscode.l10n.t('The mirror node has no mint record for this NFT: the list may be incomplete.'))}</span></div>
  <div id="stopped" class="banner warning" role="status" hidden><span class="codicon codicon-warning" aria-hidden="true"></span> <span id="stoppedText"></span></div>
  <div id="emptyPage" class="banner info" role="status" hidden><span class="codicon codicon-info" aria-hidden="true"></span> <span id="emptyPageText"></span></div>
  <div id="error" class="banner error" role="alert" hidden>
    <span class="codicon codicon-error" aria-hidden="true"></span>
    <div class="error-body"><div id="errorText"></div><ul id="errorServer"></ul></div>
    <button id="retry" type="button" class="primary"><span class="codicon codicon-debug-restart" aria-hidden="true"></span> ${x(vscode.l10n.t('Retry'))}</button>
  </div>
  <div id="loading" class="state" role="status" hidden><span class="codicon codicon-loading codicon-modifier-spin" aria-hidden="true"></span> ${x(vscode.l10n.t('Loading the history…'))}</div>
  <div id="empty" class="state" role="status" hidden><span class="codicon codicon-history" aria-hidden="true"></span> <span id="emptyText"></span></div>
  <div id="grid" role="grid" tabindex="0" aria-label="${x(vscode.l10n.t('Transactions of {0}', title))}" aria-rowcount="1" aria-colcount="7" aria-busy="false">
    <div role="rowgroup" class="head">
      <div role="row" class="row head-row" aria-rowindex="1">
        <div role="columnheader" aria-colindex="1">${x(vscode.l10n.t('Time'))}</div>
        <div role="columnheader" aria-colindex="2">${x(vscode.l10n.t('Type'))}</div>
        <div role="columnheader" aria-colindex="3">${x(vscode.l10n.t('Sender'))}</div>
        <div role="columnheader" aria-colindex="4">${x(vscode.l10n.t('Receiver'))}</div>
        <div role="columnheader" aria-colindex="5">${x(vscode.l10n.t('Approval'))}</div>
        <div role="columnheader" aria-colindex="6">${x(vscode.l10n.t('Nonce'))}</div>
        <div role="columnheader" aria-colindex="7">${x(vscode.l10n.t('Transaction ID'))}</div>
      </div>
    </div>
    <div role="rowgroup" id="body" class="body"></div>
  </div>
  <footer class="footer">
    <span id="count" role="status" aria-live="polite"></span>
    <span id="loadingMore" hidden><span class="codicon codicon-loading codicon-modifier-spin" aria-hidden="true"></span> ${x(vscode.l10n.t('Loading more…'))}</span>
    <button id="loadMore" type="button" hidden>${x(vscode.l10n.t('Load more'))}</button>
  </footer>
</main>`,
    };
  }

  reveal(): void {
    this.channel.reveal();
  }

  dispose(): void {
    if (this.disposed) return;
    this.disposed = true;
    this.history.dispose();
    this.owner.host.forget(this);
    this.onDisposeEmitter.fire();
    this.onDisposeEmitter.dispose();
    this.disposables.dispose();
    this.channel.dispose();
  }
}

/** All NFT history panels (the panel host): open or focus one per NFT, restore after a reload. */
export class NftHistoryPanels implements vscode.Disposable {
  readonly host: PanelHost<NftHistoryPanel>;

  constructor(
    readonly extensionUri: vscode.Uri,
    readonly network: SelectedNetwork,
    readonly log: ExtensionLog,
    readonly memento: vscode.Memento,
    readonly effects: NftPanelEffects = systemEffects,
  ) {
    this.host = new PanelHost<NftHistoryPanel>(extensionUri, log, { viewType: VIEW_TYPE, label: 'NFT history' });
  }

  /** Opens the panel of an NFT, or focuses it when it is already open. Ids must be valid (normalised here). */
  show(tokenId: string, serial: string, query?: NftQuery): NftHistoryPanel {
    const token = checkEntityId(tokenId);
    if (!token.ok) throw new Error(token.message);
    const shown = this.host.show(
      nftKey(token.value, serial),
      `NFT ${token.value} #${serial}`,
      (panel) => new NftHistoryPanel(panel, this, token.value, serial, query ?? defaultQuery()),
      ` (${this.network.profile.label})`,
    );
    if (shown.created) {
      void shown.panel.start();
      void this.memento.update('nftHistory.last', { tokenId: token.value, serial });
    }
    return shown.panel;
  }

  /** The serializer's half: a panel VS Code restored after a reload, with the state its page saved. */
  async revive(panel: vscode.WebviewPanel, raw: unknown): Promise<void> {
    const p = this.host.revive(
      panel,
      parsePanelState(raw),
      (s) => nftKey(s.tokenId, s.serial),
      (webview, s) => new NftHistoryPanel(webview, this, s.tokenId, s.serial, s.query, s),
      ` (${this.network.profile.label})`,
    );
    await p?.start();
  }

  get(tokenId: string, serial: string): NftHistoryPanel | undefined {
    return this.host.get(nftKey(tokenId, serial));
  }

  /** Every open panel. */
  list(): NftHistoryPanel[] {
    return this.host.list();
  }

  lastInput(): { tokenId: string; serial: string } | undefined {
    return this.memento.get<{ tokenId: string; serial: string }>('nftHistory.last');
  }

  dispose(): void {
    this.host.dispose();
  }
}
