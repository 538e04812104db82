/**
 * BLOCKHASH in a replay (src/api/replay): a contract stores and returns `blockhash(block.number - k)`. It runs on the
 * sandbox's EVM in a scenario's block, with the block hashes the sandbox's mirror node serves; the replay reads the
 * hashes from `/blocks/{number}` (through a mirror node that serves the call's accounts and contract and forwards
 * `/blocks/` to the sandbox) and must match the record; a wrong hash served makes it diverge and say so. Hedera's
 * node answers the 256 blocks before the current one with the first 32 bytes of their 48-byte hash, zero otherwise.
 */
import * as assert from 'assert';
import { type Sandbox, startSandbox } from '../../sandbox/src/server';
import { EvmChain, type Execution } from '../../sandbox/src/evm';
import { HttpClient } from '../../src/api/http';
import { MirrorClient } from '../../src/api/mirror';
import { type ReplayInput, checkReplay, replayRecord } from '../../src/api/replay';
import { type ChainMirror, chainMirror, recordOf } from './replayChain';

/** Runtime: NUMBER - calldata[0] → BLOCKHASH → SSTORE slot 0 → return it. */
const RUNTIME = '4360003590034080600055600052602060' + '00f3';
/** Init code: copy the runtime (19 bytes, from offset 11) to memory and return it. */
const INIT = `0x601380600b6000396000f3${RUNTIME}`;
const SENDER = { address: '0x00000000000000000000000000000000000003ea', entityId: '0.0.1002' };
const CONTRACT_ENTITY = '0.0.1003';

let sb: Sandbox;
let client: HttpClient;
let block: { number: bigint; from: string };
let contract: string;
let chain: EvmChain;
/** The hashes the sandbox's mirror node serves, as the sandbox's EVM reads them. */
const served = new Map<bigint, string>();

async function blockJson(n: bigint): Promise<{ status: number; body: Record<string, unknown> }> {
  const r = await fetch(`${sb.url}/api/v1/blocks/${n}`);
  return { status: r.status, body: (await r.json()) as Record<string, unknown> };
}

/** A mirror node for the call: its sender and contract, and the sandbox's blocks (or `override`'s answers). */
function mirrorFor(
  override: (n: bigint) => Record<string, unknown> | null | undefined = () => undefined,
): Promise<ChainMirror> {
  return chainMirror(chain, [SENDER, { address: contract, entityId: CONTRACT_ENTITY, contract: true }], async (n) => {
    const o = override(n);
    if (o === null) return { status: 404, body: { _status: { messages: [{ message: 'Not found' }] } } };
    return o ? { status: 200, body: o } : blockJson(n);
  });
}

const word = (k: number): string => `0x${k.toString(16).padStart(64, '0')}`;

/** Runs `blockhash(block.number - k)` on the sandbox's EVM, in the scenario's block, and its record. */
async function recorded(k: number): Promise<{ ex: Execution; input: ReplayInput }> {
  const data = word(k);
  const ex = await chain.call({
    from: SENDER.address,
    to: contract,
    data,
    gas: 100_000,
    timestamp: block.from,
    block: { number: block.number, timestamp: BigInt(block.from.split('.')[0]) },
  });
  const input = recordOf(ex, {
    from: SENDER.address,
    to: { address: contract, entityId: CONTRACT_ENTITY },
    data,
    gas: 100_000,
    timestamp: block.from,
    block: { number: block.number, hash: served.get(block.number) ?? '' },
  });
  return { ex, input };
}

describe('replay: BLOCKHASH answered from the mirror node, as Hedera answers it', function () {
  this.timeout(60_000);

  before(async () => {
    sb = await startSandbox({ port: 0 });
    client = new HttpClient({ tries: 1, backoffBaseMs: 1 });
    const health = (await (await fetch(`${sb.url}/__sandbox/health`)).json()) as {
      notable: { inspector: Record<string, { transactionId: string }> };
    };
    const rec = (await (
      await fetch(`${sb.url}/api/v1/contracts/results/${health.notable.inspector.inspectorDeepRevert.transactionId}`)
    ).json()) as { block_number: number; timestamp: string };
    const n = BigInt(rec.block_number);
    for (const k of [0n, 1n, 2n, 256n, 257n]) {
      const b = await blockJson(n - k);
      if (b.status === 200) served.set(n - k, (b.body.hash as string).slice(2));
    }
    block = { number: n, from: ((await blockJson(n)).body.timestamp as { from: string }).from };
    chain = await EvmChain.create({ blockHash: (m) => served.get(m) ?? null });
    await chain.addAccount({ ...SENDER, balance: 10n ** 12n });
    contract = await chain.deploy(SENDER.address, INIT, { entityId: CONTRACT_ENTITY });
  });

  after(async () => {
    await sb?.close();
  });

  it("the sandbox serves the 256 blocks before a scenario's block, linked by previous_hash", async () => {
    const n = block.number;
    assert.ok(served.has(n - 1n) && served.has(n - 256n), 'the blocks a BLOCKHASH can read are served');
    assert.strictEqual((await blockJson(n)).body.previous_hash, `0x${served.get(n - 1n)}`);
    const before = await blockJson(n - 1n);
    assert.strictEqual(before.body.count, 0);
    assert.strictEqual(before.body.number, Number(n - 1n));
    assert.strictEqual(before.body.previous_hash, `0x${served.get(n - 2n)}`);
    const t = before.body.timestamp as { from: string; to: string };
    assert.ok(t.to < block.from, `${t.to} < ${block.from}`);
    assert.match(before.body.hash as string, /^0x[0-9a-f]{96}$/);
  });

  it('the sandbox EVM: the last block hash is the first 32 bytes of the served one; the current block, zero', async () => {
    const last = await recorded(1);
    assert.strictEqual(last.ex.returnValue, `0x${(served.get(block.number - 1n) as string).slice(0, 64)}`);
    assert.strictEqual(
      (await recorded(256)).ex.returnValue,
      `0x${(served.get(block.number - 256n) as string).slice(0, 64)}`,
    );
    assert.strictEqual((await recorded(0)).ex.returnValue, word(0));
    assert.strictEqual((await recorded(257)).ex.returnValue, word(0));
  });

  for (const k of [1, 256]) {
    it(`blockhash(block.number - ${k}): replayed from /blocks/{number}, read once, and it matches the record`, async () => {
      const { ex, input } = await recorded(k);
      const m = await mirrorFor();
      try {
        const r = await replayRecord(new MirrorClient(m.url, client), client, input);
        const verdict = checkReplay(r.execution, input.record, input.actions, false);
        assert.strictEqual(verdict.matches, true, verdict.summary);
        assert.deepStrictEqual(
          r.execution.opcodes.opcodes.map((o) => `${o.op}|${o.pc}|${o.gas}`),
          ex.opcodes.opcodes.map((o) => `${o.op}|${o.pc}|${o.gas}`),
        );
        const target = block.number - BigInt(k);
        assert.deepStrictEqual(
          r.execution.blockHashes.map((b) => b.number),
          [target],
        );
        assert.strictEqual(m.urls.filter((u) => u === `/api/v1/blocks/${target}`).length, 1, m.urls.join('\n'));
        assert.strictEqual(r.stats.blockRequests, 2, 'its own block and the one read');
      } finally {
        await m.close();
      }
    });
  }

  it('blockhash of the current block and of one 257 back: zero, no request, as on Hedera', async () => {
    for (const k of [0, 257]) {
      const { input } = await recorded(k);
      const m = await mirrorFor();
      try {
        const r = await replayRecord(new MirrorClient(m.url, client), client, input);
        assert.strictEqual(checkReplay(r.execution, input.record, input.actions, false).matches, true);
        assert.strictEqual(r.execution.output, word(0));
        assert.deepStrictEqual(r.execution.blockHashes, []);
        assert.strictEqual(m.urls.filter((u) => u.startsWith('/api/v1/blocks/')).length, 1, m.urls.join('\n'));
      } finally {
        await m.close();
      }
    }
  });

  it('a wrong hash served for the block read: the replay diverges, and says which block hash it read', async () => {
    const { input } = await recorded(1);
    const target = block.number - 1n;
    const m = await mirrorFor((n) =>
      n === target
        ? { number: Number(n), hash: `0x${'ab'.repeat(48)}`, timestamp: { from: block.from, to: block.from } }
        : undefined,
    );
    try {
      const r = await replayRecord(new MirrorClient(m.url, client), client, input);
      const verdict = checkReplay(r.execution, input.record, input.actions, false);
      assert.strictEqual(verdict.matches, false);
      assert.match(verdict.summary, /diverges/);
      assert.ok(verdict.summary.includes(`hash of block ${target}`), verdict.summary);
    } finally {
      await m.close();
    }
  });

  it('a block the mirror node does not have: said, and the replay is not exact from that read on', async () => {
    const { input } = await recorded(2);
    const target = block.number - 2n;
    const m = await mirrorFor((n) => (n === target ? null : undefined));
    try {
      const r = await replayRecord(new MirrorClient(m.url, client), client, input);
      const verdict = checkReplay(r.execution, input.record, input.actions, false);
      assert.strictEqual(verdict.matches, false);
      assert.ok(
        verdict.summary.includes(`block ${target} (BLOCKHASH), which the mirror node does not have`),
        verdict.summary,
      );
      assert.ok(verdict.exactSteps < r.execution.opcodes.opcodes.length);
    } finally {
      await m.close();
    }
  });

  it('a hash that is not a block hash (fewer than 32 bytes): a sentence, never a guess', async () => {
    const { input } = await recorded(1);
    const target = block.number - 1n;
    const m = await mirrorFor((n) =>
      n === target ? { number: Number(n), hash: '0xabcd', timestamp: { from: block.from, to: block.from } } : undefined,
    );
    try {
      await assert.rejects(
        replayRecord(new MirrorClient(m.url, client), client, input),
        new RegExp(`block ${target} has no hash or no timestamp`),
      );
    } finally {
      await m.close();
    }
  });
});
