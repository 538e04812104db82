/**
 * The entities behind the sandbox's answers, for the lookups a hover needs (`/accounts/{id}`, `/tokens/{id}`,
 * `/topics/{id}`, `/contracts/{id}`): every account, contract, token and topic that any other answer names, with the
 * same ids, EVM addresses and aliases, built once from the generated data (nothing random: derived from the ids).
 *
 * - Accounts: the contract results' senders (native, and EVM aliases sending Ethereum transactions), the inspector's
 *   accounts (owner 0.0.7000 and alias sender 0.0.7005 with Hardhat's real keys, depositor 0.0.7006, the relay
 *   0.0.7100), fee collectors (0.0.7009, 0.0.7109), the HTS tokens' treasury 0.0.7110, the NFT histories' accounts and
 *   treasury, the schedules' creators and payers, the nodes 0.0.3-0.0.9, the fee account 0.0.98 and the staking
 *   reward account 0.0.800; and every contract (an account of type CONTRACT, as the real `/accounts/{id}` shows it).
 * - Balances: what the account held before the sandbox's history (a large amount derived from its id) plus every
 *   HBAR and token transfer of the transactions of the contract results (mirror/records.ts), live results included;
 *   token associations: the tokens it moved or received, its treasuries and fee collections; NFT collections: the
 *   serials it owns at the end of the NFT histories. A fungible token's total supply is the sum of its balances.
 * - Tokens: the HTS tokens the contracts move (0.0.7101-0.0.7105, the NFT 0.0.7120, the Vault's 0.0.7004), the NFT
 *   histories' collections (0.0.4815162, 0.0.4815170) and the schedules' fungible tokens (0.0.5120033, 0.0.5877001,
 *   0.0.5877002). The generated ERC-20 and ERC-721 contracts are contracts, not HTS tokens (404 on /tokens).
 * - Topics: the four topics the schedules submit messages to (mirror/schedules.ts SCHEDULE_TOPICS).
 */
import type { MirrorData } from './api';
import { type ContractData, HTS_NFT_TOKEN, HTS_TOKENS, isEthereum } from './contracts';
import { ANCHOR_SEC, NS } from './ids';
import { FRACTIONAL_FEES, RELAY, derivedHex, txRecord } from './records';
import { ALIAS_SENDER, DEPOSITOR, OWNER, OWNER_HBAR, PAYOUT_TOKEN, VAULT } from './scenarios';
import { NFT_ACCOUNTS, NFT_TOKEN, NFT_TOKEN_2, NFT_TREASURY, type NftHistory } from './nfts';
import { SCHEDULE_ACCOUNTS, SCHEDULE_CREATORS, SCHEDULE_FUNGIBLE_TOKENS, SCHEDULE_TOPICS } from './schedules';
import { ProtoWriter, bytesToHex, entityIdMsg, hexToBytes } from '../protobuf';

export interface KeyJson {
  _type: 'ED25519' | 'ECDSA_SECP256K1' | 'ProtobufEncoded';
  key: string;
}

export interface AccountEntity {
  num: number;
  type: 'ACCOUNT' | 'CONTRACT';
  /** Its EVM address when it is not the long-zero one (an alias account's, a contract's own), 40 hex. */
  evm: string | null;
  /** The alias bytes (hex): the 20-byte EVM address an account was auto-created with, or null. */
  alias: string | null;
  key: KeyJson | null;
  memo: string;
  createdNs: bigint | null;
  autoRenewPeriod: number | null;
  maxAutoAssociations: number;
  stakedNodeId: number | null;
  /** The staking period (days since the epoch) its stake started, when staked. */
  stakePeriodDay: number | null;
  pendingReward: number;
  declineReward: boolean;
  /** Ethereum nonce: fixed, or (`live`) the next nonce of its Ethereum transactions. */
  ethereumNonce: number | 'live';
  /** HBAR (tinybars) held before the sandbox's history. */
  hbar: bigint;
  /** Token associations: token num to what it held before the sandbox's history (NFT collections: 0). */
  tokens: Map<number, bigint>;
  /** For a contract: the file its bytecode was uploaded to (HAPI ContractCreate), else null. */
  fileId: number | null;
}

export interface FeeSpec {
  fixed: { amount: bigint; collector: number; token: number | null }[];
  fractional: {
    numerator: number;
    denominator: number;
    collector: number;
    minimum: bigint;
    maximum: bigint | null;
    netOfTransfers: boolean;
  }[];
  royalty: {
    numerator: number;
    denominator: number;
    collector: number;
    fallback: { amount: bigint; token: number | null } | null;
  }[];
}

export interface TokenEntity {
  num: number;
  name: string;
  symbol: string;
  type: 'FUNGIBLE_COMMON' | 'NON_FUNGIBLE_UNIQUE';
  decimals: number;
  treasury: number;
  createdNs: bigint;
  memo: string;
  metadata: string;
  adminKey: KeyJson | null;
  supplyKey: KeyJson | null;
  feeScheduleKey: KeyJson | null;
  pauseKey: KeyJson | null;
  wipeKey: KeyJson | null;
  freezeKey: KeyJson | null;
  kycKey: KeyJson | null;
  supplyType: 'INFINITE' | 'FINITE';
  maxSupply: bigint;
  fees: FeeSpec;
}

export interface TopicEntity {
  num: number;
  memo: string;
  adminKey: KeyJson | null;
  submitKey: KeyJson | null;
  feeScheduleKey: KeyJson | null;
  feeExemptKeys: KeyJson[];
  autoRenewAccount: number | null;
  createdNs: bigint;
  fixedFees: { amount: bigint; collector: number; token: number | null }[];
}

export interface Registry {
  accounts: Map<number, AccountEntity>;
  /** Alias bytes (hex, lowercase) to account num. */
  byAlias: Map<string, number>;
  /** EVM address (40 hex, lowercase, not long-zero) to entity num: alias accounts and contracts' own addresses. */
  byEvm: Map<string, number>;
  tokens: Map<number, TokenEntity>;
  topics: Map<number, TopicEntity>;
}

/* ------------------------------------------------------------------ keys, derived from ids */

const hexOf = (num: number, salt: number, bytes: number): string => derivedHex(BigInt(num) * 7919n + 17n, salt, bytes);
export const ed25519Key = (num: number, salt = 60): KeyJson => ({ _type: 'ED25519', key: hexOf(num, salt, 32) });
const ecdsaKey = (num: number): KeyJson => ({
  _type: 'ECDSA_SECP256K1',
  key: (parseInt(hexOf(num, 62, 1), 16) & 1 ? '03' : '02') + hexOf(num, 61, 32),
});
/** A contract's own key (Key.contractID), as the mirror node shows it: ProtobufEncoded. */
const contractIdKey = (num: number): KeyJson => ({
  _type: 'ProtobufEncoded',
  key: bytesToHex(new ProtoWriter().message(1, entityIdMsg(num)).finish()),
});
/** A 2-of-3 threshold key of ED25519 keys (Key.thresholdKey = 5: threshold = 1, keys = 2; KeyList.keys = 1). */
function thresholdKey(num: number): KeyJson {
  const list = new ProtoWriter();
  for (let i = 0; i < 3; i++) list.message(1, new ProtoWriter().bytes(2, hexToBytes(hexOf(num, 70 + i, 32))));
  return {
    _type: 'ProtobufEncoded',
    key: bytesToHex(new ProtoWriter().message(5, new ProtoWriter().int(1, 2).message(2, list)).finish()),
  };
}

/** Compressed secp256k1 public keys of Hardhat's first two accounts (their EVM addresses are the inspector's aliases). */
export const HARDHAT_KEYS: Readonly<Record<string, string>> = {
  [OWNER.evm]: '038318535b54105d4a7aae60c08fc45f9687181b4fdfc625bd1a753fa7397fed75',
  [ALIAS_SENDER.evm]: '02ba5734d8f7091719471e7f7ed6b9df170dc70cc661ca05e688601ad984f068b0',
};

/** The account of the HTS tokens' treasury (0.0.7101-0.0.7105, 0.0.7120). */
export const HTS_TREASURY = 7110;
const NODES = [3, 4, 5, 6, 7, 8, 9];
const DAY = 86400;
const ninety = 7_776_000; // auto renew period (90 days), the network's default

const days = (num: number, lo: number, span: number): number => lo + (parseInt(hexOf(num, 63, 4), 16) % span);
const createdAt = (num: number, daysBefore: number): bigint =>
  BigInt(ANCHOR_SEC - daysBefore * DAY - (parseInt(hexOf(num, 64, 4), 16) % DAY)) * NS +
  BigInt(parseInt(hexOf(num, 65, 4), 16) % 1_000_000_000);
const hbarOf = (num: number, lo: bigint): bigint => lo + BigInt(parseInt(hexOf(num, 66, 4), 16)) * 1000n;

/** The creation time of a contract: an hour before its first result, or 60 days before the anchor. */
export function contractCreatedNs(data: ContractData, num: number): bigint {
  const first = data.byContract.get(num)?.all[0]?.tsNs;
  return first !== undefined ? first - 3600n * NS : BigInt(ANCHOR_SEC - 60 * DAY) * NS;
}

function account(num: number, opts: Partial<AccountEntity> & { createdDaysBefore?: number | null }): AccountEntity {
  const { createdDaysBefore, ...o } = opts;
  const created = createdDaysBefore === null ? null : createdAt(num, createdDaysBefore ?? days(num, 60, 300));
  const staked =
    o.stakedNodeId !== undefined
      ? o.stakedNodeId
      : parseInt(hexOf(num, 67, 1), 16) % 4 === 0
        ? NODES[num % NODES.length] - 3
        : null;
  return {
    num,
    type: 'ACCOUNT',
    evm: null,
    alias: null,
    key: ed25519Key(num),
    memo: '',
    createdNs: created,
    autoRenewPeriod: ninety,
    maxAutoAssociations: 0,
    stakedNodeId: staked,
    stakePeriodDay: staked === null ? null : Math.floor(ANCHOR_SEC / DAY) - days(num, 1, 30),
    pendingReward: staked === null ? 0 : parseInt(hexOf(num, 68, 3), 16) % 5_000_000,
    declineReward: false,
    ethereumNonce: 0,
    hbar: hbarOf(num, 10_000_000_000_000n),
    tokens: new Map(),
    fileId: null,
    ...o,
  };
}

/* ------------------------------------------------------------------ the registry */

const registries = new WeakMap<MirrorData, Registry>();

export function entitiesOf(data: MirrorData): Registry {
  let r = registries.get(data);
  if (!r) registries.set(data, (r = build(data)));
  return r;
}

function build(data: MirrorData): Registry {
  const c = data.contracts;
  const accounts = new Map<number, AccountEntity>();
  const add = (a: AccountEntity): void => {
    if (!accounts.has(a.num)) accounts.set(a.num, a);
  };
  // network accounts: nodes, the fee account, the staking reward account (genesis: no creation time)
  for (const n of NODES)
    add(
      account(n, {
        createdDaysBefore: null,
        autoRenewPeriod: null,
        stakedNodeId: null,
        hbar: hbarOf(n, 100_000_000_000_000n),
      }),
    );
  add(
    account(98, {
      createdDaysBefore: null,
      autoRenewPeriod: null,
      stakedNodeId: null,
      hbar: hbarOf(98, 5_000_000_000_000_000n),
    }),
  );
  add(
    account(800, {
      createdDaysBefore: null,
      autoRenewPeriod: null,
      stakedNodeId: null,
      declineReward: true,
      hbar: hbarOf(800, 1_000_000_000_000_000n),
    }),
  );
  // the inspector's accounts: Hardhat's first two accounts (auto-created by their EVM addresses, then their keys)
  add(
    account(OWNER.num, {
      evm: OWNER.evm,
      alias: OWNER.evm,
      key: { _type: 'ECDSA_SECP256K1', key: HARDHAT_KEYS[OWNER.evm] },
      maxAutoAssociations: -1,
      ethereumNonce: 3,
      createdDaysBefore: 120,
      stakedNodeId: null,
      hbar: hbarOf(OWNER.num, OWNER_HBAR),
    }),
  );
  add(
    account(ALIAS_SENDER.num, {
      evm: ALIAS_SENDER.evm,
      alias: ALIAS_SENDER.evm,
      key: { _type: 'ECDSA_SECP256K1', key: HARDHAT_KEYS[ALIAS_SENDER.evm] },
      maxAutoAssociations: -1,
      ethereumNonce: 10,
      createdDaysBefore: 119,
      stakedNodeId: null,
    }),
  );
  add(account(DEPOSITOR.num, { createdDaysBefore: 118, stakedNodeId: 0 }));
  add(account(RELAY, { memo: 'JSON-RPC relay operator', createdDaysBefore: 400, stakedNodeId: 1 }));
  add(account(7009, { memo: 'VRT fee collector', createdDaysBefore: 117, stakedNodeId: null }));
  add(account(7109, { memo: 'SUSD fee collector', createdDaysBefore: 116, stakedNodeId: null }));
  add(
    account(HTS_TREASURY, {
      memo: 'Sandbox token treasury',
      key: thresholdKey(HTS_TREASURY),
      createdDaysBefore: 150,
      stakedNodeId: null,
    }),
  );
  // the senders of the contract results
  for (const s of c.senders) {
    if (s.alias)
      add(
        account(s.num, {
          evm: s.evm,
          alias: s.evm,
          key: ecdsaKey(s.num),
          maxAutoAssociations: -1,
          ethereumNonce: 'live',
        }),
      );
    else add(account(s.num, {}));
  }
  // the NFT histories' and the schedules' accounts
  add(
    account(NFT_TREASURY, {
      memo: 'Hashgraph Heroes treasury',
      key: thresholdKey(NFT_TREASURY),
      createdDaysBefore: 200,
      stakedNodeId: null,
    }),
  );
  for (const n of [...NFT_ACCOUNTS, ...SCHEDULE_ACCOUNTS]) add(account(n, {}));
  // contracts: accounts of type CONTRACT
  for (const k of c.contractsByNum.values()) {
    const own = !/^0{24}/.test(k.evm);
    const created = contractCreatedNs(c, k.num);
    add({
      ...account(k.num, { stakedNodeId: null }),
      type: 'CONTRACT',
      evm: own ? k.evm : null,
      // HAPI-created contracts carry their deployer's admin key and their name as memo; those an Ethereum
      // transaction or CREATE2 made have their own contract key and no memo
      key: own ? contractIdKey(k.num) : ed25519Key(k.num, 69),
      memo: own ? '' : k.name,
      createdNs: created,
      ethereumNonce: 1,
      hbar: hbarOf(k.num, 1_000_000_000_000n),
      fileId: own ? null : k.num - 1,
    });
  }
  const byAlias = new Map<string, number>();
  const byEvm = new Map<string, number>();
  for (const a of accounts.values()) {
    if (a.alias) byAlias.set(a.alias, a.num);
    if (a.evm) byEvm.set(a.evm, a.num);
  }
  // a contract's file id must not be another entity's id
  for (const a of accounts.values()) if (a.fileId !== null && accounts.has(a.fileId)) a.fileId = null;

  const tokens = buildTokens();
  const topics = buildTopics();
  associate(data, accounts, tokens);
  return { accounts, byAlias, byEvm, tokens, topics };
}

/* ------------------------------------------------------------------ tokens */

const noFees = (): FeeSpec => ({ fixed: [], fractional: [], royalty: [] });

function token(num: number, o: Partial<TokenEntity> & Pick<TokenEntity, 'name' | 'symbol' | 'treasury'>): TokenEntity {
  return {
    num,
    type: 'FUNGIBLE_COMMON',
    decimals: 8,
    createdNs: createdAt(num, 100),
    memo: '',
    metadata: '',
    adminKey: ed25519Key(o.treasury, 71),
    supplyKey: ed25519Key(o.treasury, 72),
    feeScheduleKey: null,
    pauseKey: null,
    wipeKey: null,
    freezeKey: null,
    kycKey: null,
    supplyType: 'INFINITE',
    maxSupply: 9223372036854775807n,
    fees: noFees(),
    ...o,
  };
}

function buildTokens(): Map<number, TokenEntity> {
  const list: TokenEntity[] = [];
  const frac = (num: number): FeeSpec => {
    const f = FRACTIONAL_FEES.get(num);
    return f
      ? {
          ...noFees(),
          fractional: [
            {
              numerator: Number(f.numerator),
              denominator: Number(f.denominator),
              collector: f.collector,
              minimum: 1n,
              maximum: null,
              netOfTransfers: false,
            },
          ],
        }
      : noFees();
  };
  // the Vault's reward token (the inspector's payout) and the HTS tokens the generated contracts move
  list.push(
    token(PAYOUT_TOKEN, {
      name: 'Vault Reward Token',
      symbol: 'VRT',
      treasury: OWNER.num,
      adminKey: { _type: 'ECDSA_SECP256K1', key: HARDHAT_KEYS[OWNER.evm] },
      supplyKey: { _type: 'ECDSA_SECP256K1', key: HARDHAT_KEYS[OWNER.evm] },
      feeScheduleKey: { _type: 'ECDSA_SECP256K1', key: HARDHAT_KEYS[OWNER.evm] },
      createdNs: createdAt(PAYOUT_TOKEN, 110),
      fees: frac(PAYOUT_TOKEN),
    }),
  );
  const hts: [string, string, number][] = [
    ['Sandbox USD', 'SUSD', 6],
    ['Staked HBAR', 'SHBAR', 8],
    ['Karate Combat', 'KARATE', 8],
    ['Sauce', 'SAUCE', 6],
    ['Sandbox Gold', 'SGOLD', 8],
  ];
  HTS_TOKENS.forEach((num, i) => {
    const [name, symbol, decimals] = hts[i];
    list.push(
      token(num, {
        name,
        symbol,
        decimals,
        treasury: HTS_TREASURY,
        feeScheduleKey: FRACTIONAL_FEES.has(num) ? ed25519Key(HTS_TREASURY, 73) : null,
        pauseKey: i === 1 ? ed25519Key(HTS_TREASURY, 74) : null,
        wipeKey: i === 2 ? ed25519Key(HTS_TREASURY, 75) : null,
        memo: i === 0 ? 'Sandbox stablecoin, 1:1 with nothing' : '',
        fees: frac(num),
      }),
    );
  });
  list.push(
    token(HTS_NFT_TOKEN, {
      name: 'Vault Keys',
      symbol: 'VKEY',
      type: 'NON_FUNGIBLE_UNIQUE',
      decimals: 0,
      treasury: HTS_TREASURY,
      supplyType: 'FINITE',
      maxSupply: 10_000n,
      metadata: Buffer.from('ipfs://bafybeivaultkeys/collection.json').toString('base64'),
    }),
  );
  // the NFT histories' collections
  list.push(
    token(NFT_TOKEN, {
      name: 'Hashgraph Heroes',
      symbol: 'HERO',
      type: 'NON_FUNGIBLE_UNIQUE',
      decimals: 0,
      treasury: NFT_TREASURY,
      createdNs: createdAt(NFT_TOKEN, 45),
      adminKey: thresholdKey(NFT_TREASURY),
      supplyKey: ed25519Key(NFT_TREASURY, 76),
      wipeKey: ed25519Key(NFT_TREASURY, 77),
      feeScheduleKey: ed25519Key(NFT_TREASURY, 78),
      memo: 'Hashgraph Heroes genesis collection',
      metadata: Buffer.from('ipfs://bafybeihashgraphheroes/collection.json').toString('base64'),
      fees: {
        ...noFees(),
        royalty: [
          { numerator: 5, denominator: 100, collector: NFT_TREASURY, fallback: { amount: 100_000_000n, token: null } },
        ],
      },
    }),
  );
  list.push(
    token(NFT_TOKEN_2, {
      name: 'DeepSea Tickets',
      symbol: 'DSEA',
      type: 'NON_FUNGIBLE_UNIQUE',
      decimals: 0,
      treasury: NFT_TREASURY,
      createdNs: createdAt(NFT_TOKEN_2, 44),
      supplyType: 'FINITE',
      maxSupply: 500n,
    }),
  );
  // the schedules' fungible tokens (transferred with expected_decimals 2, burned)
  const sched: [string, string][] = [
    ['Escrow Note', 'ESCN'],
    ['Treasury Bond', 'TBOND'],
    ['Payroll Credit', 'PAYC'],
  ];
  SCHEDULE_FUNGIBLE_TOKENS.forEach((num, i) =>
    list.push(
      token(num, {
        name: sched[i][0],
        symbol: sched[i][1],
        decimals: 2,
        treasury: SCHEDULE_CREATORS[0],
        createdNs: createdAt(num, 50),
      }),
    ),
  );
  return new Map(list.map((t) => [t.num, t]));
}

/* ------------------------------------------------------------------ topics */

function buildTopics(): Map<number, TopicEntity> {
  const [audit, rotation, open, paid] = SCHEDULE_TOPICS;
  const list: TopicEntity[] = [
    {
      num: audit,
      memo: 'Sandbox audit log',
      adminKey: ed25519Key(SCHEDULE_CREATORS[0], 80),
      submitKey: ed25519Key(SCHEDULE_CREATORS[0], 81),
      feeScheduleKey: null,
      feeExemptKeys: [],
      autoRenewAccount: SCHEDULE_CREATORS[0],
      createdNs: createdAt(audit, 80),
      fixedFees: [],
    },
    {
      num: rotation,
      memo: 'Key rotation events',
      adminKey: thresholdKey(SCHEDULE_CREATORS[1]),
      submitKey: thresholdKey(SCHEDULE_CREATORS[1]),
      feeScheduleKey: null,
      feeExemptKeys: [],
      autoRenewAccount: SCHEDULE_CREATORS[1],
      createdNs: createdAt(rotation, 75),
      fixedFees: [],
    },
    // open: anyone submits, nobody administers
    {
      num: open,
      memo: '',
      adminKey: null,
      submitKey: null,
      feeScheduleKey: null,
      feeExemptKeys: [],
      autoRenewAccount: null,
      createdNs: createdAt(open, 70),
      fixedFees: [],
    },
    // HIP-991: a fee per message, in HBAR and in a token, with a fee-exempt key
    {
      num: paid,
      memo: 'Paid announcements (HIP-991)',
      adminKey: ed25519Key(SCHEDULE_CREATORS[2], 82),
      submitKey: null,
      feeScheduleKey: ed25519Key(SCHEDULE_CREATORS[2], 83),
      feeExemptKeys: [ed25519Key(SCHEDULE_CREATORS[2], 84)],
      autoRenewAccount: SCHEDULE_CREATORS[2],
      createdNs: createdAt(paid, 65),
      fixedFees: [
        { amount: 50_000_000n, collector: SCHEDULE_CREATORS[2], token: null },
        { amount: 250n, collector: SCHEDULE_CREATORS[2], token: SCHEDULE_FUNGIBLE_TOKENS[1] },
      ],
    },
  ];
  return new Map(list.map((t) => [t.num, t]));
}

/* ------------------------------------------------------------------ token associations */

function associate(data: MirrorData, accounts: Map<number, AccountEntity>, tokens: Map<number, TokenEntity>): void {
  const assoc = (account: number, tok: number, held: bigint): void => {
    const a = accounts.get(account);
    if (!a) return;
    const prev = a.tokens.get(tok) ?? 0n;
    a.tokens.set(tok, prev > held ? prev : held);
  };
  const heldOf = (account: number, tok: number, lo: bigint): bigint =>
    lo + BigInt(parseInt(hexOf(account * 31 + tok, 90, 5), 16));
  // treasuries hold the bulk; fee collectors are associated
  for (const t of tokens.values()) {
    if (t.type === 'FUNGIBLE_COMMON')
      assoc(t.treasury, t.num, heldOf(t.treasury, t.num, 10n ** BigInt(t.decimals + 9)));
    else assoc(t.treasury, t.num, 0n);
    for (const f of t.fees.fractional) assoc(f.collector, t.num, 0n);
  }
  // the Vault holds the reward token it pays out; the alias sender received it
  assoc(Number(VAULT.entityId.split('.')[2]), PAYOUT_TOKEN, 10n ** 17n);
  assoc(ALIAS_SENDER.num, PAYOUT_TOKEN, 0n);
  // whoever the token service moves tokens for (the calling contracts and the senders they pay), in any result
  const c = data.contracts;
  for (const row of c.all) {
    if (!row.parent) continue;
    const rec = txRecord(c, row);
    for (const t of rec.tokens) assoc(t.account, t.token, t.amount < 0n ? heldOf(t.account, t.token, 10n ** 15n) : 0n);
    for (const n of rec.nfts) {
      assoc(n.sender, n.token, 1_000n);
      assoc(n.receiver, n.token, 0n);
    }
  }
  // the NFT collections: every account the histories name
  for (const n of [...NFT_ACCOUNTS, NFT_TREASURY]) for (const t of [NFT_TOKEN, NFT_TOKEN_2]) assoc(n, t, 0n);
  // the schedules' tokens: their accounts
  for (const n of SCHEDULE_ACCOUNTS) for (const t of SCHEDULE_FUNGIBLE_TOKENS) assoc(n, t, heldOf(n, t, 100_000n));
}

/* ------------------------------------------------------------------ balances from the history */

interface Moves {
  /** Rows of data.contracts.all read so far. */
  count: number;
  hbar: Map<number, { delta: bigint; lastNs: bigint }>;
  /** `account/token` to the net amount moved. */
  tokens: Map<string, bigint>;
}

const movesCache = new WeakMap<MirrorData, Moves>();

/** HBAR and token moves of every transaction of the contract results so far (live results included). */
export function movesOf(data: MirrorData): Moves {
  let m = movesCache.get(data);
  if (!m) movesCache.set(data, (m = { count: 0, hbar: new Map(), tokens: new Map() }));
  const c = data.contracts;
  for (; m.count < c.all.length; m.count++) {
    const row = c.all[m.count];
    const rec = txRecord(c, row);
    for (const t of rec.transfers) {
      const prev = m.hbar.get(t.account);
      m.hbar.set(t.account, {
        delta: (prev?.delta ?? 0n) + t.amount,
        lastNs: prev && prev.lastNs > row.tsNs ? prev.lastNs : row.tsNs,
      });
    }
    for (const t of rec.tokens)
      m.tokens.set(`${t.account}/${t.token}`, (m.tokens.get(`${t.account}/${t.token}`) ?? 0n) + t.amount);
    for (const n of rec.nfts) {
      m.tokens.set(`${n.sender}/${n.token}`, (m.tokens.get(`${n.sender}/${n.token}`) ?? 0n) - 1n);
      m.tokens.set(`${n.receiver}/${n.token}`, (m.tokens.get(`${n.receiver}/${n.token}`) ?? 0n) + 1n);
    }
  }
  return m;
}

/** NFT collections' serials owned at the end of the histories, per `account/token`; and each collection's live serials. */
interface Owners {
  owned: Map<string, bigint>;
  supply: Map<number, bigint>;
}
const ownersCache = new WeakMap<MirrorData, Owners>();

function finalOwner(h: NftHistory): number | null {
  for (let i = h.length - 1; i >= 0; i--) {
    const o = h.entry(i).obj;
    if (o.type === 'TOKENBURN' || o.type === 'TOKENWIPE') return null;
    if (typeof o.receiver_account_id === 'string') return Number(o.receiver_account_id.split('.')[2]);
  }
  return null;
}

export function nftOwners(data: MirrorData): Owners {
  let o = ownersCache.get(data);
  if (o) return o;
  o = { owned: new Map(), supply: new Map() };
  for (const h of data.nfts.histories.values()) {
    const owner = finalOwner(h);
    if (owner === null) continue;
    const key = `${owner}/${h.tokenNum}`;
    o.owned.set(key, (o.owned.get(key) ?? 0n) + 1n);
    o.supply.set(h.tokenNum, (o.supply.get(h.tokenNum) ?? 0n) + 1n);
  }
  ownersCache.set(data, o);
  return o;
}

/** An account's HBAR balance (tinybars) and the timestamp of its last change (ns; null: never, then its creation). */
export function hbarBalance(data: MirrorData, a: AccountEntity): { balance: bigint; lastNs: bigint | null } {
  const m = movesOf(data).hbar.get(a.num);
  return { balance: a.hbar + (m?.delta ?? 0n), lastNs: m?.lastNs ?? a.createdNs };
}

/** An account's token balances, ascending by token id. */
export function tokenBalances(data: MirrorData, a: AccountEntity): { token: number; balance: bigint }[] {
  const reg = entitiesOf(data);
  const moves = movesOf(data).tokens;
  const owners = nftOwners(data).owned;
  return [...a.tokens]
    .sort(([x], [y]) => x - y)
    .map(([tok, held]) => {
      const t = reg.tokens.get(tok);
      const nftCollection = t?.type === 'NON_FUNGIBLE_UNIQUE' && tok !== HTS_NFT_TOKEN;
      const balance = nftCollection
        ? (owners.get(`${a.num}/${tok}`) ?? 0n)
        : held + (moves.get(`${a.num}/${tok}`) ?? 0n);
      return { token: tok, balance };
    });
}

/** A token's total supply: the sum of its holders' balances (an NFT collection: its serials owned). */
export function totalSupply(data: MirrorData, t: TokenEntity): bigint {
  if (t.type === 'NON_FUNGIBLE_UNIQUE' && t.num !== HTS_NFT_TOKEN) return nftOwners(data).supply.get(t.num) ?? 0n;
  let sum = 0n;
  for (const a of entitiesOf(data).accounts.values()) {
    const held = a.tokens.get(t.num);
    if (held === undefined) continue;
    sum += held + (movesOf(data).tokens.get(`${a.num}/${t.num}`) ?? 0n);
  }
  return sum;
}

/** An account's Ethereum nonce: fixed, or the next nonce of its Ethereum transactions (live results continue it). */
export function ethereumNonce(data: MirrorData, a: AccountEntity): number {
  if (a.ethereumNonce !== 'live') return a.ethereumNonce;
  const next = data.contracts.live.ethNonce.get(a.num);
  if (next !== undefined) return next;
  // no generated Ethereum transaction: the highest nonce in its results, plus one
  let n = 0;
  for (const r of data.contracts.byContract.values())
    for (const row of r.top)
      if (row.senderNum === a.num && isEthereum(row.obj)) n = Math.max(n, Number(row.obj.nonce) + 1);
  return n;
}

/** RFC 4648 base32 without padding (the mirror node's alias encoding). */
export function base32(hex: string): string {
  const A = 'ABCDEFGHIJKLMNOPQRSTUVWXYZ234567';
  let bits = 0;
  let value = 0;
  let out = '';
  for (const b of hexToBytes(hex)) {
    value = (value << 8) | b;
    bits += 8;
    while (bits >= 5) {
      out += A[(value >>> (bits - 5)) & 31];
      bits -= 5;
    }
    value &= (1 << bits) - 1;
  }
  if (bits > 0) out += A[(value << (5 - bits)) & 31];
  return out;
}

/** Decodes unpadded base32 (A-Z, 2-7); null for a length no byte string has (1, 3 or 6 characters mod 8). */
export function base32Decode(s: string): string | null {
  if ([1, 3, 6].includes(s.length % 8)) return null;
  const A = 'ABCDEFGHIJKLMNOPQRSTUVWXYZ234567';
  let bits = 0;
  let value = 0;
  const out: number[] = [];
  for (const ch of s) {
    const v = A.indexOf(ch);
    if (v < 0) return null;
    value = (value << 5) | v;
    bits += 5;
    if (bits >= 8) {
      out.push((value >>> (bits - 8)) & 255);
      bits -= 8;
    }
    value &= (1 << bits) - 1;
  }
  return Buffer.from(out).toString('hex');
}

/** The entities the tests and the demo look up (GET /__sandbox/health `notable.lookups`). */
export function lookupNotable(data: MirrorData): Record<string, unknown> {
  const reg = entitiesOf(data);
  const id = (n: number): string => `0.0.${n}`;
  const alias = [...reg.accounts.values()].find((a) => a.type === 'ACCOUNT' && a.alias && a.ethereumNonce === 'live');
  return {
    accounts: {
      owner: id(OWNER.num),
      ownerAlias: base32(OWNER.evm),
      aliasSender: id(ALIAS_SENDER.num),
      generatedAlias: alias ? { id: id(alias.num), evm: '0x' + alias.evm, alias: base32(alias.alias as string) } : null,
      depositor: id(DEPOSITOR.num),
      relay: id(RELAY),
      htsTreasury: id(HTS_TREASURY),
      nftTreasury: id(NFT_TREASURY),
      node: id(NODES[0]),
      feeAccount: id(98),
      stakingRewardAccount: id(800),
      contract: VAULT.entityId,
    },
    tokens: {
      payout: id(PAYOUT_TOKEN),
      withFractionalFee: id(HTS_TOKENS[0]),
      hts: HTS_TOKENS.map(id),
      htsNft: id(HTS_NFT_TOKEN),
      collection: id(NFT_TOKEN),
      collection2: id(NFT_TOKEN_2),
      scheduled: SCHEDULE_FUNGIBLE_TOKENS.map(id),
    },
    topics: {
      withKeys: id(SCHEDULE_TOPICS[0]),
      thresholdKeys: id(SCHEDULE_TOPICS[1]),
      open: id(SCHEDULE_TOPICS[2]),
      withFees: id(SCHEDULE_TOPICS[3]),
    },
    counts: {
      accounts: [...reg.accounts.values()].filter((a) => a.type === 'ACCOUNT').length,
      contracts: [...reg.accounts.values()].filter((a) => a.type === 'CONTRACT').length,
      tokens: reg.tokens.size,
      topics: reg.topics.size,
    },
  };
}
