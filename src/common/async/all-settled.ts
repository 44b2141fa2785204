/**
 * The values of all the promises, once every one has settled; when one failed, the first failure, thrown only once
 * they all have (Promise.all would return at the first, leaving the others running: past a fence, past a cleanup).
 */
export async function allSettled<T>(promises: readonly Promise<T>[]): Promise<T[]> {
  const settled = await Promise.allSettled(promises);
  const failed = settled.find((outcome): outcome is PromiseRejectedResult => outcome.status === 'rejected');
  if (failed) throw failed.reason;
  return settled.map((outcome) => (outcome as PromiseFulfilledResult<T>).value);
}
