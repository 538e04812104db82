#!/usr/bin/env node
// Figures that integration tests measure inside the real VS Code extension host, judged here against their targets
// (the tests log them and check only behaviour: a busy machine makes them slower, it must not fail `npm test`).
//   node test/bench/host.mjs          prints the numbers against the targets, exit 1 if a target is missed
//   node test/bench/host.mjs --json   prints them as JSON (for test/bench/run.mjs), exit 0 unless it crashed
//   import { measureHost } from './host.mjs'  -> the same object
//
// Runs the integration suites as `npm run test:integration` does (test/harness/run-integration.cjs: the production
// build, the sandbox, VS Code; results in out/test-results/bench-host.json) with only the tests below
// (HEDERA_TEST_GREP) and HEDERA_BENCH_FIGURES naming a temporary file, where each appends its figures
// (test/integration/helpers.ts benchFigure):
// 1. ledgerLinks.test.ts, typing in a 10,000-line file with 3,000 ids: the link provider's time per request as VS
//    Code asks it after edits, CPU and wall, median of its calls.
// 2. deployments.test.ts, selecting another network while an answer of the previous one hangs: from the selection
//    to the other network's row of the Deployments view.
// 3. verify.test.ts, Cancel while Verify Contract's request hangs: from Cancel to the end of the run.
// 4. contractCall.test.ts, Read in the call panel: from the page's message to the decoded result kept and posted,
//    minus the mirror node's own time for the same call (median of 7).
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

/** Targets, each with its reason. */
export const TARGETS = {
  // VS Code asks for a document's links at most once a second while typing: an answer must be a small part of that
  linkCpuMedianMs: 50,
  linkWallMedianMs: 50,
  // the previous network's answers are cancelled, not waited for
  networkSwitchMs: 4000,
  verifyCancelMs: 3000,
  // encoding, decoding and keeping a call is the extension's part of a click on Read
  callToDecodedMs: 20,
};
/**
 * The tests that measure them (mocha's grep on their full titles), and what they need before them: Verify's Cancel
 * test runs with the API key the "with the key" test sets.
 */
const GREP =
  'typing in a 10,000-line file with many ids|selecting another network cancels the answers|with the key: the session result in the view|Cancel stops the run|contract call panel';

const here = path.dirname(fileURLToPath(import.meta.url));
const root = path.resolve(here, '../..');

export async function measureHost({ quiet = false } = {}) {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'hedera-bench-host-'));
  const file = path.join(dir, 'figures.jsonl');
  try {
    const run = spawnSync(
      process.execPath,
      [
        '-e',
        `require(${JSON.stringify(path.join(root, 'test/harness/run-integration.cjs'))})
      .runIntegration({ suite: 'bench-host', vscodeExecutablePath: ${JSON.stringify(path.join(root, 'test/harness/launcher.mjs'))} })
      .then((code) => process.exit(code));`,
      ],
      {
        cwd: root,
        stdio: quiet ? ['ignore', 'ignore', 'inherit'] : 'inherit',
        env: { ...process.env, HEDERA_TEST_GREP: GREP, HEDERA_BENCH_FIGURES: file },
      },
    );
    const figures = {};
    for (const line of fs.existsSync(file) ? fs.readFileSync(file, 'utf8').split('\n').filter(Boolean) : []) {
      const f = JSON.parse(line);
      figures[f.name] = { value: Math.round(f.value * 10) / 10, detail: f.detail };
    }
    const missing = Object.keys(TARGETS).filter((k) => !figures[k]);
    const r = {
      figures,
      missing,
      testsPassed: run.status === 0,
      targets: TARGETS,
      vscode: 'code-server 4.139.1 (VS Code 1.139.1) extension host',
    };
    r.ok = r.testsPassed && !missing.length && Object.entries(TARGETS).every(([k, t]) => figures[k].value < t);
    return r;
  } finally {
    fs.rmSync(dir, { recursive: true, force: true });
  }
}

if (process.argv[1] && path.resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  const json = process.argv.includes('--json');
  const r = await measureHost({ quiet: json });
  if (json) {
    console.log(JSON.stringify(r, null, 2));
  } else {
    const mark = (ok) => (ok ? 'OK  ' : 'MISS');
    const what = {
      linkCpuMedianMs: 'link provider on a 10,000-line file after typing, CPU per request (median)',
      linkWallMedianMs: 'the same, wall time per request (median)',
      networkSwitchMs: 'Deployments: another network selected while an answer hangs, its row after',
      verifyCancelMs: 'Verify Contract: Cancel while its request hangs, the run ended after',
      callToDecodedMs:
        "Call Contract: Read from the page's message to the decoded result posted, minus the server's time",
    };
    console.log('');
    for (const [k, t] of Object.entries(TARGETS)) {
      const f = r.figures[k];
      console.log(
        f
          ? `${mark(f.value < t)} ${what[k]}: ${f.value} ms (target < ${t.toLocaleString('en-US')} ms)${f.detail ? `  [${f.detail}]` : ''}`
          : `MISS ${what[k]}: not measured (its test failed or did not run)`,
      );
    }
    if (!r.testsPassed) console.log('MISS the integration tests that measure them failed: see above');
  }
  process.exit(r.ok || process.argv.includes('--json') ? 0 : 1); // --json: the caller judges `ok`
}
