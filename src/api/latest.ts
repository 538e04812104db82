/**
 * "Cancel the previous request": one request at a time per owner. `start()` aborts the request in flight and
 * gives the new one its signal; `isCurrent(signal)` tells the current answer from a stale one that arrived late.
 * Plain TS, no vscode (trees, panels and the status view use it alike).
 */
export class LatestRequest {
  private controller: AbortController | undefined;

  /** Aborts the request in flight, if any, and returns the signal of the new one. */
  start(): AbortSignal {
    this.controller?.abort();
    this.controller = new AbortController();
    return this.controller.signal;
  }

  /** Whether `signal` belongs to the latest request and it was not cancelled: only its answer may be used. */
  isCurrent(signal: AbortSignal): boolean {
    return this.controller?.signal === signal && !signal.aborted;
  }

  /** Whether a request is in flight. */
  get active(): boolean {
    return this.controller !== undefined && !this.controller.signal.aborted;
  }

  /** Aborts the request in flight; the next `start()` begins afresh. */
  cancel(): void {
    this.controller?.abort();
    this.controller = undefined;
  }

  /** The request finished (answer used or failure shown): nothing is in flight any more. */
  done(signal: AbortSignal): void {
    if (this.controller?.signal === signal) this.controller = undefined;
  }
}
