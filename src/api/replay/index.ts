/**
 * Replay: a past transaction executed again on @ethereumjs/evm against the state the mirror node records before it
 * (./engine), its step trace in the shape of the opcode endpoint's, checked against the network's record (./check).
 * Plain TypeScript, no `vscode`; it loads @ethereumjs, so it is meant to be required lazily.
 */
export {
  type Execution,
  type Replayed,
  type ReplayInput,
  type ReplayOptions,
  type RunNote,
  SYSTEM_CONTRACTS,
  intrinsicGas,
  readRecord,
  replayRecord,
  replayTransaction,
} from './engine';
export { GAS_TOLERANCE, GAS_TOLERANCE_MIN, type Verdict, checkReplay } from './check';
export { type FetchStats, MirrorState, ReplayError } from './state';
export {
  type SimulationAnswer,
  type SimulationCall,
  type Simulated,
  SIMULATION_GAS,
  checkSimulation,
  simulateCall,
} from './simulate';
