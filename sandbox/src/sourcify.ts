/**
 * Sourcify: the session import endpoint (`POST /session/verify/{explorer}`) with its real error bodies, and
 * API v2 verification jobs. The outcome is chosen by the contract address (table in README.md).
 */
import { createHash } from 'node:crypto';
import { type Reply, jsonReply } from './http';
import { BIDI_NAME, COMMAND_LINK, HOSTILE_PATHS, type HostileCtx, MIX_TEXT, has, payload } from './hostile';

export const SUPPORTED_CHAINS = ['295', '296', '297', '298'];

/** Outcome by address (lowercase, 0x-prefixed). Any other valid address: not verified. */
export const VERIFY_ADDRESSES = {
  perfect: '0x1000000000000000000000000000000000000001',
  partial: '0x1000000000000000000000000000000000000002',
  partialMissingArray: '0x1000000000000000000000000000000000000003',
  multiple: '0x1000000000000000000000000000000000000004',
  notVerified: '0x1000000000000000000000000000000000000005',
  rateLimited: '0x1000000000000000000000000000000000000006',
  badApiKey: '0x1000000000000000000000000000000000000007',
  upstreamDown: '0x1000000000000000000000000000000000000008',
  noNewFiles: '0x1000000000000000000000000000000000000009',
  sessionTooBig: '0x100000000000000000000000000000000000000a',
  storeFailure: '0x100000000000000000000000000000000000000b',
  alreadyVerified: '0x100000000000000000000000000000000000000c',
  compileError: '0x100000000000000000000000000000000000000d',
  notDeployed: '0x100000000000000000000000000000000000000e',
  notInOutput: '0x100000000000000000000000000000000000000f',
  lengthMismatch: '0x1000000000000000000000000000000000000010',
  /** Held as a partial `match` on every chain; a new submission upgrades it to `exact_match` (as the real server stores a better match). */
  upgradable: '0x1000000000000000000000000000000000000011',
} as const;

type Outcome = keyof typeof VERIFY_ADDRESSES;
const BY_ADDRESS = new Map<string, Outcome>(Object.entries(VERIFY_ADDRESSES).map(([k, v]) => [v, k as Outcome]));
const outcomeOf = (address: string): Outcome | undefined => BY_ADDRESS.get(address.toLowerCase());

const err = (status: number, message: string): Reply => jsonReply(status, { error: message, message });

function verificationIdFor(address: string, chainId: string, name: string): string {
  return '0x' + createHash('sha256').update(`${chainId}:${address.toLowerCase()}:${name}`).digest('hex');
}

function sessionContract(
  address: string,
  chainId: string,
  name: string,
  path: string,
  status: 'perfect' | 'partial',
  missing: unknown,
  invalid: Record<string, string>,
): Record<string, unknown> {
  return {
    verificationId: verificationIdFor(address, chainId, name),
    constructorArgumentsArray: [],
    compiledPath: path,
    name,
    address,
    chainId,
    files: {
      found: [path, ...(name === 'Token' ? ['@openzeppelin/contracts/token/ERC20/ERC20.sol'] : [])],
      missing,
      invalid,
    },
    status,
    statusMessage: '',
    ...(status === 'perfect' ? { storageTimestamp: '2026-10-30T11:02:45.311Z' } : {}),
  };
}

/* ---------------------------------------------------------------- session API (v1) */

/**
 * `text`: contract names (the first one `Other\u202Elos.exe\u202C`, then payloads 1, 2, ...), statusMessage,
 * found/missing/invalid paths and reasons, unused files and the files list get hostile values; ids, addresses,
 * chain ids and statuses stay valid.
 */
function hostileSession(reply: Reply): Reply {
  if (reply.status !== 200) return reply;
  const o = JSON.parse(reply.body) as Record<string, unknown>;
  const paths = (i: number, n: number): string[] =>
    Array.from({ length: n }, (_, k) => HOSTILE_PATHS[(i + k) % HOSTILE_PATHS.length]);
  o.contracts = (o.contracts as Record<string, unknown>[]).map((c, i) => {
    const files = c.files as Record<string, unknown>;
    const missing = files.missing;
    const invalid = files.invalid as Record<string, string>;
    return {
      ...c,
      name: i === 0 ? BIDI_NAME : payload(i),
      compiledPath: HOSTILE_PATHS[i % HOSTILE_PATHS.length],
      statusMessage: c.status === 'error' ? `${String(c.statusMessage)} ${MIX_TEXT}` : payload(i + 3),
      files: {
        found: paths(i, (files.found as string[]).length),
        missing: Array.isArray(missing)
          ? paths(i + 1, missing.length)
          : Object.fromEntries(
              Object.values(missing as Record<string, unknown>).map((m, k) => [
                HOSTILE_PATHS[(i + 1 + k) % HOSTILE_PATHS.length],
                m,
              ]),
            ),
        invalid: Object.fromEntries(
          Object.keys(invalid).map((_, k) => [HOSTILE_PATHS[(i + 2 + k) % HOSTILE_PATHS.length], `${MIX_TEXT}`]),
        ),
      },
    };
  });
  if (Array.isArray(o.unused))
    o.unused = (o.unused as string[]).map((_, k) => HOSTILE_PATHS[(k + 3) % HOSTILE_PATHS.length]);
  if (Array.isArray(o.files)) o.files = (o.files as string[]).map((_, k) => HOSTILE_PATHS[k % HOSTILE_PATHS.length]);
  return jsonReply(200, o, {});
}

export function handleSessionVerify(explorer: string, body: unknown, h?: HostileCtx): Reply {
  const reply = sessionVerify(explorer, body);
  return has(h, 'text') ? hostileSession(reply) : reply;
}

function sessionVerify(explorer: string, body: unknown): Reply {
  const b = (typeof body === 'object' && body !== null ? body : {}) as Record<string, unknown>;
  if (b.address === undefined || b.address === null || b.address === '') {
    return jsonReply(400, {
      message: "request/body must have required property 'address'",
      errors: [
        {
          path: '/body/address',
          message: "must have required property 'address'",
          errorCode: 'required.openapi.validation',
        },
      ],
    });
  }
  const chainRaw = b.chainId ?? b.chain;
  if (chainRaw === undefined || chainRaw === null || chainRaw === '') {
    return jsonReply(400, {
      message: "request/body must have required property 'chain'",
      errors: [
        {
          path: '/body/chain',
          message: "must have required property 'chain'",
          errorCode: 'required.openapi.validation',
        },
      ],
    });
  }
  const address = String(b.address);
  if (!/^0x[0-9a-fA-F]{40}$/.test(address)) {
    return jsonReply(400, {
      message: `Invalid address: ${address}`,
      errors: [
        { path: '/body/address', message: `Invalid address: ${address}`, errorCode: 'format.openapi.validation' },
      ],
    });
  }
  const chainId = String(chainRaw);
  if (!SUPPORTED_CHAINS.includes(chainId)) {
    return jsonReply(400, {
      message: `Chain ${chainId} not supported for verification!`,
      errors: [
        {
          path: '/body/chain',
          message: `Chain ${chainId} not supported for verification!`,
          errorCode: 'format.openapi.validation',
        },
      ],
    });
  }
  if (explorer.toLowerCase() !== 'etherscan') return err(400, `Unsupported explorer: ${explorer}`);
  const outcome = outcomeOf(address);
  if (b.apiKey === '' || b.apiKey === 'bad-key' || outcome === 'badApiKey')
    return err(502, 'Error in Etherscan API response. Result message: Invalid API Key');
  switch (outcome) {
    case 'rateLimited':
      return err(429, 'Etherscan API rate limit reached, try later.');
    case 'upstreamDown':
      return err(502, 'Etherscan API responded with an error. Status code: 503.');
    case 'noNewFiles':
      return err(400, "The contract didn't add any new file");
    case 'sessionTooBig':
      return err(413, 'Too much session memory used. Delete some files or clear the session.');
    case 'storeFailure':
      return { status: 500, headers: { 'Content-Type': 'text/html; charset=utf-8' }, body: 'Cannot store session' };
    case 'perfect':
    case 'alreadyVerified':
      return jsonReply(200, {
        contracts: [sessionContract(address, chainId, 'Storage', 'contracts/Storage.sol', 'perfect', {}, {})],
        unused: [],
        files: ['contracts/Storage.sol', 'metadata.json'],
      });
    case 'partial':
      return jsonReply(200, {
        contracts: [
          sessionContract(
            address,
            chainId,
            'Token',
            'contracts/Token.sol',
            'partial',
            {
              '@openzeppelin/contracts/access/Ownable.sol': {
                keccak256: '0x' + 'a3'.repeat(32),
                urls: ['bzz-raw://' + 'c4'.repeat(32), 'dweb:/ipfs/QmSandboxOwnable'],
              },
            },
            {
              'contracts/Token.sol':
                'The keccak256 hash of the file does not match the one in metadata (recompiled with other settings).',
            },
          ),
        ],
        unused: ['README.md', 'scripts/deploy.ts'],
        files: [
          'contracts/Token.sol',
          '@openzeppelin/contracts/token/ERC20/ERC20.sol',
          'metadata.json',
          'README.md',
          'scripts/deploy.ts',
        ],
      });
    case 'partialMissingArray':
      return jsonReply(200, {
        contracts: [
          sessionContract(
            address,
            chainId,
            'Vault',
            'contracts/Vault.sol',
            'partial',
            ['contracts/interfaces/IVault.sol', 'contracts/libraries/Math.sol'],
            {},
          ),
        ],
        unused: [],
      });
    case 'multiple':
      return jsonReply(200, {
        contracts: [
          sessionContract(address, chainId, 'Router', 'contracts/Router.sol', 'perfect', {}, {}),
          sessionContract(
            address,
            chainId,
            'RouterLib',
            'contracts/RouterLib.sol',
            'partial',
            { 'contracts/IRouter.sol': { keccak256: '0x' + 'b7'.repeat(32), urls: [] } },
            {},
          ),
          {
            ...sessionContract(address, chainId, 'Helper', 'contracts/Helper.sol', 'partial', {}, {}),
            status: 'error',
            statusMessage: 'Helper was not deployed at this address',
          },
        ],
        unused: ['hardhat.config.ts'],
      });
    default:
      return err(404, 'This contract is not verified on Etherscan.');
  }
}

/* ---------------------------------------------------------------- API v2 */

interface Held {
  match: string;
  creation: string | null;
  runtime: string;
  at: string;
  matchId: string;
}

interface JobError {
  customCode: string;
  message: string;
  errorId: string;
  errorData?: { compilerErrors: Record<string, string>[] };
}

interface Job {
  id: string;
  /** Order of submission (the matchId of a match it makes). */
  n: number;
  chainId: string;
  address: string;
  polls: number;
  startedMs: number;
  /** Fixed when the job ends: the match it made or its error (hostile decorations are added per request). */
  done?: { finishedMs: number; contract?: Record<string, unknown>; error?: JobError };
}

/**
 * A job runs until its third poll or until this long after it started, whichever comes first (real jobs end on
 * their own, polled or not). While it runs, another submission for the same chain and address is refused (429
 * `duplicate_verification_request`).
 */
export const JOB_RUN_MS = 15_000;

const ERROR_ID = '1ac6b91a-0605-4459-93dc-18f210a70192';
const v2Error = (status: number, customCode: string, message: string): Reply =>
  jsonReply(status, { customCode, message, errorId: ERROR_ID });
const RANK: Record<string, number> = { match: 1, exact_match: 2 };
/** Checksummed in the real server's messages; the sandbox keeps the address as it came. */
const key = (chainId: string, address: string) => `${chainId}:${address.toLowerCase()}`;

export class SourcifyV2 {
  private readonly jobs = new Map<string, Job>();
  private readonly verified = new Map<string, Held>();
  private counter = 0;

  constructor() {
    const hold = (chainId: string, address: string, match: string, at: string) =>
      this.verified.set(key(chainId, address), { match, creation: match, runtime: match, at, matchId: '3266227' });
    hold('296', VERIFY_ADDRESSES.perfect, 'exact_match', '2026-10-30T11:02:45Z');
    hold('296', VERIFY_ADDRESSES.partial, 'match', '2026-10-12T08:15:00Z');
    for (const c of SUPPORTED_CHAINS) hold(c, VERIFY_ADDRESSES.alreadyVerified, 'exact_match', '2026-09-01T00:00:00Z');
    for (const c of SUPPORTED_CHAINS) hold(c, VERIFY_ADDRESSES.upgradable, 'match', '2026-10-20T09:30:00Z');
  }

  /** As the real server validates the path: chainId `^\d+$` (OpenAPI), a known chain (400 since 2026-01), the address. */
  private checkTarget(chainId: string, address: string): Reply | null {
    if (!/^\d+$/.test(chainId))
      return v2Error(400, 'invalid_parameter', 'request/params/chainId must match pattern "^\\d+$"');
    if (!/^0x[0-9a-fA-F]{40}$/.test(address))
      return v2Error(400, 'invalid_parameter', `request/params/address must match pattern "(\\b0x[a-fA-F0-9]{40}\\b)"`);
    if (!SUPPORTED_CHAINS.includes(chainId)) return v2Error(400, 'unsupported_chain', `Chain ${chainId} not found`);
    return null;
  }

  /** Ends the jobs whose time is up (at their deadline), so their matches count for lookups and submissions. */
  private settle(nowMs: number): void {
    for (const job of this.jobs.values()) {
      if (!job.done && nowMs - job.startedMs >= JOB_RUN_MS) this.finish(job, job.startedMs + JOB_RUN_MS);
    }
  }

  /**
   * POST /v2/verify/{chainId}/{address}, /v2/verify/metadata/..., /v2/verify/etherscan/...
   * Checked in the real server's order: path, body, 409 `already_verified` when creation and runtime are both
   * `exact_match`, 429 `duplicate_verification_request` while a job for that chain and address runs, then 202.
   * `sourcify`: 409 `already_verified` ("both being exact matches") also for a contract the server holds as `match`
   * only (0x...02 on 296, 0x...0c on every chain, any address a job verified as `match`).
   */
  submit(
    kind: 'std' | 'metadata' | 'etherscan',
    chainId: string,
    address: string,
    body: unknown,
    nowMs: number,
    h?: HostileCtx,
  ): Reply {
    const bad = this.checkTarget(chainId, address);
    if (bad) return bad;
    const b = (typeof body === 'object' && body !== null ? body : {}) as Record<string, unknown>;
    const required =
      kind === 'std'
        ? ['stdJsonInput', 'compilerVersion', 'contractIdentifier']
        : kind === 'metadata'
          ? ['sources', 'metadata']
          : [];
    for (const r of required) {
      if (b[r] === undefined || b[r] === null)
        return v2Error(400, 'invalid_parameter', `request/body must have required property '${r}'`);
    }
    if (kind === 'std') {
      if (typeof b.stdJsonInput !== 'object')
        return v2Error(400, 'invalid_parameter', 'request/body/stdJsonInput must be object');
      if (typeof b.compilerVersion !== 'string' || !/^v?\d+\.\d+\.\d+.*$/.test(b.compilerVersion))
        return v2Error(
          400,
          'invalid_parameter',
          'request/body/compilerVersion must match pattern "^v?\\d+\\.\\d+\\.\\d+.*$"',
        );
      if (typeof b.contractIdentifier !== 'string' || !b.contractIdentifier.includes(':'))
        return v2Error(
          400,
          'invalid_parameter',
          `The contractIdentifier must be in the format 'path/to/file:ContractName'`,
        );
    }
    const outcome = outcomeOf(address);
    if (kind === 'etherscan' && (b.apiKey === '' || b.apiKey === 'bad-key'))
      return v2Error(
        400,
        'etherscan_request_failed',
        'Error in Etherscan API response. Result message: Invalid API Key',
      );
    if (outcome === 'rateLimited')
      return v2Error(
        429,
        kind === 'etherscan' ? 'etherscan_limit' : 'too_many_requests',
        kind === 'etherscan' ? 'Etherscan API key limit reached' : 'You are sending too many requests',
      );
    this.settle(nowMs);
    const existing = this.held(chainId, address, h);
    if (
      existing &&
      ((existing.creation === 'exact_match' && existing.runtime === 'exact_match') ||
        (has(h, 'sourcify') && existing.match === 'match'))
    ) {
      return v2Error(
        409,
        'already_verified',
        `Contract ${address} on chain ${chainId} is already verified with runtimeMatch and creationMatch both being exact matches.`,
      );
    }
    for (const j of this.jobs.values()) {
      if (!j.done && j.chainId === chainId && j.address.toLowerCase() === address.toLowerCase()) {
        return v2Error(
          429,
          'duplicate_verification_request',
          `Contract ${address} on chain ${chainId} is already being verified`,
        );
      }
    }
    const n = ++this.counter;
    const hex = createHash('sha256').update(`job:${n}:${chainId}:${address.toLowerCase()}`).digest('hex');
    const id = `${hex.slice(0, 8)}-${hex.slice(8, 12)}-4${hex.slice(13, 16)}-a${hex.slice(17, 20)}-${hex.slice(20, 32)}`;
    this.jobs.set(id, { id, n, chainId, address, polls: 0, startedMs: nowMs });
    return jsonReply(202, { verificationId: id });
  }

  /** What the server holds; with `sourcify`, 0x...0c is held as `match` (runtime only), not `exact_match`. */
  private held(chainId: string, address: string, h?: HostileCtx): Held | undefined {
    const v = this.verified.get(key(chainId, address));
    if (v && has(h, 'sourcify') && address.toLowerCase() === VERIFY_ADDRESSES.alreadyVerified)
      return { ...v, match: 'match', runtime: 'match', creation: null };
    return v;
  }

  /**
   * The job's end, by address: a match (stored unless the server already holds one at least as good: then the job
   * error `already_verified`, as the real server's storage refuses a match that is not better; a better one replaces
   * it, as `upgradable`'s exact match replaces its partial one), or a job error.
   */
  private finish(job: Job, atMs: number): void {
    const finishedMs = Math.max(atMs, job.startedMs + 1);
    const outcome = outcomeOf(job.address);
    const err = (customCode: string, message: string, errorData?: JobError['errorData']): void => {
      job.done = { finishedMs, error: { customCode, message, errorId: ERROR_ID, ...(errorData ? { errorData } : {}) } };
    };
    if (
      outcome === 'perfect' ||
      outcome === 'upgradable' ||
      outcome === 'partial' ||
      outcome === 'partialMissingArray' ||
      outcome === 'multiple'
    ) {
      const match = outcome === 'perfect' || outcome === 'upgradable' ? 'exact_match' : 'match';
      const held = this.verified.get(key(job.chainId, job.address));
      if (held && (RANK[match] ?? 0) <= (RANK[held.match] ?? 0))
        return err('already_verified', "The contract is already verified and the job didn't yield a better match.");
      const at = new Date(finishedMs).toISOString().replace(/\.\d{3}Z$/, 'Z');
      const matchId = String(4_000_000 + job.n);
      this.verified.set(key(job.chainId, job.address), { match, creation: match, runtime: match, at, matchId });
      job.done = {
        finishedMs,
        contract: {
          match,
          creationMatch: match,
          runtimeMatch: match,
          chainId: job.chainId,
          address: job.address,
          verifiedAt: at,
          matchId,
        },
      };
      return;
    }
    switch (outcome) {
      case 'compileError':
        return err(
          'compiler_error',
          "Compile error. ParserError: Expected ';' but got '{' --> contracts/Storage.sol:9:17",
          {
            compilerErrors: [
              {
                component: 'general',
                errorCode: '2314',
                message: "Expected ';' but got '{'",
                severity: 'error',
                type: 'ParserError',
              },
            ],
          },
        );
      case 'notDeployed':
        return err(
          'contract_not_deployed',
          `Chain #${job.chainId} does not have a contract deployed at ${job.address}.`,
        );
      case 'notInOutput':
        return err('contract_not_found_in_compiler_output', 'Contract not found in compiler output.');
      case 'lengthMismatch':
        return err(
          'bytecode_length_mismatch',
          "The recompiled bytecode length doesn't match the onchain bytecode length.",
        );
      default:
        return err('no_match', "The onchain and recompiled bytecodes don't match.");
    }
  }

  /**
   * GET /v2/verify/{verificationId}: pending for the first 2 polls (and at most JOB_RUN_MS), then completed with
   * either `contract.match` or `error`, never both, never neither. `sourcify`: error messages end with a markdown
   * command link; `text`: they also carry the MIX text, compiler errors carry payloads.
   */
  job(id: string, nowMs: number, h?: HostileCtx): Reply {
    const job = this.jobs.get(id);
    if (!job) return v2Error(404, 'job_not_found', `No verification job found for id ${id}`);
    job.polls++;
    this.settle(nowMs);
    if (!job.done && job.polls > 2) this.finish(job, nowMs);
    const base = { verificationId: job.id, jobStartTime: new Date(job.startedMs).toISOString() };
    const contract = {
      match: null,
      creationMatch: null,
      runtimeMatch: null,
      chainId: job.chainId,
      address: job.address,
    };
    if (!job.done) return jsonReply(200, { isJobCompleted: false, ...base, contract });
    const finished = {
      isJobCompleted: true,
      ...base,
      jobFinishTime: new Date(job.done.finishedMs).toISOString(),
      compilationTime: '1333',
    };
    if (job.done.contract) return jsonReply(200, { ...finished, contract: job.done.contract });
    const error: JobError = JSON.parse(JSON.stringify(job.done.error)) as JobError;
    if (has(h, 'sourcify')) error.message = `${error.message} ${COMMAND_LINK}`;
    if (has(h, 'text')) {
      error.message = `${error.message} ${MIX_TEXT}`;
      if (error.errorData) {
        error.errorData = {
          compilerErrors: [
            ...error.errorData.compilerErrors,
            {
              component: 'general',
              errorCode: '7858',
              message: payload(0),
              severity: 'error',
              type: 'ParserError',
              formattedMessage: `ParserError: ${payload(3)}\n --> ${HOSTILE_PATHS[0]}:1:1:`,
            },
          ],
        };
      }
    }
    return jsonReply(200, { ...finished, contract, error });
  }

  /**
   * GET /v2/contract/{chainId}/{address}: 200 with the match, or 404 `{match: null, ...}` (no customCode) when not
   * verified. `query` (the request's pairs): `fields=deployment` or `fields=all` adds `deployment` with the real
   * server's string numbers (`blockNumber`, `transactionIndex`).
   */
  contract(
    chainId: string,
    address: string,
    h?: HostileCtx,
    nowMs = Date.now(),
    query: ReadonlyArray<readonly [string, string]> = [],
  ): Reply {
    const bad = this.checkTarget(chainId, address);
    if (bad) return bad;
    this.settle(nowMs);
    const v = this.held(chainId, address, h);
    if (!v) return jsonReply(404, { match: null, creationMatch: null, runtimeMatch: null, chainId, address });
    const fields = query.filter(([k]) => k === 'fields').flatMap(([, f]) => f.split(','));
    const deployment =
      fields.includes('deployment') || fields.includes('all')
        ? {
            deployment: {
              transactionHash:
                '0x' +
                createHash('sha256')
                  .update(`deploy:${key(chainId, address)}`)
                  .digest('hex'),
              blockNumber: '21721660',
              transactionIndex: '3',
              deployer: '0x00000000000000000000000000000000000004d2',
            },
          }
        : {};
    return jsonReply(200, {
      match: v.match,
      creationMatch: v.creation,
      runtimeMatch: v.runtime,
      chainId,
      address,
      verifiedAt: v.at,
      matchId: v.matchId,
      ...deployment,
    });
  }
}
