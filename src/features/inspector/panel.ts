/**
 * The transaction inspector panels: one editor panel per transaction (showing it again focuses it), on the network
 * it was opened on (its title says which), restored after a window reload by a serializer. Each panel loads the
 * contract result, the call frames and the transaction records (./inspection.ts), decodes them with the workspace's
 * ABIs, Sourcify and Hedera's system contracts (./sections.ts), and sends the page one section at a time.
 *
 * The webview is the one panel host's (src/ui/webviewPanel.ts: strict CSP, `localResourceRoots` = dist/webview, a
 * ready handshake, every message from the page validated by ./protocol.ts); links and the clipboard are handled here.
 */
import * as vscode from 'vscode';
import { DisposableStore } from '../../core/disposables';
import { Command } from '../../core/commands';
import { SourcifyAbiCache } from '../../api/decode/sourcifyAbi';
import { hashscanUrl, isNetworkName, type NetworkName } from '../../api/networks';
import { parseTxRef, type TxRef, txRefText } from '../../api/txRef';
import { isEntityId, isTransactionId } from '../../api/validation';
import { copyText, openUrl } from '../../ui/actions';
import { type PanelChannel, PanelHost } from '../../ui/webviewPanel';
import type { FeatureContext } from '../context';
import { InspectionLoader, type SourceId } from './inspection';
import {
  type FromWebview,
  type Header,
  parseSavedState,
  parseWebviewMessage,
  type RenderedReport,
  type SavedState,
  type SectionId,
  type Sections,
  type ToWebview,
} from './protocol';
import { SectionBuilder } from './sections';
import { StorageLayouts } from './storageLayouts';
import { RevertLocator, type SourceTarget, WorkspaceBuildsCache } from './revertSource';
import { RevertMarks } from './revertMarks';
import type { SourceDocuments } from './sourceDocuments';
import { VIEW_TYPE } from './viewType';
import type { SimulationPage } from './simulation';

/** What a panel did, for an observer (the test seam; none in normal use). */
export type PanelEvent =
  | { kind: 'opened'; url: string }
  | { kind: 'copied'; text: string }
  | { kind: 'raw'; name: string }
  | { kind: 'refused'; reason: string }
  | { kind: 'debugged'; transaction: string }
  | { kind: 'rendered'; report: RenderedReport };

/** The panels' effects outside the editor: the browser and the clipboard (replaced and observed by the test seam). */
export interface PanelEffects {
  openExternal(url: string): Promise<boolean>;
  copy(text: string): Promise<void>;
  /** Ask the page to report what it drew (test mode only). */
  reportRendered?: boolean;
  observe?(panel: InspectorPanel, event: PanelEvent): void;
}

export const systemEffects: PanelEffects = {
  openExternal: (url) => openUrl(url),
  copy: (text) => copyText(text, vscode.l10n.t('value')),
};

/** Which loader source each section is built from (a Retry of the section loads it again). */
const SOURCE_OF: Record<Exclude<SectionId, 'source'>, SourceId> = {
  overview: 'result',
  trace: 'actions',
  events: 'result',
  state: 'result',
  transfers: 'transactions',
};

/** A simulation's panel key: one page per run (no transaction names it). */
const simulationKey = (s: SimulationPage): string => `${s.network}|simulation|${s.id}`;

export const panelKey = (network: string, ref: TxRef): string =>
  `${network}|${txRefText(ref)}${ref.kind === 'transactionId' && ref.scheduled ? '?scheduled' : ''}|${ref.kind === 'transactionId' ? (ref.nonce ?? 0) : 0}`;

/** A short form of the reference for the panel's title. */
function shortRef(ref: TxRef): string {
  const t = txRefText(ref);
  return ref.kind === 'hash' ? `${t.slice(0, 10)}…${t.slice(-6)}` : t;
}

export class InspectorPanel implements vscode.Disposable {
  readonly key: string;
  readonly loader: InspectionLoader;
  private readonly builder: SectionBuilder;
  private readonly channel: PanelChannel<FromWebview, ToWebview>;
  private disposed = false;
  private readonly disposables = new DisposableStore();
  private readonly saved: SavedState;
  /** Posts sent to the page, and the last post the page reported as drawn (`settled`). */
  private posted = 0;
  private drawn = 0;
  private waiters: Array<() => void> = [];

  constructor(
    readonly panel: vscode.WebviewPanel,
    private readonly owner: InspectorPanels,
    readonly ref: TxRef,
    readonly network: NetworkName,
    restore?: SavedState,
    /** A simulated call shown instead of a transaction (ref is then its block's time, never shown). */
    readonly simulation?: SimulationPage,
  ) {
    this.key = simulation ? simulationKey(simulation) : panelKey(network, ref);
    const clients = () => owner.ctx.network.clientsFor(network);
    this.loader = new InspectionLoader(
      ref,
      () => clients().mirror,
      (source) => this.sourceChanged(source),
    );
    if (simulation) this.loader.preset(simulation);
    const locator = new RevertLocator(owner.ctx, () => clients(), owner.builds, owner.documents);
    this.builder = new SectionBuilder(
      owner.ctx,
      () => clients(),
      () => owner.sourcify(network),
      this.loader,
      owner.storage,
      locator,
      (ids) => this.rebuilt(ids),
    );
    this.saved = {
      v: 1,
      // a simulation is held in memory: a reference that is no transaction's, so a reload closes its page
      ref: simulation ? `simulation:${simulation.id}` : txRefText(ref),
      nonce: ref.kind === 'transactionId' ? (ref.nonce ?? 0) : 0,
      network,
      ...(restore ? { collapsed: restore.collapsed, scrollTop: restore.scrollTop } : {}),
    };
    const profile = clients().profile;
    this.channel = owner.host.channel<FromWebview, ToWebview>(panel, `Inspector ${this.key}`, parseWebviewMessage, {
      handle: (m) => this.handle(m),
      refused: (reason) => this.owner.effects.observe?.(this, { kind: 'refused', reason }),
    });
    // Only the title goes into the shell; the page builds everything else as text.
    const title = simulation
      ? vscode.l10n.t('Simulation {0} · {1}', simulation.label, profile.label)
      : vscode.l10n.t('Transaction {0} · {1}', shortRef(ref), profile.label);
    this.channel.open(this, title, {
      bundle: 'inspector.main',
      title: vscode.l10n.t('Transaction inspector'),
      body: '<div id="app"></div>',
    });
    this.disposables.add(owner.ctx.abis.onDidChange(() => this.builder.decodingChanged()));
    // a build the workspace holds the input of only is compiled once the folder is trusted (src/core/missingOutputs.ts)
    this.disposables.add(vscode.workspace.onDidGrantWorkspaceTrust(() => this.builder.retrySource()));
  }

  /** Loads every source (the first load, or a restore). */
  start(): Promise<void> {
    return this.loader.start();
  }

  header(): Header {
    const profile = this.owner.ctx.network.clientsFor(this.network).profile;
    const selected = this.owner.ctx.network.profile;
    if (this.simulation)
      return {
        ref: this.simulation.label,
        refKind: 'simulation',
        nonce: 0,
        network: { name: profile.name, label: profile.label },
        note: this.simulation.note,
      };
    const h: Header = {
      ref: txRefText(this.ref),
      refKind: this.ref.kind,
      nonce: this.loader.nonce,
      network: { name: profile.name, label: profile.label },
    };
    if (selected.name !== profile.name)
      h.note = vscode.l10n.t(
        'This transaction is shown from {0}; the selected network is {1}.',
        profile.label,
        selected.label,
      );
    return h;
  }

  /** Every section as the page shows it now. */
  sections(): Sections {
    return this.builder.all();
  }

  /** Resolves when the sources settled, the decoders' look-ups are done, and the page drew the last update (when it reports). */
  async settled(): Promise<void> {
    for (let i = 0; i < 100; i++) {
      await this.builder.idle();
      const loading = Object.values(this.loader.sources).some((s) => s.state === 'loading' || s.state === 'idle');
      if (!loading && this.builder.isIdle) break;
      await new Promise((r) => setTimeout(r, 50));
    }
    if (!this.owner.effects.reportRendered || !this.channel.ready) return;
    if (this.drawn >= this.posted) return;
    await new Promise<void>((resolve) => this.waiters.push(resolve));
  }

  private sourceChanged(source: SourceId): void {
    // once the id is known (a hash or timestamp was given), the same transaction by its id focuses this panel
    if (this.loader.transactionId)
      this.owner.alias(
        this,
        panelKey(this.network, { kind: 'transactionId', id: this.loader.transactionId, nonce: this.loader.nonce }),
      );
    this.builder.sourceChanged(source);
    if (source === 'transactions' || source === 'result') this.post({ type: 'header', header: this.header() });
  }

  private rebuilt(ids: SectionId[]): void {
    for (const id of ids) this.post({ type: 'section', id, section: this.builder.section(id) });
  }

  private post(msg: ToWebview): void {
    if (this.channel.post(msg)) this.posted++;
  }

  /** A message from the page: validated first (the channel); anything unexpected is ignored and logged. */
  receive(raw: unknown): Promise<void> {
    return this.channel.receive(raw);
  }

  private async handle(m: FromWebview): Promise<void> {
    switch (m.type) {
      case 'ready':
        this.post({
          type: 'init',
          header: this.header(),
          sections: this.sections(),
          state: this.saved,
          ...(this.owner.effects.reportRendered ? { reportRendered: true as const } : {}),
        });
        return;
      case 'retry':
        if (m.section === 'source') return this.builder.retrySource();
        return this.loader.retry(SOURCE_OF[m.section]);
      case 'openSource':
        await this.openSource(m.target);
        return;
      case 'inspect': {
        if (!isTransactionId(m.transactionId))
          return this.refuse(`inspect: ${m.transactionId.slice(0, 80)} is not a transaction id`);
        this.owner.show({ kind: 'transactionId', id: m.transactionId, nonce: m.nonce }, this.network);
        return;
      }
      case 'hashscan':
        return this.openHashscan(m.kind, m.id);
      case 'debug': {
        if (this.simulation) return this.refuse('debug: a simulation has no transaction to debug');
        // the consensus timestamp names a child transaction too; until it is known, the reference opened
        const transaction = this.loader.timestamp ?? txRefText(this.ref);
        this.owner.effects.observe?.(this, { kind: 'debugged', transaction });
        await vscode.commands.executeCommand(Command.debugTransaction, {
          transactionId: transaction,
          network: this.network,
        });
        return;
      }
      case 'copy':
        await this.owner.effects.copy(m.text);
        this.owner.effects.observe?.(this, { kind: 'copied', text: m.text });
        return;
      case 'raw': {
        const value = this.builder.raw(m.source);
        if (value === undefined) return;
        const name = `${m.source}-${this.simulation ? `simulation-${this.simulation.id}` : txRefText(this.ref)}`;
        await this.owner.ctx.raw.show(name, value);
        this.owner.effects.observe?.(this, { kind: 'raw', name });
        return;
      }
      case 'rendered':
        this.owner.effects.observe?.(this, { kind: 'rendered', report: m });
        this.drawn = this.posted;
        for (const w of this.waiters.splice(0)) w();
        return;
    }
  }

  get sourceTargets(): readonly SourceTarget[] {
    return this.builder.sourceTargets;
  }

  /** Opens a place of the Source section, marked (Go to revert). */
  async openSource(index = 0): Promise<vscode.TextEditor | undefined> {
    const target = this.builder.sourceTargets[index];
    if (!target) {
      this.refuse(`openSource: no place ${index}`);
      return undefined;
    }
    const ref = this.simulation
      ? vscode.l10n.t('simulation {0}', this.simulation.label)
      : (this.loader.transactionId ?? txRefText(this.ref));
    return this.owner.marks.open(target, { ref, network: this.network });
  }

  private refuse(reason: string): void {
    this.owner.effects.observe?.(this, { kind: 'refused', reason });
    this.owner.ctx.log.warn(`Inspector ${this.key}: refused ${reason}`);
  }

  /** Opens an entity or a transaction on the explorer of the panel's network; ids are checked again here. */
  private async openHashscan(kind: 'transaction' | 'contract' | 'account' | 'token', id: string): Promise<void> {
    const profile = this.owner.ctx.network.clientsFor(this.network).profile;
    let ok: boolean;
    if (kind === 'transaction') {
      const r = parseTxRef(id);
      ok = r.ok && r.value.kind !== 'hash' && !r.value.network;
      if (ok && r.ok && r.value.kind === 'transactionId') id = r.value.id;
    } else {
      ok = isEntityId(id) || /^0x[0-9a-fA-F]{40}$/.test(id);
    }
    if (!ok) return this.refuse(`hashscan: ${id.slice(0, 80)} is not a ${kind} id`);
    const url = hashscanUrl(profile, kind, id);
    const opened = await this.owner.effects.openExternal(url);
    if (opened) this.owner.effects.observe?.(this, { kind: 'opened', url });
  }

  reveal(): void {
    this.channel.reveal();
  }

  dispose(): void {
    if (this.disposed) return;
    this.disposed = true;
    this.loader.dispose();
    this.builder.dispose();
    this.owner.host.forget(this);
    for (const w of this.waiters.splice(0)) w();
    this.disposables.dispose();
    this.channel.dispose();
  }
}

/** All inspector panels (the panel host): open or focus one per transaction and network, restore after a reload. */
export class InspectorPanels implements vscode.Disposable {
  readonly host: PanelHost<InspectorPanel>;
  /** The workspace's storage layouts, read once for every panel. */
  readonly storage: StorageLayouts;
  /** The workspace's compiler builds, the compiled sources' documents and the revert marks, shared by the panels. */
  readonly builds: WorkspaceBuildsCache;
  readonly documents: SourceDocuments;
  readonly marks: RevertMarks;
  /** Sourcify ABIs per network (its server and chain), shared by the panels: one request per contract. */
  private readonly sourcifyCaches = new Map<string, SourcifyAbiCache>();

  constructor(
    readonly ctx: FeatureContext,
    documents: SourceDocuments,
    readonly effects: PanelEffects = systemEffects,
  ) {
    this.host = new PanelHost<InspectorPanel>(ctx.extension.extensionUri, ctx.log, {
      viewType: VIEW_TYPE,
      label: 'Inspector',
    });
    this.storage = new StorageLayouts(ctx);
    this.builds = new WorkspaceBuildsCache(ctx);
    this.documents = documents;
    this.marks = new RevertMarks(documents);
  }

  /** The Sourcify ABI cache of a network (its clients as they are when a request goes out; nothing of a panel kept). */
  sourcify(network: NetworkName): SourcifyAbiCache {
    const network0 = this.ctx.network;
    const profile = network0.clientsFor(network).profile;
    const key = `${profile.verifyUrl}|${profile.chainId}`;
    let cache = this.sourcifyCaches.get(key);
    if (!cache) {
      cache = new SourcifyAbiCache(
        () => network0.clientsFor(network).http,
        () => network0.clientsFor(network).profile.verifyUrl,
      );
      this.sourcifyCaches.set(key, cache);
    }
    return cache;
  }

  /** Opens the panel of a transaction (on `network`, default: the reference's, else the selected one), or focuses it. */
  show(ref: TxRef, network?: NetworkName): InspectorPanel {
    const name = network ?? ref.network ?? this.ctx.network.profile.name;
    const shown = this.host.show(
      panelKey(name, ref),
      vscode.l10n.t('Transaction {0}', shortRef(ref)),
      (panel) => new InspectorPanel(panel, this, ref, name),
    );
    if (shown.created) void shown.panel.start();
    return shown.panel;
  }

  /** Opens the page of a simulated call (a new page for each run). */
  showSimulation(simulation: SimulationPage): InspectorPanel {
    const shown = this.host.show(
      simulationKey(simulation),
      vscode.l10n.t('Simulation {0}', simulation.label),
      (panel) =>
        new InspectorPanel(
          panel,
          this,
          { kind: 'timestamp', timestamp: simulation.before },
          simulation.network,
          undefined,
          simulation,
        ),
    );
    if (shown.created) void shown.panel.start();
    return shown.panel;
  }

  /** The serializer's half: a panel VS Code restored after a reload, with the state its page saved. */
  async revive(panel: vscode.WebviewPanel, raw: unknown): Promise<void> {
    const p = this.host.revive(
      panel,
      restoredState(raw),
      (s) => panelKey(s.network, s.ref),
      (webview, s) => new InspectorPanel(webview, this, s.ref, s.network, s.saved),
    );
    await p?.start();
  }

  /** The open panel of a transaction on a network, if any. */
  existing(ref: TxRef, network: NetworkName): InspectorPanel | undefined {
    return this.host.get(panelKey(network, ref));
  }

  /** Another key of an open panel's transaction (its id and nonce, learned from a hash or timestamp). */
  alias(p: InspectorPanel, key: string): void {
    this.host.alias(p, key);
  }

  list(): InspectorPanel[] {
    return this.host.list();
  }

  dispose(): void {
    this.host.dispose();
    this.storage.dispose();
    this.builds.dispose();
    this.marks.dispose();
  }
}

/** A saved state checked: its transaction and network valid (else the restored panel is closed). */
function restoredState(
  raw: unknown,
): { ok: true; value: { ref: TxRef; network: NetworkName; saved: SavedState } } | { ok: false; reason: string } {
  const state = parseSavedState(raw);
  if (!state.ok) return state;
  const ref = parseTxRef(state.value.ref);
  if (!ref.ok || !isNetworkName(state.value.network))
    return { ok: false, reason: 'its transaction or network is not valid' };
  const r = ref.value;
  if (r.kind === 'transactionId' && state.value.nonce) r.nonce = state.value.nonce;
  return { ok: true, value: { ref: r, network: state.value.network, saved: state.value } };
}
