/**
 * `POST /api/v1/contracts/call` over real HTTP: executed on the sandbox's EVM against the inspector's compiled Vault
 * and Ledger (state at latest or at a past block), `estimate`, and the real server's validation and error bodies.
 */
import * as assert from 'assert';
import { decodeErrorResult, decodeFunctionResult, encodeFunctionData, type Abi, type Hex } from 'viem';
import compiled from '../src/compiled/inspector.json';
import { parseJson } from '../../src/api/json';
import { type Sandbox, startSandbox } from '../src/server';
import { ALIAS_HELD, ALIAS_SENDER, DEPOSITOR, MOVE_AMOUNT, OWNER } from '../src/mirror/scenarios';

type Obj = Record<string, unknown>;
const C = (compiled as unknown as { contracts: { name: string; address: string; abi: Abi }[] }).contracts;
const VAULT = C.find((c) => c.name === 'Vault') as { address: string; abi: Abi };

interface Answer {
  status: number;
  json: Obj;
  headers: Headers;
}

describe('sandbox: POST /api/v1/contracts/call', function () {
  this.timeout(30_000);
  let sb: Sandbox;
  before(async () => {
    sb = await startSandbox({ port: 0 });
  });
  after(() => sb.close());

  async function post(body: unknown, contentType = 'application/json'): Promise<Answer> {
    const res = await fetch(`${sb.url}/api/v1/contracts/call`, {
      method: 'POST',
      headers: { 'Content-Type': contentType },
      body: typeof body === 'string' ? body : JSON.stringify(body),
    });
    return { status: res.status, json: parseJson(await res.text()) as Obj, headers: res.headers };
  }
  const call = (fn: string, args: unknown[] = [], extra: Obj = {}): Promise<Answer> =>
    post({ to: VAULT.address, data: encodeFunctionData({ abi: VAULT.abi, functionName: fn, args }), ...extra });
  const result = (a: Answer, fn: string): unknown =>
    decodeFunctionResult({ abi: VAULT.abi, functionName: fn, data: a.json.result as Hex });
  const messages = (a: Answer): Obj[] => (a.json._status as { messages: Obj[] }).messages;

  it('reads a view function at latest, and at earliest (before the scenarios)', async () => {
    const latest = await call('feeBps');
    assert.strictEqual(latest.status, 200, JSON.stringify(latest.json));
    assert.strictEqual(result(latest, 'feeBps'), 30n); // the owner's setFee(30)
    const earliest = await call('feeBps', [], { block: 'earliest' });
    assert.strictEqual(result(earliest, 'feeBps'), 25n); // the constructor's
    const name = await call('name');
    assert.match(String(result(name, 'name')), /\S/);
  });

  it('reads at a block number (decimal or hex): the state after the scenarios of that block', async () => {
    const health = (await (await fetch(`${sb.url}/__sandbox/health`)).json()) as Obj;
    const setFee = ((health.notable as Obj).inspector as Record<string, { hash: string }>).inspectorNoActions;
    const res = (await (await fetch(`${sb.url}/api/v1/contracts/results/${setFee.hash}`)).json()) as Obj;
    const block = BigInt(res.block_number as number);
    assert.strictEqual(result(await call('feeBps', [], { block: String(block) }), 'feeBps'), 30n);
    assert.strictEqual(result(await call('feeBps', [], { block: `0x${(block - 1n).toString(16)}` }), 'feeBps'), 25n);
    const far = await call('feeBps', [], { block: '9223372036854775807' });
    assert.strictEqual(far.status, 400);
    assert.deepStrictEqual(messages(far), [{ message: 'Bad Request', detail: 'Unknown block number', data: '' }]);
  });

  it('a revert: 400 CONTRACT_REVERT_EXECUTED, the reason as detail, the revert data', async () => {
    const a = await call('move', [`0x${ALIAS_SENDER.evm}`, MOVE_AMOUNT], { from: DEPOSITOR.evm });
    assert.strictEqual(a.status, 400);
    const [m] = messages(a);
    assert.strictEqual(m.message, 'CONTRACT_REVERT_EXECUTED');
    assert.strictEqual(m.detail, 'Vault: move exceeds balance');
    assert.match(String(m.data), /^0x08c379a0/);
  });

  it('a custom error: empty detail, data decoded by the ABI (every digit)', async () => {
    const a = await call('withdraw', [ALIAS_HELD * 1_000_000_000n], { from: `0x${ALIAS_SENDER.evm}` });
    assert.strictEqual(a.status, 400);
    const [m] = messages(a);
    assert.strictEqual(m.detail, '');
    const e = decodeErrorResult({ abi: VAULT.abi, data: m.data as Hex });
    assert.strictEqual(e.errorName, 'InsufficientBalance');
    assert.ok((e.args as unknown[]).includes(ALIAS_HELD * 1_000_000_000n), String(e.args));
  });

  it('estimate: the least gas that succeeds, as 8 bytes', async () => {
    const a = await call('setFee', [40], { from: OWNER.evm, estimate: true });
    assert.strictEqual(a.status, 200, JSON.stringify(a.json));
    assert.match(String(a.json.result), /^0x[0-9a-f]{16}$/);
    const gas = Number(BigInt(String(a.json.result)));
    assert.ok(gas > 21_000);
    assert.strictEqual((await call('setFee', [40], { from: OWNER.evm, gas })).status, 200);
    assert.strictEqual((await call('setFee', [40], { from: OWNER.evm, gas: gas - 1 })).status, 400);
    // a simulation is not committed
    assert.strictEqual(result(await call('feeBps'), 'feeBps'), 30n);
  });

  it('validation: every field error at once, in the real messages', async () => {
    const a = await post({ to: '0x1234', data: 'zz', from: 'nothex', gas: 100, value: -1 });
    assert.strictEqual(a.status, 400);
    assert.deepStrictEqual(
      messages(a).map((m) => m.detail),
      [
        'data field invalid hexadecimal string',
        'from field invalid hexadecimal string',
        'gas field must be greater than or equal to 21000',
        'to field invalid hexadecimal string',
        'value field must be greater than or equal to 0',
      ],
    );
    assert.ok(messages(a).every((m) => m.message === 'Bad Request' && m.data === ''));
    const gas = await post({ to: VAULT.address, gas: 15_000_001 });
    assert.deepStrictEqual(messages(gas), [
      { message: 'Bad Request', detail: 'gas field must be less than or equal to 15000000', data: '' },
    ]);
    const value = await post({ to: VAULT.address, value: 5 });
    assert.deepStrictEqual(
      messages(value).map((m) => m.detail),
      ['from field must not be empty'],
    );
    const big = await post(`{"to":"${VAULT.address}","value":9223372036854775808}`);
    assert.match(
      String(messages(big)[0].detail),
      /^JSON parse error: Numeric value \(9223372036854775808\) out of range/,
    );
    const json = await post('{"to":');
    assert.strictEqual(json.status, 400);
    assert.match(String(messages(json)[0].detail), /^JSON parse error: /);
    const block = await post({ to: VAULT.address, block: 'yesterday' });
    assert.match(String(messages(block)[0].detail), /Invalid block value: yesterday$/);
  });

  it('415 for a body that is not JSON by its Content-Type', async () => {
    const a = await post({ to: VAULT.address }, 'text/plain');
    assert.strictEqual(a.status, 415);
    assert.deepStrictEqual(messages(a), [
      { message: 'Unsupported Media Type', detail: "Content-Type 'text/plain' is not supported", data: '' },
    ]);
  });

  it('404 for an address with no account or contract', async () => {
    const a = await post({ to: '0x00000000000000000000000000000000deadbeef' });
    assert.strictEqual(a.status, 404);
    assert.strictEqual(messages(a)[0].message, 'Not Found');
  });

  it('501 when switched off, 429 through the fault rules', async () => {
    sb.setContractCall(false);
    try {
      const a = await call('feeBps');
      assert.strictEqual(a.status, 501);
      assert.deepStrictEqual(messages(a), [{ message: 'Not Implemented', detail: '', data: '' }]);
    } finally {
      sb.setContractCall(true);
    }
    sb.addFault({ path: '/api/v1/contracts/call', method: 'POST', fault: { status: 429, retryAfter: '2' } });
    const t = await call('feeBps');
    assert.strictEqual(t.status, 429);
    assert.strictEqual(t.headers.get('retry-after'), '2');
    assert.strictEqual((await call('feeBps')).status, 200);
  });

  it('GET /blocks: by end time and number, desc by default, a full page links on; the real validation messages', async () => {
    const all = (await (await fetch(`${sb.url}/api/v1/blocks?limit=3`)).json()) as {
      blocks: { number: number; timestamp: { to: string } }[];
      links: { next: string | null };
    };
    assert.strictEqual(all.blocks.length, 3);
    assert.ok(all.blocks[0].number > all.blocks[1].number && all.blocks[1].number > all.blocks[2].number);
    assert.strictEqual(all.links.next, `/api/v1/blocks?limit=3&order=desc&block.number=lt:${all.blocks[2].number}`);
    const t = all.blocks[2].timestamp.to;
    const ns = (ts: string): bigint => BigInt(ts.replace('.', ''));
    const at = (await (await fetch(`${sb.url}/api/v1/blocks?timestamp=lte:${t}&order=desc&limit=5`)).json()) as {
      blocks: { number: number; timestamp: { to: string } }[];
    };
    assert.ok(at.blocks.length > 0);
    assert.ok(at.blocks.every((b) => ns(b.timestamp.to) <= ns(t)));
    assert.ok(at.blocks.some((b) => b.number === all.blocks[2].number));
    const later = (await (await fetch(`${sb.url}/api/v1/blocks?timestamp=gt:${t}&limit=100`)).json()) as {
      blocks: { timestamp: { to: string } }[];
    };
    assert.ok(later.blocks.length > 0 && later.blocks.every((b) => ns(b.timestamp.to) > ns(t)));
    const bad = await fetch(`${sb.url}/api/v1/blocks?timestamp=yesterday&x=1`);
    assert.strictEqual(bad.status, 400);
    assert.deepStrictEqual(((await bad.json()) as Obj)._status, {
      messages: [{ message: 'Invalid parameter: timestamp' }, { message: 'Unknown query parameter: x' }],
    });
  });
});
