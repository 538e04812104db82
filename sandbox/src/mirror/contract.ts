/**
 * `GET /api/v1/contracts/{contractIdOrAddress}` as the real mirror node answers it (contractController getContractById,
 * ContractBytecodeViewModel: keys in its order, see /work/shared/fixtures/mirror/specs/contracts/{id}/specific-id.json):
 * `admin_key` (a HAPI-created contract: its deployer's ED25519 key; one an Ethereum transaction or CREATE2 made: its
 * own contract key, ProtobufEncoded), `auto_renew_period`, `bytecode` (initcode), `contract_id`, `created_timestamp`
 * (an hour before its first result), `evm_address` (the contract's own address: long-zero for contracts created by a
 * HAPI transaction, another one for those created by an Ethereum transaction or CREATE2), `expiration_timestamp`,
 * `file_id` (the bytecode file of a HAPI create, else null), `memo` (a HAPI create's: the contract's name),
 * `runtime_bytecode`, `timestamp`. The path is read first (400 `Invalid parameter: contractid`, by the router), then
 * the query (`timestamp`, any operator: every invalid value, then every unknown parameter); an unknown contract, or
 * a timestamp range that ends before its creation, is 404 `Not found`. `cache-control: public, max-age=1` (the spec
 * tests' responseHeaders.json). Hostile `text`: the memo is a payload (the contract's num modulo 12).
 */
import { type Reply, jsonReply, jsonTextReply } from '../http';
import { toJson } from '../json';
import { type HostileCtx, UNKNOWN_FIELDS_JSON, has, payload, spliceMembers } from '../hostile';
import type { MirrorData } from './api';
import { entitiesOf } from './entities';
import { NS, entityId, longZero, nsToTs, parseTimestamp } from './ids';
import { type Validator, anyOp, isTimestamp, strictFilters } from './query';

/** A runtime bytecode that only reverts, with solc's CBOR metadata: real in shape, the same for every generated contract (the inspector's contracts have their compiled code, `data.code`). */
export const RUNTIME = '0x6080604052600080fdfea2646970667358221220' + '5e'.repeat(32) + '64736f6c634300081c0033';
const INIT = '0x6080604052348015600e575f5ffd5b50603e80601a5f395ff3fe' + RUNTIME.slice(2);
const MAX_NUM = (1n << 38n) - 1n;
const PARAMS: Record<string, Validator> = { timestamp: anyOp(isTimestamp) };

/** The contract a parsed path parameter names (encoded entity id, or a non long-zero EVM address). */
export type ContractRefLike = { kind: 'id'; encoded: bigint } | { kind: 'evm'; hex: string };

export function contractById(
  mirror: MirrorData,
  ref: ContractRefLike,
  pairs: [string, string][] = [],
  h?: HostileCtx,
): Reply {
  const data = mirror.contracts;
  const filters = strictFilters(pairs, PARAMS);
  let num: number | undefined;
  if (ref.kind === 'evm') num = data.contractsByEvm.get(ref.hex.toLowerCase());
  else if (ref.encoded >> 38n === 0n && ref.encoded <= MAX_NUM)
    num = data.contractsByNum.has(Number(ref.encoded)) ? Number(ref.encoded) : undefined;
  const c = num === undefined ? undefined : data.contractsByNum.get(num);
  const e = c && entitiesOf(mirror).accounts.get(c.num);
  if (!c || !e || e.createdNs === null) return jsonReply(404, { _status: { messages: [{ message: 'Not found' }] } });
  // a timestamp range that ends before the contract existed: no row in entity or entity_history
  for (const f of filters) {
    const v = parseTimestamp(f.value) as bigint;
    const upper = f.op === 'lt' ? v - 1n : f.op === 'lte' || f.op === 'eq' ? v : null;
    if (upper !== null && upper < e.createdNs)
      return jsonReply(404, { _status: { messages: [{ message: 'Not found' }] } });
  }
  const code = data.code?.get(c.num);
  const created = nsToTs(e.createdNs);
  const body = toJson({
    admin_key: e.key && { _type: e.key._type, key: e.key.key },
    auto_renew_account: null,
    auto_renew_period: e.autoRenewPeriod,
    bytecode: code?.bytecode ?? INIT,
    contract_id: entityId(c.num),
    created_timestamp: created,
    deleted: false,
    evm_address: `0x${c.evm}`,
    expiration_timestamp: e.autoRenewPeriod === null ? null : nsToTs(e.createdNs + BigInt(e.autoRenewPeriod) * NS),
    file_id: e.fileId === null ? null : entityId(e.fileId),
    max_automatic_token_associations: e.maxAutoAssociations,
    memo: has(h, 'text') ? payload(c.num) : e.memo,
    nonce: 1,
    obtainer_id: null,
    permanent_removal: null,
    proxy_account_id: null,
    runtime_bytecode: code?.runtime ?? RUNTIME,
    timestamp: { from: created, to: null },
  });
  return jsonTextReply(200, has(h, 'unknown-fields') ? spliceMembers(body, UNKNOWN_FIELDS_JSON) : body, {
    'cache-control': 'public, max-age=1',
  });
}

/** Whether a contract's EVM address is its long-zero one (for tests and the demo). */
export const isLongZero = (data: MirrorData, num: number): boolean =>
  `0x${data.contracts.contractsByNum.get(num)?.evm}` === longZero(num);
