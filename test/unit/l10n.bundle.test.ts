/**
 * The localization bundle (l10n/bundle.l10n.json) is what `@vscode/l10n-dev export` reads in src/ now, and every
 * `l10n.t` call passes its message in a form the exporter can read (test/harness/l10n.mjs, `npm run l10n`).
 */
import * as assert from 'assert';
import { execFileSync, spawnSync } from 'child_process';
import * as fs from 'fs';
import * as os from 'os';
import * as path from 'path';

const root = path.resolve(__dirname, '..', '..', '..');
const script = path.join(root, 'test', 'harness', 'l10n.mjs');

/** Runs the script's `unreadableCalls` on `text` (a TypeScript file's contents) in a Node of its own (ES module). */
function unreadable(text: string): Array<{ line: number; text: string }> {
  const code = `import { unreadableCalls } from ${JSON.stringify(`file://${script}`)};
process.stdout.write(JSON.stringify(unreadableCalls('x.ts', process.argv[1])));`;
  const out = execFileSync(process.execPath, ['--input-type=module', '-e', code, text], { encoding: 'utf8' });
  return JSON.parse(out) as Array<{ line: number; text: string }>;
}

describe('localization bundle', function () {
  this.timeout(120_000);

  it('l10n/bundle.l10n.json is what the sources give (else: npm run l10n)', () => {
    const run = spawnSync(process.execPath, [script, '--check'], { cwd: root, encoding: 'utf8' });
    assert.strictEqual(run.status, 0, `${run.stdout}${run.stderr}`);
    const bundle = JSON.parse(fs.readFileSync(path.join(root, 'l10n', 'bundle.l10n.json'), 'utf8')) as Record<
      string,
      unknown
    >;
    // one message of each kind of place: the extension host, src/api, a webview
    for (const m of [
      'Select Network',
      'The host name {0} could not be found (DNS lookup failed). Check your internet connection, then try again.',
      'Go to {0}',
    ])
      assert.ok(m in bundle, `missing: ${m}`);
  });

  it('a bundle that lacks a message or has one too many is found out', () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'l10n-check-'));
    try {
      // the script compares the repository's bundle; a copy of the repository's files with a stale bundle must fail
      const copy = path.join(dir, 'repo');
      for (const d of ['src', 'test/harness', 'l10n'])
        fs.cpSync(path.join(root, d), path.join(copy, d), { recursive: true });
      fs.symlinkSync(path.join(root, 'node_modules'), path.join(copy, 'node_modules'));
      fs.copyFileSync(path.join(root, 'package.nls.json'), path.join(copy, 'package.nls.json'));
      const bundleFile = path.join(copy, 'l10n', 'bundle.l10n.json');
      const bundle = JSON.parse(fs.readFileSync(bundleFile, 'utf8')) as Record<string, string>;
      const { ['Select Network']: _gone, ...less } = bundle;
      fs.writeFileSync(bundleFile, `${JSON.stringify(less, null, 2)}\n`);
      const run = spawnSync(process.execPath, [path.join(copy, 'test', 'harness', 'l10n.mjs'), '--check'], {
        encoding: 'utf8',
      });
      assert.strictEqual(run.status, 1, run.stdout);
      assert.match(run.stderr, /is not what the sources give: run npm run l10n/);
    } finally {
      fs.rmSync(dir, { recursive: true, force: true });
    }
  });

  it('a message the exporter cannot read is an error: a template literal, a variable, a concatenation', () => {
    const found = unreadable(
      [
        "vscode.l10n.t('fine {0}', x);",
        'vscode.l10n.t("fine too");',
        'vscode.l10n.t(`Hello ${name}`);',
        'vscode.l10n.t(`no substitution`);',
        'l10n.t(message, x);',
        "l10n.t('a' + b);",
        "l10n.t(\n  'fine on the next line {0}',\n  x,\n);",
      ].join('\n'),
    );
    assert.deepStrictEqual(
      found.map((f) => f.line),
      [3, 4, 5, 6],
    );
  });
});
