#!/usr/bin/env node
// `npm run bench`: performance figures, each against its target.
//   1. HTTP: all pages of the sandbox's contract results through the client vs a bare node:http loop
//      (requests = ceil(N/100), time ratio <= 1.3).
//   2. The extension in the real VS Code: activate() time and the minified bundle size (test/bench/activation.mjs).
//   3. The NFT history webview in the real browser: first rows, all 12,345 rows, scrolling (test/bench/nft-webview.mjs).
import { spawn, spawnSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
const step = (cmd, args) => { const r = spawnSync(cmd, args, { cwd: root, stdio: 'inherit' }); if (r.status !== 0) process.exit(r.status ?? 1); };

step(process.execPath, ['esbuild.js', '--bench']);

// the sandbox in its own process, so that server work does not share the client's event loop
const sandbox = spawn(process.execPath, ['out/sandbox/cli.js', '--port', '0', '--quiet'], { cwd: root, stdio: ['ignore', 'pipe', 'inherit'] });
const url = await new Promise((resolve, reject) => {
  let out = '';
  sandbox.stdout.on('data', (d) => { out += d; const m = /listening on (http:\/\/\S+)/i.exec(out); if (m) resolve(m[1]); });
  sandbox.on('exit', (c) => reject(new Error(`sandbox exited ${c}`)));
});
let failed = false;
try {
  console.log('\n== HTTP: 5,000+ contract results, all pages ==');
  const r = spawnSync(process.execPath, ['out/test/bench/http-bench.js', url, '--json'], { cwd: root, encoding: 'utf8' });
  if (r.status !== 0) { console.error(r.stderr); failed = true; } else {
    const b = JSON.parse(r.stdout.trim().split('\n').pop());
    console.log(`items ${b.items}; requests ${b.requests} (target ceil(N/100) = ${b.expectedRequests}) ${b.requests === b.expectedRequests ? 'OK' : 'MISSED'}`);
    console.log(`client ${b.clientMs} ms, bare node:http ${b.bareMs} ms, ratio ${b.ratio} (target <= 1.3) ${b.ratio <= 1.3 ? 'OK' : 'MISSED'}`);
  }
} finally {
  sandbox.kill('SIGTERM');
}

if (fs.existsSync(path.join(root, 'test/bench/activation.mjs')) && !process.argv.includes('--http-only')) {
  console.log('\n== The extension in the real VS Code ==');
  const r = spawnSync(process.execPath, ['test/bench/activation.mjs'], { cwd: root, stdio: 'inherit' });
  if (r.status !== 0) failed = true;
}
// ---- NFT history webview (test/bench/nft-webview.mjs): time to first rows and to all 12,345 rows, scrolling, DOM size
if (fs.existsSync(path.join(root, 'test/bench/nft-webview.mjs')) && !process.argv.includes('--http-only')) {
  console.log('\n== NFT history webview in the real browser: 12,345 entries ==');
  const r = spawnSync(process.execPath, ['test/bench/nft-webview.mjs'], { cwd: root, stdio: 'inherit' });
  if (r.status !== 0) failed = true;
}
// ---- end NFT history webview

process.exit(failed ? 1 : 0);
