import { Filters } from './filters.types';
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
    expect(OPTION_SOURCES.resourceTags).toEqual({ kind: 'mapKeys', target: 'tag' });
    expect(OPTION_SOURCES.costCategories).toEqual({ kind: 'mapKeys', target: 'costCategory' });
  });
});

describe('buildFilterOptionsQuery', () => {
  it('reads the activated maps where a branch lists a column, the full maps (filters included) where it lists map keys', () => {
    const { sql } = buildFilterOptionsQuery({
      ...base,
      scope: { organizationId: ORG, readsActivatedMaps: true },
      filters: { inclusions: { resourceTag: 'team', resourceTagValues: ['payments'] } },
      fields: ['services', 'costCategories'],
    });
    const [services, categories] = sql.split('\nUNION ALL\n');
    expect(services).toContain('activated_resource_tags[');
    expect(services).toMatch(/preferred_optimize_projection_name = 'daily_activated_tag_sums'\)$/);
    // A branch reading both kinds of map: no projection could answer it.
    expect(categories).toContain('resource_tags[');
    expect(categories).not.toContain('activated_');
    expect(categories).toMatch(/preferred_optimize_projection_name = 'daily_tag_sums'\)$/);
  });

  it('lists one column field with its cost, under the organisation and the default window', () => {
    expect(buildFilterOptionsQuery(base)).toEqual({
      sql: [
        "(SELECT 'services' AS field, toString(service) AS value, '' AS name, sum(amortized_cost) AS sum_amortized_cost",
        `FROM ${TABLE}`,
        'WHERE organization_id = {organization_id:UUID}\n  AND usage_date BETWEEN {p0:Date} AND {p1:Date}',
        'GROUP BY value',
        'ORDER BY sum_amortized_cost DESC, value',
        // Two past the bound: one tells a cut list, one covers '' and a stored '(not set)' being one option.
        `LIMIT ${MAX_OPTIONS_PER_FIELD + 2}`,
        "SETTINGS preferred_optimize_projection_name = 'daily_dimension_sums')",
      ].join('\n'),
      params: { organization_id: ORG, p0: '2026-10-23', p1: '2026-11-21' },
    });
  });

  it('searches a column field on the rows, matching an empty value as (not set)', () => {
    expect(buildFilterOptionsQuery({ ...base, search: 'Ec2%_' })).toEqual({
      sql: [
        "(SELECT 'services' AS field, toString(service) AS value, '' AS name, sum(amortized_cost) AS sum_amortized_cost",
        `FROM ${TABLE}`,
        'WHERE organization_id = {organization_id:UUID}\n  AND usage_date BETWEEN {p0:Date} AND {p1:Date}',
        "  AND positionCaseInsensitiveUTF8(if(value = '', {not_set:String}, value), {search:String}) > 0",
        'GROUP BY value',
        'ORDER BY sum_amortized_cost DESC, value',
        `LIMIT ${MAX_OPTIONS_PER_FIELD + 2}`,
        "SETTINGS preferred_optimize_projection_name = 'daily_dimension_sums')",
      ].join('\n'),
      params: { organization_id: ORG, p0: '2026-10-23', p1: '2026-11-21', search: 'Ec2%_', not_set: '(not set)' },
    });
  });

  it('searches accounts by ID or latest name, once grouped per account (after a sum per account, day and name)', () => {
    expect(buildFilterOptionsQuery({ ...base, fields: ['accounts'], search: 'prod' })).toEqual({
      sql: [
        "(SELECT 'accounts' AS field, toString(account_part) AS value, argMaxIf(name_part, day_part, name_part != '') AS name,",
        '  sum(day_cost) AS sum_amortized_cost',
        'FROM (SELECT account_id AS account_part, usage_date AS day_part, account_name AS name_part, sum(amortized_cost) AS day_cost',
        `  FROM ${TABLE} WHERE organization_id = {organization_id:UUID}\n  AND usage_date BETWEEN {p0:Date} AND {p1:Date} GROUP BY account_part, day_part, name_part)`,
        'GROUP BY value',
        "HAVING positionCaseInsensitiveUTF8(if(value = '', {not_set:String}, value), {search:String}) > 0 OR positionCaseInsensitiveUTF8(name, {search:String}) > 0",
        'ORDER BY sum_amortized_cost DESC, value',
        `LIMIT ${MAX_OPTIONS_PER_FIELD + 2}`,
        "SETTINGS preferred_optimize_projection_name = 'daily_dimension_sums')",
      ].join('\n'),
      params: { organization_id: ORG, p0: '2026-10-23', p1: '2026-11-21', search: 'prod', not_set: '(not set)' },
    });
  });

  it('searches tag keys in resourceTags and in the keys tagValues covers, which it bounds one past the value bound', () => {
    const { sql, params } = buildFilterOptionsQuery({ ...base, fields: ['resourceTags'], search: 'ENV' });
    const keys = "arrayFilter(map_key -> map_key != '' AND positionCaseInsensitiveUTF8(map_key, {search:String}) > 0, mapKeys(map_part))";
    // The rows summed per distinct tag map (what the tag projections answer), then split into keys.
    const perMap = (from: number) =>
      `SELECT resource_tags AS map_part, sum(amortized_cost) AS map_cost FROM ${TABLE} WHERE organization_id = {organization_id:UUID}\n` +
      `  AND usage_date BETWEEN {p${from}:Date} AND {p${from + 1}:Date} GROUP BY resource_tags`;
    expect(sql).toBe(
      [
        "(SELECT 'resourceTags' AS field, map_key AS value, '' AS name, sum(map_cost) AS sum_amortized_cost",
        `FROM (${perMap(0)})`,
        `ARRAY JOIN ${keys} AS map_key`,
        'GROUP BY value',
        'ORDER BY sum_amortized_cost DESC, value',
        `LIMIT ${MAX_OPTIONS_PER_FIELD + 2}`,
        "SETTINGS preferred_optimize_projection_name = 'daily_tag_sums')",
        'UNION ALL',
        "(SELECT 'tagValues' AS field, tag_value AS value, tag_key AS name, sum(map_cost) AS sum_amortized_cost",
        `FROM (${perMap(2)})`,
        'ARRAY JOIN mapKeys(map_part) AS tag_key, mapValues(map_part) AS tag_value',
        "WHERE tag_value != ''",
        '  AND tag_key IN (SELECT top_key',
        `FROM (${perMap(2)})`,
        `ARRAY JOIN ${keys} AS top_key`,
        'GROUP BY top_key',
        'ORDER BY sum(map_cost) DESC, top_key',
        `LIMIT ${MAX_TAG_VALUE_KEYS})`,
        'GROUP BY tag_key, tag_value',
        'ORDER BY tag_key, sum_amortized_cost DESC, tag_value',
        `LIMIT ${MAX_VALUES_PER_TAG_KEY + 1} BY tag_key`,
        "SETTINGS preferred_optimize_projection_name = 'daily_tag_sums')",
      ].join('\n'),
    );
    expect(params).toEqual({
      organization_id: ORG,
      p0: '2026-10-23',
      p1: '2026-11-21',
      p2: '2026-10-23',
      p3: '2026-11-21',
      search: 'ENV',
    });
  });

  it('leaves the SQL as it was without a search, or with an empty one', () => {
    const fields = [...OPTIONS_FIELDS];
    const without = buildFilterOptionsQuery({ ...base, fields });
    expect(buildFilterOptionsQuery({ ...base, fields, search: '' })).toEqual(without);
    expect(without.sql).not.toContain('positionCaseInsensitiveUTF8');
    expect(without.params).not.toHaveProperty('search');
  });

  const crossFiltered: Filters = {
    inclusions: { services: ['S3'], regions: ['us-east-1'], dateRange: { start: '2026-10-01', end: '2026-10-30' } },
    exclusions: { services: ['EC2'] },
  };

  it('builds one UNION ALL with a WHERE per field read apart that leaves out only that field’s own filter', () => {
    const { sql, params } = buildFilterOptionsQuery({ ...base, fields: ['services', 'accounts'], filters: crossFiltered });
    const [services, accounts] = sql.split('\nUNION ALL\n');
    expect(sql.split('\nUNION ALL\n')).toHaveLength(2);
    // The services branch: region filter applied, no service filter (neither inclusion nor exclusion).
    expect(services).toContain("SELECT 'services' AS field");
    expect(services).toContain('region IN {p2:Array(String)}');
    expect(services).not.toMatch(/service IN/);
    // The accounts branch: every filter applies.
    expect(accounts).toContain("SELECT 'accounts' AS field");
    expect(accounts).toContain('service IN {p5:Array(String)}');
    expect(accounts).toContain('NOT (service IN {p7:Array(String)})');
    expect(accounts).toContain('region IN {p6:Array(String)}');
    expect(params).toMatchObject({ p0: '2026-10-01', p1: '2026-10-30', p2: ['us-east-1'], p5: ['S3'], p6: ['us-east-1'], p7: ['EC2'] });
  });

  it('lists plain column fields from one read, each option counted where the other fields’ filters pass', () => {
    const { sql, params } = buildFilterOptionsQuery({ ...base, fields: ['services', 'regions', 'accounts'], filters: crossFiltered });
    const [, folded, ...more] = sql.split('\nUNION ALL\n');
    expect(more).toEqual([]);
    // The read leaves out both fields' filters; each field's options keep the other's.
    expect(folded).toContain('FROM (SELECT service, region, sum(amortized_cost) AS part\n');
    expect(folded).not.toMatch(/WHERE[^)]*(service|region) IN/);
    expect(folded).toContain(
      "ARRAY JOIN arrayFilter(option -> option.3, [('services', toString(service), (region IN {p9:Array(String)})), " +
        "('regions', toString(region), (service IN {p7:Array(String)} AND NOT (service IN {p8:Array(String)})))]) AS option",
    );
    expect(folded).toContain('LIMIT 10002 BY field');
    expect(params).toMatchObject({ p7: ['S3'], p8: ['EC2'], p9: ['us-east-1'] });
  });

  it('reads a field apart when no other plain column field is listed, and billingPeriods always (it decides the window)', () => {
    const single = buildFilterOptionsQuery({ ...base, fields: ['regions', 'resourceTags'] }).sql;
    expect(single).toContain("SELECT 'regions' AS field, toString(region) AS value");
    const periods = buildFilterOptionsQuery({ ...base, fields: ['billingPeriods', 'services'] }).sql;
    expect(periods).toContain("SELECT 'billingPeriods' AS field");
    expect(periods).toContain("SELECT 'services' AS field");
    expect(periods).not.toContain('ARRAY JOIN');
  });

  it('names accounts with their latest non-empty account name', () => {
    const { sql } = buildFilterOptionsQuery({ ...base, fields: ['accounts'] });
    expect(sql).toContain(
      "SELECT 'accounts' AS field, toString(account_part) AS value, argMaxIf(name_part, day_part, name_part != '') AS name,",
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
    expect(tags).toContain('SELECT resource_tags AS map_part, sum(amortized_cost) AS map_cost');
    expect(tags).toContain("ARRAY JOIN arrayFilter(map_key -> map_key != '', mapKeys(map_part)) AS map_key");
    expect(tags).not.toContain('resource_tags[');
    expect(tags).toContain('mapContains(cost_categories, {p2:String})');
    expect(categories).toContain('SELECT cost_categories AS map_part');
    expect(categories).toContain('resource_tags[{p5:String}] IN {p6:Array(String)}');
    expect(categories).not.toContain('mapContains(cost_categories');
    expect(params).toMatchObject({ p2: 'Team', p5: 'env', p6: ['prod'] });
    // tagValues: same filters as resourceTags, values of the top keys only, bounded per key.
    expect(tagValues).toContain("SELECT 'tagValues' AS field, tag_value AS value, tag_key AS name");
    expect(tagValues).toContain('ARRAY JOIN mapKeys(map_part) AS tag_key, mapValues(map_part) AS tag_value');
    expect(tagValues).toContain("WHERE tag_value != ''");
    expect(tagValues).toContain(`LIMIT ${MAX_TAG_VALUE_KEYS})`);
    expect(tagValues).toContain(`LIMIT ${MAX_VALUES_PER_TAG_KEY + 1} BY tag_key`);
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
      search: hostile,
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

describe('readFilterOptions at the bounds', () => {
  const row = (field: string, value: string, cost: number, name = ''): FilterOptionRow => ({
    field,
    value,
    name,
    sum_amortized_cost: cost,
  });
  /** `count` options of `field`, option i costing i + 1 (so option 0 is the cheapest). */
  const options = (field: string, count: number) =>
    Array.from({ length: count }, (_, i) => row(field, `v${String(i).padStart(5, '0')}`, i + 1));

  it('names nothing when every list fits: exactly at the bounds, truncated and truncatedTagValues are absent', () => {
    const keys = Array.from({ length: MAX_TAG_VALUE_KEYS }, (_, i) => row('resourceTags', `k${String(i).padStart(3, '0')}`, i + 1));
    const values = options('tagValues', MAX_VALUES_PER_TAG_KEY).map((r) => ({ ...r, name: 'k000' }));
    const result = readFilterOptions([...options('services', MAX_OPTIONS_PER_FIELD), ...keys, ...values], ['services', 'resourceTags']);
    expect(result.services).toHaveLength(MAX_OPTIONS_PER_FIELD);
    expect(result.tagValues.k000).toHaveLength(MAX_VALUES_PER_TAG_KEY);
    expect(result).not.toHaveProperty('truncated');
    expect(result).not.toHaveProperty('truncatedTagValues');
  });

  it('cuts a list one past its bound to the most expensive options, in the list and in enriched, and names it', () => {
    const result = readFilterOptions(
      [...options('accounts', MAX_OPTIONS_PER_FIELD + 1), ...options('regions', 3)],
      ['regions', 'accounts'],
    );
    expect(result.truncated).toEqual(['accounts']);
    expect(result.accounts).toHaveLength(MAX_OPTIONS_PER_FIELD);
    expect(result.accounts).not.toContain('v00000'); // the cheapest
    expect(result.accounts[0]).toBe('v00001');
    expect(result.enriched.accounts).toHaveLength(MAX_OPTIONS_PER_FIELD);
    expect(Object.keys(result.accountIdToName)).toHaveLength(MAX_OPTIONS_PER_FIELD);
    expect(result.regions).toHaveLength(3);
  });

  it('decides on options, not rows: an empty value and a stored (not set) are one', () => {
    const rows = [...options('clouds', MAX_OPTIONS_PER_FIELD - 1), row('clouds', '', 1), row('clouds', '(not set)', 1)];
    const fits = readFilterOptions(rows, ['clouds']);
    expect(fits.clouds).toHaveLength(MAX_OPTIONS_PER_FIELD);
    expect(fits).not.toHaveProperty('truncated');
    const cut = readFilterOptions([...rows, row('clouds', 'one more', 0.5)], ['clouds']);
    expect(cut.truncated).toEqual(['clouds']);
    expect(cut.clouds).not.toContain('one more');
  });

  it('names tagValues when there are more tag keys than it covers, and each key whose values were cut', () => {
    const keys = Array.from({ length: MAX_TAG_VALUE_KEYS + 1 }, (_, i) => row('resourceTags', `k${String(i).padStart(3, '0')}`, i + 1));
    const wide = options('tagValues', MAX_VALUES_PER_TAG_KEY + 1).map((r) => ({ ...r, name: 'k050' }));
    const narrow = options('tagValues', 2).map((r) => ({ ...r, name: 'k001' }));
    const result = readFilterOptions([...keys, ...wide, ...narrow], ['resourceTags']);
    expect(result.truncated).toEqual(['tagValues']);
    expect(result.truncatedTagValues).toEqual(['k050']);
    expect(result.tagValues.k050).toHaveLength(MAX_VALUES_PER_TAG_KEY);
    expect(result.tagValues.k050).not.toContain('v00000');
    expect(result.tagValues.k001).toEqual(['v00000', 'v00001']);
  });
});

describe('buildMapKeyValuesQuery', () => {
  it('lists only values inside the key’s data scope', () => {
    const dataScope = { inclusions: { accountIds: ['111111111111'] }, exclusions: { resourceTag: 'temporary' } };
    expect(buildMapKeyValuesQuery({ scope: { organizationId: ORG, dataScope }, kind: 'costCategory', key: 'Unit', table: TABLE })).toEqual({
      sql: [
        'SELECT cost_categories[{p0:String}] AS map_value',
        `FROM ${TABLE}`,
        'WHERE organization_id = {organization_id:UUID}',
        '  AND account_id IN {p1:Array(String)}',
        '  AND NOT (mapContains(resource_tags, {p2:String}))',
        "  AND map_value != ''",
        'GROUP BY map_value',
        'ORDER BY sum(amortized_cost) DESC, map_value',
        `LIMIT ${MAX_MAP_KEY_VALUES + 1}`,
        "SETTINGS preferred_optimize_projection_name = 'monthly_tag_sums'",
      ].join('\n'),
      params: { organization_id: ORG, p0: 'Unit', p1: ['111111111111'], p2: 'temporary' },
    });
  });

  it('selects the non-empty values of one tag key over all time, ranked by cost and bounded (one past, to tell a cut list)', () => {
    expect(buildMapKeyValuesQuery({ scope: { organizationId: ORG }, kind: 'tag', key: "it's", table: TABLE })).toEqual({
      sql: [
        'SELECT resource_tags[{p0:String}] AS map_value',
        `FROM ${TABLE}`,
        'WHERE organization_id = {organization_id:UUID}',
        "  AND map_value != ''",
        'GROUP BY map_value',
        'ORDER BY sum(amortized_cost) DESC, map_value',
        `LIMIT ${MAX_MAP_KEY_VALUES + 1}`,
        "SETTINGS preferred_optimize_projection_name = 'monthly_tag_sums'",
      ].join('\n'),
      params: { organization_id: ORG, p0: "it's" },
    });
  });

  it('searches the values case-insensitively, the text as a parameter', () => {
    expect(buildMapKeyValuesQuery({ scope: { organizationId: ORG }, kind: 'tag', key: 'env', table: TABLE, search: "%_'" })).toEqual({
      sql: [
        'SELECT resource_tags[{p0:String}] AS map_value',
        `FROM ${TABLE}`,
        'WHERE organization_id = {organization_id:UUID}',
        "  AND map_value != ''",
        '  AND positionCaseInsensitiveUTF8(map_value, {search:String}) > 0',
        'GROUP BY map_value',
        'ORDER BY sum(amortized_cost) DESC, map_value',
        `LIMIT ${MAX_MAP_KEY_VALUES + 1}`,
        "SETTINGS preferred_optimize_projection_name = 'monthly_tag_sums'",
      ].join('\n'),
      params: { organization_id: ORG, p0: 'env', search: "%_'" },
    });
  });

  it('pages in byte order after the last value seen, one row past the page', () => {
    const page = { limit: 25, after: 'prod' };
    expect(
      buildMapKeyValuesQuery({ scope: { organizationId: ORG }, kind: 'costCategory', key: 'Unit', table: TABLE, search: 'o', page }),
    ).toEqual({
      sql: [
        'SELECT cost_categories[{p0:String}] AS map_value',
        `FROM ${TABLE}`,
        'WHERE organization_id = {organization_id:UUID}',
        "  AND map_value != ''",
        '  AND positionCaseInsensitiveUTF8(map_value, {search:String}) > 0',
        '  AND map_value > {p1:String}',
        'GROUP BY map_value',
        'ORDER BY map_value',
        'LIMIT 26',
        "SETTINGS preferred_optimize_projection_name = 'monthly_tag_sums'",
      ].join('\n'),
      params: { organization_id: ORG, p0: 'Unit', search: 'o', p1: 'prod' },
    });
    const first = buildMapKeyValuesQuery({ scope: { organizationId: ORG }, kind: 'tag', key: 'env', table: TABLE, page: { limit: 1 } });
    expect(first.sql).not.toContain('map_value >');
    expect(first.sql).toContain('ORDER BY map_value\nLIMIT 2');
  });

  it('pages from an empty last value too (it is a value like any other)', () => {
    const { sql, params } = buildMapKeyValuesQuery({
      scope: { organizationId: ORG },
      kind: 'tag',
      key: 'k',
      table: TABLE,
      page: { limit: 5, after: '' },
    });
    expect(sql).toContain('AND map_value > {p1:String}');
    expect(params.p1).toBe('');
  });

  it('refuses a page limit outside 1 to MAX_MAP_KEY_VALUES', () => {
    for (const limit of [0, -1, 1.5, MAX_MAP_KEY_VALUES + 1, Number.NaN]) {
      expect(() =>
        buildMapKeyValuesQuery({ scope: { organizationId: ORG }, kind: 'tag', key: 'k', table: TABLE, page: { limit } }),
      ).toThrow(/page limit/);
    }
  });

  it('reads cost categories from their own column', () => {
    const { sql, params } = buildMapKeyValuesQuery({
      scope: { organizationId: ORG },
      kind: 'costCategory',
      key: 'Business Unit',
      table: TABLE,
    });
    expect(sql).toContain('SELECT cost_categories[{p0:String}] AS map_value');
    expect(params.p0).toBe('Business Unit');
  });

  it('refuses an organisation-less scope', () => {
    expect(() => buildMapKeyValuesQuery({ scope: { organizationId: '' }, kind: 'tag', key: 'env', table: TABLE })).toThrow();
  });
});

describe('readMapKeyValues', () => {
  const rows = (values: string[]) => values.map((map_value) => ({ map_value }));

  it('sorts the values ascending', () => {
    expect(readMapKeyValues(rows(['b', 'B', 'a']))).toEqual({ values: ['B', 'a', 'b'], more: false });
  });

  it('unpaged: keeps the first MAX_MAP_KEY_VALUES rows (the most expensive) and says when there were more', () => {
    const ranked = Array.from({ length: MAX_MAP_KEY_VALUES + 1 }, (_, i) => `v${String(MAX_MAP_KEY_VALUES - i).padStart(5, '0')}`);
    expect(readMapKeyValues(rows(ranked.slice(0, MAX_MAP_KEY_VALUES))).more).toBe(false);
    const cut = readMapKeyValues(rows(ranked));
    expect(cut.more).toBe(true);
    expect(cut.values).toHaveLength(MAX_MAP_KEY_VALUES);
    expect(cut.values[0]).toBe('v00001'); // the last row (v00000) was the cheapest
  });

  it('paged: keeps `limit` rows and says whether another page follows', () => {
    expect(readMapKeyValues(rows(['a', 'b', 'c']), { limit: 2 })).toEqual({ values: ['a', 'b'], more: true });
    expect(readMapKeyValues(rows(['a', 'b']), { limit: 2 })).toEqual({ values: ['a', 'b'], more: false });
  });
});

describe('compareCodePoints', () => {
  it('orders by code point, independent of locale, like ClickHouse', () => {
    const values = ['é', 'z', 'Z', '(not set)', '10', '9', '😀', '\uffff'];
    expect([...values].sort(compareCodePoints)).toEqual(['(not set)', '10', '9', 'Z', 'z', 'é', '\uffff', '😀']);
  });

  it('agrees with the UTF-8 byte order on prefixes, equal strings and every plane', () => {
    const alphabet = [
      '',
      'a',
      'ab',
      'b',
      '\u00e9',
      '\u07ff',
      '\u0800',
      '\ud7ff',
      '\ue000',
      '\uf900',
      '\uffff',
      '\u{10000}',
      '\u{1f600}',
      '\u{10ffff}',
    ];
    const values = alphabet.flatMap((x) => alphabet.map((y) => x + y));
    const byBytes = (a: string, b: string) => Buffer.compare(Buffer.from(a, 'utf8'), Buffer.from(b, 'utf8'));
    const disagreements = values.flatMap((a) =>
      values.filter((b) => Math.sign(compareCodePoints(a, b)) !== byBytes(a, b)).map((b) => [a, b]),
    );
    expect(values).toHaveLength(196);
    expect(disagreements).toEqual([]);
  });
});
