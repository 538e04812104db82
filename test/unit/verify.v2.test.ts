// Sourcify API v2 client against the sandbox over HTTP: the check-first lookup, the standard JSON submission,
// job polling with backoff and cancellation, match kinds, job errors (no_match, compiler_error), 409 and 429;
// and the session endpoint through the same sandbox (every outcome of the address table).
import * as assert from 'assert';
import * as path from 'path';
import { ApiError } from '../../src/api/errors';
import { HttpClient } from '../../src/api/http';
import { parseJob, parseJobError, SourcifyV2Client, type VerificationJob, VerifyClient } from '../../src/api/verify';
import { type Sandbox, startSandbox } from '../../sandbox/src/server';
import { findBuilds, matchContracts } from '../../src/workspace/buildInfo';
import { nodeWorkspaceFs } from '../support/nodeFs';
import { FIXTURES } from './helpers';

const A = (n: string) => `0x10000000000000000000000000000000000000${n}`;

describe('verify client: Sourcify API v2 (sandbox over HTTP)', function () {
  this.timeout(20_000);
  let sb: Sandbox;
  let v2: SourcifyV2Client;
  let body: { stdJsonInput: Record<string, unknown>; compilerVersion: string; contractIdentifier: string };
  before(async () => {
    sb = await startSandbox({ port: 0 });
    v2 = new SourcifyV2Client(`${sb.url}/server/`, new HttpClient({ backoffBaseMs: 10 }));
    const { builds } = await findBuilds(nodeWorkspaceFs(path.join(FIXTURES, 'workspaces', 'hardhat-ignition')));
    const m = matchContracts(builds, { name: 'Counter' })[0];
    body = {
      stdJsonInput: m.build.input,
      compilerVersion: m.build.compilerVersion,
      contractIdentifier: m.contract.identifier,
    };
  });
  after(() => sb.close());
  beforeEach(() => sb.clearRequests());

  it('lookup: exact_match / match for verified contracts, match null on 404 (not verified)', async () => {
    const perfect = await v2.lookup(296, A('01'));
    assert.deepStrictEqual(
      [perfect.match, perfect.creationMatch, perfect.runtimeMatch, perfect.chainId, perfect.verifiedAt],
      ['exact_match', 'exact_match', 'exact_match', '296', '2026-10-30T11:02:45Z'],
    );
    assert.strictEqual((await v2.lookup('296', A('02'))).match, 'match');
    const none = await v2.lookup(296, A('03'));
    assert.deepStrictEqual([none.match, none.address], [null, A('03')]);
    assert.deepStrictEqual(
      sb.requests().map((r) => `${r.method} ${r.url}`),
      [
        `GET /server/v2/contract/296/${A('01')}`,
        `GET /server/v2/contract/296/${A('02')}`,
        `GET /server/v2/contract/296/${A('03')}`,
      ],
    );
  });

  it('submit sends {stdJsonInput, compilerVersion, contractIdentifier}, then polls until the job ends (match)', async () => {
    const id = await v2.submit({
      chainId: 296,
      address: A('03'),
      ...body,
      creationTransactionHash: `0x${'ab'.repeat(32)}`,
    });
    assert.match(id, /^[0-9a-f-]{36}$/);
    const sent = JSON.parse(sb.requests()[0].body ?? '{}');
    assert.deepStrictEqual(Object.keys(sent).sort(), [
      'compilerVersion',
      'contractIdentifier',
      'creationTransactionHash',
      'stdJsonInput',
    ]);
    assert.strictEqual(sent.contractIdentifier, 'contracts/Counter.sol:Counter');
    assert.strictEqual(sent.compilerVersion, '0.8.28+commit.7893614a');
    assert.strictEqual(sent.stdJsonInput.language, 'Solidity');
    assert.ok(sent.stdJsonInput.sources['contracts/Counter.sol'].content.includes('contract Counter'));
    const polls: Array<[boolean, number]> = [];
    const t0 = Date.now();
    const job = await v2.waitForJob(id, { pollMs: 40, factor: 2, onPoll: (j, n) => polls.push([j.isJobCompleted, n]) });
    assert.deepStrictEqual(polls, [
      [false, 1],
      [false, 2],
      [true, 3],
    ]);
    assert.ok(Date.now() - t0 >= 40 + 80 - 5, 'waits longer between polls (40 ms, then 80 ms)');
    assert.deepStrictEqual([job.isJobCompleted, job.contract.match, job.error], [true, 'match', undefined]);
    assert.strictEqual((await v2.lookup(296, A('03'))).match, 'match', 'verified after the job');
  });

  it("job errors: no_match, and compiler_error with the compiler's messages", async () => {
    const noMatch = await v2.waitForJob(await v2.submit({ chainId: 296, address: A('05'), ...body }), { pollMs: 5 });
    assert.deepStrictEqual(
      [noMatch.contract.match, noMatch.error?.customCode, noMatch.error?.message],
      [null, 'no_match', "The onchain and recompiled bytecodes don't match."],
    );
    const compile = await v2.waitForJob(await v2.submit({ chainId: 297, address: A('0d'), ...body }), { pollMs: 5 });
    assert.strictEqual(compile.error?.customCode, 'compiler_error');
    assert.deepStrictEqual(compile.error?.details, ["ParserError: Expected ';' but got '{'"]);
  });

  it("409 already verified and 429 are ApiErrors with the server's message", async () => {
    await assert.rejects(
      v2.submit({ chainId: 296, address: A('0c'), ...body }),
      (e: unknown) => e instanceof ApiError && e.status === 409 && /already verified/.test(e.message),
    );
    await assert.rejects(
      v2.submit({ chainId: 296, address: A('06'), ...body }),
      (e: unknown) =>
        e instanceof ApiError && e.status === 429 && e.serverMessages.includes('You are sending too many requests'),
    );
    await assert.rejects(
      v2.job('00000000-0000-4000-a000-000000000000'),
      (e: unknown) => e instanceof ApiError && e.status === 404 && /No verification job found for id/.test(e.message),
    );
  });

  // how soon it stops with polls 5 s apart (target < 2 s) is a figure of `npm run bench` (test/bench/stops.mjs); here
  // the next poll is an hour away: only the cancellation ends the wait within the test's time limit
  it('cancelling while waiting between polls ends the wait and sends nothing more', async () => {
    const id = await v2.submit({ chainId: 296, address: A('04'), ...body });
    const ac = new AbortController();
    const done = v2.waitForJob(id, {
      signal: ac.signal,
      pollMs: 3_600_000,
      timeoutMs: 7_200_000,
      onPoll: () => setTimeout(() => ac.abort(), 20),
    });
    await assert.rejects(done, (e: unknown) => e instanceof ApiError && e.kind === 'cancelled');
    assert.strictEqual(sb.requests().filter((r) => r.url.includes(`/v2/verify/${id}`)).length, 1, 'one poll only');
  });

  it('gives up after timeoutMs with a sentence', async () => {
    // chain 297: the cancelled job above still runs on 296 (a second job there would be a duplicate_verification_request)
    const id = await v2.submit({ chainId: 297, address: A('04'), ...body });
    await assert.rejects(
      v2.waitForJob(id, { pollMs: 50, timeoutMs: 60 }),
      (e: unknown) => e instanceof ApiError && e.kind === 'timeout' && /did not finish within/.test(e.message),
    );
  });

  it('refuses bad input before any request', async () => {
    await assert.rejects(v2.lookup(296, '0.0.12'), (e: unknown) => e instanceof ApiError && e.kind === 'invalidInput');
    await assert.rejects(
      v2.submit({ chainId: 296, address: A('03'), ...body, contractIdentifier: 'Counter' }),
      /path\/to\/File\.sol:Name/,
    );
    await assert.rejects(
      v2.submit({ chainId: 296, address: A('03'), ...body, compilerVersion: 'latest' }),
      /compiler version/,
    );
    await assert.rejects(v2.lookup('mainnet', A('03')), /not a chain id/);
    assert.deepStrictEqual(sb.requests(), []);
  });

  it('parses job bodies: pending, unknown match kinds as they are, malformed', () => {
    const j: VerificationJob = parseJob({
      isJobCompleted: true,
      verificationId: 'x-1',
      contract: { match: 'some_future_kind', chainId: 296, address: A('01') },
    });
    assert.deepStrictEqual([j.contract.match, j.contract.chainId], ['some_future_kind', '296']);
    assert.throws(() => parseJob({ contract: {} }), /without a job status/);
    assert.deepStrictEqual(parseJobError({ customCode: 'x' }), {
      customCode: 'x',
      message: 'x',
      errorId: undefined,
      details: [],
    });
  });
});

describe('verify client: session endpoint (sandbox over HTTP)', function () {
  this.timeout(20_000);
  let sb: Sandbox;
  let client: VerifyClient;
  before(async () => {
    sb = await startSandbox({ port: 0 });
    client = new VerifyClient(sb.url, new HttpClient({ backoffBaseMs: 10 }));
  });
  after(() => sb.close());

  it('perfect, partial (missing as object), partial (missing as array), several contracts', async () => {
    const perfect = await client.sessionVerify({ address: A('01'), chainId: 296, apiKey: 'k-123' });
    assert.deepStrictEqual(
      perfect.contracts.map((c) => [c.name, c.status, c.storageTimestamp]),
      [['Storage', 'perfect', '2026-10-30T11:02:45.311Z']],
    );
    const partial = await client.sessionVerify({ address: A('02'), chainId: 296, apiKey: 'k-123' });
    assert.deepStrictEqual(
      partial.contracts[0].missing.map((m) => m.path),
      ['@openzeppelin/contracts/access/Ownable.sol'],
    );
    assert.strictEqual(partial.contracts[0].invalid[0].path, 'contracts/Token.sol');
    assert.deepStrictEqual(partial.unused, ['README.md', 'scripts/deploy.ts']);
    const arr = await client.sessionVerify({ address: A('03'), chainId: 296, apiKey: 'k-123' });
    assert.deepStrictEqual(arr.contracts[0].missing, [
      { path: 'contracts/interfaces/IVault.sol' },
      { path: 'contracts/libraries/Math.sol' },
    ]);
    const multi = await client.sessionVerify({ address: A('04'), chainId: 296, apiKey: 'k-123' });
    assert.deepStrictEqual(
      multi.contracts.map((c) => c.status),
      ['perfect', 'partial', 'error'],
    );
    const body = JSON.parse(sb.requests().at(-1)?.body ?? '{}');
    assert.deepStrictEqual(body, { address: A('04'), chainId: '296', apiKey: 'k-123' });
  });

  it("errors keep the server's message: 404, 429, 502 bad key, 502 upstream, 400, 413, 500 text", async () => {
    const cases: Array<[string, number, RegExp]> = [
      ['05', 404, /This contract is not verified on Etherscan/],
      ['06', 429, /Etherscan API rate limit reached, try later/],
      ['07', 502, /Invalid API Key/],
      ['08', 502, /Status code: 503/],
      ['09', 400, /didn't add any new file/],
      ['0a', 413, /Too much session memory used/],
      ['0b', 500, /Cannot store session/],
    ];
    for (const [n, status, re] of cases) {
      await assert.rejects(client.sessionVerify({ address: A(n), chainId: 296, apiKey: 'k-123' }), (e: unknown) => {
        assert.ok(e instanceof ApiError, n);
        assert.strictEqual(e.status, status, n);
        assert.match(e.message, re, n);
        return true;
      });
    }
  });
});
