// The extension is installed in the real extension host, activates, and returns its test API.
import * as assert from 'assert';
import * as vscode from 'vscode';
import { EXTENSION_ID, activateApi, extension } from './helpers';

describe('activation', () => {
  it('is installed in the extension host', () => {
    const ext = extension();
    assert.strictEqual(ext.id, EXTENSION_ID);
    assert.strictEqual(ext.extensionKind, vscode.ExtensionKind.Workspace);
  });

  it('activates and returns the test API', async () => {
    const api = await activateApi();
    assert.strictEqual(extension().isActive, true);
    assert.strictEqual(typeof api.profile, 'function');
    assert.strictEqual(typeof api.hasApiKey, 'function');
    assert.strictEqual(typeof api.recentLog, 'function');
    assert.ok(Array.isArray(api.recentLog()), 'recentLog() returns an array');
    const ms = (api as unknown as { activationMs: number }).activationMs;
    assert.strictEqual(typeof ms, 'number');
    console.log(`    (activate() body: ${ms.toFixed(1)} ms; the bench reports VS Code's own figure, code loading included)`);
  });

  it('is loaded by dist/extension.js through the code cache, which it writes for the next start', async () => {
    const api = await activateApi();
    assert.ok(api.load, 'loaded by the loader (dist/extension.js), not directly');
    assert.ok(['miss', 'hit', 'rejected'].includes(api.load.cache), `code cache state: ${api.load.cache}`);
    console.log(`    (code loaded in ${api.load.ms.toFixed(1)} ms, code cache: ${api.load.cache})`);
    assert.ok(api.load.cacheDir, 'a cache folder in the global storage');
    const dir = vscode.Uri.file(api.load.cacheDir);
    if (api.load.cache === 'hit') {
      assert.strictEqual(await api.saveCodeCache(), false, 'a cache that was used is not written again');
    } else {
      assert.strictEqual(await api.saveCodeCache(), true, 'the cache is written');
      assert.ok(api.recentLog().some((l) => l.includes('Code cache written')), 'the log says so');
    }
    const files = (await vscode.workspace.fs.readDirectory(dir)).filter(([n]) => n.endsWith('.bin'));
    assert.strictEqual(files.length, 1, `one cache file in ${dir.fsPath}`);
    assert.ok(api.recentLog().some((l) => /Activated in [\d.]+ ms \(code loaded in [\d.]+ ms, code cache: \w+/.test(l)), 'activation logged with the load time');
  });

  it('runs in a real VS Code', () => {
    console.log(`    (VS Code ${vscode.version}, ${vscode.env.appName}, Node ${process.version})`);
    assert.match(vscode.version, /^1\.\d+\.\d+/);
  });
});
