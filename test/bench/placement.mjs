#!/usr/bin/env node
// Revert to source, the placement matrix: real solc builds of test/placement/contracts in every optimizer
// and viaIR setting, each failure executed in the sandbox's real EVM and placed by the extension's code
// (test/placement/matrix.ts). Prints per setting: cases exact / likely (first candidate) / unplaced / WRONG EXACT, with
// the build handed to the placement (`direct`); then per layout (test/placement/layouts.ts: the build and the deployment
// records written as a Hardhat 2, Hardhat 3 or Foundry project, each frame's build found by the workspace readers) the
// same counts over every setting, the frames given another build than the deployed one, and the cases exact with the
// build handed over but not when found.
//   node test/bench/placement.mjs          the tables; exit 1 when a target is missed
//   node test/bench/placement.mjs --json   the results as JSON
// Targets: 0 wrong exact (in every layout); exact on >= 95% of the cases without viaIR; the right line (exact, or the
// first likely candidate) on >= 95% of all cases (both with the build handed over).
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
    entryPoints: [path.join(root, 'test/placement/matrix.ts')],
    bundle: true,
    platform: 'node',
    format: 'cjs',
    target: 'node20',
    outfile,
    logLevel: 'silent',
    external: ['solc'],
    // matrix.ts finds the repository from its own folder: out/test/placement in the test build
    define: { __dirname: JSON.stringify(path.join(root, 'out/test/placement')) },
  });
  return require(outfile);
}

export async function measurePlacement() {
  const { runMatrix, SETTINGS, LAYOUTS } = await load();
  const t0 = performance.now();
  const all = await runMatrix(LAYOUTS);
  const ms = performance.now() - t0;
  // the figures of the matrix: the build handed to the placement
  const results = all.filter((x) => x.layout === 'direct');
  const layouts = layoutRows(all, LAYOUTS);
  // the targets count the matrix's cases; the review's adversarial cases are reported beside them (0 wrong exact)
  const adversarial = results.filter((x) => x.adversarial);
  const adv = {
    cases: adversarial.length,
    exact: adversarial.filter((x) => x.outcome === 'exact').length,
    likely: adversarial.filter((x) => x.outcome === 'likely').length,
    likelyFirst: adversarial.filter((x) => x.likelyFirst).length,
    unplaced: adversarial.filter((x) => x.outcome === 'unplaced').length,
    wrongExact: adversarial.filter((x) => x.outcome === 'wrongExact').length,
  };
  const rows = SETTINGS.map((s) => {
    const r = results.filter((x) => x.setting === s.name && !x.adversarial);
    const count = (o) => r.filter((x) => x.outcome === o).length;
    return {
      setting: s.name,
      viaIR: s.viaIR,
      cases: r.length,
      exact: count('exact'),
      likely: count('likely'),
      likelyFirst: r.filter((x) => x.likelyFirst).length,
      unplaced: count('unplaced'),
      wrongExact: count('wrongExact'),
    };
  });
  const sum = (xs, k) => xs.reduce((a, x) => a + x[k], 0);
  const legacy = rows.filter((r) => !r.viaIR);
  const exactWithoutViaIR = sum(legacy, 'exact') / Math.max(1, sum(legacy, 'cases'));
  const rightLine = (sum(rows, 'exact') + sum(rows, 'likelyFirst')) / Math.max(1, sum(rows, 'cases'));
  const wrongExact = sum(rows, 'wrongExact') + adv.wrongExact;
  const layoutWrongExact = sum(layouts, 'wrongExact') + sum(layouts, 'adversarialWrongExact');
  return {
    rows,
    adversarial: adv,
    exactWithoutViaIR,
    rightLine,
    wrongExact,
    layouts,
    layoutWrongExact,
    ms: Math.round(ms),
    misses: results.filter((x) => x.outcome !== 'exact' && (!x.adversarial || x.outcome === 'wrongExact')),
    // in a project layout: a wrong exact line, a frame given another build, or a case exact when handed its build only
    layoutMisses: all.filter(
      (x) =>
        x.layout !== 'direct' &&
        (x.outcome === 'wrongExact' ||
          x.wrongBuild ||
          x.missingRecords ||
          (x.lostExact =
            results.some((d) => d.setting === x.setting && d.case === x.case && d.outcome === 'exact') &&
            x.outcome !== 'exact' &&
            !x.layout.includes('without output'))),
    ),
    ok:
      wrongExact <= TARGETS.wrongExact &&
      layoutWrongExact <= TARGETS.wrongExact &&
      exactWithoutViaIR >= TARGETS.exactWithoutViaIR &&
      rightLine >= TARGETS.rightLine,
  };
}

/**
 * Per layout, over every setting: the matrix's cases exact / likely (first) / unplaced / wrong exact, the review's
 * adversarial cases' wrong exact, the cases with a frame given another build than the deployed one, the deployment
 * records missing, and the cases exact with the build handed over (`direct`) that are not exact here.
 */
function layoutRows(all, layouts) {
  const direct = new Map(all.filter((x) => x.layout === 'direct').map((x) => [`${x.setting}|${x.case}`, x]));
  return layouts.map((layout) => {
    const mine = all.filter((x) => x.layout === layout);
    const r = mine.filter((x) => !x.adversarial);
    const count = (o) => r.filter((x) => x.outcome === o).length;
    return {
      layout,
      cases: r.length,
      exact: count('exact'),
      likely: count('likely'),
      likelyFirst: r.filter((x) => x.likelyFirst).length,
      unplaced: count('unplaced'),
      wrongExact: count('wrongExact'),
      adversarial: mine.length - r.length,
      adversarialWrongExact: mine.filter((x) => x.adversarial && x.outcome === 'wrongExact').length,
      wrongBuild: mine.filter((x) => x.wrongBuild).length,
      missingRecords: new Set(mine.flatMap((x) => x.missingRecords ?? [])).size,
      noBuild: mine.filter((x) => x.buildProblems).length,
      lostExact: mine.filter((x) => direct.get(`${x.setting}|${x.case}`)?.outcome === 'exact' && x.outcome !== 'exact')
        .length,
      unplacedAll: mine.filter((x) => x.outcome === 'unplaced').length,
      all: mine.length,
    };
  });
}

if (process.argv[1] && path.resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  const m = await measurePlacement();
  if (process.argv.includes('--json')) {
    console.log(JSON.stringify(m));
  } else {
    const pct = (x) => `${(x * 100).toFixed(1)}%`;
    console.log('setting                                    cases  exact  likely (first)  unplaced  WRONG EXACT');
    for (const r of m.rows)
      console.log(
        `${r.setting.padEnd(42)} ${String(r.cases).padStart(5)} ${String(r.exact).padStart(6)} ${String(r.likely).padStart(7)} (${r.likelyFirst})${' '.repeat(Math.max(1, 6 - String(r.likelyFirst).length))}${String(r.unplaced).padStart(8)} ${String(r.wrongExact).padStart(12)}`,
      );
    const a = m.adversarial;
    console.log(
      `the review's adversarial cases (${a.cases / m.rows.length} × ${m.rows.length} settings): exact ${a.exact}, likely ${a.likely} (first ${a.likelyFirst}), unplaced ${a.unplaced}, WRONG EXACT ${a.wrongExact}`,
    );
    console.log(
      `wrong exact: ${m.wrongExact} (target ${TARGETS.wrongExact}); exact without viaIR: ${pct(m.exactWithoutViaIR)} (target >= ${pct(TARGETS.exactWithoutViaIR)}); right line (exact or first likely): ${pct(m.rightLine)} (target >= ${pct(TARGETS.rightLine)}); ${m.ms} ms`,
    );
    for (const x of m.misses)
      console.log(
        `  ${x.setting} · ${x.case}: ${x.outcome}${x.likelyFirst ? ' (first)' : ''}, expected ${x.expected}, shown ${x.shown.join(', ') || 'nothing'}${x.why ? ` — ${x.why}` : ''}`,
      );
    console.log('');
    console.log(
      `per layout, ${m.rows.length} settings: the matrix's cases, then the review's adversarial ones (all cases: frames without a build found, frames given another build, exact with the build handed over but not here)`,
    );
    console.log(
      'layout                                      cases  exact  likely (first)  unplaced  WRONG EXACT | adversarial  WRONG EXACT | no build  wrong build  lost exact',
    );
    for (const r of m.layouts)
      console.log(
        `${r.layout.padEnd(42)} ${String(r.cases).padStart(6)} ${String(r.exact).padStart(6)} ${String(r.likely).padStart(7)} (${r.likelyFirst})${' '.repeat(Math.max(1, 6 - String(r.likelyFirst).length))}${String(r.unplaced).padStart(8)} ${String(r.wrongExact).padStart(12)} | ${String(r.adversarial).padStart(11)} ${String(r.adversarialWrongExact).padStart(12)} | ${String(r.noBuild).padStart(8)} ${String(r.wrongBuild).padStart(12)} ${String(r.lostExact).padStart(11)}`,
      );
    for (const r of m.layouts.filter((x) => x.missingRecords))
      console.log(`  ${r.layout}: ${r.missingRecords} deployed contract(s) without their deployment record`);
    const noOutput = m.layouts.find((r) => r.layout.includes('without output'));
    if (noOutput)
      console.log(
        `  ${noOutput.layout}: ${noOutput.unplacedAll} of ${noOutput.all} cases unplaced (${noOutput.noBuild} with no build found for a frame), ${noOutput.wrongExact + noOutput.adversarialWrongExact} wrong exact`,
      );
    console.log(`wrong exact in the project layouts: ${m.layoutWrongExact} (target ${TARGETS.wrongExact})`);
    for (const x of m.layoutMisses)
      console.log(
        `  ${x.layout} · ${x.setting} · ${x.case}: ${x.outcome}, expected ${x.expected}, shown ${x.shown.join(', ') || 'nothing'}${x.lostExact ? ' (exact with the build handed over)' : ''}${x.wrongBuild ? ` — WRONG BUILD ${x.wrongBuild.join('; ')}` : ''}${x.missingRecords ? ` — no record of ${x.missingRecords.join(', ')}` : ''}${x.why ? ` — ${x.why}` : ''}`,
      );
    console.log(m.ok ? 'OK' : 'MISSED');
    process.exit(m.ok ? 0 : 1);
  }
}
