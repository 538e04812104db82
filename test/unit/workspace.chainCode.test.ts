// The window's one cache of `/contracts/{id or address}`: features asking for the same contract in its forms (entity
// id, long-zero address, its own EVM address) make one request, counted at the sandbox; a failure is asked again.
import * as assert from 'assert';
import { HttpClient } from '../../src/api/http';
import { MirrorClient } from '../../src/api/mirror';
import { entityIdToEvmAddress } from '../../src/api/validation';
import { lookUpContract } from '../../src/workspace/address';
import { ChainCodeCache } from '../../src/workspace/chainCode';
import { startSandbox } from '../../sandbox/src/server';

describe('workspace: one cache of the code on chain', () => {
  let sb: Awaited<ReturnType<typeof startSandbox>>;
  let mirror: MirrorClient;
  let own: { contract_id: string; evm_address: string };
  let longZero: { contract_id: string; evm_address: string };
  const contractRequests = () => sb.requests().filter((r) => /^\/api\/v1\/contracts\/[^/?]+($|\?)/.test(r.url)).length;

  before(async function () {
    this.timeout(60000);
    sb = await startSandbox({ port: 0 });
    mirror = new MirrorClient(sb.url, new HttpClient({ tries: 1 }));
    const page = (await (await fetch(`${sb.url}/api/v1/contracts/results?limit=100`)).json()) as {
      results: Array<{ contract_id: string }>;
    };
    const bodies = await Promise.all(
      [...new Set(page.results.map((r) => r.contract_id))].map(
        async (id) =>
          (await fetch(`${sb.url}/api/v1/contracts/${id}`)).json() as Promise<{
            contract_id: string;
            evm_address: string;
          }>,
      ),
    );
    const withOwn = bodies.find((b) => !/^0x0{24}/.test(b.evm_address));
    const withLongZero = bodies.find((b) => /^0x0{24}/.test(b.evm_address));
    assert.ok(withOwn && withLongZero, 'the sandbox has contracts with an address of their own and long-zero ones');
    own = withOwn;
    longZero = withLongZero;
  });
  after(async () => sb?.close());
  beforeEach(() => sb.clearRequests());

  const cacheOf = (key = sb.url) => new ChainCodeCache(() => ({ key, mirror }));

  it('two features asking for one contract, by entity id and by its own EVM address, make one request', async () => {
    const cache = cacheOf();
    // verification: the entity id typed by the user, to its EVM address and code
    const verify = await lookUpContract(cache, own.contract_id);
    assert.ok(verify.ok);
    assert.strictEqual(verify.value.address, own.evm_address);
    // the Deployments view: the record's EVM address
    const deployments = await cache.contract(own.evm_address.toUpperCase().replace('0X', '0x'));
    assert.strictEqual(deployments?.contract_id, own.contract_id);
    // revert to source: the entity id again, and its long-zero address
    await cache.contract(own.contract_id);
    assert.strictEqual(contractRequests(), 1);
  });

  it('the long-zero address and the entity id are one entry, in either order, asked at once', async () => {
    const cache = cacheOf();
    const address = (entityIdToEvmAddress(longZero.contract_id) as { value: string }).value;
    const [a, b] = await Promise.all([cache.contract(address), cache.contract(longZero.contract_id)]);
    assert.strictEqual(a?.contract_id, longZero.contract_id);
    assert.strictEqual(b, a);
    assert.strictEqual(contractRequests(), 1);
  });

  it('another network is another entry', async () => {
    const cache = cacheOf();
    await cache.contract(own.contract_id);
    await cache.on(() => ({ key: 'another mirror node', mirror })).contract(own.contract_id);
    assert.strictEqual(contractRequests(), 2);
  });

  it('a failed request is not kept: the next ask sends it again, and its answer is kept', async () => {
    const cache = cacheOf();
    sb.addFault({ path: `/api/v1/contracts/${own.contract_id}`, times: 1, fault: { status: 503 } });
    await assert.rejects(cache.contract(own.contract_id));
    assert.ok(await cache.contract(own.contract_id));
    await cache.contract(own.evm_address);
    assert.strictEqual(contractRequests(), 2);
  });

  it('"no such contract" is not kept by default, and only for a while when asked to', async () => {
    const plain = cacheOf();
    assert.strictEqual(await plain.contract('0.0.999999998'), null);
    assert.strictEqual(await plain.contract('0.0.999999998'), null);
    assert.strictEqual(contractRequests(), 2);
    sb.clearRequests();
    let now = 1_000_000;
    const cache = new ChainCodeCache(() => ({ key: sb.url, mirror }), { missingMs: 30_000, now: () => now });
    assert.strictEqual(await cache.contract('0.0.999999999'), null);
    assert.strictEqual(await cache.contract('0.0.999999999'), null);
    assert.strictEqual(contractRequests(), 1);
    now += 30_001;
    assert.strictEqual(await cache.contract('0.0.999999999'), null);
    assert.strictEqual(contractRequests(), 2);
  });

  it('is bounded: the least recently asked contract is dropped first', async () => {
    const cache = new ChainCodeCache(() => ({ key: sb.url, mirror }), { max: 2 });
    await cache.contract(own.contract_id); // files the id and the own address: 2 forms
    await cache.contract(longZero.contract_id); // 1 form (the long-zero address is the id): the oldest, the id, dropped
    assert.strictEqual(cache.size, 2);
    await cache.contract(longZero.contract_id);
    await cache.contract(own.evm_address);
    assert.strictEqual(contractRequests(), 2);
    await cache.contract(own.contract_id);
    assert.strictEqual(contractRequests(), 3);
  });

  it("a caller's cancel stops its own wait, not the request another caller waits on", async () => {
    const cache = cacheOf();
    const ac = new AbortController();
    const first = cache.contract(own.contract_id, { signal: ac.signal });
    const second = cache.contract(own.evm_address);
    ac.abort();
    await assert.rejects(first, (e: Error & { kind?: string }) => e.kind === 'cancelled');
    assert.strictEqual((await second)?.contract_id, own.contract_id);
  });
});
