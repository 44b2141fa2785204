import { UUID_PATTERN } from '../common/validation/validators';
import { ClickhouseService } from '../infrastructure/clickhouse/clickhouse.service';
import { addDecimalStrings } from './decimal-text';
import { discoverFocusFiles, FocusFile, FocusIngestError, openFocusFile, readCsvHeader, withGlobFreePath } from './focus-files';
import {
  FOCUS_STAGING_COLUMNS,
  FOCUS_VALUE_CHECKS,
  focusMappingInsertSql,
  IMPORT_STATEMENT_SETTINGS,
  missingRequiredColumns,
  RAW_INPUT_SETTINGS,
  rawFileReportSql,
  rawFileSumsSql,
  rawStagingTableSql,
  ROW_NUMBER_COLUMN,
  sqlString,
} from './focus-mapping';
import { readImportStates, recoverInterruptedImports } from './import-journal';
import { IMPORT_TABLE_PREFIX, newImportId, parseImportTableName, rawTableName } from './import-tables';
import { publishPartitions } from './partition-publish';
import { watchProcessReadBytes } from './process-read-bytes';

export interface IngestFocusOptions {
  /** Files and/or directories of export parts. */
  paths: string[];
  organizationId: string;
  /** One integration id for every row; default: derived per row from provider + billing account. */
  integrationId?: string;
  onProgress?: (progress: IngestProgress) => void;
}

export interface IngestProgress {
  phase: 'loading' | 'loaded' | 'publishing';
  file: string;
  fileIndex: number;
  files: number;
  /** Bytes of the current file read so far (compressed size for .gz); whole-file granularity when embedded. */
  fileBytesRead: number;
  fileBytes: number;
  /** Bytes of all files finished so far plus the current file's bytes read. */
  bytesRead: number;
  bytesTotal: number;
  /** Rows parsed and validated so far (finished files). */
  rows: number;
  elapsedMs: number;
}

/** One (integration, billing period) partition published by an import; it replaced any earlier one. */
export interface IngestedPartition {
  integrationId: string;
  billingPeriod: string;
  rows: number;
  billedCost: string;
  effectiveCost: string;
}

export interface IngestFocusSummary {
  organizationId: string;
  files: number;
  skippedFiles: string[];
  bytes: number;
  rows: number;
  billingPeriods: string[];
  integrationIds: string[];
  partitions: IngestedPartition[];
  /** Earlier imports that had died while publishing, rolled back before this one started. */
  rolledBackImports: string[];
  currencies: string[];
  /** Σ as loaded (Decimal(38,10) text, exact), over every row of every file. */
  sumBilledCost: string;
  sumEffectiveCost: string;
  sumListCost: string;
  elapsedMs: number;
  rowsPerSecond: number;
}

/**
 * Imports FOCUS exports for one organisation. ClickHouse parses and maps: each file goes into its
 * own raw staging table (read on this machine: streamed over HTTP to a server, through file() by
 * the embedded engine), is validated there, then mapped by one INSERT … SELECT into an import table
 * shaped like cost_line_items. Only when every file is in does the import replace, per
 * (organisation, integration, billing period) partition, the visible rows with
 * `ALTER TABLE … REPLACE PARTITION … FROM`, all or nothing even across a crash (partition-publish.ts,
 * import-journal.ts). A failure changes nothing visible; the staging tables are always dropped.
 */
export async function ingestFocus(clickhouse: ClickhouseService, options: IngestFocusOptions): Promise<IngestFocusSummary> {
  const started = Date.now();
  assertSingleServer(clickhouse);
  if (!UUID_PATTERN.test(options.organizationId)) throw new FocusIngestError(`--org must be a UUID, got "${options.organizationId}"`);
  if (options.integrationId !== undefined && !/^[\w.:\-/@]{1,200}$/.test(options.integrationId)) {
    throw new FocusIngestError(`--integration must be 1-200 characters of letters, digits and . : - / @ _`);
  }
  const { files, skipped } = await discoverFocusFiles(options.paths);
  if (files.length === 0) throw new FocusIngestError(`no CSV or Parquet export files in ${options.paths.join(', ')}`);
  // Fail fast: every CSV header is checked before anything is loaded (Parquet is checked once parsed).
  for (const file of files.filter((f) => f.format === 'CSVWithNames')) {
    assertRequiredColumns(file, await readCsvHeader(file));
  }

  // First put back what an import killed while publishing left half-replaced.
  const recovery = await recoverInterruptedImports(clickhouse);
  await dropAbandonedImportTables(clickhouse);
  const importId = newImportId();
  const importTable = clickhouse.table(importId);
  const costTable = clickhouse.table('cost_line_items');
  const bytesTotal = files.reduce((n, f) => n + f.bytes, 0);
  const rawTables: string[] = [];
  const sums = { billed: '0', effective: '0', list: '0' };
  const currencies = new Set<string>();
  let rows = 0;
  let bytesDone = 0;
  const progress = (phase: IngestProgress['phase'], index: number, fileBytesRead: number) =>
    options.onProgress?.({
      phase,
      file: files[Math.min(index, files.length - 1)].path,
      fileIndex: index,
      files: files.length,
      fileBytesRead,
      fileBytes: files[Math.min(index, files.length - 1)].bytes,
      bytesRead: bytesDone + fileBytesRead,
      bytesTotal,
      rows,
      elapsedMs: Date.now() - started,
    });

  await clickhouse.command(`CREATE TABLE ${importTable} AS ${costTable}`);
  try {
    for (const [index, file] of files.entries()) {
      const rawTable = clickhouse.table(rawTableName(importId, index));
      rawTables.push(rawTable);
      await clickhouse.command(rawStagingTableSql(rawTable));
      progress('loading', index, 0);
      await loadRawFile(clickhouse, file, rawTable, (read) => progress('loading', index, read));
      const fileRows = await validateRawFile(clickhouse, file, rawTable);
      const [fileSums] = await clickhouse.query<{ billed_cost: string; effective_cost: string; list_cost: string; currencies: string[] }>(
        rawFileSumsSql(rawTable),
      );
      sums.billed = addDecimalStrings(sums.billed, fileSums.billed_cost);
      sums.effective = addDecimalStrings(sums.effective, fileSums.effective_cost);
      sums.list = addDecimalStrings(sums.list, fileSums.list_cost);
      fileSums.currencies.filter((c) => c !== '').forEach((c) => currencies.add(c));
      await clickhouse.command(focusMappingInsertSql(importTable, rawTable), {
        organization_id: options.organizationId,
        integration_id: options.integrationId ?? '',
      });
      await clickhouse.command(`DROP TABLE IF EXISTS ${rawTable}`);
      rows += fileRows;
      bytesDone += file.bytes;
      progress('loaded', index, 0);
    }

    const partitions = await clickhouse.query<{
      partition_id: string;
      integration_id: string;
      billing_period: string;
      row_count: string;
      billed_cost: string;
      effective_cost: string;
    }>(
      `SELECT _partition_id AS partition_id, integration_id, billing_period, toString(count()) AS row_count,
              toString(sum(billed_cost)) AS billed_cost, toString(sum(amortized_cost)) AS effective_cost
       FROM ${importTable} GROUP BY partition_id, integration_id, billing_period ORDER BY billing_period, integration_id
       ${IMPORT_STATEMENT_SETTINGS}`,
    );
    const mappedRows = partitions.reduce((n, p) => n + Number(p.row_count), 0);
    if (mappedRows !== rows) throw new FocusIngestError(`internal check failed: ${rows} rows parsed but ${mappedRows} mapped`);

    // Publish: every (organisation, integration, billing period) partition of the import, all or nothing.
    progress('publishing', files.length - 1, 0);
    await publishPartitions(clickhouse, {
      importId,
      organizationId: options.organizationId,
      partitions: partitions.map((p) => ({ partitionId: p.partition_id, integrationId: p.integration_id })),
    });

    const elapsedMs = Date.now() - started;
    return {
      organizationId: options.organizationId,
      files: files.length,
      skippedFiles: skipped,
      bytes: bytesTotal,
      rows,
      billingPeriods: [...new Set(partitions.map((p) => p.billing_period))].sort(),
      integrationIds: [...new Set(partitions.map((p) => p.integration_id))].sort(),
      partitions: partitions.map((p) => ({
        integrationId: p.integration_id,
        billingPeriod: p.billing_period,
        rows: Number(p.row_count),
        billedCost: p.billed_cost,
        effectiveCost: p.effective_cost,
      })),
      rolledBackImports: recovery.rolledBack.map((interrupted) => interrupted.importId),
      currencies: [...currencies].sort(),
      sumBilledCost: sums.billed,
      sumEffectiveCost: sums.effective,
      sumListCost: sums.list,
      elapsedMs,
      rowsPerSecond: elapsedMs > 0 ? Math.round((rows * 1000) / elapsedMs) : rows,
    };
  } finally {
    for (const table of [...rawTables, importTable]) {
      await clickhouse.command(`DROP TABLE IF EXISTS ${table}`).catch(() => undefined);
    }
  }
}

/** An import's tables older than this belong to a process that died before its own cleanup ran. */
export const ABANDONED_IMPORT_AFTER_MS = 24 * 3600 * 1000;

/**
 * Drops the tables of imports that were killed (a finished or failed import drops its own): those of
 * an import the journal shows finished (committed or rolled back), and those older than
 * ABANDONED_IMPORT_AFTER_MS of an import it does not know (killed before publishing), so a concurrent
 * import keeps its tables. Never those of an import still 'swapping': recovery needs its backup.
 * Returns the names dropped.
 */
export async function dropAbandonedImportTables(clickhouse: ClickhouseService, now = Date.now()): Promise<string[]> {
  const tables = await clickhouse.query<{ name: string }>(
    `SELECT name FROM system.tables WHERE database = {database:String} AND startsWith(name, {prefix:String})`,
    { database: clickhouse.database, prefix: IMPORT_TABLE_PREFIX },
  );
  const importTables = tables.flatMap(({ name }) => {
    const parsed = parseImportTableName(name);
    return parsed ? [{ name, ...parsed }] : [];
  });
  const states = await readImportStates(clickhouse, [...new Set(importTables.map((table) => table.importId))]);
  const abandoned = importTables
    .filter(({ importId, startedAt }) => {
      const state = states.get(importId);
      return state === 'committed' || state === 'rolled_back' || (state === undefined && now - startedAt > ABANDONED_IMPORT_AFTER_MS);
    })
    .map(({ name }) => name);
  for (const name of abandoned) await clickhouse.command(`DROP TABLE IF EXISTS ${clickhouse.table(name)}`);
  return abandoned;
}

/**
 * Staging tables and REPLACE PARTITION act on one server's local tables; a sharded cluster
 * (CLICKHOUSE_CLUSTER) would need them on the organisation's shard, which this importer does not do.
 */
export function assertSingleServer(clickhouse: ClickhouseService): void {
  if ((clickhouse as { cluster?: string }).cluster) {
    throw new FocusIngestError('FOCUS import supports the embedded engine and a single ClickHouse server, not CLICKHOUSE_CLUSTER');
  }
}

function assertRequiredColumns(file: FocusFile, columns: string[]): void {
  const missing = missingRequiredColumns(columns);
  if (missing.length > 0) {
    throw new FocusIngestError(`${file.path}: not a FOCUS cost export, missing required column(s): ${missing.join(', ')}`);
  }
}

/**
 * Sends one file to the raw table, read on this machine: the embedded engine reads it directly
 * (file(), which also decompresses gzip), a server receives it streamed over HTTP. Either way the
 * bytes read are reported live. (The chDB
 * connection's client.insert would buffer a stream into one UTF-8 string, which breaks Parquet.)
 */
async function loadRawFile(
  clickhouse: ClickhouseService,
  file: FocusFile,
  rawTable: string,
  onBytes: (read: number) => void,
): Promise<void> {
  try {
    if (clickhouse.embedded) {
      // The engine reads the file inside this process: its read bytes are the live progress.
      const stopWatching = watchProcessReadBytes((read) => onBytes(Math.min(read, file.bytes)));
      try {
        await withGlobFreePath(file, (globFreePath) => loadRawFileEmbedded(clickhouse, file, globFreePath, rawTable));
      } finally {
        stopWatching();
      }
      onBytes(file.bytes);
    } else {
      await clickhouse.insertStream(rawTable, openFocusFile(file, onBytes), file.format, RAW_INPUT_SETTINGS);
    }
  } catch (error) {
    throw new FocusIngestError(
      `${file.path}: cannot be parsed as ${file.format === 'Parquet' ? 'Parquet' : 'CSV'}: ${parseErrorSummary(error, file)}`,
    );
  }
}

/** ClickHouse's parse error in one line, its data row turned into the file's line number. */
function parseErrorSummary(error: unknown, file: FocusFile): string {
  const message = (error instanceof Error ? error.message : String(error)).split('\n')[0];
  const row = /\(at row (\d+)\)/.exec(message);
  const where = row ? (file.format === 'CSVWithNames' ? `line ${Number(row[1]) + 1}: ` : `row ${row[1]}: `) : '';
  return `${where}${message.replace(/:?\s*\(at row \d+\).*$/, '').slice(0, 300)}`;
}

/**
 * Embedded engine: ClickHouse reads the file itself through the file() table function, at a path
 * without glob characters (withGlobFreePath). Its columns come from the file's own header/schema;
 * only the staging columns it has are inserted (the others keep their absent marker), and
 * `_row_number` gives each row its position in the file. Settings go in the statement's SETTINGS
 * clause: the chDB connection would turn clickhouse_settings into session-wide SETs.
 */
async function loadRawFileEmbedded(clickhouse: ClickhouseService, file: FocusFile, globFreePath: string, rawTable: string): Promise<void> {
  const compression = file.gzip ? 'gzip' : 'none';
  const source = (structure: string) => `file('${sqlString(globFreePath)}', ${file.format}, '${sqlString(structure)}', '${compression}')`;
  const settings = Object.entries(RAW_INPUT_SETTINGS)
    .map(([name, value]) => `${name} = ${typeof value === 'number' ? value : `'${sqlString(value)}'`}`)
    .join(', ');
  const described = await clickhouse.query<{ name: string }>(
    `DESCRIBE TABLE ${source('auto')} SETTINGS ${settings}, input_format_max_rows_to_read_for_schema_inference = 100,
       input_format_csv_use_best_effort_in_schema_inference = 0`,
  );
  const names = new Set(described.map((column) => column.name));
  const present = FOCUS_STAGING_COLUMNS.filter((column) => names.has(column));
  assertRequiredColumns(file, [...names]);
  const structure = present.map((column) => `${column} Nullable(String)`).join(', ');
  await clickhouse.command(
    `INSERT INTO ${rawTable} (${[...present, ROW_NUMBER_COLUMN].join(', ')})
     SELECT ${present.join(', ')}, _row_number FROM ${source(structure)}
     SETTINGS ${settings}`,
  );
}

interface RawFileReport {
  row_count: string;
  [key: string]: unknown;
}

/** Refuses a file that lacks required columns or holds unparsable values, naming file, line and value. */
async function validateRawFile(clickhouse: ClickhouseService, file: FocusFile, rawTable: string): Promise<number> {
  const [report] = await clickhouse.query<RawFileReport>(rawFileReportSql(rawTable));
  const rowCount = Number(report.row_count);
  if (rowCount === 0) return 0;
  const present = FOCUS_STAGING_COLUMNS.filter((c) => !isTrue(report[`absent_${c}`]));
  assertRequiredColumns(file, present);
  const problems: string[] = [];
  FOCUS_VALUE_CHECKS.forEach((check, i) => {
    const failing = Number(report[`check${i}_rows`]);
    if (failing === 0) return;
    const row = Number(report[`check${i}_first_row`]);
    // CSV: header is line 1, so data row n (0-based) is line n + 2 when no field spans lines.
    const where = file.format === 'CSVWithNames' ? `line ${row + 2}` : `row ${row + 1}`;
    const value = report[`check${i}_value`];
    const shown = value === null || value === undefined ? 'empty' : JSON.stringify(String(value).slice(0, 80));
    problems.push(
      `${file.path}:${where}: ${check.column} ${check.problem} (${shown})${failing > 1 ? `; ${failing - 1} more row(s) like it` : ''}`,
    );
  });
  if (problems.length > 0) throw new FocusIngestError(`unparsable values, nothing was imported:\n  ${problems.join('\n  ')}`);
  return rowCount;
}

function isTrue(value: unknown): boolean {
  return value === true || value === 1 || value === '1' || value === 'true';
}

/** Thrown for bad input or a refused import; its message is meant for the operator. */
export { FocusIngestError };
