import { Inject, Injectable } from '@nestjs/common';
import { groupedBy } from '../common/collections/grouped-by';
import { formatMonthNumber, monthNumber, todayUtc } from '../common/dates/calendar-date';
import { InvalidRequestException } from '../common/errors/api-errors';
import { decimalText, fractionHalfUp, scaled } from '../common/money/scaled-decimal';
import { APP_CONFIG, AppConfig } from '../config/app-config';
import { buildCommitmentsQuery, CommitmentSumsRow } from '../cost-query/commitments.query';
import { bucketStarts } from '../cost-query/date-bucketing';
import type { DateRange, OrganizationScope } from '../cost-query/filters.types';
import { dateRangeSpanProblem } from '../cost-query/guardrails';
import { AnswerCurrencyService } from '../currency/answer-currency.service';
import { ClickhouseService } from '../store/clickhouse/clickhouse.service';
import { costRowsTable } from '../store/cost-rows';
import { ActivatedKeysService } from '../tag-keys/activated-keys.service';
import { COMMITMENT_LIMITS } from './commitment-limits';
import type {
  CommitmentBucketDto,
  CommitmentDto,
  CommitmentFiguresDto,
  CommitmentQuantitiesDto,
  CommitmentsDto,
  CommitmentsRequestDto,
} from './dto/commitments.dto';

/** Places of the rates (utilisation, coverage, effective savings rate). */
const RATE_PLACES = 6;

/**
 * Rate optimisation: per commitment discount and in total, what was used and left unused, the utilisation, the
 * coverage of eligible usage and the effective savings rate, over a window (FOCUS commitment columns).
 */
@Injectable()
export class CommitmentsService {
  constructor(
    private readonly clickhouse: ClickhouseService,
    private readonly currencies: AnswerCurrencyService,
    private readonly activatedKeys: ActivatedKeysService,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
  ) {}

  async measure(scope: OrganizationScope, request: CommitmentsRequestDto): Promise<CommitmentsDto> {
    const window = request.filters?.inclusions?.dateRange ?? defaultWindow();
    const spanProblem = dateRangeSpanProblem('filters.inclusions.dateRange', window, this.config.maxDateRangeDays);
    if (spanProblem) throw new InvalidRequestException([spanProblem]);
    const filters = { ...request.filters, inclusions: { ...request.filters?.inclusions, dateRange: window } };
    const questionScope = await this.activatedKeys.scopeFor(scope, filters, []);
    const table = costRowsTable(this.clickhouse);
    const named = request.eligibleServices?.length ? request.eligibleServices : undefined;
    return this.currencies.answer(scope, request.currency, { dateRanges: [window] }, async (money) => {
      const query = {
        scope: questionScope,
        filters,
        window,
        dateGrouping: request.dateGrouping,
        eligibleServices: named,
        conversion: money.conversion,
      };
      const { sql, params } = buildCommitmentsQuery(table, query);
      const rows = groupedBy(await this.clickhouse.query<CommitmentSumsRow>(sql, params, scope), (row) => row.kind);
      const of = (kind: CommitmentSumsRow['kind']) => rows.get(kind) ?? [];
      const bucketsOf = groupedBy(of('commitment_bucket'), commitmentKey);
      return {
        date_range: window,
        currency: money.currency,
        eligible_services: named ? [...named] : appliedOn(of('service')).map((row) => row.service),
        eligible_program_types: appliedOn(of('program_type'))
          .map((row) => row.type)
          .filter((type) => type !== ''),
        total: figures(of('total')[0], true),
        ...(request.dateGrouping ? { series: series(of('total_bucket'), request.dateGrouping, window, true) } : {}),
        commitments: of('commitment')
          .filter((row) => row.commitment_discount_id !== '')
          .map((row) => commitment(row, bucketsOf.get(commitmentKey(row)) ?? [], request.dateGrouping))
          .sort(
            (a, b) =>
              b.used_cost + b.unused_cost - (a.used_cost + a.unused_cost) || (a.commitment_discount_id < b.commitment_discount_id ? -1 : 1),
          ),
      };
    });
  }
}

/** The `service` (or `program_type`) rows where a commitment discount applied in the window, in the statement's order. */
function appliedOn(rows: readonly CommitmentSumsRow[]): CommitmentSumsRow[] {
  return rows.filter((row) => Number(row.applied) === 1);
}

/** From the first day of the month COMMITMENT_LIMITS.defaultPastMonths ago to today (UTC). */
function defaultWindow(): DateRange {
  const today = todayUtc();
  return { start: formatMonthNumber(monthNumber(today) - COMMITMENT_LIMITS.defaultPastMonths), end: today };
}

/** One group's figures from its exact sums; coverage only where the group is all of the window's usage. */
function figures(row: CommitmentSumsRow | undefined, withCoverage: boolean): CommitmentFiguresDto {
  const units = (text: string | undefined) => scaled(text ?? '0');
  const [used, unused, onDemand] = [units(row?.used_cost), units(row?.unused_cost), units(row?.on_demand_equivalent)];
  const savings = onDemand - used - unused;
  // A sum's own decimal text reads as the same number its units would.
  return {
    used_cost: Number(row?.used_cost ?? 0),
    unused_cost: Number(row?.unused_cost ?? 0),
    utilization: fractionHalfUp(used, used + unused, RATE_PLACES),
    coverage: withCoverage ? fractionHalfUp(units(row?.covered_list), units(row?.eligible_list), RATE_PLACES) : null,
    on_demand_equivalent: Number(row?.on_demand_equivalent ?? 0),
    savings: Number(decimalText(savings)),
    effective_savings_rate: fractionHalfUp(savings, onDemand, RATE_PLACES),
  };
}

/** Every bucket of the window, zero where nothing was spent (the totals); a commitment's buckets with cost. */
function series(
  rows: readonly CommitmentSumsRow[],
  grouping: NonNullable<CommitmentsRequestDto['dateGrouping']>,
  window: DateRange,
  withCoverage: boolean,
): CommitmentBucketDto[] {
  const byBucket = new Map(rows.map((row) => [row.bucket_date, row]));
  return bucketStarts(grouping, window.start, window.end).map((date) => ({ date, ...figures(byBucket.get(date), withCoverage) }));
}

/** A commitment as its rows are grouped: by id and billing account. */
function commitmentKey(row: CommitmentSumsRow): string {
  return JSON.stringify([row.commitment_discount_id, row.billing_account_id]);
}

/** One commitment's figures, and with a date grouping its own buckets'. */
function commitment(
  row: CommitmentSumsRow,
  own: readonly CommitmentSumsRow[],
  grouping?: CommitmentsRequestDto['dateGrouping'],
): CommitmentDto {
  return {
    commitment_discount_id: row.commitment_discount_id,
    name: row.name,
    type: row.type,
    category: row.category,
    provider: row.provider,
    billing_account_id: row.billing_account_id,
    ...figures(row, false),
    ...(row.category.toLowerCase() === 'usage' && row.unit !== '' ? { quantities: quantities(row) } : {}),
    ...(grouping ? { series: own.map((bucket) => ({ date: bucket.bucket_date, ...figures(bucket, false) })) } : {}),
  };
}

/** A usage-category commitment's quantities, in its unit. */
function quantities(row: CommitmentSumsRow): CommitmentQuantitiesDto {
  const [used, unused] = [scaled(row.used_quantity), scaled(row.unused_quantity)];
  return {
    unit: row.unit,
    used: Number(decimalText(used)),
    unused: Number(decimalText(unused)),
    utilization: fractionHalfUp(used, used + unused, RATE_PLACES),
  };
}
