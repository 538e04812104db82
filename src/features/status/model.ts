/**
 * The network status model: ONE poll of the status page's summary.json, shared by the status bar item and the
 * Network Status view. Plain TypeScript (no `vscode`): the clock, the timers and the fetch are injected, so the
 * schedule, the backoff and the "worse than before" detection run under plain Node in the unit tests.
 *
 * Schedule: a poll every `pollMinutes` (never faster than once a minute); after failures the delay doubles up to
 * 30 minutes (or the poll interval when that is longer), and a server's Retry-After is never undercut. A manual
 * refresh polls at once; a network change forgets the previous page (no "worse" comparison across pages).
 */
import { Emitter } from '../../api/emitter';
import type { ApiError } from '../../api/errors';
import { LatestRequest } from '../../api/latest';
import type { Indicator, StatusSummary } from '../../api/status';

export const MINUTE = 60_000;
export const DEFAULT_POLL_MINUTES = 5;
export const MAX_BACKOFF_MS = 30 * MINUTE;

/** The poll interval from the setting: a number of minutes, at least 1 (and at most a day), else the default. */
export function clampPollMinutes(value: unknown): number {
  const n = typeof value === 'number' ? value : typeof value === 'string' && value.trim() ? Number(value) : NaN;
  if (!Number.isFinite(n)) return DEFAULT_POLL_MINUTES;
  return Math.min(24 * 60, Math.max(1, n));
}

/**
 * Delay before the next poll after `failures` failed polls in a row (0 = the last one succeeded):
 * interval, then interval × 2, × 4 … capped at max(30 min, interval); never shorter than Retry-After.
 */
export function pollDelayMs(intervalMs: number, failures: number, retryAfterMs?: number): number {
  const base = Math.max(MINUTE, intervalMs);
  const cap = Math.max(MAX_BACKOFF_MS, base);
  const delay = failures <= 0 ? base : Math.min(cap, base * 2 ** Math.min(failures, 20));
  return retryAfterMs !== undefined && retryAfterMs > delay ? Math.min(retryAfterMs, 24 * 60 * MINUTE) : delay;
}

/** Rank of a page indicator: none 0, maintenance 1, minor 2, major 3, critical 4; values we do not know rank 1. */
export function indicatorRank(indicator: Indicator): number {
  switch (indicator) {
    case 'none':
      return 0;
    case 'maintenance':
      return 1;
    case 'minor':
      return 2;
    case 'major':
      return 3;
    case 'critical':
      return 4;
    default:
      return 1;
  }
}

/** True when `next` is worse than `previous`; never on the first result (`previous` undefined). */
export function isWorse(previous: Indicator | undefined, next: Indicator): boolean {
  return previous !== undefined && indicatorRank(next) > indicatorRank(previous);
}

export interface StatusState {
  /** The last summary that was read, kept through later failures (shown as "last known"). */
  readonly summary?: StatusSummary;
  /** When `summary` was read (ms since epoch). */
  readonly checkedAt?: number;
  /** The failure of the latest poll; undefined once a poll succeeds. */
  readonly error?: unknown;
  readonly failedAt?: number;
  /** Failed polls in a row. */
  readonly failures: number;
  /** A poll is in flight. */
  readonly loading: boolean;
  /** When the next scheduled poll runs. */
  readonly nextPollAt?: number;
  /** Bumped by `reset()` (network change): rows and caches of an older generation are stale. */
  readonly generation: number;
  /** Completed polls (success or failure) in this generation. */
  readonly polls: number;
}

export interface Worsening {
  previous: Indicator;
  next: Indicator;
  summary: StatusSummary;
}

export interface Timers {
  setTimeout(fn: () => void, ms: number): unknown;
  clearTimeout(handle: unknown): void;
}

export interface StatusModelOptions {
  /** Reads the summary; `signal` aborts it (network change, dispose). */
  fetch(signal: AbortSignal): Promise<StatusSummary>;
  /** The poll interval in ms, read at each scheduling (the setting may change). */
  intervalMs(): number;
  now?: () => number;
  timers?: Timers;
  log?: { info(m: string): void; warn(m: string): void; debug(m: string): void };
}

const realTimers: Timers = {
  setTimeout: (fn, ms) => setTimeout(fn, ms),
  clearTimeout: (h) => clearTimeout(h as ReturnType<typeof setTimeout>),
};

export class StatusModel {
  private current: StatusState = { failures: 0, loading: false, generation: 0, polls: 0 };
  private baseline: Indicator | undefined;
  /** The poll in flight, shared by callers of `refresh()`. */
  private inFlight: Promise<void> | undefined;
  /** Its cancellation: `reset()` and `dispose()` abort it, and its late answer is dropped. */
  private readonly request = new LatestRequest();
  private timer: unknown;
  private started = false;
  private paused = false;
  private disposed = false;
  private readonly changed = new Emitter<StatusState>();
  private readonly worsened = new Emitter<Worsening>();
  private readonly now: () => number;
  private readonly timers: Timers;

  /** Fires after every change of the state (poll started, finished, failed, reset). */
  readonly onDidChange = this.changed.event;
  /** Fires when a poll's indicator is worse than the previous poll's (of the same page). */
  readonly onDidWorsen = this.worsened.event;

  constructor(private readonly opts: StatusModelOptions) {
    this.now = opts.now ?? Date.now;
    this.timers = opts.timers ?? realTimers;
  }

  get state(): StatusState {
    return this.current;
  }

  /** Starts polling: one poll now, the next ones on the schedule. */
  start(): void {
    if (this.started || this.disposed) return;
    this.started = true;
    void this.refresh();
  }

  /** Stops the schedule while nobody shows the status (no status bar item, the view hidden); a manual refresh still polls. */
  pause(): void {
    if (this.paused || this.disposed) return;
    this.paused = true;
    this.cancelTimer();
    if (this.current.nextPollAt !== undefined) this.update({ nextPollAt: undefined });
  }

  /** Polls on the schedule again (now, when the last poll is older than the interval or nothing is known). */
  resume(): void {
    if (this.disposed) return;
    const wasPaused = this.paused;
    this.paused = false;
    if (!this.started) return this.start();
    if (!wasPaused || this.inFlight) return;
    if (this.current.summary === undefined && this.current.error === undefined) void this.refresh();
    else this.schedule();
  }

  /**
   * Polls now (a manual refresh or Retry). A poll already in flight is shared, not doubled.
   * Resolves when the poll is over; never rejects (the failure is in `state.error`).
   */
  refresh(): Promise<void> {
    if (this.disposed) return Promise.resolve();
    if (this.inFlight) return this.inFlight;
    this.started = true;
    this.cancelTimer();
    const signal = this.request.start();
    this.update({ loading: true, nextPollAt: undefined });
    const run = (async () => {
      try {
        // always asynchronous, so that `inFlight` is set before the `finally` below can clear it
        const summary = await Promise.resolve().then(() => this.opts.fetch(signal));
        if (!this.request.isCurrent(signal)) return;
        const previous = this.baseline;
        this.baseline = summary.status.indicator;
        this.update({
          summary,
          checkedAt: this.now(),
          error: undefined,
          failedAt: undefined,
          failures: 0,
          loading: false,
          polls: this.current.polls + 1,
        });
        if (previous !== undefined && isWorse(previous, summary.status.indicator)) {
          this.worsened.fire({ previous, next: summary.status.indicator, summary });
        }
      } catch (error) {
        if (!this.request.isCurrent(signal)) return;
        const failures = this.current.failures + 1;
        this.opts.log?.warn(
          `Network status: poll ${failures} in a row failed: ${error instanceof Error ? error.message : String(error)}`,
        );
        this.update({ error, failedAt: this.now(), failures, loading: false, polls: this.current.polls + 1 });
      } finally {
        // a poll that reset() or dispose() cancelled leaves the state, the schedule and `inFlight` to them
        if (this.request.isCurrent(signal)) {
          this.request.done(signal);
          this.inFlight = undefined;
          this.schedule();
        }
      }
    })();
    this.inFlight = run;
    return run;
  }

  /**
   * The network (or the status page URL) changed: drop what is in flight and, when `samePage` is false, forget
   * the previous page (its rows and the baseline of the "worse" check), then poll at once.
   */
  reset(samePage = false): Promise<void> {
    if (this.disposed) return Promise.resolve();
    this.request.cancel();
    this.inFlight = undefined;
    this.cancelTimer();
    if (!samePage) this.baseline = undefined;
    const keep = samePage ? { summary: this.current.summary, checkedAt: this.current.checkedAt } : {};
    this.current = { ...keep, failures: 0, loading: false, generation: this.current.generation + 1, polls: 0 };
    this.changed.fire(this.current);
    return this.paused ? Promise.resolve() : this.refresh();
  }

  /** The interval setting changed: the next poll is rescheduled from the last one. */
  reschedule(): void {
    if (!this.started || this.disposed || this.inFlight) return;
    this.schedule();
  }

  private schedule(): void {
    this.cancelTimer();
    if (this.paused) return;
    // an ApiError's Retry-After (read by property: the errors module is not loaded at activation for this)
    const retryAfter = (this.current.error as Partial<ApiError> | undefined)?.retryAfterMs;
    const delay = pollDelayMs(this.opts.intervalMs(), this.current.failures, retryAfter);
    const last =
      this.current.failedAt !== undefined && this.current.error !== undefined
        ? this.current.failedAt
        : (this.current.checkedAt ?? this.now());
    const at = Math.max(this.now(), last + delay);
    this.timer = this.timers.setTimeout(() => {
      this.timer = undefined;
      void this.refresh();
    }, at - this.now());
    this.update({ nextPollAt: at });
    this.opts.log?.debug(`Network status: next poll in ${Math.round((at - this.now()) / 1000)} s`);
  }

  private cancelTimer(): void {
    if (this.timer !== undefined) this.timers.clearTimeout(this.timer);
    this.timer = undefined;
  }

  private update(patch: Partial<StatusState>): void {
    this.current = { ...this.current, ...patch };
    this.changed.fire(this.current);
  }

  dispose(): void {
    this.disposed = true;
    this.cancelTimer();
    this.request.cancel();
    this.inFlight = undefined;
    this.changed.dispose();
    this.worsened.dispose();
  }
}
