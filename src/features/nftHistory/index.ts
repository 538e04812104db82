/**
 * The eager part of the NFT history: registers "Hedera: Show NFT History" and the panel serializer (panels come
 * back after a reload). The panels' code (`lazy.ts`, a lazy entry of the build) is loaded on the first use of
 * either, not at activation. In ExtensionMode.Test only, it also returns the test seam (`NftHistorySeam`).
 */
import type * as vscode from 'vscode';
import type { FeatureContext } from '../context';
import type * as Lazy from './lazy';
import type { NftHistoryPanel, NftHistoryPanels, NftPanelEffects } from './panel';
import type { NftQuery, RenderedReport, ViewState } from './protocol';
import { Command, registerCommand } from '../../core/commands';
import { registerPanels } from '../../ui/panelRegistration';
import { VIEW_TYPE } from './viewType';

/** What the integration tests read of a panel. */
export interface NftPanelSnapshot {
  key: string;
  title: string;
  visible: boolean;
  active: boolean;
  state: ViewState;
  /** What the page last reported it rendered. */
  rendered?: RenderedReport;
  /** HashScan URLs opened from this panel (the last 50). */
  opened: string[];
  /** Files written by Export (the last 50). */
  exported: string[];
  /** Messages from the page that were refused (the last 50). */
  refused: string[];
  html: string;
}

/** The test seam (src/testSeams.ts `nftHistory`): the panels, what they did, and their effects replaced. */
export interface NftHistorySeam {
  /** Every open panel. */
  list(): NftHistoryPanel[];
  get(tokenId: string, serial: string): NftHistoryPanel | undefined;
  /** Opens (or focuses) the panel of an NFT, as the command does after its questions. */
  show(tokenId: string, serial: string, query?: NftQuery): NftHistoryPanel;
  /** The serializer's half: restores `panel` from a saved state. */
  revive(panel: vscode.WebviewPanel, state: unknown): Promise<void>;
  snapshot(panel: NftHistoryPanel): NftPanelSnapshot;
  /** Where Export writes instead of asking with the save dialog (undefined: the dialog). */
  saveTarget: ((format: 'csv' | 'json') => vscode.Uri | undefined) | undefined;
  /** Called instead of opening the browser (undefined: the browser). */
  openExternal: ((url: string) => Promise<boolean>) | undefined;
}

export function registerNftHistory(ctx: FeatureContext): NftHistorySeam | undefined {
  const { extension: context, network, log } = ctx;
  let lazy: typeof Lazy | undefined;
  // eslint-disable-next-line @typescript-eslint/no-require-imports -- a lazy entry (LAZY_ENTRIES): the panels load on first use
  const load = () => (lazy ??= require('./lazy') as typeof Lazy);
  const test = ctx.testMode
    ? testSeam(
        () => getPanels(),
        () => load().systemEffects,
      )
    : undefined;
  const getPanels: () => NftHistoryPanels = registerPanels(
    context.subscriptions,
    VIEW_TYPE,
    (): NftHistoryPanels =>
      new (load().NftHistoryPanels)(context.extensionUri, network, log, context.globalState, test?.effects),
  );
  registerCommand(context.subscriptions, Command.showNftHistory, (tokenId, serial) =>
    load().showNftHistoryCommand(getPanels(), [tokenId, serial]),
  );
  return test?.seam;
}

/** Test mode only: effects that record what each panel did and can be replaced by the tests. */
function testSeam(
  panels: () => NftHistoryPanels,
  system: () => NftPanelEffects,
): { seam: NftHistorySeam; effects: NftPanelEffects } {
  interface PanelRecord {
    opened: string[];
    exported: string[];
    refused: string[];
    rendered?: RenderedReport;
  }
  const records = new WeakMap<NftHistoryPanel, PanelRecord>();
  const recordOf = (p: NftHistoryPanel): PanelRecord => {
    let r = records.get(p);
    if (!r) records.set(p, (r = { opened: [], exported: [], refused: [] }));
    return r;
  };
  const keep = (list: string[], item: string) => {
    list.push(item);
    if (list.length > 50) list.shift();
  };
  const seam: NftHistorySeam = {
    list: () => panels().list(),
    get: (tokenId, serial) => panels().get(tokenId, serial),
    show: (tokenId, serial, query) => panels().show(tokenId, serial, query),
    revive: (panel, state) => panels().revive(panel, state),
    snapshot: (p) => {
      const r = recordOf(p);
      return {
        key: p.key,
        title: p.panel.title,
        visible: p.panel.visible,
        active: p.panel.active,
        state: p.viewState(),
        rendered: r.rendered,
        opened: [...r.opened],
        exported: [...r.exported],
        refused: [...r.refused],
        html: p.panel.webview.html,
      };
    },
    saveTarget: undefined,
    openExternal: undefined,
  };
  const effects: NftPanelEffects = {
    openExternal: (url) => (seam.openExternal ?? system().openExternal)(url),
    askSaveTarget: (format, options) =>
      seam.saveTarget ? Promise.resolve(seam.saveTarget(format)) : system().askSaveTarget(format, options),
    observe: (p, e) => {
      const r = recordOf(p);
      switch (e.kind) {
        case 'opened':
          keep(r.opened, e.url);
          break;
        case 'exported':
          keep(r.exported, e.uri);
          break;
        case 'refused':
          keep(r.refused, e.reason);
          break;
        case 'rendered':
          r.rendered = e.report;
          break;
      }
    },
  };
  return { seam, effects };
}
