/**
 * The page's DOM vocabulary: elements built from script (the CSP allows no inline markup), every text from the model
 * set with textContent or title through inert() (invisible and reordering characters shown as <U+XXXX>), never as
 * HTML. Copy buttons and HashScan links post to the extension; the page itself never navigates.
 */
import * as l10n from '@vscode/l10n';
import type { EntityView, LinkKind, ValueView } from '../../../api/inspect/model';
import { inert } from '../../../api/text';
import type { FromWebview } from '../protocol';
import { shortHex } from './format';

let poster: (m: FromWebview) => void = () => undefined;
/** Where messages go (the VS Code API's postMessage), set once by the page. */
export function setPoster(p: (m: FromWebview) => void): void {
  poster = p;
}
export function post(m: FromWebview): void {
  poster(m);
}

type Child = Node | string | undefined | null | false;

/** An element with classes and children; strings become inert text nodes. */
export function h<K extends keyof HTMLElementTagNameMap>(
  tag: K,
  cls?: string,
  ...children: Child[]
): HTMLElementTagNameMap[K] {
  const e = document.createElement(tag);
  if (cls) e.className = cls;
  append(e, ...children);
  return e;
}

export function append(parent: HTMLElement | DocumentFragment, ...children: Child[]): void {
  for (const c of children) {
    if (c === undefined || c === null || c === false) continue;
    parent.append(typeof c === 'string' ? text(c) : c);
  }
}

/** Untrusted text as a text node. */
export function text(value: string): Text {
  return document.createTextNode(inert(value, 'text'));
}

/** A span of untrusted text, with its full value as the tooltip when `title` is true or a string. */
export function span(cls: string, value: string, title?: string | boolean): HTMLSpanElement {
  const s = h('span', cls, value);
  if (title) s.title = inert(title === true ? value : title, 'text');
  return s;
}

export function icon(name: string, cls = ''): HTMLSpanElement {
  const s = document.createElement('span');
  s.className = `codicon codicon-${name}${cls ? ` ${cls}` : ''}`;
  s.setAttribute('aria-hidden', 'true');
  return s;
}

/** A button with an accessible name (its label, or `ariaLabel` for an icon-only button). */
export function button(
  label: string,
  onClick: () => void,
  opts: { icon?: string; cls?: string; ariaLabel?: string; title?: string } = {},
): HTMLButtonElement {
  const b = h('button', opts.cls ?? '');
  b.type = 'button';
  if (opts.icon) b.append(icon(opts.icon));
  if (label) b.append(text(label));
  if (opts.ariaLabel) b.setAttribute('aria-label', inert(opts.ariaLabel, 'label'));
  if (opts.title ?? opts.ariaLabel) b.title = inert(opts.title ?? opts.ariaLabel ?? '', 'text');
  b.addEventListener('click', (e) => {
    e.stopPropagation();
    onClick();
  });
  return b;
}

/** The small copy button beside an id, hash, address or value. */
export function copyButton(value: string, what: string): HTMLButtonElement {
  return button('', () => post({ type: 'copy', text: value }), {
    icon: 'copy',
    cls: 'icon copy',
    ariaLabel: l10n.t('Copy {0}', what),
    title: l10n.t('Copy {0}: {1}', what, value.length > 200 ? `${value.slice(0, 200)}…` : value),
  });
}

/** A link-styled button that opens `id` on HashScan (the extension checks the id again). */
export function hashscanLink(
  kind: LinkKind,
  id: string,
  shown: string,
  opts: { tabbable?: boolean; title?: string } = {},
): HTMLButtonElement {
  const b = button(shown, () => post({ type: 'hashscan', kind, id }), {
    cls: 'link',
    title: opts.title ?? l10n.t('Open {0} {1} in HashScan', kind, id),
  });
  if (opts.tabbable === false) b.tabIndex = -1;
  return b;
}

/** Hex that may be long: shortened on screen, whole in the tooltip and the copy. */
export function hex(value: string, cls = 'mono'): HTMLSpanElement {
  const shown = shortHex(value);
  return span(cls, shown, shown !== value ? value : false);
}

/** A value with its copy button. */
export function copyable(value: string, what: string, cls = 'mono wrap'): HTMLSpanElement {
  return h('span', 'copyable', span(cls, value), copyButton(value, what));
}

/** A hex value shortened when long, with its copy button. */
export function copyableHex(value: string, what: string): HTMLSpanElement {
  return h('span', 'copyable', hex(value), copyButton(value, what));
}

/**
 * An account, contract or token: its name, its entity id as a HashScan link with a copy button, its EVM address
 * beside (shortened when `compact`, whole otherwise) with a copy button. `kind` when the entity does not say.
 */
export function entity(
  e: EntityView,
  fallbackKind: LinkKind,
  opts: { compact?: boolean; copy?: boolean; tabbable?: boolean } = {},
): HTMLSpanElement {
  const kind = e.kind ?? fallbackKind;
  const out = h('span', 'entity');
  const copy = opts.copy !== false;
  if (e.name) out.append(span('name', e.name, true));
  if (e.id) {
    out.append(hashscanLink(kind, e.id, e.id, { tabbable: opts.tabbable }));
    if (copy) out.append(copyButton(e.id, `${kind} id ${e.id}`));
  }
  if (e.evm) {
    const shown = opts.compact ? shortHex(e.evm, 6, 4) : e.evm;
    const addr = e.id
      ? span('evm mono', shown, e.evm)
      : hashscanLink(kind, e.evm, shown, {
          tabbable: opts.tabbable,
          title: l10n.t('Open {0} {1} in HashScan', kind, e.evm),
        });
    addr.classList.add('evm', 'mono');
    out.append(addr);
    if (copy) out.append(copyButton(e.evm, l10n.t('EVM address {0}', e.evm)));
  }
  if (!e.name && !e.id && !e.evm) out.append(span('none', l10n.t('(unknown)')));
  return out;
}

/**
 * Decoded values as a table: name, type, value (whole, wrapping) with a copy button; tuples and arrays nested
 * (their children indented below them). `indexed` marked for event arguments.
 */
export function valuesTable(
  values: readonly ValueView[],
  caption: string,
  opts: { indexed?: boolean } = {},
): HTMLTableElement {
  const t = h('table', 'values');
  t.setAttribute('aria-label', inert(caption, 'label'));
  t.append(
    h('thead', '', h('tr', '', h('th', '', l10n.t('Name')), h('th', '', l10n.t('Type')), h('th', '', l10n.t('Value')))),
  );
  const body = h('tbody');
  const add = (v: ValueView, depth: number, path: string) => {
    const name = h('td', 'vname', v.name || l10n.t('(unnamed)'));
    if (!v.name) name.classList.add('none');
    if (depth) name.style.paddingLeft = `${8 + depth * 14}px`;
    const value = h('td', 'vvalue');
    if (v.children && v.children.length) value.append(span('mono wrap muted', v.value));
    else value.append(copyable(v.value, l10n.t('value of {0}', path || l10n.t('the value'))));
    const type = h('td', 'vtype mono', v.type);
    if (opts.indexed && v.indexed && !depth)
      type.append(span('tag', l10n.t('indexed'), l10n.t('An indexed argument (a topic of the log)')));
    body.append(h('tr', '', name, type, value));
    for (const c of v.children ?? []) add(c, depth + 1, `${path}${path ? '.' : ''}${c.name}`);
  };
  for (const v of values) add(v, 0, v.name);
  t.append(body);
  return t;
}

/** A label / value list (a definition list laid out as a grid). */
export class Fields {
  readonly el = h('dl', 'fields');
  add(label: string, ...value: Child[]): HTMLElement {
    const dd = h('dd', '', ...value);
    this.el.append(h('dt', '', label), dd);
    return dd;
  }
}

/** A block of raw data (call data, return data): monospace, wrapping, scrolling when long, with a copy button. */
export function rawBlock(value: string, what: string): HTMLElement {
  const pre = h('pre', 'raw', value);
  pre.tabIndex = 0;
  pre.setAttribute('aria-label', inert(what, 'label'));
  return h('div', 'raw-wrap', pre, copyButton(value, what));
}

/** A notice line (info, warning, error) with an icon. */
export function banner(kind: 'info' | 'warning' | 'error', ...children: Child[]): HTMLElement {
  const b = h(
    'div',
    `banner ${kind}`,
    icon(kind === 'info' ? 'info' : kind === 'warning' ? 'warning' : 'error'),
    h('div', 'banner-body', ...children),
  );
  if (kind === 'error') b.setAttribute('role', 'alert');
  return b;
}
