/**
 * What every webview panel's HTML shell needs: a fresh nonce per page and the strict Content Security Policy
 * (nothing by default; scripts only with the nonce; styles and fonts only from the extension's own files).
 */
import type * as vscode from 'vscode';

/** A random token for `script-src 'nonce-…'` (a new one for every page load). */
export function nonce(): string {
  const chars = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789';
  let s = '';
  for (let i = 0; i < 32; i++) s += chars.charAt(Math.floor(Math.random() * chars.length));
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
