/**
 * The placement ledger (`--placement`, in-process `placement`): the placement matrix's contracts
 * (test/placement/contracts, ../placement/cases.ts) as the ledger holds them, so that Contract Results, the
 * inspector and Go to Revert show what the matrix places. For each compiler setting, the contracts compiled (from
 * the matrix's cache, out/placement-cache), deployed by the inspector's owner (0.0.7000, Hardhat's first account) on
 * a chain of their own at nonces of that setting, and every case executed on it as a transaction (the modifier's by
 * the alias sender 0.0.7005, a stranger); each execution recorded as the mirror node records it (contract result,
 * actions, state changes; `/opcodes` re-executes it), the failed deployments as Ethereum transactions without `to`.
 * Off by default: the default start stays as fast as it is.
 *
 * `writePlacementWorkspace` writes a Hardhat 2 project of these deployments (one Ignition deployment per setting,
 * `ignition/deployments/placement-<setting>/`) for the extension to be opened on: each case's deployed build is
 * found there as in a user's project. GET /__sandbox/health `notable.placement` lists, per setting, the contracts
 * and each case's transaction with the line it must be placed on (the source's `// @fails <case>` marker).
 */
import type { OpcodesResponse } from '../../../src/api/mirrorTypes';
import type { EvmChain, Execution } from '../evm';
import { Prng } from '../prng';
import {
  CASES,
  type Case,
  type PlacementDeployment,
  SETTINGS,
  type Setting,
  caseRequest,
  compile,
  deployPlacement,
  markers,
  solcVersion,
} from '../placement/cases';
import { type CompiledBuild, writeHardhat2Project } from '../placement/layouts';
import type { ContractData, ContractResultRow } from './contracts';
import { type TraceFlags, cachedTrace } from './executions';
import { type Recorded, ALIAS_SENDER, OWNER, addRecordedResults, recordedOf, transactionIdOf } from './scenarios';

/** Where the contracts' sources are named (Hardhat 2's `contracts/`). */
const ROOT = 'contracts/';
/** The settings the ledger holds: each distinct build (the matrix's variant without generated sources is not one). */
export const PLACEMENT_SETTINGS: readonly Setting[] = SETTINGS.filter((s) => !s.noGeneratedSources);
/** The contracts in deployment order, and the entity num of each in setting i: BASE_NUM + 10 i + k. */
const DEPLOYED = ['LinkedLib', 'Target', 'Caller', 'Proxy', 'Holes'];
const BASE_NUM = 7300;
/** The owner's nonce at the first deployment of setting i: NONCE_STEP (i + 1) (the addresses differ per setting). */
const NONCE_STEP = 1000n;
const GAS = 3_000_000;

/** `default`, `optimizer`, `viaIR`, `viaIR-optimizer`: a setting's name in ids and folder names. */
export const settingSlug = (s: Setting): string => s.name.replace(/[^A-Za-z0-9]+/g, '-').replace(/^-|-$/g, '');

const evm = (a: string): string => a.replace(/^0x/, '').toLowerCase();
const owner = `0x${OWNER.evm}`;
const stranger = `0x${ALIAS_SENDER.evm}`;

/** One setting's deployed contracts. */
interface SettingLedger {
  setting: Setting;
  index: number;
  build: ReturnType<typeof compile>;
  deployment: PlacementDeployment;
  contracts: Array<{ name: string; num: number; address: string; creation: string; runtime: string }>;
  runs: CaseRun[];
}

interface CaseRun {
  key: string;
  case: Case;
  request: ReturnType<typeof caseRequest>;
  /** The sender's nonce (an Ethereum transaction's). */
  nonce: number;
  ex: Execution;
}

/** A fresh chain with the owner and the stranger, the setting's contracts deployed. */
async function deployed(
  index: number,
  build: ReturnType<typeof compile>,
): Promise<{ chain: EvmChain; deployment: PlacementDeployment }> {
  const { EvmChain } = await import('../evm');
  const chain = await EvmChain.create();
  await chain.addAccount({
    address: owner,
    entityId: `0.0.${OWNER.num}`,
    balance: 10n ** 24n,
    nonce: NONCE_STEP * BigInt(index + 1),
  });
  await chain.addAccount({ address: stranger, entityId: `0.0.${ALIAS_SENDER.num}`, balance: 10n ** 24n });
  const deployment = await deployPlacement(
    chain,
    build,
    ROOT,
    owner,
    (name) => `0.0.${BASE_NUM + 10 * index + DEPLOYED.indexOf(name)}`,
  );
  return { chain, deployment };
}

const keyOf = (s: Setting, c: Case): string => `placement:${settingSlug(s)}:${c.name}`;

/** Every case of a setting, executed in order (kept on the chain: a failure still takes its sender's nonce). */
async function runSetting(s: Setting, index: number): Promise<SettingLedger> {
  const build = compile(s, ROOT);
  const { chain, deployment } = await deployed(index, build);
  const contracts: SettingLedger['contracts'] = [];
  for (const r of deployment.records) {
    const name = r.id.slice(r.id.lastIndexOf(':') + 1);
    contracts.push({
      name,
      num: BASE_NUM + 10 * index + DEPLOYED.indexOf(name),
      address: r.address,
      creation: r.initCode,
      runtime: await chain.codeOf(r.address),
    });
  }
  const runs: CaseRun[] = [];
  for (const c of CASES) {
    const request = caseRequest(c, build, ROOT, deployment, { deployer: owner, stranger });
    const nonce = Number(await chain.nonceOf(request.from));
    const ex = await chain.call({ ...request, commit: true, seed: keyOf(s, c) });
    runs.push({ key: keyOf(s, c), case: c, request, nonce, ex });
  }
  return { setting: s, index, build, deployment, contracts, runs };
}

let ledger: Promise<SettingLedger[]> | undefined;

/** The ledger's deployments and executions (once per process: deterministic). */
export function placementLedger(): Promise<SettingLedger[]> {
  ledger ??= (async () => {
    const out: SettingLedger[] = [];
    for (const [i, s] of PLACEMENT_SETTINGS.entries()) out.push(await runSetting(s, i));
    return out;
  })();
  return ledger;
}

/** A case's opcode trace with what was asked: its setting deployed again, the cases before it, then it traced. */
function traceOf(l: SettingLedger, key: string, options: TraceFlags): Promise<OpcodesResponse> {
  return cachedTrace(key, options, async (trace) => {
    const { chain } = await deployed(l.index, l.build);
    for (const r of l.runs) {
      if (r.key === key) return (await chain.call({ ...r.request, seed: key, trace })).opcodes;
      await chain.call({ ...r.request, commit: true, seed: r.key });
    }
    throw new Error(`no placement case ${key}`);
  });
}

/**
 * Adds the ledger to the data (after the inspector's scenarios): the contracts (with their code, for
 * `/contracts/{id}`) and one result per case, the newest results of the ledger, the cases in order, setting by
 * setting. Returns what GET /__sandbox/health shows under `notable.placement`.
 */
export function addPlacement(data: ContractData, settings: readonly SettingLedger[]): Record<string, unknown> {
  const marks = markers();
  const out: Record<string, unknown> = {};
  const all: Recorded[] = [];
  const rows = new Map<string, ContractResultRow>();
  const total = settings.reduce((n, l) => n + l.runs.length, 0);
  let k = 0;
  for (const l of settings) {
    for (const c of l.contracts) {
      data.contractsByNum.set(c.num, { num: c.num, evm: evm(c.address), kind: 'placement', name: c.name });
      data.contractsByEvm.set(evm(c.address), c.num);
      (data.code ??= new Map()).set(c.num, { bytecode: c.creation, runtime: c.runtime });
    }
    const numOf = (address: string): number => l.contracts.find((c) => c.address === address)?.num as number;
    for (const r of l.runs) {
      const create = r.case.to === 'new Fragile';
      const from = r.request.from === stranger ? ALIAS_SENDER : OWNER;
      const recorded = recordedOf(
        data,
        // an hour before the anchor and on, 12 s apart: the newest results but live ones
        {
          key: r.key,
          before: 3600 - Math.round((3000 * k++) / total),
          ...(create ? { eth: true, ethNonce: r.nonce, create } : {}),
        },
        {
          from,
          ...(create ? {} : { to: { num: numOf(r.request.to as string), evm: evm(r.request.to as string) } }),
          data: r.request.data,
          create,
          value: 0n,
          gas: GAS,
          // a failed deployment's storage belonged to no contract: the mirror node records none of it
          ex: create ? { ...r.ex, stateChanges: r.ex.stateChanges.filter((c) => c.contract_id !== null) } : r.ex,
        },
      );
      all.push({ ...recorded, trace: (o) => traceOf(l, r.key, o) });
    }
  }
  addRecordedResults(data, all, new Prng(0x504c4143), (s, row) => rows.set(s.key, row));
  for (const l of settings) {
    const cases: Record<string, unknown> = {};
    for (const r of l.runs) {
      const row = rows.get(r.key) as ContractResultRow;
      cases[r.case.name] = {
        timestamp: row.obj.timestamp,
        transactionId: transactionIdOf(row),
        hash: row.obj.hash,
        contractId: row.obj.contract_id,
        result: row.obj.result,
        creation: r.case.to === 'new Fragile',
        expected: marks.get(r.case.name) ?? [],
        ...(r.case.adversarial ? { adversarial: true } : {}),
      };
    }
    out[settingSlug(l.setting)] = {
      setting: l.setting.name,
      deploymentId: deploymentIdOf(l.setting),
      contracts: Object.fromEntries(l.contracts.map((c) => [c.name, { id: `0.0.${c.num}`, address: c.address }])),
      cases,
    };
  }
  return out;
}

/** The Ignition deployment id of a setting's deployment in the workspace. */
export const deploymentIdOf = (s: Setting): string => `placement-${settingSlug(s)}`;

/**
 * Writes the Hardhat 2 project of the ledger's deployments into `dir` (created when missing): the sources, the first
 * setting's build in `artifacts/`, one Ignition deployment per setting (chain 296) with its own build info.
 */
export function writePlacementWorkspace(dir: string, settings: readonly SettingLedger[]): void {
  writeHardhat2Project(
    dir,
    settings.map((l) => ({
      id: deploymentIdOf(l.setting),
      build: l.build as CompiledBuild,
      deployment: { deployer: owner, contracts: l.deployment.records, libraries: l.deployment.libraries },
    })),
    solcVersion(),
  );
}
