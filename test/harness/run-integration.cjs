// `npm run test:integration`: the mocha suites of test/integration run inside the real VS Code extension host.
//
// Standard @vscode/test-electron runTests(); the only offline twist is vscodeExecutablePath = launcher.mjs
// (VS Code server from code-server + headless Chromium). run-desktop.cjs reuses runIntegration() with
// test-electron's normal VS Code download instead.
//   1. builds the extension as it ships (node esbuild.js --production: dist/extension.js, main.js, the lazy entries
//      and their chunks, minified, the files the .vsix holds: package-vsix.mjs distFiles()) and the test bundles
//      (out/test/integration, one bundle per suite: they may import from src only types and helpers whose identity
//      does not matter), unless SKIP_BUILD=1
//   2. starts the sandbox (when built) and passes its URL as HEDERA_SANDBOX_URL through extensionTestsEnv; for the
//      suite on the placement ledger (placement.test.ts; not with a locale, nor a HEDERA_TEST_GREP that does not
//      match "placement ledger") a second one with the ledger (--placement), its URL as HEDERA_PLACEMENT_URL and the
//      Hardhat 2 project it wrote as HEDERA_PLACEMENT_WORKSPACE
//   3. opens a temp copy of test/workspace (tests may write .vscode/settings.json; the repo stays clean), as the one
//      folder of a .code-workspace file: a suite can then add a second folder in the same extension host
//      (virtualFs.test.ts); a window opened on a folder would reopen as a new workspace, with a new extension host
//   4. with a locale (HEDERA_LOCALE=qps-ploc): VS Code runs in that display language (--locale), the extension from a
//      temp copy of its packaged files with a pseudo-localized bundle and package.nls (npm run l10n -- --pseudo),
//      and only the *.pseudo.test.ts suites run (the others read English); results: <suite>-<locale>.json
//   5. results: out/test-results/<suite>.json, written by test/integration/index.ts inside the host; if the
//      host dies before writing it, this script writes a failing one. Exit code non-zero on any failure.
const { execFileSync } = require('node:child_process');
const fs = require('node:fs');
const path = require('node:path');
const { runTests } = require('@vscode/test-electron');

const root = path.resolve(__dirname, '..', '..');

async function runIntegration({ suite = 'integration', vscodeExecutablePath, prepare, locale } = {}) {
  const { cleanup, tempDir } = await import('./processes.mjs');
  if (locale) suite = `${suite}-${locale}`;
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
    let extensionDevelopmentPath = root;
    if (locale) extensionDevelopmentPath = await pseudoLocalized(tempDir('hedera-itest-ext'), locale);
    const grep = process.env.HEDERA_TEST_GREP;
    const withPlacement = !locale && (!grep || new RegExp(grep).test('placement ledger'));
    const placementWorkspace = withPlacement ? tempDir('hedera-itest-placement') : undefined;
    // built by --tests above; the two start at once
    const [sandbox, placement] = await Promise.all([
      startSandbox({ build: false }),
      placementWorkspace ? startSandbox({ build: false, placement: placementWorkspace }) : undefined,
    ]);
    const workspace = tempDir('hedera-itest-ws');
    fs.cpSync(path.join(root, 'test', 'workspace'), workspace, { recursive: true });
    const workspaceFile = path.join(tempDir('hedera-itest-wsfile'), 'hedera-itest.code-workspace');
    fs.writeFileSync(workspaceFile, JSON.stringify({ folders: [{ path: workspace }] }, null, 2));
    await runTests({
      vscodeExecutablePath,
      extensionDevelopmentPath,
      extensionTestsPath: path.join(root, 'out', 'test', 'integration', 'index'),
      launchArgs: [workspaceFile, ...(locale ? [`--locale=${locale}`] : [])],
      extensionTestsEnv: {
        HEDERA_TEST_RESULTS: resultsFile,
        ...(locale ? { HEDERA_LOCALE: locale } : {}),
        ...(sandbox ? { HEDERA_SANDBOX_URL: sandbox.url } : {}),
        ...(placement ? { HEDERA_PLACEMENT_URL: placement.url, HEDERA_PLACEMENT_WORKSPACE: placementWorkspace } : {}),
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

/**
 * The extension as it ships (the .vsix's files) copied into `dir`, with the pseudo-localized bundle and package.nls of
 * `npm run l10n -- --pseudo` named for `locale` (the pseudo text stands for any translation). Returns `dir`.
 */
async function pseudoLocalized(dir, locale) {
  const { PACKAGED_FILES } = await import('./code-server.mjs');
  for (const f of PACKAGED_FILES) {
    const src = path.join(root, f);
    if (fs.existsSync(src)) fs.cpSync(src, path.join(dir, f), { recursive: true });
  }
  execFileSync(process.execPath, [path.join(__dirname, 'l10n.mjs'), `--pseudo=${dir}`], { cwd: root, stdio: 'ignore' });
  if (locale !== 'qps-ploc') {
    fs.renameSync(
      path.join(dir, 'l10n', 'bundle.l10n.qps-ploc.json'),
      path.join(dir, 'l10n', `bundle.l10n.${locale}.json`),
    );
    fs.renameSync(path.join(dir, 'package.nls.qps-ploc.json'), path.join(dir, `package.nls.${locale}.json`));
  }
  return dir;
}

module.exports = { runIntegration };

if (require.main === module) {
  runIntegration({
    vscodeExecutablePath: path.join(__dirname, 'launcher.mjs'),
    locale: process.env.HEDERA_LOCALE || undefined,
  }).then((code) => process.exit(code));
}
