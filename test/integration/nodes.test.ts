// The shared tree rows (src/ui/nodes.ts) as VS Code gets them: message rows (plain, with children expanded or
// collapsed, with a link), group rows (id, Markdown tooltip) and detail rows. In the real extension host, with the
// real vscode API: this bundle has its own copy of nodes.ts, and the tests only inspect the rows they create.
import * as assert from 'assert';
import * as vscode from 'vscode';
import * as nodes from '../../src/ui/nodes';

describe('tree rows (src/ui/nodes.ts)', () => {
  const { None, Collapsed, Expanded } = vscode.TreeItemCollapsibleState;

  it('a message row without children is a leaf; with children it is expanded unless asked otherwise', () => {
    const leaf = new nodes.MessageNode('No schedules').getTreeItem();
    assert.ok(leaf instanceof vscode.TreeItem, 'a real vscode.TreeItem');
    assert.strictEqual(leaf.collapsibleState, None);
    assert.strictEqual(leaf.contextValue, 'message');
    const child = new nodes.MessageNode('child');
    assert.strictEqual(new nodes.MessageNode('parent', { children: [child] }).getTreeItem().collapsibleState, Expanded);
    assert.strictEqual(
      new nodes.MessageNode('parent', { children: [child], expanded: false }).getTreeItem().collapsibleState,
      Collapsed,
    );
    assert.strictEqual(
      new nodes.MessageNode('parent', { children: [], expanded: true }).getTreeItem().collapsibleState,
      None,
    );
    assert.deepStrictEqual(new nodes.MessageNode('parent', { children: [child] }).getChildren(), [child]);
  });

  it('a message row with a link opens it on a click and tells it to context-menu commands', () => {
    const row = new nodes.MessageNode('Incident', {
      link: { url: 'https://stspg.io/abc', command: 'x.openLink' },
      id: 'status/1/incident/a',
      contextValue: 'status.incident.link',
    });
    const item = row.getTreeItem();
    assert.deepStrictEqual(item.command, {
      command: 'x.openLink',
      title: 'Open in Browser',
      arguments: ['https://stspg.io/abc'],
    });
    assert.strictEqual(row.link, 'https://stspg.io/abc');
    assert.strictEqual(item.id, 'status/1/incident/a');
    assert.strictEqual(row.id, 'status/1/incident/a');
    assert.strictEqual(item.contextValue, 'status.incident.link');
    // an explicit command wins; a row without a link has none
    const retry: vscode.Command = { command: 'x.retry', title: 'Retry' };
    assert.strictEqual(
      new nodes.MessageNode('r', { command: retry, link: { url: 'https://a.b', command: 'x.openLink' } }).getTreeItem()
        .command,
      retry,
    );
    assert.strictEqual(new nodes.MessageNode('r').link, undefined);
    assert.strictEqual(new nodes.MessageNode('r').getTreeItem().command, undefined);
  });

  it('labels and descriptions are one line; a plain tooltip is shown as text, a Markdown tooltip as it is', () => {
    const md = new vscode.MarkdownString('**x**');
    const item = new nodes.MessageNode('a\nb', { description: 'c\nd', tooltip: 'plain' }).getTreeItem();
    assert.strictEqual(item.label, 'a b');
    assert.strictEqual(item.description, 'c d');
    assert.strictEqual(item.tooltip, 'plain');
    assert.strictEqual(new nodes.MessageNode('a', { tooltip: md }).getTreeItem().tooltip, md);
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
    const md = new vscode.MarkdownString('**Components**');
    assert.strictEqual(new nodes.GroupNode('g', [], { tooltip: md }).getTreeItem().tooltip, md);
  });

  it('detail rows flatten as "Parent / Label: value"', () => {
    const tree = [
      new nodes.GroupNode('Transaction', [new nodes.DetailNode('Gas', '21000'), new nodes.MessageNode('note')]),
      new nodes.DetailNode('Status', 'SUCCESS'),
    ];
    assert.deepStrictEqual(nodes.flattenDetails(tree), ['Transaction / Gas: 21000', 'Status: SUCCESS']);
  });
});
