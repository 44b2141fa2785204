import { sleep } from '../../common/async/sleep';
import { ClickhouseService } from '../clickhouse/clickhouse.service';
import { JOURNAL_TABLE, journalState, recoverInterruptedImports, SWAP_LEASE_SECONDS } from './import-journal';

/**
 * The fence between backups and imports (migration 0026, table backup_runs), so that an import is wholly in a
 * backup or not at all. A backup copies table after table, and an import's publish swaps partition after
 * partition: the two must not overlap. Each side writes its own row first and then looks for the other's:
 *   - a backup writes a 'running' row with a lease, then waits until no import is swapping;
 *   - an import waits while a backup runs, writes its 'swapping' journal row, then looks again: if a backup has
 *     begun meanwhile it steps back (its row 'rolled_back', nothing swapped yet) and waits for that backup.
 * Whichever wrote second sees the first (both read what the other wrote before looking), so they never both go
 * on; neither waits for the other while holding its own row, so they never wait for each other. A 'swapping' row
 * caught in a backup therefore never swapped anything (restore marks it rolled back: backup.service.ts).
 */
export const BACKUP_RUNS_TABLE = 'backup_runs';

/** A backup renews its lease a third of the way through it; one whose process died stops fencing after this. */
export const BACKUP_LEASE_SECONDS = 60;

const POLL_MS = 200;

const STATE_TYPE = "Enum8('running' = 1, 'created' = 2, 'failed' = 3)";
type BackupRunState = 'running' | 'created' | 'failed';

/** A running backup's lease is renewed for BACKUP_LEASE_SECONDS; an ended one's ends now. */
const leaseSecondsOf = (state: BackupRunState) => (state === 'running' ? BACKUP_LEASE_SECONDS : 0);

/** Records `state` (and its lease) for the backup runs `names`, each row otherwise as it was. */
async function updateBackupRuns(clickhouse: ClickhouseService, names: string[], state: BackupRunState, error = ''): Promise<void> {
  if (names.length === 0) return;
  const runs = clickhouse.table(BACKUP_RUNS_TABLE);
  await clickhouse.command(
    `INSERT INTO ${runs} SELECT * REPLACE (CAST({state:String} AS ${STATE_TYPE}) AS state,
                                          now64(3) + toIntervalSecond({lease:UInt32}) AS lease_expires_at,
                                          now64(6) AS updated_at, {error:String} AS error)
     FROM ${runs} FINAL WHERE name IN {names:Array(String)}`,
    { names, state, lease: leaseSecondsOf(state), error },
  );
}

/** Names of the backups running now (their lease not expired, by the server's clock). */
export async function runningBackups(clickhouse: ClickhouseService): Promise<string[]> {
  const rows = await clickhouse.query<{ name: string }>(
    `SELECT name FROM ${clickhouse.table(BACKUP_RUNS_TABLE)} FINAL WHERE state = 'running' AND lease_expires_at > now64(3) ORDER BY name`,
  );
  return rows.map((row) => row.name);
}

/** Returns once no backup runs (an import's publish calls this before its journal row, and again after it). */
export async function waitWhileBackupsRun(clickhouse: ClickhouseService): Promise<void> {
  while ((await runningBackups(clickhouse)).length > 0) await sleep(POLL_MS);
}

/** A backup's hold on the imports: while it is held, no import starts swapping. */
export class BackupFence {
  private readonly renewal: NodeJS.Timeout;

  private constructor(
    private readonly clickhouse: ClickhouseService,
    readonly name: string,
  ) {
    this.renewal = setInterval(() => void this.write('running').catch(() => undefined), (BACKUP_LEASE_SECONDS * 1000) / 3);
    this.renewal.unref();
  }

  /**
   * Holds the imports for the backup `name`: writes its running row, then waits until no import is swapping (one
   * whose process died is rolled back on the way). Imports still swapping after their lease plus a margin: refused.
   */
  static async hold(clickhouse: ClickhouseService, name: string, log: (message: string) => void): Promise<BackupFence> {
    const fence = new BackupFence(clickhouse, name);
    await fence.write('running');
    try {
      await fence.awaitNoSwapping(log);
    } catch (error) {
      await fence.release('failed', error instanceof Error ? error.message : String(error));
      throw error;
    }
    return fence;
  }

  /** Ends the hold, recording how the backup ended. */
  async release(state: 'created' | 'failed', error = ''): Promise<void> {
    clearInterval(this.renewal);
    await this.write(state, error);
  }

  private async awaitNoSwapping(log: (message: string) => void): Promise<void> {
    const deadline = Date.now() + (SWAP_LEASE_SECONDS + 30) * 1000;
    let told = false;
    for (;;) {
      const swapping = await swappingImports(this.clickhouse);
      if (swapping.length === 0) return;
      if (swapping.some((row) => Number(row.lease_expired) === 1)) await recoverInterruptedImports(this.clickhouse, log);
      if (!told) log(`Waiting for ${swapping.length} import(s) to finish publishing: ${swapping.map((row) => row.import_id).join(', ')}`);
      told = true;
      if (Date.now() > deadline) {
        throw new Error(
          `imports ${swapping.map((row) => row.import_id).join(', ')} are still publishing after ${SWAP_LEASE_SECONDS + 30} s; ` +
            'no backup was taken (try again, or run `ingest recover`)',
        );
      }
      await sleep(POLL_MS);
    }
  }

  private async write(state: BackupRunState, error = ''): Promise<void> {
    if (this.written) return updateBackupRuns(this.clickhouse, [this.name], state, error);
    await this.clickhouse.command(
      `INSERT INTO ${this.clickhouse.table(BACKUP_RUNS_TABLE)} (name, state, started_at, lease_expires_at, updated_at, error)
       SELECT {name:String}, {state:String}, now64(6), now64(3) + toIntervalSecond({lease:UInt32}), now64(6), {error:String}`,
      { name: this.name, state, lease: leaseSecondsOf(state), error },
    );
    this.written = true;
  }
  private written = false;
}

/**
 * Runs `work` with the imports' publishing fenced off (BackupFence, recorded under `name`): the run is recorded
 * 'created' once `work` has finished, 'failed' with the reason when it throws (and the error goes on). What a backup
 * and a tag-key back-fill hold while they copy or rewrite partitions.
 */
export async function fenced<T>(
  clickhouse: ClickhouseService,
  name: string,
  log: (message: string) => void,
  work: () => Promise<T>,
): Promise<T> {
  const fence = await BackupFence.hold(clickhouse, name, log);
  try {
    const result = await work();
    await fence.release('created');
    return result;
  } catch (error) {
    await fence.release('failed', error instanceof Error ? error.message : String(error)).catch(() => undefined);
    throw error;
  }
}

async function swappingImports(clickhouse: ClickhouseService): Promise<{ import_id: string; lease_expired: number | string }[]> {
  return clickhouse.query(
    `SELECT import_id, toUInt8(lease_expires_at < now64(3)) AS lease_expired
     FROM ${clickhouse.table(JOURNAL_TABLE)} FINAL WHERE state = 'swapping' ORDER BY import_id`,
  );
}

/**
 * Right after a restore: marks rolled back every import the backup caught 'swapping'. The fence guarantees such an
 * import had swapped nothing when the backup copied the store, and its process is not the restored store's.
 */
export async function standDownCaughtImports(clickhouse: ClickhouseService): Promise<string[]> {
  const caught = (await swappingImports(clickhouse)).map((row) => row.import_id);
  for (const importId of caught) await journalState(clickhouse, importId, 'rolled_back');
  return caught;
}

/**
 * Right after a restore: ends every backup the copy caught 'running' (the restored one always: it was copying
 * itself). Their processes ran on the store the backup was taken from, so their leases would only hold this store's
 * imports until they expired (up to BACKUP_LEASE_SECONDS). The restored backup is recorded 'created' (it was just
 * restored whole); any other, 'failed'. Returns their names.
 */
export async function endCaughtBackups(clickhouse: ClickhouseService, restored: string): Promise<string[]> {
  const caught = await clickhouse.query<{ name: string }>(
    `SELECT name FROM ${clickhouse.table(BACKUP_RUNS_TABLE)} FINAL WHERE state = 'running' ORDER BY name`,
  );
  const names = caught.map((row) => row.name);
  const others = names.filter((name) => name !== restored);
  if (names.includes(restored)) await updateBackupRuns(clickhouse, [restored], 'created');
  await updateBackupRuns(
    clickhouse,
    others,
    'failed',
    `running on the store backup ${restored} was taken from; its end is not in this store`,
  );
  return names;
}
