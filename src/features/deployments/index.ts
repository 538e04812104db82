/**
 * The Deployments view and the CodeLens on Solidity contracts, as registered at activation: the view (a
 * LazyTreeView), its commands, and a CodeLens provider for `.sol` files whose code loads with the first Solidity
 * file shown (when `hederaExplorer.codeLens.enabled`). The records, lookups, rows, lenses and what the commands do
 * are the feature's lazy entry (lazy.ts); this file imports them with `import type` only.
 */
import * as vscode from 'vscode';
import { LazyTreeView } from '../../ui/lazyTree';
import type { TreeNode } from '../../ui/nodes';
import type { FeatureContext } from '../context';
import type { DeploymentLens, DeploymentLenses } from './codeLens';
import { registerCommand } from '../../core/commands';
import { soon } from '../../core/disposables';
import { COMMANDS, DEPLOYMENTS_VIEW } from './ids';
import type * as Lazy from './lazy';
import type { DeploymentsModel } from './model';
import type { DeploymentEntry } from './records';
import type { DeploymentRow, DeploymentsTree } from './view';

/** The Solidity files CodeLens is offered for (with or without a Solidity language extension). */
const SOLIDITY: vscode.DocumentSelector = [{ language: 'solidity' }, { pattern: '**/*.sol' }];

/** What the integration tests read and drive (`api.testing.deployments`); built in test mode only. */
export interface DeploymentsSeam {
  /** The view's root rows (loads its code), or the children of the row at `path` (labels from the root), once what they asked for arrived. */
  rows(path?: string[]): Promise<DeploymentRow[]>;
  /** Resolves when the records were read and every answer asked for arrived. */
  settled(): Promise<void>;
  setAllNetworks(on: boolean): void;
  readonly allNetworks: boolean;
  /** The view's description (network and chain, or "all networks"). */
  description(): string | undefined;
  refresh(): Promise<void>;
  /** The records' contracts (every chain). */
  entries(): Promise<DeploymentEntry[]>;
}

export function registerDeployments(ctx: FeatureContext): DeploymentsSeam | undefined {
  let lazy: typeof Lazy | undefined;
  // eslint-disable-next-line @typescript-eslint/no-require-imports -- lazy entry (LAZY_ENTRIES in esbuild.js): records, lookups, rows, lenses, commands
  const load = () => (lazy ??= require('./lazy') as typeof Lazy);
  const lensChanged = new vscode.EventEmitter<void>();
  let lensTimer: ReturnType<typeof setTimeout> | undefined;
  // answers arrive in bursts: the lenses are provided again once for them
  const lensesChanged = () => {
    lensTimer ??= setTimeout(() => {
      lensTimer = undefined;
      lensChanged.fire();
    }, 100);
  };
  let model: DeploymentsModel | undefined;
  const getModel = (): DeploymentsModel => {
    if (!model) {
      model = new (load().DeploymentsModel)(
        ctx.network,
        ctx.log,
        ctx.abis,
        ctx.builds,
        ctx.chainCode,
        ctx.verifications.onDidVerify,
      );
      ctx.extension.subscriptions.push(model, model.onDidChange(lensesChanged));
    }
    return model;
  };
  const tree = new LazyTreeView<TreeNode, DeploymentsTree>(
    DEPLOYMENTS_VIEW,
    (treeView) => new (load().DeploymentsTree)(ctx, getModel(), treeView),
  );
  let lenses: DeploymentLenses | undefined;
  const getLenses = () => (lenses ??= new (load().DeploymentLenses)(ctx, getModel()));
  const provider: vscode.CodeLensProvider<DeploymentLens> = {
    onDidChangeCodeLenses: lensChanged.event,
    provideCodeLenses: (document, token) =>
      vscode.workspace.getConfiguration('hederaExplorer').get('codeLens.enabled') !== false
        ? getLenses().provide(document, token)
        : [],
    resolveCodeLens: (lens, token) => getLenses().resolve(lens, token),
  };
  const deps = { ctx, model: getModel, tree: () => tree.implementation() };
  let lensRegistration: vscode.Disposable | undefined;
  ctx.extension.subscriptions.push(
    tree,
    lensChanged,
    { dispose: () => clearTimeout(lensTimer) },
    // registered right after activation, not during it: VS Code asks for lenses once it is there
    soon(() => (lensRegistration = vscode.languages.registerCodeLensProvider(SOLIDITY, provider))),
    { dispose: () => lensRegistration?.dispose() },
    vscode.workspace.onDidChangeConfiguration((e) => {
      if (e.affectsConfiguration('hederaExplorer.codeLens')) lensChanged.fire();
    }),
    ctx.network.onDidChange(lensesChanged),
  );
  for (const id of Object.values(COMMANDS))
    registerCommand(ctx.extension.subscriptions, id, (arg?: unknown) => load().runCommand(id, deps, arg));
  if (!ctx.testMode) return undefined;
  return {
    rows: async (path) => {
      // the rows ask for what they show; then they are read again with the answers
      await tree.implementation().snapshot(path);
      await getModel().settled();
      return tree.implementation().snapshot(path);
    },
    settled: () => getModel().settled(),
    setAllNetworks: (on) => tree.implementation().setAllNetworks(on),
    get allNetworks() {
      return tree.implementation().allNetworks;
    },
    description: () => tree.treeView.description,
    refresh: () => tree.implementation().refresh(),
    entries: async () => {
      await getModel().ensureScanned();
      return getModel().entries;
    },
  };
}
