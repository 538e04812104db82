import * as assert from 'assert';
import { HttpClient } from '../../src/api/http';
import { ApiError } from '../../src/api/errors';
import { parseSessionResult, VerifyClient } from '../../src/api/verify';
import { fixtureText, serveCanned } from './helpers';

describe('verify client: session endpoint', () => {
  it('reads the real 200 body (missing as an object)', () => {
    const body = JSON.parse(fixtureText('sourcify/session-verify-etherscan-200.derived.json')).response;
    const r = parseSessionResult(body);
    assert.strictEqual(r.contracts.length, 1);
    const c = r.contracts[0];
    assert.deepStrictEqual(
      [c.name, c.address, c.chainId, c.status, c.compiledPath],
      ['Storage', '0x656d0062eC89c940213E3F3170EA8b2add1c0143', '100', 'perfect', 'browser/1_Storage.sol'],
    );
    assert.deepStrictEqual(c.found, ['browser/1_Storage.sol']);
    assert.deepStrictEqual(c.missing, []);
    assert.deepStrictEqual(c.invalid, []);
    assert.deepStrictEqual(r.unused, []);
    assert.deepStrictEqual(r.files, ['browser/1_Storage.sol', 'metadata.json']);
  });

  it('accepts missing as an array or an object keyed by path, and invalid entries', () => {
    const r = parseSessionResult({
      contracts: [
        {
          name: 'A',
          address: '0x1',
          chainId: '296',
          status: 'partial',
          files: { found: ['a.sol'], missing: ['b.sol'] },
        },
        {
          name: 'B',
          address: '0x2',
          chainId: 296,
          status: 'some-new-status',
          files: {
            found: [],
            missing: { 'contracts/C.sol': { keccak256: '0xabc', urls: ['dweb:/ipfs/Q'] } },
            invalid: { 'd.sol': { expectedHash: '0x1', calculatedHash: '0x2' } },
          },
        },
      ],
      unused: ['x.sol'],
    });
    assert.deepStrictEqual(r.contracts[0].missing, [{ path: 'b.sol' }]);
    assert.deepStrictEqual(r.contracts[1].missing, [
      { path: 'contracts/C.sol', keccak256: '0xabc', urls: ['dweb:/ipfs/Q'] },
    ]);
    assert.deepStrictEqual(r.contracts[1].invalid, [{ path: 'd.sol', reason: 'expected hash 0x1, got 0x2' }]);
    assert.strictEqual(r.contracts[1].status, 'some-new-status');
    assert.strictEqual(r.contracts[1].chainId, '296');
    assert.deepStrictEqual(r.unused, ['x.sol']);
  });

  it("posts {address, chainId, apiKey} and reports the server's error sentence", async () => {
    const bodies: string[] = [];
    const srv = await serveCanned((url) =>
      url === '/session/verify/etherscan'
        ? {
            status: 404,
            body: JSON.stringify({
              error: 'This contract is not verified on Etherscan.',
              message: 'This contract is not verified on Etherscan.',
            }),
          }
        : undefined,
    );
    try {
      const client = new VerifyClient(`${srv.url}/`, new HttpClient());
      await assert.rejects(
        client.sessionVerify({ address: '0x656d0062eC89c940213E3F3170EA8b2add1c0143', chainId: 296, apiKey: 'k' }),
        (e: unknown) => {
          assert.ok(e instanceof ApiError);
          assert.strictEqual(e.status, 404);
          assert.deepStrictEqual(e.serverMessages, ['This contract is not verified on Etherscan.']);
          return true;
        },
      );
      await assert.rejects(
        client.sessionVerify({ address: '0.0.12', chainId: 296 }),
        (e: unknown) => e instanceof ApiError && e.kind === 'invalidInput',
      );
      assert.strictEqual(srv.hits.length, 1, 'no request for bad input');
      void bodies;
    } finally {
      await srv.close();
    }
  });
});
