// Mocha reporter: the usual "spec" output on the console, plus a results file for test/run-all.mjs.
// The file is named by the env RESULTS_FILE (default out/test-results/<RESULTS_SUITE or "unit">.json) and holds
// {suite, passed, failed, skipped, failures: ["title: message"]}.
const fs = require('fs');
const path = require('path');
const Mocha = require('mocha');

class ResultsReporter extends Mocha.reporters.Spec {
  constructor(runner, options) {
    super(runner, options);
    const suite = process.env.RESULTS_SUITE || 'unit';
    const file = process.env.RESULTS_FILE || path.join('out', 'test-results', `${suite}.json`);
    const failures = [];
    runner.on('fail', (test, err) =>
      failures.push(`${test.fullTitle()}: ${String(err && err.message).split('\n')[0]}`),
    );
    runner.once('end', () => {
      const s = runner.stats || {};
      fs.mkdirSync(path.dirname(file), { recursive: true });
      fs.writeFileSync(
        file,
        JSON.stringify(
          { suite, passed: s.passes || 0, failed: s.failures || 0, skipped: s.pending || 0, failures },
          null,
          2,
        ),
      );
    });
  }
}
module.exports = ResultsReporter;
