// ESLint (flat config, typescript-eslint). `npm run lint`; part of `npm test` and CI, zero warnings allowed.
//
// The layers, lowest first; each may import only the ones before it (README "Architecture"):
//   src/api        plain TypeScript: HTTP, clients, validation, decoding. No vscode.
//   src/workspace  plain TypeScript: readers of the workspace's build output and deployment records. No vscode.
//   src/core       the extension's infrastructure on vscode: log, settings, secrets, the selected network.
//   src/ui         the shared tree vocabulary: node kinds, the list view base, lazy tree views, copy / open / raw JSON.
//   src/features   one folder per feature; a feature uses another only through that feature's index.ts.
//   src/extension.ts  the composition root.
// Webview code (src/**/webview/**) runs in a browser page: no vscode, no Node modules. The sandbox (src/sandbox) is
// a separate Node program: it shares only src/api with the extension.
import js from '@eslint/js';
import tseslint from 'typescript-eslint';
import { builtinModules } from 'node:module';

const nodeModules = [...builtinModules, ...builtinModules.map((m) => `node:${m}`)];

const above = (layers, why) => ({
  group: layers.flatMap((l) => [`**/${l}`, `**/${l}/**`]),
  message: why,
});
const restrict = (...patterns) => ({
  'no-restricted-imports': ['error', { paths: [], patterns }],
});
const noVscode = (message) => ({ group: ['vscode'], message });

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
  {
    files: ['src/api/**/*.ts'],
    rules: restrict(
      noVscode('src/api is plain TypeScript (runs under Node): no vscode.'),
      above(['workspace', 'core', 'ui', 'features', 'sandbox', 'extension', 'testSeams', 'loader'], 'src/api is the lowest layer: it imports nothing above it.'),
    ),
  },
  {
    files: ['src/workspace/**/*.ts'],
    rules: restrict(
      noVscode('src/workspace is plain TypeScript (runs under Node): no vscode; the vscode file system comes in through the WorkspaceFs interface.'),
      above(['core', 'ui', 'features', 'sandbox', 'extension', 'testSeams', 'loader'], 'src/workspace imports only src/api.'),
    ),
  },
  {
    files: ['src/core/**/*.ts'],
    rules: restrict(above(['ui', 'features', 'sandbox', 'extension', 'testSeams', 'loader'], 'src/core imports only src/api and src/workspace.')),
  },
  {
    files: ['src/ui/**/*.ts'],
    rules: restrict(above(['features', 'sandbox', 'extension', 'testSeams', 'loader'], 'src/ui is shared by every feature: it imports only src/api and src/core.')),
  },
  {
    files: ['src/features/**/*.ts'],
    ignores: ['src/features/context.ts', 'src/features/**/webview/**'],
    rules: restrict(
      above(['sandbox', 'extension', 'testSeams', 'loader'], 'A feature is registered by src/extension.ts; it does not import it.'),
      {
        regex: '^\\.\\./(?!\\.\\.(?:/|$))[^/]+/.+',
        message: "Another feature's internals: import that feature's index.ts ('../<feature>') instead.",
      },
    ),
  },
  {
    files: ['src/**/webview/**/*.ts'],
    rules: restrict(
      noVscode('Webview code runs in the page: no vscode (talk to the extension with postMessage).'),
      { group: nodeModules, message: 'Webview code runs in the page: no Node modules.' },
      above(['core', 'ui', 'workspace', 'sandbox', 'extension', 'testSeams', 'loader'], 'Webview code imports only plain-TS modules (src/api, its feature\'s protocol and rows).'),
    ),
  },
  {
    files: ['src/sandbox/**/*.ts'],
    rules: restrict(
      noVscode('The sandbox is a Node program: no vscode.'),
      above(['workspace', 'core', 'ui', 'features', 'extension', 'testSeams', 'loader'], 'The sandbox shares only src/api with the extension.'),
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
        requestAnimationFrame: 'readonly', navigator: 'readonly', module: 'writable', require: 'readonly', __dirname: 'readonly',
      },
    },
  },
  // ---- tests: same rules, a few relaxed for fixtures and probes
  {
    files: ['test/**/*.ts'],
    rules: {
      '@typescript-eslint/no-explicit-any': 'off',
      '@typescript-eslint/no-non-null-assertion': 'off',
    },
  },
);
