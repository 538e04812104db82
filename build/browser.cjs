// The browser build (package.json "browser"): dist/web/extension.js, the extension for VS Code for the web, whose
// extension host is a web worker (no Node). The same sources as the Node build, in one CommonJS bundle with `vscode`
// external; the code that differs is in platform modules: every import of a `platform/node.ts` resolves to the
// `platform/browser.ts` beside it (same names, no Node). The build fails when our code imports a Node module or uses
// a Node global (`process`, `Buffer`), naming the file; a package's Node module fails it too unless the package maps
// it away for browsers.
const fs = require('fs');
const path = require('path');
const { builtinModules } = require('module');

const NODE_GLOBALS = ['process', 'Buffer', 'global', '__dirname', '__filename', 'setImmediate'];

/** `platform/node.ts` → `platform/browser.ts`, for imports written with or without the extension. */
function platformModules() {
  return {
    name: 'platform-modules',
    setup(build) {
      build.onResolve({ filter: /[\\/]platform[\\/]node(?:\.ts)?$/ }, (args) => ({
        path: path.join(args.resolveDir, args.path.replace(/node(?:\.ts)?$/, 'browser.ts')),
      }));
    },
  };
}

/**
 * Node's modules (`fs`, `node:crypto`, …) imported by our code: an error naming the importer. A package's own import
 * is left to esbuild, which follows the package's "browser" map (e.g. `"fs": false`) and fails on the others.
 */
function noNodeModules() {
  const builtins = new Set(builtinModules.flatMap((m) => [m, `node:${m}`]));
  return {
    name: 'no-node-modules',
    setup(build) {
      build.onResolve({ filter: /^[a-z_:/]+$/ }, (args) =>
        builtins.has(args.path) && !args.importer.includes(`${path.sep}node_modules${path.sep}`)
          ? {
              errors: [
                {
                  text: `${args.path} is a Node module (imported by ${path.relative(build.initialOptions.absWorkingDir, args.importer)}): the browser build cannot ship it; use a platform module (src/api/platform, src/workspace/platform)`,
                },
              ],
            }
          : undefined,
      );
    },
  };
}

/** The browser build's esbuild settings. `common`: the shared ones; `plugins`: the extension build's own. */
function browserBuild({ esbuild, common, plugins, production, outdir }) {
  return {
    ...common,
    plugins: [platformModules(), noNodeModules(), noNodeGlobals(esbuild), ...plugins],
    entryPoints: ['src/extension.ts'],
    outfile: path.join(outdir, 'web', 'extension.js'),
    platform: 'browser',
    format: 'cjs',
    target: 'es2022',
    external: ['vscode'],
    // @vscode/debugadapter's Node modules: `events` from the npm package of that name, `url` from the worker's URL
    alias: { url: './build/shims/url.cjs' },
    define: Object.fromEntries(NODE_GLOBALS.map((g) => [g, 'undefined'])),
    minify: production,
    sourcemap: !production,
    sourcesContent: false,
    metafile: true,
  };
}

/**
 * Our modules (src/) must not use a Node global: each is transformed alone with the globals renamed to a mark (a
 * free reference only: a local `process` is not one), and a mark in the result fails the build, naming the file.
 * The packages' own tests of them (`typeof process !== 'undefined' && …`, axios, protobufjs) are folded away by
 * `define` below: in a web worker those globals are undefined.
 */
function noNodeGlobals(esbuild) {
  const MARK = '__nodeGlobal_';
  const define = Object.fromEntries(NODE_GLOBALS.map((g) => [g, `${MARK}${g}`]));
  return {
    name: 'no-node-globals',
    setup(build) {
      build.onLoad({ filter: /[\\/]src[\\/].*\.ts$/ }, async (args) => {
        const text = await fs.promises.readFile(args.path, 'utf8');
        const { code } = await esbuild.transform(text, { loader: 'ts', define, format: 'esm' });
        const used = [...new Set([...code.matchAll(new RegExp(`${MARK}(\\w+)`, 'g'))].map((m) => m[1]))];
        if (!used.length) return undefined;
        const file = path.relative(build.initialOptions.absWorkingDir, args.path);
        return {
          errors: used.map((g) => ({
            text: `${file} uses the Node global ${g}: the browser build cannot ship it; use a platform module (src/api/platform, src/workspace/platform)`,
          })),
        };
      });
    },
  };
}

module.exports = { browserBuild };
