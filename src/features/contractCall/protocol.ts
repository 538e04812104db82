/**
 * The messages between the call panel and its page, and the page's saved state: the types, and the parsers that
 * check every message from the page (and a state handed back after a reload) before the extension uses it. Plain
 * TypeScript, shared by the extension (panel.ts) and the page (webview/).
 */
import type { AbiParam } from '../../api/decode/abiFiles';

/** One input of a function as the page draws its field. */
export interface InputView {
  name: string;
  type: string;
  placeholder: string;
  /** The ABI parameter, for the page to check the field as it is typed. */
  param: AbiParam;
}

export interface FunctionView {
  /** The signature (`transfer(address,uint256)`), the function's key. */
  key: string;
  name: string;
  /** view or pure: read; the others are simulated. */
  read: boolean;
  payable: boolean;
  inputs: InputView[];
  /** The outputs' types, `(uint256, address)`. */
  outputs: string;
}

/** One decoded value: nested values (arrays, tuples) follow their parent with a greater depth. */
export interface ValueLine {
  depth: number;
  name: string;
  type: string;
  /** Every digit of an integer; addresses, bytes and text as they are. */
  value: string;
}

export interface OutcomeView {
  key: string;
  status: 'running' | 'ok' | 'reverted' | 'error';
  /** Which block it was read at, in words. */
  block?: string;
  values?: ValueLine[];
  /** The return data (hex), when there is some. */
  raw?: string;
  /** A revert: Hedera's result name, the decoded reason and the custom error's arguments. */
  revert?: { status: string; kind: string; message: string; args?: ValueLine[] };
  /** The gas estimate of a simulated call. */
  gas?: string;
  /** A refused or failed request: the sentence, a way forward, the server's own words. */
  error?: { message: string; forward?: string; serverMessages: string[] };
  /**
   * A simulated call's local run (Open in Inspector): not run yet, running, opened (it matched the mirror node's
   * answer), differs from it, or could not run; with its sentence.
   */
  local?: { status: 'idle' | 'running' | 'opened' | 'differs' | 'failed'; message?: string };
}

export interface HistoryView {
  id: string;
  /** ISO time. */
  at: string;
  key: string;
  name: string;
  inputs: string[];
  block: string;
  status: 'ok' | 'reverted' | 'error';
  summary: string;
  pinned: boolean;
  /** The value sent, with its unit. */
  value?: string;
  from?: string;
}

export interface ViewState {
  status: 'loading' | 'ready' | 'failed';
  /** Why there is nothing to call (status failed). */
  message?: string;
  contract: { name: string; id?: string; address: string };
  network: string;
  /** Where the ABI came from. */
  source?: string;
  functions: FunctionView[];
  outcomes: Record<string, OutcomeView>;
  history: HistoryView[];
}

/** The state a new page's HTML holds: with the function to show first (a function lens's). */
export type FirstState = ViewState & { focus?: string };

/** A function to show first: its name and, to choose among overloads, its number of inputs. */
export interface FunctionFocus {
  name: string;
  inputs?: number;
}

export type ToWebview =
  /**
   * The state; without `functions` when the page has them (they change only with the contract), without `history`
   * when the page has the current one.
   */
  | {
      type: 'update';
      state: Omit<ViewState, 'functions' | 'history'> & { functions?: FunctionView[]; history?: HistoryView[] };
      reportRendered?: true;
    }
  /**
   * Test mode only (the page was asked to report what it draws): fill a function's fields as if typed, then click
   * its button or press Enter in its last field, as a user does in the real frame.
   */
  | { type: 'press'; key: string; how: 'click' | 'enter'; inputs: string[] }
  /** Show a function first: scrolled to, its first field (or its button) focused. */
  | { type: 'focus'; key: string };

export type HistoryAction = 'rerun' | 'copyCurl' | 'copyViem' | 'copyEthers' | 'pin' | 'unpin';
const HISTORY_ACTIONS: readonly HistoryAction[] = ['rerun', 'copyCurl', 'copyViem', 'copyEthers', 'pin', 'unpin'];

export interface CallRequest {
  key: string;
  inputs: string[];
  block: string;
  from: string;
  value: string;
}

export type FromWebview =
  /** The page listens; `drewFirst`: it drew the state its HTML held (a new page, not one shown again). */
  | { type: 'ready'; drewFirst: boolean }
  | ({ type: 'call' } & CallRequest)
  | { type: 'history'; action: HistoryAction; id: string }
  /** Open in Inspector: the simulated call of a function run locally, then shown in the inspector. */
  | { type: 'inspect'; key: string }
  /** What the page shows of an outcome (test mode only: the panel asked with reportRendered). */
  | { type: 'rendered'; key: string; status: string; text: string };

/** What the page saves (VS Code hands it back after a reload). */
export interface PanelState {
  v: 1;
  address: string;
}

/** A parser's answer (webviewPanel.ts `Parsed`, which the page cannot import: it names Node modules). */
type Parsed<T> = { ok: true; value: T } | { ok: false; reason: string };

const bad = <T>(reason: string): Parsed<T> => ({ ok: false, reason });
const isObject = (v: unknown): v is Record<string, unknown> => !!v && typeof v === 'object' && !Array.isArray(v);
const str = (v: unknown, max: number): v is string => typeof v === 'string' && v.length <= max;
/** The longest input (a bytes input of the largest call data in hex, and room). */
const MAX_INPUT = 300_000;

export function parseWebviewMessage(raw: unknown): Parsed<FromWebview> {
  if (!isObject(raw) || typeof raw.type !== 'string') return bad('not a message');
  switch (raw.type) {
    case 'ready':
      return { ok: true, value: { type: 'ready', drewFirst: raw.drewFirst === true } };
    case 'call': {
      const { key, inputs, block, from, value } = raw;
      if (!str(key, 2048)) return bad('call.key is not a signature');
      if (!Array.isArray(inputs) || inputs.length > 64 || !inputs.every((x) => str(x, MAX_INPUT)))
        return bad('call.inputs are not texts');
      if (!str(block, 64) || !str(from, 200) || !str(value, 64)) return bad('call: block, from or value too long');
      return { ok: true, value: { type: 'call', key, inputs: [...(inputs as string[])], block, from, value } };
    }
    case 'history': {
      const action = HISTORY_ACTIONS.find((a) => a === raw.action);
      if (!action || !str(raw.id, 64)) return bad('history: unknown action or id');
      return { ok: true, value: { type: 'history', action, id: raw.id } };
    }
    case 'inspect':
      if (!str(raw.key, 2048)) return bad('inspect.key is not a signature');
      return { ok: true, value: { type: 'inspect', key: raw.key } };
    case 'rendered':
      if (!str(raw.key, 2048) || !str(raw.status, 16) || !str(raw.text, 100_000)) return bad('rendered: not texts');
      return { ok: true, value: { type: 'rendered', key: raw.key, status: raw.status, text: raw.text } };
    default:
      return bad(`unknown type ${raw.type.slice(0, 40)}`);
  }
}

export function parsePanelState(raw: unknown): Parsed<PanelState> {
  if (!isObject(raw) || raw.v !== 1) return bad('no state');
  if (typeof raw.address !== 'string' || !/^0x[0-9a-f]{40}$/.test(raw.address)) return bad('address is not one');
  return { ok: true, value: { v: 1, address: raw.address } };
}
