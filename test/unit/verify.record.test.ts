// The kept result of a run: built from a session result (files mapped to the workspace), from a v2 job plus the
// local check, or from an error; plain JSON for workspaceState; a text summary for "Copy Verification Result".
import * as assert from 'assert';
import * as path from 'path';
import { ApiError } from '../../src/api/errors';
import { parseSessionResult } from '../../src/api/verify';
import { findBuilds, matchContracts } from '../../src/workspace/buildInfo';
import { checkSources, locateFiles } from '../../src/features/verification/localCheck';
import { nodeWorkspaceFs } from '../support/nodeFs';
import {
  type RecordBase,
  recordFromError,
  recordFromSession,
  recordFromV2,
  recordKey,
  summarize,
} from '../../src/features/verification/record';
import { FIXTURES } from './helpers';

const fs = nodeWorkspaceFs(path.join(FIXTURES, 'workspaces', 'hardhat-ignition'));
const base = (api: 'session' | 'sourcify-v2'): RecordBase => ({
  api,
  network: 'custom',
  networkLabel: 'Sandbox',
  chainId: 296,
  address: '0x1000000000000000000000000000000000000002',
  server: 'http://127.0.0.1:5599',
  explorer: api === 'session' ? 'etherscan' : undefined,
  startedAt: '2026-11-01T00:00:00.000Z',
  source: 'Hardhat Ignition · x',
});

describe('verify: kept results', () => {
  it('a session result with found, missing (pointed out elsewhere), invalid and unused files', async () => {
    const result = parseSessionResult({
      contracts: [
        {
          name: 'Token',
          address: '0x1000000000000000000000000000000000000002',
          chainId: '296',
          status: 'partial',
          compiledPath: 'contracts/Token.sol',
          files: {
            found: ['contracts/Token.sol', '@openzeppelin/contracts/token/ERC20/ERC20.sol'],
            missing: { '@openzeppelin/contracts/access/Ownable.sol': { keccak256: '0x12' } },
            invalid: { 'contracts/Token.sol': 'hash differs' },
          },
        },
      ],
      unused: ['contracts/Unused.sol', 'README.md'],
    });
    const r = await recordFromSession(
      base('session'),
      result,
      (files) => locateFiles(fs, files),
      new Date('2026-11-01T00:00:01Z'),
    );
    assert.strictEqual(r.key, recordKey('custom', 296, '0x1000000000000000000000000000000000000002'));
    const c = r.contracts[0];
    assert.deepStrictEqual(c.found, [
      { path: 'contracts/Token.sol', workspacePath: 'contracts/Token.sol' },
      { path: '@openzeppelin/contracts/token/ERC20/ERC20.sol' },
    ]);
    assert.deepStrictEqual(c.missing, [
      { path: '@openzeppelin/contracts/access/Ownable.sol', elsewhere: ['contracts/access/Ownable.sol'] },
    ]);
    assert.deepStrictEqual(c.invalid, [
      { path: 'contracts/Token.sol', workspacePath: 'contracts/Token.sol', reason: 'hash differs' },
    ]);
    assert.deepStrictEqual(r.unused, [
      { path: 'contracts/Unused.sol', workspacePath: 'contracts/Unused.sol' },
      { path: 'README.md' },
    ]);
    assert.strictEqual(c.filesFrom, 'server');
    assert.deepStrictEqual(JSON.parse(JSON.stringify(r)), r, 'plain JSON');
    const text = summarize(r);
    assert.match(text, /Token: partial · contracts\/Token\.sol/);
    assert.match(
      text,
      /missing \(1\): @openzeppelin\/contracts\/access\/Ownable\.sol \[in the workspace at contracts\/access\/Ownable\.sol\]/,
    );
    assert.match(text, /Unused files \(2\)/);
  });

  it('a v2 job with its match kind, error and the local check', async () => {
    const { builds } = await findBuilds(fs);
    const m = matchContracts(builds, { name: 'Counter' })[0];
    const local = await checkSources(fs, m.contract.sources ?? {});
    const r = recordFromV2(base('sourcify-v2'), {
      contractName: 'Counter',
      contractIdentifier: m.contract.identifier,
      compilerVersion: m.build.compilerVersion,
      buildFile: m.build.file,
      local,
      alreadyVerified: false,
      match: {
        match: null,
        creationMatch: null,
        runtimeMatch: null,
        chainId: '296',
        address: '0x1000000000000000000000000000000000000002',
      },
      job: {
        verificationId: 'j-1',
        isJobCompleted: true,
        contract: { match: null, creationMatch: null, runtimeMatch: null, chainId: '296', address: '' },
        error: { customCode: 'no_match', message: 'no', details: [] },
      },
    });
    const c = r.contracts[0];
    assert.deepStrictEqual(
      [c.status, c.compiledPath, c.verificationId, c.statusMessage, c.filesFrom],
      ['none', 'contracts/Counter.sol', 'j-1', 'no', 'local'],
    );
    assert.deepStrictEqual(
      c.missing.map((f) => [f.path, f.elsewhere]),
      [['contracts/lib/Math.sol', ['contracts/utils/Math.sol']]],
    );
    assert.ok(r.unused.some((u) => u.path === 'contracts/Unused.sol' && u.workspacePath === 'contracts/Unused.sol'));
    assert.match(summarize(r), /error: no_match: no/);
  });

  it("a job that ended in already_verified is an already verified record with the lookup's match, not a job error", () => {
    const held = {
      match: 'match',
      creationMatch: 'match',
      runtimeMatch: 'match',
      chainId: '296',
      address: '0x1000000000000000000000000000000000000002',
      verifiedAt: '2026-10-12T08:15:00Z',
      matchId: '3266227',
    };
    const r = recordFromV2(base('sourcify-v2'), {
      contractName: 'Counter',
      contractIdentifier: 'contracts/Counter.sol:Counter',
      alreadyVerified: true,
      match: held,
      job: {
        verificationId: 'j-2',
        isJobCompleted: true,
        contract: { match: null, creationMatch: null, runtimeMatch: null, chainId: '296', address: '' },
        error: {
          customCode: 'already_verified',
          message: "The contract is already verified and the job didn't yield a better match.",
          details: [],
        },
      },
    });
    const c = r.contracts[0];
    assert.deepStrictEqual(
      [c.status, c.error, c.creationMatch, c.runtimeMatch, c.matchId, c.verificationId, r.jobId, r.alreadyVerified],
      ['match', undefined, 'match', 'match', '3266227', 'j-2', 'j-2', true],
    );
    assert.strictEqual(c.statusMessage, 'Already verified on Sourcify');
    assert.doesNotMatch(summarize(r), /error:/);
  });

  it("an error keeps the sentence and the server's messages", () => {
    const r = recordFromError(
      base('session'),
      new ApiError({
        kind: 'http',
        status: 429,
        message: 'limited.',
        serverMessages: ['Etherscan API rate limit reached, try later.'],
      }),
    );
    assert.deepStrictEqual(r.error, {
      message: 'limited.',
      serverMessages: ['Etherscan API rate limit reached, try later.'],
      status: 429,
      kind: 'http',
    });
    assert.deepStrictEqual(r.contracts, []);
  });
});
