import * as assert from 'assert';
import * as fs from 'fs';
import * as path from 'path';
import * as protobuf from 'protobufjs';
import { encodeFunctionData } from 'viem';
import type { Abi } from 'viem';
import { AbiRegistry, decodeCall, decodeSchedulableBody, withDecimals } from '../../src/api/decode';
import { normalizeAbi } from '../../src/api/decode/abiFiles';
import { startSandbox } from '../../sandbox/src/server';

/** Real encoders: the full protobufjs reading the same .proto files of @hashgraph/proto that the descriptor comes from. */
const PROTO_DIR = path.join(__dirname, '../../../node_modules/@hashgraph/proto/src/proto');
let Body: protobuf.Type;
function encode(body: Record<string, unknown>): string {
  if (!Body) {
    const root = new protobuf.Root();
    root.resolvePath = (_o, target) => path.join(PROTO_DIR, path.basename(target));
    root.loadSync(path.join(PROTO_DIR, 'services_schedulable_transaction_body.proto'), { keepCase: true });
    Body = root.lookupType('proto.SchedulableTransactionBody');
  }
  for (const k of Object.keys(body))
    if (!Body.fields[k]) throw new Error(`no field ${k} in SchedulableTransactionBody`);
  return Buffer.from(Body.encode(Body.fromObject(body)).finish()).toString('base64');
}

const acct = (n: number | string) => ({ shardNum: 0, realmNum: 0, accountNum: n });
const token = (n: number) => ({ shardNum: 0, realmNum: 0, tokenNum: n });
const ERC20 = normalizeAbi([
  {
    type: 'function',
    name: 'transfer',
    inputs: [
      { name: 'to', type: 'address' },
      { name: 'value', type: 'uint256' },
    ],
    outputs: [{ name: '', type: 'bool' }],
  },
]);

describe('schedule transaction bodies (SchedulableTransactionBody)', () => {
  it('comes from the @hashgraph/proto definitions, trimmed to the types the body reaches', () => {
    // the descriptor the decoder bundles (src/api/decode/schedulableBody.ts imports this file)
    const info = JSON.parse(
      fs.readFileSync(path.join(__dirname, '../../../src/api/decode/schedulableBody.descriptor.json'), 'utf8'),
    ) as { source: string; types: number };
    assert.match(info.source, /^@hashgraph\/proto@\d+\.\d+\.\d+$/);
    assert.ok(info.types > 50 && info.types < 400, `${info.types} types`);
  });

  it('decodes an hbar transfer as "from → to amount ℏ", with fee and memo', () => {
    const b = decodeSchedulableBody(
      encode({
        transactionFee: '200000000',
        memo: 'rent',
        cryptoTransfer: {
          transfers: {
            accountAmounts: [
              { accountID: acct(1001), amount: '-1000000000' },
              { accountID: acct(1002), amount: '1000000000' },
            ],
          },
        },
      }),
    )!;
    assert.deepStrictEqual(
      [b.kind, b.title, b.summary],
      ['cryptoTransfer', 'Crypto transfer', '0.0.1001 → 0.0.1002 10 ℏ'],
    );
    const f = (label: string) => b.fields.find((x) => x.label === label);
    assert.strictEqual(f('Max transaction fee')?.value, '2 ℏ');
    assert.strictEqual(f('Memo')?.value, 'rent');
    assert.deepStrictEqual(
      f('Hbar transfers')?.children?.map((c) => `${c.label} ${c.value}`),
      ['0.0.1001 -10 ℏ', '0.0.1002 +10 ℏ'],
    );
  });

  it('keeps every digit of int64 amounts and shows several receivers, approvals and aliases', () => {
    const max = '9223372036854775807';
    const b = decodeSchedulableBody(
      encode({
        cryptoTransfer: {
          transfers: {
            accountAmounts: [
              { accountID: acct(7), amount: `-${max}`, is_approval: true },
              { accountID: acct(8), amount: '9223372036854775000' },
              {
                accountID: { shardNum: 0, realmNum: 0, alias: Buffer.from('02'.padEnd(66, 'a'), 'hex') },
                amount: '807',
              },
            ],
          },
        },
      }),
    )!;
    assert.strictEqual(b.summary, `0.0.7 → 0.0.8, 0.0.0x02${'a'.repeat(64)} 92233720368.54775807 ℏ`);
    assert.match(
      b.fields.find((x) => x.label === 'Hbar transfers')!.children![0].value,
      /^-92233720368\.54775807 ℏ \(approved allowance\)$/,
    );
  });

  it('decodes token transfers with expected decimals, and NFT transfers', () => {
    const b = decodeSchedulableBody(
      encode({
        cryptoTransfer: {
          tokenTransfers: [
            {
              token: token(5120033),
              transfers: [
                { accountID: acct(1), amount: '-12345' },
                { accountID: acct(2), amount: '12345' },
              ],
              expected_decimals: { value: 2 },
            },
            {
              token: token(4815162),
              nftTransfers: [
                { senderAccountID: acct(1), receiverAccountID: acct(3), serialNumber: '9223372036854775807' },
              ],
            },
          ],
        },
      }),
    )!;
    assert.strictEqual(
      b.summary,
      '0.0.1 → 0.0.2 123.45 of 0.0.5120033; 0.0.1 → 0.0.3 NFT 0.0.4815162 #9223372036854775807',
    );
    assert.strictEqual(b.fields.find((x) => x.label === 'Token 0.0.5120033')?.value, '123.45 (2 decimals)');
  });

  it('decodes a contract call with its function from the ABIs, or its selector when unknown', () => {
    const data = encodeFunctionData({
      abi: ERC20 as unknown as Abi,
      functionName: 'transfer',
      args: ['0x00000000000000000000000000000000000003e9', 10n ** 20n],
    });
    const body = encode({
      contractCall: {
        contractID: { shardNum: 0, realmNum: 0, contractNum: 5001 },
        gas: '300000',
        amount: '0',
        functionParameters: Buffer.from(data.slice(2), 'hex'),
      },
    });
    const reg = new AbiRegistry([{ source: 'artifacts/T.json', contractName: 'T', format: 'hardhat', abi: ERC20 }]);
    const b = decodeSchedulableBody(body, { decodeCall: (hex) => decodeCall(hex, reg) })!;
    assert.strictEqual(b.summary, 'Contract call 0.0.5001 transfer(…)');
    assert.strictEqual(b.call?.name, 'transfer');
    assert.strictEqual(
      b.fields.find((x) => x.label === 'Function')?.value,
      'transfer(to=0x00000000000000000000000000000000000003e9, value=100000000000000000000)',
    );
    assert.strictEqual(b.fields.find((x) => x.label === 'Decoded with')?.value, 'artifacts/T.json');
    assert.strictEqual(b.fields.find((x) => x.label === 'Gas')?.value, '300000');
    assert.strictEqual(decodeSchedulableBody(body)?.summary, 'Contract call 0.0.5001 0xa9059cbb');
    const paying = encode({ contractCall: { contractID: { contractNum: 9 }, amount: '250000000' } });
    assert.strictEqual(decodeSchedulableBody(paying)?.summary, 'Contract call 0.0.9 · 2.5 ℏ');
  });

  it('decodes token mint, burn, associate and a consensus message', () => {
    assert.strictEqual(
      decodeSchedulableBody(encode({ tokenMint: { token: token(77), amount: '5' } }))?.summary,
      'Token mint 0.0.77 5',
    );
    const nft = decodeSchedulableBody(
      encode({ tokenMint: { token: token(77), metadata: [Buffer.from('ipfs://a'), Buffer.from([0xff, 0x00])] } }),
    )!;
    assert.strictEqual(nft.summary, 'Token mint 0.0.77 2 NFTs');
    assert.deepStrictEqual(
      nft.fields.find((f) => f.label === 'Metadata')?.children?.map((c) => c.value),
      ['ipfs://a', '0xff00'],
    );
    assert.strictEqual(
      decodeSchedulableBody(encode({ tokenBurn: { token: token(78), amount: '18446744073709551615' } }))?.summary,
      'Token burn 0.0.78 18446744073709551615',
    );
    assert.strictEqual(
      decodeSchedulableBody(encode({ tokenBurn: { token: token(78), serialNumbers: ['1', '2'] } }))?.summary,
      'Token burn 0.0.78 serials 1, 2',
    );
    assert.strictEqual(
      decodeSchedulableBody(encode({ tokenAssociate: { account: acct(5), tokens: [token(1), token(2)] } }))?.summary,
      'Token associate 0.0.5: 0.0.1, 0.0.2',
    );
    const msg = decodeSchedulableBody(
      encode({
        consensusSubmitMessage: {
          topicID: { shardNum: 0, realmNum: 0, topicNum: 4000001 },
          message: Buffer.from('hello 👋'),
        },
      }),
    )!;
    assert.strictEqual(msg.summary, 'Consensus message 0.0.4000001');
    assert.strictEqual(msg.fields.find((f) => f.label === 'Message')?.value, 'hello 👋');
  });

  it('decodes any other kind generically: title from the field name, ids, keys, timestamps and nested fields', () => {
    const create = decodeSchedulableBody(
      encode({
        tokenCreation: {
          name: 'Sand',
          symbol: 'SND',
          decimals: 8,
          initialSupply: '1000',
          treasury: acct(2),
          adminKey: { ed25519: Buffer.alloc(32, 1) },
          expiry: { seconds: '1793491200' },
        },
      }),
    )!;
    assert.strictEqual(create.summary, 'Token create 0.0.2');
    const f = (label: string) => create.fields.find((x) => x.label === label)?.value;
    assert.strictEqual(f('name'), '"Sand"');
    assert.strictEqual(f('treasury'), '0.0.2');
    assert.strictEqual(f('adminKey'), `ed25519 0x${'01'.repeat(32)}`);
    assert.strictEqual(f('expiry'), '1793491200.000000000 (2026-11-01T00:00:00Z)');
    assert.strictEqual(
      decodeSchedulableBody(encode({ scheduleDelete: { scheduleID: { scheduleNum: 5 } } }))?.summary,
      'Schedule delete 0.0.5',
    );
    assert.strictEqual(decodeSchedulableBody(encode({ util_prng: { range: 10 } }))?.summary, 'PRNG');
  });

  it('keeps undecodable bodies: not base64, not protobuf, no transaction kind, unknown (newer) kinds', () => {
    for (const bad of [
      '',
      '!!!',
      'not base64 at all',
      Buffer.from([0xff, 0xff, 0xff, 0xff]).toString('base64'),
      encode({ transactionFee: '5', memo: 'only a fee' }),
    ]) {
      assert.strictEqual(decodeSchedulableBody(bad), undefined, bad);
    }
    // field 999 (length-delimited): a transaction kind newer than these definitions
    assert.strictEqual(
      decodeSchedulableBody(Buffer.from([0xba, 0x3e, 0x02, 0x08, 0x01]).toString('base64')),
      undefined,
    );
    assert.strictEqual(decodeSchedulableBody(null), undefined);
    assert.strictEqual(withDecimals(-5n, 3), '-0.005');
  });

  it("decodes every one of the sandbox's 333 schedules", async function () {
    this.timeout(60000);
    const sb = await startSandbox({ port: 0 });
    try {
      const schedules: Array<{ schedule_id: string; transaction_body: string }> = [];
      let next: string | null = '/api/v1/schedules?limit=100';
      while (next) {
        const page = (await (await fetch(`${sb.url}${next}`)).json()) as {
          schedules: typeof schedules;
          links: { next: string | null };
        };
        schedules.push(...page.schedules);
        next = page.links.next;
      }
      assert.strictEqual(schedules.length, 333);
      const kinds = new Map<string, number>();
      const patterns: Record<string, RegExp> = {
        cryptoTransfer: /^0\.0\.\d+ → 0\.0\.\d+ (\d+(\.\d+)? ℏ|\d+(\.\d+)? of 0\.0\.\d+|NFT 0\.0\.4815162 #\d+)$/,
        contractCall: /^Contract call 0\.0\.\d+ 0xa9059cbb$/,
        tokenMint: /^Token mint 0\.0\.4815162 [1-3] NFTs?$/,
        tokenBurn: /^Token burn 0\.0\.5120033 \d+$/,
        tokenAssociate: /^Token associate 0\.0\.\d+: 0\.0\.4815162, 0\.0\.5120033$/,
        consensusSubmitMessage: /^Consensus message 0\.0\.\d+$/,
      };
      for (const s of schedules) {
        const b = decodeSchedulableBody(s.transaction_body);
        assert.ok(b, `${s.schedule_id} decodes`);
        kinds.set(b.kind, (kinds.get(b.kind) ?? 0) + 1);
        assert.match(b.summary, patterns[b.kind], `${s.schedule_id}: ${b.summary}`);
      }
      assert.deepStrictEqual([...kinds.keys()].sort(), Object.keys(patterns).sort());
      // the executed notable schedule 0.0.5104897: an hbar transfer
      const executed = schedules.find((s) => s.schedule_id === '0.0.5104897')!;
      assert.match(decodeSchedulableBody(executed.transaction_body)!.summary, /^0\.0\.2061517 → 0\.0\.\d+ [\d.]+ ℏ$/);
    } finally {
      await sb.close();
    }
  });
});
