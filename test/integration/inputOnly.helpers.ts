// The workspace's inspector build held as input only, as Hardhat 3's `ignition deploy` leaves it: Ignition's copy of
// the build (no `.output.json`) and its artifacts, no compiled build in artifacts/, and the user's compiler (npm solc
// in the workspace's node_modules, the repository's). For the suites that check the compile step; `restore` puts the
// workspace's files back.
import * as fs from 'fs';
import * as path from 'path';

export function holdInspectorBuildAsInputOnly(ws: string): { restore: () => void } {
  const moved: Array<[string, string]> = [];
  const written: string[] = [];
  const dbg = JSON.parse(
    fs.readFileSync(path.join(ws, 'artifacts/contracts/inspector/Vault.sol/Vault.dbg.json'), 'utf8'),
  ) as { buildInfo: string };
  const info = JSON.parse(
    fs.readFileSync(path.join(ws, 'artifacts/contracts/inspector/Vault.sol', dbg.buildInfo), 'utf8'),
  ) as { id: string; solcVersion: string; solcLongVersion: string; input: unknown };
  const dep = path.join(ws, 'ignition/deployments/chain-296');
  const write = (rel: string, v: unknown) => {
    const f = path.join(dep, rel);
    fs.mkdirSync(path.dirname(f), { recursive: true });
    fs.writeFileSync(f, JSON.stringify(v));
    written.push(f);
  };
  write(`build-info/${info.id}.json`, {
    _format: 'hh3-sol-build-info-1',
    id: info.id,
    solcVersion: info.solcVersion,
    solcLongVersion: info.solcLongVersion,
    input: info.input,
  });
  for (const name of ['Vault', 'Ledger', 'Accounting'])
    write(`artifacts/InspectorModule#${name}.json`, {
      _format: 'hh3-artifact-1',
      contractName: name,
      sourceName: `contracts/inspector/${name}.sol`,
      abi: [],
      bytecode: '0x',
      deployedBytecode: '0x',
      linkReferences: {},
      deployedLinkReferences: {},
      buildInfoId: info.id,
    });
  // no compiled build of it in the workspace
  for (const rel of ['artifacts/build-info', 'artifacts/contracts']) {
    const from = path.join(ws, rel);
    moved.push([from, `${from}.hidden-by-test`]);
    fs.renameSync(from, `${from}.hidden-by-test`);
  }
  // the user's compiler: npm solc in the workspace's node_modules (the repository's)
  const solc = path.join(ws, 'node_modules/solc');
  fs.mkdirSync(path.dirname(solc), { recursive: true });
  fs.symlinkSync(path.resolve(__dirname, '../../../node_modules/solc'), solc, 'dir');
  written.push(solc);
  return {
    restore: () => {
      for (const f of written.reverse()) fs.rmSync(f, { recursive: true, force: true });
      for (const [from, to] of moved) if (fs.existsSync(to)) fs.renameSync(to, from);
    },
  };
}
