/**
 * The request and answers of the mirror node's `POST /api/v1/contracts/call` (MirrorClient.contractCall), checked
 * before anything is sent: addresses in every form a Hedera developer has (`0.0.1234`, long-zero, EVM alias), the
 * block (`latest`, `earliest`, `pending`, a number, 0x hex), gas and value as int64 (every digit, bigint). Plain
 * TypeScript: the ABI encoding (viem) is in ./decode/callInputs, in the lazy decoders bundle.
 */
import * as l10n from '@vscode/l10n';
import { invalidInput } from './errors';
import { stringifyJson } from './json';
import { oneLine } from './text';
import { checkEntityId, entityIdToEvmAddress, INT64_MAX } from './validation';

export interface ContractCallParams {
  /** The contract: `0.0.1234`, `shard.realm.num`, or an EVM address (long-zero or an alias). */
  to: string;
  /** Call data (0x hex): selector and encoded arguments. */
  data?: string;
  /** The sender, in the same forms as `to` (the mirror node's default: the zero address). */
  from?: string;
  /** Tinybars sent with the call. */
  value?: bigint;
  /** Gas limit (the mirror node's default: 15,000,000). */
  gas?: bigint | number;
  /** `latest` (default), `earliest`, `pending`, a block number, or 0x hex. */
  block?: string | bigint | number;
  /** Ask for the gas estimate instead of the result. */
  estimate?: boolean;
}

export type ContractCallAnswer =
  | { kind: 'result'; result: string; url: string; tries: number }
  | { kind: 'estimate'; gas: bigint; result: string; url: string }
  /** The execution failed: `name` is Hedera's result (`CONTRACT_REVERT_EXECUTED`, `INSUFFICIENT_GAS`, ...). */
  | { kind: 'failed'; name: string; detail: string; data: string; url: string }
  /** The endpoint is off on this mirror node (501). */
  | { kind: 'unavailable'; status: number; serverMessages: string[]; url: string };

/** The request body as the mirror node reads it. */
export interface ContractCallBody {
  to: string;
  block: string;
  estimate: boolean;
  data?: string;
  from?: string;
  gas?: bigint;
  value?: bigint;
}

const clip = (s: string): string => oneLine(s, 60);
/** The most call data any mirror node version takes (OpenAPI: 131,072 bytes). */
export const MAX_CALL_DATA_BYTES = 131_072;

/**
 * The 20-byte EVM address (0x, lowercase) of an account or contract written as an entity id (`0.0.1234`, its
 * long-zero address) or as an EVM address (any case; a mixed-case one is not checksum-checked here: ./decode does
 * that with viem). Undefined for anything else.
 */
export function evmAddressOf(input: string): string | undefined {
  const s = input.trim();
  if (/^(0x)?[0-9a-fA-F]{40}$/.test(s)) return `0x${s.replace(/^0x/i, '').toLowerCase()}`;
  if (/^\d+(\.\d+){0,2}$/.test(s) && s.includes('.')) {
    if (!checkEntityId(s).ok) return undefined;
    const a = entityIdToEvmAddress(s);
    return a.ok ? a.value : undefined;
  }
  return undefined;
}

/** `latest`, `earliest`, `pending`, or a block number as the mirror node reads it (decimal, 0x hex). */
export function checkCallBlock(block: string | bigint | number | undefined): string {
  if (block === undefined || block === '') return 'latest';
  if (typeof block === 'number' && !Number.isSafeInteger(block))
    throw invalidInput(l10n.t('The block number must be a whole number.'));
  const s = String(block).trim().toLowerCase();
  if (s === 'latest' || s === 'earliest' || s === 'pending') return s;
  let n: bigint | undefined;
  if (/^\d{1,20}$/.test(s)) n = BigInt(s);
  else if (/^0x[0-9a-f]{1,16}$/.test(s)) n = BigInt(s);
  if (n === undefined || n > INT64_MAX)
    throw invalidInput(
      l10n.t('"{0}" is not a block: enter latest, earliest, a block number or 0x and its hex digits.', clip(s)),
    );
  return n.toString();
}

function checkInt64(v: bigint | number | undefined, what: string, min = 0n): bigint | undefined {
  if (v === undefined) return undefined;
  if (typeof v === 'number' && !Number.isSafeInteger(v))
    throw invalidInput(l10n.t('{0} must be a whole number (write a big one as a bigint to keep every digit).', what));
  const n = BigInt(v);
  if (n < min || n > INT64_MAX)
    throw invalidInput(l10n.t('{0} must be between {1} and {2}.', what, String(min), String(INT64_MAX)));
  return n;
}

/** The body of a call, its inputs checked (ApiError `invalidInput` naming what is wrong). */
export function contractCallBody(p: ContractCallParams): ContractCallBody {
  const to = evmAddressOf(p.to ?? '');
  if (!to)
    throw invalidInput(
      l10n.t(
        '"{0}" is not a contract: enter its id (0.0.1234) or its EVM address (0x and 40 hex digits).',
        clip(p.to ?? ''),
      ),
    );
  const body: ContractCallBody = { to, block: checkCallBlock(p.block), estimate: p.estimate === true };
  if (p.data !== undefined && p.data !== '' && p.data !== '0x') {
    if (!/^0x([0-9a-fA-F]{2})*$/.test(p.data))
      throw invalidInput(l10n.t('The call data must be 0x and an even number of hex digits.'));
    if ((p.data.length - 2) / 2 > MAX_CALL_DATA_BYTES)
      throw invalidInput(
        l10n.t('The call data is over {0} bytes, more than a mirror node takes.', MAX_CALL_DATA_BYTES),
      );
    body.data = p.data.toLowerCase();
  }
  if (p.from !== undefined && p.from.trim() !== '') {
    const from = evmAddressOf(p.from);
    if (!from)
      throw invalidInput(
        l10n.t('"{0}" is not a sender: enter an account id (0.0.1234) or an EVM address.', clip(p.from)),
      );
    body.from = from;
  }
  const gas = checkInt64(p.gas, l10n.t('Gas'));
  if (gas !== undefined) body.gas = gas;
  const value = checkInt64(p.value, l10n.t('The value'));
  if (value !== undefined && value > 0n) {
    if (!body.from) throw invalidInput(l10n.t('A call that sends HBAR needs a sender.'));
    body.value = value;
  }
  return body;
}

/** The first `_status.messages` entry of an error body, its fields as strings. */
export function firstStatusMessage(body: unknown): { message: string; detail: string; data: string } | undefined {
  const messages = (body as { _status?: { messages?: unknown } } | undefined)?._status?.messages;
  if (!Array.isArray(messages) || !messages.length) return undefined;
  const m = messages[0] as Record<string, unknown> | null;
  if (!m || typeof m !== 'object') return undefined;
  const str = (v: unknown): string => (typeof v === 'string' ? v : '');
  return { message: str(m.message), detail: str(m.detail), data: str(m.data) };
}

/** A shell-quoted word (single quotes; a quote inside closed, escaped and reopened). */
const shellQuote = (s: string): string => `'${s.replace(/'/g, `'\\''`)}'`;

/** The call as a `curl` command line (the body's integers with every digit). */
export function curlOf(url: string, body: ContractCallBody): string {
  return `curl -X POST ${shellQuote(url)} -H 'Content-Type: application/json' -d ${shellQuote(stringifyJson(body))}`;
}
