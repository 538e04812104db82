// The panels' HTML shell (src/ui/webviewPanel.ts) on a real webview: a page's first state is a JSON data block that
// no text in it can end or turn into markup (an ABI's function name from Sourcify is server text), read back as sent.
import * as assert from 'assert';
import * as vscode from 'vscode';
import { pageHtml, STATE_ELEMENT_ID } from '../../src/ui/webviewPanel';

describe("the panels' HTML shell", () => {
  let panel: vscode.WebviewPanel;
  before(() => {
    panel = vscode.window.createWebviewPanel('hederaExplorer.test.pageHtml', 'test', vscode.ViewColumn.Active);
  });
  after(() => panel.dispose());

  it('a first state with hostile text is one data block, read back as sent', () => {
    const hostile = {
      name: '</script><script>alert(1)</script><!--',
      other: '<\u2028>\u2029 &amp; "quoted" \\ \u202e',
      big: '123456789012345678901234567890',
    };
    const html = pageHtml(panel.webview, vscode.Uri.file('/assets'), {
      bundle: 'page',
      title: 'test',
      body: '<main id="app"></main>',
      state: hostile,
    });
    const open = `<script type="application/json" id="${STATE_ELEMENT_ID}">`;
    const start = html.indexOf(open);
    assert.ok(start > 0, 'the state block');
    const end = html.indexOf('</script>', start);
    const json = html.slice(start + open.length, end);
    assert.ok(!json.includes('<'), 'no "<" inside the block');
    assert.deepStrictEqual(JSON.parse(json), hostile);
    // the page's own script is the only one that runs: two scripts in all (the state and the bundle)
    assert.strictEqual(html.match(/<script\b/g)?.length, 2);
    assert.ok(!html.includes('alert(1)</script>'));
  });

  it('no first state, no block', () => {
    const html = pageHtml(panel.webview, vscode.Uri.file('/assets'), { bundle: 'page', title: 't', body: '' });
    assert.ok(!html.includes(STATE_ELEMENT_ID));
  });
});
