/**
 * The Schedules view, the eager part: the view (its code, ./view.ts, is loaded with its first rows or the first
 * command that needs it), the commands every list has (src/ui/listRegistration.ts) and the view's own: open by id, copy
 * the id, open in HashScan, raw JSON. The row commands take a row or a schedule object and need no loaded code.
 */
import * as vscode from 'vscode';
import type { Schedule } from '../../api/mirrorTypes';
import { hashscanUrl } from '../../api/networks';
import type { ListViewId } from '../../api/commands';
import { Command, registerCommand } from '../../core/commands';
import { copyText, openUrl } from '../../ui/actions';
import { type ListSeam, listSeam, registerListView } from '../../ui/listRegistration';
import type { FeatureContext } from '../context';
import type { ScheduleFilterInput, SchedulesView } from './view';

const SCHEDULES_VIEW = 'hederaExplorer.schedules' satisfies ListViewId;

/** What the integration tests drive in the Schedules view (test mode only). */
export interface SchedulesSeam extends ListSeam<Schedule> {
  setFilters(f: Partial<ScheduleFilterInput>): void;
  openById(id?: unknown): Promise<Schedule | undefined>;
  /** The detail rows of a schedule, flattened as "Parent / Label: value" lines. */
  detailLines(s: unknown): string[];
}

/** A schedule from a command's argument: a row of the view, or a schedule object (tests, other callers). */
function scheduleOf(n: unknown): Schedule | undefined {
  const row = !!n && typeof n === 'object' && typeof (n as { getTreeItem?: unknown }).getTreeItem === 'function'; // a ScheduleNode
  const s = row ? (n as { schedule?: unknown }).schedule : n;
  return s && typeof s === 'object' && typeof (s as Schedule).schedule_id === 'string' ? (s as Schedule) : undefined;
}

export function registerSchedules(ctx: FeatureContext): SchedulesSeam | undefined {
  const list = registerListView<SchedulesView>(ctx.extension, SCHEDULES_VIEW, (treeView) => {
    // eslint-disable-next-line @typescript-eslint/no-require-imports
    const { SchedulesView } = require('./view') as typeof import('./view');
    return new SchedulesView(ctx, treeView, SCHEDULES_VIEW);
  });
  const subs = ctx.extension.subscriptions;
  registerCommand(subs, Command.schedulesOpen, (id) => list.view().openById(id));
  registerCommand(subs, Command.schedulesCopyId, (n) => {
    const s = scheduleOf(n);
    if (s) void copyText(s.schedule_id, vscode.l10n.t('schedule id {0}', s.schedule_id));
  });
  registerCommand(subs, Command.schedulesOpenInHashScan, (n) => {
    const s = scheduleOf(n);
    if (s) void openUrl(hashscanUrl(ctx.network.profile, 'schedule', s.schedule_id));
  });
  registerCommand(subs, Command.schedulesShowRaw, (n) => {
    const s = scheduleOf(n);
    if (s) void ctx.raw.show(`schedule-${s.schedule_id}`, s);
  });
  if (!ctx.testMode) return undefined;
  return listSeam(list, {
    setFilters: (f: Partial<ScheduleFilterInput>) => list.view().setFilters(f),
    openById: (id?: unknown) => list.view().openById(id),
    detailLines: (s: unknown) => list.view().detailLines(s as Schedule),
  });
}
