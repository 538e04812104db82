#!/usr/bin/env node
// Debugger benchmark: a 20,000-step trace of a real execution from its arrival to the first stop (target ≤ 300 ms),
// each step and step back (target ≤ 20 ms), a Reverse Continue across the whole trace, and the model's memory.
//   node test/bench/debug.mjs          prints the numbers against the targets, exit 1 if one is missed
//   node test/bench/debug.mjs --json   prints them as JSON, exit 0 unless it crashed
//
// The trace: Vault.spin run out of gas in its loop (the inspector's contracts in the sandbox's EVM, logged as the
// mirror node's /opcodes answer with stack, memory and storage), with the smallest gas limit (in steps of 1,000)
// whose log has at least 20,000 entries. Timed in this process: the first run (cold), then the median of 15.
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
  return {
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
      trace.count >= TARGETS.steps &&
      median(stops) <= TARGETS.firstStopMs &&
      stepMs <= TARGETS.stepMs &&
      backMs <= TARGETS.stepMs,
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
    if (!r.ok) process.exitCode = 1;
  }
}
