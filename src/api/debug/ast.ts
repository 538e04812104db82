/**
 * What the debugger reads of a build's AST: the ranges of parameter lists (a function's header is not a statement:
 * the source map names its return variables when they are zeroed, which is no line to stop on) and the external
 * functions by selector with their parameters (a library's function whose parameters include a storage reference is
 * absent from its ABI). Cached per build. Plain TypeScript, no `vscode`.
 */
import type { SolcBuildLike } from '../source/sourceMap';

type Node = Record<string, unknown> & { nodeType?: string; src?: string };

export interface AstFunction {
  name: string;
  params: { name: string; type: string }[];
}

interface AstIndex {
  /** Per source index: [start, end) of every parameter list. */
  paramLists: Map<number, Array<[number, number]>>;
  bySelector: Map<string, AstFunction>;
}

const cache = new WeakMap<SolcBuildLike, AstIndex>();

const range = (src: unknown): [number, number, number] | undefined => {
  const m = typeof src === 'string' ? /^(\d+):(\d+):(-?\d+)$/.exec(src) : null;
  return m ? [Number(m[1]), Number(m[1]) + Number(m[2]), Number(m[3])] : undefined;
};

function indexOf(build: SolcBuildLike): AstIndex {
  let idx = cache.get(build);
  if (idx) return idx;
  idx = { paramLists: new Map(), bySelector: new Map() };
  for (const s of Object.values(build.output?.sources ?? {})) {
    const ast = s?.ast as Node | undefined;
    if (!ast || typeof ast !== 'object') continue;
    const stack: Node[] = [ast];
    while (stack.length) {
      const n = stack.pop() as Node;
      if (n.nodeType === 'FunctionDefinition' || n.nodeType === 'ModifierDefinition') {
        for (const key of ['parameters', 'returnParameters']) {
          const r = range((n[key] as Node | undefined)?.src);
          if (!r) continue;
          let list = idx.paramLists.get(r[2]);
          if (!list) idx.paramLists.set(r[2], (list = []));
          list.push([r[0], r[1]]);
        }
        if (typeof n.functionSelector === 'string' && typeof n.name === 'string') {
          const params = ((n.parameters as Node | undefined)?.parameters as Node[] | undefined) ?? [];
          idx.bySelector.set(`0x${n.functionSelector}`, {
            name: n.name,
            params: params.map((p) => ({
              name: typeof p.name === 'string' ? p.name : '',
              type: String((p.typeDescriptions as { typeString?: unknown } | undefined)?.typeString ?? ''),
            })),
          });
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
  cache.set(build, idx);
  return idx;
}

/** Whether a source range lies in a function's or modifier's parameter list. */
export function inParameterList(build: SolcBuildLike, file: number, start: number, length: number): boolean {
  for (const [s, e] of indexOf(build).paramLists.get(file) ?? []) if (start >= s && start + length <= e) return true;
  return false;
}

/** The external function of a selector in the build's AST. */
export function functionBySelector(build: SolcBuildLike, selector: string): AstFunction | undefined {
  return indexOf(build).bySelector.get(selector.toLowerCase());
}

/**
 * Call data decoded by the AST's parameter types, one 32-byte word each: value types; a storage reference as its slot;
 * anything else (dynamic data) as its offset, said so.
 */
export function decodeByAst(fn: AstFunction, input: string): { name: string; value: string; type: string }[] {
  const data = input.replace(/^0x/, '').slice(8);
  return fn.params.map((p, i) => {
    const w = data.slice(i * 64, i * 64 + 64);
    if (w.length < 64) return { name: p.name, value: 'not in the call data', type: p.type };
    return { name: p.name, value: wordAs(p.type, w, 'dynamic data at offset'), type: p.type };
  });
}

/**
 * One 32-byte word (64 hex digits) read as a value of a Solidity type string: value types as their value; a storage
 * reference as its slot; anything else (a reference into memory or call data) as `<where> <the word as a number>`.
 */
export function wordAs(t: string, w: string, where: string): string {
  const v = BigInt(`0x${w}`);
  if (/^(address|contract )/.test(t)) return `0x${w.slice(24)}`;
  const u = /^uint(\d*)$/.exec(t);
  if (u) return BigInt.asUintN(Number(u[1] || 256), v).toString();
  if (t.startsWith('enum ')) return BigInt.asUintN(8, v).toString();
  if (/^int(\d*)$/.test(t)) {
    const bits = BigInt(Number(/^int(\d*)$/.exec(t)?.[1] || 256));
    return (v >= 1n << (bits - 1n) && bits === 256n ? v - (1n << 256n) : BigInt.asIntN(Number(bits), v)).toString();
  }
  if (t === 'bool') return v === 0n ? 'false' : 'true';
  if (/^bytes\d+$/.test(t)) return `0x${w.slice(0, Number(t.slice(5)) * 2)}`;
  if (/ storage( pointer| ref)?$/.test(t) || t.startsWith('mapping(')) return `storage slot ${v.toString()}`;
  return `${where} ${v.toString()}`;
}
