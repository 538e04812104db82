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
import { isCreationOf } from '../../src/api/source/bytecodeMatch';
import { callStackOf } from '../../src/api/source/callStack';
import type { FrameBuild } from '../../src/api/source/locate';
import { placeFailure } from '../../src/api/source/place';
import { EvmChain } from '../../sandbox/src/evm';
import {
  CASES,
  type Case,
  DEPLOYER,
  SETTINGS,
  STRANGER,
  type Setting,
  caseRequest,
  compile,
  defaultProfileOf,
  deployPlacement,
  markers,
  solcVersion,
} from '../../sandbox/src/placement/cases';
import {
  type CompiledBuild,
  LAYOUTS,
  type Layout,
  type LayoutWorkspace,
  type ProjectLayout,
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
export {
  CASES,
  SETTINGS,
  type Setting,
  compile,
  defaultProfileOf,
  markers,
  solcVersion,
} from '../../sandbox/src/placement/cases';

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
  const contracts = build.output.contracts as Record<
    string,
    Record<string, { evm?: { bytecode?: { object?: string } } }>
  >;
  const chain = await EvmChain.create();
  await chain.addAccount({ address: DEPLOYER, entityId: '0.0.1001', balance: 10n ** 24n });
  await chain.addAccount({ address: STRANGER, entityId: '0.0.1002', balance: 10n ** 24n });
  const deployed = await deployPlacement(chain, build, root);
  const { libraries, byAddress, records } = deployed;
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
      const ex = await chain.call(caseRequest(c, build, root, deployed));
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
