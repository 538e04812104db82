#!/usr/bin/env node
// The "VS Code executable" handed to @vscode/test-electron's runTests({ vscodeExecutablePath }) on this
// offline machine (see run-integration.cjs). test-electron spawns it with the usual Electron arguments;
// instead of Electron it:
//   1. starts the VS Code server inside code-server (lib/vscode/out/server-main.js, Node 24) on a free
//      127.0.0.1 port, with --enable-smoke-test-driver (without it the workbench ignores the test payload)
//      and a throw-away profile;
//   2. opens the web workbench in headless Chromium at /?folder=<workspace>&payload=<json> (?workspace= for a
//      .code-workspace file), the payload carrying extensionDevelopmentPath / extensionTestsPath as
//      vscode-remote:// URIs;
//   3. the tests run in the server-side Node extension host, their console output is relayed here, and the
//      workbench calls window.codeAutomationExit(code) when the tests' run() settles: we exit with that code.
// Arguments used: --extensionDevelopmentPath=, --extensionTestsPath=, --locale= (the display language, as Electron
// takes it; profile.mjs languagePack()), a positional workspace folder or .code-workspace file; the rest
// (--no-sandbox, --user-data-dir=... of test-electron) is ignored. Env: LAUNCHER_TIMEOUT_MS (default 300000),
// VERBOSE=1 (server output and every workbench log line), KEEP=1 (keep the temp profile).
import fs from 'node:fs';
import path from 'node:path';
import { format } from 'node:util';
import { launchBrowser } from './browser.mjs';
import { node24, vscodeServerMain } from './paths.mjs';
import { cleanup, exitWhenOrphaned, freePort, spawnGroup } from './processes.mjs';
import { languagePack, makeProfile } from './profile.mjs';

const argv = process.argv.slice(2);
const opt = (name) => argv.filter((a) => a.startsWith(`--${name}=`)).map((a) => a.slice(name.length + 3));
const devPaths = opt('extensionDevelopmentPath');
const testsPath = opt('extensionTestsPath')[0];
const folder = argv.find((a) => !a.startsWith('-'));
const locale = opt('locale')[0];
if (!testsPath || !devPaths.length) {
  console.error('launcher: needs --extensionDevelopmentPath=... and --extensionTestsPath=...');
  process.exit(2);
}
if (!fs.existsSync(node24) || !fs.existsSync(vscodeServerMain)) {
  console.error('launcher: VS Code runtime missing: run `npm run setup:vscode` first');
  process.exit(2);
}

exitWhenOrphaned(); // test-electron's runner was killed
const t0 = Date.now();
const elapsed = () => `${((Date.now() - t0) / 1000).toFixed(1)}s`;
const profile = makeProfile('hedera-itest');
if (locale) languagePack(profile.userDataDir, locale);
const port = await freePort();
const server = spawnGroup(
  'vscode-server',
  node24,
  [
    vscodeServerMain,
    '--host',
    '127.0.0.1',
    '--port',
    String(port),
    '--without-connection-token',
    '--accept-server-license-terms',
    '--enable-smoke-test-driver',
    '--disable-telemetry',
    '--disable-workspace-trust',
    '--user-data-dir',
    profile.userDataDir,
    '--server-data-dir',
    profile.serverDataDir,
    '--extensions-dir',
    profile.extensionsDir,
    ...(locale ? ['--locale', locale] : []),
  ],
  { env: profile.env },
);
await server.waitFor(/Extension host agent listening on/, 60000);
console.log(`[launcher] VS Code server on 127.0.0.1:${port} after ${elapsed()}`);

const remote = (p) => `vscode-remote://127.0.0.1:${port}${path.resolve(p)}`;
const payload = [
  ...devPaths.map((p) => ['extensionDevelopmentPath', remote(p)]),
  ['extensionTestsPath', remote(testsPath)],
  ['skipWelcome', 'true'],
];
const where = folder
  ? `${folder.endsWith('.code-workspace') ? 'workspace' : 'folder'}=${encodeURIComponent(path.resolve(folder))}`
  : 'ew=true';
const url = `http://127.0.0.1:${port}/?${where}&payload=${encodeURIComponent(JSON.stringify(payload))}`;

const browser = await launchBrowser();
const page = await browser.newPage();
let finish;
const exitCode = new Promise((resolve) => {
  finish = resolve;
});
await page.exposeFunction('codeAutomationExit', (code) => finish(code));
// Workbench chatter that is expected offline (marketplace lookups, chat, service worker...).
const noise =
  /AgentHost|ChatModelSelection|open-vsx|getaddrinfo|ServiceWorker|Service Worker|Authentication provider|socket|connection token|grace time|builtin extensions cache|AccountPolicyGate|ENOPRO|^Canceled/;
await page.exposeFunction('codeAutomationLog', (_type, args) => {
  const line = format(...args)
    .split('\n')
    .filter((l) => !/^\s+at /.test(l))
    .join('\n');
  if (process.env.VERBOSE || !noise.test(line)) console.log(line);
});
page.on('pageerror', (e) => {
  if (process.env.VERBOSE) console.log('[launcher] pageerror', e.message);
});
await page.goto(url);

// a bound on waiting for the whole suite (about 150 tests; a busy machine takes longer), not a speed target
const timeoutMs = Number(process.env.LAUNCHER_TIMEOUT_MS || 900000);
const code = await Promise.race([exitCode, new Promise((r) => setTimeout(() => r('timeout'), timeoutMs))]);
console.log(`[launcher] tests finished with exit code ${code} after ${elapsed()}`);
if (code !== 0 && !process.env.VERBOSE) console.log(`[launcher] last server output:\n${server.output().slice(-2000)}`);
await cleanup();
process.exit(code === 0 ? 0 : 1);
