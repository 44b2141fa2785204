// modes: embedded server cluster — ingestion and the publish protocol
import { existsSync, linkSync, mkdirSync, readFileSync, rmSync, statSync, symlinkSync, utimesSync, writeFileSync } from 'node:fs';
import { randomUUID } from 'node:crypto';
import { gzipSync } from 'node:zlib';
import { dirname, join, resolve } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { CreateBucketCommand, PutObjectCommand, S3Client } from '@aws-sdk/client-s3';
import { ContainerClient, StorageSharedKeyCredential } from '@azure/storage-blob';
import Redis from 'ioredis';
import { SourcesService } from '../../src/sources/sources.service';
import { freePort, LocalServer, startAzurite, startS3Server } from '../support/local-servers';
import { RedisLease } from '../../src/infrastructure/redis/redis-lease';
import { IngestWorkerService } from '../../src/sources/ingest-worker.service';
import { E2E_MODE } from '../support/e2e-mode';
import { itIn } from '../support/suite-modes';
import { exact, Exact, sum, text } from '../support/money';
import { TestApp, TestOrganization } from '../support/test-app';

/**
 * Data sources (issue 31): directories laid out as AWS Data Exports and Azure exports deliver them, with manifests;
 * a folder of plain FOCUS files. Each test writes the layout itself, computes the sums from the CSV text it wrote
 * (exact BigInt arithmetic) and reads them back through /data and the source's history.
 */
const SOURCES = '/v1/admin/sources';
const HEADER =
  'BilledCost,EffectiveCost,ListCost,ChargeCategory,ChargePeriodStart,BillingPeriodStart,BillingAccountId,ServiceName,ProviderName,BillingCurrency';

interface Row {
  billed: string;
  day: string;
}

function focusCsv(period: string, rows: Row[], currency = 'USD'): string {
  const lines = rows.map(
    (r) => `${r.billed},${r.billed},${r.billed},Usage,${r.day}T00:00:00Z,${period}-01T00:00:00Z,123456789012,Amazon EC2,AWS,${currency}`,
  );
  return `${HEADER}\n${lines.join('\n')}\n`;
}

const total = (rows: Row[]): Exact => sum(rows.map((r) => exact(r.billed)));

function write(path: string, content: string | Buffer, modified?: Date): void {
  mkdirSync(dirname(path), { recursive: true });
  writeFileSync(path, content);
  if (modified) utimesSync(path, modified, modified);
}

/** An AWS Data Exports delivery of one billing period: its data files, then the manifest naming them (or more). */
function awsDelivery(root: string, period: string, execution: string, exportTime: string, parts: Array<Row[] | undefined>): void {
  const files = parts.map((_, i) => `focus/data/BILLING_PERIOD=${period}/${execution}/focus-0000${i + 1}.csv`);
  parts.forEach((rows, i) => rows && write(join(root, files[i]), focusCsv(period, rows)));
  const manifest = {
    executionId: execution,
    exportTime,
    billingPeriod: { start: `${period}-01T00:00:00.000Z` },
    dataFiles: files.map((f) => `s3://bucket/exports/${f}`),
  };
  write(join(root, `focus/metadata/BILLING_PERIOD=${period}/${execution}/focus-Manifest.json`), JSON.stringify(manifest));
}

/**
 * An HTTP relay to `target` that counts what passes: ListObjectsV2 pages (`GET /bucket?list-type=2`), object reads
 * (`GET`/`HEAD` of a key) and anything else.
 */
async function countingProxy(target: string) {
  const { createServer, request: forward } = await import('node:http');
  const counts = { listPages: 0, objectReads: 0, other: 0 };
  const server = createServer((req, res) => {
    const url = new URL(req.url ?? '/', target);
    const isList = req.method === 'GET' && url.searchParams.get('list-type') === '2';
    const isRead = (req.method === 'GET' || req.method === 'HEAD') && !isList && url.pathname.split('/').filter(Boolean).length > 1;
    if (isList) counts.listPages += 1;
    else if (isRead) counts.objectReads += 1;
    else counts.other += 1;
    // The Host header stays the one the client signed (SigV4 covers it).
    const upstream = forward(url, { method: req.method, headers: req.headers }, (answer) => {
      res.writeHead(answer.statusCode ?? 502, answer.headers);
      answer.pipe(res);
    });
    upstream.on('error', () => res.destroy());
    req.pipe(upstream);
  });
  await new Promise<void>((listening) => server.listen(0, '127.0.0.1', listening));
  const { port } = server.address() as { port: number };
  return {
    url: `http://127.0.0.1:${port}`,
    counts: () => ({ ...counts }),
    reset: () => Object.assign(counts, { listPages: 0, objectReads: 0, other: 0 }),
    stop: () =>
      new Promise<void>((closed) => {
        server.close(() => closed());
        server.closeAllConnections();
      }),
  };
}

/** The file-sources application's caps (INGEST_MAX_LISTED_OBJECTS, INGEST_MAX_OBJECT_BYTES): small, to reach them. */
const LISTING_CAP = 200;
const PART_CAP = 100_000;

/** A FOCUS CSV of one service's costs (the service names whose data it is). */
function serviceCsv(service: string, billed: string, day = '2026-09-05'): string {
  return `${HEADER}\n${billed},${billed},${billed},Usage,${day}T00:00:00Z,2026-09-01T00:00:00Z,123456789012,${service},AWS,USD\n`;
}

/**
 * A hostile bucket: an S3 endpoint of the tenant's that relays to s3rver but answers listings with the keys it likes
 * (each `<Key>` of `renamed` replaced by its hostile key), serves any object whose path holds `injected` itself, and
 * answers NoSuchKey for the objects under `vanishing/` it lists (deleted between the listing and the download).
 */
async function hostileBucket(target: string, renamed: Map<string, string>, body: string) {
  const { createServer, request: forward } = await import('node:http');
  const escape = (key: string) => key.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;');
  const server = createServer((req, res) => {
    if ((req.url ?? '').includes('injected')) {
      res.writeHead(200, { 'Content-Type': 'text/csv', 'Content-Length': Buffer.byteLength(body) }).end(body);
      return;
    }
    if (req.method === 'GET' && (req.url ?? '').includes('/vanishing/')) {
      const missing =
        '<?xml version="1.0" encoding="UTF-8"?><Error><Code>NoSuchKey</Code><Message>The specified key does not exist.</Message></Error>';
      res.writeHead(404, { 'Content-Type': 'application/xml', 'Content-Length': Buffer.byteLength(missing) }).end(missing);
      return;
    }
    const url = new URL(req.url ?? '/', target);
    const upstream = forward(url, { method: req.method, headers: req.headers }, (answer) => {
      const chunks: Buffer[] = [];
      answer.on('data', (chunk: Buffer) => chunks.push(chunk));
      answer.on('end', () => {
        let text = Buffer.concat(chunks).toString('utf8');
        if (url.searchParams.get('list-type') === '2') {
          for (const [from, to] of renamed) text = text.split(`<Key>${from}</Key>`).join(`<Key>${escape(to)}</Key>`);
        }
        const headers = { ...answer.headers, 'content-length': String(Buffer.byteLength(text)) };
        delete headers['transfer-encoding'];
        res.writeHead(answer.statusCode ?? 502, headers).end(text);
      });
    });
    upstream.on('error', () => res.destroy());
    req.pipe(upstream);
  });
  await new Promise<void>((listening) => server.listen(0, '127.0.0.1', listening));
  const { port } = server.address() as { port: number };
  return {
    url: `http://127.0.0.1:${port}`,
    stop: () =>
      new Promise<void>((closed) => {
        server.close(() => closed());
        server.closeAllConnections();
      }),
  };
}

describe('Data sources', () => {
  let t: TestApp;
  const root = resolve(process.env.E2E_TMP_DIR ?? '.test-tmp', `sources-${randomUUID()}`);

  beforeAll(async () => {
    mkdirSync(root, { recursive: true });
    t = await TestApp.start({
      // The default tag keys on: the CSVs here carry no tags (nothing to suggest) but the one case that tests it.
      settings: {
        INGEST_FILE_ROOT: root,
        INGEST_SETTLE_SECONDS: '0',
        INGEST_INCOMPLETE_AFTER_SECONDS: '0',
        TAG_KEYS_DEFAULT: 'true',
        INGEST_MAX_LISTED_OBJECTS: String(LISTING_CAP),
        INGEST_MAX_OBJECT_BYTES: String(PART_CAP),
      },
    });
  });

  afterAll(async () => {
    await t?.close();
    rmSync(root, { recursive: true, force: true });
  });

  async function addSource(org: TestOrganization, kind: string, dir: string, integrationId = 'aws-payer'): Promise<string> {
    mkdirSync(dir, { recursive: true });
    const response = await t.http
      .post(SOURCES)
      .set(org.auth)
      .send({ integrationId, kind, url: `file://${dir}` });
    expect(response.status).toBe(201);
    return response.body.data.sourceId as string;
  }

  async function run(org: TestOrganization, id: string) {
    const response = await t.http.post(`${SOURCES}/${id}/run`).set(org.auth);
    expect(response.status).toBe(200);
    expect(response.body.data.busy).toBe(false);
    return response.body.data.checks as Array<{
      outcome: string;
      message: string;
      billingPeriods: string[];
      changes: Array<Record<string, string>>;
    }>;
  }

  async function sourceMetrics() {
    const text = (await t.http.get('/metrics')).text;
    const value = (pattern: string) => Number(new RegExp(`^${pattern} (\\S+)$`, 'm').exec(text)?.[1] ?? 0);
    return {
      imported: value('cost_insights_source_checks_total\\{outcome="imported"\\}'),
      incomplete: value('cost_insights_source_checks_total\\{outcome="incomplete"\\}'),
      lags: value('cost_insights_source_import_lag_seconds_count'),
    };
  }

  async function billedByMonth(org: TestOrganization): Promise<Record<string, string>> {
    const response = await t.http
      .post('/v1/cost-insights/data')
      .set(org.auth)
      .send({
        filters: { inclusions: { dateRange: { start: '2026-08-01', end: '2026-10-31' } } },
        groupBy: { dateGrouping: 'monthly' },
      });
    expect(response.status).toBe(200);
    return Object.fromEntries(
      (response.body.data.items as Array<{ usage_date: string; billed_cost: number }>)
        .filter((item) => item.billed_cost !== 0)
        .map((item) => [item.usage_date.slice(0, 7), String(item.billed_cost)]),
    );
  }

  it('imports a complete AWS delivery once, waits for an incomplete one, applies a restatement and never an older delivery', async () => {
    const before = await sourceMetrics();
    const org = await t.newOrganization();
    const dir = join(root, org.organizationId, 'aws');
    const september = [
      [
        { billed: '100.25', day: '2026-09-03' },
        { billed: '0.0000000001', day: '2026-09-30' },
      ],
      [{ billed: '19.5', day: '2026-09-12' }],
    ];
    awsDelivery(dir, '2026-09', 'exec-1', '2026-10-01T06:00:00Z', september);
    const id = await addSource(org, 'aws-data-exports', dir);

    const [first] = await run(org, id);
    expect(first.outcome).toBe('imported');
    expect(first.billingPeriods).toEqual(['2026-09']);
    const septemberTotal = text(total(september.flat()));
    expect(first.changes).toEqual([
      {
        billingPeriod: '2026-09',
        currency: 'USD',
        billedBefore: '0',
        billedAfter: septemberTotal,
        amortizedBefore: '0',
        amortizedAfter: septemberTotal,
      },
    ]);
    expect(await billedByMonth(org)).toEqual({ '2026-09': String(Number(septemberTotal)) });
    expect((await run(org, id)).map((c) => c.outcome)).toEqual(['unchanged']);

    // October's manifest names two parts; one has landed.
    const october = [[{ billed: '7', day: '2026-10-02' }], [{ billed: '3.25', day: '2026-10-20' }]];
    awsDelivery(dir, '2026-10', 'exec-2', '2026-11-01T06:00:00Z', [october[0], undefined]);
    const [waiting] = await run(org, id);
    expect(waiting.outcome).toBe('incomplete');
    expect(waiting.message).toContain('focus/data/BILLING_PERIOD=2026-10/exec-2/focus-00002.csv is missing');
    expect(Object.keys(await billedByMonth(org))).toEqual(['2026-09']);
    awsDelivery(dir, '2026-10', 'exec-2', '2026-11-01T06:00:00Z', october);
    expect((await run(org, id)).map((c) => [c.outcome, c.billingPeriods])).toEqual([['imported', ['2026-10']]]);

    // September restated by a newer execution: the period is replaced, its totals before → after recorded.
    const restated = [[{ billed: '101', day: '2026-09-03' }]];
    awsDelivery(dir, '2026-09', 'exec-3', '2026-10-15T06:00:00Z', restated);
    const [restatement] = await run(org, id);
    expect(restatement.outcome).toBe('imported');
    expect(restatement.changes).toEqual([
      {
        billingPeriod: '2026-09',
        currency: 'USD',
        billedBefore: septemberTotal,
        billedAfter: '101',
        amortizedBefore: septemberTotal,
        amortizedAfter: '101',
      },
    ]);
    // An older execution of September arriving late never replaces the newer one.
    awsDelivery(dir, '2026-09', 'exec-0', '2026-09-20T06:00:00Z', [[{ billed: '999', day: '2026-09-03' }]]);
    expect((await run(org, id)).map((c) => c.outcome)).toEqual(['unchanged']);
    expect(await billedByMonth(org)).toEqual({ '2026-09': '101', '2026-10': text(total(october.flat())) });

    const history = await t.http.get(`${SOURCES}/${id}/history`).set(org.auth);
    expect(history.status).toBe(200);
    expect(history.body.data.map((c: { outcome: string }) => c.outcome)).toEqual(['imported', 'imported', 'incomplete', 'imported']);
    const listed = await t.http.get(SOURCES).set(org.auth);
    expect(listed.body.data).toHaveLength(1);
    expect(listed.body.data[0].status).toMatchObject({
      lastOutcome: 'unchanged',
      lastImportBillingPeriods: ['2026-09'],
      lastProblem: null,
    });
    // The process's Prometheus metrics counted the same checks (this suite's process: other files do not share it).
    const after = await sourceMetrics();
    expect([after.imported - before.imported, after.incomplete - before.incomplete, after.lags - before.lags]).toEqual([3, 1, 3]);
  });

  it('refuses a corrupt delivery naming file, line and value, keeps the data before it, and does not retry it', async () => {
    const org = await t.newOrganization();
    const dir = join(root, org.organizationId, 'aws');
    awsDelivery(dir, '2026-09', 'exec-1', '2026-10-01T06:00:00Z', [[{ billed: '10', day: '2026-09-03' }]]);
    const id = await addSource(org, 'aws-data-exports', dir);
    expect((await run(org, id))[0].outcome).toBe('imported');

    awsDelivery(dir, '2026-09', 'exec-2', '2026-10-02T06:00:00Z', [
      [
        { billed: '12', day: '2026-09-03' },
        { billed: '1.2.3', day: '2026-09-04' },
      ],
    ]);
    const [refused] = await run(org, id);
    expect(refused.outcome).toBe('refused');
    expect(refused.message).toMatch(/focus-00001\.csv:line 3: BilledCost is not a decimal number \("1\.2\.3"\)/);
    expect(await billedByMonth(org)).toEqual({ '2026-09': '10' });
    expect((await run(org, id)).map((c) => c.outcome)).toEqual(['unchanged']);
    const listed = await t.http.get(SOURCES).set(org.auth);
    expect(listed.body.data[0].status.lastProblem).toMatchObject({ outcome: 'refused' });
  });

  it('imports an Azure run once every part its manifest lists is there with its size', async () => {
    const org = await t.newOrganization();
    const dir = join(root, org.organizationId, 'azure');
    const rows = [{ billed: '42.42', day: '2026-09-05' }];
    const part = focusCsv('2026-09', rows, 'EUR');
    const runFolder = 'focus-export/20260901-20260930/run-1';
    const manifest = (bytes: number) =>
      JSON.stringify({
        runInfo: { runId: 'run-1', submittedTime: '2026-10-01T03:00:00Z' },
        blobs: [{ blobName: `exports/${runFolder}/part_0_0001.csv`, byteCount: bytes }],
      });
    write(join(dir, runFolder, 'part_0_0001.csv'), part.slice(0, 20));
    write(join(dir, runFolder, 'manifest.json'), manifest(Buffer.byteLength(part)));
    const id = await addSource(org, 'azure-exports', dir, 'azure-ea');
    const [partial] = await run(org, id);
    expect(partial.outcome).toBe('incomplete');
    expect(partial.message).toContain(`${runFolder}/part_0_0001.csv has 20 of ${Buffer.byteLength(part)} bytes`);
    write(join(dir, runFolder, 'part_0_0001.csv'), part);
    expect((await run(org, id)).map((c) => [c.outcome, c.billingPeriods])).toEqual([['imported', ['2026-09']]]);
  });

  it('imports OCI daily reports (gzip CSV, YYYY/MM/DD) month by month, a month again when a day of it arrives', async () => {
    const org = await t.newOrganization();
    const dir = join(root, org.organizationId, 'oci');
    const an = new Date('2026-11-01T00:00:00Z');
    const day = (date: string, rows: Row[]) =>
      write(join(dir, 'FOCUS Reports', ...date.split('-'), `${date}-0001.csv.gz`), gzipSync(focusCsv(date.slice(0, 7), rows)), an);
    const september = [
      [{ billed: '1.125', day: '2026-09-01' }],
      [
        { billed: '2.5', day: '2026-09-02' },
        { billed: '0.0625', day: '2026-09-02' },
      ],
    ];
    day('2026-09-01', september[0]);
    day('2026-09-02', september[1]);
    day('2026-10-01', [{ billed: '4', day: '2026-10-01' }]);
    const id = await addSource(org, 'oci-focus', dir, 'oci-tenancy');
    expect((await run(org, id)).map((c) => [c.outcome, c.billingPeriods])).toEqual([
      ['imported', ['2026-09']],
      ['imported', ['2026-10']],
    ]);
    expect(await billedByMonth(org)).toEqual({ '2026-09': text(total(september.flat())), '2026-10': '4' });
    day('2026-10-02', [{ billed: '0.5', day: '2026-10-02' }]);
    const october = await run(org, id);
    expect(october.map((c) => [c.outcome, c.billingPeriods])).toEqual([['imported', ['2026-10']]]);
    expect(october[0].changes).toEqual([
      expect.objectContaining({ billingPeriod: '2026-10', currency: 'USD', billedBefore: '4', billedAfter: '4.5' }),
    ]);
    expect(await billedByMonth(org)).toEqual({ '2026-09': text(total(september.flat())), '2026-10': '4.5' });
  });

  it('imports a folder of FOCUS files once it settled, and again when a file changes', async () => {
    const org = await t.newOrganization();
    const dir = join(root, org.organizationId, 'files');
    const an = new Date('2026-11-01T00:00:00Z');
    write(join(dir, 'a.csv'), focusCsv('2026-09', [{ billed: '5', day: '2026-09-01' }]), an);
    write(join(dir, 'README.txt'), 'not data', an);
    const id = await addSource(org, 'focus-files', dir, 'files');
    expect((await run(org, id)).map((c) => c.outcome)).toEqual(['imported']);
    expect((await run(org, id)).map((c) => c.outcome)).toEqual(['unchanged']);
    write(join(dir, 'b.csv'), focusCsv('2026-09', [{ billed: '2.5', day: '2026-09-02' }]), an);
    expect((await run(org, id)).map((c) => c.outcome)).toEqual(['imported']);
    expect(await billedByMonth(org)).toEqual({ '2026-09': '7.5' });

    // A file still settling (changed after the check started counting): the check says what it waits for and why.
    write(join(dir, 'c.csv'), focusCsv('2026-09', [{ billed: '1', day: '2026-09-03' }]), new Date(Date.now() + 3_600_000));
    const [settling] = await run(org, id);
    expect([settling.outcome, settling.message]).toEqual([
      'unchanged',
      expect.stringMatching(
        /^waiting for a delivery \(all files: its newest file changed after now \(a clock ahead of this one\?\), settling for 0 s\); files settle for INGEST_SETTLE_SECONDS/,
      ),
    ]);
  });

  it('imports a Contract Commitment dataset delivered beside the cost files, recognised by its columns', async () => {
    const org = await t.newOrganization();
    const dir = join(root, org.organizationId, 'files');
    const an = new Date('2026-11-01T00:00:00Z');
    write(join(dir, 'a.csv'), focusCsv('2026-09', [{ billed: '5', day: '2026-09-01' }]), an);
    const contract = [
      'ContractId,ContractCommitmentId,ContractCommitmentCategory,ContractCommitmentCost,ContractCommitmentPeriodStart,ContractCommitmentPeriodEnd,ContractPeriodStart,ContractPeriodEnd,BillingCurrency',
      'EDP-1,EDP-1-SPEND,Spend,120000.00,2026-01-01,2027-01-01,2026-01-01,2027-01-01,USD',
    ];
    write(join(dir, 'contracts.csv'), contract.join('\n') + '\n', an);
    const id = await addSource(org, 'focus-files', dir, 'files');
    const [check] = await run(org, id);
    expect(check.outcome).toBe('imported');
    expect(check.message).toContain('Contract Commitment dataset: 1 commitment(s) of 1 contract(s) (EDP-1)');
    expect(await billedByMonth(org)).toEqual({ '2026-09': '5' });
    const answer = await t.http.post('/v1/cost-insights/contracts').set(org.auth).send({ asOf: '2026-09-30' });
    expect(answer.body.data.contracts[0].commitments[0]).toMatchObject({
      contract_commitment_id: 'EDP-1-SPEND',
      committed_cost: 120000,
      applied_cost: 0,
    });
  });

  it("loads business metrics' values from a folder of CSV files: a metric a delivery, checked whole, waiting for a metric not defined", async () => {
    const org = await t.newOrganization();
    const dir = join(root, org.organizationId, 'metrics');
    const an = new Date('2026-11-01T00:00:00Z');
    await t.insertRows(org.organizationId, [
      { usage_date: '2026-10-01', service: 'Amazon EC2', amortized_cost: '30', resource_tags: { team: 'payments' } },
      { usage_date: '2026-10-02', service: 'Amazon EC2', amortized_cost: '12', resource_tags: { team: 'payments' } },
    ]);
    const define = (name: string, body: object) => t.http.put(`/v1/admin/business-metrics/${name}`).set(org.auth).send(body);
    expect((await define('orders', { unit: 'order', dimension: 'tag:team' })).status).toBe(200);
    expect((await define('visits', { unit: 'visit', unitScale: 1000 })).status).toBe(200);
    // `orders`: two files (one gzip, in a folder of its name) are one load; `signups` is not defined yet.
    write(join(dir, 'orders.csv'), 'date,value,team\n2026-10-01,10,payments\n2026-10-01,5,search\n', an);
    write(join(dir, 'orders', '2026-10-02.csv.gz'), gzipSync('2026-10-02,4,payments\n'), an);
    write(join(dir, 'visits.2026-10.csv'), '2026-10-01,1500\n2026-10-02,500\n', an);
    write(join(dir, 'signups.csv'), '2026-10-01,3\n', an);
    write(join(dir, 'Bad-Name.csv'), '2026-10-01,3\n', an);
    write(join(dir, 'README.txt'), 'not data', an);
    const id = await addSource(org, 'metrics-files', dir, 'business-metrics');
    const first = await run(org, id);
    expect(first.map((c) => c.outcome)).toEqual(['refused', 'imported', 'failed', 'imported']); // by metric: Bad-Name, orders, signups, visits
    expect(first[0].message).toMatch(/"Bad-Name" is not a metric's name/);
    expect(first[1].message).toBe('3 values of orders from 2026-10-01 to 2026-10-02; each day given replaces that day');
    expect(first[2].message).toMatch(/^no business metric named "signups": define it/);

    const unitCosts = async (metric: string) => {
      const response = await t.http
        .post('/v1/cost-insights/unit-costs')
        .set(org.auth)
        .send({ metric, filters: { inclusions: { dateRange: { start: '2026-10-01', end: '2026-10-02' } } } });
      expect(response.status).toBe(200);
      return response.body.data.items.map((item: Record<string, string>) => [item.usage_date, item.cost, item.units, item.unit_cost]);
    };
    // Worked by hand: orders 10 + 5 on day 1 (cost 30 → 2 a unit), 4 on day 2 (12 / 4); visits per thousand.
    expect(await unitCosts('orders')).toEqual([
      ['2026-10-01', '30', '15', '2'],
      ['2026-10-02', '12', '4', '3'],
    ]);
    expect(await unitCosts('visits')).toEqual([
      ['2026-10-01', '30', '1500', '20'],
      ['2026-10-02', '12', '500', '24'],
    ]);

    // The metric defined, its files load at the next check; what was loaded or refused is not tried again.
    expect((await run(org, id)).map((c) => c.outcome)).toEqual(['failed']);
    expect((await define('signups', { unit: 'signup' })).status).toBe(200);
    expect((await run(org, id)).map((c) => c.outcome)).toEqual(['imported']);
    expect((await run(org, id)).map((c) => c.outcome)).toEqual(['unchanged']);

    // A bad line refuses the metric's whole delivery, named by file, line and column; the values before it stay.
    write(join(dir, 'orders.csv'), 'date,value,team\n2026-10-01,20,payments\n2026-10-01,ten,search\n', an);
    const [refused] = await run(org, id);
    expect(refused.outcome).toBe('refused');
    expect(refused.message).toContain('orders.csv: line 3, value: expected a finite decimal of at most 10 places, received "ten"');
    expect(await unitCosts('orders')).toEqual([
      ['2026-10-01', '30', '15', '2'],
      ['2026-10-02', '12', '4', '3'],
    ]);
    // Corrected, the delivery loads whole: day 1 is the new file's alone (search's 5 gone), day 2 as before.
    write(join(dir, 'orders.csv'), 'date,value,team\n2026-10-01,20,payments\n', an);
    expect((await run(org, id)).map((c) => c.outcome)).toEqual(['imported']);
    expect(await unitCosts('orders')).toEqual([
      ['2026-10-01', '30', '20', '1.5'],
      ['2026-10-02', '12', '4', '3'],
    ]);
  });

  it('activates the suggested tag keys of an organisation that never chose them before its first import writes a row', async () => {
    const org = await t.newOrganization();
    const dir = join(root, org.organizationId, 'tagged');
    // team tags 8 of the 10 dollars (suggested: on at least half of the cost), build the other 2 (not suggested).
    const line = (billed: string, day: string, tags: object) =>
      `${billed},${billed},${billed},Usage,${day}T00:00:00Z,2026-09-01T00:00:00Z,123456789012,Amazon EC2,AWS,USD,"${JSON.stringify(tags).replace(/"/g, '""')}"`;
    const csv = [`${HEADER},Tags`, line('8', '2026-09-01', { team: 'red' }), line('2', '2026-09-02', { build: 'b-1' })].join('\n');
    write(join(dir, 'a.csv'), `${csv}\n`, new Date('2026-11-01T00:00:00Z'));
    const id = await addSource(org, 'focus-files', dir, 'files');
    expect((await run(org, id)).map((c) => c.outcome)).toEqual(['imported']); // the check waits for the back-fill
    const { body } = await t.http.get('/v1/admin/tag-keys').set(org.auth);
    const activated = (body as { data: { activated: { kind: string; key: string; state: string }[] } }).data.activated;
    expect(activated.map((a) => `${a.kind}:${a.key}:${a.state}`)).toEqual(['tag:team:active']);
    expect(await billedByMonth(org)).toEqual({ '2026-09': '10' });
    // Chosen from the delivery's files before it was written: active before the import began to publish.
    const [order] = await t.clickhouse.query<{ active_first: number }>(
      `SELECT (SELECT max(updated_at) FROM ${t.clickhouse.table('tag_key_activations')} WHERE organization_id = {org:UUID} AND state = 'active')
            < (SELECT min(updated_at) FROM ${t.clickhouse.table('import_journal')} WHERE organization_id = {org:UUID}) AS active_first`,
      { org: org.organizationId },
    );
    expect(Number(order.active_first)).toBe(1);
  });

  it('refuses bad sources with a 4xx naming the field, and keys without the permission', async () => {
    const org = await t.newOrganization();
    const send = (body: object) => t.http.post(SOURCES).set(org.auth).send(body);
    const base = { integrationId: 'aws', kind: 'aws-data-exports', url: `file://${root}` };
    expect((await send({ ...base, kind: 'gcs' })).body.error.message).toContain('kind');
    expect((await send({ ...base, integrationId: 'a b' })).status).toBe(400);
    const s3 = await send({ ...base, url: 's3://bucket/prefix' });
    expect([s3.status, s3.body.error.message]).toEqual([403, expect.stringContaining('s3:// sources read with the service')]);
    expect((await send({ ...base, url: 'ftp://host/x' })).body.error.message).toContain('url: use file:///directory');
    const outside = await send({ ...base, url: 'file:///etc' });
    expect([outside.status, outside.body.error.message]).toEqual([403, expect.stringContaining('INGEST_FILE_ROOT')]);
    expect((await send({ ...base, url: `file://${root}/../` })).status).toBe(403);
    expect((await send({ ...base, url: `file://${root}/${org.organizationId}/no-such-dir` })).status).toBe(400);

    const reader = await t.keyFor(org.organizationId, ['cost:read']);
    expect((await t.http.get(SOURCES).set(reader.auth)).status).toBe(403);
    const id = await addSource(org, 'focus-files', join(root, org.organizationId, 'mine'));
    const other = await t.newOrganization();
    expect((await t.http.post(`${SOURCES}/${id}/run`).set(other.auth)).status).toBe(404);
    expect((await t.http.get(`${SOURCES}/${id}/history`).set(other.auth)).status).toBe(404);
    expect((await t.http.delete(`${SOURCES}/${id}`).set(other.auth)).status).toBe(404);
    expect((await t.http.get(`${SOURCES}/${id}/history?limit=0`).set(org.auth)).status).toBe(400);
    expect((await t.http.delete(`${SOURCES}/${id}`).set(org.auth)).status).toBe(200);
    expect((await t.http.get(SOURCES).set(org.auth)).body.data).toEqual([]);
  });

  it("keeps each organisation to its own folder of INGEST_FILE_ROOT: the root, another's folder, a link or a place outside are one 403", async () => {
    const [a, b] = [await t.newOrganization(), await t.newOrganization()];
    const theirs = join(root, b.organizationId, 'aws');
    write(join(theirs, 'b.csv'), serviceCsv('ORGB-SECRET-SERVICE', '4259.5'), new Date('2026-11-01T00:00:00Z'));
    const mine = join(root, a.organizationId);
    const send = (url: string) => t.http.post(SOURCES).set(a.auth).send({ integrationId: 'files', kind: 'focus-files', url });
    const first = await send(`file://${root}`);
    // The organisation's folder is made on first use, and the refusal says where it is.
    expect([first.status, first.body.error.message]).toEqual([403, expect.stringContaining(`file://${mine}/`)]);
    expect(statSync(mine).isDirectory()).toBe(true);
    symlinkSync(theirs, join(mine, 'link-to-theirs'));
    symlinkSync(join(root, b.organizationId, 'no-such-folder'), join(mine, 'link-to-nothing'));
    const places = [
      `file://${root}/`,
      `file://${root}/${b.organizationId}`,
      `file://${theirs}`,
      `file://${root}/${b.organizationId}/no-such-folder`,
      `file://${mine}/../${b.organizationId}/aws`,
      `file://${mine}/link-to-theirs`,
      `file://${mine}/link-to-nothing`,
      `file://${mine}/link-to-nothing/deeper`,
      'file:///root',
      `file:///root/.ssh-${randomUUID()}`,
      'file:///etc',
    ];
    for (const url of places) {
      const refused = await send(url);
      expect([url, refused.status, refused.body.error.message]).toEqual([url, first.status, first.body.error.message]);
    }
    expect((await t.http.get(SOURCES).set(a.auth)).body.data).toEqual([]);
    mkdirSync(join(mine, 'aws'));
    expect((await send(`file://${mine}/aws`)).status).toBe(201);
    expect((await send(`file://${mine}`)).status).toBe(201);
  });

  it('checks the folder and every file at each read: a folder swapped for a link, a hard link, a linked file are refused', async () => {
    const [a, b] = [await t.newOrganization(), await t.newOrganization()];
    const theirs = join(root, b.organizationId, 'aws');
    write(join(theirs, 'b.csv'), serviceCsv('ORGB-SECRET-SERVICE', '4259.5'), new Date('2026-11-01T00:00:00Z'));
    const mine = join(root, a.organizationId);

    const swapped = await addSource(a, 'focus-files', join(mine, 'swapped'), 'files-1');
    rmSync(join(mine, 'swapped'), { recursive: true });
    symlinkSync(theirs, join(mine, 'swapped'));
    const [outside] = await run(a, swapped);
    expect([outside.outcome, outside.message]).toEqual([
      'refused',
      expect.stringContaining('resolves outside the folder this source must stay in'),
    ]);

    const linked = await addSource(a, 'focus-files', join(mine, 'linked'), 'files-2');
    write(join(mine, 'linked', 'own.csv'), serviceCsv('Amazon EC2', '1.25'), new Date('2026-11-01T00:00:00Z'));
    linkSync(join(theirs, 'b.csv'), join(mine, 'linked', 'hard.csv'));
    symlinkSync(join(theirs, 'b.csv'), join(mine, 'linked', 'soft.csv'));
    const checks = await run(a, linked);
    const refusal = checks.find((check) => check.outcome === 'refused');
    expect(refusal?.message).toEqual(expect.stringContaining('"hard.csv" (2 hard links'));
    expect(refusal?.message).toEqual(expect.stringContaining('"soft.csv" (a symbolic link'));
    // Its own file is imported; nothing of the other organisation's is.
    expect(checks.map((check) => check.outcome).sort()).toEqual(['imported', 'refused']);
    expect(await billedByMonth(a)).toEqual({ '2026-09': '1.25' });
    // Reported once, not at every poll.
    expect((await run(a, linked)).map((check) => check.outcome)).toEqual(['unchanged']);
    expect(readFileSync(join(theirs, 'b.csv'), 'utf8')).toContain('ORGB-SECRET-SERVICE');
  });

  it('refuses a listing over INGEST_MAX_LISTED_OBJECTS, naming the cap, and a part over INGEST_MAX_OBJECT_BYTES, naming it', async () => {
    const org = await t.newOrganization();
    const crowded = join(root, org.organizationId, 'crowded');
    for (let i = 0; i <= LISTING_CAP; i++) write(join(crowded, `notes-${i}.txt`), '');
    const id = await addSource(org, 'focus-files', crowded, 'files-1');
    const [tooLong] = await run(org, id);
    expect([tooLong.outcome, tooLong.message]).toEqual([
      'refused',
      expect.stringContaining('more than 200 objects (INGEST_MAX_LISTED_OBJECTS)'),
    ]);

    const large = join(root, org.organizationId, 'large');
    const csv = serviceCsv('Amazon EC2', '2.5');
    write(join(large, 'big.csv'), csv + ' '.repeat(PART_CAP + 1 - Buffer.byteLength(csv)), new Date('2026-11-01T00:00:00Z'));
    const [oversized] = await run(org, await addSource(org, 'focus-files', large, 'files-2'));
    expect([oversized.outcome, oversized.message]).toEqual([
      'refused',
      expect.stringContaining(`"big.csv" (${PART_CAP + 1} bytes, larger than INGEST_MAX_OBJECT_BYTES (${PART_CAP} bytes))`),
    ]);
    expect(await billedByMonth(org)).toEqual({});
  });

  it("says what is wrong with a file in the product's words: no engine text, no temporary path", async () => {
    const org = await t.newOrganization();
    const dir = join(root, org.organizationId, 'broken');
    write(
      join(dir, 'broken.csv'),
      `${HEADER}\n1,1,1,Usage,2026-09-01T00:00:00Z,2026-09-01T00:00:00Z,1,EC2,AWS,USD,extra,"unclosed\n`,
      new Date('2026-11-01T00:00:00Z'),
    );
    const [refused] = await run(org, await addSource(org, 'focus-files', dir, 'files'));
    expect(refused.outcome).toBe('refused');
    expect(refused.message).toContain(`${join(dir, 'broken.csv')}: cannot be parsed as CSV: line 2`);
    expect(refused.message).not.toMatch(/DB::Exception|Code: \d+|\/proc\/|cost-insights-(ingest|delivery)-|\(version /);
  });
});

/** The object-store application's INGEST_MAX_OBJECT_BYTES. */
const REMOTE_PART_CAP = 1_000_000;

describe('Data sources in object storage (s3rver, Azurite)', () => {
  let t: TestApp;
  let s3: LocalServer;
  let azurite: Awaited<ReturnType<typeof startAzurite>>;
  const dir = resolve(process.env.E2E_TMP_DIR ?? '.test-tmp', `object-stores-${randomUUID()}`);
  const bucket = `exports-${randomUUID().slice(0, 8)}`;

  beforeAll(async () => {
    [s3, azurite] = await Promise.all([startS3Server(join(dir, 's3')), startAzurite(join(dir, 'azurite'))]);
    // Credentials reach the service only through variables it is told the names of.
    process.env.SOURCE_CREDENTIALS_TEST_S3_KEY_ID = 'S3RVER';
    process.env.SOURCE_CREDENTIALS_TEST_S3_SECRET = 'S3RVER';
    process.env.SOURCE_CREDENTIALS_TEST_AZURE_ACCOUNT = azurite.account;
    process.env.SOURCE_CREDENTIALS_TEST_AZURE_KEY = azurite.key;
    process.env.SOURCE_CREDENTIALS_TEST_AZURE_WRONG_KEY = Buffer.from('not the key').toString('base64');
    t = await TestApp.start({
      settings: { INGEST_SETTLE_SECONDS: '0', INGEST_INCOMPLETE_AFTER_SECONDS: '0', INGEST_MAX_OBJECT_BYTES: String(REMOTE_PART_CAP) },
    });
  }, 120_000);

  afterAll(async () => {
    await t?.close();
    await Promise.all([s3?.stop(), azurite?.stop()]);
    rmSync(dir, { recursive: true, force: true });
  });

  /** A client of the suite's s3rver, as a test writes a bucket's objects with it. */
  const s3Client = () =>
    new S3Client({
      endpoint: s3.url,
      region: 'us-east-1',
      forcePathStyle: true,
      credentials: { accessKeyId: 'S3RVER', secretAccessKey: 'S3RVER' },
    });

  const operatorAdds = (org: TestOrganization, source: Parameters<SourcesService['add']>[1]) =>
    t.app.get(SourcesService).add(org.organizationId, source, 'operator');

  async function run(org: TestOrganization, id: string) {
    const response = await t.http.post(`${SOURCES}/${id}/run`).set(org.auth);
    expect(response.status).toBe(200);
    return response.body.data.checks as Array<{ outcome: string; message: string; billingPeriods: string[] }>;
  }

  async function billed(org: TestOrganization, currency = 'USD'): Promise<number> {
    const response = await t.http
      .post('/v1/cost-insights/data')
      .set(org.auth)
      .send({
        filters: { inclusions: { dateRange: { start: '2026-09-01', end: '2026-09-30' } } },
        groupBy: { dateGrouping: 'monthly' },
        currency,
      });
    expect(response.status).toBe(200);
    return response.body.data.summary.total_billed_cost as number;
  }

  it('imports an AWS delivery from an S3-compatible bucket (s3rver), and names a credential variable that is not set', async () => {
    const client = s3Client();
    await client.send(new CreateBucketCommand({ Bucket: bucket }));
    const local = join(dir, 'aws-layout');
    const parts = [[{ billed: '12.5', day: '2026-09-02' }], [{ billed: '0.25', day: '2026-09-03' }]];
    awsDelivery(local, '2026-09', 'exec-1', '2026-10-01T06:00:00Z', parts);
    const keys = [
      'focus/data/BILLING_PERIOD=2026-09/exec-1/focus-00001.csv',
      'focus/data/BILLING_PERIOD=2026-09/exec-1/focus-00002.csv',
      'focus/metadata/BILLING_PERIOD=2026-09/exec-1/focus-Manifest.json',
    ];
    for (const key of [...keys, 'unrelated/notes.txt']) {
      const body = key.startsWith('unrelated') ? 'not an export' : readFileSync(join(local, key));
      await client.send(new PutObjectCommand({ Bucket: bucket, Key: `exports/${key}`, Body: body }));
    }
    client.destroy();

    const org = await t.newOrganization();
    const refused = await t.http
      .post(SOURCES)
      .set(org.auth)
      .send({ integrationId: 'aws', kind: 'aws-data-exports', url: `s3://${bucket}/exports` });
    expect([refused.status, refused.body.error.message]).toEqual([403, expect.stringContaining('the operator adds them')]);
    const source = await operatorAdds(org, {
      integrationId: 'aws',
      kind: 'aws-data-exports',
      url: `s3://${bucket}/exports`,
      options: {
        endpoint: s3.url,
        pathStyle: true,
        credentials: { idEnv: 'SOURCE_CREDENTIALS_TEST_S3_KEY_ID', secretEnv: 'SOURCE_CREDENTIALS_TEST_S3_SECRET' },
      },
    });
    expect(source.options.credentials).toEqual({
      idEnv: 'SOURCE_CREDENTIALS_TEST_S3_KEY_ID',
      secretEnv: 'SOURCE_CREDENTIALS_TEST_S3_SECRET',
    });
    expect((await run(org, source.sourceId)).map((c) => [c.outcome, c.billingPeriods])).toEqual([['imported', ['2026-09']]]);
    expect(await billed(org)).toBe(Number(text(total(parts.flat()))));
    expect((await run(org, source.sourceId)).map((c) => c.outcome)).toEqual(['unchanged']);

    // A corrupt restatement is refused, naming the object by its place in the bucket (not where it was downloaded).
    const corrupt = 'focus/data/BILLING_PERIOD=2026-09/exec-2/focus-00001.csv';
    const again = s3Client();
    await again.send(
      new PutObjectCommand({ Bucket: bucket, Key: `exports/${corrupt}`, Body: focusCsv('2026-09', [{ billed: 'x1', day: '2026-09-02' }]) }),
    );
    const manifest = { executionId: 'exec-2', exportTime: '2026-10-02T06:00:00Z', dataFiles: [`s3://${bucket}/exports/${corrupt}`] };
    await again.send(
      new PutObjectCommand({
        Bucket: bucket,
        Key: 'exports/focus/metadata/BILLING_PERIOD=2026-09/exec-2/focus-Manifest.json',
        Body: JSON.stringify(manifest),
      }),
    );
    again.destroy();
    const [bad] = await run(org, source.sourceId);
    expect([bad.outcome, bad.message]).toEqual([
      'refused',
      expect.stringContaining(`s3://${bucket}/exports/${corrupt}:line 2: BilledCost is not a decimal number ("x1")`),
    ]);
    expect(await billed(org)).toBe(Number(text(total(parts.flat()))));

    const missing = await operatorAdds(org, {
      integrationId: 'aws-2',
      kind: 'aws-data-exports',
      url: `s3://${bucket}/exports`,
      options: {
        endpoint: s3.url,
        pathStyle: true,
        credentials: { idEnv: 'SOURCE_CREDENTIALS_TEST_UNSET_KEY_ID', secretEnv: 'SOURCE_CREDENTIALS_TEST_S3_SECRET' },
      },
    });
    const [unset] = await run(org, missing.sourceId);
    expect([unset.outcome, unset.message]).toEqual([
      'unreachable',
      expect.stringContaining('SOURCE_CREDENTIALS_TEST_UNSET_KEY_ID the source names is not set'),
    ]);
  });

  // The bucket's listing is the subject, not the store: once, embedded.
  itIn(['embedded'])(
    'checks a bucket of 10,000 unrelated objects with nothing new by one listing, reading no object',
    async () => {
      const client = s3Client();
      const crowded = `crowded-${randomUUID().slice(0, 8)}`;
      await client.send(new CreateBucketCommand({ Bucket: crowded }));
      const unrelated = Array.from({ length: 10_000 }, (_, i) => `exports/other-team/report-${i}.txt`);
      for (let i = 0; i < unrelated.length; i += 100) {
        await Promise.all(
          unrelated.slice(i, i + 100).map((key) => client.send(new PutObjectCommand({ Bucket: crowded, Key: key, Body: 'not an export' }))),
        );
      }
      const rows = [{ billed: '3.125', day: '2026-09-04' }];
      const part = 'focus/data/BILLING_PERIOD=2026-09/exec-1/focus-00001.csv';
      await client.send(new PutObjectCommand({ Bucket: crowded, Key: `exports/${part}`, Body: focusCsv('2026-09', rows) }));
      const manifest = { executionId: 'exec-1', exportTime: '2026-10-01T06:00:00Z', dataFiles: [`s3://${crowded}/exports/${part}`] };
      await client.send(
        new PutObjectCommand({
          Bucket: crowded,
          Key: 'exports/focus/metadata/BILLING_PERIOD=2026-09/exec-1/focus-Manifest.json',
          Body: JSON.stringify(manifest),
        }),
      );
      client.destroy();

      // The service reaches the bucket through a relay that counts the requests it passes on (the protocol untouched).
      const proxy = await countingProxy(s3.url);
      try {
        const org = await t.newOrganization();
        const source = await operatorAdds(org, {
          integrationId: 'aws',
          kind: 'aws-data-exports',
          url: `s3://${crowded}/exports`,
          options: {
            endpoint: proxy.url,
            pathStyle: true,
            credentials: { idEnv: 'SOURCE_CREDENTIALS_TEST_S3_KEY_ID', secretEnv: 'SOURCE_CREDENTIALS_TEST_S3_SECRET' },
          },
        });
        expect((await run(org, source.sourceId)).map((c) => [c.outcome, c.message])).toEqual([['imported', '']]);
        expect(await billed(org)).toBe(Number(text(total(rows))));
        // A listing of 10,002 keys is 11 pages of at most 1,000; the manifest and the part are read once.
        expect(proxy.counts()).toEqual({ listPages: 11, objectReads: 2, other: 0 });

        proxy.reset();
        expect((await run(org, source.sourceId)).map((c) => c.outcome)).toEqual(['unchanged']);
        expect((await run(org, source.sourceId)).map((c) => c.outcome)).toEqual(['unchanged']);
        expect(proxy.counts()).toEqual({ listPages: 22, objectReads: 0, other: 0 });
      } finally {
        await proxy.stop();
      }
    },
    300_000,
  );

  it('treats object keys as data: a key that climbs, or a part over INGEST_MAX_OBJECT_BYTES, is refused and named, never written', async () => {
    const client = s3Client();
    const hostile = `hostile-${randomUUID().slice(0, 8)}`;
    await client.send(new CreateBucketCommand({ Bucket: hostile }));
    const victim = join(dir, 'victim-organisation');
    mkdirSync(victim, { recursive: true });
    const keys = [
      `p/${'../'.repeat(12)}${victim.slice(1)}/injected.csv`,
      'p/./dot.csv',
      'p//empty-segment.csv',
      'p\\back.csv',
      '/absolute.csv',
    ];
    const renamed = new Map(keys.map((key, i) => [`exports/stand-in-${i}.csv`, `exports/${key}`]));
    for (const stored of [...renamed.keys(), 'exports/good.csv']) {
      await client.send(new PutObjectCommand({ Bucket: hostile, Key: stored, Body: serviceCsv('Amazon EC2', '6.5') }));
    }
    const large = serviceCsv('Amazon EC2', '1');
    const padded = large + ' '.repeat(REMOTE_PART_CAP + 1 - Buffer.byteLength(large));
    await client.send(new PutObjectCommand({ Bucket: hostile, Key: 'large/big.csv', Body: padded }));
    client.destroy();

    const relay = await hostileBucket(s3.url, renamed, serviceCsv('INJECTED-SERVICE', '999'));
    const counting = await countingProxy(s3.url);
    try {
      const org = await t.newOrganization();
      const options = (endpoint: string) => ({
        endpoint,
        pathStyle: true,
        credentials: { idEnv: 'SOURCE_CREDENTIALS_TEST_S3_KEY_ID', secretEnv: 'SOURCE_CREDENTIALS_TEST_S3_SECRET' },
      });
      const source = await operatorAdds(org, {
        integrationId: 'files',
        kind: 'focus-files',
        url: `s3://${hostile}/exports`,
        options: options(relay.url),
      });
      const checks = await run(org, source.sourceId);
      expect(checks.map((check) => check.outcome).sort()).toEqual(['imported', 'refused']);
      const refusal = checks.find((check) => check.outcome === 'refused')!.message;
      expect(refusal).toContain(`${JSON.stringify(keys[0])} (a key with a '..' segment)`);
      expect(refusal).toContain(`"p/./dot.csv" (a key with a '.' segment)`);
      expect(refusal).toContain(`"p//empty-segment.csv" (a key with an empty segment)`);
      expect(refusal).toContain(`"p\\\\back.csv" (a key with a backslash)`);
      expect(refusal).toContain(`"/absolute.csv" (an absolute key)`);
      expect(existsSync(join(victim, 'injected.csv'))).toBe(false);
      expect(await billed(org)).toBe(6.5);

      // An object gone by the time it is downloaded: the failure in the product's words, the SDK's text in the log.
      const client2 = s3Client();
      await client2.send(new PutObjectCommand({ Bucket: hostile, Key: 'vanishing/a.csv', Body: serviceCsv('Amazon EC2', '1') }));
      client2.destroy();
      const vanishing = await operatorAdds(org, {
        integrationId: 'gone',
        kind: 'focus-files',
        url: `s3://${hostile}/vanishing`,
        options: options(relay.url),
      });
      const [failed] = await run(org, vanishing.sourceId);
      expect([failed.outcome, failed.message]).toEqual([
        'failed',
        "import failed, retried at the next check: the object store refused a download (NoSuchKey) (the service's log has the details)",
      ]);

      const big = await operatorAdds(org, {
        integrationId: 'large',
        kind: 'focus-files',
        url: `s3://${hostile}/large`,
        options: options(counting.url),
      });
      counting.reset();
      const [oversized] = await run(org, big.sourceId);
      expect([oversized.outcome, oversized.message]).toEqual([
        'refused',
        expect.stringContaining(`"big.csv" (${REMOTE_PART_CAP + 1} bytes, larger than INGEST_MAX_OBJECT_BYTES (${REMOTE_PART_CAP} bytes))`),
      ]);
      expect(counting.counts()).toEqual({ listPages: 1, objectReads: 0, other: 0 });
    } finally {
      await Promise.all([relay.stop(), counting.stop()]);
    }
  });

  it('reads credentials only from variables named SOURCE_CREDENTIALS_*', async () => {
    const org = await t.newOrganization();
    const add = (idEnv: string) =>
      operatorAdds(org, {
        integrationId: 'aws',
        kind: 'aws-data-exports',
        url: `s3://${bucket}/exports`,
        options: { endpoint: s3.url, credentials: { idEnv, secretEnv: 'SOURCE_CREDENTIALS_TEST_S3_SECRET' } },
      });
    await expect(add('CLICKHOUSE_PASSWORD')).rejects.toThrow(
      'credentials.idEnv: the NAME of an environment variable starting with SOURCE_CREDENTIALS_',
    );
    await expect(add('REDIS_URL')).rejects.toThrow('starting with SOURCE_CREDENTIALS_');
    await expect(add('SOURCE_CREDENTIALS_TEST_S3_KEY_ID')).resolves.toMatchObject({ integrationId: 'aws' });
  });

  it('imports an Azure run from Azure Blob Storage (Azurite), and says so when the account key is wrong', async () => {
    const container = new ContainerClient(`${azurite.url}/exports`, new StorageSharedKeyCredential(azurite.account, azurite.key));
    await container.createIfNotExists();
    const rows = [{ billed: '80.5', day: '2026-09-10' }];
    const part = focusCsv('2026-09', rows, 'EUR');
    const runFolder = 'focus-export/20260901-20260930/run-7';
    const manifest = {
      runInfo: { runId: 'run-7', submittedTime: '2026-10-01T03:00:00Z' },
      blobs: [{ blobName: `costs/${runFolder}/part_0_0001.csv`, byteCount: Buffer.byteLength(part) }],
    };
    await container.getBlockBlobClient(`costs/${runFolder}/part_0_0001.csv`).upload(part, Buffer.byteLength(part));
    const manifestText = JSON.stringify(manifest);
    await container.getBlockBlobClient(`costs/${runFolder}/manifest.json`).upload(manifestText, Buffer.byteLength(manifestText));

    const org = await t.newOrganization();
    const options = (secretEnv: string) => ({
      endpoint: azurite.url,
      credentials: { idEnv: 'SOURCE_CREDENTIALS_TEST_AZURE_ACCOUNT', secretEnv },
    });
    const wrong = await operatorAdds(org, {
      integrationId: 'azure-ea',
      kind: 'azure-exports',
      url: 'azure://exports/costs',
      options: options('SOURCE_CREDENTIALS_TEST_AZURE_WRONG_KEY'),
    });
    const [refused] = await run(org, wrong.sourceId);
    expect(refused.outcome).toBe('unreachable');
    expect(refused.message).not.toContain(process.env.SOURCE_CREDENTIALS_TEST_AZURE_WRONG_KEY);
    const source = await operatorAdds(org, {
      integrationId: 'azure-ea',
      kind: 'azure-exports',
      url: 'azure://exports/costs',
      options: options('SOURCE_CREDENTIALS_TEST_AZURE_KEY'),
    });
    expect((await run(org, source.sourceId)).map((c) => [c.outcome, c.billingPeriods])).toEqual([['imported', ['2026-09']]]);
    expect(await billed(org, 'EUR')).toBe(80.5);
  });
});

const describeWithRedis = E2E_MODE === 'embedded' ? describe.skip : describe;

describeWithRedis('The data-source worker', () => {
  it('is one holder at a time, and a crashed holder is replaced once its lease expires', async () => {
    const redis = new Redis(process.env.REDIS_URL!);
    try {
      const key = `test-lease-${randomUUID()}`;
      const first = new RedisLease(redis, key, 400);
      const second = new RedisLease(redis, key, 400);
      expect(await first.acquire()).toBe(true);
      expect(await second.acquire()).toBe(false);
      expect(await first.renew()).toBe(true);
      // The first holder "crashes": it stops renewing. Redis expires its lease; the second takes it.
      await sleep(600);
      expect(await second.acquire()).toBe(true);
      expect(await first.renew()).toBe(false);
      await first.release();
      expect(await redis.get(key)).not.toBeNull();
    } finally {
      redis.disconnect();
    }
  });

  it('backs off from an unreachable endpoint, doubling its wait, and each check says when it tries again', async () => {
    // A poll of 2 s, the worker's tick: without a backoff every round would check the source, 2 s apart. The worker
    // has a database of its own, so its rounds hold this source alone (on a shared server other suites' sources would
    // come first in a round, shifting when each check is recorded by seconds under load).
    const pollMs = 2_000;
    const database = `sources_backoff_${randomUUID().replace(/-/g, '').slice(0, 12)}`;
    const worker = await TestApp.start({
      settings: { INGEST_WORKER: 'true', INGEST_POLL_SECONDS: String(pollMs / 1000), CLICKHOUSE_DATABASE: database },
    });
    try {
      const org = await worker.newOrganization();
      const nobody = `http://127.0.0.1:${await freePort()}`; // nothing listens there
      const source = await worker.app
        .get(SourcesService)
        .add(
          org.organizationId,
          { integrationId: 'down', kind: 'aws-data-exports', url: 's3://exports/focus', options: { endpoint: nobody, pathStyle: true } },
          'operator',
        );
      let checks: Array<{ checkedAt: string; outcome: string; message: string }> = [];
      for (let i = 0; i < 300 && checks.length < 3; i++) {
        await sleep(200);
        const history = await worker.http.get(`${SOURCES}/${source.sourceId}/history`).set(org.auth);
        checks = [...(history.body.data as typeof checks)].reverse();
      }
      expect(checks.map((check) => check.outcome)).toEqual(['unreachable', 'unreachable', 'unreachable']);
      const waits = checks.map((check) => Number(/the worker tries again in (\d+) s$/.exec(check.message)?.[1]));
      expect(waits).toEqual([2, 4, 8]);
      // The third check waited for the second's 4 s, skipping a round: two polls apart, not one. Each check records
      // when its listing failed, a moment into its round, so the gap is told from one poll's by the midpoint.
      const gap = Date.parse(checks[2].checkedAt) - Date.parse(checks[1].checkedAt);
      expect(gap).toBeGreaterThanOrEqual(1.5 * pollMs);
      const list = await worker.http.get(SOURCES).set(org.auth);
      expect(JSON.stringify(list.body.data)).toContain('the worker tries again in');
      await worker.http.delete(`${SOURCES}/${source.sourceId}`).set(org.auth);
    } finally {
      for (const node of await worker.nodes()) await node.command(`DROP DATABASE IF EXISTS ${database} SYNC`);
      await worker.close();
    }
  }, 240_000);

  it('runs in exactly one of two instances, imports by itself, and moves to the other when its instance stops', async () => {
    const root = resolve(process.env.E2E_TMP_DIR ?? '.test-tmp', `worker-${randomUUID()}`);
    const settings = { INGEST_WORKER: 'true', INGEST_POLL_SECONDS: '1', INGEST_FILE_ROOT: root, INGEST_SETTLE_SECONDS: '0' };
    const a = await TestApp.start({ settings });
    const b = await TestApp.start({ settings });
    try {
      const active = async () => {
        for (let i = 0; i < 100; i++) {
          const holders = [a, b].filter((x) => x.app.get(IngestWorkerService).active);
          if (holders.length === 1) return holders[0];
          await sleep(100);
        }
        throw new Error('no single worker');
      };
      const holder = await active();
      const org = await a.newOrganization();
      const dir = join(root, org.organizationId, 'files');
      write(join(dir, 'a.csv'), focusCsv('2026-09', [{ billed: '3.5', day: '2026-09-01' }]), new Date('2026-11-01T00:00:00Z'));
      const created = await a.http
        .post(SOURCES)
        .set(org.auth)
        .send({ integrationId: 'files', kind: 'focus-files', url: `file://${dir}` });
      expect(created.status).toBe(201);
      const imported = async (app: TestApp, count: number) => {
        for (let i = 0; i < 300; i++) {
          const history = await app.http.get(`${SOURCES}/${created.body.data.sourceId}/history`).set(org.auth);
          if (history.body.data.filter((c: { outcome: string }) => c.outcome === 'imported').length >= count) return;
          await sleep(200);
        }
        throw new Error('the worker did not import the delivery');
      };
      await imported(a, 1);

      const survivor = holder === a ? b : a;
      await holder.close();
      write(join(dir, 'b.csv'), focusCsv('2026-09', [{ billed: '1', day: '2026-09-02' }]), new Date('2026-11-01T00:00:00Z'));
      await imported(survivor, 2);
      expect(survivor.app.get(IngestWorkerService).active).toBe(true);
      await survivor.http.delete(`${SOURCES}/${created.body.data.sourceId}`).set(org.auth);
    } finally {
      await a.close().catch(() => undefined);
      await b.close().catch(() => undefined);
      rmSync(root, { recursive: true, force: true });
    }
  }, 120_000);
});
