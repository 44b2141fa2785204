/**
 * How each case's time grows with the estate (not a test): reads bench results of different estate sizes and writes
 * the curve (per size: rows/s of the estate's INSERT … SELECT, disk per million line items, the p50 of the six standard
 * questions, a forecast, an anomaly scan, a rule-defined category and a budget status where measured), then one row per
 * case — p50 as the client sees it at each size, and how much it grew against how much the estate grew — and the
 * curve as a plot. Pre-aggregated paths should grow far slower than the estate.
 *
 *   npx ts-node -T scripts/bench/growth.ts bench/results/<1M>.json bench/results/<10M>.json bench/results/<100M>.json
 *   npm run bench -- --growth [--sizes 1000000,10000000,100000000] [bench flags]   (run.ts: one bench per size, then this)
 *
 * Output: bench/results/<timestamp>-growth.md (and the same on stdout), docs/images/growth.svg and README.md's figures
 * table (readmeFigures).
 */
import { readFileSync, writeFileSync } from 'node:fs';
import { basename, resolve } from 'node:path';
import { CASES } from './cases';

interface Timing {
  p50: number;
}
interface BenchResult {
  estate: { rows: number; measuredOrganizationRows: number; generateSeconds?: number };
  insights?: Array<{ case: string; insight: Timing }>;
  ruleCategories?: { pairs: Array<{ pair: string; tag: { api: Timing } }> };
  budgets?: { status: Timing };
  disk?: Array<{ name: string; mbPerMillionLineItems: number }>;
  cases: Array<{ case: string; api: Timing; clickhouseReadRows: number; apiOverClickhouseP50: number }>;
  tagPairs?: Array<{
    pair: string;
    column: { api: Timing; readRows: number };
    tag: { api: Timing; readRows: number };
    tagOverColumnApiP50: number;
  }>;
  projection?: PreAggregation;
  tagProjection?: PreAggregation;
}
/** A 12-month case with projections off (rawScan) and on, the same statements run directly on ClickHouse. */
interface PreAggregation {
  case: string;
  rawScan: Timing & { readRows: number };
  projection: Timing & { readRows: number };
}

/** One measured question: its p50 and rows read at each estate size (in the order of the results given). */
interface Series {
  name: string;
  p50: (number | undefined)[];
  readRows: (number | undefined)[];
}

function seriesOf(results: BenchResult[]): Series[] {
  const byName = new Map<string, Series>();
  const add = (index: number, name: string, p50: number, readRows: number) => {
    const series = byName.get(name) ?? { name, p50: results.map(() => undefined), readRows: results.map(() => undefined) };
    series.p50[index] = p50;
    series.readRows[index] = readRows;
    byName.set(name, series);
  };
  results.forEach((result, i) => {
    for (const c of result.cases) add(i, c.case, c.api.p50, c.clickhouseReadRows);
    for (const pair of result.tagPairs ?? []) {
      add(i, `${pair.pair} — by column`, pair.column.api.p50, pair.column.readRows);
      add(i, `${pair.pair} — by tag`, pair.tag.api.p50, pair.tag.readRows);
    }
    // Direct statements, not the API: what the pre-aggregation saves as the estate grows.
    for (const pre of [result.projection, result.tagProjection]) {
      if (!pre) continue;
      add(i, `${pre.case}, ClickHouse, from the line items (projections off)`, pre.rawScan.p50, pre.rawScan.readRows);
      add(i, `${pre.case}, ClickHouse, from the projection`, pre.projection.p50, pre.projection.readRows);
    }
  });
  return [...byName.values()];
}

const millions = (rows: number) => `${+(rows / 1e6).toFixed(1)}M`;
const times = (value: number) => `×${value.toFixed(value < 10 ? 2 : 1)}`;

function growthTable(files: string[], results: BenchResult[]): string {
  const first = results[0].estate.rows;
  const header = [
    '| case | ' + results.map((r) => `p50 at ${millions(r.estate.rows)} (ms)`).join(' | ') + ' | time grew | rows read grew |',
    '|---|' + results.map(() => '---:|').join('') + '---:|---:|',
  ];
  const lines = seriesOf(results).map((s) => {
    const lastIndex = results.length - 1;
    const grew = s.p50[0] && s.p50[lastIndex] ? times(s.p50[lastIndex]! / s.p50[0]) : '–';
    const readGrew = s.readRows[0] && s.readRows[lastIndex] ? times(s.readRows[lastIndex]! / s.readRows[0]) : '–';
    return `| ${s.name} | ${s.p50.map((p) => (p === undefined ? '–' : p.toFixed(2))).join(' | ')} | ${grew} | ${readGrew} |`;
  });
  const estateGrew = results[results.length - 1].estate.rows / first;
  return [
    `# Growth with the estate`,
    '',
    `From ${files.map((f) => `\`${basename(f)}\``).join(', ')}. The estate grew ${times(estateGrew)} ` +
      `(${results.map((r) => millions(r.estate.rows)).join(' → ')} line items; the measured organisation ` +
      `${results.map((r) => millions(r.estate.measuredOrganizationRows)).join(' → ')}). "time grew" and "rows read grew" ` +
      `compare the largest estate with the smallest; the API's p50 as the client sees it (the rows marked ClickHouse: ` +
      `the same statements run directly, projections off and on).`,
    '',
    ...header,
    ...lines,
    '',
  ].join('\n');
}

/** The questions the curve follows, each read from a result where it was measured. */
const CURVE: Array<{ name: string; p50: (result: BenchResult) => number | undefined }> = [
  ...CASES.map(({ name }) => name).map((name) => ({
    name,
    p50: (result: BenchResult) => result.cases.find((c) => c.case === name)?.api.p50,
  })),
  { name: 'forecast', p50: (result) => result.insights?.find((i) => i.case.startsWith('forecast'))?.insight.p50 },
  { name: 'anomaly scan', p50: (result) => result.insights?.find((i) => i.case.startsWith('anomaly'))?.insight.p50 },
  {
    name: 'rule-defined category (monthly, 12 months)',
    p50: (result) => result.ruleCategories?.pairs.find((p) => p.pair.startsWith('monthly'))?.tag.api.p50,
  },
  { name: 'budget status', p50: (result) => result.budgets?.status.p50 },
];

/** Disk per million line items: the rows and every projection together. */
function diskPerMillion(result: BenchResult): number | undefined {
  return result.disk?.reduce((total, table) => total + table.mbPerMillionLineItems, 0);
}

function curveTable(results: BenchResult[]): string[] {
  const measured = CURVE.filter((question) => results.some((result) => question.p50(result) !== undefined));
  const cell = (value: number | undefined, digits = 2) => (value === undefined ? '–' : value.toFixed(digits));
  return [
    '| line items | INSERT … SELECT rows/s | MB per million | ' + measured.map((q) => `${q.name} p50 (ms)`).join(' | ') + ' |',
    '|---:|---:|---:|' + measured.map(() => '---:|').join(''),
    ...results.map((result) => {
      const generated = result.estate.generateSeconds
        ? Math.round(result.estate.rows / result.estate.generateSeconds).toLocaleString('en-US')
        : '–';
      return `| ${millions(result.estate.rows)} | ${generated} | ${cell(diskPerMillion(result), 1)} | ${measured.map((q) => cell(q.p50(result))).join(' | ')} |`;
    }),
  ];
}

/** The least and the greatest of some figures, as `a–b` (one figure alone as itself); '' for none. */
function span(values: number[], format: (value: number) => string): string {
  if (values.length === 0) return '';
  const [low, high] = [Math.min(...values), Math.max(...values)];
  return format(low) === format(high) ? format(low) : `${format(low)}–${format(high)}`;
}
const ms = (value: number) => value.toFixed(0);
const ratio = (value: number) => value.toFixed(2);

/** README's figures table (between its `growth-figures` markers): every row read from the results, one column a size. */
export function readmeFigures(results: BenchResult[]): string[] {
  const row = (label: string, cell: (result: BenchResult) => string) => `| ${label} | ${results.map(cell).join(' | ')} |`;
  const rawToProjection = (pre: PreAggregation | undefined) => (pre ? `${ms(pre.rawScan.p50)} → ${ms(pre.projection.p50)} ms` : '');
  const curve = (name: string, result: BenchResult) => CURVE.find((question) => question.name === name)!.p50(result);
  const insight = (result: BenchResult) =>
    ['forecast', 'anomaly scan', 'rule-defined category (monthly, 12 months)', 'budget status']
      .map((name) => curve(name, result))
      .map((p50) => (p50 === undefined ? '–' : ms(p50)))
      .join(' · ');
  return [
    `| | ${results.map((result, i) => `${millions(result.estate.rows)}${i === 0 ? ' line items' : ''}`).join(' | ')} |`,
    `|---|${results.map(() => '---:|').join('')}`,
    row(
      'the six bench questions through the API (p50)',
      (r) =>
        `${span(
          r.cases.map((c) => c.api.p50),
          ms,
        )} ms`,
    ),
    row('12 months by account: from the line items → from the projection (ClickHouse)', (r) => rawToProjection(r.projection)),
    row('12 months by `tag:team`: from the line items → from the tag projection (ClickHouse)', (r) => rawToProjection(r.tagProjection)),
    row('by a tag ÷ by a column, seven paired questions (target ≤ 1.5)', (r) =>
      span(
        (r.tagPairs ?? []).map((p) => p.tagOverColumnApiP50),
        ratio,
      ),
    ),
    row('API ÷ ClickHouse for the same statements (what the service adds)', (r) =>
      span(
        r.cases.map((c) => c.apiOverClickhouseP50),
        ratio,
      ),
    ),
    row('forecast · anomaly scan · a category of 100 rules (before its splits) · budget status (ms)', insight),
  ];
}

/** README.md with its figures table replaced by these results' (between `<!-- growth-figures -->` and `<!-- /growth-figures -->`). */
function withReadmeFigures(readme: string, results: BenchResult[]): string {
  const [open, close] = ['<!-- growth-figures -->', '<!-- /growth-figures -->'];
  const [start, end] = [readme.indexOf(open), readme.indexOf(close)];
  if (start < 0 || end < start) throw new Error(`README.md has no ${open} … ${close} block to write the figures into`);
  return `${readme.slice(0, start + open.length)}\n${readmeFigures(results).join('\n')}\n${readme.slice(end)}`;
}

const COLOURS = ['#1f77b4', '#ff7f0e', '#2ca02c', '#d62728', '#9467bd', '#8c564b', '#e377c2', '#7f7f7f', '#bcbd22', '#17becf'];

/** p50 against the estate's size (line items, log scale), one line per question of the curve. */
export function growthSvg(results: BenchResult[]): string {
  const [width, height, left, right, top, bottom] = [980, 420, 70, 360, 30, 60];
  const sizes = results.map((result) => Math.log10(result.estate.rows));
  const [low, high] = [Math.min(...sizes), Math.max(...sizes)];
  const lines = CURVE.map((question, i) => ({ question, colour: COLOURS[i % COLOURS.length], p50: results.map(question.p50) })).filter(
    (line) => line.p50.some((p) => p !== undefined),
  );
  const max = Math.max(...lines.flatMap((line) => line.p50.filter((p): p is number => p !== undefined)));
  const x = (log: number) => left + ((width - left - right) * (log - low)) / Math.max(high - low, 1e-9);
  const y = (ms: number) => top + (height - top - bottom) * (1 - ms / max);
  const ticks = [0, 0.25, 0.5, 0.75, 1].map((share) => max * share);
  return [
    `<svg xmlns="http://www.w3.org/2000/svg" width="${width}" height="${height}" viewBox="0 0 ${width} ${height}" font-family="sans-serif">`,
    `<rect width="${width}" height="${height}" fill="white"/>`,
    ...ticks.map(
      (tick) =>
        `<line x1="${left}" x2="${width - right}" y1="${y(tick).toFixed(1)}" y2="${y(tick).toFixed(1)}" stroke="#eee"/><text x="${left - 6}" y="${(y(tick) + 4).toFixed(1)}" font-size="11" text-anchor="end">${Math.round(tick)} ms</text>`,
    ),
    ...results.map(
      (result, i) =>
        `<text x="${x(sizes[i]).toFixed(1)}" y="${height - bottom + 18}" font-size="11" text-anchor="middle">${millions(result.estate.rows)}</text>`,
    ),
    ...lines.flatMap((line, i) => {
      const points = line.p50.flatMap((p, j) => (p === undefined ? [] : [[x(sizes[j]), y(p)] as const]));
      return [
        `<path d="${points.map(([px, py], k) => `${k ? 'L' : 'M'}${px.toFixed(1)},${py.toFixed(1)}`).join(' ')}" fill="none" stroke="${line.colour}" stroke-width="2"/>`,
        ...points.map(([px, py]) => `<circle cx="${px.toFixed(1)}" cy="${py.toFixed(1)}" r="3" fill="${line.colour}"/>`),
        `<text x="${width - right + 14}" y="${top + 14 + 18 * i}" font-size="12" fill="${line.colour}">${line.question.name}</text>`,
      ];
    }),
    `<text x="${left}" y="18" font-size="13">p50 as the client sees it (ms) against the estate's line items (log scale)</text>`,
    `<text x="${left}" y="${height - 20}" font-size="12">npm run bench -- --growth, ${results.map((r) => millions(r.estate.rows)).join(', ')} line items, one machine, one run each</text>`,
    '</svg>',
    '',
  ].join('\n');
}

/** The growth report of bench result files (any order): bench/results/<stamp>-growth.md and docs/images/growth.svg. */
export function writeGrowthReport(files: string[]): string {
  if (files.length < 2) throw new Error('give two or more bench result files (.json) of different estate sizes');
  const results = files.map((f) => JSON.parse(readFileSync(f, 'utf8')) as BenchResult);
  const order = results.map((r, i) => i).sort((a, b) => results[a].estate.rows - results[b].estate.rows);
  const sorted = order.map((i) => results[i]);
  const markdown = [
    growthTable(
      order.map((i) => files[i]),
      sorted,
    ),
    '## The curve',
    '',
    ...curveTable(sorted),
    '',
    '![growth](../../docs/images/growth.svg)',
    '',
  ].join('\n');
  const out = resolve('bench/results', `${new Date().toISOString().replace(/[:.]/g, '-')}-growth.md`);
  writeFileSync(out, markdown);
  writeFileSync(resolve('docs/images/growth.svg'), growthSvg(sorted));
  writeFileSync(resolve('README.md'), withReadmeFigures(readFileSync(resolve('README.md'), 'utf8'), sorted));
  process.stdout.write(`${markdown}\nwritten: ${out}, docs/images/growth.svg and README.md's figures\n`);
  return out;
}

if (require.main === module) writeGrowthReport(process.argv.slice(2));
