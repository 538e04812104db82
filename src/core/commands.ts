/**
 * Registering and running the extension's commands, typed by the one map of ids and arguments (src/api/commands.ts).
 * A handler gets `unknown`s in the places of its arguments: whoever runs a command (a menu, a command link, another
 * extension) may pass anything, so each handler checks what it got.
 */
import * as vscode from 'vscode';
import type { CommandArgs, CommandId } from '../api/commands';
import type { DisposableStore } from './disposables';

export { Command, type CommandArgs, type CommandId } from '../api/commands';

/** A command's arguments as its handler receives them: as many, each unchecked. */
export type Unchecked<T extends unknown[]> = { [I in keyof T]: unknown };

/** Registers the handler of one of our commands; the registration is disposed with `store`. */
export function registerCommand<K extends CommandId>(
  store: DisposableStore | vscode.Disposable[],
  id: K,
  handler: (...args: Unchecked<CommandArgs[K]>) => unknown,
): vscode.Disposable {
  const d = vscode.commands.registerCommand(id, handler as (...args: unknown[]) => unknown);
  if (Array.isArray(store)) store.push(d);
  else store.add(d);
  return d;
}

/** Runs one of our commands with the arguments its map entry names. */
export function executeCommand<K extends CommandId>(id: K, ...args: CommandArgs[K]): Thenable<unknown> {
  return vscode.commands.executeCommand(id, ...args);
}

/** A tree item's or status bar item's command: one of ours, with its typed arguments. */
export function commandOf<K extends CommandId>(id: K, title: string, ...args: CommandArgs[K]): vscode.Command {
  return args.length ? { command: id, title, arguments: args } : { command: id, title };
}
