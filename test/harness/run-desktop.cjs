// `npm run test:desktop`: the same integration suites (test/integration) on desktop VS Code (Electron),
// downloaded by @vscode/test-electron in the usual way into .vscode-test/. For machines with internet; not
// part of `npm test`. Without internet it stops within seconds and says why. On a Linux box without a
// display, run it under `xvfb-run -a npm run test:desktop`.
// Results: out/test-results/desktop.json (same protocol as run-integration.cjs, whose runIntegration() it uses).
const dns = require('node:dns/promises');
const path = require('node:path');
const { downloadAndUnzipVSCode } = require('@vscode/test-electron');
const { runIntegration } = require('./run-integration.cjs');

const HOST = 'update.code.visualstudio.com';
const VERSION = process.env.VSCODE_VERSION || 'stable';

async function reachable() {
  const timeout = new Promise((_, reject) => setTimeout(() => reject(new Error('DNS lookup timed out')), 5000));
  await Promise.race([dns.lookup(HOST), timeout]);
}

(async () => {
  try {
    await reachable();
  } catch (e) {
    console.error(
      `[desktop] cannot reach ${HOST} (${e.code || e.message}): desktop VS Code cannot be downloaded here.\n` +
        '  Offline, use `npm run test:integration` (the same suites in VS Code from code-server).',
    );
    process.exit(1);
  }
  const code = await runIntegration({
    suite: 'desktop',
    prepare: async () => {
      console.log(`[desktop] downloading VS Code ${VERSION} (cached in ${path.join(process.cwd(), '.vscode-test')})`);
      return downloadAndUnzipVSCode({ version: VERSION, timeout: 30000 });
    },
  });
  process.exit(code);
})();
