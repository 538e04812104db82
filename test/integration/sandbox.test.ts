// The sandbox started by the runner (HEDERA_SANDBOX_URL) is reachable from the extension host.
// Skipped when the sandbox is not built yet.
import * as assert from 'assert';
import { sandboxUrl } from './helpers';

describe('sandbox', () => {
  it('answers its health check from inside the extension host', async function () {
    if (!sandboxUrl) this.skip();
    const res = await fetch(`${sandboxUrl}/__sandbox/health`);
    assert.strictEqual(res.status, 200);
  });
});
