import { OPTIONS_FIELDS } from './dimension-registry';
import {
  buildFilterOptionsQuery,
  buildMapKeyValuesQuery,
  compareCodePoints,
  FilterOptionRow,
  FilterOptionsQueryInput,
  MAX_MAP_KEY_VALUES,
  MAX_OPTIONS_PER_FIELD,
  MAX_TAG_VALUE_KEYS,
  MAX_VALUES_PER_TAG_KEY,
  OPTION_SOURCES,
  readFilterOptions,
  readMapKeyValues,
} from './filter-options.query';

const ORG = '6f1c1f5e-8a4b-4c1e-9a53-2d7f0c8b1a11';
const TABLE = 'db.cost_line_items';
const base: FilterOptionsQueryInput = {
  scope: { organizationId: ORG },
  filters: {},
  fields: ['services'],
  table: TABLE,
  today: '2026-11-21',
  defaultWindowDays: 30,
};

describe('OPTION_SOURCES', () => {
  it('covers every /filters field and maps each to the filter it leaves out', () => {
    expect(Object.keys(OPTION_SOURCES).sort()).toEqual([...OPTIONS_FIELDS].sort());
    expect(OPTION_SOURCES.services).toEqual({ kind: 'column', column: 'service', target: 'services' });
    expect(OPTION_SOURCES.accounts).toEqual({ kind: 'column', column: 'account_id', target: 'accountIds' });
    expect(OPTION_SOURCES.integrations).toEqual({ kind: 'column', column: 'integration_id', target: 'integrationIds' });
    expect(OPTION_SOURCES.resourceTags).toEqual({ kind: 'mapKeys', column: 'resource_tags', target: 'tag' });
    expect(OPTION_SOURCES.costCategories).toEqual({ kind: 'mapKeys', column: 'cost_categories', target: 'costCategory' });
  });
});

describe('buildFilterOptionsQuery', () => {
  it('lists one column field with its cost, under the organisation and the default window', () => {
    expect(buildFilterOptionsQuery(base)).toEqual({
      sql: [
        "(SELECT 'services' AS field, toString(service) AS value, '' AS name, sum(amortized_cost) AS sum_amortized_cost",
        `FROM ${TABLE}`,
        'WHERE organization_id = {organization_id:UUID}\n  AND usage_date BETWEEN {p0:Date} AND {p1:Date}',
        'GROUP BY value',
        'ORDER BY sum_amortized_cost DESC, value',
        `LIMIT ${MAX_OPTIONS_PER_FIELD})`,
      ].join('\n'),
      params: { organization_id: ORG, p0: '2026-10-23', p1: '2026-11-21' },
    });
  });

  it('builds one UNION ALL with a WHERE per field that leaves out only that field’s own filter', () => {
    const { sql, params } = buildFilterOptionsQuery({
      ...base,
      fields: ['services', 'regions'],
      filters: {
        inclusions: { services: ['S3'], regions: ['us-east-1'], dateRange: { start: '2026-10-01', end: '2026-10-30' } },
        exclusions: { services: ['EC2'] },
      },
    });
    const [services, regions] = sql.split('\nUNION ALL\n');
    expect(sql.split('\nUNION ALL\n')).toHaveLength(2);
    // The services branch: region filter applied, no service filter (neither inclusion nor exclusion).
    expect(services).toContain("SELECT 'services' AS field");
    expect(services).toContain('region IN {p2:Array(String)}');
    expect(services).not.toMatch(/service IN/);
    // The regions branch: the service inclusion and exclusion apply, no region filter.
    expect(regions).toContain("SELECT 'regions' AS field, toString(region) AS value");
    expect(regions).toContain('service IN {p5:Array(String)}');
    expect(regions).toContain('NOT (service IN {p6:Array(String)})');
    expect(regions).not.toMatch(/region IN/);
    expect(params).toMatchObject({
      p0: '2026-10-01', p1: '2026-10-30', p2: ['us-east-1'],
      p3: '2026-10-01', p4: '2026-10-30', p5: ['S3'], p6: ['EC2'],
    });
  });

  it('names accounts with their latest non-empty account name', () => {
    const { sql } = buildFilterOptionsQuery({ ...base, fields: ['accounts'] });
    expect(sql).toContain(
      "SELECT 'accounts' AS field, toString(account_id) AS value, argMaxIf(account_name, usage_date, account_name != '') AS name",
    );
  });

  it('lists tag and category keys, leaving out the tag (resp. category) filter for them only', () => {
    const { sql, params } = buildFilterOptionsQuery({
      ...base,
      fields: ['resourceTags', 'costCategories'],
      filters: { inclusions: { resourceTag: 'env', resourceTagValues: ['prod'], costCategory: 'Team' } },
    });
    const branches = sql.split('\nUNION ALL\n');
    const [tags, categories, tagValues] = branches;
    expect(branches).toHaveLength(3);
    expect(tags).toContain("arrayJoin(arrayFilter(map_key -> map_key != '', mapKeys(resource_tags))) AS value");
    expect(tags).not.toContain('resource_tags[');
    expect(tags).toContain('mapContains(cost_categories, {p2:String})');
    expect(categories).toContain('mapKeys(cost_categories)');
    expect(categories).toContain('resource_tags[{p5:String}] IN {p6:Array(String)}');
    expect(categories).not.toContain('mapContains(cost_categories');
    expect(params).toMatchObject({ p2: 'Team', p5: 'env', p6: ['prod'] });
    // tagValues: same filters as resourceTags, values of the top keys only, bounded per key.
    expect(tagValues).toContain("SELECT 'tagValues' AS field, tag_value AS value, tag_key AS name");
    expect(tagValues).toContain('ARRAY JOIN mapKeys(resource_tags) AS tag_key, mapValues(resource_tags) AS tag_value');
    expect(tagValues).toContain("AND tag_value != ''");
    expect(tagValues).toContain(`LIMIT ${MAX_TAG_VALUE_KEYS})`);
    expect(tagValues).toContain(`LIMIT ${MAX_VALUES_PER_TAG_KEY} BY tag_key`);
    expect(tagValues).toContain('mapContains(cost_categories, {p9:String})');
    expect(tagValues).not.toContain('resource_tags[');
  });

  it('adds tag values only when resourceTags is requested', () => {
    expect(buildFilterOptionsQuery({ ...base, fields: ['costCategories'] }).sql).not.toContain('tagValues');
  });

  it('lets billingPeriods options fall back to the default window when billingPeriods set the window', () => {
    const { sql, params } = buildFilterOptionsQuery({
      ...base,
      fields: ['billingPeriods', 'services'],
      filters: { inclusions: { billingPeriods: ['2026-01'] } },
    });
    const [periods, services] = sql.split('\nUNION ALL\n');
    expect(periods).toContain('usage_date BETWEEN {p0:Date} AND {p1:Date}');
    expect(periods).not.toContain('billing_period IN');
    expect(services).toContain('billing_period IN {p2:Array(String)}');
    expect(services).not.toContain('usage_date BETWEEN');
    expect(params).toMatchObject({ p0: '2026-10-23', p1: '2026-11-21', p2: ['2026-01'] });
  });

  it('never puts a request value into the SQL text', () => {
    const hostile = "x') OR 1=1 --\\";
    const { sql } = buildFilterOptionsQuery({
      ...base,
      fields: [...OPTIONS_FIELDS],
      filters: {
        inclusions: { services: [hostile], resourceTag: hostile, resourceTagValues: [hostile] },
        exclusions: { costCategory: hostile, accountIds: [hostile] },
      },
    });
    expect(sql).not.toContain(hostile);
    expect(sql).not.toContain('OR 1=1');
  });

  it('refuses an empty field list and an organisation-less scope', () => {
    expect(() => buildFilterOptionsQuery({ ...base, fields: [] })).toThrow();
    expect(() => buildFilterOptionsQuery({ ...base, scope: { organizationId: '' } })).toThrow(/organisation/);
  });
});

describe('readFilterOptions', () => {
  const row = (field: string, value: string, cost: number | string, name = ''): FilterOptionRow => ({
    field,
    value,
    name,
    sum_amortized_cost: cost,
  });

  it('returns every field, sorted ascending, with enriched lists ranked by cost then value', () => {
    const options = readFilterOptions(
      [row('services', 'S3', 1), row('services', 'EC2', 5), row('services', 'Athena', 1), row('regions', '', '2.5')],
      ['services', 'regions'],
    );
    expect(options.services).toEqual(['Athena', 'EC2', 'S3']);
    expect(options.regions).toEqual(['(not set)']);
    expect(options.clouds).toEqual([]);
    expect(options.costCategories).toEqual([]);
    expect(options.enriched).toEqual({
      services: [
        { value: 'EC2', amortized_cost: 5 },
        { value: 'Athena', amortized_cost: 1 },
        { value: 'S3', amortized_cost: 1 },
      ],
      regions: [{ value: '(not set)', amortized_cost: 2.5 }],
    });
    expect(options.accountIdToName).toEqual({});
    expect(options.tagValues).toEqual({});
  });

  it('gives requested fields without rows an empty list, and merges a stored "(not set)" with empty values', () => {
    const options = readFilterOptions([row('clouds', '', 1), row('clouds', '(not set)', 2)], ['clouds', 'services']);
    expect(options.clouds).toEqual(['(not set)']);
    expect(options.enriched).toEqual({ clouds: [{ value: '(not set)', amortized_cost: 3 }], services: [] });
  });

  it('maps account IDs to names and includes the name in enriched', () => {
    const options = readFilterOptions([row('accounts', '222', 1, 'Dev'), row('accounts', '111', 3, 'Prod')], ['accounts']);
    expect(options.accounts).toEqual(['111', '222']);
    expect(options.accountIdToName).toEqual({ '111': 'Prod', '222': 'Dev' });
    expect(options.enriched.accounts).toEqual([
      { value: '111', name: 'Prod', amortized_cost: 3 },
      { value: '222', name: 'Dev', amortized_cost: 1 },
    ]);
  });

  it('groups tag values by key, sorted ascending, for listed keys only', () => {
    const options = readFilterOptions(
      [
        row('resourceTags', 'env', 3),
        row('tagValues', 'prod', 2, 'env'),
        row('tagValues', 'dev', 1, 'env'),
        row('tagValues', 'x', 1, 'unlisted'),
      ],
      ['resourceTags'],
    );
    expect(options.resourceTags).toEqual(['env']);
    expect(options.tagValues).toEqual({ env: ['dev', 'prod'] });
  });
});

describe('buildMapKeyValuesQuery', () => {
  it('selects the non-empty values of one tag key over all time, ranked by cost and bounded', () => {
    expect(buildMapKeyValuesQuery({ scope: { organizationId: ORG }, kind: 'tag', key: "it's", table: TABLE })).toEqual({
      sql: [
        'SELECT resource_tags[{p0:String}] AS map_value',
        `FROM ${TABLE}`,
        'WHERE organization_id = {organization_id:UUID}',
        "  AND map_value != ''",
        'GROUP BY map_value',
        'ORDER BY sum(amortized_cost) DESC, map_value',
        `LIMIT ${MAX_MAP_KEY_VALUES}`,
      ].join('\n'),
      params: { organization_id: ORG, p0: "it's" },
    });
  });

  it('reads cost categories from their own column', () => {
    const { sql, params } = buildMapKeyValuesQuery({ scope: { organizationId: ORG }, kind: 'costCategory', key: 'Business Unit', table: TABLE });
    expect(sql).toContain('SELECT cost_categories[{p0:String}] AS map_value');
    expect(params.p0).toBe('Business Unit');
  });

  it('refuses an organisation-less scope', () => {
    expect(() => buildMapKeyValuesQuery({ scope: { organizationId: '' }, kind: 'tag', key: 'env', table: TABLE })).toThrow();
  });

  it('sorts the values ascending', () => {
    expect(readMapKeyValues([{ map_value: 'b' }, { map_value: 'B' }, { map_value: 'a' }])).toEqual(['B', 'a', 'b']);
  });
});

describe('compareCodePoints', () => {
  it('orders by code point, independent of locale, like ClickHouse', () => {
    const values = ['é', 'z', 'Z', '(not set)', '10', '9', '😀', '\uffff'];
    expect([...values].sort(compareCodePoints)).toEqual(['(not set)', '10', '9', 'Z', 'z', 'é', '\uffff', '😀']);
  });

  it('agrees with the UTF-8 byte order on prefixes, equal strings and every plane', () => {
    const alphabet = ['', 'a', 'ab', 'b', '\u00e9', '\u07ff', '\u0800', '\ud7ff', '\ue000', '\uf900', '\uffff', '\u{10000}', '\u{1f600}', '\u{10ffff}'];
    const values = alphabet.flatMap((x) => alphabet.map((y) => x + y));
    const byBytes = (a: string, b: string) => Buffer.compare(Buffer.from(a, 'utf8'), Buffer.from(b, 'utf8'));
    const disagreements = values.flatMap((a) =>
      values.filter((b) => Math.sign(compareCodePoints(a, b)) !== byBytes(a, b)).map((b) => [a, b]),
    );
    expect(values).toHaveLength(196);
    expect(disagreements).toEqual([]);
  });
});
