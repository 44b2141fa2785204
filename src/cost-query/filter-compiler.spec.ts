import { compileWhere, defaultWindow, WhereOptions } from './filter-compiler';
import { SqlParameters } from './sql-parameters';

const ORG = '6f1c1f5e-8a4b-4c1e-9a53-2d7f0c8b1a11';
const options: WhereOptions = { today: '2026-11-21', defaultWindowDays: 30 };

function compile(filters: Parameters<typeof compileWhere>[1], extra: Partial<WhereOptions> = {}) {
  const params = new SqlParameters();
  const sql = compileWhere({ organizationId: ORG }, filters, params, { ...options, ...extra });
  return { sql, params: params.toObject() };
}

describe('compileWhere', () => {
  it('always scopes to the organisation and applies the default window', () => {
    expect(compile({})).toEqual({
      sql: 'organization_id = {organization_id:UUID}\n  AND usage_date BETWEEN {p0:Date} AND {p1:Date}',
      params: { organization_id: ORG, p0: '2026-10-23', p1: '2026-11-21' },
    });
  });

  it('refuses to compile without an organisation', () => {
    expect(() => compileWhere({ organizationId: '' }, {}, new SqlParameters(), options)).toThrow(/organisation/);
  });

  it('uses the dateRange of inclusions, both ends included', () => {
    const { sql, params } = compile({ inclusions: { dateRange: { start: '2026-01-05', end: '2026-02-28' } } });
    expect(sql).toContain('AND usage_date BETWEEN {p0:Date} AND {p1:Date}');
    expect(params).toMatchObject({ p0: '2026-01-05', p1: '2026-02-28' });
  });

  it('writes a range of whole months on the month, so the monthly projection can answer it', () => {
    const whole = (start: string, end: string) => compile({ inclusions: { dateRange: { start, end } } });
    expect(whole('2026-01-01', '2026-03-31')).toEqual({
      sql: 'organization_id = {organization_id:UUID}\n  AND toStartOfMonth(usage_date) BETWEEN {p0:Date} AND {p1:Date}',
      params: { organization_id: ORG, p0: '2026-01-01', p1: '2026-03-01' },
    });
    // Leap-year February ends on the 29th; one full month is a range too.
    expect(whole('2028-02-01', '2028-02-29').params).toMatchObject({ p0: '2028-02-01', p1: '2028-02-01' });
    expect(whole('2028-02-01', '2028-02-29').sql).toContain('toStartOfMonth(usage_date) BETWEEN');
    // Not whole months at either end: the days themselves.
    for (const [start, end] of [
      ['2026-01-02', '2026-03-31'],
      ['2026-01-01', '2026-03-30'],
      ['2027-02-01', '2027-02-27'],
    ]) {
      expect(whole(start, end).sql).toContain('AND usage_date BETWEEN {p0:Date} AND {p1:Date}');
    }
    // An excluded range of whole months too.
    const excluded = compile({ exclusions: { dateRange: { start: '2026-02-01', end: '2026-02-28' } } });
    expect(excluded.sql).toContain('AND NOT (toStartOfMonth(usage_date) BETWEEN {p2:Date} AND {p3:Date})');
    expect(excluded.params).toMatchObject({ p2: '2026-02-01', p3: '2026-02-01' });
  });

  it('lets billingPeriods replace the default window', () => {
    const { sql, params } = compile({ inclusions: { billingPeriods: ['2026-09', '2026-10'] } });
    expect(sql).toBe('organization_id = {organization_id:UUID}\n  AND billing_period IN {p0:Array(String)}');
    expect(params.p0).toEqual(['2026-09', '2026-10']);
  });

  it('ANDs inclusion fields, ORs values as one IN list, and ignores empty arrays', () => {
    const { sql, params } = compile({
      inclusions: { clouds: ['AWS', 'Azure'], services: ['Amazon EC2'], regions: [] },
    });
    expect(sql).toBe(
      [
        'organization_id = {organization_id:UUID}',
        'usage_date BETWEEN {p0:Date} AND {p1:Date}',
        'cloud IN {p2:Array(String)}',
        'service IN {p3:Array(String)}',
      ].join('\n  AND '),
    );
    expect(params).toMatchObject({ p2: ['AWS', 'Azure'], p3: ['Amazon EC2'] });
  });

  it('makes every exclusion field remove its matches independently', () => {
    const { sql, params } = compile({ exclusions: { accountIds: ['111'], costTypes: ['Tax'] } });
    expect(sql).toContain('AND NOT (cost_type IN {p2:Array(String)})');
    expect(sql).toContain('AND NOT (account_id IN {p3:Array(String)})');
    expect(params).toMatchObject({ p2: ['Tax'], p3: ['111'] });
  });

  it('filters a tag key on its values, or on its presence when no values are given', () => {
    const withValues = compile({ inclusions: { resourceTag: "it's", resourceTagValues: ['prod'] } });
    expect(withValues.sql).toContain('resource_tags[{p2:String}] IN {p3:Array(String)}');
    expect(withValues.params).toMatchObject({ p2: "it's", p3: ['prod'] });

    const presence = compile({ inclusions: { costCategory: 'Team' }, exclusions: { resourceTag: 'env' } });
    expect(presence.sql).toContain('AND mapContains(cost_categories, {p2:String})');
    expect(presence.sql).toContain('AND NOT (mapContains(resource_tags, {p3:String}))');
  });

  it('treats a null tag or cost category key as unset (how shared-filter reads spell it)', () => {
    const { sql } = compile({
      inclusions: { resourceTag: null, resourceTagValues: [] } as never,
      exclusions: { costCategory: null, costCategoryValues: [] } as never,
    });
    expect(sql).not.toContain('resource_tags');
    expect(sql).not.toContain('cost_categories');
  });

  it('maps the (not set) value to the empty string rows carry when a value is missing', () => {
    const { params } = compile({ inclusions: { resourceTag: 'team', resourceTagValues: ['(not set)'] } });
    expect(params.p3).toEqual(['(not set)', '']);
  });

  it('omits one field for cross-filtering, in inclusions and exclusions alike', () => {
    const { sql } = compile({ inclusions: { services: ['S3'], clouds: ['AWS'] }, exclusions: { services: ['EC2'] } }, { omit: 'services' });
    expect(sql).not.toContain('service IN');
    expect(sql).toContain('cloud IN');
  });

  it('falls back to the default window when billingPeriods is the omitted field', () => {
    const { sql, params } = compile({ inclusions: { billingPeriods: ['2026-01'] } }, { omit: 'billingPeriods' });
    expect(sql).toContain('usage_date BETWEEN');
    expect(sql).not.toContain('billing_period');
    expect(params).toMatchObject({ p0: '2026-10-23', p1: '2026-11-21' });
  });

  it('removes an excluded dateRange', () => {
    const { sql } = compile({ exclusions: { dateRange: { start: '2026-11-01', end: '2026-11-02' } } });
    expect(sql).toContain('AND NOT (usage_date BETWEEN {p2:Date} AND {p3:Date})');
  });

  it('never puts a value into the SQL text', () => {
    const hostile = "x') OR 1=1 --";
    const { sql } = compile({
      inclusions: { services: [hostile], resourceTag: hostile, resourceTagValues: [hostile] },
      exclusions: { costCategory: hostile },
    });
    expect(sql).not.toContain(hostile);
    expect(sql).not.toContain("'");
  });
});

describe('defaultWindow', () => {
  it('spans the given number of days ending today', () => {
    expect(defaultWindow('2026-03-01', 30)).toEqual({ start: '2026-01-31', end: '2026-03-01' });
  });
});

describe('compileWhere with a data scope', () => {
  const dataScope = {
    inclusions: { accountIds: ['111111111111'], resourceTag: 'team', resourceTagValues: ['payments'] },
    exclusions: { services: ['Support'] },
  };

  it('ANDs the key’s data scope right after the organisation, whatever the request asks', () => {
    const params = new SqlParameters();
    const sql = compileWhere({ organizationId: ORG, dataScope }, { inclusions: { accountIds: ['222222222222'] } }, params, options);
    expect(sql).toBe(
      [
        'organization_id = {organization_id:UUID}',
        'account_id IN {p0:Array(String)}',
        'resource_tags[{p1:String}] IN {p2:Array(String)}',
        'NOT (service IN {p3:Array(String)})',
        'usage_date BETWEEN {p4:Date} AND {p5:Date}',
        'account_id IN {p6:Array(String)}',
      ].join('\n  AND '),
    );
    expect(params.toObject()).toMatchObject({
      p0: ['111111111111'],
      p1: 'team',
      p2: ['payments'],
      p3: ['Support'],
      p6: ['222222222222'],
    });
  });

  it('keeps the scope when cross-filtering leaves a field’s own filter out', () => {
    const params = new SqlParameters();
    const sql = compileWhere({ organizationId: ORG, dataScope }, { inclusions: { accountIds: ['222222222222'] } }, params, {
      ...options,
      omit: 'accountIds',
    });
    expect(sql).toContain('account_id IN {p0:Array(String)}');
    expect(sql).not.toContain('{p6:');
    expect(params.toObject().p0).toEqual(['111111111111']);
  });
});
