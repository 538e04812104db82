#!/usr/bin/env node
// Hovers and links on Hedera references: an in-process Node benchmark of the code the providers run
// (src/api/ledger: recognize.ts, lookup.ts, hover.ts), against the sandbox in its own process over real HTTP.
//   node test/bench/hover.mjs          prints the numbers against the targets, exit 1 if a target is missed
//   node test/bench/hover.mjs --json   prints them as JSON (for test/bench/run.mjs), exit 0 unless it crashed
//   import { measureHover } from './hover.mjs'  -> the same object
//
// Why in-process rather than in the browser: a hover in the workbench waits VS Code's own hover delay (300 ms) and its
// rendering, which would hide what our code costs; and VS Code asks for a document's links at most once a second
// while typing (its debounce), so per-keystroke costs are ours to measure. The providers in src/features/ledgerLinks
// are thin (read a line or lines, call these functions, wrap the answer); their time inside the real extension host,
// links included, is what test/integration/ledgerLinks.test.ts records (wall and CPU ms per call, 10,000 lines), judged
// by test/bench/host.mjs.
//
// 1. Hover answer time, cold (empty cache: every request goes out) and warm (answered from the cache), for each kind
//    of reference the sandbox has: a contract id (5 kinds asked at once, then its results and Sourcify), a long-zero
//    and a plain EVM address, a transaction id (transaction and call together), a hash, a schedule id, an id nothing
//    has. Median of ROUNDS look-ups each, with the requests counted by the look-up and by the sandbox.
// 2. Typing in a 10,000-line file where every tenth line holds three references (3,000 in all): per keystroke, the
//    hover's recognition of the line under the mouse, and the link provider's scan of the document as VS Code asks it
//    after an edit (its first MAX_LINK_LINES lines, MAX_LINKS links at most); requests made while typing (none).
// 3. A hover in the middle of a 2 MB line (a minified bundle): refAt reads a bounded window around the position, so
//    it costs what a short line costs (ledger.recognize.test.ts checks what it finds). Mean of LONG_LINE_CALLS calls.
import os from 'node:os';
import { fileURLToPath } from 'node:url';
import { bundle, median, p95, round, startSandbox } from './lib.mjs';

/** Targets, each with its reason. */
export const TARGETS = {
  // a cold hover on a local mirror node: at most two rounds of requests (the kinds, then a contract's results and
  // Sourcify), each a few ms; a public mirror node adds its latency twice, which is not ours
  coldMedianMs: 100,
  // a warm hover is a map look-up and a Markdown string: nothing to wait for
  warmMedianMs: 1,
  // requests of one cold hover: a contract id asks 5 kinds (at most 4 at once; the others aborted or never sent) then 2
  coldRequestsMax: 7,
  // recognizing the reference under the mouse reads one window of one line
  recognizeMs: 0.05,
  // VS Code asks for links at most once a second while typing: a scan must be a small part of that second and of a
  // 16 ms frame of the extension host's time
  linksMedianMs: 10,
  // a hover on a line of megabytes reads only its window around the mouse: well under a millisecond
  longLineRefAtMs: 0.5,
};
const ROUNDS = 15;
const LONG_LINE_CALLS = 1000;
const WARM_ROUNDS = 500;
const KEYSTROKES = 200;

export async function measureHover() {
  const lib = await bundle('hover', [
    "export { LedgerLookup } from './src/api/ledger/lookup';",
    "export { refAt, refsInDocument, MAX_LINK_LINES, MAX_LINKS } from './src/api/ledger/recognize';",
    "export { ledgerHover } from './src/api/ledger/hover';",
    "export { HttpClient } from './src/api/http';",
    "export { MirrorClient } from './src/api/mirror';",
  ]);
  const sandbox = await startSandbox();
  try {
    const { url } = sandbox;
    const health = await (await fetch(`${url}/__sandbox/health`)).json();
    const n = health.notable;
    const deep = n.inspector.inspectorDeepRevert;
    const http = new lib.HttpClient({ timeoutMs: 10000 });
    const mirror = new lib.MirrorClient(url, http);
    const source = { key: `sandbox|${url}`, profile: { chainId: 296, verifyUrl: url }, mirror, http };
    const lookup = new lib.LedgerLookup(() => source);
    const served = async () =>
      (await (await fetch(`${url}/__sandbox/requests`)).json()).filter((r) => !r.url.startsWith('/__sandbox')).length;
    const clearServed = () => fetch(`${url}/__sandbox/requests`, { method: 'DELETE' });

    const refs = {
      contractId: deep.contractId,
      longZeroAddress: `0x${Number(deep.contractId.split('.')[2]).toString(16).padStart(40, '0')}`,
      evmAddress: n.contractResults.evmContractAddress,
      transactionId: deep.transactionId,
      hash: n.inspector.inspectorSuccess.hash,
      scheduleId: n.schedules.executed,
      unknownId: '0.0.274877906000',
    };
    // 1. cold and warm hovers
    const hovers = {};
    for (const [name, text] of Object.entries(refs)) {
      // a hash is taken for one where the line says so (a 32-byte value alone may be a private key)
      const line = name === 'hash' ? `const txHash = "${text}";` : `const x = "${text}";`;
      const ref = lib.refAt(line, line.indexOf('"') + 2);
      if (!ref) throw new Error(`${text} is not recognized`);
      const cold = [];
      const requests = [];
      const servedCounts = [];
      let kind = '';
      for (let i = 0; i < ROUNDS; i++) {
        lookup.clear();
        await clearServed();
        const before = lookup.stats().requests;
        const t0 = performance.now();
        const info = await lookup.get(ref);
        const md = lib.ledgerHover(ref, info, { network: { label: 'Sandbox' } }).markdown;
        cold.push(performance.now() - t0);
        if (!md) throw new Error('no hover text');
        kind = info.kind;
        requests.push(lookup.stats().requests - before);
        await new Promise((r) => setTimeout(r, 20)); // aborted requests reach the server's log
        servedCounts.push(await served());
      }
      const warm = [];
      const beforeWarm = lookup.stats().requests;
      for (let i = 0; i < WARM_ROUNDS; i++) {
        const t0 = performance.now();
        const info = await lookup.get(ref);
        lib.ledgerHover(ref, info, { network: { label: 'Sandbox' } });
        warm.push(performance.now() - t0);
      }
      hovers[name] = {
        reference: text,
        answer: kind,
        coldMedianMs: round(median(cold)),
        coldP95Ms: round(p95(cold)),
        requests: Math.max(...requests),
        servedBySandbox: Math.max(...servedCounts),
        warmMedianMs: round(median(warm)),
        warmRequests: lookup.stats().requests - beforeWarm,
      };
    }

    // 2. typing in a 10,000-line file with many ids
    const lines = [];
    for (let i = 0; i < 10_000; i++) {
      lines.push(
        i % 10 === 0
          ? `const a${i} = "0.0.${1000 + i}"; // sent by 0x${(i + 1).toString(16).padStart(40, 'a')} in 0.0.${i}-1700000000-000000001`
          : `  total += values[${i}] * 2; // nothing here ${i}.${i} ${'x'.repeat(i % 50)}`,
      );
    }
    await clearServed();
    const requestsBefore = lookup.stats().requests;
    const recognize = [];
    const links = [];
    let linkCount = 0;
    const cursorLine = 5000;
    for (let k = 0; k < KEYSTROKES; k++) {
      lines[cursorLine] = `x${lines[cursorLine]}`; // a keystroke
      let t0 = performance.now();
      lib.refAt(lines[cursorLine], 20);
      recognize.push(performance.now() - t0);
      t0 = performance.now();
      linkCount = lib.refsInDocument(lines.length, (i) => lines[i]).length;
      links.push(performance.now() - t0);
    }
    await new Promise((r) => setTimeout(r, 50));
    const typing = {
      lines: lines.length,
      referencesInFile: 3000,
      keystrokes: KEYSTROKES,
      linkLinesScanned: Math.min(lines.length, lib.MAX_LINK_LINES),
      linksPerRequest: linkCount,
      maxLinks: lib.MAX_LINKS,
      recognizeMedianMs: round(median(recognize)),
      recognizeP95Ms: round(p95(recognize)),
      linksMedianMs: round(median(links)),
      linksP95Ms: round(p95(links)),
      requests: lookup.stats().requests - requestsBefore,
      servedBySandbox: await served(),
    };
    // 3. a hover in the middle of a 2 MB line
    const pad = 'ab '.repeat(350_000);
    const longLine = `${pad}0.0.77 ${pad}`;
    const t0 = performance.now();
    for (let i = 0; i < LONG_LINE_CALLS; i++)
      if (lib.refAt(longLine, pad.length + 2)?.value !== '0.0.77') throw new Error('0.0.77 not found in the long line');
    const longLineResult = {
      lineMB: round(longLine.length / 1e6),
      calls: LONG_LINE_CALLS,
      refAtMs: round((performance.now() - t0) / LONG_LINE_CALLS),
    };

    const coldMedians = Object.values(hovers).map((h) => h.coldMedianMs);
    const r = {
      hovers,
      typing,
      longLine: longLineResult,
      coldMedianMsWorst: Math.max(...coldMedians),
      warmMedianMsWorst: Math.max(...Object.values(hovers).map((h) => h.warmMedianMs)),
      coldRequestsMax: Math.max(...Object.values(hovers).map((h) => h.requests)),
      targets: TARGETS,
      node: process.version,
      cpus: os.cpus().length,
    };
    r.ok =
      r.coldMedianMsWorst <= TARGETS.coldMedianMs &&
      r.warmMedianMsWorst <= TARGETS.warmMedianMs &&
      r.coldRequestsMax <= TARGETS.coldRequestsMax &&
      Object.values(hovers).every((h) => h.warmRequests === 0) &&
      typing.requests === 0 &&
      typing.servedBySandbox === 0 &&
      typing.recognizeMedianMs <= TARGETS.recognizeMs &&
      typing.linksMedianMs <= TARGETS.linksMedianMs &&
      longLineResult.refAtMs < TARGETS.longLineRefAtMs;
    return r;
  } finally {
    sandbox.stop();
  }
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const r = await measureHover();
  if (process.argv.includes('--json')) {
    console.log(JSON.stringify(r, null, 2));
  } else {
    const mark = (ok) => (ok ? 'OK  ' : 'MISS');
    for (const [name, h] of Object.entries(r.hovers)) {
      console.log(
        `${mark(h.coldMedianMs <= TARGETS.coldMedianMs && h.requests <= TARGETS.coldRequestsMax && h.warmMedianMs <= TARGETS.warmMedianMs && h.warmRequests === 0)} hover ${name} (${h.answer}): cold ${h.coldMedianMs} ms median, p95 ${h.coldP95Ms} ms, ${h.requests} requests (${h.servedBySandbox} reached the sandbox); warm ${h.warmMedianMs} ms, ${h.warmRequests} requests`,
      );
    }
    console.log(
      `     targets: cold median <= ${TARGETS.coldMedianMs} ms with <= ${TARGETS.coldRequestsMax} requests, warm median <= ${TARGETS.warmMedianMs} ms with none`,
    );
    const t = r.typing;
    console.log(
      `${mark(t.requests === 0 && t.servedBySandbox === 0)} typing ${t.keystrokes} keystrokes in a ${t.lines.toLocaleString('en-US')}-line file with ${t.referencesInFile.toLocaleString('en-US')} references: ${t.requests} requests`,
    );
    console.log(
      `${mark(t.recognizeMedianMs <= TARGETS.recognizeMs)} hover recognition of the line under the mouse: ${t.recognizeMedianMs} ms median, p95 ${t.recognizeP95Ms} ms (target <= ${TARGETS.recognizeMs} ms)`,
    );
    const l = r.longLine;
    console.log(
      `${mark(l.refAtMs < TARGETS.longLineRefAtMs)} hover in the middle of a ${l.lineMB} MB line: ${l.refAtMs} ms per hover, mean of ${l.calls.toLocaleString('en-US')} (target < ${TARGETS.longLineRefAtMs} ms)`,
    );
    console.log(
      `${mark(t.linksMedianMs <= TARGETS.linksMedianMs)} links after an edit (first ${t.linkLinesScanned.toLocaleString('en-US')} lines, ${t.linksPerRequest} links, at most ${t.maxLinks}): ${t.linksMedianMs} ms median, p95 ${t.linksP95Ms} ms (target <= ${TARGETS.linksMedianMs} ms; VS Code asks at most once a second while typing)`,
    );
  }
  process.exit(r.ok || process.argv.includes('--json') ? 0 : 1); // --json: the caller judges `ok`
}
