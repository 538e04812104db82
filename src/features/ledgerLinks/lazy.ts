/**
 * Hovers and Ctrl+click links on Hedera references, the part that loads on first use (a lazy entry of the build:
 * LAZY_ENTRIES in esbuild.js). The hover reads one line around the position (src/api/ledger/recognize.ts), looks the
 * reference up on the selected network (src/api/ledger/lookup.ts: cached, at most 4 requests in flight, aborted when
 * the hover goes away) and writes its Markdown (src/api/ledger/hover.ts) with the enabled commands listed; a hover that
 * decodes a contract call (a transaction, a hash, a contract's latest failure) starts the workspace's ABI scan (once)
 * and waits for it at most SCAN_WAIT_MS. The links cover a bounded part of the document (MAX_LINK_LINES lines,
 * MAX_LINKS links) and request nothing: each target is a command URI with the reference, checked again when it runs.
 */
import * as vscode from 'vscode';
import type { CommandArgs, CommandId } from '../../api/commands';
import { checkTarget, explorerUrl, LEDGER_COMMANDS, ledgerHover, OTHER_COMMANDS } from '../../api/ledger/hover';
import { type LedgerInfo, LedgerLookup } from '../../api/ledger/lookup';
import { type LedgerRef, type LedgerRefKind, parseRef, refAt, refsInDocument } from '../../api/ledger/recognize';
import type { ContractResult } from '../../api/mirrorTypes';
import { notificationSafe } from '../../api/text';
import { copyText, openUrl } from '../../ui/actions';
import type { FeatureContext } from '../context';
import type { LedgerRecord } from './index';
import { cpuUsage } from '../../api/platform/node';

/** What the commands do outside the extension; the test seam records and replaces them. */
export interface LedgerEffects {
  openExternal(url: string): Promise<boolean>;
  copy(text: string, what: string): Promise<void>;
  executeCommand(command: string, ...args: unknown[]): Thenable<unknown>;
}

export const systemEffects: LedgerEffects = {
  openExternal: (url) => openUrl(url),
  copy: (text, what) => copyText(text, what),
  executeCommand: (command, ...args) => vscode.commands.executeCommand(command, ...args),
};

/** How long a hover waits for the workspace's first ABI scan before decoding a call without it. */
const SCAN_WAIT_MS = 1_500;

/**
 * A link's target: this feature's command with the reference as its argument. Uri.from (no parsing): the query is the
 * JSON itself, which VS Code's command opener reads (it decodes the query, then parses it; no `%` in a reference).
 */
function linkTarget(refText: string): vscode.Uri {
  return vscode.Uri.from({ scheme: 'command', path: LEDGER_COMMANDS.openLink, query: JSON.stringify([refText]) });
}

/** CPU time of this process since `from` (process.cpuUsage), in ms: unlike wall time, not grown by other processes. */
const cpuMs = (from: NodeJS.CpuUsage): number => {
  const d = cpuUsage(from);
  return (d.user + d.system) / 1000;
};

const isCancel = (e: unknown): boolean =>
  !!e && typeof e === 'object' && (e as { kind?: unknown }).kind === 'cancelled';

export class LedgerLinks implements vscode.Disposable {
  readonly lookup: LedgerLookup;
  private readonly tooltips = new Map<LedgerRefKind, string>();

  constructor(
    private readonly ctx: FeatureContext,
    private readonly effects: LedgerEffects,
    private readonly record?: LedgerRecord,
  ) {
    this.lookup = new LedgerLookup(() => {
      const c = ctx.network.clients;
      return { key: `${c.profile.name}|${c.profile.mirrorUrl}`, profile: c.profile, mirror: c.mirror, http: c.http };
    });
  }

  // ------------------------------------------------------------------ hover

  async provideHover(
    document: vscode.TextDocument,
    position: vscode.Position,
    token: vscode.CancellationToken,
  ): Promise<vscode.Hover | undefined> {
    let started = performance.now();
    let cpu = cpuUsage();
    let own = 0;
    let ownCpu = 0;
    try {
      const ref = refAt(document.lineAt(position.line).text, position.character);
      own += performance.now() - started;
      ownCpu += cpuMs(cpu);
      if (!ref || token.isCancellationRequested || !allowedIn(document, ref)) return undefined;
      const profile = this.ctx.network.profile;
      const info = await this.answer(ref, token);
      if (!info || token.isCancellationRequested) return undefined;
      if (needsDecoding(info)) await this.abisScanned();
      if (token.isCancellationRequested) return undefined;
      started = performance.now();
      cpu = cpuUsage();
      const content = ledgerHover(ref, info, {
        network: profile,
        locale: vscode.env.language,
        describe: (r, failed) => this.describe(r, failed),
      });
      const md = new vscode.MarkdownString(content.markdown);
      md.isTrusted = { enabledCommands: content.enabledCommands };
      md.supportHtml = false;
      md.supportThemeIcons = false;
      const hover = new vscode.Hover(md, new vscode.Range(position.line, ref.start, position.line, ref.end));
      own += performance.now() - started;
      ownCpu += cpuMs(cpu);
      return hover;
    } finally {
      this.record?.provider('hover', own, ownCpu);
    }
  }

  /** The look-up, aborted when the hover goes away (undefined then). */
  private async answer(ref: LedgerRef, token: vscode.CancellationToken): Promise<LedgerInfo | undefined> {
    const abort = new AbortController();
    const sub = token.onCancellationRequested(() => abort.abort());
    try {
      const info = await this.lookup.get(ref, abort.signal);
      if (info.kind === 'error') this.ctx.log.warn(`Hover: ${ref.value} could not be looked up: ${info.message}`);
      return info;
    } catch (e) {
      if (isCancel(e)) return undefined;
      throw e;
    } finally {
      sub.dispose();
    }
  }

  /** The workspace's ABIs decode calls: the first scan is waited for, a little. */
  private async abisScanned(): Promise<void> {
    this.ctx.abis.ensureStarted();
    let timer: ReturnType<typeof setTimeout> | undefined;
    await Promise.race([
      this.ctx.abis.scanned(),
      new Promise<void>((resolve) => {
        timer = setTimeout(resolve, SCAN_WAIT_MS);
      }),
    ]);
    clearTimeout(timer);
  }

  private describe(r: ContractResult, failed: boolean): { call?: string; error?: string } | undefined {
    const d = this.ctx.abis.decodeResult(r, failed);
    if (!d) return undefined;
    const call = d.creation
      ? vscode.l10n.t('creation of {0}', d.creation.text ?? d.creation.contractName ?? vscode.l10n.t('a contract'))
      : d.call?.text;
    return { call, error: d.error?.message };
  }

  // ------------------------------------------------------------------ links

  provideDocumentLinks(document: vscode.TextDocument, token: vscode.CancellationToken): vscode.DocumentLink[] {
    const started = performance.now();
    const cpu = cpuUsage();
    const links: vscode.DocumentLink[] = [];
    try {
      for (const { line, ref } of refsInDocument(
        document.lineCount,
        (i) => document.lineAt(i).text,
        () => token.isCancellationRequested,
      )) {
        if (!allowedIn(document, ref)) continue;
        const link = new vscode.DocumentLink(new vscode.Range(line, ref.start, line, ref.end), linkTarget(ref.text));
        link.tooltip = this.tooltip(ref.kind);
        links.push(link);
      }
      return links;
    } finally {
      this.record?.provider('links', performance.now() - started, cpuMs(cpu), links.length);
    }
  }

  private tooltip(kind: LedgerRefKind): string {
    let t = this.tooltips.get(kind);
    if (!t) {
      t =
        kind === 'transactionId' || kind === 'hash'
          ? vscode.l10n.t('Inspect the transaction')
          : kind === 'nft'
            ? vscode.l10n.t("Show the NFT's history")
            : vscode.l10n.t("Look it up on the selected network: a contract's results, or HashScan");
      this.tooltips.set(kind, t);
    }
    return t;
  }

  // ------------------------------------------------------------------ commands (arguments checked again)

  /** "Open in HashScan": `{ kind, id, serial? }` on the selected network. */
  async openInHashScan(arg: unknown): Promise<boolean> {
    const target = checkTarget(arg);
    if (!target) return this.refuse('Open in HashScan', arg);
    const url = explorerUrl(this.ctx.network.profile, target);
    this.record?.effect('opened', url);
    return this.effects.openExternal(url);
  }

  /** "Copy": one reference, as written. */
  async copy(arg: unknown): Promise<boolean> {
    const ref = parseRef(arg);
    if (!ref) return this.refuse('Copy', arg);
    const text = ref.text.trim();
    this.record?.effect('copied', text);
    await this.effects.copy(text, text);
    return true;
  }

  /**
   * A followed link: a transaction (id or hash) opens in the inspector, an NFT's history in its panel; an entity id
   * or address is looked up first: a contract's results are shown in the Contract Results view, anything else opens
   * in HashScan.
   */
  async openLink(arg: unknown): Promise<boolean> {
    const ref = parseRef(arg);
    if (!ref) return this.refuse('Open link', arg);
    switch (ref.kind) {
      case 'transactionId':
      case 'hash':
        return this.run(OTHER_COMMANDS.inspect, ref.text.trim());
      case 'nft':
        return this.run(OTHER_COMMANDS.nftHistory, ref.value, ref.serial);
      case 'entity':
      case 'evmAddress': {
        const profile = this.ctx.network.profile;
        const info = await vscode.window.withProgress(
          { location: vscode.ProgressLocation.Window, title: vscode.l10n.t('Looking up {0}', ref.value) },
          () => this.lookup.get(ref),
        );
        switch (info.kind) {
          case 'contract':
            return this.run(OTHER_COMMANDS.contractResults, info.id || ref.value);
          case 'account':
          case 'token':
          case 'topic':
          case 'schedule':
            return this.openInHashScan({ kind: info.kind, id: info.id || ref.value });
          case 'notFound':
            void vscode.window.showInformationMessage(
              vscode.l10n.t(
                '{0} is not on {1}: no account, contract, token, topic or schedule has it.',
                ref.value,
                profile.label,
              ),
            );
            return false;
          case 'error':
            void vscode.window.showErrorMessage(
              notificationSafe(
                vscode.l10n.t('{0} could not be looked up on {1}: {2}', ref.value, profile.label, info.message),
              ),
            );
            return false;
          default:
            return false;
        }
      }
    }
  }

  private async run<K extends CommandId>(command: K, ...args: CommandArgs[K]): Promise<boolean> {
    this.record?.command(command, args);
    await this.effects.executeCommand(command, ...args);
    return true;
  }

  private refuse(what: string, arg: unknown): false {
    let shown: string;
    try {
      shown = JSON.stringify(arg) ?? String(arg);
    } catch {
      shown = String(arg);
    }
    this.ctx.log.warn(`${what}: refused an argument that is not a Hedera reference: ${notificationSafe(shown, 120)}`);
    this.record?.effect('refused', `${what}: ${shown.slice(0, 200)}`);
    return false;
  }

  dispose(): void {
    this.lookup.clear();
  }
}

/** Whether the hover decodes a contract call (then the workspace's ABIs are waited for, a little). */
function needsDecoding(info: LedgerInfo): boolean {
  return (
    (info.kind === 'transaction' && !!info.call) ||
    info.kind === 'contractResult' ||
    (info.kind === 'contract' && !('error' in info.results) && !!info.results.latestFailure)
  );
}

/**
 * Files that hold keys (`.env*`, Hardhat and Foundry configuration): a 32-byte value there is never taken for a
 * transaction hash, whatever the line says (the recognizer already asks for words such as `tx` or `hash` before it).
 */
const KEY_FILES = /(^|[\\/])(\.env[^\\/]*|hardhat\.config\.[cm]?[jt]s|foundry\.toml|\.secret[^\\/]*)$/i;

/** Package manifests and lock files: their `0.0.3` are versions, not entity ids. */
const PACKAGE_FILES =
  /(^|[\\/])(package\.json|package-lock\.json|npm-shrinkwrap\.json|yarn\.lock|pnpm-lock\.yaml|Cargo\.(toml|lock)|go\.sum)$/i;

function allowedIn(document: vscode.TextDocument, ref: LedgerRef): boolean {
  if (ref.kind === 'hash' && KEY_FILES.test(document.uri.path)) return false;
  if ((ref.kind === 'entity' || ref.kind === 'nft') && PACKAGE_FILES.test(document.uri.path)) return false;
  return true;
}
