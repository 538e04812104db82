import * as assert from 'assert';
import { formatInt, hasUnsafeNumber, intToString, parseJson, stringifyJson, toBigInt } from '../../src/api/json';

describe('json: lossless parsing', () => {
  it('keeps the last digit of 9007199254740993 (2^53 + 1)', () => {
    const v = parseJson('{"amount":9007199254740993,"gas":21000}') as { amount: bigint; gas: number };
    assert.strictEqual(typeof v.amount, 'bigint');
    assert.strictEqual(v.amount.toString(), '9007199254740993');
    assert.strictEqual(v.gas, 21000);
    assert.strictEqual(JSON.parse('{"a":9007199254740993}').a.toString(), '9007199254740992', 'JSON.parse would have rounded');
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
    assert.deepStrictEqual(parseJson(text), { hash: '0x1234567890123456789012345678901234567890', memo: ':12345678901234567890', n: 12 });
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
    assert.strictEqual(toBigInt('9223372036854775807'), 9223372036854775807n);
    assert.strictEqual(toBigInt(1.5), undefined);
  });
});
