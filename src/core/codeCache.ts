/**
 * Loads a CommonJS bundle the way `require` does, but compiled through `vm.Script` with a V8 code cache kept on
 * disk, so that later activations skip most of the parsing and compiling (what VS Code does for its own code).
 * No `vscode` import: the loader (src/loader.ts) passes the cache folder, and this runs under plain Node in tests.
 *
 *  - The cache file is named by the SHA-256 of the bundle's text (computed here, or given by the build, which
 *    knows it: a production build puts it in the loader) and its length: a new build never meets an old cache
 *    (V8 itself checks only the text's length). Its first 32 bytes are the SHA-256 of the rest, checked before V8 sees it, so
 *    a cut or damaged file is dropped, never handed to V8. Files are written to a temporary name, then renamed.
 *  - `saveCache()` writes the cache after the extension has run for a while (the loader calls it later): the data
 *    then also holds the functions compiled since, not only the top level. Other files in the folder go.
 *  - Anything that fails before the bundle's own code runs (reading, hashing, compiling, a cache V8 rejects) falls
 *    back to a plain `require`; an error thrown by the bundle's own code is the bundle's error and is rethrown.
 */
import crypto = require('crypto');
import fs = require('fs');
import Module = require('module');
import path = require('path');
import vm = require('vm');

/** hit: compiled from the cache; miss: no cache yet; rejected: V8 refused it; off: no cache folder; error: fell back to require. */
export type CodeCacheState = 'hit' | 'miss' | 'rejected' | 'off' | 'error';

export interface LoadedModule {
  readonly exports: unknown;
  /** Reading, checking, compiling and running the bundle's module code, in ms. */
  readonly ms: number;
  readonly cache: CodeCacheState;
  /** The folder the cache is kept in (undefined: none). */
  readonly cacheDir: string | undefined;
  /** Why the cache was not used (error text), for the log. */
  readonly reason?: string;
  /**
   * Writes the code cache for the next load, unless this load used it. Resolves to whether a file was written;
   * never rejects (a cache is an optimisation: failures are returned as `reason`).
   */
  saveCache(): Promise<{ written: boolean; reason?: string }>;
}

const HASH_BYTES = 32;
const sha256 = (data: crypto.BinaryLike) => crypto.createHash('sha256').update(data).digest();

/** Reads `<dir>/<key>.bin` and returns the V8 data after checking its own hash; undefined when absent or damaged. */
function readCache(file: string): Buffer | undefined {
  let raw: Buffer;
  try {
    raw = fs.readFileSync(file);
  } catch {
    return undefined;
  }
  if (raw.length <= HASH_BYTES) return undefined;
  const data = raw.subarray(HASH_BYTES);
  return sha256(data).equals(raw.subarray(0, HASH_BYTES)) ? data : undefined;
}

async function writeCache(dir: string, file: string, data: Buffer): Promise<void> {
  await fs.promises.mkdir(dir, { recursive: true });
  const tmp = `${file}.${process.pid}.${Date.now()}.tmp`;
  await fs.promises.writeFile(tmp, Buffer.concat([sha256(data), data]));
  await fs.promises.rename(tmp, file);
  // caches of earlier builds (and temporary files left by a crash) are of no use any more
  for (const name of await fs.promises.readdir(dir)) {
    const other = path.join(dir, name);
    if (other !== file && (name.endsWith('.bin') || name.endsWith('.tmp'))) await fs.promises.rm(other, { force: true });
  }
}

function plainRequire(file: string, started: number, cache: CodeCacheState, reason?: string): LoadedModule {
  const exports: unknown = require(file);
  return { exports, ms: performance.now() - started, cache, cacheDir: undefined, reason, saveCache: async () => ({ written: false, reason: 'loaded without vm.Script' }) };
}

/**
 * Loads `file` (a CommonJS bundle) with the code cache in `cacheDir` (undefined: no cache, plain require).
 * `sourceSha256`: the file's SHA-256 (hex) when the build knows it, which saves hashing it here (about 1 ms).
 * `require` inside the bundle is Node's, made for `file` (relative paths and the host's module hooks, such as
 * VS Code's `vscode` module, see the bundle as `file`).
 */
export function loadWithCodeCache(file: string, cacheDir: string | undefined, sourceSha256?: string): LoadedModule {
  const started = performance.now();
  if (!cacheDir) return plainRequire(file, started, 'off');
  let script: vm.Script;
  let cacheFile: string;
  let state: CodeCacheState;
  try {
    const source = fs.readFileSync(file, 'utf8');
    const key = /^[0-9a-f]{64}$/.test(sourceSha256 ?? '') ? sourceSha256 : sha256(source).toString('hex');
    cacheFile = path.join(cacheDir, `${key}-${source.length}.bin`);
    const cachedData = readCache(cacheFile);
    script = new vm.Script(Module.wrap(source), { filename: file, cachedData });
    state = !cachedData ? 'miss' : script.cachedDataRejected ? 'rejected' : 'hit';
  } catch (e) {
    return plainRequire(file, started, 'error', e instanceof Error ? e.message : String(e));
  }
  const mod = { exports: {} as unknown };
  const req = Module.createRequire(file);
  const wrapper = script.runInThisContext({ displayErrors: true }) as (...args: unknown[]) => void;
  wrapper.call(mod.exports, mod.exports, req, mod, file, path.dirname(file));
  const ms = performance.now() - started;
  const target = cacheFile;
  return {
    exports: mod.exports,
    ms,
    cache: state,
    cacheDir,
    saveCache: async () => {
      if (state === 'hit') return { written: false, reason: 'the cache was used' };
      try {
        await writeCache(cacheDir, target, script.createCachedData());
        return { written: true };
      } catch (e) {
        return { written: false, reason: e instanceof Error ? e.message : String(e) };
      }
    },
  };
}
