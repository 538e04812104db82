// "Cancel the previous request" (src/api/latest.ts), the one implementation the trees, the NFT panel and the
// status view share.
import * as assert from 'assert';
import { LatestRequest } from '../../src/api/latest';

describe('LatestRequest', () => {
  it('aborts the request in flight when a new one starts; only the newest answer is current', () => {
    const l = new LatestRequest();
    const a = l.start();
    assert.ok(l.isCurrent(a));
    assert.ok(l.active);
    const b = l.start();
    assert.strictEqual(a.aborted, true);
    assert.strictEqual(l.isCurrent(a), false);
    assert.ok(l.isCurrent(b));
  });

  it('cancel() aborts and leaves nothing current; done() ends only its own request', () => {
    const l = new LatestRequest();
    const a = l.start();
    l.cancel();
    assert.strictEqual(a.aborted, true);
    assert.strictEqual(l.isCurrent(a), false);
    assert.strictEqual(l.active, false);
    const b = l.start();
    l.done(a); // a stale request finishing does not end the current one
    assert.ok(l.active);
    l.done(b);
    assert.strictEqual(l.active, false);
    assert.strictEqual(b.aborted, false, 'a finished request is not aborted');
  });
});
