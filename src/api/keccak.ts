/**
 * Keccak-256 (the original Keccak padding Solidity and Sourcify use, not NIST SHA3-256) of text or bytes, as `0x`
 * hex: the comparison of workspace sources with the `keccak256` hashes of a contract's metadata. The hash is
 * @noble/hashes' (the one viem uses), imported on its own so that the bundles that need only this stay free of viem.
 */
import { keccak_256 } from '@noble/hashes/sha3.js';
import { bytesToHex, utf8ToBytes } from '@noble/hashes/utils.js';

/** Keccak-256 of bytes (a string is hashed as UTF-8), as `0x` and 64 lowercase hex digits. */
export function keccak256(data: Uint8Array | string): string {
  return `0x${bytesToHex(keccak_256(typeof data === 'string' ? utf8ToBytes(data) : data))}`;
}
