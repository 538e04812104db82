/**
 * dist/extension.js, the file VS Code loads: it requires the extension itself (dist/main.js, built from
 * src/extension.ts) and times that, so that the log (and the activation bench) can tell loading the code apart
 * from activate(): "Activated in A ms (code loaded in B ms)", with the main thread's CPU time for each where Node
 * has it. VS Code's own "Activation" figure also counts the other extensions that load at the same moment.
 *
 * A plain `require`: nothing read from disk but the extension's own files, so nothing on disk can stop the
 * extension host (a V8 code cache here bought nothing measurable and could crash the host when damaged).
 */
import type * as vscode from 'vscode';
import { threadCpuMs } from './core/cpuTime';
import type * as Main from './extension';
import type { HederaExplorerApi } from './testSeams';

let main: typeof Main | undefined;

export function activate(context: vscode.ExtensionContext): HederaExplorerApi {
  const cpu = threadCpuMs();
  const started = performance.now();
  // esbuild.js turns this into require("./main.js") (MAIN_ENTRY), next to this file
  // eslint-disable-next-line @typescript-eslint/no-require-imports -- the extension bundle, loaded and timed here
  main = require('./extension') as typeof Main;
  const wall = performance.now() - started;
  const after = threadCpuMs();
  return main.activate(context, {
    wallMs: wall,
    cpuMs: cpu === undefined || after === undefined ? undefined : after - cpu,
  });
}

export function deactivate(): void {
  main?.deactivate();
}
