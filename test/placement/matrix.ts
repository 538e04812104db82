/**
 * The placement matrix: contracts that mark the line each failure must be placed on (`// @fails <case>`, in
 * test/placement/contracts), compiled by the real Solidity compiler (npm `solc`, offline) in every optimizer and viaIR
 * setting, deployed and called in the sandbox's real EVM (@ethereumjs/evm, logged as the mirror node logs), then
 * placed by the extension's own code (src/api/source/place.ts: the call stack, the source maps, the confirmation
 * against the AST, the likely analysis). Each case ends as:
 *
 * - `exact`: confirmed, on the marked line;
 * - `wrongExact`: confirmed on another line (the worst result; the unit test fails on any);
 * - `likely`: not confirmed, the marked line among the candidates (`likelyFirst` when it is the first);
 * - `unplaced`: neither.
 *
 * Each case is placed once per layout (test/placement/layouts.ts): `direct` hands the compiler output to placeFailure;
 * `hardhat2`, `hardhat3`, `hardhat3 (Ignition copy without output)` and `foundry` write the build and the deployment
 * records as that tool does into a project folder, and each frame's build is found there by the extension's workspace
 * readers (`resolveFrameBuild`). A layout's frames must come from the deployed build (`wrongBuild` names any other).
 *
 * Used by test/unit/source.placement.test.ts and test/bench/placement.mjs. Compiler outputs are cached in
 * out/placement-cache by the hash of their input (solc-js takes seconds per viaIR build); each source naming
 * (`contracts/`, Hardhat 3's `project/contracts/`, Foundry's `src/`) is a compilation of its own.
 */
import { createHash } from 'crypto';
import * as fs from 'fs';
import * as path from 'path';
import { encodeAbiParameters, parseAbiParameters, toFunctionSelector } from 'viem';
import { isCreationOf } from '../../src/api/source/bytecodeMatch';
import { callStackOf } from '../../src/api/source/callStack';
import type { FrameBuild } from '../../src/api/source/locate';
import { placeFailure } from '../../src/api/source/place';
import type { SolcBuildLike } from '../../src/api/source/sourceMap';
import { EvmChain } from '../../sandbox/src/evm';
import {
  type CompiledBuild,
  type DeployedRecord,
  LAYOUTS,
  type Layout,
  type LayoutWorkspace,
  type ProjectLayout,
  type SolcVersion,
  type WrittenLayout,
  canonicalSource,
  missingRecords,
  openLayout,
  removeLayout,
  resolveFrameBuild,
  sourceRoot,
  writeLayout,
} from './layouts';

export { LAYOUTS, type Layout } from './layouts';

const ROOT = path.join(__dirname, '../../..');
const CONTRACTS = path.join(ROOT, 'test/placement/contracts');
const CACHE = path.join(ROOT, 'out/placement-cache');

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

interface Case {
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

export type Outcome = 'exact' | 'wrongExact' | 'likely' | 'unplaced';

export interface CaseResult {
  setting: string;
  /** How the build was given: `direct` (handed over), or found in a project folder of that layout. */
  layout: Layout;
  case: string;
  outcome: Outcome;
  /** The marked line, as `file:line`. */
  expected: string;
  /** What was shown: the exact place, or the likely candidates in order. */
  shown: string[];
  likelyFirst?: boolean;
  /** Why it was not exact. */
  why?: string;
  /** Exact: the confirmed internal call sites that led to the failing line (outermost first). */
  internal?: string[];
  adversarial?: boolean;
  /** A layout's frames whose build the readers did not find, with why. */
  buildProblems?: string[];
  /** A layout's frames given another build (or contract) than the one deployed there: a reader bug. */
  wrongBuild?: string[];
  /** A layout's deployed contracts whose deployment record the readers did not give (`Name at address`). */
  missingRecords?: string[];
}

type SolcOutput = SolcBuildLike['output'] & { errors?: Array<{ severity: string; formattedMessage: string }> };

interface Solc {
  compile(input: string): string;
  version(): string;
}

/** The contracts, named as the compiler is given them: `contracts/X.sol` (Hardhat 2), `project/contracts/X.sol`, `src/X.sol`. */
function sources(root = 'contracts/'): Record<string, { content: string }> {
  const out: Record<string, { content: string }> = {};
  for (const f of fs
    .readdirSync(CONTRACTS)
    .filter((n) => n.endsWith('.sol'))
    .sort())
    out[`${root}${f}`] = { content: fs.readFileSync(path.join(CONTRACTS, f), 'utf8') };
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
  const file = path.join(CACHE, `${key}.json`);
  let output: SolcOutput;
  try {
    output = JSON.parse(fs.readFileSync(file, 'utf8')) as SolcOutput;
  } catch {
    // eslint-disable-next-line @typescript-eslint/no-require-imports
    const solc = require('solc') as Solc;
    output = JSON.parse(solc.compile(text)) as SolcOutput;
    const errors = (output.errors ?? []).filter((e) => e.severity === 'error');
    if (errors.length) throw new Error(`solc (${setting.name}): ${errors.map((e) => e.formattedMessage).join('\n')}`);
    fs.mkdirSync(CACHE, { recursive: true });
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

/** The compiler's version (`0.8.28`, `0.8.28+commit.7893614a`), for the build info files of the layouts. */
export function solcVersion(): SolcVersion {
  if (!version) {
    // eslint-disable-next-line @typescript-eslint/no-require-imports
    const long = (require('solc') as Solc).version().replace(/\.Emscripten.*$/, '');
    version = { short: long.replace(/\+.*$/, ''), long };
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

const DEPLOYER = '0xf39fd6e51aad88f6f4ce6ab8827279cfffb92266';
const STRANGER = '0x70997970c51812dc3a010c7d01b50e0d17dc79c8';

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

/** One setting: compiled, deployed, every case called and placed, in each layout asked (`direct` alone by default). */
export async function runSetting(
  setting: Setting,
  only?: (c: Case) => boolean,
  layouts: readonly Layout[] = ['direct'],
): Promise<CaseResult[]> {
  // the layouts that name their sources alike share a compilation, a chain and the executions
  const byRoot = new Map<string, Layout[]>();
  for (const l of LAYOUTS.filter((x) => layouts.includes(x)))
    byRoot.set(sourceRoot(l), [...(byRoot.get(sourceRoot(l)) ?? []), l]);
  const results: CaseResult[] = [];
  for (const [root, group] of byRoot) results.push(...(await runGroup(setting, root, group, only)));
  return results;
}

/** A layout's project, written and read. */
interface OpenLayout {
  layout: ProjectLayout;
  written: WrittenLayout;
  ws: LayoutWorkspace;
  /** Deployed contracts the readers found no record of. */
  missingRecords: string[];
}

async function runGroup(
  setting: Setting,
  root: string,
  layouts: readonly Layout[],
  only?: (c: Case) => boolean,
): Promise<CaseResult[]> {
  const build = compile(setting, root);
  const contracts = build.output.contracts as Record<string, Record<string, Contract>>;
  const get = (id: string): Contract => {
    const [file, name] = id.split(':');
    return contracts[file][name];
  };
  const chain = await EvmChain.create();
  await chain.addAccount({ address: DEPLOYER, entityId: '0.0.1001', balance: 10n ** 24n });
  await chain.addAccount({ address: STRANGER, entityId: '0.0.1002', balance: 10n ** 24n });
  const libraries: Record<string, string> = {};
  /** address → the contract there, as the matrix names it (`contracts/Target.sol:Target`) */
  const byAddress = new Map<string, string>();
  const records: DeployedRecord[] = [];
  const deploy = async (name: string, args = ''): Promise<string> => {
    const id = `${root}${name}`;
    const nonce = Number(await chain.nonceOf(DEPLOYER));
    const code = linked(get(id), libraries);
    const address = await chain.deploy(DEPLOYER, code, { args });
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
  const marks = markers();
  const resolve = (f: { address?: string; creation?: { initCode: string } }): FrameBuild | undefined => {
    if (f.creation) {
      // a failed deployment: the contract whose creation code the init code starts with
      for (const [file, byName] of Object.entries(contracts)) {
        for (const [name, k] of Object.entries(byName))
          if (k.evm?.bytecode?.object && isCreationOf(f.creation.initCode, k.evm.bytecode.object))
            return { build, contract: `${file}:${name}`, part: 'creation' };
      }
      return undefined;
    }
    const id = f.address ? byAddress.get(f.address) : undefined;
    return id ? { build, contract: `${root}${id.slice('contracts/'.length)}` } : undefined;
  };

  // the projects: the build and the deployment records written as each tool writes them, then read by the readers
  const projects: OpenLayout[] = [];
  try {
    for (const layout of layouts) {
      if (layout === 'direct') continue;
      const deployment = { deployer: DEPLOYER, contracts: records, libraries };
      const defaultProfile = layout.startsWith('hardhat3')
        ? (compile(defaultProfileOf(setting), root) as CompiledBuild)
        : undefined;
      const written = writeLayout(layout, build as CompiledBuild, deployment, solcVersion(), defaultProfile);
      const ws = openLayout(written.dir);
      projects.push({ layout, written, ws, missingRecords: await missingRecords(ws, deployment) });
    }
    const results: CaseResult[] = [];
    for (const c of CASES) {
      if (only && !only(c)) continue;
      const types = c.sig.slice(c.sig.indexOf('(') + 1, -1);
      const args = types ? encodeAbiParameters(parseAbiParameters(types), c.args).slice(2) : '';
      const creation = c.to === 'new Fragile';
      const data = creation
        ? `0x${linked(get(`${root}Fragile.sol:Fragile`), libraries)}${args}`
        : toFunctionSelector(c.sig) + args;
      const ex = await chain.call({
        from: c.stranger ? STRANGER : DEPLOYER,
        ...(creation ? {} : { to: addresses[c.to as keyof typeof addresses] }),
        data,
        gas: 3_000_000,
      });
      const expected = marks.get(c.name)?.[0] ?? '?';
      const tag = c.adversarial ? { adversarial: true } : {};
      if (ex.success) {
        for (const layout of layouts)
          results.push({
            setting: setting.name,
            layout,
            case: c.name,
            outcome: 'unplaced',
            expected,
            shown: [],
            why: 'the call succeeded',
            ...tag,
          });
        continue;
      }
      const stack = callStackOf(ex.opcodes, ex.actions);
      for (const layout of layouts) {
        const project = projects.find((p) => p.layout === layout);
        let resolver = resolve;
        const found: Pick<CaseResult, 'buildProblems' | 'wrongBuild' | 'missingRecords'> = {};
        if (project) {
          if (project.missingRecords.length) found.missingRecords = project.missingRecords;
          // each frame's build found by the readers, as the inspector finds it (the runtime code from the chain, as the
          // mirror node gives it)
          const builds = new Map<string, FrameBuild | undefined>();
          for (const f of stack.frames) {
            const key = f.creation ? `create:${f.creation.initCode}` : `${f.address ?? ''}`;
            if (builds.has(key)) continue;
            const runtime = !f.creation && f.address ? await chain.codeOf(f.address) : undefined;
            const r = await resolveFrameBuild(project.ws, f, runtime);
            const who = f.creation ? 'the failed deployment' : (f.address ?? 'a frame without address');
            if ('problem' in r) {
              (found.buildProblems ??= []).push(`${who}: ${r.problem}`);
              builds.set(key, undefined);
              continue;
            }
            // the build deployed there, and the contract deployed there
            const want = f.creation
              ? 'contracts/Fragile.sol:Fragile'
              : f.address
                ? byAddress.get(f.address)
                : undefined;
            const got = canonicalSource(layout, r.contract);
            if (!project.written.deployedBuildFiles.includes(r.file) || got !== want)
              (found.wrongBuild ??= []).push(
                `${who}: ${got} of ${r.file}, deployed: ${want ?? 'unknown'} of ${project.written.deployedBuildFiles.join(' or ')}`,
              );
            builds.set(key, r);
          }
          resolver = (f) => builds.get(f.creation ? `create:${f.creation.initCode}` : `${f.address ?? ''}`);
        }
        const placed = placeFailure(stack, ex.opcodes.opcodes, resolver);
        const r = classify(setting, layout, c.name, expected, placed, stack.notes);
        // a case the readers found no build for says so first
        if (r.outcome !== 'exact' && found.buildProblems)
          r.why = `${found.buildProblems.join('; ')}${r.why ? ` — ${r.why}` : ''}`;
        results.push({ ...r, ...tag, ...found });
      }
    }
    return results;
  } finally {
    for (const p of projects) removeLayout(p.written);
  }
}

/** A placement as one case's result: exact on the marked line, a wrong exact line, likely with it among the candidates, or unplaced. */
function classify(
  setting: Setting,
  layout: Layout,
  name: string,
  expected: string,
  placed: ReturnType<typeof placeFailure>,
  notes: readonly string[],
): CaseResult {
  const at = (l: { sourceName: string; line: number }) => `${canonicalSource(layout, l.sourceName)}:${l.line}`;
  const first = placed.frames[0];
  if (placed.exact && first?.location) {
    const shown = at(first.location);
    return {
      setting: setting.name,
      layout,
      case: name,
      outcome: shown === expected ? 'exact' : 'wrongExact',
      expected,
      shown: [shown],
      internal: first.confirmedInternal.map(at),
    };
  }
  const shown = (placed.likely?.candidates ?? []).map((k) => at(k.location));
  if (!shown.length && placed.likely?.hint) shown.push(at(placed.likely.hint));
  const i = shown.indexOf(expected);
  return {
    setting: setting.name,
    layout,
    case: name,
    outcome: i >= 0 ? 'likely' : 'unplaced',
    expected,
    shown,
    ...(i >= 0 ? { likelyFirst: i === 0 } : {}),
    why: placed.likely?.why ?? first?.problem ?? notes.join(' '),
  };
}

/** Every setting, every case, in each layout asked (`direct` alone by default). */
export async function runMatrix(layouts: readonly Layout[] = ['direct']): Promise<CaseResult[]> {
  const out: CaseResult[] = [];
  for (const s of SETTINGS) out.push(...(await runSetting(s, undefined, layouts)));
  return out;
}
