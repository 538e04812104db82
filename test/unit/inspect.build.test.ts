import * as assert from 'assert';
import * as fs from 'fs';
import { createRequire } from 'module';
import * as path from 'path';
import {
  encodeAbiParameters,
  encodeErrorResult,
  encodeFunctionData,
  encodeFunctionResult,
  getAddress,
  keccak256,
  parseAbi,
  parseAbiParameters,
  stringToHex,
  toEventSelector,
} from 'viem';
import { AbiRegistry, sourcifyRegistry } from '../../src/api/decode/abi';
import { type AbiFile, normalizeAbi } from '../../src/api/decode/abiFiles';
import {
  buildEvents,
  buildOverview,
  buildStateChanges,
  buildTransfers,
  candidateKeys,
  type InspectContext,
  isCreationTransaction,
  type StorageLayout,
} from '../../src/api/inspect/build';
import { parseJson } from '../../src/api/json';
import type {
  ContractAction,
  ContractLog,
  ContractResultDetails,
  StateChange,
  TransactionDetail,
} from '../../src/api/mirrorTypes';

/** The mirror node's REST spec tests (../shared beside the repository, as CI has it), parsed losslessly. */
const SPECS = path.join(__dirname, '../../../../shared/fixtures/mirror/specs');
function spec<T>(rel: string): T {
  return parseJson(fs.readFileSync(path.join(SPECS, rel), 'utf8')) as T;
}
const result = (name: string): ContractResultDetails =>
  spec<{ responseJson: ContractResultDetails }>(`contracts/results/{id}/${name}.json`).responseJson;
const transactions = (name: string): TransactionDetail[] =>
  spec<{ responseJson: { transactions: TransactionDetail[] } }>(`transactions/{id}/${name}.json`).responseJson
    .transactions;
const actionsOf = (name: string): ContractAction[] =>
  spec<{ responseJson: { actions: ContractAction[] } }>(`contracts/results/{id}/actions/${name}.json`).responseJson
    .actions;

const lz = (n: number): `0x${string}` => `0x${n.toString(16).padStart(40, '0')}`;
/** A top-level CALL action (depth 0, index 0), with what differs. */
const action = (over: Partial<ContractAction>): ContractAction => ({
  call_depth: 0,
  call_operation_type: 'CALL',
  call_type: 'CALL',
  caller: '0.0.1001',
  caller_type: 'ACCOUNT',
  from: lz(1001),
  gas: 100000,
  gas_used: 50000,
  index: 0,
  input: '0x',
  recipient: '0.0.5001',
  recipient_type: 'CONTRACT',
  result_data: '0x',
  result_data_type: 'OUTPUT',
  timestamp: '167654.000123456',
  to: lz(5001),
  value: 0,
  ...over,
});
/** A transaction record of that type at that timestamp (the rest as a real one has it). */
const record = (name: string, timestamp: string): TransactionDetail => ({
  ...transactions('return-multiple-nonce')[0],
  name,
  consensus_timestamp: timestamp,
  nonce: 0,
  parent_consensus_timestamp: null,
});
const pad = (v: bigint): string => v.toString(16).padStart(64, '0');
const word = (v: bigint): string => `0x${pad(v)}`;
const topic = (address: string): string => `0x${address.slice(2).toLowerCase().padStart(64, '0')}`;
const UINT256_MAX = 2n ** 256n - 1n;
const ALIAS = '0x8a71dd444b077c45f2ca828082aa6c726a879555' as const;

/** A contract compiled with the real solc 0.8.28 (ABI, creation bytecode, storage layout). */
const TOKEN_SOURCE = `// SPDX-License-Identifier: MIT
pragma solidity ^0.8.28;
contract Vault {
  event Deposit(address indexed who, uint256 amount, string note);
  error Closed(address by);
  uint64 public fee;
  bool public paused;
  address public owner;
  mapping(address => uint256) public balances;
  constructor(uint64 fee_) { fee = fee_; owner = msg.sender; }
  function deposit(string calldata note) external payable returns (uint256) { balances[msg.sender] += msg.value; emit Deposit(msg.sender, msg.value, note); return balances[msg.sender]; }
}`;
interface Compiled {
  abi: unknown[];
  bytecode: string;
  layout: StorageLayout;
}
let compiled: Compiled;
function compile(): Compiled {
  const solc = createRequire(__filename)('solc') as { compile(input: string): string };
  const input = {
    language: 'Solidity',
    sources: { 'contracts/Vault.sol': { content: TOKEN_SOURCE } },
    settings: { outputSelection: { '*': { '*': ['abi', 'evm.bytecode.object', 'storageLayout'] } } },
  };
  const out = JSON.parse(solc.compile(JSON.stringify(input))) as {
    errors?: Array<{ severity: string; formattedMessage: string }>;
    contracts: Record<
      string,
      Record<string, { abi: unknown[]; evm: { bytecode: { object: string } }; storageLayout: StorageLayout }>
    >;
  };
  assert.deepStrictEqual(
    (out.errors ?? []).filter((e) => e.severity === 'error').map((e) => e.formattedMessage),
    [],
  );
  const c = out.contracts['contracts/Vault.sol'].Vault;
  return { abi: c.abi, bytecode: `0x${c.evm.bytecode.object}`, layout: c.storageLayout };
}
const vaultFile = (): AbiFile => ({
  source: 'artifacts/contracts/Vault.sol/Vault.json',
  contractName: 'Vault',
  format: 'hardhat',
  abi: normalizeAbi(compiled.abi),
  bytecode: compiled.bytecode,
  constructorInputs: [{ name: 'fee_', type: 'uint64' }],
  sourceName: 'contracts/Vault.sol',
});
const VAULT_ABI = parseAbi([
  'function deposit(string note) payable returns (uint256)',
  'event Deposit(address indexed who, uint256 amount, string note)',
  'error Closed(address by)',
]);

describe('inspect: overview, events, state changes and transfers (src/api/inspect/build.ts)', () => {
  before(function () {
    this.timeout(60_000);
    compiled = compile();
  });

  describe('overview', () => {
    it('the real result by transaction id: ids for long-zero addresses, the alias beside, value, gas, block; the transaction record of its timestamp gives fee and related transactions', () => {
      const txs = transactions('return-multiple-nonce');
      // the result of the child at nonce 1 (same shape as the spec's result, the record's timestamp)
      const r = { ...result('transactionid-or-hash'), timestamp: txs[1].consensus_timestamp };
      const m = buildOverview(r, txs, {}, { nonce: 1 });
      assert.deepStrictEqual([m.result, m.outcome, m.timestamp], ['SUCCESS', 'success', '1234567890.000000045']);
      assert.match(m.timeLocal, /^2009-02-1[34] \d\d:\d\d:\d\d$/);
      assert.deepStrictEqual(m.from, { id: '0.0.8001', kind: 'account' });
      assert.deepStrictEqual(m.to, {
        id: '0.0.5001',
        evm: '0x25fe26adc577cc89172e6156c9e24f7b9751b762',
        kind: 'contract',
      });
      assert.deepStrictEqual(m.created, [{ id: '0.0.7001', kind: 'contract' }]);
      assert.deepStrictEqual(m.value, { tinybars: '2000000000', hbar: '20 ℏ' });
      assert.deepStrictEqual(m.gas, { limit: '1000000', used: '123', consumed: '123', ratio: 0.000123 });
      assert.deepStrictEqual(m.block, { number: '17', hash: '0x6ceecd8bb224da491' });
      assert.deepStrictEqual(
        [m.gasPrice, m.ethNonce, m.hash],
        ['1250000000', '1', '0x4a563af33c4871b51a8b108aa2fe1dd5280a30dfb7236170ae5e5e7957eb6392'],
      );
      assert.deepStrictEqual(
        [m.transactionId, m.nonce, m.type],
        ['0.0.10-1234567890-000000001', '1', 'CRYPTOTRANSFER'],
      );
      assert.deepStrictEqual(m.fee, { tinybars: '8', hbar: '0.00000008 ℏ' });
      assert.deepStrictEqual(
        m.related.map((x) => [x.nonce, x.relation, x.timestamp]),
        [
          ['0', 'parent', '1234567890.000000040'],
          ['1', 'self', '1234567890.000000045'],
          ['2', 'child', '1234567890.000000050'],
        ],
      );
      assert.deepStrictEqual([m.input, m.outputRaw, m.call, m.notes], ['0x0707', '0x0606', undefined, []]);
    });

    it("a partial result (206): failure with the server's reason, gas used missing said in a note, no related transactions without records", () => {
      const m = buildOverview(result('result-partial-result'), undefined, {});
      assert.deepStrictEqual([m.result, m.outcome], ['CONTRACT_REVERT_EXECUTED', 'failure']);
      assert.deepStrictEqual(m.error, { kind: 'text', text: 'CONTRACT_REVERT_EXECUTED' });
      assert.deepStrictEqual(m.gas, { limit: '1000000', used: '', ratio: 0 });
      assert.deepStrictEqual(m.value, { tinybars: '3000000000', hbar: '30 ℏ' });
      assert.deepStrictEqual(m.to, { id: '0.0.5001', kind: 'contract' });
      assert.deepStrictEqual(m.related, []);
      assert.deepStrictEqual(m.notes, ['The mirror node did not report the gas used.']);
    });

    it('a failed creation keeps its init code; call data the mirror node could not read from its file is said', () => {
      // a creation by its transaction: a ContractCreate record, or a CREATE at the top of its actions
      const create = result('failed-contractcreate');
      const NOTE = 'The contract creation failed; its init code (2 bytes) is kept in failed_initcode.';
      const failed = buildOverview(create, [record('CONTRACTCREATEINSTANCE', create.timestamp)], {});
      assert.deepStrictEqual(failed.error, { kind: 'text', text: 'fatal' });
      assert.ok(failed.notes.includes(NOTE), failed.notes.join('|'));
      assert.strictEqual(
        failed.input,
        'init code, 2 bytes',
        'the init code failed_initcode keeps (the call data are the constructor parameters)',
      );
      const byActions = buildOverview(
        create,
        [],
        {},
        { actions: [action({ call_operation_type: 'CREATE', call_type: 'CREATE' })] },
      );
      assert.ok(byActions.notes.includes(NOTE), byActions.notes.join('|'));
      // nothing tells it is a creation (an Ethereum transaction, no actions read yet): failed_initcode alone never does
      const unknown = buildOverview(create, [record('ETHEREUMTRANSACTION', create.timestamp)], {});
      assert.ok(!unknown.notes.some((n) => /creation/.test(n)), unknown.notes.join('|'));
      assert.strictEqual(unknown.input, '0x0707');
      const empty = buildOverview(result('transactionid-or-hash-call-data-invalid-file'), undefined, {});
      assert.deepStrictEqual(empty.notes, [
        'No call data: a plain HBAR transfer to the contract, or call data in a file the mirror node could not read.',
      ]);
      const gas = buildOverview(result('failed-ethereum-transaction-with-default-contract-result'), undefined, {});
      assert.deepStrictEqual(
        [gas.result, gas.error?.text, gas.from?.id],
        ['CONSENSUS_GAS_EXHAUSTED', 'CONSENSUS_GAS_EXHAUSTED', '0.0.8000'],
      );
    });

    it('a reverted Ethereum call is not a failed creation, though the mirror node puts its call data in failed_initcode', () => {
      // the real server fills failed_initcode with the call data of any failed Ethereum transaction
      // (ContractResultDetailsViewModel; this spec is a call: it has a to_address)
      const spec = result('failed-ethereum-transaction-with-contract-result-with-nullable-to');
      assert.strictEqual(spec.failed_initcode, spec.function_parameters);
      const plain = buildOverview(spec, undefined, {});
      assert.ok(!plain.notes.some((n) => /creation/.test(n)), plain.notes.join('|'));
      assert.strictEqual(plain.input, '0x0707');
      // as a real mirror node sends it: a reverted call with 36 bytes of call data, its record an Ethereum
      // transaction and its actions a CALL at the top; the call is decoded as a call, not as a constructor
      const registry = new AbiRegistry([vaultFile()]);
      const data = encodeFunctionData({ abi: VAULT_ABI, functionName: 'deposit', args: [''] });
      const reverted: ContractResultDetails = {
        ...spec,
        result: 'CONTRACT_REVERT_EXECUTED',
        error_message: encodeErrorResult({ abi: VAULT_ABI, errorName: 'Closed', args: [ALIAS] }),
        function_parameters: data,
        failed_initcode: data,
        created_contract_ids: [],
        contract_id: '0.0.5001',
        address: lz(5001),
        to: lz(5001),
      };
      const actions = [
        action({ call_depth: 1, index: 1 }),
        action({ call_operation_type: 'CALL', call_type: 'CALL', to: lz(5001), input: data }),
      ];
      for (const m of [
        buildOverview(reverted, undefined, { registry }),
        buildOverview(reverted, [record('ETHEREUMTRANSACTION', reverted.timestamp)], { registry }, { actions }),
      ]) {
        assert.ok(!m.notes.some((n) => /creation|init code/.test(n)), m.notes.join('|'));
        assert.strictEqual(m.input, data);
        assert.deepStrictEqual([m.call?.name, m.error?.text], ['deposit', `Closed(by=${getAddress(ALIAS)})`]);
      }
      const short = `0x2e1a7d4d${pad(1000n)}`; // withdraw(uint256): 36 bytes
      const m36 = buildOverview(
        { ...reverted, function_parameters: short, failed_initcode: short },
        [record('ETHEREUMTRANSACTION', reverted.timestamp)],
        {},
        { actions },
      );
      assert.ok(!m36.notes.some((n) => /creation/.test(n)), m36.notes.join('|'));
    });

    it('isCreationTransaction: the top-level action, else the record, else the result; never failed_initcode', () => {
      const r = result('failed-ethereum-transaction-with-contract-result-with-nullable-to');
      assert.strictEqual(isCreationTransaction(r, undefined, undefined), false);
      // the frame of the smallest depth (then index), whatever order the actions came in
      const inner = action({ call_depth: 1, index: 1, call_operation_type: 'CREATE2', call_type: 'CREATE' });
      assert.strictEqual(
        isCreationTransaction(r, undefined, [inner, action({ call_operation_type: 'CALL', call_type: 'CALL' })]),
        false,
        'a CALL that creates a contract inside',
      );
      assert.strictEqual(
        isCreationTransaction(r, undefined, [inner, action({ call_operation_type: 'CREATE2', call_type: 'CREATE' })]),
        true,
      );
      assert.strictEqual(
        isCreationTransaction(r, undefined, [action({ call_operation_type: null, call_type: 'CREATE' })]),
        true,
      );
      assert.strictEqual(isCreationTransaction(r, record('CONTRACTCREATEINSTANCE', r.timestamp), undefined), true);
      assert.strictEqual(isCreationTransaction(r, record('CONTRACTCALL', r.timestamp), undefined), false);
      // the actions win over the record and the result; malformed entries are skipped
      assert.strictEqual(
        isCreationTransaction({ ...r, created_contract_ids: ['0.0.5001'], contract_id: '0.0.5001' }, undefined, [
          null as unknown as ContractAction,
          action({}),
        ]),
        false,
      );
      assert.strictEqual(
        isCreationTransaction({ ...r, created_contract_ids: ['0.0.5001'], contract_id: '0.0.5001' }, undefined, []),
        true,
      );
    });

    it('the called function decoded with the workspace ABI of the contract, its return value, and a custom error on failure', () => {
      const registry = new AbiRegistry([vaultFile()]);
      const base = result('transactionid-or-hash');
      const ok = buildOverview(
        {
          ...base,
          function_parameters: encodeFunctionData({
            abi: VAULT_ABI,
            functionName: 'deposit',
            args: ['<b>hi</b>\u202e'],
          }),
          call_result: encodeFunctionResult({ abi: VAULT_ABI, functionName: 'deposit', result: UINT256_MAX }),
        },
        undefined,
        { registry, nameOf: (a) => (a === base.address ? 'Vault' : undefined) },
      );
      assert.deepStrictEqual(ok.call, {
        name: 'deposit',
        signature: 'deposit(string)',
        selector: '0xa26e1186',
        args: [{ name: 'note', type: 'string', value: '"<b>hi</b>\\u202e"' }],
        source: 'workspace: artifacts/contracts/Vault.sol/Vault.json',
      });
      assert.deepStrictEqual(ok.output, [{ name: 'value', type: 'uint256', value: UINT256_MAX.toString() }]);
      assert.strictEqual(ok.to?.name, 'Vault');
      const bad = buildOverview(
        {
          ...base,
          result: 'CONTRACT_REVERT_EXECUTED',
          status: '0x0',
          function_parameters: encodeFunctionData({ abi: VAULT_ABI, functionName: 'deposit', args: [''] }),
          error_message: encodeErrorResult({ abi: VAULT_ABI, errorName: 'Closed', args: [ALIAS] }),
        },
        undefined,
        { registry },
      );
      assert.deepStrictEqual(
        [bad.outcome, bad.error?.kind, bad.error?.text, bad.output],
        ['failure', 'custom', `Closed(by=${getAddress(ALIAS)})`, undefined],
      );
    });

    it('a contract creation: the artifact whose bytecode the init code starts with, its constructor arguments', () => {
      const registry = new AbiRegistry([vaultFile()]);
      const init = `${compiled.bytecode}${encodeAbiParameters(parseAbiParameters('uint64'), [18446744073709551615n]).slice(2)}`;
      const m = buildOverview(
        { ...result('transactionid-or-hash'), function_parameters: init, created_contract_ids: ['0.0.5001'] },
        undefined,
        { registry },
      );
      assert.deepStrictEqual(m.call, {
        name: 'Vault',
        signature: 'constructor(uint64)',
        selector: '',
        args: [{ name: 'fee_', type: 'uint64', value: '18446744073709551615' }],
        source: 'workspace: artifacts/contracts/Vault.sol/Vault.json',
      });
      assert.strictEqual(m.input, `init code, ${(init.length - 2) / 2} bytes`);
    });

    it('numbers past 2^53 keep every digit; malformed answers never throw', () => {
      const text = JSON.stringify({
        ...result('transactionid-or-hash'),
        amount: 0,
        gas_limit: 0,
        gas_used: 0,
        block_number: 0,
      })
        .replace('"amount":0', '"amount":18446744073709551616')
        .replace('"gas_limit":0', '"gas_limit":9007199254740993')
        .replace('"gas_used":0', '"gas_used":9007199254740993')
        .replace('"block_number":0', '"block_number":9223372036854775807');
      const m = buildOverview(parseJson(text) as ContractResultDetails, undefined, {});
      assert.deepStrictEqual(m.value, { tinybars: '18446744073709551616', hbar: '184467440737.09551616 ℏ' });
      assert.deepStrictEqual(
        [m.gas.limit, m.gas.used, m.gas.ratio, m.block?.number],
        ['9007199254740993', '9007199254740993', 1, '9223372036854775807'],
      );
      for (const bad of [
        null,
        {},
        { timestamp: 5, from: 7, logs: 'x', created_contract_ids: 'x', amount: { a: 1 } },
      ] as unknown as ContractResultDetails[]) {
        const o = buildOverview(bad, [null, 3] as unknown as TransactionDetail[], { registry: new AbiRegistry() });
        assert.strictEqual(o.outcome, 'unknown');
        assert.ok(o.notes.length > 0);
      }
    });
  });

  describe('events', () => {
    const T = '0xddf252ad1be2c89b69c2b068fc378daa952ba7f163c4a11628f55a4df523b3ef';
    const log = (o: Partial<ContractLog>): ContractLog => ({
      address: lz(0x4567),
      bloom: '0x',
      contract_id: '0.0.17767',
      data: '0x',
      index: 0,
      topics: [],
      ...o,
    });

    it('ERC-20 and ERC-721 Transfer told apart by the number of topics; ERC-1155 TransferSingle; big numbers whole', () => {
      const from = lz(1001);
      const to = ALIAS;
      const erc20 = log({ index: 0, topics: [T, topic(from), topic(to)], data: word(UINT256_MAX) });
      const erc721 = log({ index: 1, topics: [T, topic(from), topic(to), word(2n ** 64n)], data: '0x' });
      const single = log({
        index: 2,
        topics: [
          toEventSelector('TransferSingle(address,address,address,uint256,uint256)'),
          topic(from),
          topic(from),
          topic(to),
        ],
        data: encodeAbiParameters(parseAbiParameters('uint256, uint256'), [7n, 9007199254740993n]),
      });
      const [a, b, c] = buildEvents([erc20, erc721, single], {});
      assert.deepStrictEqual(
        [a.name, a.source, a.args?.map((x) => [x.name, x.value, x.indexed])],
        [
          'Transfer',
          'ERC-20',
          [
            ['from', getAddress(from), true],
            ['to', getAddress(to), true],
            ['value', UINT256_MAX.toString(), false],
          ],
        ],
      );
      assert.deepStrictEqual(
        [b.name, b.source, b.args?.map((x) => [x.name, x.value, x.indexed])],
        [
          'Transfer',
          'ERC-721',
          [
            ['from', getAddress(from), true],
            ['to', getAddress(to), true],
            ['tokenId', '18446744073709551616', true],
          ],
        ],
      );
      assert.deepStrictEqual(
        [c.name, c.source, c.signature, c.args?.map((x) => x.value)],
        [
          'TransferSingle',
          'ERC-1155',
          'TransferSingle(address,address,address,uint256,uint256)',
          [getAddress(from), getAddress(from), getAddress(to), '7', '9007199254740993'],
        ],
      );
      assert.deepStrictEqual(a.emitter, { id: '0.0.17767', kind: 'contract' });
      assert.deepStrictEqual(a.topics, erc20.topics);
      assert.strictEqual(a.data, erc20.data);
    });

    it('the workspace ABI of the emitter first (deployment record), then any workspace ABI, then Sourcify; undecodable logs keep topics and data', () => {
      const emitter = lz(5001);
      const other = {
        source: 'artifacts/contracts/Other.sol/Other.json',
        contractName: 'Other',
        format: 'hardhat',
        abi: normalizeAbi(
          parseAbi(['event Deposit(address indexed account, uint256 value, string memo)', 'event Other()']),
        ),
      } as AbiFile;
      const registry = new AbiRegistry([other, { ...vaultFile(), address: emitter }]);
      const data = encodeAbiParameters(parseAbiParameters('uint256, string'), [5n, 'for <you>\n']);
      const deposit = log({
        address: emitter,
        contract_id: '0.0.5001',
        topics: [toEventSelector('Deposit(address,uint256,string)'), topic(ALIAS)],
        data,
      });
      const elsewhere = log({ address: lz(6006), contract_id: '0.0.6006', topics: deposit.topics, data });
      const mystery = parseAbi(['event Mystery(uint8 level)']);
      const sourcified = log({
        address: lz(7007),
        contract_id: '0.0.7007',
        topics: [toEventSelector('Mystery(uint8)')],
        data: word(3n),
      });
      const unknown = log({ topics: [`0x${'11'.repeat(32)}`, `0x${'22'.repeat(32)}`], data: '0xdead' });
      const ctx: InspectContext = {
        registry,
        contractAbi: (a) => (a === lz(7007) ? sourcifyRegistry(mystery, a, 296) : undefined),
      };
      const [d, e, s, u] = buildEvents([deposit, elsewhere, sourcified, unknown], ctx);
      assert.deepStrictEqual(
        [d.source, d.args?.map((x) => x.name)],
        ['workspace: artifacts/contracts/Vault.sol/Vault.json', ['who', 'amount', 'note']],
      );
      assert.strictEqual(d.args?.[2].value, '"for <you>\\n"');
      assert.deepStrictEqual(
        [e.source, e.args?.map((x) => x.name)],
        ['workspace: artifacts/contracts/Other.sol/Other.json', ['account', 'value', 'memo']],
      );
      assert.deepStrictEqual([s.name, s.source, s.args?.[0].value], ['Mystery', 'Sourcify', '3']);
      assert.deepStrictEqual(u, {
        index: 0,
        emitter: { id: '0.0.17767', kind: 'contract' },
        topics: unknown.topics,
        data: '0xdead',
      });
    });

    it('an indexed string argument: its hash, and the string when a candidate hashes to it', () => {
      const abi = parseAbi(['event Named(string indexed name, uint256 n)']);
      const registry = new AbiRegistry([
        { source: 'n.json', contractName: 'N', format: 'abi', abi: normalizeAbi(abi) },
      ]);
      const hash = keccak256(stringToHex('gold'));
      const l = log({ topics: [toEventSelector('Named(string,uint256)'), hash], data: word(1n) });
      assert.strictEqual(buildEvents([l], { registry })[0].args?.[0].value, hash);
      assert.strictEqual(
        buildEvents([l], { registry }, ['"silver"', '"gold"'])[0].args?.[0].value,
        `${hash} = keccak256("gold")`,
      );
    });

    it('the real spec logs (unknown events) and malformed logs never throw', () => {
      const evs = buildEvents(result('transactionid-or-hash').logs, {});
      assert.deepStrictEqual(
        evs.map((e) => [e.index, e.emitter.id, e.name, e.topics.length]),
        [
          [0, '0.0.5001', undefined, 4],
          [1, '0.0.5002', undefined, 2],
        ],
      );
      assert.deepStrictEqual(buildEvents(null, {}), []);
      const weird = buildEvents(
        [
          null,
          { topics: null, data: null, address: null, contract_id: null, index: null },
          { topics: [5, T], data: 7 },
        ] as unknown as ContractLog[],
        {},
      );
      assert.deepStrictEqual(
        weird.map((e) => [e.index, e.topics, e.data, e.name]),
        [
          [0, [], '', undefined],
          [1, [T], '', undefined],
        ],
      );
    });
  });

  describe('state changes', () => {
    it("named with the contract's solc layout: balances[from] with the key from the transaction, packed fee and paused, raw slots labelled by absence; grouped per contract", () => {
      const base = result('transactionid-or-hash');
      const from = base.from!;
      const slotOf = (key: string, s: bigint) => keccak256(`0x${key.slice(2).padStart(64, '0')}${pad(s)}`);
      const recipient = '0x70f2b2914a2a4b783faefb75f459a580616fcb5e'; // the call's recipient in the actions
      const balanceSlot = slotOf(from, 1n);
      const otherSlot = slotOf(recipient, 1n);
      const owner = BigInt(ALIAS) << 72n;
      const changes: StateChange[] = [
        ...base.state_changes!,
        {
          address: base.address,
          contract_id: '0.0.5001',
          slot: balanceSlot,
          value_read: word(0n),
          value_written: word(10n ** 20n),
        },
        {
          address: base.address,
          contract_id: '0.0.5001',
          slot: word(0n),
          value_read: word(5n | owner),
          value_written: word(5n | (1n << 64n) | owner),
        },
        {
          address: base.address,
          contract_id: '0.0.5001',
          slot: otherSlot,
          value_read: word(UINT256_MAX),
          value_written: null,
        },
      ];
      const ctx: InspectContext = {
        storageLayout: (a) =>
          a === base.address ? { layout: compiled.layout, source: 'artifacts/build-info/abc.json' } : undefined,
      };
      const views = buildStateChanges(changes, ctx, candidateKeys(base, actionsOf('no-params')));
      assert.deepStrictEqual(
        views.map((v) => [v.contract.id, v.slot.slice(-4)]),
        [
          ['0.0.5001', '0101'],
          ['0.0.5001', balanceSlot.slice(-4)],
          ['0.0.5001', '0000'],
          ['0.0.5001', otherSlot.slice(-4)],
          ['0.0.5002', '0202'],
        ],
      );
      assert.strictEqual(views[0].variable, undefined, 'slot 0x101: no variable of the layout');
      assert.deepStrictEqual(views[1].variable, {
        label: `balances[${from}]`,
        type: 'uint256',
        before: '0',
        after: '100000000000000000000',
        layoutSource: 'artifacts/build-info/abc.json',
      });
      assert.deepStrictEqual(views[2].variable, {
        label: 'paused',
        type: 'bool',
        before: 'false',
        after: 'true',
        layoutSource: 'artifacts/build-info/abc.json',
      });
      assert.deepStrictEqual(
        views[2].variables?.map((v) => [v.label, v.type, v.before, v.after]),
        [
          ['fee', 'uint64', '5', '5'],
          ['paused', 'bool', 'false', 'true'],
          ['owner', 'address', ALIAS, ALIAS],
        ],
      );
      assert.deepStrictEqual(
        [views[3].written, views[3].variable],
        [
          undefined,
          {
            label: `balances[${recipient}]`,
            type: 'uint256',
            before: UINT256_MAX.toString(),
            layoutSource: 'artifacts/build-info/abc.json',
          },
        ],
      );
      const raw = base.state_changes![1];
      assert.deepStrictEqual(
        views[4],
        {
          contract: { id: '0.0.5002', kind: 'contract' },
          slot: raw.slot,
          read: raw.value_read,
          written: raw.value_written,
        },
        'no layout for 0.0.5002: raw',
      );
    });

    it('candidateKeys: participants (EVM and long-zero), words of call data, topics and results, strings of decoded calls; bounded', () => {
      const base = result('transactionid-or-hash');
      const registry = new AbiRegistry([vaultFile()]);
      const r = {
        ...base,
        function_parameters: encodeFunctionData({ abi: VAULT_ABI, functionName: 'deposit', args: ['gold'] }),
      };
      const keys = candidateKeys(r, actionsOf('no-params'), { registry });
      for (const k of [
        base.from,
        base.address,
        lz(5001),
        lz(7001),
        '0x70f2b2914a2a4b783faefb75f459a580616fcb5e',
        lz(8001),
        '"gold"',
        '291',
      ])
        assert.ok(keys.includes(k!), `${k} in ${keys.join(' ')}`);
      assert.ok(keys.includes('0xe8d47b56e8cdfa95f871b19d4f50a857217c44a95502b0811a350fec1500dd67'), 'a 32-byte topic');
      const many = {
        ...base,
        function_parameters: `0x12345678${Array.from({ length: 5000 }, (_, i) => pad(BigInt(i + 1))).join('')}`,
      };
      assert.ok(candidateKeys(many, []).length <= 1024);
      assert.deepStrictEqual(candidateKeys(null, null), []);
    });

    it('malformed changes and layouts never throw', () => {
      const ctx: InspectContext = {
        storageLayout: () => ({ layout: { storage: 'x' } as unknown as StorageLayout, source: 's' }),
      };
      const v = buildStateChanges(
        [
          null,
          { slot: null, value_read: null, value_written: 5, address: null, contract_id: null },
        ] as unknown as StateChange[],
        ctx,
        ['x', 5] as unknown as string[],
      );
      assert.deepStrictEqual(v, [{ contract: {}, slot: '', read: '' }]);
      assert.deepStrictEqual(buildStateChanges(undefined, {}), []);
    });
  });

  describe('transfers', () => {
    it('HBAR, token and NFT transfers of real transaction records, the fee and the payer; serials past 2^53 whole', () => {
      const nft = buildTransfers(transactions('nft-transfers')[0]);
      assert.deepStrictEqual(nft.payer, { id: '0.0.8', kind: 'account' });
      assert.deepStrictEqual(nft.fee, { tinybars: '7', hbar: '0.00000007 ℏ' });
      assert.deepStrictEqual(
        nft.transfers.filter((t) => t.kind === 'hbar').map((t) => [t.account?.id, t.amount, t.hbar]),
        [
          ['0.0.3', '2', '0.00000002 ℏ'],
          ['0.0.8', '-3', '-0.00000003 ℏ'],
          ['0.0.98', '1', '0.00000001 ℏ'],
        ],
      );
      assert.deepStrictEqual(
        nft.transfers
          .filter((t) => t.kind === 'nft')
          .map((t) => [t.token?.id, t.serial, t.sender?.id, t.receiver?.id, t.isApproval]),
        [
          ['0.0.90000', '1', '0.0.3', '0.0.8', true],
          ['0.0.90000', '2', '0.0.3', '0.0.9', false],
          ['0.0.90000', '9223372036847275807', '0.0.3', '0.0.10', false],
        ],
      );
      const tok = buildTransfers(transactions('tokentransfer')[0]);
      assert.deepStrictEqual(
        tok.transfers
          .filter((t) => t.kind === 'token')
          .map((t) => [t.account?.id, t.token?.id, t.amount, t.isApproval]),
        [
          ['0.0.200', '0.0.90000', '200', false],
          ['0.0.300', '0.0.90000', '-1200', true],
          ['0.0.400', '0.0.90000', '1000', true],
        ],
      );
      assert.deepStrictEqual(tok.payer, { id: '0.0.300', kind: 'account' });
    });

    it('a record without transfers, and malformed records, never throw', () => {
      assert.deepStrictEqual(
        buildTransfers(transactions('no-transfers')[0]).transfers.filter((t) => t.kind !== 'hbar'),
        [],
      );
      assert.deepStrictEqual(buildTransfers(null), { transfers: [] });
      assert.deepStrictEqual(
        buildTransfers({
          transfers: null,
          token_transfers: [null],
          nft_transfers: 'x',
          transaction_id: '<b>',
        } as unknown as TransactionDetail),
        { transfers: [] },
      );
    });
  });
});
