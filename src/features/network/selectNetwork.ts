/**
 * "Hedera: Select Network": a quick pick of the networks, the current one marked.
 */
import * as vscode from 'vscode';
import { CHAIN_NAMES, type ChainId, NETWORK_NAMES, type NetworkName } from '../../api/networks';
import { profileOf, setNetwork } from '../../core/settings';
import type { SelectedNetwork } from '../../core/selectedNetwork';

/** "Hedera mainnet · chain 295": the chain's name (src/api/networks.ts) and its id. */
const chain = (id: ChainId): string => vscode.l10n.t('{0} · chain {1}', CHAIN_NAMES[id], id);

const DESCRIPTIONS: Record<NetworkName, () => string> = {
  mainnet: () => chain(295),
  testnet: () => chain(296),
  previewnet: () => chain(297),
  local: () => vscode.l10n.t('hedera-local or solo on this machine · chain {0}', 298),
  custom: () => vscode.l10n.t('Your own URLs (hederaExplorer.custom.*)'),
};

interface NetworkItem extends vscode.QuickPickItem {
  network: NetworkName;
}

export async function selectNetwork(network: SelectedNetwork, preset?: string): Promise<NetworkName | undefined> {
  let picked: NetworkName | undefined;
  if (preset !== undefined) {
    if (!(NETWORK_NAMES as readonly string[]).includes(preset)) {
      void vscode.window.showErrorMessage(
        vscode.l10n.t('"{0}" is not a network: use one of {1}.', String(preset).slice(0, 40), NETWORK_NAMES.join(', ')),
      );
      return undefined;
    }
    picked = preset as NetworkName;
  } else {
    const current = network.profile.name;
    const items: NetworkItem[] = NETWORK_NAMES.map((n) => {
      const p = profileOf(n);
      return {
        network: n,
        label: `${n === current ? '$(check)' : '$(blank)'} ${p.label}`,
        description: DESCRIPTIONS[n](),
        detail: p.mirrorUrl,
      };
    });
    const choice = await vscode.window.showQuickPick(items, {
      title: vscode.l10n.t('Select Hedera Network'),
      placeHolder: vscode.l10n.t('Current: {0}', network.profile.label),
      matchOnDescription: true,
      matchOnDetail: true,
    });
    picked = choice?.network;
  }
  if (!picked) return undefined;
  await setNetwork(picked);
  return picked;
}
