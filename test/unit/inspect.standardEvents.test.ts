import * as assert from 'assert';
import { toEventSelector, toFunctionSelector } from 'viem';
import { standardErrors, standardEvents, standardFunctions } from '../../src/api/inspect/standardEvents';

const TRANSFER = '0xddf252ad1be2c89b69c2b068fc378daa952ba7f163c4a11628f55a4df523b3ef';

describe('inspect: standard token events, functions and errors (src/api/inspect/standardEvents.ts)', () => {
  const byLabel = (label: string) => standardEvents().find((s) => s.label === label)!.registry;

  it('ERC-20 and ERC-721 Transfer share topic 0; the number of indexed arguments differs (2 vs 3)', () => {
    const erc20 = byLabel('ERC-20').eventByTopic(TRANSFER);
    const erc721 = byLabel('ERC-721').eventByTopic(TRANSFER);
    assert.strictEqual(erc20.length, 1);
    assert.strictEqual(erc721.length, 1);
    assert.strictEqual(erc20[0].item.inputs.filter((p) => p.indexed).length, 2);
    assert.deepStrictEqual(
      erc721[0].item.inputs.map((p) => [p.name, !!p.indexed]),
      [
        ['from', true],
        ['to', true],
        ['tokenId', true],
      ],
    );
    assert.strictEqual(standardEvents()[0].label, 'ERC-20', 'tried first');
  });

  it('ERC-1155 events by their real topics; ApprovalForAll declared once for ERC-721 and ERC-1155', () => {
    const erc1155 = byLabel('ERC-1155');
    assert.strictEqual(
      erc1155.eventByTopic('0xc3d58168c5ae7397731d063d5bbf3d657854427343f4c083240f7aacaa2d0f62')[0]?.item.name,
      'TransferSingle',
    );
    assert.strictEqual(
      erc1155.eventByTopic('0x4a39dc06d4c0dbc64b70af90fd698a233a518aa5d07e595d983b8c0526c8f7fb')[0]?.item.name,
      'TransferBatch',
    );
    assert.strictEqual(erc1155.eventByTopic(toEventSelector('URI(string,uint256)'))[0]?.item.inputs[1].indexed, true);
    const all = standardEvents().flatMap((s) =>
      s.registry.eventByTopic(toEventSelector('ApprovalForAll(address,address,bool)')).map(() => s.label),
    );
    assert.deepStrictEqual(all, ['ERC-721 / ERC-1155']);
  });

  it('functions: ERC-20 transfer, ERC-721 ownerOf and both safeTransferFrom, ERC-1155 safeBatchTransferFrom', () => {
    const [erc20, erc721, erc1155] = standardFunctions().map((s) => s.registry);
    assert.strictEqual(erc20.functionBySelector('0xa9059cbb')[0]?.item.name, 'transfer');
    assert.strictEqual(erc721.functionBySelector(toFunctionSelector('ownerOf(uint256)')).length, 1);
    assert.strictEqual(erc721.functionBySelector('0x42842e0e').length, 1);
    assert.strictEqual(erc721.functionBySelector('0xb88d4fde').length, 1);
    assert.strictEqual(erc1155.functionBySelector('0x2eb2c2d6')[0]?.item.name, 'safeBatchTransferFrom');
  });

  it('ERC-6093 errors: ERC20InsufficientBalance by its selector', () => {
    assert.strictEqual(standardErrors().errorBySelector('0xe450d38c')[0]?.item.name, 'ERC20InsufficientBalance');
  });
});
