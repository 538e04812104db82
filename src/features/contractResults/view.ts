/**
 * The "Contract Results" view: contract call results from the mirror node with every filter the API offers
 * (sender, block hash or number, transaction index, internal, timestamp range, order, page size, one contract),
 * paging, grouped details with decoded reverts, "Follow" mode, copy, HashScan and raw JSON.
 * Nothing is requested while the view is hidden; Follow polls only while it is visible.
 */
import * as vscode from 'vscode';
import type { ListViewId } from '../../api/commands';
import { isApiError } from '../../api/errors';
import { LatestRequest } from '../../api/latest';
import { isContractCreation, outcome } from '../../api/contractResult';
import {
  compareTimestamps,
  formatBytes,
  formatEvmAddress,
  formatHexQuantity,
  formatLocal,
  formatValue,
  formatTimestamp,
  hexByteLength,
  relativeTime,
  shortHex,
  timestampToDate,
  tinybarsToHbar,
} from '../../api/format';
import { formatInt } from '../../api/json';
import { type ContractResultsQuery, contractResultsParams, type Page } from '../../api/mirror';
import type { ContractResult } from '../../api/mirrorTypes';
import type { DecodedResult, DecodedValue } from '../../api/decode';
import type { AbiOrigin } from '../../api/decode/abi';
import { type AddressBuildCheck, decodedWith } from '../../workspace/deployedBuild';
import { decodeRevert } from '../../api/revert';
import {
  checkAccountOrAddress,
  checkBlockHash,
  checkBlockNumber,
  checkLimit,
  checkTimestampFilters,
  checkTransactionIndex,
  type Filter,
  filterToParam,
  unwrap,
} from '../../api/validation';
import type { ExtensionLog } from '../../core/log';
import { config } from '../../core/settings';
import { ContextKey, setContext } from '../../core/contextKeys';
import type { FilterField } from '../../ui/filterPicker';
import { ListView } from '../../ui/listView';
import {
  anyValueNode,
  DetailNode,
  flattenDetails,
  GroupNode,
  itemSignature,
  mdEscape,
  oneLine,
  subtreeSignature,
  type TreeNode,
} from '../../ui/nodes';
import type { FeatureContext } from '../context';
import type { AbiIndex } from '../decoding';

interface ContractResultFilters {
  contract?: string;
  from: string[];
  blockHash?: string;
  blockNumber?: string;
  transactionIndex?: number;
  internal: boolean;
  timestamp: Filter[];
  order: 'asc' | 'desc';
  limit: number;
}

/** Filters as typed or passed by a command: '' clears a field (the page size back to its default). */
export type ContractResultFilterInput = Record<
  'contract' | 'from' | 'blockHash' | 'blockNumber' | 'transactionIndex' | 'timestamp' | 'order' | 'limit',
  string
> & { internal: boolean | string };

const DEFAULTS: ContractResultFilters = { from: [], internal: false, timestamp: [], order: 'desc', limit: 25 };
const defaults = (): ContractResultFilters => ({ ...DEFAULTS, from: [], timestamp: [] });

/** Any field's value as exact text (bigints with every digit, objects as JSON); never throws. */
const text = (v: unknown): string => (v === null || v === undefined ? '' : formatValue(v));

function hexRow(label: string, hex: string | null | undefined): DetailNode {
  const h = hex ?? '';
  const size = hexByteLength(h);
  return new DetailNode(label, h ? `${formatBytes(size)} · ${shortHex(h, 10)}` : vscode.l10n.t('none'), {
    tooltip: h || vscode.l10n.t('none'),
    icon: new vscode.ThemeIcon('symbol-array'),
    contextValue: h ? 'hex' : 'detail',
  });
}

/** A decoded ABI value as a row: `name (type)  value`, arrays and tuples with their items. */
function valueNode(v: DecodedValue): DetailNode {
  return new DetailNode(`${v.name} (${v.type})`, v.value, {
    tooltip: v.value,
    icon: new vscode.ThemeIcon('symbol-parameter'),
    children: v.children?.map(valueNode),
  });
}

/**
 * "Decoded with": the ABI's file and, for a workspace ABI of a contract the records put at the called address, what
 * the resolver checked (`check`, asked when the details were opened): `· the code on chain` when it confirmed that
 * build, `· likely (why)` when not; the file alone until it answers.
 */
function decodedWithRow(
  origin: AbiOrigin,
  signature: string | undefined,
  check: AddressBuildCheck | undefined,
): DetailNode {
  if (origin.kind === 'sourcify') {
    return new DetailNode(vscode.l10n.t('Decoded with'), 'Sourcify', {
      tooltip: vscode.l10n.t('The ABI of the verified contract {0}, from Sourcify', origin.address ?? ''),
      icon: new vscode.ThemeIcon('file-code'),
    });
  }
  const said = decodedWith(check, { contractName: origin.contractName, signature });
  return new DetailNode(vscode.l10n.t('Decoded with'), said ? `${origin.label} · ${said.note}` : origin.label, {
    tooltip: said ? `${origin.label}\n${said.tooltip}` : origin.label,
    icon: new vscode.ThemeIcon(said?.confirmed ? 'pass' : 'file-code'),
  });
}

/** The decoded function, its return values and where the ABI came from (rows of the Transaction group). */
function decodedCallRows(
  r: ContractResult,
  decoded: DecodedResult | undefined,
  check: AddressBuildCheck | undefined,
): TreeNode[] {
  const rows: TreeNode[] = [];
  const call = decoded?.call;
  const creation = decoded?.creation ?? (isContractCreation(r) ? {} : undefined);
  if (creation && !call) {
    // init code (EVM) or constructor arguments (ContractCreate): which workspace artifact, when its bytecode matches
    const what = creation.text
      ? vscode.l10n.t('contract creation: {0}', creation.text)
      : vscode.l10n.t('contract creation');
    rows.push(
      new DetailNode(vscode.l10n.t('Function'), what, {
        tooltip: creation.contractName
          ? `${vscode.l10n.t('Creation of {0} (its creation bytecode matches {1})', creation.contractName, creation.origin?.label ?? '')}${creation.args?.length ? `\n\n${creation.args.map((a) => `${a.name} (${a.type}) = ${a.value}`).join('\n')}` : ''}`
          : vscode.l10n.t("A contract creation; no workspace artifact's creation bytecode matches its data"),
        icon: new vscode.ThemeIcon('symbol-constructor'),
        children: creation.args?.map(valueNode),
      }),
    );
    if (creation.argsUndecoded) rows.push(hexRow(vscode.l10n.t('Constructor arguments'), creation.argsHex));
    if (creation.origin)
      rows.push(
        new DetailNode(vscode.l10n.t('Decoded with'), creation.origin.label, {
          tooltip: creation.origin.label,
          icon: new vscode.ThemeIcon('file-code'),
        }),
      );
  } else if (call) {
    rows.push(
      new DetailNode(vscode.l10n.t('Function'), call.text, {
        tooltip: `${call.signature}  ${call.selector}\n\n${call.args.map((a) => `${a.name} (${a.type}) = ${a.value}`).join('\n')}`,
        icon: new vscode.ThemeIcon('symbol-method'),
        children: call.args.map(valueNode),
      }),
    );
    if (decoded?.returned) {
      rows.push(
        new DetailNode(vscode.l10n.t('Returned'), decoded.returned.text, {
          icon: new vscode.ThemeIcon('reply'),
          children: decoded.returned.values.map(valueNode),
        }),
      );
    }
    rows.push(decodedWithRow(call.origin, call.signature, check));
  } else if (r.function_parameters && /^0x[0-9a-fA-F]{8}/.test(r.function_parameters)) {
    rows.push(
      new DetailNode(
        vscode.l10n.t('Function'),
        vscode.l10n.t('selector {0} (no ABI knows it)', r.function_parameters.slice(0, 10).toLowerCase()),
        { icon: new vscode.ThemeIcon('symbol-method') },
      ),
    );
  }
  return rows;
}

/** `transfer(…)`, `deposit()`: the row label's function part, when an ABI knows the call. */
function callLabel(r: ContractResult, failed: boolean, abis: AbiIndex): string | undefined {
  const decoded = abis.decodeResult(r, failed);
  const call = decoded?.call;
  if (!call && decoded?.creation)
    return decoded.creation.contractName
      ? vscode.l10n.t('create {0}', `${decoded.creation.contractName}(${decoded.creation.args?.length ? '…' : ''})`)
      : vscode.l10n.t('contract creation');
  return call ? `${call.name}(${call.args.length ? '…' : ''})` : undefined;
}

/** Every field of a result, grouped: transaction, gas and fees, EVM envelope, data, other fields. */
function contractResultDetails(r: ContractResult, abis: AbiIndex): TreeNode[] {
  const row = (label: string, v: unknown, tooltip?: string) =>
    new DetailNode(label, text(v), tooltip ? { tooltip } : {});
  // fields the server did not send at all are left out (the one-contract endpoint sends fewer)
  const has = (k: string) => Object.prototype.hasOwnProperty.call(r, k);
  const opt = (key: string, label: string, v: unknown, tooltip?: string) =>
    has(key) ? row(label, v, tooltip) : undefined;
  const present = (nodes: Array<TreeNode | undefined>): TreeNode[] =>
    nodes.filter((n): n is TreeNode => n !== undefined);
  const failed = outcome(r) === 'failure';
  // decoded with the workspace's ABIs / the contract's Sourcify ABI (src/features/decoding); hex when unknown
  const decoded = abis.decodeResult(r, failed);
  const revert = failed ? (decoded?.error ?? decodeRevert(r.error_message)) : undefined;
  const tx: Array<TreeNode | undefined> = [
    row(
      vscode.l10n.t('Time'),
      `${formatTimestamp(r.timestamp, false)} · ${relativeTime(timestampToDate(r.timestamp), Date.now(), vscode.env.language)}`,
      formatTimestamp(r.timestamp),
    ),
    row(vscode.l10n.t('Consensus timestamp'), r.timestamp),
    opt('result', vscode.l10n.t('Result'), r.result ?? ''),
    opt(
      'status',
      vscode.l10n.t('Status'),
      r.status === '0x1'
        ? `0x1 (${vscode.l10n.t('success')})`
        : r.status === '0x0'
          ? `0x0 (${vscode.l10n.t('failure')})`
          : r.status,
    ),
  ];
  // what the resolver said of the called contract's build, once asked (getChildren) and answered
  const check = abis.buildCheck(r.address ?? r.to);
  tx.push(...decodedCallRows(r, decoded, check));
  if (revert) {
    const errorArgs = decoded?.error?.args?.map(valueNode) ?? [];
    const errorOrigin = decoded?.error?.origin
      ? [decodedWithRow(decoded.error.origin, decoded.error.signature, check)]
      : [];
    tx.push(
      new DetailNode(vscode.l10n.t('Revert reason'), revert.message, {
        tooltip: `${decoded?.error?.signature ? `${decoded.error.signature}\n` : ''}${revert.message}\n\n${revert.raw}`,
        icon: new vscode.ThemeIcon('error', new vscode.ThemeColor('errorForeground')),
        children: [
          ...errorArgs,
          ...errorOrigin,
          ...(revert.kind === 'text' && revert.raw === revert.message
            ? []
            : [row(vscode.l10n.t('Raw error'), revert.raw)]),
        ],
      }),
    );
  } else if (r.error_message) {
    tx.push(row(vscode.l10n.t('Error message'), r.error_message));
  }
  tx.push(
    opt('hash', vscode.l10n.t('Hash'), r.hash),
    opt('contract_id', vscode.l10n.t('Contract'), r.contract_id),
    opt('address', vscode.l10n.t('Address'), r.address),
    opt('from', vscode.l10n.t('From'), formatEvmAddress(r.from), r.from ?? undefined),
    opt('to', vscode.l10n.t('To'), r.to === null ? '' : formatEvmAddress(r.to), r.to ?? undefined),
    opt(
      'amount',
      vscode.l10n.t('Amount'),
      r.amount === null || r.amount === undefined
        ? ''
        : vscode.l10n.t('{0} ({1} tinybars)', tinybarsToHbar(r.amount), formatInt(r.amount)),
    ),
    opt('block_number', vscode.l10n.t('Block number'), r.block_number === null ? '' : formatInt(r.block_number)),
    opt('block_hash', vscode.l10n.t('Block hash'), r.block_hash),
    opt('transaction_index', vscode.l10n.t('Transaction index'), r.transaction_index),
    opt(
      'created_contract_ids',
      vscode.l10n.t('Created contracts'),
      (Array.isArray(r.created_contract_ids)
        ? r.created_contract_ids.map(text).join(', ')
        : text(r.created_contract_ids)) || vscode.l10n.t('none'),
    ),
  );
  const gas: Array<TreeNode | undefined> = [
    opt('gas_limit', vscode.l10n.t('Gas limit'), r.gas_limit === null ? '' : formatInt(r.gas_limit)),
    opt('gas_used', vscode.l10n.t('Gas used'), r.gas_used === null ? '' : formatInt(r.gas_used)),
    opt('gas_consumed', vscode.l10n.t('Gas consumed'), r.gas_consumed === null ? '' : formatInt(r.gas_consumed)),
    opt('gas_price', vscode.l10n.t('Gas price'), formatHexQuantity(r.gas_price)),
    opt('max_fee_per_gas', vscode.l10n.t('Max fee per gas'), formatHexQuantity(r.max_fee_per_gas)),
    opt(
      'max_priority_fee_per_gas',
      vscode.l10n.t('Max priority fee per gas'),
      formatHexQuantity(r.max_priority_fee_per_gas),
    ),
    opt(
      'block_gas_used',
      vscode.l10n.t('Block gas used'),
      r.block_gas_used === null ? '' : formatInt(r.block_gas_used),
    ),
  ];
  const accessList = Array.isArray(r.access_list)
    ? r.access_list.map((a, i) =>
        a && typeof a === 'object' && Array.isArray(a.storage_keys)
          ? new DetailNode(`#${i}`, `${text(a.address)} · ${a.storage_keys.length} keys`, {
              children: a.storage_keys.map((k) => new DetailNode('key', text(k))),
            })
          : anyValueNode(`#${i}`, a),
      )
    : [];
  const envelope: Array<TreeNode | undefined> = [
    opt('type', vscode.l10n.t('Type'), r.type),
    opt('chain_id', vscode.l10n.t('Chain id'), formatHexQuantity(r.chain_id)),
    opt('nonce', vscode.l10n.t('Nonce'), r.nonce === null ? '' : formatInt(r.nonce)),
    opt('r', 'r', r.r),
    opt('s', 's', r.s),
    opt('v', 'v', r.v),
    !has('access_list')
      ? undefined
      : Array.isArray(r.access_list)
        ? new GroupNode(vscode.l10n.t('Access list'), accessList, { description: String(accessList.length) })
        : row(vscode.l10n.t('Access list'), r.access_list ?? ''),
    has('authorization_list')
      ? r.authorization_list === null || r.authorization_list === undefined
        ? row(vscode.l10n.t('Authorization list'), '')
        : anyValueNode(vscode.l10n.t('Authorization list'), r.authorization_list)
      : undefined,
    has('failed_initcode') ? hexRow(vscode.l10n.t('Failed initcode'), r.failed_initcode) : undefined,
  ];
  const data: Array<TreeNode | undefined> = [
    hexRow(vscode.l10n.t('Function parameters'), r.function_parameters),
    hexRow(vscode.l10n.t('Call result'), r.call_result),
    has('bloom') ? hexRow(vscode.l10n.t('Bloom'), r.bloom) : undefined,
  ];
  const known = new Set([
    'address',
    'amount',
    'block_gas_used',
    'block_hash',
    'block_number',
    'bloom',
    'call_result',
    'chain_id',
    'contract_id',
    'created_contract_ids',
    'error_message',
    'failed_initcode',
    'from',
    'function_parameters',
    'gas_consumed',
    'gas_limit',
    'gas_price',
    'gas_used',
    'hash',
    'max_fee_per_gas',
    'max_priority_fee_per_gas',
    'nonce',
    'r',
    's',
    'result',
    'status',
    'timestamp',
    'to',
    'transaction_index',
    'type',
    'v',
    'access_list',
    'authorization_list',
  ]);
  const other = Object.keys(r)
    .filter((k) => !known.has(k))
    .map((k) => anyValueNode(k, r[k]));
  const groups: GroupNode[] = [
    new GroupNode(vscode.l10n.t('Transaction'), present(tx), {
      expanded: true,
      icon: new vscode.ThemeIcon('symbol-event'),
    }),
    new GroupNode(vscode.l10n.t('Gas and fees'), present(gas), { icon: new vscode.ThemeIcon('flame') }),
    new GroupNode(vscode.l10n.t('EVM envelope'), present(envelope), { icon: new vscode.ThemeIcon('mail') }),
    new GroupNode(vscode.l10n.t('Data'), present(data), { icon: new vscode.ThemeIcon('symbol-array') }),
  ];
  if (other.length)
    groups.push(new GroupNode(vscode.l10n.t('Other fields'), other, { icon: new vscode.ThemeIcon('ellipsis') }));
  return groups.filter((g) => g.getChildren().length > 0);
}

/** A result row: the Contract Results view's, and other features' trees' through contractResultRow (index.ts). */
export class ContractResultNode implements TreeNode {
  /** What the row and its details showed when VS Code last asked (changed() compares). */
  private shownItem: string | undefined;
  private shownDetails: string | undefined;

  constructor(
    readonly result: ContractResult,
    private readonly network: string,
    private readonly abis: AbiIndex,
  ) {}

  /**
   * Whether the row or its details, once shown, would show something else now (the workspace's ABIs or an answer
   * about the contract changed). Only such rows are redrawn: a redraw of a row while a user opens one of its groups
   * loses that opening (VS Code drops the children it was fetching).
   */
  changed(): boolean {
    if (this.shownItem !== undefined && itemSignature(this.item()) !== this.shownItem) return true;
    return (
      this.shownDetails !== undefined &&
      subtreeSignature(contractResultDetails(this.result, this.abis)) !== this.shownDetails
    );
  }

  get id(): string {
    return ContractResultNode.idOf(this.result, this.network);
  }

  static idOf(r: ContractResult, network: string): string {
    return `result:${network}:${r.timestamp}:${r.hash ?? ''}:${r.contract_id ?? ''}`;
  }

  getTreeItem(): vscode.TreeItem {
    const item = this.item();
    this.shownItem = itemSignature(item);
    return item;
  }

  private item(): vscode.TreeItem {
    const r = this.result;
    const state = outcome(r);
    const ok = state === 'success';
    const fn = callLabel(r, state === 'failure', this.abis);
    const time = formatLocal(timestampToDate(r.timestamp)) || r.timestamp;
    // server and workspace text (timestamps as sent, contract names from artifacts) is shown inert
    const item = new vscode.TreeItem(
      oneLine(fn ? `${time} · ${fn}` : time, 400),
      vscode.TreeItemCollapsibleState.Collapsed,
    );
    item.id = this.id;
    const failure = state === 'failure' ? oneLine(String(r.result ?? vscode.l10n.t('failed')), 40) : '';
    const gas = r.gas_used === null || r.gas_used === undefined ? '' : vscode.l10n.t('{0} gas', formatInt(r.gas_used));
    item.description = oneLine(
      [String(r.contract_id ?? r.to ?? ''), failure, gas, r.from ? vscode.l10n.t('from {0}', shortHex(r.from, 4)) : '']
        .filter(Boolean)
        .join(' · '),
      400,
    );
    item.iconPath = ok
      ? new vscode.ThemeIcon('pass', new vscode.ThemeColor('testing.iconPassed'))
      : state === 'failure'
        ? new vscode.ThemeIcon('error', new vscode.ThemeColor('testing.iconFailed'))
        : new vscode.ThemeIcon('circle-outline');
    const md = new vscode.MarkdownString();
    md.appendMarkdown(
      `**${mdEscape(String(r.contract_id ?? r.to ?? ''))}** · ${mdEscape(ok ? 'SUCCESS' : state === 'failure' ? String(r.result ?? vscode.l10n.t('failed')) : vscode.l10n.t('outcome not reported'))}\n\n`,
    );
    md.appendMarkdown(
      `${mdEscape(formatTimestamp(r.timestamp))}  \n${mdEscape(vscode.l10n.t('From'))}: ${mdEscape(formatEvmAddress(r.from))}  \n${mdEscape(vscode.l10n.t('Gas used'))}: ${mdEscape(gas)}`,
    );
    const decoded = this.abis.decodeResult(r, state === 'failure');
    if (decoded?.call)
      md.appendMarkdown(`  \n${mdEscape(vscode.l10n.t('Function'))}: ${mdEscape(oneLine(decoded.call.text, 300))}`);
    else if (decoded?.creation)
      md.appendMarkdown(
        `  \n${mdEscape(vscode.l10n.t('Function'))}: ${mdEscape(oneLine(decoded.creation.text ? vscode.l10n.t('contract creation: {0}', decoded.creation.text) : vscode.l10n.t('contract creation'), 300))}`,
      );
    if (state === 'failure') {
      const rev = decoded?.error ?? decodeRevert(r.error_message);
      if (rev)
        md.appendMarkdown(`  \n${mdEscape(vscode.l10n.t('Revert reason'))}: ${mdEscape(oneLine(rev.message, 300))}`);
    }
    item.tooltip = md;
    item.accessibilityInformation = {
      label: oneLine(
        `${vscode.l10n.t('Contract result')} ${item.label}, ${r.contract_id ?? ''}, ${ok ? vscode.l10n.t('success') : state === 'failure' ? String(r.result ?? vscode.l10n.t('failed')) : ''}, ${gas}`,
        600,
      ),
    };
    // failed rows have "Go to Revert" too (menus match both with /^contractResult(\.failed)?$/)
    item.contextValue = state === 'failure' ? 'contractResult.failed' : 'contractResult';
    return item;
  }

  async getChildren(): Promise<TreeNode[]> {
    // expanding a result whose call or custom error no workspace ABI knows asks Sourcify for this contract's ABI
    // (once per contract), and asks whether the workspace's build of the called contract is the code on chain. The
    // details wait for both, within a bound, so that they come once, whole: a later answer redraws the row
    let timer: ReturnType<typeof setTimeout> | undefined;
    await Promise.race([
      Promise.all([
        this.abis.lookUpContract(this.result, outcome(this.result) === 'failure'),
        this.abis.checkBuild(this.result),
      ]),
      new Promise((resolve) => (timer = setTimeout(resolve, DETAILS_WAIT_MS))),
    ]);
    clearTimeout(timer);
    const details = contractResultDetails(this.result, this.abis);
    this.shownDetails = subtreeSignature(details);
    return details;
  }
}

/** How long a result's details wait for the answers that decode them before showing what is known. */
const DETAILS_WAIT_MS = 2000;

export class ContractResultsView extends ListView<ContractResult, ContractResultFilters, ContractResultFilterInput> {
  /** The rows given to VS Code, by id: a redraw names the same objects. */
  private rowNodes = new Map<string, ContractResultNode>();
  private followTimer: ReturnType<typeof setTimeout> | undefined;
  private following = false;
  /** The Follow poll in flight: stopping or rescheduling Follow cancels it, and its late answer is dropped. */
  private readonly polling = new LatestRequest();
  private readonly log: ExtensionLog;
  private readonly abis: AbiIndex;

  constructor(ctx: FeatureContext, treeView: vscode.TreeView<TreeNode>, viewId: ListViewId) {
    super(ctx.extension, ctx.network, treeView, {
      viewId,
      defaults,
      filterTitle: vscode.l10n.t('Contract Result Filters'),
    });
    this.log = ctx.log;
    this.abis = ctx.abis;
    this.disposables.add(
      treeView.onDidChangeVisibility((e) => {
        if (this.following) {
          if (e.visible) this.scheduleFollow(0);
          else this.stopTimer();
        }
      }),
      // decoded labels change with the workspace's ABIs and Sourcify answers: the rows that show something else
      ctx.abis.onDidChange(() => this.redrawChanged()),
    );
    setContext(ContextKey.contractResultsFollowing, false);
  }

  protected fetchFirst(signal: AbortSignal): Promise<Page<ContractResult>> {
    this.abis.ensureStarted(); // the rows show the functions the workspace's ABIs know
    return this.network.clients.mirror.contractResults(this.query(), { signal });
  }

  protected node(r: ContractResult, network: string): TreeNode {
    const id = ContractResultNode.idOf(r, network);
    const known = this.rowNodes.get(id);
    if (known && known.result === r) return known;
    const node = new ContractResultNode(r, network, this.abis);
    this.rowNodes.set(id, node);
    return node;
  }

  /** Redraws the rows whose row or opened details would now show something else. */
  private redrawChanged(): void {
    const network = this.network.profile.name;
    const ids = new Set(this.loaded.map((r) => ContractResultNode.idOf(r, network)));
    const changed: TreeNode[] = [];
    for (const [id, node] of this.rowNodes) {
      if (!ids.has(id)) this.rowNodes.delete(id);
      else if (node.changed()) changed.push(node);
    }
    if (changed.length) this.provider.refresh(changed);
  }

  protected emptyText(): string {
    return this.isFiltered()
      ? vscode.l10n.t('No contract results match the filters.')
      : vscode.l10n.t('No contract results on {0}.', this.network.profile.label);
  }

  protected extraDescription(): string[] {
    return this.following ? [vscode.l10n.t('following')] : [];
  }

  query(filters = this.filters): ContractResultsQuery {
    const f = filters;
    return {
      contract: f.contract,
      from: f.from.length ? f.from : undefined,
      blockHash: f.blockHash,
      blockNumber: f.blockNumber,
      transactionIndex: f.transactionIndex,
      internal: f.internal ? true : undefined,
      timestamp: f.timestamp.length ? f.timestamp : undefined,
      order: f.order,
      limit: f.limit,
    };
  }

  describeFilters(): string {
    const f = this.filters;
    const parts: string[] = [];
    if (f.contract) parts.push(vscode.l10n.t('contract {0}', shortHex(f.contract, 4)));
    if (f.from.length) parts.push(`from=${f.from.map((x) => shortHex(x, 4)).join(',')}`);
    if (f.blockHash) parts.push(`block.hash=${shortHex(f.blockHash, 4)}`);
    if (f.blockNumber) parts.push(`block.number=${f.blockNumber}`);
    if (f.transactionIndex !== undefined) parts.push(`transaction.index=${f.transactionIndex}`);
    if (f.internal) parts.push('internal');
    for (const t of f.timestamp) parts.push(`timestamp=${filterToParam(t)}`);
    if (f.order !== DEFAULTS.order) parts.push(f.order);
    if (f.limit !== DEFAULTS.limit) parts.push(vscode.l10n.t('{0} a page', f.limit));
    return parts.join(' · ');
  }

  protected parseFilters(
    input: Partial<ContractResultFilterInput>,
    current: ContractResultFilters,
  ): ContractResultFilters {
    const next: ContractResultFilters = { ...current, from: [...current.from], timestamp: [...current.timestamp] };
    if ('contract' in input) next.contract = input.contract ? unwrap(checkAccountOrAddress(input.contract)) : undefined;
    if ('from' in input)
      next.from = input.from
        ? input.from
            .split(/[\s,]+/)
            .filter(Boolean)
            .map((x) => unwrap(checkAccountOrAddress(x)))
        : [];
    if ('blockHash' in input) next.blockHash = input.blockHash ? unwrap(checkBlockHash(input.blockHash)) : undefined;
    if ('blockNumber' in input)
      next.blockNumber = input.blockNumber ? unwrap(checkBlockNumber(input.blockNumber)) : undefined;
    if (next.blockHash && next.blockNumber) {
      // one replaces the other (the mirror node cannot combine them)
      if ('blockHash' in input && input.blockHash) next.blockNumber = undefined;
      else next.blockHash = undefined;
    }
    if ('transactionIndex' in input)
      next.transactionIndex = input.transactionIndex
        ? unwrap(checkTransactionIndex(input.transactionIndex))
        : undefined;
    if ('internal' in input) next.internal = input.internal === true || input.internal === 'true';
    if ('timestamp' in input) next.timestamp = input.timestamp ? unwrap(checkTimestampFilters(input.timestamp)) : [];
    if (input.order) next.order = input.order === 'asc' ? 'asc' : 'desc';
    if (input.limit !== undefined) next.limit = input.limit === '' ? DEFAULTS.limit : unwrap(checkLimit(input.limit));
    contractResultsParams(this.query(next)); // the query's own rules (a transaction index needs a block): throws its sentence
    return next;
  }

  protected filterFields(): FilterField[] {
    const f = () => this.filters;
    const noBlock = () =>
      f().blockHash || f().blockNumber
        ? undefined
        : vscode.l10n.t('Set a block number or block hash first: the mirror node needs one with a transaction index.');
    return [
      {
        kind: 'text',
        key: 'from',
        label: vscode.l10n.t('Sender (from)'),
        value: () => f().from.join(', '),
        prompt: vscode.l10n.t(
          'Account ids or EVM addresses that sent the calls, separated by commas. Empty clears it.',
        ),
        placeholder: '0.0.1234, 0x…',
        check: (v) => {
          for (const x of v.split(/[\s,]+/).filter(Boolean)) {
            const c = checkAccountOrAddress(x);
            if (!c.ok) return c;
          }
          return { ok: true, value: v };
        },
      },
      {
        kind: 'text',
        key: 'contract',
        label: vscode.l10n.t('Contract'),
        value: () => f().contract ?? '',
        prompt: vscode.l10n.t('Only the results of this contract (id or EVM address). Empty clears it.'),
        placeholder: '0.0.5001',
        check: checkAccountOrAddress,
      },
      {
        kind: 'text',
        key: 'blockNumber',
        label: vscode.l10n.t('Block number'),
        value: () => f().blockNumber ?? '',
        prompt: vscode.l10n.t('A block number (decimal or 0x hex). Replaces a block hash filter. Empty clears it.'),
        placeholder: '1234567',
        check: checkBlockNumber,
      },
      {
        kind: 'text',
        key: 'blockHash',
        label: vscode.l10n.t('Block hash'),
        value: () => f().blockHash ?? '',
        prompt: vscode.l10n.t('A block hash (64 or 96 hex digits). Replaces a block number filter. Empty clears it.'),
        placeholder: '0x…',
        check: checkBlockHash,
      },
      {
        kind: 'text',
        key: 'transactionIndex',
        label: vscode.l10n.t('Transaction index'),
        value: () => (f().transactionIndex === undefined ? '' : String(f().transactionIndex)),
        prompt: vscode.l10n.t('Position of the transaction in the block (0, 1, …). Empty clears it.'),
        placeholder: '0',
        check: checkTransactionIndex,
        disabled: noBlock,
      },
      {
        kind: 'choice',
        key: 'internal',
        label: vscode.l10n.t('Internal results'),
        value: () => String(f().internal),
        choices: [
          { label: vscode.l10n.t('Top-level calls only'), value: false },
          { label: vscode.l10n.t('Include internal (child) calls'), value: true },
        ],
      },
      {
        kind: 'text',
        key: 'timestamp',
        label: vscode.l10n.t('Time range'),
        value: () => f().timestamp.map(filterToParam).join(' '),
        prompt: vscode.l10n.t(
          'One or two bounds with operators: gte:1700000000 lt:1700003600, or dates: gte:2026-11-20T10:00:00Z. Empty clears it.',
        ),
        placeholder: 'gte:2026-11-20T00:00:00Z lt:2026-11-21T00:00:00Z',
        check: checkTimestampFilters,
      },
      {
        kind: 'choice',
        key: 'order',
        label: vscode.l10n.t('Order'),
        value: () => f().order,
        choices: [
          { label: vscode.l10n.t('Newest first (desc)'), value: 'desc' },
          { label: vscode.l10n.t('Oldest first (asc)'), value: 'asc' },
        ],
      },
      {
        kind: 'text',
        key: 'limit',
        label: vscode.l10n.t('Page size'),
        value: () => String(f().limit),
        prompt: vscode.l10n.t('Results per page, 1 to 100.'),
        placeholder: '25',
        check: checkLimit,
      },
    ];
  }

  /** Filter by the contract or the sender of a result row. */
  filterBy(kind: 'contract' | 'from', r: ContractResult): void {
    if (kind === 'contract') this.setFilters({ contract: r.contract_id ?? r.to ?? '' });
    else this.setFilters({ from: r.from ?? '' });
  }

  // --- Follow mode: poll for results newer than the newest shown, insert them at the top, while visible.

  get isFollowing(): boolean {
    return this.following;
  }

  /** No Follow poll is scheduled or in flight: nothing will be asked until Follow is scheduled again. */
  get followIdle(): boolean {
    return !this.followTimer && !this.polling.active;
  }

  setFollow(on: boolean): void {
    this.following = on;
    setContext(ContextKey.contractResultsFollowing, on);
    if (on && this.filters.order !== 'desc') {
      this.filters.order = 'desc';
      this.filtersChanged();
    }
    this.updateDescription();
    if (on && this.treeView.visible) this.scheduleFollow(0);
    else this.stopTimer();
  }

  private followSeconds(): number {
    const s = config().get<number>('contractResults.followSeconds', 5);
    return Math.max(2, Math.min(600, Number.isFinite(s) ? s : 5));
  }

  private stopTimer(): void {
    if (this.followTimer) clearTimeout(this.followTimer);
    this.followTimer = undefined;
    this.polling.cancel();
  }

  private scheduleFollow(delayMs = this.followSeconds() * 1000): void {
    this.stopTimer();
    this.followTimer = setTimeout(() => void this.pollOnce(), delayMs);
  }

  /** One follow poll: results with a timestamp greater than the newest seen, oldest first, put on top. */
  async pollOnce(): Promise<number> {
    const pager = this.list.pager;
    if (!this.following || !this.treeView.visible) return 0;
    if (!pager.started || pager.loading) {
      this.scheduleFollow();
      return 0;
    }
    const newest = pager.items.reduce<string | undefined>(
      (m, r) => (!m || compareTimestamps(r.timestamp, m) > 0 ? r.timestamp : m),
      undefined,
    );
    const q = this.query();
    const bounds = newest ? [{ op: 'gt' as const, value: newest }] : (q.timestamp ?? []);
    const signal = this.polling.start();
    let added = 0;
    try {
      let page = await this.network.clients.mirror.contractResults(
        { ...q, timestamp: bounds, order: 'asc', limit: 100 },
        { signal },
        { explainEmpty: false },
      );
      const fresh: ContractResult[] = [...page.items];
      // at most a few pages a poll, gently
      for (let i = 0; i < 4 && page.next && this.polling.isCurrent(signal); i++) {
        const next = await this.network.clients.mirror.next(page, { signal });
        if (!next) break;
        page = next;
        fresh.push(...page.items);
      }
      if (!this.polling.isCurrent(signal)) return 0; // Follow stopped or a newer poll started meanwhile
      const before = pager.items.length;
      pager.prepend(fresh.reverse());
      added = pager.items.length - before;
      if (added) this.log.debug(`Follow: ${added} new contract result(s)`);
    } catch (e) {
      if (this.polling.isCurrent(signal) && !(isApiError(e) && e.kind === 'cancelled'))
        this.log.warn(`Follow poll failed: ${e instanceof Error ? e.message : String(e)}`);
    } finally {
      // only the current poll schedules the next one (a cancelled one leaves that to whoever cancelled it)
      if (this.polling.isCurrent(signal)) {
        this.polling.done(signal);
        if (this.following && this.treeView.visible) this.scheduleFollow();
      }
    }
    return added;
  }

  /** The detail rows of a result, flattened as "Group / Label: value" lines (tests, copy all). */
  detailLines(r: ContractResult): string[] {
    return flattenDetails(contractResultDetails(r, this.abis));
  }

  /** The details of a result's row as VS Code gets them when the row is opened, flattened (tests). */
  async openedDetails(r: ContractResult): Promise<string[]> {
    const node = this.node(r, this.network.profile.name);
    node.getTreeItem();
    return flattenDetails(await (node as ContractResultNode).getChildren());
  }

  dispose(): void {
    this.stopTimer();
    super.dispose();
  }
}
