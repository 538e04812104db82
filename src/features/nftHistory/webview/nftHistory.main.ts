/**
 * The NFT history page (runs in the webview, bundled for the browser by esbuild). Plain DOM, no framework.
 *
 * - A virtualized grid: fixed row height, only the rows in view (plus a small overscan) exist in the DOM,
 *   absolutely placed inside a body as tall as all rows. 12,345 rows scroll like 40.
 * - Every value from the network is set with textContent / title, never as HTML, through inert() (invisible and
 *   reordering characters shown as <U+XXXX>).
 * - Links (accounts, transactions) ask the extension to open HashScan; the page never navigates.
 * - Keyboard: the grid holds the focus and moves an active cell (aria-activedescendant) with the arrow keys,
 *   Home/End, Ctrl+Home/End, PageUp/PageDown; Enter or Space opens the link of the active cell.
 * - getState/setState keep token, serial, query, scroll position and active cell across reloads.
 */
import './l10nSetup';
import * as l10n from '@vscode/l10n';
import type { FromWebview, NftQuery, PanelState, ToWebview, ViewState } from '../protocol';
import { localTime, type NftRow, rowLabel, summarize, TIMESTAMP_RE, typeIcon, utcTime } from '../rows';
import { isEntityId } from '../../../api/validation';
import { inert } from '../../../api/text';
import './nftHistory.css';

interface VsCodeApi {
  postMessage(msg: FromWebview): void;
  getState(): unknown;
  setState(s: PanelState): void;
}
declare function acquireVsCodeApi(): VsCodeApi;

const vscode = acquireVsCodeApi();
const ROW_H = 24;
const OVERSCAN = 8;
const COLS = 7;
/** Ask for the next page when the last rendered row is this close to the end. */
const AUTOLOAD_ROWS = 40;

const $ = <T extends HTMLElement = HTMLElement>(id: string): T => {
  const el = document.getElementById(id);
  if (!el) throw new Error(`missing #${id}`);
  return el as T;
};

const app = $('app');
const grid = $('grid');
const body = $('body');
const els = {
  heading: $('heading'),
  network: $('network'),
  order: $<HTMLSelectElement>('order'),
  limit: $<HTMLSelectElement>('limit'),
  fromOp: $<HTMLSelectElement>('fromOp'),
  fromValue: $<HTMLInputElement>('fromValue'),
  toOp: $<HTMLSelectElement>('toOp'),
  toValue: $<HTMLInputElement>('toValue'),
  form: $<HTMLFormElement>('query'),
  apply: $('apply'),
  refresh: $('refresh'),
  exportCsv: $('exportCsv'),
  exportJson: $('exportJson'),
  note: $('note'),
  noteText: $('noteText'),
  queryError: $('queryError'),
  queryErrorText: $('queryErrorText'),
  partial: $('partial'),
  stopped: $('stopped'),
  stoppedText: $('stoppedText'),
  emptyPage: $('emptyPage'),
  emptyPageText: $('emptyPageText'),
  error: $('error'),
  errorText: $('errorText'),
  errorServer: $('errorServer'),
  retry: $('retry'),
  loading: $('loading'),
  empty: $('empty'),
  emptyText: $('emptyText'),
  count: $('count'),
  loadingMore: $('loadingMore'),
  loadMore: $('loadMore'),
};

let rows: NftRow[] = [];
let view: ViewState | undefined;
/** Rendered rows by index. */
const live = new Map<number, HTMLElement>();
let first = 0;
let last = -1;
let active = { row: 0, col: 0 };
let loadRequested = false;
let pendingScroll: number | undefined;
let frame = 0;

const saved = readSaved(vscode.getState());
if (saved) {
  pendingScroll = saved.scrollTop;
  active = { row: saved.activeRow, col: Math.min(saved.activeCol, COLS - 1) };
}

function readSaved(s: unknown): PanelState | undefined {
  if (!s || typeof s !== 'object') return undefined;
  const o = s as Partial<PanelState>;
  if (
    o.v !== 1 ||
    typeof o.scrollTop !== 'number' ||
    typeof o.activeRow !== 'number' ||
    typeof o.activeCol !== 'number'
  )
    return undefined;
  return o as PanelState;
}

function post(msg: FromWebview): void {
  vscode.postMessage(msg);
}

let saveTimer: ReturnType<typeof setTimeout> | undefined;
function saveState(): void {
  if (saveTimer) return;
  saveTimer = setTimeout(() => {
    saveTimer = undefined;
    if (!view) return;
    vscode.setState({
      v: 1,
      tokenId: view.nft.tokenId,
      serial: view.nft.serial,
      query: view.query,
      loaded: rows.length,
      scrollTop: pendingScroll ?? grid.scrollTop,
      activeRow: active.row,
      activeCol: active.col,
    });
  }, 150);
}

// ---------------------------------------------------------------- cells

function span(cls: string, text: string): HTMLSpanElement {
  const s = document.createElement('span');
  s.className = cls;
  s.textContent = inert(text, 'text');
  return s;
}

function icon(name: string): HTMLSpanElement {
  const s = document.createElement('span');
  s.className = `codicon codicon-${name}`;
  s.setAttribute('aria-hidden', 'true');
  return s;
}

function link(target: 'account' | 'transaction', id: string, text: string, label: string): HTMLElement {
  const a = document.createElement('a');
  a.className = 'link';
  a.setAttribute('role', 'link');
  a.dataset.target = target;
  a.dataset.id = id;
  a.textContent = inert(text, 'text');
  a.title = inert(label, 'text');
  return a;
}

/** An account cell: a link when it is an entity id, plain text otherwise, a dash when empty. */
function account(id: string | null): Node {
  if (!id) return span('none', '—');
  if (isEntityId(id)) return link('account', id, id, l10n.t('Open account {0} in HashScan', id));
  return document.createTextNode(id);
}

function cell(row: number, col: number, ...children: Node[]): HTMLElement {
  const c = document.createElement('div');
  c.setAttribute('role', 'gridcell');
  c.setAttribute('aria-colindex', String(col + 1));
  c.id = `c${row}-${col}`;
  for (const ch of children) c.append(ch);
  return c;
}

function buildRow(i: number): HTMLElement {
  const r = rows[i];
  const el = document.createElement('div');
  el.className = 'row';
  el.setAttribute('role', 'row');
  el.setAttribute('aria-rowindex', String(i + 2));
  el.setAttribute('aria-label', rowLabel(r));
  el.dataset.index = String(i);
  el.style.transform = `translateY(${i * ROW_H}px)`;

  const time = cell(i, 0, document.createTextNode(localTime(r.ts) || r.ts));
  time.title = l10n.t('Consensus timestamp {0}', `${r.ts}${utcTime(r.ts) ? ` (${utcTime(r.ts)})` : ''}`);

  const type = cell(i, 1, icon(typeIcon(r.type)), span('type', r.type || l10n.t('(none)')));
  const s = summarize(r);
  if (s) {
    type.append(document.createTextNode(' '));
    const note = span('summary', `${s.text}${s.account ? ' ' : ''}`);
    if (s.account) note.append(account(s.account));
    type.append(note);
  }
  type.title = inert(r.type, 'text');

  const approval = r.approval ? cell(i, 4, icon('check'), span('', l10n.t('approved'))) : cell(i, 4);
  const tx = TIMESTAMP_RE.test(r.ts)
    ? link('transaction', r.ts, r.transactionId, l10n.t('Open transaction {0} in HashScan', r.transactionId))
    : document.createTextNode(r.transactionId);
  el.append(
    time,
    type,
    cell(i, 2, account(r.sender)),
    cell(i, 3, account(r.receiver)),
    approval,
    cell(i, 5, document.createTextNode(r.nonce)),
    cell(i, 6, tx),
  );
  // the full value on hover when a cell is too narrow for it (text only: the title attribute is never markup)
  for (const k of [2, 3, 5]) {
    const c = el.children[k] as HTMLElement;
    if (!c.title && !c.querySelector('.link')) c.title = c.textContent ?? '';
  }
  if (i === active.row) markActive(el);
  return el;
}

function markActive(rowEl: HTMLElement): void {
  rowEl.classList.add('active-row');
  const c = rowEl.children[active.col] as HTMLElement | undefined;
  c?.classList.add('active');
}

// ---------------------------------------------------------------- virtual list

/** Height of the sticky header row (measured on resize, not on every frame). */
let headH = ROW_H;
const head = grid.querySelector('.head') as HTMLElement;

function render(): void {
  frame = 0;
  const total = rows.length;
  const viewH = Math.max(0, grid.clientHeight - headH);
  const top = grid.scrollTop;
  const nf = Math.max(0, Math.floor(top / ROW_H) - OVERSCAN);
  const nl = Math.min(total - 1, Math.ceil((top + viewH) / ROW_H) + OVERSCAN);
  for (const [i, el] of live) {
    if (i < nf || i > nl) {
      el.remove();
      live.delete(i);
    }
  }
  const frag = document.createDocumentFragment();
  for (let i = nf; i <= nl; i++) {
    if (!live.has(i)) {
      const el = buildRow(i);
      live.set(i, el);
      frag.append(el);
    }
  }
  if (frag.childNodes.length) body.append(frag);
  first = nf;
  last = nl;
  maybeAutoLoad(viewH);
}

function schedule(): void {
  if (!frame) frame = requestAnimationFrame(render);
}

function clearRows(): void {
  for (const el of live.values()) el.remove();
  live.clear();
}

function maybeAutoLoad(viewH: number): void {
  if (!view || !view.hasMore || view.status !== 'idle' || loadRequested) return;
  const visibleLast = Math.floor((grid.scrollTop + viewH) / ROW_H);
  if (rows.length - visibleLast <= AUTOLOAD_ROWS) {
    loadRequested = true;
    post({ type: 'loadMore' });
  }
}

// ---------------------------------------------------------------- state from the extension

function setText(el: HTMLElement, text: string | undefined): void {
  el.textContent = inert(text ?? '', 'text');
  el.hidden = !text;
}

function describeQuery(q: NftQuery): string {
  const parts: string[] = [];
  if (q.from) parts.push(`${q.from.op} ${q.from.value}`);
  if (q.to) parts.push(`${q.to.op} ${q.to.value}`);
  return parts.join(` ${l10n.t('and')} `);
}

function syncControls(q: NftQuery): void {
  if (
    document.activeElement &&
    els.form.contains(document.activeElement) &&
    document.activeElement !== els.order &&
    document.activeElement !== els.limit
  )
    return;
  els.order.value = q.order;
  els.limit.value = String(q.limit);
  els.fromOp.value = q.from?.op ?? 'gte';
  els.fromValue.value = q.from?.value ?? '';
  els.toOp.value = q.to?.op ?? 'lte';
  els.toValue.value = q.to?.value ?? '';
}

let lastQueryKey = '';
/** The panel asked for `rendered` reports (test mode only); never turned off for the life of the page. */
let reportRendering = false;
function apply(msg: ToWebview): void {
  if (msg.type !== 'update') return;
  if (msg.reportRendered === true) reportRendering = true;
  const s = msg.state;
  const queryKey = JSON.stringify(s.query);
  if (queryKey !== lastQueryKey) {
    syncControls(s.query);
    lastQueryKey = queryKey;
  }
  view = s;
  if (msg.rows) {
    if (msg.rows.from === 0) {
      rows = msg.rows.items;
      clearRows();
      if (pendingScroll === undefined) grid.scrollTop = 0;
    } else {
      rows.length = msg.rows.from;
      for (const r of msg.rows.items) rows.push(r);
    }
  }
  loadRequested = false;
  const total = rows.length;
  const name = `NFT ${s.nft.tokenId} #${s.nft.serial}`;
  els.heading.textContent = name;
  document.title = name;
  els.network.textContent = s.network.label;
  els.network.title = l10n.t('Network: {0}', s.network.label);
  setText(els.noteText, s.note);
  els.note.hidden = !s.note;
  setText(els.queryErrorText, s.queryError);
  els.queryError.hidden = !s.queryError;
  els.partial.hidden = !s.partial;
  // server text (a refused link) is set as text only, like every value here
  setText(els.stoppedText, s.stopped);
  els.stopped.hidden = !s.stopped;
  setText(els.emptyPageText, s.emptyPage);
  els.emptyPage.hidden = !(s.emptyPage && s.status === 'idle');

  const failed = s.status === 'error' && !!s.error;
  els.error.hidden = !failed;
  if (failed && s.error) {
    els.errorText.textContent = inert(s.error.message, 'text');
    els.errorServer.replaceChildren(
      ...s.error.serverMessages.map((m) => {
        const li = document.createElement('li');
        li.textContent = inert(m, 'text');
        return li;
      }),
    );
  }
  els.loading.hidden = !(s.status === 'loading' && total === 0);
  // an empty page with a next link is not "no transactions": more may follow (the emptyPage banner says so)
  const empty = s.status === 'idle' && total === 0 && !failed && !s.hasMore;
  els.empty.hidden = !empty;
  if (empty) {
    const range = describeQuery(s.query);
    els.emptyText.textContent = range
      ? l10n.t(
          'No transactions for {0} #{1} on {2} with timestamp {3}.',
          s.nft.tokenId,
          s.nft.serial,
          s.network.label,
          range,
        )
      : l10n.t('No transactions for {0} #{1} on {2}.', s.nft.tokenId, s.nft.serial, s.network.label);
  }
  grid.hidden = total === 0;
  grid.setAttribute('aria-rowcount', String(total + 1));
  grid.setAttribute('aria-busy', String(s.status === 'loading' || s.status === 'loadingMore'));
  body.style.height = `${total * ROW_H}px`;

  els.loadingMore.hidden = s.status !== 'loadingMore';
  els.loadMore.hidden = !(s.hasMore && s.status === 'idle');
  const fmt = total.toLocaleString('en-US');
  let count = total === 0 ? '' : total === 1 ? l10n.t('1 transaction loaded') : l10n.t('{0} transactions loaded', fmt);
  if (total > 0)
    count += ` · ${
      s.capped
        ? l10n.t(
            'stopped at the limit of {0} (setting hederaExplorer.nftHistory.maxEntries)',
            s.maxEntries.toLocaleString('en-US'),
          )
        : s.hasMore
          ? l10n.t('more available')
          : s.stopped
            ? l10n.t('paging stopped (see above)')
            : l10n.t('all loaded')
    }`;
  els.count.textContent = count;
  (els.exportCsv as HTMLButtonElement).disabled = total === 0;
  (els.exportJson as HTMLButtonElement).disabled = total === 0;

  if (active.row >= total) active.row = Math.max(0, total - 1);
  if (pendingScroll !== undefined && total > 0) {
    const needed = pendingScroll + grid.clientHeight;
    if (total * ROW_H >= needed || (!s.hasMore && s.status === 'idle')) {
      grid.scrollTop = pendingScroll;
      pendingScroll = undefined;
    }
  }
  if (pendingScroll !== undefined && s.status === 'error') pendingScroll = undefined;
  render();
  updateActiveDescendant();
  saveState();
  if (reportRendering) reportRendered();
}

let reportTimer: ReturnType<typeof setTimeout> | undefined;
/** Tells the panel what was drawn, once updates settle (50 ms); only when it asked (`reportRendering`). */
function reportRendered(): void {
  if (reportTimer) clearTimeout(reportTimer);
  reportTimer = setTimeout(() => {
    post({
      type: 'rendered',
      total: rows.length,
      domRows: body.childElementCount,
      first: Math.max(0, first),
      last: Math.max(0, last),
    });
  }, 50);
}

// ---------------------------------------------------------------- keyboard and mouse

function updateActiveDescendant(): void {
  if (rows.length === 0) {
    grid.removeAttribute('aria-activedescendant');
    return;
  }
  grid.setAttribute('aria-activedescendant', `c${active.row}-${active.col}`);
}

function setActive(row: number, col: number, scroll = true): void {
  const total = rows.length;
  if (total === 0) return;
  const prev = live.get(active.row);
  if (prev) {
    prev.classList.remove('active-row');
    prev.querySelector('.active')?.classList.remove('active');
  }
  active = { row: Math.max(0, Math.min(total - 1, row)), col: Math.max(0, Math.min(COLS - 1, col)) };
  if (scroll) {
    const viewH = grid.clientHeight - headH;
    const y = active.row * ROW_H;
    if (y < grid.scrollTop) grid.scrollTop = y;
    else if (y + ROW_H > grid.scrollTop + viewH) grid.scrollTop = y + ROW_H - viewH;
  }
  render();
  const el = live.get(active.row);
  if (el) markActive(el);
  updateActiveDescendant();
  saveState();
}

function activateLink(a: Element | null | undefined): void {
  if (!(a instanceof HTMLElement) || !a.classList.contains('link')) return;
  const target = a.dataset.target;
  const id = a.dataset.id;
  if ((target === 'account' || target === 'transaction') && id) post({ type: 'open', target, id });
}

grid.addEventListener('keydown', (e) => {
  const total = rows.length;
  if (!total) return;
  const page = Math.max(1, Math.floor((grid.clientHeight - ROW_H) / ROW_H) - 1);
  const { row, col } = active;
  let handled = true;
  switch (e.key) {
    case 'ArrowDown':
      setActive(row + 1, col);
      break;
    case 'ArrowUp':
      setActive(row - 1, col);
      break;
    case 'ArrowRight':
      setActive(row, col + 1);
      break;
    case 'ArrowLeft':
      setActive(row, col - 1);
      break;
    case 'PageDown':
      setActive(row + page, col);
      break;
    case 'PageUp':
      setActive(row - page, col);
      break;
    case 'Home':
      if (e.ctrlKey || e.metaKey) setActive(0, col);
      else setActive(row, 0);
      break;
    case 'End':
      if (e.ctrlKey || e.metaKey) setActive(total - 1, col);
      else setActive(row, COLS - 1);
      break;
    case 'Enter':
    case ' ': {
      const links = document.getElementById(`c${row}-${col}`)?.querySelectorAll('.link');
      // a cell with a link, or the type cell whose summary has one ("minted to X")
      activateLink(links && links.length ? links[links.length - 1] : null);
      break;
    }
    default:
      handled = false;
  }
  if (handled) e.preventDefault();
});

grid.addEventListener('click', (e) => {
  const t = e.target as HTMLElement;
  const c = t.closest('[role=gridcell]') as HTMLElement | null;
  const r = t.closest('.row') as HTMLElement | null;
  if (c && r?.dataset.index !== undefined)
    setActive(Number(r.dataset.index), Number(c.getAttribute('aria-colindex')) - 1, false);
  const a = t.closest('.link');
  if (a) {
    e.preventDefault();
    activateLink(a);
  }
});

grid.addEventListener(
  'scroll',
  () => {
    schedule();
    saveState();
  },
  { passive: true },
);
new ResizeObserver(() => {
  headH = head.offsetHeight || ROW_H;
  schedule();
}).observe(grid);

// ---------------------------------------------------------------- controls

function queryFromControls(): FromWebview {
  const q: FromWebview & { type: 'setQuery' } = {
    type: 'setQuery',
    query: { order: els.order.value === 'asc' ? 'asc' : 'desc', limit: Number(els.limit.value) || 100 },
  };
  const from = els.fromValue.value.trim();
  const to = els.toValue.value.trim();
  if (from) q.query.from = { op: els.fromOp.value === 'gt' ? 'gt' : 'gte', value: from.slice(0, 100) };
  if (to) q.query.to = { op: els.toOp.value === 'lt' ? 'lt' : 'lte', value: to.slice(0, 100) };
  return q;
}

// a webview's frame has no allow-forms: the browser never fires `submit` there, so Apply and Enter are handled
const applyQuery = () => {
  pendingScroll = undefined;
  post(queryFromControls());
};
els.apply.addEventListener('click', applyQuery);
els.form.addEventListener('keydown', (e) => {
  if (e.key === 'Enter' && e.target instanceof HTMLInputElement) {
    e.preventDefault();
    applyQuery();
  }
});
els.order.addEventListener('change', () => {
  pendingScroll = undefined;
  post(queryFromControls());
});
els.limit.addEventListener('change', () => {
  pendingScroll = undefined;
  post(queryFromControls());
});
els.refresh.addEventListener('click', () => {
  pendingScroll = undefined;
  post({ type: 'refresh' });
});
els.retry.addEventListener('click', () => post({ type: 'retry' }));
els.loadMore.addEventListener('click', () => {
  loadRequested = true;
  post({ type: 'loadMore' });
});
els.exportCsv.addEventListener('click', () => post({ type: 'export', format: 'csv' }));
els.exportJson.addEventListener('click', () => post({ type: 'export', format: 'json' }));

window.addEventListener('message', (e: MessageEvent) => {
  const m = e.data as ToWebview;
  if (m && typeof m === 'object' && m.type === 'update') apply(m);
});

app.dataset.ready = 'true';
post({ type: 'ready' });
