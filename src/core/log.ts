/**
 * The extension's log: a VS Code log output channel ("Hedera Explorer") behind the API layer's Logger
 * interface. Secrets registered with `addSecret` are replaced by `[hidden]` in every line, whatever logs them.
 * With `keepLines` (ExtensionMode.Test only: the tests' `recentLog()` seam) the last 500 lines are also kept in
 * memory; otherwise nothing is kept.
 */
import * as vscode from 'vscode';
import type { Logger } from '../api/http';

const KEEP = 500;

export interface ExtensionLogOptions {
  /** Keep the last 500 lines in memory for `lines()` (test mode only; off by default). */
  keepLines?: boolean;
}

export class ExtensionLog implements Logger, vscode.Disposable {
  private readonly channel: vscode.LogOutputChannel;
  private readonly secrets = new Set<string>();
  /** The last lines, only when asked for (`keepLines`). */
  private readonly recent: string[] | undefined;

  constructor(options: ExtensionLogOptions = {}) {
    this.channel = vscode.window.createOutputChannel('Hedera Explorer', { log: true });
    this.recent = options.keepLines ? [] : undefined;
  }

  /** A value that must never appear in the log (an API key). */
  addSecret(value: string | undefined): void {
    if (value && value.length >= 4) this.secrets.add(value);
  }

  removeSecret(value: string | undefined): void {
    if (value) this.secrets.delete(value);
  }

  private scrub(message: string): string {
    let out = message;
    for (const s of this.secrets) out = out.split(s).join('[hidden]');
    return out;
  }

  private keep(level: string, message: string): string {
    const line = this.scrub(message);
    if (this.recent) {
      this.recent.push(`${level} ${line}`);
      if (this.recent.length > KEEP) this.recent.splice(0, this.recent.length - KEEP);
    }
    return line;
  }

  debug(message: string): void {
    this.channel.debug(this.keep('debug', message));
  }
  info(message: string): void {
    this.channel.info(this.keep('info', message));
  }
  warn(message: string): void {
    this.channel.warn(this.keep('warn', message));
  }
  error(message: string): void {
    this.channel.error(this.keep('error', message));
  }

  show(): void {
    this.channel.show(true);
  }

  /** The last lines kept (`keepLines`), oldest first; empty when lines are not kept. */
  lines(): string[] {
    return this.recent ? [...this.recent] : [];
  }

  dispose(): void {
    this.channel.dispose();
  }
}
