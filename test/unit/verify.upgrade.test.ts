// A partial match (`match`) upgraded to an exact one by a new submission, as the real Sourcify v2
// server does (its checkIfAlreadyVerified middleware refuses only creation and runtime both exact; its
// StorageService keeps a match only when it is better), against the sandbox over HTTP; what a no-match can tell
// (the build submitted, the runtime code's length against the deployed code's, another build of the workspace
// holding the deployed code), from the sandbox's job errors and mirror node and from the real server's error shape;
// the result other features follow (verificationChange).
import * as assert from 'assert';
import * as http from 'http';
import type { AddressInfo } from 'net';
import * as path from 'path';
import { ApiError } from '../../src/api/errors';
import { HttpClient } from '../../src/api/http';
import { stripMetadata } from '../../src/api/decode/solcOutput';
import { notificationSafe } from '../../src/api/text';
import { parseJobError, SourcifyV2Client } from '../../src/api/verify';
import { type Sandbox, startSandbox } from '../../sandbox/src/server';
import { type BuildInfo, findBuilds, matchContracts } from '../../src/workspace/buildInfo';
import {
  type BuildOf,
  isNoMatch,
  noMatchHints,
  sameRuntimeCode,
  submittedText,
  upgradedText,
  upgradeNoBuildText,
  upgradeNotBetterText,
  upgradeOfferedText,
} from '../../src/features/verification/explain';
import {
  type RecordBase,
  recordFromError,
  recordFromV2,
  summarize,
  upgradeArgs,
  verificationChange,
} from '../../src/features/verification/record';
import { nodeWorkspaceFs } from '../support/nodeFs';
import { FIXTURES } from './helpers';

const A = (n: string) => `0x10000000000000000000000000000000000000${n}`;
const UPGRADABLE = A('11');
const VAULT = '0x5fbdb2315678afecb367f032d93f642f64180aa3';

/** A one-route HTTP server answering every request with `status` and `json` (the real server's shapes). */
async function serve(status: number, json: unknown): Promise<{ url: string; close: () => Promise<void> }> {
  const server = http.createServer((_req, res) => {
    res.writeHead(status, { 'content-type': 'application/json' });
    res.end(JSON.stringify(json));
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    close: () => new Promise<void>((r) => server.close(() => r())),
  };
}

const buildOf = (b: BuildInfo, name: string): BuildOf => {
  const c = b.contracts.find((x) => x.name === name);
  assert.ok(c, name);
  return {
    identifier: c.identifier,
    file: b.file,
    compilerVersion: b.compilerVersion,
    runtimeBytecode: c.deployedBytecode,
  };
};

describe('verify: a partial match upgraded, and what a no-match tells (sandbox over HTTP)', function () {
  this.timeout(20_000);
  let sb: Sandbox;
  let v2: SourcifyV2Client;
  let body: { stdJsonInput: Record<string, unknown>; compilerVersion: string; contractIdentifier: string };
  let counter: BuildOf;
  /** The builds of the integration workspace (test/workspace): the inspector's contracts, Counter and Token. */
  let workspaceBuilds: BuildInfo[];
  before(async () => {
    sb = await startSandbox({ port: 0 });
    v2 = new SourcifyV2Client(`${sb.url}/server`, new HttpClient({ backoffBaseMs: 10 }));
    const { builds } = await findBuilds(nodeWorkspaceFs(path.join(FIXTURES, 'workspaces', 'hardhat-ignition')));
    const m = matchContracts(builds, { name: 'Counter' })[0];
    body = {
      stdJsonInput: m.build.input,
      compilerVersion: m.build.compilerVersion,
      contractIdentifier: m.contract.identifier,
    };
    workspaceBuilds = (await findBuilds(nodeWorkspaceFs(path.join(FIXTURES, '..', 'workspace')))).builds;
    counter = buildOf(
      workspaceBuilds.find((b) => b.contracts.some((c) => c.name === 'Counter'))!,
      'Counter',
    );
  });
  after(() => sb.close());

  it('a partial match is accepted again (202) and upgraded to an exact match; then a submission is 409', async () => {
    const held = await v2.lookup(296, UPGRADABLE);
    assert.deepStrictEqual([held.match, held.creationMatch, held.runtimeMatch], ['match', 'match', 'match']);
    const job = await v2.waitForJob(await v2.submit({ chainId: 296, address: UPGRADABLE, ...body }), { pollMs: 5 });
    assert.deepStrictEqual(
      [job.contract.match, job.contract.creationMatch, job.contract.runtimeMatch, job.error],
      ['exact_match', 'exact_match', 'exact_match', undefined],
    );
    const now = await v2.lookup(296, UPGRADABLE);
    assert.deepStrictEqual(
      [now.match, now.matchId],
      ['exact_match', job.contract.matchId],
      'the exact match replaced the partial one',
    );
    await assert.rejects(
      v2.submit({ chainId: 296, address: UPGRADABLE, ...body }),
      (e: unknown) => e instanceof ApiError && e.status === 409 && e.serverCode === 'already_verified',
    );
    // held as `match` on every chain until upgraded there
    assert.strictEqual((await v2.lookup(297, UPGRADABLE)).match, 'match');
    // a partial match a new submission does not better stays partial: the job error already_verified (not a no-match)
    const same = await v2.waitForJob(await v2.submit({ chainId: 296, address: A('02'), ...body }), { pollMs: 5 });
    assert.deepStrictEqual(
      [same.contract.match, same.error?.customCode, isNoMatch(same.error)],
      [null, 'already_verified', false],
    );
    assert.strictEqual((await v2.lookup(296, A('02'))).match, 'match');
  });

  it("the upgrade's sentences: offered (build at hand), no build, not better, upgraded", () => {
    assert.strictEqual(
      upgradeOfferedText(counter),
      `Partially verified on Sourcify (match). The workspace's build is at hand: "Upgrade to exact match" submits contracts/Counter.sol:Counter from ${counter.file} again for an exact match.`,
    );
    assert.match(
      upgradeNoBuildText('Token'),
      /^Partially verified on Sourcify \(match\)\. An exact match needs the build Token was deployed from, and no build info in the workspace holds it: compile it/,
    );
    assert.match(
      upgradeNotBetterText('0123456789abcdef', counter),
      new RegExp(
        `^Still a partial match: Sourcify's job 01234567 found no better match with contracts/Counter\\.sol:Counter from ${counter.file.replace(/\./g, '\\.')}\\.`,
      ),
    );
    assert.strictEqual(
      upgradedText('exact_match', counter),
      `Upgraded from a partial match to exact_match with contracts/Counter.sol:Counter from ${counter.file}.`,
    );
  });

  it('a no_match: the build submitted, the lengths against the deployed code (mirror node), the workspace build that has it', async () => {
    // Counter submitted for the Vault's address: the sandbox's Sourcify finds no match
    const job = await v2.waitForJob(await v2.submit({ chainId: 296, address: VAULT, ...body }), { pollMs: 5 });
    assert.strictEqual(job.error?.customCode, 'no_match');
    assert.ok(isNoMatch(job.error));
    assert.strictEqual(job.error?.codeLengths, undefined, 'the sandbox sends no codes');
    // the deployed code, as the mirror node has it
    const contract = (await (await fetch(`${sb.url}/api/v1/contracts/${VAULT}`)).json()) as {
      runtime_bytecode: string;
    };
    const deployedBytes = (contract.runtime_bytecode.length - 2) / 2;
    const counterBytes = (counter.runtimeBytecode?.length ?? 0) / 2;
    assert.ok(deployedBytes > 0 && counterBytes > 0 && deployedBytes !== counterBytes);
    const others = workspaceBuilds.flatMap((b) =>
      b.contracts.filter((c) => c.deployedBytecode).map((c) => buildOf(b, c.name)),
    );
    const hints = noMatchHints(
      job.error!,
      counter,
      { runtimeBytecode: contract.runtime_bytecode, from: 'mirror' },
      others,
    );
    const vaultBuild = others.find((o) => o.identifier === 'contracts/inspector/Vault.sol:Vault')!;
    assert.deepStrictEqual(hints, [
      `Submitted contracts/Counter.sol:Counter from ${counter.file} (compiler 0.8.28+commit.7893614a).`,
      `Its runtime bytecode in the build is not the deployed code (mirror node): the code deployed is ${stripMetadata(contract.runtime_bytecode).length / 2} bytes and this build ${stripMetadata(counter.runtimeBytecode!).length / 2} bytes (metadata aside), with the same compiler (solc 0.8.28): the source or the compiler settings (optimizer, runs, viaIR, EVM version) are not those of the deployment.`,
      `The deployed code is contracts/inspector/Vault.sol:Vault of ${vaultBuild.file}, another build in the workspace: the deployment was made from that build, not from the one submitted.`,
    ]);
    // the deployed Vault is the build's Vault with its immutable and its library link filled in
    assert.ok(sameRuntimeCode(contract.runtime_bytecode, vaultBuild.runtimeBytecode!));
    const flipped =
      contract.runtime_bytecode.slice(0, 12) +
      (contract.runtime_bytecode.slice(12, 14) === 'ff' ? '00' : 'ff') +
      contract.runtime_bytecode.slice(14);
    assert.ok(!sameRuntimeCode(flipped, vaultBuild.runtimeBytecode!), 'a byte of code differs');
    assert.ok(!sameRuntimeCode(contract.runtime_bytecode, counter.runtimeBytecode!));
    // without the deployed code: the build submitted only
    assert.deepStrictEqual(noMatchHints(job.error!, counter), [submittedText(counter)]);
  });

  it('bytecode_length_mismatch says the lengths differ even without the codes', async () => {
    const job = await v2.waitForJob(await v2.submit({ chainId: 296, address: A('10'), ...body }), { pollMs: 5 });
    assert.strictEqual(job.error?.customCode, 'bytecode_length_mismatch');
    assert.deepStrictEqual(
      noMatchHints(job.error!, {
        identifier: body.contractIdentifier,
        file: 'artifacts/build-info/x.json',
        compilerVersion: body.compilerVersion,
      }),
      [
        'Submitted contracts/Counter.sol:Counter from artifacts/build-info/x.json (compiler 0.8.28+commit.7893614a).',
        'The runtime bytecode compiled from it is not as long as the deployed code: the contract at this address was not compiled from this build.',
      ],
    );
  });

  it("the real server's matching error: its onchain and recompiled codes give the lengths (kept), the code is not kept", async () => {
    // the shape of apiv2.yaml's MatchingErrorResponse (next to customCode), a job of the real server
    const recompiled = `0x6080604052${'00'.repeat(40)}a264697066735822`;
    const onchain = `0x6080604052${'00'.repeat(60)}a264697066735822`;
    const s = await serve(200, {
      isJobCompleted: true,
      verificationId: 'j-real',
      contract: { match: null, creationMatch: null, runtimeMatch: null, chainId: '296', address: VAULT },
      error: {
        customCode: 'no_match',
        message: "The deployed and recompiled bytecode don't match.",
        errorId: 'e-1',
        recompiledRuntimeCode: recompiled,
        onchainRuntimeCode: onchain,
        recompiledCreationCode: `${recompiled}00`,
        onchainCreationCode: `${onchain}0000`,
        creationTransactionHash: `0x${'ab'.repeat(32)}`,
      },
    });
    try {
      const job = await new SourcifyV2Client(s.url, new HttpClient({ backoffBaseMs: 10 })).waitForJob('j-real', {
        pollMs: 5,
      });
      const e = job.error!;
      assert.deepStrictEqual(e.codeLengths, {
        onchainRuntime: 73,
        recompiledRuntime: 53,
        onchainCreation: 75,
        recompiledCreation: 54,
      });
      assert.strictEqual(e.onchainRuntimeCode, onchain);
      assert.deepStrictEqual(
        noMatchHints(e, counter, { runtimeBytecode: e.onchainRuntimeCode, from: 'sourcify' }).slice(1),
        [
          'The runtime bytecode Sourcify compiled from it is 53 bytes long; the deployed code is 73 bytes: the contract at this address was not compiled from this build.',
        ],
      );
      // the kept result has the lengths, not the code
      const base: RecordBase = {
        api: 'sourcify-v2',
        network: 'custom',
        networkLabel: 'Sandbox',
        chainId: 296,
        address: VAULT,
        server: s.url,
        startedAt: '2026-11-01T00:00:00.000Z',
      };
      const r = recordFromV2(base, {
        contractName: 'Counter',
        contractIdentifier: counter.identifier,
        buildFile: counter.file,
        match: job.contract,
        job,
        alreadyVerified: false,
        hints: ['a hint'],
      });
      assert.deepStrictEqual(r.contracts[0].error?.codeLengths, e.codeLengths);
      assert.strictEqual('onchainRuntimeCode' in (r.contracts[0].error ?? {}), false);
      assert.deepStrictEqual(r.contracts[0].hints, ['a hint']);
      assert.match(summarize(r), /error: no_match: .*\n {2}a hint/);
    } finally {
      await s.close();
    }
    // same length, other bytes (the example of apiv2.yaml: the last byte differs); codes inside errorData are read too
    const same = parseJobError({
      customCode: 'no_match',
      message: 'x',
      errorData: { onchainRuntimeCode: '0x60806040aa', recompiledRuntimeCode: '0x60806040bb' },
    })!;
    assert.deepStrictEqual(same.codeLengths, { onchainRuntime: 5, recompiledRuntime: 5 });
    assert.deepStrictEqual(noMatchHints(same, undefined), [
      'The runtime bytecode Sourcify compiled from it is as long as the deployed code (5 bytes) but differs from it: other sources, settings or libraries that give code of the same size.',
    ]);
    // not hex: ignored
    assert.strictEqual(
      parseJobError({ customCode: 'no_match', message: 'x', onchainRuntimeCode: '<b>0x</b>' })?.codeLengths,
      undefined,
    );
    // extra_file_input_bug in words
    assert.match(
      noMatchHints({ customCode: 'extra_file_input_bug', message: 'x', details: [] }, undefined)[0],
      /"extra file input" bug/,
    );
  });

  it('hints are plain text: a hostile path stays as it is, and a notification shows it inert', () => {
    const hostile: BuildOf = {
      identifier: 'contracts/[Open a terminal](command:workbench.action.terminal.new).sol:X',
      file: 'artifacts/build-info/$(alert).json',
      compilerVersion: '0.8.28',
    };
    const [text] = noMatchHints({ customCode: 'no_match', message: 'x', details: [] }, hostile);
    assert.ok(
      text.includes('[Open a terminal](command:workbench.action.terminal.new)'),
      'the text as it is (views show it through inert())',
    );
    const shown = notificationSafe(text, 700);
    assert.ok(!shown.includes('](command:') && !shown.includes('$(alert)'), shown);
  });

  it('the change a result announces: what Sourcify v2 holds now, or nothing known', () => {
    const base: RecordBase = {
      api: 'sourcify-v2',
      network: 'custom',
      networkLabel: 'Sandbox',
      chainId: 296,
      address: '0x5FbDB2315678afecb367f032d93F642f64180aa3',
      server: 'http://127.0.0.1:5599',
      startedAt: '2026-11-01T00:00:00.000Z',
    };
    const m = (match: string | null) => ({
      match,
      creationMatch: match,
      runtimeMatch: match,
      chainId: '296',
      address: VAULT,
    });
    const exact = recordFromV2(base, { contractName: 'Vault', match: m('exact_match'), alreadyVerified: false });
    assert.deepStrictEqual(verificationChange(exact), {
      network: 'custom',
      chainId: 296,
      address: VAULT,
      api: 'sourcify-v2',
      server: 'http://127.0.0.1:5599',
      match: 'exact_match',
    });
    assert.strictEqual(
      verificationChange(recordFromV2(base, { contractName: 'C', match: m(null), alreadyVerified: false })).match,
      null,
    );
    const offered = recordFromV2(base, {
      contractName: 'Counter',
      contractIdentifier: 'contracts/Counter.sol:Counter',
      match: m('match'),
      alreadyVerified: true,
      upgrade: 'offered',
      statusMessage: 'offered',
    });
    assert.deepStrictEqual(
      [verificationChange(offered).match, offered.upgrade, offered.contracts[0].statusMessage],
      ['match', 'offered', 'offered'],
    );
    assert.deepStrictEqual(upgradeArgs(offered), {
      address: base.address,
      chainId: 296,
      api: 'sourcify-v2',
      contractIdentifier: 'contracts/Counter.sol:Counter',
      upgrade: true,
    });
    assert.ok(!('match' in verificationChange(recordFromError(base, new Error('down')))), 'a failed run tells nothing');
    // a session import: perfect is exact_match, partial is match; no verified contract tells nothing
    const session = (...statuses: string[]) =>
      verificationChange({
        ...exact,
        api: 'session',
        contracts: statuses.map((status) => ({ ...exact.contracts[0], status })),
      });
    assert.deepStrictEqual(
      [
        session('partial', 'perfect').match,
        session('partial', 'error').match,
        'match' in session('error'),
        'match' in session(),
      ],
      ['exact_match', 'match', false, false],
    );
  });
});
