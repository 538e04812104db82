/**
 * The transaction inspector's view model: what the panel (src/features/inspector) sends to its page, built from
 * the mirror node's answers by ./build.ts. Display-ready and JSON-serialisable: every number that may pass 2^53 is
 * a decimal string with every digit, every text from the network is a plain string the page sets as text (never
 * HTML). Plain TypeScript: no `vscode`, no DOM.
 */

/** One of the inspector's sections; each loads, fails and retries on its own. */
export type SectionId = 'overview' | 'source' | 'trace' | 'events' | 'state' | 'transfers';
export const SECTION_IDS: readonly SectionId[] = ['overview', 'source', 'trace', 'events', 'state', 'transfers'];

/** What a link in the page opens; the extension validates `id` again before it acts. */
export type LinkKind = 'transaction' | 'contract' | 'account' | 'token';

/**
 * An account, contract or token as shown: its entity id when known (`0.0.x`, long-zero addresses turned into it),
 * its EVM address when that is not the long-zero form of the id (an alias, a contract's own address), and a name
 * when one is known (a workspace contract, a Hedera system contract).
 */
export interface EntityView {
  id?: string;
  evm?: string;
  name?: string;
  /** `account`, `contract`, `token` (for links); undefined when unknown. */
  kind?: LinkKind;
}

/** One decoded value (a parameter, a return value, an event argument, a storage variable). */
export interface ValueView {
  name: string;
  type: string;
  /** One line; big integers with every digit; strings JSON-quoted. */
  value: string;
  /** For events: whether the argument was indexed (a topic). */
  indexed?: boolean;
  children?: ValueView[];
}

/** A call (function + arguments) decoded, and what decoded it. */
export interface CallView {
  name: string;
  signature: string;
  selector: string;
  args: ValueView[];
  /** `workspace: artifacts/contracts/Vault.sol/Vault.json`, `Sourcify (exact_match)`, `Hedera Token Service`, `ERC-20`. */
  source: string;
}

/** Revert data decoded: `Error(string)`, `Panic(uint256)`, a custom error, or raw. */
export interface ErrorView {
  kind: 'error' | 'panic' | 'custom' | 'text' | 'empty' | 'raw';
  /** One line: `Error("ERC20: transfer amount exceeds balance")`, `Panic(0x11): arithmetic overflow`, `NotOwner(caller=0x…)`. */
  text: string;
  name?: string;
  args?: ValueView[];
  source?: string;
}

export interface GasView {
  limit: string;
  used: string;
  /** `gas_consumed` (null on older records). */
  consumed?: string;
  /** used / limit, 0..1, for the bar (0 when the limit is 0 or unknown). */
  ratio: number;
}

export interface AmountView {
  tinybars: string;
  /** `1.5 ℏ`, every digit. */
  hbar: string;
}

/** A transaction of the same id: the parent (nonce 0), its children (nonce > 0, e.g. precompile calls), this one. */
export interface RelatedView {
  transactionId: string;
  nonce: string;
  timestamp: string;
  /** `CONTRACTCALL`, `CRYPTOTRANSFER`, ... */
  name: string;
  result: string;
  relation: 'parent' | 'child' | 'self' | 'sibling';
}

export interface OverviewModel {
  /** `SUCCESS`, `CONTRACT_REVERT_EXECUTED`, any other response code as sent. */
  result: string;
  outcome: 'success' | 'failure' | 'unknown';
  /** The revert reason when it failed. */
  error?: ErrorView;
  /** Consensus timestamp `seconds.nanos` and as a local time. */
  timestamp: string;
  timeLocal: string;
  transactionId?: string;
  /** The Ethereum hash (or the 32-byte prefix of the Hedera hash). */
  hash?: string;
  /** The transaction type name (`CONTRACTCALL`, `ETHEREUMTRANSACTION`, `CONTRACTCREATEINSTANCE`). */
  type?: string;
  from?: EntityView;
  to?: EntityView;
  /** Contracts created (`created_contract_ids`). */
  created: EntityView[];
  /** The function called, decoded; undefined when it could not be (the input stays raw). */
  call?: CallView;
  /** Call data as sent (hex), or the creation's init code size. */
  input?: string;
  /** Return values decoded (on success), else undefined. */
  output?: ValueView[];
  outputRaw?: string;
  value: AmountView;
  gas: GasView;
  /** `charged_tx_fee` of the transaction record, when it is known. */
  fee?: AmountView;
  /**
   * `gas_price`, `max_fee_per_gas`, `max_priority_fee_per_gas` as decimal strings, when sent: in tinybars, as the
   * mirror node answers without `hbar=false` (type 2 transactions send `gas_price` "0x", their max fees instead).
   */
  gasPrice?: string;
  maxFeePerGas?: string;
  maxPriorityFeePerGas?: string;
  block?: { number: string; hash?: string };
  /** The Ethereum nonce (`nonce` of the result). */
  ethNonce?: string;
  /** The transaction's nonce (0: user-submitted; > 0: a child). */
  nonce?: string;
  related: RelatedView[];
  /** Plain-text notes (e.g. "the call data is in a file", "a partial record (206)"). */
  notes: string[];
}

/** One call frame of the trace (one `actions` entry), flattened in depth-first order. */
export interface TraceRow {
  /** The action's `index`. */
  index: number;
  /** Nesting level in the tree, 0 for a top frame (from `call_depth`, which may start at 1 or skip levels). */
  depth: number;
  /** Position of the parent row in the rows array, -1 for the top. */
  parent: number;
  /** Number of rows below this one (descendants). */
  descendants: number;
  /** `CALL`, `DELEGATECALL`, `STATICCALL`, `CREATE`, `CREATE2`, `CALLCODE`, `PRECOMPILE`, `SYSTEM`, other as sent. */
  operation: string;
  /** `call_type` as sent (`CALL`, `CREATE`, `PRECOMPILE`, `SYSTEM`, `NO_ACTION`). */
  callType: string;
  caller: EntityView;
  recipient: EntityView;
  value: AmountView;
  gas: string;
  gasUsed: string;
  /** The input decoded as a function call; undefined: `input` raw. */
  call?: CallView;
  input?: string;
  /** `OUTPUT`, `REVERT_REASON`, `ERROR` as sent. */
  resultType: string;
  /** Return values decoded (OUTPUT). */
  output?: ValueView[];
  /** The revert reason or error decoded (REVERT_REASON / ERROR). */
  error?: ErrorView;
  resultRaw?: string;
  /** This frame failed (REVERT_REASON or ERROR). */
  failed: boolean;
  /** A frame on the path to the deepest failure (the frames to mark). */
  onFailurePath: boolean;
  timestamp?: string;
}

/** The call trace: every row in depth-first order (the page draws only the visible ones). */
export interface TraceView {
  rows: TraceRow[];
  /** Index (in `rows`) of the deepest failing frame, -1 when none failed. */
  deepestFailure: number;
}

export interface EventView {
  index: number;
  emitter: EntityView;
  /** Decoded; undefined: the topics and data below are all there is. */
  name?: string;
  signature?: string;
  args?: ValueView[];
  source?: string;
  topics: string[];
  data: string;
}

/** One storage slot's change. */
export interface StateChangeView {
  contract: EntityView;
  slot: string;
  read: string;
  /** undefined: only read (`value_written` null). */
  written?: string;
  /**
   * Named with the contract's storage layout: `totalSupply`, `balances[0x…]` when the key is known, the type, and
   * the decoded old → new values for simple variables. Undefined when no layout names the slot (raw, labelled so).
   */
  variable?: { label: string; type: string; before?: string; after?: string; layoutSource: string };
  /**
   * Every variable the slot holds when it holds several (packed variables, struct members, small array elements),
   * lowest offset first; `variable` is then the first of them whose value changed. Absent for one variable.
   */
  variables?: StateVariableView[];
}

/** One variable a storage slot holds, named with the contract's storage layout (see `StateChangeView.variable`). */
export type StateVariableView = NonNullable<StateChangeView['variable']>;

export interface TransferView {
  kind: 'hbar' | 'token' | 'nft';
  /** For hbar and token: the account and signed amount; for nft: sender → receiver. */
  account?: EntityView;
  amount?: string;
  /** For hbar: the amount in ℏ. */
  hbar?: string;
  token?: EntityView;
  serial?: string;
  sender?: EntityView;
  receiver?: EntityView;
  isApproval: boolean;
}

export interface TransfersModel {
  transfers: TransferView[];
  fee?: AmountView;
  /** The payer (the transaction id's account). */
  payer?: EntityView;
  /**
   * The records of the child transactions of this one (nonce > 0: a token service call's CRYPTOTRANSFER, ...): their
   * transfers happened inside this transaction and are only in their own records.
   */
  children?: Array<{ transactionId: string; nonce: string; name: string; result: string; transfers: TransfersModel }>;
}

/** One place in Solidity source: a frame of the call stack that reverted, or a likely candidate. */
export interface SourceFrameView {
  /**
   * `revert`, `invalid`, `outOfGas`, `halt` (the failing operation), `internal` (an internal function call that led
   * there, in the same contract), `callSite` (a frame above it), `candidate` (likely).
   */
  kind: string;
  /** The contract (`Vault`) and its source unit name (`contracts/Vault.sol`). */
  contract?: string;
  sourceName: string;
  /** 1-based line, 1-based column. */
  line: number;
  column: number;
  /** The source text of the statement (one line, shortened). */
  snippet: string;
  /** What else to know: "in checked arithmetic the compiler generated", "via onlyOwner", "the file changed since". */
  detail?: string;
  /** The contract's address in the trace. */
  address?: EntityView;
  /** Which place the page asks the panel to open (`openSource`); -1: none can be opened. */
  target: number;
}

/** Where a failed call reverted in the workspace's (or Sourcify's) Solidity source. */
export interface SourceModel {
  /**
   * `exact`: from the mirror node's opcode trace through the compiler's source map; `likely`: from the call trace
   * and the function's revert statements (candidates, never presented as exact); `none`: nothing could be placed.
   */
  mode: 'exact' | 'likely' | 'none';
  /** The revert reason, decoded (one line). */
  reason?: string;
  /** exact: the reverting frame first, then the call sites above it; likely: the candidates. */
  frames: SourceFrameView[];
  /** Plain sentences: why opcodes were not used, a bytecode mismatch, what could not be told. */
  notes: string[];
  /** Where the step trace came from: the mirror node's opcode endpoint or a local replay (absent: no trace). */
  trace?: SourceTrace;
}

/** The source of a step trace, said to the user. */
export interface SourceTrace {
  by: 'mirror' | 'replay';
  /** The mirror node's trace, or a replay that matches the network's record. */
  matches: boolean;
  /** "Traced by the mirror node", "Replayed locally · matches the network's record (N of N calls)", … */
  text: string;
}

/** A section's state in the page. */
export type SectionState<T> =
  | { state: 'loading' }
  | { state: 'ready'; data: T; notice?: string }
  /** `retry`: a Retry may help (network, 5xx, 429); `missing`: the server has nothing for it (e.g. 404 actions). */
  | { state: 'error'; message: string; serverMessages: string[]; retry: boolean; missing?: boolean };
