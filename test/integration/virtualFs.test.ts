// A workspace folder on a virtual file system, as github.dev's and vscode.dev's are: an in-memory file system provider
// of the test's own scheme (memfs:, registered here with vscode.workspace.registerFileSystemProvider), a Hardhat
// project written there (Ignition's deployed_addresses.json, the artifacts and build info, the .sol sources), added
// as a second workspace folder (the extension host keeps running). The Deployments view lists its record, the CodeLens
// works on its Vault.sol and a hover on its Markdown file; the folder's files exist nowhere but in the provider, so
// every read of them goes through vscode.workspace.fs (the provider counts them).
import * as assert from 'assert';
import * as vscode from 'vscode';
import { renderMarkdown } from '../unit/markdown';
import { resetSettings, SANDBOX_KEYS, waitUntil } from './helpers';
import { useSandbox, type ViewsApi } from './views.helpers';

const SCHEME = 'memfs';
const ROOT = '/hedera-virtual-project';
/** 0.0.7001 (the sandbox's Vault) as a long-zero address: an address no record of the disk folder holds. */
const VIRTUAL_VAULT = '0x0000000000000000000000000000000000001b59';
const RECORD = 'ignition/deployments/chain-296/deployed_addresses.json';

class Entry {
  mtime = Date.now();
  constructor(
    readonly type: vscode.FileType,
    public data: Uint8Array = new Uint8Array(),
    readonly children = new Map<string, Entry>(),
  ) {}
}

/** A file system in memory: directories and files under one root, change events fired on writes. */
class MemFs implements vscode.FileSystemProvider {
  private readonly root = new Entry(vscode.FileType.Directory);
  private readonly changed = new vscode.EventEmitter<vscode.FileChangeEvent[]>();
  readonly onDidChangeFile = this.changed.event;
  /** The paths read (readFile), in order. */
  readonly reads: string[] = [];

  private find(uri: vscode.Uri): Entry {
    let e: Entry | undefined = this.root;
    for (const part of uri.path.split('/').filter(Boolean)) e = e?.children.get(part);
    if (!e) throw vscode.FileSystemError.FileNotFound(uri);
    return e;
  }
  private parent(uri: vscode.Uri): [Entry, string] {
    const parts = uri.path.split('/').filter(Boolean);
    const name = parts.pop()!;
    const dir = this.find(uri.with({ path: `/${parts.join('/')}` }));
    if (dir.type !== vscode.FileType.Directory) throw vscode.FileSystemError.FileNotADirectory(uri);
    return [dir, name];
  }
  watch(): vscode.Disposable {
    return new vscode.Disposable(() => undefined);
  }
  stat(uri: vscode.Uri): vscode.FileStat {
    const e = this.find(uri);
    return { type: e.type, ctime: e.mtime, mtime: e.mtime, size: e.data.byteLength };
  }
  readDirectory(uri: vscode.Uri): [string, vscode.FileType][] {
    return [...this.find(uri).children].map(([n, e]) => [n, e.type]);
  }
  createDirectory(uri: vscode.Uri): void {
    const [dir, name] = this.parent(uri);
    if (!dir.children.has(name)) dir.children.set(name, new Entry(vscode.FileType.Directory));
    this.changed.fire([{ type: vscode.FileChangeType.Created, uri }]);
  }
  readFile(uri: vscode.Uri): Uint8Array {
    const e = this.find(uri);
    if (e.type !== vscode.FileType.File) throw vscode.FileSystemError.FileIsADirectory(uri);
    this.reads.push(uri.path);
    return e.data;
  }
  writeFile(uri: vscode.Uri, content: Uint8Array): void {
    const [dir, name] = this.parent(uri);
    const had = dir.children.get(name);
    if (had) {
      had.data = content;
      had.mtime = Date.now();
    } else dir.children.set(name, new Entry(vscode.FileType.File, content));
    this.changed.fire([{ type: had ? vscode.FileChangeType.Changed : vscode.FileChangeType.Created, uri }]);
  }
  delete(uri: vscode.Uri): void {
    const [dir, name] = this.parent(uri);
    dir.children.delete(name);
    this.changed.fire([{ type: vscode.FileChangeType.Deleted, uri }]);
  }
  rename(from: vscode.Uri, to: vscode.Uri): void {
    this.writeFile(to, this.readFile(from));
    this.delete(from);
  }
}

describe('virtual file system: a Hardhat project on memfs:', function () {
  this.timeout(90000);
  let api: ViewsApi;
  const memfs = new MemFs();
  let registration: vscode.Disposable | undefined;
  const root = vscode.Uri.from({ scheme: SCHEME, path: ROOT });
  const at = (rel: string) => vscode.Uri.joinPath(root, ...rel.split('/'));

  /** Copies a directory of the disk folder into the virtual project, through vscode.workspace.fs. */
  async function copyDir(from: vscode.Uri, rel: string): Promise<void> {
    await vscode.workspace.fs.createDirectory(at(rel));
    for (const [name, type] of await vscode.workspace.fs.readDirectory(vscode.Uri.joinPath(from, rel))) {
      const child = `${rel}/${name}`;
      if (type === vscode.FileType.Directory) await copyDir(from, child);
      else
        await vscode.workspace.fs.writeFile(
          at(child),
          await vscode.workspace.fs.readFile(vscode.Uri.joinPath(from, child)),
        );
    }
  }

  before(async () => {
    ({ api } = await useSandbox());
    registration = vscode.workspace.registerFileSystemProvider(SCHEME, memfs, { isCaseSensitive: true });
    const disk = vscode.workspace.workspaceFolders![0].uri;
    await vscode.workspace.fs.createDirectory(root);
    await copyDir(disk, 'contracts');
    await copyDir(disk, 'artifacts');
    await vscode.workspace.fs.createDirectory(at('ignition/deployments/chain-296'));
    await vscode.workspace.fs.writeFile(
      at(RECORD),
      new TextEncoder().encode(JSON.stringify({ 'VirtualModule#Vault': VIRTUAL_VAULT }, null, 2)),
    );
    await vscode.workspace.fs.writeFile(
      at('NOTES.md'),
      new TextEncoder().encode('# Virtual project\n\nThe vault is 0.0.7001 on the sandbox.\n'),
    );
    const added = new Promise<void>((resolve) => {
      const sub = vscode.workspace.onDidChangeWorkspaceFolders(() => {
        sub.dispose();
        resolve();
      });
    });
    assert.ok(
      vscode.workspace.updateWorkspaceFolders(vscode.workspace.workspaceFolders!.length, 0, {
        uri: root,
        name: 'virtual',
      }),
    );
    await added;
  });

  after(async () => {
    const i = vscode.workspace.workspaceFolders?.findIndex((f) => f.uri.scheme === SCHEME) ?? -1;
    if (i > 0) {
      const removed = new Promise<void>((resolve) => {
        const sub = vscode.workspace.onDidChangeWorkspaceFolders(() => {
          sub.dispose();
          resolve();
        });
      });
      vscode.workspace.updateWorkspaceFolders(i, 1);
      await removed;
    }
    registration?.dispose();
    await vscode.commands.executeCommand('workbench.action.closeAllEditors');
    await resetSettings(SANDBOX_KEYS);
  });

  it("the Deployments view lists the virtual folder's record, read through the provider", async () => {
    let rows: Awaited<ReturnType<typeof api.deployments.rows>> = [];
    await waitUntil(
      () => `a Vault row at ${VIRTUAL_VAULT} (rows: ${JSON.stringify(rows)})`,
      async () => {
        rows = await api.deployments.rows();
        return rows.some((r) => r.label === 'Vault' && (r.tooltip ?? '').includes(`Address: ${VIRTUAL_VAULT}`));
      },
      30000,
    );
    const entries = await api.deployments.entries();
    const entry = entries.find((e) => e.address === VIRTUAL_VAULT);
    assert.ok(entry, `an entry at ${VIRTUAL_VAULT}: ${entries.map((e) => e.address).join(', ')}`);
    assert.strictEqual(entry.folderKey, root.toString());
    assert.strictEqual(entry.name, 'Vault');
    assert.strictEqual(entry.file, RECORD);
    assert.ok(
      memfs.reads.includes(`${ROOT}/${RECORD}`),
      `the record read through the provider: ${memfs.reads.join(', ')}`,
    );
  });

  it("the CodeLens on the virtual folder's Vault.sol names the contract", async () => {
    const vault = at('contracts/inspector/Vault.sol');
    await vscode.window.showTextDocument(await vscode.workspace.openTextDocument(vault));
    let lenses: vscode.CodeLens[] = [];
    await waitUntil(
      () => `the lenses of Vault.sol (${lenses.map((l) => l.command?.title ?? '(unresolved)').join(' | ') || 'none'})`,
      async () => {
        lenses =
          (await vscode.commands.executeCommand<vscode.CodeLens[]>('vscode.executeCodeLensProvider', vault, 20)) ?? [];
        return (
          lenses.length > 0 &&
          lenses.every((l) => l.command?.title) &&
          lenses.some((l) => /calls/.test(l.command!.title))
        );
      },
      30000,
    );
    // the one record of this folder (the disk folder's Vault record speaks for its own Vault.sol only)
    const main = lenses.filter((l) => /calls/.test(l.command!.title));
    assert.strictEqual(main.length, 1, lenses.map((l) => l.command!.title).join(' | '));
    assert.match(main[0].command!.title, /^0\.0\.7001 · \d+ calls/);
    // the build deployed, resolved with the lens, read from the folder's artifacts through the provider
    assert.ok(
      memfs.reads.some((p) => p.startsWith(`${ROOT}/artifacts/`)),
      `the artifacts read through the provider: ${memfs.reads.join(', ')}`,
    );
  });

  it("a hover on a contract id in the virtual folder's Markdown file shows our links", async () => {
    const notes = at('NOTES.md');
    const doc = await vscode.workspace.openTextDocument(notes);
    const offset = doc.getText().indexOf('0.0.7001') + 2;
    let text = '';
    let links: string[] = [];
    await waitUntil(
      () => `our hover on 0.0.7001 (${text})`,
      async () => {
        const hovers =
          (await vscode.commands.executeCommand<vscode.Hover[]>(
            'vscode.executeHoverProvider',
            notes,
            doc.positionAt(offset),
          )) ?? [];
        const md = hovers.flatMap((h) => h.contents).filter((c): c is vscode.MarkdownString => typeof c === 'object');
        const rendered = md.map((c) => renderMarkdown(c.value));
        text = rendered.map((r) => r.text).join('\n');
        links = rendered.flatMap((r) => r.links);
        return /^Contract 0\.0\.7001 · Sandbox/m.test(text);
      },
      20000,
    );
    assert.ok(
      links.some((l) => l.startsWith('command:hederaExplorer.inspectTransaction')),
      `an Inspect link among ${links.join(', ')}`,
    );
  });
});
