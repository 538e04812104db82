#!/usr/bin/env node
// Revert to source, the placement matrix (issue 22): real solc builds of test/placement/contracts in every optimizer
// and viaIR setting, each failure executed in the sandbox's real EVM and placed by the extension's code
// (test/placement/matrix.ts). Prints per setting: cases exact / likely (first candidate) / unplaced / WRONG EXACT.
//   node test/bench/placement.mjs          the table; exit 1 when a target is missed
//   node test/bench/placement.mjs --json   the results as JSON
// Targets: 0 wrong exact; exact on >= 95% of the cases without viaIR; the right line (exact, or the first likely
// candidate) on >= 95% of all cases.
import path from 'node:path';
import { createRequire } from 'node:module';
import { fileURLToPath } from 'node:url';

export const TARGETS = { wrongExact: 0, exactWithoutViaIR: 0.95, rightLine: 0.95 };
const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
const require = createRequire(path.join(root, 'package.json'));

async function load() {
  const esbuild = require('esbuild');
  // inside the repository, so that the bundle finds `solc` in node_modules
  const outfile = path.join(root, 'out/bench/placement-matrix.cjs');
  await esbuild.build({
    entryPoints: [path.join(root, 'test/placement/matrix.ts')], bundle: true, platform: 'node', format: 'cjs', target: 'node20',
    outfile, logLevel: 'silent', external: ['solc'],
    // matrix.ts finds the repository from its own folder: out/test/placement in the test build
    define: { __dirname: JSON.stringify(path.join(root, 'out/test/placement')) },
  });
  return require(outfile);
}

export async function measurePlacement() {
  const { runMatrix, SETTINGS } = await load();
  const t0 = performance.now();
  const results = await runMatrix();
  const ms = performance.now() - t0;
  // the targets count the matrix's cases; the review's adversarial cases are reported beside them (0 wrong exact)
  const adversarial = results.filter((x) => x.adversarial);
  const adv = { cases: adversarial.length, exact: adversarial.filter((x) => x.outcome === 'exact').length, likely: adversarial.filter((x) => x.outcome === 'likely').length, likelyFirst: adversarial.filter((x) => x.likelyFirst).length, unplaced: adversarial.filter((x) => x.outcome === 'unplaced').length, wrongExact: adversarial.filter((x) => x.outcome === 'wrongExact').length };
  const rows = SETTINGS.map((s) => {
    const r = results.filter((x) => x.setting === s.name && !x.adversarial);
    const count = (o) => r.filter((x) => x.outcome === o).length;
    return { setting: s.name, viaIR: s.viaIR, cases: r.length, exact: count('exact'), likely: count('likely'), likelyFirst: r.filter((x) => x.likelyFirst).length, unplaced: count('unplaced'), wrongExact: count('wrongExact') };
  });
  const sum = (xs, k) => xs.reduce((a, x) => a + x[k], 0);
  const legacy = rows.filter((r) => !r.viaIR);
  const exactWithoutViaIR = sum(legacy, 'exact') / Math.max(1, sum(legacy, 'cases'));
  const rightLine = (sum(rows, 'exact') + sum(rows, 'likelyFirst')) / Math.max(1, sum(rows, 'cases'));
  const wrongExact = sum(rows, 'wrongExact') + adv.wrongExact;
  return {
    rows, adversarial: adv, exactWithoutViaIR, rightLine, wrongExact, ms: Math.round(ms),
    misses: results.filter((x) => x.outcome !== 'exact' && (!x.adversarial || x.outcome === 'wrongExact')),
    ok: wrongExact <= TARGETS.wrongExact && exactWithoutViaIR >= TARGETS.exactWithoutViaIR && rightLine >= TARGETS.rightLine,
  };
}

if (process.argv[1] && path.resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  const m = await measurePlacement();
  if (process.argv.includes('--json')) {
    console.log(JSON.stringify(m));
  } else {
    const pct = (x) => `${(x * 100).toFixed(1)}%`;
    console.log('setting                                    cases  exact  likely (first)  unplaced  WRONG EXACT');
    for (const r of m.rows) console.log(`${r.setting.padEnd(42)} ${String(r.cases).padStart(5)} ${String(r.exact).padStart(6)} ${String(r.likely).padStart(7)} (${r.likelyFirst})${' '.repeat(Math.max(1, 6 - String(r.likelyFirst).length))}${String(r.unplaced).padStart(8)} ${String(r.wrongExact).padStart(12)}`);
    const a = m.adversarial;
    console.log(`the review's adversarial cases (${a.cases / m.rows.length} × ${m.rows.length} settings): exact ${a.exact}, likely ${a.likely} (first ${a.likelyFirst}), unplaced ${a.unplaced}, WRONG EXACT ${a.wrongExact}`);
    console.log(`wrong exact: ${m.wrongExact} (target ${TARGETS.wrongExact}); exact without viaIR: ${pct(m.exactWithoutViaIR)} (target >= ${pct(TARGETS.exactWithoutViaIR)}); right line (exact or first likely): ${pct(m.rightLine)} (target >= ${pct(TARGETS.rightLine)}); ${m.ms} ms`);
    for (const x of m.misses) console.log(`  ${x.setting} · ${x.case}: ${x.outcome}${x.likelyFirst ? ' (first)' : ''}, expected ${x.expected}, shown ${x.shown.join(', ') || 'nothing'}${x.why ? ` — ${x.why}` : ''}`);
    console.log(m.ok ? 'OK' : 'MISSED');
    process.exit(m.ok ? 0 : 1);
  }
}
