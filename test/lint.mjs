#!/usr/bin/env node
// The lint suite of `npm test`: ESLint over the repository (eslint.config.mjs: the layer rules, zero warnings), Prettier's
// check of the code's formatting (.prettierrc.json; `npm run format` fixes it) and the type checks (the extension, the
// webview pages, the tests, the sandbox). Writes out/test-results/lint.json like the other
// suites: one passed check per clean file and per clean tsconfig, one failed check per file with a problem.
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { ESLint } from 'eslint';
import * as prettier from 'prettier';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const result = { suite: 'lint', passed: 0, failed: 0, skipped: 0, failures: [] };

const eslint = new ESLint({ cwd: root });
const reports = await eslint.lintFiles(['.']);
for (const r of reports) {
  const problems = r.messages.length;
  if (!problems) {
    result.passed++;
    continue;
  }
  result.failed++;
  const file = path.relative(root, r.filePath);
  for (const m of r.messages) {
    const line = `${file}:${m.line ?? 0}:${m.column ?? 0} ${m.severity === 2 ? 'error' : 'warning'} ${m.message} (${m.ruleId ?? 'eslint'})`;
    console.log(line);
    result.failures.push(line);
  }
}
console.log(`[lint] ESLint: ${reports.length} files, ${result.failed} with problems`);

// Prettier: the code files git knows (tracked or new, not ignored), less .prettierignore; one check for them all
const code = /\.(?:ts|tsx|mts|cts|js|mjs|cjs|css|html)$/;
const listed = spawnSync('git', ['ls-files', '-z', '--cached', '--others', '--exclude-standard'], {
  cwd: root,
  encoding: 'utf8',
});
if (listed.status !== 0) throw new Error(`git ls-files: ${listed.stderr}`);
const unformatted = [];
let formatted = 0;
for (const file of new Set(listed.stdout.split('\0').filter((f) => code.test(f)))) {
  const abs = path.join(root, file);
  if (!fs.existsSync(abs)) continue; // deleted in the work tree
  const info = await prettier.getFileInfo(abs, { ignorePath: path.join(root, '.prettierignore') });
  if (info.ignored || !info.inferredParser) continue;
  const options = await prettier.resolveConfig(abs);
  if (await prettier.check(fs.readFileSync(abs, 'utf8'), { ...options, filepath: abs })) formatted++;
  else unformatted.push(file);
}
if (unformatted.length) {
  result.failed++;
  for (const file of unformatted) console.log(`${file}: not formatted (npm run format)`);
  result.failures.push(`Prettier: ${unformatted.length} file(s) not formatted: ${unformatted.slice(0, 5).join(', ')}`);
} else result.passed++;
console.log(`[lint] Prettier: ${formatted + unformatted.length} files, ${unformatted.length} not formatted`);

const tsc = path.join(root, 'node_modules', 'typescript', 'bin', 'tsc');
for (const project of [
  'tsconfig.json',
  'test/tsconfig.json',
  'sandbox/tsconfig.json',
  'src/features/nftHistory/webview/tsconfig.json',
  'src/features/inspector/webview/tsconfig.json',
  'src/features/contractCall/webview/tsconfig.json',
]) {
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
