// Untrusted text on its way to the screen (src/api/text.ts): one function, `inert`, per kind of surface.
// Markdown is rendered as VS Code renders tooltips (marked, GitHub-flavoured, automatic links) to check what a
// user sees: no link, image or markup from the data, and the text exactly as the server sent it.
import * as assert from 'assert';
import { formatValue } from '../../src/api/format';
import { formatInt, intToString, parseJson } from '../../src/api/json';
import { inert, mdCodeBlock, mdEscape, notificationSafe, oneLine, visibleChars } from '../../src/api/text';
import { renderMarkdown } from './markdown';

/** VS Code's notification link syntax (vs/base/common/linkedText.ts): what turns `[a](command:x)` into a live link. */
const NOTIFICATION_LINK = /\[([^\]]+)\]\(((?:https?:\/\/|command:|file:)[^)\s]+)(?: (["'])(.+?)(\3))?\)/gi;

const HOSTILE = [
  '[Open a terminal](command:workbench.action.terminal.new)',
  '[docs](https://evil.example/x "title") and <https://evil.example/y>',
  'http://127.0.0.1/__beacon?x=1&y=_z_ and www.evil.example and admin@evil.example',
  '<img src=x onerror=alert(1)> <script>alert(1)</script> <b>bold</b>',
  '$(zap) $(sync~spin) **strong** _em_ `code` ~~gone~~ \\*not\\*',
  '# Heading\n- item\n1. one\n> quote\n    indented code\n---\n| a | b |\n|---|---|',
  '![img](http://x/y.png) [ref]: http://x [ref]',
  '&amp; &#42; &lt;tag&gt; \\ backslash',
];

describe('untrusted text: inert()', () => {
  it('markdown: no link, image, HTML or markup from the data, and it reads exactly as it was sent', () => {
    for (const raw of HOSTILE) {
      const r = renderMarkdown(mdEscape(raw));
      assert.deepStrictEqual(r.links, [], `a link in ${JSON.stringify(raw)}: ${r.html}`);
      assert.deepStrictEqual(
        r.tags.filter((t) => t !== 'p' && t !== 'br'),
        [],
        `markup in ${JSON.stringify(raw)}: ${r.html}`,
      );
      const expected = raw
        .replace(/[ \t]+/g, ' ')
        .replace(/ ?\n ?/g, '\n')
        .trim();
      assert.strictEqual(r.text.replace(/ ?\n ?/g, '\n'), expected, r.html);
    }
  });

  it('markdown: a server URL shows without backslashes and is not a link (automatic links included)', () => {
    const r = renderMarkdown(`Status page: ${mdEscape('http://127.0.0.1/__beacon')}`);
    assert.strictEqual(r.text, 'Status page: http://127.0.0.1/__beacon');
    assert.deepStrictEqual(r.links, []);
  });

  it('markdown: line breaks of the text stay line breaks', () => {
    const r = renderMarkdown(mdEscape('first line\nsecond line'));
    assert.strictEqual(r.text, 'first line\nsecond line');
  });

  it('notification: no live link and no icon, whatever the brackets', () => {
    for (const raw of HOSTILE) {
      const shown = notificationSafe(raw);
      NOTIFICATION_LINK.lastIndex = 0;
      assert.ok(!NOTIFICATION_LINK.test(shown), `a live link in ${shown}`);
      assert.ok(!/\$\([a-z]/i.test(shown), `an icon in ${shown}`);
      assert.ok(!shown.includes('\n'), 'one line');
    }
    assert.strictEqual(
      notificationSafe('Sourcify: [Open a terminal](command:workbench.action.terminal.new)'),
      'Sourcify: [Open a terminal] (command:workbench.action.terminal.new)',
    );
  });

  it('shows bidirectional, invisible and control characters as escapes on every surface', () => {
    const spoof = 'Other\u202elos.exe\u202c';
    assert.strictEqual(oneLine(spoof), 'Other<U+202E>los.exe<U+202C>');
    assert.strictEqual(renderMarkdown(mdEscape(spoof)).text, 'Other<U+202E>los.exe<U+202C>');
    assert.strictEqual(notificationSafe(spoof), 'Other<U+202E>los.exe<U+202C>');
    assert.strictEqual(inert(spoof, 'text'), 'Other<U+202E>los.exe<U+202C>');
    const cases: Array<[string, string]> = [
      ['zero\u200bwidth\u200c\u200d\ufeff', 'zero<U+200B>width<U+200C><U+200D><U+FEFF>'],
      ['isolate \u2066x\u2069 mark\u200f \u061c', 'isolate <U+2066>x<U+2069> mark<U+200F> <U+061C>'],
      ['bell\u0007 esc\u001b del\u007f c1\u0085x\u009b', 'bell<U+0007> esc<U+001B> del<U+007F> c1 x<U+009B>'],
      ['soft\u00adhyphen word\u2060joiner', 'soft<U+00AD>hyphen word<U+2060>joiner'],
      ['lone \ud800 surrogate \udfff', 'lone <U+D800> surrogate <U+DFFF>'],
      ['line\u2028sep', 'line<U+2028>sep'],
      ['tag \u{e0001}\u{e0041}', 'tag <U+E0001><U+E0041>'],
    ];
    for (const [raw, want] of cases) assert.strictEqual(oneLine(raw), want, JSON.stringify(raw));
  });

  it('keeps emoji whole: joiners inside emoji sequences, variation selectors, flag tags', () => {
    for (const ok of [
      '👩‍💻 dev',
      '👨‍👩‍👧',
      '❤️',
      '🏳️‍🌈',
      '👍🏽‍♂️'.slice(0, 4),
      '🏴\u{e0067}\u{e0062}\u{e0065}\u{e006e}\u{e0067}\u{e007f}',
      'naïve café 日本語 العربية',
    ]) {
      assert.strictEqual(visibleChars(ok), ok, JSON.stringify(ok));
    }
    assert.strictEqual(visibleChars('a\u200db'), 'a<U+200D>b');
  });

  it('labels: one line, capped on a code point boundary, never inside an emoji surrogate pair', () => {
    assert.strictEqual(oneLine('a\r\nb\tc\n\nd'), 'a b c d');
    assert.strictEqual(oneLine('x'.repeat(300), 10), `${'x'.repeat(9)}…`);
    const cut = oneLine('😀'.repeat(20), 5);
    assert.strictEqual(cut, `${'😀'.repeat(4)}…`);
    assert.ok(!/[\ud800-\udbff](?![\udc00-\udfff])/.test(cut));
  });

  it('a code block cannot be closed by the text it shows', () => {
    const raw = 'before\n```\n[link](https://evil.example) **x**\n````\nafter';
    const r = renderMarkdown(mdCodeBlock(raw));
    assert.deepStrictEqual(r.links, []);
    assert.deepStrictEqual(r.tags, ['pre', 'code']);
    assert.strictEqual(r.text, raw.replace(/[ \t]+/g, ' '));
  });
});

describe('any value as text, losslessly', () => {
  it('formats bigints, nested objects and arrays with every digit, and never throws', () => {
    const v = parseJson(
      '{"nonce":18446744073709551615,"list":[{"amount":9223372036854775807,"x":null}],"s":"t","n":1.5,"b":true}',
    );
    assert.strictEqual(
      formatValue(v),
      '{"nonce":18446744073709551615,"list":[{"amount":9223372036854775807,"x":null}],"s":"t","n":1.5,"b":true}',
    );
    assert.strictEqual(formatValue(18446744073709551615n), '18446744073709551615');
    assert.strictEqual(formatValue([1n, [2n, { a: 3n }]]), '[1,[2,{"a":3}]]');
    assert.strictEqual(formatValue(null), 'null');
    assert.strictEqual(formatValue(undefined), '');
    assert.strictEqual(formatValue('x'), 'x');
    const cyclic: Record<string, unknown> = {};
    cyclic.self = cyclic;
    assert.doesNotThrow(() => formatValue(cyclic));
  });

  it('an object where a number belongs is shown as JSON, not "[object Object]"', () => {
    assert.strictEqual(intToString({ big: 9223372036854775807n } as never), '{"big":9223372036854775807}');
    assert.strictEqual(formatInt({ a: 1 } as never), '{"a":1}');
  });
});

describe("error sentences say the server's words once", () => {
  it('no doubled full stop, and a sentence the body repeats is kept once', async () => {
    const { httpErrorSentence, serverMessagesOf } = await import('../../src/api/errors');
    const msg =
      'Contract 0x1 on chain 296 is already verified with runtimeMatch and creationMatch both being exact matches.';
    const s = httpErrorSentence(409, 'https://sourcify.dev/server/v2/verify/296/0x1', [msg]);
    assert.ok(!s.includes('..'), s);
    assert.strictEqual(s, `sourcify.dev rejected the request (HTTP 409 Conflict): ${msg}`);
    assert.deepStrictEqual(
      serverMessagesOf({
        error: 'Error in Etherscan API response.',
        message: 'Error in Etherscan API response. Result message: Invalid API Key',
      }),
      ['Error in Etherscan API response. Result message: Invalid API Key'],
    );
    assert.deepStrictEqual(serverMessagesOf({ error: 'Not found', message: 'not found.' }), ['not found.']);
    assert.deepStrictEqual(
      serverMessagesOf({
        _status: { messages: [{ message: 'Invalid parameter: limit' }, { message: 'Unknown query parameter: x' }] },
      }),
      ['Invalid parameter: limit', 'Unknown query parameter: x'],
    );
  });
});
