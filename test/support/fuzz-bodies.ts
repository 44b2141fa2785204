import fc from 'fast-check';
import { FEEDBACK_REASONS } from '../../src/store/repositories/anomalies.repository';

/**
 * fast-check generators of request bodies for every endpoint: valid (hostile strings in every
 * string slot, which the API must accept and run as plain values), near-valid (one mutation of a valid
 * body) and hostile (prototype keys, deep nesting, huge arrays, wrong types, non-JSON).
 *
 * Every hostile string carries HOSTILE_MARKER, so the SQL text ClickHouse receives can be searched for it.
 */
export const HOSTILE_MARKER = 'ZZHOSTILE';

const SQL_FRAGMENTS = [
  `' OR 1=1 --`,
  `'; DROP TABLE cost_line_items; --`,
  `') UNION ALL SELECT ${HOSTILE_MARKER}_u, 1 FROM system.tables --`,
  `\\' OR ${HOSTILE_MARKER}_bs = 1 --`,
  `" OR "1"="1`,
  '` OR 1 --',
  `{organization_id:UUID}`,
  `{p0:String}`,
  `}, {p1:Array(String)}`,
  `$1`,
  `%s%n`,
  `/* ${HOSTILE_MARKER}_c */`,
  `1); SELECT sleep(3); --`,
  `' FORMAT TSV SETTINGS max_memory_usage=1 --`,
  `\\0\\x00\\'`,
  `'||'`,
  `']['`,
  `tag:env`,
  `costCategory:x`,
  `(not set)`,
];

const NASTY_CHARACTERS = [
  "'",
  '"',
  '\\',
  '\u0000',
  '`',
  '\n',
  '\r',
  '\t',
  '%',
  '_',
  '{',
  '}',
  '[',
  ']',
  ';',
  '--',
  '/*',
  '\u2028',
  '\uFEFF',
  '😀',
  'ü',
  '中',
  '\u202E',
];

/** A string that would break out of a naive SQL literal; always holds the marker. */
export const hostileString: fc.Arbitrary<string> = fc
  .tuple(
    fc.constantFrom(...SQL_FRAGMENTS),
    fc.array(fc.constantFrom(...NASTY_CHARACTERS), { maxLength: 4 }),
    fc.string({ unit: 'grapheme', maxLength: 12 }),
    fc.nat(9999),
  )
  .map(([fragment, nasty, text, n]) => `${fragment}${nasty.join('')}${text}${HOSTILE_MARKER}${n}`);

/** Plain, valid-looking values, so some queries match inserted rows. */
const plainValue = fc.constantFrom(
  'AWS',
  'Azure',
  'Amazon EC2',
  'Amazon S3',
  'us-east-1',
  'Compute',
  'Usage',
  '111111111111',
  'aws-main',
  '(not set)',
  'prod',
);

/** A string for any value slot: mostly hostile, sometimes plain. */
export const valueString: fc.Arbitrary<string> = fc.oneof({ weight: 3, arbitrary: hostileString }, { weight: 1, arbitrary: plainValue });

/** Map keys (tag / cost category keys): hostile too, but within the documented 256 characters. */
export const mapKey: fc.Arbitrary<string> = fc.oneof(
  { weight: 3, arbitrary: hostileString.map((s) => s.slice(-200)) },
  { weight: 1, arbitrary: fc.constantFrom('env', 'team', "o'brien", 'a\\b', 'nul\u0000key', 'ключ', 'Business Unit') },
);

/** The discovery routes' `search` (at most 256 characters) and page `limit`. */
const search: fc.Arbitrary<string | null> = fc.oneof(
  fc.constant(null),
  valueString.map((s) => s.slice(0, 256)),
);
const pageLimit: fc.Arbitrary<number | null> = fc.oneof(fc.constant(null), fc.integer({ min: 1, max: 10_000 }));

const calendarDate = fc
  .date({ min: new Date('2025-06-01T00:00:00Z'), max: new Date('2026-11-30T00:00:00Z'), noInvalidDate: true })
  .map((d) => d.toISOString().slice(0, 10));

const dateRange = fc.tuple(calendarDate, calendarDate).map(([a, b]) => (a <= b ? { start: a, end: b } : { start: b, end: a }));
const billingPeriod = fc.constantFrom('2026-09', '2026-10', '2026-11', '2025-12');
const dimension = fc.oneof(
  fc.constantFrom(
    'costLayer',
    'cloud',
    'service',
    'resourceFamily',
    'region',
    'instanceType',
    'usageType',
    'billingPeriod',
    'costType',
    'account',
    'integration',
  ),
  mapKey.map((k) => `tag:${k}`),
  mapKey.map((k) => `costCategory:${k}`),
);
const metric = fc.constantFrom('amortized_cost', 'billed_cost', 'cash_cost', 'on_demand_cost', 'total_savings');
const grouping = fc.constantFrom('daily', 'weekly', 'monthly');
/** An answer's currency: the fuzz organisation's two billing currencies (rates loaded), or one it has no rates for. */
const currency = fc.oneof(fc.constant(null), fc.constantFrom('USD', 'EUR', 'USD', 'EUR', 'JPY'));
const list = (item: fc.Arbitrary<string>) => fc.array(item, { maxLength: 5 });

const LIST_FIELDS = [
  'costLayers',
  'clouds',
  'services',
  'resourceFamilies',
  'regions',
  'instanceTypes',
  'usageTypes',
  'costTypes',
  'accountIds',
  'integrationIds',
] as const;

function filterFields(withDates: boolean) {
  const lists = Object.fromEntries(LIST_FIELDS.map((f) => [f, list(valueString)]));
  const dates = withDates ? { billingPeriods: list(billingPeriod) } : {};
  const tag = fc.option(fc.record({ resourceTag: mapKey, resourceTagValues: list(valueString) }, { requiredKeys: ['resourceTag'] }), {
    nil: undefined,
  });
  const category = fc.option(
    fc.record({ costCategory: mapKey, costCategoryValues: list(valueString) }, { requiredKeys: ['costCategory'] }),
    { nil: undefined },
  );
  return fc
    .tuple(fc.record({ ...lists, ...dates }, { requiredKeys: [] }), tag, category)
    .map(([fields, t, c]) => ({ ...fields, ...(t ?? {}), ...(c ?? {}) }));
}

/** Filters with an explicit date range inside a few months (so valid queries stay cheap). */
const filters = (withDates: boolean) =>
  fc
    .tuple(filterFields(withDates), fc.option(filterFields(withDates), { nil: undefined }), dateRange)
    .map(([inclusions, exclusions, range]) => ({
      inclusions: withDates ? { ...inclusions, dateRange: clampRange(range) } : inclusions,
      ...(exclusions ? { exclusions } : {}),
    }));

/** At most 62 days, so daily results stay far below MAX_RESULT_ROWS. */
function clampRange(range: { start: string; end: string }) {
  const start = new Date(`${range.start}T00:00:00Z`);
  const maxEnd = new Date(start.getTime() + 61 * 86_400_000).toISOString().slice(0, 10);
  return { start: range.start, end: range.end < maxEnd ? range.end : maxEnd };
}

/** What a key name must not hold (the API's rule, written again here): controls, bidi, zero-width, line separators. */
// eslint-disable-next-line no-control-regex -- control characters are among those a valid name lacks
const REFUSED_IN_NAMES = /[\u0000-\u001f\u007f-\u009f\u061c\u180e\u200b-\u200f\u2028-\u202e\u2060-\u2064\u2066-\u2069\ufeff]/g;

export const validBodies = {
  data: fc.record(
    {
      filters: filters(true),
      groupBy: fc.record(
        { dateGrouping: grouping, dimension: dimension, dimensions: fc.uniqueArray(dimension, { minLength: 1, maxLength: 3 }) },
        { requiredKeys: ['dateGrouping'] },
      ),
      currency,
    },
    { requiredKeys: ['groupBy', 'filters'] },
  ),
  compare: fc.record(
    {
      baselinePeriod: dateRange.map(clampRange),
      comparisonPeriod: dateRange.map(clampRange),
      metric,
      groupBy: fc.record({ dateGrouping: grouping, dimension }, { requiredKeys: [] }),
      filters: filters(false),
      currency,
    },
    { requiredKeys: ['baselinePeriod', 'comparisonPeriod', 'metric'] },
  ),
  /** POST /forecast: an end within the horizon of its points (daily: 92 days, monthly: 366), every option. */
  forecast: fc
    .oneof(
      fc.record({ dateGrouping: fc.constant('daily'), days: fc.integer({ min: 1, max: 92 }) }),
      fc.record({ dateGrouping: fc.constant('monthly'), days: fc.integer({ min: 1, max: 366 }) }),
    )
    .chain(({ dateGrouping, days }) =>
      fc.record(
        {
          forecastEnd: fc.constant(new Date(Date.now() + (days - 1) * 86_400_000).toISOString().slice(0, 10)),
          dateGrouping: fc.constant(dateGrouping),
          metric: fc.constantFrom('amortized_cost', 'billed_cost', 'cash_cost', 'on_demand_cost'),
          predictionIntervalLevel: fc.integer({ min: 50, max: 99 }),
          groupBy: fc.record({ dimension }, { requiredKeys: [] }),
          // Filters that keep the fuzz organisation's recent AWS rows (a forecast of nothing is a 400: no history),
          // in a currency their days have rates for; the near-valid and hostile bodies reach every other value.
          filters: fc.constantFrom({}, { inclusions: { clouds: ['AWS'] } }, { exclusions: { services: ['Amazon S3'] } }),
          currency: fc.constantFrom(null, 'USD'),
        },
        { requiredKeys: ['forecastEnd'] },
      ),
    ),
  // ── Anomaly feedback (hardening: feedback inside the key's scope, audited) ──
  /** POST /anomalies/{id}/feedback: one of the reasons. */
  anomalyFeedback: fc.record({ reason: fc.constantFrom(...FEEDBACK_REASONS) }),
  // ── end of anomaly feedback ──
  /** POST /anomalies: days up to yesterday (a later end is read as yesterday), every option. */
  anomalies: fc.record(
    {
      dateRange: fc.tuple(fc.integer({ min: 1, max: 366 }), fc.integer({ min: 0, max: 365 })).map(([back, length]) => ({
        start: new Date(Date.now() - back * 86_400_000).toISOString().slice(0, 10),
        end: new Date(Date.now() - Math.max(0, back - length) * 86_400_000).toISOString().slice(0, 10),
      })),
      dimension,
      minImpact: fc.double({ min: 0, max: 1e6, noNaN: true }),
      minImpactPercentage: fc.double({ min: 0, max: 1000, noNaN: true }),
      filters: fc.constantFrom({}, { inclusions: { clouds: ['AWS'] } }, { exclusions: { services: ['Amazon S3'] } }),
      currency: fc.constantFrom(null, 'USD'),
    },
    { requiredKeys: [] },
  ),
  filters: fc.record(
    {
      fields: fc.oneof(
        fc.constant(null),
        fc.subarray(['costLayers', 'clouds', 'services', 'accounts', 'resourceTags', 'costCategories', 'billingPeriods', 'regions']),
      ),
      filters: filters(true),
      search,
      currency,
    },
    { requiredKeys: ['filters'] },
  ),
  /** POST /v1/admin/sources: the organisation's folder of INGEST_FILE_ROOT (`folder`), every kind, integration ids of the allowed alphabet. */
  source: (folder: string) =>
    fc.record({
      integrationId: fc.stringMatching(/^[A-Za-z0-9._:-]{1,128}$/),
      kind: fc.constantFrom('aws-data-exports', 'azure-exports', 'oci-focus', 'focus-files'),
      url: fc.constant(`file://${folder}`),
    }),
  /** POST /v1/cost-insights/invoices: Filters with or without dates. */
  invoices: fc.record({ filters: fc.oneof(filters(true), filters(false)) }, { requiredKeys: [] }),
  tagValues: fc.record({ tagKey: mapKey, search, limit: pageLimit }, { requiredKeys: ['tagKey'] }),
  costCategoryValues: fc.record({ categoryKey: mapKey, search, limit: pageLimit }, { requiredKeys: ['categoryKey'] }),
  /** POST /v1/admin/api-keys: hostile names and data scopes (Filters without dates) in every slot. */
  apiKey: fc.record(
    {
      // A valid name has no control, bidi, zero-width or line-separator characters and is not blank; near-valid bodies bring them back.
      name: valueString.map((s) => s.replace(REFUSED_IN_NAMES, '').slice(0, 200).trim() || 'key'),
      scopes: fc.subarray(['cost:read', 'shared-filters:read', 'shared-filters:write'], { minLength: 1 }),
      dataScope: filters(false),
    },
    { requiredKeys: ['name', 'scopes'] },
  ),
  sharedFilter: (organizationId: string) =>
    fc.record({
      organizationId: fc.constant(organizationId),
      filterConfiguration: fc.record(
        {
          filters: filters(true),
          groupBy: fc.record({ dateGrouping: grouping, dimension }, { requiredKeys: [] }),
          metric,
          comparisonEnabled: fc.boolean(),
          metadata: fc.record({ name: valueString.map((s) => s.slice(0, 200)), description: valueString }, { requiredKeys: [] }),
        },
        { requiredKeys: [] },
      ),
    }),
};

/** A JSON value of the wrong kind for (almost) any slot: never a plain string, so a mutated body stays invalid. */
const wrongValue: fc.Arbitrary<unknown> = fc.oneof(
  fc.constantFrom(true, false, 0, -1, 1e308, 1.5, [null], [[]], [{}], [1], { $gt: '' }, { toString: 1 }),
  fc.integer(),
  fc.array(fc.oneof(fc.integer(), fc.constant(null), fc.constant([hostileMarkerLiteral()])), { minLength: 1, maxLength: 4 }),
  fc.dictionary(hostileString, fc.integer(), { minKeys: 1, maxKeys: 3 }),
);

function hostileMarkerLiteral(): string {
  return `' OR 1=1 -- ${HOSTILE_MARKER}`;
}

/** All paths to values inside a JSON value (arrays by index). */
function paths(value: unknown, prefix: (string | number)[] = []): (string | number)[][] {
  const out: (string | number)[][] = [prefix];
  if (Array.isArray(value)) value.forEach((v, i) => out.push(...paths(v, [...prefix, i])));
  else if (value && typeof value === 'object') for (const [k, v] of Object.entries(value)) out.push(...paths(v, [...prefix, k]));
  return out;
}

function setAt(root: unknown, path: (string | number)[], replacement: unknown): unknown {
  if (path.length === 0) return replacement;
  const copy = JSON.parse(JSON.stringify(root));
  let node = copy;
  for (const step of path.slice(0, -1)) node = node[step];
  node[path[path.length - 1]] = replacement;
  return copy;
}

/**
 * A valid body with one mutation: a value of the wrong type anywhere, or an unknown (hostile) field in any
 * object. (Removing a field mostly leaves a valid body, so missing fields are left to the validation tests.)
 */
export function nearValid(valid: fc.Arbitrary<unknown>): fc.Arbitrary<unknown> {
  return fc
    .tuple(valid, fc.nat(), wrongValue, fc.constantFrom('replace', 'unknown'), hostileString)
    .map(([body, pick, wrong, how, key]) => {
      const all = paths(body);
      const path = all[pick % all.length];
      if (how === 'replace') return setAt(body, path, wrong);
      const objects = all.filter((p) => {
        let node: unknown = body;
        for (const step of p) node = (node as Record<string | number, unknown>)[step];
        return node !== null && typeof node === 'object' && !Array.isArray(node);
      });
      return setAt(body, [...objects[pick % objects.length], key], wrong);
    });
}

/** Deeply nested arrays/objects (around the 32-level limit and past it). */
const deep = fc.tuple(fc.integer({ min: 20, max: 200 }), fc.boolean()).map(([depth, arrays]) => {
  let value: unknown = 'leaf';
  for (let i = 0; i < depth; i++) value = arrays ? [value] : { a: value };
  return value;
});

/** Huge arrays: over the 1000-value limit, with hostile values. */
const huge = fc.tuple(fc.integer({ min: 1001, max: 5000 }), hostileString).map(([n, s]) => Array.from({ length: n }, (_, i) => `${s}${i}`));

export type RawBody = { text: string; contentType: string };

/**
 * Dates at and beyond every edge: the supported range's (2000-01-01 to 2099-12-31), ClickHouse Date's
 * (1970, 2149), and four-digit years' (0000, 9999), where day arithmetic once formatted years as
 * `+010000-…` and a bucket loop never ended.
 */
const extremeDate = fc.oneof(
  fc.constantFrom(
    '0000-01-01',
    '0000-01-02',
    '0000-02-29',
    '9999-12-31',
    '9999-12-27',
    '1999-12-31',
    '2000-01-01',
    '2099-12-31',
    '2100-01-01',
    '1970-01-01',
    '1969-12-31',
    '2149-06-07',
    '2262-04-12',
  ),
  fc
    .tuple(fc.integer({ min: 0, max: 9999 }), fc.integer({ min: 1, max: 12 }), fc.integer({ min: 1, max: 28 }))
    .map(([year, month, day]) => `${String(year).padStart(4, '0')}-${String(month).padStart(2, '0')}-${String(day).padStart(2, '0')}`),
);
const extremeBillingPeriod = extremeDate.map((date) => date.slice(0, 7));

/** A valid body with every date (ranges, periods, billing periods) moved to the edges; any grouping. */
function withExtremeDates(valid: fc.Arbitrary<unknown>): fc.Arbitrary<unknown> {
  return fc
    .tuple(valid, fc.array(extremeDate, { minLength: 8, maxLength: 8 }), extremeBillingPeriod, grouping)
    .map(([body, dates, period, dateGrouping]) => {
      let next = 0;
      const replace = (value: unknown): unknown => {
        if (Array.isArray(value)) return value.map(replace);
        if (value === null || typeof value !== 'object') return value;
        const out: Record<string, unknown> = {};
        for (const [key, inner] of Object.entries(value)) {
          if (key === 'start' || key === 'end') out[key] = dates[next++ % dates.length];
          else if (key === 'billingPeriods') out[key] = [period];
          else if (key === 'dateGrouping') out[key] = dateGrouping;
          else out[key] = replace(inner);
        }
        return out;
      };
      const replaced = replace(body) as Record<string, unknown>;
      // The compare periods in order (start ≤ end), so they pass that rule and reach the date bounds and loops.
      const [start, end] = [dates[0], dates[1]].sort();
      for (const key of ['baselinePeriod', 'comparisonPeriod']) if (replaced[key]) replaced[key] = { start, end };
      return replaced;
    });
}

/** An object of 50 to 20,000 fields (unknown ones), at the top level or inside the filters. */
function withWideObject(valid: fc.Arbitrary<unknown>): fc.Arbitrary<unknown> {
  return fc.tuple(valid, fc.integer({ min: 50, max: 20_000 }), fc.boolean()).map(([body, width, nested]) => {
    const wide = Object.fromEntries(Array.from({ length: width }, (_, i) => [`${HOSTILE_MARKER}_${i}`, i]));
    const copy = JSON.parse(JSON.stringify(body)) as Record<string, unknown>;
    return nested ? injectIntoFilters(copy, wide) : { ...wide, ...copy };
  });
}

/** Raw bodies: valid JSON text with prototype keys, extreme dates, wide, deep or huge structures, or not JSON at all. */
export function hostileRaw(valid: fc.Arbitrary<unknown>): fc.Arbitrary<RawBody> {
  const json = 'application/json';
  const protoKey = fc.constantFrom('__proto__', 'constructor', 'prototype');
  return fc.oneof(
    // Prototype keys spliced into the JSON text at the top level and inside filters.
    {
      weight: 1,
      arbitrary: fc.tuple(valid, protoKey, wrongValue).map(([body, key, value]) => ({
        text: JSON.stringify(body)
          .replace(/^\{/, `{${JSON.stringify(key)}:${JSON.stringify(value ?? null)},`)
          .replace(/"inclusions":\{/, `"inclusions":{"${key}":{"polluted":true},`),
        contentType: json,
      })),
    },
    {
      weight: 1,
      arbitrary: fc.tuple(valid, protoKey).map(([body, key]) => ({
        text: `{"${key}":{"isAdmin":true,"organizationId":"00000000-0000-0000-0000-000000000000"},${JSON.stringify(body).slice(1)}`,
        contentType: json,
      })),
    },
    // Deep nesting and huge arrays in a real slot.
    {
      weight: 3,
      arbitrary: fc
        .tuple(valid, fc.oneof(deep, huge))
        .map(([body, value]) => ({ text: JSON.stringify(injectIntoFilters(body, value)), contentType: json })),
    },
    // Every date at an edge (a 400 in milliseconds, never a hang), and objects too wide to walk twice.
    { weight: 2, arbitrary: withExtremeDates(valid).map((body) => ({ text: JSON.stringify(body), contentType: json })) },
    { weight: 1, arbitrary: withWideObject(valid).map((body) => ({ text: JSON.stringify(body), contentType: json })) },
    // Not JSON, broken JSON, or JSON that is not an object.
    {
      weight: 3,
      arbitrary: fc
        .oneof(
          fc.string({ unit: 'binary', maxLength: 200 }),
          hostileString,
          fc.constantFrom(
            '{',
            '{"a":',
            '[1,2',
            'null',
            '"str"',
            '123',
            'true',
            '[]',
            '{"a":1}{',
            '\u0000',
            '{"a":"\\ud800"}',
            'NaN',
            '{a:1}',
          ),
        )
        .map((text) => ({ text, contentType: json })),
    },
    // Valid JSON under a wrong content type.
    {
      weight: 2,
      arbitrary: fc
        .tuple(
          valid,
          fc.constantFrom(
            'text/plain',
            'application/x-www-form-urlencoded',
            'multipart/form-data; boundary=x',
            'application/xml',
            'application/jsonx',
            'json',
            '',
          ),
        )
        .map(([body, contentType]) => ({
          text: JSON.stringify(body),
          contentType,
        })),
    },
  );
}

function injectIntoFilters(body: unknown, value: unknown): unknown {
  const copy = JSON.parse(JSON.stringify(body)) as Record<string, unknown>;
  const filters = (copy.filters ?? (copy.filterConfiguration as Record<string, unknown> | undefined)?.filters) as
    Record<string, Record<string, unknown>> | undefined;
  if (filters?.inclusions) filters.inclusions.services = value;
  else copy.fields = value;
  return copy;
}

/**
 * A key as clients sometimes mangle it: in the query string, percent-encoded in part or whole (`cik%5F…`,
 * `%63%69%6B_…`), or in an Authorization header with an encoded space. Never a valid key (its secret is
 * random), so without another credential the answer is the spec's 401.
 */
export const encodedKeyPlacement: fc.Arbitrary<{ query: string; authorization?: string }> = fc
  .tuple(
    fc.stringMatching(/^[A-Za-z0-9]{12}$/),
    fc.stringMatching(/^[A-Za-z0-9]{49}$/),
    fc.constantFrom('underscores', 'all', 'prefix', 'none'),
    fc.constantFrom('query', 'header', 'both'),
  )
  .map(([id, secret, encoding, where]) => {
    const key = `cik_${id}_${secret}`;
    const percent = (text: string) => [...text].map((ch) => `%${ch.charCodeAt(0).toString(16).padStart(2, '0')}`).join('');
    const encoded =
      encoding === 'underscores'
        ? key.replace(/_/g, '%5F')
        : encoding === 'all'
          ? percent(key)
          : encoding === 'prefix'
            ? `${percent('cik_')}${key.slice(4)}`
            : key;
    return {
      query: where === 'header' ? '' : `?api_key=${encoded}`,
      authorization: where === 'query' ? undefined : `Bearer%20${encoded}`,
    };
  });

const rateDay = fc.integer({ min: 0, max: 70 }).map((n) => new Date(Date.UTC(2026, 7, 25) + n * 86_400_000).toISOString().slice(0, 10));
const rateLine = fc
  .tuple(rateDay, fc.constantFrom(['EUR', 'USD'], ['GBP', 'USD'], ['EUR', 'JPY']), fc.integer({ min: 1, max: 99_999_999 }))
  .map(([day, [from, to], micro]) => `${day},${from},${to},${(micro / 1_000_000).toString()}`);
/** A line the parser must refuse (with the file) as a 400 listing its problems: hostile cells anywhere, impossible numbers. */
const badRateLine = fc.oneof(
  fc
    .tuple(rateDay, hostileString, fc.constantFrom('1.1', '-1', '0', '1e308', 'NaN', '1'.repeat(40)))
    .map(([d, h, r]) => `${d},${h},USD,${r}`),
  fc.tuple(hostileString, rateLine).map(([h, line]) => `${line},${h},${h}`),
  hostileString,
);

/**
 * POST /v1/admin/exchange-rates bodies (text/csv): a pairs file of plausible rates (valid) or one with hostile lines;
 * an ECB header with hostile currencies; or hostile text with no header at all.
 */
export const ratesFile: fc.Arbitrary<{ text: string; valid: boolean }> = fc.oneof(
  fc
    .uniqueArray(rateLine, { minLength: 1, maxLength: 40, selector: (line) => line.split(',').slice(0, 3).join(',') })
    .map((lines) => ({ text: ['date,from,to,rate,source', ...lines.map((line) => `${line},fuzz`)].join('\n'), valid: true })),
  fc
    .tuple(fc.array(rateLine, { maxLength: 10 }), fc.array(badRateLine, { minLength: 1, maxLength: 5 }))
    .map(([good, bad]) => ({ text: ['date,from,to,rate,source', ...good, ...bad].join('\r\n'), valid: false })),
  fc.tuple(fc.array(hostileString, { minLength: 1, maxLength: 4 }), rateDay).map(([currencies, day]) => ({
    text: `Date,${currencies.join(',')},\n${day},${currencies.map(() => '1.5').join(',')},`,
    valid: false,
  })),
  hostileString.map((text) => ({ text, valid: false })),
);

// ---------------------------------------------------------------------------------------------------------------------
// Rates outside 1e-12 to 1e12 and rate sources outside their rule (hardening round, finding 8). Every file here has
// exactly one bad line (or pair of lines), dated 1999 with currencies the plausible lines never use, so the refusal
// must name it; the rules are written out here, not taken from the service.
// ---------------------------------------------------------------------------------------------------------------------

const RULE_DAY = fc.integer({ min: 4, max: 28 }).map((n) => `1999-01-${String(n).padStart(2, '0')}`);

/** Decimal text the parser otherwise takes (≤ 18 places, ≤ 20 integer digits) of a rate above 1e12 or below 1e-12. */
const outOfRangeRate = fc.oneof(
  fc.tuple(fc.integer({ min: 1, max: 9 }), fc.stringMatching(/^[0-9]{13,19}$/)).map(([first, rest]) => `${first}${rest}`),
  fc.integer({ min: 1, max: 999_999 }).map((n) => `1000000000000.${String(n).padStart(18, '0')}`),
  fc.integer({ min: 1, max: 999_999 }).map((n) => `0.000000000000${String(n).padStart(6, '0')}`),
);

/** A source no reader may be shown: too long, starting as a spreadsheet formula, or with a character outside the set. */
const badSource = fc.oneof(
  fc.stringMatching(/^[A-Za-z0-9]{65,120}$/),
  fc.tuple(fc.constantFrom('=', '+', '-', '@'), fc.oneof(fc.stringMatching(/^[A-Za-z0-9()]{1,30}$/), hostileString)).map(([a, b]) => a + b),
  fc.constant('=HYPERLINK(http://evil.example/x)'),
  fc.tuple(fc.stringMatching(/^[A-Za-z]{1,10}$/), fc.constantFrom('"', '|', ';', '=', '<', '\t', '!')).map(([a, b]) => `${a}${b}x`),
);

/** A pairs file a rates import must refuse whole, and the line numbers its refusal must name (`line N` or `lines N and M`). */
export const outOfRuleRatesFile: fc.Arbitrary<{ text: string; named: string }> = fc
  .tuple(
    fc.uniqueArray(rateLine, { maxLength: 10, selector: (line) => line.split(',').slice(0, 3).join(',') }),
    fc.nat(),
    fc.oneof(
      fc.tuple(RULE_DAY, outOfRangeRate).map(([day, rate]) => ({ lines: [`${day},NOK,SEK,${rate},fuzz`] })),
      fc.tuple(RULE_DAY, badSource).map(([day, source]) => ({ lines: [`${day},NOK,SEK,1.25,${source}`] })),
      // Each within range; their cross rate (SEK→DKK, m × 1e7 ÷ m × 1e-6) is 1e13.
      fc
        .tuple(RULE_DAY, fc.integer({ min: 1, max: 9 }))
        .map(([day, m]) => ({ lines: [`${day},NOK,SEK,0.00000${m},fuzz`, `${day},NOK,DKK,${m}0000000,fuzz`] })),
    ),
  )
  .map(([good, at, bad]) => {
    const lines = good.map((line) => `${line},fuzz`);
    const index = at % (lines.length + 1);
    lines.splice(index, 0, ...bad.lines);
    // Line 1 is the header.
    const named = bad.lines.length === 1 ? `line ${index + 2}:` : `lines ${index + 2} and ${index + 3}:`;
    return { text: ['date,from,to,rate,source', ...lines].join('\n'), named };
  });

/** A file without a source column, named by a `?source=` no reader may be shown. */
export const outOfRuleSourceParameter: fc.Arbitrary<{ text: string; source: string }> = fc
  .tuple(fc.uniqueArray(rateLine, { minLength: 1, maxLength: 5, selector: (line) => line.split(',').slice(0, 3).join(',') }), badSource)
  .map(([lines, source]) => ({ text: ['date,from,to,rate', ...lines].join('\n'), source }));
