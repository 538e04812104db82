/**
 * The debugging model (src/api/debug) on real executions: the sandbox's scenarios (the inspector's contracts compiled
 * by solc into the committed build info, executed in @ethereumjs/evm and recorded as the mirror node's opcode log,
 * with stack, memory and storage) indexed into steps, frames, lines and statements. Every expected line is found by
 * searching the source text, never written as a number.
 */
import * as assert from 'assert';
import * as fs from 'fs';
import * as path from 'path';
import compiled from '../../sandbox/src/compiled/inspector.json';
import { DEPOSIT, MOVE_AMOUNT } from '../../sandbox/src/mirror/scenarios';
import { type RealKey, inspectorRuns, opcodesOf } from '../../sandbox/src/mirror/executions';
import {
  argumentsOf,
  eventsUntil,
  evmVariables,
  functionOf,
  messageOf,
  returnValuesOf,
  revertReason,
  storageVariables,
} from '../../src/api/debug/state';
import { DebugTrace, type FrameIdentity } from '../../src/api/debug/trace';
import { localsOf } from '../../src/api/debug/locals';
import type { SolcBuildLike } from '../../src/api/source/sourceMap';
import type { FrameBuild } from '../../src/api/source/locate';

const ROOT = path.join(__dirname, '../../..');
const BUILD_INFO = path.join(ROOT, 'test/workspace/artifacts/build-info', `${compiled.buildInfoId}.json`);
const VAULT_SOL = 'contracts/inspector/Vault.sol';
const LEDGER_SOL = 'contracts/inspector/Ledger.sol';
const ACCOUNTING_SOL = 'contracts/inspector/Accounting.sol';
const PROXY_SOL = 'contracts/inspector/VaultProxy.sol';
const RULES_SOL = 'contracts/inspector/VaultRules.sol';
let build: SolcBuildLike & { input: { sources: Record<string, { content: string }> } };

/** The 1-based line of the one line of a source that contains `needle`. */
function lineOf(sourceName: string, needle: string): number {
  const lines = build.input.sources[sourceName].content.split('\n');
  const hits = lines.map((l, i) => (l.includes(needle) ? i + 1 : 0)).filter(Boolean);
  assert.strictEqual(hits.length, 1, `"${needle}" is on exactly one line of ${sourceName}`);
  return hits[0];
}

async function traceOf(key: RealKey, full = true, exactSteps?: number): Promise<DebugTrace> {
  const run = (await inspectorRuns()).get(key);
  assert.ok(run, key);
  const opcodes = full ? await opcodesOf(key, { stack: true, memory: true, storage: true }) : run.ex.opcodes;
  const byAddress = new Map(compiled.contracts.map((c) => [c.address.toLowerCase(), `${c.sourceName}:${c.name}`]));
  const resolve = (f: FrameIdentity): FrameBuild | undefined => {
    if (f.creation) return { build, contract: 'contracts/inspector/Ledger.sol:Ledger', part: 'creation' };
    const id = f.address ? byAddress.get(f.address) : undefined;
    return id ? { build, contract: id } : undefined;
  };
  return new DebugTrace({ opcodes: opcodes.opcodes, actions: run.ex.actions, resolve, top: opcodes, exactSteps });
}

describe('debug: the model on real executions', function () {
  this.timeout(60000);
  before(() => {
    build = JSON.parse(fs.readFileSync(BUILD_INFO, 'utf8'));
  });

  it('a revert two internal calls deep: one frame, the internal calls by name, the failing require placed as revert to source places it', async () => {
    const t = await traceOf('inspectorInternalRevert');
    assert.strictEqual(t.frames.length, 1);
    assert.ok(t.failing > 0 && t.failing === t.count - 1);
    assert.deepStrictEqual(t.failurePlace, { exact: true });
    const p = t.place(t.failing);
    assert.ok(p);
    assert.strictEqual(p.location.sourceName, VAULT_SOL);
    assert.strictEqual(p.location.line, lineOf(VAULT_SOL, 'require(amount <= held'));
    const stack = t.stackAt(t.failing);
    assert.deepStrictEqual(
      stack.map((s) => s.call.name ?? (s.call.parent ? '?' : 'root')),
      ['_debit', '_move', 'move', 'root'],
    );
    // each caller's step is on its call line
    assert.strictEqual(t.place(stack[1].step)?.location.line, lineOf(VAULT_SOL, '_debit(from, amount);'));
    assert.strictEqual(t.place(stack[2].step)?.location.line, lineOf(VAULT_SOL, '_move(msg.sender, to, amount);'));
    assert.strictEqual(revertReason(t), 'Vault: move exceeds balance');
  });

  it("a function's parameters and local variables read from the stack as the legacy code generator lays them out, said to be inferred", async () => {
    const t = await traceOf('inspectorInternalRevert');
    const [debit, move, external] = t.stackAt(t.failing);
    const from = t.frames[0].from;
    assert.ok(from);
    const names = (vs: readonly { name: string; value: string }[]) => vs.map((v) => [v.name, v.value]);
    // in _debit at the failing require: its arguments, and `held`, declared on the line above
    const inDebit = localsOf(t, debit.call, debit.step);
    assert.ok(inDebit && !inDebit.note, JSON.stringify(inDebit));
    assert.deepStrictEqual(names(inDebit.params), [
      ['from', from],
      ['amount', MOVE_AMOUNT.toString()],
    ]);
    assert.deepStrictEqual(names(inDebit.locals), [['held', DEPOSIT.toString()]]);
    // _move at its call of _debit: its three arguments, no local
    const inMove = localsOf(t, move.call, move.step);
    assert.ok(inMove && !inMove.note, JSON.stringify(inMove));
    assert.deepStrictEqual(
      inMove.params.map((v) => v.name),
      ['from', 'to', 'amount'],
    );
    assert.strictEqual(inMove.params[2].value, MOVE_AMOUNT.toString());
    // the external function: its arguments are the call data's (exact), held against the stack and not repeated
    const exact = argumentsOf(t, external.call.frame);
    assert.ok(exact);
    assert.deepStrictEqual(localsOf(t, external.call, external.step, exact), { params: [], returns: [], locals: [] });
    const wrong = exact.map((v) => (v.name === 'amount' ? { ...v, value: '1' } : v));
    assert.match(localsOf(t, external.call, external.step, wrong)?.note ?? '', /does not hold the arguments/);
    // before `held` is declared (the first step of _debit on a line): not yet on the stack
    let first = debit.call.entry;
    while (t.callOf[first] !== debit.call.id || !t.place(first)) first++;
    assert.strictEqual(t.place(first)?.location.line, lineOf(VAULT_SOL, 'uint256 held = balances[from];'));
    assert.deepStrictEqual(localsOf(t, debit.call, first)?.locals, []);
    // a step whose source is not the called function's own (code inlined into a caller): nothing inferred
    const name = debit.call.name;
    try {
      debit.call.name = '_move';
      assert.match(localsOf(t, debit.call, debit.step)?.note ?? '', /inlined/);
    } finally {
      debit.call.name = name;
    }
    // a viaIR build: nothing inferred
    const ir = { ...build, input: { ...build.input, settings: { viaIR: true } } };
    const frame = debit.call.frame;
    const saved = frame.build;
    try {
      frame.build = saved && { ...saved, build: ir };
      assert.match(localsOf(t, debit.call, debit.step)?.note ?? '', /viaIR/);
    } finally {
      frame.build = saved;
    }
  });

  it('a replay that diverged: no step at or after the divergence is on a line, nor is the failure; the steps before are', async () => {
    const whole = await traceOf('inspectorInternalRevert');
    const placed = [...Array(whole.count).keys()].filter((i) => whole.place(i));
    // the divergence halfway through the steps that have a line
    const cut = placed[Math.floor(placed.length / 2)];
    const t = await traceOf('inspectorInternalRevert', true, cut);
    assert.strictEqual(t.count, whole.count);
    for (let i = 0; i < t.count; i++)
      if (i < cut) assert.deepStrictEqual(t.place(i), whole.place(i), `step ${i} before the divergence`);
      else assert.strictEqual(t.place(i), undefined, `step ${i} after the divergence has no line`);
    assert.strictEqual(t.failing, whole.failing);
    assert.ok(t.failurePlace && !t.failurePlace.exact && /diverged/.test(t.failurePlace.why));
    const line = lineOf(VAULT_SOL, 'require(amount <= held');
    assert.ok(whole.entriesOn(VAULT_SOL, line).length > 0);
    assert.deepStrictEqual(t.entriesOn(VAULT_SOL, line), [], 'no breakpoint stops after the divergence');
    // stepping forward from the last exact line goes to the failing step (shown in the disassembly), not to a line
    assert.strictEqual(t.move(placed[placed.indexOf(cut) - 1], 'into'), t.failing);
  });

  it("return values: at the step that ends a frame, its recorded return data decoded by the function's ABI outputs; nowhere else", async () => {
    const run = (await inspectorRuns()).get('inspectorSuccess');
    assert.ok(run);
    const opcodes = await opcodesOf('inspectorSuccess', { stack: true, memory: true, storage: true });
    const vault = compiled.contracts.find((c) => c.name === 'Vault');
    assert.ok(vault);
    const resolve = (f: FrameIdentity): FrameBuild | undefined =>
      f.address === vault.address.toLowerCase() ? { build, contract: `${VAULT_SOL}:Vault` } : undefined;
    // the top call's record as if it were `audit(who)` answered with (recorded, held) = (7, 9): the Vault's view with
    // two named outputs (none of the sandbox's recorded calls returns data: each ends in a STOP or a revert)
    const word = (n: number) => n.toString(16).padStart(64, '0');
    const who = `${'0'.repeat(24)}${'ab'.repeat(20)}`;
    const abi = (
      build.output as {
        contracts: Record<string, Record<string, { evm: { methodIdentifiers: Record<string, string> } }>>;
      }
    ).contracts[VAULT_SOL].Vault.evm.methodIdentifiers;
    const actions = run.ex.actions.map((a, i) =>
      i === 0
        ? {
            ...a,
            input: `0x${abi['audit(address)']}${who}`,
            result_data: `0x${word(7)}${word(9)}`,
            result_data_type: 'OUTPUT',
          }
        : a,
    );
    const t = new DebugTrace({ opcodes: opcodes.opcodes, actions, resolve, top: opcodes });
    const top = t.frames[0];
    assert.strictEqual(t.input.opcodes[top.last].op, 'STOP');
    assert.deepStrictEqual(
      returnValuesOf(t, top, top.last)?.map((v) => [v.name, v.value, v.type]),
      [
        ['recorded', '7', 'uint256'],
        ['held', '9', 'uint256'],
      ],
    );
    assert.strictEqual(returnValuesOf(t, top, top.last - 1), undefined, 'not before the RETURN');
    // a call that reverted returns nothing
    const failed = await traceOf('inspectorInternalRevert');
    assert.strictEqual(returnValuesOf(failed, failed.frames[0], failed.frames[0].last), undefined);
  });

  it('steps by statement: into enters internal functions, over skips them, out returns to the caller; back retraces', async () => {
    const t = await traceOf('inspectorDeepRevert');
    const lineAt = (s: number): string => {
      const p = t.place(s);
      return p ? `${p.location.sourceName.split('/').pop()}:${p.location.line}` : '-';
    };
    const seedCall = t.entriesOn(VAULT_SOL, lineOf(VAULT_SOL, 'bytes32 id = _seed();'))[0];
    assert.ok(seedCall > 0, 'the line calling _seed is a statement start');
    const into = t.move(seedCall, 'into');
    assert.strictEqual(t.calls[t.callOf[into]].name, '_seed', 'into: inside _seed');
    assert.ok(t.level(into) > t.level(seedCall));
    const over = t.move(seedCall, 'over');
    assert.ok(t.level(over) <= t.level(seedCall), 'over: not inside _seed');
    assert.ok(over > into);
    for (let s = seedCall + 1; s < over; s++)
      assert.ok(!t.entry[s] || t.level(s) > t.level(seedCall) || t.place(s)?.line === t.place(seedCall)?.line);
    const out = t.move(into, 'out');
    assert.ok(t.level(out) < t.level(into) && out > into);
    assert.strictEqual(lineAt(out), `Vault.sol:${lineOf(VAULT_SOL, 'bytes32 id = _seed();')}`);
    // back: from the statement after, over the internal call to the line that called it
    const back = t.move(over, 'over', true);
    assert.ok(back < over && t.level(back) <= t.level(over));
    assert.ok(back >= seedCall, `back to the _seed line or after it (${lineAt(back)})`);
    const backInto = t.move(out, 'into', true);
    assert.ok(backInto < out && t.level(backInto) > t.level(out), 'back into: the last statement of _seed');
    // into the library (a DELEGATECALL frame), then the Ledger (a CALL from the library)
    const lines: string[] = [];
    for (let s = 0, k = 0; k < 200 && s < t.count - 1; k++) {
      s = t.move(s, 'into');
      lines.push(lineAt(s));
    }
    assert.ok(lines.includes(`Accounting.sol:${lineOf(ACCOUNTING_SOL, 'ledger.record(to, amount);')}`));
    assert.ok(lines.includes(`Ledger.sol:${lineOf(LEDGER_SOL, 'require(amount <= 1e24')}`), lines.join(' '));
    assert.strictEqual(t.move(0, 'over', true), 0, 'back from the start stays at the start');
  });

  it('breakpoints in several files, forward and backward (Reverse Continue), only at statement starts', async () => {
    const t = await traceOf('inspectorDeepRevert');
    const record = t.lineOf(ACCOUNTING_SOL, lineOf(ACCOUNTING_SOL, 'ledger.record(to, amount);'));
    const require = t.lineOf(LEDGER_SOL, lineOf(LEDGER_SOL, 'require(amount <= 1e24'));
    assert.ok(record !== undefined && require !== undefined);
    const lines = new Set([record, require]);
    const a = t.findBreak(0, lines);
    assert.ok(a !== undefined);
    assert.strictEqual(t.place(a)?.location.sourceName, ACCOUNTING_SOL);
    const b = t.findBreak(a, lines);
    assert.ok(b !== undefined && b > a);
    assert.strictEqual(t.place(b)?.location.sourceName, LEDGER_SOL);
    const c = t.findBreak(b, lines);
    assert.ok(c === undefined || t.place(c)?.location.sourceName !== LEDGER_SOL, 'the Ledger line is entered once');
    assert.strictEqual(
      t.findBreak(t.count - 1, lines, true, (s) => t.place(s)?.location.sourceName === LEDGER_SOL),
      b,
    );
    assert.strictEqual(t.findBreak(b, lines, true), a);
    assert.strictEqual(t.findBreak(a, lines, true), undefined);
    // a line the execution never reached has no steps
    assert.deepStrictEqual(t.entriesOn(VAULT_SOL, lineOf(VAULT_SOL, 'paused = paused_;')), []);
  });

  it('variables: msg.sender and msg.value through a DELEGATECALL, the arguments by the ABI, the stack, memory, gas, storage by name', async () => {
    const t = await traceOf('inspectorDeepRevert');
    const run = (await inspectorRuns()).get('inspectorDeepRevert');
    const top = t.frames[0];
    const args = argumentsOf(t, top);
    assert.deepStrictEqual(
      args?.map((a) => a.name),
      ['to', 'amount'],
    );
    assert.strictEqual(args?.[1].value, '1500000000000000000000000');
    const lib = t.frames.find((f) => f.operation === 'DELEGATECALL');
    assert.ok(lib);
    const sender = `0x${run?.from.evm.replace(/^0x/, '').toLowerCase()}`;
    assert.strictEqual(messageOf(top).find((v) => v.name === 'msg.sender')?.value, sender);
    assert.strictEqual(
      messageOf(lib).find((v) => v.name === 'msg.sender')?.value,
      sender,
      "the library runs as the Vault's caller",
    );
    const ledger = t.frames.find((f) => f.depth === 2);
    assert.ok(ledger);
    assert.strictEqual(
      messageOf(ledger).find((v) => v.name === 'msg.sender')?.value,
      top.address,
      'the Ledger is called by the Vault',
    );
    // at the Ledger's require: storage so far holds the Vault's balances, named by the Vault's layout in the Vault's frame
    const at = t.entriesOn(ACCOUNTING_SOL, lineOf(ACCOUNTING_SOL, 'ledger.record(to, amount);'))[0];
    const storage = storageVariables(t, at);
    assert.ok(storage && storage.length > 0);
    assert.ok(
      storage.some((v) => v.name.startsWith('balances[')),
      storage.map((v) => v.name).join(', '),
    );
    const evm = evmVariables(t, at);
    const stack = evm.find((v) => v.name === 'stack');
    assert.ok(stack?.children && stack.children.length > 0);
    assert.match(stack.children[0].value, /^0x[0-9a-f]{64}$/);
    assert.ok(evm.find((v) => v.name === 'memory')?.children?.length);
    assert.ok(BigInt(evm.find((v) => v.name === 'gas left')?.value ?? '0') > 0n);
    // without stack and memory in the log (the mirror node's default): said, not guessed
    const bare = await traceOf('inspectorDeepRevert', false);
    const bareEvm = evmVariables(bare, at);
    assert.match(bareEvm.find((v) => v.name === 'stack')?.value ?? '', /not in the step trace/);
    assert.strictEqual(storageVariables(bare, at), undefined);
  });

  it('events emitted so far, decoded by the ABI, and the revert reason of a second contract', async () => {
    const t = await traceOf('inspectorLedgerRevert');
    const events = eventsUntil(t, t.failing);
    assert.deepStrictEqual(
      events.map((e) => e.text.replace(/\(.*/, '')),
      ['Deposited', 'Transfer'],
    );
    assert.match(events[0].text, /amount=1500000000000000000000000/);
    assert.strictEqual(revertReason(t), 'Ledger: amount too large');
    assert.strictEqual(t.place(t.failing)?.location.sourceName, LEDGER_SOL);
  });

  it('a failed deployment: the creation code placed, the custom error decoded', async () => {
    const t = await traceOf('inspectorCreateRevert');
    assert.strictEqual(t.frames[0].creation !== undefined, true);
    assert.strictEqual(t.place(t.failing)?.location.line, lineOf(LEDGER_SOL, 'revert NotAContract(vault_)'));
    assert.match(revertReason(t) ?? '', /^NotAContract\(/);
    assert.strictEqual(functionOf(t, t.frames[0]), 'constructor');
  });

  it('a library revert: the custom error by name, the library frame between the Vault and nothing', async () => {
    const t = await traceOf('inspectorLibraryRevert');
    const f = t.frames[t.frameOf[t.failing]];
    assert.strictEqual(f.operation, 'DELEGATECALL');
    assert.match(revertReason(t) ?? '', /^SettlementExceedsBalance\(/);
    const stack = t.stackAt(t.failing);
    assert.strictEqual(stack[stack.length - 1].call.frame.id, 0);
    assert.ok(stack.some((s) => s.call.frame === f));
  });

  it("a revert behind a proxy: the implementation's code by the DELEGATECALL's code address, run as the proxy, its storage named by the implementation's layout", async () => {
    const t = await traceOf('inspectorProxyRevert');
    const [proxy, impl] = t.frames;
    assert.deepStrictEqual(
      [proxy.operation, proxy.build?.contract, impl.operation, impl.build?.contract],
      ['CALL', `${PROXY_SOL}:VaultProxy`, 'DELEGATECALL', `${RULES_SOL}:VaultRules`],
    );
    // the failure placed as revert to source places it: in the implementation, exactly
    assert.deepStrictEqual(t.failurePlace, { exact: true });
    assert.strictEqual(t.frameOf[t.failing], impl.id);
    assert.deepStrictEqual(
      [t.place(t.failing)?.location.sourceName, t.place(t.failing)?.location.line],
      [RULES_SOL, lineOf(RULES_SOL, 'revert LimitExceeded(')],
    );
    assert.strictEqual(revertReason(t), 'LimitExceeded(limit=100000000000, amount=200000000000)');
    // the proxy's own code is its fallback (the implementation's selector is none of its functions), on its line
    assert.deepStrictEqual([functionOf(t, proxy), functionOf(t, impl)], ['fallback', 'request']);
    assert.strictEqual(argumentsOf(t, proxy), undefined, 'a fallback has no arguments');
    assert.deepStrictEqual(
      argumentsOf(t, impl)?.map((v) => [v.name, v.value]),
      [['amount', '200000000000']],
    );
    const stack = t.stackAt(t.failing);
    assert.deepStrictEqual(
      stack.map((s) => [s.call.frame.id, s.call.name ?? null, t.place(s.step)?.location.line ?? null]),
      [
        [impl.id, '_check', lineOf(RULES_SOL, 'revert LimitExceeded(')],
        [impl.id, null, lineOf(RULES_SOL, 'left = _check(amount);')],
        [proxy.id, null, lineOf(PROXY_SOL, 'delegatecall(gas(), implementation')],
      ],
    );
    // the implementation runs as the proxy: address(this) is the proxy's, the code the implementation's
    const msg = new Map(messageOf(impl).map((v) => [v.name, v.value]));
    assert.strictEqual(msg.get('address(this)'), proxy.address);
    assert.strictEqual(msg.get('code address'), impl.address);
    assert.strictEqual(msg.get('msg.sender'), proxy.from);
    assert.strictEqual(new Map(messageOf(proxy).map((v) => [v.name, v.value])).get('code address'), undefined);
    // the proxy's slot 0 is the implementation's `limit`; the ERC-1967 slot is no variable of it
    const storage = storageVariables(t, t.failing) ?? [];
    assert.deepStrictEqual(
      storage.map((v) => [v.name, v.value]),
      [
        ['limit', '100000000000'],
        [
          'slot 0x360894a13ba1a3210667c828492db98dca3e2076cc3735a920a3ca505d382bbc',
          `0x${'0'.repeat(24)}${(compiled.contracts.find((c) => c.name === 'VaultRules')?.address ?? '').slice(2)}`,
        ],
      ],
    );
  });
});
