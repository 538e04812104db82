import * as assert from 'assert';
import { encodeErrorResult, encodeFunctionData } from 'viem';
import type { Abi } from 'viem';
import { createRegistry, decodeContractResult } from '../../src/api/decode';
import { normalizeAbi, parseAbiFile } from '../../src/api/decode/abiFiles';
import type { AbiFile } from '../../src/api/decode/abiFiles';

const fn = (name: string, inputs: Array<[string, string]>) => ({
  type: 'function',
  name,
  stateMutability: 'nonpayable',
  inputs: inputs.map(([n, t]) => ({ name: n, type: t })),
  outputs: [],
});
const ERC20 = [
  fn('transfer', [
    ['to', 'address'],
    ['value', 'uint256'],
  ]),
  fn('approve', [
    ['spender', 'address'],
    ['value', 'uint256'],
  ]),
  {
    type: 'error',
    name: 'ERC20InsufficientBalance',
    inputs: [
      { name: 'sender', type: 'address' },
      { name: 'balance', type: 'uint256' },
      { name: 'needed', type: 'uint256' },
    ],
  },
  {
    type: 'event',
    name: 'Transfer',
    inputs: [
      { name: 'from', type: 'address', indexed: true },
      { name: 'to', type: 'address', indexed: true },
      { name: 'value', type: 'uint256' },
    ],
  },
];
const RIG = [
  ...ERC20,
  fn('mint', [
    ['to', 'address'],
    ['amount', 'uint256'],
  ]),
  { type: 'error', name: 'OnlyAdmin', inputs: [] },
];

/** A Hardhat 2 artifact's text, as `npx hardhat compile` writes it. */
const hh2 = (sourceName: string, contractName: string, abi: unknown) =>
  JSON.stringify({
    _format: 'hh-sol-artifact-1',
    contractName,
    sourceName,
    abi,
    bytecode: '0x6080',
    deployedBytecode: '0x6080',
    linkReferences: {},
    deployedLinkReferences: {},
  });
const art = (sourceName: string, name: string, abi: unknown): AbiFile =>
  parseAbiFile(`artifacts/${sourceName}/${name}.json`, hh2(sourceName, name, abi))!;

const X = '0x00000000000000000000000000000000000004d2';
const Y = '0x00000000000000000000000000000000000004d3';
const ALICE = '0x8a71dd444b077c45f2ca828082aa6c726a879555';

describe('decoding: which artifact names the call', () => {
  const base = art('@openzeppelin/contracts/token/ERC20/ERC20.sol', 'ERC20', ERC20);
  const rig = art('contracts/RigToken.sol', 'RigToken', RIG);
  const files = [base, rig].sort((a, b) => (a.source < b.source ? -1 : 1));
  const transfer = encodeFunctionData({ abi: ERC20 as Abi, functionName: 'transfer', args: [ALICE, 5n] });

  it('the same contract in two builds (artifacts/ and artifacts-opt/): the label names both and does not say which was deployed', () => {
    const opt = parseAbiFile(
      'artifacts-opt/contracts/RigToken.sol/RigToken.json',
      hh2('contracts/RigToken.sol', 'RigToken', RIG),
    )!;
    const d = decodeContractResult(
      { function_parameters: transfer, call_result: '0x', error_message: null, to: X },
      false,
      createRegistry([opt, rig], {
        deployments: [{ address: X, contractName: 'RigToken', sourceName: 'contracts/RigToken.sol' }],
      }),
    );
    const label = d?.call?.origin.label ?? '';
    assert.ok(
      label.includes('artifacts-opt/contracts/RigToken.sol/RigToken.json') &&
        label.includes('artifacts/contracts/RigToken.sol/RigToken.json'),
      label,
    );
    assert.match(label, /2 builds in the workspace.*not checked/);
    // one build: its file, as before
    const one = decodeContractResult(
      { function_parameters: transfer, call_result: '0x', error_message: null, to: X },
      false,
      createRegistry([rig]),
    );
    assert.strictEqual(one?.call?.origin.label, 'artifacts/contracts/RigToken.sol/RigToken.json');
  });

  it("artifacts say their source name (Hardhat 2 and 3, Foundry's compilation target) and hardhat-deploy records their address", () => {
    assert.strictEqual(rig.sourceName, 'contracts/RigToken.sol');
    const hh3 = parseAbiFile(
      'artifacts/contracts/RigToken.sol/RigToken.json',
      JSON.stringify({
        _format: 'hh3-artifact-1',
        contractName: 'RigToken',
        sourceName: 'contracts/RigToken.sol',
        abi: RIG,
        bytecode: '0x',
        deployedBytecode: '0x',
        linkReferences: {},
        deployedLinkReferences: {},
        immutableReferences: {},
        inputSourceName: 'project/contracts/RigToken.sol',
        buildInfoId: 'solc-0_8_28-abc',
      }),
    )!;
    assert.deepStrictEqual([hh3.sourceName, hh3.buildInfoId], ['contracts/RigToken.sol', 'solc-0_8_28-abc']);
    const forge = parseAbiFile(
      'out/RigToken.sol/RigToken.json',
      JSON.stringify({
        abi: RIG,
        bytecode: { object: '0x', sourceMap: '', linkReferences: {} },
        metadata: { settings: { compilationTarget: { 'src/RigToken.sol': 'RigToken' } } },
      }),
    )!;
    assert.deepStrictEqual(
      [forge.format, forge.contractName, forge.sourceName],
      ['foundry', 'RigToken', 'src/RigToken.sol'],
    );
    const deployRecord = parseAbiFile(
      'deployments/hedera_testnet/RigToken.json',
      JSON.stringify({ address: '0x00000000000000000000000000000000000004D2', abi: RIG }),
    )!;
    assert.strictEqual(deployRecord.address, X);
  });

  it('the most derived contract (ABI superset) before the base it inherits from, whatever the path order', () => {
    assert.strictEqual(files[0], base, 'the inherited base comes first in path order');
    const d = decodeContractResult(
      { function_parameters: transfer, call_result: '0x', error_message: null, to: Y },
      false,
      createRegistry(files),
    );
    assert.strictEqual(d.call?.origin.label, 'artifacts/contracts/RigToken.sol/RigToken.json');
    const e = decodeContractResult(
      {
        function_parameters: transfer,
        call_result: '0x',
        error_message: encodeErrorResult({
          abi: ERC20 as Abi,
          errorName: 'ERC20InsufficientBalance',
          args: [ALICE, 1n, 5n],
        }),
        to: Y,
      },
      true,
      createRegistry(files),
    );
    assert.strictEqual(e.error?.origin?.label, 'artifacts/contracts/RigToken.sol/RigToken.json');
  });

  it("the build info's linearizedBaseContracts decides where the ABIs do not (equal ABIs)", () => {
    // solc's AST shape: ContractDefinition nodes with ids and linearizedBaseContracts (the contract itself first)
    const output = {
      sources: {
        'contracts/Base.sol': {
          id: 0,
          ast: {
            nodeType: 'SourceUnit',
            id: 10,
            nodes: [
              { nodeType: 'PragmaDirective', id: 1 },
              { nodeType: 'ContractDefinition', id: 5, name: 'Base', linearizedBaseContracts: [5] },
            ],
          },
        },
        'contracts/Wrapper.sol': {
          id: 1,
          ast: {
            nodeType: 'SourceUnit',
            id: 20,
            nodes: [
              { nodeType: 'ImportDirective', id: 11 },
              { nodeType: 'ContractDefinition', id: 15, name: 'Wrapper', linearizedBaseContracts: [15, 5] },
            ],
          },
        },
      },
    };
    const { basesFromOutput } =
      // eslint-disable-next-line @typescript-eslint/no-require-imports
      require('../../src/api/decode/derivation') as typeof import('../../src/api/decode/derivation');
    const bases = basesFromOutput(output);
    assert.deepStrictEqual(bases.get('contracts/Wrapper.sol:Wrapper'), ['contracts/Base.sol:Base']);
    const b = art('contracts/Base.sol', 'Base', ERC20);
    const w = art('contracts/Wrapper.sol', 'Wrapper', ERC20);
    const d = decodeContractResult(
      { function_parameters: transfer, call_result: '0x', error_message: null, to: Y },
      false,
      createRegistry([b, w], { bases }),
    );
    assert.strictEqual(d.call?.origin.label, 'artifacts/contracts/Wrapper.sol/Wrapper.json');
  });

  it('the artifact deployed at the called address first (deployment records, selected chain only), other addresses unchanged', () => {
    const other = art('contracts/Airdrop.sol', 'Airdrop', [
      fn('transfer', [
        ['recipient', 'address'],
        ['amount', 'uint256'],
      ]),
    ]);
    const all = [other, ...files];
    const deployments = [
      { address: X, contractName: 'Airdrop', sourceName: 'contracts/Airdrop.sol', chainId: 296 },
      { address: Y, contractName: 'Airdrop', chainId: 295 },
    ];
    const reg = createRegistry(all, { deployments, chainId: 296 });
    const at = (to: string) =>
      decodeContractResult({ function_parameters: transfer, call_result: '0x', error_message: null, to }, false, reg)
        .call;
    assert.deepStrictEqual(
      [at(X)?.origin.label, at(X)?.args[0].name],
      ['artifacts/contracts/Airdrop.sol/Airdrop.json', 'recipient'],
    );
    assert.strictEqual(
      at(Y)?.origin.label,
      'artifacts/contracts/RigToken.sol/RigToken.json',
      'a record of another chain does not count',
    );
    // a hardhat-deploy record carries its address itself
    const record = {
      ...parseAbiFile('deployments/hedera_testnet/Airdrop.json', JSON.stringify({ address: Y, abi: other.abi }))!,
    };
    const d = decodeContractResult(
      { function_parameters: transfer, call_result: '0x', error_message: null, to: Y },
      false,
      createRegistry([...files, record]),
    );
    assert.strictEqual(d.call?.origin.label, 'deployments/hedera_testnet/Airdrop.json');
    void normalizeAbi;
  });
});

describe('decoding: deployment records of a workspace', () => {
  const { deploymentsFromWorkspace } =
    // eslint-disable-next-line @typescript-eslint/no-require-imports
    require('../../src/workspace/derivation') as typeof import('../../src/workspace/derivation');
  // eslint-disable-next-line @typescript-eslint/no-require-imports
  const { nodeWorkspaceFs } = require('../support/nodeFs') as typeof import('../support/nodeFs');
  // eslint-disable-next-line @typescript-eslint/no-require-imports
  const { FIXTURES } = require('./helpers') as typeof import('./helpers');
  const path = require('path') as typeof import('path'); // eslint-disable-line @typescript-eslint/no-require-imports

  it('reads Ignition, hardhat-deploy and Foundry records into address → contract', async () => {
    const folders = ['hardhat-ignition', 'hardhat-deploy', 'foundry'].map((n) =>
      nodeWorkspaceFs(path.join(FIXTURES, 'workspaces', n)),
    );
    const ctx = { deployments: await deploymentsFromWorkspace(folders) };
    const at = (a: string) =>
      ctx.deployments
        ?.filter((d) => d.address === a && d.chainId === 296)
        .map((d) => `${d.sourceName ?? ''}:${d.contractName}`);
    assert.deepStrictEqual(at('0x1000000000000000000000000000000000000002'), [':Token']);
    assert.deepStrictEqual(at('0x1000000000000000000000000000000000000004'), [':Vault']);
    // hardhat-deploy's record names the source of the compilation target
    assert.ok(
      ctx.deployments?.some(
        (d) => d.address === '0x1000000000000000000000000000000000000003' && d.sourceName === 'contracts/Counter.sol',
      ),
    );
  });
});
