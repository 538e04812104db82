/**
 * Every command of the extension, in one place: its id (package.json's `contributes.commands`, menus and keybindings
 * name the same set; a unit test holds them equal) and the arguments its callers in the code pass (`CommandArgs`).
 * Plain data, no `vscode`, so that every layer can name a command (the hover text in src/api links to some);
 * registering and running them, typed by this map, is src/core/commands.ts.
 *
 * A command's handler never trusts these types: menus pass tree nodes, command links pass decoded JSON and other
 * extensions pass anything, so every handler checks what it gets (src/core/commands.ts hands it `unknown`s).
 */

export const Command = {
  selectNetwork: 'hederaExplorer.selectNetwork',
  retryNetwork: 'hederaExplorer.retryNetwork',
  showLog: 'hederaExplorer.showLog',
  copyValue: 'hederaExplorer.copyValue',

  setApiKey: 'hederaExplorer.setApiKey',
  clearApiKey: 'hederaExplorer.clearApiKey',
  verifyContract: 'hederaExplorer.verifyContract',
  verificationRerun: 'hederaExplorer.verification.rerun',
  verificationClear: 'hederaExplorer.verification.clear',
  verificationShowKept: 'hederaExplorer.verification.showKept',
  verificationCopyAddress: 'hederaExplorer.verification.copyAddress',
  verificationCopyPath: 'hederaExplorer.verification.copyPath',
  verificationCopyResult: 'hederaExplorer.verification.copyResult',
  verificationOpenFile: 'hederaExplorer.verification.openFile',
  verificationOpenInHashScan: 'hederaExplorer.verification.openInHashScan',

  schedulesRefresh: 'hederaExplorer.schedules.refresh',
  schedulesRetry: 'hederaExplorer.schedules.retry',
  schedulesLoadMore: 'hederaExplorer.schedules.loadMore',
  schedulesFilter: 'hederaExplorer.schedules.filter',
  schedulesClearFilters: 'hederaExplorer.schedules.clearFilters',
  schedulesOpen: 'hederaExplorer.schedules.open',
  schedulesCopyId: 'hederaExplorer.schedules.copyId',
  schedulesOpenInHashScan: 'hederaExplorer.schedules.openInHashScan',
  schedulesShowRaw: 'hederaExplorer.schedules.showRaw',

  contractResultsRefresh: 'hederaExplorer.contractResults.refresh',
  contractResultsRetry: 'hederaExplorer.contractResults.retry',
  contractResultsLoadMore: 'hederaExplorer.contractResults.loadMore',
  contractResultsFilter: 'hederaExplorer.contractResults.filter',
  contractResultsClearFilters: 'hederaExplorer.contractResults.clearFilters',
  contractResultsFollow: 'hederaExplorer.contractResults.follow',
  contractResultsUnfollow: 'hederaExplorer.contractResults.unfollow',
  contractResultsCopyHash: 'hederaExplorer.contractResults.copyHash',
  contractResultsOpenTransaction: 'hederaExplorer.contractResults.openTransaction',
  contractResultsOpenContract: 'hederaExplorer.contractResults.openContract',
  contractResultsFilterByContract: 'hederaExplorer.contractResults.filterByContract',
  contractResultsFilterBySender: 'hederaExplorer.contractResults.filterBySender',
  contractResultsShowRaw: 'hederaExplorer.contractResults.showRaw',
  contractResultsShowContract: 'hederaExplorer.contractResults.showContract',
  contractResultsInspect: 'hederaExplorer.contractResults.inspect',
  contractResultsGoToRevert: 'hederaExplorer.contractResults.goToRevert',
  contractResultsDebug: 'hederaExplorer.contractResults.debug',

  statusRefresh: 'hederaExplorer.status.refresh',
  statusOpenLink: 'hederaExplorer.status.openLink',
  statusCopyLink: 'hederaExplorer.status.copyLink',

  showNftHistory: 'hederaExplorer.showNftHistory',
  inspectTransaction: 'hederaExplorer.inspectTransaction',
  goToRevert: 'hederaExplorer.goToRevert',
  debugTransaction: 'hederaExplorer.debugTransaction',
  callContract: 'hederaExplorer.callContract',
  clearRevertMarks: 'hederaExplorer.clearRevertMarks',

  deploymentsRefresh: 'hederaExplorer.deployments.refresh',
  deploymentsRetry: 'hederaExplorer.deployments.retry',
  deploymentsShowMore: 'hederaExplorer.deployments.showMore',
  deploymentsShowAllNetworks: 'hederaExplorer.deployments.showAllNetworks',
  deploymentsShowSelectedNetwork: 'hederaExplorer.deployments.showSelectedNetwork',
  deploymentsOpenRecord: 'hederaExplorer.deployments.openRecord',
  deploymentsShowResults: 'hederaExplorer.deployments.showResults',
  deploymentsVerify: 'hederaExplorer.deployments.verify',
  deploymentsOpenInHashScan: 'hederaExplorer.deployments.openInHashScan',
  deploymentsCopyAddress: 'hederaExplorer.deployments.copyAddress',
  deploymentsCall: 'hederaExplorer.deployments.call',

  ledgerOpenInHashScan: 'hederaExplorer.ledger.openInHashScan',
  ledgerCopy: 'hederaExplorer.ledger.copy',
  ledgerOpenLink: 'hederaExplorer.ledger.openLink',
} as const;

export type CommandId = (typeof Command)[keyof typeof Command];

/**
 * The context keys the extension sets (`setContext`, src/core/contextKeys.ts), for the `when` clauses of
 * package.json: a command shows in the palette or a view's title only where it can act (a unit test holds every
 * key a `when` names to this list, and each key to a place in src that sets it).
 */
export const ContextKey = {
  schedulesFiltered: 'hederaExplorer.schedules.filtered',
  contractResultsFiltered: 'hederaExplorer.contractResults.filtered',
  contractResultsFollowing: 'hederaExplorer.contractResults.following',
  verificationHasResult: 'hederaExplorer.verification.hasResult',
  deploymentsAllNetworks: 'hederaExplorer.deployments.allNetworks',
  hasRevertMarks: 'hederaExplorer.inspector.hasRevertMarks',
  hasApiKey: 'hederaExplorer.hasApiKey',
  /** The selected network's name while its mirror node cannot be reached, otherwise false. */
  unreachable: 'hederaExplorer.unreachable',
  statusUnreachable: 'hederaExplorer.status.unreachable',
} as const;

export type ContextKeyId = (typeof ContextKey)[keyof typeof ContextKey];

/** The commands every list view has (src/ui/listRegistration.ts), by the view's id. */
export const ListCommand = {
  'hederaExplorer.schedules': {
    refresh: Command.schedulesRefresh,
    retry: Command.schedulesRetry,
    loadMore: Command.schedulesLoadMore,
    filter: Command.schedulesFilter,
    clearFilters: Command.schedulesClearFilters,
  },
  'hederaExplorer.contractResults': {
    refresh: Command.contractResultsRefresh,
    retry: Command.contractResultsRetry,
    loadMore: Command.contractResultsLoadMore,
    filter: Command.contractResultsFilter,
    clearFilters: Command.contractResultsClearFilters,
  },
} as const;

export type ListViewId = keyof typeof ListCommand;

/** The "a filter is set" context key of each list view. */
export const ListFilteredKey: Readonly<Record<ListViewId, ContextKeyId>> = {
  'hederaExplorer.schedules': ContextKey.schedulesFiltered,
  'hederaExplorer.contractResults': ContextKey.contractResultsFiltered,
};

/** A transaction as the inspector's commands take it: its text (id, hash, timestamp, HashScan link) or parts. */
export type TransactionArgument =
  string | { timestamp?: string; transactionId?: string; hash?: string; network?: string };

/** An explorer target as "Open in HashScan" of a hover takes it (checked again by `checkTarget`). */
export interface ExplorerTargetArgument {
  kind: string;
  id: string;
  serial?: string;
}

/** What Verify Contract takes from code (src/features/verification/verifyContract.ts `VerifyArgs` checks it). */
export type VerifyArgument = Readonly<Record<string, unknown>>;

/** A contract as "Call Contract" takes it: its id, EVM address or HashScan link, or `{ address }` (checked as typed). */
export type ContractArgument = string | { address?: string; id?: string };

/** A tree row a menu passes (each command finds its own kind of row in it). */
type Row = unknown;
/** A tree row, or nothing: the command then acts on what its view shows (so the palette can offer it). */
type RowOrShown = unknown;

/** The arguments each command's callers pass. */
export interface CommandArgs {
  'hederaExplorer.selectNetwork': [preset?: string];
  'hederaExplorer.retryNetwork': [];
  'hederaExplorer.showLog': [];
  'hederaExplorer.copyValue': [row?: Row];
  'hederaExplorer.setApiKey': [preset?: string];
  'hederaExplorer.clearApiKey': [];
  'hederaExplorer.verifyContract': [args?: VerifyArgument];
  'hederaExplorer.verification.rerun': [];
  'hederaExplorer.verification.clear': [];
  'hederaExplorer.verification.showKept': [];
  'hederaExplorer.verification.copyAddress': [row?: RowOrShown];
  'hederaExplorer.verification.copyPath': [row?: Row];
  'hederaExplorer.verification.copyResult': [];
  'hederaExplorer.verification.openFile': [row?: Row];
  'hederaExplorer.verification.openInHashScan': [row?: RowOrShown];
  'hederaExplorer.schedules.refresh': [];
  'hederaExplorer.schedules.retry': [];
  'hederaExplorer.schedules.loadMore': [];
  'hederaExplorer.schedules.filter': [];
  'hederaExplorer.schedules.clearFilters': [];
  'hederaExplorer.schedules.open': [scheduleId?: string];
  'hederaExplorer.schedules.copyId': [row?: Row];
  'hederaExplorer.schedules.openInHashScan': [row?: Row];
  'hederaExplorer.schedules.showRaw': [row?: Row];
  'hederaExplorer.contractResults.refresh': [];
  'hederaExplorer.contractResults.retry': [];
  'hederaExplorer.contractResults.loadMore': [];
  'hederaExplorer.contractResults.filter': [];
  'hederaExplorer.contractResults.clearFilters': [];
  'hederaExplorer.contractResults.follow': [];
  'hederaExplorer.contractResults.unfollow': [];
  'hederaExplorer.contractResults.copyHash': [row?: Row];
  'hederaExplorer.contractResults.openTransaction': [row?: Row];
  'hederaExplorer.contractResults.openContract': [row?: Row];
  'hederaExplorer.contractResults.filterByContract': [row?: Row];
  'hederaExplorer.contractResults.filterBySender': [row?: Row];
  'hederaExplorer.contractResults.showRaw': [row?: Row];
  'hederaExplorer.contractResults.showContract': [contract?: string];
  'hederaExplorer.contractResults.inspect': [row?: Row];
  'hederaExplorer.contractResults.goToRevert': [row?: Row];
  'hederaExplorer.contractResults.debug': [row?: Row];
  'hederaExplorer.status.refresh': [];
  'hederaExplorer.status.openLink': [url?: string];
  'hederaExplorer.status.copyLink': [url?: string];
  'hederaExplorer.showNftHistory': [tokenId?: string, serial?: string];
  'hederaExplorer.inspectTransaction': [transaction?: TransactionArgument];
  'hederaExplorer.goToRevert': [transaction?: TransactionArgument];
  'hederaExplorer.debugTransaction': [transaction?: TransactionArgument];
  'hederaExplorer.callContract': [contract?: ContractArgument];
  'hederaExplorer.clearRevertMarks': [];
  'hederaExplorer.deployments.refresh': [];
  'hederaExplorer.deployments.retry': [];
  'hederaExplorer.deployments.showMore': [];
  'hederaExplorer.deployments.showAllNetworks': [];
  'hederaExplorer.deployments.showSelectedNetwork': [];
  'hederaExplorer.deployments.openRecord': [row?: Row];
  'hederaExplorer.deployments.showResults': [row?: Row];
  'hederaExplorer.deployments.verify': [row?: Row];
  'hederaExplorer.deployments.openInHashScan': [row?: Row];
  'hederaExplorer.deployments.copyAddress': [row?: Row];
  'hederaExplorer.deployments.call': [row?: Row];
  'hederaExplorer.ledger.openInHashScan': [target?: ExplorerTargetArgument];
  'hederaExplorer.ledger.copy': [text?: string];
  'hederaExplorer.ledger.openLink': [reference?: string];
}

/** Compile-time: the map has exactly the ids of `Command` (a missing or extra entry fails the type check). */
type Exactly<A, B> = [A] extends [B] ? ([B] extends [A] ? true : false) : false;
export const COMMAND_ARGS_COMPLETE: Exactly<keyof CommandArgs, CommandId> = true;

/** Every id, for the hover's trusted list and the tests. */
export const ALL_COMMANDS: readonly CommandId[] = Object.values(Command);
