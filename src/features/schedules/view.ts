/**
 * The "Schedules" view: scheduled transactions from the mirror node, with filters (account id, schedule id,
 * order, page size), paging, details, "Open schedule by id", copy, HashScan and raw JSON.
 * Nothing is requested while the view is hidden.
 */
import * as vscode from 'vscode';
import type { ListViewId } from '../../api/commands';
import { isApiError } from '../../api/errors';
import { formatTimestamp, relativeTime, timestampToDate } from '../../api/format';
import { type Page, scheduleState, type SchedulesQuery } from '../../api/mirror';
import type { BodyField } from '../../api/decode';
import type { Schedule, ScheduleState } from '../../api/mirrorTypes';
import {
  checkEntityId,
  checkEntityIdFilter,
  checkLimit,
  type Filter,
  filterToParam,
  unwrap,
} from '../../api/validation';
import type { ExtensionLog } from '../../core/log';
import type { FilterField } from '../../ui/filterPicker';
import { ListView } from '../../ui/listView';
import {
  anyValueNode,
  DetailNode,
  flattenDetails,
  GroupNode,
  mdEscape,
  notificationSafe,
  oneLine,
  type TreeNode,
} from '../../ui/nodes';
import type { FeatureContext } from '../context';
import type { AbiIndex } from '../decoding';
import { decodedWith } from '../../workspace/deployedBuild';
import { base64Bytes, hexOf } from '../../api/platform/node';

interface ScheduleFilters {
  accountId?: Filter;
  scheduleId?: Filter;
  order: 'asc' | 'desc';
  limit: number;
}

/** Filters as typed or passed by a command: '' clears a field (the page size back to its default). */
export interface ScheduleFilterInput {
  accountId: string;
  scheduleId: string;
  order: string;
  limit: number | string;
}

const DEFAULT_FILTERS: ScheduleFilters = { order: 'asc', limit: 25 };

const STATE_ICON: Record<ScheduleState, vscode.ThemeIcon> = {
  pending: new vscode.ThemeIcon('clock', new vscode.ThemeColor('charts.yellow')),
  executed: new vscode.ThemeIcon('pass', new vscode.ThemeColor('testing.iconPassed')),
  deleted: new vscode.ThemeIcon('trash', new vscode.ThemeColor('disabledForeground')),
  expired: new vscode.ThemeIcon('history', new vscode.ThemeColor('disabledForeground')),
};

const stateLabel = (s: ScheduleState): string =>
  ({
    pending: vscode.l10n.t('pending'),
    executed: vscode.l10n.t('executed'),
    deleted: vscode.l10n.t('deleted'),
    expired: vscode.l10n.t('expired'),
  })[s];

function base64ToHex(b64: string): string {
  try {
    return hexOf(base64Bytes(b64));
  } catch {
    return '';
  }
}

function bodyFieldNode(f: BodyField): DetailNode {
  return new DetailNode(f.label, f.value, { tooltip: f.value, children: f.children?.map(bodyFieldNode) });
}

/** Details of one schedule, as rows; its body decoded with the workspace's ABIs. */
function scheduleDetails(s: Schedule, abis: AbiIndex): TreeNode[] {
  const rows: TreeNode[] = [];
  const ts = (label: string, v: string | null | undefined, none: string) =>
    new DetailNode(
      label,
      v ? `${formatTimestamp(v, false)} · ${relativeTime(timestampToDate(v), Date.now(), vscode.env.language)}` : none,
      { tooltip: v ? formatTimestamp(v) : none },
    );
  rows.push(new DetailNode(vscode.l10n.t('State'), stateLabel(scheduleState(s))));
  rows.push(new DetailNode(vscode.l10n.t('Memo'), s.memo ?? '', { tooltip: s.memo ?? '' }));
  rows.push(new DetailNode(vscode.l10n.t('Payer'), s.payer_account_id ?? ''));
  rows.push(new DetailNode(vscode.l10n.t('Creator'), s.creator_account_id ?? ''));
  rows.push(ts(vscode.l10n.t('Created'), s.consensus_timestamp, ''));
  rows.push(ts(vscode.l10n.t('Executed'), s.executed_timestamp, vscode.l10n.t('not executed')));
  rows.push(ts(vscode.l10n.t('Expires'), s.expiration_time, vscode.l10n.t('no expiration time set')));
  rows.push(
    new DetailNode(vscode.l10n.t('Wait for expiry'), s.wait_for_expiry ? vscode.l10n.t('yes') : vscode.l10n.t('no')),
  );
  if (s.admin_key) {
    rows.push(
      new DetailNode(vscode.l10n.t('Admin key'), `${s.admin_key._type} ${s.admin_key.key}`, {
        children: [
          new DetailNode(vscode.l10n.t('Type'), String(s.admin_key._type)),
          new DetailNode(vscode.l10n.t('Key'), String(s.admin_key.key)),
        ],
      }),
    );
  } else {
    rows.push(new DetailNode(vscode.l10n.t('Admin key'), vscode.l10n.t('none (the schedule cannot be deleted)')));
  }
  const sigs = Array.isArray(s.signatures) ? s.signatures : [];
  rows.push(
    new GroupNode(
      vscode.l10n.t('Signatures'),
      sigs.map((g, i) => {
        const hex = base64ToHex(g.public_key_prefix ?? '');
        return new DetailNode(
          String(g.type ?? 'UNKNOWN'),
          `0x${hex} · ${formatTimestamp(g.consensus_timestamp, false)}`,
          {
            tooltip: `#${i + 1} ${g.type}\npublic key prefix: ${g.public_key_prefix} (0x${hex})\nsignature: ${g.signature}\ntime: ${formatTimestamp(g.consensus_timestamp)}`,
            icon: new vscode.ThemeIcon('key'),
          },
        );
      }),
      { description: String(sigs.length), icon: new vscode.ThemeIcon('pencil') },
    ),
  );
  const body = s.transaction_body ?? '';
  const decoded = abis.decodeSchedule(s);
  if (decoded) {
    const origin = decoded.call?.origin;
    // a call decoded with a workspace ABI: whether that build is the code at the called contract (asked now, shown
    // when the resolver answers), as Contract Results say it
    if (origin?.kind === 'workspace' && decoded.contractId) void abis.checkContract(decoded.contractId);
    const said =
      origin?.kind === 'workspace' && decoded.contractId
        ? decodedWith(abis.buildCheck(decoded.contractId), {
            contractName: origin.contractName,
            signature: decoded.call?.signature,
          })
        : undefined;
    const field = (f: BodyField): DetailNode =>
      said && f.label === vscode.l10n.t('Decoded with') && !f.children
        ? new DetailNode(f.label, `${f.value} · ${said.note}`, {
            tooltip: `${f.value}\n${said.tooltip}`,
            icon: new vscode.ThemeIcon(said.confirmed ? 'pass' : 'file-code'),
          })
        : bodyFieldNode(f);
    rows.push(
      new DetailNode(vscode.l10n.t('Scheduled transaction'), decoded.summary, {
        tooltip: headline(decoded),
        icon: new vscode.ThemeIcon('symbol-event'),
        children: decoded.fields.map(field),
      }),
    );
  }
  rows.push(
    new DetailNode(
      vscode.l10n.t('Transaction body'),
      `${vscode.l10n.t('{0} bytes', base64Bytes(body).length)} · ${body}`,
      {
        tooltip: body,
        icon: new vscode.ThemeIcon('file-binary'),
      },
    ),
  );
  const known = new Set([
    'admin_key',
    'consensus_timestamp',
    'creator_account_id',
    'deleted',
    'executed_timestamp',
    'expiration_time',
    'memo',
    'payer_account_id',
    'schedule_id',
    'signatures',
    'transaction_body',
    'wait_for_expiry',
  ]);
  const extra = Object.keys(s).filter((k) => !known.has(k));
  for (const k of extra) rows.push(anyValueNode(k, s[k]));
  return rows;
}

/** The decoded body in one line: "Crypto transfer: 0.0.1 → 0.0.2 5 ℏ", or the summary alone when it starts with the title ("Token burn 0.0.x 40"). */
function headline(body: { title: string; summary: string }): string {
  return body.summary.startsWith(body.title) ? body.summary : `${body.title}: ${body.summary}`;
}

class ScheduleNode implements TreeNode {
  constructor(
    readonly schedule: Schedule,
    private readonly network: string,
    private readonly abis: AbiIndex,
    private readonly pinned = false,
  ) {}

  get id(): string {
    return `${this.pinned ? 'pinned' : 'schedule'}:${this.network}:${this.schedule.schedule_id}`;
  }

  getTreeItem(): vscode.TreeItem {
    const s = this.schedule;
    const state = scheduleState(s);
    const body = this.abis.decodeSchedule(s);
    const item = new vscode.TreeItem(
      oneLine(body ? `${s.schedule_id} · ${oneLine(body.summary, 100)}` : String(s.schedule_id), 400),
      this.pinned ? vscode.TreeItemCollapsibleState.Expanded : vscode.TreeItemCollapsibleState.Collapsed,
    );
    item.id = this.id;
    const memo = oneLine(s.memo ?? '', 60);
    item.description = oneLine(
      [stateLabel(state), memo, s.creator_account_id ? vscode.l10n.t('by {0}', s.creator_account_id) : '']
        .filter(Boolean)
        .join(' · '),
      400,
    );
    item.iconPath = this.pinned ? new vscode.ThemeIcon('pinned') : STATE_ICON[state];
    const md = new vscode.MarkdownString();
    md.appendMarkdown(`**${mdEscape(String(s.schedule_id))}** · ${mdEscape(stateLabel(state))}\n\n`);
    if (body) md.appendMarkdown(`${mdEscape(oneLine(headline(body), 300))}\n\n`);
    if (s.memo) md.appendMarkdown(`${mdEscape(s.memo)}\n\n`);
    md.appendMarkdown(
      `${mdEscape(vscode.l10n.t('Creator'))}: ${mdEscape(String(s.creator_account_id))}  \n${mdEscape(vscode.l10n.t('Created'))}: ${mdEscape(formatTimestamp(s.consensus_timestamp))}`,
    );
    item.tooltip = md;
    item.accessibilityInformation = {
      label: oneLine(
        `${vscode.l10n.t('Schedule')} ${s.schedule_id}, ${stateLabel(state)}${memo ? `, ${memo}` : ''}${body ? `, ${oneLine(body.summary, 100)}` : ''}`,
        600,
      ),
    };
    item.contextValue = 'schedule';
    return item;
  }

  getChildren(): TreeNode[] {
    return scheduleDetails(this.schedule, this.abis);
  }
}

export class SchedulesView extends ListView<Schedule, ScheduleFilters, ScheduleFilterInput> {
  private pinned: ScheduleNode | undefined;
  private readonly log: ExtensionLog;
  private readonly abis: AbiIndex;

  constructor(
    ctx: FeatureContext,
    treeView: vscode.TreeView<TreeNode>,
    private readonly viewId: ListViewId,
  ) {
    super(ctx.extension, ctx.network, treeView, {
      viewId,
      defaults: () => ({ ...DEFAULT_FILTERS }),
      filterTitle: vscode.l10n.t('Schedule Filters'),
    });
    this.log = ctx.log;
    this.abis = ctx.abis;
    // decoded labels change with the workspace's ABIs
    this.disposables.add(ctx.abis.onDidChange(() => this.provider.refresh()));
  }

  protected fetchFirst(signal: AbortSignal): Promise<Page<Schedule>> {
    this.abis.ensureStarted(); // the rows decode their bodies with the workspace's ABIs
    return this.network.clients.mirror.schedules(this.query(), { signal });
  }

  protected node(s: Schedule, network: string): TreeNode {
    return new ScheduleNode(s, network, this.abis);
  }

  protected emptyText(): string {
    return this.isFiltered()
      ? vscode.l10n.t('No schedules match the filters.')
      : vscode.l10n.t('No schedules on {0}.', this.network.profile.label);
  }

  protected extraRoots(): TreeNode[] {
    return this.pinned ? [this.pinned] : [];
  }

  protected networkChanged(): void {
    this.pinned = undefined;
  }

  query(): SchedulesQuery {
    return {
      accountId: this.filters.accountId,
      scheduleId: this.filters.scheduleId,
      order: this.filters.order,
      limit: this.filters.limit,
    };
  }

  /** The active filters, as the view's description ("account.id=gte:0.0.5 · desc · 50 a page"). */
  describeFilters(): string {
    const parts: string[] = [];
    if (this.filters.accountId) parts.push(`account.id=${filterToParam(this.filters.accountId)}`);
    if (this.filters.scheduleId) parts.push(`schedule.id=${filterToParam(this.filters.scheduleId)}`);
    if (this.filters.order !== DEFAULT_FILTERS.order) parts.push(this.filters.order);
    if (this.filters.limit !== DEFAULT_FILTERS.limit) parts.push(vscode.l10n.t('{0} a page', this.filters.limit));
    return parts.join(' · ');
  }

  protected parseFilters(f: Partial<ScheduleFilterInput>, current: ScheduleFilters): ScheduleFilters {
    const next: ScheduleFilters = { ...current };
    if ('accountId' in f)
      next.accountId = f.accountId
        ? unwrap(checkEntityIdFilter(f.accountId, vscode.l10n.t('an account id')))
        : undefined;
    if ('scheduleId' in f)
      next.scheduleId = f.scheduleId
        ? unwrap(checkEntityIdFilter(f.scheduleId, vscode.l10n.t('a schedule id')))
        : undefined;
    if (f.order) next.order = f.order === 'desc' ? 'desc' : 'asc';
    if (f.limit !== undefined) next.limit = f.limit === '' ? DEFAULT_FILTERS.limit : unwrap(checkLimit(f.limit));
    return next;
  }

  protected filterFields(): FilterField[] {
    const f = () => this.filters;
    return [
      {
        kind: 'text',
        key: 'accountId',
        label: vscode.l10n.t('Creator account id'),
        value: () => (f().accountId ? filterToParam(f().accountId!) : ''),
        prompt: vscode.l10n.t(
          'Account that created the schedules, optionally with an operator: 0.0.1024, gte:0.0.1000, lt:0.0.2000. Empty clears it.',
        ),
        placeholder: 'gte:0.0.1000',
        check: (v) => checkEntityIdFilter(v, vscode.l10n.t('an account id')),
      },
      {
        kind: 'text',
        key: 'scheduleId',
        label: vscode.l10n.t('Schedule id'),
        value: () => (f().scheduleId ? filterToParam(f().scheduleId!) : ''),
        prompt: vscode.l10n.t('Schedule id, optionally with an operator: 0.0.5000, gt:0.0.5000. Empty clears it.'),
        placeholder: 'gt:0.0.5000',
        check: (v) => checkEntityIdFilter(v, vscode.l10n.t('a schedule id')),
      },
      {
        kind: 'choice',
        key: 'order',
        label: vscode.l10n.t('Order'),
        value: () => f().order,
        choices: [
          { label: vscode.l10n.t('Oldest first (asc)'), value: 'asc' },
          { label: vscode.l10n.t('Newest first (desc)'), value: 'desc' },
        ],
      },
      {
        kind: 'text',
        key: 'limit',
        label: vscode.l10n.t('Page size'),
        value: () => String(f().limit),
        prompt: vscode.l10n.t('Schedules per page, 1 to 100.'),
        placeholder: '25',
        check: (v) => checkLimit(v),
      },
    ];
  }

  /** "Open schedule by id": asks (or takes `preset`), fetches it, pins it at the top of the view. */
  async openById(preset?: unknown): Promise<Schedule | undefined> {
    const profile = this.network.profile;
    let id = typeof preset === 'string' ? preset : undefined;
    if (id === undefined) {
      id = await vscode.window.showInputBox({
        title: vscode.l10n.t('Open Schedule by Id'),
        prompt: vscode.l10n.t('Schedule id on {0}, for example 0.0.5000.', profile.label),
        placeHolder: '0.0.5000',
        validateInput: (v) => {
          const c = checkEntityId(v, vscode.l10n.t('a schedule id'));
          return c.ok ? undefined : c.message;
        },
      });
      if (id === undefined) return undefined;
    }
    const checked = checkEntityId(id, vscode.l10n.t('a schedule id'));
    if (!checked.ok) {
      void vscode.window.showErrorMessage(notificationSafe(checked.message));
      return undefined;
    }
    try {
      const s = await this.withProgress(this.network.clients.mirror.schedule(checked.value));
      if (!s) {
        void vscode.window.showWarningMessage(vscode.l10n.t('No schedule {0} on {1}.', checked.value, profile.label));
        return undefined;
      }
      this.abis.ensureStarted();
      this.pinned = new ScheduleNode(s, profile.name, this.abis, true);
      this.provider.refresh();
      await vscode.commands.executeCommand(`${this.viewId}.focus`);
      await this.treeView
        .reveal(this.pinned, { select: true, focus: false, expand: true })
        .then(undefined, () => undefined);
      return s;
    } catch (e) {
      this.log.error(`Open schedule ${checked.value}: ${isApiError(e) ? e.detail : String(e)}`);
      const choice = await vscode.window.showErrorMessage(
        notificationSafe(isApiError(e) ? e.message : String(e)),
        vscode.l10n.t('Retry'),
        vscode.l10n.t('Open Log'),
      );
      if (choice === vscode.l10n.t('Retry')) return this.openById(checked.value);
      if (choice === vscode.l10n.t('Open Log')) this.log.show();
      return undefined;
    }
  }

  /** The detail rows of a schedule, flattened as "Parent / Label: value" lines (tests). */
  detailLines(s: Schedule): string[] {
    return flattenDetails(scheduleDetails(s, this.abis));
  }
}
