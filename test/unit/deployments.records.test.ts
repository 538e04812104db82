// Deployment records → deployed contracts (src/features/deployments/records.ts) over real folders read by the
// address discovery: names from Ignition journals or future ids, hardhat-deploy metadata or file names and Foundry
// transactions; addresses in any case; chains from the folder, the journal, `.chainId` or a network folder's name;
// one entry per chain and address; `.env` values left out; the chain filter, grouping, and which records a
// `contract X` declaration of a file matches.
import * as assert from 'assert';
import * as fs from 'fs';
import * as os from 'os';
import * as path from 'path';
import {
  chainFromNetworkName,
  chainLabel,
  deploymentEntries,
  type DeploymentEntry,
  deploymentsOf,
  entriesOnChain,
  entryKey,
  groupByChain,
  sameSource,
} from '../../src/features/deployments/records';
import { discoverAddresses } from '../../src/workspace/discovery';
import { nodeWorkspaceFs } from '../support/nodeFs';

const ROOT = path.join(__dirname, '../../..');

function write(root: string, rel: string, content: unknown): void {
  const p = path.join(root, rel);
  fs.mkdirSync(path.dirname(p), { recursive: true });
  fs.writeFileSync(p, typeof content === 'string' ? content : JSON.stringify(content, null, 2));
}

async function entriesOf(...roots: string[]): Promise<DeploymentEntry[]> {
  const folders = [];
  for (const root of roots) {
    const d = await discoverAddresses({ folders: [nodeWorkspaceFs(root)] });
    folders.push({ key: `file://${root}`, name: path.basename(root), candidates: d.candidates });
  }
  return deploymentEntries(folders);
}

describe('deployments: records → deployed contracts', () => {
  let tmp: string;
  let a: string;
  let b: string;
  const VAULT = '0x5FbDB2315678afecb367f032d93F642f64180aa3'; // checksummed in the record
  const PROXY = '0x00000000000000000000000000000000000ABCDE';

  before(() => {
    tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'hedera-deployments-'));
    a = path.join(tmp, 'a');
    b = path.join(tmp, 'b');
    // Ignition on 296: names from the future id, and one from the journal (a custom future id: another name; fully
    // qualified: a source). The artifact Ignition kept is not read for names.
    write(a, 'ignition/deployments/chain-296/deployed_addresses.json', {
      'VaultModule#Vault': VAULT,
      'ProxyModule#Proxy': PROXY,
      'CoreModule#Lib~Math': '0x1000000000000000000000000000000000000009',
    });
    write(
      a,
      'ignition/deployments/chain-296/journal.jsonl',
      `\n${JSON.stringify({ chainId: 296, type: 'DEPLOYMENT_INITIALIZE' })}\n${JSON.stringify({
        artifactId: 'ProxyModule#Proxy',
        constructorArgs: [],
        contractName: 'contracts/proxy/TransparentUpgradeableProxy.sol:TransparentUpgradeableProxy',
        dependencies: [],
        from: '0xf39fd6e51aad88f6f4ce6ab8827279cfffb92266',
        futureId: 'ProxyModule#Proxy',
        futureType: 'NAMED_ARTIFACT_CONTRACT_DEPLOYMENT',
        libraries: {},
        strategy: 'basic',
        strategyConfig: {},
        type: 'DEPLOYMENT_EXECUTION_STATE_INITIALIZE',
        value: { _kind: 'bigint', value: '0' },
      })}`,
    );
    write(a, 'ignition/deployments/chain-296/artifacts/ProxyModule#Proxy.json', {
      contractName: 'TransparentUpgradeableProxy',
      sourceName: 'contracts/proxy/TransparentUpgradeableProxy.sol',
      abi: [],
    });
    // Ignition with a custom deployment id: the chain from its journal
    write(a, 'ignition/deployments/staging/deployed_addresses.json', {
      'VaultModule#Vault': '0x1000000000000000000000000000000000000004',
    });
    write(a, 'ignition/deployments/staging/journal.jsonl', '{"chainId":295,"type":"DEPLOYMENT_INITIALIZE"}\n');
    // Ignition on a chain that is not Hedera's: skipped by discovery
    write(a, 'ignition/deployments/chain-31337/deployed_addresses.json', {
      'VaultModule#Vault': '0x1000000000000000000000000000000000000077',
    });
    // hardhat-deploy: no .chainId, the network folder says testnet; metadata names the contract; another without chain
    write(a, 'deployments/hedera_testnet/Greeter.json', {
      address: '0x1000000000000000000000000000000000000010',
      metadata: JSON.stringify({
        settings: { compilationTarget: { 'contracts/greeting/Greeter.sol': 'Greeter' } },
        compiler: { version: '0.8.28' },
      }),
      transactionHash: `0x${'ab'.repeat(32)}`,
    });
    write(a, 'deployments/hedera_testnet/Registry.json', { address: '0x1000000000000000000000000000000000000011' });
    write(a, 'deployments/localhost/Registry.json', { address: '0x1000000000000000000000000000000000000012' });
    // Foundry on 296: the Vault again (same address, lower case): one entry; a new Token; a dry run is ignored
    write(a, 'broadcast/Deploy.s.sol/296/run-latest.json', {
      transactions: [
        {
          transactionType: 'CREATE',
          contractName: 'Vault',
          contractAddress: VAULT.toLowerCase(),
          hash: `0x${'cd'.repeat(32)}`,
        },
        {
          transactionType: 'CREATE',
          contractName: 'Token',
          contractAddress: '0x1000000000000000000000000000000000000013',
          additionalContracts: [{ address: '0x1000000000000000000000000000000000000014', contractName: 'TokenVault' }],
        },
        {
          transactionType: 'CALL',
          contractName: 'Token',
          contractAddress: '0x1000000000000000000000000000000000000013',
        },
      ],
    });
    write(a, 'broadcast/Deploy.s.sol/296/dry-run/run-latest.json', {
      transactions: [
        {
          transactionType: 'CREATE',
          contractName: 'Ghost',
          contractAddress: '0x1000000000000000000000000000000000000066',
        },
      ],
    });
    // .env: not a deployment record
    write(a, '.env', 'CONTRACT_ADDRESS=0x1000000000000000000000000000000000000099\n');
    // a second folder with the same Vault record: one entry
    write(b, 'ignition/deployments/chain-296/deployed_addresses.json', { 'VaultModule#Vault': VAULT });
  });
  after(() => fs.rmSync(tmp, { recursive: true, force: true }));

  it('reads every kind of record with names, lowercase addresses, chains and record files', async () => {
    const list = await entriesOf(a);
    const row = (e: DeploymentEntry) =>
      `${e.chainId ?? '?'} ${e.name} ${e.address} ${e.source} ${e.file}${e.sourcePath ? ` src=${e.sourcePath}` : ''}${e.chainFromFolderName ? ' (chain from folder name)' : ''}`;
    assert.deepStrictEqual(list.map(row), [
      '296 Vault 0x5fbdb2315678afecb367f032d93f642f64180aa3 ignition ignition/deployments/chain-296/deployed_addresses.json',
      '296 TransparentUpgradeableProxy 0x00000000000000000000000000000000000abcde ignition ignition/deployments/chain-296/deployed_addresses.json src=contracts/proxy/TransparentUpgradeableProxy.sol',
      '296 Lib~Math 0x1000000000000000000000000000000000000009 ignition ignition/deployments/chain-296/deployed_addresses.json',
      '295 Vault 0x1000000000000000000000000000000000000004 ignition ignition/deployments/staging/deployed_addresses.json',
      '296 Greeter 0x1000000000000000000000000000000000000010 hardhat-deploy deployments/hedera_testnet/Greeter.json src=contracts/greeting/Greeter.sol (chain from folder name)',
      '296 Registry 0x1000000000000000000000000000000000000011 hardhat-deploy deployments/hedera_testnet/Registry.json (chain from folder name)',
      '? Registry 0x1000000000000000000000000000000000000012 hardhat-deploy deployments/localhost/Registry.json',
      '296 Token 0x1000000000000000000000000000000000000013 foundry broadcast/Deploy.s.sol/296/run-latest.json',
      '296 TokenVault 0x1000000000000000000000000000000000000014 foundry broadcast/Deploy.s.sol/296/run-latest.json',
    ]);
    const vault = list[0];
    assert.strictEqual(vault.key, '296:0x5fbdb2315678afecb367f032d93f642f64180aa3');
    assert.strictEqual(vault.where, 'ignition/deployments/chain-296/deployed_addresses.json › VaultModule#Vault');
    assert.deepStrictEqual(
      vault.alsoIn,
      ['broadcast/Deploy.s.sol/296/run-latest.json › Vault (Deploy.s.sol)'],
      'the Foundry record of the same contract',
    );
    assert.strictEqual(vault.folderKey, `file://${a}`);
    assert.ok(!list.some((e) => e.address.endsWith('99')), '.env values are not deployment records');
    assert.ok(!list.some((e) => e.name === 'Ghost'), 'dry runs are not deployments');
  });

  it('one entry per chain and address across workspace folders', async () => {
    const list = await entriesOf(a, b);
    const vaults = list.filter((e) => e.key === entryKey(296, VAULT));
    assert.strictEqual(vaults.length, 1);
    assert.deepStrictEqual(vaults[0].alsoIn, [
      'broadcast/Deploy.s.sol/296/run-latest.json › Vault (Deploy.s.sol)',
      'ignition/deployments/chain-296/deployed_addresses.json › VaultModule#Vault',
    ]);
    assert.strictEqual(vaults[0].folderKey, `file://${a}`, 'the first folder keeps it');
  });

  it('filters by chain and groups by chain (Hedera chains in order, no chain last)', async () => {
    const list = await entriesOf(a);
    assert.deepStrictEqual(
      entriesOnChain(list, 296).map((e) => e.name),
      ['Vault', 'TransparentUpgradeableProxy', 'Lib~Math', 'Greeter', 'Registry', 'Token', 'TokenVault'],
    );
    assert.deepStrictEqual(
      entriesOnChain(list, 295).map((e) => e.address),
      ['0x1000000000000000000000000000000000000004'],
    );
    assert.deepStrictEqual(entriesOnChain(list, 297), []);
    assert.deepStrictEqual(
      groupByChain(list).map((g) => `${chainLabel(g.chainId)}: ${g.entries.length}`),
      ['Hedera mainnet (chain 295): 1', 'Hedera testnet (chain 296): 7', 'no chain in the record: 1'],
    );
  });

  it('matches a declaration by name, chain and (when the record names it) its source file', async () => {
    const list = await entriesOf(a);
    const names = (x: DeploymentEntry[]) => x.map((e) => `${e.chainId}:${e.address}`);
    assert.deepStrictEqual(
      names(deploymentsOf(list, 'Vault', 'contracts/Vault.sol', 296)),
      ['296:0x5fbdb2315678afecb367f032d93f642f64180aa3'],
      'no source in the record: the name decides',
    );
    assert.deepStrictEqual(
      names(deploymentsOf(list, 'Vault', 'contracts/Vault.sol', 295)),
      ['295:0x1000000000000000000000000000000000000004'],
      "the other chain's record on its chain",
    );
    assert.deepStrictEqual(deploymentsOf(list, 'Vault', 'contracts/Vault.sol', 297), [], 'no record on that chain');
    assert.deepStrictEqual(
      deploymentsOf(list, 'vault', 'contracts/Vault.sol', 296),
      [],
      'Solidity names are case-sensitive',
    );
    // with several workspace folders, a record speaks for its own folder's contracts only
    const folder = list.find((e) => e.name === 'Vault' && e.chainId === 296)?.folderKey;
    assert.ok(folder);
    assert.strictEqual(deploymentsOf(list, 'Vault', 'contracts/Vault.sol', 296, folder).length, 1);
    assert.deepStrictEqual(
      deploymentsOf(list, 'Vault', 'contracts/Vault.sol', 296, 'file:///another/folder'),
      [],
      'a Vault of another folder',
    );
    // the record's source (the journal's fully qualified name) must be the file
    assert.strictEqual(
      deploymentsOf(list, 'TransparentUpgradeableProxy', 'contracts/proxy/TransparentUpgradeableProxy.sol', 296).length,
      1,
    );
    assert.strictEqual(
      deploymentsOf(
        list,
        'TransparentUpgradeableProxy',
        'packages/app/contracts/proxy/TransparentUpgradeableProxy.sol',
        296,
      ).length,
      1,
      'a project in a subfolder',
    );
    assert.strictEqual(
      deploymentsOf(
        list,
        'TransparentUpgradeableProxy',
        'node_modules/@openzeppelin/contracts/proxy/transparent/TransparentUpgradeableProxy.sol',
        296,
      ).length,
      0,
      'another file with that name',
    );
    assert.strictEqual(
      deploymentsOf(list, 'TransparentUpgradeableProxy', undefined, 296).length,
      1,
      'a file outside the workspace: by name',
    );
    assert.strictEqual(
      deploymentsOf(list, 'Greeter', 'contracts/greeting/Greeter.sol', 296).length,
      1,
      'hardhat-deploy metadata source',
    );
    assert.strictEqual(deploymentsOf(list, 'Greeter', 'contracts/Greeter.sol', 296).length, 0);
    assert.strictEqual(
      deploymentsOf(list, 'Registry', 'contracts/Registry.sol', 296).length,
      1,
      'a hardhat-deploy record on the chain its network folder names',
    );
  });

  it('the sample workspace: Token, Counter, Vault, Ledger and Accounting on chain 296', async () => {
    const list = await entriesOf(path.join(ROOT, 'test/workspace'));
    assert.deepStrictEqual(
      entriesOnChain(list, 296).map((e) => `${e.name} ${e.address}`),
      [
        'Token 0x1000000000000000000000000000000000000002',
        'Counter 0x1000000000000000000000000000000000000003',
        'Vault 0x5fbdb2315678afecb367f032d93f642f64180aa3',
        'Ledger 0xe7f1725e7734ce288f8367e1bb143e90bb3f0512',
        'Accounting 0x9fe46736679d2d9a65f0992f2272de9f3c7fa6e0',
      ],
    );
    assert.strictEqual(list.length, 5, 'the .env contract is not a deployment record');
  });

  it("a hardhat-deploy network folder's name stands for a Hedera chain only when it says which", () => {
    assert.strictEqual(chainFromNetworkName('hedera_testnet'), 296);
    assert.strictEqual(chainFromNetworkName('hederaMainnet'), 295);
    assert.strictEqual(chainFromNetworkName('PREVIEWNET'), 297);
    assert.strictEqual(chainFromNetworkName('localhost'), undefined);
    assert.strictEqual(chainFromNetworkName('hardhat'), undefined);
    assert.strictEqual(sameSource('./contracts/A.sol', 'contracts/A.sol'), true);
    assert.strictEqual(sameSource('project/contracts/A.sol', 'contracts/A.sol'), true, "Hardhat 3's project/ prefix");
    assert.strictEqual(sameSource('contracts/A.sol', 'xcontracts/A.sol'), false, 'a whole path segment');
    assert.strictEqual(sameSource('contracts\\A.sol', 'sub/contracts/A.sol'), true);
  });
});
