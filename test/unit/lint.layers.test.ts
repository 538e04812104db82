// The layer rules of eslint.config.mjs do fire: each snippet is linted as if it were the named file, with the
// repository's own configuration (so a rule that stops matching, or a pattern that matches everything, fails here).
import * as assert from 'assert';
import * as path from 'path';
import type { ESLint as ESLintType } from 'eslint';

const root = path.resolve(__dirname, '..', '..', '..');
let eslint: ESLintType;

async function problems(file: string, code: string): Promise<string[]> {
  const [r] = await eslint.lintText(code, { filePath: path.join(root, file) });
  return r.messages.map((m) => `${m.ruleId}: ${m.message}`);
}

const layerProblems = async (file: string, code: string) => (await problems(file, code)).filter((p) => p.startsWith('no-restricted-imports'));

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
    assert.ok((await layerProblems('src/sandbox/x.ts', "import { a } from '../features/status';\nexport const b = a;\n")).length);
    assert.deepStrictEqual(await layerProblems('src/sandbox/x.ts', "import { a } from '../api/json';\nexport const b = a;\n"), []);
  });

  it('warnings count: an unused variable is reported', async () => {
    assert.ok((await problems('src/api/x.ts', 'const unused = 1;\nexport {};\n')).some((p) => p.includes('no-unused-vars')));
  });
});
