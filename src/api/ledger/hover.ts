/**
 * The hover of a recognized reference, as Markdown text (plain TypeScript; the feature wraps it in a
 * vscode.MarkdownString). Every piece of text that came from a server or a file (names, symbols, memos, revert
 * reasons, decoded values, ids the server sent) goes through `mdEscape` (src/api/text.ts); ids this extension
 * validated itself are shown in code spans. The links are command links to this extension's commands only, each with
 * its arguments as encoded JSON, and the list of those commands is handed back for MarkdownString.isTrusted
 * (`{ enabledCommands }`, never `true`): a link in hostile text cannot run anything, and the commands check their
 * arguments again when they run (`checkTarget`, `parseRef`, and the other features' own checks).
 */
import { Command } from '../commands';
import { outcome } from '../contractResult';
import { formatTimestamp, relativeTime, timestampToDate, tinybarsToHbar } from '../format';
import type { ContractResult, ScheduleState } from '../mirrorTypes';
import { hashscanUrl, type NetworkProfile, trimBase } from '../networks';
import { decodeRevert } from '../revert';
import * as l10n from '@vscode/l10n';
import { mdEscape } from '../text';
import { parseTxRef, txRefText } from '../txRef';
import { checkAccountOrAddress, checkEntityId, checkSerial, evmAddressToEntityId, isEntityId } from '../validation';
import type { ContractInfo, LedgerInfo, ResultsSummary, Verification } from './lookup';
import type { LedgerRef } from './recognize';

/** This feature's commands (src/features/ledgerLinks). */
export const LEDGER_COMMANDS = {
  openInHashScan: Command.ledgerOpenInHashScan,
  copy: Command.ledgerCopy,
  /** A document link's target: the reference's main place (see the feature). */
  openLink: Command.ledgerOpenLink,
} as const;

/** Other features' commands a hover links to; each checks its own arguments. */
export const OTHER_COMMANDS = {
  inspect: Command.inspectTransaction,
  debug: Command.debugTransaction,
  nftHistory: Command.showNftHistory,
  contractResults: Command.contractResultsShowContract,
  callContract: Command.callContract,
} as const;

/** Every command a hover may link to: nothing else is ever enabled. */
export const HOVER_COMMANDS: readonly string[] = [...Object.values(LEDGER_COMMANDS), ...Object.values(OTHER_COMMANDS)];

export type ExplorerKind = 'account' | 'contract' | 'token' | 'topic' | 'schedule' | 'transaction';
const EXPLORER_KINDS: readonly ExplorerKind[] = ['account', 'contract', 'token', 'topic', 'schedule', 'transaction'];

/** What "Open in HashScan" opens: checked again by `checkTarget` when the command runs. */
export interface ExplorerTarget {
  kind: ExplorerKind;
  /** An entity id; an EVM address for an account or contract; a transaction id, hash or consensus timestamp. */
  id: string;
  /** An NFT's serial (with kind token). */
  serial?: string;
}

/** A command argument as an ExplorerTarget, checked as if typed; undefined when it is not one. */
export function checkTarget(arg: unknown): ExplorerTarget | undefined {
  if (!arg || typeof arg !== 'object' || Array.isArray(arg)) return undefined;
  const o = arg as Record<string, unknown>;
  const kind = EXPLORER_KINDS.find((k) => k === o.kind);
  if (!kind || typeof o.id !== 'string' || o.id.length > 200) return undefined;
  let id: string;
  if (kind === 'transaction') {
    const r = parseTxRef(o.id);
    if (!r.ok) return undefined;
    id = txRefText(r.value);
  } else {
    // the full forms only (what a hover writes): `shard.realm.num`, or an EVM address for an account or contract
    const raw = o.id.trim();
    const address = (kind === 'account' || kind === 'contract') && /^(0x)?[0-9a-fA-F]{40}$/.test(raw);
    if (!address && !isEntityId(raw)) return undefined;
    const c = address ? checkAccountOrAddress(raw) : checkEntityId(raw);
    if (!c.ok) return undefined;
    id = c.value;
  }
  const target: ExplorerTarget = { kind, id };
  if (o.serial !== undefined) {
    if (kind !== 'token' || (typeof o.serial !== 'string' && typeof o.serial !== 'number')) return undefined;
    const s = checkSerial(o.serial);
    if (!s.ok) return undefined;
    target.serial = s.value;
  }
  return target;
}

/** The explorer page of a checked target on a network. */
export function explorerUrl(profile: Pick<NetworkProfile, 'hashscanUrl'>, t: ExplorerTarget): string {
  // HashScan has topic pages; networks.ts's HashscanKind does not name them
  if (t.kind === 'topic') return `${trimBase(profile.hashscanUrl)}/topic/${encodeURIComponent(t.id)}`;
  return hashscanUrl(profile as NetworkProfile, t.kind, t.id, t.serial);
}

/** `command:id?<encoded JSON array>`: the URI of a command link (a document link's target too). */
export function commandUri(command: string, args: unknown[]): string {
  // encodeURIComponent leaves ( ) ! ' * as they are: a `)` would end a Markdown link's destination
  const query = encodeURIComponent(JSON.stringify(args)).replace(
    /[!'()*]/g,
    (c) => `%${c.charCodeAt(0).toString(16).toUpperCase()}`,
  );
  return `command:${command}?${query}`;
}

export interface HoverContext {
  /** The network the answer is from. */
  network: Pick<NetworkProfile, 'label'>;
  now?: number;
  /** The user's language for relative times (vscode.env.language). */
  locale?: string;
  /**
   * A contract result's call and revert decoded with the workspace's ABIs (the feature's ABI index), as one line
   * each; undefined leaves the call undecoded and the revert decoded as Error(string)/Panic/text.
   */
  describe?: (r: ContractResult, failed: boolean) => { call?: string; error?: string } | undefined;
}

export interface HoverContent {
  markdown: string;
  /** The commands its links run: MarkdownString.isTrusted = { enabledCommands }. */
  enabledCommands: string[];
}

/** An id this extension validated (digits, dots, dashes, hex): shown as code. Anything else is escaped text. */
function id(v: string | undefined): string {
  if (!v) return '';
  return /^(?:\d{1,19}\.\d{1,19}\.\d{1,19}(?:-\d{1,19}-\d{1,9})?|0x[0-9a-f]{40}|0x[0-9a-f]{64}|\d{1,19}\.\d{1,9})$/.test(
    v,
  )
    ? `\`${v}\``
    : mdEscape(v);
}

class Builder {
  private readonly lines: string[] = [];
  private readonly links: string[] = [];
  readonly commands = new Set<string>();

  constructor(readonly ctx: HoverContext) {}

  /** A line of Markdown this builder wrote (untrusted parts already escaped). */
  line(md: string): void {
    if (md) this.lines.push(md);
  }

  /** `Label: value` with the value escaped. */
  field(label: string, value: string | undefined, max = 300): void {
    if (value === undefined || value === '') return;
    const shown = value.length > max ? `${value.slice(0, max - 1)}…` : value;
    this.lines.push(`${mdEscape(label)}: ${mdEscape(shown)}`);
  }

  link(label: string, command: string, args: unknown[]): void {
    this.links.push(this.inline(label, command, args));
  }

  /** A command link to put inside a line. */
  inline(label: string, command: string, args: unknown[]): string {
    if (!HOVER_COMMANDS.includes(command)) throw new Error(`not a hover command: ${command}`);
    this.commands.add(command);
    return `[${mdEscape(label)}](${commandUri(command, args)})`;
  }

  when(ts: string | undefined): string {
    if (!ts) return '';
    const rel = relativeTime(timestampToDate(ts), this.ctx.now ?? Date.now(), this.ctx.locale);
    return `${formatTimestamp(ts, false) || ts}${rel ? ` (${rel})` : ''}`;
  }

  build(): HoverContent {
    const body = this.lines.join('  \n');
    const links = this.links.join(' · ');
    return { markdown: links ? `${body}\n\n---\n\n${links}` : body, enabledCommands: [...this.commands] };
  }
}

const KIND_TITLES: Record<Exclude<LedgerInfo['kind'], 'notFound' | 'error'>, () => string> = {
  account: () => l10n.t('Account'),
  contract: () => l10n.t('Contract'),
  token: () => l10n.t('Token'),
  topic: () => l10n.t('Topic'),
  schedule: () => l10n.t('Schedule'),
  transaction: () => l10n.t('Transaction'),
  contractResult: () => l10n.t('Ethereum transaction'),
};

const SCHEDULE_STATES: Record<ScheduleState, () => string> = {
  executed: () => l10n.t('executed'),
  deleted: () => l10n.t('deleted'),
  expired: () => l10n.t('expired'),
  pending: () => l10n.t('pending'),
};

/** The hover of `ref` given what the look-up answered. */
export function ledgerHover(ref: LedgerRef, info: LedgerInfo, ctx: HoverContext): HoverContent {
  const b = new Builder(ctx);
  const net = mdEscape(ctx.network.label);
  if (info.kind === 'notFound' || info.kind === 'error') {
    const what = ref.kind === 'nft' ? `${ref.value}/${ref.serial}` : ref.value;
    if (info.kind === 'notFound') b.line(`${id(what)} · ${mdEscape(notFoundSentence(ref, ctx.network.label))}`);
    else
      b.line(
        `${id(what)} · ${mdEscape(l10n.t('Could not be looked up on {0}: {1}', ctx.network.label, info.message))}`,
      );
    if (ref.kind === 'transactionId' || ref.kind === 'hash')
      b.link(l10n.t('Inspect Transaction'), OTHER_COMMANDS.inspect, [ref.value]);
    if (ref.kind === 'nft') b.link(l10n.t('Show NFT History'), OTHER_COMMANDS.nftHistory, [ref.value, ref.serial]);
    b.link(l10n.t('Copy'), LEDGER_COMMANDS.copy, [ref.text]);
    return b.build();
  }
  const title = (label: () => string, shownId: string | undefined, extra = '') =>
    b.line(`**${mdEscape(label())}** ${id(shownId)} · ${net}${extra}`);
  const hashscan = (target: ExplorerTarget) =>
    b.link(l10n.t('Open in HashScan'), LEDGER_COMMANDS.openInHashScan, [target]);
  switch (info.kind) {
    case 'account': {
      title(KIND_TITLES.account, info.id);
      if (ref.kind === 'evmAddress' && ref.value !== info.evmAddress)
        b.line(`${mdEscape(l10n.t('EVM address'))}: ${id(ref.value)}`);
      const balance = info.balance !== undefined ? tinybarsToHbar(info.balance) : undefined;
      b.field(
        l10n.t('Balance'),
        balance !== undefined
          ? info.tokens
            ? l10n.t('{0} · {1} token balances', balance, info.tokens)
            : balance
          : undefined,
      );
      b.field(l10n.t('Key'), info.keyType);
      if (info.evmAddress) b.line(`${mdEscape(l10n.t('EVM address'))}: ${id(info.evmAddress)}`);
      b.field(l10n.t('Memo'), info.memo);
      b.field(l10n.t('Created'), b.when(info.created));
      if (info.deleted) b.line(`**${mdEscape(l10n.t('Deleted'))}**`);
      hashscan({ kind: 'account', id: info.id || ref.value });
      break;
    }
    case 'contract': {
      contractLines(b, ref, info, title);
      hashscan({ kind: 'contract', id: info.id || ref.value });
      b.link(l10n.t('Show Contract Results'), OTHER_COMMANDS.contractResults, [info.id || ref.value]);
      b.link(l10n.t('Call Contract'), OTHER_COMMANDS.callContract, [info.id || ref.value]);
      break;
    }
    case 'token': {
      title(KIND_TITLES.token, info.id, info.type ? ` · ${mdEscape(info.type)}` : '');
      if (ref.kind === 'nft') b.line(`${mdEscape(l10n.t('NFT serial'))}: \`${ref.serial}\``);
      const name = [info.name, info.symbol ? `(${info.symbol})` : ''].filter(Boolean).join(' ');
      b.field(l10n.t('Name'), name, 200);
      b.field(
        l10n.t('Total supply'),
        info.totalSupply !== undefined
          ? info.decimals && info.decimals !== '0'
            ? l10n.t('{0} ({1} decimals)', info.totalSupply, info.decimals)
            : info.totalSupply
          : undefined,
      );
      if (info.treasury) b.line(`${mdEscape(l10n.t('Treasury'))}: ${id(info.treasury)}`);
      b.field(l10n.t('Admin key'), info.adminKeyType);
      b.field(l10n.t('Memo'), info.memo);
      if (info.deleted) b.line(`**${mdEscape(l10n.t('Deleted'))}**`);
      if (ref.kind === 'nft') {
        b.link(l10n.t('Show NFT History'), OTHER_COMMANDS.nftHistory, [info.id || ref.value, ref.serial]);
        hashscan({ kind: 'token', id: info.id || ref.value, serial: ref.serial });
      } else hashscan({ kind: 'token', id: info.id || ref.value });
      break;
    }
    case 'topic': {
      title(KIND_TITLES.topic, info.id);
      b.field(l10n.t('Memo'), info.memo);
      b.field(l10n.t('Admin key'), info.adminKeyType);
      b.field(l10n.t('Submit key'), info.submitKeyType);
      b.field(l10n.t('Created'), b.when(info.created));
      if (info.deleted) b.line(`**${mdEscape(l10n.t('Deleted'))}**`);
      hashscan({ kind: 'topic', id: info.id || ref.value });
      break;
    }
    case 'schedule': {
      title(KIND_TITLES.schedule, info.id, ` · ${mdEscape(SCHEDULE_STATES[info.state]?.() ?? info.state)}`);
      b.field(l10n.t('Memo'), info.memo);
      if (info.creator)
        b.line(
          `${mdEscape(l10n.t('Creator'))}: ${id(info.creator)}${info.payer && info.payer !== info.creator ? ` · ${mdEscape(l10n.t('Payer'))}: ${id(info.payer)}` : ''}`,
        );
      b.field(l10n.t('Admin key'), info.adminKeyType);
      b.field(l10n.t('Created'), b.when(info.created));
      b.field(l10n.t('Executed'), b.when(info.executed));
      hashscan({ kind: 'schedule', id: info.id || ref.value });
      break;
    }
    case 'transaction': {
      title(KIND_TITLES.transaction, info.id);
      b.line(`${mdEscape(info.name || l10n.t('unknown type'))} · ${resultText(info.result)}`);
      b.field(l10n.t('Consensus'), b.when(info.timestamp));
      b.field(l10n.t('Fee'), info.fee !== undefined ? tinybarsToHbar(info.fee) : undefined);
      if (info.entity && info.entity !== info.call?.contract_id)
        b.line(`${mdEscape(l10n.t('Entity'))}: ${id(info.entity)}`);
      if (info.call) callLines(b, info.call);
      b.field(l10n.t('Memo'), info.memo);
      if (info.children) b.field(l10n.t('Child transactions'), String(info.children));
      b.link(l10n.t('Inspect Transaction'), OTHER_COMMANDS.inspect, [ref.text]);
      hashscan({ kind: 'transaction', id: info.timestamp || info.id });
      // a contract call: stepped through in VS Code's debugger
      if (info.call) b.link(l10n.t('Debug Transaction'), OTHER_COMMANDS.debug, [ref.text]);
      break;
    }
    case 'contractResult': {
      title(KIND_TITLES.contractResult, info.hash);
      const r = info.result;
      b.line(
        `${resultText(r.result ?? (outcome(r) === 'success' ? 'SUCCESS' : outcome(r) === 'failure' ? 'failed' : ''))} · ${mdEscape(b.when(r.timestamp))}`,
      );
      callLines(b, r);
      if (info.partial) b.line(`*${mdEscape(l10n.t('The mirror node has only part of this record.'))}*`);
      b.link(l10n.t('Inspect Transaction'), OTHER_COMMANDS.inspect, [info.hash]);
      if (r.timestamp) hashscan({ kind: 'transaction', id: r.timestamp });
      b.link(l10n.t('Debug Transaction'), OTHER_COMMANDS.debug, [info.hash]);
      break;
    }
  }
  b.link(l10n.t('Copy'), LEDGER_COMMANDS.copy, [ref.text]);
  return b.build();
}

function notFoundSentence(ref: LedgerRef, network: string): string {
  switch (ref.kind) {
    case 'entity':
      return l10n.t('Not on {0}: no account, contract, token, topic or schedule has this id.', network);
    case 'evmAddress':
      return l10n.t('Not on {0}: no account or contract has this EVM address.', network);
    case 'transactionId':
      return l10n.t('Not on {0}: the mirror node has no transaction with this id.', network);
    case 'hash':
      return l10n.t('Not on {0}: the mirror node has no contract result with this hash.', network);
    case 'nft':
      return l10n.t('Not on {0}: the mirror node has no token with this id.', network);
  }
}

/** ✓ SUCCESS, ✗ CONTRACT_REVERT_EXECUTED (escaped: a result name is the server's text). */
function resultText(result: string): string {
  if (!result) return mdEscape(l10n.t('result unknown'));
  return `${result === 'SUCCESS' ? '✓' : '✗'} ${mdEscape(result)}`;
}

/** A contract call: the contract, the sender, the decoded call, the revert reason. */
function callLines(b: Builder, r: ContractResult): void {
  const failed = outcome(r) === 'failure';
  const described = b.ctx.describe?.(r, failed);
  const parts = [
    r.contract_id ? `${mdEscape(l10n.t('Contract'))}: ${id(r.contract_id)}` : '',
    r.from ? `${mdEscape(l10n.t('From'))}: ${id(evmAddressToEntityId(r.from) ?? r.from)}` : '',
  ].filter(Boolean);
  if (parts.length) b.line(parts.join(' · '));
  b.field(l10n.t('Call'), described?.call);
  if (failed) b.field(l10n.t('Revert reason'), described?.error ?? decodeRevert(r.error_message)?.message);
}

function verificationText(v: Verification): string {
  switch (v.state) {
    case 'verified':
      return v.match === 'exact_match'
        ? l10n.t('✓ verified on Sourcify (exact match)')
        : v.match === 'match'
          ? l10n.t('✓ verified on Sourcify (partial match)')
          : l10n.t('✓ verified on Sourcify ({0})', v.match);
    case 'notVerified':
      return l10n.t('not verified on Sourcify');
    case 'noAddress':
      return l10n.t('unknown (the mirror node gives no EVM address)');
    case 'unknown':
      return l10n.t('unknown: {0}', v.message);
  }
}

function contractLines(
  b: Builder,
  ref: LedgerRef,
  info: ContractInfo,
  title: (label: () => string, shownId: string | undefined, extra?: string) => void,
): void {
  title(KIND_TITLES.contract, info.id);
  const address = info.evmAddress ?? (ref.kind === 'evmAddress' ? ref.value : undefined);
  if (address) b.line(`${mdEscape(l10n.t('EVM address'))}: ${id(address)}`);
  b.field(l10n.t('Balance'), info.balance !== undefined ? tinybarsToHbar(info.balance) : undefined);
  b.field(l10n.t('Admin key'), info.adminKeyType);
  b.field(l10n.t('Memo'), info.memo);
  if (info.deleted) b.line(`**${mdEscape(l10n.t('Deleted'))}**`);
  b.field(l10n.t('Verification'), verificationText(info.verification));
  const r = info.results;
  if ('error' in r) {
    b.field(l10n.t('Latest results'), l10n.t('could not be read: {0}', r.error));
    return;
  }
  b.line(`${mdEscape(l10n.t('Latest results'))}: ${mdEscape(resultsText(b, r))}`);
  const f = r.latestFailure;
  if (f) {
    const reason = b.ctx.describe?.(f, true)?.error ?? decodeRevert(f.error_message)?.message;
    const inspect = b.inline(l10n.t('Inspect'), OTHER_COMMANDS.inspect, [f.timestamp]);
    const debug = b.inline(l10n.t('Debug'), OTHER_COMMANDS.debug, [f.timestamp]);
    b.line(
      `${mdEscape(l10n.t('Latest failure'))}: ${mdEscape(b.when(f.timestamp))}${reason ? ` · ${mdEscape(reason.length > 200 ? `${reason.slice(0, 199)}…` : reason)}` : ''} · ${inspect} · ${debug}`,
    );
  }
}

function resultsText(b: Builder, r: ResultsSummary): string {
  if (!r.read) return l10n.t('none');
  const counts = l10n.t('{0} ✓ · {1} ✗ in the latest {2}', r.successes, r.failures, r.read);
  const last = r.latest ? l10n.t('the latest {0}', b.when(r.latest.timestamp)) : '';
  return [counts, last].filter(Boolean).join(' · ');
}
