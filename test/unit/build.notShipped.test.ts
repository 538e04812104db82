// The extension's build fails when a module of the sandbox or of test/ reaches an output (esbuild.js, notShipped):
// checked here on a small build of the same kind, through a shim the way a one-line import once slipped it in.
import * as assert from 'assert';
import * as path from 'path';
import type * as esbuildType from 'esbuild';

const root = path.resolve(__dirname, '..', '..', '..');
// eslint-disable-next-line @typescript-eslint/no-require-imports -- the build script is CommonJS; requiring it builds nothing
const { notShipped } = require(path.join(root, 'esbuild.js')) as {
  notShipped: (metafile: esbuildType.Metafile) => string[];
};
// eslint-disable-next-line @typescript-eslint/no-require-imports -- left to the runner (external in the unit bundles)
const esbuild = require('esbuild') as typeof esbuildType;
const SANDBOX_DIR = 'sandbox/src';

/** Builds `entry` (a module of src/features/status) with virtual files `files` (path from the root → source). */
async function build(entry: string, files: Record<string, string> = {}): Promise<esbuildType.Metafile> {
  const virtual: esbuildType.Plugin = {
    name: 'virtual',
    setup(b) {
      b.onResolve({ filter: /^\./ }, (args) => {
        const file = path.relative(root, path.resolve(args.resolveDir, args.path)).split(path.sep).join('/');
        return files[`${file}.ts`] !== undefined ? { path: path.join(root, `${file}.ts`) } : undefined;
      });
      b.onLoad({ filter: /\.ts$/ }, (args) => {
        const file = path.relative(root, args.path).split(path.sep).join('/');
        return files[file] !== undefined
          ? { contents: files[file], loader: 'ts', resolveDir: path.dirname(args.path) }
          : undefined;
      });
    },
  };
  const r = await esbuild.build({
    absWorkingDir: root,
    bundle: true,
    write: false,
    metafile: true,
    platform: 'node',
    format: 'cjs',
    logLevel: 'silent',
    outdir: path.join(root, 'dist-check'),
    plugins: [virtual],
    stdin: {
      contents: entry,
      resolveDir: path.join(root, 'src', 'features', 'status'),
      sourcefile: 'entry.ts',
      loader: 'ts',
    },
  });
  return r.metafile;
}

describe('build: the sandbox and test/ never ship (esbuild.js notShipped)', function () {
  this.timeout(30000);

  it('a sandbox module imported through a shim is reported with the output and the shim that imported it', async () => {
    const meta = await build("import { leak } from '../../shims/leak';\nconsole.log(leak);\n", {
      'src/shims/leak.ts': `import { Prng } from '${path.posix.relative('src/shims', `${SANDBOX_DIR}/prng`)}';\nexport const leak = Prng;\n`,
    });
    const found = notShipped(meta);
    assert.strictEqual(found.length, 1, JSON.stringify(found));
    assert.match(
      found[0],
      new RegExp(`^${SANDBOX_DIR}/prng\\.ts is in dist-check/stdin\\.js \\(imported by src/shims/leak\\.ts\\)`),
    );
  });

  it('a test file is reported too', async () => {
    const meta = await build("import { probe } from '../../../test/leak';\nconsole.log(probe);\n", {
      'test/leak.ts': 'export const probe = 1;\n',
    });
    assert.deepStrictEqual(
      notShipped(meta).map((p) => p.split(' ')[0]),
      ['test/leak.ts'],
    );
  });

  it('a build of extension code only reports nothing', async () => {
    const meta = await build(
      "import { oneLine } from '../../api/text';\nimport { indicatorView } from './indicator';\nconsole.log(oneLine, indicatorView);\n",
    );
    assert.ok(
      Object.keys(meta.inputs).some((i) => i === 'src/api/text.ts'),
      Object.keys(meta.inputs).join(),
    );
    assert.deepStrictEqual(notShipped(meta), []);
  });
});
