// Shared helpers for the integration suites (imported, bundled into each *.test.js by esbuild).
import * as fs from 'fs';
import * as vscode from 'vscode';
import type { HederaExplorerApi, TestSeams } from '../../src/testSeams';

export const EXTENSION_ID = 'hedera-explorer.hedera-explorer';

/** The extension's test seams (src/testSeams.ts): `activate()` returns them as `testing` in the test host only. */
export type HederaTestApi = TestSeams;

export function extension(): vscode.Extension<HederaExplorerApi> {
  const ext = vscode.extensions.getExtension<HederaExplorerApi>(EXTENSION_ID);
  if (!ext) throw new Error(`extension ${EXTENSION_ID} is not installed in the test host`);
  return ext;
}

/** Activates the extension (idempotent) and returns its test seams. */
export async function activateApi(): Promise<HederaTestApi> {
  const api = await extension().activate();
  if (!api?.testing || typeof api.testing.profile !== 'function')
    throw new Error('activate() did not return the test seams (api.testing) in the test host');
  return api.testing;
}

/** Polls `check` until it returns true (config change events are asynchronous). */
export async function waitUntil(
  what: string | (() => string),
  check: () => boolean | Promise<boolean>,
  ms = 5000,
): Promise<void> {
  const end = Date.now() + ms;
  for (;;) {
    if (await check()) return;
    if (Date.now() > end)
      throw new Error(`timed out after ${ms} ms waiting for: ${typeof what === 'string' ? what : what()}`);
    await new Promise((r) => setTimeout(r, 50));
  }
}

/**
 * `p`, or an error naming `what` when it has not settled after `ms`: a bound on waiting (for something that would
 * otherwise take minutes), not on speed.
 */
export async function settlesWithin<T>(what: string, p: Promise<T>, ms: number): Promise<T> {
  let timer: ReturnType<typeof setTimeout> | undefined;
  try {
    return await Promise.race([
      p,
      new Promise<never>((_, reject) => {
        timer = setTimeout(() => reject(new Error(`timed out after ${ms} ms waiting for: ${what}`)), ms);
      }),
    ]);
  } finally {
    clearTimeout(timer);
  }
}

/**
 * A measured figure: logged, never asserted (a busy machine is slower; `npm test` must pass there). `npm run bench`
 * (test/bench/host.mjs) runs the tests that measure one with HEDERA_BENCH_FIGURES set to a file, where each figure is
 * appended as a JSON line, and judges it against its target there.
 */
export function benchFigure(name: string, value: number, detail = ''): void {
  console.log(`      (${name}: ${Math.round(value * 10) / 10} ms${detail ? `; ${detail}` : ''})`);
  const file = process.env.HEDERA_BENCH_FIGURES;
  if (file) fs.appendFileSync(file, `${JSON.stringify({ name, value, detail })}\n`);
}

/** Resets the given `hederaExplorer.*` settings at user (global) level. */
export async function resetSettings(keys: string[]): Promise<void> {
  const cfg = vscode.workspace.getConfiguration('hederaExplorer');
  for (const k of keys) await cfg.update(k, undefined, vscode.ConfigurationTarget.Global);
}

/** The sandbox URL the runner started (run-integration.cjs), or undefined when the sandbox is not built. */
export const sandboxUrl = process.env.HEDERA_SANDBOX_URL || undefined;

/**
 * The `hederaExplorer.*` settings (keys without the section) that make the sandbox at `url` the custom network, named
 * "Sandbox": the extension knows no sandbox. The same as sandboxSettings in test/harness/sandbox.mjs (npm start, e2e).
 */
export function sandboxSettings(url: string): Record<string, string | number> {
  const base = url.replace(/\/+$/, '');
  return {
    network: 'custom',
    'custom.name': 'Sandbox',
    'custom.mirrorUrl': base,
    'custom.statusUrl': `${base}/api/v2`,
    'custom.verifyUrl': base,
    'custom.chainId': 296,
    'custom.hashscanUrl': `${base}/hashscan/testnet`,
  };
}

/** Every setting sandboxSettings writes (`network` included): what a suite that selected the sandbox resets. */
export const SANDBOX_KEYS = Object.keys(sandboxSettings(''));

/** Writes sandboxSettings(url) at user level (custom URLs first, the network last) and waits until the extension uses them. */
export async function selectSandbox(url: string): Promise<void> {
  const api = await activateApi();
  const cfg = vscode.workspace.getConfiguration('hederaExplorer');
  const { network, ...custom } = sandboxSettings(url);
  for (const [k, v] of Object.entries(custom)) await cfg.update(k, v, vscode.ConfigurationTarget.Global);
  await cfg.update('network', network, vscode.ConfigurationTarget.Global);
  const base = url.replace(/\/+$/, '');
  await waitUntil(
    'the sandbox (custom network)',
    () => api.profile().name === 'custom' && api.profile().mirrorUrl === base && api.profile().label === 'Sandbox',
  );
}
