// ESLint (flat config, typescript-eslint). `npm run lint`; part of `npm test` and CI, zero warnings allowed.
//
// The layers, lowest first; each may import only the ones before it (README "Architecture"):
//   src/api        plain TypeScript: HTTP, clients, validation, decoding. No vscode.
//   src/workspace  plain TypeScript: readers of the workspace's build output and deployment records. No vscode.
//   src/core       the extension's infrastructure on vscode: log, settings, secrets, the selected network.
//   src/ui         the shared tree vocabulary: node kinds, the list view base, lazy tree views, copy / open / raw JSON.
//   src/features   one folder per feature; a feature uses another only through that feature's index.ts.
//   src/extension.ts  the composition root.
// Webview code (src/**/webview/**) runs in a browser page: no vscode, no Node modules, nothing of src/workspace, core,
// ui nor of another feature. The sandbox (sandbox/) is a separate Node program: it shares only src/api with the
// extension, by relative paths ('../../src/api/…').
import js from '@eslint/js';
import tseslint from 'typescript-eslint';
import { builtinModules } from 'node:module';

// Each layer is a list of restrictions: a regular expression over the module path as written (case-insensitive, as
// file systems may be) and the sentence shown. One list feeds two rules, so that every way to load a module is checked:
//   @typescript-eslint/no-restricted-imports  `import … from`, `import type`, `export … from`, `import x = require(…)`
//   no-restricted-syntax                       `require('…')`, `import('…')` (both with a literal or a template without
//                                              `${}`) and the type `import('…').T` / `typeof import('…')`
// The layers' file sets below are disjoint: in flat config a later block's options for a rule replace an earlier one's.
const SRC = '{ts,tsx,mts,cts,js,mjs,cjs}';
const escapeRe = (s) => s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
const segment = (names) => `(?:^|/)(?:${names.map(escapeRe).join('|')})(?:/|$)`;

const above = (layers, why) => ({ regex: segment(layers), message: why });
const noVscode = (message) => ({ regex: '^vscode(?:/|$)', message });
const noNode = {
  regex: `^(?:node:)?(?:${builtinModules.map((m) => escapeRe(m.replace(/^node:/, ''))).join('|')})(?:/|$)`,
  message: 'Webview code runs in the page: no Node modules.',
};
// `../api/../core/log`, `./../core/log`, `.././x`: a `.` or `..` after a folder name would walk around the rules below,
// which read the path as written.
const crooked = {
  regex: '(?:^|/)(?!\\.\\.(?:/|$))[^/]+/\\.\\.(?:/|$)|/\\.(?:/|$)',
  message: 'Write the module path without a `.` or `..` after a folder name: the layer rules read the path as written.',
};
// From a file `depth` folders below src/features (src/features/<a>/x.ts: 1), `../`×depth is src/features itself.
const up = (depth) => (depth ? `(?:\\.\\./){${depth}}` : '\\./');
const viaIndex = (depth) => `'${depth ? '../'.repeat(depth) : './'}<feature>'`;
const notDotDot = '(?!\\.\\.?(?:/|$))';
// src/features/<b>/<anything>: from a feature's file at that depth (`../<b>/x`, `../../<b>/x`, from context.ts `./<b>/x`)
const otherFeatureFile = (depth) => ({
  regex: `^${up(depth)}${notDotDot}[^/]+/.`,
  message: `Another feature's internals: import that feature's index.ts (${viaIndex(depth)}) instead.`,
});
// … or through a `features` folder from anywhere (`../../features/<b>/x` from a feature, `./features/<b>/x` from
// src/extension.ts)
const viaFeaturesFolder = {
  regex: '(?:^|/)features/[^/]+/.',
  message: "Another feature's internals: import that feature's index.ts ('…/features/<feature>') instead.",
};

const loadsMatching = (regex) => {
  // esquery reads `/…/` as the regular expression's delimiters
  const re = `/${regex.replaceAll('/', '\\x2F')}/iu`;
  const literal = (path) => `[${path}.value=${re}]`;
  const template = (path) => `[${path}.type='TemplateLiteral'][${path}.expressions.length=0][${path}.quasis.0.value.cooked=${re}]`;
  return [
    ...[literal, template].map((arg) => `CallExpression[callee.type='Identifier'][callee.name='require']${arg('arguments.0')}`),
    ...[literal, template].map((arg) => `ImportExpression${arg('source')}`),
    `TSImportType${literal('source')}`, // typescript-eslint 8: `source`; before: `argument.literal`
    `TSImportType${literal('argument.literal')}`,
  ];
};
const restrict = (...restrictions) => ({
  '@typescript-eslint/no-restricted-imports': ['error', { patterns: restrictions.map(({ regex, message }) => ({ regex, message })) }],
  'no-restricted-syntax': ['error', ...restrictions.map(({ regex, message }) => ({ selector: `:matches(${loadsMatching(regex).join(', ')})`, message }))],
});
const layer = (dir, ...restrictions) => ({
  files: [`src/${dir}/**/*.${SRC}`],
  ignores: ['src/**/webview/**'],
  rules: restrict(crooked, ...restrictions),
});

const webviewMessage = "Webview code imports only plain-TS modules (src/api, its feature's protocol and rows).";
const webview = [
  noVscode('Webview code runs in the page: no vscode (talk to the extension with postMessage).'),
  noNode,
  above(['core', 'ui', 'workspace', 'features', 'sandbox', 'extension', 'testSeams', 'loader'], webviewMessage),
];
// features: one block per depth below src/features/<feature>/ (the relative path to another feature depends on it)
const FEATURE_DEPTH = 6;
const featureFiles = (depth) => `src/features/${'*/'.repeat(depth)}*.${SRC}`;
const featureLayers = Array.from({ length: FEATURE_DEPTH }, (_, i) => i + 1).flatMap((depth) => [
  {
    files: [featureFiles(depth)],
    ignores: ['src/**/webview/**'],
    rules: restrict(
      crooked,
      above(['sandbox', 'extension', 'testSeams', 'loader'], 'A feature is registered by src/extension.ts; it does not import it.'),
      otherFeatureFile(depth),
      viaFeaturesFolder,
    ),
  },
  {
    files: [[featureFiles(depth), 'src/**/webview/**']],
    rules: restrict(crooked, ...webview, {
      regex: `^${up(depth)}${notDotDot}[^/]`,
      message: `${webviewMessage} Not another feature (its index.ts is extension code).`,
    }),
  },
]);

export default tseslint.config(
  {
    ignores: ['dist/**', 'out/**', 'node_modules/**', '.vscode-test/**', 'test-results/**', 'test/fixtures/**', 'test/workspace/**', '**/*.d.ts'],
  },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  {
    languageOptions: { ecmaVersion: 2022, sourceType: 'module' },
    linterOptions: { reportUnusedDisableDirectives: 'error' },
    rules: {
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_', caughtErrors: 'none' }],
      '@typescript-eslint/consistent-type-imports': ['error', { prefer: 'type-imports', fixStyle: 'inline-type-imports', disallowTypeAnnotations: false }],
      eqeqeq: ['error', 'always', { null: 'ignore' }],
      // sanitizers match control characters on purpose (src/api/text.ts, the sandbox's hostile text)
      'no-control-regex': 'off',
      // `import vscode = require('vscode')` is the usual form for the host module; other requires are the lazy
      // loads of LAZY_ENTRIES (esbuild.js), each marked where it happens
      '@typescript-eslint/no-require-imports': ['error', { allowAsImport: true }],
      'no-console': 'off',
    },
  },
  // ---- layers
  layer('api',
    noVscode('src/api is plain TypeScript (runs under Node): no vscode.'),
    above(['workspace', 'core', 'ui', 'features', 'sandbox', 'extension', 'testSeams', 'loader'], 'src/api is the lowest layer: it imports nothing above it.'),
  ),
  layer('workspace',
    noVscode('src/workspace is plain TypeScript (runs under Node): no vscode; the vscode file system comes in through the WorkspaceFs interface.'),
    above(['core', 'ui', 'features', 'sandbox', 'extension', 'testSeams', 'loader'], 'src/workspace imports only src/api.'),
  ),
  layer('core', above(['ui', 'features', 'sandbox', 'extension', 'testSeams', 'loader'], 'src/core imports only src/api and src/workspace.')),
  layer('ui', above(['features', 'sandbox', 'extension', 'testSeams', 'loader'], 'src/ui is shared by every feature: it imports only src/api and src/core.')),
  ...featureLayers,
  {
    files: [`src/features/*/${'*/'.repeat(FEATURE_DEPTH)}**/*.${SRC}`],
    rules: { 'no-restricted-syntax': ['error', { selector: 'Program', message: `A feature's folders nest at most ${FEATURE_DEPTH} deep (FEATURE_DEPTH in eslint.config.mjs): the layer rules are written per depth.` }] },
  },
  {
    // the features' shared context: the features' types, each through its index.ts
    files: [`src/features/*.${SRC}`],
    rules: restrict(
      crooked,
      above(['sandbox', 'extension', 'testSeams', 'loader'], 'A feature is registered by src/extension.ts; it does not import it.'),
      otherFeatureFile(0),
      viaFeaturesFolder,
    ),
  },
  {
    // webview code outside a feature: the same page rules
    files: [`src/**/webview/**/*.${SRC}`],
    ignores: ['src/features/**'],
    rules: restrict(crooked, ...webview),
  },
  // the sandbox: one block per depth below sandbox/ (a path leaving sandbox/ starts with `../`×(depth+1) and may only
  // go on into src/api)
  ...Array.from({ length: 5 }, (_, depth) => ({
    files: [`sandbox/${'*/'.repeat(depth)}*.${SRC}`],
    rules: restrict(
      crooked,
      noVscode('The sandbox is a Node program: no vscode.'),
      above(['workspace', 'core', 'ui', 'features', 'extension', 'testSeams', 'loader'], 'The sandbox shares only src/api with the extension.'),
      { regex: `^(?:\\.\\./){${depth + 1}}(?!src/api(?:/|$))`, message: 'The sandbox shares only src/api with the extension.' },
    ),
  })),
  {
    // the composition root, the test seams' types, the loader: a feature only through its index.ts
    files: [`src/*.${SRC}`],
    rules: restrict(
      crooked,
      above(['sandbox'], 'The sandbox is a separate Node program: the extension does not import it.'),
      viaFeaturesFolder,
    ),
  },
  // ---- build scripts and test harness (CommonJS / ESM JavaScript under Node)
  {
    files: ['**/*.cjs', 'esbuild.js', 'src/shims/*.js'],
    languageOptions: { sourceType: 'commonjs', globals: { require: 'readonly', module: 'writable', __dirname: 'readonly', process: 'readonly', console: 'readonly' } },
    rules: { '@typescript-eslint/no-require-imports': 'off' },
  },
  {
    files: ['**/*.mjs', '**/*.cjs', 'esbuild.js'],
    languageOptions: {
      globals: {
        process: 'readonly', console: 'readonly', setTimeout: 'readonly', clearTimeout: 'readonly', setInterval: 'readonly', clearInterval: 'readonly',
        URL: 'readonly', fetch: 'readonly', Buffer: 'readonly', performance: 'readonly', AbortController: 'readonly', structuredClone: 'readonly',
        TextDecoder: 'readonly', TextEncoder: 'readonly', document: 'readonly', window: 'readonly', getComputedStyle: 'readonly',
        requestAnimationFrame: 'readonly', MutationObserver: 'readonly', navigator: 'readonly', module: 'writable', require: 'readonly', __dirname: 'readonly',
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
