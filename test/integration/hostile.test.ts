// The views in the real extension host against the sandbox's hostile mode (sandbox/README.md, "Hostile mode"):
// a server that misbehaves on purpose. Paging traps stop with a notice and never repeat rows, a refused next link
// keeps its page, a redirect to another origin is refused before any request reaches it, big integers and unknown
// fields of any type are shown with every digit, and reordering characters in memos are shown visibly.
import * as assert from 'assert';
import * as vscode from 'vscode';
import { resetSettings, SANDBOX_KEYS } from './helpers';
import { clearRequests, sandboxPost, settled, useSandbox, type ViewsApi } from './views.helpers';
import { sandboxUrl } from './helpers';

interface Recorded {
  url: string;
  host?: string;
}

async function recorded(prefix: string): Promise<Recorded[]> {
  const res = await fetch(`${sandboxUrl}/__sandbox/requests`);
  return ((await res.json()) as Recorded[]).filter((r) => r.url.startsWith(prefix));
}

const hostile = (families: string[]) => sandboxPost('/__sandbox/hostile', { families });
const calm = () => sandboxPost('/__sandbox/hostile', undefined, 'DELETE');
const sandboxHost = () => new URL(sandboxUrl!).host;

describe('Against a hostile server', function () {
  this.timeout(90000);
  let api: ViewsApi;

  before(async () => {
    ({ api } = await useSandbox());
    api.schedules.clearFilters();
    api.contractResults.clearFilters();
    await vscode.commands.executeCommand('hederaExplorer.schedules.focus');
  });
  afterEach(async () => {
    await calm();
  });
  after(async () => {
    await calm();
    await api.schedules.refresh();
    await api.contractResults.refresh();
    await resetSettings(SANDBOX_KEYS);
  });

  it('a next link to the page just loaded stops paging with a notice; Load more adds no row twice', async () => {
    await hostile(['paging-self']);
    await api.schedules.refresh();
    await settled(api.schedules);
    const first = (api.schedules.loaded as Array<{ schedule_id: string }>).map((s) => s.schedule_id);
    assert.strictEqual(first.length, 25);
    await api.schedules.loadMore();
    await api.schedules.loadMore();
    const snap = await settled(api.schedules);
    const ids = (api.schedules.loaded as Array<{ schedule_id: string }>).map((s) => s.schedule_id);
    assert.deepStrictEqual(ids, first, 'no row added, none twice');
    const stop = snap.rows.find((r) => r.contextValue === 'pagingStopped');
    assert.ok(stop, snap.rows.map((r) => r.contextValue).join(','));
    assert.match(stop.label, /leads back to a page already loaded/);
    assert.ok(!snap.rows.some((r) => r.contextValue === 'loadMore'), 'no Load more after the loop');
  });

  it('a cycle A → B → A stops at the second page', async () => {
    await hostile(['paging-cycle']);
    await api.contractResults.refresh();
    await settled(api.contractResults);
    for (let i = 0; i < 4; i++) await api.contractResults.loadMore();
    const snap = await settled(api.contractResults);
    const ts = (api.contractResults.loaded as Array<{ timestamp: string }>).map((r) => r.timestamp);
    assert.strictEqual(new Set(ts).size, ts.length, 'no result twice');
    assert.ok(ts.length <= 50, `at most pages A and B: ${ts.length}`);
    assert.ok(snap.rows.some((r) => r.contextValue === 'pagingStopped'));
  });

  it("a next link to another origin keeps the page's rows, says why paging stopped, and is never requested", async () => {
    await hostile(['paging-foreign']);
    await clearRequests();
    await api.contractResults.refresh();
    const snap = await settled(api.contractResults);
    assert.strictEqual(api.contractResults.loaded.length, 25, 'the page is kept');
    const stop = snap.rows.find((r) => r.contextValue === 'pagingStopped');
    assert.ok(stop, snap.rows.map((r) => r.contextValue).join(','));
    assert.match(stop.label, /localhost/);
    assert.ok(!snap.rows.some((r) => r.contextValue === 'error'), 'not an error with a Retry that fails for ever');
    const hosts = (await recorded('/api/v1/contracts/results')).map((r) => r.host);
    assert.ok(hosts.length >= 1 && hosts.every((h) => h === sandboxHost()), hosts.join(', '));
  });

  it('an empty first page with a next link says more may follow, and Load more brings the rows', async () => {
    await hostile(['paging-empty']);
    await api.schedules.refresh();
    const snap = await settled(api.schedules);
    assert.strictEqual(api.schedules.loaded.length, 0);
    const note = snap.rows.find((r) => r.contextValue === 'emptyPage');
    assert.ok(note, snap.rows.map((r) => `${r.contextValue}:${r.label}`).join(' | '));
    assert.match(note.label, /empty page; more may follow/);
    assert.ok(snap.rows.some((r) => r.contextValue === 'loadMore'));
    assert.ok(!snap.rows.some((r) => r.contextValue === 'empty'), 'not "no schedules"');
    await api.schedules.loadMore();
    await settled(api.schedules);
    assert.ok(api.schedules.loaded.length > 0, 'the next page has the rows');
  });

  it('a redirect to another origin is an error naming it, and no request reaches that origin', async () => {
    await hostile(['redirect']);
    await clearRequests();
    await api.schedules.refresh();
    const snap = await settled(api.schedules);
    const err = snap.rows.find((r) => r.contextValue === 'error');
    assert.ok(err, snap.rows.map((r) => r.label).join(' | '));
    assert.match(err.label, /redirected the request to localhost:\d+, another host/);
    assert.ok(!/check the URL/i.test(err.label));
    await calm();
    const hosts = (await recorded('/api/v1/schedules')).map((r) => r.host);
    assert.ok(hosts.length >= 1 && hosts.every((h) => h === sandboxHost()), hosts.join(', '));
  });

  it('big integers in unexpected fields and unknown fields of any type are shown with every digit, never a crash', async () => {
    await hostile(['bigint', 'unknown-fields']);
    await api.contractResults.refresh();
    await settled(api.contractResults);
    // only an EIP-7702 transaction's result has an authorization_list (as the real server: none on the others)
    const withList = (): Record<string, unknown> | undefined =>
      (api.contractResults.loaded as Array<Record<string, unknown>>).find((x) => Array.isArray(x.authorization_list));
    for (let i = 0; i < 8 && !withList(); i++) {
      await api.contractResults.loadMore();
      await settled(api.contractResults);
    }
    const r = withList() as Record<string, unknown>;
    assert.ok(r, 'a result with an authorization list');
    const lines = api.contractResults.detailLines(r);
    const all = lines.join('\n');
    assert.match(all, /Authorization list \/ #\d+ \/ nonce: 18446744073709551615/);
    assert.match(all, /Other fields \/ blob_gas_used: 9223372036854775807/);
    assert.match(all, /Amount: 92233720368\.54775807 ℏ \(9,223,372,036,854,775,807 tinybars\)/);
    assert.ok(
      lines.some((l) => l.startsWith('Other fields / __proto__')),
      'a field named __proto__ is a row like any other',
    );
    assert.ok(!all.includes('[object Object]'), 'objects are shown as JSON');
    const snap = api.contractResults.snapshot();
    assert.ok(!snap.rows.some((row) => row.contextValue === 'error'));
  });

  it('reordering and invisible characters in memos are shown escaped in the row', async () => {
    await hostile(['text']);
    await api.schedules.refresh();
    await settled(api.schedules);
    for (
      let i = 0;
      i < 3 && !(api.schedules.loaded as Array<{ schedule_id: string }>).some((s) => s.schedule_id === '0.0.5122073');
      i++
    )
      await api.schedules.loadMore();
    const snap = await settled(api.schedules);
    const row = (id: string) => snap.rows.find((r) => r.label.split(' · ')[0] === id);
    assert.match(row('0.0.5117998')?.description ?? '', /Other<U\+202E>los\.exe<U\+202C>/);
    assert.match(row('0.0.5122073')?.description ?? '', /pay<U\+200B>ment<U\+200C> to<U\+200D> 0\.0\.<U\+FEFF>1234/);
    for (const r of snap.rows)
      assert.ok(
        !/[\u202a-\u202e\u2066-\u2069\u200b-\u200f\ufeff]/.test(`${r.label}${r.description ?? ''}`),
        `raw invisible character in ${r.label}`,
      );
  });
});
