#!/usr/bin/env node
// `npm run package`: builds hedera-explorer.vsix with @vscode/vsce (its prepublish step runs the production
// build) and checks what went in: only the run-time files may ship (see ALLOWED), else exit 1 with the list
// of intruders (fix .vscodeignore); the Node files in it are exactly those the production build wrote to dist/
// (the loader, main.js, the lazy entries of esbuild.js's LAZY_ENTRIES and their chunks), which are also the
// files the integration suite runs (run-integration.cjs). The page it ships is the users' page (package.json's
// "vsce".readmePath, not the developers' README.md), its images link to files of the repository, and the icon is in.
// Env: VSCE_IGNORE_FILE=path passes --ignoreFile to vsce.
// Also importable: packageVsix() -> path of the checked .vsix; distFiles(), DIST_FILES, shippedPageProblems().
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { root, vsixPath } from './paths.mjs';

const { LAZY_ENTRIES, MAIN_ENTRY } = createRequire(import.meta.url)(path.join(root, 'esbuild.js'));
/**
 * The Node files of dist/ that every build writes: the loader VS Code starts, the extension it requires (main.js) and
 * the lazily required entries (LAZY_ENTRIES in esbuild.js); besides them, the chunks they share (chunk-<hash>.js).
 */
export const DIST_FILES = ['extension.js', ...[MAIN_ENTRY, ...LAZY_ENTRIES].map((e) => `${e.name}.js`)];
const CHUNK = /^chunk-[A-Z0-9]+\.js$/;

/** Paths inside the .vsix that may ship (vsce puts the extension under extension/). */
const ALLOWED = [
  /^\[Content_Types\]\.xml$/,
  /^extension\.vsixmanifest$/,
  /^extension\/package\.json$/,
  /^extension\/package\.nls(\.[\w-]+)?\.json$/,
  /^extension\/dist\/webview\/[^/]+\.(js|css|ttf)$/,
  /^extension\/dist\/web\/extension\.js$/, // package.json "browser": VS Code for the web
  (e) =>
    e.startsWith('extension/dist/') &&
    (DIST_FILES.includes(e.slice('extension/dist/'.length)) || CHUNK.test(e.slice('extension/dist/'.length))),
  /^extension\/media\/[^/]+$/,
  /^extension\/media\/walkthrough\/[^/]+\.md$/,
  /^extension\/l10n\//,
  /^extension\/(readme|changelog)\.md$/,
  /^extension\/LICENSE(\.md|\.txt)?$/i,
];
const allowed = (e) => ALLOWED.some((a) => (typeof a === 'function' ? a(e) : a.test(e)));

/**
 * The Node files a build left in `dir` (dist/): what the .vsix takes from there (.vscodeignore: dist/*.js), so what
 * the integration suite loads after a production build is what ships. Throws if one of DIST_FILES is missing, or a
 * source map is there (a production build writes none).
 */
export function distFiles(dir = path.join(root, 'dist')) {
  const files = fs
    .readdirSync(dir)
    .filter((f) => /\.js(\.map)?$/.test(f))
    .sort();
  const missing = DIST_FILES.filter((f) => !files.includes(f));
  if (missing.length) throw new Error(`${path.relative(root, dir)} lacks ${missing.join(', ')}`);
  const maps = files.filter((f) => f.endsWith('.map'));
  if (maps.length)
    throw new Error(`${path.relative(root, dir)} holds source maps (not a production build): ${maps.join(', ')}`);
  return files;
}

/**
 * What is wrong with the Marketplace page and icon inside the .vsix `file` (empty: nothing): the page must be the users'
 * page of package.json's "vsce".readmePath (vsce ships it as extension/readme.md and rewrites its links), with no
 * developer commands or sandbox wording, every image a file of the repository behind the manifest's repository URL
 * (a link vsce rewrote from a path that does not exist would be a broken image on the Marketplace); the icon inside.
 */
export function shippedPageProblems(file, entries = vsixEntries(file)) {
  const pkg = JSON.parse(fs.readFileSync(path.join(root, 'package.json'), 'utf8'));
  const problems = [];
  if (!entries.includes('extension/readme.md')) return ['no extension/readme.md'];
  const page = execFileSync('unzip', ['-p', file, 'extension/readme.md'], { encoding: 'utf8' });
  const source = fs.readFileSync(path.join(root, pkg.vsce.readmePath), 'utf8');
  if (page.split('\n')[0] !== source.split('\n')[0]) problems.push(`readme.md is not ${pkg.vsce.readmePath}`);
  if (/npm (install|start|test|run)|sandbox/i.test(page))
    problems.push('readme.md has developer commands or sandbox wording');
  const raw = `${pkg.repository.url.replace(/\.git$/, '')}/raw/HEAD/`;
  const images = [...page.matchAll(/!\[[^\]]*\]\(([^)\s]+)\)/g)].map((m) => m[1]);
  if (!images.length) problems.push('readme.md shows no screenshot');
  for (const url of images) {
    if (!url.startsWith(raw)) problems.push(`image ${url} is not a file of ${raw}`);
    else if (!fs.existsSync(path.join(root, decodeURI(url.slice(raw.length)))))
      problems.push(`image ${url}: no such file`);
  }
  if (!entries.includes(`extension/${pkg.icon}`)) problems.push(`the icon ${pkg.icon} is not inside`);
  return problems;
}

export function vsixEntries(file) {
  return execFileSync('unzip', ['-Z1', file], { encoding: 'utf8' })
    .split('\n')
    .filter((l) => l && !l.endsWith('/'));
}

export function packageVsix({ quiet = false } = {}) {
  const vsce = path.join(root, 'node_modules', '@vscode', 'vsce', 'vsce');
  const ignore = process.env.VSCE_IGNORE_FILE ? ['--ignoreFile', process.env.VSCE_IGNORE_FILE] : [];
  execFileSync(process.execPath, [vsce, 'package', '--no-dependencies', ...ignore, '-o', vsixPath], {
    cwd: root,
    stdio: ['ignore', quiet ? 'pipe' : 'inherit', 'inherit'],
  });
  const entries = vsixEntries(vsixPath);
  const intruders = entries.filter((e) => !allowed(e));
  if (intruders.length) {
    throw new Error(
      `${path.basename(vsixPath)} contains files that must not ship (fix .vscodeignore):\n  ${intruders.join('\n  ')}`,
    );
  }
  const page = shippedPageProblems(vsixPath, entries);
  if (page.length) throw new Error(`${path.basename(vsixPath)}: the Marketplace page or icon:\n  ${page.join('\n  ')}`);
  // vsce's prepublish step made the production build: the .vsix holds exactly its Node files
  const shipped = entries
    .filter((e) => /^extension\/dist\/[^/]+\.js$/.test(e))
    .map((e) => e.slice('extension/dist/'.length))
    .sort();
  const built = distFiles();
  if (shipped.join() !== built.join()) {
    throw new Error(
      `${path.basename(vsixPath)} does not hold the files of the production build in dist/:\n  shipped ${shipped.join(', ')}\n  built   ${built.join(', ')}`,
    );
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
