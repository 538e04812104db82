/**
 * Whether a place the source map gives is confirmed: "exact" means checked, never assumed.
 *
 * The source map names a range for every instruction, but with the optimizer and viaIR the range at a failing
 * program counter can be the whole contract, a function, a literal on the line above, the `if` around a `revert`, or
 * another function's statement whose revert tail the optimizer shared. A place is confirmed only when the range is
 * exactly one node of the build's AST (through the source index of the build, not the generated Yul) that can fail
 * the way the frame failed, inside a function the frame could have been running:
 *
 * - a revert with a custom error: a `revert E(…)` / `require(c, E(…))` whose error selector is the data's;
 * - `Error(string)`: a `require(c, "…")` / `revert("…")` whose message is the one reverted with (a message that is
 *   not a literal or a constant cannot be compared and is accepted);
 * - no data: `require(c)` / `revert()`;
 * - `Panic(code)`: the operation of that code (0x01 `assert`, 0x11 checked `+ - * ** ++ --` on integers, 0x12 `/ %`,
 *   0x21 a conversion to an enum, 0x31 `.pop()`, 0x32 indexing, 0x41 `new T[](n)`, 0x51 a call through a function
 *   variable);
 * - inline assembly's `revert(…)` for any data, `invalid()` for INVALID;
 * - out of gas or another halt: any statement or expression (not a contract, a function, a block or a literal);
 * - a call site: an external call, a library call, a low-level call, a `new`, or assembly's `call`/`delegatecall`/
 *   `staticcall`/`callcode`/`create`/`create2`.
 *
 * "Inside a function the frame could have been running": the function of the frame's selector (receive or fallback
 * without one), its modifiers, and every function or modifier reachable from them by internal and library calls (an
 * override of a function of the same name and arity counts), all in the contract's linearized bases and libraries.
 *
 * Anything else is not confirmed, with the reason, and the caller says "likely". Plain TypeScript, no `vscode`.
 */
import { decodeRevert } from '../revert';
import type { FrameKind } from './callStack';
import type { SourceLocation } from './locate';
import { type SolcBuildLike, contractOf, splitIdentifier } from './sourceMap';

type Node = Record<string, unknown> & { nodeType?: string; id?: number; src?: string };

export type Confirmation = { confirmed: true; what: string } | { confirmed: false; why: string };

/** Every AST node of a build (Yul ones included) by its range, with parents; cached per build. */
class PositionIndex {
  /** `file:start:length` → the nodes with exactly that `src`. */
  readonly byRange = new Map<string, Node[]>();
  readonly byId = new Map<number, Node>();
  readonly parent = new WeakMap<Node, Node>();
  readonly contracts = new Map<string, Node>();
  private static cache = new WeakMap<SolcBuildLike, PositionIndex>();

  private constructor(build: SolcBuildLike) {
    for (const [path, s] of Object.entries(build.output?.sources ?? {})) {
      const ast = s?.ast as Node | undefined;
      if (!ast || typeof ast !== 'object') continue;
      const stack: Array<[Node, Node | undefined]> = [[ast, undefined]];
      while (stack.length) {
        const [node, parent] = stack.pop() as [Node, Node | undefined];
        if (parent) this.parent.set(node, parent);
        if (typeof node.src === 'string') {
          const list = this.byRange.get(node.src);
          if (list) list.push(node);
          else this.byRange.set(node.src, [node]);
        }
        if (typeof node.id === 'number') this.byId.set(node.id, node);
        if (node.nodeType === 'ContractDefinition' && typeof node.name === 'string')
          this.contracts.set(`${path}:${node.name}`, node);
        for (const v of Object.values(node)) {
          if (Array.isArray(v)) {
            for (const x of v)
              if (x && typeof x === 'object' && typeof (x as Node).nodeType === 'string') stack.push([x as Node, node]);
          } else if (v && typeof v === 'object' && typeof (v as Node).nodeType === 'string')
            stack.push([v as Node, node]);
        }
      }
    }
  }

  static of(build: SolcBuildLike): PositionIndex {
    let i = PositionIndex.cache.get(build);
    if (!i) PositionIndex.cache.set(build, (i = new PositionIndex(build)));
    return i;
  }

  /** The function, modifier or state variable declaration that holds a node. */
  holder(n: Node): Node | undefined {
    for (let p = this.parent.get(n), k = 0; p && k < 10_000; p = this.parent.get(p), k++) {
      if (p.nodeType === 'FunctionDefinition' || p.nodeType === 'ModifierDefinition') return p;
      if (p.nodeType === 'VariableDeclaration' && p.stateVariable === true) return p;
      if (p.nodeType === 'ContractDefinition' || p.nodeType === 'SourceUnit') return undefined;
    }
    return undefined;
  }

  contractOf(n: Node): Node | undefined {
    for (let p = this.parent.get(n), k = 0; p && k < 10_000; p = this.parent.get(p), k++)
      if (p.nodeType === 'ContractDefinition') return p;
    return undefined;
  }
}

const typeString = (n: Node | undefined): string => String((n?.typeDescriptions as Node | undefined)?.typeString ?? '');
const isBuiltin = (n: Node | undefined): boolean =>
  typeof n?.referencedDeclaration === 'number' &&
  (n.referencedDeclaration < 0 || n.referencedDeclaration >= 4294967000);
const INT = /^u?int\d*$/;
const ARITH = new Set(['+', '-', '*', '**', '+=', '-=', '*=', '++', '--']);
const DIV = new Set(['/', '%', '/=', '%=']);
const NOT_A_PLACE = new Set([
  'SourceUnit',
  'ContractDefinition',
  'FunctionDefinition',
  'ModifierDefinition',
  'Block',
  'UncheckedBlock',
  'ParameterList',
  'Literal',
  'PragmaDirective',
  'ImportDirective',
  'EventDefinition',
  'ErrorDefinition',
  'StructDefinition',
  'EnumDefinition',
  'UsingForDirective',
  'InheritanceSpecifier',
  'ElementaryTypeName',
  'UserDefinedTypeName',
  'IdentifierPath',
  'StructuredDocumentation',
  'OverrideSpecifier',
  'InlineAssembly',
  'YulBlock',
]);
const CALL_MEMBERS = new Set(['call', 'delegatecall', 'staticcall', 'send', 'transfer']);
const YUL_CALLS = new Set(['call', 'delegatecall', 'staticcall', 'callcode', 'create', 'create2']);
const PRECOMPILE_BUILTINS = new Set(['ecrecover', 'sha256', 'ripemd160']);

/** A call's callee expression without `{value: …}` options. */
function callee(call: Node): Node | undefined {
  let e = call.expression as Node | undefined;
  while (e?.nodeType === 'FunctionCallOptions') e = e.expression as Node | undefined;
  return e;
}

const yulName = (n: Node): string | undefined =>
  n.nodeType === 'YulFunctionCall' ? String((n.functionName as Node | undefined)?.name ?? '') : undefined;

/** A string literal's value, or a constant's that is one; null when it is neither. */
function stringOf(idx: PositionIndex, n: Node | undefined): string | null {
  if (!n) return null;
  if (n.nodeType === 'Literal' && (n.kind === 'string' || n.kind === 'unicodeString'))
    return typeof n.value === 'string' ? n.value : null;
  if (n.nodeType === 'Identifier' && typeof n.referencedDeclaration === 'number') {
    const d = idx.byId.get(n.referencedDeclaration);
    if (d?.nodeType === 'VariableDeclaration' && d.constant === true) return stringOf(idx, d.value as Node | undefined);
  }
  return null;
}

/** The error selector of an error call (`E(…)`), lower-case hex without 0x. */
function errorSelectorOf(idx: PositionIndex, call: Node | undefined): string | undefined {
  if (!call || call.nodeType !== 'FunctionCall') return undefined;
  const ref = callee(call)?.referencedDeclaration;
  const def = typeof ref === 'number' ? idx.byId.get(ref) : undefined;
  return def?.nodeType === 'ErrorDefinition' && typeof def.errorSelector === 'string'
    ? def.errorSelector.toLowerCase()
    : undefined;
}

/** `E(…)` of `revert E(…)` or `require(c, E(…))` stands for that statement; any other node for itself. */
function statementOfErrorCall(idx: PositionIndex, n: Node): Node {
  if (n.nodeType !== 'FunctionCall' || errorSelectorOf(idx, n) === undefined) return n;
  const p = idx.parent.get(n);
  if (p?.nodeType === 'RevertStatement' && p.errorCall === n) return p;
  if (
    p?.nodeType === 'FunctionCall' &&
    callee(p)?.nodeType === 'Identifier' &&
    callee(p)?.name === 'require' &&
    ((p.arguments as Node[] | undefined) ?? [])[1] === n
  )
    return p;
  return n;
}

/** Whether a FunctionCall leaves the frame (external, library, low-level call, `new`, a precompile). */
function isExternalCall(idx: PositionIndex, n: Node): boolean {
  if (n.nodeType !== 'FunctionCall' || n.kind !== 'functionCall') return false;
  const e = callee(n);
  if (!e) return false;
  if (e.nodeType === 'NewExpression') return !/\[\]/.test(typeString(e)) && !/^(bytes|string)\b/.test(typeString(e));
  if (e.nodeType === 'Identifier' && isBuiltin(e)) return PRECOMPILE_BUILTINS.has(String(e.name));
  // `a.call(…)`, `a.delegatecall(…)`, `a.transfer(…)`: address members, which name no declaration
  if (
    e.nodeType === 'MemberAccess' &&
    CALL_MEMBERS.has(String(e.memberName)) &&
    typeof e.referencedDeclaration !== 'number'
  )
    return true;
  if (/\bexternal\b/.test(typeString(e))) return true;
  const ref = e.referencedDeclaration;
  const def = typeof ref === 'number' ? idx.byId.get(ref) : undefined;
  if (def?.nodeType === 'FunctionDefinition' && (def.visibility === 'public' || def.visibility === 'external')) {
    const owner = idx.contractOf(def);
    // a library's public function called as `L.f(…)` is a DELEGATECALL
    if (owner?.contractKind === 'library' && e.nodeType === 'MemberAccess') return true;
  }
  return false;
}

/** Whether a FunctionCall calls a function of the same frame (an internal, private or library-internal one). */
function isInternalCall(idx: PositionIndex, n: Node): boolean {
  if (n.nodeType === 'ModifierInvocation') return true;
  if (n.nodeType !== 'FunctionCall' || n.kind !== 'functionCall' || isExternalCall(idx, n)) return false;
  const ref = callee(n)?.referencedDeclaration;
  const def = typeof ref === 'number' ? idx.byId.get(ref) : undefined;
  return (
    def?.nodeType === 'FunctionDefinition' ||
    (def?.nodeType === 'VariableDeclaration' && /^function /.test(typeString(callee(n))))
  );
}

/** What a node can fail with, for a revert with `data` (undefined when it cannot). */
function failsWith(idx: PositionIndex, n: Node, kind: FrameKind, data: string | null | undefined): string | undefined {
  const yul = yulName(n);
  if (kind === 'invalid') {
    if (yul === 'invalid') return 'inline assembly invalid()';
    if (
      n.nodeType === 'FunctionCall' &&
      callee(n)?.nodeType === 'Identifier' &&
      callee(n)?.name === 'assert' &&
      isBuiltin(callee(n))
    )
      return 'assert';
    return undefined;
  }
  if (kind === 'outOfGas' || kind === 'halt')
    return NOT_A_PLACE.has(String(n.nodeType)) ? undefined : String(n.nodeType);
  // a revert
  if (yul === 'revert') return 'inline assembly revert()';
  const d = decodeRevert(data);
  const hex = String(data ?? '')
    .trim()
    .replace(/^0x/i, '')
    .toLowerCase();
  const e = n.nodeType === 'FunctionCall' ? callee(n) : undefined;
  const builtin = e?.nodeType === 'Identifier' && isBuiltin(e) ? String(e.name) : undefined;
  const args = (n.arguments as Node[] | undefined) ?? [];
  if (!d || d.kind === 'custom' || (d.kind !== 'error' && d.kind !== 'panic' && d.kind !== 'empty')) {
    // a custom error (or data no standard form reads): the statement's error selector must be the data's
    if (!/^[0-9a-f]{8}/.test(hex)) return undefined;
    const want = hex.slice(0, 8);
    let sel: string | undefined;
    if (n.nodeType === 'RevertStatement') sel = errorSelectorOf(idx, n.errorCall as Node | undefined);
    else if (builtin === 'require') sel = errorSelectorOf(idx, args[1]);
    return sel === want ? 'revert with that custom error' : undefined;
  }
  if (d.kind === 'empty') {
    if ((builtin === 'require' && args.length === 1) || (builtin === 'revert' && args.length === 0))
      return `${builtin} without a reason`;
    return undefined;
  }
  if (d.kind === 'error') {
    const msgArg = builtin === 'require' ? args[1] : builtin === 'revert' ? args[0] : undefined;
    if (!msgArg || typeString(msgArg) === 'error' || /returns \(error\)$/.test(typeString(callee(msgArg))))
      return undefined;
    const lit = stringOf(idx, msgArg);
    if (lit !== null && lit !== d.message) return undefined;
    return `${builtin} with that message`;
  }
  // Panic
  const code = d.code ?? -1n;
  const op = String(n.operator ?? '');
  const intType = INT.test(typeString(n));
  switch (code) {
    case 0x01n:
      return builtin === 'assert' ? 'assert' : undefined;
    case 0x11n:
      return (n.nodeType === 'BinaryOperation' || n.nodeType === 'Assignment' || n.nodeType === 'UnaryOperation') &&
        intType &&
        ARITH.has(op)
        ? `checked ${op}`
        : undefined;
    case 0x12n:
      if ((n.nodeType === 'BinaryOperation' || n.nodeType === 'Assignment') && intType && DIV.has(op))
        return `checked ${op}`;
      return builtin === 'addmod' || builtin === 'mulmod' ? builtin : undefined;
    case 0x21n:
      return n.nodeType === 'FunctionCall' && n.kind === 'typeConversion' && /^enum /.test(typeString(n))
        ? 'conversion to an enum'
        : undefined;
    case 0x31n:
      return e?.nodeType === 'MemberAccess' && e.memberName === 'pop' ? '.pop()' : undefined;
    case 0x32n:
      return n.nodeType === 'IndexAccess' || n.nodeType === 'IndexRangeAccess' ? 'index access' : undefined;
    case 0x41n:
      return e?.nodeType === 'NewExpression' ? 'new' : undefined;
    case 0x51n: {
      const ref = e?.referencedDeclaration;
      const def = typeof ref === 'number' ? idx.byId.get(ref) : undefined;
      return def?.nodeType === 'VariableDeclaration' && /^function /.test(typeString(e))
        ? 'call of a function variable'
        : undefined;
    }
    default:
      return undefined;
  }
}

/** The functions and modifiers a frame can run: see the module comment. Undefined when the entry is not known. */
function reachable(
  idx: PositionIndex,
  build: SolcBuildLike,
  identifier: string,
  selector: string | undefined,
  creation = false,
  from?: Node,
): Set<Node> | undefined {
  const contract = idx.contracts.get(identifier);
  if (!contract) return undefined;
  const bases = (
    (Array.isArray(contract.linearizedBaseContracts) ? contract.linearizedBaseContracts : [contract.id]) as number[]
  )
    .map((id) => idx.byId.get(id))
    .filter((c): c is Node => !!c);
  const defs = bases.flatMap((c) =>
    ((c.nodes as Node[] | undefined) ?? []).filter(
      (n) => n.nodeType === 'FunctionDefinition' || n.nodeType === 'ModifierDefinition',
    ),
  );
  const sel = (selector ?? '').toLowerCase().replace(/^0x/, '').slice(0, 8);
  let entry: Node[];
  if (from) {
    entry = [from];
  } else if (creation) {
    // a deployment runs every constructor of the bases (with their modifiers) and the state variables' initializers
    entry = [
      ...defs.filter((f) => f.kind === 'constructor'),
      ...bases.flatMap((c) =>
        ((c.nodes as Node[] | undefined) ?? []).filter(
          (n) => n.nodeType === 'VariableDeclaration' && n.stateVariable === true,
        ),
      ),
    ];
    if (!entry.length) return new Set();
  } else if (/^[0-9a-f]{8}$/.test(sel)) {
    entry = defs.filter((f) => typeof f.functionSelector === 'string' && f.functionSelector.toLowerCase() === sel);
    if (!entry.length) {
      // the compiler's method identifiers (a library's functions have no functionSelector in the AST)
      const sig = Object.entries(contractOf(build, identifier)?.evm?.methodIdentifiers ?? {}).find(
        ([, s]) => s.toLowerCase() === sel,
      )?.[0];
      const name = sig ? sig.slice(0, sig.indexOf('(')) : undefined;
      entry = name ? defs.filter((f) => f.nodeType === 'FunctionDefinition' && f.name === name) : [];
    }
    // a selector no function has runs the fallback (a proxy's: the implementation's selectors are not its own)
    if (!entry.length) entry = defs.filter((f) => f.kind === 'fallback');
  } else {
    entry = defs.filter((f) => f.kind === 'receive' || f.kind === 'fallback');
  }
  if (!entry.length) return undefined;
  const seen = new Set<Node>();
  const arity = (f: Node): number =>
    (((f.parameters as Node | undefined)?.parameters as Node[] | undefined) ?? []).length;
  const work = [...entry];
  while (work.length) {
    const def = work.pop() as Node;
    if (seen.has(def)) continue;
    seen.add(def);
    // overrides in the contract's bases of the same name and arity (virtual calls, super)
    if (typeof def.name === 'string' && def.name)
      for (const o of defs)
        if (o.name === def.name && o.nodeType === def.nodeType && arity(o) === arity(def)) work.push(o);
    const stack: Node[] = [def];
    while (stack.length) {
      const n = stack.pop() as Node;
      const ref =
        n.nodeType === 'ModifierInvocation'
          ? (n.modifierName as Node | undefined)?.referencedDeclaration
          : n.nodeType === 'Identifier' || n.nodeType === 'MemberAccess' || n.nodeType === 'IdentifierPath'
            ? n.referencedDeclaration
            : undefined;
      if (typeof ref === 'number') {
        const t = idx.byId.get(ref);
        if (t && (t.nodeType === 'FunctionDefinition' || t.nodeType === 'ModifierDefinition') && !seen.has(t)) {
          const owner = idx.contractOf(t);
          // internal calls (the contract's bases, libraries' internal functions, free functions); not an external
          // call to another contract, which runs in a frame of its own
          const external = n.nodeType === 'MemberAccess' && /\bexternal\b/.test(typeString(n));
          if (!external && (!owner || bases.includes(owner) || owner.contractKind === 'library')) work.push(t);
        }
      }
      for (const v of Object.values(n)) {
        if (Array.isArray(v)) {
          for (const x of v)
            if (x && typeof x === 'object' && typeof (x as Node).nodeType === 'string') stack.push(x as Node);
        } else if (v && typeof v === 'object' && typeof (v as Node).nodeType === 'string') stack.push(v as Node);
      }
    }
  }
  return seen;
}

export interface ConfirmInput {
  build: SolcBuildLike;
  /** `path:Name` of the frame's contract in the build. */
  contract: string;
  location: SourceLocation;
  /** How the frame failed, `callSite` for a frame above the failing one, `internal` for an internal call site. */
  kind: FrameKind | 'internal';
  /** The frame's revert data (hex), for the failing frame. */
  revertData?: string | null;
  /** The frame's function selector (0x + 8 hex); none for receive / fallback. */
  selector?: string;
  /** The frame ran the creation code (a failed deployment): its constructors are what ran. */
  creation?: boolean;
}

/** Whether the place is confirmed (see the module comment), and why not. Never throws. */
export function confirmLocation(input: ConfirmInput): Confirmation {
  try {
    return confirm(input);
  } catch (e) {
    return { confirmed: false, why: `the place could not be checked (${e instanceof Error ? e.message : String(e)})` };
  }
}

function confirm({ build, contract, location, kind, revertData, selector, creation }: ConfirmInput): Confirmation {
  if (location.generated) return { confirmed: false, why: 'the source map points into code the compiler generated' };
  const idx = PositionIndex.of(build);
  if (!idx.contracts.size) return { confirmed: false, why: 'the build has no AST to check the source map against' };
  const nodes = idx.byRange.get(`${location.start}:${location.length}:${location.fileIndex}`) ?? [];
  if (!nodes.length)
    return { confirmed: false, why: 'the source map range is not one statement or expression of the source' };
  const [, name] = splitIdentifier(contract);
  const fns = reachable(idx, build, contract, selector, creation);
  let what: string | undefined;
  let outside = false;
  for (const n of nodes.map((x) => statementOfErrorCall(idx, x))) {
    const w =
      kind === 'callSite'
        ? isExternalCall(idx, n)
          ? 'the call'
          : YUL_CALLS.has(yulName(n) ?? '')
            ? `inline assembly ${yulName(n)}()`
            : undefined
        : kind === 'internal'
          ? isInternalCall(idx, n)
            ? 'the internal call'
            : undefined
          : failsWith(idx, n, kind, revertData);
    if (!w) continue;
    const holder = idx.holder(n);
    if (!fns || !holder || !fns.has(holder)) {
      outside = true;
      continue;
    }
    what = w;
    break;
  }
  if (what) return { confirmed: true, what };
  if (outside)
    return {
      confirmed: false,
      why: fns
        ? `the statement there is not in a function ${name} runs for this call`
        : `the function ${name} ran for this call is not in the build's AST`,
    };
  const types = [...new Set(nodes.map((n) => n.nodeType))].join(', ');
  if (kind === 'callSite' || kind === 'internal')
    return { confirmed: false, why: `the source map names a ${types}, not a call` };
  return { confirmed: false, why: `the source map names a ${types}, which cannot fail this way` };
}

/** Nodes that name no place of their own: a whole source unit, contract, function or modifier, a block. */
const WRAPPERS = new Set([
  'SourceUnit',
  'ContractDefinition',
  'FunctionDefinition',
  'ModifierDefinition',
  'Block',
  'UncheckedBlock',
]);
const JUMPDEST = 0x5b;
const TERMINATORS = new Set([0x00, 0x56, 0xf3, 0xfd, 0xfe, 0xff]);

/** pc of a JUMPDEST → how many PUSHes in the code name it (its static jump sources); cached per code. */
const pushedTargets = new WeakMap<Uint8Array, Map<number, number>>();
function targetsOf(code: Uint8Array): Map<number, number> {
  let m = pushedTargets.get(code);
  if (m) return m;
  m = new Map();
  for (let pc = 0; pc < code.length;) {
    const op = code[pc];
    if (op >= 0x60 && op <= 0x7f) {
      const n = op - 0x5f;
      if (n <= 4) {
        let v = 0;
        for (let k = 1; k <= n && pc + k < code.length; k++) v = v * 256 + code[pc + k];
        if (v < code.length && code[v] === JUMPDEST) m.set(v, (m.get(v) ?? 0) + 1);
      }
      pc += n + 1;
    } else pc++;
  }
  pushedTargets.set(code, m);
  return m;
}

/** What `confirmFailing` needs of a contract's code and source map (ContractLocator has it). */
export interface CodeMap {
  code: Uint8Array;
  rangeAt(pc: number): { start: number; length: number; file: number; jump: 'i' | 'o' | '-' } | undefined;
  units: Map<number, { generated: boolean }>;
  instructionIndex(pc: number): number;
}

/** The nodes of a source map range that name a place (not a wrapper), or none. */
function placeNodes(idx: PositionIndex, map: CodeMap, pc: number): Node[] {
  const r = map.rangeAt(pc);
  if (!r || r.file < 0 || r.start < 0) return [];
  const unit = map.units.get(r.file);
  if (!unit || unit.generated) return [];
  return (idx.byRange.get(`${r.start}:${r.length}:${r.file}`) ?? [])
    .filter((n) => !WRAPPERS.has(String(n.nodeType)))
    .map((n) => statementOfErrorCall(idx, n));
}

const rangeOf = (n: Node): [number, number, number] => {
  const [a, b, c] = String(n.src ?? '')
    .split(':')
    .map(Number);
  return [a, b, c];
};
const inside = (a: Node, b: Node): boolean => {
  const [as, al, af] = rangeOf(a);
  const [bs, bl, bf] = rangeOf(b);
  return af === bf && as >= bs && as + al <= bs + bl;
};

/** Whether the path's evidence `e` agrees with `f` being the failing statement (see confirmFailing). */
function agrees(idx: PositionIndex, e: Node, f: Node): boolean {
  if (inside(e, f) || inside(f, e)) return true;
  // the `if` around it: its condition, or the branch that holds it
  for (let p = idx.parent.get(f), k = 0; p && k < 64; p = idx.parent.get(p), k++) {
    if (p.nodeType === 'IfStatement') {
      const other = inside(f, p.trueBody as Node)
        ? (p.falseBody as Node | undefined)
        : (p.trueBody as Node | undefined);
      return inside(e, p) && !(other && inside(e, other));
    }
    if (WRAPPERS.has(String(p.nodeType)) && p.nodeType !== 'Block' && p.nodeType !== 'UncheckedBlock') return false;
  }
  return false;
}

export interface FailingInput extends Omit<ConfirmInput, 'location'> {
  /** The place the source map gives (locate's location), if any. */
  location?: SourceLocation;
  map: CodeMap;
  /** The program counters executed before the failing operation in its frame (oldest first). */
  path: readonly number[];
  /**
   * The internal calls still open at the failing operation (their call sites, outermost first): the failing statement
   * must be in the function the innermost call of a Solidity function entered (or what that one calls), not in an
   * identical function the optimizer merged with it. Jumps into code the compiler generated (an ABI encoder) are
   * not calls of a Solidity function and are passed over.
   */
  callSites?: readonly SourceLocation[];
}

/** The function or modifier an internal call site enters (the call expression, or a node inside it), if known. */
function calleeOf(idx: PositionIndex, site: SourceLocation): Node | undefined {
  for (const n of idx.byRange.get(`${site.start}:${site.length}:${site.fileIndex}`) ?? []) {
    for (let p: Node | undefined = n, k = 0; p && k < 64; p = idx.parent.get(p), k++) {
      if (p.nodeType === 'ModifierInvocation') {
        const ref = (p.modifierName as Node | undefined)?.referencedDeclaration;
        const def = typeof ref === 'number' ? idx.byId.get(ref) : undefined;
        if (def) return def;
      }
      if (p.nodeType === 'FunctionCall' && isInternalCall(idx, p)) {
        const ref = callee(p)?.referencedDeclaration;
        const def = typeof ref === 'number' ? idx.byId.get(ref) : undefined;
        if (def?.nodeType === 'FunctionDefinition') return def;
      }
      if (
        p.nodeType === 'FunctionDefinition' ||
        p.nodeType === 'ModifierDefinition' ||
        p.nodeType === 'ContractDefinition'
      )
        break;
    }
  }
  return undefined;
}

export interface FailingConfirmation {
  confirmed: boolean;
  /** The confirmed statement's range (`start:length:file`), when it is not the location given. */
  src?: string;
  what?: string;
  why?: string;
  /** The statement the path shows the failure came through, when it is not the failing one (for the likely list). */
  evidence?: string;
}

/**
 * The failing frame, checked against the path that led to it. The optimizer merges identical code (the revert tails
 * of several statements), and the source map then names one of them for all; viaIR names the whole contract for its
 * revert helpers. So the statement the source map names counts only when the path agrees: walking back from the
 * failing operation, past a shared block (a JUMPDEST that two or more jumps name, entered by a plain jump: merged
 * code) and past places that name nothing (the contract, a function, generated code), the first place met must be
 * the statement, inside it, around it, or the condition of the `if` that holds it. When the source map names no
 * statement that can fail this way, that first place is taken if it is one (viaIR's `require(…)` before its revert
 * helper). Anything else is not confirmed.
 */
export function confirmFailing(input: FailingInput): FailingConfirmation {
  try {
    return checkFailing(input);
  } catch (e) {
    return { confirmed: false, why: `the place could not be checked (${e instanceof Error ? e.message : String(e)})` };
  }
}

function checkFailing(input: FailingInput): FailingConfirmation {
  const { build, contract, map, path, kind, revertData, selector, creation } = input;
  const idx = PositionIndex.of(build);
  if (!idx.contracts.size) return { confirmed: false, why: 'the build has no AST to check the source map against' };
  const direct = input.location
    ? confirmLocation({ build, contract, location: input.location, kind, revertData, selector, creation })
    : undefined;
  // the latest entry into merged code: a JUMPDEST named by two or more jumps (or one, and reached by falling
  // through as well), entered by a plain jump (not a call into or a return from a function)
  const targets = targetsOf(map.code);
  let from = path.length - 1;
  for (let k = path.length - 1; k >= 1; k--) {
    const pc = path[k];
    if (map.code[pc] !== JUMPDEST) continue;
    const prev = path[k - 1];
    const jumped = (map.code[prev] === 0x56 || map.code[prev] === 0x57) && pc !== prev + 1;
    if (!jumped || map.rangeAt(prev)?.jump !== '-') continue;
    // merged statements carry a source's range; a loop or branch inside code the compiler generated does not
    const here = map.rangeAt(pc);
    const unit = here && here.file >= 0 ? map.units.get(here.file) : undefined;
    if (!unit || unit.generated) continue;
    let before = -1;
    for (let q = pc - 1; q >= Math.max(0, pc - 33); q--)
      if (map.instructionIndex(q) >= 0) {
        before = q;
        break;
      }
    const fallsInto = before >= 0 && !TERMINATORS.has(map.code[before]);
    if ((targets.get(pc) ?? 0) + (fallsInto ? 1 : 0) >= 2) {
      from = k - 1;
      break;
    }
  }
  // the first place on the path (before the merged code, when there is some)
  let evidence: Node[] = [];
  for (let k = from; k >= 0 && !evidence.length; k--) evidence = placeNodes(idx, map, path[k]);
  const fail = (why: string): FailingConfirmation => ({
    confirmed: false,
    why,
    ...(evidence[0]?.src ? { evidence: evidence[0].src } : {}),
  });
  // inside an internal call, the failing statement must be in the function that call entered (or what it calls)
  let scope: Set<Node> | undefined;
  for (let k = (input.callSites?.length ?? 0) - 1; k >= 0 && !scope; k--) {
    const def = calleeOf(idx, (input.callSites as readonly SourceLocation[])[k]);
    if (def) scope = reachable(idx, build, contract, undefined, false, def);
  }
  const inScope = (nodes: Node[]): boolean =>
    !scope ||
    nodes.some((n) => {
      const h = idx.holder(n);
      return !!h && !!scope?.has(h);
    });
  if (direct?.confirmed) {
    const f = (
      idx.byRange.get(`${input.location?.start}:${input.location?.length}:${input.location?.fileIndex}`) ?? []
    ).map((n) => statementOfErrorCall(idx, n));
    if (!inScope(f))
      return fail(
        'the optimizer merged identical functions: the statement the source map names is in another one than the internal call entered',
      );
    if (!evidence.length)
      return from < path.length - 1
        ? fail('the optimizer shares this code between statements, and the path does not show which one ran')
        : { confirmed: true, what: direct.what };
    if (evidence.some((e) => f.some((x) => agrees(idx, e, x)))) return { confirmed: true, what: direct.what };
    return fail('the optimizer shares this code between statements; the path that led to it went through another one');
  }
  // the source map names no statement that fails this way: the first place on the path, when it is one
  for (const e of evidence) {
    const [start, length, file] = rangeOf(e);
    const c = confirm({
      build,
      contract,
      kind,
      revertData,
      selector,
      creation,
      location: { start, length, fileIndex: file, generated: false } as SourceLocation,
    });
    if (c.confirmed && inScope([e])) return { confirmed: true, src: String(e.src), what: c.what };
  }
  return fail(direct && !direct.confirmed ? direct.why : 'the source map gives no statement for the failing operation');
}
