/**
 * Generated contract results: 5,200 top-level results (plus internal children) from many senders
 * to many contracts, grouped in blocks, with successes and reverts carrying real revert data.
 */
import { Prng } from '../prng';
import { CUSTOM_ERRORS, SELECTORS, addrWord, boolWord, errorString, panic, stringResult, uintWord, word } from '../abi';
import { ANCHOR_SEC, NS, entityId, longZero, tsNs, tsString } from './ids';
import { selectorOf } from '../keccak';
import type { OpcodesResponse } from '../../../src/api/mirrorTypes';

export interface ContractResultRow {
  tsNs: bigint;
  top: boolean;
  /** Entity num of `contract_id` (the called contract; for internal results the callee). */
  contractNum: number;
  /** Entity num the `from` filter matches (payer account, or calling contract for internal results). */
  senderNum: number;
  blockNumber: bigint;
  /** 96 lowercase hex chars, no 0x. */
  blockHash: string;
  txIndex: number;
  /** Transaction nonce: 0 for the transaction submitted, k for its k-th child (an internal result). */
  nonce: number;
  /** A child's parent (the result of the transaction submitted, nonce 0). */
  parent?: ContractResultRow;
  /** A parent's children (internal results), in nonce order. */
  children?: ContractResultRow[];
  /** The notable inspector scenario this result is (mirror/scenarios.ts), when it is one. */
  scenario?: string;
  /** Its opcode trace, re-executed (the placement ledger's runs, mirror/placement.ts); else the scenario's, if any. */
  trace?: (options: { stack: boolean; memory: boolean; storage: boolean }) => Promise<OpcodesResponse>;
  /** An incomplete record: its details answer 206 (mirror/scenarios.ts `inspectorPartial`). */
  partial?: boolean;
  /**
   * The transaction deploys the contract (a ContractCreate, or an Ethereum transaction without `to`), whether it
   * succeeded or not. Not `failed_initcode`: the real server fills that with the call data of any failed Ethereum
   * transaction, a reverted call too (failedInitcodeOf).
   */
  deploy?: boolean;
  /** HBAR its transaction moves besides the fee and the call's amount, e.g. a contract paying out (mirror/records.ts). */
  record?: { hbar?: { account: number; amount: bigint }[] };
  obj: Record<string, unknown>;
  json?: string;
  /** Cached JSON of the smaller object `/contracts/{id}/results` serves. */
  jsonById?: string;
}

export interface Sender {
  num: number;
  /** 40 lowercase hex, no 0x: long-zero for native accounts, an ECDSA alias for EVM senders. */
  evm: string;
  alias: boolean;
}

export interface Contract {
  num: number;
  evm: string; // 40 hex no 0x
  /**
   * `ledger`, `library`, `implementation`, `proxy` and `payer`: the inspector's Ledger, Accounting, VaultRules,
   * VaultProxy and TokenPayer (mirror/scenarios.ts); `placement`: the placement ledger's (mirror/placement.ts); never
   * picked at random.
   */
  kind:
    | 'erc20'
    | 'erc721'
    | 'router'
    | 'vault'
    | 'dao'
    | 'ledger'
    | 'library'
    | 'proxy'
    | 'implementation'
    | 'payer'
    | 'placement';
  name: string;
}

/** Results of one `contract_id`, ascending by timestamp (top-level only, and with internal results). */
export interface ContractResultsIndex {
  top: ContractResultRow[];
  all: ContractResultRow[];
}

/** State that lets results be appended after start (deterministic sequence, clock-dependent timestamps). */
interface LiveState {
  rng: Prng;
  ethNonce: Map<number, number>;
  lastBlock: bigint;
  lastBlockSec: bigint;
}

export interface ContractData {
  /** Top-level results, ascending by timestamp; appended to (never re-sorted) by addContractResults. */
  top: ContractResultRow[];
  /** Top-level and internal results, ascending by timestamp. */
  all: ContractResultRow[];
  senders: Sender[];
  contracts: Contract[];
  /** EVM alias (40 lowercase hex) to account num. */
  aliases: Map<string, number>;
  /** Per `contract_id` num, the same rows as `top`/`all`, ascending. */
  byContract: Map<number, ContractResultsIndex>;
  /** Contract num by its own (non long-zero) EVM address, 40 lowercase hex. */
  contractsByEvm: Map<string, number>;
  contractsByNum: Map<number, Contract>;
  /** Creation and runtime code of contracts compiled for real (the inspector's, mirror/scenarios.ts), by num. */
  code?: Map<number, { bytecode: string; runtime: string }>;
  /** Notable rows for tests and the demo. */
  notable: Record<string, string>;
  live: LiveState;
}

export interface AddContractResultsOptions {
  /** How many top-level results to add (default 1, at most 1000). */
  count?: number;
  /** The called contract: entity id (`num`, `realm.num`, `shard.realm.num`) or EVM address of a sandbox contract; default a random one. */
  contract?: string;
  /** true: every added result reverts (CONTRACT_REVERT_EXECUTED with revert data); false: all succeed; default: the generator's mix. */
  revert?: boolean;
}

export interface AddedContractResult {
  timestamp: string;
  contract_id: string;
  hash: string;
}

export const MAX_ADD = 1000;

/** Top-level results in all, with the inspector's scenarios: not a multiple of 100 (the last page is short, so paging takes exactly ceil(N/100) requests). */
export const TOP_COUNT = 5237;
const START_BLOCK = 87_400_000;
const START_SEC = ANCHOR_SEC - 42 * 86400;
/** The block of a second (2-second blocks). */
export const blockNumberAt = (sec: number): bigint => BigInt(START_BLOCK + Math.floor((sec - START_SEC) / 2));
export const CHAIN_ID_HEX = '0x128'; // 296, testnet
export const HTS_PRECOMPILE = 0x167;
/** Fungible HTS tokens the generated contracts move through the token service (transferToken). */
export const HTS_TOKENS = [7101, 7102, 7103, 7104, 7105];
/** A non-fungible HTS token the generated contracts move (transferNFT). */
export const HTS_NFT_TOKEN = 7120;

const REVERT_REASONS = [
  'ERC20: transfer amount exceeds balance',
  'ERC20: insufficient allowance',
  'Ownable: caller is not the owner',
  'Pausable: paused',
  'ReentrancyGuard: reentrant call',
  'UniswapV2Router: INSUFFICIENT_OUTPUT_AMOUNT',
  'Vault: withdrawal exceeds deposit',
  'DAO: voting period closed',
  'Ungültiger Betrag 🚫',
  '余额不足',
  'ERC721: caller is not token owner or approved',
];
const PANIC_CODES = [0x01, 0x11, 0x12, 0x21, 0x32, 0x41, 0x51];

/**
 * The generated contract results. `reserved` top-level results are left for the inspector's scenarios
 * (mirror/scenarios.ts), which the caller inserts: the total stays TOP_COUNT.
 */
export function generateContracts(rng: Prng, reserved = 0): ContractData {
  const senders: Sender[] = [];
  const aliases = new Map<string, number>();
  const usedNums = new Set<number>();
  const freshNum = (lo: number, hi: number): number => {
    for (;;) {
      const n = rng.int(lo, hi);
      if (!usedNums.has(n)) {
        usedNums.add(n);
        return n;
      }
    }
  };
  for (let i = 0; i < 22; i++) {
    const num = freshNum(1_200_000, 5_900_000);
    senders.push({ num, evm: longZero(num).slice(2), alias: false });
  }
  for (let i = 0; i < 14; i++) {
    const num = freshNum(4_000_000, 6_900_000);
    const evm = rng.hex(20);
    senders.push({ num, evm, alias: true });
    aliases.set(evm, num);
  }
  const kinds: Contract['kind'][] = ['erc20', 'erc721', 'router', 'vault', 'dao'];
  const names: Partial<Record<Contract['kind'], string[]>> = {
    erc20: ['SandToken', 'HbarX', 'USDC Bridge', 'KarateToken', 'SaucerLP'],
    erc721: ['Sandbox Punks', 'Hashgraph Heroes', 'DeepSea Tickets'],
    router: ['SaucerRouter', 'HeliSwapRouter'],
    vault: ['StakingVault', 'YieldVault', 'Escrow'],
    dao: ['GovernorBravo', 'TreasuryDAO'],
  };
  const contracts: Contract[] = [];
  for (let i = 0; i < 26; i++) {
    const kind = kinds[i % kinds.length];
    const num = freshNum(3_000_000, 6_500_000);
    contracts.push({
      num,
      evm: i % 2 === 0 ? longZero(num).slice(2) : rng.hex(20),
      kind,
      name: rng.pick(names[kind] as string[]),
    });
  }

  const heavy = senders.slice(0, 5);
  const top: ContractResultRow[] = [];
  const all: ContractResultRow[] = [];
  const ethNonce = new Map<number, number>();

  const count = TOP_COUNT - reserved;
  let sec = ANCHOR_SEC - 600;
  while (top.length < count) {
    sec -= rng.int(60, 2600);
    const blockNumber = blockNumberAt(sec);
    const blockHash = rng.hex(48);
    const nTx = rng.weighted([
      [1, 35],
      [2, 25],
      [3, 18],
      [4, 10],
      [5, 7],
      [6, 5],
    ] as const);
    let nanos = rng.int(0, 400_000_000);
    const blockRows: ContractResultRow[] = [];
    for (let t = 0; t < nTx && top.length + blockRows.length < count; t++) {
      nanos += rng.int(10_000, 80_000_000);
      const sender = rng.chance(0.35) ? rng.pick(heavy) : rng.pick(senders);
      const contract = rng.pick(contracts);
      const row = makeTop(rng, sec, nanos, blockNumber, blockHash, t, sender, contract, contracts, senders, ethNonce);
      blockRows.push(row);
      // internal children: same transaction, a few nanoseconds later
      if (row.obj.result === 'SUCCESS' && rng.chance(0.15)) {
        const n = rng.int(1, 3);
        for (let c = 1; c <= n; c++) blockRows.push(makeChild(rng, row, contract, c, contracts, senders));
        nanos += n;
      }
    }
    let gasUsed = 0;
    for (const r of blockRows) if (r.top) gasUsed += r.obj.gas_used as number;
    for (const r of blockRows) {
      r.obj.block_gas_used = gasUsed;
      all.push(r);
      if (r.top) top.push(r);
    }
  }
  const byTs = (a: ContractResultRow, b: ContractResultRow): number => (a.tsNs < b.tsNs ? -1 : a.tsNs > b.tsNs ? 1 : 0);
  top.sort(byTs);
  all.sort(byTs);

  // Big integers (bare JSON numbers past 2^53) on a few of the newest results.
  const notable: Record<string, string> = {};
  const n = top.length;
  const big1 = top[n - 2];
  big1.obj.amount = 9007199254740993n;
  notable.bigAmount = big1.obj.timestamp as string;
  const big2 = top[n - 5];
  big2.obj.gas_limit = 9223372036854775807n;
  notable.bigGasLimit = big2.obj.timestamp as string;
  const big3 = ensureEth(rng, top[n - 9]);
  big3.obj.nonce = 9007199254740997n;
  notable.bigNonce = big3.obj.timestamp as string;
  const big4 = top[n - 13];
  big4.blockNumber = 9007199254740999n;
  big4.blockHash = rng.hex(48);
  big4.txIndex = 0;
  Object.assign(big4.obj, { block_number: 9007199254740999n, block_hash: '0x' + big4.blockHash, transaction_index: 0 });
  notable.bigBlockNumber = big4.obj.timestamp as string;
  notable.bigBlockHash = '0x' + big4.blockHash;
  // the newest result is a clear revert with a readable reason, for the demo
  const demo = top[n - 1];
  const reason = errorString('ERC20: transfer amount exceeds balance');
  Object.assign(demo.obj, {
    result: 'CONTRACT_REVERT_EXECUTED',
    status: '0x0',
    error_message: reason,
    call_result: reason,
  });
  demo.obj.failed_initcode = failedInitcodeOf(demo);
  notable.newestRevert = demo.obj.timestamp as string;

  const byContract = new Map<number, ContractResultsIndex>();
  for (const r of all) indexRow(byContract, r);
  const contractsByEvm = new Map<string, number>();
  for (const c of contracts) if (!/^0{24}/.test(c.evm)) contractsByEvm.set(c.evm, c.num);
  // for /contracts/{id}/results: the contract with the most results, and one with its own (non long-zero) EVM address
  const busiest = contracts.reduce((a, b) =>
    (byContract.get(b.num)?.top.length ?? 0) > (byContract.get(a.num)?.top.length ?? 0) ? b : a,
  );
  notable.busiestContract = entityId(busiest.num);
  const withEvm = contracts.find(
    (c) => contractsByEvm.has(c.evm) && (byContract.get(c.num)?.top.length ?? 0) > 0,
  ) as Contract;
  notable.evmContract = entityId(withEvm.num);
  notable.evmContractAddress = '0x' + withEvm.evm;
  const newest = all[all.length - 1];
  const live: LiveState = {
    rng: new Prng(0x4c495645),
    ethNonce,
    lastBlock: newest.blockNumber,
    lastBlockSec: newest.tsNs / NS,
  };
  return {
    top,
    all,
    senders,
    contracts,
    aliases,
    byContract,
    contractsByEvm,
    contractsByNum: new Map(contracts.map((c) => [c.num, c])),
    notable,
    live,
  };
}

/** Appends a row (ascending order is the caller's guarantee) to the per-contract index. */
export function indexRow(byContract: Map<number, ContractResultsIndex>, r: ContractResultRow): void {
  let idx = byContract.get(r.contractNum);
  if (!idx) byContract.set(r.contractNum, (idx = { top: [], all: [] }));
  idx.all.push(r);
  if (r.top) idx.top.push(r);
}

/**
 * Appends `count` new top-level results (with internal children now and then, as generated) after every
 * existing one, timestamped at `nowMs` (nanoseconds apart, strictly increasing even if the clock is behind the
 * data), in new blocks that continue the chain (2-second blocks, 1-6 transactions each). Every array and index
 * stays sorted by appending; nothing is re-sorted. Throws on invalid options (message for a 400).
 */
export function addContractResults(
  data: ContractData,
  nowMs: number,
  opts: AddContractResultsOptions = {},
): AddedContractResult[] {
  const count = opts.count ?? 1;
  if (typeof count !== 'number' || !Number.isInteger(count) || count < 1 || count > MAX_ADD)
    throw new Error(`count must be an integer 1..${MAX_ADD}`);
  if (opts.revert !== undefined && typeof opts.revert !== 'boolean') throw new Error('revert must be a boolean');
  let fixed: Contract | undefined;
  if (opts.contract !== undefined) {
    const num = typeof opts.contract === 'string' ? resolveContract(data, opts.contract) : null;
    fixed = num === null ? undefined : data.contractsByNum.get(num);
    if (!fixed || fixed.kind === 'library')
      throw new Error(
        `contract must be the id or EVM address of a sandbox contract, e.g. ${entityId(data.contracts[0].num)}`,
      );
  }
  const { rng, ethNonce } = data.live;
  const heavy = data.senders.slice(0, 5);
  const added: AddedContractResult[] = [];
  let last = data.all[data.all.length - 1].tsNs;
  let ts = BigInt(Math.floor(nowMs)) * 1_000_000n + BigInt(rng.int(0, 999_999));
  while (added.length < count) {
    if (ts <= last) ts = last + BigInt(rng.int(1_000, 400_000));
    const sec = ts / NS;
    const elapsedBlocks = (sec - data.live.lastBlockSec) / 2n; // 2-second blocks
    const blockNumber = data.live.lastBlock + (elapsedBlocks > 1n ? elapsedBlocks : 1n);
    const blockHash = rng.hex(48);
    const nTx = Math.min(
      count - added.length,
      rng.weighted([
        [1, 35],
        [2, 25],
        [3, 18],
        [4, 10],
        [5, 7],
        [6, 5],
      ] as const),
    );
    const blockRows: ContractResultRow[] = [];
    for (let t = 0; t < nTx; t++) {
      if (t > 0) ts += BigInt(rng.int(1_000, 400_000));
      const sender = rng.chance(0.35) ? rng.pick(heavy) : rng.pick(data.senders);
      const contract = fixed ?? rng.pick(data.contracts);
      const row = makeTop(
        rng,
        Number(ts / NS),
        Number(ts % NS),
        blockNumber,
        blockHash,
        t,
        sender,
        contract,
        data.contracts,
        data.senders,
        ethNonce,
        { revert: opts.revert },
      );
      blockRows.push(row);
      if (row.obj.result === 'SUCCESS' && rng.chance(0.15)) {
        const n = rng.int(1, 3);
        for (let c = 1; c <= n; c++) blockRows.push(makeChild(rng, row, contract, c, data.contracts, data.senders));
        ts += BigInt(n);
      }
      added.push({
        timestamp: row.obj.timestamp as string,
        contract_id: row.obj.contract_id as string,
        hash: row.obj.hash as string,
      });
    }
    let gasUsed = 0;
    for (const r of blockRows) if (r.top) gasUsed += r.obj.gas_used as number;
    for (const r of blockRows) {
      r.obj.block_gas_used = gasUsed;
      data.all.push(r);
      if (r.top) data.top.push(r);
      indexRow(data.byContract, r);
    }
    last = blockRows[blockRows.length - 1].tsNs;
    data.live.lastBlock = blockNumber;
    data.live.lastBlockSec = sec;
  }
  return added;
}

/** A sandbox contract's num from an entity id (`num`, `realm.num`, `shard.realm.num`, shard and realm 0) or its EVM address; null otherwise. */
export function resolveContract(data: ContractData, v: string): number | null {
  let m = /^(?:(?:0\.)?0\.)?(\d{1,12})$/.exec(v);
  if (m) return data.contractsByNum.has(Number(m[1])) ? Number(m[1]) : null;
  m = /^(?:0x)?([0-9a-fA-F]{40})$/.exec(v);
  if (!m) return null;
  const hex = m[1].toLowerCase();
  const num = /^0{24}/.test(hex) ? Number(BigInt('0x' + hex.slice(24))) : data.contractsByEvm.get(hex);
  return num !== undefined && data.contractsByNum.has(num) ? num : null;
}

function ensureEth(rng: Prng, row: ContractResultRow): ContractResultRow {
  if (isEthereum(row.obj)) return row;
  const { authorization_list: list, ...fields } = ethFields(rng, 2, 1);
  Object.assign(row.obj, fields);
  row.obj = withAuthorizationList(row.obj, list as unknown[]);
  row.obj.failed_initcode = failedInitcodeOf(row);
  return row;
}

const WEIBARS_PER_TINYBAR = 10_000_000_000n;
const FEE_KEYS = ['gas_price', 'max_fee_per_gas', 'max_priority_fee_per_gas'];

/**
 * A result with `hbar=false`: the amount in weibars and an Ethereum transaction's gas prices as its raw weibar
 * values (the real view model converts them to tinybars only by default); a HAPI call's null prices stay null.
 */
export function weibarObject(obj: Record<string, unknown>): Record<string, unknown> {
  const o: Record<string, unknown> = { ...obj, amount: BigInt(obj.amount as number | bigint) * WEIBARS_PER_TINYBAR };
  for (const k of FEE_KEYS) {
    const v = o[k];
    if (typeof v === 'string' && v !== '0x') o[k] = '0x' + (BigInt(v) * WEIBARS_PER_TINYBAR).toString(16);
  }
  return o;
}

/** Whether a result object is an Ethereum transaction's: only those carry a signature (`r`; a native result's is null). */
export const isEthereum = (obj: Record<string, unknown>): boolean => typeof obj.r === 'string';

/**
 * The result object with its Ethereum transaction's `authorization_list` (EIP-7702), where the real view model writes
 * it: right after `amount`, and only when the list is not empty. hiero-mirror-node `rest/viewmodel/
 * contractResultViewModel.js` (`if (config.response.enableDelegationAddress && !isEmpty(contractResult
 * .authorizationList))`, the base of the list's, the details' and /contracts/{id}/results' objects; its query joins
 * `ethereum_transaction.authorization_list`), and the spec `contracts/results/no-params.json` of HIP-1340 (PR
 * 13222): a type 2 transaction without a list has no key. (0.160 sent `[]` on every Ethereum result instead.)
 */
export function withAuthorizationList(
  obj: Record<string, unknown>,
  list: readonly unknown[] | null | undefined,
): Record<string, unknown> {
  const rest = { ...obj };
  delete rest.authorization_list;
  if (!list || list.length === 0) return rest;
  const out: Record<string, unknown> = {};
  for (const [k, v] of Object.entries(rest)) {
    out[k] = v;
    if (k === 'amount') out.authorization_list = list;
  }
  return out;
}

/**
 * `failed_initcode` as ContractResultDetailsViewModel writes it (hiero-mirror-node `rest/viewmodel/
 * contractResultDetailsViewModel.js`): the record's own failed init code (a failed ContractCreate), else, for a
 * failed transaction with an Ethereum transaction, that transaction's call data (`ethTransaction.callData`, when not
 * empty), **whatever the call**: a reverted call to an existing contract has its call data there too (spec
 * `contracts/results/{id}/failed-ethereum-transaction-with-contract-result-with-nullable-to.json`: a call with a
 * `to_address`, `failed_initcode` "0x0707" = its call data). Else null (a success, a native call, a child: a child
 * has no Ethereum transaction of its own).
 */
export function failedInitcodeOf(row: Pick<ContractResultRow, 'obj' | 'deploy'>): string | null {
  const o = row.obj;
  if (o.status !== '0x0') return null;
  const params = typeof o.function_parameters === 'string' ? o.function_parameters : '0x';
  if (isEthereum(o)) return params !== '0x' && params !== '' ? params : null;
  return row.deploy ? params : null;
}

export const ZERO_BLOOM = '0x' + '0'.repeat(512);

function randomBloom(rng: Prng, logs: boolean): string {
  if (!logs) return ZERO_BLOOM;
  const positions: number[] = [];
  for (let i = 0; i < 9; i++) positions.push(2 + rng.int(0, 511));
  positions.sort((a, b) => a - b);
  let out = '';
  let at = 0;
  for (const p of positions) {
    if (p < at) continue;
    out += ZERO_BLOOM.slice(at, p) + rng.pick(['1', '2', '4', '8']);
    at = p + 1;
  }
  return out + ZERO_BLOOM.slice(at);
}

interface Call {
  params: string;
  output: string;
  payable: boolean;
  logs: boolean;
}

function makeCall(rng: Prng, c: Contract, contracts: Contract[], senders: Sender[]): Call {
  const someAddr = (): string => (rng.chance(0.5) ? rng.pick(senders).evm : rng.pick(contracts).evm);
  const amount = (): bigint => BigInt(rng.int(1, 5_000_000)) * 10n ** BigInt(rng.pick([6, 8, 12, 18]));
  const s = SELECTORS;
  switch (c.kind) {
    case 'erc20': {
      const f = rng.weighted([
        ['transfer', 5],
        ['approve', 3],
        ['transferFrom', 2],
        ['mint', 1],
        ['balanceOf', 1],
        ['name', 1],
      ] as const);
      if (f === 'transfer')
        return {
          params: `0x${s.transfer}${addrWord(someAddr())}${uintWord(amount())}`,
          output: '0x' + boolWord(true),
          payable: false,
          logs: true,
        };
      if (f === 'approve')
        return {
          params: `0x${s.approve}${addrWord(someAddr())}${uintWord(amount())}`,
          output: '0x' + boolWord(true),
          payable: false,
          logs: true,
        };
      if (f === 'transferFrom')
        return {
          params: `0x${s.transferFrom}${addrWord(someAddr())}${addrWord(someAddr())}${uintWord(amount())}`,
          output: '0x' + boolWord(true),
          payable: false,
          logs: true,
        };
      if (f === 'mint')
        return {
          params: `0x${s.mint}${addrWord(someAddr())}${uintWord(amount())}`,
          output: '0x',
          payable: false,
          logs: true,
        };
      if (f === 'balanceOf')
        return {
          params: `0x${s.balanceOf}${addrWord(someAddr())}`,
          output: '0x' + uintWord(amount()),
          payable: false,
          logs: false,
        };
      return { params: `0x${s.name}`, output: stringResult(c.name), payable: false, logs: false };
    }
    case 'erc721': {
      const f = rng.weighted([
        ['safeTransferFrom', 4],
        ['setApprovalForAll', 2],
        ['mint', 2],
        ['burn', 1],
      ] as const);
      const serial = BigInt(rng.int(1, 12000));
      if (f === 'safeTransferFrom')
        return {
          params: `0x${s.safeTransferFrom}${addrWord(someAddr())}${addrWord(someAddr())}${uintWord(serial)}`,
          output: '0x',
          payable: false,
          logs: true,
        };
      if (f === 'setApprovalForAll')
        return {
          params: `0x${s.setApprovalForAll}${addrWord(someAddr())}${boolWord(rng.chance(0.8))}`,
          output: '0x',
          payable: false,
          logs: true,
        };
      if (f === 'mint')
        return {
          params: `0x${s.mint}${addrWord(someAddr())}${uintWord(serial)}`,
          output: '0x',
          payable: false,
          logs: true,
        };
      return { params: `0x${s.burn}${uintWord(serial)}`, output: '0x', payable: false, logs: true };
    }
    case 'router': {
      const path = [rng.pick(contracts).evm, rng.pick(contracts).evm, rng.pick(contracts).evm].slice(0, rng.int(2, 3));
      const amountIn = amount();
      // swapExactTokensForTokens(uint256,uint256,address[],address,uint256): head of 5 words, then the array tail
      const params =
        `0x${s.swapExactTokensForTokens}${uintWord(amountIn)}${uintWord((amountIn * 97n) / 100n)}${uintWord(160)}` +
        `${addrWord(someAddr())}${uintWord(ANCHOR_SEC + 3600)}${uintWord(path.length)}${path.map(addrWord).join('')}`;
      const out = `0x${uintWord(32)}${uintWord(path.length)}${path.map(() => uintWord(amount())).join('')}`;
      return { params, output: out, payable: false, logs: true };
    }
    case 'vault': {
      if (rng.chance(0.5)) return { params: `0x${s.deposit}`, output: '0x', payable: true, logs: true };
      return { params: `0x${s.withdraw}${uintWord(amount())}`, output: '0x', payable: false, logs: true };
    }
    case 'ledger':
      // record(address,uint256), the inspector's Ledger (only when a live result names it)
      return {
        params: `0x${selectorOf('record(address,uint256)')}${addrWord(someAddr())}${uintWord(rng.int(1, 5_000_000))}`,
        output: '0x',
        payable: false,
        logs: true,
      };
    default:
      // a call without a known selector (castVote(uint256,uint8)-like) and raw args
      return {
        params: `0x56781388${uintWord(rng.int(1, 80))}${uintWord(rng.int(0, 2))}`,
        output: '0x' + word(rng.hex(32)),
        payable: false,
        logs: true,
      };
  }
}

function ethFields(rng: Prng, type: number, nonce: number): Record<string, unknown> {
  // 710-1000 gwei a gas, in tinybars as the default answer (hbar=true) converts them: 71-100 (weibarObject gives weibars)
  const gasPrice = '0x' + (BigInt(rng.pick([710, 720, 850, 1000])) / 10n).toString(16);
  // a legacy transaction has no access list: the real view model sends [] (accessList ?? [])
  const accessList =
    type === 0
      ? []
      : rng.chance(0.7)
        ? []
        : [{ address: '0x' + rng.hex(20), storage_keys: ['0x' + word(rng.int(0, 200).toString(16))] }];
  return {
    access_list: accessList,
    chain_id: CHAIN_ID_HEX,
    // a fee the transaction does not carry is '0x' (the view model's hex of empty bytes), never null
    gas_price: type === 2 || type === 4 ? '0x' : gasPrice,
    max_fee_per_gas: type === 2 || type === 4 ? gasPrice : '0x',
    max_priority_fee_per_gas: type === 2 || type === 4 ? '0x' + rng.int(0, 100).toString(16) : '0x',
    r: '0x' + rng.hex(32),
    s: '0x' + rng.hex(32),
    type,
    v: type === 0 ? rng.pick([627, 628]) : rng.int(0, 1),
    nonce,
    authorization_list:
      type === 4
        ? [
            {
              chain_id: CHAIN_ID_HEX,
              address: '0x' + rng.hex(20),
              nonce: nonce + 1,
              y_parity: '0x' + rng.int(0, 1),
              r: '0x' + rng.hex(32),
              s: '0x' + rng.hex(32),
            },
          ]
        : [],
  };
}

/**
 * The Ethereum fields of a native (HAPI ContractCall/ContractCreate) result, as the real
 * ContractResultDetailsViewModel sends them (spec tests contracts/results/from-sender.json, no-params.json,
 * contracts/results/{id}/by-hash-no-eth-tx.json): `access_list` [], `chain_id` the network's, `type` 0, the rest
 * null, and **no `authorization_list` key** (only an Ethereum transaction that carries a list has one:
 * withAuthorizationList). A fresh object per row.
 */
export const nativeFields = (): Record<string, unknown> => ({
  access_list: [],
  chain_id: CHAIN_ID_HEX,
  gas_price: null,
  max_fee_per_gas: null,
  max_priority_fee_per_gas: null,
  r: null,
  s: null,
  type: 0,
  v: null,
  nonce: null,
});

function makeTop(
  rng: Prng,
  sec: number,
  nanos: number,
  blockNumber: bigint,
  blockHash: string,
  txIndex: number,
  sender: Sender,
  contract: Contract,
  contracts: Contract[],
  senders: Sender[],
  ethNonce: Map<number, number>,
  live?: { revert?: boolean },
): ContractResultRow {
  // live results never deploy (their call data always starts with a selector); the draw is kept so the
  // generated data does not depend on whether live options exist
  const deploy = rng.chance(0.02) && !live;
  const call = deploy
    ? {
        params: '0x6080604052348015600f57600080fd5b50' + rng.hex(rng.int(60, 200)),
        output: '0x',
        payable: false,
        logs: true,
      }
    : makeCall(rng, contract, contracts, senders);
  const drawn = rng.weighted([
    ['SUCCESS', 780],
    ['CONTRACT_REVERT_EXECUTED', 150],
    ['INSUFFICIENT_GAS', 30],
    ['MAX_GAS_LIMIT_EXCEEDED', 10],
    ['CONTRACT_EXECUTION_EXCEPTION', 15],
    ['INVALID_SOLIDITY_ADDRESS', 8],
    ['MAX_CHILD_RECORDS_EXCEEDED', 7],
  ] as const);
  const result = live?.revert === true ? 'CONTRACT_REVERT_EXECUTED' : live?.revert === false ? 'SUCCESS' : drawn;
  const gasLimit = rng.pick([60_000, 100_000, 150_000, 300_000, 400_000, 800_000, 1_000_000, 3_000_000, 15_000_000]);
  let consumed = Math.min(gasLimit, rng.int(21_000, 21_000 + Math.floor(gasLimit * 0.7)));
  let errorMessage: string | null = null;
  let output = call.output;
  if (result === 'CONTRACT_REVERT_EXECUTED') {
    const kind = rng.weighted([
      ['error', 55],
      ['panic', 20],
      ['custom', 20],
      ['empty', 5],
    ] as const);
    if (kind === 'error') errorMessage = errorString(rng.pick(REVERT_REASONS));
    else if (kind === 'panic') errorMessage = panic(rng.pick(PANIC_CODES));
    else if (kind === 'custom') {
      const e = rng.pick(['own', 'bal', 'nft', 'reent'] as const);
      if (e === 'own') errorMessage = `0x${CUSTOM_ERRORS.OwnableUnauthorizedAccount}${addrWord(sender.evm)}`;
      else if (e === 'bal')
        errorMessage = `0x${CUSTOM_ERRORS.ERC20InsufficientBalance}${addrWord(sender.evm)}${uintWord(rng.int(0, 1000))}${uintWord(rng.int(1001, 99999))}`;
      else if (e === 'nft') errorMessage = `0x${CUSTOM_ERRORS.ERC721NonexistentToken}${uintWord(rng.int(1, 99999))}`;
      else errorMessage = `0x${CUSTOM_ERRORS.ReentrancyGuardReentrantCall}`;
    } else errorMessage = '0x';
    output = errorMessage;
  } else if (result !== 'SUCCESS') {
    errorMessage = result;
    output = '0x';
    if (result === 'INSUFFICIENT_GAS' || result === 'MAX_GAS_LIMIT_EXCEEDED') consumed = gasLimit;
  }
  const gasUsed = Math.max(consumed, Math.floor(gasLimit * 0.8)); // Hedera charges at least 80% of the limit
  const isEth = sender.alias;
  let eth: Record<string, unknown> = nativeFields();
  if (isEth) {
    const nonce = ethNonce.get(sender.num) ?? rng.int(0, 40);
    ethNonce.set(sender.num, nonce + 1);
    eth = ethFields(
      rng,
      rng.weighted([
        [2, 70],
        [0, 18],
        [1, 6],
        [4, 6],
      ] as const),
      nonce,
    );
  }
  const ok = result === 'SUCCESS';
  const createdId = deploy && ok ? [entityId(contract.num)] : [];
  const obj: Record<string, unknown> = {
    address: '0x' + contract.evm,
    amount: call.payable ? rng.int(1, 500) * 100_000_000 : 0,
    bloom: randomBloom(rng, ok && call.logs),
    call_result: output,
    contract_id: entityId(contract.num),
    created_contract_ids: createdId,
    error_message: errorMessage,
    // the sender's long-zero address, also for an Ethereum transaction from an account with an alias (the view
    // model writes EntityId(sender_id).toEvmAddress(), spec contracts/results/*.json)
    from: longZero(sender.num),
    function_parameters: call.params,
    gas_consumed: consumed,
    gas_limit: gasLimit,
    gas_used: gasUsed,
    timestamp: tsString(sec, nanos),
    // the contract's long-zero address, also on a create (ContractResultViewModel: contractId.toEvmAddress()); an
    // Ethereum call has the address its sender used (the view model takes the transaction's to_address when set)
    to: isEth && !deploy ? '0x' + contract.evm : longZero(contract.num),
    hash: '0x' + rng.hex(32),
    block_hash: '0x' + blockHash,
    block_number: blockNumber,
    result,
    transaction_index: txIndex,
    status: ok ? '0x1' : '0x0',
    failed_initcode: null, // failedInitcodeOf, below
    access_list: eth.access_list,
    block_gas_used: 0,
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
  const row: ContractResultRow = {
    tsNs: tsNs(sec, nanos),
    top: true,
    contractNum: contract.num,
    senderNum: sender.num,
    blockNumber,
    blockHash,
    txIndex,
    nonce: 0,
    obj: withAuthorizationList(obj, isEth ? (eth.authorization_list as unknown[]) : null),
  };
  if (deploy) row.deploy = true;
  row.obj.failed_initcode = failedInitcodeOf(row);
  return row;
}

/**
 * The k-th child of a successful result: a call of the token service (0x167, an internal result of 0.0.359:
 * `transferToken` of one of HTS_TOKENS, or `transferNFT` of HTS_NFT_TOKEN, from the calling contract to a sender)
 * or an ERC-20 `transfer` on another contract; timestamped k nanoseconds after its parent.
 */
function makeChild(
  rng: Prng,
  parent: ContractResultRow,
  caller: Contract,
  k: number,
  contracts: Contract[],
  senders: Sender[],
): ContractResultRow {
  const hts = rng.chance(0.6);
  const target = hts ? null : rng.pick(contracts);
  const targetNum = target ? target.num : HTS_PRECOMPILE;
  const targetEvm = target ? target.evm : longZero(HTS_PRECOMPILE).slice(2);
  const ts = parent.tsNs + BigInt(k);
  const gasLimit = Math.floor((parent.obj.gas_limit as number) / 2);
  const consumed = rng.int(2_000, Math.max(2_001, Math.floor(gasLimit / 3)));
  const parentObj = { ...parent.obj };
  delete parentObj.authorization_list; // a child has no Ethereum transaction (nor failed_initcode: set below)
  const obj: Record<string, unknown> = {
    ...parentObj,
    ...nativeFields(),
    address: '0x' + targetEvm,
    amount: 0,
    bloom: randomBloom(rng, true),
    call_result: '0x' + uintWord(22), // HTS response code SUCCESS (22)
    contract_id: entityId(targetNum),
    created_contract_ids: [],
    error_message: null,
    from: longZero(caller.num), // sender_id is the calling contract: its long-zero address
    function_parameters: childParams(hts, ts, caller, rng.hex(20), rng.int(1, 1_000_000), senders),
    gas_consumed: consumed,
    gas_limit: gasLimit,
    gas_used: consumed,
    timestamp: `${ts / 1_000_000_000n}.${(ts % 1_000_000_000n).toString().padStart(9, '0')}`,
    to: longZero(targetNum),
    result: 'SUCCESS',
    status: '0x1',
    failed_initcode: null,
  };
  const row: ContractResultRow = {
    tsNs: ts,
    top: false,
    contractNum: targetNum,
    senderNum: caller.num,
    blockNumber: parent.blockNumber,
    blockHash: parent.blockHash,
    txIndex: parent.txIndex,
    nonce: k,
    parent,
    obj,
  };
  (parent.children ??= []).push(row);
  return row;
}

/**
 * A child's call data. The token service: `transferToken(token, caller, recipient, amount)` (two in three, by
 * timestamp) or `transferNFT(token, caller, recipient, serial)`, the recipient a sender picked by the drawn bytes.
 * Another contract: ERC-20 `transfer(drawn address, amount)`.
 */
function childParams(
  hts: boolean,
  ts: bigint,
  caller: Contract,
  drawn: string,
  amount: number,
  senders: Sender[],
): string {
  if (!hts) return `0x${SELECTORS.transfer}${addrWord(drawn)}${uintWord(amount)}`;
  const recipient = senders[parseInt(drawn.slice(0, 8), 16) % senders.length];
  const caller20 = caller.evm;
  if (ts % 3n !== 0n) {
    const token = HTS_TOKENS[Number(ts % BigInt(HTS_TOKENS.length))];
    return `0x${selectorOf('transferToken(address,address,address,int64)')}${addrWord(longZero(token))}${addrWord(caller20)}${addrWord(recipient.evm)}${uintWord(amount)}`;
  }
  return `0x${selectorOf('transferNFT(address,address,address,int64)')}${addrWord(longZero(HTS_NFT_TOKEN))}${addrWord(caller20)}${addrWord(recipient.evm)}${uintWord(1 + (amount % 5000))}`;
}
