import * as assert from 'assert';
import { ApiError } from '../../src/api/errors';
import {
  checkAccountOrAddress,
  checkBlockHash,
  checkBlockNumber,
  checkEntityId,
  checkEntityIdFilter,
  checkEvmAddress,
  checkLimit,
  checkSerial,
  checkTimestamp,
  checkTimestampFilter,
  checkTimestampFilters,
  checkTransactionIndex,
  entityIdToEvmAddress,
  evmAddressToEntityId,
  filterToParam,
  unwrap,
} from '../../src/api/validation';

const accepts = <T>(c: { ok: boolean; value?: T; message?: string }, value?: T) => {
  assert.ok(c.ok, `expected ok, got: ${c.message}`);
  if (value !== undefined) assert.deepStrictEqual(c.value, value);
};
const rejects = (c: { ok: boolean; message?: string }, pattern?: RegExp) => {
  assert.ok(!c.ok, 'expected a rejection');
  assert.ok(c.message && c.message.length > 10 && /[.!]$/.test(c.message), `a sentence: ${c.message}`);
  if (pattern) assert.match(c.message!, pattern);
};

describe("validation: the spec's patterns", () => {
  it('entity ids: num, realm.num, shard.realm.num (normalised)', () => {
    accepts(checkEntityId('0.0.2000'), '0.0.2000');
    accepts(checkEntityId('2000'), '0.0.2000');
    accepts(checkEntityId('0.2000'), '0.0.2000');
    accepts(checkEntityId(' 1.2.3 '), '1.2.3');
    rejects(checkEntityId('0.7.8.9'));
    rejects(checkEntityId('abc'));
    rejects(checkEntityId('x.y.z'));
    rejects(checkEntityId('274877906944'));
    rejects(checkEntityId(''), /Enter/);
    rejects(checkEntityId('-92233720368547758080'));
  });

  it('entity id filters with operators', () => {
    accepts(checkEntityIdFilter('gte:0.0.100'), { op: 'gte', value: '0.0.100' });
    accepts(checkEntityIdFilter('LT:5'), { op: 'lt', value: '0.0.5' });
    accepts(checkEntityIdFilter('0.0.7'), { op: undefined, value: '0.0.7' });
    rejects(checkEntityIdFilter('between:1'));
    assert.strictEqual(filterToParam({ op: 'gt', value: '0.0.1' }), 'gt:0.0.1');
    assert.strictEqual(filterToParam({ op: 'eq', value: '0.0.1' }), '0.0.1');
  });

  it('timestamps: seconds.nanos with operators; ISO dates converted', () => {
    accepts(checkTimestamp('1676540001.234390005'), '1676540001.234390005');
    accepts(checkTimestamp('1234'), '1234');
    accepts(checkTimestamp('2026-11-20T10:00:00Z'), '1795168800.000000000');
    accepts(checkTimestamp('2026-11-20'), '1795132800.000000000');
    accepts(checkTimestampFilter('gte:1720987654.000123456'), { op: 'gte', value: '1720987654.000123456' });
    accepts(checkTimestampFilters('gt:200000.000123456 lt:999999.000123456'), [
      { op: 'gt', value: '200000.000123456' },
      { op: 'lt', value: '999999.000123456' },
    ]);
    rejects(checkTimestamp('now'));
    rejects(checkTimestamp('1234567890.1234567890'));
    rejects(checkTimestamp('12345678901'));
    rejects(checkTimestampFilters('gt:1 lt:2 ne:3'), /at most two/);
  });

  it('EVM addresses and the long-zero form', () => {
    accepts(checkEvmAddress('ebb9a1be370150759408cd7af48e9eda2b8ead57'), '0xebb9a1be370150759408cd7af48e9eda2b8ead57');
    accepts(
      checkEvmAddress('0x000000000000000000000000000000000000176F'),
      '0x000000000000000000000000000000000000176f',
    );
    rejects(checkEvmAddress('0x1234'));
    rejects(checkEvmAddress('0xZZb9a1be370150759408cd7af48e9eda2b8ead57'));
    accepts(entityIdToEvmAddress('0.0.1234'), '0x00000000000000000000000000000000000004d2');
    assert.strictEqual(evmAddressToEntityId('0x000000000000000000000000000000000000176f'), '0.0.5999');
    assert.strictEqual(evmAddressToEntityId('0xebb9a1be370150759408cd7af48e9eda2b8ead57'), undefined);
    accepts(checkAccountOrAddress('5999'), '0.0.5999');
    accepts(
      checkAccountOrAddress('0xfbb9a1be370150759408cd7af48e9eda2b8ead57'),
      '0xfbb9a1be370150759408cd7af48e9eda2b8ead57',
    );
    rejects(checkAccountOrAddress('0xfbb9'));
  });

  it('block hash: 64 or 96 hex, optional 0x and eq:', () => {
    const h64 = '1eaf1abbd64bbcac7f473f0272671c66d3d1d64f584112b11cd4d2063e736305';
    const h96 = h64 + '312fcb305804a48baa41571e71c39c61';
    accepts(checkBlockHash(h64), `0x${h64}`);
    accepts(checkBlockHash(`eq:0x${h96}`), `0x${h96}`);
    rejects(checkBlockHash(`gte:0x${h64}`), /exactly/);
    rejects(checkBlockHash(h64.slice(1)));
  });

  it('block number: decimal up to int64 or 0x hex', () => {
    accepts(checkBlockNumber('10'), '10');
    accepts(checkBlockNumber('eq:10'), '10');
    accepts(checkBlockNumber('0xa'), '10');
    accepts(checkBlockNumber('9223372036854775807'), '9223372036854775807');
    rejects(checkBlockNumber('9223372036854775808'));
    rejects(checkBlockNumber('gte:10'));
    rejects(checkBlockNumber('-1'));
  });

  it('transaction index, limit, order', () => {
    accepts(checkTransactionIndex('2'), 2);
    accepts(checkTransactionIndex('eq:0'), 0);
    rejects(checkTransactionIndex('gte:1'));
    rejects(checkTransactionIndex('-1'));
    accepts(checkLimit('1'), 1);
    accepts(checkLimit(100), 100);
    rejects(checkLimit('0'));
    rejects(checkLimit('101'));
    rejects(checkLimit('alot'));
    rejects(checkLimit('-1'));
  });

  it('NFT serials 1..9223372036854775807 compared as BigInt', () => {
    accepts(checkSerial('1'), '1');
    accepts(checkSerial('9223372036854775807'), '9223372036854775807');
    accepts(checkSerial('9886299254743552'), '9886299254743552');
    accepts(checkSerial(9223372036854775807n), '9223372036854775807');
    rejects(checkSerial('9223372036854775808'), /out of range/);
    rejects(checkSerial('0'), /out of range/);
    rejects(checkSerial('-5'));
    rejects(checkSerial('mirror'));
    rejects(checkSerial('1e3'));
  });

  it('unwrap throws an ApiError of kind invalidInput', () => {
    assert.throws(
      () => unwrap(checkLimit('0')),
      (e: unknown) => e instanceof ApiError && e.kind === 'invalidInput',
    );
  });
});
