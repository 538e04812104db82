/**
 * The `hedera` debug adapter over the Debug Adapter Protocol: the session (src/features/debug/session.ts) served
 * in-process on a local socket and driven by @vscode/debugadapter-testsupport's DebugClient, request by request as VS
 * Code sends them, on the sandbox's real executions (the inspector's contracts, their committed build, the opcode
 * log with stack, memory and storage). Lines are found by searching the source text, never written as numbers.
 */
import * as assert from 'assert';
import * as fs from 'fs';
import * as net from 'net';
import * as path from 'path';
import { DebugClient } from '@vscode/debugadapter-testsupport';
import type { DebugProtocol } from '@vscode/debugprotocol';
import compiled from '../../sandbox/src/compiled/inspector.json';
import { type RealKey, inspectorRuns, opcodesOf } from '../../sandbox/src/mirror/executions';
import { DebugTrace, type FrameIdentity } from '../../src/api/debug/trace';
import type { FrameBuild } from '../../src/api/source/locate';
import type { SolcBuildLike } from '../../src/api/source/sourceMap';
import {
  HederaDebugSession,
  type HederaLaunchArguments,
  type LoadedTransaction,
} from '../../src/features/debug/session';

const ROOT = path.join(__dirname, '../../..');
const WORKSPACE = path.join(ROOT, 'test/workspace');
const BUILD_INFO = path.join(WORKSPACE, 'artifacts/build-info', `${compiled.buildInfoId}.json`);
const VAULT_SOL = 'contracts/inspector/Vault.sol';
const LEDGER_SOL = 'contracts/inspector/Ledger.sol';
const ACCOUNTING_SOL = 'contracts/inspector/Accounting.sol';
const PROXY_SOL = 'contracts/inspector/VaultProxy.sol';
const RULES_SOL = 'contracts/inspector/VaultRules.sol';
let build: SolcBuildLike & { input: { sources: Record<string, { content: string }> } };

function lineOf(sourceName: string, needle: string): number {
  const lines = build.input.sources[sourceName].content.split('\n');
  const hits = lines.map((l, i) => (l.includes(needle) ? i + 1 : 0)).filter(Boolean);
  assert.strictEqual(hits.length, 1, `"${needle}" is on exactly one line of ${sourceName}`);
  return hits[0];
}

/** Loads a sandbox scenario by its key (the launch configuration's `transaction`). */
async function load(args: HederaLaunchArguments): Promise<LoadedTransaction> {
  const key = args.transaction as RealKey;
  const run = (await inspectorRuns()).get(key);
  if (!run) throw new Error(`No transaction ${String(args.transaction)} in the sandbox.`);
  const opcodes = await opcodesOf(key, { stack: true, memory: true, storage: true });
  const byAddress = new Map(compiled.contracts.map((c) => [c.address.toLowerCase(), `${c.sourceName}:${c.name}`]));
  const resolve = (f: FrameIdentity): FrameBuild | undefined => {
    if (f.creation) return { build, contract: `${LEDGER_SOL}:Ledger`, part: 'creation' };
    const id = f.address ? byAddress.get(f.address) : undefined;
    return id ? { build, contract: id } : undefined;
  };
  const trace = new DebugTrace({ opcodes: opcodes.opcodes, actions: run.ex.actions, resolve, top: opcodes });
  return {
    trace,
    title: key,
    // the Vault's source is the workspace's file; the others are shown read-only from the build
    pathOf: (name) => (name === VAULT_SOL ? path.join(WORKSPACE, name) : undefined),
    sourceNameOf: (p) => (path.resolve(p) === path.join(WORKSPACE, VAULT_SOL) ? VAULT_SOL : undefined),
  };
}

describe('debug: the adapter over the Debug Adapter Protocol', function () {
  this.timeout(60000);
  let server: net.Server;
  let dc: DebugClient;

  before(async () => {
    build = JSON.parse(fs.readFileSync(BUILD_INFO, 'utf8'));
    server = net.createServer((socket) => {
      const session = new HederaDebugSession({ load });
      session.setRunAsServer(true);
      session.start(socket, socket);
    });
    await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
    await inspectorRuns();
  });
  after(() => new Promise<void>((r) => server.close(() => r())));

  beforeEach(async () => {
    dc = new DebugClient('node', 'unused', 'hedera');
    dc.defaultTimeout = 30000;
    await dc.start((server.address() as net.AddressInfo).port);
  });
  afterEach(() => dc.stop());

  /** Launches and waits for the first stop. */
  async function launch(
    transaction: string,
    options: { stopOnEntry?: boolean; breakpoints?: DebugProtocol.SetBreakpointsArguments[] } = {},
  ): Promise<DebugProtocol.StoppedEvent> {
    const stopped = dc.waitForEvent('stopped') as Promise<DebugProtocol.StoppedEvent>;
    await Promise.all([
      dc.initializeRequest({ adapterID: 'hedera', linesStartAt1: true, columnsStartAt1: true, pathFormat: 'path' }),
      dc.waitForEvent('initialized').then(async () => {
        for (const b of options.breakpoints ?? []) await dc.setBreakpointsRequest(b);
        await dc.configurationDoneRequest();
      }),
      dc.launchRequest({ transaction, stopOnEntry: options.stopOnEntry } as DebugProtocol.LaunchRequestArguments),
    ]);
    return stopped;
  }

  async function top(): Promise<DebugProtocol.StackFrame[]> {
    const st = await dc.stackTraceRequest({ threadId: 1 });
    return st.body.stackFrames;
  }

  async function step(request: () => Promise<unknown>): Promise<DebugProtocol.StoppedEvent> {
    const stopped = dc.waitForEvent('stopped') as Promise<DebugProtocol.StoppedEvent>;
    await request();
    return stopped;
  }

  it('stops on the revert: an exception with the decoded reason, the stack of internal calls, the reason in the Debug Console', async () => {
    const output: string[] = [];
    dc.on('output', (e: DebugProtocol.OutputEvent) => output.push(e.body.output));
    const stop = await launch('inspectorInternalRevert');
    assert.strictEqual(stop.body.reason, 'exception');
    assert.strictEqual(stop.body.text, 'Vault: move exceeds balance');
    const threads = await dc.threadsRequest();
    assert.strictEqual(threads.body.threads.length, 1);
    const frames = await top();
    assert.deepStrictEqual(
      frames.map((f) => f.name),
      ['Vault._debit', 'Vault._move', 'Vault.move'],
    );
    assert.strictEqual(frames[0].line, lineOf(VAULT_SOL, 'require(amount <= held'));
    assert.strictEqual(frames[0].source?.path, path.join(WORKSPACE, VAULT_SOL));
    assert.strictEqual(frames[1].line, lineOf(VAULT_SOL, '_debit(from, amount);'));
    assert.strictEqual(frames[2].line, lineOf(VAULT_SOL, '_move(msg.sender, to, amount);'));
    const info = await dc.exceptionInfoRequest({ threadId: 1 });
    assert.strictEqual(info.body.description, 'Vault: move exceeds balance');
    // the internal function's arguments and its local, read from the stack and said to be likely
    const scopes = (await dc.scopesRequest({ frameId: frames[0].id })).body.scopes;
    const likely = scopes.find((sc) => /^Locals \(likely/.test(sc.name));
    assert.ok(likely, scopes.map((sc) => sc.name).join(', '));
    const locals = (await dc.variablesRequest({ variablesReference: likely.variablesReference })).body.variables;
    assert.deepStrictEqual(locals.map((v) => [v.name, v.value]).slice(1), [
      ['amount', '30000000000'],
      ['held', '25000000000'],
    ]);
    const held = await dc.evaluateRequest({ expression: 'held', frameId: frames[0].id, context: 'watch' });
    assert.strictEqual(held.body.result, '25000000000');
    assert.ok(
      output.some((o) => o.includes('Reverted: Vault: move exceeds balance')),
      output.join(''),
    );
  });

  it("through a proxy: the proxy's frame and the implementation's function on the implementation's lines, run as the proxy", async () => {
    const stop = await launch('inspectorProxyRevert');
    assert.strictEqual(stop.body.reason, 'exception');
    assert.strictEqual(stop.body.text, 'LimitExceeded(limit=100000000000, amount=200000000000)');
    const frames = await top();
    assert.deepStrictEqual(
      frames.map((f) => [f.name, f.source?.name, f.line]),
      [
        ['VaultRules._check', 'VaultRules.sol', lineOf(RULES_SOL, 'revert LimitExceeded(')],
        ['VaultRules.request', 'VaultRules.sol', lineOf(RULES_SOL, 'left = _check(amount);')],
        ['VaultProxy.fallback', 'VaultProxy.sol', lineOf(PROXY_SOL, 'delegatecall(gas(), implementation')],
      ],
    );
    // the sources are the build's (read-only): the implementation's text under its own name
    const rules = frames[0].source;
    assert.ok(rules?.sourceReference);
    const text = await dc.sourceRequest({ source: rules, sourceReference: rules.sourceReference as number });
    assert.match(text.body.content, /contract VaultRules/);
    // the implementation's function: its argument by its ABI, the proxy's address and storage by its layout
    const vars = async (frameId: number, name: string) => {
      const scopes = (await dc.scopesRequest({ frameId })).body.scopes;
      const scope = scopes.find((sc) => sc.name === name);
      assert.ok(scope, `${name} in ${scopes.map((sc) => sc.name).join(', ')}`);
      return new Map(
        (await dc.variablesRequest({ variablesReference: scope.variablesReference })).body.variables.map((v) => [
          v.name,
          v.value,
        ]),
      );
    };
    const args = await vars(frames[1].id, 'Arguments');
    const proxy = compiled.contracts.find((c) => c.name === 'VaultProxy')?.address;
    const impl = compiled.contracts.find((c) => c.name === 'VaultRules')?.address;
    assert.deepStrictEqual(
      [args.get('amount'), args.get('address(this)'), args.get('code address')],
      ['200000000000', proxy, impl],
    );
    // at the revert, the limit read so far (in the proxy's storage) by the implementation's name
    assert.strictEqual((await vars(frames[0].id, 'Storage (read and written so far)')).get('limit'), '100000000000');
    const limit = await dc.evaluateRequest({ expression: 'limit', frameId: frames[0].id, context: 'watch' });
    assert.strictEqual(limit.body.result, '100000000000');
  });

  it("a library's revert: the custom error, the library's frame on its read-only line above the Vault's call", async () => {
    const stop = await launch('inspectorLibraryRevert');
    assert.strictEqual(stop.body.reason, 'exception');
    assert.match(stop.body.text ?? '', /^SettlementExceedsBalance\(/);
    const frames = await top();
    assert.deepStrictEqual(
      [frames[0].source?.name, frames[0].line],
      ['Accounting.sol', lineOf(ACCOUNTING_SOL, 'revert SettlementExceedsBalance(')],
    );
    assert.strictEqual(frames[0].source?.path, undefined, 'shown from the build, read-only');
    const caller = frames.find((f) => f.source?.name === 'Vault.sol');
    assert.ok(caller, frames.map((f) => f.name).join(', '));
    assert.strictEqual(
      caller.line,
      lineOf(VAULT_SOL, 'left = Accounting.settle(balances, ledger, msg.sender, to, amount);'),
    );
    const text = await dc.sourceRequest({
      source: frames[0].source,
      sourceReference: frames[0].source?.sourceReference as number,
    });
    assert.match(text.body.content, /library Accounting/);
  });

  it("a failed deployment: the constructor's revert, on the creation code's line", async () => {
    const stop = await launch('inspectorCreateRevert');
    assert.strictEqual(stop.body.reason, 'exception');
    assert.match(stop.body.text ?? '', /^NotAContract\(/);
    const frames = await top();
    assert.deepStrictEqual(
      [frames[0].name, frames[0].source?.name, frames[0].line],
      ['Ledger.constructor', 'Ledger.sol', lineOf(LEDGER_SOL, 'revert NotAContract(vault_)')],
    );
    // the revert is the constructor's first statement: Step Back goes to the creation code's start (no line, the
    // disassembly), Step Over comes back to the statement
    await step(() => dc.stepBackRequest({ threadId: 1 }));
    const back = await top();
    assert.deepStrictEqual(
      [back[0].name, back[0].source, Boolean(back[0].instructionPointerReference)],
      ['Ledger.constructor', undefined, true],
    );
    await step(() => dc.nextRequest({ threadId: 1 }));
    const again = await top();
    assert.deepStrictEqual([again[0].name, again[0].line], ['Ledger.constructor', frames[0].line]);
  });

  it('steps forward and back by statement, out of an internal call, and restarts a frame', async () => {
    await launch('inspectorDeepRevert', { stopOnEntry: true });
    let frames = await top();
    assert.strictEqual(frames[0].source, undefined, 'the first step (the dispatcher) has no line: disassembly');
    assert.ok(frames[0].instructionPointerReference);
    const seen: string[] = [];
    for (let k = 0; k < 8; k++) {
      await step(() => dc.stepInRequest({ threadId: 1 }));
      frames = await top();
      seen.push(`${frames[0].name}:${frames[0].line}`);
      if (frames[0].name === 'Vault._seed') break;
    }
    assert.strictEqual(frames[0].name, 'Vault._seed', seen.join(' '));
    const out = await step(() => dc.stepOutRequest({ threadId: 1 }));
    assert.strictEqual(out.body.reason, 'step');
    frames = await top();
    assert.strictEqual(frames[0].name, 'Vault.settle');
    assert.strictEqual(frames[0].line, lineOf(VAULT_SOL, 'bytes32 id = _seed();'));
    // Step Back is Step Over backwards: over _seed, to the statement before
    await step(() => dc.stepBackRequest({ threadId: 1 }));
    frames = await top();
    assert.strictEqual(frames[0].name, 'Vault.settle');
    assert.strictEqual(frames[0].line, lineOf(VAULT_SOL, 'uint256 recorded = ledger.entries(to);'));
    const next = await step(() => dc.nextRequest({ threadId: 1 }));
    assert.strictEqual(next.body.reason, 'step');
    frames = await top();
    assert.strictEqual(frames[0].line, lineOf(VAULT_SOL, 'bytes32 id = _seed();'), 'over: the next statement');
    // Restart Frame: two statements into the internal call, back to its first statement
    await step(() => dc.stepInRequest({ threadId: 1 }));
    const entry = await top();
    assert.strictEqual(entry[0].name, 'Vault._seed');
    const last = lineOf(VAULT_SOL, 'return abi.decode(out, (bytes32));');
    frames = entry;
    for (let k = 0; k < 6 && frames[0].line !== last; k++) {
      await step(() => dc.nextRequest({ threadId: 1 }));
      frames = await top();
    }
    assert.deepStrictEqual([frames[0].name, frames[0].line], ['Vault._seed', last]);
    const restarted = await step(() => dc.restartFrameRequest({ frameId: frames[0].id }));
    assert.strictEqual(restarted.body.reason, 'restart');
    const after = await top();
    assert.deepStrictEqual(
      [after[0].name, after[0].line, after[0].instructionPointerReference],
      [entry[0].name, entry[0].line, entry[0].instructionPointerReference],
      'back where the call entered the function',
    );
    assert.strictEqual(after[1].name, 'Vault.settle', 'the caller is unchanged');
  });

  it('breakpoints in several files: verified where a statement ran, Continue and Reverse Continue between them, the revert last', async () => {
    const record = lineOf(ACCOUNTING_SOL, 'ledger.record(to, amount);');
    const require = lineOf(LEDGER_SOL, 'require(amount <= 1e24');
    const paused = lineOf(VAULT_SOL, 'paused = paused_;');
    const settle = lineOf(VAULT_SOL, 'uint256 recorded = ledger.entries(to);');
    // the compiled sources that are not the workspace's are named by the adapter: a first stop gives them
    await launch('inspectorDeepRevert', {
      breakpoints: [
        { source: { path: path.join(WORKSPACE, VAULT_SOL) }, breakpoints: [{ line: paused }, { line: settle }] },
      ],
    });
    let frames = await top();
    assert.strictEqual(frames[0].line, settle);
    const loaded = await dc.customRequest('loadedSources');
    const sources = (loaded.body as DebugProtocol.LoadedSourcesResponse['body']).sources;
    const accounting = sources.find((s) => s.name === 'Accounting.sol');
    const ledger = sources.find((s) => s.name === 'Ledger.sol');
    assert.ok(accounting?.sourceReference && ledger?.sourceReference);
    const text = await dc.sourceRequest({ source: accounting, sourceReference: accounting.sourceReference as number });
    assert.match(text.body.content, /library Accounting/);
    const a = await dc.setBreakpointsRequest({ source: accounting, breakpoints: [{ line: record }] });
    const l = await dc.setBreakpointsRequest({ source: ledger, breakpoints: [{ line: require }, { line: 1 }] });
    assert.deepStrictEqual(
      [...a.body.breakpoints, ...l.body.breakpoints].map((b) => b.verified),
      [true, true, false],
    );
    let stop = await step(() => dc.continueRequest({ threadId: 1 }));
    assert.strictEqual(stop.body.reason, 'breakpoint');
    frames = await top();
    assert.strictEqual(frames[0].line, record);
    assert.strictEqual(frames[0].source?.name, 'Accounting.sol');
    stop = await step(() => dc.continueRequest({ threadId: 1 }));
    assert.strictEqual(stop.body.reason, 'breakpoint');
    frames = await top();
    assert.strictEqual(frames[0].line, require);
    assert.strictEqual(frames[0].source?.name, 'Ledger.sol');
    assert.ok(frames.length >= 3, 'the Ledger, the library and the Vault');
    stop = await step(() => dc.continueRequest({ threadId: 1 }));
    assert.strictEqual(stop.body.reason, 'exception');
    assert.strictEqual(stop.body.text, 'Ledger: amount too large');
    stop = await step(() => dc.reverseContinueRequest({ threadId: 1 }));
    assert.strictEqual(stop.body.reason, 'breakpoint');
    frames = await top();
    assert.strictEqual(frames[0].line, require);
    await step(() => dc.reverseContinueRequest({ threadId: 1 }));
    frames = await top();
    assert.strictEqual(frames[0].line, record);
  });

  it('a conditional breakpoint on an argument name', async () => {
    const record = lineOf(ACCOUNTING_SOL, 'ledger.record(to, amount);');
    await launch('inspectorDeepRevert', { stopOnEntry: true });
    const sources = ((await dc.customRequest('loadedSources')).body as DebugProtocol.LoadedSourcesResponse['body'])
      .sources;
    const accounting = sources.find((s) => s.name === 'Accounting.sol');
    assert.ok(accounting);
    await dc.setBreakpointsRequest({ source: accounting, breakpoints: [{ line: record, condition: 'amount < 5' }] });
    let stop = await step(() => dc.continueRequest({ threadId: 1 }));
    assert.strictEqual(stop.body.reason, 'exception', 'the condition does not hold: on to the revert');
    await dc.setBreakpointsRequest({
      source: accounting,
      breakpoints: [{ line: record, condition: 'amount == 1500000000000000000000000' }],
    });
    stop = await step(() => dc.reverseContinueRequest({ threadId: 1 }));
    assert.strictEqual(stop.body.reason, 'breakpoint');
  });

  it('a conditional breakpoint on a storage name (the value read so far)', async () => {
    const settle = lineOf(VAULT_SOL, 'left = Accounting.settle(balances, ledger, msg.sender, to, amount);');
    const source = { path: path.join(WORKSPACE, VAULT_SOL) };
    let stop = await launch('inspectorDeepRevert', {
      breakpoints: [
        { source, breakpoints: [{ line: settle, condition: 'ledger == 0x0000000000000000000000000000000000000001' }] },
      ],
    });
    assert.strictEqual(stop.body.reason, 'exception', 'the ledger is another address: on to the revert');
    // the revert is in the Ledger's frame: the Vault's frame below it has the name
    const vault = (await top()).find((f) => f.name === 'Vault.settle');
    assert.ok(vault);
    const ledger = (await dc.evaluateRequest({ expression: 'ledger', frameId: vault.id, context: 'watch' })).body
      .result;
    assert.match(ledger, /^0x[0-9a-f]{40}$/i);
    await dc.setBreakpointsRequest({ source, breakpoints: [{ line: settle, condition: `ledger == ${ledger}` }] });
    stop = await step(() => dc.reverseContinueRequest({ threadId: 1 }));
    assert.strictEqual(stop.body.reason, 'breakpoint');
    assert.strictEqual((await top())[0].line, settle);
  });

  it('scopes, variables and evaluate: the arguments, msg, storage by name, the EVM stack and memory', async () => {
    const settle = lineOf(VAULT_SOL, 'left = Accounting.settle(balances, ledger, msg.sender, to, amount);');
    await launch('inspectorDeepRevert', {
      breakpoints: [{ source: { path: path.join(WORKSPACE, VAULT_SOL) }, breakpoints: [{ line: settle }] }],
    });
    const frames = await top();
    assert.strictEqual(frames[0].line, settle);
    const scopes = (await dc.scopesRequest({ frameId: frames[0].id })).body.scopes;
    assert.deepStrictEqual(
      scopes.map((s) => s.name),
      ['Arguments', 'Locals (likely: read from the stack)', 'Storage (read and written so far)', 'EVM'],
    );
    const vars = async (ref: number) => (await dc.variablesRequest({ variablesReference: ref })).body.variables;
    // the return variable and the two locals declared above the line, read from the stack
    const locals = await vars(scopes[1].variablesReference);
    assert.deepStrictEqual(
      locals.map((v) => [v.name, v.type]),
      [
        ['left', 'uint256'],
        ['recorded', 'uint256'],
        ['id', 'bytes32'],
      ],
    );
    assert.strictEqual(locals[0].value, '0');
    assert.match(locals[2].value, /^0x[0-9a-f]{64}$/);
    const args = await vars(scopes[0].variablesReference);
    assert.deepStrictEqual(
      args.slice(0, 2).map((v) => [v.name, v.value]),
      [
        ['to', args[0].value],
        ['amount', '1500000000000000000000000'],
      ],
    );
    assert.match(args.find((v) => v.name === 'msg.sender')?.value ?? '', /^0x[0-9a-f]{40}$/);
    const storage = await vars(scopes[2].variablesReference);
    assert.ok(
      storage.some((v) => v.name === 'ledger'),
      storage.map((v) => v.name).join(', '),
    );
    const evm = await vars(scopes[3].variablesReference);
    const stack = evm.find((v) => v.name === 'stack');
    assert.ok(stack && stack.variablesReference > 0);
    const items = await vars(stack.variablesReference);
    assert.ok(items.length > 0);
    // memory: rows of 32 bytes, and the same bytes for VS Code's memory (hex) view through readMemory
    const memory = evm.find((v) => v.name === 'memory');
    assert.ok(memory && memory.variablesReference > 0 && memory.memoryReference, JSON.stringify(memory));
    const rows = await vars(memory.variablesReference);
    const hex = rows.map((r) => r.value.replace(/^0x/, '')).join('');
    assert.strictEqual(hex.length, rows.length * 64);
    const read = async (offset: number, count: number) =>
      (
        (await dc.send('readMemory', {
          memoryReference: memory.memoryReference,
          offset,
          count,
        })) as DebugProtocol.ReadMemoryResponse
      ).body;
    const all = await read(0, rows.length * 32 + 16);
    assert.strictEqual(Buffer.from(all?.data ?? '', 'base64').toString('hex'), hex);
    assert.strictEqual(all?.unreadableBytes, 16, 'the bytes past the end of memory are unreadable');
    const part = await read(33, 5);
    assert.strictEqual(part?.address, '0x21');
    assert.strictEqual(Buffer.from(part?.data ?? '', 'base64').toString('hex'), hex.slice(66, 76));
    const unknown = (
      (await dc.send('readMemory', {
        memoryReference: 'memory@999999999',
        count: 8,
      })) as DebugProtocol.ReadMemoryResponse
    ).body;
    assert.deepStrictEqual([unknown?.data, unknown?.unreadableBytes], [undefined, 8]);
    const e = await dc.evaluateRequest({ expression: 'amount', frameId: frames[0].id, context: 'watch' });
    assert.strictEqual(e.body.result, '1500000000000000000000000');
    const s0 = await dc.evaluateRequest({ expression: 'stack[0]', frameId: frames[0].id, context: 'watch' });
    assert.strictEqual(s0.body.result, items[0].value);
    const led = await dc.evaluateRequest({ expression: 'ledger', frameId: frames[0].id, context: 'hover' });
    assert.match(led.body.result, /^0x[0-9a-f]{40}$/i);
    await assert.rejects(dc.evaluateRequest({ expression: 'nothing', frameId: frames[0].id, context: 'watch' }));
  });

  it("Return values: at a frame's RETURN, its recorded return data decoded by its function's outputs; at no other step", async () => {
    const seed = lineOf(VAULT_SOL, 'bytes32 id = _seed();');
    await launch('inspectorDeepRevert', {
      breakpoints: [{ source: { path: path.join(WORKSPACE, VAULT_SOL) }, breakpoints: [{ line: seed }] }],
    });
    let frames = await top();
    assert.strictEqual(frames[0].line, seed);
    const scopeNames = async (frameId: number) =>
      (await dc.scopesRequest({ frameId })).body.scopes.map((sc) => sc.name);
    assert.ok(!(await scopeNames(frames[0].id)).includes('Return values'), 'the Vault returns nothing here');
    // back by instruction, out of the Vault's decoding of the answer, to the last step of Ledger.entries: its RETURN
    for (let k = 0; k < 200 && !frames[0].name.startsWith('Ledger.'); k++) {
      await step(() => dc.stepBackRequest({ threadId: 1, granularity: 'instruction' }));
      frames = await top();
    }
    assert.strictEqual(frames[0].name, 'Ledger.entries');
    const ip = frames[0].instructionPointerReference as string;
    const d = await dc.disassembleRequest({ memoryReference: ip, instructionOffset: 0, instructionCount: 1 });
    assert.strictEqual(d.body?.instructions[0].instruction, 'RETURN');
    const scopes = (await dc.scopesRequest({ frameId: frames[0].id })).body.scopes;
    const returned = scopes.find((sc) => sc.name === 'Return values');
    assert.ok(returned, scopes.map((sc) => sc.name).join(', '));
    const values = (await dc.variablesRequest({ variablesReference: returned.variablesReference })).body.variables;
    // entries(depositor): the depositor's deposit recorded by the Ledger before (inspectorSuccess, 250 ℏ)
    assert.deepStrictEqual(
      values.map((v) => [v.type, v.value]),
      [['uint256', '25000000000']],
    );
    // one instruction earlier the frame has not returned yet
    await step(() => dc.stepBackRequest({ threadId: 1, granularity: 'instruction' }));
    frames = await top();
    assert.strictEqual(frames[0].name, 'Ledger.entries');
    assert.ok(!(await scopeNames(frames[0].id)).includes('Return values'));
  });

  it('disassemble: the frame code around the instruction pointer, with lines where the source map has them', async () => {
    await launch('inspectorInternalRevert');
    const frames = await top();
    const ip = frames[0].instructionPointerReference;
    assert.ok(ip);
    const d = await dc.disassembleRequest({
      memoryReference: ip,
      instructionOffset: -5,
      instructionCount: 10,
      resolveSymbols: true,
    });
    const list = d.body?.instructions ?? [];
    assert.strictEqual(list.length, 10);
    assert.strictEqual(list[5].address, ip);
    assert.strictEqual(list[5].instruction, 'REVERT');
    assert.ok(list.some((i) => i.line !== undefined));
    // one step back by instruction: the operation before the revert
    await step(() => dc.stepBackRequest({ threadId: 1, granularity: 'instruction' }));
    const back = await top();
    assert.notStrictEqual(back[0].instructionPointerReference, ip);
  });
});
