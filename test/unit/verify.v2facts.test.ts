// Sourcify API v2 as the real server answers (issue "Right against real servers", point 9), read by the client
// over HTTP from the sandbox: jobs without a status field, job errors after a 202, 409 only for exact matches,
// 429 duplicate_verification_request, 404 job_not_found, 400 unsupported_chain / invalid_parameter, the 404
// lookup of an unverified address, and ids and numbers as strings.
import * as assert from 'assert';
import * as http from 'http';
import type { AddressInfo } from 'net';
import { ApiError } from '../../src/api/errors';
import { HttpClient } from '../../src/api/http';
import { parseContractMatch, parseJob, sourcifyCode, SourcifyV2Client } from '../../src/api/verify';
import { type Sandbox, startSandbox } from '../../sandbox/src/server';

const A = (n: string) => `0x10000000000000000000000000000000000000${n}`;
const body = {
  stdJsonInput: { language: 'Solidity', sources: { 'c.sol': { content: 'contract C {}' } } },
  compilerVersion: '0.8.28+commit.7893614a',
  contractIdentifier: 'c.sol:C',
};

/** A one-route HTTP server answering every request with `status` and `json` (shapes the sandbox never sends). */
async function serve(status: number, json: unknown): Promise<{ url: string; close: () => Promise<void> }> {
  const server = http.createServer((_req, res) => {
    res.writeHead(status, { 'content-type': 'application/json' });
    res.end(JSON.stringify(json));
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    close: () => new Promise<void>((r) => server.close(() => r())),
  };
}

describe("verify client: the real Sourcify v2 server's facts (sandbox over HTTP)", function () {
  this.timeout(20_000);
  let sb: Sandbox;
  let v2: SourcifyV2Client;
  const http1 = new HttpClient({ backoffBaseMs: 10 });
  before(async () => {
    sb = await startSandbox({ port: 0 });
    v2 = new SourcifyV2Client(`${sb.url}/server`, http1);
  });
  after(() => sb.close());

  it('a job has no status field: isJobCompleted alone says whether it ended (a status field is not read)', async () => {
    const job = await v2.waitForJob(await v2.submit({ chainId: 295, address: A('03'), ...body }), { pollMs: 5 });
    assert.deepStrictEqual([job.isJobCompleted, job.contract.match, job.error], [true, 'match', undefined]);
    assert.ok(!('status' in job));
    const pending = parseJob({
      verificationId: 'j-1',
      isJobCompleted: false,
      status: 'completed',
      contract: { match: null },
    });
    assert.strictEqual(pending.isJobCompleted, false, 'a status field does not end a job');
    assert.throws(
      () => parseJob({ verificationId: 'j-1', status: 'completed', contract: { match: 'match' } }),
      /without a job status/,
    );
  });

  it('a completed job with neither contract.match nor error is malformed', async () => {
    const s = await serve(200, {
      isJobCompleted: true,
      verificationId: 'j-2',
      jobStartTime: '2026-01-01T00:00:00Z',
      contract: { match: null, creationMatch: null, runtimeMatch: null, chainId: '296', address: A('03') },
    });
    try {
      const client = new SourcifyV2Client(s.url, http1);
      await assert.rejects(
        client.waitForJob('j-2', { pollMs: 5 }),
        (e: unknown) =>
          e instanceof ApiError && e.kind === 'malformed' && /job j-2 .*neither a match nor an error/.test(e.message),
      );
    } finally {
      await s.close();
    }
    // pending with no match is fine; an error alone or a match alone is fine
    assert.strictEqual(parseJob({ verificationId: 'j', isJobCompleted: false, contract: {} }).contract.match, null);
    assert.strictEqual(
      parseJob({
        verificationId: 'j',
        isJobCompleted: true,
        contract: {},
        error: { customCode: 'no_match', message: 'x' },
      }).error?.customCode,
      'no_match',
    );
  });

  it('failures are a 202 and then a job error, each with its code, message and compiler errors', async () => {
    const cases: Array<[string, string, RegExp, string[]]> = [
      ['0e', 'contract_not_deployed', /^Chain #296 does not have a contract deployed at 0x1/, []],
      ['0f', 'contract_not_found_in_compiler_output', /^Contract not found in compiler output\.$/, []],
      ['10', 'bytecode_length_mismatch', /bytecode length doesn't match/, []],
      ['0d', 'compiler_error', /^Compile error/, ["ParserError: Expected ';' but got '{'"]],
      ['05', 'no_match', /don't match/, []],
    ];
    for (const [n, code, re, details] of cases) {
      const job = await v2.waitForJob(await v2.submit({ chainId: 296, address: A(n), ...body }), { pollMs: 5 });
      assert.deepStrictEqual(
        [job.isJobCompleted, job.contract.match, job.error?.customCode, job.error?.details],
        [true, null, code, details],
        n,
      );
      assert.match(job.error?.message ?? '', re, n);
    }
  });

  it('409 (exact on both) is an ApiError with customCode already_verified; a held match is a job error already_verified', async () => {
    await assert.rejects(v2.submit({ chainId: 296, address: A('01'), ...body }), (e: unknown) => {
      assert.ok(e instanceof ApiError);
      assert.deepStrictEqual([e.status, sourcifyCode(e)], [409, 'already_verified']);
      assert.match(e.message, /already verified/);
      return true;
    });
    const job = await v2.waitForJob(await v2.submit({ chainId: 296, address: A('02'), ...body }), { pollMs: 5 });
    assert.deepStrictEqual([job.contract.match, job.error?.customCode], [null, 'already_verified']);
    assert.strictEqual((await v2.lookup(296, A('02'))).match, 'match');
  });

  it('429 duplicate_verification_request says a job for that address is already running (not a rate limit)', async () => {
    const id = await v2.submit({ chainId: 297, address: A('03'), ...body });
    await assert.rejects(v2.submit({ chainId: 297, address: A('03'), ...body }), (e: unknown) => {
      assert.ok(e instanceof ApiError);
      assert.deepStrictEqual([e.kind, e.status, sourcifyCode(e)], ['http', 429, 'duplicate_verification_request']);
      assert.match(
        e.message,
        /already running a verification job for 0x1000000000000000000000000000000000000003 on chain 297/,
      );
      assert.doesNotMatch(e.message, /limiting requests/);
      assert.ok(e.serverMessages.includes(`Contract ${A('03')} on chain 297 is already being verified`));
      return true;
    });
    assert.strictEqual((await v2.waitForJob(id, { pollMs: 5 })).contract.match, 'match');
    // a rate limit stays a rate limit
    await assert.rejects(
      v2.submit({ chainId: 296, address: A('06'), ...body }),
      (e: unknown) =>
        e instanceof ApiError &&
        e.status === 429 &&
        sourcifyCode(e) === 'too_many_requests' &&
        /limiting requests/.test(e.message),
    );
    // a 429 page that is not JSON: still a rate limit, not "malformed"
    await sb.addFault({ path: `/server/v2/verify/296/${A('04')}`, fault: { status: 429, body: 'html' } });
    await assert.rejects(
      v2.submit({ chainId: 296, address: A('04'), ...body }),
      (e: unknown) =>
        e instanceof ApiError && e.kind === 'http' && e.status === 429 && /limiting requests/.test(e.message),
    );
  });

  it("404 job_not_found, 400 unsupported_chain and invalid_parameter carry the server's message", async () => {
    await assert.rejects(
      v2.job('461157eb-e4ea-4c5f-9aec-04c56924fd96'),
      (e: unknown) =>
        e instanceof ApiError &&
        e.status === 404 &&
        e.serverMessages.includes('No verification job found for id 461157eb-e4ea-4c5f-9aec-04c56924fd96'),
    );
    await assert.rejects(
      v2.submit({ chainId: 1, address: A('05'), ...body }),
      (e: unknown) => e instanceof ApiError && e.status === 400 && /Chain 1 not found/.test(e.message),
    );
    await assert.rejects(
      v2.lookup(1, A('05')),
      (e: unknown) => e instanceof ApiError && e.status === 400 && /Chain 1 not found/.test(e.message),
    );
    await assert.rejects(
      v2.submit({
        chainId: 296,
        address: A('05'),
        ...body,
        stdJsonInput: undefined as unknown as Record<string, unknown>,
      }),
      (e: unknown) => e instanceof ApiError && e.status === 400 && /stdJsonInput/.test(e.message),
    );
  });

  it('a lookup of an unverified address (404 {match: null}, no customCode) is "not verified"; a 404 that is an error is an error', async () => {
    const none = await v2.lookup(296, A('05'));
    assert.deepStrictEqual(
      [none.match, none.creationMatch, none.runtimeMatch, none.chainId, none.address],
      [null, null, null, '296', A('05')],
    );
    // older servers answer an unknown chain with 404 unsupported_chain; a server without API v2 with route_not_found
    for (const code of ['unsupported_chain', 'route_not_found']) {
      const s = await serve(404, {
        customCode: code,
        message: `said ${code}`,
        errorId: '1ac6b91a-0605-4459-93dc-18f210a70192',
      });
      try {
        await assert.rejects(
          new SourcifyV2Client(s.url, http1).lookup(296, A('05')),
          (e: unknown) =>
            e instanceof ApiError && e.status === 404 && sourcifyCode(e) === code && e.message.includes(`said ${code}`),
          code,
        );
      } finally {
        await s.close();
      }
    }
  });

  it('chainId, matchId, compilationTime (and blockNumber) are strings, kept as strings', async () => {
    const job = await v2.waitForJob(await v2.submit({ chainId: 298, address: A('04'), ...body }), { pollMs: 5 });
    assert.deepStrictEqual(
      [typeof job.contract.chainId, typeof job.contract.matchId, typeof job.compilationTime],
      ['string', 'string', 'string'],
    );
    assert.deepStrictEqual([job.contract.chainId, job.compilationTime], ['298', '1333']);
    const l = await v2.lookup(298, A('04'));
    assert.strictEqual(l.matchId, job.contract.matchId, "the lookup has the job's matchId");
    // big ids stay exact; numbers (not what the server sends) become their decimal strings
    const big = parseContractMatch(
      { match: 'match', chainId: '296', matchId: '90071992547409931234' },
      { chainId: '', address: '' },
    );
    assert.strictEqual(big.matchId, '90071992547409931234');
    assert.deepStrictEqual(
      parseContractMatch({ match: 'match', chainId: 296, matchId: 7 }, { chainId: '', address: '' }).matchId,
      '7',
    );
    assert.strictEqual(
      parseJob({ verificationId: 'j', isJobCompleted: true, compilationTime: 1333, contract: { match: 'match' } })
        .compilationTime,
      '1333',
    );
  });
});
