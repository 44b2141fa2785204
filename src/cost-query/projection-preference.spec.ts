import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { MONTHLY_PROJECTIONS, withProjectionPreference } from './projection-preference';

const preference = (sql: string) => withProjectionPreference('monthly', sql).split('\n').at(-1);

describe('withProjectionPreference', () => {
  it('names the monthly projection of the maps a statement reads, for questions by month only', () => {
    expect(preference('SELECT service FROM t')).toBe("SETTINGS preferred_optimize_projection_name = 'monthly_dimension_sums'");
    expect(preference("SELECT resource_tags['team'] FROM t")).toBe("SETTINGS preferred_optimize_projection_name = 'monthly_tag_sums'");
    expect(preference("SELECT activated_cost_categories['BU'] FROM t")).toBe(
      "SETTINGS preferred_optimize_projection_name = 'monthly_activated_tag_sums'",
    );
    // A statement reading both kinds of maps can only be answered by the full-map projection.
    expect(preference("SELECT activated_resource_tags['a'], cost_categories['b'] FROM t")).toBe(
      "SETTINGS preferred_optimize_projection_name = 'monthly_tag_sums'",
    );
    // Days read (a range of days, not whole months): no preference, or ClickHouse would read the line items.
    const days = 'SELECT toStartOfMonth(usage_date) AS m FROM t WHERE usage_date BETWEEN {p0:Date} AND {p1:Date}';
    expect(withProjectionPreference('monthly', days)).toBe(days);
    expect(withProjectionPreference('daily', 'SELECT 1')).toBe('SELECT 1');
    expect(withProjectionPreference('weekly', 'SELECT 1')).toBe('SELECT 1');
  });

  it('names projections the migrations define', () => {
    const migrations = join(__dirname, '../../clickhouse/migrations');
    const sql = readdirSync(migrations)
      .filter((name) => name.endsWith('.sql'))
      .map((name) => readFileSync(join(migrations, name), 'utf8'))
      .join('\n');
    for (const name of Object.values(MONTHLY_PROJECTIONS))
      expect({ name, defined: sql.includes(`ADD PROJECTION IF NOT EXISTS ${name}`) }).toEqual({ name, defined: true });
  });
});
