import * as assert from 'assert';
import * as fs from 'fs';
import * as path from 'path';
import { formatEvmAddress, formatHexQuantity, hexToDecimal } from '../../src/api/format';
import type { ContractResult } from '../../src/api/mirrorTypes';

/** Results recorded from a real mirror node (GET /api/v1/contracts/results). */
const captured = (
  JSON.parse(
    fs.readFileSync(path.join(__dirname, '../../../test/fixtures/mirror/captured/contracts_results.json'), 'utf8'),
  ) as { results: ContractResult[] }
).results;

describe('format: hex quantities and EVM addresses (src/api/format.ts)', () => {
  it('an empty quantity ("0x", native results) reads as none, not "0x (0x)"', () => {
    assert.strictEqual(formatHexQuantity('0x'), '0x (none)');
    assert.strictEqual(formatHexQuantity('0x0'), '0x0 (0)');
    assert.strictEqual(formatHexQuantity('0x00'), '0x00 (0)');
    assert.strictEqual(formatHexQuantity('0x4a817c80'), '0x4a817c80 (1250000000)');
    assert.strictEqual(formatHexQuantity('0x128'), '0x128 (296)');
    assert.strictEqual(formatHexQuantity('0xad78ebc5ac620000'), '0xad78ebc5ac620000 (12500000000000000000)');
    assert.strictEqual(formatHexQuantity(null), '');
    assert.strictEqual(formatHexQuantity(undefined), '');
    assert.strictEqual(formatHexQuantity('abc'), 'abc');
    // the existing helper is unchanged
    assert.strictEqual(hexToDecimal('0x'), '0x');
  });

  it('the real payload: every quantity formats, chain ids with their decimal value', () => {
    assert.ok(captured.length > 0);
    for (const r of captured) {
      for (const v of [r.gas_price, r.max_fee_per_gas, r.max_priority_fee_per_gas, r.chain_id]) {
        const out = formatHexQuantity(v);
        if (v) assert.ok(out.startsWith(v) && !out.endsWith(`(${v})`), `${v} → ${out}`);
        else assert.strictEqual(out, '');
      }
    }
    assert.ok(
      captured.some((r) => r.chain_id && formatHexQuantity(r.chain_id) === `${r.chain_id} (${BigInt(r.chain_id)})`),
    );
  });

  it('long-zero addresses read as their entity id with the address beside; others are unchanged', () => {
    assert.strictEqual(
      formatEvmAddress('0x0000000000000000000000000000000000001775'),
      '0.0.6005 (0x0000000000000000000000000000000000001775)',
    );
    const evm = '0x58598a70c23487d16735d18127e5deef73c94c0d';
    assert.strictEqual(formatEvmAddress(evm), evm);
    assert.strictEqual(formatEvmAddress(null), '');
    assert.strictEqual(
      formatEvmAddress('0x0000000000000000000000000000000000000000'),
      '0x0000000000000000000000000000000000000000',
    );
    // the real payload: from and to of every result are long-zero and read as 0.0.x
    for (const r of captured) {
      for (const a of [r.from, r.to]) if (a) assert.match(formatEvmAddress(a), /^0\.0\.\d+ \(0x0{20}[0-9a-f]{20}\)$/);
    }
  });
});
