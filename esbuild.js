// Build script (the `yo code` esbuild template, extended).
//   node esbuild.js               the loader VS Code starts (dist/extension.js, src/loader.ts), the extension bundle it
//                                 requires (dist/main.js, src/extension.ts), its lazily required chunks
//                                 (dist/decoders.js, axios.js, nft.js, verify.js) and the webviews (dist/webview/*)
//   node esbuild.js --production  the same, minified, no source maps (what the .vsix ships)
//   node esbuild.js --watch       rebuild on change
//   node esbuild.js --sandbox     the sandbox server (out/sandbox/cli.js), used by `npm run sandbox` and tests
//   node esbuild.js --tests       unit tests (out/test/unit), integration suites (out/test/integration), sandbox
//   node esbuild.js --bench       benchmarks (out/test/bench) and the sandbox
//   --outdir=<dir>                the Node bundles (loader, main.js and the lazy chunks) there instead of dist/ (the bench)
const esbuild = require('esbuild');
const fs = require('fs');
const path = require('path');

const production = process.argv.includes('--production');
const watch = process.argv.includes('--watch');
const onlySandbox = process.argv.includes('--sandbox');
const tests = process.argv.includes('--tests');
const bench = process.argv.includes('--bench');
const distDir = (process.argv.find((a) => a.startsWith('--outdir=')) || '--outdir=dist').slice('--outdir='.length);
const nodeOnly = distDir !== 'dist'; // --outdir: the Node bundles only, no webviews or codicons

/** Prints build start/end in the form VS Code's esbuild problem matcher understands. */
const problemMatcher = {
  name: 'esbuild-problem-matcher',
  setup(build) {
    build.onStart(() => { if (watch) console.log('[watch] build started'); });
    build.onEnd((result) => {
      for (const { text, location } of result.errors) {
        console.error(`✘ [ERROR] ${text}`);
        if (location) console.error(`    ${location.file}:${location.line}:${location.column}:`);
      }
      if (watch) console.log('[watch] build finished');
    });
  },
};

const common = { bundle: true, logLevel: 'silent', plugins: [problemMatcher] };

/** The extension host bundle: Node, CommonJS, `vscode` provided by the host. Required by the loader below. */
const extension = {
  ...common,
  entryPoints: ['src/extension.ts'],
  outfile: path.join(distDir, 'main.js'),
  platform: 'node',
  format: 'cjs',
  target: 'node20',
  external: ['vscode'],
  // axios's multipart support is never used; its form-data dependency would add mime-db (~140 KB).
  alias: { 'form-data': './src/shims/form-data.ts' },
  minify: production,
  sourcemap: !production,
  sourcesContent: false,
  metafile: true,
};

// ---- decoders bundle (issue 7): ABI decoding (viem) and schedule bodies (protobufjs/light + a JSON descriptor
// trimmed from @hashgraph/proto's .proto files) go to dist/decoders.js, which the extension requires on first
// decode (src/api/decode/lazy.ts), never at activation. The extension bundle gets `require("./decoders.js")`
// instead of the module; test bundles include it directly.
const DECODERS_ENTRY = 'src/api/decode/index.ts';
/** Regenerates src/api/decode/schedulableBody.descriptor.json when missing or stale (see descriptor.build.cjs). */
function decoderDescriptor() {
  const r = require('./src/api/decode/descriptor.build.cjs').generateDescriptor(__dirname);
  if (r.regenerated) console.log(`${path.relative(__dirname, r.path)} ${(r.bytes / 1024).toFixed(1)} KB, ${r.types} protobuf types`);
}
// ---- lazy chunks: code the extension needs only after activation is kept out of dist/main.js, whose size is
// loading time paid on every activation. Each chunk is a bundle of its own next to it; the one `require` that
// loads it (inside a function, on first use) is rewritten by this plugin to `require("./<chunk>")`. A chunk
// bundles its own copy of the small shared modules it uses (errors, validation, tree nodes): those hold no state,
// and the classes checked across copies (ApiError, DetailNode) answer `instanceof` by a brand. Test and bench
// builds keep every module inline.
const LAZY_CHUNKS = [
  // lazy.ts's require('./index'): ABI and schedule-body decoders (issue 7)
  { importer: /src[\\/]api[\\/]decode[\\/]lazy\.ts$/, request: /^\.\/index$/, chunk: 'decoders.js', entry: DECODERS_ENTRY },
  // http.ts's require('axios'): axios with follow-redirects, proxy-from-env and debug (about 110 KB minified),
  // loaded by the first request, which is never made inside activate()
  { importer: /src[\\/]api[\\/]http\.ts$/, request: /^axios$/, chunk: 'axios.js', entry: 'src/shims/axios-chunk.js' },
  // the NFT history panels, on the first "Show NFT History" or panel restore (src/nft/register.ts)
  { importer: /src[\\/]features[\\/]nftHistory[\\/]index\.ts$/, request: /^\.\/lazy$/, chunk: 'nft.js', entry: 'src/features/nftHistory/lazy.ts' },
  // the ABI index's workspace readers (deployment records, build-info inheritance), with the first decode
  { importer: /src[\\/]features[\\/]decoding[\\/]abiIndex\.ts$/, request: /^\.\.\/\.\.\/workspace\/derivation$/, chunk: 'derivation.js', entry: 'src/workspace/derivation.ts' },
  // "Verify Contract": discovery, build info, Sourcify clients, local check (src/commands/verification.ts)
  { importer: /src[\\/]features[\\/]verification[\\/]index\.ts$/, request: /^\.\/verifyContract$/, chunk: 'verify.js', entry: 'src/features/verification/verifyContract.ts' },
];
// the loader's require('./extension') is dist/main.js (built from src/extension.ts below)
const MAIN = { importer: /src[\\/]loader\.ts$/, request: /^\.\/extension$/, chunk: 'main.js' };
const lazyChunks = {
  name: 'lazy-chunks',
  setup(build) {
    build.onResolve({ filter: /.*/ }, (args) => {
      const lazy = [MAIN, ...LAZY_CHUNKS].find((c) => c.request.test(args.path) && c.importer.test(args.importer));
      return lazy && args.kind === 'require-call' ? { path: `./${lazy.chunk}`, external: true } : undefined;
    });
  },
};
extension.plugins = [...common.plugins, lazyChunks];
/** A CommonJS bundle for the extension host next to dist/main.js (same settings). */
const nodeBundle = (entry, outName) => ({
  ...common,
  plugins: [...common.plugins, lazyChunks],
  entryPoints: [entry],
  outfile: path.join(distDir, outName),
  platform: 'node',
  format: 'cjs',
  target: 'node20',
  external: ['vscode'],
  alias: extension.alias,
  minify: production,
  sourcemap: !production,
  sourcesContent: false,
  metafile: true,
});
/** dist/extension.js (package.json "main"): the loader, which requires dist/main.js and times it. */
const loaderBundle = nodeBundle('src/loader.ts', 'extension.js');
/** The chunks (dist/decoders.js, dist/axios.js: axios's CommonJS build, dist/nft.js, dist/verify.js). */
const chunkBundles = LAZY_CHUNKS.map((c) => nodeBundle(c.entry, c.chunk));
// ---- end lazy chunks

/** Browser bundles for webviews: dist/webview/<name>.js. */
const WEBVIEW_ENTRIES = ['src/features/nftHistory/webview/nftHistory.main.ts'];
function webviewEntries() {
  return WEBVIEW_ENTRIES;
}
const webview = () => ({
  ...common,
  entryPoints: webviewEntries(),
  outdir: 'dist/webview',
  entryNames: '[name]',
  platform: 'browser',
  format: 'iife',
  target: 'es2022',
  minify: production,
  sourcemap: !production,
});

// ---- codicons for webviews (NFT history): copies @vscode/codicons' codicon.css + codicon.ttf into dist/webview/,
// next to the webview bundles, so that pages load them from localResourceRoots (CSP font-src/style-src cspSource).
function copyCodicons() {
  const from = path.join(__dirname, 'node_modules', '@vscode', 'codicons', 'dist');
  const to = path.join(__dirname, 'dist', 'webview');
  // a production build starts from an empty folder: no source maps of an earlier dev build may ship
  if (production) fs.rmSync(to, { recursive: true, force: true });
  if (!fs.existsSync(from)) { console.warn('@vscode/codicons is not installed: webviews show no icons (npm install)'); return; }
  fs.mkdirSync(to, { recursive: true });
  for (const f of ['codicon.css', 'codicon.ttf']) fs.copyFileSync(path.join(from, f), path.join(to, f));
}
// ---- end codicons

const sandbox = {
  ...common,
  entryPoints: ['src/sandbox/cli.ts'].filter((f) => fs.existsSync(f)),
  outfile: 'out/sandbox/cli.js',
  platform: 'node',
  format: 'cjs',
  target: 'node20',
  sourcemap: true,
};

function listTests(dir, suffix) {
  if (!fs.existsSync(dir)) return [];
  return fs.readdirSync(dir, { recursive: true })
    .filter((f) => f.endsWith(suffix))
    .map((f) => path.join(dir, f));
}

/** Test bundles: each test file on its own, mocha and vscode left to the runner. */
const testBuilds = () => [
  {
    ...common,
    entryPoints: listTests('test/unit', '.test.ts'),
    outdir: 'out/test/unit',
    outbase: 'test/unit',
    platform: 'node',
    format: 'cjs',
    target: 'node20',
    external: ['mocha', 'vscode', 'esbuild'],
    sourcemap: true,
  },
  {
    ...common,
    entryPoints: [...listTests('test/integration', '.test.ts'), ...listTests('test/integration', 'index.ts')],
    outdir: 'out/test/integration',
    outbase: 'test/integration',
    platform: 'node',
    format: 'cjs',
    target: 'node20',
    external: ['mocha', 'vscode'],
    sourcemap: true,
  },
];

/** Benchmarks that run the API layer under plain Node. */
const benchBuild = {
  ...common,
  entryPoints: listTests('test/bench', '.ts'),
  outdir: 'out/test/bench',
  outbase: 'test/bench',
  platform: 'node',
  format: 'cjs',
  target: 'node20',
};

async function main() {
  const builds = onlySandbox ? [sandbox] : tests ? [sandbox, ...testBuilds()] : bench ? [sandbox, benchBuild] : nodeOnly ? [loaderBundle, extension, ...chunkBundles] : [loaderBundle, extension, webview(), ...chunkBundles];
  const active = builds.filter((b) => b.entryPoints.length > 0);
  // test bundles of deleted test files must not linger and run
  if (tests && !watch) for (const d of ['out/test/unit', 'out/test/integration']) fs.rmSync(path.join(__dirname, d), { recursive: true, force: true });
  // a production build leaves no source map of an earlier development build behind (the .vsix must not ship one)
  if (production && !watch) {
    for (const dir of [distDir, path.join(distDir, 'webview')]) {
      for (const f of fs.existsSync(dir) ? fs.readdirSync(dir) : []) if (f.endsWith('.map')) fs.rmSync(path.join(dir, f), { force: true });
    }
  }
  if (!onlySandbox) decoderDescriptor(); // decoders bundle: the protobuf descriptor the decoders (and their tests) import
  if (!onlySandbox && !tests && !bench && !nodeOnly) copyCodicons(); // codicons for webviews
  if (watch) {
    for (const b of active) await (await esbuild.context(b)).watch();
    return;
  }
  const results = await Promise.all(active.map((b) => esbuild.build(b)));
  if (results.some((r) => r.errors.length)) process.exit(1);
  if (!onlySandbox && !tests && !bench) {
    const notes = { 'extension.js': ' (the loader)', 'main.js': ' (required by it)', 'decoders.js': ' (loaded on first decode)', 'axios.js': ' (loaded on first request)', 'nft.js': ' (loaded on first NFT history)', 'verify.js': ' (loaded on first verification)', 'derivation.js': ' (loaded with the first decode)' };
    for (const r of results) {
      for (const [file, out] of Object.entries(r.metafile ? r.metafile.outputs : {})) {
        const note = notes[path.basename(file)];
        if (note !== undefined && !file.endsWith('.map')) console.log(`${file} ${(out.bytes / 1024).toFixed(1)} KB${production ? ' (minified)' : ''}${note}`);
      }
    }
  }
}

main().catch((e) => { console.error(e); process.exit(1); });
