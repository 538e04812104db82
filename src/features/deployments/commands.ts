/**
 * What the Deployments commands do (index.ts registers them; this part loads with the feature's lazy entry): open a
 * record at the contract's address, show its results in Contract Results, open it in HashScan, copy its address,
 * verify it (a partial match: upgrade it; the model follows the result), retry its failed lookups, switch between the
 * selected network and all.
 */
import * as vscode from 'vscode';
import { hashscanUrl } from '../../api/networks';
import { notificationSafe } from '../../api/text';
import { copyText, openUrl } from '../../ui/actions';
import type { FeatureContext } from '../context';
import { executeCommand } from '../../core/commands';
import { COMMANDS, OTHER_COMMANDS } from './ids';
import type { DeploymentsModel } from './model';
import type { DeploymentEntry } from './records';
import { DeploymentsTree } from './view';

export interface CommandDeps {
  ctx: FeatureContext;
  model: () => DeploymentsModel;
  tree: () => DeploymentsTree;
}

/** The record entry a command was given: a row of the view, or an entry's key (lenses, rows' commands). */
async function entryOf(model: DeploymentsModel, n: unknown): Promise<DeploymentEntry | undefined> {
  const fromRow = DeploymentsTree.entryOf(n);
  if (fromRow) return fromRow;
  if (typeof n !== 'string') return undefined;
  await model.ensureScanned();
  return model.entries.find((e) => e.key === n);
}

/** Opens the record file with the contract's address (as the record writes it, any case) selected. */
async function openRecord(e: DeploymentEntry): Promise<void> {
  const uri = vscode.Uri.joinPath(vscode.Uri.parse(e.folderKey, true), ...e.file.split('/'));
  try {
    const doc = await vscode.workspace.openTextDocument(uri);
    const text = doc.getText().toLowerCase();
    const hex = e.address.slice(2);
    const at = text.indexOf(hex);
    const start = at >= 2 && text.slice(at - 2, at) === '0x' ? at - 2 : at;
    const selection = at < 0 ? undefined : new vscode.Range(doc.positionAt(start), doc.positionAt(at + hex.length));
    await vscode.window.showTextDocument(doc, { preview: true, selection });
  } catch (err) {
    void vscode.window.showErrorMessage(
      notificationSafe(
        vscode.l10n.t(
          'The deployment record {0} cannot be opened: {1}',
          e.file,
          err instanceof Error ? err.message : String(err),
        ),
      ),
    );
  }
}

/** Runs the command `id` (one of COMMANDS) with its argument. */
export async function runCommand(id: string, deps: CommandDeps, arg: unknown): Promise<unknown> {
  const { ctx } = deps;
  const model = deps.model();
  const idOf = (e: DeploymentEntry): string => model.state(e).contract?.value?.id ?? e.entityId ?? e.address;
  switch (id) {
    case COMMANDS.refresh:
      return deps.tree().refresh();
    case COMMANDS.retry:
      return model.retry(await entryOf(model, arg));
    case COMMANDS.showAllNetworks:
      return deps.tree().setAllNetworks(true);
    case COMMANDS.showSelectedNetwork:
      return deps.tree().setAllNetworks(false);
    case COMMANDS.showMore:
      return deps.tree().showMore();
    case COMMANDS.openRecord: {
      const e = await entryOf(model, arg);
      return e && openRecord(e);
    }
    case COMMANDS.showResults: {
      const e = await entryOf(model, arg);
      return e && executeCommand(OTHER_COMMANDS.showContractResults, idOf(e));
    }
    case COMMANDS.openInHashScan: {
      const e = await entryOf(model, arg);
      return e && openUrl(hashscanUrl(ctx.network.profile, 'contract', idOf(e)));
    }
    case COMMANDS.call: {
      const e = await entryOf(model, arg);
      return e && executeCommand(OTHER_COMMANDS.callContract, { address: e.address });
    }
    case COMMANDS.copyAddress: {
      const e = await entryOf(model, arg);
      return e && copyText(e.address, vscode.l10n.t('address'));
    }
    case COMMANDS.verify: {
      // a row, an entry's key, or `{ address, chainId, contractName }` (the Verify lens); the model follows the result
      // (ctx.verifications), whichever way Verify was run
      const e = await entryOf(model, arg);
      const given =
        !e && arg && typeof arg === 'object'
          ? (arg as { address?: unknown; chainId?: unknown; contractName?: unknown })
          : undefined;
      const address = e?.address ?? (typeof given?.address === 'string' ? given.address : undefined);
      if (!address) return undefined;
      const name = e?.name || (typeof given?.contractName === 'string' ? given.contractName : '');
      const chainId = e?.chainId ?? (typeof given?.chainId === 'number' ? given.chainId : ctx.network.profile.chainId);
      // Verify on a contract shown as partially verified: submit the build again for an exact match
      const shown = e ?? model.entries.find((x) => x.address === address.toLowerCase() && x.chainId === chainId);
      const v = shown && chainId === ctx.network.profile.chainId ? model.state(shown).verification?.value : undefined;
      const args = {
        address,
        chainId,
        ...(name ? { contractName: name } : {}),
        ...(v?.kind === 'match' && v.match === 'match' ? { upgrade: true } : {}),
      };
      return executeCommand(OTHER_COMMANDS.verifyContract, args);
    }
    default:
      return undefined;
  }
}
