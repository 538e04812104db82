/**
 * The transaction inspector page (runs in the webview, bundled for the browser by esbuild). Plain DOM, no framework;
 * the whole page is built here inside #app (the panel's HTML is only a shell with a strict CSP).
 *
 * - Header: what was asked (transaction id, hash or timestamp), the network, Open in HashScan, the Raw JSON menu.
 * - Five sections (Overview, Call trace, Events, State changes, Transfers), each loading, failing (with the server's
 *   messages and a Retry when one may help; a missing part as a notice) and drawn on its own (./sections.ts,
 *   ./trace.ts: the call trace is a virtualized tree).
 * - Every text from the model is set as text through inert() (./dom.ts); links and copies are messages to the
 *   extension, which checks them again; the page never navigates.
 * - setState keeps the collapsed trace frames and the scroll position (throttled); on `init` the page restores them
 *   when the saved state is for the same transaction.
 * - When the panel asks (`reportRendered`, test mode), the page posts `rendered` with what it drew after each update.
 */
import './l10nSetup';
import * as l10n from '@vscode/l10n';
import type { SectionId } from '../../../api/inspect/model';
import { SECTION_IDS } from '../../../api/inspect/model';
import { inert } from '../../../api/text';
import type { FromWebview, Header, RawSource, SavedState, Sections, ToWebview } from '../protocol';
import { banner, button, h, icon, setPoster, span } from './dom';
import {
  type Drawn,
  drawEvents,
  drawOverview,
  drawSource,
  drawState,
  drawTransfers,
  onMoreDrawn,
  setDebuggable,
} from './sections';
import { TraceView } from './trace';
import { collapsedFromIndexes, shapeOf } from './traceTree';
import './inspector.css';

interface VsCodeApi {
  postMessage(msg: FromWebview): void;
  getState(): unknown;
  setState(s: SavedState): void;
}
declare function acquireVsCodeApi(): VsCodeApi;

const vscode = acquireVsCodeApi();
const post = (m: FromWebview): void => vscode.postMessage(m);
setPoster(post);

const TITLES: Record<SectionId, string> = {
  overview: l10n.t('Overview'),
  source: l10n.t('Source'),
  trace: l10n.t('Call trace'),
  events: l10n.t('Events'),
  state: l10n.t('State changes'),
  transfers: l10n.t('Transfers'),
};
const LOADING: Record<SectionId, string> = {
  overview: l10n.t('Loading the contract result…'),
  source: l10n.t('Placing the revert in source…'),
  trace: l10n.t('Loading the call trace…'),
  events: l10n.t('Loading the events…'),
  state: l10n.t('Loading the state changes…'),
  transfers: l10n.t('Loading the transaction record…'),
};

// ---------------------------------------------------------------- the page's frame

const app = document.getElementById('app') ?? document.body.appendChild(h('div'));
const els = {
  title: h('h1', 'title'),
  network: h('span', 'badge network'),
  note: h('p', 'note'),
  hashscan: button(l10n.t('Open in HashScan'), () => openHashscan(), {
    icon: 'link-external',
    title: l10n.t('Open this transaction in HashScan'),
  }),
  rawButton: button(l10n.t('Raw JSON'), () => toggleRawMenu(), {
    icon: 'json',
    title: l10n.t('Show an answer of the mirror node as a JSON document'),
  }),
  rawMenu: h('div', 'menu'),
  nav: h('nav', 'nav'),
};
els.rawButton.append(icon('chevron-down'));
els.rawButton.setAttribute('aria-haspopup', 'menu');
els.rawButton.setAttribute('aria-expanded', 'false');
els.rawMenu.setAttribute('role', 'menu');
els.rawMenu.setAttribute('aria-label', l10n.t('Raw JSON'));
els.rawMenu.hidden = true;
els.nav.setAttribute('aria-label', l10n.t('Sections'));
els.note.hidden = true;

const RAW_ITEMS: { source: RawSource; label: string }[] = [
  { source: 'result', label: l10n.t('Contract result') },
  { source: 'actions', label: l10n.t('Call trace (actions)') },
  { source: 'transaction', label: l10n.t('Transaction record') },
];
for (const item of RAW_ITEMS) {
  const mi = h('button', 'menu-item', item.label);
  mi.type = 'button';
  mi.setAttribute('role', 'menuitem');
  mi.tabIndex = -1;
  mi.addEventListener('click', () => {
    closeRawMenu(true);
    post({ type: 'raw', source: item.source });
  });
  els.rawMenu.append(mi);
}

const header = h(
  'header',
  'header',
  h(
    'div',
    'title-row',
    els.title,
    els.network,
    h('div', 'actions', els.hashscan, h('div', 'menu-anchor', els.rawButton, els.rawMenu)),
  ),
  els.note,
  els.nav,
);

interface SectionEls {
  section: HTMLElement;
  heading: HTMLElement;
  count: HTMLElement;
  body: HTMLElement;
  navItem: HTMLButtonElement;
  navIcon: HTMLElement;
  navCount: HTMLElement;
}
const sectionEls = {} as Record<SectionId, SectionEls>;
const main = h('main', 'sections');
for (const id of SECTION_IDS) {
  const heading = h('h2', 'section-head', TITLES[id]);
  heading.id = `h-${id}`;
  heading.tabIndex = -1;
  const count = h('span', 'count muted');
  heading.append(count);
  const body = h('div', 'section-body');
  const section = h('section', `section s-${id}`, heading, body);
  section.id = `s-${id}`;
  section.setAttribute('aria-labelledby', heading.id);
  main.append(section);
  const navIcon = h('span', 'nav-icon');
  const navCount = h('span', 'nav-count');
  const navItem = button(
    '',
    () => {
      section.scrollIntoView({ block: 'start' });
      heading.focus({ preventScroll: true });
    },
    { cls: 'nav-item', title: l10n.t('Go to {0}', TITLES[id]) },
  );
  navItem.append(navIcon, span('', TITLES[id]), navCount);
  els.nav.append(navItem);
  sectionEls[id] = { section, heading, count, body, navItem, navIcon, navCount };
}
app.replaceChildren(header, main);
app.classList.add('inspector');

// ---------------------------------------------------------------- state

let currentHeader: Header | undefined;
let sections: Partial<Sections> = {};
let overviewIds: { timestamp?: string; transactionId?: string } = {};
let reportRendering = false;
/** The saved state this page keeps (from `init`), and the collapsed frames not yet applied to a trace. */
let base: SavedState | undefined;
let pendingCollapsed: number[] | undefined;
let pendingScroll: number | undefined;
const drawn: Partial<Record<SectionId, Drawn>> = {};

const trace = new TraceView({
  collapsedChanged: () => saveState(),
  drawn: () => reportRendered(),
});

onMoreDrawn(() => reportRendered());

function readSaved(s: unknown): Partial<SavedState> | undefined {
  if (!s || typeof s !== 'object') return undefined;
  const o = s as Partial<SavedState>;
  return o.v === 1 && typeof o.ref === 'string' ? o : undefined;
}

let saveTimer: ReturnType<typeof setTimeout> | undefined;
/** Saves the collapsed frames and the scroll position, at most every 200 ms. */
function saveState(): void {
  if (saveTimer || !base) return;
  saveTimer = setTimeout(() => {
    saveTimer = undefined;
    if (!base) return;
    const collapsed =
      sections.trace?.state === 'ready' ? trace.collapsedIndexes() : (pendingCollapsed ?? base.collapsed ?? []);
    vscode.setState({ ...base, collapsed, scrollTop: pendingScroll ?? Math.round(window.scrollY) });
  }, 200);
}

// ---------------------------------------------------------------- header

function drawHeader(hd: Header): void {
  currentHeader = hd;
  // a simulated call has no transaction: nothing to debug or to open in HashScan
  setDebuggable(hd.refKind !== 'simulation');
  const what = `${
    hd.refKind === 'simulation'
      ? l10n.t('Simulation of')
      : hd.refKind === 'timestamp'
        ? l10n.t('Transaction at')
        : l10n.t('Transaction')
  } `;
  els.title.replaceChildren(span('muted', what), span('ref mono', hd.ref, true));
  if (hd.nonce > 0) els.title.append(span('muted', ` · ${l10n.t('nonce {0}', hd.nonce)}`));
  els.network.textContent = inert(hd.network.label, 'label');
  els.network.title = inert(l10n.t('Network: {0}', hd.network.label), 'text');
  els.note.replaceChildren();
  if (hd.note) els.note.append(icon('info'), span('', hd.note));
  els.note.hidden = !hd.note;
  document.title = inert(
    hd.refKind === 'simulation' ? l10n.t('Simulation {0}', hd.ref) : l10n.t('Transaction {0}', hd.ref),
    'label',
  );
  updateHashscan();
}

/** What HashScan opens: the consensus timestamp (exact, children included), else the transaction id. */
function hashscanId(): string | undefined {
  if (currentHeader?.refKind === 'simulation') return undefined;
  if (overviewIds.timestamp) return overviewIds.timestamp;
  if (overviewIds.transactionId && !(currentHeader && currentHeader.nonce > 0)) return overviewIds.transactionId;
  if (
    currentHeader &&
    currentHeader.refKind !== 'hash' &&
    (currentHeader.refKind === 'timestamp' || currentHeader.nonce === 0)
  )
    return currentHeader.ref;
  return undefined;
}

function updateHashscan(): void {
  const id = hashscanId();
  els.hashscan.disabled = !id;
  els.hashscan.title = id
    ? inert(l10n.t('Open transaction {0} in HashScan', id), 'text')
    : l10n.t('Available once the overview has loaded');
}

function openHashscan(): void {
  const id = hashscanId();
  if (id) post({ type: 'hashscan', kind: 'transaction', id });
}

// ---------------------------------------------------------------- the Raw JSON menu

function menuItems(): HTMLButtonElement[] {
  return Array.from(els.rawMenu.querySelectorAll<HTMLButtonElement>('.menu-item'));
}
function toggleRawMenu(): void {
  if (els.rawMenu.hidden) openRawMenu(0);
  else closeRawMenu(true);
}
function openRawMenu(focus: number): void {
  els.rawMenu.hidden = false;
  els.rawButton.setAttribute('aria-expanded', 'true');
  const items = menuItems();
  items[(focus + items.length) % items.length]?.focus();
}
function closeRawMenu(refocus: boolean): void {
  if (els.rawMenu.hidden) return;
  els.rawMenu.hidden = true;
  els.rawButton.setAttribute('aria-expanded', 'false');
  if (refocus) els.rawButton.focus();
}
els.rawButton.addEventListener('keydown', (e) => {
  if (e.key === 'ArrowDown' || e.key === 'ArrowUp') {
    e.preventDefault();
    openRawMenu(e.key === 'ArrowDown' ? 0 : -1);
  }
});
els.rawMenu.addEventListener('keydown', (e) => {
  const items = menuItems();
  const at = items.indexOf(document.activeElement as HTMLButtonElement);
  let handled = true;
  switch (e.key) {
    case 'ArrowDown':
      items[(at + 1) % items.length].focus();
      break;
    case 'ArrowUp':
      items[(at - 1 + items.length) % items.length].focus();
      break;
    case 'Home':
      items[0].focus();
      break;
    case 'End':
      items[items.length - 1].focus();
      break;
    case 'Escape':
      closeRawMenu(true);
      break;
    case 'Tab':
      closeRawMenu(false);
      handled = false;
      break;
    default:
      handled = false;
  }
  if (handled) e.preventDefault();
});
document.addEventListener('mousedown', (e) => {
  if (!els.rawMenu.hidden && !(e.target as HTMLElement).closest('.menu-anchor')) closeRawMenu(false);
});

// ---------------------------------------------------------------- sections

function setNav(id: SectionId, state: 'loading' | 'error' | 'missing' | 'ready' | 'notice', count?: number): void {
  const { navIcon, navCount, count: headCount, section } = sectionEls[id];
  const name =
    state === 'loading'
      ? 'loading codicon-modifier-spin'
      : state === 'error'
        ? 'error'
        : state === 'missing'
          ? 'circle-slash'
          : state === 'notice'
            ? 'warning'
            : 'pass';
  navIcon.className = `nav-icon codicon codicon-${name} ${state}`;
  navIcon.setAttribute('aria-hidden', 'true');
  navCount.textContent = count === undefined ? '' : ` ${count.toLocaleString('en-US')}`;
  headCount.textContent = count === undefined ? '' : ` ${count.toLocaleString('en-US')}`;
  section.setAttribute('aria-busy', String(state === 'loading'));
}

function loadingView(id: SectionId): HTMLElement {
  const s = h('div', 'state', icon('loading', 'codicon-modifier-spin'), span('', LOADING[id]));
  s.setAttribute('role', 'status');
  return s;
}

function errorView(id: SectionId, st: Extract<Sections[SectionId], { state: 'error' }>): HTMLElement {
  const parts: (Node | string)[] = [h('div', 'message', st.message)];
  if (st.serverMessages.length) {
    const ul = h('ul', 'server-messages', ...st.serverMessages.map((m) => h('li', 'mono', m)));
    ul.setAttribute('aria-label', l10n.t('The server said'));
    parts.push(ul);
  }
  if (st.retry)
    parts.push(
      h(
        'div',
        'banner-actions',
        button(
          l10n.t('Retry'),
          () => {
            post({ type: 'retry', section: id });
          },
          { icon: 'refresh', cls: 'primary', title: l10n.t('Load {0} again', TITLES[id].toLowerCase()) },
        ),
      ),
    );
  return banner(st.missing ? 'info' : 'error', ...parts);
}

function drawSection(id: SectionId, st: Sections[SectionId]): void {
  // a trace that was drawn (and is replaced: rebuilt with more names, reloading, failing): keep what the user
  // collapsed for the trace that comes next
  if (id === 'trace' && sections.trace?.state === 'ready' && trace.rowCount)
    pendingCollapsed = trace.collapsedIndexes();
  sections = { ...sections, [id]: st } as Partial<Sections>;
  const { body } = sectionEls[id];
  delete drawn[id];
  if (st.state === 'loading') {
    body.replaceChildren(loadingView(id));
    setNav(id, 'loading');
    return;
  }
  if (st.state === 'error') {
    body.replaceChildren(errorView(id, st));
    setNav(id, st.missing ? 'missing' : 'error');
    if (id === 'overview') {
      overviewIds = {};
      updateHashscan();
    }
    return;
  }
  const content: Node[] = [];
  if (st.notice) content.push(banner('warning', h('div', '', st.notice)));
  let count: number | undefined;
  try {
    switch (id) {
      case 'overview': {
        const o = (st as Extract<Sections['overview'], { state: 'ready' }>).data;
        overviewIds = { timestamp: o.timestamp || undefined, transactionId: o.transactionId };
        updateHashscan();
        const d = drawOverview(o);
        drawn[id] = d;
        content.push(d.node);
        break;
      }
      case 'trace': {
        const t = (st as Extract<Sections['trace'], { state: 'ready' }>).data;
        const indexes = pendingCollapsed ?? base?.collapsed;
        const collapsed = collapsedFromIndexes(t.rows, shapeOf(t.rows), indexes);
        pendingCollapsed = undefined;
        count = t.rows.length;
        if (t.rows.length) {
          content.push(trace.el);
          body.replaceChildren(...content);
          trace.setModel(t, collapsed);
          setNav(id, st.notice ? 'notice' : 'ready', count);
          return;
        }
        trace.setModel({ rows: [], deepestFailure: -1 }, new Set());
        content.push(
          h('p', 'muted empty', l10n.t('No call frames: the mirror node lists no actions for this transaction.')),
        );
        break;
      }
      case 'source': {
        const src = (st as Extract<Sections['source'], { state: 'ready' }>).data;
        const d = drawSource(src);
        drawn[id] = d;
        count = src.frames.length;
        content.push(d.node);
        break;
      }
      case 'events': {
        const ev = (st as Extract<Sections['events'], { state: 'ready' }>).data;
        const d = drawEvents(ev);
        drawn[id] = d;
        count = ev.length;
        content.push(d.node);
        break;
      }
      case 'state': {
        const sc = (st as Extract<Sections['state'], { state: 'ready' }>).data;
        const d = drawState(sc);
        drawn[id] = d;
        count = sc.length;
        content.push(d.node);
        break;
      }
      case 'transfers': {
        const tr = (st as Extract<Sections['transfers'], { state: 'ready' }>).data;
        const d = drawTransfers(tr);
        drawn[id] = d;
        count = tr.transfers.length;
        content.push(d.node);
        break;
      }
    }
  } catch (e) {
    // a model this page cannot draw must not take the other sections with it
    delete drawn[id];
    body.replaceChildren(
      banner(
        'error',
        h('div', '', l10n.t('This section could not be drawn: {0}', e instanceof Error ? e.message : String(e))),
      ),
    );
    setNav(id, 'error');
    return;
  }
  body.replaceChildren(...content);
  setNav(id, st.notice ? 'notice' : 'ready', count);
}

// ---------------------------------------------------------------- scroll restore and reports

function restoreScroll(): void {
  if (pendingScroll === undefined) return;
  const stillLoading = SECTION_IDS.some((id) => !sections[id] || sections[id]?.state === 'loading');
  const room = document.documentElement.scrollHeight - window.innerHeight;
  if (room >= pendingScroll || !stillLoading) {
    window.scrollTo(0, Math.min(pendingScroll, Math.max(0, room)));
    pendingScroll = undefined;
  }
}

let reportTimer: ReturnType<typeof setTimeout> | undefined;
/** Tells the panel what was drawn, once updates settle (30 ms); only when it asked (`reportRendered`). */
function reportRendered(): void {
  if (!reportRendering) return;
  if (reportTimer) clearTimeout(reportTimer);
  reportTimer = setTimeout(() => {
    reportTimer = undefined;
    const ready = SECTION_IDS.filter((id) => sections[id]?.state === 'ready');
    post({
      type: 'rendered',
      ready,
      traceRows: sections.trace?.state === 'ready' ? trace.rowCount : 0,
      traceDomRows: sections.trace?.state === 'ready' ? trace.domRows : 0,
      events: drawn.events?.count() ?? 0,
      stateChanges: drawn.state?.count() ?? 0,
      transfers: drawn.transfers?.count() ?? 0,
    });
  }, 30);
}

// ---------------------------------------------------------------- messages

function apply(msg: ToWebview): void {
  switch (msg.type) {
    case 'init': {
      if (msg.reportRendered === true) reportRendering = true;
      const own = readSaved(vscode.getState());
      const same =
        own && own.ref === msg.state.ref && own.nonce === msg.state.nonce && own.network === msg.state.network;
      base = { v: 1, ref: msg.state.ref, nonce: msg.state.nonce, network: msg.state.network };
      const collapsed = (same && Array.isArray(own.collapsed) ? own.collapsed : undefined) ?? msg.state.collapsed;
      const scrollTop = (same && typeof own.scrollTop === 'number' ? own.scrollTop : undefined) ?? msg.state.scrollTop;
      base.collapsed = collapsed?.filter((n) => Number.isInteger(n) && n >= 0);
      pendingCollapsed = base.collapsed;
      pendingScroll = typeof scrollTop === 'number' && scrollTop > 0 ? scrollTop : undefined;
      drawHeader(msg.header);
      sections = {};
      for (const id of SECTION_IDS) drawSection(id, msg.sections[id]);
      saveState();
      break;
    }
    case 'header':
      drawHeader(msg.header);
      break;
    case 'section':
      if (!(SECTION_IDS as readonly string[]).includes(msg.id)) return;
      drawSection(msg.id, msg.section);
      saveState();
      break;
    default:
      return;
  }
  restoreScroll();
  reportRendered();
}

window.addEventListener('message', (e: MessageEvent) => {
  const m = e.data as ToWebview;
  if (m && typeof m === 'object' && (m.type === 'init' || m.type === 'header' || m.type === 'section')) apply(m);
});
window.addEventListener(
  'scroll',
  () => {
    if (pendingScroll === undefined) saveState();
  },
  { passive: true },
);

app.dataset.ready = 'true';
post({ type: 'ready' });
