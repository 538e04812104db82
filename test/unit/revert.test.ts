import * as assert from 'assert';
import { decodeRevert } from '../../src/api/revert';
import {
  compareTimestamps,
  formatTimestamp,
  hexToDecimal,
  relativeTime,
  shortAddress,
  shortHex,
  timestampToDate,
  tinybarsToHbar,
} from '../../src/api/format';

/** ABI encoding written out by hand (selector, offset, length, padded UTF-8), as a Solidity revert produces it. */
function encodeError(reason: string): string {
  const data = Buffer.from(reason, 'utf8');
  const word = (n: number) => n.toString(16).padStart(64, '0');
  const padded = data.toString('hex').padEnd(Math.ceil(data.length / 32) * 64, '0');
  return `0x08c379a0${word(32)}${word(data.length)}${padded}`;
}

describe('revert data', () => {
  it('decodes Error(string), unicode included', () => {
    const d = decodeRevert(encodeError('Ownable: caller is not the owner'));
    assert.deepStrictEqual(
      [d?.kind, d?.message, d?.selector],
      ['error', 'Ownable: caller is not the owner', '0x08c379a0'],
    );
    assert.strictEqual(decodeRevert(encodeError('Не хватает средств 💸'))?.message, 'Не хватает средств 💸');
    // the bytes a `require(false, "Session not available")` reverts with, written out
    const real =
      '0x08c379a00000000000000000000000000000000000000000000000000000000000000020000000000000000000000000000000000000000000000000000000000000001553657373696f6e206e6f7420617661696c61626c65000000000000000000000000';
    assert.strictEqual(decodeRevert(real)?.message, 'Session not available');
  });

  it('decodes Panic(uint256) with its meaning', () => {
    const p = decodeRevert('0x4e487b710000000000000000000000000000000000000000000000000000000000000011');
    assert.strictEqual(p?.kind, 'panic');
    assert.strictEqual(p?.code, 0x11n);
    assert.strictEqual(p?.message, 'Panic 0x11: arithmetic overflow or underflow');
    assert.match(
      decodeRevert('0x4e487b710000000000000000000000000000000000000000000000000000000000000032')!.message,
      /out of bounds/,
    );
    assert.match(
      decodeRevert('0x4e487b7100000000000000000000000000000000000000000000000000000000000000ff')!.message,
      /unknown panic code/,
    );
  });

  it('keeps custom errors, text and hex-encoded response codes readable, never throws', () => {
    assert.deepStrictEqual(
      [
        decodeRevert('0xe450d38c0000000000000000000000000000000000000000000000000000000000000001')?.kind,
        decodeRevert('0xe450d38c00')?.selector,
      ],
      ['custom', '0xe450d38c'],
    );
    assert.strictEqual(decodeRevert('INSUFFICIENT_GAS')?.message, 'INSUFFICIENT_GAS');
    assert.strictEqual(decodeRevert('0x494e53554646494349454e545f474153')?.message, 'INSUFFICIENT_GAS');
    assert.strictEqual(decodeRevert('0x')?.kind, 'empty');
    assert.strictEqual(decodeRevert(null), undefined);
    assert.strictEqual(decodeRevert('0x08c379a0ffff')?.kind, 'custom', 'a truncated Error(string) stays as data');
    assert.strictEqual(decodeRevert('0xabc')?.kind, 'custom');
    assert.strictEqual(decodeRevert('Not enough gas')?.kind, 'text');
    assert.strictEqual(
      decodeRevert(encodeError('a\u202Eb\u0000c'))?.message,
      'abc',
      'bidi overrides and control characters removed',
    );
  });
});

describe('format', () => {
  it('compares consensus timestamps exactly, past 2^53 nanoseconds', () => {
    assert.strictEqual(compareTimestamps('1700000000.000000001', '1700000000.000000002'), -1);
    assert.strictEqual(compareTimestamps('1700000000.1', '1700000000.000000001'), 1);
    assert.strictEqual(compareTimestamps('1700000000', '1700000000.000000000'), 0);
    assert.strictEqual(compareTimestamps('9223372036.854775807', '9223372036.854775806'), 1);
    assert.strictEqual(compareTimestamps('b', 'a'), 1); // not timestamps: text order, no throw
  });

  it('shortens long addresses only', () => {
    assert.strictEqual(shortAddress('0x00000000000000000000000000000000000004d2'), '0x000000…04d2');
    assert.strictEqual(shortAddress('0.0.1234'), '0.0.1234');
  });

  it('timestamps keep the raw value next to local time', () => {
    assert.strictEqual(timestampToDate('1676540001.234390005')?.getTime(), 1676540001234);
    assert.match(formatTimestamp('1676540001.234390005'), /^\d{4}-\d\d-\d\d \d\d:\d\d:\d\d \(1676540001\.234390005\)$/);
    assert.strictEqual(formatTimestamp(null), '');
    assert.strictEqual(relativeTime(new Date(1000), 61_000, 'en-US'), '1 min. ago');
    assert.strictEqual(relativeTime(new Date(7_300_000), 0, 'en-US'), 'in 2 hr.');
  });
  it('tinybars, hex quantities and short hex keep every digit', () => {
    assert.strictEqual(tinybarsToHbar(150000000), '1.5 ℏ');
    assert.strictEqual(tinybarsToHbar(9007199254740993n), '90071992.54740993 ℏ');
    assert.strictEqual(tinybarsToHbar(0), '0 ℏ');
    assert.strictEqual(tinybarsToHbar(-5), '-0.00000005 ℏ');
    assert.strictEqual(hexToDecimal('0x4a817c80'), '1250000000');
    assert.strictEqual(hexToDecimal('0xffffffffffffffffffff'), '1208925819614629174706175');
    assert.strictEqual(shortHex('0x' + 'ab'.repeat(32)), '0xababab…ababab');
  });
});
