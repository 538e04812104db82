/** The Contract Results view: registered at activation. */
import type { FeatureContext } from '../context';
import { registerContractResultsView, type ContractResultsView } from './view';

export function registerContractResults(ctx: FeatureContext): ContractResultsView {
  return registerContractResultsView(ctx.extension, ctx.network, ctx.log, ctx.raw);
}
