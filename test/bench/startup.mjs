// The startup machinery against simpler designs: the same sources built several ways into a temp
// folder, so that one `npm run bench` shows what each piece buys.
//   import { buildVariants, probeRequire, lazyEntryGains } from './startup.mjs'
//   node test/bench/startup.mjs    the variants' sizes, their `require` in a fresh Node, what each lazy entry keeps out
//
// Variants (each a dist/ folder that installs as the extension; test/bench/activation.mjs measures them in VS Code):
// - today:          `node esbuild.js --production`: the loader, main.js, the lazy entries and their chunks
// - unpacked:       today's build without packing: the chunks main.js requires at activation stay files of their own
// - single bundle:  one bundle of src/extension.ts (`vscode` external, through the one-require shim), with only axios,
//                   the decoders and the inspector as bundles of their own, required on first use; no splitting
// The single bundle gets TIMING_LOADER as dist/extension.js, which times the `require` of main.js as the product's
// loader (src/loader.ts) does, so that every variant logs the same "Activated in A ms (code loaded in B ms)"; without
// it, the single bundle would be dist/extension.js itself (0.5 KB and one file less).
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const here = path.dirname(fileURLToPath(import.meta.url));
const root = path.resolve(here, '../..');
const require = createRequire(import.meta.url);
const { LAZY_ENTRIES, entryPath, outputClosure } = require(path.join(root, 'esbuild.js'));

/** What the single bundle keeps lazy: the baseline (axios and the heavy decoders and inspector). */
export const SINGLE_LAZY = ['axios', 'decoders', 'inspector'];

/** dist/extension.js of a variant without the product's loader: requires main.js, times it (wall, thread CPU). */
export const TIMING_LOADER = `"use strict";
const cpuMs = () => { const u = process.threadCpuUsage && process.threadCpuUsage(); return u ? (u.user + u.system) / 1000 : undefined; };
let main;
exports.activate = function (context) {
  const cpu = cpuMs(), started = performance.now();
  main = require("./main.js");
  const wallMs = performance.now() - started, after = cpuMs();
  return main.activate(context, { wallMs, cpuMs: cpu === undefined || after === undefined ? undefined : after - cpu });
};
exports.deactivate = function () { if (main) main.deactivate(); };
`;

const size = (f) => fs.statSync(f).size;

/**
 * The single bundle: src/extension.ts as main.js with every lazy `require` inlined but those of `lazy` (names of
 * LAZY_ENTRIES), which are bundles of their own (each with its modules inline: no splitting). Returns main.js's size.
 */
export async function buildSingle(dist, lazy = SINGLE_LAZY, { lazyBundles = true } = {}) {
  const esbuild = require('esbuild');
  const entries = LAZY_ENTRIES.filter((e) => lazy.includes(e.name));
  const byFile = new Map(entries.map((e) => [entryPath(e), e]));
  const shim = path.join(root, 'src', 'shims', 'vscode.ts');
  const again = {};
  const plugin = {
    name: 'single-bundle',
    setup(build) {
      build.onResolve({ filter: /^vscode$/ }, (a) =>
        a.importer === shim ? { path: 'vscode', external: true } : { path: shim },
      );
      build.onResolve({ filter: /.*/ }, async (a) => {
        if (a.kind !== 'require-call' || a.pluginData === again) return undefined;
        const r = await build.resolve(a.path, {
          kind: a.kind,
          importer: a.importer,
          resolveDir: a.resolveDir,
          pluginData: again,
        });
        const e = r.errors.length || r.external ? undefined : byFile.get(r.path);
        return e ? { path: `./${e.name}.js`, external: true } : undefined;
      });
    },
  };
  fs.mkdirSync(dist, { recursive: true });
  const r = await esbuild.build({
    absWorkingDir: root,
    bundle: true,
    logLevel: 'error',
    platform: 'node',
    target: 'node20',
    format: 'cjs',
    minify: true,
    external: ['vscode'],
    alias: { 'form-data': './src/shims/form-data.ts' },
    plugins: [plugin],
    entryPoints: [
      { in: path.join(root, 'src/extension.ts'), out: 'main' },
      ...(lazyBundles ? entries.map((e) => ({ in: entryPath(e), out: e.name })) : []),
    ],
    outdir: dist,
    entryNames: '[name]',
    metafile: true,
  });
  fs.writeFileSync(path.join(dist, 'extension.js'), TIMING_LOADER);
  fs.writeFileSync(path.join(dist, '..', `${path.basename(dist)}.meta.json`), JSON.stringify(r.metafile));
  return size(path.join(dist, 'main.js'));
}

/** The variants, built under `dir`: [{ name, note, dist, files (what activation loads), bytes }]. */
export async function buildVariants(dir) {
  const run = (args) => {
    const r = spawnSync(process.execPath, ['esbuild.js', ...args], {
      cwd: root,
      stdio: ['ignore', 'ignore', 'inherit'],
    });
    if (r.status !== 0) throw new Error(`node esbuild.js ${args.join(' ')} failed`);
  };
  const variants = [];
  const today = path.join(dir, 'today');
  run(['--production', `--outdir=${path.join(today, 'dist')}`, `--metafile=${path.join(today, 'meta.json')}`]);
  const closure = (v) => [
    path.join(v, 'dist', 'extension.js'),
    ...outputClosure(JSON.parse(fs.readFileSync(path.join(v, 'meta.json'), 'utf8')), path.join(v, 'dist', 'main.js')),
  ];
  variants.push({
    name: 'today',
    note: 'the production build (esbuild.js --production)',
    dist: path.join(today, 'dist'),
    files: closure(today),
  });
  const unpacked = path.join(dir, 'unpacked');
  run([
    '--production',
    '--unpacked',
    `--outdir=${path.join(unpacked, 'dist')}`,
    `--metafile=${path.join(unpacked, 'meta.json')}`,
  ]);
  variants.push({
    name: 'unpacked',
    note: 'main.js requires its activation chunks as files (no packing into main.js)',
    dist: path.join(unpacked, 'dist'),
    files: closure(unpacked),
  });
  const single = path.join(dir, 'single');
  await buildSingle(path.join(single, 'dist'));
  variants.push({
    name: 'single bundle',
    note: `one main.js, lazy only: ${SINGLE_LAZY.join(', ')}; no splitting`,
    dist: path.join(single, 'dist'),
    files: ['extension.js', 'main.js'].map((f) => path.join(single, 'dist', f)),
  });
  for (const v of variants) v.bytes = v.files.reduce((n, f) => n + size(f), 0);
  return variants;
}

const median = (a) => [...a].sort((x, y) => x - y)[Math.floor(a.length / 2)];
const round = (x, d = 1) => Math.round(x * 10 ** d) / 10 ** d;

/** A fresh `node` (the extension host's Node 24 when `node` names it) requiring each file with a stand-in for vscode. */
const PROBE = `const M = require('module'); const r0 = M._resolveFilename;
M._resolveFilename = function (r, ...a) { return r === 'vscode' ? 'vscode-stand-in' : r0.call(this, r, ...a); };
require.cache['vscode-stand-in'] = { id: 'vscode-stand-in', filename: 'vscode-stand-in', loaded: true, exports: new Proxy({}, { get: () => function () {} }) };
const cpu = () => { const u = process.threadCpuUsage ? process.threadCpuUsage() : process.cpuUsage(); return (u.user + u.system) / 1000; };
const c = cpu(), t = performance.now(); require(process.argv[1]); const wall = performance.now() - t;
console.log(JSON.stringify({ wall, cpu: cpu() - c }));`;

/**
 * `require(file)` in a fresh Node process for each of `files`, `rounds` rounds, the files interleaved in each round:
 * { file: { wallMs, cpuMs } } (medians). The code is compiled without any cache, as in a start without one.
 */
export function probeRequire(files, { rounds = 21, node = process.execPath } = {}) {
  const samples = new Map(files.map((f) => [f, { wall: [], cpu: [] }]));
  for (let i = 0; i < rounds; i++) {
    for (const f of files) {
      const r = spawnSync(node, ['-e', PROBE, f], { encoding: 'utf8' });
      if (r.status !== 0) throw new Error(`require(${f}) failed: ${r.stderr}`);
      const m = JSON.parse(r.stdout.trim().split('\n').pop());
      samples.get(f).wall.push(m.wall);
      samples.get(f).cpu.push(m.cpu);
    }
  }
  return Object.fromEntries(
    [...samples].map(([f, s]) => [f, { wallMs: round(median(s.wall), 2), cpuMs: round(median(s.cpu), 2) }]),
  );
}

/**
 * What each lazy entry keeps out of activation: main.js built with every entry lazy (as today, without splitting),
 * against main.js with that one entry inlined (the other 15 lazy): KB more at activation, and ms more to `require`
 * it in a fresh Node. An entry only other lazy entries require (the decoders, axios) adds nothing here: it keeps its
 * KB out of the first use of those entries instead.
 */
export async function lazyEntryGains(dir, { rounds = 15, node } = {}) {
  const names = LAZY_ENTRIES.map((e) => e.name);
  const all = path.join(dir, 'gain-all');
  const allBytes = await buildSingle(all, names, { lazyBundles: false });
  const rows = [];
  for (const name of names) {
    const d = path.join(dir, `gain-${name}`);
    rows.push({
      name,
      dist: d,
      bytes: await buildSingle(
        d,
        names.filter((n) => n !== name),
        { lazyBundles: false },
      ),
    });
  }
  const changed = rows.filter((r) => r.bytes !== allBytes);
  const times = probeRequire(
    [all, ...changed.map((r) => r.dist)].map((d) => path.join(d, 'main.js')),
    { rounds, node },
  );
  const t = (d) => times[path.join(d, 'main.js')];
  return {
    all: { bytes: allBytes, ...t(all) },
    entries: rows
      .map((r) => ({
        name: r.name,
        savedKB: round((r.bytes - allBytes) / 1024),
        savedMs: r.bytes === allBytes ? 0 : round(t(r.dist).wallMs - t(all).wallMs, 2),
        savedCpuMs: r.bytes === allBytes ? 0 : round(t(r.dist).cpuMs - t(all).cpuMs, 2),
      }))
      .sort((a, b) => b.savedKB - a.savedKB),
  };
}

if (process.argv[1] && path.resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  const os = await import('node:os');
  const { node24 } = await import(path.join(here, '..', 'harness', 'paths.mjs'));
  const node = fs.existsSync(node24) ? node24 : process.execPath;
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'hedera-startup-'));
  try {
    const variants = await buildVariants(dir);
    const times = probeRequire(
      variants.map((v) => path.join(v.dist, 'main.js')),
      { node },
    );
    console.log(
      `require(main.js) in a fresh Node ${spawnSync(node, ['-v'], { encoding: 'utf8' }).stdout.trim()} (median of 21; load average ${os
        .loadavg()
        .map((x) => x.toFixed(1))
        .join(' ')}):`,
    );
    for (const v of variants) {
      const m = times[path.join(v.dist, 'main.js')];
      console.log(
        `  ${v.name.padEnd(18)} ${(v.bytes / 1024).toFixed(1)} KB in ${v.files.length} files at activation; require ${m.wallMs} ms wall, ${m.cpuMs} ms CPU  (${v.note})`,
      );
    }
    const g = await lazyEntryGains(dir, { node });
    console.log(
      `What each lazy entry keeps out of activation (main.js with all ${LAZY_ENTRIES.length} lazy, no splitting: ${(g.all.bytes / 1024).toFixed(1)} KB, require ${g.all.wallMs} ms), against main.js with it inlined:`,
    );
    for (const e of g.entries)
      console.log(
        `  ${e.name.padEnd(17)} ${String(e.savedKB).padStart(6)} KB  ${String(e.savedMs).padStart(6)} ms wall  ${String(e.savedCpuMs).padStart(6)} ms CPU  ${e.savedKB >= 20 || e.savedMs >= 1 ? 'pays (>= 20 KB or >= 1 ms wall)' : 'below 20 KB and 1 ms at activation'}`,
      );
  } finally {
    fs.rmSync(dir, { recursive: true, force: true });
  }
}
