/**
 * The lazily loaded part of the transaction inspector (a lazy entry of the build): the panels, their real effects
 * and the "Inspect Transaction…" command. `index.ts` loads it on the first command or panel restore.
 */
export { InspectorPanels, systemEffects } from './panel';
export { goToRevertCommand, inspectCommand } from './command';
export { RevertLocator } from './revertSource';
