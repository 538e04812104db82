/**
 * Storage slots named with a contract's solc `storageLayout` (the compiler's `storageLayout` output, from the
 * workspace's build or Sourcify): which variables a changed slot holds and their values before and after.
 *
 * - Value types at their slot, several packed in one slot sliced by `offset` and `numberOfBytes` (uint, int as two's
 *   complement, address, contract, bool, bytesN, enum).
 * - Strings and bytes of up to 31 bytes stored in their slot; longer ones as their length and data words.
 * - Struct members at slot + n; static arrays' elements (packed when small); dynamic arrays' length at their slot and
 *   element i at keccak256(slot) + i.
 * - Mappings: the slot of `m[key]` is keccak256(pad(key) . pad(slot)) (for string and bytes keys, the key's bytes
 *   unpadded); a changed slot is named when one of the candidate keys (addresses, numbers, 32-byte values and strings
 *   seen in the transaction) gives it; nested mappings, and mappings of structs and arrays, likewise.
 * A slot no variable explains is left unnamed (the caller shows it raw and says so). Plain TypeScript: no vscode.
 */
import { keccak256, stringToHex } from 'viem';
import { quoted } from './decoder';

/** One variable of `storageLayout.storage`, or one member of a struct type. */
export interface StorageLayoutItem {
  label: string;
  /** Decimal slot number, relative to the struct for members. */
  slot: string;
  /** Byte offset within the slot (from the right). */
  offset: number;
  /** A key of `types` (`t_uint256`, `t_mapping(t_address,t_uint256)`). */
  type: string;
  contract?: string;
  astId?: number;
}

/** One entry of `storageLayout.types`. */
export interface StorageLayoutType {
  encoding: 'inplace' | 'mapping' | 'dynamic_array' | 'bytes' | (string & {});
  /** `uint256`, `mapping(address => uint256)`, `struct Vault.Position`, `uint8[3]`. */
  label: string;
  numberOfBytes: string;
  key?: string;
  value?: string;
  base?: string;
  members?: StorageLayoutItem[];
}

/** solc's `storageLayout` output of one contract. */
export interface StorageLayout {
  storage: StorageLayoutItem[];
  types?: Record<string, StorageLayoutType> | null;
}

/** Values seen in a transaction that may be mapping keys. */
export interface KeyCandidates {
  /** EVM addresses (0x + 40 hex). */
  addresses?: Iterable<string>;
  /** Non-negative numbers (uint keys, enum keys). */
  uints?: Iterable<bigint>;
  /** Fixed-size byte values (bytes32 and shorter keys), 0x hex. */
  bytes?: Iterable<string>;
  /** Strings (string keys). */
  strings?: Iterable<string>;
}

/** One slot's read and written values, as the mirror node sends them (hex). */
export interface SlotChange {
  slot: string;
  read?: string | null;
  written?: string | null;
}

/** A variable a slot holds: `totalSupply`, `balances[0x…]`, `position.owner`, with its values before and after. */
export interface SlotVariable {
  label: string;
  /** The variable's type as solc labels it (`uint128`, `address`, `string`, `struct Vault.Position` members' types). */
  type: string;
  /** Decoded from the value read; undefined when none was sent. */
  before?: string;
  /** Decoded from the value written; undefined when the slot was only read. */
  after?: string;
}

/** Bounds of the work done for one contract's changes. */
const MAX_CANDIDATES = 128;
const MAX_HASHES = 16_384;
const MAX_NESTING = 4;
const MAX_MEMBERS = 4_096;
/** Elements of a dynamic array (or words of a long string) that are named: the first 2^32. */
const MAX_DYNAMIC_SLOTS = 1n << 32n;

type Kind = 'value' | 'bytes' | 'length' | 'data';

interface Placement {
  label: string;
  type: string;
  offset: number;
  size: number;
  kind: Kind;
}

type Root =
  | { kind: 'mapping'; base: bigint; key: string; value: string; label: string; depth: number }
  /** A run of elements from `start`: static arrays, and dynamic arrays' elements at keccak256(slot). */
  | { kind: 'range'; start: bigint; slots: bigint; elem: string; label: string; depth: number; length?: bigint }
  | { kind: 'data'; start: bigint; label: string; type: string };

const WORD = 1n << 256n;

interface Keys {
  addresses: string[];
  uints: bigint[];
  bytes: string[];
  strings: string[];
}
const hex64 = (v: bigint): string => v.toString(16).padStart(64, '0');

/** A slot or value as a bigint (0x hex, any length up to 32 bytes); undefined when it is not hex. */
export function slotNumber(v: string | null | undefined): bigint | undefined {
  const t = (v ?? '').trim();
  const h = t.replace(/^0x/i, '');
  if (!h || h.length > 64 || !/^[0-9a-fA-F]+$/.test(h)) return undefined;
  return BigInt(`0x${h}`);
}

/** The 64 hex digits of a value (left-padded), or undefined when it is not hex of at most 32 bytes. */
function wordOf(v: string | null | undefined): string | undefined {
  const n = slotNumber(v);
  return n === undefined ? undefined : hex64(n);
}

class Namer {
  private readonly types: Record<string, StorageLayoutType>;
  private readonly placements = new Map<bigint, Placement[]>();
  private readonly roots: Root[] = [];
  private hashes = 0;
  private members = 0;

  constructor(
    layout: StorageLayout,
    private readonly changed: bigint[],
    private readonly keys: Keys,
  ) {
    this.types = layout.types && typeof layout.types === 'object' ? layout.types : {};
    for (const item of Array.isArray(layout.storage) ? layout.storage : []) {
      const slot = slotOf(item?.slot);
      if (slot === undefined || typeof item.label !== 'string') continue;
      this.place(item.type, slot, item.label, Number(item.offset) || 0, 0);
    }
    // roots may add roots (a mapping of arrays, of mappings): a queue, bounded by MAX_NESTING and MAX_HASHES
    for (let i = 0; i < this.roots.length; i++) this.resolve(this.roots[i]);
  }

  at(slot: bigint): Placement[] {
    return this.placements.get(slot) ?? [];
  }

  private add(slot: bigint, p: Placement): void {
    const list = this.placements.get(slot);
    if (list) list.push(p);
    else this.placements.set(slot, [p]);
  }

  /** Places a variable of type `typeId` at `slot` (and `offset` within it for small value types). */
  private place(typeId: string, slot: bigint, label: string, offset: number, depth: number): void {
    const t = this.types[typeId];
    if (!t || ++this.members > MAX_MEMBERS) return;
    const size = Number(t.numberOfBytes) || 32;
    switch (t.encoding) {
      case 'inplace':
        if (Array.isArray(t.members)) {
          for (const m of t.members) {
            const rel = slotOf(m?.slot);
            if (rel !== undefined && typeof m.label === 'string')
              this.place(m.type, (slot + rel) % WORD, `${label}.${m.label}`, Number(m.offset) || 0, depth);
          }
        } else if (t.base) {
          // a static array: its length is the last [N] of its label (`uint8[3]`, `uint256[2][3]`)
          const length = /\[(\d+)\]$/.exec(t.label ?? '')?.[1];
          this.roots.push({
            kind: 'range',
            start: slot,
            slots: BigInt(Math.ceil(size / 32)),
            elem: t.base,
            label,
            depth,
            length: length ? BigInt(length) : undefined,
          });
        } else {
          this.add(slot, { label, type: t.label, offset, size, kind: 'value' });
        }
        return;
      case 'bytes':
        this.add(slot, { label, type: t.label, offset: 0, size: 32, kind: 'bytes' });
        this.roots.push({ kind: 'data', start: BigInt(keccak256(`0x${hex64(slot)}`)), label, type: t.label });
        return;
      case 'mapping':
        if (t.key && t.value && depth < MAX_NESTING)
          this.roots.push({ kind: 'mapping', base: slot, key: t.key, value: t.value, label, depth });
        return;
      case 'dynamic_array':
        this.add(slot, { label: `${label}.length`, type: 'uint256', offset: 0, size: 32, kind: 'length' });
        if (t.base && depth < MAX_NESTING) {
          const start = BigInt(keccak256(`0x${hex64(slot)}`));
          this.roots.push({ kind: 'range', start, slots: MAX_DYNAMIC_SLOTS, elem: t.base, label, depth: depth + 1 });
        }
        return;
      default:
        this.add(slot, { label, type: t.label, offset, size, kind: 'value' });
    }
  }

  private resolve(root: Root): void {
    if (root.kind === 'data') {
      for (const s of this.changed) {
        const i = s - root.start;
        if (i >= 0n && i < MAX_DYNAMIC_SLOTS)
          this.add(s, { label: root.label, type: `${root.type} (data word ${i})`, offset: 0, size: 32, kind: 'data' });
      }
      return;
    }
    if (root.kind === 'range') {
      const elem = this.types[root.elem];
      if (!elem) return;
      const size = Number(elem.numberOfBytes) || 32;
      // value types of up to 16 bytes share a slot; anything else starts a slot of its own
      const packed = elem.encoding === 'inplace' && !elem.members && !elem.base && size <= 16;
      const perSlot = packed ? Math.floor(32 / size) : 1;
      const slotsPer = packed ? 1n : BigInt(Math.max(1, Math.ceil(size / 32)));
      for (const s of this.changed) {
        const rel = s - root.start;
        if (rel < 0n || rel >= root.slots) continue;
        const first = (rel / slotsPer) * BigInt(perSlot);
        const base = root.start + (rel / slotsPer) * slotsPer;
        for (let j = 0; j < perSlot; j++) {
          const index = first + BigInt(j);
          // a static array knows its length; a dynamic one's elements past its length are zero (dropped below)
          if (root.length !== undefined && index >= root.length) break;
          this.place(root.elem, base, `${root.label}[${index}]`, packed ? j * size : 0, root.depth);
        }
      }
      return;
    }
    const keyType = this.types[root.key];
    if (!keyType) return;
    for (const { encoded, text } of this.keysFor(keyType)) {
      if (++this.hashes > MAX_HASHES) return;
      const at = BigInt(keccak256(`0x${encoded}${hex64(root.base)}`));
      this.place(root.value, at, `${root.label}[${text}]`, 0, root.depth + 1);
    }
  }

  /** The candidates that fit a key type, encoded as the mapping hashes them, with how the key is shown. */
  private keysFor(t: StorageLayoutType): Array<{ encoded: string; text: string }> {
    const label = t.label;
    const out: Array<{ encoded: string; text: string }> = [];
    if (label === 'address' || label === 'address payable' || label.startsWith('contract ')) {
      for (const a of this.keys.addresses) out.push({ encoded: a.slice(2).padStart(64, '0'), text: a });
    } else if (/^u?int\d*$/.test(label) || label.startsWith('enum ')) {
      for (const n of this.keys.uints) out.push({ encoded: hex64(n), text: n.toString() });
    } else if (label === 'bool') {
      out.push({ encoded: hex64(0n), text: 'false' }, { encoded: hex64(1n), text: 'true' });
    } else if (/^bytes\d+$/.test(label)) {
      const n = Number(label.slice(5));
      for (const b of this.keys.bytes) {
        if ((b.length - 2) / 2 === n) out.push({ encoded: b.slice(2).padEnd(64, '0'), text: b });
      }
    } else if (label === 'string' || label === 'bytes') {
      for (const s of this.keys.strings) out.push({ encoded: stringToHex(s).slice(2), text: JSON.stringify(s) });
    }
    return out;
  }
}

/** A layout's slot (a decimal string, as solc writes it; a number or 0x hex accepted), or undefined. */
function slotOf(v: unknown): bigint | undefined {
  const t = typeof v === 'number' && Number.isSafeInteger(v) ? String(v) : typeof v === 'string' ? v.trim() : '';
  const n = /^\d{1,78}$/.test(t) || /^0x[0-9a-fA-F]{1,64}$/.test(t) ? BigInt(t) : undefined;
  return n !== undefined && n < WORD ? n : undefined;
}

function bytesText(hex: string, type: string): string {
  if (type === 'string') {
    const bytes = new Uint8Array(hex.length / 2);
    for (let i = 0; i < bytes.length; i++) bytes[i] = parseInt(hex.slice(i * 2, i * 2 + 2), 16);
    const s = new TextDecoder('utf-8', { fatal: false }).decode(bytes);
    // JSON-quoted as every decoded string (control and bidi characters escaped)
    return quoted(s);
  }
  return `0x${hex}`;
}

/** A placement's value in a 32-byte word (64 hex digits). */
function decode(p: Placement, word: string): string {
  if (p.kind === 'length') return BigInt(`0x${word}`).toString();
  if (p.kind === 'data') return `0x${word}`;
  if (p.kind === 'bytes') {
    const last = parseInt(word.slice(62), 16);
    if (last % 2 === 0) return bytesText(word.slice(0, last), p.type);
    const length = (BigInt(`0x${word}`) - 1n) / 2n;
    return `(${length} bytes, stored from keccak256(slot))`;
  }
  const start = 32 - p.offset - p.size;
  if (start < 0 || p.size <= 0) return `0x${word}`;
  const slice = word.slice(start * 2, (start + p.size) * 2);
  const v = BigInt(`0x${slice || '0'}`);
  const t = p.type;
  if (/^uint\d*$/.test(t) || t.startsWith('enum ')) return v.toString();
  if (/^int\d*$/.test(t)) {
    const bits = BigInt(p.size * 8);
    return (v >= 1n << (bits - 1n) ? v - (1n << bits) : v).toString();
  }
  if (t === 'bool') return v === 0n ? 'false' : v === 1n ? 'true' : `0x${slice}`;
  return `0x${slice}`;
}

/** Variables shown for one slot at most (a slot of a packed `uint8[]` holds 32 elements). */
const MAX_SHOWN = 8;

const isZero = (v: string | undefined): boolean =>
  v === undefined || v === '0' || v === 'false' || /^0x0*$/.test(v) || v === '""';

/** Of many variables in one slot: those whose value changed, else those that are not zero, else the first few. */
function fewer(vars: SlotVariable[]): SlotVariable[] {
  const changed = vars.filter((v) => v.after !== undefined && v.after !== v.before);
  if (changed.length) return changed.slice(0, MAX_SHOWN);
  const set = vars.filter((v) => !isZero(v.before) || !isZero(v.after));
  return (set.length ? set : vars).slice(0, MAX_SHOWN);
}

function uniq<T>(it: Iterable<T> | undefined, keyOf: (v: T) => string | undefined): T[] {
  const seen = new Map<string, T>();
  for (const v of it ?? []) {
    const k = keyOf(v);
    if (k !== undefined && !seen.has(k)) seen.set(k, v);
    if (seen.size >= MAX_CANDIDATES) break;
  }
  return [...seen.values()];
}

/**
 * The variables each changed slot holds, by the slot's number (as `slotNumber` reads it), in slot order (lowest
 * offset first); slots no variable explains are absent. Never throws on a malformed layout or value.
 */
export function nameSlots(
  layout: StorageLayout | null | undefined,
  changes: readonly SlotChange[],
  candidates: KeyCandidates = {},
): Map<bigint, SlotVariable[]> {
  const out = new Map<bigint, SlotVariable[]>();
  if (!layout || typeof layout !== 'object') return out;
  const slots = changes.map((c) => slotNumber(c?.slot)).filter((s): s is bigint => s !== undefined);
  if (!slots.length) return out;
  const keys = {
    addresses: uniq(candidates.addresses, (a) =>
      typeof a === 'string' && /^0x[0-9a-fA-F]{40}$/.test(a) ? a.toLowerCase() : undefined,
    ).map((a) => a.toLowerCase()),
    uints: uniq(candidates.uints, (n) => (typeof n === 'bigint' && n >= 0n && n < WORD ? n.toString() : undefined)),
    bytes: uniq(candidates.bytes, (b) =>
      typeof b === 'string' && /^0x([0-9a-fA-F]{2}){1,32}$/.test(b) ? b.toLowerCase() : undefined,
    ).map((b) => b.toLowerCase()),
    strings: uniq(candidates.strings, (s) => (typeof s === 'string' && s.length <= 1024 ? s : undefined)),
  };
  let namer: Namer;
  try {
    namer = new Namer(layout, slots, keys);
  } catch {
    return out;
  }
  for (const c of changes) {
    const slot = slotNumber(c?.slot);
    if (slot === undefined || out.has(slot)) continue;
    const placed = [...namer.at(slot)].sort((a, b) => a.offset - b.offset);
    if (!placed.length) continue;
    const read = wordOf(c.read);
    const written = wordOf(c.written);
    const vars = placed.map((p): SlotVariable => ({
      label: p.label,
      type: p.type,
      ...(read !== undefined ? { before: decode(p, read) } : {}),
      ...(written !== undefined ? { after: decode(p, written) } : {}),
    }));
    out.set(slot, vars.length > MAX_SHOWN ? fewer(vars) : vars);
  }
  return out;
}
