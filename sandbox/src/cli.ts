/**
 * Runs the sandbox from the command line:
 *   node out/sandbox/cli.js [--port 5599] [--status operational|degraded|major|maintenance] [--host 127.0.0.1] [--live <seconds>]
 *                           [--hostile[=<family>,<family>...]] [--opcodes=on|off] [--contract-call=on|off]
 *                           [--placement[=<workspace folder>]] [--quiet]
 * Prints `Sandbox listening on http://127.0.0.1:N` and serves until SIGINT/SIGTERM.
 */
import * as path from 'path';
import { SCENARIOS, type StatusScenario } from './statuspage';
import { startSandbox } from './server';
import { HOSTILE_FAMILIES, type HostileFamily, parseHostileHeader } from './hostile';

function usage(message: string): never {
  process.stderr.write(
    `${message}\nusage: node out/sandbox/cli.js [--port 5599] [--status ${SCENARIOS.join('|')}] [--host 127.0.0.1] [--live <seconds>] [--hostile[=${HOSTILE_FAMILIES.join(',')}]] [--opcodes=on|off] [--contract-call=on|off] [--placement[=<dir>]] [--quiet]\n`,
  );
  process.exit(2);
}

function parseArgs(argv: string[]): {
  port: number;
  host: string;
  status: StatusScenario;
  quiet: boolean;
  live?: number;
  hostile: HostileFamily[];
  opcodes: boolean;
  contractCall: boolean;
  placement?: boolean | { workspace: string };
} {
  let port = 5599;
  let opcodes = true;
  let contractCall = true;
  let hostile: HostileFamily[] = [];
  let live: number | undefined;
  let host = '127.0.0.1';
  let status: StatusScenario = 'operational';
  let quiet = false;
  let placement: boolean | { workspace: string } | undefined;
  for (let i = 0; i < argv.length; i++) {
    const [flag, inline] = argv[i].split(/=(.*)/s, 2);
    const value = (): string => {
      const v = inline ?? argv[++i];
      if (v === undefined) usage(`missing value for ${flag}`);
      return v;
    };
    switch (flag) {
      case '--port': {
        const v = value();
        if (!/^\d{1,5}$/.test(v) || Number(v) > 65535) usage(`invalid port: ${v}`);
        port = Number(v);
        break;
      }
      case '--host':
        host = value();
        break;
      case '--status': {
        const v = value();
        if (!SCENARIOS.includes(v as StatusScenario)) usage(`unknown status scenario: ${v}`);
        status = v as StatusScenario;
        break;
      }
      case '--live': {
        const v = value();
        if (!/^\d+(\.\d+)?$/.test(v) || !(Number(v) > 0) || Number(v) > 86400) usage(`invalid --live seconds: ${v}`);
        live = Number(v);
        break;
      }
      case '--quiet':
        quiet = true;
        break;
      case '--opcodes': {
        // --opcodes=off: the opcodes endpoint off, as a mirror node with its tracer disabled (never takes the next argument)
        const v = (inline ?? 'on').toLowerCase();
        if (v !== 'on' && v !== 'off') usage(`invalid --opcodes: ${v} (expected on or off)`);
        opcodes = v === 'on';
        break;
      }
      case '--contract-call': {
        // --contract-call=off: POST /contracts/call answers 501, as a mirror node without it
        const v = (inline ?? 'on').toLowerCase();
        if (v !== 'on' && v !== 'off') usage(`invalid --contract-call: ${v} (expected on or off)`);
        contractCall = v === 'on';
        break;
      }
      case '--placement':
        // bare --placement: the ledger; --placement=<dir>: also its Hardhat 2 project written there (never takes the next argument)
        if (inline === '') usage('missing folder for --placement=');
        placement = inline === undefined ? true : { workspace: path.resolve(inline) };
        break;
      case '--hostile': {
        // bare --hostile: every family; --hostile=text,paging-self: those (never takes the next argument)
        const r = parseHostileHeader(inline ?? 'all');
        if ('error' in r) usage(`invalid --hostile: ${r.error}`);
        else hostile = [...r.families];
        break;
      }
      case '--help':
      case '-h':
        usage('Hedera Explorer sandbox');
        break;
      default:
        usage(`unknown argument: ${argv[i]}`);
    }
  }
  return { port, host, status, quiet, live, hostile, opcodes, contractCall, placement };
}

async function main(): Promise<void> {
  const args = parseArgs(process.argv.slice(2));
  const sandbox = await startSandbox({
    port: args.port,
    host: args.host,
    statusScenario: args.status,
    liveSeconds: args.live,
    hostile: args.hostile,
    opcodes: args.opcodes,
    contractCall: args.contractCall,
    placement: args.placement,
    log: args.quiet ? undefined : (line) => process.stderr.write(`[sandbox] ${line}\n`),
  });
  process.stdout.write(`Sandbox listening on ${sandbox.url}\n`);
  if (args.placement)
    process.stderr.write(
      `[sandbox] placement ledger: GET ${sandbox.url}/__sandbox/health lists its transactions (notable.placement)${typeof args.placement === 'object' ? `; open ${args.placement.workspace} in VS Code` : ''}\n`,
    );
  if (args.hostile.length) process.stderr.write(`[sandbox] hostile: ${args.hostile.join(', ')}\n`);
  let stopping = false;
  const stop = (signal: string): void => {
    if (stopping) return;
    stopping = true;
    process.stderr.write(`[sandbox] ${signal}: closing\n`);
    sandbox.close().then(
      () => process.exit(0),
      () => process.exit(1),
    );
  };
  process.on('SIGINT', () => stop('SIGINT'));
  process.on('SIGTERM', () => stop('SIGTERM'));
}

main().catch((e: unknown) => {
  process.stderr.write(`Sandbox failed to start: ${(e as Error).message}\n`);
  process.exit(1);
});
