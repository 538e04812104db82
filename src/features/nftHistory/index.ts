/**
 * Registers "Hedera: Show NFT History" and the panel serializer (panels come back after a reload). The panels'
 * code (src/nft/feature.ts, bundled as dist/nft.js) is loaded on the first use of either, not at activation.
 */
import vscode = require('vscode');
import type { FeatureContext } from '../context';
import type * as Lazy from './lazy';
import type { NftHistoryPanels } from './panel';
import { VIEW_TYPE } from './protocol';

export interface NftHistoryFeature {
  /** The panels (loads their code on first access). */
  readonly panels: NftHistoryPanels;
}

export function registerNftHistory(ctx: FeatureContext): NftHistoryFeature {
  const { extension: context, network, log } = ctx;
  let feature: typeof Lazy | undefined;
  let panels: NftHistoryPanels | undefined;
  const load = () => (feature ??= require('./lazy') as typeof Lazy);
  const getPanels = () => {
    if (!panels) {
      panels = new (load().NftHistoryPanels)(context.extensionUri, network, log, context.globalState);
      context.subscriptions.push(panels);
    }
    return panels;
  };
  context.subscriptions.push(
    vscode.commands.registerCommand('hederaExplorer.showNftHistory', (...args: unknown[]) => load().showNftHistoryCommand(getPanels(), args)),
    vscode.window.registerWebviewPanelSerializer(VIEW_TYPE, {
      deserializeWebviewPanel: (panel, state) => getPanels().revive(panel, state),
    }),
  );
  return { get panels() { return getPanels(); } };
}
