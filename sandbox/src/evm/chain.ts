/**
 * A small Hedera-like chain on @ethereumjs/evm (Cancun rules, as Hedera's EVM): accounts with balances and entity
 * ids, contracts deployed by running their creation code, Hedera's PRNG (0x169) and token service (0x167) system
 * contracts (./hedera), and calls recorded as the mirror node shows them (src/api/replay/recorder): the opcode log, the call
 * frames (actions), the logs and the storage read and written.
 *
 * A call is a transaction: the intrinsic gas (21,000 and 4 / 16 per zero / other byte of call data) comes off the
 * gas limit before the top-level frame starts, as on Hedera; the sender's nonce goes up. Unless `commit` is set the
 * chain's state is left as it was (the mirror node re-executes a past transaction on the state before it). Calls
 * are run one at a time. Deterministic: the same chain and requests give the same answers, byte for byte.
 */
import { createEVM, EVMError, type EVM } from '@ethereumjs/evm';
import { Common, Hardfork, Mainnet } from '@ethereumjs/common';
import { SimpleStateManager } from '@ethereumjs/statemanager';
import { Account, createAddressFromString, hexToBytes } from '@ethereumjs/util';
import { createHash } from 'node:crypto';
import type { ContractAction, OpcodesResponse } from '../../../src/api/mirrorTypes';
import { tokenRedirectCode } from '../../../src/api/replay/facade';
import { HTS_ADDRESS, HederaSystemContracts, PRNG_ADDRESS, type SystemCallResult } from './hedera';
import {
  ReplayRecorder,
  type MessageEvent,
  type ResultEvent,
  type StepEvent,
  type TraceOptions,
  blockHashSource,
  evmBlock,
  haltName,
  int,
} from '../../../src/api/replay/recorder';

export interface CallRequest {
  /** The sender's EVM address (its alias, or its long-zero address). */
  from: string;
  /** The contract called (EVM address); none for a create. */
  to?: string | null;
  /** Call data, or the creation code of a create (hex). */
  data?: string;
  /** Tinybars sent. */
  value?: bigint | number;
  /** The gas limit of the transaction (intrinsic gas included). */
  gas: bigint | number;
  /** Stack, memory, storage in the opcode log (as the endpoint's query). */
  trace?: TraceOptions;
  /** Keep the state changes (default: the chain is left as it was). */
  commit?: boolean;
  /** The consensus timestamp written in the actions (`1700000000.000000001`). */
  timestamp?: string;
  /** What the PRNG's seeds derive from (default: the request itself). */
  seed?: string;
  /** The block it runs in: `block.number` and `block.timestamp` (seconds); default block 0 at time 0. */
  block?: { number: bigint; timestamp: bigint };
}

export interface ChainOptions {
  /**
   * The hash of a block (hex, Hedera's 48 bytes), as the chain's mirror node serves it; null when it has none. Asked
   * only for the 256 blocks before a call's block, as Hedera's node keeps them; the EVM sees the first 32 bytes.
   */
  blockHash?: (n: bigint) => string | null | Promise<string | null>;
}

export interface LogEntry {
  address: string;
  topics: string[];
  data: string;
}

export interface StateChange {
  address: string;
  contract_id: string | null;
  slot: string;
  value_read: string;
  value_written: string | null;
}

/** One execution, as the mirror node would show it. */
export interface Execution {
  success: boolean;
  /** Hedera's result: SUCCESS, CONTRACT_REVERT_EXECUTED, INSUFFICIENT_GAS or CONTRACT_EXECUTION_EXCEPTION. */
  result: string;
  /** The contract result's `error_message`: the revert data, or the halt reason's name in UTF-8 (hex); null on success. */
  errorMessage: string | null;
  /** Return data, or revert data (hex). */
  returnValue: string;
  /** Intrinsic gas + what the frames used, less the refund (capped at a fifth). */
  gasUsed: number;
  intrinsicGas: number;
  /** `GET /contracts/results/{id}/opcodes`. */
  opcodes: OpcodesResponse;
  /** `GET /contracts/results/{id}/actions` (`actions`). */
  actions: ContractAction[];
  /** The logs a successful execution emitted (none when it failed). */
  logs: LogEntry[];
  /** Storage read or written, by contract then slot, values as before the call and as written. */
  stateChanges: StateChange[];
  /** The created contract (a create). */
  createdAddress?: string;
}

export interface AccountSpec {
  /** EVM address (0x + 40 hex). */
  address: string;
  /** Entity id (`0.0.7000`). */
  entityId: string;
  balance?: bigint;
  nonce?: bigint;
}

const ZERO_ADDRESS = '0x0000000000000000000000000000000000000000';
const hex = (b: Uint8Array): string => '0x' + Buffer.from(b.buffer, b.byteOffset, b.byteLength).toString('hex');
const lower = (a: string): string => a.toLowerCase();
const strip0x = (h: string): string => (h.startsWith('0x') ? h.slice(2) : h);

/** Intrinsic gas of a transaction's data: 21,000 (53,000 for a create), 4 per zero byte, 16 per other byte. */
export function intrinsicGas(data: string, create = false): number {
  const h = strip0x(data);
  let g = create ? 53_000 : 21_000;
  for (let i = 0; i + 1 < h.length; i += 2) g += h[i] === '0' && h[i + 1] === '0' ? 4 : 16;
  return g;
}

/** `0.0.n` of a long-zero address (12 zero bytes, then the entity number), else null. */
export function longZeroEntity(address: string): string | null {
  const h = lower(strip0x(address));
  return /^0{24}[0-9a-f]{16}$/.test(h) ? `0.0.${BigInt(`0x${h.slice(24)}`)}` : null;
}

/** Standard precompiles of Cancun (0x01..0x0a). */
const STANDARD_PRECOMPILES = new Set(
  Array.from({ length: 10 }, (_, i) => `0x${(i + 1).toString(16).padStart(40, '0')}`),
);

export class EvmChain {
  readonly system = new HederaSystemContracts();
  private readonly entities = new Map<string, string>();
  private queue: Promise<unknown> = Promise.resolve();
  private recorder: ReplayRecorder | undefined;
  /** The running messages' callers' contexts (for the token service's `msg.sender`). */
  private readonly contexts: string[] = [];
  /** The running transaction's sender. */
  private sender = '';

  private constructor(
    readonly evm: EVM,
    readonly state: SimpleStateManager,
  ) {
    evm.events.on('step', (s) => this.recorder?.step(s as unknown as StepEvent));
    evm.events.on('beforeMessage', (m) => {
      const msg = m as unknown as MessageEvent;
      this.contexts.push(msg.to ? lower(msg.to.toString()) : '');
      this.recorder?.beforeMessage(msg);
    });
    evm.events.on('afterMessage', (r) => {
      this.contexts.pop();
      this.recorder?.afterMessage(r as unknown as ResultEvent);
    });
  }

  /** A chain with no accounts yet, Hedera's system contracts at 0x167 and 0x169. */
  static async create(options: ChainOptions = {}): Promise<EvmChain> {
    const common = new Common({ chain: Mainnet, hardfork: Hardfork.Cancun });
    const state = new SimpleStateManager();
    // the precompiles answer through the chain, made once the EVM exists
    const ref: { chain?: EvmChain } = {};
    const result = (r: SystemCallResult) => ({
      executionGasUsed: r.gasUsed,
      returnValue: r.output,
      ...(r.outcome === 'outOfGas' ? { exceptionError: new EVMError(EVMError.errorMessages.OUT_OF_GAS) } : {}),
      ...(r.outcome === 'revert' ? { exceptionError: new EVMError(EVMError.errorMessages.REVERT) } : {}),
      logs: r.logs.map(
        (l) =>
          [hexToBytes(l.address as `0x${string}`), l.topics.map((t) => hexToBytes(t as `0x${string}`)), l.data] as [
            Uint8Array,
            Uint8Array[],
            Uint8Array,
          ],
      ),
    });
    const blockchain = blockHashSource(async (n) => {
      const h = (await options.blockHash?.(n))?.replace(/^0x/, '') ?? '';
      return /^([0-9a-fA-F]{2}){32,}$/.test(h) ? hexToBytes(`0x${h.slice(0, 64)}`) : new Uint8Array(32);
    });
    const evm = await createEVM({
      common,
      stateManager: state,
      blockchain: blockchain as never,
      customPrecompiles: [
        {
          address: createAddressFromString(PRNG_ADDRESS),
          function: (i) => result((ref.chain as EvmChain).system.prng(i.data, i.gasLimit)),
        },
        // msg.sender of the token service: the context of the frame that called it (the one below the top)
        {
          address: createAddressFromString(HTS_ADDRESS),
          function: (i) =>
            result(
              (ref.chain as EvmChain).system.tokenService(
                i.data,
                i.gasLimit,
                (ref.chain as EvmChain).callerOfRunning(),
                (ref.chain as EvmChain).callerOfRunning(2),
              ),
            ),
        },
      ],
    });
    const chain = new EvmChain(evm, state);
    ref.chain = chain;
    chain.entities.set(HTS_ADDRESS, '0.0.359');
    chain.entities.set(PRNG_ADDRESS, '0.0.361');
    return chain;
  }

  /**
   * The context of the frame that made the running message (its caller), or of the frame `up` frames below the
   * running one; below the first frame, the transaction's sender.
   */
  private callerOfRunning(up = 1): string {
    const n = this.contexts.length;
    return n > up ? this.contexts[n - 1 - up] : n === up ? this.sender : '';
  }

  /** The entity id of an EVM address: a registered one, else its long-zero number, else null. */
  entityOf(address: string): string | null {
    return this.entities.get(lower(address)) ?? longZeroEntity(address);
  }

  /** Names an address by an entity id (a contract deployed elsewhere, a token). */
  setEntity(address: string, entityId: string): void {
    this.entities.set(lower(address), entityId);
  }

  async addAccount(spec: AccountSpec): Promise<void> {
    this.setEntity(spec.address, spec.entityId);
    await this.state.putAccount(
      createAddressFromString(lower(spec.address)),
      new Account(spec.nonce ?? 0n, spec.balance ?? 0n),
    );
  }

  /**
   * An HTS token at `address` (its long-zero address): named `entityId`, with the redirect code Hedera runs there
   * (src/api/replay/facade), so that a call to it reaches the token service as on Hedera (HIP-218).
   */
  async addToken(address: string, entityId: string): Promise<void> {
    this.setEntity(address, entityId);
    this.system.addToken(address);
    await this.state.putCode(createAddressFromString(lower(address)), hexToBytes(`0x${tokenRedirectCode(address)}`));
  }

  async balanceOf(address: string): Promise<bigint> {
    return (await this.state.getAccount(createAddressFromString(lower(address))))?.balance ?? 0n;
  }

  async nonceOf(address: string): Promise<bigint> {
    return (await this.state.getAccount(createAddressFromString(lower(address))))?.nonce ?? 0n;
  }

  async setNonce(address: string, nonce: bigint): Promise<void> {
    const a = createAddressFromString(lower(address));
    const acc = (await this.state.getAccount(a)) ?? new Account();
    acc.nonce = nonce;
    await this.state.putAccount(a, acc);
  }

  async codeOf(address: string): Promise<string> {
    return hex(await this.state.getCode(createAddressFromString(lower(address))));
  }

  /** A storage slot's value (0x + 64 hex). */
  async storageAt(address: string, slot: bigint | string): Promise<string> {
    const key = hexToBytes(`0x${(typeof slot === 'bigint' ? slot.toString(16) : strip0x(slot)).padStart(64, '0')}`);
    const v = await this.state.getStorage(createAddressFromString(lower(address)), key);
    return `0x${Buffer.from(v).toString('hex').padStart(64, '0')}`;
  }

  /** Sets a storage slot (a state the scenarios need before a call). */
  async setStorage(address: string, slot: bigint | string, value: bigint): Promise<void> {
    const key = hexToBytes(`0x${(typeof slot === 'bigint' ? slot.toString(16) : strip0x(slot)).padStart(64, '0')}`);
    let h = value.toString(16);
    if (h.length % 2) h = `0${h}`;
    const v = value === 0n ? new Uint8Array(0) : hexToBytes(`0x${h}`);
    await this.state.putStorage(createAddressFromString(lower(address)), key, v);
  }

  /**
   * Deploys by running creation code (and ABI-encoded constructor arguments) from `from` (a CREATE at its nonce: the
   * address Ethereum tools predict). Throws when the constructor fails. The deployment is kept.
   */
  async deploy(
    from: string,
    creationCode: string,
    options: { args?: string; value?: bigint; gas?: bigint; entityId?: string } = {},
  ): Promise<string> {
    return this.serial(async () => {
      await this.beginTransaction(lower(from), undefined);
      const res = await this.evm.runCall({
        caller: createAddressFromString(lower(from)),
        data: hexToBytes(`0x${strip0x(creationCode)}${strip0x(options.args ?? '')}` as `0x${string}`),
        value: options.value ?? 0n,
        gasLimit: options.gas ?? 30_000_000n,
      });
      const err = res.execResult.exceptionError;
      if (err || !res.createdAddress)
        throw new Error(
          `deployment from ${from} failed: ${err ? haltName(err.error) : 'no address'} ${hex(res.execResult.returnValue)}`,
        );
      const address = lower(res.createdAddress.toString());
      if (options.entityId) this.setEntity(address, options.entityId);
      return address;
    });
  }

  /**
   * A transaction starts with nothing warm but what EIP-2929 warms: the sender, the recipient, the precompiles (and
   * Hedera's system contracts): the journal of the previous one is cleared, so every call costs the same whatever ran
   * before it.
   */
  private async beginTransaction(from: string, to: string | undefined): Promise<void> {
    await this.evm.journal.cleanup();
    // EIP-2200's original values are the transaction's: a cache kept from the previous one prices SSTOREs wrongly
    this.state.originalStorageCache.clear();
    for (const a of [from, ...(to ? [to] : []), ...STANDARD_PRECOMPILES, HTS_ADDRESS, PRNG_ADDRESS])
      this.evm.journal.addAlwaysWarmAddress(a);
  }

  /** Runs calls one at a time. */
  private serial<T>(job: () => Promise<T>): Promise<T> {
    const run = this.queue.then(job, job);
    this.queue = run.catch(() => undefined);
    return run;
  }

  /** Executes a transaction and records it (see the module comment). */
  call(req: CallRequest): Promise<Execution> {
    return this.serial(() => this.run(req));
  }

  private async run(req: CallRequest): Promise<Execution> {
    const from = lower(req.from);
    const to = req.to ? lower(req.to) : undefined;
    const data = `0x${strip0x(req.data ?? '')}`;
    const value = BigInt(req.value ?? 0);
    const gasLimit = BigInt(req.gas);
    const intrinsic = intrinsicGas(data, !to);
    const seed =
      req.seed ??
      createHash('sha256')
        .update(`${from}|${to ?? ''}|${data}|${value}|${gasLimit}`)
        .digest('hex');
    const before = new Map(this.state.storageStack[this.state.storageStack.length - 1]);
    const recorder = new ReplayRecorder(
      {
        sender: from,
        timestamp: req.timestamp ?? null,
        entityOf: (a) => this.entityOf(a),
        isPrecompile: (a) => a === HTS_ADDRESS || a === PRNG_ADDRESS || STANDARD_PRECOMPILES.has(a),
        mark: () => this.system.mark(),
        frameFailed: (m) => this.system.frameFailed(m),
      },
      req.trace ?? {},
    );
    this.system.beginTransaction(seed);
    this.sender = from;
    await this.beginTransaction(from, to);
    await this.state.checkpoint();
    let res: Awaited<ReturnType<EVM['runCall']>> | undefined;
    if (gasLimit >= BigInt(intrinsic)) {
      this.recorder = recorder;
      try {
        res = await this.evm.runCall({
          caller: createAddressFromString(from),
          origin: createAddressFromString(from),
          ...(to ? { to: createAddressFromString(to) } : {}),
          data: hexToBytes(data as `0x${string}`),
          value,
          gasLimit: gasLimit - BigInt(intrinsic),
          ...(req.block
            ? { block: evmBlock(req.block.number, req.block.timestamp, createAddressFromString(ZERO_ADDRESS)) as never }
            : {}),
        });
      } finally {
        this.recorder = undefined;
        this.contexts.length = 0;
      }
    }

    const exec = res?.execResult;
    const err = res ? exec?.exceptionError?.error : 'out of gas';
    const success = err === undefined;
    const returnValue = exec ? hex(exec.returnValue) : '0x';
    const used = BigInt(intrinsic) + (exec?.executionGasUsed ?? 0n);
    const refund = success ? (exec?.gasRefund ?? 0n) : 0n;
    const gasUsed = res ? used - (refund < used / 5n ? refund : used / 5n) : gasLimit;
    const result = success
      ? 'SUCCESS'
      : err === 'revert'
        ? 'CONTRACT_REVERT_EXECUTED'
        : err === 'out of gas'
          ? 'INSUFFICIENT_GAS'
          : 'CONTRACT_EXECUTION_EXCEPTION';
    const errorMessage = success
      ? null
      : err === 'revert'
        ? returnValue
        : hex(new TextEncoder().encode(haltName(err as string)));
    const created = !to && success ? lower(res?.createdAddress?.toString() ?? '') : undefined;

    // state changes: every slot touched, the value before the call and the surviving write
    const stateChanges: StateChange[] = [];
    for (const a of recorder.storage.values()) {
      // SimpleStateManager's key: `<address>_<32-byte slot as 0x hex>`
      const prev = before.get(`${a.address}_${a.slot}`);
      const read = `0x${prev ? Buffer.from(prev).toString('hex').padStart(64, '0') : '0'.repeat(64)}`;
      stateChanges.push({
        address: a.address,
        contract_id: this.entityOf(a.address),
        slot: a.slot,
        value_read: read,
        value_written: success ? (a.written ?? null) : null,
      });
    }
    stateChanges.sort((x, y) =>
      x.address < y.address ? -1 : x.address > y.address ? 1 : x.slot < y.slot ? -1 : x.slot > y.slot ? 1 : 0,
    );

    const logs: LogEntry[] = success
      ? (exec?.logs ?? []).map(([address, topics, d]) => ({
          address: hex(address),
          topics: topics.map(hex),
          data: hex(d),
        }))
      : [];
    if (req.commit && success) {
      await this.state.commit();
    } else {
      await this.state.revert();
      this.system.rollbackTransaction();
      if (req.commit && res) {
        // a failed transaction still pays: the sender's nonce goes up
        await this.setNonce(from, (await this.nonceOf(from)) + 1n);
      }
    }
    const top = to ?? ZERO_ADDRESS;
    const opcodes: OpcodesResponse = {
      address: top,
      contract_id: to ? this.entityOf(to) : null,
      failed: !success,
      gas: int(gasUsed),
      opcodes: recorder.opcodes,
      return_value: returnValue,
    };
    return {
      success,
      result,
      errorMessage,
      returnValue,
      gasUsed: Number(gasUsed),
      intrinsicGas: intrinsic,
      opcodes,
      actions: recorder.actions,
      logs,
      stateChanges,
      ...(created ? { createdAddress: created } : {}),
    };
  }
}
