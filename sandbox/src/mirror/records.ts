/**
 * The transaction behind each contract result, as `/api/v1/transactions` shows it: its id (payer and valid start),
 * its 48-byte hash (for a HAPI call, its first 32 bytes are the result's `hash`: the mirror node's
 * contract_transaction_hash lookup), node, fee and transfers. Derived from the result on demand (a stateless hash of
 * its timestamp), never stored for all: the parent (nonce 0) is the transaction submitted, each internal result a
 * child (nonce k, k nanoseconds later, same id and hash, no fee). HBAR transfers sum to zero: the payer pays the fee
 * (and the call's amount), the node, the fee account 0.0.98 and the staking reward account 0.0.800 share it. An
 * Ethereum transaction is paid by the relay's account (RELAY) and its gas by the sender.
 */
import { hash32 } from '../prng';
import { HTS_NFT_TOKEN, HTS_PRECOMPILE, type ContractData, type ContractResultRow, isEthereum } from './contracts';
import { NS, entityId, longZero, nsToTs } from './ids';

/** The account of the JSON-RPC relay that submits Ethereum transactions (their payer). */
export const RELAY = 7100;
const FEE_ACCOUNT = 98;
const STAKING_REWARD_ACCOUNT = 800;

/** HTS tokens with a fractional custom fee (assessed on transfers; the receiver pays it). */
export const FRACTIONAL_FEES: ReadonlyMap<number, { numerator: bigint; denominator: bigint; collector: number }> =
  new Map([
    [7101, { numerator: 1n, denominator: 100n, collector: 7109 }],
    [7004, { numerator: 1n, denominator: 1000n, collector: 7009 }],
  ]);

export interface Transfer {
  account: number;
  amount: bigint;
}
export interface TokenTransfer {
  token: number;
  account: number;
  amount: bigint;
}
export interface NftMove {
  token: number;
  sender: number;
  receiver: number;
  serial: bigint;
}
export interface AssessedFee {
  amount: bigint;
  collector: number;
  payers: number[];
  token: number | null;
}

export interface TxRecord {
  payer: number;
  validStartNs: bigint;
  /** `0.0.payer-seconds-nanos`. */
  id: string;
  /** 96 lowercase hex. */
  hash48: string;
  node: number;
  name: string;
  entity: number | null;
  fee: bigint;
  maxFee: string;
  transfers: Transfer[];
  tokens: TokenTransfer[];
  nfts: NftMove[];
  assessed: AssessedFee[];
}

/** A 32-bit value of a timestamp and a salt (the same every time). */
export function mix(ts: bigint, salt: number): number {
  return hash32(Number(ts & 0x7fffffffn) ^ hash32(Number((ts >> 31n) & 0x7fffffffn), salt), salt);
}

/** `bytes` bytes of hex derived from a timestamp and a salt. */
export function derivedHex(ts: bigint, salt: number, bytes: number): string {
  let out = '';
  for (let i = 0; out.length < bytes * 2; i++)
    out += mix(ts, salt * 977 + i)
      .toString(16)
      .padStart(8, '0');
  return out.slice(0, bytes * 2);
}

const records = new WeakMap<ContractResultRow, TxRecord>();

/** What identifies a result's transaction: payer, valid start, hash, node (a child's are its parent's). Cheap. */
export interface TxIdentity {
  payer: number;
  validStartNs: bigint;
  hash48: string;
  node: number;
}

export function txIdentity(row: ContractResultRow): TxIdentity {
  if (row.parent) return txIdentity(row.parent);
  const eth = isEthereum(row.obj);
  return {
    payer: eth ? RELAY : row.senderNum,
    validStartNs: row.tsNs - NS - BigInt(mix(row.tsNs, 1) % 8_000_000_000),
    hash48: eth ? derivedHex(row.tsNs, 2, 48) : (row.obj.hash as string).slice(2) + derivedHex(row.tsNs, 3, 16),
    node: 3 + (mix(row.tsNs, 4) % 7),
  };
}

/** The EVM address (40 hex) an account or contract uses, to its entity num; undefined when no entity has it. */
export function numOfAddress(data: ContractData, evm: string): number | undefined {
  const hex = evm.replace(/^0x/, '').toLowerCase();
  if (/^0{24}/.test(hex)) return Number(BigInt('0x' + hex.slice(24)));
  return data.aliases.get(hex) ?? data.contractsByEvm.get(hex);
}

const word = (params: string, i: number): string => params.slice(10 + i * 64, 10 + (i + 1) * 64);
const addressWord = (params: string, i: number): string => word(params, i).slice(24);

/** Adds the amounts of one account together and orders them as the real query does (account, then amount). */
function merged(list: Transfer[]): Transfer[] {
  const by = new Map<number, bigint>();
  for (const t of list) by.set(t.account, (by.get(t.account) ?? 0n) + t.amount);
  return [...by]
    .filter(([, a]) => a !== 0n)
    .map(([account, amount]) => ({ account, amount }))
    .sort((a, b) => a.account - b.account || (a.amount < b.amount ? -1 : 1));
}

/** The fee of a result's transaction: the HAPI part and the gas (gas used at 71-86 tinybars a gas). */
function fees(row: ContractResultRow): { base: bigint; gas: bigint } {
  const price = 71n + BigInt(mix(row.tsNs, 11) % 16);
  // an incomplete record has no gas used: 80% of the limit, what Hedera charges at least
  const used = (row.obj.gas_used as number | bigint | null) ?? Math.floor(Number(row.obj.gas_limit) * 0.8);
  return { base: 480_000n + BigInt(mix(row.tsNs, 12) % 320_000), gas: BigInt(used) * price };
}

function feeShares(total: bigint, node: number): Transfer[] {
  const toNode = total / 20n;
  const staking = total / 10n;
  return [
    { account: node, amount: toNode },
    { account: FEE_ACCOUNT, amount: total - toNode - staking },
    { account: STAKING_REWARD_ACCOUNT, amount: staking },
  ];
}

/**
 * The token moves of a child that calls the token service: `transferToken(token, sender, receiver, amount)` (with
 * the token's fractional fee, paid by the receiver) or `transferNFT(token, sender, receiver, serial)`.
 */
function tokenMoves(
  data: ContractData,
  child: ContractResultRow,
): { tokens: TokenTransfer[]; nfts: NftMove[]; assessed: AssessedFee[] } {
  const params = child.obj.function_parameters as string;
  const none = { tokens: [], nfts: [], assessed: [] };
  if (child.contractNum !== HTS_PRECOMPILE || params.length < 10 + 4 * 64) return none;
  const token = numOfAddress(data, addressWord(params, 0));
  const sender = numOfAddress(data, addressWord(params, 1));
  const receiver = numOfAddress(data, addressWord(params, 2));
  const amount = BigInt('0x' + word(params, 3));
  if (token === undefined || sender === undefined || receiver === undefined) return none;
  if (token === HTS_NFT_TOKEN) return { tokens: [], nfts: [{ token, sender, receiver, serial: amount }], assessed: [] };
  const fee = FRACTIONAL_FEES.get(token);
  const charged = fee ? (amount * fee.numerator) / fee.denominator || 1n : 0n;
  const tokens: TokenTransfer[] = [
    { token, account: sender, amount: -amount },
    { token, account: receiver, amount: amount - charged },
  ];
  const assessed: AssessedFee[] = [];
  if (fee) {
    tokens.push({ token, account: fee.collector, amount: charged });
    assessed.push({ amount: charged, collector: fee.collector, payers: [receiver], token });
  }
  tokens.sort((a, b) => a.token - b.token || a.account - b.account);
  return { tokens, nfts: [], assessed };
}

/** The transaction record of a contract result (a child's shares its parent's id, hash and node). */
export function txRecord(data: ContractData, row: ContractResultRow): TxRecord {
  let rec = records.get(row);
  if (rec) return rec;
  if (row.parent) {
    const p = txRecord(data, row.parent);
    const hts = row.contractNum === HTS_PRECOMPILE;
    const moves = tokenMoves(data, row);
    rec = {
      ...p,
      name: hts ? 'CRYPTOTRANSFER' : 'CONTRACTCALL',
      entity: hts ? null : row.contractNum,
      fee: 0n,
      maxFee: '0',
      transfers: [],
      ...moves,
    };
  } else {
    const eth = isEthereum(row.obj);
    const { payer, validStartNs, hash48, node } = txIdentity(row);
    const ok = row.obj.result === 'SUCCESS';
    // a creation by its transaction, not by failed_initcode (a failed Ethereum call has its call data there too)
    const create = (row.obj.created_contract_ids as string[]).length > 0 || row.deploy === true;
    const { base, gas } = fees(row);
    const amount = ok ? BigInt(row.obj.amount as number | bigint) : 0n;
    const list: Transfer[] = [...feeShares(base + gas, node)];
    if (eth) list.push({ account: RELAY, amount: -base }, { account: row.senderNum, amount: -gas - amount });
    else list.push({ account: payer, amount: -base - gas - amount });
    if (amount !== 0n) list.push({ account: row.contractNum, amount });
    for (const t of row.record?.hbar ?? []) list.push(t);
    rec = {
      payer,
      validStartNs,
      id: `${entityId(payer)}-${validStartNs / NS}-${(validStartNs % NS).toString().padStart(9, '0')}`,
      hash48,
      node,
      name: eth ? 'ETHEREUMTRANSACTION' : create ? 'CONTRACTCREATEINSTANCE' : 'CONTRACTCALL',
      // a deployment that created nothing (contract_id null) names no entity
      entity: row.obj.contract_id === null ? null : row.contractNum,
      fee: base + gas,
      maxFee: eth ? '1000000000' : '2000000000',
      transfers: merged(list),
      tokens: [],
      nfts: [],
      assessed: [],
    };
  }
  records.set(row, rec);
  return rec;
}

const int = (v: bigint): number | bigint =>
  v >= BigInt(Number.MIN_SAFE_INTEGER) && v <= BigInt(Number.MAX_SAFE_INTEGER) ? Number(v) : v;

/**
 * A transaction as the real formatTransactionRows writes it (0.160 key order). `assessed`: the by-id answer (the
 * list does not read assessed custom fees); `memo`: the memo text (hostile mode), else empty.
 */
export function transactionObject(
  data: ContractData,
  row: ContractResultRow,
  opts: { assessed: boolean; memo?: string },
): Record<string, unknown> {
  const rec = txRecord(data, row);
  const o: Record<string, unknown> = {};
  if (opts.assessed && rec.assessed.length) {
    o.assessed_custom_fees = rec.assessed.map((f) => ({
      amount: int(f.amount),
      collector_account_id: entityId(f.collector),
      effective_payer_account_ids: f.payers.map((p) => entityId(p)),
      token_id: f.token === null ? null : entityId(f.token),
    }));
  }
  Object.assign(o, {
    batch_key: null,
    bytes: null,
    charged_tx_fee: int(rec.fee),
    consensus_timestamp: nsToTs(row.tsNs),
    entity_id: rec.entity === null ? null : entityId(rec.entity),
    high_volume: false,
    high_volume_pricing_multiplier: 0,
    max_fee: rec.maxFee,
    max_custom_fees: [],
    memo_base64: Buffer.from(opts.memo ?? '', 'utf8').toString('base64'),
    name: rec.name,
    nft_transfers: rec.nfts.map((n) => ({
      is_approval: false,
      receiver_account_id: entityId(n.receiver),
      sender_account_id: entityId(n.sender),
      serial_number: int(n.serial),
      token_id: entityId(n.token),
    })),
    node: entityId(rec.node),
    nonce: row.nonce,
    parent_consensus_timestamp: row.parent ? nsToTs(row.parent.tsNs) : null,
    result: row.obj.result,
    scheduled: false,
    staking_reward_transfers: [],
    token_transfers: rec.tokens.map((t) => ({
      token_id: entityId(t.token),
      account: entityId(t.account),
      amount: int(t.amount),
      is_approval: false,
    })),
    transaction_hash: Buffer.from(rec.hash48, 'hex').toString('base64'),
    transaction_id: rec.id,
    transfers: rec.transfers.map((t) => ({ account: entityId(t.account), amount: int(t.amount), is_approval: false })),
    valid_duration_seconds: '120',
    valid_start_timestamp: nsToTs(rec.validStartNs),
  });
  return o;
}

/** Transactions by id, by 32-byte hash (contract results) and by 48-byte hash, built on first use and extended with live results. */
export interface TxIndex {
  count: number;
  /** `payer-validStartNs` to the transaction's results (parent first, then children by nonce). */
  byId: Map<string, ContractResultRow[]>;
  /** The result's `hash` (no 0x, lowercase) of a parent. */
  byHash32: Map<string, ContractResultRow>;
  /** The transaction hash (96 hex) to its results. */
  byHash48: Map<string, ContractResultRow[]>;
}

const indexes = new WeakMap<ContractData, TxIndex>();

export function txIndex(data: ContractData): TxIndex {
  let idx = indexes.get(data);
  if (!idx) indexes.set(data, (idx = { count: 0, byId: new Map(), byHash32: new Map(), byHash48: new Map() }));
  for (; idx.count < data.all.length; idx.count++) {
    const row = data.all[idx.count];
    const rec = txIdentity(row);
    const key = `${rec.payer}-${rec.validStartNs}`;
    const same = idx.byId.get(key);
    if (same) same.push(row);
    else idx.byId.set(key, [row]);
    const h48 = idx.byHash48.get(rec.hash48);
    if (h48) h48.push(row);
    else idx.byHash48.set(rec.hash48, [row]);
    if (!row.parent) idx.byHash32.set((row.obj.hash as string).slice(2).toLowerCase(), row);
  }
  return idx;
}

/** The long-zero or alias address an account uses as msg.sender (40 hex, no 0x). */
export function senderAddress(data: ContractData, num: number): string {
  let rev = reverseAliases.get(data);
  if (!rev || rev.size !== data.aliases.size) {
    rev = new Map([...data.aliases].map(([evm, n]) => [n, evm]));
    reverseAliases.set(data, rev);
  }
  return rev.get(num) ?? longZero(num).slice(2);
}
const reverseAliases = new WeakMap<ContractData, Map<number, string>>();
