/**
 * dist/extension.js, the file VS Code loads: it requires the extension itself (dist/main.js, built from
 * src/extension.ts) and times that, so that the log (and the activation bench) can tell loading the code apart
 * from activate(): "Activated in A ms (code loaded in B ms)", with the main thread's CPU time for each where Node
 * has it. VS Code's own "Activation" figure also counts the other extensions that load at the same moment.
 *
 * The bundle is compiled with a V8 code cache kept in the extension's global storage (src/core/codeCache.ts),
 * except while the extension is being developed (Development mode: F5), where a plain `require` keeps debugging
 * as usual. When no cache was accepted (the first start of a build), activate() writes one soon after the start,
 * or deactivate() does if the extension stops first.
 */
import * as path from 'path';
import type * as vscode from 'vscode';
import { requireWithCodeCache } from './core/codeCache';
import { threadCpuMs } from './core/cpuTime';
import type * as Main from './extension';
import type { HederaExplorerApi } from './testSeams';

/** `vscode.ExtensionMode.Development` (the API's enum value; the loader does not load the API itself). */
const DEVELOPMENT_MODE = 2;

let main: typeof Main | undefined;
/** Writes the code cache, until it has been written (or tried): activate() runs it soon after the start, deactivate() at the latest. */
let pendingSave: (() => Promise<string>) | undefined;

function saveOnce(): Promise<string | undefined> {
  const save = pendingSave;
  pendingSave = undefined;
  return save ? save() : Promise.resolve(undefined);
}

export function activate(context: vscode.ExtensionContext): HederaExplorerApi {
  const cpu = threadCpuMs();
  const started = performance.now();
  const storage = context.globalStorageUri;
  const cacheDir = context.extensionMode !== DEVELOPMENT_MODE && storage.scheme === 'file' ? path.join(storage.fsPath, 'code-cache') : undefined;
  // esbuild.js turns this into require.resolve("./main.js") (MAIN_ENTRY), next to this file
  const loaded = requireWithCodeCache<typeof Main>(require.resolve('./extension'), cacheDir);
  main = loaded.exports;
  pendingSave = loaded.save;
  const wall = performance.now() - started;
  const after = threadCpuMs();
  return main.activate(context, {
    wallMs: wall,
    cpuMs: cpu === undefined || after === undefined ? undefined : after - cpu,
    codeCache: loaded.state,
    saveCodeCache: pendingSave && saveOnce,
  });
}

export function deactivate(): Promise<unknown> | undefined {
  main?.deactivate();
  // a session shorter than the delay of activate()'s write: the cache is written as the extension stops
  return pendingSave ? saveOnce().catch(() => undefined) : undefined;
}
