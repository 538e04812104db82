/**
 * The sandbox's EVM: the inspector's compiled contracts executed for real (@ethereumjs/evm), recorded as the mirror
 * node shows an execution (`/contracts/results/{id}/opcodes` and `…/actions`, logs, state changes), with Hedera's PRNG
 * and token service system contracts emulated.
 *
 * Loading this module loads @ethereumjs (a few hundred kilobytes of code): the sandbox requires it lazily, on the
 * first request that needs an execution (`require('../evm') as typeof import('../evm')` inside the handler).
 * It imports only src/api and npm/Node modules.
 */
export {
  EvmChain,
  intrinsicGas,
  longZeroEntity,
  type AccountSpec,
  type CallRequest,
  type ChainOptions,
  type Execution,
  type LogEntry,
  type StateChange,
} from './chain';
export {
  HederaSystemContracts,
  HTS_ADDRESS,
  PRNG_ADDRESS,
  RESPONSE,
  HTS_TRANSFER_GAS,
  PRNG_GAS,
  TRANSFER_TOPIC,
} from './hedera';
export { createInspectorChain, DEPLOYER, type CompiledInspector, type InspectorChain, type Party } from './inspector';
export { haltName, type TraceOptions } from '../../../src/api/replay/recorder';
