import { checkedJsonValues, parseValuesCsv, unitSelection } from './business-metric';
import { unitCostItems } from './unit-costs.service';

describe('business metric values', () => {
  it('reads a CSV with or without a header, per dimension value', () => {
    expect(parseValuesCsv('date,value,team\n2026-11-01,1200,payments\r\n2026-11-01,0.5,search\n', true)).toEqual({
      values: [
        { date: '2026-11-01', value: '1200', dimensionValue: 'payments' },
        { date: '2026-11-01', value: '0.5', dimensionValue: 'search' },
      ],
      problems: [],
    });
    expect(parseValuesCsv('2026-11-02,7', false).values).toEqual([{ date: '2026-11-02', value: '7', dimensionValue: '' }]);
  });

  it('names every bad line and column, and refuses negative units and dates outside 2000–2099', () => {
    const { problems } = parseValuesCsv('2026-11-01,-3\n1999-12-31,1\n2026-11-02,1e3\n2026-11-03,1,extra', false);
    expect(problems).toEqual([
      'line 1, value: units are never negative, received "-3"',
      'line 2, date: expected a date from 2000-01-01 to 2099-12-31 (YYYY-MM-DD), received "1999-12-31"',
      'line 3, value: expected a finite decimal of at most 10 places, received "1e3"',
      'line 4, dimension value: the metric has no dimension; give date and value only',
    ]);
    expect(checkedJsonValues([{ date: '2026-11-01', value: Infinity }], false).problems).toEqual([
      'values[0].value: expected a finite decimal of at most 10 places, received null',
    ]);
  });
});

describe('units a question counts', () => {
  const team = { kind: 'tag', key: 'team' } as const;
  it('the dimension values the filters and data scope name, intersected; exclusions added', () => {
    const scope = { inclusions: { resourceTag: 'team', resourceTagValues: ['payments', 'search'] } };
    const filters = {
      inclusions: { resourceTag: 'team', resourceTagValues: ['search', 'data'] },
      exclusions: { resourceTag: 'team', resourceTagValues: ['x'] },
    };
    expect(unitSelection(team, [scope, filters])).toEqual({ include: ['search'], exclude: ['x'] });
    expect(unitSelection(team, [{ inclusions: { services: ['Amazon EC2'] } }])).toEqual({ exclude: [] });
    expect(unitSelection({ kind: 'column', name: 'service' }, [{ inclusions: { services: ['Amazon EC2'] } }])).toEqual({
      include: ['Amazon EC2'],
      exclude: [],
    });
  });
});

describe('unit costs', () => {
  it('cost ÷ units × scale, exact; null without units; the change against the value’s bucket before', () => {
    const items = unitCostItems(
      [
        { date: '2026-11-01', dimension_value: '', cost: '10' },
        { date: '2026-11-02', dimension_value: '', cost: '11' },
        { date: '2026-11-03', dimension_value: '', cost: '5' },
      ],
      [
        { bucket: '2026-11-01', value_key: '', units: '3' },
        { bucket: '2026-11-02', value_key: '', units: '3' },
        { bucket: '2026-11-04', value_key: '', units: '1' },
      ],
      1000,
      false,
    );
    expect(items).toEqual([
      { usage_date: '2026-11-01', cost: '10', units: '3', unit_cost: '3333.3333333333', unit_cost_change: null },
      { usage_date: '2026-11-02', cost: '11', units: '3', unit_cost: '3666.6666666667', unit_cost_change: 0.1 },
      { usage_date: '2026-11-03', cost: '5', units: '0', unit_cost: null, unit_cost_change: null },
      { usage_date: '2026-11-04', cost: '0', units: '1', unit_cost: '0', unit_cost_change: null },
    ]);
  });
});
