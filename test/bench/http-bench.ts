/**
 * Benchmark: all pages of the sandbox's contract results through the extension's client (axios, retries,
 * lossless JSON, link checks), against a bare `node:http` keep-alive loop with `JSON.parse` reading the
 * same pages. Prints requests made against ceil(N/100), both wall times (best and median of alternating rounds),
 * their ratio against the 1.2 target (the median of each round's client/bare ratio; the loops alternate which
 * goes first), and the CPU time of each loop per round.
 * Usage: node out/test/bench/http-bench.js <sandbox url> [--json]
 */
import * as http from 'http';
import { HttpClient } from '../../src/api/http';
import { MirrorClient } from '../../src/api/mirror';

const base = process.argv[2];
const asJson = process.argv.includes('--json');
// Paired rounds (client and bare back to back, which goes first alternating): the figure is the median of the
// rounds' ratios, the least disturbed by other work on the machine; best and median times are printed beside it.
const ROUNDS = 25;

async function viaClient(): Promise<{ requests: number; items: number; ms: number }> {
  const client = new MirrorClient(base, new HttpClient());
  const t = performance.now();
  let page = await client.contractResults({ limit: 100 });
  let requests = 1;
  let items = page.items.length;
  for (;;) {
    const next = await client.next(page);
    if (!next) break;
    page = next;
    requests++;
    items += page.items.length;
  }
  return { requests, items, ms: performance.now() - t };
}

const agent = new http.Agent({ keepAlive: true, maxSockets: 1 });
function getJson(url: string): Promise<{ results: unknown[]; links: { next: string | null } }> {
  return new Promise((resolve, reject) => {
    http
      .get(url, { agent }, (res) => {
        const chunks: Buffer[] = [];
        res.on('data', (c: Buffer) => chunks.push(c));
        res.on('end', () => {
          try {
            resolve(JSON.parse(Buffer.concat(chunks).toString('utf8')));
          } catch (e) {
            reject(e);
          }
        });
        res.on('error', reject);
      })
      .on('error', reject);
  });
}

async function bare(): Promise<{ requests: number; items: number; ms: number }> {
  const t = performance.now();
  let url: string | null = `${base}/api/v1/contracts/results?limit=100`;
  let requests = 0;
  let items = 0;
  while (url) {
    const body: { results: unknown[]; links: { next: string | null } } = await getJson(url);
    requests++;
    items += body.results.length;
    url = body.links.next ? new URL(body.links.next, base).toString() : null;
  }
  return { requests, items, ms: performance.now() - t };
}

const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];
const best = (xs: number[]) => Math.min(...xs);

async function main() {
  await viaClient();
  await bare(); // warm-up: JIT, connections
  const c: number[] = [];
  const b: number[] = [];
  let shape = { requests: 0, items: 0 };
  let bareShape = { requests: 0, items: 0 };
  let cpuClient = 0;
  let cpuBare = 0;
  const runClient = async () => {
    const u = process.cpuUsage();
    const r = await viaClient();
    const d = process.cpuUsage(u);
    cpuClient += (d.user + d.system) / 1000;
    return r;
  };
  const runBare = async () => {
    const u = process.cpuUsage();
    const r = await bare();
    const d = process.cpuUsage(u);
    cpuBare += (d.user + d.system) / 1000;
    return r;
  };
  for (let i = 0; i < ROUNDS; i++) {
    // which loop goes first alternates: neither always pays the other's garbage collection
    let r1: Awaited<ReturnType<typeof viaClient>>;
    let r2: Awaited<ReturnType<typeof bare>>;
    if (i % 2 === 0) {
      r1 = await runClient();
      r2 = await runBare();
    } else {
      r2 = await runBare();
      r1 = await runClient();
    }
    c.push(r1.ms);
    b.push(r2.ms);
    shape = r1;
    bareShape = r2;
  }
  // the ratio of each round's pair (same moment, same machine load), then the median of those: robust to a
  // busy moment, unlike the ratio of two best times taken from different rounds
  const pairRatios = c.map((x, i) => x / b[i]);
  const out = {
    items: shape.items,
    requests: shape.requests,
    expectedRequests: Math.ceil(shape.items / 100),
    bareRequests: bareShape.requests,
    clientMs: Math.round(best(c) * 10) / 10,
    bareMs: Math.round(best(b) * 10) / 10,
    ratio: Math.round(median(pairRatios) * 100) / 100,
    bestRatio: Math.round((best(c) / best(b)) * 100) / 100,
    clientCpuMs: Math.round((cpuClient / ROUNDS) * 10) / 10,
    bareCpuMs: Math.round((cpuBare / ROUNDS) * 10) / 10,
    clientMedianMs: Math.round(median(c) * 10) / 10,
    bareMedianMs: Math.round(median(b) * 10) / 10,
  };
  agent.destroy();
  if (asJson) console.log(JSON.stringify(out));
  else {
    const requestsOk = out.requests === out.expectedRequests;
    const ratioOk = out.ratio <= 1.2;
    console.log(`contract results: ${out.items} items`);
    console.log(
      `requests made: ${out.requests} (target ceil(N/100) = ${out.expectedRequests}; bare loop ${out.bareRequests}) ${requestsOk ? 'OK' : 'MISSED'}`,
    );
    console.log(
      `wall time, best of ${ROUNDS} alternating rounds: client (axios + lossless JSON) ${out.clientMs} ms, bare node:http + JSON.parse ${out.bareMs} ms (medians ${out.clientMedianMs} / ${out.bareMedianMs} ms)`,
    );
    console.log(
      `ratio client/bare ${out.ratio} (median of the ${ROUNDS} rounds' ratios; target <= 1.2) ${ratioOk ? 'OK' : 'MISSED'}; ratio of the best times ${out.bestRatio}`,
    );
    console.log(
      `CPU per round: client ${out.clientCpuMs} ms, bare ${out.bareCpuMs} ms (ratio ${Math.round((out.clientCpuMs / out.bareCpuMs) * 100) / 100})`,
    );
  }
}

main().catch((e) => {
  console.error(e);
  process.exit(1);
});
