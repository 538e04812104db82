/**
 * The extension's log: a VS Code log output channel ("Hedera Explorer") behind the API layer's Logger
 * interface. Secrets registered with `addSecret` are replaced by `[hidden]` in every line, whatever logs them.
 * The last lines are kept in memory so tests (and "copy diagnostics") can read them.
 */
import vscode = require('vscode');
import type { Logger } from '../api/http';

const KEEP = 500;

export class ExtensionLog implements Logger, vscode.Disposable {
  private readonly channel: vscode.LogOutputChannel;
  private readonly secrets = new Set<string>();
  private readonly recent: string[] = [];

  constructor(name = 'Hedera Explorer') {
    this.channel = vscode.window.createOutputChannel(name, { log: true });
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
    this.recent.push(`${level} ${line}`);
    if (this.recent.length > KEEP) this.recent.splice(0, this.recent.length - KEEP);
    return line;
  }

  debug(message: string): void { this.channel.debug(this.keep('debug', message)); }
  info(message: string): void { this.channel.info(this.keep('info', message)); }
  warn(message: string): void { this.channel.warn(this.keep('warn', message)); }
  error(message: string): void { this.channel.error(this.keep('error', message)); }

  show(): void { this.channel.show(true); }

  lines(): string[] { return [...this.recent]; }

  dispose(): void { this.channel.dispose(); }
}
