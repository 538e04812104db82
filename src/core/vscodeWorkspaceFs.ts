/**
 * `WorkspaceFs` (src/workspace/workspaceFs.ts) over `vscode.workspace.fs`: local, remote and virtual folders. Used by
 * the verification command (build info, sources) and the ABI index (deployment records, build info).
 */
import * as vscode from 'vscode';
import { openLocalFile } from '../workspace/platform/node';
import { type DirEntry, MAX_READ_BYTES, pieces, type WorkspaceFs } from '../workspace/workspaceFs';

export function vscodeWorkspaceFs(folder: vscode.Uri, name: string): WorkspaceFs {
  const open = openLocalFile;
  const uri = (rel: string) => (rel ? vscode.Uri.joinPath(folder, ...rel.split('/')) : folder);
  return {
    name,
    async list(relDir: string): Promise<DirEntry[]> {
      try {
        return (await vscode.workspace.fs.readDirectory(uri(relDir)))
          .filter(([, t]) => (t & (vscode.FileType.File | vscode.FileType.Directory)) !== 0)
          .map(([n, t]) => ({ name: n, dir: (t & vscode.FileType.Directory) !== 0 }));
      } catch {
        return [];
      }
    },
    async read(relPath: string): Promise<Uint8Array | undefined> {
      try {
        const u = uri(relPath);
        const st = await vscode.workspace.fs.stat(u);
        if ((st.type & vscode.FileType.File) === 0 || st.size > MAX_READ_BYTES) return undefined;
        return await vscode.workspace.fs.readFile(u);
      } catch {
        return undefined;
      }
    },
    // a local folder's file in pieces, through Node (vscode.workspace.fs reads whole files only)
    readPieces: folder.scheme === 'file' && open ? (relPath: string) => pieces(uri(relPath).fsPath, open) : undefined,
  };
}
