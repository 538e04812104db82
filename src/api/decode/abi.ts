/**
 * ABI decoding with viem: an index of function, error and event selectors over the workspace's ABI files and
 * contract ABIs fetched from Sourcify, and decoders for call data (`function_parameters`), return data
 * (`call_result`) and revert data (`error_message`). `Error(string)` and `Panic(uint256)` come from ../revert
 * (extended here with custom errors). Undecodable data gives `undefined`, never an exception.
 * Part of the decoders bundle (dist/decoders.js), loaded on first use through ./lazy.
 */
import * as l10n from '@vscode/l10n';
import { decodeErrorResult, decodeFunctionData, decodeFunctionResult, toEventSelector, toFunctionSelector } from 'viem';
import type { Abi } from 'viem';
import { decodeRevert, type DecodedRevert } from '../revert';
import { type AbiFile, type AbiItem, type AbiParam, normalizeAbi as normalizeAbiItems, signatureOf } from './abiFiles';
import { type DerivationContext, rankByDerivation } from './derivation';
import { userSourceName } from './solcOutput';

/** Where an ABI came from. */
export interface AbiOrigin {
  kind: 'workspace' | 'sourcify';
  /** `artifacts/contracts/Token.sol/Token.json`, or `Sourcify` */
  label: string;
  contractName?: string;
  /** For Sourcify: the contract's address. */
  address?: string;
}

export interface AbiEntry {
  item: AbiItem;
  signature: string;
  selector: string;
  origin: AbiOrigin;
  /** The file it came from. */
  file?: AbiFile;
}

/** One decoded value: a parameter name, its type and its value as text; arrays and tuples have children. */
export interface DecodedValue {
  name: string;
  type: string;
  /** One line: the value (every digit of big integers), or a summary (`[3 items]`, `(2 fields)`). */
  value: string;
  children?: DecodedValue[];
}

export interface DecodedCall {
  name: string;
  signature: string;
  selector: string;
  args: DecodedValue[];
  /** `transfer(to=0x…, amount=100)`, one line, shortened values. */
  text: string;
  origin: AbiOrigin;
  /** The function's ABI item, to decode its return data. */
  item: AbiItem;
}

export interface DecodedReturn {
  values: DecodedValue[];
  text: string;
}

export interface DecodedError extends DecodedRevert {
  /** For a custom error found in an ABI. */
  name?: string;
  signature?: string;
  args?: DecodedValue[];
  origin?: AbiOrigin;
}

const hex = (s: string | null | undefined): `0x${string}` | undefined => {
  const t = (s ?? '').trim();
  return /^0x([0-9a-fA-F]{2})*$/.test(t) ? (t.toLowerCase() as `0x${string}`) : undefined;
};

/** A selector index over ABIs: functions and errors by 4-byte selector, events by topic 0. */
export class AbiRegistry {
  readonly functions = new Map<string, AbiEntry[]>();
  readonly errors = new Map<string, AbiEntry[]>();
  readonly events = new Map<string, AbiEntry[]>();
  private readonly files: AbiFile[] = [];
  /**
   * Deployment records and inheritance: with several files holding a selector, the one deployed at the called
   * address, then the most derived contract, comes first (see ./derivation).
   */
  context: DerivationContext = {};

  constructor(files: Iterable<AbiFile> = [], context?: DerivationContext) {
    for (const f of files) this.add(f);
    if (context) this.context = context;
  }

  /** Adds the items of one ABI (first added wins on equal signatures; the same signature is kept once). */
  add(
    file: AbiFile,
    origin: AbiOrigin = { kind: 'workspace', label: file.source, contractName: file.contractName },
  ): void {
    this.files.push(file);
    for (const item of file.abi) {
      let selector: string;
      const signature = signatureOf(item);
      try {
        selector = item.type === 'event' ? toEventSelector(signature) : toFunctionSelector(signature);
      } catch {
        continue;
      }
      const map = item.type === 'function' ? this.functions : item.type === 'error' ? this.errors : this.events;
      const list = map.get(selector) ?? [];
      // the same signature from several files: keep each (param names may differ), first one first
      list.push({ item, signature, selector, origin, file });
      map.set(selector, list);
    }
  }

  get size(): number {
    return this.files.length;
  }

  get sources(): string[] {
    return this.files.map((f) => f.source);
  }

  /** The ABI files, in the order they were added (creation code matching, ./creation). */
  get abiFiles(): readonly AbiFile[] {
    return this.files;
  }

  /** The functions of a selector, best first for a call to `address` (deployed there, then most derived). */
  functionBySelector(selector: string, address?: string): AbiEntry[] {
    return this.ranked(this.functions.get(selector.toLowerCase()) ?? [], address);
  }

  errorBySelector(selector: string, address?: string): AbiEntry[] {
    return this.ranked(this.errors.get(selector.toLowerCase()) ?? [], address);
  }

  private ranked(list: AbiEntry[], address: string | undefined): AbiEntry[] {
    if (list.length <= 1) return list;
    const out = rankByDerivation(list, (e) => e.file, address?.toLowerCase(), this.context);
    // the same contract in several builds (artifacts/ and artifacts-opt/, two profiles): the ABI decodes the same, but
    // which build was deployed is not known here, so the label does not name one as if it were
    const [first, ...rest] = out;
    const f = first.file;
    if (first.origin.kind !== 'workspace' || !f) return out;
    const same = (g: AbiFile | undefined) =>
      !!g &&
      g !== f &&
      g.contractName === f.contractName &&
      userSourceName(g.sourceName ?? '') === userSourceName(f.sourceName ?? '');
    const others = new Set(
      rest.filter((e) => e.origin.kind === 'workspace' && same(e.file)).map((e) => e.file?.source),
    );
    if (!others.size) return out;
    const label = l10n.t(
      '{0} ({1} builds in the workspace: {2}; which one was deployed is not checked here)',
      f.contractName,
      others.size + 1,
      [first.origin.label, ...others].join(', '),
    );
    return [{ ...first, origin: { ...first.origin, label } }, ...rest];
  }

  eventByTopic(topic0: string): AbiEntry[] {
    return this.events.get(topic0.toLowerCase()) ?? [];
  }
}

// ------------------------------------------------------------------ values as text

const MAX_CHILDREN = 200;

function short(s: string, max = 24): string {
  return s.length <= max ? s : `${s.slice(0, Math.ceil(max / 2))}…${s.slice(-Math.floor(max / 2) + 1)}`;
}

/** A string shown on one line: JSON-quoted (escapes control and bidi characters). */
function quote(s: string): string {
  return JSON.stringify(s).replace(
    /[\u202a-\u202e\u2066-\u2069]/g,
    (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`,
  );
}

function toValue(p: AbiParam, v: unknown, fallbackName: string): DecodedValue {
  const name = p.name || fallbackName;
  const arr = /^(.*)\[(\d*)\]$/.exec(p.type);
  if (arr && Array.isArray(v)) {
    const inner: AbiParam = { ...p, type: arr[1], name: undefined };
    const children = v.slice(0, MAX_CHILDREN).map((x, i) => toValue(inner, x, `[${i}]`));
    if (v.length > MAX_CHILDREN) children.push({ name: '…', type: '', value: `${v.length - MAX_CHILDREN} more` });
    return {
      name,
      type: p.type,
      value: `[${children
        .slice(0, 4)
        .map((c) => (c.children ? c.value : short(c.value)))
        .join(', ')}${v.length > 4 ? ', …' : ''}]`,
      children,
    };
  }
  if (p.type === 'tuple' && v && typeof v === 'object') {
    const comps = p.components ?? [];
    const children = comps.map((c, i) =>
      toValue(c, Array.isArray(v) ? v[i] : (v as Record<string, unknown>)[c.name || String(i)], `[${i}]`),
    );
    return {
      name,
      type: p.type,
      value: `(${children.map((c) => `${c.name}=${short(c.value)}`).join(', ')})`,
      children,
    };
  }
  if (typeof v === 'bigint') return { name, type: p.type, value: v.toString() };
  if (typeof v === 'boolean') return { name, type: p.type, value: v ? 'true' : 'false' };
  if (typeof v === 'string') return { name, type: p.type, value: p.type === 'string' ? quote(v) : v };
  if (typeof v === 'number') return { name, type: p.type, value: String(v) };
  return { name, type: p.type, value: String(v) };
}

/** Decoded values of parameters as rows (names, types, values as text). */
export function decodedValues(params: AbiParam[], decoded: readonly unknown[] | unknown): DecodedValue[] {
  return values(params, decoded);
}

function values(params: AbiParam[], decoded: readonly unknown[] | unknown): DecodedValue[] {
  const list = params.length === 1 && !Array.isArray(decoded) ? [decoded] : (decoded as readonly unknown[]);
  return params
    .map((p, i) => toValue(p, Array.isArray(list) ? list[i] : undefined, params.length === 1 ? '' : `[${i}]`))
    .map((v, i) => ({ ...v, name: v.name || (params.length === 1 ? 'value' : `[${i}]`) }));
}

/** `name=value, …` on one line. */
export function valuesText(vals: DecodedValue[], max = 42): string {
  return vals.map((v) => `${v.name}=${v.children ? v.value : short(v.value, max)}`).join(', ');
}

// ------------------------------------------------------------------ decoders

/**
 * Decodes call data with the first ABI entry of its selector that decodes it: the workspace's (`registry`) first,
 * then `contractAbi` (a Sourcify ABI of the called contract) for what the workspace lacks. Of the workspace's
 * files, the one deployed at `address` (the called contract), then the most derived, is tried first.
 * `undefined` when the selector is unknown or the data does not fit.
 */
export function decodeCall(
  data: string | null | undefined,
  registry: AbiRegistry | undefined,
  contractAbi?: AbiRegistry,
  address?: string | null,
): DecodedCall | undefined {
  const h = hex(data);
  if (!h || h.length < 10) return undefined;
  const selector = h.slice(0, 10);
  // the workspace's own build first; the contract's Sourcify ABI for what the workspace lacks
  const candidates = [
    ...(registry?.functionBySelector(selector, address ?? undefined) ?? []),
    ...(contractAbi?.functionBySelector(selector) ?? []),
  ];
  for (const e of candidates) {
    try {
      const r = decodeFunctionData({ abi: [e.item] as unknown as Abi, data: h });
      const args = values(e.item.inputs, r.args ?? []);
      return {
        name: e.item.name,
        signature: e.signature,
        selector,
        args,
        text: `${e.item.name}(${valuesText(args)})`,
        origin: e.origin,
        item: e.item,
      };
    } catch {
      // another ABI with the same selector may fit
    }
  }
  return undefined;
}

/** Decodes return data with the outputs of the called function. */
export function decodeReturn(call: DecodedCall, data: string | null | undefined): DecodedReturn | undefined {
  const h = hex(data);
  const outputs = call.item.outputs ?? [];
  if (!h || !outputs.length || h === '0x') return undefined;
  try {
    const r = decodeFunctionResult({
      abi: [call.item] as unknown as Abi,
      functionName: call.item.name,
      data: h,
    } as never);
    const vals = values(outputs, r as unknown);
    return { values: vals, text: valuesText(vals) };
  } catch {
    return undefined;
  }
}

/**
 * Decodes revert data: `Error(string)` and `Panic(uint256)` (with its meaning) as ../revert does, then a custom
 * error found in the registry (the workspace's, first) or `contractAbi` (Sourcify's) with its named arguments,
 * also when its data happens to be printable. Text and unknown selectors stay as ../revert shows them.
 */
export function decodeError(
  data: string | null | undefined,
  registry: AbiRegistry | undefined,
  contractAbi?: AbiRegistry,
  address?: string | null,
): DecodedError | undefined {
  const base = decodeRevert(data);
  // ABIs first, text last: printable data shaped like revert data (kind `text` with a selector) is tried too
  if (!base || (base.kind !== 'custom' && base.kind !== 'text') || !base.selector) return base;
  const h = hex(data);
  if (!h) return base;
  const candidates = [
    ...(registry?.errorBySelector(base.selector, address ?? undefined) ?? []),
    ...(contractAbi?.errorBySelector(base.selector) ?? []),
  ];
  for (const e of candidates) {
    try {
      const r = decodeErrorResult({ abi: [e.item] as unknown as Abi, data: h });
      const args = values(e.item.inputs, r.args ?? []);
      return {
        ...base,
        kind: 'custom',
        name: e.item.name,
        signature: e.signature,
        args,
        origin: e.origin,
        message: `${e.item.name}(${valuesText(args)})`,
      };
    } catch {
      // try the next
    }
  }
  return base;
}

/** A registry holding one contract's ABI from Sourcify. */
export function sourcifyRegistry(abi: unknown, address: string, chainId: string | number): AbiRegistry {
  const reg = new AbiRegistry();
  const file: AbiFile = {
    source: `Sourcify ${chainId}/${address}`,
    contractName: address,
    format: 'abi',
    abi: normalizeAbiItems(abi),
  };
  reg.add(file, { kind: 'sourcify', label: 'Sourcify', address });
  return reg;
}
