/**
 * The sandbox: one local HTTP server emulating the mirror node REST API (/api/v1), the Hedera status page
 * (Statuspage v2, /api/v2), Sourcify (session import and API v2) and a tiny HashScan stand-in, with
 * deterministic generated data, fault injection and request recording. Plain node:http, no vscode.
 */
import * as http from 'node:http';
import type { AddressInfo } from 'node:net';
import { type Reply, htmlEscape, jsonReply, parseQuery } from './http';
import { toJson } from './json';
import { type MirrorData, generateMirrorData, handleMirror } from './mirror/api';
import { type AddContractResultsOptions, type AddedContractResult, addContractResults } from './mirror/contracts';
import { SCENARIOS, type StatusScenario, handleStatusPage } from './statuspage';
import { SourcifyV2, VERIFY_ADDRESSES, handleSessionVerify } from './sourcify';
import {
  HOSTILE_FAMILIES,
  HOSTILE_TEXTS,
  type HostileCtx,
  type HostileFamily,
  type HostileOption,
  MIX_TEXT,
  hostileErrorReply,
  parseHostileHeader,
  parseHostileOption,
  redirectApplies,
  redirectReply,
} from './hostile';
import { hostileNotable } from './mirror/api';
import { inspectorNotable } from './mirror/scenarios';
import { lookupNotable } from './mirror/entities';
import { inspectorRuns } from './mirror/executions';
import { contractCall } from './mirror/call';

export { HOSTILE_FAMILIES, HOSTILE_TEXTS, MIX_TEXT } from './hostile';
export type { HostileFamily, HostileOption } from './hostile';

export type { StatusScenario } from './statuspage';
export type { AddContractResultsOptions, AddedContractResult } from './mirror/contracts';

export interface SandboxOptions {
  port?: number /* 0 = free port */;
  host?: string /* default '127.0.0.1', only loopback allowed */;
  statusScenario?: StatusScenario;
  log?: (line: string) => void;
  /** Add one new contract result every N seconds (Follow mode demos); off by default so data stays deterministic. */
  liveSeconds?: number;
  /** Hostile mode for the whole run (README.md): true = every family, or the families to turn on. Off by default. */
  hostile?: HostileOption;
  /**
   * `GET /api/v1/contracts/results/{id}/opcodes` served (default true); false answers as a mirror node with the
   * endpoint off (`hiero.mirror.web3.opcode.tracer.enabled: false`). CLI `--opcodes=off`.
   */
  opcodes?: boolean;
  /**
   * `POST /api/v1/contracts/call` served (default true); false answers 501, as a mirror node without the endpoint.
   * CLI `--contract-call=off`.
   */
  contractCall?: boolean;
  /**
   * The placement ledger (mirror/placement.ts): the placement matrix's contracts deployed and every case executed,
   * per compiler setting; `workspace`: a folder to write the Hardhat 2 project of those deployments into. Off by
   * default (it compiles or reads the matrix's builds and runs a few hundred transactions). CLI `--placement[=<dir>]`.
   */
  placement?: boolean | { workspace?: string };
}
export interface Fault {
  delayMs?: number;
  status?: number;
  retryAfter?: string /* Retry-After header value */;
  body?: 'malformed' | 'truncated' | 'html' | 'empty' | 'oversize';
  reset?: boolean /* destroy the socket without answering */;
}
export interface FaultRule {
  path: string /* prefix of the request path, e.g. '/api/v1/schedules' */;
  method?: string;
  times?: number /* default 1; how many matching requests get it */;
  fault: Fault;
}
export interface RecordedRequest {
  method: string;
  url: string /* path + query */;
  headers: Record<string, string | string[] | undefined>;
  /** The Host header as received (`127.0.0.1:PORT`, `localhost:PORT`, ...): shows which origin a client reached. */
  host: string | null;
  /** Hostile families in effect for this request (run or header); absent when none. */
  hostile?: HostileFamily[];
  body?: string;
  at: number;
}
export interface Sandbox {
  url: string /* http://127.0.0.1:PORT, no trailing slash */;
  port: number;
  close(): Promise<void>;
  addFault(rule: FaultRule): void;
  clearFaults(): void;
  setStatusScenario(s: StatusScenario): void;
  requests(): RecordedRequest[];
  clearRequests(): void;
  /** Appends new top-level contract results timestamped now, after every existing one (throws on invalid options). */
  addContractResults(opts?: AddContractResultsOptions): { added: AddedContractResult[] };
  /** Sets the run's hostile families (true = all, false = none); returns them. Throws on an unknown family. */
  setHostile(opt: HostileOption): HostileFamily[];
  /** The run's hostile families (empty when off). */
  hostile(): HostileFamily[];
  /** Serves the opcodes endpoint (true) or answers as a mirror node with it off (false); returns the setting. */
  setOpcodes(enabled: boolean): boolean;
  /** Whether the opcodes endpoint is served. */
  opcodes(): boolean;
  /** Serves `POST /contracts/call` (true) or answers 501 (false); returns the setting. */
  setContractCall(enabled: boolean): boolean;
}

const LOOPBACK = new Set(['127.0.0.1', 'localhost', '::1']);
const MAX_RECORDED = 5000;
const MAX_BODY = 16 * 1024 * 1024;
const CORS = {
  'Access-Control-Allow-Origin': '*',
  'Access-Control-Allow-Methods': 'GET, HEAD, POST, DELETE, OPTIONS',
  'Access-Control-Allow-Headers': 'Content-Type, Accept, If-None-Match, x-sandbox-fault, x-sandbox-hostile',
  'Access-Control-Expose-Headers': 'ETag, Link, Retry-After, Location',
};

/** Checks a fault from JSON (HTTP control route or header); returns an error text or null. */
export function checkFault(f: unknown): string | null {
  if (typeof f !== 'object' || f === null || Array.isArray(f)) return 'fault must be an object';
  const x = f as Record<string, unknown>;
  if (x.delayMs !== undefined && (typeof x.delayMs !== 'number' || !(x.delayMs >= 0) || x.delayMs > 600_000))
    return 'fault.delayMs must be a number 0..600000';
  if (
    x.status !== undefined &&
    (typeof x.status !== 'number' || !Number.isInteger(x.status) || x.status < 200 || x.status > 599)
  )
    return 'fault.status must be an integer 200..599';
  if (x.retryAfter !== undefined && typeof x.retryAfter !== 'string') return 'fault.retryAfter must be a string';
  if (x.body !== undefined && !['malformed', 'truncated', 'html', 'empty', 'oversize'].includes(x.body as string))
    return "fault.body must be 'malformed', 'truncated', 'html', 'empty' or 'oversize'";
  if (x.reset !== undefined && typeof x.reset !== 'boolean') return 'fault.reset must be a boolean';
  return null;
}

export function checkFaultRule(r: unknown): string | null {
  if (typeof r !== 'object' || r === null) return 'rule must be an object';
  const x = r as Record<string, unknown>;
  if (typeof x.path !== 'string' || !x.path.startsWith('/')) return "rule.path must be a path starting with '/'";
  if (x.method !== undefined && typeof x.method !== 'string') return 'rule.method must be a string';
  if (x.times !== undefined && (typeof x.times !== 'number' || !Number.isInteger(x.times) || x.times < 1))
    return 'rule.times must be a positive integer';
  return checkFault(x.fault);
}

const STATUS_MESSAGES: Record<number, string> = {
  400: 'Bad request',
  401: 'Unauthorized',
  403: 'Forbidden',
  404: 'Not found',
  408: 'Request timeout',
  429: 'Too many requests',
  500: 'Internal error',
  502: 'Bad gateway',
  503: 'Service unavailable',
  504: 'Gateway timeout',
};

/** The error body a real service would send with this status (used by faults without a body kind). */
function faultErrorReply(path: string, status: number): Reply {
  const message = STATUS_MESSAGES[status] ?? http.STATUS_CODES[status] ?? 'Error';
  if (status < 400) return jsonReply(status, {});
  if (path.startsWith('/api/v1')) return jsonReply(status, { _status: { messages: [{ message }] } });
  if (path.startsWith('/api/v2')) return jsonReply(status, { error: message });
  if (/^(\/server)?\/v2\//.test(path))
    return jsonReply(status, {
      customCode: status === 429 ? 'too_many_requests' : 'internal_error',
      message,
      errorId: '1ac6b91a-0605-4459-93dc-18f210a70192',
    });
  return jsonReply(status, { error: message, message });
}

function htmlPage(status: number): string {
  if (status === 502 || status === 504 || status === 503) {
    const text = `${status} ${http.STATUS_CODES[status]}`;
    return `<html>\r\n<head><title>${text}</title></head>\r\n<body>\r\n<center><h1>${text}</h1></center>\r\n<hr><center>nginx</center>\r\n</body>\r\n</html>\r\n`;
  }
  if (status === 429 || status === 403) {
    return `<!DOCTYPE html>\n<html lang="en"><head><meta charset="utf-8"><title>Access denied | rate limited</title></head>\n<body><h1>Error ${status}</h1><p>You are being rate limited. Please slow down.</p></body></html>\n`;
  }
  if (status >= 400) {
    return `<!DOCTYPE html>\n<html><head><title>${status} ${http.STATUS_CODES[status] ?? 'Error'}</title></head><body><h1>${status} ${http.STATUS_CODES[status] ?? 'Error'}</h1></body></html>\n`;
  }
  // a 200 HTML page where JSON was expected: a captive portal or a proxy login page
  return `<!DOCTYPE html>\n<html lang="en"><head><meta charset="utf-8"><title>Sign in to network</title></head>\n<body><form action="/login" method="post"><h1>Welcome to Hotel Wi-Fi</h1><p>Please accept the terms to continue.</p><button>Accept</button></form></body></html>\n`;
}

/** The size of an `oversize` fault's body: past the extension's 32 MiB cap on one answer. */
const OVERSIZE_BYTES = 33 * 1024 * 1024;

/** Garbage that breaks JSON wherever it is cut: a raw control character is invalid inside and outside strings. */
const GARBAGE = '\u0001#!~@{{<<';

function applyFault(path: string, normal: Reply, fault: Fault): { reply: Reply; truncate: boolean } {
  let reply = normal;
  if (fault.status !== undefined) reply = faultErrorReply(path, fault.status);
  const status = reply.status;
  let truncate = false;
  switch (fault.body) {
    case 'malformed': {
      const cut = Math.max(12, Math.floor(reply.body.length / 3));
      reply = {
        status,
        headers: { 'Content-Type': 'application/json; charset=utf-8' },
        body: reply.body.slice(0, cut) + GARBAGE,
      };
      break;
    }
    case 'truncated':
      truncate = true;
      break;
    case 'html':
      reply = { status, headers: { 'Content-Type': 'text/html; charset=utf-8' }, body: htmlPage(status) };
      break;
    case 'empty':
      reply = { status, headers: { 'Content-Type': 'application/json; charset=utf-8' }, body: '' };
      break;
    case 'oversize':
      // valid JSON past the clients' 32 MiB cap on an answer
      reply = {
        status,
        headers: { 'Content-Type': 'application/json; charset=utf-8' },
        body: `{"padding":"${'x'.repeat(OVERSIZE_BYTES)}"}`,
      };
      break;
    default:
      break;
  }
  if (fault.retryAfter !== undefined)
    reply = { ...reply, headers: { ...reply.headers, 'Retry-After': fault.retryAfter } };
  return { reply, truncate };
}

/** Hides secrets in a request body for the server log: `address: 0x.., chainId: 296, apiKey: [hidden]`. */
function describeBody(body: string): string {
  try {
    const v = JSON.parse(body) as unknown;
    if (typeof v !== 'object' || v === null || Array.isArray(v)) return '[body]';
    return Object.entries(v as Record<string, unknown>)
      .map(
        ([k, val]) =>
          `${k}: ${/key|secret|token|password/i.test(k) ? '[hidden]' : typeof val === 'object' && val !== null ? '{…}' : String(val).slice(0, 80)}`,
      )
      .join(', ');
  } catch {
    return `[${Buffer.byteLength(body)} bytes]`;
  }
}

function parseJsonBody(body: string): { ok: true; value: unknown } | { ok: false; message: string } {
  if (body.trim() === '') return { ok: true, value: {} };
  try {
    return { ok: true, value: JSON.parse(body) as unknown };
  } catch (e) {
    return { ok: false, message: (e as Error).message };
  }
}

/** Ids the demo and the tests use (also served by GET /__sandbox/health). */
export function notable(data: MirrorData): Record<string, unknown> {
  const c = data.contracts;
  const aliasSender = c.senders.find((s) => s.alias);
  const nativeSender = c.senders.find((s) => !s.alias);
  return {
    contractResults: {
      ...c.notable,
      aliasSender: aliasSender && { id: `0.0.${aliasSender.num}`, evm: '0x' + aliasSender.evm },
      nativeSender: nativeSender && `0.0.${nativeSender.num}`,
    },
    schedules: data.schedules.notable,
    nfts: data.nfts.notable,
    inspector: inspectorNotable(data.contracts),
    ...(data.placement ? { placement: data.placement } : {}),
    lookups: lookupNotable(data),
    verify: VERIFY_ADDRESSES,
  };
}

export async function startSandbox(opts: SandboxOptions = {}): Promise<Sandbox> {
  const host = opts.host ?? '127.0.0.1';
  if (!LOOPBACK.has(host))
    throw new Error(`The sandbox only listens on loopback (127.0.0.1, ::1, localhost), not ${host}`);
  if (opts.statusScenario !== undefined && !SCENARIOS.includes(opts.statusScenario))
    throw new Error(`Unknown status scenario: ${opts.statusScenario}`);
  if (
    opts.liveSeconds !== undefined &&
    !(typeof opts.liveSeconds === 'number' && opts.liveSeconds > 0 && opts.liveSeconds <= 86400)
  )
    throw new Error(`liveSeconds must be a number of seconds in (0, 86400], not ${String(opts.liveSeconds)}`);
  const log = opts.log ?? ((): void => undefined);
  const initialHostile = parseHostileOption(opts.hostile);
  if ('error' in initialHostile) throw new Error(initialHostile.error);
  let hostileRun: Set<HostileFamily> = initialHostile.families;
  if (opts.opcodes !== undefined && typeof opts.opcodes !== 'boolean')
    throw new Error(`opcodes must be a boolean, not ${String(opts.opcodes)}`);
  let opcodesOn = opts.opcodes ?? true;
  if (opts.contractCall !== undefined && typeof opts.contractCall !== 'boolean')
    throw new Error(`contractCall must be a boolean, not ${String(opts.contractCall)}`);
  let contractCallOn = opts.contractCall ?? true;
  /** Targets of redirects sent (`host/path?query`): a client that follows one is served normally there. */
  const redirected = new Set<string>();
  const t0 = performance.now();
  // the inspector's scenarios executed for real (once per process: @ethereumjs loads on the first start)
  const data: MirrorData = generateMirrorData(Date.now(), await inspectorRuns());
  if (opts.placement) {
    const { addPlacement, placementLedger, writePlacementWorkspace } = await import('./mirror/placement');
    const ledger = await placementLedger();
    data.placement = addPlacement(data.contracts, ledger);
    data.generatedAll = data.contracts.all.length;
    const workspace = typeof opts.placement === 'object' ? opts.placement.workspace : undefined;
    if (workspace) {
      writePlacementWorkspace(workspace, ledger);
      log(`placement workspace: ${workspace}`);
    }
  }
  const startupMs = Math.round(performance.now() - t0);
  const sourcify = new SourcifyV2();
  let scenario: StatusScenario = opts.statusScenario ?? 'operational';
  let rules: (FaultRule & { left: number })[] = [];
  let recorded: RecordedRequest[] = [];
  const timers = new Set<NodeJS.Timeout>();
  let liveAdded = 0;

  const addResults = (o: AddContractResultsOptions = {}): { added: AddedContractResult[] } => {
    const added = addContractResults(data.contracts, Date.now(), o);
    liveAdded += added.length;
    for (const a of added) log(`contract result added: ${a.timestamp} ${a.contract_id} ${a.hash}`);
    return { added };
  };

  const takeFault = (method: string, path: string): Fault | undefined => {
    const i = rules.findIndex((r) => path.startsWith(r.path) && (!r.method || r.method.toUpperCase() === method));
    if (i < 0) return undefined;
    const r = rules[i];
    if (--r.left <= 0) rules.splice(i, 1);
    return r.fault;
  };

  const addFault = (rule: FaultRule): void => {
    const problem = checkFaultRule(rule);
    if (problem) throw new Error(problem);
    rules.push({ ...rule, fault: { ...rule.fault }, left: rule.times ?? 1 });
  };

  const setHostile = (opt: HostileOption): HostileFamily[] => {
    const r = parseHostileOption(opt);
    if ('error' in r) throw new Error(r.error);
    hostileRun = r.families;
    log(`hostile: ${hostileRun.size ? [...hostileRun].join(', ') : 'off'}`);
    return [...hostileRun];
  };
  const hostileState = (): Record<string, unknown> => ({
    on: hostileRun.size > 0,
    families: [...hostileRun],
    available: HOSTILE_FAMILIES,
  });

  const control = (method: string, path: string, body: string): Reply => {
    const parsed = parseJsonBody(body);
    switch (`${method} ${path}`) {
      case 'GET /__sandbox/hostile':
        return jsonReply(200, {
          ...hostileState(),
          payloads: HOSTILE_TEXTS.map((p, i) => ({ index: i, id: p.id, text: p.text })),
          mix: MIX_TEXT,
          notable: {
            ...hostileNotable(data),
            verify: {
              alreadyVerifiedButMatch: [VERIFY_ADDRESSES.alreadyVerified, VERIFY_ADDRESSES.partial],
              commandLinkError: VERIFY_ADDRESSES.notVerified,
            },
          },
        });
      case 'POST /__sandbox/hostile': {
        if (!parsed.ok) return jsonReply(400, { error: `Invalid JSON: ${parsed.message}` });
        const v = parsed.value as Record<string, unknown>;
        if (typeof v !== 'object' || v === null || Array.isArray(v))
          return jsonReply(400, { error: 'body must be {"on": boolean} or {"families": [...]}' });
        const extra = Object.keys(v).filter((k) => k !== 'on' && k !== 'families');
        if (extra.length) return jsonReply(400, { error: `unknown field ${extra[0]} (expected on, families)` });
        if (v.on !== undefined && typeof v.on !== 'boolean') return jsonReply(400, { error: 'on must be a boolean' });
        if (v.on === undefined && v.families === undefined)
          return jsonReply(400, { error: 'body must be {"on": boolean} or {"families": [...]}' });
        try {
          if (v.on === false) setHostile(false);
          else if (v.families !== undefined) {
            if (!Array.isArray(v.families) && (typeof v.families !== 'object' || v.families === null))
              return jsonReply(400, { error: 'families must be a list of family names' });
            setHostile(v.families as HostileOption);
          } else setHostile(true);
        } catch (e) {
          return jsonReply(400, { error: (e as Error).message });
        }
        return jsonReply(200, hostileState());
      }
      case 'DELETE /__sandbox/hostile':
        setHostile(false);
        return jsonReply(200, hostileState());
      case 'GET /__sandbox/opcodes':
        return jsonReply(200, { enabled: opcodesOn });
      case 'POST /__sandbox/opcodes': {
        if (!parsed.ok) return jsonReply(400, { error: `Invalid JSON: ${parsed.message}` });
        const v = parsed.value as Record<string, unknown>;
        if (
          typeof v !== 'object' ||
          v === null ||
          Array.isArray(v) ||
          typeof v.enabled !== 'boolean' ||
          Object.keys(v).length !== 1
        )
          return jsonReply(400, { error: 'body must be {"enabled": boolean}' });
        opcodesOn = v.enabled;
        log(`opcodes endpoint: ${opcodesOn ? 'on' : 'off'}`);
        return jsonReply(200, { enabled: opcodesOn });
      }
      case 'POST /__sandbox/contract-call': {
        const v = parsed.ok ? (parsed.value as Record<string, unknown>) : undefined;
        if (!v || typeof v !== 'object' || Array.isArray(v) || typeof v.enabled !== 'boolean')
          return jsonReply(400, { error: 'body must be {"enabled": boolean}' });
        contractCallOn = v.enabled;
        log(`contracts/call endpoint: ${contractCallOn ? 'on' : 'off'}`);
        return jsonReply(200, { enabled: contractCallOn });
      }
      case 'GET /__sandbox/health':
        return jsonReply(200, {
          status: 'ok',
          opcodes: opcodesOn,
          contractCall: contractCallOn,
          startupMs,
          scenario,
          faults: rules.length,
          recorded: recorded.length,
          live: { intervalSeconds: opts.liveSeconds ?? null, added: liveAdded },
          hostile: [...hostileRun],
          data: {
            contractResults: data.contracts.top.length,
            internalResults: data.contracts.all.length - data.contracts.top.length,
            schedules: data.schedules.rows.length,
            nftHistories: data.nfts.histories.size,
          },
          notable: notable(data),
        });
      case 'POST /__sandbox/faults': {
        if (!parsed.ok) return jsonReply(400, { error: `Invalid JSON: ${parsed.message}` });
        const problem = checkFaultRule(parsed.value);
        if (problem) return jsonReply(400, { error: problem });
        addFault(parsed.value as FaultRule);
        return jsonReply(201, { ok: true, faults: rules.length });
      }
      case 'GET /__sandbox/faults':
        return jsonReply(
          200,
          rules.map(({ left, ...r }) => ({ ...r, times: left })),
        );
      case 'DELETE /__sandbox/faults':
        rules = [];
        return jsonReply(200, { ok: true });
      case 'POST /__sandbox/status': {
        const s = parsed.ok ? (parsed.value as { scenario?: unknown }).scenario : undefined;
        if (typeof s !== 'string' || !SCENARIOS.includes(s as StatusScenario))
          return jsonReply(400, { error: `scenario must be one of ${SCENARIOS.join(', ')}` });
        scenario = s as StatusScenario;
        log(`status scenario: ${scenario}`);
        return jsonReply(200, { scenario });
      }
      case 'GET /__sandbox/status':
        return jsonReply(200, { scenario });
      case 'POST /__sandbox/contracts/results': {
        if (!parsed.ok) return jsonReply(400, { error: `Invalid JSON: ${parsed.message}` });
        const v = parsed.value;
        if (typeof v !== 'object' || v === null || Array.isArray(v))
          return jsonReply(400, { error: 'body must be a JSON object {count?, contract?, revert?}' });
        const extra = Object.keys(v).filter((k) => !['count', 'contract', 'revert'].includes(k));
        if (extra.length)
          return jsonReply(400, { error: `unknown field ${extra[0]} (expected count, contract, revert)` });
        try {
          return jsonReply(201, addResults(v as AddContractResultsOptions));
        } catch (e) {
          return jsonReply(400, { error: (e as Error).message });
        }
      }
      case 'GET /__sandbox/requests':
        return jsonReply(200, recorded);
      case 'DELETE /__sandbox/requests':
        recorded = [];
        return jsonReply(200, { ok: true });
      default:
        return jsonReply(404, { error: 'Not found', message: `No sandbox control route for ${method} ${path}` });
    }
  };

  const route = (
    method: string,
    path: string,
    search: string,
    body: string,
    nowMs: number,
    h: HostileCtx | undefined,
    acceptEncoding: string | undefined,
  ): Reply | Promise<Reply> => {
    const pairs = parseQuery(search);
    if (path === '/api/v1' || path.startsWith('/api/v1/'))
      return handleMirror(data, method, path, pairs, nowMs, h, { acceptEncoding, opcodes: opcodesOn });
    if (path.startsWith('/api/v2/')) return handleStatusPage(scenario, method, path, nowMs, h);
    const p = path.replace(/^\/server(?=\/(session|v2)\/)/, '');
    let m = /^\/session\/verify\/([^/]+)\/?$/.exec(p);
    if (m && method === 'POST') {
      const parsed = parseJsonBody(body);
      if (!parsed.ok) return jsonReply(400, { error: parsed.message, message: parsed.message });
      return handleSessionVerify(decodeURIComponent(m[1]), parsed.value, h);
    }
    m = /^\/v2\/verify\/(?:(metadata|etherscan)\/)?([^/]+)\/([^/]+)\/?$/.exec(p);
    if (m && method === 'POST') {
      const parsed = parseJsonBody(body);
      if (!parsed.ok)
        return jsonReply(400, {
          customCode: 'invalid_json',
          message: parsed.message,
          errorId: '1ac6b91a-0605-4459-93dc-18f210a70192',
        });
      const kind = m[1] === 'metadata' ? 'metadata' : m[1] === 'etherscan' ? 'etherscan' : 'std';
      return sourcify.submit(kind, m[2], m[3], parsed.value, nowMs, h);
    }
    m = /^\/v2\/verify\/([^/]+)\/?$/.exec(p);
    if (m && (method === 'GET' || method === 'HEAD')) return sourcify.job(m[1], nowMs, h);
    m = /^\/v2\/contract\/([^/]+)\/([^/]+)\/?$/.exec(p);
    if (m && (method === 'GET' || method === 'HEAD')) return sourcify.contract(m[1], m[2], h, nowMs, pairs);
    if ((path === '/hashscan' || path.startsWith('/hashscan/')) && (method === 'GET' || method === 'HEAD')) {
      let shown = path;
      try {
        shown = decodeURIComponent(path);
      } catch {
        /* keep the raw path */
      }
      const text = htmlEscape(`Sandbox explorer: ${shown}`);
      return {
        status: 200,
        headers: { 'Content-Type': 'text/html; charset=utf-8' },
        body: `<!DOCTYPE html>\n<html lang="en"><head><meta charset="utf-8"><title>${text}</title></head>\n<body><h1>${text}</h1><p>This page stands in for HashScan on the sandbox network.</p></body></html>\n`,
      };
    }
    if (path === '/' && (method === 'GET' || method === 'HEAD')) {
      return jsonReply(200, {
        name: 'Hedera Explorer sandbox',
        mirror: '/api/v1',
        status: '/api/v2',
        verify: '/session/verify/etherscan, /v2/verify',
        explorer: '/hashscan',
        control: '/__sandbox',
      });
    }
    return jsonReply(404, { error: 'Not found', message: `No sandbox route for ${method} ${path}` });
  };

  const write = (req: http.IncomingMessage, res: http.ServerResponse, reply: Reply, truncate: boolean): void => {
    if (res.destroyed || res.writableEnded) return;
    const headers: Record<string, string | number> = { ...CORS, ...reply.headers };
    const bytes = Buffer.from(reply.body, 'utf8');
    const etagValue = reply.headers.ETag;
    if (
      !truncate &&
      req.method === 'GET' &&
      reply.status === 200 &&
      etagValue &&
      req.headers['if-none-match'] === etagValue
    ) {
      res.writeHead(304, {
        ...CORS,
        ETag: etagValue,
        ...(reply.headers['cache-control'] ? { 'cache-control': reply.headers['cache-control'] } : {}),
      });
      res.end();
      return;
    }
    headers['Content-Length'] = bytes.length;
    res.writeHead(reply.status, headers);
    if (req.method === 'HEAD') {
      res.end();
      return;
    }
    if (truncate) {
      // announce the full length, send part of it, then drop the connection
      res.write(bytes.subarray(0, Math.floor(bytes.length / 2)), () => setTimeout(() => res.socket?.destroy(), 10));
      return;
    }
    res.end(bytes);
  };

  const handle = async (req: http.IncomingMessage, res: http.ServerResponse, body: string): Promise<void> => {
    const started = performance.now();
    const method = (req.method ?? 'GET').toUpperCase();
    const rawUrl = req.url ?? '/';
    const q = rawUrl.indexOf('?');
    const path = q < 0 ? rawUrl : rawUrl.slice(0, q);
    const search = q < 0 ? '' : rawUrl.slice(q);
    if (method === 'OPTIONS') {
      res.writeHead(204, { ...CORS, 'Access-Control-Max-Age': '600', 'Content-Length': 0 });
      res.end();
      return;
    }
    if (path.startsWith('/__sandbox/')) {
      write(req, res, control(method, path, body), false);
      return;
    }
    const host = typeof req.headers.host === 'string' ? req.headers.host : null;
    const entry: RecordedRequest = { method, url: rawUrl, headers: { ...req.headers }, host, at: Date.now() };
    if (body !== '') entry.body = body;
    recorded.push(entry);
    if (recorded.length > MAX_RECORDED) recorded.splice(0, recorded.length - MAX_RECORDED);

    // hostile families of this request: the x-sandbox-hostile header replaces the run's set
    let families: ReadonlySet<HostileFamily> = hostileRun;
    const hostileHeader = req.headers['x-sandbox-hostile'];
    if (typeof hostileHeader === 'string') {
      const r = parseHostileHeader(hostileHeader);
      if ('error' in r) {
        write(req, res, jsonReply(400, { error: `Invalid x-sandbox-hostile header: ${r.error}` }), false);
        return;
      }
      families = r.families;
    }
    const h: HostileCtx | undefined = families.size
      ? { families, rawUrl, host: host ?? undefined, port: (server.address() as AddressInfo).port }
      : undefined;
    if (h) entry.hostile = [...families];

    let fault: Fault | undefined;
    const header = req.headers['x-sandbox-fault'];
    if (typeof header === 'string' && header.trim() !== '') {
      let parsed: unknown;
      try {
        parsed = JSON.parse(header);
      } catch {
        parsed = undefined;
      }
      const problem = parsed === undefined ? 'x-sandbox-fault is not JSON' : checkFault(parsed);
      if (problem) {
        write(req, res, jsonReply(400, { error: `Invalid x-sandbox-fault header: ${problem}` }), false);
        return;
      }
      fault = parsed as Fault;
    } else {
      fault = takeFault(method, path);
    }

    if (fault?.delayMs) {
      const ms = fault.delayMs;
      await new Promise<void>((resolve) => {
        const t = setTimeout(() => {
          timers.delete(t);
          resolve();
        }, ms);
        timers.add(t);
        res.once('close', () => {
          clearTimeout(t);
          timers.delete(t);
          resolve();
        });
      });
      if (res.destroyed) return;
    }
    if (fault?.reset) {
      log(`${method} ${rawUrl} -> reset (fault)`);
      req.socket.destroy();
      return;
    }
    const nowMs = Date.now();
    let reply: Reply;
    const arrivedAt = `${(host ?? '').toLowerCase()}${rawUrl}`;
    if (h && redirectApplies(h, method, path) && !redirected.has(arrivedAt)) {
      reply = redirectReply(h);
      const target = new URL(reply.headers.Location);
      if (redirected.size >= MAX_RECORDED) redirected.clear();
      redirected.add(`${target.host}${rawUrl}`);
      write(req, res, reply, false);
      log(`${method} ${rawUrl} -> 302 ${reply.headers.Location} (hostile redirect)`);
      return;
    }
    try {
      const acceptEncoding = req.headers['accept-encoding'];
      const contentType = req.headers['content-type'];
      reply =
        method === 'POST' && /^\/api\/v1\/contracts\/call\/?$/.test(path)
          ? await contractCall(data, body, contentType, contractCallOn)
          : await route(
              method,
              path,
              search,
              body,
              nowMs,
              h,
              typeof acceptEncoding === 'string' ? acceptEncoding : undefined,
            );
    } catch (e) {
      log(`${method} ${rawUrl} -> 500 ${(e as Error).stack ?? e}`);
      reply = path.startsWith('/api/v1')
        ? jsonReply(500, { _status: { messages: [{ message: 'Internal error' }] } })
        : jsonReply(500, { error: 'Internal error' });
    }
    let truncate = false;
    if (fault && (fault.status !== undefined || fault.body !== undefined || fault.retryAfter !== undefined))
      ({ reply, truncate } = applyFault(path, reply, fault));
    if (h?.families.has('text') && !path.startsWith('/hashscan')) reply = hostileErrorReply(path, reply);
    write(req, res, reply, truncate);
    const note = fault ? ` (fault ${toJson(fault)})` : '';
    const bodyNote = body !== '' ? ` {${describeBody(body)}}` : '';
    log(
      `${method} ${rawUrl}${bodyNote} -> ${reply.status}${truncate ? ' truncated' : ''} ${Math.round(performance.now() - started)}ms${note}`,
    );
  };

  const server = http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    let size = 0;
    req.on('data', (c: Buffer) => {
      size += c.length;
      if (size <= MAX_BODY) chunks.push(c);
    });
    req.on('end', () => {
      if (size > MAX_BODY) {
        write(req, res, jsonReply(413, { error: 'Request body too large' }), false);
        return;
      }
      handle(req, res, Buffer.concat(chunks).toString('utf8')).catch((e: unknown) => {
        log(`internal error: ${(e as Error).stack ?? String(e)}`);
        if (!res.headersSent) write(req, res, jsonReply(500, { error: 'Internal error' }), false);
        else res.destroy();
      });
    });
    req.on('error', () => res.destroy());
  });
  server.keepAliveTimeout = 65_000;

  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(opts.port ?? 0, host === 'localhost' ? '127.0.0.1' : host, () => {
      server.off('error', reject);
      resolve();
    });
  });
  const port = (server.address() as AddressInfo).port;
  // Best effort: the same port on the other loopback family, so that `localhost` reaches the sandbox whichever
  // address it resolves to (hostile redirects and foreign links point there; a client that follows is recorded).
  const twinHost = host === '::1' ? '127.0.0.1' : '::1';
  const twin = await new Promise<http.Server | undefined>((resolve) => {
    const s = http.createServer((req, res) => server.emit('request', req, res));
    s.keepAliveTimeout = 65_000;
    s.once('error', () => resolve(undefined));
    s.listen(port, twinHost, () => resolve(s));
  });
  const urlHost = host === '::1' ? '[::1]' : host === 'localhost' ? '127.0.0.1' : host;
  const url = `http://${urlHost}:${port}`;
  if (opts.liveSeconds !== undefined) {
    const every = opts.liveSeconds;
    const t = setInterval(() => addResults({ count: 1 }), every * 1000);
    timers.add(t);
    log(`live contract results: one every ${every} s`);
  }
  log(
    `sandbox data generated in ${startupMs} ms: ${data.contracts.top.length} contract results, ${data.schedules.rows.length} schedules, ${data.nfts.histories.size} NFT histories`,
  );

  let closing: Promise<void> | undefined;
  return {
    url,
    port,
    close: () => {
      closing ??= new Promise<void>((resolve) => {
        for (const t of timers) clearTimeout(t); // also clears the live interval
        timers.clear();
        let open = twin ? 2 : 1;
        const done = (): void => {
          if (--open === 0) resolve();
        };
        server.close(done);
        server.closeAllConnections();
        twin?.close(done);
        twin?.closeAllConnections();
      });
      return closing;
    },
    addFault,
    clearFaults: () => {
      rules = [];
    },
    setStatusScenario: (s: StatusScenario) => {
      if (!SCENARIOS.includes(s)) throw new Error(`Unknown status scenario: ${s}`);
      scenario = s;
    },
    requests: () => recorded.slice(),
    clearRequests: () => {
      recorded = [];
    },
    addContractResults: addResults,
    setHostile,
    hostile: () => [...hostileRun],
    setOpcodes: (enabled: boolean) => {
      if (typeof enabled !== 'boolean') throw new Error('setOpcodes takes a boolean');
      opcodesOn = enabled;
      return opcodesOn;
    },
    opcodes: () => opcodesOn,
    setContractCall: (enabled: boolean) => {
      if (typeof enabled !== 'boolean') throw new Error('setContractCall takes a boolean');
      contractCallOn = enabled;
      return contractCallOn;
    },
  };
}
