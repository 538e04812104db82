/**
 * The sandbox as the replay tests use it: started, its scenarios' recorded executions read from the opcode endpoint
 * while it is on, then the endpoint switched off (as on public networks) for the replays; and the comparison of a
 * replay's step trace with a recorded one.
 */
import * as assert from 'assert';
import { type Sandbox, startSandbox } from '../../sandbox/src/server';
import { HttpClient } from '../../src/api/http';
import { MirrorClient } from '../../src/api/mirror';
import type { Opcode, OpcodesResponse } from '../../src/api/mirrorTypes';

export interface Notable {
  transactionId: string;
  timestamp: string;
  result: string;
  actions: number;
}

export interface ReplaySandbox {
  sb: Sandbox;
  http: HttpClient;
  mirror: MirrorClient;
  notable: Record<string, Notable>;
  /** By scenario key: the execution's opcode log, as the endpoint gave it. */
  recorded: Map<string, OpcodesResponse>;
}

export async function replaySandbox(keys: readonly string[]): Promise<ReplaySandbox> {
  const sb = await startSandbox({ port: 0 });
  const http = new HttpClient({ tries: 1, backoffBaseMs: 1 });
  const mirror = new MirrorClient(sb.url, http);
  const health = (await (await fetch(`${sb.url}/__sandbox/health`)).json()) as {
    notable: { inspector: Record<string, Notable> };
  };
  const notable = health.notable.inspector;
  const recorded = new Map<string, OpcodesResponse>();
  for (const key of keys) {
    const a = await mirror.contractOpcodes(notable[key].transactionId);
    assert.strictEqual(a.kind, 'trace', `${key}: the sandbox traces it`);
    if (a.kind === 'trace') recorded.set(key, a.value);
  }
  sb.setOpcodes(false);
  return { sb, http, mirror, notable, recorded };
}

/** What the placement code reads of an entry (stack, memory and storage are not compared: neither side has them). */
export const shape = (o: Opcode): string => `${o.depth}|${o.op}|${o.pc}|${o.gas}|${o.gas_cost}|${o.reason}`;

/** Asserts a replay's step trace is the recorded one, entry for entry; else says the first step that differs. */
export function assertSameTrace(key: string, mine: readonly Opcode[], theirs: readonly Opcode[]): void {
  const a = mine.map(shape);
  const b = theirs.map(shape);
  const firstDiff = a.findIndex((s, i) => s !== b[i]);
  assert.strictEqual(
    firstDiff === -1 && a.length === b.length,
    true,
    `${key}: step ${firstDiff}: ${a[firstDiff]} vs ${b[firstDiff]} (${a.length} / ${b.length} steps)`,
  );
  assert.ok(a.length > 0, `${key}: steps`);
}
