// Compiles TokenPayer.sol (the contract of the sandbox's token facade scenario) with the npm package `solc`
// (offline) into tokenPayer.json: `node sandbox/src/compiled/tokenPayer.mjs` writes it; the sandbox test
// `token facade` fails when the committed file differs from a fresh compile.
import * as fs from 'node:fs';
import * as path from 'node:path';
import { fileURLToPath } from 'node:url';
import solc from 'solc';

const DIR = path.dirname(fileURLToPath(import.meta.url));
export const TOKEN_PAYER_JSON = path.join(DIR, 'tokenPayer.json');

/** The compiled contract, as tokenPayer.json holds it. */
export function compileTokenPayer() {
  const sourceName = 'TokenPayer.sol';
  const input = {
    language: 'Solidity',
    sources: { [sourceName]: { content: fs.readFileSync(path.join(DIR, sourceName), 'utf8') } },
    settings: {
      optimizer: { enabled: true, runs: 200 },
      evmVersion: 'cancun',
      outputSelection: { '*': { '*': ['abi', 'evm.bytecode.object', 'evm.deployedBytecode.object'] } },
    },
  };
  const output = JSON.parse(solc.compile(JSON.stringify(input)));
  const problems = (output.errors ?? []).filter((e) => e.severity === 'error' || e.severity === 'warning');
  if (problems.length) throw new Error(problems.map((e) => e.formattedMessage).join('\n'));
  const c = output.contracts[sourceName].TokenPayer;
  return {
    _format: 'hedera-explorer-compiled-1',
    solcLongVersion: solc.version().replace(/\.Emscripten\.clang$/, ''),
    sourceName,
    name: 'TokenPayer',
    abi: c.abi,
    bytecode: `0x${c.evm.bytecode.object}`,
    deployedBytecode: `0x${c.evm.deployedBytecode.object}`,
  };
}

if (process.argv[1] && path.resolve(process.argv[1]) === fileURLToPath(import.meta.url))
  fs.writeFileSync(TOKEN_PAYER_JSON, `${JSON.stringify(compileTokenPayer(), null, 2)}\n`);
