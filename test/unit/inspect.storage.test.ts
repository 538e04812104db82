import * as assert from 'assert';
import { createRequire } from 'module';
import { keccak256, stringToHex } from 'viem';
import { nameSlots, type SlotChange, type StorageLayout } from '../../src/api/inspect/storage';

/** solc (the real compiler, 0.8.28) loaded from node_modules at run time, not bundled into the test. */
function compileLayout(source: string, contract: string): StorageLayout {
  const solc = createRequire(__filename)('solc') as { compile(input: string): string };
  const input = {
    language: 'Solidity',
    sources: { 'V.sol': { content: source } },
    settings: { outputSelection: { '*': { '*': ['storageLayout'] } } },
  };
  const out = JSON.parse(solc.compile(JSON.stringify(input))) as {
    errors?: Array<{ severity: string; formattedMessage: string }>;
    contracts: Record<string, Record<string, { storageLayout: StorageLayout }>>;
  };
  const errors = (out.errors ?? []).filter((e) => e.severity === 'error');
  assert.deepStrictEqual(
    errors.map((e) => e.formattedMessage),
    [],
  );
  return out.contracts['V.sol'][contract].storageLayout;
}

const VAULT = `// SPDX-License-Identifier: MIT
pragma solidity ^0.8.28;
contract Vault {
  struct Position { address owner; uint96 shares; uint256 debt; }
  enum State { Idle, Active, Closed }
  uint128 public total;
  int64 public delta;
  bool public paused;
  State public state;
  address public admin;
  string public name;
  bytes4 public tag;
  Position public main;
  uint8[3] public small;
  uint256[] public list;
  mapping(address => uint256) public balances;
  mapping(address => mapping(address => uint256)) public allowances;
  mapping(uint256 => Position) public positions;
  mapping(string => uint256) public byName;
  string public longText;
}`;

const pad = (v: bigint): string => v.toString(16).padStart(64, '0');
const word = (v: bigint): string => `0x${pad(v)}`;
const slot = (n: bigint): string => word(n);
const mappingSlot = (keyHex: string, base: bigint): bigint => BigInt(keccak256(`0x${keyHex}${pad(base)}`));
const addrKey = (a: string): string => a.slice(2).toLowerCase().padStart(64, '0');
/** The two's complement of a negative number in `bits` bits. */
const twos = (v: bigint, bits: number): bigint => (v < 0n ? (1n << BigInt(bits)) + v : v);

const ALICE = '0x00000000000000000000000000000000000004d2';
const BOB = '0x8a71dd444b077c45f2ca828082aa6c726a879555';

describe('inspect: storage slots named with a real solc storageLayout (src/api/inspect/storage.ts)', () => {
  let layout: StorageLayout;
  before(function () {
    this.timeout(60_000);
    layout = compileLayout(VAULT, 'Vault');
  });

  const one = (changes: SlotChange[], candidates = {}) => nameSlots(layout, changes, candidates);

  it('packed variables in slot 0: uint128, negative int64, bool and enum, each old → new', () => {
    // total = 1000 (offset 0, 16 bytes), delta = -5 → -7 (offset 16, 8 bytes), paused false → true (offset 24), state 1 → 2 (offset 25)
    const before = 1000n | (twos(-5n, 64) << 128n) | (0n << 192n) | (1n << 200n);
    const after = (2n ** 128n - 1n) | (twos(-7n, 64) << 128n) | (1n << 192n) | (2n << 200n);
    const vars = one([{ slot: slot(0n), read: word(before), written: word(after) }]).get(0n);
    assert.deepStrictEqual(vars, [
      { label: 'total', type: 'uint128', before: '1000', after: '340282366920938463463374607431768211455' },
      { label: 'delta', type: 'int64', before: '-5', after: '-7' },
      { label: 'paused', type: 'bool', before: 'false', after: 'true' },
      { label: 'state', type: 'enum Vault.State', before: '1', after: '2' },
    ]);
  });

  it('the most negative int64 and an address', () => {
    const v = one([
      { slot: slot(0n), read: word(twos(-(2n ** 63n), 64) << 128n) },
      { slot: '0x1', read: word(BigInt(BOB)), written: word(BigInt(ALICE)) },
    ]);
    assert.strictEqual(v.get(0n)?.[1].before, '-9223372036854775808');
    assert.strictEqual(v.get(0n)?.[1].after, undefined, 'only read: no value after');
    assert.deepStrictEqual(v.get(1n), [{ label: 'admin', type: 'address', before: BOB, after: ALICE }]);
  });

  it('a short string stored in its slot (length * 2 in the last byte), hostile text kept as data, JSON-quoted', () => {
    const text = '<b>\u202eevil\n';
    const bytes = stringToHex(text).slice(2);
    const len = bytes.length / 2;
    const w = `0x${bytes.padEnd(62, '0')}${(len * 2).toString(16).padStart(2, '0')}`;
    const v = one([{ slot: slot(2n), read: word(0n), written: w }]).get(2n);
    assert.deepStrictEqual(v, [{ label: 'name', type: 'string', before: '""', after: '"<b>\\u202eevil\\n"' }]);
    assert.strictEqual(JSON.parse(v![0].after!.replace('\\u202e', '\u202e')), text);
  });

  it('a long string: its slot holds length * 2 + 1, its data words at keccak256(slot) are named', () => {
    const base = BigInt(keccak256(`0x${pad(12n)}`));
    const v = one([
      { slot: slot(12n), read: word(0n), written: word(100n * 2n + 1n) },
      { slot: word(base + 1n), read: word(0n), written: word(0x41n) },
    ]);
    assert.deepStrictEqual(v.get(12n), [
      { label: 'longText', type: 'string', before: '""', after: '(100 bytes, stored from keccak256(slot))' },
    ]);
    assert.deepStrictEqual(v.get(base + 1n), [
      { label: 'longText', type: 'string (data word 1)', before: word(0n), after: word(0x41n) },
    ]);
  });

  it('bytes4 (left-aligned in its bytes, stored in the low-order bytes of the slot)', () => {
    assert.deepStrictEqual(one([{ slot: slot(3n), read: word(0n), written: word(0xdeadbeefn) }]).get(3n), [
      { label: 'tag', type: 'bytes4', before: '0x00000000', after: '0xdeadbeef' },
    ]);
  });

  it('struct members at slot + n, packed inside the struct', () => {
    const shares = 12345678901234567890123n; // fits uint96
    const v = one([
      { slot: slot(4n), read: word(0n), written: word(BigInt(BOB) | (shares << 160n)) },
      { slot: slot(5n), read: word(7n), written: word(8n) },
    ]);
    assert.deepStrictEqual(v.get(4n), [
      { label: 'main.owner', type: 'address', before: '0x0000000000000000000000000000000000000000', after: BOB },
      { label: 'main.shares', type: 'uint96', before: '0', after: shares.toString() },
    ]);
    assert.deepStrictEqual(v.get(5n), [{ label: 'main.debt', type: 'uint256', before: '7', after: '8' }]);
  });

  it('a static array of uint8 packed in one slot, its length respected', () => {
    const v = one([{ slot: slot(6n), read: word(0n), written: word(1n | (2n << 8n) | (255n << 16n)) }]).get(6n);
    assert.deepStrictEqual(v, [
      { label: 'small[0]', type: 'uint8', before: '0', after: '1' },
      { label: 'small[1]', type: 'uint8', before: '0', after: '2' },
      { label: 'small[2]', type: 'uint8', before: '0', after: '255' },
    ]);
  });

  it('a dynamic array: length at its slot, element i at keccak256(slot) + i', () => {
    const start = BigInt(keccak256(`0x${pad(7n)}`));
    const v = one([
      { slot: slot(7n), read: word(2n), written: word(3n) },
      { slot: word(start + 2n), read: word(0n), written: word(2n ** 256n - 1n) },
    ]);
    assert.deepStrictEqual(v.get(7n), [{ label: 'list.length', type: 'uint256', before: '2', after: '3' }]);
    assert.deepStrictEqual(v.get(start + 2n), [
      { label: 'list[2]', type: 'uint256', before: '0', after: (2n ** 256n - 1n).toString() },
    ]);
  });

  it('mapping(address => uint256) with an address key among the candidates: balances[0x…]', () => {
    const s = mappingSlot(addrKey(BOB), 8n);
    const change = { slot: word(s), read: word(10n ** 30n), written: word(10n ** 30n - 1n) };
    assert.deepStrictEqual(one([change], { addresses: [ALICE, BOB.toUpperCase().replace('0X', '0x')] }).get(s), [
      {
        label: `balances[${BOB}]`,
        type: 'uint256',
        before: '1000000000000000000000000000000',
        after: '999999999999999999999999999999',
      },
    ]);
    assert.strictEqual(
      one([change], { addresses: [ALICE] }).get(s),
      undefined,
      'no candidate gives the slot: not named',
    );
  });

  it('nested mapping (allowances[owner][spender]) and a mapping of structs with a uint key', () => {
    const inner = mappingSlot(addrKey(ALICE), 9n);
    const s = BigInt(keccak256(`0x${addrKey(BOB)}${pad(inner)}`));
    const p = mappingSlot(pad(42n), 10n);
    const v = one(
      [
        { slot: word(s), read: word(0n), written: word(5n) },
        { slot: word(p + 1n), read: word(1n), written: word(0n) },
      ],
      { addresses: [ALICE, BOB], uints: [1n, 42n] },
    );
    assert.deepStrictEqual(v.get(s), [
      { label: `allowances[${ALICE}][${BOB}]`, type: 'uint256', before: '0', after: '5' },
    ]);
    assert.deepStrictEqual(v.get(p + 1n), [{ label: 'positions[42].debt', type: 'uint256', before: '1', after: '0' }]);
  });

  it('mapping(string => uint256): the key hashed unpadded', () => {
    const s = BigInt(keccak256(`0x${stringToHex('gold').slice(2)}${pad(11n)}`));
    assert.deepStrictEqual(
      one([{ slot: word(s), read: word(0n), written: word(3n) }], { strings: ['silver', 'gold'] }).get(s),
      [{ label: 'byName["gold"]', type: 'uint256', before: '0', after: '3' }],
    );
  });

  it('a slot no variable explains is left out; malformed layouts and values never throw', () => {
    assert.strictEqual(one([{ slot: slot(99n), read: word(1n), written: word(2n) }]).size, 0);
    assert.strictEqual(nameSlots(null, [{ slot: '0x0', read: '0x1' }]).size, 0);
    assert.strictEqual(
      nameSlots({ storage: [{ label: 'x', slot: 'nope', offset: 0, type: 't_x' }] } as StorageLayout, [{ slot: '0x0' }])
        .size,
      0,
    );
    assert.strictEqual(nameSlots({ storage: null } as unknown as StorageLayout, [{ slot: '0x0' }]).size, 0);
    const v = one([{ slot: slot(0n), read: 'not hex', written: null }, { slot: 'zz' }]);
    assert.deepStrictEqual(
      v.get(0n)?.map((x) => [x.label, x.before, x.after]),
      [
        ['total', undefined, undefined],
        ['delta', undefined, undefined],
        ['paused', undefined, undefined],
        ['state', undefined, undefined],
      ],
    );
  });
});
