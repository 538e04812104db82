/**
 * The debugger on a contract the workspace did not build: the frame's build from the lookup revert to source uses
 * too (src/workspace/frameBuild.ts), which falls back to Sourcify's verified sources; the sandbox's real execution
 * indexed over that build places the failing statement where the workspace's own build does, its sources not the
 * workspace's (folder -1: the adapter serves them read-only).
 */
import * as assert from 'assert';
import * as fs from 'fs';
import * as path from 'path';
import compiled from '../../sandbox/src/compiled/inspector.json';
import { inspectorRuns, opcodesOf } from '../../sandbox/src/mirror/executions';
import { DebugTrace } from '../../src/api/debug/trace';
import type { HttpClient } from '../../src/api/http';
import { DeployedBuilds } from '../../src/workspace/deployedBuild';
import { FrameBuilds, type ResolvedFrameBuild } from '../../src/workspace/frameBuild';

const ROOT = path.join(__dirname, '../../..');
const BUILD_INFO = path.join(ROOT, 'test/workspace/artifacts/build-info', `${compiled.buildInfoId}.json`);
const VAULT_SOL = 'contracts/inspector/Vault.sol';

describe("debug: a contract built elsewhere, debugged in Sourcify's verified sources", function () {
  this.timeout(60000);

  it('the lookup falls back to Sourcify (once per address); the trace places the revert on the verified source', async () => {
    const info = JSON.parse(fs.readFileSync(BUILD_INFO, 'utf8')) as {
      input: unknown;
      output: { contracts: Record<string, Record<string, { evm: { deployedBytecode: { object: string } } }>> };
    };
    const vault = compiled.contracts.find((c) => c.name === 'Vault');
    assert.ok(vault);
    const address = vault.address.toLowerCase();
    const asked: string[] = [];
    const http = {
      get: async (url: string) => {
        asked.push(url);
        const known = url.includes(`/v2/contract/296/${address}?`);
        return {
          status: known ? 200 : 404,
          url,
          headers: {},
          tries: 1,
          data: known
            ? {
                compilation: { fullyQualifiedName: `${VAULT_SOL}:Vault` },
                stdJsonInput: info.input,
                stdJsonOutput: info.output,
              }
            : undefined,
        };
      },
    } as unknown as HttpClient;
    const lookup = new FrameBuilds({
      network: () => ({ chainId: 296, verifyUrl: 'https://sourcify.example/server/', http }),
      contract: async (idOrAddress) =>
        idOrAddress.toLowerCase() === address
          ? {
              evm_address: address,
              runtime_bytecode: info.output.contracts[VAULT_SOL].Vault.evm.deployedBytecode.object,
            }
          : null,
    });
    // a workspace with no builds at all
    const builds = await DeployedBuilds.read([]);
    const found = await lookup.of(address, undefined, builds, []);
    assert.ok(found && 'build' in found, JSON.stringify(found));
    const fb = found as ResolvedFrameBuild;
    assert.strictEqual(fb.contract, `${VAULT_SOL}:Vault`);
    assert.strictEqual(fb.built.build.folder, -1, 'not a workspace folder: shown read-only');
    await lookup.of(address, undefined, builds, []);
    assert.deepStrictEqual(asked, [
      `https://sourcify.example/server/v2/contract/296/${address}?fields=stdJsonInput,stdJsonOutput,compilation`,
    ]);
    // not verified: nothing, and no line
    assert.strictEqual(await lookup.of(`0x${'12'.repeat(20)}`, undefined, builds, []), undefined);

    const run = (await inspectorRuns()).get('inspectorInternalRevert');
    assert.ok(run);
    const opcodes = await opcodesOf('inspectorInternalRevert', { stack: true, memory: true, storage: true });
    const t = new DebugTrace({
      opcodes: opcodes.opcodes,
      actions: run.ex.actions,
      top: opcodes,
      resolve: (f) => (f.address === address ? fb : undefined),
    });
    assert.deepStrictEqual(t.failurePlace, { exact: true });
    const p = t.place(t.failing);
    assert.ok(p);
    assert.strictEqual(p.location.sourceName, VAULT_SOL);
    const lines = (info.input as { sources: Record<string, { content: string }> }).sources[VAULT_SOL].content.split(
      '\n',
    );
    assert.match(lines[p.location.line - 1], /require\(amount <= held/);
    assert.ok(t.sources().get(VAULT_SOL)?.content, 'the verified text, for the read-only editor');
  });
});
