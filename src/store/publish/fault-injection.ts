import { sleep } from '../../common/async/sleep';

/**
 * TEST-ONLY fault injection, for test/e2e/ingest-crash-recovery.e2e-spec.ts; never set these in
 * production. They kill this process with SIGKILL (no `finally`, no cleanup: a real crash):
 *   INGEST_FAULT_AFTER_SWAPS=N     right after an import's N-th partition swap into cost_line_items;
 *   INGEST_FAULT_AFTER_RESTORES=N  right after a rollback's N-th partition restore;
 *   INGEST_FAULT_AFTER_PUBLISHES=N right after an import's N-th publish, before its projections are built.
 * And one pause (test/e2e/backups.e2e-spec.ts catches an import publishing):
 *   INGEST_PAUSE_AFTER_SWAPS=N:MS  sleeps MS milliseconds right after the N-th swap.
 */
export type FaultPoint = 'swap' | 'restore' | 'publish';

const VARIABLES: Record<FaultPoint, string> = {
  swap: 'INGEST_FAULT_AFTER_SWAPS',
  restore: 'INGEST_FAULT_AFTER_RESTORES',
  publish: 'INGEST_FAULT_AFTER_PUBLISHES',
};

const passed: Record<FaultPoint, number> = { swap: 0, restore: 0, publish: 0 };

/** Counts one pass of `point` in this process and dies if that was the configured N-th. */
export function crashIfInjected(point: FaultPoint, env: NodeJS.ProcessEnv = process.env): void {
  passed[point] += 1;
  const after = injectedFaultCount(env[VARIABLES[point]]);
  if (after !== undefined && passed[point] === after) process.kill(process.pid, 'SIGKILL');
}

/** The N of a fault variable: a positive whole number, otherwise no fault (undefined). */
export function injectedFaultCount(value: string | undefined): number | undefined {
  if (value === undefined || !/^\d+$/.test(value.trim())) return undefined;
  const count = Number(value);
  return count > 0 ? count : undefined;
}

/** Sleeps as INGEST_PAUSE_AFTER_SWAPS says when this process has just done that many swaps. */
export async function pauseIfInjected(env: NodeJS.ProcessEnv = process.env): Promise<void> {
  const [after, ms] = (env.INGEST_PAUSE_AFTER_SWAPS ?? '').split(':').map((part) => injectedFaultCount(part));
  if (after !== undefined && ms !== undefined && passed.swap === after) await sleep(ms);
}
