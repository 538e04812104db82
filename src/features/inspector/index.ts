/**
 * The transaction inspector, the eager part: registers "Hedera: Inspect Transaction…" and the panel serializer
 * (panels come back after a window reload, on the network they were opened on). The panels' code (`lazy.ts`, a
 * lazy entry of the build: the loader, the decoders of the trace, events and storage, the panel) loads on the
 * first use of either, not at activation. In ExtensionMode.Test only, it also returns the test seam.
 */
import * as vscode from 'vscode';
import type { FeatureContext } from '../context';
import type * as Lazy from './lazy';
import type { InspectorPanel, InspectorPanels, PanelEffects } from './panel';
import type { RenderedReport, Sections } from './protocol';
import type { RevertMark } from './revertMarks';
import { Command, registerCommand } from '../../core/commands';
import { registerPanels } from '../../ui/panelRegistration';
import { SOURCE_SCHEME, SourceDocuments } from './sourceDocuments';
import { COMPILE_CACHE, VIEW_TYPE } from './viewType';
import type { SimulationPage } from './simulation';

export type { SimulationPage } from './simulation';
export type { InspectorPanel } from './panel';

let simulations: ((s: SimulationPage) => InspectorPanel) | undefined;

/** Opens a simulated call in the inspector (the contract call panel's "Open in Inspector"); undefined before activation. */
export function inspectSimulation(s: SimulationPage): InspectorPanel | undefined {
  return simulations?.(s);
}

/** What the integration tests read of a panel. */
export interface InspectorSnapshot {
  key: string;
  title: string;
  network: string;
  visible: boolean;
  active: boolean;
  sections: Sections;
  /** What the page last reported it drew. */
  rendered?: RenderedReport;
  /** URLs opened, texts copied, raw documents shown, messages refused (the last 50 of each). */
  opened: string[];
  copied: string[];
  raw: string[];
  refused: string[];
  /** The page's HTML shell. */
  html: string;
}

/** The test seam (src/testSeams.ts `inspector`): the panels, what they did, and their effects replaced. */
export interface InspectorSeam {
  list(): InspectorPanel[];
  /** Runs the command as the palette does, with `input` as if typed (undefined: asks). */
  inspect(input?: unknown): Promise<InspectorPanel | undefined>;
  revive(panel: vscode.WebviewPanel, state: unknown): Promise<void>;
  snapshot(panel: InspectorPanel): InspectorSnapshot;
  /** Resolves when every source of the panel settled and the page drew what it holds. */
  settled(panel: InspectorPanel): Promise<void>;
  /** Called instead of opening the browser (undefined: the browser). */
  openExternal: ((url: string) => Promise<boolean>) | undefined;
  /** Runs "Go to Revert" as the command does, with `input` as its argument. */
  goToRevert(input?: unknown): Promise<vscode.TextEditor | undefined>;
  /** The revert marks in the editors now. */
  marks(): RevertMark[];
  /** Reads the workspace's builds again on the next look-up (a test changed build files and will not wait for the watcher). */
  forgetBuilds(): void;
  /** Where the compiler outputs the extension produced are kept (src/core/missingOutputs.ts). */
  readonly compileCacheDir: string;
  /** Local replays running now; `cancel` aborts them as their progress notification's Cancel does. */
  replays(): { running: number; cancel(): void };
}

export function registerInspector(ctx: FeatureContext): InspectorSeam | undefined {
  let lazy: typeof Lazy | undefined;
  // eslint-disable-next-line @typescript-eslint/no-require-imports -- a lazy entry (LAZY_ENTRIES): the panels load on first use
  const load = () => (lazy ??= require('./lazy') as typeof Lazy);
  // compiled sources shown read-only; a document restored after a reload says what it was (the texts were not kept)
  const documents = new SourceDocuments();
  const test = ctx.testMode
    ? testSeam(
        () => getPanels(),
        () => load().systemEffects,
        (input) => load().inspectCommand(getPanels(), [input]),
        (input) => load().goToRevertCommand(getPanels(), [input]),
        vscode.Uri.joinPath(ctx.extension.globalStorageUri, COMPILE_CACHE).fsPath,
        () => load().RevertLocator.replaying,
      )
    : undefined;
  let created = false;
  const getPanels: () => InspectorPanels = registerPanels(
    ctx.extension.subscriptions,
    VIEW_TYPE,
    (): InspectorPanels => {
      created = true;
      return new (load().InspectorPanels)(ctx, documents, test?.effects);
    },
  );
  ctx.extension.subscriptions.push(
    vscode.workspace.registerTextDocumentContentProvider(SOURCE_SCHEME, {
      provideTextDocumentContent: (uri) =>
        documents.text(uri) ??
        vscode.l10n.t(
          '// This compiled source is no longer available (it was opened before the window reloaded). Use "Go to Revert" again.',
        ),
    }),
  );
  const subs = ctx.extension.subscriptions;
  simulations = (s) => getPanels().showSimulation(s);
  registerCommand(subs, Command.inspectTransaction, (transaction) => load().inspectCommand(getPanels(), [transaction]));
  registerCommand(subs, Command.goToRevert, (transaction) => load().goToRevertCommand(getPanels(), [transaction]));
  registerCommand(subs, Command.clearRevertMarks, () => {
    if (created) getPanels().marks.clear();
  });
  return test?.seam;
}

/** Test mode only: effects that record what each panel did and can be replaced by the tests. */
function testSeam(
  panels: () => InspectorPanels,
  system: () => PanelEffects,
  command: (input: unknown) => Promise<InspectorPanel | undefined>,
  goToRevert: (input: unknown) => Promise<vscode.TextEditor | undefined>,
  compileCacheDir: string,
  replaying: () => Set<AbortController>,
): { seam: InspectorSeam; effects: PanelEffects } {
  interface PanelRecord {
    opened: string[];
    copied: string[];
    raw: string[];
    refused: string[];
    rendered?: RenderedReport;
  }
  const records = new WeakMap<InspectorPanel, PanelRecord>();
  const recordOf = (p: InspectorPanel): PanelRecord => {
    let r = records.get(p);
    if (!r) records.set(p, (r = { opened: [], copied: [], raw: [], refused: [] }));
    return r;
  };
  const keep = (list: string[], item: string) => {
    list.push(item);
    if (list.length > 50) list.shift();
  };
  const seam: InspectorSeam = {
    replays: () => ({
      running: replaying().size,
      cancel: () => {
        for (const c of replaying()) c.abort();
      },
    }),
    list: () => panels().list(),
    inspect: (input) => command(input),
    revive: (panel, state) => panels().revive(panel, state),
    snapshot: (p) => {
      const r = recordOf(p);
      return {
        key: p.key,
        title: p.panel.title,
        network: p.network,
        visible: p.panel.visible,
        active: p.panel.active,
        sections: p.sections(),
        rendered: r.rendered,
        opened: [...r.opened],
        copied: [...r.copied],
        raw: [...r.raw],
        refused: [...r.refused],
        html: p.panel.webview.html,
      };
    },
    settled: (p) => p.settled(),
    openExternal: undefined,
    goToRevert: (input) => goToRevert(input),
    marks: () => panels().marks.list(),
    forgetBuilds: () => panels().builds.forget(),
    compileCacheDir,
  };
  const effects: PanelEffects = {
    openExternal: (url) => (seam.openExternal ?? system().openExternal)(url),
    copy: (text) => system().copy(text),
    reportRendered: true,
    observe: (p, e) => {
      const r = recordOf(p);
      switch (e.kind) {
        case 'opened':
          keep(r.opened, e.url);
          break;
        case 'copied':
          keep(r.copied, e.text);
          break;
        case 'raw':
          keep(r.raw, e.name);
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
