/**
 * Messages between the NFT history panel (extension) and its webview, and the state the webview keeps for a
 * window reload. Everything that comes from the webview is checked here before the extension acts on it:
 * types, shapes, lengths and allowed values. Plain TypeScript: no `vscode`, no DOM.
 */
import { isEntityId } from '../../api/validation';
import { TIMESTAMP_RE, type NftRow } from './rows';

export type Order = 'asc' | 'desc';
export type LowerOp = 'gt' | 'gte';
export type UpperOp = 'lt' | 'lte';
export const PAGE_SIZES = [25, 50, 100] as const;

/** The query a panel shows: order, page size and an optional timestamp range (normalised `seconds.nanos`). */
export interface NftQuery {
  order: Order;
  limit: number;
  from?: { op: LowerOp; value: string };
  to?: { op: UpperOp; value: string };
}

/** What the user typed in the filter bar; checked by the extension (ISO dates are accepted and converted). */
export interface QueryInput {
  order: Order;
  limit: number;
  from?: { op: LowerOp; value: string };
  to?: { op: UpperOp; value: string };
}

export type LinkTarget = 'account' | 'transaction' | 'token';

/**
 * What the page reports after it drew rows: rows it has, rows in the DOM, the first and last drawn. Sent only
 * when the panel asked for it (`reportRendered`, test mode).
 */
export interface RenderedReport {
  total: number;
  domRows: number;
  first: number;
  last: number;
}

/** Messages from the webview. Anything else is ignored (and logged). */
export type FromWebview =
  | { type: 'ready' }
  | { type: 'loadMore' }
  | { type: 'refresh' }
  | { type: 'retry' }
  | { type: 'setQuery'; query: QueryInput }
  | { type: 'open'; target: LinkTarget; id: string }
  | { type: 'export'; format: 'csv' | 'json' }
  | ({ type: 'rendered' } & RenderedReport);

/** The pager's status (`PagerStatus` in api/pager.ts, which the webview's type check does not load). */
export type Status = 'loading' | 'loadingMore' | 'idle' | 'error';

/** Everything the webview shows except the rows, sent whole on every change (it is small). */
export interface ViewState {
  nft: { tokenId: string; serial: string };
  network: { name: string; label: string };
  query: NftQuery;
  status: Status;
  /** Rows loaded so far. */
  total: number;
  hasMore: boolean;
  /** HTTP 206: the mirror node's history of this NFT is incomplete (its mint is missing). */
  partial: boolean;
  /** Loading stopped at the memory cap (`maxEntries`). */
  capped: boolean;
  maxEntries: number;
  error?: { message: string; serverMessages: string[] };
  /**
   * Why paging stopped before the server's last page (a next link back to a page already loaded, a page of rows
   * already shown, a next link to another host): one sentence, shown as a warning; no Retry (it would do the same).
   */
  stopped?: string;
  /** The last page came back empty with a next link: "the server returned an empty page; more may follow". */
  emptyPage?: string;
  /** A line above the table (e.g. "Network changed to Testnet"). */
  note?: string;
  /** A problem with the query the user typed (the previous query stays). */
  queryError?: string;
}

/**
 * Messages to the webview. `rows.from === 0` replaces every row, otherwise rows are appended at `from`.
 * `reportRendered` (only in the answer to `ready`, only when something observes the panels: the test seam of
 * ExtensionMode.Test) asks the page to post `rendered` after each update; otherwise it never does.
 */
export type ToWebview = {
  type: 'update';
  state: ViewState;
  rows?: { from: number; items: NftRow[] };
  reportRendered?: true;
};

/** What the webview keeps with `setState` (restored after a window reload by the panel serializer). */
export interface PanelState {
  v: 1;
  tokenId: string;
  serial: string;
  query: NftQuery;
  /** Rows that were loaded (the restore loads as many again, up to the cap). */
  loaded: number;
  scrollTop: number;
  activeRow: number;
  activeCol: number;
}

type Result<T> = { ok: true; value: T } | { ok: false; reason: string };
const ok = <T>(value: T): Result<T> => ({ ok: true, value });
const bad = <T>(reason: string): Result<T> => ({ ok: false, reason });

const isObject = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);
const MAX_STRING = 200;
const isShortString = (v: unknown): v is string => typeof v === 'string' && v.length <= MAX_STRING;
const isCount = (v: unknown, max = 10_000_000): v is number =>
  typeof v === 'number' && Number.isInteger(v) && v >= 0 && v <= max;

function onlyKeys(o: Record<string, unknown>, allowed: string[]): string | undefined {
  const extra = Object.keys(o).filter((k) => !allowed.includes(k));
  return extra.length ? `unexpected field ${extra[0].slice(0, 40)}` : undefined;
}

function checkBound<O extends string>(
  v: unknown,
  ops: readonly O[],
  name: string,
): Result<{ op: O; value: string } | undefined> {
  if (v === undefined || v === null) return ok(undefined);
  if (!isObject(v)) return bad(`${name} is not an object`);
  const extra = onlyKeys(v, ['op', 'value']);
  if (extra) return bad(`${name}: ${extra}`);
  if (typeof v.op !== 'string' || !(ops as readonly string[]).includes(v.op))
    return bad(`${name}.op is not one of ${ops.join(', ')}`);
  if (!isShortString(v.value)) return bad(`${name}.value is not a short string`);
  return ok({ op: v.op as O, value: v.value });
}

/** Checks the shape of a query (values are checked as timestamps by the panel, which reports problems to the user). */
export function checkQueryShape(v: unknown): Result<QueryInput> {
  if (!isObject(v)) return bad('query is not an object');
  const extra = onlyKeys(v, ['order', 'limit', 'from', 'to']);
  if (extra) return bad(`query: ${extra}`);
  if (v.order !== 'asc' && v.order !== 'desc') return bad('query.order is not asc or desc');
  if (typeof v.limit !== 'number' || !Number.isInteger(v.limit) || v.limit < 1 || v.limit > 100)
    return bad('query.limit is not a whole number from 1 to 100');
  const from = checkBound(v.from, ['gt', 'gte'] as const, 'query.from');
  if (!from.ok) return from;
  const to = checkBound(v.to, ['lt', 'lte'] as const, 'query.to');
  if (!to.ok) return to;
  const q: QueryInput = { order: v.order, limit: v.limit };
  if (from.value) q.from = from.value;
  if (to.value) q.to = to.value;
  return ok(q);
}

/** Validates a message from the webview. Returns the typed message, or why it was refused. */
export function parseWebviewMessage(raw: unknown): Result<FromWebview> {
  if (!isObject(raw)) return bad('not an object');
  if (typeof raw.type !== 'string') return bad('no type');
  const type = raw.type;
  switch (type) {
    case 'ready':
    case 'loadMore':
    case 'refresh':
    case 'retry': {
      const extra = onlyKeys(raw, ['type']);
      return extra ? bad(`${type}: ${extra}`) : ok({ type });
    }
    case 'setQuery': {
      const extra = onlyKeys(raw, ['type', 'query']);
      if (extra) return bad(`setQuery: ${extra}`);
      const q = checkQueryShape(raw.query);
      return q.ok ? ok({ type, query: q.value }) : q;
    }
    case 'open': {
      const extra = onlyKeys(raw, ['type', 'target', 'id']);
      if (extra) return bad(`open: ${extra}`);
      if (raw.target !== 'account' && raw.target !== 'transaction' && raw.target !== 'token')
        return bad('open.target is not account, transaction or token');
      if (!isShortString(raw.id) || !raw.id) return bad('open.id is not a short string');
      return ok({ type, target: raw.target, id: raw.id });
    }
    case 'export': {
      const extra = onlyKeys(raw, ['type', 'format']);
      if (extra) return bad(`export: ${extra}`);
      if (raw.format !== 'csv' && raw.format !== 'json') return bad('export.format is not csv or json');
      return ok({ type, format: raw.format });
    }
    case 'rendered': {
      const extra = onlyKeys(raw, ['type', 'total', 'domRows', 'first', 'last']);
      if (extra) return bad(`rendered: ${extra}`);
      if (!isCount(raw.total) || !isCount(raw.domRows) || !isCount(raw.first) || !isCount(raw.last))
        return bad('rendered: counts are not whole numbers');
      return ok({ type, total: raw.total, domRows: raw.domRows, first: raw.first, last: raw.last });
    }
    default:
      return bad(`unknown type ${type.slice(0, 40)}`);
  }
}

const SERIAL = /^[1-9]\d{0,18}$/;
const INT64_MAX = 9223372036854775807n;

/** A query that was already normalised (from a saved state): only `seconds.nanos` values are accepted. */
export function checkSavedQuery(v: unknown): Result<NftQuery> {
  const q = checkQueryShape(v);
  if (!q.ok) return q;
  if (q.value.from && !TIMESTAMP_RE.test(q.value.from.value)) return bad('query.from.value is not a timestamp');
  if (q.value.to && !TIMESTAMP_RE.test(q.value.to.value)) return bad('query.to.value is not a timestamp');
  return q as Result<NftQuery>;
}

/** Validates the state a webview saved (handed back by VS Code after a reload): never trusted as it is. */
export function parsePanelState(raw: unknown): Result<PanelState> {
  if (!isObject(raw)) return bad('no state');
  if (raw.v !== 1) return bad('unknown state version');
  if (typeof raw.tokenId !== 'string' || !isEntityId(raw.tokenId)) return bad('tokenId is not an entity id');
  if (typeof raw.serial !== 'string' || !SERIAL.test(raw.serial) || BigInt(raw.serial) > INT64_MAX)
    return bad('serial is out of range');
  const q = checkSavedQuery(raw.query);
  if (!q.ok) return q;
  const num = (v: unknown, max: number): number =>
    typeof v === 'number' && Number.isFinite(v) && v >= 0 ? Math.min(Math.floor(v), max) : 0;
  return ok({
    v: 1,
    tokenId: raw.tokenId,
    serial: raw.serial,
    query: q.value,
    loaded: num(raw.loaded, 10_000_000),
    scrollTop: num(raw.scrollTop, 1e9),
    activeRow: num(raw.activeRow, 10_000_000),
    activeCol: num(raw.activeCol, 6),
  });
}

/** The key of one NFT's panel. */
export const nftKey = (tokenId: string, serial: string): string => `${tokenId}#${serial}`;
