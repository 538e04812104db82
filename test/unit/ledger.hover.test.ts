// The hover's Markdown (src/api/ledger/hover.ts), rendered as VS Code renders hovers (marked, GitHub-flavoured, its
// automatic links: test/unit/markdown.ts): what each kind shows, hostile text (names, symbols, memos, revert reasons,
// decoded values, ids the server sent) shown as text with nothing live in it, command links only to our commands with
// their arguments as encoded JSON, and the arguments checked again as a command would.
import * as assert from 'assert';
import {
  checkTarget,
  commandUri,
  explorerUrl,
  HOVER_COMMANDS,
  ledgerHover,
  LEDGER_COMMANDS,
  OTHER_COMMANDS,
  type HoverContext,
} from '../../src/api/ledger/hover';
import type { ContractInfo, LedgerInfo } from '../../src/api/ledger/lookup';
import { parseRef, type LedgerRef } from '../../src/api/ledger/recognize';
import type { ContractResult } from '../../src/api/mirrorTypes';
import { renderMarkdown } from './markdown';

const ref = (text: string): LedgerRef => parseRef(text)!;
const ctx: HoverContext = { network: { label: 'Testnet' }, now: Date.UTC(2026, 0, 2), locale: 'en' };

const HOSTILE =
  'Evil [click](command:workbench.action.terminal.new) <img src=x onerror=alert(1)> $(alert) `code` **b** https://evil.example \u202Eexe.sol';

/** A command link's command and its decoded arguments. */
function commandOf(href: string): { command: string; args: unknown[] } {
  const m = /^command:([\w.]+)\?(.*)$/.exec(href);
  assert.ok(m, `a command link: ${href}`);
  return { command: m[1], args: JSON.parse(decodeURIComponent(m[2])) as unknown[] };
}

/** Renders and checks what every hover must hold: only our command links, each enabled, no markup from the text. */
function render(info: LedgerInfo, text: string, context: HoverContext = ctx) {
  const content = ledgerHover(ref(text), info, context);
  const r = renderMarkdown(content.markdown);
  for (const href of r.links) {
    const { command } = commandOf(href);
    assert.ok(HOVER_COMMANDS.includes(command), `only our commands: ${href}`);
    assert.ok(content.enabledCommands.includes(command), `${command} enabled`);
  }
  for (const c of content.enabledCommands) assert.ok(HOVER_COMMANDS.includes(c));
  const allowed = new Set(['p', 'br', 'strong', 'em', 'code', 'hr', 'a']);
  for (const tag of r.tags) assert.ok(allowed.has(tag), `<${tag}> in ${r.html}`);
  return { ...r, content, commands: r.links.map(commandOf) };
}

const result = (over: Partial<ContractResult>): ContractResult => ({
  address: null,
  amount: 0,
  block_gas_used: null,
  block_hash: null,
  block_number: null,
  bloom: null,
  call_result: '0x',
  chain_id: null,
  contract_id: '0.0.7001',
  created_contract_ids: null,
  error_message: null,
  failed_initcode: null,
  from: '0x0000000000000000000000000000000000001b58',
  function_parameters: '0xd0e30db0',
  gas_consumed: null,
  gas_limit: 100000,
  gas_price: null,
  gas_used: 50000,
  hash: `0x${'a'.repeat(64)}`,
  max_fee_per_gas: null,
  max_priority_fee_per_gas: null,
  nonce: null,
  r: null,
  s: null,
  result: 'SUCCESS',
  status: '0x1',
  timestamp: '1767225600.000000001',
  to: null,
  transaction_index: null,
  type: null,
  v: null,
  ...over,
});

/** Error(string) revert data of a text. */
function errorString(text: string): string {
  const bytes = Buffer.from(text, 'utf8');
  const len = bytes.length.toString(16).padStart(64, '0');
  const data = bytes.toString('hex').padEnd(Math.ceil(bytes.length / 32) * 64, '0');
  return `0x08c379a0${'20'.padStart(64, '0')}${len}${data}`;
}

describe('ledger: hover text', () => {
  it('an account: balance with every digit, key, memo, address; HashScan and Copy', () => {
    const r = render(
      {
        kind: 'account',
        id: '0.0.1234',
        balance: '9007199254740993',
        tokens: 2,
        keyType: 'ED25519',
        memo: 'my memo',
        deleted: false,
        evmAddress: `0x${'ab'.repeat(20)}`,
        created: '1767225600.000000000',
      },
      '0.0.1234',
    );
    assert.match(r.text, /^Account 0\.0\.1234 · Testnet/);
    assert.match(r.text, /Balance: 90071992\.54740993 ℏ · 2 token balances/);
    assert.match(r.text, /Key: ED25519/);
    assert.match(r.text, /Memo: my memo/);
    assert.match(r.text, /EVM address: 0x(ab){20}/);
    assert.deepStrictEqual(r.commands, [
      { command: LEDGER_COMMANDS.openInHashScan, args: [{ kind: 'account', id: '0.0.1234' }] },
      { command: LEDGER_COMMANDS.copy, args: ['0.0.1234'] },
    ]);
    assert.deepStrictEqual(
      r.content.enabledCommands.sort(),
      [LEDGER_COMMANDS.copy, LEDGER_COMMANDS.openInHashScan].sort(),
    );
  });

  it("a contract: verification, latest results with failures, the latest failure's reason and Inspect; Show Contract Results", () => {
    const info: ContractInfo = {
      kind: 'contract',
      id: '0.0.7001',
      evmAddress: `0x${'5f'.repeat(20)}`,
      balance: '0',
      adminKeyType: 'none',
      memo: '',
      deleted: false,
      verification: { state: 'verified', match: 'exact_match' },
      results: {
        read: 10,
        successes: 8,
        failures: 2,
        more: true,
        latest: { timestamp: '1767225000.000000000', outcome: 'success' },
        latestFailure: result({
          timestamp: '1767224000.000000000',
          result: null,
          status: null,
          error_message: errorString('insufficient balance'),
        }),
      },
    };
    const r = render(info, '0.0.7001');
    assert.match(r.text, /Contract 0\.0\.7001 · Testnet/);
    assert.match(r.text, /Verification: ✓ verified on Sourcify \(exact match\)/);
    assert.match(r.text, /Latest results: 8 ✓ · 2 ✗ in the latest 10 · the latest /);
    assert.match(r.text, /Latest failure: .+ · insufficient balance · Inspect · Debug/);
    const commands = r.commands.map((c) => c.command);
    assert.deepStrictEqual(commands, [
      OTHER_COMMANDS.inspect,
      OTHER_COMMANDS.debug,
      LEDGER_COMMANDS.openInHashScan,
      OTHER_COMMANDS.contractResults,
      OTHER_COMMANDS.callContract,
      LEDGER_COMMANDS.copy,
    ]);
    assert.deepStrictEqual(r.commands[0].args, ['1767224000.000000000']);
    assert.deepStrictEqual(r.commands[1].args, ['1767224000.000000000']);
    assert.deepStrictEqual(r.commands[3].args, ['0.0.7001']);
    assert.deepStrictEqual(r.commands[4].args, ['0.0.7001']);
    // not verified, and results that could not be read
    const other = render(
      { ...info, verification: { state: 'notVerified' }, results: { error: 'HTTP 503 [x](command:evil)' } },
      '0.0.7001',
    );
    assert.match(other.text, /Verification: not verified on Sourcify/);
    assert.match(other.text, /Latest results: could not be read: HTTP 503 \[x\]\(command:evil\)/);
  });

  it("a transaction: type, result, fee, the call decoded by the feature's hook and the revert reason; Inspect Transaction", () => {
    const info: LedgerInfo = {
      kind: 'transaction',
      id: '0.0.7000-1767225600-000000000',
      name: 'CONTRACTCALL',
      result: 'CONTRACT_REVERT_EXECUTED',
      timestamp: '1767225601.000000000',
      fee: '12345678',
      memo: 'pay',
      entity: '0.0.7001',
      children: 1,
      call: result({ result: 'CONTRACT_REVERT_EXECUTED', status: '0x0', error_message: errorString('not owner') }),
    };
    const seen: Array<[string, boolean]> = [];
    const r = render(info, '0.0.7000@1767225600.0', {
      ...ctx,
      describe: (c, failed) => {
        seen.push([c.timestamp, failed]);
        return { call: 'deposit()' };
      },
    });
    assert.deepStrictEqual(seen, [['1767225600.000000001', true]]);
    assert.match(r.text, /Transaction 0\.0\.7000-1767225600-000000000 · Testnet/);
    assert.match(r.text, /CONTRACTCALL · ✗ CONTRACT_REVERT_EXECUTED/);
    assert.match(r.text, /Fee: 0\.12345678 ℏ/);
    assert.match(r.text, /Call: deposit\(\)/);
    assert.match(r.text, /Revert reason: not owner/);
    assert.match(r.text, /Child transactions: 1/);
    // a long-zero sender is shown as its entity id; the entity is the contract called, said once
    assert.match(r.text, /Contract: 0\.0\.7001 · From: 0\.0\.7000/);
    assert.doesNotMatch(r.text, /Entity:/);
    assert.deepStrictEqual(r.commands[0], { command: OTHER_COMMANDS.inspect, args: ['0.0.7000@1767225600.0'] });
    assert.deepStrictEqual(r.commands[1], {
      command: LEDGER_COMMANDS.openInHashScan,
      args: [{ kind: 'transaction', id: '1767225601.000000000' }],
    });
    // a contract call: Debug Transaction, with the reference as typed (the command parses it again)
    assert.deepStrictEqual(r.commands[2], { command: OTHER_COMMANDS.debug, args: ['0.0.7000@1767225600.0'] });
    const plain = render({ ...info, call: undefined, name: 'CRYPTOTRANSFER' }, '0.0.7000@1767225600.0');
    assert.ok(!plain.commands.some((c) => c.command === OTHER_COMMANDS.debug), 'no Debug for a transfer');
  });

  it('a hash: the contract result; an NFT: the token with its serial and Show NFT History', () => {
    const h = `0x${'e1'.repeat(32)}`;
    const r = render({ kind: 'contractResult', hash: h, result: result({ hash: h }), partial: true }, h);
    assert.match(r.text, new RegExp(`^Ethereum transaction ${h} · Testnet`));
    assert.match(r.text, /✓ SUCCESS/);
    assert.match(r.text, /only part of this record/);
    assert.deepStrictEqual(r.commands[0], { command: OTHER_COMMANDS.inspect, args: [h] });
    assert.ok(r.commands.some((c) => c.command === OTHER_COMMANDS.debug && c.args[0] === h));

    const nft = render(
      {
        kind: 'token',
        id: '0.0.4815162',
        name: 'Punks',
        symbol: 'PNK',
        type: 'NON_FUNGIBLE_UNIQUE',
        totalSupply: '12',
        adminKeyType: 'none',
        memo: '',
        deleted: false,
      },
      '0.0.4815162/7',
    );
    assert.match(nft.text, /Token 0\.0\.4815162 · Testnet · NON_FUNGIBLE_UNIQUE/);
    assert.match(nft.text, /NFT serial: 7/);
    assert.match(nft.text, /Name: Punks \(PNK\)/);
    assert.deepStrictEqual(nft.commands.slice(0, 2), [
      { command: OTHER_COMMANDS.nftHistory, args: ['0.0.4815162', '7'] },
      { command: LEDGER_COMMANDS.openInHashScan, args: [{ kind: 'token', id: '0.0.4815162', serial: '7' }] },
    ]);
  });

  it('not found and failures say so, with what needs no look-up', () => {
    const nf = render({ kind: 'notFound' }, '0.0.5-1700000000-000000001');
    assert.match(
      nf.text,
      /^0\.0\.5-1700000000-000000001 · Not on Testnet: the mirror node has no transaction with this id\./,
    );
    assert.deepStrictEqual(
      nf.commands.map((c) => c.command),
      [OTHER_COMMANDS.inspect, LEDGER_COMMANDS.copy],
    );
    const err = render({ kind: 'error', message: 'HTTP 500 <b>boom</b> [x](command:evil)' }, '0.0.5');
    assert.match(
      err.text,
      /^0\.0\.5 · Could not be looked up on Testnet: HTTP 500 <b>boom<\/b> \[x\]\(command:evil\)$/m,
    );
    assert.deepStrictEqual(
      err.commands.map((c) => c.command),
      [LEDGER_COMMANDS.copy],
    );
  });

  it('hostile text from the server is shown as text: names, symbols, memos, types, results, decoded values, revert reasons, ids', () => {
    const token = render(
      {
        kind: 'token',
        id: HOSTILE,
        name: HOSTILE,
        symbol: HOSTILE,
        type: HOSTILE,
        totalSupply: '1',
        treasury: HOSTILE,
        adminKeyType: HOSTILE,
        memo: HOSTILE,
        deleted: false,
      },
      '0.0.5',
    );
    const shown = HOSTILE.replace('\u202E', '<U+202E>');
    assert.ok(token.text.includes(`Memo: ${shown}`), token.text);
    assert.ok(token.text.includes(`Treasury: ${shown}`), token.text);
    assert.ok(!/<img/i.test(token.html), 'no image');
    const tx = render(
      {
        kind: 'transaction',
        id: '0.0.7000-1767225600-000000000',
        name: HOSTILE,
        result: HOSTILE,
        timestamp: '1767225601.000000000',
        memo: HOSTILE,
        children: 0,
        call: result({
          result: 'CONTRACT_REVERT_EXECUTED',
          status: '0x0',
          contract_id: HOSTILE,
          from: HOSTILE,
          error_message: errorString(HOSTILE),
        }),
      },
      '0.0.7000-1767225600-000000000',
      { ...ctx, describe: () => ({ call: HOSTILE }) },
    );
    assert.ok(tx.text.includes(`Call: ${shown}`), tx.text);
    assert.ok(tx.text.includes(`Contract: ${shown}`), tx.text);
    assert.ok(tx.text.includes(`Memo: ${shown}`), tx.text);
    assert.match(tx.text, /Revert reason: Evil \[click\]\(command:workbench\.action\.terminal\.new\)/);
    // every link in there is ours (render() checked), and none comes from the text
    assert.ok(
      tx.links.every((l) => !l.includes('workbench') && !l.includes('evil')),
      tx.links.join(' '),
    );
  });

  it('command links carry their arguments as encoded JSON', () => {
    const uri = commandUri(LEDGER_COMMANDS.copy, ['0.0.5 ") [x](y']);
    assert.deepStrictEqual(commandOf(uri), { command: LEDGER_COMMANDS.copy, args: ['0.0.5 ") [x](y'] });
    assert.ok(!/[\s()[\]"'!*]/.test(uri.slice(8)), uri);
    // in a Markdown link, the whole URI is the destination
    const md = `[Copy](${uri})`;
    assert.deepStrictEqual(renderMarkdown(md).links, [uri]);
  });

  it('Open in HashScan checks its argument again: kinds, ids, serials', () => {
    assert.deepStrictEqual(checkTarget({ kind: 'account', id: '0.0.5' }), { kind: 'account', id: '0.0.5' });
    assert.deepStrictEqual(checkTarget({ kind: 'contract', id: `0x${'AB'.repeat(20)}` }), {
      kind: 'contract',
      id: `0x${'ab'.repeat(20)}`,
    });
    assert.deepStrictEqual(checkTarget({ kind: 'transaction', id: '0.0.5@1700000000.000000001' }), {
      kind: 'transaction',
      id: '0.0.5-1700000000-000000001',
    });
    assert.deepStrictEqual(checkTarget({ kind: 'transaction', id: '1700000000.000000001' }), {
      kind: 'transaction',
      id: '1700000000.000000001',
    });
    assert.deepStrictEqual(checkTarget({ kind: 'token', id: '0.0.5', serial: '7' }), {
      kind: 'token',
      id: '0.0.5',
      serial: '7',
    });
    for (const bad of [
      undefined,
      'x',
      [],
      { kind: 'file', id: '0.0.5' },
      { kind: 'account', id: '0.0.5/../../x' },
      { kind: 'token', id: '5' },
      { kind: 'topic', id: `0x${'ab'.repeat(20)}` },
      { kind: 'account', id: '0.0.5', serial: '1' },
      { kind: 'token', id: '0.0.5', serial: '0' },
      { kind: 'transaction', id: 'javascript:alert(1)' },
      { kind: 'account', id: 'x'.repeat(300) },
    ]) {
      assert.strictEqual(checkTarget(bad), undefined, JSON.stringify(bad));
    }
    const profile = { hashscanUrl: 'https://hashscan.io/testnet/' };
    assert.strictEqual(explorerUrl(profile, { kind: 'topic', id: '0.0.9' }), 'https://hashscan.io/testnet/topic/0.0.9');
    assert.strictEqual(
      explorerUrl(profile, { kind: 'token', id: '0.0.9', serial: '3' }),
      'https://hashscan.io/testnet/token/0.0.9/3',
    );
    assert.strictEqual(
      explorerUrl(profile, { kind: 'transaction', id: '0.0.5-1700000000-000000001' }),
      'https://hashscan.io/testnet/transaction/0.0.5-1700000000-000000001',
    );
  });
});
