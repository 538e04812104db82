// What the Node-side benches share: the repository's root, a bundle of some of its modules, the sandbox, statistics.
import { execFileSync, spawn } from 'node:child_process';
import fs from 'node:fs';
import { createRequire } from 'node:module';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

export const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');

/**
 * `lines` (exports, e.g. "export { parseTxRef } from './src/api/txRef';", paths from the root) bundled by esbuild
 * into one CommonJS file in a temporary folder, required, the folder removed: the module.
 */
export async function bundle(name, lines) {
  const { build } = await import('esbuild');
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), `hedera-${name}-bench-`));
  const outfile = path.join(dir, 'modules.cjs');
  try {
    await build({
      stdin: { contents: lines.join('\n'), resolveDir: root, loader: 'ts', sourcefile: `${name}-bench-entry.ts` },
      bundle: true,
      platform: 'node',
      format: 'cjs',
      target: 'node20',
      outfile,
      logLevel: 'error',
    });
    return createRequire(import.meta.url)(outfile);
  } finally {
    fs.rmSync(dir, { recursive: true, force: true });
  }
}

/** The sandbox (built first), on a free port with `args`: its URL and `stop()`. */
export async function startSandbox(args = []) {
  execFileSync(process.execPath, ['esbuild.js', '--sandbox'], { cwd: root, stdio: ['ignore', 'ignore', 'inherit'] });
  const child = spawn(process.execPath, ['out/sandbox/cli.js', '--port', '0', '--quiet', ...args], {
    cwd: root,
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  const url = await new Promise((resolve, reject) => {
    let out = '';
    child.stdout.on('data', (d) => {
      out += d;
      const m = /listening on (http:\/\/\S+)/i.exec(out);
      if (m) resolve(m[1]);
    });
    child.on('exit', (c) => reject(new Error(`sandbox exited ${c}`)));
  });
  return { url, stop: () => child.kill('SIGTERM') };
}

const sorted = (xs) => [...xs].sort((a, b) => a - b);
export const median = (xs) => sorted(xs)[xs.length >> 1];
export const p95 = (xs) => sorted(xs)[Math.min(xs.length - 1, Math.floor(xs.length * 0.95))];
/** `n` to `digits` decimals (3 by default). */
export const round = (n, digits = 3) => Math.round(n * 10 ** digits) / 10 ** digits;

/** What the benches in the real VS Code use: the test harness (code-server, profile, browser, sandbox) and the e2e driver. */
export async function vscodeHarness() {
  const harness = (m) => import(path.join(root, 'test', 'harness', m));
  const [paths, processes, profile, codeServer, browser, sandbox, driver] = await Promise.all([
    harness('paths.mjs'),
    harness('processes.mjs'),
    harness('profile.mjs'),
    harness('code-server.mjs'),
    harness('browser.mjs'),
    harness('sandbox.mjs'),
    import(path.join(root, 'test', 'e2e', 'driver.mjs')),
  ]);
  return { ...paths, ...processes, ...profile, ...codeServer, ...browser, ...sandbox, driver };
}

/**
 * Where the benches in the real VS Code start: the production build installed in a profile of its own pointed at a
 * sandbox (`settings` added), code-server on a copy of test/workspace that `prepare(dir)` may change (without
 * `prepare`: test/workspace itself), headless Chromium on it, the extension activated (its "Sandbox" status bar item
 * shown). `h` is vscodeHarness()'s; the caller's `h.cleanup()` stops what was started, also after a throw here.
 */
export async function benchWorkbench(h, name, { settings = {}, prepare } = {}) {
  execFileSync(process.execPath, ['esbuild.js', '--production'], { cwd: h.root, stdio: 'pipe' });
  const sandbox = await h.startSandbox({ args: ['--quiet'] });
  const profile = h.makeProfile(`hedera-bench-${name}`, { ...h.sandboxSettings(sandbox.url), ...settings });
  h.installExtension(profile);
  let folder;
  if (prepare) {
    folder = h.tempDir(`hedera-bench-${name}-ws`);
    fs.cpSync(h.workspaceDir, folder, { recursive: true });
    await prepare(folder);
  }
  const server = await h.startCodeServer(profile, folder ? { folder } : {});
  const browser = await h.launchBrowser();
  const context = await browser.newContext({ viewport: { width: 1400, height: 900 } });
  const page = await context.newPage();
  await page.goto(server.url);
  await h.driver.waitForWorkbench(page);
  await h.driver.statusBarItem(page, 'Sandbox').waitFor({ timeout: 60000 });
  return { sandbox, server, browser, context, page, folder };
}
