// Address discovery over fixture workspaces of each kind (Hardhat Ignition, hardhat-deploy, Foundry broadcast,
// .env), the documented order, several candidates, entity ids, and the sentences for values that are not addresses.
import * as assert from 'assert';
import * as path from 'path';
import { addressFromSelection, parseContractAddress } from '../../src/workspace/address';
import { discoverAddresses, isContractKey, parseDotenv } from '../../src/workspace/discovery';
import { nodeWorkspaceFs } from '../support/nodeFs';
import { FIXTURES } from './helpers';

const ws = (kind: string) => nodeWorkspaceFs(path.join(FIXTURES, 'workspaces', kind));
const A = (n: string) => `0x10000000000000000000000000000000000000${n}`;

describe('workspace: contract address input', () => {
  it('accepts EVM addresses in any case, with or without 0x, and normalises them', () => {
    const r = parseContractAddress('  0X1000000000000000000000000000000000000ABC ');
    assert.ok(!r.ok, '0X prefix is not 0x');
    assert.deepStrictEqual(parseContractAddress('1000000000000000000000000000000000000aBc'), { ok: true, value: { address: '0x1000000000000000000000000000000000000abc' } });
    assert.deepStrictEqual(parseContractAddress('"0x1000000000000000000000000000000000000002"'), { ok: true, value: { address: A('02') } });
  });

  it('turns an entity id into its long-zero EVM address', () => {
    assert.deepStrictEqual(parseContractAddress('0.0.1234'), { ok: true, value: { address: '0x00000000000000000000000000000000000004d2', entityId: '0.0.1234' } });
    assert.deepStrictEqual(parseContractAddress('0.0.5001-abcde'), { ok: true, value: { address: '0x0000000000000000000000000000000000001389', entityId: '0.0.5001' } });
    const big = parseContractAddress('1.2.4294967297');
    assert.ok(big.ok && big.value.address === '0x0000000100000000000000020000000100000001', JSON.stringify(big));
  });

  it('refuses anything else with one sentence', () => {
    const cases: Array<[string, RegExp]> = [
      ['', /Enter the contract's EVM address/],
      ['0x1234', /has 4 hexadecimal digits after 0x, an address has 40/],
      ['1234', /write an entity id in full, for example 0\.0\.1234/],
      ['0.0.0', /not a contract/],
      ['0x0000000000000000000000000000000000000000', /zero address/],
      ['hello world', /neither an EVM address .* nor a Hedera entity id/],
      ['0.0.12.3', /neither/],
      ['0x10000000000000000000000000000000000000zz', /neither|not an EVM address/],
    ];
    for (const [input, re] of cases) {
      const r = parseContractAddress(input);
      assert.ok(!r.ok, input);
      if (!r.ok) {
        assert.match(r.message, re, input);
        assert.ok(/[.:]$/.test(r.message.trim()) && r.message.split('. ').length <= 2, `one sentence: ${r.message}`);
      }
    }
  });

  it('finds the single address in a selected line, refuses several or none', () => {
    assert.deepStrictEqual(addressFromSelection('const TOKEN = "0x1000000000000000000000000000000000000002";'), { ok: true, value: { address: A('02') } });
    const two = addressFromSelection(`${A('02')} ${A('03')}`);
    assert.ok(!two.ok && /2 different addresses/.test(two.message));
    const none = addressFromSelection('pragma solidity ^0.8.24;');
    assert.ok(!none.ok && /^The selection is not a contract address/.test(none.message));
  });
});

describe('workspace: address discovery', () => {
  it('Hardhat Ignition: chain-<id> folders and a custom deployment id with the chain in its journal; other chains skipped', async () => {
    const d = await discoverAddresses({ folders: [ws('hardhat-ignition')], chainId: 296 });
    const rows = d.candidates.map((c) => [c.source, c.address, c.contractName, c.chainId]);
    assert.deepStrictEqual(rows, [
      ['ignition', A('03'), 'Counter', 296],
      ['ignition', A('02'), 'Token', 296],
      ['ignition', A('03'), 'Counter', 295],
      ['ignition', A('04'), 'Vault', 295],
    ]);
    assert.strictEqual(d.candidates[0].where, 'ignition/deployments/chain-296/deployed_addresses.json › CounterModule#Counter');
    assert.strictEqual(d.candidates[0].folder, 'hardhat-ignition');
    assert.ok(d.skipped.some((s) => /chain-31337.*chain 31337 is not a Hedera network/.test(s)), d.skipped.join('\n'));
  });

  it('hardhat-deploy: deployments/<network>/*.json with .chainId, the build target and solcInputs from the record', async () => {
    const d = await discoverAddresses({ folders: [ws('hardhat-deploy')] });
    assert.strictEqual(d.candidates.length, 1);
    const c = d.candidates[0];
    assert.deepStrictEqual([c.source, c.address, c.contractName, c.chainId], ['hardhat-deploy', A('03'), 'Counter', 296]);
    assert.match(c.where, /^deployments\/hedera_testnet\/Counter\.json \(hedera_testnet\)$/);
    assert.match(c.creationTxHash ?? '', /^0x[0-9a-f]{64}$/);
    assert.strictEqual(c.build?.sourcePath, 'contracts/Counter.sol');
    assert.strictEqual(c.build?.compilerVersion, '0.8.28+commit.7893614a');
    assert.match(c.build?.stdJsonInputFile ?? '', /^deployments\/hedera_testnet\/solcInputs\/[0-9a-f]+\.json$/);
    assert.ok(d.skipped.some((s) => /localhost.*31337/.test(s)));
  });

  it('Foundry: broadcast/**/<chainId>/run-latest.json creates only, dry runs and other chains left out', async () => {
    const d = await discoverAddresses({ folders: [ws('foundry')] });
    assert.deepStrictEqual(d.candidates.map((c) => [c.source, c.address, c.contractName, c.chainId]), [
      ['foundry', A('03'), 'Counter', 296],
      ['foundry', A('04'), 'Vault', 296],
    ]);
    assert.match(d.candidates[0].where, /^broadcast\/Deploy\.s\.sol\/296\/run-latest\.json › Counter \(Deploy\.s\.sol\)$/);
    assert.match(d.candidates[0].creationTxHash ?? '', /^0x[0-9a-f]{64}$/);
    assert.ok(!d.candidates.some((c) => c.address === A('0d')), 'dry run ignored');
  });

  it('.env: CONTRACT_ADDRESS / CONTRACT_ID and *_CONTRACT_* keys, entity ids converted, placeholders and examples ignored', async () => {
    const d = await discoverAddresses({ folders: [ws('env')] });
    assert.deepStrictEqual(d.candidates.map((c) => [c.address, c.entityId, c.where]), [
      [A('01'), undefined, '.env:2 › CONTRACT_ADDRESS'],
      ['0x0000000000000000000000000000000000001389', '0.0.5001', '.env:3 › TOKEN_CONTRACT_ID'],
      [A('0c'), undefined, '.env.local:1 › CONTRACT_ADDRESS_TESTNET'],
    ]);
    // VAULT_CONTRACT_ADDRESS repeats CONTRACT_ADDRESS with a 0X prefix: refused (0X is not 0x), so skipped with why
    assert.ok(d.skipped.some((s) => /\.env:6 › CONTRACT_ID: "not-an-id"/.test(s)), d.skipped.join('\n'));
    assert.ok(!d.candidates.some((c) => c.where.startsWith('.env.example')));
    assert.ok(isContractKey('CONTRACT_ADDRESS') && isContractKey('token_contract_id') && !isContractKey('OPERATOR_ID') && !isContractKey('CONTRACTOR'));
    assert.deepStrictEqual(parseDotenv('export A = "x y" # c\nB=z # note\n# C=1\nD=\'q\''), [
      { key: 'A', value: 'x y', line: 1 }, { key: 'B', value: 'z', line: 2 }, { key: 'D', value: 'q', line: 4 },
    ]);
  });

  it('several sources: setting, then selection, then records in the documented order; duplicates merged with where else', async () => {
    const d = await discoverAddresses({
      setting: '0.0.1234',
      selection: `verify ${A('02')} please`,
      folders: [ws('env'), ws('foundry'), ws('hardhat-ignition'), ws('hardhat-deploy')],
      chainId: 296,
    });
    const kinds = d.candidates.map((c) => c.source);
    assert.deepStrictEqual(kinds, ['setting', 'selection', 'ignition', 'ignition', 'ignition', 'foundry', 'env', 'env', 'env']);
    assert.strictEqual(d.candidates[0].address, '0x00000000000000000000000000000000000004d2');
    assert.strictEqual(d.candidates[0].where, 'Setting hederaExplorer.contractAddress');
    const sel = d.candidates[1];
    assert.strictEqual(sel.address, A('02'));
    assert.ok(sel.alsoIn.some((w) => w.includes('TokenModule#Token')), 'the selection is also in the Ignition record');
    assert.strictEqual(sel.chainId, 296, 'chain filled in from the record');
    const counter = d.candidates.find((c) => c.address === A('03') && c.chainId === 296);
    assert.ok(counter && counter.source === 'ignition');
    assert.ok(counter.alsoIn.some((w) => w.startsWith('deployments/hedera_testnet')) && counter.alsoIn.some((w) => w.startsWith('broadcast/')), counter.alsoIn.join(' | '));
    assert.strictEqual(d.candidates[4].chainId, 295, 'other chain after the network\'s chain within a kind');
    assert.deepStrictEqual(d.rejected, []);
  });

  it('a setting or selection that is not an address is rejected with a sentence; no records means no candidates', async () => {
    const d = await discoverAddresses({ setting: 'my-contract', selection: 'function foo() {}', folders: [ws('empty')] });
    assert.deepStrictEqual(d.candidates, []);
    assert.deepStrictEqual(d.rejected.map((r) => r.source), ['setting', 'selection']);
    assert.match(d.rejected[0].message, /^The setting hederaExplorer\.contractAddress is not usable: "my-contract" is neither/);
    const none = await discoverAddresses({ folders: [ws('empty'), nodeWorkspaceFs(path.join(FIXTURES, 'workspaces', 'does-not-exist'))] });
    assert.deepStrictEqual([none.candidates, none.rejected], [[], []]);
  });
});
