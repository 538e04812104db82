/**
 * The transaction inspector page, its DOM-free parts: the call trace as a collapsible tree (visible rows, sibling
 * positions, the virtual list's window, the keyboard, saved collapsed frames) and the page's text helpers.
 */
import * as assert from 'assert';
import type { StateChangeView } from '../../src/api/inspect/model';
import {
  barWidth,
  callText,
  entityText,
  groupStateChanges,
  hexBytes,
  percentText,
  resultText,
  shortHex,
} from '../../src/features/inspector/webview/format';
import {
  allCollapsible,
  ancestors,
  collapsedFromIndexes,
  indexesOfCollapsed,
  keyMove,
  reveal,
  shapeOf,
  type TreeRowLike,
  visibleAncestor,
  visibleIndex,
  visibleRows,
  windowOf,
} from '../../src/features/inspector/webview/traceTree';

/** Rows (depth-first, parent and descendants) from a list of depths, as the extension flattens `actions`. */
function fromDepths(depths: number[]): (TreeRowLike & { index: number; depth: number })[] {
  const rows = depths.map((depth, i) => ({ index: i, depth, parent: -1, descendants: 0 }));
  const stack: number[] = [];
  for (let i = 0; i < rows.length; i++) {
    while (stack.length && rows[stack[stack.length - 1]].depth >= rows[i].depth) stack.pop();
    rows[i].parent = stack.length ? stack[stack.length - 1] : -1;
    stack.push(i);
  }
  for (let i = rows.length - 1; i >= 0; i--)
    if (rows[i].parent >= 0) rows[rows[i].parent].descendants += rows[i].descendants + 1;
  return rows;
}

/** The visible rows by brute force: a row shows when no ancestor is collapsed. */
function visibleByAncestors(rows: TreeRowLike[], collapsed: Set<number>): number[] {
  const out: number[] = [];
  for (let i = 0; i < rows.length; i++) {
    let p = rows[i].parent;
    let hidden = false;
    while (p >= 0) {
      if (collapsed.has(p)) {
        hidden = true;
        break;
      }
      p = rows[p].parent;
    }
    if (!hidden) out.push(i);
  }
  return out;
}

//    0
//    ├ 1
//    │ ├ 2
//    │ └ 3
//    │   └ 4
//    └ 5
//  6 (a second top-level frame)
const DEPTHS = [0, 1, 2, 2, 3, 1, 0];

describe('inspector page: trace tree', () => {
  it('shape: levels, parents and sibling positions from the rows', () => {
    const s = shapeOf(fromDepths(DEPTHS));
    assert.deepStrictEqual([...s.level], [0, 1, 2, 2, 3, 1, 0]);
    assert.deepStrictEqual([...s.parent], [-1, 0, 1, 1, 3, 0, -1]);
    assert.deepStrictEqual([...s.descendants], [5, 3, 0, 1, 0, 0, 0]);
    assert.deepStrictEqual([...s.posInSet], [1, 1, 1, 2, 1, 2, 2]);
    assert.deepStrictEqual([...s.setSize], [2, 2, 2, 2, 1, 2, 2]);
  });

  it('visible rows: a collapsed frame shows, its descendants do not; nested collapses too', () => {
    const rows = fromDepths(DEPTHS);
    const s = shapeOf(rows);
    assert.deepStrictEqual([...visibleRows(s, new Set())], [0, 1, 2, 3, 4, 5, 6]);
    assert.deepStrictEqual([...visibleRows(s, new Set([1]))], [0, 1, 5, 6]);
    assert.deepStrictEqual([...visibleRows(s, new Set([3]))], [0, 1, 2, 3, 5, 6]);
    assert.deepStrictEqual([...visibleRows(s, new Set([0, 3]))], [0, 6]);
    // a leaf in the set changes nothing
    assert.deepStrictEqual([...visibleRows(s, new Set([2, 4]))], [0, 1, 2, 3, 4, 5, 6]);
    const v = visibleRows(s, new Set([1]));
    assert.deepStrictEqual([...visibleIndex(s, v)], [0, 1, -1, -1, -1, 2, 3]);
  });

  it('visible rows of a random 5,000-frame trace match the definition, for random collapsed sets', () => {
    let seed = 7;
    const rand = () => {
      seed = (seed * 1103515245 + 12345) % 2147483648;
      return seed / 2147483648;
    };
    const depths = [0];
    for (let i = 1; i < 5000; i++)
      depths.push(Math.max(0, Math.min(depths[i - 1] + 1, Math.floor(rand() * (depths[i - 1] + 2)))));
    const rows = fromDepths(depths);
    const s = shapeOf(rows);
    assert.deepStrictEqual(
      [...s.descendants],
      rows.map((r) => r.descendants),
      'well-formed rows are kept as they are',
    );
    for (let round = 0; round < 20; round++) {
      const collapsed = new Set<number>();
      for (let i = 0; i < rows.length; i++) if (rows[i].descendants && rand() < 0.05 * round) collapsed.add(i);
      assert.deepStrictEqual([...visibleRows(s, collapsed)], visibleByAncestors(rows, collapsed), `round ${round}`);
    }
    assert.deepStrictEqual(
      [...visibleRows(s, allCollapsible(s))],
      rows.flatMap((r, i) => (r.parent < 0 ? [i] : [])),
    );
  });

  // its time per toggle (target: well under a frame) is a figure of `npm run bench` (test/bench/scale.mjs)
  it('collapsing and expanding 5,000 frames: all, none and every frame at depth 1, as the brute force finds them', () => {
    const rows = fromDepths(Array.from({ length: 5000 }, (_, i) => (i === 0 ? 0 : 1 + (i % 7))));
    const s = shapeOf(rows);
    const all = allCollapsible(s);
    const depthOne = new Set(rows.flatMap((r, i) => (r.depth === 1 ? [i] : [])));
    for (const collapsed of [all, new Set<number>(), depthOne, all, new Set<number>()]) {
      const v = visibleRows(s, collapsed);
      assert.deepStrictEqual([...v], visibleByAncestors(rows, collapsed), `${collapsed.size} collapsed`);
      const at = visibleIndex(s, v);
      v.forEach((row, k) => assert.strictEqual(at[row], k));
      assert.strictEqual(at.filter((k) => k >= 0).length, v.length, 'every other row is hidden (-1)');
    }
    assert.deepStrictEqual([...visibleRows(s, all)], [0], 'all collapsed: the root alone');
    assert.strictEqual(visibleRows(s, new Set()).length, 5000, 'none collapsed: every frame');
  });

  it('a malformed trace is clamped, never followed out of bounds', () => {
    const bad: TreeRowLike[] = [
      { parent: -1, descendants: 99 }, // runs past the end
      { parent: 5, descendants: 0 }, // a parent after the row
      { parent: 0, descendants: -3 },
      { parent: 0, descendants: 1.5 },
      { parent: 2, descendants: 0 }, // row 2 has no descendants: its child cannot be inside it
    ];
    const s = shapeOf(bad);
    for (let i = 0; i < bad.length; i++) {
      assert.ok(s.parent[i] < i, `parent of ${i}`);
      assert.ok(i + s.descendants[i] < bad.length, `descendants of ${i}`);
    }
    assert.ok(visibleRows(s, allCollapsible(s)).length >= 1);
    assert.strictEqual(shapeOf([]).count, 0);
    assert.deepStrictEqual([...visibleRows(shapeOf([]), new Set())], []);
  });

  it('reveal expands the ancestors; visibleAncestor finds what shows for a hidden row', () => {
    const s = shapeOf(fromDepths(DEPTHS));
    assert.deepStrictEqual(ancestors(s, 4), [3, 1, 0]);
    const collapsed = new Set([0, 3]);
    const at = visibleIndex(s, visibleRows(s, collapsed));
    assert.strictEqual(visibleAncestor(s, at, 4), 0);
    assert.strictEqual(visibleAncestor(s, at, 6), 6);
    assert.strictEqual(reveal(s, collapsed, 4), true);
    assert.deepStrictEqual([...collapsed], []);
    assert.strictEqual(reveal(s, collapsed, 4), false);
  });

  it('the virtual window: rows in view plus overscan, clamped to the list', () => {
    assert.deepStrictEqual(windowOf(0, 240, 24, 5000, 10), { first: 0, last: 20 });
    assert.deepStrictEqual(windowOf(24 * 1000, 240, 24, 5000, 10), { first: 990, last: 1020 });
    assert.deepStrictEqual(
      windowOf(24 * 5000, 240, 24, 5000, 10),
      { first: 4980, last: 4999 },
      'past the end: the last rows',
    );
    assert.deepStrictEqual(windowOf(0, 0, 24, 3, 10), { first: 0, last: 2 });
    assert.deepStrictEqual(windowOf(100, 240, 24, 0, 10), { first: 0, last: -1 });
    // bounded whatever the list's length: the DOM holds view + 2 × overscan rows at most
    const w = windowOf(12345, 552, 24, 1_000_000, 10);
    assert.ok(w.last - w.first + 1 <= Math.ceil(552 / 24) + 2 + 20, `${w.last - w.first + 1} rows`);
  });

  it('keyboard: up/down among visible rows, right expands or enters, left collapses or leaves, home/end, enter selects', () => {
    const s = shapeOf(fromDepths(DEPTHS));
    const collapsed = new Set<number>([3]);
    const v = visibleRows(s, collapsed);
    const at = visibleIndex(s, v);
    const key = (k: string, active: number) => keyMove(k, s, collapsed, v, at, active, 3);
    assert.deepStrictEqual(key('ArrowDown', 3), { kind: 'focus', row: 5 }, 'skips the hidden row 4');
    assert.deepStrictEqual(key('ArrowUp', 5), { kind: 'focus', row: 3 });
    assert.deepStrictEqual(key('ArrowUp', 0), { kind: 'focus', row: 0 });
    assert.deepStrictEqual(key('ArrowDown', 6), { kind: 'focus', row: 6 });
    assert.deepStrictEqual(key('ArrowRight', 3), { kind: 'expand', row: 3 });
    assert.deepStrictEqual(key('ArrowRight', 1), { kind: 'focus', row: 2 });
    assert.deepStrictEqual(key('ArrowRight', 2), { kind: 'none' });
    assert.deepStrictEqual(key('ArrowLeft', 1), { kind: 'collapse', row: 1 });
    assert.deepStrictEqual(key('ArrowLeft', 3), { kind: 'focus', row: 1 }, 'collapsed: to the parent');
    assert.deepStrictEqual(key('ArrowLeft', 2), { kind: 'focus', row: 1 }, 'leaf: to the parent');
    assert.deepStrictEqual(key('ArrowLeft', 6), { kind: 'none' }, 'a top-level leaf stays');
    assert.deepStrictEqual(key('Home', 5), { kind: 'focus', row: 0 });
    assert.deepStrictEqual(key('End', 0), { kind: 'focus', row: 6 });
    assert.deepStrictEqual(key('PageDown', 0), { kind: 'focus', row: 3 });
    assert.deepStrictEqual(key('PageUp', 6), { kind: 'focus', row: 2 });
    assert.deepStrictEqual(key('Enter', 5), { kind: 'select', row: 5 });
    assert.deepStrictEqual(key(' ', 5), { kind: 'select', row: 5 });
    assert.deepStrictEqual(key('x', 5), { kind: 'none' });
    // an active row hidden by a collapse counts as the first visible row, never out of bounds
    assert.deepStrictEqual(key('ArrowDown', 4), { kind: 'focus', row: 1 });
    assert.deepStrictEqual(keyMove('ArrowDown', shapeOf([]), new Set(), new Int32Array(0), new Int32Array(0), 0, 3), {
      kind: 'none',
    });
  });

  it('collapsed frames saved as action indexes and read back (unknown indexes and leaves dropped)', () => {
    const rows = fromDepths(DEPTHS).map((r, i) => ({ ...r, index: 100 + i }));
    const s = shapeOf(rows);
    const set = collapsedFromIndexes(rows, s, [101, 103, 104, 999]);
    assert.deepStrictEqual([...set].sort(), [1, 3]);
    assert.deepStrictEqual(indexesOfCollapsed(rows, set), [101, 103]);
    assert.deepStrictEqual([...collapsedFromIndexes(rows, s, undefined)], []);
  });
});

describe('inspector page: text helpers', () => {
  it('shortHex keeps short values and anything not hex whole', () => {
    assert.strictEqual(shortHex('0x1234'), '0x1234');
    assert.strictEqual(shortHex(`0x${'ab'.repeat(32)}`), `0x${'ab'.repeat(5)}…${'ab'.repeat(4)}`);
    assert.strictEqual(
      shortHex('115792089237316195423570985008687907853269984665640564039457584007913129639935'),
      '115792089237316195423570985008687907853269984665640564039457584007913129639935',
    );
    assert.strictEqual(shortHex('0xnothex0000000000000000000000000000000'), '0xnothex0000000000000000000000000000000');
  });

  it('bytes, bar width and percentages', () => {
    assert.strictEqual(hexBytes('0x'), 0);
    assert.strictEqual(hexBytes('0xa9059cbb'), 4);
    assert.strictEqual(hexBytes('not hex'), undefined);
    assert.strictEqual(barWidth(0.8041), '80.4%');
    assert.strictEqual(barWidth(2), '100%');
    assert.strictEqual(barWidth(Number.NaN), '0%');
    assert.strictEqual(percentText(0.0001), '<0.1%');
    assert.strictEqual(percentText(0), '0%');
  });

  it('a trace row on one line: decoded call or selector and size; error, output or raw result', () => {
    const call = {
      name: 'transfer',
      signature: 'transfer(address,uint256)',
      selector: '0xa9059cbb',
      source: 'ERC-20',
      args: [
        { name: 'to', type: 'address', value: '0x00000000000000000000000000000000000004d2' },
        { name: 'amount', type: 'uint256', value: '340282366920938463463374607431768211456' },
      ],
    };
    assert.strictEqual(
      callText({ call }),
      'transfer(to=0x00000000000000000000000000000000000004d2, amount=340282366920938463463374607431768211456)',
    );
    assert.strictEqual(callText({ input: `0xa9059cbb${'00'.repeat(64)}` }), '0xa9059cbb… (68 bytes)');
    assert.strictEqual(callText({ input: '0x' }), '');
    assert.strictEqual(resultText({ failed: true, error: { kind: 'error', text: 'Error("no")' } }), 'Error("no")');
    assert.strictEqual(resultText({ failed: false, output: [{ name: '', type: 'bool', value: 'true' }] }), 'true');
    assert.strictEqual(resultText({ failed: true, resultRaw: '0x' }), '(reverted, no data)');
    assert.strictEqual(
      resultText({ failed: false, resultRaw: `0x${'00'.repeat(31)}01` }),
      `0x${'00'.repeat(5)}…${'00'.repeat(3)}01 (32 bytes)`,
    );
  });

  it('entities on one line, and state changes grouped by contract in order of appearance', () => {
    assert.strictEqual(entityText({ id: '0.0.5', name: 'Vault' }), 'Vault 0.0.5');
    assert.strictEqual(entityText({ evm: '0x5a1b2c3d4e5f60718293a4b5c6d7e8f901234567' }), '0x5a1b2c…4567');
    assert.strictEqual(entityText({}), '(unknown)');
    const ch = (id: string, slot: string, named: boolean): StateChangeView => ({
      contract: { id },
      slot,
      read: '0x0',
      written: '0x1',
      variable: named ? { label: 'x', type: 'uint256', layoutSource: 'workspace' } : undefined,
    });
    const groups = groupStateChanges([
      ch('0.0.9', '0x1', false),
      ch('0.0.5', '0x1', true),
      ch('0.0.9', '0x2', false),
      ch('0.0.5', '0x2', false),
    ]);
    assert.deepStrictEqual(
      groups.map((g) => [g.contract.id, g.changes.map((c) => c.slot), g.hasLayout]),
      [
        ['0.0.9', ['0x1', '0x2'], false],
        ['0.0.5', ['0x1', '0x2'], true],
      ],
    );
    // a slot only read, its packed variables named (no `variable`: none changed): the contract has a layout
    const packed: StateChangeView = {
      contract: { id: '0.0.7' },
      slot: '0x0',
      read: '0x1',
      variables: [
        { label: 'a', type: 'uint8', before: '1', layoutSource: 'workspace' },
        { label: 'b', type: 'bool', before: 'false', layoutSource: 'workspace' },
      ],
    };
    assert.deepStrictEqual(
      groupStateChanges([packed]).map((g) => g.hasLayout),
      [true],
    );
  });
});
