/**
 * A simulated call shown in the inspector (the contract call panel's "Open in Inspector"): it has no transaction, so
 * the page is not keyed by one. The panel hands over what its local run gave (src/api/replay/simulate.ts) once it
 * matched the mirror node's answer: the call as a contract result, its call frames, and its step trace with the
 * check's verdict, which the Source section uses as it uses a replay that matches the record. Held in memory only:
 * after a window reload the page is not restored.
 */
import type { NetworkName } from '../../api/networks';
import type { ContractAction, ContractResultDetails } from '../../api/mirrorTypes';
import type { SourceTrace } from '../../api/inspect/model';
import type { StepTraceOutcome } from '../../api/source/stepTrace';

export interface SimulationPage {
  /** Unique per run: one page per run. */
  id: string;
  /** What was simulated, for the title and header ("Vault.move(address,uint256) at block 12"). */
  label: string;
  network: NetworkName;
  /** The consensus timestamp the state was read before (the end of the block). */
  before: string;
  result: ContractResultDetails;
  actions: ContractAction[];
  /** The run's step trace and verdict, as the Source section takes a replay's. */
  trace: StepTraceOutcome;
  /** Where the step trace came from, in words. */
  tracedBy: SourceTrace;
  /** A line above the sections. */
  note: string;
}
