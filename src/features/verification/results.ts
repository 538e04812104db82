/**
 * The verification results kept in workspaceState, per address and network (the newest 50), the one shown, and
 * the run in progress. Small and eager: the commands work on it without the view's code, the Verification view
 * (view.ts) draws it when shown, the run (verifyContract.ts) adds to it. Sets the `hasResult` context key the
 * view's title and menus use.
 */
import * as vscode from 'vscode';
import { ContextKey, setContext } from '../../core/contextKeys';
import { type DisposableLike, soon } from '../../core/disposables';
import type { VerificationRecord } from './record';

const STATE_KEY = 'hederaExplorer.verification.records';
const CURRENT_KEY = 'hederaExplorer.verification.current';
const KEEP = 50;

const newestFirst = (a: VerificationRecord, b: VerificationRecord) =>
  a.finishedAt < b.finishedAt ? 1 : a.finishedAt > b.finishedAt ? -1 : 0;

export class VerificationResults implements vscode.Disposable {
  private records: Record<string, VerificationRecord> = {};
  private currentKey: string | undefined;
  private runningText: string | undefined;
  private readonly changed = new vscode.EventEmitter<void>();
  /** Fires after what the view shows changed (a run started or ended, a result was selected or cleared). */
  readonly onDidChange = this.changed.event;
  private readonly firstKey: DisposableLike;

  constructor(private readonly state: vscode.Memento) {
    this.read();
    // the context key goes to VS Code right after activation, not during it (unset, it reads as false meanwhile)
    this.firstKey = soon(() => setContext(ContextKey.verificationHasResult, !!this.current));
  }

  /** Reads the kept results again from workspaceState. */
  reload(): void {
    this.read();
    this.update();
  }

  private read(): void {
    this.records = { ...(this.state.get<Record<string, VerificationRecord>>(STATE_KEY) ?? {}) };
    const cur = this.state.get<string>(CURRENT_KEY);
    this.currentKey = cur && this.records[cur] ? cur : this.kept()[0]?.key;
  }

  /** The result shown. */
  get current(): VerificationRecord | undefined {
    return this.currentKey ? this.records[this.currentKey] : undefined;
  }

  /** The "Verifying…" text while a run is in progress. */
  get running(): string | undefined {
    return this.runningText;
  }

  /** Every kept result, newest first. */
  kept(): VerificationRecord[] {
    return Object.values(this.records).sort(newestFirst);
  }

  /** Shows a "Verifying…" row until `show`, or until called with undefined. */
  setRunning(text: string | undefined): void {
    this.runningText = text;
    this.update();
  }

  /** Keeps the result (replacing the earlier one for the same address and network) and shows it. */
  async show(record: VerificationRecord): Promise<void> {
    this.records[record.key] = record;
    for (const r of this.kept().slice(KEEP)) delete this.records[r.key];
    this.currentKey = record.key;
    this.runningText = undefined;
    await this.persist();
    this.update();
  }

  /** Shows a kept result. */
  async select(key: string): Promise<void> {
    if (!this.records[key]) return;
    this.currentKey = key;
    await this.persist();
    this.update();
  }

  /** Forgets one result (default: the one shown), then shows the newest remaining one. */
  async clear(key = this.currentKey): Promise<void> {
    if (key) delete this.records[key];
    this.currentKey = this.kept()[0]?.key;
    await this.persist();
    this.update();
  }

  async clearAll(): Promise<void> {
    this.records = {};
    this.currentKey = undefined;
    await this.persist();
    this.update();
  }

  private async persist(): Promise<void> {
    await this.state.update(STATE_KEY, this.records);
    await this.state.update(CURRENT_KEY, this.currentKey);
  }

  private update(): void {
    setContext(ContextKey.verificationHasResult, !!this.current);
    this.changed.fire();
  }

  dispose(): void {
    this.firstKey.dispose();
    this.changed.dispose();
  }
}
