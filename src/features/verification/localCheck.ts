/**
 * The contract's sources against the workspace: which files of its metadata are in the workspace with the same
 * keccak256 (found), which are not or differ (missing), and which workspace sources the contract does not use
 * (unused). Also maps a server's file paths (session results) to workspace files, and finds a file that exists
 * under another path. Plain TypeScript over `WorkspaceFs`.
 */
import type { MetadataSource } from '../../workspace/buildInfo';
import { keccak256 } from '../../api/keccak';
import { joinPath, readText, walk, type WorkspaceFs } from '../../workspace/workspaceFs';

/** A source file of a contract against the workspace (and, in a record, a file row of the Verification view). */
export interface FileCheck {
  /** The path as the compiler or the server names it. */
  path: string;
  /** The workspace file it maps to, relative to the folder (only when it exists): the row opens it. */
  workspacePath?: string;
  /** Why it is missing or invalid: "not in the workspace", "different content", the server's reason... */
  reason?: string;
  /** Files elsewhere in the workspace with the same name (same content first). */
  elsewhere?: string[];
}

export interface LocalCheck {
  found: FileCheck[];
  missing: FileCheck[];
  /** Workspace source files the contract does not use (relative paths). */
  unused: string[];
  /** The folders taken as the project's sources (`contracts`, `src`). */
  sourceDirs: string[];
}

const SOURCE_FILE = /\.(sol|vy|vyi|fe)$/i;
/** Folders whose files are not "the project's sources" (build output, dependencies, tests, scripts). */
const NOT_SOURCES = new Set([
  'node_modules',
  '.git',
  'artifacts',
  'cache',
  'cache_forge',
  'out',
  'broadcast',
  'typechain',
  'typechain-types',
  'coverage',
  'ignition',
  'deployments',
]);

/** Foundry-style remappings (`remappings.txt`, `prefix=target`), longest prefix first. */
export async function readRemappings(fs: WorkspaceFs): Promise<Array<[string, string]>> {
  const text = await readText(fs, 'remappings.txt');
  const out: Array<[string, string]> = [];
  for (const line of text?.split(/\r?\n/) ?? []) {
    const m = /^\s*(?:[^:=\s]+:)?([^=\s]+)=([^\s]+)\s*$/.exec(line);
    if (m) out.push([m[1], m[2]]);
  }
  return out.sort((a, b) => b[0].length - a[0].length);
}

/** Workspace paths where a compiler source unit name may live, most likely first. */
export function pathCandidates(name: string, remappings: Array<[string, string]> = []): string[] {
  const out: string[] = [];
  const push = (p: string) => {
    const j = joinPath(p);
    if (j && !out.includes(j)) out.push(j);
  };
  const n = name.replace(/^\/+/, '');
  for (const [prefix, target] of remappings) if (n.startsWith(prefix)) push(target + n.slice(prefix.length));
  if (n.startsWith('project/')) push(n.slice('project/'.length)); // Hardhat 3
  const npm = /^npm\/((?:@[^/]+\/)?[^/@]+)@[^/]+\/(.*)$/.exec(n); // Hardhat 3: npm/@scope/pkg@1.2.3/path
  if (npm) push(`node_modules/${npm[1]}/${npm[2]}`);
  push(n);
  if (!n.startsWith('node_modules/')) push(`node_modules/${n}`);
  if (n.startsWith('@')) push(`lib/${n.slice(1)}`);
  return out;
}

async function firstExisting(
  fs: WorkspaceFs,
  candidates: string[],
): Promise<{ path: string; text: string } | undefined> {
  for (const p of candidates) {
    const text = await readText(fs, p);
    if (text !== undefined) return { path: p, text };
  }
  return undefined;
}

/** The project's source folders: `contracts` (Hardhat) and `src` (Foundry), those that exist. */
export async function sourceDirs(fs: WorkspaceFs): Promise<string[]> {
  const top = new Set((await fs.list('')).filter((e) => e.dir).map((e) => e.name));
  return ['contracts', 'src'].filter((d) => top.has(d));
}

/** Every source file of the workspace except build output and dependencies, for "exists elsewhere" hints. */
export async function workspaceSources(fs: WorkspaceFs): Promise<string[]> {
  return walk(fs, '', { maxDepth: 10, maxFiles: 5000, accept: (p) => SOURCE_FILE.test(p), skipDirs: NOT_SOURCES });
}

const base = (p: string) => p.slice(p.lastIndexOf('/') + 1);

/** Files named like `path` elsewhere in the workspace, those with the wanted hash first. */
async function elsewhere(
  fs: WorkspaceFs,
  path: string,
  index: string[],
  exclude: string | undefined,
  hash: string | undefined,
): Promise<string[]> {
  const same = index.filter((p) => base(p) === base(path) && p !== exclude);
  if (!hash || same.length < 2) return same;
  const scored: Array<{ p: string; match: boolean }> = [];
  for (const p of same) scored.push({ p, match: keccak256((await readText(fs, p)) ?? '') === hash.toLowerCase() });
  return [...scored.filter((s) => s.match), ...scored.filter((s) => !s.match)].map((s) => s.p);
}

/** Checks the metadata `sources` of a contract against the workspace. */
export async function checkSources(
  fs: WorkspaceFs,
  sources: Record<string, MetadataSource>,
  opts: { remappings?: Array<[string, string]>; index?: string[] } = {},
): Promise<LocalCheck> {
  const remappings = opts.remappings ?? (await readRemappings(fs));
  const index = opts.index ?? (await workspaceSources(fs));
  const found: FileCheck[] = [];
  const missing: FileCheck[] = [];
  const used = new Set<string>();
  for (const [path, meta] of Object.entries(sources)) {
    const hit = await firstExisting(fs, pathCandidates(path, remappings));
    if (hit) used.add(hit.path);
    const expected = meta.keccak256?.toLowerCase();
    if (hit && (!expected || keccak256(hit.text) === expected)) {
      found.push({ path, workspacePath: hit.path });
      continue;
    }
    const others = await elsewhere(fs, path, index, hit?.path, expected);
    let sameElsewhere: string | undefined;
    if (expected) {
      for (const p of others)
        if (keccak256((await readText(fs, p)) ?? '') === expected) {
          sameElsewhere = p;
          break;
        }
    }
    if (hit) {
      missing.push({
        path,
        workspacePath: hit.path,
        reason: 'different content (keccak256 differs from the metadata)',
        elsewhere: sameElsewhere ? [sameElsewhere] : undefined,
      });
    } else {
      missing.push({
        path,
        reason: 'not in the workspace',
        elsewhere: sameElsewhere ? [sameElsewhere] : others.length ? others : undefined,
      });
    }
  }
  const dirs = await sourceDirs(fs);
  const unused = index.filter((p) => dirs.some((d) => p.startsWith(`${d}/`)) && !used.has(p));
  return { found, missing, unused, sourceDirs: dirs };
}

/**
 * Maps the server's file paths (found, missing or unused files of a session result) to the workspace: the file
 * itself when it exists, else other files of the same name (the hash, when the server gave one, ranks them).
 */
export async function locateFiles(
  fs: WorkspaceFs,
  files: Array<{ path: string; keccak256?: string }>,
  opts: { remappings?: Array<[string, string]>; index?: string[] } = {},
): Promise<FileCheck[]> {
  const remappings = opts.remappings ?? (await readRemappings(fs));
  const index = opts.index ?? (await workspaceSources(fs));
  const out: FileCheck[] = [];
  for (const f of files) {
    let hit: string | undefined;
    for (const p of pathCandidates(f.path, remappings)) {
      if ((await fs.read(p)) !== undefined) {
        hit = p;
        break;
      }
    }
    if (hit) out.push({ path: f.path, workspacePath: hit });
    else {
      const others = SOURCE_FILE.test(f.path) ? await elsewhere(fs, f.path, index, undefined, f.keccak256) : [];
      out.push({ path: f.path, elsewhere: others.length ? others : undefined });
    }
  }
  return out;
}
