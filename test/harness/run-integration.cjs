// `npm run test:integration`: the mocha suites of test/integration run inside the real VS Code extension host.
//
// Standard @vscode/test-electron runTests(); the only offline twist is vscodeExecutablePath = launcher.mjs
// (VS Code server from code-server + headless Chromium). run-desktop.cjs reuses runIntegration() with
// test-electron's normal VS Code download instead.
//   1. builds the extension as it ships (node esbuild.js --production: dist/extension.js, main.js, the lazy entries
//      and their chunks, minified, the files the .vsix holds: package-vsix.mjs distFiles()) and the test bundles
//      (out/test/integration, one bundle per suite: they may import from src only types and helpers whose identity
//      does not matter), unless SKIP_BUILD=1
//   2. starts the sandbox (when built) and passes its URL as HEDERA_SANDBOX_URL through extensionTestsEnv
//   3. opens a temp copy of test/workspace (tests may write .vscode/settings.json; the repo stays clean)
//   4. results: out/test-results/<suite>.json, written by test/integration/index.ts inside the host; if the
//      host dies before writing it, this script writes a failing one. Exit code non-zero on any failure.
const { execFileSync } = require('node:child_process');
const fs = require('node:fs');
const path = require('node:path');
const { runTests } = require('@vscode/test-electron');

const root = path.resolve(__dirname, '..', '..');

async function runIntegration({ suite = 'integration', vscodeExecutablePath, prepare } = {}) {
  const { cleanup, tempDir } = await import('./processes.mjs');
  const { startSandbox } = await import('./sandbox.mjs');
  const resultsFile = path.join(root, 'out', 'test-results', `${suite}.json`);
  fs.rmSync(resultsFile, { force: true });
  const t0 = Date.now();
  let error;
  try {
    if (!process.env.SKIP_BUILD) {
      execFileSync(process.execPath, ['esbuild.js', '--production'], {
        cwd: root,
        stdio: ['ignore', 'ignore', 'inherit'],
      });
      execFileSync(process.execPath, ['esbuild.js', '--tests'], { cwd: root, stdio: 'inherit' });
      const { distFiles } = await import('./package-vsix.mjs');
      console.log(`[${suite}] the production build (the .vsix's files): ${distFiles().length} files in dist/`);
    }
    if (prepare) vscodeExecutablePath = await prepare();
    const sandbox = await startSandbox({ build: false }); // built by --tests above
    const workspace = tempDir('hedera-itest-ws');
    fs.cpSync(path.join(root, 'test', 'workspace'), workspace, { recursive: true });
    await runTests({
      vscodeExecutablePath,
      extensionDevelopmentPath: root,
      extensionTestsPath: path.join(root, 'out', 'test', 'integration', 'index'),
      launchArgs: [workspace],
      extensionTestsEnv: {
        HEDERA_TEST_RESULTS: resultsFile,
        ...(sandbox ? { HEDERA_SANDBOX_URL: sandbox.url } : {}),
      },
    });
  } catch (e) {
    error = e;
  } finally {
    await cleanup();
  }
  if (!fs.existsSync(resultsFile)) {
    const message = error ? String(error.message || error).split('\n')[0] : 'no results written';
    fs.mkdirSync(path.dirname(resultsFile), { recursive: true });
    fs.writeFileSync(
      resultsFile,
      JSON.stringify(
        {
          suite,
          passed: 0,
          failed: 1,
          skipped: 0,
          failures: [`${suite} run: the extension host did not report results (${message})`],
        },
        null,
        2,
      ) + '\n',
    );
  }
  const result = JSON.parse(fs.readFileSync(resultsFile, 'utf8'));
  console.log(
    `[${suite}] ${result.passed} passed, ${result.failed} failed, ${result.skipped} skipped in ${((Date.now() - t0) / 1000).toFixed(1)}s`,
  );
  for (const f of result.failures) console.log(`  ✗ ${f}`);
  return error || result.failed ? 1 : 0;
}

module.exports = { runIntegration };

if (require.main === module) {
  runIntegration({ vscodeExecutablePath: path.join(__dirname, 'launcher.mjs') }).then((code) => process.exit(code));
}
