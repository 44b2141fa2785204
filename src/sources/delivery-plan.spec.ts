import { Delivery, findDeliveries, manifestKeys } from './delivery-layouts';
import type { ListedObject } from './source-listing';
import { planSource } from './delivery-plan';
import { parseSourceLocation } from './source-location';

const at = (iso: string) => Date.parse(iso);
const object = (key: string, size = 10, modified = '2026-11-01T00:00:00Z'): ListedObject => ({ key, size, modifiedMs: at(modified) });
const rules = { nowMs: at('2026-11-25T00:00:00Z'), settleMs: 120_000 };

function awsManifest(execution: string, exportTime: string, files: string[]): [string, string] {
  return [
    `focus/metadata/BILLING_PERIOD=2026-10/${execution}/focus-Manifest.json`,
    JSON.stringify({ executionId: execution, exportTime, dataFiles: files.map((f) => `s3://bucket/prefix/${f}`) }),
  ];
}

describe('findDeliveries', () => {
  it('AWS: a delivery per manifest, its parts matched by path suffix, missing ones named', async () => {
    const [key, text] = awsManifest('e1', '2026-11-02T00:00:00Z', [
      'focus/data/BILLING_PERIOD=2026-10/e1/a.parquet',
      'focus/data/BILLING_PERIOD=2026-10/e1/b.parquet',
    ]);
    const listing = [object(key), object('focus/data/BILLING_PERIOD=2026-10/e1/a.parquet'), object('unrelated/x.csv')];
    expect(manifestKeys('aws-data-exports', listing)).toEqual([key]);
    const [delivery] = await findDeliveries('aws-data-exports', listing, new Map([[key, text]]), rules);
    expect(delivery).toMatchObject({
      scope: 'BILLING_PERIOD=2026-10',
      order: '2026-11-02T00:00:00Z',
      parts: [listing[1]],
      missing: ['prefix/focus/data/BILLING_PERIOD=2026-10/e1/b.parquet is missing'],
    });
  });

  it('AWS: a manifest that is not one is unreadable, not imported', async () => {
    const key = 'focus/metadata/BILLING_PERIOD=2026-10/focus-Manifest.json';
    const [delivery] = await findDeliveries('aws-data-exports', [object(key)], new Map([[key, '{"no":"files"}']]), rules);
    expect(delivery.problem).toBe(`${key}: not an AWS Data Exports manifest (no dataFiles list)`);
  });

  it('Azure: a part of another size than its manifest lists is not there yet', async () => {
    const key = 'exp/20261001-20261031/run-1/manifest.json';
    const text = JSON.stringify({
      runInfo: { submittedTime: '2026-11-01T00:00:00Z' },
      blobs: [{ blobName: 'root/exp/20261001-20261031/run-1/part_0.csv.gz', byteCount: 99 }],
    });
    const [delivery] = await findDeliveries(
      'azure-exports',
      [object(key), object('exp/20261001-20261031/run-1/part_0.csv.gz', 98)],
      new Map([[key, text]]),
      rules,
    );
    expect(delivery).toMatchObject({
      scope: 'exp/20261001-20261031',
      missing: ['exp/20261001-20261031/run-1/part_0.csv.gz has 98 of 99 bytes'],
    });
  });

  it('OCI: a month of daily reports is one delivery, settled or not', async () => {
    const listing = [
      object('2026/10/01/a.csv.gz'),
      object('2026/10/02/b.csv.gz', 10, '2026-11-24T23:59:00Z'),
      object('2026/09/30/c.csv.gz'),
    ];
    const deliveries = await findDeliveries('oci-focus', listing, new Map(), rules);
    expect(deliveries.map((d) => [d.scope, d.parts.length, d.missing.length])).toEqual([
      ['2026-10', 2, 1],
      ['2026-09', 1, 0],
    ]);
  });

  it('a changed file changes the fingerprint', async () => {
    const [before] = await findDeliveries('focus-files', [object('a.csv')], new Map(), rules);
    const [after] = await findDeliveries('focus-files', [object('a.csv', 11)], new Map(), rules);
    expect(before.fingerprint).not.toBe(after.fingerprint);
  });

  it("matches a manifest's path to the listed key that is its longest suffix, whatever the listing's order", async () => {
    const [key, text] = awsManifest('e1', '2026-11-02T00:00:00Z', ['focus/data/BILLING_PERIOD=2026-10/e1/a.parquet']);
    const listing = [object('a.parquet', 1), object(key), object('focus/data/BILLING_PERIOD=2026-10/e1/a.parquet', 2)];
    const [delivery] = await findDeliveries('aws-data-exports', listing, new Map([[key, text]]), rules);
    expect(delivery.parts.map((p) => [p.key, p.size])).toEqual([['focus/data/BILLING_PERIOD=2026-10/e1/a.parquet', 2]]);
  });

  it('a manifest naming 50,000 parts of a listing of 50,000 objects: every part matched, none missing', async () => {
    const files = Array.from({ length: 50_000 }, (_, i) => `focus/data/BILLING_PERIOD=2026-10/e1/part-${i}.csv`);
    const [key, text] = awsManifest('e1', '2026-11-02T00:00:00Z', files);
    const listing = [object(key), ...files.map((file) => object(file))];
    const [delivery] = await findDeliveries('aws-data-exports', listing, new Map([[key, text]]), rules);
    expect([delivery.parts.length, delivery.missing.length]).toEqual([50_000, 0]);
  });
});

describe('planSource', () => {
  const delivery = (order: string, fingerprint: string, missing: string[] = []): Delivery => ({
    id: fingerprint,
    scope: 'BILLING_PERIOD=2026-10',
    order,
    parts: [object('a.csv')],
    missing,
    deliveredMs: at('2026-11-01T00:00:00Z'),
    fingerprint,
  });
  const now = at('2026-11-25T00:00:00Z');

  it('imports the newest complete delivery of a scope once', () => {
    const deliveries = [delivery('2026-11-01', 'old'), delivery('2026-11-02', 'new')];
    expect(planSource(deliveries, [], new Set(), now, 0).toImport.map((d) => d.id)).toEqual(['new']);
    const imported = [{ scope: 'BILLING_PERIOD=2026-10', order: '2026-11-02', fingerprint: 'new' }];
    expect(planSource(deliveries, imported, new Set(), now, 0).toImport).toEqual([]);
  });

  it('never lets an older delivery replace a newer one, nor retries a refused one', () => {
    const imported = [{ scope: 'BILLING_PERIOD=2026-10', order: '2026-11-02', fingerprint: 'new' }];
    expect(planSource([delivery('2026-11-01', 'late')], imported, new Set(), now, 0).toImport).toEqual([]);
    expect(planSource([delivery('2026-11-03', 'bad')], imported, new Set(['bad']), now, 0).toImport).toEqual([]);
  });

  it('reports an incomplete delivery only past the deadline, and waits for it before', () => {
    const waiting = [delivery('2026-11-03', 'partial', ['b.csv is missing'])];
    const early = planSource(waiting, [], new Set(), now, 30 * 86_400_000);
    expect([early.incomplete, early.waiting.map((d) => d.id)]).toEqual([[], ['partial']]);
    const late = planSource(waiting, [], new Set(), now, 0);
    expect([late.incomplete.map((d) => d.id), late.waiting]).toEqual([['partial'], []]);
  });
});

describe('parseSourceLocation', () => {
  it.each([
    ['file:///srv/exports/aws/', { scheme: 'file', path: '/srv/exports/aws' }],
    ['file:///srv/a/../b', { scheme: 'file', path: '/srv/b' }],
    ['file://host/srv', { problem: expect.stringContaining('no host') }],
    ['s3://Bad_Bucket/x', { problem: 'url: s3://bucket/prefix with a valid bucket name' }],
    ['relative/path', { problem: expect.stringContaining('not a URL') }],
    ['http://example.com/x', { problem: 'url: use file:///directory, s3://bucket/prefix or azure://container/prefix' }],
  ])('%s', (url, expected) => {
    expect(parseSourceLocation(url)).toEqual(expected);
  });

  it('reads S3 and Azure locations with their options, credentials by variable name only', () => {
    expect(
      parseSourceLocation('s3://exports/focus', {
        endpoint: 'http://127.0.0.1:9000/',
        pathStyle: true,
        credentials: { idEnv: 'SOURCE_CREDENTIALS_KEY_ID', secretEnv: 'SOURCE_CREDENTIALS_SECRET' },
      }),
    ).toEqual({
      scheme: 's3',
      bucket: 'exports',
      prefix: 'focus/',
      endpoint: 'http://127.0.0.1:9000',
      region: 'us-east-1',
      pathStyle: true,
      credentials: { idEnv: 'SOURCE_CREDENTIALS_KEY_ID', secretEnv: 'SOURCE_CREDENTIALS_SECRET' },
    });
    expect(
      parseSourceLocation('azure://costs', {
        endpoint: 'https://acct.blob.core.windows.net',
        credentials: { sasTokenEnv: 'SOURCE_CREDENTIALS_SAS' },
      }),
    ).toMatchObject({ container: 'costs', prefix: '' });
    expect(parseSourceLocation('azure://costs/x')).toEqual({ problem: expect.stringContaining('endpoint: the storage account URL') });
    expect(parseSourceLocation('s3://exports/x', { credentials: { idEnv: 'has value=1', secretEnv: 'S' } })).toEqual({
      problem: expect.stringContaining('credentials.idEnv'),
    });
    expect(parseSourceLocation('s3://exports/x', { endpoint: 'http://user:pw@host' })).toEqual({
      problem: expect.stringContaining('endpoint'),
    });
  });
});
