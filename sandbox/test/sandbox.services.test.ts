/** The sandbox's status page scenarios, Sourcify (session import and API v2 jobs) and the HashScan stand-in. */
import * as assert from 'assert';
import * as fs from 'fs';
import * as path from 'path';
import { type Sandbox, type StatusScenario, startSandbox } from '../src/server';

type Obj = Record<string, unknown>;
const FIXTURES = path.join(__dirname, '../../../test/fixtures');
let sb: Sandbox;

const getJson = async (p: string): Promise<{ status: number; json: Obj }> => {
  const r = await fetch(sb.url + p);
  return { status: r.status, json: (await r.json()) as Obj };
};
const post = async (p: string, body: unknown): Promise<{ status: number; json: Obj; text: string }> => {
  const r = await fetch(sb.url + p, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: typeof body === 'string' ? body : JSON.stringify(body),
  });
  const text = await r.text();
  let json: Obj = {};
  try {
    json = JSON.parse(text) as Obj;
  } catch {
    /* text body */
  }
  return { status: r.status, json, text };
};

describe('sandbox: status page, Sourcify, HashScan', function () {
  this.timeout(20_000);
  before(async () => {
    sb = await startSandbox({ port: 0 });
  });
  after(() => sb.close());

  describe('status page (Statuspage v2)', () => {
    afterEach(() => sb.setStatusScenario('operational'));

    it('summary has every documented field, shaped like a real Statuspage summary', async () => {
      const { status, json } = await getJson('/api/v2/summary.json');
      assert.strictEqual(status, 200);
      const real = JSON.parse(
        fs.readFileSync(path.join(FIXTURES, 'statuspage/github-summary-2019-12-30.real.json'), 'utf8'),
      ) as Obj;
      assert.deepStrictEqual(Object.keys(json).sort(), Object.keys(real).sort());
      const page = json.page as Obj;
      assert.deepStrictEqual({ name: page.name, url: page.url }, { name: 'Hedera', url: 'https://status.hedera.com' });
      for (const k of ['id', 'time_zone', 'updated_at']) assert.ok(k in page, k);
      const comps = json.components as Obj[];
      const realComp = (real.components as Obj[])[0];
      for (const c of comps)
        for (const k of [...Object.keys(realComp), 'start_date']) assert.ok(k in c, `component ${k}`);
      const groups = comps.filter((c) => c.group === true);
      assert.ok(groups.some((g) => /^Hedera Mainnet \(v0\.\d+\.\d+\)$/.test(g.name as string)));
      assert.ok(groups.some((g) => (g.name as string).startsWith('Hedera Testnet')));
      assert.ok(groups.some((g) => g.name === 'Mirror Node REST API Public Mainnet'));
      assert.ok(groups.some((g) => (g.name as string).startsWith('JSON-RPC Relay')));
      for (const g of groups) {
        const children = comps.filter((c) => c.group_id === g.id);
        assert.deepStrictEqual(
          g.components,
          children.map((c) => c.id),
        );
        assert.ok(children.length > 0);
      }
      assert.ok(comps.some((c) => c.only_show_if_degraded === true));
      assert.deepStrictEqual(json.status, { indicator: 'none', description: 'All Systems Operational' });
      assert.deepStrictEqual(json.incidents, []);
      assert.ok(comps.every((c) => c.status === 'operational'));
    });

    it('always has an upcoming maintenance in the future', async () => {
      for (const s of ['operational', 'degraded', 'major', 'maintenance'] as StatusScenario[]) {
        sb.setStatusScenario(s);
        const { json } = await getJson('/api/v2/scheduled-maintenances/upcoming.json');
        const list = json.scheduled_maintenances as Obj[];
        assert.ok(list.length >= 1, s);
        for (const m of list) {
          assert.strictEqual(m.status, 'scheduled');
          assert.ok(Date.parse(m.scheduled_for as string) > Date.now(), 'in the future');
          assert.match(m.scheduled_for as string, /[+-]\d{2}:\d{2}$/, 'with a zone offset');
          for (const k of [
            'id',
            'name',
            'impact',
            'created_at',
            'updated_at',
            'resolved_at',
            'monitoring_at',
            'started_at',
            'shortlink',
            'incident_updates',
            'components',
            'scheduled_until',
          ])
            assert.ok(k in m, k);
        }
      }
    });

    it('scenarios change the indicator, components and incidents', async () => {
      sb.setStatusScenario('degraded');
      let { json } = await getJson('/api/v2/summary.json');
      assert.strictEqual((json.status as Obj).indicator, 'minor');
      assert.ok((json.components as Obj[]).some((c) => c.status === 'degraded_performance'));
      let incidents = json.incidents as Obj[];
      assert.strictEqual(incidents[0].status, 'investigating');
      assert.ok((incidents[0].incident_updates as Obj[]).length >= 2);
      for (const k of [
        'id',
        'incident_id',
        'status',
        'body',
        'created_at',
        'updated_at',
        'display_at',
        'affected_components',
      ])
        assert.ok(k in (incidents[0].incident_updates as Obj[])[0], k);

      sb.setStatusScenario('major');
      ({ json } = await getJson('/api/v2/summary.json'));
      assert.strictEqual((json.status as Obj).indicator, 'major');
      const statuses = new Set((json.components as Obj[]).map((c) => c.status));
      assert.ok(statuses.has('major_outage') && statuses.has('partial_outage'));
      incidents = json.incidents as Obj[];
      assert.ok(
        incidents.some((i) => i.status === 'escalated'),
        'a value outside the documented enum',
      );
      assert.ok(
        incidents.some((i) => (i.incident_updates as Obj[]).some((u) => /<script>|<img/.test(u.body as string))),
      );
      assert.ok((json.components as Obj[]).some((c) => c.only_show_if_degraded === true && c.status !== 'operational'));
      assert.deepStrictEqual((await getJson('/api/v2/incidents/unresolved.json')).json.incidents, incidents);

      sb.setStatusScenario('maintenance');
      ({ json } = await getJson('/api/v2/summary.json'));
      assert.strictEqual((json.status as Obj).indicator, 'maintenance');
      const maint = json.scheduled_maintenances as Obj[];
      assert.ok(maint.some((m) => m.status === 'in_progress'));
      assert.ok(maint.some((m) => m.status === 'scheduled'));
      assert.ok((json.components as Obj[]).some((c) => c.status === 'under_maintenance'));
      assert.strictEqual(
        ((await getJson('/api/v2/scheduled-maintenances/active.json')).json.scheduled_maintenances as Obj[]).length,
        1,
      );
      for (const s of ['operational', 'degraded', 'maintenance'] as StatusScenario[]) {
        sb.setStatusScenario(s);
        const text = await (await fetch(`${sb.url}/api/v2/summary.json`)).text();
        assert.ok(!text.includes('escalated'), `unknown values only in major (${s})`);
      }
      sb.setStatusScenario('operational');
      assert.deepStrictEqual((await getJson('/api/v2/status.json')).json.status, {
        indicator: 'none',
        description: 'All Systems Operational',
      });
      assert.ok(Array.isArray((await getJson('/api/v2/components.json')).json.components));
    });
  });

  describe('Sourcify session import', () => {
    const V = {
      perfect: '0x1000000000000000000000000000000000000001',
      partial: '0x1000000000000000000000000000000000000002',
      missingArray: '0x1000000000000000000000000000000000000003',
      multiple: '0x1000000000000000000000000000000000000004',
      notVerified: '0x1000000000000000000000000000000000000005',
      rateLimited: '0x1000000000000000000000000000000000000006',
    };
    const verify = (body: unknown): ReturnType<typeof post> => post('/session/verify/etherscan', body);

    it('outcomes by address', async () => {
      let r = await verify({ address: V.perfect, chainId: '296', apiKey: 'k' });
      assert.strictEqual(r.status, 200);
      let c = (r.json.contracts as Obj[])[0];
      assert.strictEqual(c.status, 'perfect');
      assert.deepStrictEqual((c.files as Obj).missing, {});
      for (const k of ['verificationId', 'compiledPath', 'name', 'address', 'chainId', 'files', 'status'])
        assert.ok(k in c, k);

      r = await verify({ address: V.partial, chain: 296, apiKey: 'k' });
      c = (r.json.contracts as Obj[])[0];
      assert.strictEqual(c.status, 'partial');
      const files = c.files as Obj;
      assert.ok(!Array.isArray(files.missing) && Object.keys(files.missing as Obj).length > 0, 'missing keyed by path');
      assert.ok(Object.keys(files.invalid as Obj).length > 0);
      assert.ok((r.json.unused as string[]).length > 0);

      r = await verify({ address: V.missingArray, chainId: '295', apiKey: 'k' });
      assert.ok(Array.isArray(((r.json.contracts as Obj[])[0].files as Obj).missing));
      r = await verify({ address: V.multiple, chainId: '297', apiKey: 'k' });
      assert.ok((r.json.contracts as Obj[]).length > 1);

      r = await verify({ address: V.notVerified, chainId: '296', apiKey: 'k' });
      assert.deepStrictEqual(
        [r.status, r.json],
        [
          404,
          {
            error: 'This contract is not verified on Etherscan.',
            message: 'This contract is not verified on Etherscan.',
          },
        ],
      );
      r = await verify({ address: '0x' + 'ab'.repeat(20), chainId: '298', apiKey: 'k' });
      assert.strictEqual(r.status, 404);
      r = await verify({ address: V.rateLimited, chainId: '296', apiKey: 'k' });
      assert.deepStrictEqual([r.status, r.json.error], [429, 'Etherscan API rate limit reached, try later.']);
      for (const apiKey of ['', 'bad-key']) {
        r = await verify({ address: V.perfect, chainId: '296', apiKey });
        assert.deepStrictEqual(
          [r.status, r.json.message],
          [502, 'Error in Etherscan API response. Result message: Invalid API Key'],
        );
      }
    });

    it('validates the body with the real error bodies', async () => {
      const catalogue = JSON.parse(
        fs.readFileSync(path.join(FIXTURES, 'sourcify/session-verify-etherscan-errors.derived.json'), 'utf8'),
      ) as { cases: { when: string; body: Obj }[] };
      const missingAddress = catalogue.cases.find((c) => c.when.startsWith('missing address'))?.body;
      let r = await verify({ chainId: '296' });
      assert.deepStrictEqual([r.status, r.json], [400, missingAddress]);
      r = await verify({ address: V.perfect });
      assert.strictEqual(r.status, 400);
      assert.strictEqual(r.json.message, "request/body must have required property 'chain'");
      assert.ok(Array.isArray(r.json.errors));
      r = await verify({ address: '0x123', chainId: '296' });
      assert.deepStrictEqual([r.status, r.json.message], [400, 'Invalid address: 0x123']);
      r = await verify({ address: V.perfect, chainId: '1' });
      assert.deepStrictEqual([r.status, r.json.message], [400, 'Chain 1 not supported for verification!']);
    });
  });

  describe('Sourcify API v2', () => {
    const input = {
      stdJsonInput: {
        language: 'Solidity',
        sources: { 'contracts/Storage.sol': { content: 'contract Storage {}' } },
        settings: {},
      },
      compilerVersion: '0.8.24+commit.e11b9ed9',
      contractIdentifier: 'contracts/Storage.sol:Storage',
    };

    it('a job is pending for two polls, then completes with a match; the contract is then verified', async () => {
      const address = '0x1000000000000000000000000000000000000002';
      const before = await getJson(`/v2/contract/295/${address}`);
      assert.deepStrictEqual([before.status, before.json.match], [404, null]);
      const r = await post(`/v2/verify/295/${address}`, input);
      assert.strictEqual(r.status, 202);
      const id = r.json.verificationId as string;
      assert.match(id, /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/);
      const polls = [];
      for (let i = 0; i < 3; i++) polls.push((await getJson(`/v2/verify/${id}`)).json);
      assert.deepStrictEqual(
        polls.map((p) => p.isJobCompleted),
        [false, false, true],
      );
      assert.strictEqual((polls[2].contract as Obj).match, 'match');
      const after = await getJson(`/v2/contract/295/${address}`);
      assert.deepStrictEqual([after.status, after.json.match], [200, 'match']);
      assert.strictEqual(
        (await getJson(`/v2/contract/296/0x1000000000000000000000000000000000000001`)).json.match,
        'exact_match',
      );
    });

    it('completes with an error for other addresses, and validates requests', async () => {
      const r = await post(`/v2/verify/296/0x${'cd'.repeat(20)}`, input);
      const id = r.json.verificationId as string;
      let job: Obj = {};
      for (let i = 0; i < 3; i++) job = (await getJson(`/v2/verify/${id}`)).json;
      assert.strictEqual(job.isJobCompleted, true);
      assert.strictEqual((job.error as Obj).customCode, 'no_match');
      const missing = await post(`/v2/verify/296/0x${'cd'.repeat(20)}`, { stdJsonInput: {} });
      assert.strictEqual(missing.status, 400);
      assert.deepStrictEqual(Object.keys(missing.json).sort(), ['customCode', 'errorId', 'message']);
      assert.match(missing.json.message as string, /compilerVersion/);
      const chain = await post(`/v2/verify/1/0x${'cd'.repeat(20)}`, input);
      assert.deepStrictEqual([chain.status, chain.json.customCode], [400, 'unsupported_chain']);
      const notFound = await getJson('/v2/verify/00000000-0000-4000-8000-000000000000');
      assert.deepStrictEqual([notFound.status, notFound.json.customCode], [404, 'job_not_found']);
      const already = await post('/v2/verify/296/0x100000000000000000000000000000000000000c', input);
      assert.deepStrictEqual([already.status, already.json.customCode], [409, 'already_verified']);
    });
  });

  describe("Sourcify API v2: the real server's facts", () => {
    const input = {
      stdJsonInput: { language: 'Solidity', sources: { 'c.sol': { content: 'contract C {}' } } },
      compilerVersion: '0.8.28+commit.7893614a',
      contractIdentifier: 'c.sol:C',
    };
    const A = (n: string) => `0x10000000000000000000000000000000000000${n}`;
    /** Submits (202) and polls until the job is completed; every poll's body. */
    const run = async (chain: string, address: string): Promise<Obj[]> => {
      const r = await post(`/v2/verify/${chain}/${address}`, input);
      assert.strictEqual(r.status, 202, `${chain} ${address}: ${r.text}`);
      const polls: Obj[] = [];
      for (let i = 0; i < 5 && !polls.at(-1)?.isJobCompleted; i++)
        polls.push((await getJson(`/v2/verify/${r.json.verificationId as string}`)).json);
      return polls;
    };

    it('a job has no status field, only isJobCompleted; completed, it has either contract.match or error', async () => {
      for (const [chain, address] of [
        ['297', A('01')],
        ['297', A('05')],
        ['297', A('0d')],
      ]) {
        const polls = await run(chain, address);
        assert.deepStrictEqual(
          polls.map((p) => p.isJobCompleted),
          [false, false, true],
          address,
        );
        for (const p of polls) assert.ok(!('status' in p), `no status field: ${JSON.stringify(p)}`);
        const done = polls[2];
        const match = (done.contract as Obj).match;
        assert.ok((match !== null) !== 'error' in done, `either a match or an error: ${JSON.stringify(done)}`);
      }
    });

    it('failures are 202 then a job error: contract_not_deployed, contract_not_found_in_compiler_output, bytecode_length_mismatch, compiler_error with errorData.compilerErrors', async () => {
      const cases: Array<[string, string, string]> = [
        [A('0e'), 'contract_not_deployed', `Chain #296 does not have a contract deployed at ${A('0e')}.`],
        [A('0f'), 'contract_not_found_in_compiler_output', 'Contract not found in compiler output.'],
        [
          A('10'),
          'bytecode_length_mismatch',
          "The recompiled bytecode length doesn't match the onchain bytecode length.",
        ],
        [
          A('0d'),
          'compiler_error',
          "Compile error. ParserError: Expected ';' but got '{' --> contracts/Storage.sol:9:17",
        ],
      ];
      for (const [address, code, message] of cases) {
        const done = (await run('296', address)).at(-1) as Obj;
        const error = done.error as Obj;
        assert.deepStrictEqual(
          [error.customCode, error.message, error.errorId],
          [code, message, '1ac6b91a-0605-4459-93dc-18f210a70192'],
          address,
        );
        assert.strictEqual((done.contract as Obj).match, null);
        if (code === 'compiler_error')
          assert.deepStrictEqual(
            ((error.errorData as Obj).compilerErrors as Obj[]).map((e) => [e.type, e.message]),
            [['ParserError', "Expected ';' but got '{'"]],
          );
        else assert.ok(!('errorData' in error), address);
      }
    });

    it('409 already_verified only when creation and runtime are both exact; a match already held is a 202 and then the job error already_verified', async () => {
      // 0x...01 is held as exact_match on 296
      const exact = await post(`/v2/verify/296/${A('01')}`, input);
      assert.deepStrictEqual([exact.status, exact.json.customCode], [409, 'already_verified']);
      assert.match(exact.json.message as string, /both being exact matches/);
      // 0x...02 is held as match on 296: the job runs and finds nothing better
      const partial = await getJson(`/v2/contract/296/${A('02')}`);
      assert.deepStrictEqual([partial.json.creationMatch, partial.json.runtimeMatch], ['match', 'match']);
      const done = (await run('296', A('02'))).at(-1) as Obj;
      assert.deepStrictEqual(done.error, {
        customCode: 'already_verified',
        message: "The contract is already verified and the job didn't yield a better match.",
        errorId: '1ac6b91a-0605-4459-93dc-18f210a70192',
      });
      assert.strictEqual((done.contract as Obj).match, null);
      assert.strictEqual((await getJson(`/v2/contract/296/${A('02')}`)).json.match, 'match', 'still held as match');
      // a contract a job verified as match: submitting again is accepted and ends in already_verified
      assert.strictEqual(((await run('298', A('03'))).at(-1)?.contract as Obj).match, 'match');
      assert.strictEqual(((await run('298', A('03'))).at(-1)?.error as Obj).customCode, 'already_verified');
      // a contract a job verified as exact_match: then 409
      assert.strictEqual(((await run('298', A('01'))).at(-1)?.contract as Obj).match, 'exact_match');
      assert.strictEqual((await post(`/v2/verify/298/${A('01')}`, input)).status, 409);
    });

    it('429 duplicate_verification_request while a job for that chain and address runs; accepted again once it ended', async () => {
      const first = await post(`/v2/verify/295/${A('04')}`, input);
      assert.strictEqual(first.status, 202);
      const again = await post(`/v2/verify/295/${A('04')}`, input);
      assert.deepStrictEqual(
        [again.status, again.json.customCode, again.json.message],
        [429, 'duplicate_verification_request', `Contract ${A('04')} on chain 295 is already being verified`],
      );
      assert.deepStrictEqual(Object.keys(again.json).sort(), ['customCode', 'errorId', 'message']);
      // another chain, or another address: not a duplicate
      assert.strictEqual((await post(`/v2/verify/297/${A('04')}`, input)).status, 202);
      for (let i = 0; i < 3; i++) await getJson(`/v2/verify/${first.json.verificationId as string}`);
      assert.strictEqual(
        (await post(`/v2/verify/295/${A('04')}`, input)).status,
        202,
        'accepted once the first job ended (its match is not better: a job error later)',
      );
    });

    it('a job nobody polls ends on its own after JOB_RUN_MS (no duplicate refusal after that, its match counts)', async () => {
      const { SourcifyV2, JOB_RUN_MS } = await import('../src/sourcify');
      const s = new SourcifyV2();
      const id = (JSON.parse(s.submit('std', '295', A('01'), input, 1_000).body) as Obj).verificationId as string;
      assert.strictEqual(s.submit('std', '295', A('01'), input, 1_000 + JOB_RUN_MS - 1).status, 429);
      assert.strictEqual(
        s.contract('295', A('01'), undefined, 1_000 + JOB_RUN_MS).status,
        200,
        'verified at the deadline',
      );
      assert.strictEqual(s.submit('std', '295', A('01'), input, 1_000 + JOB_RUN_MS).status, 409, 'exact now');
      const job = JSON.parse(s.job(id, 1_000 + JOB_RUN_MS + 5).body) as Obj;
      assert.deepStrictEqual(
        [job.isJobCompleted, (job.contract as Obj).match, job.jobFinishTime],
        [true, 'exact_match', new Date(1_000 + JOB_RUN_MS).toISOString()],
      );
    });

    it('404 job_not_found; 400 unsupported_chain and invalid_parameter, as {customCode, message, errorId}', async () => {
      const nf = await getJson('/v2/verify/461157eb-e4ea-4c5f-9aec-04c56924fd96');
      assert.deepStrictEqual(
        [nf.status, nf.json.customCode, nf.json.message],
        [404, 'job_not_found', 'No verification job found for id 461157eb-e4ea-4c5f-9aec-04c56924fd96'],
      );
      const chain = await post(`/v2/verify/1/${A('05')}`, input);
      assert.deepStrictEqual(
        [chain.status, chain.json.customCode, chain.json.message],
        [400, 'unsupported_chain', 'Chain 1 not found'],
      );
      const lookupChain = await getJson(`/v2/contract/1/${A('05')}`);
      assert.deepStrictEqual([lookupChain.status, lookupChain.json.customCode], [400, 'unsupported_chain']);
      for (const [p, re] of [
        [`/v2/verify/mainnet/${A('05')}`, /chainId/],
        ['/v2/verify/296/0x1234', /address/],
      ] as const) {
        const r = await post(p, input);
        assert.deepStrictEqual([r.status, r.json.customCode], [400, 'invalid_parameter'], p);
        assert.match(r.json.message as string, re);
      }
      const body = await post(`/v2/verify/296/${A('05')}`, { ...input, contractIdentifier: undefined });
      assert.deepStrictEqual([body.status, body.json.customCode], [400, 'invalid_parameter']);
      for (const r of [nf, chain, lookupChain, body])
        assert.deepStrictEqual(Object.keys(r.json).sort(), ['customCode', 'errorId', 'message']);
    });

    it('a lookup of an unverified address is 404 {match: null, ...} without customCode', async () => {
      const r = await getJson(`/v2/contract/296/${A('05')}`);
      assert.deepStrictEqual(
        [r.status, r.json],
        [404, { match: null, creationMatch: null, runtimeMatch: null, chainId: '296', address: A('05') }],
      );
    });

    it('chainId, matchId, compilationTime and blockNumber are strings', async () => {
      const done = (await run('295', A('03'))).at(-1) as Obj;
      const c = done.contract as Obj;
      assert.deepStrictEqual(
        [typeof c.chainId, typeof c.matchId, typeof done.compilationTime],
        ['string', 'string', 'string'],
      );
      assert.match(c.matchId as string, /^\d+$/);
      const l = await getJson(`/v2/contract/295/${A('03')}`);
      assert.deepStrictEqual([l.json.chainId, l.json.matchId], ['295', c.matchId]);
      const failed = (await run('295', A('05'))).at(-1) as Obj;
      assert.deepStrictEqual(
        [typeof (failed.contract as Obj).chainId, typeof failed.compilationTime],
        ['string', 'string'],
      );
      // `fields=deployment` (the method; the route passes no query yet)
      const { SourcifyV2 } = await import('../src/sourcify');
      const d = (
        JSON.parse(
          new SourcifyV2().contract('296', A('01'), undefined, Date.now(), [['fields', 'deployment']]).body,
        ) as Obj
      ).deployment as Obj;
      assert.deepStrictEqual([typeof d.blockNumber, typeof d.transactionIndex], ['string', 'string']);
      assert.ok(!('deployment' in (await getJson(`/v2/contract/296/${A('01')}`)).json), 'only when asked for');
    });
  });

  it('HashScan stand-in escapes the path', async () => {
    const r = await fetch(`${sb.url}/hashscan/testnet/contract/%3Cscript%3Ealert(1)%3C%2Fscript%3E`);
    const html = await r.text();
    assert.strictEqual(r.status, 200);
    assert.match(html, /Sandbox explorer: \/hashscan\/testnet\/contract\/&lt;script&gt;alert\(1\)&lt;\/script&gt;/);
    assert.ok(!html.includes('<script>'));
  });
});
