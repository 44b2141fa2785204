/**
 * Data sources (issue 31), measured (not a test):
 * 1. One Parquet FOCUS export (the import bench's generator and size: 3M line items by default) delivered as an AWS Data Exports delivery
 *    (data file + manifest) in a local directory, in an S3-compatible server (s3rver) and in Azure Blob Storage
 *    (Azurite, as an Azure export run): each imported R times into a fresh organisation through the check a worker
 *    runs (`SourcesService.run`: listing, manifest, parts streamed to disk, the importer), alternated; p50 seconds of
 *    each and local ÷ remote (the throughput of a remote source as a share of a local one's, target ≥ 0.8).
 * 2. From a manifest landing to its data answered: the API with its worker at the poll interval given (default: the
 *    setting's default, 300 s), a delivery written right after a round; the seconds until `/data` answers its total,
 *    against poll + the import's time.
 *
 *   npx ts-node -T scripts/bench-sources.ts [--rows 3000000] [--runs 3] [--poll 300] [--dir .test-tmp/bench-sources]
 *
 * On a ClickHouse server (libchdb) of its own. Results: bench/results/<timestamp>-sources.{json,md}.
 */
import { randomUUID } from 'node:crypto';
import { copyFileSync, mkdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { cpus, totalmem } from 'node:os';
import { CreateBucketCommand, PutObjectCommand, S3Client } from '@aws-sdk/client-s3';
import { ContainerClient, StorageSharedKeyCredential } from '@azure/storage-blob';
import { loadConfig } from '../src/config/app-config';
import { SETTINGS } from '../src/config/settings';
import { ClickhouseService } from '../src/store/clickhouse/clickhouse.service';
import { SourcesService } from '../src/sources/sources.service';
import { IngestWorkerService } from '../src/sources/ingest-worker.service';
import { startAzurite, startS3Server } from '../test/support/local-servers';
import { startAppWithEnv, startClickhouseWithQueryLog } from '../test/support/app-with-env';
import { focusExportSql } from '../test/support/focus-export';
import type { TestApp } from '../test/support/test-app';

function arg(name: string): string | undefined {
  const i = process.argv.indexOf(`--${name}`);
  return i >= 0 ? process.argv[i + 1] : undefined;
}
const log = (message: string) => process.stdout.write(`${message}\n`);
const round = (n: number) => Math.round(n * 100) / 100;
const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor((values.length - 1) / 2)];

type Where = 'local directory' | 'S3 (s3rver)' | 'Azure Blob (Azurite)';

async function main(): Promise<void> {
  const startedAt = new Date().toISOString();
  const rows = Number(arg('rows') ?? 3_000_000);
  const runs = Number(arg('runs') ?? 3);
  const poll = Number(arg('poll') ?? SETTINGS.INGEST_POLL_SECONDS.default);
  const dir = resolve(arg('dir') ?? '.test-tmp/bench-sources');
  rmSync(dir, { recursive: true, force: true });
  mkdirSync(dir, { recursive: true });

  const parquet = join(dir, 'focus-00001.parquet');
  await generateParquet(dir, parquet, rows);
  const bytes = statSync(parquet).size;
  log(`generated ${rows.toLocaleString('en-US')} line items: ${(bytes / 1e6).toFixed(0)} MB Parquet`);

  const [server, s3, azurite] = await Promise.all([
    startClickhouseWithQueryLog(join(dir, 'clickhouse')),
    startS3Server(join(dir, 's3')),
    startAzurite(join(dir, 'azurite')),
  ]);
  process.env.BENCH_S3_KEY_ID = 'S3RVER';
  process.env.BENCH_S3_SECRET = 'S3RVER';
  process.env.BENCH_AZURE_ACCOUNT = azurite.account;
  process.env.BENCH_AZURE_KEY = azurite.key;
  const common = {
    LOG_LEVEL: 'silent',
    CLICKHOUSE_URL: server.url,
    CLICKHOUSE_MAX_EXECUTION_SECONDS: '3600',
    // Throughput, as the import bench measures it: no per-statement memory limit (the 3-row-group file's load once
    // went over the 2 GiB default on the server; the importer's memory bound is the import bench's and its test's).
    CLICKHOUSE_MAX_MEMORY_BYTES: '0',
    INGEST_SETTLE_SECONDS: '0',
    INGEST_FILE_ROOT: dir,
  };
  let app: TestApp | undefined;
  try {
    // 1. Imports from each place, alternated.
    app = await startAppWithEnv({ ...common, INGEST_WORKER: 'false' });
    const sources = app.app.get(SourcesService);
    const places = await deliverEverywhere(dir, parquet, s3.url, azurite);
    const seconds: Record<Where, number[]> = { 'local directory': [], 'S3 (s3rver)': [], 'Azure Blob (Azurite)': [] };
    for (let run = 0; run < runs; run++) {
      for (const place of places) {
        const organizationId = randomUUID();
        const source = await sources.add(organizationId, place.source, 'operator');
        const began = performance.now();
        const result = await sources.run(organizationId, source.sourceId);
        const elapsed = (performance.now() - began) / 1000;
        const outcome = result?.checks.map((check) => `${check.outcome}${check.message ? `: ${check.message}` : ''}`).join('; ');
        if (result?.checks[0]?.outcome !== 'imported' || result.checks[0].rows !== rows) throw new Error(`${place.where}: ${outcome}`);
        seconds[place.where].push(elapsed);
        log(
          `run ${run + 1} ${place.where.padEnd(20)} ${elapsed.toFixed(2)} s (${Math.round(rows / elapsed).toLocaleString('en-US')} rows/s)`,
        );
      }
    }
    const local = median(seconds['local directory']);
    const imports = places.map(({ where }) => ({
      where,
      seconds: seconds[where].map(round),
      p50Seconds: round(median(seconds[where])),
      rowsPerSecond: Math.round(rows / median(seconds[where])),
      throughputOfLocal: round(local / median(seconds[where])),
    }));
    await app.close();
    app = undefined;

    // 2. A manifest's landing to its answer, the worker at the poll interval; the import's time is part 1's from S3.
    const s3Import = imports.find((i) => i.where === 'S3 (s3rver)')!.p50Seconds;
    const arrival = { ...(await manifestToAnswer(parquet, rows, poll, common, s3.url)), boundSeconds: round(poll + s3Import) };
    const report = {
      startedAt,
      machine: { cpus: cpus().length, cpuModel: cpus()[0]?.model, memoryGiB: round(totalmem() / 1024 ** 3) },
      rows,
      parquetMB: round(bytes / 1e6),
      runs,
      imports,
      arrival,
      targets: [
        ...imports
          .filter((i) => i.where !== 'local directory')
          .map((i) => ({ target: `${i.where} ÷ local ≥ 0.8`, value: i.throughputOfLocal, met: i.throughputOfLocal >= 0.8 })),
        { target: 'manifest landing → answered ≤ poll + import', value: arrival.seconds, met: arrival.seconds <= arrival.boundSeconds },
      ],
    };
    const out = resolve('bench/results');
    mkdirSync(out, { recursive: true });
    const stamp = `${report.startedAt.replace(/[:.]/g, '-')}-sources`;
    writeFileSync(join(out, `${stamp}.json`), `${JSON.stringify(report, null, 2)}\n`);
    writeFileSync(join(out, `${stamp}.md`), markdown(report));
    log(`\n${markdown(report)}\nwritten to bench/results/${stamp}.{json,md}`);
  } finally {
    await app?.close();
    await Promise.all([server.stop(), s3.stop(), azurite.stop()]);
  }
}

/** As the import bench writes it: CSV first (NULL tokens), then Parquet with the CSV's inferred (nullable) types. */
async function generateParquet(dir: string, parquet: string, rows: number): Promise<void> {
  const generator = new ClickhouseService(
    loadConfig({ ...process.env, CLICKHOUSE_URL: undefined, DATA_DIR: join(dir, 'generator'), CLICKHOUSE_DATABASE: 'bench' }),
  );
  const csv = join(dir, 'focus-export.csv');
  await generator.command(
    `INSERT INTO FUNCTION file('${csv}', CSVWithNames) ${focusExportSql(rows)}
     SETTINGS format_csv_null_representation = 'NULL', max_threads = 2, max_execution_time = 0`,
  );
  await generator.command(
    `INSERT INTO FUNCTION file('${parquet}', Parquet) SELECT * FROM file('${csv}', CSVWithNames)
     SETTINGS format_csv_null_representation = 'NULL', schema_inference_make_columns_nullable = 1, max_threads = 1,
              input_format_parallel_parsing = 0, output_format_parquet_row_group_size = 1000000,
              output_format_parquet_row_group_size_bytes = 4294967296, max_execution_time = 0`,
  );
  await generator.onModuleDestroy();
  rmSync(csv);
}

/** The AWS layout of one delivery of one billing period: the data file and its manifest, relative to the export root. */
function awsLayout(execution: string, exportTime: string, bucket = 'bucket') {
  const data = `focus/data/BILLING_PERIOD=2026-01/${execution}/focus-00001.parquet`;
  const manifest = `focus/metadata/BILLING_PERIOD=2026-01/${execution}/focus-Manifest.json`;
  return {
    data,
    manifest,
    manifestText: JSON.stringify({ executionId: execution, exportTime, dataFiles: [`s3://${bucket}/exports/${data}`] }),
  };
}

async function deliverEverywhere(dir: string, parquet: string, s3Url: string, azurite: { url: string; account: string; key: string }) {
  const body = readFileSync(parquet);
  const aws = awsLayout('exec-1', '2026-02-01T06:00:00Z');
  const local = join(dir, 'exports');
  mkdirSync(join(local, aws.data, '..'), { recursive: true });
  mkdirSync(join(local, aws.manifest, '..'), { recursive: true });
  copyFileSync(parquet, join(local, aws.data));
  writeFileSync(join(local, aws.manifest), aws.manifestText);

  const client = s3Client(s3Url);
  await client.send(new CreateBucketCommand({ Bucket: 'bucket' }));
  await client.send(new PutObjectCommand({ Bucket: 'bucket', Key: `exports/${aws.data}`, Body: body }));
  await client.send(new PutObjectCommand({ Bucket: 'bucket', Key: `exports/${aws.manifest}`, Body: aws.manifestText }));
  client.destroy();

  const container = new ContainerClient(`${azurite.url}/exports`, new StorageSharedKeyCredential(azurite.account, azurite.key));
  await container.createIfNotExists();
  const run = 'focus/20260101-20260131/run-1'; // under the source's prefix `focus`
  await container.getBlockBlobClient(`${run}/part_0_0001.parquet`).uploadData(body);
  const manifest = JSON.stringify({
    runInfo: { runId: 'run-1', submittedTime: '2026-02-01T03:00:00Z' },
    blobs: [{ blobName: `${run}/part_0_0001.parquet`, byteCount: body.length }],
  });
  await container.getBlockBlobClient(`${run}/manifest.json`).upload(manifest, Buffer.byteLength(manifest));

  const s3Options = { endpoint: s3Url, pathStyle: true, credentials: { idEnv: 'BENCH_S3_KEY_ID', secretEnv: 'BENCH_S3_SECRET' } };
  const azureOptions = { endpoint: azurite.url, credentials: { idEnv: 'BENCH_AZURE_ACCOUNT', secretEnv: 'BENCH_AZURE_KEY' } };
  return [
    { where: 'local directory' as Where, source: { integrationId: 'aws', kind: 'aws-data-exports' as const, url: `file://${local}` } },
    {
      where: 'S3 (s3rver)' as Where,
      source: { integrationId: 'aws', kind: 'aws-data-exports' as const, url: 's3://bucket/exports', options: s3Options },
    },
    {
      where: 'Azure Blob (Azurite)' as Where,
      source: { integrationId: 'azure', kind: 'azure-exports' as const, url: 'azure://exports/focus', options: azureOptions },
    },
  ];
}

function s3Client(endpoint: string): S3Client {
  return new S3Client({
    endpoint,
    region: 'us-east-1',
    forcePathStyle: true,
    credentials: { accessKeyId: 'S3RVER', secretAccessKey: 'S3RVER' },
  });
}

/**
 * The API with its worker every `poll` s and an S3 source added before it started: its first round (at start) finds
 * the bucket empty, then the data file and the manifest land; measured from the manifest's landing to /data
 * answering the delivery (at worst a whole poll interval, then the import).
 */
async function manifestToAnswer(parquet: string, rows: number, poll: number, common: Record<string, string>, s3Url: string) {
  const bucket = `arrivals-${randomUUID().slice(0, 8)}`;
  const client = s3Client(s3Url);
  await client.send(new CreateBucketCommand({ Bucket: bucket }));
  const setup = await startAppWithEnv({ ...common, INGEST_WORKER: 'false' });
  const org = await setup.newOrganization();
  const source = await setup.app.get(SourcesService).add(
    org.organizationId,
    {
      integrationId: 'aws',
      kind: 'aws-data-exports',
      url: `s3://${bucket}/exports`,
      options: { endpoint: s3Url, pathStyle: true, credentials: { idEnv: 'BENCH_S3_KEY_ID', secretEnv: 'BENCH_S3_SECRET' } },
    },
    'operator',
  );
  await setup.close();
  const app = await startAppWithEnv({ ...common, INGEST_WORKER: 'true', INGEST_POLL_SECONDS: String(poll) });
  try {
    const sources = app.app.get(SourcesService);
    while (!(await sources.find(org.organizationId, source.sourceId))?.status.lastCheckAt) await sleep(100);
    if (!app.app.get(IngestWorkerService).active) throw new Error('the worker is not active');
    const aws = awsLayout('exec-9', '2026-02-02T06:00:00Z', bucket);
    await client.send(new PutObjectCommand({ Bucket: bucket, Key: `exports/${aws.data}`, Body: readFileSync(parquet) }));
    await client.send(new PutObjectCommand({ Bucket: bucket, Key: `exports/${aws.manifest}`, Body: aws.manifestText }));
    const landed = performance.now();
    for (;;) {
      const answer = await app.http
        .post('/v1/cost-insights/data')
        .set(org.auth)
        .set('Cache-Control', 'no-cache')
        .send({ filters: { inclusions: { dateRange: { start: '2025-01-01', end: '2025-12-31' } } }, groupBy: { dateGrouping: 'monthly' } });
      if (answer.status !== 200) throw new Error(`/data answered ${answer.status}: ${answer.text}`);
      if (answer.body.data.items.length > 0) break;
      if (performance.now() - landed > (poll + 600) * 1000) throw new Error('the delivery was not answered within poll + 10 min');
      await sleep(250);
    }
    const seconds = (performance.now() - landed) / 1000;
    // The check is recorded just after the import published (what /data saw first).
    let history = await sources.history(org.organizationId, source.sourceId, 10);
    for (let i = 0; i < 100 && !history?.some((check) => check.outcome === 'imported'); i++) {
      await sleep(100);
      history = await sources.history(org.organizationId, source.sourceId, 10);
    }
    const imported = history?.find((check) => check.outcome === 'imported');
    if (!imported || imported.rows !== rows) throw new Error(`unexpected history: ${JSON.stringify(history)}`);
    log(`manifest landed → answered: ${seconds.toFixed(1)} s (poll ${poll} s)`);
    return {
      pollSeconds: poll,
      seconds: round(seconds),
      lagSecondsAsRecorded: (await sources.find(org.organizationId, source.sourceId))?.status.lastImportLagSeconds ?? null,
    };
  } finally {
    client.destroy();
    await app.close();
  }
}

const sleep = (ms: number) => new Promise((done) => setTimeout(done, ms));

function markdown(report: {
  startedAt: string;
  machine: { cpus: number; cpuModel?: string; memoryGiB: number };
  rows: number;
  parquetMB: number;
  runs: number;
  imports: Array<{ where: string; seconds: number[]; p50Seconds: number; rowsPerSecond: number; throughputOfLocal: number }>;
  arrival: { pollSeconds: number; seconds: number; lagSecondsAsRecorded: number | null; boundSeconds: number };
  targets: Array<{ target: string; value: number; met: boolean }>;
}): string {
  const lines = [
    `# Data sources bench ${report.startedAt}`,
    '',
    `${report.machine.cpus} × ${report.machine.cpuModel ?? 'CPU'}, ${report.machine.memoryGiB} GiB; one Parquet FOCUS export of ` +
      `${report.rows.toLocaleString('en-US')} line items (${report.parquetMB} MB) imported through a source's check, ${report.runs} runs each, alternated; a ClickHouse server (libchdb) of its own.`,
    '',
    '| from | runs (s) | p50 s | rows/s | throughput ÷ local |',
    '|---|---|---:|---:|---:|',
    ...report.imports.map(
      (i) =>
        `| ${i.where} | ${i.seconds.join(', ')} | ${i.p50Seconds} | ${i.rowsPerSecond.toLocaleString('en-US')} | ${i.throughputOfLocal} |`,
    ),
    '',
    `Manifest landed → answered by /data, the worker polling every ${report.arrival.pollSeconds} s (landed right after a round): ` +
      `**${report.arrival.seconds} s**; the source's recorded lag (arrival → publication) ${report.arrival.lagSecondsAsRecorded ?? '–'} s.`,
    '',
    ...report.targets.map((t) => `- ${t.met ? '✓ met' : '✗ missed'}: ${t.target}: ${t.value}`),
    '',
  ];
  return lines.join('\n');
}

main().catch((error: unknown) => {
  process.stderr.write(`${error instanceof Error ? (error.stack ?? error.message) : String(error)}\n`);
  process.exit(1);
});
