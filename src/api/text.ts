/**
 * Untrusted text (from a server, a file or a decoded value) on its way to the screen. Every label, description,
 * tooltip, hover and notification that shows such text passes it through `inert()`, one function with one target
 * per kind of surface:
 *
 * - `'label'`: one line for a tree label or description (plain text there): line breaks become spaces.
 * - `'text'`: plain text that keeps its line breaks (plain-string tooltips, webview text nodes).
 * - `'markdown'`: a piece of a MarkdownString. Every ASCII punctuation character becomes a numeric character
 *   reference, so nothing in it is markup, a link (`[a](command:x)`, `<https://x>`), an automatic link (a bare
 *   `http://` or `www.` URL, an e-mail address), HTML or `$(icon)` syntax, and it reads exactly as it was sent
 *   (no visible backslashes, which backslash escaping leaves inside automatic links).
 * - `'notification'`: one line for `showInformationMessage` and friends, which turn `[text](href)` into a live
 *   link and `$(name)` into an icon: both are broken up with a visible space.
 *
 * In every target, characters that are invisible or that reorder text (bidirectional overrides and isolates,
 * zero-width characters, control characters, lone surrogates) are shown as `<U+202E>`-style escapes, as VS Code's
 * editor highlights them, so that `Other<U+202E>los.exe` cannot pose as `Otherexe.sol`. A zero-width joiner inside
 * an emoji sequence and emoji variation selectors stay as they are.
 *
 * Plain TypeScript without `vscode`: the views, the plain formatters (and their unit tests) and the webview use
 * the very same code.
 */

export type InertTarget = 'label' | 'text' | 'markdown' | 'notification';

export interface InertOptions {
  /** Longest result in characters of the source (code points), with `…` when cut. Default: no limit. */
  max?: number;
}

/** Characters shown as escapes: C0/C1 controls (tab and line breaks are handled per target), invisible and bidi. */
// Combining marks and variation selectors are listed on purpose: each one is shown as an escape.
const INVISIBLE =
  // eslint-disable-next-line no-misleading-character-class
  /[\u0000-\u0008\u000b\u000c\u000e-\u001f\u007f-\u009f\u00ad\u034f\u061c\u115f\u1160\u17b4\u17b5\u180b-\u180f\u200b-\u200f\u2028-\u202e\u2060-\u206f\u3164\ufe00-\ufe0d\ufeff\uffa0\ufff0-\ufffb\u{1bca0}-\u{1bca3}\u{1d173}-\u{1d17a}\u{e0000}-\u{e007f}]|[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/gu;
const PICTOGRAPHIC = /\p{Extended_Pictographic}/u;
/**
 * A character INVISIBLE may match, without the `u` flag (every character outside the Basic Multilingual Plane is a
 * surrogate here): text without one is shown as it is, and INVISIBLE, slow to build, is not built for it.
 */
const MAYBE_INVISIBLE =
  // eslint-disable-next-line no-misleading-character-class
  /[\u0000-\u0008\u000b\u000c\u000e-\u001f\u007f-\u009f\u00ad\u034f\u061c\u115f\u1160\u17b4\u17b5\u180b-\u180f\u200b-\u200f\u2028-\u202e\u2060-\u206f\u3164\ufe00-\ufe0d\ufeff\uffa0\ufff0-\ufffb\ud800-\udfff]/;

function codePointEscape(ch: string): string {
  return `<U+${(ch.codePointAt(0) ?? 0).toString(16).toUpperCase().padStart(4, '0')}>`;
}

/** Shows invisible and reordering characters as `<U+XXXX>`; tab and line breaks are left to the caller. */
export function visibleChars(text: string): string {
  if (!MAYBE_INVISIBLE.test(text)) return text;
  INVISIBLE.lastIndex = 0;
  if (!INVISIBLE.test(text)) return text;
  INVISIBLE.lastIndex = 0;
  return text.replace(INVISIBLE, (ch: string, offset: number, whole: string) => {
    const cp = ch.codePointAt(0) ?? 0;
    // a zero-width joiner between two emoji (👩‍💻) is part of the emoji
    if (cp === 0x200d && isEmojiJoin(whole, offset)) return ch;
    // the tag characters of a flag sequence (🏴 + tags) are part of the emoji
    if (cp >= 0xe0020 && cp <= 0xe007f && /(?:\u{1f3f4}|[\u{e0020}-\u{e007f}])$/u.test(whole.slice(0, offset)))
      return ch;
    return codePointEscape(ch);
  });
}

function isEmojiJoin(text: string, offset: number): boolean {
  const before = Array.from(text.slice(Math.max(0, offset - 4), offset)).pop() ?? '';
  const after = Array.from(text.slice(offset + 1, offset + 5))[0] ?? '';
  const prevOk = PICTOGRAPHIC.test(before) || before === '\ufe0f' || /[\u{1f3fb}-\u{1f3ff}]/u.test(before);
  return prevOk && PICTOGRAPHIC.test(after);
}

/** Cuts to `max` code points (never inside a surrogate pair), with `…`. */
function cap(text: string, max: number | undefined): string {
  if (max === undefined || text.length <= max) return text;
  const cps = Array.from(text);
  return cps.length <= max ? text : `${cps.slice(0, Math.max(0, max - 1)).join('')}…`;
}

const LINE_BREAKS = /\r\n|[\r\n\u0085]/g;
const ASCII_PUNCTUATION = /[!-/:-@[-`{-~]/g;

/**
 * Makes untrusted text safe and honest for one kind of surface (see the file comment). Anything that is not a
 * string is turned into one first (`null`/`undefined` become empty).
 */
export function inert(value: unknown, target: InertTarget, options: InertOptions = {}): string {
  let text = value === null || value === undefined ? '' : typeof value === 'string' ? value : String(value);
  switch (target) {
    case 'label':
    case 'notification':
      text = cap(
        text
          .replace(LINE_BREAKS, ' ')
          .replace(/\t/g, ' ')
          .replace(/ {2,}/g, ' ')
          .replace(/^ +| +$/g, ''),
        options.max,
      );
      text = visibleChars(text);
      // `[a](command:x)` and `$(icon)` are syntax in notifications: a space makes them plain text
      return target === 'notification' ? text.replace(/\]\(/g, '] (').replace(/\$\(/g, '$ (') : text;
    case 'text':
      return visibleChars(cap(text.replace(/\r\n?/g, '\n'), options.max));
    case 'markdown': {
      const shown = visibleChars(cap(text.replace(/\r\n?/g, '\n'), options.max));
      return (
        shown
          .replace(ASCII_PUNCTUATION, (c) => `&#${c.charCodeAt(0)};`)
          // leading spaces would start a code block; a line break inside the text stays a line break
          .split('\n')
          .map((line) => line.replace(/^ +/, (s) => '&#32;'.repeat(s.length)))
          .join('  \n')
      );
    }
  }
}

/** One line of untrusted text for a tree label or description, cut at `max` characters. */
export function oneLine(text: string, max = 200): string {
  return inert(text, 'label', { max });
}

/** Untrusted text as a piece of a MarkdownString: inert and read as sent (see `inert`). */
export function mdEscape(text: string): string {
  return inert(text, 'markdown');
}

/** Untrusted text inside a notification: one line, no links, no icons (see `inert`). */
export function notificationSafe(text: string, max = 300): string {
  return inert(text, 'notification', { max });
}

/**
 * A fenced code block for a MarkdownString whose content cannot close the fence: the fence is longer than any
 * run of backticks in the text. The text is shown as it is, in a monospace block (invisible characters escaped).
 */
export function mdCodeBlock(text: string): string {
  const shown = visibleChars(text.replace(/\r\n?/g, '\n'));
  const longest = Math.max(0, ...Array.from(shown.matchAll(/`+/g), (m) => m[0].length));
  const fence = '`'.repeat(Math.max(3, longest + 1));
  return `${fence}text\n${shown}\n${fence}`;
}
