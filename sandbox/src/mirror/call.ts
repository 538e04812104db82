/**
 * `POST /api/v1/contracts/call`, as hiero-mirror-node's web3 module answers it (ContractController.call), executed
 * on the sandbox's real EVM (../evm) against the inspector's contracts: their state at `latest`, or at a past block
 * (the scenarios whose block is at most that one kept, the others not yet run).
 *
 * In the real server's order:
 * 1. off (`contractCall: false`): 501, the body Spring gives a 5xx (`Not Implemented`, empty detail);
 * 2. a body that is not JSON by its Content-Type: 415 `Unsupported Media Type`,
 *    detail `Content-Type 'text/plain' is not supported`;
 * 3. JSON that does not parse, or a field of the wrong JSON type, or a `block` BlockType.of refuses: 400
 *    `Bad Request` with `JSON parse error: …` (Jackson's sentence: the sandbox's is shorter, same start);
 * 4. bean validation, every field error at once, each `Bad Request` with `<field> field <constraint message>`:
 *    `invalid hexadecimal string` (HexValidator: `data` up to 300,000 hex digits, `from`/`to` 40), `must be greater
 *    than or equal to 21000` (gas), `… to 0` (gasPrice, value), `must not be empty` (`from` when value > 0);
 * 5. gas above the maximum: `gas field must be less than or equal to 15000000`;
 * 6. the execution: a block past the latest is 400 `Unknown block number`; a revert is 400 with the result's name
 *    as message (`CONTRACT_REVERT_EXECUTED`), the `Error(string)` reason as detail (else empty) and the revert
 *    data; another failure the same with its name (`INSUFFICIENT_GAS`, `CONTRACT_EXECUTION_EXCEPTION`) and data
 *    `0x`; a `to` the chain has no account or code for: 404 `Not Found` (likely the real detail's wording, not
 *    checked against a real answer).
 * Success: `{"result": "0x…"}`, the return data; with `estimate: true` the least gas limit that succeeds, as 8 bytes
 * (`0x000000000000573a`, the OpenAPI's example form).
 *
 * Every error body is GenericErrorResponse: `{"_status":{"messages":[{"message","detail","data"}]}}`.
 */
import type { EvmChain, Execution } from '../evm';
import { type Reply, jsonReply } from '../http';
import type { MirrorData } from './api';
import { REAL_CALLS, chainAfter } from './executions';
import { ALIAS_SENDER, OWNER } from './scenarios';

export const DEFAULT_GAS = 15_000_000n;
export const MAX_GAS = 15_000_000n;
const MIN_GAS = 21_000n;
const DATA_MAX_HEX = 300_000;
const INT64_MAX = (1n << 63n) - 1n;
const ZERO_ADDRESS = '0x0000000000000000000000000000000000000000';

interface Message {
  message: string;
  detail: string;
  data: string;
}

const errorBody = (messages: Message[]): unknown => ({ _status: { messages } });
const bad = (detail: string): Message => ({ message: 'Bad Request', detail, data: '' });
const badReply = (details: string[]): Reply => jsonReply(400, errorBody(details.map(bad)));

export function notImplementedReply(): Reply {
  return jsonReply(501, errorBody([{ message: 'Not Implemented', detail: '', data: '' }]));
}

/** Spring's JSON converter reads `application/json` and any `application/*+json`. */
function isJson(contentType: string | undefined): boolean {
  const base = (contentType ?? '').split(';')[0].trim().toLowerCase();
  return base === 'application/json' || /^application\/[^/]+\+json$/.test(base);
}

/** The exact digits of an integer field in the body (JSON.parse rounds past 2^53). */
function rawInteger(body: string, field: string): string | undefined {
  const m = new RegExp(`"${field}"\\s*:\\s*(-?\\d+)(?![\\d.eE])`).exec(body);
  return m?.[1];
}

type Block = { tag: 'latest' } | { number: bigint };

/** BlockType.of: a tag, 1-20 decimal digits, or hex (0x optional); a 64/96-hex block hash is not emulated. */
function parseBlock(v: string): Block | undefined {
  if (v === '') return { tag: 'latest' };
  const m =
    /^(?:(?<tag>earliest|finalized|latest|pending|safe)|(?<dec>\d{1,20})|(?:0x)?(?<hex>[0-9a-f]{1,63}|[0-9a-f]{65,95}))$/i.exec(
      v,
    );
  if (!m?.groups) return undefined;
  const { tag, dec, hex } = m.groups;
  if (tag) return tag.toLowerCase() === 'earliest' ? { number: 0n } : { tag: 'latest' };
  const n = dec !== undefined ? BigInt(dec) : BigInt(`0x${hex}`);
  if (n > INT64_MAX) return undefined; // Long.parseLong throws
  return { number: n };
}

interface Request {
  block: Block;
  data: string;
  estimate: boolean;
  from: string | null;
  gas: bigint;
  to: string | null;
  value: bigint;
}

/** Steps 3 to 5 of the module comment: the request, or the reply refusing it. */
function parseRequest(body: string): Request | Reply {
  let raw: unknown;
  try {
    raw = JSON.parse(body);
  } catch (e) {
    return badReply([`JSON parse error: ${(e as Error).message}`]);
  }
  if (raw === null || typeof raw !== 'object' || Array.isArray(raw))
    return badReply(['JSON parse error: Cannot construct instance of `ContractCallRequest` from a non-object value']);
  const o = raw as Record<string, unknown>;
  const str = (k: string): string | null | Reply => {
    const v = o[k];
    if (v === undefined || v === null) return null;
    if (typeof v === 'string') return v;
    if (typeof v === 'number' || typeof v === 'boolean') return String(v); // Jackson coerces scalars to String
    return badReply([`JSON parse error: Cannot deserialize value of type \`java.lang.String\` from ${kind(v)}`]);
  };
  const int = (k: string, dflt: bigint): bigint | Reply => {
    const v = o[k];
    if (v === undefined || v === null) return dflt;
    let digits: string | undefined;
    if (typeof v === 'number' && Number.isInteger(v)) digits = rawInteger(body, k) ?? String(v);
    else if (typeof v === 'string' && /^-?\d+$/.test(v)) digits = v; // Jackson coerces a numeric string
    if (digits === undefined)
      return badReply([`JSON parse error: Cannot deserialize value of type \`long\` from ${kind(v)}`]);
    const n = BigInt(digits);
    if (n > INT64_MAX || n < -INT64_MAX - 1n)
      return badReply([`JSON parse error: Numeric value (${digits}) out of range of long`]);
    return n;
  };
  const fields = {
    block: str('block'),
    data: str('data'),
    from: str('from'),
    to: str('to'),
    gas: int('gas', DEFAULT_GAS),
    gasPrice: int('gasPrice', 0n),
    value: int('value', 0n),
  };
  for (const v of Object.values(fields)) if (v !== null && typeof v === 'object') return v;
  const { data, from, to } = fields as { data: string | null; from: string | null; to: string | null };
  const { gas, gasPrice, value } = fields as { gas: bigint; gasPrice: bigint; value: bigint };
  const est = o.estimate;
  if (est !== undefined && est !== null && typeof est !== 'boolean')
    return badReply([`JSON parse error: Cannot deserialize value of type \`boolean\` from ${kind(est)}`]);
  const block = parseBlock((fields.block as string | null) ?? '');
  if (!block)
    return badReply([
      `JSON parse error: Cannot construct instance of \`BlockType\`, problem: Invalid block value: ${String(fields.block)}`,
    ]);

  const hexOk = (v: string | null, min: number, max: number, allowEmpty = false): boolean =>
    v === null || ((min === 0 || allowEmpty) && v === '') || new RegExp(`^(0x)?[0-9a-fA-F]{${min},${max}}$`).test(v);
  const errors: string[] = [];
  if (!hexOk(data, 0, DATA_MAX_HEX)) errors.push('data field invalid hexadecimal string');
  if (!hexOk(from, 40, 40)) errors.push('from field invalid hexadecimal string');
  if (value > 0n && from === null) errors.push('from field must not be empty');
  if (gas < MIN_GAS) errors.push(`gas field must be greater than or equal to ${MIN_GAS}`);
  if (gasPrice < 0n) errors.push('gasPrice field must be greater than or equal to 0');
  if (!hexOk(to, 40, 40, true)) errors.push('to field invalid hexadecimal string');
  if (value < 0n) errors.push('value field must be greater than or equal to 0');
  if (errors.length) return badReply(errors);
  if (gas > MAX_GAS) return badReply([`gas field must be less than or equal to ${MAX_GAS}`]);
  const h = data ?? '';
  if ((h.startsWith('0x') ? h.length - 2 : h.length) % 2)
    return badReply([`data field '${h}' contains invalid odd length characters`]);
  const addr = (a: string | null): string | null => (a ? `0x${a.replace(/^0x/, '').toLowerCase()}` : null);
  return {
    block,
    data: `0x${h.replace(/^0x/, '')}`,
    estimate: est === true,
    from: addr(from),
    gas,
    to: addr(to),
    value,
  };
}

const kind = (v: unknown): string =>
  Array.isArray(v)
    ? 'Array value (token `JsonToken.START_ARRAY`)'
    : v !== null && typeof v === 'object'
      ? 'Object value (token `JsonToken.START_OBJECT`)'
      : `${typeof v} value`;

/** The latest block the sandbox's results name. */
function latestBlock(data: MirrorData): bigint {
  let max = 0n;
  for (const r of data.contracts.all) if (r.blockNumber > max) max = r.blockNumber;
  return max;
}

/** How many of the scenarios (in order) ran by the end of `block`. */
function scenariosBy(data: MirrorData, block: bigint): number {
  const blockOf = new Map<string, bigint>();
  for (const r of data.contracts.all) if (r.scenario) blockOf.set(r.scenario, r.blockNumber);
  let n = 0;
  for (const c of REAL_CALLS) {
    const b = blockOf.get(c.key);
    if (b === undefined || b > block) break;
    n++;
  }
  return n;
}

function failureReply(ex: Execution): Reply {
  const reverted = ex.result === 'CONTRACT_REVERT_EXECUTED';
  return jsonReply(
    400,
    errorBody([
      {
        message: ex.result,
        detail: reverted ? (errorStringOf(ex.returnValue) ?? '') : '',
        data: reverted ? ex.returnValue : '0x',
      },
    ]),
  );
}

/** The reason of `Error(string)` revert data, else undefined. */
function errorStringOf(hex: string): string | undefined {
  const h = hex.replace(/^0x/, '');
  if (!h.startsWith('08c379a0') || h.length < 8 + 128) return undefined;
  try {
    const off = Number(BigInt(`0x${h.slice(8, 72)}`)) * 2;
    const len = Number(BigInt(`0x${h.slice(8 + off, 8 + off + 64)}`)) * 2;
    const bytes = h.slice(8 + off + 64, 8 + off + 64 + len);
    if (bytes.length !== len) return undefined;
    return new TextDecoder().decode(Buffer.from(bytes, 'hex'));
  } catch {
    return undefined;
  }
}

/**
 * The address an entity calls or is called at: a long-zero address of a contract or account with an EVM address of
 * its own (a contract created by CREATE, an account's alias) is that one, as the mirror node resolves it.
 */
function resolve(data: MirrorData, address: string): string {
  const m = /^0x0{24}([0-9a-f]{16})$/.exec(address);
  if (!m) return address;
  const num = Number(BigInt(`0x${m[1]}`));
  const evm =
    data.contracts.contractsByNum.get(num)?.evm ??
    [OWNER, ALIAS_SENDER].find((p) => p.num === num)?.evm ??
    data.contracts.senders.find((s) => s.num === num && s.alias)?.evm;
  return evm && !/^0{24}/.test(evm) ? `0x${evm}` : address;
}

async function exists(chain: EvmChain, address: string): Promise<boolean> {
  if (chain.entityOf(address) !== null && !/^0x0{24}/.test(address)) return true;
  if ((await chain.codeOf(address)) !== '0x') return true;
  const { createAddressFromString } = await import('@ethereumjs/util');
  return (await chain.state.getAccount(createAddressFromString(address))) !== undefined;
}

/** The handler: see the module comment. `enabled` false answers 501. */
export async function contractCall(
  data: MirrorData,
  body: string,
  contentType: string | undefined,
  enabled: boolean,
): Promise<Reply> {
  if (!enabled) return notImplementedReply();
  if (!isJson(contentType))
    return jsonReply(
      415,
      errorBody([
        {
          message: 'Unsupported Media Type',
          detail: `Content-Type '${contentType ?? 'application/octet-stream'}' is not supported`,
          data: '',
        },
      ]),
    );
  const req = parseRequest(body);
  if ('status' in req) return req;
  const latest = latestBlock(data);
  const at = 'number' in req.block ? req.block.number : latest;
  if (at > latest) return badReply(['Unknown block number']);
  const chain = await chainAfter(scenariosBy(data, at));
  if (req.to) req.to = resolve(data, req.to);
  if (req.from) req.from = resolve(data, req.from);
  if (req.to && !(await exists(chain, req.to)))
    return jsonReply(
      404,
      errorBody([{ message: 'Not Found', detail: `No contract or account with the address ${req.to}`, data: '' }]),
    );
  const call = (gas: bigint): Promise<Execution> =>
    chain.call({
      from: req.from ?? ZERO_ADDRESS,
      to: req.to,
      data: req.data,
      value: req.value,
      gas,
      seed: `call|${at}|${req.data}`,
    });
  let ex: Execution;
  try {
    ex = await call(req.gas);
  } catch (e) {
    // the EVM refuses before it runs: a sender without the value it sends
    if (/insufficient balance/i.test((e as Error).message))
      return jsonReply(400, errorBody([{ message: 'INSUFFICIENT_PAYER_BALANCE', detail: '', data: '0x' }]));
    throw e;
  }
  if (!ex.success) return failureReply(ex);
  if (!req.estimate) return jsonReply(200, { result: ex.returnValue });
  // the least gas limit that succeeds: what it used, or more (a call keeps 1/64 of its gas back), by bisection
  let lo = BigInt(ex.gasUsed);
  let hi = req.gas;
  if ((await call(lo)).success) hi = lo;
  else {
    while (hi - lo > 1n) {
      const mid = (lo + hi) / 2n;
      if ((await call(mid)).success) hi = mid;
      else lo = mid;
    }
  }
  return jsonReply(200, { result: `0x${hi.toString(16).padStart(16, '0')}` });
}
