/**
 * What every webview panel's HTML shell needs: a fresh nonce per page and the strict Content Security Policy
 * (nothing by default; scripts only with the nonce; styles and fonts only from the extension's own files).
 */
import type * as vscode from 'vscode';

/** A random token for `script-src 'nonce-…'` (a new one for every page load). */
export function nonce(): string {
  const chars = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789';
  const bytes = crypto.getRandomValues(new Uint8Array(32));
  let s = '';
  // 62 letters: bytes of 248 and more are mapped again, so that every letter is equally likely
  for (let i = 0; s.length < 32; i++) {
    const b = i < bytes.length ? bytes[i] : crypto.getRandomValues(new Uint8Array(1))[0];
    if (b < 248) s += chars.charAt(b % 62);
  }
  return s;
}

/** The page's Content-Security-Policy value. */
export function contentSecurityPolicy(webview: vscode.Webview, scriptNonce: string): string {
  return [
    "default-src 'none'",
    `style-src ${webview.cspSource}`,
    `font-src ${webview.cspSource}`,
    `script-src 'nonce-${scriptNonce}'`,
  ].join('; ');
}
