import { CURRENCY_CODES } from '../common/money/currency-codes';
import { messageOf } from '../common/errors/message-of';
import { ImportedInvoice, InvoiceChange, invoiceChanges } from '../store/publish/import-invoices';
import { UUID_PATTERN } from '../common/validation/patterns';
import { ClickhouseService } from '../store/clickhouse/clickhouse.service';
import { addDecimalStrings } from './decimal-text';
import { describePart, discoverFocusFiles, ExportPart, FocusFile, FocusIngestError, readCsvHeader, readingPart } from './focus-files';
import { createImportInput, ImportParameters, loadFile } from './focus-load';
import { missingRequiredColumns, StagedPartition, stagedPartitionsSql } from './focus-mapping';
import { CostImport, PublishProtocol, PublishRefusal } from '../store/publish/publish-protocol';
import {
  ContractCommitmentFile,
  isContractCommitmentDataset,
  readContractCommitmentFile,
  readContractCommitmentParquet,
} from './contract-commitment-dataset';
import { parquetColumnNames } from './parquet-columns';
import { filesKeyPresence } from './files-key-presence';
import type { KeysInForce } from '../store/activated-maps';
import type { KeyPresenceRow } from '../cost-query/key-presence.query';
import { checkContractCommitments, ImportedContracts, loadContractCommitments } from './contract-commitment-load';

export interface IngestFocusOptions {
  /** Files and/or directories of export parts (the operator's), or the parts a data source offers. */
  paths: string[] | ExportPart[];
  organizationId: string;
  /** One integration id for every row; default: derived per row from provider + billing account. */
  integrationId?: string;
  onProgress?: (progress: IngestProgress) => void;
  /**
   * Called once the files are checked, before any row is written (and before the import's tables are named): what
   * may change how rows are written, such as the tag keys a first import activates from its own files. It answers the
   * keys it activated and saw loaded on every node: the rows are written with them, so publishing rewrites nothing.
   */
  beforeWriting?: (files: FilesToWrite) => Promise<KeysInForce | void>;
}

/** An import's cost files, described before they are written. */
export interface FilesToWrite {
  /** Their tag and cost-category keys (files-key-presence.ts); undefined when the engine cannot tell before the load. */
  keyPresence(): Promise<KeyPresenceRow[] | undefined>;
}

export interface IngestProgress {
  /** The import's id: its staging tables' names and its import_journal entry carry it. */
  importId: string;
  /** `completing`: published (answered from now on), its partitions' projections being built. */
  phase: 'loading' | 'loaded' | 'publishing' | 'completing';
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
  /** Per invoice (integration × billing account × period × invoice × currency), as loaded: to reconcile with the provider's invoices. */
  invoices: ImportedInvoice[];
  /** The invoices a re-import of already imported periods changed (restatements): Σ BilledCost before → after. */
  restatedInvoices: InvoiceChange[];
  /** Earlier imports that had died while publishing, rolled back before this one started. */
  rolledBackImports: string[];
  /** What the operator should know about how the files were read (e.g. a file the server had to hold whole). */
  warnings: string[];
  currencies: string[];
  /** Σ as loaded (Decimal(38,10) text, exact), over every row of every file: one currency's only when `currencies` holds one. */
  sumBilledCost: string;
  sumEffectiveCost: string;
  sumListCost: string;
  /**
   * When the rows were answerable, in ms from the start: the publish ended. The partitions' projections (the
   * pre-aggregated summaries questions read first) were built after it, within `elapsedMs`.
   */
  publishedAfterMs: number;
  publishedRowsPerSecond: number;
  elapsedMs: number;
  rowsPerSecond: number;
  /** The FOCUS 1.3 Contract Commitment dataset's files of the import, when it had any: the contracts they replaced. */
  contracts?: ImportedContracts;
}

/**
 * Imports FOCUS exports for one organisation. ClickHouse parses and maps: each file is read once, in bounded
 * memory, into the import's input table (focus-load.ts), whose views write the mapped rows into a staging table
 * shaped like cost_line_items and a report that validates and reconciles the file. Only when every file is in
 * does the import replace, per (organisation, integration, billing period) partition, the visible rows with
 * `ALTER TABLE … REPLACE PARTITION … FROM`, all or nothing even across a crash (partition-publish.ts,
 * import-journal.ts). A failure changes nothing visible; the import's tables are always dropped.
 *
 * In five phases: prepare (what to read, where, after recovering what a dead import left), load (every file into
 * the staging table), verify (the staged rows per partition and invoice, against the files' reports), publish (the
 * partition swaps, after reading the invoices they replace) and summarise.
 */
export async function ingestFocus(clickhouse: ClickhouseService, options: IngestFocusOptions): Promise<IngestFocusSummary> {
  const started = Date.now();
  checkOptions(options);
  const { costFiles, contractFiles, skipped } = await datasetsOf(clickhouse, options.paths);
  if (costFiles.length === 0) {
    const contracts = await loadContractCommitments(clickhouse, options.organizationId, contractFiles);
    return contractsOnlySummary(options.organizationId, contractFiles, skipped, contracts, Date.now() - started);
  }
  // The dataset is checked whole before a cost row is written: a refusal then changes nothing.
  if (contractFiles.length > 0) await checkContractCommitments(clickhouse, options.organizationId, contractFiles);
  const keysInForce = await options.beforeWriting?.({
    keyPresence: () => filesKeyPresence(clickhouse, costFiles, importParameters(options)),
  });
  const prepared = await prepare(clickhouse, options, costFiles, skipped, keysInForce || []);
  let summary: IngestFocusSummary;
  try {
    const loaded = await load(clickhouse, prepared, started, options.onProgress);
    const staged = await verify(clickhouse, prepared, loaded);
    const progress = progressOf(prepared, loaded, started, options.onProgress);
    const replaced = await publish(clickhouse, prepared, staged, () => progress('publishing', prepared.files.length - 1, 0));
    const publishedAfterMs = Date.now() - started;
    loaded.warnings.push(...(await prepared.costImport.duplicateImportWarnings(prepared.organizationId, staged.invoices)));
    const contracts =
      contractFiles.length > 0 ? await loadContractCommitments(clickhouse, prepared.organizationId, contractFiles) : undefined;
    progress('completing', prepared.files.length - 1, 0);
    summary = { ...summarise(prepared, loaded, staged, replaced, publishedAfterMs), ...(contracts ? { contracts } : {}) };
  } finally {
    await prepared.costImport.close();
  }
  summary.warnings.push(...(await completedProjections(clickhouse, options.organizationId)));
  summary.elapsedMs = Date.now() - started;
  summary.rowsPerSecond = perSecond(summary.rows, summary.elapsedMs);
  return summary;
}

/**
 * The import published its partitions without their projections (import-staging.ts): they are built now, the rows
 * answerable meanwhile. A failure fails nothing imported: a warning, and the worker builds them later.
 */
async function completedProjections(clickhouse: ClickhouseService, organizationId: string): Promise<string[]> {
  try {
    await new PublishProtocol(clickhouse).completeProjections(() => undefined, organizationId);
    return [];
  } catch (error) {
    return [
      `the imported rows are answered, but their pre-aggregated summaries (projections) could not be built yet: ${messageOf(error)}; ` +
        'questions read the rows until the worker builds them',
    ];
  }
}

const perSecond = (rows: number, ms: number) => (ms > 0 ? Math.round((rows * 1000) / ms) : rows);

/** The files of paths (directories expanded), or a source's parts, each described by its first bytes. */
async function exportFiles(paths: string[] | ExportPart[]): Promise<{ files: FocusFile[]; skipped: string[] }> {
  if (paths.every((path): path is string => typeof path === 'string')) return discoverFocusFiles(paths);
  const files: FocusFile[] = [];
  for (const part of paths as ExportPart[]) files.push(await describePart(part));
  return { files, skipped: [] };
}

/** What an import reads and where it writes, decided before anything is written. */
interface PreparedImport {
  costImport: CostImport;
  organizationId: string;
  files: FocusFile[];
  skipped: string[];
  bytesTotal: number;
  parameters: ImportParameters;
  keysInForce: KeysInForce;
}

function checkOptions(options: IngestFocusOptions): void {
  if (!UUID_PATTERN.test(options.organizationId)) throw new FocusIngestError(`--org must be a UUID, got "${options.organizationId}"`);
  if (options.integrationId !== undefined && !/^[\w.:\-/@]{1,200}$/.test(options.integrationId)) {
    throw new FocusIngestError(`--integration must be 1-200 characters of letters, digits and . : - / @ _`);
  }
}

/** The files of an import in their datasets; Contract Commitment files are read and checked whole here, before anything is written. */
interface ImportDatasets {
  costFiles: FocusFile[];
  contractFiles: ContractCommitmentFile[];
  skipped: string[];
}

async function datasetsOf(clickhouse: ClickhouseService, paths: IngestFocusOptions['paths']): Promise<ImportDatasets> {
  const { files, skipped } = await exportFiles(paths);
  if (files.length === 0) {
    const named = paths.map((path) => (typeof path === 'string' ? path : path.name));
    throw new FocusIngestError(`no CSV or Parquet export files in ${named.join(', ')}`);
  }
  const datasets: ImportDatasets = { costFiles: [], contractFiles: [], skipped };
  // Fail fast: every CSV header is checked before anything is loaded (Parquet is checked once parsed).
  for (const file of files) {
    if (file.format === 'CSVWithNames') {
      const columns = await readCsvHeader(file);
      if (isContractCommitmentDataset(columns)) datasets.contractFiles.push(await readContractCommitmentFile(file));
      else {
        assertRequiredColumns(file, columns);
        datasets.costFiles.push(file);
      }
    } else {
      const columns = await parquetColumns(file);
      if (isContractCommitmentDataset(columns)) datasets.contractFiles.push(await readContractCommitmentParquet(clickhouse, file, columns));
      else datasets.costFiles.push(file);
    }
  }
  return datasets;
}

/** A plain Parquet file's column names from its footer; none for a gzip one or a footer that cannot be read (the engine says why, as a cost export). */
async function parquetColumns(file: FocusFile): Promise<string[]> {
  if (file.gzip) return [];
  return readingPart(file, (path) => parquetColumnNames(path)).catch(() => []);
}

/** Checks every CSV header, reaches every host, and first rolls back what a dead import left. */
async function prepare(
  clickhouse: ClickhouseService,
  options: IngestFocusOptions,
  files: FocusFile[],
  skipped: string[],
  keysInForce: KeysInForce,
): Promise<PreparedImport> {
  // Every host must answer before anything is written (a node that is down could not take its share), and what an
  // import killed while publishing left half-replaced is put back first.
  const costImport = await new PublishProtocol(clickhouse).open(
    'FOCUS import refused, nothing was imported: every node of the cluster must answer',
  );
  return {
    costImport,
    organizationId: options.organizationId,
    files,
    skipped,
    bytesTotal: files.reduce((n, f) => n + f.bytes, 0),
    parameters: importParameters(options),
    keysInForce,
  };
}

function importParameters(options: IngestFocusOptions): ImportParameters {
  return { organization_id: options.organizationId, integration_id: options.integrationId ?? '', currency_codes: [...CURRENCY_CODES] };
}

/** What the files held, as their reports add it up (exact Decimal text). */
interface LoadedImport {
  importTable: string;
  rows: number;
  bytesDone: number;
  sums: { billed: string; effective: string; list: string };
  currencies: Set<string>;
  warnings: string[];
}

function progressOf(
  prepared: PreparedImport,
  loaded: Pick<LoadedImport, 'rows' | 'bytesDone'>,
  started: number,
  onProgress?: IngestFocusOptions['onProgress'],
) {
  return (phase: IngestProgress['phase'], index: number, fileBytesRead: number) => {
    const file = prepared.files[Math.min(index, prepared.files.length - 1)];
    onProgress?.({
      importId: prepared.costImport.importId,
      phase,
      file: file.name,
      fileIndex: index,
      files: prepared.files.length,
      fileBytesRead,
      fileBytes: file.bytes,
      bytesRead: loaded.bytesDone + fileBytesRead,
      bytesTotal: prepared.bytesTotal,
      rows: loaded.rows,
      elapsedMs: Date.now() - started,
    });
  };
}

/** Reads every file once into the staging table (a file's report refuses it whole); leaves the staging table alone. */
async function load(
  clickhouse: ClickhouseService,
  prepared: PreparedImport,
  started: number,
  onProgress?: IngestFocusOptions['onProgress'],
): Promise<LoadedImport> {
  const importTable = await prepared.costImport.createStaging();
  const loaded: LoadedImport = {
    importTable,
    rows: 0,
    bytesDone: 0,
    sums: { billed: '0', effective: '0', list: '0' },
    currencies: new Set(),
    warnings: [],
  };
  const progress = progressOf(prepared, loaded, started, onProgress);
  const input = await createImportInput(prepared.costImport, prepared.parameters);
  for (const [index, file] of prepared.files.entries()) {
    progress('loading', index, 0);
    const read = await loadFile(clickhouse, input, file, prepared.parameters, (bytes) => progress('loading', index, bytes));
    loaded.sums = {
      billed: addDecimalStrings(loaded.sums.billed, read.billedCost),
      effective: addDecimalStrings(loaded.sums.effective, read.effectiveCost),
      list: addDecimalStrings(loaded.sums.list, read.listCost),
    };
    read.currencies.forEach((currency) => loaded.currencies.add(currency));
    loaded.warnings.push(...read.warnings);
    loaded.rows += read.rows;
    loaded.bytesDone += file.bytes;
    progress('loaded', index, 0);
  }
  // Read: what stays until publishing ends (and, should it die, for recovery) is the staging table alone.
  await prepared.costImport.dropInput();
  return loaded;
}

/** The staged rows per partition and per invoice; every row the files held must be staged. */
interface StagedImport {
  partitions: StagedPartition[];
  invoices: ImportedInvoice[];
}

async function verify(clickhouse: ClickhouseService, prepared: PreparedImport, loaded: LoadedImport): Promise<StagedImport> {
  const partitions = await clickhouse.query<StagedPartition>(stagedPartitionsSql(loaded.importTable));
  const mappedRows = partitions.reduce((n, p) => n + Number(p.row_count), 0);
  if (mappedRows !== loaded.rows) throw new FocusIngestError(`internal check failed: ${loaded.rows} rows parsed but ${mappedRows} mapped`);
  return { partitions, invoices: await prepared.costImport.stagedInvoices() };
}

/**
 * Swaps every (organisation, integration, billing period) partition of the import in, all or nothing, after reading
 * the invoices of the partitions it replaces (what a restatement changed). Returns those.
 */
async function publish(
  clickhouse: ClickhouseService,
  prepared: PreparedImport,
  staged: StagedImport,
  onPublishing: () => void,
): Promise<ImportedInvoice[]> {
  const units = staged.partitions.map((p) => ({ integrationId: p.integration_id, billingPeriod: p.billing_period }));
  const replacedInvoices = await prepared.costImport.publishedInvoices(prepared.organizationId, units);
  onPublishing();
  await prepared.costImport
    .publish({
      organizationId: prepared.organizationId,
      integrationIds: [...new Set(staged.partitions.map((p) => p.integration_id))],
      partitions: staged.partitions,
      keysInForce: prepared.keysInForce,
    })
    .catch((error: unknown) => {
      // The store's refusal is the import's: nothing was changed.
      throw error instanceof PublishRefusal ? new FocusIngestError(error.message) : error;
    });
  return replacedInvoices;
}

function summarise(
  prepared: PreparedImport,
  loaded: LoadedImport,
  staged: StagedImport,
  replacedInvoices: ImportedInvoice[],
  publishedAfterMs: number,
): IngestFocusSummary {
  const { partitions } = staged;
  return {
    organizationId: prepared.organizationId,
    files: prepared.files.length,
    skippedFiles: prepared.skipped,
    bytes: prepared.bytesTotal,
    rows: loaded.rows,
    billingPeriods: [...new Set(partitions.map((p) => p.billing_period))].sort(),
    integrationIds: [...new Set(partitions.map((p) => p.integration_id))].sort(),
    partitions: partitions.map((p) => ({
      integrationId: p.integration_id,
      billingPeriod: p.billing_period,
      rows: Number(p.row_count),
      billedCost: p.billed_cost,
      effectiveCost: p.effective_cost,
    })),
    invoices: staged.invoices,
    restatedInvoices: invoiceChanges(replacedInvoices, staged.invoices),
    rolledBackImports: prepared.costImport.rolledBackImports,
    warnings: loaded.warnings,
    currencies: [...loaded.currencies].sort(),
    sumBilledCost: loaded.sums.billed,
    sumEffectiveCost: loaded.sums.effective,
    sumListCost: loaded.sums.list,
    publishedAfterMs,
    publishedRowsPerSecond: perSecond(loaded.rows, publishedAfterMs),
    elapsedMs: publishedAfterMs,
    rowsPerSecond: perSecond(loaded.rows, publishedAfterMs),
  };
}

/** An import of Contract Commitment files only: no cost row read or replaced. */
function contractsOnlySummary(
  organizationId: string,
  files: readonly ContractCommitmentFile[],
  skippedFiles: string[],
  contracts: ImportedContracts,
  elapsedMs: number,
): IngestFocusSummary {
  return {
    organizationId,
    files: files.length,
    skippedFiles,
    bytes: files.reduce((n, file) => n + file.bytes, 0),
    rows: 0,
    billingPeriods: [],
    integrationIds: [],
    partitions: [],
    invoices: [],
    restatedInvoices: [],
    rolledBackImports: [],
    warnings: [],
    currencies: [],
    sumBilledCost: '0',
    sumEffectiveCost: '0',
    sumListCost: '0',
    publishedAfterMs: elapsedMs,
    publishedRowsPerSecond: 0,
    elapsedMs,
    rowsPerSecond: 0,
    contracts,
  };
}

function assertRequiredColumns(file: FocusFile, columns: string[]): void {
  const missing = missingRequiredColumns(columns);
  if (missing.length > 0) {
    throw new FocusIngestError(`${file.name}: not a FOCUS cost export, missing required column(s): ${missing.join(', ')}`);
  }
}

/** Thrown for bad input or a refused import; its message is meant for the operator. */
export { FocusIngestError };
