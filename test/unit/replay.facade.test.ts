/**
 * Replay of calls made straight to an HTS token's own address (HIP-218's ERC-20 facade, src/api/replay/facade), against
 * the sandbox over real HTTP with the opcode endpoint off: TokenPayer STATICCALLs the token's `balanceOf` and CALLs
 * its `transfer`; Hedera's redirect code at the token's address DELEGATECALLs the token service 0x167, which the
 * replay answers from the record. The replay's trace is the recorded execution's, step for step, and it matches the
 * record (N of N calls); a recorded facade answer that differs, a call the record lacks and a DELEGATECALL to a token
 * are named divergences.
 */
import * as assert from 'assert';
import type { Sandbox } from '../../sandbox/src/server';
import type { HttpClient } from '../../src/api/http';
import { MirrorClient } from '../../src/api/mirror';
import type { ContractAction, OpcodesResponse } from '../../src/api/mirrorTypes';
import compiled from '../../sandbox/src/compiled/inspector.json';
import { EvmChain } from '../../sandbox/src/evm';
import { checkReplay, readRecord, replayRecord, replayTransaction } from '../../src/api/replay';
import { facadesOfRecord, redirectedToken, tokenRedirectCode } from '../../src/api/replay/facade';
import { type ChainParty, chainMirror, recordOf } from './replayChain';
import { type Notable, assertSameTrace, replaySandbox } from './replaySandbox';

const KEYS = ['inspectorTokenFacade', 'inspectorTokenFacadeRevert'] as const;
const TOKEN = '0x0000000000000000000000000000000000001b5c'; // 0.0.7004

describe('replay: calls to a token facade (HIP-218) answered from the record (src/api/replay/facade)', function () {
  this.timeout(60_000);
  let sb: Sandbox;
  let mirror: MirrorClient;
  let http: HttpClient;
  let notable: Record<string, Notable>;
  let recorded: Map<string, OpcodesResponse>;

  before(async () => {
    ({ sb, http, mirror, notable, recorded } = await replaySandbox(KEYS));
  });

  after(async () => {
    await sb?.close();
  });

  it('the redirect code is the template Hedera instantiates for the token', () => {
    const code = tokenRedirectCode(TOKEN);
    assert.ok(code.includes(`610167905077618dc65e${TOKEN.slice(2)}600052`), code);
    assert.strictEqual(code.length, 2 * 147);
    assert.strictEqual(redirectedToken(`0x618dc65e${TOKEN.slice(2)}70a08231`), TOKEN);
    assert.strictEqual(redirectedToken('0x70a08231'), null);
  });

  it('the record shows each facade call as Hedera records it: the call to the token, then its DELEGATECALL to 0x167', async () => {
    const { actions } = await readRecord(mirror, notable.inspectorTokenFacade.transactionId);
    assert.deepStrictEqual(
      actions.map((a) => `${a.call_depth} ${a.call_operation_type} ${a.call_type} ${a.caller}>${a.recipient} ${a.to}`),
      [
        '0 CALL CALL 0.0.7006>0.0.7013 0x0000000000000000000000000000000000001b65',
        `1 STATICCALL CALL 0.0.7013>0.0.7004 ${TOKEN}`,
        '2 DELEGATECALL PRECOMPILE 0.0.7004>0.0.359 0x0000000000000000000000000000000000000167',
        `1 CALL CALL 0.0.7013>0.0.7004 ${TOKEN}`,
        '2 DELEGATECALL PRECOMPILE 0.0.7004>0.0.359 0x0000000000000000000000000000000000000167',
      ],
    );
    assert.strictEqual(actions[1].recipient_type, 'CONTRACT');
    assert.ok(String(actions[2].input).startsWith(`0x618dc65e${TOKEN.slice(2)}70a08231`));
    assert.strictEqual(actions[1].result_data, actions[2].result_data);
    assert.deepStrictEqual([...facadesOfRecord(actions)], [[TOKEN, '0.0.7004']]);
  });

  for (const key of KEYS) {
    it(`${key}: the replay's trace is the recorded execution's, and it matches the record (N of N calls)`, async () => {
      sb.clearRequests();
      const r = await replayTransaction(mirror, http, notable[key].transactionId);
      assertSameTrace(key, r.execution.opcodes.opcodes, (recorded.get(key) as OpcodesResponse).opcodes);
      // the redirect code ran at the token's address: its DELEGATECALL is in the trace
      assert.ok(r.execution.opcodes.opcodes.some((o) => o.op === 'DELEGATECALL'));
      const verdict = checkReplay(r.execution, r.input.record, r.input.actions, r.input.partial);
      assert.strictEqual(verdict.matches, true, verdict.summary);
      assert.strictEqual(verdict.calls, notable[key].actions);
      assert.ok(verdict.summary.includes(`(${verdict.calls} of ${verdict.calls} calls)`), verdict.summary);
      assert.strictEqual(r.execution.success, notable[key].result === 'SUCCESS');
      // the token is known from the record: neither its account nor a contract is asked for
      const urls = sb.requests().map((q) => q.url);
      assert.ok(!urls.some((u) => /\/(accounts|contracts|tokens)\/(0\.0\.7004|0x0+1b5c)\b/i.test(u)), urls.join('\n'));
    });
  }

  it('the failed transfer: the token reverted with the response code, and the payer passed it on', async () => {
    const r = await replayTransaction(mirror, http, notable.inspectorTokenFacadeRevert.transactionId);
    const transfer = r.execution.actions[3];
    assert.strictEqual(transfer.result_data_type, 'REVERT_REASON');
    assert.strictEqual(
      Buffer.from(String(transfer.result_data).slice(2), 'hex').toString(),
      'INSUFFICIENT_TOKEN_BALANCE',
    );
    assert.strictEqual(r.execution.output, transfer.result_data);
  });

  it('a recorded facade answer that differs: the divergence is named at that call, nothing after it exact', async () => {
    const input = await readRecord(mirror, notable.inspectorTokenFacade.transactionId);
    // the record says the token service answered balanceOf with another balance (the call to 0x167, action 2)
    const answer = input.actions[2];
    answer.result_data = `0x${'0'.repeat(63)}7`;
    const r = await replayRecord(mirror, http, input);
    const verdict = checkReplay(r.execution, input.record, input.actions, false);
    assert.strictEqual(verdict.matches, false);
    assert.strictEqual(verdict.divergence?.action, 1);
    assert.match(verdict.summary, /call 2 \(STATICCALL to 0\.0\.7004\): its result data differs/);
    assert.strictEqual(verdict.exactSteps, r.execution.actionStart[1]);
  });

  it('a facade call the record does not have: named, never answered by a guess', async () => {
    const input = await readRecord(mirror, notable.inspectorTokenFacade.transactionId);
    // the record without the transfer's frames: the replay's transfer reaches 0x167 with no recorded answer left
    input.actions = input.actions.slice(0, 4);
    const r = await replayRecord(mirror, http, input);
    const verdict = checkReplay(r.execution, input.record, input.actions, false);
    assert.strictEqual(verdict.matches, false);
    assert.match(verdict.summary, /where the record has no more system contract calls; its answer is unknown/);
  });

  it('the system contract actions of a record that says SYSTEM (as today’s consensus nodes record them) match', async () => {
    const input = await readRecord(mirror, notable.inspectorTokenFacade.transactionId);
    for (const a of input.actions) if (a.call_type === 'PRECOMPILE') (a as ContractAction).call_type = 'SYSTEM';
    const r = await replayRecord(mirror, http, input);
    const verdict = checkReplay(r.execution, input.record, input.actions, false);
    assert.strictEqual(verdict.matches, true, verdict.summary);
  });

  it("a DELEGATECALL to a token's address (a proxy whose implementation is a token): a named divergence", async () => {
    // an ERC-1967 proxy (the inspector's VaultProxy) deployed with the token as its implementation: its fallback
    // DELEGATECALLs the token's address, whose redirect code then runs in the proxy's context
    const sender: ChainParty = { address: '0x00000000000000000000000000000000000003ea', entityId: '0.0.1002' };
    const chain = await EvmChain.create();
    await chain.addAccount({ ...sender, balance: 10n ** 12n });
    await chain.addToken(TOKEN, '0.0.7004');
    chain.system.setTokenBalance(TOKEN, sender.address, 5n);
    const proxyCode = compiled.contracts.find((c) => c.name === 'VaultProxy')?.bytecode as string;
    const proxy: ChainParty = {
      address: await chain.deploy(sender.address, proxyCode, { args: `0x${TOKEN.slice(2).padStart(64, '0')}` }),
      entityId: '0.0.1003',
      contract: true,
    };
    chain.setEntity(proxy.address, proxy.entityId);
    const data = `0x70a08231${sender.address.slice(2).padStart(64, '0')}`;
    const call = { from: sender.address, to: proxy, data, gas: 200_000, timestamp: '1700000000.000000001' };
    const ex = await chain.call({ ...call, to: proxy.address });
    assert.deepStrictEqual(
      ex.actions.map((a) => `${a.call_operation_type} ${a.to}`),
      [`CALL ${proxy.address}`, `DELEGATECALL ${TOKEN}`, 'DELEGATECALL 0x0000000000000000000000000000000000000167'],
    );
    const input = recordOf(ex, call);
    const m = await chainMirror(chain, [sender, proxy]);
    try {
      const r = await replayRecord(new MirrorClient(m.url, http), http, input);
      const verdict = checkReplay(r.execution, input.record, input.actions, false);
      assert.strictEqual(verdict.matches, false);
      assert.strictEqual(verdict.divergence?.action, 1);
      assert.match(verdict.summary, /made a DELEGATECALL to the token 0\.0\.7004's own address/);
    } finally {
      await m.close();
    }
  });
});
