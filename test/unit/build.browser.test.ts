// The browser build (build/browser.cjs) fails when our code would ship a Node module or a Node global, and puts each
// `platform/node.ts` import on the `platform/browser.ts` beside it: checked on small builds of files in a temporary
// src/ folder, with the same settings as dist/web/extension.js.
import * as assert from 'assert';
import * as fs from 'fs';
import * as os from 'os';
import * as path from 'path';
import type * as esbuildType from 'esbuild';

const root = path.resolve(__dirname, '..', '..', '..');
// eslint-disable-next-line @typescript-eslint/no-require-imports -- the build module is CommonJS; requiring it builds nothing
const { browserBuild } = require(path.join(root, 'build', 'browser.cjs')) as {
  browserBuild: (o: object) => esbuildType.BuildOptions;
};
// eslint-disable-next-line @typescript-eslint/no-require-imports -- left to the runner (external in the unit bundles)
const esbuild = require('esbuild') as typeof esbuildType;

describe('build: the browser build ships no Node module or global (build/browser.cjs)', function () {
  this.timeout(30000);
  let dir: string;
  before(() => {
    dir = fs.mkdtempSync(path.join(os.tmpdir(), 'hedera-web-build-'));
    const write = (rel: string, text: string) => {
      fs.mkdirSync(path.dirname(path.join(dir, rel)), { recursive: true });
      fs.writeFileSync(path.join(dir, rel), text);
    };
    write('src/usesProcess.ts', 'export const home = () => process.env.HOME;\n');
    write('src/usesBuffer.ts', "export const b = (s: string) => Buffer.from(s, 'base64');\n");
    write('src/importsFs.ts', "import { readFileSync } from 'fs';\nexport const r = readFileSync;\n");
    write('src/localProcess.ts', 'export const f = (process: { id: number }) => process.id;\n');
    write('src/platform/node.ts', "export const where = 'node';\n");
    write('src/platform/browser.ts', "export const where = 'browser';\n");
    write('src/usesPlatform.ts', "import { where } from './platform/node';\nexport const w = where;\n");
  });
  after(() => fs.rmSync(dir, { recursive: true, force: true }));

  const build = (entry: string) =>
    esbuild
      .build({
        ...browserBuild({
          esbuild,
          common: { absWorkingDir: dir, bundle: true, logLevel: 'silent' },
          plugins: [],
          production: false,
          outdir: path.join(dir, 'dist'),
        }),
        entryPoints: [path.join(dir, entry)],
        write: false,
        sourcemap: false,
      })
      .then(
        (r) => ({ text: r.outputFiles?.[0]?.text ?? '', errors: [] as string[] }),
        (e: { errors?: Array<{ text: string }> }) => ({ text: '', errors: (e.errors ?? []).map((x) => x.text) }),
      );

  it('fails on a Node global in our code, naming the file and the global', async () => {
    for (const [file, global] of [
      ['src/usesProcess.ts', 'process'],
      ['src/usesBuffer.ts', 'Buffer'],
    ]) {
      const r = await build(file);
      assert.deepStrictEqual(
        r.errors.map((e) => e.split(':')[0]),
        [`${file} uses the Node global ${global}`],
        r.errors.join('\n'),
      );
    }
  });

  it('fails on a Node module our code imports, naming the importer', async () => {
    const r = await build('src/importsFs.ts');
    assert.match(r.errors.join('\n'), /^fs is a Node module \(imported by src\/importsFs\.ts\)/);
  });

  it('builds a local of the same name as a global, and resolves platform/node.ts to platform/browser.ts', async () => {
    const local = await build('src/localProcess.ts');
    assert.deepStrictEqual(local.errors, []);
    const p = await build('src/usesPlatform.ts');
    assert.deepStrictEqual(p.errors, []);
    assert.match(p.text, /"browser"/);
    assert.doesNotMatch(p.text, /"node"/);
  });
});
