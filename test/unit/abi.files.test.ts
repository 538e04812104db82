import * as assert from 'assert';
import * as fs from 'fs';
import * as path from 'path';
import { isExcludedAbiPath, mayHoldAbi, normalizeAbi, parseAbiFile, signatureOf } from '../../src/api/decode/abiFiles';

const ROOT = path.join(__dirname, '../../..');

/** Every file under `dir` (relative to the repo), as the index reads them. */
function workspaceAbiFiles(dir = 'test/workspace') {
  const base = path.join(ROOT, dir);
  const out: NonNullable<ReturnType<typeof parseAbiFile>>[] = [];
  for (const rel of fs.readdirSync(base, { recursive: true }) as string[]) {
    const full = path.join(base, rel);
    if (!/\.(json|abi)$/.test(rel) || !fs.statSync(full).isFile()) continue;
    const f = parseAbiFile(rel.split(path.sep).join('/'), fs.readFileSync(full, 'utf8'));
    if (f) out.push(f);
  }
  return out.sort((a, b) => (a.source < b.source ? -1 : 1));
}

describe('ABI files', () => {
  const transfer = {
    type: 'function',
    name: 'transfer',
    inputs: [
      { name: 'to', type: 'address', internalType: 'address' },
      { name: 'value', type: 'uint256', internalType: 'uint256' },
    ],
    outputs: [{ name: '', type: 'bool', internalType: 'bool' }],
    stateMutability: 'nonpayable',
  };

  it('reads a Hardhat artifact with its contract name and format, and skips .dbg.json and build-info', () => {
    const text = JSON.stringify({
      _format: 'hh-sol-artifact-1',
      contractName: 'Token',
      sourceName: 'contracts/Token.sol',
      abi: [transfer, { type: 'constructor', inputs: [] }],
      bytecode: '0x60',
      deployedBytecode: '0x60',
      linkReferences: {},
    });
    const f = parseAbiFile('artifacts/contracts/Token.sol/Token.json', text);
    assert.deepStrictEqual(
      [f?.format, f?.contractName, f?.source, f?.abi.length],
      ['hardhat', 'Token', 'artifacts/contracts/Token.sol/Token.json', 1],
    );
    assert.strictEqual(
      parseAbiFile(
        'artifacts/contracts/Token.sol/Token.dbg.json',
        JSON.stringify({ _format: 'hh-sol-dbg-1', buildInfo: 'x' }),
      ),
      undefined,
    );
    assert.strictEqual(
      parseAbiFile('artifacts/build-info/abc.json', JSON.stringify({ output: { contracts: {} }, abi: [transfer] })),
      undefined,
    );
    assert.ok(
      isExcludedAbiPath('a/node_modules/x/abi.json') &&
        isExcludedAbiPath('out\\build-info\\x.json') &&
        !isExcludedAbiPath('out/Token.sol/Token.json'),
    );
  });

  it('reads Foundry output, Truffle-like objects, hardhat-deploy records and plain ABI arrays', () => {
    const foundry = parseAbiFile(
      'out/Vault.sol/Vault.json',
      JSON.stringify({
        abi: [transfer],
        bytecode: { object: '0x60', sourceMap: '', linkReferences: {} },
        deployedBytecode: { object: '0x' },
        methodIdentifiers: {},
      }),
    );
    assert.deepStrictEqual([foundry?.format, foundry?.contractName], ['foundry', 'Vault']);
    assert.strictEqual(
      parseAbiFile('build/contracts/A.json', JSON.stringify({ contractName: 'A', abi: [transfer] }))?.format,
      'truffle',
    );
    const plain = parseAbiFile('abi/Router.abi', JSON.stringify([transfer]));
    assert.deepStrictEqual([plain?.format, plain?.contractName], ['abi', 'Router']);
    assert.strictEqual(parseAbiFile('abis/ERC20.abi.json', JSON.stringify([transfer]))?.contractName, 'ERC20');
    const deploy = path.join(ROOT, 'test/fixtures/workspaces/hardhat-deploy/deployments/hedera_testnet/Counter.json');
    const rec = parseAbiFile('deployments/hedera_testnet/Counter.json', fs.readFileSync(deploy, 'utf8'));
    assert.ok(rec && rec.abi.some((i) => i.type === 'function'), 'a hardhat-deploy record carries its ABI');
  });

  it('ignores JSON that is not an ABI, invalid JSON and empty ABIs, never throwing', () => {
    assert.strictEqual(parseAbiFile('package.json', JSON.stringify({ name: 'x', dependencies: {} })), undefined);
    assert.strictEqual(parseAbiFile('tsconfig.json', '{ "compilerOptions": { } // comment'), undefined);
    assert.strictEqual(parseAbiFile('data.json', JSON.stringify([1, 2, 3])), undefined);
    assert.strictEqual(parseAbiFile('list.json', JSON.stringify([{ id: 1 }])), undefined);
    assert.strictEqual(parseAbiFile('empty.abi', '[]'), undefined);
    assert.strictEqual(parseAbiFile('ctor.abi', JSON.stringify([{ type: 'constructor', inputs: [] }])), undefined);
    assert.strictEqual(parseAbiFile('broken.json', '[{"type":"function"'), undefined);
    assert.ok(!mayHoldAbi('{"name":"x"}') && mayHoldAbi('  [') && mayHoldAbi('{"abi": []}'));
  });

  it('keeps well-formed function, error and event items and drops malformed ones', () => {
    const abi = normalizeAbi([
      transfer,
      { type: 'error', name: 'Bad', inputs: [{ name: 'x', type: 'uint7' }] }, // no such type
      { type: 'event', name: 'Transfer', inputs: [{ name: 'from', type: 'address', indexed: true }] },
      { type: 'function', name: '1bad', inputs: [] },
      {
        type: 'function',
        name: 'swap',
        inputs: [
          {
            name: 'route',
            type: 'tuple[]',
            components: [
              { name: 'pool', type: 'address' },
              { name: 'fee', type: 'uint24' },
            ],
          },
        ],
      },
      { type: 'function', name: 'noComponents', inputs: [{ name: 't', type: 'tuple' }] },
      { name: 'legacy', inputs: [], outputs: [] }, // solc < 0.5: no type
      'junk',
      null,
      42,
    ]);
    assert.deepStrictEqual(
      abi.map((i) => `${i.type} ${signatureOf(i)}`),
      [
        'function transfer(address,uint256)',
        'event Transfer(address)',
        'function swap((address,uint24)[])',
        'function legacy()',
      ],
    );
  });

  it("finds the sample workspace's artifacts: Hardhat artifacts and a plain .abi, none of the build info or .dbg files", () => {
    const files = workspaceAbiFiles();
    assert.deepStrictEqual(
      files.map((f) => `${f.source} ${f.format}`),
      [
        'artifacts/abi/SaucerRouter.abi abi',
        'artifacts/contracts/inspector/Accounting.sol/Accounting.json hardhat',
        'artifacts/contracts/inspector/Ledger.sol/Ledger.json hardhat',
        'artifacts/contracts/inspector/Vault.sol/Vault.json hardhat',
        'artifacts/contracts/inspector/VaultProxy.sol/VaultProxy.json hardhat',
        'artifacts/contracts/inspector/VaultRules.sol/VaultRules.json hardhat',
        'artifacts/contracts/sandbox/SandToken.sol/SandToken.json hardhat',
        'artifacts/contracts/sandbox/SandboxPunks.sol/SandboxPunks.json hardhat',
        'artifacts/contracts/sandbox/StakingVault.sol/StakingVault.json hardhat',
        'artifacts/contracts/sandbox/TreasuryDAO.sol/TreasuryDAO.json hardhat',
      ],
    );
  });
});
