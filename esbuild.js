// Build script (the `yo code` esbuild template, extended).
//   node esbuild.js               the loader VS Code starts (dist/extension.js, src/loader.ts), the extension it requires
//                                 (dist/main.js, src/extension.ts), the lazy entries (LAZY_ENTRIES below: dist/<name>.js),
//                                 the chunks they share (dist/chunk-<hash>.js) and the webviews (dist/webview/*)
//   node esbuild.js --production  the same, minified, no source maps: what the .vsix ships and the integration and
//                                 end-to-end suites run
//   node esbuild.js --watch       rebuild on change
//   node esbuild.js --sandbox     the sandbox server (out/sandbox/cli.js, from sandbox/src), used by `npm run sandbox` and tests
//   node esbuild.js --tests       unit tests (out/test/unit), integration suites (out/test/integration), the sandbox and
//                                 its tests (out/sandbox/test)
//   node esbuild.js --bench       benchmarks (out/test/bench) and the sandbox
//   --outdir=<dir>                the Node bundles (loader, main.js, lazy entries, chunks) there instead of dist/ (the bench)
//   --metafile=<file>             the extension build's esbuild metafile (inputs and outputs) as JSON there
//   --unpacked                    production without packing the activation chunks into main.js (the bench's variant)
// `require('./esbuild.js')` builds nothing: it returns LAZY_ENTRIES and the helpers the .vsix check
// (test/harness/package-vsix.mjs) and the bench (test/bench/*.mjs) read.
//
// How the extension is split. What activation loads must stay small (CONTRIBUTING "Startup"), so code needed only
// later is required on first use, inside a function: `require('./view') as typeof import('./view')`.
//   LAZY_ENTRIES    every such module, declared once, by its file. One stays only if it keeps at least 20 KB out of
//                   what activation loads or saves at least 1 ms (CONTRIBUTING "Startup" has the figures).
//   extensionBuild  ONE esbuild build, entry points main (src/extension.ts) and every lazy entry, code splitting on:
//                   a require() of a declared entry's file stays `require("./<name>.js")` (lazyRequires); a module
//                   several entries use goes to a shared chunk that each of them requires, so every module exists once
//                   at run time (one ApiError class: `instanceof` needs no patches).
//   toCommonJs      esbuild splits only ES modules: the build writes ESM in memory, each output is converted to
//                   CommonJS (loading stays a synchronous require) and written.
//   packActivation  production: the chunks activation needs are packed into main.js (activation reads one file).
//   checkOutputs    the build fails when a lazy entry is in the activation closure (main.js and the chunks it requires
//                   statically: some file imported it statically), when no require() reaches it, or when a module is
//                   in two output files;
//   notShipped      … and when a module of the sandbox or of test/ is in any output of the extension, loader or
//                   webview builds.
// To add a lazy entry: require it as above where it is first needed, then add its line to LAZY_ENTRIES (the .vsix
// check and the bench follow). The loader dist/extension.js is a bundle of its own: it requires main.js and times
// that; its one module besides itself (src/core/cpuTime.ts, stateless) is a second copy. Unit, integration-test,
// sandbox and bench bundles are one bundle per file, with every module inline.
const esbuild = require('esbuild');
const fs = require('fs');
const path = require('path');

const root = __dirname;

/**
 * The lazily required entry points: `file` (a path under src/, or a package resolved as Node's `require` does)
 * is built to dist/<name>.js, and every `require()` that resolves to that file loads it from there. `note`: when.
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
    name: 'inspector',
    file: 'src/features/inspector/lazy.ts',
    note: 'first "Inspect Transaction" or inspector panel restore: loader, trace/event/storage decoding, panel',
  },
  {
    name: 'ledgerLinks',
    file: 'src/features/ledgerLinks/lazy.ts',
    note: 'first hover or document links (the providers of src/features/ledgerLinks): recognizing references, look-ups, hover text',
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
/**
 * A lazy entry in the activation closure (imported statically somewhere, by mistake) or required by nothing: an error
 * when true (the build fails), a warning when false (while files are being converted to lazy requires).
 */
const STRICT_LAZY = true;

/** The absolute path of an entry's file. */
function entryPath(entry) {
  return /^(src|test)\//.test(entry.file)
    ? path.join(root, entry.file)
    : require.resolve(entry.file, { paths: [root] });
}

/**
 * The output files (absolute paths) that requiring `file` loads at once: the file and the chunks it requires
 * statically, transitively; lazy entries are required later, on first use. `dynamic`: also the chunks loaded later
 * by import() (viem has some). Read from the extension build's metafile (`--metafile=`; paths relative to the root).
 */
function outputClosure(metafile, file, { dynamic = false } = {}) {
  const abs = (f) => path.resolve(root, f);
  const outputs = new Map(Object.entries(metafile.outputs).map(([f, o]) => [abs(f), o]));
  const seen = new Set();
  for (const todo = [abs(file)]; todo.length;) {
    const f = todo.pop();
    if (seen.has(f) || !outputs.has(f)) continue;
    seen.add(f);
    for (const i of outputs.get(f).imports) {
      if (!i.external && (i.kind === 'import-statement' || (dynamic && i.kind === 'dynamic-import')))
        todo.push(abs(i.path));
    }
  }
  return [...seen];
}

/** The modules (absolute paths) in the given output files, from the metafile. */
function inputsOf(metafile, files) {
  return new Set(
    Object.entries(metafile.outputs)
      .filter(([f]) => files.includes(path.resolve(root, f)))
      .flatMap(([, o]) => Object.keys(o.inputs).map((i) => path.resolve(root, i))),
  );
}

/** Modules that never ship: the sandbox (a separate Node program, today's folder and the planned one) and the tests. */
const NOT_SHIPPED = /^(?:src\/sandbox|sandbox|test)\//;

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

module.exports = { LAZY_ENTRIES, MAIN_ENTRY, STRICT_LAZY, entryPath, outputClosure, inputsOf, notShipped };

const production = process.argv.includes('--production');
const watch = process.argv.includes('--watch');
const onlySandbox = process.argv.includes('--sandbox');
const tests = process.argv.includes('--tests');
const bench = process.argv.includes('--bench');
const distDir = path.resolve(
  root,
  (process.argv.find((a) => a.startsWith('--outdir=')) || '--outdir=dist').slice('--outdir='.length),
);
const metafileOut = (process.argv.find((a) => a.startsWith('--metafile=')) || '').slice('--metafile='.length);
const nodeOnly = distDir !== path.join(root, 'dist'); // --outdir: the Node bundles only, no webviews or codicons
const rel = (f) => path.relative(root, f) || '.';
const kb = (bytes) => `${(bytes / 1024).toFixed(1)} KB`;

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

/**
 * `vscode` imports of the extension's modules resolve to src/shims/vscode.ts, whose own import is the bundle's one
 * `require('vscode')` (external): the API is asked for once, not once per module (see the shim).
 * Modules write `import * as vscode from 'vscode'`, the form `@vscode/l10n-dev export` reads their `vscode.l10n.t`
 * calls through; it is loaded as `import vscode = require('vscode')`, which esbuild bundles as the shim's one object
 * (a namespace import of a CommonJS module would copy the whole API into a new object in every module).
 */
const VSCODE_SHIM = path.join(root, 'src', 'shims', 'vscode.ts');
const VSCODE_NAMESPACE_IMPORT = /^import \* as vscode from 'vscode';$/m;
const oneVscodeRequire = {
  name: 'one-vscode-require',
  setup(build) {
    build.onResolve({ filter: /^vscode$/ }, (args) =>
      args.importer === VSCODE_SHIM ? { path: 'vscode', external: true } : { path: VSCODE_SHIM },
    );
    build.onLoad({ filter: /[\\/]src[\\/].*\.ts$/ }, async (args) => {
      const text = await fs.promises.readFile(args.path, 'utf8');
      if (!VSCODE_NAMESPACE_IMPORT.test(text)) return undefined;
      return { contents: text.replace(VSCODE_NAMESPACE_IMPORT, "import vscode = require('vscode');"), loader: 'ts' };
    });
  },
};
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

/**
 * `require()` (and `require.resolve()`) calls whose target resolves to one of `entries`' files become
 * `require("./<name>.js")` (external).
 */
const lazyRequires = (entries) => ({
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
});

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

/** Failures of the checks of the last extension build (checkOutputs). */
let lazyErrors = [];

/**
 * Converts the in-memory ESM output of the extension build to CommonJS, writes it (dev: with source maps that still
 * point into src/), removes .js files of earlier builds that this one did not write (old chunks must not ship), then
 * checks the lazy entries and prints the sizes.
 */
const toCommonJs = {
  name: 'to-commonjs',
  setup(build) {
    build.onEnd(async (result) => {
      if (result.errors.length || !result.outputFiles) return;
      const metafile = result.metafile;
      // a chunk nothing loads is not written: esbuild emits the target of an import() as an entry of its own even
      // when the code making it was dropped as unused (viem's WebSocket transport with `ws`, @noble/curves' secp256k1)
      const outputs = new Map(Object.entries(metafile.outputs).map(([f, o]) => [path.resolve(root, f), [f, o]]));
      const referenced = new Set(
        [...outputs.values()].flatMap(([, o]) =>
          o.imports.filter((i) => !i.external).map((i) => path.resolve(root, i.path)),
        ),
      );
      const entryFiles = [MAIN_ENTRY, ...LAZY_ENTRIES].map((e) => path.join(distDir, `${e.name}.js`));
      const unused = result.outputFiles.filter(
        (out) =>
          outputs.has(out.path) &&
          !entryFiles.includes(out.path) &&
          !referenced.has(out.path) &&
          !result.outputFiles.some((other) => other !== out && other.text.includes(path.basename(out.path))),
      );
      for (const out of unused) {
        if (!watch)
          console.log(
            `${rel(out.path)} not written: nothing loads it (${Object.keys(outputs.get(out.path)[1].inputs).length} modules of an unused import(), first ${Object.keys(outputs.get(out.path)[1].inputs)[0]})`,
          );
        delete metafile.outputs[outputs.get(out.path)[0]];
      }
      const sizes = new Map();
      const codes = new Map();
      fs.mkdirSync(distDir, { recursive: true });
      for (const out of result.outputFiles.filter((o) => !unused.includes(o))) {
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
      for (const [file, code] of codes) {
        fs.writeFileSync(file, code);
        sizes.set(file, Buffer.byteLength(code));
      }
      const written = new Set(
        [...sizes.keys()].flatMap((f) => [path.basename(f), ...(production ? [] : [`${path.basename(f)}.map`])]),
      );
      for (const f of fs.readdirSync(distDir)) {
        if (/\.js(\.map)?$/.test(f) && !written.has(f) && !LOADER_FILES.includes(f))
          fs.rmSync(path.join(distDir, f), { force: true });
      }
      if (metafileOut) fs.writeFileSync(metafileOut, JSON.stringify(metafile));
      lazyErrors = checkOutputs(metafile, sizes);
    });
  },
};

/**
 * Production: what activation loads is ONE file. The shared chunks main.js requires at activation (its static
 * closure) are packed into main.js, each as a module function run once on first require, in the order main.js and
 * the chunks require them; each such chunk's own file becomes a one-line stub that hands out main.js's instance, so
 * a lazy entry requiring it later gets the same module (every module still exists once at run time). Every require
 * of such a chunk is by its file name next to main.js, so the whole folder is one namespace. The metafile is updated
 * to match (the chunks' modules are main.js's, a stub holds none). Development builds keep the chunks as files (their
 * source maps stay exact).
 */
function packActivation(metafile, codes) {
  const mainFile = path.join(distDir, `${MAIN_ENTRY.name}.js`);
  const eager = outputClosure(metafile, mainFile).filter((f) => f !== mainFile);
  if (!eager.length) return;
  const names = new Set(eager.map((f) => path.basename(f)));
  const packed = (code) =>
    code.replace(/require\("\.\/([\w.-]+\.js)"\)/g, (m, n) => (names.has(n) ? `__packed(${JSON.stringify(n)})` : m));
  const defs = eager
    .map((f) => `${JSON.stringify(path.basename(f))}:function(module,exports){${packed(codes.get(f))}\n}`)
    .join(',\n');
  const prelude =
    `var __packedDefs={${defs}},__packedModules={};` +
    'function __packed(n){var m=__packedModules[n];if(!m){m=__packedModules[n]={exports:{}};__packedDefs[n](m,m.exports)}return m.exports}\n';
  codes.set(mainFile, `${prelude}${packed(codes.get(mainFile))}\nmodule.exports.__packed=__packed;\n`);
  const mainKey = rel(mainFile);
  const main = metafile.outputs[mainKey];
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

/** The extension: main.js + the lazy entries + their shared chunks, in one build (see the header). */
const extensionBuild = {
  ...common,
  ...extensionHost,
  plugins: [oneVscodeRequire, lazyRequires(LAZY_ENTRIES), toCommonJs, problemMatcher],
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

/**
 * From the extension build's metafile: every module is in one output file only (else an error); the activation
 * closure (main.js and the chunks it requires statically, transitively); the lazy entries found in it or required
 * by nothing (errors if STRICT_LAZY, else warnings); outside watch mode, the size of every file. Returns the errors.
 */
function checkOutputs(metafile, sizes) {
  const abs = (f) => path.resolve(root, f);
  const outputs = new Map(
    Object.entries(metafile.outputs)
      .filter(([f]) => !f.endsWith('.map'))
      .map(([f, o]) => [abs(f), o]),
  );
  const closure = (start, options) => outputClosure(metafile, start, options);
  const mainFile = path.join(distDir, `${MAIN_ENTRY.name}.js`);
  const activation = closure(mainFile);
  const activationInputs = inputsOf(metafile, activation);
  const required = new Set(
    [...outputs.values()].flatMap((o) =>
      o.imports.filter((i) => i.external && i.kind === 'require-call').map((i) => i.path),
    ),
  );
  const problems = [];
  const errors = [];
  // every module exists once at run time: in exactly one output file (esbuild's splitting does that; this guards it)
  const copies = new Map();
  for (const [f, o] of outputs)
    for (const input of Object.keys(o.inputs)) copies.set(input, [...(copies.get(input) || []), rel(f)]);
  for (const [input, files] of copies)
    if (files.length > 1)
      errors.push(
        `${input} is in ${files.length} output files (${files.join(', ')}): it would exist ${files.length} times at run time`,
      );
  for (const e of LAZY_ENTRIES) {
    const file = entryPath(e);
    if (activationInputs.has(file)) {
      const importers = Object.entries(metafile.inputs)
        .filter(
          ([f, input]) =>
            activationInputs.has(abs(f)) &&
            input.imports.some((i) => i.kind !== 'require-call' && abs(i.path) === file),
        )
        .map(([f]) => f);
      problems.push(
        `lazy entry ${e.name} (${rel(file)}) is loaded at activation: imported statically by ${importers.join(', ') || 'a module of the activation closure'}`,
      );
    } else if (!required.has(`./${e.name}.js`)) {
      problems.push(`lazy entry ${e.name} (${rel(file)}) is required by nothing: no require() resolves to it`);
    }
  }
  if (STRICT_LAZY) errors.push(...problems);
  for (const p of errors) console.error(`✘ [ERROR] ${p}`);
  if (!STRICT_LAZY) for (const p of problems) console.warn(`▲ [WARNING] ${p}`);
  if (!watch) {
    const min = production ? ' (minified)' : '';
    const total = activation.reduce((n, f) => n + sizes.get(f), 0);
    console.log(`${rel(mainFile)} ${kb(sizes.get(mainFile))}${min}: ${MAIN_ENTRY.note}`);
    console.log(
      `  what activation loads (main.js and the chunks it requires): ${activation.length} files, ${kb(total)}${min}`,
    );
    for (const e of LAZY_ENTRIES) {
      const f = path.join(distDir, `${e.name}.js`);
      if (sizes.has(f)) console.log(`${rel(f)} ${kb(sizes.get(f))}${min}: ${e.note}`);
    }
    const entryFiles = [MAIN_ENTRY, ...LAZY_ENTRIES].map((e) => path.join(distDir, `${e.name}.js`));
    const closures = entryFiles.map((f) => [
      path.basename(f, '.js'),
      new Set(closure(f)),
      new Set(closure(f, { dynamic: true })),
    ]);
    const chunks = [...outputs.keys()]
      .filter((f) => !entryFiles.includes(f))
      .sort((a, b) => Number(activation.includes(b)) - Number(activation.includes(a)) || sizes.get(b) - sizes.get(a));
    for (const f of chunks) {
      const users = closures.filter(([, c]) => c.has(f)).map(([n]) => n);
      const later = closures.filter(([, c, d]) => !c.has(f) && d.has(f)).map(([n]) => n);
      console.log(
        `${rel(f)} ${kb(sizes.get(f))}${min}: ${users.length ? `required by ${users.join(', ')}` : ''}${users.length && later.length ? '; ' : ''}${later.length ? `import() of ${later.join(', ')}` : ''}${activation.includes(f) ? ' (loaded at activation)' : ''}`,
      );
    }
  }
  return errors;
}

/**
 * The decoders read src/api/decode/schedulableBody.descriptor.json, trimmed from @hashgraph/proto's .proto
 * files: regenerated here when missing or stale (see descriptor.build.cjs).
 */
function decoderDescriptor() {
  const r = require(path.join(root, 'src/api/decode/descriptor.build.cjs')).generateDescriptor(root);
  if (r.regenerated)
    console.log(`${path.relative(root, r.path)} ${(r.bytes / 1024).toFixed(1)} KB, ${r.types} protobuf types`);
}

/** Browser bundles for webviews: dist/webview/<name>.js. */
const WEBVIEW_ENTRIES = [
  'src/features/nftHistory/webview/nftHistory.main.ts',
  'src/features/inspector/webview/inspector.main.ts',
];
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
  metafile: true,
});

// ---- codicons for webviews (NFT history): copies @vscode/codicons' codicon.css + codicon.ttf into dist/webview/,
// next to the webview bundles, so that pages load them from localResourceRoots (CSP font-src/style-src cspSource).
function copyCodicons() {
  const from = path.join(__dirname, 'node_modules', '@vscode', 'codicons', 'dist');
  const to = path.join(__dirname, 'dist', 'webview');
  // a production build starts from an empty folder: no source maps of an earlier dev build may ship
  if (production) fs.rmSync(to, { recursive: true, force: true });
  if (!fs.existsSync(from)) {
    console.warn('@vscode/codicons is not installed: webviews show no icons (npm install)');
    return;
  }
  fs.mkdirSync(to, { recursive: true });
  for (const f of ['codicon.css', 'codicon.ttf']) fs.copyFileSync(path.join(from, f), path.join(to, f));
}
// ---- end codicons

const sandbox = {
  ...common,
  entryPoints: ['sandbox/src/cli.ts'].filter((f) => fs.existsSync(path.join(root, f))),
  outfile: 'out/sandbox/cli.js',
  platform: 'node',
  format: 'cjs',
  target: 'node20',
  sourcemap: true,
};

function listTests(dir, suffix) {
  if (!fs.existsSync(path.join(root, dir))) return [];
  return fs
    .readdirSync(path.join(root, dir), { recursive: true })
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
    external: ['mocha', 'vscode', 'esbuild', 'eslint', 'solc'],
    sourcemap: true,
  },
  {
    // the sandbox's own tests (sandbox/test/.mocharc.json): out/sandbox/test is as deep as out/test/unit, so both
    // reach the repository's root and out/sandbox/cli.js by the same relative paths
    ...common,
    entryPoints: listTests('sandbox/test', '.test.ts'),
    outdir: 'out/sandbox/test',
    outbase: 'sandbox/test',
    platform: 'node',
    format: 'cjs',
    target: 'node20',
    external: ['mocha'],
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
  const builds = onlySandbox
    ? [sandbox]
    : tests
      ? [sandbox, ...testBuilds()]
      : bench
        ? [sandbox, benchBuild]
        : [loaderBundle, extensionBuild, ...(nodeOnly ? [] : [webview()])];
  const active = builds.filter((b) => b.entryPoints.length > 0);
  // test bundles of deleted test files must not linger and run
  if (tests && !watch)
    for (const d of ['out/test/unit', 'out/test/integration', 'out/sandbox/test'])
      fs.rmSync(path.join(root, d), { recursive: true, force: true });
  // a production build leaves no source map of an earlier development build behind (the .vsix must not ship one)
  if (production && !watch) {
    for (const dir of [distDir, path.join(distDir, 'webview')]) {
      for (const f of fs.existsSync(dir) ? fs.readdirSync(dir) : [])
        if (f.endsWith('.map')) fs.rmSync(path.join(dir, f), { force: true });
    }
  }
  if (!onlySandbox) decoderDescriptor(); // decoders bundle: the protobuf descriptor the decoders (and their tests) import
  if (!onlySandbox && !tests && !bench && !nodeOnly) copyCodicons(); // codicons for webviews
  if (watch) {
    for (const b of active) await (await esbuild.context(b)).watch();
    return;
  }
  const results = await Promise.all(active.map((b) => esbuild.build(b)));
  const shipped =
    onlySandbox || tests || bench ? [] : results.flatMap((r) => (r.metafile ? notShipped(r.metafile) : []));
  for (const p of shipped) console.error(`✘ [ERROR] ${p}`);
  if (results.some((r) => r.errors.length) || lazyErrors.length || shipped.length) process.exit(1);
  if (!onlySandbox && !tests && !bench) {
    const loader = path.join(distDir, 'extension.js');
    console.log(
      `${rel(loader)} ${kb(fs.statSync(loader).size)}${production ? ' (minified)' : ''}: the loader VS Code starts`,
    );
  }
}

// a failed build has printed its errors (problemMatcher)
if (require.main === module)
  main().catch((e) => {
    if (!e.errors) console.error(e);
    process.exit(1);
  });
