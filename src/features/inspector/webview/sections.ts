/**
 * The inspector's sections other than the call trace, drawn whole from their view models: Overview, Events, State
 * changes, Transfers. Each function returns the section's content and how many rows it drew (for `rendered`).
 * Long lists are drawn in pages (`Show more`), so that a transaction with thousands of logs does not stall the page.
 */
import * as l10n from '@vscode/l10n';
import type {
  CallView,
  ErrorView,
  EventView,
  OverviewModel,
  RelatedView,
  SourceModel,
  StateChangeView,
  StateVariableView,
  TransfersModel,
  TransferView,
} from '../../../api/inspect/model';
import { inert } from '../../../api/text';
import {
  append,
  banner,
  button,
  copyable,
  copyableHex,
  copyButton,
  entity,
  Fields,
  h,
  icon,
  post,
  rawBlock,
  span,
  valuesTable,
} from './dom';
import { barWidth, groupStateChanges, hexBytes, percentText } from './format';

export interface Drawn {
  node: HTMLElement;
  /** Rows (events, state changes, transfers) in the DOM. */
  count: () => number;
}

/** Rows drawn at first, and added per `Show more`. */
export const PAGE = 100;

let moreDrawn: () => void = () => undefined;
/** The page shows a transaction (false: a simulated call, which has none to debug). */
let debuggable = true;

export function setDebuggable(v: boolean): void {
  debuggable = v;
}
/** Called after `Show more` drew rows (the page reports what it drew). */
export function onMoreDrawn(hook: () => void): void {
  moreDrawn = hook;
}

// ---------------------------------------------------------------- shared pieces

function outcomeIcon(outcome: 'success' | 'failure' | 'unknown'): HTMLSpanElement {
  return outcome === 'success'
    ? icon('pass-filled', 'ok')
    : outcome === 'failure'
      ? icon('error', 'failed')
      : icon('question', 'muted');
}

/** A revert reason / error: its one line in the error colour, its decoded arguments and source below. */
export function errorView(e: ErrorView): HTMLElement {
  const box = h('div', 'error-view', h('div', 'error-text mono wrap', icon('error', 'failed'), span('', e.text)));
  if (e.args && e.args.length)
    box.append(valuesTable(e.args, l10n.t('Arguments of {0}', e.name ?? l10n.t('the error'))));
  if (e.source) box.append(h('div', 'source', l10n.t('decoded with {0}', e.source)));
  return box;
}

/** A decoded call: `name(signature)`, selector, what decoded it, the arguments. */
export function callView(c: CallView): HTMLElement {
  const box = h('div', 'call-view');
  box.append(
    h(
      'div',
      'call-head',
      span('fn mono', c.name, c.signature),
      span('sig mono muted', c.signature),
      h('span', 'selector', span('mono', c.selector), copyButton(c.selector, `selector ${c.selector}`)),
    ),
  );
  if (c.args.length) box.append(valuesTable(c.args, l10n.t('Arguments of {0}', c.name)));
  else box.append(h('div', 'muted', l10n.t('No arguments.')));
  box.append(h('div', 'source', l10n.t('decoded with {0}', c.source)));
  return box;
}

/** Raw hex data with its size. */
function rawData(value: string, what: string): HTMLElement {
  const bytes = hexBytes(value);
  return h(
    'div',
    '',
    bytes !== undefined ? h('div', 'muted', l10n.t('{0} bytes', bytes.toLocaleString('en-US'))) : null,
    rawBlock(value, what),
  );
}

function amount(hbar: string, tinybars: string, what: string): HTMLElement {
  return h(
    'span',
    'amount',
    copyable(hbar, l10n.t('{0} in hbar', what), 'mono'),
    h('span', 'muted', ' ('),
    copyable(tinybars, l10n.t('{0} in tinybars', what), 'mono'),
    h('span', 'muted', ` ${l10n.t('tinybars')})`),
  );
}

/** A "Show N more" button under a list drawn in pages. */
function pager(total: number, drawn: () => number, drawMore: (from: number, to: number) => void): HTMLElement {
  const status = h('span', 'muted');
  status.setAttribute('role', 'status');
  // one button for the life of the list, so that the keyboard focus stays on it while more rows come
  const more = button('', () => {
    const n = drawn();
    drawMore(n, Math.min(total, n + PAGE));
    update();
    moreDrawn();
  });
  const foot = h('div', 'list-foot', status, more);
  const update = () => {
    const n = drawn();
    status.textContent = `${n.toLocaleString('en-US')} of ${total.toLocaleString('en-US')} shown.`;
    more.textContent = n < total ? l10n.t('Show {0} more', Math.min(PAGE, total - n).toLocaleString('en-US')) : '';
    more.hidden = n >= total;
    foot.hidden = n >= total && total <= PAGE;
  };
  update();
  return foot;
}

// ---------------------------------------------------------------- overview

function relationText(relation: RelatedView['relation']): string {
  switch (relation) {
    case 'self':
      return l10n.t('this transaction');
    case 'parent':
      return l10n.t('parent');
    case 'child':
      return l10n.t('child');
    case 'sibling':
      return l10n.t('sibling');
  }
}

function relatedList(related: RelatedView[]): HTMLElement {
  const ul = h('ul', 'related');
  for (const r of related) {
    const label = `${r.transactionId}${r.nonce !== '0' ? ` (${l10n.t('nonce {0}', r.nonce)})` : ''}`;
    const what = relationText(r.relation);
    const li = h('li', `rel-${r.relation}`, h('span', 'tag', what));
    if (r.relation === 'self') li.append(span('mono', label));
    else {
      const nonce = Number(r.nonce);
      const link = button(label, () => post({ type: 'inspect', transactionId: r.transactionId, nonce }), {
        cls: 'link mono',
        title: l10n.t('Inspect {0}', label),
      });
      if (!Number.isSafeInteger(nonce) || nonce < 0) link.disabled = true;
      li.append(link);
    }
    li.append(copyButton(r.transactionId, l10n.t('transaction id {0}', r.transactionId)));
    li.append(span('muted', ` ${r.name} · ${r.result}${r.timestamp ? ` · ${r.timestamp}` : ''}`));
    ul.append(li);
  }
  return ul;
}

export function drawOverview(o: OverviewModel): Drawn {
  const f = new Fields();
  const result = f.add(
    l10n.t('Result'),
    h('span', `outcome ${o.outcome}`, outcomeIcon(o.outcome), span('result mono', o.result)),
  );
  if (o.error) result.append(errorView(o.error));
  f.add(
    l10n.t('Time'),
    span('', o.timeLocal || o.timestamp),
    ' ',
    h('span', 'muted', '('),
    copyable(o.timestamp, l10n.t('consensus timestamp'), 'mono'),
    h('span', 'muted', ')'),
  );
  if (o.transactionId) f.add(l10n.t('Transaction ID'), copyable(o.transactionId, l10n.t('transaction id'), 'mono'));
  if (o.nonce !== undefined && o.nonce !== '0')
    f.add(
      l10n.t('Nonce'),
      copyable(o.nonce, l10n.t('nonce'), 'mono'),
      h('span', 'muted', ` ${l10n.t('(a child transaction)')}`),
    );
  if (o.hash) f.add(l10n.t('Hash'), copyable(o.hash, l10n.t('hash'), 'mono wrap'));
  if (o.type) f.add(l10n.t('Type'), span('mono', o.type));
  if (o.from) f.add(l10n.t('From'), entity(o.from, 'account'));
  if (o.to) f.add(l10n.t('To'), entity(o.to, 'contract'));
  if (o.created.length) f.add(l10n.t('Created'), ...o.created.map((c) => h('div', '', entity(c, 'contract'))));
  if (o.call) f.add(l10n.t('Function'), callView(o.call));
  else if (o.input !== undefined)
    f.add(
      l10n.t('Input'),
      hexBytes(o.input) === 0
        ? span('muted', l10n.t('(no call data)'))
        : hexBytes(o.input) === undefined
          ? span('', o.input)
          : rawData(o.input, l10n.t('call data')),
    );
  if (o.output && o.output.length) f.add(l10n.t('Output'), valuesTable(o.output, l10n.t('Return values')));
  else if (o.outputRaw && hexBytes(o.outputRaw) !== 0)
    f.add(
      o.error ? l10n.t('Revert data') : l10n.t('Output'),
      rawData(o.outputRaw, o.error ? l10n.t('revert data') : l10n.t('return data')),
    );
  f.add(l10n.t('Value'), amount(o.value.hbar, o.value.tinybars, l10n.t('value')));
  f.add(l10n.t('Gas'), gasView(o));
  if (o.fee) f.add(l10n.t('Fee'), amount(o.fee.hbar, o.fee.tinybars, l10n.t('fee')));
  if (o.gasPrice)
    f.add(
      l10n.t('Gas price'),
      copyable(o.gasPrice, l10n.t('gas price'), 'mono'),
      h('span', 'muted', ` ${l10n.t('tinybars per gas')}`),
    );
  if (o.maxFeePerGas)
    f.add(
      l10n.t('Max fee per gas'),
      copyable(o.maxFeePerGas, l10n.t('max fee per gas'), 'mono'),
      h('span', 'muted', ` ${l10n.t('tinybars')}`),
    );
  if (o.maxPriorityFeePerGas)
    f.add(
      l10n.t('Max priority fee'),
      copyable(o.maxPriorityFeePerGas, l10n.t('max priority fee per gas'), 'mono'),
      h('span', 'muted', ` ${l10n.t('tinybars')}`),
    );
  if (o.block)
    f.add(
      l10n.t('Block'),
      copyable(o.block.number, l10n.t('block number'), 'mono'),
      o.block.hash ? h('span', 'block-hash', copyableHex(o.block.hash, l10n.t('block hash'))) : null,
    );
  if (o.ethNonce !== undefined) f.add(l10n.t('Ethereum nonce'), copyable(o.ethNonce, l10n.t('Ethereum nonce'), 'mono'));
  if (o.related.length) f.add(l10n.t('Related'), relatedList(o.related));
  const node = h('div', 'overview', f.el);
  if (o.notes.length) node.append(h('ul', 'notes', ...o.notes.map((n) => h('li', '', icon('info'), span('', n)))));
  return { node, count: () => 0 };
}

function gasView(o: OverviewModel): HTMLElement {
  const g = o.gas;
  const bar = h('div', 'bar', h('div', 'bar-fill'));
  (bar.firstChild as HTMLElement).style.width = barWidth(g.ratio);
  bar.setAttribute('role', 'img');
  bar.setAttribute('aria-label', l10n.t('Gas used: {0} of the limit', percentText(g.ratio)));
  const line = h(
    'div',
    'gas-line',
    h('span', '', span('muted', `${l10n.t('used')} `), copyable(g.used, l10n.t('gas used'), 'mono')),
    h('span', '', span('muted', `${l10n.t('limit')} `), copyable(g.limit, l10n.t('gas limit'), 'mono')),
    g.consumed !== undefined
      ? h('span', '', span('muted', `${l10n.t('consumed')} `), copyable(g.consumed, l10n.t('gas consumed'), 'mono'))
      : null,
    span('muted', percentText(g.ratio)),
  );
  return h('div', 'gas', line, bar);
}

// ---------------------------------------------------------------- events

function eventCard(e: EventView): HTMLElement {
  const head = h(
    'div',
    'card-head',
    span('index mono', `#${e.index}`),
    entity(e.emitter, 'contract', { compact: true }),
  );
  const card = h('article', 'card event');
  card.setAttribute('aria-label', inert(`${l10n.t('Event {0}', e.index)}${e.name ? ` ${e.name}` : ''}`, 'label'));
  if (e.name) {
    head.append(span('fn mono', e.name, e.signature ?? true));
    card.append(head);
    if (e.args && e.args.length)
      card.append(valuesTable(e.args, l10n.t('Arguments of {0}', e.name ?? ''), { indexed: true }));
    if (e.source) card.append(h('div', 'source', l10n.t('decoded with {0}', e.source)));
  } else {
    head.append(span('muted', l10n.t('not decoded')));
    card.append(head);
    const f = new Fields();
    e.topics.forEach((t, i) => f.add(`topic${i}`, copyableHex(t, l10n.t('topic {0}', i))));
    f.add('data', hexBytes(e.data) === 0 ? span('muted', l10n.t('(empty)')) : rawData(e.data, l10n.t('event data')));
    card.append(f.el);
  }
  return card;
}

export function drawEvents(events: EventView[]): Drawn {
  if (!events.length)
    return { node: h('p', 'muted empty', l10n.t('No events: this transaction emitted no logs.')), count: () => 0 };
  const list = h('div', 'cards');
  const more = (from: number, to: number) => {
    for (let i = from; i < to; i++) list.append(eventCard(events[i]));
  };
  more(0, Math.min(PAGE, events.length));
  const node = h(
    'div',
    '',
    list,
    pager(events.length, () => list.childElementCount, more),
  );
  return { node, count: () => list.childElementCount };
}

// ---------------------------------------------------------------- state changes

/** One named variable of a slot: label and type, the decoded old → new value (or the value, when unchanged). */
function variableView(v: StateVariableView, changed: boolean): HTMLElement {
  const box = h(
    'div',
    changed ? 'var' : 'var unchanged',
    h('div', '', span('vname mono', v.label, true), ' ', span('vtype mono muted', v.type)),
  );
  if (v.before !== undefined || v.after !== undefined) {
    const decoded = h(
      'div',
      'decoded mono wrap',
      v.before !== undefined ? copyable(v.before, l10n.t('old value of {0}', v.label)) : null,
    );
    if (v.after !== undefined && changed)
      append(decoded, icon('arrow-right', 'muted'), copyable(v.after, l10n.t('new value of {0}', v.label)));
    else if (v.after !== undefined && v.before === undefined)
      append(decoded, copyable(v.after, l10n.t('new value of {0}', v.label)));
    box.append(decoded);
  }
  return box;
}

function stateRow(c: StateChangeView, hasLayout: boolean): HTMLTableRowElement {
  const change = h('td', 'change');
  if (c.written === undefined)
    change.append(copyableHex(c.read, l10n.t('value read')), span('tag', l10n.t('read only')));
  else
    change.append(
      copyableHex(c.read, l10n.t('value read')),
      icon('arrow-right', 'muted'),
      copyableHex(c.written, l10n.t('value written')),
    );
  const name = h('td', 'variable');
  // a slot holding several variables (packed, struct members, small array elements) lists them all
  const vars = c.variables && c.variables.length ? c.variables : c.variable ? [c.variable] : [];
  if (vars.length) {
    for (const v of vars) name.append(variableView(v, v.after !== undefined && v.after !== v.before));
  } else {
    name.append(
      span(
        'none',
        hasLayout ? l10n.t('(not named: not in the storage layout)') : l10n.t('(not named: no storage layout)'),
      ),
    );
  }
  return h(
    'tr',
    c.written === undefined ? 'read-only' : '',
    h('td', 'slot', copyableHex(c.slot, l10n.t('slot'))),
    change,
    name,
  );
}

export function drawState(changes: StateChangeView[]): Drawn {
  if (!changes.length) return { node: h('p', 'muted empty', l10n.t('No state changes.')), count: () => 0 };
  const node = h('div', 'state-changes');
  let drawn = 0;
  const groups = groupStateChanges(changes);
  // the rows drawn in pages across groups, in order
  const bodies: { body: HTMLElement; group: ReturnType<typeof groupStateChanges>[number]; next: number }[] = [];
  for (const g of groups) {
    const body = h('tbody');
    const cols = h('colgroup', '', h('col', 'c-slot'), h('col', 'c-change'), h('col', 'c-var'));
    const table = h(
      'table',
      'grid-table fixed',
      cols,
      h(
        'thead',
        '',
        h(
          'tr',
          '',
          h('th', '', l10n.t('Slot')),
          h('th', '', l10n.t('Read → written')),
          h('th', '', l10n.t('Variable')),
        ),
      ),
      body,
    );
    table.setAttribute(
      'aria-label',
      inert(
        l10n.t('State changes of {0}', g.contract.name ?? g.contract.id ?? g.contract.evm ?? l10n.t('a contract')),
        'label',
      ),
    );
    const written = g.changes.filter((c) => c.written !== undefined).length;
    // where the names come from, once per contract (not on every row)
    const source = g.changes.map((c) => (c.variables?.[0] ?? c.variable)?.layoutSource).find((x) => !!x);
    node.append(
      h(
        'div',
        'group',
        h(
          'h3',
          'group-head',
          entity(g.contract, 'contract'),
          span('muted', ` ${g.changes.length} slot${g.changes.length === 1 ? '' : 's'}, ${written} written`),
        ),
        source ? h('div', 'source muted', l10n.t('Named with the storage layout in {0}', source)) : null,
        table,
      ),
    );
    bodies.push({ body, group: g, next: 0 });
  }
  const more = (from: number, to: number) => {
    let left = to - from;
    for (const b of bodies) {
      while (left > 0 && b.next < b.group.changes.length) {
        b.body.append(stateRow(b.group.changes[b.next++], b.group.hasLayout));
        drawn++;
        left--;
      }
    }
  };
  more(0, Math.min(PAGE, changes.length));
  node.append(pager(changes.length, () => drawn, more));
  return { node, count: () => drawn };
}

// ---------------------------------------------------------------- transfers

function transferRow(t: TransferView): HTMLTableRowElement {
  const kindCell = h(
    'td',
    'kind',
    span('tag', t.kind === 'hbar' ? 'HBAR' : t.kind === 'token' ? l10n.t('Token') : 'NFT'),
  );
  if (t.isApproval) kindCell.append(span('tag approval', 'approval', l10n.t('An approved (allowance) transfer')));
  const who = h('td', 'who');
  const what = h('td', 'what');
  if (t.kind === 'nft') {
    append(
      who,
      t.sender ? entity(t.sender, 'account', { compact: true }) : span('none', '(none)'),
      icon('arrow-right', 'muted'),
      t.receiver ? entity(t.receiver, 'account', { compact: true }) : span('none', '(none)'),
    );
    append(
      what,
      t.token ? entity(t.token, 'token', { compact: true }) : null,
      t.serial !== undefined
        ? h('span', '', span('muted', ` ${l10n.t('serial')} `), copyable(t.serial, l10n.t('serial number'), 'mono'))
        : null,
    );
  } else {
    append(who, t.account ? entity(t.account, 'account', { compact: true }) : span('none', '(none)'));
    const signed = t.amount ?? '';
    const cls = signed.startsWith('-') ? 'mono debit' : 'mono credit';
    if (t.kind === 'hbar')
      append(
        what,
        copyable(t.hbar ?? signed, l10n.t('amount in hbar'), cls),
        t.hbar && signed ? h('span', 'muted', ` (${signed} tinybars)`) : null,
      );
    else
      append(
        what,
        copyable(signed, l10n.t('amount'), cls),
        t.token ? entity(t.token, 'token', { compact: true }) : null,
      );
  }
  return h('tr', t.isApproval ? 'approval' : '', kindCell, who, what);
}

export function drawTransfers(m: TransfersModel): Drawn {
  const node = h('div', 'transfers');
  const body = h('tbody');
  if (m.transfers.length) {
    const table = h(
      'table',
      'grid-table',
      h(
        'thead',
        '',
        h('tr', '', h('th', '', l10n.t('Kind')), h('th', '', l10n.t('Account')), h('th', '', l10n.t('Amount'))),
      ),
      body,
    );
    table.setAttribute('aria-label', l10n.t('Transfers'));
    node.append(table);
  } else {
    node.append(h('p', 'muted empty', l10n.t('No HBAR, token or NFT transfers in the transaction record.')));
  }
  const more = (from: number, to: number) => {
    for (let i = from; i < to; i++) body.append(transferRow(m.transfers[i]));
  };
  more(0, Math.min(PAGE, m.transfers.length));
  node.append(pager(m.transfers.length, () => body.childElementCount, more));
  if (m.fee || m.payer) {
    const f = new Fields();
    if (m.fee) f.add(l10n.t('Charged fee'), amount(m.fee.hbar, m.fee.tinybars, l10n.t('charged fee')));
    if (m.payer) f.add(l10n.t('Paid by'), entity(m.payer, 'account'));
    node.append(f.el);
  }
  // the child transactions' own transfers (a token service call's CRYPTOTRANSFER, ...), each under its heading
  const childBodies: HTMLElement[] = [];
  for (const c of m.children ?? []) {
    const cb = h('tbody');
    for (const t of c.transfers.transfers.slice(0, PAGE)) cb.append(transferRow(t));
    const table = h(
      'table',
      'grid-table',
      h(
        'thead',
        '',
        h('tr', '', h('th', '', l10n.t('Kind')), h('th', '', l10n.t('Account')), h('th', '', l10n.t('Amount'))),
      ),
      cb,
    );
    table.setAttribute('aria-label', l10n.t('Transfers of child transaction {0}', c.nonce));
    node.append(
      h(
        'h3',
        'child-heading',
        c.result
          ? l10n.t('Child transaction {0} (nonce {1}) · {2} · {3}', c.transactionId, c.nonce, c.name, c.result)
          : l10n.t('Child transaction {0} (nonce {1}) · {2}', c.transactionId, c.nonce, c.name),
      ),
      table,
    );
    childBodies.push(cb);
  }
  return { node, count: () => body.childElementCount + childBodies.reduce((n, b) => n + b.childElementCount, 0) };
}

/** The Source section: where the call reverted (exact: the Solidity call stack; likely: candidates), each a link. */
export function drawSource(m: SourceModel): Drawn {
  const node = h('div', 'source-section');
  if (m.mode !== 'none') {
    const badge =
      m.mode === 'exact'
        ? span(
            'badge exact',
            l10n.t('Exact'),
            m.trace?.by === 'replay'
              ? l10n.t(
                  "From a local replay checked against the network's record, through the compiler's source map, checked against the build's syntax tree",
                )
              : l10n.t(
                  "From the mirror node's opcode trace, through the compiler's source map, checked against the build's syntax tree",
                ),
          )
        : span(
            'badge likely',
            l10n.t('Likely'),
            l10n.t("From the call trace and the function's revert statements: not an exact trace"),
          );
    node.append(h('p', 'source-head', badge, m.reason ? span('bad', ` ${m.reason}`) : null));
  }
  // where the step trace came from, as text (a divergence's reason quotes the record)
  if (m.trace)
    node.append(
      h(
        'p',
        `source-trace${m.trace.matches ? ' muted' : ' diverged'}`,
        icon(
          m.trace.by === 'replay' ? (m.trace.matches ? 'debug-rerun' : 'warning') : 'server',
          m.trace.matches ? 'muted' : 'diverged',
        ),
        span('', ` ${m.trace.text}`),
      ),
    );
  const list = h('ol', 'source-frames');
  list.setAttribute('aria-label', m.mode === 'likely' ? l10n.t('Likely places') : l10n.t('Solidity call stack'));
  m.frames.forEach((f, i) => {
    const where = `${f.sourceName}:${f.line}`;
    const link =
      f.target >= 0
        ? button(where, () => post({ type: 'openSource', target: f.target }), {
            cls: 'link mono',
            title: l10n.t('Open {0} and mark the line', where),
            ariaLabel: l10n.t('Open {0}', where),
          })
        : span('mono muted', where, l10n.t('Not in the workspace'));
    const called = f.kind === 'callSite' || f.kind === 'internal';
    const what = called
      ? 'called from'
      : f.kind === 'candidate'
        ? 'candidate'
        : f.kind === 'outOfGas'
          ? 'out of gas'
          : 'reverted';
    // "reverted in Ledger", "reverted in the constructor of Ledger" (a failed deployment), "called from Vault"
    const kind = f.contract && !called ? `${what} in` : what;
    const item = h(
      'li',
      `source-frame${i === 0 && m.mode === 'exact' ? ' failing' : ''}`,
      h(
        'div',
        'source-where',
        i === 0 && m.mode === 'exact'
          ? icon('error', 'bad')
          : icon(
              f.kind === 'callSite' || f.kind === 'internal' ? 'debug-stackframe' : 'debug-breakpoint-unverified',
              'muted',
            ),
        span('muted', ` ${kind} `),
        f.contract ? span('named', `${f.contract} `) : null,
        link,
      ),
      h('div', 'source-snippet mono', f.snippet),
      f.detail ? h('div', 'muted', f.detail) : null,
    );
    list.append(item);
  });
  if (m.frames.length) node.append(list);
  const debug = button(l10n.t('Debug Transaction'), () => post({ type: 'debug' }), {
    icon: 'debug-alt',
    title: l10n.t("Step through this transaction in VS Code's debugger"),
  });
  if (m.frames.length && m.frames[0].target >= 0) {
    node.append(
      h(
        'p',
        '',
        button(l10n.t('Go to revert'), () => post({ type: 'openSource', target: m.frames[0].target }), {
          icon: 'go-to-file',
          cls: 'primary',
          title:
            m.mode === 'exact' && m.trace
              ? l10n.t('Open the reverting line in the editor, marked ({0})', m.trace.text)
              : l10n.t('Open the reverting line in the editor, marked'),
        }),
        debuggable ? ' ' : null,
        debuggable ? debug : null,
      ),
    );
  } else if (debuggable) node.append(h('p', '', debug));
  for (const n of m.notes) node.append(banner('info', h('div', '', n)));
  if (!m.frames.length && !m.notes.length) node.append(h('p', 'muted empty', l10n.t('Nothing to place in source.')));
  return { node, count: () => list.childElementCount };
}
