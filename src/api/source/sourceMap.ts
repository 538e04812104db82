/**
 * The Solidity compiler's source maps, read exactly as solc writes them (docs: "Source Mappings"):
 *
 * - `evm.deployedBytecode.sourceMap` is one entry per INSTRUCTION (not per byte): `s:l:f:j:m` separated by `;`,
 *   where `s` is the byte offset in the source, `l` the length in bytes, `f` the source index, `j` the jump kind
 *   (`i` into a function, `o` out of one, `-` a plain jump) and `m` the modifier depth. An empty field takes the
 *   previous entry's value, and missing trailing fields too. `f` = -1: no source (compiler-internal code).
 * - A program counter is a byte offset in the code; PUSH1..PUSH32 carry 1..32 bytes of data that are not
 *   instructions (PUSH0 carries none), so pc → instruction index skips them.
 * - Source indexes are the build's `output.sources[name].id`, and the contract's own
 *   `evm.deployedBytecode.generatedSources[].id` for the Yul the compiler generated (`#utility.yul`), which carries
 *   its own `contents`.
 * - Offsets and lengths are in BYTES of the UTF-8 source, not in JavaScript string indexes: `SourceText` maps them to
 *   lines and columns (1-based; columns counted in UTF-16 code units, as editors count them).
 *
 * Plain TypeScript, no `vscode`: the extension and the sandbox use the same code.
 */

/** One instruction's place in the source, decoded from `s:l:f:j:m`. */
export interface SourceRange {
  /** Byte offset in the source (UTF-8). */
  start: number;
  /** Length in bytes. */
  length: number;
  /** Source index (`output.sources[name].id` or a generated source's id); -1: no source. */
  file: number;
  /** `i`: a jump into a function, `o`: a return out of one, `-`: any other instruction. */
  jump: 'i' | 'o' | '-';
  modifierDepth: number;
}

/** What the decoders need of a compiler output: the standard JSON output, or a part of it. */
export interface SolcOutputLike {
  sources?: Record<string, { id?: number; ast?: unknown } | undefined>;
  contracts?: Record<string, Record<string, SolcContractLike | undefined> | undefined>;
}

/** A generated source of `evm.deployedBytecode.generatedSources`. */
export interface GeneratedSource {
  id: number;
  name: string;
  contents?: string;
  language?: string;
  ast?: unknown;
}

export interface LinkRef {
  start: number;
  length: number;
}

/** The part of a compiled contract (`output.contracts[path][Name]`) the source tools read. */
export interface SolcContractLike {
  abi?: unknown[];
  evm?: {
    /** The creation code (constructor and the runtime code it returns), when the build has it. */
    bytecode?: {
      object?: string;
      sourceMap?: string;
      generatedSources?: GeneratedSource[];
      linkReferences?: Record<string, Record<string, LinkRef[]>>;
    };
    deployedBytecode?: {
      object?: string;
      sourceMap?: string;
      generatedSources?: GeneratedSource[];
      immutableReferences?: Record<string, LinkRef[]>;
      linkReferences?: Record<string, Record<string, LinkRef[]>>;
    };
    methodIdentifiers?: Record<string, string>;
  };
}

/**
 * A build: the compiler's standard JSON input (for the sources' contents) and output. A Hardhat 2 build info file
 * is one as it is; Hardhat 3 keeps the output in `<id>.output.json` (merge it in); Foundry's build info has both.
 */
export interface SolcBuildLike {
  input?: { sources?: Record<string, { content?: string } | undefined> };
  output: SolcOutputLike;
}

/** `path:Name` → [`path`, `Name`] (the last colon separates them: Windows paths and `project/…` keep theirs). */
export function splitIdentifier(identifier: string): [string, string] {
  const i = identifier.lastIndexOf(':');
  return i < 0 ? ['', identifier] : [identifier.slice(0, i), identifier.slice(i + 1)];
}

/** The compiled contract `path:Name` of a build, or undefined. */
export function contractOf(build: SolcBuildLike, identifier: string): SolcContractLike | undefined {
  const [path, name] = splitIdentifier(identifier);
  return build.output?.contracts?.[path]?.[name];
}

const JUMPS: Record<string, SourceRange['jump']> = { i: 'i', o: 'o', '-': '-' };

/**
 * Decodes a compressed source map into one entry per instruction. Fields left empty (or missing) take the previous
 * entry's value; a malformed number keeps the previous value too (never throws).
 */
export function decodeSourceMap(map: string): SourceRange[] {
  const out: SourceRange[] = [];
  let start = -1;
  let length = -1;
  let file = -1;
  let jump: SourceRange['jump'] = '-';
  let modifierDepth = 0;
  if (!map) return out;
  const num = (s: string | undefined, prev: number): number => {
    if (s === undefined || s === '') return prev;
    const n = Number(s);
    return Number.isInteger(n) ? n : prev;
  };
  for (const entry of map.split(';')) {
    if (entry !== '') {
      const f = entry.split(':');
      start = num(f[0], start);
      length = num(f[1], length);
      file = num(f[2], file);
      if (f[3] !== undefined && f[3] !== '') jump = JUMPS[f[3]] ?? jump;
      modifierDepth = num(f[4], modifierDepth);
    }
    out.push({ start, length, file, jump, modifierDepth });
  }
  return out;
}

/**
 * Bytes of a hex string (with or without 0x). Characters that are not hex (a library link placeholder
 * `__$…$__` in unlinked code) read as zero bytes, so that the code keeps its length and instruction boundaries.
 */
export function codeBytes(hex: string): Uint8Array {
  const h = hex.startsWith('0x') || hex.startsWith('0X') ? hex.slice(2) : hex;
  const out = new Uint8Array(h.length >> 1);
  for (let i = 0; i < out.length; i++) {
    const b = parseInt(h.substr(i * 2, 2), 16);
    out[i] = Number.isNaN(b) ? 0 : b;
  }
  return out;
}

/** The byte size of an instruction: 1, plus 1..32 for PUSH1..PUSH32. */
export const instructionSize = (opcode: number): number => (opcode >= 0x60 && opcode <= 0x7f ? opcode - 0x5e : 1);

/**
 * pc → instruction index for every byte of the code: -1 where the byte is PUSH data (no instruction starts there).
 * The instruction index is what the source map is indexed by.
 */
export function instructionIndexes(code: string | Uint8Array): Int32Array {
  const bytes = typeof code === 'string' ? codeBytes(code) : code;
  const out = new Int32Array(bytes.length).fill(-1);
  let index = 0;
  for (let pc = 0; pc < bytes.length; pc += instructionSize(bytes[pc])) out[pc] = index++;
  return out;
}

/** Which code of a contract: what is deployed (`evm.deployedBytecode`) or what deploys it (`evm.bytecode`). */
export type CodePart = 'runtime' | 'creation';

/** A source of a build, by its index. */
export interface SourceUnit {
  id: number;
  /** The source unit name (`contracts/Vault.sol`), or the generated source's (`#utility.yul`). */
  name: string;
  /** The text, when the build has it (the standard JSON input's `content`; a generated source's `contents`). */
  content?: string;
  /** Yul the compiler generated (not a file of the project). */
  generated: boolean;
}

/**
 * Source index → source unit for a contract's runtime code: the build's sources (`output.sources[name].id`, with
 * their contents from the input) and the contract's generated sources (their own ids and contents).
 */
export function sourceUnits(
  build: SolcBuildLike,
  contract?: SolcContractLike,
  part: CodePart = 'runtime',
): Map<number, SourceUnit> {
  const units = new Map<number, SourceUnit>();
  for (const [name, s] of Object.entries(build.output?.sources ?? {})) {
    if (typeof s?.id !== 'number') continue;
    const content = build.input?.sources?.[name]?.content;
    units.set(s.id, { id: s.id, name, ...(typeof content === 'string' ? { content } : {}), generated: false });
  }
  for (const g of (part === 'creation' ? contract?.evm?.bytecode : contract?.evm?.deployedBytecode)?.generatedSources ??
    []) {
    if (typeof g?.id !== 'number') continue;
    units.set(g.id, {
      id: g.id,
      name: g.name || `#generated-${g.id}`,
      ...(typeof g.contents === 'string' ? { content: g.contents } : {}),
      generated: true,
    });
  }
  return units;
}

const LF = 0x0a;

/**
 * A source's text indexed by UTF-8 byte offset: solc's offsets → 1-based line and column, and the text of a range.
 * Built once per source (one pass over its bytes).
 */
export class SourceText {
  readonly bytes: Uint8Array;
  /** Byte offset where each line starts (line 1 at index 0). */
  private readonly lineStarts: number[];
  private readonly decoder = new TextDecoder('utf-8', { fatal: false });

  constructor(readonly content: string) {
    this.bytes = new TextEncoder().encode(content);
    this.lineStarts = [0];
    for (let i = 0; i < this.bytes.length; i++) if (this.bytes[i] === LF) this.lineStarts.push(i + 1);
  }

  get lineCount(): number {
    return this.lineStarts.length;
  }

  /** The 1-based line holding byte `offset` (clamped to the text). */
  lineOf(offset: number): number {
    const o = Math.max(0, Math.min(offset, this.bytes.length));
    let lo = 0;
    let hi = this.lineStarts.length - 1;
    while (lo < hi) {
      const mid = (lo + hi + 1) >> 1;
      if (this.lineStarts[mid] <= o) lo = mid;
      else hi = mid - 1;
    }
    return lo + 1;
  }

  /**
   * Line and column of byte `offset`, both 1-based; the column counts UTF-16 code units from the line's start (what
   * an editor's position means), so `ü` before it counts 1, not its 2 bytes.
   */
  position(offset: number): { line: number; column: number } {
    const o = Math.max(0, Math.min(offset, this.bytes.length));
    const line = this.lineOf(o);
    const start = this.lineStarts[line - 1];
    return { line, column: this.decoder.decode(this.bytes.subarray(start, o)).length + 1 };
  }

  /** The text of bytes [start, start + length). */
  slice(start: number, length: number): string {
    const s = Math.max(0, Math.min(start, this.bytes.length));
    const e = Math.max(s, Math.min(start + Math.max(length, 0), this.bytes.length));
    return this.decoder.decode(this.bytes.subarray(s, e));
  }

  /** The text of a 1-based line, without its line break. */
  lineText(line: number): string {
    if (line < 1 || line > this.lineStarts.length) return '';
    const s = this.lineStarts[line - 1];
    const e = line < this.lineStarts.length ? this.lineStarts[line] - 1 : this.bytes.length;
    return this.decoder.decode(this.bytes.subarray(s, e)).replace(/\r$/, '');
  }
}
