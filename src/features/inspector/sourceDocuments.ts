/**
 * Read-only documents of compiled Solidity sources (`hedera-source:` URIs): a library in node_modules, a file edited
 * since the build, Sourcify's sources. The text is the compiler's input, so the lines are the lines it compiled.
 * The eager part of the feature registers the content provider (so that a document restored after a reload says
 * what it was, instead of failing); the texts live here, with the loaded part, at most MAX_DOCUMENTS of them.
 */
import * as vscode from 'vscode';

export const SOURCE_SCHEME = 'hedera-source';
const MAX_DOCUMENTS = 200;

export class SourceDocuments {
  private readonly texts = new Map<string, string>();
  private counter = 0;

  /** A URI for a compiled source (the same text gets the same URI). */
  add(sourceName: string, content: string): vscode.Uri {
    for (const [key, text] of this.texts)
      if (text === content && key.startsWith(`/${sourceName}?`))
        return vscode.Uri.from({
          scheme: SOURCE_SCHEME,
          path: key.slice(0, key.indexOf('?')),
          query: key.slice(key.indexOf('?') + 1),
        });
    const path = `/${sourceName.replace(/^\/+/, '').replace(/\.\.(\/|$)/g, '')}`;
    const query = String(++this.counter);
    this.texts.set(`${path}?${query}`, content);
    if (this.texts.size > MAX_DOCUMENTS) this.texts.delete(this.texts.keys().next().value as string);
    return vscode.Uri.from({ scheme: SOURCE_SCHEME, path, query });
  }

  text(uri: vscode.Uri): string | undefined {
    return this.texts.get(`${uri.path}?${uri.query}`);
  }
}
