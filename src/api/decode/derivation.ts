/**
 * Which of several ABI files with the same selector names the contract best ("Decoded with"): the artifact
 * deployed at the called address (deployment records: Hardhat Ignition, hardhat-deploy, Foundry broadcast),
 * then the most derived contract (a contract before the bases it inherits from: solc's
 * `linearizedBaseContracts` from a build info's AST when the workspace has one, else an ABI that is a strict
 * superset of the other's), then path order. Plain TypeScript, no `vscode`, no file access: the context (records,
 * build info inheritance, the selected chain) is read by src/workspace/derivation.ts and set on the registry.
 */
import type { AbiFile } from './abiFiles';
import { signatureOf } from './abiFiles';
import { userSourceName } from './solcOutput';

/** A deployment record: which contract is at an address. */
export interface DeployedContract {
  /** 0x and 40 lowercase hex digits. */
  address: string;
  contractName: string;
  /** `contracts/Token.sol` (or `project/contracts/Token.sol`) when the record says. */
  sourceName?: string;
  chainId?: number;
  /** Hardhat Ignition's artifact of the deployment (it names the build deployed), relative to `folder`. */
  deploymentArtifact?: string;
  /** The workspace folder's name the record came from. */
  folder?: string;
}

/** What the ranking knows about the workspace besides the ABIs. */
export interface DerivationContext {
  deployments?: DeployedContract[];
  /** `source:Name` → the `source:Name` of every contract it inherits from (its linearization without itself). */
  bases?: Map<string, string[]>;
  /** The selected network's chain: records of other chains are ignored. */
  chainId?: number;
}

const obj = (v: unknown): Record<string, unknown> =>
  v && typeof v === 'object' && !Array.isArray(v) ? (v as Record<string, unknown>) : {};

/**
 * Inheritance from a solc output's ASTs (`output.sources[path].ast`): every ContractDefinition's
 * `linearizedBaseContracts` (node ids, the contract itself first), as `source:Name` identifiers. Empty when the
 * output has no AST (Hardhat and Foundry keep it in their build info; some setups leave it out).
 */
export function basesFromOutput(output: unknown): Map<string, string[]> {
  const byId = new Map<number, string>();
  const lin: Array<{ id: string; ids: number[] }> = [];
  for (const [path, s] of Object.entries(obj(obj(output).sources))) {
    const ast = obj(obj(s).ast);
    const nodes = Array.isArray(ast.nodes) ? ast.nodes : [];
    for (const n of nodes.map(obj)) {
      if (n.nodeType !== 'ContractDefinition' || typeof n.name !== 'string' || typeof n.id !== 'number') continue;
      const id = `${userSourceName(path)}:${n.name}`;
      byId.set(n.id, id);
      if (Array.isArray(n.linearizedBaseContracts))
        lin.push({ id, ids: n.linearizedBaseContracts.filter((x): x is number => typeof x === 'number') });
    }
  }
  const out = new Map<string, string[]>();
  for (const { id, ids } of lin)
    out.set(
      id,
      ids.map((x) => byId.get(x)).filter((x): x is string => !!x && x !== id),
    );
  return out;
}

/** The `source:Name` identifier of a file, when it says its source. */
function identifierOf(f: AbiFile): string | undefined {
  return f.sourceName ? `${userSourceName(f.sourceName)}:${f.contractName}` : undefined;
}

/** Whether `file` is the artifact of a contract deployed at `address` (by its own address, or a record's name). */
function isDeployedAt(file: AbiFile, address: string | undefined, ctx: DerivationContext): boolean {
  if (!address) return false;
  const a = address.toLowerCase();
  if (file.address && file.address.toLowerCase() === a) return true;
  return (ctx.deployments ?? []).some(
    (d) =>
      d.address === a &&
      (ctx.chainId === undefined || d.chainId === undefined || d.chainId === ctx.chainId) &&
      d.contractName === file.contractName &&
      (!d.sourceName || !file.sourceName || userSourceName(d.sourceName) === userSourceName(file.sourceName)),
  );
}

const sigCache = new WeakMap<AbiFile, Set<string>>();
function signatures(f: AbiFile): Set<string> {
  let s = sigCache.get(f);
  if (!s) {
    s = new Set(f.abi.map((i) => `${i.type} ${signatureOf(i)}`));
    sigCache.set(f, s);
  }
  return s;
}

/** Whether `a` inherits from `b`: by the build info's linearization when it knows both, else by ABI superset. */
function derivesFrom(a: AbiFile, b: AbiFile, ctx: DerivationContext): boolean {
  if (a === b) return false;
  const ia = identifierOf(a);
  const ib = identifierOf(b);
  const la = ia ? ctx.bases?.get(ia) : undefined;
  const lb = ib ? ctx.bases?.get(ib) : undefined;
  if (la && lb && ib && ia) return la.includes(ib);
  if (la && ib && la.includes(ib)) return true;
  // no build info for them: a strict superset of the other's functions, errors and events
  const sa = signatures(a);
  const sb = signatures(b);
  if (sa.size <= sb.size) return false;
  for (const s of sb) if (!sa.has(s)) return false;
  return true;
}

/**
 * Orders the entries of one selector (each with the file it came from, in path order): those of the artifact
 * deployed at `address` first, then each contract before the bases it inherits from; otherwise stable.
 */
export function rankByDerivation<T>(
  entries: T[],
  fileOf: (e: T) => AbiFile | undefined,
  address: string | undefined,
  ctx: DerivationContext,
): T[] {
  if (entries.length <= 1) return entries;
  const deployed = entries.filter((e) => {
    const f = fileOf(e);
    return !!f && isDeployedAt(f, address, ctx);
  });
  const rest = entries.filter((e) => !deployed.includes(e));
  const topo = (list: T[]): T[] => {
    const left = [...list];
    const out: T[] = [];
    while (left.length) {
      // the first one in path order that no remaining entry derives from
      const i = left.findIndex((e) => {
        const fe = fileOf(e);
        return (
          !fe ||
          !left.some((o) => {
            const fo = fileOf(o);
            return o !== e && !!fo && derivesFrom(fo, fe, ctx) && !derivesFrom(fe, fo, ctx);
          })
        );
      });
      out.push(...left.splice(i < 0 ? 0 : i, 1));
    }
    return out;
  };
  return [...topo(deployed), ...topo(rest)];
}
