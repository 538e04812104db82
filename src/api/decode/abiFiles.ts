/**
 * ABI files of a workspace, recognised from their content: Hardhat artifacts (`artifacts/**\/*.json`, format
 * `hh-sol-artifact-1` / `hh3-artifact-1`), Foundry output (`out/**\/*.json`: `abi`, `bytecode.object`, ...),
 * Truffle-like `{contractName, abi}` objects, and plain ABI arrays (`*.abi`, `*.json`). Build info files
 * (`build-info/`) and Hardhat's `*.dbg.json` are never ABIs. Only `function`, `error` and `event` items with
 * well-formed parameters are kept; anything else is dropped, never an error. Plain TypeScript, no ABI coder.
 */

export interface AbiParam {
  name?: string;
  type: string;
  internalType?: string;
  indexed?: boolean;
  components?: AbiParam[];
}

export interface AbiItem {
  type: 'function' | 'error' | 'event';
  name: string;
  inputs: AbiParam[];
  outputs?: AbiParam[];
  stateMutability?: string;
  anonymous?: boolean;
}

export type AbiFileFormat = 'hardhat' | 'foundry' | 'truffle' | 'abi';

/** One ABI and where it came from. */
export interface AbiFile {
  /** Where it came from, for people: a path relative to the workspace folder (`artifacts/contracts/Token.sol/Token.json`). */
  source: string;
  /** The contract's name when the file says it, else the file name without extension. */
  contractName: string;
  format: AbiFileFormat;
  abi: AbiItem[];
  /** The compiler's source name (`contracts/Token.sol`, Hardhat 3 `project/contracts/Token.sol`), when the file says it. */
  sourceName?: string;
  /** The address a deployment record with an ABI was deployed to (hardhat-deploy `deployments/<network>/*.json`). */
  address?: string;
  /** Hardhat 3: the build info (`artifacts/build-info/<id>.json`) the artifact was compiled in. */
  buildInfoId?: string;
  /**
   * The creation bytecode (Hardhat `bytecode`, Foundry `bytecode.object`), lowercase with 0x; library link
   * placeholders (`__$…$__`) kept as they are. Absent when the file has none (interfaces, abstract contracts).
   */
  bytecode?: string;
  /** The constructor's inputs, when the ABI has a constructor. */
  constructorInputs?: AbiParam[];
}

const EXCLUDED_ABI_PATH = /(^|\/)(node_modules|\.git|build-info)(\/|$)|\.dbg\.json$/i;

/**
 * Paths that are never ABIs, whatever their content: dependencies, .git, build info, Hardhat's `*.dbg.json`
 * (any letter case; `\` or `/`). The ABI index filters its watcher's events with it too.
 */
export function isExcludedAbiPath(relPath: string): boolean {
  return EXCLUDED_ABI_PATH.test(relPath.replace(/\\/g, '/'));
}

/** Quick check before parsing: a plain ABI array, or an object with an `abi` key somewhere. */
export function mayHoldAbi(text: string): boolean {
  const t = text.trimStart();
  return t.startsWith('[') || (t.startsWith('{') && text.includes('"abi"'));
}

const PARAM_TYPE =
  /^(address|bool|string|bytes([1-9]|[12]\d|3[0-2])?|u?int(8|16|24|32|40|48|56|64|72|80|88|96|104|112|120|128|136|144|152|160|168|176|184|192|200|208|216|224|232|240|248|256)?|tuple|function|u?fixed(\d+x\d+)?)(\[\d*\])*$/;
const NAME = /^[A-Za-z_$][\w$]*$/;

function param(v: unknown, depth = 0): AbiParam | undefined {
  if (!v || typeof v !== 'object' || depth > 8) return undefined;
  const o = v as Record<string, unknown>;
  if (typeof o.type !== 'string' || !PARAM_TYPE.test(o.type)) return undefined;
  const p: AbiParam = { type: o.type };
  if (typeof o.name === 'string' && o.name) p.name = o.name;
  if (typeof o.internalType === 'string') p.internalType = o.internalType;
  if (o.indexed === true) p.indexed = true;
  if (o.type.startsWith('tuple')) {
    if (!Array.isArray(o.components)) return undefined;
    const comps = o.components.map((c) => param(c, depth + 1));
    if (comps.some((c) => !c)) return undefined;
    p.components = comps as AbiParam[];
  }
  return p;
}

function params(v: unknown): AbiParam[] | undefined {
  if (v === undefined || v === null) return [];
  if (!Array.isArray(v)) return undefined;
  const out = v.map((x) => param(x));
  return out.some((x) => !x) ? undefined : (out as AbiParam[]);
}

/** The function, error and event items of an ABI array; malformed items are dropped. */
export function normalizeAbi(v: unknown): AbiItem[] {
  if (!Array.isArray(v)) return [];
  const out: AbiItem[] = [];
  for (const raw of v) {
    if (!raw || typeof raw !== 'object') continue;
    const o = raw as Record<string, unknown>;
    // solc < 0.5 ABIs may leave out `type` for functions
    const type = o.type === undefined && typeof o.name === 'string' ? 'function' : o.type;
    if (type !== 'function' && type !== 'error' && type !== 'event') continue;
    if (typeof o.name !== 'string' || !NAME.test(o.name)) continue;
    const inputs = params(o.inputs);
    if (!inputs) continue;
    const item: AbiItem = { type, name: o.name, inputs };
    if (type === 'function') {
      const outputs = params(o.outputs);
      if (outputs) item.outputs = outputs;
      if (typeof o.stateMutability === 'string') item.stateMutability = o.stateMutability;
    }
    if (type === 'event' && o.anonymous === true) item.anonymous = true;
    out.push(item);
  }
  return out;
}

/** Whether an array looks like an ABI: every entry an object with a known `type` (or a name and inputs). */
function looksLikeAbi(v: unknown[]): boolean {
  return (
    v.length > 0 &&
    v.every((x) => {
      if (!x || typeof x !== 'object' || Array.isArray(x)) return false;
      const o = x as Record<string, unknown>;
      return (
        ['function', 'error', 'event', 'constructor', 'fallback', 'receive'].includes(String(o.type)) ||
        (o.type === undefined && typeof o.name === 'string' && Array.isArray(o.inputs))
      );
    })
  );
}

function baseName(relPath: string): string {
  const file = relPath.replace(/\\/g, '/').split('/').pop() ?? relPath;
  return file.replace(/\.abi\.json$/i, '').replace(/\.(json|abi)$/i, '');
}

/**
 * Reads one file's text as an ABI source. `undefined` when it is not an ABI file (or not valid JSON, or an ABI
 * without any function, error or event). Never throws.
 */
export function parseAbiFile(relPath: string, text: string): AbiFile | undefined {
  if (isExcludedAbiPath(relPath) || !mayHoldAbi(text)) return undefined;
  let data: unknown;
  try {
    data = JSON.parse(text);
  } catch {
    return undefined;
  }
  const source = relPath.replace(/\\/g, '/');
  if (Array.isArray(data)) {
    if (!looksLikeAbi(data)) return undefined;
    const abi = normalizeAbi(data);
    return abi.length ? { source, contractName: baseName(relPath), format: 'abi', abi } : undefined;
  }
  if (!data || typeof data !== 'object') return undefined;
  const o = data as Record<string, unknown>;
  if (!Array.isArray(o.abi) || (o.abi.length && !looksLikeAbi(o.abi))) return undefined;
  const abi = normalizeAbi(o.abi);
  if (!abi.length) return undefined;
  const fmt =
    typeof o._format === 'string' && /^hh/.test(o._format)
      ? 'hardhat'
      : o.bytecode && typeof o.bytecode === 'object' && 'object' in (o.bytecode as object)
        ? 'foundry'
        : typeof o.contractName === 'string'
          ? 'truffle'
          : 'abi';
  // Foundry names the contract and its source in the metadata's compilation target only
  const target = Object.entries(metadataOf(o.metadata)?.settings?.compilationTarget ?? {}).find(
    ([, n]) => typeof n === 'string',
  );
  const name =
    typeof o.contractName === 'string' && o.contractName
      ? o.contractName
      : typeof target?.[1] === 'string'
        ? target[1]
        : baseName(relPath);
  const out: AbiFile = { source, contractName: name, format: fmt, abi };
  const sourceName =
    typeof o.sourceName === 'string' && o.sourceName
      ? o.sourceName
      : typeof o.inputSourceName === 'string' && o.inputSourceName
        ? o.inputSourceName
        : target?.[0];
  if (sourceName) out.sourceName = sourceName;
  if (typeof o.address === 'string' && /^0x[0-9a-fA-F]{40}$/.test(o.address)) out.address = o.address.toLowerCase();
  if (typeof o.buildInfoId === 'string' && o.buildInfoId) out.buildInfoId = o.buildInfoId;
  const code = creationBytecodeOf(o.bytecode);
  if (code) out.bytecode = code;
  const ctor = o.abi.find(
    (x) => x && typeof x === 'object' && (x as Record<string, unknown>).type === 'constructor',
  ) as Record<string, unknown> | undefined;
  const ctorInputs = ctor ? params(ctor.inputs) : undefined;
  if (ctorInputs) out.constructorInputs = ctorInputs;
  return out;
}

/** Hardhat's `bytecode` string or Foundry's `bytecode.object`, when it holds code (hex, link placeholders allowed). */
function creationBytecodeOf(v: unknown): string | undefined {
  const raw =
    typeof v === 'string'
      ? v
      : v && typeof v === 'object' && typeof (v as Record<string, unknown>).object === 'string'
        ? (v as Record<string, string>).object
        : undefined;
  if (!raw) return undefined;
  const h = raw.trim().replace(/^0x/i, '');
  return h.length >= 2 && h.length % 2 === 0 && /^[0-9a-fA-F_$A-Za-z:.]*$/.test(h) && /^[0-9a-fA-F]{2}/.test(h)
    ? `0x${h.toLowerCase()}`
    : undefined;
}

function metadataOf(v: unknown): { settings?: { compilationTarget?: Record<string, unknown> } } | undefined {
  try {
    const m = typeof v === 'string' ? JSON.parse(v) : v;
    return m && typeof m === 'object'
      ? (m as { settings?: { compilationTarget?: Record<string, unknown> } })
      : undefined;
  } catch {
    return undefined;
  }
}

/** The canonical signature of an item: `transfer(address,uint256)`, tuples as `(a,b)`. */
export function signatureOf(item: Pick<AbiItem, 'name' | 'inputs'>): string {
  const t = (p: AbiParam): string =>
    p.type.startsWith('tuple') ? `(${(p.components ?? []).map(t).join(',')})${p.type.slice(5)}` : p.type;
  return `${item.name}(${item.inputs.map(t).join(',')})`;
}
