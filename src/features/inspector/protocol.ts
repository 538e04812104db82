/**
 * Messages between the transaction inspector panel (extension) and its page, and the state the page keeps for a
 * window reload. Everything that comes from the page is checked here before the extension acts on it (types,
 * shapes, lengths, allowed values). Plain TypeScript: no `vscode`, no DOM.
 */
import type {
  EventView,
  LinkKind,
  OverviewModel,
  SectionId,
  SectionState,
  SourceModel,
  StateChangeView,
  TraceRow,
  TransfersModel,
} from '../../api/inspect/model';
import { SECTION_IDS } from '../../api/inspect/model';

export type { SectionId, SectionState };

/** The trace as sent: every row (the page draws only the visible ones). */
export interface TraceModel {
  rows: TraceRow[];
  /** Index (in `rows`) of the deepest failing frame, -1 when none failed. */
  deepestFailure: number;
}

/** What each section holds when ready. */
export interface SectionData {
  overview: OverviewModel;
  source: SourceModel;
  trace: TraceModel;
  events: EventView[];
  state: StateChangeView[];
  transfers: TransfersModel;
}

export type Sections = { [K in SectionId]: SectionState<SectionData[K]> };

/** The raw answers the panel can show as JSON documents. */
export type RawSource = 'result' | 'actions' | 'transaction';
export const RAW_SOURCES: readonly RawSource[] = ['result', 'actions', 'transaction'];

/** The panel's header: what was asked, on which network. */
export interface Header {
  /** As the user gave it, normalised: a transaction id `0.0.x-sss-nnn`, a 0x hash, or a timestamp. */
  ref: string;
  /** `simulation`: a simulated call (`ref` says what was called), no transaction. */
  refKind: 'transactionId' | 'hash' | 'timestamp' | 'simulation';
  /** The transaction's nonce (0 unless a child transaction was opened). */
  nonce: number;
  network: { name: string; label: string };
  /** A line above the sections (e.g. "opened on testnet; the selected network is mainnet"). */
  note?: string;
}

/**
 * Messages to the page. `init` replaces everything (sent in answer to `ready`); `section` replaces one section.
 * `reportRendered` (only in `init`, only in ExtensionMode.Test) asks the page to post `rendered` after each update.
 */
export type ToWebview =
  | { type: 'init'; header: Header; sections: Sections; state: SavedState; reportRendered?: true }
  | { type: 'header'; header: Header }
  | { type: 'section'; id: SectionId; section: Sections[SectionId] };

/** What the page reports after it drew (test mode only). */
export interface RenderedReport {
  /** Sections in state `ready`. */
  ready: SectionId[];
  /** Trace rows known, and trace rows in the DOM (bounded by the virtual list). */
  traceRows: number;
  traceDomRows: number;
  /** Rows of each list drawn: events, state changes, transfers. */
  events: number;
  stateChanges: number;
  transfers: number;
}

/** Messages from the page. Anything else is refused (and logged). */
export type FromWebview =
  | { type: 'ready' }
  | { type: 'retry'; section: SectionId }
  /** Open a transaction of the same id (parent/child) in its own inspector panel. */
  | { type: 'inspect'; transactionId: string; nonce: number }
  /** Open an entity or this transaction on HashScan. */
  | { type: 'hashscan'; kind: LinkKind; id: string }
  | { type: 'copy'; text: string }
  /** Open a place of the Source section in the editor (its `target`), with the revert marked. */
  | { type: 'openSource'; target: number }
  | { type: 'raw'; source: RawSource }
  /** Step through this transaction in VS Code's debugger (the panel names it: the page sends nothing else). */
  | { type: 'debug' }
  | ({ type: 'rendered' } & RenderedReport);

/** What the page keeps with `setState` (restored after a window reload by the panel serializer). */
export interface SavedState {
  v: 1;
  ref: string;
  nonce: number;
  /** The network the panel was opened on (`NetworkName`). */
  network: string;
  /** Trace rows the user collapsed (action indexes), and the page's scroll position. */
  collapsed?: number[];
  scrollTop?: number;
}

type Result<T> = { ok: true; value: T } | { ok: false; reason: string };
const ok = <T>(value: T): Result<T> => ({ ok: true, value });
const bad = <T>(reason: string): Result<T> => ({ ok: false, reason });

const isObject = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);
const isCount = (v: unknown, max = 10_000_000): v is number =>
  typeof v === 'number' && Number.isInteger(v) && v >= 0 && v <= max;
/** Copy accepts long values (call data), but not unbounded ones. */
export const MAX_COPY = 1_000_000;
const LINK_KINDS: readonly LinkKind[] = ['transaction', 'contract', 'account', 'token'];

function onlyKeys(o: Record<string, unknown>, allowed: string[]): string | undefined {
  const extra = Object.keys(o).filter((k) => !allowed.includes(k));
  return extra.length ? `unexpected field ${extra[0].slice(0, 40)}` : undefined;
}

const isSection = (v: unknown): v is SectionId =>
  typeof v === 'string' && (SECTION_IDS as readonly string[]).includes(v);

/** Validates a message from the page. Returns the typed message, or why it was refused. */
export function parseWebviewMessage(raw: unknown): Result<FromWebview> {
  if (!isObject(raw)) return bad('not an object');
  if (typeof raw.type !== 'string') return bad('no type');
  const type = raw.type;
  const extra = (keys: string[]) => onlyKeys(raw, ['type', ...keys]);
  switch (type) {
    case 'ready':
    case 'debug': {
      const e = extra([]);
      return e ? bad(`${type}: ${e}`) : ok({ type });
    }
    case 'retry': {
      const e = extra(['section']);
      if (e) return bad(`retry: ${e}`);
      return isSection(raw.section) ? ok({ type, section: raw.section }) : bad('retry.section is not a section');
    }
    case 'inspect': {
      const e = extra(['transactionId', 'nonce']);
      if (e) return bad(`inspect: ${e}`);
      if (typeof raw.transactionId !== 'string' || raw.transactionId.length > 80)
        return bad('inspect.transactionId is not a short string');
      if (!isCount(raw.nonce, 2147483647)) return bad('inspect.nonce is not a whole number');
      return ok({ type, transactionId: raw.transactionId, nonce: raw.nonce });
    }
    case 'hashscan': {
      const e = extra(['kind', 'id']);
      if (e) return bad(`hashscan: ${e}`);
      if (typeof raw.kind !== 'string' || !(LINK_KINDS as readonly string[]).includes(raw.kind))
        return bad('hashscan.kind is not a link kind');
      if (typeof raw.id !== 'string' || !raw.id || raw.id.length > 100) return bad('hashscan.id is not a short string');
      return ok({ type, kind: raw.kind as LinkKind, id: raw.id });
    }
    case 'copy': {
      const e = extra(['text']);
      if (e) return bad(`copy: ${e}`);
      if (typeof raw.text !== 'string' || raw.text.length > MAX_COPY)
        return bad('copy.text is not a string of at most 1,000,000 characters');
      return ok({ type, text: raw.text });
    }
    case 'openSource': {
      const e = extra(['target']);
      if (e) return bad(`openSource: ${e}`);
      return isCount(raw.target, 100_000)
        ? ok({ type, target: raw.target })
        : bad('openSource.target is not a whole number');
    }
    case 'raw': {
      const e = extra(['source']);
      if (e) return bad(`raw: ${e}`);
      if (typeof raw.source !== 'string' || !(RAW_SOURCES as readonly string[]).includes(raw.source))
        return bad('raw.source is not result, actions or transaction');
      return ok({ type, source: raw.source as RawSource });
    }
    case 'rendered': {
      const e = extra(['ready', 'traceRows', 'traceDomRows', 'events', 'stateChanges', 'transfers']);
      if (e) return bad(`rendered: ${e}`);
      if (!Array.isArray(raw.ready) || !raw.ready.every(isSection))
        return bad('rendered.ready is not a list of sections');
      if (![raw.traceRows, raw.traceDomRows, raw.events, raw.stateChanges, raw.transfers].every((n) => isCount(n)))
        return bad('rendered: counts are not whole numbers');
      return ok({
        type,
        ready: raw.ready as SectionId[],
        traceRows: raw.traceRows as number,
        traceDomRows: raw.traceDomRows as number,
        events: raw.events as number,
        stateChanges: raw.stateChanges as number,
        transfers: raw.transfers as number,
      });
    }
    default:
      return bad(`unknown type ${type.slice(0, 40)}`);
  }
}

/** Validates the state a page saved (handed back by VS Code after a reload): never trusted as it is. */
export function parseSavedState(raw: unknown): Result<SavedState> {
  if (!isObject(raw)) return bad('no state');
  if (raw.v !== 1) return bad('unknown state version');
  if (typeof raw.ref !== 'string' || !raw.ref || raw.ref.length > 200) return bad('ref is not a short string');
  if (!isCount(raw.nonce, 2147483647)) return bad('nonce is not a whole number');
  if (typeof raw.network !== 'string' || !/^[a-z]{1,20}$/.test(raw.network))
    return bad('network is not a network name');
  const collapsed = Array.isArray(raw.collapsed)
    ? raw.collapsed.filter((n): n is number => isCount(n)).slice(0, 100_000)
    : undefined;
  const scrollTop =
    typeof raw.scrollTop === 'number' && Number.isFinite(raw.scrollTop) && raw.scrollTop >= 0
      ? Math.min(Math.floor(raw.scrollTop), 1e9)
      : undefined;
  return ok({ v: 1, ref: raw.ref, nonce: raw.nonce, network: raw.network, collapsed, scrollTop });
}
