/**
 * A replay checked against the network's record: it is accepted as exact only when it reproduces what the mirror
 * node recorded, call by call (type, caller, recipient, input, result or revert data, gas used within
 * GAS_TOLERANCE), then the call's output or revert data, its logs and its state changes. The verdict says "matches
 * (N of N calls)" or names the first call where the replay diverged and why; the steps from that call's start on
 * are not exact (`exactSteps`). Plain TypeScript, no `vscode`. Never throws.
 */
import * as l10n from '@vscode/l10n';
import type { ContractAction, ContractResultDetails } from '../mirrorTypes';
import type { Execution } from './engine';
import type { ScheduleDiff } from './recorder';
import { entityOfLongZero, wholeOf, word32 } from './state';

/** Gas used by a call may differ from the record by this share (Hedera prices a few operations its own way: gasClose)… */
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

/**
 * The replay's gas used is the record's, on Hedera's gas schedule, within the tolerance. The replay charges
 * Ethereum's Cancun schedule, which is Hedera's today for everything a call frame's `gas_used` shows, except:
 *
 * - what Hedera charged less before its gas calculator followed Ethereum's again (`older`, ./recorder ScheduleDiff:
 *   the code deposit, EIP-3860 init code words, TLOAD / TSTORE): matched as any of them left out (then within the tolerance), since
 *   which release changed each is not in the record;
 * - a LOG: Hedera charges the larger of the EVM's price and a price of keeping the record for its lifetime (a
 *   constant from the fee schedule, below the EVM's 375 at today's prices); any excess is within the tolerance;
 * - the system contracts (0x167–0x16a) price their calls from the fee schedule: the replay charges what the record
 *   says they used, so their gas is exact;
 * - what is charged outside the call frames does not show in them: the intrinsic gas (the top frame's gas is the
 *   record's), the share of the gas limit charged when less was used (80%, before HIP-1249), the refunds.
 *
 * A divergence past these (a call that creates a hollow account, priced from the fee schedule) is said, not hidden.
 */
function gasClose(replay: unknown, recorded: unknown, older?: ScheduleDiff): boolean {
  const a = wholeOf(replay);
  const b = wholeOf(recorded);
  if (a === undefined || b === undefined) return b === undefined;
  const allowed = BigInt(Math.floor(Number(b) * GAS_TOLERANCE));
  const within = (x: bigint): boolean =>
    (x > b ? x - b : b - x) <= (allowed > GAS_TOLERANCE_MIN ? allowed : GAS_TOLERANCE_MIN);
  if (within(a)) return true;
  if (!older) return false;
  const parts = [older.deposit, older.initcode, older.transient].filter((p) => p > 0n);
  // every subset of what the older schedule did not charge, the empty one done above
  for (let m = 1; m < 1 << parts.length; m++) {
    let less = 0n;
    for (let k = 0; k < parts.length; k++) if (m & (1 << k)) less += parts[k];
    if (within(a - less)) return true;
  }
  return false;
}

const short = (h: unknown): string => {
  const s = typeof h === 'string' ? h : String(h);
  return s.length > 26 ? `${s.slice(0, 18)}…${s.slice(-6)}` : s;
};

/** Why a replayed action differs from the recorded one, or undefined when it matches. */
function actionDiff(r: ContractAction, rec: ContractAction, older?: ScheduleDiff): string | undefined {
  if (r.call_operation_type !== rec.call_operation_type)
    return l10n.t(
      'it is a {0} in the replay, a {1} in the record',
      String(r.call_operation_type),
      String(rec.call_operation_type),
    );
  // a system contract's call is SYSTEM in today's records, PRECOMPILE in older ones and in the replay
  const sameType = r.call_type === rec.call_type || (r.call_type === 'PRECOMPILE' && rec.call_type === 'SYSTEM');
  if (!sameType)
    return l10n.t('its call type is {0} in the replay, {1} in the record', String(r.call_type), String(rec.call_type));
  if (!sameParty(r.caller, lower(r.from), rec.caller, rec.from))
    return l10n.t(
      'its caller is {0} in the replay, {1} in the record',
      String(r.caller ?? r.from),
      String(rec.caller ?? rec.from),
    );
  if (!sameParty(r.recipient, lower(r.to), rec.recipient, rec.to))
    return l10n.t(
      'it calls {0} in the replay, {1} in the record',
      String(r.recipient ?? r.to ?? l10n.t('nothing')),
      String(rec.recipient ?? rec.to ?? l10n.t('nothing')),
    );
  if (!hexEq(r.input, rec.input))
    return l10n.t('its input differs ({0} replayed, {1} recorded)', short(r.input), short(rec.input));
  if (wholeOf(r.value) !== wholeOf(rec.value ?? 0))
    return l10n.t('its value differs ({0} replayed, {1} recorded)', String(r.value), String(rec.value));
  if (r.result_data_type !== rec.result_data_type)
    return l10n.t(
      'its result is {0} in the replay, {1} in the record',
      String(r.result_data_type),
      String(rec.result_data_type),
    );
  if (!hexEq(r.result_data, rec.result_data))
    return l10n.t('its result data differs ({0} replayed, {1} recorded)', short(r.result_data), short(rec.result_data));
  if (!gasClose(r.gas_used, rec.gas_used, older))
    return l10n.t(
      'it used {0} gas in the replay, {1} in the record (more than the {2}% tolerance)',
      String(r.gas_used),
      String(rec.gas_used),
      String(GAS_TOLERANCE * 100),
    );
  return undefined;
}

const describe = (i: number, a: ContractAction | undefined): string =>
  a
    ? l10n.t(
        'call {0} ({1} to {2})',
        String(i + 1),
        String(a.call_operation_type ?? a.call_type),
        String(a.recipient ?? a.to ?? l10n.t('a new contract')),
      )
    : l10n.t('call {0}', String(i + 1));

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
      summary: l10n.t(
        "The mirror node's record of this transaction is incomplete, so the replay cannot be checked against it; nothing in it is exact.",
      ),
    };
  const recorded = [...recordedActions].sort((a, b) => Number(wholeOf(a.index) ?? 0n) - Number(wholeOf(b.index) ?? 0n));
  // a block hash the mirror node served is an input the record cannot confirm: named when the replay diverges
  const read = ex.blockHashes ?? [];
  const blockHashNote = read.length
    ? ` ${l10n.t(
        'The replay read the hash of block {0} from the mirror node (BLOCKHASH).',
        [...new Set(read.map((b) => String(b.number)))].join(', '),
      )}`
    : '';
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
        (action >= 0
          ? l10n.t(
              "Replayed locally · diverges from the network's record at {0}: {1}. Nothing from there on is exact.",
              describe(action, ex.actions[action]),
              why,
            )
          : l10n.t("Replayed locally · diverges from the network's record: {0}. The trace is not exact.", why)) +
        blockHashNote,
    };
  };

  // divergences met while running come first where they happened
  const firstNote = [...ex.notes].sort((a, b) => a.step - b.step)[0];
  const noteVerdict = (matchedBefore: number): Verdict => ({
    ...diverge(firstNote.action, firstNote.why, matchedBefore),
    exactSteps: Math.min(firstNote.step, total),
  });
  const depthOf = (i: number): bigint => wholeOf(ex.actions[i]?.call_depth) ?? 0n;
  /**
   * A call that began as recorded but ended otherwise diverged because of what ran under it: the first divergence
   * under it (a note, else the first call that differs, itself searched the same way), if any.
   */
  const inner = (i: number, matchedBefore: number): Verdict | undefined => {
    let end = i + 1;
    while (end < ex.actions.length && depthOf(end) > depthOf(i)) end++;
    if (firstNote && firstNote.action > i && firstNote.action < end) return noteVerdict(matchedBefore);
    for (let j = i + 1; j < end && recorded[j]; j++) {
      const why = actionDiff(ex.actions[j], recorded[j], ex.olderSchedule?.[j]);
      if (why) return inner(j, matchedBefore + (j - i - 1)) ?? diverge(j, why, matchedBefore + (j - i - 1));
    }
    return undefined;
  };
  let matched = 0;
  if (calls > 0) {
    const n = Math.max(ex.actions.length, calls);
    for (let i = 0; i < n; i++) {
      if (firstNote && firstNote.action <= i) return noteVerdict(matched);
      const r = ex.actions[i];
      const rec = recorded[i];
      if (!r)
        return diverge(
          -1,
          l10n.t('the record has {0} calls, the replay made {1}', String(calls), String(ex.actions.length)),
          matched,
        );
      if (!rec)
        return diverge(
          i,
          l10n.t('the replay made {0} calls, the record has {1}', String(ex.actions.length), String(calls)),
          matched,
        );
      const why = actionDiff(r, rec, ex.olderSchedule?.[i]);
      if (why) return inner(i, matched) ?? diverge(i, why, matched);
      matched++;
    }
  }
  if (firstNote) return noteVerdict(matched);

  // the transaction's outcome, output, logs and state changes
  const recordedSuccess = record.result === 'SUCCESS' || (record.result == null && record.error_message == null);
  if (ex.success !== recordedSuccess)
    return diverge(
      -1,
      ex.success
        ? l10n.t('the replay succeeded, the network recorded {0}', String(record.result))
        : l10n.t('the replay failed, the network recorded {0}', String(record.result)),
      matched,
    );
  if (ex.success) {
    if (!hexEq(ex.output, record.call_result ?? '0x') && !(ex.output === '0x' && record.call_result == null))
      return diverge(
        -1,
        l10n.t('its output differs ({0} replayed, {1} recorded)', short(ex.output), short(record.call_result)),
        matched,
      );
  } else if (!ex.halt && !hexEq(ex.output, record.error_message)) {
    return diverge(
      -1,
      l10n.t('its revert data differs ({0} replayed, {1} recorded)', short(ex.output), short(record.error_message)),
      matched,
    );
  }
  const logs = Array.isArray(record.logs) ? record.logs : [];
  if (logs.length !== ex.logs.length)
    return diverge(
      -1,
      l10n.t('the replay emitted {0} logs, the record has {1}', String(ex.logs.length), String(logs.length)),
      matched,
    );
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
      return diverge(-1, l10n.t('log {0} differs from the recorded one', String(i + 1)), matched);
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
        l10n.t(
          'the replay touched slot {0} of {1}, which the record does not list',
          c.slot,
          String(c.contract_id ?? c.address),
        ),
        matched,
      );
    const written = c.value_written === null ? null : word32(c.value_written);
    if (rec.written !== written)
      return diverge(
        -1,
        l10n.t(
          'the replay wrote {0} to slot {1} of {2}, the record has {3}',
          written ?? l10n.t('nothing'),
          c.slot,
          String(c.contract_id ?? c.address),
          rec.written ?? l10n.t('nothing'),
        ),
        matched,
      );
    recChanges.delete(key(c.address, c.slot));
  }
  if (recChanges.size > 0) {
    const [k] = recChanges.keys();
    const [address, slot] = k.split('|');
    return diverge(
      -1,
      l10n.t('the record lists slot {0} of {1}, which the replay did not touch', slot, address),
      matched,
    );
  }
  const callsText =
    calls > 0
      ? l10n.t('{0} of {1} calls', String(calls), String(calls))
      : l10n.t('the record has no call frames; result, logs and state changes');
  return {
    matches: true,
    checked: true,
    calls,
    matchedCalls: matched,
    exactSteps: total,
    summary:
      l10n.t("Replayed locally · matches the network's record ({0}).", callsText) +
      (ex.readsBalance
        ? ` ${l10n.t('It read a balance, which the mirror node gives as of its last balance snapshot.')}`
        : ''),
  };
}
