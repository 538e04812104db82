#!/usr/bin/env node
// `npm test`: everything, in order, on a fresh machine too.
//   1. set-up: Debian packages and the offline VS Code runtime (test/harness/setup-vscode.mjs; fast when present)
//   2. build: the extension, the sandbox and the test bundles
//   3. suites: lint (ESLint and the type checks), unit (mocha under Node), sandbox (the sandbox's own tests), integration (mocha inside the real VS Code extension host;
//      then its *.pseudo.test.ts in the pseudo-locale qps-ploc),
//      end-to-end (the packaged extension in code-server, driven in Chromium)
// Each suite writes out/test-results/<suite>.json; the last line printed adds them up: "N passed, N failed".
// Env: SKIP_E2E=1 / SKIP_INTEGRATION=1 to leave a suite out (then it is reported as skipped, not passed).
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const results = path.join(root, 'out', 'test-results');
fs.rmSync(results, { recursive: true, force: true });
fs.mkdirSync(results, { recursive: true });

const t0 = Date.now();
const secs = () => `${((Date.now() - t0) / 1000).toFixed(0)}s`;
const run = (title, cmd, args, env = {}) => {
  console.log(`\n=== ${title} (${secs()}) ===`);
  const r = spawnSync(cmd, args, { cwd: root, stdio: 'inherit', env: { ...process.env, ...env } });
  return r.status ?? 1;
};
const exists = (p) => fs.existsSync(path.join(root, p));

const suites = [];
let setupFailed = false;

if (exists('test/harness/setup-vscode.mjs') && !(process.env.SKIP_E2E && process.env.SKIP_INTEGRATION)) {
  if (run('set-up: Debian packages and VS Code runtime', process.execPath, ['test/harness/setup-vscode.mjs']) !== 0)
    setupFailed = true;
}
if (
  run('build', process.execPath, ['esbuild.js']) !== 0 ||
  run('build tests', process.execPath, ['esbuild.js', '--tests']) !== 0
) {
  console.log('\n0 passed, 1 failed');
  process.exit(1);
}

suites.push({
  suite: 'lint',
  code: run('lint: ESLint (layer rules, zero warnings) and the type checks', process.execPath, ['test/lint.mjs']),
});

const mocha = path.join(root, 'node_modules', 'mocha', 'bin', 'mocha.js');
suites.push({
  suite: 'unit',
  code: run('unit tests', process.execPath, [mocha, '--config', 'test/unit/.mocharc.json'], { RESULTS_SUITE: 'unit' }),
});
suites.push({
  suite: 'sandbox',
  code: run(
    'sandbox tests (the sandbox program, under Node)',
    process.execPath,
    [mocha, '--config', 'sandbox/test/.mocharc.json'],
    { RESULTS_SUITE: 'sandbox' },
  ),
});

if (exists('test/harness/run-integration.cjs') && !process.env.SKIP_INTEGRATION) {
  suites.push({
    suite: 'integration',
    code: setupFailed
      ? 1
      : run('integration tests (real VS Code extension host)', process.execPath, ['test/harness/run-integration.cjs']),
  });
  suites.push({
    suite: 'integration-qps-ploc',
    code: setupFailed
      ? 1
      : run(
          'integration tests in a pseudo-locale (the translated bundle reaches the user)',
          process.execPath,
          ['test/harness/run-integration.cjs'],
          { HEDERA_LOCALE: 'qps-ploc', SKIP_BUILD: '1' },
        ),
  });
}
if (exists('test/harness/run-e2e.mjs') && !process.env.SKIP_E2E) {
  suites.push({
    suite: 'e2e',
    code: setupFailed
      ? 1
      : run('end-to-end tests (code-server + Chromium)', process.execPath, ['test/harness/run-e2e.mjs']),
  });
}

let passed = 0;
let failed = 0;
let skipped = 0;
console.log(`\n=== summary (${secs()}) ===`);
for (const s of suites) {
  const file = path.join(results, `${s.suite}.json`);
  let r;
  try {
    r = JSON.parse(fs.readFileSync(file, 'utf8'));
  } catch {
    r = undefined;
  }
  if (!r) {
    // the runner died before reporting: count the whole suite as one failure
    console.log(`${s.suite}: no results (exit code ${s.code}) - counted as 1 failed`);
    failed += 1;
    continue;
  }
  const extra = s.code !== 0 && r.failed === 0 ? 1 : 0; // a non-zero exit with no failed test is still a failure
  passed += r.passed;
  failed += r.failed + extra;
  skipped += r.skipped || 0;
  console.log(
    `${s.suite}: ${r.passed} passed, ${r.failed + extra} failed${r.skipped ? `, ${r.skipped} skipped` : ''}${extra ? ` (runner exit code ${s.code})` : ''}`,
  );
  for (const f of r.failures || []) console.log(`  ✘ ${f}`);
}
console.log(`\n${passed} passed, ${failed} failed${skipped ? `, ${skipped} skipped` : ''}`);
process.exit(failed > 0 ? 1 : 0);
