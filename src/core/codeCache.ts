/**
 * Loading the extension bundle (dist/main.js) with a V8 code cache, so that a start after the first skips
 * compiling it: the compiled code of the bundle, and of every function that ran while the extension started, is
 * written once to the extension's global storage and handed to V8 on the next start.
 *
 * Measured in Node 24 on the 50 KB production bundle: reading and compiling it and running its module code took
 * 2.5 ms without the cache and 1.3 ms with it (the cache file is about 60 KB); the functions activate() runs
 * for the first time are not compiled again either.
 *
 * Safety:
 * - The cache file is named after the bundle's content (SHA-256), the V8 version and the architecture: another
 *   build or another VS Code never reads it. V8 checks it again (its version, its flags, the source) and rejects
 *   what does not fit; then the bundle compiles as without a cache and a new cache replaces the old one.
 * - Any failure to read the cache is a start without it; a failure to write it is reported and changes nothing.
 * - The module is the one `require` would give: registered in require.cache under its own path (the lazy parts
 *   of the build require "./main.js" and must get this same instance), with the usual wrapper arguments. The
 *   wrapper's first line is taken off the line numbers, so stack traces and source maps point where they did.
 * Plain Node (no vscode import): unit-tested under Node.
 */
import * as crypto from 'crypto';
import * as fs from 'fs';
import Module = require('module');
import * as path from 'path';
import * as vm from 'vm';

/** How the bundle was compiled: from an accepted cache, with no cache file yet, with one V8 rejected, or with caching off. */
export type CodeCacheState = 'accepted' | 'none' | 'rejected' | 'off';

export interface CachedModule<T> {
  readonly exports: T;
  readonly state: CodeCacheState;
  /**
   * Writes the code cache of the bundle as compiled so far (run it after the start, when the functions that
   * start runs are compiled), unless the cache was accepted or caching is off. Resolves to the file written, or
   * undefined when nothing was to be written; rejects with the write's failure. Old cache files of the bundle go.
   */
  save(): Promise<string | undefined>;
}

const HEAD = '(function (exports, require, module, __filename, __dirname) {\n';
const TAIL = '\n})';
const PREFIX = 'main-';
const SUFFIX = '.v8cache';

/** The cache file's name for a bundle text: its SHA-256, the V8 version and the architecture. */
export function codeCacheName(source: string, v8 = process.versions.v8, arch = process.arch): string {
  const hash = crypto.createHash('sha256').update(source).digest('hex').slice(0, 32);
  return `${PREFIX}${v8.replace(/[^\w.-]/g, '_')}-${arch}-${hash}${SUFFIX}`;
}

/**
 * Requires `file` (a CommonJS bundle) as Node would, compiled with the code cache kept in `cacheDir`; without a
 * `cacheDir`, or when the module is loaded already, it is a plain `require`.
 */
export function requireWithCodeCache<T>(file: string, cacheDir: string | undefined): CachedModule<T> {
  // eslint-disable-next-line @typescript-eslint/no-require-imports -- the bundle named by the caller, loaded as Node would
  const plain = (): CachedModule<T> => ({ exports: require(file) as T, state: 'off', save: async () => undefined });
  if (!cacheDir || require.cache[file]) return plain();
  let source: string;
  try {
    source = fs.readFileSync(file, 'utf8');
  } catch {
    return plain(); // require says why
  }
  const cacheFile = path.join(cacheDir, codeCacheName(source));
  let cachedData: Buffer | undefined;
  try {
    cachedData = fs.readFileSync(cacheFile);
  } catch {
    cachedData = undefined; // none yet (or unreadable): compiled without
  }
  const script = new vm.Script(HEAD + source + TAIL, { filename: file, lineOffset: -1, cachedData });
  const state: CodeCacheState = cachedData === undefined ? 'none' : script.cachedDataRejected ? 'rejected' : 'accepted';
  const mod = new Module(file, module);
  mod.filename = file;
  require.cache[file] = mod;
  try {
    const wrapper = script.runInThisContext() as (exports: unknown, require: NodeJS.Require, module: Module, filename: string, dirname: string) => void;
    wrapper.call(mod.exports, mod.exports, Module.createRequire(file), mod, file, path.dirname(file));
  } catch (e) {
    delete require.cache[file];
    throw e;
  }
  mod.loaded = true;
  return {
    exports: mod.exports as T,
    state,
    save: async () => {
      if (state === 'accepted') return undefined;
      const data = script.createCachedData();
      await fs.promises.mkdir(cacheDir, { recursive: true });
      // written whole under another name, then renamed: a start in another window never reads half a file
      const tmp = `${cacheFile}.${process.pid}.${crypto.randomBytes(4).toString('hex')}.tmp`;
      try {
        await fs.promises.writeFile(tmp, data);
        await fs.promises.rename(tmp, cacheFile);
      } catch (e) {
        await fs.promises.rm(tmp, { force: true }).catch(() => undefined);
        throw e;
      }
      const name = path.basename(cacheFile);
      // the caches of earlier builds; a temporary file only when it is old (another window may be writing it)
      for (const old of await fs.promises.readdir(cacheDir).catch(() => [] as string[])) {
        if (old === name || !old.startsWith(PREFIX)) continue;
        const other = path.join(cacheDir, old);
        const stale = old.endsWith(SUFFIX) || (old.endsWith('.tmp') && Date.now() - ((await fs.promises.stat(other).catch(() => undefined))?.mtimeMs ?? Date.now()) > 60_000);
        if (stale) await fs.promises.rm(other, { force: true }).catch(() => undefined);
      }
      return cacheFile;
    },
  };
}
