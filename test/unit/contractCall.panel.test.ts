// The call panel's plain parts: ℏ typed into tinybars with every digit, the block chooser's choices, the kept calls
// (newest first, bounded, pinned ones kept past the bound, a stored list checked entry by entry), and the checks of
// the page's messages and saved state.
import * as assert from 'assert';
import {
  addKept,
  bound,
  checkKeptCall,
  type KeptCall,
  keptFor,
  readKept,
  setPinned,
} from '../../src/features/contractCall/history';
import { parsePanelState, parseWebviewMessage } from '../../src/features/contractCall/protocol';
import { checkBlockChoice, hbarToTinybars } from '../../src/api/callValues';

const A = '0x0000000000000000000000000000000000001b59';
const call = (n: number, over: Partial<KeptCall> = {}): KeptCall => ({
  id: `c${n}`,
  at: 1_000_000 + n,
  network: 'custom',
  mirrorUrl: 'http://127.0.0.1:5599',
  address: A,
  signature: 'feeBps()',
  readOnly: true,
  inputs: [],
  block: 'latest',
  outcome: { status: 'ok', summary: '30' },
  pinned: false,
  ...over,
});

describe('contract call: ℏ into tinybars', () => {
  it('keeps every digit, past 2^53 too', () => {
    const t = (s: string) => {
      const r = hbarToTinybars(s);
      assert.ok(r.ok, s);
      return r.value;
    };
    assert.strictEqual(t(''), 0n);
    assert.strictEqual(t('1'), 100_000_000n);
    assert.strictEqual(t('0.00000001'), 1n);
    assert.strictEqual(t('1.5 ℏ'), 150_000_000n);
    assert.strictEqual(t('.5'), 50_000_000n);
    assert.strictEqual(t('1,000.25'), 100_025_000_000n);
    assert.strictEqual(t('90071992.54740993'), 9_007_199_254_740_993n, '2^53 + 1 tinybars');
    assert.strictEqual(t('92233720368.54775807'), 9_223_372_036_854_775_807n, 'the int64 maximum');
    assert.strictEqual(t('2.100000000'), 210_000_000n, 'trailing zeros past 8 decimals are no more digits');
  });
  it('refuses more than 8 decimals, more than int64, and what is not an amount', () => {
    for (const s of ['0.000000001', '92233720368.54775808', '-1', '1e3', 'abc', '.', '0x10']) {
      const r = hbarToTinybars(s);
      assert.strictEqual(r.ok, false, s);
    }
    const r = hbarToTinybars('0.000000001');
    assert.match(r.ok ? '' : r.message, /8 decimals/);
  });
});

describe('contract call: the block chooser', () => {
  const now = Date.parse('2026-11-27T00:00:00Z');
  it('latest, a number (decimal or hex), a past time', () => {
    assert.deepStrictEqual(checkBlockChoice('', now), { ok: true, value: { kind: 'latest' } });
    assert.deepStrictEqual(checkBlockChoice(' Latest ', now), { ok: true, value: { kind: 'latest' } });
    assert.deepStrictEqual(checkBlockChoice('1234', now), { ok: true, value: { kind: 'number', number: '1234' } });
    assert.deepStrictEqual(checkBlockChoice('0x10', now), { ok: true, value: { kind: 'number', number: '16' } });
    assert.deepStrictEqual(checkBlockChoice('1700000000.5', now), {
      ok: true,
      value: { kind: 'time', timestamp: '1700000000.5' },
    });
    assert.deepStrictEqual(checkBlockChoice('2026-11-20T10:00:00Z', now), {
      ok: true,
      value: { kind: 'time', timestamp: '1795168800.000000000' },
    });
  });
  it('refuses a time to come, a number past int64 and anything else, with a sentence', () => {
    for (const s of ['2027-01-01', '99999999999999999999', 'earliest block', '1.2.3']) {
      const r = checkBlockChoice(s, now);
      assert.strictEqual(r.ok, false, s);
      assert.ok(!r.ok && r.message.length > 10);
    }
  });
});

describe('contract call: the kept calls', () => {
  it('newest first; at most `max` unpinned, pinned ones kept past the bound', () => {
    let list: KeptCall[] = [];
    for (let i = 0; i < 8; i++) list = addKept(list, call(i), 5);
    assert.deepStrictEqual(
      list.map((c) => c.id),
      ['c7', 'c6', 'c5', 'c4', 'c3'],
    );
    list = setPinned(list, 'c3', true, 5);
    for (let i = 8; i < 12; i++) list = addKept(list, call(i), 5);
    assert.deepStrictEqual(
      list.map((c) => c.id),
      ['c11', 'c10', 'c9', 'c8', 'c7', 'c3'],
      'the pinned c3 outlives newer unpinned calls',
    );
    list = setPinned(list, 'c3', false, 5);
    assert.ok(!list.some((c) => c.id === 'c3'), 'unpinned past the bound: dropped');
    assert.strictEqual(bound(list, 2).length, 2);
  });
  it('a stored list is checked entry by entry', () => {
    const good = call(1, { value: '150000000', from: '0.0.7006', blockNumber: '12' });
    const list = readKept([
      good,
      { ...good, id: 'x', address: 'not an address' },
      { ...good, id: 'y', outcome: { status: 'maybe', summary: '' } },
      { ...good, id: 'z', inputs: [1, 2] },
      'text',
      null,
      good, // the same id twice: once
    ]);
    assert.deepStrictEqual(list, [good]);
    assert.deepStrictEqual(readKept({ not: 'a list' }), []);
    assert.strictEqual(checkKeptCall({ ...good, extra: '<b>' })?.id, 'c1', 'unknown fields are dropped');
    assert.ok(!('extra' in (checkKeptCall({ ...good, extra: '<b>' }) ?? {})));
  });
  it('the calls of one contract on one mirror node', () => {
    const list = [
      call(1),
      call(2, { mirrorUrl: 'https://testnet.mirrornode.hedera.com' }),
      call(3, { address: `0x${'1'.repeat(40)}` }),
    ];
    assert.deepStrictEqual(
      keptFor(list, 'http://127.0.0.1:5599', A).map((c) => c.id),
      ['c1'],
    );
  });
});

describe("contract call: the page's messages and saved state", () => {
  it('accepts the messages it knows, copies only their fields', () => {
    const m = parseWebviewMessage({
      type: 'call',
      key: 'move(address,uint256)',
      inputs: ['0.0.5', '1'],
      block: 'latest',
      from: '',
      value: '',
      extra: 1,
    });
    assert.deepStrictEqual(m, {
      ok: true,
      value: {
        type: 'call',
        key: 'move(address,uint256)',
        inputs: ['0.0.5', '1'],
        block: 'latest',
        from: '',
        value: '',
      },
    });
    assert.deepStrictEqual(parseWebviewMessage({ type: 'history', action: 'pin', id: 'c1' }), {
      ok: true,
      value: { type: 'history', action: 'pin', id: 'c1' },
    });
  });
  it('refuses anything else', () => {
    for (const raw of [
      null,
      'ready',
      { type: 'call', key: 'f()', inputs: [1], block: '', from: '', value: '' },
      { type: 'call', key: 'f()', inputs: 'x', block: '', from: '', value: '' },
      { type: 'call', key: 'f()', inputs: [], block: 'x'.repeat(65), from: '', value: '' },
      { type: 'history', action: 'delete', id: 'c1' },
      { type: 'open', url: 'https://evil.example' },
    ])
      assert.strictEqual(parseWebviewMessage(raw).ok, false, JSON.stringify(raw));
    assert.strictEqual(parsePanelState({ v: 1, address: A }).ok, true);
    assert.strictEqual(parsePanelState({ v: 1, address: '0.0.7001' }).ok, false);
    assert.strictEqual(parsePanelState({ v: 2, address: A }).ok, false);
  });
});
