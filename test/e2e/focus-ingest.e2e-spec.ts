// modes: embedded server cluster — ingestion and the publish protocol
import { randomBytes } from 'node:crypto';
import { createWriteStream, mkdirSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { gzipSync } from 'node:zlib';
import { parseCommandLine } from '../../src/cli/cli-args';
import { runCli } from '../../src/cli/cli-runner';
import { deleteOrganizationCosts } from '../../src/store/cost-partitions';
import { ingestFocus, IngestFocusSummary } from '../../src/ingest/ingest-focus';
import { ABANDONED_IMPORT_AFTER_MS } from '../../src/store/publish/import-staging';
import { runIngestFocusCommand } from '../../src/cli/ingest-focus.command';
import { TestApp, TestOrganization } from '../support/test-app';
import { generatedTableName } from '../../src/store/schema/store-tables';

/**
 * FOCUS import of the real FinOps Foundation sample (1,000 AWS/Azure/Oracle rows), then the API's
 * answers checked against sums computed HERE from the CSV text: a small CSV parser, the documented
 * mapping (docs/focus-mapping.md) re-expressed row by row, exact BigInt decimal sums.
 */
const SAMPLE = join(__dirname, '../fixtures/focus/focus_sample.csv');
const SEPTEMBER_2024 = { start: '2024-09-01', end: '2024-09-30' };

// ------------------------------------------------------------------ the test's own CSV reading

interface Field {
  text: string;
  quoted: boolean;
}

/** RFC 4180 records, keeping whether each field was quoted (an unquoted NULL is a null). */
function parseCsv(text: string): Field[][] {
  const records: Field[][] = [];
  let record: Field[] = [];
  let field = '';
  let quoted = false;
  let inQuotes = false;
  const endField = () => {
    record.push({ text: field, quoted });
    field = '';
    quoted = false;
  };
  for (let i = 0; i < text.length; i++) {
    const ch = text[i];
    if (inQuotes) {
      if (ch === '"' && text[i + 1] === '"') {
        field += '"';
        i++;
      } else if (ch === '"') inQuotes = false;
      else field += ch;
    } else if (ch === '"') {
      inQuotes = true;
      quoted = true;
    } else if (ch === ',') endField();
    else if (ch === '\n') {
      endField();
      records.push(record);
      record = [];
    } else if (ch !== '\r') field += ch;
  }
  if (field !== '' || record.length > 0) {
    endField();
    records.push(record);
  }
  return records;
}

type FocusRow = Record<string, string | null>;

function readSample(): { header: string[]; lines: string[]; rows: FocusRow[] } {
  const text = readFileSync(SAMPLE, 'utf8');
  const [headerRecord, ...records] = parseCsv(text);
  const header = headerRecord.map((f) => f.text);
  const rows = records.map((record) => {
    const row: FocusRow = {};
    header.forEach((name, i) => {
      const field = record[i];
      const value = field.text.trim();
      row[name] = (!field.quoted && value === 'NULL') || value === '' ? null : value;
    });
    return row;
  });
  return { header, lines: text.split('\n').filter((line) => line !== ''), rows };
}

/** Decimal text → units of 1e-10, truncated toward zero like Decimal(38,10). */
function scaled(value: string | null): bigint | null {
  if (value === null) return null;
  const match = /^(-)?(\d+)(?:\.(\d+))?$/.exec(value);
  if (!match) throw new Error(`not a decimal: ${value}`);
  const units = BigInt(match[2]) * 10n ** 10n + BigInt((match[3] ?? '').slice(0, 10).padEnd(10, '0'));
  return match[1] ? -units : units;
}
const toNumber = (units: bigint) => Number(units) / 1e10;
/** Units of 1e-10 as exact decimal text without trailing zeros, as the import summary writes sums. */
function decimalText(units: bigint): string {
  const sign = units < 0n ? '-' : '';
  const abs = units < 0n ? -units : units;
  const fraction = (abs % 10n ** 10n).toString().padStart(10, '0').replace(/0+$/, '');
  return `${sign}${abs / 10n ** 10n}${fraction ? `.${fraction}` : ''}`;
}

/** One row as the documented mapping defines it. */
interface Expected {
  cloud: string;
  service: string;
  region: string;
  usageDate: string;
  billingPeriod: string;
  integration: string;
  tags: Record<string, string>;
  billed: bigint;
  amortized: bigint;
  onDemand: bigint;
  totalSavings: bigint;
  commitmentSavings: bigint;
}

const CLOUDS: Record<string, string> = { AWS: 'AWS', Microsoft: 'Azure', Oracle: 'Oracle' };

function expectedRow(row: FocusRow): Expected {
  const effective = scaled(row.EffectiveCost) ?? 0n;
  const list = scaled(row.ListCost) ?? effective;
  const contracted = scaled(row.ContractedCost) ?? list;
  const usage = row.ChargeCategory === 'Usage' && row.CommitmentDiscountStatus !== 'Unused';
  const committed = row.CommitmentDiscountId !== null || row.CommitmentDiscountStatus === 'Used';
  const cloud = CLOUDS[row.ProviderName!];
  const account = row.BillingAccountId!.split('/').filter(Boolean).pop()!;
  const tags: Record<string, string> = {};
  for (const [key, value] of Object.entries(row.Tags ? (JSON.parse(row.Tags) as Record<string, unknown>) : {})) {
    if (key.trim() !== '') tags[key.trim()] = typeof value === 'string' ? value : JSON.stringify(value);
  }
  return {
    cloud,
    service: row.ServiceName!,
    region: row.RegionId ?? row.RegionName ?? '(not set)',
    usageDate: row.ChargePeriodStart!.slice(0, 10),
    billingPeriod: row.BillingPeriodStart!.slice(0, 7),
    integration: `${cloud}-${account}`.toLowerCase(),
    tags,
    billed: scaled(row.BilledCost) ?? 0n,
    amortized: effective,
    onDemand: usage ? list : 0n,
    totalSavings: usage ? list - effective : 0n,
    commitmentSavings: usage && committed ? contracted - effective : 0n,
  };
}

const sum = (rows: Expected[], of: (r: Expected) => bigint) => toNumber(rows.reduce((n, r) => n + of(r), 0n));
const distinct = (values: string[]) => [...new Set(values)].sort();

// ------------------------------------------------------------------ the tests

describe('FOCUS import (ingestFocus) and the API on imported data', () => {
  let t: TestApp;
  let tmp: string;
  const sample = readSample();
  const expected = sample.rows.map(expectedRow);
  let orgA: TestOrganization;
  let summaryA: IngestFocusSummary;

  const post = (org: TestOrganization, path: string, body: unknown) =>
    t.http
      .post(`/v1/cost-insights/${path}`)
      .set(org.auth)
      .send(body as object);
  const dataByCloud = (org: TestOrganization) =>
    post(org, 'data', { filters: { inclusions: { dateRange: SEPTEMBER_2024 } }, groupBy: { dateGrouping: 'monthly', dimension: 'cloud' } });
  const importInto = (org: TestOrganization, paths: string[], integrationId?: string) =>
    ingestFocus(t.clickhouse, { paths, organizationId: org.organizationId, integrationId });

  /** /data answers (monthly, by cloud, plus summary) equal the sums of `rows`. */
  async function expectDataMatches(org: TestOrganization, rows: Expected[]) {
    const response = await dataByCloud(org);
    expect(response.status).toBe(200);
    const { items, summary } = response.body.data;
    const clouds = distinct(rows.map((r) => r.cloud));
    expect(items.map((i: { dimension_value: string }) => i.dimension_value).sort()).toEqual(clouds);
    for (const item of items) {
      const of = rows.filter((r) => r.cloud === item.dimension_value);
      expect(item.usage_date).toBe('2024-09-01');
      expect(item.billed_cost).toBeCloseTo(
        sum(of, (r) => r.billed),
        9,
      );
      expect(item.cash_cost).toBeCloseTo(
        sum(of, (r) => r.billed),
        9,
      );
      expect(item.amortized_cost).toBeCloseTo(
        sum(of, (r) => r.amortized),
        9,
      );
      expect(item.on_demand_cost).toBeCloseTo(
        sum(of, (r) => r.onDemand),
        9,
      );
      expect(item.total_savings).toBeCloseTo(
        sum(of, (r) => r.totalSavings),
        9,
      );
      expect(item.commitment_savings).toBeCloseTo(
        sum(of, (r) => r.commitmentSavings),
        9,
      );
    }
    expect(summary.total_billed_cost).toBeCloseTo(
      sum(rows, (r) => r.billed),
      9,
    );
    expect(summary.total_amortized_cost).toBeCloseTo(
      sum(rows, (r) => r.amortized),
      9,
    );
    expect(summary.total_on_demand_cost).toBeCloseTo(
      sum(rows, (r) => r.onDemand),
      9,
    );
    expect(summary.total_savings).toBeCloseTo(
      sum(rows, (r) => r.totalSavings),
      9,
    );
    return response.body.data;
  }

  beforeAll(async () => {
    t = await TestApp.start();
    tmp = join(process.env.E2E_TMP_DIR ?? '.test-tmp', `focus-${randomBytes(4).toString('hex')}`);
    mkdirSync(tmp, { recursive: true });
    orgA = await t.newOrganization();
    summaryA = await importInto(orgA, [SAMPLE]);
  });
  afterAll(async () => {
    await t?.close();
  });

  it('parses the sample the way its README describes it (guards the oracle itself)', () => {
    expect(sample.rows).toHaveLength(1000);
    expect(sample.header).toHaveLength(44);
    expect(expected.filter((r) => r.cloud === 'AWS')).toHaveLength(942);
    // README: Σ BilledCost 20.52022672899 (exact); per-row truncation to 10 places loses < 1e-9 here.
    expect(sum(expected, (r) => r.billed)).toBeCloseTo(20.52022672899, 8);
    expect(sum(expected, (r) => r.amortized)).toBeCloseTo(14.97651418586, 8);
  });

  it('reports a reconcilable summary: rows, billing periods, integrations and Σ Billed/Effective/List as loaded', () => {
    expect(summaryA.rows).toBe(1000);
    expect(summaryA.files).toBe(1);
    expect(summaryA.billingPeriods).toEqual(['2024-09', '2024-10']);
    expect(summaryA.integrationIds).toEqual(distinct(expected.map((r) => r.integration)));
    expect(summaryA.currencies).toEqual(['USD']);
    expect(Number(summaryA.sumBilledCost)).toBeCloseTo(
      sum(expected, (r) => r.billed),
      10,
    );
    expect(Number(summaryA.sumEffectiveCost)).toBeCloseTo(
      sum(expected, (r) => r.amortized),
      10,
    );
    const listTotal = sample.rows.reduce((n, r) => n + (scaled(r.ListCost) ?? 0n), 0n);
    expect(Number(summaryA.sumListCost)).toBeCloseTo(toNumber(listTotal), 10);
    expect(summaryA.partitions.reduce((n, p) => n + p.rows, 0)).toBe(1000);
  });

  it('answers /data with the sums of the CSV, per cloud and in the summary', async () => {
    await expectDataMatches(orgA, expected);
  });

  it('keeps each row’s ResourceId', async () => {
    const stored = await t.clickhouse.query<{ resource_id: string; line_items: string }>(
      `SELECT resource_id, toString(count()) AS line_items FROM ${t.clickhouse.table('cost_line_items')}
       WHERE organization_id = {org:UUID} GROUP BY resource_id ORDER BY resource_id`,
      { org: orgA.organizationId },
    );
    const counts = new Map<string, number>();
    for (const row of sample.rows) counts.set(row.ResourceId ?? '', (counts.get(row.ResourceId ?? '') ?? 0) + 1);
    expect(stored.map((row) => [row.resource_id, Number(row.line_items)])).toEqual(
      [...counts.entries()].sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)),
    );
  });

  it('takes the billing period from BillingPeriodStart, not from the charge date', async () => {
    const response = await post(orgA, 'data', {
      filters: { inclusions: { dateRange: SEPTEMBER_2024 } },
      groupBy: { dateGrouping: 'monthly', dimension: 'billingPeriod' },
    });
    expect(response.status).toBe(200);
    const byPeriod = Object.fromEntries(
      response.body.data.items.map((i: { dimension_value: string; billed_cost: number }) => [i.dimension_value, i.billed_cost]),
    );
    expect(Object.keys(byPeriod).sort()).toEqual(['2024-09', '2024-10']);
    for (const period of ['2024-09', '2024-10']) {
      expect(byPeriod[period]).toBeCloseTo(
        sum(
          expected.filter((r) => r.billingPeriod === period),
          (r) => r.billed,
        ),
        9,
      );
    }
  });

  it('answers /filters with the values of the CSV', async () => {
    const response = await post(orgA, 'filters', { filters: { inclusions: { dateRange: SEPTEMBER_2024 } } });
    expect(response.status).toBe(200);
    const data = response.body.data;
    expect(data.clouds).toEqual(['AWS', 'Azure', 'Oracle']);
    expect(data.billingPeriods).toEqual(['2024-09', '2024-10']);
    expect([...data.services].sort()).toEqual(distinct(expected.map((r) => r.service)));
    expect([...data.regions].sort()).toEqual(distinct(expected.map((r) => r.region)));
    expect([...data.integrations].sort()).toEqual(distinct(expected.map((r) => r.integration)));
    expect([...data.resourceTags].sort()).toEqual(distinct(expected.flatMap((r) => Object.keys(r.tags))));
    expect(data.accounts).toHaveLength(new Set(sample.rows.map((r) => r.SubAccountId)).size);
  });

  it('answers /tag-values from the JSON Tags (keys trimmed: " org" and "org" are one key)', async () => {
    expect(sample.rows.some((r) => r.Tags?.includes('" org"'))).toBe(true);
    for (const tagKey of ['environment', 'org']) {
      const response = await post(orgA, 'tag-values', { tagKey });
      expect(response.status).toBe(200);
      const values = distinct(expected.map((r) => r.tags[tagKey]).filter((v): v is string => v !== undefined && v !== ''));
      expect(values.length).toBeGreaterThan(0);
      expect([...response.body.data.values].sort()).toEqual(values);
    }
    // A tag filter on /data: Σ BilledCost of rows tagged environment=dev (README: 18.20324140013).
    const response = await post(orgA, 'data', {
      filters: { inclusions: { dateRange: SEPTEMBER_2024, resourceTag: 'environment', resourceTagValues: ['dev'] } },
      groupBy: { dateGrouping: 'monthly' },
    });
    expect(response.status).toBe(200);
    const dev = expected.filter((r) => r.tags.environment === 'dev');
    expect(response.body.data.summary.total_billed_cost).toBeCloseTo(
      sum(dev, (r) => r.billed),
      9,
    );
    expect(response.body.data.summary.total_billed_cost).toBeCloseTo(18.20324140013, 8);
  });

  it('answers /compare with the sums of the CSV for two halves of September', async () => {
    const baselinePeriod = { start: '2024-09-01', end: '2024-09-15' };
    const comparisonPeriod = { start: '2024-09-16', end: '2024-09-30' };
    const response = await post(orgA, 'compare', {
      baselinePeriod,
      comparisonPeriod,
      metric: 'billed_cost',
      groupBy: { dimension: 'cloud', dateGrouping: 'monthly' },
    });
    expect(response.status).toBe(200);
    const within = (p: { start: string; end: string }) => (r: Expected) => r.usageDate >= p.start && r.usageDate <= p.end;
    const { comparisons, totals } = response.body.data;
    expect(totals.baseline).toBeCloseTo(
      sum(expected.filter(within(baselinePeriod)), (r) => r.billed),
      9,
    );
    expect(totals.comparison).toBeCloseTo(
      sum(expected.filter(within(comparisonPeriod)), (r) => r.billed),
      9,
    );
    expect(comparisons.map((c: { dimension_value: string }) => c.dimension_value).sort()).toEqual(['AWS', 'Azure', 'Oracle']);
    for (const c of comparisons) {
      const of = expected.filter((r) => r.cloud === c.dimension_value);
      expect(c.baseline.total).toBeCloseTo(
        sum(of.filter(within(baselinePeriod)), (r) => r.billed),
        9,
      );
      expect(c.comparison.total).toBeCloseTo(
        sum(of.filter(within(comparisonPeriod)), (r) => r.billed),
        9,
      );
    }
  });

  it('imports the same rows as Parquet (typed columns, written by ClickHouse) to identical answers, in another organisation', async () => {
    const parquet = await writeSampleAsParquet(t, sample.header, join(tmp, 'focus_sample.parquet'));
    expect(readFileSync(parquet).subarray(0, 4).toString()).toBe('PAR1');
    const orgB = await t.newOrganization();
    const summaryB = await importInto(orgB, [parquet]);
    expect(summaryB.rows).toBe(1000);
    // A server read the file from this process in ranges (url()), not as a body it would hold whole.
    expect(summaryB.warnings).toEqual([]);
    expect(summaryB.sumBilledCost).toBe(summaryA.sumBilledCost);
    expect(summaryB.sumEffectiveCost).toBe(summaryA.sumEffectiveCost);
    expect(summaryB.sumListCost).toBe(summaryA.sumListCost);
    const fromParquet = await expectDataMatches(orgB, expected);
    const fromCsv = (await dataByCloud(orgA)).body.data;
    expect(fromParquet).toEqual(fromCsv);
    const filtersB = (await post(orgB, 'filters', { filters: { inclusions: { dateRange: SEPTEMBER_2024 } } })).body.data;
    const filtersA = (await post(orgA, 'filters', { filters: { inclusions: { dateRange: SEPTEMBER_2024 } } })).body.data;
    // The same rows, loaded a moment apart: all but the load time equal.
    expect({ ...filtersB, dataImportedAt: undefined }).toEqual({ ...filtersA, dataImportedAt: undefined });
    // Two organisations stay apart: A still sees its 1,000 rows once, not A's plus B's.
    await expectDataMatches(orgA, expected);
  });

  it('is idempotent: re-importing the same export replaces its rows instead of adding to them', async () => {
    const again = await importInto(orgA, [SAMPLE]);
    expect(again.rows).toBe(1000);
    expect(again.partitions).toEqual(summaryA.partitions);
    await expectDataMatches(orgA, expected);
  });

  it('drops the staging tables of an import killed more than a day ago, and keeps a recent one', async () => {
    const name = (startedAt: number, suffix = '') => `focus_import_${startedAt.toString(36)}_${randomBytes(4).toString('hex')}${suffix}`;
    const abandoned = [name(Date.now() - ABANDONED_IMPORT_AFTER_MS - 60_000), name(Date.now() - 2 * ABANDONED_IMPORT_AFTER_MS, '_raw0')];
    const recent = name(Date.now() - 60_000);
    for (const table of [...abandoned, recent]) {
      await t.clickhouse.command(`CREATE TABLE ${t.clickhouse.table(generatedTableName(table))} (x UInt8) ENGINE = MergeTree ORDER BY x`);
    }
    const importTables = async () =>
      (
        await t.clickhouse.query<{ name: string }>(
          `SELECT name FROM system.tables WHERE database = {database:String} AND startsWith(name, 'focus_import_')`,
          { database: t.clickhouse.database },
        )
      ).map((row) => row.name);

    await importInto(await t.newOrganization(), [SAMPLE]);

    const left = await importTables();
    for (const table of abandoned) expect(left).not.toContain(table);
    expect(left).toContain(recent);
    await t.clickhouse.command(`DROP TABLE ${t.clickhouse.table(generatedTableName(recent))}`);
  });

  it('keeps imports of different integrations apart; each re-import replaces only its own integration', async () => {
    const org = await t.newOrganization();
    await importInto(org, [SAMPLE], 'export-x');
    await importInto(org, [SAMPLE], 'export-y');
    await importInto(org, [SAMPLE], 'export-x');
    const twice = [...expected, ...expected];
    await expectDataMatches(org, twice);
    const filters = (await post(org, 'filters', { filters: { inclusions: { dateRange: SEPTEMBER_2024 } }, fields: ['integrations'] })).body
      .data;
    expect(filters.integrations).toEqual(['export-x', 'export-y']);
  });

  it('imports a directory of export parts (plain and gzip CSV), skipping non-export files', async () => {
    const dir = join(tmp, 'parts');
    mkdirSync(dir, { recursive: true });
    const [header, ...lines] = sample.lines;
    writeFileSync(join(dir, 'part-00001.csv'), `${[header, ...lines.slice(0, 400)].join('\n')}\n`);
    writeFileSync(join(dir, 'part-00002.csv.gz'), gzipSync(`${[header, ...lines.slice(400)].join('\n')}\n`));
    writeFileSync(join(dir, 'manifest.json'), '{"files": 2}');
    const org = await t.newOrganization();
    const summary = await importInto(org, [dir]);
    expect(summary.files).toBe(2);
    expect(summary.skippedFiles).toEqual([resolve(dir, 'manifest.json')]);
    expect(summary.rows).toBe(1000);
    await expectDataMatches(org, expected);
  });

  describe('paths are literal: glob characters in file and directory names are not expanded', () => {
    const [header, ...lines] = sample.lines;
    /** A part of the sample: data lines [from, to) as a CSV file, and the rows the mapping makes of them. */
    const part = (path: string, from: number, to: number) => {
      writeFileSync(path, `${[header, ...lines.slice(from, to)].join('\n')}\n`);
      return {
        path,
        rows: expected.slice(from, to),
        billedCost: sample.rows.slice(from, to).reduce((n, r) => n + (scaled(r.BilledCost) ?? 0n), 0n),
      };
    };

    // The embedded engine reads each file through a symlink in a private temporary directory: TMPDIR
    // points into the test's own directory so that it can check none is left behind.
    let ingestTmp: string;
    let savedTmpdir: string | undefined;
    beforeAll(() => {
      savedTmpdir = process.env.TMPDIR;
      ingestTmp = resolve(tmp, 'ingest-tmpdir');
      mkdirSync(ingestTmp, { recursive: true });
      process.env.TMPDIR = ingestTmp;
    });
    afterAll(() => {
      if (savedTmpdir === undefined) delete process.env.TMPDIR;
      else process.env.TMPDIR = savedTmpdir;
    });
    afterEach(() => expect(readdirSync(ingestTmp)).toEqual([]));

    it('the test reads the sample one record per line (guards the slicing below)', () => {
      expect(lines).toHaveLength(sample.rows.length);
    });

    // Each file sits next to siblings its name would match as a glob (a shell's, or ClickHouse's file()).
    const cases: Array<{ name: string; siblings: string[] }> = [
      { name: 'part*.csv', siblings: ['part1.csv', 'part-b.csv', 'part?.csv'] },
      { name: 'part?.csv', siblings: ['part1.csv', 'part2.csv', 'part*.csv'] },
      { name: 'br{a,b}.csv', siblings: ['bra.csv', 'brb.csv'] },
      { name: 'x[1].csv', siblings: ['x1.csv'] },
      { name: 'n{1..3}.csv', siblings: ['n1.csv', 'n2.csv'] },
    ];
    for (const [index, { name, siblings }] of cases.entries()) {
      it(`imports exactly the file named ${name}, not its siblings ${siblings.join(', ')}`, async () => {
        const dir = join(tmp, `literal-${index}`);
        mkdirSync(dir, { recursive: true });
        // Siblings first (a sibling may share a name with another case's file): then the file itself, 40 rows apart.
        siblings.forEach((sibling, i) => part(join(dir, sibling), 100 + 150 * i, 250 + 150 * i));
        const file = part(join(dir, name), 10 * index, 10 * index + 40);
        const org = await t.newOrganization();
        const summary = await importInto(org, [file.path]);
        expect(summary.files).toBe(1);
        expect(summary.rows).toBe(40);
        expect(summary.sumBilledCost).toBe(decimalText(file.billedCost));
        await expectDataMatches(org, file.rows);
      });
    }

    it('imports a directory whose name holds glob characters, and only that directory', async () => {
      const parent = join(tmp, 'literal-dirs');
      const dir = join(parent, 'export*{2024,2025}?');
      for (const sibling of ['export-2024-', 'export2024x', 'export-{2024,2025}?']) {
        mkdirSync(join(parent, sibling), { recursive: true });
        part(join(parent, sibling, 'part-1.csv'), 500, 700);
      }
      mkdirSync(dir, { recursive: true });
      const first = part(join(dir, 'part-1.csv'), 0, 30);
      const second = part(join(dir, 'part-*.csv'), 30, 75);
      const org = await t.newOrganization();
      const summary = await importInto(org, [dir]);
      expect(summary.files).toBe(2);
      expect(summary.rows).toBe(75);
      expect(summary.sumBilledCost).toBe(decimalText(first.billedCost + second.billedCost));
      await expectDataMatches(org, [...first.rows, ...second.rows]);
    });

    it('refuses a broken file named with glob characters by its own name, not a sibling', async () => {
      const dir = join(tmp, 'literal-broken');
      mkdirSync(dir, { recursive: true });
      part(join(dir, 'broken1.csv'), 0, 50);
      const broken = join(dir, 'broken?.csv');
      writeFileSync(broken, `${[header, ...lines.slice(0, 20)].join('\n').replace('"USD"', '"USD')}\n`);
      const org = await t.newOrganization();
      const error = await importInto(org, [broken]).then(
        () => undefined,
        (e: Error) => e,
      );
      expect(error?.message).toMatch(/broken\?\.csv: cannot be parsed as CSV/);
      expect(error?.message).not.toContain('broken1.csv');
      expect(error?.message).not.toContain('export-part'); // the symlink is an implementation detail
      expect((await dataByCloud(org)).body.data.items).toEqual([]);
    });
  });

  it('maps FOCUS 1.3 names, vendor x_ columns, commitments, spot, purchases, tax and corrections as documented', async () => {
    // Hand-made FOCUS 1.3-style export: ServiceProviderName/HostProviderName instead of ProviderName,
    // ISO timestamps with Z, "" as null, AWS x_ columns. Expected values are worked out by hand below.
    const header = [
      'BilledCost',
      'EffectiveCost',
      'ListCost',
      'ContractedCost',
      'BillingCurrency',
      'BillingPeriodStart',
      'ChargePeriodStart',
      'ChargeCategory',
      'ChargeClass',
      'BillingAccountId',
      'SubAccountId',
      'SubAccountName',
      'ServiceProviderName',
      'HostProviderName',
      'InvoiceIssuerName',
      'ServiceName',
      'ServiceCategory',
      'RegionId',
      'PricingCategory',
      'CommitmentDiscountId',
      'CommitmentDiscountStatus',
      'Tags',
      'x_UsageType',
      'x_CostCategories',
      'x_Discounts',
    ];
    const row = (values: Record<string, string>) =>
      header
        .map((c) => `"${(values[c] ?? (c === 'ServiceProviderName' || c === 'HostProviderName' ? 'AWS' : '')).replace(/"/g, '""')}"`)
        .join(',');
    const base = {
      BillingCurrency: 'USD',
      BillingPeriodStart: '2026-10-01T00:00:00Z',
      ChargePeriodStart: '2026-10-05T13:00:00Z',
      BillingAccountId: '123456789012',
      SubAccountId: '210987654321',
      SubAccountName: 'payments-prod',
      InvoiceIssuerName: 'AWS',
      ServiceName: 'Amazon Elastic Compute Cloud',
      ServiceCategory: 'Compute',
      RegionId: 'eu-west-1',
      ChargeCategory: 'Usage',
    };
    const lines = [
      header.join(','),
      row({
        ...base,
        BilledCost: '3',
        EffectiveCost: '3',
        ListCost: '10',
        ContractedCost: '9',
        PricingCategory: 'Dynamic',
        x_UsageType: 'EU-SpotUsage:m5.large',
        Tags: '{"env": "prod", "flag": true}',
        x_CostCategories: '{"team": "payments"}',
      }),
      row({
        ...base,
        BilledCost: '0',
        EffectiveCost: '12',
        ListCost: '20',
        ContractedCost: '18',
        PricingCategory: 'Committed',
        CommitmentDiscountId: 'arn:sp-1',
        CommitmentDiscountStatus: 'Used',
        x_Discounts: '{"bundled_discount": -0.5, "spp_discount": -0.25}',
      }),
      row({
        ...base,
        BilledCost: '0',
        EffectiveCost: '4',
        ListCost: '4',
        CommitmentDiscountId: 'arn:sp-1',
        CommitmentDiscountStatus: 'Unused',
      }),
      row({
        ...base,
        BilledCost: '100',
        EffectiveCost: '0',
        ListCost: '100',
        ChargeCategory: 'Purchase',
        CommitmentDiscountId: 'arn:sp-1',
      }),
      row({ ...base, BilledCost: '1.5', EffectiveCost: '1.5', ListCost: '1.5', ChargeCategory: 'Tax', ServiceCategory: '' }),
      row({ ...base, BilledCost: '-2', EffectiveCost: '-2', ListCost: '-2', ChargeClass: 'Correction' }),
      row({
        ...base,
        BilledCost: '5',
        EffectiveCost: '5',
        ListCost: '5',
        ServiceProviderName: 'Red Hat',
        HostProviderName: 'AWS',
        ServiceName: 'Red Hat Enterprise Linux',
      }),
    ];
    const file = join(tmp, 'focus-1.3-vendor.csv');
    writeFileSync(file, lines.join('\r\n') + '\r\n');
    const org = await t.newOrganization();
    const summary = await importInto(org, [file]);
    expect(summary.integrationIds).toEqual(['aws-123456789012']);
    expect(summary.sumBilledCost).toBe('107.5');

    const response = await post(org, 'data', {
      filters: { inclusions: { dateRange: { start: '2026-10-01', end: '2026-10-31' } } },
      groupBy: { dateGrouping: 'monthly', dimensions: ['costType', 'costLayer'] },
    });
    expect(response.status).toBe(200);
    const byKey = Object.fromEntries(
      response.body.data.items.map((i: { dimension_values: Record<string, string> }) => [
        `${i.dimension_values.costType}|${i.dimension_values.costLayer}`,
        i,
      ]),
    );
    const metrics = (key: string) => {
      const item = byKey[key];
      expect(item).toBeDefined();
      return [
        item.billed_cost,
        item.amortized_cost,
        item.on_demand_cost,
        item.enterprise_discount_savings,
        item.product_discount_savings,
        item.partner_discount_savings,
        item.commitment_savings,
        item.spot_savings,
        item.other_savings,
      ];
    };
    // billed, amortized, on-demand, enterprise, product, partner, commitment, spot, other
    expect(metrics('Spot Usage|Infrastructure')).toEqual([3, 3, 10, 1, 0, 0, 0, 6, 0]);
    expect(metrics('Committed Usage|Infrastructure')).toEqual([0, 12, 20, 1.25, 0.5, 0.25, 6, 0, 0]);
    expect(metrics('Unused Commitment|Infrastructure')).toEqual([0, 4, 0, 0, 0, 0, 0, 0, 0]);
    expect(metrics('Purchase|Infrastructure')).toEqual([100, 0, 0, 0, 0, 0, 0, 0, 0]);
    expect(metrics('Tax|Shared')).toEqual([1.5, 1.5, 0, 0, 0, 0, 0, 0, 0]);
    expect(metrics('Usage (Correction)|Infrastructure')).toEqual([-2, -2, -2, 0, 0, 0, 0, 0, 0]);
    expect(metrics('Usage|Marketplace')).toEqual([5, 5, 5, 0, 0, 0, 0, 0, 0]);
    expect(Object.keys(byKey)).toHaveLength(7);

    const filters = (await post(org, 'filters', { filters: { inclusions: { dateRange: { start: '2026-10-01', end: '2026-10-31' } } } }))
      .body.data;
    expect(filters.clouds).toEqual(['AWS']);
    expect(filters.instanceTypes).toEqual(['(not set)', 'm5.large']);
    expect(filters.usageTypes).toEqual(['(not set)', 'EU-SpotUsage:m5.large']);
    expect(filters.costCategories).toEqual(['team']);
    expect(filters.resourceTags).toEqual(['env', 'flag']);
    expect(filters.accounts).toEqual(['210987654321']);
    expect((await post(org, 'cost-category-values', { categoryKey: 'team' })).body.data.values).toEqual(['payments']);
    expect((await post(org, 'tag-values', { tagKey: 'flag' })).body.data.values).toEqual(['true']);
  });

  it('keeps FOCUS 1.3 allocation: AllocatedMethodId as a dimension and filter, AllocatedTags read as tags under the row’s own', async () => {
    // A provider split one shared node (6 + 4) onto two namespaces; a third row was not allocated. Worked out by hand.
    const header = ['BilledCost', 'EffectiveCost', 'ListCost', 'BillingCurrency', 'BillingPeriodStart', 'ChargePeriodStart'];
    const allocation = ['AllocatedMethodId', 'AllocatedMethodDetails', 'AllocatedResourceId', 'AllocatedResourceName', 'AllocatedTags'];
    const columns = [...header, 'ChargeCategory', 'BillingAccountId', 'ServiceProviderName', 'ServiceName', 'Tags', ...allocation];
    const line = (cost: string, tags: string, ...allocated: string[]) =>
      [
        cost,
        cost,
        cost,
        'USD',
        '2026-10-01T00:00:00Z',
        '2026-10-07T00:00:00Z',
        'Usage',
        '123456789012',
        'AWS',
        'Amazon EKS',
        tags,
        ...allocated,
      ]
        .map((value) => `"${value.replace(/"/g, '""')}"`)
        .join(',');
    const details = '{"Elements":[{"AllocatedRatio":0.6,"UsageUnit":"vCPU-Hours"}]}';
    const file = join(tmp, 'focus-1.3-allocated.csv');
    writeFileSync(
      file,
      [
        columns.join(','),
        line('6', '{"env": "prod"}', 'cluster-cpu-share', details, 'arn:node-1', 'node-1', '{"k8s-namespace": "payments", "env": "alloc"}'),
        line('4', '', 'cluster-cpu-share', '', 'arn:node-1', 'node-1', '{"k8s-namespace": "search"}'),
        line('2.5', '{"env": "dev"}', '', '', '', '', ''),
      ].join('\n') + '\n',
    );
    const org = await t.newOrganization();
    expect((await importInto(org, [file])).sumBilledCost).toBe('12.5');
    const october = { dateRange: { start: '2026-10-01', end: '2026-10-31' } };
    const costs = async (inclusions: object, dimension: string) => {
      const response = await post(org, 'data', {
        filters: { inclusions: { ...october, ...inclusions } },
        groupBy: { dateGrouping: 'monthly', dimension },
      });
      expect(response.status).toBe(200);
      return Object.fromEntries(
        response.body.data.items.map((i: { dimension_value: string; billed_cost: number }) => [i.dimension_value, i.billed_cost]),
      );
    };

    expect(await costs({}, 'allocatedMethod')).toEqual({ 'cluster-cpu-share': 10, '(not set)': 2.5 });
    expect(await costs({ allocatedMethods: ['cluster-cpu-share'] }, 'tag:k8s-namespace')).toEqual({ payments: 6, search: 4 });
    expect(await costs({ allocatedMethods: ['(not set)'] }, 'tag:env')).toEqual({ dev: 2.5 });
    // The row's own Tags win over its AllocatedTags: env=alloc is nowhere.
    expect((await post(org, 'tag-values', { tagKey: 'env' })).body.data.values).toEqual(['dev', 'prod']);
    const filters = (await post(org, 'filters', { filters: { inclusions: october } })).body.data;
    expect(filters.allocatedMethods).toEqual(['(not set)', 'cluster-cpu-share']);
    const stored = await t.clickhouse.query<Record<string, string>>(
      `SELECT allocated_method_id, allocated_method_details, allocated_resource_id, allocated_resource_name, toString(billed_cost) AS billed
       FROM ${t.clickhouse.table('cost_line_items')} WHERE organization_id = {org:UUID} ORDER BY billed_cost DESC`,
      { org: org.organizationId },
    );
    expect(stored.map((row) => Object.values(row))).toEqual([
      ['cluster-cpu-share', details, 'arn:node-1', 'node-1', '6'],
      ['cluster-cpu-share', '', 'arn:node-1', 'node-1', '4'],
      ['', '', '', '', '2.5'],
    ]);
  });

  it('keeps the commitment columns and ContractApplied per row; refuses a quantity or a ContractApplied it cannot read', async () => {
    // A FOCUS 1.3-style export: a savings plan used and left unused, a capacity reservation, a charge drawing down a
    // contract commitment, and a row with none of them.
    const columns = [
      'BilledCost',
      'EffectiveCost',
      'ListCost',
      'BillingCurrency',
      'BillingPeriodStart',
      'ChargePeriodStart',
      'ChargeCategory',
      'BillingAccountId',
      'ServiceProviderName',
      'ServiceName',
      'PricingCategory',
      'CommitmentDiscountId',
      'CommitmentDiscountName',
      'CommitmentDiscountType',
      'CommitmentDiscountCategory',
      'CommitmentDiscountStatus',
      'CommitmentDiscountQuantity',
      'CommitmentDiscountUnit',
      'CapacityReservationId',
      'CapacityReservationStatus',
      'ContractApplied',
    ];
    const contract = '{"Elements":[{"ContractId":"c-1","ContractCommitmentId":"cc-1","ContractCommitmentAppliedCost":2.5}]}';
    const line = (cost: string, ...rest: string[]) =>
      [cost, cost, cost, 'USD', '2026-10-01T00:00:00Z', '2026-10-08T00:00:00Z', 'Usage', '123456789012', 'AWS', 'Amazon EC2', ...rest]
        .map((value) => `"${value.replace(/"/g, '""')}"`)
        .join(',');
    const rows = [
      line('3', 'Committed', 'arn:sp-1', 'Compute SP', 'Savings Plan', 'Spend', 'Used', '3.0000000001', 'USD', '', '', ''),
      line('1', 'Committed', 'arn:sp-1', 'Compute SP', 'Savings Plan', 'Spend', 'Unused', '1', 'USD', '', '', ''),
      line('2', 'Standard', '', '', '', '', '', '', '', 'cr-7', 'Used', contract),
      line('4', 'Standard', '', '', '', '', '', '', '', '', '', ''),
    ];
    const file = join(tmp, 'focus-1.3-commitments.csv');
    writeFileSync(file, [columns.join(','), ...rows].join('\n') + '\n');
    const org = await t.newOrganization();
    expect((await importInto(org, [file])).sumBilledCost).toBe('10');
    const stored = await t.clickhouse.query<Record<string, string>>(
      `SELECT pricing_category, commitment_discount_id, commitment_discount_name, commitment_discount_type, commitment_discount_category,
              commitment_discount_status, toString(commitment_discount_quantity) AS quantity, commitment_discount_unit,
              capacity_reservation_id, capacity_reservation_status, contract_applied
       FROM ${t.clickhouse.table('cost_line_items')} WHERE organization_id = {org:UUID} ORDER BY billed_cost DESC`,
      { org: org.organizationId },
    );
    expect(stored.map((row) => Object.values(row))).toEqual([
      ['Standard', '', '', '', '', '', '0', '', '', '', ''],
      ['Committed', 'arn:sp-1', 'Compute SP', 'Savings Plan', 'Spend', 'Used', '3.0000000001', 'USD', '', '', ''],
      ['Standard', '', '', '', '', '', '0', '', 'cr-7', 'Used', contract],
      ['Committed', 'arn:sp-1', 'Compute SP', 'Savings Plan', 'Spend', 'Unused', '1', 'USD', '', '', ''],
    ]);

    const refused = async (name: string, replace: [string, string], message: RegExp) => {
      const bad = join(tmp, name);
      writeFileSync(bad, [columns.join(','), ...rows.map((row, i) => (i === 2 ? row.replace(...replace) : row))].join('\n') + '\n');
      await expect(importInto(org, [bad])).rejects.toThrow(message);
    };
    await refused(
      'bad-contract.csv',
      [contract.replace(/"/g, '""'), '[1]'],
      /bad-contract\.csv:line 4: ContractApplied is not a JSON object/,
    );
    await refused(
      'bad-quantity.csv',
      ['"","","","cr-7"', '"","12x","","cr-7"'],
      /bad-quantity\.csv:line 4: CommitmentDiscountQuantity is not a decimal number/,
    );
    expect(
      await t.clickhouse.query(`SELECT 1 FROM ${t.clickhouse.table('cost_line_items')} WHERE organization_id = {org:UUID}`, {
        org: org.organizationId,
      }),
    ).toHaveLength(4);
  });

  it('maps Azure CSP partner earned credit (x_PartnerCreditApplied/Rate) into partner savings, out of the enterprise bucket', async () => {
    const header = [
      'BilledCost',
      'EffectiveCost',
      'ListCost',
      'ContractedCost',
      'BillingCurrency',
      'BillingPeriodStart',
      'ChargePeriodStart',
      'ChargeCategory',
      'BillingAccountId',
      'SubAccountId',
      'ProviderName',
      'ServiceName',
      'ServiceCategory',
      'RegionId',
      'x_PartnerCreditApplied',
      'x_PartnerCreditRate',
    ];
    const base = {
      BillingCurrency: 'USD',
      BillingPeriodStart: '2026-10-01',
      ChargePeriodStart: '2026-10-07',
      ChargeCategory: 'Usage',
      BillingAccountId: 'csp-billing-1',
      ProviderName: 'Microsoft',
      ServiceName: 'Virtual Machines',
      ServiceCategory: 'Compute',
      RegionId: 'westeurope',
    };
    const row = (values: Record<string, string>, subAccount: string) =>
      header.map((c) => (({ ...base, SubAccountId: subAccount, ...values }) as Record<string, string>)[c] ?? '').join(',');
    const lines = [
      header.join(','),
      // Applied at 15 %: credit = 85 × 0.15 / 0.85 = 15, within list − contracted = 20 → enterprise 5, partner 15.
      row(
        {
          BilledCost: '85',
          EffectiveCost: '85',
          ListCost: '105',
          ContractedCost: '85',
          x_PartnerCreditApplied: 'True',
          x_PartnerCreditRate: '0.15',
        },
        'sub-applied',
      ),
      // Applied, but the negotiated gap (2) is smaller than the credit (15): capped → enterprise 0, partner 2.
      row(
        {
          BilledCost: '85',
          EffectiveCost: '85',
          ListCost: '87',
          ContractedCost: '85',
          x_PartnerCreditApplied: 'true',
          x_PartnerCreditRate: '0.15',
        },
        'sub-capped',
      ),
      // Not applied, and a nonsensical rate: no partner credit.
      row(
        {
          BilledCost: '10',
          EffectiveCost: '10',
          ListCost: '12',
          ContractedCost: '10',
          x_PartnerCreditApplied: 'False',
          x_PartnerCreditRate: '0.15',
        },
        'sub-none',
      ),
      row(
        {
          BilledCost: '10',
          EffectiveCost: '10',
          ListCost: '12',
          ContractedCost: '10',
          x_PartnerCreditApplied: 'true',
          x_PartnerCreditRate: '1.5',
        },
        'sub-bad-rate',
      ),
    ];
    const file = join(tmp, 'azure-pec.csv');
    writeFileSync(file, lines.join('\n') + '\n');
    const org = await t.newOrganization();
    await importInto(org, [file]);
    const response = await post(org, 'data', {
      filters: { inclusions: { dateRange: { start: '2026-10-01', end: '2026-10-31' } } },
      groupBy: { dateGrouping: 'monthly', dimension: 'account' },
    });
    expect(response.status).toBe(200);
    const savings = Object.fromEntries(
      response.body.data.items.map((i: Record<string, number> & { dimension_value: string }) => [
        i.dimension_value,
        [i.on_demand_cost, i.enterprise_discount_savings, i.partner_discount_savings, i.total_savings],
      ]),
    );
    // on-demand, enterprise, partner, total (= list − effective in every case)
    expect(savings).toEqual({
      'sub-applied': [105, 5, 15, 20],
      'sub-capped': [87, 0, 2, 2],
      'sub-none': [12, 2, 0, 2],
      'sub-bad-rate': [12, 2, 0, 2],
    });
  });

  it('deletes the rows of one organisation by dropping its partitions, leaving other organisations untouched', async () => {
    const [gone, kept] = [await t.newOrganization(), await t.newOrganization()];
    await importInto(gone, [SAMPLE]);
    await importInto(kept, [SAMPLE]);
    expect(await deleteOrganizationCosts(t.clickhouse, gone.organizationId)).toBe(1000);
    const response = await dataByCloud(gone);
    expect(response.status).toBe(200);
    expect(response.body.data.items).toEqual([]);
    expect(response.body.data.summary.total_billed_cost).toBe(0);
    await expectDataMatches(kept, expected);
    expect(await deleteOrganizationCosts(t.clickhouse, gone.organizationId)).toBe(0);
  });

  it('runs as the `ingest focus` command: progress lines, a reconcilable summary, exit codes', async () => {
    const org = await t.newOrganization();
    const captured = { out: [] as string[], err: [] as string[], progress: [] as string[] };
    const io = {
      out: (text: string) => captured.out.push(text),
      err: (text: string) => captured.err.push(text),
      progress: (line: string) => captured.progress.push(line),
    };
    // What the command receives: `ingest focus <args>` parsed by the CLI's command line.
    const commandLine = (...args: string[]) => {
      const command = parseCommandLine(['ingest', 'focus', ...args]);
      if (command.name !== 'ingest') throw new Error(`not an import: ${args.join(' ')}`);
      return command;
    };
    expect(await runIngestFocusCommand(commandLine(SAMPLE, '--org', org.organizationId), t.clickhouse, io)).toBe(0);
    const output = captured.out.join('\n');
    expect(output).toContain(`Imported 1,000 rows from 1 file(s)`);
    expect(output).toContain('Billing periods: 2024-09, 2024-10');
    const billed = toNumber(sample.rows.reduce((n, r) => n + (scaled(r.BilledCost) ?? 0n), 0n));
    expect(Number(/Σ BilledCost\s+(\S+)/.exec(output)![1])).toBeCloseTo(billed, 10);
    expect(captured.progress.some((line) => /^loaded file 1\/1 .* 1,000 rows \([\d,]+ rows\/s\)/.test(line))).toBe(true);

    const json = { ...io, out: (text: string) => captured.out.push(`JSON:${text}`) };
    expect(await runIngestFocusCommand(commandLine(SAMPLE, '--org', org.organizationId, '--json'), t.clickhouse, json)).toBe(0);
    expect(JSON.parse(captured.out.pop()!.slice(5)).rows).toBe(1000);

    // A usage error is answered by the CLI before it opens any store.
    expect(await runCli(['ingest', 'focus', SAMPLE], io, process.env)).toBe(2);
    expect(captured.err.pop()).toContain('--org <uuid> is required');
    const notFocus = join(tmp, 'command-not-focus.csv');
    writeFileSync(notFocus, 'a,b\n1,2\n');
    expect(await runIngestFocusCommand(commandLine(notFocus, '--org', org.organizationId), t.clickhouse, io)).toBe(1);
    expect(captured.err.pop()).toMatch(/missing required column\(s\): BilledCost.*\nNothing was changed\./s);
    await expectDataMatches(org, expected);
  });

  describe('bad input is refused and changes nothing', () => {
    const [header, ...lines] = readSample().lines;
    const headerNames = readSample().header;
    const withLine = (index: number, replace: (line: string) => string) =>
      [header, ...lines.map((line, i) => (i === index ? replace(line) : line))].join('\n') + '\n';

    async function expectRefusedAndUnchanged(paths: string[], message: RegExp) {
      const importIds = new Set<string>();
      const refused = ingestFocus(t.clickhouse, {
        paths,
        organizationId: orgA.organizationId,
        onProgress: (progress) => importIds.add(progress.importId),
      });
      await expect(refused).rejects.toThrow(message);
      await expectDataMatches(orgA, expected);
      // This import's tables only: other suites' imports may be running on the shared server meanwhile.
      for (const importId of importIds) {
        for (const node of await t.nodes()) {
          const leftovers = await node.query<{ name: string }>(
            `SELECT name FROM system.tables WHERE database = {db:String} AND startsWith(name, {prefix:String})`,
            { db: node.database, prefix: importId },
          );
          expect(leftovers).toEqual([]);
        }
      }
    }

    it('an unparsable cost, named with file and line', async () => {
      expect(headerNames.slice(0, 2)).toEqual(['AvailabilityZone', 'BilledCost']);
      const file = join(tmp, 'bad-cost.csv');
      // Data row 700 is line 701 of the file (the header is line 1).
      writeFileSync(
        file,
        withLine(699, (line) => line.replace(/^(NULL|"[^"]*"),[^,]*,/, '$1,"12,5x",')),
      );
      await expectRefusedAndUnchanged([file], /bad-cost\.csv:line 701: BilledCost is not a decimal number \("12,5x"\)/);
    });

    it('an unparsable value deep in a 40,000-row file (several parse chunks) is named with its exact line', async () => {
      const file = join(tmp, 'big-bad.csv');
      const body: string[] = [];
      for (let copy = 0; copy < 40; copy++) body.push(...lines);
      // Data row 35,123 (1-based) is line 35,124 of the file.
      body[35_122] = body[35_122].replace(/^(NULL|"[^"]*"),[^,]*,/, '$1,"1.2.3",');
      writeFileSync(file, [header, ...body].join('\n') + '\n');
      await expectRefusedAndUnchanged([file], /big-bad\.csv:line 35124: BilledCost is not a decimal number \("1\.2\.3"\)/);
    });

    it('a broken CSV record, named with file and line', async () => {
      const file = join(tmp, 'broken-quote.csv');
      writeFileSync(
        file,
        withLine(299, (line) => line.replace('"USD"', '"USD')),
      );
      await expectRefusedAndUnchanged([file], /broken-quote\.csv: cannot be parsed as CSV: line 301/);
    });

    it('an unparsable date, after a good file in the same import: the good file is not published either', async () => {
      const good = join(tmp, 'multi', 'a-good.csv');
      const bad = join(tmp, 'multi', 'b-bad-date.csv');
      mkdirSync(join(tmp, 'multi'), { recursive: true });
      // The good part alone would replace the AWS 2024-09 partition with 500 rows if it were published.
      writeFileSync(good, [header, ...lines.slice(0, 500)].join('\n') + '\n');
      writeFileSync(
        bad,
        withLine(10, (line) => line.replace(/"2024-09-01 00:00:00"/, '"2024-13-45 xx"')),
      );
      await expectRefusedAndUnchanged([join(tmp, 'multi')], /b-bad-date\.csv:line 12: BillingPeriodStart is missing or not a date-time/);
    });

    it('a file that is not a FOCUS export, naming the missing required columns', async () => {
      const file = join(tmp, 'not-focus.csv');
      writeFileSync(file, 'Date,Service,Cost\n2024-09-01,EC2,1.5\n');
      await expectRefusedAndUnchanged(
        [file],
        /not-focus\.csv: not a FOCUS cost export, missing required column\(s\): BilledCost, EffectiveCost, ListCost, ChargeCategory, ChargePeriodStart, BillingPeriodStart, BillingAccountId, ServiceName, ProviderName or ServiceProviderName or HostProviderName, BillingCurrency/,
      );
    });

    it('a truncated Parquet file', async () => {
      const parquet = await writeSampleAsParquet(t, headerNames, join(tmp, 'whole.parquet'));
      const truncated = join(tmp, 'truncated.parquet');
      const bytes = readFileSync(parquet);
      writeFileSync(truncated, bytes.subarray(0, Math.floor(bytes.length / 2)));
      await expectRefusedAndUnchanged([truncated], /truncated\.parquet: cannot be parsed as Parquet/);
    });
  });
});

/**
 * The sample as a typed Parquet file, written by ClickHouse: costs as Decimal, timestamps as
 * DateTime (UTC), other columns as nullable strings, like the Parquet exports of the clouds.
 */
async function writeSampleAsParquet(t: TestApp, header: string[], path: string): Promise<string> {
  const table = t.clickhouse.table(generatedTableName(`parquet_source_${randomBytes(4).toString('hex')}`));
  // Source columns are s_<name>, filled by position, so that no output alias shadows a column.
  await t.clickhouse.command(
    `CREATE TABLE ${table} (${header.map((c) => `s_${c} Nullable(String)`).join(', ')}) ENGINE = MergeTree ORDER BY tuple()`,
  );
  try {
    await t.clickhouse.client.insert({
      table,
      values: Readable.from([readFileSync(SAMPLE)], { objectMode: false }),
      format: 'CSVWithNames',
      clickhouse_settings: { format_csv_null_representation: 'NULL', input_format_with_names_use_header: 0 },
    });
    const columns = header.map((c) => {
      if (/Cost$/.test(c)) return `toDecimal128OrNull(nullIf(s_${c}, ''), 11) AS ${c}`;
      if (/(Start|End)$/.test(c)) return `toDateTime64OrNull(nullIf(s_${c}, ''), 0, 'UTC') AS ${c}`;
      return `s_${c} AS ${c}`;
    });
    const result = await t.clickhouse.client.exec({ query: `SELECT ${columns.join(', ')} FROM ${table} FORMAT Parquet` });
    await pipeline(result.stream, createWriteStream(path));
    return path;
  } finally {
    await t.clickhouse.command(`DROP TABLE IF EXISTS ${table}`);
  }
}
