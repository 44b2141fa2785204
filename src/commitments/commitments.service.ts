import { Inject, Injectable } from '@nestjs/common';
import { groupedBy } from '../common/collections/grouped-by';
import { formatMonthNumber, monthNumber, todayUtc } from '../common/dates/calendar-date';
import { InvalidRequestException } from '../common/errors/api-errors';
import { APP_CONFIG, AppConfig } from '../config/app-config';
import { buildCommitmentsQuery, COMMITMENT_FIGURES, CommitmentHeadLine, readCommitmentsResult } from '../cost-query/commitments.query';
import { JsonText } from '../answers/json-text';
import { bucketStarts } from '../cost-query/date-bucketing';
import type { DateRange, OrganizationScope } from '../cost-query/filters.types';
import { dateRangeSpanProblem } from '../cost-query/guardrails';
import { AnswerCurrencyService } from '../currency/answer-currency.service';
import { ClickhouseService } from '../store/clickhouse/clickhouse.service';
import { costRowsTable } from '../store/cost-rows';
import { ActivatedKeysService } from '../tag-keys/activated-keys.service';
import { COMMITMENT_LIMITS } from './commitment-limits';
import type { CommitmentBucketDto, CommitmentFiguresDto, CommitmentsDto, CommitmentsRequestDto } from './dto/commitments.dto';

/** The answer, its commitments as ClickHouse wrote them (spliced into the response as they are). */
export type CommitmentsResult = Omit<CommitmentsDto, 'commitments'> & { commitments: JsonText };

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

  async measure(scope: OrganizationScope, request: CommitmentsRequestDto): Promise<CommitmentsResult> {
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
      const { heads, commitments } = readCommitmentsResult(await this.clickhouse.queryRaw(sql, params, scope));
      const lines = groupedBy(heads, (line) => line.kind);
      const of = (kind: CommitmentHeadLine['kind']) => lines.get(kind) ?? [];
      return {
        date_range: window,
        currency: money.currency,
        eligible_services: named ? [...named] : appliedOn(of('service')).map((line) => line.service),
        eligible_program_types: appliedOn(of('program_type'))
          .map((line) => line.type)
          .filter((type) => type !== ''),
        total: figuresOf(of('total')[0]),
        ...(request.dateGrouping ? { series: series(of('total_bucket'), request.dateGrouping, window) } : {}),
        commitments: JsonText.arrayOf(commitments),
      };
    });
  }
}

/** The `service` (or `program_type`) lines where a commitment discount applied in the window, in the statement's order. */
function appliedOn(lines: readonly CommitmentHeadLine[]): CommitmentHeadLine[] {
  return lines.filter((line) => Number(line.applied) === 1);
}

/** From the first day of the month COMMITMENT_LIMITS.defaultPastMonths ago to today (UTC). */
function defaultWindow(): DateRange {
  const today = todayUtc();
  return { start: formatMonthNumber(monthNumber(today) - COMMITMENT_LIMITS.defaultPastMonths), end: today };
}

/** A total's figures as the statement computed them; none (nothing in the window or bucket): zeros. */
function figuresOf(line: CommitmentHeadLine | undefined): CommitmentFiguresDto {
  return Object.fromEntries(COMMITMENT_FIGURES.map((name) => [name, line ? line[name] : 0])) as unknown as CommitmentFiguresDto;
}

/** Every bucket of the window, zero where nothing was spent. */
function series(
  lines: readonly CommitmentHeadLine[],
  grouping: NonNullable<CommitmentsRequestDto['dateGrouping']>,
  window: DateRange,
): CommitmentBucketDto[] {
  const byBucket = new Map(lines.map((line) => [line.bucket_date, line]));
  return bucketStarts(grouping, window.start, window.end).map((date) => ({ date, ...figuresOf(byBucket.get(date)) }));
}
