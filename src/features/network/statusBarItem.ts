/**
 * The network picker in the status bar: `$(globe) Testnet`; a click runs "Hedera: Select Network".
 */
import * as vscode from 'vscode';
import { Command, commandOf } from '../../core/commands';
import type { SelectedNetwork } from '../../core/selectedNetwork';

export function registerNetworkStatusBar(
  context: vscode.ExtensionContext,
  network: SelectedNetwork,
): vscode.StatusBarItem {
  const item = vscode.window.createStatusBarItem('hederaExplorer.network', vscode.StatusBarAlignment.Left, 9);
  item.name = vscode.l10n.t('Hedera Network');
  item.command = commandOf(Command.selectNetwork, vscode.l10n.t('Select Network'));
  const update = () => {
    const p = network.profile;
    item.text = `$(globe) ${p.label}`;
    item.tooltip = vscode.l10n.t(
      'Hedera network: {0} (chain {1})\nMirror node: {2}\nClick to select another network.',
      p.label,
      p.chainId,
      p.mirrorUrl,
    );
    item.accessibilityInformation = {
      label: vscode.l10n.t('Hedera network {0}. Select another network.', p.label),
      role: 'button',
    };
  };
  update();
  item.show();
  context.subscriptions.push(item, network.onDidChange(update));
  return item;
}
