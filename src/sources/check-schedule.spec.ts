import { backoffMs, CheckSchedule, MAX_UNREACHABLE_BACKOFF_MS } from './check-schedule';

describe('CheckSchedule', () => {
  const POLL = 300_000;

  it('waits the poll interval, then twice as long after each further unreachable check, up to an hour', () => {
    expect([1, 2, 3, 4, 5, 6].map((failures) => backoffMs(failures, POLL) / 1000)).toEqual([300, 600, 1200, 2400, 3600, 3600]);
    expect(backoffMs(40, 1000)).toBe(MAX_UNREACHABLE_BACKOFF_MS);
    // A poll interval longer than the cap is never shortened.
    expect(backoffMs(3, 2 * MAX_UNREACHABLE_BACKOFF_MS)).toBe(2 * MAX_UNREACHABLE_BACKOFF_MS);
  });

  it('skips an unreachable source until its wait is over, and checks it every round again once it answers', () => {
    const schedule = new CheckSchedule(POLL);
    expect(schedule.isDue('s', 0)).toBe(true);
    expect(schedule.retryAfterFailureMs('s')).toBe(POLL);
    schedule.checked('s', true, 0);
    expect([schedule.isDue('s', POLL - 1), schedule.isDue('s', POLL)]).toEqual([false, true]);
    expect(schedule.retryAfterFailureMs('s')).toBe(2 * POLL);
    schedule.checked('s', true, POLL);
    expect([schedule.isDue('s', 2 * POLL), schedule.isDue('s', 3 * POLL)]).toEqual([false, true]);
    expect(schedule.isDue('other', 2 * POLL)).toBe(true);
    schedule.checked('s', false, 3 * POLL);
    expect([schedule.isDue('s', 3 * POLL), schedule.retryAfterFailureMs('s')]).toEqual([true, POLL]);
  });
});
