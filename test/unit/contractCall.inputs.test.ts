// A function's inputs as typed, checked against their ABI types and encoded (src/api/decode/callInputs.ts), and the
// request body of POST /contracts/call (src/api/contractCall.ts): every address form, integers past 2^53 range-checked
// per intN/uintN, bytes/bytesN, arrays, tuples, enums, strings; hostile and huge values refused before costly work.
import * as assert from 'assert';
import { decodeFunctionData, encodeFunctionData, type Abi } from 'viem';
import { ApiError } from '../../src/api/errors';
import { checkCallBlock, contractCallBody, curlOf, evmAddressOf } from '../../src/api/contractCall';
import type { AbiItem, AbiParam } from '../../src/api/decode/abiFiles';
import {
  checkInput,
  decodeCallResult,
  encodeCallData,
  isReadOnly,
  parseInputs,
  callSnippetOf,
  relayUrlOf,
} from '../../src/api/decode/callInputs';

const fn = (inputs: AbiParam[], outputs: AbiParam[] = [], stateMutability = 'view'): AbiItem => ({
  type: 'function',
  name: 'f',
  inputs,
  outputs,
  stateMutability,
});
const one = (type: string, extra: Partial<AbiParam> = {}): AbiItem => fn([{ name: 'x', type, ...extra }]);
const value = (type: string, text: unknown, extra: Partial<AbiParam> = {}): unknown => {
  const r = parseInputs(one(type, extra), [text]);
  assert.ok(r.ok, r.ok ? '' : r.message);
  return r.value[0];
};
const refused = (type: string, text: unknown, pattern: RegExp, extra: Partial<AbiParam> = {}): void => {
  const r = parseInputs(one(type, extra), [text]);
  assert.ok(!r.ok, `${type} ${String(text).slice(0, 60)} was accepted`);
  assert.match(r.message, pattern);
};

describe('contract call: inputs as typed, checked and encoded', () => {
  it('addresses in every form: 0.0.x, shard.realm.num, long-zero, EVM alias, any case; checksums checked', () => {
    assert.strictEqual(value('address', '0.0.1234'), '0x00000000000000000000000000000000000004d2');
    assert.strictEqual(value('address', '1.2.3'), '0x0000000100000000000000020000000000000003');
    assert.strictEqual(
      value('address', ' 0x00000000000000000000000000000000000004D2 '.toLowerCase().trim()),
      '0x00000000000000000000000000000000000004d2',
    );
    assert.strictEqual(
      value('address', 'F39FD6E51AAD88F6F4CE6AB8827279CFFFB92266'),
      '0xf39fd6e51aad88f6f4ce6ab8827279cfffb92266',
    );
    // the EIP-55 form is accepted; a wrong checksum is a typo
    assert.strictEqual(
      value('address', '0xf39Fd6e51aad88F6F4ce6aB8827279cffFb92266'),
      '0xf39fd6e51aad88f6f4ce6ab8827279cfffb92266',
    );
    refused('address', '0xf39Fd6e51aad88f6F4ce6aB8827279cffFb92266', /checksum/);
    refused('address', '0x1234', /not an address/);
    refused('address', '0.0.274877906944', /not an address/); // num past 2^38
    refused('address', 'alice.eth', /not an address/);
  });

  it('integers: past 2^53 with every digit, 1e18, hex, separators; range per intN/uintN', () => {
    assert.strictEqual(value('uint256', '9007199254740993'), 9007199254740993n);
    assert.strictEqual(value('uint256', '1e18'), 10n ** 18n);
    assert.strictEqual(value('uint256', '1.5e3'), 1500n);
    assert.strictEqual(value('uint256', '0xff'), 255n);
    assert.strictEqual(value('uint256', '1_000,000'), 1_000_000n);
    assert.strictEqual(value('uint256', (2n ** 256n - 1n).toString()), 2n ** 256n - 1n);
    refused('uint256', (2n ** 256n).toString(), /out of range for a uint256/);
    assert.strictEqual(value('int8', '-128'), -128n);
    refused('int8', '-129', /out of range for a int8 \(-128 to 127\)/);
    refused('int8', '128', /out of range/);
    refused('uint8', '-1', /out of range/);
    assert.strictEqual(value('uint64', '18446744073709551615'), 2n ** 64n - 1n);
    refused('uint64', '18446744073709551616', /out of range/);
    refused('uint256', '1.5', /not a whole number/);
    refused('uint256', '1.25e1', /not a whole number/);
    refused('uint256', 'twelve', /not a whole number/);
    // a JSON number past 2^53 inside a list keeps its digits (lossless parse), a JS number that lost them is refused
    assert.deepStrictEqual(value('uint256[]', '[9007199254740993, "2"]'), [9007199254740993n, 2n]);
    refused('uint256[]', [2 ** 60], /not a whole number that JavaScript holds exactly/);
  });

  it('hostile numbers: huge digit strings and exponents are refused at once', () => {
    refused('uint256', '9'.repeat(1_000), /too long/);
    refused('uint256', '9'.repeat(1_000_000), /over \d+ characters/);
    refused('uint256', '1e999', /too long/);
    refused('uint256', `1e${'9'.repeat(50)}`, /not a whole number/);
    refused('string', 'x'.repeat(300_000), /over \d+ characters/);
  });

  it('enums are uint8 (0..255) and say which enum', () => {
    const p = { name: 's', type: 'uint8', internalType: 'enum Vault.State' };
    assert.strictEqual(value('uint8', '2', p), 2n);
    refused('uint8', '256', /out of range for a uint8/, p);
  });

  it('bytes and bytesN: hex of the exact size', () => {
    assert.strictEqual(value('bytes', '0xDEADbeef'), '0xdeadbeef');
    assert.strictEqual(value('bytes', '0x'), '0x');
    refused('bytes', '0xabc', /even number/);
    refused('bytes', 'hello', /even number/);
    assert.strictEqual(value('bytes4', '0x01020304'), '0x01020304');
    refused('bytes4', '0x010203', /exactly 4 bytes \(8 hex digits\), not 3/);
    refused('bytes32', '0x' + '00'.repeat(33), /exactly 32 bytes/);
  });

  it('bools and strings (any text, kept as is)', () => {
    assert.strictEqual(value('bool', 'true'), true);
    assert.strictEqual(value('bool', '0'), false);
    refused('bool', 'yes', /true or false/);
    const hostile = '<img src=x onerror=alert(1)>\u202e"\'`${x}';
    assert.strictEqual(value('string', hostile), hostile);
  });

  it('arrays: dynamic and fixed, nested, with their lengths and a cap on items and depth', () => {
    assert.deepStrictEqual(value('address[]', '["0.0.5", "0x0000000000000000000000000000000000000006"]'), [
      '0x0000000000000000000000000000000000000005',
      '0x0000000000000000000000000000000000000006',
    ]);
    assert.deepStrictEqual(value('uint8[2][]', '[[1,2],[3,4]]'), [
      [1n, 2n],
      [3n, 4n],
    ]);
    refused('uint8[2]', '[1,2,3]', /exactly 2 items, not 3/);
    refused('uint8[]', '[1,', /write it as JSON/);
    refused('uint8[]', '{"a":1}', /JSON list/);
    refused('uint8[]', JSON.stringify(new Array(10_001).fill(0)), /more than 10000 items/);
    refused('uint8' + '[]'.repeat(20), '['.repeat(20) + ']'.repeat(20), /nested too deep/);
    refused('uint8[]', '[1, 300]', /x\[1\]: 300 is out of range/);
  });

  it('tuples: as a JSON object by field names or as a list, each field checked as typed', () => {
    const t = {
      components: [
        { name: 'to', type: 'address' },
        { name: 'amount', type: 'uint256' },
        { name: 'tags', type: 'bytes2[]' },
      ],
    };
    const v = value('tuple', '{"to": "0.0.9", "amount": "123456789012345678901234567890", "tags": ["0x0102"]}', t);
    assert.deepStrictEqual(v, {
      to: '0x0000000000000000000000000000000000000009',
      amount: 123456789012345678901234567890n,
      tags: ['0x0102'],
    });
    assert.deepStrictEqual(value('tuple', '["0.0.9", 1, []]', t), [
      '0x0000000000000000000000000000000000000009',
      1n,
      [],
    ]);
    refused('tuple', '{"to": "0.0.9", "amount": 1}', /field "tags" is missing/, t);
    refused('tuple', '{"to": "0.0.9", "amount": 1, "tags": [], "x": 1}', /no field "x"/, t);
    refused('tuple', '{"to": "nope", "amount": 1, "tags": []}', /x\.to: "nope" is not an address/, t);
    refused('tuple[]', '[["0.0.9", -1, []]]', /x\[0\]\.amount: -1 is out of range/, t);
  });

  it('encodes call data as viem does, and decodes results with every digit', () => {
    const item = fn(
      [
        { name: 'who', type: 'address' },
        { name: 'amounts', type: 'uint256[]' },
        { name: 'memo', type: 'string' },
      ],
      [
        { name: 'total', type: 'uint256' },
        { name: 'delta', type: 'int64' },
      ],
    );
    const enc = encodeCallData(item, ['0.0.1234', '[9007199254740993, "1e30"]', 'hi']);
    assert.ok(enc.ok, enc.ok ? '' : enc.message);
    const expected = encodeFunctionData({
      abi: [item] as unknown as Abi,
      functionName: 'f',
      args: ['0x00000000000000000000000000000000000004d2', [9007199254740993n, 10n ** 30n], 'hi'],
    });
    assert.strictEqual(enc.value, expected);
    assert.deepStrictEqual(decodeFunctionData({ abi: [item] as unknown as Abi, data: enc.value }).args?.[1], [
      9007199254740993n,
      10n ** 30n,
    ]);
    const ret = `0x${(2n ** 255n + 7n).toString(16).padStart(64, '0')}${'f'.repeat(64)}`;
    const dec = decodeCallResult(item, ret);
    assert.deepStrictEqual(
      dec?.values.map((v) => [v.name, v.value]),
      [
        ['total', (2n ** 255n + 7n).toString()],
        ['delta', '-1'],
      ],
    );
    assert.strictEqual(decodeCallResult(item, '0x1234'), undefined);
    const wrongCount = encodeCallData(item, ['0.0.1']);
    assert.ok(!wrongCount.ok && /takes 3 inputs, not 1/.test(wrongCount.message));
  });

  it('checkInput validates one field; read-only is view or pure', () => {
    assert.strictEqual(checkInput({ name: 'a', type: 'uint8' }, '255'), undefined);
    assert.match(checkInput({ name: 'a', type: 'uint8' }, '256') ?? '', /out of range/);
    assert.ok(isReadOnly(fn([], [], 'pure')) && isReadOnly(fn([], [], 'view')));
    assert.ok(!isReadOnly(fn([], [], 'nonpayable')) && !isReadOnly(fn([], [], 'payable')));
  });

  it('the snippets quote an ABI name from elsewhere as a string literal', () => {
    const item = { ...fn([]), name: "x'); process.exit(1); ('" };
    for (const library of ['viem', 'ethers'] as const) {
      const s = callSnippetOf(library, item, '0x0000000000000000000000000000000000000005', '0x12345678');
      assert.ok(s.includes(JSON.stringify(item.name)), s);
      assert.ok(!s.includes(`'x'); process`), s);
    }
  });

  it("the snippets call the network's JSON-RPC relay with the sender's EVM address and the value in weibars", () => {
    const item = fn([], [], 'payable');
    const call = { from: '0.0.7006', value: 5n, block: '1234', mirrorUrl: 'https://testnet.mirrornode.hedera.com' };
    const viem = callSnippetOf('viem', item, '0.0.7001', '0x12345678', call);
    assert.ok(viem.includes(`http("https://testnet.hashio.io/api")`), viem);
    assert.ok(viem.includes(`to: "0x0000000000000000000000000000000000001b59",`), viem);
    assert.ok(viem.includes(`account: "0x0000000000000000000000000000000000001b5e",`), viem);
    assert.ok(viem.includes('value: 50000000000n,'), viem);
    assert.ok(viem.includes('blockNumber: 1234n,'), viem);
    const ethers = callSnippetOf('ethers', item, '0.0.7001', '0x12345678', call);
    assert.ok(ethers.includes(`new JsonRpcProvider("https://testnet.hashio.io/api")`), ethers);
    assert.ok(ethers.includes(`from: "0x0000000000000000000000000000000000001b5e",`), ethers);
    assert.ok(ethers.includes('value: 50000000000n,'), ethers);
    assert.ok(ethers.includes(`blockTag: "0x4d2",`), ethers);
    assert.ok(ethers.includes('decodeFunctionResult('), ethers);
    // no value, no sender, the latest block: none of them written
    const plain = callSnippetOf('viem', item, '0x00000000000000000000000000000000000000AA', '0x', {
      mirrorUrl: 'https://mainnet-public.mirrornode.hedera.com/',
    });
    assert.ok(plain.includes(`http("https://mainnet.hashio.io/api")`), plain);
    assert.ok(plain.includes(`to: "0x00000000000000000000000000000000000000aa",`), plain);
    assert.ok(!/account:|value:|blockNumber:/.test(plain), plain);
  });

  it('the relay of each network; a custom mirror node has none known, and the snippet reads it from the environment', () => {
    assert.strictEqual(relayUrlOf('https://mainnet.mirrornode.hedera.com'), 'https://mainnet.hashio.io/api');
    assert.strictEqual(
      relayUrlOf('https://previewnet.mirrornode.hedera.com/api/v1'),
      'https://previewnet.hashio.io/api',
    );
    assert.strictEqual(relayUrlOf('http://localhost:5551'), 'http://localhost:7546');
    assert.strictEqual(relayUrlOf('http://127.0.0.1:5600'), undefined);
    assert.strictEqual(relayUrlOf('https://testnet.mirrornode.hedera.com.evil.example'), undefined);
    assert.strictEqual(relayUrlOf('not a url'), undefined);
    const s = callSnippetOf('ethers', fn([]), '0x0000000000000000000000000000000000000005', '0x', {
      mirrorUrl: 'https://mirror.example.org',
    });
    assert.ok(s.includes('new JsonRpcProvider(process.env.HEDERA_JSON_RPC_URL)'), s);
  });
});

describe('contract call: the request body, checked before it is sent', () => {
  const invalid = (f: () => unknown, pattern: RegExp): void =>
    assert.throws(f, (e: unknown) => e instanceof ApiError && e.kind === 'invalidInput' && pattern.test(e.message));

  it('to and from in every form; block forms; gas and value as int64 with every digit', () => {
    const body = contractCallBody({
      to: '0.0.7001',
      from: '0xF39FD6E51AAD88F6F4CE6AB8827279CFFFB92266',
      data: '0xABCD',
      value: 9_223_372_036_854_775_807n,
      gas: 100_000,
      block: '0x1f',
      estimate: true,
    });
    assert.deepStrictEqual(body, {
      to: '0x0000000000000000000000000000000000001b59',
      block: '31',
      estimate: true,
      data: '0xabcd',
      from: '0xf39fd6e51aad88f6f4ce6ab8827279cfffb92266',
      gas: 100_000n,
      value: 9_223_372_036_854_775_807n,
    });
    assert.ok(
      curlOf('http://x/api/v1/contracts/call', body).includes('"value":9223372036854775807'),
      'the curl body keeps every digit',
    );
    assert.strictEqual(checkCallBlock(undefined), 'latest');
    assert.strictEqual(checkCallBlock('EARLIEST'), 'earliest');
    assert.strictEqual(checkCallBlock(12n), '12');
    assert.strictEqual(evmAddressOf('0.0.0'), '0x0000000000000000000000000000000000000000');
  });

  it('refuses what the mirror node would refuse, with a sentence naming it', () => {
    invalid(() => contractCallBody({ to: 'vault' }), /"vault" is not a contract/);
    invalid(() => contractCallBody({ to: '0.0.1', from: 'me' }), /"me" is not a sender/);
    invalid(() => contractCallBody({ to: '0.0.1', data: '0x123' }), /even number of hex digits/);
    invalid(() => contractCallBody({ to: '0.0.1', data: '0x' + '00'.repeat(131_073) }), /over 131072 bytes/);
    invalid(() => contractCallBody({ to: '0.0.1', value: 1n }), /needs a sender/);
    invalid(() => contractCallBody({ to: '0.0.1', from: '0.0.2', value: 2n ** 63n }), /between 0 and/);
    invalid(() => contractCallBody({ to: '0.0.1', gas: 2 ** 60 }), /whole number/);
    invalid(() => contractCallBody({ to: '0.0.1', block: 'yesterday' }), /not a block/);
    invalid(() => contractCallBody({ to: '0.0.1', block: '99999999999999999999999' }), /not a block/);
    // a curl quote cannot close the shell word
    assert.ok(curlOf("http://x/'; rm -rf /", { to: '0x', block: 'latest', estimate: false }).includes(`'\\''`));
  });
});
