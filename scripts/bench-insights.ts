/**
 * Issue 32's accuracy bench (not a test): anomalies and forecasts on labelled demo estates.
 *
 *   npm run -s bench:insights [-- --seeds 5] [--first-seed 11] [--anomalies 10] [--min-share 0.2]
 *
 * The defaults (thresholds, scale, intervals) were chosen on seeds 1–10; the report's seeds start at 11 (held out).
 * Per seed, a demo estate of 245 days up to 2026-10-31 (its own organisation, EUR rates loaded) with `--anomalies`
 * labelled anomalies injected in its last 84 days (src/demo/labelled-anomalies.ts: spikes, level shifts, slow leaks,
 * each a share ≥ `--min-share` of its service's typical daily cost, in one account's usage). Then, through the
 * application's own services on embedded ClickHouse:
 * - Anomalies: one scan of the last 90 days by service at the default thresholds. A detection is true when it
 *   overlaps a label of its service; precision = true detections / detections, recall = labels found / labels; the
 *   root cause is right when the first (or one of the first three) names the injected account.
 * - Forecasts: the month-end total of August, September and October from origins on days 5, 10, 15, 20 and 25 (the
 *   model fitted on the days up to the origin), against two baselines on the same daily series: seasonal naive (each
 *   remaining day = the same weekday of the last week before the origin) and least squares over the last 30 days (as
 *   Red Hat Cost Management does). MAPE of the month totals; the share of actual days inside their daily 80 %
 *   intervals, and of month totals inside theirs.
 * Results: bench/results/<timestamp>-insights.{json,md}.
 */
import { randomUUID } from 'node:crypto';
import { mkdirSync, rmSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { cpus, totalmem } from 'node:os';
import { NestExpressApplication } from '@nestjs/platform-express';
import { AnomaliesService, Anomaly } from '../src/anomalies/anomalies.service';
import { ANOMALY_LIMITS } from '../src/anomalies/anomaly-limits';
import { createApp } from '../src/app.factory';
import { addDays, dayNumber } from '../src/common/dates/calendar-date';
import { lastDayOfPeriod } from '../src/common/money/exchange-rates';
import type { CostLineItemRow } from '../src/cost-query/cost-line-item';
import { CurrencyRepository } from '../src/store/repositories/currency.repository';
import { withoutDefaults } from '../src/demo/demo-data.loader';
import { generateDemoRows } from '../src/demo/demo-data.generator';
import { demoExchangeRates } from '../src/demo/demo-exchange-rates';
import { Candidate, InjectedAnomaly, planLabelledAnomalies } from '../src/demo/labelled-anomalies';
import { ForecastsService } from '../src/forecasts/forecasts.service';
import { ClickhouseService } from '../src/store/clickhouse/clickhouse.service';
import { migrate } from '../src/store/schema/migrator';

const LAST_DAY = '2026-10-31';
const TODAY = addDays(LAST_DAY, 1);
const DAYS = 245;
const SCANNED_DAYS = 90;
/** Labels lie in the last 84 days, their baselines (28 days) inside the generated history. */
const LABELLED_DAYS = 84;
const MONTHS = ['2026-08', '2026-09', '2026-10'];
const ORIGIN_DAYS = [5, 10, 15, 20, 25];
/** A candidate stream's service costs at least this much a day: a 20 % anomaly then exceeds minImpact twice over. */
const MIN_SERVICE_DAILY = 50;
const BATCH_ROWS = 25_000;

function arg(name: string, fallback: number): number {
  const i = process.argv.indexOf(`--${name}`);
  return i >= 0 ? Number(process.argv[i + 1]) : fallback;
}
const log = (message: string) => process.stdout.write(`${message}\n`);

interface Label {
  seed: number;
  label: InjectedAnomaly;
}

interface Detection {
  seed: number;
  anomaly: Anomaly;
  /** The label it overlaps (the same object as in its Label). */
  label?: InjectedAnomaly;
}

interface ForecastCase {
  seed: number;
  month: string;
  origin: string;
  actual: number;
  model: { mean: number; lower: number; upper: number };
  seasonalNaive: number;
  leastSquares30: number;
  daysInside: number;
  daysJudged: number;
}

async function main(): Promise<void> {
  const seeds = arg('seeds', 5);
  const firstSeed = arg('first-seed', 11);
  const perSeed = arg('anomalies', 10);
  const minShare = arg('min-share', 0.2);
  const dir = resolve('.test-tmp/bench-insights');
  rmSync(dir, { recursive: true, force: true });
  mkdirSync(dir, { recursive: true });
  const app = await startApp(dir);
  const clickhouse = app.get(ClickhouseService);
  const labels: Label[] = [];
  const detections: Detection[] = [];
  const forecastCases: ForecastCase[] = [];
  const scanMs: number[] = [];
  for (let seed = firstSeed; seed < firstSeed + seeds; seed++) {
    const organizationId = randomUUID();
    const began = Date.now();
    const candidates = await loadEstate(clickhouse, organizationId, seed);
    const plan = planLabelledAnomalies(
      candidates,
      { from: addDays(LAST_DAY, -(LABELLED_DAYS - 1)), to: LAST_DAY },
      { seed, count: perSeed, minShare },
    );
    await clickhouse.insert('cost_line_items', plan.rows.map(withoutDefaults));
    labels.push(...plan.anomalies.map((label) => ({ seed, label })));
    log(`seed ${seed}: estate loaded with ${plan.anomalies.length} labelled anomalies in ${((Date.now() - began) / 1000).toFixed(1)} s`);

    const scope = { organizationId };
    const scanStarted = Date.now();
    const scan = await app
      .get(AnomaliesService)
      .scan(scope, { dateRange: { start: addDays(LAST_DAY, -(SCANNED_DAYS - 1)), end: LAST_DAY } }, TODAY);
    scanMs.push(Date.now() - scanStarted);
    for (const anomaly of scan.anomalies) {
      const label = plan.anomalies.find((l) => l.service === anomaly.dimension_value && anomaly.start <= l.end && l.start <= anomaly.end);
      detections.push({ seed, anomaly, label });
    }
    forecastCases.push(...(await forecastCasesOf(app.get(ForecastsService), organizationId, seed)));
  }
  await app.close();
  const report = summarise({ seeds, firstSeed, perSeed, minShare, labels, detections, forecastCases, scanMs });
  const stamp = new Date().toISOString().replace(/[:.]/g, '-');
  const base = resolve('bench/results', `${stamp}-insights`);
  writeFileSync(
    `${base}.json`,
    `${JSON.stringify({ ...report, labels, detections: detections.map(compactDetection), forecastCases }, null, 2)}\n`,
  );
  writeFileSync(`${base}.md`, markdown(report));
  log(markdown(report));
  log(`written to bench/results/${stamp}-insights.{json,md}`);
}

async function startApp(dir: string): Promise<NestExpressApplication> {
  const app = await createApp({
    logger: false,
    settings: {
      DATA_DIR: join(dir, 'data'),
      CLICKHOUSE_URL: '',
      REDIS_URL: '',
      DEMO_ON_EMPTY_STORE: 'false',
      INGEST_WORKER: 'false',
      RESULT_CACHE_MAX_MB: '0',
    },
  });
  await migrate(app.get(ClickhouseService));
  await app.init();
  return app;
}

/**
 * Loads the seed's demo estate and its EUR rates; returns the streams an anomaly may be injected into: Usage rows
 * billed in USD (the answers' currency: a label's share is then in the amounts the detector reads) of services that
 * cost at least MIN_SERVICE_DAILY a day.
 */
async function loadEstate(clickhouse: ClickhouseService, organizationId: string, seed: number): Promise<Candidate[]> {
  const from = addDays(LAST_DAY, -(DAYS - 1));
  const daily = new Map<string, Map<string, number>>();
  const templates = new Map<string, CostLineItemRow>();
  let batch: Record<string, unknown>[] = [];
  for (const day of generateDemoRows({ organizationId, from, to: LAST_DAY, seed })) {
    for (const row of day) {
      batch.push(withoutDefaults(row));
      if (ANOMALY_LIMITS.leftOutCategories.includes(row.charge_category as never) || row.billing_currency !== 'USD') continue;
      const byDay = daily.get(row.service) ?? new Map<string, number>();
      daily.set(row.service, byDay);
      byDay.set(row.usage_date, (byDay.get(row.usage_date) ?? 0) + Number(row.amortized_cost));
      if (row.cost_type === 'Usage' && !templates.has(`${row.service}|${row.account_id}`))
        templates.set(`${row.service}|${row.account_id}`, row);
    }
    if (batch.length >= BATCH_ROWS) {
      await clickhouse.insert('cost_line_items', batch);
      batch = [];
    }
  }
  await clickhouse.insert('cost_line_items', batch);
  await new CurrencyRepository(clickhouse).insertRates(organizationId, demoExchangeRates(from, LAST_DAY, seed));
  return [...templates].flatMap(([key, template]) => {
    const [service, accountId] = key.split('|');
    const serviceDaily = daily.get(service)!;
    const values = [...serviceDaily.values()].sort((a, b) => a - b);
    return values[values.length >> 1] >= MIN_SERVICE_DAILY ? [{ service, accountId, template, serviceDaily }] : [];
  });
}

/** The month-end forecasts of MONTHS from each origin, by the model and the two baselines. */
async function forecastCasesOf(forecasts: ForecastsService, organizationId: string, seed: number): Promise<ForecastCase[]> {
  const scope = { organizationId };
  // The daily series a forecast reads (one-offs left out, converted), up to the last day: the actuals.
  const whole = await forecasts.forecast(scope, { forecastEnd: addDays(TODAY, 1) }, TODAY);
  const actual = new Map(whole.series[0].actuals.map(({ date, amount }) => [date, amount]));
  const cases: ForecastCase[] = [];
  for (const month of MONTHS) {
    const monthEnd = lastDayOfPeriod(month);
    const days = Array.from({ length: Number(monthEnd.slice(8)) }, (_, i) => `${month}-${String(i + 1).padStart(2, '0')}`);
    const monthTotal = days.reduce((sum, day) => sum + actual.get(day)!, 0);
    for (const originDay of ORIGIN_DAYS) {
      const origin = days[originDay - 1];
      const answer = await forecasts.forecast(scope, { forecastEnd: monthEnd }, addDays(origin, 1));
      const series = answer.series[0];
      const soFar = days.slice(0, originDay).reduce((sum, day) => sum + actual.get(day)!, 0);
      const rest = days.slice(originDay);
      const inside = series.points.filter((point) => {
        const value = actual.get(point.date)!;
        return value >= point.lower && value <= point.upper;
      }).length;
      cases.push({
        seed,
        month,
        origin,
        actual: monthTotal,
        model: { mean: series.current_month.mean, lower: series.current_month.lower, upper: series.current_month.upper },
        seasonalNaive: soFar + rest.reduce((sum, day) => sum + seasonalNaive(actual, origin, day), 0),
        leastSquares30: soFar + rest.reduce((sum, day) => sum + leastSquares30(actual, origin, day), 0),
        daysInside: inside,
        daysJudged: series.points.length,
      });
    }
  }
  return cases;
}

/** The same weekday in the last week up to the origin. */
function seasonalNaive(actual: Map<string, number>, origin: string, day: string): number {
  const back = Math.ceil((dayNumber(day) - dayNumber(origin)) / 7) * 7;
  return actual.get(addDays(day, -back))!;
}

/** A straight line fitted to the 30 days up to the origin, continued. */
function leastSquares30(actual: Map<string, number>, origin: string, day: string): number {
  const xs = Array.from({ length: 30 }, (_, i) => i - 29);
  const ys = xs.map((x) => actual.get(addDays(origin, x))!);
  const meanX = xs.reduce((a, b) => a + b, 0) / 30;
  const meanY = ys.reduce((a, b) => a + b, 0) / 30;
  const slope = xs.reduce((sum, x, i) => sum + (x - meanX) * (ys[i] - meanY), 0) / xs.reduce((sum, x) => sum + (x - meanX) ** 2, 0);
  return meanY + slope * (dayNumber(day) - dayNumber(origin) - meanX);
}

interface Report {
  machine: string;
  seeds: number;
  firstSeed: number;
  perSeed: number;
  minShare: number;
  anomalies: {
    labels: number;
    detections: number;
    truePositives: number;
    precision: number;
    labelsFound: number;
    recall: number;
    recallByKind: Record<string, string>;
    rootCauseFirst: number;
    rootCauseTop3: number;
    falsePositives: string[];
    missed: string[];
    scanMsMedian: number;
  };
  forecasts: {
    cases: number;
    mape: { model: number; seasonalNaive: number; leastSquares30: number };
    improvementOverBetterBaseline: number;
    dailyIntervalCoverage: number;
    monthIntervalCoverage: number;
  };
}

function summarise(input: {
  seeds: number;
  firstSeed: number;
  perSeed: number;
  minShare: number;
  labels: Label[];
  detections: Detection[];
  forecastCases: ForecastCase[];
  scanMs: number[];
}): Report {
  const { labels, detections, forecastCases } = input;
  const truePositives = detections.filter((d) => d.label);
  const found = labels.filter(({ label }) => truePositives.some((d) => d.label === label));
  const kinds = ['spike', 'level-shift', 'slow-leak'];
  const names = (d: Detection, n: number) =>
    d.anomaly.rootCauses.slice(0, n).some((cause) => cause.dimension === 'account' && cause.value === d.label!.accountId);
  const mape = (pick: (c: ForecastCase) => number) =>
    forecastCases.reduce((sum, c) => sum + Math.abs(pick(c) - c.actual) / c.actual, 0) / forecastCases.length;
  const model = mape((c) => c.model.mean);
  const seasonalNaiveMape = mape((c) => c.seasonalNaive);
  const leastSquaresMape = mape((c) => c.leastSquares30);
  const sorted = [...input.scanMs].sort((a, b) => a - b);
  return {
    machine: `${cpus()[0]?.model ?? 'unknown CPU'}, ${cpus().length} cores, ${(totalmem() / 1024 ** 3).toFixed(1)} GiB, Node ${process.version}`,
    seeds: input.seeds,
    firstSeed: input.firstSeed,
    perSeed: input.perSeed,
    minShare: input.minShare,
    anomalies: {
      labels: labels.length,
      detections: detections.length,
      truePositives: truePositives.length,
      precision: ratio(truePositives.length, detections.length),
      labelsFound: found.length,
      recall: ratio(found.length, labels.length),
      recallByKind: Object.fromEntries(
        kinds.map((kind) => {
          const all = labels.filter(({ label }) => label.kind === kind);
          return [kind, `${all.filter((l) => found.includes(l)).length}/${all.length}`];
        }),
      ),
      rootCauseFirst: ratio(truePositives.filter((d) => names(d, 1)).length, truePositives.length),
      rootCauseTop3: ratio(truePositives.filter((d) => names(d, 3)).length, truePositives.length),
      falsePositives: detections
        .filter((d) => !d.label)
        .map(
          (d) =>
            `seed ${d.seed} ${d.anomaly.dimension_value} ${d.anomaly.start}…${d.anomaly.end} +${d.anomaly.impactPercentage}% (score ${d.anomaly.score})`,
        ),
      missed: labels
        .filter((l) => !found.includes(l))
        .map(({ seed, label: l }) => `seed ${seed} ${l.kind} ${l.service} ${l.start}…${l.end} share ${l.share}`),
      scanMsMedian: sorted[sorted.length >> 1] ?? 0,
    },
    forecasts: {
      cases: forecastCases.length,
      mape: { model: round(model), seasonalNaive: round(seasonalNaiveMape), leastSquares30: round(leastSquaresMape) },
      improvementOverBetterBaseline: round(1 - model / Math.min(seasonalNaiveMape, leastSquaresMape)),
      dailyIntervalCoverage: ratio(
        forecastCases.reduce((sum, c) => sum + c.daysInside, 0),
        forecastCases.reduce((sum, c) => sum + c.daysJudged, 0),
      ),
      monthIntervalCoverage: ratio(
        forecastCases.filter((c) => c.actual >= c.model.lower && c.actual <= c.model.upper).length,
        forecastCases.length,
      ),
    },
  };
}

function compactDetection(d: Detection) {
  const { id: _id, ...anomaly } = d.anomaly;
  return { seed: d.seed, ...anomaly, label: d.label ? `${d.label.kind} ${d.label.start}…${d.label.end} ${d.label.accountId}` : null };
}

const ratio = (a: number, b: number) => (b === 0 ? 0 : round(a / b));
const round = (value: number) => Math.round(value * 10_000) / 10_000;
const pct = (value: number) => `${(value * 100).toFixed(1)} %`;

function markdown(report: Report): string {
  const a = report.anomalies;
  const f = report.forecasts;
  const check = (ok: boolean) => (ok ? '✓ met' : '✗ missed');
  return [
    `# Insights accuracy ${new Date().toISOString()}`,
    '',
    `Machine: ${report.machine}. ${report.seeds} labelled demo estates (seeds ${report.firstSeed}–${report.firstSeed + report.seeds - 1}), 245 days up to ${LAST_DAY}, ${report.perSeed} anomalies each (share ≥ ${report.minShare} of their service's typical daily cost), default thresholds (minImpact ${ANOMALY_LIMITS.defaultMinImpact}, minImpactPercentage ${ANOMALY_LIMITS.defaultMinImpactPercentage}, score ${ANOMALY_LIMITS.scoreThreshold}).`,
    '',
    '## Targets',
    '',
    `- ${check(a.precision >= 0.9)}: anomaly precision ≥ 0.9: ${a.precision} (${a.truePositives} of ${a.detections} detections)`,
    `- ${check(a.recall >= 0.9)}: anomaly recall ≥ 0.9: ${a.recall} (${a.labelsFound} of ${a.labels} labels; by kind ${JSON.stringify(a.recallByKind)})`,
    `- ${check(a.rootCauseFirst >= 0.9)}: root cause names the injected account in ≥ 90 % of detected anomalies: first cause ${pct(a.rootCauseFirst)}, among the first three ${pct(a.rootCauseTop3)}`,
    `- ${check(f.improvementOverBetterBaseline >= 0.2)}: month-end MAPE ≥ 20 % lower than the better baseline: model ${pct(f.mape.model)}, seasonal naive ${pct(f.mape.seasonalNaive)}, least squares 30 days ${pct(f.mape.leastSquares30)} → ${pct(f.improvementOverBetterBaseline)} lower (${f.cases} forecasts)`,
    `- ${check(f.dailyIntervalCoverage >= 0.75 && f.dailyIntervalCoverage <= 0.85)}: 80 % intervals contain 75–85 % of actual days: ${pct(f.dailyIntervalCoverage)} (month totals inside their 80 % interval: ${pct(f.monthIntervalCoverage)})`,
    '',
    `Scan of 90 days (by service, root causes included), median ${a.scanMsMedian} ms per estate.`,
    '',
    `False positives (${a.falsePositives.length}):`,
    ...a.falsePositives.map((line) => `- ${line}`),
    '',
    `Missed labels (${a.missed.length}):`,
    ...a.missed.map((line) => `- ${line}`),
    '',
  ].join('\n');
}

main().catch((error: unknown) => {
  process.stderr.write(`${error instanceof Error ? (error.stack ?? error.message) : String(error)}\n`);
  process.exit(1);
});
