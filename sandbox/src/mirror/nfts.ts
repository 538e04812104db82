/**
 * NFT transaction histories. Short ones are arrays; the long one (12,345 entries) is computed per index on
 * demand, so it costs no memory: entry i depends only on i.
 */
import { type Prng, hash32 } from '../prng';
import { ANCHOR_SEC, NS, entityId, nsToTs } from './ids';

export interface NftEntry {
  tsNs: bigint;
  obj: Record<string, unknown>;
}

export interface NftHistory {
  tokenNum: number;
  serial: bigint;
  length: number;
  /** Entry i, ascending by consensus timestamp (0 = oldest). */
  entry(i: number): NftEntry;
  tsAt(i: number): bigint;
  /** History exists but its mint is missing: the mirror node answers 206. */
  missingMint: boolean;
}

export const NFT_TOKEN = 4815162;
export const NFT_TOKEN_2 = 4815170;
export const LONG_SERIAL = 7n;
export const LONG_LENGTH = 12_345;
export const PARTIAL_SERIAL = 13n;
export const MAX_SERIAL = 9223372036854775807n;
export const UNKNOWN_TYPE_SERIAL = 21n;
export const MADE_UP_TYPE = 'TOKENTELEPORT';
/** The NFT tokens' treasury (mints and burns). */
export const NFT_TREASURY = 4_815_001;
const TREASURY = NFT_TREASURY;
/** The accounts NFTs move between. */
export const NFT_ACCOUNTS: readonly number[] = [
  2_061_517, 3_404_044, 4_417_201, 4_800_012, 1_024_305, 5_222_918, 4_001_771, 4_123_456, 3_999_001, 4_776_120,
];

const txId = (payer: number, consensusNs: bigint, back: number): string => {
  const valid = consensusNs - BigInt(back) * NS - BigInt(back * 7919);
  return `0.0.${payer}-${valid / NS}-${(valid % NS).toString().padStart(9, '0')}`;
};

function entryObj(
  ts: bigint,
  payer: number,
  back: number,
  type: string,
  sender: number | null,
  receiver: number | null,
  approval: boolean,
  nonce = 0,
): Record<string, unknown> {
  return {
    consensus_timestamp: nsToTs(ts),
    nonce,
    transaction_id: txId(payer, ts, back),
    type,
    is_approval: approval,
    receiver_account_id: receiver === null ? null : entityId(receiver),
    sender_account_id: sender === null ? null : entityId(sender),
  };
}

function arrayHistory(tokenNum: number, serial: bigint, entries: NftEntry[], missingMint: boolean): NftHistory {
  return {
    tokenNum,
    serial,
    length: entries.length,
    entry: (i) => entries[i],
    tsAt: (i) => entries[i].tsNs,
    missingMint,
  };
}

type Step = 'mint' | 'transfer' | 'approvedTransfer' | 'approve' | 'deleteAllowance' | 'burn' | 'wipe' | 'madeUp';

function buildShort(rng: Prng, steps: Step[], startSec: number, accounts: number[]): NftEntry[] {
  const out: NftEntry[] = [];
  let owner = TREASURY;
  let sec = startSec;
  for (const step of steps) {
    sec += rng.int(120, 3 * 86400);
    const ts = BigInt(sec) * NS + BigInt(rng.int(0, 999_999_999));
    const back = rng.int(1, 9);
    const someone = (): number => {
      let a = rng.pick(accounts);
      while (a === owner) a = rng.pick(accounts);
      return a;
    };
    let obj: Record<string, unknown>;
    switch (step) {
      case 'mint':
        owner = TREASURY;
        obj = entryObj(ts, TREASURY, back, 'TOKENMINT', null, TREASURY, false);
        break;
      case 'transfer': {
        const to = someone();
        obj = entryObj(ts, owner, back, 'CRYPTOTRANSFER', owner, to, false);
        owner = to;
        break;
      }
      case 'approvedTransfer': {
        const to = someone();
        const spender = someone();
        obj = entryObj(ts, spender, back, 'CRYPTOTRANSFER', owner, to, true, rng.chance(0.2) ? 1 : 0);
        owner = to;
        break;
      }
      case 'approve':
        obj = entryObj(ts, owner, back, 'CRYPTOAPPROVEALLOWANCE', null, null, false);
        break;
      case 'deleteAllowance':
        obj = entryObj(ts, owner, back, 'CRYPTODELETEALLOWANCE', null, null, false);
        break;
      case 'burn':
        obj = entryObj(ts, TREASURY, back, 'TOKENBURN', TREASURY, null, false);
        break;
      case 'wipe':
        obj = entryObj(ts, TREASURY, back, 'TOKENWIPE', owner, null, false);
        break;
      default:
        obj = entryObj(ts, owner, back, MADE_UP_TYPE, owner, someone(), false);
    }
    out.push({ tsNs: ts, obj });
  }
  return out;
}

function randomSteps(rng: Prng, n: number): Step[] {
  const steps: Step[] = ['mint'];
  for (let i = 1; i < n; i++) {
    steps.push(
      rng.weighted([
        ['transfer', 60],
        ['approvedTransfer', 15],
        ['approve', 15],
        ['deleteAllowance', 5],
      ] as const),
    );
  }
  return steps;
}

/** The long history: entry i computed from i alone (timestamps strictly increasing). */
function longHistory(tokenNum: number, serial: bigint, accounts: number[]): NftHistory {
  const start = BigInt(ANCHOR_SEC - 41 * 86400) * NS;
  const step = 280n * NS; // 12,345 entries over ~40 days
  const tsAt = (i: number): bigint =>
    start + BigInt(i) * step + BigInt(hash32(i, 1) % 270) * NS + BigInt(hash32(i, 2) % 1_000_000_000);
  // Every 5th entry (i % 5 == 4) approves an allowance and every 25th (i % 25 == 12) deletes one; the rest are
  // the mint (i = 0) and transfers. Counting transfers up to i is then closed-form, and owners alternate between
  // two halves of the account list, so consecutive owners always differ: no recursion, O(1) per entry.
  const kindOf = (i: number): 'mint' | 'transfer' | 'approve' | 'deleteAllowance' | 'approvedTransfer' => {
    if (i === 0) return 'mint';
    if (i % 5 === 4) return 'approve';
    if (i % 25 === 12) return 'deleteAllowance';
    return hash32(i, 3) % 100 < 20 ? 'approvedTransfer' : 'transfer';
  };
  const transfersUpTo = (i: number): number => i + 1 - Math.floor((i + 1) / 5) - Math.floor((i + 13) / 25);
  const half = accounts.length >> 1;
  const ownerOfOrdinal = (k: number): number => (k === 0 ? TREASURY : accounts[(k % 2) * half + (hash32(k, 4) % half)]);
  const ownerAfter = (i: number): number => ownerOfOrdinal(transfersUpTo(i) - 1);
  const entry = (i: number): NftEntry => {
    const ts = tsAt(i);
    const back = 1 + (hash32(i, 5) % 8);
    const kind = kindOf(i);
    let obj: Record<string, unknown>;
    if (kind === 'mint') obj = entryObj(ts, TREASURY, back, 'TOKENMINT', null, TREASURY, false);
    else if (kind === 'approve' || kind === 'deleteAllowance') {
      obj = entryObj(
        ts,
        ownerAfter(i - 1),
        back,
        kind === 'approve' ? 'CRYPTOAPPROVEALLOWANCE' : 'CRYPTODELETEALLOWANCE',
        null,
        null,
        false,
      );
    } else {
      const from = ownerAfter(i - 1);
      const to = ownerAfter(i);
      const payer = kind === 'approvedTransfer' ? accounts[hash32(i, 6) % accounts.length] : from;
      obj = entryObj(
        ts,
        payer,
        back,
        'CRYPTOTRANSFER',
        from,
        to,
        kind === 'approvedTransfer',
        hash32(i, 7) % 23 === 0 ? 1 : 0,
      );
    }
    return { tsNs: ts, obj };
  };
  return { tokenNum, serial, length: LONG_LENGTH, entry, tsAt, missingMint: false };
}

export interface NftData {
  histories: Map<string, NftHistory>;
  notable: Record<string, string>;
}

export const nftKey = (tokenNum: bigint | number, serial: bigint): string => `${tokenNum}/${serial}`;

export function generateNfts(rng: Prng): NftData {
  const accounts = [...NFT_ACCOUNTS];
  const histories = new Map<string, NftHistory>();
  const base = ANCHOR_SEC - 40 * 86400;
  for (let s = 1; s <= 40; s++) {
    const serial = BigInt(s);
    if (serial === LONG_SERIAL) continue;
    let steps: Step[];
    if (serial === 2n)
      steps = [
        'mint',
        'approve',
        'approvedTransfer',
        'transfer',
        'approve',
        'deleteAllowance',
        'approvedTransfer',
        'transfer',
        'burn',
      ];
    else if (serial === PARTIAL_SERIAL)
      steps = ['transfer', 'approvedTransfer', 'approve', 'transfer', 'transfer', 'wipe'];
    else if (serial === UNKNOWN_TYPE_SERIAL) steps = ['mint', 'transfer', 'madeUp', 'transfer'];
    else {
      steps = randomSteps(
        rng,
        rng.weighted([
          [1, 4],
          [3, 10],
          [8, 10],
          [20, 6],
          [45, 3],
          [130, 2],
        ] as const) + rng.int(0, 3),
      );
      const end = rng.weighted([
        ['none', 80],
        ['burn', 12],
        ['wipe', 8],
      ] as const);
      if (end !== 'none') steps.push(end);
    }
    const entries = buildShort(rng, steps, base + rng.int(0, 86400), accounts);
    histories.set(nftKey(NFT_TOKEN, serial), arrayHistory(NFT_TOKEN, serial, entries, serial === PARTIAL_SERIAL));
  }
  histories.set(nftKey(NFT_TOKEN, LONG_SERIAL), longHistory(NFT_TOKEN, LONG_SERIAL, accounts));
  histories.set(
    nftKey(NFT_TOKEN, MAX_SERIAL),
    arrayHistory(
      NFT_TOKEN,
      MAX_SERIAL,
      buildShort(rng, ['mint', 'transfer', 'approvedTransfer', 'transfer'], base, accounts),
      false,
    ),
  );
  for (let s = 1; s <= 5; s++) {
    const serial = BigInt(s);
    histories.set(
      nftKey(NFT_TOKEN_2, serial),
      arrayHistory(NFT_TOKEN_2, serial, buildShort(rng, randomSteps(rng, rng.int(2, 6)), base, accounts), false),
    );
  }
  const t = entityId(NFT_TOKEN);
  const notable = {
    token: t,
    token2: entityId(NFT_TOKEN_2),
    longHistory: `${t}/${LONG_SERIAL}`,
    partialHistory: `${t}/${PARTIAL_SERIAL}`,
    maxSerial: `${t}/${MAX_SERIAL}`,
    madeUpType: `${t}/${UNKNOWN_TYPE_SERIAL}`,
    approvalsAndBurn: `${t}/2`,
  };
  return { histories, notable };
}
