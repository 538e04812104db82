/**
 * The placement matrix (test/placement/matrix.ts): every failure of test/placement/contracts, compiled by real solc in
 * every optimizer and viaIR setting and executed in the sandbox's real EVM, is placed on its marked line as exact, or
 * said to be likely with the marked line among the candidates; never an exact line that is not the marked one.
 * The same with the build not handed over but found by the workspace readers in a project folder laid out as Hardhat 2,
 * Hardhat 3 (default and production profiles; Ignition's copy of the deployed build with and without its output) and
 * Foundry write it (test/placement/layouts.ts).
 */
import * as assert from 'assert';
import { CASES, type CaseResult, LAYOUTS, SETTINGS, markers, runSetting } from '../placement/matrix';

describe('revert to source: the placement matrix (real solc, real EVM)', function () {
  // the first run compiles each setting in three source namings (cached in out/placement-cache afterwards)
  this.timeout(600_000);

  it('every case has its line marked in the sources', () => {
    const m = markers();
    for (const c of CASES) assert.strictEqual(m.get(c.name)?.length, 1, `${c.name} is marked once`);
    assert.ok(CASES.filter((c) => c.adversarial).length >= 30, 'the adversarial cases of the review are in');
  });

  for (const setting of SETTINGS) {
    describe(setting.name, () => {
      /** Every layout's results; `results`: the build handed over (`direct`). */
      let all: CaseResult[];
      let results: CaseResult[];
      before(async () => {
        all = await runSetting(setting, undefined, LAYOUTS);
        results = all.filter((r) => r.layout === 'direct');
      });

      it('never shows a wrong line as exact', () => {
        const wrong = results.filter((r) => r.outcome === 'wrongExact');
        assert.deepStrictEqual(
          wrong.map((r) => `${r.case}: shown ${r.shown[0]}, marked ${r.expected}`),
          [],
        );
      });

      it('places every case: exact on the marked line, or likely with it among the candidates', () => {
        // the review's adversarial cases must never be wrong, but need not be placed (the test above covers them)
        const missed = results.filter((r) => r.outcome === 'unplaced' && !r.adversarial);
        assert.deepStrictEqual(
          missed.map((r) => `${r.case}: ${r.shown.join(', ') || 'nothing'} (${r.why ?? ''})`),
          [],
        );
        assert.strictEqual(results.length, CASES.length);
      });

      it('the internal calls shown for an exact place are the ones that led there, in order', () => {
        const vias = markers('via');
        for (const r of results.filter((x) => x.outcome === 'exact' && !x.adversarial)) {
          const want = vias.get(r.case) ?? [];
          // every call site shown is one of the marked ones, in the marked order (the optimizer may inline some)
          const shown = r.internal ?? [];
          assert.ok(
            shown.every((l) => want.includes(l)),
            `${r.case}: internal calls ${shown.join(', ')} are among ${want.join(', ') || 'none'}`,
          );
          assert.deepStrictEqual(
            shown,
            want.filter((l) => shown.includes(l)),
            `${r.case}: in order`,
          );
          if (setting.name === 'default')
            assert.deepStrictEqual(shown, want, `${r.case}: without the optimizer, every internal call is shown`);
        }
      });

      if (!setting.viaIR) {
        it('without viaIR, the reverts the compiler does not merge are exact', () => {
          // these statements have revert code of their own in every legacy build
          const mustBeExact = [
            'requireMsg',
            'requireNoMsg',
            'revertMsg',
            'customErr',
            'sharedTailA',
            'sharedTailB',
            'requireCustom',
            'panic01',
            'panic11',
            'modifier',
            'linkedLib',
            'bubble',
            'proxy',
            'tryCatch',
            'ctorRequire',
            'ctorModifier',
            'ctorBase',
          ];
          const notExact = results.filter((r) => mustBeExact.includes(r.case) && r.outcome !== 'exact');
          assert.deepStrictEqual(
            notExact.map((r) => `${r.case}: ${r.outcome} (${r.why ?? ''})`),
            [],
          );
        });
      }

      // the build found by the readers in a project folder, as the user's project gives it
      for (const layout of LAYOUTS.filter((l) => l !== 'direct')) {
        describe(`laid out as ${layout}`, () => {
          const mine = () => all.filter((r) => r.layout === layout);
          const direct = (r: CaseResult) => results.find((d) => d.case === r.case);

          it("never shows a wrong line as exact (the review's adversarial cases included)", () => {
            assert.strictEqual(mine().length, CASES.length);
            const wrong = mine().filter((r) => r.outcome === 'wrongExact');
            assert.deepStrictEqual(
              wrong.map((r) => `${r.case}: shown ${r.shown[0]}, marked ${r.expected}`),
              [],
            );
          });

          it('reads the deployment record of every deployed contract, and takes no other build than the deployed one', () => {
            assert.deepStrictEqual([...new Set(mine().flatMap((r) => r.missingRecords ?? []))], []);
            assert.deepStrictEqual(
              mine()
                .filter((r) => r.wrongBuild)
                .map((r) => `${r.case}: ${r.wrongBuild?.join('; ')}`),
              [],
            );
          });

          if (layout === 'hardhat3 (Ignition copy without output)') {
            it("without the deployed build's output: a case whose build is not found is unplaced, with why; one whose build is found is placed as with the build handed over", () => {
              // Hardhat 3's Ignition keeps the deployed (production) build's input only: the readers have no source map of
              // it, and the default profile's build is not the code on chain. A compiler producing the missing output
              // would find the build (then the second branch holds)
              const off = mine().filter((r) =>
                r.buildProblems?.length ? r.outcome !== 'unplaced' || !r.why : r.outcome !== direct(r)?.outcome,
              );
              assert.deepStrictEqual(
                off.map(
                  (r) =>
                    `${r.case}: ${r.outcome}, with the build handed over ${direct(r)?.outcome} (${r.why ?? 'no reason'})`,
                ),
                [],
              );
            });
          } else {
            it('finds the build of every frame, and every case exact with the build handed over is exact', () => {
              assert.deepStrictEqual(
                mine()
                  .filter((r) => r.buildProblems)
                  .map((r) => `${r.case}: ${r.buildProblems?.join('; ')}`),
                [],
              );
              const lost = mine().filter((r) => direct(r)?.outcome === 'exact' && r.outcome !== 'exact');
              assert.deepStrictEqual(
                lost.map((r) => `${r.case}: ${r.outcome} (${r.why ?? ''})`),
                [],
              );
            });
          }
        });
      }
    });
  }
});
