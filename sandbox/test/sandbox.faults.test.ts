/**
 * The sandbox's fault injection (in-process API, HTTP control routes and the per-request header), request
 * recording, CORS, loopback-only binding and the command line.
 */
import * as assert from 'assert';
import { spawn } from 'child_process';
import * as net from 'net';
import * as path from 'path';
import { type Sandbox, startSandbox } from '../src/server';

type Obj = Record<string, unknown>;
let sb: Sandbox;
const logLines: string[] = [];

/** A raw HTTP/1.1 GET over a socket: sees what fetch hides (truncation, resets). */
function rawGet(port: number, path: string): Promise<{ head: string; body: Buffer; error?: string }> {
  return new Promise((resolve) => {
    const socket = net.connect(port, '127.0.0.1');
    const chunks: Buffer[] = [];
    let error: string | undefined;
    socket.on('connect', () => socket.write(`GET ${path} HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: close\r\n\r\n`));
    socket.on('data', (c: Buffer) => chunks.push(c));
    socket.on('error', (e) => (error = (e as NodeJS.ErrnoException).code ?? e.message));
    socket.on('close', () => {
      const all = Buffer.concat(chunks);
      const i = all.indexOf('\r\n\r\n');
      resolve({
        head: i < 0 ? all.toString() : all.subarray(0, i).toString(),
        body: i < 0 ? Buffer.alloc(0) : all.subarray(i + 4),
        error,
      });
    });
  });
}

describe('sandbox: faults and control', function () {
  this.timeout(20_000);
  before(async () => {
    sb = await startSandbox({ port: 0, log: (l) => logLines.push(l) });
  });
  after(() => sb.close());
  beforeEach(() => {
    sb.clearFaults();
    sb.clearRequests();
  });

  it('status faults send the real-looking JSON error with Retry-After, then answer normally', async () => {
    sb.addFault({ path: '/api/v1/schedules', times: 2, fault: { status: 429, retryAfter: '3' } });
    for (let i = 0; i < 2; i++) {
      const r = await fetch(`${sb.url}/api/v1/schedules?limit=1`);
      assert.strictEqual(r.status, 429);
      assert.strictEqual(r.headers.get('retry-after'), '3');
      assert.deepStrictEqual(await r.json(), { _status: { messages: [{ message: 'Too many requests' }] } });
    }
    assert.strictEqual((await fetch(`${sb.url}/api/v1/schedules?limit=1`)).status, 200);
    for (const [status, message] of [
      [503, 'Service unavailable'],
      [500, 'Internal error'],
    ] as const) {
      sb.addFault({ path: '/api/v1/contracts', fault: { status } });
      const r = await fetch(`${sb.url}/api/v1/contracts/results`);
      assert.strictEqual(r.status, status);
      assert.deepStrictEqual(await r.json(), { _status: { messages: [{ message }] } });
    }
    sb.addFault({ path: '/api/v2', fault: { status: 503 } });
    assert.deepStrictEqual(await (await fetch(`${sb.url}/api/v2/summary.json`)).json(), {
      error: 'Service unavailable',
    });
  });

  it('html bodies: an nginx page for 502/504, a portal page for 200', async () => {
    sb.addFault({ path: '/api/v1/schedules', fault: { status: 502, body: 'html' } });
    const r = await fetch(`${sb.url}/api/v1/schedules`);
    assert.strictEqual(r.status, 502);
    assert.match(r.headers.get('content-type') ?? '', /^text\/html/);
    const text = await r.text();
    assert.match(text, /<title>502 Bad Gateway<\/title>/);
    assert.match(text, /nginx/);
    sb.addFault({ path: '/api/v1/schedules', fault: { status: 504, body: 'html' } });
    assert.match(await (await fetch(`${sb.url}/api/v1/schedules`)).text(), /504 Gateway Time-out|504 Gateway Timeout/);
    sb.addFault({ path: '/api/v1/schedules', fault: { body: 'html' } });
    const ok = await fetch(`${sb.url}/api/v1/schedules`);
    assert.strictEqual(ok.status, 200);
    assert.match(await ok.text(), /^<!DOCTYPE html>/);
  });

  it('malformed JSON: a valid-looking start, then garbage', async () => {
    sb.addFault({ path: '/api/v1/contracts/results', fault: { body: 'malformed' } });
    const r = await fetch(`${sb.url}/api/v1/contracts/results`);
    assert.strictEqual(r.status, 200);
    const text = await r.text();
    assert.ok(text.startsWith('{"results":[{'));
    assert.throws(() => JSON.parse(text));
  });

  it('truncated: Content-Length larger than what is sent, then the connection ends', async () => {
    sb.addFault({ path: '/api/v1/schedules', fault: { body: 'truncated' } });
    const r = await rawGet(sb.port, '/api/v1/schedules?limit=5');
    const length = Number(/content-length: (\d+)/i.exec(r.head)?.[1]);
    assert.ok(length > 0);
    assert.ok(r.body.length < length, `${r.body.length} < ${length}`);
    sb.addFault({ path: '/api/v1/schedules', fault: { body: 'truncated' } });
    await assert.rejects(fetch(`${sb.url}/api/v1/schedules`).then((x) => x.text()));
  });

  it('oversize: valid JSON past 32 MiB, with the status asked for', async () => {
    sb.addFault({ path: '/api/v1/schedules', fault: { body: 'oversize' } });
    const r = await fetch(`${sb.url}/api/v1/schedules`);
    assert.strictEqual(r.status, 200);
    const text = await r.text();
    assert.ok(text.length > 32 * 1024 * 1024, String(text.length));
    assert.strictEqual(typeof (JSON.parse(text) as { padding: unknown }).padding, 'string');
  });

  it('empty body, connection reset, and delays', async () => {
    sb.addFault({ path: '/api/v1/schedules', fault: { body: 'empty' } });
    const e = await fetch(`${sb.url}/api/v1/schedules`);
    assert.strictEqual(e.status, 200);
    assert.strictEqual(await e.text(), '');
    sb.addFault({ path: '/api/v1/schedules', fault: { reset: true } });
    const reset = await rawGet(sb.port, '/api/v1/schedules');
    assert.strictEqual(reset.head, '');
    sb.addFault({ path: '/api/v1/schedules', fault: { reset: true } });
    await assert.rejects(fetch(`${sb.url}/api/v1/schedules`));
    sb.addFault({ path: '/api/v1/schedules', fault: { delayMs: 300 } });
    let t = performance.now();
    const slow = await fetch(`${sb.url}/api/v1/schedules?limit=1`);
    assert.strictEqual(slow.status, 200);
    assert.ok(performance.now() - t >= 280);
    sb.addFault({ path: '/api/v1/schedules', fault: { delayMs: 200, status: 503, retryAfter: '1' } });
    t = performance.now();
    const slowFail = await fetch(`${sb.url}/api/v1/schedules`);
    assert.strictEqual(slowFail.status, 503);
    assert.ok(performance.now() - t >= 180);
  });

  it('rules match by path prefix and method, and are used up', async () => {
    sb.addFault({ path: '/api/v1/schedules', method: 'POST', fault: { status: 500 } });
    assert.strictEqual((await fetch(`${sb.url}/api/v1/schedules`)).status, 200);
    sb.clearFaults();
    sb.addFault({ path: '/api/v1/contracts', times: 3, fault: { status: 503 } });
    const statuses = [];
    for (let i = 0; i < 4; i++) statuses.push((await fetch(`${sb.url}/api/v1/contracts/results?limit=1`)).status);
    assert.deepStrictEqual(statuses, [503, 503, 503, 200]);
    assert.throws(() => sb.addFault({ path: 'no-slash', fault: {} }));
    assert.throws(() => sb.addFault({ path: '/x', fault: { body: 'weird' as never } }));
  });

  it('the per-request x-sandbox-fault header applies to that request only', async () => {
    const r = await fetch(`${sb.url}/api/v1/schedules`, {
      headers: { 'x-sandbox-fault': JSON.stringify({ status: 429, retryAfter: '7' }) },
    });
    assert.strictEqual(r.status, 429);
    assert.strictEqual(r.headers.get('retry-after'), '7');
    assert.strictEqual((await fetch(`${sb.url}/api/v1/schedules`)).status, 200);
    const bad = await fetch(`${sb.url}/api/v1/schedules`, { headers: { 'x-sandbox-fault': '{nope' } });
    assert.strictEqual(bad.status, 400);
  });

  it('HTTP control routes: faults, status scenario, requests, health; never recorded', async () => {
    const add = await fetch(`${sb.url}/__sandbox/faults`, {
      method: 'POST',
      body: JSON.stringify({ path: '/api/v1/schedules', times: 1, fault: { status: 503 } }),
    });
    assert.strictEqual(add.status, 201);
    assert.strictEqual((await fetch(`${sb.url}/api/v1/schedules`)).status, 503);
    await fetch(`${sb.url}/__sandbox/faults`, {
      method: 'POST',
      body: JSON.stringify({ path: '/api/v1/schedules', times: 5, fault: { status: 503 } }),
    });
    assert.strictEqual((await fetch(`${sb.url}/__sandbox/faults`, { method: 'DELETE' })).status, 200);
    assert.strictEqual((await fetch(`${sb.url}/api/v1/schedules`)).status, 200);
    assert.strictEqual(
      (await fetch(`${sb.url}/__sandbox/faults`, { method: 'POST', body: '{"path":"x"}' })).status,
      400,
    );

    const st = await fetch(`${sb.url}/__sandbox/status`, {
      method: 'POST',
      body: JSON.stringify({ scenario: 'major' }),
    });
    assert.deepStrictEqual(await st.json(), { scenario: 'major' });
    const summary = (await (await fetch(`${sb.url}/api/v2/summary.json`)).json()) as { status: Obj };
    assert.strictEqual(summary.status.indicator, 'major');
    assert.strictEqual(
      (await fetch(`${sb.url}/__sandbox/status`, { method: 'POST', body: '{"scenario":"on-fire"}' })).status,
      400,
    );
    await fetch(`${sb.url}/__sandbox/status`, { method: 'POST', body: JSON.stringify({ scenario: 'operational' }) });

    assert.strictEqual(sb.requests().length, 3, 'control routes are not recorded, the others are');
    assert.strictEqual((await fetch(`${sb.url}/__sandbox/requests`, { method: 'DELETE' })).status, 200);
    await fetch(`${sb.url}/api/v1/schedules?limit=2`, { headers: { 'user-agent': 'sandbox-test/1' } });
    await fetch(`${sb.url}/session/verify/etherscan`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({
        address: '0x1000000000000000000000000000000000000005',
        chainId: '296',
        apiKey: 'secret-123',
      }),
    });
    const list = (await (await fetch(`${sb.url}/__sandbox/requests`)).json()) as Obj[];
    assert.deepStrictEqual(
      list.map((r) => r.url),
      ['/api/v1/schedules?limit=2', '/session/verify/etherscan'],
    );
    assert.strictEqual((list[0].headers as Obj)['user-agent'], 'sandbox-test/1');
    assert.strictEqual(JSON.parse(list[1].body as string).apiKey, 'secret-123', 'bodies are recorded for tests');
    assert.strictEqual(sb.requests().length, 2);
    assert.ok(!logLines.some((l) => l.includes('secret-123')), 'the log never shows API keys');
    assert.ok(logLines.some((l) => l.includes('apiKey: [hidden]')));
    sb.clearRequests();
    assert.strictEqual(sb.requests().length, 0);
    const health = (await (await fetch(`${sb.url}/__sandbox/health`)).json()) as Obj;
    assert.strictEqual(health.status, 'ok');
    assert.strictEqual(sb.requests().length, 0);
  });

  it('CORS on every answer, preflight, 404 JSON for unknown routes', async () => {
    for (const p of ['/api/v1/schedules', '/api/v2/summary.json', '/nowhere', '/hashscan/testnet/contract/0.0.1']) {
      const r = await fetch(sb.url + p);
      assert.strictEqual(r.headers.get('access-control-allow-origin'), '*', p);
    }
    const pre = await fetch(`${sb.url}/api/v1/schedules`, { method: 'OPTIONS' });
    assert.strictEqual(pre.status, 204);
    assert.strictEqual(pre.headers.get('access-control-allow-origin'), '*');
    const nf = await fetch(`${sb.url}/nowhere`);
    assert.strictEqual(nf.status, 404);
    assert.match(nf.headers.get('content-type') ?? '', /application\/json/);
    assert.ok(((await nf.json()) as Obj).error);
  });

  it('only binds to loopback', async () => {
    await assert.rejects(startSandbox({ port: 0, host: '0.0.0.0' }), /loopback/);
    assert.match(sb.url, /^http:\/\/127\.0\.0\.1:\d+$/);
  });

  it('the command line serves and closes cleanly on SIGTERM', async () => {
    const cli = path.join(__dirname, '../../sandbox/cli.js');
    const child = spawn(process.execPath, [cli, '--port', '0', '--status', 'maintenance', '--quiet'], {
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    const line = await new Promise<string>((resolve, reject) => {
      let out = '';
      child.stdout.on('data', (c: Buffer) => {
        out += c.toString();
        if (out.includes('\n')) resolve(out.trim());
      });
      child.on('exit', (code) => reject(new Error(`exited ${code}`)));
    });
    const m = /^Sandbox listening on (http:\/\/127\.0\.0\.1:\d+)$/.exec(line);
    assert.ok(m, line);
    const summary = (await (await fetch(`${m[1]}/api/v2/summary.json`)).json()) as { status: Obj };
    assert.strictEqual(summary.status.indicator, 'maintenance');
    const code = await new Promise<number | null>((resolve) => {
      child.on('exit', (c) => resolve(c));
      child.kill('SIGTERM');
    });
    assert.strictEqual(code, 0);
  });
});
