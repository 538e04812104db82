/**
 * The lazily loaded part of the contract calls (a lazy entry of the build): the panels, the command and the test
 * seam. `index.ts` loads it on the first "Call Contract" or panel restore (and at activation in test mode only).
 */
export { ContractCallPanels } from './panel';
export { callContractCommand } from './command';
export { testSeam } from './seam';
