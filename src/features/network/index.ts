/** The network selection: "Hedera: Select Network" and the network status bar item. */
import { Command, registerCommand } from '../../core/commands';
import type { FeatureContext } from '../context';
import { selectNetwork } from './selectNetwork';
import { registerNetworkStatusBar } from './statusBarItem';

export function registerNetwork(ctx: FeatureContext): void {
  registerCommand(ctx.extension.subscriptions, Command.selectNetwork, (preset) =>
    selectNetwork(ctx.network, typeof preset === 'string' ? preset : undefined),
  );
  registerNetworkStatusBar(ctx.extension, ctx.network);
}
