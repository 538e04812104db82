/**
 * A contract verified on Sourcify as a build the source tools read: Sourcify API v2's
 * `GET /v2/contract/{chainId}/{address}?fields=stdJsonInput,stdJsonOutput,compilation` answer gives the compiler's
 * standard JSON input (the sources' contents), its output (source ids, runtime code, source maps, generated
 * sources, ASTs) and the contract's fully qualified name. Plain TypeScript.
 */
import type { SolcBuildLike, SolcContractLike } from './sourceMap';

export interface VerifiedBuild {
  build: SolcBuildLike;
  /** `contracts/Vault.sol:Vault`. */
  identifier: string;
  sourceName: string;
  contractName: string;
  contract: SolcContractLike;
}

const obj = (v: unknown): Record<string, unknown> =>
  v && typeof v === 'object' && !Array.isArray(v) ? (v as Record<string, unknown>) : {};

/** The build in a Sourcify v2 answer; undefined when it lacks the output or the contract's runtime source map. */
export function verifiedBuildOf(data: unknown): VerifiedBuild | undefined {
  const body = obj(data);
  const fqn = obj(body.compilation).fullyQualifiedName;
  const output = obj(body.stdJsonOutput);
  const input = obj(body.stdJsonInput);
  if (typeof fqn !== 'string' || fqn.lastIndexOf(':') <= 0) return undefined;
  const i = fqn.lastIndexOf(':');
  const sourceName = fqn.slice(0, i);
  const contractName = fqn.slice(i + 1);
  const contract = obj(obj(obj(output.contracts)[sourceName])[contractName]) as SolcContractLike;
  const rt = contract.evm?.deployedBytecode;
  if (!rt || typeof rt.sourceMap !== 'string' || typeof rt.object !== 'string') return undefined;
  const build: SolcBuildLike = {
    input: { sources: obj(input.sources) as Record<string, { content?: string }> },
    output: output as SolcBuildLike['output'],
  };
  return { build, identifier: fqn, sourceName, contractName, contract };
}
