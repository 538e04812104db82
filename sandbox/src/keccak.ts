import { keccak_256 } from '@noble/hashes/sha3.js';
import { bytesToHex, utf8ToBytes } from '@noble/hashes/utils.js';

/**
 * Keccak-256 (the original Keccak padding Solidity uses, not NIST SHA3-256, which node:crypto has), from
 * @noble/hashes (the implementation viem uses). The sandbox computes function selectors, event topics, mapping
 * storage slots and log blooms with it, from signatures and ABIs rather than typed-in constants.
 */

/** Keccak-256 of bytes, as 64 lowercase hex characters (no 0x). */
export function keccak256(data: Uint8Array): string {
  return bytesToHex(keccak_256(data));
}

/** Keccak-256 of a UTF-8 string. */
export const keccakText = (s: string): string => keccak256(utf8ToBytes(s));

/** Keccak-256 of hex bytes (0x optional). */
export const keccakHex = (hex: string): string =>
  keccak256(Uint8Array.from(Buffer.from(hex.replace(/^0x/, ''), 'hex')));

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
