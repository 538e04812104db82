/**
 * The rows of the "Verification" view (`hederaExplorer.verification`): the result shown (results.ts) of a
 * "Verify Contract" run for an address and network. One row per contract with its status (icon and colour;
 * unknown statuses shown as they are), name, compiled path, address, chain and storage time; under it "Found
 * files" and "Missing files" with counts (a missing file that exists elsewhere in the workspace is pointed out),
 * and "Unused files" at the top. Rows of files that exist in the workspace open them.
 *
 * Loaded lazily with the view's first rows (LazyTreeView, created by index.ts); `import type` it elsewhere.
 */
import * as vscode from 'vscode';
import { shortAddress } from '../../api/format';
import { evmAddressToEntityId } from '../../api/validation';
import type { FileCheck } from './localCheck';
import { summarize, upgradeArgs, type ContractRow, type VerificationRecord } from './record';
import type { VerificationResults } from './results';
import type { VerificationCommands } from './index';
import {
  DetailNode,
  errorNode,
  GroupNode,
  inert,
  loadingNode,
  mdEscape,
  MessageNode,
  oneLine,
  type TreeNode,
} from '../../ui/nodes';
import type { LoadedTree } from '../../ui/lazyTree';

interface StatusLook {
  label: string;
  icon: string;
  color: string;
}

/** Label, codicon and theme colour of a status; unknown values are shown as they are. */
function statusLook(status: string): StatusLook {
  switch (status) {
    case 'perfect':
      return { label: vscode.l10n.t('perfect'), icon: 'pass-filled', color: 'testing.iconPassed' };
    case 'exact_match':
      return { label: vscode.l10n.t('exact match'), icon: 'pass-filled', color: 'testing.iconPassed' };
    case 'partial':
      return { label: vscode.l10n.t('partial'), icon: 'pass', color: 'charts.yellow' };
    case 'match':
      return { label: vscode.l10n.t('match'), icon: 'pass', color: 'charts.yellow' };
    case 'extra-file-input-bug':
      return { label: 'extra-file-input-bug', icon: 'warning', color: 'charts.orange' };
    case 'error':
      return { label: vscode.l10n.t('error'), icon: 'error', color: 'errorForeground' };
    case 'none':
      return { label: vscode.l10n.t('no match'), icon: 'circle-slash', color: 'errorForeground' };
    default:
      return { label: oneLine(status, 60) || vscode.l10n.t('unknown'), icon: 'question', color: 'charts.blue' };
  }
}

const themeIcon = (look: StatusLook) => new vscode.ThemeIcon(look.icon, new vscode.ThemeColor(look.color));

/** A contract of the result. */
class ContractNode implements TreeNode {
  constructor(
    readonly record: VerificationRecord,
    readonly contract: ContractRow,
    private readonly children: TreeNode[],
  ) {}

  get id(): string {
    return `verification:${this.record.key}:${this.contract.name}:${this.contract.compiledPath ?? ''}`;
  }

  getTreeItem(): vscode.TreeItem {
    const c = this.contract;
    const look = statusLook(c.status);
    const item = new vscode.TreeItem(
      oneLine(c.name, 200) || vscode.l10n.t('(unnamed contract)'),
      vscode.TreeItemCollapsibleState.Expanded,
    );
    item.id = this.id;
    item.description = oneLine([look.label, c.compiledPath].filter(Boolean).join(' · '), 300);
    item.iconPath = themeIcon(look);
    item.contextValue = 'verification.contract';
    const md = new vscode.MarkdownString();
    md.appendMarkdown(`**${mdEscape(c.name)}**: ${mdEscape(look.label)}\n\n`);
    const lines: Array<[string, string | undefined]> = [
      [vscode.l10n.t('Message'), c.statusMessage],
      [vscode.l10n.t('Compiled path'), c.compiledPath],
      [vscode.l10n.t('Address'), c.address],
      [vscode.l10n.t('Chain'), c.chainId],
      [vscode.l10n.t('Stored'), c.storageTimestamp],
      [vscode.l10n.t('Found from'), this.record.source],
      ...(c.hints ?? []).map((h): [string, string] => [vscode.l10n.t('Hint'), h]),
    ];
    for (const [k, v] of lines) if (v) md.appendMarkdown(`${mdEscape(k)}: ${mdEscape(oneLine(v, 300))}  \n`);
    item.tooltip = md;
    return item;
  }

  getChildren(): TreeNode[] {
    return this.children;
  }
}

type FileKind = 'found' | 'missing' | 'invalid' | 'unused';

/** Where the file rows of a result point: its record, its workspace folder, the command that opens a file. */
interface FilePlace {
  record: VerificationRecord;
  folder: vscode.Uri | undefined;
  openCommand: string;
  /** Verify Contract (the "Upgrade to exact match" row runs it). */
  verifyCommand: string;
}

/** A file of the result; opens the workspace file when there is one. */
class FileNode implements TreeNode {
  constructor(
    private readonly place: FilePlace,
    readonly file: FileCheck,
    private readonly kind: FileKind,
  ) {}

  /** The workspace file this row opens: the file itself, or for a missing file the copy found elsewhere. */
  get target(): vscode.Uri | undefined {
    const rel = this.file.workspacePath ?? (this.kind === 'missing' ? this.file.elsewhere?.[0] : undefined);
    const folder = this.place.folder;
    return rel && folder ? vscode.Uri.joinPath(folder, ...rel.split('/')) : undefined;
  }

  getTreeItem(): vscode.TreeItem {
    const f = this.file;
    const item = new vscode.TreeItem(oneLine(f.path, 300), vscode.TreeItemCollapsibleState.None);
    const notes: string[] = [];
    if (f.reason) notes.push(f.reason);
    if (this.kind === 'missing' && f.workspacePath && !f.reason) notes.push(vscode.l10n.t('present in the workspace'));
    if (this.kind !== 'missing' && f.workspacePath && f.workspacePath !== f.path) notes.push(f.workspacePath);
    if (f.elsewhere?.length)
      notes.push(
        vscode.l10n.t('in the workspace at {0}', f.elsewhere[0]) +
          (f.elsewhere.length > 1 ? vscode.l10n.t(' (+{0} more)', f.elsewhere.length - 1) : ''),
      );
    else if (!f.workspacePath && this.kind !== 'missing') notes.push(vscode.l10n.t('not in the workspace'));
    item.description = oneLine(notes.join(' · '), 300);
    const target = this.target;
    const icons = {
      found: ['pass', 'testing.iconPassed'],
      missing: ['warning', 'list.warningForeground'],
      invalid: ['error', 'errorForeground'],
      unused: ['circle-outline', 'descriptionForeground'],
    } as const;
    item.iconPath = new vscode.ThemeIcon(icons[this.kind][0], new vscode.ThemeColor(icons[this.kind][1]));
    if (target) {
      item.resourceUri = target;
      item.command = { command: this.place.openCommand, title: vscode.l10n.t('Open File'), arguments: [this] };
    }
    item.contextValue = target ? 'verification.file.open' : 'verification.file';
    item.tooltip = inert(
      [
        f.path,
        ...notes,
        ...(f.elsewhere && f.elsewhere.length > 1 ? f.elsewhere.slice(1).map((e) => `also ${e}`) : []),
        target ? vscode.l10n.t('Click to open.') : '',
      ]
        .filter(Boolean)
        .join('\n'),
      'text',
    );
    return item;
  }
}

function fileGroup(label: string, files: FileCheck[], kind: FileKind, place: FilePlace, emptyText: string): TreeNode {
  const children: TreeNode[] = files.length
    ? files.map((f) => new FileNode(place, f, kind))
    : [new MessageNode(emptyText, { icon: new vscode.ThemeIcon('info'), contextValue: 'empty' })];
  const icons = { found: 'files', missing: 'warning', invalid: 'error', unused: 'circle-slash' } as const;
  return new GroupNode(label, children, {
    description: String(files.length),
    icon: new vscode.ThemeIcon(
      icons[kind],
      kind === 'missing' && files.length ? new vscode.ThemeColor('list.warningForeground') : undefined,
    ),
    expanded: files.length > 0 && files.length <= 25,
    contextValue: `verification.group.${kind}`,
  });
}

function contractChildren(place: FilePlace, c: ContractRow): TreeNode[] {
  const r = place.record;
  const look = statusLook(c.status);
  const rows: TreeNode[] = [];
  if (c.statusMessage)
    rows.push(new DetailNode(vscode.l10n.t('Status'), `${look.label}: ${c.statusMessage}`, { icon: themeIcon(look) }));
  if (r.upgrade === 'offered' && r.contracts[0] === c) {
    // a partial match and the workspace's build at hand: one click submits it again
    rows.push(
      new MessageNode(vscode.l10n.t('Upgrade to exact match'), {
        icon: new vscode.ThemeIcon('arrow-circle-up', new vscode.ThemeColor('charts.green')),
        contextValue: 'verification.upgrade',
        description: [r.contractIdentifier, r.buildFile].filter(Boolean).join(' · '),
        command: {
          command: place.verifyCommand,
          title: vscode.l10n.t('Upgrade to exact match'),
          arguments: [upgradeArgs(r)],
        },
        tooltip: vscode.l10n.t(
          'Submits {0} from {1} to Sourcify again: a better match replaces the partial one.',
          r.contractIdentifier ?? c.name,
          r.buildFile ?? '',
        ),
      }),
    );
  } else if (r.upgrade === 'noBuild' && r.contracts[0] === c) {
    rows.push(
      new MessageNode(vscode.l10n.t('No exact match without the build it was deployed from'), {
        icon: new vscode.ThemeIcon('info'),
        contextValue: 'verification.upgrade.noBuild',
        tooltip: vscode.l10n.t(
          'No build info in the workspace holds {0}: compile it, then verify again to upgrade the partial match.',
          c.name,
        ),
      }),
    );
  }
  if (c.error) {
    rows.push(
      new DetailNode(
        vscode.l10n.t('Job error'),
        `${c.error.customCode ? `${c.error.customCode}: ` : ''}${c.error.message}`,
        {
          icon: new vscode.ThemeIcon('error', new vscode.ThemeColor('errorForeground')),
          children: c.error.details.map((d) => new DetailNode(vscode.l10n.t('Detail'), d)),
        },
      ),
    );
  }
  // what the extension can tell about a no-match (plain text from the workspace's build and the server's codes)
  for (const h of c.hints ?? [])
    rows.push(
      new MessageNode(h, { icon: new vscode.ThemeIcon('lightbulb'), contextValue: 'verification.hint', tooltip: h }),
    );
  const entity = evmAddressToEntityId(c.address);
  rows.push(
    new DetailNode(vscode.l10n.t('Address'), entity ? `${c.address} (${entity})` : c.address, { tooltip: c.address }),
  );
  rows.push(new DetailNode(vscode.l10n.t('Chain'), `${c.chainId} · ${r.networkLabel}`));
  if (c.compiledPath) rows.push(new DetailNode(vscode.l10n.t('Compiled path'), c.compiledPath));
  if (c.storageTimestamp)
    rows.push(
      new DetailNode(r.api === 'session' ? vscode.l10n.t('Stored') : vscode.l10n.t('Verified at'), c.storageTimestamp),
    );
  if (c.compilerVersion) rows.push(new DetailNode(vscode.l10n.t('Compiler'), c.compilerVersion));
  if (c.creationMatch != null || c.runtimeMatch != null) {
    rows.push(
      new DetailNode(
        vscode.l10n.t('Creation / runtime match'),
        `${c.creationMatch ?? 'none'} / ${c.runtimeMatch ?? 'none'}`,
      ),
    );
  }
  if (c.verificationId) rows.push(new DetailNode(vscode.l10n.t('Verification id'), c.verificationId));
  if (c.filesFrom === 'none') {
    rows.push(
      new MessageNode(vscode.l10n.t('Sources not checked: no build info for this contract in the workspace'), {
        icon: new vscode.ThemeIcon('info'),
        contextValue: 'empty',
      }),
    );
    return rows;
  }
  const local = c.filesFrom === 'local';
  rows.push(
    fileGroup(
      vscode.l10n.t('Found files'),
      c.found,
      'found',
      place,
      local ? vscode.l10n.t('No source of the metadata matches the workspace') : vscode.l10n.t('No files found'),
    ),
  );
  rows.push(fileGroup(vscode.l10n.t('Missing files'), c.missing, 'missing', place, vscode.l10n.t('No missing files')));
  if (c.invalid.length) rows.push(fileGroup(vscode.l10n.t('Invalid files'), c.invalid, 'invalid', place, ''));
  return rows;
}

/** A row as VS Code gets it (tests and diagnostics: `snapshot()`). */
export interface ViewRow {
  label: string;
  description?: string;
  contextValue?: string;
  depth: number;
  icon?: string;
  color?: string;
  /** The command a click runs, and its arguments. */
  command?: string;
  commandArguments?: unknown[];
}

export interface ViewSnapshot {
  description?: string;
  message?: string;
  rows: ViewRow[];
}

/** Whether a row's command arguments are plain values (the snapshot gives those; rows handed to a command are not). */
function plainArguments(args: unknown[] | undefined): boolean {
  return (
    !!args?.length &&
    args.every((a) => a === null || typeof a !== 'object' || Object.getPrototypeOf(a) === Object.prototype)
  );
}

/** The rows of the Verification view, drawn from the kept results; its description and message follow them. */
export class VerificationTree implements LoadedTree<TreeNode> {
  private readonly changed = new vscode.EventEmitter<void>();
  readonly onDidChangeTreeData = this.changed.event;
  private readonly subscription: vscode.Disposable;

  constructor(
    private readonly results: VerificationResults,
    private readonly treeView: vscode.TreeView<TreeNode>,
    private readonly commands: VerificationCommands,
  ) {
    this.subscription = results.onDidChange(() => this.update());
    this.update();
  }

  private update(): void {
    const r = this.results.current;
    this.treeView.description = r
      ? `${shortAddress(r.address)} · ${r.networkLabel} · ${r.chainId} · ${r.api === 'session' ? 'session' : 'Sourcify v2'}`
      : undefined;
    const n = this.results.kept().length;
    this.treeView.message =
      n > 1 ? vscode.l10n.t('{0} results kept; "Show Kept Results" switches between them.', n) : undefined;
    this.changed.fire();
  }

  getTreeItem(node: TreeNode): vscode.TreeItem {
    return node.getTreeItem();
  }

  async getChildren(node?: TreeNode): Promise<TreeNode[]> {
    if (!node) return this.roots();
    return node.getChildren ? node.getChildren() : [];
  }

  /** The address of a contract row. */
  contractAddress(node: unknown): string | undefined {
    return node instanceof ContractNode ? node.contract.address : undefined;
  }

  /** The file of a file row: its path in the result and the workspace file it opens, if any. */
  file(node: unknown): { path: string; target: vscode.Uri | undefined } | undefined {
    return node instanceof FileNode ? { path: node.file.path, target: node.target } : undefined;
  }

  /** The shown result as plain text ("Copy Result"). */
  resultText(): string | undefined {
    const r = this.results.current;
    return r && summarize(r);
  }

  private roots(): TreeNode[] {
    const out: TreeNode[] = [];
    const running = this.results.running;
    if (running) out.push(loadingNode(running));
    const r = this.results.current;
    if (!r) return out;
    const place: FilePlace = {
      record: r,
      folder: r.folder ? vscode.Uri.parse(r.folder) : undefined,
      openCommand: this.commands.openFile,
      verifyCommand: this.commands.verify,
    };
    if (r.error) {
      out.push(
        errorNode(
          new Error(r.error.message),
          { command: this.commands.rerun, title: vscode.l10n.t('Re-run Verification') },
          `verification:error:${r.key}`,
        ),
      );
      for (const m of r.error.serverMessages.filter((m) => !r.error?.message.includes(m))) {
        out.push(
          new MessageNode(oneLine(m, 300), { icon: new vscode.ThemeIcon('comment'), contextValue: 'errorDetail' }),
        );
      }
      if (/api key/i.test([r.error.message, ...r.error.serverMessages].join(' '))) {
        out.push(
          new MessageNode(vscode.l10n.t('Set Explorer API Key…'), {
            icon: new vscode.ThemeIcon('key'),
            command: { command: this.commands.setApiKey, title: vscode.l10n.t('Set Explorer API Key') },
            contextValue: 'command',
          }),
        );
      }
    }
    for (const c of r.contracts) out.push(new ContractNode(r, c, contractChildren(place, c)));
    if (!r.error && !r.contracts.length)
      out.push(
        new MessageNode(vscode.l10n.t('The server returned no contracts'), {
          icon: new vscode.ThemeIcon('info'),
          contextValue: 'empty',
        }),
      );
    if (!r.error && (r.api === 'session' || r.contracts.some((c) => c.filesFrom === 'local'))) {
      out.push(fileGroup(vscode.l10n.t('Unused files'), r.unused, 'unused', place, vscode.l10n.t('No unused files')));
    }
    return out;
  }

  /** Every row as VS Code gets it, depth-first (tests and diagnostics). */
  async snapshot(): Promise<ViewSnapshot> {
    const rows: ViewRow[] = [];
    const visit = async (nodes: TreeNode[], depth: number) => {
      for (const n of nodes) {
        const item = n.getTreeItem();
        const label = typeof item.label === 'string' ? item.label : (item.label?.label ?? '');
        const icon = item.iconPath instanceof vscode.ThemeIcon ? item.iconPath : undefined;
        rows.push({
          label,
          description: typeof item.description === 'string' ? item.description : undefined,
          contextValue: item.contextValue,
          depth,
          icon: icon?.id,
          color: icon?.color?.id,
          command: item.command?.command,
          ...(plainArguments(item.command?.arguments) ? { commandArguments: item.command?.arguments } : {}),
        });
        if (n.getChildren) await visit(await n.getChildren(), depth + 1);
      }
    };
    await visit(this.roots(), 0);
    return { description: this.treeView.description, message: this.treeView.message, rows };
  }

  dispose(): void {
    this.subscription.dispose();
    this.changed.dispose();
  }
}
