/** The network selection: "Hedera: Select Network" and the network status bar item. */
import vscode = require('vscode');
import type { FeatureContext } from '../context';
import { selectNetwork } from './selectNetwork';
import { registerNetworkStatusBar } from './statusBarItem';

export function registerNetwork(ctx: FeatureContext): void {
  ctx.extension.subscriptions.push(vscode.commands.registerCommand('hederaExplorer.selectNetwork', (preset?: string) => selectNetwork(ctx.network, preset)));
  registerNetworkStatusBar(ctx.extension, ctx.network);
}
