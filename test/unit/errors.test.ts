import * as assert from 'assert';
import * as fs from 'fs';
import * as path from 'path';
import { ApiError, httpErrorSentence, isApiError, parseRetryAfter, redactUrl, serverMessagesOf, textFromNonJson, transportSentence } from '../../src/api/errors';

const fixture = (p: string) => JSON.parse(fs.readFileSync(path.join(__dirname, '../../../test/fixtures', p), 'utf8'));

describe('errors: the server\'s messages and sentences', () => {
  it('reads several mirror _status messages, with detail', () => {
    const body = { _status: { messages: [{ message: 'Invalid parameter: limit' }, { message: 'Unknown query parameter: x', detail: 'not allowed' }] } };
    assert.deepStrictEqual(serverMessagesOf(body), ['Invalid parameter: limit', 'Unknown query parameter: x (not allowed)']);
  });

  it('reads every Sourcify error form from the real catalogue', () => {
    const cat = fixture('sourcify/session-verify-etherscan-errors.derived.json') as { cases: Array<{ http: number; body?: unknown; body_text?: string }> };
    for (const c of cat.cases) {
      const msgs = serverMessagesOf(c.body, c.body_text);
      assert.ok(msgs.length >= 1, `messages for ${JSON.stringify(c)}`);
      assert.ok(!msgs.includes('...'), 'placeholder items are not messages');
    }
    const missing = cat.cases[0].body;
    assert.deepStrictEqual(serverMessagesOf(missing), ["request/body must have required property 'address'", "/body/address: must have required property 'address'"]);
    const notVerified = cat.cases.find((c) => c.http === 404)!.body;
    assert.deepStrictEqual(serverMessagesOf(notVerified), ['This contract is not verified on Etherscan.']);
  });

  it('turns an HTML error page into its title, as text', () => {
    const html = '<html><head><title>502 Bad Gateway</title></head><body><center><h1>502 Bad Gateway</h1></center><hr><center>nginx</center></body></html>';
    assert.deepStrictEqual(serverMessagesOf(undefined, html), ['502 Bad Gateway']);
    assert.strictEqual(textFromNonJson('<b>x</b> &lt;script&gt;'), 'x <script>');
  });

  it('hides credentials and secret query values in URLs', () => {
    assert.strictEqual(redactUrl('https://user:pw@api.example.com/v2/api?module=contract&apikey=SECRET123&chainid=296'), 'https://api.example.com/v2/api?module=contract&apikey=[hidden]&chainid=296');
    assert.strictEqual(redactUrl('http://127.0.0.1:5599/api/v1/schedules?limit=2'), 'http://127.0.0.1:5599/api/v1/schedules?limit=2');
  });

  it('parses Retry-After in seconds and as an HTTP date', () => {
    assert.strictEqual(parseRetryAfter('2'), 2000);
    assert.strictEqual(parseRetryAfter(new Date(10_000 + 30_000).toUTCString(), 10_000), 30_000);
    assert.strictEqual(parseRetryAfter('soon'), undefined);
    assert.strictEqual(parseRetryAfter(undefined), undefined);
  });

  it('gives each failure its own sentence', () => {
    const url = 'https://testnet.mirrornode.hedera.com/api/v1/schedules';
    const sentences = (['timeout', 'offline', 'dns', 'refused', 'reset', 'tls', 'cancelled', 'tooLarge', 'malformed'] as const).map((k) => transportSentence(k, url, undefined, 15000));
    assert.strictEqual(new Set(sentences).size, sentences.length);
    assert.match(sentences[0], /15 s/);
    assert.match(sentences[2], /testnet\.mirrornode\.hedera\.com.*DNS/);
    assert.match(httpErrorSentence(429, url, ['Too many requests'], 3000), /Try again in 3 s/);
    assert.match(httpErrorSentence(400, url, ['Invalid parameter: limit']), /rejected the request \(HTTP 400 Bad Request\): Invalid parameter: limit\./);
    assert.match(httpErrorSentence(503, url, []), /could not answer \(HTTP 503 Service Unavailable\)\. Try again later\./);
  });
});

describe('errors: one ApiError across bundle copies', () => {
  it('an ApiError made by another copy of errors.ts (a lazily loaded chunk) is an ApiError here, and only that', () => {
    // a second, separate copy of the module, as esbuild puts one in dist/verify.js and dist/nft.js
    const esbuild = require('esbuild') as typeof import('esbuild');
    const os = require('os') as typeof import('os');
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'hedera-errors-copy-'));
    try {
      const out = path.join(dir, 'errors-copy.js');
      esbuild.buildSync({ entryPoints: [path.join(__dirname, '../../../src/api/errors.ts')], bundle: true, platform: 'node', format: 'cjs', outfile: out, logLevel: 'silent' });
      const copy = require(out) as typeof import('../../src/api/errors');
      assert.notStrictEqual(copy.ApiError, ApiError, 'really another class');
      const theirs = new copy.ApiError({ kind: 'http', message: 'from the chunk', status: 429 });
      assert.ok(theirs instanceof ApiError);
      assert.ok(isApiError(theirs));
      assert.ok(new ApiError({ kind: 'network', message: 'ours' }) instanceof copy.ApiError);
      assert.strictEqual((theirs as ApiError).status, 429);
      for (const other of [new Error('plain'), { kind: 'http', message: 'look-alike' }, null, undefined, 'ApiError', Object.create(null)]) {
        assert.strictEqual(other instanceof ApiError, false, typeof other);
        assert.strictEqual(isApiError(other), false);
      }
    } finally {
      fs.rmSync(dir, { recursive: true, force: true });
    }
  });
});
