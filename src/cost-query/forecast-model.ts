/**
 * The forecast of a daily cost series: ordinary least squares on a level, a linear trend, the day of the week and the
 * first day of the month (commitment fees, support plans and marketplace charges land there), fitted on the series'
 * last TRAINING_DAYS days. Prediction intervals come from the residuals and the uncertainty of the fitted terms, so
 * a short or noisy history gets wide intervals; a total's interval accounts for its days' shared terms. Pure: no I/O.
 */

/** Fewest days of history a forecast is made from (two weeks: every weekday twice). */
export const MIN_HISTORY_DAYS = 14;
/** Most days of history the model is fitted on (13 weeks: recent behaviour, three month starts). */
export const TRAINING_DAYS = 91;
/** Days of history a forecast reads: the training days and four weeks before them for the backtest's earliest origin. */
export const READ_HISTORY_DAYS = TRAINING_DAYS + 28;
/** The name of the method, as answers state it. */
export const FORECAST_METHOD = 'least squares: level, linear trend, day of week, first day of month';

/** A fitted model: predicts day `index` (0 = the first training day). */
export interface FittedModel {
  /** The terms' coefficients, in `terms` order. */
  coefficients: number[];
  /** (XᵀX)⁻¹: the terms' covariance over σ². */
  inverse: number[][];
  /** Standard deviation of the residuals (0 for a series the terms explain exactly). */
  sigma: number;
  /** Which terms were fitted (a weekday or the month start absent from the training days is left out). */
  terms: Term[];
  /** Day number (days since 1970-01-01) of the first training day. */
  firstDay: number;
  trainingDays: number;
  /** Lag-1 autocorrelation of the residuals (0 to 0.9): a total's days err together. */
  autocorrelation: number;
  /** How much wider than the residuals say the intervals are, from the model's own errors out of sample (≥ 1). */
  inflation: number;
  /** The same for totals of several days, from the model's own errors of such totals (≥ 1): their days err together. */
  totalInflation: number;
}

type Term = { kind: 'level' } | { kind: 'trend' } | { kind: 'weekday'; weekday: number } | { kind: 'monthStart' };

/** A day's value or a span's total: the mean and the interval at the requested level. */
export interface Estimate {
  mean: number;
  lower: number;
  upper: number;
}

/** The features of a day: 1, the trend (in weeks), a dummy per weekday but Monday, and the month's first day. */
function features(terms: Term[], dayNumber: number, firstDay: number): number[] {
  const weekday = (((dayNumber + 4) % 7) + 7) % 7; // day 0, 1970-01-01, was a Thursday
  const row = new Array<number>(terms.length);
  for (let j = 0; j < terms.length; j++) {
    const term = terms[j];
    if (term.kind === 'level') row[j] = 1;
    else if (term.kind === 'trend') row[j] = (dayNumber - firstDay) / 7;
    else if (term.kind === 'weekday') row[j] = weekday === term.weekday ? 1 : 0;
    else row[j] = new Date(dayNumber * 86_400_000).getUTCDate() === 1 ? 1 : 0;
  }
  return row;
}

/** Fits the model on `values` (one per day from `firstDay`, a day number), its last TRAINING_DAYS days. */
export function fitModel(values: readonly number[], firstDay: number): FittedModel {
  const skip = Math.max(0, values.length - TRAINING_DAYS);
  const y = values.slice(skip);
  const start = firstDay + skip;
  const days = y.map((_, i) => start + i);
  const candidates: Term[] = [
    { kind: 'level' },
    { kind: 'trend' },
    ...[0, 2, 3, 4, 5, 6].map((weekday) => ({ kind: 'weekday' as const, weekday })),
    { kind: 'monthStart' },
  ];
  // A dummy that is 0 on every training day cannot be fitted (and would make XᵀX singular).
  const terms = candidates.filter((term, i) => i < 2 || days.some((day) => features([term], day, start)[0] !== 0));
  const x = days.map((day) => features(terms, day, start));
  const inverse = invert(gram(x));
  const xty = terms.map((_, j) => {
    let total = 0;
    for (let i = 0; i < x.length; i++) total += x[i][j] * y[i];
    return total;
  });
  const coefficients = inverse.map((row) => dot(row, xty));
  const residuals = x.map((row, i) => y[i] - dot(row, coefficients));
  const freedom = Math.max(1, y.length - terms.length);
  const sigma = Math.sqrt(residuals.reduce((total, r) => total + r * r, 0) / freedom);
  return {
    coefficients,
    inverse,
    sigma: sigma < 1e-9 * (1 + maxAbs(y)) ? 0 : sigma,
    terms,
    firstDay: start,
    trainingDays: y.length,
    autocorrelation: lagOneAutocorrelation(residuals),
    inflation: 1,
    totalInflation: 1,
  };
}

/**
 * fitModel, its intervals calibrated on its own errors out of sample: at 8 weekly origins (each model fitted
 * on the days before it), the `level` quantile of the errors of the next (up to 28) days over their interval's half-width at
 * level's z; the intervals are widened by that ratio when it exceeds 1 (residuals in sample understate the errors
 * of days the model has not seen: level changes, heavier tails). Totals of several days get their own ratio, from
 * the errors of the totals of the next 7, 14, 21 and 28 days: a change of level moves all of a total's days one way,
 * which neither the days' ratio nor the residuals' autocorrelation measures.
 */
export function fitCalibrated(values: readonly number[], firstDay: number, level: number): FittedModel {
  const model = fitModel(values, firstDay);
  const z = normalQuantile(0.5 + level / 200);
  const { days, totals } = outOfSampleRatios(values, firstDay, level, z);
  if (days.length < BACKTEST_HORIZON * 2) return model;
  const inflation = Math.max(1, quantile(days, level / 100) / z);
  const totalInflation = totals.length >= MIN_TOTAL_RATIOS ? Math.max(1, quantile(totals, level / 100) / z) : inflation;
  return { ...model, inflation, totalInflation };
}

/**
 * At each calibration origin, the errors of the (uncalibrated) model fitted before it over their intervals'
 * half-widths, times `z` (the level's normal quantile: a ratio above it means an interval too narrow): of each of
 * the next days, and of the totals of the next 7, 14, 21 and 28 days.
 */
function outOfSampleRatios(values: readonly number[], firstDay: number, level: number, z: number): { days: number[]; totals: number[] } {
  const ratios = { days: [] as number[], totals: [] as number[] };
  const push = (list: number[], estimate: Estimate, actual: number) => {
    const halfWidth = estimate.upper - estimate.mean;
    if (halfWidth > 0) list.push((Math.abs(actual - estimate.mean) / halfWidth) * z);
  };
  for (let k = CALIBRATION_ORIGINS; k >= 1; k--) {
    const origin = values.length - k * BACKTEST_HORIZON;
    if (origin < MIN_HISTORY_DAYS) continue;
    const earlier = fitModel(values.slice(0, origin), firstDay);
    const horizon = Math.min(CALIBRATION_HORIZON, values.length - origin);
    for (let i = 0; i < horizon; i++) push(ratios.days, estimateTotal(earlier, [firstDay + origin + i], level, false), values[origin + i]);
    for (let length = BACKTEST_HORIZON; length <= horizon; length += BACKTEST_HORIZON) {
      const span = Array.from({ length }, (_, i) => firstDay + origin + i);
      const actual = values.slice(origin, origin + length).reduce((total, value) => total + value, 0);
      push(ratios.totals, estimateTotal(earlier, span, level, false), actual);
    }
  }
  return ratios;
}

/** Weekly origins a backtest scores, and the days after each; a calibration scores twice as many. */
const BACKTEST_ORIGINS = 4;
const BACKTEST_HORIZON = 7;
const CALIBRATION_ORIGINS = 8;
/** Days after a calibration origin scored: up to four weeks, as far as a month's forecast reaches. */
const CALIBRATION_HORIZON = 28;
/** Fewest out-of-sample totals their own ratio is taken from; with fewer, totals are widened as days are. */
const MIN_TOTAL_RATIOS = 8;

/**
 * The estimate of the total over `days` (day numbers, each after the training days): Σ of the days' means, and an
 * interval of ±z·σ·inflation·√(v + sᵀ(XᵀX)⁻¹s), s the sum of the days' features: the residuals of n days, which err
 * together as much as the fit's residuals did (v = n + 2·Σₖ (n − k)·ρᵏ, ρ their lag-1 autocorrelation), and the
 * shared error of the fitted terms.
 */
export function estimateTotal(model: FittedModel, days: readonly number[], level: number, floorAtZero: boolean): Estimate {
  const sums = new Array<number>(model.terms.length).fill(0);
  for (const day of days) {
    const row = features(model.terms, day, model.firstDay);
    for (let j = 0; j < row.length; j++) sums[j] += row[j];
  }
  const mean = dot(sums, model.coefficients);
  const variance = correlatedDays(days.length, model.autocorrelation) + quadratic(model.inverse, sums);
  const inflation = days.length > 1 ? model.totalInflation : model.inflation;
  const spread = normalQuantile(0.5 + level / 200) * model.sigma * inflation * Math.sqrt(variance);
  const floor = (value: number) => (floorAtZero ? Math.max(0, value) : value);
  return { mean: floor(mean), lower: floor(mean - spread), upper: floor(mean + spread) };
}

/** Backtest over rolling origins: each fitted on the days before it and scored on the next `horizon` days. */
export interface Backtest {
  origins: number;
  horizonDays: number;
  /** Mean absolute percentage error of the horizon totals (origins whose actual total is 0 left out); null: none scored. */
  mape: number | null;
  /** Share of the scored days whose actual fell inside its interval. */
  intervalCoverage: number | null;
}

export function backtest(
  values: readonly number[],
  firstDay: number,
  level: number,
  origins = BACKTEST_ORIGINS,
  horizon = BACKTEST_HORIZON,
): Backtest {
  const errors: number[] = [];
  let inside = 0;
  let scored = 0;
  let used = 0;
  for (let k = origins; k >= 1; k--) {
    const origin = values.length - k * horizon;
    if (origin < MIN_HISTORY_DAYS) continue;
    used++;
    const model = fitCalibrated(values.slice(0, origin), firstDay, level);
    const actual = values.slice(origin, origin + horizon);
    const days = actual.map((_, i) => firstDay + origin + i);
    const floorAtZero = values.slice(0, origin).every((value) => value >= 0);
    const total = estimateTotal(model, days, level, floorAtZero);
    const actualTotal = actual.reduce((sum, value) => sum + value, 0);
    if (actualTotal !== 0) errors.push(Math.abs(total.mean - actualTotal) / Math.abs(actualTotal));
    days.forEach((day, i) => {
      const estimate = estimateTotal(model, [day], level, floorAtZero);
      scored++;
      if (actual[i] >= estimate.lower - 1e-9 && actual[i] <= estimate.upper + 1e-9) inside++;
    });
  }
  return {
    origins: used,
    horizonDays: horizon,
    mape: errors.length ? errors.reduce((sum, error) => sum + error, 0) / errors.length : null,
    intervalCoverage: scored ? inside / scored : null,
  };
}

/** The standard normal quantile (Acklam's rational approximation, relative error below 1.2e-9). */
export function normalQuantile(p: number): number {
  const a = [-39.69683028665376, 220.9460984245205, -275.9285104469687, 138.357751867269, -30.66479806614716, 2.506628277459239];
  const b = [-54.47609879822406, 161.5858368580409, -155.6989798598866, 66.80131188771972, -13.28068155288572];
  const c = [-0.007784894002430293, -0.3223964580411365, -2.400758277161838, -2.549732539343734, 4.374664141464968, 2.938163982698783];
  const d = [0.007784695709041462, 0.3224671290700398, 2.445134137142996, 3.754408661907416];
  const low = 0.02425;
  const tail = (q: number) =>
    (((((c[0] * q + c[1]) * q + c[2]) * q + c[3]) * q + c[4]) * q + c[5]) / ((((d[0] * q + d[1]) * q + d[2]) * q + d[3]) * q + 1);
  if (p < low) return tail(Math.sqrt(-2 * Math.log(p)));
  if (p > 1 - low) return -tail(Math.sqrt(-2 * Math.log(1 - p)));
  const q = p - 0.5;
  const r = q * q;
  return (
    ((((((a[0] * r + a[1]) * r + a[2]) * r + a[3]) * r + a[4]) * r + a[5]) * q) /
    (((((b[0] * r + b[1]) * r + b[2]) * r + b[3]) * r + b[4]) * r + 1)
  );
}

function gram(x: number[][]): number[][] {
  const p = x[0]?.length ?? 0;
  const product = Array.from({ length: p }, () => new Array<number>(p).fill(0));
  for (const row of x) {
    for (let i = 0; i < p; i++) for (let j = 0; j < p; j++) product[i][j] += row[i] * row[j];
  }
  return product;
}

/** Gauss–Jordan inversion with partial pivoting (the matrices here are at most 9 × 9 and well conditioned). */
function invert(matrix: number[][]): number[][] {
  const n = matrix.length;
  const a = matrix.map((row, i) => [...row, ...Array.from({ length: n }, (_, j) => (i === j ? 1 : 0))]);
  for (let col = 0; col < n; col++) {
    let pivot = col;
    for (let row = col + 1; row < n; row++) if (Math.abs(a[row][col]) > Math.abs(a[pivot][col])) pivot = row;
    [a[col], a[pivot]] = [a[pivot], a[col]];
    const head = a[col][col];
    for (let j = 0; j < 2 * n; j++) a[col][j] /= head;
    for (let row = 0; row < n; row++) {
      if (row === col) continue;
      const factor = a[row][col];
      for (let j = 0; j < 2 * n; j++) a[row][j] -= factor * a[col][j];
    }
  }
  return a.map((row) => row.slice(n));
}

/** The variance of a sum of n residuals with lag-1 autocorrelation ρ (an AR(1) process), over one residual's. */
function correlatedDays(n: number, rho: number): number {
  let variance = n;
  for (let k = 1; k < n && rho > 0; k++) variance += 2 * (n - k) * rho ** k;
  return variance;
}

function lagOneAutocorrelation(residuals: readonly number[]): number {
  const squares = residuals.reduce((total, r) => total + r * r, 0);
  if (squares === 0 || residuals.length < 3) return 0;
  const lagged = residuals.slice(1).reduce((total, r, i) => total + r * residuals[i], 0);
  return Math.min(0.9, Math.max(0, lagged / squares));
}

/** The q-quantile of `values` (linear between order statistics). */
function quantile(values: readonly number[], q: number): number {
  const sorted = [...values].sort((a, b) => a - b);
  const position = q * (sorted.length - 1);
  const below = Math.floor(position);
  return sorted[below] + (sorted[Math.min(below + 1, sorted.length - 1)] - sorted[below]) * (position - below);
}

function dot(a: readonly number[], b: readonly number[]): number {
  let total = 0;
  for (let i = 0; i < a.length; i++) total += a[i] * b[i];
  return total;
}

function quadratic(m: number[][], v: number[]): number {
  let total = 0;
  for (let i = 0; i < v.length; i++) total += v[i] * dot(m[i], v);
  return total;
}
const maxAbs = (values: readonly number[]) => values.reduce((max, value) => Math.max(max, Math.abs(value)), 0);
