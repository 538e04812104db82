/**
 * The sandbox's hostile mode over real HTTP: every family on and off, per request (x-sandbox-hostile) and per run
 * (startSandbox, control route, in-process, command line); answers keep the real servers' shape (ids valid, lists
 * are lists) and are deterministic; foreign links and redirects reach the sandbox under another Host, which the
 * recorded requests show.
 */
import * as assert from 'assert';
import { spawn } from 'child_process';
import * as path from 'path';
import {
  HOSTILE_FAMILIES,
  HOSTILE_TEXTS,
  type HostileFamily,
  MIX_TEXT,
  type Sandbox,
  startSandbox,
} from '../src/server';
import { BIDI_NAME, COMMAND_LINK, replaceBodyMemo } from '../src/hostile';

type Obj = Record<string, unknown>;
let sb: Sandbox;

const ENTITY = /^\d+\.\d+\.\d+$/;
const TIMESTAMP = /^\d{10}\.\d{9}$/;
const NFT = '/api/v1/tokens/0.0.4815162/nfts/2/transactions';

interface Got {
  status: number;
  text: string;
  json: Obj;
  headers: Headers;
}

async function get(p: string, hostile?: string, init: RequestInit = {}): Promise<Got> {
  const headers: Record<string, string> = { ...((init.headers as Record<string, string>) ?? {}) };
  if (hostile !== undefined) headers['x-sandbox-hostile'] = hostile;
  const r = await fetch(p.startsWith('http') ? p : sb.url + p, { redirect: 'manual', ...init, headers });
  const text = await r.text();
  let json: Obj = {};
  try {
    json = JSON.parse(text) as Obj;
  } catch {
    /* not JSON */
  }
  return { status: r.status, text, json, headers: r.headers };
}

const post = (p: string, body: unknown, hostile?: string): Promise<Got> =>
  get(p, hostile, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) });

const list = (g: Got, key: string): Obj[] => {
  assert.ok(Array.isArray(g.json[key]), `${key} is a list`);
  return g.json[key] as Obj[];
};
const nextOf = (g: Got): string | null => (g.json.links as { next: string | null }).next;

/** The utf-8 string of `Error(string)` revert data. */
function decodeErrorString(hex: string): string {
  assert.ok(hex.startsWith('0x08c379a0'), hex.slice(0, 12));
  const data = Buffer.from(hex.slice(10), 'hex');
  const offset = Number(BigInt('0x' + data.subarray(0, 32).toString('hex')));
  const len = Number(BigInt('0x' + data.subarray(offset, offset + 32).toString('hex')));
  return data.subarray(offset + 32, offset + 32 + len).toString('utf8');
}

/** Field 2 (memo) of a base64 SchedulableTransactionBody, as raw bytes. */
function bodyMemo(base64: string): Buffer | undefined {
  const b = Buffer.from(base64, 'base64');
  let i = 0;
  const varint = (): bigint => {
    let v = 0n;
    let s = 0n;
    for (;;) {
      const x = b[i++];
      v |= BigInt(x & 0x7f) << s;
      if (x < 0x80) return v;
      s += 7n;
    }
  };
  while (i < b.length) {
    const tag = varint();
    const wire = Number(tag & 7n);
    if (wire === 0) varint();
    else if (wire === 2) {
      const len = Number(varint());
      if (tag >> 3n === 2n) return b.subarray(i, i + len);
      i += len;
    } else throw new Error(`wire type ${wire}`);
  }
  return undefined;
}

/** One observation per family: true when its trap shows in the answer. */
const PROBES: Record<HostileFamily, (h?: string) => Promise<boolean>> = {
  text: async (h) => list(await get('/api/v1/schedules?limit=1', h), 'schedules')[0].memo === HOSTILE_TEXTS[0].text,
  'paging-self': async (h) => nextOf(await get('/api/v1/schedules?limit=2', h)) === '/api/v1/schedules?limit=2',
  'paging-cycle': async (h) =>
    nextOf(await get('/api/v1/contracts/results?limit=2&timestamp=lt:1793489671.461162378', h)) ===
    '/api/v1/contracts/results?limit=2',
  'paging-foreign': async (h) =>
    (nextOf(await get('/api/v1/schedules?limit=2', h)) ?? '').startsWith(
      `http://localhost:${sb.port}/api/v1/schedules?`,
    ),
  'paging-remote': async (h) =>
    (nextOf(await get('/api/v1/schedules?limit=2', h)) ?? '').startsWith('https://evil.example/api/v1/schedules?'),
  'paging-empty': async (h) => {
    const g = await get(`${NFT}?limit=3`, h);
    return list(g, 'transactions').length === 0 && nextOf(g) !== null;
  },
  redirect: async (h) => (await get('/api/v1/schedules?limit=1', h)).status === 302,
  bigint: async (h) =>
    (await get('/api/v1/contracts/results?limit=1', h)).text.includes('"amount":9223372036854775807,'),
  'unknown-fields': async (h) =>
    Object.prototype.hasOwnProperty.call(list(await get('/api/v1/schedules?limit=1', h), 'schedules')[0], '__proto__'),
  sourcify: async (h) =>
    (await get('/v2/contract/296/0x100000000000000000000000000000000000000c', h)).json.creationMatch === null,
};

describe('sandbox: hostile mode', function () {
  this.timeout(30_000);
  before(async () => {
    sb = await startSandbox({ port: 0 });
  });
  after(() => sb.close());
  afterEach(() => {
    sb.setHostile(false);
    sb.clearRequests();
  });

  describe('turning it on and off', () => {
    for (const family of HOSTILE_FAMILIES) {
      it(`${family}: off by default, on per request and per run, off again with x-sandbox-hostile: none`, async () => {
        const probe = PROBES[family];
        assert.strictEqual(await probe(), false, 'off by default');
        assert.strictEqual(await probe(family), true, 'per request');
        for (const other of HOSTILE_FAMILIES.filter((f) => f !== family && f !== 'redirect' && f !== 'paging-empty')) {
          // another family alone does not show this one's trap (families are independent)
          if (!family.startsWith('paging') || !other.startsWith('paging'))
            assert.strictEqual(await probe(other), false, `not with ${other}`);
        }
        sb.setHostile([family]);
        assert.strictEqual(await probe(), true, 'per run');
        assert.strictEqual(await probe('none'), false, 'the header turns it off for one request');
        sb.setHostile(false);
        assert.strictEqual(await probe(), false, 'off again');
      });
    }

    it('nothing changes when off: answers equal those with x-sandbox-hostile: 0, and carry no hostile record', async () => {
      for (const p of [
        '/api/v1/contracts/results?limit=5',
        '/api/v1/schedules?limit=5',
        `${NFT}?limit=5`,
        '/api/v1/schedules/0.0.5104897',
        '/v2/contract/296/0x1000000000000000000000000000000000000002',
      ]) {
        const a = await get(p);
        const b = await get(p, '0');
        assert.strictEqual(a.text, b.text, p);
        assert.strictEqual(a.headers.get('etag'), b.headers.get('etag'));
      }
      assert.ok(sb.requests().every((r) => r.hostile === undefined));
    });

    it('header values: 1/all for every family, a list, unknown names are a 400; CORS allows the header', async () => {
      await get('/api/v1/schedules?limit=1', '1');
      await get('/api/v1/schedules?limit=1', 'text, bigint');
      const [all, two] = sb.requests();
      assert.deepStrictEqual(all.hostile, [...HOSTILE_FAMILIES]);
      assert.deepStrictEqual(two.hostile, ['text', 'bigint']);
      const bad = await get('/api/v1/schedules', 'text,nonsense');
      assert.strictEqual(bad.status, 400);
      assert.match(String(bad.json.error), /x-sandbox-hostile.*nonsense/);
      const pre = await fetch(`${sb.url}/api/v1/schedules`, { method: 'OPTIONS' });
      assert.match(pre.headers.get('access-control-allow-headers') ?? '', /x-sandbox-hostile/);
    });

    it('control route: POST {on} / {families}, GET, DELETE; bad bodies are 400; control routes are never hostile', async () => {
      let r = await post('/__sandbox/hostile', { on: true });
      assert.deepStrictEqual(r.json.families, [...HOSTILE_FAMILIES]);
      assert.deepStrictEqual(sb.hostile(), [...HOSTILE_FAMILIES]);
      r = await post('/__sandbox/hostile', { families: ['text', 'paging-self'] });
      assert.deepStrictEqual(r.json, { on: true, families: ['text', 'paging-self'], available: [...HOSTILE_FAMILIES] });
      const g = await get('/__sandbox/hostile', 'redirect');
      assert.strictEqual(g.status, 200, 'never redirected');
      assert.deepStrictEqual(g.json.families, ['text', 'paging-self']);
      assert.strictEqual((g.json.payloads as Obj[]).length, HOSTILE_TEXTS.length);
      assert.strictEqual(g.json.mix, MIX_TEXT);
      const health = await get('/__sandbox/health', '1');
      assert.strictEqual(health.status, 200);
      assert.deepStrictEqual(health.json.hostile, ['text', 'paging-self']);
      assert.strictEqual((await post('/__sandbox/hostile', { families: ['nope'] })).status, 400);
      assert.strictEqual((await post('/__sandbox/hostile', { on: 'yes' })).status, 400);
      assert.strictEqual((await post('/__sandbox/hostile', { other: 1 })).status, 400);
      assert.strictEqual((await post('/__sandbox/hostile', {})).status, 400);
      assert.deepStrictEqual(sb.hostile(), ['text', 'paging-self'], 'unchanged by bad requests');
      r = await get('/__sandbox/hostile', undefined, { method: 'DELETE' });
      assert.deepStrictEqual(r.json.families, []);
      r = await post('/__sandbox/hostile', { on: false });
      assert.strictEqual(r.json.on, false);
      assert.strictEqual(sb.requests().length, 0, 'control routes are not recorded');
    });

    it('startSandbox({hostile}) with true, a list or an object; unknown families throw', async () => {
      const a = await startSandbox({ port: 0, hostile: true });
      const b = await startSandbox({ port: 0, hostile: ['text'] });
      const c = await startSandbox({ port: 0, hostile: { bigint: true, text: false } });
      try {
        assert.deepStrictEqual(a.hostile(), [...HOSTILE_FAMILIES]);
        assert.deepStrictEqual(b.hostile(), ['text']);
        assert.deepStrictEqual(c.hostile(), ['bigint']);
        const memo = ((await (await fetch(`${b.url}/api/v1/schedules/0.0.5104897`)).json()) as Obj).memo;
        assert.strictEqual(memo, HOSTILE_TEXTS[0].text);
      } finally {
        await Promise.all([a.close(), b.close(), c.close()]);
      }
      await assert.rejects(startSandbox({ port: 0, hostile: ['nope' as HostileFamily] }), /unknown hostile family/);
    });

    it('the command line takes --hostile and --hostile=<families>', async () => {
      const cli = path.join(__dirname, '../../sandbox/cli.js');
      for (const [arg, want] of [
        ['--hostile', [...HOSTILE_FAMILIES]],
        ['--hostile=text,paging-cycle', ['text', 'paging-cycle']],
      ] as const) {
        const child = spawn(process.execPath, [cli, '--port', '0', arg, '--quiet'], {
          stdio: ['ignore', 'pipe', 'pipe'],
        });
        try {
          const url = await new Promise<string>((resolve, reject) => {
            let out = '';
            child.stdout.on('data', (c: Buffer) => {
              out += c.toString();
              const m = /listening on (\S+)\n/.exec(out);
              if (m) resolve(m[1]);
            });
            child.on('exit', (code) => reject(new Error(`exited ${code}`)));
          });
          const state = (await (await fetch(`${url}/__sandbox/hostile`)).json()) as Obj;
          assert.deepStrictEqual(state.families, want);
        } finally {
          child.kill('SIGTERM');
        }
      }
    });
  });

  describe('text', () => {
    it('schedules: memo = payload i, inner body memo = payload i+1 (i = position by id); ids and body stay valid', async () => {
      const g = await get('/api/v1/schedules?limit=25', 'text');
      const plain = list(await get('/api/v1/schedules?limit=25'), 'schedules');
      list(g, 'schedules').forEach((s, i) => {
        assert.strictEqual(s.memo, HOSTILE_TEXTS[i % HOSTILE_TEXTS.length].text);
        assert.strictEqual(
          bodyMemo(s.transaction_body as string)?.toString('utf8'),
          Buffer.from(HOSTILE_TEXTS[(i + 1) % HOSTILE_TEXTS.length].text, 'utf8').toString('utf8'),
        );
        assert.match(s.schedule_id as string, ENTITY);
        assert.strictEqual(s.schedule_id, plain[i].schedule_id);
        assert.deepStrictEqual(s.signatures, plain[i].signatures);
        // everything but the memo is the same body
        assert.strictEqual(
          replaceBodyMemo(s.transaction_body as string, ''),
          replaceBodyMemo(plain[i].transaction_body as string, ''),
        );
      });
      const one = await get(`/api/v1/schedules/${String(list(g, 'schedules')[6].schedule_id)}`, 'text');
      assert.strictEqual(one.json.memo, BIDI_NAME);
    });

    it('contract results: Error(string) reasons, textual error_message and name() results carry payloads 0, 1, 2... from the newest', async () => {
      const g = await get('/api/v1/contracts/results?limit=100', 'text');
      const results = list(g, 'results');
      const plain = list(await get('/api/v1/contracts/results?limit=100'), 'results');
      const notable = ((await get('/__sandbox/hostile')).json.notable as { contractResults: Obj[] }).contractResults;
      assert.strictEqual(notable.length, HOSTILE_TEXTS.length);
      assert.strictEqual(results[0].timestamp, notable[0].timestamp, 'the newest (the demo revert) is first');
      assert.strictEqual(decodeErrorString(results[0].error_message as string), HOSTILE_TEXTS[0].text);
      assert.strictEqual(results[0].call_result, results[0].error_message);
      let k = 0;
      results.forEach((r, i) => {
        assert.strictEqual(r.timestamp, plain[i].timestamp);
        assert.strictEqual(r.hash, plain[i].hash);
        assert.strictEqual(r.result, plain[i].result);
        const em = plain[i].error_message;
        const want = HOSTILE_TEXTS[k % HOSTILE_TEXTS.length].text;
        if (typeof em === 'string' && em.startsWith('0x08c379a0')) {
          // ABI strings are utf-8: a lone surrogate arrives as U+FFFD
          assert.strictEqual(
            decodeErrorString(r.error_message as string),
            new TextDecoder().decode(new TextEncoder().encode(want)),
          );
          k++;
        } else if (typeof em === 'string' && em !== '' && !em.startsWith('0x')) {
          assert.strictEqual(r.error_message, want);
          k++;
        } else if (plain[i].function_parameters === '0x06fdde03' && plain[i].result === 'SUCCESS') {
          assert.notStrictEqual(r.call_result, plain[i].call_result);
          k++;
        } else assert.deepStrictEqual(r, plain[i]);
      });
      assert.ok(k >= 10, `${k} results with text on the first page`);
      // the same payload on /contracts/{id}/results
      const byId = list(
        await get(`/api/v1/contracts/${String(results[0].contract_id)}/results?limit=1`, 'text'),
        'results',
      );
      assert.strictEqual(byId[0].error_message, results[0].error_message);
    });

    it('status page: names, descriptions, update bodies and the indicator text; ids and statuses unchanged', async () => {
      sb.setStatusScenario('major');
      try {
        const g = (await get('/api/v2/summary.json', 'text')).json;
        const plain = (await get('/api/v2/summary.json')).json;
        const comps = g.components as Obj[];
        comps.forEach((c, j) => {
          const p = (plain.components as Obj[])[j];
          assert.strictEqual(c.id, p.id);
          assert.strictEqual(c.status, p.status);
          assert.strictEqual(c.name, `${String(p.name)} ${HOSTILE_TEXTS[j % HOSTILE_TEXTS.length].text}`);
          assert.strictEqual(c.description, HOSTILE_TEXTS[(j + 1) % HOSTILE_TEXTS.length].text);
        });
        const inc = (g.incidents as Obj[])[0];
        assert.strictEqual(inc.id, 'inc0outage002');
        assert.strictEqual(inc.name, `Smart contract execution failing on mainnet ${HOSTILE_TEXTS[9].text}`);
        assert.ok(String((inc.incident_updates as Obj[])[0].body).endsWith(`\n${HOSTILE_TEXTS[10].text}`));
        const upcoming = (g.scheduled_maintenances as Obj[]).find((m) => m.id === 'mnt0upgrade70') as Obj;
        assert.strictEqual(upcoming.name, `Hedera Mainnet upgrade to v0.69 ${HOSTILE_TEXTS[0].text}`);
        assert.match(String((g.status as Obj).description), /http:\/\/127\.0\.0\.1\/__beacon\?x=1/);
        assert.strictEqual((g.status as Obj).indicator, 'major');
      } finally {
        sb.setStatusScenario('operational');
      }
    });

    it('Sourcify: contract names, paths and messages; addresses, chain ids and statuses stay valid', async () => {
      const s = await post(
        '/session/verify/etherscan',
        { address: '0x1000000000000000000000000000000000000004', chainId: '296' },
        'text',
      );
      assert.strictEqual(s.status, 200);
      const contracts = s.json.contracts as Obj[];
      assert.deepStrictEqual(
        contracts.map((c) => c.status),
        ['perfect', 'partial', 'error'],
      );
      assert.strictEqual(contracts[0].name, BIDI_NAME);
      assert.strictEqual(contracts[0].name, 'Other\u202Elos.exe\u202C');
      for (const c of contracts) {
        assert.strictEqual(c.address, '0x1000000000000000000000000000000000000004');
        assert.match(c.verificationId as string, /^0x[0-9a-f]{64}$/);
        assert.ok(Array.isArray((c.files as Obj).found));
      }
      assert.ok(String(contracts[2].statusMessage).includes(COMMAND_LINK));
      // errors: the mix text after the real message
      const e = await post(
        '/session/verify/etherscan',
        { address: '0x1000000000000000000000000000000000000006', chainId: '296' },
        'text',
      );
      assert.strictEqual(e.status, 429);
      assert.strictEqual(e.json.message, `Etherscan API rate limit reached, try later. ${MIX_TEXT}`);
      // v2 job errors
      const id = (
        await post('/v2/verify/296/0x100000000000000000000000000000000000000d', {
          stdJsonInput: {},
          compilerVersion: '0.8.28',
          contractIdentifier: 'a.sol:A',
        })
      ).json.verificationId as string;
      let job: Obj = {};
      for (let i = 0; i < 3; i++) job = (await get(`/v2/verify/${id}`, 'text')).json;
      assert.strictEqual(job.isJobCompleted, true);
      const error = job.error as { customCode: string; message: string; errorData: { compilerErrors: Obj[] } };
      assert.strictEqual(error.customCode, 'compiler_error');
      assert.ok(error.message.endsWith(MIX_TEXT));
      assert.strictEqual(error.errorData.compilerErrors.length, 2);
    });

    it('error answers of every service carry the mix text where the service puts text', async () => {
      const m = await get('/api/v1/schedules?limit=0', 'text');
      assert.strictEqual(m.status, 400);
      assert.deepStrictEqual(m.json, {
        _status: { messages: [{ message: 'Invalid parameter: limit', detail: MIX_TEXT }] },
      });
      const s = await get('/api/v2/nothing.json', 'text');
      assert.strictEqual(s.json.error, `Not found ${MIX_TEXT}`);
      const v = await get('/v2/verify/no-such-job', 'text');
      assert.strictEqual(v.json.customCode, 'job_not_found');
      assert.ok(String(v.json.message).endsWith(MIX_TEXT));
      const f = await get('/api/v1/schedules', 'text', { headers: { 'x-sandbox-fault': '{"status":503}' } });
      assert.deepStrictEqual(f.json, { _status: { messages: [{ message: 'Service unavailable', detail: MIX_TEXT }] } });
    });
  });

  describe('paging', () => {
    it('paging-self: links.next and Link are the page just fetched', async () => {
      for (const p of [
        '/api/v1/contracts/results?limit=3&order=asc',
        '/api/v1/schedules?limit=2&schedule.id=gt:0.0.5104897',
        `${NFT}?limit=2`,
        '/api/v1/contracts/0.0.6122781/results?limit=4',
      ]) {
        const g = await get(p, 'paging-self');
        assert.strictEqual(nextOf(g), p);
        assert.strictEqual(g.headers.get('link'), `<${p}>; rel="next"`);
        assert.ok(
          list(g, p.includes('schedules') ? 'schedules' : p.includes('nfts') ? 'transactions' : 'results').length > 0,
        );
      }
    });

    it('paging-cycle: A -> B -> A (B is the real second page)', async () => {
      const a = '/api/v1/schedules?limit=3&account.id=0.0.2061517';
      const pa = await get(a, 'paging-cycle');
      const b = nextOf(pa) as string;
      assert.strictEqual(b, nextOf(await get(a)), 'A links to the real B');
      const pb = await get(b, 'paging-cycle');
      assert.deepStrictEqual(list(pb, 'schedules'), list(await get(b), 'schedules'), 'B holds the real second page');
      assert.strictEqual(nextOf(pb), a);
      // a short first page still gets a B (empty, past its last item) that links back
      const short = '/api/v1/schedules?limit=100&schedule.id=lte:0.0.5110970';
      const ps = await get(short, 'paging-cycle');
      assert.strictEqual(nextOf(await get(short)), null);
      const sb2 = await get(nextOf(ps) as string, 'paging-cycle');
      assert.strictEqual(nextOf(sb2), short);
    });

    it('paging-foreign: next on another origin reaching the sandbox (localhost vs 127.0.0.1); items kept; Host recorded', async () => {
      const p = '/api/v1/contracts/results?limit=2';
      const g = await get(p, 'paging-foreign');
      const real = nextOf(await get(p)) as string;
      assert.strictEqual(nextOf(g), `http://localhost:${sb.port}${real}`);
      assert.deepStrictEqual(list(g, 'results'), list(await get(p), 'results'));
      sb.clearRequests();
      const followed = await get(nextOf(g) as string);
      assert.strictEqual(followed.status, 200);
      assert.deepStrictEqual(
        sb.requests().map((r) => r.host),
        [`localhost:${sb.port}`],
      );
      // reached as localhost, the foreign origin is 127.0.0.1
      const back = await get(`http://localhost:${sb.port}${p}`, 'paging-foreign');
      assert.strictEqual(nextOf(back), `http://127.0.0.1:${sb.port}${real}`);
    });

    it('paging-remote: next on https://evil.example, items kept', async () => {
      const g = await get(`${NFT}?limit=2`, 'paging-remote');
      assert.strictEqual(nextOf(g), `https://evil.example${String(nextOf(await get(`${NFT}?limit=2`)))}`);
      assert.strictEqual(list(g, 'transactions').length, 2);
    });

    it('paging-empty: an empty first page whose next holds the first page; later pages untouched', async () => {
      for (const [p, key] of [
        ['/api/v1/contracts/results?limit=5', 'results'],
        ['/api/v1/schedules?limit=5', 'schedules'],
        [`${NFT}?limit=3&order=asc`, 'transactions'],
      ] as const) {
        const g = await get(p, 'paging-empty');
        assert.strictEqual(g.status, 200);
        assert.deepStrictEqual(list(g, key), []);
        const next = nextOf(g) as string;
        assert.ok(next.startsWith(p.split('?')[0] + '?'), next);
        const second = await get(next, 'paging-empty');
        assert.deepStrictEqual(list(second, key), list(await get(p), key), `${next} holds the first page`);
      }
    });

    it('every family on: contracts/results cycle, contracts/{id} foreign, schedules self, NFT empty first then remote', async () => {
      const r = await get('/api/v1/contracts/results?limit=2', '1');
      const b = await get(nextOf(r) as string, '1');
      assert.strictEqual(nextOf(b), '/api/v1/contracts/results?limit=2');
      assert.ok(
        (nextOf(await get('/api/v1/contracts/0.0.6122781/results?limit=2', '1')) ?? '').startsWith(
          `http://localhost:${sb.port}/`,
        ),
      );
      assert.strictEqual(nextOf(await get('/api/v1/schedules?limit=2', '1')), '/api/v1/schedules?limit=2');
      const n = await get(`${NFT}?limit=2`, '1');
      assert.deepStrictEqual(list(n, 'transactions'), []);
      const n2 = await get(nextOf(n) as string, '1');
      assert.strictEqual(list(n2, 'transactions').length, 2);
      assert.ok((nextOf(n2) ?? '').startsWith('https://evil.example/api/v1/tokens/'));
    });
  });

  describe('redirect', () => {
    it('a 302 to the same path on the other loopback origin; following it is served normally and recorded with its Host', async () => {
      const p = '/api/v1/contracts/results?limit=1';
      const g = await get(p, 'redirect');
      assert.strictEqual(g.status, 302);
      const location = g.headers.get('location') as string;
      assert.strictEqual(location, `http://localhost:${sb.port}${p}`);
      const followed = await get(location, 'redirect');
      assert.strictEqual(followed.status, 200);
      assert.deepStrictEqual(followed.json, (await get(p)).json);
      assert.deepStrictEqual(
        sb.requests().map((r) => r.host),
        [`127.0.0.1:${sb.port}`, `localhost:${sb.port}`, `127.0.0.1:${sb.port}`],
      );
      for (const q of [
        '/api/v2/summary.json',
        '/v2/contract/296/0x1000000000000000000000000000000000000001',
        '/v2/verify/x',
      ])
        assert.strictEqual((await get(q, 'redirect')).status, 302, q);
      const posted = await post(
        '/session/verify/etherscan',
        { address: '0x1000000000000000000000000000000000000001', chainId: '296' },
        'redirect',
      );
      assert.strictEqual(posted.status, 200, 'POST is never redirected');
    });

    it('with other families on, only GET /api/v1/schedules/{id} is redirected', async () => {
      assert.strictEqual((await get('/api/v1/schedules/0.0.5104897', '1')).status, 302);
      assert.strictEqual((await get('/api/v1/schedules?limit=1', '1')).status, 200);
      assert.strictEqual((await get('/api/v2/summary.json', 'redirect,text')).status, 200);
    });
  });

  describe('bigint and unknown-fields', () => {
    it('bigint: amount, a future field and one known field past 2^53 on every contract result; authorization_list nonces where there is a list', async () => {
      const g = await get('/api/v1/contracts/results?limit=100', 'bigint');
      const count = (needle: string): number => g.text.split(needle).length - 1;
      assert.strictEqual(list(g, 'results').length, 100);
      assert.strictEqual(count('"amount":9223372036854775807,'), 100, 'amount');
      // only the results of EIP-7702 transactions have an authorization_list (the real server sends none on the others)
      const withList = list(g, 'results').filter((r) => 'authorization_list' in r);
      assert.ok(withList.length > 0 && withList.every((r) => r.type === 4), `${withList.length} results with a list`);
      assert.strictEqual(count('"nonce":18446744073709551615,"y_parity"'), withList.length, 'authorization_list nonce');
      assert.strictEqual(
        count('"nonce":340282366920938463463374607431768211455,'),
        withList.length,
        'authorization_list nonce 2^128-1',
      );
      assert.strictEqual(count('"blob_gas_used":9223372036854775807'), 100, 'future field');
      assert.ok(
        /"gas_used":18446744073709551615|"block_gas_used":1000000000000000000000000000000|"transaction_index":4294967296/.test(
          g.text,
        ),
      );
      for (const r of list(g, 'results')) assert.match(r.timestamp as string, TIMESTAMP);
      const byId = await get('/api/v1/contracts/0.0.6122781/results?limit=25', 'bigint');
      assert.ok(byId.text.includes('"nonce":18446744073709551615'));
      assert.ok(list(byId, 'results').some((r) => !('authorization_list' in r)));
      const weibar = await get('/api/v1/contracts/results?limit=1&hbar=false', 'bigint');
      assert.ok(weibar.text.includes('"amount":92233720368547758070000000000,'));
      const s = await get('/api/v1/schedules?limit=2', 'bigint');
      assert.ok(s.text.includes('"max_transaction_fee":18446744073709551615'));
      const n = await get(`${NFT}?limit=25`, 'bigint');
      assert.ok(n.text.includes('"serial_number":9223372036854775807'));
      assert.ok(n.text.includes('"nonce":18446744073709551615'));
    });

    it('unknown-fields: every JSON type, deep nesting and awkward names on every item; unknown enum values; ids valid', async () => {
      for (const [p, key] of [
        ['/api/v1/contracts/results?limit=25', 'results'],
        ['/api/v1/contracts/0.0.6122781/results?limit=5', 'results'],
        ['/api/v1/schedules?limit=25', 'schedules'],
        [`${NFT}?limit=25`, 'transactions'],
      ] as const) {
        const g = await get(p, 'unknown-fields');
        assert.strictEqual(g.status, 200);
        for (const item of list(g, key)) {
          const own = (k: string): boolean => Object.prototype.hasOwnProperty.call(item, k);
          for (const k of [
            '__proto__',
            'constructor',
            'toString',
            '',
            '0',
            'zz_future_deep_array',
            'zz_future_object',
            'zz_future_null',
            '\u202Eeman idib\u202C',
          ])
            assert.ok(own(k), `${key} has ${JSON.stringify(k)}`);
          assert.strictEqual(item.zz_future_overflow, Infinity);
          let depth = 0;
          for (let x: unknown = item.zz_future_deep_array; Array.isArray(x); x = x[0]) depth++;
          assert.strictEqual(depth, 40);
          assert.ok(typeof (item.timestamp ?? item.consensus_timestamp) === 'string');
        }
        assert.ok(g.text.includes('"__proto__":{"polluted":true'));
      }
      const results = list(await get('/api/v1/contracts/results?limit=100', 'unknown-fields'), 'results');
      assert.ok(results.some((r) => r.result === 'CONTRACT_EXECUTION_PAUSED_FOR_UPGRADE'));
      assert.ok(results.every((r) => r.result !== 'CONTRACT_EXECUTION_PAUSED_FOR_UPGRADE' || r.status === '0x1'));
      const schedules = list(await get('/api/v1/schedules?limit=100', 'unknown-fields'), 'schedules');
      assert.ok(schedules.some((s) => (s.signatures as Obj[]).some((x) => x.type === 'ML_DSA_65')));
      assert.ok(schedules.every((s) => ENTITY.test(s.schedule_id as string)));
      const nft = list(await get(`${NFT}?limit=25`, 'unknown-fields'), 'transactions');
      assert.ok(nft.length > 0);
    });
  });

  describe('sourcify', () => {
    const std = {
      stdJsonInput: { language: 'Solidity', sources: {} },
      compilerVersion: '0.8.28+commit.7893614a',
      contractIdentifier: 'contracts/Token.sol:Token',
    };

    it('409 already_verified ("exact matches") while GET /v2/contract says match, creation not exact', async () => {
      for (const [address, chain] of [
        ['0x1000000000000000000000000000000000000002', '296'],
        ['0x100000000000000000000000000000000000000c', '295'],
      ]) {
        const s = await post(`/v2/verify/${chain}/${address}`, std, 'sourcify');
        assert.strictEqual(s.status, 409, address);
        assert.strictEqual(s.json.customCode, 'already_verified');
        assert.match(String(s.json.message), /both being exact matches/);
        const c = await get(`/v2/contract/${chain}/${address}`, 'sourcify');
        assert.strictEqual(c.status, 200);
        assert.strictEqual(c.json.match, 'match');
        assert.strictEqual(c.json.runtimeMatch, 'match');
      }
      // off: the partial address is a normal job, 0x...0c is exact
      assert.strictEqual((await post('/v2/verify/296/0x1000000000000000000000000000000000000002', std)).status, 202);
      assert.strictEqual(
        (await get('/v2/contract/295/0x100000000000000000000000000000000000000c')).json.match,
        'exact_match',
      );
    });

    it('job errors end with a markdown command link', async () => {
      const id = (await post('/v2/verify/296/0x1000000000000000000000000000000000000005', std)).json
        .verificationId as string;
      assert.match(id, /^[0-9a-f-]{36}$/);
      let job: Obj = {};
      for (let i = 0; i < 3; i++) job = (await get(`/v2/verify/${id}`, 'sourcify')).json;
      assert.strictEqual(job.isJobCompleted, true);
      assert.strictEqual(job.verificationId, id);
      assert.deepStrictEqual(job.error, {
        customCode: 'no_match',
        message:
          "The onchain and recompiled bytecodes don't match. [Open a terminal](command:workbench.action.terminal.new)",
        errorId: '1ac6b91a-0605-4459-93dc-18f210a70192',
      });
    });
  });

  it('deterministic: two sandboxes give the same hostile answers', async () => {
    const other = await startSandbox({ port: 0 });
    try {
      for (const p of [
        '/api/v1/contracts/results?limit=25',
        '/api/v1/schedules?limit=25',
        `${NFT}?limit=25`,
        '/api/v1/contracts/0.0.6122781/results?limit=25',
      ]) {
        const a = await get(p, 'text,bigint,unknown-fields');
        const b = await fetch(other.url + p, { headers: { 'x-sandbox-hostile': 'text,bigint,unknown-fields' } });
        assert.strictEqual(a.text, await b.text(), p);
      }
    } finally {
      await other.close();
    }
  });
});
