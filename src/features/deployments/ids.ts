/** The Deployments view's id, its commands (ids: src/api/commands.ts) and its settings (package.json contributes them). */
import { Command } from '../../api/commands';

export const DEPLOYMENTS_VIEW = 'hederaExplorer.deployments';

export const COMMANDS = {
  refresh: Command.deploymentsRefresh,
  retry: Command.deploymentsRetry,
  showAllNetworks: Command.deploymentsShowAllNetworks,
  showSelectedNetwork: Command.deploymentsShowSelectedNetwork,
  openRecord: Command.deploymentsOpenRecord,
  showResults: Command.deploymentsShowResults,
  verify: Command.deploymentsVerify,
  openInHashScan: Command.deploymentsOpenInHashScan,
  copyAddress: Command.deploymentsCopyAddress,
  call: Command.deploymentsCall,
  showMore: Command.deploymentsShowMore,
} as const;

/** How many contracts the view lists at first (and adds per Show More): each row shown asks the servers about it. */
export const DEPLOYMENTS_PAGE = 100;

/** Commands of other features the rows and lenses run. */
export const OTHER_COMMANDS = {
  /** Contract Results filtered to one contract (id or address), the view shown. */
  showContractResults: Command.contractResultsShowContract,
  /** The transaction inspector: `{ timestamp, network }`. */
  inspect: Command.inspectTransaction,
  /** Debug Transaction: `{ timestamp, network }`. */
  debug: Command.debugTransaction,
  /** Verify Contract: `{ address, chainId, contractName }`. */
  verifyContract: Command.verifyContract,
  /** Call Contract: the contract's address. */
  callContract: Command.callContract,
} as const;
