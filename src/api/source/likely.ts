/**
 * The likely source of a revert when the opcode log is not available (the endpoint is off, refused, rate-limited):
 * from the innermost reverting frame's contract and function selector (its action's input), the FunctionDefinition
 * in the build's AST (`functionSelector`; the compiler's `methodIdentifiers` when the AST has none, e.g. a library
 * function), then the `revert` statements, `revert(...)`, `require(...)` and `assert(...)` calls of that function, of
 * the modifiers it uses, and of the functions it calls in the same contract (its bases included) and in libraries,
 * kept when they fit the decoded reason:
 *
 * - a custom error: the error's selector (`errorSelector`, so its name and parameter types) and data long enough for
 *   its arguments;
 * - `Error(string)`: a string literal (or a constant holding one) equal to the message;
 * - `Panic(uint256)`: 0x01 → `assert`; 0x11 → checked arithmetic (`+ - * **`, `+= -= *=`, `++ --` on integers outside
 *   `unchecked`); 0x12 → `/ %` on integers; 0x31 → `.pop()`; 0x32 → indexing an array or `bytes`. Other panic codes
 *   (enum conversion, storage encoding, memory, internal function variables) come from places the AST does not show
 *   reliably: none is named, and the note says so;
 * - no data: `require` without a message, `revert()`; the note adds the checks the compiler inserts (value sent to a
 *   non-payable function, call data too short) which no statement shows.
 *
 * Every result is flagged `likely`: never an exact location. Plain TypeScript, no `vscode`; the compact JSON AST of
 * solc ≥ 0.4.12 (`nodeType`) is read, the legacy AST is not.
 */
import { decodeRevert } from '../revert';
import type { ActionEntry } from './callStack';
import { BuildSources, type SourceLocation } from './locate';
import { type SolcBuildLike, contractOf, splitIdentifier } from './sourceMap';

export type LikelyReason =
  | { kind: 'error'; message: string }
  | { kind: 'panic'; code: bigint }
  | { kind: 'custom'; selector: string; dataBytes: number }
  | { kind: 'empty' };

export type CandidateKind =
  | 'revert'
  | 'require'
  | 'assert'
  | 'arithmetic'
  | 'division'
  | 'index'
  | 'pop'
  | 'enumConversion'
  | 'allocation'
  | 'functionVariable';

export interface LikelyCandidate {
  kind: CandidateKind;
  location: SourceLocation;
  /** The function or modifier whose body holds it. */
  in: string;
  /** The way there from the called function: its name, then modifiers and functions (`['setFee', 'onlyOwner']`). */
  via: string[];
  /** The custom error's name, for a custom error. */
  error?: string;
}

export interface LikelyResult {
  likely: true;
  /** The called function, when found. */
  function?: { name: string; contract: string; location?: SourceLocation };
  reason?: LikelyReason;
  candidates: LikelyCandidate[];
  /** What could not be told (no such function, nothing fits, a panic code no statement shows). */
  notes: string[];
}

type Node = Record<string, unknown> & { nodeType?: string; id?: number; src?: string };

const BUILTIN = (n: Node): boolean =>
  typeof n.referencedDeclaration === 'number' && (n.referencedDeclaration < 0 || n.referencedDeclaration >= 4294967000);
const INT_TYPE = /^u?int\d*$/;

/** The reason of revert data (hex). */
export function likelyReasonOf(revertData: string | null | undefined): LikelyReason | undefined {
  const d = decodeRevert(revertData);
  if (!d) return undefined;
  if (d.kind === 'empty') return { kind: 'empty' };
  if (d.kind === 'error') return { kind: 'error', message: d.message };
  if (d.kind === 'panic' && d.code !== undefined) return { kind: 'panic', code: d.code };
  const hex = String(revertData).trim().replace(/^0x/i, '').toLowerCase();
  if (/^[0-9a-f]{8}/.test(hex)) return { kind: 'custom', selector: hex.slice(0, 8), dataBytes: hex.length >> 1 };
  return undefined;
}

/** The innermost frame a failure came from, read from the actions alone. */
export interface FailingAction {
  /** The action (as given) and its position in the list. */
  action: ActionEntry;
  position: number;
  /** Its function selector (0x + 8 hex), when its input has one. */
  selector?: string;
  /** Its revert data (REVERT_REASON), or undefined for an ERROR (a halt). */
  revertData?: string;
  /** The EVM address whose code ran there and its entity id. */
  address?: string;
  entity?: string;
}

const FAILED_TYPES = new Set(['REVERT_REASON', 'ERROR']);
const num = (v: unknown): number => (typeof v === 'number' ? v : typeof v === 'bigint' ? Number(v) : Number(v ?? NaN));

/**
 * The innermost failing frame of a failed call, from its actions (`index` order, `call_depth`): from the top-level
 * action down, into the last call each failing frame made while that call failed with the same data (a revert
 * passed on); a frame that failed with data of its own is where the failure is. Undefined when the top-level call did
 * not fail.
 */
export function failingAction(actions: readonly ActionEntry[] | null | undefined): FailingAction | undefined {
  if (!Array.isArray(actions) || !actions.length) return undefined;
  const order = actions.map((_, i) => i).filter((i) => actions[i] && typeof actions[i] === 'object');
  order.sort((x, y) => (num(actions[x].index) || 0) - (num(actions[y].index) || 0) || x - y);
  if (!order.length || !FAILED_TYPES.has(String(actions[order[0]].result_data_type))) return undefined;
  let at = 0;
  for (;;) {
    const a = actions[order[at]];
    const d = num(a.call_depth);
    // the last direct child (before the next action at this depth or above)
    let child = -1;
    for (let k = at + 1; k < order.length && num(actions[order[k]].call_depth) > d; k++)
      if (num(actions[order[k]].call_depth) === d + 1) child = k;
    if (child < 0) break;
    const c = actions[order[child]];
    if (!FAILED_TYPES.has(String(c.result_data_type))) break;
    const same = String(c.result_data ?? '').toLowerCase() === String(a.result_data ?? '').toLowerCase();
    const haltPassedOn = c.result_data_type === 'ERROR' && (a.result_data === '0x' || a.result_data_type === 'ERROR');
    if (!same && !haltPassedOn) break;
    at = child;
  }
  const a = actions[order[at]];
  const input = typeof a.input === 'string' ? a.input.toLowerCase() : '';
  const isCreate = a.call_operation_type === 'CREATE' || a.call_operation_type === 'CREATE2';
  return {
    action: a,
    position: order[at],
    ...(!isCreate && /^0x[0-9a-f]{8}/.test(input) ? { selector: input.slice(0, 10) } : {}),
    ...(a.result_data_type === 'REVERT_REASON' && typeof a.result_data === 'string'
      ? { revertData: a.result_data }
      : {}),
    ...(typeof a.to === 'string' && a.to ? { address: a.to.toLowerCase() } : {}),
    ...(typeof a.recipient === 'string' && a.recipient ? { entity: a.recipient } : {}),
  };
}

/** Every AST node of a build by id, and each source unit's ContractDefinitions; cached per build. */
class AstIndex {
  readonly byId = new Map<number, Node>();
  readonly contracts = new Map<string, Node>();
  private static cache = new WeakMap<SolcBuildLike, AstIndex>();

  private constructor(build: SolcBuildLike) {
    for (const [path, s] of Object.entries(build.output?.sources ?? {})) {
      const ast = s?.ast as Node | undefined;
      if (!ast || typeof ast !== 'object') continue;
      const stack: unknown[] = [ast];
      while (stack.length) {
        const v = stack.pop();
        if (Array.isArray(v)) {
          for (const x of v) if (x && typeof x === 'object') stack.push(x);
          continue;
        }
        const node = v as Node;
        if (typeof node.id === 'number' && typeof node.nodeType === 'string') {
          this.byId.set(node.id, node);
          if (node.nodeType === 'ContractDefinition' && typeof node.name === 'string')
            this.contracts.set(`${path}:${node.name}`, node);
        }
        for (const child of Object.values(node)) if (child && typeof child === 'object') stack.push(child);
      }
    }
  }

  static of(build: SolcBuildLike): AstIndex {
    let i = AstIndex.cache.get(build);
    if (!i) AstIndex.cache.set(build, (i = new AstIndex(build)));
    return i;
  }

  /** The contract node that holds node `id` (by scope), if any. */
  contractOfNode(n: Node): Node | undefined {
    let scope = n.scope;
    for (let k = 0; k < 64 && typeof scope === 'number'; k++) {
      const s = this.byId.get(scope);
      if (!s) return undefined;
      if (s.nodeType === 'ContractDefinition') return s;
      scope = s.scope;
    }
    return undefined;
  }
}

/** Children of a node, in source order. */
function children(n: Node): Node[] {
  const out: Node[] = [];
  for (const v of Object.values(n)) {
    if (Array.isArray(v)) {
      for (const x of v)
        if (x && typeof x === 'object' && typeof (x as Node).nodeType === 'string') out.push(x as Node);
    } else if (v && typeof v === 'object' && typeof (v as Node).nodeType === 'string') out.push(v as Node);
  }
  return out.sort((a, b) => srcStart(a) - srcStart(b));
}
const srcStart = (n: Node): number => Number(String(n.src ?? '').split(':')[0]) || 0;

/** The function a selector names, in a contract and its bases (most derived first). */
function findFunction(
  idx: AstIndex,
  contract: Node,
  selector: string,
  methodIds: Record<string, string> | undefined,
): Node | undefined {
  const bases = (
    Array.isArray(contract.linearizedBaseContracts) ? contract.linearizedBaseContracts : [contract.id]
  ) as number[];
  const fns: Node[] = [];
  for (const id of bases) {
    const c = idx.byId.get(id);
    for (const n of (c?.nodes as Node[] | undefined) ?? []) if (n.nodeType === 'FunctionDefinition') fns.push(n);
  }
  const hit = fns.find((f) => typeof f.functionSelector === 'string' && f.functionSelector.toLowerCase() === selector);
  if (hit) return hit;
  // the compiler's method identifiers: signature → selector; then the function of that name and parameter count
  const sig = Object.entries(methodIds ?? {}).find(([, s]) => s.toLowerCase() === selector)?.[0];
  if (!sig) return undefined;
  const name = sig.slice(0, sig.indexOf('('));
  const params = sig.slice(sig.indexOf('(') + 1, -1);
  const count = params === '' ? 0 : splitParams(params).length;
  return fns.find(
    (f) => f.name === name && ((f.parameters as Node | undefined)?.parameters as Node[] | undefined)?.length === count,
  );
}

/** Top-level parameter types of a signature's list (commas inside tuples and `mapping(… => …)` kept). */
function splitParams(list: string): string[] {
  const out: string[] = [];
  let depth = 0;
  let cur = '';
  for (const ch of list) {
    if (ch === '(') depth++;
    if (ch === ')') depth--;
    if (ch === ',' && depth === 0) {
      out.push(cur);
      cur = '';
    } else cur += ch;
  }
  out.push(cur);
  return out;
}

interface Found {
  kind: CandidateKind;
  node: Node;
  in: string;
  via: string[];
  /** Custom error: its definition. */
  errorDef?: Node;
  /** Error(string): the message, when a literal says it; null for a message that is not a literal. */
  message?: string | null;
  /** No data: require without a message, revert(). */
  empty?: boolean;
}

/** A string literal's value, or a constant's that is one (`require(ok, ERR)`). */
function stringOf(idx: AstIndex, n: Node | undefined): string | null {
  if (!n) return null;
  if (n.nodeType === 'Literal' && n.kind === 'string') return typeof n.value === 'string' ? n.value : null;
  if (n.nodeType === 'Identifier' && typeof n.referencedDeclaration === 'number') {
    const d = idx.byId.get(n.referencedDeclaration);
    if (d?.nodeType === 'VariableDeclaration' && d.constant === true) return stringOf(idx, d.value as Node | undefined);
  }
  return null;
}

/** The statements that can revert in a function, its modifiers and what it calls (see the module comment). */
function collect(idx: AstIndex, fn: Node, homeBases: Set<number>): Found[] {
  const found: Found[] = [];
  const visited = new Set<number>();
  const visit = (def: Node, via: string[]): void => {
    if (typeof def.id === 'number') {
      if (visited.has(def.id)) return;
      visited.add(def.id);
    }
    const name = typeof def.name === 'string' && def.name ? def.name : String(def.kind ?? 'function');
    const path = [...via, name];
    for (const m of (def.modifiers as Node[] | undefined) ?? []) {
      const ref = (m.modifierName as Node | undefined)?.referencedDeclaration;
      const md = typeof ref === 'number' ? idx.byId.get(ref) : undefined;
      if (md?.nodeType === 'ModifierDefinition') visit(md, path);
    }
    const walk = (n: Node, unchecked: boolean): void => {
      const t = n.nodeType;
      if (t === 'UncheckedBlock') {
        for (const c of children(n)) walk(c, true);
        return;
      }
      if (t === 'RevertStatement') {
        const call = n.errorCall as Node | undefined;
        const ref = (call?.expression as Node | undefined)?.referencedDeclaration;
        const errorDef = typeof ref === 'number' ? idx.byId.get(ref) : undefined;
        found.push({
          kind: 'revert',
          node: n,
          in: name,
          via: path,
          ...(errorDef?.nodeType === 'ErrorDefinition' ? { errorDef } : {}),
        });
      } else if (t === 'FunctionCall') {
        const e = n.expression as Node | undefined;
        const args = (n.arguments as Node[] | undefined) ?? [];
        if (
          e?.nodeType === 'Identifier' &&
          BUILTIN(e) &&
          (e.name === 'require' || e.name === 'assert' || e.name === 'revert')
        ) {
          if (e.name === 'assert') found.push({ kind: 'assert', node: n, in: name, via: path });
          else {
            const kind: CandidateKind = e.name === 'require' ? 'require' : 'revert';
            const msgArg = e.name === 'require' ? args[1] : args[0];
            if (!msgArg) found.push({ kind, node: n, in: name, via: path, empty: true });
            else if (
              msgArg.nodeType === 'FunctionCall' &&
              (msgArg.typeDescriptions as Node | undefined)?.typeString === 'error'
            ) {
              const ref = (msgArg.expression as Node | undefined)?.referencedDeclaration;
              const errorDef = typeof ref === 'number' ? idx.byId.get(ref) : undefined;
              found.push({
                kind,
                node: n,
                in: name,
                via: path,
                ...(errorDef?.nodeType === 'ErrorDefinition' ? { errorDef } : {}),
              });
            } else found.push({ kind, node: n, in: name, via: path, message: stringOf(idx, msgArg) });
          }
        } else if (
          e &&
          (e.nodeType === 'Identifier' || e.nodeType === 'MemberAccess') &&
          typeof e.referencedDeclaration === 'number'
        ) {
          const target = idx.byId.get(e.referencedDeclaration);
          if (target?.nodeType === 'FunctionDefinition' && target.body) {
            const owner = idx.contractOfNode(target);
            const ownerId = owner?.id as number | undefined;
            const sameContract = ownerId !== undefined && homeBases.has(ownerId);
            const external = e.nodeType === 'MemberAccess' && !sameContract && owner?.contractKind !== 'library';
            // calls into the same contract (bases included) and into libraries; not external calls to other contracts
            if (!external && (sameContract || owner?.contractKind === 'library' || owner === undefined))
              visit(target, path);
          }
        }
        if (e?.nodeType === 'MemberAccess' && e.memberName === 'pop' && !unchecked)
          found.push({ kind: 'pop', node: n, in: name, via: path });
        // Panic 0x21, 0x41, 0x51: a conversion to an enum, `new T[](n)`, a call through a function variable
        if (
          n.kind === 'typeConversion' &&
          /^enum /.test(String((n.typeDescriptions as Node | undefined)?.typeString ?? ''))
        )
          found.push({ kind: 'enumConversion', node: n, in: name, via: path });
        if (
          e?.nodeType === 'NewExpression' &&
          /\[\]/.test(String((e.typeDescriptions as Node | undefined)?.typeString ?? ''))
        )
          found.push({ kind: 'allocation', node: n, in: name, via: path });
        if (
          e &&
          typeof e.referencedDeclaration === 'number' &&
          idx.byId.get(e.referencedDeclaration)?.nodeType === 'VariableDeclaration' &&
          /^function /.test(String((e.typeDescriptions as Node | undefined)?.typeString ?? ''))
        )
          found.push({ kind: 'functionVariable', node: n, in: name, via: path });
      } else if (!unchecked && (t === 'BinaryOperation' || t === 'Assignment' || t === 'UnaryOperation')) {
        const op = String(n.operator ?? '');
        const type = String((n.typeDescriptions as Node | undefined)?.typeString ?? '');
        if (INT_TYPE.test(type)) {
          if (['+', '-', '*', '**', '+=', '-=', '*=', '++', '--'].includes(op))
            found.push({ kind: 'arithmetic', node: n, in: name, via: path });
          else if (['/', '%', '/=', '%='].includes(op)) found.push({ kind: 'division', node: n, in: name, via: path });
        }
      } else if (t === 'IndexAccess' && !unchecked) {
        const base = String(
          ((n.baseExpression as Node | undefined)?.typeDescriptions as Node | undefined)?.typeString ?? '',
        );
        if (
          /\]( storage| memory| calldata)?( pointer| ref)?$/.test(base) ||
          /^bytes (storage|memory|calldata)/.test(base)
        )
          found.push({ kind: 'index', node: n, in: name, via: path });
      }
      for (const c of children(n)) walk(c, unchecked);
    };
    if (def.body && typeof def.body === 'object') walk(def.body as Node, false);
  };
  visit(fn, []);
  return found;
}

/** How many bytes of arguments an error's parameters take at least (a dynamic one: its offset word). */
const minArgBytes = (errorDef: Node): number =>
  (((errorDef.parameters as Node | undefined)?.parameters as Node[] | undefined)?.length ?? 0) * 32;

/**
 * The likely places of a revert (see the module comment): `contract` is the innermost reverting frame's contract
 * (`path:Name` in `build`), `selector` its function selector (the action's input; none for a plain transfer),
 * `revertData` the revert data (hex) or its decoded reason. Never throws.
 */
export function likelyLocations(
  build: SolcBuildLike,
  contract: string,
  selector: string | null | undefined,
  revertData: string | LikelyReason | null | undefined,
  options: { creation?: boolean } = {},
): LikelyResult {
  const notes: string[] = [];
  const reason =
    typeof revertData === 'object' && revertData !== null
      ? revertData
      : likelyReasonOf(revertData as string | null | undefined);
  const idx = AstIndex.of(build);
  const sources = BuildSources.of(build);
  const c = idx.contracts.get(contract);
  if (!c)
    return {
      likely: true,
      ...(reason ? { reason } : {}),
      candidates: [],
      notes: [`The build has no AST of ${contract}.`],
    };
  const sel = (selector ?? '').toLowerCase().replace(/^0x/, '').slice(0, 8);
  const bases = new Set((Array.isArray(c.linearizedBaseContracts) ? c.linearizedBaseContracts : [c.id]) as number[]);
  let fn: Node | undefined;
  // a failed deployment: the constructors, most derived first
  const constructors = options.creation
    ? [...bases]
        .map((id) =>
          ((idx.byId.get(id)?.nodes as Node[] | undefined) ?? []).find(
            (n) => n.nodeType === 'FunctionDefinition' && n.kind === 'constructor',
          ),
        )
        .filter((n): n is Node => !!n)
    : [];
  if (options.creation) fn = constructors[0];
  else if (/^[0-9a-f]{8}$/.test(sel))
    fn = findFunction(idx, c, sel, contractOf(build, contract)?.evm?.methodIdentifiers);
  else {
    // no selector: receive() or fallback()
    for (const id of bases) {
      fn = ((idx.byId.get(id)?.nodes as Node[] | undefined) ?? []).find(
        (n) => n.nodeType === 'FunctionDefinition' && (n.kind === 'receive' || n.kind === 'fallback'),
      );
      if (fn) break;
    }
  }
  const [, contractName] = splitIdentifier(contract);
  if (!fn) {
    notes.push(
      options.creation
        ? `${contractName} has no constructor in this build.`
        : sel
          ? `${contractName} has no function with selector 0x${sel} in this build.`
          : `${contractName} has no receive or fallback function.`,
    );
    return { likely: true, ...(reason ? { reason } : {}), candidates: [], notes };
  }
  const fnName = typeof fn.name === 'string' && fn.name ? fn.name : String(fn.kind);
  const fnLocation = sources.locateSrc(fn.src);
  const found = options.creation ? constructors.flatMap((k) => collect(idx, k, bases)) : collect(idx, fn, bases);

  const keep = (f: Found): boolean => {
    if (!reason) return f.kind === 'revert' || f.kind === 'require' || f.kind === 'assert';
    switch (reason.kind) {
      case 'custom':
        return (
          !!f.errorDef &&
          String(f.errorDef.errorSelector ?? '').toLowerCase() === reason.selector &&
          reason.dataBytes >= 4 + minArgBytes(f.errorDef)
        );
      case 'error':
        return (
          (f.kind === 'require' || f.kind === 'revert') &&
          !f.errorDef &&
          typeof f.message === 'string' &&
          f.message === reason.message
        );
      case 'empty':
        return (f.kind === 'require' || f.kind === 'revert') && f.empty === true;
      case 'panic':
        switch (reason.code) {
          case 0x01n:
            return f.kind === 'assert';
          case 0x11n:
            return f.kind === 'arithmetic';
          case 0x12n:
            return f.kind === 'division';
          case 0x31n:
            return f.kind === 'pop';
          case 0x32n:
            return f.kind === 'index';
          case 0x21n:
            return f.kind === 'enumConversion';
          case 0x41n:
            return f.kind === 'allocation';
          case 0x51n:
            return f.kind === 'functionVariable';
          default:
            return false;
        }
    }
  };
  // Error(string): a message that is not a literal (built at run time) fits when no literal says it
  const literalHit = reason?.kind === 'error' && found.some((f) => keep(f));
  const fits = (f: Found): boolean =>
    keep(f) ||
    (reason?.kind === 'error' &&
      !literalHit &&
      (f.kind === 'require' || f.kind === 'revert') &&
      !f.errorDef &&
      f.message === null);
  const candidates: LikelyCandidate[] = [];
  for (const f of found) {
    if (!fits(f)) continue;
    const location = sources.locateSrc(f.node.src);
    if (!location) continue;
    candidates.push({
      kind: f.kind,
      location,
      in: f.in,
      via: f.via,
      ...(f.errorDef && typeof f.errorDef.name === 'string' ? { error: f.errorDef.name } : {}),
    });
  }
  if (reason?.kind === 'panic' && ![0x01n, 0x11n, 0x12n, 0x21n, 0x31n, 0x32n, 0x41n, 0x51n].includes(reason.code)) {
    notes.push(
      `Panic 0x${reason.code.toString(16).padStart(2, '0')} comes from code the AST does not show (storage encoding, or a code no statement has): no statement is named.`,
    );
  } else if (!candidates.length) {
    notes.push(`No statement of ${fnName} (its modifiers and the functions it calls) fits the revert reason.`);
  }
  if (reason?.kind === 'empty')
    notes.push(
      'A revert without data can also come from a check the compiler adds (value sent to a non-payable function, call data too short), which no statement shows.',
    );
  if (reason?.kind === 'panic' && (reason.code === 0x11n || reason.code === 0x12n) && candidates.length > 1)
    notes.push(
      'Every checked operation of these functions can overflow or divide by zero: the one that did is not known without the opcode log.',
    );
  return {
    likely: true,
    function: { name: fnName, contract, ...(fnLocation ? { location: fnLocation } : {}) },
    ...(reason ? { reason } : {}),
    candidates,
    notes,
  };
}
