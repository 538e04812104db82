import * as assert from 'assert';
import { parse as losslessParse, isInteger, isSafeNumber } from 'lossless-json';
import {
  formatInt,
  hasUnsafeNumber,
  intToString,
  parseJson,
  stringifyJson,
  unsafeIntegerTokens,
} from '../../src/api/json';

describe('json: lossless parsing', () => {
  it('keeps the last digit of 9007199254740993 (2^53 + 1)', () => {
    const v = parseJson('{"amount":9007199254740993,"gas":21000}') as { amount: bigint; gas: number };
    assert.strictEqual(typeof v.amount, 'bigint');
    assert.strictEqual(v.amount.toString(), '9007199254740993');
    assert.strictEqual(v.gas, 21000);
    assert.strictEqual(
      JSON.parse('{"a":9007199254740993}').a.toString(),
      '9007199254740992',
      'JSON.parse would have rounded',
    );
  });

  it('keeps 19-digit int64 values and negatives, nested in arrays', () => {
    const v = parseJson('[{"serial": 9223372036854775807}, -9223372036854775808, 1.5]') as unknown[];
    assert.strictEqual((v[0] as { serial: bigint }).serial, 9223372036854775807n);
    assert.strictEqual(v[1], -9223372036854775808n);
    assert.strictEqual(v[2], 1.5);
  });

  it('takes the native path unless a number passes 2^53, whatever digits strings hold', () => {
    const text = '{"hash":"0x1234567890123456789012345678901234567890","memo":":12345678901234567890","n":12}';
    assert.strictEqual(hasUnsafeNumber(JSON.parse(text)), false);
    assert.deepStrictEqual(parseJson(text), {
      hash: '0x1234567890123456789012345678901234567890',
      memo: ':12345678901234567890',
      n: 12,
    });
    assert.strictEqual(hasUnsafeNumber(JSON.parse('{"a":[{"n":9007199254740993}]}')), true);
    assert.strictEqual(hasUnsafeNumber(JSON.parse('{"a":[{"n":9007199254740991}]}')), false);
    assert.strictEqual(hasUnsafeNumber(JSON.parse('[-9007199254740993]')), true);
  });

  it('keeps 15-digit safe integers as numbers', () => {
    const v = parseJson('{"n":123456789012345678, "m": 1234567890123456}') as { n: bigint; m: number };
    assert.strictEqual(v.n, 123456789012345678n);
    assert.strictEqual(v.m, 1234567890123456);
    assert.strictEqual(typeof v.m, 'number');
  });

  it('throws SyntaxError on malformed or truncated text', () => {
    assert.throws(() => parseJson('{"results":[{"a":1}'), SyntaxError);
    assert.throws(() => parseJson('{"amount":9007199254740993,'), SyntaxError);
  });

  it('stringifies bigints as bare digits', () => {
    assert.strictEqual(stringifyJson({ a: 9007199254740993n, b: [1, 'x'] }), '{"a":9007199254740993,"b":[1,"x"]}');
    const round = stringifyJson(parseJson('{"a":18446744073709551615}'));
    assert.strictEqual(round, '{"a":18446744073709551615}');
  });

  it('formats integers with every digit', () => {
    assert.strictEqual(formatInt(9007199254740993n), '9,007,199,254,740,993');
    assert.strictEqual(formatInt(-1234567), '-1,234,567');
    assert.strictEqual(formatInt(null), '');
    assert.strictEqual(intToString(12n), '12');
  });
});

describe('json: finding the integers JSON.parse rounds', () => {
  const tokens = (text: string) => unsafeIntegerTokens(text).map((t) => text.slice(t.start, t.end));

  it('finds integers past 2^53 - 1, negatives too; 2^53 itself counts, 2^53 - 1 does not', () => {
    assert.deepStrictEqual(
      tokens('[9007199254740991, 9007199254740992, 9007199254740993, -9007199254740992, -9007199254740991]'),
      ['9007199254740992', '9007199254740993', '-9007199254740992'],
    );
    assert.deepStrictEqual(tokens('{"a": -12345678901234567890}'), ['-12345678901234567890']);
    assert.deepStrictEqual(tokens('9223372036854775807'), ['9223372036854775807'], 'a bare number as the whole text');
  });

  it('leaves 16-digit safe integers, decimals and exponents alone', () => {
    assert.deepStrictEqual(
      tokens(
        '[1234567890123456, 0.1234567890123456789, 12345678901234567.5, 1.2345678901234567e+25, 12345678901234567E2, -9007199254740993.0, 1e300]',
      ),
      [],
    );
  });

  it('never counts digits inside strings, escaped quotes and backslashes included', () => {
    assert.deepStrictEqual(
      tokens('{"a":"9007199254740993","b":"x\\"12345678901234567890","c":[":12345678901234567890"]}'),
      [],
    );
    assert.deepStrictEqual(
      tokens('{"a":"x\\\\","b":12345678901234567890}'),
      ['12345678901234567890'],
      'a string that ends in an escaped backslash',
    );
    assert.deepStrictEqual(tokens('{"12345678901234567890":1}'), [], 'keys are strings');
  });
});

describe('json: the lossless path gives what a full lossless parse gives', () => {
  const reference = (text: string) =>
    losslessParse(text, null, (t: string) => (isSafeNumber(t) ? Number(t) : isInteger(t) ? BigInt(t) : Number(t)));

  it('on edge cases', () => {
    const cases = [
      '9007199254740993',
      '-9007199254740992',
      '[9007199254740992, 9007199254740991, -9007199254740993]',
      '{"a":"9007199254740993","b":9007199254740993,"c":{"d":[1,2,18446744073709551615]},"e":0.1234567890123456789}',
      '{"a":"x\\\\","b":12345678901234567890,"c":1e300,"d":12345678901234567.5}',
      ' [ -12345678901234567890 , "\\"" ] ',
    ];
    for (const c of cases) assert.deepStrictEqual(parseJson(c), reference(c), c);
  });

  it('keeps an own "__proto__" key a plain property', () => {
    const v = parseJson('{"__proto__": 9007199254740993, "n": 1}') as Record<string, unknown>;
    assert.strictEqual(Object.getOwnPropertyDescriptor(v, '__proto__')?.value, 9007199254740993n);
    assert.strictEqual(Object.getPrototypeOf(v), Object.prototype);
  });

  it('a text that holds a \\u0000 escape of its own takes the general parser and keeps it', () => {
    const v = parseJson('{"s":"\\u0000123","n":9007199254740993}') as { s: string; n: bigint };
    assert.strictEqual(v.s, '\u0000123');
    assert.strictEqual(v.n, 9007199254740993n);
  });

  it('on random documents (seeded)', () => {
    let seed = 42;
    const rnd = (n: number) => {
      seed = (seed * 1103515245 + 12345) % 2147483648;
      return seed % n;
    };
    const digits = (n: number) => Array.from({ length: n }, () => rnd(10)).join('');
    const num = () =>
      `${rnd(2) ? '-' : ''}${1 + rnd(9)}${digits(rnd(22))}${rnd(4) === 0 ? `.${digits(1 + rnd(20))}` : ''}${rnd(6) === 0 ? `e${rnd(2) ? '-' : '+'}${rnd(30)}` : ''}`;
    const str = () =>
      JSON.stringify(
        Array.from({ length: rnd(20) }, () => ['"', '\\', ':', ',', '[', digits(1 + rnd(20))][rnd(6)]).join(''),
      );
    const gen = (d: number): string => {
      const r = rnd(d > 3 ? 4 : 6);
      if (r === 0) return num();
      if (r === 1) return str();
      if (r === 2) return ['true', 'false', 'null'][rnd(3)];
      if (r === 3) return `[${Array.from({ length: rnd(5) }, () => gen(d + 1)).join(' , ')}]`;
      return `{${Array.from({ length: rnd(5) }, (_, i) => `${JSON.stringify(`k${i}`)}:${gen(d + 1)}`).join(',')}}`;
    };
    let lossless = 0;
    for (let i = 0; i < 3000; i++) {
      const text = gen(0);
      if (hasUnsafeNumber(JSON.parse(text))) lossless++;
      assert.deepStrictEqual(parseJson(text), reference(text), text);
    }
    assert.ok(lossless > 100, `${lossless} documents took the lossless path`);
  });
});
