#!/usr/bin/env node
// `npm start`: see the extension working in a real VS Code, in your browser, against the offline sandbox.
//   1. builds the extension (node esbuild.js) and the sandbox; starts the sandbox on 5599 (or a free port)
//   2. a throw-away profile in a temp dir: user settings hederaExplorer.network=sandbox + its URL; the
//      extension copied into its extensions dir (no .vsix needed); a temp copy of test/workspace
//   3. code-server on 127.0.0.1:8080 (or a free port, PORT=n to choose), prints the URL to open
// `npm start -- --placement`: the sandbox with the placement ledger (--placement), and VS Code opened on the Hardhat 2
// project of its deployments instead of test/workspace (the inspector's Source section and Go to Revert on each case).
// Ctrl-C (SIGINT/SIGTERM) stops every process it started (whole process groups) and removes the temp dirs.
// Nothing is written into $HOME: XDG_* dirs, --config and TMPDIR all point into the temp profile.
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { installExtension, startCodeServer } from './code-server.mjs';
import { root, workspaceDir } from './paths.mjs';
import { cleanup, exitWhenOrphaned, setSignalExitCode, tempDir } from './processes.mjs';
import { makeProfile } from './profile.mjs';
import { sandboxSettings, startSandbox } from './sandbox.mjs';

setSignalExitCode(0);
exitWhenOrphaned();
try {
  execFileSync(process.execPath, ['esbuild.js'], { cwd: root, stdio: 'inherit' });
  // --live: a new contract result every 15 s, so that Follow mode has something to show in the demo
  const placement = process.argv.includes('--placement') ? tempDir('hedera-start-placement') : undefined;
  const sandbox = await startSandbox({ port: 5599, args: ['--live', '15'], placement });
  const profile = makeProfile('hedera-start', sandboxSettings(sandbox?.url));
  installExtension(profile);
  const workspace = tempDir('hedera-start-ws');
  fs.cpSync(workspaceDir, path.join(workspace, 'workspace'), { recursive: true });
  const server = await startCodeServer(profile, {
    port: Number(process.env.PORT || 8080),
    folder: placement ?? path.join(workspace, 'workspace'),
  });
  console.log(`
  Hedera Explorer in VS Code (code-server), network: ${sandbox ? `the sandbox at ${sandbox.url} (the custom network)` : 'the sandbox (not built: views will show errors)'}

    Open: ${server.url}

  Ctrl-C stops everything (run npm start again to pick up source changes).
`);
  setInterval(() => {}, 1 << 30); // stay up until a signal: processes.mjs then cleans up and exits
} catch (e) {
  console.error(`[start] ${e.message}`);
  await cleanup();
  process.exit(1);
}
