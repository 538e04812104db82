#!/usr/bin/env node
// How soon waits stop: cancellations and time limits of the plain-TS clients, in this process, against the sandbox in
// its own process and small scripted servers. The unit tests check that each wait does stop (with waits of an hour,
// that only the stop can end); how soon it stops is judged here.
//   node test/bench/stops.mjs          prints the numbers against the targets, exit 1 if a target is missed
//   node test/bench/stops.mjs --json   prints them as JSON (for test/bench/run.mjs), exit 0 unless it crashed
//   import { measureStops } from './stops.mjs'  -> the same object
//
// Each is measured RUNS times from the start of the call to its rejection (or answer); the worst run is judged.
// 1. HTTP (src/api/http.ts; http.test.ts): a 503, then a backoff wait of 5 s cancelled at 200 ms.
// 2. HTTP: an answer that stops in the middle of its body (headers and part of it, then nothing), cancelled at 150 ms
//    (time limit 10 s); 3. the same answer with a 300 ms time limit.
// 4. A hover's look-up (src/api/ledger/lookup.ts; ledger.lookup.test.ts): an id that is a token, answered after 30 ms,
//    while the other kinds' 404s take 3 s: the first match answers and the others are aborted.
// 5. Sourcify API v2 (src/api/verify.ts; verify.v2.test.ts): waiting for a job with polls 5 s apart, cancelled 20 ms
//    after the first poll (one run: a job per contract at a time).
import http from 'node:http';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { bundle, round as roundTo, startSandbox } from './lib.mjs';

/** Targets: how soon each stop must come (each well under the wait it stops); timed here, not in the unit tests. */
export const TARGETS = {
  backoffCancelMs: 4500, // of a 5 s wait, cancelled at 200 ms
  midBodyCancelMs: 2000, // cancelled at 150 ms
  midBodyTimeLimitMs: 2000, // time limit 300 ms
  lookupFirstMatchMs: 1500, // the token answers at 30 ms, the others at 3 s
  jobCancelMs: 2000, // polls 5 s apart, cancelled 20 ms after the first
};
const RUNS = 5;

const round = (n) => roundTo(n, 1);

/** A local server: `handle(path, req, res)`; every connection closed on stop. */
async function serve(handle) {
  const server = http.createServer((req, res) => handle((req.url ?? '').replace(/\?.*$/, ''), req, res));
  await new Promise((r) => server.listen(0, '127.0.0.1', r));
  return {
    url: `http://127.0.0.1:${server.address().port}`,
    stop: () => {
      server.closeAllConnections();
      server.close();
    },
  };
}

/** ms from now until `p` settles; `expect` checks how it settled (throws otherwise). */
async function timed(start, expect) {
  const t0 = performance.now();
  let outcome;
  try {
    outcome = { value: await start() };
  } catch (e) {
    outcome = { error: e };
  }
  const ms = performance.now() - t0;
  expect(outcome);
  return ms;
}

const cancelledError = ({ error }) => {
  if (error?.kind !== 'cancelled')
    throw new Error(`expected a cancellation, got ${error ? `${error.kind}: ${error.message}` : 'an answer'}`);
};
const summary = (times) => ({
  worstMs: round(Math.max(...times)),
  bestMs: round(Math.min(...times)),
  runs: times.length,
});

export async function measureStops() {
  const lib = await bundle('stops', [
    "export { HttpClient } from './src/api/http';",
    "export { MirrorClient } from './src/api/mirror';",
    "export { LedgerLookup } from './src/api/ledger/lookup';",
    "export { parseRef } from './src/api/ledger/recognize';",
    "export { SourcifyV2Client } from './src/api/verify';",
  ]);
  const sandbox = await startSandbox();
  // headers and part of the body, then nothing: the request is only ended by the client
  const midBody = await serve((_p, _q, r) => {
    r.writeHead(200, { 'content-type': 'application/json', 'content-length': '1000' });
    r.write('{"results":[');
  });
  const scripted = await serve((p, _q, res) => {
    const token = p === '/api/v1/tokens/0.0.42';
    if (!token && !p.startsWith('/api/v1/')) {
      res.writeHead(404).end('{}');
      return;
    }
    const timer = setTimeout(
      () => {
        res.writeHead(token ? 200 : 404, { 'content-type': 'application/json' });
        res.end(
          JSON.stringify(
            token
              ? {
                  token_id: '0.0.42',
                  name: 'Sand',
                  symbol: 'SND',
                  type: 'FUNGIBLE_COMMON',
                  decimals: '2',
                  total_supply: '9223372036854775807',
                  treasury_account_id: '0.0.98',
                  admin_key: null,
                  memo: '',
                  deleted: false,
                }
              : { _status: { messages: [{ message: 'Not found' }] } },
          ),
        );
      },
      token ? 30 : 3000,
    );
    res.on('close', () => clearTimeout(timer));
  });
  try {
    const { url } = sandbox;
    const schedules = `${url}/api/v1/schedules?limit=2`;
    const addFault = (rule) =>
      fetch(`${url}/__sandbox/faults`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify(rule),
      });
    const fast = (extra = {}) =>
      new lib.HttpClient({ backoffBaseMs: 5, backoffMaxMs: 20, random: () => 0.5, timeoutMs: 3000, ...extra });
    const abortAt = (ms) => {
      const ac = new AbortController();
      setTimeout(() => ac.abort(), ms);
      return ac.signal;
    };

    const backoff = [];
    const midBodyCancel = [];
    const midBodyLimit = [];
    const lookup = [];
    for (let i = 0; i < RUNS; i++) {
      await fetch(`${url}/__sandbox/faults`, { method: 'DELETE' });
      await addFault({ path: '/api/v1/schedules', times: 3, fault: { status: 503 } });
      const slow = new lib.HttpClient({
        backoffBaseMs: 5000,
        random: () => 0.5,
        log: { debug() {}, info() {}, warn() {}, error() {} },
      });
      backoff.push(await timed(() => slow.get(schedules, { signal: abortAt(200) }), cancelledError));
      midBodyCancel.push(
        await timed(
          () => fast({ timeoutMs: 10_000 }).get(`${midBody.url}/api/v1/schedules`, { signal: abortAt(150) }),
          cancelledError,
        ),
      );
      midBodyLimit.push(
        await timed(
          () => fast({ timeoutMs: 300, tries: 1 }).get(`${midBody.url}/api/v1/schedules`),
          ({ error }) => {
            if (error?.kind !== 'timeout')
              throw new Error(`expected the time limit, got ${error ? error.kind : 'an answer'}`);
          },
        ),
      );
      const httpClient = new lib.HttpClient({ timeoutMs: 5000, backoffBaseMs: 1, backoffMaxMs: 2 });
      const source = {
        key: `scripted|${scripted.url}`,
        profile: { chainId: 296, verifyUrl: scripted.url },
        mirror: new lib.MirrorClient(scripted.url, httpClient),
        http: httpClient,
      };
      const l = new lib.LedgerLookup(() => source);
      lookup.push(
        await timed(
          () => l.get(lib.parseRef('0.0.42')),
          ({ value, error }) => {
            if (value?.kind !== 'token')
              throw new Error(`expected the token, got ${error ? error.message : value?.kind}`);
          },
        ),
      );
    }
    await fetch(`${url}/__sandbox/faults`, { method: 'DELETE' });

    const v2 = new lib.SourcifyV2Client(`${url}/server/`, new lib.HttpClient({ backoffBaseMs: 10 }));
    const id = await v2.submit({
      chainId: 296,
      address: '0x1000000000000000000000000000000000000004',
      stdJsonInput: { language: 'Solidity', sources: { 'contracts/Counter.sol': { content: 'contract Counter {}' } } },
      compilerVersion: '0.8.28+commit.7893614a',
      contractIdentifier: 'contracts/Counter.sol:Counter',
    });
    const ac = new AbortController();
    let polls = 0;
    const job = await timed(
      () =>
        v2.waitForJob(id, {
          signal: ac.signal,
          pollMs: 5000,
          onPoll: () => {
            polls++;
            setTimeout(() => ac.abort(), 20);
          },
        }),
      cancelledError,
    );
    if (polls !== 1) throw new Error(`${polls} polls, expected one`);

    const r = {
      backoffCancel: summary(backoff),
      midBodyCancel: summary(midBodyCancel),
      midBodyTimeLimit: summary(midBodyLimit),
      lookupFirstMatch: summary(lookup),
      jobCancel: summary([job]),
      targets: TARGETS,
      node: process.version,
      cpus: os.cpus().length,
    };
    r.ok =
      r.backoffCancel.worstMs < TARGETS.backoffCancelMs &&
      r.midBodyCancel.worstMs < TARGETS.midBodyCancelMs &&
      r.midBodyTimeLimit.worstMs < TARGETS.midBodyTimeLimitMs &&
      r.lookupFirstMatch.worstMs < TARGETS.lookupFirstMatchMs &&
      r.jobCancel.worstMs < TARGETS.jobCancelMs;
    return r;
  } finally {
    sandbox.stop();
    midBody.stop();
    scripted.stop();
  }
}

if (process.argv[1] && path.resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  const r = await measureStops();
  if (process.argv.includes('--json')) {
    console.log(JSON.stringify(r, null, 2));
  } else {
    const line = (what, verb, s, target) =>
      console.log(
        `${what}: ${verb} after ${s.worstMs} ms at worst (best ${s.bestMs} ms, ${s.runs} run${s.runs === 1 ? '' : 's'}) (target < ${target.toLocaleString('en-US')} ms) ${s.worstMs < target ? 'OK' : 'MISSED'}`,
      );
    line('HTTP, a 5 s backoff wait cancelled at 200 ms', 'rejected', r.backoffCancel, TARGETS.backoffCancelMs);
    line('HTTP, an answer stopped mid-body, cancelled at 150 ms', 'rejected', r.midBodyCancel, TARGETS.midBodyCancelMs);
    line('HTTP, the same answer with a 300 ms time limit', 'rejected', r.midBodyTimeLimit, TARGETS.midBodyTimeLimitMs);
    line(
      'hover look-up, a token answering at 30 ms, the other kinds at 3 s',
      'answered',
      r.lookupFirstMatch,
      TARGETS.lookupFirstMatchMs,
    );
    line(
      'Sourcify v2 job, polls 5 s apart, cancelled 20 ms after the first poll',
      'rejected',
      r.jobCancel,
      TARGETS.jobCancelMs,
    );
  }
  process.exit(r.ok || process.argv.includes('--json') ? 0 : 1); // --json: the caller judges `ok`
}
