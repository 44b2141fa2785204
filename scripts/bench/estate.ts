/**
 * The benchmark estate, generated inside ClickHouse with INSERT … SELECT FROM numbers() (no data crosses
 * the network), and its copy in PostgreSQL (CSV export → COPY), indexed as a user would index it.
 *
 * Shape (deterministic: every value is a hash of the row number):
 * - line items belong to resources (resourceCount(): ~12 line items per resource and day, like hourly
 *   exports); a resource fixes organisation, integration/cloud, service, region, account, instance type,
 *   cost type/layer, tags and cost categories; each line item picks a day, one of 3 usage types and an amount;
 * - 4 organisations; the measured one holds ~70 % of the resources, the others add volume;
 * - 416 days (2025-10-01 … 2026-11-20), 3 integrations = clouds, 48 services (16 per cloud), 8 families,
 *   60 regions, up to 300 accounts per organisation, 400 instance types × 30 usage types (thousands of
 *   combinations in use), 6 cost types, 3 cost layers;
 * - tags env (4 values), team (80), app (600), resource_id (one per resource: high cardinality);
 *   cost categories BusinessUnit (12) and Project (150);
 * - ten money columns with savings on a quarter of the rows.
 * The shape `shared-dimensions` (issue 34's estate) gives a resource the dimensions and tags of one of 400 applications
 * instead of its own, resource_id aside: the dimension projections then hold a row per application where the full-map
 * tag projections still hold one per resource.
 */
import { spawnSync } from 'node:child_process';
import { createWriteStream } from 'node:fs';
import { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { addDays, formatMonthNumber, monthNumber } from '../../src/common/dates/calendar-date';
import { ClickhouseService } from '../../src/store/clickhouse/clickhouse.service';
import { COST_COLUMNS } from '../../src/ingest/focus-mapping';

export const ORGANIZATIONS = [
  '0b3f5a52-0000-4000-8000-00000000b001',
  '0b3f5a52-0000-4000-8000-00000000b002',
  '0b3f5a52-0000-4000-8000-00000000b003',
  '0b3f5a52-0000-4000-8000-00000000b004',
];
/** The organisation every case queries. */
export const MEASURED_ORGANIZATION = ORGANIZATIONS[0];
/** A copy of the measured organisation whose Azure rows are billed in EUR: what the converted cases query. */
export const CONVERTED_TWIN_ORGANIZATION = '0b3f5a52-0000-4000-8000-00000000e001';
export const FIRST_DAY = '2025-10-01';
export const DAYS = 416;

const CLOUDS = ['AWS', 'Azure', 'GCP'];
const INTEGRATIONS = ['aws-cur-main', 'azure-ea-export', 'gcp-billing-export'];
const FAMILIES = ['Compute', 'Storage', 'Database', 'Networking', 'Analytics', 'AI and ML', 'Management', 'Security'];
const COST_TYPES = ['Usage', 'Usage', 'Usage', 'Usage', 'Tax', 'Credit', 'Fee', 'SavingsPlanCoveredUsage'];
const COST_LAYERS = ['Cloud', 'Cloud', 'Cloud', 'Cloud', 'Kubernetes', 'Marketplace'];
const ENVS = ['production', 'staging', 'development', 'test'];

// The columns an import writes (imported_at keeps its default: when it was written), in the importer's order.
const COLUMNS = COST_COLUMNS.join(', ');

const arrayLiteral = (values: string[]) => `[${values.map((v) => `'${v}'`).join(',')}]`;

/**
 * Whose dimensions and tags a resource has: its own (each resource a combination of its own), or those of one of
 * SHARED_OWNERS applications its resources share (only the resource_id tag is the resource's).
 */
export type EstateShape = 'own-dimensions' | 'shared-dimensions';
export const ESTATE_SHAPES: readonly EstateShape[] = ['own-dimensions', 'shared-dimensions'];
const SHARED_OWNERS = 400;

/**
 * One INSERT of the rows of [start, start + count) that fall in `month` (its first day): 4 orgs × 3 integrations = 12
 * partitions. A row's day comes from its number's hash, so one block of numbers spans every month: written a month at a
 * time, each insert writes 12 parts instead of 168 (each with its six projections), and the merges have 14× fewer.
 */
export function generateSql(
  table: string,
  block: { start: number; count: number; month: string },
  resources: number,
  shape: EstateShape,
): string {
  const owner = shape === 'shared-dimensions' ? `r % ${SHARED_OWNERS}` : 'r';
  return `
INSERT INTO ${table} (${COLUMNS})
SETTINGS max_partitions_per_insert_block = 0, max_insert_threads = 2
SELECT ${COLUMNS} FROM (
SELECT
  ${arrayLiteral(ORGANIZATIONS)}[o + 1] AS organization_id,
  d AS usage_date,
  formatDateTime(d, '%Y-%m') AS billing_period,
  'USD' AS billing_currency,
  ${arrayLiteral(COST_LAYERS)}[(hr % 6) + 1] AS cost_layer,
  ${arrayLiteral(CLOUDS)}[c + 1] AS cloud,
  concat(${arrayLiteral(CLOUDS)}[c + 1], ' Service ', leftPad(toString(s), 2, '0')) AS service,
  ${arrayLiteral(FAMILIES)}[(s % 8) + 1] AS resource_family,
  concat(lower(${arrayLiteral(CLOUDS)}[c + 1]), '-region-', toString(bitShiftRight(h, 28) % 20)) AS region,
  concat('type-', toString(it)) AS instance_type,
  concat('usage-', toString((bitShiftRight(h, 44) + h2 % 3) % 30), ':type-', toString(it)) AS usage_type,
  ${arrayLiteral(COST_TYPES)}[(bitShiftRight(hr, 8) % 8) + 1] AS cost_type,
  toString(100000000000 + o * 1000 + a) AS account_id,
  concat('account-', toString(o), '-', toString(a)) AS account_name,
  ${arrayLiteral(INTEGRATIONS)}[c + 1] AS integration_id,
  map('env', ${arrayLiteral(ENVS)}[(bitShiftRight(hr, 12) % 4) + 1],
      'team', concat('team-', toString(bitShiftRight(hr, 16) % 80)),
      'app', concat('app-', toString(bitShiftRight(hr, 24) % 600)),
      'resource_id', concat('r-', hex(r))) AS resource_tags,
  map('BusinessUnit', concat('bu-', toString((bitShiftRight(hr, 16) % 80) % 12)),
      'Project', concat('project-', toString((bitShiftRight(hr, 24) % 600) % 150))) AS cost_categories,
  concat('payer-', toString(o), '-', toString(c)) AS billing_account_id,
  concat('inv-', toString(o), '-', toString(c), '-', formatDateTime(d, '%Y%m')) AS invoice_id,
  concat(${arrayLiteral(CLOUDS)}[c + 1], ' billing') AS invoice_issuer,
  if(cost_type IN ('Usage', 'SavingsPlanCoveredUsage'), 'Usage', if(cost_type = 'Fee', 'Purchase', cost_type)) AS charge_category,
  '' AS charge_class,
  '' AS allocated_method_id,
  '' AS allocated_method_details,
  '' AS allocated_resource_id,
  '' AS allocated_resource_name,
  -- A quarter of the usage is covered by one of each account's five savings plans (as commitment_savings says).
  h2 % 4 = 0 AND charge_category = 'Usage' AS committed,
  if(committed, 'Committed', '') AS pricing_category,
  if(committed, concat('arn:sp-', toString(o), '-', toString(a), '-', toString(h2 % 5)), '') AS commitment_discount_id,
  if(committed, 'Compute Savings Plan', '') AS commitment_discount_name,
  if(committed, 'Savings Plan', '') AS commitment_discount_type,
  if(committed, 'Spend', '') AS commitment_discount_category,
  if(committed, 'Used', '') AS commitment_discount_status,
  toDecimal128(0, 10) AS commitment_discount_quantity,
  '' AS commitment_discount_unit,
  '' AS capacity_reservation_id,
  '' AS capacity_reservation_status,
  '' AS contract_applied,
  concat('r-', hex(r)) AS resource_id,
  '' AS commitment_program_eligibility,
  base AS billed_cost,
  base * toDecimal32(0.95, 2) AS amortized_cost,
  base AS cash_cost,
  base * toDecimal32(1.30, 2) AS on_demand_cost,
  base * toDecimal32(0.10, 2) AS enterprise_discount_savings,
  base * toDecimal32(if(h2 % 7 = 0, 0.05, 0), 2) AS product_discount_savings,
  base * toDecimal32(if(h2 % 11 = 0, 0.02, 0), 2) AS partner_discount_savings,
  base * toDecimal32(if(h2 % 4 = 0, 0.30, 0), 2) AS commitment_savings,
  base * toDecimal32(if(h2 % 13 = 0, 0.60, 0), 2) AS spot_savings,
  base * toDecimal32(if(h2 % 17 = 0, 0.01, 0), 2) AS other_savings
FROM
(
  SELECT
    number AS n,
    -- The resource a line item belongs to fixes its dimensions and tags (through its owner: itself or its
    -- application); the row fixes day and amount.
    intHash64(number) % ${resources} AS r,
    intHash64(${owner}) AS h,
    intHash64(number + 1000000007) AS h2,
    intHash64(${owner} + 2000000011) AS hr,
    if(r % 10 < 7, 0, 1 + (r % 3)) AS o,
    toUInt8(h % 3) AS c,
    toUInt16(c * 16 + (bitShiftRight(h, 4) % 16)) AS s,
    toUInt16(bitShiftRight(h, 36) % 400) AS it,
    toUInt16(bitShiftRight(h, 12) % 300) AS a,
    toDate('${FIRST_DAY}') + toUInt16(bitShiftRight(h2, 52) % ${DAYS}) AS d,
    toDecimal128(bitShiftRight(h2, 40) % 1000000, 10) / 10000 AS base
  FROM numbers(${block.start}, ${block.count})
  WHERE toStartOfMonth(d) = toDate('${block.month}')
))`;
}

/**
 * Resources (instances, buckets, databases…): each has ~12 line items a day (hourly usage in a few usage
 * slots), as in hourly billing exports; at least 1,000 so small runs keep their cardinalities.
 */
export function resourceCount(rows: number): number {
  return Math.max(1000, Math.round(rows / (DAYS * 12)));
}

export async function generateEstate(
  clickhouse: ClickhouseService,
  rows: number,
  log: (m: string) => void,
  shape: EstateShape = 'own-dimensions',
): Promise<void> {
  const table = clickhouse.table('cost_line_items');
  // Each statement ~1M rows (a block's share of one month): 2M rows took up to 113 s once every insert also built the
  // activated projections (migration 0027) and wrote 168 parts. No statement limit (the API's is 120 s): on a busy
  // machine one of 1M rows took longer, and a progress header keeps the client's socket alive meanwhile.
  const months = estateMonths();
  const block = 1_000_000 * months.length;
  const resources = resourceCount(rows);
  for (let start = 0; start < rows; start += block) {
    const count = Math.min(block, rows - start);
    const began = Date.now();
    for (const month of months) {
      // Building the projections of ~1M rows for 12 parts at 100M's 20,000 resources passed the API's 2 GiB budget.
      await clickhouse.client.command({
        query: generateSql(table, { start, count, month }, resources, shape),
        clickhouse_settings: {
          max_memory_usage: '0',
          max_execution_time: 0,
          send_progress_in_http_headers: 1,
          http_headers_progress_interval_ms: '30000',
        },
      });
    }
    log(
      `  inserted rows ${start.toLocaleString('en-US')}…${(start + count).toLocaleString('en-US')} in ${((Date.now() - began) / 1000).toFixed(1)} s`,
    );
  }
}

/** The first day of each month the estate's days touch. */
function estateMonths(): string[] {
  const [first, last] = [monthNumber(FIRST_DAY), monthNumber(addDays(FIRST_DAY, DAYS - 1))];
  return Array.from({ length: last - first + 1 }, (_, i) => formatMonthNumber(first + i));
}

export const PG_TABLE = 'bench_cost_line_items';

const PG_DDL = `
DROP TABLE IF EXISTS ${PG_TABLE};
CREATE UNLOGGED TABLE ${PG_TABLE} (
  organization_id uuid NOT NULL, usage_date date NOT NULL, billing_period text NOT NULL, cost_layer text NOT NULL,
  cloud text NOT NULL, service text NOT NULL, resource_family text NOT NULL, region text NOT NULL,
  instance_type text NOT NULL, usage_type text NOT NULL, cost_type text NOT NULL, account_id text NOT NULL,
  account_name text NOT NULL, integration_id text NOT NULL, resource_tags jsonb NOT NULL, cost_categories jsonb NOT NULL,
  amortized_cost numeric(38,10) NOT NULL, billed_cost numeric(38,10) NOT NULL, cash_cost numeric(38,10) NOT NULL,
  on_demand_cost numeric(38,10) NOT NULL, enterprise_discount_savings numeric(38,10) NOT NULL,
  product_discount_savings numeric(38,10) NOT NULL, partner_discount_savings numeric(38,10) NOT NULL,
  commitment_savings numeric(38,10) NOT NULL, spot_savings numeric(38,10) NOT NULL, other_savings numeric(38,10) NOT NULL
);`;

/** What a user would build: btree on the scope and the grouping columns, GIN on the JSON maps. */
const PG_INDEXES = `
CREATE INDEX ON ${PG_TABLE} (organization_id, usage_date);
CREATE INDEX ON ${PG_TABLE} (organization_id, service, usage_date);
CREATE INDEX ON ${PG_TABLE} (organization_id, account_id, usage_date);
CREATE INDEX ON ${PG_TABLE} (organization_id, region, usage_date);
CREATE INDEX ON ${PG_TABLE} USING gin (resource_tags jsonb_path_ops);
CREATE INDEX ON ${PG_TABLE} USING gin (cost_categories jsonb_path_ops);
VACUUM ANALYZE ${PG_TABLE};`;

export function psql(database: string, sql: string): string {
  const result = spawnSync('psql', ['-h', '127.0.0.1', '-U', 'postgres', '-v', 'ON_ERROR_STOP=1', '-q', '-d', database], {
    input: sql,
    encoding: 'utf8',
    maxBuffer: 1 << 26,
  });
  if (result.status !== 0) throw new Error(`psql failed: ${result.stderr}`);
  return result.stdout;
}

/** Exports the estate as CSV (maps as JSON) from ClickHouse and COPYs it into PostgreSQL; returns the server version. */
export async function loadPostgres(
  clickhouse: ClickhouseService,
  database: string,
  csvPath: string,
  log: (m: string) => void,
): Promise<string> {
  let began = Date.now();
  const result = await clickhouse.client.exec({
    query: `SELECT organization_id, usage_date, billing_period, cost_layer, cloud, service, resource_family, region,
                   instance_type, usage_type, cost_type, account_id, account_name, integration_id,
                   toJSONString(resource_tags), toJSONString(cost_categories), amortized_cost, billed_cost, cash_cost,
                   on_demand_cost, enterprise_discount_savings, product_discount_savings, partner_discount_savings,
                   commitment_savings, spot_savings, other_savings
            FROM ${clickhouse.table('cost_line_items')} FORMAT CSV`,
    clickhouse_settings: { max_execution_time: 0 },
  });
  await pipeline(result.stream as Readable, createWriteStream(csvPath));
  log(`  exported CSV in ${((Date.now() - began) / 1000).toFixed(1)} s`);
  began = Date.now();
  psql(database, `${PG_DDL}\n\\copy ${PG_TABLE} FROM '${csvPath}' WITH (FORMAT csv)\n`);
  log(`  COPY into PostgreSQL in ${((Date.now() - began) / 1000).toFixed(1)} s`);
  began = Date.now();
  psql(database, PG_INDEXES);
  log(`  indexes + VACUUM ANALYZE in ${((Date.now() - began) / 1000).toFixed(1)} s`);
  // Gigabytes just written would otherwise be flushed (checkpoint, kernel writeback) while the cases run,
  // taking CPU from whichever side is being measured: flush them now.
  began = Date.now();
  psql(database, 'CHECKPOINT;');
  spawnSync('sync');
  log(`  CHECKPOINT + sync in ${((Date.now() - began) / 1000).toFixed(1)} s`);
  return psql(database, '\\pset tuples_only on\nSHOW server_version;').trim();
}

/**
 * The converted twin: the measured organisation's rows again, its Azure integration's labelled EUR, and EUR/USD
 * rates for every business day of the estate (so every Azure day converts, a weekend at Friday's rate).
 */
export async function generateConvertedTwin(clickhouse: ClickhouseService): Promise<void> {
  // The WHERE names the source table's column: unqualified, ClickHouse would read the SELECT's alias of the same name
  // (the twin's id), and copy nothing.
  const table = clickhouse.table('cost_line_items');
  // A month at a time: the whole organisation in one statement (21M rows at 30M) outlasts the client's request timeout.
  for (const month of estateMonths()) {
    await clickhouse.client.command({
      query: `INSERT INTO ${table} (${COLUMNS})
        SETTINGS max_partitions_per_insert_block = 0, max_insert_threads = 2
        SELECT ${COST_COLUMNS.map((column) =>
          column === 'organization_id'
            ? `toUUID('${CONVERTED_TWIN_ORGANIZATION}') AS organization_id`
            : column === 'billing_currency'
              ? "if(cloud = 'Azure', 'EUR', 'USD') AS billing_currency"
              : column,
        ).join(', ')}
        FROM ${table} AS measured WHERE measured.organization_id = toUUID('${MEASURED_ORGANIZATION}')
          AND toStartOfMonth(measured.usage_date) = toDate('${month}')`,
      // A month of the measured organisation written with every projection at once: more than the API's memory budget.
      clickhouse_settings: { max_execution_time: 0, max_memory_usage: '0' },
    });
  }
  const [copies] = await clickhouse.query<{ measured: string; twin: string }>(
    `SELECT toString(countIf(organization_id = {measured:UUID})) AS measured, toString(countIf(organization_id = {twin:UUID})) AS twin
     FROM ${table}`,
    { measured: MEASURED_ORGANIZATION, twin: CONVERTED_TWIN_ORGANIZATION },
  );
  // A twin with other rows would measure another question, not the conversion.
  if (copies.measured !== copies.twin)
    throw new Error(`the converted twin has ${copies.twin} rows, the measured organisation ${copies.measured}`);
  await clickhouse.client.command({
    query: `INSERT INTO ${clickhouse.table('exchange_rates')} (organization_id, rate_date, base_currency, quote_currency, rate, source, loaded_at)
      SELECT toUUID('${CONVERTED_TWIN_ORGANIZATION}'), toDate('${FIRST_DAY}') - 7 + number, 'EUR', 'USD',
             toDecimal128(1.05 + (cityHash64(number) % 1000) / 10000, 18), 'bench', now64(6)
      FROM numbers(${DAYS + 7}) WHERE toDayOfWeek(toDate('${FIRST_DAY}') - 7 + number) <= 5`,
  });
}
