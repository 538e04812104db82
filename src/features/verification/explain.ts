/**
 * What a Sourcify v2 verification can say beyond Sourcify's own sentence: why a job found no match (the build
 * submitted, its runtime bytecode's length against the deployed code's, another build of the workspace that holds
 * the deployed code), and what a partial match can become (an upgrade to an exact match when the workspace's build
 * is at hand). Plain TypeScript without `vscode`: the run passes `vscode.l10n`, the unit tests the plain formatter.
 * The sentences are plain text (paths and identifiers come from the workspace's files, codes from the server): the
 * views and notifications show them through `inert()`.
 */
import { stripMetadata } from '../../api/decode/solcOutput';
import * as l10n from '@vscode/l10n';
import { codeDifference, codeDifferenceText } from '../../api/source/codeDifference';
import type { JobError } from '../../api/verify';

/** Job error codes that mean "the code compiled from this build is not the deployed code". */
export const NO_MATCH_CODES: ReadonlySet<string> = new Set([
  'no_match',
  'bytecode_length_mismatch',
  'extra_file_input_bug',
]);

/** Whether a job error says the build submitted is not the deployed one (the no-match hints apply). */
export function isNoMatch(e: JobError | undefined): boolean {
  return !!e && (NO_MATCH_CODES.has(e.customCode ?? '') || e.codeLengths?.onchainRuntime !== undefined);
}

/** A build of a contract: what was submitted, or another build of the workspace. */
export interface BuildOf {
  /** `path/to/File.sol:Name` */
  identifier: string;
  /** The build info file, relative to the workspace folder. */
  file: string;
  compilerVersion?: string;
  /** The contract's runtime bytecode in the build (`evm.deployedBytecode.object`), when the build has it. */
  runtimeBytecode?: string;
}

/** The deployed runtime code as the extension knows it: Sourcify's `onchainRuntimeCode`, else the mirror node's. */
export interface DeployedCode {
  runtimeBytecode?: string;
  from?: 'sourcify' | 'mirror';
}

/** Bytes of a hex code (with or without 0x); undefined for no code or anything that is not hex. */
function byteLength(hex: string | undefined): number | undefined {
  const h = hex?.replace(/^0x/i, '');
  return h && /^[0-9a-fA-F]*$/.test(h) && h.length % 2 === 0 ? h.length / 2 : undefined;
}

/**
 * Whether a build's runtime bytecode is the deployed code: the metadata tails aside, and the bytes the build leaves
 * to the deployment: immutables (runs of at least 32 zero bytes in the build, the constructor's values on chain),
 * library links (`__$…$__` placeholders) and a library's own address in its call guard (PUSH20 zeros at the start).
 */
export function sameRuntimeCode(deployed: string, compiled: string): boolean {
  const x = stripMetadata(compiled);
  const y = stripMetadata(deployed);
  if (x.length !== y.length || !x.length || x.length % 2) return false;
  const n = x.length / 2;
  const byte = (i: number) => x.substr(i * 2, 2);
  const free = new Uint8Array(n);
  for (let i = 0; i < n;) {
    let j = i;
    while (j < n && byte(j) === '00') j++;
    if (j - i >= 32) free.fill(1, i, j); // an immutable's 32 bytes (or more in a row)
    i = Math.max(j, i + 1);
  }
  for (const m of x.matchAll(/__\$[0-9a-fA-F]{34}\$__/g))
    if (m.index !== undefined && m.index % 2 === 0) free.fill(1, m.index / 2, m.index / 2 + 20);
  if (/^73(?:00){20}3014/.test(x)) free.fill(1, 1, 21);
  for (let i = 0; i < free.length; i++) if (!free[i] && x.substr(i * 2, 2) !== y.substr(i * 2, 2)) return false;
  return true;
}

/** "Submitted contracts/Counter.sol:Counter from artifacts/build-info/x.json (compiler 0.8.28+commit.7893614a)." */
export function submittedText(b: BuildOf): string {
  return b.compilerVersion
    ? l10n.t('Submitted {0} from {1} (compiler {2}).', b.identifier, b.file, b.compilerVersion)
    : l10n.t('Submitted {0} from {1}.', b.identifier, b.file);
}

/**
 * What the extension can tell about a no-match (see isNoMatch), one sentence a line: the build submitted; the
 * runtime bytecode's length against the deployed code's (the lengths Sourcify sent, else the build's own runtime
 * bytecode against the deployed code the extension knows) or, at equal lengths, where they first differ; the
 * `bytecode_length_mismatch` and `extra_file_input_bug` codes in words; and another build of the workspace whose
 * runtime code is the deployed code (the deployment was made from it).
 */
export function noMatchHints(
  error: JobError,
  submitted: BuildOf | undefined,
  deployed: DeployedCode = {},
  others: BuildOf[] = [],
): string[] {
  const hints: string[] = [];
  if (submitted) hints.push(submittedText(submitted));
  const lengths = error.codeLengths;
  const fromSourcify = lengths?.onchainRuntime !== undefined && lengths.recompiledRuntime !== undefined;
  const onchain = fromSourcify ? lengths?.onchainRuntime : byteLength(deployed.runtimeBytecode);
  const recompiled = fromSourcify ? lengths?.recompiledRuntime : byteLength(submitted?.runtimeBytecode);
  if (
    !fromSourcify &&
    submitted?.runtimeBytecode &&
    deployed.runtimeBytecode &&
    onchain &&
    recompiled &&
    !sameRuntimeCode(deployed.runtimeBytecode, submitted.runtimeBytecode)
  ) {
    // both codes at hand: what differs, said as everywhere a build is not the one deployed
    const d = codeDifference(deployed.runtimeBytecode, submitted.runtimeBytecode, submitted.compilerVersion);
    hints.push(
      l10n.t(
        'Its runtime bytecode in the build is not the deployed code ({0}): {1}.',
        deployed.from === 'sourcify' ? 'Sourcify' : l10n.t('mirror node'),
        codeDifferenceText(d),
      ),
    );
  } else if (onchain !== undefined && recompiled !== undefined && onchain > 0 && recompiled > 0) {
    if (onchain !== recompiled) {
      hints.push(
        fromSourcify
          ? l10n.t(
              'The runtime bytecode Sourcify compiled from it is {0} bytes long; the deployed code is {1} bytes: the contract at this address was not compiled from this build.',
              recompiled,
              onchain,
            )
          : l10n.t(
              'Its runtime bytecode in the build is {0} bytes long; the deployed code ({2}) is {1} bytes: the contract at this address was not compiled from this build.',
              recompiled,
              onchain,
              deployed.from === 'sourcify' ? 'Sourcify' : l10n.t('mirror node'),
            ),
      );
    } else if (
      fromSourcify ||
      (submitted?.runtimeBytecode &&
        deployed.runtimeBytecode &&
        !sameRuntimeCode(deployed.runtimeBytecode, submitted.runtimeBytecode))
    ) {
      hints.push(
        fromSourcify
          ? l10n.t(
              'The runtime bytecode Sourcify compiled from it is as long as the deployed code ({0} bytes) but differs from it: other sources, settings or libraries that give code of the same size.',
              onchain,
            )
          : l10n.t(
              'Its runtime bytecode in the build is as long as the deployed code ({0} bytes) but differs from it: other sources, settings or libraries that give code of the same size.',
              onchain,
            ),
      );
    }
  } else if (error.customCode === 'bytecode_length_mismatch') {
    hints.push(
      l10n.t(
        'The runtime bytecode compiled from it is not as long as the deployed code: the contract at this address was not compiled from this build.',
      ),
    );
  }
  if (error.customCode === 'extra_file_input_bug') {
    hints.push(
      l10n.t(
        'The metadata matches but the bytecode does not: the deployed contract was compiled with source files this build does not hold (Solidity\'s "extra file input" bug). Submit the build of the whole compilation that deployed it.',
      ),
    );
  }
  const code = deployed.runtimeBytecode;
  if (code) {
    const same = others.find(
      (o) =>
        o.runtimeBytecode &&
        !(o.identifier === submitted?.identifier && o.file === submitted?.file) &&
        sameRuntimeCode(code, o.runtimeBytecode),
    );
    if (same)
      hints.push(
        l10n.t(
          'The deployed code is {0} of {1}, another build in the workspace: the deployment was made from that build, not from the one submitted.',
          same.identifier,
          same.file,
        ),
      );
  }
  return hints;
}

/** A partial match (`match`) and the workspace's build at hand: what "Upgrade to exact match" would submit. */
export function upgradeOfferedText(b: BuildOf): string {
  return l10n.t(
    'Partially verified on Sourcify (match). The workspace\'s build is at hand: "Upgrade to exact match" submits {0} from {1} again for an exact match.',
    b.identifier,
    b.file,
  );
}

/** A partial match (`match`) without a build of the contract in the workspace: no upgrade to offer. */
export function upgradeNoBuildText(contractName: string): string {
  return l10n.t(
    'Partially verified on Sourcify (match). An exact match needs the build {0} was deployed from, and no build info in the workspace holds it: compile it (npx hardhat compile, or forge build --build-info), then verify again.',
    contractName,
  );
}

/** The upgrade's job found no better match than the partial one Sourcify holds. */
export function upgradeNotBetterText(jobId: string, b: BuildOf): string {
  return l10n.t(
    "Still a partial match: Sourcify's job {0} found no better match with {1} from {2}. An exact match needs the very sources and settings that were deployed (file paths, comments and compiler settings make the metadata hash).",
    jobId.slice(0, 8),
    b.identifier,
    b.file,
  );
}

/** The upgrade's job made an exact match. */
export function upgradedText(match: string, b: BuildOf): string {
  return l10n.t('Upgraded from a partial match to {0} with {1} from {2}.', match, b.identifier, b.file);
}
