// The extension as VS Code for the web runs it (vscode.dev, github.dev): in the browser's web worker extension host,
// from its `browser` entry (dist/web/extension.js), every request made by the browser itself. A code-server of its
// own with the run's .vsix, told to run the extension on the web side (`remote.extensionKind`: ui; an extension with
// a browser entry then runs in the worker host). The sandbox answers browsers with CORS, as the real mirror node and
// Sourcify do. What only the browser transport does is checked here: a redirect to another origin is refused with
// the browser's own sentence, and an answer past the size cap is refused while it is read.
import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import { installExtension, startCodeServer } from '../harness/code-server.mjs';
import { vsixPath, workspaceDir } from '../harness/paths.mjs';
import { tempDir } from '../harness/processes.mjs';
import { makeProfile } from '../harness/profile.mjs';
import { sandboxSettings } from '../harness/sandbox.mjs';
import {
  openContainer,
  sandbox,
  screenshot,
  soloView,
  statusBarTexts,
  treeRow,
  treeRows,
  until,
  viewAction,
  waitForWorkbench,
} from './driver.mjs';
import { test } from './runner.mjs';

const EXTENSION_ID = 'hedera-explorer.hedera-explorer';

test.blank(); // its own code-server
test('Web host: the browser build runs in the web worker extension host; the browser makes every request; a foreign redirect and an oversized answer are refused', async ({
  page,
  ctx,
}) => {
  assert.ok(ctx.sandboxUrl, 'the sandbox runs');
  const profile = makeProfile('hedera-e2e-web', {
    ...sandboxSettings(ctx.sandboxUrl),
    'remote.extensionKind': { [EXTENSION_ID]: ['ui'] },
  });
  installExtension(profile, { vsix: process.env.E2E_VSIX ? path.resolve(process.env.E2E_VSIX) : vsixPath });
  assert.ok(
    fs.readdirSync(profile.extensionsDir).some((d) => d.startsWith(`${EXTENSION_ID}-`)),
    'the .vsix installed',
  );
  const workspace = tempDir('hedera-e2e-web-ws');
  fs.cpSync(workspaceDir, workspace, { recursive: true });
  const server = await startCodeServer(profile, { folder: workspace });
  const workerHosts = [];
  page.on('worker', (w) => workerHosts.push(w.url()));
  try {
    await sandbox(ctx, '/__sandbox/requests', undefined, 'DELETE');
    await page.goto(server.url);
    await waitForWorkbench(page);
    await openContainer(page, 'Hedera');
    await soloView(page, 'Contract Results');
    await until(
      page,
      async () => (await treeRows(page, 'Contract Results')).some((r) => /^\d{4}-\d\d-\d\d /.test(r.label)),
      'contract result rows',
    );
    // the workspace's deployment records read through vscode.workspace.fs (no Node fs in the worker)
    await soloView(page, 'Deployments');
    await until(
      page,
      async () => (await treeRows(page, 'Deployments')).some((r) => /^Vault\b/.test(r.label)),
      'the Vault deployment row',
    );
    await until(page, async () => (await statusBarTexts(page)).some((t) => /Hedera/.test(t)), 'the status bar item');

    // who asked: the browser (its User-Agent, the page's Origin, as CORS sends it), not the extension's Node client
    const origin = new URL(server.url).origin;
    const asked = (await sandbox(ctx, '/__sandbox/requests', undefined, 'GET')).filter((r) =>
      r.url.startsWith('/api/v1/contracts/results'),
    );
    assert.ok(asked.length >= 1, 'Contract Results asked the sandbox');
    for (const r of asked) {
      assert.match(r.headers['user-agent'] ?? '', /Mozilla\/5\.0 .*Chrome/, JSON.stringify(r.headers));
      assert.equal(r.headers.origin, origin, JSON.stringify(r.headers));
    }
    assert.ok(workerHosts.length >= 1, 'a web worker was started (the worker extension host)');
    await screenshot(page, 'web-host');

    // a redirect to another origin: fetch gives an opaque answer; refused, never followed
    await soloView(page, 'Schedules');
    await until(
      page,
      async () => (await treeRows(page, 'Schedules')).some((r) => /^0\.0\.\d+/.test(r.label)),
      'schedule rows',
    );
    await sandbox(ctx, '/__sandbox/hostile', { families: ['redirect'] });
    try {
      await viewAction(page, 'Schedules', 'Refresh');
      await until(
        page,
        async () =>
          (await treeRows(page, 'Schedules')).some((r) =>
            /redirected the request, and the browser does not tell where to/.test(r.label),
          ),
        'the redirect error row',
      );
    } finally {
      await sandbox(ctx, '/__sandbox/hostile', undefined, 'DELETE');
    }
    // an answer past the 32 MiB cap: refused while it is read, said as too large
    await sandbox(ctx, '/__sandbox/faults', { path: '/api/v1/schedules', times: 3, fault: { body: 'oversize' } });
    try {
      await viewAction(page, 'Schedules', 'Refresh');
      await until(
        page,
        async () => (await treeRows(page, 'Schedules')).some((r) => /larger than the allowed size/.test(r.label)),
        'the too-large error row',
      );
      assert.equal(
        await treeRow(page, 'Schedules', /larger than the allowed size/)
          .locator('.codicon-error')
          .count(),
        1,
      );
      await screenshot(page, 'web-host-too-large');
    } finally {
      await sandbox(ctx, '/__sandbox/faults', undefined, 'DELETE');
    }
    await viewAction(page, 'Schedules', 'Refresh');
    await until(
      page,
      async () => (await treeRows(page, 'Schedules')).some((r) => /^0\.0\.\d+/.test(r.label)),
      'schedule rows again',
    );
  } finally {
    await server.stop();
  }
});
