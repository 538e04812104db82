// The layer rules of eslint.config.mjs do fire: each snippet is linted as if it were the named file, with the
// repository's own configuration (so a rule that stops matching, or a policy that allows everything, fails here).
// The rules read the RESOLVED import graph: every module path below names a real file, and the path as written
// (a `..` detour, a shim, a re-export) does not matter, the file it lands on does.
import * as assert from 'assert';
import * as path from 'path';
import type { ESLint as ESLintType } from 'eslint';

const root = path.resolve(__dirname, '..', '..', '..');
let eslint: ESLintType;

async function problems(file: string, code: string): Promise<string[]> {
  const [r] = await eslint.lintText(code, { filePath: path.join(root, file) });
  return r.messages.map((m) => `${m.ruleId}: ${m.message}`);
}

const LAYER_RULES = [
  'boundaries/dependencies',
  'boundaries/no-unknown-files',
  '@typescript-eslint/no-restricted-imports',
  'no-restricted-syntax',
];
const layerProblems = async (file: string, code: string) =>
  (await problems(file, code)).filter((p) => LAYER_RULES.some((rule) => p.startsWith(`${rule}: `)));

async function rejects(file: string, code: string, why: RegExp): Promise<void> {
  const found = await layerProblems(file, code);
  assert.ok(
    found.some((p) => why.test(p)),
    `${file}:\n${code}\nexpected a problem matching ${why}, got ${JSON.stringify(found)}`,
  );
}
async function accepts(file: string, code: string): Promise<void> {
  assert.deepStrictEqual(await layerProblems(file, code), [], `${file}:\n${code}`);
}

// the ways to load (or name the types of) a module, each as a whole snippet
const LOADS: Record<string, (spec: string) => string> = {
  import: (s) => `import * as m from '${s}';\nexport const a = m;\n`,
  'import type': (s) => `import type * as m from '${s}';\nexport type A = typeof m;\n`,
  'export from': (s) => `export { a } from '${s}';\n`,
  'export * from': (s) => `export * from '${s}';\n`,
  'import = require': (s) => `import m = require('${s}');\nexport const a = m;\n`,
  require: (s) =>
    `// eslint-disable-next-line @typescript-eslint/no-require-imports\nexport const a = require('${s}') as typeof import('${s}');\n`,
  'import()': (s) => `export const a = import('${s}');\n`,
  'typeof import()': (s) => `export type A = typeof import('${s}');\n`,
  "import('…').T": (s) => `export let a: import('${s}').T | undefined;\n`,
};
const ALL = Object.keys(LOADS);

// the sandbox: today's folder or the one it is moving to (the rules cover both)
const SANDBOX_DIR = 'sandbox/src';
const fromRoot = (file: string, target: string) =>
  path.posix.relative(path.posix.dirname(file), target).replace(/^(?!\.)/, './');

// one forbidden arrow per layer: [file, target file (from the root, without .ts), the sentence expected]
const FORBIDDEN: [string, string, RegExp][] = [
  ['src/api/x.ts', 'src/workspace/address', /lowest layer/],
  ['src/api/decode/x.ts', 'src/core/log', /lowest layer/],
  ['src/workspace/x.ts', 'src/core/log', /only src\/api\./],
  ['src/core/x.ts', 'src/ui/nodes', /only src\/api and src\/workspace/],
  ['src/ui/x.ts', 'src/features/status/index', /shared by every feature/],
  ['src/features/schedules/x.ts', 'src/extension', /registered by src\/extension\.ts/],
  ['src/features/schedules/x.ts', 'src/features/decoding/abiIndex', /internals/],
  ['src/features/schedules/x.ts', 'src/features/inspector/webview/dom', /another feature's index/],
  ['src/features/nftHistory/webview/x.ts', 'src/core/log', /plain-TS modules/],
  ['src/features/nftHistory/webview/x.ts', 'src/features/nftHistory/panel', /plain-TS modules/],
  ['src/features/nftHistory/webview/x.ts', 'src/features/inspector/protocol', /plain-TS modules/],
  ['src/features/nftHistory/webview/x.ts', 'src/features/inspector/webview/dom', /plain-TS modules/],
  ['src/shims/x.ts', 'src/api/json', /imports no file of the tree/],
  ['src/extension.ts', 'src/loader', /composes the layers below/],
  ['src/testSeams.ts', 'src/extension', /types of the layers below/],
  [`${SANDBOX_DIR}/x.ts`, 'src/core/log', /shares only src\/api/],
  [`${SANDBOX_DIR}/x.ts`, 'src/features/status/index', /shares only src\/api/],
];
// nothing in src/ imports the sandbox or a test file
const INTO_SANDBOX_OR_TESTS: [string, string][] = [
  ['src/api/x.ts', `${SANDBOX_DIR}/json`],
  ['src/features/status/x.ts', `${SANDBOX_DIR}/mirror/api`],
  ['src/extension.ts', `${SANDBOX_DIR}/server`],
  ['src/shims/x.ts', `${SANDBOX_DIR}/json`],
  ['src/core/x.ts', 'test/unit/lint.layers.test'],
  ['src/extension.ts', 'test/integration/helpers'],
];

async function rejectsEvery(forms: string[], cases: [string, string, RegExp][]): Promise<void> {
  for (const [file, target, why] of cases) {
    for (const form of forms) await rejects(file, LOADS[form](fromRoot(file, target)), why);
  }
}

describe('lint: the layers eslint.config.mjs enforces, on the resolved import graph', function () {
  this.timeout(120000);
  before(async () => {
    const { ESLint } = await import('eslint');
    eslint = new ESLint({ cwd: root });
  });

  it('every forbidden arrow fails, in every import form (static, type, re-export, import = require, require, import(), import types)', async () => {
    await rejectsEvery(ALL, FORBIDDEN);
  });

  it('nothing in src/ imports the sandbox or a test file, in any form', async () => {
    for (const [file, target] of INTO_SANDBOX_OR_TESTS) {
      for (const form of ALL) await rejects(file, LOADS[form](fromRoot(file, target)), /boundaries\/dependencies/);
    }
  });

  it('the allowed arrows pass: downwards, a feature through its index.ts, webview code to its protocol and src/api', async () => {
    const allowed: [string, string][] = [
      ['src/api/x.ts', 'src/api/json'],
      ['src/workspace/x.ts', 'src/api/json'],
      ['src/core/x.ts', 'src/workspace/address'],
      ['src/ui/x.ts', 'src/core/log'],
      ['src/ui/x.ts', 'src/api/text'],
      ['src/features/schedules/x.ts', 'src/features/schedules/view'],
      ['src/features/schedules/x.ts', 'src/features/decoding/index'],
      ['src/features/schedules/x.ts', 'src/features/context'],
      ['src/features/schedules/x.ts', 'src/ui/nodes'],
      ['src/features/verification/sub/x.ts', 'src/features/decoding/index'],
      ['src/features/context.ts', 'src/features/decoding/index'],
      ['src/testSeams.ts', 'src/features/status/index'],
      ['src/extension.ts', 'src/features/decoding/index'],
      ['src/extension.ts', 'src/testSeams'],
      ['src/loader.ts', 'src/extension'],
      ['src/features/nftHistory/webview/x.ts', 'src/features/nftHistory/protocol'],
      ['src/features/nftHistory/webview/x.ts', 'src/features/nftHistory/rows'],
      ['src/features/nftHistory/webview/x.ts', 'src/features/nftHistory/webview/nftHistory.main'],
      ['src/features/nftHistory/webview/x.ts', 'src/api/validation'],
      [`${SANDBOX_DIR}/x.ts`, 'src/api/json'],
      [`${SANDBOX_DIR}/x.ts`, `${SANDBOX_DIR}/json`],
    ];
    for (const [file, target] of allowed) {
      for (const form of ALL) await accepts(file, LOADS[form](fromRoot(file, target)));
    }
  });

  it('a path detour, a shim or a re-export does not walk around the rules: the file reached counts', async () => {
    // `../api/../core/log` from src/api is src/core/log
    await rejects('src/api/x.ts', LOADS.import('../api/../core/log'), /lowest layer/);
    await rejects('src/features/schedules/x.ts', LOADS.import('../schedules/../decoding/abiIndex'), /internals/);
    // a shim is on a layer of its own that imports no file of the tree, and no layer imports a shim
    await rejects(
      'src/shims/vscode.ts',
      `export * from '${fromRoot('src/shims/vscode.ts', `${SANDBOX_DIR}/json`)}';\n`,
      /imports no file of the tree/,
    );
    await rejects('src/features/status/x.ts', LOADS.import('../../shims/form-data'), /boundaries\/dependencies/);
    // re-exporting something above from a lower layer fails where the re-export is written
    await rejects('src/api/x.ts', "export { Log } from '../core/log';\n", /lowest layer/);
    await rejects(
      'src/features/status/x.ts',
      `export * from '${fromRoot('src/features/status/x.ts', `${SANDBOX_DIR}/json`)}';\n`,
      /boundaries\/dependencies/,
    );
  });

  it('loads that resolution cannot follow are refused in src/: module.require, createRequire, computed require and import()', async () => {
    const unresolvable = /not checked against the layers/;
    const file = 'src/features/status/x.ts';
    await rejects(file, "export const a = module.require('../../sandbox/json');\n", unresolvable);
    await rejects(
      file,
      "import { createRequire } from 'node:module';\nexport const a = createRequire(__filename)('../../sandbox/json');\n",
      unresolvable,
    );
    await rejects(file, "import * as m from 'module';\nexport const a = m;\n", unresolvable);
    await rejects(file, "export const a = (process as any).mainModule.require('x');\n", unresolvable);
    await rejects(
      file,
      "const name = '../../sandbox/json';\n// eslint-disable-next-line @typescript-eslint/no-require-imports\nexport const a = require(name);\n",
      unresolvable,
    );
    await rejects(
      file,
      '// eslint-disable-next-line @typescript-eslint/no-require-imports\nexport const a = require(`../../sandbox/json`);\n',
      unresolvable,
    );
    await rejects(file, "const r = require;\nexport const a = r('x');\n", unresolvable);
    await rejects(file, "export const a = require.resolve('x');\n", unresolvable);
    await rejects(file, "const name = 'x';\nexport const a = import(name);\n", unresolvable);
  });

  it('webview code uses neither vscode nor Node modules; src/api, src/workspace and the sandbox no vscode', async () => {
    const page = 'src/features/nftHistory/webview/x.ts';
    await rejects(page, LOADS.import('vscode'), /postMessage/);
    await rejects(page, LOADS.import('node:fs'), /no Node modules/);
    await rejects(page, LOADS.import('fs'), /no Node modules/);
    await rejects('src/api/x.ts', LOADS['import = require']('vscode'), /plain TypeScript/);
    await rejects('src/workspace/x.ts', LOADS.import('vscode'), /no vscode/);
    await rejects(`${SANDBOX_DIR}/x.ts`, LOADS.import('vscode'), /Node program/);
  });

  it('every file of src/ and of the sandbox is on a layer', async () => {
    await rejects('src/x.ts', 'export const a = 1;\n', /no-unknown-files/);
    await rejects('src/newFolder/x.ts', 'export const a = 1;\n', /no-unknown-files/);
    await accepts('src/shims/x.ts', 'export const a = 1;\n');
  });

  it("the tree's own lazy loads stay allowed", async () => {
    const lazy = (req: string, type = '') =>
      `// eslint-disable-next-line @typescript-eslint/no-require-imports\nexport const a = require('${req}')${type ? ` as typeof import('${type}')` : ''};\n`;
    await accepts('src/features/schedules/index.ts', lazy('./view', './view'));
    await accepts('src/features/verification/index.ts', lazy('./verifyContract', './verifyContract'));
    await accepts('src/core/selectedNetwork.ts', lazy('../api/clients', '../api/clients'));
    await accepts('src/api/http.ts', lazy('axios'));
    await accepts('src/api/decode/lazy.ts', lazy('./index'));
    await accepts(
      'src/loader.ts',
      `import type * as Main from './extension';\n${lazy('./extension')}export type B = typeof Main;\n`,
    );
    await accepts('src/ui/nodes.ts', "import vscode = require('vscode');\nexport const a = vscode;\n");
  });

  it('warnings count: an unused variable is reported', async () => {
    assert.ok(
      (await problems('src/api/x.ts', 'const unused = 1;\nexport {};\n')).some((p) => p.includes('no-unused-vars')),
    );
  });
});
