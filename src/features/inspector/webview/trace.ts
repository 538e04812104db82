/**
 * The call trace: a virtualized tree (role=tree) of the transaction's call frames, and the selected frame's details.
 *
 * - Fixed row height; only the visible rows plus a small overscan exist in the DOM, absolutely placed inside a body
 *   as tall as all visible rows. Collapsing a frame hides its descendants through the visible-rows list
 *   (./traceTree.ts), recomputed in O(n); 5,000 frames scroll, collapse and expand like 50.
 * - Keyboard (the tree keeps the focus and moves an active row with aria-activedescendant): Up/Down, Left/Right
 *   (collapse / parent, expand / first child), Home/End, PageUp/PageDown, Enter or Space selects (the details show
 *   the selected frame).
 * - Failing frames carry the error colour and icon; the frames on the path to the deepest failure are highlighted.
 * - Every text from the model is set as text (dom.ts), never as HTML.
 */
import * as l10n from '@vscode/l10n';
import type { TraceRow } from '../../../api/inspect/model';
import { inert } from '../../../api/text';
import type { TraceModel } from '../protocol';
import { button, copyButton, entity, Fields, h, icon, rawBlock, span, valuesTable } from './dom';
import { callView, errorView } from './sections';
import { callText, entityText, hexBytes, isZero, resultText } from './format';
import {
  allCollapsible,
  keyMove,
  reveal,
  shapeOf,
  type TreeShape,
  visibleAncestor,
  visibleIndex,
  visibleRows,
  windowOf,
} from './traceTree';

export const ROW_H = 24;
const OVERSCAN = 10;
/** Indentation per level, and the deepest level indented (deeper frames say their depth in the tooltip). */
const INDENT = 14;
const MAX_INDENT_LEVELS = 32;

export interface TraceHooks {
  /** The collapsed rows changed (save them). */
  collapsedChanged(): void;
  /** Something was drawn that the `rendered` report counts. */
  drawn(): void;
}

const OPERATIONS = new Set([
  'CALL',
  'DELEGATECALL',
  'STATICCALL',
  'CALLCODE',
  'CREATE',
  'CREATE2',
  'PRECOMPILE',
  'SYSTEM',
]);

export class TraceView {
  readonly el: HTMLElement;
  private readonly viewport: HTMLElement;
  private readonly body: HTMLElement;
  private readonly details: HTMLElement;
  private readonly summary: HTMLElement;
  private readonly failureButton: HTMLButtonElement;
  private rows: TraceRow[] = [];
  private shape: TreeShape = shapeOf([]);
  private deepestFailure = -1;
  private collapsed = new Set<number>();
  private visible: Int32Array = new Int32Array(0);
  private at: Int32Array = new Int32Array(0);
  /** Rows in the DOM, by position in `rows`. */
  private readonly live = new Map<number, RowEls>();
  /** Row elements out of the DOM, ready for reuse (at most the most rows ever drawn at once). */
  private readonly pool: RowEls[] = [];
  /** Rows leaving the view in one render (kept to avoid an array per frame). */
  private readonly free: RowEls[] = [];
  /** Each row's texts, made once (see textsOf). */
  private texts: Array<RowTexts | undefined> = [];
  private textsGen = 0;
  private active = 0;
  private selected = -1;
  private frame = 0;
  private viewportH = 0;

  constructor(private readonly hooks: TraceHooks) {
    this.summary = h('span', 'trace-summary muted');
    this.failureButton = button(l10n.t('Go to failure'), () => this.goToFailure(), {
      icon: 'target',
      title: l10n.t('Reveal and select the deepest failing frame'),
    });
    const toolbar = h(
      'div',
      'toolbar trace-toolbar',
      button(l10n.t('Expand all'), () => this.setCollapsed(new Set()), {
        icon: 'expand-all',
        title: l10n.t('Expand every frame'),
      }),
      button(l10n.t('Collapse all'), () => this.setCollapsed(allCollapsible(this.shape)), {
        icon: 'collapse-all',
        title: l10n.t('Collapse every frame'),
      }),
      this.failureButton,
      this.summary,
    );
    const head = h(
      'div',
      'trow thead',
      h('div', 'tcall', l10n.t('Call')),
      h('div', 'tvalue', l10n.t('Value')),
      h('div', 'tgas', l10n.t('Gas used / gas')),
      h('div', 'tresult', l10n.t('Result')),
    );
    head.setAttribute('aria-hidden', 'true');
    this.body = h('div', 'tbody');
    this.body.setAttribute('role', 'presentation');
    this.viewport = h('div', 'tviewport', this.body);
    this.viewport.tabIndex = 0;
    this.viewport.setAttribute('role', 'tree');
    this.viewport.setAttribute('aria-label', l10n.t('Call trace'));
    this.details = h('div', 'tdetails');
    this.details.setAttribute('role', 'region');
    this.details.setAttribute('aria-label', l10n.t('Selected frame'));
    this.details.setAttribute('aria-live', 'polite');
    this.el = h('div', 'trace', toolbar, h('div', 'ttable', head, this.viewport), this.details);

    this.viewport.addEventListener('scroll', () => this.schedule(), { passive: true });
    this.viewport.addEventListener('keydown', (e) => this.onKey(e));
    this.viewport.addEventListener('click', (e) => this.onClick(e));
    this.viewport.addEventListener('dblclick', (e) => {
      const row = this.rowOf(e.target);
      if (row >= 0 && !(e.target as HTMLElement).closest('button')) this.toggle(row);
    });
    new ResizeObserver(() => this.schedule()).observe(this.viewport);
    window.addEventListener('resize', () => this.layout());
  }

  /** Rows in the model, and rows in the DOM. */
  get rowCount(): number {
    return this.rows.length;
  }
  get domRows(): number {
    return this.body.childElementCount;
  }

  /** The collapsed rows' action indexes (what the page saves). */
  collapsedIndexes(): number[] {
    return [...this.collapsed].sort((a, b) => a - b).map((i) => this.rows[i].index);
  }

  /** A new trace (or the same one again): `collapsed` are positions of rows to show collapsed. */
  setModel(model: TraceModel, collapsed: Set<number>): void {
    const same = this.rows.length === model.rows.length && this.rows.every((r, i) => r.index === model.rows[i].index);
    this.rows = model.rows;
    this.shape = shapeOf(model.rows);
    this.texts = new Array<RowTexts | undefined>(model.rows.length);
    this.deepestFailure =
      Number.isInteger(model.deepestFailure) && model.deepestFailure >= 0 && model.deepestFailure < model.rows.length
        ? model.deepestFailure
        : -1;
    this.collapsed = new Set(
      [...collapsed].filter((i) => i >= 0 && i < this.rows.length && this.shape.descendants[i] > 0),
    );
    this.clearRows();
    this.failureButton.hidden = this.deepestFailure < 0;
    let failed = 0;
    let deepest = 0;
    for (const r of this.rows) {
      if (r.failed) failed++;
      if (r.depth > deepest) deepest = r.depth;
    }
    const n = this.rows.length;
    this.summary.textContent = n
      ? `${n.toLocaleString('en-US')} frame${n === 1 ? '' : 's'} · depth ${deepest}${failed ? ` · ${failed.toLocaleString('en-US')} failed` : ''}`
      : '';
    this.recompute();
    if (!same || this.selected >= n) {
      // a failed transaction opens on its failure, selected and in the middle of the view; revealed unless the
      // user's collapsed frames were restored (those stay as they were left)
      this.selected = this.deepestFailure >= 0 ? this.deepestFailure : n ? 0 : -1;
      if (this.deepestFailure >= 0 && !this.collapsed.size && reveal(this.shape, this.collapsed, this.deepestFailure))
        this.recompute();
      this.active = n ? Math.max(0, visibleAncestor(this.shape, this.at, Math.max(0, this.selected))) : 0;
      this.layout();
      if (this.active > 0) this.scrollToRow(this.active, true);
    } else {
      this.active = n ? Math.max(0, visibleAncestor(this.shape, this.at, Math.min(this.active, n - 1))) : 0;
      this.layout();
    }
    this.render();
    this.showDetails();
    this.prepareTexts();
  }

  private recompute(): void {
    this.visible = visibleRows(this.shape, this.collapsed);
    this.at = visibleIndex(this.shape, this.visible);
    this.body.style.height = `${this.visible.length * ROW_H}px`;
    this.viewport.setAttribute('aria-rowcount', String(this.visible.length));
  }

  /** The viewport's height: all visible rows, up to 60% of the window (at least 10 rows). */
  private layout(): void {
    const max = Math.max(ROW_H * 10, Math.round((window.innerHeight * 0.6) / ROW_H) * ROW_H);
    const want = Math.max(ROW_H, Math.min(max, this.visible.length * ROW_H));
    if (want !== this.viewportH) {
      this.viewportH = want;
      this.viewport.style.height = `${want}px`;
    }
    this.schedule();
  }

  private setCollapsed(next: Set<number>): void {
    this.collapsed = next;
    this.structureChanged();
  }

  private toggle(row: number): void {
    if (this.shape.descendants[row] <= 0) return;
    if (this.collapsed.has(row)) this.collapsed.delete(row);
    else this.collapsed.add(row);
    this.structureChanged();
  }

  /** After a collapse or an expansion: the visible rows again, the active row kept visible, redrawn, saved. */
  private structureChanged(): void {
    this.recompute();
    const activeWas = this.active;
    this.active = Math.max(0, visibleAncestor(this.shape, this.at, this.active));
    this.clearRows();
    this.layout();
    if (this.active !== activeWas) this.scrollToRow(this.active, false);
    this.render();
    this.hooks.collapsedChanged();
    this.hooks.drawn();
  }

  private goToFailure(): void {
    const f = this.deepestFailure;
    if (f < 0) return;
    if (reveal(this.shape, this.collapsed, f)) this.structureChanged();
    this.active = f;
    this.select(f);
    this.scrollToRow(f, true);
    this.render();
    this.viewport.focus();
  }

  private schedule(): void {
    if (!this.frame)
      this.frame = requestAnimationFrame(() => {
        this.frame = 0;
        this.render();
      });
  }

  /** Every row out of the DOM, kept for reuse. */
  private clearRows(): void {
    for (const r of this.live.values()) {
      r.el.remove();
      this.pool.push(r);
    }
    this.live.clear();
  }

  /**
   * Draws the rows in view (plus overscan). A row that scrolled out is reused for one that scrolled in (its texts,
   * classes and attributes set again, the same elements moved): a scroll creates no elements and leaves no garbage
   * of its own, which keeps frames even while the webview's heap is busy.
   */
  render(): void {
    if (this.frame) {
      cancelAnimationFrame(this.frame);
      this.frame = 0;
    }
    const viewH = this.viewport.clientHeight || this.viewportH;
    const { first, last } = windowOf(this.viewport.scrollTop, viewH, ROW_H, this.visible.length, OVERSCAN);
    const free = this.free;
    this.live.forEach((r, row) => {
      const k = this.at[row];
      if (k < first || k > last) free.push(r);
    });
    for (const r of free) this.live.delete(r.row);
    let frag: DocumentFragment | undefined;
    for (let k = first; k <= last; k++) {
      const row = this.visible[k];
      if (this.live.has(row)) continue;
      let r = free.pop();
      if (!r) {
        r = this.pool.pop() ?? newRowEls();
        (frag ??= document.createDocumentFragment()).append(r.el);
      }
      this.fillRow(r, row, k);
      this.live.set(row, r);
    }
    for (const r of free) {
      r.el.remove();
      this.pool.push(r);
    }
    free.length = 0;
    if (frag) this.body.append(frag);
    this.updateActiveDescendant();
  }

  /** Row `i` of the model, at position `k` of the visible rows, written into the elements `r`. */
  private fillRow(r: RowEls, i: number, k: number): void {
    const t = this.textsOf(i);
    const hasKids = this.shape.descendants[i] > 0;
    const collapsed = hasKids && this.collapsed.has(i);
    const el = r.el;
    r.row = i;
    el.className = t.rowClass;
    if (i === this.selected) el.classList.add('selected');
    if (i === this.active) el.classList.add('active');
    el.id = t.id;
    el.dataset.row = t.row;
    el.setAttribute('aria-level', t.level);
    el.setAttribute('aria-setsize', t.setSize);
    el.setAttribute('aria-posinset', t.posInSet);
    el.setAttribute('aria-selected', i === this.selected ? 'true' : 'false');
    if (hasKids) el.setAttribute('aria-expanded', collapsed ? 'false' : 'true');
    else el.removeAttribute('aria-expanded');
    el.setAttribute('aria-label', t.label);
    el.style.transform = `translateY(${k * ROW_H}px)`;

    r.twisty.className = hasKids ? (collapsed ? TWISTY_COLLAPSED : TWISTY_EXPANDED) : 'twisty';
    r.main.style.paddingLeft = t.indent;
    setTitle(r, 0, r.main, t.depthTitle);
    r.failIcon.hidden = !t.failed;
    r.op.className = t.opClass;
    setText(r, 0, r.op, t.op);
    setTitle(r, 1, r.op, t.opTitle);
    r.caller.className = t.callerClass;
    setText(r, 1, r.caller, t.caller);
    setTitle(r, 2, r.caller, t.callerTitle);
    r.recipient.className = t.recipientClass;
    setText(r, 2, r.recipient, t.recipient);
    setTitle(r, 3, r.recipient, t.recipientTitle);
    r.fn.hidden = !t.fn;
    if (t.fn) {
      r.fn.className = t.fnClass;
      setText(r, 3, r.fn, t.fn);
      setTitle(r, 4, r.fn, t.fnTitle);
    }
    setText(r, 4, r.value, t.value);
    setTitle(r, 5, r.value, t.valueTitle);
    setText(r, 5, r.gas, t.gas);
    setTitle(r, 6, r.gas, t.gasTitle);
    r.res.className = t.resultClass;
    setText(r, 6, r.res, t.result);
    setTitle(r, 7, r.res, t.result);
  }

  /** The texts of row `i`, made once (when first drawn, or ahead of time while the page is idle). */
  private textsOf(i: number): RowTexts {
    return (this.texts[i] ??= rowTexts(this.rows[i], i, this.shape));
  }

  /** Prepares the rows' texts in idle time, a slice at a time, so that scrolling only moves and fills elements. */
  private prepareTexts(): void {
    const gen = ++this.textsGen;
    let next = 0;
    const step = (deadline?: IdleDeadline): void => {
      if (gen !== this.textsGen) return;
      const until = performance.now() + 8;
      const timed = !deadline || deadline.didTimeout;
      while (next < this.rows.length && (timed ? performance.now() < until : deadline.timeRemaining() > 1))
        this.textsOf(next++);
      if (next < this.rows.length) idle(step);
    };
    idle(step);
  }

  private rowOf(target: EventTarget | null): number {
    const el = (target as HTMLElement | null)?.closest?.('.trow[data-row]') as HTMLElement | null;
    return el ? Number(el.dataset.row) : -1;
  }

  private onClick(e: MouseEvent): void {
    const row = this.rowOf(e.target);
    if (row < 0) return;
    if ((e.target as HTMLElement).closest('.twisty')) {
      this.setActive(row, false);
      this.toggle(row);
      return;
    }
    this.setActive(row, false);
    this.select(row);
  }

  private onKey(e: KeyboardEvent): void {
    if (e.altKey || e.ctrlKey || e.metaKey) return;
    const page = Math.max(1, Math.floor((this.viewport.clientHeight || this.viewportH) / ROW_H) - 1);
    const move = keyMove(e.key, this.shape, this.collapsed, this.visible, this.at, this.active, page);
    switch (move.kind) {
      case 'none':
        return;
      case 'focus':
        this.setActive(move.row, true);
        break;
      case 'expand':
        this.collapsed.delete(move.row);
        this.structureChanged();
        break;
      case 'collapse':
        this.collapsed.add(move.row);
        this.structureChanged();
        break;
      case 'select':
        this.select(move.row);
        break;
    }
    e.preventDefault();
  }

  private setActive(row: number, scroll: boolean): void {
    this.live.get(this.active)?.el.classList.remove('active');
    this.active = row;
    if (scroll) this.scrollToRow(row, false);
    this.render();
    this.live.get(row)?.el.classList.add('active');
    this.updateActiveDescendant();
  }

  private updateActiveDescendant(): void {
    if (this.visible.length && this.live.has(this.active))
      this.viewport.setAttribute('aria-activedescendant', `tr-${this.active}`);
    else this.viewport.removeAttribute('aria-activedescendant');
  }

  /** Scrolls the viewport so that `row` is in view (in the middle when `center`). */
  private scrollToRow(row: number, center: boolean): void {
    const k = this.at[row];
    if (k === undefined || k < 0) return;
    const viewH = this.viewport.clientHeight || this.viewportH;
    const y = k * ROW_H;
    if (center) this.viewport.scrollTop = Math.max(0, y - Math.floor((viewH - ROW_H) / 2));
    else if (y < this.viewport.scrollTop) this.viewport.scrollTop = y;
    else if (y + ROW_H > this.viewport.scrollTop + viewH) this.viewport.scrollTop = y + ROW_H - viewH;
  }

  private select(row: number): void {
    const prev = this.live.get(this.selected)?.el;
    if (prev) {
      prev.classList.remove('selected');
      prev.setAttribute('aria-selected', 'false');
    }
    this.selected = row;
    const el = this.live.get(row)?.el;
    if (el) {
      el.classList.add('selected');
      el.setAttribute('aria-selected', 'true');
    }
    this.showDetails();
  }

  /** The selected frame in full: who, value, gas, the call with every argument, the result, the raw data. */
  private showDetails(): void {
    const r = this.rows[this.selected];
    if (!r) {
      this.details.replaceChildren();
      this.details.hidden = true;
      return;
    }
    this.details.hidden = false;
    const op = r.operation || r.callType || '?';
    const title = h(
      'h3',
      'details-head',
      r.failed ? icon('error', 'failed') : icon('debug-stackframe-dot', 'muted'),
      span('', l10n.t('Frame {0} of {1}', this.selected + 1, this.rows.length)),
      span('muted', ` · action ${r.index} · depth ${r.depth}`),
    );
    const f = new Fields();
    f.add(
      l10n.t('Operation'),
      span(`op op-${OPERATIONS.has(op) ? op.toLowerCase() : 'other'}`, op),
      r.callType && r.callType !== op ? span('muted', ` call type ${r.callType}`) : null,
    );
    f.add(l10n.t('Caller'), entity(r.caller, 'account'));
    f.add(l10n.t('Recipient'), entity(r.recipient, 'contract'));
    f.add(
      l10n.t('Value'),
      h(
        'span',
        'amount',
        span('mono', r.value.hbar),
        ' ',
        span('muted', `(${r.value.tinybars} tinybars)`),
        copyButton(r.value.tinybars, 'value in tinybars'),
      ),
    );
    f.add(
      l10n.t('Gas'),
      h(
        'span',
        '',
        span('mono', r.gasUsed),
        copyButton(r.gasUsed, 'gas used'),
        span('muted', ' used of '),
        span('mono', r.gas),
        copyButton(r.gas, 'gas'),
      ),
    );
    if (r.timestamp) f.add(l10n.t('Timestamp'), span('mono', r.timestamp), copyButton(r.timestamp, 'timestamp'));
    if (r.call) f.add(l10n.t('Call'), callView(r.call));
    if (r.input !== undefined && r.input !== '' && hexBytes(r.input) !== 0)
      f.add(r.call ? l10n.t('Input (raw)') : 'Input', rawBlock(r.input, 'call data'));
    else if (!r.call) f.add(l10n.t('Input'), span('muted', l10n.t('(no call data)')));
    const res = f.add(l10n.t('Result'), span(r.failed ? 'mono failed' : 'mono', r.resultType || l10n.t('(none)')));
    if (r.error) res.append(errorView(r.error));
    if (r.output && r.output.length) f.add(l10n.t('Output'), valuesTable(r.output, l10n.t('Return values')));
    if (r.resultRaw !== undefined && r.resultRaw !== '' && hexBytes(r.resultRaw) !== 0)
      f.add(l10n.t('Result (raw)'), rawBlock(r.resultRaw, 'result data'));
    const actions = h('div', 'toolbar');
    if (this.rows.length > 1 && this.shape.parent[this.selected] >= 0) {
      const parent = this.shape.parent[this.selected];
      actions.append(
        button(
          l10n.t('Parent frame'),
          () => {
            if (reveal(this.shape, this.collapsed, parent)) this.structureChanged();
            this.setActive(parent, true);
            this.select(parent);
          },
          { icon: 'arrow-up', title: l10n.t('Select the calling frame') },
        ),
      );
    }
    this.details.replaceChildren(title, f.el, actions);
  }
}

/** The elements of one trace row, made once and filled again for whichever row it shows. */
interface RowEls {
  /** The model row shown (-1 for none yet). */
  row: number;
  el: HTMLElement;
  main: HTMLElement;
  twisty: HTMLSpanElement;
  failIcon: HTMLSpanElement;
  op: HTMLSpanElement;
  caller: HTMLSpanElement;
  recipient: HTMLSpanElement;
  fn: HTMLSpanElement;
  value: HTMLElement;
  gas: HTMLElement;
  res: HTMLElement;
  /** The text last set in each text slot (op, caller, recipient, fn, value, gas, result). */
  shown: string[];
  /** The tooltip last set on each element with one (main, op, caller, recipient, fn, value, gas, result). */
  titles: string[];
}

/** What a row shows, every untrusted text already made inert (invisible and reordering characters shown). */
interface RowTexts {
  id: string;
  row: string;
  level: string;
  setSize: string;
  posInSet: string;
  rowClass: string;
  label: string;
  failed: boolean;
  indent: string;
  depthTitle: string;
  op: string;
  opClass: string;
  opTitle: string;
  caller: string;
  callerClass: string;
  callerTitle: string;
  recipient: string;
  recipientClass: string;
  recipientTitle: string;
  fn: string;
  fnClass: string;
  fnTitle: string;
  value: string;
  valueTitle: string;
  gas: string;
  gasTitle: string;
  result: string;
  resultClass: string;
}

const TWISTY_COLLAPSED = 'codicon codicon-chevron-right twisty';
const TWISTY_EXPANDED = 'codicon codicon-chevron-down twisty';

function rowTexts(r: TraceRow, i: number, shape: TreeShape): RowTexts {
  const level = shape.level[i];
  const below = shape.descendants[i];
  const call = callText(r);
  const result = resultText(r);
  // a precompile or system call shows as such (its operation is CALL/STATICCALL): the badge says what it reached
  const op = r.callType === 'PRECOMPILE' || r.callType === 'SYSTEM' ? r.callType : r.operation || r.callType || '?';
  const label = `${op} ${entityText(r.caller)} to ${entityText(r.recipient)}${call ? ` ${call}` : ''}${r.failed ? `, failed${result ? `: ${result}` : ''}` : result ? `, returned ${result}` : ''}${below > 0 ? `, ${below} frames below` : ''}`;
  const zero = isZero(r.value.tinybars);
  const who = (e: TraceRow['caller'], role: string) => ({
    text: inert(entityText(e), 'text'),
    cls: `who ${role}${e.name ? ' named' : ''}`,
    title: inert([e.name, e.id, e.evm].filter(Boolean).join(' · ') || '(unknown)', 'text'),
  });
  const caller = who(r.caller, 'caller');
  const recipient = who(r.recipient, 'recipient');
  return {
    id: `tr-${i}`,
    row: String(i),
    level: String(level + 1),
    setSize: String(shape.setSize[i]),
    posInSet: String(shape.posInSet[i]),
    rowClass: `trow${r.failed ? ' failed' : ''}${r.onFailurePath ? ' onpath' : ''}`,
    label: inert(label, 'label', { max: 400 }),
    failed: r.failed,
    indent: `${4 + Math.min(level, MAX_INDENT_LEVELS) * INDENT}px`,
    depthTitle: level > MAX_INDENT_LEVELS ? `depth ${level}` : '',
    op: inert(op, 'text'),
    opClass: `op op-${OPERATIONS.has(op) ? op.toLowerCase() : 'other'}`,
    opTitle: inert(
      op !== r.operation && r.operation
        ? `${op} (operation ${r.operation})`
        : r.callType && r.callType !== op
          ? `${op} (call type ${r.callType})`
          : op,
      'text',
    ),
    caller: caller.text,
    callerClass: caller.cls,
    callerTitle: caller.title,
    recipient: recipient.text,
    recipientClass: recipient.cls,
    recipientTitle: recipient.title,
    fn: inert(call, 'text'),
    fnClass: r.call ? 'fn mono' : 'fn mono raw-call',
    fnTitle: inert(r.call ? r.call.signature : (r.input ?? call), 'text'),
    value: zero ? '' : inert(r.value.hbar, 'text'),
    valueTitle: zero ? '' : inert(`${r.value.hbar} (${r.value.tinybars} tinybars)`, 'text'),
    gas: inert(`${r.gasUsed} / ${r.gas}`, 'text'),
    gasTitle: inert(`gas used ${r.gasUsed} of ${r.gas}`, 'text'),
    result: inert(result, 'text'),
    resultClass: `tresult mono${r.failed ? ' failed' : ''}`,
  };
}

function newRowEls(): RowEls {
  const twisty = h('span', 'twisty');
  twisty.setAttribute('aria-hidden', 'true');
  const failIcon = icon('error', 'failed');
  const op = h('span', 'op');
  const caller = h('span', 'who caller');
  const recipient = h('span', 'who recipient');
  const fn = h('span', 'fn mono');
  const main = h('div', 'tcall', twisty, failIcon, op, caller, span('arrow muted', '→'), recipient, fn);
  const value = h('div', 'tvalue mono');
  const gas = h('div', 'tgas mono');
  const res = h('div', 'tresult mono');
  const el = h('div', 'trow', main, value, gas, res);
  el.setAttribute('role', 'treeitem');
  return {
    row: -1,
    el,
    main,
    twisty,
    failIcon,
    op,
    caller,
    recipient,
    fn,
    value,
    gas,
    res,
    shown: ['', '', '', '', '', '', ''],
    titles: ['', '', '', '', '', '', '', ''],
  };
}

/** A prepared (inert) text into text slot `slot` of a row: its one text node changed in place, nothing new made. */
function setText(r: RowEls, slot: number, e: HTMLElement, value: string): void {
  if (r.shown[slot] === value && (value === '' || e.firstChild)) return;
  r.shown[slot] = value;
  const node = e.firstChild;
  if (node && node.nodeType === Node.TEXT_NODE && !node.nextSibling) (node as Text).data = value;
  else e.textContent = value;
}

/** A prepared (inert) tooltip in tooltip slot `slot` of a row, or none for ''. */
function setTitle(r: RowEls, slot: number, e: HTMLElement, value: string): void {
  if (r.titles[slot] === value) return;
  r.titles[slot] = value;
  if (value) e.title = value;
  else e.removeAttribute('title');
}

/** Work for when the page is idle (a timeout where requestIdleCallback is missing). */
function idle(fn: (deadline?: IdleDeadline) => void): void {
  if (typeof requestIdleCallback === 'function') requestIdleCallback(fn, { timeout: 1000 });
  else setTimeout(fn, 16);
}
