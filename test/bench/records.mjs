#!/usr/bin/env node
// Thousands of deployment records: "reading 10,000 deployment records (target <= 1 s) and the requests sent
// for them (target: only for what is shown)".
//
// 1. The read: a Hardhat Ignition deployment of 10,000 contracts as Ignition writes it (deployed_addresses.json, the
//    journal.jsonl with the five messages of each deployed future, and the artifact of each, ~30 KB: a pretty-printed
//    ABI, bytecode and deployed bytecode) read by the workspace's address discovery (src/workspace/discovery.ts) from
//    a real folder, through the same file access the tests use (test/support/nodeFs.ts, with the extension's per-file
//    read limit, MAX_READ_BYTES). One future in ten has a custom id (`m.contract("Ship7", [], { id: "Ship7Escort" })`)
//    and one in ten a fully qualified name: the names tell whether the journal was read. Also measured, for
//    comparison: the same read without the per-file limit, and the previous way (every artifact read, 32 at a time).
// 2. The requests: the integration test test/integration/deployments.many.test.ts in the real VS Code extension host
//    against the sandbox (as test/bench/host.mjs runs its tests): 10,000 records, the Deployments view lists 100; it
//    writes how many of the records were looked up, and whether any not listed was (HEDERA_BENCH_FIGURES).
//   node test/bench/records.mjs             both; exit 1 when a target is missed
//   node test/bench/records.mjs --no-host   the read only (no VS Code)
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { createRequire } from 'node:module';
import { fileURLToPath } from 'node:url';

export const TARGETS = { records: 10_000, readMs: 1000, artifactKB: 30 };
const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
const require = createRequire(path.join(root, 'package.json'));

async function load() {
  const esbuild = require('esbuild');
  const outfile = path.join(root, 'out/bench/records.cjs');
  await esbuild.build({
    stdin: {
      contents:
        "export { discoverAddresses } from './src/workspace/discovery';\nexport { nodeWorkspaceFs } from './test/support/nodeFs';\nexport { MAX_READ_BYTES } from './src/workspace/workspaceFs';",
      resolveDir: root,
      loader: 'ts',
    },
    bundle: true,
    platform: 'node',
    format: 'cjs',
    target: 'node20',
    outfile,
    logLevel: 'silent',
  });
  return require(outfile);
}

/* ------------------------------------------------------------ the workspace */

/** Hex digits that look random (the content does not matter, its size does): one pool, read at varying offsets. */
const POOL = (() => {
  let x = 0x9e3779b9;
  const parts = [];
  for (let i = 0; i < 16_384; i++) {
    x ^= x << 13;
    x >>>= 0;
    x ^= x >>> 17;
    x ^= x << 5;
    x >>>= 0;
    parts.push(x.toString(16).padStart(8, '0'));
  }
  return parts.join('');
})();
const hexOf = (n, seed) => {
  const at = (seed * 7919) % (POOL.length - n);
  return POOL.slice(at, at + n);
};

/** An ABI of a token-like contract (functions, events, errors), as solc writes it. */
function abiOf(name) {
  const p = (n, type, internal = type) => ({ internalType: internal, name: n, type });
  const fn = (n, inputs, outputs, mut = 'nonpayable') => ({
    inputs,
    name: n,
    outputs,
    stateMutability: mut,
    type: 'function',
  });
  const ev = (n, inputs) => ({
    anonymous: false,
    inputs: inputs.map((i, k) => ({ indexed: k < 2, ...i })),
    name: n,
    type: 'event',
  });
  const err = (n, inputs) => ({ inputs, name: n, type: 'error' });
  const abi = [
    { inputs: [p('initialOwner', 'address'), p('cap', 'uint256')], stateMutability: 'nonpayable', type: 'constructor' },
  ];
  for (const e of [
    'InsufficientBalance',
    'InsufficientAllowance',
    'InvalidReceiver',
    'InvalidSender',
    'OwnableUnauthorizedAccount',
    'EnforcedPause',
  ])
    abi.push(err(`${name}${e}`, [p('account', 'address'), p('needed', 'uint256')]));
  for (const e of ['Transfer', 'Approval', 'OwnershipTransferred', 'Paused', 'Unpaused', 'RoleGranted'])
    abi.push(ev(e, [p('from', 'address'), p('to', 'address'), p('value', 'uint256')]));
  for (const f of ['transfer', 'approve', 'mint', 'burnFrom', 'grantRole', 'revokeRole', 'setCap', 'pause'])
    abi.push(fn(f, [p('to', 'address'), p('value', 'uint256')], [p('', 'bool')]));
  for (const f of [
    'balanceOf',
    'allowance',
    'cap',
    'decimals',
    'name',
    'symbol',
    'totalSupply',
    'owner',
    'paused',
    'nonces',
  ])
    abi.push(fn(f, [p('account', 'address')], [p('', 'uint256')], 'view'));
  abi.push(fn('transferFrom', [p('from', 'address'), p('to', 'address'), p('value', 'uint256')], [p('', 'bool')]));
  abi.push(
    fn(
      'permit',
      ['owner', 'spender', 'value', 'deadline']
        .map((n) => p(n, n === 'owner' || n === 'spender' ? 'address' : 'uint256'))
        .concat([p('v', 'uint8'), p('r', 'bytes32'), p('s', 'bytes32')]),
      [],
    ),
  );
  return abi;
}

/** Future `i`: its id and the contract name the module gave (one in ten a custom id, one in ten fully qualified). */
function futureOf(i) {
  if (i % 10 === 3) return { futureId: `FleetModule#Ship${i}Escort`, contractName: `Ship${i}`, expected: `Ship${i}` };
  if (i % 10 === 7)
    return {
      futureId: `FleetModule#Ship${i}`,
      contractName: `contracts/fleet/Ship${i}.sol:Ship${i}`,
      expected: `Ship${i}`,
    };
  return { futureId: `FleetModule#Ship${i}`, contractName: `Ship${i}`, expected: `Ship${i}` };
}

const addressOf = (i) => `0x${(0x100000 + i).toString(16).padStart(40, '0')}`;
const big = (v) => ({ _kind: 'bigint', value: v });
/** JSON with sorted keys, as Ignition's journal writes its messages. */
const sorted = (v) =>
  JSON.stringify(v, (_k, x) =>
    x && typeof x === 'object' && !Array.isArray(x)
      ? Object.fromEntries(
          Object.keys(x)
            .sort()
            .map((k) => [k, x[k]]),
        )
      : x,
  );

/** The five messages Ignition writes for a deployed contract (Hardhat 2 and 3 alike). */
function journalLines(i, { futureId, contractName }, bytecode) {
  const from = '0xf39fd6e51aad88f6f4ce6ab8827279cfffb92266';
  const address = addressOf(i);
  const hash = `0x${hexOf(64, i + 7)}`;
  const args = `${from.slice(2).padStart(64, '0')}${(1_000_000).toString(16).padStart(64, '0')}`;
  return [
    sorted({
      artifactId: futureId,
      constructorArgs: [from, 1_000_000],
      contractName,
      dependencies: i ? [futureOf(i - 1).futureId] : [],
      from,
      futureId,
      futureType: 'NAMED_ARTIFACT_CONTRACT_DEPLOYMENT',
      libraries: {},
      strategy: 'basic',
      strategyConfig: {},
      type: 'DEPLOYMENT_EXECUTION_STATE_INITIALIZE',
      value: big('0'),
    }),
    sorted({
      futureId,
      networkInteraction: {
        data: `0x${bytecode}${args}`,
        from,
        id: 1,
        to: undefined,
        type: 'ONCHAIN_INTERACTION',
        value: big('0'),
      },
      type: 'NETWORK_INTERACTION_REQUEST',
    }),
    sorted({
      futureId,
      networkInteractionId: 1,
      nonce: i,
      transaction: { fees: { maxFeePerGas: big('1194885894'), maxPriorityFeePerGas: big('1000000000') }, hash },
      type: 'TRANSACTION_SEND',
    }),
    sorted({
      futureId,
      hash,
      networkInteractionId: 1,
      receipt: {
        blockHash: `0x${hexOf(64, i + 11)}`,
        blockNumber: 4_792_250 + i,
        contractAddress: address,
        logs: [
          {
            address,
            data: '0x',
            logIndex: 0,
            topics: [`0x${hexOf(64, 3)}`, `0x${'0'.repeat(64)}`, `0x${from.slice(2).padStart(64, '0')}`],
          },
        ],
        status: 'SUCCESS',
      },
      type: 'TRANSACTION_CONFIRM',
    }),
    sorted({ futureId, result: { address, type: 'SUCCESS' }, type: 'DEPLOYMENT_EXECUTION_STATE_COMPLETE' }),
  ];
}

/** A workspace folder with one Ignition deployment of `n` contracts, as Ignition writes it. */
export function makeWorkspace(n, { bytecodeHex = 9_000 } = {}) {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'hedera-records-'));
  const dep = path.join(dir, 'ignition/deployments/chain-296');
  fs.mkdirSync(path.join(dep, 'artifacts'), { recursive: true });
  const addresses = {};
  const journal = fs.openSync(path.join(dep, 'journal.jsonl'), 'w');
  fs.writeSync(journal, `\n${JSON.stringify({ chainId: 296, type: 'DEPLOYMENT_INITIALIZE' })}`);
  let artifactBytes = 0;
  // the ABI as Hardhat writes it (indented), its contract's name put in
  const abiText = `"abi": ${JSON.stringify(abiOf('__NAME__'), null, 2).replace(/\n/g, '\n  ')}`;
  for (let i = 0; i < n; i++) {
    const f = futureOf(i);
    addresses[f.futureId] = addressOf(i);
    const bytecode = `6080604052${hexOf(bytecodeHex, i)}`;
    const artifact = `${JSON.stringify(
      {
        _format: 'hh-sol-artifact-1',
        contractName: f.expected,
        sourceName: `contracts/fleet/Ship${i}.sol`,
        abi: [],
        bytecode: `0x${bytecode}`,
        deployedBytecode: `0x6080604052${hexOf(7_800, i + 1)}`,
        linkReferences: {},
        deployedLinkReferences: {},
      },
      null,
      2,
    ).replace('"abi": []', abiText.replaceAll('__NAME__', f.expected))}\n`;
    artifactBytes += artifact.length;
    fs.writeFileSync(path.join(dep, 'artifacts', `${f.futureId}.json`), artifact);
    fs.writeSync(
      journal,
      journalLines(i, f, bytecode)
        .map((l) => `\n${l}`)
        .join(''),
    );
  }
  fs.closeSync(journal);
  fs.writeFileSync(path.join(dep, 'deployed_addresses.json'), JSON.stringify(addresses, null, 2));
  return {
    dir,
    artifactKB: artifactBytes / n / 1024,
    journalMB: fs.statSync(path.join(dep, 'journal.jsonl')).size / 1024 / 1024,
  };
}

/* ------------------------------------------------------------ 1. the read */

export async function measureRecords({ previous = true } = {}) {
  const { discoverAddresses, nodeWorkspaceFs, MAX_READ_BYTES } = await load();
  const t = performance.now();
  const ws = makeWorkspace(TARGETS.records);
  const writeMs = performance.now() - t;
  const expected = new Map(Array.from({ length: TARGETS.records }, (_, i) => [addressOf(i), futureOf(i).expected]));
  const timed = async (makeFs, runs) => {
    const times = [];
    let d;
    for (let run = 0; run < runs; run++) {
      const t0 = performance.now();
      d = await discoverAddresses({ folders: [makeFs(ws.dir)], chainId: 296 });
      times.push(performance.now() - t0);
    }
    const named = d.candidates.filter((c) => expected.get(c.address) === c.contractName).length;
    return {
      found: d.candidates.length,
      named,
      runsMs: times.map((x) => Math.round(x)),
      readMs: Math.round(Math.min(...times)),
      skipped: d.skipped,
    };
  };
  try {
    // the extension's file access (test/support/nodeFs.ts is src/core/vscodeWorkspaceFs.ts over Node: the same
    // per-file limit for whole reads, the journal in pieces)
    const limited = await timed(nodeWorkspaceFs, 3);
    // the previous way: the artifact of every record read, 32 at a time, for its contractName and sourceName
    let previousMs;
    if (previous) {
      const wfs = nodeWorkspaceFs(ws.dir);
      const base = 'ignition/deployments/chain-296';
      const t0 = performance.now();
      const ids = Object.keys(JSON.parse(new TextDecoder().decode(await wfs.read(`${base}/deployed_addresses.json`))));
      let next = 0;
      let names = 0;
      await Promise.all(
        Array.from({ length: 32 }, async () => {
          while (next < ids.length) {
            const b = await wfs.read(`${base}/artifacts/${ids[next++]}.json`);
            if (b && JSON.parse(new TextDecoder().decode(b)).contractName) names++;
          }
        }),
      );
      previousMs = Math.round(performance.now() - t0);
      if (names !== ids.length) previousMs = undefined;
    }
    return {
      records: TARGETS.records,
      artifactKB: Math.round(ws.artifactKB * 10) / 10,
      journalMB: Math.round(ws.journalMB * 10) / 10,
      readLimitMB: MAX_READ_BYTES / 1024 / 1024,
      writeMs: Math.round(writeMs),
      limited,
      previousMs,
      targetMs: TARGETS.readMs,
      load: os
        .loadavg()
        .map((x) => x.toFixed(2))
        .join(' '),
      ok: limited.found === TARGETS.records && limited.named === TARGETS.records && limited.readMs <= TARGETS.readMs,
    };
  } finally {
    fs.rmSync(ws.dir, { recursive: true, force: true });
  }
}

/* ------------------------------------------------------------ 2. the requests */

/** Runs test/integration/deployments.many.test.ts in the real extension host; its figures (see the file's head). */
export function measureRequests() {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'hedera-bench-records-'));
  const file = path.join(dir, 'figures.jsonl');
  try {
    const run = spawnSync(
      process.execPath,
      [
        '-e',
        `require(${JSON.stringify(path.join(root, 'test/harness/run-integration.cjs'))})
      .runIntegration({ suite: 'bench-records', vscodeExecutablePath: ${JSON.stringify(path.join(root, 'test/harness/launcher.mjs'))} })
      .then((code) => process.exit(code));`,
      ],
      {
        cwd: root,
        stdio: ['ignore', 'ignore', 'inherit'],
        env: { ...process.env, HEDERA_TEST_GREP: 'Deployments view with many records', HEDERA_BENCH_FIGURES: file },
      },
    );
    const figures = {};
    for (const line of fs.existsSync(file) ? fs.readFileSync(file, 'utf8').split('\n').filter(Boolean) : []) {
      const f = JSON.parse(line);
      figures[f.name] = f;
    }
    const f = figures.deploymentsLookedUp;
    return {
      testsPassed: run.status === 0,
      figure: f,
      ok: run.status === 0 && !!f && f.notListed === 0 && f.lookedUp <= f.listed,
    };
  } finally {
    fs.rmSync(dir, { recursive: true, force: true });
  }
}

if (process.argv[1] && path.resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  const m = await measureRecords();
  const mark = (ok) => (ok ? 'OK' : 'MISSED');
  const line = (r) =>
    `${r.found} records, ${r.named} named as the module deployed them, in ${r.readMs} ms (runs ${r.runsMs.join(', ')} ms)`;
  console.log(
    `workspace: ${m.records.toLocaleString('en-US')} Ignition futures, artifacts ~${m.artifactKB} KB each, journal.jsonl ${m.journalMB} MB (written in ${m.writeMs} ms); load average ${m.load}`,
  );
  console.log(
    `read through the extension's file access (the journal in 1 MB pieces; other files whole, up to ${m.readLimitMB} MB): ${line(m.limited)} (target <= ${m.targetMs} ms, all named) ${mark(m.ok)}`,
  );
  if (m.previousMs !== undefined)
    console.log(`for comparison, every artifact read (the previous way, 32 at a time): ${m.previousMs} ms`);
  let ok = m.ok;
  if (!process.argv.includes('--no-host')) {
    const r = measureRequests();
    const f = r.figure;
    if (f)
      console.log(
        `requests (Deployments view in the real extension host, ${f.records.toLocaleString('en-US')} records, ${f.listed} of them listed): ${f.requests} requests for ${f.lookedUp} contracts, ${f.notListed} for contracts not listed (target: only those listed) ${mark(r.ok)}`,
      );
    else
      console.log(
        `requests: not measured (the integration test failed or did not run: see out/test-results/bench-records.json) MISSED`,
      );
    ok = ok && r.ok;
  }
  process.exit(ok ? 0 : 1);
}
