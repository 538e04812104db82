// The localization bundle: every message of a `vscode.l10n.t(...)` (extension host) or `l10n.t(...)` of
// @vscode/l10n (plain TypeScript, the webviews) call in src/, as `@vscode/l10n-dev export` reads them.
//   node test/harness/l10n.mjs                   writes l10n/bundle.l10n.json (npm run l10n)
//   node test/harness/l10n.mjs --check           fails when l10n/bundle.l10n.json is not what the sources give
//   node test/harness/l10n.mjs --pseudo=<dir>    writes <dir>/l10n/bundle.l10n.qps-ploc.json and
//                                                <dir>/package.nls.qps-ploc.json, pseudo-localized (tests only:
//                                                never into the repository's l10n/, which ships)
// Every call must pass its message as a plain string literal: the exporter cannot see a variable, a concatenation
// or a template literal (and fills a template's `${x}` in as `{0}`, which the running code does not), so such a
// call is an error here, with its place.
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { getL10nJson, getL10nPseudoLocalized } from '@vscode/l10n-dev';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
export const BUNDLE = path.join(root, 'l10n', 'bundle.l10n.json');

/** The TypeScript files of src/, relative to the root, sorted. */
export function sourceFiles() {
  return fs
    .readdirSync(path.join(root, 'src'), { recursive: true })
    .filter((f) => /\.tsx?$/.test(f) && !f.endsWith('.d.ts'))
    .map((f) => path.join('src', f).split(path.sep).join('/'))
    .sort();
}

const CALL = /(?<![\w$])(?:vscode\.)?l10n\.t\(\s*/g;

/**
 * The `l10n.t(` calls whose first argument is not a plain string literal ('…' or "…"), or whose literal is followed
 * by `+` (a concatenation): `{ file, line, text }` each.
 */
export function unreadableCalls(file, text) {
  const found = [];
  for (const m of text.matchAll(CALL)) {
    const at = m.index + m[0].length;
    const rest = text.slice(at);
    const literal = /^(['"])(?:\\.|(?!\1)[^\\\n])*\1/.exec(rest);
    const ok = literal && !/^\s*\+/.test(rest.slice(literal[0].length));
    if (!ok) {
      const line = text.slice(0, m.index).split('\n').length;
      found.push({ file, line, text: text.slice(m.index, m.index + 80).split('\n')[0] });
    }
  }
  return found;
}

/** The bundle the sources give (keys sorted), and the calls the exporter cannot read. */
export async function exportBundle() {
  const files = sourceFiles().map((f) => ({ file: f, contents: fs.readFileSync(path.join(root, f), 'utf8') }));
  const problems = files.flatMap((f) => unreadableCalls(f.file, f.contents));
  const json = await getL10nJson(files.map((f) => ({ contents: f.contents, extension: path.extname(f.file) })));
  const sorted = Object.fromEntries(
    Object.keys(json)
      .sort()
      .map((k) => [k, json[k]]),
  );
  return { bundle: sorted, problems };
}

/** The file text of a bundle: two-space JSON, one message a line, a final newline. */
export const bundleText = (bundle) => `${JSON.stringify(bundle, null, 2)}\n`;

async function main() {
  const args = process.argv.slice(2);
  const { bundle, problems } = await exportBundle();
  for (const p of problems)
    console.error(`${p.file}:${p.line}: not a string literal, the exporter cannot read it: ${p.text}`);
  if (problems.length) process.exit(1);
  const pseudo = args.find((a) => a.startsWith('--pseudo='));
  if (pseudo) {
    const dir = path.resolve(pseudo.slice('--pseudo='.length));
    fs.mkdirSync(path.join(dir, 'l10n'), { recursive: true });
    const nls = JSON.parse(fs.readFileSync(path.join(root, 'package.nls.json'), 'utf8'));
    fs.writeFileSync(path.join(dir, 'l10n', 'bundle.l10n.qps-ploc.json'), bundleText(getL10nPseudoLocalized(bundle)));
    fs.writeFileSync(path.join(dir, 'package.nls.qps-ploc.json'), bundleText(getL10nPseudoLocalized(nls)));
    console.log(`pseudo-localized bundle and package.nls in ${dir}`);
    return;
  }
  const text = bundleText(bundle);
  if (args.includes('--check')) {
    const current = fs.existsSync(BUNDLE) ? fs.readFileSync(BUNDLE, 'utf8') : '';
    if (current !== text) {
      console.error(`${path.relative(root, BUNDLE)} is not what the sources give: run npm run l10n`);
      process.exit(1);
    }
    console.log(`${path.relative(root, BUNDLE)}: current, ${Object.keys(bundle).length} messages`);
    return;
  }
  fs.writeFileSync(BUNDLE, text);
  console.log(`${path.relative(root, BUNDLE)}: ${Object.keys(bundle).length} messages`);
}

if (process.argv[1] && path.resolve(process.argv[1]) === fileURLToPath(import.meta.url))
  main().catch((e) => {
    console.error(e instanceof Error ? e.message : e);
    process.exit(1);
  });
