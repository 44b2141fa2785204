/**
 * The issue's four targets (and later issues' when measured), judged on the unrounded ratios of one run's p50s (the tables round to two places:
 * 1.1511 would print as 1.15 and still miss "≤ 1.15").
 */
export const TARGETS = {
  apiOverClickhouseMax: 1.15,
  postgresOverApiMin: 20,
  preAggregationMin: 10,
  smallRequestShareMin: 0.4,
  /** Issue 23: a question by a tag costs at most this many times the same question by a column. */
  tagOverColumnMax: 1.5,
  /** Issue 23: the 12-month monthly tag question from the tag projection, against the raw line items (judged at 30M). */
  tagPreAggregationMin: 10,
  /** Issue 34: a question naming only activated keys costs at most this many times the same question by a column. */
  activatedTagOverColumnMax: 1.3,
  /** Issue 29: a question whose costs are converted at each day's rate, against the same question with nothing to convert. */
  convertedOverUnconvertedMax: 1.15,
  /** Issue 32: a forecast or an anomaly scan, against the /data question that reads the same days. */
  insightOverDataMax: 2,
} as const;

export interface MeasuredRun {
  cases: Array<{ case: string; api: { p50: number }; clickhouse: { p50: number }; postgres?: { p50: number } }>;
  projection: { rawScan: { p50: number }; projection: { p50: number }; engine: { rawScan: { p50: number }; projection: { p50: number } } };
  throughput: { probe: { requestsPerSecond: number }; tinyData: { requestsPerSecond: number } };
  tagPairs?: Array<{ pair: string; column: { api: { p50: number } }; tag: { api: { p50: number } } }>;
  tagProjection?: { rawScan: { p50: number }; projection: { p50: number } };
  conversions?: Array<{ case: string; unconverted: { p50: number }; converted: { p50: number } }>;
  insights?: Array<{ case: string; data: { p50: number }; insight: { p50: number } }>;
  activated?: {
    pairs: Array<{ pair: string; column: { api: { p50: number } }; tag: { api: { p50: number } } }>;
    insights?: Array<{ case: string; data: { p50: number }; insight: { p50: number } }>;
  };
}

export interface TargetVerdict {
  target: string;
  /** undefined when the run did not measure it (e.g. --skip-postgres). */
  met: boolean | undefined;
  detail: string;
}

const ratio = (n: number) => n.toFixed(4);

export function judgeTargets(run: MeasuredRun): TargetVerdict[] {
  const overhead = run.cases.map((c) => ({ name: c.case, value: c.api.p50 / c.clickhouse.p50 }));
  const missedOverhead = overhead.filter((c) => c.value > TARGETS.apiOverClickhouseMax);
  const withPostgres = run.cases.filter((c) => c.postgres);
  const versusPostgres = withPostgres.map((c) => ({ name: c.case, value: c.postgres!.p50 / c.api.p50 }));
  const missedPostgres = versusPostgres.filter((c) => c.value < TARGETS.postgresOverApiMin);
  const { projection } = run;
  const client = projection.rawScan.p50 / projection.projection.p50;
  const engine = projection.engine.rawScan.p50 / projection.engine.projection.p50;
  const share = run.throughput.tinyData.requestsPerSecond / run.throughput.probe.requestsPerSecond;
  const range = (values: number[], digits: (n: number) => string) => `${digits(Math.min(...values))}–${digits(Math.max(...values))}`;
  const missedList = (missed: Array<{ name: string; value: number }>, digits: (n: number) => string) =>
    missed.map((c) => `${c.name} ${digits(c.value)}`).join('; ');
  return [
    {
      target: `API ÷ ClickHouse ≤ ${TARGETS.apiOverClickhouseMax} (p50), every case`,
      met: missedOverhead.length === 0,
      detail:
        `${range(
          overhead.map((c) => c.value),
          ratio,
        )}` + (missedOverhead.length ? `; missed by ${missedList(missedOverhead, ratio)}` : ''),
    },
    {
      target: `PostgreSQL ÷ API ≥ ${TARGETS.postgresOverApiMin} (p50), every case`,
      met: withPostgres.length === run.cases.length ? missedPostgres.length === 0 : undefined,
      detail:
        withPostgres.length === 0
          ? 'not measured (--skip-postgres)'
          : `${range(
              versusPostgres.map((c) => c.value),
              (n) => n.toFixed(2),
            )}` + (missedPostgres.length ? `; missed by ${missedList(missedPostgres, (n) => n.toFixed(2))}` : ''),
    },
    {
      target: `pre-aggregation ≥ ${TARGETS.preAggregationMin}× (12-month monthly case, p50 as the client sees it)`,
      met: client >= TARGETS.preAggregationMin,
      detail: `×${client.toFixed(2)} as the client sees it, ×${engine.toFixed(2)} in the engine`,
    },
    {
      target: `small requests ≥ ${TARGETS.smallRequestShareMin * 100} % of the trivial authenticated endpoint`,
      met: share >= TARGETS.smallRequestShareMin,
      detail: `${(share * 100).toFixed(1)} %`,
    },
    ...judgeTagTargets(run),
    ...judgeActivatedTarget(run),
    ...judgeConversionTarget(run),
    ...judgeInsightTarget(run),
  ];
}

/** Issue 34's speed target, when the run measured it (--activated). */
function judgeActivatedTarget(run: MeasuredRun): TargetVerdict[] {
  if (!run.activated?.pairs.length) return [];
  const pairs = run.activated.pairs.map((p) => ({ name: p.pair, value: p.tag.api.p50 / p.column.api.p50 }));
  const missed = pairs.filter((p) => p.value > TARGETS.activatedTagOverColumnMax);
  return [
    {
      target: `a question naming only activated keys ≤ ${TARGETS.activatedTagOverColumnMax}× the same question by a column (API p50), every pair`,
      met: missed.length === 0,
      detail:
        `${ratio(Math.min(...pairs.map((p) => p.value)))}–${ratio(Math.max(...pairs.map((p) => p.value)))}` +
        (missed.length ? `; missed by ${missed.map((p) => `${p.name} ${ratio(p.value)}`).join('; ')}` : ''),
    },
  ];
}

/**
 * Issue 32's speed target, when the run measured it: as the organisation first is, and (--activated) once it has
 * activated keys, where the scan's root causes look in them.
 */
function judgeInsightTarget(run: MeasuredRun): TargetVerdict[] {
  const target = `a forecast or an anomaly scan ≤ ${TARGETS.insightOverDataMax}× the /data question that reads the same days (API p50)`;
  return [
    ...insightVerdict(target, run.insights),
    ...insightVerdict(`${target}, the organisation's tag keys activated`, run.activated?.insights),
  ];
}

function insightVerdict(target: string, insights: MeasuredRun['insights']): TargetVerdict[] {
  if (!insights?.length) return [];
  const cases = insights.map((c) => ({ name: c.case, value: c.insight.p50 / c.data.p50 }));
  const missed = cases.filter((c) => c.value > TARGETS.insightOverDataMax);
  return [
    {
      target,
      met: missed.length === 0,
      detail:
        cases.map((c) => `${c.name} ${ratio(c.value)}`).join('; ') +
        (missed.length ? `; missed by ${missed.map((c) => c.name).join(', ')}` : ''),
    },
  ];
}

/** Issue 29's target, when the run measured it. */
function judgeConversionTarget(run: MeasuredRun): TargetVerdict[] {
  if (!run.conversions) return [];
  const target = `a converted question ≤ ${TARGETS.convertedOverUnconvertedMax}× the same question with nothing to convert (API p50)`;
  if (run.conversions.length === 0) return [{ target, met: undefined, detail: 'not measured (--skip-conversion)' }];
  const cases = run.conversions.map((c) => ({ name: c.case, value: c.converted.p50 / c.unconverted.p50 }));
  const missed = cases.filter((c) => c.value > TARGETS.convertedOverUnconvertedMax);
  return [
    {
      target,
      met: missed.length === 0,
      detail:
        cases.map((c) => `${c.name} ${ratio(c.value)}`).join('; ') +
        (missed.length ? `; missed by ${missed.map((c) => c.name).join(', ')}` : ''),
    },
  ];
}

/** Issue 23's two targets, when the run measured them. */
function judgeTagTargets(run: MeasuredRun): TargetVerdict[] {
  if (!run.tagPairs || !run.tagProjection) return [];
  const pairs = run.tagPairs.map((p) => ({ name: p.pair, value: p.tag.api.p50 / p.column.api.p50 }));
  const missed = pairs.filter((p) => p.value > TARGETS.tagOverColumnMax);
  const speedup = run.tagProjection.rawScan.p50 / run.tagProjection.projection.p50;
  return [
    {
      target: `a question by a tag ≤ ${TARGETS.tagOverColumnMax}× the same question by a column (API p50), every pair`,
      met: missed.length === 0,
      detail:
        `${ratio(Math.min(...pairs.map((p) => p.value)))}–${ratio(Math.max(...pairs.map((p) => p.value)))}` +
        (missed.length ? `; missed by ${missed.map((p) => `${p.name} ${ratio(p.value)}`).join('; ')}` : ''),
    },
    {
      target: `the 12-month monthly tag question ≥ ${TARGETS.tagPreAggregationMin}× faster than the raw line items (p50; the issue judges it at 30M)`,
      met: speedup >= TARGETS.tagPreAggregationMin,
      detail: `×${speedup.toFixed(2)}`,
    },
  ];
}
