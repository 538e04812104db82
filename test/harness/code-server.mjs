// code-server (real VS Code 1.139 server + web workbench, run by Node 24) with the extension installed into a
// throw-away profile. Used by run-e2e.mjs, start.mjs and the activation bench.
//
//   installExtension(profile, { vsix })  vsix given: `code-server --install-extension x.vsix` (what users get);
//                                        else: copy the packaged files of the repo into the extensions dir.
//   startCodeServer(profile, { port, logLevel, folder, workspaceTrust, locale }) -> { url, port, stop(), output() }
//     url opens test/workspace (override with `folder`). `locale`: the display language (--locale; the profile needs
//     a language pack for it: profile.mjs languagePack()). code-server rejects --extensionDevelopmentPath, hence
//     the install step. Auth off, bound to 127.0.0.1 only. Workspace trust is off unless `workspaceTrust`.
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { codeServerEntry, node24, root, workspaceDir } from './paths.mjs';
import { freePort, spawnGroup } from './processes.mjs';

/** What the .vsix ships; the copy install mirrors it (all of dist/: the lazily required chunks, and the source maps of
 * a development build). */
export const PACKAGED_FILES = [
  'package.json',
  'package.nls.json',
  'dist',
  'media',
  'l10n',
  'README.md',
  'CHANGELOG.md',
  'LICENSE',
  'LICENSE.md',
  'LICENSE.txt',
];

function assertRuntime() {
  if (!fs.existsSync(node24) || !fs.existsSync(codeServerEntry)) {
    throw new Error('VS Code runtime missing: run `npm run setup:vscode` first');
  }
}

const baseArgs = (profile) => [
  '--config',
  profile.configFile,
  '--user-data-dir',
  profile.userDataDir,
  '--extensions-dir',
  profile.extensionsDir,
];

export function installExtension(profile, { vsix } = {}) {
  assertRuntime();
  if (vsix) {
    execFileSync(node24, [codeServerEntry, ...baseArgs(profile), '--install-extension', vsix], {
      env: profile.env,
      stdio: process.env.VERBOSE ? 'inherit' : 'pipe',
    });
    return;
  }
  const pkg = JSON.parse(fs.readFileSync(path.join(root, 'package.json'), 'utf8'));
  const dest = path.join(profile.extensionsDir, `${pkg.publisher}.${pkg.name}-${pkg.version}`);
  for (const f of PACKAGED_FILES) {
    const src = path.join(root, f);
    if (fs.existsSync(src)) fs.cpSync(src, path.join(dest, f), { recursive: true });
  }
}

export async function startCodeServer(
  profile,
  { port = 0, logLevel, folder = workspaceDir, workspaceTrust = false, locale } = {},
) {
  assertRuntime();
  const p = await freePort(port);
  const args = [
    codeServerEntry,
    ...baseArgs(profile),
    '--auth',
    'none',
    '--bind-addr',
    `127.0.0.1:${p}`,
    '--disable-telemetry',
    '--disable-update-check',
    // with workspaceTrust, a folder not trusted yet opens in Restricted Mode (the profile enables trust)
    ...(workspaceTrust ? [] : ['--disable-workspace-trust']),
    '--disable-getting-started-override',
    ...(logLevel ? ['--log', logLevel] : []),
    ...(locale ? ['--locale', locale] : []),
  ];
  const proc = spawnGroup('code-server', node24, args, { env: profile.env, cwd: profile.dir });
  await proc.waitFor(/HTTP server listening on/, 60000);
  const url = `http://127.0.0.1:${p}/?folder=${encodeURIComponent(folder)}`;
  return { url, port: p, stop: proc.stop, output: proc.output };
}
