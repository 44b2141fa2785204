/**
 * When a failed budget-alert webhook is tried again: delays growing threefold from 10 s to at most an hour, for up
 * to a day after the first attempt; a delivery that has not succeeded by then is dead-lettered.
 */

const MAX_DELAY_SECONDS = 3600;
const RETRY_WINDOW_MS = 24 * 3600 * 1000;

/** The wait after `failedAttempts` (≥ 1) failures: base·3^(n−1) seconds, at most an hour (10, 30, 90 … 2430, 3600). */
export function retryDelaySeconds(failedAttempts: number, baseSeconds = 10): number {
  if (!Number.isInteger(failedAttempts) || failedAttempts < 1)
    throw new RangeError(`failedAttempts must be a whole number ≥ 1: ${failedAttempts}`);
  return Math.min(baseSeconds * 3 ** (failedAttempts - 1), MAX_DELAY_SECONDS);
}

/** When to try again after the last failed attempt; undefined once that would be more than 24 h after the first (dead letter). */
export function nextAttemptAt(firstAttemptAt: Date, lastAttemptAt: Date, failedAttempts: number, baseSeconds = 10): Date | undefined {
  const next = lastAttemptAt.getTime() + retryDelaySeconds(failedAttempts, baseSeconds) * 1000;
  return next > firstAttemptAt.getTime() + RETRY_WINDOW_MS ? undefined : new Date(next);
}
