/**
 * One verification run as the Verification view shows it and workspaceState keeps it (plain JSON): per
 * contract its status, details and files (found, missing, invalid), the unused files, or the error.
 * Built from a session result, or from a Sourcify v2 lookup/job plus the local source check.
 */
import { ApiError } from '../../api/errors';
import type { ContractMatch, JobError, MatchKind, SessionVerifyResult, VerificationJob } from '../../api/verify';
import type { FileCheck, LocalCheck } from './localCheck';

export type VerifyApi = 'session' | 'sourcify-v2';

export interface ContractRow {
  name: string;
  /** perfect, partial, extra-file-input-bug, error (session); exact_match, match, none (v2); unknown values as they are. */
  status: string;
  statusMessage?: string;
  compiledPath?: string;
  address: string;
  chainId: string;
  storageTimestamp?: string;
  verificationId?: string;
  compilerVersion?: string;
  creationMatch?: string | null;
  runtimeMatch?: string | null;
  matchId?: string;
  /** The job's error (v2). */
  error?: JobError;
  /** What the extension can add to a no-match or a partial match (plain sentences: the build submitted, lengths...). */
  hints?: string[];
  /** Whether the file lists come from the local check of the metadata (v2) or from the server (session). */
  filesFrom: 'server' | 'local' | 'none';
  found: FileCheck[];
  missing: FileCheck[];
  invalid: FileCheck[];
}

export interface RecordError {
  message: string;
  serverMessages: string[];
  status?: number;
  kind: string;
}

export interface VerificationRecord extends RecordBase {
  version: 1;
  /** `network|chainId|address` */
  key: string;
  /** v2: the build info used and the contract identifier submitted. */
  buildFile?: string;
  contractIdentifier?: string;
  /** v2: "already verified" (no job), or the job's id. */
  jobId?: string;
  alreadyVerified?: boolean;
  /**
   * v2, a partial match (`match`) kept as it is: `offered` when the workspace's build is at hand ("Upgrade to exact
   * match" submits it), `noBuild` when no build of the contract was found.
   */
  upgrade?: 'offered' | 'noBuild';
  finishedAt: string;
  contracts: ContractRow[];
  unused: FileCheck[];
  error?: RecordError;
}

export function recordKey(network: string, chainId: number | string, address: string): string {
  return `${network}|${chainId}|${address.toLowerCase()}`;
}

/** What a verification run knows before it starts (where the address came from, which server). */
export interface RecordBase {
  api: VerifyApi;
  network: string;
  networkLabel: string;
  chainId: number;
  address: string;
  entityId?: string;
  /** Where the address came from ("Hardhat Ignition · ignition/deployments/chain-296/..."). */
  source?: string;
  /** The verification server, and the explorer for the session endpoint. */
  server: string;
  explorer?: string;
  /** The workspace folder (URI string) the relative paths belong to. */
  folder?: string;
  startedAt: string;
}

/** The record exactly as workspaceState keeps it (no undefined fields). */
const plain = <T>(v: T): T => JSON.parse(JSON.stringify(v)) as T;

function base(b: RecordBase): Omit<VerificationRecord, 'contracts' | 'unused' | 'finishedAt'> {
  return { version: 1, key: recordKey(b.network, b.chainId, b.address), ...b };
}

const fileRow = (f: FileCheck | undefined, path: string, reason?: string): FileCheck => ({
  path,
  ...(f?.workspacePath ? { workspacePath: f.workspacePath } : {}),
  ...((reason ?? f?.reason) ? { reason: reason ?? f?.reason } : {}),
  ...(f?.elsewhere?.length ? { elsewhere: f.elsewhere } : {}),
});

/**
 * A session result with the server's files mapped to the workspace (`locate` returns the workspace checks of
 * the paths it is given, in order).
 */
export async function recordFromSession(
  b: RecordBase,
  result: SessionVerifyResult,
  locate: (files: Array<{ path: string; keccak256?: string }>) => Promise<FileCheck[]>,
  now = new Date(),
): Promise<VerificationRecord> {
  const contracts: ContractRow[] = [];
  for (const c of result.contracts) {
    const found = await locate(c.found.map((p) => ({ path: p })));
    const missing = await locate(c.missing.map((m) => ({ path: m.path, keccak256: m.keccak256 })));
    const invalid = await locate(c.invalid.map((m) => ({ path: m.path })));
    contracts.push({
      name: c.name,
      status: c.status,
      statusMessage: c.statusMessage || undefined,
      compiledPath: c.compiledPath,
      address: c.address || b.address,
      chainId: c.chainId || String(b.chainId),
      storageTimestamp: c.storageTimestamp,
      verificationId: c.verificationId,
      compilerVersion: c.compilerVersion,
      filesFrom: 'server',
      found: c.found.map((p, i) => fileRow(found[i], p)),
      missing: c.missing.map((m, i) => fileRow(missing[i], m.path)),
      invalid: c.invalid.map((m, i) => fileRow(invalid[i], m.path, m.reason)),
    });
  }
  const unused = await locate(result.unused.map((p) => ({ path: p })));
  return plain({
    ...base(b),
    finishedAt: now.toISOString(),
    contracts,
    unused: result.unused.map((p, i) => fileRow(unused[i], p)),
  });
}

/** The status word of a v2 match: exact_match, match, or none. */
function matchStatus(m: ContractMatch | undefined): string {
  return m?.match ?? 'none';
}

export interface V2Outcome {
  contractName: string;
  contractIdentifier?: string;
  compilerVersion?: string;
  buildFile?: string;
  /** The lookup (already verified) or the job's contract. */
  match: ContractMatch;
  job?: VerificationJob;
  /** Already verified (the lookup, a 409, or a job error `already_verified`): the job's error is not kept as one. */
  alreadyVerified: boolean;
  local?: LocalCheck;
  /** The status message, when the run has a better one than the job error's or "Already verified on Sourcify". */
  statusMessage?: string;
  hints?: string[];
  upgrade?: VerificationRecord['upgrade'];
}

/** A job error as results keep it: the deployed code it may carry is left out (its length is kept). */
function keptError(e: JobError): JobError {
  const { onchainRuntimeCode: _code, ...kept } = e;
  void _code;
  return kept;
}

export function recordFromV2(b: RecordBase, o: V2Outcome, now = new Date()): VerificationRecord {
  // already verified (the lookup, a 409, or a job that ended in `already_verified`): what Sourcify holds, no job error
  const jobError = o.alreadyVerified || !o.job?.error ? undefined : keptError(o.job.error);
  const compiledPath = o.contractIdentifier
    ? o.contractIdentifier.slice(0, o.contractIdentifier.lastIndexOf(':'))
    : undefined;
  const row: ContractRow = {
    name: o.contractName,
    status: matchStatus(o.match),
    compiledPath,
    address: o.match.address || b.address,
    chainId: o.match.chainId || String(b.chainId),
    storageTimestamp: o.match.verifiedAt,
    verificationId: o.job?.verificationId,
    compilerVersion: o.compilerVersion,
    creationMatch: o.match.creationMatch,
    runtimeMatch: o.match.runtimeMatch,
    matchId: o.match.matchId,
    error: jobError,
    statusMessage:
      o.statusMessage ?? jobError?.message ?? (o.alreadyVerified ? 'Already verified on Sourcify' : undefined),
    ...(o.hints?.length ? { hints: o.hints } : {}),
    filesFrom: o.local ? 'local' : 'none',
    found: (o.local?.found ?? []).map((f) => fileRow(f, f.path)),
    missing: (o.local?.missing ?? []).map((f) => fileRow(f, f.path)),
    invalid: [],
  };
  return plain({
    ...base(b),
    finishedAt: now.toISOString(),
    buildFile: o.buildFile,
    contractIdentifier: o.contractIdentifier,
    jobId: o.job?.verificationId,
    alreadyVerified: o.alreadyVerified,
    ...(o.upgrade ? { upgrade: o.upgrade } : {}),
    contracts: [row],
    unused: (o.local?.unused ?? []).map((p) => ({ path: p, workspacePath: p })),
  });
}

/**
 * The arguments of "Upgrade to exact match" (Verify Contract's `VerifyArgs`) for a result that offers it: the same
 * contract, chain and build, submitted again to Sourcify v2.
 */
export function upgradeArgs(r: VerificationRecord): {
  address: string;
  chainId: number;
  api: VerifyApi;
  contractIdentifier?: string;
  upgrade: true;
} {
  return {
    address: r.address,
    chainId: r.chainId,
    api: 'sourcify-v2',
    ...(r.contractIdentifier ? { contractIdentifier: r.contractIdentifier } : {}),
    upgrade: true,
  };
}

/** A finished verification run as the features that show verification states follow it (the Deployments view, the CodeLens). */
export interface VerificationChange {
  /** The network (its profile name) and the chain the run was on. */
  network: string;
  chainId: number;
  /** The contract's address, lowercase. */
  address: string;
  api: VerifyApi;
  /** The server asked (API v2: the network's Sourcify; the session endpoint's server otherwise). */
  server: string;
  /**
   * What Sourcify at `server` holds for the contract now, in API v2's words (`exact_match`, `match`, null: not
   * verified), as the run's look-up or job said (a session import: `perfect` is `exact_match`, `partial` is `match`);
   * undefined when the run cannot tell (it failed, or its session result has no verified contract).
   */
  match?: MatchKind;
}

/** The change a kept result announces. */
export function verificationChange(r: VerificationRecord): VerificationChange {
  const c = r.contracts[0];
  const statuses = r.contracts.map((x) => x.status);
  const match: MatchKind | undefined =
    r.error || !c
      ? undefined
      : r.api === 'sourcify-v2'
        ? c.status === 'none'
          ? null
          : c.status
        : statuses.includes('perfect')
          ? 'exact_match'
          : statuses.includes('partial')
            ? 'match'
            : undefined;
  return {
    network: r.network,
    chainId: r.chainId,
    address: r.address.toLowerCase(),
    api: r.api,
    server: r.server,
    ...(match !== undefined ? { match } : {}),
  };
}

export function recordFromError(b: RecordBase, error: unknown, now = new Date()): VerificationRecord {
  const e = error instanceof ApiError ? error : undefined;
  return plain({
    ...base(b),
    finishedAt: now.toISOString(),
    contracts: [],
    unused: [],
    error: {
      message: e ? e.message : error instanceof Error ? error.message : String(error),
      serverMessages: e?.serverMessages ?? [],
      status: e?.status,
      kind: e?.kind ?? 'error',
    },
  });
}

/** A plain-text summary of a record (the "Copy Result" action, the log). */
export function summarize(r: VerificationRecord): string {
  const lines = [
    `Verification of ${r.address}${r.entityId ? ` (${r.entityId})` : ''} on ${r.networkLabel} (chain ${r.chainId}) via ${r.api === 'session' ? `the session endpoint (${r.explorer ?? 'etherscan'})` : 'Sourcify API v2'} at ${r.server}, ${r.finishedAt}`,
  ];
  if (r.error)
    lines.push(
      `Error: ${r.error.message}${r.error.serverMessages.length ? ` (${r.error.serverMessages.join('; ')})` : ''}`,
    );
  for (const c of r.contracts) {
    lines.push(
      `- ${c.name}: ${c.status}${c.statusMessage ? ` (${c.statusMessage})` : ''}${c.compiledPath ? ` · ${c.compiledPath}` : ''}`,
    );
    if (c.error) lines.push(`  error: ${c.error.customCode ? `${c.error.customCode}: ` : ''}${c.error.message}`);
    for (const h of c.hints ?? []) lines.push(`  ${h}`);
    if (c.found.length) lines.push(`  found (${c.found.length}): ${c.found.map((f) => f.path).join(', ')}`);
    if (c.missing.length)
      lines.push(
        `  missing (${c.missing.length}): ${c.missing.map((f) => `${f.path}${f.elsewhere?.length ? ` [in the workspace at ${f.elsewhere[0]}]` : ''}`).join(', ')}`,
      );
    if (c.invalid.length)
      lines.push(
        `  invalid (${c.invalid.length}): ${c.invalid.map((f) => `${f.path}: ${f.reason ?? 'invalid'}`).join(', ')}`,
      );
  }
  if (r.unused.length) lines.push(`Unused files (${r.unused.length}): ${r.unused.map((f) => f.path).join(', ')}`);
  return lines.join('\n');
}
