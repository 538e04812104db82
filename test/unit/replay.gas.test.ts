/**
 * Hedera's gas schedule in the check of a replay (src/api/replay/check.ts gasClose): a factory that uses transient
 * storage and CREATEs a contract runs on the sandbox's EVM (Ethereum's Cancun schedule, Hedera's today); its record
 * then says what Hedera's older schedule charged (no code deposit, no EIP-3860 init code words, free TLOAD / TSTORE).
 * The replay, on today's schedule, matches either record, and nothing else: a gas difference those do not explain is
 * a divergence, said with both figures.
 */
import * as assert from 'assert';
import { EvmChain } from '../../sandbox/src/evm';
import { HttpClient } from '../../src/api/http';
import { MirrorClient } from '../../src/api/mirror';
import type { ContractAction } from '../../src/api/mirrorTypes';
import { type ReplayInput, type Replayed, checkReplay, replayRecord } from '../../src/api/replay';
import { type ChainMirror, type ChainParty, chainMirror, recordOf } from './replayChain';

/** The child: its init code returns a 19-byte runtime. */
const CHILD_INIT = '601380600b6000396000f3' + '4360003590034080600055600052602060' + '00f3';
/** The factory's runtime: TSTORE(0, 1), TLOAD(0), copy the child's init code (30 bytes at 31), CREATE it, return the address. */
const FACTORY = `600160005d60005c50601e601f600039601e60006000f060005260206000f3${CHILD_INIT}`;
const FACTORY_INIT = `0x603d80600b6000396000f3${FACTORY}`;
const SENDER: ChainParty = { address: '0x00000000000000000000000000000000000003ea', entityId: '0.0.1002' };
const TIMESTAMP = '1700000000.000000001';
const DEPOSIT = 200n * 19n;
const INITCODE = 2n; // one word of init code
const TRANSIENT = 200n; // a TSTORE and a TLOAD, 100 each

let chain: EvmChain;
let factory: ChainParty;
let mirror: ChainMirror;
let client: HttpClient;
let recorded: ReplayInput;

/** The record with `less` taken off the gas used of the action at `index` (and its callers'). */
function olderRecord(less: (a: ContractAction) => bigint): ReplayInput {
  const actions = recorded.actions.map((a) => ({ ...a, gas_used: Number(BigInt(a.gas_used as number) - less(a)) }));
  return { ...recorded, actions };
}

async function replayOf(input: ReplayInput): Promise<Replayed> {
  return replayRecord(new MirrorClient(mirror.url, client), client, input);
}

describe("replay: Hedera's gas schedule where it differs from Ethereum's", function () {
  this.timeout(60_000);

  before(async () => {
    client = new HttpClient({ tries: 1, backoffBaseMs: 1 });
    chain = await EvmChain.create();
    await chain.addAccount({ ...SENDER, balance: 10n ** 12n });
    factory = { address: await chain.deploy(SENDER.address, FACTORY_INIT), entityId: '0.0.1003', contract: true };
    chain.setEntity(factory.address, factory.entityId);
    const ex = await chain.call({
      from: SENDER.address,
      to: factory.address,
      data: '0x',
      gas: 300_000,
      timestamp: TIMESTAMP,
    });
    assert.strictEqual(ex.result, 'SUCCESS');
    assert.deepStrictEqual(
      ex.actions.map((a) => a.call_operation_type),
      ['CALL', 'CREATE'],
    );
    recorded = recordOf(ex, { from: SENDER.address, to: factory, data: '0x', gas: 300_000, timestamp: TIMESTAMP });
    mirror = await chainMirror(chain, [SENDER, factory]);
  });

  after(async () => {
    await mirror?.close();
  });

  it("today's schedule (Ethereum's): the replay matches, and knows what the older one did not charge", async () => {
    const r = await replayOf(recorded);
    assert.strictEqual(checkReplay(r.execution, recorded.record, recorded.actions, false).matches, true);
    assert.deepStrictEqual(r.execution.olderSchedule, [
      { deposit: DEPOSIT, initcode: INITCODE, transient: TRANSIENT },
      { deposit: DEPOSIT, initcode: 0n, transient: 0n },
    ]);
  });

  it('a record of the older schedule (no code deposit, no init code words, free transient storage): it matches', async () => {
    const older = olderRecord((a) => (a.call_operation_type === 'CREATE' ? DEPOSIT : DEPOSIT + INITCODE + TRANSIENT));
    const r = await replayOf(older);
    const verdict = checkReplay(r.execution, older.record, older.actions, false);
    assert.strictEqual(verdict.matches, true, verdict.summary);
  });

  it('a record with only the code deposit waived: it matches', async () => {
    const older = olderRecord(() => DEPOSIT);
    const r = await replayOf(older);
    assert.strictEqual(checkReplay(r.execution, older.record, older.actions, false).matches, true);
  });

  it('a gas difference the schedules do not explain: the first call with it is named, with both figures', async () => {
    const off = olderRecord((a) => (a.call_operation_type === 'CREATE' ? DEPOSIT + 1500n : 0n));
    const r = await replayOf(off);
    const verdict = checkReplay(r.execution, off.record, off.actions, false);
    assert.strictEqual(verdict.matches, false);
    const create = recorded.actions[1];
    assert.ok(
      verdict.summary.includes(
        `used ${String(create.gas_used)} gas in the replay, ${Number(BigInt(create.gas_used as number) - DEPOSIT - 1500n)} in the record`,
      ),
      verdict.summary,
    );
  });
});
