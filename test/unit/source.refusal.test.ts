// What a refusal of the opcodes endpoint means (src/api/source/refusal.ts): the endpoint is off (not asked again),
// busy (asked again later), or this transaction cannot be traced (the next one may be).
import * as assert from 'assert';
import { opcodeRefusal } from '../../src/api/source/refusal';

describe('source: refusals of the opcodes endpoint', () => {
  it('off: 501, the web3 module without its tracer, the REST module without the route', () => {
    assert.strictEqual(opcodeRefusal(501, []), 'off');
    assert.strictEqual(opcodeRefusal(404, ['No static resource api/v1/contracts/results/0.0.5-1-1/opcodes.']), 'off');
    assert.strictEqual(opcodeRefusal(404, ['Not found']), 'off');
    assert.strictEqual(opcodeRefusal(404, []), 'off');
  });

  it('busy: rate-limited or unavailable', () => {
    assert.strictEqual(opcodeRefusal(429, ['Too many requests']), 'busy');
    assert.strictEqual(opcodeRefusal(503, []), 'busy');
  });

  it('this transaction: a 400, or the web3 module naming what it could not find', () => {
    assert.strictEqual(opcodeRefusal(400, ['Unsupported ID format']), 'transaction');
    assert.strictEqual(opcodeRefusal(404, ['Contract result not found: 1793316600746428555']), 'transaction');
    assert.strictEqual(
      opcodeRefusal(404, ['Transaction not found: TransactionIdParameter[payerAccountId=0.0.5]']),
      'transaction',
    );
    assert.strictEqual(opcodeRefusal(404, ['Contract transaction hash not found: 0xabc']), 'transaction');
  });
});
