/**
 * "Hedera: Verify Contract": finds the contract's address (setting, selection, deployment records, .env; a
 * quick pick shows where each candidate came from), takes the chain id from the network (changeable in the
 * pick), and verifies it through the session endpoint (with the explorer API key from SecretStorage, asked
 * once when missing) or through Sourcify API v2 from the workspace's own build info. A progress notification
 * with Cancel runs meanwhile; errors carry the server's message and a way forward (Set API Key, Retry, Open Log).
 * The result goes to the Verification view and is kept per address and network (results.ts), and is announced to
 * the features that show verification states (ctx.verifications). A contract Sourcify holds as a partial match is
 * not the end: with the workspace's build at hand the result offers "Upgrade to exact match" (`upgrade: true`
 * submits the build again; Sourcify keeps a better match); a no-match says what the extension can tell (explain.ts).
 *
 * Loaded lazily by the first run (index.ts registers the commands at activation and `require`s this module then);
 * `import type` it elsewhere. The questions it asks go through `VerificationPrompts` (prompts.ts).
 */
import * as vscode from 'vscode';
import { ApiError, cancelledError, isApiError } from '../../api/errors';
import { shortAddress } from '../../api/format';
import { CHAIN_IDS, CHAIN_NAMES, chainName, isChainId, type NetworkProfile, trimBase } from '../../api/networks';
import {
  SourcifyV2Client,
  VerifyClient,
  type ContractMatch,
  type JobError,
  type VerificationJob,
} from '../../api/verify';
import type { ExtensionLog } from '../../core/log';
import type { ApiKeyStore } from '../../core/secrets';
import type { SelectedNetwork } from '../../core/selectedNetwork';
import { config } from '../../core/settings';
import { lookUpContract, parseContractAddress } from '../../workspace/address';
import type { ChainCodeCache } from '../../workspace/chainCode';
import { type BuildInfo, type BuildMatch, buildFromHint, identifiers, matchContracts } from '../../workspace/buildInfo';
import { buildChoiceForLog, chooseBuild } from '../../workspace/deployedBuild';
import { type AddressCandidate, discoverAddresses, sourceLabel } from '../../workspace/discovery';
import { keccak256 } from '../../api/keccak';
import {
  type BuildOf,
  type DeployedCode,
  isNoMatch,
  noMatchHints,
  upgradedText,
  upgradeNoBuildText,
  upgradeNotBetterText,
  upgradeOfferedText,
} from './explain';
import { checkSources, locateFiles, type LocalCheck, readRemappings, workspaceSources } from './localCheck';
import {
  type RecordBase,
  recordFromError,
  recordFromSession,
  recordFromV2,
  summarize,
  upgradeArgs,
  type VerificationChange,
  verificationChange,
  type VerificationRecord,
  type VerifyApi,
} from './record';
import type { WorkspaceFs } from '../../workspace/workspaceFs';
import { vscodeWorkspaceFs } from '../../core/vscodeWorkspaceFs';
import type { VerificationResults } from './results';
import type { VerificationPrompts } from './prompts';
import type { WorkspaceBuilds } from '../decoding';
import { notificationSafe } from '../../api/text';

/** Arguments for automation (tests, re-run, other extensions): skip the prompts they answer. */
export interface VerifyArgs {
  /** EVM address or entity id; skips discovery and the pick. */
  address?: string;
  chainId?: number;
  api?: VerifyApi;
  /** Contract name to look for in the build info (v2). */
  contractName?: string;
  /** `path:Name` to submit (v2); skips the contract pick. */
  contractIdentifier?: string;
  /**
   * v2: a contract Sourcify holds as a partial match (`match`) is submitted again for an exact match ("Upgrade to
   * exact match"); without it, the run keeps the partial match and offers the upgrade when the build is at hand.
   */
  upgrade?: boolean;
}

/** The API a network uses: the setting, or with `auto`, the session endpoint for a custom server and Sourcify v2 elsewhere. */
function resolveApi(setting: string | undefined, profile: NetworkProfile): VerifyApi {
  if (setting === 'session' || setting === 'sourcify-v2') return setting;
  return profile.name === 'custom' ? 'session' : 'sourcify-v2';
}

/** Runs "Verify Contract" (one run at a time; `rerun` repeats the last one, `cancel` stops the one in progress). */
export class VerificationRunner implements vscode.Disposable {
  private abort: AbortController | undefined;

  constructor(
    private readonly network: SelectedNetwork,
    private readonly log: ExtensionLog,
    private readonly apiKeys: ApiKeyStore,
    /** The kept results: the run shows its progress and its result there. */
    private readonly results: VerificationResults,
    /** The questions it asks. */
    private readonly prompts: VerificationPrompts,
    /** Makes the Verification view visible. */
    private readonly revealView: () => void,
    /** Told every result kept (the Deployments view and the CodeLens follow it). */
    private readonly announce: (change: VerificationChange) => void,
    /** The window's one read of the workspace's builds (ctx.builds). */
    private readonly workspaceBuilds: WorkspaceBuilds,
    /** The window's one cache of `/contracts/{id}` (ctx.chainCode). */
    private readonly chainCode: ChainCodeCache,
  ) {}

  /** The builds of one workspace folder, from the window's one read; problems as that folder's reader said them. */
  private async buildsOf(fs: WorkspaceFs): Promise<{ builds: BuildInfo[]; problems: string[] }> {
    const all = await this.workspaceBuilds.get();
    const folder = this.folders().findIndex((f) => f.fs.name === fs.name);
    return {
      builds: all.builds.filter((b) => b.folder === folder),
      problems: all.problems
        .filter((p) => p.startsWith(`${fs.name}/`) || p.startsWith(`${fs.name}:`))
        .map((p) => p.slice(fs.name.length + 1).trim()),
    };
  }

  /** Cancels the run in progress (the notification's Cancel does the same). */
  cancel(): void {
    this.abort?.abort();
  }

  get isRunning(): boolean {
    return !!this.abort;
  }

  private folders(): Array<{ uri: vscode.Uri; fs: WorkspaceFs }> {
    return (vscode.workspace.workspaceFolders ?? []).map((f) => ({ uri: f.uri, fs: vscodeWorkspaceFs(f.uri, f.name) }));
  }

  /** The candidates of the current workspace, setting and selection. */
  async discover(): Promise<Awaited<ReturnType<typeof discoverAddresses>>> {
    const editor = vscode.window.activeTextEditor;
    const selection =
      editor && !editor.selection.isEmpty ? editor.document.getText(editor.selection).slice(0, 2000) : undefined;
    const d = await discoverAddresses({
      // a folder's own setting (scope `resource`): the active editor's folder, else the first one
      setting: config(editor?.document.uri ?? vscode.workspace.workspaceFolders?.[0]?.uri).get<string>(
        'contractAddress',
        '',
      ),
      selection,
      folders: this.folders().map((f) => f.fs),
      chainId: this.network.profile.chainId,
    });
    for (const s of d.skipped) this.log.debug(`Verify: skipped ${s}`);
    return d;
  }

  /** The whole command. Returns the kept result, or undefined when nothing was sent (cancelled, refused). */
  async run(args: VerifyArgs = {}): Promise<VerificationRecord | undefined> {
    if (this.abort) {
      void vscode.window.showInformationMessage(vscode.l10n.t('A verification is already running.'));
      return undefined;
    }
    const profile = this.network.profile;
    const api: VerifyApi = args.api ?? resolveApi(config().get<string>('verify.api'), profile);
    const picked = await this.pickTarget(args, profile);
    if (!picked) return undefined;
    const { candidate, chainId } = picked;
    const folders = this.folders();
    const folder = folders.find((f) => f.fs.name === candidate.folder) ?? folders[0];
    const explorer = (config().get<string>('verify.explorer') || 'etherscan').trim();
    const sessionUrl = trimBase(config().get<string>('verify.sessionUrl') || profile.verifyUrl);
    const base: RecordBase = {
      api,
      network: profile.name,
      networkLabel: profile.label,
      chainId,
      address: candidate.address,
      entityId: candidate.entityId,
      source: `${sourceLabel(candidate.source)} · ${candidate.where}`,
      server: api === 'session' ? sessionUrl : trimBase(profile.verifyUrl),
      explorer: api === 'session' ? explorer : undefined,
      folder: folder?.uri.toString(),
      startedAt: new Date().toISOString(),
    };
    let apiKey: string | undefined;
    if (api === 'session') {
      apiKey = await this.apiKeys.get();
      if (!apiKey) {
        const stored = await this.prompts.apiKey();
        apiKey = stored ? await this.apiKeys.get() : undefined;
        if (!apiKey) {
          this.log.info('Verify: no explorer API key, nothing sent.');
          void vscode.window
            .showWarningMessage(
              vscode.l10n.t("Verification not started: the session endpoint needs the explorer's API key."),
              vscode.l10n.t('Set API Key'),
            )
            .then((a) => {
              if (a) void this.prompts.apiKey();
            });
          return undefined;
        }
      }
    }
    const target = `${shortAddress(candidate.address)}${candidate.entityId ? ` (${candidate.entityId})` : ''}`;
    this.abort = new AbortController();
    const signal = this.abort.signal;
    this.results.setRunning(vscode.l10n.t('Verifying {0} on chain {1}…', target, chainId));
    this.revealView();
    this.log.info(
      `Verify: ${candidate.address} on chain ${chainId} (${profile.label}) via ${api === 'session' ? `${sessionUrl}/session/verify/${explorer}` : `${profile.verifyUrl} API v2`}; address from ${base.source}`,
    );
    try {
      const record = await vscode.window.withProgress(
        {
          location: vscode.ProgressLocation.Notification,
          title: vscode.l10n.t('Verifying {0} on chain {1}', target, chainId),
          cancellable: true,
        },
        async (progress, token) => {
          token.onCancellationRequested(() => this.abort?.abort());
          if (api === 'session')
            return this.runSession(
              base,
              candidate,
              chainId,
              explorer,
              sessionUrl,
              apiKey ?? '',
              folder?.fs,
              signal,
              progress,
            );
          return this.runV2(base, candidate, chainId, args, folder?.fs, signal, progress);
        },
      );
      await this.results.show(record);
      this.announce(verificationChange(record));
      this.log.info(`Verify: done.\n${summarize(record)}`);
      this.notifyOutcome(record);
      return record;
    } catch (e) {
      if (isApiError(e) && e.kind === 'cancelled') {
        this.results.setRunning(undefined);
        this.log.info('Verify: cancelled.');
        void vscode.window.setStatusBarMessage(vscode.l10n.t('$(circle-slash) Verification cancelled'), 4000);
        return undefined;
      }
      if (isApiError(e) && e.kind === 'invalidInput') {
        this.results.setRunning(undefined);
        void vscode.window.showErrorMessage(notificationSafe(e.message));
        return undefined;
      }
      const record = recordFromError(base, e);
      await this.results.show(record);
      this.announce(verificationChange(record));
      this.log.error(`Verify: ${isApiError(e) ? e.detail : String(e)}`);
      this.notifyError(record, e);
      return record;
    } finally {
      this.abort = undefined;
    }
  }

  private async runSession(
    base: RecordBase,
    candidate: AddressCandidate,
    chainId: number,
    explorer: string,
    url: string,
    apiKey: string,
    fs: WorkspaceFs | undefined,
    signal: AbortSignal,
    progress: vscode.Progress<{ message?: string }>,
  ): Promise<VerificationRecord> {
    progress.report({ message: vscode.l10n.t('importing from {0}…', explorer) });
    const client = new VerifyClient(url, this.network.clients.http);
    const result = await client.sessionVerify(
      { address: candidate.address, chainId, apiKey, explorer },
      { signal, timeoutMs: 120_000 },
    );
    progress.report({ message: vscode.l10n.t('checking the files against the workspace…') });
    const remappings = fs ? await readRemappings(fs) : [];
    const index = fs ? await workspaceSources(fs) : [];
    return recordFromSession(base, result, async (files) =>
      fs ? locateFiles(fs, files, { remappings, index }) : files.map((f) => ({ path: f.path })),
    );
  }

  private async runV2(
    base: RecordBase,
    candidate: AddressCandidate,
    chainId: number,
    args: VerifyArgs,
    fs: WorkspaceFs | undefined,
    signal: AbortSignal,
    progress: vscode.Progress<{ message?: string }>,
  ): Promise<VerificationRecord> {
    const client = new SourcifyV2Client(this.network.profile.verifyUrl, this.network.clients.http);
    progress.report({ message: vscode.l10n.t('asking Sourcify whether it is verified…') });
    const existing = await client.lookup(chainId, candidate.address, { signal });
    // a partial match (`match`) may become exact: Sourcify v2 takes a new submission for it and keeps a better match
    const partial = existing.match === 'match';
    const build = fs
      ? await this.findBuild(
          fs,
          candidate,
          chainId,
          args,
          existing.match === null || (partial && args.upgrade === true),
        )
      : undefined;
    const local = build && fs ? await this.localCheck(fs, build) : undefined;
    const outcomeBase = {
      contractName: build?.contract.name ?? candidate.contractName ?? 'Contract',
      contractIdentifier: build?.contract.identifier,
      compilerVersion: build?.build.compilerVersion,
      buildFile: build?.build.file,
      local,
    };
    const submitted: BuildOf | undefined = build && {
      identifier: build.contract.identifier,
      file: build.build.file,
      compilerVersion: build.build.compilerVersion,
      runtimeBytecode: build.contract.deployedBytecode,
    };
    if (existing.match !== null && !(partial && args.upgrade === true && submitted)) {
      if (!partial) {
        this.log.info(`Verify: already verified on Sourcify (${existing.match}); no job submitted.`);
        return recordFromV2(base, { ...outcomeBase, match: existing, alreadyVerified: true });
      }
      // partial: the upgrade is offered when the workspace's build is at hand (the view's row, the notification)
      this.log.info(
        `Verify: Sourcify holds a partial match (creation ${existing.creationMatch ?? 'none'}, runtime ${existing.runtimeMatch ?? 'none'}); ${submitted ? `${submitted.identifier} (${submitted.file}) can be submitted for an exact match` : 'no build of the contract in the workspace for an exact match'}; no job submitted.`,
      );
      return recordFromV2(base, {
        ...outcomeBase,
        match: existing,
        alreadyVerified: true,
        upgrade: submitted ? 'offered' : 'noBuild',
        statusMessage: submitted ? upgradeOfferedText(submitted) : upgradeNoBuildText(outcomeBase.contractName),
      });
    }
    if (!build || !submitted) {
      throw new ApiError({
        kind: 'invalidInput',
        message: vscode.l10n.t(
          '{0} is not verified on Sourcify yet, and no build info in the workspace has {1}: compile first (npx hardhat compile, or forge build --build-info), then verify again.',
          shortAddress(candidate.address),
          candidate.contractName ?? vscode.l10n.t('a deployable contract'),
        ),
      });
    }
    if (partial)
      this.log.info(
        `Verify: upgrading the partial match: submitting ${submitted.identifier} (${submitted.file}) again for an exact match.`,
      );
    progress.report({
      message: partial
        ? vscode.l10n.t('submitting {0} for an exact match…', build.contract.identifier)
        : vscode.l10n.t('submitting {0}…', build.contract.identifier),
    });
    let verificationId: string;
    try {
      verificationId = await client.submit(
        {
          chainId,
          address: candidate.address,
          stdJsonInput: build.build.input,
          compilerVersion: build.build.compilerVersion,
          contractIdentifier: build.contract.identifier,
          creationTransactionHash: candidate.creationTxHash,
        },
        { signal, timeoutMs: 120_000 },
      );
    } catch (e) {
      if (isApiError(e) && e.status === 409) {
        // 409 already_verified: what the server holds is what its lookup says, never a match made up here
        const again = await client.lookup(chainId, candidate.address, { signal });
        const record = recordFromV2(base, { ...outcomeBase, match: again, alreadyVerified: true });
        if (again.match === null && record.contracts[0]) {
          record.contracts[0].statusMessage = vscode.l10n.t(
            'Sourcify answered that {0} is already verified (HTTP 409), but looking it up again finds no match on chain {1}.',
            shortAddress(candidate.address),
            chainId,
          );
        } else if (partial && again.match === 'match' && record.contracts[0]) {
          record.contracts[0].statusMessage = vscode.l10n.t(
            'Still a partial match: Sourcify refused the new submission (HTTP 409 already_verified) although it holds only a partial match.',
          );
        }
        this.log.info(
          `Verify: Sourcify answered 409 already_verified; its lookup says ${again.match ?? 'no match'} (creation ${again.creationMatch ?? 'none'}, runtime ${again.runtimeMatch ?? 'none'}).`,
        );
        return record;
      }
      throw e;
    }
    this.log.info(`Verify: job ${verificationId} submitted for ${build.contract.identifier} (${build.build.file}).`);
    const job: VerificationJob = await client.waitForJob(verificationId, {
      signal,
      onPoll: (j, n) =>
        progress.report({
          message: j.isJobCompleted
            ? vscode.l10n.t('job finished')
            : vscode.l10n.t('job {0} pending (check {1})…', verificationId.slice(0, 8), n),
        }),
    });
    if (job.error?.customCode === 'already_verified') {
      // the job found no better match than the one Sourcify holds (a 409 in all but name): as after a 409, what it
      // holds is what its lookup says, never a match made up here
      const again = await client.lookup(chainId, candidate.address, { signal });
      const record = recordFromV2(base, { ...outcomeBase, match: again, job, alreadyVerified: true });
      if (record.contracts[0]) {
        record.contracts[0].statusMessage =
          again.match === null
            ? vscode.l10n.t(
                "Sourcify's job {0} answered that {1} is already verified (already_verified), but looking it up again finds no match on chain {2}.",
                verificationId.slice(0, 8),
                shortAddress(candidate.address),
                chainId,
              )
            : partial && again.match === 'match'
              ? upgradeNotBetterText(verificationId, submitted)
              : vscode.l10n.t(
                  'Already verified on Sourcify: job {0} found no better match than the one Sourcify holds.',
                  verificationId.slice(0, 8),
                );
      }
      this.log.info(
        `Verify: job ${verificationId} ended in already_verified; Sourcify's lookup says ${again.match ?? 'no match'} (creation ${again.creationMatch ?? 'none'}, runtime ${again.runtimeMatch ?? 'none'}).`,
      );
      return record;
    }
    if (job.error) {
      const hints = isNoMatch(job.error) ? await this.noMatchHints(job.error, submitted, candidate, chainId, fs) : [];
      if (hints.length)
        this.log.info(
          `Verify: job ${verificationId} found no match (${job.error.customCode ?? 'error'}). ${hints.join(' ')}`,
        );
      // an upgrade that failed leaves the partial match Sourcify holds
      return recordFromV2(base, {
        ...outcomeBase,
        match: partial ? existing : job.contract,
        job,
        alreadyVerified: false,
        hints,
      });
    }
    const match: ContractMatch = job.contract;
    return recordFromV2(base, {
      ...outcomeBase,
      match,
      job,
      alreadyVerified: false,
      ...(partial ? { statusMessage: upgradedText(match.match ?? 'no match', submitted) } : {}),
    });
  }

  /**
   * What the extension can say about a no-match: the build submitted, the runtime code's length against the
   * deployed code's (Sourcify's, else the mirror node's on the selected network when it is the contract's chain), and
   * another build of the workspace holding the deployed code. Asks the mirror node at most once; never fails.
   */
  private async noMatchHints(
    error: JobError,
    submitted: BuildOf,
    candidate: AddressCandidate,
    chainId: number,
    fs: WorkspaceFs | undefined,
  ): Promise<string[]> {
    let deployed: DeployedCode = error.onchainRuntimeCode
      ? { runtimeBytecode: error.onchainRuntimeCode, from: 'sourcify' }
      : {};
    try {
      if (!deployed.runtimeBytecode && candidate.runtimeBytecode)
        deployed = { runtimeBytecode: candidate.runtimeBytecode, from: 'mirror' };
      if (!deployed.runtimeBytecode && chainId === this.network.profile.chainId) {
        const r = await lookUpContract(this.chainCode, candidate.address);
        if (r.ok && r.value.runtimeBytecode) deployed = { runtimeBytecode: r.value.runtimeBytecode, from: 'mirror' };
      }
      const others: BuildOf[] = [];
      if (deployed.runtimeBytecode && fs) {
        for (const b of (await this.buildsOf(fs)).builds) {
          for (const c of b.contracts)
            if (c.deployedBytecode)
              others.push({
                identifier: c.identifier,
                file: b.file,
                compilerVersion: b.compilerVersion,
                runtimeBytecode: c.deployedBytecode,
              });
        }
      }
      return noMatchHints(error, submitted, deployed, others);
    } catch (e) {
      this.log.debug(`Verify: no hints for the no-match: ${e instanceof Error ? e.message : String(e)}`);
      return noMatchHints(error, submitted, deployed, []);
    }
  }

  /** The build info and contract to submit: by identifier, by the record's name, or picked. */
  private async findBuild(
    fs: WorkspaceFs,
    candidate: AddressCandidate,
    chainId: number,
    args: VerifyArgs,
    mayAsk: boolean,
  ): Promise<BuildMatch | undefined> {
    const scan = await this.buildsOf(fs);
    for (const p of scan.problems) this.log.warn(`Verify: ${p}`);
    // a build that does not say its compiler version cannot be submitted
    for (const b of scan.builds) if (!b.compilerVersion) this.log.warn(`Verify: ${b.file}: no compiler version in it`);
    const builds: BuildInfo[] = scan.builds.filter((b) => b.compilerVersion);
    const hinted = await buildFromHint(fs, candidate.build);
    if (hinted) builds.push(hinted);
    // the code on chain, for a record that holds an EVM address too (its code was not looked up with its entity id):
    // without it a rebuild since the deployment could not be told from the build deployed
    const runtimeBytecode = candidate.runtimeBytecode ?? (await this.codeOnChain(candidate.address, chainId));
    // of several builds holding the contract: the deployment's own (Ignition), the artifact's, the code on chain
    // (the one resolver of the build deployed: src/workspace/deployedBuild.ts)
    const choose = async (m: BuildMatch[]): Promise<BuildMatch | undefined> => {
      const c = await chooseBuild(m, {
        fsOf: () => fs,
        runtimeBytecode,
        bySources: (x) => this.best(fs, x),
        ...(candidate.build?.deploymentArtifact
          ? { deploymentArtifact: { fs, path: candidate.build.deploymentArtifact } }
          : {}),
      });
      if (c)
        this.log.info(
          `Verify: ${m.length} build${m.length === 1 ? '' : 's'} of ${c.match.contract.identifier}; submitting ${buildChoiceForLog(c)}`,
        );
      return c?.match;
    };
    if (args.contractIdentifier) {
      const [path, name] = [
        args.contractIdentifier.slice(0, args.contractIdentifier.lastIndexOf(':')),
        args.contractIdentifier.slice(args.contractIdentifier.lastIndexOf(':') + 1),
      ];
      return choose(matchContracts(builds, { name, sourcePath: path }));
    }
    const name = args.contractName ?? candidate.build?.contractName ?? candidate.contractName;
    let matches = name ? matchContracts(builds, { name, sourcePath: candidate.build?.sourcePath }) : [];
    if (!matches.length) {
      if (!mayAsk) return undefined;
      matches = matchContracts(builds, {});
    }
    const ids = identifiers(matches);
    if (ids.length <= 1) return choose(matches);
    if (!mayAsk) return undefined;
    const title = vscode.l10n.t('Which contract is deployed at {0}?', shortAddress(candidate.address));
    const pick = await this.prompts.pick(
      'contract',
      ids.map((id) => ({
        label: notificationSafe(id.slice(id.lastIndexOf(':') + 1), 120),
        description: notificationSafe(id.slice(0, id.lastIndexOf(':')), 200),
        id,
      })),
      { title, placeHolder: vscode.l10n.t('Contracts compiled in the workspace'), ignoreFocusOut: true },
    );
    if (!pick) throw cancelledError();
    return choose(matches.filter((m) => m.contract.identifier === pick.id));
  }

  /**
   * The runtime code at an address on the selected network's mirror node, when the chain is that network's (else
   * undefined: another network's code is not asked for). Never fails: undefined when the mirror node has none.
   */
  private async codeOnChain(address: string, chainId: number): Promise<string | undefined> {
    if (chainId !== this.network.profile.chainId) return undefined;
    const r = await lookUpContract(this.chainCode, address);
    if (!r.ok) this.log.debug(`Verify: the code at ${address} was not looked up: ${r.message}`);
    return r.ok ? r.value.runtimeBytecode : undefined;
  }

  /** Of several builds of the same contract, the one whose sources match the workspace best. */
  private async best(fs: WorkspaceFs, matches: BuildMatch[]): Promise<BuildMatch | undefined> {
    if (matches.length <= 1) return matches[0];
    let best: { m: BuildMatch; missing: number } | undefined;
    for (const m of matches) {
      const missing = m.contract.sources ? (await checkSources(fs, m.contract.sources)).missing.length : 1000;
      if (!best || missing < best.missing) best = { m, missing };
    }
    return best?.m;
  }

  private async localCheck(fs: WorkspaceFs, build: BuildMatch): Promise<LocalCheck | undefined> {
    let sources = build.contract.sources;
    if (!sources) {
      // no metadata (hardhat-deploy input only): every source of the input, hashed as the compiler would
      sources = {};
      for (const [p, s] of Object.entries((build.build.input.sources ?? {}) as Record<string, { content?: string }>))
        sources[p] = { keccak256: typeof s?.content === 'string' ? keccak256(s.content) : undefined };
    }
    return checkSources(fs, sources);
  }

  /* ------------------------------------------------------------ prompts */

  private async pickTarget(
    args: VerifyArgs,
    profile: NetworkProfile,
  ): Promise<{ candidate: AddressCandidate; chainId: number } | undefined> {
    if (args.address !== undefined) {
      const p = parseContractAddress(args.address);
      if (!p.ok) {
        void vscode.window.showErrorMessage(notificationSafe(p.message));
        return undefined;
      }
      const resolved = await this.resolveEntity(p.value);
      if (!resolved) return undefined;
      const known = await this.knownRecord(resolved.address);
      return {
        candidate: {
          ...known,
          address: resolved.address,
          entityId: resolved.entityId ?? known?.entityId,
          runtimeBytecode: resolved.runtimeBytecode,
          source: 'input',
          where: known ? `command argument (${known.where})` : 'command argument',
          alsoIn: [],
          contractName: args.contractName ?? known?.contractName,
        },
        chainId: args.chainId ?? profile.chainId,
      };
    }
    const d = await this.discover();
    if (d.rejected.length) {
      const r = d.rejected[0];
      const open = vscode.l10n.t('Open Settings');
      void vscode.window
        .showErrorMessage(notificationSafe(r.message), ...(r.source === 'setting' ? [open] : []))
        .then((a) => {
          if (a === open)
            void vscode.commands.executeCommand('workbench.action.openSettings', 'hederaExplorer.contractAddress');
        });
      return undefined;
    }
    let chainOverride = args.chainId;
    for (;;) {
      const chainId = chainOverride ?? profile.chainId;
      type Item = vscode.QuickPickItem & { candidate?: AddressCandidate; action?: 'input' | 'chain' };
      const items: Item[] = d.candidates.map((c) => ({
        label: c.contractName
          ? `$(symbol-class) ${notificationSafe(c.contractName, 120)}`
          : c.entityId
            ? `$(symbol-constant) ${c.entityId}`
            : `$(symbol-constant) ${shortAddress(c.address)}`,
        description: `${c.address}${c.entityId ? ` · ${c.entityId}` : ''}${c.chainId !== undefined && c.chainId !== chainId && chainOverride === undefined ? ` · chain ${c.chainId}` : ''}`,
        // names and paths come from the workspace's files: no `$(icon)` syntax from them in the pick
        detail: notificationSafe(
          `${sourceLabel(c.source)} · ${c.where}${c.alsoIn.length ? ` · ${vscode.l10n.t('also in {0}', c.alsoIn.join(', '))}` : ''}`,
          300,
        ),
        candidate: c,
      }));
      if (items.length) items.push({ label: '', kind: vscode.QuickPickItemKind.Separator });
      items.push({
        label: `$(edit) ${vscode.l10n.t('Enter an address or entity id…')}`,
        action: 'input',
        alwaysShow: true,
      });
      items.push({
        label: `$(link) ${vscode.l10n.t('Change chain…')}`,
        description: vscode.l10n.t('now {0} · {1}', chainId, chainName(chainId) ?? ''),
        action: 'chain',
        alwaysShow: true,
      });
      const title = vscode.l10n.t('Verify Contract on {0} (chain {1})', profile.label, chainId);
      let choice: Item | undefined;
      if (!d.candidates.length) choice = items.find((i) => i.action === 'input');
      else {
        choice = await this.prompts.pick('address', items, {
          title,
          placeHolder: vscode.l10n.t(
            'The contract to verify ({0} found in the workspace and settings)',
            d.candidates.length,
          ),
          matchOnDescription: true,
          matchOnDetail: true,
          ignoreFocusOut: true,
        });
      }
      if (!choice) return undefined;
      if (choice.action === 'chain') {
        const c = await this.pickChain(chainId);
        if (c !== undefined) chainOverride = c;
        continue;
      }
      if (choice.action === 'input') {
        const t = vscode.l10n.t('Contract to verify on {0} (chain {1})', profile.label, chainId);
        const v = await this.prompts.input('addressInput', {
          title: t,
          prompt: vscode.l10n.t('EVM address (0x and 40 hexadecimal digits) or entity id (0.0.1234)'),
          ignoreFocusOut: true,
          validateInput: (s) =>
            s.trim()
              ? parseContractAddress(s).ok
                ? undefined
                : (parseContractAddress(s) as { message: string }).message
              : undefined,
        });
        if (!v?.trim()) {
          if (!d.candidates.length) return undefined;
          continue;
        }
        const p = parseContractAddress(v);
        if (!p.ok) {
          void vscode.window.showErrorMessage(notificationSafe(p.message));
          return undefined;
        }
        const resolved = await this.resolveEntity(p.value);
        if (!resolved) return undefined;
        const known = d.candidates.find((c) => c.address === resolved.address);
        return {
          candidate: {
            ...known,
            address: resolved.address,
            entityId: resolved.entityId ?? known?.entityId,
            runtimeBytecode: resolved.runtimeBytecode,
            source: 'input',
            where: known ? `typed in (${known.where})` : 'typed in',
            alsoIn: [],
          },
          chainId,
        };
      }
      let cand = choice.candidate as AddressCandidate;
      if (cand.entityId) {
        // an entity id from a record or .env: its own EVM address, not the long-zero one
        const resolved = await this.resolveEntity({ address: cand.address, entityId: cand.entityId });
        if (!resolved) return undefined;
        cand = { ...cand, address: resolved.address, runtimeBytecode: resolved.runtimeBytecode };
      }
      const recordChain = cand.chainId !== undefined && isChainId(cand.chainId) ? cand.chainId : undefined;
      return { candidate: cand, chainId: chainOverride ?? recordChain ?? profile.chainId };
    }
  }

  /**
   * An entity id's EVM address from the mirror node of the selected network (contracts created by an Ethereum
   * transaction or CREATE2 are not at their long-zero address). An EVM address is kept as given. A failed lookup
   * is shown and stops the command (undefined).
   */
  private async resolveEntity(p: {
    address: string;
    entityId?: string;
  }): Promise<{ address: string; entityId?: string; runtimeBytecode?: string } | undefined> {
    if (!p.entityId) return p;
    const r = await lookUpContract(this.chainCode, p.entityId);
    if (!r.ok) {
      this.log.warn(`Verify: ${r.message}`);
      void vscode.window.showErrorMessage(notificationSafe(r.message));
      return undefined;
    }
    if (r.value.address !== p.address)
      this.log.info(
        `Verify: ${p.entityId} is at ${r.value.address} (not its long-zero address ${p.address}), says the mirror node.`,
      );
    return { address: r.value.address, entityId: p.entityId, runtimeBytecode: r.value.runtimeBytecode };
  }

  /** What the workspace's deployment records know about an address (contract name, build, creation transaction). */
  private async knownRecord(address: string): Promise<AddressCandidate | undefined> {
    try {
      const d = await discoverAddresses({
        folders: this.folders().map((f) => f.fs),
        chainId: this.network.profile.chainId,
      });
      return d.candidates.find((c) => c.address === address);
    } catch {
      return undefined;
    }
  }

  private async pickChain(current: number): Promise<number | undefined> {
    const title = vscode.l10n.t('Chain id for the verification');
    const items = CHAIN_IDS.map((id) => ({
      label: String(id),
      description: CHAIN_NAMES[id],
      picked: id === current,
      id,
    }));
    const p = await this.prompts.pick('chain', items, { title, placeHolder: vscode.l10n.t('Now {0}', current) });
    return p?.id;
  }

  /* ------------------------------------------------------------ outcome */

  private notifyOutcome(r: VerificationRecord): void {
    const c = r.contracts[0];
    const statuses = r.contracts.map((x) => x.status).join(', ') || 'no contracts';
    void vscode.window.setStatusBarMessage(`$(verified) ${vscode.l10n.t('Verification: {0}', statuses)}`, 6000);
    if (r.api === 'sourcify-v2' && c?.error) {
      const retry = vscode.l10n.t('Retry');
      const openLog = vscode.l10n.t('Open Log');
      // Sourcify's sentence, then what the extension can tell (the build submitted, the code lengths): plain text
      const text = [c.error.message, ...(c.hints ?? [])].join(' ');
      void vscode.window
        .showWarningMessage(
          vscode.l10n.t(
            'Sourcify could not verify {0}: {1}',
            notificationSafe(c.name, 80),
            notificationSafe(text, 700),
          ),
          retry,
          openLog,
        )
        .then((a) => {
          if (a === retry) void this.rerun();
          if (a === openLog) this.log.show();
        });
    } else if (r.upgrade === 'offered' && c) {
      const upgrade = vscode.l10n.t('Upgrade to exact match');
      void vscode.window
        .showInformationMessage(
          vscode.l10n.t(
            "{0} is only partially verified on Sourcify (match). The workspace's build ({1}) is at hand: submit it again for an exact match?",
            notificationSafe(c.name, 80),
            notificationSafe(r.buildFile ?? '', 200),
          ),
          upgrade,
        )
        .then((a) => {
          if (a === upgrade) void this.run(upgradeArgs(r));
        });
    }
  }

  private notifyError(r: VerificationRecord, e: unknown): void {
    const err = isApiError(e) ? e : undefined;
    const all = [r.error?.message ?? '', ...(err?.serverMessages ?? [])].join(' ');
    const keyProblem = r.api === 'session' && (/api key/i.test(all) || err?.status === 401 || err?.status === 403);
    const setKey = vscode.l10n.t('Set API Key');
    const retry = vscode.l10n.t('Retry');
    const openLog = vscode.l10n.t('Open Log');
    const actions = [...(keyProblem ? [setKey] : []), retry, openLog];
    void vscode.window
      .showErrorMessage(
        vscode.l10n.t('Verification failed: {0}', notificationSafe(r.error?.message ?? String(e))),
        ...actions,
      )
      .then(async (a) => {
        if (a === setKey) {
          if (await this.prompts.apiKey()) void this.rerun();
        } else if (a === retry) void this.rerun();
        else if (a === openLog) this.log.show();
      });
  }

  /** Runs the shown result again (same address, chain and API). */
  async rerun(): Promise<VerificationRecord | undefined> {
    const r = this.results.current;
    if (!r) return this.run();
    return this.run({ address: r.address, chainId: r.chainId, api: r.api, contractIdentifier: r.contractIdentifier });
  }

  dispose(): void {
    this.abort?.abort();
  }
}
