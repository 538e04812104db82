// An entity id typed for verification: its EVM address comes from the mirror node (contracts created by an
// Ethereum transaction or CREATE2 are not at their long-zero address); the sandbox answers /contracts/{id} as
// the real server does.
import * as assert from 'assert';
import { HttpClient } from '../../src/api/http';
import { MirrorClient } from '../../src/api/mirror';
import { lookUpContract } from '../../src/workspace/address';
import { startSandbox } from '../../sandbox/src/server';

describe('workspace: entity id to EVM address through the mirror node', () => {
  let sb: Awaited<ReturnType<typeof startSandbox>>;
  let mirror: MirrorClient;
  before(async function () {
    this.timeout(60000);
    sb = await startSandbox({ port: 0 });
    mirror = new MirrorClient(sb.url, new HttpClient({ tries: 1 }));
  });
  after(async () => sb?.close());

  it('the sandbox serves /api/v1/contracts/{id} shaped as the real server (ContractResponse), by id and by address', async () => {
    const page = (await (await fetch(`${sb.url}/api/v1/contracts/results?limit=100`)).json()) as {
      results: Array<{ contract_id: string; to: string | null }>;
    };
    const ids = [...new Set(page.results.map((r) => r.contract_id))];
    const bodies = await Promise.all(
      ids.map(
        async (id) => (await fetch(`${sb.url}/api/v1/contracts/${id}`)).json() as Promise<Record<string, unknown>>,
      ),
    );
    const keys = [
      'admin_key',
      'auto_renew_account',
      'auto_renew_period',
      'bytecode',
      'contract_id',
      'created_timestamp',
      'deleted',
      'evm_address',
      'expiration_timestamp',
      'file_id',
      'max_automatic_token_associations',
      'memo',
      'nonce',
      'obtainer_id',
      'permanent_removal',
      'proxy_account_id',
      'runtime_bytecode',
      'timestamp',
    ];
    for (const b of bodies) assert.deepStrictEqual(Object.keys(b), keys);
    const own = bodies.find((b) => !/^0x0{24}/.test(String(b.evm_address)));
    assert.ok(own, 'some sandbox contracts have an EVM address of their own');
    const byAddr = (await (await fetch(`${sb.url}/api/v1/contracts/${own.evm_address}`)).json()) as Record<
      string,
      unknown
    >;
    assert.strictEqual(byAddr.contract_id, own.contract_id);
    assert.strictEqual((await fetch(`${sb.url}/api/v1/contracts/0.0.999999999`)).status, 404);
    const bad = await fetch(`${sb.url}/api/v1/contracts/abc`);
    assert.deepStrictEqual(
      [bad.status, await bad.json()],
      [400, { _status: { messages: [{ message: 'Invalid parameter: contractid' }] } }],
    );
  });

  it('an entity id becomes the evm_address the mirror node gives, with the runtime bytecode; failures are said', async () => {
    const page = (await (await fetch(`${sb.url}/api/v1/contracts/results?limit=100`)).json()) as {
      results: Array<{ contract_id: string }>;
    };
    let own: { id: string; evm: string } | undefined;
    for (const id of new Set(page.results.map((r) => r.contract_id))) {
      const b = (await (await fetch(`${sb.url}/api/v1/contracts/${id}`)).json()) as { evm_address: string };
      if (!/^0x0{24}/.test(b.evm_address)) own = { id, evm: b.evm_address };
    }
    assert.ok(own);
    const r = await lookUpContract(mirror, own.id);
    assert.ok(r.ok);
    assert.deepStrictEqual([r.value.address, r.value.entityId], [own.evm, own.id]);
    assert.match(r.value.runtimeBytecode ?? '', /^0x6080/);
    const missing = await lookUpContract(mirror, '0.0.999999999');
    assert.ok(!missing.ok && /knows no contract 0\.0\.999999999/.test(missing.message));
    const down = await lookUpContract(
      {
        contract: async () => {
          throw new Error('connect ECONNREFUSED');
        },
      },
      '0.0.1234',
    );
    assert.ok(!down.ok && /Could not look up contract 0\.0\.1234.*ECONNREFUSED/.test(down.message));
  });
});
