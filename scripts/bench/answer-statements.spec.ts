import { buildDataFreshnessQuery } from '../../src/cost-query/data-freshness.query';
import { currencyPresenceSql } from '../../src/store/repositories/currency.repository';
import { answerStatementFilter } from './answer-statements';

describe('answerStatementFilter', () => {
  const table = 'cost_insights.cost_line_items';
  const isAnswer = answerStatementFilter(table);

  it('keeps the statements that compute an answer', () => {
    expect(
      isAnswer(`SELECT usage_date, sum(amortized_cost) FROM ${table} WHERE organization_id = {organization_id:UUID} GROUP BY usage_date`),
    ).toBe(true);
  });

  it('leaves out what the API reads once per organisation and data version, not per answer', () => {
    expect(isAnswer(buildDataFreshnessQuery(table, { organizationId: '00000000-0000-0000-0000-000000000000' }).sql)).toBe(false);
    expect(isAnswer(currencyPresenceSql(table))).toBe(false);
    expect(isAnswer(`SELECT max(modification_time) FROM system.parts WHERE table = 'cost_line_items'`)).toBe(false);
  });
});
