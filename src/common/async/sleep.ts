/** Resolves after `ms` milliseconds: the wait between two polls. */
export function sleep(ms: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, ms));
}
