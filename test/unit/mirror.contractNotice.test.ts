import * as assert from 'assert';
import { ApiError } from '../../src/api/errors';
import { HttpClient, type HttpResponse } from '../../src/api/http';
import { MirrorClient } from '../../src/api/mirror';
import { startSandbox, type Sandbox } from '../../sandbox/src/server';

/**
 * `/contracts/{EVM address}/results` for an address no contract has is 200 with an empty list on the real server
 * (0.160, spec not-found.json), as on the sandbox: the client asks `/contracts/{address}` to say so.
 */
describe('mirror client: contract results of an EVM address no contract has (over HTTP, sandbox)', function () {
  this.timeout(30_000);
  let sb: Sandbox;
  let client: MirrorClient;
  let notable: Record<string, unknown>;
  const paths = () => sb.requests().map((r) => r.url.split('?')[0]);

  before(async () => {
    sb = await startSandbox({ port: 0 });
    client = new MirrorClient(sb.url, new HttpClient({ tries: 1 }));
    notable = (
      (await (await fetch(`${sb.url}/__sandbox/health`)).json()) as {
        notable: { contractResults: Record<string, unknown> };
      }
    ).notable.contractResults;
  });
  after(async () => {
    await sb.close();
  });
  beforeEach(() => sb.clearRequests());

  it('an unknown EVM address: empty page with a notice, after one look-up of the contract', async () => {
    const addr = '0x5555555555555555555555555555555555555555';
    const page = await client.contractResults({ contract: addr, limit: 5 });
    assert.deepStrictEqual(page.items, []);
    assert.strictEqual(page.next, null);
    assert.strictEqual(page.notice, `The mirror node knows no contract ${addr}.`);
    assert.deepStrictEqual(paths(), [`/api/v1/contracts/${addr}/results`, `/api/v1/contracts/${addr}`]);
  });

  it('a Follow poll (explainEmpty off) never adds the look-up to its mostly empty pages', async () => {
    const addr = '0x5555555555555555555555555555555555555555';
    const page = await client.contractResults(
      { contract: addr, timestamp: [{ op: 'gt', value: '1793489671' }] },
      undefined,
      { explainEmpty: false },
    );
    assert.deepStrictEqual(page.items, []);
    assert.strictEqual(page.notice, undefined);
    assert.deepStrictEqual(paths(), [`/api/v1/contracts/${addr}/results`]);
  });

  it('a known contract by EVM address: no look-up when the page has results, no notice when it is empty by filter', async () => {
    const addr = notable.evmContractAddress as string;
    const full = await client.contractResults({ contract: addr, limit: 2 });
    assert.ok(full.items.length > 0);
    assert.strictEqual(full.notice, undefined);
    assert.deepStrictEqual(paths(), [`/api/v1/contracts/${addr}/results`]);
    sb.clearRequests();
    const none = await client.contractResults({ contract: addr, timestamp: [{ op: 'lt', value: '1000000000' }] });
    assert.deepStrictEqual(none.items, []);
    assert.strictEqual(none.notice, undefined);
    assert.deepStrictEqual(paths(), [`/api/v1/contracts/${addr}/results`, `/api/v1/contracts/${addr}`]);
  });

  it('an entity id is not looked up; a failing look-up leaves the empty page without a notice', async () => {
    const page = await client.contractResults({ contract: '0.0.99' });
    assert.deepStrictEqual(page.items, []);
    assert.deepStrictEqual(paths(), ['/api/v1/contracts/0.0.99/results']);
    // the look-up fails (here: 503 after its tries): the page stays, without a notice
    class Failing extends HttpClient {
      override get<T = unknown>(url: string, options?: Parameters<HttpClient['get']>[1]): Promise<HttpResponse<T>> {
        if (!url.includes('/results'))
          return Promise.reject(new ApiError({ kind: 'http', status: 503, message: 'Service unavailable', url }));
        return super.get<T>(url, options);
      }
    }
    const failing = new MirrorClient(sb.url, new Failing());
    const failed = await failing.contractResults({ contract: '0x6666666666666666666666666666666666666666' });
    assert.deepStrictEqual(failed.items, []);
    assert.strictEqual(failed.notice, undefined);
  });

  it("`from` a contract's own EVM address is an empty page, not a notice about accounts", async () => {
    const page = await client.contractResults({ from: [notable.evmContractAddress as string] });
    assert.deepStrictEqual(page.items, []);
    assert.strictEqual(page.notice, undefined);
  });
});
