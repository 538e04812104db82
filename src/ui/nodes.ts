/**
 * One vocabulary of tree rows for every view: data rows come from each view; the rest are these shared kinds:
 * a message row (empty, error with Retry, info, or a data row of a view with a link and children), a "Load more"
 * row, a detail row (label: value, copyable) and a group row. Labels and descriptions are plain text: VS Code renders tree labels as text, never HTML; Markdown
 * tooltips built here escape what they show.
 */
import * as vscode from 'vscode';
import { ApiError } from '../api/errors';
import { userUrlSettingFor } from '../core/settings';
import { formatValue } from '../api/format';
import { inert, mdCodeBlock, mdEscape, oneLine } from '../api/text';

export { inert, mdEscape, notificationSafe, oneLine } from '../api/text';

/** Longest label or description of the shared rows (a sentence of an error fits). */
const LABEL_MAX = 400;

/** A plain-string tooltip shows its text as it is: invisible and reordering characters escaped. MarkdownStrings are built with mdEscape. */
function plainTooltip(t: string | vscode.MarkdownString | undefined): string | vscode.MarkdownString | undefined {
  return typeof t === 'string' ? inert(t, 'text') : t;
}

export interface TreeNode {
  readonly id?: string;
  getTreeItem(): vscode.TreeItem;
  getChildren?(): TreeNode[] | Promise<TreeNode[]>;
}

export interface MessageOptions {
  icon?: vscode.ThemeIcon;
  description?: string;
  /** A plain string is shown as text; a MarkdownString must escape what it shows (mdEscape). */
  tooltip?: string | vscode.MarkdownString;
  /** What a click runs; takes precedence over `link`'s command. */
  command?: vscode.Command;
  contextValue?: string;
  id?: string;
  children?: TreeNode[];
  /** With children: shown expanded (the default) or collapsed. */
  expanded?: boolean;
  /**
   * An http(s) link of the row: a click runs `command` (the view's "Open in Browser") with the URL as its
   * argument, and context-menu commands read it as `node.link`.
   */
  link?: { url: string; command: string };
}

export class MessageNode implements TreeNode {
  constructor(
    readonly label: string,
    private readonly opts: MessageOptions = {},
  ) {}

  get id(): string | undefined {
    return this.opts.id;
  }

  /** The row's link (see MessageOptions.link), if any. */
  get link(): string | undefined {
    return this.opts.link?.url;
  }

  getTreeItem(): vscode.TreeItem {
    const state = !this.opts.children?.length
      ? vscode.TreeItemCollapsibleState.None
      : this.opts.expanded === false
        ? vscode.TreeItemCollapsibleState.Collapsed
        : vscode.TreeItemCollapsibleState.Expanded;
    const item = new vscode.TreeItem(oneLine(this.label, LABEL_MAX), state);
    item.iconPath = this.opts.icon;
    item.description = this.opts.description === undefined ? undefined : oneLine(this.opts.description, LABEL_MAX);
    item.tooltip = plainTooltip(this.opts.tooltip);
    const link = this.opts.link;
    item.command =
      this.opts.command ??
      (link ? { command: link.command, title: vscode.l10n.t('Open in Browser'), arguments: [link.url] } : undefined);
    item.contextValue = this.opts.contextValue ?? 'message';
    if (this.opts.id) item.id = this.opts.id;
    return item;
  }

  getChildren(): TreeNode[] {
    return this.opts.children ?? [];
  }
}

/** "No schedules match", shown as a row. */
export function emptyNode(text: string, id?: string): MessageNode {
  return new MessageNode(text, { icon: new vscode.ThemeIcon('info'), contextValue: 'empty', id });
}

export function loadingNode(text = vscode.l10n.t('Loading…')): MessageNode {
  return new MessageNode(text, { icon: new vscode.ThemeIcon('loading~spin'), contextValue: 'loading' });
}

/** Transport failures a wrong URL can cause (a host that does not resolve, does not listen, speaks no TLS). */
const URL_KINDS: readonly string[] = ['dns', 'refused', 'tls'];

/**
 * An error's sentence, with what the user can do: when a URL the user set is the one that failed, the setting
 * that holds it (a built-in default URL is never blamed: the user cannot have mistyped it).
 */
export function errorSentence(error: unknown): string {
  const e = error instanceof ApiError ? error : undefined;
  const text = e ? e.message : error instanceof Error ? error.message : String(error);
  const setting = e && URL_KINDS.includes(e.kind) ? userUrlSettingFor(e.url) : undefined;
  return setting ? `${text} ${vscode.l10n.t('The URL comes from your setting {0}: check it.', setting)}` : text;
}

/**
 * An error as a row: the sentence as label, the server's messages as children, a click (and the inline action)
 * retries. Never a broken view.
 */
export function errorNode(error: unknown, retry: vscode.Command, id?: string): MessageNode {
  const e = error instanceof ApiError ? error : undefined;
  const sentence = oneLine(errorSentence(error), 300);
  const details: string[] = [];
  // the server's messages the sentence does not already hold (shown once, in the tooltip and as child rows)
  if (e?.serverMessages.length)
    details.push(...e.serverMessages.map((m) => oneLine(m, 300)).filter((d) => !sentence.includes(d)));
  const tooltip = new vscode.MarkdownString(
    [
      mdEscape(sentence),
      ...details.map((d) => `- ${mdEscape(d)}`),
      e?.url ? `\n${mdEscape(e.url)}` : '',
      `\n${mdEscape(vscode.l10n.t('Click to try again.'))}`,
    ].join('\n'),
  );
  const children = details.map(
    (d) => new MessageNode(d, { icon: new vscode.ThemeIcon('comment'), contextValue: 'errorDetail' }),
  );
  return new MessageNode(sentence, {
    icon: new vscode.ThemeIcon('error', new vscode.ThemeColor('errorForeground')),
    tooltip,
    command: retry,
    contextValue: 'error',
    id,
    children,
  });
}

export function loadMoreNode(command: vscode.Command, loaded: number): MessageNode {
  return new MessageNode(vscode.l10n.t('Load more…'), {
    icon: new vscode.ThemeIcon('fold-down'),
    description: vscode.l10n.t('{0} loaded', loaded),
    command,
    contextValue: 'loadMore',
  });
}

/** A detail row: `label  value`. The value is copyable from the context menu ("Copy Value"). */
export class DetailNode implements TreeNode {
  constructor(
    readonly label: string,
    readonly value: string,
    private readonly opts: {
      tooltip?: string;
      icon?: vscode.ThemeIcon;
      children?: TreeNode[];
      contextValue?: string;
      command?: vscode.Command;
    } = {},
  ) {}

  getTreeItem(): vscode.TreeItem {
    const item = new vscode.TreeItem(
      oneLine(this.label, LABEL_MAX),
      this.opts.children?.length ? vscode.TreeItemCollapsibleState.Collapsed : vscode.TreeItemCollapsibleState.None,
    );
    item.description = oneLine(this.value, 120) || '—';
    const md = new vscode.MarkdownString();
    md.appendMarkdown(`${mdEscape(this.label)}\n\n${mdCodeBlock(this.opts.tooltip ?? this.value)}`);
    item.tooltip = md;
    item.contextValue = this.opts.contextValue ?? 'detail';
    item.iconPath = this.opts.icon;
    item.command = this.opts.command;
    return item;
  }

  getChildren(): TreeNode[] {
    return this.opts.children ?? [];
  }
}

const VALUE_CHILDREN = 200;
const VALUE_DEPTH = 12;

/**
 * A row for any value the server sent under `label`, whatever its type: scalars as their exact text (bigints with
 * every digit), objects and arrays as a row with one child per field or item (any nesting, capped in depth and
 * width, never a crash). For fields no view knows yet.
 */
export function anyValueNode(label: string, value: unknown, depth = 0): DetailNode {
  if (value === null || typeof value !== 'object' || depth >= VALUE_DEPTH) {
    return new DetailNode(label, formatValue(value), { icon: new vscode.ThemeIcon('symbol-field') });
  }
  const entries: Array<[string, unknown]> = Array.isArray(value)
    ? value.map((v, i) => [`#${i}`, v])
    : Object.entries(value as Record<string, unknown>);
  const children: TreeNode[] = entries.slice(0, VALUE_CHILDREN).map(([k, v]) => anyValueNode(k, v, depth + 1));
  if (entries.length > VALUE_CHILDREN) {
    children.push(
      new MessageNode(vscode.l10n.t('{0} more (see the raw JSON)', entries.length - VALUE_CHILDREN), {
        icon: new vscode.ThemeIcon('ellipsis'),
      }),
    );
  }
  return new DetailNode(label, formatValue(value), {
    icon: new vscode.ThemeIcon(Array.isArray(value) ? 'symbol-array' : 'symbol-object'),
    children,
  });
}

export class GroupNode implements TreeNode {
  constructor(
    readonly label: string,
    private readonly children: TreeNode[],
    private readonly opts: {
      icon?: vscode.ThemeIcon;
      description?: string;
      expanded?: boolean;
      contextValue?: string;
      tooltip?: string | vscode.MarkdownString;
      id?: string;
    } = {},
  ) {}

  get id(): string | undefined {
    return this.opts.id;
  }

  getTreeItem(): vscode.TreeItem {
    const item = new vscode.TreeItem(
      oneLine(this.label, LABEL_MAX),
      this.opts.expanded ? vscode.TreeItemCollapsibleState.Expanded : vscode.TreeItemCollapsibleState.Collapsed,
    );
    item.iconPath = this.opts.icon;
    item.description = this.opts.description === undefined ? undefined : oneLine(this.opts.description, LABEL_MAX);
    item.contextValue = this.opts.contextValue ?? 'group';
    item.tooltip = plainTooltip(this.opts.tooltip);
    if (this.opts.id) item.id = this.opts.id;
    return item;
  }

  getChildren(): TreeNode[] {
    return this.children;
  }
}

/** Detail rows under `nodes`, flattened as "Parent / Label: value" lines (tests, copy all). */
export function flattenDetails(nodes: TreeNode[]): string[] {
  const out: string[] = [];
  const walk = (list: TreeNode[], path: string) => {
    for (const n of list) {
      const it = n.getTreeItem();
      const label = typeof it.label === 'string' ? it.label : (it.label?.label ?? '');
      if (n instanceof DetailNode) out.push(`${path}${label}: ${n.value}`);
      const kids = n.getChildren?.();
      if (Array.isArray(kids) && kids.length) walk(kids, `${path}${label} / `);
    }
  };
  walk(nodes, '');
  return out;
}

/** What a tree item shows, as one string: two items with the same one look the same. */
export function itemSignature(item: vscode.TreeItem): string {
  const text = (v: unknown): string =>
    v === undefined || v === null
      ? ''
      : typeof v === 'string'
        ? v
        : v instanceof vscode.MarkdownString
          ? v.value
          : v instanceof vscode.ThemeIcon
            ? `${v.id}:${v.color instanceof vscode.ThemeColor ? v.color.id : ''}`
            : typeof v === 'object' && 'label' in v
              ? String((v as { label: unknown }).label)
              : String(v);
  return [
    text(item.label),
    text(item.description),
    text(item.tooltip),
    text(item.iconPath),
    item.contextValue ?? '',
    String(item.collapsibleState ?? ''),
    item.command?.command ?? '',
  ].join('\u0000');
}

/** What `nodes` and their (synchronous) descendants show, as one string. */
export function subtreeSignature(nodes: TreeNode[]): string {
  const out: string[] = [];
  const walk = (list: TreeNode[], depth: number) => {
    for (const n of list) {
      out.push(`${depth}\u0001${itemSignature(n.getTreeItem())}`);
      const kids = n.getChildren?.();
      if (Array.isArray(kids)) walk(kids, depth + 1);
    }
  };
  walk(nodes, 0);
  return out.join('\u0002');
}

/** A TreeDataProvider over TreeNodes: the view gives the root rows, nodes give their own children. */
export class NodeTreeProvider implements vscode.TreeDataProvider<TreeNode>, vscode.Disposable {
  private readonly changed = new vscode.EventEmitter<TreeNode | TreeNode[] | undefined | void>();
  readonly onDidChangeTreeData = this.changed.event;

  constructor(private readonly roots: () => TreeNode[] | Promise<TreeNode[]>) {}

  /** Redraws `node` (or these nodes, and what is open under them), or the whole tree. */
  refresh(node?: TreeNode | TreeNode[]): void {
    this.changed.fire(node);
  }

  getTreeItem(node: TreeNode): vscode.TreeItem {
    return node.getTreeItem();
  }

  async getChildren(node?: TreeNode): Promise<TreeNode[]> {
    if (!node) return this.roots();
    return node.getChildren ? node.getChildren() : [];
  }

  dispose(): void {
    this.changed.dispose();
  }
}
