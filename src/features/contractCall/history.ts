/**
 * The calls made from the call panels, kept per workspace (the panel stores them in workspaceState): newest first,
 * at most `max` that are not pinned (the oldest dropped first); pinned calls are kept past the bound. What is read
 * back is checked entry by entry (a stored list is not trusted as it is). Plain TypeScript.
 */

/** How a kept call ended, in a few words (the full outcome is shown when it is run again). */
export interface KeptOutcome {
  status: 'ok' | 'reverted' | 'error';
  /** One line: the decoded values, the revert reason, or the error's sentence. */
  summary: string;
}

export interface KeptCall {
  id: string;
  /** ms since the epoch. */
  at: number;
  /** The network's name and mirror node URL it was made on. */
  network: string;
  mirrorUrl: string;
  /** The contract's EVM address (0x, lowercase), its id and name when known. */
  address: string;
  contractId?: string;
  contractName?: string;
  /** The function's signature (`transfer(address,uint256)`): its ABI item is found again by it. */
  signature: string;
  readOnly: boolean;
  /** The inputs as typed. */
  inputs: string[];
  /** The block as typed (`latest`, a number, a time) and the block number it was, when known. */
  block: string;
  blockNumber?: string;
  from?: string;
  /** Tinybars, as text (every digit). */
  value?: string;
  outcome: KeptOutcome;
  pinned: boolean;
}

export const DEFAULT_MAX_KEPT = 50;
const MAX_TEXT = 4096;

const isStr = (v: unknown, max = MAX_TEXT): v is string => typeof v === 'string' && v.length <= max;

/** One stored entry, checked; undefined when it is not one. */
export function checkKeptCall(v: unknown): KeptCall | undefined {
  if (!v || typeof v !== 'object' || Array.isArray(v)) return undefined;
  const o = v as Record<string, unknown>;
  const outcome = o.outcome as Record<string, unknown> | undefined;
  if (
    !isStr(o.id, 64) ||
    typeof o.at !== 'number' ||
    !Number.isFinite(o.at) ||
    !isStr(o.network, 64) ||
    !isStr(o.mirrorUrl, 2048) ||
    !isStr(o.address, 42) ||
    !/^0x[0-9a-f]{40}$/.test(o.address) ||
    !isStr(o.signature, 2048) ||
    typeof o.readOnly !== 'boolean' ||
    !Array.isArray(o.inputs) ||
    o.inputs.length > 64 ||
    !o.inputs.every((x) => isStr(x, 300_000)) ||
    !isStr(o.block, 64) ||
    typeof o.pinned !== 'boolean' ||
    !outcome ||
    typeof outcome !== 'object' ||
    !['ok', 'reverted', 'error'].includes(outcome.status as string) ||
    !isStr(outcome.summary)
  )
    return undefined;
  const opt = (k: string, max = 256): string | undefined => (isStr(o[k], max) ? (o[k] as string) : undefined);
  const kept: KeptCall = {
    id: o.id,
    at: o.at,
    network: o.network,
    mirrorUrl: o.mirrorUrl,
    address: o.address,
    signature: o.signature,
    readOnly: o.readOnly,
    inputs: o.inputs as string[],
    block: o.block,
    outcome: { status: outcome.status as KeptOutcome['status'], summary: outcome.summary },
    pinned: o.pinned,
  };
  for (const k of ['contractId', 'contractName', 'blockNumber', 'from', 'value'] as const) {
    const s = opt(k);
    if (s !== undefined) kept[k] = s;
  }
  return kept;
}

/** A stored list, checked: entries that are not calls are dropped, then the bound applied. */
export function readKept(v: unknown, max = DEFAULT_MAX_KEPT): KeptCall[] {
  if (!Array.isArray(v)) return [];
  const seen = new Set<string>();
  const out: KeptCall[] = [];
  for (const x of v.slice(0, 10_000)) {
    const c = checkKeptCall(x);
    if (c && !seen.has(c.id)) {
      seen.add(c.id);
      out.push(c);
    }
  }
  return bound(out, max);
}

/** Newest first; at most `max` unpinned calls, every pinned one kept. */
export function bound(calls: readonly KeptCall[], max = DEFAULT_MAX_KEPT): KeptCall[] {
  const sorted = [...calls].sort((a, b) => b.at - a.at);
  let unpinned = 0;
  return sorted.filter((c) => c.pinned || ++unpinned <= max);
}

/** `call` added in front (the list bounded again). */
export function addKept(calls: readonly KeptCall[], call: KeptCall, max = DEFAULT_MAX_KEPT): KeptCall[] {
  return bound([call, ...calls.filter((c) => c.id !== call.id)], max);
}

/** The call `id` pinned or not (unpinning may drop it, or the oldest, past the bound). */
export function setPinned(calls: readonly KeptCall[], id: string, pinned: boolean, max = DEFAULT_MAX_KEPT): KeptCall[] {
  return bound(
    calls.map((c) => (c.id === id ? { ...c, pinned } : c)),
    max,
  );
}

/** The kept calls of one contract on one mirror node. */
export function keptFor(calls: readonly KeptCall[], mirrorUrl: string, address: string): KeptCall[] {
  return calls.filter((c) => c.mirrorUrl === mirrorUrl && c.address === address);
}
