/**
 * `npm run -s bench:backup -- [--rows N]`: how long a backup and a restore of the bench's estate take (embedded
 * engine, one process: the store and its restore drill in two databases of one data directory), and their size.
 *   1. generate the bench estate (scripts/bench/estate.ts) into a fresh store;
 *   2. `backup create` (full), then one billing period rewritten and `backup create --incremental`;
 *   3. `backup restore` of the incremental into an empty database (the base read through it), checked (CHECK TABLE);
 *   4. the restored store's cost rows and Σ billed cost against the source's.
 * Writes bench/results/<time>-backup.{json,md}. Wall times of one run on this machine, nothing else running.
 */
import { execFileSync } from 'node:child_process';
import { mkdirSync, rmSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { BackupService } from '../src/backup/backup.service';
import { loadConfig } from '../src/config/app-config';
import { ClickhouseService } from '../src/store/clickhouse/clickhouse.service';
import { migrate } from '../src/store/schema/migrator';
import { generateEstate } from './bench/estate';

const ROOT = resolve(__dirname, '..');
const WORK = join(ROOT, '.test-tmp', 'bench-backup');

async function main(): Promise<void> {
  const rows = Number(process.argv[process.argv.indexOf('--rows') + 1] || 10_000_000);
  if (!Number.isInteger(rows) || rows < 1) throw new Error('--rows takes a whole number');
  rmSync(WORK, { recursive: true, force: true });
  mkdirSync(WORK, { recursive: true });
  const settings = {
    ...process.env,
    CLICKHOUSE_URL: '',
    DATA_DIR: join(WORK, 'store'),
    BACKUP_DIR: join(WORK, 'backups'),
    CLICKHOUSE_MAX_EXECUTION_SECONDS: '3600',
    CLICKHOUSE_MAX_MEMORY_BYTES: '0',
  };
  const source = new ClickhouseService(loadConfig({ ...settings, CLICKHOUSE_DATABASE: 'bench_source' }));
  const drill = new ClickhouseService(loadConfig({ ...settings, CLICKHOUSE_DATABASE: 'bench_drill' }));
  const log = (message: string) => process.stderr.write(`${message}\n`);
  await migrate(source);
  let started = Date.now();
  await generateEstate(source, rows, log);
  const generatedMs = Date.now() - started;
  const backups = new BackupService(source, null, loadConfig({ ...settings, CLICKHOUSE_DATABASE: 'bench_source' }));

  started = Date.now();
  await backups.create({ name: 'full' }, log);
  const fullMs = Date.now() - started;
  // One billing period of one integration rewritten, as a re-import does (the incremental copies only its parts).
  await source.command(
    `ALTER TABLE ${source.table('cost_line_items')} UPDATE billed_cost = billed_cost * 2 WHERE billing_period = '2026-10' AND integration_id = 'aws-cur-main' SETTINGS mutations_sync = 2`,
  );
  started = Date.now();
  await backups.create({ name: 'incremental', incremental: true }, log);
  const incrementalMs = Date.now() - started;

  const restorer = new BackupService(drill, null, loadConfig({ ...settings, CLICKHOUSE_DATABASE: 'bench_drill' }));
  started = Date.now();
  const report = await restorer.restore('incremental', {}, log);
  const restoreMs = Date.now() - started;

  const totals = async (store: ClickhouseService) =>
    (
      await store.query<{ rows: string; billed: string }>(
        `SELECT toString(count()) AS rows, toString(sum(billed_cost)) AS billed FROM ${store.table('cost_line_items')}`,
      )
    )[0];
  const [before, after] = [await totals(source), await totals(drill)];
  if (before.rows !== after.rows || before.billed !== after.billed)
    throw new Error(`restored ${JSON.stringify(after)} ≠ source ${JSON.stringify(before)}`);
  const size = (name: string) => Number(execFileSync('du', ['-sb', join(WORK, 'backups', name)], { encoding: 'utf8' }).split('\t')[0]);
  const result = {
    rows,
    generatedSeconds: generatedMs / 1000,
    fullBackupSeconds: fullMs / 1000,
    incrementalBackupSeconds: incrementalMs / 1000,
    restoreSeconds: restoreMs / 1000,
    restoredRows: Number(after.rows),
    identicalSumBilledCost: after.billed,
    fullBackupBytes: size('full'),
    incrementalBackupBytes: size('incremental'),
    importsStoodDown: report.importsStoodDown.length,
  };
  const stamp = new Date().toISOString().replace(/[:.]/g, '-');
  mkdirSync(join(ROOT, 'bench', 'results'), { recursive: true });
  writeFileSync(join(ROOT, 'bench', 'results', `${stamp}-backup.json`), `${JSON.stringify(result, null, 2)}\n`);
  const mb = (bytes: number) => `${(bytes / 1_048_576).toFixed(1)} MiB`;
  writeFileSync(
    join(ROOT, 'bench', 'results', `${stamp}-backup.md`),
    [
      `# Backup and restore, ${rows.toLocaleString('en-US')} cost rows (embedded, one run, ${stamp})`,
      '',
      '| step | time | size |',
      '|---|---|---|',
      `| full backup | ${result.fullBackupSeconds.toFixed(1)} s | ${mb(result.fullBackupBytes)} |`,
      `| incremental backup (one billing period of one integration rewritten) | ${result.incrementalBackupSeconds.toFixed(1)} s | ${mb(result.incrementalBackupBytes)} |`,
      `| restore of the incremental into an empty database, checked (CHECK TABLE) | ${result.restoreSeconds.toFixed(1)} s | |`,
      '',
      `Restored ${result.restoredRows.toLocaleString('en-US')} rows, Σ billed cost ${result.identicalSumBilledCost} identical to the source's.`,
      '',
    ].join('\n'),
  );
  process.stdout.write(`${JSON.stringify(result, null, 2)}\n`);
  await source.onModuleDestroy();
  await drill.onModuleDestroy();
}

main().catch((error: unknown) => {
  process.stderr.write(`${error instanceof Error ? (error.stack ?? error.message) : String(error)}\n`);
  process.exit(1);
});
