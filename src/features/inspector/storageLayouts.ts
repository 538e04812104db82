/**
 * The storage layouts of the workspace's contracts (solc `storageLayout` from Hardhat 2/3 build info and Foundry
 * output, src/workspace/storageLayout.ts), read once per window and again after the build output changed (the ABI
 * index says when). Looked up by deployed address through the deployment records.
 */
import * as vscode from 'vscode';
import type { DeployedContract } from '../../api/decode';
import { vscodeWorkspaceFs } from '../../core/vscodeWorkspaceFs';
import { type ContractStorageLayout, findStorageLayouts, type StorageLayoutIndex } from '../../workspace/storageLayout';
import type { FeatureContext } from '../context';

export class StorageLayouts implements vscode.Disposable {
  private index: Promise<StorageLayoutIndex> | undefined;
  private readonly subscription: vscode.Disposable;

  constructor(private readonly ctx: FeatureContext) {
    // artifacts or build info changed: read again on the next look-up
    this.subscription = ctx.abis.onDidChange(() => {
      this.index = undefined;
    });
  }

  /** The layout of the contract the deployment records place at `address` on `chainId`; undefined when none is known. */
  async byAddress(
    address: string,
    chainId: number,
    deployments: readonly DeployedContract[],
  ): Promise<ContractStorageLayout | undefined> {
    this.index ??= (async () => {
      const folders = (vscode.workspace.workspaceFolders ?? []).map((f) => vscodeWorkspaceFs(f.uri, f.name));
      const index = await findStorageLayouts(folders, { deployments: [...deployments] });
      if (index.problems.length)
        this.ctx.log.debug(`Inspector: storage layouts: ${index.problems.slice(0, 5).join('; ')}`);
      return index;
    })();
    const index = await this.index;
    return index.byAddress(address, { chainId });
  }

  dispose(): void {
    this.subscription.dispose();
  }
}
