#!/usr/bin/env node
// `npm run package`: builds hedera-explorer.vsix with @vscode/vsce (its prepublish step runs the production
// build) and checks what went in: only the run-time files may ship (see ALLOWED), else exit 1 with the list
// of intruders (fix .vscodeignore). Env: VSCE_IGNORE_FILE=path passes --ignoreFile to vsce.
// Also importable: packageVsix() -> path of the checked .vsix.
import { execFileSync } from 'node:child_process';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { root, vsixPath } from './paths.mjs';

/** Paths inside the .vsix that may ship (vsce puts the extension under extension/). */
const ALLOWED = [
  /^\[Content_Types\]\.xml$/, /^extension\.vsixmanifest$/,
  /^extension\/package\.json$/, /^extension\/package\.nls(\.[\w-]+)?\.json$/,
  /^extension\/dist\/extension\.js$/, /^extension\/dist\/webview\/[^/]+\.(js|css|ttf)$/,
  // the extension (main.js, loaded by the loader dist/extension.js and timed) and its lazily required chunks
  /^extension\/dist\/(main|decoders|derivation|axios|nft|verify)\.js$/,
  /^extension\/media\/[^/]+$/, /^extension\/l10n\//,
  /^extension\/(readme|changelog)\.md$/i, /^extension\/LICENSE(\.md|\.txt)?$/i,
];

export function vsixEntries(file) {
  return execFileSync('unzip', ['-Z1', file], { encoding: 'utf8' }).split('\n').filter((l) => l && !l.endsWith('/'));
}

export function packageVsix({ quiet = false } = {}) {
  const vsce = path.join(root, 'node_modules', '@vscode', 'vsce', 'vsce');
  const ignore = process.env.VSCE_IGNORE_FILE ? ['--ignoreFile', process.env.VSCE_IGNORE_FILE] : [];
  execFileSync(process.execPath, [vsce, 'package', '--no-dependencies', ...ignore, '-o', vsixPath],
    { cwd: root, stdio: ['ignore', quiet ? 'pipe' : 'inherit', 'inherit'] });
  const entries = vsixEntries(vsixPath);
  const intruders = entries.filter((e) => !ALLOWED.some((re) => re.test(e)));
  if (intruders.length) {
    throw new Error(`${path.basename(vsixPath)} contains files that must not ship (fix .vscodeignore):\n  ${intruders.join('\n  ')}`);
  }
  if (!entries.includes('extension/dist/extension.js')) throw new Error(`${path.basename(vsixPath)} lacks dist/extension.js`);
  for (const chunk of ['main.js', 'decoders.js', 'derivation.js', 'axios.js', 'nft.js', 'verify.js']) { // lazily required chunks (esbuild.js LAZY_CHUNKS)
    if (!entries.includes(`extension/dist/${chunk}`)) throw new Error(`${path.basename(vsixPath)} lacks dist/${chunk}`);
  }
  return vsixPath;
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  try {
    const file = packageVsix();
    console.log(`[package] ${path.relative(process.cwd(), file)} OK:\n  ${vsixEntries(file).join('\n  ')}`);
  } catch (e) {
    console.error(`[package] ${e.message.split('\n').slice(0, 30).join('\n')}`);
    process.exit(1);
  }
}
