import * as assert from 'assert';
import * as fs from 'fs';
import { createRequire } from 'module';
import * as path from 'path';
import { encodeFunctionData, getAddress, parseAbi, toFunctionSelector } from 'viem';
import { decodeCall } from '../../src/api/decode/abi';
import {
  facadeRegistry,
  responseCodeName,
  responseCodeText,
  systemContractAt,
  systemRegistry,
} from '../../src/api/inspect/systemContracts';

const ROOT = path.join(__dirname, '../../..');

/**
 * The function selectors of the real interfaces, compiled with solc 0.8.28 from hashgraph/hedera-smart-contracts
 * (contracts/system-contracts at 72bf8dd0^, the last commit before that folder was removed): IHederaTokenService,
 * its -v2 (HIP-646/657 metadata) variant, IExchangeRate, IPrngSystemContract, IHederaAccountService.
 */
const HTS =
  '0x012ebcaf 0x05961641 0x098f2366 0x099794e8 0x0e71804f 0x0fb65bf3 0x15dacbea 0x19f37361 0x1f69565f 0x287e1da8 0x2af0c59a 0x2c4ba191 0x2e63879b 0x2f348119 0x30727a29 0x335e04c1 0x367605ca 0x3b3bff0f 0x3c4dd32e 0x3f28a19b 0x46de0fb1 0x49146bde 0x52f91387 0x5b8f8584 0x5cfc9011 0x618dc65e 0x6fc3cbaf 0x7336aaf0 0x78b63918 0x7c41ad2c 0x7d305cfa 0x82bba493 0x8f8d7f99 0x927da105 0x93272baf 0x9b23d3d9 0xa7daa18d 0xabb54eb5 0xae7611a0 0xaf99c633 0xd27be6cd 0xd5f60c47 0xd614cdb8 0xd6910d06 0xe0f4059a 0xe1f21c67 0xea83f293 0xebd595e0 0xeca36917 0xefef57f9 0xf069f712 0xf2c31ff4 0xf49f40db 0xf7f38e26';
const HTS_V2 = '0x0fcaca1f 0x54c832a5 0x5ac3e67a 0x7cb8323a 0xad7f8f0b 0xc5bc16bc';
/** Older versions the network still answers: cryptoTransfer v1, mint/burn/wipe with unsigned amounts, token creation v1/v2, approveNFT/getApproved with int64. */
const HTS_OLD =
  '0x189a554c 0x278e0b88 0xacb9cff9 0x9790686d 0x7812a04b 0xc23baeb6 0x9dc711e0 0x9c89bb35 0x10585c46 0x01b2194b';
const EXCHANGE_RATE = '0x2e3cff6a 0x43a88229';
const PRNG = '0xd83bf9a1';
const HAS = '0x308ef301 0xa0918464 0xb2526367 0xb2a31da4 0xbbf12d2e 0xdea3d081 0xfec46666';

const sels = (s: string) => s.split(' ');

describe('inspect: Hedera system contracts (src/api/inspect/systemContracts.ts)', () => {
  it('names 0x167, 0x168, 0x169, 0x16a by long-zero address and entity id, any letter case; other addresses are not system contracts', () => {
    assert.strictEqual(systemContractAt('0x0000000000000000000000000000000000000167')?.name, 'Hedera Token Service');
    assert.strictEqual(systemContractAt('0.0.359')?.name, 'Hedera Token Service');
    assert.strictEqual(systemContractAt('0x0000000000000000000000000000000000000168')?.name, 'Exchange Rate');
    assert.strictEqual(systemContractAt('0.0.361')?.name, 'PRNG');
    assert.strictEqual(systemContractAt('0x000000000000000000000000000000000000016A')?.name, 'Hedera Account Service');
    assert.strictEqual(systemContractAt('0x0000000000000000000000000000000000000001')?.name, 'ecrecover precompile');
    assert.strictEqual(systemContractAt('0.0.1001'), undefined);
    assert.strictEqual(systemContractAt('0x8a71dd444b077c45f2ca828082aa6c726a879555'), undefined);
    assert.strictEqual(systemContractAt(null), undefined);
    assert.strictEqual(systemContractAt('<script>'), undefined);
    assert.strictEqual(
      systemRegistry('0x0000000000000000000000000000000000000001'),
      undefined,
      'a precompile is named, not decoded',
    );
  });

  it('every function selector of the real interfaces is declared (the current, -v2 and older versions)', () => {
    const check = (addr: string, list: string) => {
      const reg = systemRegistry(addr)!;
      assert.ok(reg, addr);
      const missing = sels(list).filter((s) => reg.functionBySelector(s).length === 0);
      assert.deepStrictEqual(missing, [], `${addr}: not declared`);
    };
    check('0.0.359', HTS);
    check('0.0.359', HTS_V2);
    check('0.0.359', HTS_OLD);
    check('0.0.360', EXCHANGE_RATE);
    check('0.0.361', PRNG);
    check('0.0.362', HAS);
  });

  it('decodes transferToken, cryptoTransfer (v2 with structs), associateToken and redirectForToken with their real selectors', () => {
    const hts = systemRegistry('0x0000000000000000000000000000000000000167')!;
    const token = '0x0000000000000000000000000000000000000457';
    const alice = '0x00000000000000000000000000000000000004d2';
    const bob = '0x8a71dd444b077c45f2ca828082aa6c726a879555';
    const abi = parseAbi(['function transferToken(address token, address sender, address recipient, int64 amount)']);
    const data = encodeFunctionData({ abi, args: [token, alice, bob, -(2n ** 63n)] });
    assert.strictEqual(data.slice(0, 10), '0xeca36917');
    const d = decodeCall(data, hts)!;
    assert.strictEqual(d.name, 'transferToken');
    assert.deepStrictEqual(
      d.args.map((a) => [a.name, a.type, a.value]),
      [
        ['token', 'address', token],
        ['sender', 'address', alice],
        ['recipient', 'address', getAddress(bob)],
        ['amount', 'int64', '-9223372036854775808'],
      ],
    );

    const ct = parseAbi([
      'struct AccountAmount { address accountID; int64 amount; bool isApproval; }',
      'struct NftTransfer { address senderAccountID; address receiverAccountID; int64 serialNumber; bool isApproval; }',
      'struct TokenTransferList { address token; AccountAmount[] transfers; NftTransfer[] nftTransfers; }',
      'struct TransferList { AccountAmount[] transfers; }',
      'function cryptoTransfer(TransferList transferList, TokenTransferList[] tokenTransfers)',
    ]);
    const ctData = encodeFunctionData({
      abi: ct,
      args: [
        {
          transfers: [
            { accountID: alice, amount: -5n, isApproval: false },
            { accountID: bob, amount: 5n, isApproval: false },
          ],
        },
        [
          {
            token,
            transfers: [],
            nftTransfers: [
              { senderAccountID: alice, receiverAccountID: bob, serialNumber: 9223372036854775807n, isApproval: true },
            ],
          },
        ],
      ],
    });
    assert.strictEqual(ctData.slice(0, 10), '0x0e71804f');
    const c = decodeCall(ctData, hts)!;
    assert.strictEqual(
      c.signature,
      'cryptoTransfer(((address,int64,bool)[]),(address,(address,int64,bool)[],(address,address,int64,bool)[])[])',
    );
    assert.strictEqual(c.args[1].children?.[0].children?.[2].children?.[0].children?.[2].value, '9223372036854775807');

    assert.strictEqual(toFunctionSelector('associateToken(address,address)'), '0x49146bde');
    assert.strictEqual(
      decodeCall(
        encodeFunctionData({ abi: parseAbi(['function associateToken(address,address)']), args: [alice, token] }),
        hts,
      )?.name,
      'associateToken',
    );
    assert.strictEqual(hts.functionBySelector('0x618dc65e')[0]?.signature, 'redirectForToken(address,bytes)');
  });

  it('the token and account facades: associate(), hbarApprove(address,int256)', () => {
    const f = facadeRegistry();
    assert.strictEqual(f.functionBySelector(toFunctionSelector('associate()'))[0]?.item.name, 'associate');
    assert.strictEqual(
      f.functionBySelector(toFunctionSelector('hbarApprove(address,int256)'))[0]?.item.name,
      'hbarApprove',
    );
    assert.strictEqual(f.functionBySelector(toFunctionSelector('isAssociated()'))[0]?.item.outputs?.[0].type, 'bool');
  });

  it('response codes named from @hashgraph/proto ResponseCodeEnum; unknown codes stay numbers', () => {
    assert.strictEqual(responseCodeName(22), 'SUCCESS');
    assert.strictEqual(responseCodeName(22n), 'SUCCESS');
    assert.strictEqual(responseCodeName('167'), 'INVALID_TOKEN_ID');
    assert.strictEqual(responseCodeName(184), 'TOKEN_NOT_ASSOCIATED_TO_ACCOUNT');
    assert.strictEqual(responseCodeText('7'), 'INVALID_SIGNATURE (7)');
    assert.strictEqual(responseCodeText(99999), '99999');
    assert.strictEqual(responseCodeText('-1'), '-1');
    assert.strictEqual(responseCodeName('toString'), undefined);
    assert.strictEqual(responseCodeName('__proto__'), undefined);
  });

  it('responseCodes.json is what responseCodes.build.cjs reads from the installed @hashgraph/proto', () => {
    const build = createRequire(__filename)(path.join(ROOT, 'src/api/inspect/responseCodes.build.cjs')) as {
      responseCodeTable(root: string): unknown;
    };
    const committed = JSON.parse(fs.readFileSync(path.join(ROOT, 'src/api/inspect/responseCodes.json'), 'utf8')) as {
      codes: Record<string, string>;
    };
    assert.deepStrictEqual(committed, build.responseCodeTable(ROOT));
    assert.ok(Object.keys(committed.codes).length > 350);
    // the .proto itself, read as text: SUCCESS = 22
    const proto = fs.readFileSync(
      path.join(ROOT, 'node_modules/@hashgraph/proto/src/proto/services_response_code.proto'),
      'utf8',
    );
    assert.match(proto, /\bSUCCESS = 22;/);
    assert.strictEqual(committed.codes['22'], 'SUCCESS');
  });
});
