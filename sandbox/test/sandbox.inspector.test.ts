/**
 * The sandbox's routes for the transaction inspector, over real HTTP: `/api/v1/contracts/results/{transactionIdOrHash}`
 * (with logs and state changes), its `/actions`, `/api/v1/transactions/{transactionIdOrHash}` and
 * `/api/v1/transactions`, as hiero-mirror-node 0.160 shapes them (key order of its view models, validation
 * messages, paging), consistent with the contract result lists, and the notable scenarios on the compiled
 * Vault/Ledger/Accounting (sandbox/src/compiled/inspector.json). Bodies are read losslessly (src/api/json.ts):
 * values past 2^53 keep every digit.
 */
import * as assert from 'assert';
import {
  decodeErrorResult,
  decodeFunctionData,
  encodeAbiParameters,
  keccak256,
  parseAbi,
  toEventSelector,
  toFunctionSelector,
  type Abi,
} from 'viem';
import compiled from '../src/compiled/inspector.json';
import { buildOverview } from '../../src/api/inspect/build';
import type { ContractAction, ContractResultDetails, TransactionDetail } from '../../src/api/mirrorTypes';
import { getJson, type JsonAnswer } from './helpers';
import { type Sandbox, startSandbox } from '../src/server';

type Obj = Record<string, unknown>;
type Res = JsonAnswer;
interface Scenario {
  timestamp: string;
  transactionId: string;
  hash: string;
  transactionHash: string;
  contractId: string;
  from: string;
  result: string;
  actions: number;
  failingAction: number | null;
  children: { nonce: number; timestamp: string; contractId: string }[];
}
type Inspector = Record<string, Scenario> & {
  accounts: Record<string, { id: string; evm: string }>;
  contracts: Record<string, { id: string; evm: string }>;
};

const errorOf = (...messages: string[]): Obj => ({ _status: { messages: messages.map((message) => ({ message })) } });
const NOT_FOUND = errorOf('Not found');
const TX_ID_MESSAGE =
  'Invalid Transaction id. Please use "shard.realm.num-sss-nnn" format where sss are seconds and nnn are nanoseconds';
const lz = (id: string): string =>
  '0x' +
  BigInt(id.split('.').pop() as string)
    .toString(16)
    .padStart(40, '0');
const big = (v: unknown): bigint => BigInt(v as number | bigint);
/** The sandbox's generated deployments send Solidity creation code (0x6080604052…) as their call data. */
const looksLikeInitCode = (v: unknown): boolean => typeof v === 'string' && v.startsWith('0x6080604052');

/**
 * ContractResultDetailsViewModel's keys, in its order (a result whose Ethereum transaction carries an EIP-7702
 * authorization list also has `authorization_list`, after `amount`: ContractResultViewModel).
 */
const DETAIL_KEYS = [
  'address',
  'amount',
  'bloom',
  'call_result',
  'contract_id',
  'created_contract_ids',
  'error_message',
  'from',
  'function_parameters',
  'gas_consumed',
  'gas_limit',
  'gas_used',
  'timestamp',
  'to',
  'hash',
  'block_hash',
  'block_number',
  'logs',
  'result',
  'transaction_index',
  'state_changes',
  'status',
  'failed_initcode',
  'access_list',
  'block_gas_used',
  'chain_id',
  'gas_price',
  'max_fee_per_gas',
  'max_priority_fee_per_gas',
  'r',
  's',
  'type',
  'v',
  'nonce',
];
const LOG_KEYS = ['address', 'bloom', 'contract_id', 'data', 'index', 'topics'];
const STATE_KEYS = ['address', 'contract_id', 'slot', 'value_read', 'value_written'];
/** ContractActionViewModel's keys, in its order. */
const ACTION_KEYS = [
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
/** formatTransactionRows' keys as a live 0.160 answer has them (assessed_custom_fees first, when there are any). */
const TX_KEYS = [
  'batch_key',
  'bytes',
  'charged_tx_fee',
  'consensus_timestamp',
  'entity_id',
  'high_volume',
  'high_volume_pricing_multiplier',
  'max_fee',
  'max_custom_fees',
  'memo_base64',
  'name',
  'nft_transfers',
  'node',
  'nonce',
  'parent_consensus_timestamp',
  'result',
  'scheduled',
  'staking_reward_transfers',
  'token_transfers',
  'transaction_hash',
  'transaction_id',
  'transfers',
  'valid_duration_seconds',
  'valid_start_timestamp',
];

interface Compiled {
  name: string;
  abi: Abi;
  storageLayout: { storage: { label: string; slot: string }[] };
  deployedBytecode: string;
}
const CONTRACTS = (compiled as unknown as { contracts: Compiled[] }).contracts;
const VAULT = CONTRACTS.find((c) => c.name === 'Vault') as Compiled;
const PROXY = CONTRACTS.find((c) => c.name === 'VaultProxy') as Compiled;
const LEDGER = CONTRACTS.find((c) => c.name === 'Ledger') as Compiled;
const slotOf = (c: Compiled, label: string): bigint =>
  BigInt((c.storageLayout.storage.find((s) => s.label === label) as { slot: string }).slot);
/** keccak256(abi.encode(key, slot)): the slot of mapping[key]. */
const mappingSlot = (key: `0x${string}`, slot: bigint): string =>
  keccak256(encodeAbiParameters([{ type: 'address' }, { type: 'uint256' }], [key, slot]));
const slotWord = (n: bigint): string => '0x' + n.toString(16).padStart(64, '0');
const eventTopic = (c: Compiled, name: string): string => {
  const item = c.abi.find((i) => i.type === 'event' && i.name === name) as unknown as { inputs: { type: string }[] };
  return toEventSelector(`${name}(${item.inputs.map((i) => i.type).join(',')})`);
};

/** A log's 2048-bit bloom has the three bits of its address and of each topic (Ethereum's bloom). */
function bloomHas(bloom: string, item: string): boolean {
  const bits = Buffer.from(bloom.slice(2), 'hex');
  const h = keccak256(item as `0x${string}`).slice(2);
  for (let i = 0; i < 6; i += 2) {
    const bit = parseInt(h.slice(i * 2, i * 2 + 4), 16) & 2047;
    if (!(bits[255 - (bit >> 3)] & (1 << (bit & 7)))) return false;
  }
  return true;
}

/** Every page of a list from `first`, and how many requests it took. */
async function pageAll(
  get: (u: string) => Promise<Res>,
  first: string,
  key: string,
): Promise<{ items: Obj[]; requests: number }> {
  const items: Obj[] = [];
  let url: string | null = first;
  let requests = 0;
  while (url) {
    const r = await get(url);
    assert.strictEqual(r.status, 200, url);
    requests++;
    items.push(...(r.json[key] as Obj[]));
    url = (r.json.links as Obj).next as string | null;
    assert.ok(requests < 2000, 'runaway paging');
  }
  return { items, requests };
}

/** The ancestors' indexes of each action (by call_depth, in pre-order). */
function parents(actions: Obj[]): number[] {
  const stack: number[] = [];
  return actions.map((a, i) => {
    const d = Number(a.call_depth);
    stack.length = d;
    const p = d === 0 ? -1 : stack[d - 1];
    stack[d] = i;
    return p;
  });
}

describe('sandbox: the transaction inspector (contract result details, actions, transactions)', function () {
  this.timeout(120_000);
  let sb: Sandbox;
  let ins: Inspector;
  let sample: Obj[]; // the newest results, internal ones included
  const get = (url: string, headers?: Record<string, string>): Promise<Res> => getJson(sb.url, url, headers);

  before(async () => {
    sb = await startSandbox({ port: 0 });
    ins = ((await get('/__sandbox/health')).json.notable as Obj).inspector as Inspector;
    sample = [];
    let url: string | null = '/api/v1/contracts/results?internal=true&limit=100';
    for (let i = 0; i < 3 && url; i++) {
      const r = await get(url);
      sample.push(...(r.json.results as Obj[]));
      url = (r.json.links as Obj).next as string | null;
    }
  });
  after(() => sb.close());

  describe('contracts/results/{transactionIdOrHash}', () => {
    it('the real key order, logs and state changes at the compiled Vault and Ledger slots (inspectorSuccess)', async () => {
      const s = ins.inspectorSuccess;
      const r = await get(`/api/v1/contracts/results/${s.transactionId}`);
      assert.strictEqual(r.status, 200);
      assert.strictEqual(r.headers.get('cache-control'), 'public, max-age=600');
      assert.deepStrictEqual(Object.keys(r.json), DETAIL_KEYS);
      const d = r.json;
      assert.strictEqual(d.timestamp, s.timestamp);
      assert.strictEqual(d.contract_id, ins.contracts.vault.id);
      assert.strictEqual(d.address, ins.contracts.vault.evm, "the Vault's own EVM address");
      assert.strictEqual(d.function_parameters, toFunctionSelector('deposit()'));
      assert.strictEqual(d.amount, 25_000_000_000);
      const sender = lz(ins.accounts.depositor.id) as `0x${string}`;
      const logs = d.logs as Obj[];
      assert.deepStrictEqual(
        logs.map((l) => Object.keys(l)),
        logs.map(() => LOG_KEYS),
      );
      assert.deepStrictEqual(
        logs.map((l) => l.index),
        [0, 1, 2],
      );
      assert.deepStrictEqual(
        logs.map((l) => (l.topics as string[])[0]),
        [eventTopic(VAULT, 'Deposited'), eventTopic(VAULT, 'Transfer'), eventTopic(LEDGER, 'Recorded')],
      );
      assert.deepStrictEqual(
        logs.map((l) => (l.topics as string[]).length),
        [2, 3, 2],
        'indexed parameters: one topic each',
      );
      assert.deepStrictEqual(
        logs.map((l) => l.contract_id),
        [ins.contracts.vault.id, ins.contracts.vault.id, ins.contracts.ledger.id],
      );
      assert.strictEqual((logs[1].topics as string[])[2], '0x' + sender.slice(2).padStart(64, '0'));
      for (const l of logs) {
        assert.match(l.bloom as string, /^0x[0-9a-f]{512}$/);
        for (const item of [l.address as string, ...(l.topics as string[])])
          assert.ok(bloomHas(l.bloom as string, item), `log ${String(l.index)} bloom has ${item}`);
        assert.ok(bloomHas(d.bloom as string, l.address as string), "the result's bloom has every log's address");
      }
      const changes = d.state_changes as Obj[];
      assert.deepStrictEqual(
        changes.map((c) => Object.keys(c)),
        changes.map(() => STATE_KEYS),
      );
      const at = (contract: string, slot: string): Obj | undefined =>
        changes.find((c) => c.contract_id === contract && c.slot === slot);
      const balances = at(ins.contracts.vault.id, mappingSlot(sender, slotOf(VAULT, 'balances')));
      assert.ok(balances, 'balances[sender] at keccak256(sender, slot of balances)');
      assert.strictEqual(
        big(BigInt(balances.value_written as string)) - big(BigInt(balances.value_read as string)),
        25_000_000_000n,
      );
      const total = at(ins.contracts.vault.id, slotWord(slotOf(VAULT, 'totalDeposits')));
      assert.ok(total && total.value_written !== null);
      const ledgerSlot = at(ins.contracts.vault.id, slotWord(slotOf(VAULT, 'ledger')));
      assert.ok(ledgerSlot && ledgerSlot.value_written === null, 'the ledger slot only read');
      assert.strictEqual(ledgerSlot.value_read, slotWord(BigInt(ins.contracts.ledger.evm)));
      assert.ok(
        at(ins.contracts.ledger.id, mappingSlot(sender, slotOf(LEDGER, 'entries')))?.value_written,
        'Ledger entries[sender] written',
      );
      // ordered as the real query: contract, then slot
      const order = changes.map((c) => `${String(c.contract_id).padStart(20, '0')}/${String(c.slot)}`);
      assert.deepStrictEqual(order, [...order].sort());
    });

    it('by hash with and without 0x, any case; `nonce` ignored for hashes; by id with `nonce` picking a child', async () => {
      const s = ins.inspectorPrecompile;
      const byId = await get(`/api/v1/contracts/results/${s.transactionId}`);
      for (const h of [
        s.hash,
        s.hash.slice(2),
        s.hash.toUpperCase().replace('0X', '0x'),
        s.hash.slice(2).toUpperCase(),
      ]) {
        const r = await get(`/api/v1/contracts/results/${h}`);
        assert.strictEqual(r.text, byId.text, h);
        assert.strictEqual(
          (await get(`/api/v1/contracts/results/${h}?nonce=1`)).text,
          byId.text,
          'nonce ignored with a hash',
        );
      }
      assert.strictEqual((await get(`/api/v1/contracts/results/${s.transactionId}?nonce=0`)).text, byId.text);
      assert.strictEqual(
        (await get(`/api/v1/contracts/results/${s.transactionId}?nonce=1&nonce=0`)).text,
        byId.text,
        'the last nonce wins',
      );
      const child = await get(`/api/v1/contracts/results/${s.transactionId}?nonce=1`);
      assert.strictEqual(child.status, 200);
      assert.strictEqual(child.json.timestamp, s.children[0].timestamp);
      assert.strictEqual(child.json.contract_id, '0.0.359');
      assert.deepStrictEqual([child.json.logs, child.json.state_changes], [[], []]);
      assert.deepStrictEqual((await get(`/api/v1/contracts/results/${s.transactionId}?nonce=2`)).json, NOT_FOUND);
      // a HAPI call's hash is its transaction hash's first 32 bytes; an Ethereum transaction's its own hash
      const tx = ((await get(`/api/v1/transactions/${s.transactionId}`)).json.transactions as Obj[])[0];
      assert.strictEqual(
        '0x' +
          Buffer.from(tx.transaction_hash as string, 'base64')
            .toString('hex')
            .slice(0, 64),
        s.hash,
      );
      const e = ins.inspectorEthereum;
      const eth = await get(`/api/v1/contracts/results/${e.hash}`);
      assert.strictEqual(eth.json.timestamp, e.timestamp);
      assert.notStrictEqual('0x' + Buffer.from(e.transactionHash.slice(2), 'hex').toString('hex').slice(0, 64), e.hash);
    });

    it('404 Not found for unknown ids and hashes; 400 with the real messages for malformed ones', async () => {
      for (const u of [
        '0.0.98765-1600000000-000000001',
        '0.1.7000-1600000000-1',
        'ab'.repeat(32),
        '0x' + 'cd'.repeat(32),
      ]) {
        const r = await get(`/api/v1/contracts/results/${u}`);
        assert.strictEqual(r.status, 404, u);
        assert.deepStrictEqual(r.json, NOT_FOUND, u);
      }
      for (const u of [
        '1',
        '0.0.x-167654-000123456',
        'x',
        'ab'.repeat(31),
        '0x' + 'ab'.repeat(31),
        '0.0.1@1700000000.1',
        '0.0.1-1700000000-1234567890',
      ]) {
        const r = await get(`/api/v1/contracts/results/${encodeURIComponent(u)}`);
        assert.deepStrictEqual([r.status, r.json], [400, errorOf(TX_ID_MESSAGE)], u);
      }
      assert.deepStrictEqual(
        (await get('/api/v1/contracts/results/0.70000.1-1700000000-1')).json,
        errorOf('Invalid entity ID "0.70000.1"'),
      );
      const s = ins.inspectorSuccess;
      assert.deepStrictEqual(
        (await get(`/api/v1/contracts/results/${s.transactionId}?nonce=-1&nonce=2147483648&nonce=x&nonce=lt:10`)).json,
        errorOf(...Array(4).fill('Invalid parameter: nonce')),
      );
      // validateReq: parameters in order, an unknown one once, its invalid values inline
      assert.deepStrictEqual(
        (await get(`/api/v1/contracts/results/${s.transactionId}?foo=1&foo=2&hbar=maybe&nonce=x`)).json,
        errorOf('Unknown query parameter: foo', 'Invalid parameter: hbar', 'Invalid parameter: nonce'),
      );
      // the query is checked before the path
      assert.deepStrictEqual(
        (await get('/api/v1/contracts/results/x?hbar=1')).json,
        errorOf('Invalid parameter: hbar'),
      );
    });

    it("hbar=false gives the amount and an Ethereum transaction's gas prices in weibars", async () => {
      const s = ins.inspectorSuccess;
      const r = await get(`/api/v1/contracts/results/${s.transactionId}?hbar=false`);
      assert.strictEqual(r.json.amount, 250_000_000_000_000_000_000n);
      assert.strictEqual(
        (await get(`/api/v1/contracts/results/${s.transactionId}?hbar=true`)).json.amount,
        25_000_000_000,
      );
      assert.strictEqual(r.json.gas_price, null, "a HAPI call's prices stay null");
      // an Ethereum transaction's gas prices: tinybars by default, its raw weibars with hbar=false
      const e = ins.inspectorEthereum;
      const tiny = await get(`/api/v1/contracts/results/${e.hash}`);
      const wei = await get(`/api/v1/contracts/results/${e.hash}?hbar=false`);
      assert.deepStrictEqual([tiny.json.gas_price, tiny.json.max_fee_per_gas], ['0x', '0x47']);
      assert.deepStrictEqual(
        [wei.json.gas_price, wei.json.max_fee_per_gas],
        ['0x', '0x' + (71n * 10n ** 10n).toString(16)],
      );
      const list = (await get(`/api/v1/contracts/results?timestamp=${e.timestamp}&hbar=false`)).json.results as Obj[];
      assert.strictEqual(list[0].max_fee_per_gas, wei.json.max_fee_per_gas, 'the list converts the same way');
    });

    it('failed_initcode: the call data of a failed Ethereum transaction, also a reverted call; a creation is told by its transaction', async () => {
      // ContractResultDetailsViewModel: the record's failed init code, else for a failed transaction with an Ethereum
      // transaction its call data (spec failed-ethereum-transaction-with-contract-result-with-nullable-to.json: a call)
      const p = ins.inspectorPartial; // a reverted Ethereum call
      const d = await get(`/api/v1/contracts/results/${p.hash}`);
      assert.deepStrictEqual(
        [d.json.result, d.json.status, d.json.created_contract_ids],
        ['CONTRACT_REVERT_EXECUTED', '0x0', []],
      );
      assert.match(d.json.function_parameters as string, /^0x[0-9a-f]{8}/);
      assert.strictEqual(d.json.failed_initcode, d.json.function_parameters);
      const listed = ((await get(`/api/v1/contracts/results?timestamp=${p.timestamp}`)).json.results as Obj[])[0];
      assert.strictEqual(listed.failed_initcode, d.json.function_parameters);
      assert.strictEqual(
        ((await get(`/api/v1/transactions/${p.transactionId}`)).json.transactions as Obj[])[0].name,
        'ETHEREUMTRANSACTION',
      );
      // a native revert and an Ethereum success: null
      assert.strictEqual(
        (await get(`/api/v1/contracts/results/${ins.inspectorLedgerRevert.transactionId}`)).json.failed_initcode,
        null,
      );
      assert.strictEqual(
        (await get(`/api/v1/contracts/results/${ins.inspectorEthereum.hash}`)).json.failed_initcode,
        null,
      );
      // generated results: every failed Ethereum call has its call data there and a CALL at the top of its actions
      const failedEth = sample.filter(
        (r) =>
          r.status === '0x0' &&
          r.r !== null &&
          (r.created_contract_ids as string[]).length === 0 &&
          !looksLikeInitCode(r.function_parameters),
      );
      assert.ok(failedEth.length > 5, `${failedEth.length} failed Ethereum calls`);
      for (const r of failedEth) assert.strictEqual(r.failed_initcode, r.function_parameters, String(r.timestamp));
      for (const r of failedEth.slice(0, 5)) {
        const top = (
          (await get(`/api/v1/contracts/results/${String(r.hash)}/actions?limit=1`)).json.actions as Obj[]
        )[0];
        assert.strictEqual(top.call_operation_type, 'CALL', String(r.timestamp));
      }
      assert.ok(sample.filter((r) => r.status === '0x1').every((r) => r.failed_initcode === null));
      assert.ok(
        sample
          .filter((r) => r.r === null && !looksLikeInitCode(r.function_parameters))
          .every((r) => r.failed_initcode === null),
      );
      // a failed creation keeps its init code, and is one by its transaction (CREATE at the top of its actions)
      const failedCreates = sample.filter((r) => r.status === '0x0' && looksLikeInitCode(r.function_parameters));
      assert.ok(failedCreates.length > 0);
      for (const r of failedCreates) {
        assert.strictEqual(r.failed_initcode, r.function_parameters);
        const top = (
          (await get(`/api/v1/contracts/results/${String(r.hash)}/actions?limit=1`)).json.actions as Obj[]
        )[0];
        assert.strictEqual(top.call_operation_type, 'CREATE', String(r.timestamp));
      }
    });

    it("the inspector's overview of a reverted Ethereum call is a call, not a failed creation; a failed creation is one", async () => {
      const overviewOf = async (id: string): Promise<ReturnType<typeof buildOverview>> => {
        const d = (await get(`/api/v1/contracts/results/${id}`)).json as unknown as ContractResultDetails;
        const actions = (await get(`/api/v1/contracts/results/${id}/actions?limit=100`)).json
          .actions as unknown as ContractAction[];
        const records = (await get(`/api/v1/transactions?timestamp=${d.timestamp}`)).json
          .transactions as unknown as TransactionDetail[];
        return buildOverview(d, records, {}, { actions });
      };
      const creationNote = (n: string): boolean => /creation|init code/.test(n);
      // inspectorPartial: a reverted Ethereum call recorded without actions
      const p = await overviewOf(ins.inspectorPartial.hash);
      assert.ok(!p.notes.some(creationNote), p.notes.join('|'));
      assert.ok(p.input?.startsWith('0x') && p.input.length > 10, String(p.input));
      // generated failed Ethereum calls, with their actions and records
      const failedEth = sample
        .filter((r) => r.status === '0x0' && r.r !== null && !looksLikeInitCode(r.function_parameters))
        .slice(0, 3);
      assert.ok(failedEth.length === 3);
      for (const r of failedEth) {
        const m = await overviewOf(String(r.hash));
        assert.strictEqual(m.type, 'ETHEREUMTRANSACTION');
        assert.ok(!m.notes.some(creationNote), `${String(r.timestamp)}: ${m.notes.join('|')}`);
        assert.strictEqual(m.input, r.function_parameters);
      }
      // a failed ContractCreate: the note, and the init code as its input
      const create = sample.find((r) => r.status === '0x0' && looksLikeInitCode(r.function_parameters)) as Obj;
      const c = await overviewOf(String(create.hash));
      assert.strictEqual(c.type, 'CONTRACTCREATEINSTANCE');
      assert.ok(
        c.notes.some((n) => n.startsWith('The contract creation failed; its init code')),
        c.notes.join('|'),
      );
      assert.match(String(c.input), /^init code, \d+ bytes$/);
    });

    it('an incomplete record answers 206 (inspectorPartial)', async () => {
      const p = ins.inspectorPartial;
      const r = await get(`/api/v1/contracts/results/${p.hash}`);
      assert.strictEqual(r.status, 206);
      assert.deepStrictEqual(
        [r.json.call_result, r.json.bloom, r.json.gas_used, r.json.gas_consumed, r.json.error_message],
        ['0x', '0x', null, null, 'CONTRACT_REVERT_EXECUTED'],
      );
      assert.deepStrictEqual((await get(`/api/v1/contracts/results/${p.hash}/actions`)).json, {
        actions: [],
        links: { next: null },
      });
    });
  });

  describe('consistency with the lists', () => {
    it('details equal their list entry; the transaction shares timestamp and fee; its transfers sum to zero; actions start at the call', async () => {
      const scenarios = new Set(Object.values(ins).map((x) => (x as Partial<Scenario>).timestamp));
      const picks = sample.filter((r, i) => i % 3 === 0 && !scenarios.has(r.timestamp as string)).slice(0, 90);
      let reverted = 0;
      let nested = 0;
      for (const item of picks) {
        const idOf = async (): Promise<{ id: string; nonce: number }> => {
          const t = (await get(`/api/v1/transactions?timestamp=${String(item.timestamp)}`)).json.transactions as Obj[];
          assert.strictEqual(t.length, 1, `one transaction at ${String(item.timestamp)}`);
          assert.strictEqual(t[0].consensus_timestamp, item.timestamp);
          return { id: t[0].transaction_id as string, nonce: Number(t[0].nonce) };
        };
        const { id, nonce } = await idOf();
        const d = await get(`/api/v1/contracts/results/${id}?nonce=${nonce}`);
        assert.strictEqual(d.status, 200, id);
        const { logs, state_changes: changes, ...rest } = d.json;
        assert.deepStrictEqual(rest, item, `details of ${id} nonce ${nonce} equal the list entry`);
        const txs = (await get(`/api/v1/transactions/${id}`)).json.transactions as Obj[];
        const tx = txs.find((t) => t.nonce === nonce) as Obj;
        assert.strictEqual(tx.consensus_timestamp, item.timestamp);
        assert.strictEqual(tx.result, item.result);
        assert.deepStrictEqual(
          Object.keys(tx).filter((k) => k !== 'assessed_custom_fees'),
          TX_KEYS,
        );
        const sum = (tx.transfers as Obj[]).reduce((s, t) => s + big(t.amount), 0n);
        assert.strictEqual(sum, 0n, `the hbar transfers of ${id} sum to zero`);
        if (nonce === 0) {
          assert.ok(big(tx.charged_tx_fee) > 0n);
          const payer = tx.transaction_id as string;
          assert.ok(
            (tx.transfers as Obj[]).some((t) => big(t.amount) < 0n && payer.startsWith(`${String(t.account)}-`)),
            'the payer pays',
          );
          assert.strictEqual(tx.parent_consensus_timestamp, null);
        } else {
          assert.strictEqual(big(tx.charged_tx_fee), 0n);
          assert.strictEqual(tx.parent_consensus_timestamp, txs[0].consensus_timestamp);
          assert.deepStrictEqual(logs, []);
          continue;
        }
        const actions = (await get(`/api/v1/contracts/results/${item.hash as string}/actions?limit=100`)).json
          .actions as Obj[];
        assert.ok(actions.length >= 1);
        assert.deepStrictEqual(
          actions.map((a) => a.index),
          actions.map((_, i) => i),
        );
        assert.deepStrictEqual(Object.keys(actions[0]), ACTION_KEYS);
        const top = actions[0];
        assert.deepStrictEqual(
          [top.call_depth, top.caller_type, top.from, top.input, top.timestamp],
          [0, 'ACCOUNT', item.from, item.function_parameters, item.timestamp],
        );
        assert.strictEqual(top.recipient, item.contract_id);
        const ps = parents(actions);
        for (let i = 1; i < actions.length; i++)
          assert.ok(ps[i] >= 0 && Number(actions[i].call_depth) <= Number(actions[i - 1].call_depth) + 1);
        for (const a of actions) assert.ok(big(a.gas_used) <= big(a.gas), `gas used within gas (${String(a.index)})`);
        if (actions.length > 1) nested++;
        if (item.result === 'SUCCESS') {
          assert.ok(actions.every((a) => a.result_data_type === 'OUTPUT'));
          assert.strictEqual(top.result_data, item.call_result);
          assert.strictEqual(
            (logs as Obj[]).length > 0,
            item.bloom !== '0x' + '0'.repeat(512),
            'logs exactly when the bloom says so',
          );
        } else {
          reverted++;
          assert.deepStrictEqual(logs, [], 'a failed call keeps no logs');
          assert.ok(
            (changes as Obj[]).every((c) => c.value_written === null),
            'a failed call writes nothing',
          );
          // the deepest failing action's data is the top-level error (revert data bubbles up)
          const failing = actions.map((a, i) => (a.result_data_type === 'OUTPUT' ? -1 : i)).filter((i) => i >= 0);
          const deepest = actions[failing[failing.length - 1]];
          for (let j = failing[failing.length - 1]; j >= 0; j = ps[j])
            assert.notStrictEqual(actions[j].result_data_type, 'OUTPUT', 'every ancestor of the failing action fails');
          if (item.result === 'CONTRACT_REVERT_EXECUTED') {
            assert.strictEqual(deepest.result_data_type, 'REVERT_REASON');
            assert.strictEqual(deepest.result_data, item.error_message ?? '0x');
          } else {
            assert.strictEqual(deepest.result_data_type, 'ERROR');
            assert.strictEqual(
              Buffer.from((deepest.result_data as string).slice(2), 'hex').toString(),
              item.error_message,
            );
          }
          // nothing runs after the failure: every later action is one the failing frame made before it failed
          const origin = failing[failing.length - 1];
          for (let j = origin + 1; j < actions.length; j++) {
            let k = j;
            while (k > origin) k = ps[k];
            assert.strictEqual(k, origin, `action ${j} of ${id} runs inside the failing frame ${origin}`);
          }
        }
      }
      assert.ok(reverted > 10 && nested > 10, `${reverted} failed, ${nested} nested traces checked`);
    });

    it('every kind of frame and event appears: delegate and static calls, CREATE, the system contracts 0x167-0x16a, ERC-20/721/1155 and custom events', async () => {
      const ops = new Set<string>();
      const recipients = new Set<string>();
      const topics = new Set<string>();
      let topicCounts = new Set<number>();
      let bigData = 0;
      let url: string | null = '/api/v1/contracts/results?limit=100';
      for (let p = 0; p < 6 && url; p++) {
        const page = await get(url);
        for (const r of page.json.results as Obj[]) {
          const actions = (await get(`/api/v1/contracts/results/${r.hash as string}/actions?limit=100`)).json
            .actions as Obj[];
          for (const a of actions) {
            ops.add(`${String(a.call_operation_type)}/${String(a.call_type)}`);
            if (a.call_type === 'PRECOMPILE') recipients.add(a.recipient as string);
          }
          if (r.bloom === '0x' + '0'.repeat(512)) continue;
          for (const l of (await get(`/api/v1/contracts/results/${r.hash as string}`)).json.logs as Obj[]) {
            const t = l.topics as string[];
            topics.add(t[0]);
            topicCounts = topicCounts.add(t.length);
            if ((l.data as string).length > 2 && BigInt((l.data as string).slice(0, 66)) > 2n ** 53n) bigData++;
          }
        }
        url = (page.json.links as Obj).next as string | null;
      }
      for (const op of ['CALL/CALL', 'DELEGATECALL/CALL', 'STATICCALL/CALL', 'CALL/PRECOMPILE', 'CREATE/CREATE'])
        assert.ok(ops.has(op), `${op} in ${[...ops].join(' ')}`);
      for (const sys of ['0.0.359', '0.0.360', '0.0.361', '0.0.362'])
        assert.ok(recipients.has(sys), `a call of the system contract ${sys}`);
      for (const sig of [
        'Transfer(address,address,uint256)',
        'Approval(address,address,uint256)',
        'ApprovalForAll(address,address,bool)',
        'TransferSingle(address,address,address,uint256,uint256)',
        'VoteCast(address,uint256,uint8,uint256,string)',
        'Swap(address,uint256,uint256,uint256,uint256,address)',
      ]) {
        assert.ok(topics.has(toEventSelector(sig)), sig);
      }
      for (const n of [1, 2, 3, 4]) assert.ok(topicCounts.has(n), `logs with ${n} topics`);
      assert.ok(bigData > 10, 'uint256 event data past 2^53');
    });

    it('the scenarios are in every list: /contracts/results, /contracts/{id}/results, /transactions', async () => {
      const vault = (
        await pageAll(get, `/api/v1/contracts/${ins.contracts.vault.id}/results?limit=100`, 'results')
      ).items.map((r) => r.timestamp);
      const vaultKeys = [
        'inspectorNoActions',
        'inspectorSuccess',
        'inspectorEthereum',
        'inspectorLedgerRevert',
        'inspectorDeepRevert',
        'inspectorLibraryRevert',
        'inspectorPrecompile',
        'inspectorPartial',
        'inspectorInternalRevert',
      ];
      for (const k of vaultKeys) {
        assert.ok(vault.includes(ins[k].timestamp), k);
        const list = (await get(`/api/v1/contracts/results?timestamp=${ins[k].timestamp}`)).json.results as Obj[];
        assert.deepStrictEqual(
          list.map((r) => r.hash),
          [ins[k].hash],
          k,
        );
        assert.strictEqual(
          ((await get(`/api/v1/transactions?timestamp=${ins[k].timestamp}`)).json.transactions as Obj[])[0]
            .transaction_id,
          ins[k].transactionId,
        );
      }
      const hts = (
        await get(
          `/api/v1/contracts/0.0.359/results?internal=true&timestamp=${ins.inspectorPrecompile.children[0].timestamp}`,
        )
      ).json.results as Obj[];
      assert.strictEqual(hts.length, 1);
      // no generated result is the scenarios' (their numbers are the scenarios' alone)
      assert.deepStrictEqual(new Set(vault), new Set(vaultKeys.map((k) => ins[k].timestamp)));
      // the failed deployment: in /contracts/results and /transactions, in no contract's results (it created none)
      const create = ins.inspectorCreateRevert;
      assert.deepStrictEqual(
        ((await get(`/api/v1/contracts/results?timestamp=${create.timestamp}`)).json.results as Obj[]).map((r) => [
          r.hash,
          r.contract_id,
        ]),
        [[create.hash, null]],
      );
      assert.strictEqual(
        ((await get(`/api/v1/transactions?timestamp=${create.timestamp}`)).json.transactions as Obj[])[0]
          .transaction_id,
        create.transactionId,
      );
      assert.ok(!vault.includes(create.timestamp));
      for (const [account, keys] of [
        [
          ins.accounts.depositor.id,
          [
            'inspectorSuccess',
            'inspectorInternalRevert',
            'inspectorProxyRevert',
            'inspectorTokenFacade',
            'inspectorTokenFacadeRevert',
          ],
        ],
        [
          ins.accounts.owner.id,
          ['inspectorNoActions', 'inspectorLedgerRevert', 'inspectorDeepRevert', 'inspectorPrecompile'],
        ],
      ] as const) {
        const from = (await get(`/api/v1/contracts/results?from=${account}&limit=100`)).json.results as Obj[];
        assert.deepStrictEqual(
          new Set(from.map((r) => r.timestamp)),
          new Set(keys.map((k) => ins[k].timestamp)),
          account,
        );
      }
      for (const c of [ins.contracts.ledger.id, ins.contracts.accounting.id, ins.contracts.vaultRules.id])
        assert.deepStrictEqual((await get(`/api/v1/contracts/${c}/results`)).json.results, [], c);
      // the call through the proxy is the proxy's result (its implementation ran in a DELEGATECALL)
      const proxied = ins.inspectorProxyRevert;
      assert.deepStrictEqual(
        ((await get(`/api/v1/contracts/${ins.contracts.vaultProxy.id}/results`)).json.results as Obj[]).map(
          (r) => r.hash,
        ),
        [proxied.hash],
      );
      assert.ok(!vault.includes(proxied.timestamp));
      const proxy = await get(`/api/v1/contracts/${ins.contracts.vaultProxy.evm}`);
      assert.strictEqual(proxy.json.contract_id, ins.contracts.vaultProxy.id);
      assert.strictEqual(proxy.json.runtime_bytecode, PROXY.deployedBytecode, "the proxy's compiled runtime code");
      const code = await get(`/api/v1/contracts/${ins.contracts.vault.id}`);
      assert.strictEqual(code.json.runtime_bytecode, VAULT.deployedBytecode, "the Vault's compiled runtime code");
      assert.strictEqual(code.json.evm_address, ins.contracts.vault.evm);
      assert.strictEqual(
        (await get(`/api/v1/contracts/${ins.contracts.ledger.evm}`)).json.contract_id,
        ins.contracts.ledger.id,
      );
    });

    it('live results get details, actions and transactions too', async () => {
      const { added } = sb.addContractResults({ count: 3 });
      for (const a of added) {
        const d = await get(`/api/v1/contracts/results/${a.hash}`);
        assert.strictEqual(d.json.timestamp, a.timestamp);
        assert.strictEqual((await get(`/api/v1/contracts/results/${a.hash}/actions`)).status, 200);
        const t = (await get(`/api/v1/transactions?timestamp=${a.timestamp}`)).json.transactions as Obj[];
        assert.strictEqual((await get(`/api/v1/transactions/${t[0].transaction_id as string}`)).status, 200);
      }
    });
  });

  describe('actions', () => {
    it('1,200 actions nested a few levels: ceil(1200/limit) pages when the last is short; a full last page still links to an empty one (as the real server)', async () => {
      const s = ins.inspectorBigTrace;
      assert.strictEqual(s.actions, 1200);
      const seventy = await pageAll(get, `/api/v1/contracts/results/${s.transactionId}/actions?limit=70`, 'actions');
      assert.strictEqual(seventy.requests, Math.ceil(1200 / 70));
      assert.deepStrictEqual(
        seventy.items.map((a) => a.index),
        Array.from({ length: 1200 }, (_, i) => i),
      );
      const depths = new Set(seventy.items.map((a) => a.call_depth));
      assert.deepStrictEqual([...depths].sort(), [0, 1, 2, 3]);
      const hundred = await pageAll(get, `/api/v1/contracts/results/${s.hash}/actions?limit=100`, 'actions');
      assert.strictEqual(hundred.items.length, 1200);
      assert.strictEqual(hundred.requests, 13, '12 full pages, each with a next link, then an empty one');
      const desc = await pageAll(
        get,
        `/api/v1/contracts/results/${s.transactionId}/actions?limit=100&order=desc`,
        'actions',
      );
      assert.deepStrictEqual(
        desc.items.map((a) => a.index),
        Array.from({ length: 1200 }, (_, i) => 1199 - i),
      );
      const first = await get(`/api/v1/contracts/results/${s.transactionId}/actions`);
      assert.strictEqual((first.json.actions as Obj[]).length, 25, 'default limit');
      assert.strictEqual(
        (first.json.links as Obj).next,
        `/api/v1/contracts/results/${s.transactionId}/actions?index=gt:24`,
      );
      assert.strictEqual(
        first.headers.get('link'),
        `</api/v1/contracts/results/${s.transactionId}/actions?index=gt:24>; rel="next"`,
      );
    });

    it('index filters (eq, gt, gte, lt, lte), order and links.next as the real getPaginationLink', async () => {
      const s = ins.inspectorBigTrace;
      const idx = async (q: string): Promise<number[]> =>
        ((await get(`/api/v1/contracts/results/${s.transactionId}/actions?${q}`)).json.actions as Obj[]).map((a) =>
          Number(a.index),
        );
      assert.deepStrictEqual(await idx('index=2'), [2]);
      assert.deepStrictEqual(await idx('index=eq:2'), [2]);
      assert.deepStrictEqual(await idx('index=gt:1&index=lt:5'), [2, 3, 4]);
      assert.deepStrictEqual(await idx('index=gte:1&index=lte:5&order=desc'), [5, 4, 3, 2, 1]);
      assert.deepStrictEqual(await idx('index=gt:1198'), [1199]);
      assert.deepStrictEqual(await idx('index=gt:1199'), []);
      const all = await get(`/api/v1/contracts/results/${s.transactionId}/actions?index=lt:3&order=desc&limit=1`);
      assert.strictEqual(
        (all.json.links as Obj).next,
        `/api/v1/contracts/results/${s.transactionId}/actions?order=desc&limit=1&index=lt:2`,
      );
      const none = await get(`/api/v1/contracts/results/${s.transactionId}/actions?index=eq:1199&limit=1`);
      // an eq filter is kept as it is (updateReqQuery appends a cursor only to gt/lt filters): the same page again
      assert.strictEqual(
        (none.json.links as Obj).next,
        `/api/v1/contracts/results/${s.transactionId}/actions?index=eq:1199&limit=1`,
      );
    });

    it('the real validation messages; 404 for an unknown transaction; an empty list for one recorded without actions', async () => {
      const s = ins.inspectorSuccess;
      const base = `/api/v1/contracts/results/${s.transactionId}/actions`;
      assert.deepStrictEqual(
        (await get(`${base}?order=b&limit=c&nonce=2`)).json,
        errorOf('Invalid parameter: order', 'Invalid parameter: limit', 'Unknown query parameter: nonce'),
      );
      assert.deepStrictEqual((await get(`${base}?index=ne:3`)).json, errorOf('Invalid parameter: index'));
      assert.deepStrictEqual((await get(`${base}?index=eq:test`)).json, errorOf('Invalid parameter: index'));
      assert.deepStrictEqual(
        (await get(`${base}?limit=0&limit=x&foo=1&foo=2`)).json,
        errorOf(
          'Invalid parameter: limit',
          'Invalid parameter: limit',
          'Unknown query parameter: foo',
          'Unknown query parameter: foo',
        ),
      );
      assert.deepStrictEqual((await get('/api/v1/contracts/results/x/actions')).json, errorOf(TX_ID_MESSAGE));
      for (const u of ['0.0.98765-1600000000-000000001', '0x' + 'ef'.repeat(32)])
        assert.deepStrictEqual((await get(`/api/v1/contracts/results/${u}/actions`)).json, NOT_FOUND);
      const n = ins.inspectorNoActions;
      assert.strictEqual(n.actions, 0);
      for (const u of [n.transactionId, n.hash]) {
        const r = await get(`/api/v1/contracts/results/${u}/actions`);
        assert.deepStrictEqual([r.status, r.json], [200, { actions: [], links: { next: null } }]);
      }
      assert.strictEqual(
        (await get(`/api/v1/contracts/results/${n.transactionId}`)).status,
        200,
        'its result and transaction are there',
      );
    });

    it('inspectorDeepRevert: a revert 3 frames deep through a DELEGATECALL into Accounting and a CALL into Ledger bubbles up to error_message', async () => {
      const s = ins.inspectorDeepRevert;
      const r = await get(`/api/v1/contracts/results/${s.transactionId}`);
      const actions = (await get(`/api/v1/contracts/results/${s.hash}/actions`)).json.actions as Obj[];
      assert.deepStrictEqual([actions.length, s.actions], [5, 5], 'settle, STATICCALL, PRECOMPILE, DELEGATECALL, CALL');
      assert.strictEqual(s.failingAction, 4);
      const ps = parents(actions);
      const deepest = actions[4];
      assert.deepStrictEqual(
        [deepest.call_depth, deepest.call_operation_type, deepest.recipient, deepest.result_data_type],
        [2, 'CALL', ins.contracts.ledger.id, 'REVERT_REASON'],
      );
      assert.deepStrictEqual(
        [actions[ps[4]].call_operation_type, actions[ps[4]].recipient],
        ['DELEGATECALL', ins.contracts.accounting.id],
      );
      for (let j = 4; j >= 0; j = ps[j])
        assert.strictEqual(actions[j].result_data, r.json.error_message, `action ${j} carries the revert data`);
      assert.strictEqual(
        decodeErrorResult({ abi: [], data: r.json.error_message as `0x${string}` }).args?.[0],
        'Ledger: amount too large',
      );
      assert.ok(actions.some((a) => a.call_operation_type === 'STATICCALL' && a.recipient === ins.contracts.ledger.id));
      assert.ok(
        actions.some((a) => a.call_type === 'PRECOMPILE' && a.to === '0x0000000000000000000000000000000000000169'),
      );
      const call = decodeFunctionData({ abi: VAULT.abi, data: actions[0].input as `0x${string}` });
      assert.strictEqual(call.functionName, 'settle');
      assert.strictEqual((call.args as unknown[])[1], 1_500_000_000_000_000_000_000_000n);
      const record = decodeFunctionData({ abi: LEDGER.abi, data: deepest.input as `0x${string}` });
      assert.strictEqual(record.functionName, 'record');
      assert.deepStrictEqual([r.json.result, r.json.status, r.json.logs], ['CONTRACT_REVERT_EXECUTED', '0x0', []]);
      assert.ok(
        (r.json.state_changes as Obj[]).length > 0 &&
          (r.json.state_changes as Obj[]).every((c) => c.value_written === null),
      );
    });

    it('inspectorPrecompile: the token service as a PRECOMPILE action, its child CRYPTOTRANSFER (nonce 1) with token transfers past 2^53 and the assessed fee', async () => {
      const s = ins.inspectorPrecompile;
      const actions = (await get(`/api/v1/contracts/results/${s.transactionId}/actions`)).json.actions as Obj[];
      const hts = actions.find((a) => a.call_type === 'PRECOMPILE') as Obj;
      assert.deepStrictEqual(
        [hts.recipient, hts.to, hts.call_depth, hts.result_data],
        ['0.0.359', '0x0000000000000000000000000000000000000167', 1, '0x' + (22).toString(16).padStart(64, '0')],
      );
      const transfer = decodeFunctionData({
        abi: parseAbi([
          'function transferToken(address token, address sender, address recipient, int64 amount) returns (int64)',
        ]),
        data: hts.input as `0x${string}`,
      });
      assert.deepStrictEqual(
        (transfer.args as unknown as unknown[]).map((a) => (typeof a === 'string' ? a.toLowerCase() : a)),
        [
          lz(ins.accounts.payoutToken.id),
          ins.contracts.vault.evm,
          ins.accounts.aliasSender.evm,
          9_007_199_254_740_993n,
        ],
      );
      const payout = decodeFunctionData({ abi: VAULT.abi, data: actions[0].input as `0x${string}` });
      assert.strictEqual(payout.functionName, 'payout');
      const txs = (await get(`/api/v1/transactions/${s.transactionId}`)).json.transactions as Obj[];
      assert.deepStrictEqual(
        txs.map((t) => [t.nonce, t.name, t.consensus_timestamp]),
        [
          [0, 'CONTRACTCALL', s.timestamp],
          [1, 'CRYPTOTRANSFER', s.children[0].timestamp],
        ],
      );
      const child = txs[1];
      const tokens = child.token_transfers as Obj[];
      assert.deepStrictEqual(
        tokens.map((t) => [t.token_id, t.account]),
        [
          [ins.accounts.payoutToken.id, ins.contracts.vault.id],
          [ins.accounts.payoutToken.id, ins.accounts.aliasSender.id],
          [ins.accounts.payoutToken.id, '0.0.7009'],
        ],
      );
      assert.strictEqual(tokens[0].amount, -9_007_199_254_740_993n, 'every digit');
      assert.strictEqual(
        tokens.reduce((sum, t) => sum + big(t.amount), 0n),
        0n,
      );
      assert.deepStrictEqual(child.assessed_custom_fees, [
        {
          amount: 9_007_199_254_740,
          collector_account_id: '0.0.7009',
          effective_payer_account_ids: [ins.accounts.aliasSender.id],
          token_id: ins.accounts.payoutToken.id,
        },
      ]);
      assert.deepStrictEqual(
        [child.charged_tx_fee, child.transfers, child.parent_consensus_timestamp],
        [0, [], s.timestamp],
      );
      // the child's own contract result: the call the PRECOMPILE action made
      const internal = await get(`/api/v1/contracts/results/${s.transactionId}?nonce=1`);
      assert.strictEqual(internal.json.function_parameters, hts.input);
      assert.strictEqual(internal.json.call_result, hts.result_data);
      // the owner|feeBps packed slot 0 read (onlyOwner)
      const changes = (await get(`/api/v1/contracts/results/${s.transactionId}`)).json.state_changes as Obj[];
      const slot0 = changes.find((c) => c.slot === slotWord(slotOf(VAULT, 'owner'))) as Obj;
      assert.strictEqual(slot0.value_written, null);
      const word = BigInt(slot0.value_read as string);
      assert.strictEqual(
        '0x' + (word & ((1n << 160n) - 1n)).toString(16).padStart(40, '0'),
        ins.accounts.owner.evm,
        'owner in the low 20 bytes',
      );
      assert.strictEqual(word >> 160n, 30n, 'feeBps above it (30, set by inspectorNoActions)');
    });

    it('inspectorEthereum: an ETHEREUMTRANSACTION (type 2) from an EVM alias, paid by the relay', async () => {
      const s = ins.inspectorEthereum;
      const d = await get(`/api/v1/contracts/results/${s.hash}`);
      // a type 2 transaction carries no authorization list: no key (ContractResultViewModel `!isEmpty(...)`)
      assert.deepStrictEqual(Object.keys(d.json), DETAIL_KEYS);
      assert.deepStrictEqual(
        [d.json.type, d.json.chain_id, d.json.from, d.json.to],
        [2, '0x128', lz(ins.accounts.aliasSender.id), ins.contracts.vault.evm],
      );
      assert.match(d.json.r as string, /^0x[0-9a-f]{64}$/);
      const logs = d.json.logs as Obj[];
      assert.strictEqual(
        (logs[0].topics as string[])[1],
        '0x' + ins.accounts.aliasSender.evm.slice(2).padStart(64, '0'),
        'msg.sender is the alias',
      );
      const tx = ((await get(`/api/v1/transactions/${s.transactionId}`)).json.transactions as Obj[])[0];
      assert.deepStrictEqual([tx.name, s.transactionId.split('-')[0]], ['ETHEREUMTRANSACTION', ins.accounts.relay.id]);
      const moves = new Map((tx.transfers as Obj[]).map((t) => [t.account, big(t.amount)]));
      assert.strictEqual(moves.get(ins.contracts.vault.id), -1_000_000_000n, 'the Vault pays the withdrawal');
      assert.ok(
        (moves.get(ins.accounts.aliasSender.id) as bigint) > 0n && (moves.get(ins.accounts.relay.id) as bigint) < 0n,
      );
      const actions = (await get(`/api/v1/contracts/results/${s.transactionId}/actions`)).json.actions as Obj[];
      assert.deepStrictEqual(
        [actions[1].recipient, actions[1].recipient_type, actions[1].value],
        [ins.accounts.aliasSender.id, 'ACCOUNT', 1_000_000_000],
      );
    });
  });

  describe('transactions', () => {
    it('transactions/{id}: every transaction with the id, nonce and scheduled filters, by 48-byte hash in each form, 404 and 400 as the real server', async () => {
      const s = ins.inspectorPrecompile;
      const all = await get(`/api/v1/transactions/${s.transactionId}`);
      assert.strictEqual(all.headers.get('cache-control'), 'public, max-age=600');
      assert.deepStrictEqual(Object.keys(all.json), ['transactions']);
      const items = all.json.transactions as Obj[];
      assert.deepStrictEqual(
        items.map((t) => t.nonce),
        [0, 1],
      );
      assert.deepStrictEqual(Object.keys(items[1]), ['assessed_custom_fees', ...TX_KEYS]);
      assert.deepStrictEqual(
        ((await get(`/api/v1/transactions/${s.transactionId}?nonce=1`)).json.transactions as Obj[]).map((t) => t.nonce),
        [1],
      );
      assert.deepStrictEqual(
        ((await get(`/api/v1/transactions/${s.transactionId}?nonce=2&nonce=0`)).json.transactions as Obj[]).map(
          (t) => t.nonce,
        ),
        [0],
      );
      assert.deepStrictEqual((await get(`/api/v1/transactions/${s.transactionId}?scheduled=false`)).json, all.json);
      assert.deepStrictEqual((await get(`/api/v1/transactions/${s.transactionId}?scheduled=true`)).json, NOT_FOUND);
      assert.deepStrictEqual((await get(`/api/v1/transactions/${s.transactionId}?nonce=3`)).json, NOT_FOUND);
      const hex = s.transactionHash.slice(2);
      for (const h of [hex, `0x${hex}`, Buffer.from(hex, 'hex').toString('base64url')])
        assert.deepStrictEqual((await get(`/api/v1/transactions/${h}`)).json, all.json, h);
      assert.strictEqual(items[0].transaction_hash, Buffer.from(hex, 'hex').toString('base64'));
      for (const u of [
        '0.1.10-1234567891.000000000',
        'izUDXqZ8gOhKlL5vbFInnw2VObTXzNWEH2QOg7XOUQwl9Mp2SVil8lufZIU6xJEEk===',
        `0x${hex.slice(2)}`,
      ]) {
        assert.deepStrictEqual(
          (await get(`/api/v1/transactions/${encodeURIComponent(u)}`)).json,
          errorOf(TX_ID_MESSAGE),
          u,
        );
      }
      for (const u of ['0.1.10-1234567891-000000000', 'ab'.repeat(48)])
        assert.deepStrictEqual((await get(`/api/v1/transactions/${u}`)).json, NOT_FOUND, u);
      const bad = await get(
        `/api/v1/transactions/${s.transactionId}?scheduled=ne:true&scheduled=1&scheduled=&nonce=-1&nonce=x&token.id=0.0.45678`,
      );
      assert.deepStrictEqual(
        bad.json,
        errorOf(
          ...Array(3).fill('Invalid parameter: scheduled'),
          ...Array(2).fill('Invalid parameter: nonce'),
          'Unknown query parameter: token.id',
        ),
      );
    });

    it('transactions: timestamp (eq and ranges), limit, order, transactiontype, result, account.id, links.next; the real validation', async () => {
      const s = ins.inspectorPrecompile;
      const at = await get(`/api/v1/transactions?timestamp=${s.timestamp}&limit=1`);
      assert.strictEqual(at.headers.get('cache-control'), 'public, max-age=2');
      assert.deepStrictEqual(
        (at.json.transactions as Obj[]).map((t) => t.transaction_id),
        [s.transactionId],
      );
      assert.deepStrictEqual(
        Object.keys((at.json.transactions as Obj[])[0]),
        TX_KEYS,
        'the list has no assessed_custom_fees',
      );
      const range = await get(
        `/api/v1/transactions?timestamp=gte:${s.timestamp}&timestamp=lte:${s.children[0].timestamp}&order=asc`,
      );
      assert.deepStrictEqual(
        (range.json.transactions as Obj[]).map((t) => t.nonce),
        [0, 1],
      );
      const page = await get('/api/v1/transactions?limit=2');
      const items = page.json.transactions as Obj[];
      assert.strictEqual(items.length, 2);
      assert.ok(String(items[0].consensus_timestamp) >= String(items[1].consensus_timestamp), 'newest first');
      assert.strictEqual(
        (page.json.links as Obj).next,
        `/api/v1/transactions?limit=2&timestamp=lt:${String(items[1].consensus_timestamp)}`,
      );
      const children = (await get('/api/v1/transactions?transactiontype=cryptotransfer&limit=100')).json
        .transactions as Obj[];
      assert.ok(children.length > 0 && children.every((t) => t.name === 'CRYPTOTRANSFER' && t.nonce !== 0));
      const failed = (await get('/api/v1/transactions?result=fail&limit=100')).json.transactions as Obj[];
      assert.ok(failed.length > 10 && failed.every((t) => t.result !== 'SUCCESS'));
      const owner = (
        await pageAll(get, `/api/v1/transactions?account.id=${ins.accounts.owner.id}&limit=100`, 'transactions')
      ).items;
      assert.deepStrictEqual(
        new Set(owner.map((t) => t.transaction_id)),
        new Set(
          [ins.inspectorNoActions, ins.inspectorLedgerRevert, ins.inspectorDeepRevert, ins.inspectorPrecompile].map(
            (x) => x.transactionId,
          ),
        ),
      );
      const credited = (
        await get(`/api/v1/transactions?account.id=${ins.accounts.aliasSender.id}&type=credit&limit=100`)
      ).json.transactions as Obj[];
      assert.ok(
        credited.some((t) => t.consensus_timestamp === ins.inspectorEthereum.timestamp) &&
          credited.some((t) => t.nonce === 1),
      );
      assert.deepStrictEqual(
        (await get(`/api/v1/transactions?timestamp=${s.timestamp}&timestamp=${ins.inspectorSuccess.timestamp}`)).json,
        { transactions: [], links: { next: null } },
      );
      assert.deepStrictEqual((await get('/api/v1/transactions?type=credit&type=debit')).json, {
        transactions: [],
        links: { next: null },
      });
      const bad = await get(
        '/api/v1/transactions?timestamp=-1&account.id=0.x&type=good&result=best&transactionType=invalid&account.publickey=3c3d',
      );
      assert.deepStrictEqual(
        bad.json,
        errorOf(
          'Invalid parameter: timestamp',
          'Invalid parameter: account.id',
          'Invalid parameter: type',
          'Invalid parameter: result',
          'Invalid parameter: transactiontype',
          'Unknown query parameter: account.publickey',
        ),
      );
      assert.deepStrictEqual(
        (await get('/api/v1/transactions?account.id=0.70000.1')).json,
        errorOf('Invalid entity ID "0.70000.1"'),
      );
    });
  });

  describe('faults, hostile mode, determinism', () => {
    it('a fault on a path hits only what its prefix names: actions alone, or one transaction', async () => {
      const s = ins.inspectorDeepRevert;
      sb.addFault({ path: `/api/v1/contracts/results/${s.transactionId}/actions`, fault: { status: 503 } });
      assert.strictEqual((await get(`/api/v1/contracts/results/${s.transactionId}`)).status, 200);
      const a = await get(`/api/v1/contracts/results/${s.transactionId}/actions`);
      assert.deepStrictEqual([a.status, a.json], [503, errorOf('Service unavailable')]);
      assert.strictEqual((await get(`/api/v1/contracts/results/${s.transactionId}/actions`)).status, 200, 'used up');
      sb.addFault({ path: `/api/v1/transactions/${s.transactionId}`, fault: { status: 404 } });
      assert.strictEqual((await get(`/api/v1/transactions?timestamp=${s.timestamp}`)).status, 200);
      assert.deepStrictEqual((await get(`/api/v1/transactions/${s.transactionId}`)).json, NOT_FOUND);
      sb.clearFaults();
    });

    it('hostile text: the revert reason in error_message and in the failing actions, memos, event strings; unknown fields on items', async () => {
      const h = { 'x-sandbox-hostile': 'text,unknown-fields' };
      const s = ins.inspectorDeepRevert;
      const d = await get(`/api/v1/contracts/results/${s.transactionId}`, h);
      const reason = decodeErrorResult({ abi: [], data: d.json.error_message as `0x${string}` }).args?.[0] as string;
      assert.notStrictEqual(reason, 'Ledger: amount too large');
      const actions = (await get(`/api/v1/contracts/results/${s.transactionId}/actions`, h)).json.actions as Obj[];
      assert.strictEqual(actions[4].result_data, d.json.error_message, 'the same hostile text deep in the trace');
      assert.ok(
        'zz_future_string' in actions[0] &&
          '__proto__' in
            JSON.parse((await get(`/api/v1/contracts/results/${s.transactionId}/actions`, h)).text).actions[0],
      );
      const tx = (
        (await get(`/api/v1/transactions/${s.transactionId}`, { 'x-sandbox-hostile': 'text' })).json
          .transactions as Obj[]
      )[0];
      assert.notStrictEqual(Buffer.from(tx.memo_base64 as string, 'base64').toString(), '');
      // a DAO vote's reason string
      const vote = sample.find(
        (r) =>
          (r.function_parameters as string).startsWith('0x56781388') &&
          r.result === 'SUCCESS' &&
          r.bloom !== '0x' + '0'.repeat(512),
      ) as Obj;
      const plain = ((await get(`/api/v1/contracts/results/${vote.hash as string}`)).json.logs as Obj[]).find(
        (l) => (l.topics as string[])[0] === toEventSelector('VoteCast(address,uint256,uint8,uint256,string)'),
      ) as Obj;
      const hostile = (
        (await get(`/api/v1/contracts/results/${vote.hash as string}`, { 'x-sandbox-hostile': 'text' })).json
          .logs as Obj[]
      ).find((l) => l.index === plain.index) as Obj;
      assert.notStrictEqual(hostile.data, plain.data);
      assert.strictEqual(
        (hostile.data as string).slice(0, 2 + 64 * 3),
        (plain.data as string).slice(0, 2 + 64 * 3),
        'the other arguments kept',
      );
    });

    it('the same answers on every start', async () => {
      const other = await startSandbox({ port: 0 });
      try {
        const again = ((await getJson(other.url, '/__sandbox/health')).json.notable as Obj).inspector;
        assert.deepStrictEqual(again, ins);
        const urls = [
          ...['inspectorDeepRevert', 'inspectorPrecompile', 'inspectorBigTrace', 'inspectorEthereum'].flatMap((k) => [
            `/api/v1/contracts/results/${ins[k].transactionId}`,
            `/api/v1/contracts/results/${ins[k].hash}/actions?limit=100&index=gte:7`,
            `/api/v1/transactions/${ins[k].transactionId}`,
          ]),
          ...sample.slice(0, 40).map((r) => `/api/v1/contracts/results/${r.hash as string}`),
          ...sample.slice(0, 40).map((r) => `/api/v1/contracts/results/${r.hash as string}/actions`),
          '/api/v1/transactions?limit=100&order=asc',
        ];
        for (const u of urls) assert.strictEqual((await getJson(other.url, u)).text, (await get(u)).text, u);
      } finally {
        await other.close();
      }
    });
  });
});
