/**
 * Setting the extension's context keys (src/api/commands.ts `ContextKey`), which the `when` clauses of package.json
 * read. In the extension's tests the last value of each key is also kept, as VS Code gives no way to read a key back.
 */
import * as vscode from 'vscode';
import type { ContextKeyId } from '../api/commands';

export { ContextKey, type ContextKeyId } from '../api/commands';

let recorded: Map<ContextKeyId, boolean | string> | undefined;

export function setContext(key: ContextKeyId, value: boolean | string): void {
  recorded?.set(key, value);
  void vscode.commands.executeCommand('setContext', key, value);
}

/** Test mode only: keeps each key's last value from now on; the map is what the tests read. */
export function recordContextKeys(): ReadonlyMap<ContextKeyId, boolean | string> {
  return (recorded ??= new Map());
}
