/**
 * The compiler the user already has (src/workspace/compiler.ts): found in fake but faithful layouts of Hardhat 2's
 * and Hardhat 3's compiler caches, Foundry's svm and a workspace's node_modules/solc, all made of the real npm solc
 * 0.8.28 (its soljson.js; svm's "native" binary is a shell script running it through solc's own wrapper), exactly
 * the version asked; compiling in a child process gives what `require('solc').compile` gives in this one; an abort
 * kills the child; failures say what the compiler said; the on-disk cache of outputs.
 */
import * as assert from 'assert';
import * as fs from 'fs';
import { createRequire } from 'module';
import * as os from 'os';
import * as path from 'path';
import {
  CompileCache,
  compileStandardJson,
  findCompiler,
  type LocalCompiler,
  withSourceOutputs,
} from '../../src/workspace/compiler';

const ROOT = path.join(__dirname, '../../..');
const rootRequire = createRequire(path.join(ROOT, 'package.json'));
const SOLJSON = rootRequire.resolve('solc/soljson.js');
const LONG = '0.8.28+commit.7893614a';
const unix = process.platform !== 'win32';

const CONTENT = [
  '// SPDX-License-Identifier: MIT',
  'pragma solidity ^0.8.20;',
  'contract Counter {',
  '    uint256 public count;',
  '    address public immutable owner = msg.sender;',
  '    error TooBig(uint256 value);',
  '    function add(uint256 by) external { if (by > 10) revert TooBig(by); count += by; }',
  '}',
].join('\n');
const INPUT = {
  language: 'Solidity',
  sources: { 'contracts/Counter.sol': { content: CONTENT } },
  settings: {
    optimizer: { enabled: true, runs: 200 },
    evmVersion: 'cancun',
    outputSelection: { '*': { '*': ['abi', 'evm.deployedBytecode.object'] } },
  },
};

type Output = {
  contracts?: Record<
    string,
    Record<
      string,
      {
        abi?: unknown;
        evm?: {
          bytecode?: { object?: string; sourceMap?: string };
          deployedBytecode?: { object?: string; sourceMap?: string; immutableReferences?: unknown };
        };
      }
    >
  >;
  sources?: Record<string, { ast?: unknown }>;
  errors?: Array<{ severity: string; formattedMessage: string }>;
};
const counter = (o: object) => (o as Output).contracts?.['contracts/Counter.sol']?.Counter;

let tmp: string;
const dir = (...parts: string[]) => {
  const d = path.join(tmp, ...parts);
  fs.mkdirSync(d, { recursive: true });
  return d;
};

/** A Hardhat cache's `<generation>/<platform>/` with list.json naming the file (the real solc-bin list's shape). */
function hardhatCache(
  cacheRoot: string,
  generation: string,
  platform: string,
  file: string,
  contents: () => void = () => fs.copyFileSync(SOLJSON, path.join(cacheRoot, generation, platform, file)),
): string {
  const d = path.join(cacheRoot, generation, platform);
  fs.mkdirSync(d, { recursive: true });
  const build = {
    path: file,
    version: '0.8.28',
    build: 'commit.7893614a',
    longVersion: LONG,
    keccak256: '0x00',
    sha256: '0x00',
    urls: [],
  };
  const older = {
    ...build,
    path: file.replace(LONG, '0.8.27+commit.40a35a09'),
    version: '0.8.27',
    longVersion: '0.8.27+commit.40a35a09',
  };
  fs.writeFileSync(
    path.join(d, 'list.json'),
    JSON.stringify({ builds: [older, build], releases: { '0.8.28': file }, latestRelease: '0.8.28' }),
  );
  contents();
  return path.join(d, file);
}

/**
 * A "native solc": a shell script running node on solc's own wrapper over the soljson copy, answering `--version`
 * and `--standard-json` (input on stdin) as solc does, and writing its arguments next to itself.
 */
function nativeSolc(file: string): string {
  fs.mkdirSync(path.dirname(file), { recursive: true });
  const soljson = `${file}.soljson.js`;
  fs.copyFileSync(SOLJSON, soljson);
  const js = `${file}.emulator.js`;
  fs.writeFileSync(
    js,
    [
      `const solc = require(${JSON.stringify(rootRequire.resolve('solc/wrapper.js'))})(require(${JSON.stringify(soljson)}));`,
      'if (process.argv.includes("--version")) { console.log("solc, the solidity compiler commandline interface\\nVersion: " + solc.version()); process.exit(0); }',
      `require("fs").writeFileSync(${JSON.stringify(`${file}.args`)}, JSON.stringify(process.argv.slice(2)));`,
      'let s = ""; process.stdin.setEncoding("utf8"); process.stdin.on("data", (c) => { s += c; });',
      'process.stdin.on("end", () => process.stdout.write(solc.compile(s)));',
    ].join('\n'),
  );
  return script(file, `exec "${process.execPath}" "${js}" "$@"`);
}

function script(file: string, body: string): string {
  fs.mkdirSync(path.dirname(file), { recursive: true });
  fs.writeFileSync(file, `#!/bin/sh\n${body}\n`, { mode: 0o755 });
  return file;
}

function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (e) {
    return (e as NodeJS.ErrnoException).code === 'EPERM';
  }
}

describe('workspace: the compiler the user already has', function () {
  // real solc-js compiles in child processes: on a machine busy with other work one takes far longer than the default
  this.timeout(120000);
  let inProcess: Output;
  before(() => {
    tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'hx-compiler-test-'));
    const solc = rootRequire('solc') as { compile(s: string): string };
    inProcess = JSON.parse(solc.compile(JSON.stringify(INPUT))) as Output;
    assert.deepStrictEqual(
      (inProcess.errors ?? []).filter((e) => e.severity === 'error'),
      [],
    );
    assert.match(counter(inProcess)?.evm?.deployedBytecode?.object ?? '', /^[0-9a-f]{200,}$/);
  });
  after(() => fs.rmSync(tmp, { recursive: true, force: true }));

  describe('findCompiler', () => {
    it('Hardhat 2: compilers-v2/wasm/list.json and soljson-v<long>.js, under $XDG_CACHE_HOME or ~/.cache', async () => {
      const home = dir('hh2');
      const file = hardhatCache(
        path.join(home, '.cache', 'hardhat-nodejs'),
        'compilers-v2',
        'wasm',
        `soljson-v${LONG}.js`,
      );
      const opts = { workspaceRoots: [], home, env: {}, platform: 'linux' as const, arch: 'x64' };
      const c = await findCompiler(LONG, opts);
      assert.deepStrictEqual(c, {
        kind: 'soljson',
        path: file,
        version: '0.8.28',
        longVersion: LONG,
        where: "Hardhat's compiler cache (~/.cache/hardhat-nodejs/compilers-v2/wasm)",
        fromWorkspace: false,
      });
      assert.strictEqual((await findCompiler('0.8.28', opts))?.path, file, 'the short version finds it too');
      assert.strictEqual(await findCompiler('0.8.27', opts), undefined, 'listed, but not downloaded');
      assert.strictEqual(await findCompiler('0.8.28+commit.deadbeef', opts), undefined, 'another commit');
      assert.strictEqual(await findCompiler('0.8.2', opts), undefined);
      const xdg = dir('hh2-xdg');
      const moved = hardhatCache(path.join(xdg, 'hardhat-nodejs'), 'compilers-v2', 'wasm', `soljson-v${LONG}.js`);
      assert.strictEqual((await findCompiler(LONG, { ...opts, env: { XDG_CACHE_HOME: xdg } }))?.path, moved);
      assert.strictEqual(await findCompiler(LONG, { ...opts, env: { XDG_CACHE_HOME: dir('empty') } }), undefined);
    });

    it('Hardhat on macOS and Windows: ~/Library/Caches/hardhat-nodejs, %LOCALAPPDATA%\\hardhat-nodejs\\Cache', async () => {
      const home = dir('mac');
      const mac = hardhatCache(
        path.join(home, 'Library', 'Caches', 'hardhat-nodejs'),
        'compilers-v3',
        'wasm',
        `soljson-v${LONG}.js`,
      );
      assert.strictEqual(
        (await findCompiler(LONG, { workspaceRoots: [], home, env: {}, platform: 'darwin' }))?.path,
        mac,
      );
      const local = dir('win', 'AppData', 'Local');
      const win = hardhatCache(
        path.join(local, 'hardhat-nodejs', 'Cache'),
        'compilers-v2',
        'wasm',
        `soljson-v${LONG}.js`,
      );
      assert.strictEqual(
        (
          await findCompiler(LONG, {
            workspaceRoots: [],
            home: dir('win-home'),
            env: { LOCALAPPDATA: local },
            platform: 'win32',
          })
        )?.path,
        win,
      );
    });

    it('Hardhat 3: compilers-v3/<platform>/list.json, the native build before the WebAssembly one, never one marked .does.not.work', async function () {
      if (!unix) this.skip();
      const home = dir('hh3');
      const cache = path.join(home, '.cache', 'hardhat-nodejs');
      const wasm = hardhatCache(cache, 'compilers-v3', 'wasm', `soljson-v${LONG}.js`);
      const opts = { workspaceRoots: [], home, env: {}, platform: 'linux' as const, arch: 'x64' };
      assert.deepStrictEqual(await findCompiler(LONG, opts), {
        kind: 'soljson',
        path: wasm,
        version: '0.8.28',
        longVersion: LONG,
        where: "Hardhat's compiler cache (~/.cache/hardhat-nodejs/compilers-v3/wasm)",
        fromWorkspace: false,
      });
      const name = `solc-linux-amd64-v${LONG}`;
      const native = hardhatCache(cache, 'compilers-v3', 'linux-amd64', name, () =>
        nativeSolc(path.join(cache, 'compilers-v3', 'linux-amd64', name)),
      );
      assert.deepStrictEqual(await findCompiler(LONG, opts), {
        kind: 'native',
        path: native,
        version: '0.8.28',
        longVersion: LONG,
        where: "Hardhat's compiler cache (~/.cache/hardhat-nodejs/compilers-v3/linux-amd64)",
        fromWorkspace: false,
      });
      assert.strictEqual(
        (await findCompiler(LONG, { ...opts, arch: 'arm64' }))?.path,
        wasm,
        'arm64 Linux looks in linux-arm64',
      );
      // Hardhat 3 is looked at before Hardhat 2
      hardhatCache(cache, 'compilers-v2', 'wasm', `soljson-v${LONG}.js`);
      assert.strictEqual((await findCompiler(LONG, opts))?.path, native);
      fs.writeFileSync(`${native}.does.not.work`, '');
      assert.strictEqual((await findCompiler(LONG, opts))?.path, wasm);
    });

    it('Foundry svm: ~/.svm/<v>/solc-<v>, else $XDG_DATA_HOME/svm or ~/.local/share/svm; --version checked when asked', async function () {
      if (!unix) this.skip();
      const home = dir('svm');
      const file = nativeSolc(path.join(home, '.svm', '0.8.28', 'solc-0.8.28'));
      const opts = { workspaceRoots: [], home, env: {}, platform: 'linux' as const };
      assert.deepStrictEqual(await findCompiler(LONG, opts), {
        kind: 'native',
        path: file,
        version: '0.8.28',
        where: "Foundry's svm (~/.svm/0.8.28)",
        fromWorkspace: false,
      });
      assert.strictEqual(await findCompiler('0.8.27', opts), undefined);
      assert.strictEqual(
        (await findCompiler(LONG, { ...opts, checkNative: true }))?.longVersion,
        LONG,
        'the version the binary prints',
      );
      assert.strictEqual(
        await findCompiler('0.8.28+commit.deadbeef', { ...opts, checkNative: true }),
        undefined,
        'another commit, seen by --version',
      );
      const home2 = dir('svm-xdg');
      const data = dir('svm-data');
      const xdg = nativeSolc(path.join(data, 'svm', '0.8.28', 'solc-0.8.28'));
      assert.strictEqual((await findCompiler(LONG, { ...opts, home: home2, env: { XDG_DATA_HOME: data } }))?.path, xdg);
      const local = nativeSolc(path.join(home2, '.local', 'share', 'svm', '0.8.28', 'solc-0.8.28'));
      assert.strictEqual((await findCompiler(LONG, { ...opts, home: home2 }))?.path, local);
      fs.chmodSync(local, 0o644);
      assert.strictEqual(await findCompiler(LONG, { ...opts, home: home2 }), undefined, 'not executable');
    });

    it("npm: a workspace root's node_modules/solc of that exact version (package.json), last", async function () {
      const ws = dir('ws');
      const solcDir = dir('ws', 'node_modules', 'solc');
      fs.copyFileSync(SOLJSON, path.join(solcDir, 'soljson.js'));
      fs.writeFileSync(path.join(solcDir, 'package.json'), JSON.stringify({ name: 'solc', version: '0.8.28' }));
      const opts = {
        workspaceRoots: [dir('ws-other'), ws],
        home: dir('npm-home'),
        env: {},
        platform: 'linux' as const,
      };
      assert.deepStrictEqual(await findCompiler(LONG, opts), {
        kind: 'soljson',
        path: path.join(solcDir, 'soljson.js'),
        version: '0.8.28',
        where: `the npm package solc in ${solcDir}`,
        fromWorkspace: true,
      });
      assert.strictEqual(await findCompiler('0.8.27', opts), undefined);
      assert.strictEqual(
        await findCompiler(LONG, { ...opts, workspaceRoots: [] }),
        undefined,
        'no workspace roots: the workspace is not looked at',
      );
      // every place at once: Hardhat's cache first, then svm, then npm
      if (!unix) return;
      const home = dir('all');
      nativeSolc(path.join(home, '.svm', '0.8.28', 'solc-0.8.28'));
      assert.match((await findCompiler(LONG, { ...opts, home }))?.where ?? '', /^Foundry's svm/);
      hardhatCache(path.join(home, '.cache', 'hardhat-nodejs'), 'compilers-v2', 'wasm', `soljson-v${LONG}.js`);
      assert.match((await findCompiler(LONG, { ...opts, home }))?.where ?? '', /^Hardhat's compiler cache/);
      assert.strictEqual(await findCompiler('0.8.27', { ...opts, home }), undefined, '0.8.28 everywhere, 0.8.27 asked');
    });

    it('malformed list.json, versions and package.json are misses, never errors', async () => {
      const home = dir('bad');
      const wasm = dir('bad', '.cache', 'hardhat-nodejs', 'compilers-v3', 'wasm');
      fs.copyFileSync(SOLJSON, path.join(wasm, `soljson-v${LONG}.js`));
      const opts = { workspaceRoots: [home], home, env: {}, platform: 'linux' as const };
      for (const list of [
        '{',
        '[]',
        '{"builds":{}}',
        `{"builds":[{"version":"0.8.28","path":"../../../etc/soljson-v${LONG}.js"}]}`,
        `{"builds":[{"version":"0.8.28","path":"soljson-v0.8.27+commit.40a35a09.js"}]}`,
      ]) {
        fs.writeFileSync(path.join(wasm, 'list.json'), list);
        assert.strictEqual(await findCompiler(LONG, opts), undefined, list);
      }
      fs.mkdirSync(path.join(home, 'node_modules', 'solc'), { recursive: true });
      fs.writeFileSync(path.join(home, 'node_modules', 'solc', 'package.json'), '{"name":"solc","version":"0.8.28"');
      fs.copyFileSync(SOLJSON, path.join(home, 'node_modules', 'solc', 'soljson.js'));
      assert.strictEqual(await findCompiler(LONG, opts), undefined);
      for (const v of ['', 'latest', '0.8', '0.8.28-nightly.2024.10.1+commit.aaaaaaaa'])
        assert.strictEqual(await findCompiler(v, opts), undefined, v);
    });
  });

  describe('compileStandardJson', () => {
    /** One compiler of each kind, in layouts of its own. */
    const compilers = new Map<string, LocalCompiler>();
    before(async function () {
      const opts = { workspaceRoots: [], env: {}, platform: 'linux' as const };
      const hh = dir('c-hh2');
      hardhatCache(path.join(hh, '.cache', 'hardhat-nodejs'), 'compilers-v2', 'wasm', `soljson-v${LONG}.js`);
      compilers.set('soljson', (await findCompiler(LONG, { ...opts, home: hh }))!);
      const ws = dir('c-ws', 'node_modules', 'solc');
      fs.copyFileSync(SOLJSON, path.join(ws, 'soljson.js'));
      fs.writeFileSync(path.join(ws, 'package.json'), JSON.stringify({ name: 'solc', version: '0.8.28' }));
      compilers.set(
        'npm',
        (await findCompiler(LONG, { ...opts, home: dir('c-nothing'), workspaceRoots: [path.join(tmp, 'c-ws')] }))!,
      );
      if (unix) {
        const svm = dir('c-svm');
        nativeSolc(path.join(svm, '.svm', '0.8.28', 'solc-0.8.28'));
        compilers.set('native', (await findCompiler(LONG, { ...opts, home: svm }))!);
      }
      assert.deepStrictEqual(
        [...compilers.values()].map((c) => c?.kind),
        unix ? ['soljson', 'soljson', 'native'] : ['soljson', 'soljson'],
      );
    });
    const found = (kind: string): LocalCompiler => compilers.get(kind)!;

    for (const kind of ['soljson', 'native', 'npm']) {
      it(`${kind}: in a child process, the same runtime code as require('solc').compile in this one`, async function () {
        if (kind === 'native' && !unix) this.skip();
        const c = found(kind);
        const output = await compileStandardJson(c, INPUT);
        assert.deepStrictEqual((output as Output).errors ?? [], inProcess.errors ?? []);
        assert.strictEqual(
          counter(output)?.evm?.deployedBytecode?.object,
          counter(inProcess)?.evm?.deployedBytecode?.object,
        );
        assert.deepStrictEqual(counter(output)?.abi, counter(inProcess)?.abi);
        assert.strictEqual(counter(output)?.evm?.bytecode, undefined, 'only what the input asks');
        if (kind === 'native') {
          assert.deepStrictEqual(JSON.parse(fs.readFileSync(`${c.path}.args`, 'utf8')), [
            '--standard-json',
            '--no-import-callback',
          ]);
        }
      });
    }

    it('addSourceOutputs: bytecode, source maps, immutables and ASTs added, the same code, the input untouched', async () => {
      const c = found('soljson');
      const before = JSON.stringify(INPUT);
      const output = await compileStandardJson(c, INPUT, { addSourceOutputs: true });
      assert.strictEqual(JSON.stringify(INPUT), before);
      const ct = counter(output);
      assert.strictEqual(ct?.evm?.deployedBytecode?.object, counter(inProcess)?.evm?.deployedBytecode?.object);
      assert.match(ct?.evm?.deployedBytecode?.sourceMap ?? '', /^\d+:\d+:\d+:-:0/);
      assert.match(ct?.evm?.bytecode?.object ?? '', /^[0-9a-f]+$/);
      assert.strictEqual(Object.keys(ct?.evm?.deployedBytecode?.immutableReferences ?? {}).length, 1);
      assert.ok((output as Output).sources?.['contracts/Counter.sol']?.ast);
      assert.ok(ct?.abi, 'what the input asked is still there');
      const augmented = withSourceOutputs({
        settings: {
          outputSelection: { '*': { '*': ['evm.bytecode', 'abi'], '': ['ast'] }, 'a.sol': { A: ['metadata'] } },
        },
      });
      assert.deepStrictEqual(augmented.settings.outputSelection, {
        '*': {
          '*': [
            'evm.bytecode',
            'abi',
            'evm.deployedBytecode.object',
            'evm.deployedBytecode.sourceMap',
            'evm.deployedBytecode.linkReferences',
            'evm.deployedBytecode.immutableReferences',
            'evm.deployedBytecode.generatedSources',
          ],
          '': ['ast'],
        },
        'a.sol': { A: ['metadata'] },
      });
    });

    it('a large input and output go through pipes', async () => {
      const c = found('soljson');
      // ~2.5 MB of comments (too much for solc-js's own compile(), whose input goes onto the WebAssembly stack) and a
      // string constant of 600 kB, which the AST holds twice (value, hexValue)
      const padding = `/*${'x'.repeat(120)}*/\n`.repeat(20_000);
      const constant = `string constant BIG = "${'y'.repeat(600_000)}";\n`;
      const big = {
        ...INPUT,
        sources: { 'contracts/Counter.sol': { content: padding + CONTENT + constant } },
        settings: {
          ...INPUT.settings,
          outputSelection: { '*': { '*': ['evm.deployedBytecode.object'], '': ['ast'] } },
        },
      };
      const output = await compileStandardJson(c, big);
      assert.deepStrictEqual(
        ((output as Output).errors ?? []).filter((e) => e.severity === 'error'),
        [],
      );
      const code = (o: object) =>
        counter(o)?.evm?.deployedBytecode?.object?.replace(
          /a264697066735822[0-9a-f]{68}64736f6c6343[0-9a-f]{6}0033$/,
          '',
        );
      assert.strictEqual(code(output), code(inProcess), 'the same code, the metadata hash aside (other source text)');
      assert.notStrictEqual(code(output), counter(output)?.evm?.deployedBytecode?.object);
      assert.ok(JSON.stringify(output).length > 1_800_000);
    });

    it('an abort kills the child and rejects with an AbortError; an aborted signal starts nothing', async () => {
      const c = found('soljson');
      const controller = new AbortController();
      let pid: number | undefined;
      await assert.rejects(
        compileStandardJson(c, INPUT, {
          signal: controller.signal,
          onSpawn: (p) => {
            pid = p;
            controller.abort();
          },
        }),
        { name: 'AbortError' },
      );
      assert.ok(pid !== undefined && !alive(pid), 'the child is gone');
      let spawned = false;
      await assert.rejects(
        compileStandardJson(c, INPUT, {
          signal: AbortSignal.abort(),
          onSpawn: () => {
            spawned = true;
          },
        }),
        { name: 'AbortError' },
      );
      assert.strictEqual(spawned, false);
    });

    it("a timeout kills the child; failures and non-JSON answers reject with the compiler's own words", async function () {
      if (!unix) this.skip();
      const fake = (name: string, body: string): LocalCompiler => ({
        kind: 'native',
        path: script(path.join(tmp, 'fakes', name), body),
        version: '0.8.28',
        where: 'a test',
        fromWorkspace: false,
      });
      let pid: number | undefined;
      await assert.rejects(
        compileStandardJson(fake('slow', 'exec sleep 60'), INPUT, {
          timeoutMs: 50,
          onSpawn: (p) => {
            pid = p;
          },
        }),
        /did not finish/,
      );
      assert.ok(pid !== undefined && !alive(pid));
      await assert.rejects(
        compileStandardJson(fake('fails', 'cat >/dev/null; echo "Error: boom" >&2; echo second >&2; exit 3'), INPUT),
        (e: Error) => {
          assert.match(e.message, /failed \(exit code 3\):\nError: boom\nsecond$/);
          return true;
        },
      );
      await assert.rejects(
        compileStandardJson(fake('chatty', 'cat >/dev/null; echo "not json"'), INPUT),
        /did not answer with a JSON object:\nnot json/,
      );
      await assert.rejects(
        compileStandardJson(fake('exits', 'exit 0'), INPUT),
        /did not answer with a JSON object\./,
        'exits before reading its input',
      );
      await assert.rejects(
        compileStandardJson({ ...fake('gone', ''), path: path.join(tmp, 'fakes', 'missing') }, INPUT),
        /Could not run/,
      );
      const broken: LocalCompiler = {
        kind: 'soljson',
        path: path.join(tmp, 'fakes', 'broken.js'),
        version: '0.8.28',
        where: 'a test',
        fromWorkspace: false,
      };
      fs.writeFileSync(broken.path, 'throw new Error("not a compiler");');
      await assert.rejects(compileStandardJson(broken, INPUT), /failed \(exit code 1\):[^]*not a compiler/);
    });
  });

  describe('CompileCache', () => {
    it('keys by compiler version and canonical input; put/get round trip; corrupt, missing or foreign files are misses', async () => {
      const cache = new CompileCache(path.join(tmp, 'cache', 'nested'));
      const key = CompileCache.key(LONG, INPUT);
      assert.match(key, /^[0-9a-f]{64}$/);
      const reordered = {
        settings: {
          outputSelection: INPUT.settings.outputSelection,
          evmVersion: 'cancun',
          optimizer: { runs: 200, enabled: true },
        },
        sources: INPUT.sources,
        language: 'Solidity',
      };
      assert.strictEqual(CompileCache.key(LONG, reordered), key, 'key order does not matter');
      assert.notStrictEqual(CompileCache.key('0.8.27+commit.40a35a09', INPUT), key);
      assert.notStrictEqual(
        CompileCache.key(LONG, { ...INPUT, settings: { ...INPUT.settings, evmVersion: 'paris' } }),
        key,
      );
      assert.notStrictEqual(CompileCache.key(LONG, INPUT, { addSourceOutputs: true }), key);
      assert.strictEqual(
        CompileCache.key(LONG, INPUT, { addSourceOutputs: true }),
        CompileCache.key(LONG, withSourceOutputs(INPUT)),
      );

      assert.strictEqual(await cache.get(key), undefined);
      assert.strictEqual(await cache.put(key, inProcess), true);
      assert.deepStrictEqual(await cache.get(key), inProcess);
      assert.deepStrictEqual(fs.readdirSync(cache.dir), [`${key}.json`], 'no temporary file left');
      fs.writeFileSync(path.join(cache.dir, `${key}.json`), '{"contracts":{');
      assert.strictEqual(await cache.get(key), undefined, 'corrupt');
      fs.writeFileSync(path.join(cache.dir, `${key}.json`), '[1]');
      assert.strictEqual(await cache.get(key), undefined, 'not an output');
      fs.rmSync(path.join(cache.dir, `${key}.json`));
      fs.mkdirSync(path.join(cache.dir, `${key}.json`));
      assert.strictEqual(await cache.get(key), undefined, 'a folder');
      assert.strictEqual(await cache.put(key, inProcess), false, 'cannot be written: false, no throw');
      assert.strictEqual(await cache.get('../../etc/passwd'), undefined);
      assert.strictEqual(await cache.put('../escape', {}), false);
      const blocked = new CompileCache(path.join(tmp, 'cache', `${key}-file`));
      fs.writeFileSync(blocked.dir, '');
      assert.strictEqual(await blocked.put(key, inProcess), false);
      assert.strictEqual(await blocked.get(key), undefined);
    });
  });
});
