/** The longest a worker waits between two checks of an unreachable source (unless the poll interval is longer). */
export const MAX_UNREACHABLE_BACKOFF_MS = 3_600_000;

/**
 * When the worker checks each source next: at every poll, except a source found unreachable twice or more in a
 * row, which waits twice as long after each failed check (poll, 2 × poll, 4 × poll, … up to an hour), so an endpoint
 * that is down is not hammered and its status says when it is tried again. A check that reaches it resets the wait.
 */
export class CheckSchedule {
  private readonly unreachable = new Map<string, { failures: number; nextMs: number }>();

  constructor(private readonly pollMs: number) {}

  /** Whether the worker's round at `nowMs` checks the source. */
  isDue(sourceId: string, nowMs: number): boolean {
    const state = this.unreachable.get(sourceId);
    return state === undefined || nowMs >= state.nextMs;
  }

  /** The wait after one more failed check in a row (what the check's status says). */
  retryAfterFailureMs(sourceId: string): number {
    return backoffMs((this.unreachable.get(sourceId)?.failures ?? 0) + 1, this.pollMs);
  }

  /** Records a check's result: unreachable or not. */
  checked(sourceId: string, unreachable: boolean, nowMs: number): void {
    if (!unreachable) {
      this.unreachable.delete(sourceId);
      return;
    }
    const failures = (this.unreachable.get(sourceId)?.failures ?? 0) + 1;
    this.unreachable.set(sourceId, { failures, nextMs: nowMs + backoffMs(failures, this.pollMs) });
  }
}

/** The wait after `failures` failed checks in a row: the poll interval doubled for each one after the first. */
export function backoffMs(failures: number, pollMs: number): number {
  const doubled = pollMs * 2 ** Math.min(Math.max(failures - 1, 0), 30);
  return Math.min(doubled, Math.max(pollMs, MAX_UNREACHABLE_BACKOFF_MS));
}
