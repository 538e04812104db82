#!/usr/bin/env node
// Revert to source benchmark: mapping a 20,000-opcode trace to the Solidity call stack (target: under 50 ms
// after the answer arrives).
//   node test/bench/revert-map.mjs          prints the numbers against the target, exit 1 if it is missed
//   node test/bench/revert-map.mjs --json   prints them as JSON (for test/bench/run.mjs), exit 0 unless it crashed
//   import { measureRevertMap } from './revert-map.mjs'  -> the same object
//
// The traces come from real executions, not hand-written arrays: the inspector's contracts
// (sandbox/src/compiled/inspector.json) deployed in the sandbox's EVM (sandbox/src/evm, @ethereumjs/evm), logged as
// the mirror node's /opcodes answer shapes it.
//   loop:   Vault.spin run out of gas in its loop, with the smallest gas limit (in steps of 1,000) whose log has at
//           least 20,000 entries: one frame.
//   nested: a deposit's real frames repeated: the Vault's entries up to its CALL of Ledger.record, that CALL and the
//           Ledger's frame of a successful deposit again and again (with their actions), then the CALL, Ledger's
//           revert ("Ledger: amount too large") and the Vault's bubbling revert of a failed one: 20,000+ entries,
//           ~70 frames, the failure in the last.
// Measured in this process: the first run (cold), then after 5 warm-up runs the median of 31:
//   callStackMs  callStackOf(response, actions): the failing frame and the call sites
//   locateMs     the same plus locateCallStack with the committed build info (the Solidity lines, internal calls)
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { bundle, median, root, round } from './lib.mjs';

export const TARGETS = { opcodes: 20_000, mapMs: 50 };
const RUNS = 31;
const WARMUP = 5;

/** Times mapping one trace: the first run, then the median and max of RUNS after WARMUP. */
function time(callStackOf, locateCallStack, response, actions, resolve) {
  const callStackTimes = [];
  const locateTimes = [];
  let first;
  let stack;
  let located;
  for (let i = 0; i < 1 + WARMUP + RUNS; i++) {
    const a = performance.now();
    stack = callStackOf(response, actions);
    const b = performance.now();
    located = locateCallStack(stack, response.opcodes, resolve);
    const c = performance.now();
    if (i === 0) first = { callStackMs: round(b - a), locateMs: round(c - a) };
    if (i > WARMUP) {
      callStackTimes.push(b - a);
      locateTimes.push(c - a);
    }
  }
  return {
    opcodes: response.opcodes.length,
    frames: stack.frameCount,
    firstCallStackMs: first.callStackMs,
    firstLocateMs: first.locateMs,
    callStackMs: round(median(callStackTimes)),
    callStackMaxMs: round(Math.max(...callStackTimes)),
    locateMs: round(median(locateTimes)),
    locateMaxMs: round(Math.max(...locateTimes)),
    stack: located.map(
      (l) =>
        `${l.frame.kind} ${l.location ? `${l.location.sourceName}:${l.location.line} ${l.location.text}` : l.problem}`,
    ),
  };
}

/** The entries of the frame entered at `at` (a CALL at depth d): the CALL and every deeper entry after it. */
function callBlock(ops, at) {
  const d = ops[at].depth;
  let end = at + 1;
  while (end < ops.length && ops[end].depth > d) end++;
  return ops.slice(at, end);
}

export async function measureRevertMap() {
  const { callStackOf, locateCallStack, createInspectorChain } = await bundle('revert-map', [
    "export { callStackOf } from './src/api/source/callStack';",
    "export { locateCallStack } from './src/api/source/locate';",
    "export { createInspectorChain } from './sandbox/src/evm';",
  ]);
  const compiled = JSON.parse(fs.readFileSync(path.join(root, 'sandbox/src/compiled/inspector.json'), 'utf8'));
  const build = JSON.parse(
    fs.readFileSync(path.join(root, 'test/workspace/artifacts/build-info', `${compiled.buildInfoId}.json`), 'utf8'),
  );
  const { chain, deployer, contracts } = await createInspectorChain(compiled);
  const vault = contracts.Vault.address;
  const ids = {
    [vault]: 'contracts/inspector/Vault.sol:Vault',
    [contracts.Ledger.address]: 'contracts/inspector/Ledger.sol:Ledger',
  };
  const resolve = (f) => (ids[f.address] ? { build, contract: ids[f.address] } : undefined);
  // as the client has them: parsed from the JSON the server sends
  const wire = (v) => JSON.parse(JSON.stringify(v, (_k, x) => (typeof x === 'bigint' ? Number(x) : x)));

  // loop: spin out of gas
  const spin = `0xa5b6ea8f${(100_000).toString(16).padStart(64, '0')}`;
  let gas = 200_000;
  let ex;
  const t0 = performance.now();
  for (;;) {
    ex = await chain.call({ from: deployer.address, to: vault, data: spin, gas });
    if (ex.opcodes.opcodes.length >= TARGETS.opcodes) break;
    gas += 1_000;
  }
  const executionMs = performance.now() - t0;
  if (ex.result !== 'INSUFFICIENT_GAS') throw new Error(`spin ended with ${ex.result}, not out of gas`);
  const loop = {
    gasLimit: gas,
    executionMs: Math.round(executionMs),
    ...time(callStackOf, locateCallStack, wire(ex.opcodes), wire(ex.actions), resolve),
  };

  // nested: a successful deposit's CALL of Ledger.record repeated, then a failed one's
  const ok = await chain.call({ from: deployer.address, to: vault, data: '0xd0e30db0', value: 10n, gas: 3_000_000 });
  const rich = '0x3c44cdddb6a900fa2b585dd299e03d12fa4293bc';
  await chain.addAccount({ address: rich, entityId: '0.0.7006', balance: 10n ** 26n });
  const bad = await chain.call({ from: rich, to: vault, data: '0xd0e30db0', value: 2n * 10n ** 24n, gas: 3_000_000 });
  const okOps = wire(ok.opcodes.opcodes);
  const badOps = wire(bad.opcodes.opcodes);
  const okCall = okOps.findIndex((o, i) => o.op === 'CALL' && okOps[i + 1]?.depth === 1);
  const badCall = badOps.findIndex((o, i) => o.op === 'CALL' && badOps[i + 1]?.depth === 1);
  const block = callBlock(okOps, okCall);
  const prefix = okOps.slice(0, okCall);
  const tail = badOps.slice(badCall);
  const repeat = Math.ceil((TARGETS.opcodes - prefix.length - tail.length) / block.length);
  const opcodes = [...prefix, ...Array.from({ length: repeat }, () => block).flat(), ...tail];
  const [topAction, okLedger] = wire(ok.actions);
  const badLedger = wire(bad.actions)[1];
  const actions = [
    { ...wire(bad.actions)[0] },
    ...Array.from({ length: repeat }, (_, k) => ({ ...okLedger, index: k + 1 })),
    { ...badLedger, index: repeat + 1 },
  ];
  void topAction;
  const nested = {
    repeatedFrames: repeat,
    ...time(callStackOf, locateCallStack, { ...wire(bad.opcodes), opcodes }, actions, resolve),
  };

  const worst = Math.max(loop.locateMs, nested.locateMs);
  return {
    loop,
    nested,
    runs: RUNS,
    targetMs: TARGETS.mapMs,
    ok:
      loop.opcodes >= TARGETS.opcodes &&
      nested.opcodes >= TARGETS.opcodes &&
      worst < TARGETS.mapMs &&
      loop.stack[0].startsWith('outOfGas contracts/inspector/Vault.sol') &&
      nested.stack[0].startsWith('revert contracts/inspector/Ledger.sol'),
  };
}

if (process.argv[1] && path.resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  const r = await measureRevertMap();
  if (process.argv.includes('--json')) {
    console.log(JSON.stringify(r));
  } else {
    const mark = (ok) => (ok ? 'OK' : 'MISSED');
    for (const [name, t] of [
      ['loop', r.loop],
      ['nested', r.nested],
    ]) {
      const what =
        name === 'loop'
          ? `a real out-of-gas run of Vault.spin (gas limit ${t.gasLimit}, found in ${t.executionMs} ms)`
          : `a deposit's real frames, Ledger.record's repeated ${t.repeatedFrames} times`;
      console.log(
        `${name}: ${t.opcodes} opcodes (target >= ${TARGETS.opcodes}) ${mark(t.opcodes >= TARGETS.opcodes)}, ${t.frames} frames: ${what}`,
      );
      console.log(
        `  call stack: median ${t.callStackMs} ms (max ${t.callStackMaxMs} ms, first run ${t.firstCallStackMs} ms) of ${r.runs} runs`,
      );
      console.log(
        `  call stack + Solidity lines: median ${t.locateMs} ms (max ${t.locateMaxMs} ms, first run ${t.firstLocateMs} ms) (target < ${TARGETS.mapMs} ms) ${mark(t.locateMs < TARGETS.mapMs)}`,
      );
      for (const f of t.stack) console.log(`    ${f}`);
    }
    if (!r.ok) process.exit(1);
  }
}
