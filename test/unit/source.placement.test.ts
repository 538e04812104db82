/**
 * The placement matrix (test/placement/matrix.ts): every failure of test/placement/contracts, compiled by real solc in
 * every optimizer and viaIR setting and executed in the sandbox's real EVM, is placed on its marked line as exact, or
 * said to be likely with the marked line among the candidates; never an exact line that is not the marked one.
 */
import * as assert from 'assert';
import { CASES, type CaseResult, SETTINGS, markers, runSetting } from '../placement/matrix';

describe('revert to source: the placement matrix (real solc, real EVM)', function () {
  this.timeout(180_000);

  it('every case has its line marked in the sources', () => {
    const m = markers();
    for (const c of CASES) assert.strictEqual(m.get(c.name)?.length, 1, `${c.name} is marked once`);
    assert.ok(CASES.filter((c) => c.adversarial).length >= 30, 'the adversarial cases of the review are in');
  });

  for (const setting of SETTINGS) {
    describe(setting.name, () => {
      let results: CaseResult[];
      before(async () => {
        results = await runSetting(setting);
      });

      it('never shows a wrong line as exact', () => {
        const wrong = results.filter((r) => r.outcome === 'wrongExact');
        assert.deepStrictEqual(wrong.map((r) => `${r.case}: shown ${r.shown[0]}, marked ${r.expected}`), []);
      });

      it('places every case: exact on the marked line, or likely with it among the candidates', () => {
        // the review's adversarial cases must never be wrong, but need not be placed (the test above covers them)
        const missed = results.filter((r) => r.outcome === 'unplaced' && !r.adversarial);
        assert.deepStrictEqual(missed.map((r) => `${r.case}: ${r.shown.join(', ') || 'nothing'} (${r.why ?? ''})`), []);
        assert.strictEqual(results.length, CASES.length);
      });

      it('the internal calls shown for an exact place are the ones that led there, in order', () => {
        const vias = markers('via');
        for (const r of results.filter((x) => x.outcome === 'exact' && !x.adversarial)) {
          const want = vias.get(r.case) ?? [];
          // every call site shown is one of the marked ones, in the marked order (the optimizer may inline some)
          const shown = r.internal ?? [];
          assert.ok(shown.every((l) => want.includes(l)), `${r.case}: internal calls ${shown.join(', ')} are among ${want.join(', ') || 'none'}`);
          assert.deepStrictEqual(shown, want.filter((l) => shown.includes(l)), `${r.case}: in order`);
          if (setting.name === 'default') assert.deepStrictEqual(shown, want, `${r.case}: without the optimizer, every internal call is shown`);
        }
      });

      if (!setting.viaIR) {
        it('without viaIR, the reverts the compiler does not merge are exact', () => {
          // these statements have revert code of their own in every legacy build
          const mustBeExact = ['requireMsg', 'requireNoMsg', 'revertMsg', 'customErr', 'sharedTailA', 'sharedTailB', 'requireCustom', 'panic01', 'panic11', 'modifier', 'linkedLib', 'bubble', 'proxy', 'tryCatch', 'ctorRequire', 'ctorModifier', 'ctorBase'];
          const notExact = results.filter((r) => mustBeExact.includes(r.case) && r.outcome !== 'exact');
          assert.deepStrictEqual(notExact.map((r) => `${r.case}: ${r.outcome} (${r.why ?? ''})`), []);
        });
      }
    });
  }
});
