import * as assert from 'assert';
import { encodeErrorResult, encodeFunctionData } from 'viem';
import type { Abi } from 'viem';
import { decodeContractResult, sourcifyRegistry } from '../../src/api/decode';
import { SourcifyAbiCache } from '../../src/api/decode/sourcifyAbi';
import { HttpClient } from '../../src/api/http';
import { serveCanned } from './helpers';

const VERIFIED = '0x1000000000000000000000000000000000000001';
const ABI = [
  {
    type: 'function',
    name: 'store',
    stateMutability: 'nonpayable',
    inputs: [{ name: 'num', type: 'uint256', internalType: 'uint256' }],
    outputs: [],
  },
  { type: 'error', name: 'TooBig', inputs: [{ name: 'limit', type: 'uint256', internalType: 'uint256' }] },
  { type: 'constructor', inputs: [] },
];

describe('Sourcify ABIs (GET /v2/contract/{chainId}/{address}?fields=abi)', () => {
  it('fetches the ABI of a verified contract once, caches "not verified", retries only after failures', async () => {
    let failNext = true;
    const server = await serveCanned((url) => {
      if (url === `/server/v2/contract/296/${VERIFIED}?fields=abi`)
        return { body: JSON.stringify({ abi: ABI, match: 'exact_match', chainId: '296', address: VERIFIED }) };
      if (url.startsWith('/server/v2/contract/296/0x2')) {
        if (failNext) {
          failNext = false;
          return { status: 500, body: '{"customCode":"internal_error","message":"boom"}' };
        }
        return { status: 404, body: JSON.stringify({ match: null }) };
      }
      return { status: 404, body: JSON.stringify({ match: null }) };
    });
    try {
      const cache = new SourcifyAbiCache(
        () => new HttpClient({ tries: 1, backoffBaseMs: 1 }),
        () => `${server.url}/server/`,
      );
      const [a, b] = await Promise.all([
        cache.get(296, VERIFIED.toUpperCase().replace('0X', '0x')),
        cache.get('296', VERIFIED),
      ]);
      assert.strictEqual(a, b, 'one request for two concurrent expansions');
      assert.deepStrictEqual(
        a?.abi.map((i) => i.name),
        ['store', 'TooBig'],
      );
      assert.strictEqual(a?.match, 'exact_match');
      assert.strictEqual(cache.peek(296, VERIFIED), a);
      await cache.get(296, VERIFIED);
      assert.strictEqual(server.hits.filter((h) => h.includes(VERIFIED)).length, 1, server.hits.join(' '));

      assert.strictEqual(await cache.get(296, '0x3000000000000000000000000000000000000003'), null, 'not verified');
      assert.strictEqual(cache.peek(296, '0x3000000000000000000000000000000000000003'), null);
      await cache.get(296, '0x3000000000000000000000000000000000000003');
      assert.strictEqual(server.hits.filter((h) => h.includes('0x3000')).length, 1, '404 cached');

      const other = '0x2000000000000000000000000000000000000002';
      await assert.rejects(cache.get(296, other));
      assert.strictEqual(cache.peek(296, other), undefined, 'a failure is not cached');
      assert.strictEqual(await cache.get(296, other), null);
      assert.strictEqual(await cache.get(296, 'not an address'), null);
      assert.strictEqual(server.hits.length, 4);
    } finally {
      await server.close();
    }
  });

  it('decodes a result of that contract with its ABI, noted as Sourcify', () => {
    const reg = sourcifyRegistry(ABI, VERIFIED, 296);
    const r = {
      function_parameters: encodeFunctionData({ abi: ABI as unknown as Abi, functionName: 'store', args: [42n] }),
      call_result: '0x',
      error_message: encodeErrorResult({ abi: ABI as unknown as Abi, errorName: 'TooBig', args: [10n] }),
    };
    const d = decodeContractResult(r, true, undefined, reg);
    assert.strictEqual(d.call?.text, 'store(num=42)');
    assert.strictEqual(d.call?.origin.kind, 'sourcify');
    assert.strictEqual(d.error?.message, 'TooBig(limit=10)');
    assert.strictEqual(d.error?.origin?.label, 'Sourcify');
  });
});
