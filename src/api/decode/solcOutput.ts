/**
 * Small facts about solc output shared by decoding (src/api/decode) and verification (src/verify): the metadata
 * tail of a bytecode, and the source names artifacts and records use. Plain TypeScript, no `vscode`, no viem.
 */

const HEX = /^[0-9a-f]*$/;

/**
 * The length, in hex characters, of the metadata tail of a bytecode (a CBOR map followed by its length in 2
 * bytes), or 0 when it does not end with one. `code`: lowercase hex without 0x.
 */
export function metadataTailLength(code: string): number {
  if (code.length < 6 || !HEX.test(code.slice(-4))) return 0;
  const len = (parseInt(code.slice(-4), 16) + 2) * 2;
  if (len <= 4 || len > code.length) return 0;
  const first = parseInt(code.slice(code.length - len, code.length - len + 2), 16);
  // a CBOR map with 1 to 7 entries (solc: ipfs/bzzr, experimental, solc version)
  return first >= 0xa1 && first <= 0xa7 ? len : 0;
}

/**
 * Bytecode without its metadata tail, lowercase hex without 0x. Code that does not end with a CBOR metadata map
 * is returned whole (its last 2 bytes are code then, not a length).
 */
export function stripMetadata(hex: string): string {
  const h = hex.replace(/^0x/i, '').toLowerCase();
  return h.slice(0, h.length - metadataTailLength(h));
}

/**
 * The source name artifacts and deployment records use for a compiler input source name: Hardhat 3
 * `project/contracts/X.sol` → `contracts/X.sol`, `npm/@scope/pkg@1.2.3/X.sol` → `@scope/pkg/X.sol`; others as
 * they are (backslashes as slashes).
 */
export function userSourceName(inputSourceName: string): string {
  return inputSourceName
    .replace(/\\/g, '/')
    .replace(/^project\//, '')
    .replace(/^npm\/((?:@[^/]+\/)?[^/@]+)@[^/]+\//, '$1/');
}
