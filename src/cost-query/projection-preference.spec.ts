import { withProjectionPreference } from './projection-preference';

const preference = (sql: string) => withProjectionPreference(sql).split('\n').at(-1);

describe('withProjectionPreference', () => {
  it('names the projection of the grain a statement reads (months only: monthly) and of the maps it reads', () => {
    expect(preference('SELECT service FROM t')).toBe("SETTINGS preferred_optimize_projection_name = 'monthly_dimension_sums'");
    expect(preference("SELECT resource_tags['team'] FROM t")).toBe("SETTINGS preferred_optimize_projection_name = 'monthly_tag_sums'");
    expect(preference("SELECT activated_cost_categories['BU'] FROM t")).toBe(
      "SETTINGS preferred_optimize_projection_name = 'monthly_activated_tag_sums'",
    );
    // A statement reading both kinds of maps: no projection holds both, it reads the line items whichever is named.
    expect(preference("SELECT activated_resource_tags['a'], cost_categories['b'] FROM t")).toBe(
      "SETTINGS preferred_optimize_projection_name = 'monthly_tag_sums'",
    );
    // Days read (a range of days, not whole months, or a daily or weekly bucket): the daily projection of those maps.
    const days = 'SELECT toStartOfMonth(usage_date) AS m FROM t WHERE usage_date BETWEEN {p0:Date} AND {p1:Date}';
    expect(preference(days)).toBe("SETTINGS preferred_optimize_projection_name = 'daily_dimension_sums'");
    const daily = "SELECT usage_date, sum(amortized_cost) FROM t WHERE resource_tags['team'] = 'a' GROUP BY usage_date";
    expect(preference(daily)).toBe("SETTINGS preferred_optimize_projection_name = 'daily_tag_sums'");
    const weekly = "SELECT toMonday(usage_date) AS usage_date FROM t WHERE activated_resource_tags['team'] = 'a' GROUP BY usage_date";
    expect(preference(weekly)).toBe("SETTINGS preferred_optimize_projection_name = 'daily_activated_tag_sums'");
  });
});
