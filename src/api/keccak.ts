/**
 * Keccak-256 (the original Keccak padding used by Solidity and Sourcify, not NIST SHA3-256), in plain
 * TypeScript on 32-bit halves so that no dependency is needed. Used to compare workspace sources with the
 * `keccak256` hashes of a contract's metadata.
 */

const RC_HI = new Uint32Array([
  0x00000000, 0x00000000, 0x80000000, 0x80000000, 0x00000000, 0x00000000, 0x80000000, 0x80000000,
  0x00000000, 0x00000000, 0x00000000, 0x00000000, 0x00000000, 0x80000000, 0x80000000, 0x80000000,
  0x80000000, 0x80000000, 0x00000000, 0x80000000, 0x80000000, 0x80000000, 0x00000000, 0x80000000,
]);
const RC_LO = new Uint32Array([
  0x00000001, 0x00008082, 0x0000808a, 0x80008000, 0x0000808b, 0x80000001, 0x80008081, 0x00008009,
  0x0000008a, 0x00000088, 0x80008009, 0x8000000a, 0x8000808b, 0x0000008b, 0x00008089, 0x00008003,
  0x00008002, 0x00000080, 0x0000800a, 0x8000000a, 0x80008081, 0x00008080, 0x80000001, 0x80008008,
]);
/** Rotation offsets r[x + 5y]. */
const ROT = [0, 1, 62, 28, 27, 36, 44, 6, 55, 20, 3, 10, 43, 25, 39, 41, 45, 15, 21, 8, 18, 2, 61, 56, 14];

function keccakF(lo: Uint32Array, hi: Uint32Array): void {
  const cLo = new Uint32Array(5);
  const cHi = new Uint32Array(5);
  const bLo = new Uint32Array(25);
  const bHi = new Uint32Array(25);
  for (let round = 0; round < 24; round++) {
    // theta
    for (let x = 0; x < 5; x++) {
      cLo[x] = lo[x] ^ lo[x + 5] ^ lo[x + 10] ^ lo[x + 15] ^ lo[x + 20];
      cHi[x] = hi[x] ^ hi[x + 5] ^ hi[x + 10] ^ hi[x + 15] ^ hi[x + 20];
    }
    for (let x = 0; x < 5; x++) {
      const l1 = cLo[(x + 1) % 5];
      const h1 = cHi[(x + 1) % 5];
      const dLo = cLo[(x + 4) % 5] ^ ((l1 << 1) | (h1 >>> 31));
      const dHi = cHi[(x + 4) % 5] ^ ((h1 << 1) | (l1 >>> 31));
      for (let y = 0; y < 25; y += 5) {
        lo[x + y] ^= dLo;
        hi[x + y] ^= dHi;
      }
    }
    // rho and pi: B[y, 2x+3y] = rot(A[x, y], r[x, y])
    for (let x = 0; x < 5; x++) {
      for (let y = 0; y < 5; y++) {
        const i = x + 5 * y;
        const j = y + 5 * ((2 * x + 3 * y) % 5);
        const r = ROT[i];
        const l = lo[i];
        const h = hi[i];
        if (r === 0) {
          bLo[j] = l;
          bHi[j] = h;
        } else if (r < 32) {
          bLo[j] = (l << r) | (h >>> (32 - r));
          bHi[j] = (h << r) | (l >>> (32 - r));
        } else if (r === 32) {
          bLo[j] = h;
          bHi[j] = l;
        } else {
          const s = r - 32;
          bLo[j] = (h << s) | (l >>> (32 - s));
          bHi[j] = (l << s) | (h >>> (32 - s));
        }
      }
    }
    // chi
    for (let y = 0; y < 25; y += 5) {
      for (let x = 0; x < 5; x++) {
        lo[x + y] = bLo[x + y] ^ (~bLo[((x + 1) % 5) + y] & bLo[((x + 2) % 5) + y]);
        hi[x + y] = bHi[x + y] ^ (~bHi[((x + 1) % 5) + y] & bHi[((x + 2) % 5) + y]);
      }
    }
    // iota
    lo[0] ^= RC_LO[round];
    hi[0] ^= RC_HI[round];
  }
}

const RATE = 136; // bytes, for a 256-bit output

/** Keccak-256 of bytes (a string is hashed as UTF-8), as `0x` and 64 lowercase hex digits. */
export function keccak256(data: Uint8Array | string): string {
  const bytes = typeof data === 'string' ? new TextEncoder().encode(data) : data;
  const lo = new Uint32Array(25);
  const hi = new Uint32Array(25);
  const blocks = Math.floor(bytes.length / RATE) + 1;
  const padded = new Uint8Array(blocks * RATE);
  padded.set(bytes);
  padded[bytes.length] ^= 0x01;
  padded[padded.length - 1] ^= 0x80;
  for (let b = 0; b < blocks; b++) {
    const off = b * RATE;
    for (let i = 0; i < RATE / 8; i++) {
      const p = off + i * 8;
      lo[i] ^= padded[p] | (padded[p + 1] << 8) | (padded[p + 2] << 16) | (padded[p + 3] << 24);
      hi[i] ^= padded[p + 4] | (padded[p + 5] << 8) | (padded[p + 6] << 16) | (padded[p + 7] << 24);
    }
    keccakF(lo, hi);
  }
  let out = '0x';
  for (let i = 0; i < 4; i++) {
    for (const w of [lo[i], hi[i]]) {
      for (let k = 0; k < 4; k++) out += ((w >>> (8 * k)) & 0xff).toString(16).padStart(2, '0');
    }
  }
  return out;
}
