import { Injectable } from '@nestjs/common';
import { InvalidRequestException } from '../common/errors/api-errors';
import type { CostDataQuery } from '../cost-query/cost-data.query';
import { bucketStart } from '../cost-query/date-bucketing';
import {
  BasisRow,
  MAX_SPLIT_PORTIONS,
  mergeAdjustments,
  onlyCategory,
  PortionRow,
  portionsOfTwoReads,
  QuestionSplits,
  SplitPlan,
  SplitFlowRow,
  splitAdjustments,
  splitPlanOf,
} from '../cost-query/split-adjustments';
import { buildSplitBasisQuery, buildSplitPortionsQuery, splitPortionReads } from '../cost-query/split-portions.query';
import { ClickhouseService } from '../store/clickhouse/clickhouse.service';
import { costRowsTable } from '../store/cost-rows';
import { tableOf } from '../cost-query/category-sums.query';

/** What a question's shared-cost splits move: the adjustment rows its answer adds, and the flows between values. */
export interface MovedCost {
  splits: QuestionSplits;
  flows: SplitFlowRow[];
}

/**
 * The shared-cost splits of the rule-defined category a question groups or filters by (split-adjustments.ts): the
 * source rows' sums and the proportional targets' own cost read from the store, the splits applied in exact integers,
 * the adjustments merged to what the answer tells apart.
 */
@Injectable()
export class SplitsService {
  constructor(private readonly clickhouse: ClickhouseService) {}

  async movedCost(query: CostDataQuery): Promise<MovedCost | undefined> {
    const plan = splitPlanOf(query.scope.ruleCategories?.splits, query.filters, query.dimensions, query.scope.dataScope);
    if (!plan) return undefined;
    const table = tableOf(query.scope, costRowsTable(this.clickhouse));
    const basis = buildSplitBasisQuery(table, query, plan);
    const [portionRows, basisRows] = await Promise.all([
      this.portionRows(table, query, plan),
      basis ? this.clickhouse.query<BasisRow>(basis.sql, basis.params, query.scope) : [],
    ]);
    if (portionRows.length > MAX_SPLIT_PORTIONS)
      throw new InvalidRequestException([
        `groupBy: the shared-cost splits of cost category "${plan.category}" would move more than ${MAX_SPLIT_PORTIONS} groups of rows; narrow the question (a shorter date range, fewer grouping dimensions)`,
      ]);
    const { adjustments, flows } = splitAdjustments(plan, portionRows, basisRows);
    const conversion = query.conversion;
    const converted = (currency: string) => conversion !== undefined && currency !== conversion.target;
    const merged = mergeAdjustments(
      adjustments,
      (date) => bucketStart(query.dateGrouping, date),
      (currency) => converted(currency) && conversion!.policy === 'usage_date',
      (currency) => converted(currency) && conversion!.policy !== 'usage_date',
    );
    const valueFilters = [onlyCategory(query.filters, plan.category), onlyCategory(query.scope.dataScope, plan.category)];
    return { splits: { plan, adjustments: merged, valueFilters: valueFilters.filter((filters) => filters !== undefined) }, flows };
  }

  /** The source rows' sums, by one statement or two (splitPortionReads). */
  private async portionRows(table: string, query: CostDataQuery, plan: SplitPlan): Promise<PortionRow[]> {
    const reads = await Promise.all(
      splitPortionReads(query, plan).map((read) => {
        const { sql, params } = buildSplitPortionsQuery(table, query, plan, read);
        return this.clickhouse.query<PortionRow>(sql, params, query.scope);
      }),
    );
    return reads.length === 1 ? reads[0] : portionsOfTwoReads(reads[0], reads[1]);
  }
}
