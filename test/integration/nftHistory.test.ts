// The NFT history panel in the real extension host, against the sandbox: command validation, one panel per
// NFT, rows reaching the page, 206 partial, empty, a 429 with Retry, Load more, filters, export files, links to
// HashScan only through the extension, validation of the page's messages, the serializer's restore, a network
// change, and hostile text from a crafted mirror node that reaches the page as plain data.
import * as assert from 'assert';
import * as fs from 'fs';
import * as http from 'http';
import * as os from 'os';
import * as path from 'path';
import * as vscode from 'vscode';
import type { NftPanelSnapshot } from '../../src/features/nftHistory';
import type { NftHistoryPanel } from '../../src/features/nftHistory/panel';
import { resetSettings, waitUntil, SANDBOX_KEYS, selectSandbox } from './helpers';
import { addFault, clearFaults, clearRequests, requests, useSandbox, type ViewsApi } from './views.helpers';

const TOKEN = '0.0.4815162';
const CMD = 'hederaExplorer.showNftHistory';

async function idle(p: NftHistoryPanel, ms = 15000): Promise<void> {
  await waitUntil(`panel ${p.key} idle`, () => !p.history.loading, ms);
}

async function closeAll(): Promise<void> {
  await vscode.commands.executeCommand('workbench.action.closeAllEditors');
}

describe('NFT history panel', function () {
  this.timeout(90000);
  let api: ViewsApi;
  let sandbox: string;
  const tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'nft-export-'));
  /** What the test seam knows of a panel: its view state, what the page rendered, links opened, files, refusals. */
  const snap = (p: NftHistoryPanel): NftPanelSnapshot => api.nftHistory.snapshot(p);

  /** Waits until the page reported that it rendered `total` rows (proves the webview got them). */
  async function rendered(
    p: NftHistoryPanel,
    total: number,
    ms = 20000,
  ): Promise<NonNullable<NftPanelSnapshot['rendered']>> {
    await waitUntil(
      `page of ${p.key} rendered ${total} rows (last report ${JSON.stringify(snap(p).rendered)})`,
      () => snap(p).rendered?.total === total,
      ms,
    );
    return snap(p).rendered!;
  }

  before(async () => {
    const s = await useSandbox();
    api = s.api;
    sandbox = s.url;
    api.nftHistory.openExternal = async () => true; // record only: no browser tab from the test host
    await closeAll();
  });
  afterEach(() => clearFaults());
  after(async () => {
    api.nftHistory.saveTarget = undefined;
    api.nftHistory.openExternal = undefined;
    await closeAll();
    await resetSettings(SANDBOX_KEYS);
    fs.rmSync(tmp, { recursive: true, force: true });
  });

  it('the command refuses a bad token id or serial (0, 2^63) with a sentence and opens nothing', async () => {
    const before = api.nftHistory.list().length;
    for (const args of [
      ['abc', '1'],
      [TOKEN, '0'],
      [TOKEN, '9223372036854775808'],
      [TOKEN, '-3'],
      ['0.0.1.2', '1'],
    ]) {
      assert.strictEqual(await vscode.commands.executeCommand(CMD, ...args), undefined, JSON.stringify(args));
    }
    assert.strictEqual(api.nftHistory.list().length, before);
  });

  it('opens a panel with rows in the page (virtualized: fewer DOM rows than loaded) and a strict CSP', async () => {
    const p = (await vscode.commands.executeCommand(CMD, TOKEN, '7')) as NftHistoryPanel;
    assert.ok(p, 'a panel');
    assert.strictEqual(p.title, `NFT ${TOKEN} #7`);
    await idle(p);
    const r = await rendered(p, 100);
    assert.ok(r.domRows > 5 && r.domRows < 100, `DOM rows ${r.domRows}`);
    const s = snap(p);
    assert.strictEqual(s.state.query.limit, 100);
    assert.strictEqual(s.state.query.order, 'desc');
    assert.ok(s.state.hasMore);
    assert.match(
      s.html,
      /<meta http-equiv="Content-Security-Policy" content="default-src 'none'; style-src [^;]+; font-src [^;]+; script-src 'nonce-[A-Za-z0-9]{32}'">/,
    );
    assert.ok(!/unsafe-inline|unsafe-eval/.test(s.html));
    assert.match(s.html, /<script nonce="[A-Za-z0-9]{32}" src="[^"]+nftHistory\.main\.js"><\/script>/);
    const roots = p.panel.webview.options.localResourceRoots?.map((u) => u.path) ?? [];
    assert.strictEqual(roots.length, 1);
    assert.match(roots[0], /\/dist\/webview$/);
  });

  it('takes the NFT from the editor selection (0.0.x#n, 0.0.x/n), also when run from the context menu with a URI', async () => {
    const doc = await vscode.workspace.openTextDocument({
      content: `token ${TOKEN}#21 and "${TOKEN}/22" here`,
      language: 'markdown',
    });
    let editor = await vscode.window.showTextDocument(doc);
    const text = doc.getText();
    const select = (s: string) => {
      const i = text.indexOf(s);
      editor.selection = new vscode.Selection(doc.positionAt(i), doc.positionAt(i + s.length));
    };
    select(`${TOKEN}#21`);
    const a = (await vscode.commands.executeCommand(CMD)) as NftHistoryPanel;
    assert.strictEqual(a?.key, `${TOKEN}#21`);
    editor = await vscode.window.showTextDocument(doc);
    select(`"${TOKEN}/22"`);
    const b = (await vscode.commands.executeCommand(CMD, doc.uri)) as NftHistoryPanel;
    assert.strictEqual(b?.key, `${TOKEN}#22`);
    await idle(a);
    await idle(b);
    a.dispose();
    b.dispose();
    await vscode.window.showTextDocument(doc);
    await vscode.commands.executeCommand('workbench.action.revertAndCloseActiveEditor');
  });

  it('one panel per NFT: showing it again focuses the same panel', async () => {
    const a = api.nftHistory.get(TOKEN, '7')!;
    const other = (await vscode.commands.executeCommand(CMD, TOKEN, '2')) as NftHistoryPanel;
    await idle(other);
    assert.notStrictEqual(other, a);
    const again = (await vscode.commands.executeCommand(CMD, '4815162', '07')) as NftHistoryPanel;
    assert.strictEqual(again, a, 'same panel for the normalised ids');
    await waitUntil('panel focused', () => a.panel.active);
    assert.strictEqual(api.nftHistory.list().filter((p) => p.key === `${TOKEN}#7`).length, 1);
  });

  it('Load more (from the page) follows links.next and appends the next page', async () => {
    const p = api.nftHistory.get(TOKEN, '7')!;
    await clearRequests();
    await p.receive({ type: 'loadMore' });
    await idle(p);
    assert.strictEqual(p.history.items.length, 200);
    await rendered(p, 200);
    const sent = await requests(`/api/v1/tokens/${TOKEN}/nfts/7/transactions`);
    assert.strictEqual(sent.length, 1);
    assert.match(sent[0], /limit=100/);
    assert.match(sent[0], /timestamp=lt:\d+\.\d+/);
  });

  it('shows a partial history (206) and the mint row in an approvals-and-burn history', async () => {
    const p = api.nftHistory.show(TOKEN, '13');
    await idle(p);
    assert.ok(snap(p).state.partial, 'partial');
    assert.ok(p.history.items.length > 0);
    const q = api.nftHistory.show(TOKEN, '2');
    await idle(q);
    const rows = q.rows();
    assert.deepStrictEqual(
      [rows[0].type, rows.at(-1)!.type],
      ['TOKENBURN', 'TOKENMINT'],
      'newest first: burn ... mint',
    );
    assert.ok(rows.some((r) => r.approval));
  });

  it('an unknown NFT is empty (no error); unknown types are kept as they are', async () => {
    const p = api.nftHistory.show(TOKEN, '39999');
    await idle(p);
    const s = snap(p).state;
    assert.strictEqual(s.total, 0);
    assert.strictEqual(s.status, 'idle');
    assert.strictEqual(s.error, undefined);
    assert.deepStrictEqual(s.network, { name: 'custom', label: 'Sandbox' });
    await rendered(p, 0);
    const t = api.nftHistory.show(TOKEN, '21');
    await idle(t);
    assert.ok(t.rows().some((r) => r.type === 'TOKENTELEPORT'));
  });

  it("a 429 shows the server's message; Retry loads the history", async () => {
    await addFault({ path: `/api/v1/tokens/${TOKEN}/nfts/3/`, times: 3, fault: { status: 429, retryAfter: '0' } });
    const p = api.nftHistory.show(TOKEN, '3');
    await idle(p);
    const s = snap(p).state;
    assert.strictEqual(s.status, 'error');
    assert.match(s.error!.message, /429/);
    assert.match(`${s.error!.message} ${s.error!.serverMessages.join(' ')}`, /Too many requests/);
    await p.receive({ type: 'retry' });
    await idle(p);
    assert.strictEqual(snap(p).state.status, 'idle');
    assert.ok(p.history.items.length > 0);
  });

  it('filters from the page: ISO dates become timestamps, a bad value is reported, order and page size apply', async () => {
    const p = api.nftHistory.get(TOKEN, '2')!;
    await p.receive({ type: 'setQuery', query: { order: 'asc', limit: 25, from: { op: 'gte', value: 'yesterday' } } });
    assert.match(snap(p).state.queryError ?? '', /^From: "yesterday" is not a timestamp/);
    assert.strictEqual(p.history.query.order, 'desc', 'previous query kept');
    await clearRequests();
    await p.receive({
      type: 'setQuery',
      query: {
        order: 'asc',
        limit: 25,
        from: { op: 'gte', value: '2026-01-01' },
        to: { op: 'lt', value: '1793491200' },
      },
    });
    await idle(p);
    const s = snap(p).state;
    assert.strictEqual(s.queryError, undefined);
    assert.deepStrictEqual(s.query, {
      order: 'asc',
      limit: 25,
      from: { op: 'gte', value: '1767225600.000000000' },
      to: { op: 'lt', value: '1793491200' },
    });
    assert.strictEqual(p.rows()[0].type, 'TOKENMINT');
    const sent = (await requests(`/api/v1/tokens/${TOKEN}/nfts/2/`))[0] ?? '';
    assert.ok(
      sent.includes('timestamp=gte:1767225600.000000000') &&
        sent.includes('timestamp=lt:1793491200') &&
        sent.includes('order=asc') &&
        sent.includes('limit=25'),
      sent,
    );
    await p.receive({
      type: 'setQuery',
      query: {
        order: 'asc',
        limit: 25,
        from: { op: 'gt', value: '1793491200' },
        to: { op: 'lt', value: '1767225600' },
      },
    });
    assert.match(snap(p).state.queryError ?? '', /after its end/);
  });

  it('export writes what is loaded to CSV and JSON (bypassing the save dialog)', async () => {
    const p = api.nftHistory.get(TOKEN, '7')!;
    await idle(p);
    const n = p.history.items.length;
    api.nftHistory.saveTarget = (format) => vscode.Uri.file(path.join(tmp, `out.${format}`));
    await p.receive({ type: 'export', format: 'csv' });
    await p.receive({ type: 'export', format: 'json' });
    const csv = fs.readFileSync(path.join(tmp, 'out.csv'), 'utf8').split('\r\n');
    assert.strictEqual(
      csv[0],
      'consensus_timestamp,time_utc,type,sender_account_id,receiver_account_id,is_approval,nonce,transaction_id',
    );
    assert.strictEqual(csv.length, n + 2, 'header + rows + final CRLF');
    const json = JSON.parse(fs.readFileSync(path.join(tmp, 'out.json'), 'utf8'));
    assert.strictEqual(json.count, n);
    assert.strictEqual(json.transactions.length, n);
    assert.strictEqual(json.token_id, TOKEN);
    assert.strictEqual(json.network, 'custom');
    assert.strictEqual(snap(p).exported.length, 2);
  });

  it('links: the page asks, the extension checks the id and opens HashScan; anything else is refused and logged', async () => {
    const p = api.nftHistory.get(TOKEN, '7')!;
    const row = p.rows().find((r) => r.receiver)!;
    const opened: string[] = [];
    api.nftHistory.openExternal = async (url) => {
      opened.push(url);
      return true;
    };
    await p.receive({ type: 'open', target: 'account', id: row.receiver! });
    await p.receive({ type: 'open', target: 'transaction', id: row.ts });
    assert.deepStrictEqual(opened, [
      `${sandbox}/hashscan/testnet/account/${row.receiver}`,
      `${sandbox}/hashscan/testnet/transaction/${row.ts}`,
    ]);
    const refusedBefore = snap(p).refused.length;
    await p.receive({ type: 'open', target: 'account', id: 'javascript:alert(1)' });
    await p.receive({ type: 'open', target: 'url', id: 'https://evil.example' });
    await p.receive({ type: 'navigate', url: 'https://evil.example' });
    await p.receive({ type: 'loadMore', now: true });
    await p.receive('ready');
    await p.receive(null);
    assert.strictEqual(opened.length, 2, 'nothing else opened');
    assert.strictEqual(snap(p).refused.length - refusedBefore, 6);
    assert.ok(
      api
        .recentLog()
        .some((l) =>
          /NFT history 0\.0\.4815162#7: ignored a message from the webview \(navigate\): unknown type navigate/.test(l),
        ),
    );
    assert.strictEqual(p.history.items.length, 200, 'the refused loadMore did nothing');
  });

  it('the serializer restores a panel from its saved state (and refuses a forged one)', async () => {
    api.nftHistory.get(TOKEN, '9223372036854775807')?.dispose();
    const created = vscode.window.createWebviewPanel(
      'hederaExplorer.nftHistory',
      'restored',
      vscode.ViewColumn.Active,
      {},
    );
    await api.nftHistory.revive(created, {
      v: 1,
      tokenId: TOKEN,
      serial: '9223372036854775807',
      query: { order: 'asc', limit: 25 },
      loaded: 4,
      scrollTop: 0,
      activeRow: 0,
      activeCol: 0,
    });
    const p = api.nftHistory.get(TOKEN, '9223372036854775807')!;
    assert.ok(p, 'registered under its key');
    assert.strictEqual(p.title, `NFT ${TOKEN} #9223372036854775807`);
    assert.strictEqual(p.history.query.order, 'asc');
    await idle(p);
    assert.strictEqual(p.rows()[0].type, 'TOKENMINT');
    assert.ok(p.panel.webview.options.enableScripts);

    let disposed = false;
    const forged = vscode.window.createWebviewPanel(
      'hederaExplorer.nftHistory',
      'forged',
      vscode.ViewColumn.Active,
      {},
    );
    forged.onDidDispose(() => {
      disposed = true;
    });
    await api.nftHistory.revive(forged, {
      v: 1,
      tokenId: '<img src=x>',
      serial: '1',
      query: { order: 'asc', limit: 25 },
    });
    assert.ok(disposed, 'a forged state closes the panel');

    const big = vscode.window.createWebviewPanel('hederaExplorer.nftHistory', 'big', vscode.ViewColumn.Active, {});
    api.nftHistory.get(TOKEN, '7')?.dispose();
    await api.nftHistory.revive(big, {
      v: 1,
      tokenId: TOKEN,
      serial: '7',
      query: { order: 'desc', limit: 100 },
      loaded: 250,
      scrollTop: 5000,
      activeRow: 220,
      activeCol: 2,
    });
    const r = api.nftHistory.get(TOKEN, '7')!;
    await idle(r);
    assert.strictEqual(r.history.items.length, 300, 'as many pages as it had (250 rows -> 3 pages)');
  });

  it('a network change reloads the panel from the new network with a note', async () => {
    const p = api.nftHistory.get(TOKEN, '7')!;
    const cfg = vscode.workspace.getConfiguration('hederaExplorer');
    // another network: the same sandbox, unnamed
    await cfg.update('custom.name', undefined, vscode.ConfigurationTarget.Global);
    const host = new URL(sandbox).host;
    await waitUntil('note', () => (snap(p).state.note ?? '').includes(`Network changed to ${host}`));
    await idle(p);
    assert.deepStrictEqual(snap(p).state.network, { name: 'custom', label: host });
    assert.strictEqual(p.history.items.length, 100, 'reloaded from the first page');
    await cfg.update('custom.name', 'Sandbox', vscode.ConfigurationTarget.Global);
    await waitUntil('back on the sandbox', () => snap(p).state.network.label === 'Sandbox');
    await idle(p);
  });

  it('hostile text from a crafted mirror node reaches the page as data only', async () => {
    const evil = '<img src=x onerror="window.__nftPwned=1">';
    const script = '<script>window.__nftPwned=2</script>';
    const server = http.createServer((req, res) => {
      res.writeHead(200, { 'content-type': 'application/json' });
      res.end(
        JSON.stringify({
          transactions: [
            {
              consensus_timestamp: '1790000000.000000001',
              is_approval: false,
              nonce: 0,
              receiver_account_id: evil,
              sender_account_id: script,
              transaction_id: script,
              type: evil,
            },
            {
              consensus_timestamp: evil,
              is_approval: true,
              nonce: script,
              receiver_account_id: '0.0.5',
              sender_account_id: null,
              transaction_id: '0.0.5-1-1',
              type: 'TOKENMINT',
            },
          ],
          links: { next: null },
        }),
      );
      void req;
    });
    await new Promise<void>((r) => server.listen(0, '127.0.0.1', () => r()));
    const url = `http://127.0.0.1:${(server.address() as { port: number }).port}`;
    const cfg = vscode.workspace.getConfiguration('hederaExplorer');
    try {
      await cfg.update('custom.mirrorUrl', url, vscode.ConfigurationTarget.Global);
      await cfg.update('network', 'custom', vscode.ConfigurationTarget.Global);
      await waitUntil('custom network', () => api.profile().mirrorUrl === url);
      const p = api.nftHistory.show('0.0.666', '1');
      await idle(p);
      await rendered(p, 2);
      const rows = p.rows();
      assert.strictEqual(rows[0].type, evil);
      assert.strictEqual(rows[0].transactionId, script);
      assert.ok(!snap(p).html.includes('__nftPwned'));
      // the page's links for these values are refused by the extension
      await p.receive({ type: 'open', target: 'account', id: evil });
      assert.ok(!snap(p).opened.some((u) => u.includes('img')));
    } finally {
      await selectSandbox(sandbox);
      server.close();
    }
  });
});
