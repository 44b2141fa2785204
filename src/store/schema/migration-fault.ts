/**
 * TEST-ONLY fault injection, for test/e2e/upgrades.e2e-spec.ts; never set it in production. In the style of
 * src/store/publish/fault-injection.ts: it kills this process with SIGKILL (no `finally`, no cleanup: a real crash)
 *   MIGRATE_FAULT_AFTER_STATEMENT=V:N   right after the N-th statement of migration V (its first run in this
 *                                        process: on a `distributed` cluster, on its first node; the others,
 *                                        migrated beside it, stop wherever they are).
 */
export const MIGRATE_FAULT_VARIABLE = 'MIGRATE_FAULT_AFTER_STATEMENT';

/** The `V:N` of the fault variable: a migration version and a statement count, both positive; otherwise no fault. */
export function migrationFault(value: string | undefined): { version: number; statement: number } | undefined {
  const match = /^\s*(\d+):(\d+)\s*$/.exec(value ?? '');
  if (!match) return undefined;
  const [version, statement] = [Number(match[1]), Number(match[2])];
  return version > 0 && statement > 0 ? { version, statement } : undefined;
}

/** Dies if `statement` (1-based) of migration `version` is the configured fault point. */
export function crashIfMigrationFault(version: number, statement: number, env: NodeJS.ProcessEnv = process.env): void {
  const fault = migrationFault(env[MIGRATE_FAULT_VARIABLE]);
  if (fault && fault.version === version && fault.statement === statement) process.kill(process.pid, 'SIGKILL');
}
