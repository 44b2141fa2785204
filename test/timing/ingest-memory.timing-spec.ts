// modes: embedded server — a file read by the engine in bounded memory
import { mkdirSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { randomUUID } from 'node:crypto';
import { FOCUS_SOURCE_STRUCTURE } from '../../src/ingest/focus-mapping';
import { ingestFocus } from '../../src/ingest/ingest-focus';
import { scaledToNumber, toScaled } from '../support/decimals';
import { focusExportSql } from '../support/focus-export';
import { E2E_MODE } from '../support/e2e-mode';
import { TestApp } from '../support/test-app';

const GIB = 1024 ** 3;
// ClickHouse's plain load of this file (every column as text, then mapped) was refused at 1.5 GiB in most runs and
// passed in one CI run: its memory varies too much to be the control. The file's decoded size is a fact of the file.
// The first import of a process needs more than the next ones (measured embedded on 3M rows: at 1 GiB the first
// failed in every run, the next ones passed 8 in 8; at 1.5 GiB the first failed once in a full npm test). Since rows
// carry the FOCUS allocation and commitment columns (migration 0031: 15 more columns read and written), the first
// import at 2 GiB failed once in a full run and passed alone: the budget is 2.5 GiB, under a file whose one row group
// decodes to more (the test below checks it).
const BUDGET = 2.5 * GIB;
const ROWS = 4_000_000;
const ROWS_PER_GROUP = 4_000_000;

/**
 * The import holds bounded memory whatever the export's row groups: a Parquet file of 4M line items in one row group
 * (as a writer with a large row-group size makes them), whose values decode to more than the budget, imported under
 * CLICKHOUSE_MAX_MEMORY_BYTES = 2.5 GiB. Cluster mode reads files the way server mode does (one node reads,
 * the views write through Distributed tables), so embedded and server are the two ways a file is read.
 */
const describeReadingFiles = E2E_MODE === 'cluster' ? describe.skip : describe;

describeReadingFiles('FOCUS import in bounded memory', () => {
  let t: TestApp;
  const dir = resolve(process.env.E2E_TMP_DIR ?? '.test-tmp', `ingest-memory-${randomUUID()}`);
  const parquet = join(dir, 'focus-export.parquet');

  beforeAll(async () => {
    mkdirSync(dir, { recursive: true });
    t = await TestApp.start({ settings: { CLICKHOUSE_MAX_MEMORY_BYTES: String(BUDGET), CLICKHOUSE_MAX_EXECUTION_SECONDS: '600' } });
    // Written by the engine itself (server mode: a process on this machine), without the application's budgets.
    await t.generate(
      `INSERT INTO FUNCTION file({path:String}, Parquet) ${focusExportSql(ROWS)}
       SETTINGS max_threads = 1, output_format_parquet_row_group_size = ${ROWS_PER_GROUP},
                output_format_parquet_row_group_size_bytes = 4294967296`,
      { path: parquet },
    );
  }, 300_000);

  afterAll(() => t?.close());

  it('the file is one row group whose values take more memory than the budget', async () => {
    // Decoded as the importer reads it (every column as text): a reader holding the row group whole would not fit,
    // so an import under the budget proves the rows stream through it.
    const [file] = await t.clickhouse.query<{ groups: string; decoded: string }>(
      `SELECT toString(num_row_groups) AS groups,
              (SELECT toString(sum(byteSize(*))) FROM file({path:String}, Parquet, {structure:String})) AS decoded
       FROM file({path:String}, ParquetMetadata)`,
      { path: parquet, structure: FOCUS_SOURCE_STRUCTURE },
    );
    expect(file.groups).toBe('1');
    expect(Number(file.decoded)).toBeGreaterThan(BUDGET);
  }, 300_000);

  it('imports every row of the file under the same budget, with the sums of the file', async () => {
    const organizationId = randomUUID();
    const summary = await ingestFocus(t.clickhouse, { paths: [parquet], organizationId });

    // The file's own sums, read by the engine straight from the file (no mapping, no import).
    const [file] = await t.clickhouse.query<{ rows: string; billed: string; effective: string }>(
      `SELECT toString(count()) AS rows, toString(sum(toDecimal128(BilledCost, 10))) AS billed,
              toString(sum(toDecimal128(EffectiveCost, 10))) AS effective
       FROM file({path:String}, Parquet)`,
      { path: parquet },
    );
    expect(summary.rows).toBe(ROWS);
    expect(Number(file.rows)).toBe(ROWS);
    expect(summary.sumBilledCost).toBe(file.billed);
    expect(summary.sumEffectiveCost).toBe(file.effective);

    const org = await t.keyFor(organizationId);
    const response = await t.http
      .post('/v1/cost-insights/data')
      .set(org.auth)
      .send({ filters: { inclusions: { dateRange: { start: '2025-01-01', end: '2025-12-31' } } }, groupBy: { dateGrouping: 'monthly' } });
    expect(response.status).toBe(200);
    expect(response.body.data.items).toHaveLength(12);
    expect(response.body.data.summary.total_amortized_cost).toBe(scaledToNumber(toScaled(file.effective)));
  }, 600_000);
});
