import * as assert from 'assert';
import * as fs from 'fs';
import * as path from 'path';
import {
  encodeAbiParameters,
  encodeErrorResult,
  encodeFunctionData,
  encodeFunctionResult,
  getAddress,
  parseAbi,
  parseAbiParameters,
} from 'viem';
import { AbiRegistry, sourcifyRegistry } from '../../src/api/decode/abi';
import { normalizeAbi } from '../../src/api/decode/abiFiles';
import { addressesToLookUp, buildTrace, type InspectContext } from '../../src/api/inspect/build';
import { parseJson } from '../../src/api/json';
import type { ContractAction } from '../../src/api/mirrorTypes';

/** The mirror node's REST spec tests (../shared beside the repository, as CI has it). */
const SPECS = path.join(__dirname, '../../../../shared/fixtures/mirror/specs');
function spec(rel: string): { responseJson?: { actions?: ContractAction[] } } {
  return parseJson(fs.readFileSync(path.join(SPECS, rel), 'utf8')) as { responseJson?: { actions?: ContractAction[] } };
}

const lz = (n: number): `0x${string}` => `0x${n.toString(16).padStart(40, '0')}`;
const ALIAS = '0x8a71dd444b077c45f2ca828082aa6c726a879555' as const;

const ROUTER_ABI = parseAbi([
  'function swap(address token, uint256 amount, string memo) returns (uint256 out)',
  'function run()',
  'function go()',
  'error Slippage(uint256 wanted, uint256 got)',
]);
const LIB_ABI = parseAbi(['function compute(uint256 x) returns (uint256)']);
const HTS_ABI = parseAbi([
  'function transferToken(address token, address sender, address recipient, int64 amount) returns (int64 responseCode)',
  'function redirectForToken(address token, bytes encodedFunctionSelector) returns (int64 responseCode, bytes response)',
  'function getPseudorandomSeed() returns (bytes32)',
]);
const ERC20 = parseAbi([
  'function balanceOf(address) view returns (uint256)',
  'function transfer(address to, uint256 amount) returns (bool)',
]);

const registry = new AbiRegistry([
  {
    source: 'artifacts/contracts/Router.sol/Router.json',
    contractName: 'Router',
    format: 'hardhat',
    abi: normalizeAbi(ROUTER_ABI),
  },
  {
    source: 'artifacts/contracts/Lib.sol/Lib.json',
    contractName: 'Lib',
    format: 'hardhat',
    abi: normalizeAbi(LIB_ABI),
  },
]);
const ctx: InspectContext = {
  registry,
  nameOf: (a) => (({ [lz(2002)]: 'Router', [lz(2003)]: 'Lib' }) as Record<string, string>)[a],
};

function act(o: Partial<ContractAction>): ContractAction {
  return {
    call_depth: 0,
    call_operation_type: 'CALL',
    call_type: 'CALL',
    caller: '0.0.1001',
    caller_type: 'ACCOUNT',
    from: lz(1001),
    gas: 400000,
    gas_used: 21000,
    index: 0,
    input: '0x',
    recipient: '0.0.2002',
    recipient_type: 'CONTRACT',
    result_data: '0x',
    result_data_type: 'OUTPUT',
    timestamp: '1700000000.000000001',
    to: lz(2002),
    value: 0,
    ...o,
  };
}

describe('inspect: the call trace (src/api/inspect/trace.ts)', () => {
  it('the real spec payloads: rows in index order whatever the order sent (order=desc), CREATE not decoded, null recipient', () => {
    const asc = buildTrace(spec('contracts/results/{id}/actions/no-params.json').responseJson!.actions!, {});
    const desc = buildTrace(spec('contracts/results/{id}/actions/order-desc.json').responseJson!.actions!, {});
    assert.deepStrictEqual(
      desc.rows.map((r) => r.index),
      [1, 2],
    );
    for (const t of [asc, desc]) {
      assert.deepStrictEqual(
        t.rows.map((r) => [r.depth, r.parent, r.descendants]),
        [
          [0, -1, 1],
          [1, 0, 0],
        ],
      );
      assert.strictEqual(t.rows[0].recipient.id, '0.0.8001');
      assert.strictEqual(t.rows[0].recipient.evm, '0x70f2b2914a2a4b783faefb75f459a580616fcb5e');
      assert.strictEqual(t.rows[0].caller.id, '0.0.5001');
      assert.deepStrictEqual(t.rows[0].value, { tinybars: '100', hbar: '0.000001 ℏ' });
      assert.strictEqual(t.rows[1].callType, 'CREATE');
      assert.strictEqual(t.rows[1].call, undefined);
      assert.strictEqual(t.deepestFailure, -1);
    }
    assert.deepStrictEqual(asc.rows[1].recipient, {}, 'a failed creation has no recipient');
    assert.strictEqual(
      buildTrace(spec('contracts/results/{id}/actions/empty-result.json').responseJson!.actions!, {}).rows.length,
      0,
    );
  });

  it('nested DELEGATECALL, STATICCALL and precompile calls decoded per recipient: workspace, ERC-20, token service (response code named), PRNG', () => {
    const token = lz(0x4567);
    const seed = `0x${'ab'.repeat(32)}` as const;
    const actions = [
      act({
        index: 0,
        call_depth: 0,
        input: encodeFunctionData({ abi: ROUTER_ABI, functionName: 'swap', args: [token, 2n ** 64n, 'hi'] }),
        result_data: encodeFunctionResult({ abi: ROUTER_ABI, functionName: 'swap', result: 2n ** 256n - 1n }),
      }),
      act({
        index: 1,
        call_depth: 1,
        call_operation_type: 'DELEGATECALL',
        caller: '0.0.2002',
        caller_type: 'CONTRACT',
        from: lz(2002),
        recipient: '0.0.2003',
        to: lz(2003),
        input: encodeFunctionData({ abi: LIB_ABI, args: [7n] }),
        result_data: encodeFunctionResult({ abi: LIB_ABI, functionName: 'compute', result: 49n }),
      }),
      act({
        index: 2,
        call_depth: 1,
        call_operation_type: 'STATICCALL',
        caller: '0.0.2002',
        from: lz(2002),
        recipient: '0.0.2004',
        to: ALIAS,
        input: encodeFunctionData({ abi: ERC20, functionName: 'balanceOf', args: [lz(1001)] }),
        result_data: encodeFunctionResult({ abi: ERC20, functionName: 'balanceOf', result: 10n }),
      }),
      act({
        index: 3,
        call_depth: 1,
        call_type: 'PRECOMPILE',
        caller: '0.0.2002',
        from: lz(2002),
        recipient: '0.0.359',
        recipient_type: 'CONTRACT',
        to: lz(0x167),
        input: encodeFunctionData({ abi: HTS_ABI, functionName: 'transferToken', args: [token, lz(2002), ALIAS, -5n] }),
        result_data: encodeFunctionResult({ abi: HTS_ABI, functionName: 'transferToken', result: 22n }),
      }),
      act({
        index: 4,
        call_depth: 1,
        call_type: 'PRECOMPILE',
        call_operation_type: 'STATICCALL',
        recipient: '0.0.361',
        to: lz(0x169),
        input: encodeFunctionData({ abi: HTS_ABI, functionName: 'getPseudorandomSeed' }),
        result_data: encodeFunctionResult({ abi: HTS_ABI, functionName: 'getPseudorandomSeed', result: seed }),
      }),
      act({
        index: 5,
        call_depth: 1,
        call_type: 'PRECOMPILE',
        recipient: '0.0.359',
        to: lz(0x167),
        input: encodeFunctionData({ abi: HTS_ABI, functionName: 'transferToken', args: [token, lz(2002), ALIAS, 1n] }),
        result_data: encodeFunctionResult({ abi: HTS_ABI, functionName: 'transferToken', result: 184n }),
      }),
      act({
        index: 6,
        call_depth: 1,
        call_type: 'PRECOMPILE',
        recipient: '0.0.359',
        to: lz(0x167),
        input: encodeFunctionData({
          abi: HTS_ABI,
          functionName: 'redirectForToken',
          args: [token, encodeFunctionData({ abi: ERC20, functionName: 'transfer', args: [ALIAS, 3n] })],
        }),
        result_data: encodeFunctionResult({
          abi: HTS_ABI,
          functionName: 'redirectForToken',
          result: [22n, encodeAbiParameters(parseAbiParameters('bool'), [true])],
        }),
      }),
    ];
    const t = buildTrace(actions, ctx);
    const [swap, lib, bal, hts, prng, hts184, redirect] = t.rows;
    assert.deepStrictEqual(swap.call && [swap.call.name, swap.call.source, swap.call.args.map((a) => a.value)], [
      'swap',
      'workspace: artifacts/contracts/Router.sol/Router.json',
      [token, '18446744073709551616', '"hi"'],
    ]);
    assert.deepStrictEqual(swap.output, [
      {
        name: 'out',
        type: 'uint256',
        value: '115792089237316195423570985008687907853269984665640564039457584007913129639935',
      },
    ]);
    assert.deepStrictEqual([swap.descendants, swap.recipient.name], [6, 'Router']);
    assert.deepStrictEqual(
      [lib.operation, lib.depth, lib.parent, lib.call?.name, lib.output?.[0].value, lib.recipient.name],
      ['DELEGATECALL', 1, 0, 'compute', '49', 'Lib'],
    );
    assert.deepStrictEqual(
      [bal.operation, bal.call?.name, bal.call?.source, bal.output?.[0].value],
      ['STATICCALL', 'balanceOf', 'ERC-20', '10'],
    );
    assert.deepStrictEqual(
      bal.recipient,
      { id: '0.0.2004', evm: ALIAS, kind: 'contract' },
      'the alias kept beside the id',
    );
    assert.deepStrictEqual(
      [hts.callType, hts.recipient.name, hts.recipient.kind, hts.call?.name, hts.call?.source],
      ['PRECOMPILE', 'Hedera Token Service', undefined, 'transferToken', 'Hedera Token Service'],
    );
    assert.deepStrictEqual(
      hts.call?.args.map((a) => [a.name, a.value]),
      [
        ['token', token],
        ['sender', getAddress(lz(2002))],
        ['recipient', getAddress(ALIAS)],
        ['amount', '-5'],
      ],
    );
    assert.deepStrictEqual(hts.output, [{ name: 'responseCode', type: 'int64', value: 'SUCCESS (22)' }]);
    assert.deepStrictEqual(hts184.output?.[0].value, 'TOKEN_NOT_ASSOCIATED_TO_ACCOUNT (184)');
    assert.deepStrictEqual(
      [prng.recipient.name, prng.call?.name, prng.output],
      ['PRNG', 'getPseudorandomSeed', [{ name: 'value', type: 'bytes32', value: seed }]],
    );
    // the token call inside redirectForToken, and what it returned
    const inner = redirect.call?.args[1].children?.[0];
    assert.deepStrictEqual(
      [inner?.name, inner?.type, inner?.children?.map((c) => c.value)],
      ['transfer', 'transfer(address,uint256) (ERC-20)', [getAddress(ALIAS), '3']],
    );
    assert.deepStrictEqual(
      redirect.output?.map((o) => o.value),
      ['SUCCESS (22)', encodeAbiParameters(parseAbiParameters('bool'), [true])],
    );
    assert.deepStrictEqual(
      redirect.output?.[1].children?.map((c) => c.value),
      ['true'],
    );
    assert.strictEqual(t.deepestFailure, -1);
  });

  it('a deep revert: failed frames marked, the path from the top to the deepest failure (a caught failure is not on it)', () => {
    const reason = (s: string) =>
      encodeErrorResult({ abi: parseAbi(['error Error(string)']), errorName: 'Error', args: [s] });
    const slip = encodeErrorResult({ abi: ROUTER_ABI, errorName: 'Slippage', args: [5n, 4n] });
    const actions = [
      act({
        index: 0,
        call_depth: 0,
        input: encodeFunctionData({ abi: ROUTER_ABI, functionName: 'run' }),
        result_data_type: 'REVERT_REASON',
        result_data: reason('inner failed'),
      }),
      act({ index: 1, call_depth: 1, result_data_type: 'REVERT_REASON', result_data: slip }),
      act({
        index: 2,
        call_depth: 1,
        input: encodeFunctionData({ abi: ROUTER_ABI, functionName: 'go' }),
        result_data_type: 'REVERT_REASON',
        result_data: reason('inner failed'),
      }),
      act({ index: 3, call_depth: 2, result_data_type: 'REVERT_REASON', result_data: reason('inner failed') }),
      act({ index: 4, call_depth: 3, call_operation_type: 'STATICCALL', result_data: '0x' }),
      act({ index: 5, call_depth: 3, result_data_type: 'REVERT_REASON', result_data: reason('inner failed') }),
      act({
        index: 6,
        call_depth: 3,
        call_type: 'PRECOMPILE',
        recipient: '0.0.359',
        to: lz(0x167),
        result_data_type: 'ERROR',
        result_data: '0x494e56414c49445f544f4b454e5f4944',
      }),
    ];
    // sent out of order: the tree is the same
    const t = buildTrace([actions[5], actions[0], actions[3], actions[6], actions[1], actions[4], actions[2]], ctx);
    assert.deepStrictEqual(
      t.rows.map((r) => r.index),
      [0, 1, 2, 3, 4, 5, 6],
    );
    assert.deepStrictEqual(
      t.rows.map((r) => r.failed),
      [true, true, true, true, false, true, true],
    );
    assert.strictEqual(t.deepestFailure, 6, 'the last failed call of the failing frame');
    assert.deepStrictEqual(
      t.rows.map((r) => r.onFailurePath),
      [true, false, true, true, false, false, true],
    );
    assert.deepStrictEqual(t.rows[1].error, {
      kind: 'custom',
      text: 'Slippage(wanted=5, got=4)',
      name: 'Slippage',
      args: [
        { name: 'wanted', type: 'uint256', value: '5' },
        { name: 'got', type: 'uint256', value: '4' },
      ],
      source: 'workspace: artifacts/contracts/Router.sol/Router.json',
    });
    assert.deepStrictEqual(t.rows[0].error, {
      kind: 'error',
      text: 'Error("inner failed")',
      name: 'Error',
      args: [{ name: 'reason', type: 'string', value: '"inner failed"' }],
    });
    assert.deepStrictEqual(t.rows[6].error, { kind: 'text', text: 'INVALID_TOKEN_ID' });
    assert.strictEqual(t.rows[0].descendants, 6);
    assert.strictEqual(t.rows[3].descendants, 3);

    // the same without the precompile: the deepest failure is the last failed call at depth 3
    const u = buildTrace(actions.slice(0, 6), ctx);
    assert.strictEqual(u.deepestFailure, 5);
    assert.deepStrictEqual(
      u.rows.map((r) => r.onFailurePath),
      [true, false, true, true, false, true],
    );
  });

  it('a failure caught inside a successful call: the deepest failed frame is marked with its ancestors', () => {
    const t = buildTrace(
      [
        act({ index: 0, call_depth: 0 }),
        act({ index: 1, call_depth: 1 }),
        act({ index: 2, call_depth: 2, result_data_type: 'REVERT_REASON', result_data: '0x' }),
        act({ index: 3, call_depth: 1 }),
      ],
      ctx,
    );
    assert.strictEqual(t.deepestFailure, 2);
    assert.deepStrictEqual(
      t.rows.map((r) => r.onFailurePath),
      [true, true, true, false],
    );
    assert.deepStrictEqual(t.rows[2].error, { kind: 'empty', text: 'reverted without a reason' });
  });

  it('depth gaps and a depth that starts at 1: the parent is the last frame above with a smaller depth', () => {
    const t = buildTrace(
      [
        act({ index: 1, call_depth: 1 }),
        act({ index: 2, call_depth: 4 }),
        act({ index: 3, call_depth: 7 }),
        act({ index: 4, call_depth: 4 }),
        act({ index: 5, call_depth: 2 }),
        act({ index: 6, call_depth: 1 }),
      ],
      {},
    );
    assert.deepStrictEqual(
      t.rows.map((r) => [r.index, r.depth, r.parent, r.descendants]),
      [
        [1, 0, -1, 4],
        [2, 1, 0, 1],
        [3, 2, 1, 0],
        [4, 1, 0, 0],
        [5, 1, 0, 0],
        [6, 0, -1, 0],
      ],
    );
  });

  // the time to build them (target < 600 ms) is a figure of `npm run bench` (test/bench/scale.mjs)
  it('2,000 calls build, every one decoded (calls to 50 contracts and a system contract)', () => {
    const actions: ContractAction[] = [];
    const input = encodeFunctionData({ abi: ROUTER_ABI, functionName: 'swap', args: [lz(0x4567), 12345n, 'memo'] });
    const output = encodeFunctionResult({ abi: ROUTER_ABI, functionName: 'swap', result: 1n });
    const hts = encodeFunctionData({
      abi: HTS_ABI,
      functionName: 'transferToken',
      args: [lz(0x4567), lz(2002), ALIAS, 1n],
    });
    for (let i = 0; i < 2000; i++) {
      const depth = i === 0 ? 0 : 1 + (i % 40);
      actions.push(
        i % 3 === 2
          ? act({
              index: i,
              call_depth: depth,
              call_type: 'PRECOMPILE',
              recipient: '0.0.359',
              to: lz(0x167),
              input: hts,
              result_data: encodeFunctionResult({ abi: HTS_ABI, functionName: 'transferToken', result: 22n }),
            })
          : act({
              index: i,
              call_depth: depth,
              recipient: `0.0.${3000 + (i % 50)}`,
              to: lz(3000 + (i % 50)),
              input,
              result_data: output,
            }),
      );
    }
    actions.reverse();
    const t = buildTrace(actions, ctx);
    assert.strictEqual(t.rows.length, 2000);
    assert.strictEqual(t.rows[0].descendants, 1999);
    assert.deepStrictEqual(
      t.rows.map((r) => r.index),
      Array.from({ length: 2000 }, (_, i) => i),
      'in index order',
    );
    assert.deepStrictEqual(
      t.rows.map((r) => r.call?.name),
      t.rows.map((r) => (r.index % 3 === 2 ? 'transferToken' : 'swap')),
      'every call decoded',
    );
  });

  it('hostile text stays data: a revert reason with HTML, bidi and control characters JSON-quoted whole; odd operation names as sent', () => {
    const text = '<img src=x onerror=alert(1)>\u202eevil\u0000\n';
    const data = encodeErrorResult({ abi: parseAbi(['error Error(string)']), errorName: 'Error', args: [text] });
    const t = buildTrace(
      [
        act({
          call_operation_type: '<b>NEWOP</b>',
          call_type: null,
          result_data_type: 'REVERT_REASON',
          result_data: data,
        }),
      ],
      ctx,
    );
    const r = t.rows[0];
    assert.strictEqual(r.operation, '<b>NEWOP</b>');
    assert.strictEqual(r.error?.args?.[0].value, '"<img src=x onerror=alert(1)>\\u202eevil\\u0000\\n"');
    assert.strictEqual(JSON.parse(r.error!.args![0].value.replace('\\u202e', '\u202e')), text, 'every character kept');
    assert.strictEqual(r.error?.text, `Error(${r.error?.args?.[0].value})`);
  });

  it('malformed answers never throw: null list, null entries, missing fields, strings and bigints where numbers belong', () => {
    assert.deepStrictEqual(buildTrace(null, ctx), { rows: [], deepestFailure: -1 });
    assert.deepStrictEqual(buildTrace(undefined, {}), { rows: [], deepestFailure: -1 });
    const weird = [
      null,
      5,
      'x',
      {},
      {
        index: 2n ** 70n,
        call_depth: '3',
        gas: 2n ** 64n,
        value: 9007199254740993n,
        input: 'zz',
        result_data_type: 'NEW_TYPE',
      },
      { index: 1, call_depth: null, to: 'not an address', recipient: 7 },
    ] as unknown as ContractAction[];
    const t = buildTrace(weird, ctx);
    assert.strictEqual(t.rows.length, 3);
    const big = t.rows.find((r) => r.gas === '18446744073709551616')!;
    assert.deepStrictEqual(big.value, { tinybars: '9007199254740993', hbar: '90071992.54740993 ℏ' });
    assert.strictEqual(big.resultType, 'NEW_TYPE');
    assert.strictEqual(big.failed, false);
    assert.strictEqual(big.call, undefined);
  });

  it('addressesToLookUp: recipients whose calls or errors nothing decodes, emitters of unknown events; not system contracts, accounts, known ABIs', () => {
    const MYSTERY = parseAbi(['function mystery(uint256 x)']);
    const unknownCall = encodeFunctionData({ abi: MYSTERY, args: [0n] });
    const actions = [
      act({ index: 0, recipient: '0.0.5005', to: lz(5005), input: unknownCall }),
      act({
        index: 1,
        call_depth: 1,
        recipient: '0.0.2002',
        to: lz(2002),
        input: encodeFunctionData({ abi: ROUTER_ABI, functionName: 'run' }),
        result_data_type: 'REVERT_REASON',
        result_data: '0xdeadbeef',
      }),
      act({ index: 2, call_depth: 1, recipient: '0.0.359', to: lz(0x167), input: unknownCall }),
      act({
        index: 3,
        call_depth: 1,
        recipient: '0.0.6006',
        recipient_type: 'ACCOUNT',
        to: lz(6006),
        input: unknownCall,
      }),
      act({ index: 4, call_depth: 1, recipient: '0.0.7007', to: ALIAS, input: unknownCall }),
      act({
        index: 5,
        call_depth: 1,
        recipient: '0.0.2003',
        to: lz(2003),
        input: encodeFunctionData({ abi: LIB_ABI, args: [1n] }),
      }),
    ];
    const logs = [
      {
        address: lz(8008),
        contract_id: '0.0.8008',
        data: '0x',
        index: 0,
        topics: [`0x${'11'.repeat(32)}`],
        bloom: null,
      },
    ];
    assert.deepStrictEqual(addressesToLookUp(actions, logs, ctx), [lz(5005), lz(2002), ALIAS, lz(8008)]);
    // once Sourcify's ABI is known for one of them, it is not asked again, and it decodes
    const withSourcify: InspectContext = {
      ...ctx,
      contractAbi: (a) => (a === lz(5005) ? sourcifyRegistry(MYSTERY, a, 296) : undefined),
    };
    assert.deepStrictEqual(addressesToLookUp(actions, logs, withSourcify), [lz(2002), ALIAS, lz(8008)]);
    assert.deepStrictEqual(
      buildTrace([act({ recipient: '0.0.5005', to: lz(5005), input: unknownCall })], withSourcify).rows[0].call?.source,
      'Sourcify',
    );
  });
});
