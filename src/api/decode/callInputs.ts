/**
 * A function's inputs as people type them, checked against their ABI types and encoded with viem into call data;
 * its return data decoded with every digit. Each input is one text: scalars as written (`0.0.1234`, `1e18`,
 * `0xff`, `true`), arrays and tuples as JSON (`[1, "0.0.5"]`, `{"to": "0.0.5", "amount": "12"}`; numbers past
 * 2^53 keep every digit, as a JSON number or a string). Messages name the input and what it needs; hostile input
 * (huge numbers, deep or huge arrays, long text) is refused before any costly work. Part of the lazy decoders bundle.
 */
import * as l10n from '@vscode/l10n';
import { encodeFunctionData, getAddress, isAddress, type Abi } from 'viem';
import { evmAddressOf, MAX_CALL_DATA_BYTES } from '../contractCall';
import { parseJson } from '../json';
import { oneLine } from '../text';
import type { AbiItem, AbiParam } from './abiFiles';
import { type DecodedReturn, decodeReturn } from './abi';

export type InputCheck<T> = { ok: true; value: T } | { ok: false; message: string };

/** Longest text of one input (a bytes input of the largest call data, written in hex, and some room). */
export const MAX_INPUT_CHARS = MAX_CALL_DATA_BYTES * 2 + 1024;
/** Most digits of an integer (2^256 has 78 decimal digits; 1e77 style exponents are expanded first). */
const MAX_INT_CHARS = 100;
/** Most elements in all the arrays of one input, and the deepest nesting. */
const MAX_ELEMENTS = 10_000;
const MAX_DEPTH = 16;

const clip = (s: string): string => oneLine(s, 40);

class InputError extends Error {}

const fail = (message: string): never => {
  throw new InputError(message);
};

/** The enum a uint8 stands for, from the compiler's internalType (`enum Vault.State`). */
export function enumName(p: AbiParam): string | undefined {
  const m = /^enum\s+(.+)$/.exec(p.internalType ?? '');
  return m ? m[1] : undefined;
}

/** A placeholder showing how to write a value of `p`'s type. */
export function placeholderOf(p: AbiParam): string {
  const t = p.type;
  if (/\[\d*\]$/.test(t)) return '[…]';
  if (t === 'tuple') return `{${(p.components ?? []).map((c) => `"${c.name || '…'}": …`).join(', ')}}`;
  if (t === 'address') return '0.0.1234 or 0x…';
  if (t === 'bool') return 'true or false';
  if (t === 'string') return l10n.t('text');
  if (t === 'bytes') return '0x…';
  const b = /^bytes(\d+)$/.exec(t);
  if (b) return `0x + ${Number(b[1]) * 2} hex`;
  if (enumName(p)) return l10n.t('0 to 255 (enum {0})', enumName(p) as string);
  if (/^u?int/.test(t)) return t.startsWith('u') ? '0, 1e18, 0xff' : '-1, 1e18';
  return t;
}

/** An integer as written: decimal (separators `_` or `,` allowed), `1e18`, `0x` hex, with a sign for intN. */
function parseInteger(raw: unknown, type: string, where: string): bigint {
  if (typeof raw === 'bigint') return checkRange(raw, type, where);
  if (typeof raw === 'number') {
    if (!Number.isSafeInteger(raw))
      fail(l10n.t('{0}: {1} is not a whole number that JavaScript holds exactly; write it as text.', where, raw));
    return checkRange(BigInt(raw), type, where);
  }
  if (typeof raw !== 'string') return fail(l10n.t('{0}: a {1} is a number.', where, type));
  const s = raw.trim().replace(/[_,]/g, '');
  if (s.length > MAX_INT_CHARS) return fail(l10n.t('{0}: the number is too long for a {1}.', where, type));
  let v: bigint;
  let m: RegExpExecArray | null;
  if ((m = /^(-?)0x([0-9a-fA-F]+)$/.exec(s))) v = BigInt(`0x${m[2]}`) * (m[1] ? -1n : 1n);
  else if ((m = /^(-?)(\d+)(?:\.(\d+))?e(\d{1,3})$/i.exec(s))) {
    const frac = m[3] ?? '';
    const exp = Number(m[4]);
    if (frac.length > exp) return fail(l10n.t('{0}: "{1}" is not a whole number.', where, clip(s)));
    if (exp > 100) return fail(l10n.t('{0}: the number is too long for a {1}.', where, type));
    v = BigInt(m[2] + frac + '0'.repeat(exp - frac.length)) * (m[1] ? -1n : 1n);
  } else if (/^-?\d+$/.test(s)) v = BigInt(s);
  else return fail(l10n.t('{0}: "{1}" is not a whole number (decimal, 1e18 or 0x hex).', where, clip(s)));
  return checkRange(v, type, where);
}

function checkRange(v: bigint, type: string, where: string): bigint {
  const m = /^(u?)int(\d*)$/.exec(type) as RegExpExecArray;
  const bits = BigInt(m[2] || '256');
  const [min, max] = m[1] ? [0n, (1n << bits) - 1n] : [-(1n << (bits - 1n)), (1n << (bits - 1n)) - 1n];
  if (v < min || v > max)
    fail(l10n.t('{0}: {1} is out of range for a {2} ({3} to {4}).', where, String(v), type, String(min), String(max)));
  return v;
}

function parseHexBytes(raw: unknown, where: string, size?: number): `0x${string}` {
  if (typeof raw !== 'string') return fail(l10n.t('{0}: bytes are written 0x and hex digits.', where));
  const s = raw.trim();
  if (!/^0x([0-9a-fA-F]{2})*$/.test(s))
    return fail(l10n.t('{0}: "{1}" is not 0x and an even number of hex digits.', where, clip(s)));
  if (size !== undefined && s.length !== 2 + size * 2)
    return fail(
      l10n.t(
        '{0}: a bytes{1} holds exactly {1} bytes ({2} hex digits), not {3}.',
        where,
        size,
        size * 2,
        (s.length - 2) / 2,
      ),
    );
  return s.toLowerCase() as `0x${string}`;
}

function parseAddress(raw: unknown, where: string): `0x${string}` {
  if (typeof raw !== 'string') return fail(l10n.t('{0}: an address is 0.0.1234 or 0x and 40 hex digits.', where));
  const s = raw.trim();
  const a = evmAddressOf(s);
  if (!a) return fail(l10n.t('{0}: "{1}" is not an address: enter 0.0.1234 or 0x and 40 hex digits.', where, clip(s)));
  // mixed case is an EIP-55 checksum: a wrong one is a typo
  const body = s.replace(/^0x/i, '');
  if (/^[0-9a-fA-F]{40}$/.test(body) && /[a-f]/.test(body) && /[A-F]/.test(body) && !isAddress(`0x${body}`))
    return fail(
      l10n.t(
        '{0}: the checksum of {1} is wrong (a typo?); its checksummed form is {2}.',
        where,
        clip(s),
        getAddress(a),
      ),
    );
  return a as `0x${string}`;
}

function parseBool(raw: unknown, where: string): boolean {
  if (typeof raw === 'boolean') return raw;
  const s = typeof raw === 'string' ? raw.trim().toLowerCase() : String(raw);
  if (s === 'true' || s === '1') return true;
  if (s === 'false' || s === '0') return false;
  return fail(l10n.t('{0}: a bool is true or false.', where));
}

interface Budget {
  elements: number;
}

/** Splits `T[]`/`T[k]` into its element type and length (undefined: dynamic). */
function arrayOf(type: string): { inner: string; length?: number } | undefined {
  const m = /^(.*)\[(\d*)\]$/.exec(type);
  if (!m) return undefined;
  return { inner: m[1], ...(m[2] !== '' ? { length: Number(m[2]) } : {}) };
}

/** A JSON text for an array or tuple input (numbers past 2^53 kept as bigint), or the value itself when not text. */
function structured(raw: unknown, where: string): unknown {
  if (typeof raw !== 'string') return raw;
  try {
    return parseJson(raw.trim());
  } catch {
    return fail(l10n.t('{0}: write it as JSON, such as [1, 2] or {"name": 1}.', where));
  }
}

function parseValue(p: AbiParam, raw: unknown, where: string, depth: number, budget: Budget): unknown {
  if (depth > MAX_DEPTH) fail(l10n.t('{0}: nested too deep.', where));
  const arr = arrayOf(p.type);
  if (arr) {
    const v = depth === 0 ? structured(raw, where) : raw;
    if (!Array.isArray(v)) return fail(l10n.t('{0}: a {1} is a JSON list, such as [1, 2].', where, p.type));
    if (arr.length !== undefined && v.length !== arr.length)
      fail(l10n.t('{0}: a {1} has exactly {2} items, not {3}.', where, p.type, arr.length, v.length));
    budget.elements += v.length;
    if (budget.elements > MAX_ELEMENTS) fail(l10n.t('{0}: more than {1} items.', where, MAX_ELEMENTS));
    const inner: AbiParam = { ...p, type: arr.inner };
    return v.map((x, i) => parseValue(inner, x, `${where}[${i}]`, depth + 1, budget));
  }
  if (p.type === 'tuple') {
    const v = depth === 0 ? structured(raw, where) : raw;
    const comps = p.components ?? [];
    if (Array.isArray(v)) {
      if (v.length !== comps.length)
        fail(l10n.t('{0}: the tuple has {1} fields, not {2}.', where, comps.length, v.length));
      return comps.map((c, i) => parseValue(c, v[i], `${where}.${c.name || i}`, depth + 1, budget));
    }
    if (v && typeof v === 'object') {
      const o = v as Record<string, unknown>;
      const out: Record<string, unknown> = {};
      comps.forEach((c, i) => {
        const key = c.name || String(i);
        if (!(key in o)) fail(l10n.t('{0}: the field "{1}" is missing.', where, key));
        out[key] = parseValue(c, o[key], `${where}.${key}`, depth + 1, budget);
      });
      for (const k of Object.keys(o))
        if (!comps.some((c, i) => (c.name || String(i)) === k)) fail(l10n.t('{0}: no field "{1}".', where, clip(k)));
      // viem takes a tuple as an array (names optional) or an object when every field is named
      return comps.every((c) => c.name) ? out : comps.map((c, i) => out[c.name || String(i)]);
    }
    return fail(l10n.t('{0}: a tuple is a JSON object or list.', where));
  }
  if (p.type === 'address') return parseAddress(raw, where);
  if (p.type === 'bool') return parseBool(raw, where);
  if (p.type === 'string') {
    if (typeof raw !== 'string') return fail(l10n.t('{0}: a string is text.', where));
    return raw;
  }
  if (p.type === 'bytes') return parseHexBytes(raw, where);
  const b = /^bytes(\d+)$/.exec(p.type);
  if (b) return parseHexBytes(raw, where, Number(b[1]));
  if (/^u?int\d*$/.test(p.type)) return parseInteger(raw, p.type, where);
  return fail(l10n.t('{0}: the type {1} is not supported.', where, p.type));
}

/** The inputs' texts as the values viem encodes; the first problem as a message naming the input. */
export function parseInputs(item: AbiItem, texts: readonly unknown[]): InputCheck<unknown[]> {
  const inputs = item.inputs ?? [];
  if (texts.length !== inputs.length)
    return { ok: false, message: l10n.t('{0} takes {1} inputs, not {2}.', item.name, inputs.length, texts.length) };
  const budget: Budget = { elements: 0 };
  try {
    return {
      ok: true,
      value: inputs.map((p, i) => {
        const where = p.name || `#${i + 1}`;
        const raw = texts[i];
        if (typeof raw === 'string' && raw.length > MAX_INPUT_CHARS)
          fail(l10n.t('{0}: over {1} characters.', where, MAX_INPUT_CHARS));
        return parseValue(p, raw, where, 0, budget);
      }),
    };
  } catch (e) {
    if (e instanceof InputError) return { ok: false, message: e.message };
    throw e;
  }
}

/** One input checked alone (as the panel validates a field while it is typed). */
export function checkInput(p: AbiParam, text: unknown): string | undefined {
  const r = parseInputs({ type: 'function', name: '', inputs: [p] }, [text]);
  return r.ok ? undefined : r.message;
}

/** Call data of `item` with the inputs' texts, or the first problem. */
export function encodeCallData(item: AbiItem, texts: readonly unknown[]): InputCheck<`0x${string}`> {
  const parsed = parseInputs(item, texts);
  if (!parsed.ok) return parsed;
  try {
    const data = encodeFunctionData({ abi: [item] as unknown as Abi, functionName: item.name, args: parsed.value });
    if ((data.length - 2) / 2 > MAX_CALL_DATA_BYTES)
      return {
        ok: false,
        message: l10n.t('The call data is over {0} bytes, more than a mirror node takes.', MAX_CALL_DATA_BYTES),
      };
    return { ok: true, value: data };
  } catch (e) {
    return { ok: false, message: oneLine((e as Error).message.split('\n')[0], 200) };
  }
}

/** The return data decoded by the function's outputs (every digit), or undefined when it does not fit them. */
export function decodeCallResult(item: AbiItem, data: string): DecodedReturn | undefined {
  return decodeReturn({ item } as Parameters<typeof decodeReturn>[0], data);
}

/** `view` and `pure` functions are read; the others are simulated. */
export function isReadOnly(item: AbiItem): boolean {
  return item.stateMutability === 'view' || item.stateMutability === 'pure';
}

/** What a call snippet needs besides the function: the call's values as recorded, and the mirror node it went to. */
export interface SnippetCall {
  /** The sender as typed (an account id or an EVM address). */
  from?: string;
  /** The value in tinybars, as the mirror node takes it. */
  value?: bigint;
  /** A block number (decimal), or undefined for the latest. */
  block?: string;
  /** The mirror node's base URL: it names the network, whose JSON-RPC relay the snippet calls. */
  mirrorUrl?: string;
}

/** 1 tinybar is 10^10 weibars: the JSON-RPC relay reads a value in weibars, as Ethereum tools write it. */
const WEIBARS_PER_TINYBAR = 10_000_000_000n;

/**
 * The public JSON-RPC relay (Hashio) of a network named by its mirror node, or undefined for a network whose relay is
 * not known (a custom mirror node): the snippet then reads it from an environment variable.
 */
export function relayUrlOf(mirrorUrl: string | undefined): string | undefined {
  let host: string;
  let port: string;
  try {
    ({ hostname: host, port } = new URL(mirrorUrl ?? ''));
  } catch {
    return undefined;
  }
  const m = /^(mainnet|mainnet-public|testnet|previewnet)\.mirrornode\.hedera\.com$/.exec(host);
  if (m) return `https://${m[1] === 'mainnet-public' ? 'mainnet' : m[1]}.hashio.io/api`;
  // a local node (Hiero's local node: the mirror node's REST API on 5551, its relay on 7546)
  if ((host === 'localhost' || host === '127.0.0.1') && port === '5551') return 'http://localhost:7546';
  return undefined;
}

/**
 * The call as a viem or ethers (v6) snippet: an `eth_call` on the network's JSON-RPC relay with the same data, the
 * sender as an EVM address, the value in weibars, then the result decoded by the function's ABI.
 */
export function callSnippetOf(
  library: 'viem' | 'ethers',
  item: AbiItem,
  to: string,
  data: string,
  call: SnippetCall = {},
): string {
  const relay = relayUrlOf(call.mirrorUrl);
  const url = relay ? JSON.stringify(relay) : 'process.env.HEDERA_JSON_RPC_URL';
  const urlNote = relay ? [] : ['// the JSON-RPC relay of your network (this mirror node has no known public one)'];
  const target = JSON.stringify(evmAddressOf(to) ?? to);
  const from = call.from ? evmAddressOf(call.from) : undefined;
  const weibars = call.value && call.value > 0n ? call.value * WEIBARS_PER_TINYBAR : undefined;
  const valueNote = weibars ? [`  // ${call.value} tinybars: the relay reads weibars (1 tinybar = 10^10 weibars)`] : [];
  const block = call.block && /^\d{1,20}$/.test(call.block) ? BigInt(call.block) : undefined;
  const abi = JSON.stringify([item]);
  const name = JSON.stringify(item.name);
  if (library === 'ethers')
    return [
      `import { Interface, JsonRpcProvider } from 'ethers';`,
      ``,
      `const abi = ${abi};`,
      ...urlNote,
      `const provider = new JsonRpcProvider(${url});`,
      `const result = await provider.call({`,
      `  to: ${target},`,
      `  data: ${JSON.stringify(data)},`,
      ...(from ? [`  from: ${JSON.stringify(from)},`] : []),
      ...valueNote,
      ...(weibars ? [`  value: ${weibars}n,`] : []),
      ...(block !== undefined ? [`  blockTag: ${JSON.stringify(`0x${block.toString(16)}`)},`] : []),
      `});`,
      `console.log(new Interface(abi).decodeFunctionResult(${name}, result));`,
    ].join('\n');
  return [
    `import { createPublicClient, decodeFunctionResult, http } from 'viem';`,
    ``,
    `const abi = ${abi} as const;`,
    ...urlNote,
    `const client = createPublicClient({ transport: http(${url}) });`,
    `const { data } = await client.call({`,
    `  to: ${target},`,
    `  data: ${JSON.stringify(data)},`,
    ...(from ? [`  account: ${JSON.stringify(from)},`] : []),
    ...valueNote,
    ...(weibars ? [`  value: ${weibars}n,`] : []),
    ...(block !== undefined ? [`  blockNumber: ${block}n,`] : []),
    `});`,
    `console.log(decodeFunctionResult({ abi, functionName: ${name}, data: data ?? '0x' }));`,
  ].join('\n');
}
