// ESLint (flat config, typescript-eslint). `npm run lint`; part of `npm test` and CI, zero warnings allowed.
//
// The layers, lowest first; each may import only the ones before it (README "Architecture"):
//   src/api        plain TypeScript: HTTP, clients, validation, decoding. No vscode.
//   src/workspace  plain TypeScript: readers of the workspace's build output and deployment records. No vscode.
//   src/core       the extension's infrastructure on vscode: log, settings, secrets, the selected network.
//   src/ui         the shared tree vocabulary: node kinds, the list view base, lazy tree views, copy / open / raw JSON.
//   src/features   one folder per feature; a feature uses another only through that feature's index.ts.
//   src/testSeams.ts  the test seams' types;  src/extension.ts  the composition root;  src/loader.ts  requires it.
// Webview code (src/**/webview/**) runs in a browser page: no vscode, no Node modules, only src/api and its feature's
// protocol. A shim (src/shims: stand-ins for packages) imports no file of the tree. The sandbox (sandbox/src, its tests in
// sandbox/test) is a separate Node program: it shares only src/api with the extension;
// nothing in src/ imports the sandbox or test/. LAYERS below is the table.
import js from '@eslint/js';
import tseslint from 'typescript-eslint';
import { builtinModules } from 'node:module';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import boundaries from 'eslint-plugin-boundaries';

const ROOT = path.dirname(fileURLToPath(import.meta.url));

// The layers are checked on the RESOLVED import graph (eslint-plugin-boundaries, files resolved by
// eslint-import-resolver-typescript as tsc and esbuild do): every import form (import, import type, export … from,
// import x = require, require('…'), import('…'), the types import('…').T and typeof import('…')) is resolved to a file,
// every file of src/ and of the sandbox is on a layer (no-unknown-files), and an arrow is allowed only as the policies
// below draw it. A path written with `..` detours, a shim or a re-export changes nothing: the file it lands on counts,
// and the shim or re-exporting file is itself on a layer. What resolution cannot see (module.require, createRequire,
// a computed require/import()) is refused outright in src/ (UNRESOLVABLE_LOADS).
const SRC = '{ts,tsx,mts,cts,js,mjs,cjs}';
const NODE_BUILTIN = `^(?:node:)?(?:${builtinModules.map((m) => m.replace(/^node:/, '').replace(/[.*+?^${}()|[\]\\]/g, '\\$&')).join('|')})(?:/|$)`;

// The layers. Folders are elements (`boundaries/elements`: the folder and everything in it, first match wins; a pattern
// is the whole path from the repository root); single files are file categories (`boundaries/files`).
const ELEMENTS = [
  { type: 'webview', pattern: 'src/features/*/webview', capture: ['feature'] },
  { type: 'webview', pattern: 'src/**/webview' },
  { type: 'api', pattern: 'src/api' },
  { type: 'workspace', pattern: 'src/workspace' },
  { type: 'core', pattern: 'src/core' },
  { type: 'ui', pattern: 'src/ui' },
  { type: 'feature', pattern: 'src/features/*', capture: ['feature'] },
  { type: 'shim', pattern: 'src/shims' },
  { type: 'sandbox', pattern: 'sandbox/src' },
  { type: 'sandboxTest', pattern: 'sandbox/test' },
  { type: 'test', pattern: 'test' },
].map((e) => ({ partialMatch: false, ...e }));
const FILES = [
  { category: 'features', pattern: `src/features/*.${SRC}` }, // the features' shared context
  { category: 'testSeams', pattern: 'src/testSeams.ts' },
  { category: 'extension', pattern: 'src/extension.ts' },
  { category: 'loader', pattern: 'src/loader.ts' },
];
const isFile = (name) => FILES.some((f) => f.category === name);
const layer = (name) => (isFile(name) ? { file: { categories: name } } : { element: { type: name } });
// what a layer may import: a feature only through its index.ts (a feature's own files are internal: not checked)
const allowTo = (names) => ({
  to: names.map((n) => (n === 'feature' ? { element: { type: 'feature', fileInternalPath: 'index.ts' } } : layer(n))),
});
const ANY = { to: [{ element: { type: '*' } }, { file: { categories: '*' } }] };

// [layer, what it may import besides its own files (the README's arrows, downwards only), the sentence for the rest]
const LAYERS = [
  ['api', [], 'src/api is the lowest layer: it imports only src/api.'],
  ['workspace', ['api'], 'src/workspace imports only src/api.'],
  ['core', ['api', 'workspace'], 'src/core imports only src/api and src/workspace.'],
  [
    'ui',
    ['api', 'workspace', 'core'],
    'src/ui is shared by every feature: it imports only src/api, src/workspace and src/core.',
  ],
  [
    'features',
    ['api', 'workspace', 'core', 'ui', 'feature'],
    "The features' context imports the layers below and a feature's index.ts.",
  ],
  [
    'feature',
    ['api', 'workspace', 'core', 'ui', 'features', 'feature'],
    "A feature imports the layers below, the features' context and another feature's index.ts; it is registered by src/extension.ts, it does not import it.",
  ],
  [
    'testSeams',
    ['api', 'workspace', 'core', 'ui', 'features', 'feature'],
    'src/testSeams.ts names the types of the layers below it.',
  ],
  [
    'extension',
    ['api', 'workspace', 'core', 'ui', 'features', 'feature', 'testSeams'],
    'src/extension.ts composes the layers below it (a feature through its index.ts); not the sandbox, tests, webviews or the loader.',
  ],
  [
    'loader',
    ['core', 'testSeams', 'extension'],
    'src/loader.ts requires the extension and times it: src/core, src/testSeams.ts and src/extension.ts only.',
  ],
  ['shim', [], 'A shim stands in for a package: it imports no file of the tree.'],
  ['sandbox', ['api'], 'The sandbox is a separate Node program: it shares only src/api with the extension.'],
  ['sandboxTest', ['sandbox', 'api', 'test'], "The sandbox's tests import the sandbox, src/api and the test support."],
];
const layerPolicies = [
  ...LAYERS.flatMap(([name, allowed, message]) => [
    { from: layer(name), disallow: ANY, message },
    ...(allowed.length ? [{ from: layer(name), allow: allowTo(allowed) }] : []),
  ]),
  // the last matching policy decides: this sentence for another feature's file, from a layer that may use its index
  {
    from: ['features', 'feature', 'testSeams', 'extension'].map(layer),
    disallow: { to: { element: { type: 'feature', fileInternalPath: '!index.ts' } } },
    message: "Another feature's internals: import that feature's index.ts instead.",
  },
  // webview code runs in the page: src/api, its own webview folder and its feature's protocol.ts and rows.ts
  {
    from: layer('webview'),
    disallow: ANY,
    message: "Webview code imports only plain-TS modules (src/api, its feature's protocol.ts and rows.ts).",
  },
  { from: layer('webview'), allow: allowTo(['api']) },
  {
    from: layer('webview'),
    allow: { to: { element: { type: 'webview', captured: { feature: '{{from.captured.feature}}' } } } },
  },
  {
    from: layer('webview'),
    allow: {
      to: {
        element: {
          type: 'feature',
          captured: { feature: '{{from.captured.feature}}' },
          fileInternalPath: ['protocol.ts', 'rows.ts'],
        },
      },
    },
  },
];

// Loads that resolution cannot follow: refused in src/ (the lazy entries use `require('<literal>')`, which is resolved
// and checked like an import; the vscode shim uses `import vscode = require('vscode')`).
const UNRESOLVABLE_LOADS = [
  {
    selector:
      "Identifier[name='require']:not(CallExpression[arguments.length=1][arguments.0.type='Literal'] > Identifier.callee, Property > Identifier.key, MemberExpression[computed=false] > Identifier.property)",
    message:
      "Only `require('<literal path>')`: a computed, aliased or resolved require is not checked against the layers.",
  },
  {
    selector: "ImportExpression[source.type!='Literal']",
    message: "Only `import('<literal path>')`: a computed path is not checked against the layers.",
  },
  {
    selector:
      "Identifier[name='module']:not(Property > Identifier.key, MemberExpression[computed=false] > Identifier.property)",
    message: 'No `module` (module.require, module.constructor): loads through it are not checked against the layers.',
  },
  {
    selector: 'Identifier[name=/^(createRequire|mainModule)$/]',
    message: 'No createRequire / process.mainModule: loads through them are not checked against the layers.',
  },
  {
    selector:
      ":matches(ImportDeclaration, ExportAllDeclaration, ExportNamedDeclaration, ImportExpression)[source.value=/^(node:)?module$/], TSExternalModuleReference[expression.value=/^(node:)?module$/], CallExpression[callee.name='require'][arguments.0.value=/^(node:)?module$/]",
    message: "No Node 'module': createRequire and Module._load are not checked against the layers.",
  },
];

// Package names (not paths) a layer must not use: as written is what counts for them.
const restrictPackages = (...patterns) => ({ '@typescript-eslint/no-restricted-imports': ['error', { patterns }] });
const noVscode = (message) => ({ regex: '^vscode(?:/|$)', message });
const noNode = { regex: NODE_BUILTIN, message: 'Webview code runs in the page: no Node modules.' };
const packageRules = [
  {
    files: [`src/api/**/*.${SRC}`],
    rules: restrictPackages(noVscode('src/api is plain TypeScript (runs under Node): no vscode.')),
  },
  {
    files: [`src/workspace/**/*.${SRC}`],
    rules: restrictPackages(
      noVscode(
        'src/workspace is plain TypeScript (runs under Node): no vscode; the vscode file system comes in through the WorkspaceFs interface.',
      ),
    ),
  },
  {
    files: [`sandbox/src/**/*.${SRC}`, `sandbox/test/**/*.${SRC}`],
    rules: restrictPackages(noVscode('The sandbox is a Node program: no vscode.')),
  },
  {
    files: [`src/**/webview/**/*.${SRC}`],
    rules: restrictPackages(
      noVscode('Webview code runs in the page: no vscode (talk to the extension with postMessage).'),
      noNode,
    ),
  },
];

export default tseslint.config(
  {
    ignores: [
      'dist/**',
      'out/**',
      'node_modules/**',
      '.vscode-test/**',
      'test-results/**',
      'test/fixtures/**',
      'test/workspace/**',
      '**/*.d.ts',
    ],
  },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  {
    languageOptions: { ecmaVersion: 2022, sourceType: 'module' },
    linterOptions: { reportUnusedDisableDirectives: 'error' },
    rules: {
      '@typescript-eslint/no-unused-vars': [
        'error',
        { argsIgnorePattern: '^_', varsIgnorePattern: '^_', caughtErrors: 'none' },
      ],
      '@typescript-eslint/consistent-type-imports': [
        'error',
        { prefer: 'type-imports', fixStyle: 'inline-type-imports', disallowTypeAnnotations: false },
      ],
      eqeqeq: ['error', 'always', { null: 'ignore' }],
      // sanitizers match control characters on purpose (src/api/text.ts, the sandbox's hostile text)
      'no-control-regex': 'off',
      // `import vscode = require('vscode')` is the usual form for the host module; other requires are the lazy
      // loads of LAZY_ENTRIES (esbuild.js), each marked where it happens
      '@typescript-eslint/no-require-imports': ['error', { allowAsImport: true }],
      'no-console': 'off',
    },
  },
  // ---- layers, on the resolved import graph (see the top of this file)
  {
    files: [`src/**/*.${SRC}`, `sandbox/**/*.${SRC}`],
    plugins: { boundaries },
    settings: {
      'import/resolver': { typescript: { project: 'tsconfig.json' }, node: true },
      'boundaries/elements': ELEMENTS,
      'boundaries/files': FILES,
      'boundaries/root-path': ROOT,
      'boundaries/dependency-nodes': ['import', 'export', 'require', 'dynamic-import'],
      'boundaries/additional-dependency-nodes': [
        { selector: 'TSExternalModuleReference > Literal', kind: 'value', name: 'import-equals' }, // import x = require('…')
        { selector: 'TSImportType > Literal', kind: 'type', name: 'import-type' }, // import('…').T, typeof import('…')
      ],
      'boundaries/legacy-templates': false,
    },
    rules: {
      'boundaries/dependencies': ['error', { default: 'disallow', checkUnknownLocals: true, policies: layerPolicies }],
    },
  },
  {
    files: [`src/**/*.${SRC}`, `sandbox/**/*.${SRC}`],
    ignores: ['test/**'],
    plugins: { boundaries },
    rules: { 'boundaries/no-unknown-files': 'error' },
  },
  {
    files: [`src/**/*.${SRC}`, `sandbox/src/**/*.${SRC}`],
    ignores: ['src/**/*.cjs'],
    rules: { 'no-restricted-syntax': ['error', ...UNRESOLVABLE_LOADS] },
  },
  ...packageRules,
  // ---- build scripts and test harness (CommonJS / ESM JavaScript under Node)
  {
    files: ['**/*.cjs', 'esbuild.js', 'src/shims/*.js'],
    languageOptions: {
      sourceType: 'commonjs',
      globals: {
        require: 'readonly',
        module: 'writable',
        __dirname: 'readonly',
        process: 'readonly',
        console: 'readonly',
      },
    },
    rules: { '@typescript-eslint/no-require-imports': 'off' },
  },
  {
    files: ['**/*.mjs', '**/*.cjs', 'esbuild.js'],
    languageOptions: {
      globals: {
        process: 'readonly',
        console: 'readonly',
        setTimeout: 'readonly',
        clearTimeout: 'readonly',
        setInterval: 'readonly',
        clearInterval: 'readonly',
        URL: 'readonly',
        fetch: 'readonly',
        Buffer: 'readonly',
        performance: 'readonly',
        AbortController: 'readonly',
        structuredClone: 'readonly',
        TextDecoder: 'readonly',
        TextEncoder: 'readonly',
        document: 'readonly',
        window: 'readonly',
        getComputedStyle: 'readonly',
        requestAnimationFrame: 'readonly',
        MutationObserver: 'readonly',
        navigator: 'readonly',
        module: 'writable',
        require: 'readonly',
        __dirname: 'readonly',
      },
    },
  },
  // ---- tests: same rules, a few relaxed for fixtures and probes
  {
    files: ['test/**/*.ts', 'sandbox/test/**/*.ts'],
    rules: {
      '@typescript-eslint/no-explicit-any': 'off',
      '@typescript-eslint/no-non-null-assertion': 'off',
    },
  },
);
