/**
 * Entry point of the decoders bundle (dist/decoders.js): ABI decoding (viem) and schedule bodies
 * (protobufjs/light + the trimmed @hashgraph/proto descriptor). The extension loads it on first use through
 * ./lazy, never during activation. Tests import it directly.
 */
import type { ContractResult } from '../mirrorTypes';
import {
  AbiRegistry,
  decodeCall,
  decodeError,
  decodeReturn,
  type DecodedCall,
  type DecodedError,
  type DecodedReturn,
} from './abi';
import type { AbiFile } from './abiFiles';
import type { DerivationContext } from './derivation';
import { decodeCreation, type DecodedCreation } from './creation';
import { isContractCreation } from '../contractResult';

export * from './abi';
export * from './schedulableBody';
export * from './creation';
export * from './callInputs';

/** What a contract result says, decoded as far as the ABIs allow. */
export interface DecodedResult {
  call?: DecodedCall;
  /** `call_result` with the function's outputs (successful calls). */
  returned?: DecodedReturn;
  /** `error_message` (or `call_result` of a revert): Error(string), Panic, custom error, text. */
  error?: DecodedError;
  /**
   * The result created its contract: the workspace artifact whose creation bytecode the init code starts with
   * and its constructor arguments (empty object: a creation no artifact matched). No `call` then.
   */
  creation?: DecodedCreation;
}

/**
 * Decodes a result's call data, return data and revert data. `failed`: whether the result is a failure (its
 * `call_result` then holds revert data, not return values). Never throws.
 */
export function decodeContractResult(
  r: Pick<ContractResult, 'function_parameters' | 'call_result' | 'error_message'> &
    Partial<Pick<ContractResult, 'address' | 'to' | 'contract_id' | 'created_contract_ids'>>,
  failed: boolean,
  registry?: AbiRegistry,
  contractAbi?: AbiRegistry,
): DecodedResult {
  const out: DecodedResult = {};
  // the called contract: its own artifact (deployment records) names the call before other files with the selector
  const address = r.address ?? r.to ?? undefined;
  try {
    if (isContractCreation(r)) {
      // init code (or constructor arguments), not a call: no selector to look up
      out.creation = decodeCreation(r.function_parameters, registry?.abiFiles ?? []) ?? {};
      if (failed) out.error = decodeError(r.error_message, registry, contractAbi, address);
      return out;
    }
    out.call = decodeCall(r.function_parameters, registry, contractAbi, address);
    if (out.call && !failed) out.returned = decodeReturn(out.call, r.call_result);
    if (failed) out.error = decodeError(r.error_message, registry, contractAbi, address);
  } catch {
    // undecodable data stays as hex
  }
  return out;
}

/** A registry of the workspace's ABI files. */
export function createRegistry(files: Iterable<AbiFile>, context?: DerivationContext): AbiRegistry {
  return new AbiRegistry(files, context);
}

export type { DeployedContract, DerivationContext } from './derivation';

// what the ABI index (src/features/decoding/abiIndex.ts) reads through this entry
export { mayHoldAbi, parseAbiFile } from './abiFiles';
export type { AbiFile } from './abiFiles';
export { SourcifyAbiCache } from './sourcifyAbi';
