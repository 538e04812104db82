/**
 * "Hedera: Show NFT History": asks for a token id and a serial number (each validated as it is typed: entity id
 * pattern; serial 1..9223372036854775807 compared as BigInt), or takes them from the editor's selection
 * (`0.0.1234`, `0.0.1234/7`, `0.0.1234#7`), or from arguments (`executeCommand(id, '0.0.1234', '7')`).
 */
import * as vscode from 'vscode';
import { checkEntityId, checkSerial } from '../../api/validation';
import type { NftHistoryPanel, NftHistoryPanels } from './panel';
import { parseNftSelection, type NftSelection } from './selection';

/** The NFT in the active editor's selection, if the selected text is one. */
export function selectedNft(): NftSelection | undefined {
  const editor = vscode.window.activeTextEditor;
  if (!editor || editor.selection.isEmpty) return undefined;
  return parseNftSelection(editor.document.getText(editor.selection));
}

async function askTokenId(prefill?: string): Promise<string | undefined> {
  const value = await vscode.window.showInputBox({
    title: vscode.l10n.t('Show NFT History (1/2)'),
    prompt: vscode.l10n.t('Token id of the NFT collection'),
    placeHolder: '0.0.1234',
    value: prefill,
    ignoreFocusOut: true,
    validateInput: (v) => {
      const c = checkEntityId(v, vscode.l10n.t('a token id'));
      return c.ok ? undefined : c.message;
    },
  });
  if (value === undefined) return undefined;
  const c = checkEntityId(value, vscode.l10n.t('a token id'));
  return c.ok ? c.value : undefined;
}

async function askSerial(tokenId: string, prefill?: string): Promise<string | undefined> {
  const value = await vscode.window.showInputBox({
    title: vscode.l10n.t('Show NFT History (2/2)'),
    prompt: vscode.l10n.t('Serial number of the NFT in {0} (1 to 9223372036854775807)', tokenId),
    placeHolder: '1',
    value: prefill,
    ignoreFocusOut: true,
    validateInput: (v) => {
      const c = checkSerial(v);
      return c.ok ? undefined : c.message;
    },
  });
  if (value === undefined) return undefined;
  const c = checkSerial(value);
  return c.ok ? c.value : undefined;
}

/**
 * The command. Arguments: (tokenId, serial) strings from code; from the editor context menu VS Code passes the
 * document's URI, which is ignored in favour of the selection. Returns the panel, or undefined when cancelled
 * or refused (a refused argument is reported with the validation sentence).
 */
export async function showNftHistoryCommand(
  panels: NftHistoryPanels,
  args: unknown[],
): Promise<NftHistoryPanel | undefined> {
  let tokenId: string | undefined;
  let serial: string | undefined;
  const [a, b] = args;
  if (typeof a === 'string' || typeof a === 'number' || typeof a === 'bigint') {
    const fromText = typeof a === 'string' ? parseNftSelection(a) : undefined;
    const t = checkEntityId(fromText?.tokenId ?? String(a), vscode.l10n.t('a token id'));
    if (!t.ok) {
      void vscode.window.showErrorMessage(t.message);
      return undefined;
    }
    tokenId = t.value;
    const rawSerial = b !== undefined && b !== null ? b : fromText?.serial;
    if (rawSerial !== undefined) {
      const s =
        typeof rawSerial === 'string' || typeof rawSerial === 'number' || typeof rawSerial === 'bigint'
          ? checkSerial(rawSerial)
          : checkSerial(String(rawSerial));
      if (!s.ok) {
        void vscode.window.showErrorMessage(s.message);
        return undefined;
      }
      serial = s.value;
    }
  } else {
    const sel = selectedNft();
    if (sel) {
      tokenId = sel.tokenId;
      serial = sel.serial;
    }
  }
  const last = panels.lastInput();
  tokenId ??= await askTokenId(last?.tokenId);
  if (!tokenId) return undefined;
  serial ??= await askSerial(tokenId, last?.tokenId === tokenId ? last.serial : undefined);
  if (!serial) return undefined;
  return panels.show(tokenId, serial);
}
