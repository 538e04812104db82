/** The Schedules view: registered at activation. */
import type { FeatureContext } from '../context';
import { registerSchedulesView, type SchedulesView } from './view';

export function registerSchedules(ctx: FeatureContext): SchedulesView {
  return registerSchedulesView(ctx.extension, ctx.network, ctx.log, ctx.raw);
}
