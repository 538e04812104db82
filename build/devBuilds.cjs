// The builds that are not the product (esbuild.js --sandbox, --tests, --bench): one bundle per file, every module
// inline, into out/.
//   sandbox   out/sandbox/cli.js, the sandbox server (`npm run sandbox`, the test harness)
//   tests     the sandbox, the unit tests (out/test/unit), the sandbox's tests (out/sandbox/test) and the
//             integration suites (out/test/integration)
//   bench     the sandbox and the benchmarks that run under plain Node (out/test/bench)
const fs = require('fs');
const path = require('path');

const root = path.join(__dirname, '..');
const node = { platform: 'node', format: 'cjs', target: 'node20' };

/** The files under `dir` whose names end with `suffix` (paths from the root). */
function filesUnder(dir, suffix) {
  if (!fs.existsSync(path.join(root, dir))) return [];
  return fs
    .readdirSync(path.join(root, dir), { recursive: true })
    .filter((f) => f.endsWith(suffix))
    .map((f) => path.join(dir, f));
}

/** One bundle per file of `dir`, mocha (and whatever `external` names) left to the runner. */
const testBundles = (common, dir, entryPoints, external) => ({
  ...common,
  ...node,
  entryPoints,
  outdir: path.join('out', dir),
  outbase: dir,
  external,
  sourcemap: true,
});

/** The esbuild options of `kind` ('sandbox', 'tests' or 'bench'); `common`: the settings every build shares. */
function devBuilds(kind, common) {
  const sandbox = {
    ...common,
    ...node,
    entryPoints: ['sandbox/src/cli.ts'],
    outfile: 'out/sandbox/cli.js',
    sourcemap: true,
    // the placement ledger (--placement) loads npm solc only for a build out/placement-cache does not hold
    external: ['solc'],
  };
  if (kind === 'sandbox') return [sandbox];
  if (kind === 'bench')
    return [
      sandbox,
      {
        ...common,
        ...node,
        entryPoints: filesUnder('test/bench', '.ts'),
        outdir: 'out/test/bench',
        outbase: 'test/bench',
      },
    ];
  return [
    sandbox,
    testBundles(common, 'test/unit', filesUnder('test/unit', '.test.ts'), [
      'mocha',
      'vscode',
      'esbuild',
      'eslint',
      'solc',
    ]),
    // out/sandbox/test is as deep as out/test/unit: both reach the root and out/sandbox/cli.js by the same paths
    testBundles(common, 'sandbox/test', filesUnder('sandbox/test', '.test.ts'), ['mocha', 'solc']),
    testBundles(
      common,
      'test/integration',
      [...filesUnder('test/integration', '.test.ts'), ...filesUnder('test/integration', 'index.ts')],
      ['mocha', 'vscode'],
    ),
  ];
}

/** Test bundles of deleted test files must not linger and run: the test outputs start empty. */
function cleanTestOutputs() {
  for (const d of ['out/test/unit', 'out/test/integration', 'out/sandbox/test'])
    fs.rmSync(path.join(root, d), { recursive: true, force: true });
}

module.exports = { devBuilds, cleanTestOutputs };
