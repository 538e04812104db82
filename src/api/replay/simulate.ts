/**
 * A simulated call (the mirror node's `POST /contracts/call`: no transaction, so no record) run again on the local
 * replay's engine (./engine), to show its call trace, events and state changes. What it reads instead of a record:
 *
 * - the block chosen (`latest`: `/blocks?order=desc&limit=1`; a past one: `/blocks/{number}`): the state is the one
 *   at its end (every request asks `timestamp=lt:` one nanosecond past its last timestamp);
 * - the contract, the accounts and the storage slots the EVM meets, lazily, as a replay does (./state);
 * - the call as a message: the chosen sender (the zero address when none, as the mirror node does), the value in
 *   tinybars, the call data, the mirror node's default gas (15,000,000).
 *
 * Hedera's system contracts (0x167…) answer a replay from the record; a simulation has none, so a call to one is
 * said at that call (a note) and the run is not exact from there on: never a guessed answer. The run is checked
 * against what the mirror node answered (`checkSimulation`): the output or the revert data, and the gas estimate
 * within the replay's tolerance. Plain TypeScript, no `vscode`.
 */
import * as l10n from '@vscode/l10n';
import type { HttpClient } from '../http';
import type { MirrorClient } from '../mirror';
import type { ContractResultDetails } from '../mirrorTypes';
import { GAS_TOLERANCE, GAS_TOLERANCE_MIN, type Verdict } from './check';
import {
  type Execution,
  intrinsicGas,
  type ReplayOptions,
  type Replayed,
  SYSTEM_CONTRACTS,
  replayRecord,
} from './engine';
import { ReplayError, entityOfLongZero, longZeroOf, wholeOf } from './state';

/** The mirror node's gas for a call that names none. */
export const SIMULATION_GAS = 15_000_000n;
const ZERO = '0x0000000000000000000000000000000000000000';
const ADDRESS = /^0x[0-9a-f]{40}$/;

export interface SimulationCall {
  /** The contract's EVM address. */
  to: string;
  /** Its entity id, when known. */
  contractId?: string;
  /** Call data (hex). */
  data: string;
  /** The sender: an EVM address or an entity id; none: the zero address. */
  from?: string;
  /** Tinybars sent. */
  value?: bigint;
  block: 'latest' | bigint;
  gas?: bigint;
}

/** What `POST /contracts/call` answered: the output (and the gas estimate, when asked), or the revert data. */
export type SimulationAnswer = { kind: 'result'; result: string; estimate?: bigint } | { kind: 'failed'; data: string };

export interface Simulated extends Replayed {
  /** The block whose state was read: its number and the consensus timestamp the state is read before. */
  block: { number: bigint; before: string };
  /** The sender's EVM address as the run used it. */
  sender: string;
  /** The call as a contract result would show it, with the run's logs and state changes (for the inspector). */
  result: ContractResultDetails;
}

const isObject = (v: unknown): v is Record<string, unknown> => !!v && typeof v === 'object' && !Array.isArray(v);

/** One nanosecond past `sss.nnnnnnnnn`. */
function justAfter(ts: string): string {
  const [s, n] = ts.split('.');
  const t = BigInt(s) * 1_000_000_000n + BigInt(n) + 1n;
  return `${t / 1_000_000_000n}.${(t % 1_000_000_000n).toString().padStart(9, '0')}`;
}

/** The block's number and last timestamp (`/blocks/{n}`, or the latest). */
async function blockOf(
  mirror: MirrorClient,
  http: HttpClient,
  block: 'latest' | bigint,
  signal?: AbortSignal,
): Promise<{ number: bigint; to: string }> {
  const what = block === 'latest' ? l10n.t('the latest block') : l10n.t('block {0}', String(block));
  let body: unknown;
  try {
    const res = await http.get<unknown>(
      block === 'latest' ? mirror.apiUrl('/blocks', 'order=desc&limit=1') : mirror.apiUrl(`/blocks/${block}`, ''),
      { signal, acceptStatus: [404] },
    );
    body = res.status === 404 ? null : res.data;
  } catch (e) {
    throw new ReplayError(
      l10n.t('The mirror node could not give {0}: {1}', what, e instanceof Error ? e.message : String(e)),
      signal?.aborted ? 'cancelled' : 'mirror',
      e,
    );
  }
  const b = block === 'latest' && isObject(body) && Array.isArray(body.blocks) ? body.blocks[0] : body;
  const number = isObject(b) ? wholeOf(b.number) : undefined;
  const to = isObject(b) && isObject(b.timestamp) ? b.timestamp.to : undefined;
  if (number === undefined || typeof to !== 'string' || !/^\d{1,12}\.\d{9}$/.test(to))
    throw new ReplayError(l10n.t('The mirror node has no {0} with a number and a timestamp.', what), 'mirror');
  return { number, to };
}

/**
 * The HTTP client the engine reads through, with one difference: the sender, when the mirror node knows no account
 * with its address (the zero address, an address never used), is an account with no balance, no nonce and no code,
 * as the mirror node's own simulation takes it.
 */
function withUnknownSender(http: HttpClient, sender: string): HttpClient {
  const senderPath = `/accounts/${sender}?`;
  return new Proxy(http, {
    get(target, p, receiver) {
      if (p !== 'get') return Reflect.get(target, p, receiver) as unknown;
      return async (url: string, options?: Parameters<HttpClient['get']>[1]) => {
        const res = await target.get<unknown>(url, options);
        if (res.status !== 404 || !url.includes(senderPath)) return res;
        return { ...res, status: 200, data: { evm_address: sender, balance: { balance: 0 }, ethereum_nonce: 0 } };
      };
    },
  });
}

/** Runs a simulated call locally (see the module comment); a ReplayError says why it could not. */
export async function simulateCall(
  mirror: MirrorClient,
  http: HttpClient,
  call: SimulationCall,
  options: ReplayOptions = {},
): Promise<Simulated> {
  const to = call.to.toLowerCase();
  if (!ADDRESS.test(to)) throw new ReplayError(l10n.t('The simulated call names no contract address.'), 'malformed');
  const fromRaw = (call.from ?? '').trim().toLowerCase();
  const sender = !fromRaw ? ZERO : ADDRESS.test(fromRaw) ? fromRaw : longZeroOf(fromRaw);
  if (!sender) throw new ReplayError(l10n.t('The sender {0} is not an address.', fromRaw.slice(0, 60)), 'malformed');
  const block = await blockOf(mirror, http, call.block, options.signal);
  const before = justAfter(block.to);
  const gas = call.gas ?? SIMULATION_GAS;
  const value = call.value ?? 0n;
  const base = {
    from: sender,
    to,
    address: to,
    contract_id: call.contractId ?? null,
    function_parameters: call.data,
    amount: value.toString(),
    gas_limit: gas.toString(),
    block_number: block.number.toString(),
    block_hash: null,
    hash: null,
    nonce: null,
  };
  const record = { ...base, timestamp: before, state_changes: [], logs: [] } as unknown as ContractResultDetails;
  const replayed = await replayRecord(
    mirror,
    withUnknownSender(http, sender),
    { record, partial: false, actions: [] },
    options,
  );
  replayed.stats.requests += 1;
  const x = replayed.execution;
  x.notes = simulationNotes(x);
  const failed = !x.success;
  // a log's contract: the entity the run knew the address as (the contract called, a slot's owner, a long-zero one)
  const entities = new Map<string, string | null>([[to, x.opcodes.contract_id ?? call.contractId ?? null]]);
  for (const c of x.stateChanges) if (c.contract_id) entities.set(c.address.toLowerCase(), c.contract_id);
  const result = {
    ...base,
    // no transaction: no consensus timestamp of its own
    timestamp: null,
    result: !failed ? 'SUCCESS' : x.halt ? 'CONTRACT_EXECUTION_EXCEPTION' : 'CONTRACT_REVERT_EXECUTED',
    status: failed ? '0x0' : '0x1',
    call_result: x.output,
    error_message: failed ? x.output : null,
    gas_used: (x.gasUsed + intrinsicGas(call.data, false)).toString(),
    logs: x.logs.map((l, index) => ({
      address: l.address,
      contract_id: entities.get(l.address.toLowerCase()) ?? entityOfLongZero(l.address),
      data: l.data,
      topics: l.topics,
      index,
      bloom: null,
    })),
    state_changes: x.stateChanges,
  } as unknown as ContractResultDetails;
  return { ...replayed, block: { number: block.number, before }, sender, result };
}

/**
 * A simulation's notes: a slot read from the mirror node is how it reads its state (a replay notes a slot its record
 * does not list; a simulation has no list), so those are dropped; a call to a system contract is said as what it is.
 */
function simulationNotes(x: Execution): Execution['notes'] {
  const out: Execution['notes'] = [];
  for (const n of x.notes) {
    const op = x.opcodes.opcodes[n.step]?.op;
    const action = x.actions[n.action];
    const system = action && typeof action.to === 'string' ? SYSTEM_CONTRACTS[action.to.toLowerCase()] : undefined;
    if (system)
      out.push({
        ...n,
        why: l10n.t(
          'The simulation calls the system contract {0}: without a transaction record its answer cannot be known, so nothing from this call on is exact.',
          system,
        ),
      });
    else if (op !== 'SLOAD' && op !== 'SSTORE') out.push(n);
  }
  return out;
}

/** Hex equal, whatever the case. */
const sameHex = (a: string, b: string): boolean => a.toLowerCase() === b.toLowerCase();

/**
 * The local run checked against the mirror node's answer: the same success or failure, the same output or revert
 * data, the gas estimate within GAS_TOLERANCE of the gas the run used with the intrinsic gas, and nothing the run
 * could not know (a system contract's answer). Never throws.
 */
export function checkSimulation(x: Execution, data: string, answer: SimulationAnswer): Verdict {
  const calls = x.actions.length;
  const steps = x.opcodes.opcodes.length;
  const differs = (why: string, action = -1, exactSteps = 0): Verdict => ({
    matches: false,
    checked: true,
    calls,
    matchedCalls: action >= 0 ? action : 0,
    divergence: { action, why },
    exactSteps,
    summary: l10n.t("The local run differs from the mirror node's answer: {0}", why),
  });
  const note = x.notes[0];
  if (note) return differs(note.why, note.action, note.step);
  if (answer.kind === 'result') {
    if (!x.success)
      return differs(l10n.t('it failed locally ({0}); the mirror node returned a result', x.halt ?? 'REVERT'));
    if (!sameHex(x.output, answer.result))
      return differs(l10n.t('it returned {0} locally, {1} on the mirror node', short(x.output), short(answer.result)));
    if (answer.estimate !== undefined) {
      const used = x.gasUsed + intrinsicGas(data, false);
      const allowed = BigInt(Math.floor(Number(answer.estimate) * GAS_TOLERANCE));
      const off = used > answer.estimate ? used - answer.estimate : answer.estimate - used;
      if (off > (allowed > GAS_TOLERANCE_MIN ? allowed : GAS_TOLERANCE_MIN))
        return differs(
          l10n.t('it used {0} gas locally; the mirror node estimates {1}', used.toString(), answer.estimate.toString()),
        );
    }
  } else {
    if (x.success) return differs(l10n.t('it succeeded locally; the mirror node says it reverts'));
    if (!sameHex(x.output, answer.data))
      return differs(
        l10n.t('its revert data is {0} locally, {1} on the mirror node', short(x.output), short(answer.data)),
      );
  }
  return {
    matches: true,
    checked: true,
    calls,
    matchedCalls: calls,
    exactSteps: steps,
    summary: l10n.t("The local run matches the mirror node's answer ({0} calls).", String(calls)),
  };
}

const short = (h: string): string => (h.length > 26 ? `${h.slice(0, 18)}…${h.slice(-6)}` : h);
