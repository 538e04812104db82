/**
 * The call trace as a collapsible tree, without the DOM: which rows are visible given the collapsed ones, where a
 * row sits among its siblings, which rows a virtual list draws for a scroll position, and where the keyboard moves.
 * Rows come depth-first with `parent` (position of the parent row, -1 at the top) and `descendants` (how many rows
 * follow that belong to it), as the extension builds them (src/api/inspect/model.ts `TraceRow`). Everything here is
 * O(n) in the rows at most, so that a trace of thousands of frames collapses and expands in a frame.
 *
 * The rows come from the extension and are trusted to be well formed, but a malformed trace must not hang or break
 * the page: `shapeOf` clamps what does not add up (a subtree running past the end, a parent after its child).
 */

/** The part of a trace row this module reads. */
export interface TreeRowLike {
  parent: number;
  descendants: number;
}

/** The tree's shape, computed once per trace. */
export interface TreeShape {
  readonly count: number;
  /** Position of each row's parent, -1 at the top (clamped: always before the row). */
  readonly parent: Int32Array;
  /** Rows below each row (clamped to the end of the trace and to the parent's subtree). */
  readonly descendants: Int32Array;
  /** Depth in the tree (0 at the top), from the parents. */
  readonly level: Int32Array;
  /** 1-based position among the row's siblings, and how many siblings there are (aria-posinset / aria-setsize). */
  readonly posInSet: Int32Array;
  readonly setSize: Int32Array;
}

/** The shape of `rows`, with anything inconsistent clamped (see the file comment). */
export function shapeOf(rows: readonly TreeRowLike[]): TreeShape {
  const n = rows.length;
  const parent = new Int32Array(n);
  const descendants = new Int32Array(n);
  const level = new Int32Array(n);
  const posInSet = new Int32Array(n);
  const setSize = new Int32Array(n);
  /** End (exclusive) of each row's subtree, to keep a child's subtree inside its parent's. */
  const end = new Int32Array(n);
  // siblings counted per parent (index n stands for the top level)
  const childCount = new Int32Array(n + 1);
  for (let i = 0; i < n; i++) {
    const r = rows[i];
    let p = Number.isInteger(r.parent) && r.parent >= 0 && r.parent < i ? r.parent : -1;
    // a parent whose subtree ended before this row is not its parent: walk up to one that still contains it
    while (p >= 0 && end[p] <= i) p = parent[p];
    parent[i] = p;
    const limit = p >= 0 ? end[p] : n;
    const d = Number.isInteger(r.descendants) && r.descendants > 0 ? r.descendants : 0;
    descendants[i] = Math.min(d, limit - i - 1);
    end[i] = i + 1 + descendants[i];
    level[i] = p >= 0 ? level[p] + 1 : 0;
    const slot = p >= 0 ? p : n;
    posInSet[i] = ++childCount[slot];
  }
  for (let i = 0; i < n; i++) setSize[i] = childCount[parent[i] >= 0 ? parent[i] : n];
  // a row's subtree holds exactly the rows that name it (or a descendant) as parent: fix `descendants` to the rows
  // that really follow as children, so that collapsing hides what the tree shows below it
  for (let i = n - 1; i >= 0; i--) {
    let last = i;
    for (let j = i + 1; j < end[i]; j = end[j]) {
      if (parent[j] !== i) break;
      last = end[j] - 1;
    }
    descendants[i] = last - i;
    end[i] = last + 1;
  }
  return { count: n, parent, descendants, level, posInSet, setSize };
}

/** Whether the row has rows below it (can be expanded and collapsed). */
export function hasChildren(shape: TreeShape, row: number): boolean {
  return shape.descendants[row] > 0;
}

/**
 * The visible rows (positions in depth-first order) when the rows in `collapsed` are collapsed: a collapsed row
 * shows, its descendants do not. O(n): each row is looked at once, a collapsed subtree is skipped whole.
 */
export function visibleRows(shape: TreeShape, collapsed: ReadonlySet<number>): Int32Array {
  const out = new Int32Array(shape.count);
  let k = 0;
  for (let i = 0; i < shape.count; i++) {
    out[k++] = i;
    if (collapsed.size && shape.descendants[i] > 0 && collapsed.has(i)) i += shape.descendants[i];
  }
  return out.subarray(0, k);
}

/** Where each row is in `visible` (-1: hidden under a collapsed row). */
export function visibleIndex(shape: TreeShape, visible: Int32Array): Int32Array {
  const at = new Int32Array(shape.count).fill(-1);
  for (let k = 0; k < visible.length; k++) at[visible[k]] = k;
  return at;
}

/** Every row that has children (what "Collapse all" collapses). */
export function allCollapsible(shape: TreeShape): Set<number> {
  const s = new Set<number>();
  for (let i = 0; i < shape.count; i++) if (shape.descendants[i] > 0) s.add(i);
  return s;
}

/** The ancestors of a row, nearest first. */
export function ancestors(shape: TreeShape, row: number): number[] {
  const out: number[] = [];
  for (let p = shape.parent[row]; p >= 0; p = shape.parent[p]) out.push(p);
  return out;
}

/** Expands what hides `row` (removes its ancestors from `collapsed`); returns whether anything changed. */
export function reveal(shape: TreeShape, collapsed: Set<number>, row: number): boolean {
  let changed = false;
  for (const a of ancestors(shape, row)) changed = collapsed.delete(a) || changed;
  return changed;
}

/** The nearest visible row for `row`: itself, or the ancestor whose collapse hides it. */
export function visibleAncestor(shape: TreeShape, at: Int32Array, row: number): number {
  let r = row;
  while (r >= 0 && at[r] < 0) r = shape.parent[r];
  return r;
}

/** The rows a virtual list draws: [first, last] visible indexes (inclusive) with `overscan` rows either side. */
export function windowOf(
  scrollTop: number,
  viewHeight: number,
  rowHeight: number,
  count: number,
  overscan: number,
): { first: number; last: number } {
  if (count <= 0) return { first: 0, last: -1 };
  // a scroll position past the end (the list just shrank) shows the last rows
  const top = Math.max(0, Math.min(scrollTop, count * rowHeight - viewHeight));
  const first = Math.max(0, Math.min(count - 1, Math.floor(top / rowHeight) - overscan));
  const last = Math.min(count - 1, Math.ceil((top + Math.max(0, viewHeight)) / rowHeight) + overscan);
  return { first, last: Math.max(first, last) };
}

/** What a key does in the tree (role=tree keyboard pattern). */
export type TreeMove =
  | { kind: 'focus'; row: number }
  | { kind: 'expand'; row: number }
  | { kind: 'collapse'; row: number }
  | { kind: 'select'; row: number }
  | { kind: 'none' };

/**
 * The tree's keyboard: Up/Down move among visible rows, Right expands a collapsed row or moves to its first child,
 * Left collapses an expanded row or moves to its parent, Home/End go to the first/last visible row, PageUp/PageDown
 * move by `page` rows, Enter and Space select. `active` is the focused row (a position in the rows).
 */
export function keyMove(
  key: string,
  shape: TreeShape,
  collapsed: ReadonlySet<number>,
  visible: Int32Array,
  at: Int32Array,
  active: number,
  page: number,
): TreeMove {
  if (!visible.length) return { kind: 'none' };
  const cur = active >= 0 && active < shape.count && at[active] >= 0 ? at[active] : 0;
  const row = visible[cur];
  const to = (k: number): TreeMove => ({ kind: 'focus', row: visible[Math.max(0, Math.min(visible.length - 1, k))] });
  switch (key) {
    case 'ArrowDown':
      return to(cur + 1);
    case 'ArrowUp':
      return to(cur - 1);
    case 'Home':
      return to(0);
    case 'End':
      return to(visible.length - 1);
    case 'PageDown':
      return to(cur + Math.max(1, page));
    case 'PageUp':
      return to(cur - Math.max(1, page));
    case 'ArrowRight':
      if (!hasChildren(shape, row)) return { kind: 'none' };
      return collapsed.has(row) ? { kind: 'expand', row } : { kind: 'focus', row: row + 1 };
    case 'ArrowLeft':
      if (hasChildren(shape, row) && !collapsed.has(row)) return { kind: 'collapse', row };
      return shape.parent[row] >= 0 ? { kind: 'focus', row: shape.parent[row] } : { kind: 'none' };
    case 'Enter':
    case ' ':
      return { kind: 'select', row };
    default:
      return { kind: 'none' };
  }
}

/** Collapsed rows (positions) from the saved action indexes, and back. */
export function collapsedFromIndexes(
  rows: readonly { index: number }[],
  shape: TreeShape,
  indexes: readonly number[] | undefined,
): Set<number> {
  const out = new Set<number>();
  if (!indexes || !indexes.length) return out;
  const wanted = new Set(indexes);
  for (let i = 0; i < rows.length; i++) if (shape.descendants[i] > 0 && wanted.has(rows[i].index)) out.add(i);
  return out;
}

export function indexesOfCollapsed(rows: readonly { index: number }[], collapsed: ReadonlySet<number>): number[] {
  return [...collapsed]
    .filter((i) => i >= 0 && i < rows.length)
    .sort((a, b) => a - b)
    .map((i) => rows[i].index);
}
