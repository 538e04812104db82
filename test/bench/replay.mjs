#!/usr/bin/env node
// Replay benchmark (src/api/replay): a past transaction re-executed from the mirror node's record and state, against
// the sandbox in its own process (out/sandbox/cli.js, the opcode endpoint off).
//   node test/bench/replay.mjs          prints the figures against the targets, exit 1 if one is missed
//   node test/bench/replay.mjs --json   prints them as JSON, exit 0 unless it crashed
//
// 1. The largest transaction the sandbox executes on its EVM (the inspector's deep revert): CPU time of the replay
//    (record read, state fetched, run, checked), requests made against the distinct accounts and slots it touched,
//    bytes fetched; it must match the record.
// 2. A 20,000-step run: the Vault's real code and state at the deep revert's time, called with spin(n) (a storage
//    write per round) for the smallest n from 400 in steps of 25 whose trace has at least 20,000 steps: CPU time of the run
//    (target under 1 s), requests, bytes.
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { bundle, startSandbox } from './lib.mjs';

export const TARGETS = { steps: 20_000, cpuMs: 1000, extraRequests: 5 };
const json = process.argv.includes('--json');

export async function measureReplay() {
  const m = await bundle('replay', [
    "export { replayTransaction, replayRecord, readRecord, checkReplay } from './src/api/replay';",
    "export { MirrorClient } from './src/api/mirror';",
    "export { HttpClient } from './src/api/http';",
  ]);
  const sb = await startSandbox(['--opcodes=off']);
  try {
    const health = await (await fetch(`${sb.url}/__sandbox/health`)).json();
    const deep = health.notable.inspector.inspectorDeepRevert;
    const http = new m.HttpClient({ tries: 1 });
    const mirror = new m.MirrorClient(sb.url, http);

    // 1. the largest executed transaction, end to end (a warm-up run first: the EVM's module load is not the replay)
    await m.replayTransaction(mirror, http, deep.transactionId);
    const cpu0 = process.cpuUsage();
    const r = await m.replayTransaction(mirror, http, deep.transactionId);
    const cpu = process.cpuUsage(cpu0);
    const verdict = m.checkReplay(r.execution, r.input.record, r.input.actions, r.input.partial);
    const accounts = new Set(
      r.execution.actions
        .flatMap((a) => [a.caller, a.recipient])
        .filter((x) => x && !/^0\.0\.36[0-2]$|^0\.0\.359$/.test(x)),
    );
    const largest = {
      transaction: deep.transactionId,
      steps: r.stats.steps,
      calls: r.execution.actions.length,
      cpuMs: Math.round((cpu.user + cpu.system) / 100) / 10,
      requests: r.stats.requests,
      distinctAccounts: accounts.size,
      distinctSlots: r.execution.stateChanges.length,
      bytes: r.stats.bytes,
      verdict: verdict.summary,
    };

    // 2. a 20,000-step run on the same state: the deep revert's record, the call replaced by Vault.spin(n)
    const input = await m.readRecord(mirror, deep.transactionId);
    let big;
    for (let n = 400; n <= 5000; n += 25) {
      const data = `0xa5b6ea8f${n.toString(16).padStart(64, '0')}`;
      const top = { ...input.actions[0], input: data, gas: 14_000_000 };
      const record = { ...input.record, function_parameters: data, state_changes: [], logs: [] };
      const c0 = process.cpuUsage();
      const run = await m.replayRecord(mirror, http, { record, partial: false, actions: [top] }, { maxSteps: 200_000 });
      const c = process.cpuUsage(c0);
      big = {
        rounds: n,
        steps: run.stats.steps,
        cpuMs: Math.round((c.user + c.system) / 100) / 10,
        requests: run.stats.requests,
        slotRequests: run.stats.slotRequests,
        bytes: run.stats.bytes,
      };
      if (run.stats.steps >= TARGETS.steps) break;
    }
    return { largest, big, targets: TARGETS };
  } finally {
    sb.stop();
  }
}

const isMain = process.argv[1] && path.resolve(process.argv[1]) === fileURLToPath(import.meta.url);
if (isMain) {
  const res = await measureReplay();
  if (json) {
    console.log(JSON.stringify(res));
  } else {
    const { largest: l, big: b } = res;
    const okRequests = l.requests <= l.distinctAccounts + l.distinctSlots + TARGETS.extraRequests;
    const okCpu = b.steps >= TARGETS.steps && b.cpuMs < TARGETS.cpuMs;
    console.log(`== Replay (src/api/replay) ==`);
    console.log(
      `largest sandbox execution ${l.transaction}: ${l.steps} steps, ${l.calls} calls, CPU ${l.cpuMs} ms (record, state, run, check), ` +
        `${l.requests} requests for ${l.distinctAccounts} accounts + ${l.distinctSlots} slots touched (target <= +${TARGETS.extraRequests}) ${okRequests ? 'OK' : 'MISSED'}, ${l.bytes} bytes\n  ${l.verdict}`,
    );
    console.log(
      `${b.steps}-step run (Vault.spin(${b.rounds}) on the same state): CPU ${b.cpuMs} ms (target < ${TARGETS.cpuMs} ms) ${okCpu ? 'OK' : 'MISSED'}, ` +
        `${b.requests} requests (${b.slotRequests} slots), ${b.bytes} bytes`,
    );
    process.exit(okRequests && okCpu ? 0 : 1);
  }
}
