// The Contract Results view in the real extension host, against the sandbox: rows, paging, every filter,
// details with decoded reverts and every digit of big integers, follow mode, error rows.
import * as assert from 'assert';
import * as vscode from 'vscode';
import { resetSettings, waitUntil, SANDBOX_KEYS } from './helpers';
import { addFault, clearFaults, clearRequests, requests, settled, useSandbox, type ViewsApi } from './views.helpers';

interface Result {
  timestamp: string;
  contract_id: string;
  from: string;
  block_number: number | bigint;
  transaction_index: number;
  result: string;
  error_message: string | null;
  amount: number | bigint | null;
}

describe('Contract Results view', function () {
  this.timeout(90000);
  let api: ViewsApi;
  const loaded = () => api.contractResults.loaded as Result[];

  before(async () => {
    ({ api } = await useSandbox());
    api.contractResults.clearFilters();
    await vscode.commands.executeCommand('hederaExplorer.contractResults.focus');
  });
  afterEach(async function () {
    await clearFaults();
    // a failing test must not leave its filters to the next one
    if (this.currentTest?.state === 'failed') {
      api.contractResults.setFollow(false);
      api.contractResults.clearFilters();
      await settled(api.contractResults);
    }
  });
  after(async () => {
    api.contractResults.setFollow(false);
    api.contractResults.clearFilters();
    await resetSettings(SANDBOX_KEYS);
  });

  it('shows the newest results first with contract, result, gas and sender', async () => {
    await api.contractResults.refresh();
    const snap = await settled(api.contractResults);
    const rows = snap.rows.filter((r) => /^contractResult(\.failed)?$/.test(r.contextValue ?? ''));
    assert.strictEqual(rows.length, 25);
    assert.match(
      rows[0].label,
      /^\d{4}-\d\d-\d\d \d\d:\d\d:\d\d( · \w+\((…)?\))?$/,
      'time, then the function when an ABI knows it',
    );
    assert.match(rows[0].description ?? '', /^\d+\.\d+\.\d+ · (.+ · )?[\d,]+ gas · from 0x/);
    assert.strictEqual(snap.rows.at(-1)?.contextValue, 'loadMore');
    const ts = loaded().map((r) => r.timestamp);
    assert.deepStrictEqual(ts, [...ts].sort().reverse());
  });

  it('Load more appends the next page without gaps or repeats', async () => {
    await api.contractResults.loadMore();
    const ts = loaded().map((r) => r.timestamp);
    assert.strictEqual(ts.length, 50);
    assert.strictEqual(new Set(ts).size, 50);
    const sent = (await requests('/api/v1/contracts/results')).at(-1) ?? '';
    assert.match(sent, /timestamp=lt:\d+\.\d+/);
  });

  it('filters by block number, then by transaction index in that block', async () => {
    const r = loaded()[0];
    api.contractResults.setFilters({ blockNumber: String(r.block_number) });
    await settled(api.contractResults);
    assert.ok(loaded().length >= 1 && loaded().every((x) => String(x.block_number) === String(r.block_number)));
    api.contractResults.setFilters({ transactionIndex: String(r.transaction_index) });
    const snap = await settled(api.contractResults);
    assert.match(
      snap.description ?? '',
      new RegExp(`block\\.number=${r.block_number} · transaction\\.index=${r.transaction_index}`),
    );
    assert.ok(loaded().every((x) => x.transaction_index === r.transaction_index));
    api.contractResults.clearFilters();
    await settled(api.contractResults);
  });

  it('refuses a transaction index without a block, and bad input, before any request', async () => {
    await clearRequests();
    assert.throws(
      () => api.contractResults.setFilters({ transactionIndex: '1' }),
      /needs a block number or block hash/,
    );
    assert.throws(() => api.contractResults.setFilters({ from: '0x12' }), /EVM address/);
    assert.throws(() => api.contractResults.setFilters({ timestamp: 'yesterday' }), /not a timestamp/);
    assert.throws(() => api.contractResults.setFilters({ blockHash: 'abc' }), /not a block hash/);
    // a refused filter starts nothing: no load in flight, so nothing can still arrive at the sandbox
    assert.strictEqual(api.contractResults.loading, false);
    assert.strictEqual(api.contractResults.describeFilters(), '');
    assert.deepStrictEqual(await requests('/api/v1/contracts/results'), []);
  });

  it('filters by sender and by contract from a row, and by a time range', async () => {
    await settled(api.contractResults);
    const r = loaded()[0];
    api.contractResults.filterBy('from', r);
    await settled(api.contractResults);
    assert.ok(loaded().length >= 1);
    assert.ok((await requests('/api/v1/contracts/results')).at(-1)?.includes(`from=${r.from}`));
    api.contractResults.clearFilters();
    await settled(api.contractResults);
    api.contractResults.filterBy('contract', r);
    await settled(api.contractResults);
    assert.ok(loaded().length >= 1 && loaded().every((x) => x.contract_id === r.contract_id), 'only that contract');
    api.contractResults.setFilters({
      contract: '',
      timestamp: `lte:${r.timestamp}`,
      internal: true,
      order: 'asc',
      limit: '5',
    });
    const snap = await settled(api.contractResults);
    assert.match(snap.description ?? '', /internal · timestamp=lte:.* · asc · 5 a page/);
    assert.strictEqual(loaded().length, 5);
    assert.ok(loaded().every((x) => x.timestamp <= r.timestamp));
    api.contractResults.clearFilters();
    await settled(api.contractResults);
  });

  it('details decode Error(string) and Panic(uint256) reverts', async () => {
    await settled(api.contractResults);
    for (let i = 0; i < 10 && !loaded().some((r) => r.error_message?.startsWith('0x4e487b71')); i++) {
      await api.contractResults.loadMore();
      await settled(api.contractResults);
    }
    const errorRevert = loaded().find((r) => r.error_message?.startsWith('0x08c379a0'));
    const panicRevert = loaded().find((r) => r.error_message?.startsWith('0x4e487b71'));
    assert.ok(errorRevert && panicRevert, 'the sandbox has both kinds of revert');
    const lines = api.contractResults.detailLines(errorRevert as never);
    const reason = lines.find((l) => l.startsWith('Transaction / Revert reason: '));
    assert.ok(reason && !reason.includes('0x08c379a0'), reason);
    assert.ok(lines.some((l) => l.startsWith('Transaction / Revert reason / Raw error: 0x08c379a0')));
    const panic = api.contractResults
      .detailLines(panicRevert as never)
      .find((l) => l.startsWith('Transaction / Revert reason: '));
    assert.match(panic ?? '', /Panic 0x[0-9a-f]{2}: /);
    for (const group of ['Transaction /', 'Gas and fees /', 'EVM envelope /', 'Data /'])
      assert.ok(
        lines.some((l) => l.startsWith(group)),
        group,
      );
  });

  it('keeps every digit of integers above 2^53', async () => {
    const health = (await (await fetch(`${api.profile().mirrorUrl}/__sandbox/health`)).json()) as {
      notable: { contractResults: Record<string, string> };
    };
    const n = health.notable.contractResults;
    const check = async (ts: string, label: string, digits: string) => {
      api.contractResults.setFilters({ timestamp: ts });
      await settled(api.contractResults);
      assert.strictEqual(loaded().length, 1, ts);
      const line = api.contractResults.detailLines(loaded()[0] as never).find((l) => l.includes(`/ ${label}: `));
      assert.ok(line?.includes(digits.replace(/\B(?=(\d{3})+(?!\d))/g, ',')), `${label}: ${line}`);
    };
    await check(n.bigAmount, 'Amount', '9007199254740993');
    assert.strictEqual(typeof loaded()[0].amount, 'bigint');
    await check(n.bigGasLimit, 'Gas limit', '9223372036854775807');
    await check(n.bigNonce, 'Nonce', '9007199254740997');
    await check(n.bigBlockNumber, 'Block number', '9007199254740999');
    api.contractResults.clearFilters();
    await settled(api.contractResults);
  });

  it('Follow polls for newer results only while visible and shows it in the description', async () => {
    await settled(api.contractResults);
    api.contractResults.setFollow(true);
    assert.ok(api.contractResults.isFollowing);
    await clearRequests();
    await api.contractResults.pollOnce();
    const newest = loaded()
      .map((r) => r.timestamp)
      .sort()
      .at(-1);
    const sent = await requests('/api/v1/contracts/results');
    assert.ok(
      sent.some((u) => u.includes(`timestamp=gt:${newest}`) && u.includes('order=asc')),
      `sent: ${sent.join('\n')} newest ${newest} snapshot ${JSON.stringify(api.contractResults.snapshot().rows.slice(0, 2))}`,
    );
    assert.match(api.contractResults.snapshot().description ?? '', /following/);
    // two new results appear on the network: the next poll puts them on top, newest first
    const res = await fetch(`${api.profile().mirrorUrl}/__sandbox/contracts/results`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ count: 2 }),
    });
    const added = ((await res.json()) as { added: Array<{ timestamp: string }> }).added.map((a) => a.timestamp);
    assert.strictEqual(added.length, 2);
    const count = loaded().length;
    assert.strictEqual(await api.contractResults.pollOnce(), 2);
    assert.strictEqual(loaded().length, count + 2);
    assert.deepStrictEqual(
      loaded()
        .slice(0, 2)
        .map((r) => r.timestamp),
      [...added].reverse(),
    );
    assert.strictEqual(await api.contractResults.pollOnce(), 0, 'nothing new the second time');
    await vscode.commands.executeCommand('workbench.view.explorer');
    // hidden: Follow's timer stopped and its poll cancelled; a poll asked for now does nothing and schedules nothing
    await waitUntil(
      'the view hidden and Follow idle',
      () => !api.contractResults.visible && api.contractResults.followIdle,
    );
    await clearRequests();
    assert.strictEqual(await api.contractResults.pollOnce(), 0);
    assert.ok(api.contractResults.followIdle, 'nothing scheduled while hidden');
    assert.deepStrictEqual(await requests('/api/v1/contracts/results'), [], 'no poll while hidden');
    await vscode.commands.executeCommand('hederaExplorer.contractResults.focus');
    api.contractResults.setFollow(false);
  });

  it('a 503 that persists is an error row; Retry recovers; a failed Load more keeps the rows', async () => {
    await api.contractResults.refresh();
    await settled(api.contractResults);
    await addFault({ path: '/api/v1/contracts/results', times: 3, fault: { status: 503 } });
    await api.contractResults.loadMore();
    const snap = await settled(api.contractResults);
    assert.strictEqual(
      snap.rows.filter((r) => /^contractResult(\.failed)?$/.test(r.contextValue ?? '')).length,
      25,
      `rows kept: ${JSON.stringify(snap)}`,
    );
    assert.match(snap.rows.at(-1)?.label ?? '', /HTTP 503/);
    await clearFaults();
    await api.contractResults.retry();
    await waitUntil('50 rows after retry', () => api.contractResults.loaded.length === 50);
  });
});
