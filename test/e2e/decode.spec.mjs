// Decoded contract results and schedules in the browser workbench, against the sandbox and the sample
// workspace's artifacts: result rows labelled with the called function, a revert's details with the function's
// named arguments and the artifact that decoded it, a custom error with its arguments; schedule rows labelled
// with their transaction ("0.0.a → 0.0.b 10 ℏ", "Contract call 0.0.x transfer(…)") and its fields in the details.
import assert from 'node:assert/strict';
import {
  collapseRow,
  expandRow,
  openContainer,
  sandbox,
  screenshot,
  soloView,
  treeRow,
  treeRows,
  until,
  view,
  viewAction,
  viewDescription,
} from './driver.mjs';
import { test } from './runner.mjs';

const T = 20000;
const RESULTS = 'Contract Results';
const SCHEDULES = 'Schedules';
const NAMED = /^\d{4}-\d\d-\d\d \d\d:\d\d:\d\d · \w+\((…)?\)$/;

/** The rows under the row at `index` (deeper levels). */
function detailsOf(rows, index) {
  const out = [];
  for (const r of rows.slice(index + 1)) {
    if (r.level <= rows[index].level) break;
    out.push(r);
  }
  return out;
}

async function openView(page, name) {
  await openContainer(page, 'Hedera');
  await soloView(page, name);
  await view(page, name).locator('.pane-body .monaco-list-row[aria-level="1"]').first().waitFor({ timeout: T });
  const d = await viewDescription(page, name);
  if (d.includes('following')) await viewAction(page, name, 'Stop Following New Results');
  if (d.replace(/ · following$/, '') !== 'Sandbox') await viewAction(page, name, 'Clear Filters');
  await until(page, async () => (await viewDescription(page, name)) === 'Sandbox', `${name} unfiltered`);
  await page.mouse.move(1100, 600);
}

test('Decoding: contract result rows name their function; details show named arguments, the artifact used and decoded reverts', async ({
  page,
  ctx,
}) => {
  // the newest result (other specs may have added live results since the sandbox started)
  const [top] = (await sandbox(ctx, '/api/v1/contracts/results?limit=1')).results;
  await openView(page, RESULTS);
  // the workspace's artifacts are read in the background: the labels gain their function names
  await treeRow(page, RESULTS, NAMED).waitFor({ timeout: T });
  await until(
    page,
    async () => {
      const rows = (await treeRows(page, RESULTS)).filter((r) => r.level === 1 && r.label !== 'Load more…');
      return rows.length >= 20 && rows.filter((r) => NAMED.test(r.label)).length >= rows.length - 2;
    },
    'rows labelled with their functions',
  );
  const rows = (await treeRows(page, RESULTS)).filter((r) => r.level === 1);
  assert.match(
    rows[0].description,
    new RegExp(`^${top.contract_id.replace(/\./g, '\\.')} · (.+ · )?[\\d,]+ gas · from 0x`),
    'contract, result, gas and sender kept',
  );

  // the newest result: its function, the artifact that decoded it, and its revert reason if it failed
  const first = view(page, RESULTS).locator('.pane-body .monaco-list-row[aria-level="1"]').first();
  await expandRow(page, RESULTS, first);
  await treeRow(page, RESULTS, 'Decoded with').waitFor({ timeout: T });
  let all = await treeRows(page, RESULTS);
  const tx = detailsOf(
    all,
    all.findIndex((r) => r.label === 'Transaction'),
  );
  const d = (label, list = tx) => list.find((r) => r.label === label)?.description;
  const fnName = rows[0].label.split(' · ')[1].replace(/\(.*$/, '');
  assert.match(d('Function'), new RegExp(`^${fnName}\\(`), `Function ${d('Function')}`);
  assert.match(d('Decoded with'), /^artifacts\/(contracts\/sandbox\/\w+\.sol\/\w+\.json|abi\/SaucerRouter\.abi)$/);
  if (top.result === 'CONTRACT_REVERT_EXECUTED')
    assert.ok(d('Revert reason') && !d('Revert reason').startsWith('0x'), `Revert reason ${d('Revert reason')}`);
  await collapseRow(page, RESULTS, first);

  // a transfer: its named arguments, every digit of the amount
  // (a successful one if the first page has it: its return value shows too)
  const anyTransfer = treeRow(page, RESULTS, /^\d{4}-\d\d-\d\d \d\d:\d\d:\d\d · transfer\(…\)$/);
  await anyTransfer.waitFor({ timeout: T });
  const ok = view(page, RESULTS)
    .locator('.pane-body .monaco-list-row[aria-level="1"]', {
      has: page.locator('.codicon-pass'),
      hasText: / · transfer\(…\)/,
    })
    .first();
  const transfer = (await ok.count()) ? ok : anyTransfer;
  await expandRow(page, RESULTS, transfer);
  await expandRow(page, RESULTS, 'Function');
  await treeRow(page, RESULTS, 'to (address)').waitFor({ timeout: T });
  all = await treeRows(page, RESULTS);
  const args = detailsOf(
    all,
    all.findIndex((r) => r.label === 'Function'),
  );
  assert.deepEqual(
    args.map((r) => r.label),
    ['to (address)', 'value (uint256)'],
  );
  assert.match(args[0].description, /^0x[0-9a-fA-F]{40}$/);
  assert.match(args[1].description, /^\d+$/, 'the amount with every digit');
  assert.match(
    all.find((r) => r.label === 'Decoded with').description,
    /^artifacts\/contracts\/sandbox\/SandToken\.sol\/SandToken\.json$/,
  );
  if (await ok.count()) assert.equal(all.find((r) => r.label === 'Returned')?.description, 'value=true');
  await page.mouse.move(1100, 850);
  await screenshot(page, 'decoded-results', { readme: true });
  await collapseRow(page, RESULTS, transfer);
});

test('Decoding: schedule rows show their decoded transaction; the details list its fields and keep the base64', async ({
  page,
  ctx,
}) => {
  const executed = (await sandbox(ctx, '/__sandbox/health')).notable.schedules.executed;
  await openView(page, SCHEDULES);
  const byId = (id) => new RegExp(`^\\s*${id.replace(/\./g, '\\.')} · .+$`);
  await treeRow(page, SCHEDULES, byId(executed)).waitFor({ timeout: T });
  // every row re-rendered with its decoded body (rows drawn before the decoders loaded show the id alone)
  const schedulesRows = async () =>
    (await treeRows(page, SCHEDULES)).filter((r) => r.level === 1 && /^0\.0\.\d+/.test(r.label));
  // decoded: every row has its body's summary, and a contract call its function's name (the workspace's ABIs are read
  // in the background: a row drawn before them shows the selector, then its name)
  await until(
    page,
    async () =>
      (await schedulesRows()).every(
        (r) => r.label.includes(' · ') && !/ · Contract call 0\.0\.\d+ 0x[0-9a-f]{8}$/.test(r.label),
      ),
    'every schedule row decoded',
  );
  const rows = await schedulesRows();
  for (const r of rows) {
    assert.match(
      r.label,
      /^0\.0\.\d+ · (0\.0\.\d+ → 0\.0\.\d+ .+|Contract call 0\.0\.\d+ transfer\(…\)|Token (mint|burn|associate) 0\.0\.\d+.*|Consensus message 0\.0\.\d+)$/,
      JSON.stringify(r.label),
    );
    assert.match(
      r.description,
      /^(pending|executed|deleted|expired)( · .+)? · by 0\.0\.\d+$/,
      'state · memo · by creator kept',
    );
  }
  const transferRow = rows.find((r) => r.label.startsWith(`${executed} · `));
  assert.match(transferRow.label, /^0\.0\.5104897 · 0\.0\.2061517 → 0\.0\.\d+ [\d.]+ ℏ$/);

  // a scheduled contract call: its function from the workspace's ERC-20 artifact
  const call = rows.find((r) => / · Contract call /.test(r.label));
  assert.ok(call, rows.map((r) => r.label).join(' | '));
  await expandRow(page, SCHEDULES, byId(call.label.split(' · ')[0]));
  await expandRow(page, SCHEDULES, 'Scheduled transaction');
  await treeRow(page, SCHEDULES, 'Function').waitFor({ timeout: T });
  const all = await treeRows(page, SCHEDULES);
  const fields = detailsOf(
    all,
    all.findIndex((r) => r.label === 'Scheduled transaction'),
  );
  const f = (label) => fields.find((r) => r.label === label)?.description;
  assert.equal(f('Transaction'), 'Contract call');
  assert.match(f('Contract'), /^0\.0\.\d+$/);
  assert.match(f('Function'), /^transfer\(to=0x[0-9a-fA-F]{40}, value=\d+\)$/);
  assert.equal(f('Decoded with'), 'artifacts/contracts/sandbox/SandToken.sol/SandToken.json');
  assert.match(
    all.find((r) => r.label === 'Transaction body').description,
    /^\d+ bytes · [A-Za-z0-9+/=]+…?$/,
    'the base64 stays',
  );
  await page.mouse.move(1100, 850);
  await screenshot(page, 'decoded-schedules', { readme: true });
  await collapseRow(page, SCHEDULES, byId(call.label.split(' · ')[0]));
});
