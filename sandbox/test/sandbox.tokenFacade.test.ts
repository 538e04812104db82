/**
 * Token facades (HIP-218) on the sandbox's EVM: a token's long-zero address runs Hedera's redirect code, whose
 * DELEGATECALL to the token service 0x167 is answered from the sandbox's token data (ERC-20 `balanceOf` and
 * `transfer`); and TokenPayer, the contract of the facade scenarios, is what solc compiles from its source.
 */
import * as assert from 'assert';
import * as fs from 'fs';
import * as path from 'path';
import { pathToFileURL } from 'url';
import { EvmChain, TRANSFER_TOPIC } from '../src/evm';
import { tokenRedirectCode } from '../../src/api/replay/facade';

const COMPILED = path.join(__dirname, '../../../sandbox/src/compiled');
const TOKEN = '0x0000000000000000000000000000000000001b5c';
const HOLDER = '0x00000000000000000000000000000000000003e8';
const RECEIVER = '0x00000000000000000000000000000000000003e9';
const word = (v: bigint | string): string =>
  (typeof v === 'bigint' ? v.toString(16) : v.replace(/^0x/, '')).padStart(64, '0');
const utf8 = (hex: string): string => Buffer.from(hex.replace(/^0x/, ''), 'hex').toString('utf8');

describe('sandbox: token facades (HIP-218) on its EVM', function () {
  this.timeout(60_000);

  it('tokenPayer.json is what solc compiles from TokenPayer.sol now (else run node sandbox/src/compiled/tokenPayer.mjs)', async () => {
    // the script is ES module code run by Node itself (not bundled): import() of its file URL
    const script = (await import(pathToFileURL(path.join(COMPILED, 'tokenPayer.mjs')).href)) as {
      compileTokenPayer: () => unknown;
    };
    const committed = JSON.parse(fs.readFileSync(path.join(COMPILED, 'tokenPayer.json'), 'utf8')) as unknown;
    assert.deepStrictEqual(script.compileTokenPayer(), committed);
  });

  describe('a call to the token address', () => {
    let chain: EvmChain;
    before(async () => {
      chain = await EvmChain.create();
      await chain.addAccount({ address: HOLDER, entityId: '0.0.1000', balance: 10n ** 12n });
      await chain.addAccount({ address: RECEIVER, entityId: '0.0.1001' });
      await chain.addToken(TOKEN, '0.0.7004');
      chain.system.setTokenBalance(TOKEN, HOLDER, 1_000n);
      chain.system.associate(TOKEN, RECEIVER);
    });

    it("runs Hedera's redirect code there, which DELEGATECALLs 0x167 with redirectForToken", async () => {
      assert.strictEqual(await chain.codeOf(TOKEN), `0x${tokenRedirectCode(TOKEN)}`);
      const ex = await chain.call({ from: HOLDER, to: TOKEN, data: `0x70a08231${word(HOLDER)}`, gas: 100_000 });
      assert.strictEqual(ex.success, true);
      assert.strictEqual(BigInt(ex.returnValue), 1_000n);
      assert.deepStrictEqual(
        ex.actions.map((a) => `${a.call_depth} ${a.call_operation_type} ${a.call_type} ${a.caller}>${a.recipient}`),
        ['0 CALL CALL 0.0.1000>0.0.7004', '1 DELEGATECALL PRECOMPILE 0.0.7004>0.0.359'],
      );
      assert.strictEqual(ex.actions[1].input, `0x618dc65e${TOKEN.slice(2)}70a08231${word(HOLDER)}`);
    });

    it('transfer: from the caller of the facade, with the token’s Transfer; refused, it reverts with the code’s name', async () => {
      const ok = await chain.call({
        from: HOLDER,
        to: TOKEN,
        data: `0xa9059cbb${word(RECEIVER)}${word(400n)}`,
        gas: 100_000,
        commit: true,
      });
      assert.strictEqual(ok.success, true);
      assert.strictEqual(BigInt(ok.returnValue), 1n);
      assert.deepStrictEqual(ok.logs, [
        {
          address: TOKEN,
          topics: [TRANSFER_TOPIC, `0x${word(HOLDER)}`, `0x${word(RECEIVER)}`],
          data: `0x${word(400n)}`,
        },
      ]);
      assert.strictEqual(chain.system.tokenBalance(TOKEN, RECEIVER), 400n);
      const refused = await chain.call({
        from: HOLDER,
        to: TOKEN,
        data: `0xa9059cbb${word(RECEIVER)}${word(601n)}`,
        gas: 100_000,
      });
      assert.strictEqual(refused.result, 'CONTRACT_REVERT_EXECUTED');
      assert.strictEqual(utf8(refused.returnValue), 'INSUFFICIENT_TOKEN_BALANCE');
      assert.strictEqual(chain.system.tokenBalance(TOKEN, HOLDER), 600n);
      // a call with value: the redirect code refuses it before it reaches the token service
      const paid = await chain.call({
        from: HOLDER,
        to: TOKEN,
        data: `0x70a08231${word(HOLDER)}`,
        value: 1n,
        gas: 100_000,
      });
      assert.strictEqual(paid.result, 'CONTRACT_REVERT_EXECUTED');
      assert.strictEqual(paid.actions.length, 1);
    });
  });
});
