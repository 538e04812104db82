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
  'TOKENMINT' | 'CRYPTOTRANSFER' | 'TOKENBURN' | 'TOKENWIPE' | 'CRYPTOAPPROVEALLOWANCE' | 'CRYPTODELETEALLOWANCE' | 'TOKENDELETION'
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
