/**
 * The deployable declarations of a Solidity source: `contract X` and `library X` (libraries with external
 * functions are deployed too), not `interface X` nor `abstract contract X`. A light tokenizer, not a parser: it
 * skips comments (`//`, `///`, `/* *\/`, `/** *\/`) and string literals (`"…"`, `'…'`, `unicode"…"`, `hex"…"`, with
 * escapes), reads identifiers whole (`mycontract`, `contract_`, `$contract` are not the keyword), and takes the first
 * identifier after the keyword as the name, wherever it is (`contract\n  Vault\n  is A, B {`). Unterminated comments
 * and strings end the scan quietly. Positions are UTF-16 offsets (what VS Code's `positionAt` takes) with their
 * line and character (lines end at \n, \r\n or \r). Plain TypeScript, no vscode.
 */

export type DeclarationKind = 'contract' | 'library';

export interface SolidityDeclaration {
  kind: DeclarationKind;
  name: string;
  /** Where the declaration starts: its keyword (`contract`, `library`). */
  offset: number;
  line: number;
  character: number;
  /** Where its name starts. */
  nameOffset: number;
}

/** Past this many characters a source is not scanned further (a generated file, not a contract someone reads). */
export const MAX_SCAN_CHARS = 4_000_000;

const isIdStart = (c: number): boolean => (c >= 97 && c <= 122) || (c >= 65 && c <= 90) || c === 95 || c === 36; // a-z A-Z _ $
const isIdPart = (c: number): boolean => isIdStart(c) || (c >= 48 && c <= 57);

interface Token {
  text: string;
  offset: number;
}

/**
 * The identifiers of a source, in order, with comments and string literals skipped (numbers and punctuation are
 * not returned: only keywords and names matter here).
 */
function* identifiers(src: string, max: number): Generator<Token> {
  const n = Math.min(src.length, max);
  let i = 0;
  while (i < n) {
    const c = src.charCodeAt(i);
    if (c === 47 /* / */ && i + 1 < n) {
      const d = src.charCodeAt(i + 1);
      if (d === 47) {
        // line comment: to the end of the line
        i += 2;
        while (i < n && src.charCodeAt(i) !== 10 && src.charCodeAt(i) !== 13) i++;
        continue;
      }
      if (d === 42) {
        // block comment
        const end = src.indexOf('*/', i + 2);
        if (end < 0 || end >= n) return;
        i = end + 2;
        continue;
      }
      i++;
      continue;
    }
    if (c === 34 || c === 39) {
      // "…" or '…' (also after unicode / hex, read as identifiers before it)
      i++;
      while (i < n) {
        const d = src.charCodeAt(i);
        if (d === 92) {
          i += 2;
          continue;
        } // backslash escape
        if (d === c) break;
        if (d === 10 || d === 13) break; // a string literal does not span lines: resync at the line end
        i++;
      }
      if (i >= n) return;
      i++;
      continue;
    }
    if (isIdStart(c)) {
      const start = i;
      i++;
      while (i < n && isIdPart(src.charCodeAt(i))) i++;
      yield { text: src.slice(start, i), offset: start };
      continue;
    }
    if (c >= 48 && c <= 57) {
      // a number (0x1f, 1e18, 1_000): its letters are not identifiers
      i++;
      while (i < n && (isIdPart(src.charCodeAt(i)) || src.charCodeAt(i) === 46)) i++;
      continue;
    }
    i++;
  }
}

/** Line and character of every offset in `offsets` (ascending), in one pass. */
function linesOf(src: string, offsets: number[]): Array<{ line: number; character: number }> {
  const out: Array<{ line: number; character: number }> = [];
  let line = 0;
  let lineStart = 0;
  let i = 0;
  for (const target of offsets) {
    for (; i < target; i++) {
      const c = src.charCodeAt(i);
      if (c === 10 || (c === 13 && src.charCodeAt(i + 1) !== 10)) {
        line++;
        lineStart = i + 1;
      }
    }
    out.push({ line, character: target - lineStart });
  }
  return out;
}

/** The `contract` and `library` declarations of a Solidity source, in source order. */
export function findDeclarations(src: string, max = MAX_SCAN_CHARS): Array<SolidityDeclaration> {
  const found: Array<Omit<SolidityDeclaration, 'line' | 'character'>> = [];
  let previous: Token | undefined;
  let pending: { kind: DeclarationKind; offset: number } | undefined;
  for (const t of identifiers(src, max)) {
    if (pending) {
      // the name follows the keyword; a keyword where a name should be means there was none (broken source)
      if (t.text !== 'contract' && t.text !== 'library' && t.text !== 'interface' && t.text !== 'abstract') {
        found.push({ kind: pending.kind, name: t.text, offset: pending.offset, nameOffset: t.offset });
        pending = undefined;
        previous = t;
        continue;
      }
      pending = undefined;
    }
    if ((t.text === 'contract' && previous?.text !== 'abstract') || t.text === 'library') {
      pending = { kind: t.text, offset: t.offset };
    }
    previous = t;
  }
  const places = linesOf(
    src,
    found.map((d) => d.offset),
  );
  return found.map((d, i) => ({ ...d, ...places[i] }));
}
