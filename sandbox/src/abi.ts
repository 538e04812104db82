/** Minimal Solidity ABI encoding for realistic call data, call results and revert data. */

export const word = (hexNo0x: string): string => hexNo0x.padStart(64, '0');
export const uintWord = (v: bigint | number): string => word(BigInt(v).toString(16));
export const addrWord = (addr: string): string => word(addr.replace(/^0x/, '').toLowerCase());
export const boolWord = (b: boolean): string => uintWord(b ? 1 : 0);

/** Dynamic `bytes`/`string` tail: length word + data padded to 32 bytes. */
export function bytesTail(data: Uint8Array): string {
  const hex = Buffer.from(data).toString('hex');
  const padded = hex.padEnd(Math.ceil(hex.length / 64) * 64, '0');
  return uintWord(data.length) + padded;
}

/** `Error(string)` revert data: 0x08c379a0 + offset + length + padded utf-8. */
export function errorString(message: string): string {
  return '0x08c379a0' + uintWord(32) + bytesTail(new TextEncoder().encode(message));
}

/** `Panic(uint256)` revert data: 0x4e487b71 + code. */
export function panic(code: number): string {
  return '0x4e487b71' + uintWord(code);
}

/** ABI-encoded `string` return value. */
export function stringResult(s: string): string {
  return '0x' + uintWord(32) + bytesTail(new TextEncoder().encode(s));
}

/** Well-known function selectors (keccak256 of the signature, first 4 bytes). */
export const SELECTORS = {
  transfer: 'a9059cbb', // transfer(address,uint256)
  approve: '095ea7b3', // approve(address,uint256)
  transferFrom: '23b872dd', // transferFrom(address,address,uint256)
  mint: '40c10f19', // mint(address,uint256)
  safeTransferFrom: '42842e0e', // safeTransferFrom(address,address,uint256)
  setApprovalForAll: 'a22cb465', // setApprovalForAll(address,bool)
  deposit: 'd0e30db0', // deposit()
  withdraw: '2e1a7d4d', // withdraw(uint256)
  burn: '42966c68', // burn(uint256)
  balanceOf: '70a08231', // balanceOf(address)
  swapExactTokensForTokens: '38ed1739', // swapExactTokensForTokens(uint256,uint256,address[],address,uint256)
  name: '06fdde03', // name()
} as const;

/** Custom error selectors (OpenZeppelin 5.x). */
export const CUSTOM_ERRORS = {
  OwnableUnauthorizedAccount: '118cdaa7', // OwnableUnauthorizedAccount(address)
  ERC20InsufficientBalance: 'e450d38c', // ERC20InsufficientBalance(address,uint256,uint256)
  ERC721NonexistentToken: '7e273289', // ERC721NonexistentToken(uint256)
  ReentrancyGuardReentrantCall: '3ee5aeb5', // ReentrancyGuardReentrantCall()
} as const;
