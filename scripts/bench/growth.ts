/**
 * How each case's time grows with the estate (not a test): reads bench results of different estate sizes and writes
 * one table per kind of case — p50 as the client sees it at each size, and how much it grew against how much the
 * estate grew. Pre-aggregated paths should grow far slower than the estate.
 *
 *   npx ts-node -T scripts/bench/growth.ts bench/results/<1M>.json bench/results/<10M>.json bench/results/<30M>.json
 *
 * Output: bench/results/<timestamp>-growth.md (and the same table on stdout).
 */
import { readFileSync, writeFileSync } from 'node:fs';
import { basename, resolve } from 'node:path';

interface Timing {
  p50: number;
}
interface BenchResult {
  estate: { rows: number; measuredOrganizationRows: number };
  cases: Array<{ case: string; api: Timing; clickhouseReadRows: number }>;
  tagPairs?: Array<{ pair: string; column: { api: Timing; readRows: number }; tag: { api: Timing; readRows: number } }>;
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

function main(): void {
  const files = process.argv.slice(2);
  if (files.length < 2) throw new Error('give two or more bench result files (.json) of different estate sizes');
  const results = files.map((f) => JSON.parse(readFileSync(f, 'utf8')) as BenchResult);
  const order = results.map((r, i) => i).sort((a, b) => results[a].estate.rows - results[b].estate.rows);
  const markdown = growthTable(
    order.map((i) => files[i]),
    order.map((i) => results[i]),
  );
  const out = resolve('bench/results', `${new Date().toISOString().replace(/[:.]/g, '-')}-growth.md`);
  writeFileSync(out, markdown);
  process.stdout.write(`${markdown}\nwritten: ${out}\n`);
}

main();
