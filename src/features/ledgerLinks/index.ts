/**
 * Hovers and Ctrl+click links on Hedera references in any text document (entity ids, EVM addresses, transaction ids,
 * hashes, token/serial): the eager part. It registers a hover provider and a document link provider (for the
 * languages of `hederaExplorer.hovers.languages`, unless `hederaExplorer.hovers.enabled` is off; again when either
 * changes) and the commands the hovers' links run. Both providers are tiny objects: the code that recognizes, looks
 * up and writes (`lazy.ts`, a lazy entry of the build) loads when VS Code first asks one of them. Nothing is
 * requested until the user hovers (or follows a link). In ExtensionMode.Test only, it also returns the test seam.
 */
import * as vscode from 'vscode';
import type { LookupStats } from '../../api/ledger/lookup';
import { Command, registerCommand } from '../../core/commands';
import { soon } from '../../core/disposables';
import { config } from '../../core/settings';
import { RAW_SCHEME } from '../../ui/actions';
import type { FeatureContext } from '../context';
import type * as Lazy from './lazy';
import type { LedgerEffects, LedgerLinks } from './lazy';

const SETTINGS = 'hederaExplorer.hovers';

/** What the tests read: the look-ups' counts and the providers' own time, per call (ms). */
export interface LedgerLinksStats extends LookupStats {
  hovers: number;
  linkRequests: number;
  /** Each hover's own time (recognizing, writing; not the look-up's requests), the latest 500: wall and CPU ms. */
  hoverMs: number[];
  hoverCpuMs: number[];
  /** Each provideDocumentLinks call's time (wall and CPU ms), the latest 500, and the links it gave. */
  linkMs: number[];
  linkCpuMs: number[];
  linkCounts: number[];
}

/** The test seam (src/testSeams.ts `ledgerLinks`). */
export interface LedgerLinksSeam {
  /** Whether the lazy part has loaded (VS Code asked a provider, or a command ran). */
  readonly loaded: boolean;
  /** The document selector the providers are registered for (undefined: off). */
  readonly selector: vscode.DocumentFilter[] | undefined;
  stats(): LedgerLinksStats;
  /** Forgets the cached answers and zeroes nothing else. */
  clearCache(): void;
  /** What the commands did: URLs opened, texts copied, other commands run (with their arguments), refusals (the latest 50 of each). */
  effects(): {
    opened: string[];
    copied: string[];
    commands: Array<{ command: string; args: unknown[] }>;
    refused: string[];
  };
  /** Called instead of opening the browser (undefined: the browser). */
  openExternal: ((url: string) => Promise<boolean>) | undefined;
}

/**
 * The document selector of the languages setting: every language (`*`) or the listed ones; files, untitled documents,
 * raw JSON documents and the files of the workspace folders' schemes (`folderSchemes`: a virtual workspace's, such as
 * github.dev's vscode-vfs:, or vscode-remote: in a browser's extension host), not other schemes' documents (output,
 * diffs' originals).
 */
export function selectorFor(languages: unknown, folderSchemes: readonly string[] = []): vscode.DocumentFilter[] {
  const list = Array.isArray(languages)
    ? languages.filter((l): l is string => typeof l === 'string' && /^[\w.+#-]{1,64}$|^\*$/.test(l))
    : ['*'];
  const schemes = [...new Set(['file', 'untitled', RAW_SCHEME, ...folderSchemes])];
  if (!list.length) return [];
  if (list.includes('*')) return schemes.map((scheme) => ({ scheme }));
  return list.flatMap((language) => schemes.map((scheme) => ({ language, scheme })));
}

export function registerLedgerLinks(ctx: FeatureContext): LedgerLinksSeam | undefined {
  let lazy: typeof Lazy | undefined;
  let links: LedgerLinks | undefined;
  let selector: vscode.DocumentFilter[] | undefined;
  // eslint-disable-next-line @typescript-eslint/no-require-imports -- a lazy entry (LAZY_ENTRIES): loads when VS Code first asks a provider
  const load = () => (lazy ??= require('./lazy') as typeof Lazy);
  const test = ctx.testMode
    ? testSeam(
        () => links,
        () => load().systemEffects,
        () => selector,
      )
    : undefined;
  const get = (): LedgerLinks => {
    if (!links) {
      links = new (load().LedgerLinks)(ctx, test?.effects ?? load().systemEffects, test?.record);
      ctx.extension.subscriptions.push(links);
    }
    return links;
  };
  let registration: vscode.Disposable | undefined;
  /** The selector of the settings (undefined: off). */
  const selectorOfSettings = (): vscode.DocumentFilter[] | undefined => {
    const cfg = config();
    if (cfg.get<boolean>('hovers.enabled', true) === false) return undefined;
    const filters = selectorFor(
      cfg.get<unknown>('hovers.languages', ['*']),
      (vscode.workspace.workspaceFolders ?? []).map((f) => f.uri.scheme),
    );
    return filters.length ? filters : undefined;
  };
  const register = () => {
    registration?.dispose();
    registration = undefined;
    selector = selectorOfSettings();
    if (!selector) return;
    registration = vscode.Disposable.from(
      vscode.languages.registerHoverProvider(selector, { provideHover: (d, p, t) => get().provideHover(d, p, t) }),
      vscode.languages.registerDocumentLinkProvider(selector, {
        provideDocumentLinks: (d, t) => get().provideDocumentLinks(d, t),
      }),
    );
  };
  // the providers are registered right after activation, not during it: nothing asks them before the views are drawn
  selector = selectorOfSettings();
  ctx.extension.subscriptions.push(
    soon(register),
    { dispose: () => registration?.dispose() },
    vscode.workspace.onDidChangeConfiguration((e) => {
      if (e.affectsConfiguration(SETTINGS)) register();
    }),
    vscode.workspace.onDidChangeWorkspaceFolders(register),
  );
  const subs = ctx.extension.subscriptions;
  registerCommand(subs, Command.ledgerOpenInHashScan, (arg) => get().openInHashScan(arg));
  registerCommand(subs, Command.ledgerCopy, (arg) => get().copy(arg));
  registerCommand(subs, Command.ledgerOpenLink, (arg) => get().openLink(arg));
  return test?.seam;
}

/** What the test seam records, given to the lazy part. */
export interface LedgerRecord {
  provider(kind: 'hover' | 'links', wallMs: number, cpuMs: number, links?: number): void;
  effect(kind: 'opened' | 'copied' | 'refused', text: string): void;
  command(command: string, args: unknown[]): void;
}

/** Test mode only: the records, and effects that record what the commands did and can be replaced. */
function testSeam(
  links: () => LedgerLinks | undefined,
  system: () => LedgerEffects,
  selector: () => vscode.DocumentFilter[] | undefined,
): { seam: LedgerLinksSeam; effects: LedgerEffects; record: LedgerRecord } {
  const latest = <T>(list: T[], item: T, max: number) => {
    list.push(item);
    if (list.length > max) list.shift();
  };
  const calls = {
    hovers: 0,
    linkRequests: 0,
    hoverMs: [] as number[],
    hoverCpuMs: [] as number[],
    linkMs: [] as number[],
    linkCpuMs: [] as number[],
    linkCounts: [] as number[],
  };
  const done = {
    opened: [] as string[],
    copied: [] as string[],
    refused: [] as string[],
    commands: [] as Array<{ command: string; args: unknown[] }>,
  };
  const zero: LookupStats = {
    lookups: 0,
    cacheHits: 0,
    joined: 0,
    requests: 0,
    aborted: 0,
    inFlight: 0,
    maxInFlight: 0,
    cached: 0,
  };
  const seam: LedgerLinksSeam = {
    get loaded() {
      return links() !== undefined;
    },
    get selector() {
      return selector();
    },
    stats: () => ({
      ...(links()?.lookup.stats() ?? zero),
      hovers: calls.hovers,
      linkRequests: calls.linkRequests,
      hoverMs: [...calls.hoverMs],
      hoverCpuMs: [...calls.hoverCpuMs],
      linkMs: [...calls.linkMs],
      linkCpuMs: [...calls.linkCpuMs],
      linkCounts: [...calls.linkCounts],
    }),
    clearCache: () => links()?.lookup.clear(),
    effects: () => ({
      opened: [...done.opened],
      copied: [...done.copied],
      refused: [...done.refused],
      commands: done.commands.map((c) => ({ ...c })),
    }),
    openExternal: undefined,
  };
  const effects: LedgerEffects = {
    openExternal: (url) => (seam.openExternal ?? system().openExternal)(url),
    copy: (text, what) => system().copy(text, what),
    executeCommand: (command, ...args) => system().executeCommand(command, ...args),
  };
  const record: LedgerRecord = {
    provider: (kind, wallMs, cpuMs, count) => {
      if (kind === 'hover') {
        calls.hovers++;
        latest(calls.hoverMs, wallMs, 500);
        latest(calls.hoverCpuMs, cpuMs, 500);
      } else {
        calls.linkRequests++;
        latest(calls.linkMs, wallMs, 500);
        latest(calls.linkCpuMs, cpuMs, 500);
        latest(calls.linkCounts, count ?? 0, 500);
      }
    },
    effect: (kind, text) => latest(done[kind], text, 50),
    command: (command, args) => latest(done.commands, { command, args }, 50),
  };
  return { seam, effects, record };
}
