import * as assert from 'assert';
import * as fs from 'fs';
import * as path from 'path';
import { isContractCreation, looksLikeCreationCode, outcome } from '../../src/api/contractResult';
import type { ContractResult } from '../../src/api/mirrorTypes';

const specs = path.join(__dirname, '../../../test/fixtures/mirror/specs/contracts');
/** The `results` of a real spec file's response (copied from the mirror node's REST spec tests). */
function results(rel: string): ContractResult[] {
  const d = JSON.parse(fs.readFileSync(path.join(specs, rel), 'utf8')) as {
    responseJson?: { results?: ContractResult[] };
    tests?: Array<{ responseJson?: { results?: ContractResult[] } }>;
  };
  return [d, ...(d.tests ?? [])].flatMap((t) => t.responseJson?.results ?? []);
}

describe('contract result outcome (src/api/contractResult.ts)', () => {
  it('one-contract endpoint (/contracts/{id}/results, no result/status): error_message null is a success, a message a failure', () => {
    for (const file of ['{id}/results/specific-id.json', '{id}/results/evm-address-path-param.json']) {
      const rs = results(file);
      assert.ok(rs.length >= 2, file);
      for (const r of rs) {
        assert.ok(
          !Object.keys(r).includes('result') && !Object.keys(r).includes('status'),
          'the real endpoint sends neither',
        );
        assert.strictEqual(outcome(r), r.error_message === null ? 'success' : 'failure', `${file} ${r.timestamp}`);
      }
      assert.ok(rs.some((r) => outcome(r) === 'success') && rs.some((r) => outcome(r) === 'failure'));
    }
  });

  it('list endpoint (/contracts/results): result and status decide, whatever error_message says', () => {
    const failed = results('results/failed-ethereum-transaction.json');
    assert.ok(failed.length > 0);
    for (const r of failed) assert.strictEqual(outcome(r), 'failure');
    const mixed = results('results/from-sender.json');
    // the spec has SUCCESS rows with an error_message ('Not enough gas'): still a success
    assert.ok(mixed.some((r) => r.error_message));
    for (const r of mixed) assert.strictEqual(outcome(r), r.result === 'SUCCESS' ? 'success' : 'failure');
  });

  it('unknown when nothing tells it', () => {
    assert.strictEqual(outcome({}), 'unknown');
    assert.strictEqual(outcome({ result: null, status: null, error_message: null }), 'unknown');
    assert.strictEqual(outcome({ status: '0x1' }), 'success');
    assert.strictEqual(outcome({ status: '0x0', error_message: null }), 'failure');
    assert.strictEqual(outcome({ error_message: '0x08c379a0' }), 'failure');
  });
});

describe('contract creation (src/api/contractResult.ts)', () => {
  it('creation code prefixes', () => {
    for (const p of ['0x6080604052348015', '0x60a0604052', '0x60c06040523480', '0x610100604052', '0x6060604052'])
      assert.ok(looksLikeCreationCode(p), p);
    for (const p of ['0xa9059cbb0000', '0x60806040', '0x', '', null, undefined, '0x0707'])
      assert.ok(!looksLikeCreationCode(p), String(p));
  });

  it('a result that created its own contract, or carries creation code, is a creation; calls that created others are not', () => {
    assert.ok(
      isContractCreation({ contract_id: '0.0.6005', created_contract_ids: ['0.0.6005'], function_parameters: '0x' }),
    );
    assert.ok(
      isContractCreation({
        contract_id: '0.0.6005',
        created_contract_ids: [],
        to: null,
        function_parameters: '0x6080604052348015600e575f80fd5b50',
      }),
    );
    for (const r of [...results('{id}/results/specific-id.json'), ...results('results/from-sender.json')]) {
      // real spec rows: 0.0.5001 created 0.0.7001 (a child), call data 0x0707/0x0303
      assert.strictEqual(isContractCreation(r), false, `${r.contract_id} ${String(r.created_contract_ids)}`);
    }
  });
});
