/**
 * Replays a past contract call or creation on @ethereumjs/evm against the state the mirror node records just
 * before it, and checks the replay against the network's record (./check). What it reads:
 *
 * - the record (`/contracts/results/{id}`: sender, contract, call data or init code, value, gas, block, logs, and
 *   `state_changes`, whose `value_read` is the storage of every slot the transaction touched before it ran) and its
 *   call frames (`…/actions`);
 * - the accounts and contracts it meets (`/accounts/{id}?timestamp=lt:T`, `/contracts/{id}`), and any slot the record
 *   does not list (`/contracts/{id}/state?timestamp=lt:T&slot=S`), each lazily, once (./state); the block
 *   (`/blocks/{number}`: `block.number`, and `block.timestamp` from its first timestamp), and the blocks BLOCKHASH
 *   asks for (the 256 before it; the first 32 bytes of Hedera's 48-byte hash);
 * - Hedera's system contracts (0x167 token service, 0x168 exchange rate, 0x169 PRNG, 0x16a account service): their
 *   answers are the recorded actions' `result_data`, in order, with the gas they recorded;
 * - a token's own address (an HIP-218 facade, ./facade): the redirect code Hedera runs there, whose DELEGATECALL to
 *   0x167 is answered as the other system contract calls are.
 *
 * Hedera's EVM as the record shows it: values and balances in tinybars; a sender with an EVM alias calls as its alias;
 * a contract runs at its own EVM address; the top frame has the gas its action recorded (the limit less the
 * intrinsic gas). Bounded: a step budget, a time budget, a request cap, and the caller's AbortSignal.
 * Plain TypeScript, no `vscode`.
 */
import * as l10n from '@vscode/l10n';
import { Common, Hardfork, Mainnet } from '@ethereumjs/common';
import { EVMError, createEVM, type EVM, type ExecResult } from '@ethereumjs/evm';
import { SimpleStateManager } from '@ethereumjs/statemanager';
import { Account, type Address, bytesToHex, createAddressFromString, hexToBytes } from '@ethereumjs/util';
import { keccak_256 } from '@noble/hashes/sha3.js';
import type { HttpClient } from '../http';
import type { MirrorClient } from '../mirror';
import type { ContractAction, ContractLog, ContractResultDetails, Opcode } from '../mirrorTypes';
import {
  ReplayRecorder,
  type ScheduleDiff,
  type TraceOptions,
  blockHashSource,
  evmBlock,
  haltName,
  toHex,
} from './recorder';
import {
  type AccountState,
  type FetchStats,
  MirrorState,
  ReplayError,
  entityOfLongZero,
  longZeroOf,
  wholeOf,
  word32,
} from './state';
import { cpuUsage } from '../platform/node';
import { facadesOfRecord, redirectedToken, tokenRedirectCode } from './facade';

/** Hedera's system contracts, answered from the record. */
export const SYSTEM_CONTRACTS: Record<string, string> = {
  '0x0000000000000000000000000000000000000167': '0.0.359',
  '0x0000000000000000000000000000000000000168': '0.0.360',
  '0x0000000000000000000000000000000000000169': '0.0.361',
  '0x000000000000000000000000000000000000016a': '0.0.362',
};
const STANDARD_PRECOMPILES = Array.from({ length: 10 }, (_, i) => `0x${(i + 1).toString(16).padStart(40, '0')}`);
const ZERO = '0x0000000000000000000000000000000000000000';

export interface ReplayOptions {
  signal?: AbortSignal;
  /** Most opcodes executed (default 1,000,000). */
  maxSteps?: number;
  /** Most milliseconds of wall time (default 60,000). */
  maxMs?: number;
  /** Most requests to the mirror node (default 500). */
  maxRequests?: number;
  /** Requests in flight at once (default 4). */
  parallel?: number;
  /** What each step of the trace carries besides pc, op and gas (the debugger asks for stack, memory and storage). */
  trace?: TraceOptions;
}

export interface ReplayLog {
  address: string;
  topics: string[];
  data: string;
}

export interface ReplayStateChange {
  address: string;
  contract_id: string | null;
  slot: string;
  value_read: string;
  value_written: string | null;
}

/** A divergence noticed while running (before the comparison with the record). */
export interface RunNote {
  /** Index of the replay's action where it happened. */
  action: number;
  /** Index in the step trace where it happened. */
  step: number;
  why: string;
}

/** The replay itself, in the mirror node's shapes. */
export interface Execution {
  success: boolean;
  /** Return data, or revert data (hex). */
  output: string;
  /** The halt reason's name when the top frame halted (not a revert). */
  halt?: string;
  /** The step trace, as `/opcodes` answers it (`OpcodesResponse`). */
  opcodes: {
    address: string | null;
    contract_id: string | null;
    failed: boolean;
    gas: number;
    opcodes: Opcode[];
    return_value: string;
  };
  actions: ContractAction[];
  /** For each action, the index in the step trace where its frame began. */
  actionStart: number[];
  logs: ReplayLog[];
  stateChanges: ReplayStateChange[];
  /** Gas the top frame used (the record's top action's `gas_used`). */
  gasUsed: bigint;
  /** Divergences seen while running: a slot the record does not list, a system contract call it does not have. */
  notes: RunNote[];
  /** A BALANCE or SELFBALANCE ran: the mirror node's balances are those of its last snapshot before the time. */
  readsBalance: boolean;
  /** The block hashes BLOCKHASH read from the mirror node, in the order read. */
  blockHashes: BlockHashRead[];
  /** For each action, the gas it charged that Hedera's older gas schedule did not (./recorder). */
  olderSchedule: ScheduleDiff[];
}

/** A block hash the replay read: the block and the 32 bytes the EVM saw. */
export interface BlockHashRead {
  number: bigint;
  hash: string;
}

export interface ReplayInput {
  record: ContractResultDetails;
  /** The record is a 206: incomplete. */
  partial: boolean;
  actions: ContractAction[];
}

export interface Replayed {
  input: ReplayInput;
  execution: Execution;
  stats: FetchStats & { steps: number; cpuMs: number };
}

const lower = (s: string): string => s.toLowerCase();
/** A system contract's action: SYSTEM in today's records, PRECOMPILE in older ones. */
const isSystemType = (t: unknown): boolean => t === 'PRECOMPILE' || t === 'SYSTEM';
const isHex = (s: unknown): s is string => typeof s === 'string' && /^0x([0-9a-fA-F]{2})*$/.test(s);

/** Intrinsic gas: 21,000 (53,000 for a create), 4 per zero byte, 16 per other byte of data. */
export function intrinsicGas(data: string, create: boolean): bigint {
  const h = data.replace(/^0x/, '');
  let g = create ? 53_000n : 21_000n;
  for (let i = 0; i + 1 < h.length; i += 2) g += h[i] === '0' && h[i + 1] === '0' ? 4n : 16n;
  return g;
}

/** Bytes without leading zeros (empty for zero), as @ethereumjs/evm stores a storage value. */
function storageBytes(word: string): Uint8Array {
  const h = word.replace(/^0x/, '').replace(/^(00)+/, '');
  return h === '' ? new Uint8Array(0) : hexToBytes(`0x${h.length % 2 ? `0${h}` : h}`);
}

/** The mirror node's state, fetched as the EVM asks for it (see ./state). Loaded values go into every checkpoint. */
class LazyState extends SimpleStateManager {
  private readonly loadedAccounts = new Set<string>();
  private readonly loadedSlots = new Set<string>();

  constructor(
    private readonly source: {
      account: (address: string) => Promise<AccountState | null>;
      slot: (address: string, slot: string) => Promise<string>;
    },
  ) {
    super();
  }

  private async load(address: Address): Promise<void> {
    const key = address.toString();
    if (this.loadedAccounts.has(key)) return;
    this.loadedAccounts.add(key);
    const a = await this.source.account(key);
    if (!a) return;
    const code = a.code ? hexToBytes(`0x${a.code}`) : new Uint8Array(0);
    const account = new Account(a.nonce, a.balance, undefined, code.length ? keccak_256(code) : undefined);
    for (const m of this.accountStack) if (!m.has(key)) m.set(key, account);
    if (code.length) for (const m of this.codeStack) if (!m.has(key)) m.set(key, code);
  }

  override async getAccount(address: Address): Promise<Account | undefined> {
    await this.load(address);
    return super.getAccount(address);
  }

  override async getCode(address: Address): Promise<Uint8Array> {
    await this.load(address);
    return super.getCode(address);
  }

  override async getStorage(address: Address, key: Uint8Array): Promise<Uint8Array> {
    const id = `${address.toString()}_${bytesToHex(key)}`;
    if (!this.loadedSlots.has(id)) {
      this.loadedSlots.add(id);
      const v = storageBytes(await this.source.slot(address.toString(), bytesToHex(key)));
      for (const m of this.storageStack) if (!m.has(id)) m.set(id, v);
    }
    return super.getStorage(address, key);
  }

  /** Sets an account before the run (the sender, whose nonce the record gives). */
  preset(address: string, account: Account, code?: Uint8Array): void {
    const key = address as `0x${string}`;
    this.loadedAccounts.add(key);
    for (const m of this.accountStack) m.set(key, account);
    if (code?.length) for (const m of this.codeStack) m.set(key, code);
  }
}

/** Reads a transaction's record and call frames (the two requests every replay makes). */
export async function readRecord(
  mirror: MirrorClient,
  ref: string,
  signal?: AbortSignal,
): Promise<ReplayInput & { requests: number }> {
  let details;
  let actions;
  try {
    [details, actions] = await Promise.all([
      mirror.contractResultDetails(ref, {}, { signal }),
      mirror.contractActions(ref, { signal }, { max: 20_000 }),
    ]);
  } catch (e) {
    throw new ReplayError(
      l10n.t(
        "The mirror node could not give the transaction's record: {0}",
        e instanceof Error ? e.message : String(e),
      ),
      signal?.aborted ? 'cancelled' : 'mirror',
      e,
    );
  }
  if (!details) throw new ReplayError(l10n.t('The mirror node has no contract result for this transaction.'), 'mirror');
  if (actions?.truncated || actions?.stopped)
    throw new ReplayError(
      actions.stopped ?? l10n.t('The transaction has more call frames than a replay reads ({0}).', '20,000'),
      'unsupported',
    );
  return {
    record: details.value,
    partial: details.partial,
    actions: actions?.actions ?? [],
    requests: 1 + (actions?.pages ?? 1),
  };
}

/** Replays a transaction (see the module comment): its record is read, then run. */
export async function replayTransaction(
  mirror: MirrorClient,
  http: HttpClient,
  ref: string,
  options: ReplayOptions = {},
): Promise<Replayed> {
  const input = await readRecord(mirror, ref, options.signal);
  const r = await replayRecord(mirror, http, input, options);
  r.stats.requests += input.requests;
  return r;
}

/** Runs a record already read (the caller made its requests). */
export async function replayRecord(
  mirror: MirrorClient,
  http: HttpClient,
  input: ReplayInput,
  options: ReplayOptions = {},
): Promise<Replayed> {
  const started = Date.now();
  const cpu0 = cpuUsage();
  const { record, actions } = input;
  const timestamp = record.timestamp;
  if (typeof timestamp !== 'string' || !/^\d{1,12}\.\d{9}$/.test(timestamp))
    throw new ReplayError(l10n.t('The record has no consensus timestamp to replay at.'), 'malformed');
  const state = new MirrorState(mirror, http, timestamp, {
    signal: options.signal,
    maxRequests: options.maxRequests,
    parallel: options.parallel,
  });
  const notes: RunNote[] = [];

  // the storage every touched slot held before the transaction
  for (const c of Array.isArray(record.state_changes) ? record.state_changes : []) {
    if (!c || typeof c.address !== 'string' || typeof c.slot !== 'string' || typeof c.value_read !== 'string')
      throw new ReplayError(
        l10n.t('A state change of the record is not an address, a slot and a value read.'),
        'malformed',
      );
    if (
      !/^0x[0-9a-fA-F]{40}$/.test(c.address) ||
      !/^0x[0-9a-fA-F]{1,64}$/.test(c.slot) ||
      !/^0x[0-9a-fA-F]{1,64}$/.test(c.value_read)
    )
      throw new ReplayError(
        l10n.t('A state change of the record has a malformed address, slot or value.'),
        'malformed',
      );
    state.seedSlot(c.address, c.slot, c.value_read);
  }

  // what the EVM runs: the top action, else the record's own fields
  const sorted = [...actions].sort((a, b) => Number(wholeOf(a.index) ?? 0n) - Number(wholeOf(b.index) ?? 0n));
  const top = sorted.find((a) => wholeOf(a.call_depth) === 0n);
  const create =
    top?.call_operation_type === 'CREATE' ||
    top?.call_type === 'CREATE' ||
    (!top && !record.to && !record.contract_id && isHex(record.failed_initcode));
  const data =
    top && isHex(top.input) ? top.input : isHex(record.function_parameters) ? record.function_parameters : null;
  if (data === null) throw new ReplayError(l10n.t('The record has no call data or init code to replay.'), 'malformed');
  const value = wholeOf(top?.value ?? record.amount ?? 0) ?? 0n;
  const limit = wholeOf(record.gas_limit);
  const gas = wholeOf(top?.gas) ?? (limit !== undefined ? limit - intrinsicGas(data, create) : undefined);
  if (gas === undefined || gas <= 0n)
    throw new ReplayError(l10n.t('The record has no gas limit to replay with.'), 'malformed');
  if (gas > 1_000_000_000n)
    throw new ReplayError(l10n.t('The record gives the call more gas than any network allows.'), 'malformed');

  // accounts by the addresses the EVM uses; the record's entities looked up at once, in parallel
  const byAddress = new Map<string, AccountState>();
  const entityOf = (address: string): string | null =>
    SYSTEM_CONTRACTS[address] ?? byAddress.get(address)?.entity ?? entityOfLongZero(address);
  const remember = (a: AccountState | null, ...keys: string[]): AccountState | null => {
    if (a) {
      byAddress.set(a.evmAddress, a);
      for (const k of keys) if (/^0x[0-9a-f]{40}$/.test(k)) byAddress.set(k, a);
    }
    return a;
  };
  const senderRef = typeof record.from === 'string' ? lower(record.from) : null;
  if (!senderRef || !/^0x[0-9a-f]{40}$/.test(senderRef))
    throw new ReplayError(l10n.t('The record has no sender address.'), 'malformed');
  const contractRef = create ? null : (record.contract_id ?? (typeof record.to === 'string' ? lower(record.to) : null));
  if (!create && !contractRef) throw new ReplayError(l10n.t('The record names no contract called.'), 'malformed');
  // the token facades the record shows run Hedera's redirect code at their addresses: no account to look up
  const facades = facadesOfRecord(sorted);
  for (const [address, entity] of facades)
    remember({
      evmAddress: address,
      entity,
      balance: 0n,
      nonce: 0n,
      code: tokenRedirectCode(address),
      isContract: true,
    });
  const recipients = new Set<string>();
  for (const a of sorted)
    if (
      !isSystemType(a.call_type) &&
      !facades.has(lower(String(a.to))) &&
      typeof a.recipient === 'string' &&
      /^\d+\.\d+\.\d+$/.test(a.recipient)
    )
      recipients.add(a.recipient);
  if (contractRef) recipients.delete(contractRef);
  const blockNumber = wholeOf(record.block_number);
  const [block, sender, contract] = await Promise.all([
    blockNumber !== undefined ? state.block(blockNumber) : Promise.resolve(null),
    state.account(senderRef),
    contractRef
      ? (byAddress.get(longZeroOf(contractRef) ?? lower(contractRef)) ?? state.account(contractRef, true))
      : Promise.resolve(null),
    ...[...recipients].map((id) =>
      state
        .account(
          id,
          sorted.some((a) => a.recipient === id && a.recipient_type === 'CONTRACT'),
        )
        .then((a) => remember(a, longZeroOf(id) ?? '')),
    ),
  ]);
  if (!sender) throw new ReplayError(l10n.t('The mirror node has no account {0}, the sender.', senderRef), 'mirror');
  remember(sender, senderRef);
  if (contractRef && !contract?.isContract)
    throw new ReplayError(
      l10n.t('The mirror node has no contract {0} before {1}.', String(contractRef), timestamp),
      'mirror',
    );
  remember(contract, typeof record.to === 'string' ? lower(record.to) : '');
  const from = sender.evmAddress;
  const to = contract ? contract.evmAddress : undefined;

  const source = {
    account: async (address: string): Promise<AccountState | null> => {
      const known = byAddress.get(address);
      if (known) return known;
      if (SYSTEM_CONTRACTS[address] || STANDARD_PRECOMPILES.includes(address) || address === ZERO) return null;
      return remember(await state.account(address, true), address);
    },
    slot: async (address: string, slot: string): Promise<string> => {
      if (!state.hasSlot(address, slot))
        notes.push({
          action: Math.max(0, (ref.recorder?.actions.length ?? 1) - 1),
          step: Math.max(0, (ref.recorder?.opcodes.length ?? 1) - 1),
          why: l10n.t(
            'The replay read slot {0} of {1}, which the record does not list among the slots the transaction touched.',
            word32(slot),
            entityOf(address) ?? address,
          ),
        });
      return state.slot(address, slot);
    },
  };

  // the system contracts' answers, in the order the record has them
  const systemCalls = sorted.filter(
    (a) => isSystemType(a.call_type) && typeof a.to === 'string' && SYSTEM_CONTRACTS[lower(a.to)],
  );
  let nextSystem = 0;
  const recordLogs: ContractLog[] = Array.isArray(record.logs) ? record.logs : [];
  const ref: { recorder?: ReplayRecorder } = {};
  const system =
    (address: string) =>
    (i: { data: Uint8Array; gasLimit: bigint }): ExecResult => {
      const rec = ref.recorder as ReplayRecorder;
      const actionIndex = rec.actions.length - 1;
      const recorded = systemCalls[nextSystem++];
      const input = toHex(i.data);
      if (!recorded || lower(recorded.to as string) !== address) {
        notes.push({
          action: actionIndex,
          step: rec.opcodes.length,
          why: recorded
            ? l10n.t(
                'The replay called the system contract {0} where the record has a call to {1}; its answer is unknown.',
                SYSTEM_CONTRACTS[address],
                String(recorded.to),
              )
            : l10n.t(
                'The replay called the system contract {0} where the record has no more system contract calls; its answer is unknown.',
                SYSTEM_CONTRACTS[address],
              ),
        });
        return {
          executionGasUsed: i.gasLimit,
          returnValue: new Uint8Array(0),
          exceptionError: new EVMError(EVMError.errorMessages.REVERT),
        } as ExecResult;
      }
      if (lower(recorded.input ?? '') !== input)
        notes.push({
          action: actionIndex,
          step: rec.opcodes.length,
          why: l10n.t(
            'The replay called {0} with other input than the record has; the recorded answer was used.',
            SYSTEM_CONTRACTS[address],
          ),
        });
      const used = wholeOf(recorded.gas_used) ?? 0n;
      const out = isHex(recorded.result_data) ? hexToBytes(recorded.result_data as `0x${string}`) : new Uint8Array(0);
      if (used > i.gasLimit)
        return {
          executionGasUsed: i.gasLimit,
          returnValue: new Uint8Array(0),
          exceptionError: new EVMError(EVMError.errorMessages.OUT_OF_GAS),
        } as ExecResult;
      const kind = recorded.result_data_type;
      if (kind === 'REVERT_REASON')
        return {
          executionGasUsed: used,
          returnValue: out,
          exceptionError: new EVMError(EVMError.errorMessages.REVERT),
        } as ExecResult;
      if (kind === 'ERROR')
        return {
          executionGasUsed: i.gasLimit,
          returnValue: new Uint8Array(0),
          exceptionError: new EVMError(EVMError.errorMessages.INVALID_OPCODE),
        } as ExecResult;
      // the token service's synthetic events: the record's logs at this point whose address is the token called
      const logs: Array<[Uint8Array, Uint8Array[], Uint8Array]> = [];
      if (address.endsWith('167') && input.length >= 2 + 8 + 40) {
        const token = redirectedToken(input) ?? `0x${input.slice(2 + 8 + 24, 2 + 8 + 64)}`;
        const tokenAccount = byAddress.get(token);
        for (let k = rec.logCount; k < recordLogs.length; k++) {
          const l = recordLogs[k];
          const la = typeof l?.address === 'string' ? lower(l.address) : '';
          if (la !== token && la !== tokenAccount?.evmAddress && entityOfLongZero(la) !== entityOfLongZero(token))
            break;
          if (!Array.isArray(l.topics) || !l.topics.every(isHex) || !isHex(l.data)) break;
          logs.push([
            hexToBytes(token as `0x${string}`),
            l.topics.map((t) => hexToBytes(t as `0x${string}`)),
            hexToBytes(l.data as `0x${string}`),
          ]);
        }
        rec.logCount += logs.length;
      }
      return { executionGasUsed: used, returnValue: out, logs } as ExecResult;
    };

  // BLOCKHASH as Hedera's consensus node answers it (the record is the node's; the mirror node's web3 simulation,
  // which has no 256-block window, differs)
  const blockHashes: BlockHashRead[] = [];
  const blockchain = blockHashSource(async (number) => {
    const rec = ref.recorder as ReplayRecorder;
    const b = await state.block(number);
    if (!b) {
      notes.push({
        action: Math.max(0, rec.actions.length - 1),
        step: Math.max(0, rec.opcodes.length - 1),
        why: l10n.t(
          'The replay read the hash of block {0} (BLOCKHASH), which the mirror node does not have; it used zero.',
          String(number),
        ),
      });
      return new Uint8Array(32);
    }
    const hash = b.hash.slice(0, 66);
    blockHashes.push({ number, hash });
    return hexToBytes(hash as `0x${string}`);
  });

  const lazy = new LazyState(source);
  const common = new Common({ chain: Mainnet, hardfork: Hardfork.Cancun });
  const evm: EVM = await createEVM({
    common,
    stateManager: lazy,
    blockchain: blockchain as never,
    customPrecompiles: Object.keys(SYSTEM_CONTRACTS).map((a) => ({
      address: createAddressFromString(a),
      function: system(a) as never,
    })),
  });
  const nonce = wholeOf(record.nonce) ?? sender.nonce;
  lazy.preset(from, new Account(nonce, sender.balance));

  const maxSteps = options.maxSteps ?? 1_000_000;
  const deadline = started + (options.maxMs ?? 60_000);
  const recorder = new ReplayRecorder(
    {
      sender: from,
      timestamp,
      entityOf,
      isPrecompile: (a) => !!SYSTEM_CONTRACTS[a] || STANDARD_PRECOMPILES.includes(a),
      onStep: (n) => {
        if (n >= maxSteps)
          throw new ReplayError(
            l10n.t(
              'The replay passed its budget of {0} steps; it was stopped there.',
              maxSteps.toLocaleString('en-US'),
            ),
            'budget',
          );
        if ((n & 1023) === 0) {
          if (options.signal?.aborted) throw new ReplayError(l10n.t('The replay was cancelled.'), 'cancelled');
          if (Date.now() > deadline)
            throw new ReplayError(l10n.t('The replay ran out of its time budget; it was stopped.'), 'budget');
        }
      },
    },
    options.trace,
  );
  ref.recorder = recorder;
  evm.events.on('step', (s) => recorder.step(s as never));
  evm.events.on('beforeMessage', (m) => {
    recorder.beforeMessage(m as never);
    // a facade's redirect run in another contract's context: what Hedera answers there is not replayed
    const a = recorder.actions[recorder.actions.length - 1];
    const op = a?.call_operation_type;
    if (a && facades.has(a.to ?? '') && op !== 'CALL' && op !== 'STATICCALL')
      notes.push({
        action: recorder.actions.length - 1,
        step: recorder.opcodes.length,
        why: l10n.t(
          "The replay made a {0} to the token {1}'s own address; Hedera's answer to a token facade run in another contract's context is not replayed.",
          String(op),
          String(a.recipient ?? a.to),
        ),
      });
  });
  evm.events.on('afterMessage', (r) => recorder.afterMessage(r as never));

  // a transaction starts with only what EIP-2929 and Hedera warm: sender, recipient, precompiles, system contracts
  await evm.journal.cleanup();
  for (const a of [from, ...(to ? [to] : []), ...STANDARD_PRECOMPILES, ...Object.keys(SYSTEM_CONTRACTS)])
    evm.journal.addAlwaysWarmAddress(a);

  // block.number and block.timestamp: the block's, as the mirror node has it (its first timestamp's seconds)
  if (block && typeof record.block_hash === 'string' && !block.hash.startsWith(lower(record.block_hash).slice(0, 66)))
    notes.push({
      action: 0,
      step: 0,
      why: l10n.t("the mirror node's block {0} has another hash than the record names", String(blockNumber)),
    });
  const evmBlockValue = evmBlock(
    blockNumber ?? 0n,
    BigInt((block?.from ?? timestamp).split('.')[0]),
    createAddressFromString(ZERO),
  );

  await lazy.checkpoint();
  let res;
  try {
    res = await evm.runCall({
      caller: createAddressFromString(from),
      origin: createAddressFromString(from),
      ...(to ? { to: createAddressFromString(to) } : {}),
      data: hexToBytes(data as `0x${string}`),
      value,
      gasLimit: gas,
      block: evmBlockValue as never,
    });
  } catch (e) {
    if (e instanceof ReplayError) throw e;
    throw new ReplayError(
      l10n.t('The EVM could not run the replay: {0}', e instanceof Error ? e.message : String(e)),
      'unsupported',
      e,
    );
  }
  const exec = res.execResult;
  const err = exec.exceptionError?.error;
  const success = err === undefined;
  const output = toHex(exec.returnValue);

  const stateChanges: ReplayStateChange[] = [];
  for (const a of recorder.storage.values()) {
    stateChanges.push({
      address: a.address,
      contract_id: entityOf(a.address),
      slot: a.slot,
      value_read: await state.slot(a.address, a.slot),
      value_written: success ? (a.written ?? null) : null,
    });
  }
  stateChanges.sort((x, y) =>
    x.address < y.address ? -1 : x.address > y.address ? 1 : x.slot < y.slot ? -1 : x.slot > y.slot ? 1 : 0,
  );
  const logs: ReplayLog[] = success
    ? (exec.logs ?? []).map(([address, topics, d]) => ({
        address: toHex(address),
        topics: topics.map(toHex),
        data: toHex(d),
      }))
    : [];
  // the mirror node names the parties of a call frame by their long-zero addresses when they are entities
  for (const a of recorder.actions) {
    const fromEntity = a.caller ? longZeroOf(a.caller) : null;
    if (fromEntity) a.from = fromEntity;
    const toEntity = a.recipient ? longZeroOf(a.recipient) : null;
    if (toEntity && a.to) a.to = toEntity;
  }
  const cpu = cpuUsage(cpu0);
  return {
    input,
    execution: {
      success,
      output,
      ...(err !== undefined && err !== 'revert' ? { halt: haltName(err) } : {}),
      opcodes: {
        address: to ?? ZERO,
        contract_id: to ? entityOf(to) : null,
        failed: !success,
        gas: Number(exec.executionGasUsed),
        opcodes: recorder.opcodes,
        return_value: output,
      },
      actions: recorder.actions,
      actionStart: recorder.actionStart,
      logs,
      stateChanges,
      gasUsed: exec.executionGasUsed,
      notes,
      readsBalance: recorder.readsBalance,
      blockHashes,
      olderSchedule: recorder.olderSchedule,
    },
    stats: { ...state.stats, steps: recorder.opcodes.length, cpuMs: (cpu.user + cpu.system) / 1000 },
  };
}
