/**
 * "Hedera: Call Contract…": asks for a contract (its id, EVM address or HashScan link), or takes it as an argument
 * (a Deployments row's address, a CodeLens's or a hover's `{ address }` or text: checked as if typed), finds its ABI
 * (target.ts) and opens its call panel (at a function, for a function lens's `{ address, function, inputs }`). Says plainly when there is no contract there or no ABI for it.
 */
import * as vscode from 'vscode';
import { notificationSafe } from '../../api/text';
import type { ContractCallPanel, ContractCallPanels } from './panel';
import type { FunctionFocus } from './protocol';
import { findTarget, parseContractInput } from './target';

/** The contract an argument names: text, or an object with `address` or `id` text; undefined otherwise. */
export function contractArgument(arg: unknown): string | undefined {
  if (typeof arg === 'string') return arg.length <= 300 ? arg : undefined;
  if (arg && typeof arg === 'object' && !Array.isArray(arg)) {
    const o = arg as Record<string, unknown>;
    for (const k of ['address', 'id'] as const) if (typeof o[k] === 'string' && o[k].length <= 300) return o[k];
  }
  return undefined;
}

/** The function an argument asks to show first (a function lens's `{ function, inputs }`); undefined otherwise. */
export function focusArgument(arg: unknown): FunctionFocus | undefined {
  if (!arg || typeof arg !== 'object' || Array.isArray(arg)) return undefined;
  const { function: name, inputs } = arg as Record<string, unknown>;
  if (typeof name !== 'string' || !/^[A-Za-z_$][A-Za-z0-9_$]{0,255}$/.test(name)) return undefined;
  const count =
    typeof inputs === 'number' && Number.isInteger(inputs) && inputs >= 0 && inputs <= 1024 ? inputs : undefined;
  return count === undefined ? { name } : { name, inputs: count };
}

export async function callContractCommand(
  panels: ContractCallPanels,
  arg: unknown,
): Promise<ContractCallPanel | undefined> {
  let text = contractArgument(arg);
  const given = text === undefined ? undefined : parseContractInput(text);
  if (arg !== undefined && (!given || 'error' in given)) {
    // an argument is checked as if typed: a wrong one is said, never replaced by a question
    void vscode.window.showErrorMessage(
      given && 'error' in given
        ? notificationSafe(given.error)
        : vscode.l10n.t('Call Contract was given something that is not a contract.'),
    );
    return undefined;
  }
  text ??= await vscode.window.showInputBox({
    title: vscode.l10n.t('Call Contract'),
    prompt: vscode.l10n.t('The contract to call: its id, its EVM address or its HashScan link'),
    placeHolder: '0.0.1234',
    ignoreFocusOut: true,
    validateInput: (v) => {
      const p = parseContractInput(v);
      return 'error' in p ? p.error : undefined;
    },
  });
  if (!text) return undefined;
  const input = text;
  const found = await vscode.window.withProgress(
    { location: vscode.ProgressLocation.Window, title: vscode.l10n.t('Finding the contract and its ABI…') },
    () => findTarget(panels.ctx, input),
  );
  if (!found.ok) {
    // the sentence may hold the server's words: no link in it may be followed
    void vscode.window.showErrorMessage(notificationSafe(found.message, 600));
    return undefined;
  }
  return panels.show(found.target, focusArgument(arg));
}
