/** The Deployments view's id, its commands and its settings (package.json contributes them). */
export const DEPLOYMENTS_VIEW = 'hederaExplorer.deployments';

export const COMMANDS = {
  refresh: 'hederaExplorer.deployments.refresh',
  retry: 'hederaExplorer.deployments.retry',
  showAllNetworks: 'hederaExplorer.deployments.showAllNetworks',
  showSelectedNetwork: 'hederaExplorer.deployments.showSelectedNetwork',
  openRecord: 'hederaExplorer.deployments.openRecord',
  showResults: 'hederaExplorer.deployments.showResults',
  verify: 'hederaExplorer.deployments.verify',
  openInHashScan: 'hederaExplorer.deployments.openInHashScan',
  copyAddress: 'hederaExplorer.deployments.copyAddress',
  showMore: 'hederaExplorer.deployments.showMore',
} as const;

/** How many contracts the view lists at first (and adds per Show More): each row shown asks the servers about it. */
export const DEPLOYMENTS_PAGE = 100;

/** Commands of other features the rows and lenses run. */
export const OTHER_COMMANDS = {
  /** Contract Results filtered to one contract (id or address), the view shown. */
  showContractResults: 'hederaExplorer.contractResults.showContract',
  /** The transaction inspector: `{ timestamp, network }`. */
  inspect: 'hederaExplorer.inspectTransaction',
  /** Verify Contract: `{ address, chainId, contractName }`. */
  verifyContract: 'hederaExplorer.verifyContract',
} as const;

/** The context key set while the view lists every chain's records. */
export const ALL_NETWORKS_KEY = 'hederaExplorer.deployments.allNetworks';
