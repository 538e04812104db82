// The browser build's platform module (src/api/platform/browser.ts) gives what the Node one gives, byte for byte, on
// well-formed and malformed input alike: base64 (standard, URL-safe, unpadded, with junk), hex, UTF-8.
import * as assert from 'assert';
import * as browser from '../../src/api/platform/browser';
import * as node from '../../src/api/platform/node';

const hex = (b: Uint8Array) => Array.from(b, (x) => x.toString(16).padStart(2, '0')).join('');

describe('platform: the browser build reads bytes as the Node build does', () => {
  it('base64, hex and UTF-8, well-formed and not', () => {
    const base64 = [
      '',
      'AA==',
      'AAE=',
      'AAEC',
      'SGVsbG8',
      'SGVs bG8=\n',
      '-_8',
      '+/8=',
      'QQ==QQ==',
      'A',
      'AB',
      '!!QUJD',
      '8J+Ygw',
    ];
    for (const s of base64)
      assert.strictEqual(hex(browser.base64Bytes(s)), hex(node.base64Bytes(s)), `base64 ${JSON.stringify(s)}`);
    const hexes = ['', '00ff', 'ABcd', '0g12', '123', 'zz', 'e29883'];
    for (const s of hexes)
      assert.strictEqual(hex(browser.hexBytes(s)), hex(node.hexBytes(s)), `hex ${JSON.stringify(s)}`);
    const bytes = [
      [],
      [0x41],
      [0xe2, 0x98, 0x83],
      [0xff, 0xfe],
      [0xe2, 0x98],
      [0xf0, 0x9f, 0x98, 0x83],
      [0xc0, 0x80],
      [0xed, 0xa0, 0x80],
    ];
    for (const b of bytes.map((x) => Uint8Array.from(x))) {
      assert.strictEqual(browser.hexOf(b), node.hexOf(b));
      assert.strictEqual(browser.utf8Of(b), node.utf8Of(b), `utf8 of ${hex(b)}`);
    }
    for (const s of ['', 'abc', '☃', '😃', '\ud800'])
      assert.strictEqual(hex(browser.utf8Bytes(s)), hex(node.utf8Bytes(s)), `utf8 bytes of ${JSON.stringify(s)}`);
  });

  it('a CPU reading: a difference from an earlier one that does not go backwards', () => {
    for (const p of [browser, node]) {
      const from = p.cpuUsage();
      const d = p.cpuUsage(from);
      assert.ok(d.user >= 0 && d.system >= 0, JSON.stringify(d));
    }
  });
});
