/**
 * Read and simulate contracts, the eager part: "Hedera: Call Contract…" and the call panels' serializer. The panels
 * and everything they use (lazy.ts, a lazy entry of the build) load on first use; in test mode, the test seam too.
 */
import type { FeatureContext } from '../context';
import type * as Lazy from './lazy';
import { Command, registerCommand } from '../../core/commands';
import { registerPanels } from '../../ui/panelRegistration';

/** The call panels' webview type (package.json's onWebviewPanel activation event names it). */
const VIEW_TYPE = 'hederaExplorer.contractCall';

export function registerContractCall(ctx: FeatureContext): ReturnType<typeof Lazy.testSeam> | undefined {
  let lazy: typeof Lazy | undefined;
  // eslint-disable-next-line @typescript-eslint/no-require-imports -- a lazy entry (LAZY_ENTRIES): the panels load on first use
  const load = () => (lazy ??= require('./lazy') as typeof Lazy);
  const panels = registerPanels(
    ctx.extension.subscriptions,
    VIEW_TYPE,
    () => new (load().ContractCallPanels)(ctx, VIEW_TYPE),
  );
  registerCommand(ctx.extension.subscriptions, Command.callContract, (a) => load().callContractCommand(panels(), a));
  return ctx.testMode ? load().testSeam(panels) : undefined;
}
