// The extension in another display language: `HEDERA_LOCALE=qps-ploc npm run test:integration` starts VS Code with
// --locale=qps-ploc and the extension with the pseudo-localized bundle and package.nls of `npm run l10n -- --pseudo`
// (test/harness/run-integration.cjs; only *.pseudo.test.ts run then). What the user reads comes from the translation:
// the palette, the settings, a tree row with an error sentence, the panels' titles and the webviews' messages.
import * as assert from 'assert';
import * as fs from 'fs';
import * as path from 'path';
import * as vscode from 'vscode';
import type { InspectorPanel } from '../../src/features/inspector/panel';
import type { NftHistoryPanel } from '../../src/features/nftHistory/panel';
import { extension, resetSettings, SANDBOX_KEYS, waitUntil } from './helpers';
import { addFault, clearFaults, settled, useSandbox, type ViewsApi } from './views.helpers';

const LOCALE = process.env.HEDERA_LOCALE ?? '';

/** A message of the bundle with its `{n}` filled in, as `l10n.t` does. */
function fill(template: string, ...args: string[]): string {
  return template.replace(/\{(\d+)\}/g, (m, i: string) => args[Number(i)] ?? m);
}

/** A message of the bundle with any text in place of its `{n}`. */
function filled(template: string): RegExp {
  return new RegExp(
    template
      .split(/\{\d+\}/)
      .map(escapeRegExp)
      .join('.*'),
  );
}

function readJson(file: string): Record<string, string> {
  return JSON.parse(fs.readFileSync(file, 'utf8')) as Record<string, string>;
}

/** The translations of the page's bundle, as the webview HTML carries them for @vscode/l10n. */
function pageBundle(html: string): Record<string, string> {
  const m = /<script type="application\/json" id="hedera-l10n">([^<]*)<\/script>/.exec(html);
  assert.ok(m, 'the page carries the translations');
  return JSON.parse(m[1]) as Record<string, string>;
}

describe('pseudo-locale: the translation reaches what the user reads', function () {
  this.timeout(90000);
  let api: ViewsApi;
  let sandbox: string;
  /** The pseudo translation of each message (l10n/bundle.l10n.<locale>.json) and of package.nls.json. */
  let t: Record<string, string>;
  let nls: Record<string, string>;
  let english: Record<string, string>;
  const tr = (message: string): string => {
    assert.ok(t[message], `"${message}" is in the bundle`);
    assert.notStrictEqual(t[message], message, `"${message}" is translated`);
    return t[message];
  };

  before(async () => {
    const s = await useSandbox();
    api = s.api;
    sandbox = s.url;
    const dir = extension().extensionPath;
    t = readJson(path.join(dir, 'l10n', `bundle.l10n.${LOCALE}.json`));
    nls = readJson(path.join(dir, `package.nls.${LOCALE}.json`));
    english = readJson(path.join(dir, 'package.nls.json'));
    await vscode.commands.executeCommand('workbench.action.closeAllEditors');
  });
  afterEach(() => clearFaults());
  after(async () => {
    await vscode.commands.executeCommand('workbench.action.closeAllEditors');
    await resetSettings(SANDBOX_KEYS);
  });

  it('VS Code runs in the locale and hands the extension its bundle', () => {
    assert.ok(LOCALE && !LOCALE.startsWith('en'), `HEDERA_LOCALE is a language other than English: "${LOCALE}"`);
    assert.strictEqual(vscode.env.language, LOCALE);
  });

  it('a command title and a setting description come from package.nls.<locale>.json', () => {
    const pkg = extension().packageJSON as {
      contributes: {
        commands: Array<{ command: string; title: string | { value: string; original: string } }>;
        configuration: unknown;
      };
    };
    const select = pkg.contributes.commands.find((c) => c.command === 'hederaExplorer.selectNetwork');
    // a translated title comes with the English one, for the palette to match either
    assert.deepStrictEqual(select?.title, {
      value: nls['command.selectNetwork'],
      original: english['command.selectNetwork'],
    });
    // the setting's description: the translation of the package.nls key package.json names for it
    type Properties = Record<string, { markdownDescription?: string | { value: string } }>;
    const groups = (c: unknown) => [c].flat() as Array<{ properties: Properties }>;
    const networkDescription = (c: unknown) =>
      groups(c)
        .map((g) => g.properties['hederaExplorer.network']?.markdownDescription)
        .find((d) => d !== undefined);
    const raw = readJson(path.join(extension().extensionPath, 'package.json')) as unknown as {
      contributes: { configuration: unknown };
    };
    const key = /^%(.+)%$/.exec(String(networkDescription(raw.contributes.configuration)))?.[1];
    assert.ok(key, 'package.json describes the network setting by a package.nls key');
    const shown = networkDescription(pkg.contributes.configuration);
    assert.strictEqual(typeof shown === 'string' ? shown : shown?.value, nls[key]);
    assert.notStrictEqual(nls[key], english[key]);
  });

  it("the local network's label is the translation", async () => {
    const exports = extension().exports as { network: { label: string } };
    try {
      await vscode.workspace
        .getConfiguration('hederaExplorer')
        .update('network', 'local', vscode.ConfigurationTarget.Global);
      await waitUntil('the local network selected', () => exports.network.label !== 'Sandbox', 10000);
      assert.strictEqual(exports.network.label, tr('Local'));
      assert.notStrictEqual(tr('Local'), 'Local');
    } finally {
      await useSandbox();
    }
  });

  it('a failed load is a tree row whose error sentence is the translation', async () => {
    await addFault({ path: '/api/v1/contracts/results', times: 50, fault: { status: 503 } });
    await api.contractResults.refresh();
    const snap = await settled(api.contractResults, 30000);
    const row = snap.rows.find((r) => /HTTP 503/.test(r.label));
    assert.ok(row, `an error row: ${JSON.stringify(snap.rows)}`);
    const sentence = tr('{0} could not answer ({1}){2}. Try again later.');
    assert.match(row.label, filled(sentence), `the row says "${row.label}", the translation is "${sentence}"`);
    assert.ok(!/could not answer/.test(row.label), 'no English left in the sentence');
    await clearFaults();
    await api.contractResults.retry();
    await settled(api.contractResults, 30000);
  });

  it("a schedule row's decoded transaction and its creator are in the translation", async () => {
    await api.schedules.refresh();
    const snap = await settled(api.schedules, 30000);
    const rows = snap.rows.filter((r) => r.contextValue === 'schedule');
    assert.ok(rows.length, `schedule rows: ${JSON.stringify(snap.rows)}`);
    const titles = ['Contract call', 'Crypto transfer', 'Token mint', 'Token burn', 'Consensus message'];
    const decoded = rows.map((r) => r.label.split(' · ').slice(1).join(' · ')).filter(Boolean);
    const translated = decoded.filter((s) => titles.some((m) => s.startsWith(tr(m))));
    assert.ok(translated.length, `a summary starts with a translated title: ${decoded.join(' | ')}`);
    assert.ok(!decoded.some((s) => titles.some((m) => s.startsWith(m))), `no English title: ${decoded.join(' | ')}`);
    assert.match(rows[0].description ?? '', filled(tr('by {0}')));
  });

  it("the inspector's page gets the translations (its title and its sections' names)", async () => {
    const health = (await (await fetch(`${sandbox}/__sandbox/health`)).json()) as {
      notable: { inspector: Record<string, { transactionId: string }> };
    };
    const id = health.notable.inspector.inspectorDeepRevert.transactionId;
    const p = (await vscode.commands.executeCommand('hederaExplorer.inspectTransaction', id)) as InspectorPanel;
    assert.ok(p, 'a panel');
    await api.inspector.settled(p);
    await waitUntil(
      'the page drew the overview',
      () => !!api.inspector.snapshot(p).rendered?.ready.includes('overview'),
    );
    assert.match(p.panel.title, filled(tr('Transaction {0} · {1}')));
    const html = api.inspector.snapshot(p).html;
    assert.match(html, new RegExp(`<title>${escapeRegExp(tr('Transaction inspector'))}</title>`));
    const page = pageBundle(html);
    for (const m of ['Overview', 'Call trace', 'Events', 'Open in HashScan']) assert.strictEqual(page[m], tr(m), m);
  });

  it("the NFT history panel's title and page are in the translation", async () => {
    const token = '0.0.4815162';
    const p = (await vscode.commands.executeCommand('hederaExplorer.showNftHistory', token, '7')) as NftHistoryPanel;
    assert.ok(p, 'a panel');
    assert.strictEqual(p.title, fill(tr('NFT {0} #{1}'), token, '7'));
    await waitUntil('the page rendered rows', () => (api.nftHistory.snapshot(p).rendered?.total ?? 0) > 0, 20000);
    const page = pageBundle(api.nftHistory.snapshot(p).html);
    for (const m of ['{0} transactions loaded', 'more available']) assert.strictEqual(page[m], tr(m), m);
  });
});

function escapeRegExp(s: string): string {
  return s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}
