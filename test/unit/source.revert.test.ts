/**
 * Revert to source, end to end on real compiler output and real executions: the inspector's contracts
 * (test/workspace/contracts/inspector, compiled by solc 0.8.28 into the committed Hardhat build info) deployed and
 * called in @ethereumjs/evm by the sandbox's executor (sandbox/src/evm), each failure's opcode log and actions read
 * into a call stack (src/api/source/callStack) and located through the source maps (src/api/source/locate). Every
 * expected line is found by searching the source text for the statement, never written as a number.
 */
import * as assert from 'assert';
import * as fs from 'fs';
import * as path from 'path';
import { toFunctionSelector } from 'viem';
import compiled from '../../sandbox/src/compiled/inspector.json';
import { type CallStack, type OpcodeEntry, callStackOf, pcModeOf } from '../../src/api/source/callStack';
import { type FrameBuild, type LocatedFrame, locateCallStack } from '../../src/api/source/locate';
import { type SolcBuildLike, codeBytes } from '../../src/api/source/sourceMap';
import { decodeRevert } from '../../src/api/revert';
import type { Opcode } from '../../src/api/mirrorTypes';
import {
  type EvmChain,
  type Execution,
  HTS_ADDRESS,
  PRNG_ADDRESS,
  RESPONSE,
  createInspectorChain,
} from '../../sandbox/src/evm';

const ROOT = path.join(__dirname, '../../..');
const BUILD_INFO = path.join(ROOT, 'test/workspace/artifacts/build-info', `${compiled.buildInfoId}.json`);
const OPENAPI = path.join(__dirname, '../../../../shared/fixtures/mirror/openapi.yml');
const VAULT = 'contracts/inspector/Vault.sol:Vault';
const LEDGER = 'contracts/inspector/Ledger.sol:Ledger';
const ACCOUNTING = 'contracts/inspector/Accounting.sol:Accounting';
const OTHER = { address: '0x70997970c51812dc3a010c7d01b50e0d17dc79c8', entityId: '0.0.7005' };
const RICH = { address: '0x3c44cdddb6a900fa2b585dd299e03d12fa4293bc', entityId: '0.0.7006' };
const TOKEN = '0x0000000000000000000000000000000000001b5c'; // 0.0.7004

const w = (v: bigint | number): string => BigInt(v).toString(16).padStart(64, '0');
const word = (a: string): string => a.toLowerCase().replace(/^0x/, '').padStart(64, '0');
const sel = (c: string, sig: string): string => {
  const ids = (
    build.output.contracts as Record<string, Record<string, { evm: { methodIdentifiers: Record<string, string> } }>>
  )[c.split(':')[0]][c.split(':')[1]].evm.methodIdentifiers;
  assert.ok(ids[sig], `${c} has ${sig}`);
  return `0x${ids[sig]}`;
};

let build: SolcBuildLike & { input: { sources: Record<string, { content: string }> }; output: { contracts: unknown } };
let chain: EvmChain;
let addresses: Record<string, string>;
let owner: string;

/** The 1-based line of the one line of a source that contains `needle`. */
function lineOf(sourceName: string, needle: string): number {
  const lines = build.input.sources[sourceName].content.split('\n');
  const hits = lines.map((l, i) => (l.includes(needle) ? i + 1 : 0)).filter(Boolean);
  assert.strictEqual(hits.length, 1, `"${needle}" is on exactly one line of ${sourceName}`);
  return hits[0];
}

const resolve = (f: { address?: string }): FrameBuild | undefined => {
  const id = Object.entries(addresses).find(([, a]) => a === f.address)?.[0];
  return id ? { build, contract: id } : undefined;
};

async function run(
  from: string,
  data: string,
  options: { value?: bigint; gas?: number; trace?: { stack?: boolean; memory?: boolean; storage?: boolean } } = {},
): Promise<{ ex: Execution; stack: CallStack; located: LocatedFrame[] }> {
  const ex = await chain.call({
    from,
    to: addresses[VAULT],
    data,
    value: options.value,
    gas: options.gas ?? 3_000_000,
    trace: options.trace,
  });
  const stack = callStackOf(ex.opcodes, ex.actions);
  return { ex, stack, located: locateCallStack(stack, ex.opcodes.opcodes, resolve) };
}

/** The opcode names of the chain's EVM (Cancun) by code. */
const opNames = (): Map<number, string> =>
  new Map([...chain.evm.getActiveOpcodes()].map(([code, op]) => [code, op.fullName]));

/** The program counters before each operation (the mirror node writes them after): rebuilt frame by frame. */
function ownPcs(opcodes: Opcode[]): number[] {
  const out: number[] = [];
  const prev = new Map<number, { pc: number; call: boolean }>();
  let depth = -1;
  for (const o of opcodes) {
    const d = o.depth as number;
    if (d > depth) prev.delete(d); // a new frame at this depth
    depth = d;
    const p = prev.get(d);
    out.push(p === undefined ? 0 : p.call ? p.pc + 1 : p.pc);
    prev.set(d, {
      pc: o.pc as number,
      call: ['CALL', 'CALLCODE', 'DELEGATECALL', 'STATICCALL', 'CREATE', 'CREATE2'].includes(o.op as string),
    });
  }
  return out;
}

describe('source: revert to source on real executions', function () {
  this.timeout(60000);

  before(async () => {
    build = JSON.parse(fs.readFileSync(BUILD_INFO, 'utf8'));
    const deployed = await createInspectorChain(compiled);
    chain = deployed.chain;
    owner = deployed.deployer.address;
    addresses = {
      [VAULT]: deployed.contracts.Vault.address,
      [LEDGER]: deployed.contracts.Ledger.address,
      [ACCOUNTING]: deployed.contracts.Accounting.address,
    };
    await chain.addAccount({ ...OTHER, balance: 10n ** 12n });
    await chain.addAccount({ ...RICH, balance: 10n ** 26n });
  });

  describe('the executor', () => {
    it("deploys the contracts at their recorded addresses, with the runtime code and the constructors' storage", async () => {
      for (const c of compiled.contracts)
        assert.strictEqual(await chain.codeOf(c.address), c.deployedBytecode.toLowerCase(), c.name);
      // Vault slot 0: owner and feeBps 25 packed (feeBps in the high bytes); slot 5: the ledger
      assert.strictEqual(await chain.storageAt(addresses[VAULT], 0n), `0x${w((25n << 160n) | BigInt(owner))}`);
      assert.strictEqual(await chain.storageAt(addresses[VAULT], 5n), `0x${word(addresses[LEDGER])}`);
    });

    it('is deterministic: the same call gives the same execution, byte for byte, and leaves the state as it was', async () => {
      const before = await chain.storageAt(addresses[VAULT], 6n);
      const a = await run(OTHER.address, `${sel(VAULT, 'seed()')}`);
      const b = await run(OTHER.address, `${sel(VAULT, 'seed()')}`);
      assert.strictEqual(
        JSON.stringify(a.ex, (_k, v) => (typeof v === 'bigint' ? `${v}n` : v)),
        JSON.stringify(b.ex, (_k, v) => (typeof v === 'bigint' ? `${v}n` : v)),
      );
      const spin = await chain.call({
        from: OTHER.address,
        to: addresses[VAULT],
        data: `${sel(VAULT, 'spin(uint256)')}${w(3)}`,
        gas: 200_000,
      });
      assert.strictEqual(spin.result, 'SUCCESS');
      assert.strictEqual(await chain.storageAt(addresses[VAULT], 6n), before, 'a call without commit changes nothing');
      const kept = await chain.call({
        from: OTHER.address,
        to: addresses[VAULT],
        data: `${sel(VAULT, 'spin(uint256)')}${w(3)}`,
        gas: 200_000,
        commit: true,
      });
      assert.strictEqual(kept.result, 'SUCCESS');
      assert.strictEqual(
        BigInt(await chain.storageAt(addresses[VAULT], 6n)),
        BigInt(before) + 3n,
        'a committed call is kept',
      );
    });

    it("writes the opcode log as openapi.yml's OpcodesResponse and Opcode: keys, types, depth from 0, reason only on REVERT", async () => {
      const yml = fs.readFileSync(OPENAPI, 'utf8');
      const schema = (name: string): { required: string[]; properties: string[] } => {
        const start = yml.indexOf(`\n    ${name}:\n`);
        assert.ok(start > 0, `openapi.yml has ${name}`);
        const rest = yml.slice(start + name.length + 7);
        const block = rest.slice(0, rest.search(/\n {4}\S/));
        const req = /\n {6}required:\n((?: {8}- \w+\n)+)/.exec(block);
        const props = block.slice(block.indexOf('\n      properties:\n'));
        return {
          required: req
            ? req[1]
                .trim()
                .split('\n')
                .map((l) => l.replace(/^\s*- /, ''))
            : [],
          properties: [...props.matchAll(/\n {8}(\w+):/g)].map((m) => m[1]),
        };
      };
      const resp = schema('OpcodesResponse');
      const op = schema('Opcode');
      const { ex } = await run(OTHER.address, `${sel(VAULT, 'withdraw(uint256)')}${w(5)}`);
      assert.deepStrictEqual(Object.keys(ex.opcodes), resp.properties);
      for (const k of resp.required) assert.ok(k in ex.opcodes, k);
      assert.strictEqual(ex.opcodes.address, addresses[VAULT]);
      assert.strictEqual(ex.opcodes.contract_id, '0.0.7001');
      assert.strictEqual(ex.opcodes.failed, true);
      assert.strictEqual(typeof ex.opcodes.gas, 'number');
      assert.match(ex.opcodes.return_value as string, /^0x[0-9a-f]*$/);
      assert.ok(ex.opcodes.opcodes.length > 50);
      for (const o of ex.opcodes.opcodes) {
        assert.deepStrictEqual(Object.keys(o), op.properties);
        for (const k of op.required) assert.ok(k in o, k);
        assert.strictEqual(typeof o.depth, 'number');
        assert.strictEqual(typeof o.gas, 'number');
        assert.strictEqual(typeof o.gas_cost, 'number');
        assert.strictEqual(typeof o.pc, 'number');
        assert.strictEqual(typeof o.op, 'string');
        // not asked for: empty, as the real server's Java empty lists and maps
        assert.deepStrictEqual([o.stack, o.memory, o.storage], [[], [], {}]);
        assert.strictEqual(o.reason !== null, o.op === 'REVERT', `${o.op} at ${o.pc}: reason only on the REVERT`);
      }
      assert.strictEqual(
        ex.opcodes.opcodes[0].depth,
        0,
        "the top-level call is depth 0 (Besu's MessageFrame.getDepth())",
      );
      const revert = ex.opcodes.opcodes[ex.opcodes.opcodes.length - 1];
      assert.strictEqual(revert.op, 'REVERT');
      assert.strictEqual(revert.reason, ex.returnValue);
      assert.strictEqual(decodeRevert(revert.reason)?.selector, '0xcf479181', 'InsufficientBalance(uint256,uint256)');
    });

    it('writes each entry after its operation (pc and gas as Besu has them then): own pcs rebuilt from the log name the right instructions', async () => {
      const { ex } = await run(RICH.address, sel(VAULT, 'deposit()'), { value: 2n * 10n ** 24n });
      const ops = ex.opcodes.opcodes;
      assert.strictEqual(ops[0].op, 'PUSH1');
      assert.strictEqual(ops[0].pc, 2, 'PUSH1 0x80 at 0: the pc after it');
      assert.strictEqual(pcModeOf(ops), 'post');
      const codes = new Map(compiled.contracts.map((c) => [c.address, codeBytes(c.deployedBytecode)]));
      const own = ownPcs(ops);
      const names = opNames();
      // which contract each depth runs: from the actions, in order of frames entered
      const frameAddr: string[] = [];
      let ai = 0;
      let depth = -1;
      for (let i = 0; i < ops.length; i++) {
        const d = ops[i].depth as number;
        if (d > depth || i === 0) frameAddr[d] = ex.actions[ai++].to as string;
        depth = d;
        const code = codes.get(frameAddr[d]) as Uint8Array;
        assert.strictEqual(names.get(code[own[i]]), ops[i].op, `entry ${i} (${ops[i].op}): own pc ${own[i]}`);
      }
      // gas left after an operation is what the next one starts with (same frame, no call between)
      for (let i = 0; i + 1 < ops.length; i++) {
        if (
          ops[i].depth === ops[i + 1].depth &&
          !['CALL', 'DELEGATECALL', 'STATICCALL'].includes(ops[i].op as string)
        ) {
          assert.strictEqual(
            (ops[i + 1].gas as number) + (ops[i + 1].gas_cost as number),
            ops[i].gas,
            `gas after entry ${i}`,
          );
        }
      }
    });

    it("lists the call frames as the mirror node's actions: depth from 0, operation, entity ids, result data and type", async () => {
      const { ex } = await run(RICH.address, sel(VAULT, 'deposit()'), { value: 2n * 10n ** 24n });
      const keys = [
        'call_depth',
        'call_operation_type',
        'call_type',
        'caller',
        'caller_type',
        'from',
        'gas',
        'gas_used',
        'index',
        'input',
        'recipient',
        'recipient_type',
        'result_data',
        'result_data_type',
        'timestamp',
        'to',
        'value',
      ];
      assert.strictEqual(ex.actions.length, 2);
      for (const a of ex.actions) assert.deepStrictEqual(Object.keys(a), keys);
      const [top, record] = ex.actions;
      assert.deepStrictEqual(
        [
          top.call_depth,
          top.call_operation_type,
          top.call_type,
          top.caller,
          top.caller_type,
          top.recipient,
          top.recipient_type,
          top.result_data_type,
        ],
        [0, 'CALL', 'CALL', RICH.entityId, 'ACCOUNT', '0.0.7001', 'CONTRACT', 'REVERT_REASON'],
      );
      assert.strictEqual(top.value, 2n * 10n ** 24n, 'a value past 2^53 keeps every digit');
      assert.deepStrictEqual(
        [
          record.call_depth,
          record.call_operation_type,
          record.caller,
          record.caller_type,
          record.recipient,
          record.index,
        ],
        [1, 'CALL', '0.0.7001', 'CONTRACT', '0.0.7002', 1],
      );
      assert.ok((record.input as string).startsWith(sel(LEDGER, 'record(address,uint256)')));
      assert.strictEqual(decodeRevert(record.result_data)?.message, 'Ledger: amount too large');
      assert.strictEqual(top.result_data, record.result_data, 'the revert bubbles up');
      assert.strictEqual(
        top.gas,
        3_000_000 - ex.intrinsicGas,
        'the top frame starts with the limit less the intrinsic gas',
      );
    });

    it("answers PRNG (0x169) with a 32-byte seed, as a PRECOMPILE action and one empty-op entry at the callee's depth", async () => {
      const { ex } = await run(OTHER.address, sel(VAULT, 'seed()'));
      assert.strictEqual(ex.result, 'SUCCESS');
      const prng = ex.actions[1];
      assert.deepStrictEqual(
        [prng.call_type, prng.call_operation_type, prng.recipient, prng.to, prng.result_data_type],
        ['PRECOMPILE', 'CALL', '0.0.361', PRNG_ADDRESS, 'OUTPUT'],
      );
      assert.strictEqual(prng.input, '0xd83bf9a1');
      assert.match(prng.result_data as string, /^0x[0-9a-f]{64}$/);
      assert.strictEqual(ex.returnValue, prng.result_data, 'seed() returns it');
      const entries = ex.opcodes.opcodes.filter((o) => o.op === '');
      assert.strictEqual(entries.length, 1);
      assert.deepStrictEqual([entries[0].depth, entries[0].pc, entries[0].reason], [1, 0, null]);
      const i = ex.opcodes.opcodes.indexOf(entries[0]);
      assert.strictEqual(ex.opcodes.opcodes[i - 1].op, 'CALL', 'right after the CALL that made it');
      assert.strictEqual(callStackOf(ex.opcodes, ex.actions).failed, false);
      const other = await chain.call({
        from: OTHER.address,
        to: addresses[VAULT],
        data: sel(VAULT, 'seed()'),
        gas: 3_000_000,
        seed: 'another transaction',
      });
      assert.notStrictEqual(other.returnValue, ex.returnValue, 'another transaction draws another seed');
    });

    it('answers the token service (0x167) transferToken with SUCCESS 22 or a failure code', async () => {
      chain.system.setTokenBalance(TOKEN, addresses[VAULT], 1000n);
      chain.system.associate(TOKEN, OTHER.address);
      const payout = (amount: bigint) =>
        `${sel(VAULT, 'payout(address,address,int64)')}${word(TOKEN)}${word(OTHER.address)}${w(BigInt.asUintN(256, amount))}`;
      const ok = await chain.call({ from: owner, to: addresses[VAULT], data: payout(400n), gas: 3_000_000 });
      assert.strictEqual(ok.result, 'SUCCESS');
      const hts = ok.actions[1];
      assert.deepStrictEqual(
        [hts.call_type, hts.recipient, hts.to, hts.result_data],
        ['PRECOMPILE', '0.0.359', HTS_ADDRESS, `0x${w(RESPONSE.SUCCESS)}`],
      );
      assert.ok((hts.input as string).startsWith('0xeca36917'));
      assert.deepStrictEqual(
        ok.logs.map((l) => l.address),
        [TOKEN],
        "the token's Transfer",
      );
      assert.strictEqual(chain.system.tokenBalance(TOKEN, OTHER.address), 0n, 'a call without commit moves nothing');
      const tooMuch = await chain.call({ from: owner, to: addresses[VAULT], data: payout(5000n), gas: 3_000_000 });
      assert.strictEqual(tooMuch.actions[1].result_data, `0x${w(RESPONSE.INSUFFICIENT_TOKEN_BALANCE)}`);
      assert.strictEqual(decodeRevert(tooMuch.errorMessage)?.selector, toFunctionSelector('HtsFailed(int64)'));
      const unknown = await chain.call({
        from: owner,
        to: addresses[VAULT],
        data: `${sel(VAULT, 'payout(address,address,int64)')}${word('0x00000000000000000000000000000000000004d2')}${word(OTHER.address)}${w(1)}`,
        gas: 3_000_000,
      });
      assert.strictEqual(unknown.actions[1].result_data, `0x${w(RESPONSE.INVALID_TOKEN_ID)}`);
    });

    it('fills stack, memory and storage when asked (32-byte words), and null instead of empty when told', async () => {
      const { ex } = await run(OTHER.address, `${sel(VAULT, 'spin(uint256)')}${w(2)}`, {
        gas: 200_000,
        trace: { stack: true, memory: true, storage: true },
      });
      const sstore = ex.opcodes.opcodes.find((o) => o.op === 'SSTORE') as Opcode;
      assert.ok((sstore.stack as string[]).every((s) => /^0x[0-9a-f]{64}$/.test(s)));
      assert.ok(
        (sstore.memory as string[]).length >= 3 && (sstore.memory as string[]).every((s) => /^0x[0-9a-f]{64}$/.test(s)),
      );
      assert.deepStrictEqual(sstore.storage, {
        [`0x${w(6)}`]: `0x${w(BigInt(await chain.storageAt(addresses[VAULT], 6n)) + 1n)}`,
      });
      const bare = await chain.call({
        from: OTHER.address,
        to: addresses[VAULT],
        data: `${sel(VAULT, 'spin(uint256)')}${w(2)}`,
        gas: 200_000,
        trace: { absent: 'null' },
      });
      assert.ok(bare.opcodes.opcodes.every((o) => o.stack === null && o.memory === null && o.storage === null));
    });
  });

  describe('the call stack and the Solidity line', () => {
    const only = (r: { stack: CallStack; located: LocatedFrame[] }): LocatedFrame => {
      assert.strictEqual(r.stack.failed, true);
      assert.strictEqual(r.located.length, 1, JSON.stringify(r.stack.frames));
      return r.located[0];
    };

    it("a custom error: the line of `revert InsufficientBalance(...)` (the optimizer's shared revert tail seen through)", async () => {
      const f = only(await run(OTHER.address, `${sel(VAULT, 'withdraw(uint256)')}${w(5)}`));
      assert.deepStrictEqual(
        [f.frame.kind, f.frame.op, f.frame.depth, f.frame.address, f.frame.entity, f.contract],
        ['revert', 'REVERT', 0, addresses[VAULT], '0.0.7001', VAULT],
      );
      assert.strictEqual(f.location?.sourceName, 'contracts/inspector/Vault.sol');
      assert.strictEqual(f.location?.line, lineOf('contracts/inspector/Vault.sol', 'revert InsufficientBalance('));
      assert.strictEqual(f.location?.text, 'InsufficientBalance(available, amount)');
      assert.strictEqual(f.location?.generated, false);
      assert.deepStrictEqual(
        f.internal.map((l) => l.line),
        [lineOf('contracts/inspector/Vault.sol', 'function withdraw(')],
        'in withdraw',
      );
    });

    it('a require with a message: the line of `require(newFeeBps <= maxFeeBps, "Vault: fee too high")`', async () => {
      const f = only(await run(owner, `${sel(VAULT, 'setFee(uint96)')}${w(900)}`));
      assert.strictEqual(decodeRevert(f.frame.reason)?.message, 'Vault: fee too high');
      assert.strictEqual(f.location?.line, lineOf('contracts/inspector/Vault.sol', '"Vault: fee too high"'));
      assert.ok(f.location?.text.startsWith('require(newFeeBps <= maxFeeBps'));
    });

    it('a require in the first statement: `require(!paused, "Vault: paused")`', async () => {
      await chain.call({
        from: owner,
        to: addresses[VAULT],
        data: `${sel(VAULT, 'setPaused(bool)')}${w(1)}`,
        gas: 200_000,
        commit: true,
      });
      try {
        const f = only(await run(OTHER.address, `${sel(VAULT, 'withdraw(uint256)')}${w(5)}`));
        assert.strictEqual(f.location?.line, lineOf('contracts/inspector/Vault.sol', '"Vault: paused"'));
      } finally {
        await chain.call({
          from: owner,
          to: addresses[VAULT],
          data: `${sel(VAULT, 'setPaused(bool)')}${w(0)}`,
          gas: 200_000,
          commit: true,
        });
      }
    });

    it('a modifier: `revert NotOwner(msg.sender)` in onlyOwner, inside setFee', async () => {
      const f = only(await run(OTHER.address, `${sel(VAULT, 'setFee(uint96)')}${w(30)}`));
      assert.strictEqual(f.location?.line, lineOf('contracts/inspector/Vault.sol', 'revert NotOwner(msg.sender)'));
      assert.strictEqual(f.location?.text, 'NotOwner(msg.sender)');
      assert.deepStrictEqual(
        f.internal.map((l) => l.line),
        [lineOf('contracts/inspector/Vault.sol', 'function setFee(')],
      );
    });

    it('an arithmetic panic: the Solidity expression that called the generated checked multiplication', async () => {
      const f = only(await run(OTHER.address, `${sel(VAULT, 'compute(uint256)')}${w(1n << 200n)}`));
      assert.strictEqual(decodeRevert(f.frame.reason)?.code, 0x11n);
      assert.strictEqual(
        f.location?.line,
        lineOf('contracts/inspector/Vault.sol', 'return (x * x * feeBps) / 10_000;'),
      );
      assert.strictEqual(f.location?.text, 'x * x');
      assert.strictEqual(f.location?.generated, false);
      assert.strictEqual(f.generated?.generated, true, 'the REVERT itself is in generated code');
      assert.strictEqual(f.generated?.sourceName, '#utility.yul');
    });

    it('out of gas: the operation in the loop where gas ran out', async () => {
      const r = await run(OTHER.address, `${sel(VAULT, 'spin(uint256)')}${w(1000)}`, { gas: 200_000 });
      assert.strictEqual(r.ex.result, 'INSUFFICIENT_GAS');
      const f = only(r);
      assert.strictEqual(f.frame.kind, 'outOfGas');
      const loop = lineOf('contracts/inspector/Vault.sol', 'for (uint256 i = 0; i < rounds; i++)');
      assert.ok(
        f.location && f.location.line >= loop && f.location.line <= loop + 2,
        `line ${f.location?.line} is in the loop (${loop}..${loop + 2})`,
      );
      assert.strictEqual(f.location?.line, lineOf('contracts/inspector/Vault.sol', 'spins += 1;'));
      assert.ok(r.ex.opcodes.opcodes.length > 10_000, 'a long real trace');
    });

    it("a library revert (DELEGATECALL): the library's own line, then the Vault's call site", async () => {
      const r = await run(OTHER.address, `${sel(VAULT, 'settle(address,uint256)')}${w(0)}${w(5)}`);
      assert.strictEqual(r.located.length, 2);
      const [lib, site] = r.located;
      assert.deepStrictEqual(
        [lib.frame.kind, lib.frame.depth, lib.frame.address, lib.frame.entity, lib.contract],
        ['revert', 1, addresses[ACCOUNTING], '0.0.7003', ACCOUNTING],
      );
      assert.strictEqual(
        lib.frame.selector,
        sel(ACCOUNTING, 'settle(mapping(address => uint256) storage,Ledger,address,address,uint256)'),
      );
      assert.strictEqual(lib.location?.sourceName, 'contracts/inspector/Accounting.sol');
      assert.strictEqual(
        lib.location?.line,
        lineOf('contracts/inspector/Accounting.sol', '"Accounting: zero recipient"'),
      );
      assert.deepStrictEqual(
        [site.frame.kind, site.frame.op, site.frame.depth, site.frame.address, site.contract],
        ['callSite', 'DELEGATECALL', 0, addresses[VAULT], VAULT],
      );
      assert.strictEqual(
        site.location?.line,
        lineOf('contracts/inspector/Vault.sol', 'left = Accounting.settle(balances, ledger, msg.sender, to, amount);'),
      );
      assert.strictEqual(site.location?.text, 'Accounting.settle(balances, ledger, msg.sender, to, amount)');
      // the library's custom error, behind the library's shared revert tail
      const exceeds = await run(OTHER.address, `${sel(VAULT, 'settle(address,uint256)')}${word(owner)}${w(5)}`);
      assert.strictEqual(
        exceeds.located[0].location?.line,
        lineOf('contracts/inspector/Accounting.sol', 'revert SettlementExceedsBalance('),
      );
    });

    it('a revert deep in the trace: settle → Accounting (DELEGATECALL) → Ledger.record (CALL, depth 2), every frame at its line', async () => {
      // 2e24 deposited in two deposits the Ledger accepts (1e24 each), then 1.5e24 settled: the library's balance
      // check passes, the Ledger refuses the amount
      for (let i = 0; i < 2; i++) {
        const d = await chain.call({
          from: RICH.address,
          to: addresses[VAULT],
          data: sel(VAULT, 'deposit()'),
          value: 10n ** 24n,
          gas: 3_000_000,
          commit: true,
        });
        assert.strictEqual(d.result, 'SUCCESS');
      }
      const r = await run(
        RICH.address,
        `${sel(VAULT, 'settle(address,uint256)')}${word(OTHER.address)}${w(15n * 10n ** 23n)}`,
      );
      assert.deepStrictEqual(
        r.ex.actions.map((a) => [
          a.call_depth,
          a.call_operation_type,
          a.call_type,
          a.caller,
          a.recipient,
          a.result_data_type,
        ]),
        [
          [0, 'CALL', 'CALL', RICH.entityId, '0.0.7001', 'REVERT_REASON'],
          [1, 'STATICCALL', 'CALL', '0.0.7001', '0.0.7002', 'OUTPUT'],
          [1, 'CALL', 'PRECOMPILE', '0.0.7001', '0.0.361', 'OUTPUT'],
          [1, 'DELEGATECALL', 'CALL', '0.0.7001', '0.0.7003', 'REVERT_REASON'],
          [2, 'CALL', 'CALL', '0.0.7001', '0.0.7002', 'REVERT_REASON'],
        ],
      );
      assert.strictEqual(decodeRevert(r.ex.errorMessage ?? '')?.message, 'Ledger: amount too large');
      assert.strictEqual(r.ex.errorMessage, r.ex.actions[4].result_data, "the top-level error is the deepest frame's");
      assert.strictEqual(r.located.length, 3);
      const [ledger, lib, site] = r.located;
      assert.deepStrictEqual(
        [ledger.frame.kind, ledger.frame.depth, ledger.frame.address, ledger.contract, ledger.frame.actionIndex],
        ['revert', 2, addresses[LEDGER], LEDGER, 4],
      );
      assert.strictEqual(ledger.location?.line, lineOf('contracts/inspector/Ledger.sol', '"Ledger: amount too large"'));
      assert.deepStrictEqual(
        [lib.frame.kind, lib.frame.op, lib.frame.depth, lib.frame.address, lib.contract, lib.frame.actionIndex],
        ['callSite', 'CALL', 1, addresses[ACCOUNTING], ACCOUNTING, 3],
      );
      assert.strictEqual(
        lib.location?.line,
        lineOf('contracts/inspector/Accounting.sol', 'ledger.record(to, amount);'),
      );
      assert.deepStrictEqual(
        [site.frame.kind, site.frame.op, site.frame.depth, site.contract, site.frame.actionIndex],
        ['callSite', 'DELEGATECALL', 0, VAULT, 0],
      );
      assert.strictEqual(
        site.location?.line,
        lineOf('contracts/inspector/Vault.sol', 'left = Accounting.settle(balances, ledger, msg.sender, to, amount);'),
      );
    });

    it("a cross-contract revert (CALL): Ledger.record's require, then the Vault's call site in deposit()", async () => {
      const r = await run(RICH.address, sel(VAULT, 'deposit()'), { value: 2n * 10n ** 24n });
      assert.strictEqual(r.located.length, 2);
      const [ledger, site] = r.located;
      assert.deepStrictEqual(
        [ledger.frame.depth, ledger.frame.address, ledger.contract, ledger.frame.actionIndex],
        [1, addresses[LEDGER], LEDGER, 1],
      );
      assert.strictEqual(decodeRevert(ledger.frame.reason)?.message, 'Ledger: amount too large');
      assert.strictEqual(ledger.location?.line, lineOf('contracts/inspector/Ledger.sol', '"Ledger: amount too large"'));
      assert.deepStrictEqual([site.frame.op, site.frame.kind, site.frame.actionIndex], ['CALL', 'callSite', 0]);
      assert.strictEqual(
        site.location?.line,
        lineOf('contracts/inspector/Vault.sol', 'ledger.record(msg.sender, amount);'),
      );
      assert.deepStrictEqual(
        site.internal.map((l) => l.line),
        [lineOf('contracts/inspector/Vault.sol', 'function deposit(')],
      );
    });

    it("a revert of the Vault's own after a failed system contract call: the Vault's line, not the precompile", async () => {
      const r = await run(
        owner,
        `${sel(VAULT, 'payout(address,address,int64)')}${word('0x00000000000000000000000000000000000004d2')}${word(OTHER.address)}${w(1)}`,
      );
      const f = only(r);
      assert.strictEqual(f.location?.line, lineOf('contracts/inspector/Vault.sol', 'revert HtsFailed(code)'));
    });

    it('reads a log written before each operation (pc 0 first) the same way', async () => {
      const r = await run(RICH.address, sel(VAULT, 'deposit()'), { value: 2n * 10n ** 24n });
      const own = ownPcs(r.ex.opcodes.opcodes);
      const pre: OpcodeEntry[] = r.ex.opcodes.opcodes.map((o, i) => ({ ...o, pc: own[i] }));
      assert.strictEqual(pcModeOf(pre), 'pre');
      const stack = callStackOf(pre, r.ex.actions);
      const located = locateCallStack(stack, pre, resolve);
      assert.deepStrictEqual(
        located.map((l) => [l.location?.sourceName, l.location?.line, l.internal.map((i) => i.line)]),
        r.located.map((l) => [l.location?.sourceName, l.location?.line, l.internal.map((i) => i.line)]),
      );
    });

    it('without actions: the top frame from the response, deeper frames unknown (said so)', async () => {
      const r = await run(RICH.address, sel(VAULT, 'deposit()'), { value: 2n * 10n ** 24n });
      const stack = callStackOf(r.ex.opcodes, null);
      assert.deepStrictEqual(
        stack.frames.map((f) => [f.depth, f.address]),
        [
          [1, undefined],
          [0, addresses[VAULT]],
        ],
      );
      const located = locateCallStack(stack, r.ex.opcodes.opcodes, resolve);
      assert.match(located[0].problem ?? '', /not known/);
      assert.strictEqual(
        located[1].location?.line,
        lineOf('contracts/inspector/Vault.sol', 'ledger.record(msg.sender, amount);'),
      );
    });

    it('a frame whose code differs from the build gets no line, and says why', async () => {
      const r = await run(OTHER.address, `${sel(VAULT, 'withdraw(uint256)')}${w(5)}`);
      const located = locateCallStack(r.stack, r.ex.opcodes.opcodes, () => ({
        build,
        contract: VAULT,
        match: {
          match: false,
          kind: 'mismatch',
          masked: { metadata: true, immutables: 2, links: 1, libraryGuard: false },
          reason: 'The code differs from byte 12.',
        },
      }));
      assert.strictEqual(located[0].location, undefined);
      assert.strictEqual(located[0].problem, 'The code differs from byte 12.');
    });

    it('a successful call has no call stack', async () => {
      const r = await run(RICH.address, sel(VAULT, 'deposit()'), { value: 10n });
      assert.strictEqual(r.ex.result, 'SUCCESS');
      assert.deepStrictEqual([r.stack.failed, r.stack.frames.length], [false, 0]);
    });
  });
});
