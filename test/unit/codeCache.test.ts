/**
 * Loading a CommonJS bundle with a V8 code cache (src/core/codeCache.ts), as the loader loads dist/main.js: the
 * first start writes the cache, the next one is compiled from it, another build or a damaged file is never
 * trusted, and the module behaves as `require` would make it (one instance, its wrapper arguments, its errors,
 * its line numbers).
 */
import * as assert from 'assert';
import * as fs from 'fs';
import * as os from 'os';
import * as path from 'path';
import { cacheData, cacheFileBytes, codeCacheName, requireWithCodeCache } from '../../src/core/codeCache';

interface Bundle {
  starts: number;
  self: unknown;
  filename: string;
  dirname: string;
  lazy(): { main: unknown };
  fail(): never;
  sum(n: number): number;
}

/** A bundle shaped like dist/main.js: module state, a lazily required part that requires the bundle back. */
const BUNDLE = `"use strict";
globalThis.__codeCacheStarts = (globalThis.__codeCacheStarts || 0) + 1;
exports.starts = globalThis.__codeCacheStarts;
exports.self = module.exports;
exports.filename = __filename;
exports.dirname = __dirname;
exports.lazy = () => require("./lazy.js");
exports.fail = function fail() { throw new Error("failed here"); };
exports.sum = (n) => { let s = 0; for (let i = 1; i <= n; i++) s += i; return s; };
`;
const LAZY = 'exports.main = require("./main.js");\n';

describe('code cache: the bundle compiled from a V8 code cache', function () {
  this.timeout(10000);
  let dir: string;
  let file: string;
  let cacheDir: string;
  let starts = 0;
  /**
   * A new start of the bundle, as in a new extension host: a copy in a folder of its own (V8 keeps what it
   * compiled in this process by source and file name, and would otherwise not even read the cache file), with
   * `source` as its text.
   */
  const restart = (source = fs.readFileSync(file, 'utf8')) => {
    const folder = path.join(dir, `start${++starts}`);
    fs.mkdirSync(folder);
    file = path.join(folder, 'main.js');
    fs.writeFileSync(file, source);
    fs.writeFileSync(path.join(folder, 'lazy.js'), LAZY);
  };
  const caches = () => (fs.existsSync(cacheDir) ? fs.readdirSync(cacheDir).sort() : []);

  beforeEach(() => {
    dir = fs.mkdtempSync(path.join(os.tmpdir(), 'hx-codecache-'));
    cacheDir = path.join(dir, 'storage', 'code-cache');
    file = path.join(dir, 'none.js');
    restart(BUNDLE);
  });
  afterEach(() => {
    for (const k of Object.keys(require.cache)) if (k.startsWith(dir)) delete require.cache[k];
    fs.rmSync(dir, { recursive: true, force: true });
  });

  it('the first start compiles without a cache and writes one; the next start is compiled from it', async () => {
    const first = requireWithCodeCache<Bundle>(file, cacheDir);
    assert.strictEqual(first.state, 'none');
    assert.strictEqual(first.exports.sum(10), 55);
    assert.deepStrictEqual(caches(), [], 'nothing is written during the start');
    const written = await first.save!();
    assert.strictEqual(written, path.join(cacheDir, codeCacheName(BUNDLE)));
    assert.deepStrictEqual(caches(), [codeCacheName(BUNDLE)]);
    assert.ok(fs.statSync(written).size > 100);

    restart();
    const second = requireWithCodeCache<Bundle>(file, cacheDir);
    assert.strictEqual(second.state, 'accepted');
    assert.notStrictEqual(second.exports, first.exports, 'a new start runs the module code again');
    assert.strictEqual(second.exports.starts, first.exports.starts + 1);
    assert.strictEqual(second.exports.sum(100), 5050);
    assert.strictEqual(second.save, undefined, 'an accepted cache is not written again');
  });

  it('is the module require would give: one instance for the bundle and what it requires, its wrapper arguments', () => {
    const loaded = requireWithCodeCache<Bundle>(file, cacheDir);
    assert.strictEqual(loaded.exports.self, loaded.exports);
    assert.strictEqual(loaded.exports.filename, file);
    assert.strictEqual(loaded.exports.dirname, path.dirname(file));
    assert.strictEqual(loaded.exports.lazy().main, loaded.exports, 'the lazy part gets this instance of the bundle');
    assert.strictEqual(require.cache[file]?.exports, loaded.exports);
    assert.strictEqual(require.cache[file]?.loaded, true);
    // loaded already: a plain require, no second instance
    const again = requireWithCodeCache<Bundle>(file, cacheDir);
    assert.strictEqual(again.state, 'off');
    assert.strictEqual(again.exports, loaded.exports);
  });

  it('stack traces keep the bundle\'s own lines and columns', () => {
    const loaded = requireWithCodeCache<Bundle>(file, cacheDir);
    const stack = (() => { try { loaded.exports.fail(); } catch (e) { return String((e as Error).stack); } return ''; })();
    const line = BUNDLE.split('\n').findIndex((l) => l.includes('throw new Error')) + 1;
    const column = BUNDLE.split('\n')[line - 1].indexOf('throw new Error') + 'throw '.length + 1;
    assert.ok(stack.includes(`${file}:${line}:${column}`), stack);
  });

  it('another build of the bundle gets a cache of its own; the old one is removed when the new one is written', async () => {
    await requireWithCodeCache<Bundle>(file, cacheDir).save!();
    const changed = BUNDLE.replace('s += i', 's += 2 * i');
    restart(changed);
    const other = requireWithCodeCache<Bundle>(file, cacheDir);
    assert.strictEqual(other.state, 'none', 'the first build\'s cache is not read for the second');
    assert.strictEqual(other.exports.sum(10), 110);
    await other.save!();
    assert.deepStrictEqual(caches(), [codeCacheName(changed)]);
    assert.notStrictEqual(codeCacheName(changed), codeCacheName(BUNDLE));
    assert.notStrictEqual(codeCacheName(BUNDLE, '12.4.254.21'), codeCacheName(BUNDLE, '13.6.233.10'), 'another V8');
    assert.notStrictEqual(codeCacheName(BUNDLE, '13.6.233.10', 'x64'), codeCacheName(BUNDLE, '13.6.233.10', 'arm64'));
  });

  it('a damaged or foreign cache file is rejected by V8: the bundle compiles without it, and a good cache replaces it', async () => {
    fs.mkdirSync(cacheDir, { recursive: true });
    const name = path.join(cacheDir, codeCacheName(BUNDLE));
    fs.writeFileSync(name, Buffer.alloc(4096, 0x5a));
    const damaged = requireWithCodeCache<Bundle>(file, cacheDir);
    assert.strictEqual(damaged.state, 'rejected');
    assert.strictEqual(damaged.exports.sum(4), 10);
    await damaged.save!();
    restart();
    assert.strictEqual(requireWithCodeCache<Bundle>(file, cacheDir).state, 'accepted');

    // the cache of another script under this bundle's name
    const foreign = path.join(dir, 'other.js');
    fs.writeFileSync(foreign, 'exports.x = 1;\n');
    const otherCache = await requireWithCodeCache<{ x: number }>(foreign, path.join(dir, 'other-cache')).save!();
    assert.ok(otherCache);
    restart();
    fs.copyFileSync(otherCache, name);
    const wrong = requireWithCodeCache<Bundle>(file, cacheDir);
    assert.strictEqual(wrong.state, 'rejected');
    assert.strictEqual(wrong.exports.sum(3), 6);
  });

  it('a cache damaged after its header is never handed to V8 (V8 would crash the process on it): the bundle compiles without it', async () => {
    const first = requireWithCodeCache<Bundle>(file, cacheDir);
    const written = await first.save!();
    assert.ok(written);
    const whole = fs.readFileSync(written);
    // what a write cut short by a power loss leaves: the header intact, the rest zeros; and one flipped byte
    const zeroed = Buffer.from(whole);
    zeroed.fill(0, Math.floor(whole.length / 2));
    const flipped = Buffer.from(whole);
    flipped[whole.length - 100] ^= 0xff;
    for (const damaged of [zeroed, flipped, whole.subarray(0, whole.length - 1)]) {
      restart();
      fs.writeFileSync(written, damaged);
      const loaded = requireWithCodeCache<Bundle>(file, cacheDir);
      assert.strictEqual(loaded.state, 'rejected');
      assert.strictEqual(loaded.exports.sum(5), 15);
    }
    // and the next write makes it whole again
    restart();
    await requireWithCodeCache<Bundle>(file, cacheDir).save!();
    restart();
    assert.strictEqual(requireWithCodeCache<Bundle>(file, cacheDir).state, 'accepted');
  });

  it('the cache file format: magic, the SHA-256 of the cache, the cache; the name follows the code compiled', () => {
    const data = Buffer.from('some cache bytes');
    const bytes = cacheFileBytes(data);
    assert.deepStrictEqual(cacheData(bytes), data);
    assert.strictEqual(cacheData(bytes.subarray(0, 20)), undefined);
    assert.strictEqual(cacheData(Buffer.concat([Buffer.from('HXC0'), bytes.subarray(4)])), undefined);
    const changed = Buffer.from(bytes);
    changed[changed.length - 1] ^= 1;
    assert.strictEqual(cacheData(changed), undefined);
    assert.match(codeCacheName(BUNDLE), /^main-[\w.-]+-[a-z0-9]+-[0-9a-f]{32}\.v8cache$/);
    assert.strictEqual(codeCacheName(BUNDLE), codeCacheName(BUNDLE));
  });

  it('an error in the module code is thrown as require throws it, and leaves no half-loaded module behind', () => {
    restart('exports.a = 1;\nthrow new TypeError("broken bundle");\n');
    assert.throws(() => requireWithCodeCache(file, cacheDir), /broken bundle/);
    assert.strictEqual(require.cache[file], undefined);
    restart(BUNDLE);
    assert.strictEqual(requireWithCodeCache<Bundle>(file, cacheDir).exports.sum(2), 3);
  });

  it('without a cache folder it is a plain require; a cache that cannot be written changes nothing but save()', async () => {
    const plain = requireWithCodeCache<Bundle>(file, undefined);
    assert.strictEqual(plain.state, 'off');
    assert.strictEqual(plain.exports.sum(3), 6);
    assert.strictEqual(plain.save, undefined);
    restart();
    // a file where the cache folder should be
    const blocked = path.join(dir, 'blocked');
    fs.writeFileSync(blocked, 'not a folder');
    const loaded = requireWithCodeCache<Bundle>(file, path.join(blocked, 'code-cache'));
    assert.strictEqual(loaded.state, 'none');
    assert.strictEqual(loaded.exports.sum(3), 6);
    await assert.rejects(loaded.save!());
    assert.deepStrictEqual(fs.readdirSync(dir).filter((f) => f.endsWith('.tmp')), []);
  });
});
