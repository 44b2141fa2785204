/**
 * FOCUS import throughput and memory (not a test): the importer against ClickHouse's own insert of the same file
 * on the same engine, measured in one run, for CSV and Parquet.
 *
 *   npx ts-node -T scripts/bench-ingest.ts [--rows 3000000] [--dir .test-tmp/bench-ingest] [--only embedded|server]
 *                                          [--formats CSV,Parquet] [--skip-bound]
 *                                          [--first-import | --activated [--rounds 3] | --profile]
 *
 * 1. Generates a FOCUS 1.0 export of N line items inside ClickHouse: 12 months in month order, 3 billing accounts,
 *    40 sub-accounts, 6 services, 5 regions, 4 tag keys (team, env, application, cost-center; 5 % untagged), as CSV
 *    (NULL tokens, as AWS and Azure write them) and as Parquet written by ClickHouse (one row group per 1M rows).
 * 2. Per engine (embedded chDB; a libchdb HTTP server with query_log) and format: ClickHouse's own
 *    `CREATE TABLE … ENGINE = MergeTree ORDER BY tuple() AS SELECT * FROM <the file>` (the server reads it the way the
 *    importer makes it: CSV as the request body, Parquet over HTTP with range requests), then `ingest focus` of the
 *    same file into a fresh organisation; rows/s of each and their ratio, and the peak memory of each statement
 *    (server: system.query_log; embedded: this process's peak RSS, the engine's included).
 * 3. The memory bound: the Parquet import again under CLICKHOUSE_MAX_MEMORY_BYTES = 1 GiB, beside ClickHouse's
 *    own load of the same file into Nullable(String) columns (what the importer did before) under the same limit.
 * 4. With --first-import (issue 61), instead of 2 and 3: a first import of the Parquet file into an organisation that never
 *    chose its tag keys, the suggested keys activated from the file before it writes a row; then the same import into
 *    another such organisation with the keys activated after it, back-filled (the way before): seconds of each step.
 * 5. With --activated (issue 34), instead of 2 and 3: the Parquet import into an organisation with no activated tag keys
 *    and into one that activated team, env and application (the dictionary loaded before), alternated `--rounds`
 *    times on one store; then, the activated projections dropped (the store before migration 0027 built them), the
 *    import again: what activated keys cost an import, and what the projections cost every organisation.
 * 6. With --profile (issue 61), instead of 2 and 3: where an import's time goes, on the embedded engine, each step
 *    alone on the Parquet file: reading it as text, the importer's mapping (with its checks, then the cost columns
 *    alone), writing the rows into the cost table's shape without projections, with each projection alone and with all
 *    of them (merges stopped, as an import's staging table), beside ClickHouse's own load and the whole import.
 * Results: bench/results/<timestamp>-ingest.{json,md}.
 */
import { randomUUID } from 'node:crypto';
import { closeSync, createReadStream, mkdirSync, openSync, readSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { cpus, totalmem } from 'node:os';
import { loadConfig } from '../src/config/app-config';
import { ClickhouseService } from '../src/store/clickhouse/clickhouse.service';
import { migrate } from '../src/store/schema/migrator';
import { serveFile } from '../src/ingest/file-server';
import {
  COST_COLUMNS,
  FOCUS_INPUT_SETTINGS,
  FOCUS_SOURCE_STRUCTURE,
  focusSelectSql,
  IMPORT_MEMORY_SETTINGS,
} from '../src/ingest/focus-mapping';
import { settingsClause } from '../src/store/statement-text';
import { CURRENCY_CODES } from '../src/common/money/currency-codes';
import { ingestFocus } from '../src/ingest/ingest-focus';
import { describeKey, TagKeyActivationService } from '../src/tag-keys/tag-key-activation.service';
import { TagKeysRepository } from '../src/store/repositories/tag-keys.repository';
import { ACTIVATION_SETTLE_SECONDS, ACTIVATIONS_TABLE, reloadActivatedKeys } from '../src/store/activated-maps';
import { clickhouseTimestamp } from '../src/common/dates/clickhouse-time';
import { startClickhouseWithQueryLog } from '../test/support/app-with-env';
import { focusExportSql } from '../test/support/focus-export';

const GIB = 1024 ** 3;

function arg(name: string): string | undefined {
  const i = process.argv.indexOf(`--${name}`);
  return i >= 0 ? process.argv[i + 1] : undefined;
}
const log = (message: string) => process.stdout.write(`${message}\n`);

interface Measured {
  seconds: number;
  rowsPerSecond: number;
  /** Peak memory of the statement (server: query_log) or of this process, the engine included (embedded), MiB. */
  peakMiB: number;
}

interface Pair {
  engine: 'embedded' | 'server';
  format: 'CSV' | 'Parquet';
  /** The faster of ClickHouse's two loads of the file, one before the import and one after (the ratio's stricter one). */
  own: Measured;
  /** Both loads' seconds, before and after: the host's own pace moves between runs, so each ratio names its pair. */
  ownSeconds: [number, number];
  /** The whole import: its rows published, then its partitions' projections built. */
  importer: Measured;
  /** Until the rows were published (answered from then on): IngestFocusSummary.publishedAfterMs. */
  answered: { seconds: number; rowsPerSecond: number };
  /** answered ÷ own (the target's ratio) and importer ÷ own. */
  ratio: number;
  wholeRatio: number;
}

async function main(): Promise<void> {
  const rows = Number(arg('rows') ?? 3_000_000);
  const dir = resolve(arg('dir') ?? '.test-tmp/bench-ingest');
  const only = arg('only');
  rmSync(dir, { recursive: true, force: true });
  mkdirSync(dir, { recursive: true });
  const csv = join(dir, 'focus-export.csv');
  const parquet = join(dir, 'focus-export.parquet');

  const generator = service(join(dir, 'generator'));
  let began = Date.now();
  await generator.command(
    `INSERT INTO FUNCTION file('${csv}', CSVWithNames) ${focusExportSql(rows)}
     SETTINGS format_csv_null_representation = 'NULL', max_threads = 2, max_execution_time = 0`,
  );
  log(
    `generated ${rows.toLocaleString('en-US')} rows: ${(statSync(csv).size / 1e6).toFixed(0)} MB CSV in ${((Date.now() - began) / 1000).toFixed(1)} s`,
  );
  began = Date.now();
  // As ClickHouse writes Parquet: the CSV's inferred (nullable) types, one row group per 1M rows.
  await generator.command(
    `INSERT INTO FUNCTION file('${parquet}', Parquet) SELECT * FROM file('${csv}', CSVWithNames)
     SETTINGS format_csv_null_representation = 'NULL', schema_inference_make_columns_nullable = 1, max_threads = 1,
              input_format_parallel_parsing = 0, output_format_parquet_row_group_size = 1000000,
              output_format_parquet_row_group_size_bytes = 4294967296, max_execution_time = 0`,
  );
  const [groups] = await generator.query<{ groups: string }>(
    `SELECT toString(any(num_row_groups)) AS groups FROM file('${parquet}', ParquetMetadata)`,
  );
  log(
    `wrote ${(statSync(parquet).size / 1e6).toFixed(0)} MB Parquet (${groups.groups} row groups) in ${((Date.now() - began) / 1000).toFixed(1)} s`,
  );
  await generator.onModuleDestroy();

  if (process.argv.includes('--first-import')) {
    const first: FirstImport[] = [];
    for (const engine of ['embedded', 'server'] as const) {
      if (!only || only === engine) first.push(await measureFirstImport(engine, dir, parquet, rows));
    }
    writeReport('ingest-first-import', { rows, first }, firstImportMarkdown(rows, first));
    return;
  }

  if (process.argv.includes('--profile')) {
    const steps = await profileImport(dir, parquet, rows);
    writeReport('ingest-profile', { rows, steps }, profileMarkdown(rows, steps));
    return;
  }

  if (process.argv.includes('--activated')) {
    const activated: ActivatedImports[] = [];
    for (const engine of ['embedded', 'server'] as const) {
      if (!only || only === engine) activated.push(await measureActivatedImports(engine, dir, parquet, rows, Number(arg('rounds') ?? 3)));
    }
    writeReport('ingest-activated', { rows, activated }, activatedMarkdown(rows, activated));
    return;
  }

  const pairs: Pair[] = [];
  const bounds: Record<string, unknown>[] = [];
  for (const engine of ['embedded', 'server'] as const) {
    if (only && only !== engine) continue;
    const server = engine === 'server' ? await startClickhouseWithQueryLog(join(dir, 'server')) : undefined;
    const connect = (extra: Record<string, string> = {}) =>
      service(join(dir, 'embedded'), server?.url, { CLICKHOUSE_MAX_MEMORY_BYTES: '0', ...extra });
    try {
      const clickhouse = connect();
      await migrate(clickhouse);
      const formats = (arg('formats') ?? 'CSV,Parquet').split(',');
      for (const [format, path] of (
        [
          ['CSV', csv],
          ['Parquet', parquet],
        ] as const
      ).filter(([name]) => formats.includes(name))) {
        await mergesSettled(clickhouse);
        const ownBefore = await ownInsert(clickhouse, format, path, rows);
        await mergesSettled(clickhouse);
        const organizationId = randomUUID();
        let publishedAfterMs = 0;
        const importer = await measured(
          clickhouse,
          'insert',
          async () => {
            const summary = await ingestFocus(clickhouse, { paths: [path], organizationId });
            // A projection build that failed is a warning of the import (it stands): not a figure to report.
            if (summary.warnings.length > 0) throw new Error(`the import warned: ${summary.warnings.join('; ')}`);
            publishedAfterMs = summary.publishedAfterMs;
          },
          rows,
        );
        await mergesSettled(clickhouse);
        const ownAfter = await ownInsert(clickhouse, format, path, rows);
        const own = ownAfter.seconds < ownBefore.seconds ? ownAfter : ownBefore;
        const answered = { seconds: round(publishedAfterMs / 1000), rowsPerSecond: Math.round((rows * 1000) / publishedAfterMs) };
        const pair: Pair = {
          engine,
          format,
          own,
          ownSeconds: [ownBefore.seconds, ownAfter.seconds],
          importer,
          answered,
          ratio: round(answered.rowsPerSecond / own.rowsPerSecond),
          wholeRatio: round(importer.rowsPerSecond / own.rowsPerSecond),
        };
        pairs.push(pair);
        log(
          `${engine.padEnd(8)} ${format.padEnd(7)} own insert ${ownBefore.seconds} s before, ${ownAfter.seconds} s after; the faster ${own.seconds} s (${own.rowsPerSecond.toLocaleString('en-US')} rows/s, ${own.peakMiB} MiB); ` +
            `importer answered after ${answered.seconds} s (${answered.rowsPerSecond.toLocaleString('en-US')} rows/s) → ${(pair.ratio * 100).toFixed(0)} %, ` +
            `its projections built by ${importer.seconds} s (${importer.peakMiB} MiB) → ${(pair.wholeRatio * 100).toFixed(0)} %`,
        );
      }
      await clickhouse.onModuleDestroy();
      if (process.argv.includes('--skip-bound')) continue;

      // The memory bound: 1 GiB per statement.
      const bounded = connect({ CLICKHOUSE_MAX_MEMORY_BYTES: String(GIB) });
      const served = bounded.embedded ? undefined : await serveFile(parquet, statSync(parquet).size, bounded.url!);
      const from = served
        ? `url('${served.url}', Parquet, '${FOCUS_SOURCE_STRUCTURE}')`
        : `file('${parquet}', Parquet, '${FOCUS_SOURCE_STRUCTURE}')`;
      const rawLoad = await bounded
        .command(`CREATE TABLE ${bounded.database}.bench_raw_${Date.now()} ENGINE = MergeTree ORDER BY tuple() AS SELECT * FROM ${from}`)
        .then(
          () => 'fits',
          (error: unknown) => (error instanceof Error ? error.message.split('\n')[0].slice(0, 160) : String(error)),
        )
        .finally(() => served?.close());
      // Refused is a result too (docs/performance.md: a first import of a 1M-row group may need more than 1 GiB).
      const imported = await measured(
        bounded,
        'insert',
        () => ingestFocus(bounded, { paths: [parquet], organizationId: randomUUID() }),
        rows,
      ).catch((error: unknown) => (error instanceof Error ? error.message.split('\n')[0].slice(0, 200) : String(error)));
      bounds.push({ engine, budgetMiB: 1024, rawLoadOfTheFile: rawLoad, importer: imported });
      log(
        `${engine.padEnd(8)} under 1 GiB: ClickHouse's load into text columns: ${rawLoad}; the importer: ${typeof imported === 'string' ? imported : `${imported.seconds} s, ${imported.peakMiB} MiB`}`,
      );
      await bounded.onModuleDestroy();
    } finally {
      await server?.stop();
    }
  }

  const report = {
    startedAt: new Date().toISOString(),
    machine: machine(),
    rows,
    files: { csvBytes: statSync(csv).size, parquetBytes: statSync(parquet).size, parquetRowGroups: Number(groups.groups) },
    pairs,
    bounds,
  };
  writeReport('ingest', report, markdown(report));
}

interface ProfileStep {
  step: string;
  seconds: number;
  /** Seconds over the write without projections (the projections' own cost), where the step writes. */
  overPlainWrite?: number;
}

/** Issue 61: each step of an import alone (embedded, merges stopped on every table written), in one run. */
async function profileImport(dir: string, parquet: string, rows: number): Promise<ProfileStep[]> {
  const clickhouse = service(join(dir, 'profile'), undefined, { CLICKHOUSE_MAX_MEMORY_BYTES: '0' });
  await migrate(clickhouse);
  const db = clickhouse.database;
  const parameters = { organization_id: randomUUID(), integration_id: 'profile', currency_codes: [...CURRENCY_CODES] };
  const from = `file('${parquet}', Parquet, '${FOCUS_SOURCE_STRUCTURE}')`;
  const mapped = focusSelectSql({ from, rowNumber: '_row_number' });
  const settings = settingsClause(await clickhouse.knownSettings({ ...FOCUS_INPUT_SETTINGS, ...IMPORT_MEMORY_SETTINGS }));
  const columns = COST_COLUMNS.join(', ');
  const projections = await clickhouse.query<{ name: string; query: string }>(
    `SELECT name, query FROM system.projections WHERE database = {db:String} AND table = 'cost_line_items' ORDER BY name`,
    { db },
  );
  // The cost table's shape with the projections given: a table per write, merges stopped as on an import's staging table.
  const tableWith = async (name: string, kept: typeof projections) => {
    await clickhouse.command(`CREATE TABLE ${db}.${name} AS ${db}.cost_line_items`);
    for (const projection of projections)
      if (!kept.includes(projection)) await clickhouse.command(`ALTER TABLE ${db}.${name} DROP PROJECTION ${projection.name}`);
    await clickhouse.command(`SYSTEM STOP MERGES ${db}.${name}`);
    return `INSERT INTO ${db}.${name} (${columns}) SELECT ${columns} FROM (${mapped}) ${settings}`;
  };
  const steps: [string, string][] = [
    ['read the file as text', `SELECT * FROM ${from} FORMAT Null ${settings}`],
    ['map, with the checks', `SELECT * FROM (${mapped}) FORMAT Null ${settings}`],
    ['map, the cost columns alone', `SELECT ${columns} FROM (${mapped}) FORMAT Null ${settings}`],
    ['write, no projections', await tableWith('profile_plain', [])],
    ...(await Promise.all(
      projections.map(async (p) => [`write, ${p.name} alone`, await tableWith(`profile_${p.name}`, [p])] as [string, string]),
    )),
    [`write, all ${projections.length} projections`, await tableWith('profile_all', projections)],
  ];
  const timed: ProfileStep[] = [];
  for (const [step, sql] of steps) {
    const began = Date.now();
    await clickhouse.command(sql, parameters);
    timed.push({ step, seconds: round((Date.now() - began) / 1000) });
    log(`profile: ${step}: ${timed.at(-1)!.seconds} s`);
  }
  const plain = timed.find((m) => m.step === 'write, no projections')!.seconds;
  for (const m of timed)
    if (m.step.startsWith('write, ') && m.step !== 'write, no projections') m.overPlainWrite = round(m.seconds - plain);
  const own = await ownInsert(clickhouse, 'Parquet', parquet, rows);
  timed.push({ step: "ClickHouse's own load (ORDER BY tuple(), no projections)", seconds: own.seconds });
  const whole = await measured(
    clickhouse,
    'insert',
    () => ingestFocus(clickhouse, { paths: [parquet], organizationId: randomUUID() }),
    rows,
  );
  timed.push({ step: 'the whole import (ingest focus)', seconds: whole.seconds });
  await clickhouse.onModuleDestroy();
  return timed;
}

const signed = (value: number) => `${value < 0 ? '−' : '+'}${Math.abs(value)}`;

function profileMarkdown(rows: number, steps: ProfileStep[]): string {
  return [
    `# Where an import's time goes ${new Date().toISOString()}`,
    '',
    `${machine().cpu}, ${machine().cores} cores. The embedded engine, ${rows.toLocaleString('en-US')} generated FOCUS line items as Parquet; each step alone, in one run.`,
    '',
    '| step | seconds | over the write without projections |',
    '|---|---:|---:|',
    ...steps.map((s) => `| ${s.step} | ${s.seconds} | ${s.overPlainWrite === undefined ? '' : signed(s.overPlainWrite)} |`),
    '',
  ].join('\n');
}

function machine() {
  return { cpu: cpus()[0]?.model, cores: cpus().length, memoryGiB: round(totalmem() / GIB) };
}

function writeReport(suffix: string, report: object, text: string): void {
  const startedAt = new Date().toISOString();
  const stamp = `${startedAt.replace(/[:.]/g, '-')}-${suffix}`;
  const out = resolve('bench/results');
  mkdirSync(out, { recursive: true });
  writeFileSync(join(out, `${stamp}.json`), `${JSON.stringify({ startedAt, machine: machine(), ...report }, null, 2)}\n`);
  writeFileSync(join(out, `${stamp}.md`), text);
  log(`\n${text}\nwritten to bench/results/${stamp}.{json,md}`);
}

interface FirstImport {
  engine: 'embedded' | 'server';
  /** Keys chosen from the file before the import: seconds to read them and activate them, then of the whole import. */
  before: { keys: string[]; choosing: number; total: number };
  /** Keys chosen after the import: seconds of the import, then of the back-fill. */
  after: { keys: string[]; importing: number; backfill: number; total: number };
}

/** Issue 61: an organisation's first import with its suggested keys chosen before it writes a row, and after it. */
async function measureFirstImport(engine: 'embedded' | 'server', dir: string, parquet: string, rows: number): Promise<FirstImport> {
  const server = engine === 'server' ? await startClickhouseWithQueryLog(join(dir, 'first-server')) : undefined;
  const clickhouse = service(join(dir, 'first-embedded'), server?.url, { CLICKHOUSE_MAX_MEMORY_BYTES: '0' });
  const timed = async <T>(run: () => Promise<T>): Promise<[number, T]> => {
    const began = Date.now();
    const result = await run();
    return [round((Date.now() - began) / 1000), result];
  };
  try {
    await migrate(clickhouse);
    const tagKeys = new TagKeyActivationService(
      clickhouse,
      new TagKeysRepository(clickhouse),
      loadConfig({ ...process.env, TAG_KEYS_DEFAULT: 'true' }),
    );
    const early = randomUUID();
    let choosing = 0;
    let chosen: string[] = [];
    const [total] = await timed(() =>
      ingestFocus(clickhouse, {
        paths: [parquet],
        organizationId: early,
        beforeWriting: async (files) => {
          const [seconds, keys] = await timed(() => tagKeys.activateSuggestedBeforeFirstImport(early, () => files.keyPresence()));
          [choosing, chosen] = [seconds, keys.map(describeKey)];
          return keys;
        },
      }),
    );
    log(
      `${engine.padEnd(8)} keys chosen before: ${chosen.join(', ')} in ${choosing} s; the whole import ${total} s (${Math.round(rows / total).toLocaleString('en-US')} rows/s)`,
    );
    const late = randomUUID();
    const [importing] = await timed(() => ingestFocus(clickhouse, { paths: [parquet], organizationId: late }));
    const [backfill, backfilled] = await timed(() => tagKeys.activateSuggestedKeys(late));
    log(`${engine.padEnd(8)} keys chosen after: the import ${importing} s, the back-fill of ${backfilled.join(', ')} ${backfill} s`);
    return {
      engine,
      before: { keys: chosen, choosing, total },
      after: { keys: backfilled, importing, backfill, total: round(importing + backfill) },
    };
  } finally {
    await clickhouse.onModuleDestroy();
    await server?.stop();
  }
}

function firstImportMarkdown(rows: number, results: FirstImport[]): string {
  return [
    `# A first import and its suggested tag keys (issue 61), ${rows.toLocaleString('en-US')} line items (Parquet)`,
    '',
    'Each into a fresh organisation that never chose its keys (TAG_KEYS_DEFAULT). "Before": the keys chosen from the file',
    '(an engine pass over its tags) and activated while the organisation has no row, then the import writes them. "After":',
    'the import, then the keys chosen from the rows and back-filled (every partition rewritten). Seconds; one run each.',
    '',
    '| engine | keys | before: choosing | before: until answered | after: import | after: back-fill | after: until answered |',
    '|---|---|---:|---:|---:|---:|---:|',
    ...results.map(
      (r) =>
        `| ${r.engine} | ${r.before.keys.join(', ')} | ${r.before.choosing} | ${r.before.total} | ${r.after.importing} | ${r.after.backfill} | ${r.after.total} |`,
    ),
    '',
  ].join('\n');
}

/** The keys the activated organisation's imports write (the export's team-level keys; cost-center stays on the full maps). */
const ACTIVATED_IMPORT_KEYS = ['team', 'env', 'application'];

interface ActivatedImports {
  engine: 'embedded' | 'server';
  /** Seconds of each import, in the order run (alternated). */
  withoutKeys: number[];
  withKeys: number[];
  /** After the activated projections were dropped: the store as before migration 0027 built them. */
  withoutActivatedProjections: number[];
  /** One import whose keys changed within ACTIVATION_SETTLE_SECONDS before it: its staged rows are rewritten. */
  justChanged: number;
  /** median(withKeys) ÷ median(withoutKeys): target ≤ 1.2. */
  ratio: number;
  /** median(withoutKeys) ÷ median(withoutActivatedProjections): what the projections cost an organisation with no keys. */
  projectionsRatio: number;
}

/** Issue 34's import target: the Parquet import into an organisation with activated keys and into one without, alternated. */
async function measureActivatedImports(
  engine: 'embedded' | 'server',
  dir: string,
  parquet: string,
  rows: number,
  rounds: number,
): Promise<ActivatedImports> {
  const server = engine === 'server' ? await startClickhouseWithQueryLog(join(dir, 'activated-server')) : undefined;
  const clickhouse = service(join(dir, 'activated-embedded'), server?.url, { CLICKHOUSE_MAX_MEMORY_BYTES: '0' });
  try {
    await migrate(clickhouse);
    // Keys activated before the import (older than the settle time, as an organisation's keys are): the import writes
    // them through the columns' defaults. 'just changed': within the settle time, so the import also rewrites its staged
    // rows before swapping them (partition-publish.ts), the window's price.
    const importOnce = async (keys: 'none' | 'activated' | 'just changed') => {
      const organizationId = randomUUID();
      if (keys !== 'none') {
        const changedAt = keys === 'activated' ? Date.now() - (ACTIVATION_SETTLE_SECONDS + 60) * 1000 : Date.now();
        await clickhouse.insert(
          ACTIVATIONS_TABLE,
          ACTIVATED_IMPORT_KEYS.map((key) => ({
            organization_id: organizationId,
            kind: 'tag',
            key,
            state: 'active',
            updated_at: clickhouseTimestamp(new Date(changedAt)),
          })),
        );
        await reloadActivatedKeys(clickhouse);
      }
      const began = Date.now();
      await ingestFocus(clickhouse, { paths: [parquet], organizationId });
      const seconds = round((Date.now() - began) / 1000);
      log(`${engine.padEnd(8)} keys ${keys.padEnd(12)} ${seconds} s (${Math.round(rows / seconds).toLocaleString('en-US')} rows/s)`);
      return seconds;
    };
    const withoutKeys: number[] = [];
    const withKeys: number[] = [];
    for (let turn = 0; turn < rounds; turn++) {
      // Alternated, the first of each round swapped, so neither always follows the other's merges.
      for (const activated of turn % 2 === 0 ? [false, true] : [true, false]) {
        (activated ? withKeys : withoutKeys).push(await importOnce(activated ? 'activated' : 'none'));
      }
    }
    const justChanged = await importOnce('just changed');
    const table = clickhouse.table('cost_line_items');
    for (const projection of ['daily_activated_tag_sums', 'monthly_activated_tag_sums']) {
      await clickhouse.command(`ALTER TABLE ${table} DROP PROJECTION ${projection} SETTINGS mutations_sync = 2`);
    }
    const withoutActivatedProjections: number[] = [];
    for (let turn = 0; turn < rounds; turn++) withoutActivatedProjections.push(await importOnce('none'));
    return {
      engine,
      withoutKeys,
      withKeys,
      withoutActivatedProjections,
      justChanged,
      ratio: round(median(withKeys) / median(withoutKeys)),
      projectionsRatio: round(median(withoutKeys) / median(withoutActivatedProjections)),
    };
  } finally {
    await clickhouse.onModuleDestroy();
    await server?.stop();
  }
}

function median(values: number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  const middle = Math.floor(sorted.length / 2);
  return sorted.length % 2 ? sorted[middle] : (sorted[middle - 1] + sorted[middle]) / 2;
}

function activatedMarkdown(rows: number, results: ActivatedImports[]): string {
  const seconds = (values: number[]) => `${round(median(values))} s (${values.join(', ')})`;
  return [
    `# FOCUS import with activated tag keys (issue 34), ${rows.toLocaleString('en-US')} line items (Parquet)`,
    '',
    `Each import into a fresh organisation; "with keys": it had activated ${ACTIVATED_IMPORT_KEYS.join(', ')} more than ${ACTIVATION_SETTLE_SECONDS} s before; ` +
      `"keys changed just before": within those ${ACTIVATION_SETTLE_SECONDS} s, so the import also rewrites its staged rows before swapping them. Medians (each run).`,
    '',
    '| engine | without keys | with keys | with ÷ without (target ≤ 1.2) | keys changed just before | activated projections dropped | without keys ÷ projections dropped |',
    '|---|---:|---:|---:|---:|---:|---:|',
    ...results.map(
      (r) =>
        `| ${r.engine} | ${seconds(r.withoutKeys)} | ${seconds(r.withKeys)} | ${r.ratio} ${r.ratio <= 1.2 ? '✓' : '✗'} | ${r.justChanged} s | ` +
        `${seconds(r.withoutActivatedProjections)} | ${r.projectionsRatio} |`,
    ),
    '',
  ].join('\n');
}

/**
 * ClickHouse's own insert of the file into a plain table: the embedded engine reads it with file(); a server as the
 * importer makes it read the file (a CSV as the request body, a Parquet file from this process in ranges).
 */
async function ownInsert(clickhouse: ClickhouseService, format: 'CSV' | 'Parquet', path: string, rows: number): Promise<Measured> {
  const table = `${clickhouse.database}.bench_own_${format.toLowerCase()}_${Date.now()}`;
  const settings = "SETTINGS format_csv_null_representation = 'NULL', max_execution_time = 0";
  const fmt = format === 'CSV' ? 'CSVWithNames' : 'Parquet';
  if (clickhouse.embedded || format === 'Parquet') {
    const served = clickhouse.embedded ? undefined : await serveFile(path, statSync(path).size, clickhouse.url!);
    try {
      const from = served ? `url('${served.url}', ${fmt})` : `file('${path}', ${fmt})`;
      return await measured(
        clickhouse,
        'create',
        () => clickhouse.command(`CREATE TABLE ${table} ENGINE = MergeTree ORDER BY tuple() AS SELECT * FROM ${from} ${settings}`),
        rows,
      );
    } finally {
      await served?.close();
    }
  }
  // A CSV to a server: the table's columns from the file's first rows, then the file as the body of an INSERT.
  await clickhouse.command(
    `CREATE TABLE ${table} ENGINE = MergeTree ORDER BY tuple() EMPTY AS SELECT * FROM format(CSVWithNames, {head:String}) ${settings}`,
    { head: fileHead(path, 65_536).split('\n').slice(0, 20).join('\n') },
  );
  return measured(
    clickhouse,
    'insert',
    () => clickhouse.insertWithBody(`INSERT INTO ${table} ${settings} FORMAT CSVWithNames`, createReadStream(path)),
    rows,
  );
}

/** Wall time and peak memory of `run` (its statements of `kind` in the server's query_log; this process's RSS when embedded). */
async function measured(clickhouse: ClickhouseService, kind: string, run: () => Promise<unknown>, rows: number): Promise<Measured> {
  const before = process.memoryUsage().rss;
  let peak = before;
  const sampler = setInterval(() => (peak = Math.max(peak, process.memoryUsage().rss)), 50);
  const began = Date.now();
  try {
    await run();
  } finally {
    clearInterval(sampler);
  }
  const seconds = (Date.now() - began) / 1000;
  let peakMiB = round(peak / 1024 ** 2);
  if (!clickhouse.embedded) {
    await clickhouse.command('SYSTEM FLUSH LOGS');
    const [row] = await clickhouse.query<{ peak: string }>(
      `SELECT toString(max(memory_usage)) AS peak FROM system.query_log
       WHERE type = 'QueryFinish' AND toUnixTimestamp64Milli(query_start_time_microseconds) >= {since:Int64} AND query_kind IN ('Insert', 'Create') AND lower(query) LIKE {kind:String}`,
      { since: began, kind: `%${kind}%` },
    );
    peakMiB = round(Number(row.peak) / 1024 ** 2);
  }
  return { seconds: round(seconds), rowsPerSecond: Math.round(rows / seconds), peakMiB };
}

/**
 * Waits until the engine merges nothing: each measurement starts on an idle machine, not beside the merges of the
 * parts the one before it wrote (measured: ClickHouse's own Parquet load 5.0 s alone, 14.0 s right after an import).
 */
async function mergesSettled(clickhouse: ClickhouseService): Promise<void> {
  for (let waited = 0; waited < 600_000; waited += 500) {
    const [row] = await clickhouse.query<{ merging: string }>(
      `SELECT toString((SELECT count() FROM system.merges) + (SELECT count() FROM system.mutations WHERE NOT is_done)) AS merging`,
    );
    if (Number(row.merging) === 0) return;
    await new Promise((resolve) => setTimeout(resolve, 500));
  }
}

function service(dataDir: string, url?: string, extra: Record<string, string> = {}): ClickhouseService {
  const env: Record<string, string | undefined> = {
    ...process.env,
    CLICKHOUSE_DATABASE: 'bench',
    DATA_DIR: dataDir,
    CLICKHOUSE_MAX_EXECUTION_SECONDS: '3600',
    ...extra,
  };
  if (url) env.CLICKHOUSE_URL = url;
  else delete env.CLICKHOUSE_URL;
  return new ClickhouseService(loadConfig(env));
}

function fileHead(path: string, bytes: number): string {
  const fd = openSync(path, 'r');
  try {
    const buffer = Buffer.alloc(bytes);
    return buffer.subarray(0, readSync(fd, buffer, 0, bytes, 0)).toString('utf8');
  } finally {
    closeSync(fd);
  }
}

function round(n: number): number {
  return Math.round(n * 100) / 100;
}

function markdown(report: {
  startedAt: string;
  machine: Record<string, unknown>;
  rows: number;
  files: Record<string, number>;
  pairs: Pair[];
  bounds: Record<string, unknown>[];
}): string {
  return [
    `# FOCUS import bench ${report.startedAt}`,
    '',
    `${String(report.machine.cpu)}, ${String(report.machine.cores)} cores. ${report.rows.toLocaleString('en-US')} line items: ` +
      `CSV ${(report.files.csvBytes / 1e6).toFixed(0)} MB, Parquet ${(report.files.parquetBytes / 1e6).toFixed(0)} MB (${report.files.parquetRowGroups} row groups).`,
    '',
    "The importer is timed twice: until its rows are published (answered from then on), and until its partitions' " +
      "projections are built as well (the whole `ingest focus`). ClickHouse's own load of the file runs once before the " +
      'import and once after it; the ratios take the faster (both in brackets).',
    '',
    "| engine | format | ClickHouse's own insert | rows/s | peak MiB | importer, answered | rows/s | ÷ own | importer, projections built | rows/s | peak MiB | ÷ own |",
    '|---|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|',
    ...report.pairs.map(
      (p) =>
        `| ${p.engine} | ${p.format} | ${p.own.seconds} s (${p.ownSeconds.join(' s, ')} s) | ${p.own.rowsPerSecond.toLocaleString('en-US')} | ${p.own.peakMiB} | ` +
        `${p.answered.seconds} s | ${p.answered.rowsPerSecond.toLocaleString('en-US')} | ${(p.ratio * 100).toFixed(0)} % | ` +
        `${p.importer.seconds} s | ${p.importer.rowsPerSecond.toLocaleString('en-US')} | ${p.importer.peakMiB} | ${(p.wholeRatio * 100).toFixed(0)} % |`,
    ),
    '',
    ...(report.bounds.length === 0
      ? ['The 1 GiB per-statement budget: not measured (--skip-bound).', '']
      : [
          'Under a 1 GiB per-statement budget (Parquet):',
          '',
          ...report.bounds.map(
            (b) =>
              `- ${String(b.engine)}: ClickHouse's load of the file into text columns: ${String(b.rawLoadOfTheFile)}; the importer: ${JSON.stringify(b.importer)}`,
          ),
          '',
        ]),
  ].join('\n');
}

main().catch((error) => {
  console.error(error);
  process.exit(1);
});
