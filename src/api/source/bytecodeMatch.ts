/**
 * Does a build's runtime bytecode match the code on chain? The compiler's `evm.deployedBytecode.object` and the
 * deployed code legitimately differ in four places, which are masked (on both sides) before comparing:
 *
 * - the metadata tail (a CBOR map and its 2-byte length, solc's `bytecodeHash`): a different source path, comment or
 *   compiler setting that does not change the code changes it, so the same code matches ("partial" in Sourcify's
 *   words; "exact" when the tails are equal too);
 * - immutables (`immutableReferences`): zeros in the compiler's output, the constructor's values on chain;
 * - library links (`linkReferences`): `__$<hash>$__` placeholders (or a linked address) in the compiler's output, the
 *   library's address on chain; when the libraries' addresses are given, the linked address is checked too;
 * - a library's call guard: a library's code starts with `PUSH20 <its own address>`, zeros in the compiler's output.
 *
 * Anything else that differs is reported as it is (first differing byte, and the instruction there), never hidden.
 * Plain TypeScript, no `vscode`.
 */
import { metadataTailLength } from '../decode/solcOutput';
import { instructionSize, type LinkRef } from './sourceMap';

export interface BytecodeMatchInput {
  /** The code on chain (hex, with or without 0x): the mirror node's `runtime_bytecode`. */
  onChain: string;
  /** The build's `evm.deployedBytecode.object` (hex, placeholders allowed). */
  compiled: string;
  immutableReferences?: Record<string, LinkRef[]>;
  linkReferences?: Record<string, Record<string, LinkRef[]>>;
  /** Library addresses by `path:Name` (or `Name`), to check the linked addresses. */
  libraries?: Record<string, string>;
}

export interface BytecodeMismatch {
  /** Byte offset of the first difference in the code (metadata excluded). */
  offset: number;
  /** The instruction holding that byte in the compiled code (its pc and opcode), when the offset is in the code. */
  instructionPc?: number;
  compiledByte?: number;
  onChainByte?: number;
}

export interface BytecodeMatch {
  /** The same code (with the masks below): the build's source map applies to the code on chain. */
  match: boolean;
  /** `exact`: the metadata tails are equal too; `partial`: only they differ; `mismatch`; `empty`: no code to compare. */
  kind: 'exact' | 'partial' | 'mismatch' | 'empty';
  /** What was masked. */
  masked: { metadata: boolean; immutables: number; links: number; libraryGuard: boolean };
  /** Why it does not match, in words (the first difference), or what the match rests on. */
  reason: string;
  mismatch?: BytecodeMismatch;
  /** Linked library addresses that differ from the ones given (the code still matches: they were masked). */
  libraryAddressMismatches?: Array<{ library: string; expected: string; onChain: string; offset: number }>;
}

const strip0x = (h: string): string => (h.startsWith('0x') || h.startsWith('0X') ? h.slice(2) : h).toLowerCase();
const isHex = (h: string): boolean => /^[0-9a-f]*$/.test(h);

/** A library guard: PUSH20 <20 bytes> ADDRESS EQ at the very start (solc's library call protection). */
function hasLibraryGuard(hex: string): boolean {
  return hex.length >= 46 && hex.startsWith('73') && hex.slice(42, 46) === '3014';
}

/** The instruction (its pc and opcode) that holds byte `offset` of the code. */
function instructionAt(hex: string, offset: number): { pc: number; opcode: number } | undefined {
  let pc = 0;
  while (pc * 2 < hex.length) {
    const op = parseInt(hex.substr(pc * 2, 2), 16);
    const size = Number.isNaN(op) ? 1 : instructionSize(op);
    if (offset < pc + size) return { pc, opcode: Number.isNaN(op) ? -1 : op };
    pc += size;
  }
  return undefined;
}

/** Whether the runtime bytecode of a build is the code on chain (see the module comment). Never throws. */
export function matchBytecode(input: BytecodeMatchInput): BytecodeMatch {
  let chain = strip0x(input.onChain ?? '');
  let built = strip0x(input.compiled ?? '');
  const masked = { metadata: false, immutables: 0, links: 0, libraryGuard: false };
  if (!chain.length || !built.length)
    return {
      match: false,
      kind: 'empty',
      masked,
      reason: !chain.length ? 'There is no code on chain to compare.' : 'The build has no runtime bytecode.',
    };
  if (!isHex(chain)) return { match: false, kind: 'mismatch', masked, reason: 'The code on chain is not hex.' };

  // the metadata tails: compare what is before them
  const chainTail = metadataTailLength(chain);
  const builtTail = metadataTailLength(built.replace(/[^0-9a-f]/g, '0'));
  const tailsEqual =
    chainTail === builtTail && chain.slice(chain.length - chainTail) === built.slice(built.length - builtTail);
  masked.metadata = chainTail > 0 || builtTail > 0;
  chain = chain.slice(0, chain.length - chainTail);
  built = built.slice(0, built.length - builtTail);

  // masks, in bytes of the code
  const mask = new Uint8Array(Math.max(chain.length, built.length) >> 1);
  const setMask = (r: LinkRef): boolean => {
    if (!Number.isInteger(r?.start) || !Number.isInteger(r?.length) || r.start < 0 || r.length <= 0) return false;
    for (let i = r.start; i < r.start + r.length && i < mask.length; i++) mask[i] = 1;
    return true;
  };
  for (const refs of Object.values(input.immutableReferences ?? {}))
    for (const r of refs ?? []) if (setMask(r)) masked.immutables++;
  const libraryAddressMismatches: NonNullable<BytecodeMatch['libraryAddressMismatches']> = [];
  for (const [path, byName] of Object.entries(input.linkReferences ?? {})) {
    for (const [name, refs] of Object.entries(byName ?? {})) {
      const expected = input.libraries?.[`${path}:${name}`] ?? input.libraries?.[name];
      for (const r of refs ?? []) {
        if (!setMask(r)) continue;
        masked.links++;
        const got = chain.slice(r.start * 2, (r.start + r.length) * 2);
        if (expected && strip0x(expected).padStart(40, '0') !== got)
          libraryAddressMismatches.push({
            library: `${path}:${name}`,
            expected: `0x${strip0x(expected)}`,
            onChain: `0x${got}`,
            offset: r.start,
          });
      }
    }
  }
  // placeholders the link references did not name (an output without linkReferences)
  for (let i = built.indexOf('__$'); i >= 0; i = built.indexOf('__$', i + 40)) {
    if (i % 2 === 0 && !mask[i >> 1] && setMask({ start: i >> 1, length: 20 })) masked.links++;
  }
  if (hasLibraryGuard(built) && hasLibraryGuard(chain) && /^0{40}$/.test(built.slice(2, 42))) {
    setMask({ start: 1, length: 20 });
    masked.libraryGuard = true;
  }

  const base = { masked, ...(libraryAddressMismatches.length ? { libraryAddressMismatches } : {}) };
  if (chain.length !== built.length) {
    const shorter = Math.min(chain.length, built.length) >> 1;
    const first = firstDifference(chain, built, mask, shorter) ?? shorter;
    return {
      match: false,
      kind: 'mismatch',
      ...base,
      reason: `The code on chain is ${chain.length >> 1} bytes and the build's is ${built.length >> 1} bytes (metadata excluded): it is not the code of this build.`,
      mismatch: mismatchAt(chain, built, first),
    };
  }
  const diff = firstDifference(chain, built, mask, chain.length >> 1);
  if (diff !== undefined) {
    const m = mismatchAt(chain, built, diff);
    const at =
      m.instructionPc !== undefined && m.instructionPc !== diff ? ` (in the instruction at pc ${m.instructionPc})` : '';
    return {
      match: false,
      kind: 'mismatch',
      ...base,
      reason: `The code differs from byte ${diff}${at}: it is not the code of this build.`,
      mismatch: m,
    };
  }
  const what = [
    masked.immutables ? `${masked.immutables} immutable reference(s)` : '',
    masked.links ? `${masked.links} library link(s)` : '',
    masked.libraryGuard ? "the library's own address" : '',
  ]
    .filter(Boolean)
    .join(', ');
  if (tailsEqual)
    return {
      match: true,
      kind: 'exact',
      ...base,
      reason: `Same code and metadata${what ? `, apart from ${what}` : ''}.`,
    };
  return {
    match: true,
    kind: 'partial',
    ...base,
    reason: `Same code${what ? ` (apart from ${what})` : ''}; the metadata hash differs (a comment, a path or a setting that does not change the code).`,
  };
}

function firstDifference(a: string, b: string, mask: Uint8Array, bytes: number): number | undefined {
  for (let i = 0; i < bytes; i++) {
    if (mask[i]) continue;
    if (a.charCodeAt(2 * i) !== b.charCodeAt(2 * i) || a.charCodeAt(2 * i + 1) !== b.charCodeAt(2 * i + 1)) return i;
  }
  return undefined;
}

function mismatchAt(chain: string, built: string, offset: number): BytecodeMismatch {
  const byte = (h: string): number | undefined =>
    offset * 2 + 2 <= h.length ? parseInt(h.substr(offset * 2, 2), 16) : undefined;
  const ins = instructionAt(built, offset);
  return { offset, ...(ins ? { instructionPc: ins.pc } : {}), compiledByte: byte(built), onChainByte: byte(chain) };
}

/**
 * Whether a transaction's init code (creation code, then the constructor's arguments) was built from a compiled
 * contract's creation code (`evm.bytecode.object`): the compiled code is its prefix, with library placeholders and
 * the runtime's metadata tail (at the end of the creation code) masked. Used to place a failed deployment.
 */
export function isCreationOf(initCode: string, compiled: string): boolean {
  const init = initCode.replace(/^0x/i, '').toLowerCase();
  // a library placeholder (`__$<34 hex>$__`, 20 bytes) is masked whole: its middle looks like hex
  const code = compiled
    .replace(/^0x/i, '')
    .toLowerCase()
    .replace(/__\$[0-9a-f]{34}\$__/g, '_'.repeat(40));
  if (!code.length || code.length % 2 || init.length < code.length) return false;
  // metadataTailLength counts hex characters
  const end = code.length - metadataTailLength(code);
  if (end <= 0) return false;
  for (let i = 0; i < end; i += 2) {
    const c = code.slice(i, i + 2);
    if (c.includes('_')) continue; // a library placeholder: the linked address on chain
    if (c !== init.slice(i, i + 2)) return false;
  }
  return true;
}
