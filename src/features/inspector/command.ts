/**
 * "Hedera: Inspect Transaction…": what to inspect comes from the command's argument (a Contract Results row's
 * result, a reference string, `{ transactionId, nonce, hash, timestamp, network }`), else from the editor's
 * selection when it is a transaction reference, else from an input box checked as the user types (nothing is
 * requested for bad input).
 */
import * as vscode from 'vscode';
import { isNetworkName, NETWORK_NAMES, type NetworkName } from '../../api/networks';
import { notificationSafe } from '../../api/text';
import { type Explorer, parseTxRef, type TxRef, txRefText } from '../../api/txRef';
import { profileOf } from '../../core/settings';
import { InspectionLoader } from './inspection';
import type { InspectorPanel, InspectorPanels } from './panel';
import { RevertLocator } from './revertSource';

/** The explorer base of every network, to tell which network a pasted HashScan link is on. */
function explorers(selected: NetworkName): Explorer[] {
  // the selected network first: a custom network's explorer may share HashScan's path shape
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
  const o = (
    typeof (arg as { getTreeItem?: unknown }).getTreeItem === 'function' ? (arg as { result?: unknown }).result : arg
  ) as Record<string, unknown> | undefined;
  if (!o || typeof o !== 'object') return undefined;
  const network = isNetworkName(o.network) ? o.network : undefined;
  const pick = (v: unknown): string | undefined => (typeof v === 'string' && v.length <= 200 ? v : undefined);
  const text = pick(o.transactionId) ?? pick(o.transaction_id) ?? pick(o.timestamp) ?? pick(o.hash);
  if (!text)
    return {
      ok: false,
      message: vscode.l10n.t('Nothing to inspect: the item names no transaction id, timestamp or hash.'),
    };
  const r = parseTxRef(text, explorers(selected));
  if (!r.ok) return { ok: false, message: r.message };
  const ref = r.value;
  if (network) ref.network = network;
  const nonce =
    typeof o.nonce === 'number' && Number.isInteger(o.nonce) && o.nonce >= 0 && o.nonce <= 2147483647
      ? o.nonce
      : undefined;
  if (ref.kind === 'transactionId' && nonce) ref.nonce = nonce;
  return { ok: true, ref };
}

/** The transaction a command is about: its argument, else the selection, else the input box. Undefined: none. */
async function refFrom(panels: InspectorPanels, args: unknown[], title: string): Promise<TxRef | undefined> {
  const selected = panels.ctx.network.profile.name;
  const parsed = fromArgument(args[0], selected);
  if (parsed && !parsed.ok) {
    void vscode.window.showErrorMessage(notificationSafe(parsed.message));
    return undefined;
  }
  if (parsed) return parsed.ref;
  const editor = vscode.window.activeTextEditor;
  const selection = editor && !editor.selection.isEmpty ? editor.document.getText(editor.selection).slice(0, 2100) : '';
  const fromSelection = selection ? parseTxRef(selection, explorers(selected)) : undefined;
  if (fromSelection?.ok) return fromSelection.value;
  const typed = await vscode.window.showInputBox({
    title,
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
  return r.ok ? r.value : undefined;
}

export async function inspectCommand(panels: InspectorPanels, args: unknown[]): Promise<InspectorPanel | undefined> {
  const ref = await refFrom(panels, args, vscode.l10n.t('Inspect Transaction'));
  return ref ? panels.show(ref) : undefined;
}

/**
 * "Go to Revert": the place a failed call reverted, opened and marked. From an inspector panel showing the
 * transaction when there is one (its Source section), else located without a panel (with progress).
 */
export async function goToRevertCommand(
  panels: InspectorPanels,
  args: unknown[],
): Promise<vscode.TextEditor | undefined> {
  const ref = await refFrom(panels, args, vscode.l10n.t('Go to Revert'));
  if (!ref) return undefined;
  const network = ref.network ?? panels.ctx.network.profile.name;
  const open = panels.existing(ref, network);
  if (open) {
    await open.settled();
    if (open.sourceTargets.length) return open.openSource(0);
  }
  const clients = panels.ctx.network.clientsFor(network);
  const located = await vscode.window
    .withProgress(
      {
        location: vscode.ProgressLocation.Notification,
        title: vscode.l10n.t('Locating the revert of {0}…', txRefText(ref)),
        cancellable: true,
      },
      async (_progress, token) => {
        const controller = new AbortController();
        token.onCancellationRequested(() => controller.abort());
        const loader = new InspectionLoader(
          ref,
          () => clients.mirror,
          () => undefined,
        );
        token.onCancellationRequested(() => loader.dispose());
        await loader.start();
        const { result, actions } = loader.sources;
        if (result.state !== 'ready')
          return {
            message:
              result.state === 'error'
                ? result.error.message
                : vscode.l10n.t('The mirror node has no contract result for {0}.', txRefText(ref)),
          };
        const r = result.value.value;
        const acts = actions.state === 'ready' ? actions.value.actions : undefined;
        const locator = new RevertLocator(panels.ctx, () => clients, panels.builds, panels.documents);
        const pathRef = loader.nonce > 0 || !loader.transactionId ? (r.hash ?? txRefText(ref)) : loader.transactionId;
        return {
          located: await locator.locate(
            { result: r, actions: acts, pathRef, transactionId: loader.transactionId },
            controller.signal,
          ),
          transactionId: loader.transactionId,
        };
      },
    )
    .then(
      (v) => v,
      (e: unknown) => ({ message: e instanceof Error ? e.message : String(e) }),
    );
  if ('message' in located) {
    void vscode.window.showErrorMessage(notificationSafe(located.message ?? ''));
    return undefined;
  }
  const { model, targets } = located.located;
  const first = model.frames.find((f) => f.target >= 0);
  if (!first) {
    const why = model.notes[0] ?? vscode.l10n.t('The revert could not be placed in source.');
    const inspect = vscode.l10n.t('Open in the Inspector');
    void vscode.window.showInformationMessage(notificationSafe(why), inspect).then((c) => {
      if (c === inspect) panels.show(ref, network);
    });
    return undefined;
  }
  const editor = await panels.marks.open(targets[first.target], {
    ref: located.transactionId ?? txRefText(ref),
    network,
  });
  // where the exact place's step trace came from: the mirror node, or a local replay checked against the record
  if (model.mode === 'exact' && model.trace)
    vscode.window.setStatusBarMessage(vscode.l10n.t('Go to Revert: {0}', model.trace.text), 15_000);
  if (model.mode === 'likely') {
    const many = model.frames.filter((f) => f.target >= 0).length;
    const inspect = vscode.l10n.t('Open in the Inspector');
    const text =
      many > 1
        ? vscode.l10n.t(
            'Likely location (one of {0} candidates): the mirror node gave no opcode trace. The inspector lists them all.',
            String(many),
          )
        : vscode.l10n.t(
            'Likely location: the mirror node gave no opcode trace, so this is the statement whose reason matches, not an exact trace.',
          );
    void vscode.window.showInformationMessage(text, inspect).then((c) => {
      if (c === inspect) panels.show(ref, network);
    });
  }
  return editor;
}
