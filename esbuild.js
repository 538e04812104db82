// The build (esbuild). What activation loads must stay small (CONTRIBUTING.md, "Startup"), so the extension is split:
// code needed only later is required on first use, inside a function (`require('./view') as typeof import('./view')`),
// and each such module is declared once below, in LAZY_ENTRIES.
//
//   node esbuild.js               dist/: the loader VS Code starts (extension.js, src/loader.ts), the extension it
//                                 requires (main.js, src/extension.ts), the lazy entries (<name>.js), the chunks they
//                                 share (chunk-<hash>.js), the webviews (webview/)
//   node esbuild.js --production  the same, minified, no source maps: what the .vsix ships and the suites run
//   node esbuild.js --watch       rebuild on change
//   --sandbox / --tests / --bench the sandbox, the test or the bench bundles into out/ (build/devBuilds.cjs)
//   --outdir=<dir> --metafile=<file> --unpacked
//                                 for the bench: the Node files to <dir> (no webviews), the metafile as JSON, and
//                                 production without packing (packActivation)
// `require('./esbuild.js')` builds nothing: it returns the entries and the metafile helpers (the bench, the .vsix check).
//
// The product build, top-down:
//   extensionBuild  ONE esbuild build of main and every lazy entry with code splitting: a module several entries use
//                   goes to a shared chunk, so it exists once at run time (one ApiError class: `instanceof` works).
//                   A require() that resolves to a lazy entry's file stays `require("./<name>.js")` (lazyRequires).
//   toCommonJs      esbuild splits only ES modules: each output is converted to CommonJS (loading stays a synchronous
//                   require) and written; production packs the chunks activation needs into main.js (packActivation).
//   checks          the build fails when a lazy entry is loaded at activation or required by nothing, when a module
//                   is in two outputs (build/splitting.cjs), or when a module of the sandbox or of test/ is in any
//                   output (notShipped).
// To add a lazy entry: require it as above where it is first needed and add its line to LAZY_ENTRIES (the .vsix check
// and the bench follow).
const esbuild = require('esbuild');
const fs = require('fs');
const path = require('path');
const { outputClosure, inputsOf, dropUnloaded, splitErrors, printSizes } = require('./build/splitting.cjs');
const { devBuilds, cleanTestOutputs } = require('./build/devBuilds.cjs');
const { browserBuild } = require('./build/browser.cjs');

const root = __dirname;

/**
 * The lazily required entries: `file` (a path under src/, or a package resolved as Node's `require` does) is built to
 * dist/<name>.js, and every `require()` that resolves to it loads it from there. `note`: when it loads. Each one keeps
 * at least 20 KB out of activation or saves at least 1 ms (CONTRIBUTING.md, "Startup", has the figures).
 */
const LAZY_ENTRIES = [
  {
    name: 'decoders',
    file: 'src/api/decode/index.ts',
    note: 'first decode: ABI (viem) and schedule bodies (protobufjs)',
  },
  {
    name: 'clients',
    file: 'src/api/clients.ts',
    note: 'first request: the mirror node, status page and Sourcify clients, HTTP, lossless JSON',
  },
  { name: 'axios', file: 'axios', note: 'first request (src/api/http.ts): axios, follow-redirects, proxy-from-env' },
  { name: 'abiIndex', file: 'src/features/decoding/abiIndex.ts', note: 'first decode: the ABI index of the workspace' },
  { name: 'nftHistory', file: 'src/features/nftHistory/lazy.ts', note: 'first "Show NFT History" or panel restore' },
  {
    name: 'contractCall',
    file: 'src/features/contractCall/lazy.ts',
    note: 'first "Call Contract" or call panel restore: finding the ABI, the panels, the calls kept',
  },
  {
    name: 'inspector',
    file: 'src/features/inspector/lazy.ts',
    note: 'first "Inspect Transaction" or inspector panel restore: loader, trace/event/storage decoding, panel',
  },
  {
    name: 'ledgerLinks',
    file: 'src/features/ledgerLinks/lazy.ts',
    note: 'first hover or document links (the providers of src/features/ledgerLinks): recognizing references, look-ups, hover text',
  },
  {
    name: 'replay',
    file: 'src/api/replay/index.ts',
    note: 'first local replay of a transaction (src/api/source/stepTrace.ts): @ethereumjs/evm and the replay engine',
  },
  { name: 'verify', file: 'src/features/verification/verifyContract.ts', note: 'first "Verify Contract"' },
  { name: 'verificationView', file: 'src/features/verification/view.ts', note: 'first rows of the Verification view' },
  { name: 'schedules', file: 'src/features/schedules/view.ts', note: 'first rows of the Schedules view' },
  {
    name: 'contractResults',
    file: 'src/features/contractResults/view.ts',
    note: 'first rows of the Contract Results view',
  },
  { name: 'statusView', file: 'src/features/status/view.ts', note: 'first rows of the Status view' },
  {
    name: 'debug',
    file: 'src/features/debug/lazy.ts',
    note: 'first debug session of type hedera: the inline adapter (@vscode/debugadapter), the trace model, the loader',
  },
  {
    name: 'deployments',
    file: 'src/features/deployments/lazy.ts',
    note: 'first rows of the Deployments view or first Solidity file shown (CodeLens): deployment records, lookups, rows, lenses',
  },
];
/** The extension itself: dist/main.js, required (and timed) by the loader dist/extension.js (src/loader.ts). */
const MAIN_ENTRY = {
  name: 'main',
  file: 'src/extension.ts',
  note: 'the extension, required by the loader at activation',
};
/** The webview pages: browser bundles, dist/webview/<name>.js. */
const WEBVIEW_ENTRIES = [
  'src/features/nftHistory/webview/nftHistory.main.ts',
  'src/features/inspector/webview/inspector.main.ts',
  'src/features/contractCall/webview/contractCall.main.ts',
];

/** The absolute path of an entry's file. */
function entryPath(entry) {
  return entry.file.startsWith('src/') ? path.join(root, entry.file) : require.resolve(entry.file, { paths: [root] });
}

const arg = (name) => (process.argv.find((a) => a.startsWith(`--${name}=`)) || '').slice(name.length + 3);
const production = process.argv.includes('--production');
const watch = process.argv.includes('--watch');
const dev = ['sandbox', 'tests', 'bench'].find((k) => process.argv.includes(`--${k}`));
const distDir = path.resolve(root, arg('outdir') || 'dist');
const nodeOnly = distDir !== path.join(root, 'dist'); // --outdir: the Node bundles only, no webviews or codicons
const rel = (f) => path.relative(root, f) || '.';

async function main() {
  if (dev) {
    if (dev !== 'sandbox') decoderDescriptor(); // the decoders' tests import it
    if (dev === 'tests' && !watch) cleanTestOutputs();
    return run(devBuilds(dev, common));
  }
  // a production build leaves no source map of an earlier development build behind (the .vsix must not ship one)
  if (production && !watch)
    for (const dir of [distDir, path.join(distDir, 'webview')])
      for (const f of fs.existsSync(dir) ? fs.readdirSync(dir) : [])
        if (f.endsWith('.map')) fs.rmSync(path.join(dir, f), { force: true });
  decoderDescriptor();
  if (!nodeOnly) copyCodicons();
  const results = await run([loaderBundle, extensionBuild, ...(nodeOnly ? [] : [webviewBuild, webExtensionBuild()])]);
  if (!results) return; // watching
  const shipped = results.flatMap((r) => (r.metafile ? notShipped(r.metafile) : []));
  if (!nodeOnly) webSize();
  for (const p of shipped) console.error(`✘ [ERROR] ${p}`);
  if (splitProblems.length || shipped.length) process.exit(1);
  const loader = path.join(distDir, 'extension.js');
  console.log(
    `${rel(loader)} ${kb(fs.statSync(loader).size)}${production ? ' (minified)' : ''}: the loader VS Code starts`,
  );
}

/** Runs the builds (or watches them: returns nothing); exits 1 when one failed (its errors are printed). */
async function run(builds) {
  const active = builds.filter((b) => b.entryPoints.length > 0);
  if (watch) {
    for (const b of active) await (await esbuild.context(b)).watch();
    return undefined;
  }
  const results = await Promise.all(active.map((b) => esbuild.build(b)));
  if (results.some((r) => r.errors.length)) process.exit(1);
  return results;
}

// ---- the product builds

/** Prints build start/end in the form VS Code's esbuild problem matcher understands. */
const problemMatcher = {
  name: 'esbuild-problem-matcher',
  setup(build) {
    build.onStart(() => {
      if (watch) console.log('[watch] build started');
    });
    build.onEnd((result) => {
      for (const { text, location } of result.errors) {
        console.error(`✘ [ERROR] ${text}`);
        if (location) console.error(`    ${location.file}:${location.line}:${location.column}:`);
      }
      if (watch) console.log('[watch] build finished');
    });
  },
};
const common = { absWorkingDir: root, bundle: true, logLevel: 'silent', plugins: [problemMatcher] };

/** Settings of every bundle the extension host loads: Node, `vscode` provided by the host. */
const extensionHost = {
  platform: 'node',
  target: 'node20',
  external: ['vscode'],
  // axios's multipart support is never used; its form-data dependency would add mime-db (~140 KB).
  alias: { 'form-data': './src/shims/form-data.ts' },
  minify: production,
  metafile: true,
};

/** dist/extension.js (package.json "main"): the loader, a CommonJS bundle that requires dist/main.js and times it. */
const loaderBundle = {
  ...common,
  ...extensionHost,
  plugins: [...common.plugins, lazyRequires([MAIN_ENTRY])],
  entryPoints: ['src/loader.ts'],
  outfile: path.join(distDir, 'extension.js'),
  format: 'cjs',
  sourcemap: !production,
  sourcesContent: false,
};
const LOADER_FILES = ['extension.js', 'extension.js.map'];

/** The extension: main.js + the lazy entries + their shared chunks, in one build (see the header). */
const extensionBuild = {
  ...common,
  ...extensionHost,
  plugins: [oneVscodeRequire(), lazyRequires(LAZY_ENTRIES), toCommonJs(), problemMatcher],
  entryPoints: [MAIN_ENTRY, ...LAZY_ENTRIES].map((e) => ({ in: entryPath(e), out: e.name })),
  outdir: distDir,
  entryNames: '[name]',
  chunkNames: 'chunk-[hash]', // next to main.js: the chunks are required by relative paths
  splitting: true,
  format: 'esm', // converted to CommonJS by toCommonJs
  sourcemap: production ? false : 'inline', // read back by toCommonJs's transform, which writes the .map files
  sourcesContent: false,
  write: false,
};

/** The webview pages (dist/webview/), for the browser. */
const webviewBuild = {
  ...common,
  entryPoints: WEBVIEW_ENTRIES,
  outdir: 'dist/webview',
  entryNames: '[name]',
  platform: 'browser',
  format: 'iife',
  target: 'es2022',
  minify: production,
  sourcemap: !production,
  metafile: true,
};

/** dist/web/extension.js (package.json "browser"): the extension for VS Code for the web (build/browser.cjs). */
const webExtensionBuild = (outdir = distDir, minify = production) =>
  browserBuild({ esbuild, common, plugins: [oneVscodeRequire(), problemMatcher], production: minify, outdir });

function webSize() {
  const file = path.join(distDir, 'web', 'extension.js');
  console.log(`${rel(file)} ${kb(fs.statSync(file).size)}${production ? ' (minified)' : ''}: the browser build`);
}

/**
 * `vscode` imports of the extension's modules resolve to src/shims/vscode.ts, whose own import is the bundle's one
 * `require('vscode')` (external): the API is asked for once, not once per module (see the shim).
 * Modules write `import * as vscode from 'vscode'`, the form `@vscode/l10n-dev export` reads their `vscode.l10n.t`
 * calls through; it is loaded as `import vscode = require('vscode')`, which esbuild bundles as the shim's one object
 * (a namespace import of a CommonJS module would copy the whole API into a new object in every module).
 */
function oneVscodeRequire() {
  const shim = path.join(root, 'src', 'shims', 'vscode.ts');
  const namespaceImport = /^import \* as vscode from 'vscode';$/m;
  return {
    name: 'one-vscode-require',
    setup(build) {
      build.onResolve({ filter: /^vscode$/ }, (args) =>
        args.importer === shim ? { path: 'vscode', external: true } : { path: shim },
      );
      build.onLoad({ filter: /[\\/]src[\\/].*\.ts$/ }, async (args) => {
        const text = await fs.promises.readFile(args.path, 'utf8');
        if (!namespaceImport.test(text)) return undefined;
        return { contents: text.replace(namespaceImport, "import vscode = require('vscode');"), loader: 'ts' };
      });
    },
  };
}

/** `require()` (and `require.resolve()`) of one of `entries`' files becomes `require("./<name>.js")` (external). */
function lazyRequires(entries) {
  return {
    name: 'lazy-requires',
    setup(build) {
      const byFile = new Map(entries.map((e) => [entryPath(e), e]));
      const again = {}; // pluginData of our own build.resolve below
      build.onResolve({ filter: /.*/ }, async (args) => {
        if ((args.kind !== 'require-call' && args.kind !== 'require-resolve') || args.pluginData === again)
          return undefined;
        const r = await build.resolve(args.path, {
          kind: args.kind,
          importer: args.importer,
          resolveDir: args.resolveDir,
          pluginData: again,
        });
        const entry = r.errors.length || r.external ? undefined : byFile.get(r.path);
        return entry ? { path: `./${entry.name}.js`, external: true } : undefined;
      });
    },
  };
}

/** Failures of the split checks of the last extension build. */
let splitProblems = [];

/**
 * Converts the in-memory ESM output of the extension build to CommonJS and writes it (development: with source maps
 * that still point into src/); drops outputs nothing loads; production packs the activation chunks into main.js;
 * removes .js files of earlier builds (old chunks must not ship); then checks the split and prints the sizes.
 */
function toCommonJs() {
  return {
    name: 'to-commonjs',
    setup(build) {
      build.onEnd(async (result) => {
        if (result.errors.length || !result.outputFiles) return;
        const metafile = result.metafile;
        const entries = [MAIN_ENTRY, ...LAZY_ENTRIES].map((e) => ({ ...e, file: path.join(distDir, `${e.name}.js`) }));
        const unused = dropUnloaded(
          metafile,
          result.outputFiles,
          entries.map((e) => e.file),
          { quiet: watch },
        );
        const codes = new Map();
        fs.mkdirSync(distDir, { recursive: true });
        for (const out of result.outputFiles.filter((o) => !unused.includes(o.path))) {
          const name = path.basename(out.path);
          const cjs = await esbuild.transform(out.text, {
            format: 'cjs',
            platform: 'node',
            target: 'node20',
            supported: { 'dynamic-import': false },
            minify: production,
            sourcefile: name,
            sourcemap: production ? false : 'external',
            sourcesContent: false,
          });
          codes.set(out.path, cjs.map ? `${cjs.code}//# sourceMappingURL=${name}.map\n` : cjs.code);
          if (cjs.map) fs.writeFileSync(`${out.path}.map`, cjs.map);
        }
        if (production && !process.argv.includes('--unpacked')) packActivation(metafile, codes);
        const sizes = new Map();
        for (const [file, code] of codes) {
          fs.writeFileSync(file, code);
          sizes.set(file, Buffer.byteLength(code));
        }
        const written = new Set(
          [...sizes.keys()].flatMap((f) => [path.basename(f), ...(production ? [] : [`${path.basename(f)}.map`])]),
        );
        for (const f of fs.readdirSync(distDir))
          if (/\.js(\.map)?$/.test(f) && !written.has(f) && !LOADER_FILES.includes(f))
            fs.rmSync(path.join(distDir, f), { force: true });
        if (arg('metafile')) fs.writeFileSync(arg('metafile'), JSON.stringify(metafile));
        const [main] = entries;
        splitProblems = splitErrors(
          metafile,
          main.file,
          LAZY_ENTRIES.map((e) => ({ name: e.name, path: entryPath(e) })),
        );
        for (const p of splitProblems) console.error(`✘ [ERROR] ${p}`);
        if (!watch) printSizes(metafile, entries, sizes, { minified: production });
      });
    },
  };
}

/**
 * Production: what activation loads is ONE file. The chunks main.js requires at activation (its static closure) are
 * packed into main.js, each as a module function run once on first require; each such chunk's own file becomes a
 * one-line stub that hands out main.js's instance, so a lazy entry requiring it later gets the same module. The
 * metafile is updated to match (the chunks' modules are main.js's, a stub holds none). Development builds keep the
 * chunks as files (their source maps stay exact).
 */
function packActivation(metafile, codes) {
  const mainFile = path.join(distDir, `${MAIN_ENTRY.name}.js`);
  const eager = outputClosure(metafile, mainFile).filter((f) => f !== mainFile);
  if (!eager.length) return;
  const names = new Set(eager.map((f) => path.basename(f)));
  const packed = (code) =>
    code.replace(/require\("\.\/([\w.-]+\.js)"\)/g, (m, n) => (names.has(n) ? `__packed(${JSON.stringify(n)})` : m));
  // each chunk runs at activation: in parentheses, V8 compiles its function at once (its heuristic for a function
  // called right away) instead of pre-parsing it with main.js and parsing it again on the call
  const defs = eager
    .map((f) => `${JSON.stringify(path.basename(f))}:(function(module,exports){${packed(codes.get(f))}\n})`)
    .join(',\n');
  const prelude =
    `var __packedDefs={${defs}},__packedModules={};` +
    'function __packed(n){var m=__packedModules[n];if(!m){m=__packedModules[n]={exports:{}};__packedDefs[n](m,m.exports)}return m.exports}\n';
  codes.set(mainFile, `${prelude}${packed(codes.get(mainFile))}\nmodule.exports.__packed=__packed;\n`);
  const main = metafile.outputs[rel(mainFile)];
  for (const f of eager) {
    const key = rel(f);
    const chunk = metafile.outputs[key];
    Object.assign(main.inputs, chunk.inputs);
    main.imports.push(...chunk.imports);
    codes.set(
      f,
      `module.exports=require("./${path.basename(mainFile)}").__packed(${JSON.stringify(path.basename(f))});\n`,
    );
    metafile.outputs[key] = { ...chunk, imports: [], inputs: {}, bytes: Buffer.byteLength(codes.get(f)) };
  }
  const eagerKeys = new Set(eager.map(rel));
  main.imports = main.imports.filter(
    (i, k, all) => !eagerKeys.has(i.path) && all.findIndex((j) => j.path === i.path && j.kind === i.kind) === k,
  );
  main.bytes = Buffer.byteLength(codes.get(mainFile));
}

/** Modules that never ship: the sandbox (a separate Node program) and the tests. */
const NOT_SHIPPED = /^(?:sandbox|test)\//;

/**
 * One sentence per module of the sandbox or of test/ found in an output of a build (its metafile; paths relative to
 * the root), naming the output and what imported it. The extension, loader and webview builds fail on any.
 */
function notShipped(metafile) {
  const importers = (input) =>
    Object.entries(metafile.inputs)
      .filter(([, i]) => i.imports.some((x) => x.path === input))
      .map(([f]) => f);
  return Object.entries(metafile.outputs).flatMap(([out, o]) =>
    Object.keys(o.inputs)
      .filter((i) => NOT_SHIPPED.test(i))
      .map(
        (i) =>
          `${i} is in ${out} (imported by ${importers(i).join(', ') || 'an entry point'}): the sandbox and test/ never ship`,
      ),
  );
}

/**
 * The decoders read src/api/decode/schedulableBody.descriptor.json, trimmed from @hashgraph/proto's .proto files:
 * regenerated when missing or stale (see descriptor.build.cjs).
 */
function decoderDescriptor() {
  const r = require(path.join(root, 'src/api/decode/descriptor.build.cjs')).generateDescriptor(root);
  if (r.regenerated) console.log(`${rel(r.path)} ${kb(r.bytes)}, ${r.types} protobuf types`);
}

/**
 * The webviews' icons: @vscode/codicons' codicon.css and codicon.ttf next to the webview bundles, where the pages
 * load them from (localResourceRoots; CSP font-src/style-src cspSource).
 */
function copyCodicons() {
  const from = path.join(root, 'node_modules', '@vscode', 'codicons', 'dist');
  const to = path.join(root, 'dist', 'webview');
  // a production build starts from an empty folder: no source maps of an earlier dev build may ship
  if (production) fs.rmSync(to, { recursive: true, force: true });
  if (!fs.existsSync(from)) {
    console.warn('@vscode/codicons is not installed: webviews show no icons (npm install)');
    return;
  }
  fs.mkdirSync(to, { recursive: true });
  for (const f of ['codicon.css', 'codicon.ttf']) fs.copyFileSync(path.join(from, f), path.join(to, f));
}

function kb(bytes) {
  return `${(bytes / 1024).toFixed(1)} KB`;
}

module.exports = { LAZY_ENTRIES, MAIN_ENTRY, entryPath, outputClosure, inputsOf, notShipped, webExtensionBuild };

if (require.main === module)
  main().catch((e) => {
    if (!e.errors) console.error(e); // a failed build has printed its errors (problemMatcher)
    process.exit(1);
  });
