import * as assert from 'assert';
import * as fs from 'fs';
import * as os from 'os';
import * as path from 'path';
import { loadWithCodeCache } from '../../src/core/codeCache';

/** A CommonJS "bundle" on disk: uses require (relative and built-in), module.exports, __filename and __dirname. */
function writeBundle(dir: string, name: string, body = ''): string {
  const file = path.join(dir, name);
  fs.writeFileSync(path.join(dir, 'helper.js'), 'module.exports = { twice: (n) => n * 2 };\n');
  fs.writeFileSync(file, `"use strict";
const helper = require('./helper.js');
const p = require('path');
let calls = 0;
module.exports = { answer: helper.twice(21), file: __filename, dir: __dirname, base: p.basename(__filename), count: () => ++calls };
${body}
`);
  return file;
}

const binFiles = (dir: string) => (fs.existsSync(dir) ? fs.readdirSync(dir).filter((f) => f.endsWith('.bin')) : []);

describe('code cache loader (src/core/codeCache.ts)', () => {
  let dir: string;
  let cacheDir: string;
  beforeEach(() => {
    dir = fs.mkdtempSync(path.join(os.tmpdir(), 'hedera-codecache-'));
    cacheDir = path.join(dir, 'storage', 'code-cache');
  });
  afterEach(() => fs.rmSync(dir, { recursive: true, force: true }));

  it('loads like require: exports, relative and built-in requires, __filename and __dirname', () => {
    const file = writeBundle(dir, 'main.js');
    const loaded = loadWithCodeCache(file, cacheDir);
    const m = loaded.exports as { answer: number; file: string; dir: string; base: string; count(): number };
    assert.strictEqual(m.answer, 42);
    assert.strictEqual(m.file, file);
    assert.strictEqual(m.dir, dir);
    assert.strictEqual(m.base, 'main.js');
    assert.strictEqual(m.count(), 1);
    assert.strictEqual(loaded.cache, 'miss');
    assert.ok(loaded.ms >= 0);
  });

  it('writes the cache when asked, uses it on the next load, and does not write it again', async () => {
    const file = writeBundle(dir, 'main.js');
    const first = loadWithCodeCache(file, cacheDir);
    (first.exports as { count(): number }).count(); // compiled lazily: now in the cache too
    assert.deepStrictEqual(await first.saveCache(), { written: true });
    assert.strictEqual(binFiles(cacheDir).length, 1);
    const second = loadWithCodeCache(file, cacheDir);
    assert.strictEqual(second.cache, 'hit');
    assert.strictEqual((second.exports as { answer: number }).answer, 42);
    assert.strictEqual((await second.saveCache()).written, false);
  });

  it('a changed bundle of the same length never meets the old cache; the old file goes when the new one is written', async () => {
    const file = writeBundle(dir, 'main.js', 'module.exports.tag = "aaaa";');
    await loadWithCodeCache(file, cacheDir).saveCache();
    const old = binFiles(cacheDir);
    writeBundle(dir, 'main.js', 'module.exports.tag = "bbbb";'); // same length: V8's own check would let it pass
    const next = loadWithCodeCache(file, cacheDir);
    assert.strictEqual(next.cache, 'miss');
    assert.strictEqual((next.exports as { tag: string }).tag, 'bbbb');
    await next.saveCache();
    const now = binFiles(cacheDir);
    assert.strictEqual(now.length, 1);
    assert.notDeepStrictEqual(now, old);
  });

  it('a damaged or cut cache file is not handed to V8: loads without it, then replaces it', async () => {
    const file = writeBundle(dir, 'main.js');
    await loadWithCodeCache(file, cacheDir).saveCache();
    const bin = path.join(cacheDir, binFiles(cacheDir)[0]);
    const good = fs.readFileSync(bin);
    const flipped = Buffer.from(good);
    flipped[flipped.length - 10] ^= 0xff;
    fs.writeFileSync(bin, flipped);
    const a = loadWithCodeCache(file, cacheDir);
    assert.strictEqual(a.cache, 'miss');
    assert.strictEqual((a.exports as { answer: number }).answer, 42);
    fs.writeFileSync(bin, good.subarray(0, 20)); // shorter than its own hash
    assert.strictEqual(loadWithCodeCache(file, cacheDir).cache, 'miss');
    fs.writeFileSync(bin, good.subarray(0, good.length >> 1));
    const b = loadWithCodeCache(file, cacheDir);
    assert.strictEqual(b.cache, 'miss');
    assert.strictEqual((await b.saveCache()).written, true);
    assert.strictEqual(loadWithCodeCache(file, cacheDir).cache, 'hit');
  });

  it('data V8 refuses (right hash, wrong content) is reported as rejected and the bundle still loads', () => {
    const file = writeBundle(dir, 'main.js');
    const source = fs.readFileSync(file, 'utf8');
    const crypto = require('crypto') as typeof import('crypto');
    const key = `${crypto.createHash('sha256').update(source).digest('hex')}-${source.length}`;
    const junk = Buffer.from('not V8 code cache data at all, but with a valid hash in front');
    fs.mkdirSync(cacheDir, { recursive: true });
    fs.writeFileSync(path.join(cacheDir, `${key}.bin`), Buffer.concat([crypto.createHash('sha256').update(junk).digest(), junk]));
    const loaded = loadWithCodeCache(file, cacheDir);
    assert.strictEqual(loaded.cache, 'rejected');
    assert.strictEqual((loaded.exports as { answer: number }).answer, 42);
  });

  it("the build's SHA-256 of the bundle names the cache (no hashing at load); a malformed one is ignored", async () => {
    const file = writeBundle(dir, 'main.js');
    const crypto = require('crypto') as typeof import('crypto');
    const real = crypto.createHash('sha256').update(fs.readFileSync(file, 'utf8')).digest('hex');
    const given = 'ab'.repeat(32);
    await loadWithCodeCache(file, cacheDir, given).saveCache();
    assert.deepStrictEqual(binFiles(cacheDir), [`${given}-${fs.readFileSync(file, 'utf8').length}.bin`]);
    assert.strictEqual(loadWithCodeCache(file, cacheDir, given).cache, 'hit');
    const other = loadWithCodeCache(file, cacheDir, 'not a hash');
    assert.strictEqual(other.cache, 'miss', 'hashed here: another name');
    await other.saveCache();
    assert.ok(binFiles(cacheDir)[0].startsWith(real), binFiles(cacheDir)[0]);
  });

  it('no cache folder: a plain require; saving does nothing', async () => {
    const file = writeBundle(dir, 'plain.js');
    const loaded = loadWithCodeCache(file, undefined);
    assert.strictEqual(loaded.cache, 'off');
    assert.strictEqual((loaded.exports as { answer: number }).answer, 42);
    assert.strictEqual((await loaded.saveCache()).written, false);
  });

  it('a bundle that does not compile falls back to require, which reports the syntax error', () => {
    const file = path.join(dir, 'broken.js');
    fs.writeFileSync(file, 'module.exports = {;\n');
    assert.throws(() => loadWithCodeCache(file, cacheDir), SyntaxError);
  });

  it("an error thrown by the bundle's own code is the bundle's error", () => {
    const file = path.join(dir, 'throws.js');
    fs.writeFileSync(file, 'throw new RangeError("from the bundle");\n');
    assert.throws(() => loadWithCodeCache(file, cacheDir), /from the bundle/);
  });

  it('a cache folder that cannot be written: saveCache reports why and never rejects', async () => {
    const file = writeBundle(dir, 'main.js');
    fs.writeFileSync(path.join(dir, 'storage'), 'a file where the folder should be');
    const loaded = loadWithCodeCache(file, cacheDir);
    const r = await loaded.saveCache();
    assert.strictEqual(r.written, false);
    assert.ok(r.reason && r.reason.length > 0);
  });
});
