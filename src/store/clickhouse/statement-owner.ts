import { AsyncLocalStorage } from 'node:async_hooks';

/**
 * Whose statements a request's reads are: the API key's id, set for the whole handling of a request
 * (src/auth/statement-owner.interceptor.ts), read by ClickhouseService to give each key of an
 * organisation its turn and its share of the organisation's queue (FairScheduler).
 */
const owners = new AsyncLocalStorage<string>();

/** Runs `work` (and everything it starts) as `owner`'s. */
export function runAsStatementOwner<T>(owner: string, work: () => T): T {
  return owners.run(owner, work);
}

/** The owner of the statements being read now; '' outside a request with a key. */
export function currentStatementOwner(): string {
  return owners.getStore() ?? '';
}
