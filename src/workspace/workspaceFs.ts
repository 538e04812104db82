/**
 * The little the verification code needs from a workspace folder: list a folder, read a file. Paths are
 * relative to the folder, with forward slashes. The extension passes an adapter over `vscode.workspace.fs`
 * (works for remote and virtual workspaces too); unit tests pass `nodeWorkspaceFs` over a fixture folder.
 */

export interface DirEntry {
  name: string;
  dir: boolean;
}

export interface WorkspaceFs {
  /** A name to show for the folder (its base name). */
  readonly name: string;
  /** The folder's entries, or [] when it does not exist. */
  list(relDir: string): Promise<DirEntry[]>;
  /** The file's bytes, or undefined when it does not exist or is not a file. */
  read(relPath: string): Promise<Uint8Array | undefined>;
  /**
   * The file in consecutive pieces, each valid until the next one is asked for (no size limit: a deployment
   * journal of 100+ MB), or undefined when this file system cannot (remote and virtual folders): then `read`.
   */
  readPieces?(relPath: string): AsyncIterable<Uint8Array> | undefined;
}

/** Pieces of a file read through a file handle with one reused buffer (Node; local folders). */
export async function* pieces(
  file: string,
  open: (path: string) => Promise<{
    read(b: Uint8Array, o: number, l: number, p: null): Promise<{ bytesRead: number }>;
    close(): Promise<void>;
  }>,
  size = 1024 * 1024,
): AsyncIterable<Uint8Array> {
  const h = await open(file);
  try {
    const buf = new Uint8Array(size);
    for (;;) {
      const { bytesRead } = await h.read(buf, 0, size, null);
      if (!bytesRead) return;
      yield buf.subarray(0, bytesRead);
    }
  } finally {
    await h.close();
  }
}

/** Files larger than this are not read (build info of very large projects can be tens of MB; sources are small). */
export const MAX_READ_BYTES = 64 * 1024 * 1024;

const decoder = new TextDecoder('utf-8');

export async function readText(fs: WorkspaceFs, relPath: string): Promise<string | undefined> {
  const b = await fs.read(relPath);
  return b === undefined ? undefined : decoder.decode(b);
}

/** Parses a JSON file; undefined when it is missing or not JSON. */
export async function readJson(fs: WorkspaceFs, relPath: string): Promise<unknown> {
  const t = await readText(fs, relPath);
  if (t === undefined) return undefined;
  try {
    return JSON.parse(t) as unknown;
  } catch {
    return undefined;
  }
}

/** Joins relative path parts with `/`, removing `.` and empty parts (never going above the folder). */
export function joinPath(...parts: string[]): string {
  const out: string[] = [];
  for (const p of parts.join('/').split(/[\\/]+/)) {
    if (!p || p === '.') continue;
    if (p === '..') out.pop();
    else out.push(p);
  }
  return out.join('/');
}

/** Folders never walked into when looking for files. */
const SKIP_DIRS = new Set([
  'node_modules',
  '.git',
  '.hg',
  '.svn',
  'cache',
  'cache_forge',
  'coverage',
  'typechain',
  'typechain-types',
  '.vscode-test',
]);

/**
 * Every file under `relDir` (depth-first, sorted names), skipping SKIP_DIRS and dot-folders, up to `maxFiles`
 * and `maxDepth` so a huge workspace cannot stall the command.
 */
export async function walk(
  fs: WorkspaceFs,
  relDir: string,
  opts: { maxDepth?: number; maxFiles?: number; accept?: (path: string) => boolean; skipDirs?: Set<string> } = {},
): Promise<string[]> {
  const maxDepth = opts.maxDepth ?? 8;
  const maxFiles = opts.maxFiles ?? 5000;
  const skip = opts.skipDirs ?? SKIP_DIRS;
  const out: string[] = [];
  const visit = async (dir: string, depth: number): Promise<void> => {
    if (out.length >= maxFiles) return;
    const entries = (await fs.list(dir)).sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
    for (const e of entries) {
      if (out.length >= maxFiles) return;
      const p = joinPath(dir, e.name);
      if (e.dir) {
        if (depth < maxDepth && !skip.has(e.name) && !e.name.startsWith('.')) await visit(p, depth + 1);
      } else if (!opts.accept || opts.accept(p)) {
        out.push(p);
      }
    }
  };
  await visit(relDir, 0);
  return out;
}
