import { nextAttemptAt, retryDelaySeconds } from './webhook-retry';

describe('webhook retries', () => {
  it('waits threefold longer after each failure, at most an hour', () => {
    const delays = Array.from({ length: 9 }, (_, index) => retryDelaySeconds(index + 1));
    expect(delays).toEqual([10, 30, 90, 270, 810, 2430, 3600, 3600, 3600]);
    expect(retryDelaySeconds(1000)).toBe(3600);
    expect([1, 2, 3].map((failures) => retryDelaySeconds(failures, 1))).toEqual([1, 3, 9]);
  });

  it('refuses a count of failures that is not a whole number ≥ 1', () => {
    for (const failures of [0, -1, 1.5, Number.NaN]) expect(() => retryDelaySeconds(failures)).toThrow(RangeError);
  });

  it('schedules the next attempt from the last one', () => {
    const first = new Date('2026-05-20T06:00:00Z');
    expect(nextAttemptAt(first, first, 1)).toEqual(new Date('2026-05-20T06:00:10Z'));
    expect(nextAttemptAt(first, new Date('2026-05-20T06:00:41Z'), 3)).toEqual(new Date('2026-05-20T06:02:11Z'));
  });

  it('gives up (dead letter) when the next attempt would start more than 24 h after the first', () => {
    const first = new Date('2026-05-20T06:00:00Z');
    expect(nextAttemptAt(first, new Date('2026-05-21T05:00:00Z'), 9)).toEqual(new Date('2026-05-21T06:00:00Z')); // exactly 24 h
    expect(nextAttemptAt(first, new Date('2026-05-21T05:00:00.001Z'), 9)).toBeUndefined();
  });

  it('makes 29 attempts in a day when every one fails at once: 7 within the first hour, then one an hour', () => {
    const first = new Date('2026-05-20T06:00:00Z');
    let attempts = 1;
    for (let next = nextAttemptAt(first, first, 1); next; next = nextAttemptAt(first, next, attempts)) attempts += 1;
    expect(attempts).toBe(1 + 6 + Math.floor((24 * 3600 - 3640) / 3600));
  });
});
