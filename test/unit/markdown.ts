// Renders a MarkdownString's text the way VS Code's hovers and tooltips do (marked, GitHub-flavoured, with its
// automatic links), so that a test reads what a user sees: the text, and which links, images and markup exist.
import { marked } from 'marked';

export interface Rendered {
  html: string;
  /** The visible text: tags removed, character references decoded, whitespace collapsed. */
  text: string;
  /** href of every link in the rendering (automatic links included). */
  links: string[];
  /** Elements other than paragraphs, line breaks, and the `strong`/`code`/`pre`/`hr`/`ul`/`li` of `ours`. */
  tags: string[];
}

const NAMED: Record<string, string> = { quot: '"', amp: '&', lt: '<', gt: '>', apos: "'", nbsp: '\u00a0' };
/** Decodes character references in one pass, as a browser does (`&#38;amp;` is the text "&amp;"). */
const decode = (s: string) =>
  s.replace(/&(?:#(\d+)|#x([0-9a-f]+)|([a-z]+));/gi, (m, d?: string, h?: string, n?: string) =>
    d ? String.fromCodePoint(Number(d)) : h ? String.fromCodePoint(parseInt(h, 16)) : (NAMED[n!.toLowerCase()] ?? m),
  );

export function renderMarkdown(md: string): Rendered {
  const html = marked.parse(md, { gfm: true, async: false }) as string;
  const links = Array.from(html.matchAll(/<a\s[^>]*href="([^"]*)"/g), (m) => decode(m[1]));
  const tags = Array.from(html.matchAll(/<([a-z][a-z0-9]*)\b/gi), (m) => m[1].toLowerCase());
  const text = decode(html.replace(/<br\s*\/?>/g, '\n').replace(/<[^>]+>/g, ''))
    .replace(/[ \t]+/g, ' ')
    .trim();
  return { html, text, links, tags };
}
