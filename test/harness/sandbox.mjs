// Starts the project's offline sandbox server (mirror node + status page + Sourcify emulator) for a test run.
//
//   startSandbox({ port, args, placement }) -> { url, stop() } | null   (args: extra CLI flags, e.g. ['--live', '15'];
//     placement: true, or a folder: the placement ledger (--placement), and its Hardhat 2 project written there)
//     builds out/sandbox/cli.js from sandbox/src/cli.ts when missing, runs it under this Node on `port`
//     (or a free port if taken), waits for "Sandbox listening on http://127.0.0.1:N". Returns null (with a
//     note) when the sandbox is not part of the source tree yet, so callers can treat it as optional.
// The process is stopped by stop() and, at the latest, by the harness cleanup on exit.
//
//   sandboxSettings(url) -> the user settings that point the extension at the sandbox: the extension knows no
//     sandbox, it reaches it as the custom network (mirror node, status page under /api/v2, Sourcify and the
//     HashScan stand-in all on the sandbox's port), named "Sandbox". test/integration/helpers.ts has the same for
//     the suites that switch networks at run time.
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { root, sandboxCli } from './paths.mjs';
import { freePort, spawnGroup } from './processes.mjs';

/** The sandbox's port when none is given (sandbox/src/cli.ts). */
export const SANDBOX_DEFAULT_URL = 'http://127.0.0.1:5599';

export function sandboxSettings(url = SANDBOX_DEFAULT_URL) {
  const base = url.replace(/\/+$/, '');
  return {
    'hederaExplorer.network': 'custom',
    'hederaExplorer.custom.name': 'Sandbox',
    'hederaExplorer.custom.mirrorUrl': base,
    'hederaExplorer.custom.statusUrl': `${base}/api/v2`,
    'hederaExplorer.custom.verifyUrl': base,
    'hederaExplorer.custom.chainId': 296,
    'hederaExplorer.custom.hashscanUrl': `${base}/hashscan/testnet`,
  };
}

export async function startSandbox({ port = 0, build = true, args = [], placement } = {}) {
  if (placement) args = [...args, placement === true ? '--placement' : `--placement=${placement}`];
  const source = path.join(root, 'sandbox', 'src', 'cli.ts');
  if (build && fs.existsSync(source)) {
    execFileSync(process.execPath, [path.join(root, 'esbuild.js'), '--sandbox'], { cwd: root, stdio: 'inherit' });
  }
  if (!fs.existsSync(sandboxCli)) {
    console.log('[harness] sandbox not available (no sandbox/src/cli.ts yet): running without it');
    return null;
  }
  const p = await freePort(port);
  const proc = spawnGroup('sandbox', process.execPath, [sandboxCli, '--port', String(p), ...args], { cwd: root });
  // the placement ledger reads (or compiles) the matrix's builds and runs its transactions first
  const [, url] = await proc.waitFor(/Sandbox listening on (http:\/\/\S+)/, placement ? 300000 : 30000);
  return { url: url.replace(/\/$/, ''), stop: proc.stop, output: proc.output };
}
