/**
 * The one small event emitter of plain-TypeScript code (models that run under plain Node in the unit tests); UI
 * code uses VS Code's `EventEmitter`, whose `event` it mirrors: `event(listener)` returns `{ dispose() }` that
 * removes that subscription. A listener that throws does not stop the others (nor the code that fired).
 * Plain TS, no vscode.
 */
export type Listener<T> = (value: T) => void;

export interface Subscription {
  dispose(): void;
}

/** Subscribes `listener`; dispose the result to unsubscribe. */
export type Event<T> = (listener: Listener<T>) => Subscription;

interface Entry<T> {
  listener: Listener<T>;
  removed?: boolean;
}

export class Emitter<T> {
  /** One entry per subscription (the same function subscribed twice is called twice, removed one at a time). */
  private listeners: Array<Entry<T>> | undefined = [];

  readonly event: Event<T> = (listener) => {
    const entry: Entry<T> = { listener };
    // after dispose() nothing is kept: the subscription is a no-op
    this.listeners?.push(entry);
    return {
      dispose: () => {
        entry.removed = true;
        const i = this.listeners?.indexOf(entry) ?? -1;
        if (i >= 0) this.listeners?.splice(i, 1);
      },
    };
  };

  /**
   * Calls every listener with `value`, in the order they subscribed. One added meanwhile waits for the next fire;
   * one removed meanwhile (by an earlier listener) is not called.
   */
  fire(value: T): void {
    if (!this.listeners?.length) return;
    for (const entry of [...this.listeners]) {
      if (entry.removed) continue;
      try {
        entry.listener(value);
      } catch {
        // a failing listener never stops the others
      }
    }
  }

  /** Drops every listener (one being called goes on, the rest of that fire is skipped); later calls do nothing. */
  dispose(): void {
    for (const entry of this.listeners ?? []) entry.removed = true;
    this.listeners = undefined;
  }
}
