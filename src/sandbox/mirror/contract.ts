/**
 * `GET /api/v1/contracts/{contractIdOrAddress}` as the real mirror node answers it (ContractResponse, keys in
 * its order, see /work/shared/fixtures/mirror/specs/contracts/{id}/specific-id.json): `contract_id`,
 * `evm_address` (the contract's own address: long-zero for contracts created by a HAPI transaction, another one
 * for those created by an Ethereum transaction or CREATE2), `bytecode` and `runtime_bytecode`. An unknown
 * contract is 404 `Not found`; an id that is not an id is 400 (the router's parser). Separate from ./api so the
 * router needs one line.
 */
import { type Reply, jsonReply } from '../http';
import type { ContractData } from './contracts';
import { ANCHOR_SEC, NS, entityId, longZero, nsToTs, tsString } from './ids';

/** A runtime bytecode that only reverts, with solc's CBOR metadata: real in shape, the same for every generated contract (the inspector's contracts have their compiled code, `data.code`). */
export const RUNTIME = '0x6080604052600080fdfea2646970667358221220' + '5e'.repeat(32) + '64736f6c634300081c0033';
const INIT = '0x6080604052348015600e575f5ffd5b50603e80601a5f395ff3fe' + RUNTIME.slice(2);
const MAX_NUM = (1n << 38n) - 1n;

/** The contract a parsed path parameter names (encoded entity id, or a non long-zero EVM address). */
export type ContractRefLike = { kind: 'id'; encoded: bigint } | { kind: 'evm'; hex: string };

export function contractById(data: ContractData, ref: ContractRefLike): Reply {
  let num: number | undefined;
  if (ref.kind === 'evm') num = data.contractsByEvm.get(ref.hex.toLowerCase());
  else if (ref.encoded >> 38n === 0n && ref.encoded <= MAX_NUM) num = data.contractsByNum.has(Number(ref.encoded)) ? Number(ref.encoded) : undefined;
  const c = num === undefined ? undefined : data.contractsByNum.get(num);
  if (!c) return jsonReply(404, { _status: { messages: [{ message: 'Not found' }] } });
  const code = data.code?.get(c.num);
  const first = data.byContract.get(c.num)?.all[0]?.tsNs;
  const created = first !== undefined ? nsToTs(first - 3600n * NS) : tsString(ANCHOR_SEC - 60 * 86400, 0);
  return jsonReply(200, {
    admin_key: null,
    auto_renew_account: null,
    auto_renew_period: 7776000,
    bytecode: code?.bytecode ?? INIT,
    contract_id: entityId(c.num),
    created_timestamp: created,
    deleted: false,
    evm_address: `0x${c.evm}`,
    expiration_timestamp: null,
    file_id: null,
    max_automatic_token_associations: 0,
    memo: '',
    nonce: 1,
    obtainer_id: null,
    permanent_removal: null,
    proxy_account_id: null,
    runtime_bytecode: code?.runtime ?? RUNTIME,
    timestamp: { from: created, to: null },
  }, { 'Cache-Control': 'public, max-age=10' });
}

/** Whether a contract's EVM address is its long-zero one (for tests and the demo). */
export const isLongZero = (data: ContractData, num: number): boolean => `0x${data.contractsByNum.get(num)?.evm}` === longZero(num);
