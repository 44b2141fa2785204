import { isCalendarDate, isSupportedDate } from '../common/dates/calendar-date';
import { isCurrencyCode } from '../common/money/currency-codes';
import { readFile } from 'node:fs/promises';
import { promisify } from 'node:util';
import { gunzip } from 'node:zlib';
import { ClickhouseService } from '../store/clickhouse/clickhouse.service';
import { csvRecords } from './csv-records';
import { FocusFile, FocusIngestError, readingPart } from './focus-files';
import { selectParquetText } from './focus-load';

const gunzipped = promisify(gunzip);

/**
 * The FOCUS 1.3 Contract Commitment dataset: the commitments of each contract (spend or usage, their amounts and
 * periods), against which the cost rows' ContractApplied elements burn down. Each FOCUS column read, once: the
 * store's column, and whether a file without it is refused. Other columns (x_ ones, the lifecycle, payment terms)
 * are read past.
 */
export const CONTRACT_COMMITMENT_COLUMNS = {
  ContractId: { column: 'contract_id', required: true },
  ContractCommitmentId: { column: 'contract_commitment_id', required: true },
  ContractCommitmentCategory: { column: 'category', required: true },
  ContractCommitmentType: { column: 'type', required: false },
  ContractCommitmentDescription: { column: 'description', required: false },
  ContractCommitmentCost: { column: 'cost', required: true },
  ContractCommitmentQuantity: { column: 'quantity', required: false },
  ContractCommitmentUnit: { column: 'unit', required: false },
  ContractCommitmentPeriodStart: { column: 'period_start', required: true },
  ContractCommitmentPeriodEnd: { column: 'period_end', required: true },
  ContractPeriodStart: { column: 'contract_period_start', required: true },
  ContractPeriodEnd: { column: 'contract_period_end', required: true },
  BillingCurrency: { column: 'billing_currency', required: true },
} as const;

type FocusColumn = keyof typeof CONTRACT_COMMITMENT_COLUMNS;
type StoreColumn = (typeof CONTRACT_COMMITMENT_COLUMNS)[FocusColumn]['column'];

/** One contract commitment as stored (migration 0035), but for the organisation and the load's time. */
export type ContractCommitmentRow = Record<Exclude<StoreColumn, 'cost' | 'quantity'>, string> & {
  cost: string | null;
  quantity: string | null;
};

/** A commitment and where in its file it was read from (`line 2`, `row 1`). */
export interface ParsedCommitment {
  where: string;
  row: ContractCommitmentRow;
}

/** A Contract Commitment file of an import, read and checked. */
export interface ContractCommitmentFile {
  name: string;
  bytes: number;
  commitments: ParsedCommitment[];
}

/** The most bytes a Contract Commitment file unzips to: far more than MAX_CONTRACT_COMMITMENTS lines, never all memory. */
const MAX_FILE_BYTES = 64 * 1024 * 1024;

/** Reads a Contract Commitment CSV file (gzip or not) whole and checks it. */
export async function readContractCommitmentFile(file: FocusFile): Promise<ContractCommitmentFile> {
  const raw = await readingPart(file, (path) => readFile(path));
  const bytes = file.gzip ? await gunzipped(raw, { maxOutputLength: MAX_FILE_BYTES }).catch(() => undefined) : raw;
  if (!bytes || bytes.length >= MAX_FILE_BYTES)
    throw new FocusIngestError(
      `${file.name}: a Contract Commitment file of more than ${MAX_FILE_BYTES / 1024 / 1024} MiB (unzipped), or a broken gzip`,
    );
  return { name: file.name, bytes: file.bytes, commitments: parseContractCommitments(file.name, bytes.toString('utf8')) };
}

/** Reads a Contract Commitment Parquet file (its column `names` read from its footer) through the engine and checks it. */
export async function readContractCommitmentParquet(
  clickhouse: ClickhouseService,
  file: FocusFile,
  names: readonly string[],
): Promise<ContractCommitmentFile> {
  const header = (Object.keys(CONTRACT_COMMITMENT_COLUMNS) as FocusColumn[]).filter((column) => names.includes(column));
  commitmentsOf(file.name, header, []); // the header checked before a row is read
  const rows = await readingPart(file, (path) => selectParquetText(clickhouse, file, path, header));
  const records = rows.map((row, i) => ({ where: `row ${i + 1}`, cells: header.map((column) => row[column]) }));
  return { name: file.name, bytes: file.bytes, commitments: commitmentsOf(file.name, header, records) };
}

/** FOCUS ContractCommitmentCategory's values. */
export const CONTRACT_COMMITMENT_CATEGORIES = ['Spend', 'Usage'] as const;

/** The most commitments one import holds: a dataset lists contracts' terms, not line items. */
export const MAX_CONTRACT_COMMITMENTS = 100_000;

const DECIMAL = /^\d{1,28}(\.\d{1,10})?$/;
const TIMESTAMP = /^(\d{4}-\d{2}-\d{2})(?:[T ](\d{2}):(\d{2})(?::(\d{2})(?:\.\d+)?)?(?:Z|[+-]00:?00)?)?$/;

/** A file is the Contract Commitment dataset when it has its key columns and none of a cost export's. */
export function isContractCommitmentDataset(columns: readonly string[]): boolean {
  const present = new Set(columns);
  return present.has('ContractCommitmentId') && present.has('ContractId') && !present.has('ChargePeriodStart');
}

/**
 * The commitments of a Contract Commitment CSV file, checked whole: a missing required column, a value that is not
 * one, or a period ending before it starts refuses the file, naming line and column (checkedAcrossFiles then checks the
 * import's files together).
 */
export function parseContractCommitments(fileName: string, text: string): ParsedCommitment[] {
  let records;
  try {
    records = csvRecords(text);
  } catch (error) {
    throw new FocusIngestError(`${fileName}:${(error as Error).message}`);
  }
  const [header, ...lines] = records;
  return commitmentsOf(
    fileName,
    header?.fields ?? [],
    lines.map(({ fields, line }) => ({ where: `line ${line}`, cells: fields })),
  );
}

/** A dataset's records, each named by where it is (`line 2` of a CSV, `row 1` of a Parquet file), its cells in `header` order. */
export interface DatasetRecord {
  where: string;
  cells: ReadonlyArray<string | null>;
}

/** The commitments of a file's records under its header, each checked (parseContractCommitments). */
export function commitmentsOf(fileName: string, header: readonly string[], records: readonly DatasetRecord[]): ParsedCommitment[] {
  const index = columnIndex(fileName, header);
  if (records.length > MAX_CONTRACT_COMMITMENTS)
    throw new FocusIngestError(`${fileName}: more than ${MAX_CONTRACT_COMMITMENTS} contract commitments in one file`);
  return records.map(({ where, cells }) => {
    const value = (column: FocusColumn) => (index.has(column) ? (cells[index.get(column)!] ?? '').trim() : '');
    const problem = (column: FocusColumn, text: string) => new FocusIngestError(`${fileName}:${where}: ${column} ${text}`);
    return { where, row: checkedRow(value, problem) };
  });
}

function columnIndex(fileName: string, header: readonly string[]): Map<FocusColumn, number> {
  const names = header.map((name) => name.trim());
  const missing = (Object.keys(CONTRACT_COMMITMENT_COLUMNS) as FocusColumn[]).filter(
    (column) => CONTRACT_COMMITMENT_COLUMNS[column].required && !names.includes(column),
  );
  if (missing.length > 0)
    throw new FocusIngestError(`${fileName}: a Contract Commitment dataset missing required column(s): ${missing.join(', ')}`);
  return new Map(
    (Object.keys(CONTRACT_COMMITMENT_COLUMNS) as FocusColumn[]).filter((c) => names.includes(c)).map((c) => [c, names.indexOf(c)]),
  );
}

type Problem = (column: FocusColumn, text: string) => FocusIngestError;

function checkedRow(value: (column: FocusColumn) => string, problem: Problem): ContractCommitmentRow {
  const text = (column: FocusColumn, required: boolean) => {
    const given = value(column);
    if (required && given === '') throw problem(column, 'is empty');
    if (given.length > 1000) throw problem(column, 'is longer than 1000 characters');
    return given;
  };
  const category = CONTRACT_COMMITMENT_CATEGORIES.find(
    (known) => known.toLowerCase() === value('ContractCommitmentCategory').toLowerCase(),
  );
  if (!category) throw problem('ContractCommitmentCategory', `is not one of ${CONTRACT_COMMITMENT_CATEGORIES.join(', ')}`);
  const currency = value('BillingCurrency');
  if (!isCurrencyCode(currency)) throw problem('BillingCurrency', `is not an ISO 4217 currency code: ${JSON.stringify(currency)}`);
  const cost = amount(value, 'ContractCommitmentCost', problem);
  const quantity = amount(value, 'ContractCommitmentQuantity', problem);
  const unit = text('ContractCommitmentUnit', false);
  if (category === 'Spend' && cost === null) throw problem('ContractCommitmentCost', 'is empty: a Spend commitment commits a cost');
  if (category === 'Usage' && (quantity === null || unit === ''))
    throw problem(
      quantity === null ? 'ContractCommitmentQuantity' : 'ContractCommitmentUnit',
      'is empty: a Usage commitment commits a quantity in a unit',
    );
  const [periodStart, periodEnd] = period(value, 'ContractCommitmentPeriodStart', 'ContractCommitmentPeriodEnd', problem);
  const [contractStart, contractEnd] = period(value, 'ContractPeriodStart', 'ContractPeriodEnd', problem);
  return {
    contract_id: text('ContractId', true),
    contract_commitment_id: text('ContractCommitmentId', true),
    category,
    type: text('ContractCommitmentType', false),
    description: text('ContractCommitmentDescription', false),
    cost,
    quantity,
    unit,
    period_start: periodStart,
    period_end: periodEnd,
    contract_period_start: contractStart,
    contract_period_end: contractEnd,
    billing_currency: currency,
  };
}

/** A non-negative decimal of at most 10 places, or null when empty. */
function amount(value: (column: FocusColumn) => string, column: FocusColumn, problem: Problem): string | null {
  const given = value(column);
  if (given === '' || given.toLowerCase() === 'null') return null;
  if (!DECIMAL.test(given)) throw problem(column, `is not a non-negative decimal of at most 10 places: ${JSON.stringify(given)}`);
  return given;
}

/** A period's start and end (ISO 8601 dates or UTC date-times, as ClickHouse DateTime text), the end after the start. */
function period(
  value: (column: FocusColumn) => string,
  startColumn: FocusColumn,
  endColumn: FocusColumn,
  problem: Problem,
): [string, string] {
  const start = timestamp(value(startColumn), startColumn, problem);
  const end = timestamp(value(endColumn), endColumn, problem);
  if (end <= start) throw problem(endColumn, `${end} is not after ${startColumn} ${start}`);
  return [start, end];
}

function timestamp(given: string, column: FocusColumn, problem: Problem): string {
  const match = TIMESTAMP.exec(given);
  if (
    !match ||
    !isCalendarDate(match[1]) ||
    !isSupportedDate(match[1]) ||
    Number(match[2] ?? 0) > 23 ||
    Number(match[3] ?? 0) > 59 ||
    Number(match[4] ?? 0) > 59
  )
    throw problem(column, `is not an ISO 8601 UTC date or date-time from 2000 to 2099: ${JSON.stringify(given)}`);
  const [, date, hours = '00', minutes = '00', seconds = '00'] = match;
  return `${date} ${hours}:${minutes}:${seconds}`;
}

/**
 * The commitments of every file of an import, checked together: a commitment listed twice, or under two contracts,
 * is refused, as is one whose currency differs from the one `storedCurrencies` holds for it (kept from another
 * contract's load: a commitment's amounts are in one currency).
 */
export function checkedAcrossFiles(
  files: ReadonlyArray<{ name: string; commitments: readonly ParsedCommitment[] }>,
  storedCurrencies: ReadonlyMap<string, { currency: string; contractId: string }>,
): void {
  const seen = new Map<string, string>();
  for (const file of files)
    for (const { where: place, row } of file.commitments) {
      const where = `${file.name}:${place}`;
      const earlier = seen.get(row.contract_commitment_id);
      if (earlier)
        throw new FocusIngestError(`${where}: ContractCommitmentId ${row.contract_commitment_id} is listed twice (first at ${earlier})`);
      seen.set(row.contract_commitment_id, where);
      const stored = storedCurrencies.get(row.contract_commitment_id);
      if (stored && stored.contractId !== row.contract_id && stored.currency !== row.billing_currency)
        throw new FocusIngestError(
          `${where}: BillingCurrency ${row.billing_currency} differs from ${stored.currency}, the currency commitment ${row.contract_commitment_id} has in contract ${stored.contractId}`,
        );
    }
}
