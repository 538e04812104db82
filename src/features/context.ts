/**
 * What every feature is given by the composition root (src/extension.ts), built once in activate(): the
 * selected network's clients, the log, the workspace's ABIs, the secret store and the raw-JSON documents. A
 * feature takes what it needs from here and never from a module-level singleton.
 */
import type * as vscode from 'vscode';
import type { ExtensionLog } from '../core/log';
import type { ApiKeyStore } from '../core/secrets';
import type { SelectedNetwork } from '../core/selectedNetwork';
import type { RawJsonProvider } from '../ui/actions';
import type { ChainCodeCache } from '../workspace/chainCode';
import type { AbiIndex, WorkspaceBuilds } from './decoding';
import type { VerificationEvents } from './verification';

export interface FeatureContext {
  readonly extension: vscode.ExtensionContext;
  readonly network: SelectedNetwork;
  readonly log: ExtensionLog;
  /** The workspace's ABIs and the Sourcify ABI cache (decoding). */
  readonly abis: AbiIndex;
  /** The workspace's builds, one read per window shared by every feature (owned by the decoding feature's watchers). */
  readonly builds: WorkspaceBuilds;
  /** The mirror node's `/contracts/{id or address}` (EVM address, code on chain), one request per contract and network. */
  readonly chainCode: ChainCodeCache;
  readonly apiKeys: ApiKeyStore;
  readonly raw: RawJsonProvider;
  /** Every finished verification run (fired by the verification feature; the Deployments view and CodeLens follow it). */
  readonly verifications: VerificationEvents;
  /**
   * True only when VS Code runs the extension's tests (ExtensionMode.Test): a feature builds its test seam
   * (src/testSeams.ts) then, and records nothing for tests otherwise.
   */
  readonly testMode: boolean;
}
