import * as assert from 'assert';
import { scheduleIsFinal } from '../src/mirror/api';

/** rest/schedules.js getScheduleCacheControlHeader: when a single schedule gets the long cache. */
describe('sandbox: when a single schedule is final (as the real server)', () => {
  const row = (o: { executed?: boolean; deleted?: boolean; expirationNs?: bigint | null; created?: string }) =>
    ({
      num: 1,
      creatorNum: 2,
      executed: !!o.executed,
      deleted: !!o.deleted,
      expirationNs: o.expirationNs ?? null,
      obj: { consensus_timestamp: o.created ?? '1700000000.000000001' },
    }) as never;
  const ms = (sec: number) => sec * 1000;
  it('without expiration_time: 31 minutes after its creation', () => {
    assert.strictEqual(scheduleIsFinal(row({}), ms(1700000000 + 30 * 60)), false);
    assert.strictEqual(scheduleIsFinal(row({}), ms(1700000000 + 31 * 60 + 1)), true);
  });
  it('with expiration_time: 60 seconds after it; executed or deleted at once', () => {
    const exp = 1700003600n * 1_000_000_000n;
    assert.strictEqual(scheduleIsFinal(row({ expirationNs: exp }), ms(1700003600 + 30)), false);
    assert.strictEqual(scheduleIsFinal(row({ expirationNs: exp }), ms(1700003600 + 60)), true);
    assert.strictEqual(scheduleIsFinal(row({ executed: true, expirationNs: exp }), ms(1700000001)), true);
    assert.strictEqual(scheduleIsFinal(row({ deleted: true }), ms(1700000001)), true);
  });
});
