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
 * - The cache file is named after the code compiled (the bundle in its wrapper, and this file's format), the V8
 *   version and the architecture: another build or another VS Code never reads it. V8 checks only the header of a
 *   cache (its version, its flags, the length of the source) and trusts the rest: a cache damaged after its header
 *   (a write cut short by a power loss) would crash the extension host in V8's deserializer on every start. So the
 *   file carries a SHA-256 of the cache, checked before V8 sees it, and is flushed to disk before it is renamed
 *   into place. A cache that fails either check is not used: the bundle compiles as without one, and a new cache
 *   replaces it.
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

/**
 * How the bundle was compiled: from an accepted cache, with no cache file yet, with a cache file that was not used
 * (damaged, or V8 rejected it), or with caching off.
 */
export type CodeCacheState = 'accepted' | 'none' | 'rejected' | 'off';

export interface CachedModule<T> {
  readonly exports: T;
  readonly state: CodeCacheState;
  /**
   * Writes the code cache of the bundle as compiled so far (run it after the start, when the functions that
   * start runs are compiled); there only when there is one to write (state 'none' or 'rejected'). Resolves to the
   * file written; rejects with the write's failure. Old cache files of the bundle go.
   */
  readonly save?: () => Promise<string>;
}

const HEAD = '(function (exports, require, module, __filename, __dirname) {\n';
const TAIL = '\n})';
const PREFIX = 'main-';
const SUFFIX = '.v8cache';
/** The file's format: this magic, the SHA-256 of the V8 cache that follows, the V8 cache. */
const MAGIC = Buffer.from('HXC1');
const DIGEST = 32;

const sha256 = (data: string | Uint8Array): Buffer => crypto.createHash('sha256').update(data).digest();

/**
 * The cache file's name for a bundle text: the SHA-256 of the code compiled (the bundle in its wrapper, with the
 * file format), the V8 version and the architecture.
 */
export function codeCacheName(source: string, v8 = process.versions.v8, arch = process.arch): string {
  const hash = sha256(`${MAGIC.toString()}\0${HEAD}${source}${TAIL}`).toString('hex').slice(0, 32);
  return `${PREFIX}${v8.replace(/[^\w.-]/g, '_')}-${arch}-${hash}${SUFFIX}`;
}

/** The V8 cache in a cache file, or undefined when the file is not whole (its magic or its digest does not match). */
export function cacheData(file: Buffer): Buffer | undefined {
  if (file.length <= MAGIC.length + DIGEST || !file.subarray(0, MAGIC.length).equals(MAGIC)) return undefined;
  const data = file.subarray(MAGIC.length + DIGEST);
  return sha256(data).equals(file.subarray(MAGIC.length, MAGIC.length + DIGEST)) ? data : undefined;
}

/** A cache file's bytes for a V8 cache. */
export function cacheFileBytes(data: Uint8Array): Buffer {
  return Buffer.concat([MAGIC, sha256(data), data]);
}

/**
 * Requires `file` (a CommonJS bundle) as Node would, compiled with the code cache kept in `cacheDir`; without a
 * `cacheDir`, or when the module is loaded already, it is a plain `require`.
 */
export function requireWithCodeCache<T>(file: string, cacheDir: string | undefined): CachedModule<T> {
  // eslint-disable-next-line @typescript-eslint/no-require-imports -- the bundle named by the caller, loaded as Node would
  const plain = (): CachedModule<T> => ({ exports: require(file) as T, state: 'off' });
  if (!cacheDir || require.cache[file]) return plain();
  let source: string;
  try {
    source = fs.readFileSync(file, 'utf8');
  } catch {
    return plain(); // require says why
  }
  const cacheFile = path.join(cacheDir, codeCacheName(source));
  let stored: Buffer | undefined;
  try {
    stored = fs.readFileSync(cacheFile);
  } catch {
    stored = undefined; // none yet (or unreadable): compiled without
  }
  const cachedData = stored && cacheData(stored);
  const script = new vm.Script(HEAD + source + TAIL, { filename: file, lineOffset: -1, cachedData });
  const state: CodeCacheState = stored === undefined ? 'none' : cachedData === undefined || script.cachedDataRejected ? 'rejected' : 'accepted';
  const mod = new Module(file, module);
  mod.filename = file;
  mod.paths = (Module as unknown as { _nodeModulePaths?: (dir: string) => string[] })._nodeModulePaths?.(path.dirname(file)) ?? [];
  require.cache[file] = mod;
  try {
    const wrapper = script.runInThisContext() as (exports: unknown, require: NodeJS.Require, module: Module, filename: string, dirname: string) => void;
    wrapper.call(mod.exports, mod.exports, Module.createRequire(file), mod, file, path.dirname(file));
  } catch (e) {
    // as Node's loader does for a module that throws: forgotten, so that a later require tries again
    delete require.cache[file];
    const siblings = module.children;
    if (siblings.includes(mod)) siblings.splice(siblings.indexOf(mod), 1);
    throw e;
  }
  mod.loaded = true;
  return {
    exports: mod.exports as T,
    state,
    save: state === 'accepted' ? undefined : async () => {
      const bytes = cacheFileBytes(script.createCachedData());
      await fs.promises.mkdir(cacheDir, { recursive: true });
      // written whole under another name, flushed to disk, then renamed: a start (in another window, or after a
      // power loss) never reads half a file; the digest catches what gets through anyway
      const tmp = `${cacheFile}.${process.pid}.${crypto.randomBytes(4).toString('hex')}.tmp`;
      try {
        const handle = await fs.promises.open(tmp, 'w');
        try {
          await handle.writeFile(bytes);
          await handle.sync();
        } finally {
          await handle.close();
        }
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
