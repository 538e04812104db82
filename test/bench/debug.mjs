#!/usr/bin/env node
// Debugger benchmark: a 20,000-step trace of a real execution from its arrival to the first stop (target ≤ 300 ms),
// each step and step back (target ≤ 20 ms), a Reverse Continue across the whole trace, and the model's memory.
//   node test/bench/debug.mjs          prints the numbers against the targets, exit 1 if one is missed
//   node test/bench/debug.mjs --json   prints them as JSON, exit 0 unless it crashed
//
// The trace: Vault.spin run out of gas in its loop (the inspector's contracts in the sandbox's EVM, logged as the
// mirror node's /opcodes answer with stack, memory and storage), with the smallest gas limit (in steps of 1,000)
// whose log has at least 20,000 entries. Timed in this process: the first run (cold), then the median of 15; then the
// same through the debug adapter over the Debug Adapter Protocol (overProtocol).
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { createRequire } from 'node:module';
import { fileURLToPath } from 'node:url';

export const TARGETS = { steps: 20_000, firstStopMs: 300, stepMs: 20 };
const RUNS = 15;

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
const require = createRequire(path.join(root, 'package.json'));

async function loadModules() {
  const esbuild = require('esbuild');
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'hedera-debug-bench-'));
  const outfile = path.join(dir, 'modules.cjs');
  try {
    await esbuild.build({
      stdin: {
        contents: [
          "export { DebugTrace } from './src/api/debug/trace';",
          "export { evmVariables, storageVariables, argumentsOf, revertReason } from './src/api/debug/state';",
          "export { createInspectorChain } from './sandbox/src/evm';",
          "export { HederaDebugSession } from './src/features/debug/session';",
          "export { DebugClient } from '@vscode/debugadapter-testsupport';",
        ].join('\n'),
        resolveDir: root,
        loader: 'ts',
      },
      bundle: true,
      platform: 'node',
      format: 'cjs',
      target: 'node20',
      outfile,
      logLevel: 'silent',
    });
    return require(outfile);
  } finally {
    setTimeout(() => fs.rmSync(dir, { recursive: true, force: true }), 0);
  }
}

const median = (xs) => [...xs].sort((a, b) => a - b)[xs.length >> 1];
const round = (x) => Math.round(x * 1000) / 1000;

export async function measureDebug() {
  const m = await loadModules();
  const compiled = JSON.parse(fs.readFileSync(path.join(root, 'sandbox/src/compiled/inspector.json'), 'utf8'));
  const build = JSON.parse(
    fs.readFileSync(path.join(root, 'test/workspace/artifacts/build-info', `${compiled.buildInfoId}.json`), 'utf8'),
  );
  const { chain, deployer, contracts } = await m.createInspectorChain(compiled);
  const vault = contracts.Vault.address;
  const resolve = (f) =>
    f.address === vault.toLowerCase() ? { build, contract: 'contracts/inspector/Vault.sol:Vault' } : undefined;
  const wire = (v) => JSON.parse(JSON.stringify(v, (_k, x) => (typeof x === 'bigint' ? Number(x) : x)));
  const spin = `0xa5b6ea8f${(100_000).toString(16).padStart(64, '0')}`;
  let gas = 200_000;
  let ex;
  for (;;) {
    ex = await chain.call({
      from: deployer.address,
      to: vault,
      data: spin,
      gas,
      trace: { stack: true, memory: true, storage: true },
    });
    if (ex.opcodes.opcodes.length >= TARGETS.steps) break;
    gas += 1_000;
  }
  const response = wire(ex.opcodes);
  const actions = wire(ex.actions);

  /** Arrival to the first stop: the index, the stop on the failure, its stack and variables. */
  const firstStop = () => {
    const t = new m.DebugTrace({ opcodes: response.opcodes, actions, resolve, top: response });
    const at = t.failing >= 0 ? t.failing : 0;
    t.stackAt(at);
    m.evmVariables(t, at);
    m.storageVariables(t, at);
    m.argumentsOf(t, t.frames[0]);
    m.revertReason(t);
    return t;
  };
  const heapBefore = process.memoryUsage().heapUsed;
  const a0 = performance.now();
  const trace = firstStop();
  const firstMs = performance.now() - a0;
  const heapMb = (process.memoryUsage().heapUsed - heapBefore) / 1e6;
  const stops = [];
  for (let i = 0; i < RUNS; i++) {
    const a = performance.now();
    firstStop();
    stops.push(performance.now() - a);
  }
  // steps from the middle of the trace, each with the variables a stop shows
  const stepTimes = [];
  const backTimes = [];
  let s = trace.move(Math.floor(trace.count / 2), 'over');
  for (let i = 0; i < RUNS; i++) {
    let a = performance.now();
    s = trace.move(s, 'over');
    trace.stackAt(s);
    m.evmVariables(trace, s);
    stepTimes.push(performance.now() - a);
    a = performance.now();
    s = trace.move(s, 'over', true);
    trace.stackAt(s);
    m.evmVariables(trace, s);
    backTimes.push(performance.now() - a);
  }
  // Reverse Continue from the end with a breakpoint on a line never run: the whole trace scanned
  const never = new Set([-1]);
  const r0 = performance.now();
  const hit = trace.findBreak(trace.count - 1, never, true);
  const reverseMs = performance.now() - r0;
  const stepMs = round(median(stepTimes));
  const backMs = round(median(backTimes));
  const adapter = await overProtocol(m, { opcodes: response.opcodes, actions, resolve, top: response });
  return {
    adapter,
    steps: trace.count,
    gasLimit: gas,
    firstStopColdMs: round(firstMs),
    firstStopMs: round(median(stops)),
    stepMs,
    stepBackMs: backMs,
    reverseContinueMs: round(reverseMs),
    reverseContinueHit: hit ?? null,
    modelHeapMb: Math.round(heapMb * 10) / 10,
    ok:
      adapter.firstStopMs <= TARGETS.firstStopMs &&
      adapter.stepMs <= TARGETS.stepMs &&
      adapter.stepBackMs <= TARGETS.stepMs &&
      trace.count >= TARGETS.steps &&
      median(stops) <= TARGETS.firstStopMs &&
      stepMs <= TARGETS.stepMs &&
      backMs <= TARGETS.stepMs,
  };
}

/**
 * The same through the debug adapter, over the Debug Adapter Protocol as VS Code speaks it (a socket, JSON messages):
 * launch to the stop with what VS Code asks then (threads, stack, scopes, the EVM variables); Step Over and Step Back
 * each to their stop and stack; Reverse Continue from the revert to the start; the heap the open session holds.
 */
async function overProtocol(m, input) {
  const net = await import('node:net');
  const v8 = await import('node:v8');
  const vm = await import('node:vm');
  v8.setFlagsFromString('--expose-gc');
  const gc = vm.runInNewContext('gc'); // the heap measured after a full collection, both times
  gc();
  const heapBefore = process.memoryUsage().heapUsed;
  const server = net.createServer((socket) => {
    const session = new m.HederaDebugSession({
      load: async () => ({
        trace: new m.DebugTrace(input),
        title: 'bench',
        pathOf: () => undefined,
        sourceNameOf: () => undefined,
      }),
    });
    session.setRunAsServer(true);
    socket.setNoDelay(true); // no Nagle delay on the small messages (VS Code's inline adapter has no socket at all)
    session.start(socket, socket);
  });
  await new Promise((r) => server.listen(0, '127.0.0.1', r));
  const once = async () => {
    const dc = new m.DebugClient('node', 'unused', 'hedera');
    dc.defaultTimeout = 60000;
    await dc.start(server.address().port);
    const until = (request) => {
      const stopped = dc.waitForEvent('stopped');
      return Promise.all([stopped, request()]);
    };
    /** What VS Code asks at each stop: the stack, and for the top frame its scopes and the EVM scope's variables. */
    const shown = async () => {
      const frames = (await dc.stackTraceRequest({ threadId: 1 })).body.stackFrames;
      const scopes = (await dc.scopesRequest({ frameId: frames[0].id })).body.scopes;
      const evm = scopes.find((sc) => sc.name === 'EVM');
      if (evm) await dc.variablesRequest({ variablesReference: evm.variablesReference });
    };
    const a = performance.now();
    await until(() =>
      Promise.all([
        dc.initializeRequest({ adapterID: 'hedera', linesStartAt1: true, columnsStartAt1: true, pathFormat: 'path' }),
        dc.waitForEvent('initialized').then(() => dc.configurationDoneRequest()),
        dc.launchRequest({ transaction: 'bench' }),
      ]),
    );
    await dc.threadsRequest();
    await shown();
    const first = performance.now() - a;
    return { dc, first, until, shown };
  };
  const firsts = [];
  let last;
  for (let i = 0; i < 5; i++) {
    if (last) await last.dc.stop();
    last = await once();
    firsts.push(last.first);
  }
  const { dc, until, shown } = last;
  const steps = [];
  const backs = [];
  for (let i = 0; i < RUNS; i++) {
    let a = performance.now();
    await until(() => dc.stepBackRequest({ threadId: 1 }));
    await shown();
    backs.push(performance.now() - a);
    a = performance.now();
    await until(() => dc.nextRequest({ threadId: 1 }));
    await shown();
    steps.push(performance.now() - a);
  }
  const r0 = performance.now();
  await until(() => dc.reverseContinueRequest({ threadId: 1 }));
  const reverseMs = performance.now() - r0;
  gc();
  const heapMb = (process.memoryUsage().heapUsed - heapBefore) / 1e6; // the session still open: its trace held
  await dc.stop();
  await new Promise((r) => server.close(() => r()));
  return {
    firstStopMs: round(median(firsts)),
    stepMs: round(median(steps)),
    stepBackMs: round(median(backs)),
    reverseContinueMs: round(reverseMs),
    heapMb: Math.round(heapMb * 10) / 10,
  };
}

if (process.argv[1] && path.resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  const r = await measureDebug();
  if (process.argv.includes('--json')) console.log(JSON.stringify(r));
  else {
    const mark = (ok) => (ok ? 'OK' : 'MISSED');
    console.log(
      `trace: ${r.steps} steps (Vault.spin out of gas, gas limit ${r.gasLimit}), with stack, memory and storage`,
    );
    console.log(
      `arrival → first stop: ${r.firstStopMs} ms median (cold ${r.firstStopColdMs} ms), target ≤ ${TARGETS.firstStopMs} ms: ${mark(r.firstStopMs <= TARGETS.firstStopMs)}`,
    );
    console.log(
      `step over: ${r.stepMs} ms, step back: ${r.stepBackMs} ms (median), target ≤ ${TARGETS.stepMs} ms: ${mark(r.stepMs <= TARGETS.stepMs && r.stepBackMs <= TARGETS.stepMs)}`,
    );
    console.log(`Reverse Continue across the whole trace: ${r.reverseContinueMs} ms`);
    console.log(`model memory (heap after the first index): ${r.modelHeapMb} MB`);
    const d = r.adapter;
    console.log(
      `through the debug adapter (DAP over a socket, with the stack, scopes and EVM variables VS Code asks at a stop): ` +
        `launch → first stop ${d.firstStopMs} ms, step over ${d.stepMs} ms, step back ${d.stepBackMs} ms (medians; ` +
        `targets ≤ ${TARGETS.firstStopMs} and ≤ ${TARGETS.stepMs} ms: ${mark(d.firstStopMs <= TARGETS.firstStopMs && d.stepMs <= TARGETS.stepMs && d.stepBackMs <= TARGETS.stepMs)}), ` +
        `Reverse Continue to the start ${d.reverseContinueMs} ms, heap held by the open session ${d.heapMb} MB`,
    );
    if (!r.ok) process.exitCode = 1;
  }
}
