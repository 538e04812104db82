/**
 * A replay checked against the network's record: it is accepted as exact only when it reproduces what the mirror
 * node recorded, call by call (type, caller, recipient, input, result or revert data, gas used within
 * GAS_TOLERANCE), then the call's output or revert data, its logs and its state changes. The verdict says "matches
 * (N of N calls)" or names the first call where the replay diverged and why; the steps from that call's start on
 * are not exact (`exactSteps`). Plain TypeScript, no `vscode`. Never throws.
 */
import type { ContractAction, ContractResultDetails } from '../mirrorTypes';
import type { Execution } from './engine';
import { entityOfLongZero, wholeOf, word32 } from './state';

/** Gas used by a call may differ from the record by this share (Hedera prices a few operations its own way)… */
export const GAS_TOLERANCE = 0.05;
/** …or by this much, whichever is more. */
export const GAS_TOLERANCE_MIN = 100n;

export interface Verdict {
  /** Every check passed. */
  matches: boolean;
  /** The record could be checked at all (false: incomplete record; nothing is exact). */
  checked: boolean;
  /** Calls in the record, and how many matched before the first divergence. */
  calls: number;
  matchedCalls: number;
  /** The first divergence: the replay's action index (-1: the transaction as a whole) and why. */
  divergence?: { action: number; why: string };
  /** How many steps of the trace, from the start, are exact (all of them when it matches). */
  exactSteps: number;
  /** One sentence for the user. */
  summary: string;
}

const lower = (s: unknown): string => (typeof s === 'string' ? s.toLowerCase() : '');
const hexEq = (a: unknown, b: unknown): boolean => lower(a).replace(/^0x/, '') === lower(b).replace(/^0x/, '');

/** Two references to the same entity: equal entity ids, or addresses that are the same or encode it. */
function sameParty(
  replayEntity: string | null,
  replayAddress: string | null,
  recEntity: unknown,
  recAddress: unknown,
): boolean {
  if (replayEntity && typeof recEntity === 'string' && replayEntity === recEntity) return true;
  const ra = lower(recAddress);
  if (replayAddress && ra && ra === replayAddress) return true;
  const le = ra ? entityOfLongZero(ra) : null;
  if (le && replayEntity && le === replayEntity) return true;
  return !replayEntity && !replayAddress && recEntity == null && recAddress == null;
}

function gasClose(replay: unknown, recorded: unknown): boolean {
  const a = wholeOf(replay);
  const b = wholeOf(recorded);
  if (a === undefined || b === undefined) return b === undefined;
  const diff = a > b ? a - b : b - a;
  const allowed = BigInt(Math.floor(Number(b) * GAS_TOLERANCE));
  return diff <= (allowed > GAS_TOLERANCE_MIN ? allowed : GAS_TOLERANCE_MIN);
}

const short = (h: unknown): string => {
  const s = typeof h === 'string' ? h : String(h);
  return s.length > 26 ? `${s.slice(0, 18)}…${s.slice(-6)}` : s;
};

/** Why a replayed action differs from the recorded one, or undefined when it matches. */
function actionDiff(r: ContractAction, rec: ContractAction): string | undefined {
  if (r.call_operation_type !== rec.call_operation_type)
    return `it is a ${r.call_operation_type} in the replay, a ${String(rec.call_operation_type)} in the record`;
  if (r.call_type !== rec.call_type)
    return `its call type is ${r.call_type} in the replay, ${String(rec.call_type)} in the record`;
  if (!sameParty(r.caller, lower(r.from), rec.caller, rec.from))
    return `its caller is ${r.caller ?? r.from} in the replay, ${String(rec.caller ?? rec.from)} in the record`;
  if (!sameParty(r.recipient, lower(r.to), rec.recipient, rec.to))
    return `it calls ${r.recipient ?? r.to ?? 'nothing'} in the replay, ${String(rec.recipient ?? rec.to ?? 'nothing')} in the record`;
  if (!hexEq(r.input, rec.input)) return `its input differs (${short(r.input)} replayed, ${short(rec.input)} recorded)`;
  if (wholeOf(r.value) !== wholeOf(rec.value ?? 0))
    return `its value differs (${String(r.value)} replayed, ${String(rec.value)} recorded)`;
  if (r.result_data_type !== rec.result_data_type)
    return `its result is ${r.result_data_type} in the replay, ${String(rec.result_data_type)} in the record`;
  if (!hexEq(r.result_data, rec.result_data))
    return `its result data differs (${short(r.result_data)} replayed, ${short(rec.result_data)} recorded)`;
  if (!gasClose(r.gas_used, rec.gas_used))
    return `it used ${String(r.gas_used)} gas in the replay, ${String(rec.gas_used)} in the record (more than the ${GAS_TOLERANCE * 100}% tolerance)`;
  return undefined;
}

const describe = (i: number, a: ContractAction | undefined): string =>
  a
    ? `call ${i + 1} (${a.call_operation_type ?? a.call_type} to ${a.recipient ?? a.to ?? 'a new contract'})`
    : `call ${i + 1}`;

/** Checks a replay against its record (see the module comment). */
export function checkReplay(
  ex: Execution,
  record: ContractResultDetails,
  recordedActions: readonly ContractAction[],
  partial: boolean,
): Verdict {
  const calls = recordedActions.length;
  const total = ex.opcodes.opcodes.length;
  if (partial)
    return {
      matches: false,
      checked: false,
      calls,
      matchedCalls: 0,
      exactSteps: 0,
      summary:
        "The mirror node's record of this transaction is incomplete, so the replay cannot be checked against it; nothing in it is exact.",
    };
  const recorded = [...recordedActions].sort((a, b) => Number(wholeOf(a.index) ?? 0n) - Number(wholeOf(b.index) ?? 0n));
  const diverge = (action: number, why: string, matched: number): Verdict => {
    const start = action >= 0 ? (ex.actionStart[action] ?? 0) : 0;
    return {
      matches: false,
      checked: true,
      calls,
      matchedCalls: matched,
      divergence: { action, why },
      exactSteps: Math.min(start, total),
      summary:
        action >= 0
          ? `Replayed locally · diverges from the network's record at ${describe(action, ex.actions[action])}: ${why}. Nothing from there on is exact.`
          : `Replayed locally · diverges from the network's record: ${why}. The trace is not exact.`,
    };
  };

  // divergences met while running come first where they happened
  const firstNote = [...ex.notes].sort((a, b) => a.step - b.step)[0];
  let matched = 0;
  if (calls > 0) {
    const n = Math.max(ex.actions.length, calls);
    for (let i = 0; i < n; i++) {
      if (firstNote && firstNote.action <= i)
        return { ...diverge(firstNote.action, firstNote.why, matched), exactSteps: Math.min(firstNote.step, total) };
      const r = ex.actions[i];
      const rec = recorded[i];
      if (!r) return diverge(-1, `the record has ${calls} calls, the replay made ${ex.actions.length}`, matched);
      if (!rec) return diverge(i, `the replay made ${ex.actions.length} calls, the record has ${calls}`, matched);
      const why = actionDiff(r, rec);
      if (why) return diverge(i, why, matched);
      matched++;
    }
  }
  if (firstNote)
    return { ...diverge(firstNote.action, firstNote.why, matched), exactSteps: Math.min(firstNote.step, total) };

  // the transaction's outcome, output, logs and state changes
  const recordedSuccess = record.result === 'SUCCESS' || (record.result == null && record.error_message == null);
  if (ex.success !== recordedSuccess)
    return diverge(
      -1,
      `the replay ${ex.success ? 'succeeded' : 'failed'}, the network recorded ${String(record.result)}`,
      matched,
    );
  if (ex.success) {
    if (!hexEq(ex.output, record.call_result ?? '0x') && !(ex.output === '0x' && record.call_result == null))
      return diverge(
        -1,
        `its output differs (${short(ex.output)} replayed, ${short(record.call_result)} recorded)`,
        matched,
      );
  } else if (!ex.halt && !hexEq(ex.output, record.error_message)) {
    return diverge(
      -1,
      `its revert data differs (${short(ex.output)} replayed, ${short(record.error_message)} recorded)`,
      matched,
    );
  }
  const logs = Array.isArray(record.logs) ? record.logs : [];
  if (logs.length !== ex.logs.length)
    return diverge(-1, `the replay emitted ${ex.logs.length} logs, the record has ${logs.length}`, matched);
  for (let i = 0; i < logs.length; i++) {
    const l = logs[i];
    const r = ex.logs[i];
    const sameAddress =
      lower(l.address) === r.address ||
      (entityOfLongZero(lower(l.address)) !== null &&
        entityOfLongZero(lower(l.address)) === entityOfLongZero(r.address)) ||
      (typeof l.contract_id === 'string' && entityOfLongZero(r.address) === l.contract_id);
    const topics = Array.isArray(l.topics) ? l.topics : [];
    if (
      !sameAddress ||
      topics.length !== r.topics.length ||
      topics.some((t, k) => word32(String(t)) !== word32(r.topics[k])) ||
      !hexEq(l.data, r.data)
    )
      return diverge(-1, `log ${i + 1} differs from the recorded one`, matched);
  }
  const key = (address: string, slot: string): string => `${address.toLowerCase()}|${word32(slot)}`;
  const recChanges = new Map<string, { read: string; written: string | null }>();
  for (const c of Array.isArray(record.state_changes) ? record.state_changes : [])
    if (c && typeof c.address === 'string' && typeof c.slot === 'string')
      recChanges.set(key(c.address, c.slot), {
        read: word32(String(c.value_read ?? '0')),
        written: c.value_written == null ? null : word32(String(c.value_written)),
      });
  for (const c of ex.stateChanges) {
    const rec = recChanges.get(key(c.address, c.slot));
    if (!rec)
      return diverge(
        -1,
        `the replay touched slot ${c.slot} of ${c.contract_id ?? c.address}, which the record does not list`,
        matched,
      );
    const written = c.value_written === null ? null : word32(c.value_written);
    if (rec.written !== written)
      return diverge(
        -1,
        `the replay wrote ${written ?? 'nothing'} to slot ${c.slot} of ${c.contract_id ?? c.address}, the record has ${rec.written ?? 'nothing'}`,
        matched,
      );
    recChanges.delete(key(c.address, c.slot));
  }
  if (recChanges.size > 0) {
    const [k] = recChanges.keys();
    const [address, slot] = k.split('|');
    return diverge(-1, `the record lists slot ${slot} of ${address}, which the replay did not touch`, matched);
  }
  const callsText =
    calls > 0 ? `${calls} of ${calls} calls` : 'the record has no call frames; result, logs and state changes';
  return {
    matches: true,
    checked: true,
    calls,
    matchedCalls: matched,
    exactSteps: total,
    summary: `Replayed locally · matches the network's record (${callsText}).${ex.readsBalance ? ' It read a balance, which the mirror node gives as of its last balance snapshot.' : ''}`,
  };
}
