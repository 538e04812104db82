/**
 * `WorkspaceFs` over Node's file system, rooted at a folder (unit tests and tools; the extension uses
 * `vscode.workspace.fs`). Paths that leave the root are refused.
 */
import { promises as fsp } from 'fs';
import * as path from 'path';
import { type DirEntry, MAX_READ_BYTES, pieces, type WorkspaceFs } from '../../src/workspace/workspaceFs';

export function nodeWorkspaceFs(root: string): WorkspaceFs {
  const abs = path.resolve(root);
  const resolve = (rel: string): string | undefined => {
    const p = path.resolve(abs, rel);
    return p === abs || p.startsWith(abs + path.sep) ? p : undefined;
  };
  return {
    name: path.basename(abs),
    async list(relDir: string): Promise<DirEntry[]> {
      const p = resolve(relDir);
      if (!p) return [];
      try {
        const entries = await fsp.readdir(p, { withFileTypes: true });
        return entries
          .filter((e) => e.isFile() || e.isDirectory())
          .map((e) => ({ name: e.name, dir: e.isDirectory() }));
      } catch {
        return [];
      }
    },
    async read(relPath: string): Promise<Uint8Array | undefined> {
      const p = resolve(relPath);
      if (!p) return undefined;
      try {
        const st = await fsp.stat(p);
        if (!st.isFile() || st.size > MAX_READ_BYTES) return undefined;
        return new Uint8Array(await fsp.readFile(p));
      } catch {
        return undefined;
      }
    },
    readPieces(relPath: string): AsyncIterable<Uint8Array> | undefined {
      const p = resolve(relPath);
      return p ? pieces(p, (f) => fsp.open(f, 'r')) : undefined;
    },
  };
}
