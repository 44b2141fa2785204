// modes: embedded server cluster — freshness read from the store
import { parse } from 'csv-parse/sync';
import { COMPARISON_CSV_COLUMNS } from '../../src/comparison/comparison-csv';
import { METRIC_CSV_HEADERS } from '../../src/cost-query/metrics';
import { sumDecimalText } from '../support/decimals';
import { RowInput, TestApp, TestOrganization } from '../support/test-app';

/**
 * Issue 20 §3 and §4: every cost answer says how fresh its data is (X-Data-Through, X-Data-Imported-At,
 * and in /filters' payload), and /data and /compare answer RFC 4180 CSV under `Accept: text/csv`, read
 * back here with a real CSV parser (csv-parse).
 */
const DATA = '/v1/cost-insights/data';
const COMPARE = '/v1/cost-insights/compare';
const READ_ROUTES: [string, object][] = [
  [DATA, { groupBy: { dateGrouping: 'monthly' } }],
  [
    COMPARE,
    {
      baselinePeriod: { start: '2026-09-01', end: '2026-09-30' },
      comparisonPeriod: { start: '2026-10-01', end: '2026-10-31' },
      metric: 'amortized_cost',
    },
  ],
  ['/v1/cost-insights/filters', {}],
  ['/v1/cost-insights/tag-values', { tagKey: 'team' }],
  ['/v1/cost-insights/cost-category-values', { categoryKey: 'Unit' }],
];

/** Values CSV must quote: commas, quotes, line breaks, and text that looks like a number. */
const AWKWARD = ['Amazon EC2', 'Storage, "cold" tier', 'multi\nline\r\nname', '007', 'Zürich €'];

/** Whole seconds as the header writes them, for comparing with times taken around a write. */
const second = (iso: string) => Math.floor(Date.parse(iso) / 1000);

describe('data freshness and CSV answers', () => {
  let t: TestApp;

  beforeAll(async () => {
    // Background merges of an organisation's parts change its data version: read it once, so only this app's
    // own writes do (the cache checks below expect hits, and the next write a miss).
    t = await TestApp.start({ settings: { RESULT_CACHE_VERSION_CHECK_MS: '600000' } });
  });
  afterAll(() => t.close());

  async function orgWith(rows: RowInput[]): Promise<{ org: TestOrganization; writtenAt: [number, number] }> {
    const org = await t.newOrganization();
    const before = Math.floor(Date.now() / 1000);
    await t.insertRows(org.organizationId, rows);
    return { org, writtenAt: [before, Math.ceil(Date.now() / 1000)] };
  }

  describe('freshness', () => {
    it('tells every cost answer the last usage date with data and when it was written, in headers and in /filters', async () => {
      const { org, writtenAt } = await orgWith([
        { usage_date: '2026-09-12', amortized_cost: '1', resource_tags: { team: 'a' }, cost_categories: { Unit: 'x' } },
        { usage_date: '2026-10-17', amortized_cost: '2' },
      ]);
      for (const [route, body] of READ_ROUTES) {
        const response = await t.http.post(route).set(org.auth).send(body);
        expect([route, response.status]).toEqual([route, 200]);
        expect([route, response.headers['x-data-through']]).toEqual([route, '2026-10-17']);
        const importedAt = response.headers['x-data-imported-at'] as string;
        expect(importedAt).toMatch(/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}Z$/);
        expect(second(importedAt)).toBeGreaterThanOrEqual(writtenAt[0]);
        expect(second(importedAt)).toBeLessThanOrEqual(writtenAt[1]);
        if (route.endsWith('/filters')) {
          expect(response.body.data).toMatchObject({ dataThrough: '2026-10-17', dataImportedAt: importedAt });
        }
      }
    });

    it('is not sent with an error the handler raises (an error envelope describes no data)', async () => {
      const { org } = await orgWith([{ usage_date: '2026-10-03', amortized_cost: '1' }]);
      const tooLong = await t.http
        .post(DATA)
        .set(org.auth)
        .send({ groupBy: { dateGrouping: 'monthly' }, filters: { inclusions: { dateRange: { start: '2020-01-01', end: '2026-10-31' } } } });
      expect(tooLong.status).toBe(400);
      expect(tooLong.headers['x-data-through']).toBeUndefined();
    });

    it('is the organisation’s own, whatever the filters of the question', async () => {
      const { org } = await orgWith([{ usage_date: '2026-10-03', amortized_cost: '1' }]);
      await orgWith([{ usage_date: '2026-11-20', amortized_cost: '1' }]); // another organisation, fresher
      const narrow = await t.http
        .post(DATA)
        .set(org.auth)
        .send({ groupBy: { dateGrouping: 'daily' }, filters: { inclusions: { dateRange: { start: '2026-10-01', end: '2026-10-01' } } } });
      expect(narrow.body.data.items).toEqual([]);
      expect(narrow.headers['x-data-through']).toBe('2026-10-03');
    });

    it('sends no freshness headers, and nulls in /filters, for an organisation without data', async () => {
      const org = await t.newOrganization();
      for (const [route, body] of READ_ROUTES) {
        const response = await t.http.post(route).set(org.auth).send(body);
        expect([route, response.status]).toEqual([route, 200]);
        expect([route, response.headers['x-data-through'], response.headers['x-data-imported-at']]).toEqual([route, undefined, undefined]);
        if (route.endsWith('/filters')) expect(response.body.data).toMatchObject({ dataThrough: null, dataImportedAt: null });
      }
    });

    it('is carried by a cached answer and moves with the next write', async () => {
      const { org } = await orgWith([{ usage_date: '2026-10-03', amortized_cost: '1' }]);
      const first = await t.http
        .post(DATA)
        .set(org.auth)
        .send({ groupBy: { dateGrouping: 'monthly' } });
      const hit = await t.http
        .post(DATA)
        .set(org.auth)
        .send({ groupBy: { dateGrouping: 'monthly' } });
      expect(hit.headers['cache-status']).toBe('cost-insights-api; hit');
      expect([hit.headers['x-data-through'], hit.headers['x-data-imported-at']]).toEqual([
        first.headers['x-data-through'],
        first.headers['x-data-imported-at'],
      ]);
      await t.insertRows(org.organizationId, [{ usage_date: '2026-10-09', amortized_cost: '1' }]);
      const after = await t.http
        .post(DATA)
        .set(org.auth)
        .send({ groupBy: { dateGrouping: 'monthly' } });
      expect(after.headers['cache-status']).toBe('cost-insights-api; fwd=miss');
      expect(after.headers['x-data-through']).toBe('2026-10-09');
    });
  });

  describe('CSV', () => {
    /** Each service gets amounts whose exact sum has more digits than a double holds. */
    const AMOUNTS = ['1000000000.0000000001', '0.1234567891', '7'];
    let org: TestOrganization;
    let rows: RowInput[];

    beforeAll(async () => {
      rows = AWKWARD.flatMap((service, i) =>
        AMOUNTS.map((amount, j) => ({
          usage_date: `2026-10-0${1 + (j % 2)}`,
          service,
          amortized_cost: amount,
          billed_cost: `${i}.${j}`,
          resource_tags: { team: AWKWARD[(i + j) % AWKWARD.length] },
        })),
      );
      ({ org } = await orgWith(rows));
    });

    const asCsv = (route: string, body: object, accept = 'text/csv') => t.http.post(route).set(org.auth).set('Accept', accept).send(body);
    const records = (text: string): string[][] => parse(text, { relaxColumnCount: false }) as string[][];

    it('answers /data as RFC 4180 CSV: a header, one record per item in item order, exact decimal digits', async () => {
      const body = {
        groupBy: { dateGrouping: 'monthly', dimension: 'service' },
        filters: { inclusions: { dateRange: { start: '2026-10-01', end: '2026-10-31' } } },
      };
      const response = await asCsv(DATA, body);
      expect(response.status).toBe(200);
      expect(response.headers['content-type']).toBe('text/csv; charset=utf-8');
      expect(response.headers.vary).toMatch(/Accept/);
      expect(response.headers['x-data-through']).toBe('2026-10-02');
      expect(response.text.endsWith('\r\n')).toBe(true);
      const [header, ...items] = records(response.text);
      expect(header).toEqual(['usage_date', 'service', ...METRIC_CSV_HEADERS]);
      // Computed here, not read from the JSON answer: services in code point order, sums exact.
      const services = [...AWKWARD].sort((a, b) => (a < b ? -1 : a > b ? 1 : 0));
      expect(items.map((item) => item.slice(0, 3))).toEqual(
        services.map((service) => [
          '2026-10-01',
          service,
          sumDecimalText(rows.filter((r) => r.service === service).map((r) => r.amortized_cost!)),
        ]),
      );
      expect(sumDecimalText(AMOUNTS)).toBe('1000000007.1234567892'); // more digits than a double holds
      // And the JSON answer's numbers, as its text writes them, are the same digits.
      const json = await t.http.post(DATA).set(org.auth).send(body);
      const jsonDigits = [...json.text.matchAll(/"amortized_cost":([-\d.e]+)/g)].map((match) => match[1]);
      expect(jsonDigits).toEqual(items.map((item) => item[2]));
    });

    it('names each grouping dimension in the header, tags included, and quotes awkward values', async () => {
      const response = await asCsv(DATA, {
        groupBy: { dateGrouping: 'daily', dimensions: ['tag:team', 'service'] },
        filters: { inclusions: { dateRange: { start: '2026-10-01', end: '2026-10-02' } } },
      });
      const [header, ...items] = records(response.text);
      expect(header.slice(0, 3)).toEqual(['usage_date', 'tag:team', 'service']);
      expect(items).toHaveLength(rows.length);
      const seen = items.map((item) => `${item[0]}|${item[1]}|${item[2]}|${item[3]}`).sort();
      const expected = rows
        .map((r) => `${r.usage_date}|${r.resource_tags!.team}|${r.service}|${sumDecimalText([r.amortized_cost!])}`)
        .sort();
      expect(seen).toEqual(expected);
    });

    it('is a header alone for an empty result', async () => {
      const response = await asCsv(DATA, {
        groupBy: { dateGrouping: 'daily' },
        filters: { inclusions: { dateRange: { start: '2020-01-01', end: '2020-01-02' } } },
      });
      expect(response.status).toBe(200);
      expect(records(response.text)).toEqual([['usage_date', ...METRIC_CSV_HEADERS]]);
    });

    it('answers /compare as long-form CSV with the JSON answer’s numbers', async () => {
      const body = {
        baselinePeriod: { start: '2026-10-01', end: '2026-10-01' },
        comparisonPeriod: { start: '2026-10-02', end: '2026-10-02' },
        metric: 'amortized_cost',
        groupBy: { dimension: 'service' },
      };
      const [csv, json] = await Promise.all([asCsv(COMPARE, body), t.http.post(COMPARE).set(org.auth).send(body)]);
      expect(csv.status).toBe(200);
      expect(csv.headers['content-type']).toBe('text/csv; charset=utf-8');
      const [header, ...lines] = records(csv.text);
      expect(header).toEqual([...COMPARISON_CSV_COLUMNS]);
      type Row = {
        dimension_value: string;
        baseline: Side;
        comparison: Side;
        delta: { absolute: number; percentage: number; direction: string };
      };
      type Side = { total: number; by_date: { date: string; value: number }[] };
      const expected = (json.body.data.comparisons as Row[]).flatMap((row) =>
        (['baseline', 'comparison'] as const).flatMap((period) =>
          row[period].by_date.map((bucket) => [
            row.dimension_value,
            period,
            bucket.date,
            String(bucket.value),
            String(row[period].total),
            String(row.delta.absolute),
            String(row.delta.percentage),
            row.delta.direction,
          ]),
        ),
      );
      expect(lines).toEqual(expected);
      expect(new Set(lines.map((line) => line[0]))).toEqual(new Set(AWKWARD));
    });

    it('keeps CSV and JSON answers of one question apart in the cache', async () => {
      const body = { groupBy: { dateGrouping: 'monthly', dimension: 'service' } };
      const csv = await asCsv(DATA, body);
      const json = await t.http.post(DATA).set(org.auth).send(body);
      const csvAgain = await asCsv(DATA, body);
      expect(json.headers['content-type']).toBe('application/json; charset=utf-8');
      expect(json.body.success).toBe(true);
      expect(csvAgain.headers['cache-status']).toBe('cost-insights-api; hit');
      expect(csvAgain.headers['content-type']).toBe('text/csv; charset=utf-8');
      expect(csvAgain.text).toBe(csv.text);
      expect(csvAgain.headers['x-data-through']).toBe(csv.headers['x-data-through']);
    });

    it('answers JSON unless text/csv is preferred, and errors as JSON envelopes', async () => {
      const body = { groupBy: { dateGrouping: 'monthly' } };
      for (const accept of ['*/*', 'application/json', 'text/html', 'application/json, text/csv;q=0.5']) {
        const response = await asCsv(DATA, body, accept);
        expect([accept, response.headers['content-type']]).toEqual([accept, 'application/json; charset=utf-8']);
      }
      const preferred = await asCsv(DATA, body, 'text/csv, application/json;q=0.5');
      expect(preferred.headers['content-type']).toBe('text/csv; charset=utf-8');

      const invalid = await asCsv(DATA, { groupBy: { dateGrouping: 'hourly' } });
      expect(invalid.status).toBe(400);
      expect(invalid.headers['content-type']).toBe('application/json; charset=utf-8');
      expect(invalid.body).toMatchObject({ success: false, error: { message: expect.stringContaining('groupBy.dateGrouping') } });
      const unauthorized = await t.http.post(DATA).set('Accept', 'text/csv').send(body);
      expect(unauthorized.status).toBe(401);
      expect(unauthorized.body).toEqual({ message: 'Unauthorized' });
    });
  });
});
