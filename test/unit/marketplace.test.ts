// What the Marketplace and Open VSX show, held to the rules the manifest sets for them: an icon of its own (a PNG of at
// least 128 px; monochrome theme-following SVGs in the activity bar), valid categories, keywords within vsce's limit,
// `preview` while 0.x, a banner whose theme matches its colour, a license both registries accept, no developer or
// sandbox wording in what users read, and a users' page whose settings table names every setting with its default.
// `npm run package` checks the same page inside the built .vsix (test/harness/package-vsix.mjs).
import * as assert from 'assert';
import * as fs from 'fs';
import * as path from 'path';

const root = path.resolve(__dirname, '..', '..', '..');
const read = (file: string) => fs.readFileSync(path.join(root, file), 'utf8');

interface Setting {
  default?: unknown;
}
interface Manifest {
  version: string;
  displayName: string;
  description: string;
  preview?: boolean;
  license?: string;
  icon: string;
  categories: string[];
  keywords: string[];
  galleryBanner?: { color?: string; theme?: string };
  repository?: { url: string };
  bugs?: { url: string };
  homepage?: string;
  vsce?: { readmePath?: string };
  allowScripts?: Record<string, boolean>;
  contributes: {
    viewsContainers: Record<string, Array<{ icon: string }>>;
    views: Record<string, Array<{ icon?: string }>>;
    configuration: { properties: Record<string, Setting> } | Array<{ properties: Record<string, Setting> }>;
  };
}
const pkg = JSON.parse(read('package.json')) as Manifest;

/** The categories VS Code accepts (the extension manifest reference: code.visualstudio.com/api/references/extension-manifest). */
const CATEGORIES = [
  'AI',
  'Chat',
  'Data Science',
  'Debuggers',
  'Education',
  'Extension Packs',
  'Formatters',
  'Keymaps',
  'Language Packs',
  'Linters',
  'Machine Learning',
  'Notebooks',
  'Other',
  'Programming Languages',
  'SCM Providers',
  'Snippets',
  'Testing',
  'Themes',
  'Visualization',
];

/** Width and height from a PNG's IHDR chunk, or undefined when `buf` is not a PNG. */
function pngSize(buf: Buffer): { width: number; height: number } | undefined {
  const signature = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]);
  if (buf.length < 24 || !buf.subarray(0, 8).equals(signature) || buf.toString('ascii', 12, 16) !== 'IHDR') return;
  return { width: buf.readUInt32BE(16), height: buf.readUInt32BE(20) };
}

/** WCAG relative luminance of `#rrggbb`. */
function luminance(hex: string): number {
  const [r, g, b] = [1, 3, 5].map((i) => {
    const c = parseInt(hex.slice(i, i + 2), 16) / 255;
    return c <= 0.03928 ? c / 12.92 : ((c + 0.055) / 1.055) ** 2.4;
  });
  return 0.2126 * r + 0.7152 * g + 0.0722 * b;
}

function settings(): Record<string, Setting> {
  const c = pkg.contributes.configuration;
  return Object.assign({}, ...(Array.isArray(c) ? c : [c]).map((g) => g.properties)) as Record<string, Setting>;
}

/** A default as the users' page writes it: `value` in backticks, "empty" for an empty string. */
function shownDefault(value: unknown): string {
  if (value === '') return 'empty';
  return `\`${typeof value === 'string' ? value : JSON.stringify(value)}\``;
}

/** The rows of the users' page's settings table: setting name → its Default cell. */
function pageSettings(page: string): Map<string, string> {
  const rows = new Map<string, string>();
  for (const m of page.matchAll(/^\| `(hederaExplorer\.[\w.]+)` \| ([^|]*?) \|/gm)) {
    assert.ok(!rows.has(m[1]), `${m[1]} is in the settings table twice`);
    rows.set(m[1], m[2]);
  }
  return rows;
}

/** The packages of package-lock.json that npm marks as having an install script (optional ones included). */
function lockedWithInstallScripts(): Set<string> {
  const lock = JSON.parse(read('package-lock.json')) as { packages: Record<string, { hasInstallScript?: boolean }> };
  return new Set(
    Object.entries(lock.packages)
      .filter(([key, p]) => key && p.hasInstallScript)
      .map(([key]) => key.slice(key.lastIndexOf('node_modules/') + 'node_modules/'.length)),
  );
}

/** Every installed package (node_modules, nested too) whose install scripts npm would run or block. */
function packagesWithInstallScripts(dir = path.join(root, 'node_modules'), found = new Set<string>()): Set<string> {
  if (!fs.existsSync(dir)) return found;
  for (const entry of fs.readdirSync(dir)) {
    if (entry.startsWith('.')) continue;
    const names = entry.startsWith('@') ? fs.readdirSync(path.join(dir, entry)).map((n) => `${entry}/${n}`) : [entry];
    for (const name of names) {
      const file = path.join(dir, name, 'package.json');
      if (!fs.existsSync(file)) continue;
      const scripts = (JSON.parse(fs.readFileSync(file, 'utf8')) as { scripts?: Record<string, string> }).scripts ?? {};
      if (scripts.preinstall || scripts.install || scripts.postinstall) found.add(name);
      packagesWithInstallScripts(path.join(dir, name, 'node_modules'), found);
    }
  }
  return found;
}

describe('Marketplace: the manifest', () => {
  it('the icon is a square PNG of at least 128 px, not an SVG (vsce refuses SVG icons)', () => {
    assert.match(pkg.icon, /\.png$/);
    const size = pngSize(fs.readFileSync(path.join(root, pkg.icon)));
    assert.ok(size, `${pkg.icon} is not a PNG`);
    assert.ok(size.width >= 128 && size.width === size.height, `${pkg.icon} is ${size.width}×${size.height}`);
  });

  it("the activity bar and the views use one monochrome 24×24 SVG that follows the theme, not Hedera's logo", () => {
    const icons = new Set([
      ...Object.values(pkg.contributes.viewsContainers).flatMap((cs) => cs.map((c) => c.icon)),
      ...Object.values(pkg.contributes.views).flatMap((vs) => vs.map((v) => v.icon ?? '')),
    ]);
    for (const icon of icons) {
      assert.match(icon, /^media\/[\w-]+\.svg$/);
      assert.doesNotMatch(icon, /hedera/i, `${icon}: an icon of our own`);
      const svg = read(icon);
      assert.match(svg, /viewBox="0 0 24 24"/, `${icon} is drawn on a 24×24 grid`);
      const colours = [...svg.matchAll(/(?:fill|stroke|stop-color|color)="([^"]+)"/g)].map((m) => m[1]);
      assert.deepStrictEqual(
        colours.filter((c) => c !== 'currentColor' && c !== 'none'),
        [],
        `${icon} paints only with currentColor`,
      );
    }
  });

  it('categories are ones VS Code accepts, and say more than "Other"', () => {
    for (const c of pkg.categories) assert.ok(CATEGORIES.includes(c), `"${c}" is not a valid category`);
    assert.ok(pkg.categories.some((c) => c !== 'Other'));
  });

  it('10 to 30 distinct keywords (the Marketplace keeps 30)', () => {
    assert.ok(pkg.keywords.length >= 10 && pkg.keywords.length <= 30, `${pkg.keywords.length} keywords`);
    assert.strictEqual(new Set(pkg.keywords).size, pkg.keywords.length);
  });

  it('marked preview while the version is 0.x', () => {
    if (pkg.version.startsWith('0.')) assert.strictEqual(pkg.preview, true);
  });

  // "dark" puts white text on the banner: readable (contrast 4.5:1) only on a colour of luminance 0.18 or less
  it('a banner whose theme matches its colour (white text on a dark banner, black on a light one)', () => {
    const { color = '', theme } = pkg.galleryBanner ?? {};
    assert.match(color, /^#[0-9a-fA-F]{6}$/);
    assert.strictEqual(theme, luminance(color) < 0.18 ? 'dark' : 'light');
  });

  it('does not read as an official Hedera product', () => {
    assert.notStrictEqual(pkg.displayName, 'Hedera Explorer');
    assert.match(pkg.displayName, /community/i);
    assert.match(pkg.description, /not an official Hedera product/);
  });

  it('a license both registries accept: the SPDX id and the LICENSE file of that license', () => {
    assert.strictEqual(pkg.license, 'MIT');
    assert.match(read('LICENSE'), /^MIT License/);
  });

  it('repository, issues and homepage links', () => {
    for (const url of [pkg.repository?.url, pkg.bugs?.url, pkg.homepage])
      assert.match(url ?? '', /^https:\/\/github\.com\/[\w-]+\/[\w.-]+/);
  });

  it('no sandbox or developer wording in what the extension contributes', () => {
    const nls = Object.values(JSON.parse(read('package.nls.json')) as Record<string, string>);
    const text = [JSON.stringify(pkg.contributes), ...nls].join('\n');
    assert.doesNotMatch(text, /sandbox|npm (run|start|install|test)/i);
  });
});

describe('Marketplace: the users’ page', () => {
  const readmePath = pkg.vsce?.readmePath ?? '';
  const page = () => read(readmePath);

  it('is the page vsce ships (package.json\'s "vsce".readmePath), not the developers\' README.md', () => {
    assert.ok(readmePath && readmePath !== 'README.md' && fs.existsSync(path.join(root, readmePath)), readmePath);
  });

  it('says what the extension does, with no developer commands or sandbox', () => {
    assert.doesNotMatch(page(), /sandbox|npm (run|start|install|test)|CONTRIBUTING/i);
    for (const heading of ['## Features', '## Settings', '## Requirements', '## Privacy'])
      assert.ok(page().includes(`\n${heading}\n`), heading);
  });

  it('its images are screenshots of the repository, linked from its root (vsce prefixes the repository URL)', () => {
    const images = [...page().matchAll(/!\[[^\]]+\]\(([^)\s]+)\)/g)].map((m) => m[1]);
    assert.ok(images.length >= 5, `${images.length} screenshots`);
    for (const src of images) {
      assert.match(src, /^\/media\/screenshots\/[\w-]+\.png$/, src);
      assert.ok(fs.existsSync(path.join(root, src)), `${src}: no such file`);
    }
  });

  it("its settings table names every setting of package.json, with package.json's default", () => {
    const shown = pageSettings(page());
    const declared = settings();
    const missing = Object.keys(declared).filter((k) => !shown.has(k));
    const extra = [...shown.keys()].filter((k) => !(k in declared));
    assert.deepStrictEqual(
      { missing, extra },
      { missing: [], extra: [] },
      `update the settings table of ${readmePath}`,
    );
    for (const [name, setting] of Object.entries(declared))
      assert.strictEqual(shown.get(name), shownDefault(setting.default), `the default of ${name} in ${readmePath}`);
  });
});

describe('Marketplace: the shipped CHANGELOG', () => {
  const changelog = read('CHANGELOG.md');
  const headings = [...changelog.matchAll(/^## (.+)$/gm)].map((m) => m[1]);

  it('opens with [Unreleased], then an entry for the version of package.json', () => {
    assert.strictEqual(headings[0], '[Unreleased]');
    assert.ok(
      headings.some((h) => h.startsWith(`[${pkg.version}]`)),
      `no "## [${pkg.version}]" entry`,
    );
  });

  it("speaks users' words: no issue numbers, no source paths, no sandbox", () => {
    assert.doesNotMatch(changelog, /\bissue \d+|#\d+\b|src\/|sandbox/i);
  });
});

describe('npm: install scripts', () => {
  // node_modules lacks the optional ones npm did not install (keytar), and the lockfile may lag behind node_modules
  it('every package with an install script has an allowScripts decision, explained in CONTRIBUTING.md', () => {
    const decided = pkg.allowScripts ?? {};
    const contributing = read('CONTRIBUTING.md');
    for (const name of new Set([...lockedWithInstallScripts(), ...packagesWithInstallScripts()])) {
      assert.ok(
        Object.keys(decided).some((k) => k === name || k.startsWith(`${name}@`)),
        `${name} has an install script: decide in package.json's allowScripts (npm install-scripts approve|deny)`,
      );
      assert.ok(contributing.includes(`\`${name}\``), `CONTRIBUTING.md says why ${name} is allowed or denied`);
    }
  });
});
