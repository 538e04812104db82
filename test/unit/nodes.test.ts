// The shared tree rows (src/ui/nodes.ts) as VS Code gets them: message rows (plain, with children expanded or
// collapsed, with a link), group rows (id, Markdown tooltip) and detail rows. Under Node with a small stand-in
// for the `vscode` module (only what nodes.ts uses), loaded before nodes.ts.
import * as assert from 'assert';
import Module = require('module');
import type * as Nodes from '../../src/ui/nodes';

/** The parts of the vscode API nodes.ts uses, as plain classes. */
const vscodeStub = {
  TreeItemCollapsibleState: { None: 0, Collapsed: 1, Expanded: 2 },
  TreeItem: class {
    id?: string;
    description?: string;
    tooltip?: unknown;
    iconPath?: unknown;
    command?: unknown;
    contextValue?: string;
    constructor(readonly label: string, readonly collapsibleState: number) {}
  },
  ThemeIcon: class { constructor(readonly id: string, readonly color?: unknown) {} },
  ThemeColor: class { constructor(readonly id: string) {} },
  MarkdownString: class {
    constructor(public value = '') {}
    appendMarkdown(s: string) { this.value += s; return this; }
  },
  EventEmitter: class { event = () => ({ dispose() {} }); fire() {} dispose() {} },
  l10n: { t: (s: string, ...args: unknown[]) => s.replace(/\{(\d+)\}/g, (_, i) => String(args[Number(i)])) },
};

type Loader = (request: string, ...rest: unknown[]) => unknown;
const moduleWithLoad = Module as unknown as { _load: Loader };

describe('tree rows (src/ui/nodes.ts)', () => {
  let nodes: typeof Nodes;
  const original = moduleWithLoad._load;
  before(() => {
    moduleWithLoad._load = function (this: unknown, request: string, ...rest: unknown[]) {
      return request === 'vscode' ? vscodeStub : original.call(this, request, ...rest);
    };
    // eslint-disable-next-line @typescript-eslint/no-require-imports -- loaded after the vscode stand-in is in place
    nodes = require('../../src/ui/nodes') as typeof Nodes;
  });
  after(() => { moduleWithLoad._load = original; });

  const { None, Collapsed, Expanded } = vscodeStub.TreeItemCollapsibleState;

  it('a message row without children is a leaf; with children it is expanded unless asked otherwise', () => {
    const leaf = new nodes.MessageNode('No schedules').getTreeItem();
    assert.strictEqual(leaf.collapsibleState, None);
    assert.strictEqual(leaf.contextValue, 'message');
    const child = new nodes.MessageNode('child');
    assert.strictEqual(new nodes.MessageNode('parent', { children: [child] }).getTreeItem().collapsibleState, Expanded);
    assert.strictEqual(new nodes.MessageNode('parent', { children: [child], expanded: false }).getTreeItem().collapsibleState, Collapsed);
    assert.strictEqual(new nodes.MessageNode('parent', { children: [], expanded: true }).getTreeItem().collapsibleState, None);
    assert.deepStrictEqual(new nodes.MessageNode('parent', { children: [child] }).getChildren(), [child]);
  });

  it('a message row with a link opens it on a click and tells it to context-menu commands', () => {
    const row = new nodes.MessageNode('Incident', { link: { url: 'https://stspg.io/abc', command: 'x.openLink' }, id: 'status/1/incident/a', contextValue: 'status.incident.link' });
    const item = row.getTreeItem();
    assert.deepStrictEqual(item.command, { command: 'x.openLink', title: 'Open in Browser', arguments: ['https://stspg.io/abc'] });
    assert.strictEqual(row.link, 'https://stspg.io/abc');
    assert.strictEqual(item.id, 'status/1/incident/a');
    assert.strictEqual(row.id, 'status/1/incident/a');
    assert.strictEqual(item.contextValue, 'status.incident.link');
    // an explicit command wins; a row without a link has none
    const retry = { command: 'x.retry', title: 'Retry' };
    assert.strictEqual(new nodes.MessageNode('r', { command: retry, link: { url: 'https://a.b', command: 'x.openLink' } }).getTreeItem().command, retry);
    assert.strictEqual(new nodes.MessageNode('r').link, undefined);
    assert.strictEqual(new nodes.MessageNode('r').getTreeItem().command, undefined);
  });

  it('labels and descriptions are one line; a plain tooltip is shown as text, a Markdown tooltip as it is', () => {
    const md = new vscodeStub.MarkdownString('**x**');
    const item = new nodes.MessageNode('a\nb', { description: 'c\nd', tooltip: 'plain' }).getTreeItem();
    assert.strictEqual(item.label, 'a b');
    assert.strictEqual(item.description, 'c d');
    assert.strictEqual(item.tooltip, 'plain');
    assert.strictEqual(new nodes.MessageNode('a', { tooltip: md as never }).getTreeItem().tooltip, md);
  });

  it('a group row is collapsed unless expanded, with its id and a Markdown or plain tooltip', () => {
    const kids = [new nodes.MessageNode('k')];
    const g = new nodes.GroupNode('Components', kids, { id: 'status/1/c', expanded: true, tooltip: 'all operational' });
    const item = g.getTreeItem();
    assert.strictEqual(item.collapsibleState, Expanded);
    assert.strictEqual(item.id, 'status/1/c');
    assert.strictEqual(g.id, 'status/1/c');
    assert.strictEqual(item.tooltip, 'all operational');
    assert.strictEqual(item.contextValue, 'group');
    assert.strictEqual(g.getChildren(), kids);
    const plain = new nodes.GroupNode('Other fields', []).getTreeItem();
    assert.strictEqual(plain.collapsibleState, Collapsed);
    assert.strictEqual(plain.id, undefined);
    const md = new vscodeStub.MarkdownString('**Components**');
    assert.strictEqual(new nodes.GroupNode('g', [], { tooltip: md as never }).getTreeItem().tooltip, md);
  });

  it('detail rows flatten as "Parent / Label: value"', () => {
    const tree = [new nodes.GroupNode('Transaction', [new nodes.DetailNode('Gas', '21000'), new nodes.MessageNode('note')]), new nodes.DetailNode('Status', 'SUCCESS')];
    assert.deepStrictEqual(nodes.flattenDetails(tree), ['Transaction / Gas: 21000', 'Status: SUCCESS']);
  });
});
