/**
 * The call trace: the mirror node's `actions` (one entry a call frame) as rows of a tree in depth-first order,
 * each call decoded as a function of its recipient and its result as return values or a revert reason. The tree
 * comes from `call_depth` in `index` order, whatever order the entries arrive in and whatever gaps the depths have
 * (a frame's parent is the last frame before it with a smaller depth). The failing frames are marked, and the path
 * from the top down to the deepest failure (the frame whose failure the others passed on). Linear in the number of
 * frames (decoders kept per address and selector): thousands of frames build in milliseconds. Never throws.
 */
import { type Int, intToString } from '../json';
import type { ContractAction } from '../mirrorTypes';
import { type DecodedFrameCall, Decoder, type InspectContext } from './decoder';
import type { LinkKind, TraceRow, TraceView } from './model';
import { amountOf, textOf } from './values';

const FAILED = new Set(['REVERT_REASON', 'ERROR']);
const CREATES = new Set(['CREATE', 'CREATE2']);

/** A whole number from the wire (number, bigint, or digits), else undefined. */
function wholeNumber(v: unknown): number | undefined {
  if (typeof v === 'number' && Number.isFinite(v)) return Math.trunc(v);
  if (typeof v === 'bigint') return Number(v);
  if (typeof v === 'string' && /^-?\d{1,16}$/.test(v.trim())) return Number(v.trim());
  return undefined;
}

const linkKind = (t: unknown): LinkKind | undefined =>
  t === 'CONTRACT' ? 'contract' : t === 'ACCOUNT' ? 'account' : undefined;

/** Builds the trace of a contract result's `actions`. */
export function buildTrace(actions: readonly ContractAction[] | null | undefined, ctx: InspectContext): TraceView {
  const list = (Array.isArray(actions) ? actions : []).filter((a): a is ContractAction => !!a && typeof a === 'object');
  const items = list.map((a, pos) => ({ a, index: wholeNumber(a.index) ?? pos, pos }));
  items.sort((x, y) => x.index - y.index || x.pos - y.pos);

  const dec = new Decoder(ctx);
  const rows: TraceRow[] = [];
  const stack: Array<{ depth: number; row: number }> = [];
  let lastDepth = 0;
  for (const { a, index } of items) {
    // a missing depth: a sibling of the frame before (the least surprising guess)
    const depth = wholeNumber(a.call_depth) ?? lastDepth;
    lastDepth = depth;
    while (stack.length && stack[stack.length - 1].depth >= depth) stack.pop();
    const parent = stack.length ? stack[stack.length - 1].row : -1;
    const row = rows.length;
    const treeDepth = stack.length;
    stack.push({ depth, row });

    const operation = textOf(a.call_operation_type) || textOf(a.call_type) || 'UNKNOWN';
    const callType = textOf(a.call_type);
    const recipient = dec.addr(a.to, a.recipient);
    const input = typeof a.input === 'string' ? a.input : undefined;
    const resultType = textOf(a.result_data_type);
    const failed = FAILED.has(resultType);
    const resultRaw = typeof a.result_data === 'string' ? a.result_data : undefined;

    let call: DecodedFrameCall | undefined;
    // creation frames carry init code, not a call
    if (!CREATES.has(operation) && !CREATES.has(callType)) call = dec.call(input, recipient);

    const r: TraceRow = {
      index,
      depth: treeDepth,
      parent,
      descendants: 0,
      operation,
      callType,
      caller: dec.entity(dec.addr(a.from, a.caller), linkKind(a.caller_type)),
      recipient: dec.entity(recipient, linkKind(a.recipient_type)),
      value: amountOf(a.value as Int | null),
      gas: intToString(a.gas as Int | null),
      gasUsed: intToString(a.gas_used as Int | null),
      resultType,
      failed,
      onFailurePath: false,
    };
    if (call) r.call = call.view;
    if (input) r.input = input;
    if (resultType === 'OUTPUT' && call) {
      const out = dec.output(call, resultRaw);
      if (out) r.output = out;
    }
    if (failed) {
      const e = dec.error(resultRaw ?? '', recipient);
      if (e) r.error = e;
    }
    if (resultRaw !== undefined) r.resultRaw = resultRaw;
    if (typeof a.timestamp === 'string') r.timestamp = a.timestamp;
    rows.push(r);
  }

  // descendants: each row adds itself and its own to its parent (children come after their parent)
  for (let i = rows.length - 1; i >= 0; i--) {
    const p = rows[i].parent;
    if (p >= 0) rows[p].descendants += rows[i].descendants + 1;
  }

  return { rows, deepestFailure: markFailurePath(rows) };
}

/**
 * The deepest failure: from the last failed top frame, down through the last failed child each time (a frame
 * reverts because of the last call that failed in it; earlier failed calls were caught). When no top frame failed
 * (failures caught inside), the deepest failed frame. Marks it and its ancestors; returns its row, -1 for none.
 */
function markFailurePath(rows: TraceRow[]): number {
  const lastFailedChild = new Map<number, number>();
  let lastFailedRoot = -1;
  let deepest = -1;
  for (let i = 0; i < rows.length; i++) {
    const r = rows[i];
    if (!r.failed) continue;
    if (r.parent < 0) lastFailedRoot = i;
    else lastFailedChild.set(r.parent, i);
    if (deepest < 0 || r.depth > rows[deepest].depth) deepest = i;
  }
  if (deepest < 0) return -1;
  let at = deepest;
  if (lastFailedRoot >= 0) {
    at = lastFailedRoot;
    for (let next = lastFailedChild.get(at); next !== undefined; next = lastFailedChild.get(at)) at = next;
  }
  for (let i = at; i >= 0; i = rows[i].parent) rows[i].onFailurePath = true;
  return at;
}
