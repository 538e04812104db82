/**
 * The lazily loaded part of the NFT history (a lazy entry of the build): the panels, their real effects and the
 * "Show NFT History" command. `index.ts` loads it on the first command or panel restore, never at activation.
 */
export { NftHistoryPanels, systemEffects } from './panel';
export { showNftHistoryCommand } from './command';
