/**
 * A function's parameters, return variables and local variables at a step, read from the EVM stack where the legacy
 * code generator keeps them. solc's output does not say where a variable lives, so this is an inference, always shown
 * as likely: the legacy generator enters an internal function (and an external function's body, from the dispatcher)
 * with its arguments on top of the stack, pushes its return variables, then pushes each local variable at its
 * declaration and pops it at the end of its block. Counted from the stack's height at the function's entry, a
 * variable's slot follows from the declarations in scope at the step's source position.
 *
 * Nothing is inferred where that layout does not hold or cannot be known: a viaIR build (the Yul optimizer's stack
 * layout is its own) or one whose settings are unknown, a function with modifiers (their parameters and locals sit
 * between), inline assembly (its `let`s are on the stack too), a step without a confirmed source position, a log
 * without stacks. An external function's arguments, decoded exactly from the call data, are held against the stack
 * first: a mismatch means the layout is not the one assumed, and nothing is shown. Plain TypeScript, no `vscode`.
 */
import * as l10n from '@vscode/l10n';
import { wordAs } from './ast';
import type { Variable } from './state';
import type { CallNode, DebugTrace } from './trace';
import { stackAt } from './state';
import { contractOf } from '../source/sourceMap';

type Node = Record<string, unknown> & { nodeType?: string; src?: string };

export interface Locals {
  /** The function's parameters, when they are not the call data's (an internal function). */
  params: Variable[];
  returns: Variable[];
  locals: Variable[];
  /** Why nothing (or not everything) was inferred. */
  note?: string;
}

const range = (src: unknown): [number, number, number] | undefined => {
  const m = typeof src === 'string' ? /^(\d+):(\d+):(-?\d+)$/.exec(src) : null;
  return m ? [Number(m[1]), Number(m[1]) + Number(m[2]), Number(m[3])] : undefined;
};
const contains = (n: Node | undefined, pos: number): boolean => {
  const r = range(n?.src);
  return !!r && r[0] <= pos && pos < r[1];
};
const endOf = (n: Node): number => range(n.src)?.[1] ?? Number.MAX_SAFE_INTEGER;
const typeOf = (d: Node): string =>
  String((d.typeDescriptions as { typeString?: unknown } | undefined)?.typeString ?? '');
const list = (n: unknown): Node[] => (Array.isArray(n) ? (n.filter((x) => x && typeof x === 'object') as Node[]) : []);

/** Stack slots a variable of this type takes: a dynamic calldata array or an external function pointer takes two. */
function slotsOf(t: string): number {
  if (/ calldata$/.test(t) && (/\[\] calldata$/.test(t) || /^(bytes|string) calldata$/.test(t))) return 2;
  if (/^function \(.*\).* external/.test(t)) return 2;
  return 1;
}

/** The compiler settings say viaIR: from the build's input, or the contract's metadata. Undefined: not known. */
function viaIR(call: CallNode): boolean | undefined {
  const fb = call.frame.build;
  if (!fb) return undefined;
  const input = fb.build.input as { settings?: { viaIR?: unknown } } | undefined;
  if (input?.settings) return input.settings.viaIR === true;
  const c = contractOf(fb.build, fb.contract) as { metadata?: unknown } | undefined;
  if (typeof c?.metadata === 'string') {
    try {
      const m = JSON.parse(c.metadata) as { settings?: { viaIR?: unknown } };
      if (m.settings) return m.settings.viaIR === true;
    } catch {
      // not JSON: unknown
    }
  }
  return undefined;
}

/** The innermost function or modifier of a source unit whose range holds `pos`. */
function enclosingFunction(ast: Node, pos: number): Node | undefined {
  let best: Node | undefined;
  const stack: Node[] = [ast];
  while (stack.length) {
    const n = stack.pop() as Node;
    if (!contains(n, pos)) continue;
    if (n.nodeType === 'FunctionDefinition' || n.nodeType === 'ModifierDefinition') best = n;
    for (const v of Object.values(n)) {
      if (Array.isArray(v)) for (const x of list(v)) stack.push(x);
      else if (v && typeof v === 'object' && typeof (v as Node).nodeType === 'string') stack.push(v as Node);
    }
  }
  return best;
}

/**
 * The local variables declared and still in scope at `pos`, in the order the code pushes them; undefined when `pos`
 * is in inline assembly (its variables are on the stack too, uncounted).
 */
function inScope(body: Node, pos: number): Node[] | undefined {
  const out: Node[] = [];
  const declare = (stmt: Node) => {
    for (const d of list(stmt.declarations)) out.push(d);
  };
  let n: Node | undefined = body;
  while (n) {
    if (n.nodeType === 'InlineAssembly') return undefined;
    let next: Node | undefined;
    switch (n.nodeType) {
      case 'Block':
      case 'UncheckedBlock':
        for (const s of list(n.statements)) {
          if (contains(s, pos)) {
            next = s;
            break;
          }
          if (endOf(s) > pos) break;
          if (s.nodeType === 'VariableDeclarationStatement') declare(s);
        }
        break;
      case 'ForStatement': {
        const init = n.initializationExpression as Node | undefined;
        if (init && contains(init, pos)) next = init;
        else {
          if (init?.nodeType === 'VariableDeclarationStatement') declare(init);
          next = [n.condition, n.loopExpression, n.body].find((c) => contains(c as Node, pos)) as Node | undefined;
        }
        break;
      }
      case 'IfStatement':
        next = [n.condition, n.trueBody, n.falseBody].find((c) => contains(c as Node, pos)) as Node | undefined;
        break;
      case 'WhileStatement':
      case 'DoWhileStatement':
        next = [n.condition, n.body].find((c) => contains(c as Node, pos)) as Node | undefined;
        break;
      case 'TryStatement': {
        const clause = list(n.clauses).find((c) => contains(c, pos));
        if (clause) {
          // a clause's parameters (the call's returns, the error) are pushed as it starts
          for (const p of list((clause.parameters as Node | undefined)?.parameters)) out.push(p);
          next = clause.block as Node | undefined;
        }
        break;
      }
      default:
        // an expression or a statement without blocks: no declaration further in
        break;
    }
    n = next;
  }
  return out;
}

/** The source position of a step in its call: its own confirmed place, or the call's last one before it. */
function positionOf(t: DebugTrace, call: CallNode, step: number): { file: number; pos: number } | undefined {
  for (let j = step; j >= call.entry && j >= 0; j--) {
    if (t.callOf[j] !== call.id || t.placeOf[j] < 0) continue;
    const loc = t.places[t.placeOf[j]].location;
    return { file: loc.fileIndex, pos: loc.start };
  }
  return undefined;
}

const note = (text: string): Locals => ({ params: [], returns: [], locals: [], note: text });

/**
 * The variables of `call` at `step` (see the module comment); `exactArgs`, an external function's arguments decoded
 * from the call data, are held against the stack. Undefined for a frame's root (no function entry to count from).
 */
export function localsOf(
  t: DebugTrace,
  call: CallNode,
  step: number,
  exactArgs?: readonly Variable[],
): Locals | undefined {
  const build = call.frame.build?.build;
  if (!build || !call.parent || call.entry < 0) return undefined;
  const ir = viaIR(call);
  if (ir === undefined) return note(l10n.t('not inferred: the build does not say whether it was compiled with viaIR'));
  if (ir) return note(l10n.t('not inferred: a viaIR build keeps variables where its optimizer chooses'));
  const at = positionOf(t, call, step);
  if (!at) return note(l10n.t('not inferred: this step has no confirmed source position'));
  const unit = Object.values(build.output?.sources ?? {})
    .map((s) => s?.ast as Node | undefined)
    .find((a) => a && range(a.src)?.[2] === at.file);
  const fn = unit ? enclosingFunction(unit, at.pos) : undefined;
  if (!fn || fn.nodeType !== 'FunctionDefinition')
    return note(l10n.t('not inferred: the step is not in a function body of the source'));
  // the step's source must be the called function's own: code the optimizer inlined into a caller is counted from
  // the caller's entry, where this layout does not hold
  if (call.name !== undefined && call.name !== fn.name)
    return note(l10n.t("not inferred: the step's source is not the called function's (inlined code)"));
  const entryStack = stackAt(t, call.entry);
  const now = stackAt(t, step);
  if (!entryStack || !now) return note(l10n.t('not in the step trace (ask the opcode endpoint with stack=true)'));
  const bottom = [...now].reverse();
  const entryHeight = entryStack.length;
  const read = (d: Node, slot: number): Variable | undefined => {
    const w = bottom[slot];
    if (w === undefined || slot < 0) return undefined;
    const type = typeOf(d);
    const where = / memory$/.test(type) ? 'memory at' : / calldata$/.test(type) ? 'call data at' : 'stack word';
    const value = wordAs(type, w.replace(/^0x/, '').padStart(64, '0'), where);
    return { name: typeof d.name === 'string' && d.name ? d.name : '(unnamed)', value, type };
  };

  const params = list((fn.parameters as Node | undefined)?.parameters);
  const paramSlots = params.reduce((a, p) => a + slotsOf(typeOf(p)), 0);
  let slot = entryHeight - paramSlots;
  const paramVars: Variable[] = [];
  for (const p of params) {
    const v = read(p, slot);
    if (v) paramVars.push(v);
    slot += slotsOf(typeOf(p));
  }
  // the call data's exact arguments against the stack: another layout than the assumed one shows nothing
  if (exactArgs) {
    for (const a of exactArgs) {
      const mine = paramVars.find((v) => v.name === a.name);
      if (!mine || !/^(u?int\d*|bool|address)$/.test(a.type ?? '')) continue;
      if (mine.value.toLowerCase() !== a.value.toLowerCase())
        return note(l10n.t('not inferred: the stack does not hold the arguments where the compiler usually puts them'));
    }
  }
  const returns: Variable[] = [];
  for (const r of list((fn.returnParameters as Node | undefined)?.parameters)) {
    const v = read(r, slot);
    if (v) returns.push(v);
    slot += slotsOf(typeOf(r));
  }
  const out: Locals = { params: exactArgs ? [] : paramVars, returns, locals: [] };
  if (list(fn.modifiers).length) {
    out.note = l10n.t('local variables not inferred: the function has modifiers');
    return out;
  }
  const body = fn.body as Node | undefined;
  const decls = body ? inScope(body, at.pos) : [];
  if (!decls) {
    out.note = l10n.t('local variables not inferred: the step is in inline assembly');
    return out;
  }
  for (const d of decls) {
    const v = read(d, slot);
    if (v) out.locals.push(v);
    slot += slotsOf(typeOf(d));
  }
  return out;
}
