import { createHmac } from 'node:crypto';
import { HttpStatus, Injectable } from '@nestjs/common';
import { ApiError, InvalidRequestException } from '../common/errors/api-errors';
import { addDays, dayNumber, formatDayNumber, todayUtc } from '../common/dates/calendar-date';
import type { Principal } from '../common/http/principal';
import {
  AnomalyWindow,
  buildRootCausesQuery,
  ROOT_CAUSE_DIMENSIONS,
  RootCauseTags,
  rootCauseTagsFor,
  RootCauseTagSource,
} from '../cost-query/anomaly-root-causes.query';
import { buildAnomalySeriesScopeQuery } from '../cost-query/anomaly-series-scope.query';
import { organizationScopeOf } from '../cost-query/data-scope';
import { DimensionRef, parseDimension } from '../cost-query/dimension-registry';
import { DateRange, OrganizationScope } from '../cost-query/filters.types';
import { buildForecastSeriesQuery, ForecastSeriesRow } from '../cost-query/forecast-series.query';
import { AnswerCurrencyService, AnswerMoney } from '../currency/answer-currency.service';
import type { AuditOrigin } from '../store/repositories/audit-event';
import { AuditTrail } from '../infrastructure/audit-trail/audit-trail.service';
import { ClickhouseService } from '../store/clickhouse/clickhouse.service';
import { costRowsTable } from '../store/cost-rows';
import { InstallationSecrets } from '../store/repositories/installation-secrets.repository';
import { ActivatedKeysService } from '../tag-keys/activated-keys.service';
import { AnomaliesRepository, AnomalyFeedback, KeptAnomaly, type FeedbackReason } from '../store/repositories/anomalies.repository';
import { ANOMALY_LIMITS, BASELINE_EXCLUDING } from './anomaly-limits';
import { ANOMALY_METHOD, DetectedAnomaly, detectAnomalies } from './anomaly-model';
import { AnomaliesRequestDto } from './dto/anomalies-request.dto';

export interface RootCause {
  dimension: string;
  value: string;
  contribution: number;
}

export interface Anomaly {
  id: string;
  start: string;
  end: string;
  dimension_value: string;
  expected: number;
  actual: number;
  impact: number;
  impactPercentage: number | null;
  score: number;
  rootCauses: RootCause[];
  feedback: FeedbackReason | null;
}

export interface AnomaliesResult {
  currency: string;
  dimension: string;
  date_range: DateRange;
  last_complete_day: string;
  method: string;
  thresholds: { min_impact: number; min_impact_percentage: number; score: number };
  root_cause_tags: RootCauseTagSource;
  anomalies: Anomaly[];
}

/** One series' anomaly, before its id, root causes and feedback. */
interface Found extends DetectedAnomaly {
  value: string;
}

/** One answer for every id a key may not give feedback on, so none can be told from an unknown one. */
const NOT_FOUND = 'Anomaly not found: unknown, older than 90 days, or not this key’s to see.';
const ANOMALY_ID = /^an_[0-9a-f]{24}$/;

/**
 * Anomalies (issue 32): the days a cost series rose well above its baseline (anomaly-model.ts), per value of a
 * monitored dimension, with the account, service, region, usage type or tag that moved. The series and their
 * baselines are read in one statement (converted into the answer's currency like every money answer), the root
 * causes of every anomaly in a second; complete days only (up to yesterday, UTC). Reported anomalies are kept 90
 * days so feedback can name them; feedback of reasons expected, seasonal and migration leaves their days out of
 * later baselines.
 */
@Injectable()
export class AnomaliesService {
  constructor(
    private readonly clickhouse: ClickhouseService,
    private readonly currencies: AnswerCurrencyService,
    private readonly repository: AnomaliesRepository,
    private readonly activatedKeys: ActivatedKeysService,
    private readonly secrets: InstallationSecrets,
    private readonly auditTrail: AuditTrail,
  ) {}

  async scan(scope: OrganizationScope, request: AnomaliesRequestDto, today = todayUtc()): Promise<AnomaliesResult> {
    const lastComplete = addDays(today, -1);
    const range = scannedRange(request.dateRange ?? undefined, lastComplete);
    const dimension = request.dimension ?? ANOMALY_LIMITS.defaultDimension;
    const monitored = parseDimension(dimension) as DimensionRef; // validated by the DTO
    const thresholds = {
      min_impact: request.minImpact ?? ANOMALY_LIMITS.defaultMinImpact,
      min_impact_percentage: request.minImpactPercentage ?? ANOMALY_LIMITS.defaultMinImpactPercentage,
      score: ANOMALY_LIMITS.scoreThreshold,
    };
    const read = { start: addDays(range.start, -ANOMALY_LIMITS.lookbackDays), end: range.end };
    return this.currencies.answer(scope, request.currency, { dateRanges: [read] }, async (money) => {
      // One read at a time: a scan holds one place of the organisation's statement queue, as other answers do.
      const feedback = latestPerAnomaly(await this.repository.feedback(scope.organizationId, dimension));
      const filters = request.filters ?? {};
      const active = await this.activatedKeys.activeKeys(scope.organizationId);
      const tags = rootCauseTagsFor(request.rootCauseTags, active, scope, filters, monitored);
      const series = await this.series(await this.activatedKeys.scopeFor(scope, filters, [monitored]), request, monitored, read, money);
      const firstDay = dayNumber(read.start);
      const historyFrom = firstDay + firstCostIndex(series);
      const found = newestFirst(
        [...series].flatMap(([value, values]) =>
          detectAnomalies({
            values,
            firstDay,
            detectFrom: dayNumber(range.start),
            historyFrom,
            excluded: excludedDays(feedback, value),
            minImpact: thresholds.min_impact,
            minImpactPercentage: thresholds.min_impact_percentage,
          }).map((anomaly) => ({ ...anomaly, value })),
        ),
      ).slice(0, ANOMALY_LIMITS.maxAnomalies);
      const ids = await this.anomalyIds(scope.organizationId, dimension, found);
      // Kept while the root causes are read (the write waits on the disk, the read on the CPU): off the scan's path.
      const [causes] = await Promise.all([
        this.rootCauses(tags, request, monitored, found, [...series.keys()], money),
        this.keep(scope.organizationId, dimension, found, ids),
      ]);
      const reasons = new Map(feedback.map((entry) => [seriesDay(entry.dimensionValue, entry.start), entry.reason]));
      const anomalies = found.map((anomaly, i) => toAnomaly(anomaly, ids[i], causes[i], reasons));
      return {
        currency: money.currency,
        dimension,
        date_range: range,
        last_complete_day: lastComplete,
        method: ANOMALY_METHOD,
        thresholds,
        root_cause_tags: tags.source,
        anomalies,
      };
    });
  }

  /**
   * Records feedback on one of the organisation's kept anomalies whose series the key sees, and audits it. Another
   * organisation's id, and one whose series lies outside the key's data scope, are the 404 of an unknown id.
   */
  async recordFeedback(
    principal: Principal,
    origin: AuditOrigin,
    id: string,
    reason: FeedbackReason,
  ): Promise<{ id: string; reason: FeedbackReason; recorded_at: string }> {
    const anomaly = ANOMALY_ID.test(id) ? await this.repository.find(principal.organizationId, id) : undefined;
    if (!anomaly || !(await this.seesSeries(organizationScopeOf(principal), anomaly))) throw new ApiError(HttpStatus.NOT_FOUND, NOT_FOUND);
    const recordedAt = await this.repository.recordFeedback(principal.organizationId, principal.keyId, { ...anomaly, reason });
    const { dimension, dimensionValue, start, end } = anomaly;
    await this.auditTrail.record(origin, 'anomaly.feedback-given', id, { reason, dimension, dimensionValue, start, end });
    return { id, reason, recorded_at: recordedAt };
  }

  /**
   * Whether the key's own scan could report the anomaly: a key without a data scope sees every series; a scoped one
   * the series of a value its slice has usage of on the anomaly's days, and `(other)` when its slice holds more values
   * than are monitored on their own then (its scan has an (other) series of them).
   */
  private async seesSeries(scope: OrganizationScope, anomaly: KeptAnomaly): Promise<boolean> {
    if (!scope.dataScope) return true;
    const monitored = parseDimension(anomaly.dimension);
    if (!monitored) return false;
    const { sql, params } = buildAnomalySeriesScopeQuery(costRowsTable(this.clickhouse), {
      scope,
      monitored,
      value: anomaly.dimensionValue,
      days: { start: anomaly.start, end: anomaly.end },
      leftOutCategories: ANOMALY_LIMITS.leftOutCategories,
    });
    const [row] = await this.clickhouse.query<{ has_value: number | string; value_count: number | string }>(sql, params, scope);
    if (Number(row?.has_value) === 1) return true;
    return anomaly.dimensionValue === ANOMALY_LIMITS.otherLabel && Number(row?.value_count) > ANOMALY_LIMITS.monitoredValues;
  }

  /** The anomalies' ids (in order), keyed with the installation's secret: only a scan can name them. */
  private async anomalyIds(organizationId: string, dimension: string, found: Found[]): Promise<string[]> {
    if (found.length === 0) return [];
    const key = await this.secrets.secret('anomaly-ids');
    return found.map((anomaly) => anomalyId(key, organizationId, dimension, anomaly));
  }

  /** Keeps the anomalies found (ids in the same order) for feedback on them. */
  private async keep(organizationId: string, dimension: string, found: Found[], ids: string[]): Promise<void> {
    if (found.length === 0) return;
    await this.repository.keep(
      organizationId,
      found.map((anomaly, i) => ({
        id: ids[i],
        dimension,
        dimensionValue: anomaly.value,
        start: formatDayNumber(anomaly.startDay),
        end: formatDayNumber(anomaly.endDay),
      })),
    );
  }

  /** Each monitored value's daily amounts over `read` (zero-filled), the remaining values as one series. */
  private async series(
    scope: OrganizationScope,
    request: AnomaliesRequestDto,
    monitored: DimensionRef,
    read: DateRange,
    money: AnswerMoney,
  ): Promise<Map<string, number[]>> {
    const { sql, params } = buildForecastSeriesQuery(costRowsTable(this.clickhouse), {
      scope,
      filters: request.filters ?? {},
      window: read,
      metric: 'amortized_cost',
      dimension: monitored,
      topValues: ANOMALY_LIMITS.monitoredValues,
      otherLabel: ANOMALY_LIMITS.otherLabel,
      totalLabel: ANOMALY_LIMITS.otherLabel,
      oneOffCategories: ANOMALY_LIMITS.leftOutCategories,
      conversion: money.conversion,
    });
    const rows = await this.clickhouse.query<ForecastSeriesRow>(sql, params, scope);
    const first = dayNumber(read.start);
    const length = dayNumber(read.end) - first + 1;
    const series = new Map<string, number[]>();
    for (const row of rows) {
      if (Number(row.one_off) === 1) continue;
      const values = new Array<number>(length).fill(0);
      row.days.forEach((day, i) => (values[day - first] = Number(row.amounts[i])));
      series.set(row.series, values);
    }
    return series;
  }

  /** Per anomaly (in order), its root causes: the values whose amounts rose most over their usual amount on the same weekdays. */
  private async rootCauses(
    tags: RootCauseTags,
    request: AnomaliesRequestDto,
    monitored: DimensionRef,
    found: Found[],
    seriesValues: string[],
    money: AnswerMoney,
  ): Promise<RootCause[][]> {
    if (found.length === 0) return [];
    const windows: AnomalyWindow[] = found.map((anomaly) => ({
      ...(anomaly.value === ANOMALY_LIMITS.otherLabel ? {} : { value: anomaly.value }),
      start: formatDayNumber(anomaly.startDay),
      end: formatDayNumber(anomaly.endDay),
    }));
    const { scope } = tags;
    const { sql, params } = buildRootCausesQuery(costRowsTable(this.clickhouse), {
      scope,
      filters: request.filters ?? {},
      monitored,
      monitoredValues: seriesValues.filter((value) => value !== ANOMALY_LIMITS.otherLabel),
      anomalies: windows,
      baselineWeeks: ANOMALY_LIMITS.rootCauseBaselineWeeks,
      leftOutCategories: ANOMALY_LIMITS.leftOutCategories,
      tagSource: tags.source,
      conversion: money.conversion,
    });
    const rows = await this.clickhouse.query<{
      anomaly: number;
      cause_dimension: string;
      cause_value: string;
      actual: string;
      baseline: string;
    }>(sql, params, scope);
    const causes: RankedCause[][] = found.map(() => []);
    for (const row of rows) {
      const anomaly = found[Number(row.anomaly) - 1];
      const expected = Number(row.baseline) / ANOMALY_LIMITS.rootCauseBaselineWeeks;
      const contribution = Number(row.actual) - expected;
      if (contribution <= 0) continue;
      causes[Number(row.anomaly) - 1].push({
        dimension: row.cause_dimension,
        value: row.cause_value,
        contribution: round4(contribution),
        explains: contribution >= anomaly.impact / 2,
        rise: expected > 0 ? contribution / expected : Number.POSITIVE_INFINITY,
      });
    }
    return causes.map((list) =>
      bestPerDimension(list)
        .sort(byExplanation)
        .slice(0, ANOMALY_LIMITS.rootCauses)
        .map(({ dimension, value, contribution }) => ({ dimension, value, contribution })),
    );
  }
}

/** A root cause with what ranks it: whether it carries half the anomaly's impact, and how much it rose for its size. */
interface RankedCause extends RootCause {
  explains: boolean;
  rise: number;
}

/** Each dimension's value that contributed most (one account, one region, one value per tag key). */
function bestPerDimension(causes: RankedCause[]): RankedCause[] {
  const best = new Map<string, RankedCause>();
  for (const cause of causes) {
    const known = best.get(cause.dimension);
    if (!known || cause.contribution > known.contribution || (cause.contribution === known.contribution && cause.value < known.value)) {
      best.set(cause.dimension, cause);
    }
  }
  return [...best.values()];
}

/**
 * The causes that carry at least half of the impact first, in the order a FinOps team acts on them — who (account),
 * what (service), where (region), which usage (usage type) — then tags, the one that rose most for its size first;
 * then the rest by contribution. Ties in dimension and value order.
 */
function byExplanation(a: RankedCause, b: RankedCause): number {
  if (a.explains !== b.explains) return a.explains ? -1 : 1;
  if (a.explains) {
    const byPriority = priority(a.dimension) - priority(b.dimension);
    if (byPriority) return byPriority;
    if (a.rise !== b.rise) return b.rise - a.rise;
  }
  return b.contribution - a.contribution || a.dimension.localeCompare(b.dimension) || a.value.localeCompare(b.value);
}

/** ROOT_CAUSE_DIMENSIONS' order, tags after them. */
function priority(dimension: string): number {
  const index = (ROOT_CAUSE_DIMENSIONS as readonly string[]).indexOf(dimension);
  return index >= 0 ? index : ROOT_CAUSE_DIMENSIONS.length;
}

/** The days scanned: the request's (its end capped at the last complete day), else the default span up to it. */
function scannedRange(requested: DateRange | undefined, lastComplete: string): DateRange {
  if (!requested) return { start: addDays(lastComplete, -(ANOMALY_LIMITS.defaultDays - 1)), end: lastComplete };
  if (requested.start > lastComplete) {
    throw new InvalidRequestException([
      `dateRange: anomalies are found in complete days, up to ${lastComplete} (yesterday, UTC); received a range starting ${requested.start}`,
    ]);
  }
  const end = requested.end < lastComplete ? requested.end : lastComplete;
  const days = dayNumber(end) - dayNumber(requested.start) + 1;
  if (days > ANOMALY_LIMITS.maxDays) {
    throw new InvalidRequestException([`dateRange: at most ${ANOMALY_LIMITS.maxDays} days are scanned at once; received ${days}`]);
  }
  return { start: requested.start, end };
}

/** The days of a value's anomalies whose feedback says they were expected, seasonal or a migration. */
function excludedDays(feedback: AnomalyFeedback[], value: string): Set<number> {
  const days = new Set<number>();
  for (const entry of feedback) {
    if (entry.dimensionValue !== value || !BASELINE_EXCLUDING.includes(entry.reason)) continue;
    for (let day = dayNumber(entry.start); day <= dayNumber(entry.end); day++) days.add(day);
  }
  return days;
}

/**
 * The first day with costs of any series: before it the organisation had no data (not zero costs), so it is no
 * baseline; a value whose costs start later (a new service, account or tag) is judged against its zeros.
 */
function firstCostIndex(series: Map<string, number[]>): number {
  const firsts = [...series.values()].map((values) => values.findIndex((value) => value !== 0)).filter((index) => index >= 0);
  return firsts.length ? Math.min(...firsts) : 0;
}

function newestFirst(found: Found[]): Found[] {
  return [...found].sort((a, b) => b.startDay - a.startDay || b.impact - a.impact || a.value.localeCompare(b.value));
}

/**
 * Stable while later scans extend the anomaly: the organisation, the monitored dimension, the value, the first day,
 * keyed (HMAC-SHA256 with the installation's secret, 96 bits kept) so that no one can compute an id to probe for an
 * anomaly outside what their key sees.
 */
function anomalyId(key: Buffer, organizationId: string, dimension: string, anomaly: Found): string {
  const digest = createHmac('sha256', key)
    .update(JSON.stringify([organizationId.toLowerCase(), dimension, anomaly.value, anomaly.startDay]))
    .digest('hex');
  return `an_${digest.slice(0, 24)}`;
}

/** An anomaly's series and first day: what its id stands for, whichever id (keyed, or an earlier release's) feedback was given under. */
function seriesDay(value: string, start: string): string {
  return JSON.stringify([value, start]);
}

/**
 * The latest feedback per anomaly, by its series and first day rather than its id: feedback given under the unkeyed
 * ids of earlier releases keeps applying (its baselines and its reason), and a newer one under the keyed id replaces it.
 */
function latestPerAnomaly(feedback: AnomalyFeedback[]): AnomalyFeedback[] {
  const latest = new Map<string, AnomalyFeedback>();
  for (const entry of feedback) {
    const key = seriesDay(entry.dimensionValue, entry.start);
    const known = latest.get(key);
    if (!known || entry.recordedAt > known.recordedAt) latest.set(key, entry);
  }
  return [...latest.values()];
}

function toAnomaly(anomaly: Found, id: string, rootCauses: RootCause[], reasons: Map<string, FeedbackReason>): Anomaly {
  return {
    id,
    start: formatDayNumber(anomaly.startDay),
    end: formatDayNumber(anomaly.endDay),
    dimension_value: anomaly.value,
    expected: round4(anomaly.expected),
    actual: round4(anomaly.actual),
    impact: round4(anomaly.impact),
    impactPercentage: anomaly.impactPercentage === null ? null : Math.round(anomaly.impactPercentage * 100) / 100,
    score: Math.round(anomaly.score * 100) / 100,
    rootCauses,
    feedback: reasons.get(seriesDay(anomaly.value, formatDayNumber(anomaly.startDay))) ?? null,
  };
}

const round4 = (value: number) => Math.round(value * 10_000) / 10_000 + 0;
