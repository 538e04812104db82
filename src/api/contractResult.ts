/**
 * What a contract result says about itself, from the fields the mirror node sends (plain TS, no vscode):
 * its outcome, and whether it created the contract. `/api/v1/contracts/results` sends `result` and `status`;
 * `/api/v1/contracts/{id}/results` (one contract) sends neither: there a success has `error_message: null` and a
 * failure the error (a revert payload or a message).
 */
import type { ContractResult } from './mirrorTypes';

export type Outcome = 'success' | 'failure' | 'unknown';

const has = (r: object, k: string) => Object.prototype.hasOwnProperty.call(r, k);

/** success / failure / unknown (nothing tells it: neither `result`, `status` nor `error_message` was sent). */
export function outcome(r: Partial<Pick<ContractResult, 'result' | 'status' | 'error_message'>>): Outcome {
  if (r.result != null && r.result !== '') return r.result === 'SUCCESS' ? 'success' : 'failure';
  if (r.status === '0x1') return 'success';
  if (r.status === '0x0') return 'failure';
  if (r.error_message) return 'failure';
  // the one-contract endpoint: `error_message` is sent, null (or empty) on success
  if (
    has(r, 'error_message') &&
    (r.error_message === null || r.error_message === '') &&
    !has(r, 'result') &&
    !has(r, 'status')
  )
    return 'success';
  return 'unknown';
}

/**
 * Solidity creation code begins by setting the free memory pointer: PUSH1/PUSH2 <n> PUSH1 0x40 MSTORE
 * (`0x6080604052`, `0x60a0604052`, `0x610100604052`, old `0x6060604052`).
 */
const CREATION_PREFIX = /^0x(?:60[0-9a-f]{2}|61[0-9a-f]{4})604052/i;

/** Whether call data starts like Solidity creation code (init code). */
export function looksLikeCreationCode(data: string | null | undefined): boolean {
  return typeof data === 'string' && CREATION_PREFIX.test(data.trim());
}

const ids = (v: unknown): string[] => (Array.isArray(v) ? v.filter((x): x is string => typeof x === 'string') : []);

/**
 * Whether a result is the creation of a contract: the contract it is about is among the contracts it created
 * (`created_contract_ids` holding `contract_id`, as a ContractCreate shows), or call data that is creation code
 * (an EVM transaction's init code, sent with `to` null or the created contract's address).
 */
export function isContractCreation(
  r: Partial<Pick<ContractResult, 'contract_id' | 'created_contract_ids' | 'to' | 'function_parameters'>>,
): boolean {
  if (r.contract_id && ids(r.created_contract_ids).includes(r.contract_id)) return true;
  return looksLikeCreationCode(r.function_parameters);
}
