/**
 * The inspector's scenarios on the compiled Vault, Ledger and Accounting (../compiled/inspector.json) executed for
 * real: the contracts deployed in @ethereumjs/evm by the sandbox's executor (../evm) at their recorded addresses,
 * the state the history needs set once (deposits the Vault already held, the Ledger's count, the reward token the
 * Vault holds), then every scenario's call (or deployment: a transaction without `to`) in the order of its consensus
 * timestamp, each kept on the chain when it succeeds (a failed one still takes its sender's nonce). Their results (gas, call result, revert data), actions, logs and state changes come from these
 * executions (mirror/scenarios.ts), and so does `GET /contracts/results/{id}/opcodes` (a replay of the calls before
 * it, then the call traced with the stack, memory and storage asked for).
 *
 * Executed once per process (the first start of a sandbox), then shared: the executions are deterministic.
 * @ethereumjs is loaded on that first use.
 */
import compiled from '../compiled/inspector.json';
import type { OpcodesResponse } from '../../../src/api/mirrorTypes';
import type { EvmChain, Execution, TraceOptions } from '../evm';
import { addrWord, uintWord } from '../abi';
import { selectorOf } from '../keccak';
import { longZero } from './ids';
import { mappingSlot } from './trace';
import {
  ALIAS_HELD,
  ALIAS_SENDER,
  DEPOSIT,
  DEPOSITOR,
  FACADE_OVERDRAW,
  FACADE_PAY,
  LEDGER,
  LEDGER_COUNT,
  LEDGER_REVERT_VALUE,
  MOVE_AMOUNT,
  OWNER,
  OWNER_HBAR,
  OWNER_HELD,
  PAYOUT,
  PROXY,
  PROXY_LIMIT,
  PROXY_REQUEST,
  RULES,
  PAYOUT_TOKEN,
  PAYER_TOKENS,
  SETTLE_AMOUNT,
  T0,
  TOKEN_PAYER,
  VAULT,
  VAULT_TOKENS,
  WITHDRAW,
  fn,
  slotOf,
} from './scenarios';

/** The scenarios executed for real, in the order of their consensus timestamps. */
export const REAL_KEYS = [
  'inspectorNoActions',
  'inspectorSuccess',
  'inspectorEthereum',
  'inspectorLedgerRevert',
  'inspectorLibraryRevert',
  'inspectorDeepRevert',
  'inspectorPrecompile',
  'inspectorPartial',
  'inspectorCreateRevert',
  'inspectorInternalRevert',
  'inspectorProxyRevert',
  'inspectorTokenFacade',
  'inspectorTokenFacadeRevert',
] as const;
export type RealKey = (typeof REAL_KEYS)[number];

export interface RealCall {
  key: RealKey;
  /** The sender: entity num and the EVM address it calls from (its alias, or its long-zero address). */
  from: { num: number; evm: string };
  /** The contract called: its entity num and EVM address (default: the Vault). */
  to?: { num: number; evm: string };
  /** Call data (0x hex) to the contract; for a deployment (`create`), the init code: creation code and arguments. */
  data: string;
  /** A deployment: a transaction without `to` that runs `data` as creation code. */
  create?: boolean;
  value: bigint;
  gas: number;
}

export interface RealRun extends RealCall {
  ex: Execution;
}

const w = (v: number | bigint): string => uintWord(v);
const vaultAddress = VAULT.address.toLowerCase();
const ledgerAddress = LEDGER.address.toLowerCase();
const tokenAddress = longZero(PAYOUT_TOKEN);
const payerPay = selectorOf('pay(address,address,uint256)');

/** The calls, as the scenarios' records have them. */
export const REAL_CALLS: readonly RealCall[] = [
  // the owner's setFee(30): feeBps 25 -> 30 (recorded without actions, as older records are)
  { key: 'inspectorNoActions', from: OWNER, data: `0x${fn(VAULT, 'setFee')}${w(30)}`, value: 0n, gas: 100_000 },
  // a native account's deposit of 250 ℏ: Vault -> Ledger.record
  { key: 'inspectorSuccess', from: DEPOSITOR, data: `0x${fn(VAULT, 'deposit')}`, value: DEPOSIT, gas: 400_000 },
  // an Ethereum transaction of the alias sender: withdraw(10 ℏ), the Vault sends it back
  {
    key: 'inspectorEthereum',
    from: ALIAS_SENDER,
    data: `0x${fn(VAULT, 'withdraw')}${w(WITHDRAW)}`,
    value: 0n,
    gas: 250_000,
  },
  // a revert in a second contract: the owner deposits 1.5e24, Ledger.record refuses it ("Ledger: amount too large")
  {
    key: 'inspectorLedgerRevert',
    from: OWNER,
    data: `0x${fn(VAULT, 'deposit')}`,
    value: LEDGER_REVERT_VALUE,
    gas: 300_000,
  },
  // a revert in a library: the alias sender settles 1.5e24 to the depositor, Accounting (DELEGATECALL) refuses it
  // (SettlementExceedsBalance) before it calls the Ledger
  {
    key: 'inspectorLibraryRevert',
    from: ALIAS_SENDER,
    data: `0x${fn(VAULT, 'settle')}${addrWord(DEPOSITOR.evm)}${w(SETTLE_AMOUNT)}`,
    value: 0n,
    gas: 300_000,
  },
  // a revert deep in the trace: the owner settles 1.5e24 (it holds more) to the depositor: Ledger.entries
  // (STATICCALL), the PRNG (0x169), Accounting (DELEGATECALL), whose Ledger.record (CALL, depth 2) refuses it
  {
    key: 'inspectorDeepRevert',
    from: OWNER,
    data: `0x${fn(VAULT, 'settle')}${addrWord(DEPOSITOR.evm)}${w(SETTLE_AMOUNT)}`,
    value: 0n,
    gas: 300_000,
  },
  // the owner's payout through the token service (0x167)
  {
    key: 'inspectorPrecompile',
    from: OWNER,
    data: `0x${fn(VAULT, 'payout')}${addrWord(tokenAddress.slice(2))}${addrWord(ALIAS_SENDER.evm)}${w(PAYOUT)}`,
    value: 0n,
    gas: 200_000,
  },
  // an Ethereum withdraw of more than the alias sender holds (InsufficientBalance), recorded incompletely
  {
    key: 'inspectorPartial',
    from: ALIAS_SENDER,
    data: `0x${fn(VAULT, 'withdraw')}${w(ALIAS_HELD)}`,
    value: 0n,
    gas: 1_000_000,
  },
  // a failed deployment (an Ethereum transaction without `to`): the alias sender deploys a second Ledger for its own
  // address instead of the Vault's; the constructor refuses an account (NotAContract), no contract is created
  {
    key: 'inspectorCreateRevert',
    from: ALIAS_SENDER,
    data: `${LEDGER.bytecode}${addrWord(ALIAS_SENDER.evm)}`,
    value: 0n,
    gas: 300_000,
    create: true,
  },
  // a revert two internal calls deep: the depositor moves 300 ℏ (it holds 250) inside the Vault: move → _move →
  // _debit, whose require refuses it ("Vault: move exceeds balance")
  {
    key: 'inspectorInternalRevert',
    from: DEPOSITOR,
    data: `0x${fn(VAULT, 'move')}${addrWord(ALIAS_SENDER.evm)}${w(MOVE_AMOUNT)}`,
    value: 0n,
    gas: 120_000,
  },
  // a revert behind a proxy: the depositor asks VaultProxy (ERC-1967) for 2,000 ℏ; its fallback DELEGATECALLs
  // VaultRules, whose `_check` refuses more than the limit in the proxy's storage (LimitExceeded)
  {
    key: 'inspectorProxyRevert',
    from: DEPOSITOR,
    to: { num: Number(PROXY.entityId.split('.')[2]), evm: PROXY.address.slice(2).toLowerCase() },
    data: `0x${fn(RULES, 'request')}${w(PROXY_REQUEST)}`,
    value: 0n,
    gas: 100_000,
  },
  // a payout through a token's ERC-20 facade: TokenPayer STATICCALLs balanceOf and CALLs transfer at the token's
  // own address (Hedera's redirect code there DELEGATECALLs the token service)
  {
    key: 'inspectorTokenFacade',
    from: DEPOSITOR,
    to: TOKEN_PAYER,
    data: `0x${payerPay}${addrWord(tokenAddress.slice(2))}${addrWord(ALIAS_SENDER.evm)}${w(FACADE_PAY)}`,
    value: 0n,
    gas: 200_000,
  },
  // more than TokenPayer holds: the facade's transfer reverts (INSUFFICIENT_TOKEN_BALANCE), and so does the payer
  {
    key: 'inspectorTokenFacadeRevert',
    from: DEPOSITOR,
    to: TOKEN_PAYER,
    data: `0x${payerPay}${addrWord(tokenAddress.slice(2))}${addrWord(ALIAS_SENDER.evm)}${w(FACADE_OVERDRAW)}`,
    value: 0n,
    gas: 200_000,
  },
];

/** The state before the scenarios: a fresh chain with the contracts deployed and the history's balances set. */
async function prepared(): Promise<EvmChain> {
  const evm = await import('../evm');
  const { createAddressFromString } = await import('@ethereumjs/util');
  const { chain } = await evm.createInspectorChain(compiled, { balance: OWNER_HBAR });
  await chain.addAccount({
    address: `0x${ALIAS_SENDER.evm}`,
    entityId: `0.0.${ALIAS_SENDER.num}`,
    balance: 1_000_000_000_000n,
  });
  await chain.addAccount({
    address: `0x${DEPOSITOR.evm}`,
    entityId: `0.0.${DEPOSITOR.num}`,
    balance: 1_000_000_000_000n,
  });
  // deposits the Vault holds (and their HBAR), the Ledger's entries and count
  await chain.setStorage(vaultAddress, BigInt(slotOf(VAULT, 'totalDeposits')), T0);
  await chain.setStorage(vaultAddress, `0x${mappingSlot(ALIAS_SENDER.evm, slotOf(VAULT, 'balances'))}`, ALIAS_HELD);
  await chain.setStorage(vaultAddress, `0x${mappingSlot(OWNER.evm, slotOf(VAULT, 'balances'))}`, OWNER_HELD);
  await chain.setStorage(ledgerAddress, `0x${mappingSlot(ALIAS_SENDER.evm, slotOf(LEDGER, 'entries'))}`, ALIAS_HELD);
  await chain.setStorage(ledgerAddress, `0x${mappingSlot(OWNER.evm, slotOf(LEDGER, 'entries'))}`, OWNER_HELD);
  await chain.setStorage(ledgerAddress, BigInt(slotOf(LEDGER, 'count')), LEDGER_COUNT);
  // the proxy's limit: VaultRules' state variable, in the proxy's storage
  await chain.setStorage(PROXY.address.toLowerCase(), BigInt(slotOf(RULES, 'limit')), PROXY_LIMIT);
  const vault = createAddressFromString(vaultAddress);
  const account = await chain.state.getAccount(vault);
  if (!account) throw new Error('the Vault is not deployed');
  account.balance = T0;
  await chain.state.putAccount(vault, account);
  // the reward token 0.0.7004 (its address runs Hedera's redirect code): the Vault and TokenPayer hold it, the
  // alias sender is associated
  await chain.addToken(tokenAddress, `0.0.${PAYOUT_TOKEN}`);
  chain.system.setTokenBalance(tokenAddress, vaultAddress, VAULT_TOKENS);
  chain.system.associate(tokenAddress, `0x${ALIAS_SENDER.evm}`);
  // TokenPayer as a HAPI ContractCreate leaves it: its compiled runtime code at its long-zero address
  const payer = `0x${TOKEN_PAYER.evm}`;
  await chain.addAccount({ address: payer, entityId: `0.0.${TOKEN_PAYER.num}` });
  await chain.state.putCode(
    createAddressFromString(payer),
    Buffer.from(TOKEN_PAYER.compiled.deployedBytecode.slice(2), 'hex'),
  );
  chain.system.setTokenBalance(tokenAddress, payer, PAYER_TOKENS);
  return chain;
}

/**
 * The storage of the chain before the scenarios (what the constructors and the history left): every slot of every
 * account, values as 0x hex (the storage history of `/contracts/{id}/state`, mirror/state.ts).
 */
export async function preparedStorage(): Promise<Array<{ address: string; slot: string; value: string }>> {
  const chain = await prepared();
  const top = chain.state.storageStack[chain.state.storageStack.length - 1];
  const out: Array<{ address: string; slot: string; value: string }> = [];
  // SimpleStateManager's key: `<address>_<32-byte slot as 0x hex>`
  for (const [key, v] of top) {
    const [address, slot] = key.split('_');
    out.push({ address, slot, value: `0x${Buffer.from(v).toString('hex') || '0'}` });
  }
  return out;
}

const request = (c: RealCall, trace?: TraceOptions, commit = false): Parameters<EvmChain['call']>[0] => ({
  from: `0x${c.from.evm}`,
  to: c.create ? null : c.to ? `0x${c.to.evm}` : vaultAddress,
  data: c.data,
  value: c.value,
  gas: c.gas,
  trace,
  commit,
  seed: c.key,
});

let runs: Promise<ReadonlyMap<RealKey, RealRun>> | undefined;

/** Every scenario's execution (once per process). */
export function inspectorRuns(): Promise<ReadonlyMap<RealKey, RealRun>> {
  runs ??= (async () => {
    const chain = await prepared();
    const out = new Map<RealKey, RealRun>();
    for (const c of REAL_CALLS) out.set(c.key, { ...c, ex: await chain.call(request(c, undefined, true)) });
    return out;
  })();
  return runs;
}

const afters = new Map<number, Promise<EvmChain>>();

/**
 * A chain in the state after the first `count` scenarios (0: before them), for calls against it
 * (`POST /contracts/call`, mirror/call.ts): built once per count, then shared (calls there are not committed).
 */
export function chainAfter(count: number): Promise<EvmChain> {
  let c = afters.get(count);
  if (!c) {
    c = (async () => {
      const chain = await prepared();
      for (const call of REAL_CALLS.slice(0, count)) await chain.call(request(call, undefined, true));
      return chain;
    })();
    afters.set(count, c);
    c.catch(() => afters.delete(count));
  }
  return c;
}

const traces = new Map<string, Promise<OpcodesResponse>>();
const MAX_TRACES = 64;

/** What `/opcodes` asks the trace to hold. */
export type TraceFlags = { stack: boolean; memory: boolean; storage: boolean };

/**
 * The opcode log of an execution, traced with what was asked: `replay` runs it again (a fresh chain, what came before
 * it, then it traced); kept for the next same request of `key` (at most MAX_TRACES kept, of every ledger).
 */
export function cachedTrace(
  key: string,
  options: TraceFlags,
  replay: (trace: TraceOptions) => Promise<OpcodesResponse>,
): Promise<OpcodesResponse> {
  const id = `${key}|${options.stack}|${options.memory}|${options.storage}`;
  let t = traces.get(id);
  if (!t) {
    t = replay(options);
    if (traces.size >= MAX_TRACES) traces.delete(traces.keys().next().value as string);
    traces.set(id, t);
    t.catch(() => traces.delete(id));
  }
  return t;
}

/**
 * The opcode log of a scenario's execution with the stack, memory and storage asked for: a fresh chain, the
 * scenarios before it kept, then its call traced.
 */
export function opcodesOf(key: RealKey, options: TraceFlags): Promise<OpcodesResponse> {
  return cachedTrace(key, options, async (trace) => {
    const chain = await prepared();
    for (const c of REAL_CALLS) {
      if (c.key === key) return (await chain.call(request(c, trace))).opcodes;
      await chain.call(request(c, undefined, true));
    }
    throw new Error(`no scenario ${key}`);
  });
}
