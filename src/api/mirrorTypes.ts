/**
 * Shapes of the mirror node's answers, as the real server sends them (see shared/spec/API.md).
 * Integers that may pass 2^53 are `Int` (number | bigint). Most fields are nullable on real data, and new
 * fields or enum values may appear at any time: they are kept, never dropped.
 */
import type { Int } from './json';

/** Known values of some string fields; any other string is still valid and shown as it is. */
export type Open<T extends string> = T | (string & {});

export interface Links {
  next: string | null;
}

export interface AccessListEntry {
  address: string;
  storage_keys: string[];
}

export interface ContractResult {
  address: string | null;
  amount: Int | null;
  block_gas_used: Int | null;
  block_hash: string | null;
  block_number: Int | null;
  bloom: string | null;
  call_result: string | null;
  chain_id: string | null;
  contract_id: string | null;
  created_contract_ids: string[] | null;
  error_message: string | null;
  failed_initcode: string | null;
  from: string | null;
  function_parameters: string | null;
  gas_consumed: Int | null;
  gas_limit: Int | null;
  gas_price: string | null;
  gas_used: Int | null;
  hash: string | null;
  max_fee_per_gas: string | null;
  max_priority_fee_per_gas: string | null;
  nonce: Int | null;
  r: string | null;
  s: string | null;
  /** A response code name: SUCCESS, CONTRACT_REVERT_EXECUTED, INSUFFICIENT_GAS, ... */
  result: Open<'SUCCESS' | 'CONTRACT_REVERT_EXECUTED' | 'INSUFFICIENT_GAS' | 'MAX_GAS_LIMIT_EXCEEDED'> | null;
  /** "0x1" success, "0x0" failure. */
  status: string | null;
  timestamp: string;
  to: string | null;
  transaction_index: Int | null;
  type: Int | null;
  v: Int | null;
  access_list?: AccessListEntry[] | string | null;
  authorization_list?: unknown[] | null;
  [extra: string]: unknown;
}

export type KeyType = Open<'ECDSA_SECP256K1' | 'ED25519' | 'ProtobufEncoded'>;
export type SignatureType = Open<'CONTRACT' | 'ED25519' | 'RSA_3072' | 'ECDSA_384' | 'ECDSA_SECP256K1' | 'UNKNOWN'>;

export interface ScheduleKey {
  _type: KeyType;
  key: string;
}

export interface ScheduleSignature {
  consensus_timestamp: string;
  /** base64 */
  public_key_prefix: string;
  /** base64 */
  signature: string;
  type: SignatureType;
}

export interface Schedule {
  admin_key: ScheduleKey | null;
  consensus_timestamp: string;
  creator_account_id: string;
  deleted: boolean;
  executed_timestamp: string | null;
  expiration_time: string | null;
  memo: string;
  payer_account_id: string;
  schedule_id: string;
  signatures: ScheduleSignature[];
  /** base64 protobuf SchedulableTransactionBody */
  transaction_body: string;
  wait_for_expiry: boolean;
  [extra: string]: unknown;
}

export type ScheduleState = 'executed' | 'deleted' | 'expired' | 'pending';

export type NftTransactionType = Open<
  | 'TOKENMINT'
  | 'CRYPTOTRANSFER'
  | 'TOKENBURN'
  | 'TOKENWIPE'
  | 'CRYPTOAPPROVEALLOWANCE'
  | 'CRYPTODELETEALLOWANCE'
  | 'TOKENDELETION'
>;

export interface NftTransaction {
  consensus_timestamp: string;
  is_approval: boolean;
  nonce: Int;
  receiver_account_id: string | null;
  sender_account_id: string | null;
  transaction_id: string;
  type: NftTransactionType;
  [extra: string]: unknown;
}

/** One log of a contract result (`logs` of `/contracts/results/{transactionIdOrHash}`). */
export interface ContractLog {
  address: string | null;
  bloom: string | null;
  contract_id: string | null;
  data: string | null;
  index: Int | null;
  topics: string[] | null;
  [extra: string]: unknown;
}

/** One storage slot read or written (`state_changes`). `value_written` null: only read. */
export interface StateChange {
  address: string | null;
  contract_id: string | null;
  slot: string | null;
  value_read: string | null;
  value_written: string | null;
  [extra: string]: unknown;
}

/** `GET /contracts/results/{transactionIdOrHash}`: the result with its logs and state changes. */
export interface ContractResultDetails extends ContractResult {
  logs?: ContractLog[] | null;
  state_changes?: StateChange[] | null;
}

/** One entry of `GET /contracts/results/{transactionIdOrHash}/actions` (one call frame). */
export interface ContractAction {
  call_depth: Int | null;
  call_operation_type: Open<
    'CALL' | 'CALLCODE' | 'CREATE' | 'CREATE2' | 'DELEGATECALL' | 'STATICCALL' | 'UNKNOWN'
  > | null;
  call_type: Open<'NO_ACTION' | 'CALL' | 'CREATE' | 'PRECOMPILE' | 'SYSTEM'> | null;
  caller: string | null;
  caller_type: Open<'ACCOUNT' | 'CONTRACT'> | null;
  from: string | null;
  gas: Int | null;
  gas_used: Int | null;
  index: Int | null;
  input: string | null;
  recipient: string | null;
  recipient_type: Open<'ACCOUNT' | 'CONTRACT'> | null;
  result_data: string | null;
  result_data_type: Open<'OUTPUT' | 'REVERT_REASON' | 'ERROR'> | null;
  timestamp: string | null;
  to: string | null;
  value: Int | null;
  [extra: string]: unknown;
}

export interface HbarTransfer {
  account: string | null;
  amount: Int | null;
  is_approval?: boolean | null;
  [extra: string]: unknown;
}

export interface TokenTransfer {
  token_id: string | null;
  account: string | null;
  amount: Int | null;
  is_approval?: boolean | null;
  [extra: string]: unknown;
}

export interface NftTransfer {
  is_approval?: boolean | null;
  receiver_account_id: string | null;
  sender_account_id: string | null;
  serial_number: Int | null;
  token_id: string | null;
  [extra: string]: unknown;
}

/** One transaction of `GET /transactions/{id}` (`transactions` list) or `GET /transactions`. */
export interface TransactionDetail {
  charged_tx_fee: Int | null;
  consensus_timestamp: string;
  entity_id: string | null;
  max_fee: string | null;
  memo_base64: string | null;
  name: string | null;
  nft_transfers?: NftTransfer[] | null;
  node: string | null;
  nonce: Int | null;
  parent_consensus_timestamp: string | null;
  result: string | null;
  scheduled: boolean | null;
  token_transfers?: TokenTransfer[] | null;
  transaction_hash: string | null;
  transaction_id: string;
  transfers?: HbarTransfer[] | null;
  valid_duration_seconds: string | null;
  valid_start_timestamp: string | null;
  [extra: string]: unknown;
}

/** One executed opcode (`opcodes` of `/contracts/results/{transactionIdOrHash}/opcodes`). */
export interface Opcode {
  depth: Int | null;
  gas: Int | null;
  gas_cost: Int | null;
  memory: string[] | null;
  op: string | null;
  pc: Int | null;
  /** The revert reason in hex, on the op that reverted. */
  reason: string | null;
  stack: string[] | null;
  storage: Record<string, string> | null;
  [extra: string]: unknown;
}

/** `GET /contracts/results/{transactionIdOrHash}/opcodes`. */
export interface OpcodesResponse {
  address: string | null;
  contract_id: string | null;
  failed: boolean | null;
  gas: Int | null;
  opcodes: Opcode[];
  return_value: string | null;
  [extra: string]: unknown;
}
