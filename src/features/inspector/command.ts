/**
 * "Hedera: Inspect Transaction…": what to inspect comes from the command's argument (a Contract Results row's
 * result, a reference string, `{ transactionId, nonce, hash, timestamp, network }`), else from the editor's
 * selection when it is a transaction reference, else from an input box checked as the user types (nothing is
 * requested for bad input).
 */
import vscode = require('vscode');
import { isNetworkName, NETWORK_NAMES, type NetworkName } from '../../api/networks';
import { notificationSafe } from '../../api/text';
import { type Explorer, parseTxRef, type TxRef } from '../../api/txRef';
import { profileOf } from '../../core/settings';
import type { InspectorPanel, InspectorPanels } from './panel';

/** The explorer base of every network, to tell which network a pasted HashScan link is on. */
function explorers(selected: NetworkName): Explorer[] {
  // the selected network first: the sandbox's stand-in shares HashScan's path shape
  const names = [selected, ...NETWORK_NAMES.filter((n) => n !== selected)];
  return names.map((name) => ({ name, hashscanUrl: profileOf(name).hashscanUrl }));
}

type Parsed = { ok: true; ref: TxRef } | { ok: false; message: string } | undefined;

/** A reference from a command argument; undefined when there is none. */
function fromArgument(arg: unknown, selected: NetworkName): Parsed {
  if (typeof arg === 'string') {
    const r = parseTxRef(arg, explorers(selected));
    return r.ok ? { ok: true, ref: r.value } : { ok: false, message: r.message };
  }
  // the editor's context menu passes the document's Uri: the selection is what to inspect
  if (!arg || typeof arg !== 'object' || arg instanceof vscode.Uri) return undefined;
  // a tree row holds its result in `result`
  const o = (typeof (arg as { getTreeItem?: unknown }).getTreeItem === 'function' ? (arg as { result?: unknown }).result : arg) as Record<string, unknown> | undefined;
  if (!o || typeof o !== 'object') return undefined;
  const network = isNetworkName(o.network) ? o.network : undefined;
  const pick = (v: unknown): string | undefined => (typeof v === 'string' && v.length <= 200 ? v : undefined);
  const text = pick(o.transactionId) ?? pick(o.transaction_id) ?? pick(o.timestamp) ?? pick(o.hash);
  if (!text) return { ok: false, message: vscode.l10n.t('Nothing to inspect: the item names no transaction id, timestamp or hash.') };
  const r = parseTxRef(text, explorers(selected));
  if (!r.ok) return { ok: false, message: r.message };
  const ref = r.value;
  if (network) ref.network = network;
  const nonce = typeof o.nonce === 'number' && Number.isInteger(o.nonce) && o.nonce >= 0 && o.nonce <= 2147483647 ? o.nonce : undefined;
  if (ref.kind === 'transactionId' && nonce) ref.nonce = nonce;
  return { ok: true, ref };
}

export async function inspectCommand(panels: InspectorPanels, args: unknown[]): Promise<InspectorPanel | undefined> {
  const selected = panels.ctx.network.profile.name;
  let parsed = fromArgument(args[0], selected);
  if (parsed && !parsed.ok) {
    void vscode.window.showErrorMessage(notificationSafe(parsed.message));
    return undefined;
  }
  if (!parsed) {
    const editor = vscode.window.activeTextEditor;
    const selection = editor && !editor.selection.isEmpty ? editor.document.getText(editor.selection).slice(0, 2100) : '';
    const fromSelection = selection ? parseTxRef(selection, explorers(selected)) : undefined;
    if (fromSelection?.ok) {
      parsed = { ok: true, ref: fromSelection.value };
    } else {
      const typed = await vscode.window.showInputBox({
        title: vscode.l10n.t('Inspect Transaction'),
        prompt: vscode.l10n.t('A transaction id, transaction hash, consensus timestamp or HashScan link'),
        placeHolder: '0.0.1234-1700000000-123456789 · 0x… · 1700000000.123456789 · https://hashscan.io/…',
        value: selection.trim().length <= 300 ? selection.trim() : '',
        ignoreFocusOut: true,
        validateInput: (v) => {
          const r = parseTxRef(v, explorers(selected));
          return r.ok ? undefined : r.message;
        },
      });
      if (typed === undefined) return undefined;
      const r = parseTxRef(typed, explorers(selected));
      if (!r.ok) return undefined;
      parsed = { ok: true, ref: r.value };
    }
  }
  return panels.show(parsed.ref);
}
