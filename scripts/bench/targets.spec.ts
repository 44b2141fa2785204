import { judgeTargets, MeasuredRun } from './targets';

function run(overrides: {
  api?: number[];
  clickhouse?: number[];
  postgres?: number[] | null;
  raw?: number;
  projected?: number;
  share?: number;
}): MeasuredRun {
  const api = overrides.api ?? [50, 60];
  const clickhouse = overrides.clickhouse ?? [45, 55];
  const postgres = overrides.postgres === undefined ? [5000, 6000] : overrides.postgres;
  return {
    cases: api.map((p50, i) => ({
      case: `case ${i}`,
      api: { p50 },
      clickhouse: { p50: clickhouse[i] },
      ...(postgres ? { postgres: { p50: postgres[i] } } : {}),
    })),
    projection: {
      rawScan: { p50: overrides.raw ?? 600 },
      projection: { p50: overrides.projected ?? 50 },
      engine: { rawScan: { p50: 590 }, projection: { p50: 45 } },
    },
    throughput: { probe: { requestsPerSecond: 1000 }, tinyData: { requestsPerSecond: (overrides.share ?? 0.5) * 1000 } },
  };
}

describe('judgeTargets', () => {
  it('meets all four when every ratio is on the right side', () => {
    expect(judgeTargets(run({})).map((v) => v.met)).toEqual([true, true, true, true]);
  });

  it('judges a forecast or an anomaly scan against its /data question: at most 2×, each case named', () => {
    const insights = [
      { case: 'forecast', data: { p50: 50 }, insight: { p50: 100 } },
      { case: 'scan', data: { p50: 300 }, insight: { p50: 1200 } },
    ];
    const verdict = judgeTargets({ ...run({}), insights }).find((v) => v.target.includes('anomaly scan'))!;
    expect(verdict.met).toBe(false);
    expect(verdict.detail).toBe('forecast 2.0000; scan 4.0000; missed by scan');
    expect(judgeTargets({ ...run({}), insights: insights.slice(0, 1) }).at(-1)!.met).toBe(true);
  });

  it('judges the insights measured again once the organisation activated tag keys on their own', () => {
    const insights = [{ case: 'scan', data: { p50: 100 }, insight: { p50: 290 } }];
    const activated = { pairs: [], insights: [{ case: 'scan', data: { p50: 100 }, insight: { p50: 190 } }] };
    const verdicts = judgeTargets({ ...run({}), insights, activated }).filter((v) => v.target.includes('anomaly scan'));
    expect(verdicts.map((v) => [v.target.endsWith('activated'), v.met, v.detail])).toEqual([
      [false, false, 'scan 2.9000; missed by scan'],
      [true, true, 'scan 1.9000'],
    ]);
  });

  it('judges the unrounded ratio: 1.1511 misses although it prints as 1.15', () => {
    const [overhead] = judgeTargets(run({ api: [73.75, 50], clickhouse: [64.07, 48] }));
    expect(overhead.met).toBe(false);
    expect(overhead.detail).toContain('missed by case 0 1.1511');
  });

  it('accepts a ratio exactly at the line', () => {
    expect(judgeTargets(run({ api: [115, 50], clickhouse: [100, 48] }))[0].met).toBe(true);
  });

  it('names the case that misses PostgreSQL ÷ API, and says when PostgreSQL was not measured', () => {
    const [, missed] = judgeTargets(run({ api: [100, 50], postgres: [1994, 6000] }));
    expect(missed.met).toBe(false);
    expect(missed.detail).toContain('case 0 19.94');
    const [, skipped] = judgeTargets(run({ postgres: null }));
    expect(skipped.met).toBeUndefined();
    expect(skipped.detail).toContain('not measured');
  });

  it('judges pre-aggregation as the client sees it and reports the engine too', () => {
    const [, , preAggregation] = judgeTargets(run({ raw: 294.71, projected: 30.76 }));
    expect(preAggregation.met).toBe(false);
    expect(preAggregation.detail).toBe('×9.58 as the client sees it, ×13.11 in the engine');
  });

  it('judges the small-request share against 40 %', () => {
    expect(judgeTargets(run({ share: 0.39 }))[3].met).toBe(false);
    expect(judgeTargets(run({ share: 0.4 }))[3].met).toBe(true);
  });

  it("judges issue 23's targets when measured: every tag pair within 1.5× of its column question, the tag pre-aggregation ≥ 10×", () => {
    const measured = {
      ...run({}),
      tagPairs: [
        { pair: 'daily', column: { api: { p50: 40 } }, tag: { api: { p50: 60 } } },
        { pair: 'monthly', column: { api: { p50: 30 } }, tag: { api: { p50: 45.03 } } },
      ],
      tagProjection: { rawScan: { p50: 900 }, projection: { p50: 36 } },
    };
    const [pairs, speedup] = judgeTargets(measured).slice(4);
    expect(pairs).toEqual(expect.objectContaining({ met: false, detail: '1.5000–1.5010; missed by monthly 1.5010' }));
    expect(speedup).toEqual(expect.objectContaining({ met: true, detail: '×25.00' }));
    expect(judgeTargets(run({}))).toHaveLength(4); // a run without them is judged on the four
  });

  it("judges issue 34's target when measured: every activated tag pair within 1.3× of its column question", () => {
    const pair = (name: string, column: number, tag: number) => ({
      pair: name,
      column: { api: { p50: column } },
      tag: { api: { p50: tag } },
    });
    const judged = (pairs: ReturnType<typeof pair>[]) =>
      judgeTargets({ ...run({}), activated: { pairs } }).find((v) => v.target.includes('activated keys'))!;
    expect(judged([pair('daily', 40, 52), pair('monthly', 30, 39.03)])).toEqual(
      expect.objectContaining({ met: false, detail: '1.3000–1.3010; missed by monthly 1.3010' }),
    );
    expect(judged([pair('daily', 40, 30), pair('monthly', 30, 39)])).toEqual(
      expect.objectContaining({ met: true, detail: '0.7500–1.3000' }),
    );
    expect(judgeTargets({ ...run({}), activated: { pairs: [] } })).toHaveLength(4); // no pairs: not judged
  });
});
