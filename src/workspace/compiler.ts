/**
 * A compiler output the workspace lacks, made with a compiler the machine already has. Hardhat Ignition keeps the
 * deployed build's standard JSON input (`ignition/deployments/<id>/build-info/<buildId>.json`, often Hardhat 3's
 * `production` profile) without its output; placing reverts and matching bytecode need that output.
 * - `findCompiler` looks for solc of exactly the build's version, nothing downloaded, in this order: Hardhat's
 *   compiler cache (`<cache>/hardhat-nodejs/compilers-v3` of Hardhat 3, then `compilers-v2` of Hardhat 2; in each,
 *   `<platform>/list.json` names the file of a version: the native build first, then `wasm/soljson-v<long>.js`),
 *   Foundry's svm (`~/.svm/<v>/solc-<v>`, or `<data dir>/svm/<v>/solc-<v>`), then the npm package `solc` of that
 *   version in a workspace root's node_modules.
 * - `compileStandardJson` runs it in a child process, never in this one: a native binary with `--standard-json`, a
 *   soljson.js under this process's own Node or Electron (`ELECTRON_RUN_AS_NODE=1`) calling its `solidity_compile`.
 *   Input on stdin, output on stdout (pipes: outputs of tens of MB are fine); an AbortSignal kills the child.
 * - `CompileCache` keeps outputs on disk, keyed by the compiler version and the input.
 * Plain TypeScript over Node (fs, child_process).
 *
 * Trust: the only workspace content this module ever runs is an npm `solc` package's soljson.js in a workspace
 * root's node_modules, and only when the caller passes the `LocalCompiler` findCompiler returned for it
 * (`fromWorkspace` true). Checking workspace trust before that is the caller's job (in an untrusted workspace it
 * passes no `workspaceRoots`). Hardhat's cache and svm are the user's, outside the workspace. Native solc runs in an
 * empty temporary folder with its import callback off (`--no-import-callback`; an empty `--base-path` before
 * 0.8.22, as Hardhat does): it compiles the sources in the input, it reads no other file.
 */
import { execFile, spawn } from 'child_process';
import { createHash, randomBytes } from 'crypto';
import * as fs from 'fs';
import * as os from 'os';
import * as path from 'path';

export interface LocalCompiler {
  kind: 'native' | 'soljson';
  /** The executable, or the soljson.js file. */
  path: string;
  /** `0.8.28`. */
  version: string;
  /** `0.8.28+commit.7893614a` when known: Hardhat's list.json says it, or `--version` did (`checkNative`). */
  longVersion?: string;
  /** Where it was found, for people: "Hardhat's compiler cache (~/.cache/hardhat-nodejs/compilers-v3/wasm)". */
  where: string;
  /** A workspace's node_modules/solc: compiling with it runs workspace content. */
  fromWorkspace: boolean;
}

export interface FindCompilerOptions {
  /** Folders whose `node_modules/solc` may hold the version (none in an untrusted workspace). */
  workspaceRoots: string[];
  /** Defaults: this process's home, environment, platform and architecture. */
  home?: string;
  env?: NodeJS.ProcessEnv;
  platform?: NodeJS.Platform;
  arch?: string;
  /** Run a native binary found with `--version` and keep it only if it says the version asked (one short child). */
  checkNative?: boolean;
}

export interface CompileOptions {
  signal?: AbortSignal;
  timeoutMs?: number;
  /**
   * Add to `settings.outputSelection` what placing code needs, when missing: `evm.bytecode` and
   * `evm.deployedBytecode` (object, sourceMap, linkReferences, immutableReferences, generatedSources) and `ast`.
   * More outputs do not change the bytecode; nothing else of the input is changed.
   */
  addSourceOutputs?: boolean;
  /** Told the child's process id once it runs. */
  onSpawn?: (pid: number) => void;
}

interface Wanted {
  version: string;
  commit?: string;
}

/** `0.8.28`, `v0.8.28`, `0.8.28+commit.7893614a`, `0.8.28+commit.7893614a.Linux.g++`; prereleases are not looked for. */
function parseVersion(v: string): Wanted | undefined {
  const m = /^v?(\d+\.\d+\.\d+)(?:\+commit\.([0-9a-f]+)(?:\..*)?)?$/i.exec(v.trim());
  return m ? { version: m[1], commit: m[2]?.toLowerCase() } : undefined;
}

/** Whether a long version agrees with the one asked: same x.y.z, and the same commit when both say one. */
function sameVersion(wanted: Wanted, long: string): boolean {
  const have = parseVersion(long);
  if (!have || have.version !== wanted.version) return false;
  return (
    !wanted.commit || !have.commit || wanted.commit.startsWith(have.commit) || have.commit.startsWith(wanted.commit)
  );
}

const obj = (v: unknown): Record<string, unknown> | undefined =>
  v && typeof v === 'object' && !Array.isArray(v) ? (v as Record<string, unknown>) : undefined;

async function readJsonFile(file: string): Promise<unknown> {
  try {
    return JSON.parse(await fs.promises.readFile(file, 'utf8'));
  } catch {
    return undefined;
  }
}

async function isFile(file: string, executable = false): Promise<boolean> {
  try {
    if (!(await fs.promises.stat(file)).isFile()) return false;
    if (executable && process.platform !== 'win32') await fs.promises.access(file, fs.constants.X_OK);
    return true;
  } catch {
    return false;
  }
}

/** `env-paths('hardhat').cache`, which Hardhat 2 and 3 both use (hardhat-utils global-dir.ts, hardhat-core global-dir.ts). */
function hardhatCacheDir(home: string, env: NodeJS.ProcessEnv, platform: NodeJS.Platform): string {
  if (platform === 'darwin') return path.join(home, 'Library', 'Caches', 'hardhat-nodejs');
  if (platform === 'win32')
    return path.join(env.LOCALAPPDATA || path.join(home, 'AppData', 'Local'), 'hardhat-nodejs', 'Cache');
  return path.join(env.XDG_CACHE_HOME || path.join(home, '.cache'), 'hardhat-nodejs');
}

/** Hardhat's `CompilerPlatform` for native builds (Hardhat 3 adds linux-arm64). */
function hardhatPlatform(platform: NodeJS.Platform, arch: string): string | undefined {
  if (platform === 'win32') return 'windows-amd64';
  if (platform === 'darwin') return 'macosx-amd64';
  if (platform === 'linux') return arch === 'arm64' ? 'linux-arm64' : 'linux-amd64';
  return undefined;
}

/** svm-rs `data_dir()` candidates: `~/.svm` (used when it exists), else `dirs::data_dir()/svm`. */
function svmDirs(home: string, env: NodeJS.ProcessEnv, platform: NodeJS.Platform): string[] {
  const xdg = env.XDG_DATA_HOME && path.isAbsolute(env.XDG_DATA_HOME) ? env.XDG_DATA_HOME : undefined;
  const data =
    platform === 'darwin'
      ? path.join(home, 'Library', 'Application Support')
      : platform === 'win32'
        ? env.APPDATA || path.join(home, 'AppData', 'Roaming')
        : (xdg ?? path.join(home, '.local', 'share'));
  return [path.join(home, '.svm'), path.join(data, 'svm')];
}

/** The long version a native solc prints for `--version` (`Version: 0.8.28+commit.7893614a.Linux.g++`). */
function nativeVersion(file: string): Promise<string | undefined> {
  return new Promise((resolve) => {
    execFile(file, ['--version'], { timeout: 15_000, windowsHide: true, cwd: os.tmpdir() }, (error, stdout) => {
      const m = /Version: (\d+\.\d+\.\d+\+commit\.[0-9a-f]+)/.exec(String(stdout));
      resolve(error || !m ? undefined : m[1]);
    });
  });
}

/**
 * Finds solc of exactly `version` on this machine (see the header for where, in which order), or undefined.
 * Never downloads, never throws for unreadable or malformed files (they are skipped).
 */
export async function findCompiler(version: string, options: FindCompilerOptions): Promise<LocalCompiler | undefined> {
  const wanted = parseVersion(version);
  if (!wanted) return undefined;
  const home = options.home ?? os.homedir();
  const env = options.env ?? process.env;
  const platform = options.platform ?? process.platform;
  const short = (p: string) => (p === home || p.startsWith(home + path.sep) ? `~${p.slice(home.length)}` : p);
  const versionInName = new RegExp(`v${wanted.version.replace(/\./g, '\\.')}(?!\\d)`);

  const accept = async (c: LocalCompiler): Promise<LocalCompiler | undefined> => {
    if (c.kind !== 'native' || !options.checkNative) return c;
    const long = await nativeVersion(c.path);
    return long && sameVersion(wanted, long) ? { ...c, longVersion: long } : undefined;
  };

  // Hardhat's compiler cache: Hardhat 3, then Hardhat 2; the native build, then the WebAssembly one
  const cache = hardhatCacheDir(home, env, platform);
  for (const generation of ['compilers-v3', 'compilers-v2']) {
    for (const plat of [hardhatPlatform(platform, options.arch ?? process.arch), 'wasm']) {
      if (!plat) continue;
      const dir = path.join(cache, generation, plat);
      const builds = (obj(await readJsonFile(path.join(dir, 'list.json')))?.builds ?? []) as unknown[];
      if (!Array.isArray(builds)) continue;
      const build = builds
        .map(obj)
        .find(
          (b) =>
            b &&
            b.version === wanted.version &&
            b.prerelease === undefined &&
            typeof b.path === 'string' &&
            /^[\w.+-]+$/.test(b.path) &&
            versionInName.test(b.path) &&
            (typeof b.longVersion !== 'string' || sameVersion(wanted, b.longVersion)),
        );
      if (!build) continue;
      const name = build.path as string;
      // Windows builds up to 0.7.1 are zips, unpacked to <compilers>/<version>/solc.exe
      const file =
        plat === 'windows-amd64' && name.endsWith('.zip')
          ? path.join(cache, generation, wanted.version, 'solc.exe')
          : path.join(dir, name);
      if (!(await isFile(file, plat !== 'wasm')) || (await isFile(`${file}.does.not.work`))) continue;
      const long =
        typeof build.longVersion === 'string' && build.longVersion.includes('+commit.') ? build.longVersion : undefined;
      const found = await accept({
        kind: plat === 'wasm' ? 'soljson' : 'native',
        path: file,
        version: wanted.version,
        longVersion: long,
        where: `Hardhat's compiler cache (${short(dir)})`,
        fromWorkspace: false,
      });
      if (found) return found;
    }
  }

  // Foundry's svm
  for (const dir of svmDirs(home, env, platform)) {
    const file = path.join(dir, wanted.version, `solc-${wanted.version}`);
    if (!(await isFile(file, true))) continue;
    const found = await accept({
      kind: 'native',
      path: file,
      version: wanted.version,
      where: `Foundry's svm (${short(path.dirname(file))})`,
      fromWorkspace: false,
    });
    if (found) return found;
  }

  // the npm package solc in a workspace root
  for (const root of options.workspaceRoots) {
    const dir = path.join(root, 'node_modules', 'solc');
    const pkg = obj(await readJsonFile(path.join(dir, 'package.json')));
    const file = path.join(dir, 'soljson.js');
    if (pkg?.name === 'solc' && pkg.version === wanted.version && (await isFile(file))) {
      return {
        kind: 'soljson',
        path: file,
        version: wanted.version,
        where: `the npm package solc in ${short(dir)}`,
        fromWorkspace: true,
      };
    }
  }
  return undefined;
}

const SOURCE_OUTPUTS = [
  'evm.bytecode.object',
  'evm.bytecode.sourceMap',
  'evm.bytecode.linkReferences',
  'evm.bytecode.generatedSources',
  'evm.deployedBytecode.object',
  'evm.deployedBytecode.sourceMap',
  'evm.deployedBytecode.linkReferences',
  'evm.deployedBytecode.immutableReferences',
  'evm.deployedBytecode.generatedSources',
];

/** A copy of `input` whose output selection also asks, for every file, what placing code needs (CompileOptions). */
export function withSourceOutputs<T extends object>(input: T): T {
  const copy = JSON.parse(JSON.stringify(input)) as Record<string, unknown>;
  const settings = (copy.settings = obj(copy.settings) ?? {});
  const selection = (settings.outputSelection = obj(settings.outputSelection) ?? {});
  const everyFile = (selection['*'] = obj(selection['*']) ?? {});
  const add = (have: unknown, items: string[]): unknown[] => {
    const list = Array.isArray(have) ? [...(have as unknown[])] : [];
    const covered = (item: string) =>
      list.some((h) => typeof h === 'string' && (h === '*' || h === item || item.startsWith(`${h}.`)));
    return [...list, ...items.filter((item) => !covered(item))];
  };
  everyFile['*'] = add(everyFile['*'], SOURCE_OUTPUTS);
  everyFile[''] = add(everyFile[''], ['ast']);
  return copy as T;
}

/**
 * Reads standard JSON on stdin, loads the soljson file named in the environment, writes its output on stdout. The
 * input goes into the compiler's heap (`solidity_alloc`), not through cwrap's 'string', which copies it onto the
 * small WebAssembly stack: inputs of a few MB would fail there ("memory access out of bounds"), as they do in solc-js.
 */
const SOLJSON_RUNNER = `
const chunks = [];
process.stdin.on('data', (c) => chunks.push(c));
process.stdin.on('end', () => {
  const solc = require(process.env.HEDERA_EXPLORER_SOLJSON);
  const name = solc._solidity_compile ? 'solidity_compile' : solc._compileStandard ? 'compileStandard' : undefined;
  if (!name) {
    process.stderr.write('This soljson.js has no standard JSON entry point.\\n');
    process.exit(2);
  }
  const input = Buffer.concat(chunks).toString('utf8');
  const alloc = solc._solidity_alloc ? solc.cwrap('solidity_alloc', 'number', ['number']) : solc._malloc;
  const size = solc.lengthBytesUTF8(input) + 1;
  const pointer = alloc(size);
  solc.stringToUTF8(input, pointer, size);
  // solc 0.6+: (input, callback, context); 0.5: (input, callback); no callback: imports are not read
  const output = solc.cwrap(name, 'number', ['number', 'number', 'number'])(pointer, 0, 0);
  process.stdout.write((solc.UTF8ToString || solc.Pointer_stringify)(output));
});
`;

/** `--standard-json` and, as Hardhat runs native solc, no import callback reading files outside the input. */
function nativeArgs(version: string, emptyDir: string): string[] {
  const [major, minor, patch] = version.split('.').map(Number);
  const n = major * 1e6 + minor * 1e3 + patch;
  if (n >= 8_022) return ['--standard-json', '--no-import-callback'];
  if (n >= 6_009) return ['--standard-json', '--base-path', emptyDir];
  return ['--standard-json'];
}

function abortError(signal: AbortSignal | undefined): Error {
  const e = new Error('The compilation was cancelled.', { cause: signal?.reason });
  e.name = 'AbortError';
  return e;
}

const firstLines = (s: string, n = 5): string =>
  s
    .split(/\r?\n/)
    .map((l) => l.trimEnd())
    .filter(Boolean)
    .slice(0, n)
    .join('\n');

interface ChildResult {
  code: number | null;
  signal: NodeJS.Signals | null;
  stdout: Buffer;
  stderr: string;
}

/** Runs one child, `stdin` piped in, stdout collected; settles only after the child is gone. */
function runChild(
  command: string,
  args: string[],
  env: NodeJS.ProcessEnv,
  cwd: string,
  stdin: string,
  options: CompileOptions,
): Promise<ChildResult> {
  return new Promise((resolve, reject) => {
    const child = spawn(command, args, { cwd, env, stdio: ['pipe', 'pipe', 'pipe'], windowsHide: true });
    const out: Buffer[] = [];
    const err: Buffer[] = [];
    let errBytes = 0;
    let stopped: Error | undefined;
    let settled = false;
    const stop = (reason: Error) => {
      if (stopped) return;
      stopped = reason;
      child.kill('SIGKILL');
    };
    const onAbort = () => stop(abortError(options.signal));
    const timer =
      options.timeoutMs !== undefined
        ? setTimeout(
            () => stop(new Error(`solc did not finish within ${Math.round(options.timeoutMs! / 1000)} s.`)),
            options.timeoutMs,
          )
        : undefined;
    const settle = (fn: () => void) => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      options.signal?.removeEventListener('abort', onAbort);
      fn();
    };
    options.signal?.addEventListener('abort', onAbort, { once: true });
    child.stdout.on('data', (b: Buffer) => out.push(b));
    child.stderr.on('data', (b: Buffer) => {
      if (errBytes < 64 * 1024) err.push(b);
      errBytes += b.length;
    });
    child.stdin.on('error', () => undefined); // a child that exits before reading everything: its exit says why
    child.on('error', (e) => settle(() => reject(stopped ?? new Error(`Could not run ${command}: ${e.message}`))));
    child.on('close', (code, signal) =>
      settle(() =>
        stopped
          ? reject(stopped)
          : resolve({ code, signal, stdout: Buffer.concat(out), stderr: Buffer.concat(err).toString('utf8') }),
      ),
    );
    if (child.pid !== undefined) options.onSpawn?.(child.pid);
    if (options.signal?.aborted) onAbort();
    child.stdin.end(stdin);
  });
}

/**
 * Compiles a standard JSON input with a compiler findCompiler returned, in a child process, and returns the
 * compiler's standard JSON output (compile errors are in its `errors`, as solc gives them). Rejects with an error
 * named AbortError when `signal` aborts (the child is killed first), and with one sentence and the first lines of
 * the compiler's stderr when it fails or does not answer with JSON.
 */
export async function compileStandardJson(
  compiler: LocalCompiler,
  input: object,
  options: CompileOptions = {},
): Promise<Record<string, unknown>> {
  if (options.signal?.aborted) throw abortError(options.signal);
  const stdin = JSON.stringify(options.addSourceOutputs ? withSourceOutputs(input) : input);
  const emptyDir = await fs.promises.mkdtemp(path.join(os.tmpdir(), 'hedera-explorer-solc-'));
  try {
    if (options.signal?.aborted) throw abortError(options.signal);
    const env = { ...process.env };
    delete env.NODE_OPTIONS; // the child is plain Node: no debugger bootloader or loaders of the extension host's
    const r =
      compiler.kind === 'native'
        ? await runChild(compiler.path, nativeArgs(compiler.version, emptyDir), env, emptyDir, stdin, options)
        : await runChild(
            process.execPath,
            ['-e', SOLJSON_RUNNER],
            { ...env, ELECTRON_RUN_AS_NODE: '1', HEDERA_EXPLORER_SOLJSON: compiler.path },
            emptyDir,
            stdin,
            options,
          );
    const name = `solc ${compiler.longVersion ?? compiler.version} (${compiler.path})`;
    const stderr = firstLines(r.stderr);
    if (r.code !== 0)
      throw new Error(
        `${name} failed (${r.signal ? `signal ${r.signal}` : `exit code ${r.code}`})${stderr ? `:\n${stderr}` : '.'}`,
      );
    let output: unknown;
    try {
      output = JSON.parse(r.stdout.toString('utf8'));
    } catch {
      output = undefined;
    }
    if (!obj(output)) {
      const said = stderr || firstLines(r.stdout.subarray(0, 500).toString('utf8'), 3);
      throw new Error(`${name} did not answer with a JSON object${said ? `:\n${said}` : '.'}`);
    }
    return output as Record<string, unknown>;
  } finally {
    await fs.promises.rm(emptyDir, { recursive: true, force: true }).catch(() => undefined);
  }
}

/** JSON with every object's keys sorted: the same input gives the same text whatever the key order. */
function canonicalJson(v: unknown): string {
  if (Array.isArray(v)) return `[${v.map((x) => (x === undefined ? 'null' : canonicalJson(x))).join(',')}]`;
  const o = obj(v);
  if (o)
    return `{${Object.keys(o)
      .sort()
      .filter((k) => o[k] !== undefined)
      .map((k) => `${JSON.stringify(k)}:${canonicalJson(o[k])}`)
      .join(',')}}`;
  return JSON.stringify(v) ?? 'null';
}

/**
 * Compiler outputs on disk, one file `<key>.json` per output in a folder the caller gives. A file that cannot be
 * read or parsed is a miss; writes go to a temporary file renamed into place, so a reader never sees half a file.
 */
export class CompileCache {
  constructor(readonly dir: string) {}

  /**
   * The key of compiling `input` with the compiler of this full version (`0.8.28+commit.7893614a`): sha256 of the
   * version and the input's canonical JSON. Pass the same `addSourceOutputs` as to compileStandardJson.
   */
  static key(compilerVersion: string, input: object, options: { addSourceOutputs?: boolean } = {}): string {
    const compiled = options.addSourceOutputs ? withSourceOutputs(input) : input;
    return createHash('sha256').update(compilerVersion).update('\n').update(canonicalJson(compiled)).digest('hex');
  }

  private file(key: string): string | undefined {
    return /^[0-9a-f]{64}$/.test(key) ? path.join(this.dir, `${key}.json`) : undefined;
  }

  /** The output stored under `key`, or undefined (none, unreadable, corrupt). Never throws. */
  async get(key: string): Promise<Record<string, unknown> | undefined> {
    const file = this.file(key);
    return file ? obj(await readJsonFile(file)) : undefined;
  }

  /** Stores `output` under `key`; false when it could not be written (never throws). */
  async put(key: string, output: object): Promise<boolean> {
    const file = this.file(key);
    if (!file) return false;
    const tmp = `${file}.${process.pid}.${randomBytes(6).toString('hex')}.tmp`;
    try {
      await fs.promises.mkdir(this.dir, { recursive: true });
      await fs.promises.writeFile(tmp, JSON.stringify(output));
      await fs.promises.rename(tmp, file);
      return true;
    } catch {
      await fs.promises.rm(tmp, { force: true }).catch(() => undefined);
      return false;
    }
  }
}

/** What `produceOutput` gives: the output, or why there is none. */
export type Produced =
  | { output: Record<string, unknown>; compiler?: LocalCompiler; cached: boolean }
  | { missing: 'compiler' }
  | { errors: string[]; compiler: LocalCompiler };

/**
 * The output of a build the workspace holds the input of only: from the cache, else compiled with a compiler of
 * exactly `version` the machine has (findCompiler over `workspaceRoots`), then cached. `run` wraps the compile (the
 * extension shows progress and Cancel there). Compile errors (severity `error`) give `errors`, not an output.
 * Rejects only as compileStandardJson does (AbortError, a compiler that fails to run).
 */
export async function produceOutput(
  version: string,
  input: object,
  options: {
    workspaceRoots: string[];
    cache?: CompileCache;
    signal?: AbortSignal;
    run?: (
      compiler: LocalCompiler,
      compile: (signal?: AbortSignal) => Promise<Record<string, unknown>>,
    ) => PromiseLike<Record<string, unknown>>;
  },
): Promise<Produced> {
  const key = CompileCache.key(version, input, { addSourceOutputs: true });
  const cached = options.cache ? await options.cache.get(key) : undefined;
  if (cached) return { output: cached, cached: true };
  const compiler = await findCompiler(version, { workspaceRoots: options.workspaceRoots });
  if (!compiler) return { missing: 'compiler' };
  const compile = (signal?: AbortSignal) =>
    compileStandardJson(compiler, input, { signal: signal ?? options.signal, addSourceOutputs: true });
  const output = options.run ? await options.run(compiler, compile) : await compile();
  const errors = (Array.isArray(output.errors) ? output.errors : [])
    .map((e) => obj(e) ?? {})
    .filter((e) => e.severity === 'error')
    .map((e) =>
      typeof e.formattedMessage === 'string' ? e.formattedMessage : typeof e.message === 'string' ? e.message : 'error',
    );
  if (errors.length) return { errors, compiler };
  await options.cache?.put(key, output);
  return { output, compiler, cached: false };
}
