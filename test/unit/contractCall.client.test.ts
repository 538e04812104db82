// MirrorClient.contractCall against the sandbox over real HTTP: a view function read and decoded with its ABI, a past
// block, a gas estimate, reverts decoded with the existing decoders (Error(string), custom errors from the ABI),
// the server's refusals as ApiError with its words, 501 as `unavailable`, a 429 tried again after its Retry-After,
// and the caller's cancellation.
import * as assert from 'assert';
import compiled from '../../sandbox/src/compiled/inspector.json';
import { type Sandbox, startSandbox } from '../../sandbox/src/server';
import { ApiError } from '../../src/api/errors';
import { HttpClient } from '../../src/api/http';
import { MirrorClient } from '../../src/api/mirror';
import type { AbiItem } from '../../src/api/decode/abiFiles';
import { AbiRegistry, decodeError } from '../../src/api/decode/abi';
import { decodeCallResult, encodeCallData } from '../../src/api/decode/callInputs';

const VAULT = (
  compiled as unknown as { contracts: { name: string; entityId: string; abi: AbiItem[] }[] }
).contracts.find((c) => c.name === 'Vault') as { entityId: string; abi: AbiItem[] };
const item = (name: string): AbiItem => VAULT.abi.find((i) => i.type === 'function' && i.name === name) as AbiItem;
const data = (name: string, args: string[] = []): string => {
  const r = encodeCallData(item(name), args);
  assert.ok(r.ok, r.ok ? '' : r.message);
  return r.value;
};

describe('mirror client: POST /contracts/call against the sandbox', function () {
  this.timeout(30_000);
  let sb: Sandbox;
  let mirror: MirrorClient;
  const registry = new AbiRegistry([{ source: 'Vault.json', contractName: 'Vault', format: 'abi', abi: VAULT.abi }]);

  before(async () => {
    sb = await startSandbox({ port: 0 });
    mirror = new MirrorClient(sb.url, new HttpClient({ timeoutMs: 10_000, backoffBaseMs: 1, backoffMaxMs: 2 }));
  });
  after(() => sb.close());
  afterEach(() => {
    sb.clearFaults();
    sb.setContractCall(true);
  });

  it('reads a view function by entity id, decoded by its ABI; at earliest the state before', async () => {
    const a = await mirror.contractCall({ to: VAULT.entityId, data: data('feeBps') });
    assert.strictEqual(a.kind, 'result');
    assert.strictEqual(decodeCallResult(item('feeBps'), a.kind === 'result' ? a.result : '')?.values[0].value, '30');
    const e = await mirror.contractCall({ to: VAULT.entityId, data: data('feeBps'), block: 'earliest' });
    assert.strictEqual(decodeCallResult(item('feeBps'), e.kind === 'result' ? e.result : '')?.values[0].value, '25');
    const sent = sb.requests().filter((r) => r.url === '/api/v1/contracts/call');
    assert.ok(sent.every((r) => r.headers['content-type'] === 'application/json'));
    assert.match(sent[0].body ?? '', /"to":"0x0000000000000000000000000000000000001b59"/);
  });

  it('a revert is the answer `failed`, decoded by the existing decoders (Error(string) and custom errors)', async () => {
    const move = await mirror.contractCall({
      to: VAULT.entityId,
      from: '0.0.7006',
      data: data('move', ['0x70997970c51812dc3a010c7d01b50e0d17dc79c8', '30000000000']),
    });
    assert.strictEqual(move.kind, 'failed');
    if (move.kind !== 'failed') return;
    assert.strictEqual(move.name, 'CONTRACT_REVERT_EXECUTED');
    assert.strictEqual(decodeError(move.data, registry)?.message, 'Vault: move exceeds balance');
    const big = '5000000000000000000000000'; // past 2^53, every digit
    const w = await mirror.contractCall({
      to: VAULT.entityId,
      from: '0x70997970C51812dc3A010C7d01b50e0d17dc79C8',
      data: data('withdraw', [big]),
    });
    assert.strictEqual(w.kind, 'failed');
    const dec = decodeError(w.kind === 'failed' ? w.data : '', registry);
    assert.strictEqual(dec?.name, 'InsufficientBalance');
    assert.ok(
      dec?.args?.some((v) => v.value === big),
      JSON.stringify(dec?.args),
    );
  });

  it('a past time turned into its block (GET /blocks): a call there reads the state of then', async () => {
    const health = (await (await fetch(`${sb.url}/__sandbox/health`)).json()) as {
      notable: { inspector: Record<string, { timestamp: string }> };
    };
    const setFee = health.notable.inspector.inspectorNoActions.timestamp; // the owner's setFee(30)
    const [sec, ns] = setFee.split('.');
    const before = `${sec}.${(BigInt(ns) - 1n).toString().padStart(9, '0')}`;
    const blockBefore = await mirror.blockAt(before);
    const blockAt = await mirror.blockAt(setFee);
    assert.ok(blockBefore && blockAt && blockAt.number > blockBefore.number);
    const read = async (block: bigint): Promise<string | undefined> => {
      const a = await mirror.contractCall({ to: VAULT.entityId, data: data('feeBps'), block });
      return decodeCallResult(item('feeBps'), a.kind === 'result' ? a.result : '')?.values[0].value;
    };
    assert.strictEqual(await read(blockBefore.number), '25');
    assert.strictEqual(await read(blockAt.number), '30');
    assert.strictEqual(await mirror.blockAt('1000000000.000000000'), null);
    const sent = sb.requests().filter((r) => r.url.startsWith('/api/v1/blocks?'));
    assert.strictEqual(sent[0].url, `/api/v1/blocks?timestamp=lte:${before}&order=desc&limit=1`);
  });

  it('a value past 2^53 is sent with every digit (the body is written losslessly)', async () => {
    sb.clearRequests();
    const a = await mirror.contractCall({
      to: VAULT.entityId,
      from: '0.0.7006',
      data: data('deposit'),
      value: 9_223_372_036_854_775_807n,
    });
    assert.strictEqual(a.kind, 'failed'); // the sender does not hold that much
    const sent = sb.requests().find((r) => r.url === '/api/v1/contracts/call');
    assert.match(sent?.body ?? '', /"value":9223372036854775807[,}]/);
  });

  it('estimate: the gas as a bigint', async () => {
    const a = await mirror.contractCall({
      to: VAULT.entityId,
      from: '0.0.7000',
      data: data('setFee', ['40']),
      estimate: true,
    });
    assert.strictEqual(a.kind, 'estimate');
    assert.ok(a.kind === 'estimate' && a.gas > 21_000n && a.gas < 15_000_000n);
  });

  it("the server's refusals throw ApiError with its words; 501 is `unavailable`", async () => {
    await assert.rejects(
      mirror.contractCall({ to: VAULT.entityId, data: data('feeBps'), gas: 100 }),
      (e: unknown) =>
        e instanceof ApiError &&
        e.status === 400 &&
        e.serverMessages.some((m) => m.includes('gas field must be greater than or equal to 21000')),
    );
    await assert.rejects(
      mirror.contractCall({ to: VAULT.entityId, data: data('feeBps'), block: '9223372036854775807' }),
      (e: unknown) => e instanceof ApiError && e.serverMessages.some((m) => m.includes('Unknown block number')),
    );
    await assert.rejects(
      mirror.contractCall({ to: '0.0.99999' }),
      (e: unknown) => e instanceof ApiError && e.status === 404,
    );
    sb.setContractCall(false);
    const off = await mirror.contractCall({ to: VAULT.entityId, data: data('feeBps') });
    assert.strictEqual(off.kind, 'unavailable');
  });

  it('a 429 is tried again after its Retry-After (a read-only query); a longer one ends the tries', async () => {
    sb.addFault({ path: '/api/v1/contracts/call', method: 'POST', fault: { status: 429, retryAfter: '0' } });
    const a = await mirror.contractCall({ to: VAULT.entityId, data: data('feeBps') });
    assert.strictEqual(a.kind, 'result');
    assert.strictEqual(a.kind === 'result' && a.tries, 2);
    sb.addFault({ path: '/api/v1/contracts/call', method: 'POST', fault: { status: 429, retryAfter: '3600' } });
    await assert.rejects(
      mirror.contractCall({ to: VAULT.entityId, data: data('feeBps') }),
      (e: unknown) => e instanceof ApiError && e.status === 429 && e.retryAfterMs === 3_600_000,
    );
  });

  it('the caller cancels: ApiError `cancelled`, nothing sent after', async () => {
    sb.addFault({ path: '/api/v1/contracts/call', method: 'POST', fault: { delayMs: 5_000 } });
    const ac = new AbortController();
    const p = mirror.contractCall({ to: VAULT.entityId, data: data('feeBps') }, { signal: ac.signal });
    ac.abort();
    await assert.rejects(p, (e: unknown) => e instanceof ApiError && e.kind === 'cancelled');
  });
});
