// Revert to source with Sourcify's verified sources (src/api/source/sourcify.ts): a Sourcify v2 answer
// (stdJsonInput, stdJsonOutput, compilation) read as a build places every pc where the workspace's own build does.
import * as assert from 'assert';
import * as fs from 'fs';
import * as path from 'path';
import { locatePc } from '../../src/api/source/locate';
import { codeBytes, instructionSize } from '../../src/api/source/sourceMap';
import { verifiedBuildOf } from '../../src/api/source/sourcify';

// the committed build info, found as Hardhat finds it: through the Vault's debug file (its name changes with the sources)
const VAULT_DBG = path.join(
  __dirname,
  '../../../test/workspace/artifacts/contracts/inspector/Vault.sol/Vault.dbg.json',
);
const BUILD_INFO = path.resolve(
  path.dirname(VAULT_DBG),
  (JSON.parse(fs.readFileSync(VAULT_DBG, 'utf8')) as { buildInfo: string }).buildInfo,
);

describe("source: Sourcify's verified sources as a build", () => {
  const info = JSON.parse(fs.readFileSync(BUILD_INFO, 'utf8')) as {
    input: unknown;
    output: { contracts: Record<string, Record<string, { evm: { deployedBytecode: { object: string } } }>> };
  };
  const answer = (fqn: string) => ({
    compilation: { fullyQualifiedName: fqn, compilerVersion: '0.8.28+commit.7893614a' },
    stdJsonInput: info.input,
    stdJsonOutput: info.output,
    match: 'exact_match',
  });

  it('places every REVERT of the Vault and the Ledger where the workspace build does', () => {
    for (const fqn of ['contracts/inspector/Vault.sol:Vault', 'contracts/inspector/Ledger.sol:Ledger']) {
      const v = verifiedBuildOf(answer(fqn));
      assert.ok(v, fqn);
      assert.strictEqual(v.identifier, fqn);
      const [source, name] = [fqn.slice(0, fqn.lastIndexOf(':')), fqn.slice(fqn.lastIndexOf(':') + 1)];
      const code = codeBytes(info.output.contracts[source][name].evm.deployedBytecode.object);
      let reverts = 0;
      for (let pc = 0; pc < code.length; pc += instructionSize(code[pc])) {
        if (code[pc] !== 0xfd) continue;
        reverts++;
        const direct = locatePc(info as never, fqn, pc);
        const viaSourcify = locatePc(v.build, v.identifier, pc);
        assert.deepStrictEqual(viaSourcify, direct, `${fqn} pc ${pc}`);
      }
      assert.ok(reverts > 3, `${fqn}: ${reverts} REVERTs compared`);
    }
  });

  it('an answer without the output, the name or a runtime source map is no build', () => {
    assert.strictEqual(verifiedBuildOf(undefined), undefined);
    assert.strictEqual(verifiedBuildOf({ compilation: { fullyQualifiedName: 'x' } }), undefined);
    assert.strictEqual(
      verifiedBuildOf({ ...answer('contracts/inspector/Vault.sol:Vault'), stdJsonOutput: {} }),
      undefined,
    );
    assert.strictEqual(verifiedBuildOf(answer('contracts/inspector/Vault.sol:Nope')), undefined);
    assert.strictEqual(
      verifiedBuildOf({ ...answer('contracts/inspector/Vault.sol:Vault'), compilation: { fullyQualifiedName: 42 } }),
      undefined,
    );
  });
});
