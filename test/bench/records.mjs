#!/usr/bin/env node
// Thousands of deployment records (issue 22): a Hardhat Ignition deployment of 10,000 contracts (deployed_addresses.json
// and one artifact per contract, as Ignition writes them) read by the workspace's address discovery
// (src/workspace/discovery.ts) from a real folder through the same file access the tests use. Target: <= 1 s.
//   node test/bench/records.mjs          prints the figure; exit 1 when the target is missed
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { createRequire } from 'node:module';
import { fileURLToPath } from 'node:url';

export const TARGETS = { records: 10_000, readMs: 1000 };
const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
const require = createRequire(path.join(root, 'package.json'));

async function load() {
  const esbuild = require('esbuild');
  const outfile = path.join(root, 'out/bench/records.cjs');
  await esbuild.build({
    stdin: { contents: "export { discoverAddresses } from './src/workspace/discovery';\nexport { nodeWorkspaceFs } from './test/support/nodeFs';", resolveDir: root, loader: 'ts' },
    bundle: true, platform: 'node', format: 'cjs', target: 'node20', outfile, logLevel: 'silent',
  });
  return require(outfile);
}

/** A workspace folder with one Ignition deployment of `n` contracts. */
function makeWorkspace(n) {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'hedera-records-'));
  const dep = path.join(dir, 'ignition/deployments/chain-296');
  fs.mkdirSync(path.join(dep, 'artifacts'), { recursive: true });
  const addresses = {};
  for (let i = 0; i < n; i++) {
    const futureId = `FleetModule#Ship${i}`;
    addresses[futureId] = `0x${(0x100000 + i).toString(16).padStart(40, '0')}`;
    fs.writeFileSync(path.join(dep, 'artifacts', `${futureId}.json`), JSON.stringify({ _format: 'hh-sol-artifact-1', contractName: `Ship${i}`, sourceName: `contracts/Ship${i}.sol`, abi: [], bytecode: '0x', deployedBytecode: '0x' }));
  }
  fs.writeFileSync(path.join(dep, 'deployed_addresses.json'), JSON.stringify(addresses, null, 2));
  return dir;
}

export async function measureRecords() {
  const { discoverAddresses, nodeWorkspaceFs } = await load();
  const dir = makeWorkspace(TARGETS.records);
  try {
    const times = [];
    let found = 0;
    for (let run = 0; run < 3; run++) {
      const t0 = performance.now();
      const d = await discoverAddresses({ folders: [nodeWorkspaceFs(dir)], chainId: 296 });
      times.push(performance.now() - t0);
      found = d.candidates.length;
    }
    const best = Math.min(...times);
    return { records: TARGETS.records, found, runsMs: times.map((t) => Math.round(t)), readMs: Math.round(best), targetMs: TARGETS.readMs, ok: found === TARGETS.records && best <= TARGETS.readMs };
  } finally {
    fs.rmSync(dir, { recursive: true, force: true });
  }
}

if (process.argv[1] && path.resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  const m = await measureRecords();
  console.log(`${m.found} of ${m.records} Ignition records read in ${m.readMs} ms (runs ${m.runsMs.join(', ')} ms; target <= ${m.targetMs} ms) ${m.ok ? 'OK' : 'MISSED'}`);
  process.exit(m.ok ? 0 : 1);
}
