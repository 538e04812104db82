// The Schedules view in the real extension host, against the sandbox: rows, paging, filters, details,
// open by id, error rows for a 429 and a malformed answer, and no request while the view is hidden.
import * as assert from 'assert';
import * as vscode from 'vscode';
import { resetSettings, waitUntil, SANDBOX_KEYS } from './helpers';
import { addFault, clearFaults, clearRequests, requests, settled, useSandbox, type ViewsApi } from './views.helpers';

describe('Schedules view', function () {
  this.timeout(60000);
  let api: ViewsApi;

  before(async () => {
    ({ api } = await useSandbox());
    api.schedules.clearFilters();
    await vscode.commands.executeCommand('hederaExplorer.schedules.focus');
  });
  afterEach(() => clearFaults());
  after(async () => {
    api.schedules.clearFilters();
    await resetSettings(SANDBOX_KEYS);
  });

  it('shows a page of schedules with state, memo and creator, and a Load more row', async () => {
    await api.schedules.refresh();
    const snap = await settled(api.schedules);
    const rows = snap.rows.filter((r) => r.contextValue === 'schedule');
    assert.strictEqual(rows.length, 25, 'default page size');
    assert.match(rows[0].label, /^\d+\.\d+\.\d+( · .+)?$/, 'the id, then the decoded transaction');
    assert.match(rows[0].description ?? '', /^(pending|executed|deleted|expired)( · .*)? · by \d+\.\d+\.\d+$/);
    assert.strictEqual(snap.rows.at(-1)?.contextValue, 'loadMore');
    assert.match(snap.description ?? '', /^Sandbox/);
  });

  it('Load more follows links.next and appends the next page in order', async () => {
    const before = api.schedules.loaded.length;
    await api.schedules.loadMore();
    const ids = (api.schedules.loaded as Array<{ schedule_id: string }>).map((s) =>
      Number(s.schedule_id.split('.')[2]),
    );
    assert.strictEqual(ids.length, before + 25);
    assert.deepStrictEqual(
      ids,
      [...ids].sort((a, b) => a - b),
      'ascending ids across pages',
    );
    assert.strictEqual(new Set(ids).size, ids.length, 'no duplicates');
  });

  it('filters by creator account and shows the filter in the description; clearing brings all back', async () => {
    const creator = (api.schedules.loaded[0] as { creator_account_id: string }).creator_account_id;
    api.schedules.setFilters({ accountId: creator, order: 'desc', limit: 10 });
    const snap = await settled(api.schedules);
    assert.match(
      snap.description ?? '',
      new RegExp(`account\\.id=${creator.replace(/\./g, '\\.')} · desc · 10 a page`),
    );
    const loaded = api.schedules.loaded as Array<{ creator_account_id: string; schedule_id: string }>;
    assert.ok(loaded.length >= 1 && loaded.length <= 10);
    assert.ok(loaded.every((s) => s.creator_account_id === creator));
    const ids = loaded.map((s) => Number(s.schedule_id.split('.')[2]));
    assert.deepStrictEqual(
      ids,
      [...ids].sort((a, b) => b - a),
    );
    const sent = (await requests('/api/v1/schedules')).at(-1) ?? '';
    assert.ok(sent.includes(`account.id=${creator}`) && sent.includes('order=desc') && sent.includes('limit=10'), sent);
    api.schedules.clearFilters();
    const cleared = await settled(api.schedules);
    assert.strictEqual(cleared.description, 'Sandbox');
  });

  it('refuses a bad filter with a sentence and sends nothing', async () => {
    await clearRequests();
    assert.throws(() => api.schedules.setFilters({ accountId: 'abc' }), /not an account id/);
    assert.throws(() => api.schedules.setFilters({ limit: 0 }), /page size/);
    // a refused filter starts nothing: no load in flight, so nothing can still arrive at the sandbox
    assert.strictEqual(api.schedules.loading, false);
    assert.strictEqual(api.schedules.describeFilters(), '');
    assert.deepStrictEqual(await requests('/api/v1/schedules'), []);
  });

  it('opens one schedule by id (pinned on top) and says so when there is none', async () => {
    const id = (api.schedules.loaded[3] as { schedule_id: string }).schedule_id;
    const s = await api.schedules.openById(id);
    assert.strictEqual(s?.schedule_id, id);
    assert.strictEqual(api.schedules.snapshot().rows[0].label.split(' · ')[0], id);
    assert.strictEqual(await api.schedules.openById('0.0.999999999'), undefined);
    const sent = await requests('/api/v1/schedules/0.0.999999999');
    assert.strictEqual(sent.length, 1);
  });

  it("a 429 becomes an error row with the server's message; Retry recovers", async () => {
    await addFault({ path: '/api/v1/schedules', times: 3, fault: { status: 429, retryAfter: '0' } });
    await api.schedules.refresh();
    const snap = await settled(api.schedules);
    const err = snap.rows.find((r) => r.contextValue === 'error');
    assert.ok(err, JSON.stringify(snap.rows));
    assert.match(err.label, /limiting requests \(HTTP 429/);
    await clearFaults();
    await vscode.commands.executeCommand('hederaExplorer.schedules.retry');
    await settled(api.schedules);
    assert.strictEqual(api.schedules.loaded.length, 25);
  });

  it('a malformed answer becomes an error row, and the other views keep working', async () => {
    await addFault({ path: '/api/v1/schedules', times: 1, fault: { body: 'malformed' } });
    await api.schedules.refresh();
    const snap = await settled(api.schedules);
    assert.match(snap.rows.find((r) => r.contextValue === 'error')?.label ?? '', /could not be read/);
    await api.contractResults.refresh();
    const other = await settled(api.contractResults);
    assert.ok(other.rows.some((r) => /^contractResult(\.failed)?$/.test(r.contextValue ?? '')));
  });

  it('sends no request while the view is hidden, loads again when shown', async () => {
    await vscode.commands.executeCommand('workbench.view.explorer');
    await waitUntil(
      'the view hidden, its first page in',
      () => !api.schedules.visible && api.schedules.started && !api.schedules.loading,
    );
    await clearRequests();
    const cfg = vscode.workspace.getConfiguration('hederaExplorer');
    await cfg.update('http.timeoutSeconds', 14, vscode.ConfigurationTarget.Global); // rebuilds the clients: views reset
    // reset and not asked again: only showing the view asks for the first page
    await waitUntil('the view reset', () => !api.schedules.started);
    assert.ok(!api.schedules.visible && !api.schedules.loading);
    assert.deepStrictEqual(await requests('/api/v1/schedules'), [], 'nothing while hidden');
    await vscode.commands.executeCommand('hederaExplorer.schedules.focus');
    await waitUntil('reloaded when shown', async () => (await requests('/api/v1/schedules')).length > 0, 10000);
    await cfg.update('http.timeoutSeconds', undefined, vscode.ConfigurationTarget.Global);
  });

  it('shows the raw JSON read-only and copies the id', async () => {
    await settled(api.schedules);
    const first = api.schedules.loaded[0] as { schedule_id: string };
    await vscode.commands.executeCommand('hederaExplorer.schedules.showRaw', first);
    await waitUntil('raw JSON editor', () => vscode.window.activeTextEditor?.document.uri.scheme === 'hedera-explorer');
    const doc = vscode.window.activeTextEditor!.document;
    assert.strictEqual(doc.languageId, 'json');
    assert.strictEqual(JSON.parse(doc.getText()).schedule_id, first.schedule_id);
    assert.ok(!vscode.workspace.fs.isWritableFileSystem('hedera-explorer'), 'read-only');
    await vscode.commands.executeCommand('workbench.action.closeActiveEditor');
    await vscode.env.clipboard.writeText('');
    await vscode.commands.executeCommand('hederaExplorer.schedules.copyId', first);
    assert.strictEqual(await vscode.env.clipboard.readText(), first.schedule_id);
  });
});
