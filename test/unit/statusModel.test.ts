// The shared network status poll (src/features/status/model.ts): interval clamp, backoff schedule, "worse" detection,
// one request at a time, network reset. Runs on a fake clock; the fetch is a plain function.
import * as assert from 'assert';
import { ApiError } from '../../src/api/errors';
import { type Indicator, parseSummary, type StatusSummary } from '../../src/api/status';
import {
  clampPollMinutes,
  indicatorRank,
  isWorse,
  MINUTE,
  pollDelayMs,
  StatusModel,
  type Timers,
  type Worsening,
} from '../../src/features/status/model';

/** A fake clock: timers run when `advance` passes their time. */
class Clock implements Timers {
  now = Date.parse('2026-11-24T12:00:00Z');
  private timers = new Map<number, { at: number; fn: () => void }>();
  private seq = 0;
  setTimeout(fn: () => void, ms: number): unknown {
    const id = ++this.seq;
    this.timers.set(id, { at: this.now + ms, fn });
    return id;
  }
  clearTimeout(h: unknown): void {
    this.timers.delete(h as number);
  }
  get pending(): number[] {
    return [...this.timers.values()].map((t) => t.at - this.now).sort((a, b) => a - b);
  }
  async advance(ms: number): Promise<void> {
    const end = this.now + ms;
    for (;;) {
      const next = [...this.timers.entries()].sort((a, b) => a[1].at - b[1].at)[0];
      if (!next || next[1].at > end) break;
      this.now = next[1].at;
      this.timers.delete(next[0]);
      next[1].fn();
      await settle();
    }
    this.now = end;
    await settle();
  }
}

const settle = async (): Promise<void> => {
  for (let i = 0; i < 10; i++) await Promise.resolve();
};

const sum = (indicator: Indicator): StatusSummary =>
  parseSummary({ page: { name: 'Hedera' }, status: { indicator, description: indicator }, components: [] });

function setup(answers: Array<Indicator | Error>, intervalMin = 5) {
  const clock = new Clock();
  const calls: AbortSignal[] = [];
  let i = 0;
  const model = new StatusModel({
    fetch: async (signal) => {
      calls.push(signal);
      const a = answers[Math.min(i++, answers.length - 1)];
      if (a instanceof Error) throw a;
      return sum(a);
    },
    intervalMs: () => intervalMin * MINUTE,
    now: () => clock.now,
    timers: clock,
  });
  const worse: Worsening[] = [];
  model.onDidWorsen((w) => worse.push(w));
  return { clock, model, calls, worse };
}

describe('status model: schedule', () => {
  it('clamps the poll interval setting to at least one minute', () => {
    assert.deepStrictEqual(
      [5, 1, 0.2, 0, -3, 90, 5000, NaN, 'x', undefined, '10'].map(clampPollMinutes),
      [5, 1, 1, 1, 1, 90, 1440, 5, 5, 5, 10],
    );
  });

  it('doubles the delay after each failure up to 30 minutes', () => {
    const five = [0, 1, 2, 3, 4, 5].map((f) => pollDelayMs(5 * MINUTE, f) / MINUTE);
    assert.deepStrictEqual(five, [5, 10, 20, 30, 30, 30]);
    assert.deepStrictEqual(
      [0, 1, 2, 3, 4, 5, 6].map((f) => pollDelayMs(MINUTE, f) / MINUTE),
      [1, 2, 4, 8, 16, 30, 30],
    );
    // an interval over 30 min is never shortened by the backoff cap
    assert.deepStrictEqual(
      [0, 1, 2].map((f) => pollDelayMs(60 * MINUTE, f) / MINUTE),
      [60, 60, 60],
    );
    // never faster than once a minute, whatever the caller passes
    assert.strictEqual(pollDelayMs(1000, 0), MINUTE);
    assert.strictEqual(pollDelayMs(50_000, 1000), 30 * MINUTE);
  });

  it('never undercuts a Retry-After', () => {
    assert.strictEqual(pollDelayMs(MINUTE, 1, 10 * MINUTE), 10 * MINUTE);
    assert.strictEqual(pollDelayMs(5 * MINUTE, 1, 1000), 10 * MINUTE);
  });
});

describe('status model: worse', () => {
  it('ranks the indicators; unknown values between operational and minor', () => {
    assert.deepStrictEqual(
      ['none', 'maintenance', 'minor', 'major', 'critical', 'odd'].map(indicatorRank),
      [0, 1, 2, 3, 4, 1],
    );
  });

  it('is worse only on a higher rank, never on the first result', () => {
    assert.strictEqual(isWorse(undefined, 'critical'), false);
    assert.strictEqual(isWorse('none', 'minor'), true);
    assert.strictEqual(isWorse('minor', 'major'), true);
    assert.strictEqual(isWorse('major', 'critical'), true);
    assert.strictEqual(isWorse('none', 'maintenance'), true);
    assert.strictEqual(isWorse('major', 'minor'), false);
    assert.strictEqual(isWorse('minor', 'minor'), false);
    assert.strictEqual(isWorse('maintenance', 'none'), false);
  });
});

describe('status model: polling', () => {
  it('polls at once, then every interval, and reports worsening but not on the first poll', async () => {
    const { clock, model, calls, worse } = setup(['major', 'major', 'none', 'minor']);
    model.start();
    await settle();
    assert.strictEqual(calls.length, 1);
    assert.strictEqual(model.state.summary?.status.indicator, 'major');
    assert.strictEqual(worse.length, 0, 'no notification for the first answer, however bad');
    assert.deepStrictEqual(clock.pending, [5 * MINUTE]);
    await clock.advance(5 * MINUTE);
    assert.strictEqual(calls.length, 2);
    await clock.advance(5 * MINUTE);
    assert.strictEqual(model.state.summary?.status.indicator, 'none');
    assert.strictEqual(worse.length, 0);
    await clock.advance(5 * MINUTE);
    assert.deepStrictEqual(
      worse.map((w) => [w.previous, w.next]),
      [['none', 'minor']],
    );
    assert.strictEqual(model.state.polls, 4);
    model.dispose();
  });

  it('backs off on failures, keeps the last summary, and comes back to the interval on success', async () => {
    const down = new ApiError({
      kind: 'dns',
      message: 'The host name status.hedera.com could not be found (DNS lookup failed).',
    });
    const { clock, model, calls } = setup(['none', down, down, down, down, 'none']);
    model.start();
    await settle();
    const delays: number[] = [];
    for (let i = 0; i < 5; i++) {
      delays.push(clock.pending[0] / MINUTE);
      await clock.advance(clock.pending[0]);
      if (i < 4) assert.strictEqual(model.state.error, down);
    }
    assert.deepStrictEqual(delays, [5, 10, 20, 30, 30]);
    assert.strictEqual(calls.length, 6);
    assert.strictEqual(model.state.error, undefined);
    assert.strictEqual(model.state.failures, 0);
    assert.deepStrictEqual(clock.pending, [5 * MINUTE]);
    model.dispose();
  });

  it('keeps the last summary through a failure (shown as last known)', async () => {
    const { model } = setup(['minor', new Error('boom')]);
    await model.refresh();
    await model.refresh();
    assert.strictEqual(model.state.summary?.status.indicator, 'minor');
    assert.strictEqual((model.state.error as Error).message, 'boom');
    assert.strictEqual(model.state.failures, 1);
  });

  it('waits at least Retry-After after a 429', async () => {
    const limited = new ApiError({ kind: 'http', status: 429, message: 'limited', retryAfterMs: 45 * MINUTE });
    const { clock, model } = setup([limited], 1);
    await model.refresh();
    assert.deepStrictEqual(clock.pending, [45 * MINUTE]);
  });

  it('shares a poll in flight: refresh while polling sends no second request', async () => {
    const { model, calls } = setup(['none']);
    const a = model.refresh();
    const b = model.refresh();
    assert.strictEqual(a, b);
    assert.strictEqual(model.state.loading, true);
    await a;
    assert.strictEqual(calls.length, 1);
    assert.strictEqual(model.state.loading, false);
  });

  it('a manual refresh replaces the scheduled poll', async () => {
    const { clock, model, calls } = setup(['none']);
    model.start();
    await settle();
    await clock.advance(2 * MINUTE);
    await model.refresh();
    assert.strictEqual(calls.length, 2);
    assert.deepStrictEqual(clock.pending, [5 * MINUTE]);
  });

  it('reschedules when the interval setting changes', async () => {
    let minutes = 5;
    const clock = new Clock();
    const model = new StatusModel({
      fetch: async () => sum('none'),
      intervalMs: () => minutes * MINUTE,
      now: () => clock.now,
      timers: clock,
    });
    model.start();
    await settle();
    await clock.advance(MINUTE);
    minutes = 1;
    model.reschedule();
    assert.deepStrictEqual(clock.pending, [0], 'one minute after the last poll is now');
    minutes = 10;
    model.reschedule();
    assert.deepStrictEqual(clock.pending, [9 * MINUTE]);
    model.dispose();
    assert.deepStrictEqual(clock.pending, []);
  });

  it('a network change aborts the poll in flight, forgets the page and polls at once (no "worse" across pages)', async () => {
    const clock = new Clock();
    const answers: Indicator[] = ['none', 'major', 'major'];
    const calls: AbortSignal[] = [];
    let release: (() => void) | undefined;
    const model = new StatusModel({
      fetch: (signal) => {
        calls.push(signal);
        const n = calls.length;
        if (n === 2)
          return new Promise((resolve) => {
            release = () => resolve(sum('critical'));
          });
        return Promise.resolve(sum(answers[n - 1]));
      },
      intervalMs: () => 5 * MINUTE,
      now: () => clock.now,
      timers: clock,
    });
    const worse: Worsening[] = [];
    model.onDidWorsen((w) => worse.push(w));
    await model.refresh();
    const slow = model.refresh();
    await settle();
    const gen = model.state.generation;
    await model.reset(false);
    assert.strictEqual(calls[1].aborted, true);
    release?.();
    await slow;
    assert.strictEqual(model.state.generation, gen + 1);
    assert.strictEqual(model.state.summary?.status.indicator, 'major');
    assert.strictEqual(worse.length, 0, "the new page's first answer is not compared with the old page");
    assert.strictEqual(calls.length, 3);
    model.dispose();
  });

  it('the same page after a reset keeps its rows and its baseline', async () => {
    const { model, worse } = setup(['none', 'major']);
    await model.refresh();
    const p = model.reset(true);
    assert.strictEqual(model.state.summary?.status.indicator, 'none', 'rows kept while re-reading');
    await p;
    assert.deepStrictEqual(
      worse.map((w) => [w.previous, w.next]),
      [['none', 'major']],
    );
  });

  it('a synchronous throw from fetch is a failure, not a stuck poll', async () => {
    let n = 0;
    const model = new StatusModel({
      fetch: () => {
        n++;
        if (n === 1) throw new Error('sync');
        return Promise.resolve(sum('none'));
      },
      intervalMs: () => MINUTE,
      timers: new Clock(),
    });
    await model.refresh();
    assert.strictEqual((model.state.error as Error).message, 'sync');
    await model.refresh();
    assert.strictEqual(n, 2);
    assert.strictEqual(model.state.error, undefined);
  });

  it('dispose() aborts the poll in flight: its late answer changes nothing and schedules nothing', async () => {
    const clock = new Clock();
    let release: (() => void) | undefined;
    const calls: AbortSignal[] = [];
    const model = new StatusModel({
      fetch: (signal) => {
        calls.push(signal);
        return new Promise((resolve) => {
          release = () => resolve(sum('major'));
        });
      },
      intervalMs: () => 5 * MINUTE,
      now: () => clock.now,
      timers: clock,
    });
    let changes = 0;
    model.onDidChange(() => {
      changes++;
    });
    const poll = model.refresh();
    await settle();
    assert.strictEqual(model.state.loading, true);
    const seen = changes;
    model.dispose();
    assert.strictEqual(calls[0].aborted, true);
    release?.();
    await poll;
    assert.strictEqual(model.state.summary, undefined, 'the late answer is dropped');
    assert.strictEqual(changes, seen, 'no change fired after dispose');
    assert.deepStrictEqual(clock.pending, [], 'no next poll scheduled');
    await model.refresh();
    assert.strictEqual(calls.length, 1, 'a disposed model polls no more');
  });

  it('a failing listener does not stop the others', async () => {
    const { model } = setup(['none']);
    let seen = 0;
    model.onDidChange(() => {
      throw new Error('listener');
    });
    model.onDidChange(() => {
      seen++;
    });
    await model.refresh();
    assert.ok(seen >= 2);
  });
});

describe('status model: polls only while shown', () => {
  it('pause stops the schedule; resume polls at once when the last answer is older than the interval', async () => {
    const { clock, model, calls } = setup(['none']);
    model.start();
    await settle();
    assert.strictEqual(calls.length, 1);
    model.pause();
    assert.deepStrictEqual(clock.pending, [], 'no poll scheduled while paused');
    assert.strictEqual(model.state.nextPollAt, undefined);
    await clock.advance(60 * MINUTE);
    assert.strictEqual(calls.length, 1, 'nothing polled while paused');
    model.resume();
    await clock.advance(0);
    assert.strictEqual(calls.length, 2, 'overdue: polled on resume');
    assert.deepStrictEqual(clock.pending, [5 * MINUTE]);
  });

  it('resume within the interval keeps the schedule of the last answer; a network reset while paused polls nothing', async () => {
    const { clock, model, calls } = setup(['none']);
    model.start();
    await settle();
    model.pause();
    await clock.advance(2 * MINUTE);
    model.resume();
    await settle();
    assert.strictEqual(calls.length, 1);
    assert.deepStrictEqual(clock.pending, [3 * MINUTE]);
    model.pause();
    await model.reset(false);
    assert.strictEqual(calls.length, 1, 'reset while paused: no request');
    model.resume();
    await settle();
    assert.strictEqual(calls.length, 2, 'nothing known after the reset: polled on resume');
  });

  it('a model paused before it ever started polls nothing until resumed', async () => {
    const { clock, model, calls } = setup(['none']);
    model.pause();
    await clock.advance(30 * MINUTE);
    assert.strictEqual(calls.length, 0);
    model.resume();
    await settle();
    assert.strictEqual(calls.length, 1);
  });
});
