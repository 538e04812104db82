// In the real extension host against the sandbox (Sourcify API v2): a partial match is not the
// end of Verify: with the workspace's build at hand it offers "Upgrade to exact match" (a row of the Verification
// view; nothing submitted yet), and that row submits the build again and gets the exact match, as the real server
// upgrades it; without the build it says so. A no-match says which build was submitted, that its runtime code is not
// as long as the deployed code, and which build of the workspace holds the deployed code.
import * as assert from 'assert';
import * as vscode from 'vscode';
import { resetSettings } from './helpers';
import { clearFaults, clearRequests, useSandbox, type ViewsApi } from './views.helpers';

interface Recorded {
  method: string;
  url: string;
  body?: string;
}

const UPGRADABLE = '0x1000000000000000000000000000000000000011';
const VAULT = '0x5fbdb2315678afecb367f032d93f642f64180aa3';

describe('Verify Contract: partial matches upgraded, no-matches explained (Sourcify v2)', function () {
  this.timeout(90000);
  let api: ViewsApi;
  let url: string;
  const v = () => api.verification;
  const rows = async () => (await v().snapshot()).rows;
  const verifyRequests = async () =>
    ((await (await fetch(`${url}/__sandbox/requests`)).json()) as Recorded[])
      .filter((r) => /^\/(server\/)?v2\/(verify|contract)\//.test(r.url))
      .map((r) => `${r.method} ${r.url.replace(/[0-9a-f]{8}-[0-9a-f-]{27}/, '<id>')}`);

  before(async () => {
    ({ api, url } = await useSandbox());
    await vscode.workspace
      .getConfiguration('hederaExplorer')
      .update('verify.api', 'sourcify-v2', vscode.ConfigurationTarget.Global);
    await v().clearAll();
    await vscode.commands.executeCommand('hederaExplorer.verification.focus');
  });
  afterEach(() => clearFaults());
  after(async () => {
    await v().clearAll();
    await resetSettings(['verify.api']);
  });

  it('a partial match with the build at hand: "Upgrade to exact match" is offered, and submitting it gets the exact match', async () => {
    await clearRequests();
    const r = await v().run({ address: UPGRADABLE, contractIdentifier: 'contracts/Counter.sol:Counter' });
    const c = r?.contracts[0];
    assert.deepStrictEqual(
      [c?.status, r?.alreadyVerified, r?.upgrade],
      ['match', true, 'offered'],
      JSON.stringify(r?.error),
    );
    assert.match(
      c?.statusMessage ?? '',
      /^Partially verified on Sourcify \(match\)\. The workspace's build is at hand: "Upgrade to exact match" submits contracts\/Counter\.sol:Counter from artifacts\/build-info\/[0-9a-f]+\.json again/,
    );
    assert.deepStrictEqual(
      await verifyRequests(),
      [`GET /v2/contract/296/${UPGRADABLE}`],
      'nothing submitted before the upgrade is asked for',
    );
    const offer = (await rows()).find((x) => x.label === 'Upgrade to exact match');
    assert.ok(offer, (await rows()).map((x) => x.label).join(' | '));
    assert.deepStrictEqual(
      [offer.contextValue, offer.command, offer.commandArguments],
      [
        'verification.upgrade',
        'hederaExplorer.verifyContract',
        [
          {
            address: UPGRADABLE,
            chainId: 296,
            api: 'sourcify-v2',
            contractIdentifier: 'contracts/Counter.sol:Counter',
            upgrade: true,
          },
        ],
      ],
    );
    assert.match(offer.description ?? '', /^contracts\/Counter\.sol:Counter · artifacts\/build-info\/[0-9a-f]+\.json$/);

    // the row's command: the build submitted again, the job's exact match replaces the partial one
    await clearRequests();
    const up = await vscode.commands.executeCommand<{
      contracts: Array<{ status: string; statusMessage?: string; error?: unknown }>;
      alreadyVerified?: boolean;
      upgrade?: string;
    }>(offer.command!, ...(offer.commandArguments ?? []));
    assert.deepStrictEqual(
      [up?.contracts[0].status, up?.alreadyVerified, up?.upgrade, up?.contracts[0].error],
      ['exact_match', false, undefined, undefined],
    );
    assert.match(
      up?.contracts[0].statusMessage ?? '',
      /^Upgraded from a partial match to exact_match with contracts\/Counter\.sol:Counter from artifacts\/build-info\/[0-9a-f]+\.json\.$/,
    );
    assert.deepStrictEqual(await verifyRequests(), [
      `GET /v2/contract/296/${UPGRADABLE}`,
      `POST /v2/verify/296/${UPGRADABLE}`,
      'GET /v2/verify/<id>',
      'GET /v2/verify/<id>',
      'GET /v2/verify/<id>',
    ]);
    const snap = await rows();
    assert.deepStrictEqual(
      snap.filter((x) => x.contextValue === 'verification.contract').map((x) => [x.description, x.icon]),
      [['exact match · contracts/Counter.sol', 'pass-filled']],
    );
    assert.ok(!snap.some((x) => x.label === 'Upgrade to exact match'), 'nothing more to offer');
    // and now it is exact: Verify says so and submits nothing
    await clearRequests();
    const again = await v().run({ address: UPGRADABLE, contractIdentifier: 'contracts/Counter.sol:Counter' });
    assert.deepStrictEqual(
      [again?.contracts[0].status, again?.alreadyVerified, again?.upgrade],
      ['exact_match', true, undefined],
    );
    assert.deepStrictEqual(await verifyRequests(), [`GET /v2/contract/296/${UPGRADABLE}`]);
  });

  it('a partial match without a build of the contract: says an exact match needs it, offers nothing, submits nothing', async () => {
    await clearRequests();
    // chain 297: the contract is still partial there; a typed address names no contract, so no build is found
    const r = await v().run({ address: UPGRADABLE, chainId: 297 });
    const c = r?.contracts[0];
    assert.deepStrictEqual([c?.status, r?.alreadyVerified, r?.upgrade], ['match', true, 'noBuild']);
    assert.match(
      c?.statusMessage ?? '',
      /An exact match needs the build .* was deployed from, and no build info in the workspace holds it/,
    );
    const snap = await rows();
    assert.ok(
      snap.some(
        (x) =>
          x.contextValue === 'verification.upgrade.noBuild' &&
          x.label === 'No exact match without the build it was deployed from',
      ),
    );
    assert.ok(!snap.some((x) => x.label === 'Upgrade to exact match'));
    assert.deepStrictEqual(await verifyRequests(), [`GET /v2/contract/297/${UPGRADABLE}`]);
  });

  it('a no-match says which build was submitted, that its code is not as long as the deployed code, and which build has it', async () => {
    const r = await v().run({ address: VAULT, contractIdentifier: 'contracts/Counter.sol:Counter' });
    const c = r?.contracts[0];
    assert.deepStrictEqual([c?.status, c?.error?.customCode], ['none', 'no_match']);
    const hints = c?.hints ?? [];
    assert.strictEqual(hints.length, 3, hints.join('\n'));
    assert.match(
      hints[0],
      /^Submitted contracts\/Counter\.sol:Counter from artifacts\/build-info\/[0-9a-f]+\.json \(compiler 0\.8\.28\+commit\.7893614a\)\.$/,
    );
    assert.match(
      hints[1],
      /^Its runtime bytecode in the build is not the deployed code \(mirror node\): the code deployed is \d+ bytes and this build \d+ bytes \(metadata aside\), with the same compiler \(solc 0\.8\.28\): the source or the compiler settings \(optimizer, runs, viaIR, EVM version\) are not those of the deployment\.$/,
    );
    assert.match(
      hints[2],
      /^The deployed code is contracts\/inspector\/Vault\.sol:Vault of artifacts\/build-info\/[0-9a-f]+\.json, another build in the workspace/,
    );
    const snap = await rows();
    assert.deepStrictEqual(
      snap.filter((x) => x.contextValue === 'verification.hint').map((x) => [x.label, x.icon]),
      hints.map((h) => [h, 'lightbulb']),
    );
    assert.ok(snap.some((x) => x.label === 'Job error' && /^no_match: /.test(x.description ?? '')));
  });
});
