// What the inspector panel accepts from its page (src/features/inspector/protocol.ts): every message checked for
// type, shape, lengths and allowed values; the saved state handed back after a reload is never trusted as it is.
import * as assert from 'assert';
import { MAX_COPY, parseSavedState, parseWebviewMessage } from '../../src/features/inspector/protocol';

const accepted = (m: unknown) => {
  const r = parseWebviewMessage(m);
  assert.ok(r.ok, `refused ${JSON.stringify(m)}: ${r.ok ? '' : r.reason}`);
  return r.value;
};
const refused = (m: unknown, why?: RegExp) => {
  const r = parseWebviewMessage(m);
  assert.ok(!r.ok, `accepted ${JSON.stringify(m).slice(0, 100)}`);
  if (why) assert.match(r.reason, why);
};

describe('inspector protocol: messages from the page', () => {
  it('accepts the messages the page sends', () => {
    assert.deepStrictEqual(accepted({ type: 'ready' }), { type: 'ready' });
    assert.deepStrictEqual(accepted({ type: 'debug' }), { type: 'debug' });
    assert.deepStrictEqual(accepted({ type: 'retry', section: 'trace' }), { type: 'retry', section: 'trace' });
    assert.deepStrictEqual(accepted({ type: 'inspect', transactionId: '0.0.5-1700000000-000000001', nonce: 1 }), {
      type: 'inspect',
      transactionId: '0.0.5-1700000000-000000001',
      nonce: 1,
    });
    assert.deepStrictEqual(accepted({ type: 'hashscan', kind: 'contract', id: '0.0.7001' }), {
      type: 'hashscan',
      kind: 'contract',
      id: '0.0.7001',
    });
    assert.deepStrictEqual(accepted({ type: 'copy', text: 'x'.repeat(MAX_COPY) }).type, 'copy');
    assert.deepStrictEqual(accepted({ type: 'raw', source: 'actions' }), { type: 'raw', source: 'actions' });
    const r = accepted({
      type: 'rendered',
      ready: ['overview', 'trace'],
      traceRows: 1200,
      traceDomRows: 40,
      events: 3,
      stateChanges: 5,
      transfers: 2,
    });
    assert.strictEqual(r.type, 'rendered');
  });

  it('refuses anything else: unknown types and fields, wrong values, oversized text', () => {
    refused(null, /not an object/);
    refused('ready', /not an object/);
    refused([{ type: 'ready' }], /not an object/);
    refused({ type: 'ready', extra: 1 }, /unexpected field extra/);
    // the panel names the transaction to debug: the page cannot
    refused({ type: 'debug', transaction: '0.0.2-1700000000-000000001' }, /debug: unexpected field transaction/);
    refused({ type: 'retry', section: 'everything' }, /section/);
    refused({ type: 'retry', section: '__proto__' }, /section/);
    refused({ type: 'inspect', transactionId: 'x'.repeat(81), nonce: 0 }, /short string/);
    refused({ type: 'inspect', transactionId: '0.0.5-1-1', nonce: -1 }, /nonce/);
    refused({ type: 'inspect', transactionId: '0.0.5-1-1', nonce: 1.5 }, /nonce/);
    refused({ type: 'inspect', transactionId: '0.0.5-1-1', nonce: 2 ** 31 }, /nonce/);
    refused({ type: 'hashscan', kind: 'file', id: '0.0.1' }, /link kind/);
    refused({ type: 'hashscan', kind: 'account', id: '' }, /short string/);
    refused({ type: 'copy', text: 'x'.repeat(MAX_COPY + 1) }, /1,000,000/);
    refused({ type: 'copy', text: 42 }, /string/);
    refused({ type: 'raw', source: 'file:///etc/passwd' }, /raw.source/);
    refused(
      { type: 'rendered', ready: ['nope'], traceRows: 1, traceDomRows: 1, events: 1, stateChanges: 1, transfers: 1 },
      /sections/,
    );
    refused(
      { type: 'rendered', ready: [], traceRows: -1, traceDomRows: 1, events: 1, stateChanges: 1, transfers: 1 },
      /whole numbers/,
    );
    refused({ type: 'x'.repeat(10_000) }, /unknown type/);
  });
});

describe('inspector protocol: the saved state', () => {
  it('keeps a valid state, cleans the optional parts', () => {
    const r = parseSavedState({
      v: 1,
      ref: '0.0.5-1700000000-000000001',
      nonce: 0,
      network: 'testnet',
      collapsed: [1, -2, 3.5, 'x', 4],
      scrollTop: 12.7,
    });
    assert.ok(r.ok);
    assert.deepStrictEqual(r.value, {
      v: 1,
      ref: '0.0.5-1700000000-000000001',
      nonce: 0,
      network: 'testnet',
      collapsed: [1, 4],
      scrollTop: 12,
    });
  });

  it('refuses a state it cannot trust', () => {
    for (const bad of [
      null,
      'x',
      { v: 2, ref: 'a', nonce: 0, network: 'testnet' },
      { v: 1, ref: '', nonce: 0, network: 'testnet' },
      { v: 1, ref: 'a'.repeat(201), nonce: 0, network: 'testnet' },
      { v: 1, ref: 'a', nonce: -1, network: 'testnet' },
      { v: 1, ref: 'a', nonce: 0, network: 'Test Net' },
      { v: 1, ref: 'a', nonce: 0 },
    ]) {
      assert.ok(!parseSavedState(bad).ok, JSON.stringify(bad));
    }
  });
});
