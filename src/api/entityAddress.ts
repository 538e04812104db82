/**
 * Entity ids and their long-zero EVM addresses, without the validation's sentences (src/api/validation.ts re-exports
 * these): what the window's contract cache needs at activation, kept small. Plain TypeScript, no `vscode`.
 */

/** The ranges the real mirror node accepts (rest/entityId.js): shard 10 bits, realm 16 bits, num 38 bits. */
export const MAX_SHARD = 1023n;
export const MAX_REALM = 65535n;
export const MAX_NUM = (1n << 38n) - 1n;

const inRanges = (shard: bigint, realm: bigint, num: bigint): boolean =>
  shard <= MAX_SHARD && realm <= MAX_REALM && num <= MAX_NUM;

/** Whether `id` is a full entity id (`shard.realm.num`) in the mirror node's ranges. */
export function isEntityId(id: string): boolean {
  const m = /^(\d{1,19})\.(\d{1,19})\.(\d{1,19})$/.exec(id.trim());
  return !!m && inRanges(BigInt(m[1]), BigInt(m[2]), BigInt(m[3]));
}

/** The entity id of a long-zero EVM address, or undefined for any other address. */
export function evmAddressToEntityId(address: string): string | undefined {
  const a = address.replace(/^0x/i, '').toLowerCase();
  if (!/^[0-9a-f]{40}$/.test(a)) return undefined;
  const shard = BigInt(`0x${a.slice(0, 8)}`);
  const realm = BigInt(`0x${a.slice(8, 24)}`);
  const num = BigInt(`0x${a.slice(24)}`);
  // not a long-zero address of an entity the mirror node could have
  if (!inRanges(shard, realm, num)) return undefined;
  if (shard === 0n && realm === 0n && num === 0n) return undefined;
  return `${shard}.${realm}.${num}`;
}
