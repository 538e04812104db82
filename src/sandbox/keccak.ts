/**
 * Keccak-256 (the original Keccak padding Solidity uses, not NIST SHA3-256, which node:crypto has) on 64-bit
 * lanes kept as 32-bit halves. The sandbox computes function selectors, event topics, mapping storage slots and log blooms with it, from
 * signatures and ABIs rather than typed-in constants.
 */

const RC = [
  0x0000000000000001n, 0x0000000000008082n, 0x800000000000808an, 0x8000000080008000n, 0x000000000000808bn, 0x0000000080000001n,
  0x8000000080008081n, 0x8000000000008009n, 0x000000000000008an, 0x0000000000000088n, 0x0000000080008009n, 0x000000008000000an,
  0x000000008000808bn, 0x800000000000008bn, 0x8000000000008089n, 0x8000000000008003n, 0x8000000000008002n, 0x8000000000000080n,
  0x000000000000800an, 0x800000008000000an, 0x8000000080008081n, 0x8000000000008080n, 0x0000000080000001n, 0x8000000080008008n,
];
const RC_HI = Uint32Array.from(RC, (c) => Number(c >> 32n));
const RC_LO = Uint32Array.from(RC, (c) => Number(c & 0xffffffffn));
/** Rotation offsets r[x + 5y]. */
const ROT = [0, 1, 62, 28, 27, 36, 44, 6, 55, 20, 3, 10, 43, 25, 39, 41, 45, 15, 21, 8, 18, 2, 61, 56, 14];
/** For each lane i = x + 5y, where rho and pi move it: B[y, 2x + 3y]. */
const PI = ROT.map((_, i) => {
  const x = i % 5;
  const y = Math.floor(i / 5);
  return y + 5 * ((2 * x + 3 * y) % 5);
});
const RATE = 136; // bytes, for a 256-bit output

/** Keccak-f[1600] on 25 lanes held as 32-bit halves (lo, hi). */
function permute(lo: Uint32Array, hi: Uint32Array): void {
  const cLo = new Uint32Array(5);
  const cHi = new Uint32Array(5);
  const bLo = new Uint32Array(25);
  const bHi = new Uint32Array(25);
  for (let round = 0; round < 24; round++) {
    for (let x = 0; x < 5; x++) {
      cLo[x] = lo[x] ^ lo[x + 5] ^ lo[x + 10] ^ lo[x + 15] ^ lo[x + 20];
      cHi[x] = hi[x] ^ hi[x + 5] ^ hi[x + 10] ^ hi[x + 15] ^ hi[x + 20];
    }
    for (let x = 0; x < 5; x++) {
      const l1 = cLo[(x + 1) % 5];
      const h1 = cHi[(x + 1) % 5];
      // d = c[x-1] ^ rotl(c[x+1], 1)
      const dLo = cLo[(x + 4) % 5] ^ ((l1 << 1) | (h1 >>> 31));
      const dHi = cHi[(x + 4) % 5] ^ ((h1 << 1) | (l1 >>> 31));
      for (let y = 0; y < 25; y += 5) {
        lo[x + y] ^= dLo;
        hi[x + y] ^= dHi;
      }
    }
    for (let i = 0; i < 25; i++) {
      const r = ROT[i];
      const l = lo[i];
      const h = hi[i];
      let rl: number;
      let rh: number;
      if (r === 0) {
        rl = l;
        rh = h;
      } else if (r < 32) {
        rl = (l << r) | (h >>> (32 - r));
        rh = (h << r) | (l >>> (32 - r));
      } else if (r === 32) {
        rl = h;
        rh = l;
      } else {
        rl = (h << (r - 32)) | (l >>> (64 - r));
        rh = (l << (r - 32)) | (h >>> (64 - r));
      }
      bLo[PI[i]] = rl;
      bHi[PI[i]] = rh;
    }
    for (let y = 0; y < 25; y += 5) {
      for (let x = 0; x < 5; x++) {
        lo[x + y] = bLo[x + y] ^ (~bLo[((x + 1) % 5) + y] & bLo[((x + 2) % 5) + y]);
        hi[x + y] = bHi[x + y] ^ (~bHi[((x + 1) % 5) + y] & bHi[((x + 2) % 5) + y]);
      }
    }
    lo[0] ^= RC_LO[round];
    hi[0] ^= RC_HI[round];
  }
}

/** Keccak-256 of bytes, as 64 lowercase hex characters (no 0x). */
export function keccak256(data: Uint8Array): string {
  const padded = new Uint8Array(Math.floor(data.length / RATE) * RATE + RATE);
  padded.set(data);
  padded[data.length] ^= 0x01;
  padded[padded.length - 1] ^= 0x80;
  const lo = new Uint32Array(25);
  const hi = new Uint32Array(25);
  for (let off = 0; off < padded.length; off += RATE) {
    for (let i = 0; i < RATE / 8; i++) {
      const p = off + i * 8;
      lo[i] ^= padded[p] | (padded[p + 1] << 8) | (padded[p + 2] << 16) | (padded[p + 3] << 24);
      hi[i] ^= padded[p + 4] | (padded[p + 5] << 8) | (padded[p + 6] << 16) | (padded[p + 7] << 24);
    }
    permute(lo, hi);
  }
  const out = new Uint8Array(32);
  for (let i = 0; i < 4; i++) {
    for (let k = 0; k < 4; k++) {
      out[i * 8 + k] = (lo[i] >>> (8 * k)) & 0xff;
      out[i * 8 + 4 + k] = (hi[i] >>> (8 * k)) & 0xff;
    }
  }
  return Buffer.from(out).toString('hex');
}

/** Keccak-256 of a UTF-8 string. */
export const keccakText = (s: string): string => keccak256(new TextEncoder().encode(s));

/** Keccak-256 of hex bytes (0x optional). */
export const keccakHex = (hex: string): string => keccak256(Uint8Array.from(Buffer.from(hex.replace(/^0x/, ''), 'hex')));

const selectors = new Map<string, string>();
/** The 4-byte selector of a canonical signature such as `transfer(address,uint256)` (8 hex, no 0x), cached. */
export function selectorOf(signature: string): string {
  let s = selectors.get(signature);
  if (s === undefined) selectors.set(signature, (s = keccakText(signature).slice(0, 8)));
  return s;
}

const topics = new Map<string, string>();
/** The topic0 of an event signature such as `Transfer(address,address,uint256)` (0x + 64 hex), cached. */
export function topicOf(signature: string): string {
  let t = topics.get(signature);
  if (t === undefined) topics.set(signature, (t = '0x' + keccakText(signature)));
  return t;
}
