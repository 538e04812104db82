// The small emitter of plain-TypeScript code (src/api/emitter.ts): subscribe, fire, unsubscribe, dispose, and a
// failing listener that does not stop the others.
import * as assert from 'assert';
import { Emitter } from '../../src/api/emitter';

describe('Emitter', () => {
  it('calls every listener with the value, in the order they subscribed', () => {
    const e = new Emitter<number>();
    const seen: string[] = [];
    e.event((v) => seen.push(`a${v}`));
    e.event((v) => seen.push(`b${v}`));
    e.fire(1);
    e.fire(2);
    assert.deepStrictEqual(seen, ['a1', 'b1', 'a2', 'b2']);
  });

  it('fire without listeners does nothing', () => {
    const e = new Emitter<string>();
    assert.doesNotThrow(() => e.fire('x'));
  });

  it('dispose() of a subscription removes that listener only', () => {
    const e = new Emitter<number>();
    const seen: string[] = [];
    const a = e.event((v) => seen.push(`a${v}`));
    e.event((v) => seen.push(`b${v}`));
    e.fire(1);
    a.dispose();
    a.dispose(); // twice is harmless
    e.fire(2);
    assert.deepStrictEqual(seen, ['a1', 'b1', 'b2']);
  });

  it('the same function subscribed twice is called twice and removed one subscription at a time', () => {
    const e = new Emitter<number>();
    let calls = 0;
    const f = () => {
      calls++;
    };
    const first = e.event(f);
    e.event(f);
    e.fire(0);
    assert.strictEqual(calls, 2);
    first.dispose();
    e.fire(0);
    assert.strictEqual(calls, 3);
  });

  it('a failing listener does not stop the others, nor the code that fired', () => {
    const e = new Emitter<number>();
    const seen: number[] = [];
    e.event(() => {
      throw new Error('boom');
    });
    e.event((v) => seen.push(v));
    assert.doesNotThrow(() => e.fire(7));
    assert.deepStrictEqual(seen, [7]);
  });

  it('a listener added during a fire waits for the next one; one removed during a fire is not called', () => {
    const e = new Emitter<number>();
    const seen: string[] = [];
    const later: { b?: { dispose(): void } } = {};
    e.event((v) => {
      seen.push(`a${v}`);
      if (v === 1) {
        later.b?.dispose();
        e.event((w) => seen.push(`late${w}`));
      }
    });
    later.b = e.event((v) => seen.push(`b${v}`));
    e.fire(1);
    e.fire(2);
    assert.deepStrictEqual(seen, ['a1', 'a2', 'late2']);
  });

  it('after dispose() nothing is called and new subscriptions are ignored', () => {
    const e = new Emitter<number>();
    const seen: number[] = [];
    e.event((v) => seen.push(v));
    e.dispose();
    e.fire(1);
    const s = e.event((v) => seen.push(v));
    e.fire(2);
    s.dispose();
    assert.deepStrictEqual(seen, []);
  });

  it('a listener that disposes the emitter during a fire stops the rest of that fire', () => {
    const e = new Emitter<number>();
    const seen: string[] = [];
    e.event(() => {
      seen.push('a');
      e.dispose();
    });
    e.event(() => seen.push('b'));
    e.fire(0);
    assert.deepStrictEqual(seen, ['a']);
  });
});
