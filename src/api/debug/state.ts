/**
 * What the debugger shows at a step of a DebugTrace (./trace): the EVM state before the step's operation (the stack,
 * the memory as hex, the gas left), the message (`msg.sender`, `msg.value`), the storage read and written so far named
 * by the contract's storage layout, the called function's arguments decoded by its ABI, the events emitted so far and
 * the revert reason. The mirror node writes each step after its operation: the state before an operation is then the
 * frame's previous step's. Stack, memory and storage are in the log only when it was asked for them; what is missing
 * is said, not guessed. Plain TypeScript, no `vscode`.
 */
import { type Abi, decodeEventLog } from 'viem';
import {
  type AbiRegistry,
  type DecodedValue,
  decodeCall,
  decodeError,
  decodeReturn,
  sourcifyRegistry,
} from '../decode/abi';
import { type StorageLayout, nameSlots, slotNumber } from '../inspect/storage';
import { decodeRevert } from '../revert';
import { contractOf } from '../source/sourceMap';
import { decodeByAst, functionBySelector } from './ast';
import { type DebugTrace, type ExternalFrame, storageFrameOf } from './trace';

/** One variable as the debugger shows it: a name, a value as text, and its children. */
export interface Variable {
  name: string;
  value: string;
  type?: string;
  children?: Variable[];
  /** Where VS Code's memory view reads this value (`readMemory`): the memory of a step, `memoryRef(step)`. */
  memoryReference?: string;
}

/** The memory reference of a step's memory (readMemory's argument), and back. */
export const memoryRef = (step: number): string => `memory@${step}`;
export function stepOfMemoryRef(ref: string): number | undefined {
  const m = /^memory@(\d{1,9})$/.exec(ref);
  return m ? Number(m[1]) : undefined;
}

/** `count` bytes of a step's memory from `offset` (fewer at its end); undefined when the log has no memory. */
export function memoryBytes(t: DebugTrace, step: number, offset: number, count: number): Uint8Array | undefined {
  const words = memoryAt(t, step);
  if (!words) return undefined;
  const size = words.length * 32;
  const from = Math.min(Math.max(0, offset), size);
  const to = Math.min(size, from + Math.max(0, count));
  const out = new Uint8Array(to - from);
  for (let i = from; i < to; i++) {
    const hex = words[i >> 5].padStart(64, '0').slice(2 * (i & 31), 2 * (i & 31) + 2);
    out[i - from] = /^[0-9a-fA-F]{2}$/.test(hex) ? parseInt(hex, 16) : 0;
  }
  return out;
}

/** An event emitted before a step, decoded when the frame's ABI has it. */
export interface EmittedEvent {
  step: number;
  /** The emitting contract (the storage context's address: a library's event is its caller's). */
  address?: string;
  /** `Transfer(from=0x…, to=0x…, value=1)`, or the raw topics and data when it cannot be decoded. */
  text: string;
}

const MISSING_STACK = 'not in the step trace (ask the opcode endpoint with stack=true)';

const hex = (s: string): string => (s.startsWith('0x') ? s : `0x${s}`);
const word = (s: string): string => s.toLowerCase().replace(/^0x/, '').padStart(64, '0');

/** The registry of a frame's ABI, cached per frame. */
const registries = new WeakMap<ExternalFrame, AbiRegistry | null>();
function registryOf(t: DebugTrace, f: ExternalFrame): AbiRegistry | undefined {
  let r = registries.get(f);
  if (r === undefined) {
    const abi = t.abiOf(f);
    r = abi ? sourcifyRegistry(abi, f.address ?? '0x', 'build') : null;
    registries.set(f, r);
  }
  return r ?? undefined;
}

/** The step whose recorded state is the state before `step`'s operation (-1: the frame had done nothing yet). */
export function stateStep(t: DebugTrace, step: number): number {
  return t.pcMode === 'pre' ? step : t.prevInFrame[step];
}

/** The EVM stack before the step's operation, top first; undefined when the log has no stacks. */
export function stackAt(t: DebugTrace, step: number): string[] | undefined {
  const s = stateStep(t, step);
  if (s < 0) return t.input.opcodes[step]?.stack?.length || hasStacks(t) ? [] : undefined;
  const st = t.input.opcodes[s]?.stack;
  if (!st || (!st.length && !hasStacks(t))) return undefined;
  return [...st].reverse().map(hex);
}

/** The memory before the step's operation, as hex words; undefined when the log has no memory. */
export function memoryAt(t: DebugTrace, step: number): string[] | undefined {
  const s = stateStep(t, step);
  if (s < 0) return hasMemory(t) ? [] : undefined;
  const m = t.input.opcodes[s]?.memory;
  if (!m || (!m.length && !hasMemory(t))) return undefined;
  return m.map((w) => w.replace(/^0x/, ''));
}

const flagCache = new WeakMap<DebugTrace, { stack: boolean; memory: boolean; storage: boolean }>();
function flags(t: DebugTrace): { stack: boolean; memory: boolean; storage: boolean } {
  let f = flagCache.get(t);
  if (!f) {
    f = { stack: false, memory: false, storage: false };
    const ops = t.input.opcodes;
    for (let i = 0; i < ops.length && !(f.stack && f.memory && f.storage); i++) {
      const o = ops[i];
      if (o.stack?.length) f.stack = true;
      if (o.memory?.length) f.memory = true;
      if (o.storage && Object.keys(o.storage).length) f.storage = true;
    }
    flagCache.set(t, f);
  }
  return f;
}
const hasStacks = (t: DebugTrace): boolean => flags(t).stack;
const hasMemory = (t: DebugTrace): boolean => flags(t).memory;

/** The gas left before the step's operation. */
export function gasAt(t: DebugTrace, step: number): bigint | undefined {
  const ops = t.input.opcodes;
  const s = stateStep(t, step);
  const e = s >= 0 ? ops[s] : ops[step];
  if (!e) return undefined;
  try {
    const g = BigInt(e.gas ?? NaN);
    // the frame's first operation: what it had before is what is left after it plus its cost
    return s >= 0 ? g : g + BigInt(e.gas_cost ?? 0);
  } catch {
    return undefined;
  }
}

/** The storage slots read or written so far (slot → value), as the log's snapshots give them. */
export function storageAt(t: DebugTrace, step: number): Map<string, string> | undefined {
  if (!flags(t).storage) return undefined;
  const ops = t.input.opcodes;
  const s = t.pcMode === 'pre' ? step : step > 0 ? step - 1 : -1;
  const out = new Map<string, string>();
  const snap = s >= 0 ? ops[s]?.storage : undefined;
  for (const [k, v] of Object.entries(snap ?? {})) out.set(word(k), word(v));
  return out;
}

/**
 * The storage layout that names a frame's storage: its own contract's when that declares state variables (a proxy's
 * implementation reads and writes the proxy's storage by its own layout), else its storage context's (a library's
 * code reads its caller's state variables), when the build has one.
 */
export function layoutOf(t: DebugTrace, f: ExternalFrame): StorageLayout | undefined {
  const layout = (frame: ExternalFrame) => {
    const c = frame.build
      ? (contractOf(frame.build.build, frame.build.contract) as { storageLayout?: StorageLayout })
      : undefined;
    return c?.storageLayout && Array.isArray(c.storageLayout.storage) ? c.storageLayout : undefined;
  };
  const own = layout(f);
  return own?.storage.length ? own : layout(t.storageFrame(f));
}

/** The storage read and written so far, named by the layout where it explains the slot. */
export function storageVariables(t: DebugTrace, step: number): Variable[] | undefined {
  const slots = storageAt(t, step);
  if (!slots) return undefined;
  const f = t.frames[t.frameOf[step]];
  const layout = layoutOf(t, f);
  const addresses = new Set<string>();
  for (const fr of t.frames) {
    if (fr.address) addresses.add(fr.address);
    if (fr.from) addresses.add(fr.from);
  }
  for (const v of argumentsOf(t, f) ?? []) if (/^0x[0-9a-fA-F]{40}$/.test(v.value)) addresses.add(v.value);
  const changes = [...slots].map(([slot, value]) => ({ slot: `0x${slot}`, read: `0x${value}` }));
  const named = layout ? nameSlots(layout, changes, { addresses }) : new Map();
  const out: Variable[] = [];
  for (const [slot, value] of slots) {
    const vars = named.get(slotNumber(`0x${slot}`) as bigint) ?? [];
    if (vars.length)
      for (const v of vars)
        out.push({ name: v.label, value: v.before ?? `0x${value}`, type: v.type, children: [slotVar(slot, value)] });
    else out.push({ ...slotVar(slot, value), name: `slot 0x${slot.replace(/^0{1,62}/, '')}` });
  }
  return out;
}

const slotVar = (slot: string, value: string): Variable => ({
  name: `0x${slot}`,
  value: `0x${value}`,
  type: 'bytes32',
});

/** The frame's function arguments decoded by its ABI (undefined: no ABI has its selector, or no input). */
export function argumentsOf(t: DebugTrace, f: ExternalFrame): Variable[] | undefined {
  if (!f.input || f.creation) return undefined;
  const reg = registryOf(t, f);
  const call = reg ? decodeCall(f.input, undefined, reg) : undefined;
  if (call) return call.args.map(toVariable);
  if (runsFallback(t, f)) return undefined;
  // a library function with storage parameters is not in its ABI: the AST's parameters
  const fn = f.build && f.selector ? functionBySelector(f.build.build, f.selector) : undefined;
  return fn ? decodeByAst(fn, f.input) : undefined;
}

/**
 * At the step that ends a frame without failing (its RETURN; a STOP returns no data): the values it returned, decoded by the outputs of its function in the ABI (the
 * call trace's recorded return data, not memory read back); undefined at any other step or when they cannot be.
 */
export function returnValuesOf(t: DebugTrace, f: ExternalFrame, step: number): Variable[] | undefined {
  const op = t.input.opcodes[step]?.op;
  if ((op !== 'RETURN' && op !== 'STOP') || t.frameOf[step] !== f.id || step !== f.last) return undefined;
  if (f.creation || !f.input || typeof f.result !== 'string' || (f.resultType && f.resultType !== 'OUTPUT'))
    return undefined;
  const reg = registryOf(t, f);
  const call = reg ? decodeCall(f.input, undefined, reg) : undefined;
  const r = call ? decodeReturn(call, f.result) : undefined;
  return r?.values.map(toVariable);
}

/** The frame's function name (by its ABI), when known. */
export function functionOf(t: DebugTrace, f: ExternalFrame): string | undefined {
  if (f.creation) return 'constructor';
  if (!f.input) return undefined;
  const reg = registryOf(t, f);
  const name = reg ? decodeCall(f.input, undefined, reg)?.name : undefined;
  if (name) return name;
  if (runsFallback(t, f)) return 'fallback';
  return f.build && f.selector ? functionBySelector(f.build.build, f.selector)?.name : undefined;
}

/**
 * Whether the frame's contract answers the call with its fallback: its ABI has a fallback and no function decodes the
 * input (a proxy's own code, whatever its implementation's function is called).
 */
function runsFallback(t: DebugTrace, f: ExternalFrame): boolean {
  const abi = t.abiOf(f);
  return !!abi?.some((e) => (e as { type?: unknown })?.type === 'fallback');
}

const toVariable = (v: DecodedValue): Variable => ({
  name: v.name,
  value: v.value,
  type: v.type,
  ...(v.children ? { children: v.children.map(toVariable) } : {}),
});

/**
 * The message of a frame: msg.sender, msg.value, the address it runs as (a DELEGATECALL's: its caller's) and, when
 * that is another contract's, the address of the code that runs.
 */
export function messageOf(f: ExternalFrame): Variable[] {
  const out: Variable[] = [];
  const context = storageFrameOf(f);
  out.push({ name: 'msg.sender', value: f.from ?? 'not known (the call trace has no action for this frame)' });
  out.push({ name: 'msg.value', value: f.value !== undefined ? `${f.value} tinybars` : 'not known', type: 'uint256' });
  out.push({ name: 'address(this)', value: context.address ?? 'not known', type: 'address' });
  if (context.entity) out.push({ name: 'contract', value: context.entity });
  if (context !== f) {
    out.push({ name: 'code address', value: f.address ?? 'not known', type: 'address' });
    if (f.entity) out.push({ name: 'code contract', value: f.entity });
  }
  return out;
}

/** The EVM state of a step as variables: gas left, pc, operation, stack and memory. */
export function evmVariables(t: DebugTrace, step: number): Variable[] {
  const out: Variable[] = [];
  const gas = gasAt(t, step);
  out.push({ name: 'gas left', value: gas === undefined ? 'not known' : gas.toString() });
  out.push({ name: 'pc', value: String(t.pcOf[step]) });
  out.push({ name: 'operation', value: t.input.opcodes[step]?.op || '(system contract)' });
  const stack = stackAt(t, step);
  out.push(
    stack
      ? {
          name: 'stack',
          value: `[${stack.length} items]`,
          children: stack.map((v, i) => ({ name: `${i}`, value: v, type: 'uint256' })),
        }
      : { name: 'stack', value: MISSING_STACK },
  );
  const memory = memoryAt(t, step);
  out.push(
    memory
      ? {
          name: 'memory',
          value: `${memory.length * 32} bytes`,
          memoryReference: memoryRef(step),
          children: memory.map((w, i) => ({ name: `0x${(i * 32).toString(16).padStart(4, '0')}`, value: w })),
        }
      : { name: 'memory', value: 'not in the step trace (ask the opcode endpoint with memory=true)' },
  );
  return out;
}

/** The revert reason of the failing frame, decoded with its ABI (a custom error by name). */
export function revertReason(t: DebugTrace): string | undefined {
  if (t.failing < 0) return undefined;
  const e = t.input.opcodes[t.failing];
  const f = t.frames[t.frameOf[t.failing]];
  const data = typeof e?.reason === 'string' ? e.reason : f.resultType === 'REVERT_REASON' ? f.result : undefined;
  if (data === undefined) {
    const op = e?.op || 'a halt';
    return op === 'REVERT' ? 'reverted without data' : `halted at ${op}`;
  }
  const reg = registryOf(t, f);
  const d = decodeError(data, undefined, reg) ?? decodeRevert(data);
  return d?.message ?? 'reverted without data';
}

/** The events emitted up to and including `step` (LOG operations), decoded where the frame's ABI has them. */
export function eventsUntil(t: DebugTrace, step: number): EmittedEvent[] {
  const out: EmittedEvent[] = [];
  const ops = t.input.opcodes;
  for (let i = 0; i <= step && i < t.count; i++) {
    const op = ops[i].op;
    if (!op || !op.startsWith('LOG')) continue;
    out.push(eventAt(t, i));
  }
  return out;
}

/** The event a LOG step emitted: its topics and data from the stack and memory before it. */
export function eventAt(t: DebugTrace, step: number): EmittedEvent {
  const f = t.frames[t.frameOf[step]];
  const address = t.storageFrame(f).address;
  const topicsCount = Number((t.input.opcodes[step].op ?? 'LOG0').slice(3)) || 0;
  const stack = stackAt(t, step);
  const memory = memoryAt(t, step);
  if (!stack || !memory || stack.length < 2 + topicsCount)
    return { step, address, text: `LOG${topicsCount} (its topics and data are not in the step trace)` };
  const offset = Number(BigInt(stack[0]));
  const size = Number(BigInt(stack[1]));
  const topics = stack.slice(2, 2 + topicsCount).map((w) => `0x${word(w)}`);
  const mem = memory.join('');
  const data = `0x${mem.slice(offset * 2, (offset + size) * 2).padEnd(size * 2, '0')}`;
  const reg = registryOf(t, f);
  for (const e of topics.length && reg ? reg.eventByTopic(topics[0]) : []) {
    try {
      const r = decodeEventLog({
        abi: [e.item] as unknown as Abi,
        topics: topics as [`0x${string}`, ...`0x${string}`[]],
        data: data as `0x${string}`,
      });
      const args = r.args as Record<string, unknown> | unknown[] | undefined;
      const parts = (e.item.inputs ?? []).map((p, k) => {
        const v = Array.isArray(args) ? args[k] : args?.[p.name ?? String(k)];
        return `${p.name || k}=${typeof v === 'bigint' ? v.toString() : String(v)}`;
      });
      return { step, address, text: `${e.item.name}(${parts.join(', ')})` };
    } catch {
      // another event with the same topic may fit
    }
  }
  return { step, address, text: `LOG${topicsCount} topics [${topics.join(', ')}] data ${data}` };
}
