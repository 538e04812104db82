// The layer rules of eslint.config.mjs do fire: each snippet is linted as if it were the named file, with the
// repository's own configuration (so a rule that stops matching, or a pattern that matches everything, fails here).
// Every way to load a module is checked: import / export … from / import x = require(…) (no-restricted-imports), and
// require(…), import(…), the types import('…').T and typeof import('…') (no-restricted-syntax).
import * as assert from 'assert';
import * as path from 'path';
import type { ESLint as ESLintType } from 'eslint';

const root = path.resolve(__dirname, '..', '..', '..');
let eslint: ESLintType;

async function problems(file: string, code: string): Promise<string[]> {
  const [r] = await eslint.lintText(code, { filePath: path.join(root, file) });
  return r.messages.map((m) => `${m.ruleId}: ${m.message}`);
}

const LAYER_RULES = ['no-restricted-imports', '@typescript-eslint/no-restricted-imports', 'no-restricted-syntax'];
const layerProblems = async (file: string, code: string) =>
  (await problems(file, code)).filter((p) => LAYER_RULES.some((rule) => p.startsWith(`${rule}: `)));

async function rejects(file: string, code: string, why: RegExp): Promise<void> {
  const found = await layerProblems(file, code);
  assert.ok(found.some((p) => why.test(p)), `${file}:\n${code}\nexpected a problem matching ${why}, got ${JSON.stringify(found)}`);
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
  require: (s) => `// eslint-disable-next-line @typescript-eslint/no-require-imports\nexport const a = require('${s}');\n`,
  'require template': (s) => `// eslint-disable-next-line @typescript-eslint/no-require-imports\nexport const a = require(\`${s}\`);\n`,
  'import()': (s) => `export const a = import('${s}');\n`,
  'typeof import()': (s) => `export type A = typeof import('${s}');\n`,
  "import('…').T": (s) => `export let a: import('${s}').T | undefined;\n`,
};
const REQUIRES = ['require', 'require template', 'import = require', 'import()'];
const TYPES = ['typeof import()', "import('…').T"];

// one forbidden path per layer and reason: [file, module path, the sentence expected]
const FORBIDDEN: [string, string, RegExp][] = [
  ['src/api/x.ts', 'vscode', /plain TypeScript/],
  ['src/api/decode/x.ts', '../../core/log', /lowest layer/],
  ['src/workspace/x.ts', 'vscode', /no vscode/],
  ['src/workspace/x.ts', '../core/log', /only src\/api/],
  ['src/core/x.ts', '../ui/nodes', /only src\/api and src\/workspace/],
  ['src/ui/x.ts', '../features/status', /shared by every feature/],
  ['src/features/schedules/view.ts', '../../extension', /registered by src\/extension\.ts/],
  ['src/features/schedules/view.ts', '../decoding/abiIndex', /internals/],
  ['src/features/nftHistory/webview/page.ts', 'vscode', /postMessage/],
  ['src/features/nftHistory/webview/page.ts', 'node:fs', /no Node modules/],
  ['src/features/nftHistory/webview/page.ts', '../../../core/log', /plain-TS modules/],
  ['sandbox/src/x.ts', 'vscode', /Node program/],
  ['sandbox/src/x.ts', '../../src/core/log', /shares only src\/api/],
  ['sandbox/test/x.test.ts', '../../src/features/status', /shares only src\/api/],
  ['sandbox/test/x.test.ts', '../../test/unit/helpers', /shares only src\/api/],
  ['sandbox/src/mirror/x.ts', '../../../src/workspace/build', /shares only src\/api/],
];

async function rejectsEvery(forms: string[], cases: [string, string, RegExp][]): Promise<void> {
  for (const [file, spec, why] of cases) {
    for (const form of forms) await rejects(file, LOADS[form](spec), why);
  }
}

describe('lint: the layers eslint.config.mjs enforces', function () {
  this.timeout(60000);
  before(async () => {
    const { ESLint } = await import('eslint');
    eslint = new ESLint({ cwd: root });
  });

  it('src/api imports neither vscode nor anything above it', async () => {
    assert.match((await layerProblems('src/api/x.ts', "import * as vscode from 'vscode';\nexport const a = vscode;\n")).join(), /plain TypeScript/);
    assert.match((await layerProblems('src/api/x.ts', "import { log } from '../core/log';\nexport const a = log;\n")).join(), /lowest layer/);
    assert.match((await layerProblems('src/api/decode/x.ts', "import { a } from '../../features/status';\nexport const b = a;\n")).join(), /lowest layer/);
    assert.deepStrictEqual(await layerProblems('src/api/x.ts', "import { hostOf } from './url';\nexport const a = hostOf;\n"), []);
  });

  it('src/workspace is plain TypeScript over src/api', async () => {
    assert.match((await layerProblems('src/workspace/x.ts', "import * as vscode from 'vscode';\nexport const a = vscode;\n")).join(), /no vscode/);
    assert.match((await layerProblems('src/workspace/x.ts', "import { a } from '../ui/nodes';\nexport const b = a;\n")).join(), /only src\/api/);
    assert.deepStrictEqual(await layerProblems('src/workspace/x.ts', "import { hostOf } from '../api/url';\nexport const a = hostOf;\n"), []);
  });

  it('src/core and src/ui do not reach into features', async () => {
    assert.ok((await layerProblems('src/core/x.ts', "import { a } from '../ui/nodes';\nexport const b = a;\n")).length);
    assert.ok((await layerProblems('src/ui/x.ts', "import { a } from '../features/status';\nexport const b = a;\n")).length);
    assert.deepStrictEqual(await layerProblems('src/ui/x.ts', "import { a } from '../core/log';\nexport const b = a;\n"), []);
  });

  it("a feature uses another feature only through its index, never its internals", async () => {
    assert.match((await layerProblems('src/features/schedules/view.ts', "import { a } from '../decoding/abiIndex';\nexport const b = a;\n")).join(), /internals/);
    assert.deepStrictEqual(await layerProblems('src/features/schedules/view.ts', "import { a } from '../decoding';\nexport const b = a;\n"), []);
    assert.deepStrictEqual(await layerProblems('src/features/schedules/view.ts', "import { a } from './index';\nimport { c } from '../../ui/nodes';\nexport const b = [a, c];\n"), []);
    assert.ok((await layerProblems('src/features/schedules/view.ts', "import { a } from '../../extension';\nexport const b = a;\n")).length);
  });

  it('webview code imports neither vscode nor Node modules', async () => {
    const page = 'src/features/nftHistory/webview/page.ts';
    assert.match((await layerProblems(page, "import * as vscode from 'vscode';\nexport const a = vscode;\n")).join(), /postMessage/);
    assert.match((await layerProblems(page, "import * as fs from 'node:fs';\nexport const a = fs;\n")).join(), /no Node modules/);
    assert.match((await layerProblems(page, "import * as fs from 'fs';\nexport const a = fs;\n")).join(), /no Node modules/);
    assert.deepStrictEqual(await layerProblems(page, "import { inert } from '../../../api/text';\nimport { a } from '../rows';\nexport const b = [inert, a];\n"), []);
  });

  it('the sandbox shares only src/api', async () => {
    assert.ok((await layerProblems('sandbox/src/x.ts', "import { a } from '../../src/features/status';\nexport const b = a;\n")).length);
    assert.ok((await layerProblems('sandbox/src/mirror/x.ts', "import { a } from '../../../src/shims/vscode';\nexport const b = a;\n")).length);
    assert.deepStrictEqual(await layerProblems('sandbox/src/x.ts', "import { a } from '../../src/api/json';\nimport { c } from './mirror/api';\nexport const b = [a, c];\n"), []);
  });

  it('static imports and re-exports are checked in every layer (import, import type, export … from, export * from)', async () => {
    await rejectsEvery(['import', 'import type', 'export from', 'export * from'], FORBIDDEN);
  });

  it("require('…') and import('…') with a literal path are checked like imports, in every layer", async () => {
    await rejectsEvery(REQUIRES, FORBIDDEN);
  });

  it("the types import('…').T and typeof import('…') are checked like imports, in every layer", async () => {
    await rejectsEvery(TYPES, FORBIDDEN);
  });

  it("another feature's internals are refused at any depth and by any path; its index, the feature's own files and the layers below stay allowed", async () => {
    const all = Object.keys(LOADS);
    const internals = /internals/;
    // a feature's top folder
    await rejectsEvery(all, [
      ['src/features/schedules/view.ts', '../decoding/abiIndex', internals],
      ['src/features/schedules/view.ts', '../../features/decoding/abiIndex', internals],
      ['src/features/schedules/view.ts', '../../../src/features/decoding/abiIndex', internals],
    ]);
    // deeper: `../../<feature>/…` is another feature's file there
    await rejectsEvery(all, [
      ['src/features/verification/sub/x.ts', '../../decoding/abiIndex', /internals.*'\.\.\/\.\.\/<feature>'/],
      ['src/features/verification/sub/x.ts', '../../../features/decoding/abiIndex', internals],
    ]);
    for (const form of all) {
      await accepts('src/features/schedules/view.ts', LOADS[form]('../decoding'));
      await accepts('src/features/schedules/view.ts', LOADS[form]('./view'));
      await accepts('src/features/schedules/view.ts', LOADS[form]('../context'));
      await accepts('src/features/schedules/view.ts', LOADS[form]('../../ui/nodes'));
      await accepts('src/features/schedules/view.ts', LOADS[form]('../../api/json'));
      await accepts('src/features/verification/sub/x.ts', LOADS[form]('../view'));
      await accepts('src/features/verification/sub/x.ts', LOADS[form]('./y'));
      await accepts('src/features/verification/sub/x.ts', LOADS[form]('../../decoding'));
      await accepts('src/features/verification/sub/x.ts', LOADS[form]('../../../ui/nodes'));
    }
  });

  it("webview code imports neither another feature (index or internals) nor src/ui, src/core, src/workspace", async () => {
    const page = 'src/features/nftHistory/webview/page.ts';
    await rejectsEvery(Object.keys(LOADS), [
      [page, '../../status/view', /not another feature/i],
      [page, '../../status', /not another feature/i],
      [page, '../../../features/status/view', /plain-TS modules/],
      [page, '../../../ui/nodes', /plain-TS modules/],
      [page, '../../../core/log', /plain-TS modules/],
      [page, '../../../workspace/address', /plain-TS modules/],
      [page, 'fs', /no Node modules/],
    ]);
    await accepts(page, "import type { ToWebview } from '../protocol';\nimport { rowLabel } from '../rows';\nimport { isEntityId } from '../../../api/validation';\nexport const a = [rowLabel, isEntityId] as unknown as ToWebview;\n");
  });

  it('src/features/context.ts, src/testSeams.ts and src/extension.ts use a feature only through its index', async () => {
    const all = Object.keys(LOADS);
    await rejectsEvery(all, [
      ['src/features/context.ts', './decoding/abiIndex', /internals.*'\.\/<feature>'/],
      ['src/features/context.ts', '../features/decoding/abiIndex', /internals/],
      ['src/testSeams.ts', './features/status/view', /internals/],
      ['src/extension.ts', './features/decoding/abiIndex', /internals/],
      ['src/extension.ts', './features/nftHistory/webview/nftHistory.main', /internals/],
    ]);
    for (const form of all) {
      await accepts('src/features/context.ts', LOADS[form]('./decoding'));
      await accepts('src/features/context.ts', LOADS[form]('../core/log'));
      await accepts('src/testSeams.ts', LOADS[form]('./features/status'));
      await accepts('src/extension.ts', LOADS[form]('./features/decoding'));
      await accepts('src/extension.ts', LOADS[form]('./features/context'));
      await accepts('src/extension.ts', LOADS[form]('./ui/actions'));
    }
  });

  it('a path with `.` or `..` after a folder name does not walk around the rules', async () => {
    const crooked = /without a `\.` or `\.\.` after a folder name/;
    await rejectsEvery(Object.keys(LOADS), [
      ['src/api/x.ts', './../core/log', crooked],
      ['src/api/x.ts', '../api/../core/log', crooked],
      ['src/features/schedules/view.ts', '../schedules/../decoding/abiIndex', crooked],
      ['src/features/schedules/view.ts', '.././decoding/abiIndex', crooked],
    ]);
  });

  it("the tree's own lazy loads stay allowed", async () => {
    const lazy = (req: string, type = '') =>
      `// eslint-disable-next-line @typescript-eslint/no-require-imports\nexport const a = require('${req}')${type ? ` as typeof import('${type}')` : ''};\n`;
    await accepts('src/features/schedules/index.ts', lazy('./view', './view'));
    await accepts('src/features/verification/index.ts', lazy('./verifyContract', './verifyContract'));
    await accepts('src/features/status/statusBar.ts', `let f: typeof import('./format') | undefined;\n${lazy('./format', './format')}export const b = f;\n`);
    await accepts('src/features/decoding/abiIndex.ts', `type D = typeof import('../../workspace/derivation');\n${lazy('../../workspace/derivation')}export type B = D;\n`);
    await accepts('src/core/selectedNetwork.ts', lazy('../api/clients', '../api/clients'));
    await accepts('src/ui/actions.ts', lazy('../api/json', '../api/json'));
    await accepts('src/api/http.ts', lazy('axios'));
    await accepts('src/api/decode/lazy.ts', lazy('./index'));
    await accepts('src/loader.ts', `import type * as Main from './extension';\n${lazy('./extension')}export type B = typeof Main;\n`);
    await accepts('src/ui/nodes.ts', "import vscode = require('vscode');\nexport const a = vscode;\n");
  });

  it('warnings count: an unused variable is reported', async () => {
    assert.ok((await problems('src/api/x.ts', 'const unused = 1;\nexport {};\n')).some((p) => p.includes('no-unused-vars')));
  });
});
