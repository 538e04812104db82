/**
 * The transaction inspector's notable scenarios: contract results of the inspector's own contracts (Vault 0.0.7001,
 * Ledger 0.0.7002, the library Accounting 0.0.7003, compiled by solc into ../compiled/inspector.json), EXECUTED for
 * real in the sandbox's EVM (mirror/executions.ts: @ethereumjs/evm, the compiled runtime code): their gas, call
 * result, revert data, actions, logs and state changes are those executions', and `/opcodes` traces them. One big
 * trace on a generated router completes them. They are results like the others (in /contracts/results, in their
 * contracts' /contracts/{id}/results, with transactions), inserted at their timestamps when the data is generated.
 * Keys (`notable.contractResults`, `notable.inspector`):
 *
 * - `inspectorNoActions`: the owner's `setFee(30)` a month back (slot 0 packed owner|feeBps 25 → 30), recorded
 *   without actions, as older records are: its actions list is empty (the real server's 200 `{"actions":[]}`).
 * - `inspectorSuccess`: `deposit()` of 250 ℏ from a native account: Deposited, Transfer (Vault) and Recorded
 *   (Ledger, through a CALL); balances[sender] and totalDeposits written, the `ledger` slot read, Ledger's
 *   entries[sender] and count written.
 * - `inspectorEthereum`: an ETHEREUMTRANSACTION (type 2) from an EVM alias: `withdraw(10 ℏ)`, `paused` read, the
 *   Vault paying the sender back (a CALL to an account with value, and the HBAR transfer in the record).
 * - `inspectorLedgerRevert`: the owner's `deposit()` of 1.5e24 tinybars: Ledger.record reverts with "Ledger: amount
 *   too large" in the CALL the Vault makes (action 1); the revert data bubbles up to the top-level error_message. A
 *   revert inside a call to a second contract.
 * - `inspectorLibraryRevert`: the alias sender's `settle(depositor, 1.5e24)` (a HAPI call): the STATICCALL and PRNG
 *   call of settle, then the library Accounting, reached by DELEGATECALL (action 3), reverts with
 *   `SettlementExceedsBalance(sender, 40 ℏ, 1.5e24)` before it calls the Ledger.
 * - `inspectorDeepRevert`: the owner's `settle(depositor, 1.5e24)`: the Vault STATICCALLs Ledger.entries (action 1),
 *   calls the PRNG 0x169 (action 2, PRECOMPILE), DELEGATECALLs the library Accounting (action 3), which CALLs
 *   Ledger.record from the Vault's context (action 4, depth 2): it reverts with "Ledger: amount too large", and the
 *   revert data bubbles up through the library and the Vault to the top-level error_message. A revert deep in the
 *   trace (3 frames).
 * - `inspectorPrecompile`: the owner's `payout(token, to, amount)`: the token service (0x167) `transferToken` as a
 *   PRECOMPILE action with response code 22, the token's Transfer event, and a child transaction (nonce 1,
 *   CRYPTOTRANSFER) with its token transfers (amount past 2^53) and the token's assessed fractional fee.
 * - `inspectorPartial`: an Ethereum `withdraw` of more than the alias sender holds (InsufficientBalance), recorded
 *   incompletely, as the real server's partial results (spec `result-partial-result.json`): call_result and bloom
 *   `0x`, gas used and consumed null, error_message the result's name; its details answer 206, with no logs, state
 *   changes or actions (its opcodes are still there: the mirror node re-executes the Ethereum transaction).
 * - `inspectorCreateRevert`: a failed deployment: the alias sender's Ethereum transaction without `to` (nonce 9) that
 *   deploys a second Ledger for its own address instead of the Vault's: the constructor reverts with
 *   `NotAContract(aliasSender)` (an account has no code) and no contract is created. As the real server records it: `contract_id`,
 *   `address` and `to` null, `created_contract_ids` empty, `failed_initcode` (and `function_parameters`) the init code;
 *   one CREATE action whose recipient is null; its opcodes are the creation code's (the OpcodesResponse's `address`
 *   the zero address, `contract_id` null). Listed in /contracts/results, in no contract's /contracts/{id}/results.
 * - `inspectorInternalRevert`: the depositor's `move(aliasSender, 300 ℏ)` (it holds 250 ℏ in the Vault): `move`
 *   calls `_move`, which calls `_debit`, whose require reverts with "Vault: move exceeds balance": a revert two
 *   internal calls deep, in one frame (one action).
 * - `inspectorProxyRevert`: the depositor's `request(2,000 ℏ)` through an ERC-1967 proxy (VaultProxy 0.0.7011, whose
 *   fallback DELEGATECALLs its implementation VaultRules 0.0.7010, action 1): VaultRules' `request` calls `_check`,
 *   which reverts with `LimitExceeded(1,000 ℏ, 2,000 ℏ)`, the limit read from the proxy's storage; the proxy passes
 *   the revert data on. A revert in an implementation's code, run in the proxy's context.
 * - `inspectorTokenFacade`: the depositor's `pay(token, aliasSender, 2,500)` on TokenPayer (0.0.7013, a HAPI-created
 *   contract at its long-zero address, ../compiled/TokenPayer.sol): it STATICCALLs the reward token 0.0.7004's own
 *   address (HIP-218's ERC-20 facade) for `balanceOf`, then CALLs its `transfer`; each runs Hedera's redirect code
 *   there, which DELEGATECALLs the token service 0x167 with `redirectForToken` (src/api/replay/facade): four actions,
 *   the token's Transfer and the Vault's-style `Paid` event.
 * - `inspectorTokenFacadeRevert`: the same payer asked for more than it holds: the facade's `transfer` reverts with
 *   "INSUFFICIENT_TOKEN_BALANCE" (the response code's name, as Hedera's ERC-20 calls revert), passed on by TokenPayer.
 * - `inspectorBigTrace`: a generated router's `swapExactTokensForTokens` along a path of 200 tokens: exactly
 *   1,200 actions, 3 levels deep (the swap, the output token's transfer, its compliance STATICCALL). Generated: its
 *   opcodes are not available (the sandbox cannot re-execute a generated contract).
 */
import compiled from '../compiled/inspector.json';
import tokenPayer from '../compiled/tokenPayer.json';
import { addrWord, uintWord } from '../abi';
import { selectorOf, topicOf } from '../keccak';
import { Prng } from '../prng';
import {
  CHAIN_ID_HEX,
  type Contract,
  type ContractData,
  type ContractResultRow,
  HTS_PRECOMPILE,
  blockNumberAt,
  failedInitcodeOf,
  indexRow,
  nativeFields,
} from './contracts';
import { ANCHOR_SEC, NS, entityId, longZero, nsToTs } from './ids';
import { RELAY, derivedHex, txIdentity } from './records';
import {
  type CallNode,
  type Execution,
  type LogSpec,
  type SlotChange,
  addrTopic,
  execute,
  mappingSlot,
  orBlooms,
  logBloom,
  slotHex,
  sortStateChanges,
} from './trace';
import { numOfAddress } from './records';
import { type Built, dedupe, gasLimitOf } from './details';
import type { RealKey, RealRun } from './executions';
import type { Frame } from './trace';

interface AbiParam {
  type: string;
  components?: AbiParam[];
}
interface AbiItem {
  type: string;
  name?: string;
  inputs?: AbiParam[];
}
interface CompiledContract {
  name: string;
  address: string;
  entityId: string;
  abi: AbiItem[];
  storageLayout: { storage: { label: string; slot: string; offset: number; type: string }[] };
  bytecode: string;
  constructorArguments: string;
  deployedBytecode: string;
}

const CONTRACTS = (compiled as { contracts: CompiledContract[] }).contracts;
const byName = (name: string): CompiledContract => CONTRACTS.find((c) => c.name === name) as CompiledContract;

const canonical = (p: AbiParam): string =>
  p.type.startsWith('tuple') ? `(${(p.components ?? []).map(canonical).join(',')})${p.type.slice(5)}` : p.type;
/** `name(type,...)` of an ABI entry. */
function signature(c: CompiledContract, kind: 'function' | 'event' | 'error', name: string): string {
  const item = c.abi.find((i) => i.type === kind && i.name === name);
  if (!item) throw new Error(`${c.name} has no ${kind} ${name}`);
  return `${name}(${(item.inputs ?? []).map(canonical).join(',')})`;
}
/** A function's selector, from the compiled ABI. */
export const fn = (c: CompiledContract, name: string): string => selectorOf(signature(c, 'function', name));
/** An event's topic0, from the compiled ABI. */
export const ev = (c: CompiledContract, name: string): string => topicOf(signature(c, 'event', name));
/** A state variable's slot, from the compiled storage layout. */
export function slotOf(c: CompiledContract, label: string): number {
  const s = c.storageLayout.storage.find((x) => x.label === label);
  if (!s) throw new Error(`${c.name} has no state variable ${label}`);
  return Number(s.slot);
}

export const VAULT = byName('Vault');
export const LEDGER = byName('Ledger');
export const ACCOUNTING = byName('Accounting');
export const RULES = byName('VaultRules');
export const PROXY = byName('VaultProxy');
const numOf = (c: CompiledContract): number => Number(c.entityId.split('.')[2]);
const evmOf = (c: CompiledContract): string => c.address.slice(2).toLowerCase();
/**
 * The library's external function takes a storage mapping: solc leaves it out of the ABI, and its selector is
 * keccak256 of this signature (the compiler's methodIdentifiers).
 */
export const ACCOUNTING_SETTLE = 'settle(mapping(address => uint256) storage,Ledger,address,address,uint256)';

/** The deployer (Ignition's default account) and owner of the Vault: 0.0.7000, with this EVM alias. */
export const OWNER = { num: 7000, evm: 'f39fd6e51aad88f6f4ce6ab8827279cfffb92266' };
/** An account with an EVM alias that sends Ethereum transactions (Hardhat's second account): 0.0.7005. */
export const ALIAS_SENDER = { num: 7005, evm: '70997970c51812dc3a010c7d01b50e0d17dc79c8' };
/** A native account (no alias): 0.0.7006. */
export const DEPOSITOR = { num: 7006, evm: longZero(7006).slice(2) };
/** The HTS token the Vault pays out (0.0.7004; a 0.1% fractional fee to 0.0.7009). */
export const PAYOUT_TOKEN = 7004;

/** TokenPayer (../compiled/TokenPayer.sol), created by a HAPI ContractCreate: 0.0.7013 at its long-zero address. */
export const TOKEN_PAYER = { num: 7013, evm: longZero(7013).slice(2), compiled: tokenPayer };
/** What TokenPayer holds of the reward token, and what it pays (inspectorTokenFacade) or is asked (…Revert). */
export const PAYER_TOKENS = 10_000n;
export const FACADE_PAY = 2_500n;
export const FACADE_OVERDRAW = 50_000n;

/**
 * How many top-level results generateContracts leaves out of its count for the scenarios: all of them but the token
 * facade's two, which come on top (so that the generated results stay as they were).
 */
export const SCENARIO_TOP_COUNT = 12;

export type ScenarioKey = RealKey | 'inspectorBigTrace';

const w = (v: number | bigint): string => uintWord(v);
const lz = (num: number): string => longZero(num).slice(2);
const vault = { num: numOf(VAULT), evm: evmOf(VAULT) };
const ledger = { num: numOf(LEDGER), evm: evmOf(LEDGER) };
const accounting = { num: numOf(ACCOUNTING), evm: evmOf(ACCOUNTING) };
const rules = { num: numOf(RULES), evm: evmOf(RULES) };
const proxy = { num: numOf(PROXY), evm: evmOf(PROXY) };
const log = (c: { num: number; evm: string }, topics: string[], data: string): LogSpec => ({
  log: true,
  num: c.num,
  evm: c.evm,
  topics,
  data,
});
const callNode = (
  op: CallNode['op'],
  recipient: number,
  input: string,
  output: string,
  extra: Partial<CallNode> = {},
): CallNode => ({ op, type: 'CALL', recipient, recipientType: 'CONTRACT', input, output, ...extra });
const change = (c: { num: number; evm: string }, slot: string, read: bigint, written: bigint | null): SlotChange => ({
  num: c.num,
  evm: c.evm,
  slot,
  read,
  written,
});

/** The state and amounts of the scenarios (mirror/executions.ts sets the state before them and makes the calls). */
export const T0 = 1_234_500_000_000n; // totalDeposits before the scenarios (12,345 ℏ)
export const DEPOSIT = 25_000_000_000n; // 250 ℏ
export const WITHDRAW = 1_000_000_000n; // 10 ℏ
/**
 * What the alias sender and the owner had deposited before (50 ℏ; 1.6e24 tinybars, an emulation past the network's
 * supply, as the owner's HBAR, so that its settle of 1.5e24 passes the library's balance check and reaches the
 * Ledger); the Ledger recorded the same.
 */
export const ALIAS_HELD = 5_000_000_000n;
export const OWNER_HELD = 1_600_000_000_000_000_000_000_000n;
export const LEDGER_COUNT = 41n;
/**
 * Above the Ledger's 1e24: the owner's deposit of inspectorLedgerRevert, the settle of inspectorDeepRevert (the
 * owner's) and of inspectorLibraryRevert (the alias sender's, more than it holds).
 */
export const LEDGER_REVERT_VALUE = 1_500_000_000_000_000_000_000_000n;
export const SETTLE_AMOUNT = 1_500_000_000_000_000_000_000_000n;
/** The owner's HBAR, enough for that deposit (an emulation: more than the network's supply). */
export const OWNER_HBAR = 2_000_000_000_000_000_000_000_000n;
export const PAYOUT = 9_007_199_254_740_993n; // past 2^53
export const VAULT_TOKENS = 100_000_000_000_000_000n;
/** What the depositor moves inside the Vault in inspectorInternalRevert: 300 ℏ, more than its 250 ℏ (DEPOSIT). */
export const MOVE_AMOUNT = 30_000_000_000n;
/** The proxy's request limit (VaultRules' `limit`, in the proxy's storage) and what inspectorProxyRevert asks. */
export const PROXY_LIMIT = 100_000_000_000n; // 1,000 ℏ
export const PROXY_REQUEST = 200_000_000_000n; // 2,000 ℏ

/** Where and how a real scenario is recorded (its call: mirror/executions.ts REAL_CALLS). */
interface Spec {
  key: RealKey;
  /** Seconds before ANCHOR_SEC where it lies (moved to a block no result has). */
  before: number;
  eth?: boolean;
  /** The Ethereum transaction's nonce (its sender's). */
  ethNonce?: number;
  /** An incomplete record (the real server answers 206): no call result, gas used or bloom. */
  partial?: boolean;
  /** Recorded without actions (older records). */
  noActions?: boolean;
  /** A child transaction for the system contract call it makes (the token service's CRYPTOTRANSFER). */
  child?: boolean;
  /** A deployment that failed: no contract (contract_id, address and to null). */
  create?: boolean;
}

/** In the order of their timestamps (the order they are executed in). */
const SPECS: Spec[] = [
  { key: 'inspectorNoActions', before: 30 * 86400 + 4100, noActions: true },
  { key: 'inspectorSuccess', before: 2 * 86400 + 3000 },
  { key: 'inspectorEthereum', before: 2 * 86400 + 2400, eth: true, ethNonce: 7 },
  { key: 'inspectorLedgerRevert', before: 2 * 86400 + 1800 },
  { key: 'inspectorPrecompile', before: 2 * 86400 + 1200, child: true },
  { key: 'inspectorPartial', before: 2 * 86400 + 300, eth: true, ethNonce: 8, partial: true, noActions: true },
];
/**
 * Added after the others (their places in the generator's draws are last, so the others keep their timestamps):
 * both lie between inspectorLedgerRevert and inspectorPrecompile, the deep revert last (the Vault's newest settle).
 */
const LIBRARY_REVERT: Spec = { key: 'inspectorLibraryRevert', before: 2 * 86400 + 1500 };
const DEEP_REVERT: Spec = { key: 'inspectorDeepRevert', before: 2 * 86400 + 1350 };
/** Added after those, newer than every other scenario: the failed deployment, then the revert two internal calls deep. */
const CREATE_REVERT: Spec = {
  key: 'inspectorCreateRevert',
  before: 2 * 86400 + 240,
  eth: true,
  ethNonce: 9,
  create: true,
};
const INTERNAL_REVERT: Spec = { key: 'inspectorInternalRevert', before: 2 * 86400 + 180 };
/** Added last, newer than every other scenario: the revert behind the proxy. */
const PROXY_REVERT: Spec = { key: 'inspectorProxyRevert', before: 2 * 86400 + 150 };
/** Added after it: the token facade's payout, then its refusal. */
const TOKEN_FACADE: Spec = { key: 'inspectorTokenFacade', before: 2 * 86400 + 120 };
const TOKEN_FACADE_REVERT: Spec = { key: 'inspectorTokenFacadeRevert', before: 2 * 86400 + 90 };

const entityNum = (id: string | null): number | null => (id === null ? null : Number(id.split('.')[2]));
const int = (v: bigint): number | bigint =>
  v >= BigInt(Number.MIN_SAFE_INTEGER) && v <= BigInt(Number.MAX_SAFE_INTEGER) ? Number(v) : v;

/**
 * A real execution as the sandbox's view models read it: its actions as frames (the recorder's ContractActionViewModel
 * values), its logs and state changes, the deepest failing frame.
 */
export function builtOfRun(data: ContractData, run: Pick<RealRun, 'ex'>, noActions = false): Built {
  const ex = run.ex;
  const frames: Frame[] = ex.actions.map((a) => {
    const resultType = a.result_data_type as Frame['resultType'];
    const result = a.result_data ?? '0x';
    const recipient = entityNum(a.recipient);
    return {
      depth: Number(a.call_depth),
      op: a.call_operation_type as Frame['op'],
      type: a.call_type as Frame['type'],
      caller: entityNum(a.caller) as number,
      callerType: a.caller_type as Frame['callerType'],
      recipient,
      recipientType: (a.recipient_type ?? null) as Frame['recipientType'],
      ...(recipient === null && a.to ? { address: a.to.slice(2) } : {}),
      gas: Number(a.gas),
      gasUsed: Number(a.gas_used),
      input: a.input ?? '0x',
      result,
      resultType,
      value:
        BigInt(a.value as number | bigint) > BigInt(Number.MAX_SAFE_INTEGER)
          ? BigInt(a.value as number | bigint)
          : Number(a.value),
      ...(resultType === 'REVERT_REASON' ? { failure: { kind: 'revert' as const, data: result } } : {}),
      ...(resultType === 'ERROR'
        ? { failure: { kind: 'error' as const, text: Buffer.from(result.slice(2), 'hex').toString('utf8') } }
        : {}),
    };
  });
  let failedAt = -1;
  frames.forEach((f, i) => {
    if (f.resultType !== 'OUTPUT') failedAt = i;
  });
  const logs: LogSpec[] = ex.logs.map((l) => {
    const evm = l.address.slice(2).toLowerCase();
    return { log: true, num: numOfAddress(data, evm) as number, evm, topics: l.topics, data: l.data };
  });
  const changes: SlotChange[] = ex.stateChanges.map((c) => ({
    num: entityNum(c.contract_id) as number,
    evm: c.address.slice(2).toLowerCase(),
    slot: c.slot.slice(2),
    read: BigInt(c.value_read),
    written: c.value_written === null ? null : BigInt(c.value_written),
  }));
  const exec: Execution = { frames, logs, failedAt };
  return { exec, changes: sortStateChanges(changes), ...(noActions ? { noActions: true } : {}) };
}

/** A generated call tree's execution (the big trace's). */
function run(root: CallNode, row: ContractResultRow, changes: SlotChange[]): Built {
  const exec: Execution = execute(root, row.senderNum, gasLimitOf(row), Number(row.obj.gas_consumed));
  return { exec, changes: sortStateChanges(dedupe(changes)) };
}

/** The router of the big trace: the first generated router. */
const bigTraceRouter = (data: ContractData): Contract => data.contracts.find((c) => c.kind === 'router') as Contract;

/** Hops of the big trace's swap: each is 6 actions (getReserves, swap, the output token's transfer and its compliance check, two balance checks). */
const HOPS = 199;
const BIG_TRACE_ACTIONS = 1200;

/** The big trace's tokens (the first five generated ERC-20s) and pairs (other generated contracts). */
function bigTraceParties(data: ContractData): {
  router: Contract;
  tokens: Contract[];
  pairs: Contract[];
  compliance: Contract;
  sender: { num: number; evm: string };
} {
  const router = bigTraceRouter(data);
  const tokens = data.contracts.filter((c) => c.kind === 'erc20').slice(0, 5);
  const pairs = data.contracts.filter((c) => c.kind !== 'erc20' && c.num !== router.num).slice(0, 7);
  return {
    router,
    tokens,
    pairs: pairs.slice(0, 6),
    compliance: pairs[6],
    sender: data.senders.find((x) => !x.alias) as { num: number; evm: string },
  };
}

/** Amount after hop h (amount in for h = 0), 0.3% less each hop. */
const hopAmount = (h: number): bigint => {
  let a = 4_200n * 10n ** 18n;
  for (let i = 0; i < h; i++) a = (a * 997n) / 1000n;
  return a;
};

/** swapExactTokensForTokens(amountIn, amountOutMin, path, to, deadline) along HOPS + 1 tokens (the five, cycled). */
function bigTraceParams(data: ContractData): string {
  const { tokens, sender } = bigTraceParties(data);
  const path = Array.from({ length: HOPS + 1 }, (_, i) => tokens[i % tokens.length]);
  return `0x${selectorOf('swapExactTokensForTokens(uint256,uint256,address[],address,uint256)')}${w(hopAmount(0))}${w((hopAmount(HOPS) * 99n) / 100n)}${w(160)}${addrWord(sender.evm)}${w(ANCHOR_SEC + 3600)}${w(path.length)}${path.map((t) => addrWord(t.evm)).join('')}`;
}

/** What it returns: the amounts along the path (uint256[]). */
const bigTraceResult = (): string =>
  '0x' + w(32) + w(HOPS + 1) + Array.from({ length: HOPS + 1 }, (_, h) => w(hopAmount(h))).join('');

function bigTrace(data: ContractData, row: ContractResultRow): Built {
  const { router, tokens, pairs, compliance, sender } = bigTraceParties(data);
  const rng = new Prng(0x62696774);
  const T = topicOf('Transfer(address,address,uint256)');
  const changes: SlotChange[] = [];
  const tokenAt = (i: number): Contract => tokens[i % tokens.length];
  const pairAt = (h: number): Contract => pairs[h % pairs.length];
  const body: (CallNode | LogSpec)[] = [
    callNode(
      'CALL',
      tokenAt(0).num,
      `0x${selectorOf('transferFrom(address,address,uint256)')}${addrWord(sender.evm)}${addrWord(pairAt(0).evm)}${w(hopAmount(0))}`,
      '0x' + w(1),
      {
        body: [log(tokenAt(0), [T, addrTopic(sender.evm), addrTopic(pairAt(0).evm)], '0x' + w(hopAmount(0)))],
      },
    ),
  ];
  for (let h = 0; h < HOPS; h++) {
    const pair = pairAt(h);
    const out = tokenAt(h + 1);
    const next = h + 1 < HOPS ? pairAt(h + 1).evm : sender.evm;
    const r0 = BigInt(rng.int(100_000, 900_000)) * 10n ** 18n;
    const r1 = BigInt(rng.int(100_000, 900_000)) * 10n ** 18n;
    body.push(
      callNode(
        'STATICCALL',
        pair.num,
        `0x${selectorOf('getReserves()')}`,
        '0x' + w(r0) + w(r1) + w(ANCHOR_SEC - 3 * 86400),
      ),
    );
    body.push(
      callNode(
        'CALL',
        pair.num,
        `0x${selectorOf('swap(uint256,uint256,address,bytes)')}${w(0)}${w(hopAmount(h + 1))}${addrWord(next)}${w(128)}${w(0)}`,
        '0x',
        {
          body: [
            callNode(
              'CALL',
              out.num,
              `0x${selectorOf('transfer(address,uint256)')}${addrWord(next)}${w(hopAmount(h + 1))}`,
              '0x' + w(1),
              {
                body: [
                  callNode(
                    'STATICCALL',
                    compliance.num,
                    `0x${selectorOf('isAllowed(address)')}${addrWord(next)}`,
                    '0x' + w(1),
                  ),
                  log(out, [T, addrTopic(pair.evm), addrTopic(next)], '0x' + w(hopAmount(h + 1))),
                ],
              },
            ),
            callNode(
              'STATICCALL',
              tokenAt(h).num,
              `0x${selectorOf('balanceOf(address)')}${addrWord(pair.evm)}`,
              '0x' + w(r0 + hopAmount(h)),
            ),
            callNode(
              'STATICCALL',
              out.num,
              `0x${selectorOf('balanceOf(address)')}${addrWord(pair.evm)}`,
              '0x' + w(r1 - hopAmount(h + 1)),
            ),
            log(
              pair,
              [
                topicOf('Swap(address,uint256,uint256,uint256,uint256,address)'),
                addrTopic(router.evm),
                addrTopic(next),
              ],
              '0x' + w(hopAmount(h)) + w(0) + w(0) + w(hopAmount(h + 1)),
            ),
          ],
        },
      ),
    );
    if (h < pairs.length)
      changes.push(
        change(pair, slotHex(8), r0 | (r1 << 112n), (r0 + hopAmount(h)) | ((r1 - hopAmount(h + 1)) << 112n)),
      );
  }
  // the router checks what the sender holds at the end, until the trace has exactly BIG_TRACE_ACTIONS actions
  for (let k = 2 + HOPS * 6; k < BIG_TRACE_ACTIONS; k++) {
    const t = tokenAt(k);
    body.push(
      callNode(
        'STATICCALL',
        t.num,
        `0x${selectorOf('balanceOf(address)')}${addrWord(sender.evm)}`,
        '0x' + w(BigInt(rng.int(1, 900_000)) * 10n ** 18n),
      ),
    );
  }
  for (const t of tokens) changes.push(change(t, mappingSlot(sender.evm, 0), 10n ** 24n, 10n ** 24n - 10n ** 20n));
  const root = callNode('CALL', router.num, row.obj.function_parameters as string, row.obj.call_result as string, {
    body,
    own: 40_000,
  });
  return run(root, row, changes);
}

/** The execution of a scenario's parent result (real, or the big trace's generated one). */
export function scenarioExecution(data: ContractData, row: ContractResultRow): Built {
  const s = scenarioRows.get(data);
  if (!s) throw new Error('no scenarios');
  return s.builders.get(row.scenario as string)?.(data, row) ?? bigTrace(data, row);
}

/** Inserts a row into an ascending array of rows. */
function insertSorted(rows: ContractResultRow[], row: ContractResultRow): void {
  let lo = 0;
  let hi = rows.length;
  while (lo < hi) {
    const mid = (lo + hi) >>> 1;
    if (rows[mid].tsNs < row.tsNs) lo = mid + 1;
    else hi = mid;
  }
  rows.splice(lo, 0, row);
}

/** A result's bloom: its logs' (from its execution, computed when first written). */
function lazyBloom(obj: Record<string, unknown>, compute: () => string): void {
  let bloom: string | undefined;
  Object.defineProperty(obj, 'bloom', { enumerable: true, configurable: true, get: () => (bloom ??= compute()) });
}

/** A scenario as its result records it. */
export interface Recorded {
  /** The inspector's scenario, or another run recorded so (`placement:…`, mirror/placement.ts). */
  key: string;
  before: number;
  sender: { num: number; evm: string };
  /** The contract called; null for a failed deployment (no contract was created). */
  contract: number | null;
  params: string;
  amount: bigint;
  gasLimit: number;
  gasConsumed: number;
  result: string;
  callResult: string;
  error: string | null;
  eth?: boolean;
  ethNonce?: number;
  partial?: boolean;
  child?: { params: string; callResult: string; gas: number };
  build: (data: ContractData, row: ContractResultRow) => Built;
  /** Its opcode trace (`/opcodes`), when not the inspector's scenario of its key (mirror/executions.ts opcodesOf). */
  trace?: ContractResultRow['trace'];
}

/** A real scenario's record: its call and what the execution gave (a partial record keeps only the result's name). */
export function recordedOf(
  data: ContractData,
  s: Omit<Spec, 'key'> & { key: string },
  run: Omit<RealRun, 'key'>,
): Recorded {
  const ex = run.ex;
  const built = builtOfRun(data, run, s.noActions);
  const hts = s.child
    ? ex.actions.find((a) => a.call_type === 'PRECOMPILE' && a.to === longZero(HTS_PRECOMPILE))
    : undefined;
  if (s.child && !hts) throw new Error(`${s.key}: no token service call in its execution`);
  return {
    key: s.key,
    before: s.before,
    sender: run.from,
    contract: s.create ? null : (run.to?.num ?? vault.num),
    params: run.data,
    amount: run.value,
    gasLimit: run.gas,
    gasConsumed: ex.gasUsed,
    result: ex.result,
    callResult: s.partial ? '0x' : ex.returnValue,
    error: s.partial ? ex.result : ex.errorMessage,
    eth: s.eth,
    ethNonce: s.ethNonce,
    partial: s.partial,
    ...(hts
      ? { child: { params: hts.input as string, callResult: hts.result_data as string, gas: Number(hts.gas_used) } }
      : {}),
    build: () => built,
  };
}

/**
 * Adds the inspector's contracts, accounts and scenario results to generated data (before any request), and their
 * keys to `data.notable`. `runs`: the real executions (mirror/executions.ts inspectorRuns).
 */
const scenarioRows = new WeakMap<
  ContractData,
  {
    rows: Map<ScenarioKey, ContractResultRow>;
    build: (row: ContractResultRow) => Built;
    builders: Map<string, (data: ContractData, row: ContractResultRow) => Built>;
  }
>();

export function addInspectorScenarios(
  data: ContractData,
  build: (row: ContractResultRow) => Built,
  runs: ReadonlyMap<RealKey, RealRun>,
): void {
  const byKey = new Map<ScenarioKey, ContractResultRow>();
  const builders = new Map<string, (data: ContractData, row: ContractResultRow) => Built>();
  scenarioRows.set(data, { rows: byKey, build, builders });
  const contracts: Contract[] = [
    { num: vault.num, evm: vault.evm, kind: 'vault', name: VAULT.name },
    { num: ledger.num, evm: ledger.evm, kind: 'ledger', name: LEDGER.name },
    { num: accounting.num, evm: accounting.evm, kind: 'library', name: ACCOUNTING.name },
    { num: rules.num, evm: rules.evm, kind: 'implementation', name: RULES.name },
    { num: proxy.num, evm: proxy.evm, kind: 'proxy', name: PROXY.name },
    { num: TOKEN_PAYER.num, evm: TOKEN_PAYER.evm, kind: 'payer', name: tokenPayer.name },
  ];
  for (const c of contracts) {
    data.contractsByNum.set(c.num, c);
    data.contractsByEvm.set(c.evm, c.num);
  }
  data.code = new Map([
    ...CONTRACTS.map((c): [number, { bytecode: string; runtime: string }] => [
      numOf(c),
      { bytecode: c.bytecode + c.constructorArguments.slice(2), runtime: c.deployedBytecode },
    ]),
    [TOKEN_PAYER.num, { bytecode: tokenPayer.bytecode, runtime: tokenPayer.deployedBytecode }],
  ]);
  data.aliases.set(OWNER.evm, OWNER.num);
  data.aliases.set(ALIAS_SENDER.evm, ALIAS_SENDER.num);

  const rng = new Prng(0x494e5350);
  const router = bigTraceRouter(data);
  const firstNative = data.senders.find((s) => !s.alias) as { num: number; evm: string };
  const real = (s: Spec): Recorded => {
    const run = runs.get(s.key);
    if (!run) throw new Error(`no execution of ${s.key}`);
    return recordedOf(data, s, run);
  };
  const all: Recorded[] = [
    ...SPECS.map(real),
    {
      key: 'inspectorBigTrace',
      before: 2 * 86400 + 600,
      sender: firstNative,
      contract: router.num,
      params: bigTraceParams(data),
      amount: 0n,
      gasLimit: 15_000_000,
      gasConsumed: 9_874_310,
      result: 'SUCCESS',
      callResult: bigTraceResult(),
      error: null,
      build: bigTrace,
    },
    real(LIBRARY_REVERT),
    real(DEEP_REVERT),
    real(CREATE_REVERT),
    real(INTERNAL_REVERT),
    real(PROXY_REVERT),
    real(TOKEN_FACADE),
    real(TOKEN_FACADE_REVERT),
  ];
  addRecordedResults(data, all, rng, (s, row) => {
    data.notable[s.key] = row.obj.timestamp as string;
    byKey.set(s.key as ScenarioKey, row);
  });
}

/**
 * Inserts recorded results into the data (results, transactions, their contracts' indexes) at their timestamps
 * (`before` seconds before the anchor, moved to a block no result has; `rng` draws the nanoseconds); `added` is told
 * each one's row. Their executions are built by `builtOf` (mirror/inspector.ts) through their keys.
 */
export function addRecordedResults(
  data: ContractData,
  all: Recorded[],
  rng: Prng,
  added: (s: Recorded, row: ContractResultRow) => void,
): void {
  const rows = scenarioRows.get(data);
  if (!rows) throw new Error("the inspector's scenarios come first");
  const { builders, build } = rows;
  const used = new Set(data.all.map((r) => r.blockNumber));
  for (const s of all) {
    builders.set(s.key, s.build);
    let sec = ANCHOR_SEC - s.before;
    while (used.has(blockNumberAt(sec)) || used.has(blockNumberAt(sec) + 1n) || used.has(blockNumberAt(sec) - 1n))
      sec += 3;
    const blockNumber = blockNumberAt(sec);
    used.add(blockNumber);
    const ts = BigInt(sec) * NS + BigInt(rng.int(1_000_000, 900_000_000));
    const blockHash = derivedHex(ts, 40, 48);
    const ok = s.result === 'SUCCESS';
    const gasUsed = s.partial ? null : Math.max(s.gasConsumed, Math.floor(s.gasLimit * 0.8));
    // a failed deployment has no contract: contract_id, address and to null (ContractResultViewModel of contract id
    // 0; the Ethereum transaction has no to_address)
    const c = s.contract === null ? null : (data.contractsByNum.get(s.contract) as Contract);
    const eth = s.eth
      ? {
          access_list: [],
          chain_id: CHAIN_ID_HEX,
          gas_price: '0x',
          max_fee_per_gas: '0x' + (71).toString(16), // tinybars a gas (710 gwei)
          max_priority_fee_per_gas: '0x0',
          r: '0x' + derivedHex(ts, 41, 32),
          s: '0x' + derivedHex(ts, 42, 32),
          type: 2,
          v: 1,
          nonce: s.ethNonce ?? 0,
        }
      : nativeFields();
    const obj: Record<string, unknown> = {
      address: c ? '0x' + c.evm : null,
      amount: int(s.amount),
      bloom: '',
      call_result: s.callResult,
      contract_id: c ? entityId(c.num) : null,
      created_contract_ids: [],
      error_message: s.error,
      from: longZero(s.sender.num),
      function_parameters: s.params,
      gas_consumed: s.partial ? null : s.gasConsumed,
      gas_limit: s.gasLimit,
      gas_used: gasUsed,
      timestamp: nsToTs(ts),
      to: c ? (s.eth ? '0x' + c.evm : longZero(c.num)) : null,
      hash: '0x' + derivedHex(ts, s.eth ? 43 : 44, 32),
      block_hash: '0x' + blockHash,
      block_number: blockNumber,
      result: s.result,
      transaction_index: 0,
      status: ok ? '0x1' : '0x0',
      failed_initcode: null, // failedInitcodeOf, below
      access_list: eth.access_list,
      block_gas_used: gasUsed ?? Math.floor(s.gasLimit * 0.8),
      chain_id: eth.chain_id,
      gas_price: eth.gas_price,
      max_fee_per_gas: eth.max_fee_per_gas,
      max_priority_fee_per_gas: eth.max_priority_fee_per_gas,
      r: eth.r,
      s: eth.s,
      type: eth.type,
      v: eth.v,
      nonce: eth.nonce,
    };
    // no authorization_list: the scenarios' Ethereum transactions (type 2) carry none (withAuthorizationList)
    // contractNum 0 for a failed deployment: it is indexed under no contract (below)
    const row: ContractResultRow = {
      tsNs: ts,
      top: true,
      contractNum: c ? c.num : 0,
      senderNum: s.sender.num,
      blockNumber,
      blockHash,
      txIndex: 0,
      nonce: 0,
      scenario: s.key,
      obj,
    };
    if (s.contract === null) row.deploy = true;
    if (s.trace) row.trace = s.trace;
    obj.failed_initcode = failedInitcodeOf(row);
    if (s.partial) row.partial = true;
    if (s.key === 'inspectorEthereum')
      row.record = {
        hbar: [
          { account: vault.num, amount: -WITHDRAW },
          { account: ALIAS_SENDER.num, amount: WITHDRAW },
        ],
      };
    const rows = [row];
    if (s.child) {
      const child: ContractResultRow = {
        tsNs: ts + 1n,
        top: false,
        contractNum: HTS_PRECOMPILE,
        senderNum: vault.num,
        blockNumber,
        blockHash,
        txIndex: 0,
        nonce: 1,
        parent: row,
        obj: {
          ...obj,
          ...nativeFields(),
          address: longZero(HTS_PRECOMPILE),
          amount: 0,
          bloom: '0x' + '0'.repeat(512),
          call_result: s.child.callResult,
          contract_id: entityId(HTS_PRECOMPILE),
          error_message: null,
          from: longZero(vault.num),
          function_parameters: s.child.params,
          gas_consumed: s.child.gas,
          gas_limit: Math.floor(s.gasLimit / 2),
          gas_used: s.child.gas,
          timestamp: nsToTs(ts + 1n),
          to: longZero(HTS_PRECOMPILE),
          result: 'SUCCESS',
          status: '0x1',
          failed_initcode: null,
        },
      };
      row.children = [child];
      rows.push(child);
    }
    // the result's bloom is its logs': computed when the result is first written, not at start
    if (s.partial) obj.bloom = '0x';
    else
      lazyBloom(obj, () => {
        const logs = build(row).exec.logs;
        return logs.length ? orBlooms(logs.map((l) => logBloom('0x' + l.evm, l.topics))) : '0x' + '0'.repeat(512);
      });
    for (const r of rows) {
      insertSorted(data.all, r);
      if (r.top) insertSorted(data.top, r);
      if (r.obj.contract_id === null) continue; // no contract's results
      const idx = data.byContract.get(r.contractNum);
      if (idx) {
        insertSorted(idx.all, r);
        if (r.top) insertSorted(idx.top, r);
      } else indexRow(data.byContract, r);
    }
    added(s, row);
  }
}

/** Whether a scenario's result is re-executed for `/opcodes` (the compiled contracts' are; the generated router's is not). */
export const isRealScenario = (key: string | undefined): key is RealKey =>
  key !== undefined && key !== 'inspectorBigTrace';

const party = (num: number, evm?: string): Record<string, string> => ({
  id: entityId(num),
  evm: '0x' + (evm ?? lz(num)),
});

/** The transaction id of a result (`0.0.7000-1793487600-123456789`): its payer and valid start. */
export function transactionIdOf(row: ContractResultRow): string {
  const id = txIdentity(row);
  return `${entityId(id.payer)}-${id.validStartNs / NS}-${(id.validStartNs % NS).toString().padStart(9, '0')}`;
}

/**
 * What the tests and the demo need of each scenario (GET /__sandbox/health `notable.inspector`): timestamp,
 * transaction id, the result's hash (Ethereum hash or the transaction hash's first 32 bytes), the transaction hash
 * (48 bytes), contract, sender, result, how many actions (0: none recorded), the failing action's index, children;
 * and the accounts and contracts involved.
 */
export function inspectorNotable(data: ContractData): Record<string, unknown> {
  const s = scenarioRows.get(data);
  const out: Record<string, unknown> = {};
  if (!s) return out;
  for (const [key, row] of s.rows) {
    const b = s.build(row);
    const failing = b.exec.failedAt;
    out[key] = {
      timestamp: row.obj.timestamp,
      transactionId: transactionIdOf(row),
      hash: row.obj.hash,
      transactionHash: '0x' + txIdentity(row).hash48,
      contractId: row.obj.contract_id,
      from: entityId(row.senderNum),
      result: row.obj.result,
      actions: b.noActions ? 0 : b.exec.frames.length,
      failingAction: failing >= 0 && !b.noActions ? failing : null,
      children: (row.children ?? []).map((c) => ({
        nonce: c.nonce,
        timestamp: c.obj.timestamp,
        contractId: c.obj.contract_id,
      })),
      opcodes: isRealScenario(key),
    };
  }
  out.accounts = {
    owner: party(OWNER.num, OWNER.evm),
    aliasSender: party(ALIAS_SENDER.num, ALIAS_SENDER.evm),
    depositor: party(DEPOSITOR.num),
    relay: party(RELAY),
    payoutToken: party(PAYOUT_TOKEN),
  };
  out.contracts = {
    vault: party(vault.num, vault.evm),
    ledger: party(ledger.num, ledger.evm),
    accounting: party(accounting.num, accounting.evm),
    vaultRules: party(rules.num, rules.evm),
    vaultProxy: party(proxy.num, proxy.evm),
    tokenPayer: party(TOKEN_PAYER.num),
  };
  return out;
}
