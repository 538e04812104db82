/**
 * A tiny protobuf writer (varint and length-delimited fields), enough to build real
 * `SchedulableTransactionBody` and `Key` messages of Hedera's HAPI.
 * Field numbers are from hashgraph/hedera-protobufs (services/*.proto), noted where used.
 */
export class ProtoWriter {
  private readonly parts: number[] = [];

  private pushVarint(value: bigint): void {
    // int64 negatives are written as their 64-bit two's complement (10 bytes)
    let v = value < 0n ? (1n << 64n) + value : value;
    while (v >= 0x80n) {
      this.parts.push(Number(v & 0x7fn) | 0x80);
      v >>= 7n;
    }
    this.parts.push(Number(v));
  }

  private tag(field: number, wireType: number): void {
    this.pushVarint(BigInt((field << 3) | wireType));
  }

  /** int32/int64/uint64/enum; zero values are skipped as proto3 does. */
  int(field: number, value: number | bigint): this {
    const v = BigInt(value);
    if (v === 0n) return this;
    this.tag(field, 0);
    this.pushVarint(v);
    return this;
  }

  /** sint64 (zigzag). */
  sint(field: number, value: number | bigint): this {
    const v = BigInt(value);
    if (v === 0n) return this;
    const zz = v >= 0n ? v << 1n : (-v << 1n) - 1n;
    this.tag(field, 0);
    this.pushVarint(zz);
    return this;
  }

  bool(field: number, value: boolean): this {
    if (!value) return this;
    this.tag(field, 0);
    this.parts.push(1);
    return this;
  }

  bytes(field: number, value: Uint8Array): this {
    this.tag(field, 2);
    this.pushVarint(BigInt(value.length));
    for (const b of value) this.parts.push(b);
    return this;
  }

  string(field: number, value: string): this {
    if (value === '') return this;
    return this.bytes(field, new TextEncoder().encode(value));
  }

  /** An embedded message (written even when empty, as a set sub-message is). */
  message(field: number, value: Uint8Array | ProtoWriter): this {
    return this.bytes(field, value instanceof ProtoWriter ? value.finish() : value);
  }

  finish(): Uint8Array {
    return Uint8Array.from(this.parts);
  }
}

export function hexToBytes(hex: string): Uint8Array {
  const h = hex.startsWith('0x') ? hex.slice(2) : hex;
  const out = new Uint8Array(h.length >> 1);
  for (let i = 0; i < out.length; i++) out[i] = parseInt(h.substr(i * 2, 2), 16);
  return out;
}

export function bytesToHex(b: Uint8Array): string {
  return Buffer.from(b).toString('hex');
}

export function toBase64(b: Uint8Array): string {
  return Buffer.from(b).toString('base64');
}

/* Hedera ids (basic_types.proto): AccountID/TokenID/ContractID/TopicID { shardNum = 1; realmNum = 2; num = 3 } */
export function entityIdMsg(num: number, shard = 0, realm = 0): ProtoWriter {
  return new ProtoWriter().int(1, shard).int(2, realm).int(3, num);
}
