#!/usr/bin/env node
// `npm run test:e2e`: the extension as users get it (.vsix) in a real VS Code web workbench, driven by
// headless Chromium. `npm run screenshots` is the same run with SCREENSHOTS=media/screenshots.
//   1. packages hedera-explorer.vsix (package-vsix.mjs; E2E_VSIX=<file> uses that one instead)
//   2. starts the sandbox (when it exists) and a throw-away profile whose user settings select it
//   3. code-server --install-extension <vsix>, then serves a temp copy of test/workspace
//   4. imports test/e2e/*.spec.mjs and runs their tests (test/e2e/runner.mjs) on one shared page, reset between tests
//   5. writes out/test-results/e2e.json, stops everything, exits 1 on any failure
// Env: E2E_GREP, E2E_FRESH=1 (a new page for every test), E2E_LANES (default 1), E2E_TEST_TIMEOUT_MS, VERBOSE=1 (server
// output), KEEP=1 (keep temp dirs), HEADED=1.
import fs from 'node:fs';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { launchBrowser } from './browser.mjs';
import { installExtension, startCodeServer } from './code-server.mjs';
import { packageVsix } from './package-vsix.mjs';
import { resultsDir, root, screenshotsDir, workspaceDir } from './paths.mjs';
import { cleanup, exitWhenOrphaned, tempDir } from './processes.mjs';
import { makeProfile } from './profile.mjs';
import { sandboxSettings, startSandbox } from './sandbox.mjs';

exitWhenOrphaned();
const t0 = Date.now();
const secs = () => `${((Date.now() - t0) / 1000).toFixed(1)}s`;
const resultsFile = path.join(resultsDir, 'e2e.json');
fs.rmSync(resultsFile, { force: true });
fs.rmSync(screenshotsDir, { recursive: true, force: true });

function writeResults(result) {
  fs.mkdirSync(resultsDir, { recursive: true });
  fs.writeFileSync(resultsFile, JSON.stringify(result, null, 2) + '\n');
}

let result;
try {
  const vsix = process.env.E2E_VSIX ? path.resolve(process.env.E2E_VSIX) : packageVsix({ quiet: true });
  console.log(`[e2e] ${path.relative(root, vsix)} ready after ${secs()}`);
  // Lanes (E2E_LANES=n): each a sandbox, a profile, a workspace and a code-server of its own, the tests dealt among
  // them and run at the same time. One by default: on 2 cores the tests are CPU-bound (two lanes took 46 s a test
  // against 20 s in one lane, slower overall); a machine with more cores may gain.
  const lanes = Math.max(1, Number(process.env.E2E_LANES || 1));
  const contexts = [];
  for (let lane = 0; lane < lanes; lane++) {
    const sandbox = await startSandbox({ build: lane === 0 });
    const profile = makeProfile('hedera-e2e', sandboxSettings(sandbox?.url));
    installExtension(profile, { vsix });
    const workspace = tempDir('hedera-e2e-ws');
    fs.cpSync(workspaceDir, workspace, { recursive: true });
    const server = await startCodeServer(profile, { folder: workspace });
    console.log(`[e2e] lane ${lane + 1}: code-server up after ${secs()}${sandbox ? `, sandbox ${sandbox.url}` : ''}`);
    contexts.push({ url: server.url, profile, workspace, sandboxUrl: sandbox?.url });
  }
  const browser = await launchBrowser();

  const specDir = path.join(root, 'test', 'e2e');
  for (const f of fs
    .readdirSync(specDir)
    .filter((n) => n.endsWith('.spec.mjs'))
    .sort()) {
    await import(pathToFileURL(path.join(specDir, f)).href);
  }
  const { runE2e } = await import('../e2e/runner.mjs');
  const results = await Promise.all(contexts.map((ctx, lane) => runE2e(browser, ctx, { lane, lanes })));
  result = results.reduce((a, r) => ({
    suite: 'e2e',
    passed: a.passed + r.passed,
    failed: a.failed + r.failed,
    skipped: a.skipped + r.skipped,
    failures: [...a.failures, ...r.failures],
  }));
} catch (e) {
  console.error(`[e2e] ${e.message}`);
  result = {
    suite: 'e2e',
    passed: 0,
    failed: 1,
    skipped: 0,
    failures: [`e2e setup: ${String(e.message).split('\n')[0]}`],
  };
} finally {
  await cleanup();
}
writeResults(result);
console.log(`[e2e] ${result.passed} passed, ${result.failed} failed, ${result.skipped} skipped in ${secs()}`);
process.exit(result.failed ? 1 : 0);
