#!/usr/bin/env node
// The lint suite of `npm test`: ESLint over the repository (eslint.config.mjs: the layer rules, zero warnings) and the
// type checks (the extension, the webview pages, the tests, the sandbox). Writes out/test-results/lint.json like the other
// suites: one passed check per clean file and per clean tsconfig, one failed check per file with a problem.
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { ESLint } from 'eslint';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const result = { suite: 'lint', passed: 0, failed: 0, skipped: 0, failures: [] };

const eslint = new ESLint({ cwd: root });
const reports = await eslint.lintFiles(['.']);
for (const r of reports) {
  const problems = r.messages.length;
  if (!problems) { result.passed++; continue; }
  result.failed++;
  const file = path.relative(root, r.filePath);
  for (const m of r.messages) {
    const line = `${file}:${m.line ?? 0}:${m.column ?? 0} ${m.severity === 2 ? 'error' : 'warning'} ${m.message} (${m.ruleId ?? 'eslint'})`;
    console.log(line);
    result.failures.push(line);
  }
}
console.log(`[lint] ESLint: ${reports.length} files, ${result.failed} with problems`);

const tsc = path.join(root, 'node_modules', 'typescript', 'bin', 'tsc');
for (const project of ['tsconfig.json', 'test/tsconfig.json', 'sandbox/tsconfig.json', 'src/features/nftHistory/webview/tsconfig.json', 'src/features/inspector/webview/tsconfig.json']) {
  const r = spawnSync(process.execPath, [tsc, '-p', project], { cwd: root, encoding: 'utf8' });
  if (r.status === 0) {
    result.passed++;
    console.log(`[lint] tsc -p ${project}: no errors`);
  } else {
    result.failed++;
    const out = `${r.stdout}${r.stderr}`.trim();
    console.log(out);
    result.failures.push(`tsc -p ${project}: ${out.split('\n')[0]}`);
  }
}

fs.mkdirSync(path.join(root, 'out', 'test-results'), { recursive: true });
fs.writeFileSync(path.join(root, 'out', 'test-results', 'lint.json'), `${JSON.stringify(result, null, 2)}\n`);
console.log(`[lint] ${result.passed} passed, ${result.failed} failed`);
process.exit(result.failed ? 1 : 0);
