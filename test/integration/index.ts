// Mocha entry point that runs INSIDE the real VS Code extension host (test-electron's `extensionTestsPath`).
// Bundled by `node esbuild.js --tests` to out/test/integration/index.js next to the *.test.js suites.
//
// Loads every *.test.js in this folder (bdd ui: describe/it), runs them, and writes the results file of
// the project's test protocol to $HEDERA_TEST_RESULTS (set by test/harness/run-integration.cjs):
//   {"suite":"integration","passed":N,"failed":N,"skipped":N,"failures":["title: message", ...]}
// Env: HEDERA_TEST_GREP (only tests whose full title matches); HEDERA_LOCALE (VS Code runs in that display language
// with the pseudo-localized bundle: only the *.pseudo.test.js suites, which expect it; the others expect English).
import * as fs from 'fs';
import * as path from 'path';
import Mocha from 'mocha';

export function run(): Promise<void> {
  const mocha = new Mocha({ ui: 'bdd', color: false, timeout: 20000, reporter: 'spec' });
  const locale = process.env.HEDERA_LOCALE;
  const suite = locale ? `integration-${locale}` : 'integration';
  if (process.env.HEDERA_TEST_GREP) mocha.grep(process.env.HEDERA_TEST_GREP);
  for (const f of fs
    .readdirSync(__dirname)
    .filter((n) => n.endsWith('.test.js') && n.endsWith('.pseudo.test.js') === !!locale)
    .sort()) {
    mocha.addFile(path.join(__dirname, f));
  }
  const result = { suite, passed: 0, failed: 0, skipped: 0, failures: [] as string[] };
  return new Promise((resolve, reject) => {
    const runner = mocha.run((failures) => {
      const file = process.env.HEDERA_TEST_RESULTS;
      if (file) {
        fs.mkdirSync(path.dirname(file), { recursive: true });
        fs.writeFileSync(file, JSON.stringify(result, null, 2) + '\n');
      }
      console.log(`[${suite}] ${result.passed} passed, ${result.failed} failed, ${result.skipped} skipped`);
      if (failures) reject(new Error(`${failures} integration test(s) failed`));
      else resolve();
    });
    runner.on('pass', () => {
      result.passed++;
    });
    runner.on('pending', () => {
      result.skipped++;
    });
    // 'fail' also fires for failing hooks, which count as one failure each.
    runner.on('fail', (test, err) => {
      result.failed++;
      result.failures.push(`${test.fullTitle()}: ${String(err?.message ?? err).split('\n')[0]}`);
    });
  });
}
