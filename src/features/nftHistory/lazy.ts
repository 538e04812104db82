/**
 * Entry of the lazily loaded chunk dist/nft.js (see LAZY_CHUNKS in esbuild.js): the NFT history panels and the
 * "Show NFT History" command. src/nft/register.ts loads it on the first command or panel restore, never at
 * activation.
 */
export { NftHistoryPanels } from './panel';
export { showNftHistoryCommand } from './command';
