/**
 * The placement matrix's contracts, compiler settings and failing cases (shared by the matrix in test/placement and
 * the sandbox's placement ledger, ../mirror/placement.ts): the contracts in test/placement/contracts mark the line
 * each failure must be placed on (`// @fails <case>`); they are compiled by the real Solidity compiler (npm `solc`,
 * offline) in every optimizer and viaIR setting, deployed on an `EvmChain` (../evm) and each case called there.
 *
 * Compiler outputs are cached in out/placement-cache by the hash of their input (solc-js takes seconds per viaIR
 * build); each source naming (`contracts/`, Hardhat 3's `project/contracts/`, Foundry's `src/`) is a compilation of
 * its own. npm `solc` is loaded only when a build is not cached (or its version is asked).
 */
import { createHash } from 'crypto';
import * as fs from 'fs';
import * as path from 'path';
import { encodeAbiParameters, parseAbiParameters, toFunctionSelector } from 'viem';
import type { SolcBuildLike } from '../../../src/api/source/sourceMap';
import type { EvmChain } from '../evm';
import type { DeployedRecord, SolcVersion } from './layouts';

let found: { contracts: string; cache: string } | undefined;

/**
 * The contracts and the cache, found from this module's folder up (the bundles live at several depths of out/:
 * the sandbox's, the unit tests', the bench's).
 */
function paths(): { contracts: string; cache: string } {
  if (!found) {
    let dir = __dirname;
    while (!fs.existsSync(path.join(dir, 'test/placement/contracts'))) {
      const up = path.dirname(dir);
      if (up === dir) throw new Error(`no test/placement/contracts above ${__dirname}`);
      dir = up;
    }
    found = { contracts: path.join(dir, 'test/placement/contracts'), cache: path.join(dir, 'out/placement-cache') };
  }
  return found;
}

export interface Setting {
  name: string;
  optimizer: boolean;
  viaIR: boolean;
  /** Leave `generatedSources` out of the output (Hardhat 3's production build info has none). */
  noGeneratedSources?: boolean;
}

export const SETTINGS: Setting[] = [
  { name: 'default', optimizer: false, viaIR: false },
  { name: 'optimizer', optimizer: true, viaIR: false },
  { name: 'viaIR', optimizer: false, viaIR: true },
  { name: 'viaIR + optimizer', optimizer: true, viaIR: true },
  { name: 'viaIR + optimizer, no generated sources', optimizer: true, viaIR: true, noGeneratedSources: true },
];

export interface Case {
  name: string;
  /** The contract called, or `new Fragile`: a deployment whose constructor fails (`sig` is the constructor's). */
  to: 'Target' | 'Caller' | 'Proxy' | 'Holes' | 'new Fragile';
  sig: string;
  args: readonly unknown[];
  /** Called by someone other than the deployer. */
  stranger?: boolean;
  /**
   * A case written to break the confirmation (a review's): it must never be shown as a wrong exact line, but its
   * line need not be found (the targets count the other cases).
   */
  adversarial?: boolean;
}

const U256_MAX = (1n << 256n) - 1n;

export const CASES: Case[] = [
  { name: 'requireMsg', to: 'Target', sig: 'requireMsg(uint256)', args: [11n] },
  { name: 'requireNoMsg', to: 'Target', sig: 'requireNoMsg(uint256)', args: [11n] },
  { name: 'revertMsg', to: 'Target', sig: 'revertMsg(uint256)', args: [4n] },
  { name: 'customErr', to: 'Target', sig: 'customErr(uint256)', args: [6n] },
  { name: 'sharedTailA', to: 'Target', sig: 'sharedTail(uint256)', args: [0n] },
  { name: 'sharedTailB', to: 'Target', sig: 'sharedTail(uint256)', args: [101n] },
  { name: 'sharedTailOther', to: 'Target', sig: 'otherEmpty(uint256)', args: [1n] },
  { name: 'requireCustom', to: 'Target', sig: 'requireCustom(uint256)', args: [3n] },
  { name: 'panic01', to: 'Target', sig: 'assertFail(uint256)', args: [7n] },
  { name: 'panic11', to: 'Target', sig: 'overflow(uint256)', args: [U256_MAX] },
  { name: 'panic11sub', to: 'Target', sig: 'underflow(uint8,uint8)', args: [1n, 2n] },
  { name: 'panic12', to: 'Target', sig: 'divide(uint256,uint256)', args: [1n, 0n] },
  { name: 'panic21', to: 'Target', sig: 'toColor(uint256)', args: [5n] },
  { name: 'panic31', to: 'Target', sig: 'popEmpty()', args: [] },
  { name: 'panic32', to: 'Target', sig: 'at(uint256)', args: [5n] },
  { name: 'panic41', to: 'Target', sig: 'allocate(uint256)', args: [1n << 64n] },
  { name: 'panic51', to: 'Target', sig: 'callZero()', args: [] },
  { name: 'modifier', to: 'Target', sig: 'setStored(uint256)', args: [1n], stranger: true },
  { name: 'libInternalRequire', to: 'Target', sig: 'viaInternal(uint256)', args: [0n] },
  { name: 'libInternalOverflow', to: 'Target', sig: 'viaInternal(uint256)', args: [1n << 128n] },
  { name: 'linkedLib', to: 'Target', sig: 'viaLinked(uint256)', args: [51n] },
  { name: 'bubble', to: 'Caller', sig: 'bubble(uint256)', args: [11n] },
  { name: 'tryCatch', to: 'Caller', sig: 'tryCatch(uint256)', args: [11n] },
  { name: 'proxy', to: 'Proxy', sig: 'requireMsg(uint256)', args: [11n] },
  { name: 'ctorRequire', to: 'new Fragile', sig: 'constructor(uint256)', args: [0n] },
  { name: 'ctorModifier', to: 'new Fragile', sig: 'constructor(uint256)', args: [1n] },
  { name: 'ctorBase', to: 'new Fragile', sig: 'constructor(uint256)', args: [2000n] },
  // found by a review: merged identical functions, a caught failure, shared messages and tails, loops, assembly
  { name: 'fallB', to: 'Holes', adversarial: true, sig: 'fallB(uint256)', args: [1n] },
  { name: 'fallMsg', to: 'Holes', adversarial: true, sig: 'fallMsg(uint256)', args: [1n] },
  { name: 'fallReq', to: 'Holes', adversarial: true, sig: 'fallReq(uint256)', args: [1n] },
  { name: 'twinB', to: 'Holes', adversarial: true, sig: 'twin(uint256)', args: [2n] },
  { name: 'twinArgB', to: 'Holes', adversarial: true, sig: 'twinArg(uint256)', args: [2n] },
  { name: 'twinMsgB', to: 'Holes', adversarial: true, sig: 'twinMsg(uint256)', args: [2n] },
  { name: 'msgs2', to: 'Holes', adversarial: true, sig: 'msgs(uint256)', args: [2n] },
  { name: 'nestedB', to: 'Holes', adversarial: true, sig: 'nested(uint256)', args: [12n] },
  { name: 'crossRet', to: 'Holes', adversarial: true, sig: 'crossRet(uint256)', args: [2n] },
  { name: 'emptyAfter', to: 'Holes', adversarial: true, sig: 'emptyAfter(uint256)', args: [11n] },
  { name: 'overflow2', to: 'Holes', adversarial: true, sig: 'overflow2(uint256,uint256)', args: [1n, U256_MAX] },
  { name: 'twinInc', to: 'Holes', adversarial: true, sig: 'twinInc(uint256,uint256)', args: [1n, U256_MAX] },
  { name: 'loopMod', to: 'Holes', adversarial: true, sig: 'loopMod(uint256)', args: [1n] },
  { name: 'twinStrB', to: 'Holes', adversarial: true, sig: 'twinStr(uint256,uint256)', args: [0n, 1n] },
  { name: 'twinReqB', to: 'Holes', adversarial: true, sig: 'twinReq(uint256,uint256)', args: [0n, 1n] },
  { name: 'twinDivB', to: 'Holes', adversarial: true, sig: 'twinDiv(uint256,uint256)', args: [3n, 0n] },
  { name: 'twinErrB', to: 'Holes', adversarial: true, sig: 'twinErr(uint256,uint256)', args: [0n, 9n] },
  { name: 'twinLibB', to: 'Holes', adversarial: true, sig: 'twinLib(uint256,uint256)', args: [0n, 9n] },
  { name: 'overloadB', to: 'Holes', adversarial: true, sig: 'overload(uint256,uint256)', args: [1n, 0n] },
  { name: 'twinCallB', to: 'Holes', adversarial: true, sig: 'twinCall(uint256,uint256)', args: [1n, 11n] },
  { name: 'twinAsmB', to: 'Holes', adversarial: true, sig: 'twinAsm(uint256,uint256)', args: [1n, 11n] },
  { name: 'twinModB', to: 'Holes', adversarial: true, sig: 'twinMod(uint256,uint256)', args: [1n, 11n] },
  { name: 'sumAll', to: 'Holes', adversarial: true, sig: 'sumAll(uint256[])', args: [[1n, U256_MAX]] },
  { name: 'sumOnes', to: 'Holes', adversarial: true, sig: 'sumOnes(uint256,uint256)', args: [U256_MAX - 2n, 5n] },
  { name: 'reasonVar', to: 'Holes', adversarial: true, sig: 'reasonVar(uint256,string)', args: [2n, 'hi'] },
  { name: 'reasonVar2', to: 'Holes', adversarial: true, sig: 'reasonVar2(uint256,string)', args: [2n, 'hi'] },
  { name: 'reasonVar3', to: 'Holes', adversarial: true, sig: 'reasonVar3(uint256,string)', args: [2n, 'hi'] },
  { name: 'reasonVar4', to: 'Holes', adversarial: true, sig: 'reasonVar4(uint256,string)', args: [2n, 'hi'] },
  { name: 'nested2', to: 'Holes', adversarial: true, sig: 'nested2(uint256)', args: [12n] },
  { name: 'asm2', to: 'Holes', adversarial: true, sig: 'asm2(uint256,uint256)', args: [1n, 9n] },
  { name: 'asm3', to: 'Holes', adversarial: true, sig: 'asm3(uint256,uint256)', args: [1n, 9n] },
  { name: 'loop2', to: 'Holes', adversarial: true, sig: 'loop2(uint256[])', args: [[5n, 1n]] },
  { name: 'while2', to: 'Holes', adversarial: true, sig: 'while2(uint256)', args: [2n] },
  { name: 'idx2', to: 'Holes', adversarial: true, sig: 'idx(uint256,uint256)', args: [1n, 7n] },
];

type SolcOutput = SolcBuildLike['output'] & { errors?: Array<{ severity: string; formattedMessage: string }> };

interface Solc {
  compile(input: string): string;
  version(): string;
}

/** The contracts, named as the compiler is given them: `contracts/X.sol` (Hardhat 2), `project/contracts/X.sol`, `src/X.sol`. */
function sources(root = 'contracts/'): Record<string, { content: string }> {
  const out: Record<string, { content: string }> = {};
  const dir = paths().contracts;
  for (const f of fs
    .readdirSync(dir)
    .filter((n) => n.endsWith('.sol'))
    .sort())
    out[`${root}${f}`] = { content: fs.readFileSync(path.join(dir, f), 'utf8') };
  return out;
}

/** The standard JSON input of a setting (Hardhat's output selection). */
function inputOf(setting: Setting, root = 'contracts/'): Record<string, unknown> {
  return {
    language: 'Solidity',
    sources: sources(root),
    settings: {
      optimizer: { enabled: setting.optimizer, runs: 200 },
      ...(setting.viaIR ? { viaIR: true } : {}),
      evmVersion: 'cancun',
      outputSelection: {
        '*': {
          '*': [
            'abi',
            'evm.bytecode.object',
            'evm.bytecode.sourceMap',
            'evm.bytecode.linkReferences',
            'evm.deployedBytecode.object',
            'evm.deployedBytecode.sourceMap',
            'evm.deployedBytecode.linkReferences',
            'evm.deployedBytecode.immutableReferences',
            'evm.deployedBytecode.generatedSources',
            'evm.methodIdentifiers',
          ],
          '': ['ast'],
        },
      },
    },
  };
}

/** Compiles a setting, its sources under `root` (cached by the input's hash). */
export function compile(
  setting: Setting,
  root = 'contracts/',
): SolcBuildLike & { input: { sources: Record<string, { content: string }> } } {
  const input = inputOf(setting, root);
  const text = JSON.stringify(input);
  const key = createHash('sha256').update(text).digest('hex').slice(0, 24);
  const cache = paths().cache;
  const file = path.join(cache, `${key}.json`);
  let output: SolcOutput;
  try {
    output = JSON.parse(fs.readFileSync(file, 'utf8')) as SolcOutput;
  } catch {
    // eslint-disable-next-line @typescript-eslint/no-require-imports
    const solc = require('solc') as Solc;
    output = JSON.parse(solc.compile(text)) as SolcOutput;
    const errors = (output.errors ?? []).filter((e) => e.severity === 'error');
    if (errors.length) throw new Error(`solc (${setting.name}): ${errors.map((e) => e.formattedMessage).join('\n')}`);
    fs.mkdirSync(cache, { recursive: true });
    fs.writeFileSync(file, JSON.stringify(output));
  }
  if (setting.noGeneratedSources) {
    output = JSON.parse(JSON.stringify(output)) as SolcOutput;
    for (const byName of Object.values(output.contracts ?? {}))
      for (const c of Object.values(byName ?? {}))
        if (c?.evm?.deployedBytecode) delete c.evm.deployedBytecode.generatedSources;
  }
  return { input: input as { sources: Record<string, { content: string }> }, output };
}

let version: SolcVersion | undefined;

/**
 * The compiler's version (`0.8.28`, `0.8.28+commit.7893614a`), for the build info files of the layouts: kept in the
 * cache by the npm package's version (loading solc-js to ask takes seconds).
 */
export function solcVersion(): SolcVersion {
  if (!version) {
    // eslint-disable-next-line @typescript-eslint/no-require-imports
    const npm = (require('solc/package.json') as { version: string }).version;
    const file = path.join(paths().cache, `solc-${npm}.version.json`);
    try {
      version = JSON.parse(fs.readFileSync(file, 'utf8')) as SolcVersion;
    } catch {
      // eslint-disable-next-line @typescript-eslint/no-require-imports
      const long = (require('solc') as Solc).version().replace(/\.Emscripten.*$/, '');
      version = { short: long.replace(/\+.*$/, ''), long };
      fs.mkdirSync(path.dirname(file), { recursive: true });
      fs.writeFileSync(file, JSON.stringify(version));
    }
  }
  return version;
}

/** The setting of a Hardhat 3 project's default build profile: another one than the deployed (production) build's. */
export function defaultProfileOf(setting: Setting): Setting {
  return setting.optimizer || setting.viaIR ? SETTINGS[0] : SETTINGS[1];
}

/** Every `@fails` marker (or `@via`: the internal calls that lead there, in source order): case → `file:line`. */
export function markers(tag: 'fails' | 'via' = 'fails'): Map<string, string[]> {
  const out = new Map<string, string[]>();
  for (const [name, { content }] of Object.entries(sources())) {
    content.split('\n').forEach((line, i) => {
      const m = new RegExp(`// @${tag} (.+)$`).exec(line);
      if (m) for (const c of m[1].trim().split(/\s+/)) out.set(c, [...(out.get(c) ?? []), `${name}:${i + 1}`]);
    });
  }
  return out;
}

export const DEPLOYER = '0xf39fd6e51aad88f6f4ce6ab8827279cfffb92266';
export const STRANGER = '0x70997970c51812dc3a010c7d01b50e0d17dc79c8';

type Contract = {
  evm?: {
    bytecode?: {
      object?: string;
      linkReferences?: Record<string, Record<string, Array<{ start: number; length: number }>>>;
    };
  };
};

/** Creation code with its libraries linked. */
function linked(c: Contract, libraries: Record<string, string>): string {
  let code = c.evm?.bytecode?.object ?? '';
  for (const [file, byName] of Object.entries(c.evm?.bytecode?.linkReferences ?? {})) {
    for (const [name, refs] of Object.entries(byName)) {
      const addr = libraries[`${file}:${name}`].replace(/^0x/, '');
      for (const r of refs) code = code.slice(0, r.start * 2) + addr + code.slice((r.start + r.length) * 2);
    }
  }
  return code;
}

/** What the matrix deployed: the contracts' addresses, the linked library, and the deployment records. */
export interface PlacementDeployment {
  addresses: Record<'Target' | 'Caller' | 'Proxy' | 'Holes', string>;
  /** Linked libraries: `path:Name` → address. */
  libraries: Record<string, string>;
  /** address → the contract there, as the matrix names it (`contracts/Target.sol:Target`). */
  byAddress: Map<string, string>;
  /** The CREATEs, in order. */
  records: DeployedRecord[];
}

type Build = ReturnType<typeof compile>;

const contractOf = (build: Build, id: string): Contract => {
  const i = id.lastIndexOf(':');
  return (build.output.contracts as Record<string, Record<string, Contract>>)[id.slice(0, i)][id.slice(i + 1)];
};

/**
 * Deploys the matrix's contracts from `deployer` (CREATEs at its nonces; the library first, linked into Target),
 * `root` the build's source folder. `entityId` names each deployed contract's entity (the sandbox's ledger).
 */
export async function deployPlacement(
  chain: EvmChain,
  build: Build,
  root: string,
  deployer = DEPLOYER,
  entityId?: (name: string) => string,
): Promise<PlacementDeployment> {
  const libraries: Record<string, string> = {};
  const byAddress = new Map<string, string>();
  const records: DeployedRecord[] = [];
  const deploy = async (name: string, args = ''): Promise<string> => {
    const id = `${root}${name}`;
    const nonce = Number(await chain.nonceOf(deployer));
    const code = linked(contractOf(build, id), libraries);
    const address = await chain.deploy(deployer, code, {
      args,
      ...(entityId ? { entityId: entityId(name.slice(name.indexOf(':') + 1)) } : {}),
    });
    byAddress.set(address, `contracts/${name}`);
    records.push({ id, address, initCode: `0x${code}${args}`, args, nonce });
    return address;
  };
  libraries[`${root}Libraries.sol:LinkedLib`] = await deploy('Libraries.sol:LinkedLib');
  const target = await deploy('Target.sol:Target');
  const word = (a: string) => a.replace(/^0x/, '').padStart(64, '0');
  const addresses = {
    Target: target,
    Caller: await deploy('Callers.sol:Caller', word(target)),
    Proxy: await deploy('Callers.sol:Proxy', word(target)),
    Holes: await deploy('Holes.sol:Holes', word(target)),
  };
  return { addresses, libraries, byAddress, records };
}

/** A case's transaction: to its contract (a deployment of Fragile for `new Fragile`), its call data, from whom. */
export function caseRequest(
  c: Case,
  build: Build,
  root: string,
  dep: PlacementDeployment,
  accounts: { deployer: string; stranger: string } = { deployer: DEPLOYER, stranger: STRANGER },
): { from: string; to?: string; data: string; gas: number } {
  const types = c.sig.slice(c.sig.indexOf('(') + 1, -1);
  const args = types ? encodeAbiParameters(parseAbiParameters(types), c.args).slice(2) : '';
  const creation = c.to === 'new Fragile';
  const data = creation
    ? `0x${linked(contractOf(build, `${root}Fragile.sol:Fragile`), dep.libraries)}${args}`
    : toFunctionSelector(c.sig) + args;
  return {
    from: c.stranger ? accounts.stranger : accounts.deployer,
    ...(creation ? {} : { to: dep.addresses[c.to as keyof PlacementDeployment['addresses']] }),
    data,
    gas: 3_000_000,
  };
}
