/**
 * FOCUS import throughput (not a test): generates a FOCUS 1.0 CSV of N rows (default 1,000,000),
 * has ClickHouse convert it to Parquet, then imports both into fresh organisations on the embedded
 * engine and on a ClickHouse server, printing rows/s.
 *
 *   npx ts-node -T scripts/bench-ingest.ts [--rows 1000000] [--dir .test-tmp/bench] [--server-url http://…] [--only embedded|server]
 *
 * Without --server-url a ClickHouse HTTP server is started from libchdb (as the e2e tests do).
 */
import { randomUUID } from 'node:crypto';
import { createWriteStream, mkdirSync, rmSync, statSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { pipeline } from 'node:stream/promises';
import { once } from 'node:events';
import { loadConfig } from '../src/config/app-config';
import { ClickhouseService } from '../src/infrastructure/clickhouse/clickhouse.service';
import { migrate } from '../src/infrastructure/clickhouse/migrator';
import { ingestFocus } from '../src/ingest/ingest-focus';
import { startClickhouseServer } from '../test/support/local-servers';

const HEADER = [
  'BilledCost',
  'EffectiveCost',
  'ListCost',
  'ContractedCost',
  'BillingCurrency',
  'BillingPeriodStart',
  'BillingPeriodEnd',
  'ChargePeriodStart',
  'ChargePeriodEnd',
  'ChargeCategory',
  'ChargeClass',
  'ChargeDescription',
  'BillingAccountId',
  'BillingAccountName',
  'SubAccountId',
  'SubAccountName',
  'ProviderName',
  'PublisherName',
  'InvoiceIssuerName',
  'ServiceName',
  'ServiceCategory',
  'RegionId',
  'RegionName',
  'PricingCategory',
  'CommitmentDiscountId',
  'CommitmentDiscountStatus',
  'Tags',
];
const SERVICES = [
  ['Amazon Elastic Compute Cloud', 'Compute'],
  ['Amazon Simple Storage Service', 'Storage'],
  ['Amazon Relational Database Service', 'Databases'],
  ['AWS Lambda', 'Compute'],
  ['Amazon CloudWatch', 'Management and Governance'],
  ['Elastic Load Balancing', 'Networking'],
];
const REGIONS = ['us-east-1', 'us-west-2', 'eu-west-1', 'eu-central-1', 'ap-southeast-1'];
const TYPES = ['m5.large', 'c5.2xlarge', 'r6i.xlarge', 't3.medium', 'g5.4xlarge'];

function arg(name: string): string | undefined {
  const i = process.argv.indexOf(`--${name}`);
  return i >= 0 ? process.argv[i + 1] : undefined;
}

/** Deterministic pseudo-random rows of one September, three billing accounts, 40 sub-accounts. */
async function generateCsv(path: string, rows: number): Promise<void> {
  const out = createWriteStream(path);
  let seed = 42;
  // xorshift32: exact in 32-bit integer arithmetic (a float LCG would lose precision and cycle).
  const random = () => {
    seed ^= seed << 13;
    seed ^= seed >>> 17;
    seed ^= seed << 5;
    return (seed >>> 0) / 4294967296;
  };
  const q = (s: string) => `"${s.replace(/"/g, '""')}"`;
  const write = async (text: string) => {
    if (!out.write(text)) await once(out, 'drain');
  };
  await write(`${HEADER.map(q).join(',')}\n`);
  let chunk = '';
  for (let i = 0; i < rows; i++) {
    const [service, category] = SERVICES[i % SERVICES.length];
    const account = i % 3;
    const day = 1 + (i % 30);
    const hour = i % 24;
    const list = (random() * 5).toFixed(10);
    const contracted = (Number(list) * 0.9).toFixed(10);
    const committed = i % 10 === 0;
    const effective = (Number(contracted) * (committed ? 0.6 : 1)).toFixed(10);
    const start = `2026-09-${String(day).padStart(2, '0')} ${String(hour).padStart(2, '0')}:00:00`;
    const end = `2026-09-${String(day).padStart(2, '0')} ${String(hour).padStart(2, '0')}:59:59`;
    const type = TYPES[i % TYPES.length];
    const tags = JSON.stringify({ environment: ['prod', 'dev', 'test'][i % 3], team: `team-${i % 17}`, application: `app-${i % 53}` });
    const fields = [
      committed ? '0' : effective,
      effective,
      list,
      contracted,
      q('USD'),
      q('2026-09-01 00:00:00'),
      q('2026-10-01 00:00:00'),
      q(start),
      q(end),
      q('Usage'),
      'NULL',
      q(`$0.10 per On Demand Linux ${type} Instance Hour`),
      q(`10000000000${account}`),
      q(`payer-${account}`),
      q(`2000000000${String(i % 40).padStart(2, '0')}`),
      q(`account-${i % 40}`),
      q('AWS'),
      q('Amazon Web Services, Inc.'),
      q('Amazon Web Services, Inc.'),
      q(service),
      q(category),
      q(REGIONS[i % REGIONS.length]),
      q(REGIONS[i % REGIONS.length]),
      q(committed ? 'Committed' : 'Standard'),
      committed ? q('arn:aws:savingsplans::sp-1') : 'NULL',
      committed ? q('Used') : 'NULL',
      q(tags),
    ];
    chunk += `${fields.join(',')}\n`;
    if (chunk.length > 1 << 20) {
      await write(chunk);
      chunk = '';
    }
  }
  await write(chunk);
  out.end();
  await once(out, 'finish');
}

async function csvToParquet(clickhouse: ClickhouseService, csv: string, parquet: string): Promise<void> {
  const result = await clickhouse.client.exec({
    query: `SELECT * FROM file('${csv}', CSVWithNames) FORMAT Parquet`,
    clickhouse_settings: { format_csv_null_representation: 'NULL', schema_inference_make_columns_nullable: 1 },
  });
  await pipeline(result.stream, createWriteStream(parquet));
}

function service(dir: string, url?: string): ClickhouseService {
  const env: Record<string, string | undefined> = { ...process.env, CLICKHOUSE_DATABASE: 'bench', DATA_DIR: join(dir, 'embedded') };
  if (url) env.CLICKHOUSE_URL = url;
  else delete env.CLICKHOUSE_URL;
  return new ClickhouseService(loadConfig(env));
}

async function main(): Promise<void> {
  const rows = Number(arg('rows') ?? 1_000_000);
  const dir = resolve(arg('dir') ?? '.test-tmp/bench');
  const only = arg('only');
  rmSync(dir, { recursive: true, force: true });
  mkdirSync(dir, { recursive: true });
  const csv = join(dir, 'focus-bench.csv');
  const parquet = join(dir, 'focus-bench.parquet');
  let started = Date.now();
  await generateCsv(csv, rows);
  console.log(
    `generated ${rows.toLocaleString('en-US')} rows, ${(statSync(csv).size / 1e6).toFixed(0)} MB CSV in ${((Date.now() - started) / 1000).toFixed(1)} s`,
  );

  const results: string[] = [];
  const modes: ('embedded' | 'server')[] = only ? [only as 'embedded' | 'server'] : ['embedded', 'server'];
  for (const mode of modes) {
    let stop: (() => Promise<void>) | undefined;
    let url = arg('server-url');
    if (mode === 'server' && !url) {
      const server = await startClickhouseServer(join(dir, 'server'));
      url = server.url;
      stop = server.stop;
    }
    const clickhouse = service(dir, mode === 'server' ? url : undefined);
    try {
      await migrate(clickhouse);
      if (mode === modes[0]) {
        // The embedded engine reads local files directly; a server may not (user_files_path).
        const converter = mode === 'embedded' ? clickhouse : service(join(dir, 'converter'));
        started = Date.now();
        await csvToParquet(converter, csv, parquet);
        console.log(`wrote ${(statSync(parquet).size / 1e6).toFixed(0)} MB Parquet in ${((Date.now() - started) / 1000).toFixed(1)} s`);
        if (converter !== clickhouse) await converter.onModuleDestroy();
      }
      for (const [format, path] of [
        ['CSV', csv],
        ['Parquet', parquet],
      ] as const) {
        const summary = await ingestFocus(clickhouse, { paths: [path], organizationId: randomUUID() });
        const line = `${mode.padEnd(8)} ${format.padEnd(7)} ${summary.rows.toLocaleString('en-US')} rows  ${(summary.elapsedMs / 1000).toFixed(1)} s  ${summary.rowsPerSecond.toLocaleString('en-US')} rows/s  (${(summary.bytes / 1e6 / (summary.elapsedMs / 1000)).toFixed(0)} MB/s)`;
        console.log(line);
        results.push(line);
      }
    } finally {
      await clickhouse.onModuleDestroy();
      await stop?.();
    }
  }
  console.log(`\n${results.join('\n')}`);
}

main().catch((error) => {
  console.error(error);
  process.exit(1);
});
