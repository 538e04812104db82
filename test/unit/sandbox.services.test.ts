/** The sandbox's status page scenarios, Sourcify (session import and API v2 jobs) and the HashScan stand-in. */
import * as assert from 'assert';
import * as fs from 'fs';
import * as path from 'path';
import { Sandbox, StatusScenario, startSandbox } from '../../src/sandbox/server';

type Obj = Record<string, unknown>;
const FIXTURES = path.join(__dirname, '../../../test/fixtures');
let sb: Sandbox;

const getJson = async (p: string): Promise<{ status: number; json: Obj }> => {
  const r = await fetch(sb.url + p);
  return { status: r.status, json: (await r.json()) as Obj };
};
const post = async (p: string, body: unknown): Promise<{ status: number; json: Obj; text: string }> => {
  const r = await fetch(sb.url + p, { method: 'POST', headers: { 'content-type': 'application/json' }, body: typeof body === 'string' ? body : JSON.stringify(body) });
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
      const real = JSON.parse(fs.readFileSync(path.join(FIXTURES, 'statuspage/github-summary-2019-12-30.real.json'), 'utf8')) as Obj;
      assert.deepStrictEqual(Object.keys(json).sort(), Object.keys(real).sort());
      const page = json.page as Obj;
      assert.deepStrictEqual({ name: page.name, url: page.url }, { name: 'Hedera', url: 'https://status.hedera.com' });
      for (const k of ['id', 'time_zone', 'updated_at']) assert.ok(k in page, k);
      const comps = json.components as Obj[];
      const realComp = (real.components as Obj[])[0];
      for (const c of comps) for (const k of [...Object.keys(realComp), 'start_date']) assert.ok(k in c, `component ${k}`);
      const groups = comps.filter((c) => c.group === true);
      assert.ok(groups.some((g) => /^Hedera Mainnet \(v0\.\d+\.\d+\)$/.test(g.name as string)));
      assert.ok(groups.some((g) => (g.name as string).startsWith('Hedera Testnet')));
      assert.ok(groups.some((g) => g.name === 'Mirror Node REST API Public Mainnet'));
      assert.ok(groups.some((g) => (g.name as string).startsWith('JSON-RPC Relay')));
      for (const g of groups) {
        const children = comps.filter((c) => c.group_id === g.id);
        assert.deepStrictEqual(g.components, children.map((c) => c.id));
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
          for (const k of ['id', 'name', 'impact', 'created_at', 'updated_at', 'resolved_at', 'monitoring_at', 'started_at', 'shortlink', 'incident_updates', 'components', 'scheduled_until']) assert.ok(k in m, k);
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
      for (const k of ['id', 'incident_id', 'status', 'body', 'created_at', 'updated_at', 'display_at', 'affected_components']) assert.ok(k in (incidents[0].incident_updates as Obj[])[0], k);

      sb.setStatusScenario('major');
      ({ json } = await getJson('/api/v2/summary.json'));
      assert.strictEqual((json.status as Obj).indicator, 'major');
      const statuses = new Set((json.components as Obj[]).map((c) => c.status));
      assert.ok(statuses.has('major_outage') && statuses.has('partial_outage'));
      incidents = json.incidents as Obj[];
      assert.ok(incidents.some((i) => i.status === 'escalated'), 'a value outside the documented enum');
      assert.ok(incidents.some((i) => (i.incident_updates as Obj[]).some((u) => /<script>|<img/.test(u.body as string))));
      assert.ok((json.components as Obj[]).some((c) => c.only_show_if_degraded === true && c.status !== 'operational'));
      assert.deepStrictEqual((await getJson('/api/v2/incidents/unresolved.json')).json.incidents, incidents);

      sb.setStatusScenario('maintenance');
      ({ json } = await getJson('/api/v2/summary.json'));
      assert.strictEqual((json.status as Obj).indicator, 'maintenance');
      const maint = json.scheduled_maintenances as Obj[];
      assert.ok(maint.some((m) => m.status === 'in_progress'));
      assert.ok(maint.some((m) => m.status === 'scheduled'));
      assert.ok((json.components as Obj[]).some((c) => c.status === 'under_maintenance'));
      assert.strictEqual(((await getJson('/api/v2/scheduled-maintenances/active.json')).json.scheduled_maintenances as Obj[]).length, 1);
      for (const s of ['operational', 'degraded', 'maintenance'] as StatusScenario[]) {
        sb.setStatusScenario(s);
        const text = await (await fetch(`${sb.url}/api/v2/summary.json`)).text();
        assert.ok(!text.includes('escalated'), `unknown values only in major (${s})`);
      }
      sb.setStatusScenario('operational');
      assert.deepStrictEqual((await getJson('/api/v2/status.json')).json.status, { indicator: 'none', description: 'All Systems Operational' });
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
      for (const k of ['verificationId', 'compiledPath', 'name', 'address', 'chainId', 'files', 'status']) assert.ok(k in c, k);

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
      assert.deepStrictEqual([r.status, r.json], [404, { error: 'This contract is not verified on Etherscan.', message: 'This contract is not verified on Etherscan.' }]);
      r = await verify({ address: '0x' + 'ab'.repeat(20), chainId: '298', apiKey: 'k' });
      assert.strictEqual(r.status, 404);
      r = await verify({ address: V.rateLimited, chainId: '296', apiKey: 'k' });
      assert.deepStrictEqual([r.status, r.json.error], [429, 'Etherscan API rate limit reached, try later.']);
      for (const apiKey of ['', 'bad-key']) {
        r = await verify({ address: V.perfect, chainId: '296', apiKey });
        assert.deepStrictEqual([r.status, r.json.message], [502, 'Error in Etherscan API response. Result message: Invalid API Key']);
      }
    });

    it('validates the body with the real error bodies', async () => {
      const catalogue = JSON.parse(fs.readFileSync(path.join(FIXTURES, 'sourcify/session-verify-etherscan-errors.derived.json'), 'utf8')) as { cases: { when: string; body: Obj }[] };
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
    const input = { stdJsonInput: { language: 'Solidity', sources: { 'contracts/Storage.sol': { content: 'contract Storage {}' } }, settings: {} }, compilerVersion: '0.8.24+commit.e11b9ed9', contractIdentifier: 'contracts/Storage.sol:Storage' };

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
      assert.deepStrictEqual(polls.map((p) => p.isJobCompleted), [false, false, true]);
      assert.strictEqual((polls[2].contract as Obj).match, 'match');
      const after = await getJson(`/v2/contract/295/${address}`);
      assert.deepStrictEqual([after.status, after.json.match], [200, 'match']);
      assert.strictEqual((await getJson(`/v2/contract/296/0x1000000000000000000000000000000000000001`)).json.match, 'exact_match');
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

  it('HashScan stand-in escapes the path', async () => {
    const r = await fetch(`${sb.url}/hashscan/testnet/contract/%3Cscript%3Ealert(1)%3C%2Fscript%3E`);
    const html = await r.text();
    assert.strictEqual(r.status, 200);
    assert.match(html, /Sandbox explorer: \/hashscan\/testnet\/contract\/&lt;script&gt;alert\(1\)&lt;\/script&gt;/);
    assert.ok(!html.includes('<script>'));
  });
});
