// The disposable store (src/core/disposables.ts): last added disposed first, a throwing item does not stop the
// others, dispose twice is a no-op, what is added after dispose is disposed at once, clear keeps the store usable.
import * as assert from 'assert';
import { DisposableStore, soon } from '../../src/core/disposables';

/** A disposable that logs its name to `log` each time it is disposed (throws `fail` when given). */
const item = (log: string[], name: string, fail?: Error) => ({
  dispose: () => {
    log.push(name);
    if (fail) throw fail;
  },
});

describe('DisposableStore', () => {
  it('disposes what it holds once, the last added first', () => {
    const log: string[] = [];
    const store = new DisposableStore();
    store.add(item(log, 'a'));
    store.add(item(log, 'b'), item(log, 'c'));
    store.dispose();
    assert.deepStrictEqual(log, ['c', 'b', 'a']);
    assert.ok(store.isDisposed);
  });

  it('returns the first item added', () => {
    const store = new DisposableStore();
    const a = { dispose: () => undefined, name: 'a' };
    assert.strictEqual(store.add(a, { dispose: () => undefined }), a);
  });

  it('dispose twice is a no-op', () => {
    const log: string[] = [];
    const store = new DisposableStore();
    store.add(item(log, 'a'));
    store.dispose();
    store.dispose();
    assert.deepStrictEqual(log, ['a']);
  });

  it('disposes at once what is added after dispose', () => {
    const log: string[] = [];
    const store = new DisposableStore();
    store.dispose();
    store.add(item(log, 'late'), item(log, 'later'));
    assert.deepStrictEqual(log, ['later', 'late']);
    store.dispose();
    assert.deepStrictEqual(log, ['later', 'late'], 'not disposed again');
  });

  it('clear disposes what it holds and keeps the store usable', () => {
    const log: string[] = [];
    const store = new DisposableStore();
    store.add(item(log, 'a'), item(log, 'b'));
    store.clear();
    assert.deepStrictEqual(log, ['b', 'a']);
    assert.ok(!store.isDisposed);
    store.add(item(log, 'c'));
    assert.deepStrictEqual(log, ['b', 'a'], 'kept, not disposed at once');
    store.dispose();
    assert.deepStrictEqual(log, ['b', 'a', 'c']);
  });

  it('an item that throws does not stop the others; its error is thrown afterwards', () => {
    const log: string[] = [];
    const boom = new Error('boom');
    const store = new DisposableStore();
    store.add(item(log, 'a'), item(log, 'b', boom), item(log, 'c'));
    assert.throws(
      () => store.dispose(),
      (e) => e === boom,
    );
    assert.deepStrictEqual(log, ['c', 'b', 'a']);
    assert.ok(store.isDisposed);
    assert.doesNotThrow(() => store.dispose());
  });

  it('several that throw: every item is disposed, then an AggregateError with every error', () => {
    const log: string[] = [];
    const one = new Error('one');
    const two = new Error('two');
    const store = new DisposableStore();
    store.add(item(log, 'a', one), item(log, 'b'), item(log, 'c', two));
    assert.throws(
      () => store.clear(),
      (e) => e instanceof AggregateError && e.errors[0] === two && e.errors[1] === one,
    );
    assert.deepStrictEqual(log, ['c', 'b', 'a']);
  });

  it('an item that disposes the store while it is disposed: each item once', () => {
    const log: string[] = [];
    const store = new DisposableStore();
    store.add(item(log, 'a'));
    store.add({
      dispose: () => {
        log.push('reentrant');
        store.dispose();
      },
    });
    store.dispose();
    assert.deepStrictEqual(log, ['reentrant', 'a']);
  });

  it('an item added while the store is cleared is kept for the next dispose', () => {
    const log: string[] = [];
    const store = new DisposableStore();
    store.add({
      dispose: () => {
        log.push('a');
        store.add(item(log, 'added'));
      },
    });
    store.clear();
    assert.deepStrictEqual(log, ['a']);
    store.dispose();
    assert.deepStrictEqual(log, ['a', 'added']);
  });
});

describe('soon', () => {
  it('runs after the synchronous work under way, once', async () => {
    const log: string[] = [];
    soon(() => log.push('soon'));
    log.push('now');
    assert.deepStrictEqual(log, ['now']);
    await new Promise<void>((resolve) => soon(resolve));
    assert.deepStrictEqual(log, ['now', 'soon']);
  });

  it('does not run when disposed before', async () => {
    const log: string[] = [];
    soon(() => log.push('cancelled')).dispose();
    await new Promise<void>((resolve) => soon(resolve));
    assert.deepStrictEqual(log, []);
  });
});
