/**
 * Generated schedules (320) in every state, with every signature type, every admin key type, unicode and
 * HTML-looking memos, and REAL base64 protobuf `SchedulableTransactionBody` payloads.
 */
import { type Prng } from '../prng';
import { ProtoWriter, bytesToHex, entityIdMsg, hexToBytes, toBase64 } from '../protobuf';
import { SELECTORS, addrWord, uintWord } from '../abi';
import { ANCHOR_SEC, NS, entityId, tsNs, tsString } from './ids';

export interface ScheduleRow {
  num: number;
  creatorNum: number;
  executed: boolean;
  deleted: boolean;
  /** null when the schedule has no expiration_time. */
  expirationNs: bigint | null;
  obj: Record<string, unknown>;
  json?: string;
}

export interface ScheduleData {
  rows: ScheduleRow[]; // ascending schedule id
  byNum: Map<number, ScheduleRow>;
  creators: number[];
  notable: Record<string, string>;
}

const COUNT = 333;
const SIG_TYPES = ['ED25519', 'ECDSA_SECP256K1', 'CONTRACT', 'RSA_3072', 'ECDSA_384', 'UNKNOWN'] as const;

export const MEMOS = [
  'Quarterly treasury payout',
  'Council approved upgrade 0.68 → 0.69',
  '🚀 launch day transfer 🎉',
  '定期支払い：サンドボックス',
  'دفعة مجدولة للخزينة',
  'העברה מתוזמנת',
  '<img src=x onerror=alert(1)>',
  '<script>alert(1)</script>',
  'Payroll & "bonus" <b>2026</b>',
  '',
  'multisig 2-of-3 release for escrow #4471',
  'a'.repeat(100),
  'Zahlung für Lizenz Ü-42',
  'Token airdrop batch 7/12',
];

/**
 * Future times must stay in the future whatever the clock says: pending expirations are offsets from
 * max(anchor, start of today UTC). Everything else is fixed.
 */
export function futureBaseSec(nowMs: number): number {
  const today = Math.floor(nowMs / 86_400_000) * 86400;
  return Math.max(ANCHOR_SEC, today);
}

function key(rng: Prng, kind: 'ED25519' | 'ECDSA_SECP256K1' | 'ProtobufEncoded'): { _type: string; key: string } {
  if (kind === 'ED25519') return { _type: 'ED25519', key: rng.hex(32) };
  if (kind === 'ECDSA_SECP256K1') return { _type: 'ECDSA_SECP256K1', key: rng.pick(['02', '03']) + rng.hex(32) };
  // Key (basic_types.proto): ed25519 = 2, thresholdKey = 5, keyList = 6, ECDSA_secp256k1 = 7
  // ThresholdKey { threshold = 1; KeyList keys = 2 }   KeyList { repeated Key keys = 1 }
  const list = new ProtoWriter();
  const n = rng.int(2, 3);
  for (let i = 0; i < n; i++) {
    const k = rng.chance(0.5)
      ? new ProtoWriter().bytes(2, rng.bytes(32))
      : new ProtoWriter().bytes(7, hexToBytes(rng.pick(['02', '03']) + rng.hex(32)));
    list.message(1, k);
  }
  const outer = rng.chance(0.6)
    ? new ProtoWriter().message(5, new ProtoWriter().int(1, 2).message(2, list))
    : new ProtoWriter().message(6, list);
  return { _type: 'ProtobufEncoded', key: bytesToHex(outer.finish()) };
}

function sigBytes(rng: Prng, type: (typeof SIG_TYPES)[number]): { prefix: Uint8Array; sig: Uint8Array } {
  switch (type) {
    case 'ED25519':
      return { prefix: rng.bytes(32), sig: rng.bytes(64) };
    case 'ECDSA_SECP256K1':
      return { prefix: hexToBytes(rng.pick(['02', '03']) + rng.hex(32)), sig: rng.bytes(64) };
    case 'RSA_3072':
      return { prefix: rng.bytes(6), sig: rng.bytes(384) };
    case 'ECDSA_384':
      return { prefix: rng.bytes(6), sig: rng.bytes(96) };
    case 'CONTRACT':
      return { prefix: rng.bytes(4), sig: new Uint8Array(0) };
    default:
      return { prefix: rng.bytes(3), sig: rng.bytes(32) };
  }
}

/* crypto_transfer.proto / basic_types.proto:
 *   CryptoTransferTransactionBody { TransferList transfers = 1; repeated TokenTransferList tokenTransfers = 2; }
 *   TransferList { repeated AccountAmount accountAmounts = 1; }
 *   AccountAmount { AccountID accountID = 1; sint64 amount = 2; bool is_approval = 3; }
 *   TokenTransferList { TokenID token = 1; repeated AccountAmount transfers = 2; repeated NftTransfer nftTransfers = 3;
 *                       google.protobuf.UInt32Value expected_decimals = 4; }
 *   NftTransfer { AccountID senderAccountID = 1; AccountID receiverAccountID = 2; int64 serialNumber = 3; bool is_approval = 4; }
 */
const accountAmount = (num: number, amount: bigint, approval = false): ProtoWriter =>
  new ProtoWriter().message(1, entityIdMsg(num)).sint(2, amount).bool(3, approval);

export type BodyKind =
  'hbar' | 'token' | 'nft' | 'contractCall' | 'tokenMint' | 'tokenBurn' | 'tokenAssociate' | 'submitMessage';
const BODY_KINDS: BodyKind[] = [
  'hbar',
  'token',
  'nft',
  'contractCall',
  'tokenMint',
  'tokenBurn',
  'tokenAssociate',
  'submitMessage',
];

/** The topics schedules submit messages to (GET /topics/{id} serves them: mirror/entities.ts). */
export const SCHEDULE_TOPICS: readonly number[] = [4_001_001, 4_002_002, 4_003_003, 4_004_004];
/** The fungible tokens schedules transfer (with expected_decimals 2) and burn (mirror/entities.ts). */
export const SCHEDULE_FUNGIBLE_TOKENS: readonly number[] = [5_877_002, 5_120_033, 5_877_001];
/** The accounts schedules create, pay, sign with and transfer to (all of them in the NFT histories too). */
export const SCHEDULE_CREATORS: readonly number[] = [2_061_517, 3_404_044, 4_417_201, 4_800_012, 1_024_305, 5_222_918];
export const SCHEDULE_ACCOUNTS: readonly number[] = [...SCHEDULE_CREATORS, 4_001_771, 4_123_456, 3_999_001];

function transactionBody(
  rng: Prng,
  kind: BodyKind,
  payer: number,
  accounts: number[],
  memo: string,
  contracts: readonly number[],
): string {
  const other = (): number => rng.pick(accounts.filter((a) => a !== payer));
  // SchedulableTransactionBody { uint64 transactionFee = 1; string memo = 2; oneof data { contractCall = 3;
  //   cryptoTransfer = 9; consensusSubmitMessage = 21; tokenMint = 29; tokenBurn = 30; tokenAssociate = 32; ... } }
  const body = new ProtoWriter()
    .int(1, BigInt(rng.pick([100_000_000, 200_000_000, 500_000_000, 1_000_000_000])))
    .string(2, memo);
  switch (kind) {
    case 'hbar': {
      const amount = BigInt(rng.int(1, 250_000)) * 100_000_000n;
      const to = other();
      const list = new ProtoWriter().message(1, accountAmount(payer, -amount)).message(1, accountAmount(to, amount));
      body.message(9, new ProtoWriter().message(1, list));
      break;
    }
    case 'token': {
      const amount = BigInt(rng.int(1, 1_000_000)) * 100n;
      const ttl = new ProtoWriter()
        .message(1, entityIdMsg(rng.pick(SCHEDULE_FUNGIBLE_TOKENS)))
        .message(2, accountAmount(payer, -amount))
        .message(2, accountAmount(other(), amount))
        .message(4, new ProtoWriter().int(1, 2)); // UInt32Value { value = 1 }
      body.message(9, new ProtoWriter().message(2, ttl));
      break;
    }
    case 'nft': {
      const nft = new ProtoWriter()
        .message(1, entityIdMsg(payer))
        .message(2, entityIdMsg(other()))
        .int(3, rng.int(1, 40))
        .bool(4, rng.chance(0.2));
      body.message(9, new ProtoWriter().message(2, new ProtoWriter().message(1, entityIdMsg(4815162)).message(3, nft)));
      break;
    }
    case 'contractCall': {
      // contract_call.proto: ContractCallTransactionBody { ContractID contractID = 1; int64 gas = 2; int64 amount = 3; bytes functionParameters = 4; }
      const params = `${SELECTORS.transfer}${addrWord(rng.hex(20))}${uintWord(BigInt(rng.int(1, 9_000_000)) * 10n ** 8n)}`;
      // a contract of the sandbox's data (the drawn number picks one, so every other draw is unchanged)
      const drawn = rng.int(3_000_000, 6_500_000);
      const contract = contracts.length ? contracts[drawn % contracts.length] : drawn;
      body.message(
        3,
        new ProtoWriter()
          .message(1, entityIdMsg(contract))
          .int(2, rng.pick([100_000, 300_000, 1_000_000]))
          .int(3, 0)
          .bytes(4, hexToBytes(params)),
      );
      break;
    }
    case 'tokenMint': {
      // token_mint.proto: TokenMintTransactionBody { TokenID token = 1; uint64 amount = 2; repeated bytes metadata = 3; }
      const m = new ProtoWriter().message(1, entityIdMsg(4815162));
      const n = rng.int(1, 3);
      for (let i = 0; i < n; i++) m.bytes(3, new TextEncoder().encode(`ipfs://bafybei${rng.hex(20)}/${i}.json`));
      body.message(29, m);
      break;
    }
    case 'tokenBurn': {
      // token_burn.proto: TokenBurnTransactionBody { TokenID token = 1; uint64 amount = 2; repeated int64 serialNumbers = 3; }
      body.message(30, new ProtoWriter().message(1, entityIdMsg(5120033)).int(2, BigInt(rng.int(1, 50_000)) * 100n));
      break;
    }
    case 'tokenAssociate': {
      // token_associate.proto: TokenAssociateTransactionBody { AccountID account = 1; repeated TokenID tokens = 2; }
      body.message(
        32,
        new ProtoWriter()
          .message(1, entityIdMsg(payer))
          .message(2, entityIdMsg(4815162))
          .message(2, entityIdMsg(5120033)),
      );
      break;
    }
    default: {
      // consensus_submit_message.proto: ConsensusSubmitMessageTransactionBody { TopicID topicID = 1; bytes message = 2; }
      const msg = rng.pick([
        '{"event":"rotate-key","epoch":42}',
        'hello from the sandbox 👋',
        'audit-log: release v1.4.2',
      ]);
      // one of the sandbox's topics (mirror/entities.ts; the drawn number picks it)
      body.message(
        21,
        new ProtoWriter()
          .message(1, entityIdMsg(SCHEDULE_TOPICS[rng.int(4_000_000, 4_100_000) % SCHEDULE_TOPICS.length]))
          .bytes(2, new TextEncoder().encode(msg)),
      );
    }
  }
  return toBase64(body.finish());
}

/** `contracts`: entity nums of the sandbox's contracts, called by the contract-call schedules. */
export function generateSchedules(rng: Prng, nowMs: number, contracts: readonly number[] = []): ScheduleData {
  const creators = [...SCHEDULE_CREATORS];
  const accounts = [...SCHEDULE_ACCOUNTS];
  const futureBase = futureBaseSec(nowMs);
  const rows: ScheduleRow[] = [];
  const byNum = new Map<number, ScheduleRow>();
  const notable: Record<string, string> = {};
  let num = 5_102_000;
  let sec = ANCHOR_SEC - 44 * 86400;
  let sigCounter = 0;
  for (let i = 0; i < COUNT; i++) {
    num += rng.int(1, 4000);
    sec += rng.int(600, 15_000);
    const nanos = rng.int(0, 999_999_999);
    const consensus = tsString(sec, nanos);
    const creator = i < 6 ? creators[i] : rng.weighted(creators.map((c, k) => [c, 6 - k] as const));
    const payer = rng.chance(0.8) ? creator : rng.pick(accounts);
    // the first schedules cover every state, so each state exists whatever the PRNG draws
    const state =
      i < 4
        ? (['executed', 'deleted', 'expired', 'pending'] as const)[i]
        : rng.weighted([
            ['executed', 40],
            ['deleted', 14],
            ['expired', 20],
            ['pending', 26],
          ] as const);
    const waitForExpiry = rng.chance(0.3);
    let expiration: bigint | null = null;
    let executedTs: string | null = null;
    const lifetime = rng.int(1800, 60 * 86400);
    if (state === 'executed') {
      if (rng.chance(0.7)) expiration = tsNs(sec + lifetime, 0);
      const execSec = waitForExpiry && expiration !== null ? sec + lifetime : sec + rng.int(2, 3 * 86400);
      executedTs = tsString(Math.min(execSec, ANCHOR_SEC - 60), rng.int(0, 999_999_999));
    } else if (state === 'deleted') {
      expiration = tsNs(sec + lifetime, 0);
    } else if (state === 'expired') {
      const exp = Math.min(sec + lifetime, ANCHOR_SEC - 3600);
      expiration = tsNs(Math.max(exp, sec + 1800), 0);
    } else {
      expiration = tsNs(futureBase + rng.int(1, 55) * 86400 + rng.int(0, 86399), 0);
    }
    const adminKind =
      i === 3
        ? null
        : rng.weighted([
            [null, 25],
            ['ED25519', 25],
            ['ECDSA_SECP256K1', 25],
            ['ProtobufEncoded', 25],
          ] as const);
    const nSigs =
      i === 3
        ? 0
        : rng.weighted([
            [0, 8],
            [1, 40],
            [2, 30],
            [3, 14],
            [4, 8],
          ] as const);
    const signatures: Record<string, unknown>[] = [];
    let sigSec = sec;
    for (let k = 0; k < nSigs; k++) {
      const type = SIG_TYPES[sigCounter++ % SIG_TYPES.length];
      const { prefix, sig } = sigBytes(rng, type);
      if (k > 0) sigSec += rng.int(5, 7200);
      signatures.push({
        consensus_timestamp: k === 0 ? consensus : tsString(sigSec, rng.int(0, 999_999_999)),
        public_key_prefix: pgBase64(prefix),
        signature: pgBase64(sig),
        type,
      });
    }
    const memo =
      i < MEMOS.length ? MEMOS[i] : rng.chance(0.6) ? rng.pick(MEMOS) : `schedule ${i} for ${entityId(payer)}`;
    const kind = BODY_KINDS[i % BODY_KINDS.length];
    const obj: Record<string, unknown> = {
      admin_key: adminKind ? key(rng, adminKind) : null,
      deleted: state === 'deleted',
      consensus_timestamp: consensus,
      creator_account_id: entityId(creator),
      executed_timestamp: executedTs,
      expiration_time:
        expiration === null ? null : `${expiration / NS}.${(expiration % NS).toString().padStart(9, '0')}`,
      memo,
      payer_account_id: entityId(payer),
      schedule_id: entityId(num),
      signatures,
      transaction_body: transactionBody(rng, kind, payer, accounts, rng.chance(0.5) ? '' : `inner: ${kind}`, contracts),
      wait_for_expiry: waitForExpiry,
    };
    const row: ScheduleRow = {
      num,
      creatorNum: creator,
      executed: executedTs !== null,
      deleted: state === 'deleted',
      expirationNs: expiration,
      obj,
    };
    rows.push(row);
    byNum.set(num, row);
    if (!notable[state]) notable[state] = entityId(num);
    if (memo.startsWith('<img') && !notable.htmlMemo) notable.htmlMemo = entityId(num);
    if (memo.startsWith('🚀') && !notable.emojiMemo) notable.emojiMemo = entityId(num);
    if (nSigs === 0 && !notable.noSignatures) notable.noSignatures = entityId(num);
  }
  return { rows, byNum, creators, notable };
}

/**
 * Base64 as PostgreSQL's `encode(bytes, 'base64')` writes it (RFC 2045): a newline after every 76 characters.
 * The real rest/schedules.js takes `public_key_prefix` and `signature` from that SQL function unchanged, so a
 * 64-byte signature (88 characters) comes as 76 characters, `\n`, 12 characters. (`transaction_body` is encoded
 * in JavaScript: one line.)
 */
export function pgBase64(b: Uint8Array): string {
  return toBase64(b).replace(/.{76}(?=.)/g, '$&\n');
}
