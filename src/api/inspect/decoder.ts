/**
 * The inspector's decoding, per address: calls, return values, revert data and events, each decoded with the first
 * source that knows it, and the source said:
 * - calls: Hedera's system contracts by address (0x167…), the workspace's ABIs (the contract deployed at the address
 *   first, then any with the selector), the address's Sourcify ABI, then the standard token functions (ERC-20, ERC-721,
 *   ERC-1155) and the HTS token/account facades;
 * - errors: `Error(string)`, `Panic(uint256)`, custom errors of the workspace, of Sourcify, of ERC-6093;
 * - events by topic 0: the workspace's ABIs (the emitter's first), the emitter's Sourcify ABI, the standard events
 *   (the number of topics must match: ERC-20 and ERC-721 `Transfer` share topic 0).
 * One Decoder serves one build: which source decoded a selector at an address is kept, so a trace of thousands of
 * calls to the same functions decodes each with one try. Nothing here throws on malformed data.
 */
import * as l10n from '@vscode/l10n';
import { decodeEventLog, hexToBytes, keccak256, stringToHex, type Abi } from 'viem';
import {
  type AbiEntry,
  type AbiRegistry,
  type DecodedCall,
  type DecodedError,
  decodeCall,
  decodedValues,
  decodeError,
  decodeReturn,
  valuesText,
} from '../decode/abi';
import type { AbiItem } from '../decode/abiFiles';
import { rankByDerivation } from '../decode/derivation';
import { decodeAbiString, ERROR_SELECTOR, panicMeaning } from '../revert';
import { entityIdToEvmAddress, evmAddressToEntityId } from '../validation';
import type { CallView, EntityView, ErrorView, LinkKind, ValueView } from './model';
import type { StorageLayout } from './storage';
import {
  facadeRegistry,
  responseCodeText,
  systemContractAt,
  systemRegistry,
  type SystemContract,
} from './systemContracts';
import { standardErrors, standardEvents, standardFunctions } from './standardEvents';

/** A contract's storage layout and where it came from (`artifacts/build-info/…json`, `Sourcify`). */
export interface StorageLayoutRef {
  layout: StorageLayout;
  source: string;
}

/**
 * What the inspector decodes with; the panel implements it. Addresses are passed lowercase, `0x` + 40 hex digits:
 * an account's or contract's EVM address as the mirror node sent it, then the long-zero address of its entity id
 * when that differs (each is asked until one answers).
 */
export interface InspectContext {
  /** The workspace's ABIs (with its deployment records, which rank the artifact deployed at an address first). */
  registry?: AbiRegistry;
  /** The Sourcify ABI of a contract, when it was fetched (see addressesToLookUp). */
  contractAbi?(address: string): AbiRegistry | undefined;
  /** A workspace deployment record's contract name. */
  nameOf?(address: string): string | undefined;
  /** The contract's solc storage layout, when the workspace's build (or Sourcify) has it. */
  storageLayout?(address: string): StorageLayoutRef | undefined;
  /**
   * The own EVM address (an account's alias, a contract's CREATE/CREATE2 address) of an entity id (`0.0.x`), when it
   * was looked up: shown beside the id where the mirror node sent only the long-zero form.
   */
  evmAddressOf?(id: string): string | undefined;
}

/** An account or contract as the mirror node names it: an EVM address and/or an entity id. */
export interface Addr {
  /** Lowercase EVM address as sent (an alias, a contract's own address, or long-zero). */
  evm?: string;
  /** `0.0.x` as sent or read from a long-zero address. */
  id?: string;
  /** The addresses to ask the context with: `evm`, then the long-zero address of `id` when different. */
  forms: string[];
}

/** What the context answers for the first of an address's forms that it knows (a throwing context answers nothing). */
export function askForms<T>(a: Addr, ask: (address: string) => T | undefined): T | undefined {
  for (const f of a.forms) {
    try {
      const v = ask(f);
      if (v !== undefined && v !== null) return v;
    } catch {
      // the next form
    }
  }
  return undefined;
}

/** askForms, asked once per address (by its first form) and kept in `cache`. */
function kept<T>(cache: Map<string, T | null>, a: Addr, ask: (address: string) => T | undefined): T | undefined {
  const key = a.forms[0];
  if (!key) return undefined;
  let v = cache.get(key);
  if (v === undefined) {
    v = askForms(a, ask) ?? null;
    cache.set(key, v);
  }
  return v ?? undefined;
}

const EVM = /^0x[0-9a-f]{40}$/;
const HEX = /^0x([0-9a-fA-F]{2})*$/;

/** An address from the mirror node's fields: an EVM address (`to`, `from`, `address`) and an entity id (`contract_id`). */
export function addrOf(evm?: string | null, id?: string | null): Addr {
  const e = typeof evm === 'string' && EVM.test(evm.trim().toLowerCase()) ? evm.trim().toLowerCase() : undefined;
  const given = typeof id === 'string' && id.trim() && id.length <= 100 ? id.trim() : undefined;
  const theId = given ?? (e ? evmAddressToEntityId(e) : undefined);
  const forms: string[] = [];
  if (e) forms.push(e);
  if (theId) {
    const lz = entityIdToEvmAddress(theId);
    if (lz.ok && !forms.includes(lz.value)) forms.push(lz.value);
  }
  return { evm: e, id: theId, forms };
}

/** The address to show beside an id: an EVM address that is not the id's long-zero form. */
function aliasOf(a: Addr): string | undefined {
  if (!a.evm) return undefined;
  const lz = evmAddressToEntityId(a.evm);
  return lz && (!a.id || lz === a.id) ? undefined : a.evm;
}

/** A string for one line, JSON-quoted as every decoded string is (control and bidi characters escaped). */
export function quoted(s: string): string {
  return decodedValues([{ name: 'v', type: 'string' }], [s])[0].value;
}

interface Tier {
  /** What a decode through this tier says it was decoded with. */
  source: (e: DecodedCall) => string;
  /** Whether answers carry a Hedera responseCode to name. */
  responseCodes: boolean;
  /** Whether any of its ABIs has a function of this selector. */
  knows: (selector: string) => boolean;
  decode: (data: string) => DecodedCall | undefined;
}

export interface DecodedFrameCall {
  view: CallView;
  decoded: DecodedCall;
  /** Name `responseCode` outputs (a call to a Hedera system contract or a facade). */
  responseCodes: boolean;
  /** redirectForToken: the token call inside, decoded with the standard functions. */
  inner?: DecodedCall;
}

/** Where an ABI came from, for people: "workspace: artifacts/…/Vault.json". */
export const inWorkspace = (label: string): string => l10n.t('workspace: {0}', label);

const workspaceSource = (e: DecodedCall): string =>
  e.origin.kind === 'sourcify' ? 'Sourcify' : inWorkspace(e.origin.label);

export class Decoder {
  private readonly sourcifyAbis = new Map<string, AbiRegistry | null>();
  private readonly names = new Map<string, string | null>();
  /** `address|selector` → the tier that decoded it last, -1: none knows the selector. */
  private readonly callTiers = new Map<string, number>();
  private readonly tierLists = new Map<string, Tier[]>();
  private readonly eventEntries = new Map<string, { entry: AbiEntry; source: string } | null>();
  /** keccak256 of candidate strings, for indexed string arguments. */
  private preimages: Map<string, string> | undefined;
  private readonly addrs = new Map<string, Addr>();
  private readonly systems = new Map<string, SystemContract | null>();
  private readonly entities = new Map<string, EntityView>();

  constructor(
    readonly ctx: InspectContext,
    private readonly strings: readonly string[] = [],
  ) {}

  /** The Sourcify ABI of an address (the first of its forms the context knows), asked once. */
  sourcify(a: Addr): AbiRegistry | undefined {
    const contractAbi = this.ctx.contractAbi?.bind(this.ctx);
    return contractAbi ? kept(this.sourcifyAbis, a, (f) => contractAbi(f)) : undefined;
  }

  /** A system contract's name, else the workspace deployment record's contract name. */
  name(a: Addr): string | undefined {
    const sys = this.system(a);
    if (sys) return sys.name;
    const nameOf = this.ctx.nameOf?.bind(this.ctx);
    return nameOf
      ? kept(this.names, a, (f) => {
          const n = nameOf(f);
          return typeof n === 'string' && n ? n : undefined;
        })
      : undefined;
  }

  /** addrOf, kept: a trace names the same few addresses thousands of times. */
  addr(evm?: string | null, id?: string | null): Addr {
    const key = `${typeof evm === 'string' ? evm : ''}|${typeof id === 'string' ? id : ''}`;
    let a = this.addrs.get(key);
    if (!a) {
      a = addrOf(evm, id);
      this.addrs.set(key, a);
    }
    return a;
  }

  system(a: Addr): SystemContract | undefined {
    const key = `${a.evm ?? ''}|${a.id ?? ''}`;
    let s = this.systems.get(key);
    if (s === undefined) {
      s = systemContractAt(a.evm) ?? systemContractAt(a.id) ?? null;
      this.systems.set(key, s);
    }
    return s ?? undefined;
  }

  /** An account or contract as shown: entity id, alias beside, name, and the kind of link (one object per address and kind). */
  entity(a: Addr, kind?: LinkKind): EntityView {
    const key = `${a.evm ?? ''}|${a.id ?? ''}|${kind ?? ''}`;
    let v = this.entities.get(key);
    if (!v) {
      v = this.makeEntity(a, kind);
      this.entities.set(key, v);
    }
    return v;
  }

  private makeEntity(a: Addr, kind?: LinkKind): EntityView {
    const v: EntityView = {};
    if (a.id) v.id = a.id;
    const alias = aliasOf(a) ?? (a.id ? this.ctx.evmAddressOf?.(a.id) : undefined);
    if (alias) v.evm = alias;
    if (!v.id && !v.evm && a.evm) v.evm = a.evm;
    const name = this.name(a);
    if (name) v.name = name;
    if (kind && v.id && !this.system(a)) v.kind = kind;
    return v;
  }

  /** The sources that decode calls to `a`, in the order tried (one list per address and build). */
  private tiers(a: Addr): Tier[] {
    const key = a.forms[0] ?? '';
    let tiers = this.tierLists.get(key);
    if (tiers) return tiers;
    const sys = this.system(a);
    const sysReg = systemRegistry(sys?.address);
    const knows = (r: AbiRegistry) => (selector: string) => r.functionBySelector(selector).length > 0;
    tiers = [];
    if (sys && sysReg)
      tiers.push({
        source: () => sys.name,
        responseCodes: sys.responseCodes,
        knows: knows(sysReg),
        decode: (d) => decodeCall(d, sysReg),
      });
    const ws = this.ctx.registry;
    if (ws)
      tiers.push({
        source: workspaceSource,
        responseCodes: !!sys?.responseCodes,
        knows: knows(ws),
        decode: (d) => decodeCall(d, ws, undefined, a.evm ?? a.forms[0]),
      });
    const src = this.sourcify(a);
    if (src)
      tiers.push({
        source: () => 'Sourcify',
        responseCodes: false,
        knows: knows(src),
        decode: (d) => decodeCall(d, undefined, src),
      });
    for (const s of standardFunctions())
      tiers.push({
        source: () => s.label,
        responseCodes: false,
        knows: knows(s.registry),
        decode: (d) => decodeCall(d, s.registry),
      });
    const facade = facadeRegistry();
    tiers.push({
      source: () => 'Hedera token/account facade',
      responseCodes: true,
      knows: knows(facade),
      decode: (d) => decodeCall(d, facade),
    });
    this.tierLists.set(key, tiers);
    return tiers;
  }

  /** Call data decoded as a function of the called contract (`a`); undefined when nothing knows it. */
  call(input: string | null | undefined, a: Addr): DecodedFrameCall | undefined {
    if (typeof input !== 'string' || input.length < 10 || !HEX.test(input)) return undefined;
    const selector = input.slice(0, 10).toLowerCase();
    const key = `${a.forms[0] ?? ''}|${selector}`;
    const known = this.callTiers.get(key);
    if (known === -1) return undefined;
    const tiers = this.tiers(a);
    const all = [...tiers.keys()];
    const order = known !== undefined ? [known, ...all.filter((t) => t !== known)] : all;
    for (const t of order) {
      let decoded: DecodedCall | undefined;
      try {
        decoded = tiers[t].decode(input);
      } catch {
        decoded = undefined;
      }
      if (!decoded) continue;
      this.callTiers.set(key, t);
      const out: DecodedFrameCall = {
        view: callView(decoded, tiers[t].source(decoded)),
        decoded,
        responseCodes: tiers[t].responseCodes,
      };
      if (decoded.name === 'redirectForToken' && decoded.item.inputs.length === 2) this.redirect(out);
      if (out.responseCodes) out.view.args = out.view.args.map(nameResponseCode);
      return out;
    }
    // remembered for selectors no tier knows at all (data that did not fit a known selector is tried again)
    if (!tiers.some((t) => t.knows(selector))) this.callTiers.set(key, -1);
    return undefined;
  }

  /** redirectForToken(token, bytes): the token call inside, decoded with the standard functions, as a child row. */
  private redirect(out: DecodedFrameCall): void {
    const bytesArg = out.view.args[1];
    if (!bytesArg || !HEX.test(bytesArg.value)) return;
    for (const s of standardFunctions()) {
      const inner = decodeCall(bytesArg.value, s.registry);
      if (!inner) continue;
      out.inner = inner;
      out.view.args = [
        out.view.args[0],
        {
          ...bytesArg,
          children: [
            { name: inner.name, type: `${inner.signature} (${s.label})`, value: inner.text, children: inner.args },
          ],
        },
      ];
      return;
    }
  }

  /** Return data decoded with the call's outputs (responseCode named for system contracts). */
  output(c: DecodedFrameCall | undefined, data: string | null | undefined): ValueView[] | undefined {
    if (!c || typeof data !== 'string' || !HEX.test(data) || data.length <= 2) return undefined;
    let r;
    try {
      r = decodeReturn(c.decoded, data);
    } catch {
      r = undefined;
    }
    if (!r) return undefined;
    let values: ValueView[] = c.responseCodes ? r.values.map(nameResponseCode) : r.values;
    // redirectForToken's `response` bytes: what the token function returned
    if (c.inner && values.length === 2 && HEX.test(values[1].value)) {
      const inner = decodeReturn(c.inner, values[1].value);
      if (inner) values = [values[0], { ...values[1], children: inner.values }];
    }
    return values;
  }

  /** Revert data (or a failed call's error text) decoded; undefined for null. */
  error(data: string | null | undefined, a: Addr | undefined): ErrorView | undefined {
    if (data === null || data === undefined) return undefined;
    let e: DecodedError | undefined;
    let source: string | undefined;
    try {
      e = decodeError(data, this.ctx.registry, a ? this.sourcify(a) : undefined, a?.evm ?? a?.forms[0]);
      if (e?.name && e.origin) source = e.origin.kind === 'sourcify' ? 'Sourcify' : inWorkspace(e.origin.label);
      if (e && !e.name && e.selector && (e.kind === 'custom' || e.kind === 'text')) {
        const std = decodeError(data, standardErrors());
        if (std?.name) {
          e = std;
          source = 'ERC-6093';
        }
      }
    } catch {
      e = undefined;
    }
    return e ? errorView(e, data, source) : undefined;
  }

  /** A log decoded by topic 0 (and its number of topics); undefined when nothing knows it. */
  event(
    emitter: Addr,
    topics: string[],
    data: string,
  ): { name: string; signature: string; args: ValueView[]; source: string } | undefined {
    const t0 = topics[0]?.toLowerCase();
    if (!t0 || !/^0x[0-9a-f]{64}$/.test(t0)) return undefined;
    const key = `${emitter.forms[0] ?? ''}|${t0}|${topics.length}`;
    const known = this.eventEntries.get(key);
    if (known === null) return undefined;
    const candidates: Array<{ entry: AbiEntry; source: string }> = known ? [known] : [];
    const ws = this.ctx.registry;
    if (ws) {
      const list = ws.eventByTopic(t0);
      const ranked = list.length > 1 ? rankByDerivation(list, (e) => e.file, emitter.evm, ws.context) : list;
      for (const entry of ranked) candidates.push({ entry, source: inWorkspace(entry.origin.label) });
    }
    for (const entry of this.sourcify(emitter)?.eventByTopic(t0) ?? []) candidates.push({ entry, source: 'Sourcify' });
    for (const s of standardEvents())
      for (const entry of s.registry.eventByTopic(t0)) candidates.push({ entry, source: s.label });
    for (const c of candidates) {
      const args = decodeLog(c.entry.item, topics, data);
      if (!args) continue;
      this.eventEntries.set(key, c);
      return {
        name: c.entry.item.name,
        signature: c.entry.signature,
        args: args.map((v) => this.preimage(v)),
        source: c.source,
      };
    }
    // remembered when nothing declares the topic (data that did not fit a declared event is tried again)
    if (!candidates.length) this.eventEntries.set(key, null);
    return undefined;
  }

  /** An indexed string or bytes argument (a hash): the candidate string that hashes to it, when one does. */
  private preimage(v: ValueView): ValueView {
    if (!v.indexed || (v.type !== 'string' && v.type !== 'bytes') || !this.strings.length) return v;
    if (!this.preimages) {
      this.preimages = new Map();
      for (const s of this.strings.slice(0, 256)) this.preimages.set(keccak256(stringToHex(s)), s);
    }
    const s = this.preimages.get(v.value.toLowerCase());
    return s === undefined ? v : { ...v, value: `${v.value} = keccak256(${quoted(s)})` };
  }
}

function callView(d: DecodedCall, source: string): CallView {
  return { name: d.name, signature: d.signature, selector: d.selector, args: d.args, source };
}

/** `responseCode` 22 → `SUCCESS (22)`. */
function nameResponseCode(v: ValueView): ValueView {
  return v.name === 'responseCode' && /^-?\d+$/.test(v.value) ? { ...v, value: responseCodeText(v.value) } : v;
}

/** Decodes a log with one event item: the number of topics must be the item's (indexed arguments + topic 0). */
function decodeLog(item: AbiItem, topics: string[], data: string): ValueView[] | undefined {
  const indexed = item.inputs.filter((p) => p.indexed).length;
  if (topics.length !== indexed + (item.anonymous ? 0 : 1)) return undefined;
  try {
    const r = decodeEventLog({
      abi: [item] as unknown as Abi,
      topics: topics as [`0x${string}`, ...`0x${string}`[]],
      data: (HEX.test(data) ? data : '0x') as `0x${string}`,
      strict: true,
    });
    const args = r.args as unknown;
    const list = item.inputs.map((p, i) =>
      Array.isArray(args)
        ? args[i]
        : args && typeof args === 'object'
          ? (args as Record<string, unknown>)[p.name || String(i)]
          : undefined,
    );
    // an indexed string, bytes, array or struct is only its keccak256 hash in the topic: shown as that hash
    let t = 1;
    return decodedValues(item.inputs, list).map((v, i) => {
      const p = item.inputs[i];
      if (!p.indexed) return { ...v, indexed: false };
      const hash = topics[item.anonymous ? t++ - 1 : t++];
      return isDynamic(p.type)
        ? { name: v.name, type: v.type, value: hash.toLowerCase(), indexed: true }
        : { ...v, indexed: true };
    });
  } catch {
    return undefined;
  }
}

const isDynamic = (type: string): boolean =>
  type === 'string' || type === 'bytes' || type.endsWith(']') || type.startsWith('tuple');

/** Has a control or bidi character: shown JSON-quoted (escaped), else as it is. */
const UNSAFE = /[\u0000-\u001f\u007f\u202a-\u202e\u2066-\u2069]/;

function errorView(e: DecodedError, raw: string, source: string | undefined): ErrorView {
  switch (e.kind) {
    case 'empty':
      return { kind: 'empty', text: e.message };
    case 'error': {
      // the reason as sent (decodeRevert cleans it for one-line labels): every character kept, quoted
      let reason = e.message;
      if (raw.trim().toLowerCase().startsWith(ERROR_SELECTOR)) {
        try {
          reason = decodeAbiString(hexToBytes(raw.trim() as `0x${string}`).subarray(4)) ?? reason;
        } catch {
          // keep the cleaned message
        }
      }
      const q = quoted(reason);
      return {
        kind: 'error',
        text: `Error(${q})`,
        name: 'Error',
        args: [{ name: 'reason', type: 'string', value: q }],
      };
    }
    case 'panic': {
      const code = e.code ?? 0n;
      return {
        kind: 'panic',
        text: `Panic(0x${code.toString(16).padStart(2, '0')}): ${panicMeaning(code)}`,
        name: 'Panic',
        args: [{ name: 'code', type: 'uint256', value: code.toString() }],
      };
    }
    case 'custom':
      if (e.name)
        return {
          kind: 'custom',
          text: `${e.name}(${valuesText(e.args ?? [])})`,
          name: e.name,
          args: e.args ?? [],
          ...(source ? { source } : {}),
        };
      return {
        kind: 'raw',
        text: e.selector ? l10n.t('custom error {0} (no known ABI declares it)', e.selector) : e.message,
      };
    case 'text':
      return { kind: 'text', text: UNSAFE.test(e.raw) ? quoted(e.raw.trim()) : e.message };
  }
}
