/**
 * Text helpers for untrusted server text, without `vscode` so that plain-TS formatters (and their unit tests)
 * use the very same escaping as the views. `nodes.ts` re-exports both.
 */

/** Escapes text for a MarkdownString (tooltips): no markup, links, HTML or `$(icon)` syntax from data. */
export function mdEscape(text: string): string {
  return text.replace(/[\\`*_{}[\]()#+\-.!|<>~&$]/g, (c) => `\\${c}`).replace(/\r?\n/g, '  \n');
}

/** One line of untrusted text for a label: control characters out, length capped. */
export function oneLine(text: string, max = 200): string {
  // eslint-disable-next-line no-control-regex
  const t = text.replace(/[\u0000-\u001f\u007f\u202a-\u202e\u2066-\u2069]+/g, ' ').replace(/\s+/g, ' ').trim();
  return t.length > max ? `${t.slice(0, max - 1)}…` : t;
}
