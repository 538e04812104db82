import * as assert from 'assert';
import {
  encodeAbiParameters,
  encodeErrorResult,
  encodeFunctionData,
  encodeFunctionResult,
  toEventSelector,
} from 'viem';
import type { Abi } from 'viem';
import {
  AbiRegistry,
  decodeCall,
  decodeContractResult,
  decodeError,
  decodeReturn,
  sourcifyRegistry,
} from '../../src/api/decode';
import type { AbiFile } from '../../src/api/decode/abiFiles';
import * as fs from 'fs';
import * as path from 'path';
import { normalizeAbi, parseAbiFile } from '../../src/api/decode/abiFiles';
import { startSandbox } from '../../sandbox/src/server';
import { TOKEN_PAYER } from '../../sandbox/src/mirror/scenarios';

/** The sample workspace's ABI files, read as the index reads them. */
function workspaceAbiFiles(): AbiFile[] {
  const base = path.join(__dirname, '../../../test/workspace');
  const out: AbiFile[] = [];
  for (const rel of fs.readdirSync(base, { recursive: true }) as string[]) {
    if (!/\.(json|abi)$/.test(rel) || !fs.statSync(path.join(base, rel)).isFile()) continue;
    const f = parseAbiFile(rel.split(path.sep).join('/'), fs.readFileSync(path.join(base, rel), 'utf8'));
    if (f) out.push(f);
  }
  return out.sort((a, b) => (a.source < b.source ? -1 : 1));
}

const ABI = [
  {
    type: 'function',
    name: 'transfer',
    stateMutability: 'nonpayable',
    inputs: [
      { name: 'to', type: 'address' },
      { name: 'value', type: 'uint256' },
    ],
    outputs: [{ name: '', type: 'bool' }],
  },
  {
    type: 'function',
    name: 'multicall',
    stateMutability: 'nonpayable',
    inputs: [
      { name: 'data', type: 'bytes[]' },
      { name: 'tag', type: 'bytes32' },
    ],
    outputs: [{ name: 'results', type: 'bytes[]' }],
  },
  {
    type: 'function',
    name: 'swap',
    stateMutability: 'nonpayable',
    inputs: [
      {
        name: 'route',
        type: 'tuple[]',
        components: [
          { name: 'pool', type: 'address' },
          { name: 'fee', type: 'uint24' },
          { name: 'zeroForOne', type: 'bool' },
        ],
      },
      { name: 'amount', type: 'int256' },
      { name: 'memo', type: 'string' },
    ],
    outputs: [
      {
        name: 'out',
        type: 'tuple',
        components: [
          { name: 'amount', type: 'uint256' },
          { name: 'path', type: 'address[]' },
        ],
      },
    ],
  },
  {
    type: 'function',
    name: 'getReserves',
    stateMutability: 'view',
    inputs: [],
    outputs: [
      { name: 'reserve0', type: 'uint112' },
      { name: 'reserve1', type: 'uint112' },
      { name: 'ts', type: 'uint32' },
    ],
  },
  {
    type: 'error',
    name: 'ERC20InsufficientBalance',
    inputs: [
      { name: 'sender', type: 'address' },
      { name: 'balance', type: 'uint256' },
      { name: 'needed', type: 'uint256' },
    ],
  },
  { type: 'error', name: 'Paused', inputs: [] },
  {
    type: 'event',
    name: 'Transfer',
    inputs: [
      { name: 'from', type: 'address', indexed: true },
      { name: 'to', type: 'address', indexed: true },
      { name: 'value', type: 'uint256', indexed: false },
    ],
  },
] as const;

const file = (abi: unknown, source = 'artifacts/contracts/T.sol/T.json'): AbiFile => ({
  source,
  contractName: 'T',
  format: 'hardhat',
  abi: normalizeAbi(abi),
});
const MAX = 2n ** 256n - 1n;
const A = '0x8a71dd444b077c45f2ca828082aa6c726a879555';

describe('ABI decoding (viem)', () => {
  const reg = new AbiRegistry([file(ABI)]);

  it('indexes function, error and event selectors', () => {
    assert.strictEqual(reg.functionBySelector('0xa9059cbb')[0]?.signature, 'transfer(address,uint256)');
    assert.strictEqual(reg.errorBySelector('0xe450d38c')[0]?.item.name, 'ERC20InsufficientBalance');
    assert.strictEqual(
      reg.eventByTopic(toEventSelector('Transfer(address,address,uint256)'))[0]?.item.name,
      'Transfer',
    );
    assert.strictEqual(reg.functionBySelector('0xdeadbeef').length, 0);
    assert.deepStrictEqual(reg.sources, ['artifacts/contracts/T.sol/T.json']);
  });

  it('decodes call data into the function name and named, typed arguments, big integers with every digit', () => {
    const data = encodeFunctionData({ abi: ABI as Abi, functionName: 'transfer', args: [A, MAX] });
    const c = decodeCall(data, reg);
    assert.ok(c);
    assert.strictEqual(c.name, 'transfer');
    assert.strictEqual(c.signature, 'transfer(address,uint256)');
    assert.deepStrictEqual(
      c.args.map((a) => [a.name, a.type, a.value]),
      [
        ['to', 'address', '0x8a71Dd444b077c45f2cA828082AA6c726A879555'],
        ['value', 'uint256', '115792089237316195423570985008687907853269984665640564039457584007913129639935'],
      ],
    );
    assert.strictEqual(
      c.text,
      'transfer(to=0x8a71Dd444b077c45f2cA828082AA6c726A879555, value=115792089237316195423…57584007913129639935)',
      'addresses whole, long numbers shortened on the one line',
    );
    assert.deepStrictEqual(c.origin, {
      kind: 'workspace',
      label: 'artifacts/contracts/T.sol/T.json',
      contractName: 'T',
    });
  });

  it('decodes bytes, arrays, tuples, negative ints and strings', () => {
    const data = encodeFunctionData({
      abi: ABI as Abi,
      functionName: 'swap',
      args: [
        [
          { pool: A, fee: 3000, zeroForOne: true },
          { pool: '0x0000000000000000000000000000000000000167', fee: 500, zeroForOne: false },
        ],
        -(2n ** 255n),
        'héllo "x"\u202e',
      ],
    });
    const c = decodeCall(data, reg)!;
    const [route, amount, memo] = c.args;
    assert.strictEqual(route.type, 'tuple[]');
    assert.strictEqual(route.children?.length, 2);
    assert.deepStrictEqual(
      route.children?.[1].children?.map((x) => `${x.name}:${x.type}=${x.value}`),
      ['pool:address=0x0000000000000000000000000000000000000167', 'fee:uint24=500', 'zeroForOne:bool=false'],
    );
    assert.strictEqual(amount.value, '-57896044618658097711785492504343953926634992332820282019728792003956564819968');
    assert.strictEqual(memo.value, '"héllo \\"x\\"\\u202e"', 'quoted, bidi override escaped');
    const multi = decodeCall(
      encodeFunctionData({
        abi: ABI as Abi,
        functionName: 'multicall',
        args: [['0x', '0xdeadbeef'], `0x${'ab'.repeat(32)}`],
      }),
      reg,
    )!;
    assert.deepStrictEqual(
      multi.args[0].children?.map((x) => x.value),
      ['0x', '0xdeadbeef'],
    );
    assert.strictEqual(multi.args[1].value, `0x${'ab'.repeat(32)}`);
  });

  it("decodes return data with the function's outputs", () => {
    const call = decodeCall(encodeFunctionData({ abi: ABI as Abi, functionName: 'getReserves' }), reg)!;
    const ret = decodeReturn(
      call,
      encodeFunctionResult({ abi: ABI as Abi, functionName: 'getReserves', result: [2n ** 112n - 1n, 7n, 1793491200] }),
    );
    assert.deepStrictEqual(
      ret?.values.map((v) => `${v.name}=${v.value}`),
      ['reserve0=5192296858534827628530496329220095', 'reserve1=7', 'ts=1793491200'],
    );
    const swap = decodeCall(encodeFunctionData({ abi: ABI as Abi, functionName: 'swap', args: [[], 1n, ''] }), reg)!;
    const out = decodeReturn(
      swap,
      encodeFunctionResult({ abi: ABI as Abi, functionName: 'swap', result: { amount: 5n, path: [A] } }),
    );
    assert.deepStrictEqual(
      out?.values[0].children?.map((v) => v.name),
      ['amount', 'path'],
    );
    assert.strictEqual(decodeReturn(swap, '0x1234'), undefined, 'too short: stays hex');
    assert.strictEqual(decodeReturn(swap, '0x'), undefined);
  });

  it('decodes custom errors with their arguments, and still Error(string) and Panic', () => {
    const data = encodeErrorResult({
      abi: ABI as Abi,
      errorName: 'ERC20InsufficientBalance',
      args: [A, 12n, 10n ** 30n],
    });
    const e = decodeError(data, reg)!;
    assert.strictEqual(e.kind, 'custom');
    assert.strictEqual(e.name, 'ERC20InsufficientBalance');
    assert.strictEqual(
      e.message,
      'ERC20InsufficientBalance(sender=0x8a71Dd444b077c45f2cA828082AA6c726A879555, balance=12, needed=1000000000000000000000000000000)',
    );
    assert.strictEqual(
      decodeError(encodeErrorResult({ abi: ABI as Abi, errorName: 'Paused' }), reg)?.message,
      'Paused()',
    );
    const reason = encodeAbiParameters([{ type: 'string' }], ['ERC20: transfer amount exceeds balance']);
    assert.strictEqual(
      decodeError(`0x08c379a0${reason.slice(2)}`, reg)?.message,
      'ERC20: transfer amount exceeds balance',
    );
    assert.strictEqual(
      decodeError('0x4e487b710000000000000000000000000000000000000000000000000000000000000012', reg)?.message,
      'Panic 0x12: division or modulo by zero',
    );
    const unknown = decodeError('0x12345678', reg)!;
    assert.deepStrictEqual(
      [unknown.kind, unknown.name, unknown.message],
      ['custom', undefined, 'custom error 0x12345678'],
    );
    assert.strictEqual(decodeError('INSUFFICIENT_GAS', reg)?.message, 'INSUFFICIENT_GAS');
  });

  it('leaves undecodable data alone: unknown selectors, short or odd data, garbage, never an exception', () => {
    for (const bad of [
      null,
      undefined,
      '',
      '0x',
      '0x1234',
      '0xzz',
      'hello',
      '0xa9059cbb',
      '0xa9059cbb00',
      `0xa9059cbb${'00'.repeat(40)}`,
      '0x12345678' + '00'.repeat(64),
    ]) {
      assert.strictEqual(decodeCall(bad, reg), undefined, String(bad));
    }
    assert.strictEqual(decodeCall(`0xa9059cbb${'00'.repeat(64)}`, undefined), undefined, 'no ABIs');
    const d = decodeContractResult(
      { function_parameters: '0xdeadbeef', call_result: '0x', error_message: null },
      false,
      reg,
    );
    assert.deepStrictEqual(d, { call: undefined });
  });

  it("the workspace's own build wins over the contract's Sourcify ABI; Sourcify decodes what the workspace lacks, and says so", () => {
    const other = [
      {
        type: 'function',
        name: 'transfer',
        inputs: [
          { name: 'recipient', type: 'address' },
          { name: 'amount', type: 'uint256' },
        ],
        outputs: [],
      },
      { type: 'function', name: 'burn', inputs: [{ name: 'amount', type: 'uint256' }], outputs: [] },
      { type: 'error', name: 'Paused', inputs: [] },
      { type: 'error', name: 'Frozen', inputs: [{ name: 'who', type: 'address' }] },
    ];
    const contract = sourcifyRegistry(other, A, 296);
    const c = decodeCall(
      encodeFunctionData({ abi: ABI as Abi, functionName: 'transfer', args: [A, 1n] }),
      reg,
      contract,
    )!;
    assert.deepStrictEqual(
      [c.args[0].name, c.origin.kind, c.origin.label],
      ['to', 'workspace', 'artifacts/contracts/T.sol/T.json'],
    );
    const burn = decodeCall(
      encodeFunctionData({ abi: other as Abi, functionName: 'burn', args: [5n] }),
      reg,
      contract,
    )!;
    assert.deepStrictEqual(
      [burn.name, burn.origin.kind, burn.origin.label, burn.origin.address],
      ['burn', 'sourcify', 'Sourcify', A],
    );
    const paused = decodeError(encodeErrorResult({ abi: ABI as Abi, errorName: 'Paused' }), reg, contract)!;
    assert.deepStrictEqual([paused.name, paused.origin?.kind], ['Paused', 'workspace']);
    const frozen = decodeError(
      encodeErrorResult({ abi: other as Abi, errorName: 'Frozen', args: [A] }),
      reg,
      contract,
    )!;
    assert.deepStrictEqual([frozen.name, frozen.origin?.kind], ['Frozen', 'sourcify']);
  });

  it("decodes the sandbox's contract results with the sample workspace's artifacts", async function () {
    this.timeout(60000);
    const sb = await startSandbox({ port: 0 });
    try {
      const registry = new AbiRegistry(workspaceAbiFiles());
      const results: Array<Record<string, string | null>> = [];
      let next: string | null = '/api/v1/contracts/results?limit=100';
      for (let i = 0; i < 10 && next; i++) {
        const page = (await (await fetch(`${sb.url}${next}`)).json()) as {
          results: Array<Record<string, string | null>>;
          links: { next: string | null };
        };
        results.push(...page.results);
        next = page.links.next;
      }
      const seen = new Map<string, number>();
      let customs = 0;
      let returned = 0;
      for (const r of results) {
        // the token facade scenario's payer is the sandbox's own contract, not the sample workspace's
        if (r.contract_id === `0.0.${TOKEN_PAYER.num}`) continue;
        const failed = r.result !== 'SUCCESS';
        const d = decodeContractResult(r as never, failed, registry);
        const sel = (r.function_parameters ?? '').slice(0, 10);
        if (sel.length === 10 && !sel.startsWith('0x6080')) assert.ok(d.call, `call ${sel} of ${r.timestamp} decodes`);
        if (d.call) {
          seen.set(d.call.name, (seen.get(d.call.name) ?? 0) + 1);
          assert.strictEqual(d.call.origin.kind, 'workspace');
          assert.match(d.call.origin.label, /^artifacts\//);
        }
        if (d.returned) returned++;
        if (failed && r.result === 'CONTRACT_REVERT_EXECUTED' && d.error?.kind === 'custom') {
          assert.ok(d.error.name, `custom error ${d.error.selector} decodes`);
          customs++;
        }
      }
      for (const fn of [
        'transfer',
        'approve',
        'transferFrom',
        'mint',
        'safeTransferFrom',
        'setApprovalForAll',
        'swapExactTokensForTokens',
        'deposit',
        'withdraw',
        'burn',
        'balanceOf',
        'name',
        'castVote',
      ]) {
        assert.ok(seen.get(fn), `${fn} among ${[...seen.keys()].join(', ')}`);
      }
      assert.ok(customs > 3 && returned > 100, `custom errors ${customs}, return values ${returned}`);
      const newest = results[0];
      const top = decodeContractResult(newest as never, true, registry);
      assert.strictEqual(top.error?.message, 'ERC20: transfer amount exceeds balance');
    } finally {
      await sb.close();
    }
  });
});
