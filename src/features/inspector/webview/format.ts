/**
 * Small text helpers of the inspector page, without the DOM (unit-tested): shortened hex for narrow places (the full
 * value stays in the title and the copy), byte counts, the gas bar's width, state changes grouped by contract.
 */
import type { EntityView, StateChangeView, TraceRow } from '../../../api/inspect/model';

const HEX = /^0x[0-9a-fA-F]*$/;

/** `0x1234abcd…89ef` when a hex string is longer than `head + tail` digits; anything else as it is. */
export function shortHex(value: string, head = 10, tail = 8): string {
  if (!HEX.test(value) || value.length <= 2 + head + tail + 1) return value;
  return `${value.slice(0, 2 + head)}…${value.slice(-tail)}`;
}

/** Bytes in a 0x hex string (undefined for anything else). */
export function hexBytes(value: string | undefined): number | undefined {
  if (value === undefined || !HEX.test(value)) return undefined;
  return Math.floor((value.length - 2) / 2);
}

/** A ratio 0..1 as a CSS width in percent (clamped; NaN is 0). */
export function barWidth(ratio: number): string {
  const r = Number.isFinite(ratio) ? Math.max(0, Math.min(1, ratio)) : 0;
  return `${Math.round(r * 1000) / 10}%`;
}

/** A ratio as a short percentage for text: `7.3%`, `<0.1%` for anything above 0 that rounds to 0. */
export function percentText(ratio: number): string {
  const r = Number.isFinite(ratio) ? Math.max(0, Math.min(1, ratio)) : 0;
  if (r > 0 && r < 0.001) return '<0.1%';
  return `${Math.round(r * 1000) / 10}%`;
}

/** An entity's key for grouping and lookups: id, else EVM address (lower case), else its name. */
export function entityKey(e: EntityView): string {
  return e.id ?? e.evm?.toLowerCase() ?? e.name ?? '';
}

/** An entity as one short line: `Vault 0.0.1234`, `0.0.1234`, `0xabc…`, `(unknown)`. */
export function entityText(e: EntityView): string {
  const where = e.id ?? (e.evm ? shortHex(e.evm, 6, 4) : '');
  if (e.name && where) return `${e.name} ${where}`;
  return e.name || where || '(unknown)';
}

export interface StateGroup {
  contract: EntityView;
  changes: StateChangeView[];
  /** Some change of this contract is named by a storage layout (so one is known for it). */
  hasLayout: boolean;
}

/** State changes grouped by contract, in the order the contracts first appear. */
export function groupStateChanges(changes: readonly StateChangeView[]): StateGroup[] {
  const groups = new Map<string, StateGroup>();
  for (const c of changes) {
    const key = entityKey(c.contract);
    let g = groups.get(key);
    if (!g) {
      g = { contract: c.contract, changes: [], hasLayout: false };
      groups.set(key, g);
    }
    g.changes.push(c);
    if (c.variable || (c.variables && c.variables.length)) g.hasLayout = true;
  }
  return [...groups.values()];
}

/** Whether a tinybar amount (decimal string, maybe signed) is zero. */
export function isZero(amount: string | undefined): boolean {
  return !amount || /^[-+]?0*$/.test(amount);
}

/** What a trace row's call shows on one line: `transfer(to=0x…, amount=5)`, else the selector and the input's size. */
export function callText(row: Pick<TraceRow, 'call' | 'input'>): string {
  if (row.call)
    return `${row.call.name}(${row.call.args.map((a) => `${a.name ? `${a.name}=` : ''}${a.value}`).join(', ')})`;
  const bytes = hexBytes(row.input);
  if (!row.input || bytes === 0) return '';
  if (bytes === undefined) return row.input;
  return bytes >= 4 ? `${row.input.slice(0, 10)}… (${bytes} bytes)` : row.input;
}

/** What a trace row's result shows on one line: the error, the decoded output, or the raw result's size. */
export function resultText(row: Pick<TraceRow, 'error' | 'output' | 'resultRaw' | 'failed'>): string {
  if (row.error) return row.error.text;
  if (row.output && row.output.length)
    return row.output.map((v) => `${v.name ? `${v.name}=` : ''}${v.value}`).join(', ');
  const bytes = hexBytes(row.resultRaw);
  if (!row.resultRaw || bytes === 0) return row.failed ? '(reverted, no data)' : '';
  return bytes === undefined ? row.resultRaw : `${shortHex(row.resultRaw)} (${bytes} bytes)`;
}
