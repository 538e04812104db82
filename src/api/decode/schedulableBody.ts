/**
 * A schedule's `transaction_body` (base64 protobuf `proto.SchedulableTransactionBody` of Hedera's HAPI) decoded
 * into its kind, a one-line summary ("0.0.a → 0.0.b 10 ℏ", "Contract call 0.0.x transfer(…)", "Token mint 0.0.t
 * 5", "Consensus message 0.0.topic") and its fields. The definitions are the .proto files of @hashgraph/proto,
 * trimmed at build time to the types the body reaches (schedulableBody.descriptor.json, descriptor.build.cjs)
 * and read with `protobufjs/light`. int64 values keep every digit (long.js). A body that is not valid base64 or
 * not a SchedulableTransactionBody, or whose transaction kind is unknown, gives `undefined`: the view keeps the
 * base64. Part of the decoders bundle.
 */
import * as l10n from '@vscode/l10n';
import Long from 'long';
import * as protobuf from 'protobufjs/light';
import descriptorFile from './schedulableBody.descriptor.json';
import type { DecodedCall } from './abi';
import { base64Bytes, hexOf, utf8Bytes, utf8Of } from '../platform/node';

export interface BodyField {
  label: string;
  value: string;
  children?: BodyField[];
}

export interface DecodedBody {
  /** The protobuf field name of the transaction: `cryptoTransfer`, `contractCall`, `tokenMint`, ... */
  kind: string;
  /** For people: "Crypto transfer", "Contract call", "Token mint", ... */
  title: string;
  /** One line: "0.0.a → 0.0.b 10 ℏ", "Contract call 0.0.x transfer(…)", "Token mint 0.0.t 5". */
  summary: string;
  fields: BodyField[];
  /** The decoded function of a contract call, when an ABI knows it. */
  call?: DecodedCall;
  /** Raw call data of a contract call (hex), decoded or not. */
  callData?: string;
  /** The called contract of a contract call. */
  contractId?: string;
}

export interface BodyDecodeOptions {
  /** Decodes the call data of a contract call (the ABI index); `undefined` when unknown. */
  decodeCall?: (hexData: string, contractId: string) => DecodedCall | undefined;
}

type Obj = Record<string, unknown>;

let bodyType: protobuf.Type | undefined;

function type(): protobuf.Type {
  if (!bodyType) {
    // every int64 as a Long (every digit), not a lossy JS number
    protobuf.util.Long = Long as never;
    protobuf.configure();
    const file = descriptorFile as unknown as { root: string; descriptor: protobuf.INamespace };
    bodyType = protobuf.Root.fromJSON(file.descriptor).resolveAll().lookupType(file.root);
  }
  return bodyType;
}

function base64ToBytes(b64: string): Uint8Array | undefined {
  const t = b64.trim();
  if (!t || !/^[A-Za-z0-9+/_-]*={0,2}$/.test(t)) return undefined;
  const bytes = base64Bytes(t.replace(/-/g, '+').replace(/_/g, '/'));
  return bytes.length ? new Uint8Array(bytes) : undefined;
}

const bytesHex = (b64: unknown): string => (typeof b64 === 'string' ? `0x${hexOf(base64Bytes(b64))}` : '');

const big = (v: unknown): bigint => {
  try {
    return BigInt(typeof v === 'string' || typeof v === 'number' || typeof v === 'bigint' ? v : 0);
  } catch {
    return 0n;
  }
};

/** An amount in the smallest unit shown with `decimals`: 123450 with 2 = "1234.5". Every digit kept. */
export function withDecimals(v: bigint, decimals: number): string {
  const neg = v < 0n;
  const digits = (neg ? -v : v).toString();
  if (decimals <= 0) return `${neg ? '-' : ''}${digits}`;
  const padded = digits.padStart(decimals + 1, '0');
  const whole = padded.slice(0, -decimals);
  const frac = padded.slice(-decimals).replace(/0+$/, '');
  return `${neg ? '-' : ''}${whole}${frac ? `.${frac}` : ''}`;
}

export const hbar = (tinybars: bigint): string => `${withDecimals(tinybars, 8)} ℏ`;

const ENTITY_NUM = ['accountNum', 'tokenNum', 'contractNum', 'topicNum', 'fileNum', 'scheduleNum'];

/** `shard.realm.num` of an AccountID / TokenID / ContractID / TopicID / FileID / ScheduleID (or its alias). */
export function entityId(v: unknown): string {
  if (!v || typeof v !== 'object') return '';
  const o = v as Obj;
  const num = ENTITY_NUM.find((k) => o[k] !== undefined);
  const prefix = `${String(o.shardNum ?? 0)}.${String(o.realmNum ?? 0)}.`;
  if (num) return `${prefix}${String(o[num])}`;
  if (typeof o.alias === 'string') return `${prefix}${bytesHex(o.alias)}`;
  if (typeof o.evm_address === 'string') return `${prefix}${bytesHex(o.evm_address)}`;
  return `${prefix}0`;
}

function words(name: string): string {
  const w = name
    .replace(/_/g, ' ')
    .replace(/([a-z0-9])([A-Z])/g, '$1 $2')
    .replace(/\s+/g, ' ')
    .trim()
    .toLowerCase();
  return w.charAt(0).toUpperCase() + w.slice(1);
}

/**
 * A transaction kind for people. The calls stay literal for the string exporter; a kind that a newer HAPI adds
 * shows its field name in words until it has a title here.
 */
function titleOf(kind: string): string {
  switch (kind) {
    case 'contractCall':
      return l10n.t('Contract call');
    case 'contractCreateInstance':
      return l10n.t('Contract create');
    case 'contractUpdateInstance':
      return l10n.t('Contract update');
    case 'contractDeleteInstance':
      return l10n.t('Contract delete');
    case 'cryptoCreateAccount':
      return l10n.t('Account create');
    case 'cryptoDelete':
      return l10n.t('Account delete');
    case 'cryptoTransfer':
      return l10n.t('Crypto transfer');
    case 'cryptoUpdateAccount':
      return l10n.t('Account update');
    case 'fileAppend':
      return l10n.t('File append');
    case 'fileCreate':
      return l10n.t('File create');
    case 'fileDelete':
      return l10n.t('File delete');
    case 'fileUpdate':
      return l10n.t('File update');
    case 'systemDelete':
      return l10n.t('System delete');
    case 'systemUndelete':
      return l10n.t('System undelete');
    case 'freeze':
      return l10n.t('Freeze');
    case 'consensusCreateTopic':
      return l10n.t('Topic create');
    case 'consensusUpdateTopic':
      return l10n.t('Topic update');
    case 'consensusDeleteTopic':
      return l10n.t('Topic delete');
    case 'consensusSubmitMessage':
      return l10n.t('Consensus message');
    case 'tokenCreation':
      return l10n.t('Token create');
    case 'tokenFreeze':
      return l10n.t('Token freeze');
    case 'tokenUnfreeze':
      return l10n.t('Token unfreeze');
    case 'tokenGrantKyc':
      return l10n.t('Token grant KYC');
    case 'tokenRevokeKyc':
      return l10n.t('Token revoke KYC');
    case 'tokenDeletion':
      return l10n.t('Token delete');
    case 'tokenUpdate':
      return l10n.t('Token update');
    case 'tokenMint':
      return l10n.t('Token mint');
    case 'tokenBurn':
      return l10n.t('Token burn');
    case 'tokenWipe':
      return l10n.t('Token wipe');
    case 'tokenAssociate':
      return l10n.t('Token associate');
    case 'tokenDissociate':
      return l10n.t('Token dissociate');
    case 'scheduleDelete':
      return l10n.t('Schedule delete');
    case 'token_pause':
      return l10n.t('Token pause');
    case 'token_unpause':
      return l10n.t('Token unpause');
    case 'cryptoApproveAllowance':
      return l10n.t('Approve allowance');
    case 'cryptoDeleteAllowance':
      return l10n.t('Delete allowance');
    case 'token_fee_schedule_update':
      return l10n.t('Token fee schedule update');
    case 'util_prng':
      return l10n.t('PRNG');
    case 'token_update_nfts':
      return l10n.t('Token update NFTs');
    case 'nodeCreate':
      return l10n.t('Node create');
    case 'nodeUpdate':
      return l10n.t('Node update');
    case 'nodeDelete':
      return l10n.t('Node delete');
    case 'tokenReject':
      return l10n.t('Token reject');
    case 'tokenCancelAirdrop':
      return l10n.t('Token cancel airdrop');
    case 'tokenClaimAirdrop':
      return l10n.t('Token claim airdrop');
    case 'tokenAirdrop':
      return l10n.t('Token airdrop');
    default:
      return words(kind);
  }
}

const sameBytes = (a: Uint8Array, b: Uint8Array): boolean => a.length === b.length && a.every((x, i) => x === b[i]);

/** Text that is printable UTF-8, or undefined. */
function printable(bytes: Uint8Array): string | undefined {
  const s = utf8Of(bytes);
  if (
    sameBytes(utf8Bytes(s), bytes) &&
    !/[\u0000-\u0008\u000b\u000c\u000e-\u001f\u007f\u202a-\u202e\u2066-\u2069\ufffd]/.test(s)
  )
    return s;
  return undefined;
}

// ------------------------------------------------------------------ generic fields (every kind)

const MAX_FIELDS = 200;

function scalarText(f: protobuf.Field, v: unknown): string {
  if (f.type === 'bytes') {
    const b = base64Bytes(String(v));
    const t = b.length && b.length <= 2048 ? printable(b) : undefined;
    return t !== undefined ? JSON.stringify(t) : `0x${hexOf(b)}`;
  }
  if (f.type === 'string') return JSON.stringify(String(v));
  return String(v);
}

/** A message value as one line when it is a well-known shape (ids, timestamps, wrappers, keys), else undefined. */
function knownShape(t: protobuf.Type, v: Obj): string | undefined {
  const n = t.name;
  if (/^(AccountID|TokenID|ContractID|TopicID|FileID|ScheduleID)$/.test(n)) return entityId(v);
  if (n === 'Timestamp' || n === 'TimestampSeconds') {
    const s = big(v.seconds);
    const ns = Number(v.nanos ?? 0);
    const d = new Date(Number(s) * 1000);
    return `${s}.${String(ns).padStart(9, '0')}${Number.isNaN(d.getTime()) ? '' : ` (${d.toISOString().replace('.000Z', 'Z')})`}`;
  }
  if (n === 'Duration') return l10n.t('{0} s', String(v.seconds ?? 0));
  if (/Value$/.test(n) && t.fieldsArray.length === 1 && t.fieldsArray[0].name === 'value')
    return v.value === undefined ? '0' : scalarText(t.fieldsArray[0], v.value);
  if (n === 'Key') {
    const k = Object.keys(v)[0];
    if (!k) return l10n.t('empty key');
    const val = v[k];
    if (typeof val === 'string') return `${k} ${bytesHex(val)}`;
    if (k === 'contractID' || k === 'delegatable_contract_id') return `${k} ${entityId(val)}`;
    if (k === 'keyList') return l10n.t('keyList ({0} keys)', ((val as Obj).keys as unknown[] | undefined)?.length ?? 0);
    if (k === 'thresholdKey')
      return l10n.t(
        'thresholdKey {0} of {1}',
        String((val as Obj).threshold ?? 0),
        (((val as Obj).keys as Obj | undefined)?.keys as unknown[] | undefined)?.length ?? 0,
      );
    return k;
  }
  return undefined;
}

function fieldsOf(t: protobuf.Type, v: Obj, depth = 0): BodyField[] {
  const out: BodyField[] = [];
  for (const f of t.fieldsArray) {
    const val = v[f.name];
    if (val === undefined || val === null) continue;
    const one = (x: unknown, label: string): BodyField => {
      if (f.resolvedType instanceof protobuf.Type) {
        const sub = x as Obj;
        const shape = knownShape(f.resolvedType, sub);
        if (shape !== undefined) {
          const children =
            f.resolvedType.name === 'Key' && depth < 6 ? fieldsOf(f.resolvedType, sub, depth + 1) : undefined;
          return children?.length ? { label, value: shape, children } : { label, value: shape };
        }
        const children = depth < 8 ? fieldsOf(f.resolvedType, sub, depth + 1) : [];
        return {
          label,
          value: children.length
            ? children
                .slice(0, 3)
                .map((c) => `${c.label}: ${c.value}`)
                .join(' · ')
            : '{}',
          children,
        };
      }
      if (f.resolvedType instanceof protobuf.Enum) return { label, value: String(x) };
      return { label, value: scalarText(f, x) };
    };
    if (Array.isArray(val)) {
      if (!val.length) continue;
      const items = val.slice(0, MAX_FIELDS).map((x, i) => one(x, `#${i + 1}`));
      out.push({
        label: f.name,
        value: val.length === 1 ? l10n.t('1 item') : l10n.t('{0} items', val.length),
        children: items,
      });
    } else out.push(one(val, f.name));
  }
  return out;
}

// ------------------------------------------------------------------ curated kinds

interface Ctx {
  opts: BodyDecodeOptions;
  body: Obj;
}

function transferSummary(from: string[], to: string[], what: string): string {
  return `${from.join(', ') || '?'} → ${to.join(', ') || '?'} ${what}`;
}

function cryptoTransfer(v: Obj): { summary: string; fields: BodyField[] } {
  const parts: string[] = [];
  const fields: BodyField[] = [];
  const amounts = ((v.transfers as Obj | undefined)?.accountAmounts as Obj[] | undefined) ?? [];
  if (amounts.length) {
    const from = amounts.filter((a) => big(a.amount) < 0n);
    const to = amounts.filter((a) => big(a.amount) > 0n);
    const total = to.reduce((s, a) => s + big(a.amount), 0n);
    parts.push(
      transferSummary(
        from.map((a) => entityId(a.accountID)),
        to.map((a) => entityId(a.accountID)),
        hbar(total),
      ),
    );
    fields.push({
      label: l10n.t('Hbar transfers'),
      value: hbar(total),
      children: amounts.map((a) => ({
        label: entityId(a.accountID),
        value: `${big(a.amount) > 0n ? '+' : ''}${hbar(big(a.amount))}${a.is_approval ? ` (${l10n.t('approved allowance')})` : ''}`,
      })),
    });
  }
  for (const tl of (v.tokenTransfers as Obj[] | undefined) ?? []) {
    const token = entityId(tl.token);
    const decimals = (tl.expected_decimals as Obj | undefined)?.value;
    const dec = decimals === undefined ? 0 : Number(decimals);
    const ts = (tl.transfers as Obj[] | undefined) ?? [];
    if (ts.length) {
      const from = ts.filter((a) => big(a.amount) < 0n);
      const to = ts.filter((a) => big(a.amount) > 0n);
      const total = to.reduce((s, a) => s + big(a.amount), 0n);
      parts.push(
        transferSummary(
          from.map((a) => entityId(a.accountID)),
          to.map((a) => entityId(a.accountID)),
          l10n.t('{0} of {1}', withDecimals(total, dec), token),
        ),
      );
      fields.push({
        label: l10n.t('Token {0}', token),
        value: `${withDecimals(total, dec)}${decimals === undefined ? ` (${l10n.t('smallest unit')})` : ` (${l10n.t('{0} decimals', dec)})`}`,
        children: ts.map((a) => ({
          label: entityId(a.accountID),
          value: `${big(a.amount) > 0n ? '+' : ''}${withDecimals(big(a.amount), dec)}${a.is_approval ? ` (${l10n.t('approved allowance')})` : ''}`,
        })),
      });
    }
    const nfts = (tl.nftTransfers as Obj[] | undefined) ?? [];
    for (const n of nfts) {
      const what = l10n.t('NFT {0} #{1}', token, String(n.serialNumber ?? 0));
      parts.push(transferSummary([entityId(n.senderAccountID)], [entityId(n.receiverAccountID)], what));
    }
    if (nfts.length) {
      fields.push({
        label: l10n.t('NFTs {0}', token),
        value: nfts.length === 1 ? l10n.t('1 NFT') : l10n.t('{0} NFTs', nfts.length),
        children: nfts.map((n) => ({
          label: `#${String(n.serialNumber ?? 0)}`,
          value: `${entityId(n.senderAccountID)} → ${entityId(n.receiverAccountID)}${n.is_approval ? ` (${l10n.t('approved allowance')})` : ''}`,
        })),
      });
    }
  }
  return { summary: parts.join('; ') || l10n.t('{0} (no transfers)', titleOf('cryptoTransfer')), fields };
}

function contractCall(v: Obj, ctx: Ctx): Partial<DecodedBody> & { summary: string; fields: BodyField[] } {
  const id = entityId(v.contractID);
  const data = typeof v.functionParameters === 'string' ? bytesHex(v.functionParameters) : '0x';
  let call: DecodedCall | undefined;
  try {
    call = data.length >= 10 ? ctx.opts.decodeCall?.(data, id) : undefined;
  } catch {
    call = undefined;
  }
  const amount = big(v.amount);
  const fn = call ? `${call.name}(…)` : data.length >= 10 ? data.slice(0, 10) : '';
  const fields: BodyField[] = [
    { label: l10n.t('Contract'), value: id },
    { label: l10n.t('Gas'), value: String(v.gas ?? 0) },
    { label: l10n.t('Amount'), value: hbar(amount) },
  ];
  if (call) {
    fields.push({ label: l10n.t('Function'), value: call.text, children: call.args.map(valueField) });
    fields.push({
      label: l10n.t('Decoded with'),
      value: call.origin.kind === 'sourcify' ? 'Sourcify' : call.origin.label,
    });
  }
  fields.push({ label: l10n.t('Function parameters'), value: data });
  return {
    summary: `${titleOf('contractCall')} ${id}${fn ? ` ${fn}` : ''}${amount > 0n ? ` · ${hbar(amount)}` : ''}`,
    fields,
    call,
    callData: data,
    contractId: id,
  };
}

function valueField(v: {
  name: string;
  type: string;
  value: string;
  children?: Array<{ name: string; type: string; value: string; children?: unknown[] }>;
}): BodyField {
  return { label: `${v.name} (${v.type})`, value: v.value, children: v.children?.map((c) => valueField(c as never)) };
}

function tokenMintBurn(kind: 'tokenMint' | 'tokenBurn', v: Obj): { summary: string; fields: BodyField[] } {
  const token = entityId(v.token);
  const amount = big(v.amount);
  const fields: BodyField[] = [{ label: l10n.t('Token'), value: token }];
  let what = '';
  if (amount > 0n) {
    what = amount.toString();
    fields.push({ label: l10n.t('Amount'), value: `${amount.toString()} (${l10n.t('smallest unit')})` });
  }
  if (kind === 'tokenMint') {
    const meta = (v.metadata as string[] | undefined) ?? [];
    if (meta.length) {
      what = what || (meta.length === 1 ? l10n.t('1 NFT') : l10n.t('{0} NFTs', meta.length));
      fields.push({
        label: l10n.t('Metadata'),
        value: meta.length === 1 ? l10n.t('1 NFT') : l10n.t('{0} NFTs', meta.length),
        children: meta.map((m, i) => {
          const b = base64Bytes(m);
          const t = printable(b);
          return { label: `#${i + 1}`, value: t !== undefined ? t : `0x${hexOf(b)}` };
        }),
      });
    }
  } else {
    const serials = ((v.serialNumbers as unknown[] | undefined) ?? []).map(String);
    if (serials.length) {
      const list = `${serials.slice(0, 5).join(', ')}${serials.length > 5 ? ', …' : ''}`;
      what = what || (serials.length === 1 ? l10n.t('serial {0}', list) : l10n.t('serials {0}', list));
      fields.push({ label: l10n.t('Serial numbers'), value: serials.join(', ') });
    }
  }
  return { summary: `${titleOf(kind)} ${token}${what ? ` ${what}` : ''}`, fields };
}

function tokenAssociation(
  kind: 'tokenAssociate' | 'tokenDissociate',
  v: Obj,
): { summary: string; fields: BodyField[] } {
  const account = entityId(v.account);
  const tokens = ((v.tokens as unknown[] | undefined) ?? []).map(entityId);
  return {
    summary: `${titleOf(kind)} ${account}: ${tokens.join(', ') || l10n.t('no tokens')}`,
    fields: [
      { label: l10n.t('Account'), value: account },
      {
        label: l10n.t('Tokens'),
        value: tokens.join(', '),
        children: tokens.map((t, i) => ({ label: `#${i + 1}`, value: t })),
      },
    ],
  };
}

function submitMessage(v: Obj): { summary: string; fields: BodyField[] } {
  const topic = entityId(v.topicID);
  const b = base64Bytes(typeof v.message === 'string' ? v.message : '');
  const t = printable(b);
  const fields: BodyField[] = [
    { label: l10n.t('Topic'), value: topic },
    {
      label: l10n.t('Message'),
      value: t !== undefined ? t : `0x${hexOf(b)}`,
      children: [
        { label: l10n.t('Size'), value: l10n.t('{0} bytes', b.length) },
        { label: l10n.t('Hex'), value: `0x${hexOf(b)}` },
      ],
    },
  ];
  if (v.chunkInfo)
    fields.push(...fieldsOf(type().lookupType('ConsensusSubmitMessageTransactionBody'), { chunkInfo: v.chunkInfo }));
  return { summary: `${titleOf('consensusSubmitMessage')} ${topic}`, fields };
}

// ------------------------------------------------------------------ entry point

/**
 * Decodes a schedule's `transaction_body`. `undefined` when it is not base64 of a SchedulableTransactionBody
 * with a known transaction kind.
 */
export function decodeSchedulableBody(
  b64: string | null | undefined,
  opts: BodyDecodeOptions = {},
): DecodedBody | undefined {
  const bytes = base64ToBytes(b64 ?? '');
  if (!bytes) return undefined;
  let obj: Obj;
  const T = type();
  try {
    const msg = T.decode(bytes);
    obj = T.toObject(msg, { longs: String, enums: String, bytes: String, defaults: false, oneofs: true }) as Obj;
  } catch {
    return undefined;
  }
  const kind = typeof obj.data === 'string' ? obj.data : undefined;
  if (!kind) return undefined;
  const v = (obj[kind] ?? {}) as Obj;
  const ctx: Ctx = { opts, body: obj };
  const title = titleOf(kind);
  let r: Partial<DecodedBody> & { summary: string; fields: BodyField[] };
  try {
    switch (kind) {
      case 'cryptoTransfer':
        r = cryptoTransfer(v);
        break;
      case 'contractCall':
        r = contractCall(v, ctx);
        break;
      case 'tokenMint':
      case 'tokenBurn':
        r = tokenMintBurn(kind, v);
        break;
      case 'tokenAssociate':
      case 'tokenDissociate':
        r = tokenAssociation(kind, v);
        break;
      case 'consensusSubmitMessage':
        r = submitMessage(v);
        break;
      default: {
        const f = T.fields[kind];
        const sub = f?.resolvedType instanceof protobuf.Type ? fieldsOf(f.resolvedType, v) : [];
        const firstId = sub.find((x) => /^\d+\.\d+\.\S+$/.test(x.value));
        r = { summary: `${title}${firstId ? ` ${firstId.value}` : ''}`, fields: sub };
      }
    }
  } catch {
    const f = T.fields[kind];
    r = { summary: title, fields: f?.resolvedType instanceof protobuf.Type ? fieldsOf(f.resolvedType, v) : [] };
  }
  const common: BodyField[] = [{ label: l10n.t('Transaction'), value: title }];
  common.push({ label: l10n.t('Max transaction fee'), value: hbar(big(obj.transactionFee)) });
  if (typeof obj.memo === 'string' && obj.memo) common.push({ label: l10n.t('Memo'), value: obj.memo });
  if (Array.isArray(obj.max_custom_fees) && obj.max_custom_fees.length) {
    common.push(...fieldsOf(T, { max_custom_fees: obj.max_custom_fees }));
  }
  return { ...r, kind, title, summary: r.summary, fields: [...common, ...r.fields] };
}
