/**
 * dist/extension.js, the file VS Code loads: a few lines that load the extension itself (dist/main.js, built from
 * src/extension.ts) through a V8 code cache kept in the extension's global storage (src/core/codeCache.ts), so
 * that activations after the first skip most of the compiling. main.js writes the cache once it has run for a
 * while; any problem with the cache falls back to a plain `require`.
 */
import type * as vscode from 'vscode';
import path = require('path');
import { loadWithCodeCache } from './core/codeCache';
import type * as Main from './extension';

/** The SHA-256 of dist/main.js, set by a production build (esbuild.js); undefined in development builds. */
declare const MAIN_SHA256: string | undefined;

let main: typeof Main | undefined;

export function activate(context: vscode.ExtensionContext): Main.HederaExplorerApi {
  const storage = context.globalStorageUri;
  const cacheDir = storage.scheme === 'file' ? path.join(storage.fsPath, 'code-cache') : undefined;
  const loaded = loadWithCodeCache(path.join(__dirname, 'main.js'), cacheDir, typeof MAIN_SHA256 === 'string' ? MAIN_SHA256 : undefined);
  main = loaded.exports as typeof Main;
  return main.activate(context, loaded);
}

export function deactivate(): void {
  main?.deactivate();
}
