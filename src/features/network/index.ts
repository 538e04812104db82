/** The network selection: "Hedera: Select Network", "Hedera: Retry Network" and the network status bar item. */
import { Command, registerCommand } from '../../core/commands';
import type { FeatureContext } from '../context';
import { selectNetwork } from './selectNetwork';
import { registerNetworkStatusBar } from './statusBarItem';

export function registerNetwork(ctx: FeatureContext): void {
  registerCommand(ctx.extension.subscriptions, Command.selectNetwork, (preset) =>
    selectNetwork(ctx.network, typeof preset === 'string' ? preset : undefined),
  );
  registerCommand(ctx.extension.subscriptions, Command.retryNetwork, () => ctx.network.retry());
  registerNetworkStatusBar(ctx.extension, ctx.network);
}
