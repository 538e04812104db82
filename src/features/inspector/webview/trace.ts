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
import type { TraceRow } from '../../../api/inspect/model';
import { inert } from '../../../api/text';
import type { TraceModel } from '../protocol';
import { button, copyButton, entity, Fields, h, icon, rawBlock, span, valuesTable } from './dom';
import { callView, errorView } from './sections';
import { callText, entityText, hexBytes, isZero, resultText } from './format';
import { allCollapsible, keyMove, reveal, shapeOf, type TreeShape, visibleAncestor, visibleIndex, visibleRows, windowOf } from './traceTree';

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

const OPERATIONS = new Set(['CALL', 'DELEGATECALL', 'STATICCALL', 'CALLCODE', 'CREATE', 'CREATE2', 'PRECOMPILE', 'SYSTEM']);

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
  private readonly live = new Map<number, HTMLElement>();
  private active = 0;
  private selected = -1;
  private frame = 0;
  private viewportH = 0;

  constructor(private readonly hooks: TraceHooks) {
    this.summary = h('span', 'trace-summary muted');
    this.failureButton = button('Go to failure', () => this.goToFailure(), { icon: 'target', title: 'Reveal and select the deepest failing frame' });
    const toolbar = h('div', 'toolbar trace-toolbar',
      button('Expand all', () => this.setCollapsed(new Set()), { icon: 'expand-all', title: 'Expand every frame' }),
      button('Collapse all', () => this.setCollapsed(allCollapsible(this.shape)), { icon: 'collapse-all', title: 'Collapse every frame' }),
      this.failureButton, this.summary);
    const head = h('div', 'trow thead', h('div', 'tcall', 'Call'), h('div', 'tvalue', 'Value'), h('div', 'tgas', 'Gas used / gas'), h('div', 'tresult', 'Result'));
    head.setAttribute('aria-hidden', 'true');
    this.body = h('div', 'tbody');
    this.body.setAttribute('role', 'presentation');
    this.viewport = h('div', 'tviewport', this.body);
    this.viewport.tabIndex = 0;
    this.viewport.setAttribute('role', 'tree');
    this.viewport.setAttribute('aria-label', 'Call trace');
    this.details = h('div', 'tdetails');
    this.details.setAttribute('role', 'region');
    this.details.setAttribute('aria-label', 'Selected frame');
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
  get rowCount(): number { return this.rows.length; }
  get domRows(): number { return this.body.childElementCount; }

  /** The collapsed rows' action indexes (what the page saves). */
  collapsedIndexes(): number[] {
    return [...this.collapsed].sort((a, b) => a - b).map((i) => this.rows[i].index);
  }

  /** A new trace (or the same one again): `collapsed` are positions of rows to show collapsed. */
  setModel(model: TraceModel, collapsed: Set<number>): void {
    const same = this.rows.length === model.rows.length && this.rows.every((r, i) => r.index === model.rows[i].index);
    this.rows = model.rows;
    this.shape = shapeOf(model.rows);
    this.deepestFailure = Number.isInteger(model.deepestFailure) && model.deepestFailure >= 0 && model.deepestFailure < model.rows.length ? model.deepestFailure : -1;
    this.collapsed = new Set([...collapsed].filter((i) => i >= 0 && i < this.rows.length && this.shape.descendants[i] > 0));
    this.clearRows();
    this.failureButton.hidden = this.deepestFailure < 0;
    let failed = 0;
    let deepest = 0;
    for (const r of this.rows) { if (r.failed) failed++; if (r.depth > deepest) deepest = r.depth; }
    const n = this.rows.length;
    this.summary.textContent = n ? `${n.toLocaleString('en-US')} frame${n === 1 ? '' : 's'} · depth ${deepest}${failed ? ` · ${failed.toLocaleString('en-US')} failed` : ''}` : '';
    this.recompute();
    if (!same || this.selected >= n) {
      // a failed transaction opens on its failure, selected and in the middle of the view; revealed unless the
      // user's collapsed frames were restored (those stay as they were left)
      this.selected = this.deepestFailure >= 0 ? this.deepestFailure : n ? 0 : -1;
      if (this.deepestFailure >= 0 && !this.collapsed.size && reveal(this.shape, this.collapsed, this.deepestFailure)) this.recompute();
      this.active = n ? Math.max(0, visibleAncestor(this.shape, this.at, Math.max(0, this.selected))) : 0;
      this.layout();
      if (this.active > 0) this.scrollToRow(this.active, true);
    } else {
      this.active = n ? Math.max(0, visibleAncestor(this.shape, this.at, Math.min(this.active, n - 1))) : 0;
      this.layout();
    }
    this.render();
    this.showDetails();
  }

  private recompute(): void {
    this.visible = visibleRows(this.shape, this.collapsed);
    this.at = visibleIndex(this.shape, this.visible);
    this.body.style.height = `${this.visible.length * ROW_H}px`;
    this.viewport.setAttribute('aria-rowcount', String(this.visible.length));
  }

  /** The viewport's height: all visible rows, up to 60% of the window (at least 10 rows). */
  private layout(): void {
    const max = Math.max(ROW_H * 10, Math.round(window.innerHeight * 0.6 / ROW_H) * ROW_H);
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
    if (!this.frame) this.frame = requestAnimationFrame(() => { this.frame = 0; this.render(); });
  }

  private clearRows(): void {
    for (const el of this.live.values()) el.remove();
    this.live.clear();
  }

  /** Draws the rows in view (plus overscan) and removes the others. */
  render(): void {
    if (this.frame) { cancelAnimationFrame(this.frame); this.frame = 0; }
    const viewH = this.viewport.clientHeight || this.viewportH;
    const { first, last } = windowOf(this.viewport.scrollTop, viewH, ROW_H, this.visible.length, OVERSCAN);
    for (const [row, el] of this.live) {
      const k = this.at[row];
      if (k < first || k > last) { el.remove(); this.live.delete(row); }
    }
    let frag: DocumentFragment | undefined;
    for (let k = first; k <= last; k++) {
      const row = this.visible[k];
      if (this.live.has(row)) continue;
      const el = this.buildRow(row, k);
      this.live.set(row, el);
      (frag ??= document.createDocumentFragment()).append(el);
    }
    if (frag) this.body.append(frag);
    this.updateActiveDescendant();
  }

  private buildRow(i: number, k: number): HTMLElement {
    const r = this.rows[i];
    const level = this.shape.level[i];
    const hasKids = this.shape.descendants[i] > 0;
    const collapsed = hasKids && this.collapsed.has(i);
    const el = h('div', `trow${r.failed ? ' failed' : ''}${r.onFailurePath ? ' onpath' : ''}${i === this.selected ? ' selected' : ''}${i === this.active ? ' active' : ''}`);
    el.id = `tr-${i}`;
    el.dataset.row = String(i);
    el.setAttribute('role', 'treeitem');
    el.setAttribute('aria-level', String(level + 1));
    el.setAttribute('aria-setsize', String(this.shape.setSize[i]));
    el.setAttribute('aria-posinset', String(this.shape.posInSet[i]));
    el.setAttribute('aria-selected', String(i === this.selected));
    if (hasKids) el.setAttribute('aria-expanded', String(!collapsed));
    el.style.transform = `translateY(${k * ROW_H}px)`;

    const call = callText(r);
    const result = resultText(r);
    // a precompile or system call shows as such (its operation is CALL/STATICCALL): the badge says what it reached
    const op = r.callType === 'PRECOMPILE' || r.callType === 'SYSTEM' ? r.callType : r.operation || r.callType || '?';
    const label = `${op} ${entityText(r.caller)} to ${entityText(r.recipient)}${call ? ` ${call}` : ''}${r.failed ? `, failed${result ? `: ${result}` : ''}` : result ? `, returned ${result}` : ''}${hasKids ? `, ${this.shape.descendants[i]} frames below` : ''}`;
    el.setAttribute('aria-label', inert(label, 'label', { max: 400 }));

    const twisty = hasKids ? icon(collapsed ? 'chevron-right' : 'chevron-down', 'twisty') : h('span', 'twisty');
    const opClass = OPERATIONS.has(op) ? op.toLowerCase() : 'other';
    const main = h('div', 'tcall', twisty);
    main.style.paddingLeft = `${4 + Math.min(level, MAX_INDENT_LEVELS) * INDENT}px`;
    if (level > MAX_INDENT_LEVELS) main.title = `depth ${level}`;
    if (r.failed) main.append(icon('error', 'failed'));
    main.append(span(`op op-${opClass}`, op, op !== r.operation && r.operation ? `${op} (operation ${r.operation})` : r.callType && r.callType !== op ? `${op} (call type ${r.callType})` : op));
    main.append(this.who(r.caller, 'caller'), span('arrow muted', '→'), this.who(r.recipient, 'recipient'));
    if (call) main.append(span(r.call ? 'fn mono' : 'fn mono raw-call', call, r.call ? r.call.signature : r.input ?? true));
    const value = h('div', 'tvalue mono', isZero(r.value.tinybars) ? '' : r.value.hbar);
    if (!isZero(r.value.tinybars)) value.title = `${r.value.hbar} (${r.value.tinybars} tinybars)`;
    const gas = h('div', 'tgas mono', `${r.gasUsed} / ${r.gas}`);
    gas.title = `gas used ${r.gasUsed} of ${r.gas}`;
    const res = h('div', `tresult mono${r.failed ? ' failed' : ''}`, result);
    if (result) res.title = inert(result, 'text');
    el.append(main, value, gas, res);
    return el;
  }

  /** A caller or recipient in a row: its name, else its id, else its short EVM address (full one in the title). */
  private who(e: TraceRow['caller'], role: string): HTMLElement {
    const s = span(`who ${role}${e.name ? ' named' : ''}`, entityText(e));
    s.title = inert([e.name, e.id, e.evm].filter(Boolean).join(' · ') || '(unknown)', 'text');
    return s;
  }

  private rowOf(target: EventTarget | null): number {
    const el = (target as HTMLElement | null)?.closest?.('.trow[data-row]') as HTMLElement | null;
    return el ? Number(el.dataset.row) : -1;
  }

  private onClick(e: MouseEvent): void {
    const row = this.rowOf(e.target);
    if (row < 0) return;
    if ((e.target as HTMLElement).closest('.twisty')) { this.setActive(row, false); this.toggle(row); return; }
    this.setActive(row, false);
    this.select(row);
  }

  private onKey(e: KeyboardEvent): void {
    if (e.altKey || e.ctrlKey || e.metaKey) return;
    const page = Math.max(1, Math.floor((this.viewport.clientHeight || this.viewportH) / ROW_H) - 1);
    const move = keyMove(e.key, this.shape, this.collapsed, this.visible, this.at, this.active, page);
    switch (move.kind) {
      case 'none': return;
      case 'focus': this.setActive(move.row, true); break;
      case 'expand': this.collapsed.delete(move.row); this.structureChanged(); break;
      case 'collapse': this.collapsed.add(move.row); this.structureChanged(); break;
      case 'select': this.select(move.row); break;
    }
    e.preventDefault();
  }

  private setActive(row: number, scroll: boolean): void {
    this.live.get(this.active)?.classList.remove('active');
    this.active = row;
    if (scroll) this.scrollToRow(row, false);
    this.render();
    this.live.get(row)?.classList.add('active');
    this.updateActiveDescendant();
  }

  private updateActiveDescendant(): void {
    if (this.visible.length && this.live.has(this.active)) this.viewport.setAttribute('aria-activedescendant', `tr-${this.active}`);
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
    const prev = this.live.get(this.selected);
    if (prev) { prev.classList.remove('selected'); prev.setAttribute('aria-selected', 'false'); }
    this.selected = row;
    const el = this.live.get(row);
    if (el) { el.classList.add('selected'); el.setAttribute('aria-selected', 'true'); }
    this.showDetails();
  }

  /** The selected frame in full: who, value, gas, the call with every argument, the result, the raw data. */
  private showDetails(): void {
    const r = this.rows[this.selected];
    if (!r) { this.details.replaceChildren(); this.details.hidden = true; return; }
    this.details.hidden = false;
    const op = r.operation || r.callType || '?';
    const title = h('h3', 'details-head', r.failed ? icon('error', 'failed') : icon('debug-stackframe-dot', 'muted'),
      span('', `Frame ${this.selected + 1} of ${this.rows.length}`), span('muted', ` · action ${r.index} · depth ${r.depth}`));
    const f = new Fields();
    f.add('Operation', span(`op op-${OPERATIONS.has(op) ? op.toLowerCase() : 'other'}`, op), r.callType && r.callType !== op ? span('muted', ` call type ${r.callType}`) : null);
    f.add('Caller', entity(r.caller, 'account'));
    f.add('Recipient', entity(r.recipient, 'contract'));
    f.add('Value', h('span', 'amount', span('mono', r.value.hbar), ' ', span('muted', `(${r.value.tinybars} tinybars)`), copyButton(r.value.tinybars, 'value in tinybars')));
    f.add('Gas', h('span', '', span('mono', r.gasUsed), copyButton(r.gasUsed, 'gas used'), span('muted', ' used of '), span('mono', r.gas), copyButton(r.gas, 'gas')));
    if (r.timestamp) f.add('Timestamp', span('mono', r.timestamp), copyButton(r.timestamp, 'timestamp'));
    if (r.call) f.add('Call', callView(r.call));
    if (r.input !== undefined && r.input !== '' && hexBytes(r.input) !== 0) f.add(r.call ? 'Input (raw)' : 'Input', rawBlock(r.input, 'call data'));
    else if (!r.call) f.add('Input', span('muted', '(no call data)'));
    const res = f.add('Result', span(r.failed ? 'mono failed' : 'mono', r.resultType || '(none)'));
    if (r.error) res.append(errorView(r.error));
    if (r.output && r.output.length) f.add('Output', valuesTable(r.output, 'Return values'));
    if (r.resultRaw !== undefined && r.resultRaw !== '' && hexBytes(r.resultRaw) !== 0) f.add('Result (raw)', rawBlock(r.resultRaw, 'result data'));
    const actions = h('div', 'toolbar');
    if (this.rows.length > 1 && this.shape.parent[this.selected] >= 0) {
      const parent = this.shape.parent[this.selected];
      actions.append(button('Parent frame', () => { if (reveal(this.shape, this.collapsed, parent)) this.structureChanged(); this.setActive(parent, true); this.select(parent); }, { icon: 'arrow-up', title: 'Select the calling frame' }));
    }
    this.details.replaceChildren(title, f.el, actions);
  }
}
