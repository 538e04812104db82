/**
 * The questions "Verify Contract" asks (the address pick, a typed address, the chain, the contract, the API key),
 * taken through one interface: VS Code's quick picks and input boxes normally; in the extension's tests
 * (ExtensionMode.Test only) the same, each prompt recorded first so that a test knows what is asked and answers
 * it with workbench commands. Nothing is recorded in any other mode.
 */
import * as vscode from 'vscode';
import type { ApiKeyStore } from '../../core/secrets';
import { setApiKey } from './apiKey';

export type PromptKind = 'address' | 'addressInput' | 'chain' | 'contract' | 'apiKey';

export interface VerificationPrompts {
  /** A quick pick; `kind` names the question. Undefined when dismissed. */
  pick<T extends vscode.QuickPickItem>(
    kind: PromptKind,
    items: readonly T[],
    options: vscode.QuickPickOptions & { title: string },
  ): Promise<T | undefined>;
  /** An input box; `kind` names the question. Undefined when dismissed. */
  input(kind: PromptKind, options: vscode.InputBoxOptions & { title: string }): Promise<string | undefined>;
  /** Asks for the explorer API key (masked) and stores it. Whether a key was stored. */
  apiKey(): Promise<boolean>;
}

/** A prompt as the tests see it: the question, its title and the labels offered (codicons and separators left out). */
export interface PromptInfo {
  /** Counts up from 1 with every prompt. */
  seq: number;
  kind: PromptKind;
  title: string;
  items: string[];
  /**
   * A pick's item VS Code made active, as it told the extension (`onDidSelectItem`): the pick is open with its items,
   * and accepting it takes this one. Undefined until then, and for input boxes.
   */
  active?: string;
}

/** The prompts as VS Code shows them. */
export function vscodePrompts(apiKeys: ApiKeyStore): VerificationPrompts {
  return {
    pick: async (_kind, items, options) => vscode.window.showQuickPick(items, options),
    input: async (_kind, options) => vscode.window.showInputBox(options),
    apiKey: () => setApiKey(apiKeys),
  };
}

/** Test mode only: the same prompts, each recorded (`last()`) before it is shown. */
export function recordingPrompts(shown: VerificationPrompts): VerificationPrompts & { last(): PromptInfo | undefined } {
  let last: PromptInfo | undefined;
  let seq = 0;
  const record = (kind: PromptKind, title: string, items: string[]): PromptInfo =>
    (last = { seq: ++seq, kind, title, items });
  const label = (i: vscode.QuickPickItem) => i.label.replace(/^\$\([^)]+\) /, '');
  return {
    pick: (kind, items, options) => {
      const info = record(
        kind,
        options.title,
        items.filter((i) => i.kind !== vscode.QuickPickItemKind.Separator).map(label),
      );
      const onDidSelectItem = (item: vscode.QuickPickItem | string) => {
        info.active = typeof item === 'string' ? item : label(item);
        return options.onDidSelectItem?.(item);
      };
      return shown.pick(kind, items, { ...options, onDidSelectItem });
    },
    input: (kind, options) => {
      record(kind, options.title, []);
      return shown.input(kind, options);
    },
    apiKey: () => {
      record('apiKey', vscode.l10n.t('Explorer API Key'), []);
      return shown.apiKey();
    },
    last: () => last,
  };
}
