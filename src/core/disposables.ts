/**
 * The one way to own disposables (subscriptions, emitters, watchers, providers): add them to a store, dispose the
 * store. Plain TypeScript typed against `{ dispose() }` (no vscode at run time), so it runs under plain Node in the
 * unit tests.
 */

/** Anything that can be disposed: a `vscode.Disposable`, an `EventEmitter`, a subscription. */
export interface DisposableLike {
  dispose(): unknown;
}

export class DisposableStore implements DisposableLike {
  private items: DisposableLike[] = [];
  private disposed = false;

  get isDisposed(): boolean {
    return this.disposed;
  }

  /**
   * Adds the items, to be disposed with the store, and returns the first. Once the store is disposed, what is added
   * is disposed at once (nothing outlives its owner).
   */
  add<T extends DisposableLike>(first: T, ...more: DisposableLike[]): T {
    if (this.disposed) disposeAll([first, ...more]);
    else this.items.push(first, ...more);
    return first;
  }

  /** Disposes what the store holds, last added first; the store stays usable. */
  clear(): void {
    const items = this.items;
    this.items = [];
    disposeAll(items);
  }

  /** Disposes what the store holds, last added first; a second call does nothing. */
  dispose(): void {
    if (this.disposed) return;
    this.disposed = true;
    this.clear();
  }
}

/**
 * Runs `f` once the synchronous work under way is done (at activation: right after activate() returns, off its path);
 * disposing the result before then cancels it.
 */
export function soon(f: () => void): DisposableLike {
  const timer = setTimeout(f, 0);
  return { dispose: () => clearTimeout(timer) };
}

/**
 * Disposes every item, the last first. One that throws does not stop the others; the error is thrown afterwards
 * (several: an AggregateError).
 */
function disposeAll(items: DisposableLike[]): void {
  const errors: unknown[] = [];
  for (let i = items.length - 1; i >= 0; i--) {
    try {
      items[i].dispose();
    } catch (e) {
      errors.push(e);
    }
  }
  if (errors.length === 1) throw errors[0];
  if (errors.length > 1) throw new AggregateError(errors, 'Several disposables failed to dispose');
}
