import * as assert from 'assert';
import { encodeErrorResult, toFunctionSelector } from 'viem';
import type { Abi } from 'viem';
import { AbiRegistry, decodeContractResult, decodeError, sourcifyRegistry } from '../../src/api/decode';
import { normalizeAbi } from '../../src/api/decode/abiFiles';
import { decodeRevert } from '../../src/api/revert';

/** Errors whose selectors happen to be printable ASCII, found by their selector, not picked by hand. */
const PRINTABLE = (sig: string) =>
  Buffer.from(toFunctionSelector(sig).slice(2), 'hex').every((b) => b >= 0x20 && b < 0x7f);

const ABI = [
  { type: 'error', name: 'OnlyAdmin', inputs: [] },
  { type: 'error', name: 'Paused', inputs: [] },
  { type: 'error', name: 'TooLow', inputs: [{ name: 'have', type: 'uint256' }] },
] as const;
const reg = new AbiRegistry([
  { source: 'artifacts/contracts/Rig.sol/Rig.json', contractName: 'Rig', format: 'hardhat', abi: normalizeAbi(ABI) },
]);

describe('revert data: ABIs before text', () => {
  it('a custom error without arguments whose selector is printable ASCII is named from the ABI', () => {
    assert.ok(PRINTABLE('OnlyAdmin()'), 'OnlyAdmin() has a printable selector (0x47556579, "GUey")');
    const data = encodeErrorResult({ abi: ABI as Abi, errorName: 'OnlyAdmin' });
    const d = decodeError(data, reg);
    assert.strictEqual(d?.name, 'OnlyAdmin');
    assert.strictEqual(d?.kind, 'custom');
    assert.strictEqual(d?.message, 'OnlyAdmin()');
    assert.strictEqual(d?.origin?.label, 'artifacts/contracts/Rig.sol/Rig.json');
    // the same through the result decoder, and with a Sourcify ABI of the contract alone
    assert.strictEqual(
      decodeContractResult({ function_parameters: '0x', call_result: '0x', error_message: data }, true, reg).error
        ?.name,
      'OnlyAdmin',
    );
    assert.strictEqual(
      decodeError(data, undefined, sourcifyRegistry(ABI, '0x' + '11'.repeat(20), 296))?.name,
      'OnlyAdmin',
    );
  });

  it('any printable selector with ABI-shaped arguments is tried against the ABIs', () => {
    // an error with one bytes32 argument whose selector is printable, searched for (about 1 name in 7 fits)
    let name = '';
    for (let i = 0; !name; i++) if (PRINTABLE(`Denied${i}(bytes32)`)) name = `Denied${i}`;
    const data = `${toFunctionSelector(`${name}(bytes32)`)}${'41'.repeat(32)}`; // printable: selector + 32 x "A"
    assert.strictEqual(decodeRevert(data)?.kind, 'text');
    const abi = [{ type: 'error', name, inputs: [{ name: 'tag', type: 'bytes32' }] }];
    const d = decodeError(
      data,
      new AbiRegistry([{ source: 'x.abi', contractName: 'x', format: 'abi', abi: normalizeAbi(abi) }]),
    );
    assert.strictEqual(d?.name, name);
    assert.strictEqual(d?.args?.[0].value, `0x${'41'.repeat(32)}`);
  });

  it('text stays the last resort: unknown to every ABI, printable data is shown as text with the possible selector', () => {
    const data = toFunctionSelector('OnlyAdmin()');
    const bare = decodeRevert(data);
    assert.strictEqual(bare?.kind, 'text');
    assert.strictEqual(bare?.message, 'GUey');
    assert.strictEqual(bare?.selector, '0x47556579', 'the selector is kept so that an ABI can still be consulted');
    assert.strictEqual(decodeError(data, new AbiRegistry())?.message, 'GUey');
    // Hedera's hex-encoded response codes stay text, with no selector (not shaped like ABI-encoded data)
    const code = decodeError('0x494e53554646494349454e545f474153', reg);
    assert.deepStrictEqual([code?.kind, code?.message, code?.selector], ['text', 'INSUFFICIENT_GAS', undefined]);
  });
});
