// Headless Debian Chromium driven by playwright-core (no browser download: executablePath is the system one).
//
//   launchBrowser() -> playwright Browser; closed by the harness cleanup on exit at the latest.
// Chromium's own XDG config/cache (crash reports etc.) goes to a temp dir, not to ~/.config/chromium.
import { createRequire } from 'node:module';
import fs from 'node:fs';
import path from 'node:path';
import { chromiumPath } from './paths.mjs';
import { onCleanup, tempDir } from './processes.mjs';

const require = createRequire(import.meta.url);

export const CHROMIUM_ARGS = [
  '--no-sandbox',
  '--disable-gpu',
  '--disable-quic',
  '--no-first-run',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
  '--disable-dev-shm-usage',
];

export async function launchBrowser() {
  if (!fs.existsSync(chromiumPath)) throw new Error(`Chromium not found at ${chromiumPath}: run npm run setup:vscode`);
  const { chromium } = require('playwright-core');
  const home = tempDir('hedera-chromium');
  const browser = await chromium.launch({
    executablePath: chromiumPath,
    headless: process.env.HEADED ? false : true,
    args: CHROMIUM_ARGS,
    env: {
      ...process.env,
      XDG_CONFIG_HOME: path.join(home, 'config'),
      XDG_CACHE_HOME: path.join(home, 'cache'),
      TMPDIR: home,
    },
  });
  onCleanup(() => browser.close().catch(() => {}));
  return browser;
}
