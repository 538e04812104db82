import * as assert from 'assert';
import { execFileSync } from 'child_process';
import * as fs from 'fs';
import * as os from 'os';
import * as path from 'path';
import {
  ApiError,
  httpErrorSentence,
  isApiError,
  parseRetryAfter,
  redactUrl,
  serverMessagesOf,
  textFromNonJson,
  transportSentence,
} from '../../src/api/errors';
import { isUnreachable } from '../../src/api/reach';

const fixture = (p: string) => JSON.parse(fs.readFileSync(path.join(__dirname, '../../../test/fixtures', p), 'utf8'));

describe("errors: the server's messages and sentences", () => {
  it('reads several mirror _status messages, with detail', () => {
    const body = {
      _status: {
        messages: [
          { message: 'Invalid parameter: limit' },
          { message: 'Unknown query parameter: x', detail: 'not allowed' },
        ],
      },
    };
    assert.deepStrictEqual(serverMessagesOf(body), [
      'Invalid parameter: limit',
      'Unknown query parameter: x (not allowed)',
    ]);
  });

  it('reads every Sourcify error form from the real catalogue', () => {
    const cat = fixture('sourcify/session-verify-etherscan-errors.derived.json') as {
      cases: Array<{ http: number; body?: unknown; body_text?: string }>;
    };
    for (const c of cat.cases) {
      const msgs = serverMessagesOf(c.body, c.body_text);
      assert.ok(msgs.length >= 1, `messages for ${JSON.stringify(c)}`);
      assert.ok(!msgs.includes('...'), 'placeholder items are not messages');
    }
    const missing = cat.cases[0].body;
    assert.deepStrictEqual(serverMessagesOf(missing), [
      "request/body must have required property 'address'",
      "/body/address: must have required property 'address'",
    ]);
    const notVerified = cat.cases.find((c) => c.http === 404)!.body;
    assert.deepStrictEqual(serverMessagesOf(notVerified), ['This contract is not verified on Etherscan.']);
  });

  it('turns an HTML error page into its title, as text', () => {
    const html =
      '<html><head><title>502 Bad Gateway</title></head><body><center><h1>502 Bad Gateway</h1></center><hr><center>nginx</center></body></html>';
    assert.deepStrictEqual(serverMessagesOf(undefined, html), ['502 Bad Gateway']);
    assert.strictEqual(textFromNonJson('<b>x</b> &lt;script&gt;'), 'x <script>');
  });

  it('hides credentials and secret query values in URLs', () => {
    assert.strictEqual(
      redactUrl('https://user:pw@api.example.com/v2/api?module=contract&apikey=SECRET123&chainid=296'),
      'https://api.example.com/v2/api?module=contract&apikey=[hidden]&chainid=296',
    );
    assert.strictEqual(
      redactUrl('http://127.0.0.1:5599/api/v1/schedules?limit=2'),
      'http://127.0.0.1:5599/api/v1/schedules?limit=2',
    );
  });

  it('parses Retry-After in seconds and as an HTTP date', () => {
    assert.strictEqual(parseRetryAfter('2'), 2000);
    assert.strictEqual(parseRetryAfter(new Date(10_000 + 30_000).toUTCString(), 10_000), 30_000);
    assert.strictEqual(parseRetryAfter('soon'), undefined);
    assert.strictEqual(parseRetryAfter(undefined), undefined);
  });

  it('gives each failure its own sentence', () => {
    const url = 'https://testnet.mirrornode.hedera.com/api/v1/schedules';
    const sentences = (
      ['timeout', 'offline', 'dns', 'refused', 'reset', 'tls', 'cancelled', 'tooLarge', 'malformed'] as const
    ).map((k) => transportSentence(k, url, undefined, 15000));
    assert.strictEqual(new Set(sentences).size, sentences.length);
    assert.match(sentences[0], /15 s/);
    assert.match(sentences[2], /testnet\.mirrornode\.hedera\.com.*DNS/);
    assert.match(httpErrorSentence(429, url, ['Too many requests'], 3000), /Try again in 3 s/);
    assert.match(
      httpErrorSentence(400, url, ['Invalid parameter: limit']),
      /rejected the request \(HTTP 400 Bad Request\): Invalid parameter: limit\./,
    );
    assert.match(
      httpErrorSentence(503, url, []),
      /could not answer \(HTTP 503 Service Unavailable\)\. Try again later\./,
    );
  });
});

describe('errors: sentences say what the user can do', () => {
  it('a transport failure never sends the user to a setting (the URL may be the built-in default)', () => {
    const url = 'https://testnet.mirrornode.hedera.com/api/v1/contracts/results';
    for (const kind of ['offline', 'dns', 'refused', 'tls', 'reset', 'network'] as const) {
      const s = transportSentence(kind, url);
      assert.doesNotMatch(s, /\bURL\b|in the settings/i, `${kind}: ${s}`);
      assert.match(s, /try again|online|connection/i, `${kind} says what to do: ${s}`);
    }
    assert.match(transportSentence('dns', url), /could not be found \(DNS lookup failed\)\. Check your internet/);
  });

  it('isUnreachable: no server answered (offline, DNS, refused, TLS), for the host asked about', () => {
    const e = (kind: ApiError['kind'], u = 'https://testnet.mirrornode.hedera.com/api/v1/x') =>
      new ApiError({ kind, message: kind, url: u });
    for (const k of ['offline', 'dns', 'refused', 'tls', 'network'] as const) assert.ok(isUnreachable(e(k)), k);
    for (const k of ['http', 'timeout', 'reset', 'malformed', 'cancelled', 'tooLarge'] as const)
      assert.ok(!isUnreachable(e(k)), k);
    assert.ok(isUnreachable(e('dns'), 'https://testnet.mirrornode.hedera.com'));
    assert.ok(!isUnreachable(e('dns'), 'https://mainnet-public.mirrornode.hedera.com'), 'another host');
    assert.ok(!isUnreachable(new Error('dns')) && !isUnreachable(undefined) && !isUnreachable('dns'));
  });
});

describe('errors: one ApiError in the extension build', () => {
  it('an ApiError is an ApiError, and nothing else is', () => {
    const ours = new ApiError({ kind: 'http', message: 'from the client', status: 429 });
    assert.ok(ours instanceof ApiError);
    assert.ok(isApiError(ours));
    assert.strictEqual(ours.status, 429);
    for (const other of [
      new Error('plain'),
      { kind: 'http', message: 'look-alike' },
      null,
      undefined,
      'ApiError',
      Object.create(null),
    ]) {
      assert.strictEqual(other instanceof ApiError, false, typeof other);
      assert.strictEqual(isApiError(other), false);
    }
  });

  it('errors.ts (ApiError) and ui/nodes.ts (DetailNode) are each in one file of the production build, shared by the entries that use them', function () {
    // the extension is split into main.js, lazily required entries and shared chunks (esbuild.js): a module in two
    // output files would exist twice at run time, and `instanceof` between the two copies would fail
    this.timeout(120000);
    const root = path.join(__dirname, '../../..');
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'hedera-errors-build-'));
    try {
      // packed (what ships): the activation chunks live inside main.js, which a lazy entry reaches through a one-line
      // stub the metafile does not list; unpacked: the same split with every chunk a file, so the sharing shows
      for (const variant of ['packed', 'unpacked']) {
        const meta = path.join(dir, `${variant}.json`);
        execFileSync(
          process.execPath,
          [
            'esbuild.js',
            '--production',
            ...(variant === 'unpacked' ? ['--unpacked'] : []),
            `--outdir=${path.join(dir, variant)}`,
            `--metafile=${meta}`,
          ],
          { cwd: root, stdio: 'pipe' },
        );
        const outputs = (
          JSON.parse(fs.readFileSync(meta, 'utf8')) as {
            outputs: Record<
              string,
              {
                inputs: Record<string, unknown>;
                imports: { path: string; kind: string; external?: boolean }[];
                entryPoint?: string;
              }
            >;
          }
        ).outputs;
        const statics = (file: string, seen = new Set<string>()): Set<string> => {
          if (!seen.has(file) && outputs[file]) {
            seen.add(file);
            for (const i of outputs[file].imports)
              if (!i.external && i.kind === 'import-statement') statics(i.path, seen);
          }
          return seen;
        };
        const entries = Object.keys(outputs).filter((f) => outputs[f].entryPoint);
        for (const input of ['src/api/errors.ts', 'src/ui/nodes.ts']) {
          const holders = Object.keys(outputs).filter((f) => !f.endsWith('.map') && input in outputs[f].inputs);
          assert.strictEqual(holders.length, 1, `${variant}: ${input} is in ${holders.join(', ')}`);
          const users = entries.filter((e) => statics(e).has(holders[0]));
          if (variant === 'unpacked') assert.ok(users.length > 1, `${input} is used by ${users.join(', ')} only`);
        }
      }
    } finally {
      fs.rmSync(dir, { recursive: true, force: true });
    }
  });
});
