import { exceededQueryBudget } from '../store/clickhouse/clickhouse-errors';
import { ClickhouseService } from '../store/clickhouse/clickhouse.service';
import { serveFile } from './file-server';
import { FocusFile, FocusIngestError, openFocusFile, readingPart, withGlobFreePath } from './focus-files';
import {
  COST_COLUMNS,
  FOCUS_INPUT_SETTINGS,
  FOCUS_SOURCE_STRUCTURE,
  FOCUS_VALUE_CHECKS,
  FocusSource,
  focusSelectSql,
  IMPORT_MEMORY_SETTINGS,
  missingRequiredColumns,
  reportBlockSql,
  reportedColumns,
  reportTotalsSql,
} from './focus-mapping';
import { settingsClause, sqlString } from '../store/statement-text';
import type { ImportInput } from '../store/publish/import-input';
import type { CostImport } from '../store/publish/publish-protocol';
import { watchProcessReadBytes } from './process-read-bytes';
import { messageOf } from '../common/errors/message-of';

/** The organisation and integration every row of the import gets (focusSelectSql's parameters). */
export interface ImportParameters {
  organization_id: string;
  /** '' derives it per row from provider and billing account. */
  integration_id: string;
  /** The ISO 4217 codes a row's BillingCurrency may be (CURRENCY_CODES). */
  currency_codes: string[];
}

/** One file read: its rows and exact reconciliation sums (Decimal text), and what the operator should know. */
export interface LoadedFile {
  rows: number;
  billedCost: string;
  effectiveCost: string;
  listCost: string;
  currencies: string[];
  warnings: string[];
}

/**
 * The import's input table and its two materialized views (import-input.ts), made from the mapping: focusSelectSql
 * over no rows gives the input's columns, reportBlockSql its report, COST_COLUMNS what the staging view keeps.
 */
export function createImportInput(costImport: CostImport, parameters: ImportParameters): Promise<ImportInput> {
  const schemaOnly: FocusSource = { from: `null('${FOCUS_SOURCE_STRUCTURE}')`, rowNumber: 'toUInt64(0)' };
  return costImport.createInput(
    { schemaOnlySelect: focusSelectSql(schemaOnly), reportSelect: reportBlockSql, costColumns: COST_COLUMNS },
    { ...parameters },
  );
}

/**
 * Reads one export file into the import, once, in bounded memory (IMPORT_MEMORY_SETTINGS), and checks its report:
 * a file that lacks required columns or holds unparsable values is refused, naming file, line (CSV) or row
 * (Parquet) and value; nothing is published then. How the file reaches ClickHouse:
 * - the embedded engine reads it itself (file(), which also decompresses gzip; row numbers `_row_number`);
 * - a server receives a CSV as the statement's body, decompressed here, streamed (input());
 * - a server reads a Parquet file from this process over HTTP with range requests (url(), file-server.ts); one that
 *   cannot reach this process receives it as the body instead, which it holds whole (said in a warning).
 */
export async function loadFile(
  clickhouse: ClickhouseService,
  target: ImportInput,
  file: FocusFile,
  parameters: ImportParameters,
  onBytes: (read: number) => void,
): Promise<LoadedFile> {
  await target.clearReport();
  const warnings: string[] = [];
  try {
    await readingPart(file, async (path) => {
      if (clickhouse.embedded) await loadEmbedded(clickhouse, target, file, path, parameters, onBytes);
      else if (file.format === 'CSVWithNames' || file.gzip) await loadBody(clickhouse, target, file, path, parameters, onBytes);
      else warnings.push(...(await loadServed(clickhouse, target, file, path, parameters, onBytes)));
    });
    onBytes(file.bytes);
  } catch (error) {
    throw loadFailure(error, file);
  }
  return { ...(await checkReport(clickhouse, target, file)), warnings };
}

/** A Parquet file the server reads from this process over HTTP (or, when it cannot reach it, as the body: a warning). */
async function loadServed(
  clickhouse: ClickhouseService,
  target: ImportInput,
  file: FocusFile,
  path: string,
  parameters: ImportParameters,
  onBytes: (read: number) => void,
): Promise<string[]> {
  const served = await serveFile(path, file.bytes, clickhouse.url!);
  const progress = setInterval(() => onBytes(served.bytesServed()), 250);
  try {
    if (await reaches(clickhouse, served.probeUrl)) {
      await insertFrom(clickhouse, target, { from: url(served.url, file), rowNumber: '_row_number' }, file, parameters);
      return [];
    }
    await loadBody(clickhouse, target, file, path, parameters, onBytes);
    return [
      `${file.name}: the ClickHouse server could not read it from this machine (${served.url.split('/').slice(0, 3).join('/')}), ` +
        'so it was sent as the request body, which the server holds whole while reading it (memory grows with the file)',
    ];
  } finally {
    clearInterval(progress);
    await served.close();
  }
}

/** The embedded engine reads the file inside this process: its read bytes are the live progress. */
async function loadEmbedded(
  clickhouse: ClickhouseService,
  target: ImportInput,
  file: FocusFile,
  path: string,
  parameters: ImportParameters,
  onBytes: (read: number) => void,
): Promise<void> {
  const stopWatching = watchProcessReadBytes((read) => onBytes(Math.min(read, file.bytes)));
  try {
    await withGlobFreePath(path, (globFree) =>
      insertFrom(
        clickhouse,
        target,
        {
          from: `file('${sqlString(globFree)}', ${file.format}, '${FOCUS_SOURCE_STRUCTURE}', '${file.gzip ? 'gzip' : 'none'}')`,
          rowNumber: '_row_number',
        },
        file,
        parameters,
        // Read with pread, not mmap: the process's memory then stays the engine's own, and its read bytes the progress.
        // `_row_number` of a CSV counts right only when one thread parses it in order (measured: off by one per chunk).
        { storage_file_read_method: 'pread', ...(file.format === 'CSVWithNames' ? { input_format_parallel_parsing: 0 } : {}) },
      ),
    );
  } finally {
    stopWatching();
  }
}

/** The file as the statement's body (gzip decompressed here), its rows numbered in the order they are parsed. */
async function loadBody(
  clickhouse: ClickhouseService,
  target: ImportInput,
  file: FocusFile,
  path: string,
  parameters: ImportParameters,
  onBytes: (read: number) => void,
): Promise<void> {
  const source: FocusSource = { from: `input('${FOCUS_SOURCE_STRUCTURE}')`, rowNumber: 'rowNumberInAllBlocks()' };
  // rowNumberInAllBlocks() counts rows in the order blocks arrive: Parquet row groups must then be read in file order
  // (file() and url() number them by their position, `_row_number`, whatever the order).
  const settings = await fileSettings(clickhouse, file.format === 'Parquet' ? { input_format_parquet_preserve_order: 1 } : {});
  await target.insertBody(focusSelectSql(source), settings, file.format, openFocusFile(file, path, onBytes), {
    ...parameters,
  });
}

/**
 * The rows of a small Parquet file (a dataset's, not line items), its `columns` as text (NULL where empty): read by
 * the embedded engine itself, or by a server from this process over HTTP (file-server.ts). A server that cannot reach
 * this process is refused with what to do instead: such a file is read whole, never sent as a body.
 */
export async function selectParquetText(
  clickhouse: ClickhouseService,
  file: FocusFile,
  path: string,
  columns: readonly string[],
): Promise<Array<Record<string, string | null>>> {
  const structure = columns.map((column) => `\`${column.replace(/`/g, '')}\` Nullable(String)`).join(', ');
  const settings = settingsClause(
    await clickhouse.knownSettings({ session_timezone: 'UTC', input_format_parquet_preserve_order: 1, max_threads: 1 }),
  );
  const select = (from: string) => clickhouse.query<Record<string, string | null>>(`SELECT * FROM ${from} ${settings}`);
  if (clickhouse.embedded)
    return withGlobFreePath(path, (globFree) => select(`file('${sqlString(globFree)}', Parquet, '${sqlString(structure)}')`));
  const served = await serveFile(path, file.bytes, clickhouse.url!);
  try {
    if (!(await reaches(clickhouse, served.probeUrl)))
      throw new FocusIngestError(`${file.name}: the ClickHouse server cannot read this Parquet file from this machine: export it as CSV`);
    return await select(`url('${sqlString(served.url)}', Parquet, '${sqlString(structure)}')`);
  } finally {
    await served.close();
  }
}

function url(location: string, file: FocusFile): string {
  return `url('${sqlString(location)}', ${file.format}, '${FOCUS_SOURCE_STRUCTURE}')`;
}

/** Whether the server can fetch a URL of this process (a firewall, or remote_url_allow_hosts, may say no). */
export async function reaches(clickhouse: ClickhouseService, probeUrl: string): Promise<boolean> {
  try {
    const [row] = await clickhouse.query<{ answer: string }>(`SELECT any(raw) AS answer FROM url({probe:String}, RawBLOB, 'raw String')`, {
      probe: probeUrl,
    });
    return row?.answer === 'ok';
  } catch {
    return false;
  }
}

async function insertFrom(
  clickhouse: ClickhouseService,
  target: ImportInput,
  source: FocusSource,
  file: FocusFile,
  parameters: ImportParameters,
  extra: Record<string, string | number> = {},
): Promise<void> {
  await target.insertFile(focusSelectSql(source), await fileSettings(clickhouse, extra), { ...parameters });
}

/**
 * The settings of one file's INSERT: the input, memory and time settings this server knows (an older one would refuse
 * the statement for an unknown setting), written in the statement itself (the embedded connection would make settings
 * given beside it session-wide).
 */
function fileSettings(clickhouse: ClickhouseService, extra: Record<string, string | number>): Promise<Record<string, string | number>> {
  return clickhouse.knownSettings({ ...FOCUS_INPUT_SETTINGS, ...IMPORT_MEMORY_SETTINGS, ...extra });
}

interface ReportTotals {
  file_rows: string;
  file_billed_cost: string;
  file_effective_cost: string;
  file_list_cost: string;
  file_currencies: string[];
  [key: string]: unknown;
}

/** Refuses a file that lacks required columns or holds unparsable values, naming file, line and value. */
async function checkReport(clickhouse: ClickhouseService, target: ImportInput, file: FocusFile): Promise<Omit<LoadedFile, 'warnings'>> {
  const [report] = await clickhouse.query<ReportTotals>(reportTotalsSql(target.report));
  const rows = Number(report?.file_rows ?? 0);
  if (rows > 0) {
    // A column with no value in any row is as good as absent (a CSV's header was checked before reading it).
    const missing = missingRequiredColumns(reportedColumns(report));
    if (missing.length > 0) {
      throw new FocusIngestError(`${file.name}: not a FOCUS cost export, missing required column(s): ${missing.join(', ')}`);
    }
  }
  const problems: string[] = [];
  FOCUS_VALUE_CHECKS.forEach((check, i) => {
    const failing = Number(report?.[`failing${i}`] ?? 0);
    if (failing === 0) return;
    const row = Number(report[`first_failing${i}`]);
    // CSV: header is line 1, so data row n (0-based) is line n + 2 when no field spans lines.
    const where = file.format === 'CSVWithNames' ? `line ${row + 2}` : `row ${row + 1}`;
    const value = report[`failing_value${i}`];
    const shown = value === null || value === undefined ? 'empty' : JSON.stringify(String(value).slice(0, 80));
    problems.push(
      `${file.name}:${where}: ${check.column} ${check.problem} (${shown})${failing > 1 ? `; ${failing - 1} more row(s) like it` : ''}`,
    );
  });
  if (problems.length > 0) throw new FocusIngestError(`unparsable values, nothing was imported:\n  ${problems.join('\n  ')}`);
  return {
    rows,
    billedCost: report?.file_billed_cost ?? '0',
    effectiveCost: report?.file_effective_cost ?? '0',
    listCost: report?.file_list_cost ?? '0',
    currencies: (report?.file_currencies ?? []).filter((currency) => currency !== ''),
  };
}

/**
 * Why a file could not be read, for the operator: a budget the server enforces (memory, time) says so and which
 * setting to raise; anything else is the file's own parse error.
 */
export function loadFailure(error: unknown, file: FocusFile): FocusIngestError {
  if (error instanceof FocusIngestError) return error;
  const budget = exceededQueryBudget(error);
  if (budget) {
    return new FocusIngestError(
      `${file.name}: reading it exceeded the ${budget}; nothing was imported (raise the limit and import it again)`,
    );
  }
  return new FocusIngestError(
    `${file.name}: cannot be parsed as ${file.format === 'Parquet' ? 'Parquet' : 'CSV'}: ${parseErrorSummary(error, file)}`,
  );
}

/** ClickHouse's parse error in one line, its data row turned into the file's line number. */
function parseErrorSummary(error: unknown, file: FocusFile): string {
  const message = messageOf(error);
  const row = /\(at row (\d+)\)/.exec(message);
  const where = row ? (file.format === 'CSVWithNames' ? `line ${Number(row[1]) + 1}: ` : `row ${row[1]}: `) : '';
  return `${where}${message.replace(/:?\s*\(at row \d+\).*$/, '').slice(0, 300)}`;
}
