#!/usr/bin/env node
// Activation benchmark, measured in the real VS Code (code-server 4.139 = VS Code 1.139, headless Chromium).
//   node test/bench/activation.mjs          prints the numbers against the targets, exit 1 if a target is missed
//   node test/bench/activation.mjs --json   prints them as JSON (for test/bench/run.mjs), exit 0 unless it crashed
//   import { measureActivation } from './activation.mjs'  -> the same object
//
// 1. `node esbuild.js --production`; the size of dist/main.js (target: at most 100 KB minified) and of what activation
//    loads: the loader dist/extension.js (it compiles main.js with a V8 code cache and times that), main.js and the
//    chunks it requires statically (esbuild.js outputClosure; the same target).
// 2. One profile with our extension and a nearly empty one (same activation events). BENCH_RUNS (default 9) times:
//    a fresh workbench page (a fresh extension host), click the Hedera activity bar entry (activation event
//    onView:..., or onStartupFinished if that came first), then "Developer: Show Running Extensions" and read both
//    rows: "Activation: N ms" = codeLoadingTime + activateCallTime as VS Code measures them.
// 3. What VS Code's figure holds besides our code: its clock starts before an `await`, and the extensions that
//    activate at the same moment (npm, json, git, emmet... at startup) load their code in between. The empty
//    extension's figure at the same moments shows how much that is. So the target is judged on our own part,
//    measured inside the extension in the same extension host: loading its code (read, compile, module code; timed
//    by the loader, src/loader.ts) + activate() (src/extension.ts logs both). Target: median at most 10 ms.
// The activation event is read from the extension host log (ExtensionService#_doActivateExtension line).
// The production build is left in dist/ (the next `npm run build` replaces it).
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

/** Issue 12: activation of our code (load + activate()) and dist/main.js (and what it requires at once), at most. */
export const TARGETS = { activateMs: 10, bundleKB: 100 };

const here = path.dirname(fileURLToPath(import.meta.url));
const harness = (m) => import(path.join(here, '..', 'harness', m));

/**
 * The "Activation: N ms" of one extension in the Running Extensions editor, or undefined when its row cannot be
 * seen (the list draws only the rows in view: a fast extension sorts to the bottom, so the list is scrolled to its
 * end once before giving up). These figures are VS Code's, for comparison; the bench judges the extension's own.
 */
async function activationFromUi(page, driver, displayName, { open = true } = {}) {
  if (open) await driver.runCommand(page, 'Developer: Show Running Extensions');
  const row = page.locator('.runtime-extensions-editor .monaco-list-row', { hasText: displayName }).first();
  const time = row.locator('.activation-time').filter({ hasText: /\d+ms/ });
  try {
    await time.waitFor({ timeout: 10000 });
  } catch {
    await page.locator('.runtime-extensions-editor .monaco-list').first().focus().catch(() => {});
    await page.keyboard.press('End');
    try { await time.waitFor({ timeout: 10000 }); } catch { return undefined; }
  }
  return Number((await time.innerText()).match(/(\d+)ms/)[1]);
}

function activationEvents(logsRoot, id) {
  const found = [];
  const walk = (d) => {
    for (const e of fs.existsSync(d) ? fs.readdirSync(d, { withFileTypes: true }) : []) {
      const p = path.join(d, e.name);
      if (e.isDirectory()) walk(p);
      else if (/exthost\.log$/.test(e.name)) { // remoteexthost.log in each exthostN/
        for (const m of fs.readFileSync(p, 'utf8').matchAll(new RegExp(`_doActivateExtension ${id.replace('.', '\\.')}, startup: (\\w+), activationEvent: '([^']+)'`, 'g'))) {
          found.push({ startup: m[1] === 'true', event: m[2] });
        }
      }
    }
  };
  walk(logsRoot);
  return found;
}

/** The extension's own "Activated in A ms (code loaded in B ms)" log lines (src/extension.ts). */
function ownTimes(logsRoot) {
  const found = [];
  const walk = (d) => {
    for (const e of fs.existsSync(d) ? fs.readdirSync(d, { withFileTypes: true }) : []) {
      const p = path.join(d, e.name);
      if (e.isDirectory()) walk(p);
      else if (e.name.endsWith('.log')) {
        for (const m of fs.readFileSync(p, 'utf8').matchAll(/^(\S+ \S+) .*Activated in ([\d.]+) ms \(code loaded in ([\d.]+) ms(?:; main-thread CPU ([\d.]+) \+ ([\d.]+) ms)?(?:, code cache (\w+))?\)/gm)) {
          found.push({ at: m[1], activateMs: Number(m[2]), loadMs: Number(m[3]), loadCpuMs: m[4] === undefined ? undefined : Number(m[4]), activateCpuMs: m[5] === undefined ? undefined : Number(m[5]), codeCache: m[6] ?? 'off' });
        }
      }
    }
  };
  walk(logsRoot);
  return found.sort((a, b) => a.at.localeCompare(b.at));
}

const median = (a) => (a.length ? [...a].sort((x, y) => x - y)[Math.floor(a.length / 2)] : undefined);
const round = (x) => Math.round(x * 10) / 10;

/**
 * A nearly empty extension with the same activation events as ours, installed beside it: its "Activation" time is
 * what VS Code counts for an empty activate() at the same moment.
 */
const BASELINE_NAME = 'Activation Baseline (bench)';
function installBaseline(profile, activationEvents) {
  const dir = path.join(profile.extensionsDir, 'hedera-bench.activation-baseline-0.0.1');
  fs.mkdirSync(dir, { recursive: true });
  fs.writeFileSync(path.join(dir, 'package.json'), JSON.stringify({
    name: 'activation-baseline', publisher: 'hedera-bench', displayName: BASELINE_NAME, version: '0.0.1',
    engines: { vscode: '^1.90.0' }, main: './extension.js', activationEvents,
  }, null, 2));
  fs.writeFileSync(path.join(dir, 'extension.js'), 'exports.activate = function () {};\n');
}

export async function measureActivation({ runs = Number(process.env.BENCH_RUNS || 9) } = {}) {
  const { root, EXTENSION_ID } = await harness('paths.mjs');
  const { cleanup, tempDir } = await harness('processes.mjs');
  const { makeProfile } = await harness('profile.mjs');
  const { installExtension, startCodeServer } = await harness('code-server.mjs');
  const { launchBrowser } = await harness('browser.mjs');
  const driver = await import(path.join(here, '..', 'e2e', 'driver.mjs'));
  try {
    const metafile = path.join(tempDir('hedera-bench-meta'), 'meta.json');
    execFileSync(process.execPath, ['esbuild.js', '--production', `--metafile=${metafile}`], { cwd: root, stdio: 'pipe' });
    const { outputClosure } = createRequire(import.meta.url)(path.join(root, 'esbuild.js'));
    // the loader (dist/extension.js, which compiles main.js with the code cache) and main.js with what it requires
    const closure = [path.join(root, 'dist', 'extension.js'), ...outputClosure(JSON.parse(fs.readFileSync(metafile, 'utf8')), path.join(root, 'dist', 'main.js'))];
    const bundleBytes = fs.statSync(path.join(root, 'dist', 'main.js')).size;
    const closureBytes = closure.reduce((n, f) => n + fs.statSync(f).size, 0);
    const pkg = JSON.parse(fs.readFileSync(path.join(root, 'package.json'), 'utf8'));
    const nls = JSON.parse(fs.readFileSync(path.join(root, 'package.nls.json'), 'utf8'));
    const displayName = pkg.displayName.startsWith('%') ? nls[pkg.displayName.slice(1, -1)] : pkg.displayName;

    const profile = makeProfile('hedera-bench', { 'hederaExplorer.network': 'sandbox' });
    installExtension(profile);
    // the same events as ours: the view we click (before startup has finished) and onStartupFinished
    installBaseline(profile, [...pkg.activationEvents, `onView:${pkg.contributes.views.hederaExplorer[0].id}`]);
    // default log level: at "trace" the extension host also logs every RPC message, which slows activation
    const server = await startCodeServer(profile);
    const browser = await launchBrowser();
    const ui = [];
    const baseline = [];
    for (let i = 0; i < runs; i++) {
      const context = await browser.newContext({ viewport: { width: 1400, height: 900 } });
      const page = await context.newPage();
      await page.goto(server.url);
      await driver.waitForWorkbench(page);
      await driver.openContainer(page, 'Hedera');
      const mine = await activationFromUi(page, driver, displayName);
      const base = await activationFromUi(page, driver, BASELINE_NAME, { open: false });
      if (mine !== undefined) ui.push(mine);
      if (base !== undefined) baseline.push(base);
      await context.close();
    }
    const events = activationEvents(profile.dir, EXTENSION_ID);
    const own = ownTimes(profile.dir);
    const ownMs = median(own.map((o) => o.loadMs + o.activateMs));
    return {
      uiMs: median(ui),
      uiSamplesMs: ui,
      baselineMs: median(baseline),
      baselineSamplesMs: baseline,
      activationEvents: events.map((e) => e.event + (e.startup ? ' (startup)' : '')),
      // measured inside the extension, per run: [code loading ms, activate() ms]
      ownSamples: own.map((o) => [o.loadMs, o.activateMs]),
      ownMs: ownMs === undefined ? undefined : round(ownMs),
      ownLoadMs: median(own.map((o) => o.loadMs)),
      ownActivateMs: median(own.map((o) => o.activateMs)),
      // the same on the main thread's CPU clock (does not run while the system gives the CPU to other processes)
      ownCpuMs: own.every((o) => o.loadCpuMs !== undefined) && own.length ? round(median(own.map((o) => o.loadCpuMs + o.activateCpuMs))) : undefined,
      ownCpuSamples: own.map((o) => [o.loadCpuMs, o.activateCpuMs]),
      // how each start compiled the bundle: 'none' (the first start of this build: no cache yet), 'accepted'
      // (compiled from the cache the first start wrote), 'rejected'; the sums apart for the two cases
      ownCodeCache: own.map((o) => o.codeCache),
      ownColdMs: median(own.filter((o) => o.codeCache !== 'accepted').map((o) => round(o.loadMs + o.activateMs))),
      ownCachedMs: median(own.filter((o) => o.codeCache === 'accepted').map((o) => round(o.loadMs + o.activateMs))),
      // dist/main.js, and the files requiring it loads at once (main.js + its chunks)
      bundleBytes,
      bundleKB: round(bundleBytes / 1024),
      closureBytes,
      closureKB: round(closureBytes / 1024),
      closureFiles: closure.map((f) => path.basename(f)),
      targets: TARGETS,
      ok: ownMs !== undefined && ownMs <= TARGETS.activateMs && bundleBytes / 1024 <= TARGETS.bundleKB && closureBytes / 1024 <= TARGETS.bundleKB,
      vscode: 'code-server 4.139.1 (VS Code 1.139.1), Node 24 extension host',
    };
  } finally {
    await cleanup();
  }
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const r = await measureActivation();
  if (process.argv.includes('--json')) {
    console.log(JSON.stringify(r, null, 2));
  } else {
    const mark = (ok) => (ok ? 'OK  ' : 'MISS');
    console.log(`${mark(r.ownMs !== undefined && r.ownMs <= TARGETS.activateMs)} our code from activation to activate() returning: ${r.ownMs} ms = loading ${r.ownLoadMs} + activate() ${r.ownActivateMs} (median of the runs' sums; target <= ${TARGETS.activateMs} ms)`);
    console.log(`     per run [loading ms, activate() ms]: ${r.ownSamples.map((x) => `[${x.join(', ')}]`).join(' ')}`);
    console.log(`     code cache per run: ${r.ownCodeCache.join(', ')}; median without the cache (the first start of a build) ${r.ownColdMs ?? '-'} ms, with it ${r.ownCachedMs ?? '-'} ms`);
    if (r.ownCpuMs !== undefined) console.log(`     main-thread CPU time of the same: ${r.ownCpuMs} ms (median; per run ${r.ownCpuSamples.map((x) => `[${x.join(', ')}]`).join(' ')})`);
    console.log(`     VS Code's "Activation" figure: ${r.uiMs} ms (median of ${r.uiSamplesMs.join(', ')}; events ${[...new Set(r.activationEvents)].join(', ')})`);
    console.log(`     the same figure for an empty extension at the same moments: ${r.baselineMs} ms (median of ${r.baselineSamplesMs.join(', ')}): the other extensions loading in between`);
    console.log(`${mark(r.bundleKB <= TARGETS.bundleKB)} dist/main.js (production, minified): ${r.bundleKB} KB (target <= ${TARGETS.bundleKB} KB)`);
    console.log(`${mark(r.closureKB <= TARGETS.bundleKB)} what activation loads, the loader + main.js + the chunks it requires: ${r.closureKB} KB in ${r.closureFiles.length} files (target <= ${TARGETS.bundleKB} KB)`);
  }
  process.exit(r.ok || process.argv.includes("--json") ? 0 : 1); // --json: the caller judges `ok`
}
