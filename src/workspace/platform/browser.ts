/**
 * The browser build's ./node.ts (esbuild.js, browserBuild): a web worker runs no compiler and has no local disk
 * (files come through vscode.workspace.fs).
 */
import type * as NodePlatform from './node';

export const localCompile: typeof NodePlatform.localCompile = undefined;
export const openLocalFile: typeof NodePlatform.openLocalFile = undefined;
