/**
 * The call panel's page (runs in the webview, bundled for the browser by esbuild). Plain DOM, no framework.
 *
 * - One form per function: a label and a field per input, checked as it is typed with the extension's own rules
 *   (callInputs.ts), the problem shown beside the field; Enter in a field, or the button, calls. Not a <form>: the
 *   webview's sandboxed frame (enableForms off) submits none, so a submit event never comes; the button's click and
 *   the field's Enter are handled themselves.
 * - The block, sender and value fields are shared by the forms; the value is in ℏ and its tinybars are shown.
 * - Every value from the network, the ABI or the user is set with textContent (through inert()), never as HTML.
 * - The history's buttons ask the extension to run, copy or pin a kept call.
 */
import './l10nSetup';
import * as l10n from '@vscode/l10n';
import { evmAddressOf } from '../../../api/contractCall';
import { checkInput } from '../../../api/decode/callInputs';
import { inert } from '../../../api/text';
import type {
  FirstState,
  FromWebview,
  FunctionView,
  HistoryView,
  OutcomeView,
  PanelState,
  ToWebview,
  ValueLine,
} from '../protocol';
import { checkBlockChoice, hbarToTinybars } from '../../../api/callValues';
import './contractCall.css';

interface VsCodeApi {
  postMessage(msg: FromWebview): void;
  getState(): unknown;
  setState(s: PanelState): void;
}
declare function acquireVsCodeApi(): VsCodeApi;

const vscode = acquireVsCodeApi();
const post = (m: FromWebview) => vscode.postMessage(m);

const $ = <T extends HTMLElement = HTMLElement>(id: string): T => {
  const el = document.getElementById(id);
  if (!el) throw new Error(`missing #${id}`);
  return el as T;
};
const els = {
  heading: $('heading'),
  network: $('network'),
  address: $('address'),
  source: $('source'),
  loading: $('loading'),
  failed: $('failed'),
  common: $('common'),
  block: $<HTMLInputElement>('block'),
  blockError: $('blockError'),
  from: $<HTMLInputElement>('from'),
  fromError: $('fromError'),
  value: $<HTMLInputElement>('value'),
  valueError: $('valueError'),
  readHeading: $('readHeading'),
  read: $('read'),
  simulateHeading: $('simulateHeading'),
  simulate: $('simulate'),
  historyHeading: $('historyHeading'),
  history: $('history'),
};

const text = (s: string) => inert(s, 'text');

function el<K extends keyof HTMLElementTagNameMap>(tag: K, cls?: string, content?: string): HTMLElementTagNameMap[K] {
  const e = document.createElement(tag);
  if (cls) e.className = cls;
  if (content !== undefined) e.textContent = text(content);
  return e;
}

function icon(name: string): HTMLSpanElement {
  const s = el('span', `codicon codicon-${name}`);
  s.setAttribute('aria-hidden', 'true');
  return s;
}

// ---------------------------------------------------------------- the shared fields

/** The shared fields' problems (undefined: fine), shown beside them. */
function checkCommon(): boolean {
  const block = checkBlockChoice(els.block.value);
  els.blockError.textContent = block.ok ? '' : text(block.message);
  const from = els.from.value.trim();
  const fromOk = !from || evmAddressOf(from) !== undefined;
  els.fromError.textContent = fromOk
    ? ''
    : l10n.t('"{0}" is not a sender: enter an account id (0.0.1234) or an EVM address.', text(from.slice(0, 60)));
  const value = hbarToTinybars(els.value.value);
  els.valueError.textContent = !value.ok
    ? text(value.message)
    : value.value > 0n
      ? l10n.t('= {0} tinybars', value.value.toString())
      : '';
  els.valueError.classList.toggle('hint', value.ok);
  for (const [input, ok] of [
    [els.block, block.ok],
    [els.from, fromOk],
    [els.value, value.ok],
  ] as const)
    input.setAttribute('aria-invalid', String(!ok));
  return block.ok && fromOk && value.ok;
}
for (const input of [els.block, els.from, els.value]) input.addEventListener('input', checkCommon);

// ---------------------------------------------------------------- the functions' forms

interface FormParts {
  fn: FunctionView;
  n: number;
  form: HTMLElement;
  /** The fields, the button and the outcome are drawn (`complete`): at once for the first forms, else when near. */
  complete: boolean;
  fields: HTMLInputElement[];
  errors: HTMLElement[];
  button: HTMLButtonElement;
  outcome: HTMLElement;
}
const forms = new Map<string, FormParts>();
let functionsKey = '';
let formCount = 0;
/** Forms drawn whole at once: more than a tall window shows; the others get their fields as they come near. */
const FIRST_FORMS = 16;

function checkField(p: FormParts, i: number): boolean {
  const message = checkInput(p.fn.inputs[i].param, p.fields[i].value);
  p.errors[i].textContent = message ? text(message) : '';
  p.fields[i].setAttribute('aria-invalid', String(!!message));
  return !message;
}

/** A function's form: its heading; its fields, button and outcome once `complete` draws them. */
function buildForm(fn: FunctionView): FormParts {
  const form = el('section', 'fn');
  form.setAttribute('role', 'form');
  form.setAttribute('aria-label', text(`${fn.name} ${fn.read ? readWord : simulateWord}`));
  const head = el('h3');
  head.append(icon(fn.read ? 'eye' : 'play'), el('span', 'name', fn.name), el('span', 'sig muted', fn.outputs));
  if (fn.payable) head.append(el('span', 'badge', l10n.t('payable')));
  form.append(head);
  const button = el('button', 'primary');
  const outcome = el('div', 'outcome');
  return { fn, n: formCount++, form, complete: false, fields: [], errors: [], button, outcome };
}

/** Draws a form's fields, button and outcome (once). */
function complete(p: FormParts): FormParts {
  if (p.complete) return p;
  p.complete = true;
  near?.unobserve(p.form);
  const { fn, form, button, outcome } = p;
  fn.inputs.forEach((input, i) => {
    const id = `f${p.n}-${i}`;
    const label = el('label', undefined, `${input.name} (${input.type})`);
    label.htmlFor = id;
    const field = el('input');
    field.id = id;
    field.type = 'text';
    field.spellcheck = false;
    field.placeholder = text(input.placeholder);
    const error = el('span', 'field-error');
    error.id = `${id}-error`;
    error.setAttribute('role', 'alert');
    field.setAttribute('aria-describedby', error.id);
    form.append(label, field, error);
    p.fields.push(field);
    p.errors.push(error);
  });
  button.type = 'button';
  button.append(icon(fn.read ? 'eye' : 'play'), el('span', undefined, fn.read ? readButton : simulateButton));
  outcome.setAttribute('aria-live', 'polite');
  outcome.hidden = true;
  form.append(button, outcome);
  p.fields.forEach((f, i) => {
    f.addEventListener('input', () => checkField(p, i));
    f.addEventListener('keydown', (e) => {
      if (e.key !== 'Enter' || e.isComposing || e.shiftKey || e.ctrlKey || e.altKey || e.metaKey) return;
      e.preventDefault();
      callFrom(p);
    });
  });
  button.addEventListener('click', () => callFrom(p));
  return p;
}

const readWord = l10n.t('(read)');
const simulateWord = l10n.t('(simulate)');
const readButton = l10n.t('Read');
const simulateButton = l10n.t('Simulate');

/** Completes the forms that come within a window's height of the view (and, when idle, the rest). */
const near =
  typeof IntersectionObserver === 'function'
    ? new IntersectionObserver(
        (entries) => {
          for (const e of entries) if (e.isIntersecting) completeForm(e.target);
        },
        { rootMargin: '100% 0px' },
      )
    : undefined;
const byElement = new WeakMap<Element, FormParts>();
function completeForm(form: Element): void {
  const p = byElement.get(form);
  if (p) complete(p);
}

/** The forms not drawn whole yet, a few at a time when the page is idle (so that find in page sees every field). */
function completeRest(): void {
  const rest = [...forms.values()].filter((p) => !p.complete);
  const step = (deadline?: { timeRemaining(): number }) => {
    let done = 0;
    while (rest.length && (deadline ? deadline.timeRemaining() > 2 : done < 10)) {
      complete(rest.shift() as FormParts);
      done++;
    }
    if (rest.length) later(step);
  };
  later(step);
}
const later = (f: (d?: { timeRemaining(): number }) => void): void => {
  if (typeof requestIdleCallback === 'function') requestIdleCallback(f, { timeout: 1000 });
  else setTimeout(f, 50);
};

/** Asks the extension to call a function with what its fields hold, when every field is fine. */
function callFrom(p: FormParts): void {
  const fieldsOk = p.fields.map((_, i) => checkField(p, i)).every(Boolean);
  if (!checkCommon() || !fieldsOk || p.button.disabled) return;
  post({
    type: 'call',
    key: p.fn.key,
    inputs: p.fields.map((f) => f.value),
    block: els.block.value.trim(),
    from: p.fn.read ? '' : els.from.value.trim(),
    value: p.fn.read ? '' : els.value.value.trim(),
  });
}

function drawForms(functions: FunctionView[]): void {
  const key = JSON.stringify(functions.map((f) => f.key));
  if (key === functionsKey) return;
  functionsKey = key;
  forms.clear();
  const read = document.createDocumentFragment();
  const simulate = document.createDocumentFragment();
  near?.disconnect();
  // reads come first (the extension sorts them so): the first forms in the list are those in view
  for (const [i, fn] of functions.entries()) {
    const p = buildForm(fn);
    forms.set(fn.key, p);
    byElement.set(p.form, p);
    if (i < FIRST_FORMS) complete(p);
    else near?.observe(p.form);
    (fn.read ? read : simulate).append(p.form);
  }
  els.read.replaceChildren(read);
  els.simulate.replaceChildren(simulate);
  if (functions.length > FIRST_FORMS) requestAnimationFrame(() => setTimeout(completeRest));
  els.readHeading.hidden = !functions.some((f) => f.read);
  els.simulateHeading.hidden = !functions.some((f) => !f.read);
  if (functions.length) {
    // User Timing marks for `npm run bench`: the forms in the DOM, and the task after the frame that painted them
    performance.mark('contractCall.forms');
    requestAnimationFrame(() => setTimeout(() => performance.mark('contractCall.painted')));
  }
}

// ---------------------------------------------------------------- outcomes

function valueList(lines: ValueLine[]): HTMLElement {
  const list = el('ul', 'values');
  for (const v of lines) {
    const li = el('li');
    li.style.paddingLeft = `${Math.min(v.depth, 8) * 16}px`;
    li.append(el('span', 'vname', v.name || '—'), el('span', 'vtype muted', v.type), el('span', 'vvalue', v.value));
    list.append(li);
  }
  return list;
}

/** A status line: an icon and words. */
function line(iconName: string, words: string): HTMLParagraphElement {
  const d = el('p', 'status');
  d.append(icon(iconName), el('span', undefined, words));
  return d;
}

function drawOutcome(p: FormParts, o: OutcomeView | undefined): void {
  if (o) complete(p);
  p.button.disabled = o?.status === 'running';
  p.outcome.hidden = !o;
  if (!o) return;
  p.outcome.className = `outcome ${o.status}`;
  const parts: Node[] = [];
  if (o.status === 'running') parts.push(line('loading codicon-modifier-spin', l10n.t('Calling…')));
  if (o.status === 'ok') {
    parts.push(line('pass', o.block ? l10n.t('Result at the {0}', o.block) : l10n.t('Result')));
    parts.push(o.values?.length ? valueList(o.values) : el('p', 'muted', l10n.t('No return value.')));
    if (o.gas) parts.push(el('p', 'gas', l10n.t('Gas estimate: {0}', o.gas)));
  }
  if (o.status === 'reverted' && o.revert) {
    parts.push(line('error', l10n.t('Reverted ({0}) at the {1}', o.revert.status, o.block ?? '')));
    parts.push(el('p', 'reason', o.revert.message));
    if (o.revert.args?.length) parts.push(valueList(o.revert.args));
  }
  if (o.status === 'error' && o.error) {
    parts.push(line('warning', o.error.message));
    if (o.error.forward) parts.push(el('p', 'forward', o.error.forward));
    if (o.error.serverMessages.length) {
      const ul = el('ul', 'server');
      for (const m of o.error.serverMessages) ul.append(el('li', undefined, m));
      parts.push(ul);
    }
  }
  if (o.local && o.status !== 'running') parts.push(localRun(p, o.local));
  if (o.raw && o.status !== 'running') {
    const raw = el('details', 'raw');
    raw.append(el('summary', undefined, l10n.t('Raw data')), el('code', undefined, o.raw));
    parts.push(raw);
  }
  p.outcome.replaceChildren(...parts);
  if (reportRendering && o.status !== 'running')
    post({ type: 'rendered', key: o.key, status: o.status, text: p.outcome.textContent ?? '' });
}

/** A simulated call's local run: Open in Inspector, and what came of it. */
function localRun(p: FormParts, local: NonNullable<OutcomeView['local']>): HTMLElement {
  const d = el('div', `local ${local.status}`);
  if (local.status === 'running') {
    d.append(line('loading codicon-modifier-spin', l10n.t('Running the call locally…')));
    return d;
  }
  if (local.status !== 'differs') {
    const b = el('button');
    b.type = 'button';
    b.title = l10n.t(
      "Run the call locally on the mirror node's state and, when it gives the mirror node's answer, show its call trace, events and state changes in the inspector",
    );
    b.append(icon('inspect'), el('span', undefined, l10n.t('Open in Inspector')));
    b.addEventListener('click', () => post({ type: 'inspect', key: p.fn.key }));
    d.append(b);
  }
  if (local.message)
    d.append(local.status === 'opened' ? el('p', 'muted', local.message) : line('warning', local.message));
  return d;
}

// ---------------------------------------------------------------- history

function button(label: string, iconName: string, onClick: () => void): HTMLButtonElement {
  const b = el('button', 'icon');
  b.type = 'button';
  b.title = label;
  b.setAttribute('aria-label', label);
  b.append(icon(iconName));
  b.addEventListener('click', onClick);
  return b;
}

function drawHistory(history: HistoryView[]): void {
  els.historyHeading.hidden = history.length === 0;
  const items = history.map((h) => {
    const li = el('li', `kept ${h.status}`);
    const when = new Date(h.at);
    const call = `${h.name}(${h.inputs.join(', ')})`;
    const what = el('div', 'what');
    what.append(
      icon(h.pinned ? 'pinned' : h.status === 'ok' ? 'pass' : h.status === 'reverted' ? 'error' : 'warning'),
      el('span', 'call', call),
      el(
        'span',
        'muted',
        `${h.block}${h.value ? ` · ${h.value}` : ''}${h.from ? ` · ${l10n.t('from {0}', h.from)}` : ''}`,
      ),
      el('span', 'muted', Number.isNaN(when.getTime()) ? '' : when.toLocaleString()),
    );
    const summary = el('div', 'summary', h.summary);
    const actions = el('div', 'actions');
    actions.append(
      button(l10n.t('Run again'), 'refresh', () => post({ type: 'history', action: 'rerun', id: h.id })),
      button(l10n.t('Copy as curl'), 'terminal', () => post({ type: 'history', action: 'copyCurl', id: h.id })),
      button(l10n.t('Copy as viem snippet'), 'code', () => post({ type: 'history', action: 'copyViem', id: h.id })),
      button(l10n.t('Copy as ethers snippet'), 'code', () => post({ type: 'history', action: 'copyEthers', id: h.id })),
      button(h.pinned ? l10n.t('Unpin') : l10n.t('Pin (kept past the limit)'), h.pinned ? 'pinned' : 'pin', () =>
        post({ type: 'history', action: h.pinned ? 'unpin' : 'pin', id: h.id }),
      ),
    );
    li.append(what, summary, actions);
    return li;
  });
  els.history.replaceChildren(...items);
}

// ---------------------------------------------------------------- state from the extension

let reportRendering = false;
let lastOutcomes: Record<string, OutcomeView> = {};

function apply(s: Extract<ToWebview, { type: 'update' }>['state']): void {
  const name = s.contract.name;
  els.heading.textContent = text(l10n.t('Call {0}', name));
  document.title = els.heading.textContent;
  els.network.textContent = text(s.network);
  els.address.textContent = text(
    [s.contract.id, s.contract.address].filter((x, i, all) => x && all.indexOf(x) === i).join(' · '),
  );
  els.source.textContent = text(s.source ?? '');
  els.loading.hidden = s.status !== 'loading';
  els.failed.hidden = s.status !== 'failed';
  els.failed.textContent = text(s.message ?? '');
  els.common.hidden = s.status !== 'ready';
  if (s.status !== 'ready') drawForms([]);
  else if (s.functions) drawForms(s.functions);
  for (const [key, p] of forms) {
    const o = s.outcomes[key];
    // an outcome drawn again only when it changed (the fields keep what is typed)
    if (JSON.stringify(o) !== JSON.stringify(lastOutcomes[key])) drawOutcome(p, o);
  }
  lastOutcomes = s.outcomes;
  if (s.history) drawHistory(s.history);
  vscode.setState({ v: 1, address: s.contract.address });
}

/** A test's press (test mode only): the fields typed into, then the button clicked or Enter in the last field. */
function press(m: Extract<ToWebview, { type: 'press' }>): void {
  const found = forms.get(m.key);
  if (!found) return;
  const p = complete(found);
  p.fields.forEach((f, i) => {
    f.value = m.inputs[i] ?? '';
    f.dispatchEvent(new Event('input', { bubbles: true }));
  });
  const last = p.fields[p.fields.length - 1];
  if (m.how === 'enter' && last)
    last.dispatchEvent(new KeyboardEvent('keydown', { key: 'Enter', bubbles: true, cancelable: true }));
  else p.button.click();
}

/** The function shown first (a function lens's), for a test's report. */
let focusedKey: string | undefined;

/** Shows a function first: its form drawn whole, scrolled to the middle, its first field (or its button) focused. */
function focusForm(key: string): void {
  const found = forms.get(key);
  if (!found) return;
  const p = complete(found);
  document.querySelectorAll('.fn.target').forEach((f) => f.classList.remove('target'));
  p.form.classList.add('target');
  p.form.scrollIntoView({ block: 'center' });
  (p.fields[0] ?? p.button).focus({ preventScroll: true });
  focusedKey = key;
  reportFocus();
}

function reportFocus(): void {
  if (reportRendering && focusedKey)
    post({ type: 'rendered', key: focusedKey, status: 'focused', text: document.activeElement?.id ?? '' });
}

window.addEventListener('message', (e: MessageEvent) => {
  const m = e.data as ToWebview;
  if (!m || typeof m !== 'object') return;
  if (m.type === 'press' && reportRendering) return press(m);
  if (m.type === 'focus') return focusForm(m.key);
  if (m.type !== 'update') return;
  if (m.reportRendered === true && !reportRendering) {
    reportRendering = true;
    reportFocus();
  }
  apply(m.state);
});

$('app').dataset.ready = 'true';
performance.mark('contractCall.ready');
// the state the extension put in the HTML (a contract it knew when it opened the panel): drawn before `ready` goes
// (not when the page runs again after being hidden: its HTML's state is older than what the extension sends then)
const first = vscode.getState() === undefined ? document.getElementById('hedera-state')?.textContent : undefined;
if (first) {
  const state = JSON.parse(first) as FirstState;
  apply(state);
  if (state.focus) focusForm(state.focus);
}
post({ type: 'ready', drewFirst: first !== undefined });
