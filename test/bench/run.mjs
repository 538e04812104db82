#!/usr/bin/env node
// `npm run bench`: performance figures, each against its target.
//   1. HTTP: all pages of the sandbox's contract results through the client vs a bare node:http loop
//      (requests = ceil(N/100), time ratio <= 1.2).
//   2. The extension in the real VS Code: our activation time (load + activate(), <= 10 ms) and the size of
//      dist/main.js and of what activation loads (<= 100 KB) (test/bench/activation.mjs), side by side with the same
//      sources built more simply (test/bench/startup.mjs: without packing, one bundle); what each lazy entry keeps
//      out of one bundle (test/bench/startup.mjs).
//   3. The NFT history webview in the real browser: first rows, all 12,345 rows, scrolling (test/bench/nft-webview.mjs);
//      revert to source: a 20,000-opcode trace to a call stack (test/bench/revert-map.mjs); the inspector webview.
//   4. Bundles: dist/main.js and the chunks it requires (<= 100 KB, no lazy entry of esbuild.js's LAZY_ENTRIES in
//      them), what the first use of each lazy entry loads, the decoders' load time.
//   5. The times the tests measure but do not judge (so that `npm test` passes on a busy machine): big and hostile
//      inputs (test/bench/scale.mjs), how soon cancellations and time limits stop a wait (test/bench/stops.mjs), the
//      figures of integration tests in the real extension host (test/bench/host.mjs) and Follow in the browser
//      (test/bench/follow.mjs).
import { spawn, spawnSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
const step = (cmd, args) => {
  const r = spawnSync(cmd, args, { cwd: root, stdio: 'inherit' });
  if (r.status !== 0) process.exit(r.status ?? 1);
};

step(process.execPath, ['esbuild.js', '--bench']);

// the sandbox in its own process, so that server work does not share the client's event loop
const sandbox = spawn(process.execPath, ['out/sandbox/cli.js', '--port', '0', '--quiet'], {
  cwd: root,
  stdio: ['ignore', 'pipe', 'inherit'],
});
const url = await new Promise((resolve, reject) => {
  let out = '';
  sandbox.stdout.on('data', (d) => {
    out += d;
    const m = /listening on (http:\/\/\S+)/i.exec(out);
    if (m) resolve(m[1]);
  });
  sandbox.on('exit', (c) => reject(new Error(`sandbox exited ${c}`)));
});
let failed = false;
try {
  const health = await (await fetch(`${url}/__sandbox/health`)).json();
  console.log(
    `\n== Sandbox ==\nstartup ${health.startupMs} ms (target well under 1 s) ${health.startupMs < 1000 ? 'OK' : 'MISSED'}; ${health.data.contractResults} contract results, ${health.data.schedules} schedules, ${health.data.nftHistories} NFT histories`,
  );
  console.log('\n== HTTP: 5,000+ contract results, all pages ==');
  const r = spawnSync(process.execPath, ['out/test/bench/http-bench.js', url, '--json'], {
    cwd: root,
    encoding: 'utf8',
  });
  if (r.status !== 0) {
    console.error(r.stderr);
    failed = true;
  } else {
    const b = JSON.parse(r.stdout.trim().split('\n').pop());
    console.log(
      `items ${b.items}; requests ${b.requests} (target ceil(N/100) = ${b.expectedRequests}) ${b.requests === b.expectedRequests ? 'OK' : 'MISSED'}`,
    );
    console.log(
      `client ${b.clientMs} ms, bare node:http ${b.bareMs} ms, ratio ${b.ratio} (target <= 1.2) ${b.ratio <= 1.2 ? 'OK' : 'MISSED'}  [median of 25 paired rounds' ratios; best times ${b.clientMs} / ${b.bareMs} ms give ${b.bestRatio}; medians ${b.clientMedianMs} / ${b.bareMedianMs} ms]`,
    );
    console.log(`CPU per round: client ${b.clientCpuMs} ms, bare ${b.bareCpuMs} ms`);
  }
} finally {
  sandbox.kill('SIGTERM');
}

if (fs.existsSync(path.join(root, 'test/bench/activation.mjs')) && !process.argv.includes('--http-only')) {
  console.log('\n== The extension in the real VS Code ==');
  const r = spawnSync(process.execPath, ['test/bench/activation.mjs'], { cwd: root, stdio: 'inherit' });
  if (r.status !== 0) failed = true;
  console.log(
    '\n== Startup designs under plain Node: require(main.js) of each, what each lazy entry keeps out of one bundle ==',
  );
  const s = spawnSync(process.execPath, ['test/bench/startup.mjs'], { cwd: root, stdio: 'inherit' });
  if (s.status !== 0) failed = true;
}
// ---- NFT history webview (test/bench/nft-webview.mjs): time to first rows and to all 12,345 rows, scrolling, DOM size
if (fs.existsSync(path.join(root, 'test/bench/nft-webview.mjs')) && !process.argv.includes('--http-only')) {
  console.log('\n== NFT history webview in the real browser: 12,345 entries ==');
  const r = spawnSync(process.execPath, ['test/bench/nft-webview.mjs'], { cwd: root, stdio: 'inherit' });
  if (r.status !== 0) failed = true;
}
// ---- end NFT history webview
// ---- revert to source (test/bench/revert-map.mjs): a 20,000-opcode trace of a real execution to the Solidity call stack
if (fs.existsSync(path.join(root, 'test/bench/revert-map.mjs')) && !process.argv.includes('--http-only')) {
  console.log('\n== Revert to source: a 20,000-opcode trace to the Solidity call stack ==');
  const r = spawnSync(process.execPath, ['test/bench/revert-map.mjs'], { cwd: root, stdio: 'inherit' });
  if (r.status !== 0) failed = true;
}
// ---- the browser build (test/bench/web.mjs): its size and VS Code's activation figure in the web worker extension
// host, next to the Node build's
if (fs.existsSync(path.join(root, 'test/bench/web.mjs')) && !process.argv.includes('--http-only')) {
  console.log(
    '\n== VS Code for the web: the browser build in the web worker extension host, next to the Node build ==',
  );
  const r = spawnSync(process.execPath, ['test/bench/web.mjs'], { cwd: root, stdio: 'inherit' });
  if (r.status !== 0) failed = true;
}
// ---- the debugger (test/bench/debug.mjs): a 20,000-step trace to the first stop, steps, Reverse Continue, memory
if (fs.existsSync(path.join(root, 'test/bench/debug.mjs')) && !process.argv.includes('--http-only')) {
  console.log('\n== Debugger: a 20,000-step trace to the first stop, steps and Reverse Continue ==');
  const r = spawnSync(process.execPath, ['test/bench/debug.mjs'], { cwd: root, stdio: 'inherit' });
  if (r.status !== 0) failed = true;
}
// ---- revert to source, the placement matrix (test/bench/placement.mjs): real solc builds in every optimizer and
// viaIR setting, real executions: exact / likely / unplaced / wrong exact per setting
if (fs.existsSync(path.join(root, 'test/bench/placement.mjs')) && !process.argv.includes('--http-only')) {
  console.log('\n== Revert to source: the placement matrix (every optimizer and viaIR setting) ==');
  const r = spawnSync(process.execPath, ['test/bench/placement.mjs'], { cwd: root, stdio: 'inherit' });
  if (r.status !== 0) failed = true;
}

// ---- hovers and links (test/bench/hover.mjs, in-process): cold and warm look-ups, typing in a 10,000-line file
if (fs.existsSync(path.join(root, 'test/bench/hover.mjs')) && !process.argv.includes('--http-only')) {
  console.log('\n== Hovers and links on Hedera references: cold and warm look-ups, typing in a 10,000-line file ==');
  const r = spawnSync(process.execPath, ['test/bench/hover.mjs'], { cwd: root, stdio: 'inherit' });
  if (r.status !== 0) failed = true;
}

// ---- thousands of deployment records (test/bench/records.mjs): 10,000 Ignition records read by the discovery, and the
// requests the Deployments view sends for them in the real extension host (test/integration/deployments.many.test.ts)
if (fs.existsSync(path.join(root, 'test/bench/records.mjs')) && !process.argv.includes('--http-only')) {
  console.log(
    '\n== Deployment records: a Hardhat Ignition deployment of 10,000 contracts read, and the requests sent for them ==',
  );
  const r = spawnSync(process.execPath, ['test/bench/records.mjs'], { cwd: root, stdio: 'inherit' });
  if (r.status !== 0) failed = true;
}

// ---- big and hostile inputs (test/bench/scale.mjs, in-process): a 2,000-call trace, 5,000 frames collapsed, hostile
// pastes, a 20,000-contract Solidity source
if (fs.existsSync(path.join(root, 'test/bench/scale.mjs')) && !process.argv.includes('--http-only')) {
  console.log(
    '\n== Big and hostile inputs: a 2,000-call trace, 5,000 frames collapsed, hostile pastes, 20,000 Solidity contracts ==',
  );
  const r = spawnSync(process.execPath, ['test/bench/scale.mjs'], { cwd: root, stdio: 'inherit' });
  if (r.status !== 0) failed = true;
}

// ---- how soon waits stop (test/bench/stops.mjs, in-process): cancelled backoff waits and answers, time limits, the
// hover look-up's first match, a cancelled Sourcify job wait
if (fs.existsSync(path.join(root, 'test/bench/stops.mjs')) && !process.argv.includes('--http-only')) {
  console.log(
    '\n== How soon waits stop: cancellations and time limits of the HTTP client, the hover look-up, Sourcify jobs ==',
  );
  const r = spawnSync(process.execPath, ['test/bench/stops.mjs'], { cwd: root, stdio: 'inherit' });
  if (r.status !== 0) failed = true;
}

// ---- local replay (test/bench/replay.mjs, the sandbox in its own process with the opcode endpoint off): a
// 20,000-step transaction's CPU time, requests made against the distinct slots and accounts touched plus 5, bytes
if (fs.existsSync(path.join(root, 'test/bench/replay.mjs')) && !process.argv.includes('--http-only')) {
  console.log('\n== Local replay of past transactions: CPU time, requests against slots + accounts + 5, bytes ==');
  const r = spawnSync(process.execPath, ['test/bench/replay.mjs'], { cwd: root, stdio: 'inherit' });
  if (r.status !== 0) failed = true;
}

// ---- figures of integration tests in the real extension host (test/bench/host.mjs): the link provider while typing,
// switching networks and cancelling Verify while an answer hangs
if (fs.existsSync(path.join(root, 'test/bench/host.mjs')) && !process.argv.includes('--http-only')) {
  console.log('\n== In the real extension host, figures of integration tests: links while typing, cancelled waits ==');
  const r = spawnSync(process.execPath, ['test/bench/host.mjs'], { cwd: root, stdio: 'inherit' });
  if (r.status !== 0) failed = true;
}

// ---- Follow in the browser (test/bench/follow.mjs): new contract results shown, the polls' interval
if (fs.existsSync(path.join(root, 'test/bench/follow.mjs')) && !process.argv.includes('--http-only')) {
  console.log('\n== Contract Results Follow in the real browser: new results shown, polls 2 s apart ==');
  const r = spawnSync(process.execPath, ['test/bench/follow.mjs'], { cwd: root, stdio: 'inherit' });
  if (r.status !== 0) failed = true;
}

// ---- transaction inspector webview (test/bench/inspector-webview.mjs): first content, all sections, the 1,200-frame trace
if (fs.existsSync(path.join(root, 'test/bench/inspector-webview.mjs')) && !process.argv.includes('--http-only')) {
  console.log('\n== Transaction inspector webview in the real browser: a 1,200-action trace ==');
  const r = spawnSync(process.execPath, ['test/bench/inspector-webview.mjs'], { cwd: root, stdio: 'inherit' });
  if (r.status !== 0) failed = true;
}
// ---- end transaction inspector webview
// ---- Call Contract's panel (test/bench/contract-call.mjs): 200 functions' first paint, a click on Read to its result
if (fs.existsSync(path.join(root, 'test/bench/contract-call.mjs')) && !process.argv.includes('--http-only')) {
  console.log(
    "\n== Call Contract's panel in the real browser: 200 functions painted, a click on Read to its result ==",
  );
  const r = spawnSync(process.execPath, ['test/bench/contract-call.mjs'], { cwd: root, stdio: 'inherit' });
  if (r.status !== 0) failed = true;
}

// ---- bundles (issues 7, 12): a production build into a temp folder (dist/ untouched). dist/main.js, and what
// requiring it loads at once (main.js + the chunks it requires: esbuild.js outputClosure), each at most 100 KB; no
// lazy entry (esbuild.js LAZY_ENTRIES) in that closure; each lazy entry with what its first use adds. dist/decoders.js
// is required on first decode only: its load time in a fresh Node process.
if (!process.argv.includes('--http-only')) {
  console.log('\n== Bundles: what activation loads and the lazily required entries (production, minified) ==');
  const os = await import('node:os');
  const { createRequire } = await import('node:module');
  const { TARGETS } = await import('./activation.mjs');
  const { LAZY_ENTRIES, entryPath, inputsOf, outputClosure } = createRequire(import.meta.url)(
    path.join(root, 'esbuild.js'),
  );
  const tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'hedera-bundles-'));
  try {
    const dist = path.join(tmp, 'dist');
    const r = spawnSync(
      process.execPath,
      ['esbuild.js', '--production', `--outdir=${dist}`, `--metafile=${path.join(tmp, 'meta.json')}`],
      { cwd: root, stdio: ['ignore', 'ignore', 'inherit'] },
    );
    if (r.status !== 0) failed = true;
    else {
      const kb = (bytes) => (bytes / 1024).toFixed(1);
      const mark = (ok) => (ok ? 'OK' : 'MISSED');
      const sum = (files) => files.reduce((n, f) => n + fs.statSync(f).size, 0);
      const meta = JSON.parse(fs.readFileSync(path.join(tmp, 'meta.json'), 'utf8'));
      const activation = outputClosure(meta, path.join(dist, 'main.js'));
      const mainBytes = fs.statSync(path.join(dist, 'main.js')).size;
      const limit = TARGETS.bundleKB * 1024;
      console.log(`dist/main.js ${kb(mainBytes)} KB (target <= ${TARGETS.bundleKB} KB) ${mark(mainBytes <= limit)}`);
      console.log(
        `what activation loads, main.js + the chunks it requires: ${kb(sum(activation))} KB in ${activation.length} files (target <= ${TARGETS.bundleKB} KB) ${mark(sum(activation) <= limit)}  [+ the loader dist/extension.js ${kb(fs.statSync(path.join(dist, 'extension.js')).size)} KB]`,
      );
      // a lazy entry whose module is in those files was imported statically somewhere (the build warns too)
      const activationInputs = inputsOf(meta, activation);
      const eager = LAZY_ENTRIES.filter((e) => activationInputs.has(entryPath(e))).map((e) => e.name);
      console.log(
        `lazy entries kept out of it: ${mark(!eager.length)}${eager.length ? ` (loaded at activation: ${eager.join(', ')})` : ''}`,
      );
      for (const e of LAZY_ENTRIES) {
        const adds = outputClosure(meta, path.join(dist, `${e.name}.js`)).filter((f) => !activation.includes(f));
        console.log(
          `  dist/${e.name}.js ${kb(fs.statSync(path.join(dist, `${e.name}.js`)).size)} KB; its first use loads ${kb(sum(adds))} KB in ${adds.length} file${adds.length === 1 ? '' : 's'} (${e.note})`,
        );
      }
      // the shared chunks activation needs are packed into main.js, which the host has loaded (with the vscode
      // module) before the first decode: loaded first here too, with a stand-in for vscode, and not timed
      const load = spawnSync(
        process.execPath,
        [
          '-e',
          `const M = require('module'); const r0 = M._resolveFilename; M._resolveFilename = function (r, ...a) { return r === 'vscode' ? 'vscode-stand-in' : r0.call(this, r, ...a); };
        require.cache['vscode-stand-in'] = { id: 'vscode-stand-in', filename: 'vscode-stand-in', loaded: true, exports: new Proxy({}, { get: () => function () {} }) };
        require(${JSON.stringify(path.join(dist, 'main.js'))});
        const t = performance.now(); const d = require(${JSON.stringify(path.join(dist, 'decoders.js'))}); const l = performance.now() - t;
        const b = 'CIDKte4BSiMKIQoOCgQYzel9EP+7ndyprwIKDwoFGMDW+wEQgLyd3KmvAg=='; const t2 = performance.now(); for (let i = 0; i < 1000; i++) d.decodeSchedulableBody(b);
        const reg = d.createRegistry([{ source: 'a', contractName: 'a', format: 'abi', abi: [{ type: 'function', name: 'transfer', inputs: [{ name: 'to', type: 'address' }, { name: 'value', type: 'uint256' }], outputs: [{ name: '', type: 'bool' }] }] }]);
        const data = '0xa9059cbb' + '0'.repeat(24) + '8a71dd444b077c45f2ca828082aa6c726a879555' + (10n ** 30n).toString(16).padStart(64, '0'); const t3 = performance.now(); for (let i = 0; i < 1000; i++) d.decodeCall(data, reg);
        console.log(JSON.stringify({ loadMs: l.toFixed(1), bodyUs: ((t3 - t2)).toFixed(0), callUs: ((performance.now() - t3)).toFixed(0) }));`,
        ],
        { encoding: 'utf8' },
      );
      const m = load.status === 0 ? JSON.parse(load.stdout.trim().split('\n').pop()) : undefined;
      console.log(
        `dist/decoders.js, required on first decode${m ? `: load ${m.loadMs} ms, a schedule body ${m.bodyUs} µs, a call ${m.callUs} µs (mean of 1,000)` : ' (load failed)'}`,
      );
      if (mainBytes > limit || sum(activation) > limit || eager.length || !m) failed = true;
      // the browser build (package.json "browser"): one file, all of it loaded at activation in VS Code for the web
      const { default: esbuild } = await import('esbuild');
      const { webExtensionBuild } = createRequire(import.meta.url)(path.join(root, 'esbuild.js'));
      await esbuild.build(webExtensionBuild(dist, true));
      const web = fs.statSync(path.join(dist, 'web', 'extension.js')).size;
      const nodeAll = fs.readdirSync(dist).filter((f) => f.endsWith('.js'));
      console.log(
        `browser build dist/web/extension.js ${kb(web)} KB, one file loaded whole at activation (not judged: a web worker cannot require a chunk on demand); the Node build: ${kb(sum(activation))} KB at activation, ${kb(sum(nodeAll.map((f) => path.join(dist, f))))} KB in all ${nodeAll.length} files`,
      );
    }
  } finally {
    fs.rmSync(tmp, { recursive: true, force: true });
  }
}
// ---- end bundles

process.exit(failed ? 1 : 0);
