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

/** The punctuation `tokens` returns when asked: what delimits bodies, parameter lists, declarations, initializers. */
const PUNCTUATION = new Set([123, 125, 40, 41, 44, 59, 61]); // { } ( ) , ; = (each `=` of `==`, `=>`, `<=` too)

/**
 * The identifiers of a source, in order, with comments and string literals skipped (numbers are not returned, nor
 * punctuation unless `punctuation`: then `{ } ( ) , ;` too, one character each).
 */
function* tokens(src: string, max: number, punctuation = false, from = 0): Generator<Token> {
  const n = Math.min(src.length, max);
  let i = from;
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
    if (punctuation && PUNCTUATION.has(c)) yield { text: src[i], offset: i };
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
  for (const t of tokens(src, max)) {
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

/** What a function's header says of how it may be called. */
export type Mutability = 'pure' | 'view' | 'payable' | 'nonpayable';

/**
 * A function of a contract's own body that can be called from outside (`public` or `external`), or the getter of a
 * `public` state variable (`getter`: its inputs, a mapping's keys or an array's index, are not counted).
 */
export interface SolidityFunction {
  name: string;
  /** How many parameters it takes (overloads share a name); undefined for a getter. */
  inputs?: number;
  getter?: true;
  mutability: Mutability;
  /** Where its `function` keyword is. */
  offset: number;
  line: number;
  character: number;
}

/**
 * The `public` and `external` functions declared in the body of `declaration` (a result of `findDeclarations` on
 * the same source), in source order: not those it inherits, nor constructors, `fallback`, `receive` or modifiers.
 * A function without a visibility (Solidity before 0.5) is public. The same light tokenizer: a body is read by its
 * braces, a parameter list by its parentheses, with comments and strings skipped; a body that does not close ends
 * the scan with what was found.
 */
export function findFunctions(src: string, declaration: SolidityDeclaration, max = MAX_SCAN_CHARS): SolidityFunction[] {
  const found: Array<Omit<SolidityFunction, 'line' | 'character'>> = [];
  // from the declaration's name (outside any comment or string): each declaration's scan reads only its own text
  const it = tokens(src, max, true, declaration.nameOffset);
  let depth = 0;
  let inBody = false;
  let statement: Token[] = [];
  for (let next = it.next(); !next.done; next = it.next()) {
    const t = next.value;
    if (t.text === '{') {
      depth++;
      inBody = true;
      statement = [];
      continue;
    }
    if (t.text === '}') {
      depth--;
      statement = [];
      if (inBody && depth <= 0) break;
      continue;
    }
    if (!inBody || depth !== 1) continue;
    if (t.text !== 'function') {
      // a state variable, an event, a using…: its tokens up to its `;` (a body in braces starts another statement)
      if (t.text === ';') {
        const getter = publicGetter(statement);
        if (getter) found.push(getter);
        statement = [];
      } else statement.push(t);
      continue;
    }
    statement = [];
    const header = readHeader(it);
    if (!header) break;
    if (header.name && header.visible)
      found.push({ name: header.name, inputs: header.inputs, mutability: header.mutability, offset: t.offset });
    // its body (or `;`) read: the depth is that of the contract's body again
    if (header.end === 'body-unclosed') break;
  }
  const places = linesOf(
    src,
    found.map((f) => f.offset),
  );
  return found.map((f, i) => ({ ...f, ...places[i] }));
}

/** Words that start a statement of a contract's body other than a state variable's declaration. */
const NOT_A_VARIABLE = new Set([
  'event',
  'error',
  'using',
  'struct',
  'enum',
  'modifier',
  'constructor',
  'fallback',
  'receive',
  'type',
]);

/**
 * The getter of a state variable declared `public` (its type, `public`, maybe `constant` or `immutable`, its name,
 * maybe `= …`): its name is the last word before the initializer, outside the type's parentheses.
 */
function publicGetter(statement: Token[]): Omit<SolidityFunction, 'line' | 'character'> | undefined {
  if (!statement.length || NOT_A_VARIABLE.has(statement[0].text)) return undefined;
  let paren = 0;
  let isPublic = false;
  let name: string | undefined;
  for (const x of statement) {
    if (x.text === '(') paren++;
    else if (x.text === ')') paren--;
    else if (paren > 0) continue;
    else if (x.text === '=') break;
    else if (x.text === 'public') isPublic = true;
    else if (x.text !== ',' && x.text !== 'constant' && x.text !== 'immutable' && x.text !== 'override') name = x.text;
  }
  if (!isPublic || !name || paren !== 0) return undefined;
  return { name, mutability: 'view', getter: true, offset: statement[0].offset };
}

/**
 * The rest of a function's declaration after `function`, its body included: its name (none for an old fallback),
 * its parameters' count, whether it is public or external, its mutability. Undefined when the source ends first.
 */
function readHeader(
  it: Generator<Token>,
):
  | { name?: string; inputs: number; visible: boolean; mutability: Mutability; end: 'body' | ';' | 'body-unclosed' }
  | undefined {
  let name: string | undefined;
  let paren = 0;
  let params: 'before' | 'in' | 'after' = 'before';
  let inputs = 0;
  let empty = true;
  let visibility: string | undefined;
  let mutability: Mutability = 'nonpayable';
  for (let next = it.next(); !next.done; next = it.next()) {
    const x = next.value.text;
    if (params === 'before') {
      if (x === '(') {
        params = 'in';
        paren = 1;
      } else if (name === undefined && x !== ')' && x !== '{' && x !== '}' && x !== ';' && x !== ',') name = x;
      else return undefined;
      continue;
    }
    if (params === 'in') {
      if (x === '(') paren++;
      else if (x === ')') {
        paren--;
        if (paren === 0) {
          params = 'after';
          if (!empty) inputs++;
        }
      } else if (x === ',' && paren === 1) inputs++;
      else if (x === '{' || x === '}' || x === ';') return undefined;
      else empty = false;
      continue;
    }
    // after the parameters: visibility, mutability, modifiers, returns (…), then a body or `;`
    if (x === '(') paren++;
    else if (x === ')') paren--;
    else if (paren === 0) {
      if (x === ';') return { name, inputs, visible: visible(visibility), mutability, end: ';' };
      if (x === '}') return undefined;
      if (x === '{') {
        let depth = 1;
        for (let b = it.next(); !b.done; b = it.next()) {
          if (b.value.text === '{') depth++;
          else if (b.value.text === '}' && --depth === 0)
            return { name, inputs, visible: visible(visibility), mutability, end: 'body' };
        }
        return { name, inputs, visible: visible(visibility), mutability, end: 'body-unclosed' };
      }
      if (x === 'public' || x === 'external' || x === 'internal' || x === 'private') visibility = x;
      else if (x === 'view' || x === 'pure' || x === 'payable') mutability = x;
      else if (x === 'constant') mutability = 'view'; // Solidity before 0.5
    }
  }
  return undefined;
}

const visible = (visibility: string | undefined): boolean => visibility !== 'internal' && visibility !== 'private';
