// The recognizers of src/api/ledger/recognize.ts: every form, where each one starts and ends, what it normalises to,
// and the text that looks like a reference but is not (longer hex runs, words, versions, IP addresses, URLs that
// are not ids, secrets, git ids); the windows are bounded.
import * as assert from 'assert';
import { HOVER_WINDOW, type LedgerRef, parseRef, refAt, refsInLine } from '../../src/api/ledger/recognize';

const H40 = '5fbdb2315678afecb367f032d93f642f64180aa3';
const H64 = '0a09b6768800cafaf32ef46d880e1ebed5f8dbad6f3d08e3ee529e94abd5d50c';

/** The references of a line as `kind:value` (with `/serial`, `#nonce`, `?s`) and the text they cover. */
function found(line: string): string[] {
  return refsInLine(line).map(
    (r) =>
      `${r.kind}:${r.value}${r.serial ? `/${r.serial}` : ''}${r.nonce !== undefined ? `#${r.nonce}` : ''}${r.scheduled ? '?s' : ''}=${line.slice(r.start, r.end)}`,
  );
}

const none = (line: string) => assert.deepStrictEqual(found(line), [], line);

describe('ledger: recognizing references in text', () => {
  describe('each form', () => {
    it('entity ids, as written and normalised', () => {
      assert.deepStrictEqual(found('const treasury = "0.0.1234";'), ['entity:0.0.1234=0.0.1234']);
      assert.deepStrictEqual(found('OPERATOR_ID=0.0.2'), ['entity:0.0.2=0.0.2']);
      assert.deepStrictEqual(found('shard and realm: 1.2.300 and 0001.0.5'), [
        'entity:1.2.300=1.2.300',
        'entity:1.0.5=0001.0.5',
      ]);
      assert.deepStrictEqual(
        found('(0.0.5), [0.0.6]; {0.0.7} <0.0.8> 0.0.9. 0.0.10,'),
        ['0.0.5', '0.0.6', '0.0.7', '0.0.8', '0.0.9', '0.0.10'].map((x) => `entity:${x}=${x}`),
      );
      assert.deepStrictEqual(
        found('account:0.0.98 node 0.0.3 <td>0.0.4</td> > 0.0.800'),
        ['0.0.98', '0.0.3', '0.0.4', '0.0.800'].map((x) => `entity:${x}=${x}`),
      );
      // a variable named v or ver is not a version marker
      assert.deepStrictEqual(
        found('const v = "0.0.7001"; let ver = \'0.0.7002\''),
        ['0.0.7001', '0.0.7002'].map((x) => `entity:${x}=${x}`),
      );
    });

    it("entity ids in the mirror node's ranges only (shard <= 1023, realm <= 65535, num < 2^38)", () => {
      assert.deepStrictEqual(found('1023.65535.274877906943'), [
        'entity:1023.65535.274877906943=1023.65535.274877906943',
      ]);
      none('1024.0.1');
      none('0.65536.1');
      none('0.0.274877906944');
      none('0.0.99999999999999999999');
    });

    it('EVM addresses with or without 0x, any case, checksummed or not', () => {
      const checksummed = '0x5FbDB2315678afecb367f032d93F642f64180aa3';
      assert.deepStrictEqual(found(`to: ${checksummed}`), [`evmAddress:0x${H40}=${checksummed}`]);
      assert.deepStrictEqual(found(`"0X${H40.toUpperCase()}"`), [`evmAddress:0x${H40}=0X${H40.toUpperCase()}`]);
      assert.deepStrictEqual(found(`address ${H40}`), [`evmAddress:0x${H40}=${H40}`]);
      assert.deepStrictEqual(found('0x00000000000000000000000000000000000004d2'), [
        'evmAddress:0x00000000000000000000000000000000000004d2=0x00000000000000000000000000000000000004d2',
      ]);
    });

    it('transaction ids in both forms, the SDK form with ?scheduled and /nonce', () => {
      assert.deepStrictEqual(found('tx 0.0.7000-1793316598-164843833 failed'), [
        'transactionId:0.0.7000-1793316598-164843833=0.0.7000-1793316598-164843833',
      ]);
      assert.deepStrictEqual(found('0.0.7000@1793316598.164843833'), [
        'transactionId:0.0.7000-1793316598-164843833=0.0.7000@1793316598.164843833',
      ]);
      // the SDK writes nanos as an integer: 0.0.1@1700000000.5 is 5 ns
      assert.deepStrictEqual(found('0.0.1@1700000000.5'), [
        'transactionId:0.0.1-1700000000-000000005=0.0.1@1700000000.5',
      ]);
      assert.deepStrictEqual(found('0.0.2@1700000000.000000001?scheduled'), [
        'transactionId:0.0.2-1700000000-000000001?s=0.0.2@1700000000.000000001?scheduled',
      ]);
      assert.deepStrictEqual(found('0.0.2@1700000000.000000001/3'), [
        'transactionId:0.0.2-1700000000-000000001#3=0.0.2@1700000000.000000001/3',
      ]);
    });

    it('Ethereum transaction hashes: 0x and 64 hex digits, lowercased', () => {
      assert.deepStrictEqual(found(`hash: 0x${H64.toUpperCase()}`), [`hash:0x${H64}=0x${H64.toUpperCase()}`]);
    });

    it('NFTs as tokenId/serial, serials 1 to 2^63-1', () => {
      assert.deepStrictEqual(found('minted 0.0.4815162/7 today'), ['nft:0.0.4815162/7=0.0.4815162/7']);
      assert.deepStrictEqual(found('0.0.4815162/9223372036854775807'), [
        'nft:0.0.4815162/9223372036854775807=0.0.4815162/9223372036854775807',
      ]);
      none('0.0.4815162/0');
      none('0.0.4815162/9223372036854775808');
      none('0.0.5/7/8');
    });

    it('several references on one line, each at its place', () => {
      const line = `0.0.5 sent 0x${H40} to 0.0.6/2 in 0.0.5-1700000000-000000001 (tx 0x${H64})`;
      const refs = refsInLine(line);
      assert.deepStrictEqual(
        refs.map((r) => r.kind),
        ['entity', 'evmAddress', 'nft', 'transactionId', 'hash'],
      );
      for (const r of refs) assert.strictEqual(line.slice(r.start, r.end), r.text);
    });
  });

  describe('no false positives', () => {
    it('inside longer hex runs: calldata, 96-hex Hedera hashes, bytes32 words, hashes without 0x', () => {
      none(`0xa9059cbb000000000000000000000000${H40}0000000000000000000000000000000000000000000000000000000000000064`);
      none(`0x${H64}${H40.slice(0, 32)}`); // 96 hex: a Hedera transaction hash
      none(`0x${H64}0`); // 65
      none(`0x${H40}0`); // 41
      none(`0x${H40.slice(1)}`); // 39
      none(H64); // 64 hex without 0x
      none(`0x${'ab'.repeat(600)}`); // longer than any quantifier
      none(`${'f'.repeat(20)}${H40}`);
    });

    it('touching words or identifiers', () => {
      none(`address0x${H40}`);
      none(`_0x${H40}`);
      none(`0x${H40}g`);
      none('abc0.0.5');
      none('0.0.5x');
      none('id_0.0.5');
      none('0.0.5_1');
      none('v1.0.0');
      none('0xg0.0.5');
    });

    it('versions and dotted numbers: semver, IP addresses, solidity pragmas, package versions', () => {
      none('1.0.0.5');
      none('127.0.0.1');
      none('http://0.0.0.0:8080');
      none('pragma solidity 0.8.20;');
      none('pragma solidity ^0.8.20;');
      none('"typescript": "~0.0.1"');
      none('"version": "0.0.1",');
      none('npm i foo@0.0.5');
      none('requires >=0.0.3');
      none('solc 0.8.24');
      none('Version 0.0.9 released');
      none('range 1.2.3-0.0.5');
      none('0.0.5-17'); // an incomplete transaction id
      none('0.0.5@17');
      none('0.0.5-1700000000-1234567890'); // nanos of 10 digits
      none('2024.01.05');
    });

    it('numbers: a 40-digit decimal number is not an address', () => {
      none('1000000000000000000000000000000000000000');
      none('amount 1234567890123456789012345678901234567890 wei');
    });

    it('git object ids are not addresses', () => {
      none(`commit ${H40}`);
      none(`git rev ${H40}`);
      none(`sha: ${H40}`);
      assert.deepStrictEqual(found(`commit 0x${H40}`).length, 1, 'with 0x it is an address');
    });

    it('a 0x + 64 hex value on a line that names a secret is not a hash (it is never looked up)', () => {
      none(`PRIVATE_KEY=0x${H64}`);
      none(`operatorKey: "0x${H64}"`);
      none(`const pk = '0x${H64}'`);
      none(`DEPLOYER_PK=0x${H64}`);
      none(`mnemonic seed 0x${H64}`);
      none(`secret 0x${H64}`);
      assert.deepStrictEqual(found(`txHash: 0x${H64}`).length, 1);
    });

    it('a 0x + 64 hex value is a hash only where the text says so: private keys in config and code are never taken for one', () => {
      const key = 'ac0974bec39a17e36ba4a6b4d238ff944bacb478cbed5efcae784d7bf4f2ff80'; // Hardhat's account #0
      none(`const wallet = new ethers.Wallet("0x${key}", provider);`);
      none(`      accounts: ["0x${key}"],`);
      none(`    "0x${key}",`);
      none(`DEPLOYER=0x${key}`);
      none(`HEDERA_ECDSA=0x${key}`);
      none(`new Wallet(0x${key})`);
      none(`bytes32 constant ROOT = 0x${key};`);
      assert.deepStrictEqual(found(`receipt 0x${H64}`).length, 1);
      assert.deepStrictEqual(found(`transactionHash: "0x${H64}"`).length, 1);
      assert.deepStrictEqual(found(`https://hashscan.io/mainnet/tx/0x${H64}`).length, 1);
    });

    it('0.0.0 is no entity id', () => {
      none('0.0.0');
      none('version 0.0.0 released');
    });

    it('sha256 and other digests before 40 hex digits are not addresses', () => {
      none(`sha256: ${H40}`);
    });

    it('inside URLs: only a whole path segment after a segment naming its kind', () => {
      assert.deepStrictEqual(found('https://hashscan.io/testnet/account/0.0.5'), ['entity:0.0.5=0.0.5']);
      assert.deepStrictEqual(found('see https://hashscan.io/testnet/token/0.0.5/7 now'), ['nft:0.0.5/7=0.0.5/7']);
      assert.deepStrictEqual(found(`http://127.0.0.1:5599/api/v1/contracts/0x${H40}/results?limit=1`), [
        `evmAddress:0x${H40}=0x${H40}`,
      ]);
      assert.deepStrictEqual(found(`https://hashscan.io/mainnet/transaction/0x${H64}`), [`hash:0x${H64}=0x${H64}`]);
      assert.deepStrictEqual(
        found('https://testnet.mirrornode.hedera.com/api/v1/transactions/0.0.5-1700000000-000000001'),
        ['transactionId:0.0.5-1700000000-000000001=0.0.5-1700000000-000000001'],
      );
      none('https://x.io/0.0.1');
      none('https://cdn.example.com/lib/0.0.1/x.js');
      none('https://hashscan.io/testnet/account/0.0.5x');
      none('https://example.com/page?id=0.0.5');
      none(`https://github.com/o/r/commit/${H40}`);
      none('www.example.com/v/0.0.5');
      none(`git+https://github.com/o/r.git#${H40}`);
      // after the URL ends, text is text again
      assert.deepStrictEqual(found('https://x.io/0.0.1 and 0.0.2'), ['entity:0.0.2=0.0.2']);
    });
  });

  describe('windows', () => {
    it('refAt finds the reference under a position and nothing off it', () => {
      const line = `x = 0.0.5; y = 0x${H40};`;
      for (let ch = 4; ch < 9; ch++) assert.strictEqual(refAt(line, ch)?.value, '0.0.5', `at ${ch}`);
      assert.strictEqual(refAt(line, 3), undefined);
      assert.strictEqual(refAt(line, 9), undefined);
      const a = line.indexOf('0x');
      assert.strictEqual(refAt(line, a)?.kind, 'evmAddress');
      assert.strictEqual(refAt(line, a + 41)?.kind, 'evmAddress');
      assert.strictEqual(refAt(line, a + 42), undefined);
    });

    // its time per hover on a 2 MB line (target < 0.5 ms) is a figure of `npm run bench` (test/bench/hover.mjs)
    it('refAt reads a bounded window: a reference in the middle of a 2 MB line is found, hex longer than the window is not one', () => {
      const pad = 'ab '.repeat(350_000);
      const line = `${pad}0.0.77 ${pad}`;
      const at = pad.length + 2;
      assert.deepStrictEqual(
        [refAt(line, at)?.kind, refAt(line, at)?.value, refAt(line, pad.length)?.value, refAt(line, pad.length - 1)],
        ['entity', '0.0.77', '0.0.77', undefined],
      );
      // a run of hex longer than the window: its middle is not a reference, even though the window cuts 40 hex out of it
      const hexLine = 'f'.repeat(100_000);
      assert.strictEqual(refAt(hexLine, 50_000), undefined);
      assert.strictEqual(refsInLine(hexLine, 50_000 - HOVER_WINDOW, 50_001).length, 0);
    });

    it('a window edge inside a reference is not a boundary', () => {
      const line = `0x${H64}`;
      // the window starts 10 characters in: the 40 hex after it are not an address
      assert.deepStrictEqual(refsInLine(line, 10), []);
      const id = 'ref 0.0.1234567 end';
      assert.deepStrictEqual(
        refsInLine(id, 6).map((r) => r.value),
        [],
        'a window starting inside 0.0.1234567',
      );
    });

    it('parseRef: exactly one reference, as commands check their arguments', () => {
      assert.strictEqual(parseRef(' 0.0.5 ')?.value, '0.0.5');
      assert.strictEqual(parseRef(`0x${H64}`)?.kind, 'hash');
      assert.strictEqual(parseRef('0.0.5 0.0.6'), undefined);
      assert.strictEqual(parseRef('x0.0.5'), undefined);
      assert.strictEqual(parseRef('0.0.5]'), undefined);
      assert.strictEqual(parseRef(42), undefined);
      assert.strictEqual(parseRef('0.0.5'.padEnd(300, ' ')), undefined);
      const r = parseRef('0.0.9/3') as LedgerRef;
      assert.deepStrictEqual(
        { kind: r.kind, value: r.value, serial: r.serial },
        { kind: 'nft', value: '0.0.9', serial: '3' },
      );
    });
  });
});
