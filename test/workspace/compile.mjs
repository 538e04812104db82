#!/usr/bin/env node
// Regenerates the build of the inspector's contracts (test/workspace/contracts/inspector/*.sol) with the real
// Solidity compiler: the npm package `solc` (a dev dependency, pinned to 0.8.28, runs offline).
//
//   node test/workspace/compile.mjs           writes the files below (and removes an older build info of these sources)
//   node test/workspace/compile.mjs --check   writes nothing; fails when a committed file differs from a fresh compile
//
// Writes, as Hardhat 2 (hardhat-core `Artifacts.saveBuildInfo` / `saveArtifactAndDebugFile`) writes them:
//   test/workspace/artifacts/build-info/<id>.json
//       {"id", "_format": "hh-sol-build-info-1", "solcVersion", "solcLongVersion", "input", "output"} on one line, in
//       that order, the output's "sources" then "contracts" written last (Hardhat streams them); <id> is the md5 of
//       JSON.stringify({_format, solcVersion, solcLongVersion, input}), Hardhat's build info name.
//   test/workspace/artifacts/contracts/inspector/<File>.sol/<Name>.json
//       {"_format": "hh-sol-artifact-1", contractName, sourceName, abi, bytecode, deployedBytecode, linkReferences,
//       deployedLinkReferences}, 2 spaces and a final newline; library placeholders (`__$<hash>$__`) left in the code.
//   test/workspace/artifacts/contracts/inspector/<File>.sol/<Name>.dbg.json
//       {"_format": "hh-sol-dbg-1", "buildInfo": "../../../build-info/<id>.json"}
// The compiler input: source names `contracts/inspector/<File>.sol` (sorted), optimizer on (200 runs), evmVersion
// cancun, and the output selection below (source maps, link and immutable references, storage layouts, ASTs).
//
// And, for the sandbox (the sandbox may not read test/): sandbox/src/compiled/inspector.json, the same contracts
// as deployed on the sandbox's chain (format also in sandbox/src/compiled/README.md):
//   {
//     "_format": "hedera-explorer-compiled-1",
//     "solcLongVersion": "0.8.28+commit.7893614a",
//     "buildInfoId": "<id>",                          the build info above
//     "sourceIds": {"contracts/inspector/Accounting.sol": 0, ...},   the `f` of the source maps
//     "libraries": {"contracts/inspector/Accounting.sol:Accounting": "0x9fe4…"},   linked into the code below
//     "contracts": [                                  Vault, Ledger, Accounting, VaultRules, VaultProxy (in that order)
//       {
//         "name": "Vault", "sourceName": "contracts/inspector/Vault.sol",
//         "address": "0x5fbd…",                        the EVM address (Ignition's InspectorModule#Vault)
//         "entityId": "0.0.7001",                      the entity the sandbox serves it as
//         "abi": [...],                                 as the compiler gives it
//         "storageLayout": {"storage": [...], "types": {...}},   solc's storageLayout ("types" {} when none)
//         "bytecode": "0x…",                            creation code, libraries linked
//         "constructorArguments": "0x…",                ABI-encoded arguments appended to `bytecode` at deployment
//                                                       ("0x" when none)
//         "constructorValues": [...],                   the same arguments, readable
//         "deployedBytecode": "0x…",                    runtime code as on chain: libraries linked, immutables set,
//                                                       a library's own address in its call guard (PUSH20 at byte 1)
//         "deployedSourceMap": "…",                     evm.deployedBytecode.sourceMap (compressed s:l:f:j:m)
//         "immutableReferences": {"<astId>": [{"start", "length"}]},   byte offsets in deployedBytecode
//         "immutableValues": {"<astId>": "0x<64 hex>"}   what the constructor writes there
//       }, ...
//     ]
//   }
//
// Deterministic: the same sources and compiler give byte-identical files. `compileInspector()` (exported) returns
// every file's path and content without writing; test/unit/workspace.storageLayout.test.ts compares them with the
// committed files, so a stale build fails the unit tests.
import { createHash } from 'node:crypto';
import * as fs from 'node:fs';
import { createRequire } from 'node:module';
import * as path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';

const require = createRequire(import.meta.url);

export const SOLC_VERSION = '0.8.28';
/** test/workspace */
export const WORKSPACE = path.dirname(fileURLToPath(import.meta.url));
/** The repository (paths of `compileInspector().files` are relative to it). */
export const ROOT = path.resolve(WORKSPACE, '..', '..');
const SOURCE_DIR = 'contracts/inspector';

/** Where the sandbox serves the contracts: Hardhat Ignition's addresses (deployed_addresses.json) and entity ids. */
export const DEPLOYMENTS = {
  Vault: { address: '0x5fbdb2315678afecb367f032d93f642f64180aa3', entityId: '0.0.7001' },
  Ledger: { address: '0xe7f1725e7734ce288f8367e1bb143e90bb3f0512', entityId: '0.0.7002' },
  Accounting: { address: '0x9fe46736679d2d9a65f0992f2272de9f3c7fa6e0', entityId: '0.0.7003' },
  VaultRules: { address: '0xcf7ed3acca5a467e9e704c703e8d87f634fb0fc9', entityId: '0.0.7010' },
  VaultProxy: { address: '0xdc64a140aa3e981100a9beca4e685f962f0cf6c9', entityId: '0.0.7011' },
};
/** The Vault's constructor arguments on the sandbox's chain: (Ledger ledger_, string name_, uint96 maxFeeBps_). */
export const VAULT_ARGS = [DEPLOYMENTS.Ledger.address, 'Inspector Vault', 500];
/** The Ledger's constructor arguments on the sandbox's chain: (address vault_), the Vault it records for. */
export const LEDGER_ARGS = [DEPLOYMENTS.Vault.address];
/** The proxy's constructor arguments: (address implementation), VaultRules. */
export const PROXY_ARGS = [DEPLOYMENTS.VaultRules.address];

const OUTPUT_SELECTION = {
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
      'metadata',
      'storageLayout',
    ],
    '': ['ast'],
  },
};

const hex0x = (s) => (s.startsWith('0x') ? s : `0x${s}`);
const word = (n) => BigInt(n).toString(16).padStart(64, '0');

/** ABI encoding of the Vault's constructor arguments (address, string, uint96): head, then the string's tail. */
function encodeVaultArgs([ledger, name, maxFee]) {
  const bytes = Buffer.from(name, 'utf8');
  const padded = bytes.toString('hex').padEnd(Math.ceil(bytes.length / 32) * 64, '0');
  return `0x${word(BigInt(ledger))}${word(96)}${word(maxFee)}${word(bytes.length)}${padded}`;
}

/** Each contract's constructor arguments, readable and ABI-encoded (none for the others). */
const CONSTRUCTOR_ARGS = {
  Vault: { values: VAULT_ARGS, encoded: encodeVaultArgs(VAULT_ARGS) },
  Ledger: { values: LEDGER_ARGS, encoded: `0x${word(BigInt(LEDGER_ARGS[0]))}` },
  VaultProxy: { values: PROXY_ARGS, encoded: `0x${word(BigInt(PROXY_ARGS[0]))}` },
};

/** Writes `address` (0x + 40 hex) at every link reference of `code` (hex without 0x). */
function link(code, linkReferences, libraries) {
  let out = code;
  for (const [source, byName] of Object.entries(linkReferences ?? {})) {
    for (const [name, refs] of Object.entries(byName)) {
      const address = libraries[`${source}:${name}`];
      if (!address) throw new Error(`no address for library ${source}:${name}`);
      for (const { start, length } of refs) {
        if (length !== 20) throw new Error(`link reference of ${length} bytes`);
        out = out.slice(0, start * 2) + address.slice(2) + out.slice((start + length) * 2);
      }
    }
  }
  if (out.includes('__$')) throw new Error('a library placeholder was left unlinked');
  return out;
}

/** The AST node with that id. */
function findNode(node, id) {
  if (Array.isArray(node)) {
    for (const n of node) {
      const hit = findNode(n, id);
      if (hit) return hit;
    }
  } else if (node && typeof node === 'object') {
    if (node.id === id && typeof node.nodeType === 'string') return node;
    for (const v of Object.values(node)) {
      const hit = v && typeof v === 'object' ? findNode(v, id) : undefined;
      if (hit) return hit;
    }
  }
  return undefined;
}

/**
 * Hardhat 2's build info file, as `saveBuildInfo` streams it: the build info without its output, then the output's
 * other fields, then its sources and contracts one by one. One line, no final newline.
 */
function buildInfoText(buildInfo) {
  const parts = [];
  parts.push(JSON.stringify({ ...buildInfo, output: undefined }).slice(0, -1));
  const rest = JSON.stringify({ ...buildInfo.output, sources: undefined, contracts: undefined });
  parts.push(',"output":', rest.slice(0, -1));
  if (rest.length > 2) parts.push(',');
  parts.push('"sources":{', Object.entries(buildInfo.output.sources ?? {}).map(([k, v]) => `${JSON.stringify(k)}:${JSON.stringify(v)}`).join(','), '}');
  parts.push(',"contracts":{', Object.entries(buildInfo.output.contracts ?? {}).map(([k, v]) => `${JSON.stringify(k)}:${JSON.stringify(v)}`).join(','), '}');
  parts.push('}}');
  return parts.join('');
}

/** fs-extra `writeJSON(file, value, { spaces: 2 })`, as Hardhat writes artifacts. */
const prettyJson = (value) => `${JSON.stringify(value, null, 2)}\n`;

/**
 * Compiles the inspector's sources and returns every file to write: `{ files: [{ path, content }], buildInfo }`
 * (paths relative to the repository, forward slashes). Throws when solc is not 0.8.28 or reports an error.
 */
export function compileInspector() {
  const solc = require('solc');
  const full = solc.version();
  if (!full.startsWith(`${SOLC_VERSION}+`)) throw new Error(`solc ${SOLC_VERSION} is needed (npm install), found ${full}`);
  const solcLongVersion = full.replace(/\.Emscripten\.clang$/, '');

  const dir = path.join(WORKSPACE, SOURCE_DIR);
  const names = fs.readdirSync(dir).filter((n) => n.endsWith('.sol')).sort();
  if (!names.length) throw new Error(`no sources in ${dir}`);
  const input = {
    language: 'Solidity',
    sources: Object.fromEntries(names.map((n) => [`${SOURCE_DIR}/${n}`, { content: fs.readFileSync(path.join(dir, n), 'utf8') }])),
    settings: { optimizer: { enabled: true, runs: 200 }, evmVersion: 'cancun', outputSelection: OUTPUT_SELECTION },
  };
  const output = JSON.parse(solc.compile(JSON.stringify(input)));
  const problems = (output.errors ?? []).filter((e) => e.severity === 'error' || e.severity === 'warning');
  if (problems.length) throw new Error(problems.map((e) => e.formattedMessage).join('\n'));

  const _format = 'hh-sol-build-info-1';
  const id = createHash('md5').update(Buffer.from(JSON.stringify({ _format, solcVersion: SOLC_VERSION, solcLongVersion, input }))).digest('hex');
  const buildInfo = { id, _format, solcVersion: SOLC_VERSION, solcLongVersion, input, output };
  const files = [{ path: `test/workspace/artifacts/build-info/${id}.json`, content: buildInfoText(buildInfo) }];

  for (const [sourceName, byName] of Object.entries(output.contracts)) {
    for (const [contractName, c] of Object.entries(byName)) {
      const base = `test/workspace/artifacts/${sourceName}/${contractName}`;
      files.push({
        path: `${base}.json`,
        content: prettyJson({
          _format: 'hh-sol-artifact-1',
          contractName,
          sourceName,
          abi: c.abi,
          bytecode: hex0x(c.evm?.bytecode?.object ?? ''),
          deployedBytecode: hex0x(c.evm?.deployedBytecode?.object ?? ''),
          linkReferences: c.evm?.bytecode?.linkReferences ?? {},
          deployedLinkReferences: c.evm?.deployedBytecode?.linkReferences ?? {},
        }),
      });
      files.push({ path: `${base}.dbg.json`, content: prettyJson({ _format: 'hh-sol-dbg-1', buildInfo: `../../../build-info/${id}.json` }) });
    }
  }

  // the sandbox's copy: the contracts as deployed (libraries linked, immutables set)
  const libraries = { [`${SOURCE_DIR}/Accounting.sol:Accounting`]: DEPLOYMENTS.Accounting.address };
  const contracts = [];
  for (const name of Object.keys(DEPLOYMENTS)) {
    const sourceName = `${SOURCE_DIR}/${name}.sol`;
    const c = output.contracts[sourceName]?.[name];
    if (!c) throw new Error(`${sourceName}:${name} is not in the output`);
    const immutableReferences = c.evm.deployedBytecode.immutableReferences ?? {};
    const immutableValues = {};
    let runtime = link(c.evm.deployedBytecode.object, c.evm.deployedBytecode.linkReferences, libraries);
    for (const [astId, refs] of Object.entries(immutableReferences)) {
      // the Vault's one immutable is maxFeeBps (its constructor's third argument)
      const decl = findNode(output.sources[sourceName].ast, Number(astId));
      if (name !== 'Vault' || decl?.nodeType !== 'VariableDeclaration' || decl.name !== 'maxFeeBps') throw new Error(`unexpected immutable ${astId} in ${name}`);
      const value = word(VAULT_ARGS[2]);
      immutableValues[astId] = `0x${value}`;
      for (const { start, length } of refs) {
        if (length !== 32) throw new Error(`immutable reference of ${length} bytes`);
        runtime = runtime.slice(0, start * 2) + value + runtime.slice((start + length) * 2);
      }
    }
    // a library's runtime code starts with PUSH20 <its own address> (zeros in the output; its creation code writes
    // ADDRESS there): the guard that refuses state-changing calls that are not DELEGATECALLs
    const definition = output.sources[sourceName].ast.nodes.find((n) => n.nodeType === 'ContractDefinition' && n.name === name);
    if (definition?.contractKind === 'library') {
      if (!runtime.startsWith(`73${'0'.repeat(40)}30`)) throw new Error(`${name}: no library call guard`);
      runtime = `73${DEPLOYMENTS[name].address.slice(2)}${runtime.slice(42)}`;
    }
    contracts.push({
      name,
      sourceName,
      address: DEPLOYMENTS[name].address,
      entityId: DEPLOYMENTS[name].entityId,
      abi: c.abi,
      storageLayout: { storage: c.storageLayout.storage, types: c.storageLayout.types ?? {} },
      bytecode: hex0x(link(c.evm.bytecode.object, c.evm.bytecode.linkReferences, libraries)),
      constructorArguments: CONSTRUCTOR_ARGS[name]?.encoded ?? '0x',
      constructorValues: CONSTRUCTOR_ARGS[name]?.values ?? [],
      deployedBytecode: hex0x(runtime),
      deployedSourceMap: c.evm.deployedBytecode.sourceMap,
      immutableReferences,
      immutableValues,
    });
  }
  const sourceIds = Object.fromEntries(Object.entries(output.sources).map(([k, v]) => [k, v.id]));
  files.push({
    path: 'sandbox/src/compiled/inspector.json',
    content: prettyJson({ _format: 'hedera-explorer-compiled-1', solcLongVersion, buildInfoId: id, sourceIds, libraries, contracts }),
  });
  return { files, buildInfo };
}

/** Build info files of these sources other than `keepId` (an older build, which Hardhat would remove too). */
function staleBuildInfos(keepId) {
  const dir = path.join(WORKSPACE, 'artifacts', 'build-info');
  const out = [];
  for (const n of fs.existsSync(dir) ? fs.readdirSync(dir) : []) {
    if (!n.endsWith('.json') || n === `${keepId}.json`) continue;
    try {
      const sources = Object.keys(JSON.parse(fs.readFileSync(path.join(dir, n), 'utf8')).input?.sources ?? {});
      if (sources.length && sources.every((s) => s.startsWith(`${SOURCE_DIR}/`))) out.push(path.join(dir, n));
    } catch {
      /* not ours */
    }
  }
  return out;
}

function main() {
  const check = process.argv.includes('--check');
  const { files, buildInfo } = compileInspector();
  const stale = staleBuildInfos(buildInfo.id);
  if (check) {
    const differ = files.filter((f) => {
      const p = path.join(ROOT, f.path);
      return !fs.existsSync(p) || fs.readFileSync(p, 'utf8') !== f.content;
    });
    for (const f of differ) console.error(`stale: ${f.path}`);
    for (const s of stale) console.error(`left over: ${path.relative(ROOT, s)}`);
    if (differ.length || stale.length) process.exit(1);
    console.log(`up to date (${files.length} files, build ${buildInfo.id})`);
    return;
  }
  for (const s of stale) fs.rmSync(s);
  // artifacts of contracts no longer in the sources go too
  const artifactsDir = path.join(WORKSPACE, 'artifacts', SOURCE_DIR);
  fs.rmSync(artifactsDir, { recursive: true, force: true });
  for (const f of files) {
    const p = path.join(ROOT, f.path);
    fs.mkdirSync(path.dirname(p), { recursive: true });
    fs.writeFileSync(p, f.content);
  }
  console.log(`solc ${buildInfo.solcLongVersion}: ${files.length} files written, build ${buildInfo.id}`);
}

if (process.argv[1] && import.meta.url === pathToFileURL(path.resolve(process.argv[1])).href) main();
