// modes: embedded — CSV text of the answers
import { parse } from 'csv-parse/sync';
import { TestApp, TestOrganization } from '../support/test-app';

/**
 * Issue 35 §2: billing data is written by tenants' clouds, so a service name or tag value may be a
 * spreadsheet formula. Every text cell of every CSV the service writes that begins with `=`, `+`, `-`,
 * `@`, TAB or CR gets a leading `'` (OWASP CSV injection); numbers stay bare numbers, negative ones too,
 * and the JSON answers keep the values as they are.
 */
const DATA = '/v1/cost-insights/data';
const COMPARE = '/v1/cost-insights/compare';

/** One hostile value per prefix, plus values that only contain the characters later on. */
const HOSTILE = ["=cmd|' /C calc'!A0", '+1+1', '-2+3', '@SUM(A1:A2)', '\t=1+1', '\r=1+1'];
const HARMLESS = ['Amazon EC2', 'a=b', 'x-y', 'mail@example.com'];
const VALUES = [...HOSTILE, ...HARMLESS];
const neutralised = (value: string) => (HOSTILE.includes(value) ? `'${value}` : value);

describe('CSV formula injection', () => {
  let t: TestApp;
  let org: TestOrganization;

  beforeAll(async () => {
    t = await TestApp.start();
    org = await t.newOrganization();
    // Negative amounts too: a number that starts with `-` must stay a bare number.
    await t.insertRows(
      org.organizationId,
      VALUES.flatMap((value, i) => [
        { usage_date: '2026-10-01', service: value, amortized_cost: `-${i + 1}.5`, resource_tags: { team: value } },
        { usage_date: '2026-10-02', service: value, amortized_cost: `${i * 3}`, resource_tags: { team: value } },
      ]),
    );
  });
  afterAll(() => t.close());

  const asCsv = (route: string, body: object) => t.http.post(route).set(org.auth).set('Accept', 'text/csv').send(body);
  const records = (text: string): string[][] => parse(text) as string[][];

  it('neutralises every formula prefix in /data’s dimension columns (written by ClickHouse), numbers stay numbers', async () => {
    const body = {
      groupBy: { dateGrouping: 'daily', dimensions: ['service', 'tag:team'] },
      filters: { inclusions: { dateRange: { start: '2026-10-01', end: '2026-10-02' } } },
    };
    const response = await asCsv(DATA, body);
    expect(response.status).toBe(200);
    const [, ...items] = records(response.text);
    expect(items).toHaveLength(VALUES.length * 2);
    expect(new Set(items.map((item) => item[1]))).toEqual(new Set(VALUES.map(neutralised)));
    expect(new Set(items.map((item) => item[2]))).toEqual(new Set(VALUES.map(neutralised)));
    // No cell begins with a formula character unless it is a bare number (unquoted in the text).
    for (const item of items) for (const cell of item) expect(/^[=+@\t\r]/.test(cell)).toBe(false);
    expect(response.text).toMatch(/,-1\.5,/);
    expect(response.text).not.toMatch(/"'?-1\.5"/);
    // The JSON answer of the same question keeps the values unchanged.
    const json = await t.http.post(DATA).set(org.auth).send(body);
    const jsonValues = (json.body.data.items as { dimension_values: Record<string, string> }[]).map(
      (item) => item.dimension_values.service,
    );
    expect(new Set(jsonValues)).toEqual(new Set(VALUES));
  });

  it('neutralises them in /data grouped by one dimension and the header stays plain', async () => {
    const response = await asCsv(DATA, {
      groupBy: { dateGrouping: 'monthly', dimension: 'tag:team' },
      filters: { inclusions: { dateRange: { start: '2026-10-01', end: '2026-10-31' } } },
    });
    const [header, ...items] = records(response.text);
    expect(header.slice(0, 2)).toEqual(['usage_date', 'tag:team']);
    expect(new Set(items.map((item) => item[1]))).toEqual(new Set(VALUES.map(neutralised)));
  });

  it('neutralises every formula prefix in /compare’s dimension values, with negative deltas bare', async () => {
    const body = {
      baselinePeriod: { start: '2026-10-01', end: '2026-10-01' },
      comparisonPeriod: { start: '2026-10-02', end: '2026-10-02' },
      metric: 'amortized_cost',
      groupBy: { dimension: 'service' },
    };
    const response = await asCsv(COMPARE, body);
    expect(response.status).toBe(200);
    const [, ...lines] = records(response.text);
    expect(new Set(lines.map((line) => line[0]))).toEqual(new Set(VALUES.map(neutralised)));
    for (const line of lines) for (const cell of line) expect(/^[=+@\t\r]/.test(cell)).toBe(false);
    // Baseline values are negative: bare numbers in the text, never quoted or prefixed.
    expect(response.text).toMatch(/,"baseline","2026-10-01",-1\.5,-1\.5,/);
    const json = await t.http.post(COMPARE).set(org.auth).send(body);
    expect(new Set((json.body.data.comparisons as { dimension_value: string }[]).map((row) => row.dimension_value))).toEqual(
      new Set(VALUES),
    );
  });
});
