// Address discovery over fixture workspaces of each kind (Hardhat Ignition, hardhat-deploy, Foundry broadcast,
// .env), the documented order, several candidates, entity ids, and the sentences for values that are not addresses;
// Ignition's journal read for contract names (its artifacts not read), with hostile journals.
import * as assert from 'assert';
import * as fs from 'fs';
import * as os from 'os';
import * as path from 'path';
import { addressFromSelection, parseContractAddress } from '../../src/workspace/address';
import {
  discoverAddresses,
  IgnitionJournalReader,
  isContractKey,
  parseDotenv,
  readIgnitionJournal,
} from '../../src/workspace/discovery';
import type { WorkspaceFs } from '../../src/workspace/workspaceFs';
import { nodeWorkspaceFs } from '../support/nodeFs';
import { FIXTURES } from './helpers';

const ws = (kind: string) => nodeWorkspaceFs(path.join(FIXTURES, 'workspaces', kind));
const A = (n: string) => `0x10000000000000000000000000000000000000${n}`;

describe('workspace: contract address input', () => {
  it('accepts EVM addresses in any case, with or without 0x, and normalises them', () => {
    const r = parseContractAddress('  0X1000000000000000000000000000000000000ABC ');
    assert.ok(!r.ok, '0X prefix is not 0x');
    assert.deepStrictEqual(parseContractAddress('1000000000000000000000000000000000000aBc'), {
      ok: true,
      value: { address: '0x1000000000000000000000000000000000000abc' },
    });
    assert.deepStrictEqual(parseContractAddress('"0x1000000000000000000000000000000000000002"'), {
      ok: true,
      value: { address: A('02') },
    });
  });

  it('turns an entity id into its long-zero EVM address', () => {
    assert.deepStrictEqual(parseContractAddress('0.0.1234'), {
      ok: true,
      value: { address: '0x00000000000000000000000000000000000004d2', entityId: '0.0.1234' },
    });
    assert.deepStrictEqual(parseContractAddress('0.0.5001-abcde'), {
      ok: true,
      value: { address: '0x0000000000000000000000000000000000001389', entityId: '0.0.5001' },
    });
    const big = parseContractAddress('1.2.4294967297');
    assert.ok(big.ok && big.value.address === '0x0000000100000000000000020000000100000001', JSON.stringify(big));
  });

  it('refuses anything else with one sentence', () => {
    const cases: Array<[string, RegExp]> = [
      ['', /Enter the contract's EVM address/],
      ['0x1234', /has 4 hexadecimal digits after 0x, an address has 40/],
      ['1234', /write an entity id in full, for example 0\.0\.1234/],
      ['0.0.0', /not a contract/],
      ['0x0000000000000000000000000000000000000000', /zero address/],
      ['hello world', /neither an EVM address .* nor a Hedera entity id/],
      ['0.0.12.3', /neither/],
      ['0x10000000000000000000000000000000000000zz', /neither|not an EVM address/],
    ];
    for (const [input, re] of cases) {
      const r = parseContractAddress(input);
      assert.ok(!r.ok, input);
      if (!r.ok) {
        assert.match(r.message, re, input);
        assert.ok(/[.:]$/.test(r.message.trim()) && r.message.split('. ').length <= 2, `one sentence: ${r.message}`);
      }
    }
  });

  it('finds the single address in a selected line, refuses several or none', () => {
    assert.deepStrictEqual(addressFromSelection('const TOKEN = "0x1000000000000000000000000000000000000002";'), {
      ok: true,
      value: { address: A('02') },
    });
    const two = addressFromSelection(`${A('02')} ${A('03')}`);
    assert.ok(!two.ok && /2 different addresses/.test(two.message));
    const none = addressFromSelection('pragma solidity ^0.8.24;');
    assert.ok(!none.ok && /^The selection is not a contract address/.test(none.message));
  });
});

describe('workspace: address discovery', () => {
  it('Hardhat Ignition: chain-<id> folders and a custom deployment id with the chain in its journal; other chains skipped', async () => {
    const d = await discoverAddresses({ folders: [ws('hardhat-ignition')], chainId: 296 });
    const rows = d.candidates.map((c) => [c.source, c.address, c.contractName, c.chainId]);
    assert.deepStrictEqual(rows, [
      ['ignition', A('03'), 'Counter', 296],
      ['ignition', A('02'), 'Token', 296],
      ['ignition', A('03'), 'Counter', 295],
      ['ignition', A('04'), 'Vault', 295],
    ]);
    assert.strictEqual(
      d.candidates[0].where,
      'ignition/deployments/chain-296/deployed_addresses.json › CounterModule#Counter',
    );
    assert.strictEqual(d.candidates[0].folder, 'hardhat-ignition');
    assert.ok(
      d.skipped.some((s) => /chain-31337.*chain 31337 is not a Hedera network/.test(s)),
      d.skipped.join('\n'),
    );
  });

  it('hardhat-deploy: deployments/<network>/*.json with .chainId, the build target and solcInputs from the record', async () => {
    const d = await discoverAddresses({ folders: [ws('hardhat-deploy')] });
    assert.strictEqual(d.candidates.length, 1);
    const c = d.candidates[0];
    assert.deepStrictEqual(
      [c.source, c.address, c.contractName, c.chainId],
      ['hardhat-deploy', A('03'), 'Counter', 296],
    );
    assert.match(c.where, /^deployments\/hedera_testnet\/Counter\.json \(hedera_testnet\)$/);
    assert.match(c.creationTxHash ?? '', /^0x[0-9a-f]{64}$/);
    assert.strictEqual(c.build?.sourcePath, 'contracts/Counter.sol');
    assert.strictEqual(c.build?.compilerVersion, '0.8.28+commit.7893614a');
    assert.match(c.build?.stdJsonInputFile ?? '', /^deployments\/hedera_testnet\/solcInputs\/[0-9a-f]+\.json$/);
    assert.ok(d.skipped.some((s) => /localhost.*31337/.test(s)));
  });

  it('Foundry: broadcast/**/<chainId>/run-latest.json creates only, dry runs and other chains left out', async () => {
    const d = await discoverAddresses({ folders: [ws('foundry')] });
    assert.deepStrictEqual(
      d.candidates.map((c) => [c.source, c.address, c.contractName, c.chainId]),
      [
        ['foundry', A('03'), 'Counter', 296],
        ['foundry', A('04'), 'Vault', 296],
      ],
    );
    assert.match(
      d.candidates[0].where,
      /^broadcast\/Deploy\.s\.sol\/296\/run-latest\.json › Counter \(Deploy\.s\.sol\)$/,
    );
    assert.match(d.candidates[0].creationTxHash ?? '', /^0x[0-9a-f]{64}$/);
    assert.ok(!d.candidates.some((c) => c.address === A('0d')), 'dry run ignored');
  });

  it('.env: CONTRACT_ADDRESS / CONTRACT_ID and *_CONTRACT_* keys, entity ids converted, placeholders and examples ignored', async () => {
    const d = await discoverAddresses({ folders: [ws('env')] });
    assert.deepStrictEqual(
      d.candidates.map((c) => [c.address, c.entityId, c.where]),
      [
        [A('01'), undefined, '.env:2 › CONTRACT_ADDRESS'],
        ['0x0000000000000000000000000000000000001389', '0.0.5001', '.env:3 › TOKEN_CONTRACT_ID'],
        [A('0c'), undefined, '.env.local:1 › CONTRACT_ADDRESS_TESTNET'],
      ],
    );
    // VAULT_CONTRACT_ADDRESS repeats CONTRACT_ADDRESS with a 0X prefix: refused (0X is not 0x), so skipped with why
    assert.ok(
      d.skipped.some((s) => /\.env:6 › CONTRACT_ID: "not-an-id"/.test(s)),
      d.skipped.join('\n'),
    );
    assert.ok(!d.candidates.some((c) => c.where.startsWith('.env.example')));
    assert.ok(
      isContractKey('CONTRACT_ADDRESS') &&
        isContractKey('token_contract_id') &&
        !isContractKey('OPERATOR_ID') &&
        !isContractKey('CONTRACTOR'),
    );
    assert.deepStrictEqual(parseDotenv('export A = "x y" # c\nB=z # note\n# C=1\nD=\'q\''), [
      { key: 'A', value: 'x y', line: 1 },
      { key: 'B', value: 'z', line: 2 },
      { key: 'D', value: 'q', line: 4 },
    ]);
  });

  it('several sources: setting, then selection, then records in the documented order; duplicates merged with where else', async () => {
    const d = await discoverAddresses({
      setting: '0.0.1234',
      selection: `verify ${A('02')} please`,
      folders: [ws('env'), ws('foundry'), ws('hardhat-ignition'), ws('hardhat-deploy')],
      chainId: 296,
    });
    const kinds = d.candidates.map((c) => c.source);
    assert.deepStrictEqual(kinds, [
      'setting',
      'selection',
      'ignition',
      'ignition',
      'ignition',
      'foundry',
      'env',
      'env',
      'env',
    ]);
    assert.strictEqual(d.candidates[0].address, '0x00000000000000000000000000000000000004d2');
    assert.strictEqual(d.candidates[0].where, 'Setting hederaExplorer.contractAddress');
    const sel = d.candidates[1];
    assert.strictEqual(sel.address, A('02'));
    assert.ok(
      sel.alsoIn.some((w) => w.includes('TokenModule#Token')),
      'the selection is also in the Ignition record',
    );
    assert.strictEqual(sel.chainId, 296, 'chain filled in from the record');
    const counter = d.candidates.find((c) => c.address === A('03') && c.chainId === 296);
    assert.ok(counter && counter.source === 'ignition');
    assert.ok(
      counter.alsoIn.some((w) => w.startsWith('deployments/hedera_testnet')) &&
        counter.alsoIn.some((w) => w.startsWith('broadcast/')),
      counter.alsoIn.join(' | '),
    );
    assert.strictEqual(d.candidates[4].chainId, 295, "other chain after the network's chain within a kind");
    assert.deepStrictEqual(d.rejected, []);
  });

  it('a setting or selection that is not an address is rejected with a sentence; no records means no candidates', async () => {
    const d = await discoverAddresses({
      setting: 'my-contract',
      selection: 'function foo() {}',
      folders: [ws('empty')],
    });
    assert.deepStrictEqual(d.candidates, []);
    assert.deepStrictEqual(
      d.rejected.map((r) => r.source),
      ['setting', 'selection'],
    );
    assert.match(
      d.rejected[0].message,
      /^The setting hederaExplorer\.contractAddress is not usable: "my-contract" is neither/,
    );
    const none = await discoverAddresses({
      folders: [ws('empty'), nodeWorkspaceFs(path.join(FIXTURES, 'workspaces', 'does-not-exist'))],
    });
    assert.deepStrictEqual([none.candidates, none.rejected], [[], []]);
  });
});

/* ------------------------------------------------------------ Hardhat Ignition's journal */

/** The lines Hardhat Ignition (2 and 3) writes for a deployed future, keys sorted, each after a newline. */
function deployedLines(
  futureId: string,
  contractName: string,
  address: string,
  opts: { type?: string; futureType?: string; nonce?: number } = {},
): string[] {
  const big = (v: string) => ({ _kind: 'bigint', value: v });
  const hash = `0x${(opts.nonce ?? 0).toString(16).padStart(64, '0')}`;
  if (opts.type === 'CONTRACT_AT_EXECUTION_STATE_INITIALIZE') {
    return [
      JSON.stringify({
        artifactId: futureId,
        contractAddress: address,
        contractName,
        dependencies: [],
        futureId,
        futureType: opts.futureType ?? 'NAMED_ARTIFACT_CONTRACT_AT',
        strategy: 'basic',
        strategyConfig: {},
        type: opts.type,
      }),
    ];
  }
  return [
    JSON.stringify({
      artifactId: futureId,
      constructorArgs: [],
      contractName,
      dependencies: [],
      from: '0xf39fd6e51aad88f6f4ce6ab8827279cfffb92266',
      futureId,
      futureType: opts.futureType ?? 'NAMED_ARTIFACT_CONTRACT_DEPLOYMENT',
      libraries: {},
      strategy: 'basic',
      strategyConfig: {},
      type: 'DEPLOYMENT_EXECUTION_STATE_INITIALIZE',
      value: big('0'),
    }),
    JSON.stringify({
      futureId,
      networkInteraction: {
        data: `0x6080604052${'ab'.repeat(300)}`,
        id: 1,
        type: 'ONCHAIN_INTERACTION',
        value: big('0'),
      },
      type: 'NETWORK_INTERACTION_REQUEST',
    }),
    JSON.stringify({
      futureId,
      networkInteractionId: 1,
      nonce: opts.nonce ?? 0,
      transaction: { fees: { maxFeePerGas: big('1194885894'), maxPriorityFeePerGas: big('1000000000') }, hash },
      type: 'TRANSACTION_SEND',
    }),
    JSON.stringify({
      futureId,
      hash,
      networkInteractionId: 1,
      receipt: {
        blockHash: `0x${'e5'.repeat(32)}`,
        blockNumber: 4792255,
        contractAddress: address,
        logs: [],
        status: 'SUCCESS',
      },
      type: 'TRANSACTION_CONFIRM',
    }),
    JSON.stringify({ futureId, result: { address, type: 'SUCCESS' }, type: 'DEPLOYMENT_EXECUTION_STATE_COMPLETE' }),
  ];
}
/** A journal as Ignition writes it: every message after a newline (the file starts with an empty line). */
const journalOf = (chainId: number | undefined, ...lines: string[][]) =>
  (chainId === undefined ? [] : [`\n${JSON.stringify({ chainId, type: 'DEPLOYMENT_INITIALIZE' })}`])
    .concat(lines.flat().map((l) => `\n${l}`))
    .join('');

describe('workspace: Hardhat Ignition records named by the journal', () => {
  let tmp: string;
  const reads: string[] = [];
  /** The folder `name` of the temp dir, its reads recorded. */
  const folder = (name: string): WorkspaceFs => {
    const inner = nodeWorkspaceFs(path.join(tmp, name));
    return {
      name,
      list: (d) => inner.list(d),
      read: (p) => {
        reads.push(p);
        return inner.read(p);
      },
    };
  };
  const write = (rel: string, content: string | object) => {
    const p = path.join(tmp, rel);
    fs.mkdirSync(path.dirname(p), { recursive: true });
    fs.writeFileSync(p, typeof content === 'string' ? content : JSON.stringify(content, null, 2));
  };
  const dep = (ws: string, id: string) => `${ws}/ignition/deployments/${id}`;
  const named = async (ws: string) =>
    (await discoverAddresses({ folders: [folder(ws)], chainId: 296 })).candidates.map((c) => [
      c.where.slice(c.where.indexOf('›') + 2),
      c.contractName,
      c.build?.contractName,
      c.build?.sourcePath,
      c.build?.deploymentArtifact,
      c.chainId,
    ]);

  before(() => {
    tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'hedera-journal-'));
  });
  after(() => fs.rmSync(tmp, { recursive: true, force: true }));
  beforeEach(() => {
    reads.length = 0;
  });

  it("names from the journal, a custom future id's contract name winning; fully qualified names give the source; artifacts listed, never read", async () => {
    const d = dep('named', 'chain-296');
    write(`${d}/deployed_addresses.json`, {
      'TokenModule#Token': A('02'),
      'TokenModule#Token2': A('03'),
      'CoreModule#MathLib': A('04'),
      'VaultModule#Vault': A('05'),
      'CoreModule#Existing': A('06'),
      'Other#Missing': A('07'),
    });
    write(
      `${d}/journal.jsonl`,
      journalOf(
        296,
        deployedLines('TokenModule#Token', 'Token', A('02'), { nonce: 1 }),
        // m.contract("Token", [], { id: "Token2" }): the future id names no contract
        deployedLines('TokenModule#Token2', 'Token', A('03'), { nonce: 2 }),
        deployedLines('CoreModule#MathLib', 'Math', A('04'), {
          futureType: 'NAMED_ARTIFACT_LIBRARY_DEPLOYMENT',
          nonce: 3,
        }),
        deployedLines('VaultModule#Vault', 'contracts/vault/Vault.sol:Vault', A('05'), { nonce: 4 }),
        deployedLines('CoreModule#Existing', 'IThing', A('06'), { type: 'CONTRACT_AT_EXECUTION_STATE_INITIALIZE' }),
      ),
    );
    // the artifacts Ignition kept: listed; what they say is not read (here they say something else)
    for (const f of ['TokenModule#Token', 'TokenModule#Token2', 'VaultModule#Vault'])
      write(`${d}/artifacts/${f}.json`, { contractName: 'NotRead', sourceName: 'contracts/NotRead.sol', abi: [] });
    const art = (f: string) => `ignition/deployments/chain-296/artifacts/${f}.json`;
    assert.deepStrictEqual(await named('named'), [
      ['TokenModule#Token', 'Token', 'Token', undefined, art('TokenModule#Token'), 296],
      ['TokenModule#Token2', 'Token', 'Token', undefined, art('TokenModule#Token2'), 296],
      ['CoreModule#MathLib', 'Math', 'Math', undefined, undefined, 296],
      ['VaultModule#Vault', 'Vault', 'Vault', 'contracts/vault/Vault.sol', art('VaultModule#Vault'), 296],
      ['CoreModule#Existing', 'IThing', 'IThing', undefined, undefined, 296],
      // in deployed_addresses.json, not in the journal: the future id's name, nothing claimed of the build
      ['Other#Missing', 'Missing', undefined, undefined, undefined, 296],
    ]);
    assert.deepStrictEqual(
      reads.sort(),
      ['ignition/deployments/chain-296/deployed_addresses.json', 'ignition/deployments/chain-296/journal.jsonl'],
      'no artifact read',
    );
  });

  it("a custom deployment id: the chain from a journal as Ignition writes it (starting with an empty line, CRLF too); no journal: future ids' names", async () => {
    write(`${dep('custom', 'staging')}/deployed_addresses.json`, { 'M#Token2': A('02') });
    write(`${dep('custom', 'staging')}/journal.jsonl`, journalOf(295, deployedLines('M#Token2', 'Token', A('02'))));
    write(`${dep('custom', 'windows')}/deployed_addresses.json`, { 'M#Box': A('03') });
    write(
      `${dep('custom', 'windows')}/journal.jsonl`,
      journalOf(297, deployedLines('M#Box', 'Crate', A('03'))).replace(/\n/g, '\r\n'),
    );
    write(`${dep('custom', 'plain')}/deployed_addresses.json`, { 'M#Token': A('04') });
    assert.deepStrictEqual(await named('custom'), [
      ['M#Token', 'Token', undefined, undefined, undefined, undefined],
      ['M#Token2', 'Token', 'Token', undefined, undefined, 295],
      ['M#Box', 'Crate', 'Crate', undefined, undefined, 297],
    ]);
  });

  it('hostile journals: malformed and huge lines, other types, bad names and values are passed over; a wiped future takes its last name', async () => {
    const d = dep('hostile', 'chain-296');
    const ids = ['M#A', 'M#B', 'M#C', 'M#D', 'M#E', 'M#F', 'M#G', 'M#H', 'M#Wiped'];
    write(`${d}/deployed_addresses.json`, Object.fromEntries(ids.map((id, i) => [id, A((0x10 + i).toString(16))])));
    const init = (futureId: unknown, contractName: unknown, extra: object = {}) =>
      JSON.stringify({
        artifactId: futureId,
        constructorArgs: [],
        contractName,
        futureId,
        type: 'DEPLOYMENT_EXECUTION_STATE_INITIALIZE',
        ...extra,
      });
    const lines = [
      '{"chainId":296,"type":"DEPLOYMENT_INITIALIZE"}',
      // malformed: cut short, not JSON, an array, invalid UTF-8 around a valid-looking type
      '{"artifactId":"M#A","contractName":"Truncated","futureId":"M#A","type":"DEPLOYMENT_EXECUTION_STATE_INITIALIZE"',
      'DEPLOYMENT_EXECUTION_STATE_INITIALIZE "DEPLOYMENT_EXECUTION_STATE_INITIALIZE" garbage',
      '["DEPLOYMENT_EXECUTION_STATE_INITIALIZE", {"futureId":"M#A","contractName":"InArray"}]',
      // a huge transaction line (10 MB of bytecode) and a huge line whose strings mention the type (escaped: not a match)
      JSON.stringify({
        futureId: 'M#A',
        networkInteraction: { data: `0x${'ab'.repeat(5_000_000)}`, id: 1, type: 'ONCHAIN_INTERACTION' },
        type: 'NETWORK_INTERACTION_REQUEST',
      }),
      JSON.stringify({
        futureId: 'M#B',
        note: `${'x'.repeat(2_000_000)} "type":"DEPLOYMENT_EXECUTION_STATE_INITIALIZE","contractName":"Escaped"`,
        type: 'TRANSACTION_SEND',
      }),
      // lines of other types: a call (its args holding the type as a value), a made-up type with a contract name
      JSON.stringify({
        args: ['DEPLOYMENT_EXECUTION_STATE_INITIALIZE'],
        contractAddress: A('10'),
        contractName: 'NotACall',
        futureId: 'M#C',
        functionName: 'set',
        type: 'CALL_EXECUTION_STATE_INITIALIZE',
      }),
      JSON.stringify({ contractName: 'Other', futureId: 'M#C', type: 'SOMETHING_ELSE_INITIALIZE' }),
      JSON.stringify({
        contractName: 'Nested',
        futureId: 'M#C',
        type: 'WIPE_APPLY',
        inner: { type: 'DEPLOYMENT_EXECUTION_STATE_INITIALIZE' },
      }),
      // bad values: not a Solidity identifier, not strings, an empty source, a control character in the source, a huge name
      init('M#D', '<b>Bold</b>'),
      init('M#E', 42),
      init(7, 'Seven'),
      init('M#F', ':Fq'),
      init('M#F', 'contracts/\u0007X.sol:Fq'),
      init('M#G', `N${'x'.repeat(300)}:`),
      // a huge constructor argument: the line is the future's, read whole
      init('M#H', 'Heavy', { constructorArgs: [`0x${'cd'.repeat(1_000_000)}`] }),
      // wiped and deployed again under another name: the last wins
      init('M#Wiped', 'First'),
      '{"futureId":"M#Wiped","type":"WIPE_APPLY"}',
      init('M#Wiped', 'Second'),
    ];
    write(`${d}/journal.jsonl`, `\n${lines.join('\n')}\n\n\n`);
    // invalid UTF-8 bytes on a line of their own
    fs.appendFileSync(path.join(tmp, d, 'journal.jsonl'), Buffer.from([0xff, 0xfe, 0x22, 0x5a, 0x45, 0x22, 0x0a]));
    assert.deepStrictEqual(
      (await named('hostile')).map((r) => `${r[0]} ${r[1]} ${r[2] ?? '-'}`),
      [
        'M#A A -',
        'M#B B -',
        'M#C C -',
        'M#D D -',
        'M#E E -',
        'M#F F -',
        'M#G G -',
        'M#H Heavy Heavy',
        'M#Wiped Second Second',
      ],
    );
  });

  it("a journal over the read limit: future ids' names, said in skipped", async () => {
    const d = dep('big', 'chain-296');
    write(`${d}/deployed_addresses.json`, { 'M#Token2': A('02') });
    write(`${d}/journal.jsonl`, journalOf(296, deployedLines('M#Token2', 'Token', A('02'))));
    // the WorkspaceFs gives undefined for a file over MAX_READ_BYTES: a journal of that size, without writing it
    const inner = folder('big');
    const tooBig: WorkspaceFs = {
      name: 'big',
      list: (p) => inner.list(p),
      read: (p) => (p.endsWith('journal.jsonl') ? Promise.resolve(undefined) : inner.read(p)),
    };
    const r = await discoverAddresses({ folders: [tooBig] });
    assert.deepStrictEqual(
      r.candidates.map((c) => [c.contractName, c.build, c.chainId]),
      [['Token2', undefined, 296]],
    );
    assert.ok(
      r.skipped.some((s) => /chain-296\/journal\.jsonl: not read \(larger than 64 MB/.test(s)),
      r.skipped.join('\n'),
    );
  });

  it('a journal in pieces (a file system that can give them): the same names, lines across pieces, no size limit; a failing piecewise read falls back to the whole file', async () => {
    const text = `${journalOf(
      296,
      ...Array.from({ length: 300 }, (_, i) =>
        deployedLines(`M#S${i}`, i % 3 ? `S${i}` : `contracts/S${i}.sol:Real${i}`, A('02'), { nonce: i }),
      ),
      deployedLines('M#Ref', 'IThing', A('03'), { type: 'CONTRACT_AT_EXECUTION_STATE_INITIALIZE' }),
    )}\r\n{"broken`;
    const bytes = new TextEncoder().encode(text);
    const whole = readIgnitionJournal(bytes);
    assert.strictEqual(whole.contracts.size, 301);
    // pieces of every size from 1 byte, in one reused buffer (as a file handle's reads give them)
    for (const size of [1, 2, 7, 64, 1000, 4096, 65536, bytes.length]) {
      const reader = new IgnitionJournalReader();
      const buf = new Uint8Array(size);
      for (let at = 0; at < bytes.length; at += size) {
        const n = Math.min(size, bytes.length - at);
        buf.set(bytes.subarray(at, at + n));
        reader.push(buf.subarray(0, n));
      }
      assert.deepStrictEqual(reader.end(), whole, `pieces of ${size} bytes`);
    }
    // a line longer than the reader's bound is passed over, the next line is read
    const long = new IgnitionJournalReader(2000);
    for (const l of [
      `${deployedLines('M#Long', 'Long', A('02'))[0].slice(0, -1)},"pad":"${'x'.repeat(5000)}"}`,
      deployedLines('M#Short', 'Short', A('02'))[0],
    ]) {
      for (let at = 0; at < l.length; at += 300) long.push(new TextEncoder().encode(l.slice(at, at + 300)));
      long.push(new TextEncoder().encode('\n'));
    }
    assert.deepStrictEqual([...long.end().contracts.keys()], ['M#Short']);

    // through discovery: a file system that gives pieces is read so, past the whole-file read limit
    const d = dep('pieces', 'chain-296');
    write(`${d}/deployed_addresses.json`, { 'M#S0': A('02'), 'M#Ref': A('03') });
    write(`${d}/journal.jsonl`, text);
    const inner = folder('pieces');
    const asked: string[] = [];
    const piecewise = (fail: boolean): WorkspaceFs => ({
      name: 'pieces',
      list: (p) => inner.list(p),
      read: (p) => (p.endsWith('journal.jsonl') ? Promise.resolve(fail ? bytes : undefined) : inner.read(p)),
      readPieces: (p) => {
        asked.push(p);
        return (async function* pieces() {
          for (let at = 0; at < bytes.length; at += 999) {
            if (fail && at > 5000) throw new Error('gone');
            yield bytes.subarray(at, at + 999);
          }
        })();
      },
    });
    for (const fail of [false, true]) {
      const r = await discoverAddresses({ folders: [piecewise(fail)] });
      assert.deepStrictEqual(
        r.candidates.map((c) => [c.contractName, c.build?.sourcePath, c.chainId]),
        [
          ['Real0', 'contracts/S0.sol', 296],
          ['IThing', undefined, 296],
        ],
        fail ? 'the whole file after a failed piecewise read' : 'in pieces',
      );
    }
    assert.deepStrictEqual(asked, [
      'ignition/deployments/chain-296/journal.jsonl',
      'ignition/deployments/chain-296/journal.jsonl',
    ]);
  });

  it('readIgnitionJournal: every future of a journal of 10,000 futures; an empty journal; a view into a larger buffer reads only its own bytes', () => {
    const text = journalOf(
      296,
      ...Array.from({ length: 10_000 }, (_, i) =>
        deployedLines(`Fleet#Ship${i}`, i % 2 ? `contracts/Ship${i}.sol:Ship${i}` : `Hull${i}`, A('02'), { nonce: i }),
      ),
    );
    const j = readIgnitionJournal(new TextEncoder().encode(text));
    assert.strictEqual(j.chainId, 296);
    assert.strictEqual(j.contracts.size, 10_000);
    assert.deepStrictEqual(
      [j.contracts.get('Fleet#Ship0'), j.contracts.get('Fleet#Ship9999')],
      [{ contractName: 'Hull0' }, { contractName: 'Ship9999', sourcePath: 'contracts/Ship9999.sol' }],
    );
    assert.deepStrictEqual(readIgnitionJournal(new Uint8Array(0)), { contracts: new Map() });
    // a view into a larger buffer (as a file system may hand it): only its own bytes
    const whole = new TextEncoder().encode(
      `${journalOf(295, deployedLines('M#X', 'X', A('02')))}\n${journalOf(296, deployedLines('M#Y', 'Y', A('03')))}`,
    );
    const half = whole.subarray((whole.length / 2) | 0);
    assert.ok(!readIgnitionJournal(half).contracts.has('M#X'));
  });
});
