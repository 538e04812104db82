/**
 * Why a build's runtime code is not the code deployed, as far as the two codes tell: the compiler version each
 * names in its metadata (CBOR `solc`), their lengths without the metadata, whether the metadata hashes differ.
 * One sentence for every place that says a build is not the one deployed (revert to source, the Deployments view,
 * the CodeLens, verification's no-match hints). "The source changed" is said only as one of the possibilities it
 * is; a different compiler version is said as such. Plain TypeScript, no `vscode`.
 */
import * as l10n from '@vscode/l10n';
import { metadataTailLength } from '../decode/solcOutput';
import { hexBytes, utf8Of } from '../platform/node';

export interface CodeDifference {
  /**
   * `compiler`: the metadata names another compiler version; `length`: the same (or an unknown) compiler, code of
   * another length; `sameLength`: as long, other bytes, another metadata hash; `deployTime`: the same metadata,
   * other bytes (values written at deployment the build does not mark); `unknown`: nothing to compare.
   */
  kind: 'compiler' | 'length' | 'sameLength' | 'deployTime' | 'unknown';
  /** Bytes without the metadata. */
  onChainBytes: number;
  buildBytes: number;
  /** `0.8.28`, from the code on chain's metadata. */
  onChainCompiler?: string;
  /** `0.8.28`, from the build's version or its code's metadata. */
  buildCompiler?: string;
  /** The first byte that differs (same length only). */
  firstDifference?: number;
}

interface Metadata {
  solc?: string;
  /** The metadata hash (ipfs / bzzr0 / bzzr1) as hex. */
  hash?: string;
}

const strip0x = (h: string) => h.replace(/^0x/i, '').toLowerCase();

/** solc's CBOR metadata map (text keys; byte strings, text strings, booleans), or undefined when there is none. */
export function readMetadata(code: string): Metadata | undefined {
  const hex = strip0x(code).replace(/[^0-9a-f]/g, '0');
  const len = metadataTailLength(hex);
  if (!len) return undefined;
  const b = hex.slice(hex.length - len, hex.length - 4);
  let at = 0;
  const byte = () => {
    const v = parseInt(b.slice(at, at + 2), 16);
    at += 2;
    return v;
  };
  const item = (): { text?: string; bytes?: string } | undefined => {
    if (at >= b.length) return undefined;
    const head = byte();
    const major = head >> 5;
    let n = head & 0x1f;
    if (major === 7) return {}; // true, false, null
    if (n === 24) n = byte();
    else if (n > 24) return undefined;
    const raw = b.slice(at, at + n * 2);
    if (raw.length !== n * 2) return undefined;
    at += n * 2;
    if (major === 2) return { bytes: raw };
    if (major === 3) return { text: utf8Of(hexBytes(raw)) };
    return undefined;
  };
  const entries = byte() - 0xa0;
  const out: Metadata = {};
  for (let i = 0; i < entries; i++) {
    const key = item()?.text;
    const value = item();
    if (key === undefined || !value) return out;
    if (key === 'solc')
      out.solc =
        value.bytes?.length === 6
          ? value.bytes
              .match(/../g)!
              .map((x) => parseInt(x, 16))
              .join('.')
          : value.text;
    else if (key === 'ipfs' || key === 'bzzr0' || key === 'bzzr1') out.hash = value.bytes;
  }
  return out;
}

/** `0.8.28+commit.7893614a`, `v0.8.28`, `0.8.28` → `0.8.28`. */
const versionOf = (v: string | undefined) => v?.match(/\d+\.\d+\.\d+/)?.[0];

/**
 * What differs between the code on chain and a build's runtime code (`compiled`, placeholders allowed), the build's
 * compiler version when it is known (`0.8.28+commit.…`). Only called for codes known to differ (bytecodeMatch.ts).
 */
export function codeDifference(
  onChain: string,
  compiled: string,
  buildCompilerVersion?: string,
  /** Where the codes first differ, immutables and links masked (`BytecodeMatch.mismatch.offset`), when known. */
  firstDifference?: number,
): CodeDifference {
  const chain = strip0x(onChain);
  const built = strip0x(compiled).replace(/__\$[0-9a-f]{34}\$__/g, '0'.repeat(40));
  const chainMeta = readMetadata(chain);
  const builtMeta = readMetadata(built);
  const chainCode = chain.slice(0, chain.length - metadataTailLength(chain));
  const builtCode = built.slice(0, built.length - metadataTailLength(built));
  const base = {
    onChainBytes: chainCode.length >> 1,
    buildBytes: builtCode.length >> 1,
    ...(versionOf(chainMeta?.solc) ? { onChainCompiler: versionOf(chainMeta?.solc) } : {}),
    ...((versionOf(buildCompilerVersion) ?? versionOf(builtMeta?.solc))
      ? { buildCompiler: versionOf(buildCompilerVersion) ?? versionOf(builtMeta?.solc) }
      : {}),
  };
  if (!chainCode.length || !builtCode.length) return { kind: 'unknown', ...base };
  if (base.onChainCompiler && base.buildCompiler && base.onChainCompiler !== base.buildCompiler)
    return { kind: 'compiler', ...base };
  if (chainCode.length !== builtCode.length) return { kind: 'length', ...base };
  let first = firstDifference !== undefined ? firstDifference * 2 : 0;
  while (first < chainCode.length && chainCode.slice(first, first + 2) === builtCode.slice(first, first + 2))
    first += 2;
  const sameHash = !!chainMeta?.hash && chainMeta.hash === builtMeta?.hash;
  return { kind: sameHash ? 'deployTime' : 'sameLength', ...base, firstDifference: first >> 1 };
}

/**
 * Why the build is not the code deployed, in words a user can act on (a clause, no final period): what can be
 * told, and no more. `t`: the extension's `vscode.l10n.t`, or a plain `{0}` formatter.
 */
export function codeDifferenceText(d: CodeDifference): string {
  switch (d.kind) {
    case 'compiler':
      return l10n.t(
        'the code deployed was compiled with solc {0} and this build with solc {1}: build with solc {0} and the settings of the deployment',
        d.onChainCompiler ?? '',
        d.buildCompiler ?? '',
      );
    case 'length':
      return d.onChainCompiler && d.onChainCompiler === d.buildCompiler
        ? l10n.t(
            'the code deployed is {0} bytes and this build {1} bytes (metadata aside), with the same compiler (solc {2}): the source or the compiler settings (optimizer, runs, viaIR, EVM version) are not those of the deployment',
            String(d.onChainBytes),
            String(d.buildBytes),
            d.onChainCompiler,
          )
        : l10n.t(
            'the code deployed is {0} bytes and this build {1} bytes (metadata aside): the source, the compiler version or its settings are not those of the deployment',
            String(d.onChainBytes),
            String(d.buildBytes),
          );
    case 'sameLength':
      return l10n.t(
        'the code deployed is as long as this build ({0} bytes) but differs from byte {1}, and its metadata hash differs: a change of the source, or of a setting, that kept the code the same size',
        String(d.onChainBytes),
        String(d.firstDifference ?? 0),
      );
    case 'deployTime':
      return l10n.t(
        'the code deployed has the metadata of this build but differs from byte {0}: values written at deployment (immutables, library addresses) that the build does not mark',
        String(d.firstDifference ?? 0),
      );
    default:
      return l10n.t('there is no code to compare');
  }
}
