/** URL helpers shared by every layer. Plain TS, no vscode. */

/** The host (with port) of a URL, or undefined when it is not a URL. */
export function hostOf(url: string | null | undefined): string | undefined {
  if (!url) return undefined;
  try {
    return new URL(url).host || undefined;
  } catch {
    return undefined;
  }
}

/** Only http and https links leave VS Code: the URL, normalised, or undefined (command:, file:, javascript:…). */
export function httpUrl(url: unknown): string | undefined {
  if (typeof url !== 'string' || !url.trim()) return undefined;
  try {
    const u = new URL(url.trim());
    return u.protocol === 'http:' || u.protocol === 'https:' ? u.toString() : undefined;
  } catch {
    return undefined;
  }
}
