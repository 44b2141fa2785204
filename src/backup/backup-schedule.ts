import { ListedBackup } from './backup-location';

/** Scheduled backups are incremental on the newest complete one, except every FULL_EVERY-th, which is full. */
export const FULL_EVERY = 7;

/** What the worker takes now: a backup when the newest complete one of `database` is older than the interval. */
export function dueBackup(
  backups: ListedBackup[],
  database: string,
  nowMs: number,
  intervalMinutes: number,
): { incremental: boolean } | undefined {
  const complete = completeOf(backups, database);
  const newest = complete[0];
  if (!newest) return { incremental: false };
  if (nowMs - Date.parse(newest.manifest!.startedAt) < intervalMinutes * 60_000) return undefined;
  return { incremental: chain(newest, complete).length < FULL_EVERY };
}

/**
 * The backups retention deletes: complete ones of `database` beyond the newest `keep`, unless a kept one is built on
 * them (its base, transitively), and incomplete ones older than the newest complete one (failed or interrupted runs).
 * Backups of other databases are left alone.
 */
export function expiredBackups(backups: ListedBackup[], database: string, keep: number): string[] {
  const complete = completeOf(backups, database);
  const kept = new Set(complete.slice(0, keep).flatMap((backup) => chain(backup, complete).map((link) => link.name)));
  const newest = complete[0]?.manifest!.startedAt;
  return backups
    .filter((backup) =>
      backup.complete
        ? backup.manifest!.database === database && !kept.has(backup.name)
        : newest !== undefined && backup.modifiedAt < newest,
    )
    .map((backup) => backup.name);
}

function completeOf(backups: ListedBackup[], database: string): ListedBackup[] {
  return backups
    .filter((backup) => backup.complete && backup.manifest!.database === database)
    .sort((a, b) => b.manifest!.startedAt.localeCompare(a.manifest!.startedAt));
}

/** A backup and the bases it is built on, newest first (a missing base ends the chain). */
function chain(backup: ListedBackup, complete: ListedBackup[]): ListedBackup[] {
  const links = [backup];
  for (let base = backup.manifest!.base; base !== null && links.length <= complete.length;) {
    const found = complete.find((candidate) => candidate.name === base);
    if (!found) break;
    links.push(found);
    base = found.manifest!.base;
  }
  return links;
}
