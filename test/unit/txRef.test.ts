import * as assert from 'assert';
import { parseTxRef, txRefText, type TxRef } from '../../src/api/txRef';

const accepts = (input: string, expected: TxRef, explorers?: Parameters<typeof parseTxRef>[1]) => {
  const c = parseTxRef(input, explorers);
  assert.ok(c.ok, `expected ok for ${JSON.stringify(input)}, got: ${c.ok ? '' : c.message}`);
  assert.deepStrictEqual(c.value, expected);
};
const rejects = (input: string, pattern?: RegExp) => {
  const c = parseTxRef(input);
  assert.ok(!c.ok, `expected a rejection of ${JSON.stringify(input)}, got ${JSON.stringify(c.ok && c.value)}`);
  assert.ok(c.message.length > 10 && /[.!]$/.test(c.message), `a sentence: ${c.message}`);
  if (pattern) assert.match(c.message, pattern);
};

describe('Inspect Transaction: what the input box accepts', () => {
  it('a transaction id in the mirror node form, nanos padded to 9 digits', () => {
    accepts('0.0.1234-1700000000-123456789', { kind: 'transactionId', id: '0.0.1234-1700000000-123456789' });
    accepts('0.0.1234-1700000000-5', { kind: 'transactionId', id: '0.0.1234-1700000000-000000005' });
    accepts('  "0.0.1234-1700000000-000000001"  ', { kind: 'transactionId', id: '0.0.1234-1700000000-000000001' });
    // short account forms are normalised like every entity id
    accepts('1234-1700000000-000000001', { kind: 'transactionId', id: '0.0.1234-1700000000-000000001' });
  });

  it("a transaction id in the SDK's form, with ?scheduled and /nonce", () => {
    accepts('0.0.1234@1700000000.123456789', { kind: 'transactionId', id: '0.0.1234-1700000000-123456789' });
    // the SDK's nanos are an integer: @1.5 is 5 ns (TransactionId.fromString)
    accepts('0.0.7@1700000000.5', { kind: 'transactionId', id: '0.0.7-1700000000-000000005' });
    accepts('0.0.7@1700000000.000000001?scheduled', {
      kind: 'transactionId',
      id: '0.0.7-1700000000-000000001',
      scheduled: true,
    });
    accepts('0.0.7@1700000000.000000001/2', { kind: 'transactionId', id: '0.0.7-1700000000-000000001', nonce: 2 });
    accepts('0.0.7@1700000000.000000001?scheduled/3', {
      kind: 'transactionId',
      id: '0.0.7-1700000000-000000001',
      scheduled: true,
      nonce: 3,
    });
  });

  it('transaction ids out of range are refused with the reason', () => {
    rejects('0.70000.1-1700000000-000000001', /account/);
    rejects('0.0.1-99999999999-000000001', /valid start/);
    rejects('0.0.1@1700000000.1234567890', /not a transaction/);
    rejects('0.0.1@1700000000.1/99999999999', /nonce/);
    rejects('0.0.x-1700000000-1');
  });

  it('hashes: 32-byte Ethereum hashes, and 48-byte Hedera hashes reduced to the 32 bytes the mirror node indexes', () => {
    const h = 'AB'.repeat(32);
    accepts(`0x${h}`, { kind: 'hash', hash: `0x${h.toLowerCase()}` });
    accepts(h, { kind: 'hash', hash: `0x${h.toLowerCase()}` });
    accepts(`0x${'cd'.repeat(48)}`, { kind: 'hash', hash: `0x${'cd'.repeat(32)}` });
    rejects(`0x${'a'.repeat(63)}`, /63 hexadecimal digits/);
    rejects(`0x${'a'.repeat(40)}`, /40 hexadecimal digits/);
    rejects(`0x${'g'.repeat(64)}`);
  });

  it('consensus timestamps: a decimal fraction of a second, up to int64 nanoseconds', () => {
    accepts('1700000000.123456789', { kind: 'timestamp', timestamp: '1700000000.123456789' });
    accepts('1700000000.5', { kind: 'timestamp', timestamp: '1700000000.500000000' });
    accepts('1700000000', { kind: 'timestamp', timestamp: '1700000000.000000000' });
    accepts('9223372036.854775807', { kind: 'timestamp', timestamp: '9223372036.854775807' });
    rejects('9223372036.854775808', /too large/);
    rejects('12345678901.1');
  });

  it('HashScan links pasted as they are, with their network', () => {
    accepts('https://hashscan.io/testnet/transaction/1700000000.123456789', {
      kind: 'timestamp',
      timestamp: '1700000000.123456789',
      network: 'testnet',
    });
    accepts('https://hashscan.io/mainnet/transaction/1700000000.123456789?tid=0.0.1-1699999990-000000000', {
      kind: 'timestamp',
      timestamp: '1700000000.123456789',
      network: 'mainnet',
    });
    accepts('hashscan.io/previewnet/transaction/0.0.5-1700000000-000000007', {
      kind: 'transactionId',
      id: '0.0.5-1700000000-000000007',
      network: 'previewnet',
    });
    accepts(`https://hashscan.io/testnet/tx/0x${'ef'.repeat(32)}`, {
      kind: 'hash',
      hash: `0x${'ef'.repeat(32)}`,
      network: 'testnet',
    });
    accepts('https://hashscan.io/#/testnet/transaction/1700000000.000000002', {
      kind: 'timestamp',
      timestamp: '1700000000.000000002',
      network: 'testnet',
    });
    // a path that is not a transaction, but a tid that is
    accepts('https://hashscan.io/testnet/transaction/x?tid=0.0.5-1700000000-000000007', {
      kind: 'transactionId',
      id: '0.0.5-1700000000-000000007',
      network: 'testnet',
    });
    // an explorer base given by the networks (the sandbox's stand-in) wins over the path segment
    accepts(
      'http://127.0.0.1:5599/hashscan/testnet/transaction/1700000000.000000001',
      { kind: 'timestamp', timestamp: '1700000000.000000001', network: 'custom' },
      [
        { name: 'testnet', hashscanUrl: 'https://hashscan.io/testnet' },
        { name: 'custom', hashscanUrl: 'http://127.0.0.1:5599/hashscan/testnet' },
      ],
    );
    // an unknown network segment: no network, the selected one is used
    accepts('https://example.com/foo/transaction/1700000000.1', {
      kind: 'timestamp',
      timestamp: '1700000000.100000000',
    });
    rejects('https://hashscan.io/testnet/account/0.0.5', /not a transaction link/);
    rejects('javascript://hashscan.io/testnet/transaction/1', /http/);
    rejects('https://hashscan.io/testnet/transaction/<script>', /not a transaction/);
  });

  it('nothing else: empty input, words, addresses, very long text', () => {
    rejects('', /Enter/);
    rejects('   ', /Enter/);
    rejects('hello', /not a transaction/);
    rejects('0.0.1234', /not a transaction/);
    rejects('x'.repeat(5000), /too long/);
    // hostile pastes (the trimming ran in quadratic time on runs of dots and brackets): their time (target < 200 ms)
    // is a figure of `npm run bench` (test/bench/scale.mjs)
    for (const c of ['.', ')', ' ', '"']) rejects(`0.0.1-1-1${c.repeat(4000)}x`);
    rejects('.'.repeat(100_000), /too long/);
  });

  it('the text a panel shows', () => {
    const r = parseTxRef('0.0.1@1700000000.1');
    assert.ok(r.ok);
    assert.strictEqual(txRefText(r.value), '0.0.1-1700000000-000000001');
  });
});
