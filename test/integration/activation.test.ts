// The extension is installed in the real extension host, activates, and returns its test API.
import * as assert from 'assert';
import * as fs from 'fs';
import * as path from 'path';
import * as vscode from 'vscode';
import { EXTENSION_ID, activateApi, extension, waitUntil } from './helpers';

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
    const ms = api.activationMs;
    assert.strictEqual(typeof ms, 'number');
    console.log(
      `    (activate() body: ${ms.toFixed(1)} ms; the bench reports VS Code's own figure, code loading included)`,
    );
  });

  it('is loaded by dist/extension.js, which times the loading; both figures are logged', async () => {
    const api = await activateApi();
    assert.ok(api.load, 'loaded through the loader (dist/extension.js), not directly');
    assert.strictEqual(typeof api.load.wallMs, 'number');
    console.log(
      `    (code loaded in ${api.load.wallMs.toFixed(1)} ms; CPU ${api.load.cpuMs?.toFixed(1) ?? 'not measured by this Node'} ms)`,
    );
    assert.ok(
      api
        .recentLog()
        .some((l) =>
          /Activated in [\d.]+ ms \(code loaded in [\d.]+ ms(; main-thread CPU [\d.]+ \+ [\d.]+ ms)?\)/.test(l),
        ),
      'activation logged with the load time',
    );
  });

  it('reads nothing of its own from its storage to start: no code cache, nothing on disk can stop the host', async () => {
    const api = await activateApi();
    assert.strictEqual(
      Object.keys(api.load ?? {})
        .sort()
        .join(','),
      'cpuMs,wallMs',
      'the loader reports its timing only',
    );
    const loader = fs.readFileSync(path.join(extension().extensionPath, 'dist', 'extension.js'), 'utf8');
    assert.ok(!/cachedData|v8cache|code-cache/.test(loader), 'the loader compiles dist/main.js as require does');
    assert.ok(!api.recentLog().some((l) => /code cache/i.test(l)), 'no code cache is read or written');
  });

  it('returns a small public API: the selected network and its change event; the test seams only in the test host', async () => {
    const api = await extension().activate();
    assert.deepStrictEqual(Object.keys(api).sort(), ['network', 'onDidChangeNetwork', 'testing']);
    assert.strictEqual(api.network.name, api.testing!.profile().name);
    assert.strictEqual(typeof api.network.mirrorUrl, 'string');
    const seen: string[] = [];
    const sub = api.onDidChangeNetwork((p) => seen.push(p.name));
    const cfg = vscode.workspace.getConfiguration('hederaExplorer');
    const before = cfg.inspect<string>('network')?.globalValue;
    const target = api.network.name === 'previewnet' ? 'mainnet' : 'previewnet';
    try {
      await cfg.update('network', target, vscode.ConfigurationTarget.Global);
      await waitUntil('network change event', () => seen.includes(target));
      assert.strictEqual(api.network.name, target);
    } finally {
      sub.dispose();
      await cfg.update('network', before, vscode.ConfigurationTarget.Global);
    }
  });

  it('runs in a real VS Code', () => {
    console.log(`    (VS Code ${vscode.version}, ${vscode.env.appName}, Node ${process.version})`);
    assert.match(vscode.version, /^1\.\d+\.\d+/);
  });
});
