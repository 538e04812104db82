import * as assert from 'assert';
import { ApiError } from '../../src/api/errors';
import { contractResultsParams, nftHistoryParams, schedulesParams } from '../../src/api/mirror';
import {
  checkAccountOrAddress,
  checkEntityId,
  checkEntityIdFilter,
  checkTimestamp,
  checkTimestampFilters,
  entityIdToEvmAddress,
} from '../../src/api/validation';

const accepts = <T>(c: { ok: boolean; value?: T; message?: string }, value?: T) => {
  assert.ok(c.ok, `expected ok, got: ${c.message}`);
  if (value !== undefined) assert.deepStrictEqual(c.value, value);
};
const rejects = (c: { ok: boolean; message?: string }, pattern?: RegExp) => {
  assert.ok(!c.ok, `expected a rejection, got ${JSON.stringify(c)}`);
  assert.ok(c.message && c.message.length > 10 && /[.!]$/.test(c.message), `a sentence: ${c.message}`);
  if (pattern) assert.match(c.message!, pattern);
};
const invalidInput = (f: () => unknown, re: RegExp) =>
  assert.throws(f, (e: unknown) => e instanceof ApiError && e.kind === 'invalidInput' && re.test(e.message));

describe('validation: ranges of the real server', () => {
  it('timestamps above the int64 nanosecond range are refused before any request (the real server answers 503)', () => {
    accepts(checkTimestamp('9223372036.854775807'), '9223372036.854775807');
    accepts(checkTimestamp('9223372036'), '9223372036');
    rejects(checkTimestamp('9223372036.854775808'), /too large|latest/);
    rejects(checkTimestamp('9223372037'), /too large|latest/);
    rejects(checkTimestamp('9999999999.999999999'), /9223372036\.854775807/);
    rejects(checkTimestamp('2300-01-01T00:00:00Z'), /9223372036\.854775807/);
    rejects(checkTimestampFilters('gt:9999999999.999999999'), /9223372036\.854775807/);
    invalidInput(
      () => contractResultsParams({ timestamp: [{ op: 'gt', value: '9999999999.999999999' }] }),
      /9223372036\.854775807/,
    );
    invalidInput(() => nftHistoryParams({ timestamp: [{ op: 'lt', value: '9300000000' }] }), /9223372036\.854775807/);
  });

  it('entity ids: shard up to 1023, realm up to 65535, num below 2^38', () => {
    accepts(checkEntityId('0.0.274877906943'), '0.0.274877906943');
    accepts(checkEntityId('274877906943'), '0.0.274877906943');
    accepts(checkEntityId('1023.65535.274877906943'), '1023.65535.274877906943');
    accepts(checkEntityId('0.0.0001'), '0.0.1');
    rejects(checkEntityId('0.0.274877906944'), /274877906943/);
    rejects(checkEntityId('0.70000.1'), /65535/);
    rejects(checkEntityId('1024.0.1'), /1023/);
    rejects(checkEntityId('0.0.99999999999999999999999'));
    rejects(checkEntityIdFilter('gt:0.70000.1'), /65535/);
    accepts(checkAccountOrAddress('0.0.274877906943'), '0.0.274877906943');
    rejects(checkAccountOrAddress('0.70000.1'), /65535/);
    accepts(entityIdToEvmAddress('0.0.274877906943'), '0x0000000000000000000000000000003fffffffff');
    invalidInput(() => schedulesParams({ accountId: { value: '0.70000.1' } }), /65535/);
    invalidInput(() => contractResultsParams({ from: ['0.70000.1'] }), /65535/);
    assert.strictEqual(contractResultsParams({ from: ['0.0.274877906943'] }), 'from=0.0.274877906943');
  });
});
